//! The search for a better policy on every core: Web Workers, as many as
//! the browser reports cores (at most 8), that run the search's own module
//! (`worker/`, built for speed), fetched and compiled once, when the search
//! first opens, and posted to each.
//!
//! The rounds stay on this thread, in a [`Dispatch`] (the library's, tested
//! natively with answers out of order): it cuts a round's runs into
//! batches, this module hands one to each idle worker, and the dispatch
//! records what comes back in the round's order, so the frontier is the
//! one a single thread (or the command line) finds. Messages both ways are
//! typed values ([`search::Batch`], [`Ran`]) through serde-wasm-bindgen. A newer
//! state, or the panel closed, terminates the workers: a stale search
//! stops at once rather than at its next batch.
//!
//! Where the page cannot start workers (a browser that refuses, or the
//! search's module did not load), the job runs the search a slice at a
//! time on this thread instead (`view::jobs`).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, MessageEvent, Worker, WorkerOptions, WorkerType};

use retry_analyses::search::{self, Dispatch, Frontier, Ran};
use retry_sim::config::Config;

use crate::now;

/// Most workers, whatever the browser reports.
const MOST_WORKERS: usize = 8;
/// How often a search still going is drawn, ms.
const DRAW_EVERY_MS: f64 = 200.0;

thread_local! {
    static POOL: RefCell<Option<Rc<RefCell<Pool>>>> = const { RefCell::new(None) };
    static POSTER: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
    /// Whether the search's module could not be loaded: then the page
    /// searches on its own thread.
    static NO_MODULE: Cell<bool> = const { Cell::new(false) };
}

/// What posts a worker the search's module once it is compiled: a
/// function that fetches and compiles the module once for every worker of
/// every search, and calls `failed` when it cannot. Made from its source
/// here rather than a snippet file of the glue's, which every first
/// screen would fetch.
const POST_SEARCH_MODULE: &str = "let compiled;
return (worker) => {
  compiled ??= fetch('./retry-playground-worker_bg.wasm')
    .then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(new Error(`${r.url}: ${r.status}`))))
    .then((bytes) => WebAssembly.compile(bytes));
  compiled.then((module) => worker.postMessage({ module }), (why) => failed(String(why)));
};";

/// Posts `worker` the search's module (see [`POST_SEARCH_MODULE`]).
fn post_search_module(worker: &Worker) -> Result<(), JsValue> {
    POSTER.with(|poster| {
        let mut poster = poster.borrow_mut();
        if poster.is_none() {
            let make = js_sys::Function::new_with_args("failed", POST_SEARCH_MODULE);
            let failed = Closure::<dyn FnMut(JsValue)>::new(no_module);
            *poster = Some(
                make.call1(&JsValue::NULL, failed.as_ref())?
                    .unchecked_into(),
            );
            // Called for as long as the page lives.
            failed.forget();
        }
        let post: &js_sys::Function = poster.as_ref().ok_or("no poster")?;
        post.call1(&JsValue::NULL, worker).map(drop)
    })
}

/// The search's module did not load: the workers go, and the page
/// searches on its own thread from the next render on.
fn no_module(why: JsValue) {
    if NO_MODULE.with(|no| no.replace(true)) {
        return;
    }
    web_sys::console::warn_2(
        &"the search's module did not load; searching on the page:".into(),
        &why,
    );
    POOL.with(|p| p.borrow_mut().take());
    crate::schedule();
}

struct Pool {
    link: String,
    /// The state searched.
    config: Config,
    dispatch: Dispatch,
    workers: Vec<Worker>,
    /// Each worker's callback, kept alive while the pool is.
    _listeners: Vec<Closure<dyn FnMut(MessageEvent)>>,
    /// The batch each worker runs.
    running: Vec<Option<usize>>,
    drawn_at: f64,
    started: f64,
}

impl Drop for Pool {
    fn drop(&mut self) {
        for worker in &self.workers {
            worker.terminate();
        }
    }
}

/// How many workers the search gets: the browser's count of cores, at
/// least one, at most [`MOST_WORKERS`].
pub(super) fn worker_count() -> usize {
    let cores = web_sys::window().map_or(1.0, |w| w.navigator().hardware_concurrency());
    (cores as usize).clamp(1, MOST_WORKERS)
}

/// Starts (or keeps) the search of `config` on the workers, or stops the
/// one going when the panel is closed (`open` false). Returns false when
/// workers could not be started, so the job searches instead.
pub(super) fn ensure(document: &Document, config: &Config, open: bool) -> bool {
    // A world the search refuses gets the refusal from the job, as the
    // command line gives it, and no workers.
    if !open || search::refusal(config).is_some() {
        POOL.with(|p| p.borrow_mut().take());
        return !open;
    }
    let same = POOL.with(|p| {
        p.borrow()
            .as_ref()
            .is_some_and(|pool| pool.borrow().config.same_state(config))
    });
    if same {
        redraw(document);
        return true;
    }
    POOL.with(|p| p.borrow_mut().take());
    if no_module_loaded() {
        return false;
    }
    match start(config, config.to_link()) {
        Ok(pool) => {
            POOL.with(|p| *p.borrow_mut() = Some(pool));
            true
        }
        Err(why) => {
            web_sys::console::warn_1(&why);
            false
        }
    }
}

/// Whether the search's module could not be loaded.
pub(super) fn no_module_loaded() -> bool {
    NO_MODULE.with(Cell::get)
}

/// Starts `count` workers of the search's module (the stress report's
/// runs too).
pub(super) fn spawn(count: usize) -> Result<Vec<Worker>, JsValue> {
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    (0..count)
        .map(|_| {
            let worker = Worker::new_with_options("./search-worker.js", &options)?;
            post_search_module(&worker)?;
            Ok(worker)
        })
        .collect()
}

fn start(config: &Config, link: String) -> Result<Rc<RefCell<Pool>>, JsValue> {
    let count = worker_count();
    let workers = spawn(count)?;
    let pool = Rc::new(RefCell::new(Pool {
        link,
        config: config.clone(),
        dispatch: Dispatch::new(config, search::WORK_BUDGET, count),
        running: vec![None; workers.len()],
        workers,
        _listeners: Vec::new(),
        drawn_at: 0.0,
        started: now(),
    }));
    let mut listeners = Vec::new();
    for index in 0..count {
        let weak = Rc::downgrade(&pool);
        let listener = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            if let Some(pool) = weak.upgrade() {
                answered(&pool, index, event.data());
            }
        });
        pool.borrow().workers[index].set_onmessage(Some(listener.as_ref().unchecked_ref()));
        listeners.push(listener);
    }
    {
        let mut p = pool.borrow_mut();
        p._listeners = listeners;
        p.hand_out()?;
    }
    Ok(pool)
}

impl Pool {
    /// Gives each idle worker the next batch.
    fn hand_out(&mut self) -> Result<(), JsValue> {
        for worker in 0..self.workers.len() {
            if self.running[worker].is_some() {
                continue;
            }
            let Some((number, batch)) = self.dispatch.hand_out() else {
                break;
            };
            let message = js_sys::Object::new();
            js_sys::Reflect::set(
                &message,
                &"batch".into(),
                &serde_wasm_bindgen::to_value(&batch)?,
            )?;
            self.workers[worker].post_message(&message)?;
            self.running[worker] = Some(number);
        }
        Ok(())
    }

    fn frontier(&self) -> Frontier {
        self.dispatch.frontier()
    }
}

/// A worker's answer: the runs of the batch it had.
fn answered(pool: &Rc<RefCell<Pool>>, worker: usize, data: JsValue) {
    let (finished, due) = {
        let mut p = pool.borrow_mut();
        let Some(batch) = p.running[worker].take() else {
            return;
        };
        let ran: Vec<Ran> = match serde_wasm_bindgen::from_value(data) {
            Ok(ran) => ran,
            Err(why) => {
                web_sys::console::error_1(&JsValue::from_str(&format!("search worker: {why}")));
                return;
            }
        };
        if let Err(why) = p.dispatch.answered(batch, ran) {
            web_sys::console::error_1(&JsValue::from_str(&format!("search worker: {why}")));
            return;
        }
        if let Err(why) = p.hand_out() {
            web_sys::console::error_1(&why);
        }
        let at = now();
        let due = p.dispatch.done() || at - p.drawn_at >= DRAW_EVERY_MS;
        if due {
            p.drawn_at = at;
        }
        (p.dispatch.done(), due)
    };
    if due {
        if let Some(document) = web_sys::window().and_then(|w| w.document()) {
            show(&document, &pool.borrow());
            if finished {
                let p = pool.borrow();
                if let Some(body) = document.body() {
                    let took = format!("{:.0}", now() - p.started);
                    let _ = body.set_attribute("data-search-ms", &took);
                    let _ = body.set_attribute("data-search-workers", &p.workers.len().to_string());
                }
            }
        }
    }
}

fn show(document: &Document, pool: &Pool) {
    crate::search_panel::show_frontier(document, &pool.frontier(), &pool.config, &pool.link);
}

/// Draws the search going on the workers again (the page was resized).
pub(super) fn redraw(document: &Document) {
    POOL.with(|p| {
        if let Some(pool) = p.borrow().as_ref() {
            show(document, &pool.borrow());
        }
    });
}

/// The search's frontier as JSON once it is done, for the tests.
#[cfg(feature = "test-hooks")]
pub(super) fn frontier_json() -> Option<String> {
    POOL.with(|p| {
        let pool = p.borrow();
        let pool = pool.as_ref()?.borrow();
        pool.dispatch.done().then(|| pool.frontier().to_json())
    })
}
