//! The simulator and the configuration it runs: [`sim`] (clients, server
//! and faults in virtual time, the report and the replay's trace),
//! [`config`] (the one parameter table and the share link's codec),
//! [`simulate`] (one run of a configuration, policies A and B) and
//! [`metrics`] (the numbers of a report people read, one row each).
//!
//! Every path names the crate it comes from (`retry_sim::config`,
//! `retry_core::words`): no crate re-exports another's modules.

pub mod config;
pub mod link;
pub mod metrics;
pub mod sim;
pub mod simulate;
