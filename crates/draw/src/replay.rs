//! The replay: each lane follows a client's operations, read left to right
//! from its client through the network to the server's queue and workers;
//! a dot shows where its request is at the instant drawn. A herd is a
//! column of dots moving together; jitter scatters the column. As many
//! lanes are drawn as can be told apart ([`lane_room`]); which operations
//! they show is the view's choice (`view::replay::lay_out`).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use retry_core::tf;
use retry_core::words::tr;

use retry_sim::sim::Scenario;

use super::{DrawResult, Theme, deep, light, run_colour};

/// Where an operation stands at an instant.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Spot {
    /// Not started yet.
    NotYet,
    /// At its client: before its first try, or pausing before a retry.
    Pausing,
    /// Its request on the way to the server, `0` (just sent) to `1`.
    Outbound(f64),
    /// Waiting for a worker (or, in a hanging outage, for nothing).
    Queued,
    InService,
    /// The answer on its way back, `1` (just left) to `0` (arrived);
    /// `true` for a success.
    Returning(f64, bool),
    /// Ended: `true` for a success.
    Done(bool),
}

impl Spot {
    pub fn at_server(self) -> bool {
        matches!(self, Spot::Queued | Spot::InService)
    }
}

/// Calls a lane shows beside its latest: all of a hedge's others (gRFC
/// A6 sends at most five copies), or as many of a chain's calls for
/// nobody.
pub const BESIDE: usize = 4;

/// What a call drawn beside a lane's latest is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Beside {
    /// A hedge's first call, still out.
    First,
    /// A hedged copy.
    Copy,
    /// A call a service of a chain made for a caller that had already
    /// given up, or that goes on after its operation ended.
    ForNobody,
}

/// A followed operation at an instant: where it stands, whether the call
/// out is a retry or a hedged copy, and where its other calls still out
/// stand: a hedge's, or a chain's for nobody.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lane {
    pub spot: Spot,
    pub retry: bool,
    pub copy: bool,
    pub beside: [Option<(Spot, Beside)>; BESIDE],
}

impl Lane {
    /// A lane whose one call (or none) stands at `spot`.
    pub const fn at(spot: Spot, retry: bool) -> Lane {
        Lane {
            spot,
            retry,
            copy: false,
            beside: [None; BESIDE],
        }
    }
}

/// One policy's panel: its name ("A", "B", or empty alone), where its
/// followed operations stand, and what the whole run's server holds then
/// (time-averaged over the bucket).
#[derive(Debug, Clone, Copy)]
pub struct ReplayPanel<'a> {
    pub name: &'a str,
    pub lanes: &'a [Lane],
    pub busy: f64,
    pub queued: f64,
}

/// Where the zones of a panel stand, in pixels from its left edge.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Zones {
    /// The clients' column (pausing, done).
    pub client: f64,
    /// The network, from the client's side to the server's.
    pub wire: (f64, f64),
    /// The server's queue and its workers, each a span.
    pub queue: (f64, f64),
    pub workers: (f64, f64),
}

impl Zones {
    pub fn new(width: f64) -> Self {
        let at = |share: f64| share * width;
        Self {
            client: at(0.05),
            wire: (at(0.1), at(0.56)),
            queue: (at(0.6), at(0.78)),
            workers: (at(0.8), at(0.98)),
        }
    }

    /// Where a lane's dot stands, `None` before its operation starts.
    pub fn x(&self, spot: Spot) -> Option<f64> {
        let middle = |(from, to): (f64, f64)| (from + to) / 2.0;
        let along = |share: f64| self.wire.0 + share * (self.wire.1 - self.wire.0);
        Some(match spot {
            Spot::NotYet => return None,
            Spot::Pausing | Spot::Done(_) => self.client,
            Spot::Outbound(share) | Spot::Returning(share, _) => along(share),
            Spot::Queued => middle(self.queue),
            Spot::InService => middle(self.workers),
        })
    }
}

/// Space above the lanes for the zones' names, in CSS pixels.
const HEADER: f64 = 34.0;
/// Space below the lanes for the server's totals, in CSS pixels.
const FOOTER: f64 = 20.0;
/// Least distance between two lanes, in CSS pixels, at which their dots
/// stand apart (see the radius in `draw_panel`): closer, two hundred lanes
/// in a laptop's panel blur into a bar.
const LANE_PITCH: f64 = 9.0;

/// Whether `panels` panels stand one above the other on a canvas `width`
/// device pixels wide: side by side, a panel needs room for its five zone
/// labels; on a phone A stands above B instead.
fn stacked(width: u32, panels: usize, theme: &Theme) -> bool {
    f64::from(width) / (panels.max(1) as f64) < f64::from(theme.px(320.0))
}

/// How many lanes a panel of a canvas of `size` device pixels holds with
/// `panels` panels drawn on it, each lane far enough from the next for
/// its dots to be told apart.
pub fn lane_room(size: (u32, u32), panels: usize, theme: &Theme) -> usize {
    let (width, height) = size;
    let height = if stacked(width, panels, theme) {
        f64::from(height) / panels.max(1) as f64
    } else {
        f64::from(height)
    };
    let lanes = (height / theme.scale - HEADER - FOOTER) / LANE_PITCH;
    (lanes.floor() as usize).max(1)
}

/// Draws the replay at one instant: one panel per policy side by side, on
/// the same clock. Colour is the policy's, as in every chart; the fill says
/// the kind: a first try solid, a retry light, a hedged copy a light
/// diamond beside the calls still out, a failed answer a ring (or a
/// diamond's outline) in the deeper shade, a pausing client a ring, an
/// operation that ended a small square (light for a success, grey for a
/// failure), a call a chain's service made for nobody a grey dot.
pub fn draw_replay<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    panels: &[ReplayPanel<'_>],
    scenario: &Scenario,
    theme: &Theme,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    area.fill(&theme.background)?;
    if panels.is_empty() {
        return Ok(());
    }
    let parts = if stacked(area.dim_in_pixel().0, panels.len(), theme) {
        area.split_evenly((panels.len(), 1))
    } else {
        area.split_evenly((1, panels.len()))
    };
    for (index, (panel, part)) in panels.iter().zip(&parts).enumerate() {
        draw_panel(part, panel, index, scenario, theme)?;
    }
    Ok(())
}

fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    panel: &ReplayPanel<'_>,
    index: usize,
    scenario: &Scenario,
    theme: &Theme,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let colour = run_colour(theme, index);
    let (width, height) = area.dim_in_pixel();
    let (width, height) = (f64::from(width), f64::from(height));
    let zones = Zones::new(width);
    let scale = theme.scale;
    let top = HEADER * scale;
    let bottom = (height - FOOTER * scale).max(top + 1.0);
    let px = |x: f64| x.round() as i32;
    let shade = theme.grid.mix(0.6);
    for span in [zones.queue, zones.workers] {
        area.draw(&Rectangle::new(
            [(px(span.0), px(top)), (px(span.1), px(bottom))],
            shade.filled(),
        ))?;
    }
    area.draw(&PathElement::new(
        vec![(px(zones.wire.0), px(top)), (px(zones.wire.0), px(bottom))],
        theme.grid.stroke_width(theme.px(1.0)),
    ))?;
    let small = theme.font(12.0);
    let name = if panel.name.is_empty() {
        tr("clients").to_string()
    } else {
        tf!("{name}: clients", name = panel.name)
    };
    let heading = |text: String, x: f64, row: f64, anchor: HPos| {
        Text::new(
            text,
            (px(x), px(row * scale)),
            small.pos(Pos::new(anchor, VPos::Top)),
        )
    };
    area.draw(&heading(name, 2.0 * scale, 2.0, HPos::Left))?;
    area.draw(&heading(
        tr("network").to_string(),
        (zones.wire.0 + zones.wire.1) / 2.0,
        2.0,
        HPos::Center,
    ))?;
    let server = if scenario.workers == 0 {
        (tr("queue").to_string(), tr("workers: any").to_string())
    } else {
        (
            tf!("queue ≤ {n}", n = scenario.queue_limit),
            tf!("{n} {n|worker|workers}", n = scenario.workers),
        )
    };
    // A zone's label that would run past it is written smaller, and a
    // footer in its short form if need be (a phone's narrow panel).
    let fitted = |options: &[String], span: (f64, f64)| {
        let fits = |text: &String, size: f64| {
            area.estimate_text_size(text, &theme.font(size))
                .is_ok_and(|(w, _)| f64::from(w) <= span.1 - span.0)
        };
        [12.0, 10.0]
            .into_iter()
            .find_map(|size| Some((options.iter().find(|t| fits(t, size))?.clone(), size)))
            .unwrap_or_else(|| (options[options.len() - 1].clone(), 10.0))
    };
    for (text, span) in [(server.0, zones.queue), (server.1, zones.workers)] {
        let (text, size) = fitted(&[text], span);
        area.draw(&Text::new(
            text,
            (px((span.0 + span.1) / 2.0), px(17.0 * scale)),
            theme.font(size).pos(Pos::new(HPos::Center, VPos::Top)),
        ))?;
    }
    area.draw(&heading(
        tr("server").to_string(),
        (zones.queue.0 + zones.workers.1) / 2.0,
        2.0,
        HPos::Center,
    ))?;
    // What the lanes drawn hold, and the whole run's server: a herd's
    // server may hold a hundred while the few lanes followed show none,
    // and the footer must not read as a count of the boxes above it.
    let footer = |value: f64, at: Spot, what: &str, span: (f64, f64)| {
        let n = format!("{value:.0}");
        let shown = panel.lanes.iter().filter(|l| l.spot == at).count();
        let options = [
            tf!(
                "{what}: {shown} shown, {n} in all",
                what = what,
                shown = shown,
                n = n
            ),
            tf!("{what}: {shown} / {n}", what = what, shown = shown, n = n),
        ];
        let (text, size) = fitted(&options, span);
        Text::new(
            text,
            (px((span.0 + span.1) / 2.0), px(height - 2.0 * scale)),
            theme.font(size).pos(Pos::new(HPos::Center, VPos::Bottom)),
        )
    };
    if scenario.workers > 0 {
        area.draw(&footer(
            panel.queued,
            Spot::Queued,
            tr("waiting"),
            zones.queue,
        ))?;
    }
    area.draw(&footer(
        panel.busy,
        Spot::InService,
        tr("busy"),
        zones.workers,
    ))?;

    let lanes = panel.lanes.len().max(1) as f64;
    let pitch = (bottom - top) / lanes;
    // A third of the pitch keeps a gap between neighbouring lanes' dots
    // (the lanes shown are those that fit `LANE_PITCH` apart), while a
    // herd still reads as one column.
    let radius = (pitch * 0.35).clamp(2.0 * scale, 4.0 * scale).round() as u32;
    let retry = light(theme, colour);
    let failed = deep(theme, colour);
    let grey = theme.colour(7);
    let ring = theme.px(1.0);
    for (i, lane) in panel.lanes.iter().enumerate() {
        let y = px(top + (i as f64 + 0.5) * pitch);
        // A hedge's calls still out, each where it stands: a copy is a
        // diamond in the light shade, so copies read as copies, not as
        // retries after a failure.
        let calls = lane
            .beside
            .iter()
            .flatten()
            .map(|&(spot, kind)| (spot, kind == Beside::Copy));
        for (spot, copy) in calls.chain([(lane.spot, lane.copy)]) {
            if !copy {
                continue;
            }
            let Some(x) = zones.x(spot) else { continue };
            let (x, r) = (px(x), radius as i32 + 1);
            let diamond = vec![(x, y - r), (x + r, y), (x, y + r), (x - r, y)];
            match spot {
                Spot::Returning(_, false) => {
                    area.draw(&Polygon::new(diamond.clone(), theme.background.filled()))?;
                    let mut outline = diamond;
                    outline.push((x, y - r));
                    area.draw(&PathElement::new(outline, failed.stroke_width(ring)))?;
                }
                _ => area.draw(&Polygon::new(diamond, retry.filled()))?,
            }
        }
        for (spot, kind) in lane.beside.iter().flatten() {
            let fill = match kind {
                Beside::Copy => continue,
                Beside::First => colour,
                Beside::ForNobody => grey,
            };
            if let Some(x) = zones.x(*spot) {
                area.draw(&Circle::new((px(x), y), radius, fill.filled()))?;
            }
        }
        if lane.copy {
            continue;
        }
        let Some(x) = zones.x(lane.spot) else {
            continue;
        };
        let centre = (px(x), y);
        let fill = if lane.retry { retry } else { colour };
        match lane.spot {
            Spot::NotYet => {}
            Spot::Pausing => {
                area.draw(&Circle::new(centre, radius, colour.stroke_width(ring)))?;
            }
            Spot::Returning(_, false) => {
                area.draw(&Circle::new(centre, radius, failed.stroke_width(ring)))?;
            }
            Spot::Outbound(_) | Spot::Queued | Spot::InService | Spot::Returning(_, true) => {
                area.draw(&Circle::new(centre, radius, fill.filled()))?;
            }
            Spot::Done(success) => {
                let r = radius as i32;
                let tone = if success { retry } else { grey };
                area.draw(&Rectangle::new(
                    [(centre.0 - r, centre.1 - r), (centre.0 + r, centre.1 + r)],
                    tone.filled(),
                ))?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svg_test::{attr, elements, hex, number, svg};

    fn lane(spot: Spot, retry: bool) -> Lane {
        Lane::at(spot, retry)
    }

    /// An operation through a chain that has ended, while the database
    /// still serves a call its service made for nobody: the square at the
    /// client, and a grey dot at the workers in the same lane.
    #[test]
    fn a_call_for_nobody_is_a_grey_dot_beside_its_lane() {
        let theme = Theme::light(1.0);
        let mut ended = Lane::at(Spot::Done(false), false);
        ended.beside[0] = Some((Spot::InService, Beside::ForNobody));
        let out = svg(|area| {
            draw_replay(
                area,
                &[ReplayPanel {
                    name: "",
                    lanes: &[ended],
                    busy: 1.0,
                    queued: 0.0,
                }],
                &Scenario {
                    workers: 10,
                    ..Scenario::default()
                },
                &theme,
            )
        });
        let circles = elements(&out, "circle");
        assert_eq!(circles.len(), 1, "the call for nobody");
        assert_eq!(attr(&circles[0], "fill"), hex(theme.colour(7)));
        let zones = Zones::new(800.0);
        let workers = zones.x(Spot::InService).expect("at the workers");
        assert!((number(&circles[0], "cx") - workers).abs() < 1.0);
        let square = elements(&out, "rect")
            .into_iter()
            .find(|r| attr(r, "fill") == hex(theme.colour(7)))
            .expect("the failed operation's square");
        let y = number(&square, "y") + number(&square, "height") / 2.0;
        assert!(
            (number(&circles[0], "cy") - y).abs() < 1.0,
            "in the same lane"
        );
    }

    /// A hedge with its first call in service and its copy on the way
    /// draws both in one lane: the first a solid dot at the workers, the
    /// copy a light diamond on the wire, in the same row.
    #[test]
    fn a_hedges_calls_out_are_all_drawn_the_copy_as_a_diamond() {
        let theme = Theme::light(1.0);
        let mut hedged = Lane::at(Spot::Outbound(0.5), false);
        hedged.copy = true;
        hedged.beside[0] = Some((Spot::InService, Beside::First));
        let scenario = Scenario {
            workers: 10,
            ..Scenario::default()
        };
        let out = svg(|area| {
            draw_replay(
                area,
                &[ReplayPanel {
                    name: "",
                    lanes: &[hedged],
                    busy: 1.0,
                    queued: 0.0,
                }],
                &scenario,
                &theme,
            )
        });
        let colour = run_colour(&theme, 0);
        let circles = elements(&out, "circle");
        assert_eq!(circles.len(), 1, "the first call");
        assert_eq!(attr(&circles[0], "fill"), hex(colour));
        let zones = Zones::new(800.0);
        let workers = zones.x(Spot::InService).expect("at the workers");
        assert!((number(&circles[0], "cx") - workers).abs() < 1.0);
        let diamonds: Vec<_> = elements(&out, "polygon")
            .into_iter()
            .filter(|p| attr(p, "fill") == hex(light(&theme, colour)))
            .collect();
        assert_eq!(diamonds.len(), 1, "the copy");
        let xs: Vec<f64> = attr(&diamonds[0], "points")
            .split(' ')
            .filter_map(|p| p.split(',').next()?.parse().ok())
            .collect();
        let centre = (xs.iter().copied().fold(f64::INFINITY, f64::min)
            + xs.iter().copied().fold(f64::NEG_INFINITY, f64::max))
            / 2.0;
        let wire = zones.x(Spot::Outbound(0.5)).expect("on the wire");
        assert!((centre - wire).abs() < 1.5, "{centre} against {wire}");
    }

    /// Each dot stands in its lane, in the zone of where its request is:
    /// queued dots in the queue, served ones at the workers, travelling
    /// ones along the wire in proportion; B's panel is the right half.
    #[test]
    fn dots_stand_in_their_lanes_and_zones() {
        let theme = Theme::light(1.0);
        let a = [
            lane(Spot::Queued, true),
            lane(Spot::InService, false),
            lane(Spot::Outbound(0.5), false),
            lane(Spot::NotYet, false),
        ];
        let b = [
            lane(Spot::Pausing, true),
            lane(Spot::Returning(0.25, false), true),
        ];
        let scenario = Scenario {
            workers: 100,
            queue_limit: 200,
            ..Scenario::default()
        };
        let out = svg(|area| {
            draw_replay(
                area,
                &[
                    ReplayPanel {
                        name: "A",
                        lanes: &a,
                        busy: 100.0,
                        queued: 200.0,
                    },
                    ReplayPanel {
                        name: "B",
                        lanes: &b,
                        busy: 40.0,
                        queued: 0.0,
                    },
                ],
                &scenario,
                &theme,
            )
        });
        let circles = elements(&out, "circle");
        assert_eq!(circles.len(), 5, "one dot per started operation");
        let zones = Zones::new(400.0);
        let (top, bottom) = (HEADER, 400.0 - FOOTER);
        let at = |e: &[(&str, &str)]| (number(e, "cx"), number(e, "cy"));
        let blue = hex(run_colour(&theme, 0));
        let light_blue = hex(light(&theme, run_colour(&theme, 0)));
        let expect = [
            (
                zones.x(Spot::Queued).expect("shown"),
                0,
                4.0,
                light_blue.as_str(),
            ),
            (
                zones.x(Spot::InService).expect("shown"),
                1,
                4.0,
                blue.as_str(),
            ),
            ((zones.wire.0 + zones.wire.1) / 2.0, 2, 4.0, blue.as_str()),
        ];
        for (circle, (x, row, lanes, fill)) in circles.iter().zip(expect) {
            let (cx, cy) = at(circle);
            let pitch = (bottom - top) / lanes;
            assert!((cx - x).abs() <= 1.0, "{cx} vs {x}");
            assert!(
                (cy - (top + (row as f64 + 0.5) * pitch)).abs() <= 1.0,
                "{cy}"
            );
            assert_eq!(attr(circle, "fill"), fill);
        }
        // B's side: a pausing client's ring at its column, a failed
        // answer's ring a quarter along the wire, in vermillion's shades.
        let (cx, _) = at(&circles[3]);
        assert!((cx - (400.0 + zones.client)).abs() <= 1.0, "{cx}");
        assert_eq!(attr(&circles[3], "fill"), "none");
        assert_eq!(attr(&circles[3], "stroke"), hex(run_colour(&theme, 1)));
        let (cx, _) = at(&circles[4]);
        let quarter = zones.wire.0 + 0.25 * (zones.wire.1 - zones.wire.0);
        assert!((cx - (400.0 + quarter)).abs() <= 1.0, "{cx}");
        assert!(out.contains("100 workers") && out.contains("queue ≤ 200"));
        // What the lanes drawn hold beside the whole server's: "waiting:
        // 1 shown, 200 in all", or "waiting: 1 / 200" where the zone is
        // too narrow.
        assert!(
            out.contains("waiting: 1 shown, 200 in all") || out.contains("waiting: 1 / 200"),
            "A's one queued lane of the server's 200"
        );
        assert!(
            out.contains("busy: 0 shown, 40 in all") || out.contains("busy: 0 / 40"),
            "none of B's lanes in service, of the server's 40"
        );
    }

    /// On a narrow canvas A's panel stands above B's, each full width, so
    /// the zone labels keep their room.
    #[test]
    fn a_narrow_canvas_stacks_a_above_b() {
        let theme = Theme::light(1.0);
        let a = [lane(Spot::InService, false)];
        let b = [lane(Spot::InService, false)];
        let panel = |name, lanes| ReplayPanel {
            name,
            lanes,
            busy: 1.0,
            queued: 0.0,
        };
        let mut out = String::new();
        {
            let area = SVGBackend::with_string(&mut out, (360, 400)).into_drawing_area();
            draw_replay(
                &area,
                &[panel("A", &a), panel("B", &b)],
                &Scenario::default(),
                &theme,
            )
            .expect("drawing to a string cannot fail");
        }
        let dots: Vec<(f64, f64)> = elements(&out, "circle")
            .iter()
            .map(|e| (number(e, "cx"), number(e, "cy")))
            .collect();
        assert_eq!(dots.len(), 2);
        let in_service = Zones::new(360.0).x(Spot::InService).expect("shown");
        for (cx, _) in &dots {
            assert!((cx - in_service).abs() <= 1.0, "{cx} vs {in_service}");
        }
        assert!(dots[0].1 < 200.0 && dots[1].1 > 200.0, "{dots:?}");
    }
}
