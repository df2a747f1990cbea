//! The long computations, each over many runs of the simulator and each
//! computed a slice at a time: [`sweep`] (success and load against the
//! failure rate), [`contention`] (the contention model over many seeds),
//! [`seeds`] (a number measured again on the next seeds, and when one
//! policy is better), [`map`] (where a capacity loss leaves the world
//! broken) and [`search`] (a better policy: the frontier of success
//! against calls); and beside them a quick one, [`card`]: what a policy
//! can do at worst, in closed form.
//!
//! Every path names the crate it comes from (`retry_sim::config`,
//! `retry_core::words`): no crate re-exports another's modules.

use retry_sim::config::Config;

pub mod analysis;
pub mod bounds;
pub mod card;
pub mod contention;
pub mod executor;
pub mod hops;
pub mod map;
pub mod search;
pub mod seeds;
pub mod sliced;
pub mod stress;
pub mod sweep;
pub mod warnings;

/// Every analysis, in the order the usage lists them.
pub const ANALYSES: [analysis::Analysis; 9] = [
    crate::hops::ANALYSIS,
    crate::card::ANALYSIS,
    crate::stress::ANALYSIS,
    crate::sweep::ANALYSIS,
    crate::seeds::ANALYSIS,
    crate::map::ANALYSIS,
    crate::search::ANALYSIS,
    crate::contention::ANALYSIS,
    crate::bounds::ANALYSIS,
];

/// Why an analysis that judges a fault by the goodput it takes away has
/// nothing to judge: the dependency fails every call, fault or not.
pub fn nothing_succeeds(config: &Config) -> Option<&'static str> {
    (config.get(retry_sim::config::P::Failure) >= 1.0).then(|| {
        retry_core::words::tr(
            "The dependency fails every call here, before any fault: there is no goodput for a fault to take away and win back.",
        )
    })
}
