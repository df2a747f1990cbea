//! The charts on canvases: where each stands, what each is drawn from,
//! the sweep as far as it is computed.

use plotters::prelude::*;
use retry_view::canvas::OnPage;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, HtmlCanvasElement};

use std::cell::Cell;

use retry_analyses::sweep;
use retry_core::chart_id::ChartId;
use retry_draw::{OwnedCurve, Theme};
use retry_sim::config::{Config, P};
use retry_view::canvas::Place;
use retry_view::{self as view, jobs::Job};

use crate::before;
use crate::canvas::Canvas;
use crate::{now, with_app};

/// A canvas to draw on.
pub(super) type Area = DrawingArea<Canvas, plotters::coord::Shift>;

/// Paints a chart of runs after the state before it, returning its axes.
pub(super) type RunsPainter<'p> = dyn Fn(&Area, retry_draw::Before<'_>) -> Result<retry_draw::Axes, Box<dyn std::error::Error>>
    + 'p;

/// Moves the lesson's chart to the top and the others to their places,
/// when the lesson's chart changed.
pub(super) fn place_charts(document: &Document, key_chart: ChartId) {
    let moved = with_app(|app| app.key_chart.replace(key_chart) != Some(key_chart));
    if moved != Some(true) {
        return;
    }
    let more = document.get_element_by_id("more-charts");
    for (chart, place) in view::canvas::chart_places(key_chart) {
        let (Some(figure), Some(container)) = (
            document
                .get_element_by_id(chart.canvas_id())
                .and_then(|c| c.parent_element()),
            document.get_element_by_id(place.container()),
        ) else {
            continue;
        };
        // The charts below come before "More charts", in page order.
        let _ = match (place, &more) {
            (Place::Below, Some(more)) => container.insert_before(&figure, Some(more)),
            _ => container.append_child(&figure),
        };
    }
}

/// Draws a chart of the runs of state `config`: the lesson's chart after the
/// state before it, faint, on the axes it kept (see `before`), any other
/// alone.
pub(super) fn draw_of_runs(
    document: &Document,
    chart: ChartId,
    config: &Config,
    paint: &RunsPainter<'_>,
) {
    if before::is_key(chart) {
        before::draw_runs(config, chart, &mut |was| {
            let drawn = Cell::new(None);
            draw(document, chart, |area| {
                drawn.set(Some(paint(area, was)?));
                Ok(())
            });
            drawn.get()
        });
    } else {
        draw(document, chart, |area| {
            paint(area, retry_draw::Before::default()).map(|_| ())
        });
    }
}

/// Draws the sweep of a job as far as it is computed, the world's failure
/// rate and the headlines' runs marked on it, or why the page does not
/// sweep its state; a refused sweep is as done as it will be.
pub(super) fn draw_sweep(document: &Document, job: &Job) {
    let theme = theme();
    match job.sweep() {
        Ok(sweep) => {
            let curves = sweep.curves();
            let failure = job.config().get(P::Failure);
            let headlines: Vec<(usize, sweep::Point)> = job
                .runs()
                .map(|runs| {
                    let reports = [Some(&runs.a), runs.b.as_ref()];
                    sweep::headline_curves(job.config())
                        .into_iter()
                        .zip(reports)
                        .filter_map(|(curve, report)| {
                            Some((curve?, sweep::point_of(failure, &report?.summary)))
                        })
                        .collect()
                })
                .unwrap_or_default();
            let mark = Some(retry_draw::SweepMark {
                failure,
                headlines: &headlines,
            });
            let paint = |before: &[retry_draw::Curve<'_>], was: Option<f64>, axes| {
                let view = retry_draw::SweepView {
                    mark,
                    before,
                    before_failure: was,
                    axes,
                };
                let drawn = Cell::new(None);
                draw(document, ChartId::Sweep, |area| {
                    drawn.set(Some(retry_draw::draw_sweep_view(
                        area,
                        &curves,
                        sweep::POINTS,
                        &theme,
                        &view,
                    )?));
                    Ok(())
                });
                drawn.get()
            };
            if before::is_key(ChartId::Sweep) {
                before::arrive(job.config(), ChartId::Sweep, || {
                    let owned = curves.iter().map(OwnedCurve::of).collect();
                    before::Data::Sweep(owned, failure)
                });
                before::draw_sweep(job.config(), &mut |was, failure, axes| {
                    paint(was, failure, axes)
                });
            } else {
                paint(&[], None, None);
            }
        }
        Err(why) => {
            draw(document, ChartId::Sweep, |area| {
                retry_draw::message(area, &theme, why)
            });
            if let Some(body) = document.body() {
                let _ = body.set_attribute("data-swept", &crate::language::carried(job.link()));
            }
        }
    }
}

/// Computes the whole sweep of the current state at once and returns the
/// time it took in ms: what the in-browser benchmark measures.
#[wasm_bindgen]
pub fn sweep_now() -> f64 {
    let Some(config) = with_app(|app| app.page.config().clone()) else {
        return 0.0;
    };
    let started = now();
    let _ = sweep::sweep(&config, sweep::POINTS);
    now() - started
}

pub(super) fn theme() -> Theme {
    let presenting = crate::document()
        .document_element()
        .is_some_and(|r| r.class_list().contains("presenting"));
    crate::canvas::theme(presenting)
}

/// Whether the chart of canvas `id` is on the page (see [`on_page`]).
pub(super) fn shown(document: &Document, chart: ChartId) -> bool {
    document
        .get_element_by_id(chart.canvas_id())
        .and_then(|e| e.dyn_into::<HtmlCanvasElement>().ok())
        .is_some_and(|canvas| crate::canvas::on_page(&canvas))
}

/// Sizes a canvas to its box in device pixels, then draws on it.
pub(super) fn draw(
    document: &Document,
    chart: ChartId,
    paint: impl Fn(&DrawingArea<Canvas, plotters::coord::Shift>) -> retry_draw::DrawResult,
) {
    draw_with(document, chart.canvas_id(), &paint);
}

/// [`draw`] for any painter: one copy of the canvas work in the page,
/// not one per chart drawn (each would cost download).
fn draw_with(
    document: &Document,
    id: &str,
    paint: &dyn Fn(&DrawingArea<Canvas, plotters::coord::Shift>) -> retry_draw::DrawResult,
) {
    let Some(canvas) = document
        .get_element_by_id(id)
        .and_then(|e| e.dyn_into::<HtmlCanvasElement>().ok())
    else {
        return;
    };
    if !crate::canvas::on_page(&canvas) {
        return;
    }
    if let Err(error) = crate::canvas::paint(&canvas, paint) {
        web_sys::console::error_1(&JsValue::from_str(&format!("drawing {id}: {error}")));
    }
}
