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
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, HtmlCanvasElement, HtmlInputElement, HtmlSelectElement};

use crate::chart::{self, Theme};
use crate::config::{Config, Group, Kind, Notice, PARAMS, Param};
use crate::study::{Study, study};

/// Slider positions of a logarithmic slider.
const LOG_STEPS: f64 = 1000.0;

struct App {
    document: Document,
    config: Config,
    frame_pending: bool,
    renders: u32,
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
    let (config, notices) = Config::from_link(&search);
    build_controls(&document, &config)?;
    show_notices(&document, &notices);
    APP.with(|app| {
        *app.borrow_mut() = Some(App {
            document: document.clone(),
            config,
            frame_pending: false,
            renders: 0,
        })
    });
    listen(&document)?;
    sync_link();
    render();
    Ok(())
}

/// The study of a link as JSON: the same text the command line prints for
/// that link, so tests can compare the browser's numbers with native ones.
#[wasm_bindgen]
pub fn study_json(link: &str) -> String {
    let (config, _) = Config::from_link(link);
    crate::study::to_json(&study(&config.policy(), config.seed(), config.samples()))
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
    let row = element(document, "div", "param")?;
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
        app.config.set_at(index, value);
        if let Some(row) = app.document.get_element_by_id(&format!("param-{key}")) {
            show_value(&row, &PARAMS[index], app.config.value_at(index));
        }
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
                if let Some(why) = app.config.set_at(index, value) {
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
                    param.format(app.config.value_at(index))
                ),
            }),
            None => return,
        }
        if let Some(row) = app
            .document
            .get_element_by_id(&format!("param-{}", param.key))
        {
            // While typing, leave the number box alone; the slider follows.
            let value = app.config.value_at(index);
            if commit || role != "number" {
                show_value(&row, param, value);
            } else if let Ok(Some(slider)) = row.query_selector("[data-role=slider]") {
                if let Some(slider) = slider.dyn_ref::<HtmlInputElement>() {
                    slider.set_value(&slider_position(param, value).to_string());
                }
            }
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

fn render() {
    let Some((config, document)) = with_app(|app| {
        app.frame_pending = false;
        app.renders += 1;
        (app.config.clone(), app.document.clone())
    }) else {
        return;
    };
    for param in PARAMS {
        if let Some(row) = document.get_element_by_id(&format!("param-{}", param.key)) {
            let _ = row
                .class_list()
                .toggle_with_force("inactive", !(param.applies)(&config));
        }
    }
    let policy = config.policy();
    let result = study(&policy, config.seed(), config.samples());
    let theme = theme();
    draw(&document, "chart-pauses", |area| {
        chart::draw_pauses(area, &result, &theme)
    });
    draw(&document, "chart-totals", |area| {
        chart::draw_totals(area, &result, policy.deadline, &theme)
    });
    summarize(&document, &result, &config);
    if let Some(body) = document.body() {
        let renders = with_app(|app| app.renders).unwrap_or(0);
        let _ = body.set_attribute("data-renders", &renders.to_string());
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

/// Sizes a canvas to its box in device pixels, then draws on it.
fn draw(
    document: &Document,
    id: &str,
    paint: impl Fn(&DrawingArea<CanvasBackend, plotters::coord::Shift>) -> chart::DrawResult,
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
    let Some(backend) = CanvasBackend::with_canvas_object(canvas) else {
        return;
    };
    let area = backend.into_drawing_area();
    if let Err(error) = paint(&area).and_then(|()| area.present().map_err(Into::into)) {
        web_sys::console::error_1(&JsValue::from_str(&format!("drawing {id}: {error}")));
    }
}

fn summarize(document: &Document, result: &Study, config: &Config) {
    let Some(summary) = document.get_element_by_id("summary") else {
        return;
    };
    summary.set_text_content(None);
    let mut rows = vec![
        ("Clients", result.samples.to_string()),
        ("Attempts each (max)", config.policy().attempts.to_string()),
        (
            "Mean time to give up",
            format!("{:.3} s", result.mean_total),
        ),
        (
            "Longest time to give up",
            format!("{:.3} s", result.max_total),
        ),
        (
            "Stopped by the deadline",
            result.stopped_by_deadline.to_string(),
        ),
    ];
    for (retry, bounds) in result.bounds.iter().enumerate() {
        rows.push((
            "Pause before retry",
            format!(
                "#{}: {:.3}-{:.3} s, mean {:.3} s",
                retry + 1,
                bounds.min,
                bounds.max,
                bounds.mean
            ),
        ));
    }
    for (term, value) in rows {
        let Ok(dt) = document.create_element("dt") else {
            return;
        };
        dt.set_text_content(Some(term));
        let Ok(dd) = document.create_element("dd") else {
            return;
        };
        dd.set_text_content(Some(&value));
        let _ = summary.append_child(&dt);
        let _ = summary.append_child(&dd);
    }
}
