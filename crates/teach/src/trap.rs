//! The traps: the naive models a room reasons with before it has seen the
//! runs. Each model predicts a chapter's answer from the chapter's
//! settings alone, by its own arithmetic (attempts that add across layers,
//! a retry that cures any error, a budget that caps retries at its
//! percent), so the notes' "common guess" is computed, not asserted. A
//! chapter is a trap where its model's answer is not the runs' one; a test
//! holds the core path to enough of them.

use retry_core::budget::BudgetKind;
use retry_core::policy::Jitter;
use retry_core::words::Text;
use retry_sim::config::{Config, P};
use retry_sim::metrics::{Metric, Side};
use retry_sim::sim::{Law, WorkloadKind};

/// A naive model of retries.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Naive {
    /// Every attempt is a fresh chance, whatever the load: an operation
    /// fails only when all its attempts fail on their own, and the policy
    /// that retries more (more attempts, more kinds of error) does better.
    RetryCuresAny,
    /// The longer an attempt may wait, the likelier it succeeds.
    LongerTimeoutSafer,
    /// Jitter helps: the policy with it does better, and two with the
    /// same jitter do the same.
    JitterAlwaysHelps,
    /// The longer the pauses between attempts, the fewer the calls.
    BackoffCutsLoad,
    /// A budget holds retries to its share of the traffic: the policy
    /// with one sends less, and its calls per operation are one plus its
    /// share.
    BudgetCapsAtPercent,
    /// The layers' attempts add up: a chain of layers of n attempts each
    /// sends layers x n calls down.
    AttemptsAdd,
    /// A second copy costs nothing: the hedging policy's tail is shorter.
    HedgingIsFree,
    /// A retry asks again and nothing more: no policy executes an order
    /// twice.
    RetryOnlyAsksAgain,
    /// The trouble is over when its trigger ends: only operations whose
    /// every attempt falls inside a fault fail, at the fault's share.
    OverWhenTriggerEnds,
    /// Trouble shows in the success rate: it is the number that moves.
    SuccessShowsTrouble,
    /// A request the client turns away is one more failure: the policy
    /// that throttles its own requests gets fewer through.
    ThrottlingFails,
    /// A throttle is a throttle: a token bucket and a breaker stop the
    /// same retries.
    ThrottlesAlike,
    /// A caller that gives up ends the work below it: keeping the
    /// deadline or passing it down comes to the same.
    GivingUpStopsTheWorkBelow,
    /// A request takes as long as a typical call: the backends' median.
    TypicalCall,
}

impl Naive {
    /// The model as the notes name it.
    pub fn name(self) -> Text {
        match self {
            Naive::RetryCuresAny => Text("a retry cures any error"),
            Naive::LongerTimeoutSafer => Text("a longer timeout is safer"),
            Naive::JitterAlwaysHelps => Text("jitter always helps"),
            Naive::BackoffCutsLoad => Text("backoff cuts the load, whatever the clients"),
            Naive::BudgetCapsAtPercent => Text("a budget caps retries at its percent"),
            Naive::AttemptsAdd => Text("attempts add up across layers"),
            Naive::HedgingIsFree => Text("hedging is free"),
            Naive::RetryOnlyAsksAgain => Text("a retry only asks again"),
            Naive::OverWhenTriggerEnds => Text("it is over when the trigger ends"),
            Naive::SuccessShowsTrouble => Text("trouble shows in the success rate"),
            Naive::ThrottlingFails => Text("a request turned away is a request lost"),
            Naive::ThrottlesAlike => Text("a throttle is a throttle"),
            Naive::GivingUpStopsTheWorkBelow => Text("a caller that gives up stops the work below"),
            Naive::TypicalCall => Text("a request takes as long as a typical call"),
        }
    }

    /// What the model predicts on `config` for a chapter that asks
    /// `asked`: `None` where it says nothing about that (a test holds
    /// every chapter's model to a prediction).
    pub fn guess(self, config: &Config, asked: Asked) -> Option<Guess> {
        let a = config.clone();
        let b = config.policy_b_config();
        let judged = |side: Side| match side {
            Side::A => &a,
            Side::B => &b,
        };
        // The side the model favours by a score of each policy, the
        // higher better; equal scores favour neither.
        let favour = |score: &dyn Fn(&Config) -> f64| {
            let (sa, sb) = (score(&a), score(&b));
            Guess::Side(match sa.total_cmp(&sb) {
                std::cmp::Ordering::Greater => Some(Side::A),
                std::cmp::Ordering::Less => Some(Side::B),
                std::cmp::Ordering::Equal => None,
            })
        };
        Some(match (self, asked) {
            (Naive::RetryCuresAny, Asked::Band(metric, side)) => {
                let c = judged(side);
                let fail = attempt_failure(c);
                let n = c.get(P::Attempts);
                match metric {
                    Metric::Success => Guess::Value(1.0 - fail.powf(n)),
                    // Attempts until the first success, at most n.
                    Metric::LoadAmplification => {
                        Guess::Value((0..n as i32).map(|k| fail.powi(k)).sum())
                    }
                    _ => return None,
                }
            }
            (Naive::RetryCuresAny, Asked::Better(_)) => {
                favour(&|c| c.get(P::Attempts) * 10.0 + cured(c) as f64)
            }
            (Naive::LongerTimeoutSafer, Asked::Better(_)) => favour(&|c| match c.get(P::Timeout) {
                0.0 => f64::INFINITY,
                timeout => timeout,
            }),
            (Naive::JitterAlwaysHelps, Asked::Better(_)) => {
                favour(&|c| f64::from(u8::from(c.policy().jitter != Jitter::None)))
            }
            (Naive::BackoffCutsLoad, Asked::Better(metric)) => {
                let longer = favour(&pauses);
                match metric {
                    // Fewer calls is the better side for a count of calls.
                    Metric::Calls | Metric::LoadAmplification => longer,
                    _ => return None,
                }
            }
            (Naive::BudgetCapsAtPercent, Asked::Better(_)) => {
                favour(&|c| f64::from(u8::from(budget_share(c).is_some())))
            }
            (Naive::BudgetCapsAtPercent, Asked::Band(_, side)) => {
                let c = judged(side);
                let share = budget_share(c)?;
                Guess::Value(1.0 + share.min(c.get(P::Attempts) - 1.0))
            }
            (Naive::AttemptsAdd, Asked::Band(_, side)) => {
                let c = judged(side);
                Guess::Value(c.get(P::Layers) * c.get(P::Attempts))
            }
            (Naive::HedgingIsFree, Asked::Better(_)) => {
                favour(&|c| f64::from(u8::from(c.policy().hedge)))
            }
            (
                Naive::RetryOnlyAsksAgain
                | Naive::ThrottlesAlike
                | Naive::GivingUpStopsTheWorkBelow
                | Naive::OverWhenTriggerEnds,
                Asked::Better(_),
            ) => Guess::Side(None),
            (Naive::OverWhenTriggerEnds, Asked::Band(_, side)) => {
                Guess::Value(1.0 - caught_in_fault(judged(side)))
            }
            (Naive::SuccessShowsTrouble, Asked::Moves(_)) => Guess::Signal(Metric::Success),
            (Naive::ThrottlingFails, Asked::Better(_)) => {
                favour(&|c| f64::from(u8::from(c.budget_kind() != BudgetKind::Sre)))
            }
            (Naive::TypicalCall, Asked::Band(..)) => {
                Guess::Value(Law::service(&a.scenario()).quantile(0.5))
            }
            _ => return None,
        })
    }
}

/// What a chapter asks: which policy does better on a metric, or where
/// one policy's number falls.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Asked {
    Better(Metric),
    Band(Metric, Side),
    /// Which of one policy's numbers moves furthest from a healthy day's.
    Moves(Side),
}

/// What a model predicts, before it is matched to a chapter's answers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Guess {
    /// The policy that does better; `None` for neither.
    Side(Option<Side>),
    /// The judged number.
    Value(f64),
    /// The number that moves furthest.
    Signal(Metric),
}

/// The chance that one attempt fails, from the settings alone: the
/// failure share, a lost answer, and a service slower than the attempt's
/// timeout (its law's own share, no queueing).
fn attempt_failure(c: &Config) -> f64 {
    let slow = match c.get(P::Timeout) {
        0.0 => 0.0,
        timeout => slower_than(&Law::service(&c.scenario()), timeout),
    };
    1.0 - (1.0 - c.get(P::Failure)) * (1.0 - c.get(P::Lost)) * (1.0 - slow)
}

/// The share of a law's draws above `t`, its quantile inverted by
/// bisection.
fn slower_than(law: &Law, t: f64) -> f64 {
    let (mut low, mut high) = (0.0, 1.0);
    for _ in 0..60 {
        let mid = (low + high) / 2.0;
        match law.quantile(mid) < t {
            true => low = mid,
            false => high = mid,
        }
    }
    1.0 - low
}

/// How many of the statuses a server answers (400, 429, 500, 503) a
/// policy retries.
fn cured(c: &Config) -> usize {
    let on = c.policy().retry_on;
    [400, 429, 500, 503]
        .into_iter()
        .filter(|&code| {
            on.retries(
                &retry_core::classify::Failure::Status {
                    code,
                    retry_after: None,
                },
                false,
            )
        })
        .count()
}

/// The mean of all of a policy's pauses, in seconds.
fn pauses(c: &Config) -> f64 {
    let policy = c.policy();
    (1..policy.attempts)
        .map(|retry| policy.pause_bounds(retry).mean)
        .sum()
}

/// The share of its traffic a budget lets retry, for the kinds that
/// name one.
fn budget_share(c: &Config) -> Option<f64> {
    match c.budget_kind() {
        BudgetKind::Ratio => Some(c.get(P::BudgetPercent)),
        BudgetKind::Bucket => Some(c.get(P::BucketDeposit)),
        BudgetKind::TokenBucket => Some(c.get(P::TokenRatio)),
        BudgetKind::AwsQuota | BudgetKind::AwsAdaptive => Some(0.0),
        _ => None,
    }
}

/// The share of operations a fault fails if nothing outlasts it: those
/// whose attempts (pauses and timeouts) all fall inside an outage or a
/// capacity loss, at the share of the work it takes.
fn caught_in_fault(c: &Config) -> f64 {
    let span = pauses(c) + c.get(P::Timeout) * (c.get(P::Attempts) - 1.0);
    let crowd = c.workload() == WorkloadKind::Crowd;
    let horizon = c.get(P::Horizon).max(1e-9);
    [
        (c.get(P::OutageFor), 1.0),
        (c.get(P::DropFor), 1.0 - c.get(P::DropTo)),
    ]
    .into_iter()
    .map(|(length, lost)| {
        let inside = (length - span).max(0.0);
        lost * match crowd {
            true => f64::from(u8::from(inside > 0.0)),
            false => inside / horizon,
        }
    })
    .sum::<f64>()
    .min(1.0)
}
