//! Prose that follows the model: a lesson's text, and the label of a
//! "try this", are templates whose every number is filled from the
//! settings or from the runs, and whose clauses that hold only for some
//! settings are chosen by the settings. So the text never says a number
//! the charts beside it contradict, and after the reader changed what a
//! sentence was about (gave A jitter, took B's deadline away) it says what
//! now holds instead.
//!
//! ## Templates
//!
//! Text is copied as it is, except for what stands in braces:
//!
//! - `{name}`, `{A.name}`, `{B.name}`: a value of policy A (the default)
//!   or of policy B:
//!   - a parameter's key (`clients`, `timeout`): the setting, with its
//!     unit ("0.5 s", "40/s"); `{lost%}` writes it in per cent ("20 %");
//!     a choice writes its word ("full");
//!   - a report number's key ([`Metric::key`]: `success`, `duplicates`):
//!     the run's number as the headline writes it ("63.2 %"), or "…"
//!     while the runs go;
//!   - a [`Fact`]'s name (`budget_bound`): a number the settings imply,
//!     such as a budget's bound, which the text names as a bound;
//! - `{if CONDITION}` ... `{else}` ... `{end}`: the first part where the
//!   condition holds, else the second (`{else}` may be left out); they
//!   nest. A condition is one or more parts joined by `&`: a comparison
//!   of settings `name OP value` with OP one of `=`, `!=`, `<`, `>=` (the
//!   value another name, a choice's word (`jitter=none`) or a number
//!   (`outage_for!=0`)), or a [`Claim`]'s name (`A.overloaded`,
//!   `B.ahead_p99`): a fact of that policy's run. A report number is never
//!   compared: what the runs show is said only through a claim, whose
//!   threshold is written once. Before the runs a claim is unknown, and a
//!   part that rests on it shows neither branch but "…".
//!
//! No digit is written into a template's text itself: a test reads every
//! number out of each preset's rendered text and holds it to the value it
//! was filled from, so a number typed by hand fails it.

use crate::claims::Claim;
use retry_analyses::seeds::{Seeds, Verdict};
use retry_core::words::{self, Text};
use retry_sim::config::{Config, Kind, P, PARAMS, SWEEPS, SweepCurves};
use retry_sim::metrics::{Format, Metric, Side};
use retry_sim::sim::{CutReason, Law, Report, ServiceShape};

/// Numbers the settings imply, named in templates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fact {
    /// The load a ratio budget counting requests allows at a steady
    /// arrival rate: each window's retries stay under its share of the
    /// window's requests plus the floor, so calls per operation are at
    /// most `1 + share + floor / rate`.
    BudgetBound,
    /// Retries the AWS quota pays for from full before it runs dry, with
    /// no success to refund it: `quota / retry cost`, rounded down.
    QuotaRetries,
    /// Failures after which gRPC's token bucket stops retries: a failure
    /// takes one token and retries go out only above half.
    BucketFailures,
    /// Seeds the contention chart runs each backoff over.
    GridSeeds,
    /// Retries the classic sweep's retrying strategies make at most.
    ClassicRetries,
    /// The dependency's own 99th percentile of service time, from its
    /// distribution alone (no queueing): the mean for a constant time,
    /// mean x ln 100 for an exponential one, the law's own for a normal
    /// one (folded at zero), a log-normal or a slow mode.
    ServiceP99,
    /// The same at the 95th percentile: mean x ln 20 for an exponential
    /// time, the law's for the others; where a hedge is sent.
    ServiceP95,
    /// How busy the workers are with first tries alone: arrivals x mean
    /// service time / (workers x servers) (0 for unlimited workers).
    Busy,
    /// The share of the workers a capacity loss takes.
    DropLost,
    /// The share of the server's failures that are a 4xx, which no retry
    /// cures: its weight over all the mix's weights.
    Permanent,
    /// The settings in which policy B differs from A: 1 where a text may
    /// call B "the same with" its one difference.
    BDiffers,
    /// The mean of the service's time, from its law alone (no queueing):
    /// `exp(mu + sigma^2 / 2)` for a log-normal one.
    ServiceMean,
    /// The share of fan-out attempts that wait for at least one call
    /// served slower than the service's own p99: `1 - 0.99^K` for `K`
    /// calls (none for a constant time, which no call exceeds).
    PastP99,
}

impl Fact {
    const ALL: [(&'static str, Fact); 13] = [
        ("budget_bound", Fact::BudgetBound),
        ("quota_retries", Fact::QuotaRetries),
        ("bucket_failures", Fact::BucketFailures),
        ("grid_seeds", Fact::GridSeeds),
        ("classic_retries", Fact::ClassicRetries),
        ("own_p99", Fact::ServiceP99),
        ("own_p95", Fact::ServiceP95),
        ("busy", Fact::Busy),
        ("drop_lost", Fact::DropLost),
        ("permanent", Fact::Permanent),
        ("b_differs", Fact::BDiffers),
        ("past_p99", Fact::PastP99),
        ("own_mean", Fact::ServiceMean),
    ];

    /// The fact for one policy's settings `config` (of the world `world`,
    /// A's).
    pub fn value(self, config: &Config, world: &Config) -> f64 {
        match self {
            Fact::BudgetBound => {
                1.0 + config.get(P::BudgetPercent)
                    + config.get(P::BudgetFloor) / world.get(P::Rate).max(1e-9)
            }
            Fact::QuotaRetries => {
                (config.get(P::Quota) / config.get(P::QuotaCost).max(1e-9)).floor()
            }
            Fact::BucketFailures => (config.get(P::Tokens) / 2.0).ceil(),
            Fact::GridSeeds => retry_analyses::contention::SEEDS as f64,
            Fact::ClassicRetries => {
                let mut classic = world.clone();
                classic.set(P::Sweep, SWEEPS.position(SweepCurves::Classic));
                let most = retry_analyses::sweep::curves(&classic)
                    .iter()
                    .map(|curve| curve.config.get(P::Attempts))
                    .fold(1.0, f64::max);
                most - 1.0
            }
            Fact::ServiceP99 => service_quantile(world, 100.0),
            Fact::ServiceP95 => service_quantile(world, 20.0),
            Fact::Busy => {
                // Every server has the workers of its own.
                let workers = world.get(P::Workers) * world.get(P::Servers);
                match workers > 0.0 {
                    true => world.get(P::Rate) * world.scenario().service_mean() / workers,
                    false => 0.0,
                }
            }
            Fact::DropLost => 1.0 - world.get(P::DropTo),
            Fact::Permanent => {
                let all: f64 = [P::Mix503, P::Mix429, P::Mix400, P::Mix500]
                    .into_iter()
                    .map(|p| world.get(p))
                    .sum();
                match all > 0.0 {
                    true => world.get(P::Mix400) / all,
                    false => 0.0,
                }
            }
            Fact::BDiffers => (0..PARAMS.len())
                .filter(|&i| world.value_b_at(i) != world.value_at(i))
                .count() as f64,
            Fact::ServiceMean => world.scenario().service_mean(),
            Fact::PastP99 => match world.service_shape() {
                ServiceShape::Constant => 0.0,
                _ => 1.0 - 0.99f64.powf(config.get(P::FanOut)),
            },
        }
    }

    /// How the fact is written.
    pub fn format(self) -> Format {
        match self {
            Fact::BudgetBound => Format::Ratio,
            Fact::ServiceP99 | Fact::ServiceP95 | Fact::ServiceMean => Format::Seconds,
            Fact::Busy | Fact::DropLost | Fact::Permanent | Fact::PastP99 => Format::Share,
            _ => Format::Count,
        }
    }
}

/// The service time's quantile that one call in `one_in` exceeds, from
/// its distribution alone.
fn service_quantile(world: &Config, one_in: f64) -> f64 {
    let mean = world.get(P::ServiceTime);
    match world.service_shape() {
        ServiceShape::Constant => mean,
        ServiceShape::Exponential => mean * one_in.ln(),
        // The p99 a log-normal time is given by, as the law clamps it (its
        // quantile would give it back only to rounding).
        ServiceShape::LogNormal if one_in == 100.0 => {
            let p50 = world.get(P::ServiceP50);
            world
                .get(P::ServiceP99)
                .clamp(p50, p50 * retry_core::range::SERVICE_SPAN)
        }
        ServiceShape::Normal | ServiceShape::LogNormal | ServiceShape::Mixture => {
            Law::service(&world.scenario()).quantile(1.0 - 1.0 / one_in)
        }
    }
}

/// Where a number of the text came from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Source {
    /// A setting, as it is.
    Param(P),
    /// A setting that is a share, in per cent.
    Percent(P),
    /// A number of the policy's report.
    Metric(Metric),
    Fact(Fact),
    /// Where the policy's run stopped short, in seconds of simulated time.
    StoppedAt,
}

/// A number the text shows: whose, and from what (the text holds it as
/// printed, in the same order).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Filled {
    pub side: Side,
    pub source: Source,
}

/// A stretch of the text shown because a claim held: what it may say.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Said {
    pub side: Side,
    pub claim: Claim,
    /// Where in the text, in bytes.
    pub from: usize,
    pub to: usize,
}

/// A template filled in: the text, the numbers in it in order, and the
/// stretches that claims guard.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Prose {
    pub text: String,
    pub numbers: Vec<Filled>,
    pub said: Vec<Said>,
    /// Settings written as numbers at a value that means something else
    /// ([`read_literally`]: a 0 that means none, a 1 that makes a plural
    /// false, a value the model cuts) with no condition around them that
    /// looks at that setting: text that reads the knob's number rather
    /// than what it does. Empty for every template at every value.
    pub literal: Vec<(Side, P, f64)>,
}

impl Prose {
    /// The words of a claim ([`Claim::phrases`]) that the text says outside
    /// every stretch that claim guards: what it says that its runs do not
    /// bear out. Empty for a text true of its runs.
    pub fn unguarded(&self) -> Vec<(Claim, &'static str)> {
        let mut wrong = Vec::new();
        for claim in Claim::with_phrases() {
            for phrase in claim.phrases() {
                for (at, _) in self.text.match_indices(phrase) {
                    let guarded = self
                        .said
                        .iter()
                        .any(|said| said.claim == claim && said.from <= at && at < said.to);
                    if !guarded {
                        wrong.push((claim, *phrase));
                    }
                }
            }
        }
        wrong
    }
}

/// Whether a setting written as its number at this value would be read
/// literally, saying something the run does not do: 0 where the setting
/// means "none" (no timeout, no outage, no traffic, no failures), 1 where
/// a count makes a plural or a repetition false (one attempt, one layer,
/// one instance), and a value the model cuts (a log-normal p99 below its
/// p50 or past its span; a base delay above its cap is written as the
/// cap, [`effective`]). A template writes such a setting only inside a
/// condition on it, whose branch says what the value means.
pub fn read_literally(p: P, config: &Config) -> bool {
    let value = config.get(p);
    let (min, whole) = match p.param().kind {
        Kind::Number { min, .. } => (min, false),
        Kind::Integer { min, .. } => (min, true),
        Kind::Choice(..) => return false,
    };
    let p50 = config.get(P::ServiceP50);
    let cut = p == P::ServiceP99
        && config.service_shape() == ServiceShape::LogNormal
        && !(p50..=p50 * retry_core::range::SERVICE_SPAN).contains(&value);
    let one = whole && value == 1.0 && min >= 1.0 && p != P::Seed;
    // A zero that stands for something else: the table's help says what
    // ("0 means no timeout"), or it takes the world's premise away (no
    // traffic, no failures, no lost answers, no work).
    let none = value == 0.0
        && (says_what_zero_means(p.param().help.0)
            || matches!(
                p,
                P::Rate | P::Failure | P::Lost | P::ServiceTime | P::QuotaCost
            ));
    cut || one || none
}

/// A setting's value as the run uses it: a base delay above the cap is
/// the cap (the first pause is already cut), every other as it is set.
fn effective(p: P, config: &Config) -> f64 {
    match p {
        P::Base => config.get(P::Base).min(config.get(P::Cap)),
        _ => config.get(p),
    }
}

/// What a setting at a value [`read_literally`] flags means for the
/// lesson, as one sentence: the lesson's premise is gone (no outage, no
/// failures, one attempt), so it says that instead of describing it.
fn void_sentence(p: P) -> Text {
    match p {
        P::Attempts => Text(
            "Each operation makes one attempt: nothing is retried, so there are no retries here to show.",
        ),
        P::Layers => {
            Text("With one layer there is no chain: the client calls the dependency itself.")
        }
        P::Clients => Text("With one client there is no crowd for retries to gather."),
        P::FanOut => Text(
            "With a fan-out of one, a request waits for one call, not for the slowest of many.",
        ),
        P::Servers => Text("With one server there is no other server to share the load."),
        P::OutageFor => Text(
            "The outage lasts no time: the server is never down, so there is no outage to come back from.",
        ),
        P::Failure => Text("The dependency never fails, so there is nothing to retry."),
        P::Rate => Text("No requests arrive, so there is nothing to measure."),
        P::Lost => Text("No answer is lost, so no retry repeats an action."),
        P::Workers => Text(
            "The server's workers are unlimited (none set): nothing queues, so nothing can overload it.",
        ),
        P::ServiceTime => Text("The server's work takes no time, so it never falls behind."),
        P::Timeout => Text(
            "The attempts have no timeout: a caller waits for every answer and retries only failures.",
        ),
        P::DropFor => {
            Text("The capacity loss lasts no time, so there is no trigger to come back from.")
        }
        P::QuotaCost => Text("A retry costs the quota nothing, so it never runs dry."),
        P::ServiceP99 => Text(
            "The p99 is set outside what the model serves (at least the p50, at most a hundred times it), so the tail is not the one set.",
        ),
        _ => Text("A setting is at a value that takes away what this lesson is about."),
    }
}

/// A lesson filled in ([`fill`]): its text where every setting it writes
/// reads as what it does; where one does not (a 0 that means none, one
/// attempt), a sentence for each such setting saying what its value
/// means for the lesson, and that moving it back shows the lesson.
pub fn lesson(template: &str, facts: &Facts) -> Prose {
    if let Some(stopped) = stopped(facts) {
        return stopped;
    }
    let filled = fill(template, facts);
    if filled.literal.is_empty() {
        return filled;
    }
    let mut settings: Vec<P> = Vec::new();
    for &(_, p, _) in &filled.literal {
        if !settings.contains(&p) {
            settings.push(p);
        }
    }
    let mut void = Prose::default();
    for p in settings {
        void.text.push_str(void_sentence(p).get());
        void.text.push(' ');
    }
    void.text
        .push_str(Text("Move it back to see the lesson.").get());
    void
}

/// What a lesson says instead of its story where a run cannot tell it:
/// a run stopped short (at the work, time or memory bound every link
/// keeps) says where and why, and nothing of what came after; a world in
/// which no operation started says so, and no success share. `None` while
/// the runs go, and for runs that tell the story.
fn stopped(facts: &Facts) -> Option<Prose> {
    let a = facts.a?;
    let mut sides = vec![(Side::A, a)];
    sides.extend(facts.b.map(|b| (Side::B, b)));
    if sides.iter().all(|(_, r)| r.summary.operations == 0) {
        return Some(Prose {
            text: Text("No operation started in this run, so there is nothing to measure and no success share to show.").get().to_string(),
            ..Prose::default()
        });
    }
    let mut prose = Prose::default();
    for (side, report) in sides {
        let Some(cut) = &report.summary.cut else {
            continue;
        };
        let template = match (side, cut.reason) {
            (Side::A, CutReason::Work) => Text(
                "Policy A's run stopped at {A.stopped_at}: it reached the work a link may ask for (operations and attempts).",
            ),
            (Side::A, CutReason::Time) => Text(
                "Policy A's run stopped at {A.stopped_at}: it reached the time a run may take.",
            ),
            (Side::A, CutReason::Memory) => Text(
                "Policy A's run stopped at {A.stopped_at}: it held more calls in flight than a page may.",
            ),
            (Side::B, CutReason::Work) => Text(
                "Policy B's run stopped at {B.stopped_at}: it reached the work a link may ask for (operations and attempts).",
            ),
            (Side::B, CutReason::Time) => Text(
                "Policy B's run stopped at {B.stopped_at}: it reached the time a run may take.",
            ),
            (Side::B, CutReason::Memory) => Text(
                "Policy B's run stopped at {B.stopped_at}: it held more calls in flight than a page may.",
            ),
        };
        let part = fill(template.get(), facts);
        prose.text.push_str(&part.text);
        prose.text.push(' ');
        prose.numbers.extend(part.numbers);
    }
    if prose.text.is_empty() {
        return None;
    }
    prose.text.push_str(Text("Nothing after that was simulated, so this lesson does not say what happened next; a shorter horizon or fewer requests runs it whole.").get());
    Some(prose)
}

/// Whether a setting's help says what its 0 stands for ("0 means no
/// timeout"). Read by bytes: `str::contains` brings a string searcher
/// into the first chart's module.
fn says_what_zero_means(help: &str) -> bool {
    help.as_bytes().windows(7).any(|w| w == b"0 means")
}

/// The settings a condition compares.
fn compared(condition: &str) -> Vec<P> {
    condition
        .split(['&', '=', '!', '<', '>'])
        .filter_map(|name| match read_name(name.trim_ascii()) {
            Some((_, Named::Param(p), _)) => Some(p),
            _ => None,
        })
        .collect()
}

/// What a template is filled from: the settings, and the runs' summaries
/// once they are done.
#[derive(Debug)]
pub struct Facts<'a> {
    config: &'a Config,
    b_config: Config,
    a: Option<&'a Report>,
    b: Option<&'a Report>,
    /// The runs over the seeds once they are measured: a lead of one
    /// policy over the other ([`Claim::Ahead`]) is then the seeds'
    /// verdict, the one the headline beside the words gives.
    seeds: Option<&'a Seeds>,
}

impl<'a> Facts<'a> {
    /// The settings alone: report numbers read "…".
    pub fn settings(config: &'a Config) -> Facts<'a> {
        Facts {
            config,
            b_config: config.policy_b_config(),
            a: None,
            b: None,
            seeds: None,
        }
    }

    /// The same, with the lead of one policy over the other judged over
    /// `seeds` (more than one, all measured) rather than on one run.
    pub fn over(self, seeds: Option<&'a Seeds>) -> Facts<'a> {
        let measured = seeds.filter(|s| s.count() > 1 && s.count() >= s.planned);
        Facts {
            seeds: measured,
            ..self
        }
    }

    /// The settings and the runs: A's report, and B's in compare mode.
    pub fn runs(config: &'a Config, a: &'a Report, b: Option<&'a Report>) -> Facts<'a> {
        Facts {
            a: Some(a),
            b,
            ..Facts::settings(config)
        }
    }

    fn config(&self, side: Side) -> &Config {
        match side {
            Side::A => self.config,
            Side::B => &self.b_config,
        }
    }
}

/// What a name stands for.
enum Named {
    Param(P),
    Metric(Metric),
    Fact(Fact),
    Claim(Claim),
    /// `stopped_at`: where the run stopped short ([`Source::StoppedAt`]).
    StoppedAt,
}

/// A name of a template read: whose, what, and in per cent or not.
fn read_name(name: &str) -> Option<(Side, Named, bool)> {
    let (side, rest) = match name.split_once('.') {
        Some(("A", rest)) => (Side::A, rest),
        Some(("B", rest)) => (Side::B, rest),
        _ => (Side::A, name),
    };
    let (key, percent) = match rest.strip_suffix('%') {
        Some(key) => (key, true),
        None => (rest, false),
    };
    let named = if key == "stopped_at" {
        Named::StoppedAt
    } else if let Some(index) = PARAMS.iter().position(|p| p.key == key) {
        Named::Param(P::ALL[index])
    } else if let Some(metric) = Metric::ALL.into_iter().find(|m| m.key() == key) {
        Named::Metric(metric)
    } else if let Some(claim) = Claim::named(key) {
        Named::Claim(claim)
    } else {
        Named::Fact(Fact::ALL.iter().find(|(k, _)| *k == key)?.1)
    };
    Some((side, named, percent))
}

/// The words a choice is written in: its link's word in English where it
/// reads as English, and otherwise its label as it reads mid-sentence.
pub fn choice_word(p: P, position: usize) -> Option<String> {
    let budget = [
        Text("no retry budget"),
        Text("a ratio budget"),
        Text("gRPC's token bucket"),
        Text("the AWS SDK's retry quota"),
        Text("Brooker's token bucket"),
        Text("the SRE book's adaptive throttling"),
        Text("the AWS SDK's adaptive mode"),
    ];
    if p == P::Budget && position < budget.len() {
        return Some(budget[position].get().to_string());
    }
    p.param().choice_word(position)
}

impl Facts<'_> {
    /// What a name stands for as a number: `None` for a name that means
    /// nothing, and for a report number before the runs.
    fn value(&self, side: Side, named: &Named) -> Option<f64> {
        let config = self.config(side);
        match *named {
            Named::Param(p) => Some(effective(p, config)),
            Named::Metric(metric) => Some(metric.value(self.report(side)?)),
            Named::Fact(fact) => Some(fact.value(config, self.config)),
            Named::Claim(_) => None,
            Named::StoppedAt => Some(self.report(side)?.summary.cut.as_ref()?.at),
        }
    }

    /// The run of policy `side`: A's for B while not comparing.
    fn report(&self, side: Side) -> Option<&Report> {
        match side {
            Side::A => self.a,
            Side::B => self.b.or(self.a),
        }
    }

    /// Whether a claim holds of a policy's run; `None` before the runs.
    fn claim(&self, side: Side, claim: Claim) -> Option<bool> {
        if let (Claim::Ahead(metric), Some(seeds)) = (claim, self.seeds) {
            return Some(matches!(seeds.verdict(metric), Some(Verdict::Better(s, _)) if s == side));
        }
        let other = match side {
            Side::A => self.b,
            Side::B => self.b.and(self.a),
        };
        Some(claim.holds(side, self.config(side), self.report(side)?, other))
    }

    /// A name's value as a number, for a condition.
    fn number(&self, name: &str) -> Option<f64> {
        let (side, named, _) = read_name(name)?;
        self.value(side, &named)
    }

    /// The value of a name as the text writes it, and where it came from
    /// when it is a number; `None` for a name that means nothing.
    fn write(&self, name: &str) -> Option<(String, Option<Filled>)> {
        let (side, named, in_percent) = read_name(name)?;
        let Some(value) = self.value(side, &named) else {
            return Some(("\u{2026}".to_string(), None));
        };
        let (printed, source) = match named {
            Named::Param(p) => {
                let param = p.param();
                if let Kind::Choice(..) = param.kind {
                    return Some((choice_word(p, value as usize)?, None));
                }
                if in_percent {
                    let mut text = param.format((value * 1e4).round() / 1e2);
                    text.push_str(" %");
                    (words::number(&text), Source::Percent(p))
                } else {
                    let mut text = param.format(value);
                    let unit = param.unit.english();
                    if !matches!(unit, "" | "/s" | "x") {
                        text.push(' ');
                    }
                    text.push_str(unit);
                    (words::number(&text), Source::Param(p))
                }
            }
            Named::Metric(metric) => (metric.format(value), Source::Metric(metric)),
            Named::Fact(fact) => (fact.format().headline(value), Source::Fact(fact)),
            Named::StoppedAt => (Format::Seconds.headline(value), Source::StoppedAt),
            Named::Claim(_) => return None,
        };
        Some((printed, Some(Filled { side, source })))
    }

    /// Whether a condition holds: parts joined by `&`, each a claim or a
    /// comparison of settings; `None` when a claim it rests on is unknown
    /// (before the runs) and no part is false. The claims it makes where
    /// it holds go to `claims`.
    fn holds(&self, condition: &str, claims: &mut Vec<(Side, Claim)>) -> Option<bool> {
        let mut known = true;
        for part in condition.split('&') {
            let part = part.trim_ascii();
            if let Some((side, Named::Claim(claim), _)) = read_name(part) {
                match self.claim(side, claim) {
                    Some(true) => claims.push((side, claim)),
                    Some(false) => return Some(false),
                    None => known = false,
                }
            } else if !self.compares(part) {
                return Some(false);
            }
        }
        known.then_some(true)
    }

    /// Whether a comparison of settings holds. Read by bytes and split
    /// without slicing, which keeps the page free of the code that reports
    /// a slice through a character (and of the Unicode tables that report
    /// needs). A report number compared holds nowhere: the runs speak
    /// through claims.
    fn compares(&self, comparison: &str) -> bool {
        let bytes = comparison.as_bytes();
        let Some(at) = bytes.iter().position(|b| b"!=<>".contains(b)) else {
            return false;
        };
        let op = (bytes[at], bytes.get(at + 1) == Some(&b'='));
        let width = if op.1 && op.0 != b'=' { 2 } else { 1 };
        let Some((left, right)) = comparison.split_at_checked(at) else {
            return false;
        };
        let right = right.get(width..).unwrap_or("");
        if matches!(read_name(left), Some((_, Named::Metric(_), _))) {
            return false;
        }
        let Some(x) = self.number(left) else {
            return false;
        };
        // The value: another name, else a word or a number as the left
        // name's parameter reads it.
        let y = self.number(right).or_else(|| match read_name(left) {
            Some((_, Named::Param(p), _)) => p.param().parse(right).ok(),
            _ => retry_core::decimal::parse_f64(right),
        });
        let Some(y) = y else {
            return false;
        };
        match op {
            (b'!', true) => x != y,
            (b'>', true) => x >= y,
            (b'>', false) => x > y,
            (b'=', _) => x == y,
            (b'<', false) => x < y,
            _ => false,
        }
    }
}

/// One open `{if}`: whether the text around it is shown, whether its
/// condition held (`None`: unknown before the runs), and the claims its
/// first part may make, from where that part starts.
struct Open {
    /// The settings its condition compares.
    compares: Vec<P>,
    outer: bool,
    held: Option<bool>,
    in_else: bool,
    claims: Vec<(Side, Claim)>,
    from: usize,
}

impl Open {
    /// Whether the text at this point is shown.
    fn shows(&self) -> bool {
        self.outer && self.held.is_some_and(|held| held != self.in_else)
    }
}

/// Fills `template` from `facts` (see the module's docs). A name that
/// means nothing is written as it stands, braces and all, so a slip shows
/// on the page rather than vanishing; tests hold every preset's
/// templates to names that mean something.
pub fn fill(template: &str, facts: &Facts) -> Prose {
    let mut prose = Prose::default();
    let mut open: Vec<Open> = Vec::new();
    let shown = |open: &[Open]| open.last().is_none_or(Open::shows);
    // The claims of a first part that was shown guard what it wrote.
    let close = |last: &Open, prose: &mut Prose| {
        if last.shows() && !last.in_else {
            let to = prose.text.len();
            let said = last.claims.iter().map(|&(side, claim)| Said {
                side,
                claim,
                from: last.from,
                to,
            });
            prose.said.extend(said);
        }
    };
    let mut rest = template;
    while let Some((text, after)) = rest.split_once('{') {
        if shown(&open) {
            prose.text.push_str(text);
        }
        let Some((tag, after)) = after.split_once('}') else {
            // An unclosed brace is text.
            prose.text.push('{');
            rest = after;
            break;
        };
        rest = after;
        if let Some(condition) = tag.strip_prefix("if ") {
            let outer = shown(&open);
            let mut claims = Vec::new();
            let held = match outer {
                true => facts.holds(condition, &mut claims),
                false => Some(false),
            };
            if outer && held.is_none() {
                prose.text.push('\u{2026}');
            }
            open.push(Open {
                compares: compared(condition),
                outer,
                held,
                in_else: false,
                claims,
                from: prose.text.len(),
            });
        } else if tag == "else" {
            if let Some(last) = open.last() {
                close(last, &mut prose);
            }
            if let Some(last) = open.last_mut() {
                last.in_else = true;
            }
        } else if tag == "end" {
            if let Some(last) = open.pop() {
                close(&last, &mut prose);
            }
        } else if shown(&open) {
            // `{name|form|form}`: the word that goes with the value.
            let (name, forms) = match tag.split_once('|') {
                Some((name, forms)) => (name, Some(forms)),
                None => (tag, None),
            };
            match facts.write(name) {
                Some((text, _)) if forms.is_some() => {
                    let forms: Vec<&str> = forms.unwrap_or_default().split('|').collect();
                    prose.text.push_str(words::plural(&forms, &text));
                }
                Some((text, filled)) => {
                    prose.text.push_str(&text);
                    if let Some(Filled {
                        side,
                        source: Source::Param(p) | Source::Percent(p),
                    }) = filled
                    {
                        let config = facts.config(side);
                        let looked_at = open.iter().any(|o| o.compares.contains(&p));
                        if !looked_at && read_literally(p, config) {
                            prose.literal.push((side, p, config.get(p)));
                        }
                    }
                    prose.numbers.extend(filled);
                }
                None => {
                    prose.text.push('{');
                    prose.text.push_str(tag);
                    prose.text.push('}');
                }
            }
        }
    }
    if shown(&open) {
        prose.text.push_str(rest);
    }
    prose
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(link: &str) -> Config {
        let (config, notices) = Config::from_link(link);
        assert_eq!(notices, [], "{link}");
        config
    }

    /// A name in a text means one thing: no fact or report number is
    /// named as a setting is (a setting `service_p99` once met a fact of
    /// that name).
    #[test]
    fn a_name_in_a_text_names_one_number() {
        let mut names: Vec<&str> = PARAMS.iter().map(|p| p.key).collect();
        names.extend(Fact::ALL.iter().map(|(name, _)| *name));
        names.extend(Metric::ALL.iter().map(|m| m.key()));
        let mut distinct = names.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(
            distinct.len(),
            names.len(),
            "a name used twice in {names:?}"
        );
    }

    #[test]
    fn settings_are_written_with_their_units_and_choices_as_words() {
        let config = config(
            "v=1&compare=on&timeout=0.5&rate=40&lost=0.2&B.jitter=none&B.budget=token-bucket",
        );
        let facts = Facts::settings(&config);
        let prose = fill(
            "{rate}, {timeout}, {lost%}, {jitter} and {B.jitter}, {B.budget}; {success}.",
            &facts,
        );
        assert_eq!(
            prose.text,
            "40/s, 0.5 s, 20 %, full and none, gRPC's token bucket; \u{2026}."
        );
        let sources: Vec<Source> = prose.numbers.iter().map(|n| n.source).collect();
        assert_eq!(
            sources,
            [
                Source::Param(P::Rate),
                Source::Param(P::Timeout),
                Source::Percent(P::Lost)
            ]
        );
    }

    #[test]
    fn a_word_takes_the_form_its_number_asks() {
        let config = config("v=1&compare=on&attempts=1&B.attempts=5");
        let facts = Facts::settings(&config);
        let prose = fill(
            "{attempts} {attempts|attempt|attempts}, {B.attempts} {B.attempts|attempt|attempts}",
            &facts,
        );
        assert_eq!(prose.text, "1 attempt, 5 attempts");
    }

    #[test]
    fn conditions_choose_the_clause_and_nest() {
        let config =
            config("v=1&compare=on&jitter=none&timeout=2&deadline=2&B.jitter=full&B.deadline=0");
        let facts = Facts::settings(&config);
        let text = |template| fill(template, &facts).text;
        assert_eq!(
            text("{if jitter=none}without{else}with{end} jitter"),
            "without jitter"
        );
        assert_eq!(
            text("{if B.jitter=none}without{else}with {B.jitter}{end}"),
            "with full"
        );
        assert_eq!(
            text("{if timeout>=deadline&B.deadline=0}both{end}."),
            "both."
        );
        assert_eq!(text("{if timeout<deadline}short{end}."), ".");
        assert_eq!(
            text("{if timeout>deadline}long{end}{if timeout>1}er{end}"),
            "er"
        );
        assert_eq!(
            text("{if jitter!=none}a{else}b{if B.deadline!=0}c{else}d{end}e{end}f"),
            "bdef"
        );
        // A name that means nothing shows as it stands.
        assert_eq!(text("{nothing} {if nothing=1}x{end}"), "{nothing} ");
    }

    #[test]
    fn report_numbers_are_the_headlines_and_facts_follow_the_settings() {
        let config = config(
            "v=1&compare=on&rate=40&horizon=2&budget=aws-quota&quota=500&q_cost=5&B.budget=ratio&B.b_pct=0.2&B.b_floor=1",
        );
        let (a, b) = retry_sim::simulate::run_both(&config);
        let b = b.expect("comparing");
        let facts = Facts::runs(&config, &a, Some(&b));
        let prose = fill(
            "{A.success} {B.load}; {B.budget_bound}, {quota_retries}.",
            &facts,
        );
        assert_eq!(
            prose.text,
            format!(
                "{} {}; {}, 100.",
                Metric::Success.format(a.summary.success_rate),
                Metric::LoadAmplification.format(b.summary.server_calls_per_operation),
                // 20 % of the requests, plus 1 retry a second at 40 a second.
                Format::Ratio.headline(1.0 + 0.2 + 1.0 / 40.0)
            )
        );
        assert_eq!(prose.numbers[1].side, Side::B);
    }
}
