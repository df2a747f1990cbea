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

use crate::config::{Config, P};
use crate::metrics::Side;
use crate::sim::Report;
use crate::simulate;

/// The trigger lengths, seconds: the map's columns.
pub const LENGTHS: [f64; 8] = [1.0, 2.0, 3.0, 5.0, 7.0, 10.0, 15.0, 20.0];
/// The shares of the workers lost: the map's rows.
pub const SIZES: [f64; 8] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];
/// The loads of a map against load, as shares of what the workers serve.
pub const LOADS: [f64; 8] = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];
/// The share of the workers a map against load loses, when the world has
/// no capacity loss of its own: the OSDI 2022 trigger's 60 %.
pub const LOAD_SIZE: f64 = 0.6;

/// What a map's rows vary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rows {
    /// The share of the workers lost.
    Size,
    /// The arrival rate, as a share of what the workers serve; the size is
    /// the world's own loss or [`LOAD_SIZE`].
    Load,
}
/// Seeds each cell runs on: the link's and the two after it.
pub const SEEDS: u64 = 3;
/// Goodput is back when it reaches this share of what it was before: far
/// enough under 1 that the noise of a light load's windows (at 30 a
/// second, 300 operations in 10 s, an sd of 6 %) does not pass for a
/// collapse, 3 sd away.
pub const BACK: f64 = 0.8;
/// Each window's length, and how long after the trigger the last one
/// ends.
const WINDOW: f64 = 10.0;
const SOON_AFTER: f64 = 5.0;
const LATE_AFTER: f64 = 50.0;
/// Work (operations and server attempts) the whole map may do: 30 runs at
/// the page's limit for one, a few seconds natively however hostile the
/// world.
pub const WORK_BUDGET: u64 = 30 * simulate::WORK_LIMIT;

/// What became of a world after its trigger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    Recovered,
    RecoveredLate,
    StaysBroken,
    /// No goodput before the trigger: nothing to recover to.
    NoGoodputBefore,
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
/// has no server.
pub fn refusal(config: &Config) -> Option<&'static str> {
    if config.workload() == crate::sim::WorkloadKind::Contention {
        return Some(crate::words::tr(
            "The contention model has no server to lose capacity: it has no map.",
        ));
    }
    (config.get(P::Workers) == 0.0).then(|| {
        crate::words::tr(
            "A server with unlimited workers loses no capacity: give it workers to map where a capacity loss leaves it broken.",
        )
    })
}

/// The world of a cell: the link's, its trigger a capacity loss of
/// `length` seconds losing `size` of the workers, run long enough for the
/// late window, on `seed`.
pub fn cell_config(config: &Config, length: f64, size: f64, rate: f64, seed: u64) -> Config {
    let mut c = config.clone();
    c.set(P::Rate, rate);
    let at = trigger_at(config);
    c.set(P::DropAt, at);
    c.set(P::DropFor, length);
    c.set(P::DropTo, 1.0 - size);
    c.set(P::Horizon, at + length + LATE_AFTER + WINDOW);
    c.set(P::Seed, seed as f64);
    c
}

/// When the map's trigger starts: the world's capacity loss, if it has
/// one, else 30 s in, with at least a window before it.
fn trigger_at(config: &Config) -> f64 {
    config.get(P::DropAt).max(WINDOW)
}

/// Goodput over `[from, to)` seconds, from the series' whole buckets.
fn goodput(report: &Report, from: f64, to: f64) -> f64 {
    let s = &report.series;
    let buckets = (0..s.len()).filter(|&i| {
        let start = i as f64 * s.width;
        start >= from - 1e-9 && start + s.width <= to + 1e-9
    });
    let (mut sum, mut seconds) = (0, 0.0);
    for i in buckets {
        sum += s.operations_succeeded[i];
        seconds += s.width;
    }
    if seconds > 0.0 {
        sum as f64 / seconds
    } else {
        0.0
    }
}

/// One seed's outcome, from its run.
pub fn judge(report: &Report, at: f64, length: f64, seed: u64) -> SeedOutcome {
    let end = at + length;
    let before = goodput(report, at - WINDOW, at);
    let soon = goodput(report, end + SOON_AFTER, end + SOON_AFTER + WINDOW);
    let late = goodput(report, end + LATE_AFTER, end + LATE_AFTER + WINDOW);
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

/// One cell for one policy's configuration, within `budget` work; returns
/// the cell and the work it did.
pub fn cell(
    config: &Config,
    side: Side,
    (length, size, rate): (f64, f64, f64),
    budget: u64,
) -> (Cell, u64) {
    let mut seeds = Vec::new();
    let mut work = 0;
    let mut missing = None;
    let first = config.seed();
    for seed in first..first + SEEDS {
        if work >= budget {
            missing = Some(Missing::BudgetSpent);
            break;
        }
        let world = cell_config(config, length, size, rate, seed);
        let limit = (budget - work).min(simulate::WORK_LIMIT);
        let report = simulate::run_limited(&world, limit);
        work += work_of(&report);
        if report.summary.cut.is_some() {
            // Cut short by what was left of the budget, or by the run's
            // own bounds.
            missing = Some(if limit < simulate::WORK_LIMIT {
                Missing::BudgetSpent
            } else {
                Missing::RunCut
            });
            break;
        }
        seeds.push(judge(&report, trigger_at(config), length, seed));
    }
    let outcome = missing.is_none().then(|| {
        let mut outcomes: Vec<Outcome> = seeds.iter().map(|s| s.outcome).collect();
        outcomes.sort();
        outcomes[outcomes.len() / 2]
    });
    let cell = Cell {
        side,
        length,
        size,
        rate,
        outcome,
        missing,
        seeds,
    };
    (cell, work)
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
            let serves = config.get(P::Workers) / config.get(P::ServiceTime).max(1e-9);
            LOADS
                .iter()
                .map(|&load| (load, size, load * serves))
                .collect()
        }
    }
}

/// The whole map within `budget` work: the cells past it are missing.
pub fn map_within(config: &Config, rows: Rows, budget: u64) -> Map {
    let mut cells = Vec::new();
    let mut work = 0;
    let policies = policies(config);
    let worlds = row_worlds(config, rows);
    for &(_, size, rate) in &worlds {
        for &length in &LENGTHS {
            for (side, policy) in &policies {
                let left = budget.saturating_sub(work);
                let (cell, used) = cell(policy, *side, (length, size, rate), left);
                work += used;
                cells.push(cell);
            }
        }
    }
    Map {
        lengths: LENGTHS.to_vec(),
        rows,
        row_values: worlds.iter().map(|w| w.0).collect(),
        at: trigger_at(config),
        sides: policies.iter().map(|(side, _)| *side).collect(),
        cells,
        work,
        budget,
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
