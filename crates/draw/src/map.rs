//! The map of metastability: a panel per policy, a cell per trigger
//! (its length across, its size or the load up), shaded by what became of
//! the world after it (see [`retry_analyses::map`]). The policy is the colour, as
//! in every chart; the outcome is how deep the shade is: recovered pale,
//! recovered late half way, stays broken deep. The world of the page is a
//! ring where its own capacity loss falls; a click on a cell opens that
//! cell's world ([`MapDrawn::cell_at`]).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use retry_core::tf;
use retry_core::words::tr;

use retry_analyses::map::{Map, Outcome, Rows};
use retry_sim::metrics::Side;

use super::{Entry, Sample, Theme, blend, deep, header, run_colour, tick};

/// What the map chart draws besides the map.
#[derive(Debug, Clone, Copy)]
pub struct MapView<'a> {
    /// The cells computed so far: each is final.
    pub map: &'a Map,
    /// Cells in the whole map, to say how far it got.
    pub total: usize,
    /// The page's world on the map's axes: its trigger's length and its
    /// row's value (size or load), when it has a capacity loss.
    pub world: Option<(f64, f64)>,
}

/// Where one policy's grid of cells was drawn, in device pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MapPanel {
    pub side: Side,
    pub left: f64,
    pub top: f64,
    pub cell_width: f64,
    pub cell_height: f64,
    pub columns: usize,
    pub rows: usize,
}

/// Where the map's grids were drawn, to find the cell under a click.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MapDrawn {
    pub panels: Vec<MapPanel>,
}

impl MapDrawn {
    /// The cell under device pixel `(x, y)`: its policy, row (from the
    /// bottom, the first row value) and column (the first length).
    pub fn cell_at(&self, x: f64, y: f64) -> Option<(Side, usize, usize)> {
        self.panels.iter().find_map(|p| {
            let column = ((x - p.left) / p.cell_width).floor();
            let from_top = ((y - p.top) / p.cell_height).floor();
            let inside = column >= 0.0
                && from_top >= 0.0
                && (column as usize) < p.columns
                && (from_top as usize) < p.rows;
            inside.then(|| (p.side, p.rows - 1 - from_top as usize, column as usize))
        })
    }
}

/// The shade of an outcome in a policy's colour: the worse, the deeper.
fn shade(theme: &Theme, colour: RGBColor, outcome: Outcome) -> RGBColor {
    match outcome {
        Outcome::Recovered => blend(theme.background, colour, 0.15),
        Outcome::RecoveredLate => blend(theme.background, colour, 0.55),
        Outcome::StaysBroken => deep(theme, colour),
        Outcome::NoGoodputBefore => theme.colour(7),
    }
}

/// Where `value` falls on an axis of cells whose centres are `values`, in
/// cells from the axis' start: between two centres in proportion, at the
/// first or last centre beyond them.
fn position(values: &[f64], value: f64) -> f64 {
    let Some(last) = values.len().checked_sub(1) else {
        return 0.0;
    };
    let Some(i) = values.windows(2).position(|w| value <= w[1]) else {
        return last as f64 + 0.5;
    };
    let (low, high) = (values[i], values[i + 1]);
    let within = ((value - low) / (high - low)).clamp(0.0, 1.0);
    if i == 0 && value < low {
        return 0.5;
    }
    i as f64 + within + 0.5
}

/// A row's value as its label: a share as a percentage.
fn percent(value: f64) -> String {
    format!("{:.0} %", value * 100.0)
}

/// Draws the map as far as it is computed; returns where its grids are.
pub fn draw_map<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    view: &MapView<'_>,
    theme: &Theme,
) -> Result<MapDrawn, Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    area.fill(&theme.background)?;
    let map = view.map;
    let (a, b) = (run_colour(theme, 0), run_colour(theme, 1));
    let two = map.sides.len() > 1;
    let also = two.then_some(b);
    let mut entries = vec![
        Entry::area(tr("recovered"), shade(theme, a, Outcome::Recovered))
            .and(also.map(|b| shade(theme, b, Outcome::Recovered))),
        Entry::area(
            tr("recovered late"),
            shade(theme, a, Outcome::RecoveredLate),
        )
        .and(also.map(|b| shade(theme, b, Outcome::RecoveredLate))),
        Entry::area(tr("stays broken"), shade(theme, a, Outcome::StaysBroken))
            .and(also.map(|b| shade(theme, b, Outcome::StaysBroken))),
    ];
    if map
        .cells
        .iter()
        .any(|c| c.outcome == Some(Outcome::NoGoodputBefore))
    {
        entries.push(Entry::area(
            tr("no goodput before the trigger"),
            theme.colour(7),
        ));
    }
    if view.world.is_some() {
        entries.push(Entry::new(tr("this world"), theme.foreground, Sample::Ring));
    }
    // What the rows are, in words: the panels have no room for an
    // axis' name beside their rows.
    entries.insert(
        0,
        Entry::new(
            match map.rows {
                Rows::Size => tr("up: the share of the workers lost"),
                Rows::Load => tr("up: the load, as a share of what the workers serve"),
            },
            theme.foreground,
            Sample::Words,
        ),
    );
    let done = map.cells.len();
    let missing = map.cells.iter().filter(|c| c.missing.is_some()).count();
    let progress = if done < view.total {
        Some(tf!(
            "computing\u{2026} {done} of {total} cells",
            done = done,
            total = view.total
        ))
    } else {
        (missing > 0).then(|| {
            tf!(
                "{missing} of {total} cells missing: the map's work budget is spent or a run reached its bounds",
                missing = missing,
                total = view.total
            )
        })
    };
    if let Some(text) = progress {
        entries.push(Entry::new(text, theme.foreground, Sample::Words));
    }
    let plot = header(area, &entries, theme)?;
    // Side by side at every width: stacked on a phone, each panel would
    // be too short for its rows.
    let parts = plot.split_evenly((1, map.sides.len().max(1)));
    let mut drawn = MapDrawn::default();
    for (index, (side, part)) in map.sides.iter().zip(&parts).enumerate() {
        drawn.panels.push(draw_panel(
            part,
            view,
            *side,
            run_colour(theme, index),
            theme,
        )?);
    }
    Ok(drawn)
}

fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    view: &MapView<'_>,
    side: Side,
    colour: RGBColor,
    theme: &Theme,
) -> Result<MapPanel, Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    let map = view.map;
    let (width, height) = area.dim_in_pixel();
    let (width, height) = (f64::from(width), f64::from(height));
    let s = theme.scale;
    let (left, right, top, bottom) = (40.0 * s, 8.0 * s, 40.0 * s, 40.0 * s);
    let (columns, rows) = (map.lengths.len(), map.row_values.len());
    let cell_width = ((width - left - right) / columns as f64).max(1.0);
    let cell_height = ((height - top - bottom) / rows as f64).max(1.0);
    let (x0, y0) = (
        area.get_base_pixel().0 as f64,
        area.get_base_pixel().1 as f64,
    );
    let px = |v: f64| v.round() as i32;
    let small = theme.font(12.0);

    // A cell's place follows from its index: row by row, column by
    // column, a cell per policy (see `Map::cells`).
    let sides = map.sides.len().max(1);
    let own = map.sides.iter().position(|&s| s == side).unwrap_or(0);
    let cells: Vec<_> = map
        .cells
        .iter()
        .enumerate()
        .filter(|(k, _)| k % sides == own)
        .map(|(k, cell)| (k / sides / columns, k / sides % columns, cell))
        .collect();
    let count = |o: Outcome| {
        cells
            .iter()
            .filter(|(_, _, c)| c.outcome == Some(o))
            .count()
    };
    let name = match side {
        _ if sides == 1 => String::new(),
        Side::A => "A: ".to_string(),
        Side::B => "B: ".to_string(),
    };
    // One short line that a phone's narrow panel holds in any language:
    // the policy, then each bad outcome's swatch (as the legend shows it)
    // and its count, then of how many triggers.
    let done = cells.iter().filter(|(_, _, c)| c.outcome.is_some()).count();
    let ink = deep(theme, colour);
    let text_style = small
        .clone()
        .color(&ink)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let (mut x, y) = (2.0 * s, 10.0 * s);
    let word = |text: String, x: &mut f64| -> Result<(), Box<dyn std::error::Error>> {
        let width = f64::from(area.estimate_text_size(&text, &small)?.0);
        area.draw(&Text::new(text, (px(*x), px(y)), text_style.clone()))?;
        *x += width + 6.0 * s;
        Ok(())
    };
    if !name.is_empty() {
        word(name.trim_end_matches(": ").to_string(), &mut x)?;
    }
    for outcome in [Outcome::StaysBroken, Outcome::RecoveredLate] {
        let half = 5.0 * s;
        area.draw(&Rectangle::new(
            [(px(x), px(y - half)), (px(x + 2.0 * half), px(y + half))],
            shade(theme, colour, outcome).filled(),
        ))?;
        x += 2.0 * half + 3.0 * s;
        word(count(outcome).to_string(), &mut x)?;
    }
    word(tf!("of {done}", done = done), &mut x)?;
    let corner = |row: usize, column: usize| {
        (
            left + column as f64 * cell_width,
            top + (rows - 1 - row) as f64 * cell_height,
        )
    };
    for row in 0..rows {
        for column in 0..columns {
            let (x, y) = corner(row, column);
            area.draw(&Rectangle::new(
                [(px(x), px(y)), (px(x + cell_width), px(y + cell_height))],
                theme.grid.stroke_width(theme.px(1.0)),
            ))?;
        }
    }
    let inset = f64::from(theme.px(1.0));
    for &(row, column, cell) in &cells {
        let (x, y) = corner(row, column);
        let corners = [
            (px(x + inset), px(y + inset)),
            (px(x + cell_width - inset), px(y + cell_height - inset)),
        ];
        match cell.outcome {
            Some(outcome) => area.draw(&Rectangle::new(
                corners,
                shade(theme, colour, outcome).filled(),
            ))?,
            // A missing cell: crossed out, not drawn as an outcome.
            None => area.draw(&PathElement::new(
                vec![corners[0], corners[1]],
                theme.colour(7).stroke_width(theme.px(1.0)),
            ))?,
        }
    }

    // The axes' words: lengths under the columns, values beside the rows.
    for (column, length) in map.lengths.iter().enumerate() {
        area.draw(&Text::new(
            tick(length),
            (
                px(left + (column as f64 + 0.5) * cell_width),
                px(top + rows as f64 * cell_height + 4.0 * s),
            ),
            small.pos(Pos::new(HPos::Center, VPos::Top)),
        ))?;
    }
    // Under the grid's middle, but kept inside the panel: on a phone a
    // language's longer words would run past the canvas' edge.
    let axis_name = tr("trigger length (s)");
    let half = f64::from(area.estimate_text_size(axis_name, &small)?.0) / 2.0;
    let middle = (left + columns as f64 * cell_width / 2.0)
        .clamp(half + s, (width - half - s).max(half + s));
    area.draw(&Text::new(
        axis_name.to_string(),
        (px(middle), px(height - 2.0 * s)),
        small.pos(Pos::new(HPos::Center, VPos::Bottom)),
    ))?;
    for (row, value) in map.row_values.iter().enumerate() {
        area.draw(&Text::new(
            percent(*value),
            (
                px(left - 4.0 * s),
                px(top + (rows as f64 - row as f64 - 0.5) * cell_height),
            ),
            small.pos(Pos::new(HPos::Right, VPos::Center)),
        ))?;
    }
    if let Some((length, value)) = view.world {
        let x = left + position(&map.lengths, length) * cell_width;
        let y = top + (rows as f64 - position(&map.row_values, value)) * cell_height;
        let ring = theme.foreground.stroke_width(theme.px(2.0));
        area.draw(&Circle::new((px(x), px(y)), theme.px(6.0), ring))?;
        area.draw(&Circle::new(
            (px(x), px(y)),
            theme.px(8.0),
            theme.background.stroke_width(theme.px(1.0)),
        ))?;
    }
    Ok(MapPanel {
        side,
        left: x0 + left,
        top: y0 + top,
        cell_width,
        cell_height,
        columns,
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svg_test::svg;
    use retry_analyses::map;
    use retry_sim::config::Config;

    const WORLD: &str = "v=1&compare=on&attempts=5&shape=constant&base=0.001&jitter=none\
        &timeout=1&rate=65&failure=0&workers=10&queue=1000&service_t=0.1&B.shape=exponential\
        &B.base=0.1&B.cap=10&B.jitter=full&B.budget=ratio&B.b_floor=1&B.b_basis=requests";

    #[test]
    fn a_point_on_an_axis_of_cells_falls_between_their_centres() {
        let lengths = map::LENGTHS;
        assert_eq!(position(&lengths, 1.0), 0.5);
        assert_eq!(position(&lengths, 10.0), 5.5);
        assert_eq!(position(&lengths, 4.0), 2.5 + 0.5);
        assert_eq!(position(&lengths, 0.2), 0.5);
        assert_eq!(position(&lengths, 60.0), 7.5);
    }

    /// The cell under a click is the cell drawn there: every cell's centre
    /// maps back to its row and column, and a point outside the grids to
    /// none.
    #[test]
    fn a_click_finds_the_cell_drawn_under_it() {
        let config = Config::from_link(WORLD).0;
        let map = map::map_within(&config, map::Rows::Size, 0);
        let view = MapView {
            map: &map,
            total: map.cells.len(),
            world: None,
        };
        let drawn = std::cell::RefCell::new(MapDrawn::default());
        svg(|area| {
            *drawn.borrow_mut() = draw_map(area, &view, &Theme::light(1.0))?;
            Ok(())
        });
        let drawn = drawn.into_inner();
        assert_eq!(drawn.panels.len(), 2);
        for p in &drawn.panels {
            for row in 0..p.rows {
                for column in 0..p.columns {
                    let x = p.left + (column as f64 + 0.5) * p.cell_width;
                    let y = p.top + (p.rows - row) as f64 * p.cell_height - p.cell_height / 2.0;
                    assert_eq!(drawn.cell_at(x, y), Some((p.side, row, column)));
                }
            }
        }
        assert!(drawn.panels[1].left > drawn.panels[0].left);
        assert_eq!(drawn.cell_at(1.0, 1.0), None);
    }

    /// A cell's shade is its outcome's in its policy's colour, and each
    /// cell is drawn once: on a map of two cells per policy, each filled
    /// rectangle of the right colour stands in its policy's panel.
    #[test]
    fn each_outcome_has_its_shade_of_the_policys_colour() {
        let theme = Theme::light(1.0);
        let (a, b) = (run_colour(&theme, 0), run_colour(&theme, 1));
        let outcomes = [
            Outcome::Recovered,
            Outcome::RecoveredLate,
            Outcome::StaysBroken,
        ];
        let mut seen = Vec::new();
        for colour in [a, b] {
            for outcome in outcomes {
                let fill = shade(&theme, colour, outcome);
                assert!(!seen.contains(&fill), "{outcome:?} shares a shade");
                seen.push(fill);
            }
        }
        // Worse is deeper: further from the background.
        let distance = |c: RGBColor| {
            let bg = theme.background;
            (i32::from(c.0) - i32::from(bg.0)).abs()
                + (i32::from(c.1) - i32::from(bg.1)).abs()
                + (i32::from(c.2) - i32::from(bg.2)).abs()
        };
        for colour in [a, b] {
            let d: Vec<i32> = outcomes
                .iter()
                .map(|&o| distance(shade(&theme, colour, o)))
                .collect();
            assert!(d[0] < d[1] && d[1] < d[2], "{d:?}");
        }
    }
}
