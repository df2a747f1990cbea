//! The document in the page's language: the words `index.html` holds.
//!
//! The first chart's module (`first/`) translates them before it draws,
//! and the page's module only when that one did not (it includes this
//! file as its own).

use wasm_bindgen::JsCast;
use web_sys::{Document, Element, Node};

use retry_core::words::{self, Lang, READ_ATTRIBUTES, collapsed, tr};

/// Marks a document whose words are translated: once is enough.
const TRANSLATED: &str = "data-translated";

/// The document in the page's language: `<html lang>`, and the words
/// `index.html` itself holds, which `tests/words.rs` finds as this reads
/// them: each text between tags with its whitespace collapsed, and the
/// attributes a person reads.
pub(crate) fn translate(document: &Document) {
    let Some(root) = document.document_element() else {
        return;
    };
    let _ = root.set_attribute("lang", words::lang().code());
    if words::lang() != Lang::En && !root.has_attribute(TRANSLATED) {
        translate_node(&root);
        let _ = root.set_attribute(TRANSLATED, "");
    }
}

fn translate_node(node: &Node) {
    if let Some(element) = node.dyn_ref::<Element>() {
        if matches!(element.tag_name().as_str(), "SCRIPT" | "STYLE") {
            return;
        }
        for name in READ_ATTRIBUTES {
            if let Some(value) = element.get_attribute(name) {
                let said = collapsed(&value);
                let _ = element.set_attribute(name, tr(&said));
            }
        }
    }
    if node.node_type() == Node::TEXT_NODE {
        if let Some(text) = node.node_value() {
            let said = collapsed(&text);
            let russian = tr(&said);
            if !said.is_empty() && russian != said {
                // The spaces around the words part them from their neighbours.
                let lead = if text.starts_with(|c: char| c.is_ascii_whitespace()) {
                    " "
                } else {
                    ""
                };
                let trail = if text.ends_with(|c: char| c.is_ascii_whitespace()) {
                    " "
                } else {
                    ""
                };
                node.set_node_value(Some(&format!("{lead}{russian}{trail}")));
            }
        }
        return;
    }
    let children = node.child_nodes();
    for i in 0..children.length() {
        if let Some(child) = children.item(i) {
            translate_node(&child);
        }
    }
}
