//! What one policy does to many clients whose every attempt fails.
//!
//! This is the single-client view of the calculators, run for a crowd: each
//! simulated client draws its pauses from its own stream, every attempt fails
//! after its timeout (at once when there is none), and the client stops when
//! the attempts or the deadline say so. The study keeps, per retry number,
//! the histogram of the pauses the policy draws next to their analytic
//! bounds, and the histogram of the total time until the client gives up.

use crate::policy::{PauseBounds, Plan, Policy};
use crate::random::Stream;

/// Equal-width bins over `[low, high)`; values at or past `high` fall in the last bin.
#[derive(Debug, Clone, PartialEq)]
pub struct Histogram {
    pub low: f64,
    pub high: f64,
    pub counts: Vec<u32>,
}

impl Histogram {
    pub fn new(low: f64, high: f64, bins: usize) -> Self {
        Self {
            low,
            high,
            counts: vec![0; bins.max(1)],
        }
    }

    pub fn add(&mut self, value: f64) {
        let bins = self.counts.len();
        let position = (value - self.low) / (self.high - self.low) * bins as f64;
        // `as usize` saturates: NaN and negatives land in bin 0.
        let bin = (position as usize).min(bins - 1);
        self.counts[bin] += 1;
    }

    pub fn total(&self) -> u64 {
        self.counts.iter().map(|c| u64::from(*c)).sum()
    }

    pub fn bin_width(&self) -> f64 {
        (self.high - self.low) / self.counts.len() as f64
    }
}

/// The result of [`study`].
#[derive(Debug, Clone, PartialEq)]
pub struct Study {
    pub samples: u32,
    /// Analytic bounds of the pause before each retry.
    pub bounds: Vec<PauseBounds>,
    /// Drawn pauses before each retry, all over the same range.
    pub pauses: Vec<Histogram>,
    /// Time from the first attempt until the client gives up.
    pub totals: Histogram,
    /// How many clients made each attempt (the deadline can stop them early).
    pub attempts_made: Vec<u32>,
    pub mean_total: f64,
    pub max_total: f64,
    /// Clients stopped by the deadline rather than by the attempt count.
    pub stopped_by_deadline: u32,
}

const BINS: usize = 60;

/// Runs `samples` clients of `policy`, client `i` drawing from stream
/// `(seed, i)`.
pub fn study(policy: &Policy, seed: u64, samples: u32) -> Study {
    let retries = policy.attempts.saturating_sub(1) as usize;
    let bounds: Vec<PauseBounds> = (0..retries as u32)
        .map(|r| policy.pause_bounds(r))
        .collect();
    let pause_high = bounds.iter().map(|b| b.max).fold(0.0, f64::max).max(1e-3) * 1.04;
    let mut pauses = vec![Histogram::new(0.0, pause_high, BINS); retries];
    let mut attempts_made = vec![0; policy.attempts as usize];
    let mut stopped_by_deadline = 0;

    // One pass to learn the totals, kept to place them on a histogram whose
    // range fits them. Memory is samples x 8 bytes, bounded by the table.
    let mut totals = Vec::with_capacity(samples as usize);
    for client in 0..samples {
        let mut stream = Stream::new(seed, u64::from(client));
        let mut elapsed = 0.0;
        let mut previous = policy.base;
        let mut attempt = 0;
        let mut pause = 0.0;
        loop {
            match policy.plan_attempt(attempt, elapsed, pause) {
                Plan::Attempt { pause, timeout } => {
                    attempts_made[attempt as usize] += 1;
                    elapsed += pause + if timeout.is_finite() { timeout } else { 0.0 };
                }
                Plan::OutOfAttempts => break,
                Plan::DeadlineExceeded => {
                    stopped_by_deadline += 1;
                    break;
                }
            }
            if attempt as usize >= retries {
                break;
            }
            pause = policy.draw_pause(attempt, previous, &mut stream);
            pauses[attempt as usize].add(pause);
            previous = pause;
            attempt += 1;
        }
        totals.push(elapsed);
    }
    let max_total = totals.iter().copied().fold(0.0, f64::max);
    let mean_total = totals.iter().sum::<f64>() / f64::from(samples.max(1));
    let mut histogram = Histogram::new(0.0, (max_total * 1.04).max(1e-3), BINS);
    totals.iter().for_each(|t| histogram.add(*t));
    Study {
        samples,
        bounds,
        pauses,
        totals: histogram,
        attempts_made,
        mean_total,
        max_total,
        stopped_by_deadline,
    }
}

/// The study as JSON, for the command line and for comparing the browser's
/// numbers with the native ones: every float is printed as the shortest text
/// that reads back to the same bits.
pub fn to_json(study: &Study) -> String {
    let list = |values: &mut dyn Iterator<Item = String>| values.collect::<Vec<_>>().join(",");
    let pauses = study.pauses.iter().zip(&study.bounds).enumerate().map(
        |(retry, (histogram, bounds))| {
            format!(
                "{{\"retry\":{},\"min\":{},\"max\":{},\"mean\":{},\"high\":{},\"counts\":[{}]}}",
                retry + 1,
                bounds.min,
                bounds.max,
                bounds.mean,
                histogram.high,
                list(&mut histogram.counts.iter().map(u32::to_string))
            )
        },
    );
    format!(
        "{{\"samples\":{},\"mean_total\":{},\"max_total\":{},\"stopped_by_deadline\":{},\"attempts_made\":[{}],\"pauses\":[{}],\"totals\":{{\"high\":{},\"counts\":[{}]}}}}",
        study.samples,
        study.mean_total,
        study.max_total,
        study.stopped_by_deadline,
        list(&mut study.attempts_made.iter().map(u32::to_string)),
        list(&mut pauses.into_iter()),
        study.totals.high,
        list(&mut study.totals.counts.iter().map(u32::to_string)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Jitter;

    #[test]
    fn histogram_counts_every_value_once() {
        let mut histogram = Histogram::new(0.0, 1.0, 10);
        for value in [-1.0, 0.0, 0.05, 0.99, 1.0, 7.0, f64::NAN] {
            histogram.add(value);
        }
        assert_eq!(histogram.total(), 7);
        assert_eq!(histogram.counts[0], 4);
        assert_eq!(histogram.counts[9], 3);
    }

    #[test]
    fn every_client_draws_every_pause() {
        let study = study(&Policy::default(), 1, 1000);
        assert_eq!(study.pauses.len(), 3);
        assert!(study.pauses.iter().all(|h| h.total() == 1000));
        assert_eq!(study.attempts_made, [1000; 4]);
        assert_eq!(study.totals.total(), 1000);
    }

    #[test]
    fn without_jitter_totals_are_exact() {
        let policy = Policy {
            jitter: Jitter::None,
            attempt_timeout: Some(0.5),
            ..Policy::default()
        };
        let study = study(&policy, 1, 100);
        // 4 timeouts of 0.5 s plus pauses 0.1 + 0.2 + 0.4.
        assert!((study.max_total - 2.7).abs() < 1e-12, "{}", study.max_total);
        assert!((study.mean_total - 2.7).abs() < 1e-12);
    }

    #[test]
    fn deadline_that_eats_the_retries() {
        // 2 s budget, 4 attempts x 2 s timeout: one attempt, then give up.
        let policy = Policy {
            attempt_timeout: Some(2.0),
            deadline: Some(2.0),
            ..Policy::default()
        };
        let study = study(&policy, 1, 500);
        assert_eq!(study.attempts_made, [500, 0, 0, 0]);
        assert_eq!(study.stopped_by_deadline, 500);
        assert!(study.max_total <= 2.0);
    }
}
