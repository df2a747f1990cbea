//! The table: every parameter's row, the options of those that are
//! choices, and when each applies.

use super::Config;
use super::choices::{
    BALANCES, BASES, BREAKER_AT, BREAKERS, BUDGETS, CHARGES_AT, FAN_WAITS, FAULTS_ON, FIND_WORLDS,
    FindWorlds, HINT_FORMS, HINT_JITTER_AT, HOP_BUDGETS, HOP_JITTERS, HOP_SHAPES, JITTERS,
    MAP_ROWS, MapRows, OUTAGES, QUEUE_ORDERS, RETRY_ONS, SERVICE_SHAPES, SHAPES, SPREADS, SWEEPS,
    SWITCH, SweepCurves, WORKLOADS, hop_budget, hop_budget_position, hop_jitter, hop_shape,
};
use crate::sim::{Fault, Scenario, ServiceShape, Spread, WorkloadKind};
use retry_core::breaker::BreakerMode;
use retry_core::budget::{BudgetKind, Spec};
use retry_core::policy::{Jitter, Shape};
use retry_core::range::{self, Range};
use retry_core::words::Text;

/// Where a parameter sits on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    Policy,
    Budget,
    Workload,
    Server,
    Layers,
    Randomness,
    Search,
}

impl Group {
    pub const ALL: [Group; 7] = [
        Group::Policy,
        Group::Budget,
        Group::Workload,
        Group::Server,
        Group::Layers,
        Group::Randomness,
        Group::Search,
    ];

    pub fn title(self) -> Text {
        match self {
            Group::Policy => Text("Policy"),
            Group::Budget => Text("Retry budget & breaker"),
            Group::Workload => Text("Workload"),
            Group::Server => Text("Server & faults"),
            Group::Layers => Text("Layers"),
            Group::Randomness => Text("Randomness"),
            Group::Search => Text("Find a better policy"),
        }
    }
}

/// The kind of value a parameter holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// A real number in `[min, max]`, moved in `step`s by the slider.
    Number { min: f64, max: f64, step: f64 },
    /// A whole number in `[min, max]`.
    Integer { min: f64, max: f64 },
    /// One of named options, stored as its index: the words links use,
    /// then the labels the page's list shows.
    Choice(&'static [&'static str], &'static [Text]),
}

/// One row of the table.
#[derive(Debug)]
pub struct Param {
    pub key: &'static str,
    pub label: Text,
    pub unit: Text,
    pub group: Group,
    pub kind: Kind,
    pub default: f64,
    pub help: Text,
    /// Whether the parameter matters under the other settings; the page dims
    /// it when not, instead of silently ignoring it.
    pub applies: fn(&Config) -> bool,
    /// Writes a value into the simulator's scenario: [`Config::scenario`]
    /// is these, row after row, over the default scenario. `None` for the
    /// two the simulator never sees, which the page reads from the
    /// configuration itself: compare mode and what the sweep compares.
    pub scenario: Option<fn(&mut Scenario, f64)>,
}

fn always(_: &Config) -> bool {
    true
}

/// The table is written as rows: one parameter each, then one per setting
/// that each service below the top has of its own, then one each again.
/// A per-service row stands for four parameters, `l2_…` to `l5_…`, and
/// `P::LAYER_…` lists them in order; in its default, its `applies` and its
/// write into the scenario, `AT` is the service's index in the scenario's
/// per-service arrays (0 for layer 2).
macro_rules! params {
    (
        $($name:ident: $key:literal, $label:expr, $unit:expr, $group:ident, $kind:expr, $default:expr, $applies:expr, $scenario:expr, $help:expr;)*
        @each service below the top:
        $($all:ident [$l2:ident, $l3:ident, $l4:ident, $l5:ident]: $skey:literal, [$label2:expr, $label3:expr, $label4:expr, $label5:expr],
            $sunit:expr, $skind:expr, $sdefault:expr, |$c:ident| $sapplies:expr, |$s:ident, $v:ident| $swrite:expr, $shelp:expr;)*
        @then:
        $($tname:ident: $tkey:literal, $tlabel:expr, $tunit:expr, $tgroup:ident, $tkind:expr, $tdefault:expr, $tapplies:expr, $tscenario:expr, $thelp:expr;)*
    ) => {
        /// Names of the parameters, in table order.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum P { $($name,)* $($l2, $l3, $l4, $l5,)* $($tname),* }

        impl P {
            /// Every parameter, in table order: `P::ALL[i]` is `PARAMS[i]`'s.
            pub const ALL: &[P] = &[$(P::$name,)* $(P::$l2, P::$l3, P::$l4, P::$l5,)* $(P::$tname),*];
            $(
                /// One setting of each service below the top, layer 2 first.
                pub const $all: [P; 4] = [P::$l2, P::$l3, P::$l4, P::$l5];
            )*
        }

        /// The table.
        pub static PARAMS: &[Param] = &[
            $(params!(@row $key, $label, $unit, $group, $kind, $default, $applies, $scenario, $help),)*
            $(
                params!(@service 0, "l2_", $skey, $label2, $sunit, $skind, $sdefault, |$c| $sapplies, |$s, $v| $swrite, $shelp),
                params!(@service 1, "l3_", $skey, $label3, $sunit, $skind, $sdefault, |$c| $sapplies, |$s, $v| $swrite, $shelp),
                params!(@service 2, "l4_", $skey, $label4, $sunit, $skind, $sdefault, |$c| $sapplies, |$s, $v| $swrite, $shelp),
                params!(@service 3, "l5_", $skey, $label5, $sunit, $skind, $sdefault, |$c| $sapplies, |$s, $v| $swrite, $shelp),
            )*
            $(params!(@row $tkey, $tlabel, $tunit, $tgroup, $tkind, $tdefault, $tapplies, $tscenario, $thelp),)*
        ];
    };
    (@row $key:literal, $label:expr, $unit:expr, $group:ident, $kind:expr, $default:expr, $applies:expr, $scenario:expr, $help:expr) => {
        Param {
            key: $key,
            label: $label,
            unit: $unit,
            group: Group::$group,
            kind: $kind,
            default: $default as f64,
            help: $help,
            applies: $applies,
            scenario: $scenario,
        }
    };
    (@service $at:literal, $prefix:literal, $key:literal, $label:expr, $unit:expr, $kind:expr, $default:expr,
        |$c:ident| $applies:expr, |$s:ident, $v:ident| $write:expr, $help:expr) => {
        Param {
            key: concat!($prefix, $key),
            label: $label,
            unit: $unit,
            group: Group::Layers,
            kind: $kind,
            default: {
                // A default the same at every layer does not read it.
                #[allow(dead_code)]
                const AT: usize = $at;
                $default as f64
            },
            help: $help,
            applies: |$c: &Config| {
                const AT: usize = $at;
                $applies
            },
            scenario: Some(|$s: &mut Scenario, $v: f64| {
                const AT: usize = $at;
                $write
            }),
        }
    };
}

// A kind's settings apply where the policy or a service keeps a budget of
// that kind.
fn ratio(c: &Config) -> bool {
    c.uses_budget(BudgetKind::Ratio)
}
fn token_bucket(c: &Config) -> bool {
    c.uses_budget(BudgetKind::TokenBucket)
}
fn aws_quota(c: &Config) -> bool {
    c.uses_budget(BudgetKind::AwsQuota) || c.uses_budget(BudgetKind::AwsAdaptive)
}
fn sre_throttle(c: &Config) -> bool {
    c.uses_budget(BudgetKind::Sre)
}
fn envoy_budget(c: &Config) -> bool {
    c.uses_budget(BudgetKind::Envoy)
}
fn brooker_bucket(c: &Config) -> bool {
    c.uses_budget(BudgetKind::Bucket)
}
/// A budget or a breaker: state that each client instance keeps.
fn client_state(c: &Config) -> bool {
    c.budget_kind() != BudgetKind::None || c.breaker_mode() != BreakerMode::Off
}
fn with_breaker(c: &Config) -> bool {
    c.breaker_mode() != BreakerMode::Off
}
fn poisson(c: &Config) -> bool {
    c.workload() == WorkloadKind::Poisson
}
fn crowd(c: &Config) -> bool {
    c.workload() != WorkloadKind::Poisson
}
fn starts_together(c: &Config) -> bool {
    matches!(c.workload(), WorkloadKind::Crowd | WorkloadKind::Contention)
}
fn closed_loop(c: &Config) -> bool {
    c.workload() == WorkloadKind::Closed
}
/// Contention models only the shared row: no faults, capacity or timeouts.
fn served(c: &Config) -> bool {
    c.workload() != WorkloadKind::Contention
}
fn fanned(c: &Config) -> bool {
    served(c) && c.get(P::FanOut) > 1.0
}
fn normal_hops(c: &Config) -> bool {
    c.spread(P::Hop) == Spread::Normal
}
fn normal_service(c: &Config) -> bool {
    served(c) && c.service_shape() == ServiceShape::Normal
}
/// A log-normal service is given by its p50 and p99, not its mean.
fn service_mean_set(c: &Config) -> bool {
    served(c) && c.service_shape() != ServiceShape::LogNormal
}
fn lognormal_service(c: &Config) -> bool {
    served(c) && c.service_shape() == ServiceShape::LogNormal
}
fn mixed_service(c: &Config) -> bool {
    served(c) && c.service_shape() == ServiceShape::Mixture
}
fn with_workers(c: &Config) -> bool {
    served(c) && c.get(P::Workers) > 0.0
}
/// Hedging applies to one layer calling a server.
fn hedgeable(c: &Config) -> bool {
    served(c) && c.get(P::Layers) == 1.0
}
fn hedging(c: &Config) -> bool {
    hedgeable(c) && SWITCH.at(c.get(P::Hedge))
}
fn fleet(c: &Config) -> bool {
    served(c) && c.get(P::Servers) > 1.0
}
/// Whether the world can have a fault: its length applies ([`Fault::fits`]).
fn fits(c: &Config, fault: Fault) -> bool {
    fault.fits(c.workload(), c.get(P::Workers) as u32)
}
/// Whether the world has a fault: its start and size apply.
fn has(c: &Config, fault: Fault, length: P) -> bool {
    fits(c, fault) && c.get(length) > 0.0
}
fn outage_fits(c: &Config) -> bool {
    fits(c, Fault::Outage)
}
fn with_outage(c: &Config) -> bool {
    has(c, Fault::Outage, P::OutageFor)
}
fn spike_fits(c: &Config) -> bool {
    fits(c, Fault::Spike)
}
fn with_spike(c: &Config) -> bool {
    has(c, Fault::Spike, P::SpikeFor)
}
fn drop_fits(c: &Config) -> bool {
    fits(c, Fault::CapacityLoss)
}
fn with_drop(c: &Config) -> bool {
    has(c, Fault::CapacityLoss, P::DropFor)
}
fn slow_fits(c: &Config) -> bool {
    fits(c, Fault::LatencySpike)
}
fn with_slow(c: &Config) -> bool {
    has(c, Fault::LatencySpike, P::SlowFor)
}
fn cut_fits(c: &Config) -> bool {
    fits(c, Fault::Partition)
}
fn with_cut(c: &Config) -> bool {
    has(c, Fault::Partition, P::CutFor)
}
/// The client honours a server's Retry-After.
fn honoured(c: &Config) -> bool {
    served(c) && SWITCH.at(c.get(P::HonourRetryAfter))
}
fn hint_jittered(c: &Config) -> bool {
    honoured(c) && c.get(P::HintJitter) > 0.0
}
fn rate_limited(c: &Config) -> bool {
    served(c) && c.get(P::RateLimit) > 0.0
}
fn with_layers(c: &Config) -> bool {
    served(c) && c.get(P::Layers) > 1.0
}
/// Whether the chain has a service at index `at` below the top (layer
/// `at + 2`).
fn has_service(c: &Config, at: usize) -> bool {
    with_layers(c) && c.get(P::Layers) >= (at + 2) as f64
}

/// Where the table's defaults come from: the simulator's default scenario,
/// which holds the policy's, budget's and breaker's.
const D: Scenario = Scenario::DEFAULT;

/// The kind of a service's own budget, if it has one.
const fn own_kind(budget: &Option<Spec>) -> Option<BudgetKind> {
    match budget {
        Some(spec) => Some(spec.kind()),
        None => None,
    }
}

/// How the table stores an optional time: 0 means none.
const fn seconds_or_zero(seconds: Option<f64>) -> f64 {
    match seconds {
        Some(seconds) => seconds,
        None => 0.0,
    }
}

/// The optional time the table stores as `seconds`.
fn seconds_or_none(seconds: f64) -> Option<f64> {
    Some(seconds).filter(|s| *s > 0.0)
}

const fn number(range: Range, step: f64) -> Kind {
    Kind::Number {
        min: range.min,
        max: range.max,
        step,
    }
}
const fn integer(range: Range) -> Kind {
    Kind::Integer {
        min: range.min,
        max: range.max,
    }
}

// Each row: its name, key in a link, label, unit, group, kind and range,
// default and when it applies; then how its value is written into the
// simulator's scenario; then its help.
params! {
    Compare: "compare", Text("Compare with policy B"), Text(""), Policy, SWITCH.kind(), SWITCH.position(false), always,
        None,
        Text("Run a second policy on the same world and seed, and overlay both on every chart.");
    Attempts: "attempts", Text("Attempts"), Text(""), Policy, integer(range::ATTEMPTS), D.policy.attempts, always,
        Some(|s, v| s.policy.attempts = v as u32),
        Text("Tries per operation, counting the first call: 1 means never retry.");
    Shape: "shape", Text("Backoff shape"), Text(""), Policy, SHAPES.kind(), SHAPES.position(D.policy.shape), always,
        Some(|s, v| s.policy.shape = SHAPES.at(v)),
        Text("How the pause ceiling grows with each retry.");
    Base: "base", Text("Base delay"), Text("s"), Policy, number(range::BASE, 0.001), D.policy.base, always,
        Some(|s, v| s.policy.base = v),
        Text("Ceiling of the first pause (and the floor of decorrelated jitter).");
    Cap: "cap", Text("Cap"), Text("s"), Policy, number(range::CAP, 0.001), D.policy.cap, always,
        Some(|s, v| s.policy.cap = v),
        Text("No pause ceiling grows beyond this.");
    Multiplier: "mult", Text("Multiplier"), Text("x"), Policy, number(range::MULTIPLIER, 0.1), D.policy.multiplier, |c| c.shape() == Shape::Exponential,
        Some(|s, v| s.policy.multiplier = v),
        Text("Growth factor of exponential backoff per retry.");
    Jitter: "jitter", Text("Jitter"), Text(""), Policy, JITTERS.kind(), JITTERS.position(D.policy.jitter), always,
        Some(|s, v| s.policy.jitter = JITTERS.at(v)),
        Text("How a random pause is drawn under the ceiling; none makes clients that failed together retry together. Polly's is what Polly v8 does with UseJitter: its DecorrelatedJitterBackoffV2 on an exponential shape, whose factor is always 2, and a quarter either way on the others.");
    JitterFraction: "jfrac", Text("Jitter fraction"), Text(""), Policy, number(range::JITTER_FRACTION, 0.01), D.policy.jitter_fraction, |c| c.jitter() == Jitter::Proportional,
        Some(|s, v| s.policy.jitter_fraction = v),
        Text("Proportional jitter spreads each pause by this fraction either way (0.2 = +-20 %).");
    Timeout: "timeout", Text("Attempt timeout"), Text("s"), Policy, number(range::ATTEMPT_TIMEOUT, 0.01), seconds_or_zero(D.policy.attempt_timeout), served,
        Some(|s, v| s.policy.attempt_timeout = seconds_or_none(v)),
        Text("An attempt with no answer by then counts as failed; 0 means no timeout.");
    Deadline: "deadline", Text("Deadline"), Text("s"), Policy, number(range::DEADLINE, 0.1), seconds_or_zero(D.policy.deadline), always,
        Some(|s, v| s.policy.deadline = seconds_or_none(v)),
        Text("Overall time budget of one operation; 0 means none. No attempt starts once the time left is gone.");
    Hedge: "hedge", Text("Hedged requests"), Text(""), Policy, SWITCH.kind(), SWITCH.position(D.policy.hedge), hedgeable,
        Some(|s, v| s.policy.hedge = SWITCH.at(v)),
        Text("Send copies of a slow call instead of retrying a failed one (gRPC's hedgingPolicy): the first answer wins and the others are cancelled; an error that may pass sends the next copy at once, any other ends the operation. On, the attempts and the backoff are not used, unless with a fan-out, which hedges each of its calls and still retries its attempts; a retry budget gates each copy after the first as it gates retries.");
    HedgeDelay: "hedge_delay", Text("Hedging delay"), Text("s"), Policy, number(range::HEDGE_DELAY, 0.01), D.policy.hedge_delay, hedging,
        Some(|s, v| s.policy.hedge_delay = v),
        Text("How long after a copy the next one goes out while no answer has come; 0 sends them all at once.");
    HedgeCopies: "hedge_max", Text("Copies"), Text(""), Policy, integer(range::HEDGE_COPIES), D.policy.hedge_copies, hedging,
        Some(|s, v| s.policy.hedge_copies = v as u32),
        Text("Copies of the call at most, the first included (gRPC allows 5).");
    HonourRetryAfter: "honour", Text("Honour Retry-After"), Text(""), Policy, SWITCH.kind(), SWITCH.position(D.hints.honour), served,
        Some(|s, v| s.hints.honour = SWITCH.at(v)),
        Text("Wait at least as long as the server's Retry-After asks before retrying a 429 or a 503 that carries one.");
    HintCap: "hint_cap", Text("Retry-After capped at"), Text("s"), Policy, number(range::HINT_CAP, 1.0), D.hints.cap, honoured,
        Some(|s, v| s.hints.cap = v),
        Text("The longest a Retry-After is waited for; a longer one waits this long. 0 means no cap.");
    HintJitter: "hint_jitter", Text("Jitter added to Retry-After"), Text(""), Policy, number(range::HINT_JITTER, 0.01), D.hints.jitter, honoured,
        Some(|s, v| s.hints.jitter = v),
        Text("Up to this share of the Retry-After is drawn at random and added to the wait, so that clients told the same instant do not all come back at it; 0 means none.");
    HintJitterMost: "hint_jitter_max", Text("Retry-After jitter at most"), Text("s"), Policy, number(range::HINT_JITTER_MOST, 1.0), D.hints.jitter_most, hint_jittered,
        Some(|s, v| s.hints.jitter_most = v),
        Text("The most jitter added to a Retry-After, in seconds; 0 means no most.");
    HintJitterAt: "hint_jitter_at", Text("Retry-After jitter added"), Text(""), Policy, HINT_JITTER_AT.kind(), HINT_JITTER_AT.position(D.hints.jitter_at), hint_jittered,
        Some(|s, v| s.hints.jitter_at = HINT_JITTER_AT.at(v)),
        Text("After the cap, the jitter spreads even the capped waits; before it, the cap erases the jitter of every Retry-After above the cap, and those clients come back together again.");
    IdempotencyKey: "idem", Text("Idempotency key"), Text(""), Policy, SWITCH.kind(), SWITCH.position(D.idempotency_key), served,
        Some(|s, v| s.idempotency_key = SWITCH.at(v)),
        Text("One key for all attempts of an operation, so the server acts once; off, a lost response plus a retry makes a duplicate.");
    RetryOn: "retry_on", Text("Retry on"), Text(""), Policy, RETRY_ONS.kind(), RETRY_ONS.position(D.policy.retry_on), served,
        Some(|s, v| s.policy.retry_on = RETRY_ONS.at(v)),
        Text("Which failures a retry follows, as a configuration lists them: the page's rule (429, 502-504, timeouts and lost connections; a 500 once; never a 4xx), Envoy's 5xx, its gateway-error, lost connections alone (Istio's default for plain HTTP since 1.24), or every error, a 4xx included (a client that retries whatever is thrown).");

    Budget: "budget", Text("Retry budget"), Text(""), Budget, BUDGETS.kind(), BUDGETS.position(D.budget.kind), always,
        Some(|s, v| s.budget.kind = BUDGETS.at(v)),
        Text("Limits retries across a client's operations: a share of recent traffic, a gRPC token bucket, the AWS SDK retry quota, or a bucket each first try fills (Brooker's), or the SRE book's adaptive throttling, which rejects first tries too: its rejections are the client's, counted as refusals, not server failures. The AWS SDK's adaptive mode adds to the quota a rate limiter that, from the first 429 on, holds every send back to a rate that falls at each 429 and climbs back as CUBIC does. Envoy's budget limits the retries in flight at once, to a share of the requests in flight and at least a minimum.");
    BudgetChargeAt: "b_charge", Text("Budget charges a retry"), Text(""), Budget, CHARGES_AT.kind(), CHARGES_AT.position(D.budget.charge_at), |c| c.budget_kind() != BudgetKind::None,
        Some(|s, v| s.budget.charge_at = CHARGES_AT.at(v)),
        Text("When it is scheduled, before its pause: asking and paying are one step. Or when it is sent: asked at scheduling, it pays only as it leaves, so retries waiting in backoff hold nothing of the budget, and a thousand failures at once all find it full and all retry.");
    BudgetPercent: "b_pct", Text("Retry share"), Text(""), Budget, number(range::BUDGET_PERCENT, 0.01), D.budget.ratio.percent, ratio,
        Some(|s, v| s.budget.ratio.percent = v),
        Text("Retries allowed per deposit in the window (0.2 = 20 %).");
    BudgetFloor: "b_floor", Text("Floor"), Text("/s"), Budget, number(range::BUDGET_FLOOR, 1.0), D.budget.ratio.min_per_second, ratio,
        Some(|s, v| s.budget.ratio.min_per_second = v),
        Text("Retries per second allowed however little traffic there is.");
    BudgetWindow: "b_window", Text("Window"), Text("s"), Budget, number(range::BUDGET_WINDOW, 0.1), D.budget.ratio.window, ratio,
        Some(|s, v| s.budget.ratio.window = v),
        Text("Length of the sliding window the share is counted over.");
    BudgetBasis: "b_basis", Text("Counts"), Text(""), Budget, BASES.kind(), BASES.position(D.budget.ratio.basis), ratio,
        Some(|s, v| s.budget.ratio.basis = BASES.at(v)),
        Text("What earns retries: successful attempts, or every first try as Finagle's RetryBudget counts.");
    Tokens: "tokens", Text("Max tokens"), Text(""), Budget, number(range::MAX_TOKENS, 1.0), D.budget.token_bucket.max_tokens, token_bucket,
        Some(|s, v| s.budget.token_bucket.max_tokens = v),
        Text("Bucket size; a failure takes 1, a retry is allowed only above half.");
    TokenRatio: "t_ratio", Text("Token ratio"), Text(""), Budget, number(range::TOKEN_RATIO, 0.01), D.budget.token_bucket.token_ratio, token_bucket,
        Some(|s, v| s.budget.token_bucket.token_ratio = v),
        Text("Tokens a success puts back.");
    Quota: "quota", Text("Retry quota"), Text(""), Budget, number(range::QUOTA, 1.0), D.budget.quota.quota, aws_quota,
        Some(|s, v| s.budget.quota.quota = v),
        Text("Tokens in the shared quota; a success refunds what its retry cost.");
    QuotaCost: "q_cost", Text("Retry cost"), Text(""), Budget, number(range::RETRY_COST, 1.0), D.budget.quota.retry_cost, aws_quota,
        Some(|s, v| s.budget.quota.retry_cost = v),
        Text("Tokens a retry takes after an error.");
    QuotaTimeoutCost: "q_tcost", Text("Timeout retry cost"), Text(""), Budget, number(range::TIMEOUT_COST, 1.0), D.budget.quota.timeout_cost, aws_quota,
        Some(|s, v| s.budget.quota.timeout_cost = v),
        Text("Tokens a retry takes after a timeout.");
    BucketSize: "bk_size", Text("Bucket size"), Text(""), Budget, number(range::BUCKET_SIZE, 1.0), D.budget.bucket.bucket_size, brooker_bucket,
        Some(|s, v| s.budget.bucket.bucket_size = v),
        Text("Tokens the bucket holds, and starts with; a retry goes out only while more than 1 is left, and takes 1.");
    BucketDeposit: "bk_deposit", Text("Deposit"), Text(""), Budget, number(range::BUCKET_DEPOSIT, 0.01), D.budget.bucket.bucket_deposit, brooker_bucket,
        Some(|s, v| s.budget.bucket.bucket_deposit = v),
        Text("Tokens each first try puts in, up to the size.");
    SreK: "sre_k", Text("Throttle K"), Text("x"), Budget, number(range::SRE_K, 0.1), D.budget.sre.sre_k, sre_throttle,
        Some(|s, v| s.budget.sre.sre_k = v),
        Text("The client rejects an attempt itself with probability (requests - K x accepts) / (requests + 1): the backend sees about K times what it accepts.");
    SreWindow: "sre_window", Text("Throttle window"), Text("s"), Budget, number(range::SRE_WINDOW, 1.0), D.budget.sre.sre_window, sre_throttle,
        Some(|s, v| s.budget.sre.sre_window = v),
        Text("How far back the client counts its requests and the backend's accepts.");
    EnvoyPercent: "ev_pct", Text("Retries in flight, share"), Text(""), Budget, number(range::ENVOY_PERCENT, 0.01), D.budget.envoy.envoy_percent, envoy_budget,
        Some(|s, v| s.budget.envoy.envoy_percent = v),
        Text("Retries in flight allowed as a share of the requests in flight (0.2 = 20 %, Envoy's budget_percent); 0 leaves only the minimum, Envoy's default max_retries.");
    EnvoyMin: "ev_min", Text("Retries in flight, at least"), Text(""), Budget, integer(range::ENVOY_MIN), D.budget.envoy.envoy_min, envoy_budget,
        Some(|s, v| s.budget.envoy.envoy_min = v),
        Text("Retries in flight allowed however few requests are (Envoy's min_retry_concurrency, and its max_retries without a budget).");
    Breaker: "breaker", Text("Circuit breaker"), Text(""), Budget, BREAKERS.kind(), BREAKERS.position(D.breaker.mode), always,
        Some(|s, v| s.breaker.mode = BREAKERS.at(v)),
        Text("Fails fast for a while once most recent attempts failed: breaking every attempt, or only retries.");
    BreakerRatio: "cb_ratio", Text("Trip ratio"), Text(""), Budget, number(range::BREAKER_RATIO, 0.01), D.breaker.failure_ratio, with_breaker,
        Some(|s, v| s.breaker.failure_ratio = v),
        Text("The breaker opens when at least this share of the window's attempts failed (0.5 = half).");
    BreakerWindow: "cb_window", Text("Breaker window"), Text("s"), Budget, number(range::BREAKER_WINDOW, 0.1), D.breaker.window, with_breaker,
        Some(|s, v| s.breaker.window = v),
        Text("Length of the sliding window the failure ratio is counted over.");
    BreakerMin: "cb_min", Text("Minimum attempts"), Text(""), Budget, integer(range::BREAKER_MIN), D.breaker.min_requests, with_breaker,
        Some(|s, v| s.breaker.min_requests = v as u32),
        Text("Outcomes the window must hold before the breaker may open.");
    BreakerCool: "cb_cool", Text("Cool-down"), Text("s"), Budget, number(range::COOL_DOWN, 0.1), D.breaker.cool_down, with_breaker,
        Some(|s, v| s.breaker.cool_down = v),
        Text("How long an open breaker refuses everything it breaks before letting probes through.");
    BreakerProbes: "cb_probes", Text("Probes"), Text(""), Budget, integer(range::PROBES), D.breaker.probes, with_breaker,
        Some(|s, v| s.breaker.probes = v as u32),
        Text("Attempts let through half-open: if all succeed it closes, one failure opens it again.");
    BreakerAt: "cb_at", Text("Breaker counts"), Text(""), Budget, BREAKER_AT.kind(), BREAKER_AT.position(D.breaker.at), with_breaker,
        Some(|s, v| s.breaker.at = BREAKER_AT.at(v)),
        Text("Each attempt, as a breaker inside the retry loop does; or each operation, as one around it does, which is asked only for an operation's first attempt and counts its outcome once, whatever its retries did.");
    Instances: "instances", Text("Client instances"), Text(""), Budget, number(range::INSTANCES, 1.0), D.instances, client_state,
        Some(|s, v| s.instances = v.round() as u32),
        Text("Processes the clients run in, each with a budget and a breaker of its own; every operation goes to one of them at random.");

    Workload: "workload", Text("Workload"), Text(""), Workload, WORKLOADS.kind(), WORKLOADS.position(D.workload), always,
        Some(|s, v| s.workload = WORKLOADS.at(v)),
        Text("Poisson arrivals; a crowd of clients that start together; clients racing to update one row; or clients that each start their next operation a think time after their last ended.");
    Rate: "rate", Text("Arrival rate"), Text("/s"), Workload, number(range::RATE, 1.0), D.rate, poisson,
        Some(|s, v| s.rate = v),
        Text("New operations per second.");
    SpikeRate: "spike", Text("Spike rate"), Text("/s"), Workload, number(range::RATE, 1.0), D.spike_rate, with_spike,
        Some(|s, v| s.spike_rate = v),
        Text("Arrivals per second during the spike.");
    SpikeAt: "spike_at", Text("Spike starts"), Text("s"), Workload, number(range::SPIKE_START, 0.5), D.spike_start, with_spike,
        Some(|s, v| s.spike_start = v),
        Text("When the spike begins.");
    SpikeFor: "spike_for", Text("Spike length"), Text("s"), Workload, number(range::SPIKE_DURATION, 0.5), D.spike_duration, spike_fits,
        Some(|s, v| s.spike_duration = v),
        Text("How long the spike lasts; 0 means no spike.");
    Clients: "clients", Text("Clients"), Text(""), Workload, integer(range::CLIENTS), D.clients, crowd,
        Some(|s, v| s.clients = v as u32),
        Text("Clients of the workload: in a crowd or racing for a row each makes one operation; in a closed loop each makes one after another.");
    CrowdAt: "crowd_at", Text("Crowd starts"), Text("s"), Workload, number(range::CROWD_START, 0.5), D.crowd_start, starts_together,
        Some(|s, v| s.crowd_start = v),
        Text("When the first client of the crowd starts.");
    CrowdOver: "crowd_over", Text("Start spread"), Text("s"), Workload, number(range::CROWD_WINDOW, 0.1), D.crowd_window, starts_together,
        Some(|s, v| s.crowd_window = v),
        Text("Clients start uniformly over this window; 0 means all at once.");
    Think: "think", Text("Think time"), Text("s"), Workload, number(range::THINK, 0.1), D.think, closed_loop,
        Some(|s, v| s.think = v),
        Text("How long a closed-loop client waits (exponential, this mean) after one operation ends before it starts the next.");
    Horizon: "horizon", Text("Horizon"), Text("s"), Workload, number(range::HORIZON, 1.0), D.horizon, always,
        Some(|s, v| s.horizon = v),
        Text("Time shown on the charts; arrivals stop here and the run drains.");
    Sweep: "sweep", Text("Sweep compares"), Text(""), Workload, SWEEPS.kind(), SWEEPS.position(SweepCurves::Policies), always,
        None,
        Text("What the sweep chart draws: this page's policies, or the four classic strategies in this world.");
    MapBy: "map_by", Text("Map rows"), Text(""), Workload, MAP_ROWS.kind(), MAP_ROWS.position(MapRows::Size), always,
        None,
        Text("What the rows of the map of metastability vary: the share of the workers a capacity loss takes, or the load, as a share of what the workers serve.");
    FindCalls: "find_calls", Text("At most calls per operation"), Text("x"), Search, number(range::FIND_CALLS, 0.05), 0.0, always,
        None,
        Text("The search keeps only the policies that make at most this many server calls per operation on average; 0 means any.");
    FindP99: "find_p99", Text("At most a latency p99 of"), Text("s"), Search, number(range::FIND_P99, 0.01), 0.0, always,
        None,
        Text("The search keeps only the policies whose latency p99 is at most this on average; 0 means any.");
    FindDeadline: "find_deadline", Text("Within a deadline of"), Text("s"), Search, number(range::DEADLINE, 0.5), 0.0, always,
        None,
        Text("Every policy the search tries gives up on an operation after this long; 0 keeps policy A's deadline.");
    FindWorlds: "find_worlds", Text("Judge over"), Text(""), Search, FIND_WORLDS.kind(), FIND_WORLDS.position(FindWorlds::This), always,
        None,
        Text("Each policy's runs in this world on several seeds, or each at another failure rate from 10 % to 90 %, so that a winner is not tuned to one failure rate.");
    Buckets: "buckets", Text("Time buckets"), Text(""), Workload, integer(range::BUCKETS), D.buckets, always,
        Some(|s, v| s.buckets = v as u32),
        Text("Resolution of the load chart.");

    Failure: "failure", Text("Failure rate"), Text(""), Server, number(range::FAILURE, 0.01), D.failure, served,
        Some(|s, v| s.failure = v),
        Text("Probability that the server fails a request it served.");
    Mix503: "mix_503", Text("Share 503"), Text(""), Server, number(range::MIX_WEIGHT, 0.05), D.mix_transient, served,
        Some(|s, v| s.mix_transient = v),
        Text("Weight of transient 503 among failures.");
    Mix429: "mix_429", Text("Share 429"), Text(""), Server, number(range::MIX_WEIGHT, 0.05), D.mix_throttled, served,
        Some(|s, v| s.mix_throttled = v),
        Text("Weight of 429 Too Many Requests (transient, with Retry-After).");
    Mix400: "mix_400", Text("Share 400"), Text(""), Server, number(range::MIX_WEIGHT, 0.05), D.mix_permanent, served,
        Some(|s, v| s.mix_permanent = v),
        Text("Weight of permanent 4xx: retrying never helps, so it must not happen.");
    Mix500: "mix_500", Text("Share 500"), Text(""), Server, number(range::MIX_WEIGHT, 0.05), D.mix_unknown, served,
        Some(|s, v| s.mix_unknown = v),
        Text("Weight of unknown 5xx: retried at most once.");
    RetryAfter: "retry_after", Text("Retry-After"), Text("s"), Server, number(range::RETRY_AFTER, 0.1), D.retry_after, served,
        Some(|s, v| s.retry_after = v),
        Text("Sent with 429 and with 503 from a full queue; 0 means none.");
    RateLimit: "rate_limit", Text("Rate limit (requests a window)"), Text(""), Server, integer(range::RATE_LIMIT), D.rate_limit, served,
        Some(|s, v| s.rate_limit = v as u32),
        Text("Requests a rate limit in front of the server lets through in each window; the rest are answered 429 at once, with a Retry-After that says when the window resets, the same instant for every client. 0 means no limit.");
    RateWindow: "rate_window", Text("Rate-limit window"), Text("s"), Server, number(range::RATE_WINDOW, 0.1), D.rate_window, rate_limited,
        Some(|s, v| s.rate_window = v),
        Text("The rate limit's window: it resets at every multiple of this length.");
    RateHint: "rate_hint", Text("Rate limit's Retry-After"), Text(""), Server, HINT_FORMS.kind(), HINT_FORMS.position(D.rate_hint), rate_limited,
        Some(|s, v| s.rate_hint = HINT_FORMS.at(v)),
        Text("How the rate limit says when to come back: a delay in whole seconds, rounded up, counted from when the client reads it; a date, the reset's second, the same instant for every client; or the exact time left to the reset.");
    OutageAt: "outage_at", Text("Outage starts"), Text("s"), Server, number(range::OUTAGE_START, 0.5), D.outage_start, with_outage,
        Some(|s, v| s.outage_start = v),
        Text("When the outage begins.");
    OutageFor: "outage_for", Text("Outage length"), Text("s"), Server, number(range::OUTAGE_DURATION, 0.5), D.outage_duration, outage_fits,
        Some(|s, v| s.outage_duration = v),
        Text("How long every request fails; 0 means no outage.");
    OutageMode: "outage", Text("During the outage"), Text(""), Server, OUTAGES.kind(), OUTAGES.position(D.outage_mode), with_outage,
        Some(|s, v| s.outage_mode = OUTAGES.at(v)),
        Text("Refuse at once, or hang until the client's timeout.");
    Servers: "servers", Text("Servers"), Text(""), Server, integer(range::SERVERS), D.servers, served,
        Some(|s, v| s.servers = v as u32),
        Text("Servers behind a balancer, each with the workers and the queue below of its own.");
    Balance: "balance", Text("Balancer"), Text(""), Server, BALANCES.kind(), BALANCES.position(D.balance), fleet,
        Some(|s, v| s.balance = BALANCES.at(v)),
        Text("How requests are spread over the servers: each to the next in turn, or each to one drawn at random.");
    FaultOn: "fault_on", Text("Faults hit"), Text(""), Server, FAULTS_ON.kind(), FAULTS_ON.position(D.fault_on), fleet,
        Some(|s, v| s.fault_on = FAULTS_ON.at(v)),
        Text("Whether the outage, a capacity loss and a latency spike hit every server or only the first: one of the fleet crashing.");
    Workers: "workers", Text("Workers"), Text(""), Server, integer(range::WORKERS), D.workers, served,
        Some(|s, v| s.workers = v as u32),
        Text("Requests served at once; 0 means unlimited.");
    Queue: "queue", Text("Queue"), Text(""), Server, integer(range::QUEUE_LIMIT), D.queue_limit, with_workers,
        Some(|s, v| s.queue_limit = v as u32),
        Text("Requests that may wait for a worker; a full queue answers 503.");
    QueueOrder: "queue_order", Text("Queue order"), Text(""), Server, QUEUE_ORDERS.kind(), QUEUE_ORDERS.position(D.queue_order), with_workers,
        Some(|s, v| s.queue_order = QUEUE_ORDERS.at(v)),
        Text("Which waiting request a free worker takes. Newest first serves the callers likeliest still to wait, while in an overload the oldest wait on.");
    QueueTimeout: "queue_timeout", Text("Queue timeout"), Text("s"), Server, number(range::QUEUE_TIMEOUT, 0.01), D.queue_timeout, with_workers,
        Some(|s, v| s.queue_timeout = v),
        Text("A request that has waited longer than this is answered 503, unserved, when a worker would take it; 0 means never.");
    ShedWait: "shed_wait", Text("Shed above a wait of"), Text("s"), Server, number(range::SHED_WAIT, 0.01), D.shed_wait, with_workers,
        Some(|s, v| s.shed_wait = v),
        Text("While the oldest waiting request has waited longer than this, new requests that would wait are refused with 503; 0 means never.");
    DropGone: "drop_gone", Text("Drop abandoned requests"), Text(""), Server, SWITCH.kind(), SWITCH.position(D.drop_gone), with_workers,
        Some(|s, v| s.drop_gone = SWITCH.at(v)),
        Text("A waiting request whose caller has given up (timed out, or answered by another copy) is dropped unserved, as when the caller's cancellation reaches the server.");
    Service: "service", Text("Service time shape"), Text(""), Server, SERVICE_SHAPES.kind(), SERVICE_SHAPES.position(D.service), served,
        Some(|s, v| s.service = SERVICE_SHAPES.at(v)),
        Text("Distribution of the time to serve one request: a log-normal or a slow mode gives it a long tail.");
    ServiceTime: "service_t", Text("Service time"), Text("s"), Server, number(range::SERVICE_TIME, 0.001), D.service_time, service_mean_set,
        Some(|s, v| s.service_time = v),
        Text("Mean time to serve one request (a request in the fast mode, with a slow mode).");
    ServiceSd: "service_sd", Text("Service time sd"), Text("s"), Server, number(range::SERVICE_SD, 0.001), D.service_sd, normal_service,
        Some(|s, v| s.service_sd = v),
        Text("Spread of a normal service time.");
    ServiceP50: "service_p50", Text("Service time p50"), Text("s"), Server, number(range::SERVICE_P50, 0.001), D.service_p50, lognormal_service,
        Some(|s, v| s.service_p50 = v),
        Text("Half the requests are served within this time: the median a dashboard shows.");
    ServiceP99: "service_p99", Text("Service time p99"), Text("s"), Server, number(range::SERVICE_P99, 0.001), D.service_p99, lognormal_service,
        Some(|s, v| s.service_p99 = v),
        Text("99 requests in 100 are served within this time: at least the p50, at most 100 times it.");
    TailShare: "tail_share", Text("Slow requests"), Text(""), Server, number(range::TAIL_SHARE, 0.005), D.tail_share, mixed_service,
        Some(|s, v| s.tail_share = v),
        Text("The share of requests in the slow mode: 0.01 is one in a hundred.");
    TailFactor: "tail_x", Text("Slow mode takes"), Text("x"), Server, number(range::TAIL_FACTOR, 0.5), D.tail_factor, mixed_service,
        Some(|s, v| s.tail_factor = v),
        Text("How many times longer a request in the slow mode takes on average.");
    Slope: "slope", Text("Slowdown per request"), Text("s"), Server, number(range::LATENCY_SLOPE, 0.001), D.latency_slope, served,
        Some(|s, v| s.latency_slope = v),
        Text("Extra service time per request already in service: an overloaded server gets slower.");
    Lost: "lost", Text("Lost responses"), Text(""), Server, number(range::LOST_RESPONSES, 0.01), D.lost_responses, served,
        Some(|s, v| s.lost_responses = v),
        Text("Probability that the server acted but its answer never arrives.");
    DropAt: "drop_at", Text("Capacity loss starts"), Text("s"), Server, number(range::OUTAGE_START, 0.5), D.drop_start, with_drop,
        Some(|s, v| s.drop_start = v),
        Text("When the server starts losing workers.");
    DropFor: "drop_for", Text("Capacity loss length"), Text("s"), Server, number(range::OUTAGE_DURATION, 0.5), D.drop_duration, drop_fits,
        Some(|s, v| s.drop_duration = v),
        Text("How long the server works with fewer workers; 0 means no capacity loss.");
    DropTo: "drop_to", Text("Workers left"), Text(""), Server, number(range::FAULT_SHARE, 0.05), D.drop_to, with_drop,
        Some(|s, v| s.drop_to = v),
        Text("The share of its workers the server keeps meanwhile (0.2 = a fifth): requests in service finish, new ones wait for the smaller pool.");
    SlowAt: "slow_at", Text("Latency spike starts"), Text("s"), Server, number(range::OUTAGE_START, 0.5), D.slow_start, with_slow,
        Some(|s, v| s.slow_start = v),
        Text("When service starts taking longer.");
    SlowFor: "slow_for", Text("Latency spike length"), Text("s"), Server, number(range::OUTAGE_DURATION, 0.5), D.slow_duration, slow_fits,
        Some(|s, v| s.slow_duration = v),
        Text("How long service takes longer; 0 means no latency spike.");
    SlowX: "slow_x", Text("Slowdown"), Text("x"), Server, number(range::SLOW_FACTOR, 0.5), D.slow_factor, with_slow,
        Some(|s, v| s.slow_factor = v),
        Text("How many times longer a request takes when its service starts in the spike.");
    CutAt: "cut_at", Text("Partition starts"), Text("s"), Server, number(range::OUTAGE_START, 0.5), D.cut_start, with_cut,
        Some(|s, v| s.cut_start = v),
        Text("When part of the clients lose their way to the server.");
    CutFor: "cut_for", Text("Partition length"), Text("s"), Server, number(range::OUTAGE_DURATION, 0.5), D.cut_duration, cut_fits,
        Some(|s, v| s.cut_duration = v),
        Text("How long the partition lasts; 0 means none.");
    CutShare: "cut_share", Text("Clients cut off"), Text(""), Server, number(range::FAULT_SHARE, 0.05), D.cut_share, with_cut,
        Some(|s, v| s.cut_share = v),
        Text("The share of the clients whose requests are lost on the way meanwhile: the server never sees them, and their clients wait for their timeout.");
    Hop: "hop", Text("Network time shape"), Text(""), Server, SPREADS.kind(), SPREADS.position(D.hop), always,
        Some(|s, v| s.hop = SPREADS.at(v)),
        Text("Distribution of one network hop.");
    HopMean: "hop_mean", Text("Network time"), Text("s"), Server, number(range::HOP_MEAN, 0.001), D.hop_mean, always,
        Some(|s, v| s.hop_mean = v),
        Text("Mean one-way network time.");
    HopSd: "hop_sd", Text("Network time sd"), Text("s"), Server, number(range::HOP_SD, 0.001), D.hop_sd, normal_hops,
        Some(|s, v| s.hop_sd = v),
        Text("Spread of a normal network hop.");

    Layers: "layers", Text("Layers"), Text(""), Layers, integer(range::LAYERS), D.layers, served,
        Some(|s, v| s.layers = v as u32),
        Text("Services in the chain; each retries its own calls, so retries multiply.");
    TopOnly: "top_only", Text("Only the top retries"), Text(""), Layers, SWITCH.kind(), SWITCH.position(D.only_top_retries), with_layers,
        Some(|s, v| s.only_top_retries = SWITCH.at(v)),
        Text("Lower layers make one attempt: one owner of retries.");
    FanOut: "fan_out", Text("Fan-out"), Text(""), Layers, integer(range::FAN_OUT), D.fan_out, served,
        Some(|s, v| s.fan_out = v as u32),
        Text("Each attempt at the last layer goes to this many servers at once and waits for the answers the next setting says; with hedging on, each of those calls is hedged on its own.");
    FanWait: "fan_wait", Text("Fan-out waits for"), Text(""), Layers, FAN_WAITS.kind(), FAN_WAITS.position(D.fan_wait), fanned,
        Some(|s, v| s.fan_wait = FAN_WAITS.at(v)),
        Text("Every answer: the slowest sets the attempt's time, and any failure fails it. The first success: the fastest ends it, and it fails only if every call does. A majority: the middle answer ends it.");

    @each service below the top:
    LAYER_ATTEMPTS [Layer2Attempts, Layer3Attempts, Layer4Attempts, Layer5Attempts]: "attempts",
        [Text("Attempts at layer 2"), Text("Attempts at layer 3"), Text("Attempts at layer 4"), Text("Attempts at layer 5")],
        Text(""), integer(range::LAYER_ATTEMPTS), D.layer_attempts[AT], |c| has_service(c, AT),
        |s, v| s.layer_attempts[AT] = v as u32,
        Text("How many times this service tries each call below; 0 means as the policy says.");
    LAYER_TIMEOUTS [Layer2Timeout, Layer3Timeout, Layer4Timeout, Layer5Timeout]: "timeout",
        [Text("Timeout at layer 2"), Text("Timeout at layer 3"), Text("Timeout at layer 4"), Text("Timeout at layer 5")],
        Text("s"), number(range::ATTEMPT_TIMEOUT, 0.01), D.layer_timeouts[AT], |c| has_service(c, AT + 1),
        |s, v| s.layer_timeouts[AT] = v,
        Text("How long this service waits for its call to the service below before it gives up and may retry; 0 means the timeout between services. The last service's calls take the attempt timeout.");
    LAYER_BASES [Layer2Base, Layer3Base, Layer4Base, Layer5Base]: "base",
        [Text("Base delay at layer 2"), Text("Base delay at layer 3"), Text("Base delay at layer 4"), Text("Base delay at layer 5")],
        Text("s"), number(range::LAYER_BASE, 0.001), D.layer_bases[AT], |c| has_service(c, AT),
        |s, v| s.layer_bases[AT] = v,
        Text("Ceiling of this service's first pause before it retries a call below (and the floor of its decorrelated jitter); 0 means the policy's base.");
    LAYER_SHAPES [Layer2Shape, Layer3Shape, Layer4Shape, Layer5Shape]: "shape",
        [Text("Backoff shape at layer 2"), Text("Backoff shape at layer 3"), Text("Backoff shape at layer 4"), Text("Backoff shape at layer 5")],
        Text(""), HOP_SHAPES.kind(), 0.0, |c| has_service(c, AT),
        |s, v| s.layer_shapes[AT] = hop_shape(v),
        Text("How this service's pause ceilings grow from its base delay, or as the policy's do; the multiplier stays the policy's.");
    LAYER_CAPS [Layer2Cap, Layer3Cap, Layer4Cap, Layer5Cap]: "cap",
        [Text("Cap at layer 2"), Text("Cap at layer 3"), Text("Cap at layer 4"), Text("Cap at layer 5")],
        Text("s"), number(range::LAYER_CAP, 0.001), D.layer_caps[AT], |c| has_service(c, AT),
        |s, v| s.layer_caps[AT] = v,
        Text("This service's pause ceilings grow no higher than this; 0 means the policy's cap.");
    LAYER_JITTERS [Layer2Jitter, Layer3Jitter, Layer4Jitter, Layer5Jitter]: "jitter",
        [Text("Jitter at layer 2"), Text("Jitter at layer 3"), Text("Jitter at layer 4"), Text("Jitter at layer 5")],
        Text(""), HOP_JITTERS.kind(), 0.0, |c| has_service(c, AT),
        |s, v| s.layer_jitters[AT] = hop_jitter(v),
        Text("How this service draws its pauses under their ceilings, or as the policy does.");
    LAYER_WORKERS [Layer2Workers, Layer3Workers, Layer4Workers, Layer5Workers]: "workers",
        [Text("Workers at layer 2"), Text("Workers at layer 3"), Text("Workers at layer 4"), Text("Workers at layer 5")],
        Text(""), integer(range::WORKERS), D.layer_workers[AT], |c| has_service(c, AT),
        |s, v| s.layer_workers[AT] = v as u32,
        Text("How many requests this service handles at once, each holding its place while its calls below and their retries go on; 0 means no limit.");
    LAYER_QUEUES [Layer2Queue, Layer3Queue, Layer4Queue, Layer5Queue]: "queue",
        [Text("Queue at layer 2"), Text("Queue at layer 3"), Text("Queue at layer 4"), Text("Queue at layer 5")],
        Text(""), integer(range::QUEUE_LIMIT), D.layer_queues[AT], |c| has_service(c, AT) && c.get(P::LAYER_WORKERS[AT]) > 0.0,
        |s, v| s.layer_queues[AT] = v as u32,
        Text("Requests that may wait for one of this service's workers; a full queue answers 503 at once.");
    LAYER_ORDERS [Layer2Order, Layer3Order, Layer4Order, Layer5Order]: "order",
        [Text("Queue order at layer 2"), Text("Queue order at layer 3"), Text("Queue order at layer 4"), Text("Queue order at layer 5")],
        Text(""), QUEUE_ORDERS.kind(), QUEUE_ORDERS.position(D.layer_orders[AT]), |c| has_service(c, AT) && c.get(P::LAYER_WORKERS[AT]) > 0.0,
        |s, v| s.layer_orders[AT] = QUEUE_ORDERS.at(v),
        Text("Which waiting call a free worker of this service takes: the oldest, or the newest, whose caller is likeliest still to wait.");
    LAYER_FAILURES [Layer2Failure, Layer3Failure, Layer4Failure, Layer5Failure]: "failure",
        [Text("Failures at layer 2"), Text("Failures at layer 3"), Text("Failures at layer 4"), Text("Failures at layer 5")],
        Text(""), number(range::FAILURE, 0.01), D.layer_failures[AT], |c| has_service(c, AT),
        |s, v| s.layer_failures[AT] = v,
        Text("The share of its calls this service fails by itself, at once with a 503, before calling below.");
    LAYER_OUTAGE_STARTS [Layer2OutageAt, Layer3OutageAt, Layer4OutageAt, Layer5OutageAt]: "outage_at",
        [Text("Outage at layer 2 starts"), Text("Outage at layer 3 starts"), Text("Outage at layer 4 starts"), Text("Outage at layer 5 starts")],
        Text("s"), number(range::OUTAGE_START, 0.5), D.layer_outage_start[AT], |c| has_service(c, AT) && c.get(P::LAYER_OUTAGE_LENGTHS[AT]) > 0.0,
        |s, v| s.layer_outage_start[AT] = v,
        Text("When this service's outage begins.");
    LAYER_OUTAGE_LENGTHS [Layer2OutageFor, Layer3OutageFor, Layer4OutageFor, Layer5OutageFor]: "outage_for",
        [Text("Outage at layer 2 lasts"), Text("Outage at layer 3 lasts"), Text("Outage at layer 4 lasts"), Text("Outage at layer 5 lasts")],
        Text("s"), number(range::OUTAGE_DURATION, 0.5), D.layer_outage_duration[AT], |c| has_service(c, AT),
        |s, v| s.layer_outage_duration[AT] = v,
        Text("How long this service fails every call it takes up at once, with a 503, before calling below; 0 means no outage.");
    LAYER_WORK_P50S [Layer2WorkP50, Layer3WorkP50, Layer4WorkP50, Layer5WorkP50]: "p50",
        [Text("Own time p50 at layer 2"), Text("Own time p50 at layer 3"), Text("Own time p50 at layer 4"), Text("Own time p50 at layer 5")],
        Text("s"), number(range::LAYER_WORK_P50, 0.001), D.layer_work_p50[AT], |c| has_service(c, AT),
        |s, v| s.layer_work_p50[AT] = v,
        Text("Half the calls this service takes up get this long of its own work, holding its worker, before it calls below (a log-normal through this and the p99); 0 means no work of its own.");
    LAYER_WORK_P99S [Layer2WorkP99, Layer3WorkP99, Layer4WorkP99, Layer5WorkP99]: "p99",
        [Text("Own time p99 at layer 2"), Text("Own time p99 at layer 3"), Text("Own time p99 at layer 4"), Text("Own time p99 at layer 5")],
        Text("s"), number(range::LAYER_WORK_P99, 0.001), D.layer_work_p99[AT], |c| has_service(c, AT) && c.get(P::LAYER_WORK_P50S[AT]) > 0.0,
        |s, v| s.layer_work_p99[AT] = v,
        Text("99 calls in 100 this service takes up get at most this long of its own work; below the p50 the time is the p50 for every call, and beyond 100 times it, 100 times it.");
    LAYER_BUDGETS [Layer2Budget, Layer3Budget, Layer4Budget, Layer5Budget]: "budget",
        [Text("Budget at layer 2"), Text("Budget at layer 3"), Text("Budget at layer 4"), Text("Budget at layer 5")],
        Text(""), HOP_BUDGETS.kind(), hop_budget_position(own_kind(&D.layer_budgets[AT])), |c| has_service(c, AT),
        |s, v| s.layer_budgets[AT] = hop_budget(v).map(|kind| s.budget.spec_of(kind)),
        Text("The retry budget this service keeps for its own calls below: as the policy's, none (it retries as its attempts say), or a kind of its own, with the policy's settings of that kind (under “Retry budget & breaker”).");
    LAYER_BREAKERS [Layer2Breaker, Layer3Breaker, Layer4Breaker, Layer5Breaker]: "breaker",
        [Text("Breaker at layer 2"), Text("Breaker at layer 3"), Text("Breaker at layer 4"), Text("Breaker at layer 5")],
        Text(""), SWITCH.kind(), SWITCH.position(D.layer_breakers[AT]), |c| has_service(c, AT) && c.breaker_mode() != BreakerMode::Off,
        |s, v| s.layer_breakers[AT] = SWITCH.at(v),
        Text("Whether this service keeps a circuit breaker of the policy's for its own calls below; off, it calls whatever the answers.");

    @then:
    CallTimeout: "call_timeout", Text("Timeout between services"), Text("s"), Layers, number(range::ATTEMPT_TIMEOUT, 0.01), D.call_timeout, with_layers,
        Some(|s, v| s.call_timeout = v),
        Text("Each service above the last gives up on its call below after this, and may retry it while the service below works on for nobody; 0 means it waits for the answer.");
    PassDeadline: "pass_deadline", Text("Deadlines passed down"), Text(""), Layers, SWITCH.kind(), SWITCH.position(D.pass_deadline), served,
        Some(|s, v| s.pass_deadline = SWITCH.at(v)),
        Text("Every call carries what is left of its caller's patience, as gRPC propagates deadlines: no service starts or retries work past it, and the server drops what waits past it and stops serving at it.");

    Seed: "seed", Text("Seed"), Text(""), Randomness, integer(range::SEED), D.seed, always,
        Some(|s, v| s.seed = v as u64),
        Text("Fixes every random draw: the same link gives the same numbers.");
    SharedSeed: "shared", Text("Shared seed"), Text(""), Randomness, SWITCH.kind(), SWITCH.position(D.shared_seed), always,
        Some(|s, v| s.shared_seed = SWITCH.at(v)),
        Text("Every client draws the same random numbers: jitter with a shared seed is no jitter.");
}

impl P {
    pub fn param(self) -> &'static Param {
        &PARAMS[self as usize]
    }
}

impl Param {
    /// Whether the parameter belongs to one client's policy, so policies A
    /// and B of compare mode may differ in it. How a client seeds its
    /// generator is its own choice too, so a shared seed is per policy.
    pub fn per_policy(&self) -> bool {
        let own = matches!(self.group, Group::Policy | Group::Budget | Group::Layers);
        (own && self.key != P::Compare.param().key) || self.key == P::SharedSeed.param().key
    }

    /// The value made valid: clamped to the range, rounded where whole.
    /// Returns the value and, if it had to change, why.
    pub fn sanitize(&self, value: f64) -> (f64, Option<String>) {
        if !value.is_finite() {
            return (
                self.default,
                Some(retry_core::tf!(
                    "not a finite number; using {default}",
                    default = self.default
                )),
            );
        }
        let (low, high, whole) = match self.kind {
            Kind::Number { min, max, .. } => (min, max, false),
            Kind::Integer { min, max } => (min, max, true),
            Kind::Choice(options, _) => (0.0, (options.len() - 1) as f64, true),
        };
        let rounded = if whole { value.round() } else { value };
        let clamped = rounded.clamp(low, high);
        if clamped != value {
            let why = if rounded != value && clamped == rounded {
                retry_core::tf!(
                    "{value} is not a whole number; using {clamped}",
                    value = value,
                    clamped = clamped
                )
            } else {
                retry_core::tf!(
                    "{value} is outside {low}..{high}; using {clamped}",
                    value = value,
                    low = low,
                    high = high,
                    clamped = clamped
                )
            };
            (clamped, Some(why))
        } else {
            (value, None)
        }
    }

    /// The text of a value in a link.
    /// How a text names a choice: by its word in a link in English, by its
    /// label in lower case in another language; `None` for a number.
    pub fn choice_word(&self, position: usize) -> Option<String> {
        let Kind::Choice(words, labels) = self.kind else {
            return None;
        };
        match retry_core::words::lang() {
            retry_core::words::Lang::En => words.get(position).map(|w| w.to_string()),
            _ => labels
                .get(position)
                .map(|l| retry_core::words::lower_first(l.get())),
        }
    }

    pub fn format(&self, value: f64) -> String {
        match self.kind {
            Kind::Choice(options, _) => options[value as usize].to_string(),
            // Rust prints the shortest text that reads back to the same f64.
            _ => format!("{value}"),
        }
    }

    /// Reads a value from a link or a number box.
    pub fn parse(&self, text: &str) -> Result<f64, String> {
        let text = text.trim();
        match self.kind {
            Kind::Choice(options, _) => options
                .iter()
                .position(|o| o.eq_ignore_ascii_case(text))
                .map(|i| i as f64)
                .ok_or_else(|| {
                    retry_core::tf!("must be one of {options}", options = options.join(", "))
                }),
            // `-0` reads as 0: a zero has one value, whatever its sign,
            // so policy B's 0 and A's -0 are the same setting.
            _ => retry_core::decimal::parse_f64(text)
                .map(|value| value + 0.0)
                .ok_or_else(|| retry_core::words::tr("is not a number").to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_negative_zero_reads_as_zero() {
        for param in PARAMS
            .iter()
            .filter(|p| !matches!(p.kind, Kind::Choice(..)))
        {
            assert_eq!(
                param.parse("-0").map(f64::to_bits),
                Ok(0f64.to_bits()),
                "{}",
                param.key
            );
        }
    }

    #[test]
    fn table_keys_are_unique_and_defaults_valid() {
        for (i, a) in PARAMS.iter().enumerate() {
            assert_eq!(a.sanitize(a.default).1, None, "{} default invalid", a.key);
            for b in &PARAMS[i + 1..] {
                assert_ne!(a.key, b.key);
            }
        }
    }
}
