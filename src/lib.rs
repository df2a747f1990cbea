//! A playground for retry policies.
//!
//! Vocabulary, used the same way in every module:
//!
//! - an **operation** is what a user asked for; an **attempt** is one call
//!   made for it; `attempts` counts the first call, so it yields
//!   `attempts - 1` **pauses** before the retries;
//! - the **deadline** is the time budget of the whole operation, the
//!   **timeout** that of one attempt;
//! - a **retry budget** limits retries across operations; a **circuit
//!   breaker** refuses attempts while most recent ones failed;
//! - **goodput** is the rate of successful operations, **load** the rate of
//!   attempts reaching the server.
//!
//! Modules: [`policy`] (backoff and jitter), [`budget`] (retry budgets),
//! [`range`] (the range of every value of a scenario, for the table and
//! the simulator alike),
//! [`breaker`] (circuit breakers), [`classify`] (what may be retried),
//! [`random`] (reproducible streams), [`sim`] (clients, server and faults in
//! virtual time), [`config`] (the one parameter table and the share-link
//! codec), [`presets`] (scenarios that teach), [`prose`] (a lesson's text
//! filled from the settings and the runs), [`claims`] (what its words may
//! say happened, each a fact of the runs), [`metrics`] (the numbers of
//! a report people read, one row each), [`seeds`] (a number measured
//! again on the next seeds, and when one policy is better), [`lesson`]
//! (the headline numbers, the lesson that stays, the glossary), [`simulate`] (one run of a
//! configuration, policies A and B), [`sweep`] (success and load
//! against the failure rate), [`map`] (where a capacity loss leaves the
//! world broken), [`search`] (find a better policy: the frontier of success
//! against calls), [`contention`] (the contention model over
//! many seeds), [`decimal`] (numbers read from text, as `str::parse` reads
//! them, lighter), [`export`] (the policy as real library configuration, and
//! back), [`chart`] (drawing, generic over plotters' backends), [`view`]
//! (what the page shows: controls, summary, layers, lesson, notices,
//! downloads, the replay's scene). The browser is the page crate's
//! (`page/`): it only copies what `view` decided into the page, and this
//! library, pure, is tested natively.

pub use retry_analyses::{ANALYSES, Analysis, contention, map, search, seeds, sliced, sweep};
pub use retry_core::{
    adaptive, breaker, budget, chart_id, classify, decimal, policy, random, range, sort, tf, words,
};
pub use retry_draw as chart;
pub use retry_export as export;
pub use retry_sim::{config, metrics, sim, simulate};
pub use retry_teach::{claims, course, lesson, presets, prose};
pub use retry_view as view;
