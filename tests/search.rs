//! The search for a better policy (`crates/analyses/src/search.rs`): what it finds on the
//! herd, that its frontier is a frontier, that the page's slices and the
//! command line's threads find the same one, and that a hostile world
//! cannot make it unbounded.

mod common;

use retry_analyses::search::{self, Frontier, Measure, SearchRuns};
use retry_analyses::sliced::{Slice, Sliced};
use retry_sim::config::{Config, P};
use retry_sim::simulate;
use retry_teach::presets::PRESETS;

fn herd() -> Config {
    PRESETS
        .iter()
        .find(|p| p.key == "herd")
        .expect("the herd preset")
        .config()
}

/// Success and calls per operation of `config`'s policy A over the
/// search's seeds, as the search measures a candidate.
fn over_seeds(config: &Config) -> (f64, f64) {
    let (mut success, mut calls) = (0.0, 0.0);
    for k in 0..search::SEEDS {
        let mut world = config.clone();
        world.set(P::Seed, (config.seed() + k) as f64);
        world.set(P::Buckets, 1.0);
        let s = simulate::run(&world).summary;
        success += s.success_rate;
        calls += s.server_calls_per_operation;
    }
    let n = search::SEEDS as f64;
    (success / n, calls / n)
}

fn dominates(a: &Measure, b: &Measure) -> bool {
    let (sa, sb, ca, cb) = (a.success.mean, b.success.mean, a.calls.mean, b.calls.mean);
    sa >= sb && ca <= cb && (sa > sb || ca < cb)
}

/// No point of the frontier dominates another, and every candidate
/// measured on every seed within the constraints is on it, shares a point
/// of it, or is dominated by one of its points.
fn assert_a_frontier(found: &Frontier) {
    let frontier: Vec<&Measure> = found.candidates.iter().filter(|m| m.frontier).collect();
    assert!(!frontier.is_empty());
    for a in &frontier {
        assert_eq!(a.seeds.len() as u64, search::SEEDS);
        for b in &frontier {
            assert!(!dominates(a, b), "{} dominates {}", a.pairs, b.pairs);
        }
    }
    for m in &found.candidates {
        let whole = m.allowed && m.seeds.len() as u64 == search::SEEDS;
        if whole && !m.frontier {
            assert!(
                m.same_as.is_some() || frontier.iter().any(|f| dominates(f, m)),
                "{} is neither on the frontier nor dominated",
                m.pairs
            );
        }
    }
}

/// On the herd, A retries without jitter: the search finds a policy at
/// least as good as the preset's own B (full jitter) on both success and
/// calls per operation, over the same seeds, and says it beats A's.
/// The page's slices, one thread and two find the same frontier.
#[test]
fn on_the_herd_the_search_finds_a_policy_as_good_as_b_and_every_way_agrees() {
    let config = herd();
    let two = search::search_threads(&config, 2);
    assert_a_frontier(&two);
    let (b_success, b_calls) = over_seeds(&config.policy_b_config());
    let (a_success, a_calls) = over_seeds(&config.policies_alone()[0]);
    let yours = two.yours().expect("policy A is measured");
    assert!((yours.success.mean - a_success).abs() < 1e-12);
    assert!((yours.calls.mean - a_calls).abs() < 1e-12);
    let found = two
        .candidates
        .iter()
        .filter(|m| m.frontier)
        .find(|m| m.success.mean >= b_success && m.calls.mean <= b_calls)
        .unwrap_or_else(|| panic!("nothing as good as B's {b_success} at {b_calls} calls"));
    println!(
        "herd: A {a_success:.4} at {a_calls:.3} calls, B {b_success:.4} at {b_calls:.3}, found {:.4} at {:.3}: {}",
        found.success.mean, found.calls.mean, found.pairs
    );
    assert!(!two.better.is_empty(), "something beats A's");
    for &k in &two.better {
        let m = &two.candidates[k];
        assert!(m.success.mean >= yours.success.mean && m.calls.mean <= yours.calls.mean);
    }
    // B with a found policy reproduces its numbers: the candidate's world
    // is the link's with those settings.
    let applied = search::as_b(&config, &two.candidates[two.better[0]].change);
    let (success, calls) = over_seeds(&applied.policy_b_config());
    let best = &two.candidates[two.better[0]];
    assert!((success - best.success.mean).abs() < 1e-12);
    assert!((calls - best.calls.mean).abs() < 1e-12);

    assert_eq!(search::search_threads(&config, 1), two);
    // As the page's worker pool does it, with answers out of order: three
    // workers, each running its batches by a runner that knows only the
    // link, and each time the answer of a batch picked at random among
    // those out comes back first.
    let mut runner = search::BatchRunner::default();
    let mut dispatch = search::Dispatch::new(&config, search::WORK_BUDGET, 3);
    let mut out: Vec<(usize, search::Batch)> = Vec::new();
    let mut order = fastrand::Rng::with_seed(7);
    let mut overtaken = 0;
    while !dispatch.done() {
        while out.len() < 3 {
            let Some(handed) = dispatch.hand_out() else {
                break;
            };
            out.push(handed);
        }
        let pick = order.usize(..out.len());
        overtaken += usize::from(out.iter().any(|(n, _)| *n < out[pick].0));
        let (number, batch) = out.swap_remove(pick);
        let ran = runner.run(&batch);
        if overtaken == 1 {
            // A short answer, or one given twice, is refused.
            assert!(dispatch.answered(number, ran[1..].to_vec()).is_err());
        }
        dispatch
            .answered(number, ran.clone())
            .expect("an answer handed out");
        assert!(dispatch.answered(number, ran).is_err());
    }
    assert!(overtaken > 10, "answers overtook others {overtaken} times");
    assert_eq!(dispatch.frontier(), two);
    let mut slices = SearchRuns::new(&config);
    let mut units = 0;
    loop {
        match slices.step(500) {
            Slice::Working => {}
            Slice::Unit => units += 1,
            Slice::Done => break,
        }
    }
    assert!(slices.done() && units > 100, "{units} runs");
    assert_eq!(slices.frontier(), two);
}

/// The reader's constraints: with at most 2 calls per operation, nothing
/// more expensive is allowed or on the frontier, and the deadline asked
/// for is every candidate's.
#[test]
fn the_constraints_hold_on_the_frontier() {
    let config = retry_teach::lesson::apply(&herd(), "find_calls=2&find_deadline=20");
    let found = search::search_threads(&config, 2);
    assert_eq!(found.constraints.max_calls, 2.0);
    assert_eq!(found.constraints.deadline, 20.0);
    for m in &found.candidates {
        if m.allowed || m.frontier {
            assert!(m.calls.mean <= 2.0, "{}: {}", m.pairs, m.calls.mean);
        }
    }
    assert!(found.candidates.iter().any(|m| m.frontier));
    let candidates = search::candidates(&config, &found.constraints);
    assert!(
        candidates
            .iter()
            .all(|c| c.config().get(P::Deadline) == 20.0)
    );
}

/// Judged over a range of worlds, policy A's own runs are its runs at
/// failure rates of 50, 10, 90, 30 and 70 %, one a seed, and every
/// candidate on the frontier ran at all five.
#[test]
fn over_failure_rates_each_seed_is_another_failure_rate() {
    let (config, notices) = Config::from_link("v=1&rate=20&horizon=10&find_worlds=failures");
    assert!(notices.is_empty(), "{notices:?}");
    let found = search::search_threads(&config, 2);
    assert!(found.constraints.over_failures);
    let yours = found.yours().expect("A is measured");
    for (k, (run, failure)) in yours.seeds.iter().zip(search::FAILURES).enumerate() {
        let mut world = config.clone();
        world.set(P::Seed, (config.seed() + k as u64) as f64);
        world.set(P::Buckets, 1.0);
        world.set(P::Failure, failure);
        let s = simulate::run(&world).summary;
        assert_eq!(
            (run.success, run.calls),
            (s.success_rate, s.server_calls_per_operation)
        );
    }
    assert!(
        yours.success.max - yours.success.min > 0.1,
        "the range shows: {:?}",
        yours.success
    );
    assert!(
        found
            .candidates
            .iter()
            .filter(|m| m.frontier)
            .all(|m| m.seeds.len() == 5)
    );
}

/// A world too big for the search (every run would reach the work limit)
/// spends at most the budget, says how many policies it could not
/// measure, and keeps every candidate it measured; hostile links search
/// within a small budget without a panic.
#[test]
fn a_hostile_world_keeps_the_search_within_its_budget() {
    let (big, _) = Config::from_link("v=1&rate=20000&workers=10000&horizon=3600&failure=0.5");
    let budget = 4_000_000;
    let found = search::search_within(&big, 2, budget);
    assert!(
        found.work <= budget + simulate::WORK_LIMIT / 100,
        "{} of {budget}",
        found.work
    );
    assert!(found.cut > 0);
    assert_eq!(found.candidates.len(), found.total);
    assert!(found.candidates.iter().all(|m| m.cut));
    for index in 0..40 {
        let link = common::links::hostile_link(7, index);
        let (config, _) = retry_teach::course::open(&link);
        if search::refusal(&config).is_some() {
            continue;
        }
        let found = search::search_within(&config, 2, 200_000);
        assert!(found.work <= 200_000 + 2_000, "{link}: {}", found.work);
    }
}
