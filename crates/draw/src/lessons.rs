//! (tests) Each preset's sentence of what the eye must see on its key
//! chart (`Preset::sees`), checked on the drawing where geometry can say
//! it, and each "try this" leaving a ghost of the state before it on axes
//! that stay while the new data fits.
//!
//! The sentences and the tests that hold them:
//!
//! | preset | test |
//! |---|---|
//! | herd, shared-seed, polly | `waves_stand_above_capacity_by_their_true_ratio` |
//! | storm | `mechanism::tests::the_storms_a_keeps_climbing_and_b_recovers` |
//! | budget | `the_budget_keeps_b_near_what_is_offered` |
//! | layers | `layers_put_nine_times_the_load_at_the_bottom` |
//! | orphans | `orphans_triple_the_database_calls_and_outlast_the_slowdown` |
//! | fan-out | `a_fan_out_of_100_meets_the_backends_p99_two_times_in_three` |
//! | shed | `an_oldest_first_queue_stays_above_twice_capacity_after_the_spike` |
//! | lost-response | `load::tests::the_lost_responses_duplicates_rise_for_a_and_stay_at_zero_for_b`, `the_lost_response_loads_are_the_same` |
//! | deadline | `the_deadline_flattens_a_and_b_climbs_in_steps` |
//! | contention | `contention_means_and_the_headlines_row` |
//! | classic | `sweep::tests::the_sweeps_mark_stands_at_the_worlds_failure_rate`, `the_classic_sweeps_ends` |
//! | aws-sdk, grpc | `mechanism::tests::budget_presets_show_what_each_policy_sends_in_the_outage` |
//! | why-retry | `retries_buy_success_and_cost_their_attempts_at_full_failure` |
//! | timeout | `a_timeout_below_the_p99_triples_the_load` |
//! | long-tail | `a_timeout_at_the_mean_of_a_long_tail_cuts_three_calls_in_ten` |
//! | closed-loop | `closed_loop_clients_without_backoff_send_four_times_as_much_while_it_is_down` |
//! | throttle | `throttling_first_tries_keeps_b_under_capacity` |
//! | envoy | `envoys_default_hardly_retries_and_its_budget_retries_once` |
//! | finagle | `finagles_budget_holds_b_under_half_of_as_calls_in_the_outage` |
//! | aws-2026 | `todays_aws_quota_runs_dry_sooner` |
//! | hedge | `the_hedge_reaches_99_percent_first` |
//! | stability-sim | `one_crashed_server_of_two_leaves_a_collapsed_and_b_recovered` |
//! | at-scale | `the_bucket_climbs_with_the_instances_and_the_breaker_stays_at_one` |
//! | trigger | `the_map_is_deep_for_a_where_the_trigger_stands` |

use plotters::prelude::*;

use crate::presets::PRESETS;
use retry_analyses::contention::ContentionGrid;
use retry_analyses::sweep::{self, Point};
use retry_core::chart_id::ChartId;
use retry_sim::config::{Config, P};
use retry_sim::sim::{LatencyHistogram, Law, Report};

use super::svg_test::*;
use super::*;

mod jobs {
    use super::*;

    pub(super) use crate::run;

    /// The contention chart's grid over the page's number of seeds.
    pub(super) fn contention_grid(config: &Config) -> ContentionGrid {
        retry_analyses::contention::contention_grid(config, 20)
    }
}

fn rate(report: &Report, i: usize) -> f64 {
    let s = &report.series;
    (s.first_tries[i] + s.retries[i]) as f64 / s.width
}

/// The load chart of `runs` as the page first draws it, and its axes.
fn load_drawn(runs: &crate::runs::Runs, theme: &Theme) -> (String, Axes) {
    let drawn = std::cell::Cell::new(None);
    let out = svg(|area| {
        let view = LoadView::default();
        let charts = runs.charts();
        drawn.set(Some(draw_load_view(
            area,
            &charts,
            &runs.scenario,
            theme,
            &view,
        )?));
        Ok(())
    });
    (out, drawn.get().expect("drawn").axes)
}

/// The herd and the shared-seed trap: after the outage A's waves stand
/// above the capacity line by their true ratio on the log axis (ten times
/// is a power of ten), B's load under it; nothing sent during the outage
/// is filled.
#[test]
fn waves_stand_above_capacity_by_their_true_ratio() {
    for key in ["herd", "shared-seed", "polly"] {
        let preset = preset(key);
        assert!(
            preset
                .sees()
                .0
                .contains("ten times above the capacity line")
                || preset
                    .sees()
                    .0
                    .contains("up to ten times the capacity line")
        );
        let runs = jobs::run(&preset.config());
        let (a, b) = (&runs.a, runs.b.as_ref().expect("comparing"));
        let theme = Theme::light(1.0);
        let (out, axes) = load_drawn(&runs, &theme);
        assert!(axes.floor > 0.0, "{key}: a log axis");
        let panels = shades(&out, &theme);
        let outage_end = runs.scenario.outage_start + runs.scenario.outage_duration;
        let after = |report: &Report| {
            let width = report.series.width;
            (0..report.series.len())
                .filter(|&i| i as f64 * width >= outage_end)
                .map(|i| rate(report, i))
                .fold(0.0, f64::max)
        };
        let capacity = 2000.0;
        assert!(
            after(a) / capacity > 9.5,
            "{key}: A's waves are ten times capacity"
        );
        assert!(after(b) < capacity, "{key}: B's load stays under it");
        for (panel, (report, colour)) in [(a, run_colour(&theme, 0)), (b, run_colour(&theme, 1))]
            .into_iter()
            .enumerate()
        {
            let [left, top, right, bottom] = panels[panel];
            let (low, high) = (axes.floor.log10(), axes.tops[0].log10());
            let y = |value: f64| {
                bottom - (value.max(axes.floor).log10() - low) / (high - low) * (bottom - top)
            };
            let highest = lines_in(&out, colour)
                .into_iter()
                .flatten()
                .filter(|(px, py)| *px > right + 1.0 && *py >= top && *py <= bottom + 0.5)
                .map(|(_, py)| py)
                .fold(f64::INFINITY, f64::min);
            // B's line is dashed: a gap of the dash may fall on the top of a
            // bucket that stands alone (a step of 2 px), so its highest
            // drawn point may lie up to that far below.
            let below = if panel == 1 { 3.0 } else { 1.5 };
            let expected = y(after(report));
            assert!(
                highest >= expected - 1.5 && highest <= expected + below,
                "{key}: the busiest bucket after the outage, panel {panel}: drawn at {highest} \
                 px, belongs at {expected:.1} px"
            );
            let decade = y(capacity) - y(10.0 * capacity);
            let height = decade * (after(report) / capacity).log10();
            assert!(
                (y(capacity) - highest - height).abs() <= below,
                "{key}: height above (or under) capacity by the true ratio, panel {panel}"
            );
            for fill in [colour, light(&theme, colour)] {
                for e in elements(&out, "polygon")
                    .into_iter()
                    .filter(|e| attr(e, "fill") == hex(fill))
                {
                    for (px, py) in points(&e) {
                        if px > left + 1.5 && px < right - 1.5 && py > top {
                            near(
                                py,
                                y(0.0),
                                &format!("{key}: nothing filled during the outage"),
                            );
                        }
                    }
                }
            }
        }
    }
}

/// The mean height of a run's load after `from` seconds, on a linear
/// load chart whose first panel is `panel` (a shade's span fixes time).
fn mean_after(report: &Report, from: f64) -> f64 {
    mean_between(report, from, f64::INFINITY)
}

/// Where the rightmost ring of `colour` stands (pixels): on the latency
/// chart, that policy's p99 in the tail panel.
fn rightmost_ring(out: &str, colour: RGBColor) -> f64 {
    elements(out, "circle")
        .into_iter()
        .filter(|e| attr(e, "stroke") == hex(colour) && attr(e, "fill") == "none")
        .map(|e| number(&e, "cx"))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// The pixels of the filled load of `colour`, as a function of time.
fn filled_heights(out: &str, fill: RGBColor) -> Vec<(f64, f64)> {
    elements(out, "polygon")
        .into_iter()
        .filter(|e| attr(e, "fill") == hex(fill))
        .flat_map(|e| points(&e))
        .collect()
}

/// The budget: after the spike A's load grows to about three times the
/// offered 40/s, B's settles back near 40: the drawn heights say so.
#[test]
fn the_budget_keeps_b_near_what_is_offered() {
    let preset = preset("budget");
    assert!(
        preset
            .sees()
            .0
            .contains("three times the 40 calls a second")
    );
    let runs = jobs::run(&preset.config());
    let charts = runs.charts();
    let (a, b) = (&runs.a, runs.b.as_ref().expect("comparing"));
    let (mean_a, mean_b) = (mean_after(a, 40.0), mean_after(b, 40.0));
    assert!((2.5..3.5).contains(&(mean_a / 40.0)), "A: {mean_a}/s");
    assert!((0.9..1.2).contains(&(mean_b / 40.0)), "B: {mean_b}/s");
    let theme = Theme::light(1.0);
    let out = svg(|area| draw_load(area, &charts, &runs.scenario, &theme));
    // The panels' plots: the spike's shades.
    let panels = shades(&out, &theme);
    let width = a.series.width;
    let top = (0..a.series.len())
        .flat_map(|i| [rate(a, i), rate(b, i)])
        .fold(0.0, f64::max)
        * 1.12;
    for (panel, (report, colour)) in [(a, run_colour(&theme, 0)), (b, run_colour(&theme, 1))]
        .into_iter()
        .enumerate()
    {
        let [left, shade_top, right, bottom] = panels[panel];
        let spike = &runs.scenario;
        let per_second = (right - left) / spike.spike_duration;
        let x0 = left - spike.spike_start * per_second;
        let y = |value: f64| bottom - value / top * (bottom - shade_top);
        // The total's outline at each bucket after 40 s lies at its rate.
        let heights = filled_heights(&out, light(&theme, colour));
        let mut checked = 0;
        for i in (0..report.series.len()).filter(|&i| i as f64 * width >= 40.0) {
            let x = x0 + (i as f64 + 0.5) * width * per_second;
            // The step over the bucket's middle.
            let step = heights
                .windows(2)
                .find(|w| w[0].1 == w[1].1 && w[0].0 < x && w[1].0 > x);
            if let Some(step) = step {
                near(step[0].1, y(rate(report, i)), "the load's height");
                checked += 1;
            }
        }
        assert!(checked > 50, "the load after the spike is drawn");
    }
}

/// Orphans: while the database is slow, A's drawn load at it stands about
/// three times B's (each of A's three attempts leaves a call below that
/// makes three of its own; B's calls below stop with their caller). After
/// it, A's operations fail in every second to the end of the run, B's in
/// none from half a second after the slowdown.
#[test]
fn orphans_triple_the_database_calls_and_outlast_the_slowdown() {
    let preset = preset("orphans");
    assert!(preset.sees().0.contains("about three times B's"));
    assert!(preset.sees().0.contains("go on failing to the end"));
    let runs = jobs::run(&preset.config());
    let charts = runs.charts();
    let (a, b) = (&runs.a, runs.b.as_ref().expect("comparing"));
    let (start, end) = (
        runs.scenario.slow_start,
        runs.scenario.slow_start + runs.scenario.slow_duration,
    );
    let ratio = mean_between(a, start, end) / mean_between(b, start, end);
    assert!((2.5..3.5).contains(&ratio), "A's load {ratio} times B's");
    let failed_between = |report: &Report, from: f64, to: f64| -> u64 {
        let width = report.series.width;
        (0..report.series.len())
            .filter(|&i| i as f64 * width >= from && (i as f64 + 1.0) * width <= to)
            .map(|i| report.series.operations_failed[i])
            .sum()
    };
    let horizon = runs.scenario.horizon;
    for second in (end as u32)..(horizon as u32) {
        let from = f64::from(second);
        assert!(
            failed_between(a, from, from + 1.0) > 0,
            "A fails in second {second}"
        );
    }
    assert_eq!(
        failed_between(b, end + 0.5, horizon),
        0,
        "B's failures end with it"
    );

    let theme = Theme::light(1.0);
    let out = svg(|area| draw_load(area, &charts, &runs.scenario, &theme));
    // Both panels share one linear axis: the drawn heights over the
    // slowdown, each above its panel's foot, stand in the same ratio.
    let panels = shades(&out, &theme);
    let drawn = |panel: usize, colour: RGBColor| -> f64 {
        let [left, _, right, bottom] = panels[panel];
        let heights: Vec<f64> = filled_heights(&out, light(&theme, colour))
            .into_iter()
            .filter(|(px, _)| *px > left + 1.5 && *px < right - 1.5)
            .map(|(_, py)| bottom - py)
            .collect();
        heights.iter().sum::<f64>() / heights.len().max(1) as f64
    };
    let drawn_ratio = drawn(0, run_colour(&theme, 0)) / drawn(1, run_colour(&theme, 1));
    assert!(
        (drawn_ratio / ratio - 1.0).abs() < 0.15,
        "drawn {drawn_ratio}, true {ratio}"
    );
}

/// 3 x 3 x 3: at the bottom of the chain A's load is nine times B's on the
/// same axis (27 calls per request against 3).
#[test]
fn layers_put_nine_times_the_load_at_the_bottom() {
    let preset = preset("layers");
    assert!(preset.sees().0.contains("nine times B's"));
    let runs = jobs::run(&preset.config());
    let (a, b) = (&runs.a, runs.b.as_ref().expect("comparing"));
    assert_eq!(a.summary.server_calls_per_operation, 27.0);
    assert_eq!(b.summary.server_calls_per_operation, 3.0);
    let charts = runs.charts();
    let theme = Theme::light(1.0);
    let out = svg(|area| draw_load(area, &charts, &runs.scenario, &theme));
    // Each panel's filled area, summed over its width, against the
    // panel's own zero: A's is nine times B's.
    let zero = |panel: usize| {
        let mut bottoms: Vec<f64> = elements(&out, "polygon")
            .into_iter()
            .map(|e| points(&e).iter().map(|(_, py)| *py).fold(0.0, f64::max))
            .collect();
        bottoms.sort_by(f64::total_cmp);
        bottoms.dedup();
        bottoms[panel]
    };
    let area_of = |colour: RGBColor, panel: usize| -> f64 {
        let outline = filled_heights(&out, light(&theme, colour));
        let bottom = zero(panel);
        outline
            .windows(2)
            .filter(|w| w[0].1 == w[1].1)
            .map(|w| (w[1].0 - w[0].0) * (bottom - w[0].1))
            .sum()
    };
    let ratio = area_of(run_colour(&theme, 0), 0) / area_of(run_colour(&theme, 1), 1);
    let calls = |r: &Report| (0..r.series.len()).map(|i| rate(r, i)).sum::<f64>();
    let true_ratio = calls(a) / calls(b);
    assert!((8.0..10.0).contains(&true_ratio), "{true_ratio}");
    // B's load is a few pixels high: whole pixels round it by up to 10 %.
    assert!(
        (ratio / true_ratio - 1.0).abs() < 0.1,
        "drawn {ratio}, true {true_ratio}"
    );
}

/// The lost response: both policies put the same load on the server.
#[test]
fn the_lost_response_loads_are_the_same() {
    let preset = preset("lost-response");
    assert!(preset.sees().0.contains("same load") && preset.sees().0.contains("stay at zero"));
    let runs = jobs::run(&preset.config());
    let (a, b) = (&runs.a, runs.b.as_ref().expect("comparing"));
    assert_eq!(a.series.first_tries, b.series.first_tries);
    assert_eq!(a.series.retries, b.series.retries);
    assert!(a.summary.duplicates > 0 && b.summary.duplicates == 0);
}

/// The deadline: A's curve rises to about half the operations and stays
/// flat until the deadline, where it jumps to all; B's climbs in steps
/// 0.4 s apart to a shaded success of about 93 %.
#[test]
fn the_deadline_flattens_a_and_b_climbs_in_steps() {
    let preset = preset("deadline");
    assert!(
        preset.sees().0.contains("in steps, a retry after each")
            && preset.sees().0.contains("93 %")
    );
    let runs = jobs::run(&preset.config());
    let charts = runs.charts();
    let (a, b) = (&runs.a, runs.b.as_ref().expect("comparing"));
    let success = |r: &Report| r.summary.success_rate;
    assert!((0.45..0.6).contains(&success(a)) && (0.9..0.96).contains(&success(b)));
    let theme = Theme::light(1.0);
    let out = svg(|area| draw_latency(area, &charts, &runs.scenario, &theme));
    let mesh = mesh(&out, &theme, 20.0..400.0);
    // The deadline's dots fix the time axis: 0 s at the plot's left.
    let deadline = lines_in(&out, theme.foreground)
        .into_iter()
        .find(|l| {
            l.len() == 2
                && l[0].0 == l[1].0
                && l[0].0 > mesh.vertical[0] + 2.0
                && l[0].1.max(l[1].1) < mesh.bottom - 1.0
        })
        .expect("the deadline's dots")[0]
        .0;
    let x = |seconds: f64| mesh.vertical[0] + seconds / 2.0 * (deadline - mesh.vertical[0]);
    let y = |percent: f64| mesh.bottom - percent / 100.0 * (mesh.bottom - mesh.top);
    let a_curve = longest(lines_in(&out, run_colour(&theme, 0)));
    let share_at = |curve: &[(f64, f64)], px: f64| {
        curve
            .iter()
            .filter(|(cx, _)| *cx <= px)
            .map(|(_, cy)| *cy)
            .fold(f64::INFINITY, f64::min)
    };
    // A: flat from 0.5 s to just before 2 s, at the share that succeeded.
    let flat = share_at(&a_curve, x(0.5));
    near(
        flat,
        share_at(&a_curve, x(1.9)),
        "A stays flat until the deadline",
    );
    assert!(
        (flat - y(100.0 * success(a))).abs() < 3.0,
        "A flat at its successes"
    );
    near(
        a_curve[a_curve.len() - 1].1,
        y(100.0),
        "A reaches all at 2 s",
    );
    near(a_curve[a_curve.len() - 1].0, x(2.0), "at the deadline");
    // B: a step after each 0.4 s timeout (the retry, after its pause):
    // two sharp ones, then the pauses, grown, smear the third.
    let b_points: Vec<(f64, f64)> = lines_in(&out, run_colour(&theme, 1))
        .into_iter()
        .flatten()
        .filter(|(_, py)| *py > mesh.top - 0.5)
        .collect();
    let per_point = (mesh.bottom - mesh.top) / 100.0;
    let share = |seconds: f64| (mesh.bottom - share_at(&b_points, x(seconds))) / per_point;
    let rise = |from: f64, to: f64| share(to) - share(from);
    for (step, flat) in [((0.4, 0.65), (0.62, 0.85)), ((0.85, 1.15), (1.15, 1.4))] {
        assert!(rise(step.0, step.1) > 10.0, "B's step in {step:?}");
        assert!(rise(flat.0, flat.1) < 3.0, "B flat in {flat:?}");
    }
    assert!(rise(1.4, 1.99) > 5.0, "B's third retries, smeared");
    // The shade of B's successes reaches its share.
    let shade = elements(&out, "polygon")
        .into_iter()
        .find(|e| attr(e, "fill") == hex(run_colour(&theme, 1)) && attr(e, "opacity") == "0.22")
        .expect("B's successes shaded");
    let top = points(&shade)
        .iter()
        .map(|(_, py)| *py)
        .fold(f64::INFINITY, f64::min);
    near(top, y(100.0 * success(b)), "B's shaded success");
}

/// Contention: over the seeds full jitter's mean calls are the fewest
/// and exponential backoff's mean time by far the longest, and A's own
/// run has its row.
#[test]
fn contention_means_and_the_headlines_row() {
    let preset = preset("contention");
    assert!(preset.sees().0.contains("fewest") && preset.sees().0.contains("by far the latest"));
    let config = preset.config();
    let grid = jobs::contention_grid(&config);
    let by = |name: &str| {
        grid.variants
            .iter()
            .find(|v| v.name == name)
            .expect("a variant")
    };
    let fewest = grid
        .variants
        .iter()
        .min_by(|p, q| p.mean_calls().total_cmp(&q.mean_calls()))
        .expect("variants");
    assert_eq!(fewest.name, "full");
    let slowest = by("exponential").mean_completion();
    for other in grid.variants.iter().filter(|v| v.name != "exponential") {
        assert!(
            slowest > 3.0 * other.mean_completion(),
            "{} is close",
            other.name
        );
    }
    let summary = retry_sim::simulate::run(&config).summary;
    let headline = (
        (summary.first_tries + summary.retries) as f64,
        summary.finished_at,
    );
    let theme = Theme::light(1.0);
    let view = ContentionView {
        headline: Some(headline),
        ..ContentionView::default()
    };
    let out = svg(|area| draw_contention_view(area, &grid, &theme, &view).map(|_| ()));
    let labelled = |text: &str| texts(&out).into_iter().any(|t| t.text.ends_with(text));
    assert!(labelled("(fewest)") && labelled("(soonest)"));
    assert_eq!(out.matches("A (headlines)").count(), 2);
    // The time panel's bars: exponential's stands furthest right.
    let bars: Vec<f64> = elements(&out, "polyline")
        .into_iter()
        .filter(|e| attr(e, "stroke") == hex(theme.foreground) && attr(e, "stroke-width") == "3")
        .map(|e| points(&e)[0].0)
        .filter(|px| *px > 400.0)
        .collect();
    let rightmost = bars.iter().copied().fold(0.0, f64::max);
    let exponential_at = bars[1];
    assert_eq!(
        rightmost, exponential_at,
        "exponential's mean is the latest"
    );
}

/// The classic sweep towards 100 % failures: 3 retries climb to 4 calls per
/// operation, the token bucket and the breaker stay near 1.
#[test]
fn the_classic_sweeps_ends() {
    let preset = preset("classic");
    assert!(preset.sees().0.contains("4 calls per operation"));
    let curves = sweep::curves(&preset.config());
    let at_full =
        |index: usize| sweep::point(&curves[index].config, sweep::POINTS - 1, sweep::POINTS);
    assert_eq!(curves[1].label.0, "3 retries");
    assert!((at_full(1).load - 4.0).abs() < 0.01);
    for index in [2, 3] {
        assert!(
            at_full(index).load < 1.25,
            "{} at 100 %",
            curves[index].label
        );
    }
}

/// Why retry: across the sweep A's success is one minus the failure rate
/// and B's, three attempts, stays above it, near 1 - f^3; at 100 % B makes
/// its 3 calls and A its 1. Each point runs 20/s for 30 s, 600 operations:
/// a share's standard deviation is at most sqrt(0.25 / 600) = 0.02, and the
/// tolerance is four of them.
#[test]
fn retries_buy_success_and_cost_their_attempts_at_full_failure() {
    let preset = preset("why-retry");
    assert!(
        preset
            .sees()
            .0
            .contains("B's calls per operation reach 3 and A's stay at 1")
    );
    let config = preset.config();
    let curves = sweep::curves(&config);
    assert_eq!(curves.len(), 2);
    let last = sweep::POINTS - 1;
    for index in 0..sweep::POINTS {
        let [a, b] = [0, 1].map(|c| sweep::point(&curves[c].config, index, sweep::POINTS));
        let f = a.failure;
        assert!(
            (a.success - (1.0 - f)).abs() < 0.08,
            "A at {f}: {}",
            a.success
        );
        assert!(
            b.success > 1.0 - f.powi(3) - 0.08,
            "B at {f}: {}",
            b.success
        );
        if index == last {
            assert!((b.load - 3.0).abs() < 0.01 && (a.load - 1.0).abs() < 0.01);
        }
    }
}

/// The timeout below the p99: A's load stands near three times B's, and
/// B's near the 100 calls a second offered, in the numbers and in the
/// drawing (A's filled load, from its floor to its top, stands more than
/// twice as tall as B's on the axis they share).
#[test]
fn a_timeout_below_the_p99_triples_the_load() {
    let preset = preset("timeout");
    assert!(preset.sees().0.contains("near three times B's"));
    let runs = jobs::run(&preset.config());
    let (a, b) = (&runs.a, runs.b.as_ref().expect("comparing"));
    let (mean_a, mean_b) = (mean_after(a, 5.0), mean_after(b, 5.0));
    assert!(
        (2.5..3.2).contains(&(mean_a / mean_b)),
        "A {mean_a}/s, B {mean_b}/s"
    );
    assert!((0.9..1.1).contains(&(mean_b / 100.0)), "B: {mean_b}/s");
    // Drawn on one axis for both, A's filled load reaches higher.
    let theme = Theme::light(1.0);
    let out = svg(|area| draw_load(area, &runs.charts(), &runs.scenario, &theme));
    let tallest = |colour| {
        let heights = filled_heights(&out, light(&theme, colour));
        let ys: Vec<f64> = heights.iter().map(|p| p.1).collect();
        ys.iter().fold(f64::NEG_INFINITY, |m, &y| m.max(y))
            - ys.iter().fold(f64::INFINITY, |m, &y| m.min(y))
    };
    let (tall_a, tall_b) = (
        tallest(run_colour(&theme, 0)),
        tallest(run_colour(&theme, 1)),
    );
    assert!(
        tall_a > 2.0 * tall_b,
        "A's load {tall_a} px tall, B's {tall_b} px"
    );
}

/// Shed what nobody waits for: one worker of 10 ms (100 requests a
/// second) at 80 %, a 5 s spike to 150 a second. After it the oldest-first
/// queue holds more than its callers' 0.3 s of work, so every request the
/// worker takes has been given up on: each is tried three times, 3 x 80 =
/// 240 calls a second against the 100 of the capacity line, and not one
/// operation succeeds to the end of the run. Over the 14 s after the spike
/// the mean of that rate has an sd of about 3 x sqrt(80 x 14) / 14 = 7
/// calls a second (Poisson arrivals, three calls each): 4 sd is the band.
/// On the drawing the filled load after the spike's shade reaches above
/// twice the capacity. Serving the newest first (the preset's first "try
/// this"), the same world succeeds again once the spike is over.
#[test]
fn an_oldest_first_queue_stays_above_twice_capacity_after_the_spike() {
    let preset = preset("shed");
    assert!(
        preset
            .sees()
            .0
            .contains("near two and a half times the capacity line to the end")
    );
    assert!(preset.sees().0.contains("every try comes too late"));
    let runs = jobs::run(&preset.config());
    let a = &runs.a;
    let series = &a.series;
    let end = runs.scenario.spike_start + runs.scenario.spike_duration;
    let after: Vec<usize> = (0..series.len())
        .filter(|&i| i as f64 * series.width >= end + 1.0)
        .collect();
    assert!(after.len() > 40, "ten seconds and more after the spike");
    for &i in &after {
        assert!((series.capacity[i] - 100.0).abs() < 1e-9);
        assert_eq!(series.operations_succeeded[i], 0, "bucket {i}");
    }
    let mean = mean_after(a, end + 1.0);
    assert!((mean - 240.0).abs() < 4.0 * 7.0, "{mean}/s after the spike");
    let theme = Theme::light(1.0);
    let (out, axes) = load_drawn(&runs, &theme);
    let [_, top, right, bottom] = shades(&out, &theme)[0];
    let twice = y_on(&axes, (top, bottom), 200.0);
    let highest_after = filled_heights(&out, light(&theme, run_colour(&theme, 0)))
        .into_iter()
        .filter(|&(x, _)| x > right + 1.0)
        .map(|(_, y)| y)
        .fold(f64::INFINITY, f64::min);
    assert!(
        highest_after < twice,
        "A's load after the spike drawn at {highest_after} px, twice the capacity at {twice} px"
    );

    let newest = crate::run(&Config::from_link(&format!("{}&queue_order=lifo", preset.link)).0);
    let succeeded_after: u64 = after
        .iter()
        .map(|&i| newest.a.series.operations_succeeded[i])
        .sum();
    assert!(succeeded_after > 0);
}

/// A rate limit's reset: the crowd's held requests are all told the same
/// instant. A honours it exactly: in the bucket of the reset its calls
/// stand at least 30 times the capacity line, and from a second after the
/// reset to the end of the window it sends nothing (each held request
/// retried once, found the window full and was told the next reset). B
/// adds up to half the wait at random: from a second on, no bucket of its
/// stands above the capacity line, and its calls go on over at least a
/// third of the window (its retries spread over half of it, less the
/// share the window admits first).
#[test]
fn at_a_reset_a_comes_back_at_once_and_b_spread_under_capacity() {
    let preset = preset("reset-herd");
    assert!(
        preset
            .sees()
            .0
            .contains("one spike far above the capacity line")
    );
    assert!(preset.sees().0.contains("stay under it"));
    let runs = jobs::run(&preset.config());
    let window = runs.scenario.rate_window;
    let calls = |r: &Report, i: usize| {
        (r.series.first_tries[i] + r.series.retries[i]) as f64 / r.series.width
    };
    let a = &runs.a;
    let width = a.series.width;
    let bucket = |t: f64| (t / width).round() as usize;
    let capacity = a.series.capacity[bucket(window)];
    let spike = (bucket(window)..bucket(window + 0.4))
        .map(|i| calls(a, i))
        .fold(0.0, f64::max);
    assert!(spike >= 30.0 * capacity, "A at the reset: {spike}/s");
    let quiet = bucket(window + 1.0)..bucket(2.0 * window).min(a.series.len());
    assert!(
        quiet.clone().all(|i| calls(a, i) == 0.0),
        "A between resets"
    );
    let b = runs.b.as_ref().expect("B");
    let after = bucket(1.0)..b.series.len();
    let highest = after.clone().map(|i| calls(b, i)).fold(0.0, f64::max);
    assert!(
        highest <= capacity,
        "B's highest after the crowd: {highest}/s"
    );
    let busy = after.filter(|&i| calls(b, i) > 0.0).count() as f64 * width;
    assert!(busy >= window / 3.0, "B busy for {busy} s");
}

/// Fan-out and the tail: each request waits for the slowest of K calls to
/// a log-normal backend (no queue, no network), and one call in a hundred
/// takes longer than its p99, so a request is done within that p99 with
/// probability 0.99^K: 0.366 for A's 100 calls, 0.904 for B's 10 ("about a
/// third", "about nine tenths"). The chart's curves are the histograms'
/// cumulative counts, whose bins bracket the p99: the share below the bin
/// edge under it and the share below the edge over it bound the curve's
/// height there, and 0.99^K falls between them within 4 standard errors
/// of a share over the run's requests. The chart marks that p99 with the
/// service's own cross.
#[test]
fn a_fan_out_of_100_meets_the_backends_p99_two_times_in_three() {
    let preset = preset("fan-out");
    assert!(preset.sees().0.contains("only about a third"));
    assert!(preset.sees().0.contains("about nine tenths"));
    let runs = jobs::run(&preset.config());
    let p99 = Law::service(&runs.scenario).quantile(0.99);
    assert!((p99 - 0.1).abs() < 1e-9, "{p99}");
    for (report, calls) in [(&runs.a, 100), (runs.b.as_ref().expect("comparing"), 10)] {
        let latency = &report.latency;
        let n = latency.total as f64;
        let below = |edge: f64| {
            latency
                .counts
                .iter()
                .enumerate()
                .filter(|&(i, _)| LatencyHistogram::bin_range(i).1 <= edge)
                .map(|(_, count)| count)
                .sum::<u64>() as f64
                / n
        };
        let bin = (0..latency.counts.len())
            .find(|&i| LatencyHistogram::bin_range(i).1 > p99)
            .expect("a bin over the p99");
        let (under, over) = LatencyHistogram::bin_range(bin);
        let expected = 0.99f64.powi(calls);
        let tolerance = 4.0 * (expected * (1.0 - expected) / n).sqrt();
        let (low, high) = (below(under), below(over));
        assert!(
            low - tolerance <= expected && expected <= high + tolerance,
            "K = {calls}: between {low} and {high}, expected {expected} within {tolerance}"
        );
    }
    let theme = Theme::light(1.0);
    let out = svg(|area| draw_latency(area, &runs.charts(), &runs.scenario, &theme));
    assert!(
        out.contains("service alone, p99 0.100 s"),
        "the p99's cross is labelled"
    );
}

/// The standard normal's distribution function, by Abramowitz and Stegun
/// 7.1.26 (error under 1.5e-7).
fn normal_cdf(z: f64) -> f64 {
    let x = z.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-x * x).exp();
    0.5 * (1.0 + erf.copysign(z))
}

/// A timeout from the mean of a long tail: a log-normal service of p50
/// 0.2 s and p99 2 s (sigma = ln 10 / 2.3263 = 0.990, mean 0.327 s), no
/// network, 100 workers a third busy. A gives up after 0.33 s, so an
/// attempt is cut with q = P(X > 0.33 s) = 1 - Phi(ln(0.33/0.2) / sigma) =
/// 0.306 ("about three calls in ten"), and with 3 attempts an operation
/// makes 1 + q + q^2 = 1.40 calls and fails with q^3 = 2.9 %; B waits the
/// p99, q = 0.01: 1.01 calls ("about 1.4 times B's", B "near the 100
/// offered"). Each figure within 4 standard errors over the run's 3 000
/// operations (the calls' sd from their law: 1, 2 or 3 calls); a third
/// busy, the queue adds little. On the drawing, A's filled load stands
/// taller than B's by more than a fifth.
#[test]
fn a_timeout_at_the_mean_of_a_long_tail_cuts_three_calls_in_ten() {
    let preset = preset("long-tail");
    assert!(preset.sees().0.contains("about 1.4 times B's"));
    assert!(preset.sees().0.contains("near the 100 calls a second"));
    assert!(preset.sees().0.contains("about three calls in ten"));
    let runs = jobs::run(&preset.config());
    let (a, b) = (&runs.a, runs.b.as_ref().expect("comparing"));
    let sigma = 10f64.ln() / 2.3263;
    let cut = |timeout: f64| 1.0 - normal_cdf((timeout / 0.2f64).ln() / sigma);
    let (qa, qb) = (cut(0.33), cut(2.0));
    assert!((qb - 0.01).abs() < 1e-4, "{qb}");
    assert!((0.25..0.35).contains(&qa), "{qa}");
    for (report, q) in [(a, qa), (b, qb)] {
        let s = &report.summary;
        let n = s.operations as f64;
        let (p1, p2, p3) = (1.0 - q, q * (1.0 - q), q * q);
        let mean = p1 + 2.0 * p2 + 3.0 * p3;
        let var = p1 + 4.0 * p2 + 9.0 * p3 - mean * mean;
        let tolerance = 4.0 * (var / n).sqrt();
        assert!(
            (s.server_calls_per_operation - mean).abs() < tolerance,
            "{} calls per operation against {mean} (within {tolerance})",
            s.server_calls_per_operation
        );
        let fails = q.powi(3);
        let tolerance = 4.0 * (fails * (1.0 - fails) / n).sqrt();
        assert!(
            ((1.0 - s.success_rate) - fails).abs() < tolerance,
            "{} failed against {fails}",
            1.0 - s.success_rate
        );
    }
    let ratio = mean_after(a, 5.0) / mean_after(b, 5.0);
    assert!((1.3..1.5).contains(&ratio), "A's load {ratio} times B's");
    assert!((mean_after(b, 5.0) / 100.0 - 1.0).abs() < 0.1);
    let theme = Theme::light(1.0);
    let out = svg(|area| draw_load(area, &runs.charts(), &runs.scenario, &theme));
    let tallest = |colour| {
        let ys: Vec<f64> = filled_heights(&out, light(&theme, colour))
            .iter()
            .map(|p| p.1)
            .collect();
        ys.iter().fold(f64::NEG_INFINITY, |m, &y| m.max(y))
            - ys.iter().fold(f64::INFINITY, |m, &y| m.min(y))
    };
    let (tall_a, tall_b) = (
        tallest(run_colour(&theme, 0)),
        tallest(run_colour(&theme, 1)),
    );
    assert!(
        tall_a > 1.2 * tall_b,
        "A's load {tall_a} px tall, B's {tall_b} px"
    );
}

/// Where `value` stands on a load panel whose plot spans `top` to `bottom`
/// pixels on `axes`: linear from 0, or logarithmic from the floor.
fn y_on(axes: &Axes, (top, bottom): (f64, f64), value: f64) -> f64 {
    if axes.floor > 0.0 {
        let (low, high) = (axes.floor.log10(), axes.tops[0].log10());
        bottom - (value.max(axes.floor).log10() - low) / (high - low) * (bottom - top)
    } else {
        bottom - value / axes.tops[0] * (bottom - top)
    }
}

/// The highest pixel of the lines of `colour` (the load's outline, sent
/// and refused alike) between `top` and `bottom`.
fn highest_line(out: &str, colour: RGBColor, (top, bottom): (f64, f64)) -> f64 {
    lines_in(out, colour)
        .into_iter()
        .flatten()
        .filter(|(_, y)| *y >= top - 0.5 && *y <= bottom + 0.5)
        .map(|(_, y)| y)
        .fold(f64::INFINITY, f64::min)
}

/// The mean rate of a run's load over `[from, to)` seconds.
fn mean_between(report: &Report, from: f64, to: f64) -> f64 {
    let width = report.series.width;
    let values: Vec<f64> = (0..report.series.len())
        .filter(|&i| i as f64 * width >= from && (i as f64 + 1.0) * width <= to)
        .map(|i| rate(report, i))
        .collect();
    values.iter().sum::<f64>() / values.len() as f64
}

/// What backoff is for: 50 closed-loop clients thinking 1 s send about
/// 50 / 1.06 = 47 calls a second before the outage (a cycle of the think
/// time and the call's hops and service). While it is down each of A's
/// clients makes its 4 attempts 10 ms apart and thinks again, 200 calls
/// per cycle of about 1.1 s: four times as much; B's pauses (0.5, 1 and
/// 2 s on average under full jitter from 1 s) stretch its cycle to about
/// 4.6 s, 4 calls each: about 43 a second, as before. Means over 15 s of
/// a few hundred cycles: the bands allow a quarter either way. On the
/// drawing, each panel's highest outline stands at that run's busiest
/// bucket.
#[test]
fn closed_loop_clients_without_backoff_send_four_times_as_much_while_it_is_down() {
    let preset = preset("closed-loop");
    assert!(preset.sees().0.contains("about four times what they sent"));
    let runs = jobs::run(&preset.config());
    let (a, b) = (&runs.a, runs.b.as_ref().expect("comparing"));
    let ratio =
        |report: &Report| mean_between(report, 22.0, 40.0) / mean_between(report, 5.0, 20.0);
    assert!((3.0..5.0).contains(&ratio(a)), "A: {}", ratio(a));
    assert!((0.75..1.25).contains(&ratio(b)), "B: {}", ratio(b));
    let theme = Theme::light(1.0);
    let (out, axes) = load_drawn(&runs, &theme);
    let panels = shades(&out, &theme);
    for (panel, (report, colour)) in [(a, run_colour(&theme, 0)), (b, run_colour(&theme, 1))]
        .into_iter()
        .enumerate()
    {
        let span = (panels[panel][1], panels[panel][3]);
        let busiest = (0..report.series.len())
            .map(|i| rate(report, i))
            .fold(0.0, f64::max);
        near(
            highest_line(&out, colour, span),
            y_on(&axes, span, busiest),
            &format!("panel {panel}: the busiest bucket"),
        );
    }
}

/// Throttling first tries: 150 requests a second at 10 workers of 0.1 s,
/// 100 a second at most. A's budget lets every first try out, plus its
/// retries: more than 150 a second all the way. B's clients reject
/// requests themselves while they send more than twice what is accepted;
/// with the queue full of work whose clients gave up, accepts fall and B
/// settles well under the server's 100 a second. Means over the last 50 s
/// of thousands of calls: their noise is a few calls a second.
#[test]
fn throttling_first_tries_keeps_b_under_capacity() {
    let preset = preset("throttle");
    assert!(preset.sees().0.contains("more than one and a half times"));
    let runs = jobs::run(&preset.config());
    let (a, b) = (&runs.a, runs.b.as_ref().expect("comparing"));
    let capacity = 100.0;
    let (mean_a, mean_b) = (mean_after(a, 10.0), mean_after(b, 10.0));
    assert!(mean_a > 1.5 * capacity, "A: {mean_a}/s");
    assert!(mean_b < capacity, "B: {mean_b}/s");
    assert!(b.summary.budget_refusals > 0, "B's clients reject requests");
}

/// Envoy's defaults: 1 000 requests a second, one retry each. Without a
/// budget at most 3 retries are in flight; each holds its place for its
/// pause (12.5 ms on average) and its call (0.1 s of service and two hops
/// of 5 ms): by Little's law at most 3 / 0.1225 = 24.5 retries a second,
/// 0.0245 per operation, so A's success lies within 1 - f and 1 - f +
/// 0.0245. B may hold 20 % of the requests in flight, about 110 first
/// tries and its retries: a retry each needs `122.5 f` places, under
/// `0.2 (110 + 122.5 f)` while f is under 0.22, so up to 15 % failures B
/// retries every failure and succeeds as one retry does, 1 - f^2. Each
/// point is 20 000 operations, a share's sd at most 0.0035: the bands
/// allow 0.012 of noise (and B 0.02, for the few places lost to the
/// requests in flight varying). On the drawing B's points stand at their
/// success.
#[test]
fn envoys_default_hardly_retries_and_its_budget_retries_once() {
    let preset = preset("envoy");
    assert!(
        preset
            .sees()
            .0
            .contains("the grey band over them, taller than its retries")
    );
    assert!(preset.sees().0.contains("little of it is refused"));
    // The key chart: A's refused retries outnumber those it sent, B's
    // sent retries those it refused, and the grey band is drawn.
    let runs = jobs::run(&preset.config());
    let (a, b) = (
        &runs.a.summary,
        &runs.b.as_ref().expect("comparing").summary,
    );
    assert!(a.budget_refusals > a.retries, "A: {a:?}");
    assert!(b.retries > 4 * b.budget_refusals, "B: {b:?}");
    let theme = Theme::light(1.0);
    let out = svg(|area| draw_load(area, &runs.charts(), &runs.scenario, &theme));
    assert!(out.contains("refused by its own budget, never sent"));
    let grey = hex(crate::load::refused_fill(&theme));
    assert!(
        elements(&out, "polygon")
            .iter()
            .filter(|e| attr(e, "fill") == grey)
            .count()
            == 2
    );
    // The sweep, behind "More charts", reruns both at every failure rate.
    let state = State::of(preset.config(), ChartId::Sweep);
    assert_eq!(state.curves.len(), 2);
    let (a, b) = (&state.curves[0].points, &state.curves[1].points);
    for point in a.iter() {
        let f = point.failure;
        assert!(
            point.success > 1.0 - f - 0.012 && point.success < 1.0 - f + 0.0245 + 0.012,
            "A at {f}: {point:?}"
        );
    }
    for point in b.iter().filter(|p| p.failure > 0.0 && p.failure <= 0.15) {
        let f = point.failure;
        assert!(point.success > 1.0 - f * f - 0.02, "B at {f}: {point:?}");
    }
    let (out, _) = draw_key(ChartId::Sweep, &state, None, ((800, 400), 1.0));
    let theme = Theme::light(1.0);
    let mesh = mesh(&out, &theme, 20.0..400.0);
    let left = &mesh.vertical[..mesh.vertical.len() / 2];
    let tenth = 2;
    let x = left[0] + b[tenth].failure * (left[left.len() - 1] - left[0]);
    let y = |share: f64| mesh.bottom - 100.0 * share / 105.0 * (mesh.bottom - mesh.top);
    let dot = elements(&out, "circle")
        .into_iter()
        .filter(|e| attr(e, "fill") == hex(theme.colour(state.curves[1].colour)))
        .find(|e| (number(e, "cx") - x).abs() < 1.5)
        .expect("B's point at 10 %");
    near(
        number(&dot, "cy"),
        y(b[tenth].success),
        "B's success at 10 %",
    );
}

/// Finagle's and Linkerd's budget at 20 requests a second: in the outage
/// (every call fails, 4 attempts) A without a budget makes 4 calls per
/// operation; B at most 1 + 20 % + 10 / 20 = 1.7 (the floor's 10 retries
/// a second over 20 requests), so A sends more than twice B's calls. The
/// chart says each total on its panel's shade.
#[test]
fn finagles_budget_holds_b_under_half_of_as_calls_in_the_outage() {
    let preset = preset("finagle");
    assert!(preset.sees().0.contains("more than twice B's calls"));
    let runs = jobs::run(&preset.config());
    let (a, b) = (&runs.a, runs.b.as_ref().expect("comparing"));
    let window = (
        runs.scenario.outage_start,
        runs.scenario.outage_start + runs.scenario.outage_duration,
    );
    let (sent_a, sent_b) = (calls_within(a, window), calls_within(b, window));
    assert!(sent_a > 2 * sent_b, "A {sent_a}, B {sent_b}");
    let operations = 20.0 * runs.scenario.outage_duration;
    assert!(
        (sent_b as f64) < 1.7 * operations * 1.1,
        "B within its bound: {sent_b}"
    );
    assert!(b.summary.budget_refusals > 0 && a.summary.budget_refusals == 0);
    let theme = Theme::light(1.0);
    let out = svg(|area| draw_load(area, &runs.charts(), &runs.scenario, &theme));
    for sent in [sent_a, sent_b] {
        let text = format!("outage: {} calls sent, all refused", count(sent as f64));
        assert!(out.contains(&text), "{text} missing");
    }
}

/// The AWS SDK's standard mode before and since its new defaults: the
/// outage's first failures empty B's quota of 500 after 500 / 14 = 35
/// retries and A's after 500 / 5 = 100 (their timeouts aside), so B's
/// balance falls under a retry's cost first; both then refuse.
#[test]
fn todays_aws_quota_runs_dry_sooner() {
    let preset = preset("aws-2026");
    assert!(
        preset
            .sees()
            .0
            .contains("B's curve reaches 99 % of operations far to the left of A's")
    );
    let runs = jobs::run(&preset.config());
    let (a, b) = (&runs.a, runs.b.as_ref().expect("comparing"));
    let start = (runs.scenario.outage_start / a.series.width) as usize;
    let dry = |report: &Report, cost: f64| {
        (start..report.series.len())
            .find(|&i| report.series.budget_level[i] < cost)
            .expect("runs dry in the outage")
    };
    let (dry_a, dry_b) = (dry(a, 5.0), dry(b, 14.0));
    assert!(dry_b < dry_a, "B dry at bucket {dry_b}, A at {dry_a}");
    assert!(a.summary.budget_refusals > 0 && b.summary.budget_refusals > 0);
    assert!(b.summary.retries < a.summary.retries);
    // The key chart, the latency's: the medians alike, the p99s apart,
    // so the slowest tenth takes the wide panel, and there B's p99 ring
    // stands well left of A's.
    let charts = runs.charts();
    assert!(super::latency::differ_in_the_tail(&charts));
    assert!(b.summary.latency_p99 < 0.5 * a.summary.latency_p99);
    let theme = Theme::light(1.0);
    let out = svg(|area| draw_latency(area, &charts, &runs.scenario, &theme));
    let ring = |r| rightmost_ring(&out, run_colour(&theme, r));
    let (ring_a, ring_b) = (ring(0), ring(1));
    assert!(
        ring_a - ring_b > 40.0,
        "the tail's rings at {ring_b} and {ring_a} px"
    );
}

/// Hedging at half load: 10 workers of 0.1 s on average (exponential),
/// 50 requests a second; B hedges after 0.3 s, the service's 95th
/// percentile (0.1 ln 20). Without queueing B's p99 would be (0.3 + 0.1
/// ln 100) / 2 = 0.38 s against 0.46 s, and its calls 1.05 per
/// operation; at half load the queue adds little. On the latency chart,
/// whose axes both curves share, B's curve reaches 99 % of operations to
/// the left of A's.
#[test]
fn the_hedge_reaches_99_percent_first() {
    let preset = preset("hedge");
    assert!(
        preset
            .sees()
            .0
            .contains("reaches 99 % of operations well before A's")
    );
    assert!(preset.sees().0.contains("about 5 % more calls"));
    let runs = jobs::run(&preset.config());
    let (a, b) = (
        &runs.a.summary,
        &runs.b.as_ref().expect("comparing").summary,
    );
    assert!(
        b.latency_p99 < 0.9 * a.latency_p99,
        "A {} B {}",
        a.latency_p99,
        b.latency_p99
    );
    let calls = (b.first_tries + b.retries) as f64 / b.operations as f64;
    assert!((1.03..1.08).contains(&calls), "{calls} calls per operation");
    let theme = Theme::light(1.0);
    let out = svg(|area| draw_latency(area, &runs.charts(), &runs.scenario, &theme));
    let mesh = mesh(&out, &theme, 20.0..400.0);
    let y99 = mesh.bottom - 0.99 * (mesh.bottom - mesh.top);
    let first_at = |colour| {
        lines_in(&out, colour)
            .into_iter()
            .flatten()
            .filter(|(px, py)| *py <= y99 + 0.5 && *py >= mesh.top - 0.5 && *px >= mesh.vertical[0])
            .map(|(px, _)| px)
            .fold(f64::INFINITY, f64::min)
    };
    let (at_a, at_b) = (
        first_at(run_colour(&theme, 0)),
        first_at(run_colour(&theme, 1)),
    );
    assert!(
        at_b + 10.0 < at_a,
        "99 % at {at_b} px for B, {at_a} px for A"
    );
    // The tail panel, on the right, spreads the slowest tenth over the
    // height: there the p99 rings stand far apart (the rightmost ring of
    // each colour is the tail panel's).
    let ring = |r| rightmost_ring(&out, run_colour(&theme, r));
    let (ring_a, ring_b) = (ring(0), ring(1));
    assert!(
        ring_a - ring_b > 20.0,
        "the tail's rings at {ring_b} and {ring_a} px"
    );
}

/// Stability Sim's metastable retries: two servers of 5 workers of 0.1 s,
/// 100 a second in all, 70 offered; the first crashes for 5 s. After it,
/// A's load stays above the 100 a second with no goodput from 30 s on
/// (`sim_reference::stability_sims_metastable_retry_example_stays_collapsed`
/// holds it on 11 seeds), B's settles under it with its goodput back
/// within a fifth of the 70 offered. The chart writes the fleet's capacity
/// on its line.
#[test]
fn one_crashed_server_of_two_leaves_a_collapsed_and_b_recovered() {
    let preset = preset("stability-sim");
    assert!(
        preset
            .sees()
            .0
            .contains("above the capacity line to the end")
    );
    let runs = jobs::run(&preset.config());
    let (a, b) = (&runs.a, runs.b.as_ref().expect("comparing"));
    let goodput = |report: &Report| {
        let s = &report.series;
        let late = (0..s.len()).filter(|&i| i as f64 * s.width >= 30.0);
        let (sum, n) = late.fold((0, 0), |(sum, n), i| {
            (sum + s.operations_succeeded[i], n + 1)
        });
        sum as f64 / (n as f64 * s.width)
    };
    assert_eq!(goodput(a), 0.0);
    assert!((goodput(b) / 70.0 - 1.0).abs() < 0.2, "B: {}", goodput(b));
    assert!(mean_after(a, 30.0) > 100.0, "A: {}/s", mean_after(a, 30.0));
    assert!(mean_after(b, 30.0) < 100.0, "B: {}/s", mean_after(b, 30.0));
    let theme = Theme::light(1.0);
    let out = svg(|area| draw_load(area, &runs.charts(), &runs.scenario, &theme));
    assert!(out.contains("capacity 100/s"), "the fleet's capacity named");
    // One server of two down: the other answers, so the calls sent then
    // are drawn as load, not as refused outright.
    assert!(out.contains("outage of one server of 2"));
    assert!(!out.contains("all refused"));
}

/// The trigger and the map: on the map of the preset's world, A stays
/// broken after the preset's own trigger (the cell under the ring is A's
/// deepest shade) and after every trigger at least as long and as deep,
/// the corner around it; B comes back from each of them, at once or late
/// (the cell is not its deepest shade). The drawing is read back: the
/// cell under the ring has the shade its outcome says, and the labels
/// keep apart on a laptop and a phone.
#[test]
fn the_map_is_deep_for_a_where_the_trigger_stands() {
    use retry_analyses::map::{self, Outcome};
    use retry_sim::metrics::Side;
    let preset = preset("trigger");
    assert!(preset.sees().0.contains("deep where the ring stands"));
    let config = preset.config();
    let map = map::map(&config, config.map_rows());
    let (length, size) = map::world_on_map(&config, map.rows).expect("a capacity loss");
    let corner = |side: Side| -> Vec<Option<Outcome>> {
        map.cells
            .iter()
            .filter(|c| c.side == side && c.length >= length && c.size >= size - 1e-9)
            .map(|c| c.outcome)
            .collect()
    };
    let (a, b) = (corner(Side::A), corner(Side::B));
    assert!(a.len() >= 4, "{a:?}");
    assert!(
        a.iter().all(|&o| o == Some(Outcome::StaysBroken)),
        "A: {a:?}"
    );
    assert!(
        b.iter().all(|&o| o != Some(Outcome::StaysBroken)),
        "B: {b:?}"
    );
    let theme = Theme::light(1.0);
    let view = MapView {
        map: &map,
        total: map.cells.len(),
        world: Some((length, size)),
    };
    let drawn = std::cell::RefCell::new(MapDrawn::default());
    let out = svg(|area| {
        *drawn.borrow_mut() = draw_map(area, &view, &theme)?;
        Ok(())
    });
    let drawn = drawn.into_inner();
    // A's ring: the first in the foreground's colour of the size the map
    // draws (the legend's sample is smaller, B's ring comes after).
    let ring = elements(&out, "circle")
        .into_iter()
        .find(|c| attr(c, "stroke") == hex(theme.foreground) && number(c, "r") == 6.0)
        .expect("the ring");
    let (x, y) = (number(&ring, "cx"), number(&ring, "cy"));
    let (side, row, column) = drawn.cell_at(x, y).expect("the ring stands in a cell");
    assert_eq!(
        (side, map.lengths[column], map.row_values[row]),
        (Side::A, length, size)
    );
    let fill_at = |x: f64, y: f64| {
        elements(&out, "rect")
            .into_iter()
            .filter(|r| attr(r, "fill") != "none" && attr(r, "fill") != hex(theme.background))
            .find(|r| {
                let (left, top) = (number(r, "x"), number(r, "y"));
                x >= left
                    && x <= left + number(r, "width")
                    && y >= top
                    && y <= top + number(r, "height")
            })
            .map(|r| attr(&r, "fill").to_string())
    };
    let deep_a = hex(super::deep(&theme, run_colour(&theme, 0)));
    assert_eq!(fill_at(x, y).as_deref(), Some(deep_a.as_str()));
    let b_panel = drawn.panels[1];
    let (bx, by) = (
        x - drawn.panels[0].left + b_panel.left,
        y - drawn.panels[0].top + b_panel.top,
    );
    let deep_b = hex(super::deep(&theme, run_colour(&theme, 1)));
    assert_ne!(fill_at(bx, by).as_deref(), Some(deep_b.as_str()));
    for size in crate::load::tests::SIZES {
        let out = svg_sized(size.0, |area| {
            draw_map(area, &view, &Theme::light(size.1)).map(|_| ())
        });
        assert_texts_apart(&out, size.0, &format!("the map at {size:?}"));
    }
}

/// A breaker and a bucket in every instance (Brooker 2022): at half
/// failures B's bucket makes about 1.1 calls per operation over 10
/// instances and about 1.9 over 1 000 (his own code: 1.142 and 1.907;
/// `sim_reference::brookers_bucket_behaves_like_n_retries_as_instances_grow`
/// holds the simulator to them), rising with the count, while A's breaker
/// trips at an instance's first failure and makes 1 everywhere. Each point
/// is 1 000 operations, a count's sd about 1 / sqrt(1 000) = 0.03 of one
/// call: the bands are five of them. On the drawing, each of B's points at
/// 50 % stands at its number on the load panel's axis.
#[test]
fn the_bucket_climbs_with_the_instances_and_the_breaker_stays_at_one() {
    let preset = preset("at-scale");
    assert!(
        preset
            .sees()
            .0
            .contains("about 1.1 calls per operation over 10")
    );
    assert!(preset.sees().0.contains("about 1.9 over 1 000"));
    let state = State::of(preset.config(), ChartId::Sweep);
    let half = (sweep::POINTS - 1) / 2;
    let at_half = |curve: &OwnedCurve| curve.points[half];
    assert_eq!(state.curves.len(), 6, "A and B over three counts");
    for curve in &state.curves[..3] {
        for point in &curve.points {
            assert!(point.load < 1.05, "{}: {point:?}", curve.name);
        }
    }
    let bucket: Vec<f64> = state.curves[3..].iter().map(|c| at_half(c).load).collect();
    assert!((bucket[0] - 1.1).abs() < 0.15, "10 instances: {bucket:?}");
    assert!(bucket[0] < bucket[1] && bucket[1] < bucket[2], "{bucket:?}");
    assert!(
        (bucket[2] - 1.9).abs() < 0.15,
        "1 000 instances: {bucket:?}"
    );

    let (out, axes) = draw_key(ChartId::Sweep, &state, None, ((800, 400), 1.0));
    let theme = Theme::light(1.0);
    let mesh = mesh(&out, &theme, 20.0..400.0);
    let right = &mesh.vertical[mesh.vertical.len() / 2..];
    let x = right[0] + 0.5 * (right[right.len() - 1] - right[0]);
    let y = |value: f64| mesh.bottom - value / axes.tops[0] * (mesh.bottom - mesh.top);
    // Every curve in its policy's hue, a tone per count: A's blue, B's
    // orange (dashed), so a point of B's tone is B's alone.
    for (k, curve) in state.curves.iter().enumerate() {
        let tones = crate::POLICY_TONES[k / 3];
        assert_eq!(curve.colour, tones[k % 3], "{}", curve.name);
    }
    for curve in &state.curves[3..] {
        let highest = elements(&out, "circle")
            .into_iter()
            .filter(|e| attr(e, "fill") == hex(theme.colour(curve.colour)))
            .filter(|e| (number(e, "cx") - x).abs() < 1.5)
            .map(|e| number(&e, "cy"))
            .fold(f64::INFINITY, f64::min);
        near(highest, y(at_half(curve).load), curve.name);
    }
}

/// Everything a key chart is drawn from, for one state.
struct State {
    config: Config,
    runs: Runs,
    curves: Vec<OwnedCurve>,
    grid: Option<ContentionGrid>,
    map: Option<retry_analyses::map::Map>,
}

impl State {
    fn of(config: Config, key: ChartId) -> State {
        let runs = jobs::run(&config);
        let curves = if key == ChartId::Sweep {
            sweep::curves(&config)
                .into_iter()
                .map(|c| OwnedCurve {
                    name: c.label.0,
                    points: sweep::sweep(&c.config, sweep::POINTS),
                    colour: c.colour,
                    dashed: c.dashed,
                })
                .collect()
        } else {
            Vec::new()
        };
        let grid = (key == ChartId::Contention).then(|| jobs::contention_grid(&config));
        let map =
            (key == ChartId::Map).then(|| retry_analyses::map::map(&config, config.map_rows()));
        State {
            config,
            runs,
            curves,
            grid,
            map,
        }
    }

    fn curves(&self) -> Vec<Curve<'_>> {
        self.curves.iter().map(OwnedCurve::curve).collect()
    }

    fn headlines(&self) -> Vec<(usize, Point)> {
        let failure = self.config.get(P::Failure);
        let reports = [Some(&self.runs.a), self.runs.b.as_ref()];
        sweep::headline_curves(&self.config)
            .into_iter()
            .zip(reports)
            .filter_map(|(curve, report)| {
                Some((curve?, sweep::point_of(failure, &report?.summary)))
            })
            .collect()
    }

    fn own(&self) -> (f64, f64) {
        let s = &self.runs.a.summary;
        ((s.first_tries + s.retries) as f64, s.finished_at)
    }
}

/// Draws `key` for `state`, after `before` (its state and the axes it was
/// drawn on) when given, at `size`; returns the drawing and its axes.
fn draw_key(
    key: ChartId,
    state: &State,
    before: Option<(&State, Axes)>,
    (size, scale): ((u32, u32), f64),
) -> (String, Axes) {
    let theme = Theme::light(scale);
    let charts = state.runs.charts();
    let ghost_charts = before.map(|(b, _)| b.runs.charts()).unwrap_or_default();
    let axes = before.map(|(_, axes)| axes);
    let runs_before = Before {
        runs: &ghost_charts,
        axes,
    };
    let ghost_curves = before.map(|(b, _)| b.curves()).unwrap_or_default();
    let headlines = state.headlines();
    let drawn = std::cell::Cell::new(None);
    let out = svg_sized(size, |area| {
        let axes = match key {
            ChartId::Load => {
                let view = LoadView {
                    cursor: None,
                    before: runs_before,
                };
                draw_load_view(area, &charts, &state.runs.scenario, &theme, &view)?.axes
            }
            ChartId::Mechanism => {
                draw_mechanism_after(area, &charts, &state.runs.scenario, &theme, runs_before)?
            }
            ChartId::Latency => {
                draw_latency_after(area, &charts, &state.runs.scenario, &theme, runs_before)?
            }
            ChartId::Sweep => {
                let view = SweepView {
                    mark: Some(SweepMark {
                        failure: state.config.get(P::Failure),
                        headlines: &headlines,
                    }),
                    before: &ghost_curves,
                    before_failure: before.map(|(b, _)| b.config.get(P::Failure)),
                    axes,
                };
                draw_sweep_view(area, &state.curves(), sweep::POINTS, &theme, &view)?
            }
            ChartId::Contention => {
                let view = ContentionView {
                    headline: Some(state.own()),
                    before: before.and_then(|(b, _)| b.grid.as_ref()),
                    before_headline: before.map(|(b, _)| b.own()),
                    axes,
                };
                let grid = state.grid.as_ref().expect("the grid");
                draw_contention_view(area, grid, &theme, &view)?
            }
            ChartId::Map => {
                let map = state.map.as_ref().expect("the map");
                let view = MapView {
                    map,
                    total: map.cells.len(),
                    world: retry_analyses::map::world_on_map(&state.config, map.rows),
                };
                draw_map(area, &view, &theme)?;
                Axes::default()
            }
            ChartId::Pauses | ChartId::Replay | ChartId::Frontier => {
                unreachable!("no preset's key chart")
            }
        };
        drawn.set(Some(axes));
        Ok(())
    });
    (out, drawn.get().expect("drawn"))
}

/// After every "try this" the key chart keeps a ghost ghost of the
/// preset's state and the preset's axes while the new data fits under
/// them (widened where it does not, never shrunk), and its labels still
/// keep clear of each other at laptop and phone sizes.
#[test]
fn after_each_try_this_the_ghost_is_drawn_and_the_axes_kept() {
    let laptop = ((800, 400), 1.0);
    // The map has no state before to show: its cells are the world's
    // under every trigger, the same after a change of the trigger, and
    // only its ring moves (`the_map_is_deep_for_a_where_the_trigger_stands`).
    for preset in PRESETS.iter().filter(|p| p.key_chart != ChartId::Map) {
        let key = preset.key_chart;
        let first = State::of(preset.config(), key);
        let (_, axes) = draw_key(key, &first, None, laptop);
        for try_this in preset.try_this {
            let changed = State::of(
                retry_sim::link::apply(&preset.config(), try_this.change),
                key,
            );
            let (out, kept) = draw_key(key, &changed, Some((&first, axes)), laptop);
            let what = format!("{} after {:?}", preset.key, try_this.label);
            let theme = Theme::light(1.0);
            let ghosts = [ghost(&theme), ghost(&theme), ghost(&theme)];
            assert!(
                ghosts
                    .iter()
                    .any(|g| out.contains(&format!("stroke=\"{}\"", hex(*g)))),
                "{what}: no ghost"
            );
            for i in 0..2 {
                assert!(kept.tops[i] >= axes.tops[i], "{what}: axis {i} shrank");
            }
            let (_, alone) = draw_key(key, &changed, None, laptop);
            let fits = (0..2).all(|i| alone.tops[i] <= axes.tops[i]);
            if fits {
                assert_eq!(kept, axes, "{what}: the data fits, the axes stay");
            }
            println!(
                "{what}: {}",
                if kept == axes {
                    "axes kept"
                } else {
                    "axes widened"
                }
            );
            for size in crate::load::tests::SIZES {
                let (out, _) = draw_key(key, &changed, Some((&first, axes)), size);
                assert_texts_apart(&out, size.0, &format!("{what} at {size:?}"));
            }
        }
    }
}

/// Whether the segment from `a` to `b` passes through `rect` (left, top,
/// right, bottom), kept a pixel inside its edges for the rounding.
fn crosses(rect: [f64; 4], a: (f64, f64), b: (f64, f64)) -> bool {
    let [left, top, right, bottom] = [rect[0] + 1.0, rect[1] + 1.0, rect[2] - 1.0, rect[3] - 1.0];
    let steps = ((b.0 - a.0).abs().max((b.1 - a.1).abs()).ceil() as usize).max(1);
    (0..=steps).any(|k| {
        let t = k as f64 / steps as f64;
        let (x, y) = (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1));
        (left..=right).contains(&x) && (top..=bottom).contains(&y)
    })
}

/// Every preset's key chart as it opens, at the laptop's sizes and the
/// phone's key chart's: its words keep apart from one another and inside the chart,
/// and none stands over a line of A's or B's data (a line through a
/// word's box is data the word hides).
#[test]
fn every_key_chart_keeps_its_words_apart_and_off_its_lines() {
    let mut over = Vec::new();
    // The laptop's sizes, and the phone's key chart as the page sizes it
    // (a phone's other charts are shorter, 362x318: `SIZES`).
    let phone = ((PHONE_KEY.0 * 2, PHONE_KEY.1 * 2), 2.0);
    let laptop = crate::load::tests::SIZES
        .into_iter()
        .filter(|(_, scale)| *scale == 1.0);
    let sizes: Vec<((u32, u32), f64)> = laptop.chain([phone]).collect();
    for preset in PRESETS {
        let state = State::of(preset.config(), preset.key_chart);
        for &size in &sizes {
            let (out, _) = draw_key(preset.key_chart, &state, None, size);
            let what = format!("{} at {size:?}", preset.key);
            assert_texts_apart(&out, size.0, &what);
            let theme = Theme::light(size.1);
            let lines: Vec<Vec<(f64, f64)>> = (0..2)
                .flat_map(|r| {
                    let colour = run_colour(&theme, r);
                    [colour, crate::deep(&theme, colour)]
                })
                .flat_map(|colour| lines_in(&out, colour))
                .collect();
            for text in texts(&out) {
                let segments = lines.iter().flat_map(|line| line.windows(2));
                if let Some(hit) = segments
                    .into_iter()
                    .find(|w| crosses(text.rect, w[0], w[1]))
                {
                    over.push(format!(
                        "{what}: {:?} at {:?} over {hit:?}",
                        text.text, text.rect
                    ));
                }
            }
        }
    }
    assert!(over.is_empty(), "words over data:\n{}", over.join("\n"));
}

/// The height of each plot in `svg`, top to bottom: a plot's y axis is a
/// vertical line in the foreground colour from its top to its bottom.
fn plot_heights(svg: &str, theme: &Theme) -> Vec<f64> {
    let foreground = hex(theme.foreground);
    let mut spans: Vec<(f64, f64)> = elements(svg, "line")
        .into_iter()
        .filter(|e| attr(e, "stroke") == foreground)
        .map(|e| {
            let (x1, y1, x2, y2) = (
                number(&e, "x1"),
                number(&e, "y1"),
                number(&e, "x2"),
                number(&e, "y2"),
            );
            (x1, y1, x2, y2)
        })
        .chain(
            lines_in(svg, theme.foreground)
                .into_iter()
                .filter_map(|line| {
                    let (first, last) = (*line.first()?, *line.last()?);
                    Some((first.0, first.1, last.0, last.1))
                }),
        )
        .filter(|(x1, y1, x2, y2)| (x1 - x2).abs() < 0.5 && (y1 - y2).abs() > 80.0)
        .map(|(_, y1, _, y2)| (y1.min(y2), y1.max(y2)))
        .collect();
    spans.sort_by(|a, b| a.partial_cmp(b).expect("pixels"));
    spans.dedup_by(|a, b| (a.0 - b.0).abs() < 1.0 && (a.1 - b.1).abs() < 1.0);
    spans
        .into_iter()
        .map(|(top, bottom)| bottom - top)
        .collect()
}

/// The height of each of the map's grids drawn at `size`: the panels
/// stand side by side, each a grid of cells.
fn map_heights(state: &State, size: (u32, u32), theme: &Theme) -> Vec<f64> {
    let map = state.map.as_ref().expect("the map");
    let view = MapView {
        map,
        total: map.cells.len(),
        world: retry_analyses::map::world_on_map(&state.config, map.rows),
    };
    let drawn = std::cell::Cell::new(None);
    svg_sized(size, |area| {
        drawn.set(Some(draw_map(area, &view, theme)?));
        Ok(())
    });
    let drawn = drawn.take().expect("drawn");
    drawn
        .panels
        .iter()
        .map(|p| p.cell_height * p.rows as f64)
        .collect()
}

/// The key chart's size on a phone (390x844) as the page's style sheet
/// gives it, in CSS pixels, drawn at twice the pixels: `responsive.test.mjs`
/// holds the page to it.
pub(crate) const PHONE_KEY: (u32, u32) = (358, 506);

/// The same with the duplicates' strip under the load: three plots.
pub(crate) const PHONE_KEY_WITH_STRIP: (u32, u32) = (358, 620);

/// On a phone every plot of every preset's key chart, and of every
/// chapter's (its preset's key chart in the chapter's world), is at least
/// 160 CSS pixels tall: two panels, a strip or a tail each readable.
#[test]
fn on_a_phone_every_panel_of_every_key_chart_is_160_px_tall() {
    let scale = 2.0;
    let theme = Theme::light(scale);
    let mut short = Vec::new();
    let presets = PRESETS.iter().map(|p| (p.key, p, p.config()));
    let chapters = crate::course::CHAPTERS
        .iter()
        .map(|c| (c.key, c.preset(), c.config()));
    for (key, preset, config) in presets.chain(chapters) {
        let state = State::of(config, preset.key_chart);
        let strip = preset.key_chart == ChartId::Load
            && state
                .runs
                .charts()
                .iter()
                .any(|r| r.report.summary.duplicates > 0);
        let css = if strip {
            PHONE_KEY_WITH_STRIP
        } else {
            PHONE_KEY
        };
        let size = (css.0 * 2, css.1 * 2);
        let (out, _) = draw_key(preset.key_chart, &state, None, (size, scale));
        let heights: Vec<f64> = if preset.key_chart == ChartId::Map {
            map_heights(&state, size, &theme)
        } else {
            plot_heights(&out, &theme)
        };
        let heights: Vec<f64> = heights.iter().map(|h| h / scale).collect();
        println!("{key}: {heights:.0?}");
        assert!(!heights.is_empty(), "{key}: no plot found");
        if heights.iter().any(|h| *h < 160.0) {
            short.push(format!("{key}: {heights:.0?}"));
        }
    }
    assert!(
        short.is_empty(),
        "panels under 160 px:\n{}",
        short.join("\n")
    );
}
