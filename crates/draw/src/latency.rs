//! The latency chart: each policy's operations as a cumulative step curve,
//! its percentiles and the deadline, over all of them and over their
//! slowest tenth, where a tail shows.

use plotters::coord::Shift;
use plotters::prelude::*;
use retry_core::tf;
use retry_core::words::tr;

use retry_sim::sim::{LatencyHistogram, Law, Scenario, ServiceShape};

use super::{
    Axes, Before, DrawResult, Entry, Frame, Plotted, Sample, Theme, along_axis, axes, blend,
    dotted, ghost, header, kept_top, message, path, run_colour,
};

/// The cumulative distribution of finished operations as steps: flat
/// between observed values, a vertical jump at each. A bin's operations
/// jump at the value [`LatencyHistogram::quantile`] reports for them (the
/// bin's middle, kept within the observed minimum and maximum), so every
/// percentile the report prints lies on a jump that spans its share.
/// `only` keeps the part of each bin that `keep` says, as a share of all
/// finished operations: with the failed operations' histogram, what
/// remains is the successful ones.
fn cdf_steps(latency: &LatencyHistogram, keep: impl Fn(usize, u64) -> u64) -> Vec<(f64, f64)> {
    let total = latency.total.max(1) as f64;
    let mut points = vec![(0.0, 0.0)];
    let mut seen = 0;
    for (i, count) in latency.counts.iter().enumerate() {
        let kept = keep(i, *count);
        if kept == 0 {
            continue;
        }
        let (low, high) = LatencyHistogram::bin_range(i);
        let x = ((low + high) / 2.0).clamp(latency.min, latency.max);
        let before = 100.0 * seen as f64 / total;
        seen += kept;
        points.push((x, before));
        points.push((x, 100.0 * seen as f64 / total));
    }
    points
}

/// How much of a policy's colour shades its successes: light enough for
/// A's and B's to show through each other.
const SHADE: f64 = 0.22;

/// Where the tail panel's share axis starts: the slowest tenth.
const TAIL: f64 = 90.0;

/// The points of a rising curve from where it reaches `floor` on, the
/// first at the floor: what of it a panel starting there shows.
fn from_floor(points: Vec<(f64, f64)>, floor: f64) -> Vec<(f64, f64)> {
    let Some(last_below) = points.iter().rposition(|p| p.1 < floor) else {
        return points;
    };
    let mut kept = points[last_below..].to_vec();
    kept[0].1 = floor;
    kept
}

/// What each panel of the latency chart draws.
struct Panel<'a> {
    runs: &'a [Plotted<'a>],
    before: &'a [Plotted<'a>],
    x_high: f64,
    deadlines: &'a [f64],
    /// The service's own p50 and p99, where the world sets them.
    service: &'a [(f64, f64)],
}

impl Panel<'_> {
    /// The curves on shares from `floor` to 100 %, the percentiles that
    /// fall there and the deadlines; `x_axis` for the panel whose time
    /// axis is written.
    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        theme: &Theme,
        floor: f64,
        words: &[&str],
        x_axis: bool,
    ) -> DrawResult
    where
        DB::ErrorType: 'static,
    {
        let y_label = along_axis(area, theme, words)?;
        let mut chart = axes(
            area,
            theme,
            0.0..self.x_high,
            floor..100.0,
            Frame {
                x_axis,
                ..Frame::new(tr("operation latency (s)"), y_label)
            },
        )?;
        for (r, was) in self.before.iter().enumerate() {
            if was.report.latency.total > 0 {
                path(
                    &mut chart,
                    from_floor(cdf_steps(&was.report.latency, |_, count| count), floor),
                    ghost(theme).stroke_width(theme.px(1.5)),
                    r == 1,
                    theme,
                )?;
            }
        }
        for (r, run) in self.runs.iter().enumerate() {
            let latency = &run.report.latency;
            if latency.total == 0 {
                continue;
            }
            let colour = run_colour(theme, r);
            let failed = &run.report.latency_failed;
            let succeeded = cdf_steps(latency, |i, count| {
                count - failed.counts.get(i).copied().unwrap_or(0)
            });
            let top = succeeded.last().map_or(0.0, |p| p.1);
            if top > floor {
                let mut shade = from_floor(succeeded, floor);
                shade.push((self.x_high, top));
                shade.push((self.x_high, floor));
                chart.draw_series(std::iter::once(Polygon::new(shade, colour.mix(SHADE))))?;
            }
            path(
                &mut chart,
                from_floor(cdf_steps(latency, |_, count| count), floor),
                colour.stroke_width(theme.px(2.0)),
                run.dashed(r),
                theme,
            )?;
            for q in [0.5, 0.99].into_iter().filter(|q| 100.0 * q >= floor) {
                let filled = q == 0.5;
                let x = latency.quantile(q);
                let style = if filled {
                    colour.filled()
                } else {
                    colour.stroke_width(theme.px(2.0))
                };
                chart.draw_series(std::iter::once(Circle::new(
                    (x, 100.0 * q),
                    theme.px(5.0),
                    style,
                )))?;
            }
        }
        for &(seconds, share) in self.service.iter().filter(|(_, share)| *share >= floor) {
            chart.draw_series(std::iter::once(Cross::new(
                (seconds, share),
                theme.px(5.0),
                theme.foreground.stroke_width(theme.px(2.0)),
            )))?;
        }
        for &deadline in self.deadlines {
            dotted(
                &mut chart,
                vec![(deadline, floor), (deadline, 100.0)],
                theme.foreground.stroke_width(theme.px(2.0)),
                theme,
            )?;
        }
        Ok(())
    }
}

/// The distribution of operation latency as a cumulative step curve per
/// policy (B dashed), the share that succeeded shaded beneath it (the gap
/// between shade and line failed), p50 (filled dot) and p99 (ring) on the
/// curve in the policy's colour, and the deadline as a dotted line. Where
/// the world gives its service a tail (a log-normal from its p50 and p99,
/// or a slow mode), a cross marks the service's own p50 and p99 on their
/// shares: the figures set, beside the operations' simulated ones.
pub fn draw_latency<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    runs: &[Plotted],
    scenario: &Scenario,
    theme: &Theme,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    draw_latency_after(area, runs, scenario, theme, Before::default()).map(|_| ())
}

/// The service's own p50 and p99 (seconds, share in %), where the world
/// sets its service by its tail.
fn service_marks(scenario: &Scenario) -> Vec<(f64, f64)> {
    match scenario.service {
        ServiceShape::LogNormal | ServiceShape::Mixture => {
            let law = Law::service(&scenario.sanitized());
            [0.5, 0.99].map(|q| (law.quantile(q), 100.0 * q)).to_vec()
        }
        _ => Vec::new(),
    }
}

/// [`draw_latency`] after a change: the curves before it ghost, the
/// latency axis kept while the new operations fit on it. Returns the
/// axes drawn (the latency axis' end).
pub fn draw_latency_after<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    runs: &[Plotted],
    scenario: &Scenario,
    theme: &Theme,
    before: Before,
) -> Result<Axes, Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    if runs.iter().all(|run| run.report.latency.total == 0) {
        message(
            area,
            theme,
            tr("No operation finished: no latency to show."),
        )?;
        return Ok(Axes::default());
    }
    let service = service_marks(scenario);
    let needed = runs
        .iter()
        .chain(before.runs)
        .map(|run| run.deadline.unwrap_or(0.0).max(run.report.latency.max))
        .chain(service.iter().map(|(seconds, _)| *seconds))
        .fold(1e-3, f64::max);
    let x_high = kept_top(before.axes, 0, needed, needed * 1.04);
    let mut entries = Vec::new();
    for (r, run) in runs.iter().enumerate() {
        let latency = &run.report.latency;
        if latency.total == 0 {
            continue;
        }
        let colour = run_colour(theme, r);
        let failed = &run.report.latency_failed;
        let success = 100.0 * (latency.total - failed.total) as f64 / latency.total as f64;
        entries.push(Entry::line(
            format!("{}{}", run.prefix(), tr("finished")),
            colour,
            run.dashed(r),
        ));
        // The shade as it shows over the background: the swatch is the fill.
        entries.push(Entry::area(
            format!(
                "{}{}",
                run.prefix(),
                tf!("succeeded ({share} %)", share = format!("{success:.0}"))
            ),
            blend(theme.background, colour, SHADE),
        ));
        for (name, q, sample) in [("p50", 0.5, Sample::Dot), ("p99", 0.99, Sample::Ring)] {
            let text = format!(
                "{}{name} {}",
                run.prefix(),
                tf!("{t} s", t = format!("{:.3}", latency.quantile(q)))
            );
            entries.push(Entry::new(text, colour, sample));
        }
    }
    for (name, (seconds, _)) in ["p50", "p99"].into_iter().zip(&service) {
        let text = tf!(
            "service alone, {name} {t} s",
            name = name,
            t = format!("{seconds:.3}")
        );
        entries.push(Entry::new(text, theme.foreground, Sample::Cross));
    }
    let mut deadlines: Vec<f64> = runs.iter().filter_map(|run| run.deadline).collect();
    deadlines.dedup();
    for deadline in &deadlines {
        let text = tf!("deadline {deadline} s", deadline = deadline);
        entries.push(Entry::new(text, theme.foreground, Sample::Dotted));
    }
    if !before.runs.is_empty() {
        let b = (before.runs.len() > 1).then(|| ghost(theme));
        entries.push(Entry::line(tr("before the change"), ghost(theme), false).and(b));
    }
    area.fill(&theme.background)?;
    let plot = header(area, &entries, theme)?;
    // The whole distribution, and beside it (under it on a phone) its
    // slowest tenth, where a tail that a change cuts or grows shows. The
    // wider share goes to the tail where the policies differ only there.
    let (width, height) = plot.dim_in_pixel();
    let stacked = width < theme.px(560.0);
    let tail_wide = differ_in_the_tail(runs);
    let (whole, tail) = if stacked {
        // On a phone both plots equally tall: the narrow width is what
        // is short, not the height.
        plot.split_vertically(super::even_split(height, 1, 2, theme))
    } else {
        plot.split_horizontally(width * if tail_wide { 2 } else { 3 } / 5)
    };
    let panel = Panel {
        runs,
        before: before.runs,
        x_high,
        deadlines: &deadlines,
        service: &service,
    };
    let words = [
        tr("operations finished within (%)"),
        tr("finished within (%)"),
        tr("finished (%)"),
    ];
    panel.draw(&whole, theme, 0.0, &words, !stacked)?;
    let words = [
        tr("the slowest tenth: finished within (%)"),
        tr("slowest tenth (%)"),
        tr("tail (%)"),
    ];
    panel.draw(&tail, theme, TAIL, &words, true)?;
    Ok(Axes {
        tops: [x_high, 0.0],
        floor: 0.0,
    })
}

/// Whether two policies' operations take about as long at the median
/// (within a tenth) but not at the 99th percentile (a tenth or more
/// apart): their difference is all in the tail.
pub(super) fn differ_in_the_tail(runs: &[Plotted]) -> bool {
    let [a, b] = runs else { return false };
    let (a, b) = (&a.report.latency, &b.report.latency);
    if a.total == 0 || b.total == 0 {
        return false;
    }
    let apart = |x: f64, y: f64| (x - y).abs() >= 0.1 * x.max(y);
    !apart(a.quantile(0.5), b.quantile(0.5)) && apart(a.quantile(0.99), b.quantile(0.99))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svg_test::*;
    use retry_core::policy::Policy;
    use retry_sim::sim::{Scenario, run};

    #[test]
    fn latency_chart_marks_percentiles_and_deadline() {
        let scenario = Scenario {
            policy: Policy {
                deadline: Some(1.5),
                ..scenario().policy
            },
            ..scenario()
        };
        let report = run(&scenario);
        let runs = [single(&report, &[], Some(1.5))];
        let out = svg(|area| draw_latency(area, &runs, &scenario, &Theme::dark(2.0)));
        assert_labels(&out, &["p50", "p99", "deadline 1.5 s"]);
    }

    /// Where the deadline's dotted line stands: dashes inside the plot,
    /// unlike the axis' ticks, which hang below it.
    fn deadline_x(out: &str, theme: &Theme, mesh: &Mesh) -> f64 {
        let left = mesh.vertical[0];
        lines_in(out, theme.foreground)
            .into_iter()
            .find(|line| {
                line.len() == 2
                    && line[0].0 == line[1].0
                    && line[0].0 > left + 2.0
                    && line[0].1.max(line[1].1) < mesh.bottom - 1.0
            })
            .expect("the deadline's dots")[0]
            .0
    }

    fn deadline_scenario(deadline: f64) -> Scenario {
        Scenario {
            policy: Policy {
                deadline: Some(deadline),
                ..scenario().policy
            },
            ..scenario()
        }
    }

    /// The latency chart is an empirical CDF: only horizontal and vertical
    /// strokes, from (0 s, 0 %) to (the slowest, 100 %); the p50 dot and
    /// the p99 ring sit on the jumps that span 50 % and 99 %, at the
    /// latencies the report prints; the deadline stands at the deadline.
    #[test]
    fn latency_steps_pass_through_their_percentiles() {
        let deadline = 1.5;
        let report = run(&deadline_scenario(deadline));
        let theme = Theme::light(1.0);
        let runs = [single(&report, &[], Some(deadline))];
        let out = svg(|area| draw_latency(area, &runs, &deadline_scenario(deadline), &theme));
        let mesh = mesh(&out, &theme, 20.0..400.0);
        let (left, top, bottom) = (mesh.vertical[0], mesh.top, mesh.bottom);
        let deadline_x = deadline_x(&out, &theme, &mesh);
        let per_second = (deadline_x - left) / deadline;
        let x = |seconds: f64| left + seconds * per_second;
        let y = |percent: f64| bottom - percent / 100.0 * (bottom - top);

        let colour = run_colour(&theme, 0);
        let curve = longest(lines_in(&out, colour));
        for step in curve.windows(2) {
            assert!(
                step[0].0 == step[1].0 || step[0].1 == step[1].1,
                "a CDF rises in steps, never on a slope: {step:?}"
            );
        }
        near(curve[0].0, x(0.0), "the curve starts at 0 s");
        near(curve[0].1, y(0.0), "the curve starts at 0 %");
        let end = curve[curve.len() - 1];
        near(
            end.0,
            x(report.latency.max),
            "the curve ends at the slowest",
        );
        near(end.1, y(100.0), "the curve ends at 100 %");
        let circles = elements(&out, "circle");
        for (q, filled) in [(0.5, true), (0.99, false)] {
            let value = report.latency.quantile(q);
            let marker = circles
                .iter()
                .find(|e| {
                    attr(e, "r") == "5"
                        && if filled {
                            attr(e, "fill") == hex(colour)
                        } else {
                            attr(e, "stroke") == hex(colour) && attr(e, "fill") == "none"
                        }
                })
                .expect("a percentile marker in the policy's colour");
            near(number(marker, "cx"), x(value), "the marker's latency");
            near(number(marker, "cy"), y(100.0 * q), "the marker's share");
            let share = y(100.0 * q);
            assert!(
                curve.windows(2).any(|step| {
                    step[0].0 == step[1].0
                        && (step[0].0 - x(value)).abs() <= 1.5
                        && step[0].1.max(step[1].1) >= share - 1.0
                        && step[0].1.min(step[1].1) <= share + 1.0
                }),
                "no step of the curve spans {}% at {value} s",
                100.0 * q
            );
        }
    }

    /// A log-normal service set by its p50 and p99: a cross on each share
    /// at the figure set, written in the legend; other shapes have none.
    #[test]
    fn a_service_set_by_its_tail_is_marked_where_it_was_set() {
        let deadline = 1.5;
        let lognormal = Scenario {
            service: retry_sim::sim::ServiceShape::LogNormal,
            service_p50: 0.2,
            service_p99: 0.6,
            ..deadline_scenario(deadline)
        };
        let report = run(&lognormal);
        let theme = Theme::light(1.0);
        let runs = [single(&report, &[], Some(deadline))];
        let out = svg(|area| draw_latency(area, &runs, &lognormal, &theme));
        assert_labels(
            &out,
            &["service alone, p50 0.200 s", "service alone, p99 0.600 s"],
        );
        // The whole panel is the first mesh; the tail panel's is the second.
        let mesh = mesh(&out, &theme, 20.0..400.0);
        let (left, top, bottom) = (mesh.vertical[0], mesh.top, mesh.bottom);
        let per_second = (deadline_x(&out, &theme, &mesh) - left) / deadline;
        // A cross is two slanted strokes; the axes and grid have none.
        let crosses: Vec<(f64, f64)> = elements(&out, "line")
            .iter()
            .filter(|e| attr(e, "stroke") == hex(theme.foreground))
            .map(|e| ["x1", "y1", "x2", "y2"].map(|a| number(e, a)))
            .filter(|[x1, y1, x2, y2]| x1 != x2 && y1 != y2)
            .map(|[x1, y1, x2, y2]| ((x1 + x2) / 2.0, (y1 + y2) / 2.0))
            .collect();
        let at_median = (left + 0.2 * per_second, bottom - 0.5 * (bottom - top));
        assert!(
            crosses
                .iter()
                .any(|c| (c.0 - at_median.0).abs() <= 1.5 && (c.1 - at_median.1).abs() <= 1.5),
            "no cross at the p50 set, {at_median:?}: {crosses:?}"
        );
        // The p99's cross is on the tail panel, right of the median's.
        assert!(crosses.iter().any(|c| c.0 > at_median.0 + 0.3 * per_second));

        let exponential = deadline_scenario(deadline);
        let out = svg(|area| draw_latency(area, &runs, &exponential, &theme));
        assert!(!out.contains("service alone"));
    }

    /// Where every operation fails at a 2 s deadline, the curve stays at
    /// 0 % until 2 s (p50 = p99 = 2 s) and nothing is shaded as success.
    #[test]
    fn latency_of_a_deadline_world_jumps_at_the_deadline() {
        let scenario = Scenario {
            horizon: 20.0,
            rate: 20.0,
            failure: 0.0,
            outage_start: 0.0,
            outage_duration: 20.0,
            outage_mode: retry_sim::sim::OutageMode::Hang,
            policy: Policy {
                attempt_timeout: Some(2.0),
                deadline: Some(2.0),
                ..Policy::default()
            },
            ..Scenario::default()
        };
        let report = run(&scenario);
        assert!((report.latency.quantile(0.5) - 2.0).abs() < 1e-9);
        let theme = Theme::light(1.0);
        let runs = [single(&report, &[], Some(2.0))];
        let out = svg(|area| draw_latency(area, &runs, &scenario, &theme));
        let mesh = mesh(&out, &theme, 20.0..400.0);
        let deadline_x = deadline_x(&out, &theme, &mesh);
        let curve = longest(lines_in(&out, run_colour(&theme, 0)));
        for (px, py) in &curve {
            if *px < deadline_x - 1.5 {
                near(*py, mesh.bottom, "no operation finishes before 2 s");
            }
        }
        assert!(out.contains("succeeded (0 %)"), "every operation failed");
    }
}
