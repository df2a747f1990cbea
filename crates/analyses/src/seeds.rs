//! Numbers over seeds: a headline number measured again on the seeds that
//! follow the link's, and when one policy is better than the other.
//!
//! A seed fixes every random draw of a run, so a link gives the same
//! numbers wherever it runs; but one seed's number can be luck. 63.2 %
//! against 67.0 % may be the policies or the draws. So a lesson's headline
//! numbers are measured again on the next seeds (the link's seed, then
//! seed + 1, seed + 2, ...), the world and the policies otherwise the same,
//! and shown with their range. The link's seed stays the headline: it is
//! the run the charts draw.
//!
//! ## How many seeds
//!
//! Up to [`MOST_SEEDS`], as many as fit in [`SEED_WORK`]: the first
//! seed's runs (the charts' own, already done) say what one seed costs, in
//! the simulator's own count of work and computing (`Summary::cost`), and
//! the count is the whole seeds that cost fits in the budget, so a small
//! world gets ten and a big one fewer, down to one. A world whose first run
//! stopped at a bound is too big to run again: one seed.
//!
//! The estimate is a first seed's; another seed may cost more. So the seed
//! runs share the budget as their work limit: each starts with what is
//! left, and pays for what it did. A run cut short by that (or by any other
//! bound) is not counted, and the seeds stop there, so all the seed runs
//! together do at most [`SEED_WORK`] of work and its cost in time, whatever
//! the link: bounded as every run is.
//!
//! ## When one policy is better
//!
//! Policy B is better than A (or A than B) at a number when it is ahead
//! on at least nine in ten of the seeds ([`needed`]), each time by more
//! than the least lead that matters ([`Format::least_lead`]: a percentage
//! point for a share, 5 % for the other numbers). A lead that changes
//! sides between seeds, or that is too small to act on, is no real
//! difference, and the page says so: that can be the lesson itself.

use crate::analysis::{Analysis, Printed};
use crate::sliced::{Slice, Sliced};
use retry_core::words::Text;
use retry_sim::config::Config;
use retry_sim::metrics::{Better, Format, Metric, Side};
use retry_sim::sim::{self, COST_PER_WORK, Summary};
use retry_sim::simulate;

/// Most seeds a number is measured on: ten say whether a lead holds
/// ("nine in ten") and where the number lies, and cost a small world
/// little.
pub const MOST_SEEDS: usize = 10;

/// Most work (the unit of `Scenario::work_limit`) the runs of the seeds
/// after the first may do together: half of one run at [`simulate::WORK_LIMIT`],
/// about half a second natively, so the spread of even a big world comes
/// soon after its charts.
pub const SEED_WORK: u64 = simulate::WORK_LIMIT / 2;

/// A seed's run as the headlines read it: every number of the metrics
/// table, in the order of [`Metric::ALL`] (a few bytes a seed, where a
/// summary is a few hundred).
pub type Numbers = [f64; Metric::ALL.len()];

/// The numbers of a run's summary.
pub fn numbers(summary: &Summary) -> Numbers {
    Metric::ALL.map(|metric| metric.read(summary))
}

/// One policy's (or each policy's) numbers over the seeds.
#[derive(Debug, Clone, PartialEq)]
pub struct Seeds {
    /// The link's seed: the first of the seeds, whose runs the charts draw.
    pub first: u64,
    /// Policy A's numbers on each seed measured, the first seed's first.
    pub a: Vec<Numbers>,
    /// Policy B's, in compare mode; empty otherwise.
    pub b: Vec<Numbers>,
    /// The seeds the budget allows ([`planned`]); fewer are measured when
    /// a seed's run was cut short.
    pub planned: usize,
}

/// What one run costs in work: its work (operations and server attempts,
/// what `work_limit` counts), or its computing in the same unit when
/// that is more (see `sim::world`, "Bounds").
fn spent(summary: &Summary) -> u64 {
    let work = summary.operations + summary.attempts_by_layer.last().copied().unwrap_or(0);
    work.max(summary.cost.div_ceil(COST_PER_WORK))
}

/// How many seeds the numbers of a configuration whose first seed's runs
/// reported `a` (and `b`) are measured on: see the module's docs.
pub fn planned(a: &Summary, b: Option<&Summary>) -> usize {
    let first = [Some(a), b].into_iter().flatten();
    if first.clone().any(|s| s.truncated) {
        return 1;
    }
    let per_seed = first.map(spent).sum::<u64>().max(1);
    let more = (SEED_WORK / per_seed).min(MOST_SEEDS as u64 - 1);
    1 + more as usize
}

/// Seeds, out of `seeds`, on which a policy must be ahead to be better:
/// nine in ten, rounded up.
pub fn needed(seeds: usize) -> usize {
    (9 * seeds).div_ceil(10)
}

/// What the seeds say of one number of A against B.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// This policy is ahead by enough on enough seeds, on so many.
    Better(Side, usize),
    /// Neither is, and on at least half the seeds the two are within the
    /// least lead that matters: the difference is small as well as
    /// unsteady.
    NoRealDifference,
    /// Neither is, yet on most seeds one or the other leads by what
    /// matters: a large difference whose side depends on the seed (A
    /// ahead on `a` seeds, B on `b`).
    DiffersBySeed { a: usize, b: usize },
}

impl Seeds {
    /// The link's seed `first` alone, whose runs reported `a` (and `b` in
    /// compare mode), and the seeds the budget allows after it.
    pub fn first(first: u64, a: &Summary, b: Option<&Summary>) -> Seeds {
        Seeds {
            first,
            a: vec![numbers(a)],
            b: b.into_iter().map(numbers).collect(),
            planned: planned(a, b),
        }
    }

    /// Seeds measured, by every policy.
    pub fn count(&self) -> usize {
        match self.b.len() {
            0 => self.a.len(),
            b => b.min(self.a.len()),
        }
    }

    /// One policy's `metric` on every seed measured (none for a policy
    /// not run).
    pub fn values(&self, metric: Metric, side: Side) -> impl Iterator<Item = f64> + '_ {
        let runs = match side {
            Side::A => &self.a,
            Side::B => &self.b,
        };
        runs.iter().map(move |n| n[metric as usize])
    }

    /// The lowest and highest of `metric` over the seeds, for one policy;
    /// `None` for a policy not run.
    pub fn range(&self, metric: Metric, side: Side) -> Option<(f64, f64)> {
        self.values(metric, side).fold(None, |range, x| {
            let (low, high) = range.unwrap_or((x, x));
            Some((low.min(x), high.max(x)))
        })
    }

    /// Whether A or B is better at `metric` over the seeds; `None` when
    /// there is nothing to judge (one policy, or a number that is better
    /// neither way).
    pub fn verdict(&self, metric: Metric) -> Option<Verdict> {
        let higher = match metric.better() {
            Better::Higher => true,
            Better::Lower => false,
            Better::Neither => return None,
        };
        if self.b.is_empty() {
            return None;
        }
        let format = metric.number().format;
        // How many seeds each side leads on by more than the least lead.
        let mut ahead = [0, 0];
        for (a, b) in self.a.iter().zip(&self.b) {
            let (a, b) = (a[metric as usize], b[metric as usize]);
            let lead = if higher { b - a } else { a - b };
            let least = format.least_lead(a, b);
            if lead > least {
                ahead[1] += 1;
            } else if -lead > least {
                ahead[0] += 1;
            }
        }
        let need = needed(self.count());
        let within = self.count() - ahead[0] - ahead[1];
        Some(if ahead[1] >= need {
            Verdict::Better(Side::B, ahead[1])
        } else if ahead[0] >= need {
            Verdict::Better(Side::A, ahead[0])
        } else if 2 * within >= self.count() {
            Verdict::NoRealDifference
        } else {
            Verdict::DiffersBySeed {
                a: ahead[0],
                b: ahead[1],
            }
        })
    }
}

/// The rule [`Seeds::verdict`] follows for a number written as `format`,
/// in words for the page.
pub fn rule(format: Format) -> &'static str {
    match format {
        Format::Share => retry_core::words::tr(
            "\u{201c}Better\u{201d} marks the policy ahead by more than 1 percentage point on at \
             least 9 in 10 of the seeds; where neither is, \u{201c}no real difference\u{201d} \
             when the two are within that on half the seeds or more, else \u{201c}differs by \
             seed\u{201d}.",
        ),
        _ => retry_core::words::tr(
            "\u{201c}Better\u{201d} marks the policy ahead by more than 5 % on at least 9 in 10 of \
             the seeds; where neither is, \u{201c}no real difference\u{201d} when the two are \
             within that on half the seeds or more, else \u{201c}differs by seed\u{201d}.",
        ),
    }
}

/// The runs of the seeds after the first, one after the other, each a
/// slice of work at a time ([`sim::Run`]): A's then B's on each seed.
#[derive(Debug)]
pub struct SeedRuns {
    seeds: Seeds,
    /// A's settings, then B's in compare mode, as the first seed ran them.
    configs: Vec<Config>,
    /// Work the seed runs may still do.
    left: u64,
    /// The run going and the side it is of.
    run: Option<(usize, sim::Run)>,
    /// A run was cut short: no more seeds.
    stopped: bool,
    /// What every seed run did, counted or not: runs, work and events.
    spent: Spent,
}

/// What the runs of the seeds did in all, as their own counters report it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Spent {
    pub runs: u64,
    /// Operations and server attempts (the unit of `work_limit`).
    pub work: u64,
    pub events: u64,
}

impl SeedRuns {
    /// The seeds of `config` after the first, whose runs reported `a` (and
    /// `b` in compare mode); none begun.
    pub fn new(config: &Config, a: &Summary, b: Option<&Summary>) -> SeedRuns {
        SeedRuns::within(config, a, b, SEED_WORK)
    }

    /// The same seeds sharing `work` rather than [`SEED_WORK`], for tests
    /// that check the bound at a scale a debug build runs quickly.
    pub fn within(config: &Config, a: &Summary, b: Option<&Summary>, work: u64) -> SeedRuns {
        let mut configs = vec![config.clone()];
        if b.is_some() {
            configs.push(config.policy_b_config());
        }
        SeedRuns {
            seeds: Seeds::first(config.seed(), a, b),
            configs,
            left: work,
            run: None,
            stopped: false,
            spent: Spent::default(),
        }
    }

    /// Whether every seed is measured, or the seeds stopped.
    pub fn done(&self) -> bool {
        self.stopped || self.finished() >= self.seeds.planned
    }

    /// Advances the current run by `work` (see [`sim::Run::advance`]),
    /// starting it if need be and keeping its summary once it ends; true
    /// once the seeds are done.
    fn advance(&mut self, work: u64) -> bool {
        if self.done() {
            return true;
        }
        let comparing = self.configs.len() > 1;
        let (side, run) = self.run.get_or_insert_with(|| {
            // A's run of the next seed, or B's once A's is in.
            let side = usize::from(comparing && self.seeds.a.len() > self.seeds.b.len());
            let runs = if side == 1 {
                &self.seeds.b
            } else {
                &self.seeds.a
            };
            let mut scenario = simulate::scenario(&self.configs[side]);
            scenario.seed = self.seeds.first.wrapping_add(runs.len() as u64);
            scenario.work_limit = self.left;
            (side, sim::Run::new(&scenario))
        });
        if !run.advance(work) {
            return false;
        }
        let side = *side;
        let (_, run) = self.run.take().expect("the run just advanced");
        let summary = run.finish().summary;
        self.left = self.left.saturating_sub(spent(&summary));
        self.spent.runs += 1;
        self.spent.work +=
            summary.operations + summary.attempts_by_layer.last().copied().unwrap_or(0);
        self.spent.events += summary.events;
        if summary.truncated {
            // Cut short, by the work left or another bound: its numbers
            // are not the world's, and the seeds end before it.
            self.stopped = true;
        } else if side == 1 {
            self.seeds.b.push(numbers(&summary));
        } else {
            self.seeds.a.push(numbers(&summary));
        }
        if self.left == 0 {
            self.stopped = true;
        }
        if self.stopped && comparing {
            // A seed is measured once both policies ran it.
            self.seeds.a.truncate(self.seeds.b.len());
        }
        self.done()
    }

    /// Seeds measured so far, each by every policy.
    pub fn finished(&self) -> usize {
        if self.configs.len() > 1 {
            self.seeds.b.len()
        } else {
            self.seeds.a.len()
        }
    }

    /// What the seed runs did so far, kept or not.
    pub fn spent(&self) -> Spent {
        self.spent
    }

    /// The seeds measured.
    pub fn seeds(&self) -> &Seeds {
        &self.seeds
    }

    pub fn finish(self) -> Seeds {
        self.seeds
    }
}

/// The summaries of `config` over its seeds ([`planned`] of them): the
/// runs the page makes, in one go.
pub fn over_seeds(config: &Config) -> Seeds {
    let (a, b) = simulate::run_both(config);
    let mut runs = SeedRuns::new(config, &a.summary, b.as_ref().map(|b| &b.summary));
    while !runs.advance(u64::MAX) {}
    runs.finish()
}

impl Sliced for SeedRuns {
    /// A unit is one policy's run of one seed.
    fn step(&mut self, work: u64) -> Slice {
        let before = self.spent.runs;
        let all = self.advance(work);
        Slice::of(all, self.spent.runs > before)
    }

    fn done(&self) -> bool {
        SeedRuns::done(self)
    }
}

/// One headline number of a lesson: A's value on the link's seed, B's in
/// compare mode, their range over the next seeds once measured, and which
/// is better (see [`seeds`] for the rule).
#[derive(Debug, Clone, PartialEq)]
pub struct Headline {
    pub metric: Metric,
    pub label: &'static str,
    /// Glossary key of the term the label uses.
    pub term: Option<&'static str>,
    pub a: String,
    pub b: Option<String>,
    /// The better side over the seeds, when one is.
    pub better: Option<Side>,
    /// A's lowest and highest over the seeds ("61.0\u{2013}65.1 %"), once
    /// measured on more than one.
    pub range_a: Option<String>,
    pub range_b: Option<String>,
    /// What the seeds say, under the numbers: "Over 10 seeds: no real
    /// difference", or that they are being measured.
    pub seeds: String,
    /// How to read the numbers, and the rule "better" follows.
    pub rule: String,
}

/// The headline numbers of `metrics` over the seeds measured: the first
/// seed's values, each policy's range, and the better side where the
/// seeds say one is. `measuring`: the seeds after the first are still
/// being run, so one seed is all there is yet, and nothing is judged.
///
/// The first number is the one the lesson rests on, and two rules keep
/// the others from undercutting it once the seeds are measured:
/// - a policy behind on the first number gets no "better" on another
///   (A's shorter p99 is no win while A fails most operations);
/// - a number both policies give alike on every seed ("0.0 %" against
///   "0.0 %") is left out: it says nothing the lesson needs, unless a
///   "try this" of the lesson moves it (`moved`), whose before it is.
pub fn headlines(
    metrics: &[Metric],
    moved: &[Metric],
    seeds: &Seeds,
    measuring: bool,
) -> Vec<Headline> {
    let mut lines = measured(metrics, seeds, measuring);
    let ranged = seeds.count() > 1 && !measuring;
    if let (Some(rests), Some(&first)) = (lines.first().and_then(|l| l.better), metrics.first()) {
        for line in lines.iter_mut().skip(1) {
            if line.better.is_some_and(|side| side != rests) {
                line.better = None;
                let name = if rests == Side::A { 'B' } else { 'A' };
                line.seeds = retry_core::tf!(
                    "Over {count} seeds: {name} ahead here, but behind on {first}, the number the lesson rests on",
                    count = seeds.count(),
                    name = name,
                    first = retry_core::words::lower(first.label())
                );
            }
        }
    }
    let alike = |metric: Metric| {
        let format = metric.number().format;
        let written: Vec<String> = [Side::A, Side::B]
            .into_iter()
            .flat_map(|side| seeds.values(metric, side))
            .map(|x| format.headline(x))
            .collect();
        !seeds.b.is_empty() && written.iter().all(|w| *w == written[0])
    };
    let first = metrics.first().copied();
    lines.retain(|line| {
        Some(line.metric) == first || !ranged || moved.contains(&line.metric) || !alike(line.metric)
    });
    lines
}

/// Each of `metrics` over the seeds, before the rules of [`headlines`].
fn measured(metrics: &[Metric], seeds: &Seeds, measuring: bool) -> Vec<Headline> {
    let count = seeds.count();
    let first = seeds.first;
    let ranged = count > 1 && !measuring;
    let read_as = if ranged {
        retry_core::tf!(
            "The big number is seed {first}'s, the run the charts draw; under it, the lowest and \
             highest over seeds {first}\u{2013}{last}: the same world run again with the next seeds.",
            first = first,
            last = first + count as u64 - 1
        )
    } else {
        retry_core::tf!(
            "The number is seed {first}'s, the run the charts draw.",
            first = first
        )
    };
    metrics
        .iter()
        .map(|&metric| {
            let format = metric.number().format;
            let range = |side| {
                let (low, high) = seeds.range(metric, side).filter(|_| ranged)?;
                Some(match format.headline(low) == format.headline(high) {
                    true => retry_core::words::tr("the same on every seed").to_string(),
                    false => format.range(low, high),
                })
            };
            // A run in which no operation started has no share, rate or
            // latency to show, only its count.
            let written = |numbers: &[f64]| match numbers[Metric::Operations as usize] == 0.0
                && metric != Metric::Operations
            {
                true => retry_core::words::tr("no operations").to_string(),
                false => metric.format(numbers[metric as usize]),
            };
            let mut line = Headline {
                metric,
                label: metric.label(),
                term: metric.term(),
                a: written(&seeds.a[0]),
                b: seeds.b.first().map(|b| written(b)),
                better: None,
                range_a: range(Side::A),
                range_b: range(Side::B),
                seeds: retry_core::tf!("Range over {count} seeds", count = count),
                rule: read_as.clone(),
            };
            if measuring {
                line.seeds = retry_core::tf!(
                    "Measuring over {count} seeds\u{2026}",
                    count = seeds.planned
                );
            } else if !ranged {
                line.seeds =
                    retry_core::words::tr("One seed: too big a world to run again").to_string();
            } else if let Some(verdict) = seeds.verdict(metric) {
                line.rule = format!("{read_as} {}", rule(format));
                line.seeds = match verdict {
                    Verdict::NoRealDifference => {
                        retry_core::tf!("Over {count} seeds: no real difference", count = count)
                    }
                    Verdict::DiffersBySeed { a, b } => retry_core::tf!(
                        "Over {count} seeds: differs by seed (A ahead on {a}, B on {b})",
                        count = count,
                        a = a,
                        b = b
                    ),
                    Verdict::Better(side, on) => {
                        line.better = Some(side);
                        let name = if side == Side::A { 'A' } else { 'B' };
                        retry_core::tf!(
                            "Over {count} seeds: {name} ahead on {on}",
                            count = count,
                            name = name,
                            on = on
                        )
                    }
                };
            }
            line
        })
        .collect()
}

/// The headlines over seeds as an analysis: the numbers of the link's
/// lesson, each policy's value on every seed and what the page shows of
/// them.
pub const ANALYSIS: Analysis = Analysis {
    word: Text("seeds"),
    options: &[],
    synopsis: "",
    help: Text(
        "The lesson's headline numbers over the seeds the page measures them on, as JSON: each policy's value on every seed, the range and the better side.",
    ),
    seeds: MOST_SEEDS as u64,
    budget: Some(SEED_WORK),
    refusal: |_| None,
    print: |config, args| {
        let (headline, moved) = (args.lesson)(config);
        let measured = over_seeds(config);
        let side = |side: Side| if side == Side::A { "A" } else { "B" };
        let lines: Vec<serde_json::Value> = headlines(headline, &moved, &measured, false)
            .iter()
            .map(|line| {
                let metric = line.metric;
                serde_json::json!({
                    "label": line.label,
                    "a": line.a,
                    "b": line.b,
                    "range_a": line.range_a,
                    "range_b": line.range_b,
                    "better": line.better.map(side),
                    "seeds": line.seeds,
                    "values_a": measured.values(metric, Side::A).collect::<Vec<_>>(),
                    "values_b": measured.values(metric, Side::B).collect::<Vec<_>>(),
                })
            })
            .collect();
        let count = measured.count() as u64;
        let seeds: Vec<u64> = (0..count).map(|k| measured.first.wrapping_add(k)).collect();
        Ok(Printed::out(
            serde_json::json!({ "seeds": seeds, "headlines": lines }).to_string(),
        ))
    },
};
