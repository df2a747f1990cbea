//! Drawing, generic over plotters' `DrawingBackend`: the page hands in a
//! canvas, the tests an SVG string, and both get the same picture.
//!
//! Colours come from the Okabe-Ito palette, which stays distinguishable for
//! the common forms of colour blindness, with a light and a dark theme.
//!
//! Every path names the crate it comes from; the tests also read the
//! presets and the course, whose pictures they check.

#[cfg(test)]
use retry_teach::{course, presets};

use plotters::chart::SeriesAnno;
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use retry_core::tf;
use retry_core::words::tr;

use retry_core::policy::PauseBounds;
use retry_sim::sim::{FaultOn, FaultWindow, Hit, Report, Scenario};

pub type DrawResult = Result<(), Box<dyn std::error::Error>>;

mod contention;
mod frontier;
mod latency;
#[cfg(test)]
mod lessons;
mod load;
mod map;
mod mechanism;
mod pauses;
mod replay;
mod runs;
#[cfg(test)]
mod svg_test;
mod sweep;

pub use contention::{ContentionView, draw_contention, draw_contention_view};
pub use frontier::{FrontierView, draw_frontier};
pub use latency::{draw_latency, draw_latency_after};
pub use load::{LoadDrawn, LoadView, TimeAxis, draw_load, draw_load_view};
pub use map::{MapDrawn, MapPanel, MapView, draw_map};
pub use mechanism::{draw_mechanism, draw_mechanism_after};
pub use pauses::draw_pauses;
pub use replay::{Beside, Lane, ReplayPanel, Spot, Zones, draw_replay, lane_room};
pub use runs::{Runs, run, run_within};
pub use sweep::{Curve, OwnedCurve, SweepMark, SweepView, draw_sweep, draw_sweep_view};

/// Colours and sizes of one rendering.
#[derive(Debug, Clone, Copy)]
pub struct Theme {
    pub background: RGBColor,
    pub foreground: RGBColor,
    pub grid: RGBColor,
    /// Okabe-Ito's nine, then the policies' own colours paler and deeper
    /// ([`POLICY_TONES`]).
    pub palette: [RGBColor; 13],
    /// The replay's cursor: a colour no data is drawn in, so the instant
    /// is never read as a series.
    pub cursor: RGBColor,
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

/// The palette's indices of each policy's tones, A's then B's, from pale
/// to deep: its own colour in the middle. Curves of one policy over
/// several counts (an instances sweep's) keep the policy's hue, so blue is
/// A and orange B on every chart, and their tone tells the count.
pub const POLICY_TONES: [[usize; 3]; 2] = [[9, 0, 10], [11, 4, 12]];

/// Okabe-Ito's colours and, after them, the policies' tones.
fn with_tones(base: [RGBColor; 9], background: RGBColor, foreground: RGBColor) -> [RGBColor; 13] {
    let (a, b) = (base[0], base[4]);
    let pale = |c| blend(background, c, 0.5);
    let deeper = |c| blend(c, foreground, 0.45);
    let mut palette = [base[0]; 13];
    palette[..9].copy_from_slice(&base);
    palette[9..].copy_from_slice(&[pale(a), deeper(a), pale(b), deeper(b)]);
    palette
}

impl Theme {
    pub fn light(scale: f64) -> Self {
        let (background, foreground) = (RGBColor(255, 255, 255), RGBColor(34, 34, 34));
        Self {
            background,
            foreground,
            grid: RGBColor(228, 228, 228),
            palette: with_tones(OKABE_ITO, background, foreground),
            cursor: RGBColor(190, 0, 140),
            scale,
        }
    }

    pub fn dark(scale: f64) -> Self {
        let mut base = OKABE_ITO;
        base[0] = RGBColor(64, 160, 230); // the darker blue is too dim on black
        let (background, foreground) = (RGBColor(24, 26, 30), RGBColor(225, 225, 225));
        Self {
            background,
            foreground,
            grid: RGBColor(58, 60, 66),
            palette: with_tones(base, background, foreground),
            cursor: RGBColor(255, 110, 210),
            scale,
        }
    }

    fn px(&self, css_pixels: f64) -> u32 {
        (css_pixels * self.scale).round().max(1.0) as u32
    }

    fn font(&self, css_pixels: f64) -> TextStyle<'static> {
        // The family by name, not by the word "sans-serif": plotters reads
        // a word through `str::to_lowercase`, which would bring Unicode's
        // case tables (about 9 KB gzip) into the page.
        (FontFamily::SansSerif, css_pixels * self.scale)
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
        tf!("{n}M", n = trim(value / 1e6))
    } else if size >= 1e4 {
        tf!("{n}k", n = trim(value / 1e3))
    } else {
        retry_core::words::number(&trim(*value))
    }
}

/// What a chart's frame shows besides its ranges.
#[derive(Debug, Clone, Copy)]
struct Frame<'l> {
    x_label: &'l str,
    y_label: &'l str,
    /// `y` is in powers of ten (see [`LogScale`]), marked at each.
    log: bool,
    /// The x axis' numbers and words: of panels stacked on one time axis,
    /// only the lowest has them, so the others keep their height for data.
    x_axis: bool,
}

impl<'l> Frame<'l> {
    fn new(x_label: &'l str, y_label: &'l str) -> Self {
        Frame {
            x_label,
            y_label,
            log: false,
            x_axis: true,
        }
    }
}

/// Frame, axes and labels shared by every chart.
fn axes<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    theme: &Theme,
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
    frame: Frame,
) -> Result<
    ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    Box<dyn std::error::Error>,
>
where
    DB::ErrorType: 'static,
{
    area.fill(&theme.background)?;
    // Value labels at least 20 CSS pixels apart: a short panel (two
    // policies in an embed's small frame) gets fewer, not overlapping ones.
    let (_, height) = area.dim_in_pixel();
    let (below, x_area) = if frame.x_axis {
        (theme.px(12.0), theme.px(40.0))
    } else {
        (theme.px(2.0), theme.px(2.0))
    };
    let plot = height.saturating_sub(theme.px(12.0) + below + x_area);
    let y_labels = (plot / theme.px(20.0)).clamp(2, 6) as usize;
    let (low, high, log) = (y.start, y.end, frame.log);
    // Room for the axis' title and its numbers: a log axis' powers of ten
    // are known now, and one as wide as "10 тыс." needs more than the rest.
    let mut widest = 0;
    if log {
        for power in (low.ceil() as i32)..=(high.floor() as i32) {
            let text = tick(&10f64.powi(power));
            widest = widest.max(area.estimate_text_size(&text, &theme.font(12.0))?.0);
        }
    }
    let mut chart = ChartBuilder::on(area)
        .margin(theme.px(12.0))
        .margin_bottom(below)
        .x_label_area_size(x_area)
        .y_label_area_size(theme.px(56.0).max(widest + theme.px(24.0)))
        .build_cartesian_2d(x, y)?;
    let mut mesh = chart.configure_mesh();
    if frame.x_axis {
        mesh.x_desc(frame.x_label);
    }
    mesh.y_desc(frame.y_label)
        .x_labels(if frame.x_axis { 8 } else { 0 })
        .y_labels(if log { 0 } else { y_labels })
        .x_label_formatter(&tick)
        .y_label_formatter(&tick)
        .axis_desc_style(theme.font(13.0))
        .label_style(theme.font(12.0))
        .axis_style(theme.foreground)
        .bold_line_style(theme.grid)
        .light_line_style(theme.background)
        .draw()?;
    if log {
        // A line and a number at each power of ten: 10, 100, 1000, 10k.
        let style = theme.font(12.0).pos(Pos::new(HPos::Right, VPos::Center));
        let root = chart.plotting_area().strip_coord_spec();
        let left = root.get_base_pixel().0;
        let mut last = i32::MAX;
        for power in (low.ceil() as i32)..=(high.floor() as i32) {
            let level = f64::from(power);
            let (start, end) = (chart.x_range().start, chart.x_range().end);
            let y0 = chart.backend_coord(&(start, level)).1;
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(start, level), (end, level)],
                theme.grid.stroke_width(1),
            )))?;
            if last - y0 >= theme.px(14.0) as i32 {
                label(
                    area,
                    tick(&10f64.powi(power)),
                    (left - theme.px(6.0) as i32, y0),
                    &style,
                )?;
                last = y0;
            }
        }
    }
    Ok(chart)
}

/// The first of `words` (longest first) that fits along a value axis of
/// `area`'s height, as the axis' own font sizes it; else the last.
fn along_axis<'w, DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    theme: &Theme,
    words: &[&'w str],
) -> Result<&'w str, Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    along_axis_over(area, theme, words, 0)
}

/// [`along_axis`] for a plot that leaves `below` pixels of its area to
/// a time axis under it.
fn along_axis_over<'w, DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    theme: &Theme,
    words: &[&'w str],
    below: u32,
) -> Result<&'w str, Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    let room = area.dim_in_pixel().1 as i32 - theme.px(24.0) as i32 - below as i32;
    for word in words {
        if area.estimate_text_size(word, &theme.font(13.0))?.0 as i32 <= room {
            return Ok(word);
        }
    }
    Ok(words[words.len() - 1])
}

/// A logarithmic value axis from `floor` (drawn as the bottom: a count
/// of nothing has no logarithm) to `top`, for values whose ratios are the
/// point: 10x the capacity stands a power of ten above it, wherever the
/// capacity lies.
#[derive(Debug, Clone, Copy, PartialEq)]
struct LogScale {
    floor: f64,
}

impl LogScale {
    /// Where `value` stands on the axis (values below the floor at the floor).
    fn at(self, value: f64) -> f64 {
        value.max(self.floor).log10()
    }
}

/// How far a chart's value axes reach as drawn, handed back with the
/// next state's drawing so that the chart keeps them while the new data
/// fits under them (before and after on one scale) and widens those the
/// new data leaves.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Axes {
    /// The top of each value axis, in an order each chart documents; 0
    /// where a chart draws fewer.
    pub tops: [f64; 2],
    /// The bottom of the first axis when it is logarithmic, 0 when linear.
    pub floor: f64,
}

/// The top of value axis `index` for data reaching `needed`: the one
/// drawn before while the data fits under it, else `fresh`, which the
/// caller sizes for `needed` (so a kept axis only ever widens).
fn kept_top(before: Option<Axes>, index: usize, needed: f64, fresh: f64) -> f64 {
    match before {
        Some(axes) if needed <= axes.tops[index] => axes.tops[index],
        _ => fresh,
    }
}

/// The state a change replaced, as the key chart shows it after the
/// change: its runs drawn faint behind the new ones, and the axes it was
/// drawn on, kept while the new data fits (see [`Axes`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Before<'a> {
    pub runs: &'a [Plotted<'a>],
    pub axes: Option<Axes>,
}

/// The faint grey a state before a change is drawn in, whatever the
/// policy (A solid, B dashed, as ever): no tint of a policy's colour,
/// which would read as one of its kinds (a light blue is A's retries).
fn ghost(theme: &Theme) -> RGBColor {
    blend(theme.background, theme.foreground, 0.3)
}

/// A rectangle in the backend's pixels: left, top, right, bottom.
type Rect = [i32; 4];

fn overlap(a: &Rect, b: &Rect) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

/// Where [`Labels`] puts words that have no clear place among those
/// offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fallback {
    /// Nowhere: they are left out.
    None,
    /// At the plot's clear place nearest the first offered, no further
    /// aside than they are wide.
    Aside,
    /// The same, else over the data at the first place offered.
    OverData,
}

/// Words placed on a plot so that none covers another: each label goes
/// to the first place offered where it lies wholly inside the plot and
/// clear of every label placed before it, or is left out. Whatever is
/// placed first (the lesson's moment) is sure of its place. Lines of data
/// registered with [`Labels::avoid`] are kept clear too, as far as the
/// plot has room ([`Labels::put`], [`Labels::put_anyway`]).
struct Labels {
    plot: Rect,
    taken: Vec<Rect>,
    /// Where lines of data run ([`Labels::avoid`]), by columns of
    /// [`COLUMN`] pixels across the plot, so that a place is checked only
    /// against the data beneath it: a label goes there only when the plot
    /// has no clear place for it at all.
    data: Vec<Vec<Rect>>,
    backing: RGBAColor,
    /// The least height of a line of text.
    line: i32,
}

impl Labels {
    fn on<DB: DrawingBackend>(chart: &Chart<'_, DB>, theme: &Theme) -> Self {
        let area = chart.plotting_area().strip_coord_spec();
        let (left, top) = area.get_base_pixel();
        let (width, height) = area.dim_in_pixel();
        Labels {
            plot: [left, top, left + width as i32, top + height as i32],
            taken: Vec::new(),
            data: vec![Vec::new(); (width as usize).div_ceil(COLUMN) + 1],
            backing: theme.background.mix(0.8),
            line: theme.px(13.0) as i32,
        }
    }

    /// The columns of [`Labels::data`] that `rect` spans (clamped to the
    /// plot: data and places outside it share its edge columns).
    fn columns(&self, rect: &Rect) -> std::ops::RangeInclusive<usize> {
        let last = self.data.len().saturating_sub(1);
        let column = |x: i32| ((x - self.plot[0]).max(0) as usize / COLUMN).min(last);
        column(rect[0])..=column(rect[2])
    }

    /// Whether `rect` lies clear of every line of data.
    fn off_data(&self, rect: &Rect) -> bool {
        self.columns(rect)
            .all(|c| !self.data[c].iter().any(|other| overlap(other, rect)))
    }

    /// Keeps later labels off a line of data: `points` on the chart's
    /// coordinates, each segment's box taken.
    fn avoid<DB: DrawingBackend>(&mut self, chart: &Chart<'_, DB>, points: &[(f64, f64)]) {
        let pixels: Vec<(i32, i32)> = points.iter().map(|p| chart.backend_coord(p)).collect();
        for pair in pixels.windows(2) {
            let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
            let rect = [x0.min(x1), y0.min(y1) - 1, x0.max(x1), y0.max(y1) + 1];
            for column in self.columns(&rect) {
                self.data[column].push(rect);
            }
        }
    }

    /// Draws `lines` on `area` (the whole chart's, in backend pixels) at
    /// the first of `rows` (the top of the text) where they fit, to the
    /// right of `x` or else ending at its left, clear of data; else at
    /// the plot's clear place nearest the first offered, no further aside
    /// than the label is wide (so that it still names what it stands
    /// by); false when nowhere. The words stand on a backing of the
    /// background.
    fn put<DB: DrawingBackend>(
        &mut self,
        area: &DrawingArea<DB, Shift>,
        lines: &[String],
        style: &TextStyle<'_>,
        x: i32,
        rows: impl IntoIterator<Item = i32>,
    ) -> Result<bool, Box<dyn std::error::Error>>
    where
        DB::ErrorType: 'static,
    {
        // One body whatever the rows' iterator (a copy per kind would
        // weigh on the page).
        self.put_at(
            area,
            lines,
            style,
            x,
            &mut rows.into_iter(),
            Fallback::Aside,
        )
    }

    /// [`Labels::put`], and where the plot has no clear place, over data
    /// at the first place offered: for words the chart cannot lose.
    fn put_anyway<DB: DrawingBackend>(
        &mut self,
        area: &DrawingArea<DB, Shift>,
        lines: &[String],
        style: &TextStyle<'_>,
        x: i32,
        rows: impl IntoIterator<Item = i32>,
    ) -> Result<bool, Box<dyn std::error::Error>>
    where
        DB::ErrorType: 'static,
    {
        self.put_at(
            area,
            lines,
            style,
            x,
            &mut rows.into_iter(),
            Fallback::OverData,
        )
    }

    /// [`Labels::put`] for words that name what they speak of ("outage:
    /// …", "A: …"), in one of their `forms` (one line, then broken in
    /// two), clear at the rows offered anywhere along `reach` (backend x
    /// pixels: the span of what they name, or the whole plot for words
    /// that say where they speak of), starting or ending there; left out
    /// where it has no clear place, rather than hide the data or stand
    /// by other data (the herd's outage label once stood on the wave at
    /// 12.6 s, its outage being 0-5 s).
    fn put_named<DB: DrawingBackend>(
        &mut self,
        area: &DrawingArea<DB, Shift>,
        forms: &[Vec<String>],
        style: &TextStyle<'_>,
        x: i32,
        rows: &[i32],
        reach: (i32, i32),
    ) -> Result<bool, Box<dyn std::error::Error>>
    where
        DB::ErrorType: 'static,
    {
        let [left, _, right, _] = self.plot;
        let from = reach.0.max(left);
        let to = reach.1.min(right).max(from);
        for lines in forms {
            let along = (0..=8).map(|k| from + (to - from) * k / 8);
            for x in std::iter::once(x).chain(along) {
                // Only where it starts or ends along its reach: no clear
                // place aside, which can be far on a narrow plot.
                let rows = &mut rows.iter().copied();
                if self.put_at(area, lines, style, x, rows, Fallback::None)? {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    fn put_at<DB: DrawingBackend>(
        &mut self,
        area: &DrawingArea<DB, Shift>,
        lines: &[String],
        style: &TextStyle<'_>,
        x: i32,
        rows: &mut dyn Iterator<Item = i32>,
        fallback: Fallback,
    ) -> Result<bool, Box<dyn std::error::Error>>
    where
        DB::ErrorType: 'static,
    {
        let mut width = 0;
        let mut line = self.line;
        for text in lines {
            let (w, h) = area.estimate_text_size(text, style)?;
            width = width.max(w as i32);
            line = line.max(h as i32);
        }
        let (gap, height) = (3, line * lines.len() as i32);
        let box_at = |left: i32, top: i32| {
            [
                left - gap,
                top - gap,
                left + width + gap,
                top + height + gap,
            ]
        };
        let offered: Vec<Rect> = rows
            .flat_map(|top| [box_at(x + 2 * gap, top), box_at(x - 2 * gap - width, top)])
            .collect();
        let plot = self.plot;
        let fits = |rect: &Rect, taken: &[Rect]| {
            rect[0] >= plot[0]
                && rect[1] >= plot[1]
                && rect[2] <= plot[2]
                && rect[3] <= plot[3]
                && !taken.iter().any(|other| overlap(other, rect))
        };
        let clear = |rect: &Rect| fits(rect, &self.taken) && self.off_data(rect);
        // The plot's clear place nearest the first offered, on a grid of
        // rows and 8-pixel steps, no further aside than the label's width.
        let nearest = |&(want_x, want_y): &(i32, i32)| {
            (plot[1]..plot[3])
                .step_by(line.max(1) as usize)
                .flat_map(|top| {
                    (plot[0]..plot[2])
                        .step_by(8)
                        .map(move |left| box_at(left + gap, top + gap))
                })
                .filter(|rect| (rect[0] - want_x).abs() <= width + 2 * gap && clear(rect))
                .min_by_key(|r| (r[0] - want_x).abs() + 2 * (r[1] - want_y).abs())
        };
        let chosen = offered
            .iter()
            .copied()
            .find(|rect| clear(rect))
            .or_else(|| {
                let first = offered.first().filter(|_| fallback != Fallback::None)?;
                nearest(&(first[0], first[1]))
            })
            .or_else(|| {
                let over = |rect: &Rect| fallback == Fallback::OverData && fits(rect, &self.taken);
                offered.iter().copied().find(over)
            });
        let Some(rect) = chosen else {
            return Ok(false);
        };
        self.taken.push(rect);
        let (bx, by) = area.get_base_pixel();
        area.draw(&Rectangle::new(
            [(rect[0] - bx, rect[1] - by), (rect[2] - bx, rect[3] - by)],
            self.backing.filled(),
        ))?;
        let (left, top) = (rect[0] + gap, rect[1] + gap);
        for (i, text) in lines.iter().enumerate() {
            label(
                area,
                text.clone(),
                (left, top + i as i32 * line),
                &style.pos(Pos::new(HPos::Left, VPos::Top)),
            )?;
        }
        Ok(true)
    }
}

/// The width of a column of [`Labels::data`], in pixels.
const COLUMN: usize = 16;

/// Where to split `height` between panels stacked one over another, the
/// lowest carrying the time axis ([`axes`]'s 48 pixels more), so that
/// `above` of `panels` plots stand as tall as each below them.
fn even_split(height: u32, above: u32, panels: u32, theme: &Theme) -> u32 {
    height.saturating_sub(theme.px(48.0)) * above / panels.max(1)
}

/// A label's forms for [`Labels::put_named`]: on one line, then broken
/// in two at the space nearest its middle.
fn one_line_or_two(text: String) -> Vec<Vec<String>> {
    let middle = text.chars().count() / 2;
    let space = text
        .char_indices()
        .filter(|(_, c)| *c == ' ')
        .enumerate()
        .min_by_key(|(_, (at, _))| text[..*at].chars().count().abs_diff(middle))
        .map(|(_, (at, _))| at);
    let mut forms = vec![vec![text.clone()]];
    if let Some(at) = space {
        forms.push(vec![text[..at].to_string(), text[at + 1..].to_string()]);
    }
    forms
}

/// One policy's run, as the charts draw it. In compare mode there are two:
/// A solid, B dashed, each in its own colour.
#[derive(Debug, Clone, Copy)]
pub struct Plotted<'a> {
    /// "A" or "B" in compare mode, empty otherwise.
    pub name: &'a str,
    pub report: &'a Report,
    /// Analytic bounds of each retry's pause under this run's policy.
    pub bounds: &'a [PauseBounds],
    pub deadline: Option<f64>,
}

type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

impl Plotted<'_> {
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
pub(crate) fn deep(theme: &Theme, colour: RGBColor) -> RGBColor {
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

/// Where a run's series stop holding all its load, when they do: the
/// instant a bound cut the run, or how far a run still going got.
fn simulated_until(report: &Report, horizon: f64) -> Option<f64> {
    let summary = &report.summary;
    (summary.truncated && summary.simulated_until < horizon)
        .then(|| summary.simulated_until.max(0.0))
}

/// Shades the time from `until` to the horizon, which was not simulated,
/// and says why: a bound stopped the run, or it is still going.
fn shade_unsimulated<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    (until, horizon): (f64, f64),
    in_progress: bool,
    theme: &Theme,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let (low, high) = (chart.y_range().start, chart.y_range().end);
    chart.draw_series(std::iter::once(Rectangle::new(
        [(until, low), (horizon, high)],
        theme.foreground.mix(0.18).filled(),
    )))?;
    let why = if in_progress {
        tr("still simulating")
    } else {
        tr("not simulated (work limit)")
    };
    chart.draw_series(std::iter::once(Text::new(
        why.to_string(),
        (until, (low + high) / 2.0),
        theme.font(12.0),
    )))?;
    Ok(())
}

/// Calls a run sent in the buckets that lie wholly within `(start, end)`.
fn calls_within(report: &Report, (start, end): (f64, f64)) -> u64 {
    let s = &report.series;
    let mut total = 0;
    for i in 0..s.len() {
        let from = i as f64 * s.width;
        if from >= start - 1e-9 && from + s.width <= end + 1e-9 {
            total += s.first_tries[i] + s.retries[i];
        }
    }
    total
}

/// Shades a scenario's [faults](Scenario::faults) and its services' own
/// outages over the whole height of a chart of time.
fn shade_windows<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    scenario: &Scenario,
    theme: &Theme,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let (low, high) = (chart.y_range().start, chart.y_range().end);
    let end = chart.x_range().end;
    // The world's faults, each service's own outage in a chain among them.
    let windows = scenario.faults().map(|window| (window.start, window.end));
    for (start, stop) in windows {
        chart.draw_series(std::iter::once(Rectangle::new(
            [(start, low), (stop.min(end), high)],
            theme.grid.mix(0.6).filled(),
        )))?;
    }
    Ok(())
}

/// Names each window at the foot of its shade, where there is room: the
/// outage (unless `outage` is false: a chart that said more of it), the
/// spike and each fault, with the number that sizes it.
fn name_windows<DB: DrawingBackend>(
    labels: &mut Labels,
    area: &DrawingArea<DB, Shift>,
    chart: &Chart<'_, DB>,
    scenario: &Scenario,
    outage: bool,
    theme: &Theme,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let low = chart.y_range().start;
    let percent = |share: f64| tick(&round3(100.0 * share));
    let faults = scenario
        .faults()
        .filter_map(|FaultWindow { start, hit, .. }| {
            let text = match hit {
                Hit::Outage { .. } if !outage => return None,
                Hit::Outage {
                    on: FaultOn::One,
                    servers,
                } if servers > 1 => {
                    tf!("outage of one server of {servers}", servers = servers)
                }
                Hit::Outage { .. } => tr("outage").to_string(),
                // A spike of nothing is the door closed: traffic turned away.
                Hit::Spike { rate: 0.0 } => tr("every new request turned away").to_string(),
                Hit::Spike { rate } => tf!("spike: {rate}/s", rate = tick(&rate)),
                Hit::CapacityLoss { keeps } => tf!(
                    "capacity loss: {share} % of workers left",
                    share = percent(keeps)
                ),
                Hit::LatencySpike { times } => {
                    tf!("latency spike: service x{factor}", factor = tick(&times))
                }
                Hit::Partition { share } => tf!(
                    "partition: {share} % of clients cut off",
                    share = percent(share)
                ),
                // A service's own outage in a chain, named by its layer.
                Hit::ServiceOutage { layer } => tf!("outage at layer {layer}", layer = layer),
            };
            Some((start, text))
        });
    for (start, text) in faults {
        let (x, bottom) = chart.backend_coord(&(start, low));
        let step = theme.px(13.0) as i32;
        let rows: Vec<i32> = (1..(bottom - labels.plot[1]) / step)
            .map(|k| bottom - 4 - k * step)
            .collect();
        // On one line, else on two by its start, else over data: a
        // window's name is not to be lost.
        let style = theme.font(11.0);
        let forms = one_line_or_two(text);
        let mut put = false;
        for lines in &forms {
            put = put || labels.put(area, lines, &style, x, rows.iter().copied())?;
        }
        if !put {
            labels.put_anyway(area, &forms[0], &style, x, rows)?;
        }
    }
    Ok(())
}

/// Text at a pixel of the backend (as `backend_coord` gives them), drawn
/// on `area`.
fn label<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: impl Into<String>,
    at: (i32, i32),
    style: &TextStyle<'_>,
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

/// Three significant digits, for labels.
fn round3(value: f64) -> f64 {
    if value == 0.0 || !value.is_finite() {
        return value;
    }
    let scale = 10f64.powi(2 - value.abs().log10().floor() as i32);
    (value * scale).round() / scale
}

/// What a legend line shows before its text.
#[derive(Debug, Clone, Copy)]
enum Sample {
    Area,
    Line {
        dashed: bool,
    },
    Dotted,
    Dot,
    Ring,
    /// A figure set, not simulated.
    Cross,
    /// Words only: what the whole chart is of.
    Words,
}

/// One line of a legend.
#[derive(Debug, Clone)]
struct Entry {
    text: String,
    colour: RGBColor,
    sample: Sample,
    /// Policy B's colour where one line names a kind both policies draw:
    /// the sample then shows A's half and B's (dashed where B's lines are).
    also: Option<RGBColor>,
}

impl Entry {
    fn new(text: impl Into<String>, colour: RGBColor, sample: Sample) -> Self {
        Self {
            text: text.into(),
            colour,
            sample,
            also: None,
        }
    }
    fn area(text: impl Into<String>, colour: RGBColor) -> Self {
        Self::new(text, colour, Sample::Area)
    }
    fn line(text: impl Into<String>, colour: RGBColor, dashed: bool) -> Self {
        Self::new(text, colour, Sample::Line { dashed })
    }
    fn dot(text: impl Into<String>, colour: RGBColor) -> Self {
        Self::new(text, colour, Sample::Dot)
    }
    /// The same kind for B too, in `colour`.
    fn and(mut self, colour: Option<RGBColor>) -> Self {
        self.also = colour;
        self
    }
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
        Sample::Cross => area.draw(&Cross::new((x + width / 2, y), theme.px(4.0), stroke))?,
        Sample::Words => {}
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
    // A kind both policies draw shows A's sample and B's side by side.
    let width_of = |entry: &Entry| match (entry.sample, entry.also) {
        (Sample::Words, _) => -pad,
        (_, Some(_)) => 2 * sample + pad,
        (_, None) => sample,
    };
    for entry in entries {
        let size = width_of(entry) + pad + area.estimate_text_size(&entry.text, &font)?.0 as i32;
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
        if let Some(colour) = entry.also {
            let dashed = match entry.sample {
                Sample::Line { .. } => Sample::Line { dashed: true },
                other => other,
            };
            draw_sample(&top, dashed, colour, (x + sample + pad, y), sample, theme)?;
        }
        top.draw(&Text::new(
            entry.text.clone(),
            (x + width_of(entry) + pad, y),
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
    let (width, height) = area.dim_in_pixel();
    let margin = theme.px(16.0) as i32;
    let font = theme.font(14.0);
    // Broken into lines that fit, so a phone shows the whole message.
    let room = (width as i32 - 2 * margin).max(1) as u32;
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if area.estimate_text_size(&format!("{line} {word}"), &font)?.0 <= room => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    let line_height = theme.px(20.0) as i32;
    let top = height as i32 / 2 - line_height * (lines.len() as i32 - 1) / 2;
    for (row, line) in lines.into_iter().enumerate() {
        area.draw(&Text::new(
            line,
            (margin, top + row as i32 * line_height),
            font.clone(),
        ))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A is blue and B orange on every chart: the tones curves of one
    /// policy take are that policy's hue, pale to deep around its own
    /// colour, in both themes; the instances sweep draws with them.
    #[test]
    fn the_policies_tones_keep_their_hue() {
        assert_eq!(retry_analyses::sweep::INSTANCE_TONES, POLICY_TONES);
        for theme in [Theme::light(1.0), Theme::dark(1.0)] {
            for (side, tones) in POLICY_TONES.iter().enumerate() {
                let own = run_colour(&theme, side);
                assert_eq!(theme.colour(tones[1]), own);
                let [pale, deep] = [tones[0], tones[2]].map(|i| theme.colour(i));
                assert_eq!(pale, blend(theme.background, own, 0.5));
                assert_eq!(deep, blend(own, theme.foreground, 0.45));
                assert!(pale != own && deep != own && pale != deep);
            }
        }
    }
    use crate::svg_test::*;

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
    fn compare_mode_draws_both_policies_b_dashed() {
        let compared = Compared::new();
        let (a, runs) = (&compared.a, compared.runs());
        let theme = Theme::light(1.0);
        for (out, names) in [
            (
                svg(|area| draw_load(area, &runs, a, &theme)),
                [">\nA\n<", ">\nB\n<"],
            ),
            (svg(|area| draw_pauses(area, &runs, &theme)), ["A: ", "B: "]),
            (
                svg(|area| draw_latency(area, &runs, a, &theme)),
                ["A: ", "B: "],
            ),
        ] {
            assert!(
                out.contains(names[0]) && out.contains(names[1]),
                "legend or panels lack a policy"
            );
            assert!(out.contains(&hex(run_colour(&theme, 0))));
            assert!(out.contains(&hex(run_colour(&theme, 1))));
        }
    }

    /// A message wider than its chart is broken into lines that fit, each
    /// starting at the margin, together centred on the chart.
    #[test]
    fn a_long_message_wraps_to_the_chart() {
        let theme = Theme::light(1.0);
        let text = retry_analyses::sweep::too_big(
            &retry_sim::config::Config::from_link("v=1&rate=20000&horizon=3600&failure=0.5").0,
        )
        .expect("a sweep too big for the page");
        let mut out = String::new();
        {
            let area = SVGBackend::with_string(&mut out, (320, 200)).into_drawing_area();
            message(&area, &theme, text).expect("drawing to a string cannot fail");
        }
        let lines = elements(&out, "text");
        assert!(lines.len() >= 3, "{} lines", lines.len());
        for line in &lines {
            assert_eq!(number(line, "x"), 16.0);
        }
        let ys: Vec<f64> = lines.iter().map(|l| number(l, "y")).collect();
        assert!((ys[0] + ys[ys.len() - 1] - 200.0).abs() <= 20.0, "{ys:?}");
        let words: usize = out
            .lines()
            .filter(|l| !l.starts_with('<'))
            .map(|l| l.split_whitespace().count())
            .sum();
        assert_eq!(
            words,
            text.split_whitespace().count(),
            "every word drawn once"
        );
    }
}
