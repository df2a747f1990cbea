//! The state a change replaced, for the lesson's chart: what each state
//! was drawn from, kept in a `view::before::Memory`, which decides which
//! state is the ghost and which axes are kept. This module only converts
//! the charts' data to what the memory keeps and back.

use std::cell::RefCell;

use retry_analyses::contention::ContentionGrid;
use retry_core::chart_id::ChartId;
use retry_draw::{Axes, OwnedCurve, Plotted};
use retry_sim::config::Config;
use retry_sim::sim::Report;
use retry_view as view;
use retry_view::before::Memory;

use crate::with_app;

/// Paints the sweep after the curves and failure rate before, on axes.
pub(crate) type SweepPainter<'p> =
    dyn FnMut(&[retry_draw::Curve<'_>], Option<f64>, Option<Axes>) -> Option<Axes> + 'p;

/// Paints the contention chart after a grid and headline run before.
pub(crate) type ContentionPainter<'p> =
    dyn FnMut(Option<(&ContentionGrid, (f64, f64))>, Option<Axes>) -> Option<Axes> + 'p;

/// What one state's key chart is drawn from.
pub(crate) enum Data {
    /// Each policy's name, run and deadline.
    Runs(Vec<(&'static str, Report, Option<f64>)>),
    /// The curves as far as computed, and the world's failure rate.
    Sweep(Vec<OwnedCurve>, f64),
    /// The grid and the headlines' own run (calls, last client done).
    Contention(ContentionGrid, (f64, f64)),
}

impl Data {
    pub(crate) fn runs(charts: &[Plotted<'_>]) -> Data {
        Data::Runs(
            charts
                .iter()
                .map(|run| (name(run.name), run.report.clone(), run.deadline))
                .collect(),
        )
    }
}

/// The policies' names as `'static`: the only ones the page draws.
fn name(name: &str) -> &'static str {
    match name {
        "A" => "A",
        "B" => "B",
        _ => "",
    }
}

thread_local! {
    static MEMORY: RefCell<Memory<Data>> = RefCell::new(Memory::default());
}

fn lesson() -> Option<&'static str> {
    with_app(|app| app.origin.map(|p| p.key)).flatten()
}

/// Whether `chart` is the lesson's chart now, the only one with a ghost.
pub(crate) fn is_key(chart: ChartId) -> bool {
    with_app(|app| app.key_chart == Some(chart)).unwrap_or(false)
}

/// State `config` of `chart` is drawn from final data (`data`): the state
/// shown until now becomes the one before it (a sweep's curves, which
/// grow point by point, are kept up to date).
pub(crate) fn arrive(config: &Config, chart: ChartId, data: impl FnOnce() -> Data) {
    let lesson = lesson();
    let growing = |data: &Data| matches!(data, Data::Sweep(..));
    MEMORY.with(|m| m.borrow_mut().arrive(config, chart, lesson, growing, data));
}

/// Draws `chart` of state `config` through `draw`, handing it the state
/// before (runs faint, axes) where there is one, and keeps the axes it
/// drew for the state after.
pub(crate) fn draw_runs(
    config: &Config,
    chart: ChartId,
    draw: &mut dyn FnMut(retry_draw::Before<'_>) -> Option<Axes>,
) {
    let lesson = lesson();
    let axes = MEMORY.with(|m| {
        let memory = m.borrow();
        let ghost = memory.ghost(config, chart, lesson);
        let plotted: Vec<Plotted<'_>> = match ghost.map(|d| &d.data) {
            Some(Data::Runs(runs)) => runs
                .iter()
                .map(|(name, report, deadline)| Plotted {
                    name,
                    report,
                    bounds: &[],
                    deadline: *deadline,
                })
                .collect(),
            _ => Vec::new(),
        };
        draw(retry_draw::Before {
            runs: &plotted,
            axes: ghost.and_then(|d| d.axes),
        })
    });
    keep(config, chart, axes);
}

/// Draws the sweep of state `config` through `draw`, handing it the sweep
/// before (curves, failure rate, axes) where there is one.
pub(crate) fn draw_sweep(config: &Config, draw: &mut SweepPainter<'_>) {
    let lesson = lesson();
    let axes = MEMORY.with(|m| {
        let memory = m.borrow();
        let ghost = memory.ghost(config, ChartId::Sweep, lesson);
        let (curves, failure) = match ghost.map(|d| &d.data) {
            Some(Data::Sweep(curves, failure)) => (
                curves.iter().map(OwnedCurve::curve).collect(),
                Some(*failure),
            ),
            _ => (Vec::new(), None),
        };
        draw(&curves, failure, ghost.and_then(|d| d.axes))
    });
    keep(config, ChartId::Sweep, axes);
}

/// Draws the contention chart of state `config` through `draw`, handing it
/// the grid and headline run before, and their axes, where there are.
pub(crate) fn draw_contention(config: &Config, draw: &mut ContentionPainter<'_>) {
    let lesson = lesson();
    let axes = MEMORY.with(|m| {
        let memory = m.borrow();
        let ghost = memory.ghost(config, ChartId::Contention, lesson);
        let was = match ghost.map(|d| &d.data) {
            Some(Data::Contention(grid, headline)) => Some((grid, *headline)),
            _ => None,
        };
        draw(was, ghost.and_then(|d| d.axes))
    });
    keep(config, ChartId::Contention, axes);
}

/// The axes state `config` of `chart` was drawn on, once it is the one shown.
fn keep(config: &Config, chart: ChartId, axes: Option<Axes>) {
    MEMORY.with(|m| m.borrow_mut().keep(config, chart, axes));
}

/// The layers view of a state, its bars on the scale of the states of its
/// lesson before it while the new calls fit (see
/// `view::summary::layers_kept`).
pub(crate) fn layers(
    config: &Config,
    a: &Report,
    b: Option<&Report>,
) -> Option<Vec<view::summary::LayerList>> {
    let lesson = lesson();
    // Redrawn for the same lesson, it keeps the scale it had.
    let scale = MEMORY.with(|m| m.borrow().layers_scale(lesson));
    let (lists, drawn) = view::summary::layers_kept(config, a, b, scale)?;
    MEMORY.with(|m| m.borrow_mut().layers_drawn(lesson, drawn));
    Some(lists)
}

/// Forgets every state: a page with nothing before the one it shows, as
/// a fresh page opened on its link (for the end-to-end tests).
#[cfg(feature = "test-hooks")]
pub(crate) fn forget() {
    MEMORY.with(|m| *m.borrow_mut() = Memory::default());
}
