//! Accumulates a run's report as events happen: every count, series and
//! histogram of a [`Report`](super::Report) but the totals the world keeps.

use super::report::{
    FailureKind, LatencyHistogram, PAUSE_BINS, PAUSE_HISTOGRAMS, PauseHistogram, PerFailure,
    ResetHerd, Series,
};

/// What a span of `Recorder::occupied` counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Level {
    InFlight,
    Queue,
}

/// What [`Recorder::finish`] hands to the report.
pub(crate) struct Recorded {
    pub series: Series,
    pub pauses: Vec<PauseHistogram>,
    pub latency: LatencyHistogram,
    pub latency_failed: LatencyHistogram,
    pub reset_herd: Option<ResetHerd>,
    pub breaker_opened_after: Option<u64>,
}

/// Accumulates a run's report as events happen.
#[derive(Debug, Clone)]
pub(crate) struct Recorder {
    pub series: Series,
    pub failures: PerFailure<u64>,
    pub first_tries: u64,
    pub retries: u64,
    pub successes: u64,
    pub budget_refusals: u64,
    pub paced_sends: u64,
    pub paced_seconds: f64,
    pub breaker_refusals: u64,
    pub latency: LatencyHistogram,
    latency_failed: LatencyHistogram,
    /// The budget's balance when the run starts, if it keeps one: buckets
    /// in which it did not change carry the previous bucket's balance.
    budget_start: Option<f64>,
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
    /// With a rate limit, the retries sent after its first reset.
    herd: Option<HerdWatch>,
    /// The calls sent to the server before the breaker calling it first
    /// opened.
    opened_after: Option<u64>,
}

/// Width of a bin of [`HerdWatch`]: 10 ms, a tenth of the 100 ms it
/// measures the busiest of.
const HERD_BIN: f64 = 0.01;
/// Its bins at most: a window of an hour.
const HERD_BINS: usize = 360_000;

/// The retries sent from a rate limit's first reset after it first
/// answered 429 to the next reset, in 10 ms bins.
#[derive(Debug, Clone)]
struct HerdWatch {
    from: f64,
    bins: Vec<u32>,
}

impl HerdWatch {
    fn retry(&mut self, time: f64) {
        // A retry computed to land on the reset may land a hair before it.
        let offset = (time - self.from).max(0.0);
        if time >= self.from - 1e-9 {
            if let Some(bin) = self.bins.get_mut((offset / HERD_BIN) as usize) {
                *bin += 1;
            }
        }
    }

    fn finish(&self) -> ResetHerd {
        let busiest = self
            .bins
            .windows(10.min(self.bins.len()))
            .map(|w| w.iter().map(|&n| u64::from(n)).sum::<u64>())
            .max()
            .unwrap_or(0);
        ResetHerd {
            at: self.from,
            retries: self.bins.iter().map(|&n| u64::from(n)).sum(),
            busiest,
        }
    }
}

impl Recorder {
    /// `budget_start` is the retry budget's starting balance, for budgets
    /// that keep one: then the series gets `budget_level`.
    pub fn new(
        horizon: f64,
        buckets: u32,
        retries: u32,
        pause_range: f64,
        budget_start: Option<f64>,
    ) -> Self {
        let buckets = buckets.max(1) as usize;
        let mut series = Series::new(buckets, horizon / buckets as f64);
        if budget_start.is_some() {
            // NaN marks a bucket in which the balance did not change.
            series.budget_level = vec![f64::NAN; buckets];
        }
        let histograms = retries.min(PAUSE_HISTOGRAMS);
        let pause_width = if pause_range > 0.0 && pause_range.is_finite() {
            pause_range / PAUSE_BINS as f64
        } else {
            1.0 / PAUSE_BINS as f64
        };
        Self {
            series,
            failures: PerFailure::default(),
            first_tries: 0,
            retries: 0,
            successes: 0,
            budget_refusals: 0,
            paced_sends: 0,
            paced_seconds: 0.0,
            breaker_refusals: 0,
            latency: LatencyHistogram::new(),
            latency_failed: LatencyHistogram::new(),
            budget_start,
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
            herd: None,
            opened_after: None,
        }
    }

    /// The rate limit answered 429, to come back after `reset`: the first
    /// time, the retries from then to the next reset are watched.
    pub fn rate_limited(&mut self, reset: f64, window: f64) {
        if self.herd.is_none() {
            let bins = ((window / HERD_BIN).round() as usize).clamp(1, HERD_BINS);
            self.herd = Some(HerdWatch {
                from: reset,
                bins: vec![0; bins],
            });
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

    /// Keeps each of `layers` layers' calls by bucket (a chain's).
    pub fn per_layer(&mut self, layers: usize) {
        let zeros = vec![vec![0; self.series.len()]; layers];
        self.series.layer_calls = zeros.clone();
        self.series.layer_orphaned = zeros;
    }

    /// `calls` calls of `layer` left at `time`, for nobody when `orphaned`
    /// (nothing without a chain).
    #[inline]
    pub fn layer_calls(&mut self, layer: usize, time: f64, calls: u64, orphaned: bool) {
        // Without a chain, no series: the plain world's hot path pays one
        // check.
        if self.series.layer_calls.is_empty() {
            return;
        }
        let Some(i) = self.bucket(time) else {
            return;
        };
        self.series.layer_calls[layer][i] += calls;
        if orphaned {
            self.series.layer_orphaned[layer][i] += calls;
        }
    }

    #[inline(always)] // speed: hot
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
            if let Some(herd) = &mut self.herd {
                herd.retry(time);
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

    /// The server ran an action again (a duplicate); the total is the
    /// world's, this is its place in time.
    pub fn duplicate(&mut self, time: f64) {
        if let Some(i) = self.bucket(time) {
            self.series.duplicates[i] += 1;
        }
    }

    /// The server shed a request (see `Summary::shed`).
    pub fn shed(&mut self, time: f64) {
        if let Some(i) = self.bucket(time) {
            self.series.shed[i] += 1;
        }
    }

    pub fn refusal(&mut self, time: f64) {
        self.budget_refusals += 1;
        if let Some(i) = self.bucket(time) {
            self.series.budget_refusals[i] += 1;
        }
    }

    /// A send AWS adaptive mode's rate limiter held back for `wait`.
    pub fn paced(&mut self, wait: f64) {
        self.paced_sends += 1;
        self.paced_seconds += wait;
    }

    pub fn breaker_refusal(&mut self, time: f64) {
        self.breaker_refusals += 1;
        if let Some(i) = self.bucket(time) {
            self.series.breaker_refusals[i] += 1;
        }
    }

    /// The last layer's breaker is open over `[start, end)`.
    pub fn breaker_open(&mut self, start: f64, end: f64) {
        self.opened_after
            .get_or_insert(self.first_tries + self.retries);
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
        if !succeeded {
            self.latency_failed.record(latency);
        }
        if let Some(i) = self.bucket(time) {
            if succeeded {
                self.series.operations_succeeded[i] += 1;
            } else {
                self.series.operations_failed[i] += 1;
            }
        }
    }

    /// The retry budget's balance changed to `level` at `time`. Events come
    /// in time order wherever a budget exists (it couples operations, so
    /// they share one queue), so the last write of a bucket is its balance
    /// at the bucket's end.
    pub fn budget_level(&mut self, time: f64, level: f64) {
        if let Some(slot) = self
            .bucket(time)
            .and_then(|i| self.series.budget_level.get_mut(i))
        {
            *slot = level;
        }
    }

    #[inline(always)] // speed: hot
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

    /// Turns integrals into averages and fills the capacity column with
    /// `capacity(start, end)` of each bucket.
    pub fn finish(mut self, capacity: impl Fn(f64, f64) -> f64) -> Recorded {
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
        if let Some(mut level) = self.budget_start {
            for slot in &mut self.series.budget_level {
                if slot.is_nan() {
                    *slot = level;
                } else {
                    level = *slot;
                }
            }
        }
        for histogram in [&mut self.latency, &mut self.latency_failed] {
            if histogram.total == 0 {
                histogram.min = 0.0;
            }
        }
        Recorded {
            series: self.series,
            pauses: self.pause_histograms,
            latency: self.latency,
            latency_failed: self.latency_failed,
            reset_herd: self.herd.as_ref().map(HerdWatch::finish),
            breaker_opened_after: self.opened_after,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Unjittered pauses sit exactly on bin edges: a pause of `i * width`
    /// belongs to bin `i`, whatever rounding the index takes on the way.
    #[test]
    fn pauses_on_bin_edges_land_in_the_bin_they_start() {
        for range in [0.36, 0.45, 0.8, 1.0, 2.0, 3.3, 7.0] {
            let mut recorder = Recorder::new(10.0, 10, 1, range, None);
            let width = range / PAUSE_BINS as f64;
            for i in 0..PAUSE_BINS {
                recorder.pause(0, i as f64 * width);
            }
            let pauses = recorder.finish(|_, _| 0.0).pauses;
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
                let recorder = Recorder::new(horizon, buckets, 0, 1.0, None);
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
        let mut recorder = Recorder::new(1.0, 4, 0, 1.0, None);
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
}
