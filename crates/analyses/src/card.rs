//! The guarantee card: what a policy can do to the service below at worst,
//! in closed form from its settings alone, each figure held by a test to
//! what the simulator measures.
//!
//! - The calls at the bottom of the chain per operation when every call
//!   fails: each layer multiplies by its attempts (or its hedged copies),
//!   the last by its fan-out.
//! - The retries a second the top layer sends in the long run when every
//!   call fails, at the arrival rate, once any reservoir is spent.
//! - The reservoir: how many retries a full budget pays for at 100 %
//!   failure before it stops, and how long that lasts.
//! - The failure rate above which the budget drains (or, for a budget
//!   that caps retries at a share, binds): the share `p` of attempts that
//!   fail, independently, at which the budget's expected balance per
//!   operation turns negative. Envoy's, a cap on retries in flight, binds
//!   there once its share of the requests in flight is more than its
//!   minimum.
//!
//! Each is for the whole fleet of the world's client instances, each
//! with a budget of its own that sees its share of the arrivals (they go
//! to instances uniformly): a floor is each instance's, so a fleet of 20
//! is allowed 20 floors, and a reservoir is each instance's, so it lasts
//! 20 times as long. It is the top layer's budget: a layer
//! below keeps a budget of its own (of the policy's kind, or the one
//! `lk_budget` names, or none), which the worst case, every budget spent,
//! does not count on. The
//! deadline does not cut the worst case here: an attempt that fails at
//! once takes no time.

use crate::analysis::{Analysis, Printed};
use retry_core::budget::{BudgetKind, RatioBasis};
use retry_core::words::Text;
use retry_sim::config::Config;
use retry_sim::sim::WorkloadKind;

/// A policy's guarantees.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Card {
    /// Calls at the bottom per operation when every call fails.
    pub worst_calls: f64,
    /// The factors of `worst_calls`, the top layer's attempts first.
    pub worst_factors: Vec<u32>,
    /// Retries a second the top sends in the long run when every call
    /// fails; `None` where the budget limits retries in flight, not a
    /// rate, and where operations do not arrive at a rate (a crowd, a
    /// closed loop).
    pub retries_at_full_failure: Option<f64>,
    /// Retries a full budget pays for at 100 % failure before it stops,
    /// where it has a reservoir.
    pub reservoir: Option<f64>,
    /// How long that reservoir lasts at the arrival rate, in seconds.
    pub reservoir_seconds: Option<f64>,
    /// The share of attempts failing (independently) above which the
    /// budget drains or binds; `None` where it never does.
    pub drains_above: Option<f64>,
    /// `drains_above` is a lower bound, not the threshold: a ratio
    /// budget's floor raises the threshold by the floor over each
    /// instance's arrival rate, and operations here do not arrive at a
    /// rate.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub drains_at_least: bool,
    /// The same when the failures are timeouts, where they cost more.
    pub drains_above_timeouts: Option<f64>,
    /// A budget of retries in flight (Envoy's): the most the fleet lets
    /// through at once however few requests are, each instance's minimum;
    /// and the requests in flight beyond which its share, not the minimum,
    /// sets the cap, where `drains_above` holds (spread evenly over the
    /// instances).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_flight_minimum: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub share_from_in_flight: Option<f64>,
    /// The client instances all of this is for.
    pub instances: u32,
}

/// The card of the policy `config` describes (policy A's settings; pass
/// policy B's config for B's).
pub fn card(config: &Config) -> Card {
    let s = config.scenario();
    let count = s.layers.max(1);
    // A hedging layer sends its copies instead of retrying, all of them
    // when every call fails; a fan-out multiplies the last layer's calls,
    // and hedges each of them on its own.
    let tries = |layer: u32| match s.policy.hedge && s.fan_out == 1 {
        true => s.policy.hedge_copies,
        false => s.attempts_of_layer(layer),
    };
    let mut worst_factors: Vec<u32> = (0..count).map(tries).collect();
    if s.fan_out > 1 {
        worst_factors.push(s.fan_out);
        if s.policy.hedge {
            worst_factors.push(s.policy.hedge_copies);
        }
    }
    let worst_calls = worst_factors.iter().map(|&f| f64::from(f)).product();
    let a = tries(0);
    let rate = s.rate;
    let all_retries = rate * f64::from(a.saturating_sub(1));
    let b = &s.budget;
    // Rates need arrivals at a rate.
    let open = s.workload == WorkloadKind::Poisson;
    let instances = s.instances.max(1);
    let fleet = f64::from(instances);
    // Each instance's share of the arrivals, and of the retries they ask
    // for when every call fails.
    let each = rate / fleet;
    let each_retries = all_retries / fleet;
    // A ratio budget's floor over an instance's arrivals: the retries an
    // operation may make beyond its share.
    let floor_share = match b.ratio.min_per_second {
        floor if floor > 0.0 && open => floor / each,
        _ => 0.0,
    };
    // The expected retries of an operation whose attempts fail with p.
    let retries = |p: f64| (1..a).map(|k| p.powi(k as i32)).sum::<f64>();
    let (retries_at_full_failure, reservoir, drains_above, drains_above_timeouts) = match b.kind {
        BudgetKind::None => (Some(all_retries), None, None, None),
        BudgetKind::Ratio => {
            let floor = b.ratio.min_per_second;
            // Each instance's allowance, in retries a second, and where
            // its retries outgrow it.
            let (at_full, binds) = match b.ratio.basis {
                // Deposits are first tries: retries bind at a share of them.
                RatioBasis::Requests => (
                    b.ratio.percent * each + floor,
                    root(|p| retries(p) - b.ratio.percent - floor_share),
                ),
                // Deposits are successes, none at 100 % failure.
                RatioBasis::Successes => (
                    floor,
                    root(|p| retries(p) - b.ratio.percent * (1.0 - p.powi(a as i32)) - floor_share),
                ),
            };
            (Some(fleet * at_full.min(each_retries)), None, binds, binds)
        }
        BudgetKind::TokenBucket => {
            // A failed attempt takes a token, a successful one gives back
            // `ratio`: the balance falls when p > ratio / (1 + ratio).
            let p = b.token_bucket.token_ratio / (1.0 + b.token_bucket.token_ratio);
            (Some(0.0), None, (a > 1).then_some(p), (a > 1).then_some(p))
        }
        BudgetKind::AwsQuota | BudgetKind::AwsAdaptive => {
            // A retry withdraws its cost; a success refunds the cost of the
            // retry that made it, or adds the increment if it was a first
            // try. Per operation: (1 - p) increment - cost x (expected
            // retries that no success refunds).
            let net = |cost: f64| {
                move |p: f64| {
                    let unrefunded: f64 = (1..a)
                        .map(|k| p.powi(k as i32) * (1.0 - p) * f64::from(k - 1))
                        .sum::<f64>()
                        + p.powi(a as i32) * f64::from(a - 1);
                    cost * unrefunded - (1.0 - p) * b.quota.no_retry_increment
                }
            };
            let pays = fleet * (b.quota.quota / b.quota.retry_cost).floor();
            (
                Some(0.0),
                Some(pays),
                root(net(b.quota.retry_cost)),
                root(net(b.quota.timeout_cost)),
            )
        }
        BudgetKind::Bucket => {
            // Every first try deposits, a retry takes one while the balance
            // is above one.
            let binds = root(|p| retries(p) - b.bucket.bucket_deposit);
            (
                Some((b.bucket.bucket_deposit * rate).min(all_retries)),
                Some(fleet * (b.bucket.bucket_size - 1.0).max(0.0).ceil()),
                binds,
                binds,
            )
        }
        BudgetKind::Sre => {
            // Attempts are rejected once requests exceed K accepts: when
            // fewer than 1 / K are accepted. At 100 % failure nothing is.
            let p = 1.0 - 1.0 / b.sre.sre_k;
            (Some(0.0), None, Some(p), Some(p))
        }
        BudgetKind::Envoy => {
            // Retries in flight at most a share of the requests in flight.
            // Where every call takes about as long and the pauses are short
            // beside a call, Little's law makes the retries r / (1 + r) of
            // the requests in flight, r the retries an operation asks for:
            // the share binds once that is more than it.
            let share = b.envoy.envoy_percent;
            let binds = (share > 0.0 && share < 1.0)
                .then(|| root(|p| retries(p) - share / (1.0 - share)))
                .flatten();
            (None, None, binds, binds)
        }
    };
    let (in_flight_minimum, share_from_in_flight) = match b.kind {
        BudgetKind::Envoy => (
            Some(fleet * b.envoy.envoy_min),
            (b.envoy.envoy_percent > 0.0)
                .then(|| fleet * b.envoy.envoy_min / b.envoy.envoy_percent),
        ),
        _ => (None, None),
    };
    let drains_at_least = drains_above.is_some()
        && !open
        && b.kind == BudgetKind::Ratio
        && b.ratio.min_per_second > 0.0;
    let retries_at_full_failure = retries_at_full_failure.filter(|_| open);
    let reservoir_seconds = reservoir
        .filter(|_| open && all_retries > 0.0)
        .map(|r| r / all_retries);
    Card {
        worst_calls,
        worst_factors,
        retries_at_full_failure,
        reservoir,
        reservoir_seconds,
        drains_above,
        drains_at_least,
        drains_above_timeouts,
        in_flight_minimum,
        share_from_in_flight,
        instances,
    }
}

/// The failure rate in (0, 1) where `excess`, rising in it, crosses zero;
/// `None` where it stays below (the budget never binds) or starts above.
fn root(excess: impl Fn(f64) -> f64) -> Option<f64> {
    let (mut low, mut high) = (0.0, 1.0);
    if excess(high) <= 0.0 || excess(low) > 0.0 {
        return None;
    }
    for _ in 0..60 {
        let mid = 0.5 * (low + high);
        if excess(mid) > 0.0 {
            high = mid;
        } else {
            low = mid;
        }
    }
    Some(0.5 * (low + high))
}

/// The card as an analysis: closed forms, no run.
pub const ANALYSIS: Analysis = Analysis {
    word: Text("card"),
    options: &[],
    synopsis: "",
    help: Text(
        "The policy's guarantees in closed form, as JSON (A's and B's in compare mode): the calls at the bottom when every call fails, its retries a second then, its budget's reservoir and the failure rate above which the budget drains.",
    ),
    seeds: 0,
    budget: None,
    refusal: |_| None,
    print: |config, _| {
        let card = |c: &Config| serde_json::to_value(card(c)).unwrap_or_default();
        let json = match config.comparing() {
            false => card(config),
            true => serde_json::json!({ "a": card(config), "b": card(&config.policy_b_config()) }),
        };
        Ok(Printed::out(json.to_string()))
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    fn card_of(link: &str) -> Card {
        let (config, notices) = Config::from_link(link);
        assert!(notices.is_empty(), "{notices:?}");
        card(&config)
    }

    /// The thresholds the issue names: the AWS quota drains above 0.321 of
    /// failures at a retry cost of 5 and 0.215 at 14 (3 attempts); gRPC's
    /// 10 / 0.1 throttle above 1 / 11.
    #[test]
    fn the_published_thresholds() {
        let aws = card_of("v=1&attempts=3&budget=aws-quota");
        let p = aws.drains_above.expect("a quota drains");
        assert!((p - 0.321).abs() < 0.0005, "{p}");
        assert_eq!(aws.reservoir, Some(100.0));
        let costly = card_of("v=1&attempts=3&budget=aws-quota&q_cost=14");
        let p = costly.drains_above.expect("a quota drains");
        assert!((p - 0.215).abs() < 0.0005, "{p}");
        let grpc = card_of("v=1&attempts=3&budget=token-bucket");
        assert_eq!(grpc.drains_above, Some(0.1 / 1.1));
        assert_eq!(grpc.retries_at_full_failure, Some(0.0));
    }

    #[test]
    fn the_worst_case_multiplies_every_layer() {
        let chain = card_of("v=1&attempts=3&layers=3&l2_attempts=2&l3_attempts=4");
        assert_eq!(chain.worst_factors, [3, 2, 4]);
        assert_eq!(chain.worst_calls, 24.0);
        let none = card_of("v=1&attempts=4&rate=50");
        assert_eq!(none.retries_at_full_failure, Some(150.0));
        assert_eq!(none.drains_above, None);
    }
}
