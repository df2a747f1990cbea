//! The stress report in its panel: the world run through the standard
//! faults (`retry_analyses::stress`) on the search's workers, a run per
//! row, the table filled as rows come; each row a button that opens its
//! fault's world (the key chart one click away), and once all are in, the
//! report as a Markdown file and a link that opens it.
//!
//! Each row is a run of its own with its own seeds, so the order in which
//! the workers answer changes nothing: the rows are the command line's
//! `--stress` for the same link, bit for bit. A newer state, or the panel
//! closed, terminates the workers.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, MessageEvent, Worker};

use retry_analyses::executor::Handout;
use retry_analyses::stress::{self, Item, Row, Stress, Who};
use retry_core::tf;
use retry_core::words::tr;
use retry_sim::config::Config;

use crate::{element, language};

/// The panel's id, and the fragment of a link that opens it.
const PANEL: &str = "stress";

thread_local! {
    static RUN: RefCell<Option<Rc<RefCell<Stressing>>>> = const { RefCell::new(None) };
}

/// A report on its way: the plan and the rows so far (which worker runs
/// what, and where its row goes: `retry_analyses::executor::Handout`),
/// the workers.
struct Stressing {
    config: Config,
    link: String,
    handout: Handout<Item, Row>,
    workers: Vec<Worker>,
    /// Each worker's callback, kept alive while the run is.
    _listeners: Vec<Closure<dyn FnMut(MessageEvent)>>,
}

impl Drop for Stressing {
    fn drop(&mut self) {
        for worker in &self.workers {
            worker.terminate();
        }
    }
}

impl Stressing {
    /// Gives each idle worker the next item.
    fn hand_out(&mut self) -> Result<(), JsValue> {
        for worker in 0..self.workers.len() {
            let Some(item) = self.handout.next_for(worker) else {
                continue;
            };
            let message = js_sys::Object::new();
            js_sys::Reflect::set(&message, &"link".into(), &self.link.as_str().into())?;
            js_sys::Reflect::set(
                &message,
                &"item".into(),
                &serde_wasm_bindgen::to_value(item)?,
            )?;
            self.workers[worker].post_message(&message)?;
        }
        Ok(())
    }

    fn done(&self) -> bool {
        self.handout.answers().is_complete()
    }

    fn plan(&self) -> &[Item] {
        self.handout.plan()
    }

    /// The rows in the plan's order, those still running none.
    fn rows(&self) -> &[Option<Row>] {
        self.handout.answers().slots()
    }

    /// The rows in, as a report.
    fn report(&self) -> Stress {
        Stress {
            rows: self.rows().iter().flatten().cloned().collect(),
        }
    }
}

/// Whether the panel is open: only then does the page run the report.
fn open(document: &Document) -> bool {
    document
        .get_element_by_id(PANEL)
        .is_some_and(|panel| panel.has_attribute("open"))
}

/// Opens the panel when the link's fragment names it (`#stress`).
pub(super) fn open_if_linked(document: &Document) {
    let hash = web_sys::window().and_then(|w| w.location().hash().ok());
    if hash.as_deref() == Some(&format!("#{PANEL}")) {
        if let Some(panel) = document.get_element_by_id(PANEL) {
            let _ = panel.set_attribute("open", "");
        }
    }
}

/// Starts (or keeps) the report of `config` while the panel is open, and
/// stops the one going when it is closed. A row's fault shown keeps the
/// report: it is the same.
pub(super) fn ensure(document: &Document, config: &Config) {
    if !open(document) {
        RUN.with(|r| r.borrow_mut().take());
        return;
    }
    let same = RUN.with(|r| {
        r.borrow()
            .as_ref()
            .is_some_and(|run| stress::same_report(&run.borrow().config, config))
    });
    if same && !crate::search_workers::no_module_loaded() {
        return;
    }
    RUN.with(|r| r.borrow_mut().take());
    let link = config.to_link();
    let plan = match stress::refusal(config) {
        Some(why) => return show_message(document, why),
        None => stress::plan(config),
    };
    if crate::search_workers::no_module_loaded() {
        return show_message(
            document,
            tr("The stress report runs on workers, and their module did not load."),
        );
    }
    match start(config, link, plan) {
        Ok(run) => {
            show(document, &run.borrow());
            RUN.with(|r| *r.borrow_mut() = Some(run));
        }
        Err(why) => {
            web_sys::console::warn_1(&why);
            show_message(
                document,
                tr("The stress report runs on workers, and this browser did not start them."),
            );
        }
    }
}

fn start(
    config: &Config,
    link: String,
    plan: Vec<Item>,
) -> Result<Rc<RefCell<Stressing>>, JsValue> {
    let count = crate::search_workers::worker_count().min(plan.len());
    let workers = crate::search_workers::spawn(count)?;
    let run = Rc::new(RefCell::new(Stressing {
        config: config.clone(),
        link,
        handout: Handout::new(plan, workers.len()),
        workers,
        _listeners: Vec::new(),
    }));
    let listeners: Vec<_> = (0..count)
        .map(|index| {
            let weak = Rc::downgrade(&run);
            let listener = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                if let Some(run) = weak.upgrade() {
                    answered(&run, index, event.data());
                }
            });
            run.borrow().workers[index].set_onmessage(Some(listener.as_ref().unchecked_ref()));
            listener
        })
        .collect();
    {
        let mut r = run.borrow_mut();
        r._listeners = listeners;
        r.hand_out()?;
    }
    Ok(run)
}

/// A worker's answer: the row of the item it had.
fn answered(run: &Rc<RefCell<Stressing>>, worker: usize, data: JsValue) {
    {
        let mut r = run.borrow_mut();
        let kept = serde_wasm_bindgen::from_value::<Row>(data)
            .map_err(|why| why.to_string())
            .and_then(|row| {
                r.handout
                    .answered(worker, row, |item, row| row.item() == *item)
            });
        if let Err(why) = kept {
            web_sys::console::error_1(&JsValue::from_str(&format!("stress worker: {why}")));
        }
        if let Err(why) = r.hand_out() {
            web_sys::console::error_1(&why);
        }
    }
    if let Some(document) = web_sys::window().and_then(|w| w.document()) {
        show(&document, &run.borrow());
    }
}

/// The panel without a table: why there is no report.
fn show_message(document: &Document, why: &str) {
    set_text(document, "stress-status", why);
    if let Some(table) = document.get_element_by_id("stress-table") {
        table.set_text_content(None);
    }
    for id in ["stress-markdown", "stress-link"] {
        if let Some(link) = document.get_element_by_id(id) {
            let _ = link.set_attribute("hidden", "");
        }
    }
}

fn set_text(document: &Document, id: &str, text: &str) {
    if let Some(element) = document.get_element_by_id(id) {
        element.set_text_content(Some(text));
    }
}

/// The table as far as the rows came, how far that is, and once all are
/// in, the Markdown file and the link.
fn show(document: &Document, run: &Stressing) {
    let Some(table) = document.get_element_by_id("stress-table") else {
        return;
    };
    if let Err(why) = fill_table(document, &table, run) {
        web_sys::console::error_1(&why);
    }
    if let Err(why) = fill_verdicts(document, run) {
        web_sys::console::error_1(&why);
    }
    let done = run.handout.answers().filled();
    let status = if run.done() {
        tf!(
            "{n} rows, each a fault alone in this world, run with it and without it.",
            n = run.plan().len()
        )
    } else {
        tf!(
            "Running the faults: {done} of {n}\u{2026}",
            done = done,
            n = run.plan().len()
        )
    };
    set_text(document, "stress-status", &status);
    let shown_link = language::carried(&run.link);
    for id in ["stress-markdown", "stress-link"] {
        let Some(link) = document.get_element_by_id(id) else {
            continue;
        };
        if !run.done() {
            let _ = link.set_attribute("hidden", "");
            continue;
        }
        let href = if id == "stress-link" {
            format!("?{shown_link}#{PANEL}")
        } else {
            let markdown = run.report().to_markdown(&run.config, &shown_link);
            let encoded = String::from(js_sys::encode_uri_component(&markdown));
            format!("data:text/markdown;charset=utf-8,{encoded}")
        };
        let _ = link.set_attribute("href", &href);
        let _ = link.remove_attribute("hidden");
    }
    if let (Some(body), true) = (document.body(), run.done()) {
        let _ = body.set_attribute("data-stressed", &shown_link);
    }
}

/// The rows as text content (nothing from a link becomes markup); a row
/// still running shows its names and an ellipsis.
fn fill_table(document: &Document, table: &Element, run: &Stressing) -> Result<(), JsValue> {
    table.set_text_content(None);
    let head = element(document, "tr", "")?;
    for heading in stress::headings() {
        let th = element(document, "th", "")?;
        th.set_attribute("scope", "col")?;
        th.set_text_content(Some(heading));
        head.append_child(&th)?;
    }
    let last = element(document, "th", "")?;
    head.append_child(&last)?;
    let thead = element(document, "thead", "")?;
    thead.append_child(&head)?;
    table.append_child(&thead)?;
    let body = element(document, "tbody", "")?;
    for (item, row) in run.plan().iter().zip(run.rows()) {
        let tr_ = element(document, "tr", "")?;
        let measures = match row {
            Some(row) => row.measures().to_vec(),
            None => vec!["\u{2026}".to_string(); 5],
        };
        let verdict = row.as_ref().map(|row| row.outcome);
        let headings = stress::headings();
        let cells = item.names().into_iter().chain(measures);
        for (column, (heading, text)) in headings.iter().zip(cells).enumerate() {
            let td = element(document, "td", "")?;
            td.set_text_content(Some(&text));
            // A phone shows a row as a card, each cell under its heading.
            td.set_attribute("data-label", heading)?;
            if column == headings.len() - 1 {
                if let Some(outcome) = verdict {
                    td.set_attribute("data-outcome", outcome.key())?;
                }
            }
            tr_.append_child(&td)?;
        }
        let td = element(document, "td", "")?;
        if let Some(change) = item.fault.change(&run.config, item.instances) {
            let button = element(document, "button", "")?;
            button.set_attribute("type", "button")?;
            button.set_attribute("data-change", &change)?;
            button.set_text_content(Some(tr("Show this fault")));
            td.append_child(&button)?;
        }
        tr_.append_child(&td)?;
        body.append_child(&tr_)?;
    }
    table.append_child(&body)?;
    Ok(())
}

/// Once every row is in, each policy's verdict on each fault with its
/// reasons, as text (nothing from a link becomes markup).
fn fill_verdicts(document: &Document, run: &Stressing) -> Result<(), JsValue> {
    let Some(list) = document.get_element_by_id("stress-verdicts") else {
        return Ok(());
    };
    list.set_text_content(None);
    if !run.done() {
        return list.set_attribute("hidden", "");
    }
    let report = run.report();
    for warning in stress::warnings(&run.config) {
        let item = element(document, "li", "")?;
        item.set_attribute("data-warning", "")?;
        item.set_text_content(Some(&warning));
        list.append_child(&item)?;
    }
    for row in report.rows.iter().filter(|row| row.who != Who::NoRetries) {
        let (safe, reasons) = report.reasons(row);
        let item = element(document, "li", "")?;
        let head = element(document, "strong", "")?;
        let [fault, _, who] = row.item().names();
        head.set_text_content(Some(&format!(
            "{fault}, {}, {who}: {}.",
            tf!(
                "{instances} {instances|client instance|client instances}",
                instances = row.instances
            ),
            if safe { tr("safe") } else { tr("not safe") }
        )));
        item.set_attribute("data-safe", if safe { "yes" } else { "no" })?;
        item.append_child(&head)?;
        let why = element(document, "span", "")?;
        why.set_text_content(Some(&format!(" {}", reasons.join(" "))));
        item.append_child(&why)?;
        list.append_child(&item)?;
    }
    list.remove_attribute("hidden")
}

/// A row's button opens its fault's world.
pub(super) fn listen(document: &Document) -> Result<(), JsValue> {
    match document.get_element_by_id("stress-table") {
        Some(table) => crate::lesson_area::apply_on_click(&table),
        None => Ok(()),
    }
}
