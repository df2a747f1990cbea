//! What the page says of a search for a better policy: how far it got,
//! and each policy that beats A's in words, with the change that makes it
//! policy B.

use retry_analyses::search::{self, Frontier, Measure};
use retry_core::policy::Shape;
use retry_core::tf;
use retry_core::words::tr;
use retry_sim::config::{Config, P};

/// One policy that beats A's, as the page lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct Better {
    /// Its settings and its numbers over the seeds, in words.
    pub label: String,
    /// The link pairs that make it policy B, compare mode on: written from
    /// its values for the page's button to carry.
    pub change: String,
}

/// How far the search got, in a sentence.
pub fn status(found: &Frontier) -> String {
    let measured = found.candidates.iter().filter(|m| !m.cut).count();
    let mut text = if found.done {
        tf!(
            "Searched {measured} of {total} policies in {runs} runs, up to {seeds} seeds each.",
            measured = measured,
            total = found.total,
            runs = found.runs,
            seeds = search::SEEDS
        )
    } else {
        tf!("Searching\u{2026} {runs} runs so far.", runs = found.runs)
    };
    if found.constraints.over_failures {
        text.push(' ');
        text += tr("Each policy is judged at failure rates from 10 % to 90 %, one a seed.");
    }
    if found.cut > 0 {
        text.push(' ');
        text += &tf!(
            "{cut} policies stopped at their share of the search's work: this world is too big to search whole; a shorter horizon or a lower rate searches more of it.",
            cut = found.cut
        );
    }
    if found.done && found.cut < found.total {
        // Where A's ring stands: A's numbers over the seeds its rivals ran
        // on, which a headline of fewer seeds may not show.
        if let Some(yours) = found.yours().filter(|m| !m.cut) {
            text.push(' ');
            text += &tf!(
                "Policy A on the same seeds: {numbers}.",
                numbers = numbers(yours)
            );
        }
        text.push(' ');
        text += &match found.better.len() {
            0 => tr("No policy is ahead of policy A by a margin that matters on success or calls without falling behind it on the other on some seed.").to_string(),
            n => tf!(
                "{n} {n|policy is|policies are} ahead of policy A by a margin that matters on success or calls, and behind it on neither on any seed:",
                n = n
            ),
        };
    }
    text
}

/// A candidate's settings in words: its attempts, backoff, jitter, budget
/// and breaker.
pub fn describe(policy: &Config) -> String {
    let attempts = policy.get(P::Attempts);
    if attempts <= 1.0 {
        return tr("1 attempt: never retry").to_string();
    }
    let seconds = |p: P| format!("{} s", policy.get(p));
    let backoff = match policy.shape() {
        Shape::Constant => tf!("a constant {base} pause", base = seconds(P::Base)),
        _ => tf!(
            "backoff from {base} capped at {cap}",
            base = seconds(P::Base),
            cap = seconds(P::Cap)
        ),
    };
    let budget = match policy.budget_kind() {
        retry_core::budget::BudgetKind::None => tr("no retry budget").to_string(),
        _ => tf!(
            "a retry budget of {pct} % of requests",
            pct = format!("{:.0}", 100.0 * policy.get(P::BudgetPercent))
        ),
    };
    let breaker = if policy.breaker_mode() == retry_core::breaker::BreakerMode::Off {
        tr("no breaker")
    } else {
        tr("a circuit breaker")
    };
    tf!(
        "{n} {n|attempt|attempts}, {backoff}, jitter: {jitter}, {budget}, {breaker}",
        n = attempts,
        backoff = backoff,
        jitter = retry_teach::prose::choice_word(P::Jitter, policy.get(P::Jitter) as usize)
            .unwrap_or_default(),
        budget = budget,
        breaker = breaker
    )
}

/// A measure's numbers over its seeds: the mean and the range, or that
/// every seed gave the same.
fn numbers(m: &Measure) -> String {
    let spread = |low: String, high: String| {
        if low == high {
            tr("the same on every seed").to_string()
        } else {
            format!("{low}\u{2013}{high}")
        }
    };
    let percent = |v: f64| format!("{:.1}", 100.0 * v);
    let calls = |v: f64| format!("{v:.2}");
    tf!(
        "success {success} % ({success_spread}), {calls} calls per operation ({calls_spread})",
        success = percent(m.success.mean),
        success_spread = spread(percent(m.success.min), percent(m.success.max)),
        calls = calls(m.calls.mean),
        calls_spread = spread(calls(m.calls.min), calls(m.calls.max))
    )
}

/// The policies that beat A's, in the frontier's order, each with the
/// change that makes it B.
pub fn better(found: &Frontier, config: &Config) -> Vec<Better> {
    found
        .better
        .iter()
        .map(|&k| {
            let m = &found.candidates[k];
            let policy = config.policies_alone()[0].changed(&m.change).0;
            Better {
                label: format!("{}: {}", describe(&policy), numbers(m)),
                change: m.change.as_b().to_pairs(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use retry_teach::lesson;

    #[test]
    fn a_policy_reads_as_its_settings() {
        let config = Config::default();
        let policy = lesson::apply(
            &config,
            "attempts=5&shape=exponential&cap=10&base=1&jitter=decorrelated&budget=ratio&b_pct=0.1&breaker=off",
        );
        assert_eq!(
            describe(&policy),
            "5 attempts, backoff from 1 s capped at 10 s, jitter: decorrelated, a retry budget of 10 % of requests, no breaker"
        );
        let constant = lesson::apply(
            &config,
            "attempts=2&shape=constant&base=0.05&breaker=all&jitter=none",
        );
        assert_eq!(
            describe(&constant),
            "2 attempts, a constant 0.05 s pause, jitter: none, no retry budget, a circuit breaker"
        );
        assert_eq!(
            describe(&lesson::apply(&config, "attempts=1")),
            "1 attempt: never retry"
        );
    }

    /// A range is written as a range, and one every seed agreed on says so.
    #[test]
    fn numbers_say_when_every_seed_gave_the_same() {
        let mut m = Measure::fixed(3, 1.0, 3.54);
        m.calls.min = 3.53;
        m.calls.max = 3.56;
        assert_eq!(
            numbers(&m),
            "success 100.0 % (the same on every seed), 3.54 calls per operation (3.53\u{2013}3.56)"
        );
    }
}
