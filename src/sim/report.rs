//! What a run reports: a summary, series per time bucket, and histograms.
//!
//! Everything here has a fixed size chosen before the run (buckets,
//! histogram bins), so a report of ten million operations is as small as one
//! of ten.

use std::ops::{Index, IndexMut};

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
    /// Attempts refused by a circuit breaker (every layer). A refused
    /// attempt is no attempt: it is in neither `attempts_by_layer` nor the
    /// server's calls. With one layer this equals `breaker_open`.
    pub breaker_refusals: u64,
    /// Times a breaker opened (every layer), counting re-openings after a
    /// failed probe.
    pub breaker_trips: u64,
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
    /// Successful operations per second over the horizon.
    pub goodput: f64,
    /// When the last operation ended.
    pub finished_at: f64,
    /// From the last operation's start (the end of arrivals) to `finished_at`.
    pub drain_time: f64,
    /// The run hit `work_limit` and stopped early: at an instant when
    /// operations share the queue; after the last operation it finished
    /// when they run one at a time (see `sim::world`).
    pub truncated: bool,
    /// Events processed (a measure of the run's cost).
    pub events: u64,
    /// Largest number of pending events at once (a measure of its memory;
    /// a handful when operations run one at a time, see `sim::world`, where
    /// the next arrival waits outside the queue and is not counted).
    pub peak_events: u64,
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
}

impl Series {
    fn new(buckets: usize, width: f64) -> Self {
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
    fn new() -> Self {
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

    fn record(&mut self, value: f64) {
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
        if self.total == 0 {
            return 0.0;
        }
        let q = if q.is_nan() { 0.5 } else { q.clamp(0.0, 1.0) };
        let rank = ((q * self.total as f64).ceil() as u64).clamp(1, self.total);
        let mut seen = 0;
        for (i, count) in self.counts.iter().enumerate() {
            seen += count;
            if seen >= rank {
                let (low, high) = Self::bin_range(i);
                return ((low + high) / 2.0).clamp(self.min, self.max);
            }
        }
        self.max
    }

    pub fn mean(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            self.sum / self.total as f64
        }
    }
}

/// What a span of `Recorder::occupied` counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Level {
    InFlight,
    Queue,
}

/// Accumulates a run's report as events happen.
#[derive(Debug)]
pub(crate) struct Recorder {
    pub series: Series,
    pub failures: PerFailure<u64>,
    pub first_tries: u64,
    pub retries: u64,
    pub successes: u64,
    pub budget_refusals: u64,
    pub breaker_refusals: u64,
    pub latency: LatencyHistogram,
    pause_histograms: Vec<PauseHistogram>,
    pause_sums: Vec<f64>,
    /// Bins per second of pause (`1 / width`: a multiply is cheaper than a
    /// divide), and the top of the range with a hair of slack.
    pause_bins_per_second: f64,
    pause_top: f64,
    horizon: f64,
    /// About `1 / series.width`: the bucket of a time is `time *
    /// inverse_width` rounded down (a multiply is cheaper than a divide).
    /// Nudged down, if need be, so that every time below the horizon falls
    /// in a bucket of the series (the product grows with time), and the
    /// hot paths need no clamp.
    inverse_width: f64,
    /// Index of the series' last bucket.
    last: usize,
}

impl Recorder {
    pub fn new(horizon: f64, buckets: u32, retries: u32, pause_range: f64) -> Self {
        let buckets = buckets.max(1) as usize;
        let histograms = retries.min(PAUSE_HISTOGRAMS);
        let pause_width = if pause_range > 0.0 && pause_range.is_finite() {
            pause_range / PAUSE_BINS as f64
        } else {
            1.0 / PAUSE_BINS as f64
        };
        Self {
            series: Series::new(buckets, horizon / buckets as f64),
            failures: PerFailure::default(),
            first_tries: 0,
            retries: 0,
            successes: 0,
            budget_refusals: 0,
            breaker_refusals: 0,
            latency: LatencyHistogram::new(),
            pause_histograms: (0..histograms)
                .map(|retry| PauseHistogram {
                    retry,
                    width: pause_width,
                    counts: vec![0; PAUSE_BINS],
                    over: 0,
                    taken: 0,
                    mean: 0.0,
                    max: 0.0,
                })
                .collect(),
            pause_sums: vec![0.0; histograms as usize],
            pause_bins_per_second: 1.0 / pause_width,
            pause_top: pause_width * PAUSE_BINS as f64 * (1.0 + 1e-9),
            horizon,
            inverse_width: {
                let mut factor = buckets as f64 / horizon;
                while horizon.next_down() * factor >= buckets as f64 {
                    factor = factor.next_down();
                }
                factor
            },
            last: buckets - 1,
        }
    }

    /// The bucket of `time`, the last one for times at or past the horizon
    /// (the first for negative times and NaN).
    #[inline]
    fn index(&self, time: f64) -> usize {
        self.below_horizon(time).min(self.last)
    }

    /// The bucket of a time below the horizon (see `inverse_width`).
    #[inline]
    fn below_horizon(&self, time: f64) -> usize {
        // Through u32, whose saturating conversion is a clamp and one
        // instruction; to i64 or usize it takes several.
        (time * self.inverse_width) as u32 as usize
    }

    /// The bucket of `time`, or none past the horizon.
    #[inline]
    fn bucket(&self, time: f64) -> Option<usize> {
        (time < self.horizon).then(|| self.below_horizon(time))
    }

    #[inline(always)]
    pub fn attempt(&mut self, time: f64, first: bool) {
        let bucket = self.bucket(time);
        if first {
            self.first_tries += 1;
            if let Some(i) = bucket {
                self.series.first_tries[i] += 1;
            }
        } else {
            self.retries += 1;
            if let Some(i) = bucket {
                self.series.retries[i] += 1;
            }
        }
    }

    #[inline]
    pub fn success(&mut self, time: f64) {
        self.successes += 1;
        if let Some(i) = self.bucket(time) {
            self.series.successes[i] += 1;
        }
    }

    #[inline]
    pub fn failure(&mut self, time: f64, kind: FailureKind) {
        self.failures[kind] += 1;
        if let Some(i) = self.bucket(time) {
            self.series.failed[kind][i] += 1;
        }
    }

    pub fn refusal(&mut self, time: f64) {
        self.budget_refusals += 1;
        if let Some(i) = self.bucket(time) {
            self.series.budget_refusals[i] += 1;
        }
    }

    pub fn breaker_refusal(&mut self, time: f64) {
        self.breaker_refusals += 1;
        if let Some(i) = self.bucket(time) {
            self.series.breaker_refusals[i] += 1;
        }
    }

    /// The last layer's breaker is open over `[start, end)`.
    pub fn breaker_open(&mut self, start: f64, end: f64) {
        let (width, last) = (self.series.width, self.last);
        let end = end.min(self.horizon);
        let mut start = start.max(0.0);
        let mut i = self.index(start);
        while start < end {
            let bucket_end = if i == last {
                end
            } else {
                ((i + 1) as f64 * width).min(end)
            };
            // Rounding may put `start` at a bucket's very end; move on.
            if bucket_end > start {
                let share = &mut self.series.breaker_open[i];
                *share = (*share + (bucket_end - start) / width).min(1.0);
                start = bucket_end;
            }
            if i == last {
                break;
            }
            i += 1;
        }
    }

    pub fn operation_done(&mut self, time: f64, latency: f64, succeeded: bool) {
        self.latency.record(latency);
        if let Some(i) = self.bucket(time) {
            if succeeded {
                self.series.operations_succeeded[i] += 1;
            } else {
                self.series.operations_failed[i] += 1;
            }
        }
    }

    #[inline(always)]
    pub fn pause(&mut self, retry: u32, pause: f64) {
        let Some(last) = self.pause_histograms.len().checked_sub(1) else {
            return;
        };
        let index = (retry as usize).min(last);
        let histogram = &mut self.pause_histograms[index];
        // The range's top edge belongs to the last bin: without jitter every
        // pause of a capped retry lands exactly there.
        let bin = if pause <= self.pause_top {
            // Through u32, as `index` does. The product may round across
            // an edge `i * width`, where unjittered pauses sit: one step
            // puts it back in the bin its doc promises.
            let width = histogram.width;
            let bin = (pause * self.pause_bins_per_second) as u32 as usize;
            let bin = if (bin + 1) as f64 * width <= pause {
                bin + 1
            } else if bin as f64 * width > pause {
                bin - 1
            } else {
                bin
            };
            bin.min(PAUSE_BINS - 1)
        } else {
            PAUSE_BINS
        };
        match histogram.counts.get_mut(bin) {
            Some(count) => *count += 1,
            None => histogram.over += 1,
        }
        histogram.taken += 1;
        if pause > histogram.max {
            histogram.max = pause;
        }
        self.pause_sums[index] += pause;
    }

    /// Counts one request in service (`Level::InFlight`) or waiting for a
    /// worker (`Level::Queue`) over `[start, end)`: each bucket gains the
    /// time it shares with the span. `finish` turns the sums into averages.
    /// Spans are recorded whole when they become known, so they may come in
    /// any order.
    #[inline]
    pub fn occupied(&mut self, level: Level, start: f64, end: f64) {
        // Written out rather than `f64::min`, which spends instructions on
        // NaN: a NaN here fails the next test either way.
        let end = if self.horizon < end {
            self.horizon
        } else {
            end
        };
        let nonempty = start < end; // false for NaN
        if !nonempty {
            return;
        }
        let mut i = self.below_horizon(start);
        let (width, last) = (self.series.width, self.last);
        let values = match level {
            Level::InFlight => &mut self.series.in_flight,
            Level::Queue => &mut self.series.queue,
        };
        let mut from = start;
        loop {
            // Through i64: one instruction, where usize to f64 takes several.
            let edge = (i as i64 + 1) as f64 * width;
            if end <= edge || i == last {
                values[i] += end - from;
                return;
            }
            // Rounding may put `from` a hair past the edge.
            values[i] += (edge - from).max(0.0);
            from = edge;
            i += 1;
        }
    }

    /// Turns integrals into averages and fills the capacity column.
    pub fn finish(
        mut self,
        capacity: impl Fn(f64, f64) -> f64,
    ) -> (Series, Vec<PauseHistogram>, LatencyHistogram) {
        let width = self.series.width;
        for i in 0..self.series.len() {
            self.series.in_flight[i] /= width;
            self.series.queue[i] /= width;
            let start = i as f64 * width;
            self.series.capacity[i] = capacity(start, start + width);
        }
        for (histogram, sum) in self.pause_histograms.iter_mut().zip(&self.pause_sums) {
            if histogram.taken > 0 {
                histogram.mean = sum / histogram.taken as f64;
            }
        }
        if self.latency.total == 0 {
            self.latency.min = 0.0;
        }
        (self.series, self.pause_histograms, self.latency)
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

    /// Unjittered pauses sit exactly on bin edges: a pause of `i * width`
    /// belongs to bin `i`, whatever rounding the index takes on the way.
    #[test]
    fn pauses_on_bin_edges_land_in_the_bin_they_start() {
        for range in [0.36, 0.45, 0.8, 1.0, 2.0, 3.3, 7.0] {
            let mut recorder = Recorder::new(10.0, 10, 1, range);
            let width = range / PAUSE_BINS as f64;
            for i in 0..PAUSE_BINS {
                recorder.pause(0, i as f64 * width);
            }
            let (_, pauses, _) = recorder.finish(|_, _| 0.0);
            assert_eq!(pauses[0].counts, vec![1; PAUSE_BINS], "range {range}");
        }
    }

    #[test]
    fn times_below_the_horizon_fall_in_the_series() {
        // For some of these horizons and bucket counts, the plain
        // `buckets / horizon` puts the last time below the horizon one
        // bucket too far.
        let mut nudged = 0;
        for horizon in [0.1, 0.3, 1.0 / 3.0, 0.7, 1.1, 80.0, 99.9, 1e-6, 1e9] {
            for buckets in [1, 3, 7, 10, 49, 300, 1000, 4096] {
                let recorder = Recorder::new(horizon, buckets, 0, 1.0);
                let last = horizon.next_down();
                assert_eq!(recorder.bucket(last), Some(buckets as usize - 1));
                assert_eq!(recorder.bucket(0.0), Some(0));
                assert_eq!(recorder.bucket(horizon), None);
                nudged += usize::from(recorder.inverse_width != buckets as f64 / horizon);
            }
        }
        assert!(nudged > 0, "no case needed the nudge");
    }

    #[test]
    fn spans_are_shared_out_between_buckets() {
        // Four buckets of 0.25 s.
        let mut recorder = Recorder::new(1.0, 4, 0, 1.0);
        recorder.occupied(Level::InFlight, 0.1, 0.6);
        recorder.occupied(Level::InFlight, 0.9, 5.0);
        recorder.occupied(Level::Queue, 0.3, 0.2);
        recorder.occupied(Level::Queue, 0.5, 0.75);
        let close =
            |got: &[f64], want: [f64; 4]| got.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-12);
        let series = &recorder.series;
        assert!(
            close(&series.in_flight, [0.15, 0.25, 0.1, 0.1]),
            "{:?}",
            series.in_flight
        );
        assert!(
            close(&series.queue, [0.0, 0.0, 0.25, 0.0]),
            "{:?}",
            series.queue
        );
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
}
