//! The one parameter table.
//!
//! Every knob of the playground is declared once, in [`PARAMS`]: its key in a
//! share link, label, unit, range, step, default and help. The link codec,
//! validation and clamping, the controls on the page and the command line
//! are all generated from it, so a link can never hold a value the page
//! cannot show, and a new parameter is one line.
//!
//! A [`Config`] is one value per parameter. A link is its query string,
//! `v=1&attempts=4&base=0.1&...`: the version `v` pins the defaults, and
//! only values that differ from them are written out. Reading a link never fails:
//! missing keys take their defaults, bad values are clamped or replaced and
//! reported as [`Notice`]s, unknown keys are reported and ignored.

use crate::breaker::{BreakerConfig, BreakerMode};
use crate::budget::{BudgetConfig, BudgetKind, RatioBasis};
use crate::chart_id::ChartId;
use crate::policy::{Jitter, Policy, Shape};
use crate::sim::{
    MAX_BUCKETS, MAX_CLIENTS, MAX_LAYERS, OutageMode, Scenario, Spread, WorkloadKind,
};
use crate::sweep::SweepCurves;

/// Version written into every link as `v`.
pub const LINK_VERSION: u32 = 1;

/// Where a parameter sits on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    Policy,
    Budget,
    Workload,
    Server,
    Layers,
    Randomness,
}

impl Group {
    pub const ALL: [Group; 6] = [
        Group::Policy,
        Group::Budget,
        Group::Workload,
        Group::Server,
        Group::Layers,
        Group::Randomness,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Group::Policy => "Policy",
            Group::Budget => "Retry budget & breaker",
            Group::Workload => "Workload",
            Group::Server => "Server & faults",
            Group::Layers => "Layers",
            Group::Randomness => "Randomness",
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
    /// One of named options, stored as its index.
    Choice(&'static [&'static str]),
}

/// One row of the table.
#[derive(Debug)]
pub struct Param {
    pub key: &'static str,
    pub label: &'static str,
    pub unit: &'static str,
    pub group: Group,
    pub kind: Kind,
    pub default: f64,
    pub help: &'static str,
    /// Whether the parameter matters under the other settings; the page dims
    /// it when not, instead of silently ignoring it.
    pub applies: fn(&Config) -> bool,
}

fn always(_: &Config) -> bool {
    true
}

macro_rules! params {
    ($($name:ident: $key:literal, $label:literal, $unit:literal, $group:ident, $kind:expr, $default:expr, $applies:expr, $help:literal;)*) => {
        /// Names of the parameters, in table order.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum P { $($name),* }

        impl P {
            /// Every parameter, in table order: `P::ALL[i]` is `PARAMS[i]`'s.
            pub const ALL: &[P] = &[$(P::$name),*];
        }

        /// The table.
        pub static PARAMS: &[Param] = &[$(Param {
            key: $key,
            label: $label,
            unit: $unit,
            group: Group::$group,
            kind: $kind,
            default: $default as f64,
            help: $help,
            applies: $applies,
        }),*];
    };
}

/// The options of a choice parameter in link order: the word a link writes
/// for each, bound to the value it means. A [`Config`] stores the position
/// in this list, and links store the word, so reordering the list changes
/// no link; the wiring tests pin every word to its value.
#[derive(Debug)]
pub struct Choices<T: 'static> {
    pub names: &'static [&'static str],
    values: &'static [T],
}

impl<T: Copy> Choices<T> {
    /// The value at a stored position. A stored position is sanitized
    /// against `names`, which is as long as `values`.
    fn at(&self, position: f64) -> T {
        self.values[position as usize]
    }
}

/// Declares choice lists, one `word => value` pair per option, and for each
/// the inverse map from a value to its stored position.
macro_rules! choices {
    ($($(#[$doc:meta])* $list:ident: $ty:ty { $($word:literal => $value:expr),+ $(,)? })*) => {$(
        $(#[$doc])*
        pub const $list: Choices<$ty> = Choices {
            names: &[$($word),+],
            values: &[$($value),+],
        };

        impl Choices<$ty> {
            /// Where `value` sits in the list: the number a [`Config`]
            /// stores for it. Used in a constant, a value missing from the
            /// list stops the build.
            pub const fn position(&self, value: $ty) -> f64 {
                let mut index = 0;
                while index < self.values.len() {
                    // Comparing discriminants: `==` is not available in a const fn.
                    if self.values[index] as u32 == value as u32 {
                        return index as f64;
                    }
                    index += 1;
                }
                panic!("a value is missing from its choice list")
            }
        }
    )*};
}

choices! {
    SHAPES: Shape {
        "constant" => Shape::Constant,
        "linear" => Shape::Linear,
        "exponential" => Shape::Exponential,
    }
    JITTERS: Jitter {
        "none" => Jitter::None,
        "full" => Jitter::Full,
        "equal" => Jitter::Equal,
        "decorrelated" => Jitter::Decorrelated,
        "proportional" => Jitter::Proportional,
    }
    SWITCH: bool {
        "off" => false,
        "on" => true,
    }
    SWEEPS: SweepCurves {
        "policies" => SweepCurves::Policies,
        "classic" => SweepCurves::Classic,
    }
    BUDGETS: BudgetKind {
        "none" => BudgetKind::None,
        "ratio" => BudgetKind::Ratio,
        "token-bucket" => BudgetKind::TokenBucket,
        "aws-quota" => BudgetKind::AwsQuota,
    }
    BASES: RatioBasis {
        "successes" => RatioBasis::Successes,
        "requests" => RatioBasis::Requests,
    }
    BREAKERS: BreakerMode {
        "off" => BreakerMode::Off,
        "all" => BreakerMode::All,
        "retries" => BreakerMode::RetriesOnly,
    }
    WORKLOADS: WorkloadKind {
        "poisson" => WorkloadKind::Poisson,
        "crowd" => WorkloadKind::Crowd,
        "contention" => WorkloadKind::Contention,
    }
    SPREADS: Spread {
        "constant" => Spread::Constant,
        "exponential" => Spread::Exponential,
        "normal" => Spread::Normal,
    }
    OUTAGES: OutageMode {
        "fail-fast" => OutageMode::FailFast,
        "hang" => OutageMode::Hang,
    }
}

fn ratio(c: &Config) -> bool {
    c.budget_kind() == BudgetKind::Ratio
}
fn token_bucket(c: &Config) -> bool {
    c.budget_kind() == BudgetKind::TokenBucket
}
fn aws_quota(c: &Config) -> bool {
    c.budget_kind() == BudgetKind::AwsQuota
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
/// Contention models only the shared row: no faults, capacity or timeouts.
fn served(c: &Config) -> bool {
    c.workload() != WorkloadKind::Contention
}
fn normal_hops(c: &Config) -> bool {
    c.spread(P::Hop) == Spread::Normal
}
fn normal_service(c: &Config) -> bool {
    served(c) && c.spread(P::Service) == Spread::Normal
}
fn with_workers(c: &Config) -> bool {
    served(c) && c.get(P::Workers) > 0.0
}
fn with_outage(c: &Config) -> bool {
    served(c) && c.get(P::OutageFor) > 0.0
}
fn with_spike(c: &Config) -> bool {
    poisson(c) && c.get(P::SpikeFor) > 0.0
}
fn with_layers(c: &Config) -> bool {
    served(c) && c.get(P::Layers) > 1.0
}

/// Where the table's defaults come from: the simulator's default scenario,
/// which holds the policy's, budget's and breaker's.
const D: Scenario = Scenario::DEFAULT;

/// How the table stores an optional time: 0 means none.
const fn seconds_or_zero(seconds: Option<f64>) -> f64 {
    match seconds {
        Some(seconds) => seconds,
        None => 0.0,
    }
}

const fn number(min: f64, max: f64, step: f64) -> Kind {
    Kind::Number { min, max, step }
}
const fn integer(min: f64, max: f64) -> Kind {
    Kind::Integer { min, max }
}

params! {
    Compare: "compare", "Compare with policy B", "", Policy, Kind::Choice(SWITCH.names), SWITCH.position(false), always,
        "Run a second policy on the same world and seed, and overlay both on every chart.";
    Attempts: "attempts", "Attempts", "", Policy, integer(1.0, 50.0), D.policy.attempts, always,
        "Tries per operation, counting the first call: 1 means never retry.";
    Shape: "shape", "Backoff shape", "", Policy, Kind::Choice(SHAPES.names), SHAPES.position(D.policy.shape), always,
        "How the pause ceiling grows with each retry.";
    Base: "base", "Base delay", "s", Policy, number(0.001, 600.0, 0.001), D.policy.base, always,
        "Ceiling of the first pause (and the floor of decorrelated jitter).";
    Cap: "cap", "Cap", "s", Policy, number(0.001, 3600.0, 0.001), D.policy.cap, always,
        "No pause ceiling grows beyond this.";
    Multiplier: "mult", "Multiplier", "x", Policy, number(1.0, 10.0, 0.1), D.policy.multiplier, |c| c.shape() == Shape::Exponential,
        "Growth factor of exponential backoff per retry.";
    Jitter: "jitter", "Jitter", "", Policy, Kind::Choice(JITTERS.names), JITTERS.position(D.policy.jitter), always,
        "How a random pause is drawn under the ceiling; none makes clients that failed together retry together.";
    JitterFraction: "jfrac", "Jitter fraction", "", Policy, number(0.0, 1.0, 0.01), D.policy.jitter_fraction, |c| c.jitter() == Jitter::Proportional,
        "Proportional jitter spreads each pause by this fraction either way (0.2 = +-20 %).";
    Timeout: "timeout", "Attempt timeout", "s", Policy, number(0.0, 60.0, 0.01), seconds_or_zero(D.policy.attempt_timeout), served,
        "An attempt with no answer by then counts as failed; 0 means no timeout.";
    Deadline: "deadline", "Deadline", "s", Policy, number(0.0, 120.0, 0.1), seconds_or_zero(D.policy.deadline), always,
        "Overall time budget of one operation; 0 means none. No attempt starts once the time left is gone.";
    HonourRetryAfter: "honour", "Honour Retry-After", "", Policy, Kind::Choice(SWITCH.names), SWITCH.position(D.honour_retry_after), served,
        "Wait at least as long as the server's Retry-After before retrying.";
    IdempotencyKey: "idem", "Idempotency key", "", Policy, Kind::Choice(SWITCH.names), SWITCH.position(D.idempotency_key), served,
        "One key for all attempts of an operation, so the server acts once; off, a lost response plus a retry makes a duplicate.";

    Budget: "budget", "Retry budget", "", Budget, Kind::Choice(BUDGETS.names), BUDGETS.position(D.budget.kind), always,
        "Limits retries across all operations: a share of recent traffic, a gRPC token bucket or the AWS SDK retry quota.";
    BudgetPercent: "b_pct", "Retry share", "", Budget, number(0.0, 1.0, 0.01), D.budget.percent, ratio,
        "Retries allowed per deposit in the window (0.2 = 20 %).";
    BudgetFloor: "b_floor", "Floor", "/s", Budget, number(0.0, 1000.0, 1.0), D.budget.min_per_second, ratio,
        "Retries per second allowed however little traffic there is.";
    BudgetWindow: "b_window", "Window", "s", Budget, number(0.1, 600.0, 0.1), D.budget.window, ratio,
        "Length of the sliding window the share is counted over.";
    BudgetBasis: "b_basis", "Counts", "", Budget, Kind::Choice(BASES.names), BASES.position(D.budget.basis), ratio,
        "What earns retries: successful attempts, or every first try as Finagle's RetryBudget counts.";
    Tokens: "tokens", "Max tokens", "", Budget, number(1.0, 1000.0, 1.0), D.budget.max_tokens, token_bucket,
        "Bucket size; a failure takes 1, a retry is allowed only above half.";
    TokenRatio: "t_ratio", "Token ratio", "", Budget, number(0.0, 10.0, 0.01), D.budget.token_ratio, token_bucket,
        "Tokens a success puts back.";
    Quota: "quota", "Retry quota", "", Budget, number(1.0, 10000.0, 1.0), D.budget.quota, aws_quota,
        "Tokens in the shared quota; a success refunds what its retry cost.";
    QuotaCost: "q_cost", "Retry cost", "", Budget, number(0.0, 100.0, 1.0), D.budget.retry_cost, aws_quota,
        "Tokens a retry takes after an error.";
    QuotaTimeoutCost: "q_tcost", "Timeout retry cost", "", Budget, number(0.0, 100.0, 1.0), D.budget.timeout_cost, aws_quota,
        "Tokens a retry takes after a timeout.";
    Breaker: "breaker", "Circuit breaker", "", Budget, Kind::Choice(BREAKERS.names), BREAKERS.position(D.breaker.mode), always,
        "Fails fast for a while once most recent attempts failed: breaking every attempt, or only retries.";
    BreakerRatio: "cb_ratio", "Trip ratio", "", Budget, number(0.0, 1.0, 0.01), D.breaker.failure_ratio, with_breaker,
        "The breaker opens when at least this share of the window's attempts failed (0.5 = half).";
    BreakerWindow: "cb_window", "Breaker window", "s", Budget, number(0.1, 600.0, 0.1), D.breaker.window, with_breaker,
        "Length of the sliding window the failure ratio is counted over.";
    BreakerMin: "cb_min", "Minimum attempts", "", Budget, integer(1.0, 10000.0), D.breaker.min_requests, with_breaker,
        "Outcomes the window must hold before the breaker may open.";
    BreakerCool: "cb_cool", "Cool-down", "s", Budget, number(0.0, 600.0, 0.1), D.breaker.cool_down, with_breaker,
        "How long an open breaker refuses everything it breaks before letting probes through.";
    BreakerProbes: "cb_probes", "Probes", "", Budget, integer(1.0, 100.0), D.breaker.probes, with_breaker,
        "Attempts let through half-open: if all succeed it closes, one failure opens it again.";

    Workload: "workload", "Workload", "", Workload, Kind::Choice(WORKLOADS.names), WORKLOADS.position(D.workload), always,
        "Poisson arrivals; a crowd of clients that start together; or clients racing to update one row.";
    Rate: "rate", "Arrival rate", "/s", Workload, number(0.0, 20000.0, 1.0), D.rate, poisson,
        "New operations per second.";
    SpikeRate: "spike", "Spike rate", "/s", Workload, number(0.0, 20000.0, 1.0), D.spike_rate, with_spike,
        "Arrivals per second during the spike.";
    SpikeAt: "spike_at", "Spike starts", "s", Workload, number(0.0, 3600.0, 0.5), D.spike_start, with_spike,
        "When the spike begins.";
    SpikeFor: "spike_for", "Spike length", "s", Workload, number(0.0, 3600.0, 0.5), D.spike_duration, poisson,
        "How long the spike lasts; 0 means no spike.";
    Clients: "clients", "Clients", "", Workload, integer(1.0, MAX_CLIENTS as f64), D.clients, crowd,
        "Clients that make one operation each.";
    CrowdAt: "crowd_at", "Crowd starts", "s", Workload, number(0.0, 3600.0, 0.5), D.crowd_start, crowd,
        "When the first client of the crowd starts.";
    CrowdOver: "crowd_over", "Start spread", "s", Workload, number(0.0, 3600.0, 0.1), D.crowd_window, crowd,
        "Clients start uniformly over this window; 0 means all at once.";
    Horizon: "horizon", "Horizon", "s", Workload, number(1.0, 3600.0, 1.0), D.horizon, always,
        "Time shown on the charts; arrivals stop here and the run drains.";
    Sweep: "sweep", "Sweep compares", "", Workload, Kind::Choice(SWEEPS.names), SWEEPS.position(SweepCurves::Policies), always,
        "What the sweep chart draws: this page's policies, or the four classic strategies in this world.";
    Buckets: "buckets", "Time buckets", "", Workload, integer(10.0, MAX_BUCKETS as f64), D.buckets, always,
        "Resolution of the load chart.";

    Failure: "failure", "Failure rate", "", Server, number(0.0, 1.0, 0.01), D.failure, served,
        "Probability that the server fails a request it served.";
    Mix503: "mix_503", "Share 503", "", Server, number(0.0, 1.0, 0.05), D.mix_transient, served,
        "Weight of transient 503 among failures.";
    Mix429: "mix_429", "Share 429", "", Server, number(0.0, 1.0, 0.05), D.mix_throttled, served,
        "Weight of 429 Too Many Requests (transient, with Retry-After).";
    Mix400: "mix_400", "Share 400", "", Server, number(0.0, 1.0, 0.05), D.mix_permanent, served,
        "Weight of permanent 4xx: retrying never helps, so it must not happen.";
    Mix500: "mix_500", "Share 500", "", Server, number(0.0, 1.0, 0.05), D.mix_unknown, served,
        "Weight of unknown 5xx: retried at most once.";
    RetryAfter: "retry_after", "Retry-After", "s", Server, number(0.0, 60.0, 0.1), D.retry_after, served,
        "Sent with 429 and with 503 from a full queue; 0 means none.";
    OutageAt: "outage_at", "Outage starts", "s", Server, number(0.0, 3600.0, 0.5), D.outage_start, with_outage,
        "When the outage begins.";
    OutageFor: "outage_for", "Outage length", "s", Server, number(0.0, 3600.0, 0.5), D.outage_duration, served,
        "How long every request fails; 0 means no outage.";
    OutageMode: "outage", "During the outage", "", Server, Kind::Choice(OUTAGES.names), OUTAGES.position(D.outage_mode), with_outage,
        "Refuse at once, or hang until the client's timeout.";
    Workers: "workers", "Workers", "", Server, integer(0.0, 100000.0), D.workers, served,
        "Requests served at once; 0 means unlimited.";
    Queue: "queue", "Queue", "", Server, integer(0.0, 1000000.0), D.queue_limit, with_workers,
        "Requests that may wait for a worker; a full queue answers 503.";
    Service: "service", "Service time shape", "", Server, Kind::Choice(SPREADS.names), SPREADS.position(D.service), served,
        "Distribution of the time to serve one request.";
    ServiceTime: "service_t", "Service time", "s", Server, number(0.0, 10.0, 0.001), D.service_time, served,
        "Mean time to serve one request.";
    ServiceSd: "service_sd", "Service time sd", "s", Server, number(0.0, 10.0, 0.001), D.service_sd, normal_service,
        "Spread of a normal service time.";
    Slope: "slope", "Slowdown per request", "s", Server, number(0.0, 1.0, 0.001), D.latency_slope, served,
        "Extra service time per request already in service: an overloaded server gets slower.";
    Lost: "lost", "Lost responses", "", Server, number(0.0, 1.0, 0.01), D.lost_responses, served,
        "Probability that the server acted but its answer never arrives.";
    Hop: "hop", "Network time shape", "", Server, Kind::Choice(SPREADS.names), SPREADS.position(D.hop), always,
        "Distribution of one network hop.";
    HopMean: "hop_mean", "Network time", "s", Server, number(0.0, 10.0, 0.001), D.hop_mean, always,
        "Mean one-way network time.";
    HopSd: "hop_sd", "Network time sd", "s", Server, number(0.0, 10.0, 0.001), D.hop_sd, normal_hops,
        "Spread of a normal network hop.";

    Layers: "layers", "Layers", "", Layers, integer(1.0, MAX_LAYERS as f64), D.layers, served,
        "Services in the chain; each retries its own calls, so retries multiply.";
    TopOnly: "top_only", "Only the top retries", "", Layers, Kind::Choice(SWITCH.names), SWITCH.position(D.only_top_retries), with_layers,
        "Lower layers make one attempt: one owner of retries.";

    Seed: "seed", "Seed", "", Randomness, integer(0.0, 4294967295.0), D.seed, always,
        "Fixes every random draw: the same link gives the same numbers.";
    SharedSeed: "shared", "Shared seed", "", Randomness, Kind::Choice(SWITCH.names), SWITCH.position(D.shared_seed), always,
        "Every client draws the same random numbers: jitter with a shared seed is no jitter.";
}

impl P {
    pub fn param(self) -> &'static Param {
        &PARAMS[self as usize]
    }
}

/// Something the link reader fixed or ignored, to tell the person.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    pub key: String,
    pub message: String,
}

/// One value per parameter, always valid.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    values: Vec<f64>,
    /// Compare mode's policy B: where it differs from A, per parameter.
    /// Only parameters of one client's policy ([`Param::per_policy`]) have
    /// overrides; everything else, the world, is shared.
    overrides: Vec<Option<f64>>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            values: PARAMS.iter().map(|p| p.default).collect(),
            overrides: vec![None; PARAMS.len()],
        }
    }
}

/// Most `key=value` pairs a link is read for: every parameter, for A and
/// B, fits many times over, and a longer link is someone's mistake or
/// attack. The rest is ignored, with a notice that says so.
pub const MAX_PAIRS: usize = 200;

/// Prefix of policy B's keys in a link: `B.jitter=full`.
const B_PREFIX: &str = "B.";

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
                Some(format!("not a finite number; using {}", self.default)),
            );
        }
        let (low, high, whole) = match self.kind {
            Kind::Number { min, max, .. } => (min, max, false),
            Kind::Integer { min, max } => (min, max, true),
            Kind::Choice(options) => (0.0, (options.len() - 1) as f64, true),
        };
        let rounded = if whole { value.round() } else { value };
        let clamped = rounded.clamp(low, high);
        if clamped != value {
            let why = if rounded != value && clamped == rounded {
                format!("{value} is not a whole number; using {clamped}")
            } else {
                format!("{value} is outside {low}..{high}; using {clamped}")
            };
            (clamped, Some(why))
        } else {
            (value, None)
        }
    }

    /// The text of a value in a link.
    pub fn format(&self, value: f64) -> String {
        match self.kind {
            Kind::Choice(options) => options[value as usize].to_string(),
            // Rust prints the shortest text that reads back to the same f64.
            _ => format!("{value}"),
        }
    }

    /// Reads a value from a link or a number box.
    pub fn parse(&self, text: &str) -> Result<f64, String> {
        let text = text.trim();
        match self.kind {
            Kind::Choice(options) => options
                .iter()
                .position(|o| o.eq_ignore_ascii_case(text))
                .map(|i| i as f64)
                .ok_or_else(|| format!("must be one of {}", options.join(", "))),
            _ => crate::decimal::parse_f64(text).ok_or_else(|| "is not a number".to_string()),
        }
    }
}

impl Config {
    pub fn get(&self, p: P) -> f64 {
        self.values[p as usize]
    }

    /// Sets a value, sanitized; returns why it changed, if it did.
    pub fn set(&mut self, p: P, value: f64) -> Option<String> {
        self.set_at(p as usize, value)
    }

    pub fn value_at(&self, index: usize) -> f64 {
        self.values[index]
    }

    pub fn set_at(&mut self, index: usize, value: f64) -> Option<String> {
        let (value, why) = PARAMS[index].sanitize(value);
        self.values[index] = value;
        // B keeps only real differences from A.
        if self.overrides[index] == Some(value) {
            self.overrides[index] = None;
        }
        why
    }

    pub fn comparing(&self) -> bool {
        self.switch(P::Compare)
    }

    /// Whether the sweep draws the four classic strategies.
    pub fn classic_sweep(&self) -> bool {
        self.sweep_curves() == SweepCurves::Classic
    }

    /// Policy B's value of parameter `index` (A's where B does not differ).
    pub fn value_b_at(&self, index: usize) -> f64 {
        self.overrides[index].unwrap_or(self.values[index])
    }

    /// Sets policy B's value; a value equal to A's removes the difference.
    /// Parameters that are not per policy are left alone.
    pub fn set_b_at(&mut self, index: usize, value: f64) -> Option<String> {
        if !PARAMS[index].per_policy() {
            return Some("is shared by both policies; set it without B.".to_string());
        }
        let (value, why) = PARAMS[index].sanitize(value);
        self.overrides[index] = Some(value).filter(|v| *v != self.values[index]);
        why
    }

    /// The configuration as policy B sees it: A's world with B's policy,
    /// compare mode off.
    pub fn policy_b_config(&self) -> Config {
        let mut b = Config::default();
        for index in 0..PARAMS.len() {
            b.values[index] = self.value_b_at(index);
        }
        b.values[P::Compare as usize] = SWITCH.position(false);
        b
    }

    fn count(&self, p: P) -> u32 {
        self.get(p) as u32
    }

    fn seconds_or_none(&self, p: P) -> Option<f64> {
        Some(self.get(p)).filter(|s| *s > 0.0)
    }

    pub fn shape(&self) -> Shape {
        SHAPES.at(self.get(P::Shape))
    }

    pub fn jitter(&self) -> Jitter {
        JITTERS.at(self.get(P::Jitter))
    }

    pub fn seed(&self) -> u64 {
        self.get(P::Seed) as u64
    }

    fn switch(&self, p: P) -> bool {
        SWITCH.at(self.get(p))
    }

    fn spread(&self, p: P) -> Spread {
        SPREADS.at(self.get(p))
    }

    pub fn budget_kind(&self) -> BudgetKind {
        BUDGETS.at(self.get(P::Budget))
    }

    pub fn breaker_mode(&self) -> BreakerMode {
        BREAKERS.at(self.get(P::Breaker))
    }

    pub fn workload(&self) -> WorkloadKind {
        WORKLOADS.at(self.get(P::Workload))
    }

    /// What the sweep chart compares.
    pub fn sweep_curves(&self) -> SweepCurves {
        SWEEPS.at(self.get(P::Sweep))
    }

    /// The simulator's scenario. `work_limit` stays at the simulator's
    /// default; `report::run`, which the page and the command line share,
    /// lowers it to `report::WORK_LIMIT`.
    pub fn scenario(&self) -> Scenario {
        let budget = BudgetConfig {
            kind: self.budget_kind(),
            percent: self.get(P::BudgetPercent),
            min_per_second: self.get(P::BudgetFloor),
            window: self.get(P::BudgetWindow),
            basis: BASES.at(self.get(P::BudgetBasis)),
            max_tokens: self.get(P::Tokens),
            token_ratio: self.get(P::TokenRatio),
            quota: self.get(P::Quota),
            retry_cost: self.get(P::QuotaCost),
            timeout_cost: self.get(P::QuotaTimeoutCost),
            ..BudgetConfig::default()
        };
        let breaker = BreakerConfig {
            mode: self.breaker_mode(),
            failure_ratio: self.get(P::BreakerRatio),
            window: self.get(P::BreakerWindow),
            min_requests: self.count(P::BreakerMin),
            cool_down: self.get(P::BreakerCool),
            probes: self.count(P::BreakerProbes),
        };
        Scenario {
            seed: self.seed(),
            horizon: self.get(P::Horizon),
            buckets: self.count(P::Buckets),
            workload: self.workload(),
            rate: self.get(P::Rate),
            spike_rate: self.get(P::SpikeRate),
            spike_start: self.get(P::SpikeAt),
            spike_duration: self.get(P::SpikeFor),
            clients: self.count(P::Clients),
            crowd_start: self.get(P::CrowdAt),
            crowd_window: self.get(P::CrowdOver),
            hop: self.spread(P::Hop),
            hop_mean: self.get(P::HopMean),
            hop_sd: self.get(P::HopSd),
            failure: self.get(P::Failure),
            mix_transient: self.get(P::Mix503),
            mix_throttled: self.get(P::Mix429),
            mix_permanent: self.get(P::Mix400),
            mix_unknown: self.get(P::Mix500),
            retry_after: self.get(P::RetryAfter),
            outage_start: self.get(P::OutageAt),
            outage_duration: self.get(P::OutageFor),
            outage_mode: OUTAGES.at(self.get(P::OutageMode)),
            workers: self.count(P::Workers),
            queue_limit: self.count(P::Queue),
            service: self.spread(P::Service),
            service_time: self.get(P::ServiceTime),
            service_sd: self.get(P::ServiceSd),
            latency_slope: self.get(P::Slope),
            lost_responses: self.get(P::Lost),
            policy: self.policy(),
            budget,
            breaker,
            honour_retry_after: self.switch(P::HonourRetryAfter),
            idempotency_key: self.switch(P::IdempotencyKey),
            shared_seed: self.switch(P::SharedSeed),
            layers: self.count(P::Layers),
            only_top_retries: self.switch(P::TopOnly),
            ..Scenario::default()
        }
    }

    pub fn policy(&self) -> Policy {
        Policy {
            attempts: self.count(P::Attempts),
            shape: self.shape(),
            base: self.get(P::Base),
            cap: self.get(P::Cap),
            multiplier: self.get(P::Multiplier),
            jitter: self.jitter(),
            jitter_fraction: self.get(P::JitterFraction),
            attempt_timeout: self.seconds_or_none(P::Timeout),
            deadline: self.seconds_or_none(P::Deadline),
        }
    }

    /// The share link's query string (without `?`): the version, then every
    /// value that differs from that version's default. The version pins the
    /// defaults, so links stay short and keep their meaning.
    pub fn to_link(&self) -> String {
        let mut link = format!("v={LINK_VERSION}");
        for (param, value) in PARAMS.iter().zip(&self.values) {
            if *value == param.default {
                continue;
            }
            link.push('&');
            link.push_str(param.key);
            link.push('=');
            link.push_str(&param.format(*value));
        }
        if self.comparing() {
            for (param, value) in PARAMS.iter().zip(&self.overrides) {
                if let Some(value) = value {
                    link += &format!("&{B_PREFIX}{}={}", param.key, param.format(*value));
                }
            }
        }
        link
    }

    /// Reads a link's query string (with or without `?`). Never fails.
    /// Embed keys are checked like the rest, their notices included, but
    /// dropped: [`read_link`] keeps them.
    pub fn from_link(query: &str) -> (Config, Vec<Notice>) {
        let (config, _, notices) = read_link(query);
        (config, notices)
    }
}

/// Reads a link's query string: the configuration, how it is embedded if
/// it asks to be, and what was fixed or ignored. Never fails.
pub fn read_link(query: &str) -> (Config, Option<Embed>, Vec<Notice>) {
    let mut config = Config::default();
    let mut notices = Vec::new();
    let mut notice = |key: &str, message: String| {
        notices.push(Notice {
            key: clip(key),
            message,
        })
    };
    let mut version_seen = false;
    // B's values are set after all of A's, since B differs from A.
    let mut b_values = Vec::new();
    // Read once the whole link is: `controls` may come before `embed`.
    let mut embed_pairs = Vec::new();
    let query = query.strip_prefix('?').unwrap_or(query);
    let mut pairs = query.split('&').filter(|p| !p.is_empty());
    for pair in pairs.by_ref().take(MAX_PAIRS) {
        let (key, raw) = pair.split_once('=').unwrap_or((pair, ""));
        let key = percent_decode(key);
        let raw = percent_decode(raw);
        if key == "v" {
            version_seen = true;
            if raw.trim() != LINK_VERSION.to_string() {
                notice(
                    "v",
                    format!("unknown link version; read as version {LINK_VERSION}"),
                );
            }
            continue;
        }
        if key == EMBED_KEY || key == CONTROLS_KEY {
            embed_pairs.push((key, raw));
            continue;
        }
        let (for_b, name) = match key.strip_prefix(B_PREFIX) {
            Some(name) => (true, name),
            None => (false, key.as_str()),
        };
        let Some(index) = PARAMS.iter().position(|p| p.key == name) else {
            notice(&key, "unknown key; ignored".to_string());
            continue;
        };
        let param = &PARAMS[index];
        match param.parse(&raw) {
            Ok(value) if for_b => b_values.push((index, value, key.clone())),
            Ok(value) => {
                if let Some(why) = config.set_at(index, value) {
                    notice(&key, why);
                }
            }
            Err(why) => notice(
                &key,
                format!(
                    "'{}' {why}; using {}",
                    clip(&raw),
                    param.format(param.default)
                ),
            ),
        }
    }
    let ignored = pairs.count();
    if ignored > 0 {
        let pairs = if ignored == 1 { "pair" } else { "pairs" };
        notice(
            "link",
            format!("{ignored} more {pairs} ignored: a link is read up to its first {MAX_PAIRS}"),
        );
    }
    // Without compare mode a link never writes B's values, so keeping
    // them would make a configuration whose link loses them.
    let comparing = config.comparing();
    for (index, value, key) in b_values {
        if !comparing {
            notice(
                &key,
                "is policy B's, read only with compare=on; ignored".to_string(),
            );
            continue;
        }
        if let Some(why) = config.set_b_at(index, value) {
            notice(&key, why);
        }
    }
    if !version_seen {
        notice(
            "v",
            format!("no link version; read as version {LINK_VERSION}"),
        );
    }
    let embed = Embed::read(&embed_pairs, &mut notice);
    (config, embed, notices)
}

/// The key that asks for the embed layout and names its chart:
/// `embed=latency`.
pub const EMBED_KEY: &str = "embed";
/// The key that names an embed's controls, by their own keys:
/// `controls=attempts,jitter`.
pub const CONTROLS_KEY: &str = "controls";
/// Most controls an embed shows: beside a chart in a 600 x 400 frame,
/// more would crowd it.
pub const MAX_EMBED_CONTROLS: usize = 3;

/// What an embed shows in place of the lesson's chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmbedChart {
    /// Whichever chart carries the lesson of the settings.
    Lesson,
    /// This one; the replay opens beside the lesson's chart.
    Chart(ChartId),
}

impl EmbedChart {
    /// Every option with its word in a link, in the order a notice lists them.
    pub const ALL: [EmbedChart; 8] = [
        EmbedChart::Lesson,
        EmbedChart::Chart(ChartId::Load),
        EmbedChart::Chart(ChartId::Pauses),
        EmbedChart::Chart(ChartId::Latency),
        EmbedChart::Chart(ChartId::Mechanism),
        EmbedChart::Chart(ChartId::Contention),
        EmbedChart::Chart(ChartId::Sweep),
        EmbedChart::Chart(ChartId::Replay),
    ];

    /// Its word in a link.
    pub fn word(self) -> &'static str {
        match self {
            EmbedChart::Lesson => "lesson",
            EmbedChart::Chart(chart) => chart.word(),
        }
    }

    fn parse(text: &str) -> Option<EmbedChart> {
        let text = text.trim();
        // A bare `embed` asks for the embed as the lesson has it.
        if text.is_empty() {
            return Some(EmbedChart::Lesson);
        }
        EmbedChart::ALL
            .into_iter()
            .find(|chart| chart.word().eq_ignore_ascii_case(text))
    }
}

/// A link that asks to be embedded in another page: one chart, the lesson
/// and a few controls, nothing else.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Embed {
    pub chart: EmbedChart,
    /// At most [`MAX_EMBED_CONTROLS`], each once, in the link's order.
    pub controls: Vec<P>,
}

impl Embed {
    /// Reads the `embed` and `controls` pairs of a link, the last of each
    /// winning as for any key. Anything unusable is reported and replaced
    /// by what the page can show.
    fn read(pairs: &[(String, String)], notice: &mut impl FnMut(&str, String)) -> Option<Embed> {
        let last = |key: &str| pairs.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v);
        let controls = last(CONTROLS_KEY);
        let Some(chart) = last(EMBED_KEY) else {
            if controls.is_some() {
                notice(
                    CONTROLS_KEY,
                    format!("is read only with {EMBED_KEY}=...; ignored"),
                );
            }
            return None;
        };
        let chart = EmbedChart::parse(chart).unwrap_or_else(|| {
            let words: Vec<&str> = EmbedChart::ALL.iter().map(|chart| chart.word()).collect();
            notice(
                EMBED_KEY,
                format!(
                    "'{}' must be one of {}; showing the lesson's chart",
                    clip(chart),
                    words.join(", ")
                ),
            );
            EmbedChart::Lesson
        });
        let mut chosen: Vec<P> = Vec::new();
        let mut named = 0;
        for name in controls
            .map(String::as_str)
            .unwrap_or("")
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            // A link's length is bounded, but its commas are not: stop
            // reading names long after the few that are shown.
            .take(MAX_PAIRS)
        {
            match PARAMS.iter().position(|p| p.key == name) {
                None => notice(
                    CONTROLS_KEY,
                    format!("'{}' is no parameter's key; ignored", clip(name)),
                ),
                Some(index) if chosen.contains(&P::ALL[index]) => {
                    notice(CONTROLS_KEY, format!("'{name}' is named twice; shown once"))
                }
                Some(index) => {
                    named += 1;
                    if chosen.len() < MAX_EMBED_CONTROLS {
                        chosen.push(P::ALL[index]);
                    }
                }
            }
        }
        if named > MAX_EMBED_CONTROLS {
            let keys: Vec<&str> = chosen.iter().map(|p| p.param().key).collect();
            notice(
                CONTROLS_KEY,
                format!(
                    "{named} controls named; an embed shows at most {MAX_EMBED_CONTROLS}: {}",
                    keys.join(", ")
                ),
            );
        }
        Some(Embed {
            chart,
            controls: chosen,
        })
    }

    /// The embed's pairs, to follow a configuration's link: `read_link`
    /// gives back this embed for them, and writes them back the same.
    pub fn to_link(&self) -> String {
        let mut link = format!("{EMBED_KEY}={}", self.chart.word());
        if !self.controls.is_empty() {
            let keys: Vec<&str> = self.controls.iter().map(|p| p.param().key).collect();
            link += &format!("&{CONTROLS_KEY}={}", keys.join(","));
        }
        link
    }
}

/// Keeps what a link can make the page repeat short.
fn clip(text: &str) -> String {
    const LIMIT: usize = 40;
    if text.chars().count() <= LIMIT {
        text.to_string()
    } else {
        text.chars().take(LIMIT).collect::<String>() + "..."
    }
}

/// Decodes `%XX` and `+` as a browser would; invalid escapes stay as they are.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len()
                && bytes[i + 1].is_ascii_hexdigit()
                && bytes[i + 2].is_ascii_hexdigit() =>
            {
                // Both are hex digits, checked above.
                let digit = |b: u8| (b as char).to_digit(16).unwrap_or(0) as u8;
                out.push(digit(bytes[i + 1]) * 16 + digit(bytes[i + 2]));
                i += 2;
            }
            byte => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_keys_are_unique_and_defaults_valid() {
        for (i, a) in PARAMS.iter().enumerate() {
            assert_eq!(a.sanitize(a.default).1, None, "{} default invalid", a.key);
            for b in &PARAMS[i + 1..] {
                assert_ne!(a.key, b.key);
            }
        }
    }

    #[test]
    fn link_round_trips_exactly() {
        let mut config = Config::default();
        config.set(P::Base, 0.123456789);
        config.set(P::Jitter, 3.0);
        config.set(P::Seed, 4294967295.0);
        let (back, notices) = Config::from_link(&config.to_link());
        assert_eq!(notices, []);
        assert_eq!(back, config);
        assert_eq!(back.to_link(), config.to_link());
    }

    /// A link past the pair limit is read up to it, and says what it left:
    /// a setting after 200 pairs must not vanish without a word.
    #[test]
    fn pairs_past_the_limit_are_reported() {
        let link = "v=1&".repeat(MAX_PAIRS) + "attempts=7";
        let (config, notices) = Config::from_link(&link);
        assert_eq!(config, Config::default());
        assert_eq!(
            notices,
            [Notice {
                key: "link".to_string(),
                message: "1 more pair ignored: a link is read up to its first 200".to_string(),
            }]
        );
        let (_, notices) = Config::from_link(&(link + "&&jitter=none&x"));
        assert_eq!(
            notices[0].message,
            "3 more pairs ignored: a link is read up to its first 200"
        );
        let (_, notices) = Config::from_link(&"v=1&".repeat(MAX_PAIRS));
        assert_eq!(notices, []);
    }

    /// B's values are written only in compare mode, so they are read only
    /// there: otherwise the configuration would hold what its link loses.
    #[test]
    fn b_values_without_compare_mode_are_reported_and_ignored() {
        let (config, notices) = Config::from_link("v=1&B.jitter=none&jitter=equal");
        assert_eq!(config.value_b_at(P::Jitter as usize), config.get(P::Jitter));
        assert_eq!(Config::from_link(&config.to_link()), (config, vec![]));
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert_eq!(notices[0].key, "B.jitter");
    }

    /// An embed's pairs read back as written, after the configuration's,
    /// and the configuration alone is the same link without them.
    #[test]
    fn embed_pairs_round_trip_canonically() {
        let link = "v=1&attempts=3&embed=latency&controls=jitter,attempts";
        let (config, embed, notices) = read_link(link);
        assert_eq!(notices, []);
        let embed = embed.expect("the link asks to be embedded");
        assert_eq!(
            embed,
            Embed {
                chart: EmbedChart::Chart(ChartId::Latency),
                controls: vec![P::Jitter, P::Attempts],
            }
        );
        assert_eq!(format!("{}&{}", config.to_link(), embed.to_link()), link);
        assert_eq!(Config::from_link(link), (config, vec![]));
        // Every chart's word, and a bare `embed`, read back to themselves.
        for chart in EmbedChart::ALL {
            let word = chart.word();
            let (_, embed, notices) = read_link(&format!("v=1&embed={word}"));
            assert_eq!(notices, [], "{word}");
            assert_eq!(embed.as_ref().map(|e| e.chart), Some(chart), "{word}");
            assert_eq!(embed.map(|e| e.to_link()), Some(format!("embed={word}")));
        }
        let (_, embed, notices) = read_link("v=1&embed");
        assert_eq!(notices, []);
        assert_eq!(embed.map(|e| e.to_link()), Some("embed=lesson".to_string()));
        // Case, spaces and escaped commas are read, and written plainly.
        let (_, embed, notices) = read_link("v=1&controls=+attempts%2C%2Cjitter,&embed=LOAD");
        assert_eq!(notices, []);
        assert_eq!(
            embed.map(|e| e.to_link()),
            Some("embed=load&controls=attempts,jitter".to_string())
        );
    }

    /// Whatever a link says about embedding, the page gets a chart it can
    /// draw and at most three controls it has, and the person is told
    /// what was changed, as text.
    #[test]
    fn hostile_embed_pairs_are_reported_and_replaced() {
        let (config, embed, notices) = read_link(
            "v=1&embed=%3Cimg%20src%3Dx%3E&controls=wat,attempts,attempts,jitter,base,cap,B.jitter",
        );
        assert_eq!(config, Config::default());
        assert_eq!(
            embed,
            Some(Embed {
                chart: EmbedChart::Lesson,
                controls: vec![P::Attempts, P::Jitter, P::Base],
            })
        );
        let messages: Vec<(&str, &str)> = notices
            .iter()
            .map(|n| (n.key.as_str(), n.message.as_str()))
            .collect();
        assert_eq!(
            messages,
            [
                (
                    "embed",
                    "'<img src=x>' must be one of lesson, load, pauses, latency, mechanism, \
                     contention, sweep, replay; showing the lesson's chart"
                ),
                ("controls", "'wat' is no parameter's key; ignored"),
                ("controls", "'attempts' is named twice; shown once"),
                ("controls", "'B.jitter' is no parameter's key; ignored"),
                (
                    "controls",
                    "4 controls named; an embed shows at most 3: attempts, jitter, base"
                ),
            ]
        );
        // Controls without an embed are no embed.
        let (_, embed, notices) = read_link("v=1&controls=attempts");
        assert_eq!(embed, None);
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert_eq!(notices[0].key, "controls");
        // Endless commas cost nothing and name nothing.
        let (_, embed, notices) =
            read_link(&format!("v=1&embed=load&controls={}", ",".repeat(100_000)));
        assert_eq!(notices, []);
        assert_eq!(embed.map(|e| e.controls), Some(vec![]));
        // A name too long to repeat is cut in the notice.
        let (_, _, notices) = read_link(&format!("v=1&embed={}", "x".repeat(1000)));
        assert!(notices[0].message.len() < 200, "{:?}", notices[0]);
    }

    /// Embed pairs never reach the configuration, so a report is the same
    /// with or without them.
    #[test]
    fn embed_pairs_leave_the_configuration_alone() {
        let plain = "v=1&compare=on&attempts=5&B.jitter=none";
        let (config, embed, _) = read_link(plain);
        assert_eq!(embed, None);
        let (embedded, _, _) = read_link(&format!("{plain}&embed=sweep&controls=attempts"));
        assert_eq!(embedded, config);
        assert_eq!(embedded.to_link(), plain);
    }

    #[test]
    fn link_holds_only_what_differs_from_the_defaults() {
        assert_eq!(Config::default().to_link(), "v=1");
        let mut config = Config::default();
        config.set(P::Jitter, 0.0);
        config.set(P::OutageFor, 10.0);
        assert_eq!(config.to_link(), "v=1&jitter=none&outage_for=10");
    }

    /// Where a parameter's value must land.
    enum Lands {
        /// Exactly this change to the default scenario, and no other.
        Scenario(fn(&mut Scenario)),
        /// Outside the scenario, where this says the value is read; the
        /// scenario must not change.
        Elsewhere(fn(&Config) -> bool),
    }
    use Lands::{Elsewhere, Scenario as Field};

    /// Every parameter with a value in link form and where it must land.
    /// A choice parameter has a row for each of its options, which pins
    /// every link word to the value it means.
    fn wiring() -> Vec<(P, &'static str, Lands)> {
        vec![
            (P::Compare, "on", Elsewhere(|c| c.comparing())),
            (P::Compare, "off", Elsewhere(|c| !c.comparing())),
            (P::Attempts, "7", Field(|s| s.policy.attempts = 7)),
            (
                P::Shape,
                "constant",
                Field(|s| s.policy.shape = Shape::Constant),
            ),
            (
                P::Shape,
                "linear",
                Field(|s| s.policy.shape = Shape::Linear),
            ),
            (
                P::Shape,
                "exponential",
                Field(|s| s.policy.shape = Shape::Exponential),
            ),
            (P::Base, "0.37", Field(|s| s.policy.base = 0.37)),
            (P::Cap, "3.5", Field(|s| s.policy.cap = 3.5)),
            (P::Multiplier, "2.5", Field(|s| s.policy.multiplier = 2.5)),
            (P::Jitter, "none", Field(|s| s.policy.jitter = Jitter::None)),
            (P::Jitter, "full", Field(|s| s.policy.jitter = Jitter::Full)),
            (
                P::Jitter,
                "equal",
                Field(|s| s.policy.jitter = Jitter::Equal),
            ),
            (
                P::Jitter,
                "decorrelated",
                Field(|s| s.policy.jitter = Jitter::Decorrelated),
            ),
            (
                P::Jitter,
                "proportional",
                Field(|s| s.policy.jitter = Jitter::Proportional),
            ),
            (
                P::JitterFraction,
                "0.35",
                Field(|s| s.policy.jitter_fraction = 0.35),
            ),
            (
                P::Timeout,
                "2.5",
                Field(|s| s.policy.attempt_timeout = Some(2.5)),
            ),
            (P::Timeout, "0", Field(|s| s.policy.attempt_timeout = None)),
            (P::Deadline, "4.5", Field(|s| s.policy.deadline = Some(4.5))),
            (
                P::HonourRetryAfter,
                "off",
                Field(|s| s.honour_retry_after = false),
            ),
            (
                P::HonourRetryAfter,
                "on",
                Field(|s| s.honour_retry_after = true),
            ),
            (
                P::IdempotencyKey,
                "off",
                Field(|s| s.idempotency_key = false),
            ),
            (P::IdempotencyKey, "on", Field(|s| s.idempotency_key = true)),
            (
                P::Budget,
                "none",
                Field(|s| s.budget.kind = BudgetKind::None),
            ),
            (
                P::Budget,
                "ratio",
                Field(|s| s.budget.kind = BudgetKind::Ratio),
            ),
            (
                P::Budget,
                "token-bucket",
                Field(|s| s.budget.kind = BudgetKind::TokenBucket),
            ),
            (
                P::Budget,
                "aws-quota",
                Field(|s| s.budget.kind = BudgetKind::AwsQuota),
            ),
            (P::BudgetPercent, "0.15", Field(|s| s.budget.percent = 0.15)),
            (
                P::BudgetFloor,
                "3",
                Field(|s| s.budget.min_per_second = 3.0),
            ),
            (P::BudgetWindow, "12.5", Field(|s| s.budget.window = 12.5)),
            (
                P::BudgetBasis,
                "successes",
                Field(|s| s.budget.basis = RatioBasis::Successes),
            ),
            (
                P::BudgetBasis,
                "requests",
                Field(|s| s.budget.basis = RatioBasis::Requests),
            ),
            (P::Tokens, "17", Field(|s| s.budget.max_tokens = 17.0)),
            (
                P::TokenRatio,
                "0.25",
                Field(|s| s.budget.token_ratio = 0.25),
            ),
            (P::Quota, "450", Field(|s| s.budget.quota = 450.0)),
            (P::QuotaCost, "6", Field(|s| s.budget.retry_cost = 6.0)),
            (
                P::QuotaTimeoutCost,
                "11",
                Field(|s| s.budget.timeout_cost = 11.0),
            ),
            (
                P::Breaker,
                "off",
                Field(|s| s.breaker.mode = BreakerMode::Off),
            ),
            (
                P::Breaker,
                "all",
                Field(|s| s.breaker.mode = BreakerMode::All),
            ),
            (
                P::Breaker,
                "retries",
                Field(|s| s.breaker.mode = BreakerMode::RetriesOnly),
            ),
            (
                P::BreakerRatio,
                "0.45",
                Field(|s| s.breaker.failure_ratio = 0.45),
            ),
            (P::BreakerWindow, "13.5", Field(|s| s.breaker.window = 13.5)),
            (P::BreakerMin, "9", Field(|s| s.breaker.min_requests = 9)),
            (P::BreakerCool, "2.5", Field(|s| s.breaker.cool_down = 2.5)),
            (P::BreakerProbes, "4", Field(|s| s.breaker.probes = 4)),
            (
                P::Workload,
                "poisson",
                Field(|s| s.workload = WorkloadKind::Poisson),
            ),
            (
                P::Workload,
                "crowd",
                Field(|s| s.workload = WorkloadKind::Crowd),
            ),
            (
                P::Workload,
                "contention",
                Field(|s| s.workload = WorkloadKind::Contention),
            ),
            (P::Rate, "150", Field(|s| s.rate = 150.0)),
            (P::SpikeRate, "250", Field(|s| s.spike_rate = 250.0)),
            (P::SpikeAt, "15.5", Field(|s| s.spike_start = 15.5)),
            (P::SpikeFor, "7.5", Field(|s| s.spike_duration = 7.5)),
            (P::Clients, "321", Field(|s| s.clients = 321)),
            (P::CrowdAt, "2.5", Field(|s| s.crowd_start = 2.5)),
            (P::CrowdOver, "3.5", Field(|s| s.crowd_window = 3.5)),
            (P::Horizon, "45", Field(|s| s.horizon = 45.0)),
            (
                P::Sweep,
                "policies",
                Elsewhere(|c| c.sweep_curves() == SweepCurves::Policies),
            ),
            (
                P::Sweep,
                "classic",
                Elsewhere(|c| c.sweep_curves() == SweepCurves::Classic),
            ),
            (P::Buckets, "123", Field(|s| s.buckets = 123)),
            (P::Failure, "0.33", Field(|s| s.failure = 0.33)),
            (P::Mix503, "0.45", Field(|s| s.mix_transient = 0.45)),
            (P::Mix429, "0.55", Field(|s| s.mix_throttled = 0.55)),
            (P::Mix400, "0.65", Field(|s| s.mix_permanent = 0.65)),
            (P::Mix500, "0.75", Field(|s| s.mix_unknown = 0.75)),
            (P::RetryAfter, "1.5", Field(|s| s.retry_after = 1.5)),
            (P::OutageAt, "12.5", Field(|s| s.outage_start = 12.5)),
            (P::OutageFor, "6.5", Field(|s| s.outage_duration = 6.5)),
            (
                P::OutageMode,
                "fail-fast",
                Field(|s| s.outage_mode = OutageMode::FailFast),
            ),
            (
                P::OutageMode,
                "hang",
                Field(|s| s.outage_mode = OutageMode::Hang),
            ),
            (P::Workers, "17", Field(|s| s.workers = 17)),
            (P::Queue, "55", Field(|s| s.queue_limit = 55)),
            (
                P::Service,
                "constant",
                Field(|s| s.service = Spread::Constant),
            ),
            (
                P::Service,
                "exponential",
                Field(|s| s.service = Spread::Exponential),
            ),
            (P::Service, "normal", Field(|s| s.service = Spread::Normal)),
            (P::ServiceTime, "0.075", Field(|s| s.service_time = 0.075)),
            (P::ServiceSd, "0.025", Field(|s| s.service_sd = 0.025)),
            (P::Slope, "0.003", Field(|s| s.latency_slope = 0.003)),
            (P::Lost, "0.15", Field(|s| s.lost_responses = 0.15)),
            (P::Hop, "constant", Field(|s| s.hop = Spread::Constant)),
            (
                P::Hop,
                "exponential",
                Field(|s| s.hop = Spread::Exponential),
            ),
            (P::Hop, "normal", Field(|s| s.hop = Spread::Normal)),
            (P::HopMean, "0.007", Field(|s| s.hop_mean = 0.007)),
            (P::HopSd, "0.004", Field(|s| s.hop_sd = 0.004)),
            (P::Layers, "3", Field(|s| s.layers = 3)),
            (P::TopOnly, "off", Field(|s| s.only_top_retries = false)),
            (P::TopOnly, "on", Field(|s| s.only_top_retries = true)),
            (P::Seed, "42", Field(|s| s.seed = 42)),
            (P::SharedSeed, "off", Field(|s| s.shared_seed = false)),
            (P::SharedSeed, "on", Field(|s| s.shared_seed = true)),
        ]
    }

    #[test]
    fn every_parameter_lands_in_its_own_field() {
        let base = Config::default().scenario();
        for (p, text, lands) in wiring() {
            let param = p.param();
            let value = param
                .parse(text)
                .unwrap_or_else(|why| panic!("{}={text}: {why}", param.key));
            let mut config = Config::default();
            assert_eq!(
                config.set(p, value),
                None,
                "{}={text} is out of range",
                param.key
            );
            let mut expected = base.clone();
            match lands {
                Field(change) => change(&mut expected),
                Elsewhere(read) => assert!(read(&config), "{}={text} is not read back", param.key),
            }
            assert_eq!(config.scenario(), expected, "{}={text}", param.key);
            // Policy B's value lands in the same field of B's scenario and
            // leaves A's alone.
            if param.per_policy() {
                let mut config = Config::default();
                config.set(P::Compare, SWITCH.position(true));
                assert_eq!(config.set_b_at(p as usize, value), None);
                assert_eq!(config.scenario(), base, "B.{}={text} moved A", param.key);
                assert_eq!(
                    config.policy_b_config().scenario(),
                    expected,
                    "B.{}={text}",
                    param.key
                );
            }
        }
    }

    #[test]
    fn the_wiring_table_covers_every_parameter_and_option() {
        let rows = wiring();
        for (index, param) in PARAMS.iter().enumerate() {
            let values: Vec<f64> = rows
                .iter()
                .filter(|(p, _, _)| *p as usize == index)
                .map(|(_, text, _)| param.parse(text).expect("checked by the wiring test"))
                .collect();
            assert!(
                values.iter().any(|v| *v != param.default),
                "{} has no wiring row away from its default",
                param.key
            );
            if let Kind::Choice(options) = param.kind {
                for (position, option) in options.iter().enumerate() {
                    assert!(
                        values.contains(&(position as f64)),
                        "{}={option} has no wiring row",
                        param.key
                    );
                }
            }
        }
    }

    #[test]
    fn the_default_impls_agree_with_the_table() {
        let config = Config::default();
        let scenario = config.scenario();
        // The table covers every field but `work_limit`, which
        // `report::run` lowers for the page and the command line alike.
        assert_eq!(scenario, Scenario::default());
        assert_eq!(scenario.budget, BudgetConfig::default());
        assert_eq!(scenario.breaker, BreakerConfig::default());
        // The one planned difference: a bare policy waits for every answer,
        // while the playground's attempts time out after 1 s, so a server
        // that hangs does not hang the run.
        assert_eq!(
            config.policy(),
            Policy {
                attempt_timeout: Some(1.0),
                ..Policy::default()
            }
        );
        assert_eq!(Policy::default().attempt_timeout, None);
        assert!(!config.comparing());
        assert!(!config.classic_sweep());
    }

    #[test]
    fn missing_keys_take_defaults_without_complaint() {
        let (config, notices) = Config::from_link("?v=1&attempts=2");
        assert_eq!(config.get(P::Attempts), 2.0);
        assert_eq!(config.get(P::Cap), P::Cap.param().default);
        assert_eq!(notices, []);
    }

    #[test]
    fn bad_values_are_fixed_and_reported() {
        let (config, notices) = Config::from_link(
            "attempts=1e300&base=-5&cap=NaN&jitter=%3Cscript%3E&seed=abc&mult=inf&wat=1&clients=1234.5",
        );
        assert_eq!(config.get(P::Attempts), 50.0);
        assert_eq!(config.get(P::Base), 0.001);
        assert_eq!(config.get(P::Cap), P::Cap.param().default);
        assert_eq!(config.get(P::Jitter), P::Jitter.param().default);
        assert_eq!(config.get(P::Seed), P::Seed.param().default);
        assert_eq!(config.get(P::Multiplier), P::Multiplier.param().default);
        assert_eq!(config.get(P::Clients), 1235.0);
        assert!(notices[7].message.contains("whole"), "{:?}", notices[7]);
        let keys: Vec<&str> = notices.iter().map(|n| n.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "attempts", "base", "cap", "jitter", "seed", "mult", "wat", "clients", "v"
            ]
        );
        assert!(notices[3].message.contains("<script>"), "{:?}", notices[3]);
    }

    #[test]
    fn garbage_never_panics() {
        for link in [
            "",
            "&&&",
            "=",
            "%",
            "%4",
            "%zz=1",
            "a=%ff%fe",
            "v=2",
            "attempts",
            "ü=ß&base=%E2%82%AC",
        ] {
            let (config, _) = Config::from_link(link);
            assert!(config.policy().attempts >= 1);
        }
    }

    #[test]
    fn percent_escapes_decode_as_a_browser_does() {
        assert_eq!(percent_decode("%3Cb%3E+x"), "<b> x");
        // Not two hex digits: the % stays (and + is a space, as in forms).
        assert_eq!(percent_decode("%+f%4"), "% f%4");
    }

    #[test]
    fn policy_b_lives_in_the_link_as_differences_from_a() {
        let link = "v=1&compare=on&jitter=none&B.jitter=full&B.attempts=4&B.rate=5";
        let (config, notices) = Config::from_link(link);
        // B.attempts equals A's, so it is no difference; B.rate is the world's.
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert_eq!(notices[0].key, "B.rate");
        let b = config.policy_b_config();
        assert_eq!(b.jitter(), Jitter::Full);
        assert_eq!(config.jitter(), Jitter::None);
        assert_eq!(b.scenario().policy.attempts, 4);
        assert_eq!(config.to_link(), "v=1&compare=on&jitter=none&B.jitter=full");
        assert_eq!(Config::from_link(&config.to_link()).0, config);
    }

    #[test]
    fn b_follows_a_where_it_does_not_differ() {
        let (mut config, _) = Config::from_link("v=1&compare=on&B.jitter=none");
        config.set(P::Attempts, 7.0);
        let b = config.policy_b_config();
        assert_eq!(b.get(P::Attempts), 7.0);
        assert_eq!(b.jitter(), Jitter::None);
        assert!(!b.comparing());
    }

    #[test]
    fn a_difference_ends_when_a_catches_up_with_b() {
        let (mut config, _) = Config::from_link("v=1&compare=on&jitter=none&B.jitter=full");
        config.set(P::Jitter, 1.0);
        assert_eq!(config.to_link(), "v=1&compare=on");
        config.set(P::Jitter, 0.0);
        assert_eq!(
            config.policy_b_config().jitter(),
            Jitter::None,
            "B follows A again"
        );
    }

    #[test]
    fn b_keys_leave_the_link_when_compare_is_off() {
        let (mut config, _) = Config::from_link("v=1&compare=on&B.jitter=none");
        config.set(P::Compare, 0.0);
        assert_eq!(config.to_link(), "v=1");
    }

    #[test]
    fn breaker_knobs_map_to_the_scenario_and_apply_only_when_on() {
        let (config, notices) = Config::from_link(
            "v=1&breaker=retries&cb_ratio=0.3&cb_window=20&cb_min=7&cb_cool=2.5&cb_probes=1",
        );
        assert_eq!(notices, []);
        let breaker = config.scenario().breaker;
        assert_eq!(
            breaker,
            BreakerConfig {
                mode: BreakerMode::RetriesOnly,
                failure_ratio: 0.3,
                window: 20.0,
                min_requests: 7,
                cool_down: 2.5,
                probes: 1,
            }
        );
        let applies = |config: &Config, p: P| (p.param().applies)(config);
        assert!(applies(&config, P::BreakerCool));
        let off = Config::default();
        assert_eq!(off.scenario().breaker, BreakerConfig::default());
        for p in [
            P::BreakerRatio,
            P::BreakerWindow,
            P::BreakerMin,
            P::BreakerCool,
            P::BreakerProbes,
        ] {
            assert!(
                !applies(&off, p),
                "{} applies with the breaker off",
                p.param().key
            );
        }
    }

    #[test]
    fn zero_timeout_and_deadline_mean_none() {
        let mut config = Config::default();
        config.set(P::Timeout, 0.0);
        config.set(P::Deadline, 0.0);
        let policy = config.policy();
        assert_eq!((policy.attempt_timeout, policy.deadline), (None, None));
    }
}
