#![cfg(target_arch = "wasm32")]
//! The first chart: the module a reader downloads first.
//!
//! The page's own module (`page/`) holds every control, chart, panel and
//! word, and weighs what all of them weigh. What a reader waits for is
//! the lesson's chart, and that needs only the link read, the simulator
//! and the chart's drawing. This module does just that, in the page's
//! language, and then asks for the page's module (`index.html`:
//! `retryPlaygroundPage`), which builds the rest of the page and keeps
//! the chart this one drew until its own runs of the same link are done.
//!
//! It draws only where the page opens as the playground, only the charts
//! of runs in time, and only a world whose runs are quick; a chapter
//! (presented or not), an embed, the other charts and a heavy world wait
//! for the page's module, as before.

use retry_view::canvas::OnPage;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, HtmlCanvasElement};

use plotters::prelude::*;
use retry_core::chart_id::ChartId;
use retry_core::words;
use retry_draw::{Before, LoadView, draw_latency_after, draw_mechanism_after};
use retry_sim::config::Config;
use retry_teach::course;
use retry_teach::lesson;
use retry_teach::presets::Preset;
use retry_view as view;
use retry_view::lesson::{FIRST_CHART_LINK, OWN_KEY_CHART};

/// The width of a text the canvas measures: once each, as the first chart
/// is drawn once (the page keeps the widths for its redraws).
fn text_width(_font: &str, _text: &str, measure: impl FnOnce() -> f64) -> f64 {
    measure()
}

#[path = "../../page/src/canvas.rs"]
mod canvas;
#[path = "../../page/src/translate.rs"]
mod translate;

#[wasm_bindgen(start)]
pub fn start() {
    // Whatever happens here, the page's module comes next.
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::warn_1(&JsValue::from_str(&info.to_string()));
        go_on();
    }));
    let Some(window) = web_sys::window() else {
        return;
    };
    // index.html laid the page out as an embed or a chapter as it was
    // read: their charts wait for the page's module.
    let classes = window
        .document()
        .and_then(|d| d.document_element())
        .map(|root| root.class_list());
    if classes.is_some_and(|c| c.contains("embed") || c.contains("course")) {
        return go_on();
    }
    let search = window.location().search().unwrap_or_default();
    // index.html asked for the Russian words as it was read, when the
    // page speaks Russian.
    let russian = js_sys::Reflect::get(&window, &"retryPlaygroundRussian".into())
        .ok()
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok());
    match russian {
        None => {
            draw_first(&search);
            go_on();
        }
        Some(asked) => {
            let read = Closure::once(move |text: JsValue| {
                if words::speak_russian(&text.as_string().unwrap_or_default()).is_ok() {
                    draw_first(&search);
                }
                go_on();
            });
            let failed = Closure::once(|_: JsValue| go_on());
            let _ = asked.then2(&read, &failed);
            read.forget();
            failed.forget();
        }
    }
}

/// The most work each policy's run may take here, in the simulator's own
/// units: every preset's world takes at most 300 000 (the fan-out's A),
/// the herd's 30 000. A heavier world waits for the page's module, which
/// runs it a slice at a time and shows how far it got; run here, it would
/// hold the page still.
const FIRST_WORK: u64 = 400_000;

/// Asks `index.html` for the page's module.
fn go_on() {
    let page = web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &"retryPlaygroundPage".into()).ok())
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    if let Some(page) = page {
        let _ = page.call0(&JsValue::NULL);
    }
}

/// Draws the lesson's chart of the playground at `search`, if it is a
/// chart of runs in time.
fn draw_first(search: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    translate::translate(&document);
    let config = course::opened(search).config;
    let preset = lesson::lesson_state(None, &config).map(|s| s.preset);
    let key = preset.map_or(OWN_KEY_CHART, |p| p.key_chart);
    if !matches!(key, ChartId::Load | ChartId::Latency | ChartId::Mechanism) {
        return;
    }
    // The lesson's chart stands in the lesson's place, as the page puts it.
    let (Some(figure), Some(slot)) = (
        document
            .get_element_by_id(key.canvas_id())
            .and_then(|c| c.parent_element()),
        document.get_element_by_id("key-slot"),
    ) else {
        return;
    };
    let _ = slot.append_child(&figure);
    let Some(runs) = retry_draw::run_within(&config, FIRST_WORK) else {
        return;
    };
    let plotted = runs.charts();
    // Never a presenter's: this module leaves a chapter to the page.
    let theme = canvas::theme(false);
    let scenario = &runs.scenario;
    let drawn = paint(&document, key, &|area| {
        // Drawn alone: the first chart has no state before it.
        let none = Before::default();
        match key {
            ChartId::Load => {
                let view = LoadView {
                    cursor: None,
                    before: none,
                };
                retry_draw::draw_load_view(area, &plotted, scenario, &theme, &view)?;
            }
            ChartId::Latency => {
                draw_latency_after(area, &plotted, scenario, &theme, none)?;
            }
            _ => {
                draw_mechanism_after(area, &plotted, scenario, &theme, none)?;
            }
        }
        Ok(())
    });
    if !drawn {
        return;
    }
    if let Err(why) = show_lesson(&document, preset, &config, &runs) {
        web_sys::console::warn_1(&why);
    }
    if let Some(body) = document.body() {
        let _ = body.set_attribute(FIRST_CHART_LINK, &config.to_link());
        let at = web_sys::window()
            .and_then(|w| w.performance())
            .map_or(0.0, |p| p.now());
        let _ = body.set_attribute("data-first-chart-at", &format!("{at:.0}"));
    }
}

/// The lesson as the page's module writes it (`lesson_area.rs`): its
/// title in the preset list, its words of these runs (kept by that module
/// until it explains their terms) and its changes to try (built again by
/// it, wired); the language switch's names, for the header to stand as it
/// will. The banner that says the simulator is starting goes.
fn show_lesson(
    document: &Document,
    preset: Option<&'static Preset>,
    config: &Config,
    runs: &retry_draw::Runs,
) -> Result<(), JsValue> {
    let lesson = view::lesson::lesson_view(preset, config);
    if let Some(select) = document.get_element_by_id("preset") {
        let option = document.create_element("option")?;
        option.set_text_content(Some(lesson.title));
        select.append_child(&option)?;
    }
    if let Some(title) = document.get_element_by_id("lesson-title") {
        title.set_text_content(Some(lesson.title));
    }
    if let Some(text) = document.get_element_by_id("lesson") {
        text.set_attribute("data-for", &lesson.preset)?;
        let words = view::lesson::lesson_text(preset, config, &runs.a, runs.b.as_ref());
        text.set_text_content(Some(&words));
    }
    if let Some(list) = document.get_element_by_id("try-this") {
        for button in &lesson.try_this {
            let element = document.create_element("button")?;
            element.set_text_content(Some(&button.label));
            list.append_child(&element)?;
        }
        if !lesson.try_this.is_empty() {
            list.remove_attribute("hidden")?;
        }
    }
    if let Some(place) = document.get_element_by_id("langs") {
        for lang in words::Lang::ALL {
            let name = document.create_element("a")?;
            name.set_text_content(Some(lang.name()));
            if lang == words::lang() {
                name.set_attribute("aria-current", "true")?;
            }
            place.append_child(&name)?;
        }
    }
    if let Some(starting) = document.get_element_by_id("starting") {
        starting.set_attribute("hidden", "")?;
    }
    Ok(())
}

/// Paints the chart on its canvas, if the canvas has a box; whether it
/// did.
fn paint(
    document: &Document,
    chart: ChartId,
    paint: &dyn Fn(&DrawingArea<canvas::Canvas, plotters::coord::Shift>) -> retry_draw::DrawResult,
) -> bool {
    document
        .get_element_by_id(chart.canvas_id())
        .and_then(|e| e.dyn_into::<HtmlCanvasElement>().ok())
        .filter(canvas::on_page)
        .is_some_and(|c| canvas::paint(&c, paint).is_ok())
}
