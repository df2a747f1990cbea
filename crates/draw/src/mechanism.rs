//! The mechanism chart: what the policies do to the system over time.
//! Without a budget, requests in service and queued; where a policy keeps
//! a budget's balance, the calls each policy sends and the retries its
//! budget refused, with the balance below.

use plotters::coord::Shift;
use plotters::prelude::*;
use retry_core::tf;
use retry_core::words::tr;

use retry_core::budget::BudgetKind;
use retry_sim::sim::{Fault, Report, Scenario};

use super::{
    Axes, Before, DrawResult, Entry, Frame, Labels, Plotted, Sample, Theme, along_axis, axes,
    calls_within, count, deep, dotted, ghost, header, kept_top, light, path, run_colour,
    shade_unsimulated, shade_windows, simulated_until, tick,
};

/// What the load does to the system, per policy over time: requests in
/// service (line; B dashed) and waiting in the queue (shaded). Where a
/// policy's budget keeps a balance (gRPC's token bucket, the AWS SDK's
/// retry quota) the difference is in what each policy sends, so the top
/// panel shows the calls each sends a second and, stacked on them
/// (dotted), the retries its budget refused, against the server's capacity, with the outage's
/// calls said on its shade; below, the balance, the level under which it
/// refuses retries, and when it first refused one. Outages and spikes are
/// shaded.
pub fn draw_mechanism<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    runs: &[Plotted],
    scenario: &Scenario,
    theme: &Theme,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    draw_mechanism_after(area, runs, scenario, theme, Before::default()).map(|_| ())
}

/// [`draw_mechanism`] after a change: the lines before it ghost, the
/// axes kept while the new data fits (the top panel's, then the
/// balance's). Returns the axes drawn.
pub fn draw_mechanism_after<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    runs: &[Plotted],
    scenario: &Scenario,
    theme: &Theme,
    before: Before,
) -> Result<Axes, Box<dyn std::error::Error>>
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
    let (top, bottom) = if with_budget {
        let (_, height) = area.dim_in_pixel();
        // Halves: the balance below has its own legend and the time axis.
        let (a, b) = area.split_vertically(height / 2);
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
    // The top panel's quantity, of a run now or before the change.
    let sent = |report: &Report| -> Vec<f64> {
        let s = &report.series;
        (0..s.len())
            .map(|i| (s.first_tries[i] + s.retries[i]) as f64 / width)
            .collect()
    };
    // Stacked on what was sent: the gap is what the budget held back
    // (alone, it would lie on the calls it roughly equals in an outage).
    let asked = |report: &Report| -> Vec<f64> {
        let s = &report.series;
        sent(report)
            .iter()
            .zip(&s.budget_refusals)
            .map(|(calls, refused)| calls + *refused as f64 / width)
            .collect()
    };
    let queues = !with_budget
        && runs
            .iter()
            .any(|run| run.report.series.queue.iter().any(|q| *q > 0.0));
    let top_values = |report: &Report| -> Vec<f64> {
        if with_budget {
            sent(report)
        } else {
            report.series.in_flight.clone()
        }
    };
    let needed = runs
        .iter()
        .chain(before.runs)
        .flat_map(|run| {
            let mut values = top_values(run.report);
            if with_budget {
                values.extend(asked(run.report));
            }
            if queues {
                values.extend(&run.report.series.queue);
            }
            values
        })
        .fold(0.0, f64::max);
    let y_high = kept_top(before.axes, 0, needed, needed.max(1.0) * 1.1);
    // The server's limit, where it falls inside the axis: its workers
    // (requests at once) or its capacity (calls a second).
    let capacity = series
        .capacity
        .iter()
        .filter(|c| c.is_finite())
        .fold(0.0, |a: f64, c| a.max(*c));
    let limit = if with_budget {
        (capacity > 0.0 && capacity < y_high).then(|| {
            (
                capacity,
                tf!("server capacity {rate}/s", rate = count(capacity)),
            )
        })
    } else {
        let workers = f64::from(scenario.workers);
        (scenario.workers > 0 && workers < y_high).then(|| {
            (
                workers,
                tf!(
                    "{n} {n|worker|workers} (served at once)",
                    n = scenario.workers
                ),
            )
        })
    };

    let mut entries = Vec::new();
    for (r, run) in runs.iter().enumerate() {
        let colour = run_colour(theme, r);
        let what = if with_budget {
            tr("calls sent")
        } else {
            tr("in service")
        };
        entries.push(Entry::line(
            format!("{}{what}", run.prefix()),
            colour,
            run.dashed(r),
        ));
        if queues {
            entries.push(Entry::area(
                format!("{}{}", run.prefix(), tr("waiting in the queue")),
                light(theme, colour),
            ));
        }
        if with_budget && run.report.summary.budget_refusals > 0 {
            entries.push(Entry::new(
                format!("{}{}", run.prefix(), tr("+ retries refused")),
                deep(theme, colour),
                Sample::Dotted,
            ));
        }
    }
    if let Some((_, text)) = &limit {
        entries.push(Entry::new(text.clone(), theme.colour(2), Sample::Dotted));
    }
    let ghost_entry = || {
        let b = (before.runs.len() > 1).then(|| ghost(theme));
        Entry::line(tr("before the change"), ghost(theme), false).and(b)
    };
    if !before.runs.is_empty() {
        entries.push(ghost_entry());
    }
    let plot = header(&top, &entries, theme)?;
    // Words that fit along the panel's axis, as it is sized.
    let words: [&str; 2] = if with_budget {
        [tr("server calls per second"), tr("calls/s")]
    } else {
        [tr("requests (time average)"), tr("requests")]
    };
    let y_label = along_axis(&plot, theme, &words)?;
    let mut chart = axes(
        &plot,
        theme,
        0.0..horizon,
        0.0..y_high,
        Frame {
            x_axis: bottom.is_none(),
            ..Frame::new(tr("time (s)"), y_label)
        },
    )?;
    shade_windows(&mut chart, scenario, theme)?;
    if let Some((level, _)) = limit {
        // Capacity as it was bucket by bucket: none while the server is down.
        let line = if with_budget {
            stepped(&series.capacity)
        } else {
            vec![(0.0, level), (horizon, level)]
        };
        dotted(
            &mut chart,
            line,
            theme.colour(2).stroke_width(theme.px(1.5)),
            theme,
        )?;
    }
    for (r, was) in before.runs.iter().enumerate() {
        path(
            &mut chart,
            stepped(&top_values(was.report)),
            ghost(theme).stroke_width(theme.px(1.5)),
            r == 1,
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
            // Opaque, the legend's swatch: the line shows over it.
            chart.draw_series(std::iter::once(Polygon::new(
                area_points,
                light(theme, colour).filled(),
            )))?;
        }
        if with_budget && run.report.summary.budget_refusals > 0 {
            dotted(
                &mut chart,
                stepped(&asked(run.report)),
                deep(theme, colour).stroke_width(theme.px(2.0)),
                theme,
            )?;
        }
        path(
            &mut chart,
            stepped(&top_values(run.report)),
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
    // The outage's calls, said on its shade: where the policies differ;
    // no words over a policy's lines.
    let mut labels = Labels::on(&chart, theme);
    for run in runs {
        labels.avoid(&chart, &stepped(&top_values(run.report)));
        if with_budget && run.report.summary.budget_refusals > 0 {
            labels.avoid(&chart, &stepped(&asked(run.report)));
        }
    }
    let outage = scenario.fault(Fault::Outage).filter(|_| with_budget);
    let mut outage_told = false;
    if let Some(outage) = outage {
        let window = (outage.start, outage.end);
        let sent = |r: usize| count(calls_within(runs[r].report, window) as f64);
        let text = if runs.len() > 1 {
            tf!("outage: A sent {a} calls, B {b}", a = sent(0), b = sent(1))
        } else {
            tf!("outage: {calls} calls sent", calls = sent(0))
        };
        let step = theme.px(13.0) as i32;
        let x = chart.backend_coord(&(window.0, 0.0)).0;
        let end = chart.backend_coord(&(window.1, 0.0)).0;
        let [_, plot_top, _, plot_bottom] = labels.plot;
        let rows: Vec<i32> = (0..(plot_bottom - plot_top) / step)
            .map(|k| plot_top + 4 + k * step)
            .collect();
        let forms = super::one_line_or_two(text);
        outage_told = labels.put_named(area, &forms, &theme.font(11.0), x, &rows, (x, end))?;
    }
    super::name_windows(&mut labels, area, &chart, scenario, !outage_told, theme)?;

    let Some(bottom) = bottom else {
        return Ok(Axes {
            tops: [y_high, 0.0],
            floor: 0.0,
        });
    };
    let budget = &scenario.budget;
    let (full, threshold, name) = match budget.kind {
        BudgetKind::TokenBucket => (
            budget.token_bucket.max_tokens,
            Some((
                budget.token_bucket.max_tokens / 2.0,
                tr("retries stop at or below half"),
            )),
            tr("tokens"),
        ),
        BudgetKind::AwsQuota | BudgetKind::AwsAdaptive => (
            budget.quota.quota,
            Some((budget.quota.retry_cost, tr("a retry costs this much"))),
            tr("retry quota"),
        ),
        _ => (0.0, None, tr("budget balance")),
    };
    let needed = runs
        .iter()
        .chain(before.runs)
        .flat_map(|run| run.report.series.budget_level.iter().copied())
        .fold(full, f64::max)
        .max(1e-3);
    let level_high = kept_top(before.axes, 1, needed, needed * 1.08);
    let mut entries = Vec::new();
    for (r, run) in runs.iter().enumerate() {
        if !run.report.series.budget_level.is_empty() {
            entries.push(Entry::line(
                format!("{}{}", run.prefix(), tf!("{name} left", name = name)),
                run_colour(theme, r),
                run.dashed(r),
            ));
        }
    }
    if let Some((_, text)) = threshold {
        entries.push(Entry::new(text, theme.foreground, Sample::Dotted));
    }
    let plot = header(&bottom, &entries, theme)?;
    let mut chart = axes(
        &plot,
        theme,
        0.0..horizon,
        0.0..level_high,
        Frame::new(tr("time (s)"), name),
    )?;
    shade_windows(&mut chart, scenario, theme)?;
    if let Some((level, _)) = threshold {
        dotted(
            &mut chart,
            vec![(0.0, level), (horizon, level)],
            theme.foreground.stroke_width(theme.px(1.5)),
            theme,
        )?;
    }
    for (r, was) in before.runs.iter().enumerate() {
        let level = &was.report.series.budget_level;
        if !level.is_empty() {
            path(
                &mut chart,
                stepped(level),
                ghost(theme).stroke_width(theme.px(1.5)),
                r == 1,
                theme,
            )?;
        }
    }
    let mut labels = Labels::on(&chart, theme);
    for run in runs {
        labels.avoid(&chart, &stepped(&run.report.series.budget_level));
    }
    for (r, run) in runs.iter().enumerate() {
        let s = &run.report.series;
        if s.budget_level.is_empty() {
            continue;
        }
        let colour = run_colour(theme, r);
        path(
            &mut chart,
            stepped(&s.budget_level),
            colour.stroke_width(theme.px(2.0)),
            run.dashed(r),
            theme,
        )?;
        // The moment the budget first said no.
        if let Some(i) = s.budget_refusals.iter().position(|n| *n > 0) {
            let at = i as f64 * width;
            let text = format!(
                "{}{}",
                run.prefix(),
                tf!("retries refused from {t} s", t = tick(&at))
            );
            let (x, y) = chart.backend_coord(&(at, s.budget_level[i]));
            let step = theme.px(13.0) as i32;
            let rows: Vec<i32> = (0..12)
                .flat_map(|k| [y - 2 * step - k * step, y + step + k * step])
                .collect();
            // It says when it speaks of: anywhere along the plot.
            let forms = super::one_line_or_two(text);
            let plot = (labels.plot[0], labels.plot[2]);
            labels.put_named(
                area,
                &forms,
                &theme.font(11.0).color(&colour),
                x,
                &rows,
                plot,
            )?;
        }
    }
    Ok(Axes {
        tops: [y_high, level_high],
        floor: 0.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svg_test::*;
    use plotters::style::RGBColor;

    /// The mechanism chart draws the AWS SDK quota's balance at each
    /// bucket's end and the cost of one retry, on the lower panel's axes.
    #[test]
    fn mechanism_draws_the_quota_balance() {
        let (config, _) = retry_sim::config::Config::from_link(
            "v=1&attempts=3&cap=20&budget=aws-quota&failure=0.01&outage_at=20&outage_for=20",
        );
        let report = retry_sim::simulate::run(&config);
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
        let (config, _) = retry_sim::config::Config::from_link(
            "v=1&compare=on&rate=400&failure=0.5&B.attempts=2&horizon=60",
        );
        let scenario = retry_sim::simulate::scenario(&config);
        let mut a = retry_sim::sim::Run::new(&scenario);
        let mut b =
            retry_sim::sim::Run::new(&retry_sim::simulate::scenario(&config.policy_b_config()));
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
        let line = |report: &retry_sim::sim::Report| {
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

    /// The AWS SDK's and gRPC's defaults: A keeps the budget, B does not,
    /// and the chart shows where they really differ. The outage is shaded
    /// on both panels; in it each policy's line stands at the calls it
    /// sent, bucket by bucket, B's far above A's (the totals said on the
    /// shade), A's refused retries stacked on its calls; A's balance falls
    /// to where the budget refuses, and the moment it first refused is
    /// labelled.
    #[test]
    fn budget_presets_show_what_each_policy_sends_in_the_outage() {
        for key in ["aws-sdk", "grpc"] {
            let runs = preset_runs(key);
            let charts = runs.charts();
            let (a, b) = (&runs.a, runs.b.as_ref().expect("comparing"));
            let theme = Theme::light(1.0);
            let out = svg(|area| draw_mechanism(area, &charts, &runs.scenario, &theme));
            let shades = shades(&out, &theme);
            assert_eq!(shades.len(), 2, "{key}: the outage on both panels");
            let [left, top, right, bottom] = shades[0];
            let (start, end) = (
                runs.scenario.outage_start,
                runs.scenario.outage_start + runs.scenario.outage_duration,
            );
            let per_second = (right - left) / (end - start);
            let x = |t: f64| left + (t - start) * per_second;
            let width = a.series.width;
            let sent = |r: &retry_sim::sim::Report, i: usize| {
                (r.series.first_tries[i] + r.series.retries[i]) as f64 / width
            };
            let asked = |r: &retry_sim::sim::Report, i: usize| {
                sent(r, i) + r.series.budget_refusals[i] as f64 / width
            };
            let buckets = a.series.len();
            let needed = (0..buckets)
                .flat_map(|i| [sent(a, i), sent(b, i), asked(a, i)])
                .fold(0.0, f64::max);
            let y = |value: f64| bottom - value / (needed * 1.1) * (bottom - top);
            let in_outage = |i: usize| i as f64 * width >= start && (i + 1) as f64 * width <= end;
            let total = |r: &retry_sim::sim::Report| -> f64 {
                (0..buckets)
                    .filter(|&i| in_outage(i))
                    .map(|i| sent(r, i) * width)
                    .sum()
            };
            // The sentences: "about three times" (AWS), "about five" (gRPC).
            let (times, words) = if key == "aws-sdk" {
                (3.0, "about three times")
            } else {
                (5.0, "about five times")
            };
            let ratio = total(b) / total(a);
            assert!(
                (ratio / times - 1.0).abs() < 0.2,
                "{key}: B sends {ratio:.2}x A's"
            );
            assert!(preset(key).sees().0.contains(words), "{key}: {words}");
            // A's budget says no within the outage's first second.
            let level = &a.series.budget_level;
            let refuses_at = if key == "aws-sdk" {
                runs.scenario.budget.quota.retry_cost
            } else {
                runs.scenario.budget.token_bucket.max_tokens / 2.0
            };
            let first_second = (start / width) as usize..((start + 1.0) / width) as usize;
            assert!(
                first_second.clone().any(|i| level[i] <= refuses_at),
                "{key}: the budget is dry within a second"
            );
            assert!(
                first_second
                    .clone()
                    .any(|i| a.series.budget_refusals[i] > 0)
            );
            let text = format!(
                "outage: A sent {} calls, B {}",
                count(total(a)),
                count(total(b))
            );
            assert!(out.contains(&text), "{key}: {text} missing");
            // A's line, solid: two points a bucket, each on A's rate.
            let a_line = lines_in(&out, run_colour(&theme, 0))
                .into_iter()
                .find(|l| l.len() == 2 * buckets && l[0].1 <= bottom + 0.5)
                .expect("A's calls");
            for i in (0..buckets).filter(|&i| in_outage(i)) {
                near(
                    a_line[2 * i].1,
                    y(sent(a, i)),
                    &format!("{key}: A at bucket {i}"),
                );
            }
            // B's dashes lie on B's steps; in the outage, above A's.
            let on_steps = |values: &dyn Fn(usize) -> f64, colour: RGBColor| {
                let mut checked = 0;
                for (px, py) in lines_in(&out, colour).into_iter().flatten() {
                    if py < top - 0.5 || py > bottom + 0.5 || px < x(0.0) {
                        continue;
                    }
                    let i = ((((px - x(0.0)) / per_second) / width) as usize).min(buckets - 1);
                    let around = [i.saturating_sub(1), i, (i + 1).min(buckets - 1)].map(values);
                    let low = around.iter().copied().fold(f64::INFINITY, f64::min);
                    let high = around.iter().copied().fold(0.0, f64::max);
                    assert!(
                        py <= y(low) + 1.5 && py >= y(high) - 1.5,
                        "{key}: off its steps"
                    );
                    checked += 1;
                }
                checked
            };
            assert!(on_steps(&|i| sent(b, i), run_colour(&theme, 1)) > 100);
            assert!(on_steps(&|i| asked(a, i), deep(&theme, run_colour(&theme, 0))) > 100);
            assert!(
                out.contains("A: retries refused from "),
                "{key}: the moment"
            );
        }
    }

    /// The storm: after the spike, A's requests in service keep climbing
    /// to the end, B's fall back to what they were before it.
    #[test]
    fn the_storms_a_keeps_climbing_and_b_recovers() {
        let runs = preset_runs("storm");
        let charts = runs.charts();
        let (a, b) = (&runs.a, runs.b.as_ref().expect("comparing"));
        let theme = Theme::light(1.0);
        let out = svg(|area| draw_mechanism(area, &charts, &runs.scenario, &theme));
        assert!(out.contains("spike: 80/s"));
        let [_, top, _, bottom] = shades(&out, &theme)[0];
        let needed = a
            .series
            .in_flight
            .iter()
            .chain(&b.series.in_flight)
            .fold(0.0f64, |m, v| m.max(*v));
        let y = |value: f64| bottom - value / (needed * 1.1) * (bottom - top);
        let a_line = longest(lines_in(&out, run_colour(&theme, 0)));
        let last = *a.series.in_flight.last().expect("buckets");
        near(a_line[a_line.len() - 1].1, y(last), "A at the end");
        assert!(last > 10.0 * b.series.in_flight[b.series.len() - 1]);
        let spike_end = runs.scenario.spike_start + runs.scenario.spike_duration;
        let settled = (spike_end + 20.0) / b.series.width;
        assert!(
            b.series.in_flight[settled as usize..]
                .iter()
                .all(|v| *v < 100.0),
            "B back under 100"
        );
    }

    /// Labels never overlap, and stay inside, on every preset's world.
    #[test]
    fn mechanism_labels_never_overlap_at_laptop_and_phone_sizes() {
        for preset in crate::presets::PRESETS {
            let runs = crate::run(&preset.config());
            let charts = runs.charts();
            for (size, scale) in crate::load::tests::SIZES {
                let theme = Theme::light(scale);
                let out = svg_sized(size, |area| {
                    draw_mechanism(area, &charts, &runs.scenario, &theme)
                });
                assert_texts_apart(&out, size, &format!("{} at {size:?}", preset.key));
            }
        }
    }
}
