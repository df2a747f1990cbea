//! What the course area shows: where the reader is, the question and its
//! answers, whether the reveal is shown, what the runs said of the guess,
//! the one knob, the way back and on; and the last page's rules.
//!
//! The reader's guess and the answer are plain state here, tested
//! natively; the page crate copies [`CourseView`] into the DOM.

use crate::controls;
use retry_analyses::seeds::Seeds;
use retry_core::tf;
use retry_core::words::Text;
use retry_core::words::tr;
use retry_sim::config::{Config, P};
use retry_teach::course::{self, CORE, Chapter, Judge, MONDAY, Place, Present};
use retry_teach::prose::{self, Facts};

/// The reader's way through one chapter.
#[derive(Debug, Clone, PartialEq)]
pub struct Course {
    pub place: Place,
    pub present: Present,
    /// The settings the question was asked about: the ones the page
    /// opened with (the knob shows only after the reveal).
    asked: Config,
    picked: Option<usize>,
    revealed: bool,
    /// What the seeds of the asked settings bear out, once measured.
    answer: Option<Answer>,
    /// The room's show of hands per answer, as the presenter counted it.
    hands: Vec<u32>,
}

/// How a reveal told to the chapter's other windows starts: no place's
/// key starts so.
pub const REVEAL: &str = "!reveal|";

/// The most hands one answer can have: a large hall, not a typo's worth.
pub const MOST_HANDS: u32 = 10_000;

/// The answer the runs bear out, and what they measured.
#[derive(Debug, Clone, PartialEq)]
struct Answer {
    index: Option<usize>,
    evidence: String,
}

/// A link with the words it is shown as.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// The query string, without `?`.
    pub href: String,
    pub text: String,
}

/// One rule of the last page, and the chapters that showed it with their
/// takeaways.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleView {
    pub text: &'static str,
    /// Each chapter's link and takeaway, and whether it is on the core
    /// path: the chapters a room takes, which the handout marks.
    pub chapters: Vec<(Link, &'static str, bool)>,
}

/// What the course area shows.
#[derive(Debug, Clone, PartialEq)]
pub struct CourseView {
    /// "Chapter 3 of 14", or the last page's heading.
    pub of: String,
    pub title: &'static str,
    /// Filled from the settings; empty on the last page.
    pub question: String,
    pub answers: &'static [Text],
    pub picked: Option<usize>,
    /// The chart, its numbers and its lesson are shown.
    pub revealed: bool,
    /// After the reveal: what the runs said of the guess.
    pub verdict: Option<String>,
    /// After a knob move away from the settings asked about: that the
    /// question and the verdict are of those, and the chart of the new.
    pub asked_note: Option<&'static str>,
    /// After the reveal, once measured: the answer the runs bear out.
    pub runs: Option<usize>,
    /// After the reveal of a verdict between A and B: why a lead on the
    /// paired seeds counts where the two ranges overlap.
    pub paired: Option<&'static str>,
    pub takeaway: &'static str,
    pub knob: Option<P>,
    /// The knob's label and help where the chapter names it its own way.
    pub knob_words: Option<(&'static str, &'static str)>,
    /// The knob's slider ends in the chapter, as slider positions: its
    /// teaching range, not the playground's.
    pub knob_slider: Option<(String, String)>,
    pub back: Option<Link>,
    pub next: Option<Link>,
    /// The same settings in the whole playground.
    pub playground: String,
    /// The last page's rules; empty in a chapter.
    pub rules: Vec<RuleView>,
    /// In a core chapter, the extras that go deeper into it.
    pub extras: Vec<Link>,
    /// For the person who teaches; none on the last page.
    pub notes: Option<NotesView>,
    /// Per answer, the room's hands in words ("7 hands, 35 %"), once any
    /// were counted; empty before.
    pub room: Vec<String>,
}

/// A chapter's notes for the person who teaches it.
#[derive(Debug, Clone, PartialEq)]
pub struct NotesView {
    pub minutes: String,
    pub ask: &'static str,
    /// The naive model's answer, computed from the settings asked
    /// about, and why it tempts.
    pub trap: Option<String>,
    /// The answer the runs bear out, once measured.
    pub runs: Option<String>,
}

/// Why a verdict between A and B holds where their ranges overlap.
pub const PAIRED: Text = Text(
    "Each seed runs A and B on the same world with the same random draws, so a lead on \
     nearly every seed is the policy's, not luck, even where the two ranges overlap.",
);

/// The heading of the last page.
pub const MONDAY_TITLE: Text = Text("What to do on Monday");

impl Course {
    pub fn new(place: Place, present: Present, config: &Config) -> Course {
        Course {
            place,
            present,
            asked: config.clone(),
            picked: None,
            revealed: false,
            answer: None,
            hands: Vec::new(),
        }
    }

    /// The room's hands for one answer, as the presenter typed them: out of
    /// range is cut to what a room can hold.
    pub fn set_hands(&mut self, index: usize, count: u32) {
        let answers = self.chapter().map_or(0, |c| c.answers.len());
        if index < answers {
            self.hands.resize(answers, 0);
            self.hands[index] = count.min(MOST_HANDS);
        }
    }

    /// The room's hands per answer, as counted.
    pub fn hands(&self) -> &[u32] {
        &self.hands
    }

    /// The tally as told to the chapter's other windows: the place's key,
    /// then the hands per answer (`jitter|7,3,0`).
    pub fn tally_message(&self) -> String {
        let counts: Vec<String> = self.hands.iter().map(u32::to_string).collect();
        format!("{}|{}", self.place.key(), counts.join(","))
    }

    /// Another window's tally, taken when it is of this place: counts cut
    /// to a hall's worth, anything unreadable none. Whether it was taken.
    pub fn hear_tally(&mut self, message: &str) -> bool {
        let Some((key, counts)) = message.split_once('|') else {
            return false;
        };
        if key != self.place.key() {
            return false;
        }
        for (index, count) in counts.split(',').enumerate() {
            self.set_hands(index, count.trim().parse().unwrap_or(0));
        }
        true
    }

    /// The room's hands per answer in words: none before a hand is
    /// counted.
    fn room(&self) -> Vec<String> {
        let total: u32 = self.hands.iter().sum();
        if total == 0 {
            return Vec::new();
        }
        let share =
            |n: u32| retry_sim::metrics::Format::Share.headline(f64::from(n) / f64::from(total));
        self.hands
            .iter()
            .map(|&n| tf!("{n} {n|hand|hands}, {share}", n = n, share = share(n)))
            .collect()
    }

    /// The preset whose lesson the chapter shows.
    pub fn preset(&self) -> Option<&'static retry_teach::presets::Preset> {
        self.chapter().map(Chapter::preset)
    }

    fn chapter(&self) -> Option<&'static Chapter> {
        match self.place {
            Place::Chapter(chapter) => Some(chapter),
            Place::Monday => None,
        }
    }

    /// The reader's guess, before the reveal; after it the guess stays.
    pub fn pick(&mut self, index: usize) {
        let answers = self.chapter().map_or(0, |c| c.answers.len());
        if !self.revealed && index < answers {
            self.picked = Some(index);
        }
    }

    /// The reader's guess, if any.
    pub fn picked(&self) -> Option<usize> {
        self.picked
    }

    /// What the runs bore out here, as kept for the session's summary:
    /// the place's key and the answer's index (`jitter|1`).
    pub fn answer_message(&self) -> Option<String> {
        let index = self.answer.as_ref()?.index?;
        Some(format!("{}|{index}", self.place.key()))
    }

    /// What a window tells the chapter's others when it reveals: the
    /// place's key and the guess (`!reveal|jitter|1`).
    pub fn reveal_message(&self) -> Option<String> {
        let picked = self.picked.filter(|_| self.revealed)?;
        Some(format!("{REVEAL}{}|{picked}", self.place.key()))
    }

    /// Another window's reveal, taken when it is of this place: its guess
    /// picked and the answer shown. Whether it was taken.
    pub fn hear_reveal(&mut self, message: &str) -> bool {
        let Some((key, picked)) = message
            .strip_prefix(REVEAL)
            .and_then(|rest| rest.split_once('|'))
        else {
            return false;
        };
        if key != self.place.key() || self.revealed {
            return false;
        }
        let Ok(index) = picked.trim().parse::<usize>() else {
            return false;
        };
        self.pick(index);
        self.reveal()
    }

    /// Shows what happens, once there is a guess to hold it to.
    pub fn reveal(&mut self) -> bool {
        self.revealed |= self.picked.is_some();
        self.revealed
    }

    /// The seeds of a state measured: they decide the answer when the state
    /// is the one the question was asked about.
    pub fn measured(&mut self, config: &Config, seeds: &Seeds) {
        let Some(chapter) = self.chapter() else {
            return;
        };
        if *config != self.asked || self.answer.is_some() {
            return;
        }
        self.answer = Some(Answer {
            index: chapter.answer(seeds),
            evidence: retry_teach::evidence::evidence(chapter, seeds),
        });
    }

    /// Whether the reveal has a verdict yet.
    pub fn answered(&self) -> bool {
        self.answer.is_some()
    }

    /// The link of `config` shown here.
    pub fn link(&self, config: &Config) -> String {
        course::link(self.place, config, self.present)
    }

    /// The link a room follows on its phones: the chapter as a reader
    /// sees it, its settings when they changed.
    pub fn follow_link(&self, config: &Config) -> String {
        course::link(self.place, config, Present::Off)
    }

    /// The link that embeds this chapter in another page: its question,
    /// its chart once answered, its knob; never presenting.
    pub fn embed_link(&self, config: &Config) -> String {
        format!(
            "{}&{}",
            self.follow_link(config),
            retry_sim::link::EMBED_KEY
        )
    }

    pub fn title(&self) -> &'static str {
        title(self.place)
    }

    pub fn view(&self, config: &Config) -> CourseView {
        let to = |place: Place| Link {
            href: course::link(place, &place.config(), self.present),
            text: title(place).to_string(),
        };
        let total = CORE;
        let mut view = CourseView {
            of: String::new(),
            title: title(self.place),
            question: String::new(),
            answers: &[],
            picked: self.picked,
            revealed: self.revealed,
            verdict: None,
            asked_note: None,
            runs: None,
            paired: None,
            takeaway: "",
            knob: None,
            knob_words: None,
            knob_slider: None,
            back: self.place.back().map(to),
            next: self.place.next().map(to),
            playground: config.to_link(),
            rules: Vec::new(),
            extras: Vec::new(),
            notes: None,
            room: self.room(),
        };
        match self.chapter() {
            Some(chapter) => {
                view.of = match chapter.is_core() {
                    true => tf!(
                        "Chapter {n} of {total}",
                        n = chapter.number(),
                        total = total
                    ),
                    false => tf!("Extra, after chapter {n}", n = chapter.number()),
                };
                view.extras = chapter
                    .extras()
                    .map(|extra| to(Place::Chapter(extra)))
                    .collect();
                let runs = self.answer.as_ref().and_then(|a| a.index);
                view.notes = Some(NotesView {
                    minutes: tf!("{minutes} min in a room", minutes = chapter.notes().minutes),
                    ask: chapter.notes().ask.get(),
                    trap: chapter.trap(&self.asked).map(|guess| {
                        tf!(
                            "\u{201c}{model}\u{201d} predicts \u{201c}{guess}\u{201d}: {why}",
                            model = chapter.trap.name(),
                            guess = chapter.answers[guess],
                            why = chapter.notes().tempting
                        )
                    }),
                    runs: runs.map(|i| {
                        tf!(
                            "The runs show \u{201c}{shown}\u{201d}.",
                            shown = chapter.answers[i]
                        )
                    }),
                });
                view.question =
                    prose::fill(chapter.question.get(), &Facts::settings(&self.asked)).text;
                view.answers = chapter.answers;
                view.takeaway = chapter.takeaway.get();
                view.knob = Some(chapter.knob);
                view.knob_words = chapter
                    .knob_words()
                    .map(|(label, help)| (label.get(), help.get()));
                view.knob_slider = chapter.teaches.map(|(low, high)| {
                    let at = |v| controls::slider_position(chapter.knob.param(), v).to_string();
                    (at(low), at(high))
                });
                view.verdict = self.revealed.then(|| self.verdict(chapter));
                view.asked_note = (*config != self.asked).then(|| {
                    tr("The question and its answer are of the settings it asked about; the chart, its numbers and its lesson follow the knob. Move it back to see them together again.")
                });
                view.paired = (self.revealed && matches!(chapter.judge, Judge::Better(_)))
                    .then(|| PAIRED.get());
                view.runs = self
                    .answer
                    .as_ref()
                    .and_then(|a| a.index)
                    .filter(|_| self.revealed);
            }
            None => {
                view.of = tf!("After chapter {total}", total = total);
                // On from the course: the playground, every setting open.
                view.next = Some(Link {
                    href: String::new(),
                    text: tr("the playground").to_string(),
                });
                view.revealed = true;
                view.rules = MONDAY
                    .iter()
                    .map(|rule| RuleView {
                        text: rule.text.get(),
                        chapters: rule
                            .chapters
                            .iter()
                            .filter_map(|key| Place::find(key))
                            .map(|place| {
                                let core = matches!(place, Place::Chapter(c) if c.is_core());
                                (to(place), takeaway(place), core)
                            })
                            .collect(),
                    })
                    .collect();
            }
        }
        view
    }

    fn verdict(&self, chapter: &Chapter) -> String {
        let said = self.picked.map_or("", |i| chapter.answers[i].get());
        let Some(answer) = &self.answer else {
            return tf!(
                "You said \u{201c}{said}\u{201d}. Measuring the answer over the seeds\u{2026}",
                said = said
            );
        };
        let held = match answer.index {
            Some(index) if Some(index) == self.picked => {
                tf!(
                    "You said \u{201c}{said}\u{201d}, and the runs agree.",
                    said = said
                )
            }
            Some(index) => tf!(
                "You said \u{201c}{said}\u{201d}; the runs show \u{201c}{shown}\u{201d}.",
                said = said,
                shown = chapter.answers[index]
            ),
            None => tf!(
                "You said \u{201c}{said}\u{201d}; the runs show none of the answers.",
                said = said
            ),
        };
        format!("{held} {}", answer.evidence)
    }
}

/// One chapter of a session, as the last page sums it up.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionRow {
    pub title: &'static str,
    /// Each answer and the room's hands for it.
    pub votes: Vec<(&'static str, u32)>,
    /// The answer the runs bore out, where it was measured.
    pub runs: Option<&'static str>,
    /// The share of the room's hands on it.
    pub share: Option<f64>,
}

/// The session: each core chapter the room voted on, from the tallies
/// and the runs' answers the windows kept (`kept(key)` of
/// [`tally_key`] and [`answer_key`]), in the path's order.
pub fn session(kept: impl Fn(&str) -> Option<String>) -> Vec<SessionRow> {
    course::CHAPTERS
        .iter()
        .filter(|c| c.is_core())
        .filter_map(|chapter| {
            let place = Place::Chapter(chapter);
            let mut course = Course::new(place, Present::Off, &place.config());
            if !course.hear_tally(&kept(&tally_key(chapter.key))?) {
                return None;
            }
            let hands = course.hands().to_vec();
            let total: u32 = hands.iter().sum();
            let runs = kept(&answer_key(chapter.key))
                .and_then(|m| {
                    m.strip_prefix(chapter.key)?
                        .strip_prefix('|')?
                        .parse::<usize>()
                        .ok()
                })
                .filter(|&i| i < chapter.answers.len());
            let votes = |i: usize| hands.get(i).copied().unwrap_or(0);
            Some(SessionRow {
                title: chapter.title.get(),
                votes: (0..chapter.answers.len())
                    .map(|i| (chapter.answers[i].get(), votes(i)))
                    .collect(),
                runs: runs.map(|i| chapter.answers[i].get()),
                share: runs
                    .filter(|_| total > 0)
                    .map(|i| f64::from(votes(i)) / f64::from(total)),
            })
        })
        .collect()
}

/// Where a browser keeps a chapter's tally.
pub fn tally_key(key: &str) -> String {
    format!("retry-playground-tally|{key}")
}

/// Where a browser keeps the answer a chapter's runs bore out.
pub fn answer_key(key: &str) -> String {
    format!("retry-playground-answer|{key}")
}

/// The session as CSV: a row per chapter, its title, each answer's
/// votes, the runs' answer and the room's share on it.
pub fn session_csv(rows: &[SessionRow]) -> String {
    let quote = |text: &str| format!("\"{}\"", text.replace('"', "\"\""));
    let mut out = format!(
        "{},{},{},{}\n",
        quote(tr("chapter")),
        quote(tr("the room's votes")),
        quote(tr("the runs' answer")),
        quote(tr("the room on it"))
    );
    for row in rows {
        let votes: Vec<String> = row.votes.iter().map(|(a, n)| format!("{a}: {n}")).collect();
        out += &format!(
            "{},{},{},{}\n",
            quote(row.title),
            quote(&votes.join("; ")),
            quote(row.runs.unwrap_or("")),
            row.share.map_or(String::new(), |s| format!("{s:.3}"))
        );
    }
    out
}

fn takeaway(place: Place) -> &'static str {
    match place {
        Place::Chapter(chapter) => chapter.takeaway.get(),
        Place::Monday => "",
    }
}

/// A place's title.
pub fn title(place: Place) -> &'static str {
    match place {
        Place::Chapter(chapter) => chapter.title.get(),
        Place::Monday => MONDAY_TITLE.get(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use retry_analyses::seeds::over_seeds;
    use retry_teach::course::CHAPTERS;
    use retry_teach::lesson;

    fn chapter(key: &str) -> Place {
        Place::find(key).expect("a chapter of that key")
    }

    /// A chapter whose world gives its knob another meaning names it its
    /// own way; the others keep the control's words.
    #[test]
    fn a_chapter_may_name_its_knob_its_own_way() {
        let view = |key: &str| {
            let place = chapter(key);
            Course::new(place, Present::Off, &place.config()).view(&place.config())
        };
        let (label, help) = view("recover").knob_words.expect("its own words");
        assert!(label.contains("turned away") && help.contains("turned away"));
        assert_eq!(view("jitter").knob_words, None);
    }

    #[test]
    fn the_reveal_waits_for_a_guess_and_the_guess_for_nothing_after() {
        let place = chapter("jitter");
        let config = place.config();
        let mut course = Course::new(place, Present::Off, &config);
        let view = course.view(&config);
        let number = CHAPTERS
            .iter()
            .position(|c| c.key == "jitter")
            .expect("jitter")
            + 1;
        assert_eq!(view.of, format!("Chapter {number} of {CORE}"));
        assert!(!view.revealed && view.verdict.is_none());
        assert!(!view.question.is_empty() && view.answers.len() == 3);
        assert_eq!(view.knob, Some(P::Clients));
        // The clients' slider is logarithmic: its ends are positions.
        let slider = view.knob_slider.clone().expect("a teaching range");
        let value =
            |at: &str| controls::slider_value(P::Clients.param(), at.parse().expect("a position"));
        assert_eq!((value(&slider.0), value(&slider.1)), (100.0, 4000.0));
        assert!(!course.reveal(), "no reveal before a guess");
        course.pick(7);
        assert!(!course.reveal(), "no such answer");
        course.pick(0);
        assert!(course.reveal());
        course.pick(2);
        let view = course.view(&config);
        assert_eq!(view.picked, Some(0), "the guess stays after the reveal");
        assert!(
            view.verdict
                .expect("a verdict after the reveal")
                .contains("Measuring")
        );
    }

    /// The verdict is the runs': the guess that holds is agreed with, the
    /// one that does not is told what the runs show, with the numbers.
    #[test]
    fn the_verdict_is_what_the_seeds_of_the_asked_settings_show() {
        let place = chapter("jitter");
        let config = place.config();
        let seeds = over_seeds(&config);
        let right = place_answer(place, &seeds);
        for (guess, agrees) in [(right, true), ((right + 1) % 3, false)] {
            let mut course = Course::new(place, Present::Off, &config);
            course.pick(guess);
            course.reveal();
            // Seeds of other settings decide nothing.
            let other = lesson::apply(&config, "clients=100");
            course.measured(&other, &over_seeds(&other));
            assert!(!course.answered());
            course.measured(&config, &seeds);
            let verdict = course
                .view(&config)
                .verdict
                .expect("a verdict after the reveal");
            assert_eq!(verdict.contains("the runs agree"), agrees, "{verdict}");
            assert!(verdict.contains("Over 10 seeds"), "{verdict}");
            if !agrees {
                let Place::Chapter(c) = place else {
                    unreachable!()
                };
                assert!(verdict.contains(c.answers[right].0), "{verdict}");
            }
        }
    }

    fn place_answer(place: Place, seeds: &Seeds) -> usize {
        match place {
            Place::Chapter(chapter) => chapter.answer(seeds).expect("an answer"),
            Place::Monday => unreachable!(),
        }
    }

    /// The embed code of a chapter opens the chapter, embedded, in a
    /// fresh page: the same place and settings, not presenting.
    #[test]
    fn a_chapters_embed_opens_the_chapter_embedded() {
        let place = chapter("layers");
        let config = lesson::apply(&place.config(), "layers=4");
        let course = Course::new(place, Present::Room, &config);
        let snippet = crate::embed::chapter_snippet(
            "https://example.org/",
            &course.embed_link(&config),
            course.title(),
            Some(retry_core::words::Lang::Ru),
        );
        let src = snippet
            .split('"')
            .nth(1)
            .expect("a src")
            .replace("&amp;", "&");
        let query = src
            .strip_prefix("https://example.org/")
            .expect("the page's address");
        let opened = course::opened(query);
        assert_eq!(
            (opened.place, opened.config, opened.present),
            (Some(place), config, Present::Off)
        );
        assert_eq!(
            retry_sim::link::read_link(query).1.map(|e| e.chart),
            Some(retry_sim::link::EmbedChart::Lesson)
        );
        // The embed speaks the language the reader chose, and it is no setting.
        assert_eq!(
            retry_sim::link::link_lang(query),
            Some(retry_core::words::Lang::Ru)
        );
        assert_eq!(opened.notices, []);
        assert!(
            snippet.contains("title=\"Retry playground: One owner of retries\""),
            "{snippet}"
        );
    }

    #[test]
    fn back_and_on_and_the_last_page() {
        let first = Place::Chapter(&CHAPTERS[0]);
        let view = Course::new(first, Present::Room, &first.config()).view(&first.config());
        assert_eq!(view.back, None);
        let next = view.next.expect("a next chapter");
        assert_eq!(next.href, format!("chapter={}&present=on", CHAPTERS[1].key));
        assert_eq!(next.text, CHAPTERS[1].title.0);
        assert_eq!(view.playground, first.config().to_link());
        let monday = Course::new(Place::Monday, Present::Off, &Place::Monday.config())
            .view(&Place::Monday.config());
        assert_eq!(monday.title, MONDAY_TITLE.0);
        assert!(monday.revealed && monday.knob.is_none());
        assert_eq!(monday.next.expect("on to the playground").href, "");
        assert_eq!(monday.rules.len(), MONDAY.len());
        let linked: Vec<_> = monday.rules.iter().flat_map(|r| &r.chapters).collect();
        assert!(linked.len() >= CHAPTERS.len());
        // Every chapter's takeaway gathers here.
        for chapter in CHAPTERS {
            assert!(
                linked.iter().any(|(_, t, _)| *t == chapter.takeaway.0),
                "{}",
                chapter.key
            );
        }
        // The handout marks the core path's chapters, each once.
        let core = linked.iter().filter(|(_, _, core)| *core).count();
        assert_eq!(core, CHAPTERS.iter().filter(|c| c.is_core()).count());
        assert_eq!(
            monday.back.expect("a chapter before").text,
            CHAPTERS[CORE - 1].title.0
        );
    }

    /// The session sums up the chapters the room voted on, in the path's
    /// order, each with its votes, the runs' answer where it was kept, and
    /// the room's share on it; a chapter with no tally is left out.
    #[test]
    fn the_session_sums_up_the_rooms_votes_against_the_runs() {
        let first = &course::CHAPTERS[0];
        let second = &course::CHAPTERS[1];
        let kept = |key: &str| -> Option<String> {
            if key == tally_key(first.key) {
                Some(format!("{}|3,9,0", first.key))
            } else if key == answer_key(first.key) {
                Some(format!("{}|1", first.key))
            } else if key == tally_key(second.key) {
                Some(format!("{}|0,4,4", second.key))
            } else {
                None
            }
        };
        let rows = session(kept);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].title, first.title.get());
        assert_eq!(rows[0].votes[1], (first.answers[1].get(), 9));
        assert_eq!(rows[0].runs, Some(first.answers[1].get()));
        assert_eq!(rows[0].share, Some(0.75));
        assert_eq!((rows[1].runs, rows[1].share), (None, None));
        let csv = session_csv(&rows);
        assert_eq!(csv.lines().count(), 3);
        assert!(
            csv.lines().nth(1).is_some_and(|l| l.ends_with(",0.750")),
            "{csv}"
        );
    }

    /// A knob moved away from the settings asked about marks the question
    /// and its answer as being of those; moved back, the mark goes.
    #[test]
    fn a_knob_moved_marks_the_question_as_the_settings_asked_about() {
        let place = Place::Chapter(&course::CHAPTERS[0]);
        let asked = place.config();
        let course = Course::new(place, Present::Room, &asked);
        assert_eq!(course.view(&asked).asked_note, None);
        let mut moved = asked.clone();
        let knob = course::CHAPTERS[0].knob;
        moved.set(knob, moved.get(knob) * 0.5);
        assert!(course.view(&moved).asked_note.is_some());
        assert_eq!(
            course.view(&moved).question,
            course.view(&asked).question,
            "the question stays the one asked"
        );
    }

    /// A reveal told to another window reveals there the same guess, of
    /// the same place only, once; a message of another kind is not one.
    #[test]
    fn a_reveal_is_told_to_the_chapters_other_windows() {
        let place = Place::Chapter(&course::CHAPTERS[0]);
        let config = place.config();
        let mut presenter = Course::new(place, Present::Notes, &config);
        let mut room = Course::new(place, Present::Room, &config);
        assert_eq!(presenter.reveal_message(), None, "nothing revealed");
        presenter.pick(1);
        assert!(presenter.reveal());
        let message = presenter.reveal_message().expect("revealed");
        assert!(room.hear_reveal(&message));
        assert_eq!(room.picked(), Some(1));
        assert!(!room.hear_reveal(&message), "once");
        let other = Place::Chapter(&course::CHAPTERS[1]);
        let mut elsewhere = Course::new(other, Present::Room, &other.config());
        assert!(!elsewhere.hear_reveal(&message));
        assert!(!elsewhere.hear_reveal(&presenter.tally_message()));
    }

    /// The room's tally: counts per answer as typed, cut to a hall's
    /// worth, nothing shown before a hand is counted, and each answer's
    /// share of all the hands.
    #[test]
    fn the_rooms_tally_counts_and_shares_the_hands() {
        let place = chapter("jitter");
        let config = place.config();
        let mut course = Course::new(place, Present::Room, &config);
        assert!(course.view(&config).room.is_empty());
        course.set_hands(0, 3);
        course.set_hands(1, 9);
        course.set_hands(7, 5);
        assert_eq!(course.hands(), [3, 9, 0]);
        assert_eq!(
            course.view(&config).room,
            ["3 hands, 25.0 %", "9 hands, 75.0 %", "0 hands, 0.0 %"]
        );
        course.set_hands(2, u32::MAX);
        assert_eq!(course.hands()[2], MOST_HANDS);
        course.set_hands(0, 1);
        assert!(course.view(&config).room[0].starts_with("1 hand, "));
        // Told to another window of the chapter, and to no other chapter's.
        let mut other = Course::new(place, Present::Notes, &config);
        assert!(other.hear_tally(&course.tally_message()));
        assert_eq!(other.hands(), course.hands());
        assert!(other.hear_tally("jitter|2,x,99999999999"));
        assert_eq!(other.hands(), [2, 0, 0]);
        assert!(!other.hear_tally("herd|5,5,5") && !other.hear_tally("nonsense"));
        assert_eq!(other.hands(), [2, 0, 0]);
        let monday = Course::new(Place::Monday, Present::Room, &Place::Monday.config());
        let mut monday = monday;
        monday.set_hands(0, 4);
        assert!(monday.hands().is_empty(), "the last page asks nothing");
    }
}
