//! The pause chart: per retry, the pauses taken and the range the
//! policy's formula allows.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use retry_core::tf;
use retry_core::words::tr;

use retry_sim::sim::PAUSE_HISTOGRAMS;

use super::{
    DrawResult, Entry, Plotted, Theme, header, label, light, message, path, run_colour, tick,
};

/// The pauses taken before each retry, as small multiples: one row per
/// retry number with every policy's histogram on it (A filled, B dashed
/// outline; each scaled to its own tallest bin, since the point is where
/// the pauses fall) and, in a strip of its own at the row's top, the
/// range the policy's formula allows, shaded, with its mean as a tick.
pub fn draw_pauses<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    runs: &[Plotted],
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
        retry_core::sort::sort_by_key(&mut retries, |&retry| retry);
        retries.dedup();
        retries
    };
    if rows.is_empty() {
        // In a chain the chart is the top's: the services below may have
        // retried all the same.
        let chain = runs
            .iter()
            .any(|run| run.report.summary.attempts_by_layer.len() > 1);
        let why = match chain {
            true => tr(
                "The top did not retry: no pauses to show (this chart is the top's; the services below are in the calls per layer).",
            ),
            false => tr("No retry happened: no pauses to show."),
        };
        return message(area, theme, why);
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
            format!("{}{}", run.prefix(), tr("pauses taken")),
            colour,
            run.dashed(r),
        ));
        entries.push(Entry::area(
            format!("{}{}", run.prefix(), tr("range of its formula, | mean")),
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
        .x_desc(tr("pause before the retry (s)"))
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
            tf!("retry {n}+", n = retry + 1)
        } else {
            tf!("retry {n}", n = retry + 1)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svg_test::*;
    use retry_core::policy::PauseBounds;
    use retry_sim::sim::{Scenario, run};

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

    /// The pause chart's rows: each retry on its own row, A's and B's
    /// range strips on the same row, spanning the formula's range, with
    /// the mean as a tick on the strip; the x axis ends just past the
    /// widest range.
    #[test]
    fn pause_rows_put_ranges_and_means_where_they_belong() {
        let compared = Compared::new();
        let runs = compared.runs();
        let [bounds_a, bounds_b] = &compared.bounds;
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
}
