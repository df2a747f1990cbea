//! "Your system" in its panel: the form `view::yours` describes, built the
//! first time the panel opens and filled from the state shown each time it
//! opens; its numbers, once built, replace the world, and the panel says
//! what they come to and what it could not use as typed.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, HtmlInputElement};

use retry_sim::config::Config;
use retry_view::yours::{self, Fit, Part};

use crate::share::{show_notices, sync_link};
use crate::{schedule, show_if, with_app};

const PANEL: &str = "yours";

/// Fills the panel each time it opens, and builds the world on "Build".
pub(super) fn listen(document: &Document) -> Result<(), JsValue> {
    let Some(panel) = document.get_element_by_id(PANEL) else {
        return Ok(());
    };
    let toggle = Closure::<dyn FnMut()>::new(|| {
        let document = crate::document();
        if !panel_open(&document) {
            return;
        }
        if let Err(why) = fill(&document) {
            web_sys::console::warn_1(&why);
        }
    });
    panel.add_event_listener_with_callback("toggle", toggle.as_ref().unchecked_ref())?;
    toggle.forget();
    if let Some(button) = document.get_element_by_id("yours-build") {
        let click = Closure::<dyn FnMut()>::new(build);
        button.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
        click.forget();
    }
    // "Then": a button opens the stress report's or the search's panel,
    // which runs on this world once open, and brings it into view.
    if let Ok(buttons) = document.query_selector_all("#yours button[data-open]") {
        for i in 0..buttons.length() {
            let Some(button) = buttons.item(i).and_then(|n| n.dyn_into::<Element>().ok()) else {
                continue;
            };
            let Some(id) = button.get_attribute("data-open") else {
                continue;
            };
            let click = Closure::<dyn FnMut()>::new(move || {
                if let Some(panel) = crate::document().get_element_by_id(&id) {
                    let _ = panel.set_attribute("open", "");
                    panel.scroll_into_view();
                }
            });
            button.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
            click.forget();
        }
    }
    // The services between show as many as the count typed says.
    if let Some(form) = document.get_element_by_id("yours-form") {
        let input = Closure::<dyn FnMut()>::new(|| {
            let document = crate::document();
            let typed = input(&document, "y-layers")
                .and_then(|i| retry_core::decimal::parse_f64(&i.value()))
                .map_or(0, |n| n.clamp(0.0, yours::MAX_BETWEEN as f64) as usize);
            show_between(&document, typed);
        });
        form.add_event_listener_with_callback("input", input.as_ref().unchecked_ref())?;
        input.forget();
    }
    Ok(())
}

fn panel_open(document: &Document) -> bool {
    document
        .get_element_by_id(PANEL)
        .is_some_and(|panel| panel.has_attribute("open"))
}

fn input(document: &Document, id: &str) -> Option<HtmlInputElement> {
    document
        .get_element_by_id(id)
        .and_then(|e| e.dyn_into::<HtmlInputElement>().ok())
}

/// The form's fields, built once in the page's language, then the state
/// shown written into them.
fn fill(document: &Document) -> Result<(), JsValue> {
    let form = document
        .get_element_by_id("yours-form")
        .ok_or("no form for your system")?;
    if form.child_element_count() == 0 {
        build_form(document, &form)?;
    }
    let Some(config) = with_app(|app| app.page.config().clone()) else {
        return Ok(());
    };
    for field in yours::fields() {
        if let Some(input) = input(document, &field.id()) {
            input.set_value(&field.text(&config));
        }
    }
    show_between(document, yours::between(&config));
    show_fit(document, &config);
    Ok(())
}

/// A fieldset per part of the chain, a labelled number box per field.
fn build_form(document: &Document, form: &Element) -> Result<(), JsValue> {
    let mut part = None;
    let mut set = form.clone();
    for field in yours::fields() {
        if part != Some(field.part) {
            part = Some(field.part);
            set = document.create_element("fieldset")?;
            if let Part::Between(n) = field.part {
                set.set_attribute("data-between", &n.to_string())?;
            }
            let legend = document.create_element("legend")?;
            legend.set_text_content(Some(&field.part.heading()));
            set.append_child(&legend)?;
            form.append_child(&set)?;
        }
        let label = document.create_element("label")?;
        let name = document.create_element("span")?;
        name.set_text_content(Some(field.label.get()));
        label.append_child(&name)?;
        let input = document
            .create_element("input")?
            .dyn_into::<HtmlInputElement>()?;
        input.set_type("number");
        input.set_id(&field.id());
        let (low, high) = field.range();
        input.set_min(&low.to_string());
        input.set_max(&high.to_string());
        input.set_step(if field.whole() { "1" } else { "any" });
        label.append_child(&input)?;
        if !field.unit().is_empty() {
            let unit = document.create_element("span")?;
            unit.set_class_name("unit");
            unit.set_text_content(Some(field.unit()));
            label.append_child(&unit)?;
        }
        set.append_child(&label)?;
    }
    Ok(())
}

/// Shows the fieldsets of the first `count` services between.
fn show_between(document: &Document, count: usize) {
    if let Ok(sets) = document.query_selector_all("#yours-form fieldset[data-between]") {
        for i in 0..sets.length() {
            if let Some(set) = sets.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
                let n: usize = set
                    .get_attribute("data-between")
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0);
                show_if(&set, n <= count);
            }
        }
    }
}

fn show_fit(document: &Document, config: &Config) {
    if let Some(line) = document.get_element_by_id("yours-fit") {
        line.set_text_content(Some(&Fit::of(config).line()));
    }
}

/// Reads every field shown, builds the world from them, and shows it: the
/// system is the reader's own now, so no preset's lesson stays.
fn build() {
    let document = crate::document();
    let entries: Vec<(String, String)> = yours::fields()
        .iter()
        .filter_map(|field| input(&document, &field.id()))
        .filter(|input| input.closest("fieldset[hidden]").ok().flatten().is_none())
        .map(|input| (input.id(), input.value()))
        .collect();
    let Some(notices) = with_app(|app| {
        let (config, notices) = yours::build(app.page.config(), &entries);
        app.origin = None;
        app.page.load(config);
        app.show_all();
        show_notices(&app.document, &[]);
        notices
    }) else {
        return;
    };
    sync_link();
    schedule();
    // The form shows what it used, and what that comes to.
    let _ = fill(&document);
    if let Some(list) = document.get_element_by_id("yours-notes") {
        list.set_text_content(None);
        for notice in &notices {
            if let Ok(item) = document.create_element("li") {
                item.set_text_content(Some(&retry_view::notices::notice_line(notice)));
                let _ = list.append_child(&item);
            }
        }
        show_if(&list, !notices.is_empty());
    }
}
