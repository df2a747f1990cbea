//! A run that goes a slice of work at a time (`sim::Run`), as the page runs
//! it between frames, reports what a run in one go reports, bit for bit:
//! on every preset's worlds (A and B), on hostile links, and where a bound
//! cuts the run short. Reports so far, asked for between slices, change
//! nothing and only grow.

mod common;

use common::links::hostile_link;
use retry_sim::config::Config;
use retry_sim::sim::{self, CutReason, Report, Run, Scenario};
use retry_sim::simulate;
use retry_teach::course;
use retry_teach::presets::PRESETS;

/// Slices of work the runs go in: one unit (a pause before every
/// operation and attempt), a size that divides nothing evenly, and about
/// what the page does between two looks at the clock.
const SLICES: [u64; 3] = [1, 7, 1000];

/// A work limit small enough for a debug build, for links whose runs would
/// otherwise take seconds.
const SMALL_WORK_LIMIT: u64 = 20_000;

fn json(report: &Report) -> String {
    simulate::to_json(report)
}

/// Both runs of a configuration: A's, and B's when comparing.
fn scenarios(config: &Config, work_limit: u64) -> Vec<Scenario> {
    let mut configs = vec![config.clone()];
    if config.comparing() {
        configs.push(config.policy_b_config());
    }
    configs
        .iter()
        .map(|config| {
            let mut scenario = config.scenario();
            scenario.work_limit = work_limit;
            scenario
        })
        .collect()
}

/// Runs `scenario` in slices of `work`, checking the report so far every
/// `look_every` slices; returns the report and the number of slices.
fn sliced(scenario: &Scenario, work: u64, look_every: u64, what: &str) -> (Report, u64) {
    let mut run = Run::new(scenario);
    let mut slices = 0;
    let mut until = 0.0;
    while !run.advance(work) {
        slices += 1;
        if slices % look_every == 0 {
            let so_far = run.so_far();
            let summary = &so_far.summary;
            assert!(summary.in_progress(), "{what}: {summary:?}");
            assert!(summary.simulated_until >= until, "{what}: time went back");
            until = summary.simulated_until;
        }
    }
    assert!(run.done());
    let report = run.finish();
    assert!(!report.summary.in_progress(), "{what}");
    (report, slices)
}

/// Every slicing of `scenario` reports what one go does.
fn assert_slicing_changes_nothing(scenario: &Scenario, what: &str) -> Report {
    let whole = sim::run(scenario);
    let work =
        whole.summary.operations + whole.summary.attempts_by_layer.last().copied().unwrap_or(0);
    for slice in SLICES {
        // Reports so far cost a copy of the tally: look now and then.
        let (report, slices) = sliced(scenario, slice, 97, what);
        assert_eq!(json(&report), json(&whole), "{what}, slices of {slice}");
        if work > 2 * slice {
            assert!(
                slices > 0,
                "{what}: a run of {work} work in slices of {slice} went in one"
            );
        }
    }
    whole
}

#[test]
fn every_preset_sliced_reports_what_it_reports_in_one_go() {
    for preset in PRESETS {
        for (side, scenario) in scenarios(&preset.config(), simulate::WORK_LIMIT)
            .iter()
            .enumerate()
        {
            assert_slicing_changes_nothing(scenario, &format!("{} ({side})", preset.key));
        }
    }
}

#[test]
fn hostile_links_sliced_report_what_they_report_in_one_go() {
    for index in 0..40 {
        let link = hostile_link(7, index);
        let (config, _) = course::open(&link);
        for scenario in scenarios(&config, SMALL_WORK_LIMIT) {
            assert_slicing_changes_nothing(&scenario, &link);
        }
    }
}

/// Where a bound cuts a run, it cuts the sliced run at the same event: the
/// work limit, the time a run may take (its reviews count events, not
/// slices) and the memory it may hold.
#[test]
fn a_sliced_run_is_cut_where_a_run_in_one_go_is() {
    let cuts = [
        (
            "v=1&rate=20000&horizon=3600&failure=1&attempts=10",
            SMALL_WORK_LIMIT,
            CutReason::Work,
        ),
        (
            "v=1&rate=20000&horizon=3600&failure=1&attempts=10&workers=0",
            SMALL_WORK_LIMIT,
            CutReason::Work,
        ),
        (
            "v=1&layers=8&attempts=50&rate=20000&horizon=3600&workers=0&failure=1\
             &breaker=all&cb_min=1&cb_cool=0",
            SMALL_WORK_LIMIT,
            CutReason::Time,
        ),
        (
            "v=1&timeout=0&rate=20000&hop=constant&hop_mean=10&layers=8",
            simulate::WORK_LIMIT,
            CutReason::Memory,
        ),
    ];
    for (link, work_limit, reason) in cuts {
        let (config, notices) = course::open(link);
        assert_eq!(notices, [], "{link}");
        let scenario = &scenarios(&config, work_limit)[0];
        let whole = assert_slicing_changes_nothing(scenario, link);
        let cut = whole.summary.cut.as_ref().expect("cut");
        assert_eq!(cut.reason, reason, "{link}: {}", cut.message);
    }
}

/// The replay's runs trace a sample of operations as they go: sliced, the
/// trace is the one a run in one go records, and so is the report.
#[test]
fn a_traced_run_sliced_records_the_same_trace() {
    for key in ["herd", "storm"] {
        let preset = PRESETS.iter().find(|p| p.key == key).expect("preset");
        for scenario in scenarios(&preset.config(), simulate::WORK_LIMIT) {
            let (report, trace) = sim::run_traced(&scenario);
            let mut run = Run::traced(&scenario);
            let mut slices = 0;
            while !run.advance(7) {
                slices += 1;
            }
            assert!(slices > 10, "{key}: {slices} slices");
            let (sliced, sliced_trace) = run.finish_traced();
            assert_eq!(json(&sliced), json(&report), "{key}");
            assert_eq!(json(&sliced), json(&sim::run(&scenario)), "{key}");
            let sliced_trace = sliced_trace.expect("a traced run traces");
            assert!(!trace.operations.is_empty(), "{key}");
            assert_eq!(sliced_trace, trace, "{key}");
        }
    }
}

/// A report so far is what a run cut at that instant reports: the series
/// hold every attempt made before `simulated_until` and nothing is counted
/// twice; the run then goes on to the same end.
#[test]
fn a_report_so_far_holds_what_was_simulated_until_then() {
    let (config, _) = course::open("v=1&rate=500&horizon=20&failure=0.3");
    let scenario = &scenarios(&config, simulate::WORK_LIMIT)[0];
    let whole = sim::run(scenario);
    let mut run = Run::new(scenario);
    assert!(!run.advance(whole.summary.operations));
    let so_far = run.so_far();
    let (summary, series) = (&so_far.summary, &so_far.series);
    assert!(summary.in_progress());
    assert!(summary.cut.is_none());
    assert!(
        summary.simulated_until > 1.0 && summary.simulated_until < 19.0,
        "{summary:?}"
    );
    assert!(summary.operations < whole.summary.operations);
    // Every bucket wholly before the instant is as the finished run has it.
    let complete = (summary.simulated_until / series.width) as usize;
    assert!(complete > 3, "{complete}");
    assert_eq!(
        series.first_tries[..complete],
        whole.series.first_tries[..complete]
    );
    assert_eq!(series.retries[..complete], whole.series.retries[..complete]);
    // After it, less: the rest is not simulated yet.
    let after: u64 = series.first_tries[complete + 1..].iter().sum();
    let whole_after: u64 = whole.series.first_tries[complete + 1..].iter().sum();
    assert!(after < whole_after, "{after} vs {whole_after}");
    assert_eq!(json(&run.finish()), json(&whole));
}

/// A slice ends after about as many events as units of work, even where
/// events come without new work: a crowd of clients all reading and
/// writing the shared row once, their operations and first attempts
/// counted when they arrived. Events are looked at every `REVIEW_EVERY`,
/// so a slice of `work` handles at most `work + REVIEW_EVERY` events.
#[test]
fn a_slice_ends_within_its_events_when_events_bring_no_work() {
    let (config, _) = course::open("v=1&workload=contention&clients=20000&attempts=3");
    let scenario = config.scenario();
    let work = 64;
    let mut run = Run::new(&scenario);
    let mut before = 0;
    let mut most = 0;
    while !run.advance(work) {
        let events = run.so_far().summary.events;
        most = most.max(events - before);
        before = events;
    }
    let whole = run.so_far().summary.events;
    assert!(
        whole > 20 * sim::REVIEW_EVERY,
        "a crowd this size handles {whole} events"
    );
    assert!(
        most <= work + sim::REVIEW_EVERY,
        "a slice of {work} handled {most} events"
    );
}
