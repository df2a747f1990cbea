//! The facilitator's guide (`present=guide`): a 90-minute session's
//! agenda and, per core chapter, what to point at on its chart, the trap
//! and why rooms fall into it, a question for the room with the answers to
//! expect, and two values of its knob with what the runs answer there.
//! Everything comes from the course itself (its chapters, their presets'
//! "what the eye must see", their traps), and the outcomes from runs the
//! caller measures, so the guide cannot drift from the page.

use crate::course::{CHAPTERS, CORE, Chapter, MONDAY_KEY, Place, Present, link};
use crate::prose::{self, Facts};
use retry_core::tf;
use retry_core::words::{Text, tr};
use retry_sim::config::{Config, Kind};

/// Minutes of the session's parts that are no chapter.
pub const INTRODUCTION: u32 = 5;
pub const BREAK: u32 = 10;
pub const EXERCISE: u32 = 15;
pub const CLOSING: u32 = 10;

/// After which core chapter the break comes.
const BREAK_AFTER: usize = CORE / 2;

/// One row of the agenda: when it starts, what, for how long.
#[derive(Debug, Clone, PartialEq)]
pub struct Slot {
    /// Minutes from the start, as "0:05".
    pub at: String,
    pub what: String,
    pub minutes: u32,
}

/// One core chapter as the facilitator prepares it.
#[derive(Debug, Clone, PartialEq)]
pub struct GuideChapter {
    pub number: usize,
    pub title: &'static str,
    /// Its link, presenting to the room.
    pub link: String,
    pub minutes: u32,
    /// What to point at on the chart: its preset's "what the eye must see".
    pub point_at: &'static str,
    /// The trap's model, its prediction and why it tempts.
    pub trap: String,
    /// The answer its runs bear out, once measured.
    pub runs: Option<&'static str>,
    /// The question for the room after the reveal.
    pub ask: &'static str,
    /// The knob's name, as its control labels it.
    pub knob: &'static str,
    /// The knob moved to two values, each with the runs' answer there
    /// (`None` while measuring).
    pub tried: Vec<(String, Option<&'static str>)>,
}

impl GuideChapter {
    /// What the facilitator reads of the chapter, each line a label and its
    /// words: what to point at, the trap, the question, the runs' answer.
    pub fn kit(&self) -> [(&'static str, String); 4] {
        [
            (tr("Point at"), self.point_at.to_string()),
            (tr("The trap"), self.trap.clone()),
            (tr("Ask the room"), self.ask.to_string()),
            (
                tr("The runs' answer"),
                self.runs.unwrap_or(tr("still measuring")).to_string(),
            ),
        ]
    }

    /// Each tried value of the knob with the runs' answer there, after
    /// the knob's name.
    pub fn outcomes(&self) -> impl Iterator<Item = String> + '_ {
        self.tried.iter().map(|(value, answer)| {
            tf!(
                "{value}: the runs answer \u{201c}{answer}\u{201d}.",
                value = value,
                answer = answer.unwrap_or(tr("still measuring"))
            )
        })
    }
}

/// The whole guide.
#[derive(Debug, Clone, PartialEq)]
pub struct Guide {
    pub agenda: Vec<Slot>,
    pub chapters: Vec<GuideChapter>,
    pub total: u32,
}

/// A value of a chapter's knob as the page writes it, with its unit.
pub fn knob_value(chapter: &Chapter, value: f64) -> String {
    let mut config = chapter.config();
    config.set(chapter.knob, value);
    let param = chapter.knob.param();
    // A share (a setting between 0 and 1) reads in per cent.
    let share = matches!(param.kind, Kind::Number { max, .. } if max <= 1.0);
    let name = format!("{}{}", param.key, if share { "%" } else { "" });
    prose::fill(&format!("{{{name}}}"), &Facts::settings(&config)).text
}

/// The configurations whose answers the guide shows: each core chapter's
/// own, then its knob at each tried value, in the order [`guide`] reads
/// them.
pub fn measured() -> Vec<(&'static Chapter, Config)> {
    let mut all = Vec::new();
    for chapter in &CHAPTERS[..CORE] {
        all.push((chapter, chapter.config()));
        for value in chapter.tried() {
            let mut config = chapter.config();
            config.set(chapter.knob, value);
            all.push((chapter, config));
        }
    }
    all
}

/// The guide, with the answers measured so far: `answers[i]` is the runs'
/// answer for `measured()[i]`, missing ones still being measured.
pub fn guide(answers: &[Option<usize>]) -> Guide {
    let mut answer = answers.iter().copied().chain(std::iter::repeat(None));
    let mut chapters = Vec::new();
    for chapter in &CHAPTERS[..CORE] {
        let config = chapter.config();
        let named = |i: Option<usize>| i.and_then(|i| chapter.answers.get(i)).map(|a| a.get());
        let runs = named(answer.next().flatten());
        let tried = chapter
            .tried()
            .into_iter()
            .map(|value| (knob_value(chapter, value), named(answer.next().flatten())))
            .collect();
        let trap = chapter.trap(&config).map_or_else(String::new, |guess| {
            tf!(
                "\u{201c}{model}\u{201d} predicts \u{201c}{guess}\u{201d}: {why}",
                model = chapter.trap.name(),
                guess = chapter.answers[guess],
                why = chapter.notes().tempting
            )
        });
        chapters.push(GuideChapter {
            number: chapter.number(),
            title: chapter.title.get(),
            link: link(Place::Chapter(chapter), &config, Present::Room),
            minutes: chapter.notes().minutes,
            point_at: chapter
                .notes()
                .point_at
                .unwrap_or(chapter.preset().sees())
                .get(),
            trap,
            runs,
            ask: chapter.notes().ask.get(),
            knob: chapter.knob.param().label.get(),
            tried,
        });
    }
    let mut agenda = Vec::new();
    let mut at = 0;
    let mut slot = |what: String, minutes: u32| {
        agenda.push(Slot {
            at: format!("{}:{:02}", at / 60, at % 60),
            what,
            minutes,
        });
        at += minutes;
    };
    slot(INTRO.get().to_string(), INTRODUCTION);
    for (i, chapter) in chapters.iter().enumerate() {
        slot(
            tf!(
                "Chapter {n}: {title}",
                n = chapter.number,
                title = chapter.title
            ),
            chapter.minutes,
        );
        if i + 1 == BREAK_AFTER {
            slot(tr("Break").to_string(), BREAK);
        }
    }
    slot(GROUP.get().to_string(), EXERCISE);
    slot(CLOSE.get().to_string(), CLOSING);
    Guide {
        agenda,
        chapters,
        total: at,
    }
}

const INTRO: Text = Text(
    "Introduction: what a retry policy is made of (attempts, backoff, jitter, timeout, deadline, budget), how a chapter runs (a question, hands, the reveal, one knob), and that every answer is computed from runs over ten seeds",
);
const GROUP: Text = Text(
    "Group exercise: groups of about five design a policy on their phones; the page grades it",
);
const CLOSE: Text = Text(
    "Closing: each team opens \u{201c}Your system\u{201d} with its own numbers, runs the stress report and notes one change for Monday",
);

/// The guide as Markdown, to print or keep beside the slides.
pub fn markdown(guide: &Guide, base: &str) -> String {
    let mut out = format!("# {}\n\n## {}\n\n", TITLE.get(), tr("Agenda"));
    out.push_str(&format!("| | | {} |\n|---|---|---|\n", tr("min")));
    for slot in &guide.agenda {
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            slot.at, slot.what, slot.minutes
        ));
    }
    out.push_str(&format!(
        "\n{}\n",
        tf!("{total} minutes in all.", total = guide.total)
    ));
    for chapter in &guide.chapters {
        out.push_str(&format!(
            "\n## {} {}\n\n{}: {base}?{}\n\n",
            chapter.number,
            chapter.title,
            tr("Link"),
            chapter.link
        ));
        for (label, text) in chapter.kit() {
            out.push_str(&format!("- **{label}:** {text}\n"));
        }
        for outcome in chapter.outcomes() {
            out.push_str(&format!("- {} {outcome}\n", chapter.knob));
        }
    }
    out.push_str(&format!(
        "\n## {}\n\n{}\n\n",
        GROUP.get(),
        crate::exercise::BRIEF
    ));
    for requirement in crate::exercise::REQUIREMENTS {
        out.push_str(&format!("- {}\n", requirement.text));
    }
    out.push_str(&format!(
        "\n{}: {base}?{}\n\n{}: {base}?{}\n",
        tr("Link"),
        EXERCISE_LINK,
        tr("A reference answer"),
        crate::exercise::reference().to_link()
    ));
    out.push_str(&format!("\n## {}\n\n", CLOSE.get()));
    for (i, step) in CLOSING_STEPS.iter().enumerate() {
        out.push_str(&format!("{}. {}\n", i + 1, step.get()));
    }
    out
}

/// The closing exercise, step by step, on a team's own system.
pub const CLOSING_STEPS: [Text; 4] = [
    Text(
        "Open the playground's \u{201c}Your system\u{201d} and type your service's numbers from a dashboard: its rate, its p50 and p99, its failure rate, its instances.",
    ),
    Text(
        "Paste your retry configuration (an Envoy or Istio route, a gRPC service config, resilience4j properties, an AWS config) under \u{201c}Take it home\u{201d}: it becomes policy A.",
    ),
    Text(
        "Run the stress report: read each fault's verdict, its reasons and the warnings your settings earn.",
    ),
    Text("Write down one change for Monday, and the number that should move."),
];

/// The exercise's link: its world, graded.
pub const EXERCISE_LINK: &str = "present=exercise";

/// The guide's heading.
pub const TITLE: Text = Text("The facilitator's guide");

/// The guide's link: the last page, for the facilitator.
pub fn guide_link() -> String {
    format!("chapter={MONDAY_KEY}&present=guide")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The agenda adds up: the chapters' minutes, the break, the
    /// exercise, the introduction and the closing, each starting where the
    /// one before ends, within the 90 minutes of a workshop.
    #[test]
    fn the_agenda_adds_up_to_a_session() {
        let guide = guide(&[]);
        assert_eq!(guide.chapters.len(), CORE);
        let minutes: u32 = guide.agenda.iter().map(|s| s.minutes).sum();
        assert_eq!(minutes, guide.total);
        assert!((60..=90).contains(&guide.total), "{} min", guide.total);
        let mut at = 0;
        for slot in &guide.agenda {
            assert_eq!(slot.at, format!("{}:{:02}", at / 60, at % 60));
            at += slot.minutes;
        }
        assert_eq!(guide.agenda.len(), CORE + 4);
        assert!(guide.agenda[BREAK_AFTER + 1].what.starts_with("Break"));
    }

    /// Each chapter of the guide carries what to point at, the trap, a
    /// question, its link presenting to the room and two tried values of
    /// its knob; the answers given land where they belong.
    #[test]
    fn each_chapter_has_its_kit_and_the_answers_fall_in_place() {
        let all = measured();
        let answers: Vec<Option<usize>> = (0..all.len()).map(|i| Some(i % 2)).collect();
        let guide = guide(&answers);
        let mut i = 0;
        for (chapter, shown) in CHAPTERS[..CORE].iter().zip(&guide.chapters) {
            assert!(
                shown.point_at.len() > 20 && shown.ask.len() > 20,
                "{}",
                chapter.key
            );
            assert!(shown.trap.contains(chapter.trap.name().0), "{}", shown.trap);
            assert!(shown.link.ends_with("present=on"), "{}", shown.link);
            assert!(shown.tried.len() >= 2, "{}", chapter.key);
            assert_eq!(shown.runs, Some(chapter.answers[i % 2].0));
            i += 1;
            for (value, answer) in &shown.tried {
                assert!(!value.is_empty());
                assert_eq!(*answer, Some(chapter.answers[i % 2].0), "{}", chapter.key);
                i += 1;
            }
        }
        assert_eq!(i, all.len());
    }
}
