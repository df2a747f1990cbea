//! One run of a configuration, as the page and the command line both do it,
//! so a link gives the same numbers in either.

use crate::config::Config;
use crate::policy::PauseBounds;
use crate::sim::{self, Report, Scenario};

/// Most work (operations plus server attempts) one run may do, on the page
/// and on the command line alike: enough for a million operations that
/// fail half their attempts with four attempts each (the benchmark's
/// reference workload). The simulator derives from it the run's bound on
/// time, about a second natively whatever the link, and it bounds memory
/// on its own (`sim::world`, "Bounds"). At any bound the run stops early
/// and says where and why (`summary.truncated`, `summary.cut`); the page
/// and the command line tell the person how to shrink it.
pub const WORK_LIMIT: u64 = 3_000_000;

/// Runs the configuration under [`WORK_LIMIT`], which replaces the
/// simulator's own default limit.
pub fn run(config: &Config) -> Report {
    run_within(config, WORK_LIMIT)
}

/// The scenario [`run`] simulates for a configuration, for running it a
/// slice at a time ([`sim::Run`]) to the same report.
pub fn scenario(config: &Config) -> Scenario {
    within(config, WORK_LIMIT)
}

fn within(config: &Config, work_limit: u64) -> Scenario {
    let mut scenario = config.scenario();
    scenario.work_limit = work_limit;
    scenario
}

fn run_within(config: &Config, work_limit: u64) -> Report {
    sim::run(&within(config, work_limit))
}

/// Both runs of compare mode: policy A, and policy B when comparing. They
/// share the world and the seed, so differences come from the policy.
pub fn run_both(config: &Config) -> (Report, Option<Report>) {
    let b = config.comparing().then(|| run(&config.policy_b_config()));
    (run(config), b)
}

/// What the command line prints for a link, and what the page computes:
/// the report as JSON, or `{"a": ..., "b": ...}` when comparing.
pub fn json_for(config: &Config) -> String {
    let (a, b) = run_both(config);
    both_to_json(&a, b.as_ref())
}

/// The JSON of [`json_for`] from runs already made.
pub fn both_to_json(a: &Report, b: Option<&Report>) -> String {
    match b {
        None => to_json(a),
        Some(b) => format!("{{\"a\":{},\"b\":{}}}", to_json(a), to_json(b)),
    }
}

/// Analytic bounds of the pause before each retry of the configured policy.
pub fn pause_bounds(config: &Config) -> Vec<PauseBounds> {
    let policy = config.policy();
    (0..policy.attempts.saturating_sub(1))
        .map(|retry| policy.pause_bounds(retry))
        .collect()
}

/// The report as JSON. Floats are printed as the shortest text that reads
/// back to the same bits, so equal text means equal numbers; infinite
/// capacity (unlimited workers) becomes `null`.
pub fn to_json(report: &Report) -> String {
    serde_json::to_string(report).unwrap_or_else(|error| format!("{{\"error\":\"{error}\"}}"))
}

/// What the page and the command line say when a run was cut short at one
/// of its bounds, if one was: where and why (policy A's first), and how to
/// see it whole.
pub fn limit_text(a: &Report, b: Option<&Report>) -> Option<String> {
    let cut = [Some(a), b]
        .into_iter()
        .flatten()
        .find_map(|report| report.summary.cut.as_ref())?;
    // The simulator's own words, which start with an ASCII letter or digit;
    // the ASCII case keeps Unicode's case tables (about 9 KB gzip) out of
    // the page.
    let mut letters = cut.message.chars();
    let first = letters.next().map(|c| c.to_ascii_uppercase());
    Some(format!(
        "{}{}; the run stopped there. Shorten the horizon or lower the rate to see it whole.",
        first.map(String::from).unwrap_or_default(),
        letters.as_str()
    ))
}

/// The per-bucket series as CSV, one row per time bucket.
pub fn series_csv(report: &Report) -> String {
    let series = &report.series;
    let mut out = String::from(
        "start_s,first_tries,retries,successes,failures,budget_refusals,breaker_refusals,\
         breaker_open_share,operations_succeeded,operations_failed,in_flight,queue,capacity_per_s\n",
    );
    for i in 0..series.len() {
        out += &format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
            i as f64 * series.width,
            series.first_tries[i],
            series.retries[i],
            series.successes[i],
            series.failures(i),
            series.budget_refusals[i],
            series.breaker_refusals[i],
            series.breaker_open[i],
            series.operations_succeeded[i],
            series.operations_failed[i],
            series.in_flight[i],
            series.queue[i],
            series.capacity[i],
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_and_csv_carry_the_run() {
        let (config, _) = Config::from_link("v=1&horizon=5&rate=50&workers=0");
        let report = run(&config);
        let json = to_json(&report);
        assert!(
            json.starts_with("{\"summary\":{\"operations\":"),
            "{json:.80}"
        );
        assert!(
            json.contains("\"capacity\":[null,"),
            "unlimited capacity is null"
        );
        let csv = series_csv(&report);
        assert_eq!(csv.lines().count(), report.series.len() + 1);
    }

    #[test]
    fn compare_mode_runs_b_on_the_same_world() {
        let (config, _) =
            Config::from_link("v=1&compare=on&jitter=none&B.jitter=full&horizon=5&failure=0.5");
        let (a, b) = run_both(&config);
        let b = b.expect("comparing");
        // Same arrivals (same seed, same world), different pauses.
        assert_eq!(a.summary.operations, b.summary.operations);
        assert_ne!(a.pauses, b.pauses);
        assert!(json_for(&config).starts_with("{\"a\":{\"summary\""));
    }

    /// Compare mode's promise: differences come from the policy. B's budget
    /// couples operations, so B runs every operation in one queue while A
    /// runs them one at a time; a budget that never refuses must still
    /// leave B with exactly A's numbers.
    #[test]
    fn a_budget_that_never_refuses_changes_nothing() {
        let (config, notices) = Config::from_link(
            "v=1&compare=on&workers=0&horizon=20&failure=0.3&lost=0.05&hop_mean=0.01\
            &B.budget=ratio&B.b_floor=1000",
        );
        assert_eq!(notices, []);
        let (a, b) = run_both(&config);
        let b = b.expect("comparing");
        assert_eq!(b.summary.budget_refusals, 0);
        assert!(a.summary.retries > 500, "{:?}", a.summary);
        assert_eq!(a.summary.attempts_by_layer, b.summary.attempts_by_layer);
        assert_eq!(a.summary.succeeded, b.summary.succeeded);
        assert_eq!(a.summary.duplicates, b.summary.duplicates);
        assert_eq!(a.series.retries, b.series.retries);
        assert_eq!(a.series.successes, b.series.successes);
        assert_eq!(a.latency.counts, b.latency.counts);
        // Pause means are sums in another order: compare the counts.
        let counts = |r: &Report| {
            r.pauses
                .iter()
                .map(|h| h.counts.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(counts(&a), counts(&b));
    }

    #[test]
    fn pauses_at_the_top_of_their_range_are_counted() {
        // No jitter: every pause equals its ceiling, the top of the range.
        let (config, _) = Config::from_link("v=1&shape=constant&jitter=none&horizon=5&failure=0.5");
        let report = run(&config);
        for histogram in &report.pauses {
            assert_eq!(histogram.over, 0, "retry {}", histogram.retry);
            assert_eq!(histogram.counts.iter().sum::<u64>(), histogram.taken);
        }
        assert!(report.pauses[0].taken > 0);
    }

    #[test]
    fn the_work_limit_stops_a_huge_run() {
        // The real limit is checked at this scale only: a full 5M-step run
        // takes seconds in a debug build.
        // With 20 workers every operation waits in one queue; with
        // unlimited workers operations run one at a time (sim::world).
        for workers in ["", "&workers=0"] {
            let link = format!("v=1&rate=20000&horizon=3600&failure=1&attempts=10{workers}");
            let (config, _) = Config::from_link(&link);
            let report = run_within(&config, 20_000);
            assert!(report.summary.truncated, "{link}");
            let work = report.summary.operations + report.summary.attempts_by_layer[0];
            assert!(work <= 20_000 + 16, "{link}: {work}");
        }
    }

    #[test]
    fn the_limit_is_said_only_when_a_run_was_cut_short() {
        use crate::sim::{Cut, CutReason};
        let (config, _) = Config::from_link("v=1&rate=1&horizon=1");
        let mut a = run(&config);
        let b = a.clone();
        assert_eq!(limit_text(&a, Some(&b)), None);
        a.summary.truncated = true;
        a.summary.cut = Some(Cut {
            reason: CutReason::Work,
            at: 12.5,
            message: "more than 3000000 operations and attempts by t = 12.50 s".to_string(),
        });
        assert_eq!(
            limit_text(&b, Some(&a)).as_deref(),
            Some(
                "More than 3000000 operations and attempts by t = 12.50 s; the run stopped \
                 there. Shorten the horizon or lower the rate to see it whole."
            )
        );
    }
}
