//! The simulator: many clients with a retry policy meet a server with finite
//! capacity and faults, in virtual time.
//!
//! A [`Scenario`] is plain data (every time in seconds); [`run`] turns it into
//! a [`Report`], in one go or a slice at a time ([`Run`]). The run is a pure function: the same scenario gives a
//! bit-identical report on every machine, natively and in wasm, because
//!
//! - time is virtual: one event queue ordered by `(time, sequence)`, so equal
//!   times pop in the order they were scheduled (`engine`); when operations
//!   cannot affect one another, each runs alone, start to end, in the
//!   order they start (`world`);
//! - randomness comes from [`Stream`](retry_core::random::Stream)s derived from the
//!   seed: one per client for its pauses (or one shared by all, with
//!   `shared_seed`), one per operation for what the server and the network
//!   do to its requests, one for the workload. Nothing an operation meets
//!   depends on the order in which the run processes operations, and
//!   compare mode's policies A and B meet the same server;
//! - nothing iterates a hash map and every transcendental function is `libm`'s.
//!
//! Memory is bounded by the work in flight plus fixed-size histograms: arrivals
//! are generated one at a time, finished operations are forgotten once the
//! server has no request of theirs left, and latencies go into a log-bucketed
//! histogram instead of a list. What is in flight has a bound too, as has
//! the time a run may take: a run that reaches one stops there and says so
//! (`world`, "Bounds").
//!
//! The vocabulary: an *operation* is what a user asked for; an *attempt* is one
//! call made for it (the first try or a retry); a *pause* is the wait before a
//! retry; *goodput* is operations that succeeded per second, as opposed to the
//! load the server sees.
//!
//! ## Model
//!
//! - **Workloads** ([`WorkloadKind`]): open-loop Poisson arrivals with an
//!   optional spike; a crowd of `clients` starting at one instant or spread
//!   over a window; or the contention model of the AWS Architecture Blog's
//!   2015 post on exponential backoff and jitter, where `clients` each
//!   update one shared row by optimistic concurrency.
//! - **Network**: every hop (client to server, server to client) takes a time
//!   drawn from [`Spread`] with `hop_mean` / `hop_sd`.
//! - **Server**: `workers` (0 = unlimited) serve requests, a bounded FIFO
//!   queue holds the rest and a full queue rejects with 503. A request takes
//!   a service time drawn from its [`ServiceShape`] (a log-normal given by
//!   its p50 and p99, or a mixture with a slow mode, for a long tail) plus `latency_slope` seconds per request already in
//!   service. The server finishes work whose client has given up (that is
//!   *wasted work*). With unlimited workers and no slope nothing at the
//!   server can change a request's service, so it is drawn when the request
//!   is sent and the request needs no arrival event. A finished request fails with probability `failure`, its
//!   class drawn from the `mix_*` weights; 429 and queue-full 503 carry
//!   `Retry-After` when `retry_after > 0`. Any response is lost with
//!   probability `lost_responses` after the action ran. During the outage
//!   window every arriving request fails fast (connection error) or hangs.
//! - **Client**: the [`Policy`] (attempts, shape, jitter, per-attempt timeout,
//!   overall deadline), a retry [`budget`](retry_core::budget), a circuit
//!   [`breaker`](retry_core::breaker), `Retry-After`, an
//!   idempotency key (without one, every execution after the first is a
//!   duplicate), errors classified by [`classify`](retry_core::classify).
//! - **Layers**: `layers` services in a chain; layer 0 is the user's client,
//!   the last layer calls the server. Each layer retries with the same policy
//!   and its own budget and breaker, unless `only_top_retries`. The deadline is the
//!   user's and propagates down; per-attempt timeouts apply to the network
//!   calls of the last layer.
//!
//! ## Speed
//!
//! A run's cost is its events, and a few tricks, each measured, keep an
//! event cheap. None changes a number of any report: the unit test in
//! `world` and the golden fingerprints hold them to that. Figures are for
//! the benchmark's reference workload (`examples/bench.rs`), natively.
//!
//! - *Operations that cannot meet run alone*, one after the other, on a
//!   short queue of their few events (`world`, `Queue::short`): without it
//!   a run takes about 60 % more time (20 % more instructions).
//! - *The plain world*: worlds that run alone through one layer are
//!   compiled apart, with every check for budgets, breakers, layers,
//!   contention and a queue at the server folded away (`World<true>`).
//!   Without it a 1M-operation run takes about 60 % more time natively
//!   and 20 % more in V8. Natively always; in wasm with the feature
//!   `plain-copy`, which the page's and the search's modules take (6 and 9
//!   KB gzip) and the first chart's module leaves out, for its download.
//! - *Requests that skip the queue*: with a stateless server a request's
//!   service is drawn when it is sent (`client::begin_attempt`).
//! - *A frame is one cache line*; what only some runs need of it lives in
//!   side tables (`world::slab`).
//! - *Inlining*, where it pays and where it does not. Each attribute that
//!   forces or forbids inlining carries one of these tags as a comment:
//!   - `speed: hot`, `#[inline(always)]`: on the path of most events, and
//!     small or called from few places; inlined, it lets the compiler fold
//!     `PLAIN` and the scenario's settings through it.
//!   - `speed: hot natively`, `#[cfg_attr(not(target_arch = "wasm32"),
//!     inline(always))]`: as hot, but large and called from several places.
//!     The page is built for size, and there each inlined copy would cost
//!     download (about 2 KB for `begin_attempt`'s three); natively the
//!     copies are worth their size.
//!   - `speed: out of line`, `#[inline(never)]`: rare or recursive code
//!     kept out of a hot caller, so that the caller stays small enough to
//!     be inlined itself.
//!
//!   A plain `#[inline]` is only a hint and carries no tag.

mod engine;
pub mod fault;
pub mod law;
mod recorder;
mod report;
pub mod trace;
mod world;

pub use report::{
    Cut, CutReason, FailureKind, LatencyHistogram, PAUSE_HISTOGRAMS, PauseHistogram, PerFailure,
    Report, ResetHerd, Series, Summary,
};

pub use fault::{Fault, FaultWindow, Hit};
pub use law::Law;
pub use world::{COST_PER_WORK, MAX_IN_FLIGHT_BYTES, REVIEW_EVERY, in_flight_bytes};

use retry_core::breaker::BreakerConfig;
use retry_core::budget::{BudgetConfig, Spec};
use retry_core::hint::{HintForm, HintRules};
use retry_core::policy::{Jitter, Policy, Shape};
use retry_core::range::{self, Range};

/// Where operations come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkloadKind {
    /// Open loop: operations arrive at `rate` per second (`spike_rate` during
    /// the spike) from `0` to `horizon`, each from a new client.
    Poisson,
    /// `clients` clients each make one operation, starting at `crowd_start`
    /// spread uniformly over `crowd_window` (0 = all at once).
    Crowd,
    /// `clients` clients each update one shared row once by optimistic
    /// concurrency: read the version, write conditionally, on conflict pause
    /// and start over. Starts as in `Crowd`. Server faults, capacity and
    /// timeouts do not apply; one attempt is one read + one write.
    Contention,
    /// Closed loop: `clients` clients each start an operation after a
    /// think time (exponential, mean `think`) and the next one a think time
    /// after the last ended, until `horizon`: a slow or failing server
    /// slows its own arrivals.
    Closed,
}

/// Shape of a random duration with a given mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spread {
    /// Always the mean.
    Constant,
    /// Exponential with the mean (memoryless, long tail).
    Exponential,
    /// `|Normal(mean, sd)|`, the network model of the simulator behind the
    /// AWS Architecture Blog's 2015 post on exponential backoff and jitter.
    Normal,
}

/// Shape of the time to serve one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServiceShape {
    /// Always `service_time`.
    Constant,
    /// Exponential with mean `service_time`.
    Exponential,
    /// `|Normal(service_time, service_sd)|`.
    Normal,
    /// Log-normal given by its median `service_p50` and 99th percentile
    /// `service_p99`, the two figures a dashboard shows: a long tail.
    LogNormal,
    /// A fast mode and a slow one: exponential with mean `service_time`,
    /// and for a `tail_share` of the requests `tail_factor` times longer on
    /// average.
    Mixture,
}

/// Which answers of a fan-out an attempt waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FanWait {
    /// Every answer: the slowest sets its time, and any failure fails it.
    All,
    /// The first success ends it; it fails only when every call fails.
    First,
    /// A majority of successes (2 of 3, 3 of 5): the middle answer sets its
    /// time, and it fails once a majority cannot succeed.
    Quorum,
}

impl FanWait {
    /// The successes an attempt of `calls` needs.
    pub fn needs(self, calls: u32) -> u32 {
        match self {
            FanWait::All => calls,
            FanWait::First => 1,
            FanWait::Quorum => calls / 2 + 1,
        }
    }
}

/// Which waiting request a freed worker takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueueOrder {
    /// The one that waited longest.
    Fifo,
    /// The newest: its caller is the likeliest still to wait for it, while
    /// under overload the old ones wait on (adaptive LIFO's idea).
    Lifo,
}

/// How requests are spread over the servers of a fleet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Balance {
    /// Each request to the next server in turn.
    RoundRobin,
    /// Each request to a server drawn at random (from its operation's
    /// stream).
    Random,
}

/// Which servers of a fleet a fault hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultOn {
    All,
    /// The first server only: one of the fleet crashes or slows.
    One,
}

/// What the server does to requests that arrive during the outage window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutageMode {
    /// Refuse at once with a connection error.
    FailFast,
    /// Swallow the request: no answer ever, the client's timeout must notice.
    Hang,
}

/// Everything a run depends on. Plain data; all times in seconds.
///
/// Any field value is accepted: [`run`] works on [`Scenario::sanitized`],
/// which clamps out-of-range values and replaces NaN by the default.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// Seed of every random stream of the run.
    pub seed: u64,
    /// Reporting window `[0, horizon]`; Poisson arrivals stop at `horizon`.
    /// The run continues until in-flight work drains.
    pub horizon: f64,
    /// Number of time buckets of the series over the horizon.
    pub buckets: u32,
    /// Hard limit on work: operations plus server attempts. A run that
    /// reaches it stops early and says so in `Summary::truncated` and
    /// `Summary::cut`. The run's bound on time is derived from it, and
    /// memory has a bound of its own (`world`, "Bounds"). Runs of a
    /// configuration, the page's and the command line's alike, get
    /// `simulate::WORK_LIMIT` (see [`simulate::run`](crate::simulate::run)).
    pub work_limit: u64,

    pub workload: WorkloadKind,
    /// Poisson arrivals per second outside the spike.
    pub rate: f64,
    /// Poisson arrivals per second during the spike.
    pub spike_rate: f64,
    pub spike_start: f64,
    /// 0 = no spike.
    pub spike_duration: f64,
    /// Crowd and contention: number of clients (one operation each).
    pub clients: u32,
    /// Closed loop: mean think time between a client's operations.
    pub think: f64,
    /// Crowd and contention: when the first client starts.
    pub crowd_start: f64,
    /// Crowd and contention: clients start uniformly over this window.
    pub crowd_window: f64,

    /// One-way network time between client and server.
    pub hop: Spread,
    pub hop_mean: f64,
    /// Only for `Spread::Normal`.
    pub hop_sd: f64,

    /// Probability that a served request fails.
    pub failure: f64,
    /// Relative weight of 503 among failures (transient).
    pub mix_transient: f64,
    /// Relative weight of 429 (transient, carries Retry-After).
    pub mix_throttled: f64,
    /// Relative weight of 400 (permanent: never retried).
    pub mix_permanent: f64,
    /// Relative weight of 500 (unknown: retried at most once).
    pub mix_unknown: f64,
    /// Retry-After sent with 429 and queue-full 503; 0 = none.
    pub retry_after: f64,
    /// A rate limit in front of the server: at most this many requests a
    /// window are let through (0 = none); the rest are answered 429 at
    /// once, with a Retry-After that says when the window resets. The
    /// windows are fixed, `[k w, (k + 1) w)`, and reset at the same
    /// instant for every client.
    pub rate_limit: u32,
    /// The rate limit's window, in seconds.
    pub rate_window: f64,
    /// How the rate limit writes its Retry-After.
    pub rate_hint: HintForm,
    pub outage_start: f64,
    /// 0 = no outage.
    pub outage_duration: f64,
    pub outage_mode: OutageMode,
    /// Requests served at once; 0 = unlimited (no queue).
    pub workers: u32,
    /// Requests waiting for a worker; beyond it the server answers 503.
    pub queue_limit: u32,
    /// Load shedding. Which waiting request a freed worker takes.
    pub queue_order: QueueOrder,
    /// A request that has waited longer than this when a worker would take
    /// it is answered 503, unserved; 0 = never.
    pub queue_timeout: f64,
    /// While the oldest waiting request has waited longer than this, a new
    /// request that would wait is refused with 503; 0 = never.
    pub shed_wait: f64,
    /// A waiting request whose caller no longer waits for it (timed out,
    /// or answered by another copy) is dropped unserved: the caller's
    /// cancellation reaches the server.
    pub drop_gone: bool,
    pub service: ServiceShape,
    /// Mean service time (the fast mode's in a mixture).
    pub service_time: f64,
    /// Only for `ServiceShape::Normal`.
    pub service_sd: f64,
    /// Only for `ServiceShape::LogNormal`: its median and 99th percentile.
    /// The law serves a p99 below the median as the median, and one above
    /// [`range::SERVICE_SPAN`] times it as that (see [`Law::service`]).
    pub service_p50: f64,
    pub service_p99: f64,
    /// Only for `ServiceShape::Mixture`: the share of requests in the slow
    /// mode, and how many times longer they take on average.
    pub tail_share: f64,
    pub tail_factor: f64,
    /// Extra service time per request already in service (`base + slope x
    /// in-flight`).
    pub latency_slope: f64,
    /// Probability that a response is lost after the server acted.
    pub lost_responses: f64,
    /// Capacity loss: from `drop_start`, for `drop_duration` (0 = none),
    /// the server keeps `drop_to` of its workers (rounded; unlimited
    /// workers stay unlimited). Requests in service finish; new ones wait
    /// or are refused until a worker of the smaller pool is free.
    pub drop_start: f64,
    pub drop_duration: f64,
    pub drop_to: f64,
    /// Latency spike: service that starts from `slow_start`, for
    /// `slow_duration` (0 = none), takes `slow_factor` times as long.
    pub slow_start: f64,
    pub slow_duration: f64,
    pub slow_factor: f64,
    /// Partition: from `cut_start`, for `cut_duration` (0 = none), the
    /// requests of `cut_share` of the clients are lost on the way to the
    /// server (it never sees them; their clients time out).
    pub cut_start: f64,
    pub cut_duration: f64,
    pub cut_share: f64,
    /// A fleet behind a balancer: `servers` servers, each with `workers`
    /// workers and a queue of `queue_limit` of its own; requests spread by
    /// `balance`; the outage, the capacity loss and the latency spike hit
    /// the servers `fault_on` says.
    pub servers: u32,
    pub balance: Balance,
    pub fault_on: FaultOn,

    /// The retry policy of every layer.
    pub policy: Policy,
    /// The retry budget of every layer (each layer has its own instance).
    pub budget: BudgetConfig,
    /// The circuit breaker of every layer (each layer has its own instance,
    /// shared by all its clients). It is asked when an attempt is about to
    /// be sent, after any pause: a refused attempt reaches nobody and ends
    /// its (sub)operation as `breaker_open`. Outcomes of the attempts it
    /// admitted feed it. Default: off.
    pub breaker: BreakerConfig,
    /// What a client does with the server's Retry-After: by default it
    /// waits at least as long before retrying.
    pub hints: HintRules,
    /// Send an idempotency key, so the server executes an operation once.
    pub idempotency_key: bool,
    /// Every client uses the same random stream (stream 0): jitter with a
    /// shared seed is no jitter.
    pub shared_seed: bool,
    /// Services in the chain, at least 1.
    pub layers: u32,
    /// Only layer 0 retries; lower layers make one attempt.
    pub only_top_retries: bool,
    /// The last layer sends each attempt to this many servers at once and
    /// waits for the answers `fan_wait` says. 1 = one call. Each of those calls counts as an attempt of
    /// that layer (`attempts_by_layer`) and a call at the server. Hedging is
    /// off with a fan-out.
    pub fan_out: u32,
    /// Which answers of a fan-out an attempt waits for.
    pub fan_wait: FanWait,
    /// The attempts of the layers below the top, from the second: each
    /// hop its own, 0 = the policy's (or one, with `only_top_retries`).
    /// Layers past these take the policy's.
    pub layer_attempts: [u32; range::OWN_POLICY_LAYERS],
    /// The timeouts of the layers below the top, from the second: how long
    /// each service above the last waits for its call below; 0 = the
    /// timeout between services (`call_timeout`). The last layer's calls
    /// take the policy's attempt timeout.
    pub layer_timeouts: [f64; range::OWN_POLICY_LAYERS],
    /// The base delays of the layers below the top, from the second: the
    /// ceiling of each one's first pause before a retry (and the floor of
    /// decorrelated jitter); 0 = the policy's.
    pub layer_bases: [f64; range::OWN_POLICY_LAYERS],
    /// The backoff shapes of the layers below the top, from the second:
    /// how each service's ceilings grow from its base; `None` = the
    /// policy's (its multiplier stays the policy's).
    pub layer_shapes: [Option<Shape>; range::OWN_POLICY_LAYERS],
    /// The caps of the layers below the top, from the second: no pause
    /// ceiling of that service's grows beyond it; 0 = the policy's.
    pub layer_caps: [f64; range::OWN_POLICY_LAYERS],
    /// The jitters of the layers below the top, from the second: how each
    /// service draws its pauses under their ceilings; `None` = the
    /// policy's (its fraction, for proportional jitter, stays the
    /// policy's).
    pub layer_jitters: [Option<Jitter>; range::OWN_POLICY_LAYERS],
    /// The services below the top, from the second: how many requests each
    /// handles at once (0 = no limit) and how many more may wait for one of
    /// them; a request that finds the queue full is answered 503 at once.
    /// A request holds its place while its calls below go on, retries
    /// included.
    pub layer_workers: [u32; range::OWN_POLICY_LAYERS],
    pub layer_queues: [u32; range::OWN_POLICY_LAYERS],
    /// Which waiting call a free worker of each takes: the oldest (FIFO,
    /// as before) or the newest (LIFO).
    pub layer_orders: [QueueOrder; range::OWN_POLICY_LAYERS],
    /// The services below the top, from the second: the share of the calls
    /// each fails by itself, at once with a 503, before calling below.
    pub layer_failures: [f64; range::OWN_POLICY_LAYERS],
    /// The services below the top, from the second: an outage of each, a
    /// window from its start for its length (0 = none) in which it fails
    /// every call it takes up at once with a 503, before calling below.
    pub layer_outage_start: [f64; range::OWN_POLICY_LAYERS],
    pub layer_outage_duration: [f64; range::OWN_POLICY_LAYERS],
    /// The services below the top, from the second: the median and the
    /// 99th percentile of the time each works on a call by itself (holding
    /// its worker) before it calls below, a log-normal through the two;
    /// a p50 of 0 is no work of its own, a p99 below the p50 a constant.
    pub layer_work_p50: [f64; range::OWN_POLICY_LAYERS],
    pub layer_work_p99: [f64; range::OWN_POLICY_LAYERS],
    /// The services below the top, from the second: the retry budget each
    /// keeps for its own calls below: `None` for one of the policy's (as
    /// every layer kept before a service could choose), else its own, a
    /// kind with its own parameters (a link gives it the policy's settings
    /// of that kind), `Spec::None` for none (it retries as its attempts
    /// say).
    pub layer_budgets: [Option<Spec>; range::OWN_POLICY_LAYERS],
    /// The services below the top, from the second: whether each keeps a
    /// circuit breaker of the policy's for its own calls below (on, as
    /// every layer always has), or calls whatever the answers (off).
    pub layer_breakers: [bool; range::OWN_POLICY_LAYERS],
    /// Each service above the last gives up on its call one layer down
    /// after this and may retry it, while the service below works on
    /// (orphaned work, see `Summary::orphaned_work`); 0 = it waits for
    /// the answer, as the policy's attempt timeout holds only at the last
    /// layer. The deadline still bounds every attempt.
    pub call_timeout: f64,
    /// Deadlines passed down, as gRPC propagates them: every call carries
    /// what is left of its caller's patience (the caller's attempt timeout,
    /// within the deadline it was given), a service does not start or
    /// retry past it, and the server neither starts nor queues a request
    /// past it and stops serving one at it.
    pub pass_deadline: bool,
    /// Client instances, at least 1: each keeps its own budget and breaker
    /// (the top layer's: the services below are not the client's), and
    /// each operation goes to one of them, drawn uniformly from a stream
    /// of its own.
    pub instances: u32,
}

impl Scenario {
    /// A teaching setup: 100 operations per second for a minute against a
    /// server with 20 workers (50 ms mean service) that fails 10 % of
    /// requests, a client with 4 attempts, exponential backoff with full
    /// jitter from 100 ms capped at 800 ms and a 1 s attempt timeout.
    /// The parameter table of [`crate::config`] takes its defaults from
    /// here.
    pub const DEFAULT: Scenario = Scenario {
        seed: 1,
        horizon: 60.0,
        buckets: 240,
        work_limit: 100_000_000,
        workload: WorkloadKind::Poisson,
        rate: 100.0,
        spike_rate: 300.0,
        spike_start: 20.0,
        spike_duration: 0.0,
        clients: 100,
        think: 1.0,
        crowd_start: 0.0,
        crowd_window: 0.0,
        hop: Spread::Exponential,
        hop_mean: 0.005,
        hop_sd: 0.002,
        failure: 0.1,
        mix_transient: 1.0,
        mix_throttled: 0.0,
        mix_permanent: 0.0,
        mix_unknown: 0.0,
        retry_after: 0.0,
        rate_limit: 0,
        rate_window: 1.0,
        rate_hint: HintForm::Seconds,
        outage_start: 30.0,
        outage_duration: 0.0,
        outage_mode: OutageMode::FailFast,
        workers: 20,
        queue_limit: 100,
        queue_order: QueueOrder::Fifo,
        queue_timeout: 0.0,
        shed_wait: 0.0,
        drop_gone: false,
        service: ServiceShape::Exponential,
        service_time: 0.05,
        service_sd: 0.01,
        // A median of 40 ms and a p99 of 200 ms: a mean of 51 ms, near the
        // exponential's 50.
        service_p50: 0.04,
        service_p99: 0.2,
        // One request in a hundred ten times slower.
        tail_share: 0.01,
        tail_factor: 10.0,
        latency_slope: 0.0,
        drop_start: 30.0,
        drop_duration: 0.0,
        drop_to: 0.2,
        slow_start: 30.0,
        slow_duration: 0.0,
        slow_factor: 5.0,
        cut_start: 30.0,
        cut_duration: 0.0,
        cut_share: 0.5,
        servers: 1,
        balance: Balance::RoundRobin,
        fault_on: FaultOn::All,
        lost_responses: 0.0,
        // A bare policy waits forever; the playground's requests time
        // out, so that a hanging server ends attempts.
        policy: Policy {
            attempt_timeout: Some(1.0),
            ..Policy::DEFAULT
        },
        budget: BudgetConfig::DEFAULT,
        breaker: BreakerConfig::DEFAULT,
        hints: HintRules::DEFAULT,
        idempotency_key: true,
        shared_seed: false,
        layers: 1,
        only_top_retries: false,
        fan_out: 1,
        fan_wait: FanWait::All,
        layer_attempts: [0; range::OWN_POLICY_LAYERS],
        layer_timeouts: [0.0; range::OWN_POLICY_LAYERS],
        layer_bases: [0.0; range::OWN_POLICY_LAYERS],
        layer_shapes: [None; range::OWN_POLICY_LAYERS],
        layer_caps: [0.0; range::OWN_POLICY_LAYERS],
        layer_jitters: [None; range::OWN_POLICY_LAYERS],
        layer_workers: [0; range::OWN_POLICY_LAYERS],
        layer_queues: [100; range::OWN_POLICY_LAYERS],
        layer_orders: [QueueOrder::Fifo; range::OWN_POLICY_LAYERS],
        layer_failures: [0.0; range::OWN_POLICY_LAYERS],
        layer_outage_start: [0.0; range::OWN_POLICY_LAYERS],
        layer_outage_duration: [0.0; range::OWN_POLICY_LAYERS],
        layer_work_p50: [0.0; range::OWN_POLICY_LAYERS],
        layer_work_p99: [0.0; range::OWN_POLICY_LAYERS],
        layer_budgets: [None; range::OWN_POLICY_LAYERS],
        layer_breakers: [true; range::OWN_POLICY_LAYERS],
        call_timeout: 0.0,
        pass_deadline: false,
        instances: 1,
    };
}

impl Default for Scenario {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl Scenario {
    /// The scenario with every field brought into its [`range`], NaN
    /// replaced by the default. [`run`] simulates this, so it never panics
    /// or hangs.
    ///
    /// Three values are taken beyond the ranges of the parameter table,
    /// because the contention model of the 2015 post needs them
    /// ([`contention_policies`], [`contention::GridRuns`](crate::contention::GridRuns)):
    /// any number of attempts (its clients retry until they are done), a
    /// base from no pause to the longest cap ([`range::PAUSE`]), and any
    /// seed (the grid walks seeds on from the configuration's).
    pub fn sanitized(&self) -> Scenario {
        let d = Scenario::default();
        let p = &self.policy;
        let dp = &d.policy;
        // A zero time is no timeout or deadline only in the table; here a
        // time is a time, and the shortest one a run can tell apart.
        let optional_time = |v: Option<f64>, range: Range| {
            v.filter(|t| !t.is_nan()).map(|t| t.clamp(1e-6, range.max))
        };
        let policy = Policy {
            attempts: p.attempts.max(range::ATTEMPTS.min as u32),
            shape: p.shape,
            base: range::PAUSE.clamp(p.base, dp.base),
            cap: range::CAP.clamp(p.cap, dp.cap),
            multiplier: range::MULTIPLIER.clamp(p.multiplier, dp.multiplier),
            jitter: p.jitter,
            jitter_fraction: range::JITTER_FRACTION.clamp(p.jitter_fraction, dp.jitter_fraction),
            attempt_timeout: optional_time(p.attempt_timeout, range::ATTEMPT_TIMEOUT),
            deadline: optional_time(p.deadline, range::DEADLINE),
            // One layer calling a server hedges (a fan-out each of its
            // calls); layers and the shared row retry.
            hedge: p.hedge && self.layers == 1 && self.workload != WorkloadKind::Contention,
            hedge_delay: range::HEDGE_DELAY.clamp(p.hedge_delay, dp.hedge_delay),
            hedge_copies: range::HEDGE_COPIES.clamp_count(p.hedge_copies),
            retry_on: p.retry_on,
        };
        Scenario {
            seed: self.seed,
            horizon: range::HORIZON.clamp(self.horizon, d.horizon),
            buckets: range::BUCKETS.clamp_count(self.buckets),
            work_limit: self.work_limit.clamp(1, 2_000_000_000),
            workload: self.workload,
            rate: range::RATE.clamp(self.rate, d.rate),
            spike_rate: range::RATE.clamp(self.spike_rate, d.spike_rate),
            spike_start: range::SPIKE_START.clamp(self.spike_start, d.spike_start),
            spike_duration: range::SPIKE_DURATION.clamp(self.spike_duration, 0.0),
            clients: range::CLIENTS.clamp_count(self.clients),
            think: range::THINK.clamp(self.think, Scenario::DEFAULT.think),
            crowd_start: range::CROWD_START.clamp(self.crowd_start, 0.0),
            crowd_window: range::CROWD_WINDOW.clamp(self.crowd_window, 0.0),
            hop: self.hop,
            hop_mean: range::HOP_MEAN.clamp(self.hop_mean, d.hop_mean),
            hop_sd: range::HOP_SD.clamp(self.hop_sd, d.hop_sd),
            failure: range::FAILURE.clamp(self.failure, d.failure),
            mix_transient: range::MIX_WEIGHT.clamp(self.mix_transient, 0.0),
            mix_throttled: range::MIX_WEIGHT.clamp(self.mix_throttled, 0.0),
            mix_permanent: range::MIX_WEIGHT.clamp(self.mix_permanent, 0.0),
            mix_unknown: range::MIX_WEIGHT.clamp(self.mix_unknown, 0.0),
            retry_after: range::RETRY_AFTER.clamp(self.retry_after, 0.0),
            rate_limit: range::RATE_LIMIT.clamp_count(self.rate_limit),
            rate_window: range::RATE_WINDOW.clamp(self.rate_window, d.rate_window),
            rate_hint: self.rate_hint,
            outage_start: range::OUTAGE_START.clamp(self.outage_start, d.outage_start),
            outage_duration: range::OUTAGE_DURATION.clamp(self.outage_duration, 0.0),
            outage_mode: self.outage_mode,
            workers: range::WORKERS.clamp_count(self.workers),
            queue_limit: range::QUEUE_LIMIT.clamp_count(self.queue_limit),
            queue_order: self.queue_order,
            queue_timeout: range::QUEUE_TIMEOUT.clamp(self.queue_timeout, 0.0),
            shed_wait: range::SHED_WAIT.clamp(self.shed_wait, 0.0),
            drop_gone: self.drop_gone,
            service: self.service,
            service_time: range::SERVICE_TIME.clamp(self.service_time, d.service_time),
            service_sd: range::SERVICE_SD.clamp(self.service_sd, d.service_sd),
            service_p50: range::SERVICE_P50.clamp(self.service_p50, d.service_p50),
            service_p99: range::SERVICE_P99.clamp(self.service_p99, d.service_p99),
            tail_share: range::TAIL_SHARE.clamp(self.tail_share, d.tail_share),
            tail_factor: range::TAIL_FACTOR.clamp(self.tail_factor, d.tail_factor),
            latency_slope: range::LATENCY_SLOPE.clamp(self.latency_slope, 0.0),
            lost_responses: range::LOST_RESPONSES.clamp(self.lost_responses, 0.0),
            drop_start: range::OUTAGE_START.clamp(self.drop_start, d.drop_start),
            drop_duration: range::OUTAGE_DURATION.clamp(self.drop_duration, 0.0),
            drop_to: range::FAULT_SHARE.clamp(self.drop_to, d.drop_to),
            slow_start: range::OUTAGE_START.clamp(self.slow_start, d.slow_start),
            slow_duration: range::OUTAGE_DURATION.clamp(self.slow_duration, 0.0),
            slow_factor: range::SLOW_FACTOR.clamp(self.slow_factor, d.slow_factor),
            cut_start: range::OUTAGE_START.clamp(self.cut_start, d.cut_start),
            cut_duration: range::OUTAGE_DURATION.clamp(self.cut_duration, 0.0),
            cut_share: range::FAULT_SHARE.clamp(self.cut_share, d.cut_share),
            servers: range::SERVERS.clamp_count(self.servers),
            balance: self.balance,
            fault_on: self.fault_on,
            policy,
            budget: self.budget.sanitized(),
            breaker: self.breaker.sanitized(),
            hints: self.hints.sanitized(),
            idempotency_key: self.idempotency_key,
            shared_seed: self.shared_seed,
            layers: range::LAYERS.clamp_count(self.layers),
            only_top_retries: self.only_top_retries,
            fan_out: range::FAN_OUT.clamp_count(self.fan_out),
            fan_wait: self.fan_wait,
            layer_attempts: self
                .layer_attempts
                .map(|a| range::LAYER_ATTEMPTS.clamp_count(a)),
            layer_timeouts: self
                .layer_timeouts
                .map(|t| range::ATTEMPT_TIMEOUT.clamp(t, 0.0)),
            layer_bases: self.layer_bases.map(|b| range::LAYER_BASE.clamp(b, 0.0)),
            layer_shapes: self.layer_shapes,
            layer_caps: self.layer_caps.map(|c| range::LAYER_CAP.clamp(c, 0.0)),
            layer_jitters: self.layer_jitters,
            layer_workers: self.layer_workers.map(|w| range::WORKERS.clamp_count(w)),
            layer_queues: self.layer_queues.map(|q| range::QUEUE_LIMIT.clamp_count(q)),
            layer_orders: self.layer_orders,
            layer_failures: self.layer_failures.map(|f| range::FAILURE.clamp(f, 0.0)),
            layer_outage_start: self
                .layer_outage_start
                .map(|t| range::OUTAGE_START.clamp(t, 0.0)),
            layer_outage_duration: self
                .layer_outage_duration
                .map(|t| range::OUTAGE_DURATION.clamp(t, 0.0)),
            layer_work_p50: self
                .layer_work_p50
                .map(|t| range::LAYER_WORK_P50.clamp(t, 0.0)),
            layer_work_p99: self
                .layer_work_p99
                .map(|t| range::LAYER_WORK_P99.clamp(t, 0.0)),
            layer_budgets: self.layer_budgets,
            layer_breakers: self.layer_breakers,
            call_timeout: range::ATTEMPT_TIMEOUT.clamp(self.call_timeout, 0.0),
            pass_deadline: self.pass_deadline,
            instances: range::INSTANCES.clamp_count(self.instances),
        }
    }

    /// What a setting of the services below the top (`layer_attempts`,
    /// `layer_workers` …, from the second) says for layer `layer` (0 = the
    /// top): `None` for the top and the layers past them.
    pub fn own_of_layer<T: Copy>(values: &[T], layer: u32) -> Option<T> {
        (layer as usize)
            .checked_sub(1)
            .and_then(|i| values.get(i).copied())
    }

    /// How long layer `layer` (0 = the top) of `count` waits for each
    /// call below: the policy's attempt timeout at the last layer; above
    /// it, the layer's own timeout where it has one, else the timeout
    /// between services; `None` for no timeout.
    pub fn timeout_of_layer(&self, layer: u32, count: u32) -> Option<f64> {
        if layer + 1 >= count {
            return self.policy.attempt_timeout;
        }
        let own = Self::own_of_layer(&self.layer_timeouts, layer).filter(|&own| own > 0.0);
        own.or((self.call_timeout > 0.0).then_some(self.call_timeout))
    }

    /// The retry budget layer `layer` (0 = the top) keeps: its own below
    /// the top where it has one, else the policy's.
    pub fn budget_of_layer(&self, layer: u32) -> Spec {
        Self::own_of_layer(&self.layer_budgets, layer)
            .flatten()
            .unwrap_or_else(|| self.budget.spec())
    }

    /// The attempts layer `layer` (0 = the top) makes of each call: its
    /// own where it has them, else the policy's, one below the top when
    /// only the top retries.
    pub fn attempts_of_layer(&self, layer: u32) -> u32 {
        let own = Self::own_of_layer(&self.layer_attempts, layer).filter(|&own| own > 0);
        match own {
            Some(own) => own,
            None if layer > 0 && self.only_top_retries => 1,
            None => self.policy.attempts,
        }
    }

    /// The mean time to serve one request, before any slowdown.
    pub fn service_mean(&self) -> f64 {
        Law::service(self).mean()
    }

    /// Expected number of operations the workload creates.
    pub fn estimated_operations(&self) -> f64 {
        let s = self.sanitized();
        match s.workload {
            WorkloadKind::Poisson => {
                let spike = s.spike_duration.min((s.horizon - s.spike_start).max(0.0));
                s.rate * (s.horizon - spike) + s.spike_rate * spike
            }
            WorkloadKind::Crowd | WorkloadKind::Contention => f64::from(s.clients),
            // Each client at most once per think time and two hops.
            WorkloadKind::Closed => {
                let cycle = (s.think + 2.0 * s.hop_mean + s.service_mean()).max(1e-3);
                f64::from(s.clients) * (s.horizon / cycle + 1.0)
            }
        }
    }

    /// A rough estimate of the server attempts a run makes, for refusing or
    /// scaling runs that would be too big before starting them. It assumes
    /// failures at the larger of `failure` and the share of the horizon spent
    /// in an outage, no budget, no breaker and no capacity limits; contention
    /// assumes each client conflicts with a fair share of the others. The
    /// hard guarantee is `work_limit`.
    pub fn estimated_attempts(&self) -> f64 {
        let s = self.sanitized();
        let per_layer = |attempts: u32, failure: f64| {
            let attempts = f64::from(attempts.min(1_000_000));
            if failure >= 1.0 {
                attempts
            } else {
                (1.0 - libm::pow(failure, attempts)) / (1.0 - failure)
            }
        };
        match s.workload {
            WorkloadKind::Contention => {
                let n = f64::from(s.clients);
                n * (1.0 + n / 2.0).min(f64::from(s.policy.attempts))
            }
            _ => {
                let outage_share = (s.outage_duration / s.horizon).min(1.0);
                let failure = s.failure.max(outage_share);
                let calls: f64 = (0..s.layers)
                    .map(|layer| per_layer(s.attempts_of_layer(layer), failure))
                    .product();
                self.estimated_operations() * calls * f64::from(s.fan_out)
            }
        }
    }
}

/// Simulates `scenario` (after [`Scenario::sanitized`]) and reports.
pub fn run(scenario: &Scenario) -> Report {
    Run::new(scenario).finish()
}

/// Simulates `scenario` as [`run`] does, and traces a sample of its
/// operations for the replay (see [`trace`]): the report is the same.
pub fn run_traced(scenario: &Scenario) -> (Report, trace::Trace) {
    let (report, trace) = Run::traced(scenario).finish_traced();
    (report, trace.unwrap_or_default())
}

/// A run that goes a slice of work at a time, so that whoever runs it can
/// do something else between slices: the page answers its reader, draws
/// what is simulated so far, or drops the run for a newer one.
///
/// ```
/// use retry_sim::sim::{self, Run, Scenario};
///
/// let scenario = Scenario { horizon: 2.0, ..Scenario::default() };
/// let mut run = Run::new(&scenario);
/// while !run.advance(1000) {
///     let so_far = run.so_far();
///     assert!(so_far.summary.in_progress());
/// }
/// assert_eq!(run.finish(), sim::run(&scenario));
/// ```
///
/// A slice is a count of *work*, the unit of `Scenario::work_limit`
/// (operations and server attempts): the run's loop already compares the
/// work done with a limit before every event, and a slice only lowers that
/// limit for a while, so slicing costs the loop nothing. An event does at
/// most a few units of work, and a unit takes a bounded number of events,
/// so a slice of work is a slice of time. Slicing changes no number: the
/// run keeps every state between slices, and its bounds on time and
/// memory count events, not slices, so it stops where a run in one go
/// does and reports the same, bit for bit. [`run`] is this loop in one
/// slice.
pub struct Run {
    /// Boxed: a run's state is a few kilobytes, and a run is kept and
    /// moved between slices.
    going: Option<Box<world::Running>>,
    done: Option<(Report, Option<trace::Trace>)>,
    horizon: f64,
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Run")
            .field("done", &self.done.is_some())
            .field("horizon", &self.horizon)
            .finish_non_exhaustive()
    }
}

impl Run {
    /// A run of `scenario` (after [`Scenario::sanitized`]), not yet begun.
    pub fn new(scenario: &Scenario) -> Run {
        Run::from(world::Running::new(scenario.sanitized()))
    }

    /// A run as [`Run::new`] makes, that also traces a sample of its
    /// operations for the replay (see [`trace`]): the report is the same.
    pub fn traced(scenario: &Scenario) -> Run {
        Run::from(world::Running::traced(scenario.sanitized()))
    }

    fn from(going: world::Running) -> Run {
        Run {
            horizon: going.scenario().horizon,
            going: Some(Box::new(going)),
            done: None,
        }
    }

    /// Runs about `work` more units of work or events, whichever comes
    /// first (at least one event, unless the run ends first; see
    /// `World::advance`); true once the run has ended, at its end or at a
    /// bound.
    pub fn advance(&mut self, work: u64) -> bool {
        let Some(going) = &mut self.going else {
            return true;
        };
        if !going.advance(work) {
            return false;
        }
        let going = self.going.take().expect("a run going until now");
        self.done = Some(going.finish());
        true
    }

    /// Whether the run has ended.
    pub fn done(&self) -> bool {
        self.done.is_some()
    }

    /// The sanitized scenario's horizon: how far the report's series go.
    pub fn horizon(&self) -> f64 {
        self.horizon
    }

    /// How far the run got: the `simulated_until` of [`Run::so_far`],
    /// without making the report.
    pub fn simulated_until(&self) -> f64 {
        match (&self.going, &self.done) {
            (Some(going), _) => going.simulated_until(),
            (None, Some((report, _))) => report.summary.simulated_until,
            (None, None) => unreachable!("a run is going or done"),
        }
    }

    /// The report of what is simulated so far: shaped like the report of a
    /// run cut at this instant, with [`Summary::in_progress`] true and
    /// `simulated_until` how far the run got. Once the run has ended, its
    /// report.
    pub fn so_far(&self) -> Report {
        match (&self.going, &self.done) {
            (Some(going), _) => going.so_far(),
            (None, Some((report, _))) => report.clone(),
            (None, None) => unreachable!("a run is going or done"),
        }
    }

    /// Runs what is left and reports.
    pub fn finish(self) -> Report {
        self.finish_traced().0
    }

    /// Runs what is left; the report, and the trace if the run traces.
    pub fn finish_traced(mut self) -> (Report, Option<trace::Trace>) {
        self.advance(u64::MAX);
        self.done.take().expect("a run without a slice limit ends")
    }
}

/// The contention model of the AWS Architecture Blog's 2015 post on
/// exponential backoff and jitter: `clients`
/// clients each update one shared row once by optimistic concurrency, every
/// network hop `|Normal(10 ms, 2 ms)|`, retrying under `policy`.
pub fn contention_scenario(clients: u32, seed: u64, policy: Policy) -> Scenario {
    Scenario {
        seed,
        workload: WorkloadKind::Contention,
        clients,
        hop: Spread::Normal,
        hop_mean: 0.010,
        hop_sd: 0.002,
        horizon: 10.0,
        policy,
        ..Scenario::default()
    }
}

/// The policies of the five contention variants of that 2015 post, for
/// the same base and cap: no backoff, exponential, equal jitter, full
/// jitter, decorrelated jitter. The post numbers retries from 1, so its first
/// exponential window is `2 * base` while decorrelated starts from `base`;
/// these policies reproduce that. Unlimited attempts.
pub fn contention_policies(base: f64, cap: f64) -> [(&'static str, Policy); 5] {
    let exponential = |jitter| Policy {
        attempts: u32::MAX,
        shape: Shape::Exponential,
        base: 2.0 * base,
        cap,
        multiplier: 2.0,
        jitter,
        jitter_fraction: 0.0,
        attempt_timeout: None,
        deadline: None,
        ..Policy::DEFAULT
    };
    [
        (
            "none",
            Policy {
                base: 0.0,
                jitter: Jitter::None,
                ..exponential(Jitter::None)
            },
        ),
        ("exponential", exponential(Jitter::None)),
        ("equal", exponential(Jitter::Equal)),
        ("full", exponential(Jitter::Full)),
        (
            "decorrelated",
            Policy {
                base,
                ..exponential(Jitter::Decorrelated)
            },
        ),
    ]
}
