//! What the page teaches: [`presets`] (scenarios that teach), [`prose`] (a
//! lesson's text filled from the settings and the runs), [`claims`] (what
//! its words may say happened, each a fact of the runs), [`lesson`] (the
//! headline numbers, the lesson that stays, the glossary) and [`course`]
//! (the chapters, their questions and the last page's rules).
//!
//! Every path names the crate it comes from (`retry_sim::config`,
//! `retry_core::words`): no crate re-exports another's modules.

pub mod claims;
pub mod course;
pub mod evidence;
pub mod exercise;
pub mod guide;
pub mod lesson;
pub mod presets;
pub mod prose;
mod sees;
pub mod trap;
