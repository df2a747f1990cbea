//! "Take it home": the charts as pictures, the data as files, the policy
//! as library configuration, and a pasted configuration read in. What the
//! files hold and what the lines say is decided in `view`; this copies it
//! into the DOM. Pasted text and everything derived from it reach the page
//! only as text content.
//!
//! The configurations are written and read by a module of their own
//! (`home/`), fetched the first time they are needed: the first screen
//! carries none of the fourteen formats. Once it has loaded, it answers at
//! once.

use retry_view::canvas::OnPage;
use std::cell::RefCell;

use plotters::style::RGBColor;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, HtmlCanvasElement, HtmlTextAreaElement};

use retry_core::chart_id::ChartId;
use retry_core::tf;
use retry_core::words::{self, Lang, tr};
use retry_export::Format;
use retry_view as view;
use retry_view::configuration::{Pasted, Target, across};

use crate::charts::theme;
use crate::clipboard;
use crate::share::{show_notices, sync_link};
use crate::{App, document, element, language, schedule, with_app};

/// Fills the format picker and wires every button of the section.
pub(super) fn build(document: &Document) -> Result<(), JsValue> {
    if let Some(select) = document.get_element_by_id("export-format") {
        for (key, _) in view::configuration::format_options() {
            let option = element(document, "option", "")?;
            option.set_attribute("value", key)?;
            select.append_child(&option)?;
        }
        retitle_formats(document);
        on(&select, "change", refresh_snippet)?;
    }
    if let Some(section) = document.get_element_by_id("take-home") {
        on(&section, "toggle", || {
            language::learn_take_home(Box::new(|| {
                retitle_formats(&crate::document());
                refresh_snippet();
            }));
            refresh_snippet();
        })?;
    }
    if let Some(list) = document.get_element_by_id("downloads") {
        let click = Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| {
            let Some(button) = event
                .target()
                .and_then(|t| t.dyn_into::<Element>().ok())
                .and_then(|e| e.closest("button").ok().flatten())
            else {
                return;
            };
            if let Some(chart) = button
                .get_attribute("data-picture")
                .and_then(|id| ChartId::from_canvas_id(&id))
            {
                save_picture(chart);
            } else if let Some(data) = button
                .get_attribute("data-data")
                .and_then(|key| view::downloads::Data::parse(&key))
            {
                save_data(data);
            }
        });
        list.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
        click.forget();
    }
    if let Some(button) = document.get_element_by_id("copy-snippet") {
        on(&button, "click", copy_snippet)?;
    }
    for (id, target) in [("apply-a", Target::A), ("apply-b", Target::B)] {
        if let Some(button) = document.get_element_by_id(id) {
            on(&button, "click", move || apply_paste(target))?;
        }
    }
    if let Some(select) = document.get_element_by_id("paste-layer") {
        for layer in retry_export::import::PASTE_LAYERS {
            let option = element(document, "option", "")?;
            option.set_attribute("value", &layer.to_string())?;
            option.set_text_content(Some(&layer.to_string()));
            select.append_child(&option)?;
        }
    }
    if let Some(button) = document.get_element_by_id("apply-layer") {
        on(&button, "click", || {
            let layer = crate::document()
                .get_element_by_id("paste-layer")
                .and_then(|e| e.dyn_into::<web_sys::HtmlSelectElement>().ok())
                .and_then(|select| select.value().parse().ok())
                .unwrap_or(*retry_export::import::PASTE_LAYERS.start());
            apply_paste(Target::Layer(layer));
        })?;
    }
    Ok(())
}

fn on(target: &Element, event: &str, handler: impl FnMut() + 'static) -> Result<(), JsValue> {
    let handler = Closure::<dyn FnMut()>::new(handler);
    target.add_event_listener_with_callback(event, handler.as_ref().unchecked_ref())?;
    handler.forget();
    Ok(())
}

fn set_text(document: &Document, id: &str, text: &str) {
    if let Some(element) = document.get_element_by_id(id) {
        element.set_text_content(Some(text));
    }
}

fn text_area(document: &Document, id: &str) -> Option<HtmlTextAreaElement> {
    document
        .get_element_by_id(id)
        .and_then(|e| e.dyn_into::<HtmlTextAreaElement>().ok())
}

/// Saves `href` under `name` through a link the page never shows.
fn save(document: &Document, name: &str, href: &str) {
    let Ok(link) = document.create_element("a") else {
        return;
    };
    let _ = link.set_attribute("href", href);
    let _ = link.set_attribute("download", name);
    if let Some(link) = link.dyn_ref::<web_sys::HtmlElement>() {
        link.click();
    }
    set_text(
        document,
        "download-status",
        &tf!("Saved {name}.", name = name),
    );
}

fn save_data(data: view::downloads::Data) {
    let Some(config) = with_app(|app| app.page.config().clone()) else {
        return;
    };
    let document = document();
    // The state's finished runs and sweep, when the page has them: no run
    // again.
    let file = with_app(|app| {
        let job = app
            .job
            .as_ref()
            .filter(|job| job.config().same_state(&config));
        view::downloads::data_file_from(
            &config,
            data,
            job.and_then(|job| job.runs()),
            job.and_then(|job| job.sweep().as_ref().ok()),
        )
    });
    let Some(file) = file else {
        return;
    };
    match file {
        Ok(file) => {
            let encoded = String::from(js_sys::encode_uri_component(&file.text));
            let href = format!("data:{};charset=utf-8,{encoded}", file.mime);
            save(&document, &file.name, &href);
        }
        Err(why) => set_text(&document, "download-status", why),
    }
}

/// Draws the chart with its caption, its policies and the link under it
/// on a canvas of the chart's width, and saves that as PNG.
fn save_picture(chart_id: ChartId) {
    let document = document();
    let Some(config) = with_app(|app| app.page.config().clone()) else {
        return;
    };
    let chart = || {
        document
            .get_element_by_id(chart_id.canvas_id())
            .and_then(|e| e.dyn_into::<HtmlCanvasElement>().ok())
    };
    let Some(mut canvas) = chart() else {
        return;
    };
    // A chart behind a closed "More charts" is not drawn: show it, draw.
    // One still simulating is drawn final first: the picture is of the
    // finished runs.
    let drawn = with_app(|app| {
        app.job
            .as_ref()
            .is_some_and(|job| job.config().same_state(&config) && job.is_final())
    });
    if canvas.client_width() == 0 || drawn != Some(true) {
        if let Some(more) = document.get_element_by_id("more-charts") {
            if canvas.client_width() == 0 {
                let _ = more.set_attribute("open", "");
            }
        }
        crate::finish_now();
        match chart() {
            Some(drawn) => canvas = drawn,
            None => return,
        }
    }
    let name = view::downloads::picture_name(&config, chart_id);
    let Ok(picture) = document.create_element("canvas") else {
        return;
    };
    let Ok(picture) = picture.dyn_into::<HtmlCanvasElement>() else {
        return;
    };
    let caption = canvas
        .parent_element()
        .and_then(|figure| figure.query_selector("figcaption").ok().flatten())
        .and_then(|c| c.text_content())
        .unwrap_or_default();
    let link = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    let theme = theme();
    let (font, line_height, pad) = view::downloads::picture_text(theme.scale);
    let width = canvas.width();
    let Some(context) = crate::canvas::context_2d(&picture) else {
        return;
    };
    // Lay the text out first: the canvas's height depends on it, and
    // resizing a canvas clears its drawing state.
    context.set_font(&font);
    let measure = |text: &str| context.measure_text(text).map_or(0.0, |m| m.width());
    let mut lines = Vec::new();
    // A map still computing is drawn as far as it got, and says so.
    let partial = with_app(|app| match app.job.as_ref().and_then(|job| job.map()) {
        Some(Ok(runs)) if chart_id == ChartId::Map && !runs.done() => {
            Some((runs.map().cells.len(), runs.total()))
        }
        _ => None,
    })
    .flatten();
    for line in view::downloads::picture_lines(&config, &caption, &link, partial) {
        let colour = view::downloads::picture_colour(&theme, line.side);
        for text in view::downloads::wrap(&line.text, f64::from(width) - 2.0 * pad, measure) {
            lines.push((text, colour.clone()));
        }
    }
    let text_height = 2.0 * pad + line_height * lines.len() as f64;
    picture.set_width(width);
    picture.set_height(canvas.height() + text_height.ceil() as u32);
    let RGBColor(r, g, b) = theme.background;
    context.set_fill_style_str(&format!("rgb({r}, {g}, {b})"));
    context.fill_rect(
        0.0,
        0.0,
        f64::from(picture.width()),
        f64::from(picture.height()),
    );
    let _ = context.draw_image_with_html_canvas_element(&canvas, 0.0, 0.0);
    context.set_font(&font);
    context.set_text_baseline("top");
    for (row, (text, colour)) in lines.iter().enumerate() {
        context.set_fill_style_str(colour);
        let y = f64::from(canvas.height()) + pad + line_height * row as f64;
        let _ = context.fill_text(text, pad, y);
    }
    match picture.to_data_url_with_type("image/png") {
        Ok(href) => save(&document, &name, &href),
        Err(_) => set_text(
            &document,
            "download-status",
            tr("The browser did not let the page make the picture."),
        ),
    }
}

fn chosen_format(document: &Document) -> Format {
    document
        .get_element_by_id("export-format")
        .and_then(|e| e.dyn_into::<web_sys::HtmlSelectElement>().ok())
        .and_then(|select| Format::parse(&select.value()))
        .unwrap_or(Format::Grpc)
}

/// Names each library in the format picker, in the page's language.
fn retitle_formats(document: &Document) {
    let Some(select) = document.get_element_by_id("export-format") else {
        return;
    };
    let Ok(options) = select.query_selector_all("option") else {
        return;
    };
    for (i, (_, title)) in view::configuration::format_options()
        .into_iter()
        .enumerate()
    {
        if let Some(option) = options.item(i as u32) {
            option.set_text_content(Some(title));
        }
    }
}

/// Writes the current policy in the chosen format, with its notes; only
/// while the section is open, as nobody reads it closed.
pub(super) fn show_snippet(app: &App) {
    let document = &app.document;
    let open = document
        .get_element_by_id("take-home")
        .is_some_and(|section| section.has_attribute("open"));
    if !open {
        return;
    }
    let format = chosen_format(document);
    let showing_b = app.page.showing_b();
    set_text(
        document,
        "snippet-heading",
        &view::configuration::snippet_heading(format, showing_b),
    );
    let link = app.page.config().to_link();
    with_home("snippet-status", move |home| {
        let lines = call(
            home,
            "snippet",
            &[link.into(), format.key().into(), showing_b.into()],
        );
        let Some((text, notes)) = lines.split_first() else {
            return;
        };
        let document = crate::document();
        if let Some(area) = text_area(&document, "snippet") {
            if area.value() != *text {
                area.set_value(text);
            }
        }
        if let Some(list) = document.get_element_by_id("snippet-notes") {
            list.set_text_content(None);
            for note in notes {
                if let Ok(item) = document.create_element("li") {
                    item.set_text_content(Some(note));
                    let _ = list.append_child(&item);
                }
            }
        }
    });
}

thread_local! {
    /// "Take it home"'s module (`home/`) once it has loaded.
    static HOME: RefCell<Option<JsValue>> = const { RefCell::new(None) };
}

/// Calls `then` with "Take it home"'s module: at once once it has loaded,
/// else when it has (`index.html`'s `retryPlaygroundHome` fetches it once,
/// and on a Russian page teaches it the Russian words first). If it does
/// not load, the element `status` says so, and the next call tries again.
fn with_home(status: &'static str, then: impl FnOnce(&JsValue) + 'static) {
    if let Some(home) = HOME.with(|h| h.borrow().clone()) {
        return then(&home);
    }
    let asked = web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &"retryPlaygroundHome".into()).ok())
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| {
            f.call1(&JsValue::NULL, &(words::lang() == Lang::Ru).into())
                .ok()
        })
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok());
    let Some(asked) = asked else {
        return;
    };
    // On a slow network the section says why it is still empty.
    set_text(&document(), status, tr("Loading the configurations…"));
    let loaded = Closure::once(move |home: JsValue| {
        set_text(&document(), status, "");
        if HOME.with(|h| h.replace(Some(home.clone()))).is_none() {
            // A state the tests wait for.
            if let Some(section) = document().get_element_by_id("take-home") {
                let _ = section.set_attribute("data-loaded", "");
            }
        }
        then(&home);
    });
    let failed = Closure::once(move |why: JsValue| {
        web_sys::console::warn_2(&"\"Take it home\" did not load:".into(), &why);
        set_text(
            &document(),
            status,
            tr("The configurations did not load: check the connection, then try again."),
        );
    });
    let _ = asked.then2(&loaded, &failed);
    loaded.forget();
    failed.forget();
}

/// The lines the module's function `name` answers to `args`; none, and a
/// word on the console, if it throws.
fn call(home: &JsValue, name: &str, args: &[JsValue]) -> Vec<String> {
    let answer = js_sys::Reflect::get(home, &name.into())
        .and_then(|f| f.dyn_into::<js_sys::Function>())
        .and_then(|f| f.apply(&JsValue::NULL, &args.iter().collect()));
    match answer {
        Ok(lines) => js_sys::Array::from(&lines)
            .iter()
            .filter_map(|line| line.as_string())
            .collect(),
        Err(why) => {
            web_sys::console::error_2(&format!("\"Take it home\" failed in {name}:").into(), &why);
            Vec::new()
        }
    }
}

/// Opens the section on policy B's snippet in the chosen format, and
/// brings it into view: where the search's winner is taken home.
pub(super) fn show_b_snippet() {
    let document = document();
    if let Some(section) = document.get_element_by_id("take-home") {
        let _ = section.set_attribute("open", "");
    }
    with_app(|app| {
        app.page.edit_b(true);
        app.show_all();
    });
    if let Some(heading) = document.get_element_by_id("snippet-heading") {
        heading.scroll_into_view();
    }
}

#[inline(never)]
fn refresh_snippet() {
    with_app(|app| show_snippet(app));
}

/// Copies the snippet where the browser allows it; where it does not,
/// selects it for the person to copy, and says which happened.
fn copy_snippet() {
    let Some(area) = text_area(&document(), "snippet") else {
        return;
    };
    let copied = || {
        set_text(
            &document(),
            "snippet-status",
            view::configuration::snippet_copy_status(true),
        );
    };
    clipboard::write(&area.value(), copied, select_snippet);
}

/// Selects the snippet and tries the older copy command on it.
fn select_snippet() {
    let document = document();
    let Some(area) = text_area(&document, "snippet") else {
        return;
    };
    let _ = area.focus();
    area.select();
    let copied = clipboard::copy_selection(&document);
    set_text(
        &document,
        "snippet-status",
        view::configuration::snippet_copy_status(copied),
    );
}

/// Reads the pasted text into policy A or B or a service of the chain,
/// redraws, and lists what was mapped, what was not and what was wrong.
fn apply_paste(target: Target) {
    let Some(area) = text_area(&document(), "paste") else {
        return;
    };
    let Some(link) = with_app(|app| app.page.config().to_link()) else {
        return;
    };
    let text = area.value();
    with_home("paste-status", move |home| {
        let rows = call(
            home,
            "paste",
            &[link.into(), text.into(), target.key().into()],
        );
        show_paste(target, across::pasted(&rows));
    });
}

fn show_paste(target: Target, pasted: Pasted) {
    let document = document();
    // What the team pasted is what the page writes back to it.
    if let (Some(format), Some(select)) = (
        pasted.format,
        document
            .get_element_by_id("export-format")
            .and_then(|e| e.dyn_into::<web_sys::HtmlSelectElement>().ok()),
    ) {
        select.set_value(format.key());
    }
    if let Some(config) = pasted.config {
        with_app(|app| {
            app.page.load(config);
            app.page.edit_b(target == Target::B);
            app.show_all();
            show_notices(&app.document, &[]);
        });
        sync_link();
        schedule();
    }
    set_text(&document, "paste-status", &pasted.status);
    let Some(list) = document.get_element_by_id("paste-result") else {
        return;
    };
    list.set_text_content(None);
    let groups = [
        (tr("Mapped"), "mapped", &pasted.mapped),
        (tr("Not mapped"), "not-mapped", &pasted.not_mapped),
        (tr("Default"), "default", &pasted.defaults),
        (tr("Problem"), "problem", &pasted.problems),
    ];
    for (label, class, lines) in groups {
        for line in lines {
            if let Ok(item) = element(&document, "li", class) {
                item.set_text_content(Some(&format!("{label}: {line}")));
                let _ = list.append_child(&item);
            }
        }
    }
}
