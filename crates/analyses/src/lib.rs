//! The long computations, each over many runs of the simulator and each
//! computed a slice at a time: [`sweep`] (success and load against the
//! failure rate), [`contention`] (the contention model over many seeds),
//! [`seeds`] (a number measured again on the next seeds, and when one
//! policy is better), [`map`] (where a capacity loss leaves the world
//! broken) and [`search`] (a better policy: the frontier of success
//! against calls).
//!
//! The layers below are re-exported at the root under their own names, so
//! a path reads the same in every crate of the workspace.

pub use retry_core::{
    adaptive, breaker, budget, chart_id, classify, decimal, policy, random, range, sort, tf, words,
};
pub use retry_sim::{config, metrics, sim, simulate};

pub mod contention;
pub mod map;
pub mod search;
pub mod seeds;
pub mod sweep;
