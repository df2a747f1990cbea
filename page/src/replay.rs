//! The replay on the page: its controls, the fold it opens in, and the
//! load chart's cursor that follows it. Its state and clock are
//! [`view::player::Player`]'s; what to draw and say comes from `view::replay` and
//! `retry_draw::draw_replay`.

use retry_view::canvas::OnPage;
use std::cell::{Cell, RefCell};

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, HtmlCanvasElement, HtmlInputElement, HtmlSelectElement};

use retry_core::chart_id::ChartId;
use retry_core::decimal::parse_f64;
use retry_core::words::tr;
use retry_draw::Runs;
use retry_draw::{ReplayPanel, TimeAxis};
use retry_sim::config::Config;
use retry_sim::sim::Scenario;
use retry_view::replay::{self as scene, SPEEDS};
use retry_view::{
    self as view,
    player::{Click, Clip, Fold, Frame, Player},
};

use crate::charts::{draw, theme};
use crate::{document, now};

/// Positions of the time slider.
const SLIDER_STEPS: f64 = 1000.0;

thread_local! {
    static PLAYER: RefCell<Player> = RefCell::new(Player::default());
}

fn with_player<R>(f: impl FnOnce(&mut Player) -> R) -> R {
    PLAYER.with(|p| f(&mut p.borrow_mut()))
}

fn is_open(document: &Document) -> bool {
    document
        .get_element_by_id("replay")
        .is_some_and(|d| d.has_attribute("open"))
}

/// Whether the replay can be seen: open, and not hidden by an embed of
/// another chart. Only then does the load chart mark its instant.
fn shown(document: &Document) -> bool {
    is_open(document) && crate::embed::replay_visible()
}

/// Draws the load chart of state `link`, with the replay's cursor while
/// it is shown, keeping its time axis for clicks.
pub(super) fn draw_load(
    document: &Document,
    runs: &[retry_draw::Plotted<'_>],
    scenario: &Scenario,
    config: &Config,
) {
    let at = with_player(|p| p.cursor(shown(document)));
    if let Some(axis) = paint_load(document, runs, scenario, at, config) {
        with_player(|p| p.set_axis(axis));
    }
}

/// Draws the load chart (the lesson's after the state before it), and
/// returns where its time axis runs.
fn paint_load(
    document: &Document,
    runs: &[retry_draw::Plotted<'_>],
    scenario: &Scenario,
    at: Option<f64>,
    config: &Config,
) -> Option<TimeAxis> {
    let theme = theme();
    let time = Cell::new(None);
    let strip = Cell::new(false);
    let paint = || {
        crate::charts::draw_of_runs(document, ChartId::Load, config, &|area, before| {
            let view = retry_draw::LoadView { cursor: at, before };
            let drawn = retry_draw::draw_load_view(area, runs, scenario, &theme, &view)?;
            time.set(Some(drawn.time));
            // The duplicates' strip has an axis of its own.
            strip.set(drawn.axes.tops[1] > 0.0);
            Ok(drawn.axes)
        });
    };
    paint();
    // A chart with the duplicates' strip stands taller on a phone (the
    // style sheet's `with-strip`): drawn again at its new size.
    if let Some(figure) = document.get_element_by_id("figure-load") {
        let list = figure.class_list();
        if list.contains("with-strip") != strip.get() {
            let _ = list.toggle_with_force("with-strip", strip.get());
            paint();
        }
    }
    time.get()
}

/// As a render of `config` starts: opens or closes the replay's fold as
/// [`Player::prepare`] decides, and returns whether it is open, so that
/// the render's runs trace for it. `preset`: the key of the preset the
/// page shows, if any.
pub(super) fn prepare(document: &Document, config: &Config, preset: Option<&str>) -> bool {
    let Some(details) = document.get_element_by_id("replay") else {
        return false;
    };
    // An embed of the replay opens it at the moment on every state it shows.
    let moment = view::player::is_moment(preset) || crate::embed::shows_replay();
    match with_player(|p| p.prepare(config, moment)) {
        Fold::Keep => {}
        Fold::Open => {
            let _ = details.set_attribute("open", "");
        }
        Fold::Close => {
            let _ = details.remove_attribute("open");
        }
    }
    details.has_attribute("open")
}

/// Shows the replay of a render's finished runs: a new clip when the link
/// changed (at the preset's moment), then a frame.
pub(super) fn show(document: &Document, config: &Config, preset: Option<&str>, runs: &Runs) {
    let (fresh, paint_now) = with_player(|p| {
        p.show(config, is_open(document), || {
            Clip::new(config, preset, runs)
        })
    });
    if let Some(fresh) = fresh {
        if fresh.shared {
            // The start rewrote the address: give it its instant back.
            share_instant();
        }
        show_play(document);
        show_speed(document);
        // The load chart was drawn before the replay had an instant: mark it.
        redraw_load(document);
    }
    if paint_now {
        paint(document);
    }
}

/// Shows the speed a new replay opened at in the speed list: each world
/// opens at its own, which the reader may then change.
fn show_speed(document: &Document) {
    let Some(speed) = with_player(|p| p.clip().map(|c| c.speed)) else {
        return;
    };
    if let Some(select) = document
        .get_element_by_id("replay-speed")
        .and_then(|e| e.dyn_into::<HtmlSelectElement>().ok())
    {
        select.set_value(&format!("{speed}"));
    }
}

/// Draws the replay at its instant, with its slider and sentence.
fn paint(document: &Document) {
    let theme = theme();
    PLAYER.with(|p| {
        let p = p.borrow();
        let Some(replay) = p.clip() else {
            return;
        };
        let sides: Vec<scene::Followed<'_>> = replay
            .sides
            .iter()
            .map(|(name, report, _)| scene::Followed { name, report })
            .collect();
        // The line first: where it takes room from the lanes (an embed of
        // the replay), the canvas is sized to what is left of its box.
        if let Some(text) = document.get_element_by_id("replay-text") {
            let line = scene::describe(replay.time, &replay.scenario, &sides);
            text.set_text_content(Some(&line));
        }
        draw(document, ChartId::Replay, |area| {
            // As many lanes as the canvas's size lets the eye tell apart.
            let room = retry_draw::lane_room(area.dim_in_pixel(), replay.sides.len(), &theme);
            let shown = replay.shown(room);
            let lanes: Vec<_> = replay
                .sides
                .iter()
                .zip(&shown)
                .map(|((_, _, trace), shown)| scene::lanes(trace, shown, replay.time))
                .collect();
            let panels: Vec<ReplayPanel<'_>> = replay
                .sides
                .iter()
                .zip(&lanes)
                .map(|((name, report, _), lanes)| {
                    let s = &report.series;
                    let bucket = ((replay.time / s.width) as usize).min(s.len().saturating_sub(1));
                    ReplayPanel {
                        name,
                        lanes,
                        busy: s.in_flight.get(bucket).copied().unwrap_or(0.0),
                        queued: s.queue.get(bucket).copied().unwrap_or(0.0),
                    }
                })
                .collect();
            retry_draw::draw_replay(area, &panels, &replay.scenario, &theme)
        });
        if let Some(slider) = document
            .get_element_by_id("replay-time")
            .and_then(|e| e.dyn_into::<HtmlInputElement>().ok())
        {
            let position = replay.time / replay.horizon() * SLIDER_STEPS;
            slider.set_value(&format!("{}", position.round()));
            let _ = slider.set_attribute("aria-valuetext", &scene::seconds(replay.time));
        }
        if let Some(body) = document.body() {
            let _ = body.set_attribute("data-replay-at", &format!("{:.4}", replay.time));
        }
    });
}

/// Redraws the load chart for the replay's cursor.
fn redraw_load(document: &Document) {
    let visible = shown(document);
    let axis = PLAYER.with(|p| {
        let p = p.borrow();
        let replay = p.clip()?;
        let runs: Vec<retry_draw::Plotted<'_>> = replay
            .sides
            .iter()
            .map(|(name, report, _)| retry_draw::Plotted {
                name,
                report,
                bounds: &[],
                deadline: None,
            })
            .collect();
        // Drawn inside the player's borrow: its axis is kept after.
        let at = Some(replay.time).filter(|_| visible);
        paint_load(document, &runs, &replay.scenario, at, replay.state.config())
    });
    if let Some(axis) = axis {
        with_player(|p| p.set_axis(axis));
    }
}

fn show_play(document: &Document) {
    let playing = with_player(|p| p.clip().is_some_and(|c| c.playing));
    if let Some(button) = document.get_element_by_id("replay-play") {
        button.set_text_content(Some(if playing { tr("Pause") } else { tr("Play") }));
        let _ = button.set_attribute("aria-pressed", if playing { "true" } else { "false" });
    }
}

fn request_frame() {
    if let Some(window) = web_sys::window() {
        let frame = Closure::once_into_js(tick);
        let _ = window.request_animation_frame(frame.unchecked_ref());
    }
}

/// One frame while playing, as [`Player::frame`] decides.
fn tick(wall: f64) {
    let document = document();
    let Some(frame) = with_player(|p| p.frame(wall, is_open(&document))) else {
        return;
    };
    let Frame::Paint { playing, load_due } = frame else {
        show_play(&document);
        return;
    };
    let started = now();
    paint(&document);
    if load_due {
        redraw_load(&document);
    }
    // How long the frame's drawing took, for the in-browser benchmark.
    if let Some(body) = document.body() {
        let _ = body.set_attribute("data-replay-frame-ms", &format!("{:.2}", now() - started));
    }
    if playing {
        request_frame();
    } else {
        show_play(&document);
    }
}

/// Redraws the replay and the load chart's cursor where the player now
/// stands, and puts the instant in the address.
fn moved(document: &Document) {
    show_play(document);
    paint(document);
    redraw_load(document);
    share_instant();
}

/// Keeps the instant the address's fragment names, if any, for the first
/// replay: called as the page starts, before the address is rewritten.
pub(super) fn remember_shared_instant() {
    let time = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .and_then(|hash| retry_sim::link::instant_from_fragment(&hash));
    with_player(|p| *p = Player::new(time));
}

/// Writes the replay's instant into the address's fragment, so the link
/// the reader copies opens the replay where they stopped. Not while it
/// plays: only where it stands still.
fn share_instant() {
    let Some(time) = with_player(|p| p.still_instant()) else {
        return;
    };
    let Some(window) = web_sys::window() else {
        return;
    };
    let search = window.location().search().unwrap_or_default();
    if let Ok(history) = window.history() {
        let url = format!("{search}{}", retry_sim::link::instant_fragment(time));
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

fn toggle_play() {
    let playing = with_player(Player::toggle);
    show_play(&document());
    if playing == Some(true) {
        request_frame();
    } else {
        share_instant();
    }
}

fn step(direction: f64) {
    if with_player(|p| p.step(direction)).is_some() {
        moved(&document());
    }
}

/// Wires the replay's controls, its keys and the load chart's clicks.
pub(super) fn listen(document: &Document) -> Result<(), JsValue> {
    if let Some(select) = document
        .get_element_by_id("replay-speed")
        .and_then(|e| e.dyn_into::<HtmlSelectElement>().ok())
    {
        for speed in SPEEDS {
            let option = document.create_element("option")?;
            option.set_text_content(Some(&retry_core::words::number(&format!("{speed}x"))));
            let _ = option.set_attribute("value", &speed.to_string());
            select.append_child(&option)?;
        }
        let change = Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| {
            let speed = event
                .target()
                .and_then(|t| t.dyn_into::<HtmlSelectElement>().ok())
                .and_then(|s| parse_f64(&s.value()));
            if let Some(speed) = speed {
                with_player(|p| p.set_speed(speed));
            }
        });
        select.add_event_listener_with_callback("change", change.as_ref().unchecked_ref())?;
        change.forget();
    }
    let on = |id: &str, what: fn()| -> Result<(), JsValue> {
        if let Some(button) = document.get_element_by_id(id) {
            let click = Closure::<dyn FnMut()>::new(what);
            button.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
            click.forget();
        }
        Ok(())
    };
    on("replay-play", toggle_play)?;
    on("replay-back", || step(-1.0))?;
    on("replay-forward", || step(1.0))?;
    if let Some(slider) = document.get_element_by_id("replay-time") {
        let input = Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| {
            // The slider's own input must not reach the parameters' form.
            event.stop_propagation();
            let position = event
                .target()
                .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
                .and_then(|s| parse_f64(&s.value()));
            if let Some(position) = position {
                if with_player(|p| p.seek_slider(position, SLIDER_STEPS)).is_some() {
                    moved(&crate::document());
                }
            }
        });
        slider.add_event_listener_with_callback("input", input.as_ref().unchecked_ref())?;
        input.forget();
    }
    if let Some(details) = document.get_element_by_id("replay") {
        let keys =
            Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(|event: web_sys::KeyboardEvent| {
                let key = event.key();
                match retry_view::shortcut(&key, &event.code()) {
                    "k" | "K" => {
                        event.prevent_default();
                        toggle_play();
                    }
                    "," | "<" => step(-1.0),
                    "." | ">" => step(1.0),
                    _ => {}
                }
            });
        details.add_event_listener_with_callback("keydown", keys.as_ref().unchecked_ref())?;
        keys.forget();
        // Opened or closed by the reader, the replay changes what the page
        // shows (the runs trace, the load chart's cursor). Opened by the
        // page's own render (a preset whose lesson is a moment), it is what
        // that render planned: another would only start the charts over.
        let toggle = Closure::<dyn FnMut()>::new(|| {
            if is_open(&crate::document()) != crate::job_shows_replay() {
                crate::schedule();
            }
        });
        details.add_event_listener_with_callback("toggle", toggle.as_ref().unchecked_ref())?;
        toggle.forget();
    }
    if let Some(canvas) = document
        .get_element_by_id(ChartId::Load.canvas_id())
        .and_then(|e| e.dyn_into::<HtmlCanvasElement>().ok())
    {
        let click = Closure::<dyn FnMut(web_sys::MouseEvent)>::new(|event: web_sys::MouseEvent| {
            seek_from_load(&event);
        });
        canvas.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
        click.forget();
        // Dragging with the main button held scrubs along the chart.
        let drag = Closure::<dyn FnMut(web_sys::MouseEvent)>::new(|event: web_sys::MouseEvent| {
            if event.buttons() & 1 != 0 {
                seek_from_load(&event);
            }
        });
        canvas.add_event_listener_with_callback("mousemove", drag.as_ref().unchecked_ref())?;
        drag.forget();
    }
    Ok(())
}

/// Moves the replay to the instant under the pointer on the load chart,
/// opening the replay first if it is closed.
fn seek_from_load(event: &web_sys::MouseEvent) {
    let Some(canvas) = event
        .target()
        .and_then(|t| t.dyn_into::<HtmlCanvasElement>().ok())
    else {
        return;
    };
    let scale = f64::from(canvas.width()) / f64::from(canvas.client_width().max(1));
    let x = f64::from(event.offset_x()) * scale;
    let document = crate::document();
    let open = is_open(&document);
    let click = with_player(|p| p.click_load(x, open));
    let open_fold = matches!(click, Click::OpenAndWait | Click::Seek { open: true });
    if let (true, Some(details)) = (open_fold, document.get_element_by_id("replay")) {
        // Opening renders, which traces: a replay not made yet opens at
        // the instant once its runs are done.
        let _ = details.set_attribute("open", "");
    }
    if let Click::Seek { .. } = click {
        moved(&document);
    }
}
