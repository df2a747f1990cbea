//! The page: the only module that touches wasm-bindgen and web-sys.
//!
//! It is deliberately thin. On load it reads the link into a [`Config`],
//! builds one control per row of the parameter table, runs and draws. On
//! every input it updates the `Config`, rewrites the address bar with
//! `replaceState` (one history entry per visit, not per pixel of a drag) and
//! asks for one redraw per animation frame, however many events arrive.
//! Text that came from a link only ever reaches the page as text content.

use std::cell::RefCell;

use plotters::prelude::*;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, HtmlCanvasElement, HtmlInputElement, HtmlSelectElement};

use crate::chart::{self, Theme};
use crate::config::{Config, Group, Kind, Notice, PARAMS, Param};
use crate::presets::{self, PRESETS};
use crate::report;
use crate::sim::Report;
use crate::sweep;

/// Slider positions of a logarithmic slider.
const LOG_STEPS: f64 = 1000.0;

/// A sweep being computed a few points at a time between frames.
struct SweepJob {
    /// The state it belongs to: a newer state replaces the job.
    link: String,
    curves: Vec<sweep::SweepCurve>,
    points: Vec<Vec<sweep::Point>>,
}

struct App {
    sweep: Option<SweepJob>,
    document: Document,
    config: Config,
    /// Compare mode: the policy controls show and edit policy B.
    editing_b: bool,
    frame_pending: bool,
    renders: u32,
}

impl App {
    /// Whether parameter `index` is currently shown and edited as policy B's.
    fn on_b(&self, index: usize) -> bool {
        self.editing_b && self.config.comparing() && PARAMS[index].per_policy()
    }

    fn shown_value(&self, index: usize) -> f64 {
        if self.on_b(index) {
            self.config.value_b_at(index)
        } else {
            self.config.value_at(index)
        }
    }

    fn set_value(&mut self, index: usize, value: f64) -> Option<String> {
        if self.on_b(index) {
            self.config.set_b_at(index, value)
        } else {
            self.config.set_at(index, value)
        }
    }

    /// Puts every value into its widgets, e.g. after switching A and B.
    fn show_all(&self) {
        for (index, param) in PARAMS.iter().enumerate() {
            if let Some(row) = self
                .document
                .get_element_by_id(&format!("param-{}", param.key))
            {
                show_value(&row, param, self.shown_value(index));
            }
        }
        let comparing = self.config.comparing();
        if let Some(sides) = self.document.get_element_by_id("sides") {
            let _ = if comparing {
                sides.remove_attribute("hidden")
            } else {
                sides.set_attribute("hidden", "")
            };
        }
        let on_b = self.editing_b && comparing;
        for (id, pressed) in [("edit-a", !on_b), ("edit-b", on_b)] {
            if let Some(button) = self.document.get_element_by_id(id) {
                let _ =
                    button.set_attribute("aria-pressed", if pressed { "true" } else { "false" });
            }
        }
        if let Some(form) = self.document.get_element_by_id("controls") {
            let _ = form.class_list().toggle_with_force("editing-b", on_b);
        }
    }
}

thread_local! {
    static APP: RefCell<Option<App>> = const { RefCell::new(None) };
}

fn document() -> Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("the page has a document")
}

/// Entry point, called by the generated loader.
#[wasm_bindgen(start)]
pub fn start() -> Result<(), JsValue> {
    std::panic::set_hook(Box::new(show_panic));
    let document = document();
    let search = web_sys::window()
        .map(|w| w.location().search().unwrap_or_default())
        .unwrap_or_default();
    let (config, notices) = presets::open(&search);
    build_presets(&document)?;
    build_controls(&document, &config)?;
    show_notices(&document, &notices);
    APP.with(|app| {
        *app.borrow_mut() = Some(App {
            document: document.clone(),
            config,
            sweep: None,
            editing_b: false,
            frame_pending: false,
            renders: 0,
        })
    });
    listen(&document)?;
    with_app(|app| app.show_all());
    sync_link();
    render();
    Ok(())
}

/// The report of a link as JSON: the same text the command line prints for
/// that link, so tests can compare the browser's numbers with native ones.
#[wasm_bindgen]
pub fn report_json(link: &str) -> String {
    report::json_for(&presets::open(link).0)
}

/// Re-simulates and redraws the current state at once, returning the time
/// it took in ms: what the in-browser benchmark measures.
#[wasm_bindgen]
pub fn redraw_now() -> f64 {
    let started = now();
    render();
    now() - started
}

/// A test-only hook: makes the core panic so the banner can be checked.
#[wasm_bindgen]
pub fn panic_for_test() {
    panic!("panic requested by a test");
}

fn show_panic(info: &std::panic::PanicHookInfo<'_>) {
    let document = document();
    if let Some(banner) = document.get_element_by_id("panic") {
        if let Some(text) = banner.query_selector(".why").ok().flatten() {
            text.set_text_content(Some(&info.to_string()));
        }
        let _ = banner.remove_attribute("hidden");
    }
    web_sys::console::error_1(&JsValue::from_str(&info.to_string()));
}

fn is_log(param: &Param) -> Option<(f64, f64)> {
    match param.kind {
        Kind::Number { min, max, .. } if min > 0.0 && max / min >= 100.0 => Some((min, max)),
        _ => None,
    }
}

/// Slider position of a value (log sliders move in ratios, not steps).
fn slider_position(param: &Param, value: f64) -> f64 {
    match is_log(param) {
        Some((min, max)) => (LOG_STEPS * (value / min).ln() / (max / min).ln()).round(),
        None => value,
    }
}

fn slider_value(param: &Param, position: f64) -> f64 {
    match is_log(param) {
        Some((min, max)) => {
            let raw = min * ((max / min).ln() * position / LOG_STEPS).exp();
            // Three significant digits read better than 0.10471285...
            let digits = 10f64.powi(2 - raw.log10().floor() as i32);
            (raw * digits).round() / digits
        }
        None => position,
    }
}

fn element(document: &Document, tag: &str, class: &str) -> Result<Element, JsValue> {
    let element = document.create_element(tag)?;
    if !class.is_empty() {
        element.set_class_name(class);
    }
    Ok(element)
}

fn build_presets(document: &Document) -> Result<(), JsValue> {
    let Some(select) = document.get_element_by_id("preset") else {
        return Ok(());
    };
    for (i, preset) in PRESETS.iter().enumerate() {
        let option = element(document, "option", "")?;
        option.set_text_content(Some(preset.title));
        option.set_attribute("value", &i.to_string())?;
        select.append_child(&option)?;
    }
    let custom = element(document, "option", "")?;
    custom.set_text_content(Some("(your own settings)"));
    custom.set_attribute("value", "custom")?;
    custom.set_attribute("disabled", "")?;
    select.append_child(&custom)?;
    let change = Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| {
        let chosen = event
            .target()
            .and_then(|t| t.dyn_into::<HtmlSelectElement>().ok())
            .and_then(|s| s.value().parse::<usize>().ok())
            .and_then(|i| PRESETS.get(i));
        if let Some(preset) = chosen {
            load(preset.config());
        }
    });
    select.add_event_listener_with_callback("change", change.as_ref().unchecked_ref())?;
    change.forget();
    Ok(())
}

/// Replaces the whole configuration (a preset was chosen).
fn load(config: Config) {
    with_app(|app| {
        app.config = config;
        app.editing_b = false;
        app.show_all();
        show_notices(&app.document, &[]);
    });
    sync_link();
    schedule();
}

fn build_controls(document: &Document, config: &Config) -> Result<(), JsValue> {
    let form = document
        .get_element_by_id("controls")
        .ok_or("the page lacks #controls")?;
    for group in Group::ALL {
        let fieldset = element(document, "fieldset", "")?;
        let legend = element(document, "legend", "")?;
        legend.set_text_content(Some(group.title()));
        fieldset.append_child(&legend)?;
        for (index, param) in PARAMS.iter().enumerate().filter(|(_, p)| p.group == group) {
            let row = control(document, index, param, config.value_at(index))?;
            fieldset.append_child(&row)?;
        }
        form.append_child(&fieldset)?;
    }
    Ok(())
}

/// One parameter: label, slider (or list), number box, help line.
fn control(
    document: &Document,
    index: usize,
    param: &Param,
    value: f64,
) -> Result<Element, JsValue> {
    let row = element(
        document,
        "div",
        if param.per_policy() {
            "param per-policy"
        } else {
            "param"
        },
    )?;
    row.set_id(&format!("param-{}", param.key));
    let help_id = format!("help-{}", param.key);
    let label = element(document, "label", "")?;
    label.set_text_content(Some(param.label));
    if !param.unit.is_empty() {
        let unit = element(document, "span", "unit")?;
        unit.set_text_content(Some(&format!(" ({})", param.unit)));
        label.append_child(&unit)?;
    }
    row.append_child(&label)?;
    match param.kind {
        Kind::Choice(options) => {
            let select = element(document, "select", "")?;
            select.set_id(&format!("in-{}", param.key));
            select.set_attribute("data-index", &index.to_string())?;
            select.set_attribute("data-role", "choice")?;
            select.set_attribute("aria-describedby", &help_id)?;
            for (i, name) in options.iter().enumerate() {
                let option = element(document, "option", "")?;
                option.set_text_content(Some(name));
                option.set_attribute("value", &i.to_string())?;
                select.append_child(&option)?;
            }
            label.set_attribute("for", &select.id())?;
            row.append_child(&select)?;
        }
        Kind::Number { .. } | Kind::Integer { .. } => {
            let (min, max, step) = match param.kind {
                Kind::Number { min, max, step } => (min, max, step),
                Kind::Integer { min, max } => (min, max, 1.0),
                Kind::Choice(_) => unreachable!("handled above"),
            };
            let slider = element(document, "input", "")?;
            slider.set_id(&format!("in-{}", param.key));
            slider.set_attribute("type", "range")?;
            slider.set_attribute("data-index", &index.to_string())?;
            slider.set_attribute("data-role", "slider")?;
            slider.set_attribute("aria-describedby", &help_id)?;
            match is_log(param) {
                Some(_) => {
                    slider.set_attribute("min", "0")?;
                    slider.set_attribute("max", &LOG_STEPS.to_string())?;
                    slider.set_attribute("step", "1")?;
                }
                None => {
                    slider.set_attribute("min", &min.to_string())?;
                    slider.set_attribute("max", &max.to_string())?;
                    slider.set_attribute("step", &step.to_string())?;
                }
            }
            label.set_attribute("for", &slider.id())?;
            let number = element(document, "input", "")?;
            number.set_id(&format!("num-{}", param.key));
            number.set_attribute("type", "number")?;
            number.set_attribute("data-index", &index.to_string())?;
            number.set_attribute("data-role", "number")?;
            number.set_attribute("min", &min.to_string())?;
            number.set_attribute("max", &max.to_string())?;
            number.set_attribute("step", "any")?;
            number.set_attribute("aria-label", &format!("{} value", param.label))?;
            row.append_child(&slider)?;
            row.append_child(&number)?;
        }
    }
    let help = element(document, "p", "help")?;
    help.set_id(&help_id);
    help.set_text_content(Some(param.help));
    row.append_child(&help)?;
    show_value(&row, param, value);
    Ok(row)
}

/// Puts a value into a parameter's widgets.
fn show_value(row: &Element, param: &Param, value: f64) {
    let inputs = row.query_selector_all("input, select").ok();
    let Some(inputs) = inputs else { return };
    for i in 0..inputs.length() {
        let Some(node) = inputs.item(i) else { continue };
        if let Some(select) = node.dyn_ref::<HtmlSelectElement>() {
            select.set_value(&(value as usize).to_string());
        } else if let Some(input) = node.dyn_ref::<HtmlInputElement>() {
            match input.get_attribute("data-role").as_deref() {
                Some("slider") => input.set_value(&slider_position(param, value).to_string()),
                _ => input.set_value(&param.format(value)),
            }
        }
    }
}

fn show_notices(document: &Document, notices: &[Notice]) {
    let Some(list) = document.get_element_by_id("notices") else {
        return;
    };
    list.set_text_content(None);
    for notice in notices {
        if let Ok(item) = document.create_element("li") {
            item.set_text_content(Some(&format!("{}: {}", notice.key, notice.message)));
            let _ = list.append_child(&item);
        }
    }
    if notices.is_empty() {
        let _ = list.set_attribute("hidden", "");
    } else {
        let _ = list.remove_attribute("hidden");
    }
}

fn listen(document: &Document) -> Result<(), JsValue> {
    let form = document
        .get_element_by_id("controls")
        .ok_or("the page lacks #controls")?;
    let input =
        Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| on_input(&event, false));
    form.add_event_listener_with_callback("input", input.as_ref().unchecked_ref())?;
    input.forget();
    let change =
        Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| on_input(&event, true));
    form.add_event_listener_with_callback("change", change.as_ref().unchecked_ref())?;
    change.forget();

    if let Some(button) = document.get_element_by_id("new-seed") {
        let click = Closure::<dyn FnMut()>::new(|| {
            let seed = (js_sys::Math::random() * 4294967296.0).floor();
            set_param("seed", seed);
        });
        button.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
        click.forget();
    }
    for (id, on_b) in [("edit-a", false), ("edit-b", true)] {
        if let Some(button) = document.get_element_by_id(id) {
            let click = Closure::<dyn FnMut()>::new(move || {
                with_app(|app| {
                    app.editing_b = on_b;
                    app.show_all();
                });
            });
            button.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
            click.forget();
        }
    }
    if let Some(button) = document.get_element_by_id("copy-link") {
        let click = Closure::<dyn FnMut()>::new(copy_link);
        button.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
        click.forget();
    }
    let window = web_sys::window().ok_or("no window")?;
    let redraw = Closure::<dyn FnMut()>::new(schedule);
    window.add_event_listener_with_callback("resize", redraw.as_ref().unchecked_ref())?;
    if let Ok(Some(query)) = window.match_media("(prefers-color-scheme: dark)") {
        query.add_event_listener_with_callback("change", redraw.as_ref().unchecked_ref())?;
    }
    redraw.forget();
    Ok(())
}

fn set_param(key: &str, value: f64) {
    let Some(index) = PARAMS.iter().position(|p| p.key == key) else {
        return;
    };
    with_app(|app| {
        app.set_value(index, value);
        app.show_all();
    });
    sync_link();
    schedule();
}

/// A control moved or was typed into. `commit` is the `change` event: the
/// value is final, so a number box that was clamped shows the clamped value.
fn on_input(event: &web_sys::Event, commit: bool) {
    let Some(target) = event.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
        return;
    };
    let Some(index) = target
        .get_attribute("data-index")
        .and_then(|i| i.parse::<usize>().ok())
        .filter(|i| *i < PARAMS.len())
    else {
        return;
    };
    let param = &PARAMS[index];
    let role = target.get_attribute("data-role").unwrap_or_default();
    let raw = if let Some(select) = target.dyn_ref::<HtmlSelectElement>() {
        select.value()
    } else if let Some(input) = target.dyn_ref::<HtmlInputElement>() {
        input.value()
    } else {
        return;
    };
    let parsed = match role.as_str() {
        "slider" => raw.parse::<f64>().map(|p| slider_value(param, p)).ok(),
        "choice" => raw.parse::<f64>().ok(),
        _ => param.parse(&raw).ok(),
    };
    let mut notices = Vec::new();
    with_app(|app| {
        match parsed {
            Some(value) => {
                if let Some(why) = app.set_value(index, value) {
                    if commit {
                        notices.push(Notice {
                            key: param.key.to_string(),
                            message: why,
                        });
                    }
                }
            }
            None if commit => notices.push(Notice {
                key: param.key.to_string(),
                message: format!(
                    "'{raw}' is not a number; kept {}",
                    param.format(app.shown_value(index))
                ),
            }),
            None => return,
        }
        if let Some(row) = app
            .document
            .get_element_by_id(&format!("param-{}", param.key))
        {
            // While typing, leave the number box alone; the slider follows.
            let value = app.shown_value(index);
            if commit || role != "number" {
                show_value(&row, param, value);
            } else if let Ok(Some(slider)) = row.query_selector("[data-role=slider]") {
                if let Some(slider) = slider.dyn_ref::<HtmlInputElement>() {
                    slider.set_value(&slider_position(param, value).to_string());
                }
            }
        }
        if param.key == "compare" {
            app.show_all();
        }
        if commit {
            show_notices(&app.document, &notices);
        }
    });
    sync_link();
    schedule();
}

fn with_app<R>(f: impl FnOnce(&mut App) -> R) -> Option<R> {
    APP.with(|app| app.borrow_mut().as_mut().map(f))
}

/// Makes the address bar the share link of the current state.
fn sync_link() {
    let Some(link) = with_app(|app| app.config.to_link()) else {
        return;
    };
    if let Some(window) = web_sys::window() {
        if let Ok(history) = window.history() {
            let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&format!("?{link}")));
        }
    }
}

fn copy_link() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let href = window.location().href().unwrap_or_default();
    let _ = window.navigator().clipboard().write_text(&href);
    if let Some(status) = document().get_element_by_id("copy-status") {
        status.set_text_content(Some("Link copied."));
    }
}

/// Asks for one render at the next animation frame, however many events
/// arrive before it.
fn schedule() {
    let already = with_app(|app| std::mem::replace(&mut app.frame_pending, true)).unwrap_or(true);
    if already {
        return;
    }
    let Some(window) = web_sys::window() else {
        return;
    };
    let frame = Closure::once_into_js(render);
    let _ = window.request_animation_frame(frame.unchecked_ref());
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

fn render() {
    let started = now();
    let Some((config, document, editing_b)) = with_app(|app| {
        app.frame_pending = false;
        app.renders += 1;
        (app.config.clone(), app.document.clone(), app.editing_b)
    }) else {
        return;
    };
    // Whether a control matters is judged on the policy it shows.
    let b_config = config.policy_b_config();
    for param in PARAMS {
        let shown = if editing_b && config.comparing() && param.per_policy() {
            &b_config
        } else {
            &config
        };
        if let Some(row) = document.get_element_by_id(&format!("param-{}", param.key)) {
            let _ = row
                .class_list()
                .toggle_with_force("inactive", !(param.applies)(shown));
        }
    }
    show_lesson(&document, &config);
    let scenario = config.scenario().sanitized();
    let (a, b) = report::run_both(&config);
    let (bounds_a, bounds_b) = (
        report::pause_bounds(&config),
        report::pause_bounds(&b_config),
    );
    let comparing = b.is_some();
    let mut runs = vec![chart::Run {
        name: if comparing { "A" } else { "" },
        report: &a,
        bounds: &bounds_a,
        deadline: config.policy().deadline,
    }];
    if let Some(b) = &b {
        runs.push(chart::Run {
            name: "B",
            report: b,
            bounds: &bounds_b,
            deadline: b_config.policy().deadline,
        });
    }
    let theme = theme();
    draw(&document, "chart-load", |area| {
        chart::draw_load(area, &runs, &scenario, &theme)
    });
    draw(&document, "chart-pauses", |area| {
        chart::draw_pauses(area, &runs, &theme)
    });
    draw(&document, "chart-latency", |area| {
        chart::draw_latency(area, &runs, &theme)
    });
    summarize(&document, &a, b.as_ref());
    show_layers(&document, &config, &a, b.as_ref());
    start_sweep(&config);
    let truncated = a.summary.truncated || b.as_ref().is_some_and(|b| b.summary.truncated);
    if let Some(limit) = document.get_element_by_id("limit") {
        if truncated {
            limit.set_text_content(Some(&format!(
                "This configuration asks for more than {} operations and attempts; the run stopped there. \
                 Shorten the horizon or lower the rate to see it whole.",
                report::WORK_LIMIT
            )));
            let _ = limit.remove_attribute("hidden");
        } else {
            let _ = limit.set_attribute("hidden", "");
        }
    }
    // What was drawn, for tests: how many renders, and of which link.
    if let Some(body) = document.body() {
        let renders = with_app(|app| app.renders).unwrap_or(0);
        let _ = body.set_attribute("data-renders", &renders.to_string());
        let _ = body.set_attribute("data-link", &config.to_link());
        // When this render ended (ms since navigation) and how long it took.
        let ended = now();
        let _ = body.set_attribute("data-drawn-at", &format!("{ended:.0}"));
        let _ = body.set_attribute("data-render-ms", &format!("{:.1}", ended - started));
    }
}

/// Starts the sweep of the current state, cutting short any older one.
fn start_sweep(config: &Config) {
    if let Some(why) = sweep::refusal(config) {
        with_app(|app| app.sweep = None);
        let document = document();
        let theme = theme();
        draw(&document, "chart-sweep", |area| {
            chart::message(area, &theme, why)
        });
        if let Some(body) = document.body() {
            let _ = body.set_attribute("data-swept", &config.to_link());
        }
        return;
    }
    let curves = sweep::curves(config);
    let points = vec![Vec::with_capacity(sweep::POINTS); curves.len()];
    with_app(|app| {
        app.sweep = Some(SweepJob {
            link: config.to_link(),
            curves,
            points,
        })
    });
    schedule_sweep_step();
}

fn schedule_sweep_step() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let step = Closure::once_into_js(sweep_step);
    let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(step.unchecked_ref(), 0);
}

/// Computes sweep points for about half a frame, draws what there is, and
/// comes back later if there is more: the page stays responsive, and a
/// newer state simply replaces the job.
fn sweep_step() {
    let started = now();
    let Some(job) = with_app(|app| app.sweep.take()).flatten() else {
        return;
    };
    let mut job = job;
    while let Some(curve) = job.points.iter().position(|p| p.len() < sweep::POINTS) {
        let index = job.points[curve].len();
        let point = sweep::point(&job.curves[curve].config, index, sweep::POINTS);
        job.points[curve].push(point);
        if now() - started > 8.0 {
            break;
        }
    }
    let done = job.points.iter().all(|p| p.len() == sweep::POINTS);
    let document = document();
    let theme = theme();
    let curves: Vec<chart::Curve> = job
        .curves
        .iter()
        .zip(&job.points)
        .map(|(curve, points)| chart::Curve {
            name: curve.label,
            points,
            colour: curve.colour,
            dashed: curve.dashed,
        })
        .collect();
    draw(&document, "chart-sweep", |area| {
        chart::draw_sweep(area, &curves, sweep::POINTS, &theme)
    });
    if done {
        if let Some(body) = document.body() {
            let _ = body.set_attribute("data-swept", &job.link);
        }
        return;
    }
    // Put the job back unless a newer state started its own meanwhile.
    let keep = with_app(|app| {
        if app.sweep.is_none() {
            app.sweep = Some(job);
            true
        } else {
            false
        }
    });
    if keep == Some(true) {
        schedule_sweep_step();
    }
}

/// Computes the whole sweep of the current state at once and returns the
/// time it took in ms: what the in-browser benchmark measures.
#[wasm_bindgen]
pub fn sweep_now() -> f64 {
    let Some(config) = with_app(|app| app.config.clone()) else {
        return 0.0;
    };
    let started = now();
    let _ = sweep::sweep(&config, sweep::POINTS);
    now() - started
}

/// Shows the preset's lesson when the settings are exactly a preset's.
fn show_lesson(document: &Document, config: &Config) {
    let preset = presets::matching(config);
    if let Some(select) = document
        .get_element_by_id("preset")
        .and_then(|e| e.dyn_into::<HtmlSelectElement>().ok())
    {
        let index = preset.and_then(|p| PRESETS.iter().position(|q| std::ptr::eq(p, q)));
        select.set_value(&index.map_or("custom".to_string(), |i| i.to_string()));
    }
    if let Some(lesson) = document.get_element_by_id("lesson") {
        lesson.set_text_content(Some(preset.map_or(
            "Your own settings: pick a preset above to start from a lesson again.",
            |p| p.lesson,
        )));
    }
}

fn theme() -> Theme {
    let window = web_sys::window();
    let scale = window
        .as_ref()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .clamp(1.0, 4.0);
    let dark = window
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|q| q.matches());
    if dark {
        Theme::dark(scale)
    } else {
        Theme::light(scale)
    }
}

/// The canvas backend with text measured by the canvas itself.
///
/// plotters' web font code sizes text by adding a span to the page and
/// reading its `offsetHeight`: a forced layout of the whole page per label.
/// `measureText` asks the canvas instead.
struct Measured {
    canvas: CanvasBackend,
    context: web_sys::CanvasRenderingContext2d,
}

type Drawn<T> = Result<T, DrawingErrorKind<<CanvasBackend as DrawingBackend>::ErrorType>>;

impl DrawingBackend for Measured {
    type ErrorType = <CanvasBackend as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.canvas.get_size()
    }
    fn ensure_prepared(&mut self) -> Drawn<()> {
        self.canvas.ensure_prepared()
    }
    fn present(&mut self) -> Drawn<()> {
        self.canvas.present()
    }
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Drawn<()> {
        self.canvas.draw_pixel(point, color)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Drawn<()> {
        self.canvas.draw_line(from, to, style)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Drawn<()> {
        self.canvas.draw_rect(upper_left, bottom_right, style, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Drawn<()> {
        self.canvas.draw_path(path, style)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Drawn<()> {
        self.canvas.draw_circle(center, radius, style, fill)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Drawn<()> {
        self.canvas.fill_polygon(vert, style)
    }
    fn draw_text<T: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &T,
        pos: BackendCoord,
    ) -> Drawn<()> {
        self.canvas.draw_text(text, style, pos)
    }
    fn estimate_text_size<T: BackendTextStyle>(&self, text: &str, style: &T) -> Drawn<(u32, u32)> {
        // The same font string the canvas backend draws with.
        self.context.set_font(&format!(
            "{} {}px {}",
            style.style().as_str(),
            style.size(),
            style.family().as_str()
        ));
        let width = self.context.measure_text(text).map_or(0.0, |m| m.width());
        // A line box is about 1.2 font sizes, as the span measure gave.
        Ok((width.ceil() as u32, (style.size() * 1.2).ceil() as u32))
    }
}

/// Sizes a canvas to its box in device pixels, then draws on it.
fn draw(
    document: &Document,
    id: &str,
    paint: impl Fn(&DrawingArea<Measured, plotters::coord::Shift>) -> chart::DrawResult,
) {
    let Some(canvas) = document
        .get_element_by_id(id)
        .and_then(|e| e.dyn_into::<HtmlCanvasElement>().ok())
    else {
        return;
    };
    let scale = web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .clamp(1.0, 4.0);
    let width = (f64::from(canvas.client_width().max(200)) * scale).round() as u32;
    let height = (f64::from(canvas.client_height().max(150)) * scale).round() as u32;
    if canvas.width() != width || canvas.height() != height {
        canvas.set_width(width);
        canvas.set_height(height);
    }
    let Some(context) = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
    else {
        return;
    };
    let Some(canvas) = CanvasBackend::with_canvas_object(canvas) else {
        return;
    };
    let area = Measured { canvas, context }.into_drawing_area();
    if let Err(error) = paint(&area).and_then(|()| area.present().map_err(Into::into)) {
        web_sys::console::error_1(&JsValue::from_str(&format!("drawing {id}: {error}")));
    }
}

/// Calls each layer makes per top-level request, next to what `a^L` says
/// they would be if every call failed. Shown only for chains of layers.
fn show_layers(document: &Document, config: &Config, a: &Report, b: Option<&Report>) {
    let Some(view) = document.get_element_by_id("layers") else {
        return;
    };
    view.set_text_content(None);
    let layers = a.summary.attempts_by_layer.len();
    if layers < 2 && b.is_none_or(|b| b.summary.attempts_by_layer.len() < 2) {
        let _ = view.set_attribute("hidden", "");
        return;
    }
    let _ = view.remove_attribute("hidden");
    let mut runs = vec![("", config.clone(), a)];
    if let Some(b) = b {
        runs[0].0 = "A: ";
        runs.push(("B: ", config.policy_b_config(), b));
    }
    let most = runs
        .iter()
        .flat_map(|(_, _, r)| {
            r.summary
                .attempts_by_layer
                .iter()
                .map(move |c| *c as f64 / r.summary.operations.max(1) as f64)
        })
        .fold(1.0, f64::max);
    for (prefix, side, report) in runs {
        let scenario = side.scenario();
        let attempts = f64::from(scenario.policy.attempts);
        let Ok(list) = document.create_element("ol") else {
            return;
        };
        list.set_class_name("layer-list");
        for (layer, calls) in report.summary.attempts_by_layer.iter().enumerate() {
            let per_request = *calls as f64 / report.summary.operations.max(1) as f64;
            // Worst case, every call failing: the top layer makes a calls;
            // below it each layer multiplies by a, or by 1 if only the top retries.
            let worst = if scenario.only_top_retries {
                attempts
            } else {
                attempts.powi(layer as i32 + 1)
            };
            let formula = if scenario.only_top_retries || layer == 0 {
                format!("{attempts}")
            } else {
                format!("{attempts}^{} = {worst}", layer + 1)
            };
            let Ok(item) = document.create_element("li") else {
                return;
            };
            let Ok(bar) = document.create_element("span") else {
                return;
            };
            bar.set_class_name(if prefix == "B: " { "bar bar-b" } else { "bar" });
            let _ = bar.set_attribute(
                "style",
                &format!("width: {:.1}%", 100.0 * per_request / most),
            );
            let Ok(text) = document.create_element("span") else {
                return;
            };
            text.set_text_content(Some(&format!(
                "{prefix}layer {}: {per_request:.2} calls per request (at 100 % failure: {formula})",
                layer + 1
            )));
            let _ = item.append_child(&bar);
            let _ = item.append_child(&text);
            let _ = list.append_child(&item);
        }
        let _ = view.append_child(&list);
    }
}

/// The numbers that matter (REFERENCE section 1, item 9): what the user saw
/// against what it cost. In compare mode: A, B and the difference.
fn summarize(document: &Document, a: &Report, b: Option<&Report>) {
    let Some(table) = document.get_element_by_id("summary") else {
        return;
    };
    table.set_text_content(None);
    // (label, the number, how to show it)
    type Row = (&'static str, fn(&Report) -> f64, fn(f64) -> String);
    let rows: [Row; 11] = [
        (
            "Operations",
            |r| r.summary.operations as f64,
            |x| format!("{x:.0}"),
        ),
        (
            "User-visible success",
            |r| r.summary.success_rate,
            |x| format!("{:.1} %", 100.0 * x),
        ),
        (
            "Attempts per operation",
            |r| r.summary.attempts_per_operation,
            |x| format!("{x:.3}"),
        ),
        (
            "Calls at the bottom layer per operation",
            |r| {
                r.summary.attempts_by_layer.last().copied().unwrap_or(0) as f64
                    / r.summary.operations.max(1) as f64
            },
            |x| format!("{x:.3}"),
        ),
        (
            "Operations retried",
            |r| r.summary.retried_share,
            |x| format!("{:.1} %", 100.0 * x),
        ),
        (
            "Budget refusals",
            |r| r.summary.budget_refusals as f64,
            |x| format!("{x:.0}"),
        ),
        (
            "Deadline exceeded",
            |r| r.summary.deadline_exceeded as f64,
            |x| format!("{x:.0}"),
        ),
        (
            "Duplicates",
            |r| r.summary.duplicates as f64,
            |x| format!("{x:.0}"),
        ),
        (
            "Latency p50 (s)",
            |r| r.summary.latency_p50,
            |x| format!("{x:.3}"),
        ),
        (
            "Latency p99 (s)",
            |r| r.summary.latency_p99,
            |x| format!("{x:.3}"),
        ),
        (
            "Wasted server work",
            |r| r.summary.wasted_work / r.summary.server_work.max(1e-12),
            |x| format!("{:.1} %", 100.0 * x),
        ),
    ];
    let cell = |tag: &str, text: &str| -> Option<Element> {
        let element = document.create_element(tag).ok()?;
        element.set_text_content(Some(text));
        Some(element)
    };
    let Ok(head) = document.create_element("tr") else {
        return;
    };
    let headings: &[&str] = if b.is_some() {
        &["", "A", "B (dashed)", "B - A"]
    } else {
        &["", "value"]
    };
    for heading in headings {
        if let Some(th) = cell("th", heading) {
            let _ = head.append_child(&th);
        }
    }
    let _ = table.append_child(&head);
    for (label, value, format) in rows {
        let Ok(tr) = document.create_element("tr") else {
            return;
        };
        let mut texts = vec![format(value(a))];
        if let Some(b) = b {
            let delta = value(b) - value(a);
            let sign = if delta > 0.0 { "+" } else { "" };
            texts.push(format(value(b)));
            texts.push(format!("{sign}{}", format(delta)));
        }
        if let Some(th) = cell("th", label) {
            let _ = th.set_attribute("scope", "row");
            let _ = tr.append_child(&th);
        }
        for text in texts {
            if let Some(td) = cell("td", &text) {
                let _ = tr.append_child(&td);
            }
        }
        let _ = table.append_child(&tr);
    }
}
