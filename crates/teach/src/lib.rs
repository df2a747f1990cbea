//! What the page teaches: [`presets`] (scenarios that teach), [`prose`] (a
//! lesson's text filled from the settings and the runs), [`claims`] (what
//! its words may say happened, each a fact of the runs), [`lesson`] (the
//! headline numbers, the lesson that stays, the glossary) and [`course`]
//! (the chapters, their questions and the last page's rules).
//!
//! The layers below are re-exported at the root under their own names, so
//! a path reads the same in every crate of the workspace.

pub use retry_analyses::{contention, map, search, seeds, sliced, sweep};
pub use retry_core::{
    adaptive, breaker, budget, chart_id, classify, decimal, policy, random, range, sort, tf, words,
};
pub use retry_sim::{config, link, metrics, sim, simulate};

pub mod claims;
pub mod course;
pub mod evidence;
pub mod exercise;
pub mod guide;
pub mod lesson;
pub mod presets;
pub mod prose;
pub mod trap;
