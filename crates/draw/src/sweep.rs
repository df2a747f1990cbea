//! The sweep chart: success and load against the failure rate.

use plotters::coord::Shift;
use plotters::prelude::*;
use retry_core::tf;
use retry_core::words::tr;

use retry_analyses::sweep::Point;

use super::{
    Axes, DrawResult, Entry, Frame, Labels, Sample, Theme, along_axis, axes, dotted, ghost, header,
    kept_top, path, round3, tick,
};

/// One curve of a sweep chart.
#[derive(Debug, Clone, Copy)]
pub struct Curve<'a> {
    pub name: &'static str,
    pub points: &'a [Point],
    pub colour: usize,
    pub dashed: bool,
}

/// A curve that holds its own points: what is kept of a sweep to draw it
/// again later (the state before a change, faint).
#[derive(Debug, Clone, PartialEq)]
pub struct OwnedCurve {
    pub name: &'static str,
    pub points: Vec<Point>,
    pub colour: usize,
    pub dashed: bool,
}

impl OwnedCurve {
    pub fn of(curve: &Curve<'_>) -> OwnedCurve {
        OwnedCurve {
            name: curve.name,
            points: curve.points.to_vec(),
            colour: curve.colour,
            dashed: curve.dashed,
        }
    }

    pub fn curve(&self) -> Curve<'_> {
        Curve {
            name: self.name,
            points: &self.points,
            colour: self.colour,
            dashed: self.dashed,
        }
    }
}

/// Where the sweep marks the world shown: its own failure rate, and the
/// runs the headline numbers come from.
#[derive(Debug, Clone, Copy, Default)]
pub struct SweepMark<'a> {
    /// The world's failure rate, 0 to 1.
    pub failure: f64,
    /// The headlines' runs: the curve each lies on (see
    /// `sweep::headline_curves`) and its point at `failure`.
    pub headlines: &'a [(usize, Point)],
}

/// What the sweep chart shows besides its curves.
#[derive(Debug, Clone, Copy, Default)]
pub struct SweepView<'a> {
    pub mark: Option<SweepMark<'a>>,
    /// The sweep before a change: its curves ghost, its mark dotted.
    pub before: &'a [Curve<'a>],
    pub before_failure: Option<f64>,
    /// The axes before the change (the load's top), kept while the new
    /// curves fit.
    pub axes: Option<Axes>,
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
    draw_sweep_view(area, curves, points, theme, &SweepView::default()).map(|_| ())
}

/// [`draw_sweep`] with the world marked: a line at its failure rate on
/// both panels, and a ring where each headline's run lies, named by the
/// curve it is on ("headlines: 3 retries"), so the numbers beside the
/// chart are found on it. After a change the sweep before is ghost, its
/// mark dotted, and the load axis kept while the new curves fit. The
/// legend stands above the panels, where it covers no curve. Returns the
/// axes drawn.
pub fn draw_sweep_view<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    curves: &[Curve],
    points: usize,
    theme: &Theme,
    view: &SweepView,
) -> Result<Axes, Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    area.fill(&theme.background)?;
    let needed = curves
        .iter()
        .chain(view.before)
        .flat_map(|c| c.points.iter().map(|p| p.load))
        .chain(
            view.mark
                .iter()
                .flat_map(|m| m.headlines.iter().map(|(_, p)| p.load)),
        )
        .fold(2.0, f64::max);
    let top_load = kept_top(view.axes, 0, needed, needed * 1.08);
    let mut entries: Vec<Entry> = curves
        .iter()
        .filter(|c| !c.name.is_empty())
        .map(|c| Entry::line(c.name, theme.colour(c.colour), c.dashed))
        .collect();
    if let Some(mark) = &view.mark {
        entries.push(Entry::line(
            tf!(
                "this world: {share} % failures",
                share = tick(&round3(100.0 * mark.failure))
            ),
            theme.foreground,
            false,
        ));
        if !mark.headlines.is_empty() {
            entries.push(Entry::new(
                tr("the headlines' run"),
                theme.foreground,
                Sample::Ring,
            ));
        }
    }
    if !view.before.is_empty() {
        entries.push(Entry::new(
            tr("before the change"),
            ghost(theme),
            Sample::Dotted,
        ));
    }
    let body = header(area, &entries, theme)?;
    // Side by side where each panel keeps a readable width, else one above
    // the other (a phone), on the same failure-rate axis.
    let (width, height) = body.dim_in_pixel();
    let stacked = width < theme.px(560.0);
    let (left, right) = if stacked {
        body.split_vertically(super::even_split(height, 1, 2, theme))
    } else {
        body.split_horizontally(width / 2)
    };
    type Value = fn(&Point) -> f64;
    let success: Value = |p| 100.0 * p.success;
    let load: Value = |p| p.load;
    for (panel, words, top, value) in [
        (
            &left,
            &[tr("user-visible success (%)"), tr("success (%)")][..],
            105.0,
            success,
        ),
        (
            &right,
            &[
                tr("server calls per operation"),
                tr("calls per operation"),
                tr("calls/op"),
            ][..],
            top_load,
            load,
        ),
    ] {
        let mut chart = axes(
            panel,
            theme,
            0.0..100.0,
            0.0..top,
            Frame {
                // Stacked, the lower panel's failure-rate axis serves both.
                x_axis: !stacked || top != 105.0,
                ..Frame::new(tr("failure rate (%)"), along_axis(panel, theme, words)?)
            },
        )?;
        if let Some(failure) = view.before_failure {
            let style = ghost(theme).stroke_width(theme.px(2.0));
            dotted(
                &mut chart,
                vec![(100.0 * failure, 0.0), (100.0 * failure, top)],
                style,
                theme,
            )?;
        }
        for curve in view.before {
            let line: Vec<(f64, f64)> = curve
                .points
                .iter()
                .map(|p| (100.0 * p.failure, value(p)))
                .collect();
            let colour = ghost(theme);
            path(
                &mut chart,
                line,
                colour.stroke_width(theme.px(1.5)),
                curve.dashed,
                theme,
            )?;
        }
        if let Some(mark) = &view.mark {
            let x = 100.0 * mark.failure;
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(x, 0.0), (x, top)],
                theme.foreground.stroke_width(theme.px(1.0)),
            )))?;
        }
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
        }
        let mut labels = Labels::on(&chart, theme);
        for curve in curves {
            let line: Vec<(f64, f64)> = curve
                .points
                .iter()
                .map(|p| (100.0 * p.failure, value(p)))
                .collect();
            labels.avoid(&chart, &line);
        }
        let step = theme.px(13.0) as i32;
        let small = theme.font(11.0);
        for (index, point) in view.mark.iter().flat_map(|m| m.headlines) {
            let Some(curve) = curves.get(*index) else {
                continue;
            };
            let at = (100.0 * point.failure, value(point));
            let colour = theme.colour(curve.colour);
            chart.draw_series(std::iter::once(Circle::new(
                at,
                theme.px(7.0),
                colour.stroke_width(theme.px(2.0)),
            )))?;
            let name = if curve.name.is_empty() {
                "A"
            } else {
                curve.name
            };
            let (x, y) = chart.backend_coord(&at);
            let rows = (0..20).flat_map(|k| [y + step + k * step, y - 2 * step - k * step]);
            // In the curve's colour: on a narrow panel a label may stand
            // nearer the other policy's ring than its own.
            labels.put_anyway(
                area,
                &[tf!("headlines: {name}", name = name)],
                &small.clone().color(&colour),
                x + theme.px(6.0) as i32,
                rows,
            )?;
        }
        let done = curves.iter().map(|c| c.points.len()).min().unwrap_or(0);
        if done < points {
            let text = vec![tf!(
                "computing {done} of {points} points",
                done = done,
                points = points
            )];
            let [plot_left, plot_top, _, plot_bottom] = labels.plot;
            let rows = (0..(plot_bottom - plot_top) / step).map(|k| plot_top + 4 + k * step);
            labels.put_anyway(area, &text, &small, plot_left, rows)?;
        }
    }
    Ok(Axes {
        tops: [top_load, 0.0],
        floor: 0.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svg_test::*;

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

    /// The classic sweep of the classic preset's world, whole, with the
    /// mark of `config` (its failure rate and the headlines' run).
    fn classic(change: &str) -> (Vec<OwnedCurve>, f64, Point) {
        let preset = crate::presets::PRESETS
            .iter()
            .find(|p| p.key == "classic")
            .expect("the classic preset");
        let config = retry_sim::link::apply(&preset.config(), change);
        let curves = retry_analyses::sweep::curves(&config)
            .into_iter()
            .map(|c| {
                let points = retry_analyses::sweep::sweep(&c.config, retry_analyses::sweep::POINTS);
                OwnedCurve {
                    name: c.label.0,
                    points,
                    colour: c.colour,
                    dashed: c.dashed,
                }
            })
            .collect();
        let failure = config.get(retry_sim::config::P::Failure);
        let run = retry_sim::simulate::run(&config);
        (
            curves,
            failure,
            retry_analyses::sweep::point_of(failure, &run.summary),
        )
    }

    fn as_curves(owned: &[OwnedCurve]) -> Vec<Curve<'_>> {
        owned.iter().map(OwnedCurve::curve).collect()
    }

    /// The sweep marks the world: a line at its failure rate on both
    /// panels and a ring, on the "3 retries" curve, at the headlines' run,
    /// named. "Make the dependency fail 90 % of calls" moves the mark to
    /// 90 %, leaves the one at 10 % dotted, and keeps the axes.
    #[test]
    fn the_sweeps_mark_stands_at_the_worlds_failure_rate() {
        let theme = Theme::light(1.0);
        let (owned, failure, headline) = classic("");
        assert_eq!(failure, 0.1);
        let curves = as_curves(&owned);
        let headlines = [(1, headline)];
        let drawn = std::cell::Cell::new(None);
        let view = SweepView {
            mark: Some(SweepMark {
                failure,
                headlines: &headlines,
            }),
            ..SweepView::default()
        };
        let out = svg(|area| {
            drawn.set(Some(draw_sweep_view(
                area,
                &curves,
                retry_analyses::sweep::POINTS,
                &theme,
                &view,
            )?));
            Ok(())
        });
        assert!(out.contains("this world: 10 % failures"));
        assert_eq!(
            out.matches("headlines: 3 retries").count(),
            2,
            "named on both panels"
        );
        let mesh = mesh(&out, &theme, 20.0..400.0);
        // Two panels of grid lines at 0, 20, ... 100 %.
        let (left_panel, right_panel) = mesh.vertical.split_at(mesh.vertical.len() / 2);
        for (panel, top) in [
            (left_panel, 105.0),
            (right_panel, drawn.get().expect("drawn").tops[0]),
        ] {
            let x = |percent: f64| panel[0] + percent / 100.0 * (panel[panel.len() - 1] - panel[0]);
            let y = |value: f64| mesh.bottom - value / top * (mesh.bottom - mesh.top);
            // Not the axis' ticks, which hang below the plot.
            let marks: Vec<Vec<(f64, f64)>> = lines_in(&out, theme.foreground)
                .into_iter()
                .filter(|l| {
                    l.len() == 2
                        && l[0].0 == l[1].0
                        && (l[0].1 - l[1].1).abs() > 50.0
                        && l[0].0 > panel[0]
                        && l[0].0 < panel[panel.len() - 1]
                })
                .collect();
            assert_eq!(marks.len(), 1, "one mark on the panel");
            near(marks[0][0].0, x(10.0), "the mark at 10 %");
            let value = if top == 105.0 {
                100.0 * headline.success
            } else {
                headline.load
            };
            let ring = elements(&out, "circle")
                .into_iter()
                .find(|e| {
                    attr(e, "r") == "7"
                        && number(e, "cx") < panel[panel.len() - 1]
                        && number(e, "cx") > panel[0]
                })
                .expect("the headlines' ring");
            assert_eq!(
                attr(&ring, "stroke"),
                hex(theme.colour(3)),
                "on the 3 retries curve"
            );
            near(number(&ring, "cx"), x(10.0), "the ring at 10 %");
            near(
                number(&ring, "cy"),
                y(value),
                "the ring at the headline's number",
            );
        }
        // The change: the mark moves, the old one stays dotted, the axes stay.
        let (after, failure, headline) = classic("failure=0.9");
        assert_eq!(failure, 0.9);
        let new_curves = as_curves(&after);
        let headlines = [(1, headline)];
        let axes = drawn.get().expect("drawn");
        let view = SweepView {
            mark: Some(SweepMark {
                failure,
                headlines: &headlines,
            }),
            before: &curves,
            before_failure: Some(0.1),
            axes: Some(axes),
        };
        let kept = std::cell::Cell::new(None);
        let out = svg(|area| {
            kept.set(Some(draw_sweep_view(
                area,
                &new_curves,
                retry_analyses::sweep::POINTS,
                &theme,
                &view,
            )?));
            Ok(())
        });
        assert_eq!(kept.get(), Some(axes));
        assert!(out.contains("this world: 90 % failures"));
        let old_marks = lines_in(&out, ghost(&theme))
            .into_iter()
            .filter(|l| {
                l.len() == 2
                    && l[0].0 == l[1].0
                    && l[0].1 != l[1].1
                    && (l[0].1 - l[1].1).abs() < 10.0
            })
            .count();
        assert!(old_marks > 10, "the old mark, dotted");
        assert!(out.contains("before the change"));
    }

    /// No label of the sweep overlaps another or leaves the chart.
    #[test]
    fn sweep_labels_never_overlap_at_laptop_and_phone_sizes() {
        let (owned, failure, headline) = classic("");
        let curves = as_curves(&owned);
        let headlines = [(1, headline)];
        let view = SweepView {
            mark: Some(SweepMark {
                failure,
                headlines: &headlines,
            }),
            ..SweepView::default()
        };
        for (size, scale) in crate::load::tests::SIZES {
            let theme = Theme::light(scale);
            let out = svg_sized(size, |area| {
                draw_sweep_view(area, &curves[..], 21, &theme, &view).map(|_| ())
            });
            assert_texts_apart(&out, size, &format!("classic at {size:?}"));
            // Part of the way, saying so.
            let part: Vec<Curve> = curves
                .iter()
                .map(|c| Curve {
                    points: &c.points[..7],
                    ..*c
                })
                .collect();
            let out = svg_sized(size, |area| {
                draw_sweep_view(area, &part, 21, &theme, &view).map(|_| ())
            });
            assert!(out.contains("computing 7 of 21 points"), "{size:?}");
            assert_texts_apart(&out, size, &format!("classic part way at {size:?}"));
        }
    }
}
