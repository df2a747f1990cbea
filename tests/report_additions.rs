//! What the report holds for the charts beyond its counts: the latency of
//! failed operations, the retry budget's balance over time, and how far a
//! run cut by the work limit got.

use retry_core::budget::{BudgetConfig, BudgetKind};
use retry_sim::config::Config;
use retry_sim::sim::{self, Scenario};
use retry_sim::simulate;

/// The failed operations' latencies are a part of all latencies, bin by
/// bin, and count exactly the operations that ended in failure.
#[test]
fn failed_latency_is_the_failed_part_of_all() {
    let (config, _) = Config::from_link(
        "v=1&timeout=0.3&deadline=1&rate=100&horizon=10&failure=0.4&attempts=3&outage_at=4&outage_for=2",
    );
    let report = simulate::run(&config);
    let summary = &report.summary;
    let failed = summary.operations - summary.succeeded - summary.unfinished;
    assert!(failed > 50, "{summary:?}");
    assert_eq!(report.latency_failed.total, failed);
    for (all, part) in report
        .latency
        .counts
        .iter()
        .zip(&report.latency_failed.counts)
    {
        assert!(part <= all);
    }
    assert!(report.latency_failed.max <= report.latency.max);
}

/// The AWS SDK's quota starts full, drains during the outage until a
/// retry no longer fits, and refills once calls succeed again; budgets
/// without a balance report none.
#[test]
fn budget_level_follows_the_quota() {
    let (config, _) = Config::from_link(
        "v=1&attempts=3&cap=20&budget=aws-quota&failure=0.01&outage_at=20&outage_for=20",
    );
    let report = simulate::run(&config);
    let level = &report.series.budget_level;
    let series = &report.series;
    assert_eq!(level.len(), series.len());
    let at = |seconds: f64| level[(seconds / series.width) as usize];
    assert!(at(10.0) > 480.0, "{}", at(10.0));
    assert!(at(30.0) < 5.0, "a retry costs 5: {}", at(30.0));
    assert_eq!(at(59.0), 500.0);
    assert!(level.iter().all(|l| (0.0..=500.0).contains(l)));

    let (plain, _) = Config::from_link("v=1&failure=0.1&horizon=5");
    assert!(simulate::run(&plain).series.budget_level.is_empty());
    let (ratio, _) = Config::from_link("v=1&failure=0.1&horizon=5&budget=ratio");
    assert!(simulate::run(&ratio).series.budget_level.is_empty());

    let (bucket, _) = Config::from_link(
        "v=1&attempts=5&cap=5&budget=token-bucket&failure=0.01&outage_at=20&outage_for=20",
    );
    let report = simulate::run(&bucket);
    let level = &report.series.budget_level;
    assert!(level.iter().all(|l| (0.0..=10.0).contains(l)));
    assert!(
        level.iter().any(|l| *l <= 5.0),
        "the outage drains the bucket"
    );
}

/// A run stopped by the work limit says when: before that instant its
/// series hold arrivals, after it none were simulated. Both ways of
/// running (one shared queue, operations alone) say it.
#[test]
fn a_cut_run_says_how_far_it_got() {
    for workers in [20, 0] {
        let scenario = Scenario {
            horizon: 100.0,
            buckets: 100,
            rate: 200.0,
            failure: 0.5,
            workers,
            work_limit: 5_000,
            budget: BudgetConfig {
                kind: BudgetKind::None,
                ..BudgetConfig::default()
            },
            ..Scenario::default()
        };
        let report = sim::run(&scenario);
        let summary = &report.summary;
        assert!(summary.truncated);
        let until = summary.simulated_until;
        assert!(until > 5.0 && until < 30.0, "workers {workers}: {until}");
        let series = &report.series;
        let cut = (until / series.width) as usize;
        assert!(series.first_tries[..cut].iter().all(|c| *c > 0));
        assert!(series.first_tries[cut + 1..].iter().all(|c| *c == 0));

        let whole = sim::run(&Scenario {
            work_limit: 10_000_000,
            horizon: 10.0,
            ..scenario
        });
        assert!(!whole.summary.truncated);
        assert_eq!(
            whole.summary.simulated_until,
            whole.summary.finished_at.max(10.0)
        );
    }
}
