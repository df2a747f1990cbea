//! Links that once ran away, each kept as a named test: every run is
//! bounded in time and memory, and says where and why it was cut.
//!
//! The bound on memory is checked at the limit the page and the command
//! line use, since a drowning server reaches it within a few thousand
//! events. The bound on time is checked on the same links under a smaller
//! work limit (the time budget is derived from it): at the real one a debug
//! build would spend minutes on what a release build does in a second.

mod common;

use retry_analyses::seeds::SeedRuns;
use retry_analyses::sliced::{Slice, Sliced};
use retry_sim::config::Config;
use retry_sim::sim::{
    self, COST_PER_WORK, CutReason, MAX_IN_FLIGHT_BYTES, REVIEW_EVERY, Report, in_flight_bytes,
};
use retry_sim::simulate;
use retry_teach::course;

/// A work limit small enough for a debug build.
const SMALL_WORK_LIMIT: u64 = 20_000;

fn config(link: &str) -> Config {
    let (config, notices) = course::open(link);
    assert_eq!(notices, [], "{link}");
    config
}

fn run_within(link: &str, work_limit: u64) -> Report {
    let mut scenario = config(link).scenario();
    scenario.work_limit = work_limit;
    sim::run(&scenario)
}

/// A run cut short for `reason`, within the bounds its counters report.
fn assert_cut(report: &Report, reason: CutReason, work_limit: u64, link: &str) {
    let summary = &report.summary;
    let cut = summary.cut.as_ref().expect("the run was cut");
    assert!(summary.truncated, "{link}");
    assert_eq!(cut.reason, reason, "{link}: {}", cut.message);
    // The cut is where the report stops, and nothing finished after it.
    assert_eq!(cut.at, summary.simulated_until, "{link}");
    assert!(summary.finished_at <= cut.at, "{link}: {summary:?}");
    // An event costs at least one unit and the bound is looked at every
    // `REVIEW_EVERY` events.
    assert!(
        summary.events <= work_limit * COST_PER_WORK + REVIEW_EVERY,
        "{link}: {summary:?}"
    );
    assert!(
        in_flight_bytes(summary.peak_calls, summary.peak_events)
            <= MAX_IN_FLIGHT_BYTES + REVIEW_EVERY * 2048,
        "{link}: {summary:?}"
    );
    assert_said(report, work_limit, link);
}

/// A cut's message names the bound reached, in the summary's own numbers
/// and at the cut's instant; and the bounds on time and memory are looked
/// at every `REVIEW_EVERY` events, so such a cut comes at a multiple of it.
/// Counts the simulator happens to reach are not pinned: they move with
/// every change to what an event costs.
fn assert_said(report: &Report, work_limit: u64, link: &str) {
    let summary = &report.summary;
    let cut = summary.cut.as_ref().expect("the run was cut");
    let at = format!("t = {:.2} s", cut.at);
    let said = match cut.reason {
        CutReason::Work => format!("more than {work_limit} operations and attempts by {at}"),
        CutReason::Time => {
            assert!(
                summary.cost >= work_limit * COST_PER_WORK,
                "{link}: {summary:?}"
            );
            format!(
                "{} events by {at}, about as much computing as a run may take",
                summary.events
            )
        }
        CutReason::Memory => {
            assert!(
                in_flight_bytes(summary.peak_calls, summary.peak_events) > MAX_IN_FLIGHT_BYTES,
                "{link}: {summary:?}"
            );
            format!(
                "more than {} requests in flight at {at}: the server is drowning, which is \
                 itself the lesson",
                summary.peak_calls
            )
        }
    };
    assert_eq!(cut.message, said, "{link}");
    if cut.reason != CutReason::Work {
        assert_eq!(summary.events % REVIEW_EVERY, 0, "{link}: {summary:?}");
    }
}

/// Eight layers, fifty attempts, a server that always fails and breakers
/// that trip at once: refused attempts are events but not work, and the
/// run once reached 18 M events (7 s natively, 9.5 s in Chromium).
#[test]
fn eight_layers_of_tripped_breakers_are_cut_in_time() {
    let link = "v=1&layers=8&attempts=50&rate=20000&horizon=3600&workers=0&failure=1\
                &breaker=all&cb_min=1&cb_cool=0";
    let report = run_within(link, SMALL_WORK_LIMIT);
    assert_cut(&report, CutReason::Time, SMALL_WORK_LIMIT, link);
}

/// Six layers under ten-minute pauses and a latency slope: calls pile up
/// in flight, and every event costs more for it (4-4.6 s natively before).
/// Checked at the real limit: the run is cut within a million events,
/// few enough for a debug build.
#[test]
fn six_layers_of_long_pauses_are_cut_in_time() {
    let link = "v=1&base=600&cap=100&timeout=60&spike_for=100&workers=0&slope=1&layers=6&shared=on";
    let report = run_within(link, simulate::WORK_LIMIT);
    assert_cut(&report, CutReason::Time, simulate::WORK_LIMIT, link);
    assert!(report.summary.events <= 1_000_000, "{:?}", report.summary);
}

/// 200 000 clients contend for one row with fifty attempts each (2 s
/// natively before).
#[test]
fn a_contention_crowd_of_200000_is_cut_in_time() {
    let link = "v=1&attempts=50&workload=contention&clients=200000";
    // Every client's start and first attempt are work: a limit well above
    // them lets the crowd start, and the time it then takes is what is cut.
    let work_limit = 600_000;
    let report = run_within(link, work_limit);
    assert_cut(&report, CutReason::Time, work_limit, link);
    assert_eq!(report.summary.operations, 200_000);
    // Each client keeps a frame, its operation and its extras in flight,
    // and an event weighs by their bytes (counted as calls, the run went on
    // to 385024 events and took twice the time per unit of other runs).
    assert!(
        report.summary.cost > 2 * report.summary.events,
        "events this heavy cost more than light ones: {:?}",
        report.summary
    );
}

/// Answers ten seconds away through eight layers: a million operations in
/// flight once took 1.2 GB natively and 1.6 GB of wasm memory.
#[test]
fn answers_ten_seconds_away_drown_the_server() {
    let link = "v=1&timeout=0&rate=20000&hop=constant&hop_mean=10&layers=8";
    let report = run_within(link, simulate::WORK_LIMIT);
    assert_cut(&report, CutReason::Memory, simulate::WORK_LIMIT, link);
}

/// The same with every answer a success after a minute's Retry-After
/// (1.7 GB natively, 2.6 GB in the page).
#[test]
fn answers_ten_seconds_away_with_a_long_retry_after_drown_the_server() {
    let link =
        "v=1&timeout=0&rate=20000&hop=constant&hop_mean=10&layers=8&failure=0&retry_after=60";
    let report = run_within(link, simulate::WORK_LIMIT);
    assert_cut(&report, CutReason::Memory, simulate::WORK_LIMIT, link);
}

/// A setting after the pair limit once vanished without a word.
#[test]
fn a_setting_past_the_pair_limit_is_reported_not_dropped_silently() {
    let link = "v=1&".repeat(200) + "attempts=7";
    let (config, notices) = course::open(&link);
    assert_eq!(config, Config::default());
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(notices[0].key, "link");
    assert!(notices[0].message.starts_with("1 more pair ignored"));
}

/// A run that fits its bounds is not cut and says nothing.
#[test]
fn a_run_within_its_bounds_is_whole() {
    let report = simulate::run(&config("v=1&horizon=5"));
    assert!(!report.summary.truncated);
    assert_eq!(report.summary.cut, None);
    assert!(report.summary.cost >= report.summary.events);
}

/// The headlines' other seeds of a runaway world whose first seed looked
/// small (here a stand-in's): ten seeds are planned, but they share one
/// budget of work, so the first of them is cut at it and the seeds stop,
/// within the budget's work and time.
#[test]
fn seeds_after_a_small_first_seed_share_one_budget() {
    let tiny = simulate::run(&config("v=1&rate=1&horizon=1"));
    let link = "v=1&layers=8&attempts=50&rate=20000&horizon=3600&workers=0&failure=1\
                &breaker=all&cb_min=1&cb_cool=0";
    let mut runs = SeedRuns::within(&config(link), &tiny.summary, None, SMALL_WORK_LIMIT);
    while runs.step(1_000) != Slice::Done {}
    let (seeds, spent) = (runs.seeds(), runs.spent());
    assert_eq!((seeds.planned, seeds.count()), (10, 1), "{spent:?}");
    assert_eq!(spent.runs, 1);
    assert!(spent.work <= SMALL_WORK_LIMIT + 16, "{spent:?}");
    assert!(
        spent.events <= SMALL_WORK_LIMIT * COST_PER_WORK + REVIEW_EVERY,
        "{spent:?}"
    );
}

/// A world whose first run was cut at a bound is too big to run again:
/// its headlines have one seed, and no seed run starts.
#[test]
fn a_cut_first_seed_is_the_only_seed() {
    let link = "v=1&rate=20000&horizon=3600&failure=1&attempts=10";
    let first = run_within(link, SMALL_WORK_LIMIT);
    assert!(first.summary.truncated);
    let mut runs = SeedRuns::new(&config(link), &first.summary, None);
    assert_eq!(runs.step(u64::MAX), Slice::Done);
    assert_eq!((runs.seeds().planned, runs.seeds().count()), (1, 1));
    assert_eq!(runs.spent().runs, 0);
}
