//! The page's language: which one it speaks, its words, and the switch.
//!
//! The language is the link's (`lang=ru`), else the one the reader chose
//! with the switch on an earlier visit, else the first of the browser's
//! languages the page speaks, else English. Russian's words are files of
//! their own, fetched only by a page that speaks Russian: `ru.words`, those
//! the first screen may show, at once, and `ru-page.words`, the rest of the
//! page's, with its module; both are spoken before the page writes a word,
//! and the service worker keeps them with the page's other files. A
//! language the reader chose (in the link or with the switch) goes on in
//! the address bar, Copy link and the embed code; one that only followed
//! the browser does not, so a shared link opens in each reader's own.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::Document;

use retry_core::words::{self, Lang, tr};
use retry_sim::link::{link_lang, with_lang};

use crate::element;

/// Where the switch's choice is kept between visits.
const STORED: &str = "retry-playground-lang";

thread_local! {
    /// The language the reader chose, which links carry.
    static CHOSEN: Cell<Option<Lang>> = const { Cell::new(None) };
    /// Whether the words of "Take it home" were asked for.
    static TAKE_HOME_ASKED: Cell<bool> = const { Cell::new(false) };
}

/// The language for a page opened at `search`.
pub(super) fn choose(search: &str) -> Lang {
    let chosen = link_lang(search).or_else(stored);
    CHOSEN.with(|c| c.set(chosen));
    chosen.or_else(browser).unwrap_or_default()
}

/// The language the reader chose, which the links the page shares carry.
pub(super) fn chosen() -> Option<Lang> {
    CHOSEN.with(Cell::get)
}

/// `link` as the page shares it, with the language the reader chose.
pub(super) fn carried(link: &str) -> String {
    with_lang(link.to_string(), chosen())
}

/// A link within the page to `query`, in the language the reader chose:
/// the page itself, `./`, for no query at all.
pub(super) fn href(query: &str) -> String {
    match with_lang(query.to_string(), chosen()) {
        query if query.is_empty() => "./".to_string(),
        query => format!("?{query}"),
    }
}

/// This browser's lasting storage, if it keeps one.
pub(super) fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn stored() -> Option<Lang> {
    Lang::from_code(&storage()?.get_item(STORED).ok().flatten()?)
}

fn browser() -> Option<Lang> {
    let languages = web_sys::window()?.navigator().languages();
    let words: Vec<String> = languages.iter().filter_map(|l| l.as_string()).collect();
    Lang::preferred(words.iter().map(String::as_str))
}

/// Speaks `lang`, then calls `then`: at once for English, once the
/// Russian words have come for Russian. The page's script asked for them
/// (`index.html`: promises of their text): the first screen's as it was
/// read (`retryPlaygroundRussian`), the rest with this module
/// (`retryPlaygroundRussianPage`), a chapter's with a chapter's address
/// (`retryPlaygroundCourse`).
/// (`then` is boxed so that the page is built by one copy of its code.)
pub(super) fn speak(lang: Lang, then: Box<dyn FnOnce()>) {
    let asked = |name: &str| {
        web_sys::window()
            .filter(|_| lang == Lang::Ru)
            .and_then(|w| js_sys::Reflect::get(&w, &name.into()).ok())
            .and_then(|p| p.dyn_into::<js_sys::Promise>().ok())
    };
    // A chapter's words (index.html asks for them with a chapter's
    // address) after the first screen's.
    let then: Box<dyn FnOnce()> = match asked("retryPlaygroundCourse") {
        Some(course) => Box::new(move || learn(course, then)),
        None => then,
    };
    // The words of the page beyond its first screen, asked for with this
    // module (`retryPlaygroundPage`).
    let then: Box<dyn FnOnce()> = match asked("retryPlaygroundRussianPage") {
        Some(rest) => Box::new(move || learn(rest, then)),
        None => then,
    };
    match asked("retryPlaygroundRussian") {
        Some(asked) => learn(asked, then),
        None => then(),
    }
}

/// Learns the words of `take-home` ("Take it home": a library's
/// configuration and its notes) the first time they are needed, then
/// calls `then`; nothing when the page speaks English.
pub(super) fn learn_take_home(then: Box<dyn FnOnce()>) {
    if words::lang() == Lang::En || TAKE_HOME_ASKED.with(|a| a.replace(true)) {
        return;
    }
    let asked = web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &"retryPlaygroundWords".into()).ok())
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call1(&JsValue::NULL, &"ru-take-home.words".into()).ok())
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok());
    if let Some(asked) = asked {
        learn(asked, then);
    }
}

/// Learns the Russian words `asked` promises, then calls `then`. Words
/// that do not come leave what they would say in English, and the console
/// says why.
fn learn(asked: js_sys::Promise, then: Box<dyn FnOnce()>) {
    let then = RefCell::new(Some(then));
    let done = Rc::new(move |words: Result<String, JsValue>| {
        let spoken = words.and_then(|text| words::speak_russian(&text).map_err(JsValue::from));
        if let Err(why) = spoken {
            web_sys::console::warn_2(
                &"Russian words did not load; they stay English:".into(),
                &why,
            );
        }
        if let Some(then) = then.borrow_mut().take() {
            then();
        }
    });
    let read = {
        let done = done.clone();
        Closure::once(move |text: JsValue| (*done)(Ok(text.as_string().unwrap_or_default())))
    };
    let failed = Closure::once(move |why: JsValue| (*done)(Err(why)));
    let _ = asked.then2(&read, &failed);
    read.forget();
    failed.forget();
}

/// Builds the switch: a link to this page in each language, the one
/// spoken marked; following one remembers the choice for the next visit.
/// The links `index.html` holds keep the language the reader chose too.
pub(super) fn build_switch(document: &Document) -> Result<(), JsValue> {
    for id in ["start-course", "reset"] {
        if let Some(link) = document.get_element_by_id(id) {
            let query = link.get_attribute("href").unwrap_or_default();
            let query = query.strip_prefix('?').unwrap_or_default();
            link.set_attribute("href", &href(query))?;
        }
    }
    let Some(place) = document.get_element_by_id("langs") else {
        return Ok(());
    };
    place.set_attribute("aria-label", tr("Language"))?;
    // The first chart's module may have written the names, unlinked.
    place.set_text_content(None);
    for lang in Lang::ALL {
        let link = element(document, "a", "")?;
        link.set_text_content(Some(lang.name()));
        link.set_attribute("lang", lang.code())?;
        link.set_attribute("hreflang", lang.code())?;
        link.set_attribute("data-lang", lang.code())?;
        if lang == words::lang() {
            link.set_attribute("aria-current", "true")?;
        }
        let remember = Closure::<dyn FnMut()>::new(move || {
            if let Some(storage) = storage() {
                let _ = storage.set_item(STORED, lang.code());
            }
        });
        link.add_event_listener_with_callback("click", remember.as_ref().unchecked_ref())?;
        remember.forget();
        place.append_child(&link)?;
    }
    Ok(())
}

/// Points the switch's links at the state shown, `link` without a
/// language, in each language.
pub(super) fn sync_switch(document: &Document, link: &str) {
    for lang in Lang::ALL {
        let selector = format!("#langs a[data-lang=\"{}\"]", lang.code());
        if let Ok(Some(a)) = document.query_selector(&selector) {
            let _ = a.set_attribute(
                "href",
                &format!("?{}", with_lang(link.to_string(), Some(lang))),
            );
        }
    }
}
