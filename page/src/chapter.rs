//! A chapter of the course in the DOM (a link with `chapter=`): the
//! question and its answers as a radio group, the reveal, the verdict, the
//! one knob, the way back and on (links, and the keys n and p), the
//! presenting layout, the last page's rules. What it shows is
//! `view::course`'s to decide.
//!
//! At the start the lesson's text and the knob's row move into the
//! chapter's boxes; the knob keeps its widgets, and the box hears its
//! input as the form does.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, HtmlInputElement, KeyboardEvent};

use retry_core::tf;
use retry_core::words::{Text, tr};
use retry_teach::course::{Opened, Present};
use retry_view::{self as view, course::Course};

use crate::controls::hear_controls;
use crate::share::sync_link;
use crate::{element, language, schedule, show_if, with_app};

/// Sets the page up for a chapter, when the link names one: the layout,
/// the moved lesson and knob, the answers, the listeners.
pub(super) fn start(document: &Document, opened: &Opened) -> Result<Option<Course>, JsValue> {
    let Some(place) = opened.place else {
        return Ok(None);
    };
    let mut course = Course::new(place, opened.present, &opened.config);
    // The room's tally outlives a reload of either window.
    if let Some(stored) = language::storage().and_then(|s| {
        s.get_item(&view::course::tally_key(course.place.key()))
            .ok()
            .flatten()
    }) {
        course.hear_tally(&stored);
    }
    let view = course.view(&opened.config);
    if let Some(root) = document.document_element() {
        root.class_list().add_1("course")?;
        root.class_list()
            .toggle_with_force("monday", !view.rules.is_empty())?;
        root.class_list()
            .toggle_with_force("presenting", opened.present == Present::Room)?;
        root.class_list()
            .toggle_with_force("notes", opened.present == Present::Notes)?;
        root.class_list()
            .toggle_with_force("guide", opened.present == Present::Guide)?;
        // A chain's calls per layer stand under its chart in front of a
        // room: known before the chart is drawn, so it is drawn at its
        // height.
        let layered = opened.config.get(retry_sim::config::P::Layers) > 1.0;
        root.class_list().toggle_with_force("layered", layered)?;
    }
    if opened.present == Present::Guide {
        crate::guide::start(document);
    }
    // The kit's links, in the page's language.
    for (id, link) in [
        ("to-guide", retry_teach::guide::guide_link()),
        ("to-exercise", retry_teach::guide::EXERCISE_LINK.to_string()),
    ] {
        if let Some(anchor) = document.get_element_by_id(id) {
            anchor.set_attribute("href", &language::href(&link))?;
        }
    }
    if let Some(notes) = document.get_element_by_id("presenter-notes") {
        show_if(
            &notes,
            opened.present == Present::Notes && view.notes.is_some(),
        );
    }
    if let Some(notes) = &view.notes {
        set_text(document, "notes-minutes", &notes.minutes);
        set_text(document, "notes-ask", notes.ask);
        set_text(
            document,
            "notes-trap",
            notes.trap.as_deref().unwrap_or_default(),
        );
    }
    build_extras(document, &view)?;
    draw_follow(document, &course.follow_link(&opened.config));
    for id in ["course", "course-after"] {
        if let Some(section) = document.get_element_by_id(id) {
            show_if(&section, true);
        }
    }
    if let (Some(slot), Some(lesson)) = (
        document.get_element_by_id("course-lesson"),
        document.get_element_by_id("lesson"),
    ) {
        slot.append_child(&lesson)?;
    }
    if let (Some(slot), Some(p)) = (document.get_element_by_id("knob"), view.knob) {
        if let Some(row) = document.get_element_by_id(&view::controls::row_id(p.param())) {
            slot.append_child(&row)?;
            // The chapter's own words for its knob: the label's text
            // before its unit, and the help line.
            if let Some((label, help)) = view.knob_words {
                if let Some(text) = row.query_selector("label")?.and_then(|l| l.first_child()) {
                    text.set_text_content(Some(label));
                }
                if let Some(line) = document.get_element_by_id(&view::controls::help_id(p.param()))
                {
                    line.set_text_content(Some(help));
                }
            }
        }
        // The slider spans the range that teaches; the box takes any number.
        let slider_id = view::controls::widget_id(p.param(), view::controls::Role::Slider);
        if let (Some(slider), Some((min, max))) =
            (document.get_element_by_id(&slider_id), &view.knob_slider)
        {
            slider.set_attribute("min", min)?;
            slider.set_attribute("max", max)?;
        }
    }
    set_text(document, "chapter-of", &view.of);
    set_text(document, "chapter-title", view.title);
    set_text(document, "chapter-question", &view.question);
    set_text(document, "takeaway", view.takeaway);
    build_answers(document, view.answers)?;
    fill_hands(course.hands());
    build_rules(document, &view)?;
    if !view.rules.is_empty() {
        build_session(document)?;
    }
    if let Some(prediction) = document.get_element_by_id("prediction") {
        show_if(&prediction, !view.answers.is_empty());
    }
    listen(document)?;
    Ok(Some(course))
}

fn set_text(document: &Document, id: &str, text: &str) {
    if let Some(element) = document.get_element_by_id(id) {
        element.set_text_content(Some(text));
    }
}

fn build_answers(document: &Document, answers: &[Text]) -> Result<(), JsValue> {
    let Some(list) = document.get_element_by_id("answers") else {
        return Ok(());
    };
    for (index, answer) in answers.iter().enumerate() {
        // The answer to pick, and beside it the room's hands for it.
        let row = element(document, "div", "answer-row")?;
        let label = element(document, "label", "answer")?;
        label.set_attribute("data-runs", tr("what the runs show"))?;
        let input = element(document, "input", "")?;
        input.set_attribute("type", "radio")?;
        input.set_attribute("name", "answer")?;
        input.set_attribute("value", &index.to_string())?;
        label.append_child(&input)?;
        let text = element(document, "span", "answer-text")?;
        text.set_text_content(Some(answer.get()));
        label.append_child(&text)?;
        row.append_child(&label)?;
        let hands = element(document, "input", "hands")?;
        hands.set_attribute("type", "number")?;
        hands.set_attribute("min", "0")?;
        hands.set_attribute("max", &retry_view::course::MOST_HANDS.to_string())?;
        hands.set_attribute("inputmode", "numeric")?;
        hands.set_attribute("data-answer", &index.to_string())?;
        hands.set_attribute(
            "aria-label",
            &tf!(
                "The room's hands for \u{201c}{answer}\u{201d}",
                answer = answer
            ),
        )?;
        hands.set_attribute("placeholder", tr("hands"))?;
        row.append_child(&hands)?;
        let room = element(document, "span", "room")?;
        row.append_child(&room)?;
        list.append_child(&row)?;
    }
    Ok(())
}

/// In a core chapter, the extras that go deeper into it.
fn build_extras(document: &Document, view: &view::course::CourseView) -> Result<(), JsValue> {
    let Some(list) = document.get_element_by_id("extras") else {
        return Ok(());
    };
    for (i, extra) in view.extras.iter().enumerate() {
        // The built page keeps no space after the heading's span.
        list.append_with_str_1(if i == 0 { " " } else { ", " })?;
        let anchor = element(document, "a", "")?;
        anchor.set_attribute("href", &language::href(&extra.href))?;
        anchor.set_text_content(Some(&extra.text));
        list.append_child(&anchor)?;
    }
    show_if(&list, !view.extras.is_empty());
    Ok(())
}

/// The whole address of a link's query, as a phone or paper needs it.
fn absolute(query: &str) -> String {
    let href = language::href(query);
    let base = crate::page_base();
    match href.strip_prefix("./") {
        Some(rest) => format!("{base}{rest}"),
        None => format!("{base}{href}"),
    }
}

/// The chapter's link for the room's phones, in words and as a QR code:
/// dark squares on a light ground, whatever the page's colours.
fn draw_follow(document: &Document, link: &str) {
    let address = absolute(link);
    if let Some(anchor) = document.get_element_by_id("follow-link") {
        let _ = anchor.set_attribute("href", &address);
        anchor.set_text_content(Some(&address));
    }
    let Some(code) = retry_view::qr::code(&address) else {
        return;
    };
    let Some(canvas) = document
        .get_element_by_id("follow-code")
        .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok())
    else {
        return;
    };
    let quiet = retry_view::qr::QUIET;
    let squares = code.size + 2 * quiet;
    // Whole pixels per square: a scanner reads crisp edges.
    let unit = 6;
    let side = (squares * unit) as u32;
    canvas.set_width(side);
    canvas.set_height(side);
    let Some(context) = crate::canvas::context_2d(&canvas) else {
        return;
    };
    context.set_fill_style_str("#ffffff");
    context.fill_rect(0.0, 0.0, f64::from(side), f64::from(side));
    context.set_fill_style_str("#000000");
    for y in 0..code.size {
        for x in 0..code.size {
            if code.at(x, y) {
                let at = |i: usize| ((i + quiet) * unit) as f64;
                context.fill_rect(at(x), at(y), unit as f64, unit as f64);
            }
        }
    }
}

fn build_rules(document: &Document, view: &view::course::CourseView) -> Result<(), JsValue> {
    let Some(list) = document.get_element_by_id("rules") else {
        return Ok(());
    };
    for rule in &view.rules {
        let item = element(document, "li", "")?;
        let text = element(document, "span", "rule")?;
        text.set_text_content(Some(rule.text));
        item.append_child(&text)?;
        let shown = element(document, "ul", "rule-chapters")?;
        for (chapter, takeaway, core) in &rule.chapters {
            // The handout marks the chapters a room takes, the core path.
            let line = element(document, "li", if *core { "core" } else { "" })?;
            if *core {
                // Its runs' number comes once measured (`measure_handout`).
                let key = chapter.href.trim_start_matches("chapter=");
                line.set_attribute("data-measure", key)?;
            }
            let anchor = element(document, "a", "")?;
            anchor.set_attribute("href", &language::href(&chapter.href))?;
            anchor.set_attribute("data-url", &absolute(&chapter.href))?;
            anchor.set_text_content(Some(&chapter.text));
            line.append_child(&anchor)?;
            line.append_with_str_1(&format!(": {takeaway}"))?;
            shown.append_child(&line)?;
        }
        item.append_child(&shown)?;
        list.append_child(&item)?;
    }
    show_if(&list, !view.rules.is_empty());
    if let Some(handout) = document.get_element_by_id("handout") {
        show_if(&handout, !view.rules.is_empty());
    }
    // The guide shows no rules: nothing of theirs to measure.
    let guide = document
        .document_element()
        .is_some_and(|root| root.class_list().contains("guide"));
    if !view.rules.is_empty() && !guide {
        measure_handout(0);
    }
    Ok(())
}

/// Under each core chapter of the last page, what its runs measured over
/// the seeds: one chapter per task, so the page stays responsive.
fn measure_handout(index: usize) {
    let document = crate::document();
    let Ok(lines) = document.query_selector_all("#rules li[data-measure]") else {
        return;
    };
    let Some(line) = lines
        .item(index as u32)
        .and_then(|n| n.dyn_into::<Element>().ok())
    else {
        return;
    };
    let key = line.get_attribute("data-measure").unwrap_or_default();
    if let Some(retry_teach::course::Place::Chapter(chapter)) =
        retry_teach::course::Place::find(&key)
    {
        let seeds = retry_analyses::seeds::over_seeds(&chapter.config());
        if let Ok(measured) = element(&document, "span", "measured") {
            measured.set_text_content(Some(&format!(
                " {}",
                retry_teach::evidence::evidence(chapter, &seeds)
            )));
            let _ = line.append_child(&measured);
        }
    }
    crate::later(move || measure_handout(index + 1));
}

fn listen(document: &Document) -> Result<(), JsValue> {
    if let Some(answers) = document.get_element_by_id("answers") {
        let change = Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| {
            let index = event
                .target()
                .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
                .and_then(|input| input.value().parse::<usize>().ok());
            if let Some(index) = index {
                with_app(|app| {
                    if let Some(course) = app.course.as_mut() {
                        course.pick(index);
                    }
                });
                show();
            }
        });
        answers.add_event_listener_with_callback("change", change.as_ref().unchecked_ref())?;
        change.forget();
        // The room's hands, typed by the presenter: a count, anything else
        // none; told to the chapter's other windows (the presenter's view
        // and the room's screen), which count the same.
        // A browser without the channel still counts, alone.
        let room = web_sys::BroadcastChannel::new(ROOM_CHANNEL).ok();
        CHANNEL.with(|channel| *channel.borrow_mut() = room.clone());
        let told = room.clone();
        let input = Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
            let Some(field) = event
                .target()
                .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
                .filter(|f| f.class_list().contains("hands"))
            else {
                return;
            };
            let index = field
                .get_attribute("data-answer")
                .and_then(|i| i.parse().ok());
            let count = field.value().trim().parse::<u32>().unwrap_or(0);
            if let Some(index) = index {
                let message = with_app(|app| {
                    let course = app.course.as_mut()?;
                    course.set_hands(index, count);
                    Some(course.tally_message())
                });
                if let Some(Some(message)) = message {
                    keep_tally(&message);
                    if let Some(told) = &told {
                        let _ = told.post_message(&JsValue::from_str(&message));
                    }
                }
                show();
            }
        });
        answers.add_event_listener_with_callback("input", input.as_ref().unchecked_ref())?;
        input.forget();
        let heard =
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(|event: web_sys::MessageEvent| {
                if let Some(message) = event.data().as_string() {
                    hear(&message);
                }
            });
        if let Some(room) = &room {
            room.set_onmessage(Some(heard.as_ref().unchecked_ref()));
        }
        heard.forget();
    }
    if let Some(form) = document.get_element_by_id("prediction") {
        let submit = Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| {
            event.prevent_default();
            let revealed = with_app(|app| app.course.as_mut().is_some_and(Course::reveal));
            show();
            if revealed == Some(true) {
                // The room's screen shows what the presenter's shows.
                if let Some(Some(message)) =
                    with_app(|app| app.course.as_ref().and_then(Course::reveal_message))
                {
                    tell(&message);
                }
                // The verdict is what a reader of the words hears next.
                if let Some(verdict) = crate::document()
                    .get_element_by_id("verdict")
                    .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
                {
                    let _ = verdict.focus();
                }
                // The charts were drawn on hidden boxes: draw them again.
                schedule();
            }
        });
        form.add_event_listener_with_callback("submit", submit.as_ref().unchecked_ref())?;
        submit.forget();
    }
    // The knob's row left the form: its box hears it instead. A knob
    // moved in a presenting window moves the other's, once it settles.
    if let Some(knob) = document.get_element_by_id("knob") {
        hear_controls(&knob)?;
        let moved = Closure::<dyn FnMut()>::new(|| {
            if presenting() {
                if let Some(link) = with_app(|app| app.page.config().to_link()) {
                    tell(&format!("{STATE}{link}"));
                }
            }
        });
        knob.add_event_listener_with_callback("change", moved.as_ref().unchecked_ref())?;
        moved.forget();
    }
    for (id, class) in [("present", "presenting"), ("all-settings", "all-settings")] {
        if let Some(button) = document.get_element_by_id(id) {
            let click = Closure::<dyn FnMut()>::new(move || toggle(class));
            button.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
            click.forget();
        }
    }
    if let Some(button) = document.get_element_by_id("print-handout") {
        let click = Closure::<dyn FnMut()>::new(|| {
            if let Some(window) = web_sys::window() {
                let _ = window.print();
            }
        });
        button.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
        click.forget();
    }
    // A step to another chapter takes a presenting window's other window
    // along.
    for id in ["chapter-back", "chapter-next", "chapter-next-after"] {
        if let Some(link) = document.get_element_by_id(id) {
            let click = Closure::<dyn FnMut(web_sys::MouseEvent)>::new(
                move |event: web_sys::MouseEvent| {
                    let plain = !(event.ctrl_key()
                        || event.meta_key()
                        || event.shift_key()
                        || event.alt_key());
                    let href = crate::document()
                        .get_element_by_id(id)
                        .and_then(|a| a.get_attribute("href"));
                    if let (true, true, Some(href)) = (plain, presenting(), href) {
                        event.prevent_default();
                        go(&href);
                    }
                },
            );
            link.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
            click.forget();
        }
    }
    let keys = Closure::<dyn FnMut(KeyboardEvent)>::new(on_key);
    document.add_event_listener_with_callback("keydown", keys.as_ref().unchecked_ref())?;
    keys.forget();
    Ok(())
}

/// The channel a chapter's windows in one browser share the room's
/// tally on.
const ROOM_CHANNEL: &str = "retry-playground-room";

/// What another window of the chapter told: its reveal, where it went,
/// or the room's tally.
fn hear(message: &str) {
    if message.starts_with(view::course::REVEAL) {
        return hear_reveal(message);
    }
    if let Some(href) = message.strip_prefix(GO) {
        return follow(href);
    }
    if let Some(link) = message.strip_prefix(STATE) {
        return take_state(link);
    }
    hear_tally(message);
}

/// How a window whose knob moved tells the others its state.
const STATE: &str = "!state|";

/// Another presenting window's state: this one's becomes it, the
/// chapter's words following the knob as they do here.
fn take_state(link: &str) {
    if !presenting() {
        return;
    }
    let (config, _) = retry_sim::config::Config::from_link(link);
    let changed = with_app(|app| {
        if *app.page.config() == config {
            return false;
        }
        app.page.load(config);
        app.show_all();
        true
    });
    if changed == Some(true) {
        sync_link();
        show();
        schedule();
    }
}

/// How a window that went to another chapter tells the others.
const GO: &str = "!go|";

thread_local! {
    /// This window's end of the room's channel: what it tells goes out
    /// through the object that listens, so it does not hear itself.
    static CHANNEL: std::cell::RefCell<Option<web_sys::BroadcastChannel>> =
        const { std::cell::RefCell::new(None) };
}

/// Tells the chapter's other windows in this browser, if it can.
fn tell(message: &str) {
    CHANNEL.with(|channel| {
        if let Some(channel) = channel.borrow().as_ref() {
            let _ = channel.post_message(&JsValue::from_str(message));
        }
    });
}

/// Whether this window presents: the room's screen or the presenter's
/// notes, the two that follow each other.
fn presenting() -> bool {
    with_app(|app| {
        app.course
            .as_ref()
            .is_some_and(|c| matches!(c.present, Present::Room | Present::Notes))
    })
    .unwrap_or(false)
}

/// Goes to `href`, and tells a presenting window's other window to go
/// there too.
fn go(href: &str) {
    if presenting() {
        tell(&format!("{GO}{href}"));
    }
    crate::share::leave_for(href);
}

/// Another presenting window went to `href`: go there too, in this
/// window's own way of presenting.
fn follow(href: &str) {
    if !presenting() {
        return;
    }
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(here) = window.location().href() else {
        return;
    };
    let Ok(url) = web_sys::Url::new_with_base(href, &here) else {
        return;
    };
    let mine = web_sys::Url::new(&here)
        .ok()
        .and_then(|u| u.search_params().get("present"));
    match mine {
        Some(present) => url.search_params().set("present", &present),
        None => url.search_params().delete("present"),
    }
    crate::share::leave_for(&url.href());
}

/// Another window's reveal, shown here when it is of this chapter.
fn hear_reveal(message: &str) {
    let picked = with_app(|app| {
        let course = app.course.as_mut()?;
        course
            .hear_reveal(message)
            .then(|| course.picked())
            .flatten()
    })
    .flatten();
    let Some(picked) = picked else {
        return;
    };
    if let Ok(Some(radio)) =
        crate::document().query_selector(&format!("#answers input[type=radio][value=\"{picked}\"]"))
    {
        if let Ok(radio) = radio.dyn_into::<HtmlInputElement>() {
            radio.set_checked(true);
        }
    }
    show();
    schedule();
}

/// Keeps a tally message under its place's key.
fn keep_tally(message: &str) {
    let place = message.split('|').next().unwrap_or("");
    if let Some(storage) = language::storage() {
        let _ = storage.set_item(&view::course::tally_key(place), message);
    }
}

/// The session's summary on the last page: each chapter the room voted
/// on, its votes against the runs' answer, and the whole as CSV.
fn build_session(document: &Document) -> Result<(), JsValue> {
    let (Some(section), Some(table)) = (
        document.get_element_by_id("session"),
        document.get_element_by_id("session-table"),
    ) else {
        return Ok(());
    };
    let kept = |key: &str| language::storage().and_then(|s| s.get_item(key).ok().flatten());
    let rows = view::course::session(kept);
    show_if(&section, !rows.is_empty());
    if rows.is_empty() {
        return Ok(());
    }
    let head = element(document, "tr", "")?;
    for heading in [
        tr("chapter"),
        tr("the room's votes"),
        tr("the runs' answer"),
        tr("the room on it"),
    ] {
        let th = element(document, "th", "")?;
        th.set_attribute("scope", "col")?;
        th.set_text_content(Some(heading));
        head.append_child(&th)?;
    }
    table.append_child(&head)?;
    for row in &rows {
        let tr_ = element(document, "tr", "")?;
        let votes: Vec<String> = row.votes.iter().map(|(a, n)| format!("{a}: {n}")).collect();
        let share = row.share.map_or_else(String::new, |s| {
            retry_sim::metrics::Format::Share.headline(s)
        });
        for text in [
            row.title.to_string(),
            votes.join("; "),
            row.runs.unwrap_or("").to_string(),
            share,
        ] {
            let td = element(document, "td", "")?;
            td.set_text_content(Some(&text));
            tr_.append_child(&td)?;
        }
        table.append_child(&tr_)?;
    }
    if let Some(link) = document.get_element_by_id("session-csv") {
        let csv = view::course::session_csv(&rows);
        let encoded = String::from(js_sys::encode_uri_component(&csv));
        link.set_attribute("href", &format!("data:text/csv;charset=utf-8,{encoded}"))?;
    }
    Ok(())
}

/// The hands' fields, set to `hands`.
fn fill_hands(hands: &[u32]) {
    if let Ok(fields) = crate::document().query_selector_all("#answers .hands") {
        for index in 0..fields.length() {
            let field = fields
                .get(index)
                .and_then(|f| f.dyn_into::<HtmlInputElement>().ok());
            // No hands is an empty field, as the presenter clears one.
            if let (Some(field), Some(count)) = (field, hands.get(index as usize)) {
                match count {
                    0 => field.set_value(""),
                    count => field.set_value(&count.to_string()),
                }
            }
        }
    }
}

/// Another window's tally, shown (and kept) here when it is of this
/// chapter.
fn hear_tally(message: &str) {
    let hands = with_app(|app| {
        let course = app.course.as_mut()?;
        course.hear_tally(message).then(|| course.hands().to_vec())
    })
    .flatten();
    let Some(hands) = hands else {
        return;
    };
    keep_tally(message);
    fill_hands(&hands);
    show();
}

/// Turns the presenting layout or all the settings on or off.
fn toggle(class: &str) {
    let document = crate::document();
    let Some(root) = document.document_element() else {
        return;
    };
    let on = root.class_list().toggle(class).unwrap_or(false);
    if class == "presenting" {
        with_app(|app| {
            if let Some(course) = app.course.as_mut() {
                course.present = if on { Present::Room } else { Present::Off };
            }
        });
        sync_link();
    }
    show();
    // The charts' boxes changed size.
    schedule();
}

/// n, right arrow or page down: the next chapter; p, left arrow or page
/// up: the one before; f: the presenting layout. Not while a control,
/// an answer or a link has the keys.
fn on_key(event: KeyboardEvent) {
    if event.alt_key() || event.ctrl_key() || event.meta_key() || event.default_prevented() {
        return;
    }
    // Where text is typed, a key is a character; on a slider, a button
    // or an answer the arrows and page keys are the control's, and the
    // letters and Esc still the course's, whatever has the focus.
    let target = event.target().and_then(|t| t.dyn_into::<Element>().ok());
    let typing = target
        .as_ref()
        .is_some_and(|e| match e.tag_name().as_str() {
            "TEXTAREA" | "SELECT" => true,
            "INPUT" => !matches!(
                e.get_attribute("type").as_deref(),
                Some("range" | "radio" | "checkbox" | "button" | "submit")
            ),
            _ => false,
        });
    let in_control = target
        .as_ref()
        .is_some_and(|e| matches!(e.tag_name().as_str(), "INPUT" | "BUTTON"));
    let key = event.key();
    let shortcut = view::shortcut(&key, &event.code());
    let command = matches!(shortcut, "n" | "p" | "f" | "Escape");
    if (typing && shortcut != "Escape") || (in_control && !command) {
        return;
    }
    let id = match shortcut {
        "n" | "ArrowRight" | "PageDown" => "chapter-next",
        "p" | "ArrowLeft" | "PageUp" => "chapter-back",
        "f" => {
            event.prevent_default();
            toggle("presenting");
            return;
        }
        "Escape"
            if crate::document()
                .document_element()
                .is_some_and(|r| r.class_list().contains("presenting")) =>
        {
            toggle("presenting");
            return;
        }
        _ => return,
    };
    let href = crate::document()
        .get_element_by_id(id)
        .filter(|a| !a.has_attribute("hidden"))
        .and_then(|a| a.get_attribute("href"));
    if let Some(href) = href {
        event.prevent_default();
        go(&href);
    }
}

/// Copies the chapter's state into the DOM: the guess, the reveal, the
/// verdict, the way to the playground.
pub(super) fn show() {
    let Some(Some((view, shown_answer))) = with_app(|app| {
        let course = app.course.as_ref()?;
        Some((course.view(app.page.config()), course.answered()))
    }) else {
        return;
    };
    let document = crate::document();
    if let Some(root) = document.document_element() {
        let _ = root
            .class_list()
            .toggle_with_force("revealed", view.revealed);
        for (class, id, attribute) in [
            ("presenting", "present", "aria-pressed"),
            ("all-settings", "all-settings", "aria-expanded"),
        ] {
            let on = root.class_list().contains(class);
            if let Some(button) = document.get_element_by_id(id) {
                let _ = button.set_attribute(attribute, if on { "true" } else { "false" });
                if id == "present" {
                    let label = if on {
                        tr("Stop presenting (Esc)")
                    } else {
                        tr("Present to a room")
                    };
                    button.set_text_content(Some(label));
                }
            }
        }
    }
    if let Some(button) = document.get_element_by_id("reveal") {
        let _ = match view.picked.is_some() && !view.revealed {
            true => button.remove_attribute("disabled"),
            false => button.set_attribute("disabled", ""),
        };
        show_if(&button, !view.revealed);
    }
    if let Ok(labels) = document.query_selector_all("#answers label") {
        for index in 0..labels.length() {
            let Some(label) = labels.get(index).and_then(|n| n.dyn_into::<Element>().ok()) else {
                continue;
            };
            let runs = view.runs == Some(index as usize);
            let _ = label.class_list().toggle_with_force("runs", runs);
            if let Some(input) = label
                .query_selector("input")
                .ok()
                .flatten()
                .and_then(|n| n.dyn_into::<HtmlInputElement>().ok())
            {
                input.set_disabled(view.revealed);
            }
        }
    }
    if let Ok(rooms) = document.query_selector_all("#answers .room") {
        for index in 0..rooms.length() {
            if let Some(room) = rooms.get(index) {
                let words = view.room.get(index as usize).map(String::as_str);
                room.set_text_content(Some(words.unwrap_or("")));
            }
        }
    }
    if let Some(runs) = view.notes.as_ref().and_then(|n| n.runs.as_deref()) {
        set_text(&document, "notes-runs", runs);
    }
    let presenting = document
        .document_element()
        .is_some_and(|r| r.class_list().contains("presenting"));
    if let Some(follow) = document.get_element_by_id("follow") {
        show_if(&follow, presenting && view.notes.is_some());
    }
    if let Some(open) = document.get_element_by_id("open-notes") {
        let notes = with_app(|app| {
            app.course
                .as_ref()
                .map(|c| retry_teach::course::link(c.place, app.page.config(), Present::Notes))
        })
        .flatten();
        if let Some(notes) = &notes {
            let _ = open.set_attribute("href", &language::href(notes));
        }
        show_if(&open, presenting && view.notes.is_some());
    }
    if let Some(verdict) = document.get_element_by_id("verdict") {
        if let Some(text) = &view.verdict {
            if verdict.text_content().as_deref() != Some(text.as_str()) {
                verdict.set_text_content(Some(text));
            }
        }
        show_if(&verdict, view.verdict.is_some());
        let _ = verdict.set_attribute("data-answered", if shown_answer { "true" } else { "false" });
    }
    if let Some(note) = document.get_element_by_id("asked-note") {
        note.set_text_content(view.asked_note);
        show_if(&note, view.asked_note.is_some());
    }
    if let Some(paired) = document.get_element_by_id("paired") {
        paired.set_text_content(view.paired);
        show_if(&paired, view.paired.is_some());
    }
    show_steps(&document, &view);
    if let Some(anchor) = document.get_element_by_id("to-playground") {
        let _ = anchor.set_attribute("href", &language::href(&view.playground));
    }
}

/// The links back and on, which carry the presenting layout along.
fn show_steps(document: &Document, view: &view::course::CourseView) {
    for (id, link) in [
        ("chapter-back", &view.back),
        ("chapter-next", &view.next),
        ("chapter-next-after", &view.next),
    ] {
        let Some(anchor) = document.get_element_by_id(id) else {
            continue;
        };
        if let Some(link) = link {
            let _ = anchor.set_attribute("href", &language::href(&link.href));
            let text = match id {
                "chapter-back" => tf!("\u{2039} Back: {chapter}", chapter = link.text),
                _ => tf!("Next: {chapter} \u{203a}", chapter = link.text),
            };
            anchor.set_text_content(Some(&text));
        }
        show_if(&anchor, link.is_some());
    }
}

/// The seeds of the state shown are measured: they may decide the answer.
pub(super) fn measured(job: &view::jobs::Job) {
    let Some(seeds) = job.seeds() else {
        return;
    };
    let answer = with_app(|app| {
        let course = app.course.as_mut()?;
        course.measured(job.config(), seeds);
        Some((course.place.key(), course.answer_message()?))
    })
    .flatten();
    // The runs' answer, kept for the session's summary.
    if let (Some((key, message)), true, Some(storage)) = (answer, presenting(), language::storage())
    {
        let _ = storage.set_item(&view::course::answer_key(key), &message);
    }
    show();
}
