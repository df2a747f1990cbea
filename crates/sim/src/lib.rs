//! The simulator and the configuration it runs: [`sim`] (clients, server
//! and faults in virtual time, the report and the replay's trace),
//! [`config`] (the one parameter table and the share link's codec),
//! [`simulate`] (one run of a configuration, policies A and B) and
//! [`metrics`] (the numbers of a report people read, one row each).
//!
//! The layers below are re-exported at the root under their own names, so
//! a path reads the same in every crate of the workspace.

pub use retry_core::{
    adaptive, breaker, budget, chart_id, classify, decimal, policy, random, range, sort, tf, words,
};

pub mod config;
pub mod link;
pub mod metrics;
pub mod sim;
pub mod simulate;
