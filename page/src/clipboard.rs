//! The clipboard, and the fallback where the browser refuses it: one flow
//! for every copy button (the link, the embed code, the configuration).

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::Document;

/// Writes `text` to the clipboard where the browser allows it, then calls
/// `copied`; where it does not (no clipboard outside a secure context,
/// permission refused), calls `refused`, which shows the text selected for
/// the person to copy (and may try [`copy_selection`]).
pub(crate) fn write(text: &str, copied: impl FnOnce() + 'static, refused: impl FnOnce() + 'static) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let navigator = window.navigator();
    // `navigator.clipboard` is undefined on a plain-http host.
    let has_clipboard = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard"))
        .is_ok_and(|c| !c.is_undefined() && !c.is_null());
    if !has_clipboard {
        refused();
        return;
    }
    let copied = Closure::once_into_js(move |_: JsValue| copied());
    let refused = Closure::once_into_js(move |_: JsValue| refused());
    // `then` through the promise itself: `once_into_js` closures free
    // themselves when called, where `Promise::then2` would need two kept
    // alive for ever.
    let promise: JsValue = navigator.clipboard().write_text(text).into();
    if let Ok(then) = js_sys::Reflect::get(&promise, &JsValue::from_str("then")) {
        let _ = then
            .unchecked_into::<js_sys::Function>()
            .call2(&promise, &copied, &refused);
    }
}

/// Tries the older copy command on what is selected; says truthfully
/// whether it copied.
pub(crate) fn copy_selection(document: &Document) -> bool {
    document
        .dyn_ref::<web_sys::HtmlDocument>()
        .and_then(|d| d.exec_command("copy").ok())
        .unwrap_or(false)
}
