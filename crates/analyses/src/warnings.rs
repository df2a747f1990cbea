//! What a policy's own settings promise against the world it runs in,
//! before any run: a per-try timeout under the service's p99, attempts
//! that multiply down a chain, a budget that drains at the world's own
//! failure rate, retries without jitter from many clients at once, a
//! deadline shorter than the attempts it allows. Each names its setting
//! and the number, and each is a fact of the settings (and, through the
//! card, of the runs its tests hold it to).

use crate::card::card;
use retry_core::policy::Jitter;
use retry_sim::config::Config;
use retry_sim::sim::{Law, WorkloadKind};

/// Clients at once from which retries without jitter come back as a
/// herd: more than one per bucket of a chart drawn at 0.1 s, a crowd.
pub const MANY: f64 = 10.0;

/// A warning, with the numbers it names.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "kebab-case", tag = "warning")]
pub enum Warning {
    /// The per-try timeout is under the service time's p99: more than 1 %
    /// of attempts time out on a healthy day, with no queue and no hop.
    TimeoutBelowP99 {
        timeout: f64,
        p99: f64,
        /// The policy retries a timed-out attempt.
        retried: bool,
    },
    /// More than one layer retries: the bottom sees the product.
    AttemptsMultiply { factors: Vec<u32>, calls: f64 },
    /// The budget drains (or binds) at a failure rate under the world's
    /// own.
    BudgetDrainsBelowFailures { drains_above: f64, failure: f64 },
    /// Retries without jitter, from this many clients at once (operations
    /// a second in an open loop, the clients of a crowd or a loop).
    NoJitter { clients: f64 },
    /// The deadline is shorter than every attempt timing out with the
    /// longest pauses between them: it ends operations before their last
    /// attempts.
    DeadlineBelowWorstCase {
        deadline: f64,
        worst: f64,
        attempts: u32,
    },
}

/// The warnings of `config`'s policy A (pass policy B's config for B's).
pub fn warnings(config: &Config) -> Vec<Warning> {
    let s = config.scenario();
    let policy = &s.policy;
    let retries = policy.attempts > 1 || policy.hedge;
    let mut out = Vec::new();
    if let Some(timeout) = policy.attempt_timeout.filter(|&t| t > 0.0) {
        let p99 = Law::service(&s).quantile(0.99);
        if timeout < p99 {
            let retried = policy.attempts > 1
                && policy
                    .retry_on
                    .retries(&retry_core::classify::Failure::Timeout, false);
            out.push(Warning::TimeoutBelowP99 {
                timeout,
                p99,
                retried,
            });
        }
    }
    let card = card(config);
    if card
        .worst_factors
        .iter()
        .take(s.layers.max(1) as usize)
        .filter(|&&f| f > 1)
        .count()
        > 1
    {
        out.push(Warning::AttemptsMultiply {
            factors: card.worst_factors.clone(),
            calls: card.worst_calls,
        });
    }
    if let Some(drains_above) = card.drains_above.filter(|&p| retries && p < s.failure) {
        out.push(Warning::BudgetDrainsBelowFailures {
            drains_above,
            failure: s.failure,
        });
    }
    let clients = match s.workload {
        WorkloadKind::Poisson => s.rate,
        _ => f64::from(s.clients),
    };
    if policy.attempts > 1 && policy.jitter == Jitter::None && clients >= MANY {
        out.push(Warning::NoJitter { clients });
    }
    if let (Some(deadline), Some(timeout)) = (policy.deadline, policy.attempt_timeout) {
        let pauses: f64 = (0..policy.attempts.saturating_sub(1))
            .map(|retry| policy.pause_bounds(retry).max)
            .sum();
        let worst = f64::from(policy.attempts) * timeout + pauses;
        if deadline > 0.0 && timeout > 0.0 && policy.attempts > 1 && deadline < worst {
            out.push(Warning::DeadlineBelowWorstCase {
                deadline,
                worst,
                attempts: policy.attempts,
            });
        }
    }
    out
}

impl Warning {
    /// The warning in the reader's words.
    pub fn text(&self) -> String {
        let seconds = |t: f64| retry_core::words::number(&format!("{} s", round(t)));
        match self {
            Warning::TimeoutBelowP99 {
                timeout,
                p99,
                retried: true,
            } => retry_core::tf!(
                "The per-try timeout ({timeout}) is under the service's p99 ({p99}): more than 1 % of attempts time out on a healthy day, and each is tried again.",
                timeout = seconds(*timeout),
                p99 = seconds(*p99)
            ),
            Warning::TimeoutBelowP99 { timeout, p99, .. } => retry_core::tf!(
                "The per-try timeout ({timeout}) is under the service's p99 ({p99}): more than 1 % of operations fail by it on a healthy day.",
                timeout = seconds(*timeout),
                p99 = seconds(*p99)
            ),
            Warning::AttemptsMultiply { factors, calls } => retry_core::tf!(
                "Attempts multiply down the chain: {factors} reach the bottom {calls} times for one operation when every call fails.",
                factors = factors
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(" \u{d7} "),
                calls = calls
            ),
            Warning::BudgetDrainsBelowFailures {
                drains_above,
                failure,
            } => retry_core::tf!(
                "The retry budget drains above {drains} of attempts failing, and this world fails {failure} of them on a normal day: it is spent before any fault.",
                drains = retry_sim::metrics::Format::Share.headline(*drains_above),
                failure = retry_sim::metrics::Format::Share.headline(*failure)
            ),
            Warning::NoJitter { clients } => retry_core::tf!(
                "No jitter, with {clients} clients at once: those a fault fails together retry together, in waves.",
                clients = retry_core::words::number(&round(*clients))
            ),
            Warning::DeadlineBelowWorstCase {
                deadline,
                worst,
                attempts,
            } => retry_core::tf!(
                "The deadline ({deadline}) is shorter than {attempts} attempts that time out with their longest pauses ({worst}): it ends some operations before their last attempt.",
                deadline = seconds(*deadline),
                attempts = attempts,
                worst = seconds(*worst)
            ),
        }
    }
}

/// A number as a setting is written: whole from 100 up, else to the
/// millisecond with no trailing zeros.
fn round(value: f64) -> String {
    if value.abs() >= 100.0 {
        return format!("{value:.0}");
    }
    let text = format!("{value:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn world(link: &str) -> Config {
        let (config, notices) = Config::from_link(link);
        assert!(notices.is_empty(), "{link}: {notices:?}");
        config
    }

    fn fires(link: &str, which: fn(&Warning) -> bool) -> bool {
        warnings(&world(link)).iter().any(which)
    }

    /// A timeout under the service's p99 fires, and the runs agree: with
    /// no queue, no hop and no failure, an attempt times out exactly when
    /// its service time passes the timeout. Exponential service of mean
    /// 0.1 s, p99 0.461 s: at 0.8 of it e^-3.68 = 2.5 % of operations fail
    /// with one attempt, at 1.25 of it e^-5.76 = 0.3 %; 20 000 operations
    /// put 1 % more than 8 binomial sd from either.
    #[test]
    fn a_timeout_under_the_p99_times_out_more_than_one_in_a_hundred() {
        let p99 = -0.1 * (0.01f64).ln();
        for (factor, fires_here) in [(0.8, true), (1.25, false)] {
            let link = format!(
                "v=1&attempts=1&failure=0&workers=0&hop=constant&hop_mean=0&service=exponential&service_t=0.1&rate=400&horizon=50&timeout={:.3}",
                factor * p99
            );
            assert_eq!(
                fires(&link, |w| matches!(w, Warning::TimeoutBelowP99 { .. })),
                fires_here,
                "{link}"
            );
            let report = retry_sim::simulate::run(&world(&link));
            let failed = 1.0 - report.summary.success_rate;
            assert_eq!(failed > 0.01, fires_here, "{link}: {failed}");
        }
        assert!(!fires("v=1&timeout=0", |w| matches!(
            w,
            Warning::TimeoutBelowP99 { .. }
        )));
    }

    /// Attempts multiply only where two layers or more retry, and the
    /// number is the card's (held to the runs by its tests).
    #[test]
    fn attempts_multiply_where_two_layers_retry() {
        let chain = world("v=1&attempts=4&layers=2&l2_attempts=3");
        let warned = warnings(&chain);
        let calls = card(&chain).worst_calls;
        assert!(warned.contains(&Warning::AttemptsMultiply {
            factors: vec![4, 3],
            calls
        }));
        assert_eq!(calls, 12.0);
        assert!(warned.iter().any(|w| w.text().contains("4 \u{d7} 3")));
        let multiply = |w: &Warning| matches!(w, Warning::AttemptsMultiply { .. });
        assert!(!fires("v=1&attempts=4&layers=2&l2_attempts=1", multiply));
        assert!(!fires("v=1&attempts=4", multiply));
    }

    /// A budget drains before any fault where its card's threshold is under
    /// the world's failure rate: gRPC's throttle (1 / 11) at 20 %, not at
    /// 5 %.
    #[test]
    fn a_budget_that_drains_at_the_worlds_failure_rate() {
        let drains = |w: &Warning| matches!(w, Warning::BudgetDrainsBelowFailures { .. });
        assert!(fires(
            "v=1&attempts=3&budget=token-bucket&failure=0.2",
            drains
        ));
        assert!(!fires(
            "v=1&attempts=3&budget=token-bucket&failure=0.05",
            drains
        ));
        assert!(!fires("v=1&attempts=3&failure=0.9", drains), "no budget");
    }

    /// No jitter warns from ten clients at once, and not with jitter, one
    /// attempt or a handful of clients.
    #[test]
    fn no_jitter_warns_with_many_clients() {
        let herd = |w: &Warning| matches!(w, Warning::NoJitter { .. });
        assert!(fires("v=1&attempts=3&jitter=none&rate=50", herd));
        assert!(!fires("v=1&attempts=3&jitter=full&rate=50", herd));
        assert!(!fires("v=1&attempts=1&jitter=none&rate=50", herd));
        assert!(!fires("v=1&attempts=3&jitter=none&rate=5", herd));
        assert!(fires(
            "v=1&attempts=3&jitter=none&workload=crowd&clients=100",
            herd
        ));
    }

    /// A deadline under every attempt's timeout and the longest pauses
    /// warns, and the runs agree: with every call failing slowly (a
    /// constant 1 s service, a 0.5 s timeout, 3 attempts, pauses of 0.2
    /// and 0.4 s), an operation takes 1.5 + 0.6 = 2.1 s to its last
    /// attempt's timeout; a 1.5 s deadline cuts every operation short of
    /// it, a 3 s one none.
    #[test]
    fn a_deadline_shorter_than_the_attempts_ends_operations_early() {
        let base = "v=1&attempts=3&shape=exponential&base=0.2&cap=10&jitter=none&timeout=0.5\
                    &service=constant&service_t=1&hop=constant&hop_mean=0&workers=0&failure=0&rate=20&horizon=20";
        let cut = |w: &Warning| matches!(w, Warning::DeadlineBelowWorstCase { .. });
        let short = format!("{base}&deadline=1.5");
        let long = format!("{base}&deadline=3");
        assert!(fires(&short, cut));
        assert!(!fires(&long, cut));
        let worst = warnings(&world(&short))
            .into_iter()
            .find_map(|w| match w {
                Warning::DeadlineBelowWorstCase { worst, .. } => Some(worst),
                _ => None,
            })
            .expect("it fires");
        assert!((worst - 2.1).abs() < 1e-9, "{worst}");
        let ended = |link: &str| {
            retry_sim::simulate::run(&world(link))
                .summary
                .deadline_exceeded
        };
        assert!(ended(&short) > 0);
        assert_eq!(ended(&long), 0);
    }
}
