//! The page inside another page, and the button that embeds it.
//!
//! A link with `embed=` turns the page into its embed layout: the style
//! sheet hides everything under `html.embed` but the lesson, the chart
//! placed first and the rows of the controls the link names, which move
//! into a box of their own inside the form (so its input listeners still
//! hear them); a link opens the same state in the whole playground. What
//! an embed shows and the snippet are decided by `view::embed`.

use std::cell::RefCell;

use wasm_bindgen::prelude::*;
use web_sys::Document;

use retry_core::chart_id::ChartId;
use retry_sim::config::Config;
use retry_sim::link::{Embed, EmbedChart};
use retry_view::{self as view, embed as decide};

use crate::{language, show_if, with_app};

thread_local! {
    /// What the link asked to embed; `None` on the whole playground.
    static EMBED: RefCell<Option<Embed>> = const { RefCell::new(None) };
}

fn embedded<R>(f: impl FnOnce(&Embed) -> R) -> Option<R> {
    EMBED.with(|e| e.borrow().as_ref().map(f))
}

/// Sets the page up for the embed its address asks for (read with the
/// rest of the address, `course::opened`), if any.
pub(super) fn start(document: &Document, embed: Option<Embed>) -> Result<(), JsValue> {
    // The page's script guessed from the address; this is the link's word.
    if let Some(root) = document.document_element() {
        root.class_list()
            .toggle_with_force("embed", embed.is_some())?;
        root.class_list().toggle_with_force(
            "embed-replay",
            embed
                .as_ref()
                .is_some_and(|e| e.chart == EmbedChart::Chart(ChartId::Replay)),
        )?;
    }
    let Some(embed) = embed else {
        return Ok(());
    };
    if let Some(holder) = document.get_element_by_id("embed-controls") {
        for p in &embed.controls {
            if let Some(row) = document.get_element_by_id(&view::controls::row_id(p.param())) {
                holder.append_child(&row)?;
            }
        }
        show_if(&holder, !embed.controls.is_empty());
    }
    if embed.chart == EmbedChart::Chart(ChartId::Replay) {
        move_replay(document)?;
    }
    if let Some(footer) = document.get_element_by_id("embed-footer") {
        show_if(&footer, true);
    }
    EMBED.with(|e| *e.borrow_mut() = Some(embed));
    Ok(())
}

/// Moves the replay's controls, lanes and line out of its fold into the
/// chart's place, where the embed layout gives them the frame's height (a
/// `<details>` cannot be laid out as a column everywhere). The fold stays,
/// hidden and open, as the replay's switch.
fn move_replay(document: &Document) -> Result<(), JsValue> {
    let (Some(details), Some(slot)) = (
        document.get_element_by_id("replay"),
        document.get_element_by_id("key-slot"),
    ) else {
        return Ok(());
    };
    let parts = details.query_selector_all(":scope > :not(summary)")?;
    for index in 0..parts.length() {
        if let Some(part) = parts.get(index) {
            slot.append_child(&part)?;
        }
    }
    Ok(())
}

/// Whether the page is an embed of the replay: it opens still at the
/// lesson's moment, and stays open when the settings change.
pub(super) fn shows_replay() -> bool {
    embedded(|e| e.chart == EmbedChart::Chart(ChartId::Replay)).unwrap_or(false)
}

/// Whether the replay can be seen: on the whole playground, or in an
/// embed of the replay itself (an embed of another chart hides it).
pub(super) fn replay_visible() -> bool {
    embedded(|e| e.chart == EmbedChart::Chart(ChartId::Replay)).unwrap_or(true)
}

/// The chart to put where the lesson's chart stands: the embed's chart,
/// or the lesson's own on the whole playground.
pub(super) fn key_chart(lesson_chart: ChartId) -> ChartId {
    embedded(|e| decide::key_chart(e.chart, lesson_chart)).unwrap_or(lesson_chart)
}

/// The address bar's query for `config`: an embed keeps its pairs, and its
/// "Open in the playground" link follows the state without them.
pub(super) fn page_link(config: &Config, document: &Document) -> String {
    // A chapter's link names the chapter (its own settings by its word).
    let link = with_app(|app| app.course.as_ref().map(|c| c.link(config)))
        .flatten()
        .unwrap_or_else(|| config.to_link());
    let Some(pairs) = embedded(Embed::to_link) else {
        return link;
    };
    if let Some(open) = document.get_element_by_id("open-playground") {
        let _ = open.set_attribute("href", &language::href(&link));
    }
    format!("{link}&{pairs}")
}

/// The link Copy link puts on the clipboard for `config` when it is
/// exactly a preset's world, outside the course and an embed: its short
/// link, `?preset=herd`. Every other state copies the address bar.
pub(super) fn copied_link(config: &Config) -> Option<String> {
    let plain = with_app(|app| app.course.is_none()).unwrap_or(false) && embedded(|_| ()).is_none();
    let short = retry_teach::course::preset_link(config).filter(|_| plain)?;
    let location = web_sys::window()?.location();
    let page = format!("{}{}", location.origin().ok()?, location.pathname().ok()?);
    Some(format!("{page}{}", language::href(&short)))
}

/// The `<iframe>` snippet that embeds the current state: the chart shown
/// first (the replay while it is open) and the controls in play.
pub(super) fn snippet_text() -> String {
    let Some(window) = web_sys::window() else {
        return String::new();
    };
    let location = window.location();
    let page_url = format!(
        "{}{}",
        location.origin().unwrap_or_default(),
        location.pathname().unwrap_or_default()
    );
    let replay_open = window
        .document()
        .and_then(|d| d.get_element_by_id("replay"))
        .is_some_and(|d| d.has_attribute("open"));
    with_app(|app| {
        let config = app.page.config();
        if let Some(course) = &app.course {
            let link = course.embed_link(config);
            return decide::chapter_snippet(&page_url, &link, course.title(), language::chosen());
        }
        let embed = decide::snippet_embed(app.origin, config, replay_open);
        let title = view::lesson::lesson_view(app.origin, config).title;
        decide::snippet(&page_url, config, &embed, title, language::chosen())
    })
    .unwrap_or_default()
}
