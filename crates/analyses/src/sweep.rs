//! Success against load as the failure rate goes from 0 to 100 %.
//!
//! The key chart of the retry-budget debate: retries buy user-visible
//! success at low failure rates and cost load everywhere; a budget or a
//! breaker caps the cost when the dependency is truly down. A sweep reruns
//! one configuration at evenly spaced failure rates, everything else equal,
//! the seed included, and keeps two numbers per point.

use crate::analysis::{Analysis, Printed};
use retry_core::breaker::BreakerMode;
use retry_core::budget::BudgetKind;
use retry_core::words::Text;
use retry_sim::config::{BREAKERS, BUDGETS, Config, P, PARAMS, SWITCH};
use retry_sim::metrics::Metric;
use retry_sim::sim::{Summary, WorkloadKind};
use retry_sim::simulate;

/// What the sweep chart compares: the `sweep` parameter's choice, declared
/// with the table's other choices.
pub use retry_sim::config::SweepCurves;

/// Points of a sweep: 0 %, 5 %, ... 100 %.
pub const POINTS: usize = 21;

/// Most server attempts one point of a sweep may need at its worst (100 %
/// failure). The page computes a point between frames; a point much larger
/// than this would stall it, so such sweeps are left to the command line.
pub const POINT_WORK_LIMIT: f64 = 400_000.0;

/// Why `config` is not swept, on the page or the command line alike, if it
/// is not: the contention model has no failure rate, and a sweep too big
/// for a frame is not run (see [`too_big`]).
pub fn refusal(config: &Config) -> Option<&'static str> {
    if config.workload() == WorkloadKind::Contention {
        return Some(retry_core::words::tr(
            "The contention model has no failure rate to sweep: conflicts are its failures.",
        ));
    }
    too_big(config)
}

/// Why a sweep of `config` is too big to run, if it is: a point would
/// stall the page, and the whole sweep would keep the command line busy
/// for a minute.
pub fn too_big(config: &Config) -> Option<&'static str> {
    let too_big = curves(config).iter().any(|curve| {
        let mut worst = curve.config.clone();
        worst.set(P::Failure, 1.0);
        worst.scenario().estimated_attempts() > POINT_WORK_LIMIT
    });
    too_big.then_some(retry_core::words::tr(
        "Too big to sweep without stalling: every point reruns this whole world, at each failure \
         rate and for every curve. Shorten the horizon or lower the rate to sweep it.",
    ))
}

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
    point_of(
        failure,
        &simulate::run(&point_config(config, failure)).summary,
    )
}

/// `config` at a point's failure rate: what [`point`] runs, for running it
/// a slice at a time.
pub fn point_config(config: &Config, failure: f64) -> Config {
    let mut config = config.clone();
    config.set(P::Failure, failure);
    config
}

/// The two numbers a point keeps, as the headlines and the summary read
/// them, and the CSV names them.
const SUCCESS: Metric = Metric::Success;
const LOAD: Metric = Metric::LoadAmplification;

/// The point of a run at `failure` from the run's summary.
pub fn point_of(failure: f64, summary: &Summary) -> Point {
    Point {
        failure,
        success: SUCCESS.read(summary),
        load: LOAD.read(summary),
    }
}

/// One curve of the sweep chart: a configuration and how to draw it.
#[derive(Debug, Clone)]
pub struct SweepCurve {
    /// The legend's name; empty for a lone curve, which needs no legend.
    pub label: Text,
    pub config: Config,
    /// Index into the chart's palette.
    pub colour: usize,
    pub dashed: bool,
}

/// A classic retry strategy: how many attempts, and what throttles the
/// retries.
struct Strategy {
    label: Text,
    attempts: u32,
    budget: BudgetKind,
    breaker: BreakerMode,
    /// Index into the palette: none of the policies' colours (A blue, B
    /// vermillion), as these curves are strategies, not policies.
    colour: usize,
    dashed: bool,
}

/// The four strategies Marc Brooker compares in "Fixing retries with token
/// buckets and circuit breakers" (2022): no retries; 3 retries; 3 retries
/// under a gRPC token bucket; 3 retries behind a breaker that breaks only
/// retries.
const CLASSIC: [Strategy; 4] = [
    Strategy {
        label: Text("no retries"),
        attempts: 1,
        budget: BudgetKind::None,
        breaker: BreakerMode::Off,
        colour: 7,
        dashed: false,
    },
    Strategy {
        label: Text("3 retries"),
        attempts: 4,
        budget: BudgetKind::None,
        breaker: BreakerMode::Off,
        colour: 3,
        dashed: false,
    },
    Strategy {
        label: Text("3 retries + token bucket"),
        attempts: 4,
        budget: BudgetKind::TokenBucket,
        breaker: BreakerMode::Off,
        colour: 6,
        dashed: true,
    },
    Strategy {
        label: Text("3 retries + breaker on retries"),
        attempts: 4,
        budget: BudgetKind::None,
        breaker: BreakerMode::RetriesOnly,
        colour: 2,
        dashed: true,
    },
];

/// The client instance counts of an instances sweep, after Brooker's 2022
/// runs over 10, 100 and 1 000 clients: the same total load, shared ever
/// more thinly. Each policy's curves keep its hue, pale to deep as the
/// count grows (the palette's tones, `chart::POLICY_TONES`), B's dashed.
const INSTANCE_COUNTS: [u32; 3] = [10, 100, 1000];
/// The palette's tones of A's and of B's curves, count by count.
pub const INSTANCE_TONES: [[usize; 3]; 2] = [[9, 0, 10], [11, 4, 12]];

/// The legend's names of an instances sweep's curves, A's then B's.
const INSTANCE_LABELS: [[Text; 3]; 2] = [
    [
        Text("A over 10 instances"),
        Text("A over 100 instances"),
        Text("A over 1 000 instances"),
    ],
    [
        Text("B over 10 instances"),
        Text("B over 100 instances"),
        Text("B over 1 000 instances"),
    ],
];

/// The curves of the sweep chart: the page's policy A (and B when
/// comparing), each over the instance counts of `INSTANCE_COUNTS` in an
/// instances sweep, or the four classic strategies (`CLASSIC`), each in
/// A's world with the rest of A's policy.
pub fn curves(config: &Config) -> Vec<SweepCurve> {
    match config.sweep_curves() {
        SweepCurves::Policies => {
            let mut curves = vec![SweepCurve {
                label: Text(if config.comparing() { "A" } else { "" }),
                config: config.clone(),
                colour: 0,
                dashed: false,
            }];
            if config.comparing() {
                curves.push(SweepCurve {
                    label: Text("B"),
                    config: config.policy_b_config(),
                    colour: 4,
                    dashed: true,
                });
            }
            curves
        }
        SweepCurves::Instances => {
            let mut curves = Vec::new();
            for (policy, own) in config.policies_alone().iter().enumerate() {
                let tones = INSTANCE_TONES[policy];
                for ((&count, colour), &label) in INSTANCE_COUNTS
                    .iter()
                    .zip(tones)
                    .zip(&INSTANCE_LABELS[policy])
                {
                    let mut c = own.clone();
                    c.set(P::Instances, f64::from(count));
                    curves.push(SweepCurve {
                        label,
                        config: c,
                        colour,
                        dashed: policy == 1,
                    });
                }
            }
            curves
        }
        SweepCurves::Classic => CLASSIC
            .iter()
            .map(|strategy| {
                let mut c = config.clone();
                c.set(P::Compare, SWITCH.position(false));
                c.set(P::Attempts, f64::from(strategy.attempts));
                c.set(P::Budget, BUDGETS.position(strategy.budget));
                c.set(P::Breaker, BREAKERS.position(strategy.breaker));
                SweepCurve {
                    label: strategy.label,
                    config: c,
                    colour: strategy.colour,
                    dashed: strategy.dashed,
                }
            })
            .collect(),
    }
}

/// The curve each of the page's policies is, A's then B's when
/// comparing: the headline numbers are that policy's run at the world's
/// failure rate, which lies on its curve there (at a sweep point, it is
/// that point's run). `None` for a policy no curve draws, as in a classic
/// sweep of a policy that is none of the four strategies.
pub fn headline_curves(config: &Config) -> Vec<Option<usize>> {
    let curves = curves(config);
    let mut policies = vec![config.clone()];
    if config.comparing() {
        policies.push(config.policy_b_config());
    }
    let same = |a: &Config, b: &Config| {
        (0..PARAMS.len()).all(|i| i == P::Compare as usize || a.value_at(i) == b.value_at(i))
    };
    policies
        .iter()
        .map(|policy| curves.iter().position(|curve| same(&curve.config, policy)))
        .collect()
}

/// The whole sweep at once (the page computes it point by point between
/// frames instead, so dragging never waits for it).
pub fn sweep(config: &Config, points: usize) -> Vec<Point> {
    (0..points).map(|i| point(config, i, points)).collect()
}

/// Every curve of the sweep chart as CSV: one row per curve and point.
pub fn to_csv(config: &Config) -> String {
    let curves = curves(config);
    let points: Vec<Vec<Point>> = curves
        .iter()
        .map(|curve| sweep(&curve.config, POINTS))
        .collect();
    csv_of(&curves, &points)
}

/// The CSV of [`to_csv`] from curves already swept: `points[i]` of
/// `curves[i]`.
pub fn csv_of(curves: &[SweepCurve], points: &[Vec<Point>]) -> String {
    let column = |metric: Metric| metric.csv().unwrap_or_default();
    let mut out = format!("curve,failure,{},{}\n", column(SUCCESS), column(LOAD));
    for (curve, points) in curves.iter().zip(points) {
        let name = if curve.label.english().is_empty() {
            "A"
        } else {
            curve.label.english()
        };
        for point in points {
            out += &format!(
                "{name},{},{},{}\n",
                point.failure, point.success, point.load
            );
        }
    }
    out
}

/// The sweep as an analysis.
pub const ANALYSIS: Analysis = Analysis {
    word: Text("sweep"),
    options: &[],
    synopsis: "",
    help: Text(
        "The sweep chart's curves as CSV: success and calls per operation at failure rates from 0 to 100 %.",
    ),
    seeds: 1,
    budget: None,
    refusal,
    print: |config, _| Ok(Printed::out(to_csv(config))),
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Independent failures, 3 retries (4 attempts), no budget, unlimited
    /// capacity: an operation fails only if all four attempts fail, so success
    /// is 1 - f^4, and attempt k + 1 happens only after k failures, so calls
    /// per operation are 1 + f + f^2 + f^3 = (1 - f^4)/(1 - f). With n
    /// operations the success share has
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
    fn classic_strategies_order_as_the_debate_says() {
        let (config, _) =
            Config::from_link("v=1&sweep=classic&timeout=0&rate=500&horizon=20&workers=0");
        let curves = curves(&config);
        let names: Vec<&str> = curves.iter().map(|c| c.label.0).collect();
        assert_eq!(
            names,
            [
                "no retries",
                "3 retries",
                "3 retries + token bucket",
                "3 retries + breaker on retries"
            ]
        );
        // At f = 0.1 and 0.5 (points 2 and 10 of 21), and at f = 1.
        let at = |curve: usize, index: usize| point(&curves[curve].config, index, POINTS);
        // Where a throttle never acts (f = 0.1) its load equals plain
        // retries' up to sampling: both are means over n = 10 000 operations
        // of a count of at most 4 calls (sd <= 1.5), so their difference has
        // a standard error <= 1.5 sqrt(2/n). We allow 5 of them.
        let slack = 5.0 * 1.5 * f64::sqrt(2.0 / 10_000.0);
        for index in [2, 10, 20] {
            let none = at(0, index);
            let retries = at(1, index);
            let bucket = at(2, index);
            let breaker = at(3, index);
            // No retries: exactly one call each, success 1 - f up to sampling.
            assert_eq!(none.load, 1.0);
            // Retries buy success and cost load; the throttles cost less.
            assert!(
                retries.load + slack >= bucket.load && retries.load + slack >= breaker.load,
                "f index {index}: retries {}, bucket {}, breaker {}",
                retries.load,
                bucket.load,
                breaker.load
            );
            assert!(retries.success >= none.success);
        }
        // When the dependency is down, 3 retries quadruple the load while
        // the bucket and the breaker stay close to one call per operation.
        assert_eq!(at(1, 20).load, 4.0);
        assert!(at(2, 20).load < 1.05, "token bucket {}", at(2, 20).load);
        assert!(at(3, 20).load < 1.05, "breaker {}", at(3, 20).load);
    }

    #[test]
    fn classic_curves_are_the_strategies_their_labels_name() {
        // Compare mode and B's differences must not leak into the strategies.
        let (config, _) = Config::from_link("v=1&sweep=classic&compare=on&B.attempts=9");
        let curves: Vec<_> = curves(&config)
            .iter()
            .map(|curve| {
                let c = &curve.config;
                let policy = c.policy();
                (
                    curve.label.0,
                    policy.attempts,
                    c.budget_kind(),
                    c.breaker_mode(),
                    c.comparing(),
                )
            })
            .collect();
        assert_eq!(
            curves,
            [
                ("no retries", 1, BudgetKind::None, BreakerMode::Off, false),
                ("3 retries", 4, BudgetKind::None, BreakerMode::Off, false),
                (
                    "3 retries + token bucket",
                    4,
                    BudgetKind::TokenBucket,
                    BreakerMode::Off,
                    false
                ),
                (
                    "3 retries + breaker on retries",
                    4,
                    BudgetKind::None,
                    BreakerMode::RetriesOnly,
                    false
                ),
            ]
        );
    }

    #[test]
    fn huge_sweeps_are_refused() {
        let small = Config::from_link("v=1&rate=200&horizon=20").0;
        let huge = Config::from_link("v=1&rate=10000&horizon=100").0;
        assert_eq!(refusal(&small), None);
        assert!(refusal(&huge).is_some_and(|why| why.contains("Too big")));
        assert_eq!(too_big(&huge), refusal(&huge));
        let contention = Config::from_link("v=1&workload=contention").0;
        assert!(refusal(&contention).is_some_and(|why| why.contains("contention")));
    }

    /// The columns are the table's names of the numbers a point keeps.
    #[test]
    fn the_csv_header_names_what_a_point_keeps() {
        assert_eq!(
            csv_of(&[], &[]),
            "curve,failure,success,calls_per_operation\n"
        );
    }

    #[test]
    fn the_ends_are_exact() {
        let (config, _) = Config::from_link("v=1&timeout=0&rate=200&horizon=2&workers=0");
        let points = sweep(&config, 3);
        assert_eq!((points[0].success, points[0].load), (1.0, 1.0));
        assert_eq!((points[2].success, points[2].load), (0.0, 4.0));
    }
}
