//! What the page lets people take home as files: each chart as a picture
//! with the words that make it readable on its own, the time series and
//! the sweep as CSV, the whole report as JSON. The data files hold exactly
//! what the command line prints for the same link, so a file from the page
//! and one from `retry-playground --csv` can be diffed.

use plotters::style::RGBColor;
use retry_core::words::tr;

use retry_analyses::sweep;
use retry_core::chart_id::ChartId;
use retry_core::words::Lang;
use retry_draw::{Theme, run_colour};
use retry_sim::config::{Config, Kind, P, PARAMS};
use retry_sim::metrics::Side;
use retry_sim::simulate;
use retry_teach::presets;

use super::jobs::SweepJob;
use retry_draw::Runs;

/// A data file the page offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Data {
    /// The load chart's numbers per time bucket, A's and B's in compare
    /// mode: `retry-playground --csv`.
    Series,
    /// Success and load at failure rates 0-100 %: `retry-playground --sweep`.
    Sweep,
    /// The whole report: `retry-playground LINK`.
    Report,
}

impl Data {
    pub const ALL: [Data; 3] = [Data::Series, Data::Sweep, Data::Report];

    /// The word in the file name and in the button's `data-download`.
    pub fn key(self) -> &'static str {
        match self {
            Data::Series => "series",
            Data::Sweep => "sweep",
            Data::Report => "report",
        }
    }

    pub fn parse(key: &str) -> Option<Data> {
        Data::ALL.into_iter().find(|data| data.key() == key)
    }

    fn extension(self) -> &'static str {
        match self {
            Data::Series | Data::Sweep => "csv",
            Data::Report => "json",
        }
    }

    fn mime(self) -> &'static str {
        match self {
            Data::Series | Data::Sweep => "text/csv",
            Data::Report => "application/json",
        }
    }
}

/// A file ready to be saved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File {
    pub name: String,
    pub mime: &'static str,
    pub text: String,
}

/// What every file name starts with: the preset the settings are (or
/// "custom" once any setting moved away from every preset) and the seed,
/// so two downloads of different states never share a name.
pub fn file_stem(config: &Config) -> String {
    let preset = presets::matching(config).map_or("custom", |preset| preset.key);
    format!("{preset}-seed{}", config.seed())
}

/// The picture's file name for a chart.
pub fn picture_name(config: &Config, chart: ChartId) -> String {
    format!("{}-{}.png", file_stem(config), chart.word())
}

/// The data file for the state, or why the page does not compute it. The
/// sweep is refused where the page refuses to draw it (no failure rate to
/// sweep, or too big to compute without stalling the page).
pub fn data_file(config: &Config, data: Data) -> Result<File, &'static str> {
    data_file_from(config, data, None, None)
}

/// The data file of [`data_file`], from the state's runs and sweep when the
/// page has them finished (else computed here).
pub fn data_file_from(
    config: &Config,
    data: Data,
    runs: Option<&Runs>,
    swept: Option<&SweepJob>,
) -> Result<File, &'static str> {
    let swept = swept.filter(|sweep| sweep.is_of(config));
    let text = match (data, runs) {
        (Data::Series, Some(runs)) => simulate::series_csv(&runs.a, runs.b.as_ref()),
        (Data::Series, None) => {
            let (a, b) = simulate::run_both(config);
            simulate::series_csv(&a, b.as_ref())
        }
        (Data::Sweep, _) => {
            if let Some(why) = sweep::refusal(config) {
                return Err(why);
            }
            swept
                .and_then(SweepJob::csv)
                .unwrap_or_else(|| sweep::to_csv(config))
        }
        // The command line ends its JSON with a newline; so does the file.
        (Data::Report, Some(runs)) => simulate::both_to_json(&runs.a, runs.b.as_ref()) + "\n",
        (Data::Report, None) => simulate::json_for(config) + "\n",
    };
    Ok(File {
        name: format!("{}-{}.{}", file_stem(config), data.key(), data.extension()),
        mime: data.mime(),
        text,
    })
}

/// One line of text written under a chart's picture; `side` gives it that
/// policy's colour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PictureLine {
    pub text: String,
    pub side: Option<Side>,
}

/// The lines under a chart's picture, so it reads on its own in a design
/// review: what the chart shows, whether it was still being computed
/// (`partial`: the cells it had of all of them), which policy each colour
/// is, and the link that reproduces it.
pub fn picture_lines(
    config: &Config,
    caption: &str,
    link: &str,
    partial: Option<(usize, usize)>,
) -> Vec<PictureLine> {
    let mut lines = vec![PictureLine {
        text: caption.trim().to_string(),
        side: None,
    }];
    if let Some((done, total)) = partial {
        lines.push(PictureLine {
            text: retry_core::tf!(
                "Partial: {done} of {total} cells were computed when this picture was taken.",
                done = done,
                total = total
            ),
            side: None,
        });
    }
    lines.push(PictureLine {
        text: policy_line(config, Side::A),
        side: Some(Side::A),
    });
    if config.comparing() {
        lines.push(PictureLine {
            text: policy_line(config, Side::B),
            side: Some(Side::B),
        });
    }
    lines.push(PictureLine {
        text: link.to_string(),
        side: None,
    });
    lines
}

/// A policy's legend line: its colour and every policy setting that
/// matters under the others, as the controls name them.
pub fn policy_line(config: &Config, side: Side) -> String {
    let (name, policy) = match side {
        Side::A => (tr("A (blue)"), config.clone()),
        Side::B => (tr("B (orange)"), config.policy_b_config()),
    };
    let settings: Vec<String> = PARAMS
        .iter()
        .enumerate()
        .filter(|(_, param)| param.per_policy() && (param.applies)(&policy))
        .map(|(index, param)| {
            // A time of 0 means there is none: say so, not "0 s".
            let none = matches!(P::ALL[index], P::Timeout | P::Deadline);
            if none && policy.value_at(index) == 0.0 {
                return retry_core::tf!(
                    "no {label}",
                    label = retry_core::words::lower(param.label.get())
                );
            }
            let value = policy.value_at(index);
            // A choice by its label in the page's language: its word in a
            // link is English.
            let value = match param.kind {
                Kind::Choice(_, labels) if retry_core::words::lang() != Lang::En => {
                    retry_core::words::lower_first(labels[value as usize].get())
                }
                _ => param.format(value),
            };
            let unit = match param.unit.english() {
                "" | "x" => String::new(),
                unit => format!(" {unit}"),
            };
            let value = retry_core::words::number(&format!("{value}{unit}"));
            format!("{} {value}", retry_core::words::lower(param.label.get()))
        })
        .collect();
    retry_core::tf!(
        "Policy {name}: {settings}",
        name = name,
        settings = settings.join(", ")
    )
}

/// How the text under a picture is set, in device pixels for a chart drawn
/// at `scale` device pixels per CSS pixel: the canvas font, the height of
/// one line, and the margin around the text.
pub fn picture_text(scale: f64) -> (String, f64, f64) {
    let size = 13.0 * scale;
    (
        super::canvas::canvas_font("normal", size, "sans-serif"),
        (size * 1.4).ceil(),
        (8.0 * scale).round(),
    )
}

/// A picture line's colour: its policy's, as the charts draw it, else the
/// text colour.
pub fn picture_colour(theme: &Theme, side: Option<Side>) -> String {
    let RGBColor(r, g, b) = match side {
        Some(Side::A) => run_colour(theme, 0),
        Some(Side::B) => run_colour(theme, 1),
        None => theme.foreground,
    };
    format!("rgb({r}, {g}, {b})")
}

/// Breaks `text` into lines no wider than `width` as `measure` counts it:
/// at spaces, or after a link's `&` or `/`, and anywhere in a word longer
/// than a line. Every character is kept, in order.
pub fn wrap(text: &str, width: f64, measure: impl Fn(&str) -> f64) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    // Pieces end after a break opportunity, so joining them gives the text.
    let mut pieces = Vec::new();
    let mut piece = String::new();
    for c in text.chars() {
        piece.push(c);
        if matches!(c, ' ' | '&' | '/') {
            pieces.push(std::mem::take(&mut piece));
        }
    }
    if !piece.is_empty() {
        pieces.push(piece);
    }
    for piece in pieces {
        if measure(format!("{line}{piece}").trim_end()) <= width {
            line += &piece;
            continue;
        }
        if !line.trim_end().is_empty() {
            lines.push(line.trim_end().to_string());
            line = String::new();
        }
        for c in piece.chars() {
            if !line.is_empty() && measure(format!("{line}{c}").trim_end()) > width {
                lines.push(std::mem::take(&mut line));
            }
            line.push(c);
        }
    }
    if !line.trim_end().is_empty() || lines.is_empty() {
        lines.push(line.trim_end().to_string());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{config, preset};
    use crate::jobs::{Job, Step, Wants};
    use retry_teach::lesson;

    #[test]
    fn file_names_say_preset_seed_and_kind() {
        let herd = preset("herd").config();
        let stem = format!("herd-seed{}", herd.seed());
        assert_eq!(
            picture_name(&herd, ChartId::Load),
            format!("{stem}-load.png")
        );
        assert_eq!(
            data_file(&herd, Data::Series).map(|f| f.name),
            Ok(format!("{stem}-series.csv"))
        );
        let custom = config("v=1&attempts=7&seed=7");
        assert_eq!(
            data_file(&custom, Data::Report).map(|f| (f.name, f.mime)),
            Ok(("custom-seed7-report.json".to_string(), "application/json"))
        );
        assert_eq!(
            data_file(&custom, Data::Sweep).map(|f| f.name),
            Ok("custom-seed7-sweep.csv".to_string())
        );
    }

    /// A file's name says the preset `presets::matching` says the state
    /// is, the one the replay opens at, whatever the state: they cannot
    /// disagree. B's values hidden while compare mode is off change no
    /// setting the person sees, so the state is still the preset.
    #[test]
    fn a_file_is_named_for_the_preset_the_state_is() {
        let classic = preset("classic");
        // As the page leaves it after compare mode was on with a B of its
        // own and was switched off again.
        let mut hidden = classic.config();
        let attempts = P::ALL.iter().position(|&p| p == P::Attempts);
        hidden.set_b_at(attempts.expect("a parameter"), 2.0);
        assert!(!hidden.comparing());
        assert_ne!(hidden, classic.config(), "B's value is kept");
        assert_eq!(presets::matching(&hidden).map(|p| p.key), Some("classic"));
        let mut states = vec![hidden, config("v=1&attempts=7&seed=7")];
        for preset in presets::PRESETS {
            let own = preset.config();
            assert_eq!(presets::matching(&own).map(|p| p.key), Some(preset.key));
            for change in [
                "seed=9",
                "compare=off",
                "compare=on&B.cap=3",
                "B.attempts=2",
            ] {
                states.push(lesson::apply(&own, change));
            }
            states.push(own);
        }
        for state in &states {
            let named = presets::matching(state).map_or("custom", |p| p.key);
            assert_eq!(
                file_stem(state),
                format!("{named}-seed{}", state.seed()),
                "{}",
                state.to_link()
            );
        }
    }

    #[test]
    fn data_files_hold_what_the_command_line_prints() {
        let state = config("v=1&rate=20&horizon=5&seed=3&compare=on&B.attempts=2");
        let series = data_file(&state, Data::Series).expect("a series always exists");
        let (a, b) = simulate::run_both(&state);
        assert_eq!(series.text, simulate::series_csv(&a, b.as_ref()));
        // In compare mode it holds A's and B's columns.
        assert!(series.text.starts_with("start_s,a_first_tries,a_retries,"));
        assert!(
            series
                .text
                .lines()
                .next()
                .is_some_and(|h| h.contains(",b_retries,"))
        );
        let swept = data_file(&state, Data::Sweep).expect("a small world sweeps");
        assert_eq!(swept.text, sweep::to_csv(&state));
        let json = data_file(&state, Data::Report).expect("a report always exists");
        assert_eq!(json.text, format!("{}\n", simulate::json_for(&state)));
        assert!(json.text.starts_with("{\"a\":"));
        // From the page's finished runs and sweep: the same files.
        let mut job = Job::new(&state, Wants::default(), ChartId::Load);
        while job.step(u64::MAX) != Step::Idle {}
        let (runs, swept) = (job.runs(), job.sweep().as_ref().ok());
        for (data, file) in [
            (Data::Series, series),
            (Data::Sweep, swept_file(&state)),
            (Data::Report, json),
        ] {
            let from = data_file_from(&state, data, runs, swept).expect("a file");
            assert_eq!(from, file);
        }
    }

    fn swept_file(state: &Config) -> File {
        data_file(state, Data::Sweep).expect("a small world sweeps")
    }

    #[test]
    fn a_sweep_the_page_would_not_draw_is_not_offered() {
        let contention = config("v=1&workload=contention");
        assert_eq!(
            data_file(&contention, Data::Sweep),
            Err(sweep::refusal(&contention).expect("contention has no failure rate"))
        );
    }

    #[test]
    fn the_picture_says_what_it_shows_whose_colours_and_where_from() {
        let single = config("v=1&attempts=3&jitter=none");
        let lines = picture_lines(&single, "  Load over time. ", "https://x/?v=1", None);
        let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts[0], "Load over time.");
        assert!(
            texts[1].starts_with("Policy A (blue): attempts 3, "),
            "{}",
            texts[1]
        );
        assert!(texts[1].contains("jitter none"), "{}", texts[1]);
        // Jitter fraction matters only for proportional jitter.
        assert!(!texts[1].contains("jitter fraction"), "{}", texts[1]);
        assert!(texts[1].contains("base delay 0.1 s"), "{}", texts[1]);
        // The default policy has a 1 s attempt timeout and no deadline.
        assert!(texts[1].contains("attempt timeout 1 s"), "{}", texts[1]);
        assert!(texts[1].contains("no deadline"), "{}", texts[1]);
        assert!(!texts[1].contains("deadline 0"), "{}", texts[1]);
        assert_eq!(texts[2], "https://x/?v=1");
        assert_eq!(lines[1].side, Some(Side::A));
        assert_eq!(lines.len(), 3);

        let compare = config("v=1&compare=on&B.attempts=6");
        let lines = picture_lines(&compare, "c", "l", None);
        assert_eq!(lines.len(), 4);
        // A map taken before its last cell says it is partial.
        let partial = picture_lines(&compare, "c", "l", Some((74, 128)));
        assert_eq!(partial.len(), 5);
        assert_eq!(
            partial[1].text,
            "Partial: 74 of 128 cells were computed when this picture was taken."
        );
        assert_eq!(lines[2].side, Some(Side::B));
        assert!(lines[2].text.starts_with("Policy B (orange): attempts 6, "));
        assert!(lines[1].text.starts_with("Policy A (blue): attempts 4, "));
    }

    /// On a Russian page a policy's line names its choices and units in
    /// Russian, not by their English words in a link.
    #[test]
    fn a_pictures_policy_line_speaks_the_pages_language() {
        let table =
            retry_core::words::read_table(include_str!("../../../i18n/ru.txt")).expect("the table");
        let both = config("v=1&compare=on&jitter=none&shape=exponential&B.jitter=full");
        retry_core::words::speak_russian(&retry_core::words::compile(&table)).expect("it reads");
        let lines = [policy_line(&both, Side::A), policy_line(&both, Side::B)];
        retry_core::words::speak_english();
        for line in &lines {
            // A header's name stays as HTTP spells it.
            let latin: Vec<&str> = line
                .split("retry-after")
                .flat_map(|part| part.split(|c: char| !c.is_alphanumeric()))
                .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
                // The policies' names stay.
                .filter(|w| !["A", "B"].contains(w))
                .collect();
            assert!(latin.is_empty(), "{latin:?} in '{line}'");
        }
        assert!(policy_line(&both, Side::A).contains("jitter none"));
    }

    #[test]
    fn picture_text_is_in_the_policies_colours_and_scales() {
        let theme = Theme::light(2.0);
        assert_eq!(picture_colour(&theme, Some(Side::A)), "rgb(0, 114, 178)");
        assert_eq!(picture_colour(&theme, Some(Side::B)), "rgb(213, 94, 0)");
        assert_eq!(
            picture_colour(&Theme::dark(1.0), None),
            "rgb(225, 225, 225)"
        );
        assert_eq!(
            picture_text(2.0),
            ("normal 26px sans-serif".to_string(), 37.0, 16.0)
        );
    }

    #[test]
    fn wrapping_keeps_every_character_and_fits_the_width() {
        let chars = |s: &str| s.chars().count() as f64;
        assert_eq!(
            wrap("one two three four", 9.0, chars),
            ["one two", "three", "four"]
        );
        let link = "https://example.org/page/?v=1&attempts=4&jitter=full&seed=12345678901";
        let lines = wrap(link, 20.0, chars);
        assert!(lines.iter().all(|l| chars(l) <= 20.0), "{lines:?}");
        assert_eq!(lines.concat(), link);
        assert_eq!(lines[0], "https://example.org/");
        assert_eq!(lines[1], "page/?v=1&");
        assert_eq!(wrap("abcdefghij", 4.0, chars), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("", 4.0, chars), [""]);
    }
}
