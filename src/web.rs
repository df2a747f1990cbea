//! The page: the only module that touches wasm-bindgen and web-sys.
//!
//! It is deliberately thin: [`view`] decides what to show, this module
//! copies it into the DOM and wires events back. On load it reads the link
//! into a [`Config`], builds one control per row of the parameter table,
//! runs and draws. On every input it updates the `Config`, rewrites the
//! address bar with `replaceState` (one history entry per visit, not per
//! pixel of a drag) and asks for one redraw per animation frame, however
//! many events arrive. Text that came from a link only ever reaches the
//! page as text content.

use std::cell::RefCell;

use plotters::prelude::*;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, HtmlCanvasElement, HtmlInputElement, HtmlSelectElement};

use crate::chart::{self, Theme};
use crate::config::{Config, Group, Notice, P, PARAMS};
use crate::lesson::{self, Headline, Term};
use crate::presets::{self, Preset};
use crate::report;
use crate::sweep;
use crate::view::{self, Control, Page, Role, SweepJob, Widgets};

struct App {
    sweep: Option<SweepJob>,
    document: Document,
    page: Page,
    /// The preset the learner picked or opened: its lesson stays while
    /// they change settings.
    origin: Option<&'static Preset>,
    /// The lesson's chart as placed, so charts move only when it changes.
    key_chart: &'static str,
    frame_pending: bool,
    renders: u32,
}

impl App {
    /// Puts every value into its widgets, e.g. after switching A and B.
    fn show_all(&self) {
        for index in 0..PARAMS.len() {
            show_value(&self.document, index, self.page.shown_value(index));
        }
        if let Some(sides) = self.document.get_element_by_id("sides") {
            show_if(&sides, self.page.config().comparing());
        }
        let on_b = self.page.showing_b();
        for (id, pressed) in [("edit-a", !on_b), ("edit-b", on_b)] {
            if let Some(button) = self.document.get_element_by_id(id) {
                let _ =
                    button.set_attribute("aria-pressed", if pressed { "true" } else { "false" });
            }
        }
        if let Some(form) = self.document.get_element_by_id("controls") {
            let _ = form.class_list().toggle_with_force("editing-b", on_b);
        }
    }
}

thread_local! {
    static APP: RefCell<Option<App>> = const { RefCell::new(None) };
}

fn document() -> Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("the page has a document")
}

fn show_if(element: &Element, shown: bool) {
    let _ = if shown {
        element.remove_attribute("hidden")
    } else {
        element.set_attribute("hidden", "")
    };
}

/// Entry point, called by the generated loader.
#[wasm_bindgen(start)]
pub fn start() -> Result<(), JsValue> {
    std::panic::set_hook(Box::new(show_panic));
    let document = document();
    let search = web_sys::window()
        .map(|w| w.location().search().unwrap_or_default())
        .unwrap_or_default();
    let (config, notices) = presets::open(&search);
    build_presets(&document)?;
    build_controls(&document)?;
    show_notices(&document, &notices);
    APP.with(|app| {
        *app.borrow_mut() = Some(App {
            document: document.clone(),
            origin: view::opened_preset(&config),
            key_chart: "",
            page: Page::new(config),
            sweep: None,
            frame_pending: false,
            renders: 0,
        })
    });
    listen(&document)?;
    if let Some(starting) = document.get_element_by_id("starting") {
        show_if(&starting, false);
    }
    with_app(|app| {
        app.show_all();
        open_groups(&app.document, app.origin);
    });
    sync_link();
    render();
    Ok(())
}

/// The report of a link as JSON: the same text the command line prints for
/// that link, so tests can compare the browser's numbers with native ones.
#[wasm_bindgen]
pub fn report_json(link: &str) -> String {
    report::json_for(&presets::open(link).0)
}

/// Re-simulates and redraws the current state at once, returning the time
/// it took in ms: what the in-browser benchmark measures.
#[wasm_bindgen]
pub fn redraw_now() -> f64 {
    let started = now();
    render();
    now() - started
}

/// Makes the core panic, so the end-to-end tests can check the banner a
/// panic shows; only in pages built for them (feature `test-hooks`).
#[cfg(feature = "test-hooks")]
#[wasm_bindgen]
pub fn panic_for_test() {
    panic!("panic requested by a test");
}

fn show_panic(info: &std::panic::PanicHookInfo<'_>) {
    let why = info.to_string();
    if let Some(banner) = document().get_element_by_id("panic") {
        if let Some(text) = banner.query_selector(".why").ok().flatten() {
            text.set_text_content(Some(&why));
        }
        show_if(&banner, true);
    }
    web_sys::console::error_1(&JsValue::from_str(&why));
}

fn element(document: &Document, tag: &str, class: &str) -> Result<Element, JsValue> {
    let element = document.create_element(tag)?;
    if !class.is_empty() {
        element.set_class_name(class);
    }
    Ok(element)
}

fn build_presets(document: &Document) -> Result<(), JsValue> {
    let Some(select) = document.get_element_by_id("preset") else {
        return Ok(());
    };
    for entry in view::preset_options() {
        let option = element(document, "option", "")?;
        option.set_text_content(Some(entry.title));
        option.set_attribute("value", &entry.value)?;
        if entry.disabled {
            option.set_attribute("disabled", "")?;
        }
        select.append_child(&option)?;
    }
    let change = Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| {
        let chosen = event
            .target()
            .and_then(|t| t.dyn_into::<HtmlSelectElement>().ok())
            .and_then(|s| view::chosen_preset(&s.value()));
        if let Some(preset) = chosen {
            load(preset);
        }
    });
    select.add_event_listener_with_callback("change", change.as_ref().unchecked_ref())?;
    change.forget();
    Ok(())
}

/// Replaces the whole configuration with a preset's, whose lesson then
/// stays while the learner plays.
fn load(preset: &'static Preset) {
    with_app(|app| {
        app.origin = Some(preset);
        app.page.load(preset.config());
        app.show_all();
        open_groups(&app.document, app.origin);
        show_notices(&app.document, &[]);
    });
    sync_link();
    schedule();
}

/// Replaces the configuration by one the lesson suggests; the lesson stays.
fn apply_change(change: &str) {
    with_app(|app| {
        let config = lesson::apply(app.page.config(), change);
        app.page.load(config);
        app.show_all();
        show_notices(&app.document, &[]);
    });
    sync_link();
    schedule();
}

/// Puts the groups of controls the lesson is about first and open, and
/// closes the rest.
fn open_groups(document: &Document, origin: Option<&'static Preset>) {
    let Some(form) = document.get_element_by_id("controls") else {
        return;
    };
    let open = origin.map_or(view::OWN_OPEN, |p| p.open);
    for (group, opened) in view::group_order(open) {
        if let Some(details) = document.get_element_by_id(&view::group_id(group)) {
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
fn build_controls(document: &Document) -> Result<(), JsValue> {
    let form = document
        .get_element_by_id("controls")
        .ok_or("the page lacks #controls")?;
    for group in Group::ALL {
        let details = element(document, "details", "group")?;
        details.set_id(&view::group_id(group));
        let summary = element(document, "summary", "")?;
        summary.set_text_content(Some(group.title()));
        details.append_child(&summary)?;
        let rows = element(document, "div", "rows")?;
        rows.set_attribute("role", "group")?;
        rows.set_attribute("aria-label", group.title())?;
        for (index, _) in PARAMS.iter().enumerate().filter(|(_, p)| p.group == group) {
            let row = control(document, &view::control(index))?;
            rows.append_child(&row)?;
        }
        details.append_child(&rows)?;
        form.append_child(&details)?;
    }
    Ok(())
}

/// Sets an input's `min`, `max` and `step`.
fn set_range(input: &Element, range: &view::Range) -> Result<(), JsValue> {
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
    if let Some(term) = view::control_term(control.index) {
        let tip_id = format!("tip-{}", control.row_id);
        let mark = explained(document, "term-mark", "?", term, &tip_id)?;
        mark.set_attribute("aria-label", &format!("About {}", term.name))?;
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
                option.set_text_content(Some(name));
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
fn explained(
    document: &Document,
    class: &str,
    text: &str,
    term: &Term,
    tip_id: &str,
) -> Result<Element, JsValue> {
    let span = element(document, "span", class)?;
    span.set_text_content(Some(text));
    span.set_attribute("tabindex", "0")?;
    span.set_attribute("aria-describedby", tip_id)?;
    let tip = element(document, "span", "tip")?;
    tip.set_id(tip_id);
    tip.set_attribute("role", "tooltip")?;
    tip.set_text_content(Some(term.text));
    span.append_child(&tip)?;
    Ok(span)
}

/// A label, explained when the glossary has its term.
fn label_with_term(
    document: &Document,
    text: &str,
    term: Option<&str>,
    tip_id: &str,
) -> Result<Element, JsValue> {
    match term.and_then(lesson::term) {
        Some(term) => explained(document, "term", text, term, tip_id),
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
fn show_value(document: &Document, index: usize, value: f64) {
    for role in view::roles(&PARAMS[index]) {
        set_widget(document, index, *role, value);
    }
}

/// Puts a value into parameter `index`'s widget of a role, as that role
/// shows it: a list is a `<select>`, the others are `<input>`s.
fn set_widget(document: &Document, index: usize, role: Role, value: f64) {
    let param = &PARAMS[index];
    let Some(widget) = document.get_element_by_id(&view::widget_id(param, role)) else {
        return;
    };
    let text = role.text(param, value);
    if role == Role::Choice {
        widget.unchecked_ref::<HtmlSelectElement>().set_value(&text);
    } else {
        widget.unchecked_ref::<HtmlInputElement>().set_value(&text);
    }
}

fn show_notices(document: &Document, notices: &[Notice]) {
    let Some(list) = document.get_element_by_id("notices") else {
        return;
    };
    list.set_text_content(None);
    for notice in notices {
        if let Ok(item) = document.create_element("li") {
            item.set_text_content(Some(&view::notice_line(notice)));
            let _ = list.append_child(&item);
        }
    }
    show_if(&list, !notices.is_empty());
}

fn listen(document: &Document) -> Result<(), JsValue> {
    let form = document
        .get_element_by_id("controls")
        .ok_or("the page lacks #controls")?;
    let input =
        Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| on_input(&event, false));
    form.add_event_listener_with_callback("input", input.as_ref().unchecked_ref())?;
    input.forget();
    let change =
        Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| on_input(&event, true));
    form.add_event_listener_with_callback("change", change.as_ref().unchecked_ref())?;
    change.forget();

    if let Some(button) = document.get_element_by_id("new-seed") {
        let click = Closure::<dyn FnMut()>::new(|| {
            set_param(P::Seed, view::seed_from_unit(js_sys::Math::random()));
        });
        button.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
        click.forget();
    }
    for (id, on_b) in [("edit-a", false), ("edit-b", true)] {
        if let Some(button) = document.get_element_by_id(id) {
            let click = Closure::<dyn FnMut()>::new(move || {
                with_app(|app| {
                    app.page.edit_b(on_b);
                    app.show_all();
                });
            });
            button.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
            click.forget();
        }
    }
    if let Some(button) = document.get_element_by_id("back-to-preset") {
        let click = Closure::<dyn FnMut()>::new(|| {
            if let Some(preset) = with_app(|app| app.origin).flatten() {
                load(preset);
            }
        });
        button.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
        click.forget();
    }
    if let Some(list) = document.get_element_by_id("try-this") {
        let click = Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| {
            let change = event
                .target()
                .and_then(|t| t.dyn_into::<Element>().ok())
                .and_then(|e| e.closest("button").ok().flatten())
                .filter(|b| b.get_attribute("aria-disabled").as_deref() != Some("true"))
                .and_then(|b| b.get_attribute("data-change"));
            if let Some(change) = change {
                apply_change(&change);
            }
        });
        list.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
        click.forget();
    }
    // Charts behind "More charts" are drawn once they are shown.
    if let Some(more) = document.get_element_by_id("more-charts") {
        let toggle = Closure::<dyn FnMut()>::new(schedule);
        more.add_event_listener_with_callback("toggle", toggle.as_ref().unchecked_ref())?;
        toggle.forget();
    }
    if let Some(button) = document.get_element_by_id("copy-link") {
        let click = Closure::<dyn FnMut()>::new(copy_link);
        button.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
        click.forget();
    }
    let window = web_sys::window().ok_or("no window")?;
    let redraw = Closure::<dyn FnMut()>::new(schedule);
    window.add_event_listener_with_callback("resize", redraw.as_ref().unchecked_ref())?;
    if let Ok(Some(query)) = window.match_media("(prefers-color-scheme: dark)") {
        query.add_event_listener_with_callback("change", redraw.as_ref().unchecked_ref())?;
    }
    redraw.forget();
    Ok(())
}

fn set_param(p: P, value: f64) {
    with_app(|app| {
        app.page.set(p, value);
        app.show_all();
    });
    sync_link();
    schedule();
}

/// A control moved or was typed into. `commit` is the `change` event: the
/// value is final, so a number box that was clamped shows the clamped value.
fn on_input(event: &web_sys::Event, commit: bool) {
    let Some(target) = event.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
        return;
    };
    let Some(index) = target
        .get_attribute("data-index")
        .and_then(|i| view::param_index(&i))
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
    sync_link();
    schedule();
}

fn with_app<R>(f: impl FnOnce(&mut App) -> R) -> Option<R> {
    APP.with(|app| app.borrow_mut().as_mut().map(f))
}

/// Makes the address bar the share link of the current state.
fn sync_link() {
    let Some(link) = with_app(|app| app.page.config().to_link()) else {
        return;
    };
    if let Some(window) = web_sys::window() {
        if let Ok(history) = window.history() {
            let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&format!("?{link}")));
        }
    }
}

/// Copies the link to the clipboard where the browser allows it; where it
/// does not (no clipboard outside a secure context, permission refused),
/// shows the link selected for the person to copy, and says which happened.
fn copy_link() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let href = window.location().href().unwrap_or_default();
    let navigator = window.navigator();
    // `navigator.clipboard` is undefined on a plain-http host.
    let has_clipboard = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard"))
        .is_ok_and(|c| !c.is_undefined() && !c.is_null());
    if !has_clipboard {
        show_copy_field(&href);
        return;
    }
    let copied = Closure::once_into_js(|_: JsValue| {
        let document = document();
        if let Some(field) = document.get_element_by_id("copy-field") {
            show_if(&field, false);
        }
        show_copy_status(&document, view::copy_status(true));
    });
    let refused = Closure::once_into_js(|_: JsValue| show_copy_field(&href_for_field()));
    // `then` through the promise itself: `once_into_js` closures free
    // themselves when called, where `Promise::then2` would need two kept
    // alive for ever.
    let promise: JsValue = navigator.clipboard().write_text(&href).into();
    if let Ok(then) = js_sys::Reflect::get(&promise, &JsValue::from_str("then")) {
        let _ = then
            .unchecked_into::<js_sys::Function>()
            .call2(&promise, &copied, &refused);
    }
}

/// The address to show in the copy field: read again, as the state may
/// have changed while the clipboard was asked.
fn href_for_field() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default()
}

/// Shows the link in a text field, selected, and tries the older copy
/// command on it; says truthfully whether the link was copied.
fn show_copy_field(href: &str) {
    let document = document();
    let Some(field) = document
        .get_element_by_id("copy-field")
        .and_then(|e| e.dyn_into::<HtmlInputElement>().ok())
    else {
        return;
    };
    field.set_value(href);
    show_if(&field, true);
    let _ = field.focus();
    field.select();
    let copied = document
        .dyn_ref::<web_sys::HtmlDocument>()
        .and_then(|d| d.exec_command("copy").ok())
        .unwrap_or(false);
    show_copy_status(&document, view::copy_status(copied));
}

fn show_copy_status(document: &Document, text: &str) {
    if let Some(status) = document.get_element_by_id("copy-status") {
        status.set_text_content(Some(text));
    }
}

/// Asks for one render at the next animation frame, however many events
/// arrive before it.
fn schedule() {
    let already = with_app(|app| std::mem::replace(&mut app.frame_pending, true)).unwrap_or(true);
    if already {
        return;
    }
    let Some(window) = web_sys::window() else {
        return;
    };
    let frame = Closure::once_into_js(render);
    let _ = window.request_animation_frame(frame.unchecked_ref());
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

fn render() {
    let started = now();
    let Some((config, inactive, document)) = with_app(|app| {
        app.frame_pending = false;
        app.renders += 1;
        (
            app.page.config().clone(),
            app.page.inactive(),
            app.document.clone(),
        )
    }) else {
        return;
    };
    for (param, inactive) in PARAMS.iter().zip(inactive) {
        if let Some(row) = document.get_element_by_id(&view::row_id(param)) {
            let _ = row.class_list().toggle_with_force("inactive", inactive);
        }
    }
    let lesson = view::lesson_view(with_app(|app| app.origin).flatten(), &config);
    show_lesson(&document, &lesson);
    place_charts(&document, lesson.key_chart);
    let runs = view::run(&config);
    let charts = runs.charts();
    let theme = theme();
    draw(&document, "chart-load", |area| {
        chart::draw_load(area, &charts, &runs.scenario, &theme)
    });
    draw(&document, "chart-pauses", |area| {
        chart::draw_pauses(area, &charts, &theme)
    });
    draw(&document, "chart-latency", |area| {
        chart::draw_latency(area, &charts, &theme)
    });
    draw(&document, "chart-mechanism", |area| {
        chart::draw_mechanism(area, &charts, &runs.scenario, &theme)
    });
    // Only drawn, and so only run, while its canvas is on the page.
    draw(
        &document,
        "chart-contention",
        |area| match view::contention_grid(&config) {
            Ok(grid) => chart::draw_contention(area, &grid, &theme),
            Err(why) => chart::message(area, &theme, &why),
        },
    );
    show_headlines(
        &document,
        &lesson::headlines(lesson.headline, &runs.a, runs.b.as_ref()),
    );
    show_summary(&document, &view::summary(&runs.a, runs.b.as_ref()));
    show_layers(
        &document,
        view::layers(&config, &runs.a, runs.b.as_ref()).as_deref(),
    );
    start_sweep(&config);
    if let Some(limit) = document.get_element_by_id("limit") {
        let text = view::limit_text(&runs.a, runs.b.as_ref());
        if let Some(text) = &text {
            limit.set_text_content(Some(text));
        }
        show_if(&limit, text.is_some());
    }
    // What was drawn, for tests: how many renders, of which link, when the
    // render ended and how long it took.
    if let Some(body) = document.body() {
        let renders = with_app(|app| app.renders).unwrap_or(0);
        let _ = body.set_attribute("data-renders", &renders.to_string());
        let _ = body.set_attribute("data-link", &config.to_link());
        let ended = now();
        let (drawn_at, render_ms) = view::render_times(ended, ended - started);
        let _ = body.set_attribute("data-drawn-at", &drawn_at);
        let _ = body.set_attribute("data-render-ms", &render_ms);
    }
}

/// Starts the sweep of the current state, cutting short any older one.
fn start_sweep(config: &Config) {
    match SweepJob::new(config) {
        Ok(job) => {
            with_app(|app| app.sweep = Some(job));
            schedule_sweep_step();
        }
        Err(why) => {
            with_app(|app| app.sweep = None);
            let document = document();
            let theme = theme();
            draw(&document, "chart-sweep", |area| {
                chart::message(area, &theme, why)
            });
            if let Some(body) = document.body() {
                let _ = body.set_attribute("data-swept", &config.to_link());
            }
        }
    }
}

fn schedule_sweep_step() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let step = Closure::once_into_js(sweep_step);
    let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(step.unchecked_ref(), 0);
}

/// Computes sweep points for about half a frame, draws what there is, and
/// comes back later if there is more: the page stays responsive, and a
/// newer state simply replaces the job.
fn sweep_step() {
    let started = now();
    let Some(mut job) = with_app(|app| app.sweep.take()).flatten() else {
        return;
    };
    while job.step() {
        if now() - started > 8.0 {
            break;
        }
    }
    let document = document();
    let theme = theme();
    let curves = job.curves();
    draw(&document, "chart-sweep", |area| {
        chart::draw_sweep(area, &curves, sweep::POINTS, &theme)
    });
    if job.done() {
        if let Some(body) = document.body() {
            let _ = body.set_attribute("data-swept", job.link());
        }
        return;
    }
    // Put the job back unless a newer state started its own meanwhile.
    let keep = with_app(|app| {
        if app.sweep.is_none() {
            app.sweep = Some(job);
            true
        } else {
            false
        }
    });
    if keep == Some(true) {
        schedule_sweep_step();
    }
}

/// Computes the whole sweep of the current state at once and returns the
/// time it took in ms: what the in-browser benchmark measures.
#[wasm_bindgen]
pub fn sweep_now() -> f64 {
    let Some(config) = with_app(|app| app.page.config().clone()) else {
        return 0.0;
    };
    let started = now();
    let _ = sweep::sweep(&config, sweep::POINTS);
    now() - started
}

/// Shows the lesson: the preset list, the title, the text, how far the
/// settings moved, and what to try.
fn show_lesson(document: &Document, lesson: &view::LessonView) {
    if let Some(select) = document
        .get_element_by_id("preset")
        .and_then(|e| e.dyn_into::<HtmlSelectElement>().ok())
    {
        select.set_value(&lesson.preset);
    }
    for (id, text) in [("lesson-title", lesson.title), ("lesson", lesson.text)] {
        if let Some(element) = document.get_element_by_id(id) {
            if element.text_content().as_deref() != Some(text) {
                element.set_text_content(Some(text));
            }
        }
    }
    if let Some(status) = document.get_element_by_id("lesson-status") {
        if let (Some(changed), Some(text)) = (document.get_element_by_id("changed"), &lesson.status)
        {
            changed.set_text_content(Some(text));
        }
        show_if(&status, lesson.status.is_some());
    }
    if let Some(list) = document.get_element_by_id("try-this") {
        show_try_this(document, &list, lesson);
    }
}

/// The "try this" buttons: built when the lesson changes, otherwise only
/// marked applied or not, so a button keeps the keyboard focus across
/// renders. An applied button stays focusable (`aria-disabled`, not
/// `disabled`); pressing it again changes nothing.
fn show_try_this(document: &Document, list: &Element, lesson: &view::LessonView) {
    if list.get_attribute("data-for").as_deref() != Some(lesson.preset.as_str()) {
        list.set_text_content(None);
        let _ = list.set_attribute("data-for", &lesson.preset);
        for button in &lesson.try_this {
            let Ok(element) = element(document, "button", "") else {
                return;
            };
            element.set_text_content(Some(button.label));
            let _ = element.set_attribute("type", "button");
            let _ = element.set_attribute("data-change", button.change);
            // What the button promises, for the tests that hold it to it.
            let _ = element.set_attribute("data-metric", button.expect.metric.label());
            let _ = element.set_attribute("data-side", view::side_class(button.expect.side));
            let _ = element.set_attribute(
                "data-rises",
                if button.expect.rises { "true" } else { "false" },
            );
            let _ = list.append_child(&element);
        }
    }
    let Ok(buttons) = list.query_selector_all("button") else {
        return;
    };
    for (i, button) in lesson.try_this.iter().enumerate() {
        if let Some(element) = buttons
            .get(i as u32)
            .and_then(|n| n.dyn_into::<Element>().ok())
        {
            let _ = element.set_attribute(
                "aria-disabled",
                if button.applied { "true" } else { "false" },
            );
        }
    }
    show_if(list, !lesson.try_this.is_empty());
}

/// Moves the lesson's chart to the top and the others to their places,
/// when the lesson's chart changed.
fn place_charts(document: &Document, key_chart: &'static str) {
    let moved = with_app(|app| std::mem::replace(&mut app.key_chart, key_chart) != key_chart);
    if moved != Some(true) {
        return;
    }
    let more = document.get_element_by_id("more-charts");
    for (canvas, place) in view::chart_places(key_chart) {
        let (Some(figure), Some(container)) = (
            document
                .get_element_by_id(canvas)
                .and_then(|c| c.parent_element()),
            document.get_element_by_id(place.container()),
        ) else {
            continue;
        };
        // The charts below come before "More charts", in page order.
        let _ = match (place, &more) {
            (view::Place::Below, Some(more)) => container.insert_before(&figure, Some(more)),
            _ => container.append_child(&figure),
        };
    }
}

/// Shows the numbers the lesson is about, each in its policy's colour.
fn show_headlines(document: &Document, headlines: &[Headline]) {
    let Some(list) = document.get_element_by_id("headlines") else {
        return;
    };
    list.set_text_content(None);
    for (i, headline) in headlines.iter().enumerate() {
        let (Ok(item), Ok(label), Ok(values)) = (
            element(document, "div", "headline"),
            element(document, "div", "label"),
            element(document, "div", "values"),
        ) else {
            return;
        };
        let _ = item.set_attribute("data-metric", headline.label);
        if let Ok(text) = label_with_term(
            document,
            headline.label,
            headline.term,
            &format!("tip-headline-{i}"),
        ) {
            let _ = label.append_child(&text);
        }
        let compared = headline.b.is_some();
        let sides = [
            (lesson::Side::A, Some(&headline.a)),
            (lesson::Side::B, headline.b.as_ref()),
        ];
        for (side, text) in sides {
            let Some(text) = text else { continue };
            let (Ok(value), Ok(number)) = (
                element(
                    document,
                    "span",
                    &format!("value {}", view::side_class(side)),
                ),
                element(document, "span", "number"),
            ) else {
                return;
            };
            let _ = value.set_attribute("data-side", view::side_class(side));
            if compared {
                if let Ok(name) = element(document, "span", "side") {
                    name.set_text_content(Some(view::side_name(side)));
                    let _ = value.append_child(&name);
                }
            }
            number.set_text_content(Some(text));
            let _ = value.append_child(&number);
            if headline.better == Some(side) {
                if let Ok(better) = element(document, "span", "better") {
                    better.set_text_content(Some("better"));
                    let _ = value.append_child(&better);
                }
            }
            let _ = values.append_child(&value);
        }
        let _ = item.append_child(&label);
        let _ = item.append_child(&values);
        let _ = list.append_child(&item);
    }
}

fn device_pixel_ratio() -> f64 {
    web_sys::window().map_or(1.0, |w| w.device_pixel_ratio())
}

fn theme() -> Theme {
    let dark = web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|q| q.matches());
    view::theme(dark, device_pixel_ratio())
}

/// The canvas backend with text measured by the canvas itself.
///
/// plotters' web font code sizes text by adding a span to the page and
/// reading its `offsetHeight`: a forced layout of the whole page per label.
/// `measureText` asks the canvas instead.
struct Measured {
    canvas: CanvasBackend,
    context: web_sys::CanvasRenderingContext2d,
}

type Drawn<T> = Result<T, DrawingErrorKind<<CanvasBackend as DrawingBackend>::ErrorType>>;

impl DrawingBackend for Measured {
    type ErrorType = <CanvasBackend as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.canvas.get_size()
    }
    fn ensure_prepared(&mut self) -> Drawn<()> {
        self.canvas.ensure_prepared()
    }
    fn present(&mut self) -> Drawn<()> {
        self.canvas.present()
    }
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Drawn<()> {
        self.canvas.draw_pixel(point, color)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Drawn<()> {
        self.canvas.draw_line(from, to, style)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Drawn<()> {
        self.canvas.draw_rect(upper_left, bottom_right, style, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Drawn<()> {
        self.canvas.draw_path(path, style)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Drawn<()> {
        self.canvas.draw_circle(center, radius, style, fill)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Drawn<()> {
        self.canvas.fill_polygon(vert, style)
    }
    fn draw_text<T: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &T,
        pos: BackendCoord,
    ) -> Drawn<()> {
        self.canvas.draw_text(text, style, pos)
    }
    fn estimate_text_size<T: BackendTextStyle>(&self, text: &str, style: &T) -> Drawn<(u32, u32)> {
        self.context.set_font(&view::canvas_font(
            style.style().as_str(),
            style.size(),
            style.family().as_str(),
        ));
        let width = self.context.measure_text(text).map_or(0.0, |m| m.width());
        Ok(view::text_box(width, style.size()))
    }
}

/// Whether a chart is on the page: one behind a closed "More charts" has
/// no box, and is drawn once it is shown.
fn shown(canvas: &HtmlCanvasElement) -> bool {
    canvas.client_width() > 0
}

/// Sizes a canvas to its box in device pixels, then draws on it.
fn draw(
    document: &Document,
    id: &str,
    paint: impl Fn(&DrawingArea<Measured, plotters::coord::Shift>) -> chart::DrawResult,
) {
    let Some(canvas) = document
        .get_element_by_id(id)
        .and_then(|e| e.dyn_into::<HtmlCanvasElement>().ok())
    else {
        return;
    };
    if !shown(&canvas) {
        return;
    }
    let (width, height) = view::canvas_size(
        canvas.client_width(),
        canvas.client_height(),
        device_pixel_ratio(),
    );
    if canvas.width() != width || canvas.height() != height {
        canvas.set_width(width);
        canvas.set_height(height);
    }
    let Some(context) = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
    else {
        return;
    };
    let Some(canvas) = CanvasBackend::with_canvas_object(canvas) else {
        return;
    };
    let area = Measured { canvas, context }.into_drawing_area();
    if let Err(error) = paint(&area).and_then(|()| area.present().map_err(Into::into)) {
        web_sys::console::error_1(&JsValue::from_str(&format!("drawing {id}: {error}")));
    }
}

/// Fills the layers view, or hides it when there is no chain of layers.
fn show_layers(document: &Document, lists: Option<&[view::LayerList]>) {
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
            text.set_text_content(Some(&line.text));
            let _ = item.append_child(&bar);
            let _ = item.append_child(&text);
            let _ = list.append_child(&item);
        }
        let _ = figure.append_child(&list);
    }
}

/// Fills the summary table: a heading row, then one row per number.
fn show_summary(document: &Document, summary: &view::Summary) {
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
    for heading in summary.headings {
        if let Some(th) = cell("th", heading) {
            let class = view::heading_class(heading);
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
