//! Success against load as the failure rate goes from 0 to 100 %.
//!
//! The key chart of the retry-budget debate: retries buy user-visible
//! success at low failure rates and cost load everywhere; a budget or a
//! breaker caps the cost when the dependency is truly down. A sweep reruns
//! one configuration at evenly spaced failure rates, everything else equal,
//! the seed included, and keeps two numbers per point.

use crate::config::{Config, P};
use crate::report;

/// Points of a sweep: 0 %, 5 %, ... 100 %.
pub const POINTS: usize = 21;

/// One failure rate's outcome.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub failure: f64,
    /// Share of operations that succeeded.
    pub success: f64,
    /// Server calls per operation: the load relative to first tries alone.
    pub load: f64,
}

/// The failure rate of point `index` of `points`.
pub fn failure_at(index: usize, points: usize) -> f64 {
    index as f64 / (points.max(2) - 1) as f64
}

/// Runs `config` at the failure rate of point `index`.
pub fn point(config: &Config, index: usize, points: usize) -> Point {
    let failure = failure_at(index, points);
    let mut config = config.clone();
    config.set(P::Failure, failure);
    let summary = report::run(&config).summary;
    Point {
        failure,
        success: summary.success_rate,
        load: summary.server_calls_per_operation,
    }
}

/// The whole sweep at once (the page computes it point by point between
/// frames instead, so dragging never waits for it).
pub fn sweep(config: &Config, points: usize) -> Vec<Point> {
    (0..points).map(|i| point(config, i, points)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Independent failures, 3 retries (4 attempts), no budget, unlimited
    /// capacity: success is 1 - f^4 and calls per operation (1 - f^4)/(1 - f)
    /// (REFERENCE section 4.1). With n operations the success share has
    /// standard error sqrt(p(1-p)/n) <= 0.5/sqrt(n); the calls per operation,
    /// a truncated geometric count of at most 4, has sd <= 1.5, so its error
    /// is <= 1.5/sqrt(n). We allow 5 standard errors.
    #[test]
    fn three_retries_follow_the_formula_at_every_point() {
        let (config, notices) = Config::from_link(
            "v=1&timeout=0&rate=2000&horizon=2&workers=0&service=constant&service_t=0.001&hop=constant&hop_mean=0.001",
        );
        assert_eq!(notices, []);
        let points = sweep(&config, POINTS);
        assert_eq!(points.len(), POINTS);
        for point in points {
            let f = point.failure;
            let n = 4000.0;
            let success = 1.0 - f.powi(4);
            let calls = if f < 1.0 {
                (1.0 - f.powi(4)) / (1.0 - f)
            } else {
                4.0
            };
            assert!(
                (point.success - success).abs() <= 5.0 * 0.5 / f64::sqrt(n),
                "f = {f}: success {} against {success}",
                point.success
            );
            assert!(
                (point.load - calls).abs() <= 5.0 * 1.5 / f64::sqrt(n),
                "f = {f}: calls {} against {calls}",
                point.load
            );
        }
    }

    #[test]
    fn the_ends_are_exact() {
        let (config, _) = Config::from_link("v=1&timeout=0&rate=200&horizon=2&workers=0");
        let points = sweep(&config, 3);
        assert_eq!((points[0].success, points[0].load), (1.0, 1.0));
        assert_eq!((points[2].success, points[2].load), (0.0, 4.0));
    }
}
