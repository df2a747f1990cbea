//! The stress report: a world run through the standard faults, each alone
//! on the world's own settings (its own faults, a partition included,
//! cleared), and judged as the map judges a cell.
//!
//! The faults: an outage of 5 s and of 60 s, half the workers lost for
//! 30 s, a latency spike of 5x for 10 s, a burst of ten times the
//! arrivals for 5 s (a deploy whose clients all come back at once), and
//! in a chain an outage of 5 s of the second service. Each
//! starts at 30 s, after three of the map's windows of steady traffic, and
//! the run goes on for the map's late window after it; each with 1 client
//! instance and with 100, where a policy keeps state per instance (a
//! budget, a breaker) that the count changes. For each policy:
//! success, calls per operation, the peak load against capacity, how long
//! after the fault the goodput was back to the map's share of before, and
//! the map's verdict.

use serde::{Deserialize, Serialize};

use crate::config::{Config, P, PARAMS};
use crate::map::{self, BACK, Outcome, WINDOW};
use crate::metrics::Side;
use crate::sim::{Report, WorkloadKind};
use crate::simulate;
use crate::words::tr;

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
        let mut c = without_faults(config);
        c.set(P::Instances, f64::from(instances));
        let length = self.length();
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
        c.set(P::Horizon, AT + length + AFTER);
        Some(c)
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

/// A run of the report: one fault, one count of instances, one policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Item {
    pub fault: Fault,
    pub instances: u32,
    pub side: Side,
}

/// One fault for one policy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub fault: Fault,
    pub instances: u32,
    pub side: Side,
    pub success: f64,
    pub calls_per_operation: f64,
    /// The highest load on the server while it was up, as a multiple of
    /// its capacity; 0 for unlimited workers.
    pub peak_over_capacity: f64,
    /// Seconds from the fault's end until a window of goodput is back to
    /// the map's share of the window before it; `None` if it never is.
    pub recovered_after: Option<f64>,
    pub outcome: Outcome,
    /// The run stopped at the simulator's bounds.
    pub cut: bool,
}

/// The whole report: every fault that can happen in the world, for 1
/// client instance and for 100, A's row then B's when comparing.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stress {
    pub rows: Vec<Row>,
}

/// The report's column headings, in the reader's language.
pub fn headings() -> [&'static str; 8] {
    [
        tr("fault"),
        tr("client instances"),
        tr("policy"),
        tr("success"),
        tr("calls per operation"),
        tr("peak load / capacity"),
        tr("back after"),
        tr("verdict"),
    ]
}

impl Item {
    /// The cells that name the run: its fault, its instances, its policy.
    pub fn names(&self) -> [String; 3] {
        [
            self.fault.name().to_string(),
            self.instances.to_string(),
            format!("{:?}", self.side),
        ]
    }
}

impl Row {
    pub fn item(&self) -> Item {
        Item {
            fault: self.fault,
            instances: self.instances,
            side: self.side,
        }
    }

    /// The cells after the names: what the run measured, as the table
    /// under [`headings`] shows it.
    pub fn measures(&self) -> [String; 5] {
        let number = |text: String| crate::words::number(&text);
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
            crate::metrics::Format::Share.headline(self.success),
            number(format!("{:.2}", self.calls_per_operation)),
            number(format!("{:.1}x", self.peak_over_capacity)),
            back,
            format!(
                "{verdict}{}",
                if self.cut { tr(" (cut short)") } else { "" }
            ),
        ]
    }
}

impl Stress {
    /// The report as a Markdown table, under the link of its world.
    pub fn to_markdown(&self, link: &str) -> String {
        let line = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
        let headings = headings().map(str::to_string);
        let mut out = format!("# {}\n\n{}: `{link}`\n\n", tr("Stress report"), tr("World"));
        out += &line(&headings);
        out += &format!("|{}\n", "---|".repeat(headings.len()));
        for row in &self.rows {
            out += &line(&[row.item().names().to_vec(), row.measures().to_vec()].concat());
        }
        out
    }
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
        return Some(crate::words::tr(
            "The stress report compares goodput before and after each fault: give the world arrivals that go on (open or closed loop).",
        ));
    }
    crate::nothing_succeeds(config)
}

/// Whether `a` and `b` have the same report: every fault's world is the
/// same, as when one is the other with a row's fault shown (its change).
pub fn same_report(a: &Config, b: &Config) -> bool {
    plan(a) == plan(b)
        && Fault::ALL
            .iter()
            .all(|fault| match (fault.world(a, 1), fault.world(b, 1)) {
                (Some(a), Some(b)) => a.same_state(&b),
                (a, b) => a.is_none() && b.is_none(),
            })
}

/// The report of `config`'s world and policies.
pub fn stress(config: &Config) -> Stress {
    let rows = plan(config).iter().map(|item| run(config, item)).collect();
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
        P::Layer2OutageAt,
        P::Layer3OutageAt,
        P::Layer4OutageAt,
        P::Layer5OutageAt,
    ] {
        c.set(p, p.param().default);
    }
    for p in [
        P::OutageFor,
        P::DropFor,
        P::SlowFor,
        P::SpikeFor,
        P::CutFor,
        P::Layer2OutageFor,
        P::Layer3OutageFor,
        P::Layer4OutageFor,
        P::Layer5OutageFor,
    ] {
        c.set(p, 0.0);
    }
    c
}

/// The report's runs in its order: every fault that can happen in the
/// world, for 1 client instance and for 100 where the count changes
/// something (a budget or a breaker kept per instance), A then B. Each is
/// a run of its own, so workers may take them in any order.
pub fn plan(config: &Config) -> Vec<Item> {
    let per_instance = map::policies(config)
        .iter()
        .any(|(_, policy)| (P::Instances.param().applies)(policy));
    let counts: &[u32] = if per_instance { &[1, 100] } else { &[1] };
    let mut items = Vec::new();
    for fault in Fault::ALL {
        for &instances in counts {
            if let Some(world) = fault.world(config, instances) {
                items.extend(map::policies(&world).into_iter().map(|(side, _)| Item {
                    fault,
                    instances,
                    side,
                }));
            }
        }
    }
    items
}

/// The row of one run of the report.
pub fn run(config: &Config, item: &Item) -> Row {
    let world = item
        .fault
        .world(config, item.instances)
        .expect("a planned fault can happen");
    let (_, policy) = map::policies(&world)
        .into_iter()
        .find(|(side, _)| *side == item.side)
        .expect("a planned policy is one of the world's");
    row(
        item.fault,
        item.instances,
        item.side,
        &simulate::run(&policy),
    )
}

fn row(fault: Fault, instances: u32, side: Side, report: &Report) -> Row {
    let end = AT + fault.length();
    let judged = map::judge(report, AT, fault.length(), 0);
    let back = BACK * judged.before;
    let series = &report.series;
    let recovered_after = (0..)
        .map(|second| end + f64::from(second))
        .take_while(|&from| from + WINDOW <= AT + fault.length() + AFTER)
        .find(|&from| judged.before > 0.0 && series.goodput(from, from + WINDOW) >= back)
        .map(|from| from - end);
    let s = &report.summary;
    Row {
        fault,
        instances,
        side,
        success: s.success_rate,
        calls_per_operation: s.server_calls_per_operation,
        peak_over_capacity: report.series.peak_over_capacity(),
        recovered_after,
        outcome: judged.outcome,
        cut: s.truncated,
    }
}

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
        for fault in crate::sim::Fault::ALL {
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
            20,
            "five faults, 1 and 100 instances, two policies"
        );
        assert_eq!(report, stress(&config));
        for row in &report.rows {
            let faulted = row
                .fault
                .world(&config, row.instances)
                .expect("it can happen");
            let run = match row.side {
                Side::A => simulate::run(&faulted),
                Side::B => simulate::run(&faulted.policy_b_config()),
            };
            assert_eq!(row.success, run.summary.success_rate, "{row:?}");
            assert_eq!(
                row.calls_per_operation,
                run.summary.server_calls_per_operation
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
            let opened = crate::config::apply(&config, &change);
            let faulted = item
                .fault
                .world(&config, item.instances)
                .expect("it can happen");
            assert!(opened.same_state(&faulted), "{item:?}: {change}");
            assert!(same_report(&opened, &config), "{item:?}: {change}");
            assert_eq!(faulted.get(P::CutFor), 0.0, "the world's partition goes");
            assert!(!change.contains("B."), "a fault is the world's: {change}");
        }
        assert_eq!(
            Fault::HalfCapacity30s.change(&world("v=1&workers=0"), 1),
            None
        );
        let other = crate::config::apply(&config, "B.attempts=5");
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
        let markdown = report.to_markdown("v=1");
        let lines: Vec<&str> = markdown.lines().filter(|l| l.starts_with("| ")).collect();
        assert_eq!(lines.len(), report.rows.len() + 1, "{markdown}");
        for (line, row) in lines[1..].iter().zip(&report.rows) {
            assert!(
                line.starts_with(&format!(
                    "| {} | {} | {:?} | {:.1} % |",
                    row.fault.name(),
                    row.instances,
                    row.side,
                    100.0 * row.success
                )),
                "{line}"
            );
        }
    }

    /// A world with room to spare and no retries recovers from every fault,
    /// at once after a short one: 4 erlangs on 10 workers (8 with half of
    /// them) and one attempt each.
    #[test]
    fn a_world_with_room_recovers_from_every_fault() {
        let report = stress(&world("v=1&attempts=1&rate=40&workers=10&service_t=0.1"));
        assert_eq!(
            report.rows.len(),
            5,
            "no budget or breaker: one count of instances"
        );
        for row in &report.rows {
            assert_eq!(row.outcome, Outcome::Recovered, "{row:?}");
            assert!(row.recovered_after.is_some_and(|t| t <= 5.0), "{row:?}");
        }
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
            Some("horizon=95&l2_outage_at=30&l2_outage_for=5")
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
