//! The guarantee card (`card`) against the simulator: each figure in
//! closed form held to what the runs measure, with fixed seeds and
//! tolerances from the math.

use retry_analyses::card::{Card, card};
use retry_sim::config::Config;
use retry_sim::sim::Report;
use retry_sim::simulate;

fn world(link: &str) -> Config {
    let (config, notices) = Config::from_link(link);
    assert!(notices.is_empty(), "{link}: {notices:?}");
    config
}

fn run(link: &str) -> (Card, Report) {
    let config = world(link);
    (card(&config), simulate::run(&config))
}

/// When every call fails, the calls at the bottom per operation are the
/// card's worst case exactly: each layer its own attempts, a fan-out's
/// copies, a hedge's copies, a hedged fan-out's copies of each call (with
/// a constant service, every copy leaves before the first call has
/// failed its last).
#[test]
fn every_call_failing_makes_the_worst_case_exactly() {
    for link in [
        "v=1&attempts=4&failure=1&workers=0&rate=20&horizon=10",
        "v=1&attempts=3&failure=1&workers=0&rate=20&horizon=10&layers=3&l2_attempts=2&l3_attempts=4",
        "v=1&attempts=2&failure=1&workers=0&rate=20&horizon=10&layers=2&fan_out=5",
        "v=1&failure=1&workers=0&rate=20&horizon=10&hedge=on&hedge_max=3",
        "v=1&attempts=2&failure=1&workers=0&rate=20&horizon=10&fan_out=5&hedge=on&hedge_max=3&hedge_delay=0.01&service=constant",
    ] {
        let (card, report) = run(link);
        let s = &report.summary;
        let bottom = *s.attempts_by_layer.last().expect("a layer") as f64;
        assert_eq!(bottom / s.operations as f64, card.worst_calls, "{link}");
    }
}

/// Retries a second in the second half of a run at 100 % failure, 100
/// operations a second, 4 attempts: the arrivals are Poisson, so a count
/// of n retries over 50 s has an sd near sqrt(n) (a retry budget's cap
/// only narrows it): 4 of those, and 1 a second for the windows' edges.
/// A fleet of 20 or 100 instances, each its own budget, is held alike:
/// each floor, share and reservoir is an instance's, the sum the fleet's.
#[test]
fn the_long_run_retry_rate_at_full_failure() {
    for instances in [1, 20, 100] {
        let base = format!(
            "v=1&attempts=4&failure=1&workers=0&rate=100&horizon=100&buckets=100&instances={instances}"
        );
        long_run_retry_rate(&base);
    }
}

fn long_run_retry_rate(base: &str) {
    for budget in [
        "budget=none",
        "budget=ratio&b_basis=requests",
        "budget=ratio",
        "budget=bucket",
        "budget=token-bucket",
        "budget=aws-quota",
        // Adaptive mode adds a rate limiter that only a 429 starts: the
        // quota alone binds on these 503s.
        "budget=aws-adaptive",
        "budget=sre",
    ] {
        let link = format!("{base}&{budget}");
        let (card, report) = run(&link);
        let expected = card.retries_at_full_failure.expect("a rate");
        let series = &report.series;
        let half = series.len() / 2;
        let count: u64 = series.retries[half..series.len()].iter().sum();
        let seconds = (series.len() - half) as f64 * series.width;
        let measured = count as f64 / seconds;
        let tolerance = 4.0 * (count as f64).sqrt() / seconds + 1.0;
        assert!(
            (measured - expected).abs() <= tolerance,
            "{budget}: {measured} retries a second against {expected} (within {tolerance})"
        );
    }
}

/// A full AWS quota at 100 % failure pays for exactly its reservoir of
/// retries, floor(500 / 5) = 100 an instance, and none after: no success
/// refunds it. A fleet's instances each spend their own: 20 of them pay
/// for 2 000 retries, 100 for 10 000, at 3 retries an operation lasting
/// 6.7 s and 33 s at 100 operations a second (the horizon outlasts both,
/// every instance seeing about one operation a second or more).
#[test]
fn the_quota_pays_for_its_reservoir_and_no_more() {
    for (instances, horizon) in [(1, 20), (20, 20), (100, 90)] {
        let (card, report) = run(&format!(
            "v=1&attempts=4&failure=1&workers=0&rate=100&horizon={horizon}&budget=aws-quota&instances={instances}"
        ));
        let reservoir = 100.0 * f64::from(instances);
        assert_eq!(card.reservoir, Some(reservoir));
        assert_eq!(report.summary.retries as f64, reservoir, "{instances}");
        let lasts = card.reservoir_seconds.expect("it lasts");
        assert!((lasts - reservoir / 300.0).abs() < 1e-12, "{lasts}");
    }
}

/// A ratio budget's floor is each instance's: it lets each instance retry
/// 10 a second whatever its traffic, so the fleet's threshold rises with
/// the floor over each instance's arrivals. 300 operations a second, 3
/// attempts, 20 % of successes (or of first tries) plus 10 a second over
/// 10 s: one instance binds near 19 % failure, 20 near 53 % (the issue's
/// "near 54 %", where a card for one instance said 17 %), and 100
/// instances, 3 operations a second each, never, since 2 retries an
/// operation are under the floor's 3.3. In the second half of 60 s:
/// - at 0.6 times the threshold the retries ask for at most 60 % of the
///   allowance in a window (a Poisson count of 60 or more, sd 8, under
///   the 100 the floor alone gives): under 1 in 1 000 refused;
/// - at 1.5 times it they ask for more than they are allowed, and at
///   least half of that excess an operation is refused (a refusal ends
///   its operation, so the rest never asks);
/// - with no threshold, at 100 % failure, the floor pays for every retry.
#[test]
fn a_fleets_floors_raise_the_ratio_budgets_threshold() {
    for basis in ["b_basis=successes", "b_basis=requests"] {
        for instances in [1, 20, 100] {
            let base = format!(
                "v=1&attempts=3&workers=0&rate=300&horizon=60&buckets=60&budget=ratio&{basis}&instances={instances}"
            );
            let card = card(&world(&base));
            let refused = |failure: f64| -> (f64, f64) {
                let report = simulate::run(&world(&format!("{base}&failure={}", round(failure))));
                let s = &report.series;
                let half = s.len() / 2;
                let refused: u64 = s.budget_refusals[half..].iter().sum();
                let attempts: u64 = s.first_tries[half..].iter().sum::<u64>()
                    + s.retries[half..].iter().sum::<u64>();
                let operations = 300.0 * (s.len() - half) as f64 * s.width;
                (
                    refused as f64 / (attempts + refused) as f64,
                    refused as f64 / operations,
                )
            };
            let Some(p) = card.drains_above else {
                assert_eq!(instances, 100, "{basis}");
                let (share, _) = refused(1.0);
                assert!(share < 0.001, "{basis}, {instances}: {share} refused");
                continue;
            };
            let floor_share = 10.0 / (300.0 / f64::from(instances));
            let expected = match (basis, instances) {
                (_, 1) => 0.15..0.25,
                _ => 0.45..0.6,
            };
            assert!(expected.contains(&p), "{basis}, {instances}: {p}");
            let (below, _) = refused(0.6 * p);
            assert!(
                below < 0.001,
                "{basis}, {instances}: {below} refused below {p}"
            );
            let q: f64 = 1.5 * p;
            let deposits = match basis {
                "b_basis=successes" => 1.0 - q.powi(3),
                _ => 1.0,
            };
            let excess = q + q * q - 0.2 * deposits - floor_share;
            let (_, per_operation) = refused(q);
            assert!(
                per_operation > 0.5 * excess,
                "{basis}, {instances}: {per_operation} refused an operation above {p}, excess {excess}"
            );
        }
    }
}

/// Below the card's threshold the budget keeps its balance near full;
/// above it the balance drains. Independent failures at 0.6 and 1.5 times
/// the threshold, 40 operations a second for each instance and 160 more
/// (1, 20 and 100 instances, each its own budget) for 60 s, the balance averaged
/// over the second half. A balance that moves by X an attempt, capped
/// (or floored) on the side it drifts to with mean mu, waits about
/// E[X^2] / (2 |mu|) from it (a reflected random walk). gRPC's bucket (10
/// tokens, -1 a failure, +0.1 a success, threshold 1/11): 0.78 below the
/// full 10, 1.4 above the empty 0, so over 8 and under 3. The AWS quota
/// (500, cost 5, 3 attempts, threshold 0.321): it gains 0.6 an operation
/// below and stays within tokens of 500, over 450; above it loses 1.2 an
/// operation, at 41.6 operations a second an instance or more at least
/// 1 000 more than it holds in the first half, and stays
/// within a retry's cost or two of empty, under 50. AWS adaptive mode keeps
/// the same quota, its rate limiter idle without a 429.
#[test]
fn budgets_drain_above_the_cards_threshold_and_hold_below() {
    let level = |link: &str| -> f64 {
        let report = simulate::run(&world(link));
        let levels = &report.series.budget_level;
        let half = &levels[levels.len() / 2..];
        half.iter().sum::<f64>() / half.len() as f64
    };
    // A fleet's instances each drain their own: their arrivals rise with
    // their count so that each sees at least 40 operations a second, and
    // a quota still drains in the first half.
    for instances in [1, 20, 100] {
        let rate = 40 * instances + 160;
        for (budget, full, held, drained) in [
            ("budget=token-bucket", 10.0, 8.0, 3.0),
            ("budget=aws-quota", 500.0, 450.0, 50.0),
            ("budget=aws-adaptive", 500.0, 450.0, 50.0),
        ] {
            let base = format!(
                "v=1&attempts=3&workers=0&rate={rate}&horizon=60&{budget}&instances={instances}"
            );
            let p = card(&world(&base)).drains_above.expect("a threshold");
            let below = level(&format!("{base}&failure={}", round(0.6 * p)));
            let above = level(&format!("{base}&failure={}", round(1.5 * p)));
            assert!(
                below >= held && below <= full,
                "{budget}: {below} below {p}"
            );
            assert!(above < drained, "{budget}: {above} above {p}");
        }
    }
}

/// A failure rate as a link writes it.
fn round(p: f64) -> f64 {
    (p * 1e4).round() / 1e4
}

/// The budgets that cap retries at a share bind above the card's
/// threshold and not below it, in the second half of a run (the SRE
/// throttle's two-minute window starts empty, and rejects while it fills).
/// 200 operations a second for 60 s, 3 attempts, failures at 0.6 and 1.5
/// times the threshold. Below it no budget refuses more than 1 attempt in
/// 1 000. Above it a ratio budget of 20 % of requests (no floor) is asked
/// for p + p^2 = 0.32 retries an operation and Brooker's bucket (a deposit
/// of 0.1) for 0.16: each refuses at least half that excess, the rest
/// ending operations before their next retry; the SRE throttle (K = 2,
/// threshold 1 - 1/K) rejects most attempts, first tries included.
#[test]
fn share_budgets_bind_above_the_cards_threshold_and_not_below() {
    for (budget, share) in [
        ("budget=ratio&b_basis=requests&b_floor=0", 0.2),
        ("budget=bucket", 0.1),
        ("budget=sre", f64::NAN),
    ] {
        let base = format!("v=1&attempts=3&workers=0&rate=200&horizon=60&buckets=60&{budget}");
        let p = card(&world(&base)).drains_above.expect("a threshold");
        let second_half = |failure: f64| -> (f64, f64) {
            let report = simulate::run(&world(&format!("{base}&failure={}", round(failure))));
            let s = &report.series;
            let half = s.len() / 2;
            let refused: u64 = s.budget_refusals[half..].iter().sum();
            let attempts: u64 =
                s.first_tries[half..].iter().sum::<u64>() + s.retries[half..].iter().sum::<u64>();
            let operations = 200.0 * (s.len() - half) as f64 * s.width;
            (
                refused as f64 / (attempts + refused) as f64,
                refused as f64 / operations,
            )
        };
        let (share_below, _) = second_half(0.6 * p);
        assert!(
            share_below < 0.001,
            "{budget}: {share_below} refused below {p}"
        );
        let q = 1.5 * p;
        let (share_above, per_operation) = second_half(q);
        if share.is_nan() {
            assert!(
                share_above > 0.5,
                "{budget}: {share_above} refused above {p}"
            );
        } else {
            let excess = q + q * q - share;
            assert!(
                per_operation > 0.5 * excess,
                "{budget}: {per_operation} refused an operation above {p}, excess {excess}"
            );
        }
    }
}

/// Envoy's budget, a cap on retries in flight of 20 % of the requests in
/// flight (at least 3), binds above the card's threshold, where the
/// retries an operation asks for, r = p + p^2 + p^3 at 4 attempts, make
/// more than 20 % of the requests in flight: r / (1 + r) > 0.2, p above
/// 0.2013. The card's figure assumes calls that take alike and pauses
/// short beside them, which this world has: every call 0.1 s, pauses
/// under 4 ms. At 20 000 operations a second some 2 400 requests are in
/// flight, far over the 15 from which the share, not the minimum, sets
/// the cap. Close on each side of the threshold, so that a figure off by
/// a tenth fails (r / (1 + r) against r itself would put it at 0.168):
/// - at 0.85 times it the retries hold 17 % of the places, about 390 of
///   480 allowed, a gap of 4 sd of the two Poisson counts
///   (sqrt(410 + 0.2^2 x 2 410) = 22): under 1 retry in 1 000 refused;
/// - at 1.15 times it they ask for 23 %, r = 0.30 against the 0.25 the cap
///   lets through, and it turns away at least a third of that excess.
#[test]
fn envoys_budget_binds_above_the_cards_threshold_and_not_below() {
    let base = "v=1&budget=envoy&attempts=4&base=0.001&cap=0.004&timeout=0&rate=20000&horizon=6\
                &buckets=12&workers=0&service=constant&service_t=0.1&hop=constant&hop_mean=0";
    let card = card(&world(base));
    let p = card.drains_above.expect("a threshold");
    let r = |p: f64| p + p * p + p * p * p;
    assert!((r(p) - 0.25).abs() < 1e-9, "{p}");
    assert_eq!(card.share_from_in_flight, Some(15.0));
    let second_half = |failure: f64| -> (f64, f64) {
        let report = simulate::run(&world(&format!("{base}&failure={}", round(failure))));
        let s = &report.series;
        let half = s.len() / 2;
        let refused: u64 = s.budget_refusals[half..].iter().sum();
        let retries: u64 = s.retries[half..].iter().sum();
        let operations = 20_000.0 * (s.len() - half) as f64 * s.width;
        (
            refused as f64 / (retries + refused) as f64,
            refused as f64 / operations,
        )
    };
    let (below, _) = second_half(0.85 * p);
    assert!(below < 0.001, "{below} of the retries refused below {p}");
    let q = 1.15 * p;
    let (_, per_operation) = second_half(q);
    let excess = r(q) - 0.25;
    assert!(
        per_operation > excess / 3.0,
        "{per_operation} refused an operation above {p}, excess {excess}"
    );
}
