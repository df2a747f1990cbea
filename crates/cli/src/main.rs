//! Command line: runs the configuration a share link carries and prints the
//! report as JSON (or the time series as CSV), so a link's numbers can be
//! reproduced in a terminal.
//!
//! ```text
//! retry-playground 'v=1&attempts=4&jitter=none&outage_for=10'
//! retry-playground --csv 'v=1&...'   # the per-bucket series
//! retry-playground --hops 'v=1&...'  # the chain hop by hop
//! retry-playground --card 'v=1&...'  # the policy's guarantees
//! retry-playground --stress 'v=1&...' # the world through the standard faults
//! retry-playground --sweep 'v=1&...' # success and load at failure rates 0-100 %
//! retry-playground --seeds 'v=1&...' # the lesson's headline numbers over seeds
//! retry-playground --map 'v=1&...'   # where a capacity loss leaves it broken
//! retry-playground --params          # the parameter table
//! retry-playground --course          # the course: questions, the runs' answers
//! retry-playground --guide           # the facilitator's guide, in Markdown
//! retry-playground --export grpc 'v=1&...'  # policy A as library configuration
//! retry-playground --import FILE 'v=1&...'  # a real configuration read into A
//! retry-playground --lang ru --params        # the words in Russian
//! ```
//!
//! `--lang ru` changes the words (the parameter table, notices, messages,
//! the course) and no number: the report's JSON is the same in every
//! language. Exported configuration keeps its comments in English.

use retry_analyses::{ANALYSES, card, seeds, stress};
use retry_core::budget::Budget;
use retry_core::tf;
use retry_core::words::{self, Lang, Text, tr};
use retry_export::{self as export, Format, import};
use retry_sim::config::{Config, Kind, PARAMS};
use retry_sim::simulate;
use retry_teach::{course, lesson};

/// The Russian table, every message the command line can say among them.
const RUSSIAN: &str = include_str!("../../../i18n/ru.txt");

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| args.iter().any(|a| a == name);
    // Options that take a value: the word after them.
    let value_of = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .map(String::as_str)
    };
    let takes_value: Vec<&str> = OPTIONS
        .iter()
        .filter(|(_, value)| *value)
        .map(|(name, _)| *name)
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
    if flag("--guide") {
        let answers: Vec<Option<usize>> = retry_teach::guide::measured()
            .iter()
            .map(|(chapter, config)| chapter.answer(&seeds::over_seeds(config)))
            .collect();
        emit(&retry_teach::guide::markdown(
            &retry_teach::guide::guide(&answers),
            "",
        ));
        return;
    }
    if let Some(unknown) = args
        .iter()
        .find(|a| a.starts_with("--") && !OPTIONS.iter().any(|(name, _)| name == a))
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
    // The page's refusals hold here too, with the page's words: a world
    // without a failure rate has no sweep to print, and a link costs a
    // terminal no more than it costs a browser tab.
    for analysis in ANALYSES {
        if flag(&format!("--{}", analysis.word.english())) {
            if let Some(why) = (analysis.refusal)(&config) {
                eprintln!("{}: {why}", analysis.word);
                std::process::exit(1);
            }
        }
    }
    // --b picks compare mode's policy B for --export, --bounds and --import.
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
    } else if flag("--bounds") {
        emit(&(bounds_json(&chosen) + "\n"));
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
    } else if flag("--sweep") {
        emit(&retry_analyses::sweep::to_csv(&config));
    } else if flag("--map") {
        // `--by-load` is `map_by=load` for a link that does not say it.
        let rows = if flag("--by-load") {
            retry_analyses::map::Rows::Load
        } else {
            config.map_rows()
        };
        let map = retry_analyses::map::map(&config, rows);
        let missing = map.cells.iter().filter(|c| c.missing.is_some()).count();
        if missing > 0 {
            eprintln!(
                "{}",
                tf!(
                    "map: {missing} cells missing, the work budget of {budget} spent",
                    missing = missing,
                    budget = map.budget
                )
            );
        }
        if flag("--csv") {
            emit(&map.to_csv());
        } else {
            emit(&(map.to_json() + "\n"));
        }
    } else if flag("--frontier") {
        // Every core unless --threads says how many (the benchmark's 1
        // against 2); the frontier is the same whatever the number.
        let frontier = match value_of("--threads").map(str::parse::<usize>) {
            None => retry_analyses::search::search(&config),
            Some(Ok(threads)) if threads > 0 => {
                retry_analyses::search::search_threads(&config, threads)
            }
            Some(_) => fail(tr("--threads takes a whole number of threads, 1 or more")),
        };
        if frontier.cut > 0 {
            eprintln!(
                "{}",
                tf!(
                    "frontier: {cut} of {total} policies stopped at their share of the search's work budget of {budget}",
                    cut = frontier.cut,
                    total = frontier.total,
                    budget = frontier.budget
                )
            );
        }
        if flag("--csv") {
            emit(&frontier.to_csv());
        } else {
            emit(&(frontier.to_json() + "\n"));
        }
    } else if flag("--seeds") {
        emit(&(seeds_json(&config) + "\n"));
    } else if flag("--csv") {
        let (a, b) = simulate::run_both(&config);
        say_where_cut(&a, b.as_ref());
        emit(&simulate::series_csv(&a, b.as_ref()));
    } else if flag("--stress") {
        let report = stress::stress(&config);
        if flag("--markdown") {
            emit(&report.to_markdown(&config, &config.to_link()));
        } else {
            emit(&(serde_json::to_string(&report).unwrap_or_default() + "\n"));
        }
    } else if flag("--card") {
        let card = |c: &Config| serde_json::to_value(card::card(c)).unwrap_or_default();
        let json = match config.comparing() {
            false => card(&config),
            true => serde_json::json!({ "a": card(&config), "b": card(&config.policy_b_config()) }),
        };
        emit(&format!("{json}\n"));
    } else if flag("--hops") {
        let (a, b) = simulate::run_both(&config);
        say_where_cut(&a, b.as_ref());
        emit(&(simulate::hops_json(&a, b.as_ref()) + "\n"));
    } else {
        let (a, b) = simulate::run_both(&config);
        say_where_cut(&a, b.as_ref());
        emit(&(simulate::both_to_json(&a, b.as_ref()) + "\n"));
    }
}

/// Every option the command line reads, once, and whether the word after
/// it is its value; the usage names each (a test holds it), and each
/// analysis has its word's option.
const OPTIONS: [(&str, bool); 23] = [
    ("--csv", false),
    ("--stress", false),
    ("--markdown", false),
    ("--card", false),
    ("--hops", false),
    ("--sweep", false),
    ("--seeds", false),
    ("--map", false),
    ("--by-load", false),
    ("--frontier", false),
    ("--threads", true),
    ("--b", false),
    ("--bounds", false),
    ("--export", true),
    ("--import", true),
    ("--quota-trace", true),
    ("--adaptive-trace", true),
    ("--lang", true),
    ("--params", false),
    ("--course", false),
    ("--guide", false),
    ("--help", false),
    ("-h", false),
];

fn fail(message: &str) -> ! {
    eprintln!("{message}\n{}", usage());
    std::process::exit(2);
}

/// The policy's attempts and the analytic bounds of each pause, for
/// checking a library's schedule against the playground's.
fn bounds_json(config: &Config) -> String {
    let policy = config.policy();
    let pauses: Vec<serde_json::Value> = simulate::pause_bounds(config)
        .iter()
        .map(|b| serde_json::json!({ "min": b.min, "max": b.max, "mean": b.mean }))
        .collect();
    serde_json::json!({ "attempts": policy.attempts, "pauses": pauses }).to_string()
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

/// The headline numbers of the link's lesson (the preset it is or is
/// near, as the page opens it) over the seeds the page measures them on:
/// each policy's value on every seed, and what the page shows of them.
fn seeds_json(config: &Config) -> String {
    let (headline, moved) = lesson::headline_of(config);
    let measured = seeds::over_seeds(config);
    let headlines: Vec<serde_json::Value> = lesson::headlines(headline, &moved, &measured, false)
        .iter()
        .map(|line| {
            let metric = line.metric;
            serde_json::json!({
                "label": line.label,
                "a": line.a,
                "b": line.b,
                "range_a": line.range_a,
                "range_b": line.range_b,
                "better": line.better.map(|side| if side == lesson::Side::A { "A" } else { "B" }),
                "seeds": line.seeds,
                "values_a": measured.values(metric, lesson::Side::A).collect::<Vec<_>>(),
                "values_b": measured.values(metric, lesson::Side::B).collect::<Vec<_>>(),
            })
        })
        .collect();
    let count = measured.count() as u64;
    let seeds: Vec<u64> = (0..count).map(|k| measured.first.wrapping_add(k)).collect();
    serde_json::json!({ "seeds": seeds, "headlines": headlines }).to_string()
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
    let mut budget = Budget::new(&scenario.budget);
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

const USAGE: Text = Text(
    "usage: retry-playground [--csv | --hops | --card | --stress [--markdown] | --sweep | --seeds | --map [--by-load] [--csv] | --frontier [--csv] [--threads N]] [LINK] | --params | --course | --guide\n\
    \x20      retry-playground --export FORMAT [--b] [LINK]\n\
    \x20      retry-playground --import FILE [--b] [LINK]\n\
    \x20      retry-playground --bounds [--b] [LINK] | --quota-trace OUTCOMES [--b] [LINK]\n\
    \x20      retry-playground --adaptive-trace RESPONSES\n\
    Runs the configuration in LINK (a share link or its query string) and prints\n\
    the report as JSON ({\"a\":..,\"b\":..} in compare mode), or with --csv\n\
    the per-bucket series (A's and B's columns in compare mode), or with\n\
    --hops the chain hop by hop (each layer's calls per request, those for\n\
    nobody and those turned away, its p50 and p99; the server's work), or with\n\
    --card the policy's guarantees in closed form (the calls at the bottom when\n\
    every call fails, its retries a second then, its budget's reservoir and the\n\
    failure rate above which the budget drains), or with --stress the world\n\
    through the standard faults (outages of 5 s and 60 s, half the workers for\n\
    30 s, a 5x latency spike for 10 s, ten times the arrivals for 5 s): each\n\
    policy's success, calls, peak load, goodput lost, time to recover and the map's\n\
    verdict, beside the same faults without retries, with each policy's verdict, its\n\
    reasons and the warnings its settings earn\n\
    (with --markdown as a Markdown table), or with\n\
    --sweep the sweep chart's curves, or with --seeds the lesson's headline\n\
    numbers over the seeds the page measures them on, or with --map the map of\n\
    metastability: the world with a capacity loss of each length and size,\n\
    each cell's outcome for A (and B) over 3 seeds, as JSON (CSV with --csv);\n\
    --by-load puts the arrival rate on the rows instead of the trigger's size.\n\
    --frontier searches 865 retry policies in the world of LINK over up to 5\n\
    seeds each, on every core (--threads N for N), and prints every policy\n\
    measured, the frontier of success against calls per operation, and those\n\
    that beat policy A, as JSON (CSV with --csv).\n\
    Missing keys take\n\
    their defaults; bad values are fixed and reported on stderr.\n\
    --export writes policy A (B with --b) for a library or a mesh, FORMAT\n\
    below; notes on what it cannot express go to stderr. --import reads what\n\
    the page's paste reads (a gRPC service config, an Envoy retry policy in\n\
    JSON or YAML, an Istio, Gateway API, Envoy Gateway, Kuma or Linkerd\n\
    manifest, Spring Boot's resilience4j properties, an AWS config section)\n\
    into A (B with --b) and prints the new link; what it mapped and not goes\n\
    to stderr.\n\
    --bounds prints the attempts and each pause's analytic bounds as JSON;\n\
    --quota-trace feeds the link's retry budget operations such as ees,ts,s\n\
    (e error, t timeout, s success) and prints its balance and refusals;\n\
    --adaptive-trace feeds the AWS SDK adaptive mode's rate limiter responses\n\
    such as 0.1:s,0.2:t (time, then t throttled or s not) and prints its fill\n\
    rate after each.\n\
    --course prints each chapter of the course (its link, question, answers,\n\
    the answer its runs bear out over the seeds and what they measured,\n\
    takeaway) and the last page's rules, as JSON; --lang ru prints the words in\n\
    Russian (the numbers and the report are the same in every language).\n\
    --guide prints the facilitator's guide as Markdown: the agenda, and for\n\
    each core chapter what to point at, the trap, a question for the room and\n\
    two values of its knob with the answer the runs give there.\n",
);

/// The usage, with the formats `--export` writes: every one there is.
fn usage() -> String {
    let names: Vec<&str> = Format::ALL.iter().map(|f| f.key()).collect();
    format!(
        "{}{}\n",
        USAGE.get(),
        tf!("FORMAT is one of {names}.", names = names.join("|"))
    )
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
    if let Some(text) = simulate::limit_text(a, b) {
        eprintln!("{}: {text}", tr("cut"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_usage_names_every_option_and_every_analysis_has_one() {
        for (name, _) in OPTIONS {
            let named = USAGE
                .get()
                .split(|c: char| !(c == '-' || c.is_alphanumeric()))
                .any(|word| word == name);
            assert!(named || name == "--help" || name == "-h", "{name}");
        }
        for format in Format::ALL {
            assert!(usage().contains(format.key()), "{}", format.key());
        }
        for analysis in ANALYSES {
            let flag = format!("--{}", analysis.word.english());
            assert!(OPTIONS.iter().any(|(name, _)| *name == flag), "{flag}");
        }
    }
}
