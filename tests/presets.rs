//! Every preset through the layers below the lessons: the simulator's
//! trace and the report's numbers hold on each preset's worlds as the page
//! runs them. These tests live above `retry-sim` because the presets do.

use retry_analyses::sweep::{POINTS, curves, failure_at, headline_curves, point, point_of};
use retry_sim::config::{Config, P};
use retry_sim::metrics::Metric;
use retry_sim::sim::trace::{Ending, SAMPLED, Trace};
use retry_sim::sim::{self, Scenario};
use retry_sim::simulate;
use retry_teach::presets::PRESETS;

/// Every policy of every preset, as the page runs them.
fn preset_scenarios() -> Vec<(String, Scenario)> {
    let mut scenarios = Vec::new();
    for preset in PRESETS {
        let config = preset.config();
        for (side, config) in [("A", config.clone()), ("B", config.policy_b_config())] {
            let mut s = config.scenario();
            s.work_limit = simulate::WORK_LIMIT;
            scenarios.push((format!("{} {side}", preset.key), s));
        }
    }
    scenarios
}

/// The trace only watches: every preset reports the same with and
/// without it, bit for bit (natively the plain ones even run on the
/// plain world, which has no hooks).
#[test]
fn tracing_changes_no_number_of_the_report() {
    for (name, s) in preset_scenarios() {
        let (traced, trace) = sim::run_traced(&s);
        assert_eq!(traced, sim::run(&s), "{name}");
        assert!(!trace.operations.is_empty(), "{name}: nothing traced");
    }
}

/// Same scenario, same trace; and A and B follow the same operations.
#[test]
fn the_trace_is_deterministic_and_the_same_sample_for_both_policies() {
    let herd = PRESETS.iter().find(|p| p.key == "herd").expect("herd");
    let a = herd.config();
    let (_, first) = sim::run_traced(&a.scenario());
    let (_, again) = sim::run_traced(&a.scenario());
    assert_eq!(first, again);
    let (_, b) = sim::run_traced(&a.policy_b_config().scenario());
    let numbers = |t: &Trace| t.operations.iter().map(|o| o.number).collect::<Vec<_>>();
    assert_eq!(numbers(&first), numbers(&b));
    assert_eq!(
        first.operations.len(),
        SAMPLED,
        "2000 clients fill the sample"
    );
    // Spread over the crowd, not its first 200 clients.
    assert!(first.operations.last().expect("sampled").number > 1000);
}

/// On crowds too big to trace whole, the sample's success share is the
/// run's within four standard deviations of a binomial sample of its
/// size (plus one operation, for the few samples near 0 or 1); the
/// bound fails by chance about once in 16 000 checks.
#[test]
fn the_sample_succeeds_as_often_as_the_run() {
    let mut checked = 0;
    for (name, s) in preset_scenarios() {
        let (report, trace) = sim::run_traced(&s);
        let n = trace.operations.len() as f64;
        if report.summary.operations < 1000 || report.summary.truncated {
            continue;
        }
        let finished = report.summary.operations - report.summary.unfinished;
        let p = report.summary.succeeded as f64 / finished as f64;
        let ended = trace
            .operations
            .iter()
            .filter(|o| o.ending.is_some())
            .count() as f64;
        let succeeded = trace
            .operations
            .iter()
            .filter(|o| o.ending == Some(Ending::Succeeded))
            .count();
        let share = succeeded as f64 / ended;
        let bound = 4.0 * (p * (1.0 - p) / n).sqrt() + 1.0 / n;
        assert!(
            (share - p).abs() <= bound,
            "{name}: {share} vs {p} ± {bound}"
        );
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} presets checked");
}

/// The summary table once read its calls per operation from the calls
/// of the bottom layer: the server's calls, the very number the
/// headlines read.
#[test]
fn calls_per_operation_are_the_bottom_layers() {
    for preset in PRESETS {
        let (a, b) = simulate::run_both(&preset.config());
        for report in std::iter::once(&a).chain(&b) {
            let s = &report.summary;
            let bottom = s.attempts_by_layer.last().copied().unwrap_or(0) as f64
                / s.operations.max(1) as f64;
            assert_eq!(
                Metric::LoadAmplification.value(report).to_bits(),
                bottom.to_bits(),
                "{}",
                preset.key
            );
        }
    }
}

/// The classic preset's policy is the "3 retries" strategy, and its
/// headline numbers are that curve's point at the world's failure
/// rate, bit for bit; a policy sweep's curves are A's and B's own.
#[test]
fn the_headlines_lie_on_their_curve() {
    let classic = PRESETS
        .iter()
        .find(|p| p.key == "classic")
        .expect("the classic preset")
        .config();
    let curves = curves(&classic);
    assert_eq!(headline_curves(&classic), [Some(1)]);
    assert_eq!(curves[1].label.0, "3 retries");
    let failure = classic.get(P::Failure);
    let index = (failure * (POINTS - 1) as f64).round() as usize;
    assert_eq!(failure_at(index, POINTS), failure);
    let run = simulate::run(&classic);
    assert_eq!(
        point(&curves[1].config, index, POINTS),
        point_of(failure, &run.summary)
    );
    let mut other = classic.clone();
    other.set(P::Attempts, 2.0);
    assert_eq!(
        headline_curves(&other),
        [None],
        "2 attempts is no strategy of the four"
    );
    let policies = Config::from_link("v=1&compare=on&B.attempts=2").0;
    assert_eq!(headline_curves(&policies), [Some(0), Some(1)]);
}

/// Every change the page applies, read as a typed [`Change`], is read
/// whole (no notice: a misspelt key in a preset would otherwise do
/// nothing, silently), and means what the link of the configuration with
/// its pairs appended means: the presets' "try this", the chapters' and
/// the search's candidates as policy B, on the world each is applied to.
#[test]
fn every_change_reads_whole_and_means_what_its_link_means() {
    use retry_analyses::search::{self, Constraints};
    use retry_sim::link::Change;
    use retry_teach::course::CHAPTERS;

    let mut changes: Vec<(Config, String)> = Vec::new();
    for preset in PRESETS {
        for try_this in preset.try_this {
            changes.push((preset.config(), try_this.change.to_string()));
        }
    }
    for chapter in CHAPTERS {
        let preset = PRESETS
            .iter()
            .find(|p| p.key == chapter.preset)
            .expect("its preset");
        changes.push((preset.config(), chapter.change.to_string()));
    }
    let herd = PRESETS
        .iter()
        .find(|p| p.key == "herd")
        .expect("herd")
        .config();
    for candidate in search::candidates(&herd, &Constraints::of(&herd)) {
        changes.push((herd.clone(), candidate.change.as_b().to_pairs()));
    }
    assert!(changes.len() > 800, "{} changes", changes.len());
    for (config, pairs) in changes {
        let change = Change::read(&pairs);
        assert_eq!(change.notices(), [], "{pairs}");
        let (changed, notices) = config.changed(&change);
        let (linked, _) = Config::from_link(&format!("{}&{pairs}", config.to_link()));
        assert_eq!(changed, linked, "{pairs} on {}", config.to_link());
        // Only a value a range clamped is said; these are in range.
        assert_eq!(notices, [], "{pairs}");
    }
}
