//! The circuit breaker in the simulator: what it lets through while open,
//! for each mode, and the load it leaves against a dependency that is down.
//!
//! "Open" is read from `Series::breaker_open`, the share of each bucket the
//! breaker calling the server spent open. A bucket at 1 lies wholly inside
//! an open period, and attempts are counted in the bucket of the instant
//! they are sent, which is the instant the breaker was asked; so in such a
//! bucket the counts of what the breaker breaks must be exactly 0. Shares
//! are sums of float spans, hence the `1 - 1e-9`.

use retry_core::breaker::{BreakerConfig, BreakerMode};
use retry_core::policy::Policy;
use retry_sim::sim::{self, OutageMode, Report, Scenario};

mod common;

use common::{quiet_server, server_calls};

/// 200 operations per second for 60 s against the quiet server that
/// refuses every request from 10 s to 40 s; 4 attempts, full jitter from
/// 50 ms capped at 400 ms; a breaker with the default parameters.
fn outage(mode: BreakerMode) -> Scenario {
    let quiet = quiet_server();
    Scenario {
        seed: 21,
        horizon: 60.0,
        buckets: 240,
        rate: 200.0,
        outage_start: 10.0,
        outage_duration: 30.0,
        outage_mode: OutageMode::FailFast,
        policy: Policy {
            base: 0.05,
            cap: 0.4,
            ..quiet.policy.clone()
        },
        breaker: BreakerConfig {
            mode,
            ..BreakerConfig::default()
        },
        ..quiet
    }
}

/// Buckets wholly inside an open period.
fn open_buckets(report: &Report) -> Vec<usize> {
    (0..report.series.len())
        .filter(|&i| report.series.breaker_open[i] >= 1.0 - 1e-9)
        .collect()
}

/// The breaker opens soon after the outage starts and stays open, but for
/// its probes, until the outage ends: of the 30 s outage, 5 s cool-downs
/// separated by instants of probing, at least 25 s (100 buckets of 0.25 s)
/// are wholly open; none before the outage, none after it has passed.
fn check_open_periods(report: &Report, mode: BreakerMode) -> Vec<usize> {
    let open = open_buckets(report);
    let width = report.series.width;
    assert!(open.len() >= 100, "{mode:?}: {} open buckets", open.len());
    for &i in &open {
        let start = i as f64 * width;
        assert!(
            (10.0..40.0 + 5.0).contains(&start),
            "{mode:?}: bucket {i} open outside the outage"
        );
    }
    open
}

/// (a) Breaking everything: while open, nothing reaches the server, first
/// try or retry; the first tries that arrived were refused instead. After
/// the outage the breaker closes again and operations succeed.
#[test]
fn breaking_everything_sends_nothing_while_open() {
    let report = sim::run(&outage(BreakerMode::All));
    let series = &report.series;
    for i in check_open_periods(&report, BreakerMode::All) {
        assert_eq!(series.first_tries[i], 0, "bucket {i}: a first try went out");
        assert_eq!(series.retries[i], 0, "bucket {i}: a retry went out");
        assert!(series.breaker_refusals[i] > 0, "bucket {i}: no one asked");
    }
    let s = &report.summary;
    assert!(s.breaker_open > 0);
    assert_eq!(s.breaker_open, s.breaker_refusals, "one layer");
    // From 50 s on, well after the last cool-down, every operation succeeds.
    let from = (50.0 / series.width) as usize;
    let failed: u64 = series.operations_failed[from..].iter().sum();
    assert_eq!(failed, 0, "the breaker closed again");
    assert_eq!(series.breaker_refusals[from..].iter().sum::<u64>(), 0);
}

/// (b) Breaking only retries: every operation's first try reaches the
/// server (exactly one first try per operation, with one layer and no
/// deadline), while open no retry does, after the first opening only
/// probes do, and retries in all are cut to a small fraction of what the
/// same run makes without a breaker.
#[test]
fn breaking_retries_lets_every_first_try_through() {
    let report = sim::run(&outage(BreakerMode::RetriesOnly));
    let s = &report.summary;
    assert_eq!(s.first_tries, s.operations, "every first try went out");
    assert_eq!(s.attempts_by_layer[0], s.first_tries + s.retries);
    let series = &report.series;
    for i in check_open_periods(&report, BreakerMode::RetriesOnly) {
        assert_eq!(series.retries[i], 0, "bucket {i}: a retry went out");
        assert!(series.first_tries[i] > 0, "bucket {i}: first tries go out");
    }
    // Once it has opened, the only retries that go out are probes, at most
    // `probes` per half-open round, one round per trip.
    let first_open = series
        .breaker_open
        .iter()
        .position(|share| *share > 0.0)
        .expect("the breaker opened");
    let later: u64 = series.retries[first_open + 1..].iter().sum();
    let probes = u64::from(BreakerConfig::default().probes);
    assert!(
        later <= probes * s.breaker_trips,
        "{later} retries after the first opening, {} trips",
        s.breaker_trips
    );
    // Before it opens, the 10 s window still holds the successes from
    // before the outage, so it takes about 2 s of failures to reach half;
    // in all, retries are cut to under a tenth of the 3 per operation of
    // the outage's 6000 operations that the same run makes without one.
    let without = sim::run(&outage(BreakerMode::Off));
    assert_eq!(without.summary.operations, s.operations, "same arrivals");
    assert!(
        without.summary.retries > 17_000,
        "{}",
        without.summary.retries
    );
    assert!(
        s.retries * 10 < without.summary.retries,
        "retries {} vs {} without a breaker",
        s.retries,
        without.summary.retries
    );
}

/// (c) Against a dependency that always fails, 5 attempts: no breaker makes
/// exactly 5 calls per operation. Breaking only retries leaves the first
/// tries plus what leaks before the first opening and the probes: retries
/// at most `2 x min_requests + probes x trips`, the 2 x covering the
/// attempts already sent when the 20th outcome opens it (about 10 ms of
/// 1000/s). Trips happen once per cool-down of 5 s over the ~20 s run:
/// at most 20 / 5 + 2. Breaking everything also refuses first tries, so
/// the load is that bound in all, far below one call per operation.
#[test]
fn against_a_dead_dependency_the_load_stays_near_one() {
    let run = |mode| {
        let base = outage(mode);
        sim::run(&Scenario {
            seed: 5,
            horizon: 20.0,
            rate: 1000.0,
            failure: 1.0,
            outage_duration: 0.0,
            policy: Policy {
                attempts: 5,
                ..base.policy.clone()
            },
            ..base
        })
    };
    let off = run(BreakerMode::Off);
    assert_eq!(server_calls(&off), 5 * off.summary.operations);

    let config = BreakerConfig::default();
    let bound = |report: &Report| {
        let trips = report.summary.breaker_trips;
        assert!((1..=20 / 5 + 2).contains(&trips), "trips {trips}");
        2 * u64::from(config.min_requests) + u64::from(config.probes) * trips
    };
    let retries_only = run(BreakerMode::RetriesOnly);
    let s = &retries_only.summary;
    assert_eq!(s.first_tries, s.operations);
    assert!(s.retries <= bound(&retries_only), "retries {}", s.retries);
    assert!(
        s.server_calls_per_operation < 1.01,
        "load {}",
        s.server_calls_per_operation
    );

    let all = run(BreakerMode::All);
    let s = &all.summary;
    assert!(
        server_calls(&all) <= bound(&all),
        "calls {}",
        server_calls(&all)
    );
    assert_eq!(
        s.breaker_open + s.out_of_attempts,
        s.operations,
        "refused, or failed before the first opening"
    );
}

/// Same scenario, same report; and the breaker's bookkeeping adds up.
#[test]
fn breaker_runs_are_reproducible() {
    for mode in [BreakerMode::All, BreakerMode::RetriesOnly] {
        let scenario = Scenario {
            horizon: 20.0,
            ..outage(mode)
        };
        assert_eq!(sim::run(&scenario), sim::run(&scenario), "{mode:?}");
    }
}

/// Where the breaker sits against the retry loop, against a dependency
/// that fails every call: one client in a closed loop, 3 attempts, a
/// breaker that opens once its window holds 5 outcomes all failed, and a
/// cool-down longer than the run, so that every round trip the server
/// saw was sent before it opened. Inside the loop each attempt is an
/// outcome: it opens after 5 round trips. Around it each operation is one
/// outcome of 3 round trips: 5 operations, 15 round trips. Each link
/// reads the same, the placement aside.
#[test]
fn a_breaker_around_the_retry_loop_opens_after_three_times_the_round_trips() {
    let link = "v=1&workload=closed&clients=1&think=0.01&horizon=60&failure=1&attempts=3&base=0.01&cap=0.01&timeout=0&workers=0&breaker=all&cb_ratio=1&cb_min=5&cb_window=600&cb_cool=600";
    let round_trips = |at: &str| {
        let (config, notices) = retry_sim::config::Config::from_link(&format!("{link}&cb_at={at}"));
        assert_eq!(notices, [], "{at}");
        let report = sim::run(&retry_sim::simulate::scenario(&config));
        assert_eq!(report.summary.breaker_trips, 1, "{at}: it opens once");
        assert_eq!(
            report.summary.breaker_opened_after,
            Some(server_calls(&report)),
            "{at}: every round trip came before it opened"
        );
        server_calls(&report)
    };
    assert_eq!(round_trips("attempt"), 5);
    assert_eq!(round_trips("operation"), 15);
}
