//! The page: the only module that touches wasm-bindgen and web-sys.
//!
//! It is deliberately thin: [`view`] decides what to show, this module
//! copies it into the DOM and wires events back. On load it reads the link
//! into a [`Config`](crate::config::Config), builds one control per row of
//! the parameter table, runs and draws. On every input it updates the `Config`, rewrites the
//! address bar with `replaceState` (one history entry per visit, not per
//! pixel of a drag) and asks for one redraw per animation frame, however
//! many events arrive. Text that came from a link only ever reaches the
//! page as text content.

use std::cell::RefCell;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element};

use crate::chart;
use crate::config::{P, PARAMS};
use crate::lesson;
use crate::presets::{self, Preset};
use crate::report;
use crate::view::{self, Page, SweepJob};

mod api;
mod charts;
mod controls;
mod embed;
mod lesson_area;
mod replay;
mod share;
mod summary;
mod take_home;

use charts::{draw, place_charts, start_sweep, theme};
use controls::{build_controls, on_input, open_groups, set_param, show_value};
use lesson_area::{apply_change, build_presets, load, show_headlines, show_lesson};
use share::{copy_link, show_notices, sync_link};
use summary::{show_layers, show_summary};

struct App {
    sweep: Option<SweepJob>,
    document: Document,
    page: Page,
    /// The preset the learner picked or opened: its lesson stays while
    /// they change settings.
    origin: Option<&'static Preset>,
    /// The lesson's chart as placed, so charts move only when it changes.
    key_chart: &'static str,
    frame_pending: bool,
    renders: u32,
}

impl App {
    /// Puts every value into its widgets, e.g. after switching A and B.
    fn show_all(&self) {
        for index in 0..PARAMS.len() {
            show_value(&self.document, index, self.page.shown_value(index));
        }
        if let Some(sides) = self.document.get_element_by_id("sides") {
            show_if(&sides, self.page.config().comparing());
        }
        let on_b = self.page.showing_b();
        for (id, pressed) in [("edit-a", !on_b), ("edit-b", on_b)] {
            if let Some(button) = self.document.get_element_by_id(id) {
                let _ =
                    button.set_attribute("aria-pressed", if pressed { "true" } else { "false" });
            }
        }
        if let Some(form) = self.document.get_element_by_id("controls") {
            let _ = form.class_list().toggle_with_force("editing-b", on_b);
        }
        take_home::show_snippet(self);
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

fn show_if(element: &Element, shown: bool) {
    let _ = if shown {
        element.remove_attribute("hidden")
    } else {
        element.set_attribute("hidden", "")
    };
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
    build_controls(&document)?;
    take_home::build(&document)?;
    embed::start(&document, &search)?;
    show_notices(&document, &notices);
    APP.with(|app| {
        *app.borrow_mut() = Some(App {
            document: document.clone(),
            origin: view::opened_preset(&config),
            key_chart: "",
            page: Page::new(config),
            sweep: None,
            frame_pending: false,
            renders: 0,
        })
    });
    listen(&document)?;
    if let Some(starting) = document.get_element_by_id("starting") {
        show_if(&starting, false);
    }
    with_app(|app| {
        app.show_all();
        open_groups(&app.document, app.origin);
    });
    replay::remember_shared_instant();
    sync_link();
    render();
    api::install()
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

/// Makes the core panic, so the end-to-end tests can check the banner a
/// panic shows; only in pages built for them (feature `test-hooks`).
#[cfg(feature = "test-hooks")]
#[wasm_bindgen]
pub fn panic_for_test() {
    panic!("panic requested by a test");
}

fn show_panic(info: &std::panic::PanicHookInfo<'_>) {
    let why = info.to_string();
    if let Some(banner) = document().get_element_by_id("panic") {
        if let Some(text) = banner.query_selector(".why").ok().flatten() {
            text.set_text_content(Some(&why));
        }
        show_if(&banner, true);
    }
    web_sys::console::error_1(&JsValue::from_str(&why));
}

fn element(document: &Document, tag: &str, class: &str) -> Result<Element, JsValue> {
    let element = document.create_element(tag)?;
    if !class.is_empty() {
        element.set_class_name(class);
    }
    Ok(element)
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
        // Any u32 is a seed the link accepts; the browser's
        // crypto.getRandomValues draws it, through getrandom.
        let click = Closure::<dyn FnMut()>::new(|| match getrandom::u32() {
            Ok(seed) => set_param(P::Seed, f64::from(seed)),
            Err(error) => web_sys::console::error_1(&JsValue::from_str(&format!(
                "no random seed from the browser: {error}"
            ))),
        });
        button.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
        click.forget();
    }
    for (id, on_b) in [("edit-a", false), ("edit-b", true)] {
        if let Some(button) = document.get_element_by_id(id) {
            let click = Closure::<dyn FnMut()>::new(move || {
                with_app(|app| {
                    app.page.edit_b(on_b);
                    app.show_all();
                });
            });
            button.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
            click.forget();
        }
    }
    if let Some(button) = document.get_element_by_id("back-to-preset") {
        let click = Closure::<dyn FnMut()>::new(|| {
            if let Some(preset) = with_app(|app| app.origin).flatten() {
                load(preset);
            }
        });
        button.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
        click.forget();
    }
    if let Some(list) = document.get_element_by_id("try-this") {
        let click = Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| {
            let change = event
                .target()
                .and_then(|t| t.dyn_into::<Element>().ok())
                .and_then(|e| e.closest("button").ok().flatten())
                .filter(|b| b.get_attribute("aria-disabled").as_deref() != Some("true"))
                .and_then(|b| b.get_attribute("data-change"));
            if let Some(change) = change {
                apply_change(&change);
            }
        });
        list.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
        click.forget();
    }
    // Charts behind "More charts" are drawn once they are shown.
    if let Some(more) = document.get_element_by_id("more-charts") {
        let toggle = Closure::<dyn FnMut()>::new(schedule);
        more.add_event_listener_with_callback("toggle", toggle.as_ref().unchecked_ref())?;
        toggle.forget();
    }
    if let Some(button) = document.get_element_by_id("copy-link") {
        let click = Closure::<dyn FnMut()>::new(copy_link);
        button.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
        click.forget();
    }
    replay::listen(document)?;
    let window = web_sys::window().ok_or("no window")?;
    let redraw = Closure::<dyn FnMut()>::new(schedule);
    window.add_event_listener_with_callback("resize", redraw.as_ref().unchecked_ref())?;
    if let Ok(Some(query)) = window.match_media("(prefers-color-scheme: dark)") {
        query.add_event_listener_with_callback("change", redraw.as_ref().unchecked_ref())?;
    }
    redraw.forget();
    Ok(())
}

fn with_app<R>(f: impl FnOnce(&mut App) -> R) -> Option<R> {
    APP.with(|app| app.borrow_mut().as_mut().map(f))
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
    let Some((config, inactive, document)) = with_app(|app| {
        app.frame_pending = false;
        app.renders += 1;
        (
            app.page.config().clone(),
            app.page.inactive(),
            app.document.clone(),
        )
    }) else {
        return;
    };
    for (param, inactive) in PARAMS.iter().zip(inactive) {
        if let Some(row) = document.get_element_by_id(&view::row_id(param)) {
            let _ = row.class_list().toggle_with_force("inactive", inactive);
        }
    }
    let lesson = view::lesson_view(with_app(|app| app.origin).flatten(), &config);
    show_lesson(&document, &lesson);
    place_charts(&document, embed::key_canvas(lesson.key_chart));
    let runs = view::run(&config);
    let charts = runs.charts();
    let theme = theme();
    // The replay first: the load chart marks its instant.
    replay::refresh(
        &document,
        &config,
        presets::matching(&config).map(|p| p.key),
    );
    replay::draw_load(&document, &charts, &runs.scenario);
    draw(&document, "chart-pauses", |area| {
        chart::draw_pauses(area, &charts, &theme)
    });
    draw(&document, "chart-latency", |area| {
        chart::draw_latency(area, &charts, &theme)
    });
    draw(&document, "chart-mechanism", |area| {
        chart::draw_mechanism(area, &charts, &runs.scenario, &theme)
    });
    // Only drawn, and so only run, while its canvas is on the page.
    draw(
        &document,
        "chart-contention",
        |area| match view::contention_grid(&config) {
            Ok(grid) => chart::draw_contention(area, &grid, &theme),
            Err(why) => chart::message(area, &theme, &why),
        },
    );
    show_headlines(
        &document,
        &lesson::headlines(lesson.headline, &runs.a, runs.b.as_ref()),
    );
    show_summary(&document, &view::summary(&runs.a, runs.b.as_ref()));
    show_layers(
        &document,
        view::layers(&config, &runs.a, runs.b.as_ref()).as_deref(),
    );
    start_sweep(&config);
    with_app(|app| take_home::show_snippet(app));
    if let Some(limit) = document.get_element_by_id("limit") {
        let text = view::limit_text(&runs.a, runs.b.as_ref());
        if let Some(text) = &text {
            limit.set_text_content(Some(text));
        }
        show_if(&limit, text.is_some());
    }
    // What was drawn, for tests: how many renders, of which link, when the
    // render ended and how long it took.
    if let Some(body) = document.body() {
        let renders = with_app(|app| app.renders).unwrap_or(0);
        let _ = body.set_attribute("data-renders", &renders.to_string());
        let _ = body.set_attribute("data-link", &config.to_link());
        let ended = now();
        let (drawn_at, render_ms) = view::render_times(ended, ended - started);
        let _ = body.set_attribute("data-drawn-at", &drawn_at);
        let _ = body.set_attribute("data-render-ms", &render_ms);
    }
}
