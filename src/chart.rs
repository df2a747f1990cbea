//! Drawing, generic over plotters' `DrawingBackend`: the page hands in a
//! canvas, the tests an SVG string, and both get the same picture.
//!
//! Colours come from the Okabe-Ito palette, which stays distinguishable for
//! the common forms of colour blindness, with a light and a dark theme.

use plotters::chart::SeriesAnno;
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::budget::BudgetKind;
use crate::contention::{ContentionGrid, VariantRuns};
use crate::policy::PauseBounds;
use crate::sim::{LatencyHistogram, PAUSE_HISTOGRAMS, Report, Scenario, WorkloadKind};
use crate::sweep::Point;

pub type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// Colours and sizes of one rendering.
#[derive(Debug, Clone, Copy)]
pub struct Theme {
    pub background: RGBColor,
    pub foreground: RGBColor,
    pub grid: RGBColor,
    pub palette: [RGBColor; 9],
    /// Device pixels per CSS pixel: fonts and lines scale by it.
    pub scale: f64,
}

const OKABE_ITO: [RGBColor; 9] = [
    RGBColor(0, 114, 178),   // blue
    RGBColor(230, 159, 0),   // orange
    RGBColor(0, 158, 115),   // bluish green
    RGBColor(204, 121, 167), // reddish purple
    RGBColor(213, 94, 0),    // vermillion
    RGBColor(86, 180, 233),  // sky blue
    RGBColor(120, 94, 240),  // violet
    RGBColor(150, 150, 150), // grey
    RGBColor(240, 228, 66),  // yellow
];

impl Theme {
    pub fn light(scale: f64) -> Self {
        Self {
            background: RGBColor(255, 255, 255),
            foreground: RGBColor(34, 34, 34),
            grid: RGBColor(228, 228, 228),
            palette: OKABE_ITO,
            scale,
        }
    }

    pub fn dark(scale: f64) -> Self {
        let mut palette = OKABE_ITO;
        palette[0] = RGBColor(64, 160, 230); // the darker blue is too dim on black
        Self {
            background: RGBColor(24, 26, 30),
            foreground: RGBColor(225, 225, 225),
            grid: RGBColor(58, 60, 66),
            palette,
            scale,
        }
    }

    fn px(&self, css_pixels: f64) -> u32 {
        (css_pixels * self.scale).round().max(1.0) as u32
    }

    fn font(&self, css_pixels: f64) -> TextStyle<'static> {
        ("sans-serif", css_pixels * self.scale)
            .into_font()
            .color(&self.foreground)
    }

    pub fn colour(&self, index: usize) -> RGBColor {
        self.palette[index % self.palette.len()]
    }
}

/// An axis number as a person writes it: `20k`, `0.25`, `3`.
fn tick(value: &f64) -> String {
    let size = value.abs();
    // Three decimals, more for small values so 0.00025 is not 0.
    let decimals = if size > 0.0 && size < 0.01 {
        (2.0 - size.log10().floor()) as usize
    } else {
        3
    };
    let trim = |x: f64| {
        let text = format!("{x:.decimals$}");
        let text = text.trim_end_matches('0').trim_end_matches('.');
        if text == "-0" {
            "0".to_string()
        } else {
            text.to_string()
        }
    };
    if size >= 1e6 {
        format!("{}M", trim(value / 1e6))
    } else if size >= 1e4 {
        format!("{}k", trim(value / 1e3))
    } else {
        trim(*value)
    }
}

/// Frame, axes and labels shared by every chart.
fn axes<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    theme: &Theme,
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
    x_label: &str,
    y_label: &str,
) -> Result<
    ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    Box<dyn std::error::Error>,
>
where
    DB::ErrorType: 'static,
{
    area.fill(&theme.background)?;
    let mut chart = ChartBuilder::on(area)
        .margin(theme.px(12.0))
        .x_label_area_size(theme.px(40.0))
        .y_label_area_size(theme.px(56.0))
        .build_cartesian_2d(x, y)?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .x_labels(8)
        .y_labels(6)
        .x_label_formatter(&tick)
        .y_label_formatter(&tick)
        .axis_desc_style(theme.font(13.0))
        .label_style(theme.font(12.0))
        .axis_style(theme.foreground)
        .bold_line_style(theme.grid)
        .light_line_style(theme.background)
        .draw()?;
    Ok(chart)
}

/// One policy's run, as the charts draw it. In compare mode there are two:
/// A solid, B dashed, each in its own colour.
#[derive(Debug, Clone, Copy)]
pub struct Run<'a> {
    /// "A" or "B" in compare mode, empty otherwise.
    pub name: &'a str,
    pub report: &'a Report,
    /// Analytic bounds of each retry's pause under this run's policy.
    pub bounds: &'a [PauseBounds],
    pub deadline: Option<f64>,
}

type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

impl Run<'_> {
    fn dashed(&self, index: usize) -> bool {
        index == 1
    }

    /// "A: " in compare mode, nothing otherwise.
    fn prefix(&self) -> String {
        if self.name.is_empty() {
            String::new()
        } else {
            format!("{}: ", self.name)
        }
    }
}

/// The colour of policy `index`: blue for A (also when it runs alone),
/// vermillion for B. Every chart keeps this meaning; what kind of thing a
/// mark counts (first try, retry, failure) shows in its fill or pattern.
pub fn run_colour(theme: &Theme, index: usize) -> RGBColor {
    theme.colour(if index == 0 { 0 } else { 4 })
}

/// `colour` mixed into `base`: `share` 0 is `base`, 1 is `colour`. An
/// opaque tint, so an area's kind shows in its lightness, not in a second
/// hue.
fn blend(base: RGBColor, colour: RGBColor, share: f64) -> RGBColor {
    let mix = |b: u8, c: u8| (f64::from(b) + (f64::from(c) - f64::from(b)) * share).round() as u8;
    RGBColor(
        mix(base.0, colour.0),
        mix(base.1, colour.1),
        mix(base.2, colour.2),
    )
}

/// The lighter fill of a policy's colour: retries, successes, ranges.
fn light(theme: &Theme, colour: RGBColor) -> RGBColor {
    blend(theme.background, colour, 0.4)
}

/// The deeper shade of a policy's colour: its failed answers.
fn deep(theme: &Theme, colour: RGBColor) -> RGBColor {
    blend(colour, theme.foreground, 0.45)
}

/// Draws a line, dashed for policy B, and returns it for labelling.
fn path<'a, 'b, DB: DrawingBackend + 'a>(
    chart: &'b mut Chart<'a, DB>,
    points: Vec<(f64, f64)>,
    style: ShapeStyle,
    dashed: bool,
    theme: &Theme,
) -> Result<&'b mut SeriesAnno<'a, DB>, Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    Ok(if dashed {
        chart.draw_series(std::iter::once(DashedPathElement::new(
            points,
            theme.px(9.0),
            theme.px(6.0),
            style,
        )))?
    } else {
        chart.draw_series(std::iter::once(PathElement::new(points, style)))?
    })
}

/// A dotted line: a kind of its own (failed answers), whatever the policy.
fn dotted<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    points: Vec<(f64, f64)>,
    style: ShapeStyle,
    theme: &Theme,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    chart.draw_series(std::iter::once(DashedPathElement::new(
        points,
        theme.px(2.0),
        theme.px(3.0),
        style,
    )))?;
    Ok(())
}

/// Text at a pixel of the backend (as `backend_coord` gives them), drawn
/// on `area`.
fn label<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: impl Into<String>,
    at: (i32, i32),
    style: &TextStyle<'static>,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let (x, y) = area.get_base_pixel();
    area.draw(&Text::new(text.into(), (at.0 - x, at.1 - y), style.clone()))?;
    Ok(())
}

/// A value as a short count: `2000`, `12.5k`.
fn count(value: f64) -> String {
    tick(&round3(value.round()))
}

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

/// The distribution of operation latency as a cumulative step curve per
/// policy (B dashed), the share that succeeded shaded beneath it (the gap
/// between shade and line failed), p50 (filled dot) and p99 (ring) on the
/// curve in the policy's colour, and the deadline as a dotted line.
pub fn draw_latency<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    runs: &[Run],
    theme: &Theme,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    if runs.iter().all(|run| run.report.latency.total == 0) {
        return message(area, theme, "No operation finished: no latency to show.");
    }
    let x_high = runs
        .iter()
        .map(|run| run.deadline.unwrap_or(0.0).max(run.report.latency.max))
        .fold(1e-3, f64::max)
        * 1.04;
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
            format!("{}finished", run.prefix()),
            colour,
            run.dashed(r),
        ));
        entries.push(Entry::area(
            format!("{}succeeded ({success:.0} %)", run.prefix()),
            light(theme, colour),
        ));
        for (name, q, sample) in [("p50", 0.5, Sample::Dot), ("p99", 0.99, Sample::Ring)] {
            entries.push(Entry {
                text: format!("{}{name} {:.3} s", run.prefix(), latency.quantile(q)),
                colour,
                sample,
            });
        }
    }
    let mut deadlines: Vec<f64> = runs.iter().filter_map(|run| run.deadline).collect();
    deadlines.dedup();
    for deadline in &deadlines {
        entries.push(Entry {
            text: format!("deadline {deadline} s"),
            colour: theme.foreground,
            sample: Sample::Dotted,
        });
    }
    area.fill(&theme.background)?;
    let plot = header(area, &entries, theme)?;
    let mut chart = axes(
        &plot,
        theme,
        0.0..x_high,
        0.0..100.0,
        "operation latency (s)",
        "operations finished within (%)",
    )?;
    for (r, run) in runs.iter().enumerate() {
        let latency = &run.report.latency;
        if latency.total == 0 {
            continue;
        }
        let colour = run_colour(theme, r);
        let failed = &run.report.latency_failed;
        let succeeded = cdf_steps(latency, |i, count| {
            count - failed.counts.get(i).copied().unwrap_or(0)
        });
        let mut shade = succeeded.clone();
        let top = shade.last().map_or(0.0, |p| p.1);
        shade.push((x_high, top));
        shade.push((x_high, 0.0));
        chart.draw_series(std::iter::once(Polygon::new(shade, colour.mix(0.22))))?;
        path(
            &mut chart,
            cdf_steps(latency, |_, count| count),
            colour.stroke_width(theme.px(2.0)),
            run.dashed(r),
            theme,
        )?;
        for q in [0.5, 0.99] {
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
    for deadline in deadlines {
        dotted(
            &mut chart,
            vec![(deadline, 0.0), (deadline, 100.0)],
            theme.foreground.stroke_width(theme.px(2.0)),
            theme,
        )?;
    }
    Ok(())
}

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
    runs: &[Run],
    scenario: &Scenario,
    theme: &Theme,
) -> DrawResult
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
    let total = |run: &Run, i: usize| {
        let s = &run.report.series;
        rate(s.first_tries[i] + s.retries[i])
    };
    let peak = runs
        .iter()
        .flat_map(|run| (0..buckets).map(move |i| total(run, i)))
        .fold(0.0, f64::max);
    let (y_high, clipped) = load_axis(peak, capacity_top);

    let panels = area.split_evenly((runs.len(), 1));
    for (r, (run, panel)) in runs.iter().zip(&panels).enumerate() {
        let colour = run_colour(theme, r);
        let report = run.report;
        let s = &report.series;
        let until = if report.summary.truncated {
            report.summary.simulated_until.clamp(0.0, horizon)
        } else {
            horizon
        };
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
        let mut chart = axes(
            &plot,
            theme,
            0.0..horizon,
            0.0..y_high,
            "time (s)",
            "requests per second",
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
        marks.sort_by_key(|(peak, _)| (series.capacity[*peak] <= 0.0, *peak));
        // Labels go in up to three rows under the top of the plot; one
        // that fits in none is left out rather than drawn over another.
        let small = theme.font(11.0);
        let line_height = theme.px(13.0) as i32;
        let mut taken: Vec<(i32, i32, i32)> = Vec::new();
        for (peak, text) in marks {
            let (x, top) = chart.backend_coord(&(left(peak) + width / 2.0, y_high));
            let text_width = area.estimate_text_size(&text, &small)?.0 as i32;
            let x = (x + theme.px(6.0) as i32)
                .min(plot_right - text_width - 2)
                .max(plot_left);
            let row = (0..3).find(|row| {
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
            chart.draw_series(std::iter::once(Rectangle::new(
                [(until, 0.0), (horizon, y_high)],
                theme.foreground.mix(0.18).filled(),
            )))?;
            chart.draw_series(std::iter::once(Text::new(
                "not simulated (work limit)".to_string(),
                (until, y_high * 0.5),
                theme.font(12.0),
            )))?;
        }
    }
    Ok(())
}

/// The pauses taken before each retry, as small multiples: one row per
/// retry number with every policy's histogram on it (A filled, B dashed
/// outline; each scaled to its own tallest bin, since the point is where
/// the pauses fall) and, in a strip of its own at the row's top, the
/// range the policy's formula allows, shaded, with its mean as a tick.
pub fn draw_pauses<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    runs: &[Run],
    theme: &Theme,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    // Rows: the retry numbers any policy took a pause for.
    let rows: Vec<u32> = {
        let mut retries: Vec<u32> = runs
            .iter()
            .flat_map(|run| run.report.pauses.iter())
            .filter(|h| h.taken > 0)
            .map(|h| h.retry)
            .collect();
        retries.sort_unstable();
        retries.dedup();
        retries
    };
    if rows.is_empty() {
        return message(area, theme, "No retry happened: no pauses to show.");
    }
    area.fill(&theme.background)?;
    // The x axis covers every pause taken and every range drawn.
    let x_high = runs
        .iter()
        .flat_map(|run| {
            run.report.pauses.iter().filter(|h| h.taken > 0).map(|h| {
                let bound = run.bounds.get(h.retry as usize).map_or(0.0, |b| b.max);
                let filled = h
                    .counts
                    .iter()
                    .rposition(|c| *c > 0)
                    .map_or(0.0, |last| (last + 1) as f64 * h.width);
                bound.max(h.max).max(filled.min(h.max.max(bound)))
            })
        })
        .fold(0.0, f64::max)
        .max(1e-6)
        * 1.04;
    let mut entries = Vec::new();
    for (r, run) in runs.iter().enumerate() {
        let colour = run_colour(theme, r);
        entries.push(Entry::line(
            format!("{}pauses taken", run.prefix()),
            colour,
            run.dashed(r),
        ));
        entries.push(Entry::area(
            format!("{}range of its formula, | mean", run.prefix()),
            light(theme, colour),
        ));
    }
    let plot = header(area, &entries, theme)?;
    let count = rows.len() as f64;
    let mut chart = ChartBuilder::on(&plot)
        .margin(theme.px(12.0))
        .x_label_area_size(theme.px(40.0))
        .y_label_area_size(theme.px(56.0))
        .build_cartesian_2d(0.0..x_high, 0.0..count)?;
    chart
        .configure_mesh()
        .x_desc("pause before the retry (s)")
        .x_labels(8)
        .x_label_formatter(&tick)
        .disable_y_mesh()
        .y_labels(0)
        .axis_desc_style(theme.font(13.0))
        .label_style(theme.font(12.0))
        .axis_style(theme.foreground)
        .bold_line_style(theme.grid)
        .light_line_style(theme.background)
        .draw()?;
    // Row `k` (from the top) spans [count - k - 1, count - k): histograms
    // in its lower part, one range strip per policy above them.
    let policies = runs.len() as f64;
    let strip = 0.26 / policies;
    let histogram_top = 0.66;
    let font = theme.font(12.0);
    for (k, retry) in rows.iter().enumerate() {
        let bottom = count - k as f64 - 1.0;
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(0.0, bottom), (x_high, bottom)],
            theme.grid.stroke_width(1),
        )))?;
        for (r, run) in runs.iter().enumerate() {
            let colour = run_colour(theme, r);
            let Some(histogram) = run
                .report
                .pauses
                .iter()
                .find(|h| h.retry == *retry && h.taken > 0)
            else {
                continue;
            };
            let tallest = histogram.counts.iter().copied().max().unwrap_or(0).max(1) as f64;
            let height = |c: u64| bottom + 0.04 + (histogram_top - 0.04) * c as f64 / tallest;
            let mut outline = vec![(0.0, bottom + 0.04)];
            for (i, c) in histogram.counts.iter().enumerate() {
                let from = i as f64 * histogram.width;
                outline.push((from, height(*c)));
                outline.push((from + histogram.width, height(*c)));
            }
            outline.push((
                histogram.counts.len() as f64 * histogram.width,
                bottom + 0.04,
            ));
            if r == 0 {
                chart.draw_series(std::iter::once(Polygon::new(
                    outline.clone(),
                    light(theme, colour).filled(),
                )))?;
            }
            path(
                &mut chart,
                outline,
                colour.stroke_width(theme.px(1.5)),
                run.dashed(r),
                theme,
            )?;
            if let Some(bounds) = run.bounds.get(*retry as usize) {
                let low = bottom + histogram_top + 0.04 + strip * (policies - 1.0 - r as f64);
                let high = low + strip * 0.8;
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(bounds.min, low), (bounds.max, high)],
                    light(theme, colour).filled(),
                )))?;
                chart.draw_series(std::iter::once(PathElement::new(
                    vec![(bounds.mean, low), (bounds.mean, high)],
                    colour.stroke_width(theme.px(2.0)),
                )))?;
            }
        }
        // The row's name in the axis' margin, at the row's middle.
        let (x, y) = chart.backend_coord(&(0.0, bottom + 0.5));
        let last = runs
            .iter()
            .flat_map(|run| run.report.pauses.last())
            .any(|h| h.retry == *retry && *retry + 1 == PAUSE_HISTOGRAMS);
        let name = if last {
            format!("retry {}+", retry + 1)
        } else {
            format!("retry {}", retry + 1)
        };
        label(
            area,
            name,
            (x - theme.px(52.0) as i32, y),
            &font.pos(Pos::new(HPos::Left, VPos::Center)),
        )?;
    }
    Ok(())
}

/// What the load does to the system, per policy over time: requests in
/// service (line; B dashed) and waiting in the queue (shaded), and, when
/// a policy's budget keeps a balance (gRPC's token bucket, the AWS SDK's
/// retry quota), that balance in a panel below, with the level under
/// which it refuses retries.
pub fn draw_mechanism<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    runs: &[Run],
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
        entries.push(Entry {
            text: format!("{} workers (served at once)", scenario.workers),
            colour: theme.colour(2),
            sample: Sample::Dotted,
        });
    }
    let plot = header(&top, &entries, theme)?;
    let mut chart = axes(
        &plot,
        theme,
        0.0..horizon,
        0.0..y_high,
        "time (s)",
        "requests (time average)",
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
        entries.push(Entry {
            text: text.to_string(),
            colour: theme.foreground,
            sample: Sample::Dotted,
        });
    }
    let plot = header(&bottom, &entries, theme)?;
    let mut chart = axes(&plot, theme, 0.0..horizon, 0.0..y_high, "time (s)", name)?;
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

/// Contention over many seeds, as small multiples: calls (left) and time
/// until the last client was done (right), one row per backoff variant,
/// a dot per seed and a bar at the mean, labelled. What holds on average
/// is what the AWS post's result is about; the dots show how far one
/// seed strays from it.
pub fn draw_contention<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    grid: &ContentionGrid,
    theme: &Theme,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    if grid.variants.is_empty() || grid.seeds.is_empty() {
        return message(area, theme, "No contention runs to show.");
    }
    area.fill(&theme.background)?;
    let title = format!(
        "{} clients, base {} s, cap {} s: {} seeds per variant (dots), mean (bar)",
        grid.clients,
        tick(&grid.base),
        tick(&grid.cap),
        grid.seeds.len()
    );
    let plot = header(
        area,
        &[Entry::dot(
            title,
            blend(theme.background, theme.foreground, 0.45),
        )],
        theme,
    )?;
    let (width, _) = plot.dim_in_pixel();
    let (left, right) = plot.split_horizontally(width / 2);
    type Values = fn(&VariantRuns) -> Vec<f64>;
    type Mean = fn(&VariantRuns) -> f64;
    let calls: Values = |v| v.calls.iter().map(|&c| c as f64).collect();
    let completion: Values = |v| v.completion.clone();
    let mean_calls: Mean = VariantRuns::mean_calls;
    let mean_completion: Mean = VariantRuns::mean_completion;
    let rows = grid.variants.len() as f64;
    let mark = run_colour(theme, 0);
    let dot = blend(theme.background, theme.foreground, 0.45);
    for (panel, x_label, values, mean) in [
        (&left, "server calls", calls, mean_calls),
        (
            &right,
            "time until the last client is done (s)",
            completion,
            mean_completion,
        ),
    ] {
        let x_high = grid
            .variants
            .iter()
            .flat_map(values)
            .fold(0.0, f64::max)
            .max(1e-3)
            * 1.08;
        let mut chart = ChartBuilder::on(panel)
            .margin(theme.px(12.0))
            .x_label_area_size(theme.px(40.0))
            .y_label_area_size(theme.px(84.0))
            .build_cartesian_2d(0.0..x_high, 0.0..rows)?;
        chart
            .configure_mesh()
            .x_desc(x_label)
            .x_labels(5)
            .x_label_formatter(&tick)
            .disable_y_mesh()
            .y_labels(0)
            .axis_desc_style(theme.font(13.0))
            .label_style(theme.font(12.0))
            .axis_style(theme.foreground)
            .bold_line_style(theme.grid)
            .light_line_style(theme.background)
            .draw()?;
        let best = grid.variants.iter().map(mean).fold(f64::INFINITY, f64::min);
        for (k, variant) in grid.variants.iter().enumerate() {
            let middle = rows - k as f64 - 0.5;
            // Seeds spread a little up and down, so equal values stay
            // countable.
            let spread = |seed: usize| middle + 0.28 * ((seed % 5) as f64 / 4.0 - 0.5);
            chart.draw_series(
                values(variant)
                    .into_iter()
                    .enumerate()
                    .map(|(seed, value)| {
                        Circle::new((value, spread(seed)), theme.px(2.5), dot.filled())
                    }),
            )?;
            let average = mean(variant);
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(average, middle - 0.3), (average, middle + 0.3)],
                mark.stroke_width(theme.px(3.0)),
            )))?;
            let (x, y) = chart.backend_coord(&(0.0, middle));
            label(
                panel,
                variant.name,
                (x - theme.px(80.0) as i32, y),
                &theme.font(12.0).pos(Pos::new(HPos::Left, VPos::Center)),
            )?;
            let (mx, my) = chart.backend_coord(&(average, middle + 0.3));
            let text = if average == best {
                format!("{} (fewest)", tick(&round3(average)))
            } else {
                tick(&round3(average))
            };
            let text = if x_label.starts_with("time") && average == best {
                format!("{} (soonest)", tick(&round3(average)))
            } else {
                text
            };
            label(
                panel,
                text,
                (mx + theme.px(4.0) as i32, my),
                &theme.font(11.0).pos(Pos::new(HPos::Left, VPos::Bottom)),
            )?;
        }
    }
    Ok(())
}

/// Three significant digits, for labels.
fn round3(value: f64) -> f64 {
    if value == 0.0 || !value.is_finite() {
        return value;
    }
    let scale = 10f64.powi(2 - value.abs().log10().floor() as i32);
    (value * scale).round() / scale
}

/// One curve of a sweep chart.
#[derive(Debug, Clone, Copy)]
pub struct Curve<'a> {
    pub name: &'a str,
    pub points: &'a [Point],
    pub colour: usize,
    pub dashed: bool,
}

/// Success (left) and load (right) against the failure rate, one curve per
/// policy. Points still being computed are simply not there yet.
pub fn draw_sweep<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    curves: &[Curve],
    points: usize,
    theme: &Theme,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    area.fill(&theme.background)?;
    let (left, right) = area.split_horizontally(area.dim_in_pixel().0 / 2);
    let top_load = curves
        .iter()
        .flat_map(|c| c.points.iter().map(|p| p.load))
        .fold(2.0, f64::max)
        * 1.08;
    type Value = fn(&Point) -> f64;
    let success: Value = |p| 100.0 * p.success;
    let load: Value = |p| p.load;
    for (panel, label, top, value) in [
        (&left, "user-visible success (%)", 105.0, success),
        (&right, "server calls per operation", top_load, load),
    ] {
        let mut chart = axes(
            panel,
            theme,
            0.0..100.0,
            0.0..top,
            "failure rate (%)",
            label,
        )?;
        let mut entries = Vec::new();
        for curve in curves {
            let colour = theme.colour(curve.colour);
            let line: Vec<(f64, f64)> = curve
                .points
                .iter()
                .map(|p| (100.0 * p.failure, value(p)))
                .collect();
            chart.draw_series(
                line.iter()
                    .map(|point| Circle::new(*point, theme.px(3.0), colour.filled())),
            )?;
            path(
                &mut chart,
                line,
                colour.stroke_width(theme.px(2.0)),
                curve.dashed,
                theme,
            )?;
            entries.push(Entry::line(curve.name, colour, curve.dashed));
        }
        let done = curves.iter().map(|c| c.points.len()).min().unwrap_or(0);
        if done < points {
            chart.draw_series(std::iter::once(Text::new(
                format!("computing {done} of {points} points"),
                (45.0, top * 0.97),
                theme.font(12.0),
            )))?;
        }
        if curves.iter().any(|c| !c.name.is_empty()) {
            legend(&chart, &entries, Corner::BottomLeft, theme)?;
        }
    }
    Ok(())
}

/// What a legend line shows before its text.
#[derive(Debug, Clone, Copy)]
enum Sample {
    Area,
    Line { dashed: bool },
    Dotted,
    Dot,
    Ring,
}

/// One line of a legend.
#[derive(Debug, Clone)]
struct Entry {
    text: String,
    colour: RGBColor,
    sample: Sample,
}

impl Entry {
    fn area(text: impl Into<String>, colour: RGBColor) -> Self {
        let text = text.into();
        Self {
            text,
            colour,
            sample: Sample::Area,
        }
    }
    fn line(text: impl Into<String>, colour: RGBColor, dashed: bool) -> Self {
        let text = text.into();
        Self {
            text,
            colour,
            sample: Sample::Line { dashed },
        }
    }
    fn dot(text: impl Into<String>, colour: RGBColor) -> Self {
        let text = text.into();
        Self {
            text,
            colour,
            sample: Sample::Dot,
        }
    }
}

/// Where a legend sits in the plotting area.
#[derive(Debug, Clone, Copy)]
enum Corner {
    BottomLeft,
}

/// Draws a legend box. Text is sized through the backend (plotters' own
/// series labels size it through the font, which on the web means a
/// forced page layout per line), and B's samples are dashed like B's lines.
fn legend<DB: DrawingBackend>(
    chart: &Chart<'_, DB>,
    entries: &[Entry],
    corner: Corner,
    theme: &Theme,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    if entries.is_empty() {
        return Ok(());
    }
    let area = chart.plotting_area().strip_coord_spec();
    let (_, height) = area.dim_in_pixel();
    let font = theme.font(12.0);
    let px = |css: f64| theme.px(css) as i32;
    let (line, sample, pad, margin) = (px(17.0), px(22.0), px(6.0), px(8.0));
    let mut text_width = 0;
    for entry in entries {
        text_width = text_width.max(area.estimate_text_size(&entry.text, &font)?.0 as i32);
    }
    let box_width = 3 * pad + sample + text_width;
    let box_height = 2 * pad + line * entries.len() as i32;
    let (left, top) = match corner {
        Corner::BottomLeft => (margin, height as i32 - margin - box_height),
    };
    let corners = [(left, top), (left + box_width, top + box_height)];
    area.draw(&Rectangle::new(
        corners,
        theme.background.mix(0.85).filled(),
    ))?;
    area.draw(&Rectangle::new(corners, theme.grid.stroke_width(1)))?;
    let text_style = font.pos(Pos::new(HPos::Left, VPos::Center));
    for (i, entry) in entries.iter().enumerate() {
        let y = top + pad + line * i as i32 + line / 2;
        let x = left + pad;
        let stroke = entry.colour.stroke_width(theme.px(2.0));
        match entry.sample {
            Sample::Area => area.draw(&Rectangle::new(
                [(x, y - line / 4), (x + sample, y + line / 4)],
                entry.colour.filled(),
            ))?,
            Sample::Line { dashed: false } => {
                area.draw(&PathElement::new(vec![(x, y), (x + sample, y)], stroke))?
            }
            Sample::Line { dashed: true } => area.draw(&DashedPathElement::new(
                vec![(x, y), (x + sample, y)],
                theme.px(6.0),
                theme.px(4.0),
                stroke,
            ))?,
            other => draw_sample(&area, other, entry.colour, (x, y), sample, theme)?,
        }
        area.draw(&Text::new(
            entry.text.clone(),
            (x + sample + pad, y),
            text_style.clone(),
        ))?;
    }
    Ok(())
}

/// A legend sample of `width` pixels whose middle left is `at`.
fn draw_sample<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    sample: Sample,
    colour: RGBColor,
    (x, y): (i32, i32),
    width: i32,
    theme: &Theme,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let stroke = colour.stroke_width(theme.px(2.0));
    let half = theme.px(4.0) as i32;
    match sample {
        Sample::Area => area.draw(&Rectangle::new(
            [(x, y - half), (x + width, y + half)],
            colour.filled(),
        ))?,
        Sample::Line { dashed: false } => {
            area.draw(&PathElement::new(vec![(x, y), (x + width, y)], stroke))?
        }
        Sample::Line { dashed: true } => area.draw(&DashedPathElement::new(
            vec![(x, y), (x + width, y)],
            theme.px(6.0),
            theme.px(4.0),
            stroke,
        ))?,
        Sample::Dotted => area.draw(&DashedPathElement::new(
            vec![(x, y), (x + width, y)],
            theme.px(2.0),
            theme.px(3.0),
            stroke,
        ))?,
        Sample::Dot => area.draw(&Circle::new(
            (x + width / 2, y),
            theme.px(4.0),
            colour.filled(),
        ))?,
        Sample::Ring => area.draw(&Circle::new((x + width / 2, y), theme.px(4.0), stroke))?,
    }
    Ok(())
}

/// Draws `entries` as a legend in rows across the top of `area`, wrapped
/// to its width, and returns the area left below for the chart: a legend
/// above the plot covers no data.
fn header<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[Entry],
    theme: &Theme,
) -> Result<DrawingArea<DB, Shift>, Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    let font = theme.font(12.0);
    let px = |css: f64| theme.px(css) as i32;
    let (line, sample, pad, indent) = (px(17.0), px(18.0), px(5.0), px(14.0));
    let (width, height) = area.dim_in_pixel();
    // Lay out first: the chart below needs the legend's height.
    let mut placed = Vec::with_capacity(entries.len());
    let (mut x, mut row) = (indent, 0);
    for entry in entries {
        let size = sample + pad + area.estimate_text_size(&entry.text, &font)?.0 as i32;
        if x > indent && x + size > width as i32 - pad {
            x = indent;
            row += 1;
        }
        placed.push((x, row));
        x += size + 3 * pad;
    }
    let used = ((row + 1) * line + pad) as u32;
    let (top, rest) = area.split_vertically(used.min(height / 2));
    let text_style = font.pos(Pos::new(HPos::Left, VPos::Center));
    for (entry, (x, row)) in entries.iter().zip(placed) {
        let y = pad + row * line + line / 2;
        draw_sample(&top, entry.sample, entry.colour, (x, y), sample, theme)?;
        top.draw(&Text::new(
            entry.text.clone(),
            (x + sample + pad, y),
            text_style.clone(),
        ))?;
    }
    Ok(rest)
}

/// A chart area that only says why it is empty.
pub fn message<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    theme: &Theme,
    text: &str,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    area.fill(&theme.background)?;
    let (_, height) = area.dim_in_pixel();
    area.draw(&Text::new(
        text.to_string(),
        (theme.px(16.0) as i32, (height / 2) as i32),
        theme.font(14.0),
    ))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Policy;
    use crate::sim::run;

    fn svg(draw: impl Fn(&DrawingArea<SVGBackend, Shift>) -> DrawResult) -> String {
        let mut out = String::new();
        {
            let area = SVGBackend::with_string(&mut out, (800, 400)).into_drawing_area();
            draw(&area).expect("drawing to a string cannot fail");
        }
        out
    }

    /// One run, outside compare mode.
    fn single<'a>(report: &'a Report, bounds: &'a [PauseBounds], deadline: Option<f64>) -> Run<'a> {
        Run {
            name: "",
            report,
            bounds,
            deadline,
        }
    }

    fn assert_labels(out: &str, labels: &[&str]) {
        for label in labels {
            assert!(out.contains(label), "{label} missing");
        }
    }

    fn hex(colour: RGBColor) -> String {
        format!("#{:02X}{:02X}{:02X}", colour.0, colour.1, colour.2)
    }

    /// The SVG elements `<tag .../>` drawn, each as its attributes.
    fn elements<'a>(svg: &'a str, tag: &str) -> Vec<Vec<(&'a str, &'a str)>> {
        let open = format!("<{tag} ");
        svg.lines()
            .filter_map(|line| line.strip_prefix(open.as_str()))
            .map(|rest| {
                rest.split('"')
                    .collect::<Vec<_>>()
                    .chunks_exact(2)
                    .map(|pair| (pair[0].trim().trim_end_matches('='), pair[1]))
                    .collect()
            })
            .collect()
    }

    fn attr<'a>(element: &[(&str, &'a str)], name: &str) -> &'a str {
        element
            .iter()
            .find(|(key, _)| *key == name)
            .map_or("", |(_, value)| value)
    }

    fn number(element: &[(&str, &str)], name: &str) -> f64 {
        attr(element, name).parse().expect("a numeric attribute")
    }

    fn points(element: &[(&str, &str)]) -> Vec<(f64, f64)> {
        attr(element, "points")
            .split_whitespace()
            .map(|pair| {
                let (x, y) = pair.split_once(',').expect("x,y");
                (x.parse().expect("pixel x"), y.parse().expect("pixel y"))
            })
            .collect()
    }

    /// Lines drawn in `colour`, as their points.
    fn lines_in(svg: &str, colour: RGBColor) -> Vec<Vec<(f64, f64)>> {
        elements(svg, "polyline")
            .iter()
            .filter(|e| attr(e, "stroke") == hex(colour))
            .map(|e| points(e))
            .collect()
    }

    /// The plotters backends round to whole pixels, at both ends of a
    /// comparison: a drawn point is within 1.5 px of where its value maps.
    fn near(pixel: f64, expected: f64, what: &str) {
        assert!(
            (pixel - expected).abs() <= 1.5,
            "{what}: drawn at {pixel} px, belongs at {expected:.1} px"
        );
    }

    fn scenario() -> Scenario {
        Scenario {
            horizon: 10.0,
            failure: 0.5,
            outage_start: 4.0,
            outage_duration: 2.0,
            ..Scenario::default()
        }
    }

    #[test]
    fn ticks_read_like_a_person_wrote_them() {
        let ticks: Vec<String> = [0.0, 0.25, 3.0, 12.5, 1500.0, 20000.0, 2.5e6, 0.00025]
            .iter()
            .map(tick)
            .collect();
        assert_eq!(
            ticks,
            ["0", "0.25", "3", "12.5", "1500", "20k", "2.5M", "0.00025"]
        );
    }

    #[test]
    fn pause_chart_names_every_retry_in_the_policys_colour() {
        let scenario = scenario();
        let report = run(&scenario);
        let bounds: Vec<PauseBounds> = (0..3).map(|r| scenario.policy.pause_bounds(r)).collect();
        let runs = [single(&report, &bounds, None)];
        let theme = Theme::light(1.0);
        let out = svg(|area| draw_pauses(area, &runs, &theme));
        assert_labels(
            &out,
            &[
                "retry 1",
                "retry 2",
                "retry 3",
                "pause before the retry (s)",
            ],
        );
        assert!(out.contains(&hex(run_colour(&theme, 0))));
        // Colour means the policy: one policy, one hue.
        for other in [theme.colour(1), theme.colour(2), run_colour(&theme, 1)] {
            assert!(!out.contains(&hex(other)), "{} drawn", hex(other));
        }
    }

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
        let out = svg(|area| draw_latency(area, &runs, &Theme::dark(2.0)));
        assert_labels(&out, &["p50", "p99", "deadline 1.5 s"]);
    }

    #[test]
    fn no_retries_says_so() {
        // No failure and no outage: nothing to retry.
        let scenario = Scenario {
            failure: 0.0,
            outage_duration: 0.0,
            ..scenario()
        };
        let report = run(&scenario);
        assert_eq!(report.summary.retries, 0);
        let runs = [single(&report, &[], None)];
        let out = svg(|area| draw_pauses(area, &runs, &Theme::light(1.0)));
        assert!(out.contains("No retry happened"));
    }

    #[test]
    fn sweep_chart_draws_both_panels_and_says_what_is_missing() {
        let points: Vec<Point> = (0..5)
            .map(|i| Point {
                failure: i as f64 / 20.0,
                success: 1.0,
                load: 1.0 + i as f64 / 10.0,
            })
            .collect();
        let curves = [
            Curve {
                name: "A",
                points: &points,
                colour: 0,
                dashed: false,
            },
            Curve {
                name: "B",
                points: &points[..3],
                colour: 4,
                dashed: true,
            },
        ];
        let out = svg(|area| draw_sweep(area, &curves, 21, &Theme::light(1.0)));
        assert_labels(
            &out,
            &[
                "user-visible success (%)",
                "server calls per operation",
                "failure rate (%)",
                "computing 3 of 21 points",
            ],
        );
    }

    #[test]
    fn compare_mode_draws_both_policies_b_dashed() {
        let a = Scenario {
            policy: Policy {
                jitter: crate::policy::Jitter::None,
                ..scenario().policy
            },
            ..scenario()
        };
        let b = scenario();
        let (report_a, report_b) = (run(&a), run(&b));
        let bounds_a: Vec<PauseBounds> = (0..3).map(|r| a.policy.pause_bounds(r)).collect();
        let bounds_b: Vec<PauseBounds> = (0..3).map(|r| b.policy.pause_bounds(r)).collect();
        let runs = [
            Run {
                name: "A",
                report: &report_a,
                bounds: &bounds_a,
                deadline: None,
            },
            Run {
                name: "B",
                report: &report_b,
                bounds: &bounds_b,
                deadline: None,
            },
        ];
        let theme = Theme::light(1.0);
        for out in [
            svg(|area| draw_load(area, &runs, &a, &theme)),
            svg(|area| draw_pauses(area, &runs, &theme)),
            svg(|area| draw_latency(area, &runs, &theme)),
        ] {
            assert!(
                out.contains("A: ") && out.contains("B: "),
                "legend lacks a policy"
            );
            assert!(out.contains(&hex(run_colour(&theme, 0))));
            assert!(out.contains(&hex(run_colour(&theme, 1))));
        }
    }

    /// The mesh: x of the vertical grid lines, y of the horizontal ones,
    /// and the plot's top and bottom as the vertical lines span them.
    struct Mesh {
        vertical: Vec<f64>,
        top: f64,
        bottom: f64,
    }

    /// The mesh lines of the plots whose top lies in `rows` (pixels).
    fn mesh(svg: &str, theme: &Theme, rows: std::ops::Range<f64>) -> Mesh {
        let mut vertical = Vec::new();
        let (mut top, mut bottom) = (f64::INFINITY, 0.0_f64);
        for e in elements(svg, "line") {
            if attr(&e, "stroke") != hex(theme.grid) {
                continue;
            }
            let (x1, y1, x2, y2) = (
                number(&e, "x1"),
                number(&e, "y1"),
                number(&e, "x2"),
                number(&e, "y2"),
            );
            if x1 == x2 && rows.contains(&y2.min(y1)) {
                vertical.push(x1);
                top = top.min(y1.min(y2));
                bottom = bottom.max(y1.max(y2));
            }
        }
        vertical.sort_by(f64::total_cmp);
        Mesh {
            vertical,
            top,
            bottom,
        }
    }

    fn longest(lines: Vec<Vec<(f64, f64)>>) -> Vec<(f64, f64)> {
        lines
            .into_iter()
            .max_by_key(|line| line.len())
            .expect("a line")
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
        let out = svg(|area| draw_latency(area, &runs, &theme));
        let mesh = mesh(&out, &theme, 20.0..400.0);
        let (left, top, bottom) = (mesh.vertical[0], mesh.top, mesh.bottom);
        let deadline_x = lines_in(&out, theme.foreground)
            .into_iter()
            // Dashes stand inside the plot; the axis' ticks hang below it.
            .find(|line| {
                line.len() == 2
                    && line[0].0 == line[1].0
                    && line[0].0 > left + 2.0
                    && line[0].1.max(line[1].1) < mesh.bottom - 1.0
            })
            .expect("the deadline's dots")[0]
            .0;
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
            outage_mode: crate::sim::OutageMode::Hang,
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
        let out = svg(|area| draw_latency(area, &runs, &theme));
        let mesh = mesh(&out, &theme, 20.0..400.0);
        let left = mesh.vertical[0];
        let deadline_x = lines_in(&out, theme.foreground)
            .into_iter()
            // Dashes stand inside the plot; the axis' ticks hang below it.
            .find(|line| {
                line.len() == 2
                    && line[0].0 == line[1].0
                    && line[0].0 > left + 2.0
                    && line[0].1.max(line[1].1) < mesh.bottom - 1.0
            })
            .expect("the deadline's dots")[0]
            .0;
        let curve = longest(lines_in(&out, run_colour(&theme, 0)));
        for (px, py) in &curve {
            if *px < deadline_x - 1.5 {
                near(*py, mesh.bottom, "no operation finishes before 2 s");
            }
        }
        assert!(out.contains("succeeded (0 %)"), "every operation failed");
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
        let (a, b) = crate::report::run_both(&config);
        (config.scenario(), a, b.expect("comparing"))
    }

    /// The herd's load axis stops at three times capacity plus room: the
    /// capacity line sits at a third of it, cut bars stop at the plot's
    /// top under a marker, and each wave after the outage is labelled
    /// with its calls against the server's workers and the cut bar's
    /// true rate. Colour means the policy in each panel.
    #[test]
    fn herd_load_is_clipped_marked_and_labelled() {
        let (scenario, a, b) = herd();
        let theme = Theme::light(1.0);
        let runs = [
            Run {
                name: "A",
                report: &a,
                bounds: &[],
                deadline: None,
            },
            Run {
                name: "B",
                report: &b,
                bounds: &[],
                deadline: None,
            },
        ];
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
        let capacity_line = longest(lines_in(&out, theme.colour(2)));
        let (left, right) = (capacity_line[0].0, capacity_line[capacity_line.len() - 1].0);
        let x = |seconds: f64| left + seconds / scenario.horizon * (right - left);
        let cut = elements(&out, "rect")
            .into_iter()
            .find(|e| attr(e, "fill") == hex(theme.foreground) && attr(e, "opacity") == "0.18")
            .expect("the shade of what was not simulated");
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

    /// The pause chart's rows: each retry on its own row, A's and B's
    /// range strips on the same row, spanning the formula's range, with
    /// the mean as a tick on the strip; the x axis ends just past the
    /// widest range.
    #[test]
    fn pause_rows_put_ranges_and_means_where_they_belong() {
        let a = Scenario {
            policy: Policy {
                jitter: crate::policy::Jitter::None,
                ..scenario().policy
            },
            ..scenario()
        };
        let b = scenario();
        let (report_a, report_b) = (run(&a), run(&b));
        let bounds_a: Vec<PauseBounds> = (0..3).map(|r| a.policy.pause_bounds(r)).collect();
        let bounds_b: Vec<PauseBounds> = (0..3).map(|r| b.policy.pause_bounds(r)).collect();
        let runs = [
            Run {
                name: "A",
                report: &report_a,
                bounds: &bounds_a,
                deadline: None,
            },
            Run {
                name: "B",
                report: &report_b,
                bounds: &bounds_b,
                deadline: None,
            },
        ];
        let theme = Theme::light(1.0);
        let out = svg(|area| draw_pauses(area, &runs, &theme));
        let mesh = mesh(&out, &theme, 20.0..400.0);
        let strips = |colour: RGBColor| -> Vec<(f64, f64, f64)> {
            let mut found: Vec<(f64, f64, f64)> = elements(&out, "rect")
                .into_iter()
                .filter(|e| attr(e, "fill") == hex(light(&theme, colour)))
                .filter(|e| number(e, "y") >= mesh.top)
                .map(|e| {
                    let x = number(&e, "x");
                    (x, x + number(&e, "width"), number(&e, "y"))
                })
                .collect();
            found.sort_by(|p, q| p.2.total_cmp(&q.2));
            found
        };
        let (strips_a, strips_b) = (strips(run_colour(&theme, 0)), strips(run_colour(&theme, 1)));
        assert_eq!(strips_a.len(), 3, "a strip per retry for A");
        assert_eq!(strips_b.len(), 3, "a strip per retry for B");
        // Rows are separated by lines across the plot: x = 0 to the end.
        let rows = lines_in(&out, theme.grid);
        let row_line = &rows[0];
        let (left, right) = (row_line[0].0, row_line[1].0);
        let x_high = bounds_b[2].max * 1.04;
        let x = |seconds: f64| left + seconds / x_high * (right - left);
        let mut row_tops: Vec<f64> = rows.iter().map(|line| line[0].1).collect();
        row_tops.sort_by(f64::total_cmp);
        row_tops.dedup();
        assert_eq!(row_tops.len(), 3, "a row per retry");
        let mean_ticks_a = lines_in(&out, run_colour(&theme, 0));
        for retry in 0..3 {
            let (sa, sb) = (strips_a[retry], strips_b[retry]);
            near(
                sb.0,
                x(bounds_b[retry].min),
                "B's range starts at its minimum",
            );
            near(
                sb.1,
                x(bounds_b[retry].max),
                "B's range ends at its maximum",
            );
            near(sa.0, x(bounds_a[retry].min), "A's range (one value)");
            // Both strips lie between this row's line and the one above.
            let bottom = row_tops[retry];
            let row_top = if retry == 0 {
                mesh.top
            } else {
                row_tops[retry - 1]
            };
            for strip in [sa, sb] {
                assert!(
                    strip.2 > row_top && strip.2 < bottom,
                    "retry {retry}'s strips in its row"
                );
            }
            let mean = x(bounds_a[retry].mean);
            assert!(
                mean_ticks_a.iter().any(|t| t.len() == 2
                    && t[0].0 == t[1].0
                    && (t[0].0 - mean).abs() <= 1.5
                    && (t[0].1.min(t[1].1) - sa.2).abs() <= 1.5),
                "A's mean tick for retry {retry} on its strip"
            );
        }
    }

    /// The mechanism chart draws the AWS SDK quota's balance at each
    /// bucket's end and the cost of one retry, on the lower panel's axes.
    #[test]
    fn mechanism_draws_the_quota_balance() {
        let (config, _) = crate::config::Config::from_link(
            "v=1&attempts=3&cap=20&budget=aws-quota&failure=0.01&outage_at=20&outage_for=20",
        );
        let report = crate::report::run(&config);
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

    /// The contention chart: one row per variant in each panel, a dot per
    /// seed and a bar at the mean; a linear axis keeps means, so the bar
    /// stands at the mean of its dots' pixels.
    #[test]
    fn contention_bars_stand_at_the_mean_of_their_dots() {
        let (config, _) = crate::config::Config::from_link(
            "v=1&attempts=50&base=0.01&cap=2&workload=contention&clients=20&horizon=10&hop=normal\
             &hop_mean=0.01",
        );
        let grid = crate::contention::contention_grid(&config, 6);
        let theme = Theme::light(1.0);
        let out = svg(|area| draw_contention(area, &grid, &theme));
        let bars: Vec<Vec<(f64, f64)>> = lines_in(&out, run_colour(&theme, 0))
            .into_iter()
            .filter(|l| l.len() == 2 && l[0].0 == l[1].0)
            .collect();
        assert_eq!(bars.len(), 10, "a mean bar per variant and panel");
        let dots: Vec<(f64, f64)> = elements(&out, "circle")
            .iter()
            .filter(|e| attr(e, "r") == "3")
            .map(|e| (number(e, "cx"), number(e, "cy")))
            .collect();
        assert_eq!(dots.len(), 2 * 5 * 6, "a dot per run and panel");
        for bar in &bars {
            let (low, high) = (bar[0].1.min(bar[1].1), bar[0].1.max(bar[1].1));
            let mine: Vec<f64> = dots
                .iter()
                .filter(|(cx, cy)| *cy > low && *cy < high && (*cx < 400.0) == (bar[0].0 < 400.0))
                .map(|(cx, _)| *cx)
                .collect();
            assert_eq!(mine.len(), 6, "six seeds on the bar's row");
            let mean = mine.iter().sum::<f64>() / 6.0;
            near(bar[0].0, mean, "the mean bar");
        }
        // Rows in the post's order, top to bottom.
        let mut left_bars: Vec<&Vec<(f64, f64)>> = bars.iter().filter(|b| b[0].0 < 400.0).collect();
        left_bars.sort_by(|p, q| p[0].1.total_cmp(&q[0].1));
        let order: Vec<f64> = left_bars.iter().map(|b| b[0].0).collect();
        let expected: Vec<f64> = grid.variants.iter().map(VariantRuns::mean_calls).collect();
        for pair in (0..5).flat_map(|i| (0..5).map(move |j| (i, j))) {
            let (i, j) = pair;
            if expected[i] + 1.0 < expected[j] {
                assert!(order[i] < order[j], "rows {i} and {j} in the grid's order");
            }
        }
    }
}
