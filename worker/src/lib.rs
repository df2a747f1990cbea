//! The search's workers: a module of its own, holding only the simulator
//! and the search (and the stress report's runs), built for speed (Cargo's release profile, opt-level 3)
//! where the page's module is built for size. The page fetches and
//! compiles it once and posts it to each worker script
//! (`www/search-worker.js`), which calls `search_batch` for every batch
//! the page's [`Dispatch`](retry_analyses::search::Dispatch) hands it,
//! and `stress_run` for every run of a stress report. The
//! numbers are the same bits as the page's or the command line's: no
//! optimisation level changes a float.
//!
//! Only for wasm32: natively the search runs on threads of its own
//! (`retry_analyses::search`).

#[cfg(target_arch = "wasm32")]
mod worker {
    use std::cell::{Cell, RefCell};

    use retry_analyses::search::{Batch, BatchRunner};
    use retry_analyses::stress::{self, Item};
    use retry_sim::config::Config;
    use wasm_bindgen::prelude::*;

    /// What a worker grows its memory by before its first run: growing a
    /// WebAssembly memory changes the process's mappings, which stalls
    /// every other worker's thread of the process meanwhile, and runs that
    /// grow it bit by bit made two workers 1.2 times as fast as one; grown
    /// once, 1.56 (tests/e2e/bench.mjs). The pages are only touched as
    /// runs use them.
    const PREGROW_BYTES: usize = 64 << 20;

    thread_local! {
        /// Whether this worker's memory was grown once for all its runs.
        static PREGROWN: Cell<bool> = const { Cell::new(false) };
        /// The candidates of the search this worker was last sent.
        static RUNNER: RefCell<BatchRunner> = RefCell::new(BatchRunner::default());
    }

    /// Runs a batch of a search: the function the worker script calls for
    /// each message.
    #[wasm_bindgen]
    pub fn search_batch(batch: JsValue) -> Result<JsValue, JsValue> {
        pregrow();
        let batch: Batch = serde_wasm_bindgen::from_value(batch)?;
        let ran = RUNNER.with(|runner| runner.borrow_mut().run(&batch));
        Ok(serde_wasm_bindgen::to_value(&ran)?)
    }

    /// Runs one item of the stress report of the world `link`: its row.
    #[wasm_bindgen]
    pub fn stress_run(link: &str, item: JsValue) -> Result<JsValue, JsValue> {
        pregrow();
        let item: Item = serde_wasm_bindgen::from_value(item)?;
        let (config, _) = Config::from_link(link);
        if !stress::plan(&config).contains(&item) {
            return Err(JsValue::from_str("not a run of this world's report"));
        }
        Ok(serde_wasm_bindgen::to_value(&stress::run(&config, &item))?)
    }

    fn pregrow() {
        PREGROWN.with(|grown| {
            if !grown.replace(true) {
                drop(Vec::<u8>::with_capacity(PREGROW_BYTES));
            }
        });
    }
}
