//! Retry budgets: a limit on retries for a whole client, not per operation.
//!
//! Why budgets and not just max retries? "At most 3 attempts" bounds what one
//! operation may cost, but says nothing about what all of them cost together.
//! When the dependency is healthy almost nothing is retried and the limit is
//! irrelevant; when it is down, *every* operation uses all its attempts, and
//! the client multiplies its load by the attempt count exactly when the
//! dependency can least afford it. That load can keep an overloaded service
//! down after the original cause is gone (a retry storm).
//!
//! A budget looks at the client's recent history instead: retries are allowed
//! while they are a small share of the traffic, and refused ("fail fast")
//! once they would dominate it. At 100 % failure the load then stays near
//! `1 + share` times the first-try load instead of `attempts` times.
//!
//! Time is passed in as `now` (seconds of virtual time); nothing here reads a
//! clock, so the arithmetic is tested with explicit instants.
//!
//! Three budgets that production systems ship are modelled, and the
//! bucket of a published analysis:
//!
//! - [`BudgetKind::Ratio`]: retries in a sliding window may not exceed a
//!   percentage of the window's deposits (successful attempts, or first
//!   tries as Finagle's `RetryBudget` counts them), plus a floor of retries
//!   per second so a quiet client can still retry.
//! - [`BudgetKind::TokenBucket`]: gRPC retry throttling (gRFC A6).
//! - [`BudgetKind::AwsQuota`]: the AWS SDK "standard" retry quota.
//! - [`BudgetKind::Sre`]: client-side adaptive throttling from the Google
//!   SRE book ("Handling Overload"), which rejects first tries too.
//! - [`BudgetKind::Bucket`]: the adaptive bucket of Marc Brooker's 2022
//!   retry simulations (`mbrooker/simulator_example`, `retry_sim`), kept
//!   per client: each first try deposits a little, a retry withdraws one.

use crate::adaptive::RateLimiter;
use crate::range;
use crate::window::SlidingWindow;

/// Which budget a client uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BudgetKind {
    /// Only the per-operation attempt limit applies.
    None,
    /// Retries at most `percent` of the window's deposits plus a floor.
    Ratio,
    /// gRPC throttling: retry while `tokens > max_tokens / 2`.
    TokenBucket,
    /// AWS SDK standard mode: a retry withdraws from a shared quota.
    AwsQuota,
    /// Brooker's adaptive bucket: starts full at `bucket_size`; every first
    /// try deposits `bucket_deposit` (up to the size); a retry goes out only
    /// while the balance is above 1, and takes 1. "Above", not "at least":
    /// `AdaptiveRetryStrategy.should_retry` tests `self.bucket > 1.0`.
    Bucket,
    /// The SRE book's client-side throttling: over the last `sre_window`
    /// seconds the client counts the requests it meant to send and those
    /// the backend accepted, and rejects each attempt, first tries
    /// included, with probability `max(0, (requests - K x accepts) /
    /// (requests + 1))` before it leaves. Retries are otherwise free.
    Sre,
    /// The AWS SDK's adaptive mode: standard mode's quota, and a client
    /// rate limiter every send waits on once a throttle has turned it on
    /// ([`crate::adaptive`]).
    AwsAdaptive,
    /// Envoy's retry budget (the cluster's `circuit_breakers`
    /// `retry_budget`, source/common/upstream/resource_manager_impl.h): a
    /// limit on *concurrent* retries, `max(min_retry_concurrency,
    /// budget_percent x requests in flight)`, the count of requests
    /// truncated to a whole number. A retry holds its place from when it
    /// is granted until its answer (Envoy's `retries().inc()` when it is
    /// scheduled, `dec()` in `resetRetry`); one over the limit is not
    /// made, and the failure goes back at once (`upstream_rq_retry_overflow`).
    /// With a share of 0 it is Envoy's default without a budget: the
    /// circuit breaker's `max_retries`, 3 retries at once.
    Envoy,
}

/// What a ratio budget counts as a deposit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RatioBasis {
    /// Successful attempts: retries may be a share of the successes in the
    /// sliding window (say 20 % of those of the last 60 s). At 100 % failure
    /// only the floor is left.
    Successes,
    /// First tries (every new request), as Finagle's `RetryBudget` deposits.
    /// At 100 % failure the load stays near `1 + percent`.
    Requests,
}

/// Budget parameters. Times in seconds.
#[derive(Debug, Clone, PartialEq)]
pub struct BudgetConfig {
    pub kind: BudgetKind,
    /// Ratio: allowed retries per deposit (0.2 = 20 %).
    pub percent: f64,
    /// Ratio: retries per second allowed regardless of traffic.
    pub min_per_second: f64,
    /// Ratio: length of the sliding window.
    pub window: f64,
    /// Ratio: what counts as a deposit.
    pub basis: RatioBasis,
    /// Token bucket: capacity, and the starting balance.
    pub max_tokens: f64,
    /// Token bucket: tokens a success adds back.
    pub token_ratio: f64,
    /// AWS quota: capacity, and the starting balance.
    pub quota: f64,
    /// AWS quota: cost of a retry after an ordinary failure.
    pub retry_cost: f64,
    /// AWS quota: cost of a retry after a timeout (timeouts tie up more).
    pub timeout_cost: f64,
    /// AWS quota: what a success that needed no retry returns.
    pub no_retry_increment: f64,
    /// Brooker's bucket: capacity, and the starting balance.
    pub bucket_size: f64,
    /// Brooker's bucket: what each first try deposits.
    pub bucket_deposit: f64,
    /// SRE throttling: the multiplier K of accepts.
    pub sre_k: f64,
    /// SRE throttling: the window the counts cover.
    pub sre_window: f64,
    /// Envoy: the share of requests in flight that may be retries.
    pub envoy_percent: f64,
    /// Envoy: retries in flight allowed however few requests are.
    pub envoy_min: f64,
}

impl BudgetConfig {
    /// No budget; the other fields hold the published defaults of each kind
    /// (Finagle 20 % / 10 per s / 10 s, gRPC 10 / 0.1, AWS 500 / 5 / 10 / 1,
    /// Brooker 5 / 0.1, the SRE book's K = 2 over 2 minutes, Envoy 20 % /
    /// 3).
    pub const DEFAULT: BudgetConfig = BudgetConfig {
        kind: BudgetKind::None,
        percent: 0.2,
        min_per_second: 10.0,
        window: 10.0,
        basis: RatioBasis::Successes,
        max_tokens: 10.0,
        token_ratio: 0.1,
        quota: 500.0,
        retry_cost: 5.0,
        timeout_cost: 10.0,
        no_retry_increment: 1.0,
        bucket_size: 5.0,
        bucket_deposit: 0.1,
        sre_k: 2.0,
        sre_window: 120.0,
        envoy_percent: 0.2,
        envoy_min: 3.0,
    };

    /// The parameters brought into their ranges (see [`range`]), NaN
    /// replaced by the default.
    pub fn sanitized(&self) -> BudgetConfig {
        let d = BudgetConfig::default();
        let increment = self.no_retry_increment;
        BudgetConfig {
            kind: self.kind,
            percent: range::BUDGET_PERCENT.clamp(self.percent, d.percent),
            min_per_second: range::BUDGET_FLOOR.clamp(self.min_per_second, d.min_per_second),
            window: range::BUDGET_WINDOW.clamp(self.window, d.window),
            basis: self.basis,
            max_tokens: range::MAX_TOKENS.clamp(self.max_tokens, d.max_tokens),
            token_ratio: range::TOKEN_RATIO.clamp(self.token_ratio, d.token_ratio),
            quota: range::QUOTA.clamp(self.quota, d.quota),
            retry_cost: range::RETRY_COST.clamp(self.retry_cost, d.retry_cost),
            timeout_cost: range::TIMEOUT_COST.clamp(self.timeout_cost, d.timeout_cost),
            // No parameter sets it (it is the AWS SDK's constant), so it
            // has no range: any count of tokens will do.
            no_retry_increment: if increment.is_finite() && increment >= 0.0 {
                increment
            } else {
                d.no_retry_increment
            },
            bucket_size: range::BUCKET_SIZE.clamp(self.bucket_size, d.bucket_size),
            bucket_deposit: range::BUCKET_DEPOSIT.clamp(self.bucket_deposit, d.bucket_deposit),
            sre_k: range::SRE_K.clamp(self.sre_k, d.sre_k),
            sre_window: range::SRE_WINDOW.clamp(self.sre_window, d.sre_window),
            envoy_percent: range::ENVOY_PERCENT.clamp(self.envoy_percent, d.envoy_percent),
            envoy_min: range::ENVOY_MIN.clamp(self.envoy_min, d.envoy_min).round(),
        }
    }
}

impl Default for BudgetConfig {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// A retry budget's state.
#[derive(Debug, Clone)]
pub struct Budget {
    config: BudgetConfig,
    /// Token bucket balance or AWS quota balance.
    tokens: f64,
    window: SlidingWindow<2>,
    /// AWS adaptive mode's rate limiter.
    limiter: Option<RateLimiter>,
    /// Attempts it refused (retries, and first tries SRE throttling rejects).
    refusals: u64,
    /// Envoy: its layer's attempts in flight, and the retries holding a
    /// place (granted and not yet answered).
    in_flight: u32,
    retries_held: u32,
}

/// The ratio budget's counters: what earns retries, and retries made.
const DEPOSITS: usize = 0;
const RETRIES: usize = 1;
/// SRE throttling's counters: requests meant to be sent, and those the
/// backend accepted.
const REQUESTS: usize = 0;
const ACCEPTS: usize = 1;

impl Budget {
    /// A budget at its starting balance, of the parameters
    /// [sanitized](BudgetConfig::sanitized).
    pub fn new(config: &BudgetConfig) -> Self {
        let config = config.sanitized();
        let tokens = match config.kind {
            BudgetKind::TokenBucket => config.max_tokens,
            BudgetKind::AwsQuota | BudgetKind::AwsAdaptive => config.quota,
            BudgetKind::Bucket => config.bucket_size,
            BudgetKind::None | BudgetKind::Ratio | BudgetKind::Sre | BudgetKind::Envoy => 0.0,
        };
        let window = match config.kind {
            BudgetKind::Sre => config.sre_window,
            _ => config.window,
        };
        Self {
            window: SlidingWindow::new(window),
            limiter: (config.kind == BudgetKind::AwsAdaptive).then(|| RateLimiter::new(0.0)),
            refusals: 0,
            in_flight: 0,
            retries_held: 0,
            config,
            tokens,
        }
    }

    /// The budget's parameters after sanitising.
    pub fn config(&self) -> &BudgetConfig {
        &self.config
    }

    /// The token-bucket or quota balance (0 for the other kinds).
    pub fn tokens(&self) -> f64 {
        self.tokens
    }

    /// One of its layer's attempts left (Envoy counts them in flight).
    pub fn on_send(&mut self) {
        if self.config.kind == BudgetKind::Envoy {
            self.in_flight += 1;
        }
    }

    /// One of its layer's attempts has its answer, or timed out: out of
    /// flight, and a retry's place is given back (Envoy).
    pub fn on_answer(&mut self, retry: bool) {
        if self.config.kind == BudgetKind::Envoy {
            self.in_flight = self.in_flight.saturating_sub(1);
            if retry {
                self.release_retry();
            }
        }
    }

    /// A granted retry that will not be sent gives its place back (Envoy).
    pub fn release_retry(&mut self) {
        self.retries_held = self.retries_held.saturating_sub(1);
    }

    /// A new operation sent its first try.
    pub fn on_first_try(&mut self, now: f64) {
        match self.config.kind {
            BudgetKind::Ratio if self.config.basis == RatioBasis::Requests => {
                self.window.add(now, DEPOSITS);
            }
            BudgetKind::Bucket => {
                self.tokens =
                    (self.tokens + self.config.bucket_deposit).min(self.config.bucket_size);
            }
            _ => {}
        }
    }

    /// An attempt succeeded. `retry_cost` is what the retry that produced it
    /// withdrew (0 for a first try); the AWS quota refunds it.
    pub fn on_success(&mut self, now: f64, retry_cost: f64) {
        if let Some(limiter) = &mut self.limiter {
            limiter.on_response(now, false);
        }
        match self.config.kind {
            BudgetKind::None | BudgetKind::Bucket | BudgetKind::Envoy => {}
            BudgetKind::Sre => self.window.add(now, ACCEPTS),
            BudgetKind::Ratio => {
                if self.config.basis == RatioBasis::Successes {
                    self.window.add(now, DEPOSITS);
                }
            }
            BudgetKind::TokenBucket => {
                self.tokens = (self.tokens + self.config.token_ratio).min(self.config.max_tokens);
            }
            BudgetKind::AwsQuota | BudgetKind::AwsAdaptive => {
                let refund = if retry_cost > 0.0 {
                    retry_cost
                } else {
                    self.config.no_retry_increment
                };
                self.tokens = (self.tokens + refund).min(self.config.quota);
            }
        }
    }

    /// An attempt failed (any class; `throttled` for a 429, which AWS
    /// adaptive mode's rate limiter slows down for).
    pub fn on_failure(&mut self, now: f64, throttled: bool) {
        if let Some(limiter) = &mut self.limiter {
            limiter.on_response(now, throttled);
        }
        if self.config.kind == BudgetKind::TokenBucket {
            self.tokens = (self.tokens - 1.0).max(0.0);
        }
    }

    /// Whether a throttle that rejects before sending lets an attempt go at
    /// `now`: SRE throttling counts it as a request and rejects it when
    /// `draw`, uniform on [0, 1), falls below the rejection probability;
    /// the other kinds let every attempt go.
    pub fn admits(&mut self, now: f64, draw: f64) -> bool {
        if self.config.kind != BudgetKind::Sre {
            return true;
        }
        self.window.slide(now);
        let requests = self.window.total(REQUESTS) as f64;
        let accepts = self.window.total(ACCEPTS) as f64;
        let reject = ((requests - self.config.sre_k * accepts) / (requests + 1.0)).max(0.0);
        self.window.add(now, REQUESTS);
        let admitted = draw >= reject;
        self.refusals += u64::from(!admitted);
        admitted
    }

    /// Attempts it refused so far.
    pub fn refusals(&self) -> u64 {
        self.refusals
    }

    /// Whether the budget rejects attempts before they leave (SRE
    /// throttling), first tries included.
    pub fn throttles(&self) -> bool {
        self.config.kind == BudgetKind::Sre
    }

    /// How long a send at `now`, first try or retry, waits for AWS adaptive
    /// mode's rate limiter (0 for the other kinds, and until the first
    /// throttle); the send goes at `now` plus that, holding its token.
    pub fn send_delay(&mut self, now: f64) -> f64 {
        self.limiter.as_mut().map_or(0.0, |l| l.acquire(now))
    }

    /// AWS adaptive mode's fill rate, tokens a second, once on.
    pub fn send_rate(&self) -> Option<f64> {
        self.limiter
            .as_ref()
            .filter(|l| l.enabled())
            .map(RateLimiter::fill_rate)
    }

    /// Asks to retry after a failure at `now`. Returns the cost withdrawn
    /// (`Some(0.0)` when the kind has no costs) or `None`: no budget, fail
    /// fast. `after_timeout` selects the AWS timeout cost.
    pub fn try_retry(&mut self, now: f64, after_timeout: bool) -> Option<f64> {
        let cost = self.charge(now, after_timeout);
        self.refusals += u64::from(cost.is_none());
        cost
    }

    fn charge(&mut self, now: f64, after_timeout: bool) -> Option<f64> {
        match self.config.kind {
            BudgetKind::None | BudgetKind::Sre => Some(0.0),
            BudgetKind::Ratio => {
                self.window.slide(now);
                let allowance = self.config.percent * self.window.total(DEPOSITS) as f64
                    + self.config.min_per_second * self.config.window;
                if (self.window.total(RETRIES) as f64) < allowance {
                    self.window.add(now, RETRIES);
                    Some(0.0)
                } else {
                    None
                }
            }
            BudgetKind::TokenBucket => (self.tokens > self.config.max_tokens / 2.0).then_some(0.0),
            BudgetKind::Envoy => {
                let share = (self.config.envoy_percent * f64::from(self.in_flight)).floor();
                let allowed = share.max(self.config.envoy_min);
                (f64::from(self.retries_held) < allowed).then(|| {
                    self.retries_held += 1;
                    0.0
                })
            }
            BudgetKind::Bucket => {
                if self.tokens > 1.0 {
                    self.tokens -= 1.0;
                    Some(0.0)
                } else {
                    None
                }
            }
            BudgetKind::AwsQuota | BudgetKind::AwsAdaptive => {
                let cost = if after_timeout {
                    self.config.timeout_cost
                } else {
                    self.config.retry_cost
                };
                if self.tokens >= cost {
                    self.tokens -= cost;
                    Some(cost)
                } else {
                    None
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(kind: BudgetKind) -> Budget {
        Budget::new(&BudgetConfig {
            kind,
            ..BudgetConfig::default()
        })
    }

    #[test]
    fn no_budget_always_allows() {
        let mut none = budget(BudgetKind::None);
        for i in 0..1000 {
            none.on_failure(f64::from(i), false);
            assert_eq!(none.try_retry(f64::from(i), true), Some(0.0));
        }
    }

    #[test]
    fn ratio_floor_alone_allows_min_per_second_times_window() {
        // No successes: the floor allows 10/s x 10 s = 100 retries per window.
        let mut ratio = budget(BudgetKind::Ratio);
        let allowed = (0..1000)
            .filter(|_| ratio.try_retry(1.0, false).is_some())
            .count();
        assert_eq!(allowed, 100);
        // 10.5 s later the slots holding those retries have expired.
        assert!(ratio.try_retry(11.5, false).is_some());
    }

    #[test]
    fn ratio_grows_with_successes() {
        let mut ratio = Budget::new(&BudgetConfig {
            kind: BudgetKind::Ratio,
            min_per_second: 0.0,
            ..BudgetConfig::default()
        });
        assert_eq!(ratio.try_retry(0.0, false), None, "no floor, no deposits");
        for _ in 0..100 {
            ratio.on_success(0.5, 0.0);
        }
        // 20 % of 100 successes.
        let allowed = (0..100)
            .filter(|_| ratio.try_retry(0.6, false).is_some())
            .count();
        assert_eq!(allowed, 20);
        // After the window has passed, the successes are forgotten.
        assert_eq!(ratio.try_retry(10.6, false), None);
    }

    #[test]
    fn ratio_basis_requests_counts_first_tries() {
        let mut ratio = Budget::new(&BudgetConfig {
            kind: BudgetKind::Ratio,
            min_per_second: 0.0,
            basis: RatioBasis::Requests,
            ..BudgetConfig::default()
        });
        for _ in 0..50 {
            ratio.on_first_try(2.0);
            ratio.on_success(2.0, 0.0); // does not count under this basis
        }
        let allowed = (0..100)
            .filter(|_| ratio.try_retry(2.0, false).is_some())
            .count();
        assert_eq!(allowed, 10);
    }

    /// Brooker's bucket as `AdaptiveRetryStrategy` has it: full at 5, a
    /// deposit of 0.1 per first try up to 5, a retry only above 1.
    /// The SRE book's rule: with K = 2, nothing is rejected while accepts
    /// are at least half the requests; past that, the probability is
    /// (requests - 2 accepts) / (requests + 1).
    #[test]
    fn sre_throttling_rejects_past_k_times_the_accepts() {
        let mut sre = budget(BudgetKind::Sre);
        assert!(sre.throttles() && !budget(BudgetKind::Bucket).throttles());
        // 10 requests, 5 accepted: 10 - 2 x 5 = 0, nothing rejected.
        for _ in 0..5 {
            assert!(sre.admits(0.0, 0.0));
            sre.on_success(0.0, 0.0);
            assert!(sre.admits(0.0, 0.0));
        }
        // 10 more requests, none accepted: at 19 of them (requests 19, the
        // draw is compared to (19 - 10) / 20 = 0.45).
        for _ in 0..9 {
            sre.admits(0.0, 0.99);
        }
        assert!(!sre.admits(0.0, 0.44), "0.44 < 0.45: rejected");
        assert!(sre.admits(0.0, 0.48), "20 requests: (20 - 10) / 21 = 0.476");
        assert_eq!(
            sre.try_retry(0.0, false),
            Some(0.0),
            "retries are left to the throttle"
        );
        // Two windows later the counts are gone.
        assert!(sre.admits(240.0, 0.0));
    }

    #[test]
    fn brookers_bucket_follows_his_code() {
        let mut bucket = budget(BudgetKind::Bucket);
        assert_eq!(bucket.tokens(), 5.0);
        bucket.on_first_try(0.0);
        assert_eq!(bucket.tokens(), 5.0, "a full bucket stays at its size");
        let allowed = (0..10)
            .filter(|_| bucket.try_retry(0.0, false).is_some())
            .count();
        assert_eq!(
            (allowed, bucket.tokens()),
            (4, 1.0),
            "5 > 1, 4, 3, 2 pay; 1 is not above 1"
        );
        bucket.on_failure(0.0, false);
        bucket.on_success(0.0, 0.0);
        assert_eq!(bucket.tokens(), 1.0, "outcomes neither take nor give");
        for _ in 0..3 {
            bucket.on_first_try(0.0);
        }
        assert!((bucket.tokens() - 1.3).abs() < 1e-12);
        assert!(bucket.try_retry(0.0, false).is_some());
        assert!((bucket.tokens() - 0.3).abs() < 1e-12);
    }

    #[test]
    fn token_bucket_follows_grfc_a6() {
        // max 10, ratio 0.1: retries allowed while tokens > 5.
        let mut bucket = budget(BudgetKind::TokenBucket);
        assert_eq!(bucket.tokens(), 10.0);
        for _ in 0..4 {
            bucket.on_failure(0.0, false);
        }
        assert_eq!(bucket.tokens(), 6.0);
        assert!(bucket.try_retry(0.0, false).is_some());
        bucket.on_failure(0.0, false);
        assert_eq!(bucket.tokens(), 5.0);
        assert!(bucket.try_retry(0.0, false).is_none(), "5 is not > 5");
        // Ten successes add 10 x 0.1 = 1 token (up to float rounding).
        for _ in 0..10 {
            bucket.on_success(0.0, 0.0);
        }
        assert!((bucket.tokens() - 6.0).abs() < 1e-9);
        assert!(bucket.try_retry(0.0, false).is_some());
        // Never below zero, never above max.
        for _ in 0..100 {
            bucket.on_failure(0.0, false);
        }
        assert_eq!(bucket.tokens(), 0.0);
        for _ in 0..1000 {
            bucket.on_success(0.0, 0.0);
        }
        assert_eq!(bucket.tokens(), 10.0);
    }

    #[test]
    fn aws_quota_costs_and_refunds() {
        let mut quota = budget(BudgetKind::AwsQuota);
        assert_eq!(quota.try_retry(0.0, false), Some(5.0));
        assert_eq!(quota.try_retry(0.0, true), Some(10.0));
        assert_eq!(quota.tokens(), 485.0);
        // A success after a retry refunds that retry's cost; a success that
        // needed none adds 1; the balance is capped at 500.
        quota.on_success(0.0, 10.0);
        assert_eq!(quota.tokens(), 495.0);
        quota.on_success(0.0, 0.0);
        assert_eq!(quota.tokens(), 496.0);
        for _ in 0..10 {
            quota.on_success(0.0, 0.0);
        }
        assert_eq!(quota.tokens(), 500.0);
        // 500 / 5 = 100 retries, then none.
        let allowed = (0..1000)
            .filter(|_| quota.try_retry(0.0, false).is_some())
            .count();
        assert_eq!(allowed, 100);
        assert_eq!(quota.try_retry(0.0, false), None);
    }

    #[test]
    fn nonsense_parameters_are_clamped() {
        let odd = Budget::new(&BudgetConfig {
            kind: BudgetKind::Ratio,
            percent: f64::NAN,
            window: -3.0,
            min_per_second: f64::INFINITY,
            ..BudgetConfig::default()
        });
        assert_eq!(odd.config().percent, 0.2);
        assert_eq!(odd.config().window, range::BUDGET_WINDOW.min);
        assert_eq!(odd.config().min_per_second, range::BUDGET_FLOOR.max);
    }
}
