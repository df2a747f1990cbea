//! The charts on canvases: where each stands, the sweep computed between
//! frames, and the canvas backend that measures text in the font it draws.

use plotters::prelude::*;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, HtmlCanvasElement};

use crate::chart::{self, Theme};
use crate::config::Config;
use crate::sweep;
use crate::view::{self, SweepJob};

use super::{document, now, with_app};

/// Moves the lesson's chart to the top and the others to their places,
/// when the lesson's chart changed.
pub(super) fn place_charts(document: &Document, key_chart: &'static str) {
    let moved = with_app(|app| std::mem::replace(&mut app.key_chart, key_chart) != key_chart);
    if moved != Some(true) {
        return;
    }
    let more = document.get_element_by_id("more-charts");
    for (canvas, place) in view::chart_places(key_chart) {
        let (Some(figure), Some(container)) = (
            document
                .get_element_by_id(canvas)
                .and_then(|c| c.parent_element()),
            document.get_element_by_id(place.container()),
        ) else {
            continue;
        };
        // The charts below come before "More charts", in page order.
        let _ = match (place, &more) {
            (view::Place::Below, Some(more)) => container.insert_before(&figure, Some(more)),
            _ => container.append_child(&figure),
        };
    }
}

/// Starts the sweep of the current state, cutting short any older one.
pub(super) fn start_sweep(config: &Config) {
    match SweepJob::new(config) {
        Ok(job) => {
            with_app(|app| app.sweep = Some(job));
            schedule_sweep_step();
        }
        Err(why) => {
            with_app(|app| app.sweep = None);
            let document = document();
            let theme = theme();
            draw(&document, "chart-sweep", |area| {
                chart::message(area, &theme, why)
            });
            if let Some(body) = document.body() {
                let _ = body.set_attribute("data-swept", &config.to_link());
            }
        }
    }
}

fn schedule_sweep_step() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let step = Closure::once_into_js(sweep_step);
    let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(step.unchecked_ref(), 0);
}

/// Computes sweep points for about half a frame, draws what there is, and
/// comes back later if there is more: the page stays responsive, and a
/// newer state simply replaces the job.
fn sweep_step() {
    let started = now();
    let Some(mut job) = with_app(|app| app.sweep.take()).flatten() else {
        return;
    };
    while job.step() {
        if now() - started > 8.0 {
            break;
        }
    }
    let document = document();
    let theme = theme();
    let curves = job.curves();
    draw(&document, "chart-sweep", |area| {
        chart::draw_sweep(area, &curves, sweep::POINTS, &theme)
    });
    if job.done() {
        if let Some(body) = document.body() {
            let _ = body.set_attribute("data-swept", job.link());
        }
        return;
    }
    // Put the job back unless a newer state started its own meanwhile.
    let keep = with_app(|app| {
        if app.sweep.is_none() {
            app.sweep = Some(job);
            true
        } else {
            false
        }
    });
    if keep == Some(true) {
        schedule_sweep_step();
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

fn device_pixel_ratio() -> f64 {
    web_sys::window().map_or(1.0, |w| w.device_pixel_ratio())
}

pub(super) fn theme() -> Theme {
    let dark = web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|q| q.matches());
    view::theme(dark, device_pixel_ratio())
}

/// The canvas backend with text measured by the canvas itself.
///
/// plotters' web font code sizes text by adding a span to the page and
/// reading its `offsetHeight`: a forced layout of the whole page per label.
/// `measureText` asks the canvas instead.
pub(super) struct Measured {
    canvas: CanvasBackend,
    context: web_sys::CanvasRenderingContext2d,
}

type Drawn<T> = Result<T, DrawingErrorKind<<CanvasBackend as DrawingBackend>::ErrorType>>;

impl DrawingBackend for Measured {
    type ErrorType = <CanvasBackend as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.canvas.get_size()
    }
    fn ensure_prepared(&mut self) -> Drawn<()> {
        self.canvas.ensure_prepared()
    }
    fn present(&mut self) -> Drawn<()> {
        self.canvas.present()
    }
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Drawn<()> {
        self.canvas.draw_pixel(point, color)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Drawn<()> {
        self.canvas.draw_line(from, to, style)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Drawn<()> {
        self.canvas.draw_rect(upper_left, bottom_right, style, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Drawn<()> {
        self.canvas.draw_path(path, style)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Drawn<()> {
        self.canvas.draw_circle(center, radius, style, fill)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Drawn<()> {
        self.canvas.fill_polygon(vert, style)
    }
    fn draw_text<T: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &T,
        pos: BackendCoord,
    ) -> Drawn<()> {
        self.canvas.draw_text(text, style, pos)
    }
    fn estimate_text_size<T: BackendTextStyle>(&self, text: &str, style: &T) -> Drawn<(u32, u32)> {
        self.context.set_font(&view::canvas_font(
            style.style().as_str(),
            style.size(),
            style.family().as_str(),
        ));
        let width = self.context.measure_text(text).map_or(0.0, |m| m.width());
        Ok(view::text_box(width, style.size()))
    }
}

/// Whether a chart is on the page: one behind a closed "More charts" has
/// no box, and is drawn once it is shown.
fn shown(canvas: &HtmlCanvasElement) -> bool {
    canvas.client_width() > 0
}

/// Sizes a canvas to its box in device pixels, then draws on it.
pub(super) fn draw(
    document: &Document,
    id: &str,
    paint: impl Fn(&DrawingArea<Measured, plotters::coord::Shift>) -> chart::DrawResult,
) {
    let Some(canvas) = document
        .get_element_by_id(id)
        .and_then(|e| e.dyn_into::<HtmlCanvasElement>().ok())
    else {
        return;
    };
    if !shown(&canvas) {
        return;
    }
    let (width, height) = view::canvas_size(
        canvas.client_width(),
        canvas.client_height(),
        device_pixel_ratio(),
    );
    if canvas.width() != width || canvas.height() != height {
        canvas.set_width(width);
        canvas.set_height(height);
    }
    let Some(context) = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
    else {
        return;
    };
    let Some(canvas) = CanvasBackend::with_canvas_object(canvas) else {
        return;
    };
    let area = Measured { canvas, context }.into_drawing_area();
    if let Err(error) = paint(&area).and_then(|()| area.present().map_err(Into::into)) {
        web_sys::console::error_1(&JsValue::from_str(&format!("drawing {id}: {error}")));
    }
}
