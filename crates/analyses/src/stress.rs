//! The stress report: a world run through the standard faults, each alone
//! on the world's own settings (its own faults, a partition included,
//! cleared), and judged as the map judges a cell.
//!
//! The faults: an outage of 5 s and of 60 s, half the workers lost for
//! 30 s, a latency spike of 5x for 10 s, a burst of ten times the
//! arrivals for 5 s (a deploy whose clients all come back at once), and
//! in a chain an outage of 5 s of the second service. Each
//! starts at 30 s, after three of the map's windows of steady traffic, and
//! the run goes on for the map's late window after it; each with the
//! world's own client instances and, where a policy keeps state per
//! instance (a budget, a breaker) that the count changes, with 1 (or 100
//! when the world has one). Beside the policies each fault also runs
//! without retries (one attempt, no hedge, at every layer): the baseline a
//! policy is judged against. For each run: success, calls per operation
//! at the bottom of the chain, the peak load against capacity in any one
//! second, the goodput the fault cost (against the same run without it,
//! on the same seed), how long from the fault's start the goodput was back
//! to the map's share of before, and the map's verdict; and for each
//! policy a verdict, safe or not, with its reasons ([`Stress::reasons`]).

use serde::{Deserialize, Serialize};

use crate::analysis::{Analysis, Printed};
use crate::map::{self, BACK, Outcome, WINDOW};
use retry_core::words::Text;
use retry_core::words::tr;
use retry_sim::config::{Config, P, PARAMS};
use retry_sim::metrics::Side;
use retry_sim::sim::{Report, WorkloadKind};
use retry_sim::simulate;

/// When every fault starts.
pub const AT: f64 = 30.0;
/// How long after a fault the run goes on: the map's late window.
const AFTER: f64 = 60.0;

/// A standard fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fault {
    #[serde(rename = "outage-5s")]
    Outage5s,
    #[serde(rename = "outage-60s")]
    Outage60s,
    #[serde(rename = "half-capacity-30s")]
    HalfCapacity30s,
    #[serde(rename = "latency-x5-10s")]
    LatencyX5For10s,
    #[serde(rename = "arrivals-x10-5s")]
    BurstX10For5s,
    /// In a chain, the second service down (failing fast) for 5 s.
    #[serde(rename = "second-service-outage-5s")]
    SecondServiceOutage5s,
}

impl Fault {
    pub const ALL: [Fault; 6] = [
        Fault::Outage5s,
        Fault::Outage60s,
        Fault::HalfCapacity30s,
        Fault::LatencyX5For10s,
        Fault::BurstX10For5s,
        Fault::SecondServiceOutage5s,
    ];

    /// Its name in the report's words.
    pub fn name(self) -> &'static str {
        match self {
            Fault::Outage5s => tr("an outage of 5 s"),
            Fault::Outage60s => tr("an outage of 60 s"),
            Fault::HalfCapacity30s => tr("half the workers for 30 s"),
            Fault::LatencyX5For10s => tr("service 5x slower for 10 s"),
            Fault::BurstX10For5s => tr("ten times the arrivals for 5 s"),
            Fault::SecondServiceOutage5s => tr("the second service down for 5 s"),
        }
    }

    /// How long it lasts, seconds.
    pub fn length(self) -> f64 {
        match self {
            Fault::Outage5s | Fault::BurstX10For5s | Fault::SecondServiceOutage5s => 5.0,
            Fault::Outage60s => 60.0,
            Fault::HalfCapacity30s => 30.0,
            Fault::LatencyX5For10s => 10.0,
        }
    }

    /// The world with this fault alone and `instances` client instances,
    /// or `None` where it cannot happen (a capacity loss needs workers, a
    /// second service a chain).
    pub fn world(self, config: &Config, instances: u32) -> Option<Config> {
        let length = self.length();
        let mut c = steady(config, instances, self);
        match self {
            Fault::Outage5s | Fault::Outage60s => {
                c.set(P::OutageAt, AT);
                c.set(P::OutageFor, length);
            }
            Fault::HalfCapacity30s => {
                if config.get(P::Workers) == 0.0 {
                    return None;
                }
                c.set(P::DropAt, AT);
                c.set(P::DropFor, length);
                c.set(P::DropTo, 0.5);
            }
            Fault::LatencyX5For10s => {
                c.set(P::SlowAt, AT);
                c.set(P::SlowFor, length);
                c.set(P::SlowX, 5.0);
            }
            Fault::BurstX10For5s => {
                c.set(P::SpikeAt, AT);
                c.set(P::SpikeFor, length);
                c.set(P::SpikeRate, 10.0 * config.get(P::Rate));
            }
            Fault::SecondServiceOutage5s => {
                if config.get(P::Layers) < 2.0 {
                    return None;
                }
                c.set(P::Layer2OutageAt, AT);
                c.set(P::Layer2OutageFor, length);
            }
        }
        Some(c)
    }

    /// When its run ends.
    fn horizon(self) -> f64 {
        AT + self.length() + AFTER
    }

    /// The change of a link that turns `config` into this fault's world
    /// with `instances` client instances: the key chart of a row one
    /// click away.
    pub fn change(self, config: &Config, instances: u32) -> Option<String> {
        let world = self.world(config, instances)?;
        let pairs: Vec<String> = PARAMS
            .iter()
            .enumerate()
            .filter(|&(i, _)| world.value_at(i) != config.value_at(i))
            .map(|(i, param)| format!("{}={}", param.key, param.format(world.value_at(i))))
            .collect();
        Some(pairs.join("&"))
    }
}

/// The world `config` runs a fault in, before the fault: its own faults
/// cleared, `instances` client instances, as long as `fault`'s run, in
/// buckets of a second (so the peak load is a second's, whatever the
/// link's chart shows).
fn steady(config: &Config, instances: u32, fault: Fault) -> Config {
    let mut c = without_faults(config);
    c.set(P::Instances, f64::from(instances));
    c.set(P::Horizon, fault.horizon());
    c.set(P::Buckets, fault.horizon());
    c
}

/// Whose run a row is: a policy's, or the baseline's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Who {
    A,
    B,
    /// Policy A's world with one attempt and no hedge at every layer:
    /// what the fault does without retries.
    #[serde(rename = "no-retries")]
    NoRetries,
}

impl Who {
    fn name(self) -> &'static str {
        match self {
            Who::A => "A",
            Who::B => "B",
            Who::NoRetries => tr("no retries"),
        }
    }
}

impl From<Side> for Who {
    fn from(side: Side) -> Self {
        match side {
            Side::A => Who::A,
            Side::B => Who::B,
        }
    }
}

/// A run of the report: one fault, one count of instances, one policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Item {
    pub fault: Fault,
    pub instances: u32,
    pub who: Who,
}

/// One fault for one policy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub fault: Fault,
    pub instances: u32,
    pub who: Who,
    pub operations: u64,
    pub success: f64,
    /// Calls at the bottom of the chain per operation.
    pub calls_per_operation: f64,
    /// The highest load on the server in any one second while it was up,
    /// as a multiple of its capacity; 0 for unlimited workers.
    pub peak_over_capacity: f64,
    /// Operations that failed with the fault and not without it, as
    /// seconds of the goodput without it; 0 when nothing was lost.
    pub lost_seconds: f64,
    /// Seconds from the fault's start until a window of goodput is back to
    /// the map's share of the window before it, and at least its end when
    /// anything was lost; 0 when nothing was; `None` if it never is.
    pub recovered_after: Option<f64>,
    pub outcome: Outcome,
    /// The run stopped at the simulator's bounds.
    pub cut: bool,
}

/// The whole report: every fault that can happen in the world, for the
/// world's client instances and 1 (or 100), A's row then B's when
/// comparing, then the baseline's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stress {
    pub rows: Vec<Row>,
}

/// The report's column headings, in the reader's language.
pub fn headings() -> [&'static str; 9] {
    [
        tr("fault"),
        tr("client instances"),
        tr("policy"),
        tr("success"),
        tr("calls at the bottom per operation"),
        tr("peak load in a second / capacity"),
        tr("goodput lost (seconds of traffic)"),
        tr("back after (from the fault's start)"),
        tr("verdict"),
    ]
}

impl Item {
    /// The cells that name the run: its fault, its instances, its policy.
    pub fn names(&self) -> [String; 3] {
        [
            self.fault.name().to_string(),
            self.instances.to_string(),
            self.who.name().to_string(),
        ]
    }
}

impl Row {
    pub fn item(&self) -> Item {
        Item {
            fault: self.fault,
            instances: self.instances,
            who: self.who,
        }
    }

    /// The cells after the names: what the run measured, as the table
    /// under [`headings`] shows it.
    pub fn measures(&self) -> [String; 6] {
        let number = |text: String| retry_core::words::number(&text);
        let back = self
            .recovered_after
            .map_or_else(|| tr("never").to_string(), |t| number(format!("{t:.0} s")));
        let verdict = match self.outcome {
            Outcome::Recovered => tr("recovers"),
            Outcome::RecoveredLate => tr("recovers late"),
            Outcome::StaysBroken => tr("stays broken"),
            Outcome::NoGoodputBefore => tr("no goodput before"),
        };
        [
            retry_sim::metrics::Format::Share.headline(self.success),
            number(format!("{:.2}", self.calls_per_operation)),
            number(format!("{:.1}x", self.peak_over_capacity)),
            number(format!("{:.1} s", self.lost_seconds)),
            back,
            format!(
                "{verdict}{}",
                if self.cut { tr(" (cut short)") } else { "" }
            ),
        ]
    }
}

impl Stress {
    /// The report as a Markdown table, under the link of its world
    /// (`config`, written `link`), then each policy's verdicts and the
    /// warnings its settings earn in that world.
    pub fn to_markdown(&self, config: &Config, link: &str) -> String {
        let line = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
        let headings = headings().map(str::to_string);
        let mut out = format!("# {}\n\n{}: `{link}`\n\n", tr("Stress report"), tr("World"));
        out += &line(&headings);
        out += &format!("|{}\n", "---|".repeat(headings.len()));
        for row in &self.rows {
            out += &line(&[row.item().names().to_vec(), row.measures().to_vec()].concat());
        }
        out += &format!("\n## {}\n\n", tr("Verdicts"));
        for row in self.rows.iter().filter(|row| row.who != Who::NoRetries) {
            let (safe, reasons) = self.reasons(row);
            out += &format!(
                "- {}, {}, {}: **{}**. {}\n",
                row.fault.name(),
                retry_core::tf!(
                    "{instances} {instances|client instance|client instances}",
                    instances = row.instances
                ),
                row.who.name(),
                if safe { tr("safe") } else { tr("not safe") },
                reasons.join(" ")
            );
        }
        let warned = warnings(config);
        if !warned.is_empty() {
            out += &format!("\n## {}\n\n", tr("Warnings"));
            for line in warned {
                out += &format!("- {line}\n");
            }
        }
        out
    }

    /// The baseline's row for `row`'s fault: the run without retries.
    fn baseline(&self, row: &Row) -> Option<&Row> {
        self.rows
            .iter()
            .find(|other| other.who == Who::NoRetries && other.fault == row.fault)
    }

    /// A policy's verdict on one fault, safe or not, and its reasons: each
    /// a sentence of what the runs measured. Safe when the goodput came
    /// back within the map's short wait and the policy kept at least the
    /// success the world has without retries (a drop counts when it is
    /// more than three standard deviations of the two runs' binomial
    /// shares: on one seed, a difference the noise would not make).
    pub fn reasons(&self, row: &Row) -> (bool, Vec<String>) {
        let share = |p: f64| retry_sim::metrics::Format::Share.headline(p);
        let number = |text: String| retry_core::words::number(&text);
        let mut reasons = Vec::new();
        let mut safe = row.outcome == Outcome::Recovered && !row.cut;
        reasons.push(match (row.outcome, row.recovered_after) {
            (Outcome::NoGoodputBefore, _) => {
                tr("Nothing succeeded before the fault: there is no goodput to win back.").to_string()
            }
            (_, Some(0.0)) => tr("The fault cost no goodput.").to_string(),
            (Outcome::Recovered, Some(t)) => retry_core::tf!(
                "The goodput was back {t} after the fault began, having lost {lost} of traffic.",
                t = number(format!("{t:.0} s")),
                lost = number(format!("{:.1} s", row.lost_seconds))
            ),
            (_, Some(t)) => retry_core::tf!(
                "The goodput was back only {t} after the fault began, having lost {lost} of traffic.",
                t = number(format!("{t:.0} s")),
                lost = number(format!("{:.1} s", row.lost_seconds))
            ),
            (_, None) => retry_core::tf!(
                "The goodput was not back in the {after} after the fault: it lost {lost} of traffic.",
                after = number(format!("{AFTER:.0} s")),
                lost = number(format!("{:.1} s", row.lost_seconds))
            ),
        });
        if let Some(base) = self.baseline(row) {
            if row.outcome != Outcome::Recovered && base.outcome != Outcome::Recovered {
                reasons.push(
                    tr("Without retries the world does not recover in time either: the fault is more than it can take.")
                        .to_string(),
                );
            }
            let sd = (row.success * (1.0 - row.success) / row.operations.max(1) as f64
                + base.success * (1.0 - base.success) / base.operations.max(1) as f64)
                .sqrt();
            let gap = row.success - base.success;
            let (success, without) = (share(row.success), share(base.success));
            reasons.push(if gap < -3.0 * sd {
                safe = false;
                retry_core::tf!(
                    "Retries made it worse: success {success} against {without} without them.",
                    success = success,
                    without = without
                )
            } else if gap > 3.0 * sd {
                retry_core::tf!(
                    "Retries won success back: {success} against {without} without them.",
                    success = success,
                    without = without
                )
            } else {
                retry_core::tf!(
                    "Success {success}, as without retries ({without}).",
                    success = success,
                    without = without
                )
            });
            reasons.push(retry_core::tf!(
                "{calls} calls at the bottom per operation, against {without} without retries.",
                calls = number(format!("{:.2}", row.calls_per_operation)),
                without = number(format!("{:.2}", base.calls_per_operation))
            ));
            if row.peak_over_capacity > 0.0 {
                reasons.push(retry_core::tf!(
                    "At its busiest second the server was asked for {peak} its capacity ({without} without retries).",
                    peak = number(format!("{:.1}x", row.peak_over_capacity)),
                    without = number(format!("{:.1}x", base.peak_over_capacity))
                ));
            }
        }
        (safe, reasons)
    }
}

/// The warnings each policy's settings earn in `config`'s world, each
/// after its policy's name: A's, then B's when comparing.
pub fn warnings(config: &Config) -> Vec<String> {
    map::policies(config)
        .iter()
        .flat_map(|(side, policy)| {
            crate::warnings::warnings(policy)
                .into_iter()
                .map(move |warning| format!("{}: {}", Who::from(*side).name(), warning.text()))
        })
        .collect()
}

/// Why `config` has no stress report, if it has none: its judgement
/// compares goodput before and after a fault, which needs operations
/// arriving all along (a crowd starts once and is done; the contention
/// model has no server).
pub fn refusal(config: &Config) -> Option<&'static str> {
    let steady = matches!(
        config.scenario().workload,
        WorkloadKind::Poisson | WorkloadKind::Closed
    );
    if !steady {
        return Some(retry_core::words::tr(
            "The stress report compares goodput before and after each fault: give the world arrivals that go on (open or closed loop).",
        ));
    }
    crate::nothing_succeeds(config)
}

/// Whether `next` keeps the report shown for `shown`: it is that world,
/// or the world of one of its rows (a row's fault shown, whatever count
/// of instances the row ran).
pub fn same_report(shown: &Config, next: &Config) -> bool {
    shown.same_state(next)
        || plan(shown).iter().any(|item| {
            item.fault
                .world(shown, item.instances)
                .is_some_and(|world| world.same_state(next))
        })
}

/// The report of `config`'s world and policies.
pub fn stress(config: &Config) -> Stress {
    stress_on(config, crate::executor::every_core())
}

/// The stress report with its runs on `workers` threads: the same report
/// on any number ([`crate::executor`]).
pub fn stress_on(config: &Config, workers: usize) -> Stress {
    let rows = crate::executor::run_all(&plan(config), workers, |item| run(config, item));
    Stress { rows }
}

/// `config` without any fault of its own: every outage (of the server and
/// of each service on the way), capacity loss, latency spike, burst and
/// partition gone, their settings back to the
/// defaults (inert once a fault has no length, but a link would keep
/// them): the steady world a stress report hits one fault at a time.
pub fn without_faults(config: &Config) -> Config {
    let mut c = config.clone();
    for p in [
        P::OutageAt,
        P::DropAt,
        P::DropTo,
        P::SlowAt,
        P::SlowX,
        P::SpikeAt,
        P::SpikeRate,
        P::CutAt,
        P::CutShare,
    ]
    .into_iter()
    .chain(P::LAYER_OUTAGE_STARTS)
    {
        c.set(p, p.param().default);
    }
    for p in [P::OutageFor, P::DropFor, P::SlowFor, P::SpikeFor, P::CutFor]
        .into_iter()
        .chain(P::LAYER_OUTAGE_LENGTHS)
    {
        c.set(p, 0.0);
    }
    c
}

/// The report's runs in its order: every fault that can happen in the
/// world, for the world's own client instances and, where the count
/// changes something (a budget or a breaker kept per instance), for 1 (or
/// 100 when the world has 1), A then B; then the fault without retries,
/// at the world's own count. Each is a run of its own, so workers may take
/// them in any order.
pub fn plan(config: &Config) -> Vec<Item> {
    let per_instance = map::policies(config)
        .iter()
        .any(|(_, policy)| (P::Instances.param().applies)(policy));
    let own = config.scenario().instances.max(1);
    let counts = match (per_instance, own) {
        (false, own) => vec![own],
        (true, 1) => vec![1, 100],
        (true, own) => vec![own, 1],
    };
    let mut items = Vec::new();
    for fault in Fault::ALL {
        for &instances in &counts {
            if let Some(world) = fault.world(config, instances) {
                items.extend(map::policies(&world).into_iter().map(|(side, _)| Item {
                    fault,
                    instances,
                    who: side.into(),
                }));
            }
        }
        if fault.world(config, own).is_some() {
            items.push(Item {
                fault,
                instances: own,
                who: Who::NoRetries,
            });
        }
    }
    items
}

/// `config`'s policy A without retries: one attempt and no hedge at every
/// layer, whatever else it keeps.
pub fn without_retries(config: &Config) -> Config {
    let mut c = config.policies_alone().swap_remove(0);
    c.set(P::Hedge, retry_sim::config::SWITCH.position(false));
    for p in std::iter::once(P::Attempts).chain(P::LAYER_ATTEMPTS) {
        c.set(p, 1.0);
    }
    c
}

/// The configuration `item` runs, from the fault's world.
fn policy_of(world: &Config, who: Who) -> Config {
    match who {
        Who::NoRetries => without_retries(world),
        Who::A | Who::B => {
            map::policies(world)
                .into_iter()
                .find(|(side, _)| Who::from(*side) == who)
                .expect("a planned policy is one of the world's")
                .1
        }
    }
}

/// The row of one run of the report.
pub fn run(config: &Config, item: &Item) -> Row {
    let world = item
        .fault
        .world(config, item.instances)
        .expect("a planned fault can happen");
    let faulted = simulate::run(&policy_of(&world, item.who));
    let steady = steady(config, item.instances, item.fault);
    let without = simulate::run(&policy_of(&steady, item.who));
    row(item, &faulted, &without)
}

/// The row of `item` from its run with the fault and without it.
fn row(item: &Item, report: &Report, without: &Report) -> Row {
    let fault = item.fault;
    let end = AT + fault.length();
    let horizon = fault.horizon();
    let judged = map::judge(report, AT, fault.length(), 0);
    let back = BACK * judged.before;
    let series = &report.series;
    // The operations that failed with the fault and not without it (the
    // runs share their arrivals before it, on the same seed; a burst's
    // own arrivals that fail count too), in seconds of the goodput the
    // run without the fault had after its start.
    let failed = |r: &Report| r.summary.operations as f64 * (1.0 - r.summary.success_rate);
    let lost = failed(report) - failed(without);
    let steady = without.series.goodput(AT, horizon);
    let lost_seconds = match steady {
        steady if steady > 0.0 && lost >= 0.5 => lost / steady,
        _ => 0.0,
    };
    let recovered_after = if lost_seconds == 0.0 && judged.before > 0.0 {
        Some(0.0)
    } else {
        (0..)
            .map(|second| end + f64::from(second))
            .take_while(|&from| from + WINDOW <= horizon)
            .find(|&from| judged.before > 0.0 && series.goodput(from, from + WINDOW) >= back)
            .map(|from| from - AT)
    };
    let s = &report.summary;
    let bottom = s.attempts_by_layer.last().copied().unwrap_or(0);
    Row {
        fault,
        instances: item.instances,
        who: item.who,
        operations: s.operations,
        success: s.success_rate,
        calls_per_operation: bottom as f64 / s.operations.max(1) as f64,
        peak_over_capacity: report.series.peak_over_capacity(),
        lost_seconds,
        recovered_after,
        outcome: judged.outcome,
        cut: s.truncated,
    }
}

/// The stress report as an analysis.
pub const ANALYSIS: Analysis = Analysis {
    word: Text("stress"),
    options: &[("--markdown", false)],
    synopsis: " [--markdown]",
    help: Text(
        "The world through the standard faults (outages of 5 s and 60 s, half the workers for 30 s, a 5x latency spike for 10 s, ten times the arrivals for 5 s): each policy's success, calls, peak load, goodput lost, time to recover and the map's verdict, beside the same faults without retries, with each policy's verdict, its reasons and the warnings its settings earn, as JSON (a Markdown table with --markdown).",
    ),
    seeds: 1,
    budget: None,
    refusal,
    print: |config, args| {
        let report = stress(config);
        Ok(Printed::out(match args.flag("--markdown") {
            true => report.to_markdown(config, &config.to_link()),
            false => serde_json::to_string(&report).unwrap_or_default(),
        }))
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    fn world(link: &str) -> Config {
        let (config, notices) = Config::from_link(link);
        assert!(notices.is_empty(), "{notices:?}");
        config
    }

    /// Without its faults a world keeps no fault at all: every fault's
    /// window of the server gone, and every service's outage, whatever
    /// the link set.
    #[test]
    fn without_faults_leaves_no_fault_anywhere() {
        let faulty = Config::from_link(
            "v=1&layers=5&outage_at=3&outage_for=5&drop_at=2&drop_for=3&slow_for=4&spike_for=2&cut_for=3\
             &l2_outage_at=1&l2_outage_for=2&l3_outage_for=2&l4_outage_for=2&l5_outage_for=2",
        )
        .0;
        let s = without_faults(&faulty).scenario();
        for fault in retry_sim::sim::Fault::ALL {
            assert_eq!(s.fault(fault), None, "{fault:?}");
        }
        assert_eq!(s.layer_outage_duration, [0.0; 4]);
        assert_eq!(without_faults(&faulty).to_link(), "v=1&layers=5");
    }

    /// Every row is the run of its fault's world, as the command line and
    /// the page would make it alone, bit for bit.
    #[test]
    fn each_row_is_the_run_of_its_faults_world() {
        let config = world(
            "v=1&compare=on&attempts=3&rate=40&workers=8&service_t=0.1&B.budget=token-bucket",
        );
        let report = stress(&config);
        assert_eq!(
            report.rows.len(),
            25,
            "five faults, 1 and 100 instances, two policies, and each without retries"
        );
        for workers in [1, 2, 4] {
            assert_eq!(report, stress_on(&config, workers), "{workers} workers");
        }
        for row in &report.rows {
            let faulted = row
                .fault
                .world(&config, row.instances)
                .expect("it can happen");
            let run = match row.who {
                Who::A => simulate::run(&faulted),
                Who::B => simulate::run(&faulted.policy_b_config()),
                Who::NoRetries => simulate::run(&without_retries(&faulted)),
            };
            assert_eq!(row.success, run.summary.success_rate, "{row:?}");
            let bottom = run.summary.attempts_by_layer.last().copied().unwrap_or(0);
            assert_eq!(
                row.calls_per_operation,
                bottom as f64 / run.summary.operations as f64
            );
        }
    }

    /// A row's change, applied to the world's link, opens its fault's
    /// world: the link a reader follows to the row's key chart.
    #[test]
    fn a_rows_change_opens_its_faults_world() {
        let config = world(
            "v=1&compare=on&attempts=3&rate=40&workers=8&service_t=0.1&outage_at=5&outage_for=2&cut_at=3&cut_for=4&cut_share=0.3&B.budget=token-bucket",
        );
        for item in plan(&config) {
            let change = item
                .fault
                .change(&config, item.instances)
                .expect("it can happen");
            let opened = retry_sim::link::apply(&config, &change);
            let faulted = item
                .fault
                .world(&config, item.instances)
                .expect("it can happen");
            assert!(opened.same_state(&faulted), "{item:?}: {change}");
            assert!(same_report(&config, &opened), "{item:?}: {change}");
            assert_eq!(faulted.get(P::CutFor), 0.0, "the world's partition goes");
            assert!(!change.contains("B."), "a fault is the world's: {change}");
        }
        assert_eq!(
            Fault::HalfCapacity30s.change(&world("v=1&workers=0"), 1),
            None
        );
        let other = retry_sim::link::apply(&config, "B.attempts=5");
        assert!(!same_report(&other, &config), "B's policy is in the report");
    }

    /// A verdict's key, which the page styles, is the JSON's.
    #[test]
    fn a_verdicts_key_is_its_json() {
        for outcome in [
            Outcome::Recovered,
            Outcome::RecoveredLate,
            Outcome::StaysBroken,
            Outcome::NoGoodputBefore,
        ] {
            let json = serde_json::to_string(&outcome).expect("an outcome is JSON");
            assert_eq!(json, format!("\"{}\"", outcome.key()));
        }
    }

    /// The Markdown report has a row per row, each with its success.
    #[test]
    fn the_markdown_report_has_every_row() {
        let report = stress(&world(
            "v=1&compare=on&attempts=3&rate=40&workers=8&service_t=0.1&B.budget=token-bucket",
        ));
        let markdown = report.to_markdown(&world("v=1"), "v=1");
        let lines: Vec<&str> = markdown.lines().filter(|l| l.starts_with("| ")).collect();
        assert_eq!(lines.len(), report.rows.len() + 1, "{markdown}");
        for (line, row) in lines[1..].iter().zip(&report.rows) {
            assert!(
                line.starts_with(&format!(
                    "| {} | {} | {} | {:.1} % |",
                    row.fault.name(),
                    row.instances,
                    row.who.name(),
                    100.0 * row.success
                )),
                "{line}"
            );
        }
    }

    /// A world with room to spare and no retries recovers from every fault,
    /// within 5 s of its end: 4 erlangs on 10 workers (8 with half of
    /// them) and one attempt each.
    #[test]
    fn a_world_with_room_recovers_from_every_fault() {
        let report = stress(&world("v=1&attempts=1&rate=40&workers=10&service_t=0.1"));
        assert_eq!(
            report.rows.len(),
            10,
            "no budget or breaker: one count of instances, and the baseline"
        );
        for row in &report.rows {
            assert_eq!(row.outcome, Outcome::Recovered, "{row:?}");
            let length = row.fault.length();
            assert!(
                row.recovered_after.is_some_and(|t| t <= length + 5.0),
                "{row:?}"
            );
        }
    }

    /// What an outage of 5 s costs a world without retries is the
    /// operations that arrive in it (and the few in flight as it starts):
    /// the run without the fault has the same arrivals on the same seed,
    /// so at 40 a second about 200, a Poisson count (sd 14): 5 s of
    /// traffic within 4 sd, 1.4 s, and a tenth for those in flight. Its
    /// goodput is back no sooner than the outage's end, counted from its
    /// start; a fault that costs nothing is back at once. The baseline
    /// calls the bottom once an operation, whatever the policy's layers.
    #[test]
    fn the_goodput_a_fault_costs_is_counted_against_the_same_run_without_it() {
        let config =
            world("v=1&attempts=3&rate=40&workers=10&service_t=0.1&layers=2&l2_attempts=3");
        let report = stress(&config);
        let base = |fault: Fault| {
            report
                .rows
                .iter()
                .find(|r| r.fault == fault && r.who == Who::NoRetries)
                .expect("a baseline row")
        };
        let outage = base(Fault::Outage5s);
        assert!((outage.lost_seconds - 5.0).abs() < 1.5, "{outage:?}");
        assert!(
            outage.recovered_after.is_some_and(|t| t >= 5.0),
            "{outage:?}"
        );
        assert_eq!(outage.calls_per_operation, 1.0);
        for row in &report.rows {
            if row.lost_seconds == 0.0 {
                assert_eq!(row.recovered_after, Some(0.0), "{row:?}");
            } else if let Some(t) = row.recovered_after {
                assert!(t >= row.fault.length(), "{row:?}");
            }
        }
    }

    /// A policy's verdict weighs it against the run without retries: A's
    /// immediate retries in the metastable world are not safe, their
    /// success far under the baseline's; B's budgeted backoff is safe on
    /// the short outage, as the map says.
    #[test]
    fn a_verdict_weighs_a_policy_against_no_retries() {
        let report = stress(&world(
            "v=1&compare=on&shape=constant&base=0.001&jitter=none&rate=70&failure=0&servers=2&fault_on=one&workers=5&queue=10000&service_t=0.1&B.shape=exponential&B.base=0.1&B.cap=10&B.jitter=full&B.budget=ratio&B.b_floor=1&B.b_basis=requests",
        ));
        let row = |who: Who| {
            report
                .rows
                .iter()
                .find(|r| r.fault == Fault::Outage5s && r.instances == 1 && r.who == who)
                .expect("its row")
        };
        let (safe, reasons) = report.reasons(row(Who::A));
        assert!(!safe, "{reasons:?}");
        assert!(
            reasons
                .iter()
                .any(|r| r.starts_with("Retries made it worse")),
            "{reasons:?}"
        );
        let (safe, reasons) = report.reasons(row(Who::B));
        assert!(safe, "{reasons:?}");
        assert!(
            !reasons
                .iter()
                .any(|r| r.starts_with("Retries made it worse")),
            "{reasons:?}"
        );
    }

    /// In a chain the report adds the second service down for 5 s, in a
    /// world of that outage alone; one service has no such row. The top
    /// tries three times, its pauses' ceilings 0.1 and 0.2 s: an operation
    /// that arrives in the first 4.7 s of the window fails, one after it
    /// does not, so between 4.7 s and 5 s of the run's 95 s of arrivals
    /// are lost, within four binomial standard deviations over its ~3 800
    /// operations; and the world recovers.
    #[test]
    fn a_chain_is_stressed_with_its_second_service_down() {
        let chain = world("v=1&attempts=3&rate=40&workers=10&service_t=0.1&layers=2");
        let down = Fault::SecondServiceOutage5s
            .world(&chain, 1)
            .expect("a chain");
        assert_eq!(
            Fault::SecondServiceOutage5s.change(&chain, 1).as_deref(),
            Some("horizon=95&buckets=95&l2_outage_at=30&l2_outage_for=5")
        );
        assert_eq!(down.scenario().layer_outage_duration, [5.0, 0.0, 0.0, 0.0]);
        let report = stress(&chain);
        let row = report
            .rows
            .iter()
            .find(|r| r.fault == Fault::SecondServiceOutage5s)
            .expect("its row");
        assert_eq!(row.outcome, Outcome::Recovered, "{row:?}");
        let sd = (0.05f64 * 0.95 / 3_800.0).sqrt();
        let (least, most) = (4.7 / 95.0, 5.0 / 95.0);
        let lost = 1.0 - row.success;
        assert!(lost > least - 4.0 * sd && lost < most + 4.0 * sd, "{row:?}");
        let one = world("v=1&attempts=3&rate=40&workers=10&service_t=0.1");
        assert_eq!(Fault::SecondServiceOutage5s.world(&one, 1), None);
        assert!(
            plan(&one)
                .iter()
                .all(|i| i.fault != Fault::SecondServiceOutage5s)
        );
    }

    /// Stability Sim's metastable example (the preset): after an outage of
    /// one server of the two for 5 s, A's immediate retries keep the fleet
    /// collapsed and B's budgeted backoff recovers, as the preset's own
    /// test says; a capacity loss needs workers, so unlimited ones have no
    /// such row; a crowd that starts once has no report.
    #[test]
    fn the_metastable_world_stays_broken_for_a_and_recovers_for_b() {
        // The preset's link (its crate is above this one).
        let report = stress(&world(
            "v=1&compare=on&shape=constant&base=0.001&jitter=none&rate=70&buckets=120&failure=0&outage_at=5&outage_for=5&servers=2&fault_on=one&workers=5&queue=10000&service_t=0.1&B.shape=exponential&B.base=0.1&B.cap=10&B.jitter=full&B.budget=ratio&B.b_floor=1&B.b_basis=requests",
        ));
        let outage: Vec<&Row> = report
            .rows
            .iter()
            .filter(|r| r.fault == Fault::Outage5s && r.instances == 1)
            .collect();
        assert_eq!(outage[0].outcome, Outcome::StaysBroken, "{:?}", outage[0]);
        assert_eq!(outage[1].outcome, Outcome::Recovered, "{:?}", outage[1]);
        let unlimited = stress(&world("v=1&workers=0"));
        assert!(
            unlimited
                .rows
                .iter()
                .all(|r| r.fault != Fault::HalfCapacity30s)
        );
        assert!(refusal(&world("v=1&workload=crowd")).is_some());
        assert!(refusal(&world("v=1")).is_none());
        // The layers preset's dependency fails every call: no goodput.
        assert!(refusal(&world("v=1&failure=1&layers=3")).is_some());
    }
}
