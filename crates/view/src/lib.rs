//! What the page shows, decided without a browser.
//!
//! Every choice of what to write on the page lives here, as plain data:
//! the controls built from the parameter table, the numbers a slider
//! stands for, the state behind the controls (which policy they edit),
//! the summary table, the calls per layer, the lesson, the notices, the
//! sweep being computed, the files and the configuration people take
//! home. The page crate (`page/`) only copies these into the DOM and wires
//! events back, so all of it is tested natively.
//!
//! Every path names the crate it comes from (`retry_sim::config`,
//! `retry_core::words`): no crate re-exports another's modules.

pub mod api;
pub mod before;
pub mod canvas;
pub mod configuration;
pub mod controls;
pub mod course;
pub mod downloads;
pub mod driver;
pub mod embed;
#[cfg(test)]
mod fixtures;
pub mod jobs;
pub mod lesson;
pub mod notices;
pub mod page;
pub mod player;
pub mod qr;
pub mod replay;
pub mod search;
pub mod summary;
pub mod yours;

/// The key a keyboard shortcut reads from a key press: the key's letter on
/// a Latin layout (its `code`, `KeyN`), whatever layout the reader types
/// on, so `n` goes on from a Russian keyboard too, where the key says
/// «т»; the key itself (`key`) for every other key.
pub fn shortcut<'a>(key: &'a str, code: &str) -> &'a str {
    match code {
        "KeyN" => "n",
        "KeyP" => "p",
        "KeyF" => "f",
        "KeyK" => "k",
        "Comma" => ",",
        "Period" => ".",
        _ => key,
    }
}

#[cfg(test)]
mod tests {
    use super::{controls::*, summary::*};
    use crate::fixtures::config;
    use retry_sim::config::{Group, P, PARAMS};
    use retry_sim::simulate;
    use retry_teach::lesson;

    #[test]
    fn every_explained_label_names_a_glossary_entry() {
        let (a, _) = simulate::run_both(&config("v=1&rate=5&horizon=2"));
        for row in summary(&a, None).rows {
            if let Some(key) = row.term {
                assert!(lesson::term(key).is_some(), "{}: {key}", row.label);
            }
        }
        assert_eq!(
            control_term(P::Jitter as usize).map(|t| t.key),
            Some("jitter")
        );
        assert_eq!(control_term(P::Rate as usize).map(|t| t.key), None);
        assert_eq!(control_term(PARAMS.len()).map(|t| t.key), None);
        assert_eq!(group_id(Group::Budget), "group-budget");
        // A Russian layout's letters keep their shortcuts.
        assert_eq!(super::shortcut("т", "KeyN"), "n");
        assert_eq!(super::shortcut("б", "Comma"), ",");
        assert_eq!(super::shortcut("ArrowRight", "ArrowRight"), "ArrowRight");
        assert_eq!(
            [
                heading_class("A"),
                heading_class("B"),
                heading_class("B - A")
            ],
            ["side-a", "side-b", ""]
        );
    }
}
