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

use crate::policy::PauseBounds;
use crate::sim::{LatencyHistogram, PauseHistogram, Report, Scenario, WorkloadKind};
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

/// A step outline over equal bins from 0, in percent of `total`.
fn steps(counts: &[u64], width: f64, total: f64) -> Vec<(f64, f64)> {
    let mut points = vec![(0.0, 0.0)];
    for (i, count) in counts.iter().enumerate() {
        let share = 100.0 * *count as f64 / total;
        let left = i as f64 * width;
        points.push((left, share));
        points.push((left + width, share));
    }
    points.push((counts.len() as f64 * width, 0.0));
    points
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

/// The colour of run `index` in compare mode: blue for A, vermillion for B.
fn run_colour(theme: &Theme, index: usize) -> RGBColor {
    theme.colour(if index == 0 { 0 } else { 4 })
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

/// The distribution of the pauses taken before each retry, one colour per
/// retry number, with its analytic range (a bar) and mean (a dot) above.
/// In compare mode each policy is one colour, B dashed.
pub fn draw_pauses<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    runs: &[Run],
    theme: &Theme,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let compare = runs.len() > 1;
    let shown: Vec<(usize, &PauseHistogram, &PauseBounds)> = runs
        .iter()
        .enumerate()
        .flat_map(|(r, run)| {
            run.report
                .pauses
                .iter()
                .zip(run.bounds)
                .filter(|(h, _)| h.taken > 0)
                .map(move |(h, b)| (r, h, b))
        })
        .collect();
    if shown.is_empty() {
        return message(area, theme, "No retry happened: no pauses to show.");
    }
    let share = |h: &PauseHistogram, c: u64| 100.0 * c as f64 / h.taken as f64;
    let highest_bar = shown
        .iter()
        .flat_map(|(_, h, _)| h.counts.iter().map(|c| share(h, *c)))
        .fold(0.0, f64::max)
        .max(1.0);
    let x_high = shown
        .iter()
        .map(|(_, h, b)| b.max.max(h.width * h.counts.len() as f64))
        .fold(0.0, f64::max)
        .max(1e-3)
        * 1.02;
    // Room above the bars: one row per retry (and policy) for its range.
    let row = highest_bar * 0.08;
    let rows = shown.len() as f64;
    let y_top = highest_bar * 1.05 + row * (rows + 0.5);
    let mut chart = axes(
        area,
        theme,
        0.0..x_high,
        0.0..y_top,
        "pause before the retry (s)",
        "pauses of that retry (%)",
    )?;
    let mut entries = Vec::new();
    for (i, (r, histogram, bounds)) in shown.iter().enumerate() {
        let run = &runs[*r];
        let colour = if compare {
            run_colour(theme, *r)
        } else {
            theme.colour(histogram.retry as usize)
        };
        let dashed = run.dashed(*r);
        let outline = steps(&histogram.counts, histogram.width, histogram.taken as f64);
        if !compare {
            chart.draw_series(std::iter::once(Polygon::new(
                outline.clone(),
                colour.mix(0.22),
            )))?;
        }
        path(
            &mut chart,
            outline,
            colour.stroke_width(theme.px(1.5)),
            dashed,
            theme,
        )?;
        // In compare mode one legend line per policy keeps the legend short.
        if !compare {
            entries.push(Entry::area(
                format!(
                    "retry {}: {:.3}-{:.3} s, mean {:.3} (drawn {:.3})",
                    histogram.retry + 1,
                    bounds.min,
                    bounds.max,
                    bounds.mean,
                    histogram.mean
                ),
                colour,
            ));
        } else if i == 0 || shown[i - 1].0 != *r {
            entries.push(Entry::line(
                format!("{}pauses of each retry; range and mean above", run.prefix()),
                colour,
                dashed,
            ));
        }
        let y = highest_bar * 1.05 + row * (rows - i as f64);
        let tick = row * 0.3;
        let line = colour.stroke_width(theme.px(2.0));
        chart.draw_series([
            PathElement::new(vec![(bounds.min, y), (bounds.max, y)], line),
            PathElement::new(vec![(bounds.min, y - tick), (bounds.min, y + tick)], line),
            PathElement::new(vec![(bounds.max, y - tick), (bounds.max, y + tick)], line),
        ])?;
        chart.draw_series(std::iter::once(Circle::new(
            (bounds.mean, y),
            theme.px(4.0),
            colour.filled(),
        )))?;
    }
    legend(&chart, &entries, Corner::TopRight, theme)
}

/// Load over time: first tries and retries stacked, the server's capacity
/// and the goodput as lines, outage and spike windows shaded. In compare
/// mode each policy's load (first tries plus retries) and goodput are lines.
pub fn draw_load<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    runs: &[Run],
    scenario: &Scenario,
    theme: &Theme,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let series = &runs[0].report.series;
    let width = series.width.max(1e-9);
    let rate = |count: u64| count as f64 / width;
    let left = |i: usize| i as f64 * width;
    let load =
        |run: &Run, i: usize| rate(run.report.series.first_tries[i] + run.report.series.retries[i]);
    let capacity_top = series
        .capacity
        .iter()
        .filter(|c| c.is_finite())
        .fold(0.0, |a: f64, c| a.max(*c));
    let y_high = runs
        .iter()
        .flat_map(|run| (0..series.len()).map(move |i| load(run, i)))
        .fold(capacity_top, f64::max)
        .max(1.0)
        * 1.12;
    let horizon = left(series.len()).max(1e-3);
    let mut chart = axes(
        area,
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
        chart.draw_series(std::iter::once(Text::new(
            name.to_string(),
            (start, y_high * 0.97),
            theme.font(12.0),
        )))?;
    }

    let stepped = |values: &dyn Fn(usize) -> f64| {
        let mut points = Vec::with_capacity(2 * series.len() + 2);
        for i in 0..series.len() {
            points.push((left(i), values(i)));
            points.push((left(i + 1), values(i)));
        }
        points
    };
    let closed = |mut points: Vec<(f64, f64)>| {
        points.insert(0, (0.0, 0.0));
        points.push((horizon, 0.0));
        points
    };
    let mut entries = Vec::new();
    if runs.len() == 1 {
        let run = &runs[0];
        let first = theme.colour(0);
        let retry = theme.colour(1);
        chart.draw_series(std::iter::once(Polygon::new(
            closed(stepped(&|i| load(run, i))),
            retry.mix(0.75),
        )))?;
        entries.push(Entry::area("retries", retry));
        chart.draw_series(std::iter::once(Polygon::new(
            closed(stepped(&|i| rate(series.first_tries[i]))),
            first.mix(0.75),
        )))?;
        entries.push(Entry::area("first tries", first));
    } else {
        for (r, run) in runs.iter().enumerate() {
            let colour = run_colour(theme, r);
            path(
                &mut chart,
                stepped(&|i| load(run, i)),
                colour.stroke_width(theme.px(2.0)),
                run.dashed(r),
                theme,
            )?;
            entries.push(Entry::line(
                format!("{}load (first tries + retries)", run.prefix()),
                colour,
                run.dashed(r),
            ));
        }
    }

    if capacity_top > 0.0 {
        let green = theme.colour(2);
        let points: Vec<(f64, f64)> = (0..series.len())
            .flat_map(|i| {
                let c = series.capacity[i].min(y_high);
                [(left(i), c), (left(i + 1), c)]
            })
            .collect();
        chart.draw_series(std::iter::once(PathElement::new(
            points,
            green.stroke_width(theme.px(2.0)),
        )))?;
        entries.push(Entry::line("server capacity", green, false));
    }
    for (r, run) in runs.iter().enumerate() {
        let goodput = theme.foreground;
        let points: Vec<(f64, f64)> = (0..series.len())
            .map(|i| {
                (
                    left(i) + width / 2.0,
                    rate(run.report.series.operations_succeeded[i]),
                )
            })
            .collect();
        path(
            &mut chart,
            points,
            goodput.stroke_width(theme.px(if r == 0 { 2.0 } else { 1.5 })),
            run.dashed(r),
            theme,
        )?;
        entries.push(Entry::line(
            format!("{}goodput (operations succeeded)", run.prefix()),
            goodput,
            run.dashed(r),
        ));
    }
    legend(&chart, &entries, Corner::TopRight, theme)
}

/// The distribution of operation latency as a cumulative curve, with the
/// median, the 99th percentile and the deadline marked; one curve per
/// policy, B dashed.
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
    let mut chart = axes(
        area,
        theme,
        0.0..x_high,
        0.0..100.0,
        "operation latency (s)",
        "operations finished within (%)",
    )?;
    let mut entries = Vec::new();
    for (r, run) in runs.iter().enumerate() {
        let latency = &run.report.latency;
        if latency.total == 0 {
            continue;
        }
        let mut points = vec![(0.0, 0.0)];
        let mut seen = 0;
        for (i, count) in latency.counts.iter().enumerate().filter(|(_, c)| **c > 0) {
            seen += count;
            let (_, high) = LatencyHistogram::bin_range(i);
            points.push((
                high.min(latency.max),
                100.0 * seen as f64 / latency.total as f64,
            ));
        }
        let colour = run_colour(theme, r);
        path(
            &mut chart,
            points,
            colour.stroke_width(theme.px(2.0)),
            run.dashed(r),
            theme,
        )?;
        entries.push(Entry::line(
            format!("{}share of operations finished", run.prefix()),
            colour,
            run.dashed(r),
        ));
        for (name, q, index) in [("p50", 0.5, 5), ("p99", 0.99, 3)] {
            let x = latency.quantile(q);
            let marker = theme.colour(index);
            chart.draw_series(std::iter::once(Circle::new(
                (x, 100.0 * q),
                theme.px(5.0),
                marker.filled(),
            )))?;
            entries.push(Entry::dot(
                format!("{}{name} {x:.3} s", run.prefix()),
                marker,
            ));
        }
    }
    let mut deadlines: Vec<f64> = runs.iter().filter_map(|run| run.deadline).collect();
    deadlines.dedup();
    for deadline in deadlines {
        let red = theme.colour(4);
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(deadline, 0.0), (deadline, 100.0)],
            red.stroke_width(theme.px(2.0)),
        )))?;
        entries.push(Entry::line(format!("deadline {deadline} s"), red, false));
    }
    legend(&chart, &entries, Corner::BottomRight, theme)
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
    Dot,
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
    TopRight,
    BottomRight,
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
    let (width, height) = area.dim_in_pixel();
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
        Corner::TopRight => (width as i32 - margin - box_width, margin),
        Corner::BottomRight => (
            width as i32 - margin - box_width,
            height as i32 - margin - box_height,
        ),
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
            Sample::Dot => area.draw(&Circle::new(
                (x + sample / 2, y),
                theme.px(4.0),
                entry.colour.filled(),
            ))?,
        }
        area.draw(&Text::new(
            entry.text.clone(),
            (x + sample + pad, y),
            text_style.clone(),
        ))?;
    }
    Ok(())
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
    fn pause_chart_shows_every_retry_and_its_bounds() {
        let scenario = scenario();
        let report = run(&scenario);
        let bounds: Vec<PauseBounds> = (0..3).map(|r| scenario.policy.pause_bounds(r)).collect();
        let runs = [single(&report, &bounds, None)];
        let out = svg(|area| draw_pauses(area, &runs, &Theme::light(1.0)));
        assert!(
            out.contains("retry 3: 0.000-0.400 s, mean 0.200"),
            "bounds not in legend"
        );
        assert!(out.contains("pause before the retry (s)"));
        for colour in &OKABE_ITO[..3] {
            assert!(
                out.contains(&hex(*colour)),
                "colour {} missing",
                hex(*colour)
            );
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
        let scenario = Scenario {
            failure: 0.0,
            ..scenario()
        };
        let report = run(&scenario);
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

    /// The load chart's pixels agree with the report: the outage shade spans
    /// the outage, the capacity line sits at workers / service time (0
    /// during the outage), and the top of the stacked area at the busiest
    /// bucket is that bucket's rate of server calls.
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
        let y_high = peak.max(capacity) * 1.12;
        let y = |value: f64| bottom - value / y_high * (bottom - top);
        let x = |seconds: f64| left + seconds * per_second;

        let capacity_line = &lines_in(&out, theme.colour(2))[0];
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

        let stacked: Vec<_> = elements(&out, "polygon")
            .into_iter()
            .filter(|e| attr(e, "fill") == hex(theme.colour(1)))
            .collect();
        assert_eq!(stacked.len(), 1, "one area of first tries plus retries");
        let highest = points(&stacked[0])
            .iter()
            .map(|(_, py)| *py)
            .fold(f64::INFINITY, f64::min);
        near(highest, y(peak), "the busiest bucket's load");
    }

    /// The latency chart's pixels agree with the report: the cumulative
    /// curve runs from (0, 0 %) to (the slowest operation, 100 %), the p50
    /// and p99 dots sit at 50 % and 99 % above their latencies, and the
    /// deadline line stands at the deadline.
    #[test]
    fn latency_chart_puts_percentiles_and_deadline_where_they_belong() {
        let deadline = 1.5;
        let scenario = Scenario {
            policy: Policy {
                deadline: Some(deadline),
                ..scenario().policy
            },
            ..scenario()
        };
        let report = run(&scenario);
        let theme = Theme::light(1.0);
        let runs = [single(&report, &[], Some(deadline))];
        let out = svg(|area| draw_latency(area, &runs, &theme));

        let curve = &lines_in(&out, run_colour(&theme, 0))[0];
        let (left, bottom) = curve[0];
        let red = &lines_in(&out, theme.colour(4))[0];
        let (deadline_x, top) = (red[1].0, red[1].1);
        near(red[0].1, bottom, "the deadline line starts at 0 %");
        let per_second = (deadline_x - left) / deadline;
        let x = |seconds: f64| left + seconds * per_second;
        let y = |percent: f64| bottom - percent / 100.0 * (bottom - top);

        let end = curve[curve.len() - 1];
        near(
            end.0,
            x(report.latency.max),
            "the curve ends at the slowest",
        );
        near(end.1, y(100.0), "the curve ends at 100 %");
        let dots = elements(&out, "circle");
        for (q, colour) in [(0.5, theme.colour(5)), (0.99, theme.colour(3))] {
            let dot = dots
                .iter()
                .find(|e| attr(e, "fill") == hex(colour) && attr(e, "r") == "5")
                .expect("a percentile dot");
            near(
                number(dot, "cx"),
                x(report.latency.quantile(q)),
                "dot's latency",
            );
            near(number(dot, "cy"), y(100.0 * q), "dot's share");
        }
    }

    /// The pause chart's range bars span each retry's analytic range, the
    /// mean dot sits on its bar at the mean, and every bar has a row of its
    /// own above the histograms.
    #[test]
    fn pause_chart_puts_ranges_and_means_where_they_belong() {
        let scenario = scenario();
        let report = run(&scenario);
        let bounds: Vec<PauseBounds> = (0..3).map(|r| scenario.policy.pause_bounds(r)).collect();
        let theme = Theme::light(1.0);
        let runs = [single(&report, &bounds, None)];
        let out = svg(|area| draw_pauses(area, &runs, &theme));

        let dots = elements(&out, "circle");
        let mut rows = Vec::new();
        let mut scale = None;
        for (retry, bound) in bounds.iter().enumerate() {
            let colour = theme.colour(retry);
            let lines = lines_in(&out, colour);
            // The histogram's outline starts at (0 s, 0 %); the bar is the
            // horizontal line of two points whose ends have ticks.
            let (left, bottom) = lines[0][0];
            let bar = lines
                .iter()
                .find(|line| line.len() == 2 && line[0].1 == line[1].1 && line[0].0 != line[1].0)
                .expect("a range bar");
            let per_second = *scale.get_or_insert((bar[1].0 - left) / bound.max);
            let x = |seconds: f64| left + seconds * per_second;
            near(bar[0].0, x(bound.min), "range start");
            near(bar[1].0, x(bound.max), "range end");
            let dot = dots
                .iter()
                .find(|e| attr(e, "fill") == hex(colour) && attr(e, "r") == "4")
                .expect("a mean dot");
            near(number(dot, "cx"), x(bound.mean), "mean");
            near(number(dot, "cy"), bar[0].1, "the mean dot is on its bar");
            let histogram_top = lines[0].iter().map(|(_, py)| *py).fold(bottom, f64::min);
            assert!(
                bar[0].1 < histogram_top,
                "retry {retry}'s bar above its histogram"
            );
            rows.push(bar[0].1);
        }
        rows.dedup();
        assert_eq!(rows.len(), bounds.len(), "one row per retry: {rows:?}");
    }
}
