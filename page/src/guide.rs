//! The facilitator's guide in the DOM (`present=guide`): the agenda and
//! each core chapter's kit, as `view::guide` writes them, with the runs'
//! answers measured here one world per task, so the page stays
//! responsive while they come in.

use wasm_bindgen::prelude::*;
use web_sys::Document;

use retry_analyses::seeds::over_seeds;
use retry_core::tf;
use retry_teach::guide::{self, Guide};

use crate::{element, show_if};

/// Shows the guide and starts measuring its answers.
pub(super) fn start(document: &Document) {
    if let Some(section) = document.get_element_by_id("guide") {
        show_if(&section, true);
    }
    measure(Vec::new());
}

/// Draws the guide with the answers so far, then measures the next one in
/// a task of its own.
fn measure(mut answers: Vec<Option<usize>>) {
    let worlds = guide::measured();
    let document = crate::document();
    let _ = draw(
        &document,
        &guide::guide(&answers),
        answers.len(),
        worlds.len(),
    );
    let Some((chapter, config)) = worlds.get(answers.len()) else {
        return;
    };
    answers.push(chapter.answer(&over_seeds(config)));
    crate::later(move || measure(answers));
}

fn draw(document: &Document, guide: &Guide, done: usize, all: usize) -> Result<(), JsValue> {
    if let Some(status) = document.get_element_by_id("guide-status") {
        let text = match done < all {
            true => tf!(
                "Measuring the answers over the seeds: {done} of {all} worlds.",
                done = done,
                all = all
            ),
            false => tf!(
                "Every answer measured over the seeds, as the chapters measure them; {total} minutes in all.",
                total = guide.total
            ),
        };
        status.set_text_content(Some(&text));
    }
    if let Some(table) = document.get_element_by_id("guide-agenda") {
        table.set_text_content(None);
        for slot in &guide.agenda {
            let row = element(document, "tr", "")?;
            for text in [slot.at.clone(), slot.what.clone(), slot.minutes.to_string()] {
                let cell = element(document, "td", "")?;
                cell.set_text_content(Some(&text));
                row.append_child(&cell)?;
            }
            table.append_child(&row)?;
        }
    }
    if let Some(list) = document.get_element_by_id("guide-chapters") {
        list.set_text_content(None);
        for chapter in &guide.chapters {
            let article = element(document, "article", "guide-chapter")?;
            let heading = element(document, "h3", "")?;
            let link = element(document, "a", "")?;
            link.set_attribute("href", &crate::language::href(&chapter.link))?;
            link.set_text_content(Some(&format!(
                "{} {} ({})",
                chapter.number,
                chapter.title,
                tf!("{minutes} min", minutes = chapter.minutes)
            )));
            heading.append_child(&link)?;
            article.append_child(&heading)?;
            let items = element(document, "ul", "")?;
            let outcomes = chapter.outcomes().map(|outcome| (chapter.knob, outcome));
            let lines = chapter.kit().into_iter().chain(outcomes);
            for (label, text) in lines {
                let item = element(document, "li", "")?;
                let strong = element(document, "strong", "")?;
                strong.set_text_content(Some(&format!("{label}: ")));
                item.append_child(&strong)?;
                item.append_with_str_1(&text)?;
                items.append_child(&item)?;
            }
            article.append_child(&items)?;
            list.append_child(&article)?;
        }
    }
    if let Some(save) = document.get_element_by_id("guide-markdown") {
        let text = guide::markdown(guide, &crate::page_base());
        let href = format!(
            "data:text/markdown;charset=utf-8,{}",
            String::from(js_sys::encode_uri_component(&text))
        );
        save.set_attribute("href", &href)?;
    }
    Ok(())
}
