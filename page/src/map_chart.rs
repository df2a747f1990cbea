//! The map of metastability on its canvas: drawn as its cells come, and a
//! click on a cell opens that cell's world.

use retry_view::canvas::OnPage;
use std::cell::RefCell;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, HtmlCanvasElement, MouseEvent};

use retry_analyses::map;
use retry_core::chart_id::ChartId;
use retry_draw::MapDrawn;
use retry_view::jobs::Job;

use crate::charts::{draw, theme};
use crate::share::{show_notices, sync_link};
use crate::{schedule, with_app};

thread_local! {
    /// Where the map was last drawn, to find the cell under a click.
    static DRAWN: RefCell<MapDrawn> = RefCell::new(MapDrawn::default());
}

/// Draws the job's map as far as it is computed, or why there is none.
pub(super) fn draw_map(document: &Document, job: &Job) {
    let theme = theme();
    let Some(runs) = job.map() else { return };
    match runs {
        Ok(runs) => {
            let config = job.config();
            let view = retry_draw::MapView {
                map: runs.map(),
                total: runs.total(),
                world: map::world_on_map(config, config.map_rows()),
            };
            draw(document, ChartId::Map, |area| {
                let drawn = retry_draw::draw_map(area, &view, &theme)?;
                DRAWN.with(|d| *d.borrow_mut() = drawn);
                Ok(())
            });
            // Where A's grid is, in CSS pixels: for the tests, and for
            // anyone reading the page's markup.
            let grid = DRAWN.with(|d| d.borrow().panels.first().copied());
            if let (Some(p), Some(canvas)) =
                (grid, document.get_element_by_id(ChartId::Map.canvas_id()))
            {
                let s = theme.scale;
                let text = format!(
                    "{:.1},{:.1},{:.1},{:.1}",
                    p.left / s,
                    p.top / s,
                    p.cell_width / s,
                    p.cell_height / s
                );
                let _ = canvas.set_attribute("data-grid", &text);
            }
        }
        Err(why) => {
            DRAWN.with(|d| *d.borrow_mut() = MapDrawn::default());
            draw(document, ChartId::Map, |area| {
                retry_draw::message(area, &theme, why)
            });
        }
    }
    if let Some(body) = document.body() {
        let cells = runs.as_ref().map_or(0, |r| r.map().cells.len());
        let _ = body.set_attribute("data-map-cells", &cells.to_string());
    }
}

/// A click on a cell opens its world: the page's policies and seed with
/// that capacity loss (and rate), run long enough to see it end.
pub(super) fn listen(document: &Document) -> Result<(), JsValue> {
    let Some(canvas) = document
        .get_element_by_id(ChartId::Map.canvas_id())
        .and_then(|e| e.dyn_into::<HtmlCanvasElement>().ok())
    else {
        return Ok(());
    };
    let target = canvas.clone();
    let click = Closure::<dyn FnMut(MouseEvent)>::new(move |event: MouseEvent| {
        // Device pixels, as the chart was drawn in.
        let scale = f64::from(target.width()) / f64::from(target.client_width().max(1));
        let (x, y) = (
            f64::from(event.offset_x()) * scale,
            f64::from(event.offset_y()) * scale,
        );
        let Some((_, row, column)) = DRAWN.with(|d| d.borrow().cell_at(x, y)) else {
            return;
        };
        with_app(|app| {
            let config = app.page.config();
            if let Some(world) = map::cell_world(config, config.map_rows(), row, column) {
                app.page.load(world);
                app.show_all();
                show_notices(&app.document, &[]);
            }
        });
        sync_link();
        schedule();
    });
    canvas.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
    click.forget();
    Ok(())
}
