//! The map of metastability: where a system that loses part of its
//! capacity for a while recovers, recovers late, or stays broken.
//!
//! Each cell is the world of the link with its trigger replaced: a
//! capacity loss ([`P::DropAt`] stays the world's, or 30 s) of a length
//! (the map's x axis) and a size, the share of the workers lost (its y
//! axis), or, against load, of the world's size (or 60 %) at an arrival
//! rate of a share of what the workers serve (its y axis then). Each cell is run on a few seeds for policy A, and for B when
//! comparing. Goodput (operations that succeed per second) is measured in
//! three windows: the 10 s before the trigger, the 10 s from 5 s after it
//! ends ("soon"), and the run's last 10 s, 50 s after it ends ("late"):
//!
//! - *recovered*: goodput soon is back to 80 % of before;
//! - *recovered late*: only the last window is;
//! - *stays broken*: not even the last one is.
//!
//! A cell's outcome is the median of its seeds' (the outcomes ordered as
//! above). A world with no goodput before the trigger cannot recover and
//! is said so. The whole map shares one work budget: once it is spent,
//! the cells left are *missing*, and the map says so and why, keeping
//! every cell it computed.

use serde::Serialize;

use crate::analysis::{Analysis, Printed};
use crate::sliced::{Slice, Sliced};
use retry_core::words::Text;
use retry_sim::config::{Config, P};
use retry_sim::metrics::Side;
use retry_sim::sim::{self, Report};
use retry_sim::simulate;

/// The trigger lengths, seconds: the map's columns.
pub const LENGTHS: [f64; 8] = [1.0, 2.0, 3.0, 5.0, 7.0, 10.0, 15.0, 20.0];
/// The shares of the workers lost: the map's rows.
pub const SIZES: [f64; 8] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];
/// The loads of a map against load, as shares of what the workers serve.
pub const LOADS: [f64; 8] = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];
/// The share of the workers a map against load loses, when the world has
/// no capacity loss of its own: the OSDI 2022 trigger's 60 %.
pub const LOAD_SIZE: f64 = 0.6;

/// What a map's rows vary (the link's `map_by`).
pub use retry_sim::config::MapRows as Rows;

/// Seeds each cell runs on: the link's and the two after it.
pub const SEEDS: u64 = 3;
/// Goodput is back when it reaches this share of what it was before: far
/// enough under 1 that the noise of a light load's windows (at 30 a
/// second, 300 operations in 10 s, an sd of 6 %) does not pass for a
/// collapse, 3 sd away.
pub const BACK: f64 = 0.8;
/// Each window's length, and how long after the trigger the last one
/// ends.
pub const WINDOW: f64 = 10.0;
const SOON_AFTER: f64 = 5.0;
const LATE_AFTER: f64 = 50.0;
/// Work (operations and server attempts) the whole map may do: 4 runs at
/// the page's limit for one, a few seconds natively however hostile the
/// world (each run at its limit takes about a second), and three times
/// what the map of the tests' world does (6.5 M).
pub const WORK_BUDGET: u64 = 4 * simulate::WORK_LIMIT;

/// What became of a world after its trigger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    Recovered,
    RecoveredLate,
    StaysBroken,
    /// No goodput before the trigger: nothing to recover to.
    NoGoodputBefore,
}

impl Outcome {
    /// Its key, as the JSON says it and a page's style picks its colour by.
    pub fn key(self) -> &'static str {
        match self {
            Outcome::Recovered => "recovered",
            Outcome::RecoveredLate => "recovered-late",
            Outcome::StaysBroken => "stays-broken",
            Outcome::NoGoodputBefore => "no-goodput-before",
        }
    }
}

/// Why a cell has no outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Missing {
    /// The map's work budget was spent before this cell.
    BudgetSpent,
    /// A run of the cell stopped at the simulator's bounds.
    RunCut,
}

/// One cell for one policy.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cell {
    pub side: Side,
    /// Trigger length, seconds.
    pub length: f64,
    /// The share of the workers lost.
    pub size: f64,
    /// The arrival rate, a second.
    pub rate: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing: Option<Missing>,
    /// Each seed's outcome, and its goodput (operations a second) before
    /// the trigger, soon after it and at the end.
    pub seeds: Vec<SeedOutcome>,
}

/// One seed's run of a cell.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeedOutcome {
    pub seed: u64,
    pub outcome: Outcome,
    pub before: f64,
    pub soon: f64,
    pub late: f64,
}

/// The whole map.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Map {
    pub lengths: Vec<f64>,
    /// What the rows vary, and their values: shares of the workers lost,
    /// or loads as shares of what the workers serve.
    pub rows: Rows,
    pub row_values: Vec<f64>,
    /// When the trigger starts.
    pub at: f64,
    /// The policies mapped: A, and B when comparing.
    pub sides: Vec<Side>,
    /// Row by row (size), column by column (length), A's then B's.
    pub cells: Vec<Cell>,
    /// Work the map did, against its budget.
    pub work: u64,
    pub budget: u64,
}

/// Why `config` has no map, if it has none: its trigger is a capacity
/// loss, which unlimited workers do not have, and the contention model
/// has no server; its judgement compares goodput before and after the
/// trigger, which a crowd that starts once and is done does not keep up.
pub fn refusal(config: &Config) -> Option<&'static str> {
    use retry_sim::sim::WorkloadKind;
    match config.workload() {
        WorkloadKind::Contention => {
            return Some(retry_core::words::tr(
                "The contention model has no server to lose capacity: it has no map.",
            ));
        }
        WorkloadKind::Crowd => {
            return Some(retry_core::words::tr(
                "A crowd starts once and is done: it has no steady goodput to lose and win back, so it has no map. Map a world of steady arrivals.",
            ));
        }
        _ => {}
    }
    if let Some(why) = crate::nothing_succeeds(config) {
        return Some(why);
    }
    (config.get(P::Workers) == 0.0).then(|| {
        retry_core::words::tr(
            "A server with unlimited workers loses no capacity: give it workers to map where a capacity loss leaves it broken.",
        )
    })
}

/// The world of a cell: the link's, its trigger a capacity loss of
/// `length` seconds losing `size` of the workers, run long enough for the
/// late window, on `seed`.
pub fn cell_config(config: &Config, length: f64, size: f64, rate: f64, seed: u64) -> Config {
    // Rounded to the nanounit: a link of a cell reads 0.2, not
    // 0.19999999999999996.
    let tidy = |value: f64| (value * 1e9).round() / 1e9;
    let mut c = config.clone();
    c.set(P::Rate, tidy(rate));
    let at = trigger_at(config);
    c.set(P::DropAt, at);
    c.set(P::DropFor, length);
    c.set(P::DropTo, tidy(1.0 - size));
    c.set(P::Horizon, at + length + LATE_AFTER + WINDOW);
    c.set(P::Seed, seed as f64);
    c
}

/// Where the world of `config` stands on a map of `rows`: its capacity
/// loss's length and size (or its load, as a share of what the workers
/// serve), when it has a capacity loss.
pub fn world_on_map(config: &Config, rows: Rows) -> Option<(f64, f64)> {
    let length = config.get(P::DropFor);
    (length > 0.0 && config.get(P::DropTo) < 1.0).then(|| {
        let row = match rows {
            Rows::Size => 1.0 - config.get(P::DropTo),
            Rows::Load => config.get(P::Rate) / serves(config),
        };
        (length, row)
    })
}

/// The world of the map's cell at `row` and `column` for the page to open:
/// the link's world and policies with the cell's trigger and rate, on the
/// link's seed, long enough to show the last window.
pub fn cell_world(config: &Config, rows: Rows, row: usize, column: usize) -> Option<Config> {
    let &(_, size, rate) = row_worlds(config, rows).get(row)?;
    let length = *LENGTHS.get(column)?;
    Some(cell_config(config, length, size, rate, config.seed()))
}

/// What a map of `config` depends on, as a link: the world and policies
/// without the trigger's length and size and the horizon, which every cell
/// sets for itself. A state that differs only in those (a cell opened
/// from the map) has the same map.
pub fn map_key(config: &Config) -> String {
    let mut key = config.clone();
    for p in [P::DropFor, P::DropTo, P::Horizon] {
        key.set(p, Config::default().get(p));
    }
    key.to_link()
}

/// When the map's trigger starts: the world's capacity loss, if it has
/// one, else 30 s in, with at least a window before it.
fn trigger_at(config: &Config) -> f64 {
    config.get(P::DropAt).max(WINDOW)
}

/// One seed's outcome, from its run.
pub fn judge(report: &Report, at: f64, length: f64, seed: u64) -> SeedOutcome {
    let end = at + length;
    let goodput = |from: f64, to: f64| report.series.goodput(from, to);
    let before = goodput(at - WINDOW, at);
    let soon = goodput(end + SOON_AFTER, end + SOON_AFTER + WINDOW);
    let late = goodput(end + LATE_AFTER, end + LATE_AFTER + WINDOW);
    let outcome = if before <= 0.0 {
        Outcome::NoGoodputBefore
    } else if soon >= BACK * before {
        Outcome::Recovered
    } else if late >= BACK * before {
        Outcome::RecoveredLate
    } else {
        Outcome::StaysBroken
    };
    SeedOutcome {
        seed,
        outcome,
        before,
        soon,
        late,
    }
}

/// The work a run did, as the budget counts it.
fn work_of(report: &Report) -> u64 {
    let s = &report.summary;
    s.operations + s.first_tries + s.retries
}

/// The policies a map of `config` draws: A's configuration, and B's when
/// comparing, each alone.
pub fn policies(config: &Config) -> Vec<(Side, Config)> {
    [Side::A, Side::B]
        .into_iter()
        .zip(config.policies_alone())
        .collect()
}

/// The whole map at once, within [`WORK_BUDGET`].
pub fn map(config: &Config, rows: Rows) -> Map {
    map_within(config, rows, WORK_BUDGET)
}

/// The rows of a map of `rows`: for each, the share of the workers lost
/// and the arrival rate.
fn row_worlds(config: &Config, rows: Rows) -> Vec<(f64, f64, f64)> {
    let rate = config.get(P::Rate);
    match rows {
        Rows::Size => SIZES.iter().map(|&size| (size, size, rate)).collect(),
        Rows::Load => {
            let size = if config.get(P::DropFor) > 0.0 {
                1.0 - config.get(P::DropTo)
            } else {
                LOAD_SIZE
            };
            LOADS
                .iter()
                .map(|&load| (load, size, load * serves(config)))
                .collect()
        }
    }
}

/// Operations a second the world's workers serve.
fn serves(config: &Config) -> f64 {
    config.get(P::Workers) / config.scenario().service_mean().max(1e-9)
}

/// The whole map within `budget` work: the cells past it are missing.
pub fn map_within(config: &Config, rows: Rows, budget: u64) -> Map {
    let mut runs = MapRuns::new(config, rows, budget);
    while !runs.done() {
        runs.advance(u64::MAX);
    }
    runs.map
}

/// The seed of a cell being run, and its run.
#[derive(Debug)]
struct Going {
    seeds: Vec<SeedOutcome>,
    seed: u64,
    /// The work the run may do: what was left of the budget, or a run's
    /// own limit.
    limit: u64,
    run: sim::Run,
}

/// A map being computed a slice of a run at a time, as the page computes
/// it between frames: cell by cell, row by row (size), column by column
/// (length), A's then B's, each seed's run in slices. The cells it has
/// are final; [`map_within`] is this driven to the end, so the page and
/// the command line draw the same map.
#[derive(Debug)]
pub struct MapRuns {
    policies: Vec<(Side, Config)>,
    /// Per row: its value, the share of the workers lost and the rate.
    worlds: Vec<(f64, f64, f64)>,
    /// The cells so far.
    map: Map,
    current: Option<Going>,
}

impl MapRuns {
    pub fn new(config: &Config, rows: Rows, budget: u64) -> MapRuns {
        let policies = policies(config);
        let worlds = row_worlds(config, rows);
        let map = Map {
            lengths: LENGTHS.to_vec(),
            rows,
            row_values: worlds.iter().map(|w| w.0).collect(),
            at: trigger_at(config),
            sides: policies.iter().map(|(side, _)| *side).collect(),
            cells: Vec::with_capacity(worlds.len() * LENGTHS.len() * policies.len()),
            work: 0,
            budget,
        };
        MapRuns {
            policies,
            worlds,
            map,
            current: None,
        }
    }

    /// Cells in the whole map.
    pub fn total(&self) -> usize {
        self.worlds.len() * LENGTHS.len() * self.policies.len()
    }

    pub fn done(&self) -> bool {
        self.map.cells.len() == self.total()
    }

    /// The map as far as it is computed: its cells are final.
    pub fn map(&self) -> &Map {
        &self.map
    }

    /// The next cell's policy and world: (length, size, rate).
    fn next_cell(&self) -> (usize, (f64, f64, f64)) {
        let k = self.map.cells.len();
        let sides = self.policies.len();
        let (row, column) = (k / (sides * LENGTHS.len()), k / sides % LENGTHS.len());
        let (_, size, rate) = self.worlds[row];
        (k % sides, (LENGTHS[column], size, rate))
    }

    /// Starts the run of `seed` of the next cell, or, with no work left,
    /// ends the cell as missing.
    fn start(&mut self, seeds: Vec<SeedOutcome>, seed: u64) -> bool {
        if self.map.work >= self.map.budget {
            self.end_cell(seeds, Some(Missing::BudgetSpent));
            return false;
        }
        let (side, (length, size, rate)) = self.next_cell();
        let world = cell_config(&self.policies[side].1, length, size, rate, seed);
        let limit = (self.map.budget - self.map.work).min(simulate::WORK_LIMIT);
        let run = sim::Run::new(&simulate::scenario_within(&world, limit));
        self.current = Some(Going {
            seeds,
            seed,
            limit,
            run,
        });
        true
    }

    fn end_cell(&mut self, seeds: Vec<SeedOutcome>, missing: Option<Missing>) {
        let (side, (length, size, rate)) = self.next_cell();
        let outcome = missing.is_none().then(|| {
            let mut outcomes: Vec<Outcome> = seeds.iter().map(|s| s.outcome).collect();
            retry_core::sort::sort_by_key(&mut outcomes, |&o| o);
            outcomes[outcomes.len() / 2]
        });
        self.map.cells.push(Cell {
            side: self.policies[side].0,
            length,
            size,
            rate,
            outcome,
            missing,
            seeds,
        });
    }

    /// Advances the run of the next cell by about `work` (see
    /// [`sim::Run::advance`]); true when that finished a cell.
    fn advance(&mut self, work: u64) -> bool {
        if self.done() {
            return false;
        }
        if self.current.is_none() {
            let first = self.policies[self.next_cell().0].1.seed();
            if !self.start(Vec::new(), first) {
                return true;
            }
        }
        let going = self.current.as_mut().expect("a seed is being run");
        if !going.run.advance(work) {
            return false;
        }
        let Going {
            mut seeds,
            seed,
            limit,
            run,
        } = self.current.take().expect("a seed is being run");
        let report = run.finish();
        self.map.work += work_of(&report);
        if report.summary.cut.is_some() {
            // Cut short by what was left of the budget, or by the run's
            // own bounds.
            let why = if limit < simulate::WORK_LIMIT {
                Missing::BudgetSpent
            } else {
                Missing::RunCut
            };
            self.end_cell(seeds, Some(why));
            return true;
        }
        let length = self.next_cell().1.0;
        seeds.push(judge(&report, self.map.at, length, seed));
        let first = self.policies[self.next_cell().0].1.seed();
        if seed + 1 == first + SEEDS {
            self.end_cell(seeds, None);
            return true;
        }
        !self.start(seeds, seed + 1)
    }
}

impl Map {
    /// The map as JSON, as `--map` prints it.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a map serializes")
    }

    /// The map as CSV: a row per cell and policy.
    pub fn to_csv(&self) -> String {
        let mut out = String::from(
            "policy,length_s,size,rate,outcome,recovered,recovered_late,stays_broken,goodput_before,goodput_soon,goodput_late\n",
        );
        for cell in &self.cells {
            let count = |o: Outcome| cell.seeds.iter().filter(|s| s.outcome == o).count();
            let mean = |f: fn(&SeedOutcome) -> f64| {
                let n = cell.seeds.len().max(1) as f64;
                cell.seeds.iter().map(f).sum::<f64>() / n
            };
            let outcome = match (cell.outcome, cell.missing) {
                (Some(o), _) => word(o),
                (None, Some(Missing::BudgetSpent)) => "missing: budget spent",
                (None, _) => "missing: a run was cut",
            };
            out += &format!(
                "{:?},{},{},{},{outcome},{},{},{},{},{},{}\n",
                cell.side,
                cell.length,
                cell.size,
                cell.rate,
                count(Outcome::Recovered),
                count(Outcome::RecoveredLate),
                count(Outcome::StaysBroken),
                mean(|s| s.before),
                mean(|s| s.soon),
                mean(|s| s.late),
            );
        }
        out
    }
}

/// An outcome's word in the CSV.
fn word(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Recovered => "recovered",
        Outcome::RecoveredLate => "recovered-late",
        Outcome::StaysBroken => "stays-broken",
        Outcome::NoGoodputBefore => "no-goodput-before",
    }
}

impl Sliced for MapRuns {
    /// A unit is one cell of the map.
    fn step(&mut self, work: u64) -> Slice {
        if self.done() {
            return Slice::Done;
        }
        let cell = self.advance(work);
        Slice::of(self.done(), cell)
    }

    fn done(&self) -> bool {
        MapRuns::done(self)
    }
}

/// The map as an analysis.
pub const ANALYSIS: Analysis = Analysis {
    word: Text("map"),
    options: &[("--by-load", false), ("--csv", false)],
    synopsis: " [--by-load] [--csv]",
    help: Text(
        "The map of metastability: the world with a capacity loss of each length and size, each cell's outcome for A (and B), as JSON (CSV with --csv); --by-load puts the arrival rate on the rows instead of the trigger's size.",
    ),
    seeds: SEEDS,
    budget: Some(WORK_BUDGET),
    refusal,
    print: |config, args| {
        // `--by-load` is `map_by=load` for a link that does not say it.
        let rows = match args.flag("--by-load") {
            true => Rows::Load,
            false => config.map_rows(),
        };
        let map = map(config, rows);
        let missing = map.cells.iter().filter(|c| c.missing.is_some()).count();
        let said = (missing > 0).then(|| {
            retry_core::tf!(
                "map: {missing} cells missing, the work budget of {budget} spent",
                missing = missing,
                budget = map.budget
            )
        });
        let out = match args.flag("--csv") {
            true => map.to_csv(),
            false => map.to_json(),
        };
        Ok(Printed::out(out).saying(said))
    },
};
