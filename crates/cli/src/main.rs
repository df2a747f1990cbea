//! Command line: runs the configuration a share link carries and prints the
//! report as JSON (or the time series as CSV), so a link's numbers can be
//! reproduced in a terminal.
//!
//! ```text
//! retry-playground 'v=1&attempts=4&jitter=none&outage_for=10'
//! retry-playground --csv 'v=1&...'   # the per-bucket series
//! retry-playground --sweep 'v=1&...' # an analysis by its word: every one of
//!                                    # retry_analyses::ANALYSES, see --help
//! retry-playground --params          # the parameter table
//! retry-playground --course          # the course: questions, the runs' answers
//! retry-playground --presets         # the presets: links, charts, what to try
//! retry-playground --guide           # the facilitator's guide, in Markdown
//! retry-playground --export grpc 'v=1&...'  # policy A as library configuration
//! retry-playground --import FILE 'v=1&...'  # a real configuration read into A
//! retry-playground --lang ru --params        # the words in Russian
//! ```
//!
//! `--lang ru` changes the words (the parameter table, notices, messages,
//! the course) and no number: the report's JSON is the same in every
//! language. Exported configuration keeps its comments in English.

use retry_analyses::ANALYSES;
use retry_analyses::analysis::Args;
use retry_analyses::seeds;
use retry_core::budget::Budget;
use retry_core::tf;
use retry_core::words::{self, Lang, Text, tr};
use retry_export::{self as export, Format, import};
use retry_sim::config::{Config, Kind, PARAMS};
use retry_sim::simulate;
use retry_teach::{course, guide, lesson};

/// The Russian table, every message the command line can say among them.
const RUSSIAN: &str = include_str!("../../../i18n/ru.txt");

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // What the command line was given, read as an analysis reads it.
    let given = Args {
        words: &args,
        lesson: lesson::headline_of,
    };
    let flag = |name: &str| given.flag(name);
    // Options that take a value: the word after them.
    let value_of = |name: &str| given.value(name);
    let options = options();
    let takes_value: Vec<&str> = options
        .iter()
        .filter(|(_, value)| *value)
        .map(|(name, _)| name.as_str())
        .collect();
    let link = args
        .iter()
        .enumerate()
        .find(|(i, a)| {
            !a.starts_with("--") && (*i == 0 || !takes_value.contains(&args[i - 1].as_str()))
        })
        .map_or("", |(_, a)| a.as_str());
    match value_of("--lang").map(|word| (word, Lang::from_code(word))) {
        None | Some((_, Some(Lang::En))) => {}
        Some((_, Some(Lang::Ru))) => {
            let spoken = words::read_table(RUSSIAN)
                .and_then(|table| words::speak_russian(&words::compile(&table)));
            if let Err(why) = spoken {
                eprintln!("{why}");
            }
        }
        Some((word, None)) => fail(&tf!("--lang takes en or ru, not '{word}'", word = word)),
    }
    if flag("--help") || flag("-h") {
        emit(&usage());
        return;
    }
    if flag("--params") {
        print_params();
        return;
    }
    if flag("--course") {
        emit(&(course_json() + "\n"));
        return;
    }
    if flag("--presets") {
        emit(&(presets_json() + "\n"));
        return;
    }
    if flag("--guide") {
        let answers: Vec<Option<usize>> = guide::measured()
            .iter()
            .map(|(chapter, config)| chapter.answer(&seeds::over_seeds(config)))
            .collect();
        emit(&guide::markdown(&guide::guide(&answers), ""));
        return;
    }
    if let Some(unknown) = args
        .iter()
        .find(|a| a.starts_with("--") && !options.iter().any(|(name, _)| name == *a))
    {
        fail(&tf!("unknown option {option}", option = unknown));
    }
    for option in takes_value.iter().copied() {
        if flag(option) && value_of(option).is_none() {
            fail(&tf!("{option} needs a value", option = option));
        }
    }
    let (config, notices) = course::open(link);
    for notice in &notices {
        eprintln!("{}: {}", notice.key, notice.message);
    }
    // The analysis asked for, if any: the page's refusals hold here too,
    // with the page's words (a link costs a terminal no more than it costs
    // a browser tab).
    let analysis = ANALYSES.iter().find(|a| flag(&a.flag()));
    if let Some(analysis) = analysis {
        if let Some(why) = (analysis.refusal)(&config) {
            eprintln!("{}: {why}", analysis.word);
            std::process::exit(1);
        }
    }
    // --b picks compare mode's policy B for --export, --import and the traces.
    let policy_b = flag("--b");
    let chosen = if policy_b {
        config.policy_b_config()
    } else {
        config.clone()
    };
    if let Some(word) = value_of("--export") {
        let Some(format) = Format::parse(word) else {
            let names: Vec<&str> = Format::ALL.iter().map(|f| f.key()).collect();
            fail(&tf!(
                "--export takes one of {names}",
                names = names.join("|")
            ));
        };
        let snippet = export::export(&chosen, format);
        let mut out = snippet.text.clone();
        for note in snippet.notes() {
            eprintln!("{}: {note}", tr("note"));
        }
        if !out.ends_with('\n') {
            out.push('\n');
        }
        emit(&out);
    } else if let Some(path) = value_of("--import") {
        let text = match std::fs::read(path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(error) => fail(&tf!(
                "cannot read {path}: {error}",
                path = path,
                error = error
            )),
        };
        let imported = match import::import(&text) {
            Ok(imported) => imported,
            Err(why) => fail(&format!("{path}: {why}")),
        };
        let (next, clamped) = import::apply(&config, &imported, policy_b);
        for line in imported.mapped() {
            eprintln!("{}: {line}", tr("mapped"));
        }
        for line in imported.unmapped.iter().chain(&clamped) {
            eprintln!("{}: {line}", tr("not mapped"));
        }
        for line in imported.defaulted() {
            eprintln!("{}: {line}", tr("default"));
        }
        for line in &imported.problems {
            eprintln!("{}: {line}", tr("problem"));
        }
        emit(&(next.to_link() + "\n"));
    } else if let Some(sequence) = value_of("--adaptive-trace") {
        match adaptive_trace(sequence) {
            Ok(json) => emit(&(json + "\n")),
            Err(why) => fail(&why),
        }
    } else if let Some(sequence) = value_of("--quota-trace") {
        match quota_trace(&chosen, sequence) {
            Ok(json) => emit(&(json + "\n")),
            Err(why) => fail(&why),
        }
    } else if let Some(analysis) = analysis {
        match (analysis.print)(&config, &given) {
            Ok(printed) => {
                for line in &printed.said {
                    eprintln!("{line}");
                }
                emit(&printed.out);
            }
            Err(why) => fail(&why),
        }
    } else if flag("--csv") {
        let (a, b) = simulate::run_both(&config);
        say_where_cut(&a, b.as_ref());
        emit(&simulate::series_csv(&a, b.as_ref()));
    } else {
        let (a, b) = simulate::run_both(&config);
        say_where_cut(&a, b.as_ref());
        emit(&(simulate::both_to_json(&a, b.as_ref()) + "\n"));
    }
}

/// The options of the command line itself, and whether the word after
/// each is its value; each analysis adds its word and its own options
/// ([`options`]).
const OPTIONS: [(&str, bool); 13] = [
    ("--csv", false),
    ("--b", false),
    ("--export", true),
    ("--import", true),
    ("--quota-trace", true),
    ("--adaptive-trace", true),
    ("--lang", true),
    ("--params", false),
    ("--course", false),
    ("--presets", false),
    ("--guide", false),
    ("--help", false),
    ("-h", false),
];

/// Every option the command line reads, once: its own, then each
/// analysis' word and options.
fn options() -> Vec<(String, bool)> {
    let mut all: Vec<(String, bool)> = OPTIONS.iter().map(|&(o, v)| (o.to_string(), v)).collect();
    for analysis in &ANALYSES {
        all.push((analysis.flag(), false));
        for &(option, value) in analysis.options {
            if !all.iter().any(|(o, _)| o == option) {
                all.push((option.to_string(), value));
            }
        }
    }
    all
}

fn fail(message: &str) -> ! {
    eprintln!("{message}\n{}", usage());
    std::process::exit(2);
}

/// The course as the page asks it: each chapter's question and answers,
/// and the answer its runs bear out over the seeds the page measures.
fn course_json() -> String {
    use retry_teach::prose::{self, Facts};
    let chapters: Vec<serde_json::Value> = course::CHAPTERS
        .iter()
        .map(|chapter| {
            let config = chapter.config();
            let measured = seeds::over_seeds(&config);
            let answer = chapter.answer(&measured);
            let trap = chapter.trap(&config);
            serde_json::json!({
                "number": chapter.number(),
                "core": chapter.is_core(),
                "minutes": chapter.notes().minutes,
                "key": chapter.key,
                "link": format!("chapter={}", chapter.key),
                "title": chapter.title,
                "question": prose::fill(chapter.question.get(), &Facts::settings(&config)).text,
                "answers": chapter.answers,
                "knob": chapter.knob.param().key,
                "teaches": chapter.teaches.map(|(low, high)| [low, high]),
                "answer": answer.map(|i| chapter.answers[i]),
                "trap": {
                    "model": chapter.trap.name(),
                    "predicts": trap.map(|i| chapter.answers[i]),
                    "wrong": trap != answer,
                },
                "measured": retry_teach::evidence::evidence(chapter, &measured),
                "takeaway": chapter.takeaway,
            })
        })
        .collect();
    let rules: Vec<serde_json::Value> = course::MONDAY
        .iter()
        .map(|rule| serde_json::json!({ "rule": rule.text, "chapters": rule.chapters }))
        .collect();
    serde_json::json!({ "chapters": chapters, "monday": rules }).to_string()
}

/// The presets as the page shows them: each one's title, link, the chart
/// its lesson leads with, the numbers beside it, and each "try this" with
/// its label as the page fills it and the number it promises to move.
fn presets_json() -> String {
    use retry_teach::presets::PRESETS;
    use retry_teach::prose::{self, Facts};
    let presets: Vec<serde_json::Value> = PRESETS
        .iter()
        .map(|preset| {
            let config = preset.config();
            let tries: Vec<serde_json::Value> = preset
                .try_this
                .iter()
                .map(|t| {
                    let tried = lesson::apply(&config, t.change);
                    serde_json::json!({
                        "label": prose::fill(t.label.get(), &Facts::settings(&tried)).text,
                        "change": t.change,
                        "metric": t.expect.metric.label(),
                        "side": match t.expect.side {
                            retry_sim::metrics::Side::A => "a",
                            retry_sim::metrics::Side::B => "b",
                        },
                        "rises": t.expect.rises,
                    })
                })
                .collect();
            serde_json::json!({
                "key": preset.key,
                "title": preset.title,
                "link": preset.link,
                "chart": preset.key_chart.word(),
                "headline": preset.headline.iter().map(|m| m.label()).collect::<Vec<_>>(),
                "tries": tries,
            })
        })
        .collect();
    serde_json::json!({ "presets": presets }).to_string()
}

/// Feeds the playground's retry budget one operation per comma-separated
/// group of attempt outcomes (`e` an error, `t` a timeout, `s` a success),
/// at most `attempts` per operation, and prints what it ends with: the
/// balance, and how many retries it refused. The budget's kind and
/// parameters are the link's, so the AWS SDK's quota costs can be set to a
/// given SDK's.
fn quota_trace(config: &Config, sequence: &str) -> Result<String, String> {
    let scenario = config.scenario();
    let attempts = scenario.policy.attempts as usize;
    let mut budget = Budget::new(&scenario.budget.spec());
    let mut refused = 0;
    let mut retries = 0;
    for (operation, outcomes) in sequence.split(',').enumerate() {
        let mut last_cost = 0.0;
        for (attempt, outcome) in outcomes.chars().take(attempts).enumerate() {
            let now = operation as f64;
            if attempt == 0 {
                budget.on_first_try(now);
            }
            match outcome {
                's' => {
                    budget.on_success(now, last_cost);
                    break;
                }
                'e' | 't' => {
                    budget.on_failure(now, false);
                    if attempt + 1 >= attempts {
                        break;
                    }
                    match budget.try_retry(now, outcome == 't') {
                        Some(cost) => {
                            retries += 1;
                            last_cost = cost;
                        }
                        None => {
                            refused += 1;
                            break;
                        }
                    }
                }
                other => {
                    return Err(tf!(
                        "--quota-trace: '{letter}' is not e, t or s",
                        letter = other
                    ));
                }
            }
        }
    }
    Ok(serde_json::json!({
        "capacity": budget.tokens(),
        "refused": refused,
        "retries": retries,
    })
    .to_string())
}

/// Feeds the AWS SDK adaptive mode's rate limiter (`crates/core/src/adaptive.rs`) the
/// responses of `sequence`, `time:outcome` apart by commas (`t` a
/// throttle, `s` any other answer), and prints the fill rate after each.
fn adaptive_trace(sequence: &str) -> Result<String, String> {
    use retry_core::adaptive::RateLimiter;
    let mut limiter = RateLimiter::new(0.0);
    let mut rates = Vec::new();
    for event in sequence.split(',').filter(|e| !e.is_empty()) {
        let read = event.split_once(':').and_then(|(time, outcome)| {
            let time = retry_core::decimal::parse_f64(time).filter(|t| t.is_finite())?;
            let throttled = match outcome {
                "t" => true,
                "s" => false,
                _ => return None,
            };
            Some((time, throttled))
        });
        let Some((time, throttled)) = read else {
            return Err(tf!(
                "--adaptive-trace: '{event}' is not time:t or time:s",
                event = event
            ));
        };
        rates.push(limiter.on_response(time, throttled));
    }
    Ok(serde_json::json!({ "fill_rates": rates, "enabled": limiter.enabled() }).to_string())
}

/// How the command line is called, after the word "usage:" and the
/// analyses' synopsis.
const SYNOPSIS: &str = "retry-playground --export FORMAT [--b] [LINK]
retry-playground --import FILE [--b] [LINK]
retry-playground --quota-trace OUTCOMES [--b] [LINK]
retry-playground --adaptive-trace RESPONSES";

const RUNS: Text = Text(
    "Runs the configuration in LINK (a share link or its query string) and prints the report as JSON ({\"a\":..,\"b\":..} in compare mode), or with --csv the per-bucket series (A's and B's columns in compare mode), or with an analysis' word what it finds. Missing keys take their defaults; bad values are fixed and reported on stderr.",
);

const THE_REST: Text = Text(
    "--export writes policy A (B with --b) for a library or a mesh, FORMAT below; notes on what it cannot express go to stderr. --import reads what the page's paste reads (a gRPC service config, an Envoy retry policy in JSON or YAML, an Istio, Gateway API, Envoy Gateway, Kuma or Linkerd manifest, Spring Boot's resilience4j properties, an AWS config section) into A (B with --b) and prints the new link; what it mapped and not goes to stderr.\n--quota-trace feeds the link's retry budget operations such as ees,ts,s (e error, t timeout, s success) and prints its balance and refusals; --adaptive-trace feeds the AWS SDK adaptive mode's rate limiter responses such as 0.1:s,0.2:t (time, then t throttled or s not) and prints its fill rate after each.\n--course prints each chapter of the course (its link, question, answers, the answer its runs bear out over the seeds and what they measured, takeaway) and the last page's rules, as JSON; --presets prints each preset (its link, the chart it leads with, its headline numbers, and each change to try with the number it moves and which way), as JSON; --guide prints the facilitator's guide as Markdown: the agenda, and for each core chapter what to point at, the trap, a question for the room and two values of its knob with the answer the runs give there. --lang ru prints the words in Russian (the numbers and the report are the same in every language).",
);

/// The usage, read off the analyses and the formats `--export` writes:
/// every one there is.
fn usage() -> String {
    let said = tr("usage:");
    let indent = " ".repeat(said.chars().count() + 1);
    let analyses: Vec<String> = ANALYSES
        .iter()
        .map(|a| format!("{}{}", a.flag(), a.synopsis))
        .collect();
    let mut out = format!(
        "{said} retry-playground [--csv | {}] [LINK] | --params | --course | --presets | --guide\n",
        analyses.join(" | ")
    );
    for line in SYNOPSIS.lines() {
        out += &format!("{indent}{line}\n");
    }
    out += &wrapped(RUNS.get(), "");
    for analysis in &ANALYSES {
        out += &format!("{}{}\n", analysis.flag(), analysis.synopsis);
        let runs = match (analysis.seeds, analysis.budget) {
            (0, _) => tr("No run: closed forms alone.").to_string(),
            (1, _) => tr("One run of each world, on the link's seed.").to_string(),
            (seeds, None) => tf!("Over {seeds} {seeds|seed|seeds} per world.", seeds = seeds),
            (seeds, Some(budget)) => tf!(
                "Over up to {seeds} {seeds|seed|seeds} per world, within a work budget of {budget}.",
                seeds = seeds,
                budget = budget
            ),
        };
        out += &wrapped(&format!("{} {runs}", analysis.help), "    ");
    }
    out += &wrapped(THE_REST.get(), "");
    let names: Vec<&str> = Format::ALL.iter().map(|f| f.key()).collect();
    out + &tf!("FORMAT is one of {names}.", names = names.join("|")) + "\n"
}

/// `text` broken into lines of at most 78 characters, each paragraph's
/// lines starting with `indent`.
fn wrapped(text: &str, indent: &str) -> String {
    let mut out = String::new();
    for paragraph in text.split('\n') {
        let mut line = String::from(indent);
        for word in paragraph.split(' ') {
            if line.chars().count() + word.chars().count() + 1 > 78 && line.trim() != "" {
                out += line.trim_end();
                out.push('\n');
                line = String::from(indent);
            }
            line += word;
            line.push(' ');
        }
        out += line.trim_end();
        out.push('\n');
    }
    out
}

/// Writes to stdout; a closed pipe (`| head`) is not an error worth a panic.
fn emit(text: &str) {
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

fn print_params() {
    let mut out = String::new();
    for param in PARAMS {
        let range = match param.kind {
            Kind::Number { min, max, .. } | Kind::Integer { min, max } => format!("{min}..{max}"),
            Kind::Choice(options, _) => options.join("|"),
        };
        out += &format!(
            "{:<12} {:<22} {:<3} {:<30} {} {:<11} {}\n",
            param.key,
            param.label,
            param.unit,
            range,
            tr("default"),
            param.format(param.default),
            param.help
        );
    }
    emit(&out);
}

/// What the page says of a run cut short at a bound, on stderr.
fn say_where_cut(a: &retry_sim::sim::Report, b: Option<&retry_sim::sim::Report>) {
    if let Some(line) = retry_analyses::hops::cut(a, b) {
        eprintln!("{line}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The usage is read off the lists: every option the command line
    /// reads is in it, every analysis has its option, every option of an
    /// analysis is an analysis' or the command line's own, and every
    /// format is named.
    #[test]
    fn the_usage_names_every_option_and_every_analysis_has_one() {
        let usage = usage();
        let words: Vec<&str> = usage
            .split(|c: char| !(c == '-' || c.is_alphanumeric()))
            .collect();
        for (name, _) in options() {
            assert!(
                words.contains(&name.as_str()) || name == "--help" || name == "-h",
                "{name}"
            );
        }
        let flags: Vec<String> = words
            .iter()
            .filter(|w| w.starts_with("--") && w.len() > 2)
            .map(|w| w.to_string())
            .collect();
        for flag in &flags {
            assert!(
                options().iter().any(|(o, _)| o == flag),
                "{flag} is no option"
            );
        }
        for analysis in ANALYSES {
            assert!(flags.contains(&analysis.flag()), "{}", analysis.flag());
            let flat = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(
                flat(&usage).contains(&flat(analysis.help.get())),
                "{}",
                analysis.flag()
            );
        }
        for format in Format::ALL {
            assert!(usage.contains(format.key()), "{}", format.key());
        }
    }
}
