//! The contention chart: calls and time to finish over many seeds, one
//! row per backoff variant.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::contention::{ContentionGrid, VariantRuns};

use super::{DrawResult, Entry, Theme, blend, header, label, message, round3, run_colour, tick};

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
            "last client done at (s)",
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
            // A phone's half panel has room for fewer numbers.
            .x_labels((panel.dim_in_pixel().0 / theme.px(70.0)).clamp(3, 5) as usize)
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
            // The row's name in words ("exponential, no jitter"), on two
            // lines where one would not fit beside the axis.
            let lines = crate::contention::row_name(variant.name);
            let second = !lines[1].is_empty();
            let step = theme.px(7.0) as i32;
            for (line, text) in lines.iter().enumerate().filter(|(_, t)| !t.is_empty()) {
                let dy = if second {
                    (2 * line as i32 - 1) * step
                } else {
                    0
                };
                label(
                    panel,
                    *text,
                    (x - theme.px(80.0) as i32, y + dy),
                    &theme.font(12.0).pos(Pos::new(HPos::Left, VPos::Center)),
                )?;
            }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::svg_test::*;

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
        // Rows say what each variant does, not the post's short names.
        let texts: Vec<&str> = out.lines().map(str::trim).collect();
        for words in ["no backoff", "exponential,", "no jitter", "decorrelated"] {
            assert!(texts.contains(&words), "{words}");
        }
        assert!(!texts.contains(&"none") && !texts.contains(&"exponential"));
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
