//! The numbers below the charts in the DOM: the layers view and the
//! summary table.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element};

use retry_view as view;

use crate::controls::label_with_term;
use crate::{element, show_if};
use retry_core::tf;
use retry_sim::config::Group;

/// Fills the layers view, or hides it when there is no chain of layers.
pub(super) fn show_layers(document: &Document, lists: Option<&[view::summary::LayerList]>) {
    let Some(figure) = document.get_element_by_id("layers") else {
        return;
    };
    figure.set_text_content(None);
    show_if(&figure, lists.is_some());
    for (side, layer_list) in lists.unwrap_or_default().iter().enumerate() {
        let Ok(list) = element(document, "ol", "layer-list") else {
            return;
        };
        for line in &layer_list.lines {
            let (Ok(item), Ok(bar), Ok(text)) = (
                element(document, "li", ""),
                element(document, "span", layer_list.bar_class),
                element(document, "span", ""),
            ) else {
                return;
            };
            let _ = bar.set_attribute("style", &line.bar_style());
            if line.nobody_share > 0.0 {
                if let Ok(nobody) = element(document, "span", "bar-nobody") {
                    let _ = nobody.set_attribute("style", &line.nobody_style());
                    let _ = bar.append_child(&nobody);
                }
            }
            text.set_text_content(Some(&line.text));
            let _ = item.append_child(&bar);
            let _ = item.append_child(&text);
            // The service's own settings, and a way to its controls (once,
            // under the first policy's lines).
            if !line.own.is_empty() {
                if let Ok(own) = element(document, "span", "layer-own") {
                    own.set_text_content(Some(&line.own.join(" \u{b7} ")));
                    let _ = item.append_child(&own);
                }
            }
            if side == 0 {
                if let Ok(open) = element(document, "button", "layer-open") {
                    let _ = open.set_attribute("type", "button");
                    let _ = open.set_attribute("data-service", &line.service.to_string());
                    open.set_text_content(Some(&tf!("Settings of layer {n}", n = line.service)));
                    let _ = item.append_child(&open);
                }
            }
            // Last, so that the bar, at the line's foot, is under it.
            if let Ok(spark) = spark(document, &line.spark, line.service, side) {
                let _ = item.append_child(&spark);
            }
            let _ = list.append_child(&item);
        }
        let _ = figure.append_child(&list);
    }
    let greyed = lists
        .unwrap_or_default()
        .iter()
        .flat_map(|list| &list.lines)
        .any(|line| line.nobody_share > 0.0);
    if let (true, Ok(key)) = (lists.is_some(), element(document, "p", "layers-key")) {
        key.set_text_content(Some(&view::summary::layers_key(greyed)));
        let _ = figure.append_child(&key);
    }
}

/// A layer's calls over the run ([`view::summary::Spark`]): an SVG of
/// two paths, whose data are numbers the view wrote.
fn spark(
    document: &Document,
    spark: &view::summary::Spark,
    service: usize,
    side: usize,
) -> Result<Element, JsValue> {
    const SVG: Option<&str> = Some("http://www.w3.org/2000/svg");
    let svg = document.create_element_ns(SVG, "svg")?;
    svg.set_attribute(
        "class",
        if side == 0 {
            "layer-spark"
        } else {
            "layer-spark spark-b"
        },
    )?;
    svg.set_attribute("viewBox", &view::summary::Spark::view_box())?;
    svg.set_attribute("preserveAspectRatio", "none")?;
    svg.set_attribute("role", "img")?;
    svg.set_attribute("aria-label", &spark.label(service))?;
    // The same words on hover.
    let title = document.create_element_ns(SVG, "title")?;
    title.set_text_content(Some(&spark.label(service)));
    svg.append_child(&title)?;
    for (data, class) in [
        (&spark.calls, "spark-calls"),
        (&spark.nobody, "spark-nobody"),
    ] {
        if !data.is_empty() {
            let path = document.create_element_ns(SVG, "path")?;
            path.set_attribute("class", class)?;
            path.set_attribute("d", data)?;
            svg.append_child(&path)?;
        }
    }
    Ok(svg)
}

/// Wires the layers view's buttons: each opens the controls of its
/// layer's service (the top's are the policy's) and puts the focus on its
/// attempts.
pub(super) fn wire_layers(document: &Document) -> Result<(), JsValue> {
    let Some(figure) = document.get_element_by_id("layers") else {
        return Ok(());
    };
    let click = Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| {
        let service = event
            .target()
            .and_then(|t| t.dyn_into::<Element>().ok())
            .and_then(|e| e.closest("button.layer-open").ok().flatten())
            .and_then(|b| b.get_attribute("data-service"))
            .and_then(|n| n.parse::<usize>().ok());
        if let Some(service) = service {
            open_layer_controls(&crate::document(), service);
        }
    });
    figure.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
    click.forget();
    Ok(())
}

fn open_layer_controls(document: &Document, service: usize) {
    let (group, key) = match service {
        1 => (Group::Policy, "attempts".to_string()),
        n => (Group::Layers, format!("l{n}_attempts")),
    };
    if let Some(details) = document.get_element_by_id(&view::controls::group_id(group)) {
        let _ = details.set_attribute("open", "");
    }
    if let Some(row) = document.get_element_by_id(&format!("param-{key}")) {
        row.scroll_into_view();
    }
    if let Some(number) = document
        .get_element_by_id(&format!("num-{key}"))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = number.focus();
    }
}

/// Fills the summary table: a heading row, then one row per number.
pub(super) fn show_summary(document: &Document, summary: &view::summary::SummaryTable) {
    let Some(table) = document.get_element_by_id("summary") else {
        return;
    };
    table.set_text_content(None);
    let cell = |tag: &str, text: &str| -> Option<Element> {
        let element = document.create_element(tag).ok()?;
        element.set_text_content(Some(text));
        Some(element)
    };
    let Ok(head) = document.create_element("tr") else {
        return;
    };
    for heading in &summary.headings {
        if let Some(th) = cell("th", heading) {
            let class = view::summary::heading_class(heading);
            if !class.is_empty() {
                th.set_class_name(class);
            }
            let _ = head.append_child(&th);
        }
    }
    let _ = table.append_child(&head);
    for (i, row) in summary.rows.iter().enumerate() {
        let Ok(tr) = document.create_element("tr") else {
            return;
        };
        if let (Ok(th), Ok(label)) = (
            document.create_element("th"),
            label_with_term(document, row.label, row.term, &format!("tip-row-{i}")),
        ) {
            let _ = th.set_attribute("scope", "row");
            let _ = th.append_child(&label);
            let _ = tr.append_child(&th);
        }
        for text in &row.cells {
            if let Some(td) = cell("td", text) {
                let _ = tr.append_child(&td);
            }
        }
        let _ = table.append_child(&tr);
    }
}
