//! Find a better policy: every retry policy of a grid, run in the world of
//! the link, and the frontier of user-visible success against server calls
//! per operation.
//!
//! ## The space
//!
//! Attempts (1, 2, 3, 5, 8), the backoff's shape (exponential with a cap of
//! 1 s or 10 s, or constant), its base (10 ms to 1 s), its jitter (none,
//! full, decorrelated), a retry budget (none, or 10 % or 20 % of requests)
//! and a circuit breaker (off or on), each otherwise as policy A has it:
//! [`candidates`] is every combination, a single one for 1 attempt (which
//! never retries, so nothing else matters), 865 in all, and policy A's own
//! beside them. Hedging is left out: a policy retries or hedges, and the
//! search is of retries.
//!
//! ## Successive halving over seeds
//!
//! A grid and not a cleverer search, because the space is small and every
//! point of the frontier is of interest, not one optimum; a few seeds per
//! candidate and not one, so that a winner is not one seed's luck. Judging
//! 866 candidates on 5 seeds each would be 4 330 runs; successive halving
//! spends them where the frontier is: every candidate runs on the link's
//! seed, the better half by Pareto rank (see [`rank`]) on two seeds more,
//! the better half of those on two more, at most 2 166 runs. Candidates
//! whose runs have had the very same numbers as an earlier one's behave
//! alike in this world (a breaker that trips at the first failure makes
//! the backoff behind it irrelevant): the search follows the first of
//! them only, so twins neither crowd the halving nor the frontier, and
//! runs are saved. The frontier is drawn from the candidates run on every
//! seed, each with its spread; the others are dots of fewer seeds.
//!
//! ## Bounds
//!
//! The whole search shares one work budget, [`WORK_BUDGET`]: each round's
//! runs share what is left of it evenly (a third kept back for the rounds
//! after), so a world too big for it stops its runs early,
//! deterministically, whatever the number of threads, and the search says
//! how much of the space it measured. Each run is the
//! candidate's own small world: no time series but one bucket, so a search
//! asks the simulator for the numbers it ranks by.
//!
//! The same rounds run a slice at a time in the page ([`SearchRuns`]) and
//! on every core on the command line ([`search_threads`]): the runs are
//! independent and their results are placed by their index, so the
//! frontier is the same either way.

use serde::{Deserialize, Serialize};

use crate::analysis::{Analysis, Printed};
use crate::sliced::{Slice, Sliced};
use retry_core::sort;
use retry_core::words::Text;
use retry_sim::config::{Config, P};
use retry_sim::link::Change;
use retry_sim::sim;
use retry_sim::simulate;

/// Work the whole search may do: 10 runs at the page's limit for one.
/// The first round's runs get about 23 000 units each, which holds the
/// herd's (16 600: 2 000 clients with their attempts) and the default
/// world's (12 800) whole; a bigger world's runs stop at their share, and
/// the search says so. A world whose every run stops there spends about
/// two thirds of it, a few seconds on two cores.
pub const WORK_BUDGET: u64 = 10 * simulate::WORK_LIMIT;

/// Seeds added in each round; half the candidates go on to the next.
const ROUNDS: [u64; 3] = [1, 2, 2];
/// Seeds a candidate that reaches the last round runs on.
pub const SEEDS: u64 = 5;
const _: () = assert!(ROUNDS[0] + ROUNDS[1] + ROUNDS[2] == SEEDS);

/// What the reader asks of a policy.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Default)]
pub struct Constraints {
    /// The policies are judged over failure rates from 10 % to 90 %, one a
    /// seed, not in this world alone.
    pub over_failures: bool,
    /// At most this many server calls per operation (0: any).
    pub max_calls: f64,
    /// A latency p99 of at most this, seconds (0: any).
    pub max_p99: f64,
    /// Every candidate's deadline, seconds (0: policy A's).
    pub deadline: f64,
}

impl Constraints {
    /// The constraints the link sets.
    pub fn of(config: &Config) -> Constraints {
        Constraints {
            over_failures: config.find_worlds() == retry_sim::config::FindWorlds::Failures,
            max_calls: config.get(P::FindCalls),
            max_p99: config.get(P::FindP99),
            deadline: config.get(P::FindDeadline),
        }
    }

    fn allow(&self, point: &Measure) -> bool {
        (self.max_calls == 0.0 || point.calls.mean <= self.max_calls)
            && (self.max_p99 == 0.0 || point.p99.mean <= self.max_p99)
    }
}

/// One policy of the space: its settings as a change of values, policy
/// A's being the rest.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub change: Change,
    config: Config,
}

impl Candidate {
    /// The candidate's world: the link's, with this policy as A's, alone.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Its settings as link pairs, for the reader and the JSON: written
    /// from its values, never read back as its identity.
    pub fn pairs(&self) -> String {
        self.change.to_pairs()
    }
}

/// Every policy of the space for the world of `config` (see the module's
/// docs), after policy A's own and, when comparing, B's own ([`owns`]).
pub fn candidates(config: &Config, constraints: &Constraints) -> Vec<Candidate> {
    use retry_core::breaker::BreakerMode;
    use retry_core::budget::BudgetKind;
    use retry_core::policy::{Jitter, Shape};
    use retry_sim::config::{BREAKERS, BUDGETS, JITTERS, SHAPES, SWITCH};
    let small = |policy: &Config| {
        let mut world = policy.clone();
        world.set(P::Buckets, 1.0);
        if constraints.deadline > 0.0 {
            world.set(P::Deadline, constraints.deadline);
        }
        world
    };
    let mut own: Vec<Candidate> = config
        .policies_alone()
        .iter()
        .map(|policy| Candidate {
            change: Change::default(),
            config: small(policy),
        })
        .collect();
    let world = own[0].config.clone();
    let mut changes = vec![Change::of(&[(P::Attempts, 1.0)])];
    let exponential = SHAPES.position(Shape::Exponential);
    let shapes: [&[(P, f64)]; 3] = [
        &[(P::Shape, exponential), (P::Cap, 1.0)],
        &[(P::Shape, exponential), (P::Cap, 10.0)],
        &[(P::Shape, SHAPES.position(Shape::Constant))],
    ];
    let none = BUDGETS.position(BudgetKind::None);
    let ratio = BUDGETS.position(BudgetKind::Ratio);
    let budgets: [&[(P, f64)]; 3] = [
        &[(P::Budget, none)],
        &[(P::Budget, ratio), (P::BudgetPercent, 0.1)],
        &[(P::Budget, ratio), (P::BudgetPercent, 0.2)],
    ];
    for attempts in [2.0, 3.0, 5.0, 8.0] {
        for shape in shapes {
            for base in [0.01, 0.05, 0.2, 1.0] {
                for jitter in [Jitter::None, Jitter::Full, Jitter::Decorrelated] {
                    for budget in budgets {
                        for breaker in [BreakerMode::Off, BreakerMode::All] {
                            let mut values = vec![(P::Attempts, attempts)];
                            values.extend_from_slice(shape);
                            values.push((P::Base, base));
                            values.push((P::Jitter, JITTERS.position(jitter)));
                            values.extend_from_slice(budget);
                            values.push((P::Breaker, BREAKERS.position(breaker)));
                            values.push((P::Hedge, SWITCH.position(false)));
                            changes.push(Change::of(&values));
                        }
                    }
                }
            }
        }
    }
    own.extend(changes.into_iter().map(|change| Candidate {
        config: world.changed(&change).0,
        change,
    }));
    own
}

/// How many of the candidates are the link's own policies: A's, and B's
/// when comparing, first.
pub fn owns(config: &Config) -> usize {
    1 + usize::from(config.comparing())
}

/// A number over the seeds a candidate ran on.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Spread {
    pub mean: f64,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    fn of(values: impl Iterator<Item = f64> + Clone) -> Spread {
        let n = values.clone().count().max(1) as f64;
        Spread {
            mean: values.clone().sum::<f64>() / n,
            min: values.clone().fold(f64::INFINITY, f64::min),
            max: values.fold(f64::NEG_INFINITY, f64::max),
        }
    }
}

/// One run's numbers: what the search ranks by.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RunNumbers {
    pub seed: u64,
    pub success: f64,
    pub calls: f64,
    pub p99: f64,
}

/// A candidate as measured: its numbers over its seeds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Measure {
    pub index: usize,
    /// The candidate's settings as link pairs, written from `change`: what
    /// the JSON and the CSV show.
    pub pairs: String,
    /// The candidate's settings as values: what makes it policy B.
    #[serde(skip)]
    pub change: Change,
    pub success: Spread,
    pub calls: Spread,
    pub p99: Spread,
    pub seeds: Vec<RunNumbers>,
    /// A run stopped at its share of the search's work: not ranked.
    pub cut: bool,
    /// The earlier candidate whose every run it matched (followed no
    /// further), or whose place on the frontier it shares: drawn as that
    /// one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub same_as: Option<usize>,
    /// Within the reader's constraints.
    pub allowed: bool,
    /// Run on every seed and dominated by no other such candidate.
    pub frontier: bool,
}

impl Measure {
    /// A candidate measured on every seed at exactly these numbers, within
    /// the constraints and not yet on the frontier: what the tests of the
    /// layers above (the frontier's chart, the page's words) draw and
    /// describe.
    pub fn fixed(index: usize, success: f64, calls: f64) -> Measure {
        let at = |v| Spread {
            mean: v,
            min: v,
            max: v,
        };
        Measure {
            index,
            pairs: String::new(),
            change: Change::default(),
            success: at(success),
            calls: at(calls),
            p99: at(0.1),
            seeds: (0..SEEDS)
                .map(|seed| RunNumbers {
                    seed,
                    success,
                    calls,
                    p99: 0.1,
                })
                .collect(),
            cut: false,
            same_as: None,
            allowed: true,
            frontier: false,
        }
    }
}

/// Whether `a` dominates `b`: no worse on success and calls, better on
/// one.
fn dominates(a: &Measure, b: &Measure) -> bool {
    let (sa, sb, ca, cb) = (a.success.mean, b.success.mean, a.calls.mean, b.calls.mean);
    sa >= sb && ca <= cb && (sa > sb || ca < cb)
}

/// The Pareto rank of each of `points` (0: dominated by none of them; 1:
/// only by rank 0; ...), for the halving to keep the candidates nearest
/// the frontier. In two dimensions one pass does it: taken by calls
/// (fewest first, the more successful first among equal calls), a point
/// joins the first rank whose most successful point so far does not
/// dominate it; those points only grow less successful rank by rank, so
/// every rank before it holds a point that dominates it, and none after.
pub fn rank(points: &[&Measure]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..points.len()).collect();
    sort::sort_by(&mut order, |&a, &b| {
        let (a, b) = (points[a], points[b]);
        a.calls
            .mean
            .total_cmp(&b.calls.mean)
            .then(b.success.mean.total_cmp(&a.success.mean))
    });
    let mut ranks = vec![0; points.len()];
    // Each rank's most successful point so far (the first such by calls).
    let mut tops: Vec<&Measure> = Vec::new();
    for i in order {
        let p = points[i];
        let k = tops.iter().position(|top| !dominates(top, p));
        match k {
            Some(k) => {
                if p.success.mean > tops[k].success.mean {
                    tops[k] = p;
                }
                ranks[i] = k;
            }
            None => {
                ranks[i] = tops.len();
                tops.push(p);
            }
        }
    }
    ranks
}

/// One run of the search: a candidate on a seed, within a work limit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Task {
    pub candidate: usize,
    pub seed: u64,
    pub limit: u64,
    /// The failure rate of the run's world, when the search judges over
    /// a range of them ([`FAILURES`]); none for the link's own.
    pub failure: Option<f64>,
}

/// The failure rates a search over a range of worlds runs at, one per
/// seed in order: the middle first, then the ends, then between, so that
/// every round of the halving sees the range widen.
pub const FAILURES: [f64; SEEDS as usize] = [0.5, 0.1, 0.9, 0.3, 0.7];

/// What one run found: its numbers (none when it was cut short) and the
/// work it did.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Ran {
    pub numbers: Option<RunNumbers>,
    pub work: u64,
}

/// Runs `tasks` of the search whose candidates are `candidates`, in order:
/// what a thread or a worker of the page does with its share of a round.
pub fn run_tasks(candidates: &[Candidate], tasks: &[Task]) -> Vec<Ran> {
    tasks
        .iter()
        .map(|&task| numbers(&sim::run(&scenario(candidates, task)), task.seed))
        .collect()
}

/// The scenario of a task's run.
fn scenario(candidates: &[Candidate], task: Task) -> sim::Scenario {
    let mut config = candidates[task.candidate].config.clone();
    config.set(P::Seed, task.seed as f64);
    if let Some(failure) = task.failure {
        config.set(P::Failure, failure);
    }
    simulate::scenario_within(&config, task.limit)
}

/// A run's numbers, and the work it did.
fn numbers(report: &sim::Report, seed: u64) -> Ran {
    let s = &report.summary;
    Ran {
        numbers: s.cut.is_none().then_some(RunNumbers {
            seed,
            success: s.success_rate,
            calls: s.server_calls_per_operation,
            p99: s.latency_p99,
        }),
        work: s.operations + s.first_tries + s.retries,
    }
}

/// The search's state between rounds, shared by the page's slices, the
/// page's workers and the command line's threads: each asks it for a
/// round's runs, runs them however it likes, and records what they found
/// in the round's order.
#[derive(Debug)]
pub struct SearchRounds {
    config: Config,
    constraints: Constraints,
    candidates: Vec<Candidate>,
    /// Each candidate's runs so far; `None` for a run that was cut.
    runs: Vec<Vec<Option<RunNumbers>>>,
    /// The earlier candidate each behaves as ([`Rounds::find_twins`]).
    twin_of: Vec<Option<usize>>,
    round: usize,
    work: u64,
    budget: u64,
}

impl SearchRounds {
    /// The search of `config` within `budget` work.
    pub fn new(config: &Config, budget: u64) -> SearchRounds {
        let constraints = Constraints::of(config);
        let candidates = candidates(config, &constraints);
        SearchRounds {
            config: config.clone(),
            constraints,
            runs: vec![Vec::new(); candidates.len()],
            twin_of: vec![None; candidates.len()],
            candidates,
            round: 0,
            work: 0,
            budget,
        }
    }

    /// The runs of the next round, or none when the search is done: every
    /// candidate first, then the better half of those that ran on every
    /// seed so far (policy A's own always), each on the next seeds, the
    /// work left shared evenly among them and the rounds after.
    pub fn next_round(&mut self) -> Vec<Task> {
        let Some(&seeds) = ROUNDS.get(self.round) else {
            return Vec::new();
        };
        let first_seed = self.config.seed() + ROUNDS[..self.round].iter().sum::<u64>();
        let going: Vec<usize> = if self.round == 0 {
            (0..self.candidates.len()).collect()
        } else {
            self.find_twins();
            let measured = self.measures();
            let ran = (first_seed - self.config.seed()) as usize;
            let whole: Vec<&Measure> = measured
                .iter()
                .filter(|m| !m.cut && m.same_as.is_none() && m.seeds.len() == ran)
                .collect();
            let ranks = rank(&whole);
            let mut order: Vec<usize> = (0..whole.len()).collect();
            // Allowed first, then by rank, then the index: deterministic.
            sort::sort_by_key(&mut order, |&i| {
                (!whole[i].allowed, ranks[i], whole[i].index)
            });
            let mut keep: Vec<usize> = order
                .iter()
                .take(whole.len().div_ceil(2))
                .map(|&i| whole[i].index)
                .collect();
            // The link's own policies always: they are what the frontier
            // is read against.
            for own in 0..owns(&self.config) {
                if !keep.contains(&own) && whole.iter().any(|m| m.index == own) {
                    keep.push(own);
                }
            }
            sort::sort_by_key(&mut keep, |&k| k);
            keep
        };
        self.round += 1;
        // This round's runs share what is left, a third of it kept back
        // for the rounds after (which run fewer candidates, and fewer still
        // once twins are found).
        let runs = going.len() as u64 * seeds;
        let left = self.budget.saturating_sub(self.work);
        let limit = (left / (runs + runs / 2).max(1)).min(simulate::WORK_LIMIT);
        let (start, over) = (self.config.seed(), self.config.find_worlds());
        going
            .into_iter()
            .flat_map(|candidate| {
                (first_seed..first_seed + seeds).map(move |seed| Task {
                    candidate,
                    seed,
                    limit,
                    failure: (over == retry_sim::config::FindWorlds::Failures)
                        .then(|| FAILURES[(seed - start) as usize]),
                })
            })
            .collect()
    }

    /// Marks the candidates whose every run so far has the very numbers of
    /// an earlier candidate's: in this world they behave alike (a breaker
    /// that trips at the first failure makes the backoff behind it
    /// irrelevant), so the search follows the first of them only, and
    /// twins neither crowd the halving nor the frontier.
    fn find_twins(&mut self) {
        // Each distinct run so far and its first candidate: a list, not a
        // hash map, whose code the page would carry for this alone.
        let mut firsts: Vec<(Vec<u64>, usize)> = Vec::new();
        for index in 0..self.runs.len() {
            if self.twin_of[index].is_some() || self.runs[index].is_empty() {
                continue;
            }
            let Some(key) = self.runs[index]
                .iter()
                .map(|r| r.map(|r| [r.success, r.calls, r.p99].map(f64::to_bits)))
                .collect::<Option<Vec<_>>>()
            else {
                continue;
            };
            let key = key.concat();
            match firsts.iter().find(|(k, _)| *k == key) {
                Some(&(_, first)) => self.twin_of[index] = Some(first),
                None => firsts.push((key, index)),
            }
        }
    }

    /// What a run of the round found; runs are recorded in the round's
    /// order.
    pub fn record(&mut self, task: Task, ran: Ran) {
        self.runs[task.candidate].push(ran.numbers);
        self.work += ran.work;
    }

    /// The candidates, for running the tasks.
    pub fn candidates(&self) -> &[Candidate] {
        &self.candidates
    }

    /// Whether every round has been asked for.
    pub fn last_round_asked(&self) -> bool {
        self.round == ROUNDS.len()
    }

    /// Every candidate that ran, as measured so far.
    fn measures(&self) -> Vec<Measure> {
        let mut measured: Vec<Measure> = self
            .runs
            .iter()
            .enumerate()
            .filter(|(_, runs)| !runs.is_empty())
            .map(|(index, runs)| {
                let seeds: Vec<RunNumbers> = runs.iter().flatten().copied().collect();
                let of = |f: fn(&RunNumbers) -> f64| Spread::of(seeds.iter().map(f));
                let mut m = Measure {
                    index,
                    pairs: self.candidates[index].pairs(),
                    change: self.candidates[index].change.clone(),
                    success: of(|r| r.success),
                    calls: of(|r| r.calls),
                    p99: of(|r| r.p99),
                    cut: seeds.len() < runs.len(),
                    same_as: self.twin_of[index],
                    seeds,
                    allowed: false,
                    frontier: false,
                };
                m.allowed = !m.cut && self.constraints.allow(&m);
                m
            })
            .collect();
        let whole: Vec<usize> = (0..measured.len())
            .filter(|&i| {
                let m = &measured[i];
                m.allowed && m.same_as.is_none() && m.seeds.len() as u64 == SEEDS
            })
            .collect();
        let mut drawn: Vec<usize> = Vec::new();
        for &i in &whole {
            if whole.iter().any(|&j| dominates(&measured[j], &measured[i])) {
                continue;
            }
            // One point of the frontier per place on it: a later candidate
            // with the same means is drawn as the first.
            let same = |j: &usize| {
                let (a, b) = (&measured[*j], &measured[i]);
                a.success.mean == b.success.mean && a.calls.mean == b.calls.mean
            };
            match drawn.iter().find(|j| same(j)) {
                Some(&j) => measured[i].same_as = Some(measured[j].index),
                None => {
                    measured[i].frontier = true;
                    drawn.push(i);
                }
            }
        }
        measured
    }

    /// The frontier as far as the search got.
    pub fn frontier(&self, done: bool) -> Frontier {
        let measured = self.measures();
        let runs: usize = self.runs.iter().map(Vec::len).sum();
        let cut = measured.iter().filter(|m| m.cut).count();
        Frontier {
            constraints: self.constraints,
            total: self.candidates.len(),
            better: better(&measured, owns(&self.config)),
            b: (owns(&self.config) > 1)
                .then(|| measured.iter().position(|m| m.index == 1))
                .flatten(),
            runs,
            cut,
            done,
            work: self.work,
            budget: self.budget,
            candidates: measured,
        }
    }
}

/// The search's result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Frontier {
    pub constraints: Constraints,
    /// Candidates in the space.
    pub total: usize,
    /// Every candidate that ran; policy A's own is index 0.
    pub candidates: Vec<Measure>,
    /// Indices into `candidates` of at most three policies that beat A's.
    pub better: Vec<usize>,
    /// The index into `candidates` of policy B's own, in compare mode.
    pub b: Option<usize>,
    /// Runs made, and candidates of which a run stopped at its share.
    pub runs: usize,
    pub cut: usize,
    pub done: bool,
    pub work: u64,
    pub budget: u64,
}

impl Frontier {
    /// Policy A's own point, when it ran.
    pub fn yours(&self) -> Option<&Measure> {
        self.candidates.iter().find(|m| m.index == 0)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a frontier serializes")
    }

    /// A row per candidate measured.
    pub fn to_csv(&self) -> String {
        let mut out = String::from(
            "policy,seeds,success,success_min,success_max,calls,calls_min,calls_max,p99,allowed,frontier,beats_yours\n",
        );
        for (k, m) in self.candidates.iter().enumerate() {
            let policy = match m.index {
                0 => "A".to_string(),
                _ if Some(k) == self.b => "B".to_string(),
                _ => m.pairs.clone(),
            };
            out += &format!(
                "{policy},{},{},{},{},{},{},{},{},{},{},{}\n",
                m.seeds.len(),
                m.success.mean,
                m.success.min,
                m.success.max,
                m.calls.mean,
                m.calls.min,
                m.calls.max,
                m.p99.mean,
                m.allowed,
                m.frontier,
                self.better.contains(&k)
            );
        }
        out
    }
}

/// A lead that matters: a point more of success, or 5 % fewer calls.
const SUCCESS_MATTERS: f64 = 0.01;
const CALLS_MATTER: f64 = 0.05;

/// At most three policies of the frontier that beat A's: on no seed they
/// share with it worse on success or calls by what matters, and on the
/// mean ahead by what matters on one of them.
/// Each differs from the others by what matters; of more than three, the
/// most successful, the cheapest and the one between.
fn better(measured: &[Measure], owns: usize) -> Vec<usize> {
    let Some(yours) = measured.iter().find(|m| m.index == 0) else {
        return Vec::new();
    };
    if yours.cut {
        return Vec::new();
    }
    let beats = |m: &Measure| {
        let holds = m.seeds.iter().zip(&yours.seeds).all(|(c, y)| {
            c.success > y.success - SUCCESS_MATTERS && c.calls < y.calls * (1.0 + CALLS_MATTER)
        });
        let matters = m.success.mean >= yours.success.mean + SUCCESS_MATTERS
            || m.calls.mean <= yours.calls.mean * (1.0 - CALLS_MATTER);
        m.index >= owns && m.frontier && holds && matters
    };
    let mut winners: Vec<usize> = (0..measured.len())
        .filter(|&k| beats(&measured[k]))
        .collect();
    sort::sort_by(&mut winners, |&a, &b| {
        measured[b]
            .success
            .mean
            .total_cmp(&measured[a].success.mean)
            .then(measured[a].index.cmp(&measured[b].index))
    });
    // Different from each other by what matters, too: a policy a hair
    // from one already listed adds nothing to read.
    let mut distinct: Vec<usize> = Vec::new();
    for k in winners {
        let m = &measured[k];
        let apart = |o: &usize| {
            let o = &measured[*o];
            (m.success.mean - o.success.mean).abs() >= SUCCESS_MATTERS
                || (m.calls.mean - o.calls.mean).abs() >= CALLS_MATTER * o.calls.mean
        };
        if distinct.iter().all(apart) {
            distinct.push(k);
        }
    }
    match distinct.len() {
        0..=3 => distinct,
        n => vec![distinct[0], distinct[n / 2], distinct[n - 1]],
    }
}

/// Why the page and the command line do not search `config`, if they do
/// not: the contention model has no retry policy to vary but its backoff.
pub fn refusal(config: &Config) -> Option<&'static str> {
    (config.workload() == retry_sim::sim::WorkloadKind::Contention).then(|| {
        retry_core::words::tr(
            "The contention model races clients for one row: its backoffs are compared on its own chart, not searched.",
        )
    })
}

/// The search run a slice at a time, as the page runs it between frames.
#[derive(Debug)]
pub struct SearchRuns {
    rounds: SearchRounds,
    tasks: std::collections::VecDeque<Task>,
    current: Option<(Task, sim::Run)>,
    done: bool,
}

impl SearchRuns {
    pub fn new(config: &Config) -> SearchRuns {
        SearchRuns::within(config, WORK_BUDGET)
    }

    /// The search within `budget` work.
    pub fn within(config: &Config, budget: u64) -> SearchRuns {
        let mut rounds = SearchRounds::new(config, budget);
        let tasks = rounds.next_round().into();
        SearchRuns {
            rounds,
            tasks,
            current: None,
            done: false,
        }
    }

    /// Advances the next run by about `work`; true when that finished a
    /// run.
    fn advance(&mut self, work: u64) -> bool {
        if self.done {
            return false;
        }
        if self.current.is_none() {
            if self.tasks.is_empty() {
                self.tasks = self.rounds.next_round().into();
            }
            let Some(task) = self.tasks.pop_front() else {
                self.done = true;
                return true;
            };
            let run = sim::Run::new(&scenario(&self.rounds.candidates, task));
            self.current = Some((task, run));
        }
        let (_, run) = self.current.as_mut().expect("a run is going");
        if !run.advance(work) {
            return false;
        }
        let (task, run) = self.current.take().expect("a run is going");
        self.rounds.record(task, numbers(&run.finish(), task.seed));
        if self.tasks.is_empty() && self.rounds.last_round_asked() {
            self.done = true;
        }
        true
    }

    pub fn done(&self) -> bool {
        self.done
    }

    /// The frontier as far as the search got.
    pub fn frontier(&self) -> Frontier {
        self.rounds.frontier(self.done)
    }
}

/// The whole search on `threads` threads (at least one): each round's runs
/// taken by whichever is free, their results placed by index
/// ([`crate::executor`]).
pub fn search_threads(config: &Config, threads: usize) -> Frontier {
    search_within(config, threads, WORK_BUDGET)
}

/// [`search_threads`] within `budget` work. WebAssembly has no threads
/// here (the page's workers are its own, `page/src/search_workers.rs`):
/// it runs on one.
pub fn search_within(config: &Config, threads: usize, budget: u64) -> Frontier {
    let mut rounds = SearchRounds::new(config, budget);
    loop {
        let tasks = rounds.next_round();
        if tasks.is_empty() {
            break;
        }
        let candidates = rounds.candidates();
        let results = crate::executor::run_all(&tasks, threads, |&task| {
            numbers(&sim::run(&scenario(candidates, task)), task.seed)
        });
        for (task, ran) in tasks.into_iter().zip(results) {
            rounds.record(task, ran);
        }
    }
    rounds.frontier(true)
}

/// The whole search on every core the machine reports.
pub fn search(config: &Config) -> Frontier {
    search_threads(config, crate::executor::every_core())
}

/// `config` with a candidate's `change` as policy B, compare mode on.
pub fn as_b(config: &Config, change: &Change) -> Config {
    config.changed(&change.as_b()).0
}

/// The search as an analysis: `--frontier`.
pub const ANALYSIS: Analysis = Analysis {
    word: Text("frontier"),
    options: &[("--csv", false), ("--threads", true)],
    synopsis: " [--csv] [--threads N]",
    help: Text(
        "Searches the grid of retry policies in the world of LINK on every core (--threads N for N), and prints every policy measured, the frontier of success against calls per operation, and those that beat policy A, as JSON (CSV with --csv).",
    ),
    seeds: SEEDS,
    budget: Some(WORK_BUDGET),
    refusal,
    print: |config, args| {
        // Every core unless --threads says how many (the benchmark's 1
        // against 2); the frontier is the same whatever the number.
        let frontier = match args.value("--threads").map(str::parse::<usize>) {
            None => search(config),
            Some(Ok(threads)) if threads > 0 => search_threads(config, threads),
            Some(_) => {
                return Err(retry_core::words::tr(
                    "--threads takes a whole number of threads, 1 or more",
                )
                .to_string());
            }
        };
        let said = (frontier.cut > 0).then(|| {
            retry_core::tf!(
                "frontier: {cut} of {total} policies stopped at their share of the search's work budget of {budget}",
                cut = frontier.cut,
                total = frontier.total,
                budget = frontier.budget
            )
        });
        let out = match args.flag("--csv") {
            true => frontier.to_csv(),
            false => frontier.to_json(),
        };
        Ok(Printed::out(out).saying(said))
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-pass ranks are the layers of peeling the non-dominated
    /// points off again and again, on a grid with ties in both numbers.
    #[test]
    fn ranks_are_the_layers_of_non_domination() {
        let mut points = Vec::new();
        let mut state = 12_345_u64;
        for index in 0..300 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let success = ((state >> 33) % 11) as f64 / 10.0;
            let calls = 1.0 + ((state >> 45) % 9) as f64 / 4.0;
            points.push(Measure::fixed(index, success, calls));
        }
        let refs: Vec<&Measure> = points.iter().collect();
        let ranks = rank(&refs);
        // Peeling: a layer is what no point left dominates.
        let mut left: Vec<usize> = (0..refs.len()).collect();
        let mut layer = 0;
        while !left.is_empty() {
            let front: Vec<usize> = left
                .iter()
                .copied()
                .filter(|&i| !left.iter().any(|&j| dominates(refs[j], refs[i])))
                .collect();
            for &i in &front {
                assert_eq!(ranks[i], layer, "point {i}");
            }
            left.retain(|i| !front.contains(i));
            layer += 1;
        }
        assert!(layer > 3, "a grid of several layers: {layer}");
    }

    /// A round's batches cover its runs in order, start at the largest
    /// and shrink to the smallest, so that two workers finish their last
    /// batches at most the smallest one's runs apart.
    #[test]
    fn batches_shrink_towards_the_end_of_a_round() {
        for (runs, workers) in [
            (866, 2),
            (433, 2),
            (866, 1),
            (866, 8),
            (5, 2),
            (0, 2),
            (30, 0),
        ] {
            let tasks: Vec<Task> = (0..runs)
                .map(|candidate| Task {
                    candidate,
                    seed: 1,
                    limit: 1,
                    failure: None,
                })
                .collect();
            let cut = batches(&tasks, workers);
            assert_eq!(cut.concat(), tasks, "{runs} runs, {workers} workers");
            let sizes: Vec<usize> = cut.iter().map(Vec::len).collect();
            assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "{sizes:?}");
            assert!(
                sizes.iter().all(|&n| (1..=BATCH_MOST).contains(&n)),
                "{sizes:?}"
            );
            if runs >= 2 * workers.max(1) * BATCH_MOST {
                assert_eq!(sizes[0], BATCH_MOST, "{sizes:?}");
            }
            if runs >= BATCH_LEAST {
                // Each worker's last batch is the smallest a batch may be.
                assert!(
                    sizes
                        .iter()
                        .rev()
                        .take(workers.max(1))
                        .all(|&n| n <= BATCH_LEAST),
                    "{sizes:?}"
                );
            }
        }
    }
}

/// Runs in a batch the page gives a worker, at most: about a tenth of a
/// second of a default world's runs, few enough messages not to matter.
const BATCH_MOST: usize = 24;
/// And at least, but for a round's last runs.
const BATCH_LEAST: usize = 4;

/// A round's `tasks` cut into batches, in order, for `workers` that each
/// take the next batch when they finish one. Each is half a worker's share
/// of what is left, within [`BATCH_LEAST`] and [`BATCH_MOST`] runs: batches
/// shrink towards the round's end, so that a worker done with its last
/// batch waits for the others' last small ones, not for a whole large one
/// (guided self-scheduling). A round waits for all its runs before the
/// next, so that wait comes once a round.
pub fn batches(tasks: &[Task], workers: usize) -> Vec<Vec<Task>> {
    let mut batches = Vec::new();
    let mut rest = tasks;
    while !rest.is_empty() {
        let size = rest
            .len()
            .div_ceil(2 * workers.max(1))
            .clamp(BATCH_LEAST, BATCH_MOST)
            .min(rest.len());
        let (batch, after) = rest.split_at(size);
        batches.push(batch.to_vec());
        rest = after;
    }
    batches
}

impl Sliced for SearchRuns {
    /// A unit is one run of one candidate on one seed.
    fn step(&mut self, work: u64) -> Slice {
        if self.done {
            return Slice::Done;
        }
        let ran = self.advance(work);
        Slice::of(self.done, ran)
    }

    fn done(&self) -> bool {
        self.done
    }
}

/// A search spread over workers that answer in any order: the rounds cut
/// into [`batches`], each handed out once, and their runs recorded in the
/// round's own order whatever order the answers come in, so the frontier
/// is the one a single thread finds. The page's worker pool holds one and
/// only posts and receives messages.
#[derive(Debug)]
pub struct Dispatch {
    link: String,
    workers: usize,
    rounds: SearchRounds,
    /// The round's batches, what came back of each, how many of them (from
    /// the first) are recorded, and the next to hand out.
    batches: Vec<Vec<Task>>,
    results: Vec<Option<Vec<Ran>>>,
    recorded: usize,
    next: usize,
    done: bool,
}

impl Dispatch {
    /// The search of `config` within `budget`, for `workers` workers.
    pub fn new(config: &Config, budget: u64, workers: usize) -> Dispatch {
        let mut dispatch = Dispatch {
            link: config.to_link(),
            workers,
            rounds: SearchRounds::new(config, budget),
            batches: Vec::new(),
            results: Vec::new(),
            recorded: 0,
            next: 0,
            done: false,
        };
        dispatch.next_round();
        dispatch
    }

    fn next_round(&mut self) {
        let tasks = self.rounds.next_round();
        self.batches = batches(&tasks, self.workers);
        self.results = vec![None; self.batches.len()];
        self.recorded = 0;
        self.next = 0;
        self.done = self.batches.is_empty();
    }

    /// The next batch to hand out, with its number to answer it by; none
    /// while the round's last batches are out (the next round needs them).
    pub fn hand_out(&mut self) -> Option<(usize, Batch)> {
        let tasks = self.batches.get(self.next)?.clone();
        self.next += 1;
        Some((
            self.next - 1,
            Batch {
                link: self.link.clone(),
                tasks,
            },
        ))
    }

    /// The runs of batch `number` came back. They are recorded once every
    /// batch before theirs is; a whole round recorded starts the next.
    /// An answer that fits no batch handed out is refused.
    pub fn answered(&mut self, number: usize, ran: Vec<Ran>) -> Result<(), &'static str> {
        let fits = self
            .batches
            .get(number)
            .is_some_and(|tasks| number < self.next && tasks.len() == ran.len());
        if !fits || self.results[number].is_some() {
            return Err("a batch came back that was not handed out, or short");
        }
        self.results[number] = Some(ran);
        while let Some(Some(ran)) = self.results.get_mut(self.recorded) {
            for (task, ran) in self.batches[self.recorded].iter().zip(std::mem::take(ran)) {
                self.rounds.record(*task, ran);
            }
            self.recorded += 1;
        }
        if self.recorded == self.batches.len() && !self.done {
            self.next_round();
        }
        Ok(())
    }

    /// Whether every round is recorded.
    pub fn done(&self) -> bool {
        self.done
    }

    /// The frontier as far as the search got.
    pub fn frontier(&self) -> Frontier {
        self.rounds.frontier(self.done)
    }
}

/// A batch of a round's runs, as the page posts it to a worker: the link
/// whose search it is and the runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Batch {
    pub link: String,
    pub tasks: Vec<Task>,
}

/// What a worker keeps between batches: the candidates of the link it was
/// last sent, built once per search rather than once per batch.
#[derive(Debug, Default)]
pub struct BatchRunner {
    link: String,
    candidates: Vec<Candidate>,
}

impl BatchRunner {
    /// Runs a batch: the same runs, to the same numbers, as the page's own
    /// rounds would make of them.
    pub fn run(&mut self, batch: &Batch) -> Vec<Ran> {
        if self.link != batch.link || self.candidates.is_empty() {
            let (config, _) = Config::from_link(&batch.link);
            self.candidates = candidates(&config, &Constraints::of(&config));
            self.link = batch.link.clone();
        }
        let fits = batch
            .tasks
            .iter()
            .all(|t| t.candidate < self.candidates.len());
        if !fits {
            return Vec::new();
        }
        run_tasks(&self.candidates, &batch.tasks)
    }
}
