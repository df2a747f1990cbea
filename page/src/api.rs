//! `window.retryPlayground`: the page's numbers for scripts, such as a
//! course page holding the playground in a frame of its own origin, or a
//! console.
//!
//! `run(link)` returns a link's report as a plain object, `params()` the
//! parameter table. Both are the command line's JSON read by `JSON.parse`,
//! so a script gets what `retry-playground LINK` prints, value for value:
//! a number the JSON writes as `null` (not finite) is `null` here too, and
//! no code beyond what the page already has is needed to build them.

use wasm_bindgen::prelude::*;

use retry_sim::simulate;
use retry_teach::course;
use retry_view as view;

/// The name scripts find the API under, on the page's `window`.
const GLOBAL: &str = "retryPlayground";
/// The event on `window` that says the API is there, for scripts that
/// start before the simulator does.
const READY: &str = "retryplaygroundready";

/// The report of a link, as the command line prints it for that link:
/// `{"a": .., "b": ..}` in compare mode. A whole address works too.
fn run(link: JsValue) -> Result<JsValue, JsValue> {
    let Some(link) = link.as_string() else {
        return Err(js_sys::TypeError::new(
            "retryPlayground.run(link) takes a share link, a string",
        )
        .into());
    };
    js_sys::JSON::parse(&simulate::json_for(&course::open(&link).0))
}

/// Every parameter: key, label, unit, group, kind, range or choices,
/// default and help.
fn params() -> Result<JsValue, JsValue> {
    js_sys::JSON::parse(&view::api::params_json())
}

/// Puts the API on `window` and says so with an event.
pub(super) fn install() -> Result<(), JsValue> {
    let window = web_sys::window().ok_or("no window")?;
    let api = js_sys::Object::new();
    let run = Closure::<dyn Fn(JsValue) -> Result<JsValue, JsValue>>::new(run);
    js_sys::Reflect::set(&api, &"run".into(), &run.into_js_value())?;
    let params = Closure::<dyn Fn() -> Result<JsValue, JsValue>>::new(params);
    js_sys::Reflect::set(&api, &"params".into(), &params.into_js_value())?;
    js_sys::Object::freeze(&api);
    js_sys::Reflect::set(&window, &GLOBAL.into(), &api)?;
    window.dispatch_event(&web_sys::Event::new(READY)?)?;
    Ok(())
}
