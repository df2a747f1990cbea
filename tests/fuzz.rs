//! Hostile share links (`common::links`), a few thousand from a fixed
//! seed: none may panic, every link must read back canonically and report
//! whatever it had changed, runs must be deterministic, and every run must
//! stay within its bounds on time and memory as its own counters report
//! them (not as a clock measures them, which would make the test flaky).
//!
//! Runs here get a small work limit, from which the time budget is
//! derived, so that a debug build checks thousands of links in seconds;
//! the bound works the same at any limit. `cargo run --release --example
//! fuzz -- --links 100000` runs a long campaign at the real limit and
//! prints what the runs cost.

mod common;

use std::collections::BTreeMap;

use common::links::hostile_link;
use retry_analyses::seeds::{MOST_SEEDS, SeedRuns};
use retry_analyses::sliced::{Slice, Sliced};
use retry_sim::config::{Config, PARAMS};
use retry_sim::link::{MAX_PAIRS, Notice};
use retry_sim::sim::{
    self, COST_PER_WORK, MAX_IN_FLIGHT_BYTES, REVIEW_EVERY, Report, in_flight_bytes,
};
use retry_sim::simulate;
use retry_teach::course;
use retry_teach::presets::PRESETS;
use retry_teach::prose::{self, Facts};

const SEED: u64 = 20_240_611;
/// Links per test function; the two functions run on two threads.
const LINKS: u64 = 2_000;
/// Work limit of each run: the time budget follows from it.
const WORK_LIMIT: u64 = 2_000;
/// Every how many links the run is repeated to check determinism.
const REPEAT_EVERY: u64 = 8;

#[test]
fn hostile_links_first_half() {
    check_links(0..LINKS);
}

#[test]
fn hostile_links_second_half() {
    check_links(LINKS..2 * LINKS);
}

fn check_links(indices: std::ops::Range<u64>) {
    let mut failures = Vec::new();
    for index in indices {
        let link = hostile_link(SEED, index);
        if let Err(panic) = std::panic::catch_unwind(|| check_link(&link, index)) {
            let why = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failures.push(format!("link {index} {link:?}: {why}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn check_link(link: &str, index: u64) {
    let (config, notices) = Config::from_link(link);
    // Canonical: the link a configuration writes reads back to it, quietly.
    let canonical = config.to_link();
    assert_eq!(Config::from_link(&canonical), (config.clone(), vec![]));
    assert_changes_reported(link, &config, &notices);

    let (config, _) = course::open(link);
    let runs =
        std::iter::once(config.clone()).chain(config.comparing().then(|| config.policy_b_config()));
    let mut reports = Vec::new();
    for run_config in runs {
        let report = run(&run_config);
        assert_within_bounds(&report);
        if index % REPEAT_EVERY == 0 {
            assert_eq!(
                simulate::to_json(&run(&run_config)),
                simulate::to_json(&report),
                "not deterministic"
            );
        }
        reports.push(report);
    }
    check_seeds(&config, &reports, index);
    check_lesson(&config, &reports, index);
}

/// A reader who opened a preset and then moved knobs as far as these
/// links go keeps the preset's lesson (`lesson_text` with it as the
/// origin): filled from these runs, it states no claim they do not bear
/// out, and leaves no placeholder.
fn check_lesson(config: &Config, reports: &[Report], index: u64) {
    let preset = &PRESETS[index as usize % PRESETS.len()];
    let facts = Facts::runs(config, &reports[0], reports.get(1));
    let prose = prose::fill(preset.lesson.get(), &facts);
    assert_eq!(prose.unguarded(), [], "{}: '{}'", preset.key, prose.text);
    assert!(
        !prose.text.contains(['{', '}']),
        "{}: '{}'",
        preset.key,
        prose.text
    );
}

/// The headlines' other seeds share one budget of work, whatever the
/// first seed cost: together they stay within it and its time, and give
/// the same seeds a slice at a time as in one go.
fn check_seeds(config: &Config, reports: &[Report], index: u64) {
    let (a, b) = (&reports[0].summary, reports.get(1).map(|b| &b.summary));
    let mut seeds = SeedRuns::within(config, a, b, WORK_LIMIT);
    let mut slices = 0;
    while seeds.step(300) != Slice::Done {
        slices += 1;
        assert!(slices < 1_000_000, "seeds that never end");
    }
    let spent = seeds.spent();
    assert!(spent.runs <= 2 * (MOST_SEEDS as u64 - 1), "{spent:?}");
    // A run may pass its limit by the work of one event.
    assert!(spent.work <= WORK_LIMIT + 16 * spent.runs, "{spent:?}");
    assert!(
        spent.events <= WORK_LIMIT * COST_PER_WORK + REVIEW_EVERY * spent.runs,
        "{spent:?}"
    );
    let measured = seeds.seeds();
    assert!(measured.count() <= measured.planned, "{spent:?}");
    // A seed counts once every policy ran it.
    if config.comparing() {
        assert_eq!(measured.a.len(), measured.b.len(), "{spent:?}");
    }
    if index % REPEAT_EVERY == 0 {
        let mut whole = SeedRuns::within(config, a, b, WORK_LIMIT);
        whole.to_end();
        assert_eq!(whole.seeds(), measured, "seeds not deterministic");
    }
}

fn run(config: &Config) -> Report {
    let mut scenario = config.scenario();
    scenario.work_limit = WORK_LIMIT;
    sim::run(&scenario)
}

/// The counters of a run against its bounds: events each cost at least a
/// unit and the bounds are looked at every `REVIEW_EVERY` events, in which
/// a call through eight layers adds at most a few dozen items.
fn assert_within_bounds(report: &Report) {
    let summary = &report.summary;
    assert!(
        summary.events <= WORK_LIMIT * COST_PER_WORK + REVIEW_EVERY,
        "{summary:?}"
    );
    assert!(
        in_flight_bytes(summary.peak_calls, summary.peak_events)
            <= MAX_IN_FLIGHT_BYTES + REVIEW_EVERY * 2048,
        "{summary:?}"
    );
    assert_eq!(summary.truncated, summary.cut.is_some(), "{summary:?}");
    if let Some(cut) = &summary.cut {
        assert!(!cut.message.is_empty() && cut.at.is_finite(), "{cut:?}");
    }
}

/// Every value the link asked for and did not get, every unknown key and
/// every pair past the limit has a notice. Pairs with escapes are left to
/// the reader's own tests: their keys and values are what they decode to.
fn assert_changes_reported(link: &str, config: &Config, notices: &[Notice]) {
    let noticed = |key: &str| {
        let clipped: String = key.chars().take(40).collect();
        notices
            .iter()
            .any(|n| n.key == key || n.key.starts_with(&clipped))
    };
    let query = link.strip_prefix('?').unwrap_or(link);
    let pairs: Vec<&str> = query.split('&').filter(|p| !p.is_empty()).collect();
    if pairs.len() > MAX_PAIRS {
        assert!(noticed("link"), "{notices:?}");
    }
    // The last value of each key is the one that counts; `None` when it
    // has escapes.
    let mut last = BTreeMap::new();
    for pair in pairs.iter().take(MAX_PAIRS) {
        let (key, raw) = pair.split_once('=').unwrap_or((pair, ""));
        if !key.contains(['%', '+']) {
            last.insert(key, Some(raw).filter(|raw| !raw.contains(['%', '+'])));
        }
    }
    for (key, raw) in last {
        let Some(raw) = raw.filter(|_| key != "v") else {
            continue;
        };
        // The course's keys say how to show the settings: a chapter the
        // course lacks is said; the rest is the course's own tests'.
        // (An address's `#` and `?` cut it where a query is not; the
        // link reader never sees them, so only a plain query is held.)
        if key == "chapter" {
            let plain = !query.contains(['#', '?']);
            let known = course::Place::find(raw).is_some();
            let said = course::open(link).1.iter().any(|n| n.key == "chapter");
            assert!(known || said || !plain, "chapter={raw:?} without a notice");
            continue;
        }
        if key == "present" {
            continue;
        }
        // A preset's short link: one the page has, or said.
        if key == "preset" {
            let plain = !query.contains(['#', '?']);
            let known = retry_teach::presets::PRESETS
                .iter()
                .any(|p| p.key.eq_ignore_ascii_case(raw.trim()));
            let said = course::open(link).1.iter().any(|n| n.key == "preset");
            assert!(known || said || !plain, "preset={raw:?} without a notice");
            continue;
        }
        // The language changes no setting; a word the page does not speak
        // is said, and the page speaks English.
        if key == "lang" {
            let plain = !query.contains(['#', '?']);
            let spoken = matches!(raw, "en" | "ru");
            assert!(
                spoken || noticed(key) || !plain,
                "lang={raw:?} without a notice"
            );
            continue;
        }
        let (for_b, name) = match key.strip_prefix("B.") {
            Some(name) => (true, name),
            None => (false, key),
        };
        let Some(index) = PARAMS.iter().position(|p| p.key == name) else {
            assert!(
                noticed(key),
                "unknown key {key:?} without a notice: {notices:?}"
            );
            continue;
        };
        let got = if for_b {
            config.value_b_at(index)
        } else {
            config.value_at(index)
        };
        let asked = PARAMS[index].parse(raw);
        let kept = asked.as_ref().is_ok_and(|v| v.to_bits() == got.to_bits());
        assert!(
            kept || noticed(key),
            "{key}={raw:?} became {got} without a notice: {notices:?}"
        );
    }
}
