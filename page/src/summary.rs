//! The numbers below the charts in the DOM: the layers view and the
//! summary table.

use web_sys::{Document, Element};

use retry_view as view;

use crate::controls::label_with_term;
use crate::{element, show_if};

/// Fills the layers view, or hides it when there is no chain of layers.
pub(super) fn show_layers(document: &Document, lists: Option<&[view::summary::LayerList]>) {
    let Some(figure) = document.get_element_by_id("layers") else {
        return;
    };
    figure.set_text_content(None);
    show_if(&figure, lists.is_some());
    for layer_list in lists.unwrap_or_default() {
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
            let _ = list.append_child(&item);
        }
        let _ = figure.append_child(&list);
    }
    let greyed = lists
        .unwrap_or_default()
        .iter()
        .flat_map(|list| &list.lines)
        .any(|line| line.nobody_share > 0.0);
    if let (true, Ok(key)) = (greyed, element(document, "p", "layers-key")) {
        key.set_text_content(Some(view::summary::nobody_key()));
        let _ = figure.append_child(&key);
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
