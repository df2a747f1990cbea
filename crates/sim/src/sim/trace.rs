//! A trace of a run for its replay: what happened to a few operations,
//! attempt by attempt, recorded by the very simulation behind the report.
//!
//! Tracing is opt-in: [`run_traced`](super::run_traced) runs the general world with a
//! `Tracer` attached, and [`super::run`] never attaches one, so a run
//! without a replay pays nothing (natively it even runs on the plain world,
//! which has no hooks at all). The trace only reads what the run does: it
//! draws from no stream the run uses, so the report of a traced run is the
//! report of the same scenario run plainly, bit for bit.
//!
//! ## Which operations
//!
//! Operation `n` (the `n`-th to start) is in the sample when a draw of its
//! own, from a stream of the seed kept for the trace, falls below
//! `SAMPLED / expected operations`; the first [`SAMPLED`] such operations
//! are kept. The draw depends on the seed and `n` only, so the sample is
//! the same natively and in the page, and the same for policies A and B,
//! which meet the same operations. A crowd of at most [`SAMPLED`] clients
//! is traced whole.
//!
//! ## Memory
//!
//! At most [`SAMPLED`] operations of at most [`RECORDED_ATTEMPTS`] attempts
//! each (more are counted, not recorded): [`Trace::bytes`] stays below
//! [`MAX_TRACE_BYTES`], 370 KB natively (less in the page, whose pointers
//! are half as wide), however long the run. While running,
//! the tracer also maps each slot of the run's frame and request slabs to
//! its operation: 4 bytes a slot, beside the 64 and 40 bytes the run itself
//! holds per slot, so it follows the work in flight as the run does.

use super::report::FailureKind;
use retry_core::random::Stream;

/// Most operations a trace follows.
pub const SAMPLED: usize = 200;
/// Most attempts recorded per operation; [`TracedOperation::attempts`]
/// counts all of them.
pub const RECORDED_ATTEMPTS: usize = 32;
/// What a trace holds at most: every operation with every attempt recorded.
pub const MAX_TRACE_BYTES: usize = std::mem::size_of::<Trace>()
    + SAMPLED
        * (std::mem::size_of::<TracedOperation>()
            + RECORDED_ATTEMPTS * std::mem::size_of::<TracedAttempt>());

// The bound the module's docs state.
const _: () = assert!(MAX_TRACE_BYTES < 400_000);

/// Salt of the seed of the sample's draws, so they are none of the run's.
const TRACE_STREAMS: u64 = 0x5452_4143_455F_5345;
/// A slot of a slab that belongs to no traced operation.
const UNTRACED: u32 = u32::MAX;

/// How an operation (or a call one layer down) ended: what the client
/// decides, the tally counts and the replay's trace shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    Succeeded,
    /// Its last error may not be retried (a 400, a second 500).
    NotRetryable,
    OutOfAttempts,
    /// The retry budget refused a retry.
    BudgetExhausted,
    DeadlineExceeded,
    /// The layer's circuit breaker refused an attempt.
    BreakerOpen,
}

impl Ending {
    /// How many endings there are: the tally keeps a count of each.
    pub(crate) const COUNT: usize = 6;
}

/// What the client learnt of one attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing yet when the run stopped (or a call one layer up ended first).
    Pending,
    Succeeded,
    /// A failure of this kind: an error answer, a timeout
    /// ([`FailureKind::Timeout`]), a full queue ([`FailureKind::Rejected`]),
    /// the outage's refusal ([`FailureKind::Connection`]).
    Failed(FailureKind),
}

/// One attempt of a traced operation, as it reached the server (the call of
/// the last layer). Times in seconds; `f64::INFINITY` for what never
/// happened.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TracedAttempt {
    pub sent: f64,
    /// Reached the server (a contended row's read, for contention).
    pub arrived: f64,
    /// A worker took it: `service_start - arrived` is its wait in the queue.
    pub service_start: f64,
    pub service_end: f64,
    /// The client learnt the outcome: its answer came, or its timeout ran out.
    pub answered: f64,
    pub outcome: Outcome,
    /// The pause before the next attempt, if there was one.
    pub pause: f64,
    /// A hedged copy: sent beside the calls before it, not after them.
    pub copy: bool,
    /// Sent by a service of a chain for a caller that had already given
    /// up on it (as `Summary::orphaned_attempts_by_layer` counts them).
    pub for_nobody: bool,
}

/// One traced operation.
#[derive(Debug, Clone, PartialEq)]
pub struct TracedOperation {
    /// Its number: the `n`-th operation of the run to start.
    pub number: u64,
    pub start: f64,
    /// `f64::INFINITY` if unfinished when the run stopped.
    pub end: f64,
    /// `None` if unfinished.
    pub ending: Option<Ending>,
    /// Server calls made for it (every layer's retries multiply them).
    pub attempts: u32,
    /// Its first [`RECORDED_ATTEMPTS`] server calls.
    pub recorded: Vec<TracedAttempt>,
}

/// The sampled operations of a run, in the order they started.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Trace {
    pub operations: Vec<TracedOperation>,
}

impl Trace {
    /// Bytes the trace holds: at most [`MAX_TRACE_BYTES`].
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<Self>()
            + self.operations.capacity() * std::mem::size_of::<TracedOperation>()
            + self
                .operations
                .iter()
                .map(|o| o.recorded.capacity() * std::mem::size_of::<TracedAttempt>())
                .sum::<usize>()
    }
}

/// Records the trace while a run goes; the world calls it where an
/// operation starts and ends and where an attempt is sent, reaches the
/// server, is served, answered and followed by a pause.
#[derive(Debug)]
pub(crate) struct Tracer {
    seed: u64,
    share: f64,
    trace: Trace,
    /// Per slot of the frames' slab: the traced operation of its root.
    by_root: Vec<u32>,
    /// Per slot of the requests' slab: operation and attempt, packed.
    by_request: Vec<u32>,
    /// The copy the next answer of a hedged operation is for (its root and
    /// the copy's number): copies answer in any order, not the latest
    /// first.
    answering: Option<(u32, u32)>,
}

fn set(map: &mut Vec<u32>, slot: u32, value: u32) {
    let slot = slot as usize;
    if slot >= map.len() {
        if value == UNTRACED {
            return;
        }
        map.resize(slot + 1, UNTRACED);
    }
    map[slot] = value;
}

fn get(map: &[u32], slot: u32) -> u32 {
    map.get(slot as usize).copied().unwrap_or(UNTRACED)
}

impl Tracer {
    pub fn new(seed: u64, expected_operations: f64) -> Self {
        Self {
            seed: seed ^ TRACE_STREAMS,
            share: SAMPLED as f64 / expected_operations.max(1.0),
            trace: Trace::default(),
            by_root: Vec::new(),
            by_request: Vec::new(),
            answering: None,
        }
    }

    pub fn finish(self) -> Trace {
        self.trace
    }

    fn attempt(&mut self, packed: u32) -> Option<&mut TracedAttempt> {
        if packed == UNTRACED {
            return None;
        }
        let (operation, attempt) = (packed >> 16, packed & 0xFFFF);
        self.trace.operations[operation as usize]
            .recorded
            .get_mut(attempt as usize)
    }

    /// The last recorded attempt of the operation whose root is `root`, if
    /// it is traced and that attempt is its latest.
    fn latest(&mut self, root: u32) -> Option<&mut TracedAttempt> {
        let operation = get(&self.by_root, root);
        let operation = self.trace.operations.get_mut(operation as usize)?;
        if operation.attempts as usize > operation.recorded.len() {
            return None;
        }
        operation.recorded.last_mut()
    }

    /// Operation number `number` starts at `now` in root slot `root`.
    pub fn started(&mut self, root: u32, number: u64, now: f64) {
        let operations = &mut self.trace.operations;
        let sampled = operations.len() < SAMPLED
            && (self.share >= 1.0 || Stream::new(self.seed, number).uniform() < self.share);
        let index = if sampled {
            operations.push(TracedOperation {
                number,
                start: now,
                end: f64::INFINITY,
                ending: None,
                attempts: 0,
                recorded: Vec::new(),
            });
            (operations.len() - 1) as u32
        } else {
            UNTRACED
        };
        set(&mut self.by_root, root, index);
    }

    /// An attempt of the operation in `root` is sent at `start`, as request
    /// `request` (`None`: contention's read, which takes no request slot).
    pub fn sent(&mut self, root: u32, request: Option<u32>, start: f64, for_nobody: bool) {
        let index = get(&self.by_root, root);
        let mut packed = UNTRACED;
        if let Some(operation) = self.trace.operations.get_mut(index as usize) {
            operation.attempts += 1;
            if operation.recorded.len() < RECORDED_ATTEMPTS {
                packed = index << 16 | operation.recorded.len() as u32;
                operation.recorded.push(TracedAttempt {
                    sent: start,
                    arrived: f64::INFINITY,
                    service_start: f64::INFINITY,
                    service_end: f64::INFINITY,
                    answered: f64::INFINITY,
                    outcome: Outcome::Pending,
                    pause: f64::INFINITY,
                    copy: false,
                    for_nobody,
                });
            }
        }
        if let Some(request) = request {
            set(&mut self.by_request, request, packed);
        }
    }

    /// Contention's read reaches the row.
    pub fn read_arrived(&mut self, root: u32, now: f64) {
        if let Some(attempt) = self.latest(root) {
            attempt.arrived = now;
        }
    }

    pub fn arrived(&mut self, request: u32, now: f64) {
        let packed = get(&self.by_request, request);
        if let Some(attempt) = self.attempt(packed) {
            attempt.arrived = now;
        }
    }

    pub fn served(&mut self, request: u32, start: f64, end: f64) {
        let packed = get(&self.by_request, request);
        if let Some(attempt) = self.attempt(packed) {
            attempt.service_start = start;
            attempt.service_end = end;
        }
    }

    /// The latest attempt of the operation in `root` is a hedged copy.
    pub fn copied(&mut self, root: u32) {
        if let Some(attempt) = self.latest(root) {
            attempt.copy = true;
        }
    }

    /// The next answer of the hedged operation in `root` is its copy
    /// number `copy` (from 0, the first call)'s.
    pub fn answering(&mut self, root: u32, copy: u32) {
        self.answering = Some((root, copy));
    }

    /// The client of the operation in `root` learnt its attempt's outcome:
    /// its latest's, or a hedged copy's ([`Tracer::answering`]).
    pub fn answered(&mut self, root: u32, now: f64, failure: Option<FailureKind>) {
        let attempt = match self.answering.take() {
            Some((of, copy)) if of == root => {
                let operation = get(&self.by_root, root) as usize;
                self.trace
                    .operations
                    .get_mut(operation)
                    .and_then(|o| o.recorded.get_mut(copy as usize))
            }
            _ => self.latest(root),
        };
        if let Some(attempt) = attempt {
            attempt.answered = now;
            attempt.outcome = match failure {
                None => Outcome::Succeeded,
                Some(kind) => Outcome::Failed(kind),
            };
        }
    }

    pub fn paused(&mut self, root: u32, pause: f64) {
        if let Some(attempt) = self.latest(root) {
            attempt.pause = pause;
        }
    }

    pub fn ended(&mut self, root: u32, now: f64, ending: Ending) {
        let index = get(&self.by_root, root);
        if let Some(operation) = self.trace.operations.get_mut(index as usize) {
            operation.end = now;
            operation.ending = Some(ending);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::sim::{self, Report, Scenario};

    fn scenario(link: &str) -> Scenario {
        let (config, notices) = Config::from_link(link);
        assert!(notices.is_empty(), "{link}: {notices:?}");
        let mut scenario = config.scenario();
        scenario.work_limit = crate::simulate::WORK_LIMIT;
        scenario
    }

    /// What the sampled operations did, summed, against the report.
    fn sums(trace: &Trace) -> (u64, u64, [u64; 6]) {
        let mut endings = [0u64; 6];
        let mut attempts = 0;
        let mut succeeded = 0;
        for operation in &trace.operations {
            attempts += u64::from(operation.attempts);
            if let Some(ending) = operation.ending {
                endings[ending as usize] += 1;
                succeeded += u64::from(ending == Ending::Succeeded);
            }
        }
        (attempts, succeeded, endings)
    }

    fn endings_of(report: &Report) -> [u64; 6] {
        let s = &report.summary;
        [
            s.succeeded,
            s.not_retryable,
            s.out_of_attempts,
            s.budget_exhausted,
            s.deadline_exceeded,
            s.breaker_open,
        ]
    }

    /// A crowd small enough to be traced whole: the trace's accounting is
    /// the run's, operation for operation, for worlds with a queue, a
    /// budget, a breaker, layers and contention.
    #[test]
    fn a_crowd_traced_whole_adds_up_to_the_report() {
        let crowd = "v=1&workload=crowd&clients=150&horizon=20&outage_at=0&outage_for=2";
        let links = [
            format!("{crowd}&workers=10&queue=20&jitter=none&timeout=0.5"),
            format!("{crowd}&workers=0&failure=0.5&budget=token-bucket"),
            format!("{crowd}&workers=5&queue=5&breaker=all&failure=0.3"),
            format!("{crowd}&workers=0&failure=0.4&layers=2&attempts=3"),
            "v=1&attempts=50&base=0.01&cap=2&workload=contention&clients=50&horizon=10&hop=normal&hop_mean=0.01".to_string(),
        ];
        for link in &links {
            let (report, trace) = sim::run_traced(&scenario(link));
            let s = &report.summary;
            assert_eq!(trace.operations.len() as u64, s.operations, "{link}");
            let (attempts, succeeded, endings) = sums(&trace);
            assert_eq!(attempts, s.first_tries + s.retries, "{link}");
            assert_eq!(succeeded, s.succeeded, "{link}");
            assert_eq!(endings, endings_of(&report), "{link}");
            for operation in &trace.operations {
                let recorded = &operation.recorded;
                assert_eq!(
                    operation.attempts as usize,
                    recorded.len().min(RECORDED_ATTEMPTS)
                );
                let last = recorded.last().map(|a| a.outcome);
                if operation.ending == Some(Ending::Succeeded) {
                    assert_eq!(last, Some(Outcome::Succeeded), "{link}");
                }
                for pair in recorded.windows(2) {
                    // The next attempt goes after the pause that followed
                    // the previous one's answer (or, when the call one layer
                    // down gave up, after the pause of the layer above).
                    let pause = if pair[0].pause.is_finite() {
                        pair[0].pause
                    } else {
                        0.0
                    };
                    assert!(pair[1].sent >= pair[0].answered + pause - 1e-9, "{link}");
                }
                for a in recorded {
                    assert!(a.sent <= a.arrived || a.arrived.is_infinite(), "{link}");
                    if a.service_start.is_finite() {
                        assert!(a.arrived <= a.service_start && a.service_start <= a.service_end);
                    }
                }
            }
        }
    }

    /// A run up to the page's work limit (three million operations and
    /// attempts) keeps its trace within the bound.
    #[test]
    fn the_trace_stays_small_on_a_run_at_the_work_limit() {
        let s = scenario(
            "v=1&rate=1000&horizon=150&failure=0.97&workers=0&timeout=0&attempts=40&base=0.001&cap=0.01",
        );
        let (report, trace) = sim::run_traced(&s);
        assert!(report.summary.truncated, "the run reached the limit");
        // The sample's share assumed the whole horizon; the limit cut it.
        assert!(
            trace.operations.len() > SAMPLED / 2,
            "{}",
            trace.operations.len()
        );
        assert!(
            trace
                .operations
                .iter()
                .any(|o| o.attempts as usize > RECORDED_ATTEMPTS)
        );
        assert!(trace.bytes() <= MAX_TRACE_BYTES, "{} bytes", trace.bytes());
    }
}
