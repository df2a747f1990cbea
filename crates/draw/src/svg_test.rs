//! Reading the charts back: the SVG elements a drawing made, their
//! attributes and points, and the runs and scenario the chart tests share.

use plotters::coord::Shift;
use plotters::prelude::*;

use retry_core::policy::PauseBounds;
use retry_sim::sim::{Report, Scenario};

use super::{DrawResult, Plotted, Theme};

pub(super) fn svg(draw: impl Fn(&DrawingArea<SVGBackend, Shift>) -> DrawResult) -> String {
    let mut out = String::new();
    {
        let area = SVGBackend::with_string(&mut out, (800, 400)).into_drawing_area();
        draw(&area).expect("drawing to a string cannot fail");
    }
    out
}

/// One run, outside compare mode.
pub(super) fn single<'a>(
    report: &'a Report,
    bounds: &'a [PauseBounds],
    deadline: Option<f64>,
) -> Plotted<'a> {
    Plotted {
        name: "",
        report,
        bounds,
        deadline,
    }
}

pub(super) fn assert_labels(out: &str, labels: &[&str]) {
    for label in labels {
        assert!(out.contains(label), "{label} missing");
    }
}

pub(super) fn hex(colour: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", colour.0, colour.1, colour.2)
}

/// The SVG elements `<tag .../>` drawn, each as its attributes.
pub(super) fn elements<'a>(svg: &'a str, tag: &str) -> Vec<Vec<(&'a str, &'a str)>> {
    let open = format!("<{tag} ");
    svg.lines()
        .filter_map(|line| line.strip_prefix(open.as_str()))
        .map(|rest| {
            rest.split('"')
                .collect::<Vec<_>>()
                .chunks_exact(2)
                .map(|pair| (pair[0].trim().trim_end_matches('='), pair[1]))
                .collect()
        })
        .collect()
}

pub(super) fn attr<'a>(element: &[(&str, &'a str)], name: &str) -> &'a str {
    element
        .iter()
        .find(|(key, _)| *key == name)
        .map_or("", |(_, value)| value)
}

pub(super) fn number(element: &[(&str, &str)], name: &str) -> f64 {
    attr(element, name).parse().expect("a numeric attribute")
}

pub(super) fn points(element: &[(&str, &str)]) -> Vec<(f64, f64)> {
    attr(element, "points")
        .split_whitespace()
        .map(|pair| {
            let (x, y) = pair.split_once(',').expect("x,y");
            (x.parse().expect("pixel x"), y.parse().expect("pixel y"))
        })
        .collect()
}

/// Lines drawn in `colour`, as their points.
pub(super) fn lines_in(svg: &str, colour: RGBColor) -> Vec<Vec<(f64, f64)>> {
    elements(svg, "polyline")
        .iter()
        .filter(|e| attr(e, "stroke") == hex(colour))
        .map(|e| points(e))
        .collect()
}

/// The plotters backends round to whole pixels, at both ends of a
/// comparison: a drawn point is within 1.5 px of where its value maps.
pub(super) fn near(pixel: f64, expected: f64, what: &str) {
    assert!(
        (pixel - expected).abs() <= 1.5,
        "{what}: drawn at {pixel} px, belongs at {expected:.1} px"
    );
}

pub(super) fn scenario() -> Scenario {
    Scenario {
        horizon: 10.0,
        failure: 0.5,
        outage_start: 4.0,
        outage_duration: 2.0,
        ..Scenario::default()
    }
}

/// Compare mode on [`scenario`]'s world: A without jitter, B with full
/// jitter, each with its first three retries' analytic bounds.
pub(super) struct Compared {
    pub a: Scenario,
    pub reports: [Report; 2],
    pub bounds: [Vec<PauseBounds>; 2],
}

impl Compared {
    pub fn new() -> Self {
        let a = Scenario {
            policy: retry_core::policy::Policy {
                jitter: retry_core::policy::Jitter::None,
                ..scenario().policy
            },
            ..scenario()
        };
        let b = scenario();
        let bounds = |s: &Scenario| (0..3).map(|r| s.policy.pause_bounds(r)).collect();
        Compared {
            reports: [retry_sim::sim::run(&a), retry_sim::sim::run(&b)],
            bounds: [bounds(&a), bounds(&b)],
            a,
        }
    }

    /// The two runs as the charts take them, named "A" and "B".
    pub fn runs(&self) -> [Plotted<'_>; 2] {
        let run = |index: usize, name| Plotted {
            name,
            report: &self.reports[index],
            bounds: &self.bounds[index],
            deadline: None,
        };
        [run(0, "A"), run(1, "B")]
    }
}

/// The mesh: x of the vertical grid lines, y of the horizontal ones,
/// and the plot's top and bottom as the vertical lines span them.
pub(super) struct Mesh {
    pub(super) vertical: Vec<f64>,
    pub(super) top: f64,
    pub(super) bottom: f64,
}

/// The mesh lines of the plots whose top lies in `rows` (pixels).
pub(super) fn mesh(svg: &str, theme: &Theme, rows: std::ops::Range<f64>) -> Mesh {
    let mut vertical = Vec::new();
    let (mut top, mut bottom) = (f64::INFINITY, 0.0_f64);
    for e in elements(svg, "line") {
        if attr(&e, "stroke") != hex(theme.grid) {
            continue;
        }
        let (x1, y1, x2, y2) = (
            number(&e, "x1"),
            number(&e, "y1"),
            number(&e, "x2"),
            number(&e, "y2"),
        );
        if x1 == x2 && rows.contains(&y2.min(y1)) {
            vertical.push(x1);
            top = top.min(y1.min(y2));
            bottom = bottom.max(y1.max(y2));
        }
    }
    vertical.sort_by(f64::total_cmp);
    Mesh {
        vertical,
        top,
        bottom,
    }
}

pub(super) fn longest(lines: Vec<Vec<(f64, f64)>>) -> Vec<(f64, f64)> {
    lines
        .into_iter()
        .max_by_key(|line| line.len())
        .expect("a line")
}

/// A drawing of `size` pixels.
pub(super) fn svg_sized(
    size: (u32, u32),
    draw: impl Fn(&DrawingArea<SVGBackend, Shift>) -> DrawResult,
) -> String {
    let mut out = String::new();
    {
        let area = SVGBackend::with_string(&mut out, size).into_drawing_area();
        draw(&area).expect("drawing to a string cannot fail");
    }
    out
}

/// One text a drawing wrote, with the box it takes: left, top, right,
/// bottom, as plotters' own estimate (the SVG backend's) sizes it.
#[derive(Debug, Clone)]
pub(super) struct Placed {
    pub text: String,
    pub rect: [f64; 4],
    pub fill: String,
}

/// Every text of a drawing with its box (an axis' words turned a
/// quarter as they are drawn).
pub(super) fn texts(svg: &str) -> Vec<Placed> {
    svg.split("<text ")
        .skip(1)
        .filter_map(|rest| {
            let (head, tail) = rest.split_once('>')?;
            let text = tail.split("</text>").next()?.trim();
            let text = text
                .replace("&amp;", "&")
                .replace("&lt;", "<")
                .replace("&gt;", ">");
            let attrs: Vec<(&str, &str)> = head
                .split('"')
                .collect::<Vec<_>>()
                .chunks_exact(2)
                .map(|pair| (pair[0].trim().trim_end_matches('='), pair[1]))
                .collect();
            let (x, y) = (number(&attrs, "x"), number(&attrs, "y"));
            // plotters' naive font: an em of size / 1.24 (the SVG's font
            // size), 0.7 em a character, 1.24 em a line.
            let em = number(&attrs, "font-size") / 1.24;
            let (width, height) = ((em * 0.7 * text.len() as f64).round(), (1.24 * em).round());
            let left = match attr(&attrs, "text-anchor") {
                "middle" => x - width / 2.0,
                "end" => x - width,
                _ => x,
            };
            let top = match attr(&attrs, "dy") {
                "0.76em" => y,
                "0.5ex" => y - height / 2.0,
                _ => y - height,
            };
            let mut rect = [left, top, left + width, top + height];
            if attr(&attrs, "transform").starts_with("rotate(270") {
                // A quarter turn back about the anchor: (x + dx, y + dy)
                // goes to (x + dy, y - dx).
                rect = [
                    x + (rect[1] - y),
                    y - (rect[2] - x),
                    x + (rect[3] - y),
                    y - (rect[0] - x),
                ];
            }
            Some(Placed {
                text,
                rect,
                fill: attr(&attrs, "fill").to_string(),
            })
        })
        .collect()
}

/// No two texts of a drawing overlap, and every one lies inside it.
pub(super) fn assert_texts_apart(svg: &str, (width, height): (u32, u32), what: &str) {
    let all = texts(svg);
    for (i, a) in all.iter().enumerate() {
        let [left, top, right, bottom] = a.rect;
        assert!(
            left >= -0.5
                && top >= -0.5
                && right <= f64::from(width) + 0.5
                && bottom <= f64::from(height) + 0.5,
            "{what}: {:?} at {:?} leaves the {width}x{height} chart",
            a.text,
            a.rect
        );
        for b in &all[i + 1..] {
            let apart = a.rect[2] <= b.rect[0]
                || b.rect[2] <= a.rect[0]
                || a.rect[3] <= b.rect[1]
                || b.rect[3] <= a.rect[1];
            assert!(
                apart,
                "{what}: {:?} at {:?} overlaps {:?} at {:?}",
                a.text, a.rect, b.text, b.rect
            );
        }
    }
}

/// The preset of `key`.
pub(super) fn preset(key: &str) -> &'static crate::presets::Preset {
    crate::presets::PRESETS
        .iter()
        .find(|p| p.key == key)
        .expect("a preset of that key")
}

/// The runs of the preset of `key`, A and B, as the page draws them.
pub(super) fn preset_runs(key: &str) -> super::Runs {
    super::run(&preset(key).config())
}

/// The shades of the outage (or spike) on a drawing of a chart of time,
/// each panel's, top panel first.
pub(super) fn shades(out: &str, theme: &Theme) -> Vec<[f64; 4]> {
    let mut found: Vec<[f64; 4]> = elements(out, "rect")
        .into_iter()
        .filter(|e| attr(e, "fill") == hex(theme.grid) && attr(e, "opacity") == "0.6")
        .map(|e| {
            let (x, y) = (number(&e, "x"), number(&e, "y"));
            [x, y, x + number(&e, "width"), y + number(&e, "height")]
        })
        .collect();
    found.sort_by(|p, q| p[1].total_cmp(&q[1]));
    found
}
