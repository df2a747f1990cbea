//! What a preset teaches and how the page keeps teaching it while the
//! learner plays: the few numbers a lesson is about, which preset's lesson
//! still applies after the settings changed, the "try this" changes, and a
//! glossary of the terms the page uses.
//!
//! A lesson is a contrast: policy A (what people do) against policy B (the
//! fix) on the same world and seed. The headline numbers put A and B side by
//! side and say which side is better; a "try this" names the change and the
//! number it moves, so a test can hold every lesson to its claim.

use retry_core::words::Text;
use retry_sim::config::{Config, P};
use retry_sim::metrics::Metric;
// A headline names its better side by it; the page's glue reads it here.
use crate::presets::{PRESETS, Preset, changed_settings};
pub use retry_sim::metrics::Side;

/// Which preset's lesson the page shows, and how far the settings have
/// moved from that preset's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LessonState {
    pub preset: &'static Preset,
    /// Settings (of A or of B) that differ from the preset's.
    pub changed: usize,
}

impl LessonState {
    /// "You changed 2 settings", or nothing while the settings are the
    /// preset's own.
    pub fn status(&self) -> Option<String> {
        match self.changed {
            0 => None,
            n => Some(retry_core::tf!(
                "You changed {n} {n|setting|settings}",
                n = n
            )),
        }
    }
}

/// The numbers beside the chart when the settings are far from every
/// preset: what the users got, what it cost the server, how long it took.
pub const OWN_HEADLINE: &[Metric] = &[Metric::Success, Metric::LoadAmplification, Metric::P99];

/// The numbers a link's lesson (as a page opens it) is about, the one it
/// rests on first, and those its "try this" buttons promise to move.
pub fn headline_of(config: &Config) -> (&'static [Metric], Vec<Metric>) {
    match lesson_state(None, config) {
        Some(state) => (
            state.preset.headline,
            state
                .preset
                .try_this
                .iter()
                .map(|t| t.expect.metric)
                .collect(),
        ),
        None => (OWN_HEADLINE, Vec::new()),
    }
}

/// Most changed settings at which a link opened on its own still shows the
/// nearest preset's lesson: a few tweaks keep a lesson, a new world does not.
const NEAREST_WITHIN: usize = 3;

/// The lesson for `config`: the preset the learner started from (`origin`),
/// else the preset `config` is, else the nearest preset within a few
/// settings; `None` for settings far from every preset.
pub fn lesson_state(origin: Option<&'static Preset>, config: &Config) -> Option<LessonState> {
    let state = |preset: &'static Preset| LessonState {
        preset,
        changed: changed_settings(preset, config),
    };
    if let Some(preset) = origin {
        return Some(state(preset));
    }
    PRESETS
        .iter()
        .map(state)
        .filter(|s| s.changed <= NEAREST_WITHIN)
        .min_by_key(|s| s.changed)
}

pub use retry_sim::link::apply;

/// A term the page uses, explained in a sentence or two.
#[derive(Debug)]
pub struct Term {
    pub key: &'static str,
    pub name: Text,
    pub text: Text,
    /// How running text (a lesson) says it, in lower case, phrases apart
    /// by `;` (one string, not a list: the page's weight): where one of
    /// these first appears, [`marked`] explains it. A phrase that ends in
    /// an open bracket runs to the bracket that closes it, so `|n(` marks
    /// `|N(10 ms, 2 ms)|` whatever its numbers.
    pub says: Text,
}

/// Every term the page explains where it appears.
pub const GLOSSARY: &[Term] = &[
    Term {
        key: "success",
        name: Text("User-visible success"),
        text: Text(
            "The share of operations that ended in success after all their retries: what the \
               users saw, as opposed to how many single calls failed.",
        ),
        says: Text("user-visible success"),
    },
    Term {
        key: "load-amplification",
        name: Text("Server calls per operation"),
        text: Text(
            "Calls that reached the server (through every layer) for each operation the users \
               asked for. 1 means no retries; 4 means each operation cost the server four calls.",
        ),
        says: Text("server calls per operation;extra load"),
    },
    Term {
        key: "percentiles",
        name: Text("p50 and p99"),
        text: Text(
            "Operation latency, success or not: half of the operations finished within p50, \
               and 99 in 100 within p99.",
        ),
        says: Text("p50;p99"),
    },
    Term {
        key: "goodput",
        name: Text("Goodput"),
        text: Text(
            "Operations that succeeded per second: the useful work, as opposed to the load \
               the server carries.",
        ),
        says: Text("goodput;goodput's"),
    },
    Term {
        key: "wasted-work",
        name: Text("Wasted server work"),
        text: Text(
            "Server time spent on requests whose answer nobody used: the client had already \
               given up, the response was lost, or it went to a service whose own caller had \
               given up (orphaned work).",
        ),
        says: Text("wasted server work;wasted work"),
    },
    Term {
        key: "jitter",
        name: Text("Jitter"),
        text: Text(
            "A random pause, so that clients that failed together do not retry together. Full \
               jitter draws from 0 to the ceiling; equal jitter keeps half the ceiling and draws \
               the other half; decorrelated jitter draws between the base and three times the \
               previous pause, capped.",
        ),
        says: Text("jitter;jitters"),
    },
    Term {
        key: "backoff",
        name: Text("Backoff"),
        text: Text(
            "How the ceiling of the pause grows with each retry: constant, linear, or \
               exponential (the base times the multiplier per retry), never above the cap.",
        ),
        says: Text("backs off exponentially;exponential backoff;backoff"),
    },
    Term {
        key: "retry-budget",
        name: Text("Retry budget"),
        text: Text(
            "A limit on retries across all operations. A ratio budget allows retries up to a \
               share of recent requests (as Finagle's RetryBudget does); gRPC's token bucket stops \
               retries once failures drained half its tokens; the AWS SDK's quota charges each \
               retry tokens that successes refund.",
        ),
        says: Text("retry budget;budget;retry throttling;token bucket;bucket;retry quota;quota"),
    },
    Term {
        key: "circuit-breaker",
        name: Text("Circuit breaker"),
        text: Text(
            "Refuses calls for a cool-down once most recent ones failed, so a dead dependency \
               is not hammered; in 'retries' mode first tries still go through.",
        ),
        says: Text("circuit breaker;breaker"),
    },
    Term {
        key: "idempotency-key",
        name: Text("Idempotency key"),
        text: Text(
            "One key for every attempt of an operation, so the server recognises a retry of \
               work it already did and answers without doing it again. Without one, a retry \
               after a lost response executes the action a second time: a duplicate.",
        ),
        says: Text("idempotency key"),
    },
    Term {
        key: "deadline",
        name: Text("Deadline and attempt timeout"),
        text: Text(
            "The deadline is the time budget of the whole operation, every attempt and pause \
               included; the attempt timeout bounds one attempt. An attempt as long as the \
               deadline leaves no time for a retry.",
        ),
        says: Text("attempt timeout;deadline;timeout"),
    },
    Term {
        key: "shared-seed",
        name: Text("Shared seed"),
        text: Text(
            "Every client seeds its random generator with the same constant, so all draw the \
               same 'random' pause: jitter with a shared seed is no jitter.",
        ),
        says: Text("shared seed;seeded"),
    },
    Term {
        key: "retry-after",
        name: Text("Retry-After"),
        text: Text(
            "A header with which a throttled or overloaded server says how long to wait; a \
               good client waits at least that long, and a little more at random, so that \
               clients told the same instant do not all come back at it.",
        ),
        says: Text("retry-after"),
    },
    Term {
        key: "rate-limit",
        name: Text("Rate limit"),
        text: Text(
            "A gate in front of a server that lets so many requests through in each window of \
               time and answers the rest 429, with a Retry-After that says when the window \
               resets. With fixed windows the reset is the same instant for every client.",
        ),
        says: Text("rate limit"),
    },
    Term {
        key: "http-503",
        name: Text("503 Service Unavailable"),
        text: Text(
            "A server's answer when it cannot take a request now: its queue is full, or it is \
               down. Clients retry it.",
        ),
        says: Text("503s;503"),
    },
    Term {
        key: "thundering-herd",
        name: Text("Thundering herd"),
        text: Text(
            "Many clients that failed together retrying together, in waves that hit the server \
               at once. Jitter breaks the waves up.",
        ),
        says: Text("thundering herd;herd"),
    },
    Term {
        key: "in-flight",
        name: Text("In flight"),
        text: Text("Requests sent and not yet answered: on their way, queued or being served."),
        says: Text("in flight"),
    },
    Term {
        key: "fail-fast",
        name: Text("Failing fast"),
        text: Text(
            "Giving up at once instead of waiting or retrying, adding no load to a server that \
               cannot answer.",
        ),
        says: Text("fails fast;fail fast"),
    },
    Term {
        key: "seed",
        name: Text("Seed"),
        text: Text(
            "The number a run's random draws start from: the same seed gives the same run. What \
               holds over many seeds is not luck.",
        ),
        says: Text("seeds;seed"),
    },
    Term {
        key: "optimistic-concurrency",
        name: Text("Optimistic concurrency"),
        text: Text(
            "Each client writes the row back only if nobody wrote it since it read it; otherwise \
               it is refused and tries again. Many clients at once refuse each other: contention.",
        ),
        says: Text("optimistic concurrency"),
    },
    Term {
        key: "normal-time",
        name: Text("|N(mean, sd)|"),
        text: Text(
            "A time drawn from a normal distribution of that mean and standard deviation, made \
               positive. |N(10 ms, 2 ms)| is mostly 8 to 12 ms.",
        ),
        says: Text("|n("),
    },
    Term {
        key: "layer",
        name: Text("Layer"),
        text: Text(
            "One service in a chain: users call the top layer, each layer the next, the bottom \
               one the dependency. Retries at every layer multiply.",
        ),
        says: Text("top layer;layer"),
    },
    Term {
        key: "dependency",
        name: Text("Dependency"),
        text: Text(
            "A service yours calls to do its work: a database, another team's service, a cloud \
               API.",
        ),
        says: Text("dependency"),
    },
    Term {
        key: "standard-mode",
        name: Text("AWS SDK standard mode"),
        text: Text(
            "retry_mode = standard: 3 attempts, each pause random under a ceiling doubling from \
               the base up to 20 s, and a retry quota. Current botocore's base is 50 ms (1 s when \
               throttled).",
        ),
        says: Text("standard mode"),
    },
    Term {
        key: "grpc",
        name: Text("gRPC"),
        text: Text(
            "Google's framework for calls between services; its service config sets retries and \
               retry throttling.",
        ),
        says: Text("grpc"),
    },
    Term {
        key: "sweep",
        name: Text("Sweep"),
        text: Text(
            "Reruns the same world at failure rates from 0 to 100 % and draws each strategy's \
               success and load against the rate.",
        ),
        says: Text("sweep"),
    },
];

/// The phrases `term` is said by.
fn phrases(term: &Term) -> impl Iterator<Item = &'static str> {
    term.says.get().split(';')
}

/// A piece of running text: plain, or a term [`marked`] found.
pub type Piece<'a> = (&'a str, Option<&'static Term>);

/// `text` cut into pieces, each term of the glossary marked where it first
/// appears (as a whole word, in any case), so the page explains it there
/// on hover and on focus; later mentions stay plain, as a reader needs the
/// explanation once. It compares bytes, ASCII only, and cuts the text
/// with `get`: `str`'s searches and a slice that could panic would bring
/// Unicode tables and the formatting of their messages into the page.
/// Whether `here` is `phrase` (in lower case) with its first letter a
/// capital, as a sentence starts: for Russian, which ASCII's case-blind
/// comparison does not see.
fn capitalised(here: &[u8], phrase: &str) -> bool {
    let (Ok(here), Some(first)) = (std::str::from_utf8(here), phrase.chars().next()) else {
        return false;
    };
    let mut letters = here.chars();
    letters.next().map(retry_core::words::lower_letter) == Some(first)
        && phrase.strip_prefix(first) == Some(letters.as_str())
}

pub fn marked(text: &str) -> Vec<Piece<'_>> {
    let bytes = text.as_bytes();
    // A letter or digit at `at`: ASCII, or a Russian letter (its two bytes
    // in UTF-8 lead with 0xD0 or 0xD1), whichever of its bytes `at` is.
    let word = |at: usize| {
        let russian = |i: usize| bytes.get(i).is_some_and(|b| matches!(b, 0xd0 | 0xd1));
        bytes.get(at).is_some_and(u8::is_ascii_alphanumeric)
            || russian(at)
            || (at > 0 && russian(at - 1) && bytes.get(at).is_some_and(|b| *b >= 0x80))
    };
    // Where a phrase said at `at` ends, if it is said there as whole words.
    let said = |at: usize, phrase: &str| {
        let end = at + phrase.len();
        let here = bytes.get(at..end)?;
        if !here.eq_ignore_ascii_case(phrase.as_bytes()) && !capitalised(here, phrase) {
            return None;
        }
        if phrase.as_bytes().last() == Some(&b'(') {
            let close = bytes
                .get(end..)?
                .windows(2)
                .position(|pair| pair == b")|")?;
            return Some(end + close + 2);
        }
        (!word(end)).then_some(end)
    };
    let mut pieces = Vec::new();
    let mut seen = [false; GLOSSARY.len()];
    let (mut plain, mut at) = (0, 0);
    while at < bytes.len() {
        // The glossary's index and the end of the longest phrase said here.
        let mut found: Option<(usize, usize)> = None;
        if at == 0 || !word(at - 1) {
            for (index, term) in GLOSSARY.iter().enumerate().filter(|(i, _)| !seen[*i]) {
                for phrase in phrases(term) {
                    match said(at, phrase) {
                        Some(end) if found.is_none_or(|(_, longest)| end > longest) => {
                            found = Some((index, end));
                        }
                        _ => {}
                    }
                }
            }
        }
        let Some((index, end)) = found else {
            at += 1;
            continue;
        };
        if let (Some(before), Some(piece)) = (text.get(plain..at), text.get(at..end)) {
            if !before.is_empty() {
                pieces.push((before, None));
            }
            pieces.push((piece, Some(&GLOSSARY[index])));
        }
        seen[index] = true;
        (plain, at) = (end, end);
    }
    if let Some(rest) = text.get(plain..).filter(|rest| !rest.is_empty()) {
        pieces.push((rest, None));
    }
    pieces
}

/// The glossary entry under `key`.
pub fn term(key: &str) -> Option<&'static Term> {
    GLOSSARY.iter().find(|t| t.key == key)
}

/// The glossary entry a control's label uses, if any.
pub fn param_term(p: P) -> Option<&'static Term> {
    term(match p {
        P::Jitter | P::JitterFraction => "jitter",
        P::Shape | P::Multiplier | P::Base | P::Cap => "backoff",
        P::Budget => "retry-budget",
        P::Breaker => "circuit-breaker",
        P::IdempotencyKey => "idempotency-key",
        P::Deadline | P::Timeout => "deadline",
        P::SharedSeed => "shared-seed",
        P::HonourRetryAfter
        | P::RetryAfter
        | P::HintCap
        | P::HintJitter
        | P::HintJitterMost
        | P::HintJitterAt
        | P::RateHint => "retry-after",
        P::RateLimit | P::RateWindow => "rate-limit",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::PRESETS;
    use retry_analyses::seeds::{self, Seeds, Verdict, headlines};
    use retry_sim::metrics::Format;
    use retry_sim::sim::Report;
    use retry_sim::simulate;

    fn preset(key: &str) -> &'static Preset {
        PRESETS.iter().find(|p| p.key == key).expect("a preset")
    }

    #[test]
    fn a_preset_is_its_own_lesson_with_nothing_changed() {
        for preset in PRESETS {
            let state = lesson_state(None, &preset.config()).expect("a lesson");
            assert_eq!(state.preset.key, preset.key);
            assert_eq!(state.changed, 0);
            assert_eq!(state.status(), None);
        }
    }

    #[test]
    fn the_lesson_stays_and_counts_what_changed() {
        let herd = preset("herd");
        let mut config = herd.config();
        config.set(P::Seed, 9.0);
        let state = lesson_state(Some(herd), &config).expect("the origin's lesson");
        assert_eq!((state.preset.key, state.changed), ("herd", 1));
        assert_eq!(state.status().as_deref(), Some("You changed 1 setting"));
        // Policy B's settings count too.
        let config = apply(&config, "B.attempts=3&B.cap=4");
        assert_eq!(
            lesson_state(Some(herd), &config).map(|s| s.changed),
            Some(3)
        );
        // Opened from a link alone, the nearest preset within a few changes
        // keeps its lesson; a world far from every preset has none.
        assert_eq!(
            lesson_state(None, &config).map(|s| s.preset.key),
            Some("herd")
        );
        let far = apply(&config, "rate=7&horizon=9&clients=5&layers=2");
        assert_eq!(lesson_state(None, &far), None);
        assert_eq!(
            lesson_state(Some(herd), &far).map(|s| s.changed),
            Some(7),
            "the origin's lesson stays however far the learner went"
        );
    }

    #[test]
    fn a_change_b_follows_counts_once_and_b_is_ignored_without_compare() {
        let herd = preset("herd");
        // A gets B's jitter: one change, though B's no longer differs.
        let same = apply(&herd.config(), "jitter=full");
        assert_eq!(changed_settings(herd, &same), 1);
        // Attempts for both (B follows A): one change.
        assert_eq!(
            changed_settings(herd, &apply(&herd.config(), "attempts=5")),
            1
        );
        // Compare off: the switch is the change; B's values are hidden.
        assert_eq!(
            changed_settings(herd, &apply(&herd.config(), "compare=off")),
            1
        );
        // A single-policy preset compared with a B of its own: the switch
        // and each of B's own values.
        let classic = preset("classic");
        let compared = apply(&classic.config(), "compare=on&B.attempts=2&B.cap=3");
        assert_eq!(changed_settings(classic, &compared), 3);
    }

    #[test]
    fn apply_sets_a_and_b_and_keeps_the_rest() {
        let budget = preset("budget");
        let changed = apply(&budget.config(), "B.budget=token-bucket&seed=3");
        assert_eq!(changed.seed(), 3);
        assert_eq!(
            changed.policy_b_config().budget_kind(),
            retry_core::budget::BudgetKind::TokenBucket
        );
        assert_eq!(changed.budget_kind(), budget.config().budget_kind());
        assert_eq!(changed_settings(budget, &changed), 2);
    }

    #[test]
    fn headlines_put_a_and_b_side_by_side_with_their_range_and_name_the_better() {
        let herd = preset("herd");
        let config = herd.config();
        let (a, b) = simulate::run_both(&config);
        // While the seeds are measured: the link's seed, nothing judged.
        let b = b.as_ref().map(|b| &b.summary);
        let first = Seeds::first(config.seed(), &a.summary, b);
        let pending = headlines(&[Metric::Success, Metric::P99], &[], &first, true);
        assert_eq!(pending.len(), 2);
        let success = &pending[0];
        assert_eq!(success.label, "User-visible success");
        assert_eq!(success.term, Some("success"));
        assert_eq!(
            success.a,
            format!("{:.1} %", 100.0 * a.summary.success_rate)
        );
        assert_eq!((success.better, &success.range_a), (None, &None));
        assert_eq!(success.seeds, "Measuring over 10 seeds\u{2026}");
        // Over the seeds: the same first values, each policy's range, and
        // full jitter letting more of the herd through on every seed.
        let measured = seeds::over_seeds(&config);
        assert_eq!(measured.count(), 10);
        let lines = headlines(&[Metric::Success, Metric::P99], &[], &measured, false);
        assert_eq!((&lines[0].a, &lines[0].b), (&success.a, &success.b));
        let (low, high) = measured.range(Metric::Success, Side::A).expect("A ran");
        assert!(low <= a.summary.success_rate && a.summary.success_rate <= high);
        assert_eq!(
            lines[0].range_a.as_deref(),
            Some(Format::Share.range(low, high).as_str())
        );
        assert_eq!(lines[0].better, Some(Side::B));
        assert_eq!(lines[0].seeds, "Over 10 seeds: B ahead on 10");
        assert!(
            lines[0].rule.contains("seeds 1\u{2013}10"),
            "{}",
            lines[0].rule
        );
        assert!(
            lines[0]
                .rule
                .contains("more than 1 percentage point on at least 9 in 10")
        );
        // A shorter p99 is better; A's is the same on every seed.
        assert_eq!(lines[1].better, Some(Side::B));
        assert_eq!(lines[1].range_a.as_deref(), Some("the same on every seed"));
        assert!(lines[1].rule.contains("more than 5 %"));
        // Without B there is nothing to compare, only a range.
        let alone = seeds::over_seeds(&apply(&config, "compare=off"));
        let line = &headlines(&[Metric::Success], &[], &alone, false)[0];
        assert_eq!((&line.b, line.better, &line.range_b), (&None, None, &None));
        assert_eq!(line.seeds, "Range over 10 seeds");
    }

    /// The rule on a constructed pair: B ahead by 2 points on nine seeds
    /// of ten is better; on eight, or by half a point on all ten, it is no
    /// real difference; a number better neither way is not judged.
    #[test]
    fn better_needs_a_lead_that_matters_on_nine_seeds_in_ten() {
        let (a, _) = simulate::run_both(&preset("lost-response").config());
        let with = |success: f64| {
            let mut summary = a.summary.clone();
            summary.success_rate = success;
            summary
        };
        let pair = |leads: &[f64]| Seeds {
            first: 1,
            a: leads.iter().map(|_| seeds::numbers(&with(0.5))).collect(),
            b: leads
                .iter()
                .map(|lead| seeds::numbers(&with(0.5 + lead)))
                .collect(),
            planned: leads.len(),
        };
        let mut nine = vec![0.02; 9];
        nine.push(-0.05);
        assert_eq!(
            pair(&nine).verdict(Metric::Success),
            Some(Verdict::Better(Side::B, 9))
        );
        // Large leads on most seeds, but not on one side: no verdict, and
        // no "no real difference" either.
        let mut eight = vec![0.02; 8];
        eight.extend([-0.05, 0.0]);
        assert_eq!(
            pair(&eight).verdict(Metric::Success),
            Some(Verdict::DiffersBySeed { a: 1, b: 8 })
        );
        // Within the least lead on half the seeds: small and unsteady.
        let mut half = vec![0.005; 5];
        half.extend([0.02, 0.02, 0.02, -0.02, -0.02]);
        assert_eq!(
            pair(&half).verdict(Metric::Success),
            Some(Verdict::NoRealDifference)
        );
        assert_eq!(
            pair(&[0.005; 10]).verdict(Metric::Success),
            Some(Verdict::NoRealDifference)
        );
        assert_eq!(
            pair(&[-0.02; 10]).verdict(Metric::Success),
            Some(Verdict::Better(Side::A, 10))
        );
        assert_eq!(pair(&[0.02; 10]).verdict(Metric::Retried), None);
        let lines = headlines(&[Metric::Success], &[], &pair(&eight), false);
        assert_eq!(lines[0].better, None);
        assert_eq!(
            lines[0].seeds,
            "Over 10 seeds: differs by seed (A ahead on 1, B on 8)"
        );
    }

    /// A world in which no operation starts shows no success share: its
    /// headlines say there were no operations (it once read 100.0 %).
    #[test]
    fn no_operations_show_no_share() {
        let mut idle = preset("storm").config();
        idle.set(P::Rate, 0.0);
        idle.set(P::SpikeRate, 0.0);
        let seeds = seeds::over_seeds(&idle);
        let lines = headlines(&[Metric::Success, Metric::Goodput], &[], &seeds, false);
        for line in &lines {
            assert_eq!(line.a, "no operations", "{}", line.label);
            assert_eq!(line.b.as_deref(), Some("no operations"), "{}", line.label);
        }
    }

    /// The headline rules, on constructed seeds: B ahead on the first
    /// number (success) keeps A from a "better" on p99; a number alike
    /// on every seed for both is left out, unless it is the first.
    #[test]
    fn headlines_carry_the_number_the_lesson_rests_on() {
        let (a, _) = simulate::run_both(&preset("lost-response").config());
        let run = |success: f64, p99: f64, duplicates: u64| {
            let mut summary = a.summary.clone();
            summary.success_rate = success;
            summary.latency_p99 = p99;
            summary.duplicates = duplicates;
            seeds::numbers(&summary)
        };
        let seeds = Seeds {
            first: 1,
            a: (0..10).map(|_| run(0.22, 6.31, 0)).collect(),
            b: (0..10).map(|_| run(0.96, 9.0, 0)).collect(),
            planned: 10,
        };
        let metrics = [Metric::Success, Metric::P99, Metric::Duplicates];
        let lines = headlines(&metrics, &[], &seeds, false);
        assert_eq!(
            lines.len(),
            2,
            "0 duplicates against 0 on every seed: left out"
        );
        assert_eq!(lines[0].better, Some(Side::B));
        assert_eq!(lines[1].label, Metric::P99.label());
        assert_eq!(lines[1].better, None, "A is behind on success");
        assert_eq!(
            lines[1].seeds,
            "Over 10 seeds: A ahead here, but behind on user-visible success, the number the lesson rests on"
        );
        // While measuring, as the first number, or as the number a "try
        // this" moves, nothing is left out.
        assert_eq!(headlines(&metrics, &[], &seeds, true).len(), 3);
        let moved = headlines(&metrics, &[Metric::Duplicates], &seeds, false);
        assert_eq!(moved.len(), 3);
        assert_eq!(moved[2].metric, Metric::Duplicates);
        let first = headlines(&[Metric::Duplicates], &[], &seeds, false);
        assert_eq!(first.len(), 1);
        // A policy ahead on both keeps both marks.
        let both = Seeds {
            b: (0..10).map(|_| run(0.96, 3.0, 0)).collect(),
            ..seeds
        };
        let lines = headlines(&metrics, &[], &both, false);
        assert_eq!(lines[1].better, Some(Side::B));
    }

    /// Per preset, policies that differ only by noise are never "better":
    /// B is A's own policy, run on ten other seeds (no real difference, or
    /// where the noise exceeds the least lead, "differs by seed"), and on
    /// the same seeds, where every lead is nothing (no real difference).
    #[test]
    fn a_pair_that_differs_only_by_noise_is_no_real_difference() {
        for preset in PRESETS {
            let config = apply(&preset.config(), "compare=off");
            let mut elsewhere = config.clone();
            elsewhere.set(P::Seed, config.get(P::Seed) + 100.0);
            let (here, there) = (seeds::over_seeds(&config), seeds::over_seeds(&elsewhere));
            assert!(here.count() > 1, "{}", preset.key);
            let noise = Seeds {
                b: there.a.clone(),
                ..here.clone()
            };
            let same = Seeds {
                b: here.a.clone(),
                ..here.clone()
            };
            // Noise between seeds larger than the least lead is what
            // "differs by seed" says; the same runs are no difference.
            let count = here.count();
            let quiet = format!("Over {count} seeds: no real difference");
            for line in headlines(preset.headline, &[], &noise, false) {
                assert_eq!(line.better, None, "{}: {}", preset.key, line.label);
                assert!(
                    line.seeds == format!("Range over {count} seeds")
                        || line.seeds == quiet
                        || line
                            .seeds
                            .starts_with(&format!("Over {count} seeds: differs by seed")),
                    "{}: {}: {}",
                    preset.key,
                    line.label,
                    line.seeds
                );
            }
            for line in headlines(preset.headline, &[], &same, false) {
                assert_eq!(line.better, None, "{}: {}", preset.key, line.label);
                if line.seeds != format!("Range over {count} seeds") {
                    assert_eq!(line.seeds, quiet, "{}: {}", preset.key, line.label);
                }
            }
        }
    }

    /// What the issue found marked "better": 7.76x against 7.27x on the
    /// shared seed holds on every seed by more than 5 % (and stays
    /// marked); 67.3 % against 67.0 % on the AWS SDK's preset is a third
    /// of a point, no real difference.
    #[test]
    fn the_seeds_decide_the_close_calls() {
        let verdict =
            |key: &str, metric: Metric| seeds::over_seeds(&preset(key).config()).verdict(metric);
        assert_eq!(
            verdict("shared-seed", Metric::LoadAmplification),
            Some(Verdict::Better(Side::B, 10))
        );
        assert_eq!(
            verdict("aws-sdk", Metric::Success),
            Some(Verdict::NoRealDifference)
        );
        assert_eq!(
            verdict("deadline", Metric::P99),
            Some(Verdict::NoRealDifference)
        );
    }

    /// Every "try this" keeps its promise: applied to its preset, it moves
    /// the number it names in the direction it names, on the preset's own
    /// world and seed. A preset's headline shows that number.
    #[test]
    fn every_try_this_moves_its_number_the_way_it_says() {
        for preset in PRESETS {
            assert!(
                !preset.try_this.is_empty(),
                "{}: nothing to try",
                preset.key
            );
            let before = simulate::run_both(&preset.config());
            for try_this in preset.try_this {
                let expect = &try_this.expect;
                assert!(
                    preset.headline.contains(&expect.metric),
                    "{}: '{}' moves a number the headline does not show",
                    preset.key,
                    try_this.label
                );
                let changed = apply(&preset.config(), try_this.change);
                assert!(
                    changed_settings(preset, &changed) > 0,
                    "{}: '{}' changes nothing",
                    preset.key,
                    try_this.label
                );
                let after = simulate::run_both(&changed);
                let pick = |runs: &(Report, Option<Report>)| match expect.side {
                    Side::A => expect.metric.value(&runs.0),
                    Side::B => expect.metric.value(runs.1.as_ref().expect("B is compared")),
                };
                let (from, to) = (pick(&before), pick(&after));
                assert!(
                    if expect.rises { to > from } else { to < from },
                    "{}: '{}' should make {:?}'s {:?} {}, but it went {from} -> {to}",
                    preset.key,
                    try_this.label,
                    expect.side,
                    expect.metric,
                    if expect.rises { "rise" } else { "fall" },
                );
            }
        }
    }

    #[test]
    fn every_preset_names_its_chart_numbers_and_open_controls() {
        for preset in PRESETS {
            assert!(
                (2..=3).contains(&preset.headline.len()),
                "{}: 2-3 headline numbers",
                preset.key
            );
            assert!(!preset.open.is_empty(), "{}: no controls open", preset.key);
            assert!(preset.key_chart.can_be_key());
        }
    }

    /// Words and notations a newcomer may not know, as lessons and their
    /// "try this" buttons use them. A lesson that brings in another must
    /// add it here and to the glossary.
    const JARGON: &[&str] = &[
        "503",
        "503s",
        "goodput",
        "optimistic concurrency",
        "|n(",
        "jitter",
        "backoff",
        "backs off",
        "idempotency",
        "deadline",
        "timeout",
        "budget",
        "quota",
        "token bucket",
        "bucket",
        "breaker",
        "throttling",
        "herd",
        "seed",
        "seeds",
        "in flight",
        "standard mode",
        "grpc",
        "fail fast",
        "fails fast",
        "sweep",
        "dependency",
        "layer",
        "extra load",
        "p99",
    ];

    /// Where `phrase` stands in `text` as whole words, in any case: byte
    /// spans.
    fn occurrences(text: &str, phrase: &str) -> Vec<(usize, usize)> {
        let lower = text.to_ascii_lowercase();
        let word = |at: usize| {
            lower
                .as_bytes()
                .get(at)
                .is_some_and(u8::is_ascii_alphanumeric)
        };
        lower
            .match_indices(phrase)
            .map(|(at, _)| (at, at + phrase.len()))
            .filter(|&(at, end)| {
                (at == 0 || !word(at - 1)) && (phrase.ends_with('(') || !word(end))
            })
            .collect()
    }

    /// Every term a lesson or a "try this" uses has a glossary entry that
    /// says it, and in a lesson the page explains it where it first
    /// appears, on hover and on focus (the page shows `marked`'s pieces).
    #[test]
    fn every_term_in_a_lesson_has_an_entry_and_is_marked() {
        use crate::prose::{self, Facts};
        for preset in PRESETS {
            // The lesson as the page shows it, filled from the runs of the
            // preset and of each "try this" (whose clauses then differ),
            // and the buttons' labels.
            let mut texts = Vec::new();
            let configs = std::iter::once(preset.config()).chain(
                preset
                    .try_this
                    .iter()
                    .map(|t| apply(&preset.config(), t.change)),
            );
            for config in configs {
                let (a, b) = simulate::run_both(&config);
                let facts = Facts::runs(&config, &a, b.as_ref());
                texts.push((prose::fill(preset.lesson.0, &facts).text, true));
                for try_this in preset.try_this {
                    let tried = apply(&config, try_this.change);
                    texts.push((
                        prose::fill(try_this.label.0, &Facts::settings(&tried)).text,
                        false,
                    ));
                }
            }
            for (text, is_lesson) in &texts {
                let pieces = marked(text);
                let joined: String = pieces.iter().map(|p| p.0).collect();
                assert_eq!(&joined, text, "{}: every character kept", preset.key);
                let marks: Vec<&str> = pieces.iter().filter_map(|p| p.1.map(|t| t.key)).collect();
                for jargon in JARGON {
                    for (at, end) in occurrences(text, jargon) {
                        let covering = GLOSSARY.iter().find(|term| {
                            phrases(term).any(|phrase| {
                                occurrences(text, phrase)
                                    .iter()
                                    .any(|&(from, to)| from <= at && end <= to)
                            })
                        });
                        let Some(term) = covering else {
                            panic!(
                                "{}: no glossary entry says '{jargon}' in \"{text}\"",
                                preset.key
                            );
                        };
                        assert!(
                            !is_lesson || marks.contains(&term.key),
                            "{}: '{}' is not marked in \"{text}\"",
                            preset.key,
                            term.key
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_term_is_marked_where_it_first_appears_whole() {
        let text =
            "Each hop |N(10 ms, 2 ms)|; 503s come back. More 503s, more JITTER, a jittery herd.";
        let pieces = marked(text);
        let marks: Vec<(&str, &str)> = pieces
            .iter()
            .filter_map(|(text, term)| term.map(|t| (*text, t.key)))
            .collect();
        assert_eq!(
            marks,
            [
                ("|N(10 ms, 2 ms)|", "normal-time"),
                ("503s", "http-503"),
                ("JITTER", "jitter"),
                ("herd", "thundering-herd")
            ]
        );
        assert_eq!(pieces.iter().map(|p| p.0).collect::<String>(), text);
        assert!(marked("").is_empty());
        // In Russian: a term that opens a sentence, and none inside a
        // longer word.
        let table =
            retry_core::words::read_table(include_str!("../../../i18n/ru.txt")).expect("the table");
        retry_core::words::speak_russian(&retry_core::words::compile(&table)).expect("it reads");
        let jitter = |text| -> Vec<&str> {
            marked(text)
                .into_iter()
                .filter(|(_, t)| t.is_some_and(|t| t.key == "jitter"))
                .map(|(p, _)| p)
                .collect()
        };
        assert_eq!(jitter("Джиттер разводит клиентов."), ["Джиттер"]);
        assert_eq!(jitter("без джиттера"), ["джиттера"]);
        assert_eq!(jitter("джиттеризация"), Vec::<&str>::new());
        retry_core::words::speak_english();
        assert!(matches!(marked("plain words")[..], [("plain words", None)]));
    }

    #[test]
    fn every_term_the_page_uses_is_explained_briefly() {
        for key in Metric::ALL.iter().filter_map(|m| m.term()) {
            assert!(term(key).is_some(), "{key} is not in the glossary");
        }
        let explained = P::ALL.iter().filter(|&&p| param_term(p).is_some()).count();
        assert!(explained >= 10, "only {explained} controls explained");
        for entry in GLOSSARY {
            assert!(!entry.says.0.is_empty(), "{}", entry.key);
            for phrase in phrases(entry) {
                assert!(!phrase.is_empty(), "{}", entry.key);
                assert_eq!(phrase, phrase.to_ascii_lowercase(), "{}", entry.key);
            }
            let sentences = entry.text.0.matches(". ").count() + 1;
            assert!(sentences <= 3, "{}: {sentences} sentences", entry.key);
            assert_eq!(
                GLOSSARY.iter().filter(|t| t.key == entry.key).count(),
                1,
                "{} twice",
                entry.key
            );
        }
    }
}
