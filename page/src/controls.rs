//! The controls in the DOM: a row per parameter built from `view`, values
//! put into widgets, input events read back into the page state.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, HtmlInputElement, HtmlSelectElement};

use retry_core::tf;
use retry_sim::config::{Group, P, PARAMS};
use retry_teach::lesson;
use retry_teach::presets::Preset;
use retry_view::{
    self as view,
    controls::{Control, Role, Widgets},
};

use crate::share::{show_notices, sync_link};
use crate::{element, schedule, with_app};

/// Puts the groups of controls the lesson is about first and open, and
/// closes the rest.
pub(super) fn open_groups(document: &Document, origin: Option<&'static Preset>) {
    let Some(form) = document.get_element_by_id("controls") else {
        return;
    };
    let open = origin.map_or(view::lesson::OWN_OPEN, |p| p.open);
    for (group, opened) in view::controls::group_order(open) {
        if let Some(details) = document.get_element_by_id(&view::controls::group_id(group)) {
            let _ = if opened {
                details.set_attribute("open", "")
            } else {
                details.remove_attribute("open")
            };
            let _ = form.append_child(&details);
        }
    }
}

/// Builds the rows of every parameter, group by group; `App::show_all`
/// then puts the values in.
pub(super) fn build_controls(document: &Document) -> Result<(), JsValue> {
    let form = document
        .get_element_by_id("controls")
        .ok_or("the page lacks #controls")?;
    for group in Group::ALL {
        let details = element(document, "details", "group")?;
        details.set_id(&view::controls::group_id(group));
        let summary = element(document, "summary", "")?;
        summary.set_text_content(Some(group.title().get()));
        details.append_child(&summary)?;
        let rows = element(document, "div", "rows")?;
        rows.set_attribute("role", "group")?;
        rows.set_attribute("aria-label", group.title().get())?;
        for (index, _) in PARAMS.iter().enumerate().filter(|(_, p)| p.group == group) {
            let row = control(document, &view::controls::control(index))?;
            rows.append_child(&row)?;
        }
        details.append_child(&rows)?;
        form.append_child(&details)?;
    }
    Ok(())
}

/// Sets an input's `min`, `max` and `step`.
fn set_range(input: &Element, range: &view::controls::Range) -> Result<(), JsValue> {
    input.set_attribute("min", &range.min)?;
    input.set_attribute("max", &range.max)?;
    input.set_attribute("step", &range.step)
}

/// One parameter's row: label, slider (or list), number box, help line.
fn control(document: &Document, control: &Control) -> Result<Element, JsValue> {
    let row = element(document, "div", control.row_class)?;
    row.set_id(&control.row_id);
    let head = element(document, "div", "head")?;
    let label = element(document, "label", "")?;
    label.set_text_content(Some(control.label));
    if let Some(text) = &control.unit {
        let unit = element(document, "span", "unit")?;
        unit.set_text_content(Some(text));
        label.append_child(&unit)?;
    }
    head.append_child(&label)?;
    let mut described_by = control.help_id.clone();
    if let Some(term) = view::controls::control_term(control.index) {
        let tip_id = format!("tip-{}", control.row_id);
        let mark = explained(document, "term-mark", "?", term.text.get(), &tip_id)?;
        mark.set_attribute("aria-label", &tf!("About {term}", term = term.name))?;
        head.append_child(&mark)?;
        described_by = format!("{described_by} {tip_id}");
    }
    row.append_child(&head)?;
    let index = control.index.to_string();
    // The widget the label names: the list or the slider.
    let (main, role) = match &control.widgets {
        Widgets::Choice { .. } => (element(document, "select", "")?, Role::Choice),
        Widgets::Slider { .. } => (element(document, "input", "")?, Role::Slider),
    };
    main.set_id(&control.input_id);
    if role == Role::Slider {
        main.set_attribute("type", "range")?;
    }
    main.set_attribute("data-index", &index)?;
    main.set_attribute("data-role", role.attribute())?;
    main.set_attribute("aria-describedby", &described_by)?;
    label.set_attribute("for", &control.input_id)?;
    match &control.widgets {
        Widgets::Choice { options } => {
            for (i, name) in options.iter().enumerate() {
                let option = element(document, "option", "")?;
                option.set_text_content(Some(name.get()));
                option.set_attribute("value", &i.to_string())?;
                main.append_child(&option)?;
            }
            row.append_child(&main)?;
        }
        Widgets::Slider {
            slider,
            number,
            number_id,
            number_label,
        } => {
            set_range(&main, slider)?;
            let input = element(document, "input", "")?;
            input.set_id(number_id);
            input.set_attribute("type", "number")?;
            input.set_attribute("data-index", &index)?;
            input.set_attribute("data-role", Role::Number.attribute())?;
            set_range(&input, number)?;
            input.set_attribute("aria-label", number_label)?;
            row.append_child(&main)?;
            row.append_child(&input)?;
        }
    }
    let help = element(document, "p", "help")?;
    help.set_id(&control.help_id);
    help.set_text_content(Some(control.help));
    row.append_child(&help)?;
    Ok(row)
}

/// A term with its explanation, shown on hover and on keyboard focus:
/// `<span class tabindex=0>text<span class=tip role=tooltip>...</span></span>`.
pub(super) fn explained(
    document: &Document,
    class: &str,
    text: &str,
    tip_text: &str,
    tip_id: &str,
) -> Result<Element, JsValue> {
    let span = element(document, "span", class)?;
    span.set_text_content(Some(text));
    span.set_attribute("tabindex", "0")?;
    span.set_attribute("aria-describedby", tip_id)?;
    let tip = element(document, "span", "tip")?;
    tip.set_id(tip_id);
    tip.set_attribute("role", "tooltip")?;
    tip.set_text_content(Some(tip_text));
    span.append_child(&tip)?;
    Ok(span)
}

/// Puts running text into `element` with each glossary term explained
/// where it first appears (`lesson::marked`), on hover and on keyboard
/// focus. Skipped when the element already shows `text`, so a term keeps
/// its focus across renders.
pub(super) fn text_with_terms(document: &Document, element: &Element, text: &str, tip_id: &str) {
    if element.get_attribute("data-text").as_deref() == Some(text) {
        return;
    }
    element.set_text_content(None);
    for (i, (piece, term)) in lesson::marked(text).into_iter().enumerate() {
        let _ = match term {
            Some(term) => explained(
                document,
                "term",
                piece,
                term.text.get(),
                &format!("{tip_id}-{i}"),
            )
            .and_then(|span| element.append_child(&span).map(drop)),
            None => element.append_with_str_1(piece),
        };
    }
    let _ = element.set_attribute("data-text", text);
}

/// A label, explained when the glossary has its term.
pub(super) fn label_with_term(
    document: &Document,
    text: &str,
    term: Option<&str>,
    tip_id: &str,
) -> Result<Element, JsValue> {
    match term.and_then(lesson::term) {
        Some(term) => explained(document, "term", text, term.text.get(), tip_id),
        None => {
            let span = element(document, "span", "")?;
            span.set_text_content(Some(text));
            Ok(span)
        }
    }
}

/// The widget's role, from its `data-role`.
fn role_of(widget: &Element) -> Role {
    Role::from_attribute(&widget.get_attribute("data-role").unwrap_or_default())
}

/// Puts a value into every widget of parameter `index`.
pub(super) fn show_value(document: &Document, index: usize, value: f64) {
    for role in view::controls::roles(&PARAMS[index]) {
        set_widget(document, index, *role, value);
    }
}

/// Puts a value into parameter `index`'s widget of a role, as that role
/// shows it: a list is a `<select>`, the others are `<input>`s.
fn set_widget(document: &Document, index: usize, role: Role, value: f64) {
    let param = &PARAMS[index];
    let Some(widget) = document.get_element_by_id(&view::controls::widget_id(param, role)) else {
        return;
    };
    let text = role.text(param, value);
    if role == Role::Choice {
        widget.unchecked_ref::<HtmlSelectElement>().set_value(&text);
    } else {
        widget.unchecked_ref::<HtmlInputElement>().set_value(&text);
    }
}

pub(super) fn set_param(p: P, value: f64) {
    with_app(|app| {
        app.page.set(p, value);
        app.show_all();
    });
    sync_link();
    schedule();
}

/// Listens for the controls inside `element` (the form, or a box a row
/// moved to): a moving control's `input`, a final value's `change`.
pub(super) fn hear_controls(element: &Element) -> Result<(), JsValue> {
    let input =
        Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| on_input(&event, false));
    element.add_event_listener_with_callback("input", input.as_ref().unchecked_ref())?;
    input.forget();
    let change =
        Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| on_input(&event, true));
    element.add_event_listener_with_callback("change", change.as_ref().unchecked_ref())?;
    change.forget();
    Ok(())
}

/// A control moved or was typed into. `commit` is the `change` event: the
/// value is final, so a number box that was clamped shows the clamped value.
fn on_input(event: &web_sys::Event, commit: bool) {
    let Some(target) = event.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
        return;
    };
    let Some(index) = target
        .get_attribute("data-index")
        .and_then(|i| view::controls::param_index(&i))
    else {
        return;
    };
    let text = if let Some(select) = target.dyn_ref::<HtmlSelectElement>() {
        select.value()
    } else if let Some(input) = target.dyn_ref::<HtmlInputElement>() {
        input.value()
    } else {
        return;
    };
    with_app(|app| {
        let Some(edit) = app.page.input(index, role_of(&target), &text, commit) else {
            return;
        };
        let value = app.page.shown_value(index);
        if edit.keep_number {
            set_widget(&app.document, index, Role::Slider, value);
        } else {
            show_value(&app.document, index, value);
        }
        if edit.show_all {
            app.show_all();
        }
        if edit.replace_notices {
            show_notices(&app.document, edit.notice.as_slice());
        }
    });
    // The address bar follows once the render's frame is painted (see
    // `drive`): rewriting it on every input of a moving slider would cost
    // the browser a round trip to its own process each time.
    schedule();
}
