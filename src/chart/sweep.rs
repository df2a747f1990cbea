//! The sweep chart: success and load against the failure rate.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::sweep::Point;

use super::{Corner, DrawResult, Entry, Frame, Theme, axes, legend, path};

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
            Frame::new("failure rate (%)", label),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::svg_test::*;

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
}
