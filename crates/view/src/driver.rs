//! The pace of the page's work: how long a task of the [`Job`](super::jobs::Job)
//! works before it yields, how much simulation a slice asks for, when the
//! runs still going are drawn so far and when the sweep is redrawn. Plain
//! decisions with the time passed in (ms, as `performance.now()` gives
//! it); the page only reads the clock, asks, and does what it is told.
//!
//! A task works for [`SLICE_MS`] and yields, so that input and painting
//! come between two tasks; a draw starts a task of its own rather than
//! landing on top of a slice of simulation. While the page still works on
//! the state it opened with, untouched, there is no input to answer yet
//! and every yield lets the browser paint a page still without charts,
//! so its tasks are longer ([`OPENING_SLICE_MS`], still under the 50 ms of
//! a long task). The work per slice adapts so that one slice takes about
//! a millisecond whatever an event costs in the world.

/// Most time a task of a job works before it yields.
pub const SLICE_MS: f64 = 8.0;
/// Most time a task works on the page's first state, until its charts are
/// final or a person changes something.
pub const OPENING_SLICE_MS: f64 = 40.0;
/// A task that has worked this long yields before drawing, so that a draw
/// starts a task of its own.
pub const DRAW_AFTER_MS: f64 = 1.0;
/// Time between two draws of runs still going (and of the sweep while it
/// is computed).
pub const PARTIAL_EVERY_MS: f64 = 150.0;
/// Work per slice of a run in a new world: a millisecond or so on the
/// costliest worlds; it doubles while slices are quick.
pub const FIRST_CHUNK: u64 = 512;
/// The bounds of the work per slice.
const CHUNKS: (u64, u64) = (64, 1 << 22);
/// A slice quicker than this asks for twice the work next time, one
/// slower than [`SLOW_SLICE_MS`] for half.
const QUICK_SLICE_MS: f64 = 0.5;
const SLOW_SLICE_MS: f64 = 2.0;

/// The pacing state of the page's job, across its tasks.
#[derive(Debug, Clone, PartialEq)]
pub struct Driver {
    /// Work per slice of a run.
    chunk: u64,
    /// When the render of the state shown started.
    render_started: f64,
    /// When the runs still going were last drawn (or the state's first
    /// task started); infinite between a render and its first task.
    progress_shown: f64,
    /// When the sweep was last drawn.
    growing_drawn: f64,
    /// The page still works on the state it opened with, untouched.
    opening: bool,
    /// Final draws so far: every chart but the sweep drawn from finished runs.
    renders: u32,
    /// Draws of runs still going, for tests.
    partial_draws: u32,
    /// At most this much work per sliced task: a run long by construction,
    /// for the tests that watch one while it goes, whatever the host's
    /// speed ([`Driver::pace`]).
    per_task: Option<u64>,
}

/// One task of the job: when it started and how long it may work.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Task {
    started: f64,
    budget: f64,
    /// Whether it yields at all (the page's own tasks) or works until the
    /// charts are final (a picture, the benchmark).
    pub sliced: bool,
    /// Whether it is a task of the opening state.
    pub opening: bool,
    /// Work this task may still ask for ([`Driver::pace`]).
    allowance: u64,
}

impl Task {
    /// The task asked for `work` and got it done.
    pub fn worked(&mut self, work: u64) {
        self.allowance = self.allowance.saturating_sub(work);
    }
}

/// What a task does next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// Give the browser its turn; post the next task if work is left.
    Yield,
    /// Draw the runs as far as they got, and say how far.
    DrawSoFar,
    /// Ask the job for this much work (or its next draw).
    Work(u64),
}

impl Default for Driver {
    fn default() -> Self {
        Driver {
            chunk: FIRST_CHUNK,
            render_started: 0.0,
            progress_shown: 0.0,
            growing_drawn: 0.0,
            opening: true,
            renders: 0,
            partial_draws: 0,
            per_task: None,
        }
    }
}

impl Driver {
    /// A render started at `now`. `answers`: it answers a person (a state
    /// after the first); `new_world`: its job has another link than the
    /// one before, whose work costs what it costs.
    pub fn rendered(&mut self, now: f64, answers: bool, new_world: bool) {
        self.opening &= !answers;
        if new_world {
            self.chunk = FIRST_CHUNK;
        }
        self.render_started = now;
        // The first look at progress comes a while after the job's first
        // task: a job done by then never shows any.
        self.progress_shown = f64::INFINITY;
        self.growing_drawn = now;
    }

    /// A task starts at `now`; `unlimited`: it works until the charts are
    /// final.
    pub fn task(&mut self, now: f64, unlimited: bool) -> Task {
        if self.progress_shown.is_infinite() {
            self.progress_shown = now;
        }
        let budget = match (unlimited, self.opening) {
            (true, _) => f64::INFINITY,
            (false, true) => OPENING_SLICE_MS,
            (false, false) => SLICE_MS,
        };
        Task {
            started: now,
            budget,
            sliced: !unlimited,
            opening: self.opening,
            allowance: match (unlimited, self.per_task) {
                (false, Some(work)) => work,
                _ => u64::MAX,
            },
        }
    }

    /// Caps the work of every sliced task from the next one on (`None`
    /// lifts the cap): the tests' way to make a run long by construction
    /// rather than by the host's speed, and to let it end when they are
    /// done looking.
    pub fn pace(&mut self, per_task: Option<u64>) {
        self.per_task = per_task;
    }

    /// What the task does at `now`. `going`: the job's runs are still
    /// going (there is progress to show); `drawing_next`: the job's next
    /// step is a draw.
    pub fn next(&self, task: &Task, now: f64, going: bool, drawing_next: bool) -> Next {
        let worked = now - task.started;
        if worked >= task.budget || task.allowance == 0 {
            return Next::Yield;
        }
        let due = task.sliced && going && now - self.progress_shown >= PARTIAL_EVERY_MS;
        if (due || drawing_next) && task.sliced && !task.opening && worked > DRAW_AFTER_MS {
            return Next::Yield;
        }
        if due {
            return Next::DrawSoFar;
        }
        Next::Work(self.chunk.min(task.allowance))
    }

    /// A slice of simulation took `took` ms: only a whole slice tells what
    /// the world's work costs.
    pub fn ran(&mut self, took: f64) {
        if took < QUICK_SLICE_MS {
            self.chunk = (self.chunk * 2).min(CHUNKS.1);
        } else if took > SLOW_SLICE_MS {
            self.chunk = (self.chunk / 2).max(CHUNKS.0);
        }
    }

    /// The page showed how far the runs got at `now`, and drew them so
    /// far if `drew`; returns how many such draws it made.
    pub fn showed_progress(&mut self, now: f64, drew: bool) -> u32 {
        self.progress_shown = now;
        self.partial_draws += u32::from(drew);
        self.partial_draws
    }

    /// Whether a chart that grows as its runs come (the sweep, the map, the
    /// search's frontier), which just gained one, is due for a redraw at
    /// `now`.
    pub fn growing_chart_due(&self, now: f64) -> bool {
        now - self.growing_drawn >= PARTIAL_EVERY_MS
    }

    pub fn growing_chart_drawn(&mut self, now: f64) {
        self.growing_drawn = now;
    }

    /// Every chart but the sweep is final at `now`: returns how many final
    /// draws the page made and how long this render took.
    pub fn finished(&mut self, now: f64) -> (u32, f64) {
        self.renders += 1;
        self.opening = false;
        (self.renders, now - self.render_started)
    }

    /// Whether the page still works on the state it opened with.
    pub fn opening(&self) -> bool {
        self.opening
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answering() -> Driver {
        let mut driver = Driver::default();
        driver.rendered(0.0, false, true);
        driver.rendered(10.0, true, false);
        driver
    }

    #[test]
    fn a_task_works_its_slice_then_yields() {
        let mut driver = answering();
        let task = driver.task(100.0, false);
        assert!(task.sliced && !task.opening);
        assert_eq!(
            driver.next(&task, 100.0, true, false),
            Next::Work(FIRST_CHUNK)
        );
        assert_eq!(
            driver.next(&task, 107.9, true, false),
            Next::Work(FIRST_CHUNK)
        );
        assert_eq!(driver.next(&task, 108.0, true, false), Next::Yield);
    }

    #[test]
    fn the_opening_state_works_in_longer_tasks_until_its_charts_are_final() {
        let mut driver = Driver::default();
        driver.rendered(0.0, false, true);
        let task = driver.task(5.0, false);
        assert!(task.opening);
        assert_eq!(
            driver.next(&task, 44.9, false, true),
            Next::Work(FIRST_CHUNK)
        );
        assert_eq!(driver.next(&task, 45.0, false, false), Next::Yield);
        assert_eq!(driver.finished(60.0), (1, 60.0));
        assert!(!driver.opening());
        assert!(!driver.task(61.0, false).opening);
        // A person's change ends the opening too.
        let mut driver = Driver::default();
        driver.rendered(0.0, false, true);
        driver.rendered(3.0, true, true);
        assert!(!driver.task(4.0, false).opening);
    }

    #[test]
    fn a_draw_starts_a_task_of_its_own() {
        let mut driver = answering();
        let task = driver.task(100.0, false);
        // Early in a task the draw goes ahead; after a millisecond of work
        // the task yields first.
        assert_eq!(
            driver.next(&task, 100.5, false, true),
            Next::Work(FIRST_CHUNK)
        );
        assert_eq!(driver.next(&task, 101.5, false, true), Next::Yield);
        // Without end (a picture, the benchmark), never.
        let task = driver.task(200.0, true);
        assert_eq!(driver.next(&task, 1e6, true, true), Next::Work(FIRST_CHUNK));
    }

    #[test]
    fn runs_still_going_are_drawn_so_far_every_150_ms() {
        let mut driver = answering();
        // Progress is first looked at when the first task starts.
        let task = driver.task(20.0, false);
        assert_eq!(
            driver.next(&task, 20.5, true, false),
            Next::Work(FIRST_CHUNK)
        );
        let task = driver.task(169.9, false);
        assert_eq!(
            driver.next(&task, 169.9, true, false),
            Next::Work(FIRST_CHUNK)
        );
        let task = driver.task(170.0, false);
        assert_eq!(driver.next(&task, 170.0, true, false), Next::DrawSoFar);
        // Not when the runs are done, and not in an unlimited task.
        assert_eq!(
            driver.next(&task, 170.0, false, false),
            Next::Work(FIRST_CHUNK)
        );
        let unlimited = driver.task(170.0, true);
        assert_eq!(
            driver.next(&unlimited, 170.0, true, false),
            Next::Work(FIRST_CHUNK)
        );
        assert_eq!(driver.showed_progress(170.2, true), 1);
        assert_eq!(
            driver.next(&task, 170.4, true, false),
            Next::Work(FIRST_CHUNK)
        );
        assert_eq!(driver.showed_progress(400.0, false), 1);
        let task = driver.task(549.9, false);
        assert_eq!(
            driver.next(&task, 549.9, true, false),
            Next::Work(FIRST_CHUNK)
        );
    }

    #[test]
    fn a_paced_task_asks_for_no_more_than_its_allowance_then_yields() {
        let mut driver = answering();
        driver.pace(Some(100));
        let mut task = driver.task(0.0, false);
        assert_eq!(driver.next(&task, 0.0, true, false), Next::Work(100));
        task.worked(60);
        assert_eq!(driver.next(&task, 0.1, true, false), Next::Work(40));
        task.worked(40);
        assert_eq!(driver.next(&task, 0.2, true, false), Next::Yield);
        // A task that must end the charts is never paced, nor are tasks
        // once the cap is lifted.
        let unlimited = driver.task(1.0, true);
        assert_eq!(
            driver.next(&unlimited, 1.0, true, false),
            Next::Work(FIRST_CHUNK)
        );
        driver.pace(None);
        let task = driver.task(2.0, false);
        assert_eq!(
            driver.next(&task, 2.0, true, false),
            Next::Work(FIRST_CHUNK)
        );
    }

    #[test]
    fn work_per_slice_follows_what_a_slice_costs() {
        let mut driver = answering();
        driver.ran(0.1);
        driver.ran(0.4);
        let task = driver.task(0.0, true);
        assert_eq!(
            driver.next(&task, 0.0, false, false),
            Next::Work(4 * FIRST_CHUNK)
        );
        driver.ran(1.0);
        assert_eq!(
            driver.next(&task, 0.0, false, false),
            Next::Work(4 * FIRST_CHUNK)
        );
        driver.ran(2.5);
        assert_eq!(
            driver.next(&task, 0.0, false, false),
            Next::Work(2 * FIRST_CHUNK)
        );
        for _ in 0..40 {
            driver.ran(9.0);
        }
        assert_eq!(driver.next(&task, 0.0, false, false), Next::Work(CHUNKS.0));
        for _ in 0..40 {
            driver.ran(0.0);
        }
        assert_eq!(driver.next(&task, 0.0, false, false), Next::Work(CHUNKS.1));
        // The same world keeps what it learnt; another starts small.
        driver.rendered(50.0, true, false);
        assert_eq!(driver.next(&task, 0.0, false, false), Next::Work(CHUNKS.1));
        driver.rendered(60.0, true, true);
        assert_eq!(
            driver.next(&task, 0.0, false, false),
            Next::Work(FIRST_CHUNK)
        );
    }

    #[test]
    fn the_sweep_is_redrawn_every_150_ms_while_it_is_computed() {
        let mut driver = answering();
        assert!(!driver.growing_chart_due(159.9));
        assert!(driver.growing_chart_due(160.0));
        driver.growing_chart_drawn(300.0);
        assert!(!driver.growing_chart_due(449.0));
        assert!(driver.growing_chart_due(450.0));
        assert_eq!(driver.finished(470.0), (1, 460.0));
    }
}
