//! "Take it home"'s module: the policy written as a library's
//! configuration, and a pasted configuration read in. The page fetches it
//! the first time the section opens (`page/src/take_home.rs`), so the
//! first screen carries none of the fourteen formats, their readers and
//! their words. The two share no memory: the state crosses as its link,
//! the answers come back as lines of text
//! (`retry_view::configuration::across`, tested natively).
//!
//! Only for wasm32: natively the command line calls the same functions.

#[cfg(target_arch = "wasm32")]
mod home {
    use retry_core::words;
    use retry_view::configuration::across;
    use wasm_bindgen::prelude::*;

    /// Learns a compiled table of Russian words (`www/ru.words`, then
    /// `www/ru-take-home.words`) and speaks Russian from then on.
    #[wasm_bindgen]
    pub fn speak_russian(compiled: &str) -> Result<(), String> {
        words::speak_russian(compiled)
    }

    /// The snippet of the state at `link` in the format keyed `format`:
    /// its text, then its notes.
    #[wasm_bindgen]
    pub fn snippet(link: &str, format: &str, showing_b: bool) -> Vec<String> {
        across::snippet(link, format, showing_b)
    }

    /// `text` pasted into `target` (`a`, `b` or a layer) of the state at
    /// `link`: rows `kind<TAB>text`.
    #[wasm_bindgen]
    pub fn paste(link: &str, text: &str, target: &str) -> Vec<String> {
        across::paste(link, text, target)
    }
}
