//! The lesson area in the DOM: the preset list, loading a preset or a
//! "try this" change, the lesson text and buttons, the headline numbers.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, HtmlSelectElement};

use retry_analyses::seeds::Headline;
use retry_core::words::tr;
use retry_teach::lesson;
use retry_teach::presets::Preset;
use retry_view as view;

use crate::controls::{explained, label_with_term, open_groups};
use crate::share::{show_notices, sync_link};
use crate::{element, schedule, show_if, with_app};

pub(super) fn build_presets(document: &Document) -> Result<(), JsValue> {
    let Some(select) = document.get_element_by_id("preset") else {
        return Ok(());
    };
    // The first chart's module may have written the lesson's title there.
    select.set_text_content(None);
    for entry in view::lesson::preset_options() {
        let option = element(document, "option", "")?;
        option.set_text_content(Some(entry.title));
        option.set_attribute("value", &entry.value)?;
        if entry.disabled {
            option.set_attribute("disabled", "")?;
        }
        select.append_child(&option)?;
    }
    let change = Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| {
        let chosen = event
            .target()
            .and_then(|t| t.dyn_into::<HtmlSelectElement>().ok())
            .and_then(|s| view::lesson::chosen_preset(&s.value()));
        if let Some(preset) = chosen {
            load(preset);
        }
    });
    select.add_event_listener_with_callback("change", change.as_ref().unchecked_ref())?;
    change.forget();
    Ok(())
}

/// Replaces the whole configuration with a preset's, whose lesson then
/// stays while the learner plays.
pub(super) fn load(preset: &'static Preset) {
    with_app(|app| {
        app.origin = Some(preset);
        app.page.load(preset.config());
        app.show_all();
        open_groups(&app.document, app.origin);
        show_notices(&app.document, &[]);
    });
    sync_link();
    schedule();
}

/// A click on a button of `list` that carries a change (`data-change`)
/// applies it, unless the button says it is disabled: the lesson's "try
/// this" and the search's better policies.
pub(super) fn apply_on_click(list: &Element) -> Result<(), JsValue> {
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
    Ok(())
}

/// Replaces the configuration by one the lesson suggests; the lesson stays.
pub(super) fn apply_change(change: &str) {
    with_app(|app| {
        let config = lesson::apply(app.page.config(), change);
        app.page.load(config);
        app.show_all();
        show_notices(&app.document, &[]);
    });
    sync_link();
    schedule();
}

/// Shows the lesson: the preset list, the title, the text, how far the
/// settings moved, and what to try.
pub(super) fn show_lesson(document: &Document, lesson: &view::lesson::LessonView) {
    if let Some(select) = document
        .get_element_by_id("preset")
        .and_then(|e| e.dyn_into::<HtmlSelectElement>().ok())
    {
        select.set_value(&lesson.preset);
    }
    if let Some(title) = document.get_element_by_id("lesson-title") {
        if title.text_content().as_deref() != Some(lesson.title) {
            title.set_text_content(Some(lesson.title));
        }
    }
    // The text of another lesson at once, its report numbers to come; the
    // same lesson's text stays until the runs of the new settings fill it
    // (`show_lesson_text`), so its numbers do not blink.
    if let Some(text) = document.get_element_by_id("lesson") {
        if text.get_attribute("data-for").as_deref() != Some(lesson.preset.as_str()) {
            let _ = text.set_attribute("data-for", &lesson.preset);
            crate::controls::text_with_terms(document, &text, &lesson.text, "tip-lesson");
        }
    }
    // Settings of one's own have no lesson: an embed, without the preset
    // list the line points to, leaves the box out.
    if let Some(own) = document.get_element_by_id("lesson-box") {
        let _ = own
            .class_list()
            .toggle_with_force("own-settings", lesson.title.is_empty());
    }
    if let Some(status) = document.get_element_by_id("lesson-status") {
        if let (Some(changed), Some(text)) = (document.get_element_by_id("changed"), &lesson.status)
        {
            changed.set_text_content(Some(text));
        }
        show_if(&status, lesson.status.is_some());
    }
    if let Some(list) = document.get_element_by_id("try-this") {
        show_try_this(document, &list, lesson);
    }
}

/// The lesson's text, its numbers those of the runs.
pub(super) fn show_lesson_text(document: &Document, text: &str) {
    // Its terms explained where they first appear; unchanged text is kept,
    // so a focused term keeps its focus.
    if let Some(element) = document.get_element_by_id("lesson") {
        crate::controls::text_with_terms(document, &element, text, "tip-lesson");
    }
}

/// The "try this" buttons: built when the lesson changes, otherwise only
/// marked applied or not, so a button keeps the keyboard focus across
/// renders. An applied button stays focusable (`aria-disabled`, not
/// `disabled`); pressing it again changes nothing.
fn show_try_this(document: &Document, list: &Element, lesson: &view::lesson::LessonView) {
    if list.get_attribute("data-for").as_deref() != Some(lesson.preset.as_str()) {
        list.set_text_content(None);
        let _ = list.set_attribute("data-for", &lesson.preset);
        for button in &lesson.try_this {
            let Ok(element) = element(document, "button", "") else {
                return;
            };
            element.set_text_content(Some(&button.label));
            let _ = element.set_attribute("type", "button");
            let _ = element.set_attribute("data-change", button.change);
            // What the button promises, for the tests that hold it to it.
            let _ = element.set_attribute("data-metric", button.expect.metric.label());
            let _ =
                element.set_attribute("data-side", view::summary::side_class(button.expect.side));
            let _ = element.set_attribute(
                "data-rises",
                if button.expect.rises { "true" } else { "false" },
            );
            let _ = list.append_child(&element);
        }
    }
    let Ok(buttons) = list.query_selector_all("button") else {
        return;
    };
    for (i, button) in lesson.try_this.iter().enumerate() {
        if let Some(element) = buttons
            .get(i as u32)
            .and_then(|n| n.dyn_into::<Element>().ok())
        {
            let _ = element.set_attribute(
                "aria-disabled",
                if button.applied { "true" } else { "false" },
            );
        }
    }
    show_if(list, !lesson.try_this.is_empty());
}

/// Shows the numbers the lesson is about, each in its policy's colour.
pub(super) fn show_headlines(document: &Document, headlines: &[Headline]) {
    let Some(list) = document.get_element_by_id("headlines") else {
        return;
    };
    // The numbers are written again when the seeds are measured: a reader
    // whose focus was on one of their terms keeps it on the same term.
    let focused = focused_in(document, &list);
    list.set_text_content(None);
    for (i, headline) in headlines.iter().enumerate() {
        let (Ok(item), Ok(label), Ok(values)) = (
            element(document, "div", "headline"),
            element(document, "div", "label"),
            element(document, "div", "values"),
        ) else {
            return;
        };
        let _ = item.set_attribute("data-metric", headline.label);
        if let Ok(text) = label_with_term(
            document,
            headline.label,
            headline.term,
            &format!("tip-headline-{i}"),
        ) {
            let _ = label.append_child(&text);
        }
        let compared = headline.b.is_some();
        let sides = [
            (lesson::Side::A, Some(&headline.a), &headline.range_a),
            (lesson::Side::B, headline.b.as_ref(), &headline.range_b),
        ];
        for (side, text, range) in sides {
            let Some(text) = text else { continue };
            let (Ok(value), Ok(number)) = (
                element(
                    document,
                    "span",
                    &format!("value {}", view::summary::side_class(side)),
                ),
                element(document, "span", "number"),
            ) else {
                return;
            };
            let _ = value.set_attribute("data-side", view::summary::side_class(side));
            if compared {
                if let Ok(name) = element(document, "span", "side") {
                    name.set_text_content(Some(view::summary::side_name(side)));
                    let _ = value.append_child(&name);
                }
            }
            number.set_text_content(Some(text));
            let _ = value.append_child(&number);
            if headline.better == Some(side) {
                if let Ok(better) = element(document, "span", "better") {
                    better.set_text_content(Some(tr("better")));
                    let _ = value.append_child(&better);
                }
            }
            if let (Some(range), Ok(under)) = (range, element(document, "span", "range")) {
                under.set_text_content(Some(range));
                let _ = value.append_child(&under);
            }
            let _ = values.append_child(&value);
        }
        let _ = item.append_child(&label);
        let _ = item.append_child(&values);
        // What the seeds say, and on hover or focus how to read it all.
        if let Ok(seeds) = explained(
            document,
            "term seeds",
            &headline.seeds,
            &headline.rule,
            &format!("tip-seeds-{i}"),
        ) {
            let _ = item.append_child(&seeds);
        }
        let _ = list.append_child(&item);
    }
    if let Some(index) = focused {
        let again = list
            .query_selector_all("[tabindex]")
            .ok()
            .and_then(|all| all.get(index))
            .and_then(|node| node.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(element) = again {
            let _ = element.focus();
        }
    }
}

/// Which of `list`'s focusable elements has the focus, by its place.
fn focused_in(document: &Document, list: &Element) -> Option<u32> {
    let active = document.active_element()?;
    let all = list.query_selector_all("[tabindex]").ok()?;
    (0..all.length()).find(|&i| {
        all.get(i)
            .is_some_and(|node| node.is_same_node(Some(&active)))
    })
}
