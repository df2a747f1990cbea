//! plotters' drawing calls onto a canvas's 2D context.
//!
//! The same operations as plotters' own canvas backend, with two
//! differences. Text is measured by the canvas (`measureText`), where
//! plotters' web font code adds a span to the page and reads its
//! `offsetHeight`: a forced layout of the whole page per label. And a
//! style is set on the context only when it changes: a load chart is
//! hundreds of bars in a few colours, and each setting is a colour string
//! formatted in wasm, decoded in JavaScript and parsed by the canvas.
//! Setting a style to the value it has changes no pixel, so what is drawn
//! is what plotters' backend draws.

use std::cell::Cell;

use plotters::coord::Shift;
use plotters::drawing::{DrawingArea, IntoDrawingArea};
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontTransform,
};
use wasm_bindgen::JsValue;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use retry_view as view;

/// Why the canvas refused a call.
pub(crate) struct CanvasError(String);

/// Written as it is, not escaped: a derived `Debug` would bring the
/// escaping of every character into the page's download.
impl std::fmt::Debug for CanvasError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CanvasError({})", self.0)
    }
}

impl std::fmt::Display for CanvasError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "canvas: {}", self.0)
    }
}

impl std::error::Error for CanvasError {}

type Drawn = Result<(), DrawingErrorKind<CanvasError>>;

/// The canvas's own words for what it refused, when it gave any (its
/// error is a JavaScript value: formatting it for Rust would cost
/// download).
fn refused(error: JsValue) -> DrawingErrorKind<CanvasError> {
    DrawingErrorKind::DrawingError(CanvasError(error.as_string().unwrap_or_default()))
}

/// A colour as a key: its channels and its opacity's bits.
type Colour = (u8, u8, u8, u64);

fn key(color: BackendColor) -> Colour {
    let (r, g, b) = color.rgb;
    (r, g, b, color.alpha.to_bits())
}

/// The context's styles as last set, so that an unchanged one is not set
/// again; `None` (or no font) where the context's value is not known.
#[derive(Debug, Default)]
struct Styles {
    fill: Option<Colour>,
    stroke: Option<Colour>,
    line_width: Option<u32>,
    align: Option<&'static str>,
    baseline: Option<&'static str>,
    font: String,
    /// Measuring text, which only borrows the canvas, set another font
    /// since `font`.
    font_changed: Cell<bool>,
}

/// A canvas's 2D context, if the browser gives one.
pub(crate) fn context_2d(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    use wasm_bindgen::JsCast;
    canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
}

fn device_pixel_ratio() -> f64 {
    web_sys::window().map_or(1.0, |w| w.device_pixel_ratio())
}

/// The charts' theme: the reader's colour scheme at the screen's pixel
/// density, in a room's sizes when `presenting`.
pub(crate) fn theme(presenting: bool) -> retry_draw::Theme {
    let dark = web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|q| q.matches());
    view::canvas::theme(dark, device_pixel_ratio(), presenting)
}

/// Whether a chart is on the page: one behind a closed "More charts" has
/// no box, and is drawn once it is shown.
pub(crate) fn on_page(canvas: &HtmlCanvasElement) -> bool {
    canvas.client_width() > 0
}

/// Sizes `canvas` to its box in device pixels, then paints on it; a
/// canvas the browser gives no 2D context is left blank.
pub(crate) fn paint(
    canvas: &HtmlCanvasElement,
    paint: &dyn Fn(&DrawingArea<Canvas, Shift>) -> retry_draw::DrawResult,
) -> retry_draw::DrawResult {
    let (width, height) = view::canvas::canvas_size(
        canvas.client_width(),
        canvas.client_height(),
        device_pixel_ratio(),
    );
    if canvas.width() != width || canvas.height() != height {
        canvas.set_width(width);
        canvas.set_height(height);
    }
    let Some(context) = context_2d(canvas) else {
        return Ok(());
    };
    let area = Canvas::new(canvas, context).into_drawing_area();
    paint(&area)?;
    area.present()?;
    Ok(())
}

/// A canvas to draw on with plotters.
///
/// Lines of one opaque style drawn one after another (a dashed line's
/// dashes, which plotters draws one at a time, a series' pieces) go into
/// one path, stroked once when a line of another style or anything else is
/// drawn: the canvas then strokes a chart's series, not each of its
/// hundreds of dashes. Opaque subpaths that do not overlap paint the same
/// pixels stroked together as apart; a translucent line is stroked alone,
/// where overlaps would blend differently.
pub(crate) struct Canvas {
    context: CanvasRenderingContext2d,
    size: (u32, u32),
    styles: Styles,
    /// The style of the lines in the path begun and not yet stroked.
    open: Option<(Colour, u32)>,
}

impl Canvas {
    pub(crate) fn new(canvas: &HtmlCanvasElement, context: CanvasRenderingContext2d) -> Canvas {
        #[cfg(feature = "test-hooks")]
        DRAWN.with(|d| d.borrow_mut().retain(|t| t.canvas != canvas.id()));
        Canvas {
            context,
            size: (canvas.width(), canvas.height()),
            styles: Styles::default(),
            open: None,
        }
    }

    /// Strokes the lines gathered so far, if any.
    fn stroke_open(&mut self) {
        if self.open.take().is_some() {
            self.context.stroke();
        }
    }

    /// Makes ready for a line of `style` from `start`: in the path already
    /// open when it holds lines of the same opaque style, else in a new one
    /// after the open one is stroked.
    fn line_from(&mut self, start: (f64, f64), style: &impl BackendStyle) {
        let color = style.color();
        let this = (key(color), style.stroke_width());
        if self.open != Some(this) {
            self.stroke_open();
            self.line_style(style);
            self.context.begin_path();
            self.open = Some(this);
        }
        self.context.move_to(start.0, start.1);
    }

    /// Ends a line: one of an opaque colour waits for more of its style, a
    /// translucent one is stroked alone.
    fn line_done(&mut self, style: &impl BackendStyle) {
        if style.color().alpha < 1.0 {
            self.stroke_open();
        }
    }

    fn fill_style(&mut self, color: BackendColor) {
        if self.styles.fill != Some(key(color)) {
            self.context.set_fill_style_str(&css_colour(color));
            self.styles.fill = Some(key(color));
        }
    }

    fn line_style(&mut self, style: &impl BackendStyle) {
        let color = style.color();
        if self.styles.stroke != Some(key(color)) {
            self.context.set_stroke_style_str(&css_colour(color));
            self.styles.stroke = Some(key(color));
        }
        let width = style.stroke_width();
        if self.styles.line_width != Some(width) {
            self.context.set_line_width(f64::from(width));
            self.styles.line_width = Some(width);
        }
    }

    fn font(&mut self, style: &impl BackendTextStyle) {
        let font = font_of(style);
        if self.styles.font != font || self.styles.font_changed.replace(false) {
            self.context.set_font(&font);
            self.styles.font = font;
        }
    }
}

fn font_of(style: &impl BackendTextStyle) -> String {
    view::canvas::canvas_font(
        style.style().as_str(),
        style.size(),
        style.family().as_str(),
    )
}

/// The colour as plotters' canvas backend writes it.
fn css_colour(color: BackendColor) -> String {
    let (r, g, b) = color.rgb;
    format!("rgba({r},{g},{b},{})", color.alpha)
}

/// A vertical or horizontal line moved half a pixel, so that a line one
/// pixel wide covers one pixel instead of two half-lit ones (as plotters'
/// canvas backend does).
fn crisp(from: BackendCoord, to: BackendCoord) -> ((f64, f64), (f64, f64)) {
    let mut from = (f64::from(from.0), f64::from(from.1));
    let mut to = (f64::from(to.0), f64::from(to.1));
    if from.0 == to.0 {
        from.0 -= 0.5;
        to.0 -= 0.5;
    }
    if from.1 == to.1 {
        from.1 -= 0.5;
        to.1 -= 0.5;
    }
    (from, to)
}

/// A canvas dropped unpresented still strokes what it gathered.
impl Drop for Canvas {
    fn drop(&mut self) {
        self.stroke_open();
    }
}

impl DrawingBackend for Canvas {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> Drawn {
        Ok(())
    }

    fn present(&mut self) -> Drawn {
        self.stroke_open();
        Ok(())
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Drawn {
        if color.alpha == 0.0 {
            return Ok(());
        }
        self.stroke_open();
        self.fill_style(color);
        let (x, y) = (f64::from(point.0), f64::from(point.1));
        self.context.fill_rect(x, y, 1.0, 1.0);
        Ok(())
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Drawn {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        let (from, to) = crisp(from, to);
        self.line_from(from, style);
        self.context.line_to(to.0, to.1);
        self.line_done(style);
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Drawn {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        self.stroke_open();
        let (x, y) = (f64::from(upper_left.0), f64::from(upper_left.1));
        let width = f64::from(bottom_right.0 - upper_left.0);
        let height = f64::from(bottom_right.1 - upper_left.1);
        if fill {
            self.fill_style(style.color());
            self.context.fill_rect(x, y, width, height);
        } else {
            self.line_style(style);
            self.context.stroke_rect(x, y, width, height);
        }
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Drawn {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        let mut path = path.into_iter();
        if let Some(start) = path.next() {
            self.line_from((f64::from(start.0), f64::from(start.1)), style);
            for next in path {
                self.context.line_to(f64::from(next.0), f64::from(next.1));
            }
            self.line_done(style);
        }
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vertices: I,
        style: &S,
    ) -> Drawn {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        self.stroke_open();
        let mut vertices = vertices.into_iter();
        self.context.begin_path();
        if let Some(start) = vertices.next() {
            self.fill_style(style.color());
            self.context.move_to(f64::from(start.0), f64::from(start.1));
            for next in vertices {
                self.context.line_to(f64::from(next.0), f64::from(next.1));
            }
            self.context.close_path();
        }
        self.context.fill();
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Drawn {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        self.stroke_open();
        if fill {
            self.fill_style(style.color());
        } else {
            self.line_style(style);
        }
        self.context.begin_path();
        let (x, y) = (f64::from(center.0), f64::from(center.1));
        self.context
            .arc(x, y, f64::from(radius), 0.0, std::f64::consts::TAU)
            .map_err(refused)?;
        if fill {
            self.context.fill();
        } else {
            self.context.stroke();
        }
        Ok(())
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Drawn {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        self.stroke_open();
        let quarter_turns = match style.transform() {
            FontTransform::None => 0.0,
            FontTransform::Rotate90 => 1.0,
            FontTransform::Rotate180 => 2.0,
            FontTransform::Rotate270 => 3.0,
        };
        let (mut x, mut y) = (f64::from(pos.0), f64::from(pos.1));
        if quarter_turns != 0.0 {
            self.context.save();
            self.context.translate(x, y).map_err(refused)?;
            self.context
                .rotate(quarter_turns * std::f64::consts::FRAC_PI_2)
                .map_err(refused)?;
            (x, y) = (0.0, 0.0);
        }
        let anchor = style.anchor();
        let baseline = match anchor.v_pos {
            VPos::Top => "top",
            VPos::Center => "middle",
            VPos::Bottom => "bottom",
        };
        if self.styles.baseline != Some(baseline) {
            self.context.set_text_baseline(baseline);
            self.styles.baseline = Some(baseline);
        }
        let align = match anchor.h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "center",
        };
        if self.styles.align != Some(align) {
            self.context.set_text_align(align);
            self.styles.align = Some(align);
        }
        self.fill_style(color);
        self.font(style);
        #[cfg(feature = "test-hooks")]
        self.check_inside(text, style, pos, quarter_turns, anchor);
        let drawn = self.context.fill_text(text, x, y).map_err(refused);
        if quarter_turns != 0.0 {
            // Back to the styles saved before the turn: what was set since
            // is no longer known to hold.
            self.context.restore();
            self.styles = Styles::default();
        }
        drawn
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<CanvasError>> {
        // Measured in the font it is drawn in; the module that includes
        // this file decides whether a width is kept (`crate::text_width`).
        let font = font_of(style);
        let width = crate::text_width(&font, text, || {
            if self.styles.font != font || self.styles.font_changed.get() {
                self.context.set_font(&font);
                self.styles.font_changed.set(self.styles.font != font);
            }
            self.context.measure_text(text).map_or(0.0, |m| m.width())
        });
        Ok(view::canvas::text_box(width, style.size()))
    }
}

/// Text drawn on a canvas, kept for the end-to-end tests: where, in
/// what font, anchored how; measured only when a test asks, so that the
/// drawing keeps its pace.
#[cfg(feature = "test-hooks")]
struct DrawnText {
    canvas: String,
    text: String,
    font: String,
    size: f64,
    at: (f64, f64),
    anchor: plotters_backend::text_anchor::Pos,
    quarter_turns: f64,
    bounds: (f64, f64),
}

#[cfg(feature = "test-hooks")]
thread_local! {
    /// The text each canvas shows now.
    static DRAWN: std::cell::RefCell<Vec<DrawnText>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The text the canvases show, one per line; only in pages built for the
/// end-to-end tests (feature `test-hooks`), as the one that follows.
#[cfg(feature = "test-hooks")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn text_drawn_for_test() -> String {
    DRAWN.with(|d| {
        let d = d.borrow();
        d.iter()
            .map(|t| t.text.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// The text the canvases show partly outside themselves (by more than a
/// pixel), as `canvas-id: text` lines.
#[cfg(feature = "test-hooks")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn text_outside_for_test() -> String {
    use wasm_bindgen::JsCast;
    let context = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.create_element("canvas").ok())
        .and_then(|c| c.dyn_into::<HtmlCanvasElement>().ok())
        .and_then(|c| c.get_context("2d").ok().flatten())
        .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok());
    let Some(context) = context else {
        return "no canvas to measure text on".to_string();
    };
    DRAWN.with(|d| {
        let d = d.borrow();
        let outside = d.iter().filter(|t| {
            context.set_font(&t.font);
            let width = context.measure_text(&t.text).map_or(0.0, |m| m.width());
            !inside(t, width)
        });
        let lines: Vec<String> = outside
            .map(|t| format!("{}: {}", t.canvas, t.text))
            .collect();
        lines.join("\n")
    })
}

/// Whether text `width` wide, drawn as `t` says, stays within a pixel of
/// its canvas.
#[cfg(feature = "test-hooks")]
fn inside(t: &DrawnText, width: f64) -> bool {
    let left = match t.anchor.h_pos {
        HPos::Left => 0.0,
        HPos::Right => -width,
        HPos::Center => -width / 2.0,
    };
    let top = match t.anchor.v_pos {
        VPos::Top => 0.0,
        VPos::Center => -t.size / 2.0,
        VPos::Bottom => -t.size,
    };
    let (sin, cos) = (t.quarter_turns * std::f64::consts::FRAC_PI_2).sin_cos();
    let (x0, y0) = t.at;
    let (w, h) = t.bounds;
    [
        (left, top),
        (left + width, top),
        (left, top + t.size),
        (left + width, top + t.size),
    ]
    .iter()
    .map(|(dx, dy)| (x0 + dx * cos - dy * sin, y0 + dx * sin + dy * cos))
    .all(|(x, y)| x >= -1.0 && y >= -1.0 && x <= w + 1.0 && y <= h + 1.0)
}

#[cfg(feature = "test-hooks")]
impl Canvas {
    /// Keeps `text`, anchored at `pos` and turned by `quarter_turns`, for
    /// the tests that ask what the canvases show.
    fn check_inside(
        &self,
        text: &str,
        style: &impl BackendTextStyle,
        pos: BackendCoord,
        quarter_turns: f64,
        anchor: plotters_backend::text_anchor::Pos,
    ) {
        let Some(canvas) = self.context.canvas() else {
            return;
        };
        if text.trim().is_empty() {
            return;
        }
        let drawn = DrawnText {
            canvas: canvas.id(),
            text: text.to_string(),
            font: font_of(style),
            size: style.size(),
            at: (f64::from(pos.0), f64::from(pos.1)),
            anchor,
            quarter_turns,
            bounds: (f64::from(canvas.width()), f64::from(canvas.height())),
        };
        DRAWN.with(|d| d.borrow_mut().push(drawn));
    }
}
