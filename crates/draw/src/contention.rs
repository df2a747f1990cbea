//! The contention chart: calls and time to finish over many seeds, one
//! row per backoff variant.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use retry_core::tf;
use retry_core::words::tr;

use retry_analyses::contention::{ContentionGrid, VariantRuns};

use super::{
    Axes, DrawResult, Entry, Sample, Theme, blend, ghost, header, kept_top, label, message, round3,
    run_colour, tick,
};

/// What the contention chart shows besides the grid.
#[derive(Debug, Clone, Copy, Default)]
pub struct ContentionView<'a> {
    /// The run the headline numbers come from (policy A, the page's seed):
    /// its calls and when its last client was done, on a row of its own.
    pub headline: Option<(f64, f64)>,
    /// The state before a change: its grid's means and its headline run,
    /// faint; its axes, kept while the new runs fit (calls, then time).
    pub before: Option<&'a ContentionGrid>,
    pub before_headline: Option<(f64, f64)>,
    pub axes: Option<Axes>,
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
    draw_contention_view(area, grid, theme, &ContentionView::default()).map(|_| ())
}

/// [`draw_contention`] with the headlines' own run on a row of its own,
/// in A's colour (it is policy A's, not one of the variants: the numbers
/// beside the chart are found there), and after a change the state before
/// it faint. The means are drawn in the foreground's colour: the variants
/// are no policy of the page. Returns the axes drawn.
pub fn draw_contention_view<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    grid: &ContentionGrid,
    theme: &Theme,
    view: &ContentionView,
) -> Result<Axes, Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    if grid.variants.is_empty() || grid.seeds.is_empty() {
        message(area, theme, tr("No contention runs to show."))?;
        return Ok(Axes::default());
    }
    area.fill(&theme.background)?;
    // In parts, so that a phone wraps them into lines.
    let world = tf!(
        "{clients} clients, base {base} s, cap {cap} s:",
        clients = grid.clients,
        base = tick(&grid.base),
        cap = tick(&grid.cap)
    );
    let dot = blend(theme.background, theme.foreground, 0.45);
    let plot = header(
        area,
        &[
            Entry::new(world, theme.foreground, Sample::Words),
            Entry::dot(tf!("{n} seeds per variant", n = grid.seeds.len()), dot),
            Entry::line(tr("their mean"), theme.foreground, false),
            Entry::new(tr("before the change"), ghost(theme), Sample::Ring),
        ][..if view.before.is_some() || view.before_headline.is_some() {
            4
        } else {
            3
        }],
        theme,
    )?;
    // Side by side where each half keeps room for its axis' words, else
    // one above the other (a phone).
    let (width, height) = plot.dim_in_pixel();
    let (left, right) = if width < theme.px(600.0) {
        plot.split_vertically(height / 2)
    } else {
        plot.split_horizontally(width / 2)
    };
    type Values = fn(&VariantRuns) -> Vec<f64>;
    type Mean = fn(&VariantRuns) -> f64;
    let calls: Values = |v| v.calls.iter().map(|&c| c as f64).collect();
    let completion: Values = |v| v.completion.clone();
    let mean_calls: Mean = VariantRuns::mean_calls;
    let mean_completion: Mean = VariantRuns::mean_completion;
    let own = usize::from(view.headline.is_some());
    let rows = (grid.variants.len() + own) as f64;
    let mark = theme.foreground;
    let mut tops = [0.0; 2];
    type Own = fn((f64, f64)) -> f64;
    let (own_calls, own_time): (Own, Own) = (|(calls, _)| calls, |(_, time)| time);
    for (index, panel, x_label, values, mean, of_own) in [
        (0, &left, tr("server calls"), calls, mean_calls, own_calls),
        (
            1,
            &right,
            tr("last client done at (s)"),
            completion,
            mean_completion,
            own_time,
        ),
    ] {
        let needed = grid
            .variants
            .iter()
            .chain(view.before.iter().flat_map(|b| &b.variants))
            .flat_map(values)
            .chain(
                view.headline
                    .iter()
                    .chain(&view.before_headline)
                    .map(|h| of_own(*h)),
            )
            .fold(0.0, f64::max)
            .max(1e-3);
        let x_high = kept_top(view.axes, index, needed, needed * 1.08);
        tops[index] = x_high;
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
        let (fewest, seconds) = if index == 0 {
            (tr("fewest"), false)
        } else {
            (tr("soonest"), true)
        };
        // A mean as its label writes it: calls, or seconds.
        let written = |x: f64| match seconds {
            true => tf!("{t} s", t = tick(&round3(x))),
            false => tick(&round3(x)),
        };
        // The means before the change, ghost, on the same rows.
        for (k, variant) in view
            .before
            .iter()
            .flat_map(|b| b.variants.iter().enumerate())
        {
            let middle = rows - k as f64 - 0.5;
            let average = mean(variant);
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(average, middle - 0.3), (average, middle + 0.3)],
                ghost(theme).stroke_width(theme.px(3.0)),
            )))?;
        }
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
            // lines where one would not fit beside the axis, in a font
            // small enough for its lines to stay within the row's height
            // (many rows on a short panel: a phone).
            let lines = retry_analyses::contention::row_name(variant.name);
            let count = if lines[1].is_empty() { 1.0 } else { 2.0 };
            let pitch = f64::from((chart.backend_coord(&(0.0, middle - 1.0)).1 - y).abs());
            let size = (pitch / theme.scale / (1.2 * count + 0.2)).clamp(7.0, 12.0);
            let step = (0.6 * size * theme.scale).round() as i32;
            for (line, text) in lines.iter().enumerate().filter(|(_, t)| !t.is_empty()) {
                let dy = if count > 1.0 {
                    (2 * line as i32 - 1) * step
                } else {
                    0
                };
                label(
                    panel,
                    *text,
                    (x - theme.px(80.0) as i32, y + dy),
                    &theme.font(size).pos(Pos::new(HPos::Left, VPos::Center)),
                )?;
            }
            let (mx, my) = chart.backend_coord(&(average, middle + 0.3));
            let value = written(average);
            let text = if average == best {
                format!("{value} ({fewest})")
            } else {
                value
            };
            label(
                panel,
                text,
                (mx + theme.px(4.0) as i32, my),
                &theme.font(11.0).pos(Pos::new(HPos::Left, VPos::Bottom)),
            )?;
        }
        // The headlines' own run, on the last row.
        if let Some(run) = view.headline {
            let colour = run_colour(theme, 0);
            let middle = 0.5;
            if let Some(was) = view.before_headline {
                chart.draw_series(std::iter::once(Circle::new(
                    (of_own(was), middle),
                    theme.px(5.0),
                    ghost(theme).stroke_width(theme.px(2.0)),
                )))?;
            }
            let at = (of_own(run), middle);
            chart.draw_series(std::iter::once(Circle::new(
                at,
                theme.px(5.0),
                colour.stroke_width(theme.px(2.0)),
            )))?;
            let (x, y) = chart.backend_coord(&(0.0, middle));
            // One run, where the rows above hold a cluster of seeds each:
            // said, so that a run outside its cluster reads as one; sized
            // as the rows' names are, to the row's height.
            let pitch = f64::from((chart.backend_coord(&(0.0, middle + 1.0)).1 - y).abs());
            let size = (pitch / theme.scale / 2.6).clamp(7.0, 12.0);
            let step = (0.6 * size * theme.scale).round() as i32;
            let lines = if size >= 10.0 {
                vec![(tr("A (headlines)"), -step), (tr("one run"), step)]
            } else {
                vec![(tr("A (headlines)"), 0)]
            };
            for (text, dy) in lines {
                label(
                    panel,
                    text,
                    (x - theme.px(80.0) as i32, y + dy),
                    &theme
                        .font(size)
                        .color(&colour)
                        .pos(Pos::new(HPos::Left, VPos::Center)),
                )?;
            }
            let (mx, my) = chart.backend_coord(&at);
            label(
                panel,
                written(of_own(run)),
                (mx + theme.px(8.0) as i32, my),
                &theme
                    .font(11.0)
                    .color(&colour)
                    .pos(Pos::new(HPos::Left, VPos::Center)),
            )?;
        }
    }
    Ok(Axes { tops, floor: 0.0 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svg_test::*;
    use plotters::style::RGBColor;

    /// The contention chart: one row per variant in each panel, a dot per
    /// seed and a bar at the mean; a linear axis keeps means, so the bar
    /// stands at the mean of its dots' pixels.
    #[test]
    fn contention_bars_stand_at_the_mean_of_their_dots() {
        let (config, _) = retry_sim::config::Config::from_link(
            "v=1&attempts=50&base=0.01&cap=2&workload=contention&clients=20&horizon=10&hop=normal\
             &hop_mean=0.01",
        );
        let grid = retry_analyses::contention::contention_grid(&config, 6);
        let theme = Theme::light(1.0);
        let out = svg(|area| draw_contention(area, &grid, &theme));
        // The means: thick vertical strokes in the foreground's colour.
        let bars: Vec<Vec<(f64, f64)>> = elements(&out, "polyline")
            .into_iter()
            .filter(|e| {
                attr(e, "stroke") == hex(theme.foreground) && attr(e, "stroke-width") == "3"
            })
            .map(|e| points(&e))
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

    /// The headlines' own run (A's, the page's seed) stands on a row of its
    /// own in A's colour, at the numbers the headlines print; after "take
    /// the jitter away" it moves (the grid, which runs every jitter, does
    /// not), the ring before the change stays ghost, and the axes stay
    /// while the new run fits.
    #[test]
    fn the_headlines_run_has_a_row_and_a_change_moves_it() {
        let config = preset("contention").config();
        let grid = retry_analyses::contention::contention_grid(&config, 4);
        let own = |config: &retry_sim::config::Config| {
            let summary = retry_sim::simulate::run(config).summary;
            (
                (summary.first_tries + summary.retries) as f64,
                summary.finished_at,
            )
        };
        let before = own(&config);
        let theme = Theme::light(1.0);
        let view = ContentionView {
            headline: Some(before),
            ..ContentionView::default()
        };
        let axes = std::cell::Cell::new(None);
        let out = svg(|area| {
            axes.set(Some(draw_contention_view(area, &grid, &theme, &view)?));
            Ok(())
        });
        assert_eq!(out.matches("A (headlines)").count(), 2);
        // One run, where each row above is a cluster of seeds: said.
        assert_eq!(out.matches("one run").count(), 2);
        assert!(out.contains(&format!(">\n{}\n<", tick(&round3(before.0)))));
        let rings = |out: &str, colour: RGBColor| -> Vec<(f64, f64)> {
            elements(out, "circle")
                .into_iter()
                .filter(|e| attr(e, "stroke") == hex(colour) && attr(e, "r") == "5")
                .map(|e| (number(&e, "cx"), number(&e, "cy")))
                .collect()
        };
        let blue = run_colour(&theme, 0);
        assert_eq!(rings(&out, blue).len(), 2, "one ring a panel");
        let changed = retry_sim::link::apply(&config, "jitter=none");
        assert_eq!(
            retry_analyses::contention::contention_grid(&changed, 4),
            grid,
            "the grid runs every jitter"
        );
        let after = own(&changed);
        assert!(
            after.1 > before.1,
            "without jitter A's last client is done later"
        );
        let kept = axes.get().expect("drawn");
        let view = ContentionView {
            headline: Some(after),
            before: Some(&grid),
            before_headline: Some(before),
            axes: Some(kept),
        };
        let drawn = std::cell::Cell::new(None);
        let moved = svg(|area| {
            drawn.set(Some(draw_contention_view(area, &grid, &theme, &view)?));
            Ok(())
        });
        let fits = after.0 <= kept.tops[0] && after.1 <= kept.tops[1];
        if fits {
            assert_eq!(drawn.get(), Some(kept), "the axes stay");
        } else {
            let widened = drawn.get().expect("drawn");
            assert!(widened.tops[0] >= after.0 && widened.tops[1] >= after.1);
        }
        assert_eq!(
            rings(&moved, ghost(&theme)).len(),
            2,
            "the ring before, faint"
        );
        assert_ne!(rings(&moved, blue), rings(&out, blue), "the ring moved");
    }
}
