//! A fuzz campaign: runs many hostile share links (`tests/common/links.rs`)
//! as the page and the command line do, and prints what they cost: the
//! distribution of run times, the slowest links, the runs that were cut
//! and why, and the peak resident memory of the process.
//!
//! `cargo run --release --example fuzz -- --links 100000 [--seed N] [--top N]
//! [--first N] [--every-link] [--file PATH] [--calibrate N] [--repeats N]`:
//! links `first..first + links` of the seed, or those of a file, one a line
//! (to time the slowest again alone); `--every-link` prints a line per link,
//! to compare builds.
//!
//! The calibration then times each run of the `--calibrate` slowest links
//! (200; 0 skips it) again, `--repeats` times (3), in CPU time, which other
//! load on the host does not stretch as it does wall-clock time, and prints
//! what a unit of the run's cost took: the bound on time holds only as far
//! as that ratio is steady, so its spread, its worst runs and how long a
//! run at the bound would take at each are what to look at after a change
//! to the simulator or to how it counts cost.
//!
//! Each run of a link (two in compare mode) is timed alone, and a link's
//! time is its slower run's. Times are wall-clock on this host, which drifts under other load: the
//! slowest links are worth timing again alone. The memory figure is Linux's
//! VmHWM (peak resident set), reset before each link (`/proc/self/clear_refs`)
//! so that the largest link's own peak can be named; the campaign's peak is
//! the largest of them. A panic is caught, counted and printed with its link.

#[path = "../tests/common/links.rs"]
mod links;

use std::time::Instant;

use retry_core::breaker::BreakerMode;
use retry_core::budget::BudgetKind;
use retry_sim::config::Config;
use retry_sim::sim::{COST_PER_WORK, Report, WorkloadKind};
use retry_sim::simulate;
use retry_teach::course;

/// What one link cost.
struct Cost {
    link: String,
    seconds: f64,
    events: u64,
    cost: u64,
    peak_events: u64,
    peak_kib: u64,
    cut: Option<String>,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let option = |name: &str, default: u64| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .map_or(default, |v| v.parse().expect("a whole number"))
    };
    let count = option("--links", 10_000);
    let first = option("--first", 0);
    let seed = option("--seed", 1);
    let top = option("--top", 20) as usize;
    let every_link = args.iter().any(|a| a == "--every-link");
    // Links to time again, one a line, instead of generated ones.
    let from_file: Option<Vec<String>> = args
        .iter()
        .position(|a| a == "--file")
        .and_then(|i| args.get(i + 1))
        .map(|path| {
            std::fs::read_to_string(path)
                .expect("a readable file of links")
                .lines()
                .map(str::to_string)
                .collect()
        });
    let (first, count) = match &from_file {
        Some(links) => (0, links.len() as u64),
        None => (first, count),
    };
    // Silence the default hook: panics are caught, counted and shown below.
    std::panic::set_hook(Box::new(|_| {}));
    let mut costs = Vec::with_capacity(count as usize);
    let mut panics = Vec::new();
    let started = Instant::now();
    for index in first..first + count {
        let link = match &from_file {
            Some(links) => links[index as usize].clone(),
            None => links::hostile_link(seed, index),
        };
        reset_peak_memory();
        // Each run timed alone: the bound is per run, and compare mode's
        // link makes two.
        let outcome = std::panic::catch_unwind(|| {
            let (config, _notices) = course::open(&link);
            let timed = |config: &retry_sim::config::Config| {
                let begun = Instant::now();
                let report = simulate::run(config);
                (report, begun.elapsed().as_secs_f64())
            };
            let (a, a_seconds) = timed(&config);
            let b = config.comparing().then(|| timed(&config.policy_b_config()));
            let seconds = b.as_ref().map_or(a_seconds, |(_, s)| s.max(a_seconds));
            (a, b.map(|(b, _)| b), seconds)
        });
        match outcome {
            Err(_) => panics.push(link),
            Ok((a, b, seconds)) => {
                let runs = std::iter::once(&a).chain(b.as_ref());
                let cut = runs
                    .clone()
                    .find_map(|r| {
                        r.summary
                            .cut
                            .as_ref()
                            .map(|cut| format!("{:?}", cut.reason))
                    })
                    .or_else(|| {
                        runs.clone()
                            .any(|r| r.summary.truncated)
                            .then(|| "truncated".to_string())
                    });
                if every_link {
                    println!(
                        "link {index} {seconds:.4} s {} events {} {} {link}",
                        a.summary.events,
                        a.summary.truncated,
                        a.summary
                            .cut
                            .as_ref()
                            .map_or("-".to_string(), |c| format!("{:?}", c.reason)),
                    );
                }
                costs.push(Cost {
                    link,
                    seconds,
                    events: runs.clone().map(|r| r.summary.events).max().unwrap_or(0),
                    cost: runs.clone().map(|r| r.summary.cost).max().unwrap_or(0),
                    peak_events: runs.map(|r| r.summary.peak_events).max().unwrap_or(0),
                    peak_kib: peak_memory_kib(),
                    cut,
                });
            }
        }
        if (index + 1) % 1_000 == 0 {
            eprintln!(
                "{} links, {:.0} s",
                index + 1,
                started.elapsed().as_secs_f64()
            );
        }
    }
    print_campaign(&costs, &panics, top, started.elapsed().as_secs_f64());
    let calibrate = option("--calibrate", 200) as usize;
    let repeats = option("--repeats", 3).max(1) as u32;
    if calibrate > 0 {
        print_calibration(&costs, calibrate, repeats, every_link);
    }
}

fn print_campaign(costs: &[Cost], panics: &[String], top: usize, total: f64) {
    let mut times: Vec<f64> = costs.iter().map(|c| c.seconds).collect();
    times.sort_by(f64::total_cmp);
    let quantile = |q: f64| {
        times
            .get(((times.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    println!(
        "{} links in {total:.0} s, {} panics",
        costs.len() + panics.len(),
        panics.len()
    );
    for link in panics {
        println!("  panic: {link}");
    }
    println!(
        "time per link: p50 {:.4} s, p99 {:.4} s, max {:.3} s; over 1 s: {}, over 2 s: {}",
        quantile(0.5),
        quantile(0.99),
        quantile(1.0),
        times.iter().filter(|t| **t > 1.0).count(),
        times.iter().filter(|t| **t > 2.0).count(),
    );
    let mut events: Vec<u64> = costs.iter().map(|c| c.events).collect();
    events.sort_unstable();
    println!(
        "events per run: p50 {}, p99 {}, max {}",
        events.get(events.len() / 2).unwrap_or(&0),
        events.get(events.len() * 99 / 100).unwrap_or(&0),
        events.last().unwrap_or(&0),
    );
    // What a unit of cost took, on the runs long enough to time well: the
    // bound on time is only as good as this ratio is steady.
    let mut per_unit: Vec<(f64, &Cost)> = costs
        .iter()
        .filter(|c| c.seconds > 0.05 && c.cost > 0)
        .map(|c| (c.seconds * 1e9 / c.cost as f64, c))
        .collect();
    per_unit.sort_by(|a, b| a.0.total_cmp(&b.0));
    if let (Some(low), Some(high)) = (per_unit.first(), per_unit.last()) {
        println!(
            "ns per cost unit over {} runs of 50 ms or more: min {:.1}, median {:.1}, max {:.1} ({})",
            per_unit.len(),
            low.0,
            per_unit[per_unit.len() / 2].0,
            high.0,
            high.1.link
        );
    }
    let mut reasons: Vec<(String, usize)> = Vec::new();
    for cut in costs.iter().filter_map(|c| c.cut.as_ref()) {
        let kind = cut.clone();
        match reasons.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => reasons.push((kind, 1)),
        }
    }
    println!(
        "cut runs: {}",
        costs.iter().filter(|c| c.cut.is_some()).count()
    );
    for (kind, n) in &reasons {
        println!("  {n:>6}  {kind}");
    }
    let heaviest = costs.iter().max_by_key(|c| c.peak_kib);
    println!(
        "peak memory (VmHWM): {} MiB{}",
        heaviest.map_or(0, |c| c.peak_kib / 1024),
        heaviest.map_or(String::new(), |c| format!(", for {}", c.link)),
    );
    let mut slowest: Vec<&Cost> = costs.iter().collect();
    slowest.sort_by(|a, b| b.seconds.total_cmp(&a.seconds));
    println!(
        "slowest links (time of the slower run, its events and cost, most pending events, peak memory):"
    );
    for cost in slowest.iter().take(top) {
        println!(
            "  {:7.3} s {:>9} events {:>10} cost {:>8} pending {:>5} MiB  {}  {}",
            cost.seconds,
            cost.events,
            cost.cost,
            cost.peak_events,
            cost.peak_kib / 1024,
            cost.cut.as_deref().unwrap_or("-"),
            cost.link
        );
    }
}

/// Starts a new measurement of the peak resident set (Linux only; elsewhere
/// the peak stays the whole process's).
fn reset_peak_memory() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// Peak resident set since the last reset, in KiB (0 where unknown).
fn peak_memory_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

/// One run of a slow link, timed again for the calibration.
struct Calibrated {
    link: String,
    /// "A" or "B", in compare mode.
    side: &'static str,
    class: &'static str,
    /// CPU seconds of one run (the mean of the repeats).
    seconds: f64,
    report: Report,
}

impl Calibrated {
    fn ns_per_unit(&self) -> f64 {
        self.seconds * 1e9 / self.report.summary.cost.max(1) as f64
    }

    /// The most calls and events in flight at once.
    fn in_flight(&self) -> u64 {
        self.report.summary.peak_calls + self.report.summary.peak_events
    }

    /// Which bound cut the run, or "-".
    fn cut(&self) -> String {
        self.report
            .summary
            .cut
            .as_ref()
            .map_or("-".to_string(), |c| format!("{:?}", c.reason))
    }
}

/// Which of the simulator's ways of running a world the run takes: its
/// events differ in what they cost. It mirrors the simulator's own test
/// (`sim::world`, "Operations that cannot meet run alone").
fn class(config: &Config) -> &'static str {
    let s = config.scenario();
    if s.workload == WorkloadKind::Contention {
        "contention"
    } else if s.workers == 0
        && s.latency_slope == 0.0
        && s.budget.kind == BudgetKind::None
        && s.breaker.mode == BreakerMode::Off
    {
        if s.layers <= 1 {
            "alone, plain"
        } else {
            "alone, layers"
        }
    } else {
        "shared queue"
    }
}

/// CPU time of this thread so far, in seconds: Linux's count in clock
/// ticks (1/100 s); `None` elsewhere.
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
    Some((ticks(11)? + ticks(12)?) as f64 / 100.0)
}

/// Times each run of the `count` slowest links again, `repeats` times, and
/// prints the spread of CPU time per unit of cost, by class of run, the
/// runs that took longest per unit, and how long a run that spends the
/// whole budget would take.
fn print_calibration(costs: &[Cost], count: usize, repeats: u32, every_link: bool) {
    let mut slowest: Vec<&Cost> = costs.iter().collect();
    slowest.sort_by(|a, b| b.seconds.total_cmp(&a.seconds));
    let mut runs = Vec::new();
    for cost in slowest.iter().take(count) {
        let (config, _) = course::open(&cost.link);
        let configs = std::iter::once(("A", config.clone()))
            .chain(config.comparing().then(|| ("B", config.policy_b_config())));
        for (side, config) in configs {
            let begun = Instant::now();
            let cpu = thread_cpu_seconds();
            let mut report = None;
            for _ in 0..repeats {
                report = Some(simulate::run(&config));
            }
            let wall = begun.elapsed().as_secs_f64();
            let seconds = match (cpu, thread_cpu_seconds()) {
                (Some(before), Some(after)) => after - before,
                _ => wall,
            } / f64::from(repeats);
            runs.push(Calibrated {
                link: cost.link.clone(),
                side,
                class: class(&config),
                seconds,
                report: report.expect("at least one repeat"),
            });
        }
    }
    // Runs too short for the clock's ticks to time them well say little.
    let timed: Vec<&Calibrated> = runs.iter().filter(|r| r.seconds >= 0.05).collect();
    let budget = simulate::WORK_LIMIT * COST_PER_WORK;
    println!(
        "calibration: {} runs of the {} slowest links timed again ({repeats} times each, CPU time); {} of 50 ms or more",
        runs.len(),
        count.min(slowest.len()),
        timed.len(),
    );
    let spread = |name: &str, runs: &[&Calibrated]| {
        let mut units: Vec<f64> = runs.iter().map(|r| r.ns_per_unit()).collect();
        units.sort_by(f64::total_cmp);
        if units.is_empty() {
            return;
        }
        let at = |q: f64| units[((units.len() - 1) as f64 * q).round() as usize];
        let max_seconds = runs.iter().map(|r| r.seconds).fold(0.0, f64::max);
        println!(
            "  {name:<14} {:>4} runs  ns per cost unit: min {:5.1}  p10 {:5.1}  median {:5.1}  p90 {:5.1}  max {:5.1}  (a run at the bound, {budget} units: {:.2} s at the median, {:.2} s at the max)  slowest run {max_seconds:.3} s",
            units.len(),
            at(0.0),
            at(0.1),
            at(0.5),
            at(0.9),
            at(1.0),
            at(0.5) * budget as f64 / 1e9,
            at(1.0) * budget as f64 / 1e9,
        );
    };
    spread("all", &timed);
    for name in [
        "alone, plain",
        "alone, layers",
        "contention",
        "shared queue",
    ] {
        let of_class: Vec<&Calibrated> =
            timed.iter().copied().filter(|r| r.class == name).collect();
        spread(name, &of_class);
    }
    // What an event's weight follows: the most calls and events in flight.
    for (name, low, high) in [
        ("in flight <16k", 0, 1 << 14),
        ("16k..64k", 1 << 14, 1 << 16),
        ("64k..256k", 1 << 16, 1 << 18),
        ("256k..1M", 1 << 18, 1 << 20),
        (">=1M", 1 << 20, u64::MAX),
    ] {
        let in_band: Vec<&Calibrated> = timed
            .iter()
            .copied()
            .filter(|r| (low..high).contains(&r.in_flight()))
            .collect();
        spread(name, &in_band);
    }
    if every_link {
        for run in &runs {
            let summary = &run.report.summary;
            println!(
                "calibrated {:.1} ns/unit {:.4} s cost {} events {} in-flight {} cut {} class {} side {} {}",
                run.ns_per_unit(),
                run.seconds,
                summary.cost,
                summary.events,
                run.in_flight(),
                run.cut(),
                run.class,
                run.side,
                run.link.escape_debug(),
            );
        }
    }
    let mut worst = timed.clone();
    worst.sort_by(|a, b| b.ns_per_unit().total_cmp(&a.ns_per_unit()));
    println!(
        "  most time per cost unit (ns per unit, CPU s, cost, events, most pending events, most calls, cut, class, side, link):"
    );
    for run in worst.iter().take(20) {
        let summary = &run.report.summary;
        println!(
            "  {:6.1} {:7.3} s {:>10} {:>10} {:>8} {:>8}  {:<7} {:<13} {}  {}",
            run.ns_per_unit(),
            run.seconds,
            summary.cost,
            summary.events,
            summary.peak_events,
            summary.peak_calls,
            run.cut(),
            run.class,
            run.side,
            run.link,
        );
    }
}
