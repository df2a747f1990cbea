//! The range of every number a scenario holds, defined once.
//!
//! A range is what a value may be: the parameter table clamps a link's
//! values to it, the page's sliders span it, and the simulator, the budget
//! and the breaker bring the values they are handed into it before they
//! use them. One constant serves all of them, so a link can never hold a
//! value the simulator reads differently, and a shared link keeps its
//! meaning: these ranges are what old links were clamped to.
//!
//! The simulator takes three values beyond them, which the contention
//! model needs and no link can ask for: any number of attempts, a base of
//! [`PAUSE`] and any seed (see `Scenario::sanitized` in the simulator).
//!
//! This module depends on nothing, so the lowest layers can use it.

/// The values from `min` to `max`, both included.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Range {
    pub min: f64,
    pub max: f64,
}

impl Range {
    pub const fn new(min: f64, max: f64) -> Range {
        Range { min, max }
    }

    /// `value` brought into the range; NaN, which has no place in it,
    /// becomes `fallback`.
    pub fn clamp(self, value: f64, fallback: f64) -> f64 {
        if value.is_nan() {
            fallback
        } else {
            value.clamp(self.min, self.max)
        }
    }

    /// A count brought into the range (whose ends are whole).
    pub fn clamp_count(self, value: u32) -> u32 {
        value.clamp(self.min as u32, self.max as u32)
    }
}

/// Seconds any time in a run may reach: an hour of virtual time is more
/// than any lesson needs, and keeps the number of events bounded.
const HOUR: Range = Range::new(0.0, 3600.0);
/// Probabilities and shares.
const SHARE: Range = Range::new(0.0, 1.0);

// The policy.

/// Attempts per operation, counting the first call. The simulator takes
/// any number from the least: the contention model's clients retry until
/// they are done (`u32::MAX`).
pub const ATTEMPTS: Range = Range::new(1.0, 50.0);
/// Ceiling of the first pause, in seconds.
pub const BASE: Range = Range::new(0.001, 600.0);
/// Largest pause ceiling, in seconds.
pub const CAP: Range = Range::new(0.001, HOUR.max);
/// The base the simulator takes: any pause ceiling from none to the
/// longest cap. The contention model's variants start from no pause at all,
/// or from twice the base, as the 2015 post counts retries from 1.
pub const PAUSE: Range = Range::new(0.0, CAP.max);
/// Growth factor of exponential backoff.
pub const MULTIPLIER: Range = Range::new(1.0, 10.0);
pub const JITTER_FRACTION: Range = SHARE;
/// Seconds before an attempt without an answer fails. The table's 0 means
/// no timeout; the simulator's timeouts and deadlines are `Option`s, and
/// it takes a zero one as the shortest time a run tells apart.
pub const ATTEMPT_TIMEOUT: Range = Range::new(0.0, 60.0);
/// Seconds an operation may take; the table's 0 means no deadline.
pub const DEADLINE: Range = Range::new(0.0, 120.0);
/// The search's constraints: calls per operation and a latency p99.
pub const FIND_CALLS: Range = Range::new(0.0, 100.0);
pub const FIND_P99: Range = Range::new(0.0, 600.0);

// The retry budget.

/// Retries allowed per deposit.
pub const BUDGET_PERCENT: Range = SHARE;
/// Retries per second allowed however little traffic there is.
pub const BUDGET_FLOOR: Range = Range::new(0.0, 1000.0);
/// Seconds of the ratio budget's sliding window.
pub const BUDGET_WINDOW: Range = Range::new(0.1, 600.0);
pub const MAX_TOKENS: Range = Range::new(1.0, 1000.0);
pub const TOKEN_RATIO: Range = Range::new(0.0, 10.0);
pub const QUOTA: Range = Range::new(1.0, 10_000.0);
pub const RETRY_COST: Range = Range::new(0.0, 100.0);
pub const TIMEOUT_COST: Range = Range::new(0.0, 100.0);
/// Brooker's bucket: its size, and what a first try deposits.
pub const BUCKET_SIZE: Range = Range::new(1.0, 1000.0);
pub const BUCKET_DEPOSIT: Range = Range::new(0.0, 10.0);
/// Closed loop: a client's mean think time between operations.
pub const THINK: Range = Range::new(0.0, 3600.0);
/// SRE throttling: the multiplier of accepts, and the window.
pub const SRE_K: Range = Range::new(1.0, 10.0);
pub const SRE_WINDOW: Range = Range::new(1.0, 3600.0);
/// Envoy's retry budget: the share of requests in flight that may be
/// retries, and the retries in flight it allows however few there are.
pub const ENVOY_PERCENT: Range = Range::new(0.0, 1.0);
pub const ENVOY_MIN: Range = Range::new(0.0, 10_000.0);
/// Client instances, each with a budget and a breaker of its own.
pub const INSTANCES: Range = Range::new(1.0, 10_000.0);

// The circuit breaker.

pub const BREAKER_RATIO: Range = SHARE;
/// Seconds of the breaker's sliding window.
pub const BREAKER_WINDOW: Range = Range::new(0.1, 600.0);
/// Outcomes the window must hold before the breaker may open.
pub const BREAKER_MIN: Range = Range::new(1.0, 10_000.0);
/// Seconds an open breaker refuses.
pub const COOL_DOWN: Range = Range::new(0.0, 600.0);
/// Attempts let through half-open.
pub const PROBES: Range = Range::new(1.0, 100.0);

// The workload.

/// Poisson arrivals per second, in and out of the spike.
pub const RATE: Range = Range::new(0.0, 20_000.0);
pub const SPIKE_START: Range = HOUR;
pub const SPIKE_DURATION: Range = HOUR;
/// Clients of a crowd: each holds an operation, so this bounds the memory
/// a link can ask for.
pub const CLIENTS: Range = Range::new(1.0, 200_000.0);
pub const CROWD_START: Range = HOUR;
pub const CROWD_WINDOW: Range = HOUR;
/// Seconds the charts show.
pub const HORIZON: Range = Range::new(1.0, HOUR.max);
/// Time buckets of the series.
pub const BUCKETS: Range = Range::new(10.0, 2_000.0);

// The server and the network.

pub const FAILURE: Range = SHARE;
/// Each weight of the mix of failures.
pub const MIX_WEIGHT: Range = SHARE;
/// Seconds of Retry-After.
pub const RETRY_AFTER: Range = Range::new(0.0, 60.0);
/// Requests a rate limit accepts a window (0: none), and the window's
/// length in seconds.
pub const RATE_LIMIT: Range = Range::new(0.0, 1_000_000.0);
pub const RATE_WINDOW: Range = Range::new(0.1, HOUR.max);
/// A client's rules for a hint: the most it honours (0: no cap), the share
/// of positive jitter it adds, and the most jitter, in seconds (0: no most).
pub const HINT_CAP: Range = HOUR;
pub const HINT_JITTER: Range = SHARE;
pub const HINT_JITTER_MOST: Range = HOUR;
pub const OUTAGE_START: Range = HOUR;
pub const OUTAGE_DURATION: Range = HOUR;
/// The workers a capacity loss leaves, the clients a partition cuts off.
pub const FAULT_SHARE: Range = SHARE;
/// Hedging: the delay between copies, and the copies counting the first
/// (gRFC A6 treats more than 5 as 5).
/// Servers behind the balancer.
pub const SERVERS: Range = Range::new(1.0, 100.0);
pub const HEDGE_DELAY: Range = Range::new(0.0, 60.0);
pub const HEDGE_COPIES: Range = Range::new(1.0, 5.0);
/// How many times longer service takes in a latency spike.
pub const SLOW_FACTOR: Range = Range::new(1.0, 100.0);
/// Requests served at once; 0 means unlimited.
pub const WORKERS: Range = Range::new(0.0, 100_000.0);
pub const QUEUE_LIMIT: Range = Range::new(0.0, 1_000_000.0);
/// Seconds of service, mean and spread.
pub const SERVICE_TIME: Range = Range::new(0.0, 10.0);
pub const SERVICE_SD: Range = Range::new(0.0, 10.0);
/// A log-normal service time's median and 99th percentile, the two figures
/// a dashboard shows; the simulator serves the p99 between the median and
/// [`SERVICE_SPAN`] times it.
pub const SERVICE_P50: Range = Range::new(0.001, 10.0);
pub const SERVICE_P99: Range = Range::new(0.001, 60.0);
/// The own work of a service below the top, by its p50 and p99; 0 = none.
pub const LAYER_WORK_P50: Range = Range::new(0.0, SERVICE_P50.max);
pub const LAYER_WORK_P99: Range = Range::new(0.0, SERVICE_P99.max);
pub const SERVICE_SPAN: f64 = 100.0;
/// A mixture's slow mode: the share of calls in it, and how many times
/// longer they take on average.
pub const TAIL_SHARE: Range = Range::new(0.0, 0.5);
pub const TAIL_FACTOR: Range = Range::new(1.0, 100.0);
/// Load shedding: the longest a request may wait for a worker, and the
/// oldest wait in the queue above which new requests are refused.
pub const QUEUE_TIMEOUT: Range = Range::new(0.0, 60.0);
pub const SHED_WAIT: Range = Range::new(0.0, 60.0);
/// Extra seconds of service per request already in service.
pub const LATENCY_SLOPE: Range = SHARE;
pub const LOST_RESPONSES: Range = SHARE;
/// Seconds of one network hop, mean and spread.
pub const HOP_MEAN: Range = Range::new(0.0, 10.0);
pub const HOP_SD: Range = Range::new(0.0, 10.0);
/// Services in the chain: `attempts^layers` grows fast enough.
pub const LAYERS: Range = Range::new(1.0, 8.0);
/// The attempts of layers 2 to [`OWN_POLICY_LAYERS`] + 1, each its own;
/// 0 = the policy's.
pub const LAYER_ATTEMPTS: Range = Range::new(0.0, 50.0);
/// The base delays of layers 2 to [`OWN_POLICY_LAYERS`] + 1, each its own;
/// 0 = the policy's.
pub const LAYER_BASE: Range = Range::new(0.0, BASE.max);
/// The caps of layers 2 to [`OWN_POLICY_LAYERS`] + 1, each its own; 0 =
/// the policy's.
pub const LAYER_CAP: Range = Range::new(0.0, CAP.max);
pub const OWN_POLICY_LAYERS: usize = 4;
/// The servers the last layer sends each attempt to at once.
pub const FAN_OUT: Range = Range::new(1.0, 100.0);

/// Seeds a link can hold: a link's numbers are read as `f64`, which holds
/// every `u32` exactly. The simulator takes any `u64`: the contention grid
/// walks seeds on from the configuration's.
pub const SEED: Range = Range::new(0.0, u32::MAX as f64);
