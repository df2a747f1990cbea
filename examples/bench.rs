//! Benchmark of the simulator: nanoseconds per simulated attempt and peak
//! memory for a reference workload (Poisson arrivals at 10 000 per second,
//! half of all attempts failing, four attempts with full jitter, unlimited
//! workers: see `reference`), and for the same workload with every feature
//! on. Prints figures; asserts nothing.
//!
//! `cargo run --release --example bench`, as `scripts/bench` does (the
//! command line's own build, opt-level 3). Each workload runs several times
//! (15 at 1M operations, 3 at 10M) and prints its best and median run: this
//! host's speed drifts by up to 2x within seconds, so the best run is the
//! closest to what the code costs and the median is what the host gave it.
//! Pass `--quick` to skip the 10M-operation runs and shorten the contention
//! table; `--only reference` (or `--only everything`) with `--ops N` and
//! `--runs N` runs one workload alone, e.g. under a profiler, as do
//! `--only small` (the contention grid's 2 000 small runs) and `--only
//! setup` (what a run costs before its first event) and `--only page`
//! (the page's re-simulate of the herd and of 1M operations, natively,
//! for the browser's figures of `tests/e2e/bench.mjs`). Small changes
//! do not show in nanoseconds here; instructions and cache misses per
//! attempt do:
//! `valgrind --tool=callgrind --toggle-collect='retry_sim::sim::run*'`
//! or `valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes` on
//! `--only reference --ops 200000`, divided by the attempts it prints.

use std::time::Instant;

use retry_core::breaker::{BreakerConfig, BreakerMode};
use retry_core::budget::{BudgetConfig, BudgetKind};
use retry_core::policy::{Jitter, Policy, Shape};
use retry_core::random::Stream;
use retry_sim::sim::{self, Scenario, ServiceShape, Spread, WorkloadKind};

/// Reference: Poisson 10 000/s, independent failure 0.5, 4 attempts,
/// exponential full jitter from 100 ms capped at 800 ms, service time
/// Exp(mean 50 ms), no budget, unlimited workers, no network time.
fn reference(operations: u64) -> Scenario {
    let rate = 10_000.0;
    Scenario {
        seed: 7,
        horizon: operations as f64 / rate,
        buckets: 300,
        work_limit: u64::MAX,
        workload: WorkloadKind::Poisson,
        rate,
        spike_duration: 0.0,
        hop: Spread::Constant,
        hop_mean: 0.0,
        failure: 0.5,
        workers: 0,
        service: ServiceShape::Exponential,
        service_time: 0.05,
        policy: Policy {
            attempts: 4,
            shape: Shape::Exponential,
            base: 0.1,
            cap: 0.8,
            multiplier: 2.0,
            jitter: Jitter::Full,
            attempt_timeout: None,
            deadline: None,
            ..Policy::default()
        },
        budget: BudgetConfig::default(),
        layers: 1,
        ..Scenario::default()
    }
}

/// The reference plus a ratio budget, a 2 s deadline with 1 s attempt
/// timeouts, finite capacity (1500 workers serving 30 000/s, 1.6 x the
/// offered 18 750 attempts/s, and a queue of 2000), network hops and one
/// layer.
fn everything_on(operations: u64) -> Scenario {
    let base = reference(operations);
    Scenario {
        budget: BudgetConfig {
            kind: BudgetKind::Ratio,
            ..BudgetConfig::default()
        },
        policy: Policy {
            attempt_timeout: Some(1.0),
            deadline: Some(2.0),
            ..base.policy.clone()
        },
        workers: 1500,
        queue_limit: 2000,
        hop: Spread::Exponential,
        hop_mean: 0.002,
        mix_transient: 0.7,
        mix_throttled: 0.2,
        mix_unknown: 0.1,
        retry_after: 0.2,
        lost_responses: 0.01,
        idempotency_key: true,
        layers: 1,
        ..base
    }
}

/// Everything on, with a breaker on retries too, over `instances` client
/// instances, each with its own budget and breaker.
fn with_instances(instances: u32, operations: u64) -> Scenario {
    Scenario {
        instances,
        breaker: BreakerConfig {
            mode: BreakerMode::RetriesOnly,
            ..BreakerConfig::default()
        },
        ..everything_on(operations)
    }
}

fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Nanoseconds per step of a fixed, simple piece of work: a chain of 20M
/// generator draws, each waiting for the last. On a shared host the speed
/// of the very same binary drifts by up to 2x within minutes; the ratio of
/// a figure to this probe, timed just before it, drifts far less.
fn probe_ns() -> f64 {
    const STEPS: u32 = 20_000_000;
    let mut stream = Stream::new(1, 1);
    let started = Instant::now();
    let mut sum = 0u64;
    for _ in 0..STEPS {
        sum = sum.wrapping_add(stream.next_u64());
    }
    std::hint::black_box(sum);
    started.elapsed().as_secs_f64() * 1e9 / f64::from(STEPS)
}

/// Runs `scenario` `runs` times and prints the best and the median time per
/// attempt (this host's speed drifts between runs; the best run is the one
/// least disturbed), each beside the probe timed just before it.
/// Returns the best run's cost in probe steps an attempt.
fn measure(name: &str, scenario: &Scenario, runs: usize) -> f64 {
    let mut timings = Vec::new();
    let mut report = None;
    for _ in 0..runs.max(1) {
        let probe = probe_ns();
        let started = Instant::now();
        let run = sim::run(scenario);
        let elapsed = started.elapsed().as_secs_f64();
        let attempts = run.summary.first_tries + run.summary.retries;
        timings.push((elapsed * 1e9 / attempts.max(1) as f64, probe));
        report = Some(run);
    }
    let Some(report) = report else { return 0.0 };
    timings.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (best, best_probe) = timings[0];
    let (median, median_probe) = timings[timings.len() / 2];
    let summary = &report.summary;
    let attempts = summary.first_tries + summary.retries;
    println!(
        "{name:<22} {:>9} ops {:>9} attempts  ns/attempt best {best:>6.1} ({:.0} probe steps of {best_probe:.2} ns), median {median:>6.1} ({:.0} probe steps) of {} runs  success {:.4}  calls/op {:.4}  events/attempt {:.3}  peak events {}  VmHWM {} KiB",
        summary.operations,
        attempts,
        best / best_probe,
        median / median_probe,
        timings.len(),
        summary.success_rate,
        summary.server_calls_per_operation,
        summary.events as f64 / attempts.max(1) as f64,
        summary.peak_events,
        peak_memory_kib().map_or("?".to_string(), |kib| kib.to_string()),
    );
    if std::env::args().any(|arg| arg == "--fingerprint") {
        // FNV-1a of the report's JSON: a change that should keep reports
        // bit-identical must keep this.
        let json = serde_json::to_string(&report).unwrap_or_default();
        let hash = json.bytes().fold(0xcbf2_9ce4_8422_2325u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        println!("report fingerprint {hash:016x}");
    }
    best / best_probe
}

/// The contention model of the AWS Architecture Blog's 2015 post on
/// exponential backoff and jitter: mean calls (writes) and time until the
/// last client is done, over `runs` seeds, per algorithm and client count.
fn contention_table(runs: u64) {
    println!("contention (AWS 2015 model, base 5 ms, cap 2 s, hop |N(10 ms, 2 ms)|, {runs} seeds)");
    println!(
        "{:<14} {:>8} {:>12} {:>14}",
        "algorithm", "clients", "calls", "completion s"
    );
    for clients in [10, 50, 100] {
        for (name, policy) in sim::contention_policies(0.005, 2.0) {
            let (mut calls, mut time) = (0.0, 0.0);
            for seed in 0..runs {
                let report = sim::run(&sim::contention_scenario(clients, seed, policy.clone()));
                calls += (report.summary.first_tries + report.summary.retries) as f64;
                time += report.summary.finished_at;
            }
            println!(
                "{name:<14} {clients:>8} {:>12.1} {:>14.4}",
                calls / runs as f64,
                time / runs as f64
            );
        }
    }
}

/// Runs of the contention chart's grid timed together: the page runs many
/// small worlds at once (the grid, sweeps, seeds side by side), where what
/// a run spends before its first event matters as much as its events.
const SMALL_RUNS_SEEDS: u64 = 400;
/// What the 2 000 runs may take natively, in milliseconds.
const SMALL_RUNS_TARGET_MS: f64 = 50.0;

/// The contention preset: the world of the grid the page draws.
fn contention_preset() -> retry_sim::config::Config {
    retry_teach::presets::PRESETS
        .iter()
        .find(|preset| preset.key == "contention")
        .expect("the contention preset exists")
        .config()
}

/// The contention preset's grid (50 clients, base 10 ms, cap 2 s, hop
/// |N(10 ms, 2 ms)|, 200 buckets) over 400 seeds: the five backoffs of the
/// AWS 2015 post under each seed, 2 000 runs as `contention_grid` runs
/// them. Prints the best and median total of `repeats` grids and the calls
/// they made.
/// The map of metastability (`crates/analyses/src/map.rs`): 8 x 8 cells for A and B, 3
/// seeds each, of a world with a boundary (the map test's), and of a
/// world too big for a run, which spends the map's whole work budget: what
/// a hostile link costs.
fn maps() {
    use retry_sim::config::Config;
    for (what, link) in [
        (
            "map of a world near its boundary",
            "v=1&compare=on&attempts=5&shape=constant&base=0.001&jitter=none&timeout=1&rate=65\
             &failure=0&workers=10&queue=1000&service_t=0.1&B.shape=exponential&B.base=0.1\
             &B.cap=10&B.jitter=full&B.budget=ratio&B.b_floor=1&B.b_basis=requests",
        ),
        (
            "map of a world too big (the whole budget)",
            "v=1&compare=on&rate=20000&workers=10000&failure=0.5&B.jitter=none",
        ),
    ] {
        let config = Config::from_link(link).0;
        let start = Instant::now();
        let map = retry_analyses::map::map(&config, retry_analyses::map::Rows::Size);
        let seconds = start.elapsed().as_secs_f64();
        let missing = map.cells.iter().filter(|c| c.missing.is_some()).count();
        println!(
            "{what}: {} cells in {:.2} s, work {} of its budget {} ({:.0} ns per unit), {missing} missing",
            map.cells.len(),
            seconds,
            map.work,
            map.budget,
            1e9 * seconds / map.work.max(1) as f64,
        );
    }
}

fn small_runs(repeats: usize) {
    let config = contention_preset();
    let mut totals = Vec::new();
    let mut grid = None;
    for _ in 0..repeats.max(1) {
        let started = Instant::now();
        let result = retry_analyses::contention::contention_grid(&config, SMALL_RUNS_SEEDS);
        totals.push(started.elapsed().as_secs_f64() * 1e3);
        grid = Some(result);
    }
    let Some(grid) = grid else { return };
    totals.sort_by(f64::total_cmp);
    let runs = grid.seeds.len() * grid.variants.len();
    let calls: u64 = grid.variants.iter().flat_map(|v| &v.calls).sum();
    let truncated: usize = grid.variants.iter().map(|v| v.truncated).sum();
    // Every call of the model draws four network hops from |Normal| (the
    // read there, the version back, the write there, the answer back), each
    // a `ln` and a `cos` of `libm`, which keep the numbers the same in the
    // page: no faster way to the same reports skips them.
    let draws = 4 * calls;
    let mut draws_ms = f64::INFINITY;
    for _ in 0..3 {
        let mut stream = Stream::new(1, 1);
        let started = Instant::now();
        let mut sum = 0.0;
        for _ in 0..draws {
            sum += stream.normal(0.010, 0.002).abs();
        }
        std::hint::black_box(sum);
        draws_ms = draws_ms.min(started.elapsed().as_secs_f64() * 1e3);
    }
    println!(
        "small runs: {runs} contention runs ({} seeds x {} backoffs, {} clients) in {:.1} ms best, {:.1} ms median of {} (target <= {SMALL_RUNS_TARGET_MS} ms)  calls {calls} ({:.1} ns/call best)  truncated {truncated}  of which the {draws} normal draws alone {draws_ms:.1} ms",
        grid.seeds.len(),
        grid.variants.len(),
        grid.clients,
        totals[0],
        totals[totals.len() / 2],
        totals.len(),
        totals[0] * 1e6 / calls.max(1) as f64,
    );
}

/// What a run costs before its first event: a run of the contention
/// preset's world with no clients, which ends there, timed in batches of
/// 1 000 (best batch of `batches`).
fn setup(batches: usize) {
    let mut empty = contention_preset().scenario();
    empty.workload = WorkloadKind::Contention;
    empty.clients = 0;
    let batch = 1000;
    let mut best_us = f64::INFINITY;
    for _ in 0..batches.max(1) {
        let started = Instant::now();
        for seed in 0..batch {
            empty.seed = seed;
            std::hint::black_box(sim::run(std::hint::black_box(&empty)));
        }
        best_us = best_us.min(started.elapsed().as_secs_f64() * 1e6 / batch as f64);
    }
    println!("set-up: {best_us:.2} us per run (a run of 0 clients, best of {batches} x {batch})");
}

/// The search for a better policy (`crates/analyses/src/search.rs`) on the default world:
/// the cost of one candidate run by kind of policy, 1 000 candidate runs
/// (the space's policies in turn, one seed each) on 1 and 2 threads, and
/// the whole search on 1 and 2 threads, whose frontiers must be equal.
fn frontier() {
    use retry_analyses::search;
    use retry_sim::config::{Config, P};
    let config = Config::default();
    let space = search::candidates(&config, &search::Constraints::default());
    let per_run = |pairs: &str, repeats: usize| {
        let world = retry_teach::lesson::apply(&config, &format!("buckets=1&{pairs}"));
        let scenario = retry_sim::simulate::scenario(&world);
        let started = Instant::now();
        for _ in 0..repeats {
            std::hint::black_box(retry_sim::sim::run(&scenario));
        }
        started.elapsed().as_secs_f64() * 1e3 / repeats as f64
    };
    for (what, pairs) in [
        ("plain", "attempts=3&jitter=full"),
        (
            "with a budget",
            "attempts=3&jitter=full&budget=ratio&b_pct=0.1",
        ),
        ("with a breaker", "attempts=3&jitter=full&breaker=all"),
    ] {
        println!(
            "frontier: one candidate run {what}: {:.3} ms",
            per_run(pairs, 200)
        );
    }
    // The space holds fewer than 1 000 policies (866 for the default
    // world): the runs go round it again, on the next seed, until 1 000.
    let thousand: Vec<_> = (0..1000)
        .map(|i| {
            let mut config = space[i % space.len()].config().clone();
            let seed = config.get(P::Seed) + (i / space.len()) as f64;
            config.set(P::Seed, seed);
            config
        })
        .collect();
    // Each best time beside the probe timed just before it (see `probe_ns`).
    let mut best = [(f64::INFINITY, 0.0); 2];
    for (slot, threads) in [(0, 1), (1, 2)] {
        for _ in 0..3 {
            let probe = probe_ns();
            let started = Instant::now();
            std::thread::scope(|scope| {
                for part in thousand.chunks(thousand.len().div_ceil(threads)) {
                    scope.spawn(move || {
                        for config in part {
                            std::hint::black_box(retry_sim::simulate::run(config));
                        }
                    });
                }
            });
            let took = started.elapsed().as_secs_f64();
            if took < best[slot].0 {
                best[slot] = (took, probe);
            }
        }
    }
    let [(one, one_probe), (two, _)] = best;
    println!(
        "frontier: 1 000 candidate runs of the default world: {one:.3} s on 1 thread, {two:.3} s on 2 ({:.2}x; target <= 0.5 s on 2); {:.3} ms a run ({:.0} probe steps of {one_probe:.2} ns)",
        one / two,
        one * 1e3 / 1000.0,
        one * 1e9 / 1000.0 / one_probe
    );
    let mut frontiers = Vec::new();
    for threads in [1, 2] {
        let started = Instant::now();
        let found = search::search_threads(&config, threads);
        println!(
            "frontier: the whole search ({} runs of {} policies) on {threads} thread(s): {:.3} s",
            found.runs,
            found.total,
            started.elapsed().as_secs_f64()
        );
        frontiers.push(found);
    }
    println!(
        "frontier: the same frontier on 1 and 2 threads: {}",
        frontiers[0] == frontiers[1]
    );
}

/// What the page's re-simulate computes, natively: the job of the
/// first preset (the herd: A and B, traced for the replay, as the page
/// opens it) and of the 1M-operation link, from the job's start to its
/// numbers being final, drawing aside. `tests/e2e/bench.mjs` times the
/// same links in the browser with their charts drawn; beside these, the
/// two figures say what the browser adds.
fn page_runs(runs: usize) {
    use retry_core::chart_id::ChartId;
    use retry_view::jobs::{Job, Wants};
    for (name, link, traced) in [
        (
            "first preset (herd, 2000 clients), A and B traced",
            "",
            true,
        ),
        (
            "1 000 000 operations",
            "v=1&rate=10000&horizon=100&failure=0.5&workers=0&timeout=0&hop_mean=0.025&service_t=0",
            false,
        ),
    ] {
        let config = retry_teach::course::opened(link).config;
        let wants = Wants {
            traced,
            ..Wants::default()
        };
        let mut times = Vec::new();
        let probe = probe_ns();
        for _ in 0..runs.max(1) {
            let started = Instant::now();
            let mut job = Job::new(&config, wants, ChartId::Load);
            while job.running() {
                job.step(u64::MAX);
            }
            times.push(started.elapsed().as_secs_f64() * 1e3);
        }
        times.sort_by(f64::total_cmp);
        println!(
            "page's runs, natively: {name}: best {:.2} ms, median {:.2} ms of {} ({:.2}M probe steps of {probe:.2} ns)",
            times[0],
            times[times.len() / 2],
            times.len(),
            times[0] / probe,
        );
        if !traced {
            continue;
        }
        // A move on B's base, as the in-browser benchmark's: a slider
        // dragged off the preset (whose replay then closes, so nothing is
        // traced), the job that replaces a finished one keeps A's run and
        // runs B's alone.
        let wants = Wants::default();
        let mut done = Job::new(&config, wants, ChartId::Load);
        while done.running() {
            done.step(u64::MAX);
        }
        let mut moves = Vec::new();
        let mut reused = 0;
        for k in 0..runs.max(1) {
            let mut moved = config.clone();
            let index = retry_sim::config::P::Base as usize;
            moved.set_b_at(index, if k % 2 == 0 { 0.3 } else { 0.4 });
            let started = Instant::now();
            let mut job = Job::renew(Some(done), &moved, wants, ChartId::Load);
            while job.running() {
                job.step(u64::MAX);
            }
            moves.push(started.elapsed().as_secs_f64() * 1e3);
            reused += job.reused();
            done = job;
        }
        moves.sort_by(f64::total_cmp);
        println!(
            "page's runs, natively: {name}, a move on B's base (A's run kept in {reused} of {}): best {:.2} ms, median {:.2} ms",
            moves.len(),
            moves[0],
            moves[moves.len() / 2],
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value = |flag: &str| {
        args.iter()
            .position(|arg| arg == flag)
            .and_then(|i| args.get(i + 1))
    };
    if let Some(only) = value("--only") {
        let runs = value("--runs").and_then(|runs| runs.parse().ok());
        match only.as_str() {
            "small" => return small_runs(runs.unwrap_or(5)),
            "setup" => return setup(runs.unwrap_or(20)),
            "frontier" => return frontier(),
            "maps" => return maps(),
            "page" => return page_runs(runs.unwrap_or(15)),
            _ => {}
        }
        let operations = value("--ops")
            .and_then(|ops| ops.parse().ok())
            .unwrap_or(1_000_000);
        let scenario = match only.as_str() {
            "reference" => reference(operations),
            _ => everything_on(operations),
        };
        measure(
            &format!("{only} {operations}"),
            &scenario,
            runs.unwrap_or(1),
        );
        return;
    }
    let quick = args.iter().any(|arg| arg == "--quick");
    contention_table(if quick { 20 } else { 100 });
    small_runs(if quick { 3 } else { 7 });
    setup(if quick { 5 } else { 20 });
    maps();
    frontier();
    let runs = if quick { 3 } else { 15 };
    page_runs(runs);
    measure("reference 1M", &reference(1_000_000), runs);
    measure("everything on 1M", &everything_on(1_000_000), runs);
    // The same with a budget and a breaker in each client instance: the
    // cost of finding an operation's instance, at 1, 100 and 10 000.
    for instances in [1, 100, 10_000] {
        measure(
            &format!("instances {instances} 1M"),
            &with_instances(instances, 1_000_000),
            runs,
        );
    }
    // A chain of three services over the reference's server, its last
    // layer timing out after 1 s: every layer with the policy's attempts,
    // as `layers=3` always was; each its own (4, 3 and 2 attempts); and
    // those with timeouts between services and deadlines passed down,
    // whose timeouts are events of their own. Per server attempt, against
    // the first.
    let chain = |attempts: [u32; 4], between: f64| {
        let mut scenario = Scenario {
            layers: 3,
            layer_attempts: attempts,
            call_timeout: between,
            pass_deadline: between > 0.0,
            ..reference(150_000)
        };
        scenario.policy.attempt_timeout = Some(1.0);
        scenario
    };
    let same = measure("chain of 3", &chain([0; 4], 0.0), runs);
    let own = measure("chain of 3, own hops", &chain([3, 2, 0, 0], 0.0), runs);
    let timed = measure("chain, timed hops", &chain([3, 2, 0, 0], 0.4), runs);
    // Each hop its own service: the second and third with workers and a
    // queue of their own (enough for the 10 000 operations a second, so
    // the world is the same one), failing 1 % of calls by themselves, the
    // second giving up on the third after 0.8 s.
    let served = measure(
        "chain, hops with servers",
        &Scenario {
            layer_timeouts: [0.8, 0.0, 0.0, 0.0],
            layer_workers: [10_000, 10_000, 0, 0],
            layer_queues: [1000, 1000, 0, 0],
            layer_failures: [0.01, 0.01, 0.0, 0.0],
            ..chain([3, 2, 0, 0], 0.0)
        },
        runs,
    );
    // The same chain over a database with workers, so that its operations
    // share a queue of events as those through a hop's workers do.
    let shared = measure(
        "chain of 3, shared server",
        &Scenario {
            workers: 100_000,
            queue_limit: 1000,
            ..chain([0; 4], 0.0)
        },
        runs,
    );
    println!(
        "a chain of 3 an attempt, against layers=3: with its own hops {:.2}x; with timeouts between services and deadlines passed down {:.2}x; with hops that have workers, queues, failures and timeouts of their own {:.2}x, {:.2}x against layers=3 over a database with workers",
        own / same,
        timed / same,
        served / same,
        served / shared
    );
    if !quick {
        measure("reference 10M", &reference(10_000_000), 3);
        measure("everything on 10M", &everything_on(10_000_000), 3);
    }
}
