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
//!
//! A budget is one [`Spec`]: its kind with that kind's parameters, each
//! kind in a file of its own ([`ratio`], [`token_bucket`], [`quota`],
//! [`bucket`], [`sre`], [`envoy`]) with the rule it keeps.

use crate::adaptive::RateLimiter;

pub mod bucket;
pub mod envoy;
pub mod quota;
pub mod ratio;
pub mod sre;
pub mod token_bucket;

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

/// The retry budget a policy names: its kind, and every kind's
/// parameters, as the page's controls keep them (a service below that
/// keeps a budget of another kind takes that kind's from here: its
/// [`Spec`]).
#[derive(Debug, Clone, PartialEq)]
pub struct BudgetConfig {
    pub kind: BudgetKind,
    /// When a retry is charged: as it is scheduled, or as it is sent.
    pub charge_at: ChargeAt,
    pub ratio: ratio::Params,
    pub token_bucket: token_bucket::Params,
    pub quota: quota::Params,
    pub bucket: bucket::Params,
    pub sre: sre::Params,
    pub envoy: envoy::Params,
}

impl BudgetConfig {
    /// No budget; each kind's parameters its published defaults (Finagle
    /// 20 % / 10 per s / 10 s, gRPC 10 / 0.1, AWS 500 / 5 / 10 / 1,
    /// Brooker 5 / 0.1, the SRE book's K = 2 over 2 minutes, Envoy 20 % /
    /// 3).
    pub const DEFAULT: BudgetConfig = BudgetConfig {
        kind: BudgetKind::None,
        charge_at: ChargeAt::Schedule,
        ratio: ratio::Params::DEFAULT,
        token_bucket: token_bucket::Params::DEFAULT,
        quota: quota::Params::DEFAULT,
        bucket: bucket::Params::DEFAULT,
        sre: sre::Params::DEFAULT,
        envoy: envoy::Params::DEFAULT,
    };

    /// The parameters brought into their ranges (see [`range`]), NaN
    /// replaced by the default.
    pub fn sanitized(&self) -> BudgetConfig {
        BudgetConfig {
            kind: self.kind,
            charge_at: self.charge_at,
            ratio: self.ratio.sanitized(),
            token_bucket: self.token_bucket.sanitized(),
            quota: self.quota.sanitized(),
            bucket: self.bucket.sanitized(),
            sre: self.sre.sanitized(),
            envoy: self.envoy.sanitized(),
        }
    }

    /// The policy's own budget: its kind with that kind's parameters.
    pub fn spec(&self) -> Spec {
        self.spec_of(self.kind)
    }

    /// A budget of `kind` with this configuration's parameters of that
    /// kind.
    pub fn spec_of(&self, kind: BudgetKind) -> Spec {
        match kind {
            BudgetKind::None => Spec::None,
            BudgetKind::Ratio => Spec::Ratio(self.ratio),
            BudgetKind::TokenBucket => Spec::TokenBucket(self.token_bucket),
            BudgetKind::AwsQuota => Spec::AwsQuota(self.quota),
            BudgetKind::AwsAdaptive => Spec::AwsAdaptive(self.quota),
            BudgetKind::Bucket => Spec::Bucket(self.bucket),
            BudgetKind::Sre => Spec::Sre(self.sre),
            BudgetKind::Envoy => Spec::Envoy(self.envoy),
        }
    }
}

impl Default for BudgetConfig {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// When a budget charges a retry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChargeAt {
    /// As the retry is scheduled, before its pause: asking and paying are
    /// one step, so a retry waiting in backoff holds its share.
    Schedule,
    /// As it is sent, after its pause: it is asked at scheduling and pays
    /// when it leaves, so retries waiting in backoff hold nothing of the
    /// budget. A thousand failures at once all find it full, all schedule
    /// their retries, and all send them; Envoy counts a retry in flight
    /// only once it is sent.
    Send,
}

/// One budget: a kind with its own parameters, and none of another's.
/// What each client instance, and each service below that keeps a budget
/// of its own, builds its [`Budget`] from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Spec {
    None,
    Ratio(ratio::Params),
    TokenBucket(token_bucket::Params),
    AwsQuota(quota::Params),
    AwsAdaptive(quota::Params),
    Bucket(bucket::Params),
    Sre(sre::Params),
    Envoy(envoy::Params),
}

impl Spec {
    pub const fn kind(&self) -> BudgetKind {
        match self {
            Spec::None => BudgetKind::None,
            Spec::Ratio(_) => BudgetKind::Ratio,
            Spec::TokenBucket(_) => BudgetKind::TokenBucket,
            Spec::AwsQuota(_) => BudgetKind::AwsQuota,
            Spec::AwsAdaptive(_) => BudgetKind::AwsAdaptive,
            Spec::Bucket(_) => BudgetKind::Bucket,
            Spec::Sre(_) => BudgetKind::Sre,
            Spec::Envoy(_) => BudgetKind::Envoy,
        }
    }

    /// Its parameters brought into their ranges.
    pub fn sanitized(&self) -> Spec {
        match self {
            Spec::None => Spec::None,
            Spec::Ratio(p) => Spec::Ratio(p.sanitized()),
            Spec::TokenBucket(p) => Spec::TokenBucket(p.sanitized()),
            Spec::AwsQuota(p) => Spec::AwsQuota(p.sanitized()),
            Spec::AwsAdaptive(p) => Spec::AwsAdaptive(p.sanitized()),
            Spec::Bucket(p) => Spec::Bucket(p.sanitized()),
            Spec::Sre(p) => Spec::Sre(p.sanitized()),
            Spec::Envoy(p) => Spec::Envoy(p.sanitized()),
        }
    }
}

/// A retry budget's state: the kind's own rule, with its parameters, and
/// what every kind shares (the refusals, AWS adaptive mode's rate limiter).
#[derive(Debug, Clone)]
pub struct Budget {
    rule: Rule,
    /// AWS adaptive mode's rate limiter.
    limiter: Option<RateLimiter>,
    /// Attempts it refused (retries, and first tries SRE throttling rejects).
    refusals: u64,
}

/// What a budget kind does at each event of its client's life. Each kind
/// is its own type and says only what it reacts to; the rest is "nothing"
/// here, once.
trait Kind {
    /// One of its layer's attempts left.
    fn on_send(&mut self) {}
    /// One of its layer's attempts has its answer, or timed out.
    fn on_answer(&mut self, _retry: bool) {}
    /// A granted retry that will not be sent gives its place back.
    fn release_retry(&mut self) {}
    /// A new operation sent its first try.
    fn on_first_try(&mut self, _now: f64) {}
    /// An attempt succeeded; `retry_cost` is what its retry withdrew.
    fn on_success(&mut self, _now: f64, _retry_cost: f64) {}
    /// An attempt failed.
    fn on_failure(&mut self) {}
    /// Whether an attempt may leave at `now` (`draw` uniform on [0, 1)).
    fn admits(&mut self, _now: f64, _draw: f64) -> bool {
        true
    }
    /// A retry's cost, withdrawn, or `None`: refused.
    fn charge(&mut self, now: f64, after_timeout: bool) -> Option<f64>;
    /// Its balance of tokens, for the kinds that keep one.
    fn balance(&self) -> Option<f64> {
        None
    }
}

/// Each [`BudgetKind`]'s rule, with only its own parameters and state.
#[derive(Debug, Clone)]
enum Rule {
    Unlimited(Unlimited),
    Ratio(ratio::Ratio),
    TokenBucket(token_bucket::TokenBucket),
    Quota(quota::Quota),
    Bucket(bucket::Bucket),
    Sre(sre::Sre),
    Envoy(envoy::Envoy),
}

/// Calls one [`Kind`] method on whichever rule a budget has.
macro_rules! each {
    ($rule:expr, $k:ident => $call:expr) => {
        match $rule {
            Rule::Unlimited($k) => $call,
            Rule::Ratio($k) => $call,
            Rule::TokenBucket($k) => $call,
            Rule::Quota($k) => $call,
            Rule::Bucket($k) => $call,
            Rule::Sre($k) => $call,
            Rule::Envoy($k) => $call,
        }
    };
}

impl Rule {
    fn new(spec: &Spec) -> Rule {
        match spec {
            Spec::None => Rule::Unlimited(Unlimited),
            Spec::Ratio(p) => Rule::Ratio(p.rule()),
            Spec::TokenBucket(p) => Rule::TokenBucket(p.rule()),
            Spec::AwsQuota(p) | Spec::AwsAdaptive(p) => Rule::Quota(p.rule()),
            Spec::Bucket(p) => Rule::Bucket(p.rule()),
            Spec::Sre(p) => Rule::Sre(p.rule()),
            Spec::Envoy(p) => Rule::Envoy(p.rule()),
        }
    }
}

/// No budget: only the per-operation attempt limit applies.
#[derive(Debug, Clone)]
struct Unlimited;

impl Kind for Unlimited {
    fn charge(&mut self, _now: f64, _after_timeout: bool) -> Option<f64> {
        Some(0.0)
    }
}

/// A retry asked of `rule` at `now`: what it withdraws, or `None`. One
/// body for the three ways a budget is asked (its kinds' rules inlined
/// once, not at each: the page's first module counts its bytes).
#[inline(never)]
fn charge(rule: &mut Rule, now: f64, after_timeout: bool) -> Option<f64> {
    each!(rule, k => k.charge(now, after_timeout))
}

impl Budget {
    /// A budget of `spec`'s kind at its starting balance, of its
    /// parameters [sanitized](Spec::sanitized).
    pub fn new(spec: &Spec) -> Self {
        let spec = spec.sanitized();
        Self {
            rule: Rule::new(&spec),
            limiter: (spec.kind() == BudgetKind::AwsAdaptive).then(|| RateLimiter::new(0.0)),
            refusals: 0,
        }
    }

    /// The balance of a budget that keeps one (gRPC's token bucket, the
    /// AWS SDK's retry quota, Brooker's bucket); none for the others.
    pub fn balance(&self) -> Option<f64> {
        each!(&self.rule, k => k.balance())
    }

    /// The [balance](Budget::balance), 0 for the kinds that keep none.
    pub fn tokens(&self) -> f64 {
        self.balance().unwrap_or(0.0)
    }

    /// One of its layer's attempts left (Envoy counts them in flight).
    pub fn on_send(&mut self) {
        each!(&mut self.rule, k => k.on_send())
    }

    /// One of its layer's attempts has its answer, or timed out: out of
    /// flight, and a retry's place is given back (Envoy).
    pub fn on_answer(&mut self, retry: bool) {
        each!(&mut self.rule, k => k.on_answer(retry))
    }

    /// A granted retry that will not be sent gives its place back (Envoy).
    pub fn release_retry(&mut self) {
        each!(&mut self.rule, k => k.release_retry())
    }

    /// A new operation sent its first try.
    pub fn on_first_try(&mut self, now: f64) {
        each!(&mut self.rule, k => k.on_first_try(now))
    }

    /// An attempt succeeded. `retry_cost` is what the retry that produced it
    /// withdrew (0 for a first try); the AWS quota refunds it.
    pub fn on_success(&mut self, now: f64, retry_cost: f64) {
        if let Some(limiter) = &mut self.limiter {
            limiter.on_response(now, false);
        }
        each!(&mut self.rule, k => k.on_success(now, retry_cost))
    }

    /// An attempt failed (any class; `throttled` for a 429, which AWS
    /// adaptive mode's rate limiter slows down for).
    pub fn on_failure(&mut self, now: f64, throttled: bool) {
        if let Some(limiter) = &mut self.limiter {
            limiter.on_response(now, throttled);
        }
        each!(&mut self.rule, k => k.on_failure())
    }

    /// Whether a throttle that rejects before sending lets an attempt go at
    /// `now`: SRE throttling counts it as a request and rejects it when
    /// `draw`, uniform on [0, 1), falls below the rejection probability;
    /// the other kinds let every attempt go.
    pub fn admits(&mut self, now: f64, draw: f64) -> bool {
        let admitted = each!(&mut self.rule, k => k.admits(now, draw));
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
        matches!(self.rule, Rule::Sre(_))
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

    /// Whether a retry asked for at `now` is granted, without charging it
    /// ([`ChargeAt::Send`]); a refusal counts as [`Budget::try_retry`]'s.
    pub fn grants_retry(&mut self, now: f64, after_timeout: bool) -> bool {
        let granted = charge(&mut self.rule.clone(), now, after_timeout).is_some();
        self.refusals += u64::from(!granted);
        granted
    }

    /// Charges a retry granted earlier as it leaves at `now`
    /// ([`ChargeAt::Send`]): what it withdraws, nothing where the budget
    /// has nothing left, for it goes anyway.
    pub fn charge_sent(&mut self, now: f64, after_timeout: bool) -> f64 {
        charge(&mut self.rule, now, after_timeout).unwrap_or(0.0)
    }

    /// Asks to retry after a failure at `now`. Returns the cost withdrawn
    /// (`Some(0.0)` when the kind has no costs) or `None`: no budget, fail
    /// fast. `after_timeout` selects the AWS timeout cost.
    pub fn try_retry(&mut self, now: f64, after_timeout: bool) -> Option<f64> {
        let cost = charge(&mut self.rule, now, after_timeout);
        self.refusals += u64::from(cost.is_none());
        cost
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(kind: BudgetKind) -> Budget {
        Budget::new(&BudgetConfig::default().spec_of(kind))
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
        let mut ratio = Budget::new(&Spec::Ratio(ratio::Params {
            min_per_second: 0.0,
            ..ratio::Params::DEFAULT
        }));
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
        let mut ratio = Budget::new(&Spec::Ratio(ratio::Params {
            min_per_second: 0.0,
            basis: RatioBasis::Requests,
            ..ratio::Params::DEFAULT
        }));
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
        // What `Budget::new` builds its rule from.
        let odd = BudgetConfig {
            kind: BudgetKind::Ratio,
            ratio: ratio::Params {
                percent: f64::NAN,
                window: -3.0,
                min_per_second: f64::INFINITY,
                ..ratio::Params::DEFAULT
            },
            ..BudgetConfig::default()
        }
        .sanitized()
        .ratio;
        assert_eq!(odd.percent, 0.2);
        assert_eq!(odd.window, crate::range::BUDGET_WINDOW.min);
        assert_eq!(odd.min_per_second, crate::range::BUDGET_FLOOR.max);
    }
}
