//! Contention over many seeds: the five backoff variants of the AWS
//! Architecture Blog's 2015 post on exponential backoff and jitter, each
//! run on the same world under many seeds.
//!
//! The post's result (full jitter makes the fewest calls, exponential
//! backoff without jitter takes by far the longest) is about averages: at
//! one seed the order of two close variants can flip. So the page shows
//! every seed's run as well as the mean, and a lesson speaks of what holds
//! on average.

use crate::analysis::{Analysis, Printed};
use crate::sliced::{Slice, Sliced};
use retry_core::words::Text;
use retry_core::words::tr;
use retry_sim::config::Config;
use retry_sim::sim::{self, WorkloadKind};
use retry_sim::simulate::WORK_LIMIT;

/// Seeds the contention chart runs each backoff over: it shows what holds
/// on average, as the AWS 2015 post averaged many runs.
pub const SEEDS: u64 = 20;

/// Every variant's runs over the same seeds.
#[derive(Debug, Clone, PartialEq)]
pub struct ContentionGrid {
    /// Clients updating the row, each once.
    pub clients: u32,
    /// The base and cap handed to [`sim::contention_policies`].
    pub base: f64,
    pub cap: f64,
    /// The seed of each run, the same for every variant.
    pub seeds: Vec<u64>,
    /// One entry per variant, in the post's order: none, exponential,
    /// equal, full, decorrelated.
    pub variants: Vec<VariantRuns>,
}

/// One variant's runs, one value per seed of the grid.
#[derive(Debug, Clone, PartialEq)]
pub struct VariantRuns {
    /// The variant's name as [`sim::contention_policies`] gives it.
    pub name: &'static str,
    /// Server calls (writes) until every client had updated the row.
    pub calls: Vec<u64>,
    /// When the last client was done, in seconds.
    pub completion: Vec<f64>,
    /// Runs stopped by the work limit: their numbers are too low.
    pub truncated: usize,
}

/// What a row of the contention chart calls a variant, in words a newcomer
/// reads: the post's short names say "none" for no backoff at all and
/// "exponential" for exponential backoff without jitter. Each is at most
/// two short lines (apart by a line break in the message), so a phone's
/// half panel has room for it.
pub fn row_name(variant: &str) -> [&'static str; 2] {
    let name = match variant {
        "none" => tr("no backoff"),
        "exponential" => tr("exponential,\nno jitter"),
        "equal" => tr("equal jitter"),
        "full" => tr("full jitter"),
        "decorrelated" => tr("decorrelated\njitter"),
        _ => "",
    };
    let (first, second) = name.split_once('\n').unwrap_or((name, ""));
    [first, second]
}

impl VariantRuns {
    pub fn mean_calls(&self) -> f64 {
        mean(self.calls.iter().map(|&c| c as f64))
    }

    pub fn mean_completion(&self) -> f64 {
        mean(self.completion.iter().copied())
    }
}

fn mean(values: impl ExactSizeIterator<Item = f64>) -> f64 {
    let count = values.len();
    if count == 0 {
        0.0
    } else {
        values.sum::<f64>() / count as f64
    }
}

/// Runs the five variants of the 2015 post under `seeds` seeds, starting
/// at the configuration's seed (so its first column is the world the page
/// runs), on the configuration's world (client count, network, start
/// window) turned into the contention workload. Base and cap are the
/// configuration's policy A's; attempts are unlimited, as in the post, so
/// every client finishes and the counts compare like with like.
pub fn contention_grid(config: &Config, seeds: u64) -> ContentionGrid {
    let mut runs = GridRuns::new(config, seeds);
    while !runs.advance(u64::MAX) {}
    runs.finish()
}

/// The runs of a [`ContentionGrid`], one after the other, each a slice of
/// work at a time ([`sim::Run`]): what [`contention_grid`] runs in one go.
#[derive(Debug)]
pub struct GridRuns {
    grid: ContentionGrid,
    world: sim::Scenario,
    policies: [(&'static str, retry_core::policy::Policy); 5],
    /// Runs finished: variant `finished / seeds`, seed `finished % seeds`
    /// is next.
    finished: usize,
    run: Option<sim::Run>,
}

impl GridRuns {
    /// The grid's runs, none begun.
    pub fn new(config: &Config, seeds: u64) -> Self {
        let mut world = config.scenario();
        world.workload = WorkloadKind::Contention;
        world.work_limit = WORK_LIMIT;
        let (base, cap) = (world.policy.base, world.policy.cap);
        let seeds: Vec<u64> = (0..seeds).map(|k| world.seed.wrapping_add(k)).collect();
        let policies = sim::contention_policies(base, cap);
        let variants = policies
            .iter()
            .map(|(name, _)| VariantRuns {
                name,
                calls: Vec::with_capacity(seeds.len()),
                completion: Vec::with_capacity(seeds.len()),
                truncated: 0,
            })
            .collect();
        GridRuns {
            grid: ContentionGrid {
                clients: world.clients,
                base,
                cap,
                seeds,
                variants,
            },
            world,
            policies,
            finished: 0,
            run: None,
        }
    }

    /// All the grid's runs.
    pub fn total(&self) -> usize {
        self.policies.len() * self.grid.seeds.len()
    }

    /// The runs finished so far.
    pub fn finished(&self) -> usize {
        self.finished
    }

    /// Advances the current run by `work` (see [`sim::Run::advance`]),
    /// starting it if need be and keeping its numbers once it ends; true
    /// once every run has ended.
    fn advance(&mut self, work: u64) -> bool {
        let seeds = self.grid.seeds.len();
        if self.finished >= self.total() {
            return true;
        }
        let (variant, seed) = (self.finished / seeds, self.finished % seeds);
        let run = self.run.get_or_insert_with(|| {
            sim::Run::new(&sim::Scenario {
                seed: self.grid.seeds[seed],
                policy: self.policies[variant].1.clone(),
                ..self.world.clone()
            })
        });
        if !run.advance(work) {
            return false;
        }
        let summary = self
            .run
            .take()
            .expect("the run just advanced")
            .finish()
            .summary;
        let runs = &mut self.grid.variants[variant];
        runs.calls.push(summary.first_tries + summary.retries);
        runs.completion.push(summary.finished_at);
        runs.truncated += usize::from(summary.truncated);
        self.finished += 1;
        self.finished >= self.total()
    }

    /// The grid, once every run has ended (runs not ended are missing).
    pub fn finish(self) -> ContentionGrid {
        self.grid
    }
}

impl Sliced for GridRuns {
    /// A unit is one run of the grid.
    fn step(&mut self, work: u64) -> Slice {
        let before = self.finished;
        let all = self.advance(work);
        Slice::of(all, self.finished > before)
    }

    fn done(&self) -> bool {
        self.finished >= self.total()
    }
}

/// The contention grid as an analysis.
pub const ANALYSIS: Analysis = Analysis {
    word: Text("contention"),
    options: &[],
    synopsis: "",
    help: Text(
        "The contention model's five backoffs (none, exponential, equal, full and decorrelated jitter) on the same seeds, as JSON: each one's calls and completion time on every seed, and their means.",
    ),
    seeds: SEEDS,
    budget: None,
    refusal: |config| {
        (config.workload() != WorkloadKind::Contention).then(|| {
            retry_core::words::tr(
                "The contention grid runs the contention model: this link's world is another (workload=contention runs it).",
            )
        })
    },
    print: |config, _| {
        let grid = contention_grid(config, SEEDS);
        let variants: Vec<serde_json::Value> = grid
            .variants
            .iter()
            .map(|v| {
                serde_json::json!({
                    "name": v.name,
                    "calls": v.calls,
                    "completion": v.completion,
                    "truncated": v.truncated,
                    "mean_calls": v.mean_calls(),
                    "mean_completion": v.mean_completion(),
                })
            })
            .collect();
        let json = serde_json::json!({
            "clients": grid.clients,
            "base": grid.base,
            "cap": grid.cap,
            "seeds": grid.seeds,
            "variants": variants,
        });
        Ok(Printed::out(json.to_string()))
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    /// A slice that ends a run says so, the last says everything is done,
    /// and slices after it do nothing.
    #[test]
    fn the_grid_goes_a_run_at_a_time_to_done() {
        let (config, _) = Config::from_link(
            "v=1&attempts=50&base=0.01&cap=2&workload=contention&clients=5&horizon=10",
        );
        let mut runs = GridRuns::new(&config, 2);
        let total = runs.total();
        let mut slices = Vec::new();
        loop {
            let slice = runs.step(u64::MAX);
            slices.push(slice);
            if slice == Slice::Done {
                break;
            }
        }
        assert_eq!(slices.len(), total, "{slices:?}");
        assert!(slices[..total - 1].iter().all(|s| *s == Slice::Unit));
        assert_eq!(runs.step(u64::MAX), Slice::Done);
        assert_eq!(runs.finished(), total);
        // In small slices the same runs take more of them, to the same grid.
        let mut small = GridRuns::new(&config, 2);
        let mut working = 0;
        while small.step(1) != Slice::Done {
            working += 1;
        }
        assert!(working > total, "{working} slices");
        assert_eq!(small.finish(), runs.finish());
    }

    /// The grid runs each variant under every seed on the page's world,
    /// and the post's averages hold: full jitter makes fewer calls than
    /// no backoff, and exponential backoff without jitter takes the
    /// longest.
    #[test]
    fn grid_reproduces_the_posts_averages() {
        let (config, notices) = Config::from_link(
            "v=1&attempts=50&base=0.01&cap=2&workload=contention&clients=30&horizon=10\
             &hop=normal&hop_mean=0.01&seed=5",
        );
        assert_eq!(notices, []);
        let grid = contention_grid(&config, 8);
        assert_eq!(grid.seeds, (5..13).collect::<Vec<u64>>());
        assert_eq!(grid.clients, 30);
        let names: Vec<&str> = grid.variants.iter().map(|v| v.name).collect();
        assert_eq!(
            names,
            ["none", "exponential", "equal", "full", "decorrelated"]
        );
        let rows: Vec<String> = names.iter().map(|n| row_name(n).join(" ")).collect();
        assert_eq!(
            rows,
            [
                "no backoff ",
                "exponential, no jitter",
                "equal jitter ",
                "full jitter ",
                "decorrelated jitter"
            ]
        );
        for variant in &grid.variants {
            assert_eq!(variant.calls.len(), 8);
            assert_eq!(variant.truncated, 0);
            // Every client writes at least once.
            assert!(variant.calls.iter().all(|&c| c >= 30), "{variant:?}");
        }
        let by = |name: &str| {
            grid.variants
                .iter()
                .find(|v| v.name == name)
                .expect("every variant is in the grid")
        };
        assert!(by("full").mean_calls() < by("none").mean_calls());
        let slowest = grid
            .variants
            .iter()
            .max_by(|a, b| a.mean_completion().total_cmp(&b.mean_completion()))
            .expect("five variants");
        assert_eq!(slowest.name, "exponential");
        // The first seed is the page's own run of the same policy.
        let (_, full) = &sim::contention_policies(0.01, 2.0)[3];
        let mut own = config.scenario();
        own.policy = full.clone();
        own.work_limit = WORK_LIMIT;
        let summary = sim::run(&own).summary;
        assert_eq!(by("full").calls[0], summary.first_tries + summary.retries);
    }
}
