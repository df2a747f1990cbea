//! The work behind the charts, done a slice at a time between the page's
//! frames: the runs of policies A and B, then the contention chart's grid of
//! runs, the headlines' other seeds, the map of metastability's cells, then
//! the sweep's points; and what to draw as each part ends.
//!
//! ## Why slices on the main thread
//!
//! A big world takes seconds to simulate; the page must still answer every
//! key and drag at once, show how far the run got and drop a run whose
//! state is stale. It does so by cooperative time slicing on the page's own
//! thread rather than with a Web Worker:
//!
//! - *one copy of the simulator*: the page holds one wasm instance, so a big
//!   world's memory is held once, and no report crosses between threads:
//!   no code to send reports and read them back, which would cost download
//!   the page cannot spare;
//! - *one code path*: [`sim::Run`] goes a slice of work at a time and
//!   reports, bit for bit, what a run in one go reports, natively and in
//!   the page alike, so slicing needs no second way of running;
//! - *superseding for free*: a newer state replaces the [`Job`], and the
//!   stale run is simply dropped at the next slice boundary.
//!
//! The page gives a job about 8 ms at a time (it looks at the clock every
//! few thousand events), then yields so that input and painting go first,
//! and comes back at once (a message to itself, not a timer, which the
//! browser delays by 4 ms). A job is plain data and knows no clock: its
//! order and what it asks to draw are tested here natively.

use std::collections::VecDeque;

use retry_analyses::contention::{ContentionGrid, GridRuns};
use retry_analyses::map::{self, MapRuns};
use retry_analyses::search::{self, SearchRuns};
use retry_analyses::seeds::{SeedRuns, Seeds};
use retry_analyses::sliced::{Slice, Sliced};
use retry_analyses::sweep;
use retry_core::chart_id::ChartId;
use retry_draw::Runs;
use retry_sim::config::{Config, P, State};
use retry_sim::sim::{self, Report, trace::Trace};
use retry_sim::simulate;

/// Seeds the contention chart runs each backoff over (see
/// [`retry_analyses::contention::SEEDS`]).
pub const CONTENTION_SEEDS: u64 = retry_analyses::contention::SEEDS;

/// Most server calls the contention chart's runs may make together, by
/// their estimate: about a fifth of a second in the page.
const CONTENTION_WORK: f64 = 1.5e6;

/// Estimated calls of one contention run of `clients` with unlimited
/// attempts: each client conflicts with a fair share of the others.
fn contention_calls(clients: u32) -> f64 {
    let n = f64::from(clients);
    n * (1.0 + n / 2.0)
}

/// The contention chart's runs: every backoff of the AWS 2015 post over
/// [`CONTENTION_SEEDS`] seeds, or why the page does not run them (too many
/// clients for the page to run a hundred worlds at once).
pub fn contention_grid(config: &Config) -> Result<ContentionGrid, String> {
    let mut runs = contention_runs(config)?;
    runs.to_end();
    Ok(runs.finish())
}

/// The contention chart's runs to go a slice at a time, or why the page
/// does not run them (see [`contention_grid`]).
fn contention_runs(config: &Config) -> Result<GridRuns, String> {
    let clients = config.get(P::Clients) as u32;
    let runs = 5.0 * CONTENTION_SEEDS as f64;
    if runs * contention_calls(clients) > CONTENTION_WORK {
        let most = (1..clients)
            .rev()
            .find(|&n| runs * contention_calls(n) <= CONTENTION_WORK)
            .unwrap_or(1);
        return Err(retry_core::tf!(
            "Averaging every backoff over {seeds} seeds runs 100 worlds: at {clients} \
             clients that is more than the page can run at once. Lower Clients to {most} or fewer.",
            seeds = CONTENTION_SEEDS,
            clients = clients,
            most = most
        ));
    }
    Ok(GridRuns::new(config, CONTENTION_SEEDS))
}

/// A sweep being computed a slice at a time between frames; each point is
/// a whole run of the world, and on a big world a big one.
#[derive(Debug)]
pub struct SweepJob {
    /// The state it belongs to: a newer state replaces the job.
    /// The state swept, as a value.
    state: State,
    curves: Vec<sweep::SweepCurve>,
    points: Vec<Vec<sweep::Point>>,
    /// The point being computed: its curve, its failure rate and its run.
    current: Option<(usize, f64, sim::Run)>,
}

impl SweepJob {
    /// The sweep of a configuration, or why the page does not sweep it.
    pub fn new(config: &Config) -> Result<SweepJob, &'static str> {
        if let Some(why) = sweep::refusal(config) {
            return Err(why);
        }
        let curves = sweep::curves(config);
        let points = vec![Vec::with_capacity(sweep::POINTS); curves.len()];
        Ok(SweepJob {
            state: State::of(config),
            curves,
            points,
            current: None,
        })
    }

    /// Whether this is the sweep of `config`'s state.
    pub fn is_of(&self, config: &Config) -> bool {
        self.state.is(config)
    }

    /// Advances the run of the next point by `work` (see
    /// [`sim::Run::advance`]); true when that finished a point. The next
    /// point is of the curve that has fewest, so all curves grow together
    /// and "computing k of n points" is true of each.
    fn advance(&mut self, work: u64) -> bool {
        if self.current.is_none() {
            let next = self
                .points
                .iter()
                .enumerate()
                .filter(|(_, points)| points.len() < sweep::POINTS)
                .min_by_key(|(_, points)| points.len());
            let Some((curve, points)) = next else {
                return false;
            };
            let failure = sweep::failure_at(points.len(), sweep::POINTS);
            let config = sweep::point_config(&self.curves[curve].config, failure);
            let run = sim::Run::new(&simulate::scenario(&config));
            self.current = Some((curve, failure, run));
        }
        let (_, _, run) = self.current.as_mut().expect("a point is being computed");
        if !run.advance(work) {
            return false;
        }
        let (curve, failure, run) = self.current.take().expect("a point is being computed");
        let summary = run.finish().summary;
        self.points[curve].push(sweep::point_of(failure, &summary));
        true
    }

    pub fn done(&self) -> bool {
        self.points.iter().all(|p| p.len() == sweep::POINTS)
    }

    /// The curves as far as they are computed.
    pub fn curves(&self) -> Vec<retry_draw::Curve<'_>> {
        self.curves
            .iter()
            .zip(&self.points)
            .map(|(curve, points)| retry_draw::Curve {
                name: curve.label.get(),
                points,
                colour: curve.colour,
                dashed: curve.dashed,
            })
            .collect()
    }

    /// The sweep as CSV, as the command line writes it, once it is done.
    pub fn csv(&self) -> Option<String> {
        self.done()
            .then(|| sweep::csv_of(&self.curves, &self.points))
    }
}

impl Sliced for SweepJob {
    /// A unit is one point of one curve.
    fn step(&mut self, work: u64) -> Slice {
        if self.done() {
            return Slice::Done;
        }
        let point = self.advance(work);
        Slice::of(self.done(), point)
    }

    fn done(&self) -> bool {
        SweepJob::done(self)
    }
}

/// What the page wants of a job besides the runs of A and B.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Wants {
    /// The replay is open: the runs trace a sample of operations for it.
    pub traced: bool,
    /// The contention chart is on the page: its grid is run too.
    pub contention: bool,
    /// The map of metastability is on the page: its cells are run too.
    pub map: bool,
    /// The search for a better policy is open: its runs go last.
    pub search: bool,
}

/// Something to draw from a job's results, once they are final.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// A chart: from the runs of A and B, the replay from their traces,
    /// the contention chart from its grid, the sweep as far as computed.
    Chart(ChartId),
    /// The numbers: headlines, summary table, calls per layer, the work
    /// limit's notice, the policy as configuration.
    Numbers,
    /// The headlines again, with their range over the seeds and which
    /// policy is better ([`Job::seeds`]).
    Spread,
}

/// What one step of a job did, for the page to act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// A whole slice of a run: nothing new to show but how far it got.
    Ran,
    /// A slice in which a run ended, maybe before its work was done; the
    /// next begins another run (or the drawing).
    Ended,
    /// Draw this part from the job's results.
    Draw(Part),
    /// Everything the page shows but the sweep is final.
    Final,
    /// An analysis drawn as it grows gained a unit: the map of
    /// metastability a cell, the sweep a point, the search a run. Its
    /// chart may be drawn as far as it got.
    Grew(ChartId),
    /// The sweep is complete.
    Swept,
    /// Nothing is left to do.
    Idle,
}

/// How far a job's runs got, for the words beside the lesson's chart.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Progress {
    /// The runs of A and B: the least time either simulated so far.
    Simulating { at: f64, horizon: f64 },
    /// The contention chart's runs: how many of them are done.
    Contention { done: usize, of: usize },
}

/// The progress in plain words.
pub fn progress_text(progress: Progress) -> String {
    match progress {
        Progress::Simulating { at, horizon } => {
            let seconds = |t: f64| {
                if horizon >= 10.0 {
                    format!("{t:.0}")
                } else {
                    format!("{t:.1}")
                }
            };
            retry_core::tf!(
                "Simulating\u{2026} {at} s of {horizon} s",
                at = seconds(at.clamp(0.0, horizon)),
                horizon = seconds(horizon)
            )
        }
        Progress::Contention { done, of } => {
            retry_core::tf!(
                "Running the contention chart's worlds\u{2026} {done} of {of}",
                done = done,
                of = of
            )
        }
    }
}

/// One policy's run: going, or done with its report (and trace).
#[derive(Debug)]
enum RunState {
    Going(sim::Run),
    Done(Report, Option<Trace>),
}

impl RunState {
    fn new(config: &Config, traced: bool) -> RunState {
        let scenario = simulate::scenario(config);
        RunState::Going(if traced {
            sim::Run::traced(&scenario)
        } else {
            sim::Run::new(&scenario)
        })
    }

    fn report(&self) -> Report {
        match self {
            RunState::Going(run) => run.so_far(),
            RunState::Done(report, _) => report.clone(),
        }
    }
}

/// What a job does, in order; each step works on the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Task {
    Runs,
    Draw(Part),
    Grid,
    Final,
    Seeds,
    /// An analysis drawn as it grows ([`Job::growing`]), by its chart.
    Grow(ChartId),
    Swept,
}

#[derive(Debug)]
enum Grid {
    Going(Box<GridRuns>),
    Done(Result<ContentionGrid, String>),
}

/// Everything the page computes for one state, a slice at a time: the runs
/// of A and B in turn (so both grow together), then what to draw from them
/// (the numbers and the lesson's chart first), then the contention chart's
/// runs when it is shown, then the headlines' other seeds (after every
/// chart, which they must not delay), then the sweep. See the module's
/// docs for why.
#[derive(Debug)]
pub struct Job {
    link: String,
    config: Config,
    wants: Wants,
    /// The runs trace for the replay.
    traced: bool,
    /// A's run, then B's when comparing.
    sides: Vec<RunState>,
    /// What each side runs: a side whose scenario a newer state keeps is
    /// not run again.
    scenarios: Vec<sim::Scenario>,
    /// The sides taken done from the job this one replaced.
    reused: usize,
    /// The side that goes next.
    turn: usize,
    runs: Option<Runs>,
    grid: Option<Grid>,
    /// The runs of the seeds after the link's, once the runs of A and B
    /// say what a seed costs.
    seeds: Option<SeedRuns>,
    /// The map of metastability when it is shown, or why it is not drawn.
    map: Option<Result<MapRuns, &'static str>>,
    /// The search for a better policy when it is open, or why the page
    /// does not search.
    search: Option<Result<SearchRuns, &'static str>>,
    sweep: Result<SweepJob, &'static str>,
    plan: VecDeque<Task>,
}

impl Job {
    /// The job of a state: `key_chart` is the canvas of the lesson's chart,
    /// drawn first.
    pub fn new(config: &Config, wants: Wants, key_chart: ChartId) -> Job {
        let mut job = Job {
            link: config.to_link(),
            config: config.clone(),
            wants,
            traced: wants.traced,
            sides: Vec::new(),
            scenarios: Vec::new(),
            reused: 0,
            turn: 0,
            runs: None,
            grid: None,
            seeds: None,
            map: None,
            search: None,
            sweep: SweepJob::new(config),
            plan: VecDeque::new(),
        };
        job.start_runs();
        job.start_grid();
        job.start_map();
        job.start_search();
        job.plan(key_chart);
        job
    }

    /// The job for a state that replaces `old`: the same state keeps what
    /// `old` computed, with the runs again if they must now trace, and
    /// draws it all again (the page was resized, a chart was shown); a
    /// newer state drops `old`, a stale run and all, and starts afresh,
    /// but for the map of metastability when only the trigger changed.
    pub fn renew(old: Option<Job>, config: &Config, wants: Wants, key_chart: ChartId) -> Job {
        let old = match old {
            Some(job) if !job.config.same_state(config) => {
                let mut new = Job::new(config, wants, key_chart);
                new.reuse_runs(&job);
                // A cell opened from the map has the map it was opened from.
                if new.map.is_some() && map::map_key(&job.config) == map::map_key(config) {
                    new.map = job.map;
                }
                return new;
            }
            old => old,
        };
        let Some(mut job) = old else {
            return Job::new(config, wants, key_chart);
        };
        job.wants = wants;
        if wants.traced && !job.traced {
            job.traced = true;
            job.start_runs();
        }
        if wants.contention && job.grid.is_none() {
            job.start_grid();
        }
        if wants.map && job.map.is_none() {
            job.start_map();
        }
        if wants.search && job.search.is_none() {
            job.start_search();
        }
        job.plan(key_chart);
        job
    }

    fn start_runs(&mut self) {
        let mut configs = vec![self.config.clone()];
        if self.config.comparing() {
            configs.push(self.config.policy_b_config());
        }
        self.scenarios = configs.iter().map(simulate::scenario).collect();
        self.sides = configs
            .iter()
            .map(|config| RunState::new(config, self.traced))
            .collect();
        self.turn = 0;
        self.runs = None;
        self.reused = 0;
    }

    /// Takes from `old` every side's finished run whose scenario this job
    /// runs too (a move on B keeps A's run), if traced as this job needs.
    fn reuse_runs(&mut self, old: &Job) {
        for (i, scenario) in self.scenarios.iter().enumerate() {
            let kept = old
                .scenarios
                .iter()
                .position(|s| s == scenario)
                .map(|j| &old.sides[j]);
            // A traced run serves a job that needs no trace (leaving a
            // preset closes its replay), not the other way round.
            if let Some(RunState::Done(report, trace)) = kept {
                if trace.is_some() || !self.traced {
                    let trace = trace.clone().filter(|_| self.traced);
                    self.sides[i] = RunState::Done(report.clone(), trace);
                    self.reused += 1;
                }
            }
        }
    }

    /// How many sides this job took done from the one it replaced.
    pub fn reused(&self) -> usize {
        self.reused
    }

    fn start_grid(&mut self) {
        if self.wants.contention {
            self.grid = Some(match contention_runs(&self.config) {
                Ok(runs) => Grid::Going(Box::new(runs)),
                Err(why) => Grid::Done(Err(why)),
            });
        }
    }

    fn start_map(&mut self) {
        if self.wants.map {
            self.map = Some(match map::refusal(&self.config) {
                Some(why) => Err(why),
                None => Ok(MapRuns::new(
                    &self.config,
                    self.config.map_rows(),
                    map::WORK_BUDGET,
                )),
            });
        }
    }

    fn start_search(&mut self) {
        if self.wants.search {
            self.search = Some(match search::refusal(&self.config) {
                Some(why) => Err(why),
                None => Ok(SearchRuns::new(&self.config)),
            });
        }
    }

    /// The order of work and drawing: the runs, the numbers, the lesson's
    /// chart, the other charts of the runs, the replay, the contention
    /// chart, the headlines over the seeds, then the sweep.
    fn plan(&mut self, key_chart: ChartId) {
        // The numbers come first: they may take room from the charts (a
        // notice above them, an embed's column), and a chart is drawn to the
        // size its box has when it is drawn.
        let mut plan = VecDeque::from([Task::Runs, Task::Draw(Part::Numbers)]);
        let run_charts = || ChartId::ALL.into_iter().filter(|chart| chart.from_runs());
        if key_chart.from_runs() {
            plan.push_back(Task::Draw(Part::Chart(key_chart)));
        }
        for chart in run_charts().filter(|&chart| chart != key_chart) {
            plan.push_back(Task::Draw(Part::Chart(chart)));
        }
        if self.traced {
            plan.push_back(Task::Draw(Part::Chart(ChartId::Replay)));
        }
        if self.grid.is_some() {
            plan.extend([Task::Grid, Task::Draw(Part::Chart(ChartId::Contention))]);
        }
        plan.extend([
            Task::Final,
            Task::Draw(Part::Chart(ChartId::Sweep)),
            Task::Seeds,
            Task::Draw(Part::Spread),
        ]);
        if self.map.is_some() {
            plan.extend([
                Task::Grow(ChartId::Map),
                Task::Draw(Part::Chart(ChartId::Map)),
            ]);
        }
        plan.extend([
            Task::Grow(ChartId::Sweep),
            Task::Draw(Part::Chart(ChartId::Sweep)),
            Task::Swept,
        ]);
        // The search last: thousands of small runs, which nothing else on
        // the page waits for.
        if self.search.is_some() {
            plan.extend([
                Task::Grow(ChartId::Frontier),
                Task::Draw(Part::Chart(ChartId::Frontier)),
            ]);
        }
        self.plan = plan;
    }

    /// The link of the state this job computes.
    pub fn link(&self) -> &str {
        &self.link
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// What the page wanted when it last planned this job.
    pub fn wants(&self) -> Wants {
        self.wants
    }

    /// Whether the runs trace for the replay.
    pub fn traced(&self) -> bool {
        self.traced
    }

    /// Whether the next step draws (and computes nothing).
    pub fn drawing_next(&self) -> bool {
        matches!(self.plan.front(), Some(Task::Draw(_)))
    }

    /// Whether every chart but the sweep is drawn final ([`Step::Final`]
    /// came).
    pub fn is_final(&self) -> bool {
        !self.plan.contains(&Task::Final)
    }

    /// Whether the runs of A and B are still going.
    pub fn running(&self) -> bool {
        self.runs.is_none()
    }

    /// Does the next piece of work, at most about `work` units of a run's
    /// work (see [`sim::Run::advance`]), or asks for the next drawing.
    pub fn step(&mut self, work: u64) -> Step {
        loop {
            let Some(&task) = self.plan.front() else {
                return Step::Idle;
            };
            match task {
                Task::Runs => {
                    if self.runs.is_some() {
                        self.plan.pop_front();
                        continue;
                    }
                    if !self.advance_runs(work) {
                        return Step::Ran;
                    }
                    if self.runs.is_some() {
                        self.plan.pop_front();
                    }
                    return Step::Ended;
                }
                Task::Draw(part) => {
                    self.plan.pop_front();
                    return Step::Draw(part);
                }
                Task::Grid => {
                    let Some(Grid::Going(runs)) = &mut self.grid else {
                        self.plan.pop_front();
                        continue;
                    };
                    return match runs.step(work) {
                        Slice::Working => Step::Ran,
                        Slice::Unit => Step::Ended,
                        Slice::Done => {
                            let Some(Grid::Going(runs)) = self.grid.take() else {
                                unreachable!("the grid was going");
                            };
                            self.grid = Some(Grid::Done(Ok(runs.finish())));
                            self.plan.pop_front();
                            Step::Ended
                        }
                    };
                }
                Task::Final => {
                    self.plan.pop_front();
                    return Step::Final;
                }
                Task::Seeds => {
                    if self.seeds.as_ref().is_some_and(SeedRuns::done) {
                        self.plan.pop_front();
                        continue;
                    }
                    let Some(runs) = &self.runs else {
                        unreachable!("the runs come first");
                    };
                    let seeds = self.seeds.get_or_insert_with(|| {
                        SeedRuns::new(
                            &self.config,
                            &runs.a.summary,
                            runs.b.as_ref().map(|b| &b.summary),
                        )
                    });
                    return match seeds.step(work) {
                        Slice::Working => Step::Ran,
                        Slice::Unit => Step::Ended,
                        Slice::Done => {
                            self.plan.pop_front();
                            Step::Ended
                        }
                    };
                }
                Task::Grow(chart) => match self.growing(chart) {
                    Some(analysis) if !analysis.done() => {
                        return match analysis.step(work) {
                            Slice::Working => Step::Ran,
                            Slice::Unit | Slice::Done => Step::Grew(chart),
                        };
                    }
                    _ => {
                        self.plan.pop_front();
                    }
                },
                Task::Swept => {
                    self.plan.pop_front();
                    return Step::Swept;
                }
            }
        }
    }

    /// The analysis drawn as it grows on `chart`, if the page shows it and
    /// the world does not refuse it: the map of metastability, the sweep,
    /// the search for a better policy.
    fn growing(&mut self, chart: ChartId) -> Option<&mut dyn Sliced> {
        match chart {
            ChartId::Map => Some(self.map.as_mut()?.as_mut().ok()?),
            ChartId::Sweep => Some(self.sweep.as_mut().ok()?),
            ChartId::Frontier => Some(self.search.as_mut()?.as_mut().ok()?),
            _ => None,
        }
    }

    /// Advances the side whose turn it is, and makes the runs once both
    /// are done; true if its run ended.
    fn advance_runs(&mut self, work: u64) -> bool {
        let mut ended = false;
        let count = self.sides.len();
        let going = (0..count)
            .map(|k| (self.turn + k) % count)
            .find(|&i| matches!(self.sides[i], RunState::Going(_)));
        if let Some(i) = going {
            if let RunState::Going(run) = &mut self.sides[i] {
                if run.advance(work) {
                    ended = true;
                    // Keep the report and the trace of the ended run.
                    self.sides = std::mem::take(&mut self.sides)
                        .into_iter()
                        .map(|side| match side {
                            RunState::Going(run) if run.done() => {
                                let (report, trace) = run.finish_traced();
                                RunState::Done(report, trace)
                            }
                            side => side,
                        })
                        .collect();
                }
            }
            self.turn = (i + 1) % count;
        }
        if self
            .sides
            .iter()
            .all(|side| matches!(side, RunState::Done(..)))
        {
            self.runs = Some(self.make_runs(|side| side.report()));
            ended = true;
        }
        ended
    }

    fn make_runs(&self, report: impl Fn(&RunState) -> Report) -> Runs {
        let traces = self
            .sides
            .iter()
            .filter_map(|side| match side {
                RunState::Done(_, trace) => trace.clone(),
                RunState::Going(_) => None,
            })
            .collect();
        Runs::new(
            &self.config,
            simulate::scenario(&self.config).sanitized(),
            report(&self.sides[0]),
            self.sides.get(1).map(&report),
            traces,
        )
    }

    /// The runs of A and B once both are done.
    pub fn runs(&self) -> Option<&Runs> {
        self.runs.as_ref()
    }

    /// What the runs of A and B simulated so far, while they go: reports
    /// shaped like runs cut at that instant ([`Runs::in_progress`]).
    pub fn so_far(&self) -> Option<Runs> {
        self.running().then(|| self.make_runs(RunState::report))
    }

    /// How far the work the page waits for got: the runs of A and B, then
    /// the contention chart's runs; none once those are done.
    pub fn progress(&self) -> Option<Progress> {
        if self.running() {
            let at = self
                .sides
                .iter()
                .map(|side| match side {
                    RunState::Going(run) => run.simulated_until(),
                    RunState::Done(report, _) => report.summary.simulated_until,
                })
                .fold(f64::INFINITY, f64::min);
            // The table's horizon is the simulator's: one range for both
            // (asked on every slice, so not the whole scenario rebuilt).
            let horizon = self.config.get(P::Horizon);
            return Some(Progress::Simulating { at, horizon });
        }
        match &self.grid {
            Some(Grid::Going(runs)) => Some(Progress::Contention {
                done: runs.finished(),
                of: runs.total(),
            }),
            _ => None,
        }
    }

    /// The contention chart's grid, or why the page does not run it, once
    /// it is done.
    pub fn grid(&self) -> Option<&Result<ContentionGrid, String>> {
        match &self.grid {
            Some(Grid::Done(grid)) => Some(grid),
            _ => None,
        }
    }

    /// The headlines' seeds, once every one is measured.
    pub fn seeds(&self) -> Option<&Seeds> {
        self.seeds
            .as_ref()
            .filter(|s| s.done())
            .map(SeedRuns::seeds)
    }

    /// The map of metastability as far as it is computed, or why the page
    /// does not draw it; none when it is not shown.
    pub fn map(&self) -> Option<&Result<MapRuns, &'static str>> {
        self.map.as_ref()
    }

    /// The search for a better policy as far as it got, or why the page
    /// does not search; none when it is not open.
    pub fn search(&self) -> Option<&Result<SearchRuns, &'static str>> {
        self.search.as_ref()
    }

    /// The sweep as far as it is computed, or why the page does not sweep.
    pub fn sweep(&self) -> &Result<SweepJob, &'static str> {
        &self.sweep
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{config, preset};
    use retry_analyses::seeds;
    use retry_draw::run;
    use retry_teach::lesson;
    use retry_teach::presets::PRESETS;

    #[test]
    fn runs_are_named_for_the_charts_only_when_comparing() {
        let one = run(&config("v=1&rate=10&horizon=2&deadline=3"));
        let names: Vec<(&str, Option<f64>)> =
            one.charts().iter().map(|r| (r.name, r.deadline)).collect();
        assert_eq!(names, [("", Some(3.0))]);
        let both = run(&config(
            "v=1&compare=on&rate=10&horizon=2&attempts=3&B.attempts=5&B.deadline=2",
        ));
        let charts = both.charts();
        let names: Vec<(&str, Option<f64>, usize)> = charts
            .iter()
            .map(|r| (r.name, r.deadline, r.bounds.len()))
            .collect();
        assert_eq!(names, [("A", None, 2), ("B", Some(2.0), 4)]);
    }

    #[test]
    fn a_sweep_job_computes_the_whole_sweep_point_by_point() {
        let config = config("v=1&compare=on&rate=20&horizon=2&B.attempts=1");
        let mut job = SweepJob::new(&config).expect("small enough to sweep");
        assert!(job.is_of(&config));
        let mut steps = 0;
        let mut last = Slice::Working;
        while last != Slice::Done {
            // A whole point at a time: every slice ends a unit.
            last = job.step(u64::MAX);
            steps += 1;
            assert_eq!(last == Slice::Done, steps == 2 * sweep::POINTS);
            assert_eq!(job.done(), steps == 2 * sweep::POINTS);
            // Both curves grow together, so "k of n points" holds for each.
            let counts: Vec<usize> = job.curves().iter().map(|c| c.points.len()).collect();
            assert_eq!(
                counts,
                [steps - steps / 2, steps / 2],
                "after {steps} steps"
            );
        }
        assert_eq!(steps, 2 * sweep::POINTS);
        let curves = job.curves();
        assert_eq!(
            curves
                .iter()
                .map(|c| (c.name, c.colour, c.dashed))
                .collect::<Vec<_>>(),
            [("A", 0, false), ("B", 4, true)]
        );
        assert_eq!(curves[0].points, sweep::sweep(&config, sweep::POINTS));
        assert_eq!(
            curves[1].points,
            sweep::sweep(&config.policy_b_config(), sweep::POINTS)
        );
    }

    fn json(report: &Report) -> String {
        simulate::to_json(report)
    }

    /// Steps a job until it is idle; returns its steps, each run of `Ran`
    /// written once, and checks what it reports so far while its runs go.
    fn drive(job: &mut Job, work: u64) -> Vec<Step> {
        let mut steps = Vec::new();
        loop {
            if let Some(so_far) = job.so_far() {
                assert!(so_far.in_progress());
                assert!(matches!(job.progress(), Some(Progress::Simulating { .. })));
            }
            let step = job.step(work);
            if step == Step::Idle {
                return steps;
            }
            assert!(steps.len() < 100_000, "a job that never ends");
            // Slices of runs, ended or not, are written once.
            let step = if step == Step::Ended { Step::Ran } else { step };
            if !(step == Step::Ran && steps.last() == Some(&Step::Ran)) {
                steps.push(step);
            }
        }
    }

    /// The steps after the runs, without the slices of the sweep's runs.
    fn drawn(steps: &[Step]) -> Vec<Step> {
        steps
            .iter()
            .skip_while(|step| **step == Step::Ran)
            .filter(|step| **step != Step::Ran)
            .copied()
            .collect()
    }

    #[test]
    fn a_job_runs_a_and_b_in_turn_then_draws_the_numbers_and_the_lessons_chart_first() {
        let config = config("v=1&compare=on&rate=200&horizon=10&failure=0.3&B.attempts=2");
        let mut job = Job::new(&config, Wants::default(), ChartId::Latency);
        assert_eq!(job.link(), config.to_link());
        // A and B take turns: both have simulated part of their world
        // before either is done.
        let mut both_going = false;
        while job.running() {
            assert!(matches!(job.step(50), Step::Ran | Step::Ended));
            if let Some(so_far) = job.so_far() {
                let b = so_far.b.as_ref().expect("comparing");
                both_going |= so_far.a.summary.in_progress()
                    && b.summary.in_progress()
                    && so_far.a.summary.operations > 0
                    && b.summary.operations > 0;
            }
        }
        assert!(both_going);
        let steps = drive(&mut job, 50);
        let mut expected = vec![
            Step::Draw(Part::Numbers),
            Step::Draw(Part::Chart(ChartId::Latency)),
            Step::Draw(Part::Chart(ChartId::Load)),
            Step::Draw(Part::Chart(ChartId::Pauses)),
            Step::Draw(Part::Chart(ChartId::Mechanism)),
            Step::Final,
            Step::Draw(Part::Chart(ChartId::Sweep)),
            Step::Draw(Part::Spread),
        ];
        expected.extend([Step::Grew(ChartId::Sweep); 2 * sweep::POINTS]);
        expected.extend([Step::Draw(Part::Chart(ChartId::Sweep)), Step::Swept]);
        assert_eq!(drawn(&steps), expected);
        // The same numbers as runs in one go, and the same sweep.
        let runs = job.runs().expect("done");
        let whole = run(&config);
        assert_eq!(json(&runs.a), json(&whole.a));
        assert_eq!(
            json(runs.b.as_ref().expect("B")),
            json(whole.b.as_ref().expect("B"))
        );
        assert!(runs.traces.is_empty(), "nobody asked for a trace");
        let sweep = job.sweep().as_ref().expect("small enough to sweep");
        assert_eq!(
            sweep.curves()[0].points,
            sweep::sweep(&config, sweep::POINTS)
        );
        assert_eq!(sweep.csv(), Some(sweep::to_csv(&config)));
        assert_eq!(job.progress(), None);
        assert!(job.is_final());
        assert_eq!(job.step(50), Step::Idle);
    }

    /// The headlines' other seeds wait for every chart, go a slice at a
    /// time like any run, and give what they give in one go; the same
    /// state keeps them.
    #[test]
    fn the_seeds_run_after_the_charts_in_slices_to_the_numbers_in_one_go() {
        let config = preset("lost-response").config();
        let mut job = Job::new(&config, Wants::default(), ChartId::Load);
        let mut steps = Vec::new();
        loop {
            match job.step(300) {
                Step::Draw(Part::Spread) => break,
                Step::Idle => panic!("no spread"),
                step => steps.push(step),
            }
            assert!(steps.len() < 100_000, "a job that never ends");
        }
        let final_at = steps
            .iter()
            .position(|s| *s == Step::Final)
            .expect("the charts are final first");
        assert_eq!(job.seeds(), Some(&seeds::over_seeds(&config)));
        // Nine more seeds of A and B, each run in several slices.
        let slices = steps[final_at..]
            .iter()
            .filter(|s| matches!(s, Step::Ran | Step::Ended))
            .count();
        assert!(slices > 2 * 9, "{slices} slices");
        assert!(job.seeds().is_some_and(|s| s.count() == 10));
        // Nothing is run again for the same state.
        let mut again = Job::renew(Some(job), &config, Wants::default(), ChartId::Load);
        let steps = drive(&mut again, 300);
        let spread = steps
            .iter()
            .position(|s| *s == Step::Draw(Part::Spread))
            .expect("drawn again");
        assert!(!steps[..spread].contains(&Step::Ran), "{steps:?}");
    }

    #[test]
    fn the_contention_chart_runs_after_the_runs_and_before_the_final_draw() {
        let config = preset("contention").config();
        let wants = Wants {
            traced: false,
            contention: true,
            map: false,
            search: false,
        };
        let mut job = Job::new(&config, wants, ChartId::Contention);
        while job.running() {
            job.step(200);
        }
        let mut grid_progress = Vec::new();
        let mut steps = Vec::new();
        loop {
            if let Some(Progress::Contention { done, of }) = job.progress() {
                assert_eq!(of, 5 * CONTENTION_SEEDS as usize);
                grid_progress.push(done);
            }
            match job.step(200) {
                Step::Final => break,
                Step::Ran | Step::Ended => {}
                step => steps.push(step),
            }
        }
        assert_eq!(
            steps,
            [
                Step::Draw(Part::Numbers),
                Step::Draw(Part::Chart(ChartId::Load)),
                Step::Draw(Part::Chart(ChartId::Pauses)),
                Step::Draw(Part::Chart(ChartId::Latency)),
                Step::Draw(Part::Chart(ChartId::Mechanism)),
                Step::Draw(Part::Chart(ChartId::Contention)),
            ]
        );
        // Each of the hundred runs goes in slices, in order.
        assert!(grid_progress.len() > 100, "{}", grid_progress.len());
        assert!(grid_progress.is_sorted());
        let grid = job.grid().expect("done").as_ref().expect("50 clients fit");
        assert_eq!(*grid, contention_grid(&config).expect("50 clients fit"));
    }

    #[test]
    fn the_same_state_keeps_its_work_and_a_newer_one_replaces_it() {
        let newer = config("v=1&rate=150&horizon=5&failure=0.4");
        let config = config("v=1&compare=on&rate=100&horizon=5&failure=0.2&B.jitter=none");
        let mut job = Job::new(&config, Wants::default(), ChartId::Load);
        drive(&mut job, 100);
        // The same state again (a resize, a chart shown): nothing is run
        // again, everything is drawn again.
        let mut job = Job::renew(Some(job), &config, Wants::default(), ChartId::Load);
        let steps = drive(&mut job, 100);
        assert_eq!(
            steps[..2],
            [
                Step::Draw(Part::Numbers),
                Step::Draw(Part::Chart(ChartId::Load))
            ]
        );
        assert!(!steps.contains(&Step::Ran) && !steps.contains(&Step::Grew(ChartId::Sweep)));
        assert!(steps.contains(&Step::Final) && steps.contains(&Step::Swept));
        // The replay opens: the runs go again, tracing, to the same reports.
        let traced = Wants {
            traced: true,
            contention: false,
            map: false,
            search: false,
        };
        let mut job = Job::renew(Some(job), &config, traced, ChartId::Load);
        assert!(job.traced() && job.running());
        let steps = drive(&mut job, 100);
        assert_eq!(steps[0], Step::Ran);
        assert!(steps.contains(&Step::Draw(Part::Chart(ChartId::Replay))));
        let runs = job.runs().expect("done");
        let (a, a_trace) = sim::run_traced(&simulate::scenario(&config));
        assert_eq!(json(&runs.a), json(&a));
        assert_eq!(runs.traces.len(), 2);
        assert_eq!(runs.traces[0], a_trace);

        // A newer state mid-run: the stale run is dropped for the new one.
        let mut job = Job::new(&config, Wants::default(), ChartId::Load);
        for _ in 0..5 {
            assert_eq!(job.step(100), Step::Ran);
        }
        let mut job = Job::renew(Some(job), &newer, Wants::default(), ChartId::Load);
        assert_eq!(job.link(), newer.to_link());
        drive(&mut job, 100);
        let runs = job.runs().expect("done");
        assert_eq!(json(&runs.a), json(&run(&newer).a));
        assert!(runs.b.is_none());
        assert!(job.sweep().as_ref().expect("sweeps").is_of(&newer));
    }

    /// A move on B keeps A's finished run and runs B alone; a move of the
    /// world runs both; either way the reports are a fresh job's, bit for
    /// bit.
    #[test]
    fn a_move_on_one_policy_runs_that_policy_alone() {
        let before = config("v=1&compare=on&rate=100&horizon=5&failure=0.2&B.jitter=none");
        let mut job = Job::new(&before, Wants::default(), ChartId::Load);
        drive(&mut job, 100);
        let moved_b = config("v=1&compare=on&rate=100&horizon=5&failure=0.2&B.jitter=equal");
        let mut job = Job::renew(Some(job), &moved_b, Wants::default(), ChartId::Load);
        assert_eq!(job.reused(), 1, "A's run is kept");
        drive(&mut job, 100);
        let runs = job.runs().expect("done");
        let fresh = run(&moved_b);
        assert_eq!(json(&runs.a), json(&fresh.a));
        assert_eq!(
            runs.b.as_ref().map(json),
            fresh.b.as_ref().map(json),
            "B's run is the new B's"
        );
        let moved_world = config("v=1&compare=on&rate=120&horizon=5&failure=0.2&B.jitter=equal");
        let job = Job::renew(Some(job), &moved_world, Wants::default(), ChartId::Load);
        assert_eq!(job.reused(), 0, "a new world runs both");
    }

    /// Leaving a preset closes its replay: the traced run of the policy
    /// that did not move serves the untraced job, without its trace; the
    /// way back, which needs a trace, runs it again.
    #[test]
    fn a_traced_run_serves_a_job_that_needs_no_trace() {
        let traced = Wants {
            traced: true,
            ..Wants::default()
        };
        let before = config("v=1&compare=on&rate=100&horizon=5&failure=0.2&B.jitter=none");
        let mut job = Job::new(&before, traced, ChartId::Load);
        drive(&mut job, 100);
        let moved_b = config("v=1&compare=on&rate=100&horizon=5&failure=0.2&B.jitter=equal");
        let mut job = Job::renew(Some(job), &moved_b, Wants::default(), ChartId::Load);
        assert_eq!(job.reused(), 1, "A's traced run is kept");
        drive(&mut job, 100);
        let runs = job.runs().expect("done");
        assert!(runs.traces.is_empty(), "no trace where none is wanted");
        assert_eq!(json(&runs.a), json(&run(&moved_b).a));
        let job = Job::renew(Some(job), &before, traced, ChartId::Load);
        assert_eq!(job.reused(), 0, "an untraced run cannot serve a traced job");
    }

    /// The map comes after the headlines' seeds, a cell at a time, to the
    /// map the command line computes; a cell opened from it (another
    /// trigger, another horizon) keeps the map, another world does not.
    #[test]
    fn the_map_goes_cell_by_cell_and_a_cell_opened_from_it_keeps_it() {
        let config = config("v=1&workers=10&service_t=0.1&rate=30&queue=100&horizon=5");
        let wants = Wants {
            map: true,
            ..Wants::default()
        };
        let mut job = Job::new(&config, wants, ChartId::Map);
        let steps = drive(&mut job, 1_000_000);
        let cells = steps
            .iter()
            .filter(|s| **s == Step::Grew(ChartId::Map))
            .count();
        let spread = steps.iter().position(|s| *s == Step::Draw(Part::Spread));
        let first_cell = steps.iter().position(|s| *s == Step::Grew(ChartId::Map));
        assert!(spread < first_cell, "{steps:?}");
        let map = match job.map() {
            Some(Ok(runs)) => runs.map().clone(),
            other => panic!("{other:?}"),
        };
        assert_eq!(cells, map.cells.len());
        assert_eq!(map, map::map(&config, map::Rows::Size));
        let opened = map::cell_world(&config, map::Rows::Size, 3, 2).expect("a cell");
        let mut job = Job::renew(Some(job), &opened, wants, ChartId::Map);
        assert!(!drive(&mut job, 1_000_000).contains(&Step::Grew(ChartId::Map)));
        let mut busier = opened.clone();
        busier.set(P::Rate, 40.0);
        let mut job = Job::renew(Some(job), &busier, wants, ChartId::Map);
        assert!(drive(&mut job, 1_000_000).contains(&Step::Grew(ChartId::Map)));
    }

    /// Where the page has no workers, the job searches last, after the
    /// sweep, a run at a time, to the frontier the command line finds.
    #[test]
    fn the_search_goes_last_run_by_run_to_the_command_lines_frontier() {
        let config = config("v=1&rate=10&horizon=2");
        let wants = Wants {
            search: true,
            ..Wants::default()
        };
        let mut job = Job::new(&config, wants, ChartId::Load);
        let steps = drive(&mut job, 1_000_000);
        let swept = steps.iter().position(|s| *s == Step::Swept);
        let first = steps
            .iter()
            .position(|s| *s == Step::Grew(ChartId::Frontier));
        assert!(swept < first, "{steps:?}");
        let found = match job.search() {
            Some(Ok(runs)) => runs.frontier(),
            other => panic!("{other:?}"),
        };
        assert!(found.done);
        assert_eq!(found, search::search_threads(&config, 2));
        assert_eq!(
            steps
                .iter()
                .filter(|s| **s == Step::Grew(ChartId::Frontier))
                .count(),
            found.runs,
            "a step per run"
        );
    }

    #[test]
    fn progress_is_said_in_seconds_of_the_horizon() {
        let at = |at, horizon| progress_text(Progress::Simulating { at, horizon });
        assert_eq!(at(40.2, 120.0), "Simulating\u{2026} 40 s of 120 s");
        assert_eq!(at(130.0, 120.0), "Simulating\u{2026} 120 s of 120 s");
        assert_eq!(at(1.25, 5.0), "Simulating\u{2026} 1.2 s of 5.0 s");
        assert_eq!(
            progress_text(Progress::Contention { done: 37, of: 100 }),
            "Running the contention chart's worlds\u{2026} 37 of 100"
        );
    }

    #[test]
    fn a_sweep_the_page_cannot_do_says_why() {
        let contention = config("v=1&workload=contention");
        assert_eq!(
            SweepJob::new(&contention).map(|_| ()),
            Err("The contention model has no failure rate to sweep: conflicts are its failures.")
        );
    }

    #[test]
    fn the_contention_chart_runs_a_hundred_small_worlds_and_refuses_big_ones() {
        let contention = PRESETS
            .iter()
            .find(|p| p.key == "contention")
            .expect("the contention preset");
        let grid = contention_grid(&contention.config()).expect("50 clients fit");
        assert_eq!(grid.variants.len(), 5);
        assert!(
            grid.variants
                .iter()
                .all(|v| v.calls.len() == CONTENTION_SEEDS as usize)
        );
        let big = lesson::apply(&contention.config(), "clients=5000");
        let why = contention_grid(&big).expect_err("5000 clients are too many");
        assert!(why.contains("Lower Clients to 172 or fewer"), "{why}");
        let edge = lesson::apply(&contention.config(), "clients=172");
        assert!(contention_grid(&edge).is_ok());
    }
}
