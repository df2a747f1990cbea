#![cfg(target_arch = "wasm32")]
//! The page: the only crate that touches wasm-bindgen and web-sys.
//!
//! It is deliberately thin: [`view`] decides what to show, this crate
//! copies it into the DOM and wires events back. On load it reads the link
//! into a [`Config`](retry_sim::config::Config), builds one control per row of
//! the parameter table, runs and draws. On every input it updates the `Config`, rewrites the
//! address bar with `replaceState` (one history entry per visit, not per
//! pixel of a drag) and asks for one render per animation frame, however
//! many events arrive. Text that came from a link only ever reaches the
//! page as text content.
//!
//! A render does at once what is cheap (the lesson, the controls' state)
//! and hands the rest to a [`Job`]: the runs, then the charts and numbers
//! drawn from them, the contention chart's runs, the sweep. The job works
//! in tasks of about 8 ms, each ended by a message the page posts to
//! itself, so that input and painting come between two tasks; a newer
//! state replaces the job, and its stale run is dropped. While the runs
//! go, the page says how far they got beside the lesson's chart and draws
//! what is simulated so far, shaded beyond. When a task works and when it
//! draws is [`view::driver::Driver`]'s to decide; why slices on this thread and
//! not a Web Worker: `view::jobs`.

use retry_view::canvas::OnPage;
use std::cell::{Cell, RefCell};

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element};

use retry_analyses::seeds;
use retry_core::chart_id::ChartId;
use retry_sim::config::{Config, P, PARAMS};
use retry_sim::simulate;
use retry_teach::course;
use retry_teach::presets::{self, Preset};
use retry_view::{
    self as view,
    driver::{Driver, Next},
    jobs::{Job, Part, Step, Wants},
    page::Page,
};

mod api;
mod before;
mod canvas;
mod chapter;
mod charts;
mod clipboard;
mod controls;
mod embed;
mod exercise_panel;
mod guide;
mod language;
mod lesson_area;
mod map_chart;
mod replay;
mod search_panel;
mod search_workers;
mod share;
mod stress_panel;
mod summary;
mod take_home;
mod translate;
mod yours_panel;

use charts::{draw, draw_of_runs, draw_sweep, place_charts, shown, theme};
use controls::{build_controls, hear_controls, open_groups, set_param, show_value};
use lesson_area::{build_presets, load, show_headlines, show_lesson, show_lesson_text};
use share::{show_notices, sync_link};
use summary::{show_layers, show_summary};

struct App {
    /// The work behind the charts of the state shown; taken out while a
    /// task works on it.
    job: Option<Job>,
    /// When it works and when it draws.
    driver: Driver,
    /// A task of the job is posted and has not run yet.
    task_pending: bool,
    document: Document,
    page: Page,
    /// The preset the learner picked or opened: its lesson stays while
    /// they change settings.
    origin: Option<&'static Preset>,
    /// The lesson's chart as placed, so charts move only when it changes.
    key_chart: Option<ChartId>,
    /// The chapter of the course the link opened, if any.
    course: Option<view::course::Course>,
    frame_pending: bool,
}

impl App {
    /// Puts every value into its widgets, e.g. after switching A and B.
    fn show_all(&self) {
        for index in 0..PARAMS.len() {
            show_value(&self.document, index, self.page.shown_value(index));
        }
        if let Some(sides) = self.document.get_element_by_id("sides") {
            show_if(&sides, self.page.config().comparing());
        }
        let on_b = self.page.showing_b();
        for (id, pressed) in [("edit-a", !on_b), ("edit-b", on_b)] {
            if let Some(button) = self.document.get_element_by_id(id) {
                let _ =
                    button.set_attribute("aria-pressed", if pressed { "true" } else { "false" });
            }
        }
        if let Some(form) = self.document.get_element_by_id("controls") {
            let _ = form.class_list().toggle_with_force("editing-b", on_b);
        }
        self.show_inactive();
        take_home::show_snippet(self);
    }

    /// Dims the rows of the parameters that do not matter under the other
    /// settings of the policy the controls show: after a change, and when
    /// the controls switch between A and B (B's own budget has fields A's
    /// lack of one hides).
    fn show_inactive(&self) {
        for (param, inactive) in PARAMS.iter().zip(self.page.inactive()) {
            if let Some(row) = self
                .document
                .get_element_by_id(&view::controls::row_id(param))
            {
                let _ = row.class_list().toggle_with_force("inactive", inactive);
            }
        }
    }
}

thread_local! {
    static APP: RefCell<Option<App>> = const { RefCell::new(None) };
    /// The channel the page posts its next task through.
    static CHANNEL: RefCell<Option<web_sys::MessageChannel>> = const { RefCell::new(None) };
}

fn document() -> Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("the page has a document")
}

fn show_if(element: &Element, shown: bool) {
    let _ = if shown {
        element.remove_attribute("hidden")
    } else {
        element.set_attribute("hidden", "")
    };
}

/// Entry point, called by the generated loader.
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(show_panic));
    let search = web_sys::window()
        .map(|w| w.location().search().unwrap_or_default())
        .unwrap_or_default();
    // Every word the page writes is in its language: it speaks first.
    language::speak(
        language::choose(&search),
        Box::new(move || {
            if let Err(why) = begin(&search) {
                web_sys::console::error_1(&why);
            }
        }),
    );
}

/// Builds the page for the link's `search` and draws it.
fn begin(search: &str) -> Result<(), JsValue> {
    let document = document();
    translate::translate(&document);
    language::build_switch(&document)?;
    let opened = course::opened(search);
    let (config, notices) = (opened.config.clone(), &opened.notices);
    build_presets(&document)?;
    build_controls(&document)?;
    let chapter = chapter::start(&document, &opened)?;
    take_home::build(&document)?;
    summary::wire_layers(&document)?;
    embed::start(&document, opened.embed.clone())?;
    show_notices(&document, notices);
    build_progress(&document)?;
    stress_panel::open_if_linked(&document);
    APP.with(|app| {
        *app.borrow_mut() = Some(App {
            document: document.clone(),
            // A chapter teaches its preset's lesson however far its
            // settings are from the preset's.
            origin: chapter
                .as_ref()
                .and_then(|c| c.preset())
                .or_else(|| view::lesson::opened_preset(&config)),
            key_chart: None,
            course: chapter,
            page: Page::new(config),
            job: None,
            driver: Driver::default(),
            task_pending: false,
            frame_pending: false,
        })
    });
    #[cfg(feature = "test-hooks")]
    {
        let first = web_sys::window()
            .and_then(|w| js_sys::Reflect::get(&w, &JsValue::from_str("testWorkPerTask")).ok())
            .and_then(|v| v.as_f64());
        if let Some(work) = first {
            pace_for_test(work as u32);
        }
    }
    listen(&document)?;
    listen_for_tasks()?;
    if let Some(starting) = document.get_element_by_id("starting") {
        show_if(&starting, false);
    }
    with_app(|app| {
        app.show_all();
        open_groups(&app.document, app.origin);
    });
    chapter::show();
    replay::remember_shared_instant();
    sync_link();
    render();
    api::install()
}

/// The report of a link as JSON: the same text the command line prints for
/// that link, so tests can compare the browser's numbers with native ones.
#[wasm_bindgen]
pub fn report_json(link: &str) -> String {
    simulate::json_for(&course::open(link).0)
}

/// Re-simulates and redraws the current state at once, in one task,
/// returning the time it took in ms: what the in-browser benchmark
/// measures, the work a render hands to its job, without the slicing.
#[wasm_bindgen]
pub fn redraw_now() -> f64 {
    let started = now();
    with_app(|app| app.job = None);
    finish_now();
    now() - started
}

/// Moves one policy's base delay (B's with `on_b`, else A's) between two
/// values off the preset and re-simulates and redraws at once, in one
/// task: the time in ms of a move on one policy, which keeps the other's
/// run.
#[wasm_bindgen]
pub fn move_now(on_b: bool) -> f64 {
    let started = now();
    with_app(|app| {
        let mut config = app.page.config().clone();
        let index = P::Base as usize;
        let value = match on_b {
            true => config.value_b_at(index),
            false => config.value_at(index),
        };
        // A slider dragged off the preset: 0.3 s and 0.4 s in turn (the
        // first move leaves the preset's 0.2 s).
        let next = if value == 0.3 { 0.4 } else { 0.3 };
        match on_b {
            true => config.set_b_at(index, next),
            false => config.set(P::Base, next),
        };
        app.page.load(config);
    });
    finish_now();
    now() - started
}

/// The runs alone of [`redraw_now`]: A and B of the current state (traced
/// when the replay is open) to their final numbers, drawing nothing; the
/// time it took in ms, which the in-browser benchmark sets beside the
/// redraw and beside the same runs natively (`--only page` of the
/// native benchmark). 0 before the page's first job.
#[wasm_bindgen]
pub fn simulate_now() -> f64 {
    let Some((config, wants)) = with_app(|app| {
        app.job
            .as_ref()
            .map(|job| (job.config().clone(), job.wants()))
    })
    .flatten() else {
        return 0.0;
    };
    let started = now();
    let mut job = Job::new(&config, wants, ChartId::Load);
    while job.running() {
        job.step(u64::MAX);
    }
    now() - started
}

/// Makes the core panic, so the end-to-end tests can check the banner a
/// panic shows; only in pages built for them (feature `test-hooks`).
#[cfg(feature = "test-hooks")]
#[wasm_bindgen]
pub fn panic_for_test() {
    panic!("panic requested by a test");
}

/// The search for a better policy of the state shown, as JSON, once it
/// is done (what `--frontier` prints for its link); empty before. Only in
/// pages built for the tests (feature `test-hooks`).
#[cfg(feature = "test-hooks")]
#[wasm_bindgen]
pub fn frontier_json_for_test() -> String {
    search_panel::frontier_json().unwrap_or_default()
}

/// Caps the work of each of the page's tasks at `work` (0 lifts the
/// cap): a run that is long by construction, which the tests watch while
/// it goes and then let end, whatever the host's speed; only in pages
/// built for them (feature `test-hooks`). A page reads
/// `window.testWorkPerTask` as its first cap, for a test that watches its
/// opening run.
#[cfg(feature = "test-hooks")]
#[wasm_bindgen]
pub fn pace_for_test(work: u32) {
    with_app(|app| app.driver.pace((work > 0).then_some(u64::from(work))));
}

/// Forgets the states before the one shown and draws it again, as a fresh
/// page opened on its link would (no ghost, its own axes): what the
/// end-to-end tests compare with a fresh page; only in pages built for
/// them (feature `test-hooks`).
#[cfg(feature = "test-hooks")]
#[wasm_bindgen]
pub fn forget_before_for_test() {
    before::forget();
    schedule();
}

fn show_panic(info: &std::panic::PanicHookInfo<'_>) {
    let why = info.to_string();
    if let Some(banner) = document().get_element_by_id("panic") {
        if let Some(text) = banner.query_selector(".why").ok().flatten() {
            text.set_text_content(Some(&why));
        }
        show_if(&banner, true);
    }
    web_sys::console::error_1(&JsValue::from_str(&why));
}

fn element(document: &Document, tag: &str, class: &str) -> Result<Element, JsValue> {
    let element = document.create_element(tag)?;
    if !class.is_empty() {
        element.set_class_name(class);
    }
    Ok(element)
}

fn listen(document: &Document) -> Result<(), JsValue> {
    let form = document
        .get_element_by_id("controls")
        .ok_or("the page lacks #controls")?;
    hear_controls(&form)?;

    if let Some(button) = document.get_element_by_id("new-seed") {
        // Any u32 is a seed the link accepts; the browser's
        // crypto.getRandomValues draws it, through getrandom.
        let click = Closure::<dyn FnMut()>::new(|| match getrandom::u32() {
            Ok(seed) => set_param(P::Seed, f64::from(seed)),
            Err(error) => web_sys::console::error_1(&JsValue::from_str(&format!(
                "no random seed from the browser: {error}"
            ))),
        });
        button.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
        click.forget();
    }
    for (id, on_b) in [("edit-a", false), ("edit-b", true)] {
        if let Some(button) = document.get_element_by_id(id) {
            let click = Closure::<dyn FnMut()>::new(move || {
                with_app(|app| {
                    app.page.edit_b(on_b);
                    app.show_all();
                });
            });
            button.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
            click.forget();
        }
    }
    if let Some(button) = document.get_element_by_id("back-to-preset") {
        let click = Closure::<dyn FnMut()>::new(|| {
            if let Some(preset) = with_app(|app| app.origin).flatten() {
                load(preset);
            }
        });
        button.add_event_listener_with_callback("click", click.as_ref().unchecked_ref())?;
        click.forget();
    }
    if let Some(list) = document.get_element_by_id("try-this") {
        lesson_area::apply_on_click(&list)?;
    }
    // Charts behind "More charts" are drawn once they are shown; the
    // search and the stress report run while their panels are open.
    for id in ["more-charts", "search", "stress"] {
        if let Some(panel) = document.get_element_by_id(id) {
            let toggle = Closure::<dyn FnMut()>::new(schedule);
            panel.add_event_listener_with_callback("toggle", toggle.as_ref().unchecked_ref())?;
            toggle.forget();
        }
    }
    share::listen(document)?;
    replay::listen(document)?;
    map_chart::listen(document)?;
    search_panel::listen(document)?;
    stress_panel::listen(document)?;
    yours_panel::listen(document)?;
    let window = web_sys::window().ok_or("no window")?;
    let redraw = Closure::<dyn FnMut()>::new(schedule);
    window.add_event_listener_with_callback("resize", redraw.as_ref().unchecked_ref())?;
    if let Ok(Some(query)) = window.match_media("(prefers-color-scheme: dark)") {
        query.add_event_listener_with_callback("change", redraw.as_ref().unchecked_ref())?;
    }
    redraw.forget();
    Ok(())
}

fn with_app<R>(f: impl FnOnce(&mut App) -> R) -> Option<R> {
    APP.with(|app| app.borrow_mut().as_mut().map(f))
}

/// Whether the current job was planned with the replay open.
fn job_shows_replay() -> bool {
    with_app(|app| app.job.as_ref().is_some_and(|job| job.wants().traced)).unwrap_or(false)
}

/// Asks for one render at the next animation frame, however many events
/// arrive before it.
fn schedule() {
    let already = with_app(|app| std::mem::replace(&mut app.frame_pending, true)).unwrap_or(true);
    if already {
        return;
    }
    // The charts and the sweep are final for no link until the render's
    // job says which (tests wait on them; the address bar itself follows a
    // little later, and may hold the link of an earlier sweep meanwhile).
    if let Some(body) = document().body() {
        let _ = body.remove_attribute("data-link");
        let _ = body.remove_attribute("data-swept");
        let _ = body.remove_attribute("data-spread");
    }
    let Some(window) = web_sys::window() else {
        return;
    };
    let frame = Closure::once_into_js(render);
    let _ = window.request_animation_frame(frame.unchecked_ref());
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// The words beside the lesson's chart while its runs go: built once,
/// shown while there is progress to tell.
fn build_progress(document: &Document) -> Result<(), JsValue> {
    let Some(slot) = document.get_element_by_id("key-slot") else {
        return Ok(());
    };
    let progress = element(document, "p", "progress")?;
    progress.set_id("progress");
    progress.set_attribute("role", "status")?;
    progress.set_attribute("hidden", "")?;
    slot.append_child(&progress)?;
    Ok(())
}

/// Says how far the job got, or hides the words when there is nothing to
/// wait for.
fn show_progress(document: &Document, job: &Job) {
    let Some(progress) = document.get_element_by_id("progress") else {
        return;
    };
    match job.progress() {
        Some(how_far) => {
            progress.set_text_content(Some(&view::jobs::progress_text(how_far)));
            show_if(&progress, true);
        }
        None => show_if(&progress, false),
    }
}

/// The cheap part of showing a state, at once: the controls that do not
/// apply, the lesson, where the charts stand. The rest is the state's
/// [`Job`], which replaces the one before it (keeping its work if the
/// state is the same) and goes in tasks.
fn render() {
    let started = now();
    let Some((config, document, origin)) = with_app(|app| {
        app.frame_pending = false;
        app.show_inactive();
        (app.page.config().clone(), app.document.clone(), app.origin)
    }) else {
        return;
    };
    let lesson = view::lesson::lesson_view(origin, &config);
    show_lesson(&document, &lesson);
    chapter::show();
    let key_chart = embed::key_chart(lesson.key_chart);
    place_charts(&document, key_chart);
    describe_key_chart(&document, key_chart, origin, &config);
    let wants = Wants {
        traced: replay::prepare(
            &document,
            &config,
            presets::matching(&config).map(|p| p.key),
        ),
        contention: shown(&document, ChartId::Contention),
        map: shown(&document, ChartId::Map),
        // On the workers when the page can start them, else in the job.
        search: {
            let open = search_panel::open(&document);
            !search_workers::ensure(&document, &config, open) && open
        },
    };
    stress_panel::ensure(&document, &config);
    with_app(|app| {
        // A render after the first answers a person (or a resize).
        let answers = app.job.is_some();
        let new_world = app
            .job
            .as_ref()
            .is_none_or(|job| !job.config().same_state(&config));
        app.driver.rendered(started, answers, new_world);
        let job = Job::renew(app.job.take(), &config, wants, key_chart);
        // Words still shown for an older state now tell of this one.
        if document
            .get_element_by_id("progress")
            .is_some_and(|p| !p.has_attribute("hidden"))
        {
            show_progress(&document, &job);
        }
        app.job = Some(job);
        take_home::show_snippet(app);
    });
    post_task();
}

/// Listens for the tasks the page posts to itself.
fn listen_for_tasks() -> Result<(), JsValue> {
    let channel = web_sys::MessageChannel::new()?;
    let task = Closure::<dyn FnMut()>::new(|| {
        with_app(|app| app.task_pending = false);
        drive(false);
    });
    channel
        .port1()
        .set_onmessage(Some(task.as_ref().unchecked_ref()));
    task.forget();
    CHANNEL.with(|c| *c.borrow_mut() = Some(channel));
    Ok(())
}

/// Asks for a task of the job soon after what the browser has to do first
/// (input, painting): a message to the page itself, which, unlike a timer,
/// is not delayed by 4 ms.
fn post_task() {
    let already = with_app(|app| std::mem::replace(&mut app.task_pending, true)).unwrap_or(true);
    if already {
        return;
    }
    CHANNEL.with(|c| {
        if let Some(channel) = c.borrow().as_ref() {
            let _ = channel.port2().post_message(&JsValue::NULL);
        }
    });
}

thread_local! {
    /// Widths of the texts the charts measured, by font and text.
    static WIDTHS: RefCell<std::collections::BTreeMap<(String, String), f64>> =
        const { RefCell::new(std::collections::BTreeMap::new()) };
}

/// Most widths kept: every chart's words many times over; past it the
/// cache starts again.
const MOST_WIDTHS: usize = 4096;

/// The width of `text` in `font`, measured once (`measure`): a redraw
/// measures the same ticks and names again, and the page's fonts are the
/// system's, whose widths do not change under it.
pub(crate) fn text_width(font: &str, text: &str, measure: impl FnOnce() -> f64) -> f64 {
    let key = (font.to_string(), text.to_string());
    if let Some(width) = WIDTHS.with(|w| w.borrow().get(&key).copied()) {
        return width;
    }
    let width = measure();
    WIDTHS.with(|w| {
        let mut widths = w.borrow_mut();
        if widths.len() >= MOST_WIDTHS {
            widths.clear();
        }
        widths.insert(key, width);
    });
    width
}

thread_local! {
    /// The address bar's update is asked for and not yet made.
    static LINK_DUE: Cell<bool> = const { Cell::new(false) };
}

/// Runs `then` in a task of its own, after what the page does now: long
/// work in pieces that leave the page responsive between them.
pub(crate) fn later(then: impl FnOnce() + 'static) {
    let task = Closure::once_into_js(then);
    if let Some(window) = web_sys::window() {
        let _ =
            window.set_timeout_with_callback_and_timeout_and_arguments_0(task.unchecked_ref(), 0);
    }
}

/// The page's own address, without its query: what a link on paper or a
/// phone stands on.
pub(crate) fn page_base() -> String {
    web_sys::window()
        .map(|w| w.location())
        .map(|l| {
            format!(
                "{}{}",
                l.origin().unwrap_or_default(),
                l.pathname().unwrap_or_default()
            )
        })
        .unwrap_or_default()
}

/// Renders the current state and does its job's work at once, in this
/// task, until every chart but the sweep is final: for a picture of a
/// chart the page had not drawn, and for the benchmark.
pub(crate) fn finish_now() {
    render();
    drive(true);
}

/// Works on the job for a task's time (`unlimited`: until it is final,
/// the sweep aside), drawing what it asks for, then puts it back and
/// posts the next task if work is left. A newer job that appeared
/// meanwhile replaces this one.
fn drive(unlimited: bool) {
    let Some((mut job, mut task)) = with_app(|app| {
        let task = app.driver.task(now(), unlimited);
        app.job.take().map(|job| (job, task))
    })
    .flatten() else {
        return;
    };
    let document = document();
    let mut left = true;
    // The address bar, in a task of its own after this one (the
    // browser's own process must take it, which can cost a millisecond and
    // tens on a busy machine: not before the new charts are drawn), and
    // once however many inputs came meanwhile; not when it holds the
    // state, so that a replay's instant in its fragment stays.
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    // The address bar carries the reader's language: compared without it,
    // the two never matched, and a browser that counts address changes
    // (WebKit refuses more than 100 in 10 s) kept an older state's link.
    let shown = language::carried(&embed::page_link(job.config(), &document));
    if search.strip_prefix('?') != Some(shown.as_str()) && !LINK_DUE.replace(true) {
        later(|| {
            LINK_DUE.set(false);
            sync_link();
        });
    }
    loop {
        let at = now();
        let next = with_app(|app| {
            app.driver
                .next(&task, at, job.progress().is_some(), job.drawing_next())
        });
        let chunk = match next {
            Some(Next::Work(chunk)) => chunk,
            Some(Next::DrawSoFar) => {
                draw_so_far(&document, &job);
                continue;
            }
            Some(Next::Yield) | None => break,
        };
        let step = job.step(chunk);
        match step {
            Step::Ran => {
                let took = now() - at;
                task.worked(chunk);
                with_app(|app| app.driver.ran(took));
            }
            Step::Ended => {}
            Step::Draw(part) => {
                draw_part(&document, &job, part);
                if task.opening && matches!(part, Part::Chart(_)) {
                    first_chart_drawn(&document);
                }
            }
            Step::Final => {
                drawn(&document, &job);
                if !task.sliced {
                    break;
                }
            }
            Step::Grew(chart) => {
                if with_app(|app| app.driver.growing_chart_due(now())) == Some(true) {
                    draw_part(&document, &job, Part::Chart(chart));
                    with_app(|app| app.driver.growing_chart_drawn(now()));
                }
            }
            Step::Swept => {
                if let Some(body) = document.body() {
                    let _ = body.set_attribute("data-swept", &language::carried(job.link()));
                }
            }
            Step::Idle => {
                left = false;
                break;
            }
        }
    }
    let kept = with_app(|app| {
        if app.job.is_none() {
            app.job = Some(job);
            true
        } else {
            false
        }
    });
    if kept == Some(true) && left {
        post_task();
    }
}

/// Draws the runs as far as they got, the rest shaded as still simulating
/// (the charts of time: load and mechanism), and says how far.
fn draw_so_far(document: &Document, job: &Job) {
    // The first chart's module drew this link's chart whole: it stays
    // until this one's is, not drawn over half done.
    let first = document
        .body()
        .and_then(|b| b.get_attribute(view::lesson::FIRST_CHART_LINK));
    let so_far = (first.as_deref() != Some(job.link()))
        .then(|| job.so_far())
        .flatten();
    let drew = so_far.map(|runs| {
        let charts = runs.charts();
        let theme = theme();
        replay::draw_load(document, &charts, &runs.scenario, job.config());
        draw_of_runs(
            document,
            ChartId::Mechanism,
            job.config(),
            &|area, before| {
                retry_draw::draw_mechanism_after(area, &charts, &runs.scenario, &theme, before)
            },
        );
    });
    let count = with_app(|app| app.driver.showed_progress(now(), drew.is_some()));
    if let (Some(body), Some(count), Some(())) = (document.body(), count, drew) {
        let _ = body.set_attribute("data-partial-draws", &count.to_string());
    }
    show_progress(document, job);
}

/// Draws one part of a job's final results.
fn draw_part(document: &Document, job: &Job, part: Part) {
    let theme = theme();
    match part {
        Part::Chart(chart) => {
            let runs = job.runs();
            let charts = runs.map(retry_draw::Runs::charts);
            let config = job.config();
            // The lesson's chart now shows this state: the one shown so
            // far is the state before it.
            if let (true, true, Some(charts)) = (chart.from_runs(), before::is_key(chart), &charts)
            {
                before::arrive(config, chart, || before::Data::runs(charts));
            }
            match (chart, runs, &charts) {
                (ChartId::Load, Some(runs), Some(charts)) => {
                    replay::draw_load(document, charts, &runs.scenario, config);
                }
                (ChartId::Pauses, _, Some(charts)) => draw(document, chart, |area| {
                    retry_draw::draw_pauses(area, charts, &theme)
                }),
                (ChartId::Latency, Some(runs), Some(charts)) => {
                    draw_of_runs(document, chart, config, &|area, before| {
                        retry_draw::draw_latency_after(area, charts, &runs.scenario, &theme, before)
                    });
                }
                (ChartId::Mechanism, Some(runs), Some(charts)) => {
                    draw_of_runs(document, chart, config, &|area, before| {
                        retry_draw::draw_mechanism_after(
                            area,
                            charts,
                            &runs.scenario,
                            &theme,
                            before,
                        )
                    });
                }
                (ChartId::Replay, Some(runs), _) => {
                    let preset = presets::matching(job.config()).map(|p| p.key);
                    replay::show(document, job.config(), preset, runs);
                }
                (ChartId::Contention, runs, _) => match job.grid() {
                    Some(Ok(grid)) => draw_contention(document, config, grid, runs),
                    Some(Err(why)) => draw(document, chart, |area| {
                        retry_draw::message(area, &theme, why)
                    }),
                    None => {}
                },
                (ChartId::Map, _, _) => map_chart::draw_map(document, job),
                (ChartId::Frontier, _, _) => search_panel::show(document, job),
                (ChartId::Sweep, _, _) => {
                    draw_sweep(document, job);
                    with_app(|app| app.driver.growing_chart_drawn(now()));
                }
                // Charts of runs before the runs are done: nothing yet.
                (
                    ChartId::Load
                    | ChartId::Pauses
                    | ChartId::Latency
                    | ChartId::Mechanism
                    | ChartId::Replay,
                    _,
                    _,
                ) => {}
            }
        }
        Part::Spread => {
            // A lead the lesson's words claim is now the seeds' verdict.
            if let (Some(runs), Some(seeds)) = (job.runs(), job.seeds()) {
                let origin = with_app(|app| app.origin).flatten();
                let text = view::lesson::lesson_text_over(
                    origin,
                    job.config(),
                    &runs.a,
                    runs.b.as_ref(),
                    Some(seeds),
                );
                show_lesson_text(document, &text);
            }
            show_numbers_over_seeds(document, job);
            exercise_panel::show(document, job.config(), job.seeds());
            chapter::measured(job);
            // For the tests: the headlines of this link are measured.
            if let Some(body) = document.body() {
                let _ = body.set_attribute("data-spread", job.link());
            }
        }
        Part::Numbers => {
            let Some(runs) = job.runs() else { return };
            let config = job.config();
            let origin = with_app(|app| app.origin).flatten();
            show_lesson_text(
                document,
                &view::lesson::lesson_text(origin, config, &runs.a, runs.b.as_ref()),
            );
            show_numbers_over_seeds(document, job);
            exercise_panel::show(document, config, job.seeds());
            let mut summary = view::summary::summary(&runs.a, runs.b.as_ref());
            let card = view::summary::card_rows(config, runs.b.is_some());
            summary.rows.extend(card);
            show_summary(document, &summary);
            show_layers(
                document,
                before::layers(config, &runs.a, runs.b.as_ref()).as_deref(),
            );
            if let Some(limit) = document.get_element_by_id("limit") {
                let text = view::notices::limit_text(&runs.a, runs.b.as_ref());
                if let Some(text) = &text {
                    limit.set_text_content(Some(text));
                }
                show_if(&limit, text.is_some());
            }
        }
    }
}

/// The lesson's headline numbers: over the seeds once they are measured,
/// until then the link's seed alone.
fn show_numbers_over_seeds(document: &Document, job: &Job) {
    let Some(runs) = job.runs() else { return };
    let config = job.config();
    let origin = with_app(|app| app.origin).flatten();
    let lesson = view::lesson::lesson_view(origin, config);
    let first;
    let (seeds, measuring) = match job.seeds() {
        Some(seeds) => (seeds, false),
        None => {
            let b = runs.b.as_ref().map(|b| &b.summary);
            first = seeds::Seeds::first(config.seed(), &runs.a.summary, b);
            (&first, true)
        }
    };
    let lines =
        retry_analyses::seeds::headlines(lesson.headline, &lesson.moved(), seeds, measuring);
    show_headlines(document, &lines);
}

/// The contention chart of state `config`, with the headlines' own run (A's)
/// on its row; the lesson's after the state before it.
fn draw_contention(
    document: &Document,
    config: &Config,
    grid: &retry_analyses::contention::ContentionGrid,
    runs: Option<&retry_draw::Runs>,
) {
    let theme = theme();
    let headline = runs.map(|runs| {
        let s = &runs.a.summary;
        ((s.first_tries + s.retries) as f64, s.finished_at)
    });
    let paint = |was: Option<(&retry_analyses::contention::ContentionGrid, (f64, f64))>, axes| {
        let view = retry_draw::ContentionView {
            headline,
            before: was.map(|(grid, _)| grid),
            before_headline: was.map(|(_, headline)| headline),
            axes,
        };
        let drawn = std::cell::Cell::new(None);
        draw(document, ChartId::Contention, |area| {
            drawn.set(Some(retry_draw::draw_contention_view(
                area, grid, &theme, &view,
            )?));
            Ok(())
        });
        drawn.get()
    };
    match (before::is_key(ChartId::Contention), headline) {
        (true, Some(own)) => {
            before::arrive(config, ChartId::Contention, || {
                before::Data::Contention(grid.clone(), own)
            });
            before::draw_contention(config, &mut |was, axes| paint(was, axes));
        }
        _ => {
            paint(None, None);
        }
    }
}

/// What the eye must see on the lesson's chart, for readers of its words
/// (the canvas's description) while the page shows the preset itself: a
/// change may leave the sentence no longer true.
fn describe_key_chart(
    document: &Document,
    key: ChartId,
    origin: Option<&'static Preset>,
    config: &retry_sim::config::Config,
) {
    let sentence = origin
        .filter(|p| p.key_chart == key && presets::matching(config).is_some_and(|m| m.key == p.key))
        .map(|p| p.sees().get());
    for chart in ChartId::ALL {
        if let Some(canvas) = document.get_element_by_id(chart.canvas_id()) {
            let _ = match sentence.filter(|_| chart == key) {
                Some(text) => canvas.set_attribute("aria-description", text),
                None => canvas.remove_attribute("aria-description"),
            };
        }
    }
}

/// The first chart the page opened with (the lesson's) is final: when,
/// from navigation, for the benchmark.
fn first_chart_drawn(document: &Document) {
    if let Some(body) = document
        .body()
        .filter(|b| !b.has_attribute("data-first-chart-at"))
    {
        let _ = body.set_attribute("data-first-chart-at", &format!("{:.0}", now()));
    }
}

/// Every chart but the sweep is final: the words about progress go, and
/// the tests learn what was drawn (how many final draws, of which link,
/// when the last ended and how long it took from its render).
fn drawn(document: &Document, job: &Job) {
    show_progress(document, job);
    if let Some(body) = document.body() {
        let _ = body.remove_attribute(view::lesson::FIRST_CHART_LINK);
    }
    let ended = now();
    let Some((renders, took)) = with_app(|app| app.driver.finished(ended)) else {
        return;
    };
    if let Some(body) = document.body() {
        let _ = body.set_attribute("data-renders", &renders.to_string());
        let _ = body.set_attribute("data-link", &language::carried(job.link()));
        let (drawn_at, render_ms) = view::canvas::render_times(ended, took);
        let _ = body.set_attribute("data-drawn-at", &drawn_at);
        let _ = body.set_attribute("data-render-ms", &render_ms);
    }
}
