//! Sharing the state: the link in the address bar, the Copy link and
//! embed buttons and their fallback field, the notice list.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, HtmlInputElement};

use retry_core::words::tr;
use retry_sim::link::Notice;
use retry_view as view;

use crate::{clipboard, document, embed, language, show_if, with_app};

/// Set once the page is going to another: rewriting the address bar
/// then would cancel that navigation (a frame painted after a key's step
/// to the next chapter would, in Chromium).
static LEAVING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Goes to `href`, the address bar left alone from then on.
pub(super) fn leave_for(href: &str) {
    LEAVING.store(true, std::sync::atomic::Ordering::Relaxed);
    if let Some(window) = web_sys::window() {
        let _ = window.location().assign(href);
    }
}

/// Makes the address bar the share link of the current state.
pub(super) fn sync_link() {
    if LEAVING.load(std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    let document = document();
    // Read out first: the link asks the app again, for the chapter.
    let Some(config) = with_app(|app| app.page.config().clone()) else {
        return;
    };
    let link = embed::page_link(&config, &document);
    language::sync_switch(&document, &link);
    let link = language::carried(&link);
    if let Some(window) = web_sys::window() {
        if let Ok(history) = window.history() {
            let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&format!("?{link}")));
        }
    }
}

/// What a copy button puts on the clipboard.
#[derive(Debug, Clone, Copy)]
enum Copying {
    /// The address that reproduces the page.
    Link,
    /// An `<iframe>` that embeds the current state in another page.
    Snippet,
}

impl Copying {
    /// The text, read when it is copied: the state may have changed while
    /// the clipboard was asked.
    fn text(self) -> String {
        match self {
            Copying::Link => with_app(|app| app.page.config().clone())
                .and_then(|config| embed::copied_link(&config))
                .or_else(|| web_sys::window().and_then(|w| w.location().href().ok()))
                .unwrap_or_default(),
            Copying::Snippet => embed::snippet_text(),
        }
    }

    fn status(self, copied: bool) -> &'static str {
        match self {
            Copying::Link => view::notices::copy_status(copied),
            Copying::Snippet => view::embed::snippet_copy_status(copied),
        }
    }

    /// The fallback field's name for screen readers.
    fn field_label(self) -> &'static str {
        match self {
            Copying::Link => tr("Link to this page"),
            Copying::Snippet => tr("Code that embeds this page"),
        }
    }
}

/// Wires the buttons that copy the link and the embed code.
pub(super) fn listen(document: &Document) -> Result<(), JsValue> {
    for (id, what) in [
        ("copy-link", Copying::Link),
        ("copy-embed", Copying::Snippet),
    ] {
        if let Some(button) = document.get_element_by_id(id) {
            let click = Closure::<dyn FnMut()>::new(move || copy(what));
            button.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
            click.forget();
        }
    }
    Ok(())
}

/// Copies to the clipboard where the browser allows it; where it does not,
/// shows the text selected for the person to copy, and says which happened.
fn copy(what: Copying) {
    let copied = move || {
        let document = document();
        if let Some(field) = document.get_element_by_id("copy-field") {
            show_if(&field, false);
        }
        show_copy_status(&document, what.status(true));
    };
    clipboard::write(&what.text(), copied, move || {
        show_copy_field(what, &what.text());
    });
}

/// Shows the text in a text field, selected, and tries the older copy
/// command on it; says truthfully whether it was copied.
fn show_copy_field(what: Copying, text: &str) {
    let document = document();
    let Some(field) = document
        .get_element_by_id("copy-field")
        .and_then(|e| e.dyn_into::<HtmlInputElement>().ok())
    else {
        return;
    };
    field.set_value(text);
    let _ = field.set_attribute("aria-label", what.field_label());
    show_if(&field, true);
    let _ = field.focus();
    field.select();
    let copied = clipboard::copy_selection(&document);
    show_copy_status(&document, what.status(copied));
}

fn show_copy_status(document: &Document, text: &str) {
    if let Some(status) = document.get_element_by_id("copy-status") {
        status.set_text_content(Some(text));
    }
}

pub(super) fn show_notices(document: &Document, notices: &[Notice]) {
    let Some(list) = document.get_element_by_id("notices") else {
        return;
    };
    list.set_text_content(None);
    for notice in notices {
        if let Ok(item) = document.create_element("li") {
            item.set_text_content(Some(&view::notices::notice_line(notice)));
            let _ = list.append_child(&item);
        }
    }
    show_if(&list, !notices.is_empty());
}
