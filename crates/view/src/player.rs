//! The replay's state between frames: which runs it shows, whether it is
//! open, still or playing, its clock, and the instant a link or a click on
//! the load chart asks for. Plain decisions with the wall time passed in
//! (ms); the page reads the clock and the fold, asks, and draws.
//!
//! A render first [`prepare`](Player::prepare)s the replay for its state
//! (open at a moment, close on changed settings, or keep), so that its runs
//! trace when the replay will show; once they are done it
//! [`show`](Player::show)s them: a new [`Clip`] for a new state, opened at
//! the lesson's moment or at a shared instant.

use retry_draw::TimeAxis;
use retry_sim::config::{Config, State};
use retry_sim::sim::trace::Trace;
use retry_sim::sim::{Report, Scenario};

use super::replay::{MOMENT_PRESETS, Opening, Shown, lay_out, opening, priority};
use retry_draw::Runs;

/// Least wall time between two redraws of the load chart while playing:
/// its cursor moves smoothly enough, and the frames stay for the replay.
pub const LOAD_REDRAW_MS: f64 = 200.0;

/// The traced runs of one state, and where the replay stands in them.
#[derive(Debug, Clone)]
pub struct Clip {
    /// The state the traces belong to.
    pub state: State,
    pub scenario: Scenario,
    /// Each policy's name ("" alone, "A" and "B" in compare mode), run
    /// and trace.
    pub sides: Vec<(&'static str, Report, Trace)>,
    pub time: f64,
    pub playing: bool,
    /// Simulated seconds per second of wall time.
    pub speed: f64,
    /// Where and how fast it opened, which decides the lanes it shows.
    pub opened: Opening,
    /// Wall time of the last frame while playing.
    last_frame: Option<f64>,
    load_drawn_at: f64,
}

impl Clip {
    /// The replay of finished, traced runs of `config`, just before the
    /// lesson's moment for `preset` and at a speed that suits its world,
    /// still.
    pub fn new(config: &Config, preset: Option<&str>, runs: &Runs) -> Option<Clip> {
        let names: &[&'static str] = if runs.b.is_some() { &["A", "B"] } else { &[""] };
        let reports = std::iter::once(&runs.a).chain(runs.b.as_ref());
        let sides: Vec<(&'static str, Report, Trace)> = names
            .iter()
            .zip(reports)
            .zip(&runs.traces)
            .map(|((name, report), trace)| (*name, report.clone(), trace.clone()))
            .collect();
        let (_, report, trace) = sides.first()?;
        let opened = opening(preset, report, &runs.scenario, trace);
        Some(Clip {
            state: State::of(config),
            scenario: runs.scenario.clone(),
            sides,
            time: opened.time,
            playing: false,
            speed: opened.speed,
            opened,
            last_frame: None,
            load_drawn_at: 0.0,
        })
    }

    pub fn horizon(&self) -> f64 {
        self.scenario.horizon
    }

    /// How far a step back or on goes: one bucket of the series.
    pub fn step(&self) -> f64 {
        self.sides.first().map_or(0.1, |(_, r, _)| r.series.width)
    }

    /// The lanes each side shows when `room` lanes fit: the same clients
    /// for A and B, chosen by A's trace to be busy as the replay opens. An
    /// operation's end stays in sight for a couple of seconds of wall time
    /// at the opening speed before its lane shows another.
    pub fn shown(&self, room: usize) -> Vec<Shown> {
        let Some((_, _, first)) = self.sides.first() else {
            return Vec::new();
        };
        let order = priority(first, &self.opened);
        let hold = self.opened.window.1 - self.opened.window.0;
        self.sides
            .iter()
            .map(|(_, _, trace)| lay_out(trace, &order, room, hold))
            .collect()
    }
}

/// What a render asked of a replay whose traced runs are still going.
#[derive(Debug, Clone, PartialEq)]
struct Pending {
    state: State,
    /// The instant to open at, from the link's fragment or a click.
    shared: Option<f64>,
    /// Opened at the lesson's moment or a shared instant: still.
    moment: bool,
}

/// What a render does with the replay's fold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fold {
    Keep,
    Open,
    /// The settings changed: the replay closes, so that what the page
    /// shows stays a function of its link (the replay's instant is not in
    /// it), as a fresh page opened on that link shows.
    Close,
}

/// A new clip [`Player::show`] made. It stands still: a replay moves
/// only when the reader presses Play, whoever opened it, so nothing moves
/// for a reader who asked for reduced motion and a reader reaching for
/// Play never stops it instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fresh {
    /// It opened at a shared instant, which the address should carry again.
    pub shared: bool,
}

/// What a frame does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Frame {
    /// The fold was closed: the replay stopped.
    Closed,
    /// Paint the replay (and the load chart's cursor when due); ask for
    /// another frame while playing.
    Paint { playing: bool, load_due: bool },
}

/// What a click on the load chart does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Click {
    /// No axis to read the instant from yet.
    Nothing,
    /// Open the fold; its render traces, and the replay opens at the
    /// instant once its runs are done.
    OpenAndWait,
    /// The replay moved there (opening the fold if it was closed).
    Seek { open: bool },
}

/// The replay's state on the page.
#[derive(Debug, Default)]
pub struct Player {
    clip: Option<Clip>,
    /// The instant the address's fragment named when the page opened (or
    /// a click before any replay), until a replay takes it.
    shared: Option<f64>,
    pending: Option<Pending>,
    /// The load chart's time axis as last drawn, for clicks on it.
    axis: Option<TimeAxis>,
}

impl Player {
    /// A player for a page whose address named the instant `shared`.
    pub fn new(shared: Option<f64>) -> Player {
        Player {
            shared,
            ..Player::default()
        }
    }

    pub fn clip(&self) -> Option<&Clip> {
        self.clip.as_ref()
    }

    /// The instant the load chart marks: the replay's, while it is open.
    pub fn cursor(&self, open: bool) -> Option<f64> {
        self.clip.as_ref().filter(|_| open).map(|c| c.time)
    }

    /// The replay's instant while it stands still, for the address's
    /// fragment: not while it plays.
    pub fn still_instant(&self) -> Option<f64> {
        self.clip.as_ref().filter(|c| !c.playing).map(|c| c.time)
    }

    pub fn set_axis(&mut self, axis: TimeAxis) {
        self.axis = Some(axis);
    }

    pub fn set_speed(&mut self, speed: f64) {
        if let Some(clip) = &mut self.clip {
            clip.speed = speed;
        }
    }

    /// A render of `config` starts: a link opened with an instant, or a
    /// preset whose lesson is a moment (`moment_wanted`, also an embed of
    /// the replay), opens the replay; changed settings close it. `open`:
    /// whether the fold is open now.
    pub fn prepare(&mut self, config: &Config, moment_wanted: bool) -> Fold {
        let previous = self.clip.as_ref().map(|c| c.state.is(config));
        if previous == Some(true) {
            return Fold::Keep;
        }
        let shared = if previous.is_none() {
            self.shared.take()
        } else {
            None
        };
        let (pending, fold) = match self.pending.take().filter(|p| p.state.is(config)) {
            // This state's runs are already on their way: a new instant
            // still counts.
            Some(pending) => (
                Pending {
                    moment: pending.moment || shared.is_some(),
                    shared: shared.or(pending.shared),
                    ..pending
                },
                Fold::Keep,
            ),
            None => {
                // Opened at a moment, the replay is ready and still:
                // nothing moves before the reader asks.
                let moment = shared.is_some() || moment_wanted;
                let fold = if moment {
                    Fold::Open
                } else if previous.is_some() {
                    self.clip = None;
                    Fold::Close
                } else {
                    Fold::Keep
                };
                (
                    Pending {
                        state: State::of(config),
                        shared,
                        moment,
                    },
                    fold,
                )
            }
        };
        self.pending = Some(pending);
        fold
    }

    /// The traced runs of `config` are done and the fold is `open`: a new
    /// clip if the state is new (made by `clip`, still until Play). Returns
    /// the new clip's news, and whether there is a clip of `config` to
    /// paint.
    pub fn show(
        &mut self,
        config: &Config,
        open: bool,
        clip: impl FnOnce() -> Option<Clip>,
    ) -> (Option<Fresh>, bool) {
        if !open {
            return (None, false);
        }
        let mut fresh = None;
        if let Some(pending) = self.pending.take_if(|p| p.state.is(config)) {
            let Some(mut clip) = clip() else {
                return (None, false);
            };
            if let Some(time) = pending.shared {
                clip.time = time.min(clip.horizon());
            }
            clip.playing = false;
            fresh = Some(Fresh {
                shared: pending.shared.is_some(),
            });
            self.clip = Some(clip);
        }
        let paint = self.clip.as_ref().is_some_and(|c| c.state.is(config));
        (fresh, paint)
    }

    /// A frame at wall time `wall` (ms) with the fold `open`: the clock
    /// advances by the wall time since the last frame times the speed,
    /// and stops at the horizon.
    pub fn frame(&mut self, wall: f64, open: bool) -> Option<Frame> {
        let clip = self.clip.as_mut()?;
        if !open {
            clip.playing = false;
            clip.last_frame = None;
            return Some(Frame::Closed);
        }
        if !clip.playing {
            clip.last_frame = None;
            return Some(Frame::Paint {
                playing: false,
                load_due: false,
            });
        }
        if let Some(last) = clip.last_frame {
            clip.time += (wall - last).max(0.0) / 1000.0 * clip.speed;
        }
        clip.last_frame = Some(wall);
        if clip.time >= clip.horizon() {
            clip.time = clip.horizon();
            clip.playing = false;
            clip.last_frame = None;
        }
        let load_due = !clip.playing || wall - clip.load_drawn_at >= LOAD_REDRAW_MS;
        if load_due {
            clip.load_drawn_at = wall;
        }
        Some(Frame::Paint {
            playing: clip.playing,
            load_due,
        })
    }

    /// Play or pause (from the start again at the horizon); returns
    /// whether it now plays.
    pub fn toggle(&mut self) -> Option<bool> {
        let clip = self.clip.as_mut()?;
        if clip.time >= clip.horizon() {
            clip.time = 0.0;
        }
        clip.playing = !clip.playing;
        clip.last_frame = None;
        Some(clip.playing)
    }

    /// Stops and moves one bucket back (`-1`) or on (`1`).
    pub fn step(&mut self, direction: f64) -> Option<()> {
        let clip = self.clip.as_mut()?;
        clip.playing = false;
        let time = clip.time + direction * clip.step();
        self.seek(time)
    }

    /// Moves to `time`, within the horizon.
    pub fn seek(&mut self, time: f64) -> Option<()> {
        let clip = self.clip.as_mut()?;
        clip.time = time.clamp(0.0, clip.horizon());
        Some(())
    }

    /// Moves to the slider's `position` of `steps`.
    pub fn seek_slider(&mut self, position: f64, steps: f64) -> Option<()> {
        let horizon = self.clip.as_ref()?.horizon();
        self.seek(position / steps * horizon)
    }

    /// A click (or a drag) at device pixel `x` of the load chart, the fold
    /// `open` or not: the replay stops there.
    pub fn click_load(&mut self, x: f64, open: bool) -> Click {
        let Some(time) = self.axis.map(|axis| axis.time_at(x)) else {
            return Click::Nothing;
        };
        if !open && self.clip.is_none() {
            self.shared = Some(time);
            return Click::OpenAndWait;
        }
        if let Some(clip) = &mut self.clip {
            clip.playing = false;
        }
        self.seek(time);
        Click::Seek { open: !open }
    }
}

/// Whether a preset's lesson is a moment the replay opens at.
pub fn is_moment(preset: Option<&str>) -> bool {
    preset.is_some_and(|p| MOMENT_PRESETS.contains(&p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::config;
    use crate::jobs::{Job, Step, Wants};
    use retry_core::chart_id::ChartId;

    const LINK: &str = "v=1&rate=20&horizon=10&buckets=20&failure=0.3";

    /// The page's job for [`LINK`] with the replay open, done.
    fn traced_job() -> Job {
        let wants = Wants {
            traced: true,
            contention: false,
            map: false,
            search: false,
        };
        let mut job = Job::new(&config(LINK), wants, ChartId::Load);
        while job.step(1 << 20) != Step::Final {}
        job
    }

    fn shown(player: &mut Player) -> (Option<Fresh>, bool) {
        let job = traced_job();
        let runs = job.runs().expect("the runs are done");
        player.show(&config(LINK), true, || Clip::new(&config(LINK), None, runs))
    }

    /// Nothing moves until the reader presses Play: not a replay the
    /// reader opened, not one a moment opened.
    #[test]
    fn a_replay_stands_still_until_play_whoever_opened_it() {
        let mut player = Player::default();
        assert_eq!(player.prepare(&config(LINK), false), Fold::Keep);
        // Closed, nothing shows; the pending replay waits for the fold.
        assert_eq!(player.show(&config(LINK), false, || None), (None, false));
        let (fresh, paint) = shown(&mut player);
        assert_eq!(fresh, Some(Fresh { shared: false }));
        assert!(paint);
        assert_eq!(player.clip().map(|c| c.playing), Some(false));
        assert_eq!(
            player.frame(1000.0, true),
            Some(Frame::Paint {
                playing: false,
                load_due: false
            })
        );
        assert_eq!(player.toggle(), Some(true));
        // A moment opens the fold, still.
        let mut player = Player::default();
        assert_eq!(player.prepare(&config(LINK), true), Fold::Open);
        shown(&mut player);
        assert_eq!(player.clip().map(|c| c.playing), Some(false));
        // The same state again keeps it; other settings close it.
        assert_eq!(player.prepare(&config(LINK), true), Fold::Keep);
        assert_eq!(player.prepare(&config("v=1&rate=21"), false), Fold::Close);
        assert!(player.clip().is_none());
    }

    #[test]
    fn a_shared_instant_opens_the_first_replay_there_once() {
        let mut player = Player::new(Some(4.25));
        assert_eq!(player.prepare(&config(LINK), false), Fold::Open);
        let (fresh, _) = shown(&mut player);
        assert_eq!(fresh, Some(Fresh { shared: true }));
        assert_eq!(player.still_instant(), Some(4.25));
        assert_eq!(player.cursor(true), Some(4.25));
        assert_eq!(player.cursor(false), None);
        // Past the horizon, it opens at the horizon.
        let mut player = Player::new(Some(1e9));
        player.prepare(&config(LINK), false);
        shown(&mut player);
        assert_eq!(player.still_instant(), Some(10.0));
    }

    #[test]
    fn the_clock_follows_the_wall_times_the_speed_and_stops_at_the_horizon() {
        let mut player = Player::default();
        player.prepare(&config(LINK), false);
        shown(&mut player);
        let start = player.clip().map(|c| c.time).expect("a clip");
        assert_eq!(start, 0.0);
        // Whatever speed suits the world, the reader's choice counts.
        player.set_speed(1.0);
        assert_eq!(player.toggle(), Some(true), "Play");
        // The first frame only starts the clock.
        assert_eq!(
            player.frame(1000.0, true),
            Some(Frame::Paint {
                playing: true,
                load_due: true
            })
        );
        assert_eq!(
            player.frame(1100.0, true),
            Some(Frame::Paint {
                playing: true,
                load_due: false
            })
        );
        assert_eq!(
            player.frame(1500.0, true),
            Some(Frame::Paint {
                playing: true,
                load_due: true
            })
        );
        let time = player.clip().map(|c| c.time).expect("a clip");
        assert!((time - 0.5).abs() < 1e-12, "{time}");
        player.set_speed(10.0);
        player.frame(2500.0, true);
        assert_eq!(
            player.clip().map(|c| c.playing),
            Some(false),
            "at the horizon"
        );
        assert_eq!(player.still_instant(), Some(10.0));
        // Play at the horizon starts over; closing the fold stops it.
        assert_eq!(player.toggle(), Some(true));
        assert_eq!(player.still_instant(), None);
        assert_eq!(player.frame(3000.0, false), Some(Frame::Closed));
        assert_eq!(player.still_instant(), Some(0.0));
    }

    #[test]
    fn steps_and_clicks_move_the_replay_and_stop_it() {
        let mut player = Player::default();
        assert_eq!(
            player.click_load(50.0, false),
            Click::Nothing,
            "no axis yet"
        );
        player.set_axis(TimeAxis {
            left: 0.0,
            right: 100.0,
            horizon: 10.0,
        });
        // Before any replay, a click opens the fold and waits for its runs.
        assert_eq!(player.click_load(50.0, false), Click::OpenAndWait);
        assert_eq!(player.prepare(&config(LINK), false), Fold::Open);
        shown(&mut player);
        assert_eq!(player.still_instant(), Some(5.0));
        player.toggle();
        assert_eq!(player.step(1.0), Some(()));
        assert_eq!(player.still_instant(), Some(5.5), "one bucket of 0.5 s");
        player.step(-1.0);
        player.step(-1.0);
        assert_eq!(player.still_instant(), Some(4.5));
        assert_eq!(player.click_load(250.0, true), Click::Seek { open: false });
        assert_eq!(player.still_instant(), Some(10.0));
        assert_eq!(player.click_load(-5.0, false), Click::Seek { open: true });
        assert_eq!(player.still_instant(), Some(0.0));
        player.seek_slider(250.0, 1000.0);
        assert_eq!(player.still_instant(), Some(2.5));
    }
}
