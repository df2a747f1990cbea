//! Drawing, generic over plotters' `DrawingBackend`: the page hands in a
//! canvas, the tests an SVG string, and both get the same picture.
//!
//! Colours come from the Okabe-Ito palette, which stays distinguishable for
//! the common forms of colour blindness, with a light and a dark theme.

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use crate::study::{Histogram, Study};

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
        .axis_desc_style(theme.font(13.0))
        .label_style(theme.font(12.0))
        .axis_style(theme.foreground)
        .bold_line_style(theme.grid)
        .light_line_style(theme.background)
        .draw()?;
    Ok(chart)
}

/// Outline of a histogram as a step path, in percent of `total`.
fn steps(histogram: &Histogram, total: f64) -> Vec<(f64, f64)> {
    let width = histogram.bin_width();
    let mut points = vec![(histogram.low, 0.0)];
    for (i, count) in histogram.counts.iter().enumerate() {
        let share = 100.0 * f64::from(*count) / total;
        let left = histogram.low + i as f64 * width;
        points.push((left, share));
        points.push((left + width, share));
    }
    points.push((histogram.high, 0.0));
    points
}

/// The distribution of each retry's pause, one colour per retry number,
/// with its analytic range (a bar) and mean (a dot) above the bars.
pub fn draw_pauses<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    study: &Study,
    theme: &Theme,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    if study.pauses.is_empty() {
        return message(area, theme, "attempts = 1: no retries, so no pauses");
    }
    let total = f64::from(study.samples.max(1));
    let highest_bar = study
        .pauses
        .iter()
        .flat_map(|h| h.counts.iter())
        .map(|c| 100.0 * f64::from(*c) / total)
        .fold(0.0, f64::max)
        .max(1.0);
    // Room above the bars: one row per retry for its bounds.
    let row = highest_bar * 0.08;
    let rows = study.pauses.len() as f64;
    let y_top = highest_bar * 1.05 + row * (rows + 0.5);
    let x_high = study.pauses[0].high;
    let mut chart = axes(
        area,
        theme,
        0.0..x_high,
        0.0..y_top,
        "pause before the retry (s)",
        "clients (%)",
    )?;

    for (retry, (histogram, bounds)) in study.pauses.iter().zip(&study.bounds).enumerate() {
        let colour = theme.colour(retry);
        let outline = steps(histogram, total);
        chart
            .draw_series(std::iter::once(Polygon::new(
                outline.clone(),
                colour.mix(0.22),
            )))?
            .label(format!(
                "retry {}: {:.3}-{:.3} s, mean {:.3}",
                retry + 1,
                bounds.min,
                bounds.max,
                bounds.mean
            ))
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
        chart.draw_series(std::iter::once(PathElement::new(
            outline,
            colour.stroke_width(theme.px(1.5)),
        )))?;
        let y = highest_bar * 1.05 + row * (rows - retry as f64);
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
    legend(&mut chart, theme)
}

/// The distribution of the time until a client whose every attempt fails
/// gives up, with the deadline marked.
pub fn draw_totals<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    study: &Study,
    deadline: Option<f64>,
    theme: &Theme,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let total = f64::from(study.samples.max(1));
    let histogram = &study.totals;
    let highest_bar = histogram
        .counts
        .iter()
        .map(|c| 100.0 * f64::from(*c) / total)
        .fold(0.0, f64::max)
        .max(1.0);
    let x_high = deadline.map_or(histogram.high, |d| histogram.high.max(d * 1.04));
    let mut chart = axes(
        area,
        theme,
        0.0..x_high,
        0.0..highest_bar * 1.15,
        "time until the client gives up (s)",
        "clients (%)",
    )?;
    let colour = theme.colour(0);
    let outline = steps(histogram, total);
    chart
        .draw_series(std::iter::once(Polygon::new(
            outline.clone(),
            colour.mix(0.3),
        )))?
        .label(format!(
            "give up after {:.3} s on average",
            study.mean_total
        ))
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
    chart.draw_series(std::iter::once(PathElement::new(
        outline,
        colour.stroke_width(theme.px(1.5)),
    )))?;
    if let Some(deadline) = deadline {
        let red = theme.colour(4);
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(deadline, 0.0), (deadline, highest_bar * 1.15)],
                red.stroke_width(theme.px(2.0)),
            )))?
            .label(format!("deadline {deadline} s"))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 12, y)], red.stroke_width(2)));
    }
    legend(&mut chart, theme)
}

fn legend<'a, DB: DrawingBackend + 'a>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    theme: &Theme,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .margin(theme.px(8.0))
        .label_font(theme.font(12.0))
        .background_style(theme.background.mix(0.85))
        .border_style(theme.grid)
        .draw()?;
    Ok(())
}

/// A chart area that only says why it is empty.
fn message<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    theme: &Theme,
    text: &str,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    area.fill(&theme.background)?;
    let (width, height) = area.dim_in_pixel();
    area.draw(&Text::new(
        text.to_string(),
        (theme.px(16.0) as i32, (height / 2) as i32),
        theme.font(14.0),
    ))?;
    let _ = width;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Policy;
    use crate::study::study;

    fn svg(draw: impl Fn(&DrawingArea<SVGBackend, Shift>) -> DrawResult) -> String {
        let mut out = String::new();
        {
            let area = SVGBackend::with_string(&mut out, (800, 400)).into_drawing_area();
            draw(&area).expect("drawing to a string cannot fail");
        }
        out
    }

    #[test]
    fn pause_chart_shows_every_retry_and_its_bounds() {
        let study = study(&Policy::default(), 1, 2000);
        let out = svg(|area| draw_pauses(area, &study, &Theme::light(1.0)));
        for retry in 1..=3 {
            assert!(
                out.contains(&format!("retry {retry}:")),
                "legend lacks retry {retry}"
            );
        }
        assert!(
            out.contains("retry 3: 0.000-0.400 s, mean 0.200"),
            "bounds not in legend"
        );
        assert!(out.contains("pause before the retry (s)"));
        // Three filled histograms in three palette colours.
        for colour in &OKABE_ITO[..3] {
            let hex = format!("#{:02X}{:02X}{:02X}", colour.0, colour.1, colour.2);
            assert!(out.contains(&hex), "colour {hex} missing");
        }
    }

    #[test]
    fn totals_chart_marks_the_deadline() {
        let policy = Policy {
            attempt_timeout: Some(0.5),
            deadline: Some(1.5),
            ..Policy::default()
        };
        let study = study(&policy, 1, 500);
        let out = svg(|area| draw_totals(area, &study, policy.deadline, &Theme::dark(2.0)));
        assert!(out.contains("deadline 1.5 s"));
    }

    #[test]
    fn no_retries_says_so() {
        let policy = Policy {
            attempts: 1,
            ..Policy::default()
        };
        let study = study(&policy, 1, 10);
        let out = svg(|area| draw_pauses(area, &study, &Theme::light(1.0)));
        assert!(out.contains("no retries"));
    }
}
