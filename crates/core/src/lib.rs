//! The lowest layer of the retry playground: what a retry policy is made
//! of, and what every layer above speaks with.
//!
//! [`policy`] (backoff and jitter), [`budget`] (retry budgets, with
//! [`adaptive`], the AWS SDK's adaptive mode), [`breaker`] (circuit
//! breakers), [`classify`] (what may be retried), [`hint`] (a server's
//! Retry-After and a client's rules for it), [`random`] (reproducible
//! streams), [`range`] (the range of every value of a scenario, for the
//! table and the simulator alike), [`decimal`] (numbers read from text, as
//! `str::parse` reads them, lighter), [`sort`], [`chart_id`] (one identity
//! per chart) and [`words`] (messages and their languages).
//!
//! Vocabulary, used the same way in every crate:
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

pub mod adaptive;
pub mod breaker;
pub mod budget;
pub mod chart_id;
pub mod classify;
pub mod decimal;
pub mod hint;
pub mod policy;
pub mod random;
pub mod range;
pub mod sort;
mod window;
pub mod words;
