//! The search for a better policy in its panel: the frontier drawn as the
//! runs come, how far it got, and the policies that beat A's, each a
//! button that makes it policy B.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element};

use retry_analyses::search::Frontier;
use retry_core::chart_id::ChartId;
use retry_sim::config::Config;
use retry_view as view;
use retry_view::jobs::Job;

use crate::charts::{draw, theme};
use crate::element;

/// Draws the job's search as far as it got, says how far, and lists the
/// policies that beat A's once it is done: the search of this thread's
/// slices, where the page has no workers (`search_workers`).
pub(super) fn show(document: &Document, job: &Job) {
    let Some(search) = job.search() else { return };
    match search {
        Ok(runs) => show_frontier(document, &runs.frontier(), job.config(), job.link()),
        Err(why) => {
            let theme = theme();
            draw(document, ChartId::Frontier, |area| {
                retry_draw::message(area, &theme, why)
            });
            // The refusal in words too, where a screen reader and a test
            // read it.
            if let Some(status) = document.get_element_by_id("search-status") {
                status.set_text_content(Some(why));
            }
            if let Some(list) = document.get_element_by_id("better") {
                list.set_text_content(None);
            }
        }
    }
}

/// Draws a search's frontier for state `link`, says how far it got, and
/// lists the policies that beat A's once it is done.
pub(super) fn show_frontier(document: &Document, found: &Frontier, config: &Config, link: &str) {
    let theme = theme();
    let view = retry_draw::FrontierView {
        frontier: found,
        b: found.b,
    };
    draw(document, ChartId::Frontier, |area| {
        retry_draw::draw_frontier(area, &view, &theme)
    });
    if let Some(status) = document.get_element_by_id("search-status") {
        status.set_text_content(Some(&view::search::status(found)));
    }
    if let Some(list) = document.get_element_by_id("better") {
        let items = if found.done {
            view::search::better(found, config)
        } else {
            Vec::new()
        };
        let _ = fill_list(document, &list, &items);
    }
    if let (Some(body), true) = (document.body(), found.done) {
        let _ = body.set_attribute("data-searched", link);
    }
}

/// The list of better policies: each its words and a button, as text
/// content (nothing from a link becomes markup).
fn fill_list(
    document: &Document,
    list: &Element,
    items: &[view::search::Better],
) -> Result<(), JsValue> {
    list.set_text_content(None);
    for item in items {
        let li = element(document, "li", "")?;
        let words = element(document, "span", "")?;
        words.set_text_content(Some(&item.label));
        li.append_child(&words)?;
        let button = element(document, "button", "")?;
        button.set_attribute("type", "button")?;
        button.set_attribute("data-change", &item.change)?;
        button.set_text_content(Some(retry_core::words::tr("Use as policy B")));
        li.append_child(&button)?;
        // The same, then its configuration in the team's format.
        let home = element(document, "button", "take-b-home")?;
        home.set_attribute("type", "button")?;
        home.set_attribute("data-change", &item.change)?;
        home.set_text_content(Some(retry_core::words::tr("Show as configuration")));
        li.append_child(&home)?;
        list.append_child(&li)?;
    }
    Ok(())
}

/// Whether the search's panel is open: only then does the page search (a
/// closed panel's canvas still has a width).
pub(super) fn open(document: &Document) -> bool {
    document
        .get_element_by_id("search")
        .is_some_and(|panel| panel.has_attribute("open"))
}

/// A button of the list makes its policy B, compare mode on; its second
/// button then opens "Take it home" on B's configuration.
pub(super) fn listen(document: &Document) -> Result<(), JsValue> {
    let Some(list) = document.get_element_by_id("better") else {
        return Ok(());
    };
    crate::lesson_area::apply_on_click(&list)?;
    let click = Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| {
        let home = event
            .target()
            .and_then(|t| t.dyn_into::<Element>().ok())
            .and_then(|e| e.closest("button.take-b-home").ok().flatten());
        if home.is_some() {
            crate::take_home::show_b_snippet();
        }
    });
    list.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
    click.forget();
    Ok(())
}

/// The finished search's frontier as JSON, for the tests: the workers'
/// or the job's.
#[cfg(feature = "test-hooks")]
pub(super) fn frontier_json() -> Option<String> {
    if let Some(json) = crate::search_workers::frontier_json() {
        return Some(json);
    }
    crate::with_app(|app| {
        let Some(Ok(runs)) = app.job.as_ref()?.search() else {
            return None;
        };
        runs.done().then(|| runs.frontier().to_json())
    })
    .flatten()
}
