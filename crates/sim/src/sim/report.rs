//! What a run reports: a summary, series per time bucket, and histograms.
//!
//! Everything here has a fixed size chosen before the run (buckets,
//! histogram bins), so a report of ten million operations is as small as one
//! of ten.

use std::ops::{Index, IndexMut};

use retry_core::words::{self, Text};

/// Why a server call failed, as the client saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FailureKind {
    /// A 503 from a served request: retried.
    Transient,
    /// A 429: retried, after the server's Retry-After when it sends one.
    Throttled,
    /// A 503 from a full queue, without service: retried, as a 429 is.
    Rejected,
    /// No connection (an outage that fails fast): retried.
    Connection,
    /// The attempt's timeout expired before an answer came.
    Timeout,
    /// A 400: never retried.
    Permanent,
    /// A 500: retried at most once.
    Unknown,
    /// Contention: the conditional write found a newer version.
    Conflict,
}

impl FailureKind {
    pub const COUNT: usize = 8;
    /// Every kind, in the order of the report's `failed_*` fields.
    pub const ALL: [FailureKind; Self::COUNT] = [
        FailureKind::Transient,
        FailureKind::Throttled,
        FailureKind::Rejected,
        FailureKind::Connection,
        FailureKind::Timeout,
        FailureKind::Permanent,
        FailureKind::Unknown,
        FailureKind::Conflict,
    ];

    /// The name of the kind's count in reports.
    pub const fn field(self) -> &'static str {
        match self {
            FailureKind::Transient => "failed_transient",
            FailureKind::Throttled => "failed_throttled",
            FailureKind::Rejected => "failed_rejected",
            FailureKind::Connection => "failed_connection",
            FailureKind::Timeout => "failed_timeout",
            FailureKind::Permanent => "failed_permanent",
            FailureKind::Unknown => "failed_unknown",
            FailureKind::Conflict => "failed_conflict",
        }
    }
}

/// One value per [`FailureKind`], indexed by the kind. Serialized as the
/// entries `failed_transient` ... `failed_conflict`, in the order of
/// [`FailureKind::ALL`]; flattened into its parent, those are the parent's
/// fields.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PerFailure<T>(pub [T; FailureKind::COUNT]);

impl<T> PerFailure<T> {
    /// A table with `value(kind)` for every kind.
    pub fn from_fn(mut value: impl FnMut(FailureKind) -> T) -> Self {
        Self(FailureKind::ALL.map(&mut value))
    }

    /// Every kind with its value, in the order of [`FailureKind::ALL`].
    pub fn iter(&self) -> impl Iterator<Item = (FailureKind, &T)> {
        FailureKind::ALL.into_iter().zip(&self.0)
    }
}

impl<T> Index<FailureKind> for PerFailure<T> {
    type Output = T;

    fn index(&self, kind: FailureKind) -> &T {
        &self.0[kind as usize]
    }
}

impl<T> IndexMut<FailureKind> for PerFailure<T> {
    fn index_mut(&mut self, kind: FailureKind) -> &mut T {
        &mut self.0[kind as usize]
    }
}

impl<T: serde::Serialize> serde::Serialize for PerFailure<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(FailureKind::COUNT))?;
        for (kind, value) in self.iter() {
            map.serialize_entry(kind.field(), value)?;
        }
        map.end()
    }
}

/// Everything a run produced.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Report {
    pub summary: Summary,
    pub series: Series,
    /// One histogram per retry number (0 = first retry), of pauses actually
    /// taken (after Retry-After). The last one also collects all later
    /// retries. Empty when the policy has one attempt.
    pub pauses: Vec<PauseHistogram>,
    /// Latency of finished operations (successful or not), first attempt to
    /// final answer.
    pub latency: LatencyHistogram,
    /// The part of `latency` that ended in failure, in the same bins: the
    /// successful operations are the difference, bin by bin.
    pub latency_failed: LatencyHistogram,
    /// In a chain of services, per layer, how long its calls took from
    /// their start at it (its queue included) to their end, answered or
    /// not; the top's are the operations. Empty with one layer, and not in
    /// the report's JSON (`--hops` prints it).
    #[serde(skip)]
    pub layer_latency: Vec<LatencyHistogram>,
    /// In a chain, per layer, the integral over the run of how many of
    /// its calls were present at it (waiting or being served), in
    /// call-seconds: over the run's length, the mean number of calls a
    /// service holds. Little's law in its sample-path form makes it the
    /// sum of their times, `layer_latency`'s; kept apart, by the events,
    /// so a test can hold the two against each other. Empty with one
    /// layer; not in the JSON.
    #[serde(skip)]
    pub layer_presence: Vec<f64>,
}

/// The herd a rate limit's reset makes: the retries sent between its first
/// reset after it first answered 429 and the next reset, and how many of
/// them went in the busiest 100 ms (10 ms steps). Clients that honour the
/// hint exactly all come back at the reset: the busiest 100 ms holds them
/// all; positive jitter of share `j` on a hint `h` spreads them, and the
/// busiest 100 ms holds about `0.1 / (j h)` of them.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct ResetHerd {
    /// The reset, in seconds from the start.
    pub at: f64,
    pub retries: u64,
    pub busiest: u64,
}

impl ResetHerd {
    /// The share of the retries in the busiest 100 ms (0 with none).
    pub fn share(&self) -> f64 {
        if self.retries == 0 {
            0.0
        } else {
            self.busiest as f64 / self.retries as f64
        }
    }
}

/// Totals over the whole run (including the drain after the horizon).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Summary {
    /// Operations started.
    pub operations: u64,
    /// Operations that ended in success.
    pub succeeded: u64,
    /// Ended on an error that must not be retried (permanent, or a second
    /// unknown 5xx).
    pub not_retryable: u64,
    /// Ended because every attempt was used.
    pub out_of_attempts: u64,
    /// Ended because the retry budget refused a retry.
    pub budget_exhausted: u64,
    /// Ended because the circuit breaker refused an attempt, first try or
    /// retry (a refused call one layer down is a failure its caller may
    /// retry, as a refused retry is).
    pub breaker_open: u64,
    /// Ended because the deadline left no time for another attempt.
    pub deadline_exceeded: u64,
    /// Still open when the run ended (hung forever, or the work limit hit).
    pub unfinished: u64,
    /// `succeeded / operations` (1 when there were none).
    pub success_rate: f64,
    /// Attempts made by layer 0 (the user's client) per operation.
    pub attempts_per_operation: f64,
    /// Calls reaching the server (the last layer's attempts) per operation.
    pub server_calls_per_operation: f64,
    /// Operations whose layer 0 made more than one attempt.
    pub retried_operations: u64,
    /// `retried_operations / operations`.
    pub retried_share: f64,
    /// Attempts per layer; index 0 is the user's client. The last entry is
    /// the server's load and equals `first_tries + retries`.
    pub attempts_by_layer: Vec<u64>,
    /// Server calls that were first tries of their (sub)operation.
    pub first_tries: u64,
    /// Server calls that were retries.
    pub retries: u64,
    /// Server calls answered with success.
    pub successes: u64,
    /// Server calls that failed, by kind as the client saw them: the
    /// fields `failed_transient` ... `failed_conflict`.
    #[serde(flatten)]
    pub failed: PerFailure<u64>,
    /// Server calls with no outcome when the run ended.
    pub unfinished_attempts: u64,
    /// Retries refused by a budget (every layer).
    pub budget_refusals: u64,
    /// AWS adaptive mode: sends its rate limiter held back, and for how
    /// long in all (seconds). Absent from the JSON when none was, so the
    /// reports of every other budget read as before.
    #[serde(skip_serializing_if = "is_zero")]
    pub paced_sends: u64,
    #[serde(skip_serializing_if = "is_nothing")]
    pub paced_seconds: f64,
    /// Attempts refused by a circuit breaker (every layer). A refused
    /// attempt is no attempt: it is in neither `attempts_by_layer` nor the
    /// server's calls. With one layer this equals `breaker_open`.
    pub breaker_refusals: u64,
    /// Times a breaker opened (every layer), counting re-openings after a
    /// failed probe.
    pub breaker_trips: u64,
    /// The round trips to the server before the breaker calling it first
    /// opened: inside the retry loop a threshold of 5 failures takes 5,
    /// around it 5 operations of all their attempts. Absent from the JSON
    /// where it never opened.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub breaker_opened_after: Option<u64>,
    /// With several client instances (`instances`), how many saw their own
    /// breaker open at least once, and how many had their own budget refuse
    /// an attempt: the spread across instances a total hides. Absent from
    /// the JSON with one instance.
    #[serde(skip_serializing_if = "is_zero")]
    pub instances_tripped: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub instances_refusing: u64,
    /// Requests the server's load shedding turned away: refused on
    /// arrival or answered 503 after waiting too long (both also counted
    /// as `failed_rejected`), or dropped because their caller had gone.
    /// Absent from the JSON when none was.
    #[serde(skip_serializing_if = "is_zero")]
    pub shed: u64,
    /// Times the server executed an operation's action.
    pub executions: u64,
    /// Executions beyond the first of the same operation (no idempotency key).
    pub duplicates: u64,
    /// Executions the idempotency key turned into a replay of the first.
    pub deduplicated: u64,
    pub latency_mean: f64,
    pub latency_p50: f64,
    pub latency_p90: f64,
    pub latency_p99: f64,
    pub latency_max: f64,
    /// Seconds of service the server performed.
    pub server_work: f64,
    /// Service whose answer nobody used (client gone or response lost).
    pub wasted_work: f64,
    /// With timeouts between services (`call_timeout`), the attempts per
    /// layer made for a caller that had given up on the call they serve
    /// (or whose own caller had): work nobody waits for. Empty, and absent
    /// from the JSON, when there was none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub orphaned_attempts_by_layer: Vec<u64>,
    /// Seconds of service whose answer reached a service waiting for it on
    /// behalf of a caller that had given up; apart from `wasted_work`,
    /// whose answer reached nobody.
    #[serde(skip_serializing_if = "is_nothing")]
    pub orphaned_work: f64,
    /// With workers of their own at the services below the top
    /// (`l2_workers` …), the calls per layer that found every worker busy
    /// and the queue full, answered 503 at once. Empty, and absent from
    /// the JSON, when there was none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refused_by_layer: Vec<u64>,
    /// With a rate limit that answered 429: its first reset after the
    /// first 429, and the retries sent from it to the next reset. Absent
    /// from the JSON otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reset_herd: Option<ResetHerd>,
    /// Successful operations per second over the horizon.
    pub goodput: f64,
    /// When the last operation ended.
    pub finished_at: f64,
    /// From the last operation's start (the end of arrivals) to `finished_at`.
    pub drain_time: f64,
    /// The run stopped early, at one of its bounds (`cut` says which). At
    /// the work limit: at an instant when operations share the queue; after
    /// the last operation it finished when they run one at a time (see
    /// `sim::world`). A report of a run still going is `truncated` with no
    /// `cut` ([`Summary::in_progress`]).
    pub truncated: bool,
    /// How far the run got. When it ran to completion, its end: the later
    /// of `finished_at` and the horizon. When `truncated`, the instant a
    /// bound stopped it: from there on the series lack work that was
    /// never simulated, and a chart must not read their counts as zero load.
    pub simulated_until: f64,
    /// Events processed (a measure of the run's cost).
    pub events: u64,
    /// Largest number of pending events at once (a measure of its memory;
    /// a handful when operations run one at a time, see `sim::world`, where
    /// the next arrival waits outside the queue and is not counted).
    pub peak_events: u64,
    /// Most calls (operations and their calls through the layers) plus
    /// requests at the server alive at once: with `peak_events`, what the
    /// run's memory follows.
    pub peak_calls: u64,
    /// What the run's events cost, in units of an event whose run fits the
    /// caches: the measure its bound on time limits (see `sim::world`,
    /// "Bounds").
    pub cost: u64,
    /// Why and when the run stopped early, when `truncated`.
    pub cut: Option<Cut>,
}

fn is_zero(count: &u64) -> bool {
    *count == 0
}

fn is_nothing(seconds: &f64) -> bool {
    *seconds == 0.0
}

impl Summary {
    /// Whether this is the report of a run still going (`sim::Run::so_far`):
    /// `truncated`, as it stopped before its end, but at no bound.
    pub fn in_progress(&self) -> bool {
        self.truncated && self.cut.is_none()
    }
}

/// Why a run stopped before its work was done.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CutReason {
    /// Operations plus server attempts reached `work_limit`.
    Work,
    /// The events handled, weighted by what they cost, reached the run's
    /// share of time (see `sim::world`, "Bounds").
    Time,
    /// More calls and events in flight than a browser tab should hold.
    Memory,
}

impl CutReason {
    /// What a person reads of it, with its numbers' places.
    fn template(self) -> Text {
        match self {
            CutReason::Work => Text("more than {limit} operations and attempts by t = {at} s"),
            CutReason::Time => {
                Text("{events} events by t = {at} s, about as much computing as a run may take")
            }
            CutReason::Memory => Text(
                "more than {calls} requests in flight at t = {at} s: the server is drowning, \
                 which is itself the lesson",
            ),
        }
    }
}

/// Where a run was cut short, and why, in words a person can act on. The
/// simulator keeps the reason and its numbers; the words are made where
/// they are read ([`Cut::words`]), so a report is the same whatever
/// language the thread that ran it spoke.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Cut {
    pub reason: CutReason,
    /// How far the run got: its `simulated_until`.
    pub at: f64,
    /// In English, whatever the page's language: the report is the same
    /// in every language.
    pub message: String,
    /// The numbers the words name: the run's work limit, the events it
    /// handled, and the calls in flight.
    #[serde(skip)]
    pub numbers: [u64; 3],
}

impl Cut {
    /// Cut for `reason` at `at`, with the run's work limit, its events and
    /// its calls in flight.
    pub fn new(reason: CutReason, at: f64, numbers: [u64; 3]) -> Cut {
        Cut {
            reason,
            at,
            message: Cut::fill(reason, at, numbers, true),
            numbers,
        }
    }

    /// The words of `reason`, in English or in the reader's language.
    fn fill(reason: CutReason, at: f64, [limit, events, calls]: [u64; 3], english: bool) -> String {
        let time = format!("{at:.2}");
        let values: [(&str, &dyn std::fmt::Display); 4] = [
            ("limit", &limit),
            ("events", &events),
            ("calls", &calls),
            ("at", &time),
        ];
        let template = reason.template();
        if english {
            words::fill_english(template.english(), &values)
        } else {
            words::fill(template.get(), &values)
        }
    }

    /// The message in the reader's language, made now.
    pub fn words(&self) -> String {
        Cut::fill(self.reason, self.at, self.numbers, false)
    }
}

/// Per-bucket series over `[0, horizon]`: bucket `i` covers
/// `[i * width, (i + 1) * width)`. Counts are by the time the thing happened:
/// attempts when sent, outcomes when the client learnt them.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Series {
    pub width: f64,
    /// Server calls that were first tries.
    pub first_tries: Vec<u64>,
    /// Server calls that were retries.
    pub retries: Vec<u64>,
    /// Server calls answered with success.
    pub successes: Vec<u64>,
    /// Server calls that failed, by kind: the fields `failed_transient` ...
    /// `failed_conflict`.
    #[serde(flatten)]
    pub failed: PerFailure<Vec<u64>>,
    /// Retries refused by a budget.
    pub budget_refusals: Vec<u64>,
    /// Attempts refused by a circuit breaker (every layer).
    pub breaker_refusals: Vec<u64>,
    /// Share of the bucket's time (0 to 1) during which the breaker of the
    /// last layer, the one calling the server, was open (half-open not
    /// included). In a bucket at 1 it sent nothing it breaks: with mode
    /// `All` no attempt at all, with `RetriesOnly` no retry.
    pub breaker_open: Vec<f64>,
    /// Operations that ended in success (goodput per bucket).
    pub operations_succeeded: Vec<u64>,
    /// Operations that ended in failure.
    pub operations_failed: Vec<u64>,
    /// Time-averaged requests in service at the server.
    pub in_flight: Vec<f64>,
    /// Time-averaged requests waiting for a worker.
    pub queue: Vec<f64>,
    /// Requests per second the server can complete (`workers / mean service
    /// time`), 0 during an outage, `f64::INFINITY` when workers are unlimited.
    pub capacity: Vec<f64>,
    /// The retry budget's balance at the end of each bucket, for the
    /// budgets that keep one (gRPC's token bucket, the AWS SDK's retry
    /// quota), of the layer that calls the server; empty for the others.
    pub budget_level: Vec<f64>,
    /// Executions of an action beyond the first of its operation (see
    /// `Summary::duplicates`), by when the server ran them: the charts'
    /// view of duplicates over time. Not in the JSON, whose fields are
    /// pinned and which already carries the total.
    #[serde(skip)]
    pub duplicates: Vec<u64>,
    /// Requests the server shed (see `Summary::shed`), by when. Not in the
    /// JSON, as `duplicates`.
    #[serde(skip)]
    pub shed: Vec<u64>,
    /// With a chain of layers, per layer (the top first), the calls it
    /// made, and those it made for a caller that had already given up
    /// (`Summary::orphaned_attempts_by_layer`), by when they left; empty
    /// without a chain. Not in the JSON, as `duplicates`.
    #[serde(skip)]
    pub layer_calls: Vec<Vec<u64>>,
    #[serde(skip)]
    pub layer_orphaned: Vec<Vec<u64>>,
}

impl Series {
    pub(crate) fn new(buckets: usize, width: f64) -> Self {
        let counts = || vec![0u64; buckets];
        Self {
            width,
            first_tries: counts(),
            retries: counts(),
            successes: counts(),
            failed: PerFailure::from_fn(|_| counts()),
            budget_refusals: counts(),
            breaker_refusals: counts(),
            breaker_open: vec![0.0; buckets],
            operations_succeeded: counts(),
            operations_failed: counts(),
            in_flight: vec![0.0; buckets],
            queue: vec![0.0; buckets],
            capacity: vec![0.0; buckets],
            budget_level: Vec::new(),
            duplicates: counts(),
            shed: counts(),
            layer_calls: Vec::new(),
            layer_orphaned: Vec::new(),
        }
    }

    /// Number of buckets.
    pub fn len(&self) -> usize {
        self.first_tries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.first_tries.is_empty()
    }

    /// Failures of every kind in bucket `i`.
    pub fn failures(&self, i: usize) -> u64 {
        self.failed.0.iter().map(|column| column[i]).sum()
    }

    /// The run's highest load on the server while it was up, as a multiple
    /// of what the server serves a second outside an outage; 0 for a server
    /// without a limit. What is sent while the server is down is refused
    /// at once, and the load chart draws it as an outline, not as load
    /// taken.
    pub fn peak_over_capacity(&self) -> f64 {
        let capacity = self
            .capacity
            .iter()
            .copied()
            .filter(|c| c.is_finite())
            .fold(0.0, f64::max);
        if capacity <= 0.0 || self.width <= 0.0 {
            return 0.0;
        }
        let peak = (0..self.len())
            .filter(|&i| self.capacity[i] > 0.0)
            .map(|i| self.first_tries[i] + self.retries[i])
            .max()
            .unwrap_or(0);
        peak as f64 / self.width / capacity
    }

    /// Operations that succeeded a second over `[from, to)` seconds, from
    /// the buckets wholly inside it (0 when none is).
    pub fn goodput(&self, from: f64, to: f64) -> f64 {
        let buckets = (0..self.len()).filter(|&i| {
            let start = i as f64 * self.width;
            start >= from - 1e-9 && start + self.width <= to + 1e-9
        });
        let (mut sum, mut seconds) = (0, 0.0);
        for i in buckets {
            sum += self.operations_succeeded[i];
            seconds += self.width;
        }
        if seconds > 0.0 {
            sum as f64 / seconds
        } else {
            0.0
        }
    }
}

/// Pauses taken before one retry number, in equal-width bins from 0.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PauseHistogram {
    /// 0-based retry number (the last histogram also holds later retries).
    pub retry: u32,
    /// Bin `i` covers `[i * width, (i + 1) * width)`.
    pub width: f64,
    pub counts: Vec<u64>,
    /// Pauses beyond the last bin (long Retry-After).
    pub over: u64,
    /// Pauses taken.
    pub taken: u64,
    pub mean: f64,
    pub max: f64,
}

/// Bins of each pause histogram.
pub const PAUSE_BINS: usize = 40;
/// Retry numbers with their own pause histogram.
pub const PAUSE_HISTOGRAMS: u32 = 16;

/// Log-bucketed histogram of durations: 32 bins per doubling from about 1 us
/// to about 97 days, so any quantile is within 1.6 % of the true value,
/// from a fixed 1.4 k counters however many values went in.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LatencyHistogram {
    pub counts: Vec<u64>,
    pub total: u64,
    pub sum: f64,
    pub min: f64,
    pub max: f64,
}

const SUB_BITS: u32 = 5;
const SUB: i64 = 1 << SUB_BITS;
const MIN_EXPONENT: i64 = -20;
const MAX_EXPONENT: i64 = 22;
const LATENCY_BINS: usize = ((MAX_EXPONENT - MIN_EXPONENT + 1) * SUB) as usize + 1;

impl LatencyHistogram {
    pub(crate) fn new() -> Self {
        Self {
            counts: vec![0; LATENCY_BINS],
            total: 0,
            sum: 0.0,
            min: f64::INFINITY,
            max: 0.0,
        }
    }

    /// Bin of `value`: bin 0 holds everything below `2^-20` s; the exponent
    /// and the top mantissa bits pick the others, exactly and portably.
    fn bin(value: f64) -> usize {
        // NaN lands in bin 0 too.
        if value.is_nan() || value < f64::powi(2.0, MIN_EXPONENT as i32) {
            return 0;
        }
        let bits = value.to_bits();
        let exponent = ((bits >> 52) & 0x7ff) as i64 - 1023;
        if exponent > MAX_EXPONENT {
            return LATENCY_BINS - 1;
        }
        let sub = ((bits >> (52 - SUB_BITS)) & (SUB as u64 - 1)) as i64;
        (1 + (exponent - MIN_EXPONENT) * SUB + sub) as usize
    }

    /// `[low, high)` of bin `i`.
    pub fn bin_range(i: usize) -> (f64, f64) {
        if i == 0 {
            return (0.0, f64::powi(2.0, MIN_EXPONENT as i32));
        }
        let i = i as i64 - 1;
        let exponent = MIN_EXPONENT + i / SUB;
        let sub = i % SUB;
        let scale = f64::powi(2.0, exponent as i32);
        let step = scale / SUB as f64;
        (scale + sub as f64 * step, scale + (sub + 1) as f64 * step)
    }

    pub(crate) fn record(&mut self, value: f64) {
        // Compares rather than `f64::max`/`min`, which spend instructions on
        // NaN; a NaN value counts as 0 either way.
        let value = if value > 0.0 { value } else { 0.0 };
        self.counts[Self::bin(value)] += 1;
        self.total += 1;
        self.sum += value;
        if value < self.min {
            self.min = value;
        }
        if value > self.max {
            self.max = value;
        }
    }

    /// The `q` quantile (`0..=1`): the middle of the bin holding it, kept
    /// within the observed minimum and maximum. 0 when empty.
    pub fn quantile(&self, q: f64) -> f64 {
        let [value] = self.quantiles([q]);
        value
    }

    /// The quantiles `qs`, in increasing order, each as [`quantile`]
    /// gives it, in one walk over the bins from the minimum's (none below
    /// holds a value): a small run's report costs a few bins, not the
    /// whole range three times.
    ///
    /// [`quantile`]: LatencyHistogram::quantile
    pub fn quantiles<const N: usize>(&self, qs: [f64; N]) -> [f64; N] {
        debug_assert!(qs.is_sorted(), "quantiles in increasing order");
        if self.total == 0 {
            return [0.0; N];
        }
        let ranks = qs.map(|q| {
            let q = if q.is_nan() { 0.5 } else { q.clamp(0.0, 1.0) };
            ((q * self.total as f64).ceil() as u64).clamp(1, self.total)
        });
        // Bins first, values after: a value computed in the walk is a
        // `powi` per bin, as the compiler hoists it out of the rare branch.
        let mut bins = [None; N];
        let mut next = 0;
        let first = Self::bin(self.min).min(self.counts.len());
        let mut seen = 0;
        for (i, count) in self.counts.iter().enumerate().skip(first) {
            seen += count;
            while next < N && seen >= ranks[next] {
                bins[next] = Some(i);
                next += 1;
            }
            if next == N {
                break;
            }
        }
        bins.map(|bin| {
            bin.map_or(self.max, |i| {
                let (low, high) = Self::bin_range(i);
                ((low + high) / 2.0).clamp(self.min, self.max)
            })
        })
    }

    pub fn mean(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            self.sum / self.total as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latency_bins_are_contiguous_and_contain_their_values() {
        for i in 1..LATENCY_BINS - 1 {
            let (low, high) = LatencyHistogram::bin_range(i);
            assert_eq!(high, LatencyHistogram::bin_range(i + 1).0, "bin {i}");
            assert_eq!(LatencyHistogram::bin(low), i);
            assert!(high / low - 1.0 <= 1.0 / 32.0 + 1e-12);
        }
    }

    #[test]
    fn quantiles_within_bin_precision() {
        let mut histogram = LatencyHistogram::new();
        for i in 1..=10_000 {
            histogram.record(f64::from(i) * 0.001);
        }
        for (q, exact) in [(0.5, 5.0), (0.9, 9.0), (0.99, 9.9)] {
            let got = histogram.quantile(q);
            assert!((got / exact - 1.0).abs() < 1.0 / 64.0 + 1e-3, "q{q}: {got}");
        }
        assert_eq!(histogram.quantile(1.0), 10.0);
        assert_eq!(histogram.max, 10.0);
    }

    /// The walk that starts at the minimum's bin and serves several
    /// quantiles at once finds what a walk from bin 0 finds for each.
    #[test]
    fn quantiles_in_one_walk_match_a_walk_from_the_first_bin() {
        let from_first_bin = |histogram: &LatencyHistogram, q: f64| {
            let rank = ((q * histogram.total as f64).ceil() as u64).clamp(1, histogram.total);
            let mut seen = 0;
            for (i, count) in histogram.counts.iter().enumerate() {
                seen += count;
                if seen >= rank {
                    let (low, high) = LatencyHistogram::bin_range(i);
                    return ((low + high) / 2.0).clamp(histogram.min, histogram.max);
                }
            }
            histogram.max
        };
        let mut stream = retry_core::random::Stream::new(3, 0);
        for (low, spread, values) in [
            (0.0, 1e-3, 5),
            (2.0, 0.5, 1),
            (0.3, 40.0, 700),
            (9e5, 1e6, 30),
        ] {
            let mut histogram = LatencyHistogram::new();
            for _ in 0..values {
                histogram.record(low + spread * stream.uniform());
            }
            let qs = [0.0, 0.1, 0.5, 0.9, 0.99, 1.0];
            let want = qs.map(|q| from_first_bin(&histogram, q));
            assert_eq!(histogram.quantiles(qs), want, "from {low}");
            assert_eq!(qs.map(|q| histogram.quantile(q)), want, "from {low}");
        }
        assert_eq!(LatencyHistogram::new().quantiles([0.5, 0.9]), [0.0; 2]);
    }
}
