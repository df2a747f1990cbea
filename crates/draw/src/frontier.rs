//! The frontier of a search for a better policy: user-visible success
//! against server calls per operation, a dot per policy searched, the
//! policies no other beats on both joined, each with its spread over the
//! seeds; policy A (blue) and B (vermillion) ringed where they stand, and
//! the policies that beat A's numbered as the list beside the chart
//! numbers them.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use retry_core::tf;
use retry_core::words::tr;

use retry_analyses::search::{Frontier, Measure};

use super::{Entry, Frame, Sample, Theme, axes, blend, header, label, run_colour};

/// What the frontier chart draws.
#[derive(Debug, Clone, Copy)]
pub struct FrontierView<'a> {
    pub frontier: &'a Frontier,
    /// The index into `frontier.candidates` of policy B's own, in compare
    /// mode.
    pub b: Option<usize>,
}

/// Draws the search as far as it got.
pub fn draw_frontier<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    view: &FrontierView<'_>,
    theme: &Theme,
) -> super::DrawResult
where
    DB::ErrorType: 'static,
{
    area.fill(&theme.background)?;
    let found = view.frontier;
    let (a, b) = (run_colour(theme, 0), run_colour(theme, 1));
    let dot = blend(theme.background, theme.foreground, 0.45);
    let faint = blend(theme.background, theme.foreground, 0.28);
    let mut entries = vec![
        Entry::dot(tr("a policy, on every seed"), dot),
        Entry::dot(tr("on fewer seeds"), faint),
        Entry::line(tr("the frontier, with its spread"), theme.foreground, false),
        Entry::new(tr("A, yours"), a, Sample::Ring),
    ];
    if view.b.is_some() {
        entries.push(Entry::new("B", b, Sample::Ring));
    }
    let plot = header(area, &entries, theme)?;
    let ranked = || {
        found
            .candidates
            .iter()
            .filter(|m| !m.cut && !m.seeds.is_empty())
    };
    // From the fewest calls (under one where a breaker refuses attempts
    // before they reach the server) to the most.
    let most = ranked().map(|m| m.calls.max).fold(1.0, f64::max);
    let fewest = ranked().map(|m| m.calls.min).fold(1.0, f64::min);
    let x_high = (most * 1.08).max(1.2);
    let x_low = (fewest - 0.05 * (x_high - fewest)).max(0.0);
    let mut chart = axes(
        &plot,
        theme,
        x_low..x_high,
        0.0..105.0,
        Frame::new(
            tr("server calls per operation"),
            tr("user-visible success (%)"),
        ),
    )?;
    let whole = |m: &&Measure| m.seeds.len() as u64 == retry_analyses::search::SEEDS;
    let small = theme.px(2.0);
    chart.draw_series(ranked().filter(|m| m.same_as.is_none()).map(|m| {
        let colour = if whole(&m) { dot } else { faint };
        Circle::new(
            (m.calls.mean, 100.0 * m.success.mean),
            small,
            colour.filled(),
        )
    }))?;
    let mut frontier: Vec<&Measure> = found.candidates.iter().filter(|m| m.frontier).collect();
    retry_core::sort::sort_by(&mut frontier, |x, y| x.calls.mean.total_cmp(&y.calls.mean));
    let ink = theme.foreground.stroke_width(theme.px(2.0));
    // The spread faint, so that a policy whose seeds disagree widely does
    // not hide the frontier behind its bars.
    let thin = blend(theme.background, theme.foreground, 0.3).stroke_width(theme.px(1.0));
    chart.draw_series(std::iter::once(PathElement::new(
        frontier
            .iter()
            .map(|m| (m.calls.mean, 100.0 * m.success.mean))
            .collect::<Vec<_>>(),
        ink,
    )))?;
    for m in &frontier {
        let (x, y) = (m.calls.mean, 100.0 * m.success.mean);
        chart.draw_series([
            PathElement::new(
                vec![(x, 100.0 * m.success.min), (x, 100.0 * m.success.max)],
                thin,
            ),
            PathElement::new(vec![(m.calls.min, y), (m.calls.max, y)], thin),
        ])?;
        chart.draw_series(std::iter::once(Circle::new(
            (x, y),
            theme.px(3.0),
            theme.foreground.filled(),
        )))?;
    }
    let font = theme.font(12.0);
    let mut ring = |m: &Measure, colour: RGBColor, name: &str| -> super::DrawResult {
        let at = (m.calls.mean, 100.0 * m.success.mean);
        chart.draw_series(std::iter::once(Circle::new(
            at,
            theme.px(7.0),
            colour.stroke_width(theme.px(2.0)),
        )))?;
        let (x, y) = chart.backend_coord(&at);
        label(
            area,
            name.to_string(),
            (x + theme.px(9.0) as i32, y - theme.px(9.0) as i32),
            &font.color(&colour).pos(Pos::new(HPos::Left, VPos::Bottom)),
        )
    };
    if let Some(yours) = found.yours() {
        ring(yours, a, "A")?;
    }
    if let Some(m) = view.b.and_then(|k| found.candidates.get(k)) {
        ring(m, b, "B")?;
    }
    // The better policies numbered as the list beside the chart: a badge
    // up and left of each point, over whatever is drawn there.
    for (n, &k) in found.better.iter().enumerate() {
        let m = &found.candidates[k];
        let (x, y) = chart.backend_coord(&(m.calls.mean, 100.0 * m.success.mean));
        let badge = (x - theme.px(11.0) as i32, y - theme.px(11.0) as i32);
        let (base_x, base_y) = area.get_base_pixel();
        let at = (badge.0 - base_x, badge.1 - base_y);
        area.draw(&Circle::new(at, theme.px(8.0), theme.background.filled()))?;
        area.draw(&Circle::new(
            at,
            theme.px(8.0),
            theme.foreground.stroke_width(theme.px(1.0)),
        ))?;
        label(
            area,
            format!("{}", n + 1),
            badge,
            &font.pos(Pos::new(HPos::Center, VPos::Center)),
        )?;
    }
    if !found.done {
        let (width, _) = area.dim_in_pixel();
        label(
            area,
            tf!("searching\u{2026} {runs} runs", runs = found.runs),
            (
                width as i32 - theme.px(16.0) as i32,
                area.dim_in_pixel().1 as i32 - theme.px(60.0) as i32,
            ),
            &font.pos(Pos::new(HPos::Right, VPos::Bottom)),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svg_test::{attr, elements, hex, lines_in, number, svg};
    use retry_analyses::search::Constraints;

    fn measure(index: usize, success: f64, calls: f64, frontier: bool) -> Measure {
        Measure {
            frontier,
            ..Measure::fixed(index, success, calls)
        }
    }

    /// The frontier is one line through its points, fewest calls first,
    /// at their numbers on the axes; A is ringed in blue at its own.
    #[test]
    fn the_frontier_joins_its_points_and_a_is_ringed_where_it_stands() {
        let found = Frontier {
            constraints: Constraints::default(),
            total: 4,
            candidates: vec![
                measure(0, 0.6, 7.0, false),
                measure(1, 1.0, 3.5, true),
                measure(2, 0.5, 3.0, true),
                measure(3, 0.0, 1.0, true),
            ],
            better: vec![1],
            b: None,
            runs: 20,
            cut: 0,
            done: true,
            work: 0,
            budget: 1,
        };
        let theme = Theme::light(1.0);
        let out = svg(|area| {
            draw_frontier(
                area,
                &FrontierView {
                    frontier: &found,
                    b: None,
                },
                &theme,
            )
        });
        let lines = lines_in(&out, theme.foreground);
        let line = lines
            .iter()
            .find(|l| l.len() == 3)
            .expect("the frontier's line of three points");
        assert!(line[0].0 < line[1].0 && line[1].0 < line[2].0, "{line:?}");
        // Higher success is higher on the page: the cheapest has none.
        assert!(line[0].1 > line[1].1 && line[1].1 > line[2].1, "{line:?}");
        let blue = hex(run_colour(&theme, 0));
        let ring = elements(&out, "circle")
            .into_iter()
            .find(|c| attr(c, "stroke") == blue && number(c, "r") == 7.0)
            .expect("A's ring");
        // A (7 calls, 60 %) is right of the frontier's last point and
        // between its second and third in height.
        assert!(number(&ring, "cx") > line[2].0);
        assert!(number(&ring, "cy") < line[1].1 && number(&ring, "cy") > line[2].1);
    }
}
