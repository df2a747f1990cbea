//! The load chart: first tries and retries stacked over time against the
//! server's capacity, the outage shaded, the herd's waves labelled.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::sim::{Report, Scenario, WorkloadKind};

use super::{
    DrawResult, Entry, Plotted, Sample, Theme, axes, count, deep, dotted, header, label, light,
    path, run_colour, shade_unsimulated, simulated_until, tick,
};

/// How high the load chart's axis goes, and whether it clips: a few times
/// the server's capacity when the load goes beyond that, so capacity and
/// what happens around it stay readable; bars above are cut and marked
/// with their true value.
fn load_axis(peak: f64, capacity: f64) -> (f64, bool) {
    const CLIP: f64 = 3.0;
    if capacity > 0.0 && capacity.is_finite() && peak > CLIP * capacity * 1.12 {
        (CLIP * capacity * 1.12, true)
    } else {
        (
            peak.max(capacity.min(peak.max(1.0) * 1e3)).max(1.0) * 1.12,
            false,
        )
    }
}

/// A wave of the herd: consecutive buckets in which calls arrived faster
/// than the server completes them.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Wave {
    /// Calls in the wave.
    calls: u64,
    /// Start of its busiest bucket, in seconds.
    at: f64,
    /// Its busiest bucket's index.
    peak: usize,
}

fn waves(report: &Report) -> Vec<Wave> {
    let series = &report.series;
    let mut found: Vec<Wave> = Vec::new();
    let mut open = false;
    for i in 0..series.len() {
        let calls = series.first_tries[i] + series.retries[i];
        let over = calls > 0 && calls as f64 / series.width > series.capacity[i];
        match (over, open, found.last_mut()) {
            (true, true, Some(wave)) => {
                let busiest = series.first_tries[wave.peak] + series.retries[wave.peak];
                if calls > busiest {
                    wave.peak = i;
                    wave.at = i as f64 * series.width;
                }
                wave.calls += calls;
            }
            (true, _, _) => found.push(Wave {
                calls,
                at: i as f64 * series.width,
                peak: i,
            }),
            _ => {}
        }
        open = over;
    }
    found
}

/// Load over time, one panel per policy on the same axes: first tries
/// (solid) and retries (lighter) stacked in the policy's colour, its
/// failed answers (503s, timeouts, refused connections) dotted, goodput
/// and the server's capacity as lines, outage and spike windows shaded.
/// The axis stops at a few times capacity when the load goes beyond: cut
/// bars carry their true rate. The herd's waves are labelled with their
/// size against what the server takes at once, and the time after a run
/// stopped at the work limit is shaded as not simulated.
pub fn draw_load<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    runs: &[Plotted],
    scenario: &Scenario,
    theme: &Theme,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    draw_load_at(area, runs, scenario, theme, None).map(|_| ())
}

/// Where time runs across the load chart, in the backend's pixels: a click
/// on it reads back as a time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeAxis {
    /// Pixels of time 0 and of the horizon.
    pub left: f64,
    pub right: f64,
    pub horizon: f64,
}

impl TimeAxis {
    /// The time under pixel `x`, within the horizon.
    pub fn time_at(&self, x: f64) -> f64 {
        let span = (self.right - self.left).max(1.0);
        ((x - self.left) / span).clamp(0.0, 1.0) * self.horizon
    }
}

/// The load chart with the replay's instant marked on every panel (a
/// vertical line at `cursor`), and where its time axis runs.
pub fn draw_load_at<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    runs: &[Plotted],
    scenario: &Scenario,
    theme: &Theme,
    cursor: Option<f64>,
) -> Result<TimeAxis, Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    area.fill(&theme.background)?;
    let series = &runs[0].report.series;
    let width = series.width.max(1e-9);
    let buckets = series.len();
    let rate = |count: u64| count as f64 / width;
    let left = |i: usize| i as f64 * width;
    let horizon = left(buckets).max(1e-3);
    let capacity_top = series
        .capacity
        .iter()
        .filter(|c| c.is_finite())
        .fold(0.0, |a: f64, c| a.max(*c));
    let total = |run: &Plotted, i: usize| {
        let s = &run.report.series;
        rate(s.first_tries[i] + s.retries[i])
    };
    let peak = runs
        .iter()
        .flat_map(|run| (0..buckets).map(move |i| total(run, i)))
        .fold(0.0, f64::max);
    let (y_high, clipped) = load_axis(peak, capacity_top);
    let mut time_axis = TimeAxis {
        left: 0.0,
        right: 1.0,
        horizon,
    };

    let panels = area.split_evenly((runs.len(), 1));
    for (r, (run, panel)) in runs.iter().zip(&panels).enumerate() {
        let colour = run_colour(theme, r);
        let report = run.report;
        let s = &report.series;
        let until = simulated_until(report, horizon).unwrap_or(horizon);
        // Buckets that began before the run stopped; the cut one is
        // shaded over below.
        let drawn = (0..buckets).filter(|&i| left(i) < until).count();
        let mut entries = vec![
            Entry::area(format!("{}first tries", run.prefix()), colour),
            Entry::area(format!("{}retries", run.prefix()), light(theme, colour)),
            Entry {
                text: "failed answers".to_string(),
                colour: deep(theme, colour),
                sample: Sample::Dotted,
            },
            Entry::line("goodput", theme.foreground, false),
        ];
        if capacity_top > 0.0 {
            entries.push(Entry::line("server capacity", theme.colour(2), false));
        }
        let plot = header(panel, &entries, theme)?;
        // Two policies on a phone leave each panel too short for the long
        // words along its axis.
        let short = plot.dim_in_pixel().1 < theme.px(160.0);
        let mut chart = axes(
            &plot,
            theme,
            0.0..horizon,
            0.0..y_high,
            "time (s)",
            if short {
                "requests/s"
            } else {
                "requests per second"
            },
        )?;

        let shade = theme.grid.mix(0.6);
        let mut windows = Vec::new();
        if scenario.outage_duration > 0.0 && scenario.workload != WorkloadKind::Contention {
            windows.push(("outage", scenario.outage_start, scenario.outage_duration));
        }
        if scenario.spike_duration > 0.0 && scenario.workload == WorkloadKind::Poisson {
            windows.push(("spike", scenario.spike_start, scenario.spike_duration));
        }
        for (name, start, length) in windows {
            let end = (start + length).min(horizon);
            chart.draw_series(std::iter::once(Rectangle::new(
                [(start, 0.0), (end, y_high)],
                shade.filled(),
            )))?;
            // At the bottom: the top is where cut bars carry their labels.
            chart.draw_series(std::iter::once(Text::new(
                format!(" {name}"),
                (start, 0.0),
                theme.font(12.0).pos(Pos::new(HPos::Left, VPos::Bottom)),
            )))?;
        }

        let stepped = |values: &dyn Fn(usize) -> f64| {
            let mut points = Vec::with_capacity(2 * drawn + 2);
            points.push((0.0, 0.0));
            for i in 0..drawn {
                let value = values(i).min(y_high);
                points.push((left(i), value));
                points.push((left(i + 1).min(until), value));
            }
            points.push((left(drawn).min(until), 0.0));
            points
        };
        chart.draw_series(std::iter::once(Polygon::new(
            stepped(&|i| total(run, i)),
            light(theme, colour).filled(),
        )))?;
        chart.draw_series(std::iter::once(Polygon::new(
            stepped(&|i| rate(s.first_tries[i])),
            colour.filled(),
        )))?;
        let mut outline = stepped(&|i| total(run, i));
        outline.remove(0);
        outline.pop();
        path(
            &mut chart,
            outline,
            colour.stroke_width(theme.px(1.0)),
            run.dashed(r),
            theme,
        )?;
        let mut failed = stepped(&|i| rate(s.failures(i)));
        failed.remove(0);
        failed.pop();
        dotted(
            &mut chart,
            failed,
            deep(theme, colour).stroke_width(theme.px(2.0)),
            theme,
        )?;

        if capacity_top > 0.0 {
            let points: Vec<(f64, f64)> = (0..buckets)
                .flat_map(|i| {
                    let c = series.capacity[i].min(y_high);
                    [(left(i), c), (left(i + 1), c)]
                })
                .collect();
            chart.draw_series(std::iter::once(PathElement::new(
                points,
                theme.colour(2).stroke_width(theme.px(2.0)),
            )))?;
        }
        let goodput: Vec<(f64, f64)> = (0..drawn)
            .map(|i| {
                (
                    left(i) + width / 2.0,
                    rate(s.operations_succeeded[i]).min(y_high),
                )
            })
            .collect();
        chart.draw_series(std::iter::once(PathElement::new(
            goodput,
            theme.foreground.stroke_width(theme.px(1.5)),
        )))?;

        // Marks on the data: cut bars with their true rate, the herd's
        // waves with their size, and the time never simulated.
        let plot_area = chart.plotting_area().strip_coord_spec();
        let (plot_left, _) = plot_area.get_base_pixel();
        let plot_right = plot_left + plot_area.dim_in_pixel().0 as i32;
        if clipped {
            let tip = theme.px(5.0) as i32;
            for i in (0..drawn).filter(|&i| total(run, i) > y_high) {
                let (x, top) = chart.backend_coord(&(left(i) + width / 2.0, y_high));
                area.draw(&Polygon::new(
                    vec![(x - tip, top + tip), (x + tip, top + tip), (x, top)],
                    theme.foreground.filled(),
                ))?;
            }
        }
        let mut marks: Vec<(usize, String)> = Vec::new();
        if scenario.workload == WorkloadKind::Crowd && capacity_top > 0.0 {
            for wave in waves(report).iter().filter(|w| w.peak < drawn) {
                let text = if series.capacity[wave.peak] > 0.0 {
                    format!(
                        "{} at {} s vs capacity {} at once",
                        wave.calls,
                        tick(&wave.at),
                        scenario.workers
                    )
                } else {
                    format!("{} at {} s, server down", wave.calls, tick(&wave.at))
                };
                marks.push((wave.peak, text));
            }
        }
        if clipped {
            // Each run of cut bars carries its busiest rate, joined to its
            // wave's label when it has one.
            let mut i = 0;
            while i < drawn {
                if total(run, i) <= y_high {
                    i += 1;
                    continue;
                }
                let mut busiest = i;
                while i < drawn && total(run, i) > y_high {
                    if total(run, i) > total(run, busiest) {
                        busiest = i;
                    }
                    i += 1;
                }
                let rate_text = format!("{}/s", count(total(run, busiest)));
                match marks.iter_mut().find(|(peak, _)| *peak == busiest) {
                    Some((_, text)) => *text = format!("{rate_text}: {text}"),
                    None => marks.push((busiest, rate_text)),
                }
            }
        }
        // Waves the server could have served go first: they carry the
        // lesson; those of an outage only where room is left.
        super::sort_short_by_key(&mut marks, |(peak, _)| {
            (series.capacity[*peak] <= 0.0, *peak)
        });
        // Labels go in up to three rows under the top of the plot, no
        // lower than its top third (on a short panel, one row); one that
        // fits in none is left out rather than drawn over another.
        let small = theme.font(11.0);
        let line_height = theme.px(13.0) as i32;
        let plot_height = plot_area.dim_in_pixel().1 as i32;
        let rows = (plot_height / 3 / line_height).clamp(1, 3);
        let mut taken: Vec<(i32, i32, i32)> = Vec::new();
        for (peak, text) in marks {
            let (x, top) = chart.backend_coord(&(left(peak) + width / 2.0, y_high));
            let text_width = area.estimate_text_size(&text, &small)?.0 as i32;
            let x = (x + theme.px(6.0) as i32)
                .min(plot_right - text_width - 2)
                .max(plot_left);
            let row = (0..rows).find(|row| {
                taken
                    .iter()
                    .all(|(r2, a, b)| r2 != row || x + text_width + 4 < *a || x > *b + 4)
            });
            if let Some(row) = row {
                taken.push((row, x, x + text_width));
                label(
                    area,
                    text,
                    (x, top + theme.px(10.0) as i32 + row * line_height),
                    &small,
                )?;
            }
        }
        if until < horizon {
            let in_progress = report.summary.in_progress();
            shade_unsimulated(&mut chart, (until, horizon), y_high, in_progress, theme)?;
        }
        if let Some(at) = cursor.filter(|t| (0.0..=horizon).contains(t)) {
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(at, 0.0), (at, y_high)],
                theme.foreground.stroke_width(theme.px(2.0)),
            )))?;
        }
        time_axis.left = f64::from(chart.backend_coord(&(0.0, 0.0)).0);
        time_axis.right = f64::from(chart.backend_coord(&(horizon, 0.0)).0);
    }
    Ok(time_axis)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::svg_test::*;
    use crate::sim::run;

    #[test]
    fn load_chart_stacks_tries_and_shades_the_outage() {
        let scenario = scenario();
        let report = run(&scenario);
        let runs = [single(&report, &[], None)];
        let out = svg(|area| draw_load(area, &runs, &scenario, &Theme::light(1.0)));
        assert_labels(
            &out,
            &[
                "first tries",
                "retries",
                "server capacity",
                "goodput",
                "outage",
            ],
        );
    }

    /// The replay's cursor stands at its time on the axis the outage shade
    /// fixes, and the axis it returns reads that pixel back as that time.
    #[test]
    fn the_cursor_marks_the_replays_instant_and_reads_back() {
        let scenario = scenario();
        let report = run(&scenario);
        let theme = Theme::light(1.0);
        let runs = [single(&report, &[], None)];
        let axis = std::cell::Cell::new(None);
        let out = svg(|area| {
            axis.set(Some(draw_load_at(
                area,
                &runs,
                &scenario,
                &theme,
                Some(7.0),
            )?));
            Ok(())
        });
        let shade = elements(&out, "rect")
            .into_iter()
            .find(|e| attr(e, "fill") == hex(theme.grid) && attr(e, "opacity") == "0.6")
            .expect("the outage shade");
        let per_second = number(&shade, "width") / scenario.outage_duration;
        let left = number(&shade, "x") - scenario.outage_start * per_second;
        let cursor: Vec<_> = elements(&out, "polyline")
            .iter()
            .filter(|e| {
                attr(e, "stroke") == hex(theme.foreground) && attr(e, "stroke-width") == "2"
            })
            .map(|e| points(e))
            .filter(|line| line.len() == 2 && line[0].0 == line[1].0)
            .collect();
        assert_eq!(cursor.len(), 1, "one cursor");
        near(cursor[0][0].0, left + 7.0 * per_second, "cursor");
        let axis = axis.get().expect("drawn");
        assert!((axis.time_at(cursor[0][0].0) - 7.0).abs() < 0.05);
        assert_eq!(axis.time_at(-100.0), 0.0);
    }

    /// The load chart's pixels agree with the report: the outage shade spans
    /// the outage, the capacity line sits at workers / service time (0
    /// during the outage), and the top of the stacked area at the busiest
    /// bucket is that bucket's rate of server calls; first tries are the
    /// policy's colour, retries its lighter tint.
    #[test]
    fn load_chart_puts_capacity_outage_and_peak_where_they_belong() {
        let scenario = scenario();
        let report = run(&scenario);
        let theme = Theme::light(1.0);
        let runs = [single(&report, &[], None)];
        let out = svg(|area| draw_load(area, &runs, &scenario, &theme));

        // The shade runs from the bottom of the plot to its top, from 4 s
        // to 6 s: it fixes both axes' pixels.
        let shades: Vec<_> = elements(&out, "rect")
            .into_iter()
            .filter(|e| attr(e, "fill") == hex(theme.grid) && attr(e, "opacity") == "0.6")
            .collect();
        assert_eq!(shades.len(), 1, "one outage shade");
        let shade = &shades[0];
        let (top, bottom) = (
            number(shade, "y"),
            number(shade, "y") + number(shade, "height"),
        );
        let per_second = number(shade, "width") / scenario.outage_duration;
        let left = number(shade, "x") - scenario.outage_start * per_second;
        let series = &report.series;
        let rate = |i: usize| (series.first_tries[i] + series.retries[i]) as f64 / series.width;
        let peak = (0..series.len()).map(rate).fold(0.0, f64::max);
        let capacity = f64::from(scenario.workers) / scenario.service_time;
        let (y_high, clipped) = load_axis(peak, capacity);
        assert!(!clipped, "this load stays near capacity");
        let y = |value: f64| bottom - value / y_high * (bottom - top);
        let x = |seconds: f64| left + seconds * per_second;

        let capacity_line = longest(lines_in(&out, theme.colour(2)));
        near(capacity_line[0].0, x(0.0), "capacity starts at 0 s");
        near(
            capacity_line[0].1,
            y(capacity),
            "capacity before the outage",
        );
        let during = capacity_line
            .iter()
            .find(|(px, _)| *px > x(4.5) && *px < x(5.5))
            .expect("capacity is drawn during the outage");
        near(during.1, y(0.0), "capacity during the outage");

        let colour = run_colour(&theme, 0);
        let area_of = |fill: RGBColor| -> Vec<(f64, f64)> {
            let areas: Vec<_> = elements(&out, "polygon")
                .into_iter()
                .filter(|e| attr(e, "fill") == hex(fill))
                .collect();
            assert_eq!(areas.len(), 1, "one area filled {}", hex(fill));
            points(&areas[0])
        };
        let highest = |points: &[(f64, f64)]| {
            points
                .iter()
                .map(|(_, py)| *py)
                .fold(f64::INFINITY, f64::min)
        };
        let total = area_of(light(&theme, colour));
        near(highest(&total), y(peak), "the busiest bucket's load");
        let first = area_of(colour);
        let first_peak = (0..series.len())
            .map(|i| series.first_tries[i] as f64 / series.width)
            .fold(0.0, f64::max);
        near(highest(&first), y(first_peak), "the busiest first tries");
        // Failed answers, dotted in the policy's deeper shade, reach the
        // busiest bucket of failures.
        let failed_peak = (0..series.len())
            .map(|i| series.failures(i) as f64 / series.width)
            .fold(0.0, f64::max);
        assert!(failed_peak > 0.0);
        let failed = |i: usize| series.failures(i) as f64 / series.width;
        let buckets = series.len();
        let mut checked = 0;
        for (px, py) in lines_in(&out, deep(&theme, colour)).iter().flatten() {
            if *py < top {
                continue; // the legend's sample
            }
            // A dot lies on its bucket's rate, or on the step between it
            // and a neighbour.
            let i = (((px - left) / per_second / series.width) as usize).min(buckets - 1);
            let around = [i.saturating_sub(1), i, (i + 1).min(buckets - 1)].map(failed);
            let (low, high) = (
                around.iter().copied().fold(f64::INFINITY, f64::min),
                around.iter().copied().fold(0.0, f64::max),
            );
            assert!(
                *py <= y(low) + 1.5 && *py >= y(high) - 1.5,
                "a failed-answers dot at ({px}, {py}) is off its buckets' rates {around:?}"
            );
            checked += 1;
        }
        assert!(checked > 100, "the failed answers are drawn");
    }

    fn herd() -> (Scenario, Report, Report) {
        let (config, _) = crate::config::Config::from_link(
            "v=1&compare=on&attempts=8&base=0.2&cap=10&jitter=none&timeout=0&workload=crowd\
             &clients=2000&horizon=30&buckets=300&failure=0&outage_at=0&outage_for=5&workers=100\
             &queue=200&B.jitter=full",
        );
        let (a, b) = crate::simulate::run_both(&config);
        (config.scenario(), a, b.expect("comparing"))
    }

    /// The herd's load axis stops at three times capacity plus room: the
    /// capacity line sits at a third of it, cut bars stop at the plot's
    /// top under a marker, and each wave after the outage is labelled
    /// with its calls against the server's workers and the cut bar's
    /// true rate. Colour means the policy in each panel.
    /// A and B as compare mode draws them.
    fn compared<'a>(a: &'a Report, b: &'a Report) -> [Plotted<'a>; 2] {
        [("A", a), ("B", b)].map(|(name, report)| Plotted {
            name,
            report,
            bounds: &[],
            deadline: None,
        })
    }

    #[test]
    fn herd_load_is_clipped_marked_and_labelled() {
        let (scenario, a, b) = herd();
        let theme = Theme::light(1.0);
        let runs = compared(&a, &b);
        let out = svg(|area| draw_load(area, &runs, &scenario, &theme));
        let mut shades: Vec<_> = elements(&out, "rect")
            .into_iter()
            .filter(|e| attr(e, "fill") == hex(theme.grid) && attr(e, "opacity") == "0.6")
            .collect();
        assert_eq!(shades.len(), 2, "an outage shade per panel");
        shades.sort_by(|p, q| number(p, "y").total_cmp(&number(q, "y")));
        let shade = &shades[0];
        let (top, bottom) = (
            number(shade, "y"),
            number(shade, "y") + number(shade, "height"),
        );
        let capacity = 2000.0;
        let y_high = 3.0 * capacity * 1.12;
        let y = |value: f64| bottom - value / y_high * (bottom - top);

        let capacity_line = lines_in(&out, theme.colour(2))
            .into_iter()
            .filter(|line| line.len() > 2)
            .min_by(|p, q| p[0].1.total_cmp(&q[0].1))
            .expect("A's capacity line");
        // The capacity line spans the horizon: a finer x scale than the
        // outage's five seconds.
        let (start, end) = (capacity_line[0].0, capacity_line[capacity_line.len() - 1].0);
        let x = |seconds: f64| start + seconds / 30.0 * (end - start);
        let after = capacity_line
            .iter()
            .find(|(px, _)| *px > x(10.0))
            .expect("capacity after the outage");
        near(after.1, y(capacity), "capacity at a third of the axis");

        let series = &a.series;
        let rate = |i: usize| (series.first_tries[i] + series.retries[i]) as f64 / series.width;
        let cut: Vec<usize> = (0..series.len()).filter(|&i| rate(i) > y_high).collect();
        assert!(cut.len() >= 5, "A's waves are far above the axis");
        let total = elements(&out, "polygon")
            .into_iter()
            .find(|e| attr(e, "fill") == hex(light(&theme, run_colour(&theme, 0))))
            .expect("A's load");
        let highest = points(&total)
            .iter()
            .map(|(_, py)| *py)
            .fold(f64::INFINITY, f64::min);
        near(highest, top, "a cut bar stops at the plot's top");
        let markers: Vec<(f64, f64)> = elements(&out, "polygon")
            .into_iter()
            .filter(|e| attr(e, "fill") == hex(theme.foreground))
            .map(|e| {
                points(&e)
                    .into_iter()
                    .min_by(|p, q| p.1.total_cmp(&q.1))
                    .expect("a triangle's tip")
            })
            .filter(|(_, py)| *py < bottom)
            .collect();
        assert_eq!(markers.len(), cut.len(), "one marker per cut bar of A");
        for (&i, tip) in cut.iter().zip(&markers) {
            near(
                tip.0,
                x((i as f64 + 0.5) * series.width),
                "marker over its bar",
            );
            near(tip.1, top, "marker at the top");
        }
        // The first wave after the outage: its calls, its time, its rate.
        let busiest = (50..100)
            .max_by(|p, q| rate(*p).total_cmp(&rate(*q)))
            .expect("buckets after the outage");
        let calls = series.first_tries[busiest] + series.retries[busiest];
        let wave = format!(
            "{}k/s: {calls} at {} s vs capacity 100 at once",
            (rate(busiest) / 100.0).round() / 10.0,
            tick(&(busiest as f64 * series.width))
        );
        assert!(out.contains(&wave), "{wave} missing");
        assert!(
            !out.contains(&hex(theme.colour(1))),
            "no orange: colour is the policy"
        );
    }

    /// The waves' labels of a drawing, with the height they sit at.
    fn wave_labels(out: &str) -> Vec<(f64, String)> {
        out.split("<text")
            .skip(1)
            .filter_map(|text| {
                let y = text.split("y=\"").nth(1)?.split('"').next()?.parse().ok()?;
                let words = text.split('>').nth(1)?.split("</text").next()?;
                (words.contains("capacity 100 at once") || words.contains("server down"))
                    .then(|| (y, words.to_string()))
            })
            .collect()
    }

    /// Two policies on a phone: each panel is short, so its axis says
    /// "requests/s" and its waves' labels keep to one row (at 800x400 they
    /// take more), the waves the server could have served first.
    #[test]
    fn a_short_panel_keeps_its_wave_labels_to_one_row() {
        let (scenario, a, b) = herd();
        let theme = Theme::light(1.0);
        let runs = compared(&a, &b);
        let tall = svg(|area| draw_load(area, &runs, &scenario, &theme));
        let rows = |labels: &[(f64, String)]| {
            let mut heights: Vec<i64> = labels.iter().map(|(y, _)| *y as i64).collect();
            heights.sort_unstable();
            heights.dedup();
            heights.len()
        };
        assert!(
            rows(&wave_labels(&tall)) > 2,
            "two panels of labels, more than a row each"
        );
        assert!(tall.contains("requests per second"));

        let mut short = String::new();
        {
            let area = SVGBackend::with_string(&mut short, (360, 300)).into_drawing_area();
            draw_load(&area, &runs, &scenario, &theme).expect("drawing to a string");
        }
        assert!(short.contains("requests/s") && !short.contains("requests per second"));
        let labels = wave_labels(&short);
        assert_eq!(
            rows(&labels),
            2,
            "one row in each of the two panels: {labels:?}"
        );
        assert!(
            labels[0].1.contains("at 6.2 s vs capacity"),
            "the first wave after the outage comes first: {labels:?}"
        );
    }

    /// The pixel of an instant in a load chart of `horizon` seconds: the
    /// capacity line spans the horizon.
    fn time_scale(out: &str, theme: &Theme, horizon: f64) -> impl Fn(f64) -> f64 {
        let line = longest(lines_in(out, theme.colour(2)));
        let (left, right) = (line[0].0, line[line.len() - 1].0);
        move |seconds| left + seconds / horizon * (right - left)
    }

    /// The shade over the time not simulated, if the chart has one.
    fn unsimulated_shade<'a>(out: &'a str, theme: &Theme) -> Option<Vec<(&'a str, &'a str)>> {
        elements(out, "rect")
            .into_iter()
            .find(|e| attr(e, "fill") == hex(theme.foreground) && attr(e, "opacity") == "0.18")
    }

    /// A run cut by the work limit: its load stops where the run stopped
    /// and the rest of the horizon is shaded and labelled "not simulated",
    /// not drawn as load falling to zero.
    #[test]
    fn a_cut_run_is_shaded_not_simulated() {
        let scenario = Scenario {
            horizon: 60.0,
            buckets: 60,
            rate: 400.0,
            failure: 0.5,
            work_limit: 8_000,
            ..Scenario::default()
        };
        let report = run(&scenario);
        assert!(report.summary.truncated);
        let until = report.summary.simulated_until;
        let theme = Theme::light(1.0);
        let runs = [single(&report, &[], None)];
        let out = svg(|area| draw_load(area, &runs, &scenario, &theme));
        assert!(out.contains("not simulated (work limit)"));
        let x = time_scale(&out, &theme, scenario.horizon);
        let cut = unsimulated_shade(&out, &theme).expect("the shade of what was not simulated");
        near(
            number(&cut, "x"),
            x(until),
            "the shade starts where the run stopped",
        );
        near(
            number(&cut, "x") + number(&cut, "width"),
            x(scenario.horizon),
            "the shade runs to the horizon",
        );
        let load = elements(&out, "polygon")
            .into_iter()
            .find(|e| attr(e, "fill") == hex(light(&theme, run_colour(&theme, 0))))
            .expect("the load");
        let furthest = points(&load).iter().map(|(px, _)| *px).fold(0.0, f64::max);
        near(furthest, x(until), "the load ends where the run stopped");
    }

    /// A run still going, drawn as far as it got: the rest of the horizon
    /// is shaded as for a cut run, and labelled as still simulating.
    #[test]
    fn a_run_still_going_is_shaded_still_simulating() {
        let scenario = Scenario {
            horizon: 60.0,
            buckets: 60,
            rate: 400.0,
            failure: 0.5,
            ..Scenario::default()
        };
        let mut going = crate::sim::Run::new(&scenario);
        assert!(!going.advance(20_000));
        let report = going.so_far();
        let until = report.summary.simulated_until;
        assert!(until > 5.0 && until < 55.0, "{until}");
        let theme = Theme::light(1.0);
        let runs = [single(&report, &[], None)];
        let out = svg(|area| draw_load(area, &runs, &scenario, &theme));
        assert!(out.contains("still simulating"));
        assert!(!out.contains("work limit"));
        let x = time_scale(&out, &theme, scenario.horizon);
        let shade =
            unsimulated_shade(&out, &theme).expect("the shade of what is not simulated yet");
        near(
            number(&shade, "x"),
            x(until),
            "the shade starts where the run is",
        );
        // Finished, the same run is drawn whole.
        let report = going.finish();
        let runs = [single(&report, &[], None)];
        let out = svg(|area| draw_load(area, &runs, &scenario, &theme));
        assert!(!out.contains("still simulating"));
        assert!(!out.contains("not simulated"));
    }
}
