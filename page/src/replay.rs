//! The replay on the page: its traced runs, its clock, its controls, and
//! the load chart's cursor that follows it. What to draw and say comes
//! from `view::replay` and `chart::draw_replay`.

use std::cell::RefCell;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, HtmlCanvasElement, HtmlInputElement, HtmlSelectElement};

use retry_playground::chart::{self, ReplayPanel, TimeAxis};
use retry_playground::chart_id::ChartId;
use retry_playground::config::Config;
use retry_playground::decimal::parse_f64;
use retry_playground::sim::trace::Trace;
use retry_playground::sim::{Report, Scenario};
use retry_playground::view::Runs;
use retry_playground::view::replay::{self as scene, SPEEDS};

use crate::charts::{draw, theme};
use crate::{document, now};

/// Positions of the time slider.
const SLIDER_STEPS: f64 = 1000.0;
/// Least wall time between two redraws of the load chart while playing:
/// its cursor moves smoothly enough, and the frames stay for the replay.
const LOAD_REDRAW_MS: f64 = 200.0;

struct Replay {
    /// The link the traces belong to.
    link: String,
    scenario: Scenario,
    sides: Vec<(&'static str, Report, Trace)>,
    time: f64,
    playing: bool,
    /// Simulated seconds per second of wall time.
    speed: f64,
    /// Wall time of the last frame while playing.
    last_frame: Option<f64>,
    load_drawn_at: f64,
}

impl Replay {
    fn horizon(&self) -> f64 {
        self.scenario.horizon
    }

    fn step(&self) -> f64 {
        self.sides.first().map_or(0.1, |(_, r, _)| r.series.width)
    }
}

/// What a render decided about a replay whose traced runs are going.
struct Pending {
    link: String,
    /// The instant to open at, from the link's fragment or a click.
    shared: Option<f64>,
    /// Opened at the lesson's moment or a shared instant, still.
    moment: bool,
}

thread_local! {
    static REPLAY: RefCell<Option<Replay>> = const { RefCell::new(None) };
    /// The instant the address's fragment named when the page opened, until
    /// the first replay takes it.
    static SHARED: RefCell<Option<f64>> = const { RefCell::new(None) };
    /// A replay to build once its runs are done.
    static PENDING: RefCell<Option<Pending>> = const { RefCell::new(None) };
    static AXIS: RefCell<Option<TimeAxis>> = const { RefCell::new(None) };
}

fn with_replay<R>(f: impl FnOnce(&mut Replay) -> R) -> Option<R> {
    REPLAY.with(|r| r.borrow_mut().as_mut().map(f))
}

fn is_open(document: &Document) -> bool {
    document
        .get_element_by_id("replay")
        .is_some_and(|d| d.has_attribute("open"))
}

fn reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|q| q.matches())
}

/// The instant the load chart marks: the replay's, while it is open.
pub(super) fn cursor() -> Option<f64> {
    if !is_open(&document()) {
        return None;
    }
    with_replay(|r| r.time)
}

/// Draws the load chart with the replay's cursor, keeping its time axis
/// for clicks.
pub(super) fn draw_load(document: &Document, runs: &[chart::Run<'_>], scenario: &Scenario) {
    draw_load_at(document, runs, scenario, cursor());
}

fn draw_load_at(
    document: &Document,
    runs: &[chart::Run<'_>],
    scenario: &Scenario,
    at: Option<f64>,
) {
    let theme = theme();
    draw(document, ChartId::Load, |area| {
        let axis = chart::draw_load_at(area, runs, scenario, &theme, at)?;
        AXIS.with(|a| *a.borrow_mut() = Some(axis));
        Ok(())
    });
}

/// Decides, as a render of `config` starts, whether the replay shows: a
/// link opened with an instant, or a preset whose lesson is a moment,
/// opens it; changed settings close it. Returns whether it is open, so
/// that the render's runs trace for it. `preset`: the key of the preset
/// the page shows, if any.
pub(super) fn prepare(document: &Document, config: &Config, preset: Option<&str>) -> bool {
    let Some(details) = document.get_element_by_id("replay") else {
        return false;
    };
    let link = config.to_link();
    let previous = with_replay(|r| r.link == link);
    if previous == Some(true) {
        return details.has_attribute("open");
    }
    // A link opened with an instant in its fragment, or a click on the
    // load chart, opens the replay there.
    let shared = if previous.is_none() {
        SHARED.with(|s| s.borrow_mut().take())
    } else {
        None
    };
    let pending = PENDING.with(|p| p.borrow_mut().take().filter(|p| p.link == link));
    let pending = match pending {
        // This state's runs are already on their way: a new instant still
        // counts.
        Some(pending) => Pending {
            moment: pending.moment || shared.is_some(),
            shared: shared.or(pending.shared),
            ..pending
        },
        None => {
            // A preset whose lesson is a moment opens its replay at it,
            // ready and still: nothing moves before the reader asks. An
            // embed of the replay opens that way on every state it shows.
            let moment = shared.is_some()
                || preset.is_some_and(|p| scene::MOMENT_PRESETS.contains(&p))
                || crate::embed::shows_replay();
            if moment {
                let _ = details.set_attribute("open", "");
            } else if previous.is_some() {
                // The settings changed: the replay closes, so that what the
                // page shows stays a function of its link (the replay's
                // instant is not in it), as a fresh page opened on that
                // link shows.
                let _ = details.remove_attribute("open");
                REPLAY.with(|r| *r.borrow_mut() = None);
            }
            Pending {
                link,
                shared,
                moment,
            }
        }
    };
    PENDING.with(|p| *p.borrow_mut() = Some(pending));
    details.has_attribute("open")
}

/// Shows the replay of a render's finished runs: new traces when the link
/// changed (opening at the preset's moment), then a frame.
pub(super) fn show(document: &Document, config: &Config, preset: Option<&str>, runs: &Runs) {
    if !is_open(document) {
        return;
    }
    let link = config.to_link();
    let pending = PENDING.with(|p| {
        let mut p = p.borrow_mut();
        if p.as_ref().is_some_and(|p| p.link == link) {
            p.take()
        } else {
            None
        }
    });
    if let Some(pending) = pending {
        if runs.traces.is_empty() {
            return;
        }
        let mut replay = trace(config, preset, runs);
        if let Some(time) = pending.shared {
            replay.time = time.min(replay.horizon());
        }
        if !pending.moment {
            // Opened by the reader: it plays, unless they asked for
            // reduced motion.
            replay.playing = !reduced_motion();
        }
        REPLAY.with(|r| *r.borrow_mut() = Some(replay));
        if pending.shared.is_some() {
            // The start rewrote the address: give it its instant back.
            share_instant();
        }
        show_play(document);
        // The load chart was drawn before the replay had an instant: mark it.
        redraw_load(document);
        if with_replay(|r| r.playing) == Some(true) {
            request_frame();
        }
    }
    if with_replay(|r| r.link == link) == Some(true) {
        paint(document);
    }
}

/// The replay of finished, traced runs.
fn trace(config: &Config, preset: Option<&str>, runs: &Runs) -> Replay {
    let names: &[&'static str] = if runs.b.is_some() { &["A", "B"] } else { &[""] };
    let reports = std::iter::once(&runs.a).chain(runs.b.as_ref());
    let sides: Vec<(&'static str, Report, Trace)> = names
        .iter()
        .zip(reports)
        .zip(&runs.traces)
        .map(|((name, report), trace)| (*name, report.clone(), trace.clone()))
        .collect();
    let time = scene::opening_time(preset, &sides[0].1, &runs.scenario, &sides[0].2);
    Replay {
        link: config.to_link(),
        scenario: runs.scenario.clone(),
        sides,
        time,
        playing: false,
        speed: chosen_speed(),
        last_frame: None,
        load_drawn_at: 0.0,
    }
}

/// The speed the reader chose (0.1x until they choose).
fn chosen_speed() -> f64 {
    document()
        .get_element_by_id("replay-speed")
        .and_then(|e| e.dyn_into::<HtmlSelectElement>().ok())
        .and_then(|s| parse_f64(&s.value()))
        .unwrap_or(0.1)
}

/// Draws the replay at its instant, with its slider and sentence.
fn paint(document: &Document) {
    let theme = theme();
    REPLAY.with(|r| {
        let r = r.borrow();
        let Some(replay) = r.as_ref() else {
            return;
        };
        let lanes: Vec<_> = replay
            .sides
            .iter()
            .map(|(_, _, trace)| scene::lanes(trace, replay.time))
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
        let sides: Vec<scene::Side<'_>> = replay
            .sides
            .iter()
            .map(|(name, report, trace)| scene::Side {
                name,
                report,
                trace,
            })
            .collect();
        // The line first: where it takes room from the lanes (an embed of
        // the replay), the canvas is sized to what is left of its box.
        if let Some(text) = document.get_element_by_id("replay-text") {
            let line = scene::describe(replay.time, &replay.scenario, &sides);
            text.set_text_content(Some(&line));
        }
        draw(document, ChartId::Replay, |area| {
            chart::draw_replay(area, &panels, &replay.scenario, &theme)
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
    REPLAY.with(|r| {
        let r = r.borrow();
        let Some(replay) = r.as_ref() else {
            return;
        };
        let runs: Vec<chart::Run<'_>> = replay
            .sides
            .iter()
            .map(|(name, report, _)| chart::Run {
                name,
                report,
                bounds: &[],
                deadline: None,
            })
            .collect();
        draw_load_at(document, &runs, &replay.scenario, Some(replay.time));
    });
}

fn show_play(document: &Document) {
    let playing = with_replay(|r| r.playing).unwrap_or(false);
    if let Some(button) = document.get_element_by_id("replay-play") {
        button.set_text_content(Some(if playing { "Pause" } else { "Play" }));
        let _ = button.set_attribute("aria-pressed", if playing { "true" } else { "false" });
    }
}

fn request_frame() {
    if let Some(window) = web_sys::window() {
        let frame = Closure::once_into_js(tick);
        let _ = window.request_animation_frame(frame.unchecked_ref());
    }
}

/// One frame while playing: the clock advances by the wall time since the
/// last frame times the speed, and stops at the horizon.
fn tick(wall: f64) {
    let document = document();
    if !is_open(&document) {
        with_replay(|r| {
            r.playing = false;
            r.last_frame = None;
        });
        show_play(&document);
        return;
    }
    let Some((playing, load_due)) = with_replay(|r| {
        if !r.playing {
            r.last_frame = None;
            return (false, false);
        }
        if let Some(last) = r.last_frame {
            r.time += (wall - last).max(0.0) / 1000.0 * r.speed;
        }
        r.last_frame = Some(wall);
        if r.time >= r.horizon() {
            r.time = r.horizon();
            r.playing = false;
            r.last_frame = None;
        }
        let due = !r.playing || wall - r.load_drawn_at >= LOAD_REDRAW_MS;
        if due {
            r.load_drawn_at = wall;
        }
        (r.playing, due)
    }) else {
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

/// Moves the replay to `time` (clamped to the horizon) and redraws it and
/// the load chart's cursor.
fn seek(time: f64) {
    with_replay(|r| r.time = time.clamp(0.0, r.horizon()));
    let document = document();
    paint(&document);
    redraw_load(&document);
    share_instant();
}

/// Keeps the instant the address's fragment names, if any, for the first
/// replay: called as the page starts, before the address is rewritten.
pub(super) fn remember_shared_instant() {
    let time = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .and_then(|hash| scene::instant_from_fragment(&hash));
    SHARED.with(|s| *s.borrow_mut() = time);
}

/// Writes the replay's instant into the address's fragment, so the link
/// the reader copies opens the replay where they stopped. Not while it
/// plays: only where it stands still.
fn share_instant() {
    let Some(time) = with_replay(|r| (!r.playing).then_some(r.time)).flatten() else {
        return;
    };
    let Some(window) = web_sys::window() else {
        return;
    };
    let search = window.location().search().unwrap_or_default();
    if let Ok(history) = window.history() {
        let url = format!("{search}{}", scene::instant_fragment(time));
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

fn toggle_play() {
    let started = with_replay(|r| {
        if r.time >= r.horizon() {
            r.time = 0.0;
        }
        r.playing = !r.playing;
        r.last_frame = None;
        r.playing
    });
    show_play(&document());
    if started == Some(true) {
        request_frame();
    } else {
        share_instant();
    }
}

fn step(direction: f64) {
    let Some(time) = with_replay(|r| {
        r.playing = false;
        r.time + direction * r.step()
    }) else {
        return;
    };
    show_play(&document());
    seek(time);
}

/// Wires the replay's controls, its keys and the load chart's clicks.
pub(super) fn listen(document: &Document) -> Result<(), JsValue> {
    if let Some(select) = document
        .get_element_by_id("replay-speed")
        .and_then(|e| e.dyn_into::<HtmlSelectElement>().ok())
    {
        for speed in SPEEDS {
            let option = document.create_element("option")?;
            option.set_text_content(Some(&format!("{speed}x")));
            let _ = option.set_attribute("value", &speed.to_string());
            if speed == 0.1 {
                let _ = option.set_attribute("selected", "");
            }
            select.append_child(&option)?;
        }
        let change = Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| {
            let speed = event
                .target()
                .and_then(|t| t.dyn_into::<HtmlSelectElement>().ok())
                .and_then(|s| parse_f64(&s.value()));
            if let Some(speed) = speed {
                with_replay(|r| r.speed = speed);
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
            if let (Some(position), Some(horizon)) = (position, with_replay(|r| r.horizon())) {
                seek(position / SLIDER_STEPS * horizon);
            }
        });
        slider.add_event_listener_with_callback("input", input.as_ref().unchecked_ref())?;
        input.forget();
    }
    if let Some(details) = document.get_element_by_id("replay") {
        let keys =
            Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(|event: web_sys::KeyboardEvent| {
                match event.key().as_str() {
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
    let Some(time) = AXIS.with(|a| a.borrow().map(|axis| axis.time_at(x))) else {
        return;
    };
    let document = crate::document();
    if let Some(details) = document.get_element_by_id("replay") {
        if !details.has_attribute("open") {
            let _ = details.set_attribute("open", "");
            if REPLAY.with(|r| r.borrow().is_none()) {
                // Opening renders, which traces: the replay opens at the
                // instant once its runs are done.
                SHARED.with(|s| *s.borrow_mut() = Some(time));
                return;
            }
        }
    }
    with_replay(|r| r.playing = false);
    show_play(&document);
    seek(time);
}
