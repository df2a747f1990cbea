//! Claims: what a sentence may say happened, each a fact measured on the
//! runs it speaks of.
//!
//! A lesson's words describe its runs: "the waves stand far above what the
//! server can take", "the world stays broken", "the tail is cut". Chosen
//! by the settings, such a sentence stops being true as soon as a reader
//! moves a knob the preset did not expect (a herd of 300 clients has no
//! wave above capacity; a capacity loss of 2 s leaves nothing broken). So a
//! template ([`crate::prose`]) may say it only under `{if A.overloaded}`,
//! `{if B.ahead_p99}` and the like: a claim of this table, measured on the
//! side's own run, and its `{else}` says what holds instead.
//!
//! Each claim is positive, and its threshold says when a reader would
//! agree with the words: a claim and its opposite ("stays broken",
//! "recovers") are two claims, both false where the run cannot tell
//! (a run that ends before the world had time to recover).
//!
//! The words that make each claim are listed in [`Claim::phrases`]; a test
//! runs every preset and chapter across the range of its knobs and fails
//! when such words show outside the claim that guards them.

use retry_sim::config::{Config, P};
use retry_sim::metrics::{Metric, Side};
use retry_sim::sim::Report;

/// A fact of one policy's run that words may state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// Some bucket of the run, the server up, sent it at least [`OVER`]
    /// times what it serves a second (its capacity line).
    Overloaded,
    /// No bucket reached [`OVER`] times the capacity, and at least
    /// [`SUCCEEDS`] of the operations succeeded: a load the server absorbs.
    Absorbs,
    /// At least [`SUCCEEDS`] of the operations succeeded.
    Succeeds,
    /// Fewer than [`SUCCEEDS`] did: the complement of `Succeeds`.
    Fails,
    /// The run's last window (10 s) of goodput is under the map's
    /// [`BACK`](retry_analyses::map::BACK) share of the window before the world's
    /// trigger (its outage, capacity loss or spike): the map's "stays
    /// broken", measured where the run ends.
    StaysBroken,
    /// The same window is back to that share of before.
    Recovers,
    /// The server took at least [`AMPLIFIED`] calls per operation.
    Amplified,
    /// At least [`WASTES`] of the server's work was for callers that had
    /// given up (or whose answer was lost).
    Wastes,
    /// At least [`ORPHANS`] of the server's calls were sent for a caller
    /// that had given up on the call they serve.
    Orphans,
    /// Retries were asked for, and the budget refused at most
    /// [`REFUSES_FEW`] of them.
    BudgetPays,
    /// The budget refused more retries than it let go.
    RefusesMost,
    /// The world was still broken when the operators began to turn the
    /// traffic away (the gap of a spike to no arrivals): the goodput of
    /// the window before the gap is under the map's
    /// [`BACK`](retry_analyses::map::BACK) share of the window before the trigger.
    /// A gap that comes after the world came back drained nothing.
    BrokenBeforeGap,
    /// The server's queue stood, averaged over some bucket, at least at
    /// [`FILLS`] of its limit: "a queue of 1000" is the queue it held,
    /// not only the limit it had.
    QueueFills,
    /// A rate limit turned requests away, and some of this policy's were
    /// retried between its first reset after that and the next
    /// ([`retry_sim::sim::ResetHerd`]): the herd its reset makes, or not.
    HeldAtReset,
    /// This policy's number is better than the other's on this run by
    /// the least lead that matters ([`retry_sim::metrics::Format::least_lead`]);
    /// a latency only where both runs finished operations to measure.
    Ahead(Metric),
}

/// "Far above" capacity: twice it, a step the log axis shows plainly and a
/// load no queue absorbs for long.
pub const OVER: f64 = 2.0;
/// Success a reader calls "every operation succeeds": 99 in 100.
pub const SUCCEEDS: f64 = 0.99;
/// Calls per operation that read as more load: a tenth more than one.
pub const AMPLIFIED: f64 = 1.1;
/// Wasted work a reader would notice: a tenth of the server's.
pub const WASTES: f64 = 0.1;
/// Calls sent for nobody a reader would notice: one in twenty.
pub const ORPHANS: f64 = 0.05;
/// A queue a reader calls full: half its limit, averaged over a bucket.
pub const FILLS: f64 = 0.5;
/// "Nearly every retry" paid for: at most one in ten refused.
pub const REFUSES_FEW: f64 = 0.1;

impl Claim {
    const NAMED: [(&'static str, Claim); 14] = [
        ("overloaded", Claim::Overloaded),
        ("absorbs", Claim::Absorbs),
        ("succeeds", Claim::Succeeds),
        ("fails", Claim::Fails),
        ("stays_broken", Claim::StaysBroken),
        ("recovers", Claim::Recovers),
        ("amplified", Claim::Amplified),
        ("wastes", Claim::Wastes),
        ("budget_pays", Claim::BudgetPays),
        ("refuses_most", Claim::RefusesMost),
        ("orphans", Claim::Orphans),
        ("broken_before_gap", Claim::BrokenBeforeGap),
        ("queue_fills", Claim::QueueFills),
        ("held_at_reset", Claim::HeldAtReset),
    ];

    /// The claim a template names: one of the names above, or `ahead_`
    /// and a report number's key (`ahead_p99`).
    pub fn named(name: &str) -> Option<Claim> {
        if let Some(key) = name.strip_prefix("ahead_") {
            return Metric::ALL
                .into_iter()
                .find(|m| m.key() == key)
                .map(Claim::Ahead);
        }
        Self::NAMED.iter().find(|(n, _)| *n == name).map(|c| c.1)
    }

    /// Whether the claim holds of `mine`, the run of policy `side` with the
    /// settings `config`, beside `other`, the other policy's run if any.
    pub fn holds(self, side: Side, config: &Config, mine: &Report, other: Option<&Report>) -> bool {
        let summary = &mine.summary;
        match self {
            Claim::Overloaded => mine.series.peak_over_capacity() >= OVER,
            Claim::Absorbs => {
                mine.series.peak_over_capacity() < OVER && summary.success_rate >= SUCCEEDS
            }
            Claim::Succeeds => summary.success_rate >= SUCCEEDS,
            Claim::Fails => summary.success_rate < SUCCEEDS,
            Claim::StaysBroken => recovery(config, mine).is_some_and(|back| !back),
            Claim::Recovers => recovery(config, mine).is_some_and(|back| back),
            Claim::Amplified => summary.server_calls_per_operation >= AMPLIFIED,
            Claim::Wastes => Metric::WastedWork.value(mine) >= WASTES,
            Claim::BudgetPays => {
                let asked = (summary.retries + summary.budget_refusals) as f64;
                summary.retries > 0 && summary.budget_refusals as f64 <= REFUSES_FEW * asked
            }
            Claim::RefusesMost => summary.budget_refusals > summary.retries,
            Claim::Orphans => {
                let orphaned: u64 = summary.orphaned_attempts_by_layer.iter().sum();
                let calls = summary.first_tries + summary.retries;
                orphaned as f64 >= ORPHANS * calls.max(1) as f64
            }
            Claim::BrokenBeforeGap => broken_before_gap(config, mine).unwrap_or(false),
            Claim::QueueFills => {
                let limit = config.get(P::Queue);
                let most = mine.series.queue.iter().copied().fold(0.0, f64::max);
                limit > 0.0 && most >= FILLS * limit
            }
            Claim::HeldAtReset => summary.reset_herd.is_some_and(|herd| herd.retries > 0),
            Claim::Ahead(Metric::P50 | Metric::P99)
                if other
                    .is_none_or(|other| mine.latency.total == 0 || other.latency.total == 0) =>
            {
                false
            }
            Claim::Ahead(metric) => other.is_some_and(|other| {
                let (a, b) = match side {
                    Side::A => (metric.value(mine), metric.value(other)),
                    Side::B => (metric.value(other), metric.value(mine)),
                };
                let lead = metric.number().format.least_lead(a, b);
                metric.better().side(a, b) == Some(side) && (a - b).abs() >= lead
            }),
        }
    }

    /// The words that state the claim, as the English templates write
    /// them: a test fails where they show unguarded by it.
    pub fn phrases(self) -> &'static [&'static str] {
        match self {
            Claim::Overloaded => &["far above what the server can take", "the waves are back"],
            Claim::Absorbs => &["a hump the server absorbs"],
            Claim::Succeeds => &["success stays at"],
            Claim::Fails => &["success falls"],
            Claim::StaysBroken => &[
                "stays broken",
                "stays collapsed",
                "keep the server collapsed",
            ],
            Claim::Recovers => &["recovers"],
            Claim::Amplified => &["the load grows", "The same storm"],
            Claim::Wastes => &["work nobody waits for", "requests nobody waits for"],
            Claim::BudgetPays => &["pay for nearly every retry"],
            Claim::RefusesMost => &["most retries are refused"],
            Claim::Orphans => &["for nobody"],
            Claim::BrokenBeforeGap => &["long enough for the queue to drain"],
            Claim::QueueFills => &["drain a queue of"],
            Claim::HeldAtReset => &["between the first reset and the next"],
            Claim::Ahead(Metric::P99) => &["the tail is cut", "the tail grows"],
            Claim::Ahead(Metric::Calls) => &["and so send less"],
            Claim::Ahead(_) => &[],
        }
    }

    /// Every claim with words, for the test that holds the words to them.
    pub fn with_phrases() -> impl Iterator<Item = Claim> {
        Self::NAMED
            .into_iter()
            .map(|(_, c)| c)
            .chain([Claim::Ahead(Metric::P99), Claim::Ahead(Metric::Calls)])
    }
}

/// Whether the world was still broken when the traffic was first turned
/// away ([`Claim::BrokenBeforeGap`]); `None` where there is no gap after a
/// trigger, or no goodput before the trigger to compare with.
fn broken_before_gap(config: &Config, report: &Report) -> Option<bool> {
    use retry_analyses::map::{BACK, WINDOW};
    let gap = (P::SpikeAt.param().applies)(config)
        && config.get(P::SpikeFor) > 0.0
        && config.get(P::SpikeRate) == 0.0;
    let trigger = [P::OutageAt, P::DropAt]
        .into_iter()
        .zip([P::OutageFor, P::DropFor])
        .filter(|&(at, length)| (at.param().applies)(config) && config.get(length) > 0.0)
        .map(|(at, _)| config.get(at))
        .reduce(f64::min)?;
    let start = config.get(P::SpikeAt);
    if !gap || start <= trigger {
        return None;
    }
    let series = &report.series;
    let before = series.goodput((trigger - WINDOW).max(0.0), trigger);
    (before > 0.0).then(|| series.goodput((start - WINDOW).max(trigger), start) < BACK * before)
}

/// Whether the world's goodput at the end of the run is back to the map's
/// share of what it was before its trigger; `None` where the run cannot
/// tell: no trigger, no goodput before it, or too little run after it.
fn recovery(config: &Config, report: &Report) -> Option<bool> {
    use retry_analyses::map::{BACK, WINDOW};
    let windows = [
        (P::OutageAt, P::OutageFor),
        (P::DropAt, P::DropFor),
        (P::SpikeAt, P::SpikeFor),
    ];
    let (start, end) = windows
        .into_iter()
        .filter(|&(at, length)| (at.param().applies)(config) && config.get(length) > 0.0)
        .map(|(at, length)| (config.get(at), config.get(at) + config.get(length)))
        .reduce(|x, y| (x.0.min(y.0), x.1.max(y.1)))?;
    let until = report.summary.simulated_until.min(config.get(P::Horizon));
    if until - WINDOW < end {
        return None;
    }
    let series = &report.series;
    let before = series.goodput((start - WINDOW).max(0.0), start);
    (before > 0.0).then(|| series.goodput(until - WINDOW, until) >= BACK * before)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preset_link(key: &str) -> &'static str {
        crate::presets::PRESETS
            .iter()
            .find(|p| p.key == key)
            .expect("the preset")
            .link
    }

    fn runs(link: &str) -> (Config, Report, Option<Report>) {
        let (config, notices) = Config::from_link(link);
        assert_eq!(notices, [], "{link}");
        let (a, b) = retry_sim::simulate::run_both(&config);
        (config, a, b)
    }

    #[test]
    fn every_claim_is_named_and_read_back() {
        for (name, claim) in Claim::NAMED {
            assert_eq!(Claim::named(name), Some(claim));
        }
        assert_eq!(Claim::named("ahead_p99"), Some(Claim::Ahead(Metric::P99)));
        assert_eq!(Claim::named("ahead_nothing"), None);
        assert_eq!(Claim::named("busy"), None);
    }

    /// A herd without jitter overloads the server; one of a few clients,
    /// whose waves fit under the capacity, does not.
    #[test]
    fn overload_is_measured_against_the_capacity_line() {
        let herd = preset_link("herd");
        let (config, a, b) = runs(herd);
        let b = b.expect("comparing");
        assert!(Claim::Overloaded.holds(Side::A, &config, &a, Some(&b)));
        // 19 900 calls a second against 2 000 once the server is back.
        assert!(
            a.series.peak_over_capacity() > 9.9,
            "{}",
            a.series.peak_over_capacity()
        );
        let few = herd.replace("clients=2000", "clients=20");
        let (config, a, _) = runs(&few);
        assert!(!Claim::Overloaded.holds(Side::A, &config, &a, None));
        // Unlimited workers have no capacity line to stand above.
        let (config, a, _) = runs("v=1&workers=0&rate=500");
        assert_eq!(a.series.peak_over_capacity(), 0.0);
        assert!(!Claim::Overloaded.holds(Side::A, &config, &a, None));
    }

    /// The trigger preset's A stays broken after a capacity loss of 10 s,
    /// and recovers from one of 2 s; a world without a trigger is neither.
    #[test]
    fn broken_and_recovered_are_the_maps_judgement_at_the_runs_end() {
        let trigger = preset_link("trigger");
        let (config, a, b) = runs(trigger);
        let b = b.expect("comparing");
        assert!(Claim::StaysBroken.holds(Side::A, &config, &a, Some(&b)));
        assert!(!Claim::Recovers.holds(Side::A, &config, &a, Some(&b)));
        assert!(Claim::Recovers.holds(Side::B, &config.policy_b_config(), &b, Some(&a)));
        let (config, a, _) = runs(&trigger.replace("drop_for=10", "drop_for=2"));
        assert!(Claim::Recovers.holds(Side::A, &config, &a, None));
        let (config, a, _) = runs("v=1&rate=20");
        assert!(!Claim::StaysBroken.holds(Side::A, &config, &a, None));
        assert!(!Claim::Recovers.holds(Side::A, &config, &a, None));
    }

    /// Ahead is a lead that matters, on the side that has it.
    #[test]
    fn ahead_needs_the_least_lead_and_the_other_run() {
        let (config, a, b) = runs("v=1&compare=on&rate=20&attempts=1&failure=0.3&B.attempts=4");
        let b = b.expect("comparing");
        let success = Claim::Ahead(Metric::Success);
        assert!(success.holds(Side::B, &config, &b, Some(&a)));
        assert!(!success.holds(Side::A, &config, &a, Some(&b)));
        assert!(!success.holds(Side::A, &config, &a, None));
        // Against itself nothing is ahead.
        assert!(!success.holds(Side::A, &config, &a, Some(&a)));
    }
}
