//! The mechanism chart: requests in service and queued over time, and a
//! budget's balance where the policy keeps one.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::budget::BudgetKind;
use crate::sim::Scenario;

use super::{
    DrawResult, Entry, Frame, Plotted, Sample, Theme, axes, dotted, header, light, path,
    run_colour, shade_unsimulated, simulated_until,
};

/// What the load does to the system, per policy over time: requests in
/// service (line; B dashed) and waiting in the queue (shaded), and, when
/// a policy's budget keeps a balance (gRPC's token bucket, the AWS SDK's
/// retry quota), that balance in a panel below, with the level under
/// which it refuses retries.
pub fn draw_mechanism<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    runs: &[Plotted],
    scenario: &Scenario,
    theme: &Theme,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    area.fill(&theme.background)?;
    let series = &runs[0].report.series;
    let width = series.width.max(1e-9);
    let horizon = (series.len() as f64 * width).max(1e-3);
    let with_budget = runs
        .iter()
        .any(|run| !run.report.series.budget_level.is_empty());
    let queues = runs
        .iter()
        .any(|run| run.report.series.queue.iter().any(|q| *q > 0.0));
    let (top, bottom) = if with_budget {
        let (_, height) = area.dim_in_pixel();
        let (a, b) = area.split_vertically(height * 11 / 20);
        (a, Some(b))
    } else {
        (area.clone(), None)
    };
    let stepped = |values: &[f64]| -> Vec<(f64, f64)> {
        values
            .iter()
            .enumerate()
            .flat_map(|(i, v)| [(i as f64 * width, *v), ((i + 1) as f64 * width, *v)])
            .collect()
    };

    let mut entries = Vec::new();
    for (r, run) in runs.iter().enumerate() {
        let colour = run_colour(theme, r);
        entries.push(Entry::line(
            format!("{}in service", run.prefix()),
            colour,
            run.dashed(r),
        ));
        if queues {
            entries.push(Entry::area(
                format!("{}waiting in the queue", run.prefix()),
                light(theme, colour),
            ));
        }
    }
    let y_high = runs
        .iter()
        .flat_map(|run| {
            let s = &run.report.series;
            s.in_flight.iter().chain(&s.queue).copied()
        })
        .fold(0.0, f64::max)
        .max(1.0)
        * 1.1;
    // The workers' line only where it falls inside the axis.
    if scenario.workers > 0 && f64::from(scenario.workers) < y_high {
        entries.push(Entry::new(
            format!("{} workers (served at once)", scenario.workers),
            theme.colour(2),
            Sample::Dotted,
        ));
    }
    let plot = header(&top, &entries, theme)?;
    let mut chart = axes(
        &plot,
        theme,
        0.0..horizon,
        0.0..y_high,
        Frame::new("time (s)", "requests (time average)"),
    )?;
    if scenario.workers > 0 && f64::from(scenario.workers) < y_high {
        let workers = f64::from(scenario.workers);
        dotted(
            &mut chart,
            vec![(0.0, workers), (horizon, workers)],
            theme.colour(2).stroke_width(theme.px(1.5)),
            theme,
        )?;
    }
    for (r, run) in runs.iter().enumerate() {
        let colour = run_colour(theme, r);
        let s = &run.report.series;
        if queues {
            let mut area_points = stepped(&s.queue);
            area_points.insert(0, (0.0, 0.0));
            area_points.push((horizon, 0.0));
            chart.draw_series(std::iter::once(Polygon::new(
                area_points,
                colour.mix(0.3).filled(),
            )))?;
        }
        path(
            &mut chart,
            stepped(&s.in_flight),
            colour.stroke_width(theme.px(2.0)),
            run.dashed(r),
            theme,
        )?;
    }
    // What a run did not simulate (yet) is not an empty server.
    let unsimulated = runs
        .iter()
        .filter_map(|run| simulated_until(run.report, horizon).map(|until| (until, run)))
        .min_by(|(a, _), (b, _)| a.total_cmp(b));
    if let Some((until, run)) = unsimulated {
        let in_progress = run.report.summary.in_progress();
        shade_unsimulated(&mut chart, (until, horizon), in_progress, theme)?;
    }

    let Some(bottom) = bottom else {
        return Ok(());
    };
    let budget = &scenario.budget;
    let (full, threshold, name) = match budget.kind {
        BudgetKind::TokenBucket => (
            budget.max_tokens,
            Some((budget.max_tokens / 2.0, "retries stop at or below half")),
            "tokens",
        ),
        BudgetKind::AwsQuota => (
            budget.quota,
            Some((budget.retry_cost, "a retry costs this much")),
            "retry quota",
        ),
        _ => (0.0, None, "budget balance"),
    };
    let y_high = runs
        .iter()
        .flat_map(|run| run.report.series.budget_level.iter().copied())
        .fold(full, f64::max)
        .max(1e-3)
        * 1.08;
    let mut entries = Vec::new();
    for (r, run) in runs.iter().enumerate() {
        if !run.report.series.budget_level.is_empty() {
            entries.push(Entry::line(
                format!("{}{name} left", run.prefix()),
                run_colour(theme, r),
                run.dashed(r),
            ));
        }
    }
    if let Some((_, text)) = threshold {
        entries.push(Entry::new(
            text.to_string(),
            theme.foreground,
            Sample::Dotted,
        ));
    }
    let plot = header(&bottom, &entries, theme)?;
    let mut chart = axes(
        &plot,
        theme,
        0.0..horizon,
        0.0..y_high,
        Frame::new("time (s)", name),
    )?;
    if let Some((level, _)) = threshold {
        dotted(
            &mut chart,
            vec![(0.0, level), (horizon, level)],
            theme.foreground.stroke_width(theme.px(1.5)),
            theme,
        )?;
    }
    for (r, run) in runs.iter().enumerate() {
        let level = &run.report.series.budget_level;
        if level.is_empty() {
            continue;
        }
        path(
            &mut chart,
            stepped(level),
            run_colour(theme, r).stroke_width(theme.px(2.0)),
            run.dashed(r),
            theme,
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::svg_test::*;

    /// The mechanism chart draws the AWS SDK quota's balance at each
    /// bucket's end and the cost of one retry, on the lower panel's axes.
    #[test]
    fn mechanism_draws_the_quota_balance() {
        let (config, _) = crate::config::Config::from_link(
            "v=1&attempts=3&cap=20&budget=aws-quota&failure=0.01&outage_at=20&outage_for=20",
        );
        let report = crate::simulate::run(&config);
        let scenario = config.scenario();
        let theme = Theme::light(1.0);
        let runs = [single(&report, &[], None)];
        let out = svg(|area| draw_mechanism(area, &runs, &scenario, &theme));
        let lower = mesh(&out, &theme, 220.0..400.0);
        let level = &report.series.budget_level;
        let y_high = level.iter().copied().fold(500.0, f64::max) * 1.08;
        let y = |value: f64| lower.bottom - value / y_high * (lower.bottom - lower.top);
        let line = lines_in(&out, run_colour(&theme, 0))
            .into_iter()
            .filter(|l| l.len() > 2 && l[0].1 > lower.top - 1.0)
            .max_by_key(|l| l.len())
            .expect("the balance line");
        // Two points per bucket: [start, level] and [end, level].
        assert_eq!(line.len(), 2 * level.len());
        for seconds in [10.0, 30.0, 45.0, 59.0] {
            let i = (seconds / report.series.width) as usize;
            near(
                line[2 * i].1,
                y(level[i]),
                &format!("the balance at {seconds} s"),
            );
        }
        let cost = lines_in(&out, theme.foreground)
            .into_iter()
            .find(|l| l.len() == 2 && l[0].1 == l[1].1 && l[0].1 > lower.top)
            .expect("the retry cost's dots");
        near(cost[0].1, y(5.0), "a retry costs 5");
    }

    /// Requests in service fall to nothing where a run stopped, or has not
    /// got to yet: that time is shaded and says which, from the policy
    /// that got least far.
    #[test]
    fn mechanism_shades_what_was_not_simulated() {
        let (config, _) = crate::config::Config::from_link(
            "v=1&compare=on&rate=400&failure=0.5&B.attempts=2&horizon=60",
        );
        let scenario = crate::simulate::scenario(&config);
        let mut a = crate::sim::Run::new(&scenario);
        let mut b = crate::sim::Run::new(&crate::simulate::scenario(&config.policy_b_config()));
        assert!(!a.advance(4_000) && !b.advance(9_000));
        let (a, b) = (a.so_far(), b.so_far());
        assert!(a.summary.simulated_until < b.summary.simulated_until);
        let theme = Theme::light(1.0);
        let runs = [single(&a, &[], None), single(&b, &[], None)];
        let out = svg(|area| draw_mechanism(area, &runs, &scenario, &theme));
        assert!(out.contains("still simulating"));
        let shades: Vec<_> = elements(&out, "rect")
            .into_iter()
            .filter(|e| attr(e, "fill") == hex(theme.foreground) && attr(e, "opacity") == "0.18")
            .collect();
        assert_eq!(shades.len(), 1);
        let line = |report: &crate::sim::Report| {
            let mut cut = report.clone();
            cut.summary.truncated = false;
            cut
        };
        // Whole runs: no shade.
        let (a, b) = (line(&a), line(&b));
        let runs = [single(&a, &[], None), single(&b, &[], None)];
        let out = svg(|area| draw_mechanism(area, &runs, &scenario, &theme));
        assert!(!out.contains("still simulating"));
    }
}
