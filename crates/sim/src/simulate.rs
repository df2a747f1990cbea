//! One run of a configuration, as the page and the command line both do it,
//! so a link gives the same numbers in either.

use crate::config::Config;
use crate::sim::{self, Report, Scenario};
use retry_core::policy::PauseBounds;

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

/// The scenario of a run under `work_limit`, at most [`WORK_LIMIT`]: a run
/// that shares a budget with others (the map's cells).
pub fn scenario_within(config: &Config, work_limit: u64) -> Scenario {
    within(config, work_limit.min(WORK_LIMIT))
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

/// The chain hop by hop, as `--hops` prints it: per layer (the top first),
/// its calls below per request, those sent for a caller that had given up
/// and those the next service turned away (its workers busy, its queue
/// full), and how long its own calls took from their start at it to their
/// end (the top's are the operations); then what the server did: its
/// seconds of work, those wasted and those for callers that had gone, and
/// the requests it shed. `{"a": ..., "b": ...}` when comparing.
pub fn hops_json(a: &Report, b: Option<&Report>) -> String {
    match b {
        None => hops(a).to_string(),
        Some(b) => serde_json::json!({ "a": hops(a), "b": hops(b) }).to_string(),
    }
}

fn hops(report: &Report) -> serde_json::Value {
    let s = &report.summary;
    let per_request = |calls: u64| calls as f64 / s.operations.max(1) as f64;
    let at = |counts: &[u64], i: usize| counts.get(i).copied().unwrap_or(0);
    let layers: Vec<serde_json::Value> = (0..s.attempts_by_layer.len())
        .map(|layer| {
            let took = report.layer_latency.get(layer).unwrap_or(&report.latency);
            serde_json::json!({
                "layer": layer + 1,
                "calls_per_request": per_request(s.attempts_by_layer[layer]),
                "for_nobody_per_request": per_request(at(&s.orphaned_attempts_by_layer, layer)),
                "turned_away_per_request": per_request(at(&s.refused_by_layer, layer + 1)),
                "p50": took.quantile(0.5),
                "p99": took.quantile(0.99),
            })
        })
        .collect();
    serde_json::json!({
        "layers": layers,
        "server_work": s.server_work,
        "wasted_work": s.wasted_work,
        "orphaned_work": s.orphaned_work,
        "shed": s.shed,
    })
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
    let words = cut.words();
    let mut letters = words.chars();
    let first = letters.next().map(|c| c.to_ascii_uppercase());
    Some(retry_core::tf!(
        "{why}; the run stopped there. Shorten the horizon or lower the rate to see it whole.",
        why = format!(
            "{}{}",
            first.map(String::from).unwrap_or_default(),
            letters.as_str()
        )
    ))
}

/// The columns of a run's series, in the order a CSV row writes them.
const SERIES_COLUMNS: [&str; 12] = [
    "first_tries",
    "retries",
    "successes",
    "failures",
    "budget_refusals",
    "breaker_refusals",
    "breaker_open_share",
    "operations_succeeded",
    "operations_failed",
    "in_flight",
    "queue",
    "capacity_per_s",
];

/// Decimals the series' fractional numbers keep: a microsecond for the
/// buckets' start times (whose own decimals, those of the bucket width,
/// are fewer for every width a link can ask for but odd ones such as a
/// third of a second), and a millionth of a request or of the bucket for
/// the averages over a bucket (requests in flight and queued, the
/// breaker's open share) and for capacity. That is finer than the series
/// resolves; what it drops is the noise of adding floats, which wrote
/// `0.30000000000000004` for the start of bucket 3 and
/// `19.99999999999999` for twenty requests in flight.
const SERIES_DECIMALS: f64 = 1e6;

/// A fractional number of the series at [`SERIES_DECIMALS`], as the
/// shortest text that reads back to it: `0.3`, `6.13971`, `400`, `inf`.
fn series_number(value: f64) -> String {
    // Past 1e15 an f64 has no fraction left to round.
    if !value.is_finite() || value.abs() >= 1e15 {
        return format!("{value}");
    }
    let rounded = (value * SERIES_DECIMALS).round() / SERIES_DECIMALS;
    // Rounding a tiny negative error gives -0, which is 0.
    format!("{}", rounded + 0.0)
}

/// One run's numbers for bucket `i`, comma-separated in
/// [`SERIES_COLUMNS`]' order.
fn series_row(report: &Report, i: usize) -> String {
    let series = &report.series;
    format!(
        "{},{},{},{},{},{},{},{},{},{},{},{}",
        series.first_tries[i],
        series.retries[i],
        series.successes[i],
        series.failures(i),
        series.budget_refusals[i],
        series.breaker_refusals[i],
        series_number(series.breaker_open[i]),
        series.operations_succeeded[i],
        series.operations_failed[i],
        series_number(series.in_flight[i]),
        series_number(series.queue[i]),
        series_number(series.capacity[i]),
    )
}

/// The per-bucket series as CSV, one row per time bucket: policy A's
/// columns alone, or in compare mode A's and then B's, each named after
/// its policy (`a_retries`, `b_retries`). Both runs share the world and
/// the buckets, so a row is one stretch of time for both.
pub fn series_csv(a: &Report, b: Option<&Report>) -> String {
    let sides: Vec<(&str, &Report)> = match b {
        None => vec![("", a)],
        Some(b) => vec![("a_", a), ("b_", b)],
    };
    let mut out = String::from("start_s");
    for (prefix, _) in &sides {
        for column in SERIES_COLUMNS {
            out += &format!(",{prefix}{column}");
        }
    }
    out += "\n";
    let series = &a.series;
    for i in 0..series.len() {
        out += &series_number(i as f64 * series.width);
        for (_, report) in &sides {
            out += ",";
            out += &series_row(report, i);
        }
        out += "\n";
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
        let csv = series_csv(&report, None);
        assert_eq!(csv.lines().count(), report.series.len() + 1);
    }

    /// Compare mode's series holds both runs, each column named after its
    /// policy, and numbers print at the precision the series has: bucket
    /// starts at the width's decimals, averages without the float noise.
    #[test]
    fn the_series_holds_a_and_b_at_their_precision() {
        let (config, _) = Config::from_link(
            "v=1&compare=on&jitter=none&B.jitter=full&horizon=30&buckets=300&failure=0.5&workers=20",
        );
        let (a, b) = run_both(&config);
        let b = b.expect("comparing");
        let csv = series_csv(&a, Some(&b));
        let mut lines = csv.lines();
        let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
        assert_eq!(header.len(), 1 + 2 * SERIES_COLUMNS.len());
        assert_eq!(&header[..3], ["start_s", "a_first_tries", "a_retries"]);
        assert_eq!(header[1 + SERIES_COLUMNS.len()], "b_first_tries");
        assert_eq!(header.last(), Some(&"b_capacity_per_s"));
        let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
        assert_eq!(rows.len(), a.series.len());
        let column = |name: &str| header.iter().position(|h| *h == name).expect(name);
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(row.len(), header.len());
            // Bucket 3 of 0.1 s starts at 0.3, not 0.30000000000000004.
            assert_eq!(row[0], format!("{}", i as f64 / 10.0), "{i}");
            assert_eq!(row[column("a_retries")], a.series.retries[i].to_string());
            assert_eq!(row[column("b_retries")], b.series.retries[i].to_string());
            for name in ["a_in_flight", "b_queue", "b_breaker_open_share"] {
                let text = row[column(name)];
                let decimals = text.split_once('.').map_or(0, |(_, d)| d.len());
                assert!(decimals <= 6, "{name} {text}");
            }
            let level: f64 = row[column("b_in_flight")].parse().expect("a number");
            assert!((level - b.series.in_flight[i]).abs() <= 5e-7, "{i}");
        }
        assert_ne!(
            rows.iter()
                .map(|r| r[column("a_retries")])
                .collect::<Vec<_>>(),
            rows.iter()
                .map(|r| r[column("b_retries")])
                .collect::<Vec<_>>(),
            "B's own numbers"
        );
        assert_eq!(series_number(19.99999999999999), "20");
        assert_eq!(series_number(29.700000000000003), "29.7");
        assert_eq!(series_number(-1e-17), "0");
        assert_eq!(series_number(f64::INFINITY), "inf");
        assert_eq!(series_number(6.139709737762206), "6.13971");
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
        a.summary.cut = Some(Cut::new(CutReason::Work, 12.5, [3_000_000, 0, 0]));
        assert_eq!(
            a.summary.cut.as_ref().map(|c| c.message.as_str()),
            Some("more than 3000000 operations and attempts by t = 12.50 s")
        );
        assert_eq!(
            limit_text(&b, Some(&a)).as_deref(),
            Some(
                "More than 3000000 operations and attempts by t = 12.50 s; the run stopped \
                 there. Shorten the horizon or lower the rate to see it whole."
            )
        );
    }
}
