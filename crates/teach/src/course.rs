//! The course: the presets in an order from the simple to the subtle, each
//! a chapter that asks a question before it shows the answer, with the one
//! setting it is about, and a one-line takeaway. The takeaways gather into
//! a last page, the rules to apply on Monday. The first [`CORE`] chapters
//! are the path a room takes in a 90-minute workshop, in the order of the
//! rules; the others are extras, each a detour from the core chapter of
//! its rule. Each chapter carries notes for the person who teaches it.
//!
//! A chapter's answer is never written down: each answer is a claim about
//! the chapter's runs ([`Judge`]), and the one that holds is computed from
//! them over the seeds the headlines are measured on. A test holds each
//! chapter to the answer its lesson needs, so a chapter whose world stops
//! showing its lesson fails it.
//!
//! A chapter is in the link as `chapter=KEY`; alone (besides `v`) it opens
//! the chapter's own world, with settings it opens those settings inside
//! the chapter. `present=on` asks for the layout for a room,
//! `present=notes` for the presenter's own view with the notes. A preset's
//! short link is `preset=KEY`: its world, with any settings of the link
//! over it.

use retry_core::words::{Lang, Text};
use retry_sim::config::{Config, P};
use retry_sim::link::{CHAPTER_KEY, PRESENT_KEY, PRESET_KEY};
use retry_sim::link::{
    CONTROLS_KEY, EMBED_KEY, Embed, LANG_KEY, MAX_PAIRS, Notice, clip, instant_from_fragment,
    link_lang, percent_decode, read_link,
};

/// The key of a link's version.
const LINK_VERSION_KEY: &str = "v";
use crate::lesson;
use crate::presets::{PRESETS, Preset};
use crate::trap::{Asked, Guess, Naive};
use retry_analyses::seeds::{Seeds, Verdict};
use retry_sim::metrics::{Metric, Side};

/// The chapters on the course's path, the first of [`CHAPTERS`]: about
/// 50 minutes of a 90-minute workshop. The rest are extras, each a detour
/// from the core chapter of its rule.
pub const CORE: usize = 12;

/// The key of the last page, the rules: `chapter=monday`.
pub const MONDAY_KEY: &str = "monday";

/// Which answer of a chapter the runs bear out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Judge {
    /// Which policy does better on the metric over the seeds (the
    /// headlines' rule, [`Seeds::verdict`]): the answers say A, B, and
    /// (when there is a third) no real difference, in that order.
    Better(Metric),
    /// Where one policy's number falls: the answers are the bands between
    /// `edges`, from the lowest up; the median over the seeds decides.
    Band {
        metric: Metric,
        side: Side,
        edges: &'static [f64],
    },
    /// Which of one policy's numbers moves furthest from a healthy day's
    /// (each a share of its operations: the success lost, the calls added
    /// per operation): the answers name the signals in order, then (when
    /// there is one more) "about the same", for a lead under `near`. The
    /// medians over the seeds decide.
    Moves {
        side: Side,
        signals: &'static [(Metric, f64)],
        near: f64,
    },
}

impl Judge {
    /// The answer the seeds bear out, if they bear one out: `None` when
    /// the verdict is no real difference and no answer says so.
    pub fn answer(&self, seeds: &Seeds, answers: usize) -> Option<usize> {
        match *self {
            Judge::Better(metric) => match seeds.verdict(metric) {
                Some(Verdict::Better(Side::A, _)) => Some(0),
                Some(Verdict::Better(Side::B, _)) => Some(1),
                Some(Verdict::NoRealDifference) => Some(2).filter(|&i| i < answers),
                // A large difference whose side depends on the seed: no
                // answer of A, B or "no real difference" is borne out.
                Some(Verdict::DiffersBySeed { .. }) => None,
                // No policy B, or a number better neither way (with one
                // seed the verdict still judges it): nothing to answer.
                None => None,
            },
            Judge::Band {
                metric,
                side,
                edges,
            } => {
                let value = median(seeds.values(metric, side).collect())?;
                Some(edges.iter().filter(|&&edge| value >= edge).count())
            }
            Judge::Moves {
                side,
                signals,
                near,
            } => {
                let moves = signals
                    .iter()
                    .map(|&(metric, healthy)| {
                        Some((median(seeds.values(metric, side).collect())? - healthy).abs())
                    })
                    .collect::<Option<Vec<f64>>>()?;
                furthest(&moves, near, answers)
            }
        }
    }

    /// The metric and side the chapter's evidence reports first.
    pub fn metric(&self) -> Metric {
        match *self {
            Judge::Better(metric) | Judge::Band { metric, .. } => metric,
            Judge::Moves { signals, .. } => signals[0].0,
        }
    }
}

/// The answer for the signal that moved furthest among `moves`, or the
/// one after the signals ("about the same") when the lead is under
/// `near` and the chapter offers it.
pub fn furthest(moves: &[f64], near: f64, answers: usize) -> Option<usize> {
    let (best, most) = moves
        .iter()
        .copied()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    let next = moves
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != best)
        .map(|(_, &m)| m)
        .fold(f64::NEG_INFINITY, f64::max);
    match most - next < near && moves.len() < answers {
        true => Some(moves.len()),
        false => Some(best),
    }
}

fn median(mut sorted: Vec<f64>) -> Option<f64> {
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

/// One chapter.
#[derive(Debug, PartialEq)]
pub struct Chapter {
    /// Its word in a link.
    pub key: &'static str,
    pub title: Text,
    /// The preset whose world, lesson and key chart it shows.
    pub preset: &'static str,
    /// Link pairs applied on top of the preset's settings.
    pub change: &'static str,
    /// Asked before the reveal: a template (see [`crate::prose`]) filled
    /// from the settings alone, so it gives no result away.
    pub question: Text,
    /// Two to four answers, in the order the judge names them.
    pub answers: &'static [Text],
    pub judge: Judge,
    /// The naive model a room reasons with, whose computed answer is the
    /// chapter's trap ([`Chapter::trap`]).
    pub trap: Naive,
    /// The one setting the chapter is about (policy A's, or the world's).
    pub knob: P,
    /// The knob's range in the chapter, for a number: one that teaches,
    /// somewhere in which the runs' answer moves (a test holds it). A
    /// choice offers all its choices.
    pub teaches: Option<(f64, f64)>,
    pub takeaway: Text,
}

/// What the person who teaches a chapter needs and the room does not
/// see: what to ask, why the trap tempts, the minutes.
#[derive(Debug, PartialEq)]
pub struct Notes {
    /// What to ask the room before the show of hands, or after the reveal.
    pub ask: Text,
    /// Why the trap's model tempts, and where the runs part from it (or,
    /// where they agree, what comes next): a clause after the model's
    /// prediction.
    pub tempting: Text,
    /// Minutes the chapter takes in a room, question to takeaway.
    pub minutes: u32,
    /// What to point at on the chart, where the chapter's world is not its
    /// preset's own (else the preset's "what the eye must see").
    pub point_at: Option<Text>,
}

impl Chapter {
    pub fn preset(&self) -> &'static Preset {
        PRESETS
            .iter()
            .find(|p| p.key == self.preset)
            .expect("every chapter names a preset (a test holds them)")
    }

    /// How the chapter names its knob, where its world gives the setting
    /// another meaning than its control's words: the label and the help.
    pub fn knob_words(&self) -> Option<(Text, Text)> {
        KNOB_WORDS
            .iter()
            .find(|(key, ..)| *key == self.key)
            .map(|&(_, label, help)| (label, help))
    }

    /// Its notes for the person who teaches it to a room.
    pub fn notes(&self) -> &'static Notes {
        NOTES
            .iter()
            .find(|(key, _)| *key == self.key)
            .map(|(_, notes)| notes)
            .expect("every chapter has notes (a test holds them)")
    }

    /// The chapter's own world and policies.
    pub fn config(&self) -> Config {
        lesson::apply(&self.preset().config(), self.change)
    }

    /// Its place in [`CHAPTERS`], from 0.
    fn position(&self) -> usize {
        CHAPTERS
            .iter()
            .position(|c| std::ptr::eq(c, self))
            .unwrap_or(0)
    }

    /// On the core path, which a room takes in 90 minutes.
    pub fn is_core(&self) -> bool {
        self.position() < CORE
    }

    /// Its place on the core path, from 1: an extra's is its home's.
    pub fn number(&self) -> usize {
        self.home().position() + 1
    }

    /// The core chapter an extra is a detour from: the last core chapter
    /// of its rule, or of the nearest rule before it that has one. A core
    /// chapter is its own home.
    pub fn home(&self) -> &'static Chapter {
        if self.is_core() {
            return &CHAPTERS[self.position()];
        }
        let rule = MONDAY
            .iter()
            .position(|r| r.chapters.contains(&self.key))
            .unwrap_or(0);
        MONDAY[..=rule]
            .iter()
            .rev()
            .find_map(|r| {
                r.chapters
                    .iter()
                    .filter_map(|key| CHAPTERS[..CORE].iter().find(|c| c.key == *key))
                    .max_by_key(|c| c.position())
            })
            .unwrap_or(&CHAPTERS[0])
    }

    /// The extras whose home this chapter is, in the course's order.
    pub fn extras(&self) -> impl Iterator<Item = &'static Chapter> + '_ {
        CHAPTERS[CORE..]
            .iter()
            .filter(move |c| std::ptr::eq(c.home(), self))
    }

    /// The answer its runs bear out over `seeds`.
    pub fn answer(&self, seeds: &Seeds) -> Option<usize> {
        self.judge.answer(seeds, self.answers.len())
    }

    /// The values of its knob a facilitator tries after the reveal: its
    /// teaching range's ends, or for a choice every choice but its own.
    pub fn tried(&self) -> Vec<f64> {
        match (self.teaches, self.knob.param().kind) {
            (Some((low, high)), _) => vec![low, high],
            (None, retry_sim::config::Kind::Choice(words, _)) => {
                let own = self.config().get(self.knob);
                (0..words.len())
                    .map(|i| i as f64)
                    .filter(|&v| v != own)
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    /// The answer the chapter's naive model predicts from `config`, its
    /// settings.
    pub fn trap(&self, config: &Config) -> Option<usize> {
        let asked = match self.judge {
            Judge::Better(metric) => Asked::Better(metric),
            Judge::Band { metric, side, .. } => Asked::Band(metric, side),
            Judge::Moves { side, .. } => Asked::Moves(side),
        };
        match (self.trap.guess(config, asked)?, self.judge) {
            (Guess::Side(Some(Side::A)), Judge::Better(_)) => Some(0),
            (Guess::Side(Some(Side::B)), Judge::Better(_)) => Some(1),
            (Guess::Side(None), Judge::Better(_)) => Some(2).filter(|&i| i < self.answers.len()),
            (Guess::Value(value), Judge::Band { edges, .. }) => {
                Some(edges.iter().filter(|&&edge| value >= edge).count())
            }
            (Guess::Signal(metric), Judge::Moves { signals, .. }) => {
                signals.iter().position(|&(m, _)| m == metric)
            }
            _ => None,
        }
    }
}

/// One rule of the last page, with the chapters that showed it.
#[derive(Debug, PartialEq)]
pub struct Rule {
    pub text: Text,
    pub chapters: &'static [&'static str],
}

/// Where in the course a page is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Place {
    Chapter(&'static Chapter),
    /// The last page: the rules.
    Monday,
}

impl Place {
    pub fn key(self) -> &'static str {
        match self {
            Place::Chapter(chapter) => chapter.key,
            Place::Monday => MONDAY_KEY,
        }
    }

    /// The place a link's word names, in any case.
    pub fn find(word: &str) -> Option<Place> {
        let word = word.trim();
        if word.eq_ignore_ascii_case(MONDAY_KEY) {
            return Some(Place::Monday);
        }
        CHAPTERS
            .iter()
            .find(|c| c.key.eq_ignore_ascii_case(word))
            .map(Place::Chapter)
    }

    /// Its position on the core path: its chapters from 0, the last page
    /// after them; an extra stands where its home does.
    pub fn index(self) -> usize {
        match self {
            Place::Chapter(chapter) => chapter.number() - 1,
            Place::Monday => CORE,
        }
    }

    fn at(index: usize) -> Option<Place> {
        match CHAPTERS[..CORE].get(index) {
            Some(chapter) => Some(Place::Chapter(chapter)),
            None => (index == CORE).then_some(Place::Monday),
        }
    }

    /// The place before: on the path the chapter before, from an extra
    /// its home.
    pub fn back(self) -> Option<Place> {
        match self {
            Place::Chapter(chapter) if !chapter.is_core() => Some(Place::Chapter(chapter.home())),
            _ => self.index().checked_sub(1).and_then(Place::at),
        }
    }

    /// The place after: on the path the next chapter, from an extra the
    /// chapter after its home.
    pub fn next(self) -> Option<Place> {
        Place::at(self.index() + 1)
    }

    /// The settings the place opens with.
    pub fn config(self) -> Config {
        match self {
            Place::Chapter(chapter) => chapter.config(),
            Place::Monday => PRESETS[0].config(),
        }
    }
}

/// How a chapter is shown: to a reader, to a room (`present=on`, large
/// type, the room's tally and a code to follow on a phone), or as the
/// presenter's own view (`present=notes`, the notes the room does not see).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Present {
    #[default]
    Off,
    Room,
    Notes,
    /// The facilitator's guide (`present=guide`): the agenda and each
    /// core chapter's kit, on the last page.
    Guide,
    /// The group exercise (`present=exercise`): its world in the
    /// playground, graded.
    Exercise,
}

impl Present {
    /// The mode a link's `present=` names; anything else is off.
    pub fn read(word: &str) -> Present {
        let word = word.trim();
        if word.eq_ignore_ascii_case("on") {
            Present::Room
        } else if word.eq_ignore_ascii_case("notes") {
            Present::Notes
        } else if word.eq_ignore_ascii_case("guide") {
            Present::Guide
        } else if word.eq_ignore_ascii_case("exercise") {
            Present::Exercise
        } else {
            Present::Off
        }
    }

    /// Its word in a link, none when off.
    pub fn word(self) -> Option<&'static str> {
        match self {
            Present::Off => None,
            Present::Room => Some("on"),
            Present::Notes => Some("notes"),
            Present::Guide => Some("guide"),
            Present::Exercise => Some("exercise"),
        }
    }
}

/// What an address opens, read once into a value: two addresses of one
/// meaning open equal values, whatever the order, repeats or spelling of
/// their pairs.
#[derive(Debug, Clone, PartialEq)]
pub struct Opened {
    pub config: Config,
    /// The chapter or last page it asks for.
    pub place: Option<Place>,
    pub present: Present,
    /// How it is embedded in another page, if it asks to be.
    pub embed: Option<Embed>,
    /// The language it asks for (`lang=`), if any.
    pub lang: Option<Lang>,
    /// The replay's instant its fragment names (`#at=6.26`), if any: no
    /// part of the state, whose numbers do not depend on it.
    pub instant: Option<f64>,
    pub notices: Vec<Notice>,
}

/// What an address opens: a bare address the first preset, a chapter
/// alone its world, a link what it says. `address` is a whole address, a
/// query string with its `?` or one without; the query says the state, a
/// `#fragment` only the replay's instant. The page, the command line, `report_json` and
/// `retryPlayground.run` all go through here, so a link means the same
/// numbers everywhere.
pub fn opened(address: &str) -> Opened {
    let (address, instant) = match address.split_once('#') {
        Some((address, fragment)) => (address, instant_from_fragment(fragment)),
        None => (address, None),
    };
    let query = address.split_once('?').map_or(address, |(_, query)| query);
    let mut notices = Vec::new();
    let mut place = None;
    let mut preset = None;
    let mut present = Present::Off;
    let mut settings = false;
    // Only the language: as bare as no query at all.
    let mut bare = true;
    // Read as the link reader reads: up to its limit, the last pair of a
    // key winning.
    for pair in query.split('&').filter(|p| !p.is_empty()).take(MAX_PAIRS) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let (key, value) = (percent_decode(key), percent_decode(value));
        bare &= key == LANG_KEY;
        match key.as_str() {
            CHAPTER_KEY => place = Some(Place::find(&value).ok_or(value)),
            PRESET_KEY => {
                let word = value.trim();
                preset = Some(
                    PRESETS
                        .iter()
                        .find(|p| p.key.eq_ignore_ascii_case(word))
                        .ok_or(value),
                );
            }
            PRESENT_KEY => present = Present::read(&value),
            // The version and the embed's pairs are no settings of the world.
            LINK_VERSION_KEY | EMBED_KEY | CONTROLS_KEY | LANG_KEY => {}
            _ => settings = true,
        }
    }
    let place = place.map(|found| {
        found.unwrap_or_else(|word| {
            notices.push(Notice {
                key: CHAPTER_KEY.to_string(),
                message: retry_core::tf!(
                    "no chapter '{word}'; the course opens at its first chapter",
                    word = clip(&word)
                ),
            });
            Place::Chapter(&CHAPTERS[0])
        })
    });
    // The guide is the last page's, whatever chapter the link names.
    let place = match present {
        Present::Guide => Some(Place::Monday),
        _ => place,
    };
    // A preset's world under the link's settings; an unknown one is none.
    let preset = preset.and_then(|found| {
        found
            .map_err(|word| {
                notices.push(Notice {
                    key: PRESET_KEY.to_string(),
                    message: crate::presets::no_preset(&clip(&word)),
                });
            })
            .ok()
    });
    let (read, embed, mut read_notices) = match preset {
        Some(preset) if place.is_none() => read_link(&format!("{}&{query}", preset.link)),
        _ => read_link(query),
    };
    let config = match (place, settings) {
        // A chapter's own world: no version to read it as.
        (Some(place), false) => {
            read_notices.retain(|n| n.key != LINK_VERSION_KEY);
            place.config()
        }
        // The group exercise alone: its world, as the groups start.
        (None, false) if present == Present::Exercise && preset.is_none() => {
            read_notices.retain(|n| n.key == LANG_KEY);
            crate::exercise::world()
        }
        // A bare address: the first preset, and nothing to say of a link
        // but of the language it asks for.
        _ if bare => {
            read_notices.retain(|n| n.key == LANG_KEY);
            PRESETS[0].config()
        }
        _ => read,
    };
    notices.extend(read_notices);
    Opened {
        config,
        place,
        present,
        embed,
        lang: link_lang(query),
        instant,
        notices,
    }
}

/// The configuration an address opens, and what was fixed or ignored.
pub fn open(address: &str) -> (Config, Vec<Notice>) {
    let opened = opened(address);
    (opened.config, opened.notices)
}

/// The short link of `config` when it is exactly a preset's world:
/// `preset=KEY`.
pub fn preset_link(config: &Config) -> Option<String> {
    PRESETS
        .iter()
        .find(|p| p.config() == *config)
        .map(|p| format!("{PRESET_KEY}={}", p.key))
}

/// The link of `config` shown at `place`: the chapter's word alone while
/// the settings are its own, else the word and the settings.
pub fn link(place: Place, config: &Config, present: Present) -> String {
    let mut link = format!("{CHAPTER_KEY}={}", place.key());
    if place.config() != *config {
        link = format!("{}&{link}", config.to_link());
    }
    if let Some(word) = present.word() {
        link.push_str(&format!("&{PRESENT_KEY}={word}"));
    }
    link
}

pub static CHAPTERS: &[Chapter] = &[
    Chapter {
        key: "why-retry",
        title: Text("Why retry at all"),
        preset: "why-retry",
        change: "",
        question: Text(
            "A dependency fails {failure%} of calls, each call independently of the others. \
                   Policy A never retries; policy B makes up to {B.attempts} attempts. What share \
                   of B's operations succeed?",
        ),
        answers: &[
            Text("About 80 %, like A's"),
            Text("About 90 %"),
            Text("About 99 %"),
        ],
        judge: Judge::Band {
            metric: Metric::Success,
            side: Side::B,
            edges: &[0.85, 0.95],
        },
        trap: Naive::RetryCuresAny,
        knob: P::Failure,
        teaches: Some((0.05, 0.6)),
        takeaway: Text(
            "Retry failures that come and go independently: each attempt is a fresh chance, \
                   so a few attempts recover nearly all of them.",
        ),
    },
    Chapter {
        key: "which-errors",
        title: Text("Which errors to retry"),
        preset: "why-retry",
        change: "failure=0.3&mix_503=0.5&mix_400=0.5&attempts=4&retry_on=everything&B.attempts=4&B.retry_on=transient",
        question: Text(
            "A dependency fails {failure%} of calls, each call independently of the others; \
                   {permanent%} of its failures are 400 Bad Request (a request that is wrong \
                   stays wrong), the rest 503 Service Unavailable. Both policies make up to \
                   {attempts} attempts: policy A retries every error, a 400 included; policy B \
                   only what a retry may cure. Which gets more operations through?",
        ),
        answers: &[Text("A"), Text("B"), Text("Neither")],
        judge: Judge::Better(Metric::Success),
        trap: Naive::RetryCuresAny,
        knob: P::RetryOn,
        teaches: None,
        takeaway: Text(
            "Retrying every error gets no more operations through: a 400 fails the same way \
                   on every attempt, so its retries only add calls. Retry what may pass (a 503, \
                   a timeout, a 429 once its wait is over), never another 4xx.",
        ),
    },
    Chapter {
        key: "timeout",
        title: Text("The timeout"),
        preset: "timeout",
        change: "",
        question: Text(
            "The dependency takes {own_mean} on average, and only one call in a hundred \
                   takes longer than about {own_p99} (its p99). First tries alone keep its \
                   workers {busy} busy, and it finishes every call it has started, even one the \
                   client gave up on. Policy A gives up on an attempt after {timeout} and retries, \
                   up to {attempts} attempts; policy B waits {B.timeout}. What happens to A's \
                   operations?",
        ),
        answers: &[
            Text("Most of them fail"),
            Text("More fail than B's, but most get through"),
            Text("Hardly any fail"),
        ],
        judge: Judge::Band {
            metric: Metric::Success,
            side: Side::A,
            edges: &[0.5, 0.95],
        },
        trap: Naive::RetryCuresAny,
        knob: P::Timeout,
        teaches: Some((0.2, 1.0)),
        takeaway: Text(
            "Set an attempt's timeout from measured latency, well above the median: one near it cuts off calls about to succeed, and the server does their work again. The p99 plus a margin is a safe choice.",
        ),
    },
    Chapter {
        key: "deadline",
        title: Text("The deadline"),
        preset: "deadline",
        // A's timeout short of the deadline: a question that showed them
        // equal would give its answer away.
        change: "timeout=1.5",
        question: Text(
            "The user waits at most {deadline}; {lost%} of the answers never arrive, and the \
                   rest come back in about {service_t}. Both policies make up to {attempts} \
                   attempts; A waits up to {timeout} for each, B {B.timeout}. Which gets more \
                   operations done in time?",
        ),
        answers: &[
            Text("A, with the longer timeout"),
            Text("B, with the shorter timeout"),
            Text("Neither"),
        ],
        judge: Judge::Better(Metric::Success),
        trap: Naive::LongerTimeoutSafer,
        knob: P::Timeout,
        teaches: Some((0.2, 2.0)),
        takeaway: Text(
            "Fit the attempts into the deadline: a timeout that takes most of it leaves \
                   little time to retry.",
        ),
    },
    Chapter {
        key: "jitter",
        title: Text("Jitter"),
        preset: "herd",
        change: "",
        question: Text(
            "{clients} clients fail together while the server is down for {outage_for}, and \
                   retry up to {attempts} attempts, backing off exponentially. Policy A draws no \
                   jitter; policy B draws each pause at random between zero and its ceiling (full \
                   jitter). Which gets more operations through?",
        ),

        answers: &[
            Text("A, without jitter"),
            Text("B, with full jitter"),
            Text("Neither"),
        ],
        judge: Judge::Better(Metric::Success),
        trap: Naive::JitterAlwaysHelps,
        knob: P::Clients,
        teaches: Some((100.0, 4000.0)),
        takeaway: Text(
            "Back off with full jitter once the crowd is large, so its retries spread out \
                   instead of landing as one wave. A small crowd (here up to about a thousand \
                   clients) fares better with no jitter, whose longer pauses outlast the outage.",
        ),
    },
    Chapter {
        key: "open-loop",
        title: Text("Backoff and arrivals that never wait"),
        preset: "closed-loop",
        change: "workload=poisson&rate=47",
        question: Text(
            "Operations arrive at {rate} whatever became of the earlier ones, as requests \
                   from users do. The dependency is down for {outage_for}; each operation makes up \
                   to {attempts} attempts. Policy A retries {base} after each failure; policy B \
                   backs off exponentially from {B.base} with {B.jitter} jitter. Which sends fewer \
                   calls to the dependency?",
        ),
        answers: &[Text("A"), Text("B"), Text("Neither")],
        judge: Judge::Better(Metric::Calls),
        trap: Naive::BackoffCutsLoad,
        knob: P::Workload,
        teaches: None,
        takeaway: Text(
            "Against arrivals that do not wait, backoff only moves retries later: bound them \
                   with a budget.",
        ),
    },
    Chapter {
        key: "budget",
        title: Text("The retry budget"),
        preset: "budget",
        change: "",
        question: Text(
            "Requests arrive at {rate}, then for {spike_for} at {spike}, at a server that \
                   slows as work piles up; both policies retry {base} after each timeout of \
                   {timeout}, up to {attempts} attempts. Policy B may retry only {B.b_pct%} of its \
                   recent requests. Which makes fewer calls per operation?",
        ),

        answers: &[Text("A"), Text("B"), Text("Neither")],
        judge: Judge::Better(Metric::LoadAmplification),
        trap: Naive::BudgetCapsAtPercent,
        knob: P::SpikeRate,
        teaches: Some((40.0, 120.0)),
        takeaway: Text("Add a retry budget: it caps the extra load however bad the day gets."),
    },
    Chapter {
        key: "at-scale",
        title: Text("Your breaker at scale"),
        preset: "at-scale",
        change: "",
        question: Text(
            "Calls arrive at {rate} in all, shared out among {instances} client instances, \
                   and the dependency fails {failure%} of them. Each of policy B's instances has \
                   its own token bucket: {B.bk_size} tokens to start with, {B.bk_deposit} more for each \
                   first try, one for each retry. Up to {attempts} attempts: how many calls does \
                   each of B's operations make?",
        ),
        answers: &[Text("About 1.1"), Text("About 1.5"), Text("About 1.9")],
        judge: Judge::Band {
            metric: Metric::LoadAmplification,
            side: Side::B,
            edges: &[1.3, 1.7],
        },
        trap: Naive::BudgetCapsAtPercent,
        knob: P::Instances,
        teaches: Some((1.0, 1000.0)),
        takeaway: Text(
            "Size a budget or a breaker for the traffic one instance sees: spread thin, a \
                   bucket retries everything and a breaker nothing.",
        ),
    },
    Chapter {
        key: "layers",
        title: Text("One owner of retries"),
        preset: "layers",
        change: "",
        question: Text(
            "{layers} services in a chain each make up to {attempts} attempts, and the \
                   dependency at the bottom always fails. How many calls reach it for each user \
                   request?",
        ),
        answers: &[Text("3"), Text("9"), Text("27")],
        judge: Judge::Band {
            metric: Metric::BottomCalls,
            side: Side::A,
            edges: &[6.0, 18.0],
        },
        trap: Naive::AttemptsAdd,
        knob: P::Layers,
        teaches: Some((1.0, 5.0)),
        takeaway: Text("Let one layer own the retries; the layers under it try once."),
    },
    Chapter {
        key: "idempotency",
        title: Text("Idempotency"),
        preset: "lost-response",
        change: "",
        question: Text(
            "Each operation ships an order. The server ships it, then {lost%} of its answers \
                   are lost on the way back; the client times out after {timeout} and retries. \
                   Policy A sends no idempotency key; policy B sends one key (an operation's ID, \
                   which the server checks for repeats) with every attempt of an operation. Which \
                   ships fewer orders twice?",
        ),
        answers: &[Text("A"), Text("B"), Text("Neither")],
        judge: Judge::Better(Metric::Duplicates),
        trap: Naive::RetryOnlyAsksAgain,
        knob: P::Lost,
        teaches: Some((0.0, 0.5)),
        takeaway: Text(
            "Retry only what is idempotent, or make it so: one idempotency key per \
                   operation, the same on every attempt.",
        ),
    },
    Chapter {
        key: "hedge-busy",
        title: Text("Hedging when busy"),
        preset: "hedge",
        change: "rate=90",
        question: Text(
            "A dependency answers in {own_mean} on average, some calls far slower than \
                   others: one in twenty takes over {own_p95}. First tries alone keep its workers \
                   {busy} busy. Policy A sends each call once; policy B sends a second copy when \
                   no answer has come after {B.hedge_delay}, and takes the first answer. Whose \
                   latency p99 is lower?",
        ),
        answers: &[Text("A's"), Text("B's"), Text("Neither")],
        judge: Judge::Better(Metric::P99),
        trap: Naive::HedgingIsFree,
        knob: P::Rate,
        teaches: Some((10.0, 95.0)),
        takeaway: Text(
            "Hedge only with capacity to spare: near it, the copies lengthen the queue and \
                   the tail grows.",
        ),
    },
    Chapter {
        key: "recover",
        title: Text("Recovering from a collapse"),
        preset: "recover",
        change: "",
        question: Text(
            "A server has {workers} workers, each serving a request in {service_t}, and \
                   queues up to {queue} more; first tries alone keep the workers {busy} busy. \
                   Clients time out after {timeout} and retry at once. At {drop_at} the server \
                   loses {drop_lost} of its workers for {drop_for}, and the queue fills with work \
                   whose clients have given up. At {spike_at} the operators turn every new request \
                   away at the door for {spike_for}, then let the traffic back in. What share of \
                   the operations succeed over the run of {horizon}?",
        ),
        answers: &[
            Text("Under half"),
            Text("Most, but not all"),
            Text("Nearly all"),
        ],
        judge: Judge::Band {
            metric: Metric::Success,
            side: Side::A,
            edges: &[0.5, 0.95],
        },
        trap: Naive::OverWhenTriggerEnds,
        knob: P::SpikeFor,
        teaches: Some((0.0, 20.0)),
        takeaway: Text(
            "To bring a collapsed service back, take the load off longer than its queue takes \
                   to drain: a shorter pause leaves the queue full of work nobody waits for, and \
                   the collapse goes on.",
        ),
    },
    Chapter {
        key: "backoff-for",
        title: Text("What backoff is for"),
        preset: "closed-loop",
        change: "",
        question: Text(
            "{clients} clients each start their next operation about {think} after their last \
                   one ended. The dependency is down for {outage_for}; each operation makes up to \
                   {attempts} attempts. Policy A retries {base} after each failure; policy B backs \
                   off exponentially from {B.base} with {B.jitter} jitter. Which sends fewer calls \
                   to the dependency?",
        ),
        answers: &[Text("A"), Text("B"), Text("Neither")],
        judge: Judge::Better(Metric::Calls),
        trap: Naive::BackoffCutsLoad,
        knob: P::OutageFor,
        teaches: Some((0.0, 40.0)),
        takeaway: Text(
            "Backoff sheds load only where clients wait for their answers: it slows a closed \
                   loop down.",
        ),
    },
    Chapter {
        key: "hedge",
        title: Text("Hedging cuts the tail"),
        preset: "hedge",
        change: "",
        question: Text(
            "A dependency answers in {own_mean} on average, some calls far slower than \
                   others: one in twenty takes over {own_p95}. Its workers are {busy} busy \
                   with first tries alone. Policy A sends each call once; policy B sends a \
                   second copy when no answer has come after {B.hedge_delay}, and takes the \
                   first answer. Whose latency p99 is lower?",
        ),
        answers: &[Text("A's"), Text("B's"), Text("Neither")],
        judge: Judge::Better(Metric::P99),
        trap: Naive::HedgingIsFree,
        knob: P::Rate,
        teaches: Some((10.0, 95.0)),
        takeaway: Text(
            "Hedge a slow call near its 95th percentile: the slowest calls get a second \
                   chance for a few percent more load.",
        ),
    },
    Chapter {
        key: "monitor",
        title: Text("What to watch"),
        preset: "why-retry",
        // B under a ratio budget with no floor, so it binds on this
        // world's 20 operations a second.
        change: "failure=0.08&B.budget=ratio&B.b_pct=0.1&B.b_floor=0&B.b_basis=requests",
        question: Text(
            "A dependency starts failing {failure%} of calls, each call independently of the \
                   others. Policy B makes up to {B.attempts} attempts under a retry budget: its \
                   retries may add at most {B.b_pct%} to its requests. On B's dashboard, which \
                   number moves further from a healthy day's (every operation succeeds, one call \
                   each): the share of operations that fail, or the calls per operation?",
        ),
        answers: &[
            Text("The share that fails"),
            Text("The calls per operation"),
            Text("About the same"),
        ],
        judge: Judge::Moves {
            side: Side::B,
            signals: &[(Metric::Success, 1.0), (Metric::LoadAmplification, 1.0)],
            near: 0.02,
        },
        trap: Naive::SuccessShowsTrouble,
        knob: P::Failure,
        teaches: Some((0.02, 0.6)),
        takeaway: Text(
            "Watch calls per operation and budget refusals beside success: while the budget \
                   covers the failures, retries hold success up and the load is where a sick \
                   dependency shows; once it runs out, success falls.",
        ),
    },
    Chapter {
        key: "retry-cost",
        title: Text("What a retry costs"),
        preset: "why-retry",
        change: "failure=1",
        question: Text(
            "Now the dependency is down and fails every call; B still makes up to \
                   {B.attempts} attempts. How many calls does each of B's operations make to it?",
        ),
        answers: &[Text("One"), Text("Three"), Text("More than three")],
        judge: Judge::Band {
            metric: Metric::LoadAmplification,
            side: Side::B,
            edges: &[1.5, 3.5],
        },
        trap: Naive::RetryCuresAny,
        knob: P::Failure,
        teaches: Some((0.0, 1.0)),
        takeaway: Text(
            "When the dependency is down, every retry is extra load on it: bound the \
                   attempts.",
        ),
    },
    Chapter {
        key: "herd",
        title: Text("The thundering herd"),
        preset: "herd",
        // A alone: the next chapter brings B, the fix.
        change: "compare=off",
        question: Text(
            "{clients} clients fail together while the server is down for {outage_for}. Each \
                   makes up to {attempts} attempts, backing off exponentially without jitter, and \
                   the server is back long before they give up. It serves {workers} requests at a \
                   time and queues {queue} more. What share of the clients get through?",
        ),
        answers: &[
            Text("Fewer than half"),
            Text("More than half, but far from all"),
            Text("Nearly all of them"),
        ],
        judge: Judge::Band {
            metric: Metric::Success,
            side: Side::A,
            edges: &[0.5, 0.9],
        },
        trap: Naive::OverWhenTriggerEnds,
        knob: P::Clients,
        teaches: Some((100.0, 4000.0)),
        takeaway: Text(
            "Clients that fail together retry together: never let a crowd back off in \
                   lockstep, or each wave lands at once.",
        ),
    },
    Chapter {
        key: "shared-seed",
        title: Text("The shared seed"),
        preset: "shared-seed",
        change: "",
        question: Text(
            "Both policies draw their pauses with {jitter} jitter. A's clients all seed \
                   their random generator with the same constant; B's clients each have a seed of \
                   their own. Which gets more operations through?",
        ),
        answers: &[Text("A"), Text("B"), Text("Neither")],
        judge: Judge::Better(Metric::Success),
        trap: Naive::JitterAlwaysHelps,
        knob: P::Clients,
        teaches: Some((100.0, 4000.0)),
        takeaway: Text(
            "Seed each client's random generator separately: with a shared seed, jitter is \
                   no jitter at all.",
        ),
    },
    Chapter {
        key: "storm",
        title: Text("Backoff and the storm"),
        preset: "storm",
        change: "",
        question: Text(
            "Requests arrive at {rate}, then for {spike_for} at {spike}, at a server that \
                   slows as work piles up and finishes work its clients gave up on. Both policies \
                   time out after {timeout} and make up to {attempts} attempts; A retries {base} \
                   after each timeout, B backs off exponentially from {B.base} with {B.jitter} \
                   jitter. After the spike, whose goodput (operations that succeed per second) \
                   comes back?",
        ),
        answers: &[Text("A's"), Text("B's"), Text("Both come back")],
        judge: Judge::Better(Metric::Goodput),
        trap: Naive::OverWhenTriggerEnds,
        knob: P::Base,
        teaches: Some((0.001, 20.0)),
        takeaway: Text(
            "What ends the storm is the length of the pause, not its shape: a pause of a millisecond keeps an overloaded server overloaded, exponential or not. Back off for seconds, with jitter.",
        ),
    },
    Chapter {
        key: "contention",
        title: Text("Contention"),
        preset: "contention",
        change: "compare=on&jitter=none&B.jitter=full",
        question: Text(
            "{clients} clients update one row; whoever loses the race backs off and starts \
                   over. Policy A backs off exponentially without jitter, policy B with full \
                   jitter. Whose last client is done first?",
        ),
        answers: &[Text("A's"), Text("B's"), Text("Neither")],
        judge: Judge::Better(Metric::Completion),
        trap: Naive::JitterAlwaysHelps,
        knob: P::Clients,
        teaches: Some((2.0, 100.0)),
        takeaway: Text(
            "Under contention, back off with jitter: it cuts both the calls and the time \
                   until the last client is done.",
        ),
    },
    Chapter {
        key: "bucket-or-breaker",
        title: Text("Token bucket or breaker"),
        preset: "classic",
        change: "compare=on&failure=0.3&attempts=4&budget=token-bucket&B.budget=none&B.breaker=retries",
        question: Text(
            "The dependency fails {failure%} of calls. Policy A makes up to {attempts} \
                   attempts under gRPC's token bucket of {tokens} tokens: a failure takes one, a \
                   success puts {t_ratio} back, and a retry goes out only while more than half the \
                   tokens are left. Policy B makes as many behind a circuit breaker on retries, \
                   which opens once at least {B.cb_ratio%} of its attempts in the last \
                   {B.cb_window} fail. Which gets more operations through?",
        ),
        answers: &[
            Text("A, the token bucket"),
            Text("B, the breaker"),
            Text("Neither"),
        ],
        judge: Judge::Better(Metric::Success),
        trap: Naive::ThrottlesAlike,
        knob: P::Failure,
        teaches: Some((0.0, 1.0)),
        takeaway: Text(
            "Know where your throttle stops retries: a token bucket once failures outrun \
                   what successes earn back, a breaker only past its trip ratio; both stop them in \
                   an outage.",
        ),
    },
    Chapter {
        key: "defaults",
        title: Text("Production defaults"),
        preset: "aws-sdk",
        change: "",
        question: Text(
            "The AWS SDK's standard mode: {attempts} attempts and a retry quota of {quota} \
                   tokens; each retry takes {q_cost}, and a success refunds it. Operations arrive \
                   at {rate}, and then comes a {outage_for} outage in which every call fails. Who \
                   makes fewer calls per operation: A, with the quota, or B, the same client \
                   without it?",
        ),
        answers: &[Text("A"), Text("B"), Text("About the same")],
        judge: Judge::Better(Metric::LoadAmplification),
        trap: Naive::BudgetCapsAtPercent,
        knob: P::OutageFor,
        teaches: Some((0.0, 40.0)),
        takeaway: Text(
            "The AWS SDK's standard mode ships a retry quota: keep it on, and watch its \
                   refusals.",
        ),
    },
    Chapter {
        key: "throttle",
        title: Text("Throttling first tries"),
        preset: "throttle",
        change: "",
        question: Text(
            "Requests arrive at {rate} at a server that can serve about {workers} at a time \
                   in {service_t} each, with a queue of {queue}: first tries alone would keep it \
                   {busy} busy. Policy A has a retry budget of {b_pct%}; policy B's clients \
                   throttle themselves as the SRE book says, turning away requests, first tries \
                   too, while they send more than {B.sre_k} what the server accepts. Which gets \
                   more operations through?",
        ),
        answers: &[Text("A"), Text("B"), Text("Neither")],
        judge: Judge::Better(Metric::Success),
        trap: Naive::ThrottlingFails,
        knob: P::Rate,
        teaches: Some((50.0, 200.0)),
        takeaway: Text(
            "In an overload, first tries alone swamp the server: throttle them at the client, \
                   and count those rejections apart from the server's failures.",
        ),
    },
    Chapter {
        key: "trigger",
        title: Text("The trigger and the map"),
        preset: "trigger",
        change: "",
        question: Text(
            "A server's workers are {busy} busy with first tries, its clients time out after \
                   {timeout}, and policy A retries at once. At {drop_at} it loses {drop_lost} of \
                   its workers for {drop_for}, then has them all back. What share of A's \
                   operations succeed over the run?",
        ),
        answers: &[
            Text("Under half"),
            Text("Most, but not all"),
            Text("Nearly all"),
        ],
        judge: Judge::Band {
            metric: Metric::Success,
            side: Side::A,
            edges: &[0.5, 0.95],
        },
        trap: Naive::OverWhenTriggerEnds,
        knob: P::DropFor,
        teaches: Some((0.0, 30.0)),
        takeaway: Text(
            "A trigger that ends can leave a system broken for good: find on the map the \
                   triggers your policy does not come back from, and back off with jitter under \
                   a budget to shrink them.",
        ),
    },
    Chapter {
        key: "orphans",
        title: Text("The caller gave up; the service below did not"),
        preset: "orphans",
        change: "",
        question: Text(
            "{if layers=1}A service calls{else}{layers} services in a chain call{end} a \
                   database that answers in {service_t}{if slow_for>0}, until from {slow_at}, for \
                   {slow_for}, it takes {slow_x} as long{end}. {if layers=1}The service gives up \
                   on the database after {timeout}{else}{if call_timeout>0}The top gives up on its \
                   call below after {call_timeout}{else}The top waits for its call below{end}{end} \
                   and tries up to {attempts} times. {if pass_deadline=off}Policy A keeps its \
                   deadline to itself{else}Policy A passes its deadline down{end}; {if \
                   B.pass_deadline=on}policy B passes what is left of it down with each \
                   call{else}policy B keeps its deadline to itself{end}. Which gets more \
                   operations done over the run?",
        ),
        answers: &[Text("A"), Text("B"), Text("Neither")],
        judge: Judge::Better(Metric::Success),
        trap: Naive::GivingUpStopsTheWorkBelow,
        knob: P::PassDeadline,
        teaches: None,
        takeaway: Text(
            "Pass the deadline down with every call: a service whose caller has given up \
                   stops, instead of retrying for nobody.",
        ),
    },
    Chapter {
        key: "fan-out",
        title: Text("Fan-out: the backend's p99 becomes the median"),
        preset: "fan-out",
        // A third of the preset's run: enough requests for the median,
        // and room in the work budget for the seeds the answer is
        // judged on.
        change: "horizon=10",
        question: Text(
            "Every request asks {fan_out} {fan_out|backend|backends} at once and waits for the \
                   slowest answer. {if service=lognormal}Half the backends' calls take under \
                   {service_p50}, 99 % under {service_p99}.{else}A backend's call takes {own_mean} \
                   on average, 99 % under {own_p99}.{end} How long does the median request take?",
        ),
        answers: &[
            Text("About a backend's median"),
            Text("About three times a backend's median"),
            Text("About a backend's p99"),
        ],
        judge: Judge::Band {
            metric: Metric::P50,
            side: Side::A,
            edges: &[0.02, 0.06],
        },
        trap: Naive::TypicalCall,
        knob: P::FanOut,
        teaches: Some((1.0, 100.0)),
        takeaway: Text(
            "A request that waits for many calls waits for their tail: judge each call by its \
                   p99, and hedge or trim the fan-out where the tail is long.",
        ),
    },
];

/// A chapter's own words for its knob, by its key: in the recover world a
/// spike of no arrivals is the door shut, not a spike.
static KNOB_WORDS: &[(&str, Text, Text)] = &[(
    "recover",
    Text("Traffic turned away for"),
    Text("How long every new request is turned away at the door; 0 means never."),
)];

/// Each chapter's notes for the person who teaches it, by its key: kept
/// apart from [`CHAPTERS`] so that what only a presenter reads is not in
/// the first screen's module, which finds chapters by their keys.
static NOTES: &[(&str, Notes)] = &[
    (
        "why-retry",
        Notes {
            ask: Text(
                "Before the hands: is a retry more likely to fail than a first try? After: who has seen retries make an outage worse?",
            ),
            tempting: Text(
                "here it holds, as each call fails on its own; the next chapters break it with a wrong request, a timeout near the median and a loaded server.",
            ),
            minutes: 4,
            point_at: None,
        },
    ),
    (
        "which-errors",
        Notes {
            ask: Text("Which status codes does your retry policy retry? Who retries a 400?"),
            tempting: Text(
                "A retries more, but a 400 fails the same way on every attempt: its retries only add calls.",
            ),
            minutes: 4,
            point_at: Some(Text(
                "Across failure rates A's success curve lies on B's, while A's calls per operation climb far above B's: its retries of the 400s buy nothing.",
            )),
        },
    ),
    (
        "timeout",
        Notes {
            ask: Text(
                "Where do your timeouts come from: a measured p99, or a round number? After the reveal, move the timeout and find where success comes back.",
            ),
            tempting: Text(
                "few calls are slower than the timeout on an idle server, but each one cut off stays on the server as work, the retries add their own, and the queue grows until most attempts time out.",
            ),
            minutes: 4,
            point_at: None,
        },
    ),
    (
        "deadline",
        Notes {
            ask: Text(
                "What is the user's deadline for your busiest call, and how many of your attempts fit in it?",
            ),
            tempting: Text(
                "a longer wait catches slower answers, but a lost answer never comes: the long wait spends most of the deadline on it and leaves little for another attempt.",
            ),
            minutes: 4,
            point_at: Some(Text(
                "A's curve of latencies climbs to about half the operations, steps up once more after its long timeout and ends at the deadline; B's climbs in a step after each of its short timeouts, well above A's.",
            )),
        },
    ),
    (
        "jitter",
        Notes {
            ask: Text(
                "Point at the spikes on the chart: what is each one? Then move the clients: when does jitter stop mattering?",
            ),
            tempting: Text(
                "here it holds for this large crowd; move the clients down to a thousand and no jitter wins, its longer pauses outlasting the outage.",
            ),
            minutes: 4,
            point_at: None,
        },
    ),
    (
        "open-loop",
        Notes {
            ask: Text("Which of your clients wait for their answers, and which do not?"),
            tempting: Text(
                "backoff sounds like less load, but every arrival still makes its attempts, only later.",
            ),
            minutes: 3,
            point_at: Some(Text(
                "While the dependency is down, B's load climbs to A's within seconds: every arrival still makes all its attempts, and backoff only sends them later.",
            )),
        },
    ),
    (
        "budget",
        Notes {
            ask: Text("What caps your retries on a bad day today: the attempts alone?"),
            tempting: Text(
                "here it holds for one service's clients; the next chapter spreads such a budget over many instances, and its percent stops holding.",
            ),
            minutes: 4,
            point_at: None,
        },
    ),
    (
        "at-scale",
        Notes {
            ask: Text("Over how many instances is the traffic of your budget's clients spread?"),
            tempting: Text(
                "the bucket stops retries for one client, but spread over many instances each sees too little traffic for it to act.",
            ),
            minutes: 3,
            point_at: None,
        },
    ),
    (
        "layers",
        Notes {
            ask: Text("How many layers between your users and your database retry on their own?"),
            tempting: Text(
                "each layer's attempts look like its own, but every attempt of a layer sends the layer below through all of its attempts: they multiply.",
            ),
            minutes: 3,
            point_at: None,
        },
    ),
    (
        "idempotency",
        Notes {
            ask: Text(
                "Which of your calls change something, and which of them carry an idempotency key?",
            ),
            tempting: Text(
                "a retry feels like asking again, but the server already acted on the request whose answer was lost.",
            ),
            minutes: 4,
            point_at: None,
        },
    ),
    (
        "hedge-busy",
        Notes {
            ask: Text("How busy is the service you would hedge at its peak?"),
            tempting: Text(
                "only the slowest few percent get a copy, but near capacity every copy queues in front of a first try, and the tail grows.",
            ),
            minutes: 3,
            point_at: Some(Text(
                "B's curve of latencies reaches 99 % of operations after A's: near capacity its copies queue in front of first tries, and the tail grows.",
            )),
        },
    ),
    (
        "recover",
        Notes {
            ask: Text(
                "How long must the door stay shut? Let the room work it out from the queue and the workers, then move the pause until success comes back, and compare it with the time the queue takes to drain.",
            ),
            tempting: Text(
                "the workers are back and the door was shut, but a pause shorter than the queue takes to drain leaves it full of work nobody waits for.",
            ),
            minutes: 4,
            point_at: None,
        },
    ),
    (
        "backoff-for",
        Notes {
            ask: Text(
                "Do your clients wait for their answers, or do requests keep coming whatever happens?",
            ),
            tempting: Text(
                "here it holds, as each client waits for its answer before its next operation; against arrivals that do not wait, it does not.",
            ),
            minutes: 4,
            point_at: None,
        },
    ),
    (
        "hedge",
        Notes {
            ask: Text("What would you hedge, and at which percentile of its latency?"),
            tempting: Text(
                "here it holds, with capacity to spare: only the slowest few percent of calls get a copy.",
            ),
            minutes: 4,
            point_at: None,
        },
    ),
    (
        "monitor",
        Notes {
            ask: Text(
                "Which of these is on your dashboard: success, calls per operation, budget refusals? After the reveal, raise the failures until the budget runs out, and watch which number moves.",
            ),
            tempting: Text(
                "success is what users feel, but while the budget lasts the retries hide the failures from it, each one they make up for another call.",
            ),
            minutes: 4,
            point_at: None,
        },
    ),
    (
        "retry-cost",
        Notes {
            ask: Text("What does your client do while its dependency is down?"),
            tempting: Text(
                "here it holds: with every call failing, every operation spends all its attempts, and a plain retry policy never notices the outage.",
            ),
            minutes: 2,
            point_at: None,
        },
    ),
    (
        "herd",
        Notes {
            ask: Text("What happens when a whole fleet restarts at once?"),
            tempting: Text(
                "the server is back long before the clients give up, but each wave of retries lands in one instant and overflows its queue.",
            ),
            minutes: 3,
            point_at: None,
        },
    ),
    (
        "shared-seed",
        Notes {
            ask: Text("Where do your clients get the seed of their random generator?"),
            tempting: Text(
                "both have jitter, but a shared seed draws the same pauses in every client.",
            ),
            minutes: 3,
            point_at: None,
        },
    ),
    (
        "storm",
        Notes {
            ask: Text(
                "B differs from A in its shape, its jitter and its pause: which of them ends the storm? After the reveal, switch A's shape alone, then raise its base.",
            ),
            tempting: Text(
                "the spike ends, so the load should fall with it, but A's retries keep the server overloaded.",
            ),
            minutes: 4,
            point_at: None,
        },
    ),
    (
        "contention",
        Notes {
            ask: Text("Where do your clients race for one row or one lock?"),
            tempting: Text("here it holds: in lockstep the clients collide again and again."),
            minutes: 3,
            point_at: None,
        },
    ),
    (
        "bucket-or-breaker",
        Notes {
            ask: Text(
                "Which of the two does your stack ship, and at what failure rate does it stop retries?",
            ),
            tempting: Text(
                "both look like the same switch, but they stop retries at very different failure rates.",
            ),
            minutes: 4,
            point_at: None,
        },
    ),
    (
        "defaults",
        Notes {
            ask: Text("Which retry mode does your AWS SDK run, and who watches its quota?"),
            tempting: Text(
                "here it holds: a quota of hundreds of tokens lasts only a few dozen retries at the cost of one.",
            ),
            minutes: 3,
            point_at: None,
        },
    ),
    (
        "throttle",
        Notes {
            ask: Text("Would you turn away your own users' requests at the client?"),
            tempting: Text(
                "turning requests away looks like failing them, but it keeps the server serving the rest.",
            ),
            minutes: 3,
            point_at: None,
        },
    ),
    (
        "trigger",
        Notes {
            ask: Text("Which capacity loss has your system not come back from?"),
            tempting: Text(
                "the workers come back, but the queue of work nobody waits for does not drain.",
            ),
            minutes: 4,
            point_at: None,
        },
    ),
    (
        "orphans",
        Notes {
            ask: Text(
                "When your gateway times out, does the service behind it know, or does it go on working and retrying?",
            ),
            tempting: Text(
                "the slowdown is the database's, but the calls left behind keep it busy long after it ends.",
            ),
            minutes: 3,
            point_at: None,
        },
    ),
    (
        "fan-out",
        Notes {
            ask: Text("How many calls does your slowest page wait for, and what is their p99?"),
            tempting: Text(
                "each call is usually fast, but a request that waits for a hundred meets the slow one almost every time.",
            ),
            minutes: 3,
            point_at: None,
        },
    ),
];

/// The rules the source articles end with, each with the chapters that
/// showed it.
pub static MONDAY: &[Rule] = &[
    Rule {
        text: Text(
            "Retry failures that may pass (a timeout, a 503, a 429 after its Retry-After), never another 4xx: a wrong request fails the same way every time.",
        ),
        chapters: &["why-retry", "which-errors"],
    },
    Rule {
        text: Text(
            "Bound the attempts and the time: a few attempts, a timeout well above the median, a deadline they all fit in.",
        ),
        chapters: &["timeout", "deadline", "retry-cost"],
    },
    Rule {
        text: Text("Back off exponentially, with full jitter, each client with a seed of its own."),
        chapters: &[
            "jitter",
            "backoff-for",
            "herd",
            "shared-seed",
            "storm",
            "contention",
        ],
    },
    Rule {
        text: Text(
            "Add a retry budget, a token bucket or a breaker, and keep the one your SDK ships.",
        ),
        chapters: &["budget", "open-loop", "bucket-or-breaker", "defaults"],
    },
    Rule {
        text: Text(
            "In an overload, throttle first tries at the client, and count its rejections apart from the server's failures.",
        ),
        chapters: &["throttle"],
    },
    Rule {
        text: Text(
            "Size per-instance budgets and breakers for one instance's traffic, not the fleet's.",
        ),
        chapters: &["at-scale"],
    },
    Rule {
        text: Text("Give retries one owner: one layer retries, the others fail fast."),
        chapters: &["layers", "orphans"],
    },
    Rule {
        text: Text(
            "Send an idempotency key with every operation that changes something, the same key on every attempt.",
        ),
        chapters: &["idempotency"],
    },
    Rule {
        text: Text("Hedge slow calls near their 95th percentile, and only with capacity to spare."),
        chapters: &["hedge", "hedge-busy", "fan-out"],
    },
    Rule {
        text: Text(
            "When a service collapses, take the load off longer than its queue takes to drain, and map the triggers your policy does not come back from.",
        ),
        chapters: &["recover", "trigger"],
    },
    Rule {
        text: Text(
            "Watch calls per operation and budget refusals beside success: if success barely grew while the load did, revisit the policy.",
        ),
        chapters: &["monitor"],
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prose::{self, Facts};
    use retry_analyses::seeds::over_seeds;

    /// An address is read once into a value: addresses of one meaning
    /// (pairs in another order, a key given twice, a value spelled
    /// otherwise, a fragment) open one value, embed and language included;
    /// and every preset's and chapter's link, written from the value it
    /// opens, opens that value again.
    #[test]
    fn addresses_of_one_meaning_open_one_value() {
        let one = opened("?v=1&attempts=3&base=0.1&embed=load&lang=ru");
        for same in [
            "?lang=ru&embed=load&base=0.1&attempts=3&v=1",
            "v=1&attempts=5&attempts=3&base=0.10&embed=load&lang=ru#t=4",
        ] {
            assert_eq!(opened(same), one, "{same}");
        }
        // The fragment's instant is read with it, and only it differs.
        let at = opened("?v=1&attempts=3&base=0.1&embed=load&lang=ru#at=6.26");
        assert_eq!(at.instant, Some(6.26));
        assert_eq!(
            Opened {
                instant: None,
                ..at
            },
            one
        );
        assert!(one.embed.is_some());
        assert_eq!(one.lang, Some(Lang::Ru));
        assert_ne!(opened("?v=1&attempts=3&base=0.1&lang=ru"), one, "no embed");
        for preset in PRESETS {
            let first = opened(&format!("preset={}", preset.key));
            let again = opened(&first.config.to_link());
            assert_eq!(again.config, first.config, "{}", preset.key);
        }
        for chapter in CHAPTERS {
            let place = Place::Chapter(chapter);
            let first = opened(&format!("chapter={}", chapter.key));
            let written = link(place, &first.config, first.present);
            assert_eq!(opened(&written), first, "{}", chapter.key);
        }
    }

    #[test]
    fn a_bare_address_opens_the_first_preset_and_fragments_are_dropped() {
        assert_eq!(open(""), (PRESETS[0].config(), vec![]));
        assert_eq!(open("?"), (PRESETS[0].config(), vec![]));
        assert_eq!(
            open("https://example.org/retry/?"),
            (PRESETS[0].config(), vec![])
        );
        let (config, notices) = open("?v=1&seed=5#x");
        assert_eq!(notices, []);
        assert_eq!(config.seed(), 5);
    }

    /// The command line, the page's report JSON and `retryPlayground.run`
    /// are all given whole addresses, as a person copies them.
    #[test]
    fn a_whole_address_opens_its_query() {
        let (config, notices) = open("http://127.0.0.1:8080/?v=1&attempts=8#t=3");
        assert_eq!(notices, []);
        assert_eq!(config, Config::from_link("v=1&attempts=8").0);
        assert_eq!(open("https://example.org/retry/?").0, PRESETS[0].config());
    }

    /// The preset links of the version before the course, as people
    /// shared them: each still opens the same settings, with no notice,
    /// and teaches the same preset's lesson.
    const SHARED_BEFORE: &[(&str, &str)] = &[
        (
            "herd",
            "v=1&compare=on&attempts=8&base=0.2&cap=10&jitter=none&timeout=0&workload=crowd&clients=2000&horizon=30&buckets=300&failure=0&outage_at=0&outage_for=5&workers=100&queue=200&B.jitter=full",
        ),
        (
            "shared-seed",
            "v=1&compare=on&attempts=8&base=0.2&cap=10&timeout=0&workload=crowd&clients=2000&horizon=30&buckets=300&failure=0&outage_at=0&outage_for=5&workers=100&queue=200&shared=on&B.shared=off",
        ),
        (
            "storm",
            "v=1&compare=on&attempts=3&shape=constant&base=0.001&jitter=none&timeout=3&rate=40&spike=80&spike_for=5&horizon=80&buckets=160&failure=0&workers=0&service=constant&service_t=1&slope=0.01&hop_mean=0.1&B.shape=exponential&B.base=20&B.cap=1000&B.jitter=full",
        ),
        (
            "budget",
            "v=1&compare=on&attempts=3&shape=constant&base=0.001&jitter=none&timeout=3&rate=40&spike=80&spike_for=5&horizon=80&buckets=160&failure=0&workers=0&service=constant&service_t=1&slope=0.01&hop_mean=0.1&B.budget=ratio&B.b_floor=1&B.b_basis=requests",
        ),
        (
            "layers",
            "v=1&compare=on&attempts=3&rate=10&horizon=20&buckets=80&failure=1&workers=0&layers=3&B.top_only=on",
        ),
        (
            "lost-response",
            "v=1&compare=on&timeout=0.5&idem=off&rate=50&horizon=30&buckets=120&failure=0&workers=0&lost=0.2&B.idem=on",
        ),
        (
            "deadline",
            "v=1&compare=on&timeout=2&deadline=2&rate=20&horizon=20&buckets=80&failure=0&workers=0&lost=0.5&B.timeout=0.4",
        ),
        (
            "contention",
            "v=1&attempts=50&base=0.01&cap=2&workload=contention&clients=50&horizon=10&buckets=200&hop=normal&hop_mean=0.01",
        ),
        (
            "classic",
            "v=1&timeout=0&rate=200&horizon=20&sweep=classic&buckets=80&workers=0",
        ),
        (
            "aws-sdk",
            "v=1&compare=on&attempts=3&base=0.05&cap=20&budget=aws-quota&failure=0.01&outage_at=20&outage_for=20&B.budget=none",
        ),
        (
            "grpc",
            "v=1&compare=on&attempts=5&cap=5&budget=token-bucket&failure=0.01&outage_at=20&outage_for=20&B.budget=none",
        ),
    ];

    fn opened_preset_of(key: &str) -> &'static crate::presets::Preset {
        PRESETS
            .iter()
            .find(|p| p.key == key)
            .expect("a preset of that key")
    }

    #[test]
    fn every_preset_link_shared_before_the_course_opens_unchanged() {
        for (key, link) in SHARED_BEFORE {
            let (config, notices) = open(link);
            assert_eq!(notices, [], "{key}");
            assert_eq!(config, Config::from_link(link).0, "{key}");
            let opened = crate::lesson::lesson_state(None, &config).map(|s| s.preset.key);
            assert_eq!(opened, Some(*key), "the lesson a fresh page shows");
            // The gRPC preset took gRPC's own jitter since (x random(0.8,
            // 1.2), gRFC A6's 2024 revision), and the AWS SDK's today's
            // retry costs (14 a retry, timeouts included, botocore 1.44):
            // their old links are the same numbers and lesson, one and two
            // settings from the preset.
            let changed = crate::presets::changed_settings(opened_preset_of(key), &config);
            let expected = match *key {
                "grpc" => 1,
                "aws-sdk" => 2,
                _ => 0,
            };
            assert_eq!(changed, expected, "{key}");
        }
    }

    /// `preset=KEY` is a preset's short link: alone its world, with
    /// settings those over it, in any case; an unknown one says so and is
    /// ignored; a chapter beside it wins. Every preset's world gives its
    /// short link back, and a changed world none.
    #[test]
    fn a_preset_opens_by_its_short_link() {
        for preset in PRESETS {
            let link = preset_link(&preset.config()).expect("a preset's world");
            assert_eq!(link, format!("preset={}", preset.key));
            assert_eq!(open(&link), (preset.config(), vec![]), "{link}");
            assert_eq!(open(&format!("v=1&{link}&lang=ru")).0, preset.config());
        }
        let herd = &PRESETS[0];
        assert_eq!(open("preset=HERD").0, herd.config());
        let (more, notices) = open("preset=herd&clients=300");
        assert_eq!(notices, []);
        assert_eq!(more, lesson::apply(&herd.config(), "clients=300"));
        assert_eq!(preset_link(&more), None);
        let (unknown, notices) = open("preset=nothing&attempts=2");
        assert_eq!(unknown, Config::from_link("attempts=2").0);
        let said: Vec<&Notice> = notices.iter().filter(|n| n.key == "preset").collect();
        assert_eq!(said.len(), 1, "{notices:?}");
        assert!(said[0].message.contains("no preset 'nothing'"));
        let chapter = &CHAPTERS[1];
        let opened = opened(&format!("preset=herd&chapter={}", chapter.key));
        assert_eq!(opened.config, chapter.config());
    }

    #[test]
    fn a_chapter_alone_opens_its_world_and_with_settings_those() {
        let jitter = Place::find("JITTER").expect("found in any case");
        let alone = opened("?chapter=jitter");
        assert_eq!(alone.place, Some(jitter));
        assert_eq!((alone.config, alone.notices), (jitter.config(), vec![]));
        // The version alone is no setting, nor what an embed shows.
        assert_eq!(open("?v=1&chapter=jitter").0, jitter.config());
        assert_eq!(
            open("?v=1&chapter=jitter&embed&controls=jitter").0,
            jitter.config()
        );
        let own = opened("?v=1&clients=100&chapter=jitter&present=on");
        assert_eq!(own.config, Config::from_link("v=1&clients=100").0);
        assert_eq!(own.present, Present::Room);
        assert_eq!(
            opened("?chapter=jitter&present=notes").present,
            Present::Notes
        );
        assert_eq!(
            opened("?chapter=jitter&present=%3Cb%3E").present,
            Present::Off
        );
        assert_eq!(opened("?chapter=monday").place, Some(Place::Monday));
        // The guide is the last page's; the exercise opens its world, or
        // the link's settings in it.
        let guide = opened("?chapter=jitter&present=guide");
        assert_eq!(
            (guide.place, guide.present),
            (Some(Place::Monday), Present::Guide)
        );
        let exercise = opened("?present=exercise");
        assert_eq!(exercise.place, None);
        assert_eq!(exercise.config, crate::exercise::world());
        assert_eq!(exercise.notices, []);
        let designed = opened(&format!("?{}", crate::exercise::reference().to_link()));
        assert!(crate::exercise::applies(&designed.config));
        // An unknown chapter is said, and the course opens at its start.
        let unknown = opened("?chapter=%3Cb%3Enope");
        assert_eq!(unknown.place, Some(Place::Chapter(&CHAPTERS[0])));
        assert_eq!(unknown.notices.len(), 1);
        assert!(unknown.notices[0].message.contains("'<b>nope'"));
    }

    #[test]
    fn a_chapters_link_is_its_word_until_its_settings_change() {
        for (i, chapter) in CHAPTERS.iter().enumerate() {
            let place = Place::Chapter(chapter);
            assert_eq!(
                link(place, &chapter.config(), Present::Off),
                format!("chapter={}", chapter.key)
            );
            let turned = lesson::apply(&chapter.config(), "seed=7");
            let shared = link(place, &turned, Present::Room);
            let back = opened(&shared);
            assert_eq!(
                (back.place, back.config, back.present),
                (Some(place), turned, Present::Room)
            );
            if chapter.is_core() {
                assert_eq!((place.index(), chapter.number()), (i, i + 1));
            }
        }
        assert_eq!(Place::Chapter(&CHAPTERS[0]).back(), None);
        assert_eq!(
            Place::Chapter(&CHAPTERS[CORE - 1]).next(),
            Some(Place::Monday)
        );
        assert_eq!(Place::Monday.next(), None);
        assert_eq!(
            Place::Monday.back(),
            Some(Place::Chapter(&CHAPTERS[CORE - 1]))
        );
    }

    /// A chapter's question and answers come before the runs: filled from
    /// the settings, they must name nothing the runs decide, and every
    /// name must mean something.
    #[test]
    fn questions_give_nothing_away_and_every_name_means_something() {
        for chapter in CHAPTERS {
            let config = chapter.config();
            let question = prose::fill(chapter.question.0, &Facts::settings(&config)).text;
            assert!(
                !question.contains('{') && !question.contains('\u{2026}'),
                "{}: {question}",
                chapter.key
            );
            assert!((2..=4).contains(&chapter.answers.len()), "{}", chapter.key);
            match chapter.judge {
                Judge::Better(_) => assert!(chapter.answers.len() <= 3, "{}", chapter.key),
                Judge::Band { edges, .. } => {
                    assert_eq!(chapter.answers.len(), edges.len() + 1, "{}", chapter.key)
                }
                Judge::Moves { signals, .. } => {
                    assert!((0..=1).contains(&(chapter.answers.len() - signals.len())))
                }
            }
            assert!(!chapter.takeaway.0.is_empty() && !chapter.title.0.is_empty());
            // The knob is a control the page has.
            assert!(
                retry_sim::config::PARAMS
                    .iter()
                    .any(|p| std::ptr::eq(p, chapter.knob.param()))
            );
        }
        let keys: Vec<_> = CHAPTERS.iter().map(|c| c.key).collect();
        for (i, key) in keys.iter().enumerate() {
            assert!(
                !keys[i + 1..].contains(key) && *key != MONDAY_KEY,
                "{key} twice"
            );
        }
        for rule in MONDAY {
            assert!(!rule.chapters.is_empty());
            for key in rule.chapters {
                assert!(keys.contains(key), "a rule names no chapter '{key}'");
            }
        }
        // Every chapter's takeaway is on the last page, through a rule.
        for key in &keys {
            assert!(
                MONDAY.iter().any(|r| r.chapters.contains(key)),
                "no rule for {key}"
            );
        }
    }

    /// A band's answer that names a number names one inside its band: "About
    /// 99 %" is not the answer for 85-95 %.
    #[test]
    fn a_bands_numbers_lie_in_its_band() {
        for chapter in CHAPTERS {
            let Judge::Band { metric, edges, .. } = chapter.judge else {
                continue;
            };
            let scale = match metric.number().format {
                retry_sim::metrics::Format::Share => 100.0,
                _ => 1.0,
            };
            for (i, answer) in chapter.answers.iter().enumerate() {
                let low = if i == 0 {
                    f64::NEG_INFINITY
                } else {
                    edges[i - 1] * scale
                };
                let high = edges.get(i).map_or(f64::INFINITY, |e| e * scale);
                for word in answer.0.split(|c: char| !c.is_ascii_digit() && c != '.') {
                    if let Ok(number) = word.parse::<f64>() {
                        assert!(
                            (low..high).contains(&number),
                            "{}: '{answer}' names {number}, outside {low}..{high}",
                            chapter.key
                        );
                    }
                }
            }
        }
    }

    /// What each chapter's lesson needs its runs to show, as the index of
    /// the answer. The page never reads this: it shows the answer it
    /// computes from the runs. Change a chapter's world so its lesson no
    /// longer holds and this fails.
    const LESSONS: &[(&str, usize)] = &[
        ("why-retry", 2),
        ("which-errors", 2),
        ("timeout", 0),
        ("deadline", 1),
        ("jitter", 1),
        ("open-loop", 2),
        ("budget", 1),
        ("at-scale", 2),
        ("layers", 2),
        ("idempotency", 1),
        ("hedge-busy", 0),
        ("recover", 0),
        ("backoff-for", 1),
        ("hedge", 1),
        ("monitor", 1),
        ("retry-cost", 1),
        ("herd", 1),
        ("shared-seed", 1),
        ("storm", 1),
        ("contention", 1),
        ("bucket-or-breaker", 1),
        ("defaults", 0),
        ("throttle", 1),
        ("trigger", 0),
        ("orphans", 1),
        ("fan-out", 2),
    ];

    /// Every chapter's answer is what its runs show on its seeds: a
    /// verdict on nine seeds in ten or more, or a band every seed falls in
    /// (not only the median), so the answer is not one seed's luck.
    #[test]
    fn every_chapters_answer_is_what_its_runs_show() {
        assert_eq!(LESSONS.len(), CHAPTERS.len());
        for (chapter, (key, expected)) in CHAPTERS.iter().zip(LESSONS) {
            assert_eq!(chapter.key, *key);
            let seeds = over_seeds(&chapter.config());
            assert!(seeds.count() >= 10, "{key}: {} seeds", seeds.count());
            assert_eq!(chapter.answer(&seeds), Some(*expected), "{key}");
            match chapter.judge {
                // No real difference is the headlines' own verdict: no lead
                // that matters on nine seeds in ten either way.
                Judge::Better(metric) if *expected == 2 => assert_eq!(
                    seeds.verdict(metric),
                    Some(Verdict::NoRealDifference),
                    "{key}"
                ),
                Judge::Better(metric) => assert!(
                    matches!(seeds.verdict(metric), Some(Verdict::Better(_, on)) if on >= 9),
                    "{key}: {:?}",
                    seeds.verdict(metric)
                ),
                Judge::Band {
                    metric,
                    side,
                    edges,
                } => {
                    for value in seeds.values(metric, side) {
                        let band = edges.iter().filter(|&&e| value >= e).count();
                        assert_eq!(band, *expected, "{key}: a seed at {value}");
                    }
                }
                // The same signal moves furthest on every seed.
                Judge::Moves {
                    side,
                    signals,
                    near,
                } => {
                    let each: Vec<Vec<f64>> = signals
                        .iter()
                        .map(|&(metric, _)| seeds.values(metric, side).collect())
                        .collect();
                    for seed in 0..seeds.count() {
                        let moves: Vec<f64> = signals
                            .iter()
                            .zip(&each)
                            .map(|(&(_, healthy), values)| (values[seed] - healthy).abs())
                            .collect();
                        let answer = furthest(&moves, near, chapter.answers.len());
                        assert_eq!(answer, Some(*expected), "{key}: seed {seed} {moves:?}");
                    }
                }
            }
        }
    }

    /// The keys of the course's chapters before the core path: each still
    /// opens its chapter, in the same world.
    const KEYS_BEFORE: &[&str] = &[
        "why-retry",
        "retry-cost",
        "timeout",
        "hedge",
        "hedge-busy",
        "herd",
        "jitter",
        "shared-seed",
        "storm",
        "backoff-for",
        "open-loop",
        "budget",
        "throttle",
        "layers",
        "idempotency",
        "deadline",
        "contention",
        "bucket-or-breaker",
        "at-scale",
        "trigger",
        "defaults",
    ];

    /// The core path: at most 12 chapters a room takes in about 50
    /// minutes, in the order of the last page's rules; every other chapter
    /// an extra, one step from its home and back to the path.
    #[test]
    fn the_core_path_is_twelve_chapters_in_the_rules_order() {
        assert!(CORE <= 12 && CORE < CHAPTERS.len());
        let core: Vec<&str> = CHAPTERS[..CORE].iter().map(|c| c.key).collect();
        assert_eq!(
            core,
            [
                "why-retry",
                "which-errors",
                "timeout",
                "deadline",
                "jitter",
                "open-loop",
                "budget",
                "at-scale",
                "layers",
                "idempotency",
                "hedge-busy",
                "recover"
            ]
        );
        // Grouped as the last page groups its rules: a rule's core chapters
        // come after every earlier rule's.
        let rule_of = |key: &str| MONDAY.iter().position(|r| r.chapters.contains(&key));
        let rules: Vec<_> = core.iter().map(|k| rule_of(k).expect("a rule")).collect();
        assert!(rules.windows(2).all(|w| w[0] <= w[1]), "{rules:?}");
        for (minutes, chapter) in CHAPTERS.iter().map(|c| (c.notes().minutes, c)) {
            assert!((2..=4).contains(&minutes), "{}: {minutes} min", chapter.key);
        }
        let minutes: u32 = CHAPTERS[..CORE].iter().map(|c| c.notes().minutes).sum();
        assert!(
            (40..=60).contains(&minutes),
            "the core path takes {minutes} min"
        );
        for (i, chapter) in CHAPTERS.iter().enumerate() {
            let place = Place::Chapter(chapter);
            if i < CORE {
                assert!(chapter.is_core() && std::ptr::eq(chapter.home(), chapter));
                assert_eq!(place.index(), i);
                continue;
            }
            let home = chapter.home();
            assert!(home.is_core(), "{}", chapter.key);
            assert_eq!(place.back(), Some(Place::Chapter(home)), "{}", chapter.key);
            assert_eq!(place.next(), Place::Chapter(home).next(), "{}", chapter.key);
            assert!(home.extras().any(|e| std::ptr::eq(e, chapter)));
        }
        assert_eq!(
            Place::Monday.back(),
            Some(Place::Chapter(&CHAPTERS[CORE - 1]))
        );
        assert_eq!(
            Place::Chapter(&CHAPTERS[CORE - 1]).next(),
            Some(Place::Monday)
        );
        for key in KEYS_BEFORE {
            let opened = opened(&format!("chapter={key}"));
            match opened.place {
                Some(Place::Chapter(chapter)) => assert_eq!(chapter.key, *key),
                other => panic!("{key} opens {other:?}"),
            }
            assert_eq!(opened.notices, [], "{key}");
        }
    }

    /// An option names an answer; the reason is the reveal's. No option
    /// carries a word of the chapter's takeaway that its question does not
    /// already use, nor a clause after a colon.
    #[test]
    fn no_option_carries_its_own_explanation() {
        // Words that explain nothing by themselves.
        const FUNCTION: &[&str] = &["about", "under", "their", "which", "other", "every"];
        let words = |text: &str| -> Vec<String> {
            text.split(|c: char| !c.is_alphanumeric())
                .filter(|w| w.chars().count() >= 5)
                .map(str::to_lowercase)
                .filter(|w| !FUNCTION.contains(&w.as_str()))
                .collect()
        };
        for chapter in CHAPTERS {
            let asked = words(chapter.question.0);
            let told = words(chapter.takeaway.0);
            for answer in chapter.answers {
                assert!(!answer.0.contains(':'), "{}: '{answer}'", chapter.key);
                for word in words(answer.0) {
                    assert!(
                        asked.contains(&word) || !told.contains(&word),
                        "{}: '{answer}' says '{word}', which the takeaway explains",
                        chapter.key
                    );
                }
            }
        }
    }

    /// Each chapter's knob moves the runs' answer somewhere in its
    /// teaching range: at one of its ends, or for a choice at one of its
    /// choices, the answer differs from the chapter's own. The range
    /// holds the chapter's own value and lies in the knob's.
    #[test]
    fn every_knob_moves_the_answer_within_its_teaching_range() {
        for chapter in CHAPTERS {
            let config = chapter.config();
            let own = config.get(chapter.knob);
            let values: Vec<f64> = match (chapter.teaches, chapter.knob.param().kind) {
                (Some((low, high)), retry_sim::config::Kind::Number { min, max, .. })
                | (Some((low, high)), retry_sim::config::Kind::Integer { min, max }) => {
                    assert!(
                        min <= low && low <= own && own <= high && high <= max,
                        "{}",
                        chapter.key
                    );
                    vec![low, high]
                }
                (None, retry_sim::config::Kind::Choice(words, _)) => {
                    (0..words.len()).map(|i| i as f64).collect()
                }
                (teaches, _) => panic!("{}: a range {teaches:?} for this knob", chapter.key),
            };
            let answer = chapter.answer(&over_seeds(&config));
            let moved: Vec<_> = values
                .iter()
                .map(|&value| {
                    let mut there = config.clone();
                    there.set(chapter.knob, value);
                    chapter.answer(&over_seeds(&there))
                })
                .collect();
            assert!(
                moved.iter().any(|m| *m != answer),
                "{}: the answer stays {answer:?} over {values:?}",
                chapter.key
            );
            // `-- --nocapture` prints the table the course's notes quote.
            println!(
                "{:18} {}={own}: {answer:?}; at {values:?}: {moved:?}",
                chapter.key,
                chapter.knob.param().key
            );
        }
    }

    /// Every chapter's naive model predicts one of its answers from its
    /// settings; on the core path at least [`CORE_TRAPS`] of them are
    /// traps, the model's answer not the runs'. `-- --nocapture` prints
    /// the table the note on the course quotes.
    #[test]
    fn the_core_path_is_mostly_traps() {
        let mut traps = 0;
        for chapter in CHAPTERS {
            let config = chapter.config();
            let predicted = chapter.trap(&config);
            assert!(
                predicted.is_some_and(|i| i < chapter.answers.len()),
                "{}: {:?} predicts {predicted:?}",
                chapter.key,
                chapter.trap
            );
            let runs = chapter.answer(&over_seeds(&config));
            let trap = predicted != runs;
            traps += usize::from(trap && chapter.is_core());
            println!(
                "{:18} {:5} {:45} predicts {:?}, the runs {:?}",
                chapter.key,
                if chapter.is_core() { "core" } else { "extra" },
                chapter.trap.name().0,
                chapter.answers[predicted.expect("held above")].0,
                runs.map(|i| chapter.answers[i].0)
            );
            assert!(!chapter.notes().ask.0.is_empty() && !chapter.notes().tempting.0.is_empty());
        }
        assert!(traps >= CORE_TRAPS, "{traps} traps on the core path");
    }

    /// The jitter chapter's takeaway says where it holds: full jitter
    /// wins the chapter's crowd and a larger one, no jitter a crowd of a
    /// thousand clients and fewer, across its knob's teaching range.
    #[test]
    fn the_jitter_takeaway_holds_where_it_says() {
        let chapter = CHAPTERS
            .iter()
            .find(|c| c.key == "jitter")
            .expect("a chapter");
        let (low, high) = chapter.teaches.expect("a number");
        for (clients, winner) in [(low, 0), (500.0, 0), (1000.0, 0), (2000.0, 1), (high, 1)] {
            let mut config = chapter.config();
            config.set(chapter.knob, clients);
            let answer = chapter.answer(&over_seeds(&config));
            assert_eq!(answer, Some(winner), "{clients} clients");
        }
    }

    /// The core path's traps the workshop needs: a room that guessed
    /// right on most chapters learns little from the reveal.
    const CORE_TRAPS: usize = 8;

    /// No question gives its answer away by showing two of its time
    /// limits equal (a timeout as long as the deadline): each limit a
    /// question fills differs from the other limits it fills.
    const LIMITS: [P; 4] = [P::Timeout, P::Deadline, P::CallTimeout, P::HedgeDelay];

    #[test]
    fn no_question_shows_two_limits_equal() {
        for chapter in CHAPTERS {
            let config = chapter.config();
            let b = config.policy_b_config();
            let filled = prose::fill(chapter.question.0, &Facts::settings(&config));
            let limits: Vec<(Side, P, f64)> = filled
                .numbers
                .iter()
                .filter_map(|n| match n.source {
                    prose::Source::Param(p) if LIMITS.contains(&p) => {
                        let value = match n.side {
                            Side::A => config.get(p),
                            Side::B => b.get(p),
                        };
                        Some((n.side, p, value))
                    }
                    _ => None,
                })
                .collect();
            for (i, one) in limits.iter().enumerate() {
                for other in &limits[i + 1..] {
                    assert!(
                        one.1 == other.1 || one.2 != other.2,
                        "{}: {one:?} and {other:?} are equal",
                        chapter.key
                    );
                }
            }
        }
    }
}
