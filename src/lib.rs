//! A playground for retry policies: the workspace's crates under one name,
//! for the command line, the examples and the tests. The vocabulary every
//! crate shares (operation, attempt, pause, deadline, timeout, retry
//! budget, circuit breaker, goodput, load) is `retry_core`'s.
//!
//! By crate, lowest first (each depends only on those before it):
//! `retry_core` ([`policy`], [`budget`], [`breaker`], [`classify`],
//! [`random`], [`range`], [`decimal`], [`words`]), `retry_sim` ([`sim`],
//! [`config`], [`simulate`], [`metrics`]), `retry_analyses` ([`sweep`],
//! [`card`], [`contention`], [`seeds`], [`map`], [`search`], [`sliced`],
//! [`stress`]),
//! `retry_teach` ([`presets`], [`prose`], [`claims`], [`lesson`],
//! [`course`]), `retry_draw` ([`chart`]), `retry_export` ([`export`]) and
//! `retry_view` ([`view`]: what the page shows, decided without a browser).
//! The browser is the page crate's (`page/`): it only copies what `view`
//! decided into the page, and every crate here, pure, is tested natively.

pub use retry_analyses::{
    ANALYSES, Analysis, card, contention, map, search, seeds, sliced, stress, sweep,
};
pub use retry_core::{
    adaptive, breaker, budget, chart_id, classify, decimal, policy, random, range, sort, tf, words,
};
pub use retry_draw as chart;
pub use retry_export as export;
pub use retry_sim::{config, metrics, sim, simulate};
pub use retry_teach::{claims, course, lesson, presets, prose};
pub use retry_view as view;
