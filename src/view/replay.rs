//! The replay: where each followed operation stands at an instant, the
//! instant a preset's lesson is about, and the sentence that says what
//! happens then. Pure, so the page only draws and wires what this decides.

use crate::chart::{Lane, Spot};
use crate::sim::trace::{Outcome, Trace, TracedAttempt, TracedOperation};
use crate::sim::{FailureKind, Report, Scenario};

/// Presets whose lesson is a moment: their replay opens at it.
pub const MOMENT_PRESETS: [&str; 5] = ["herd", "shared-seed", "storm", "budget", "contention"];

/// Slowest and fastest replay, in simulated seconds per second.
pub const SPEEDS: [f64; 7] = [0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0];

/// Where `operation` stands at `time`.
pub fn lane(operation: &TracedOperation, time: f64) -> Lane {
    let pausing = Lane {
        spot: Spot::Pausing,
        retry: false,
    };
    if time < operation.start {
        return Lane {
            spot: Spot::NotYet,
            retry: false,
        };
    }
    if time >= operation.end {
        let success = operation.ending == Some(crate::sim::trace::Ending::Succeeded);
        return Lane {
            spot: Spot::Done(success),
            retry: false,
        };
    }
    // The latest attempt sent by `time`.
    let sent = operation.recorded.partition_point(|a| a.sent <= time);
    let Some(index) = sent.checked_sub(1) else {
        return pausing;
    };
    let a = &operation.recorded[index];
    Lane {
        spot: attempt_spot(a, time),
        retry: index > 0,
    }
}

fn attempt_spot(a: &TracedAttempt, time: f64) -> Spot {
    if time >= a.answered {
        return Spot::Pausing;
    }
    let success = a.outcome == Outcome::Succeeded;
    if time < a.arrived {
        // A request that never arrives (its answer timed out first) is
        // drawn on its way for as long as the client waits.
        let end = if a.arrived.is_finite() {
            a.arrived
        } else {
            a.answered
        };
        return Spot::Outbound(fraction(time, a.sent, end));
    }
    if time < a.service_start {
        let refused = matches!(
            a.outcome,
            Outcome::Failed(FailureKind::Rejected | FailureKind::Connection)
        );
        return if a.service_start.is_finite() || !refused {
            Spot::Queued
        } else {
            // Refused on arrival (a full queue, the outage): straight back.
            Spot::Returning(1.0 - fraction(time, a.arrived, a.answered), success)
        };
    }
    if time < a.service_end {
        return Spot::InService;
    }
    let left = if a.service_end.is_finite() {
        a.service_end
    } else {
        a.arrived
    };
    Spot::Returning(1.0 - fraction(time, left, a.answered), success)
}

/// Where `time` falls between `from` and `to`, from 0 to 1.
fn fraction(time: f64, from: f64, to: f64) -> f64 {
    if to.is_finite() && to > from {
        ((time - from) / (to - from)).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// Every followed operation of a trace at `time`, in the order they started.
pub fn lanes(trace: &Trace, time: f64) -> Vec<Lane> {
    trace.operations.iter().map(|o| lane(o, time)).collect()
}

/// How many lanes stand where, for the sentence under the replay.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Census {
    pub travelling: usize,
    pub queued: usize,
    pub in_service: usize,
    pub pausing: usize,
    pub succeeded: usize,
    pub failed: usize,
}

pub fn tally(lanes: &[Lane]) -> Census {
    let mut t = Census::default();
    for lane in lanes {
        match lane.spot {
            Spot::NotYet => {}
            Spot::Pausing => t.pausing += 1,
            Spot::Outbound(_) | Spot::Returning(..) => t.travelling += 1,
            Spot::Queued => t.queued += 1,
            Spot::InService => t.in_service += 1,
            Spot::Done(true) => t.succeeded += 1,
            Spot::Done(false) => t.failed += 1,
        }
    }
    t
}

/// The instant a preset's lesson is about, in the run of policy A: the
/// first bucket, after any outage has ended, whose retries reach half of
/// the most any bucket from then on sends. For the herd that is the first
/// wave to hit the server once it is back; for the storm, the retries
/// piling up after the spike; for contention, the first burst of conflicts.
/// `None` when nothing was retried.
pub fn moment(report: &Report, scenario: &Scenario) -> Option<f64> {
    let series = &report.series;
    let from_time = if scenario.outage_duration > 0.0 {
        scenario.outage_start + scenario.outage_duration
    } else {
        0.0
    };
    let first = ((from_time / series.width).ceil() as usize).min(series.len());
    let retries = &series.retries[first..];
    let peak = *retries.iter().max()?;
    if peak == 0 {
        return None;
    }
    let at = retries.iter().position(|&r| 2 * r >= peak)?;
    Some((first + at) as f64 * series.width)
}

/// Where a preset's replay opens: for the presets whose lesson is a
/// moment, at the instant of its bucket when most followed operations are
/// on the wire or at the server (the wave itself, not the calm before it);
/// else at the start.
pub fn opening_time(
    preset: Option<&str>,
    report: &Report,
    scenario: &Scenario,
    trace: &Trace,
) -> f64 {
    if !preset.is_some_and(|key| MOMENT_PRESETS.contains(&key)) {
        return 0.0;
    }
    let Some(from) = moment(report, scenario) else {
        return 0.0;
    };
    const STEPS: u32 = 50;
    let busy = |time: f64| {
        let t = tally(&lanes(trace, time));
        t.travelling + t.queued + t.in_service
    };
    (0..STEPS)
        .map(|step| from + report.series.width * f64::from(step) / f64::from(STEPS))
        .fold((from, 0), |best, time| {
            let count = busy(time);
            if count > best.1 { (time, count) } else { best }
        })
        .0
}

/// Longest fragment read for the replay's instant: a number needs far less.
const MAX_FRAGMENT: usize = 64;

/// The fragment a share link carries the replay's instant in, `#at=6.26`.
/// It sits outside the query, so the settings, and every number the run
/// reports, do not depend on it. Rust writes the shortest text that reads
/// back to the same `f64`, so the instant comes back exactly.
pub fn instant_fragment(time: f64) -> String {
    format!("#at={time}")
}

/// The replay's instant a link's fragment names, if it names a finite,
/// non-negative one; anything else (a link is untrusted) is no instant.
pub fn instant_from_fragment(fragment: &str) -> Option<f64> {
    if fragment.len() > MAX_FRAGMENT {
        return None;
    }
    fragment
        .trim_start_matches('#')
        .split('&')
        .find_map(|pair| pair.strip_prefix("at="))
        .and_then(crate::decimal::parse_f64)
        .filter(|time| time.is_finite() && *time >= 0.0)
}

/// A count with its thousands apart: `1 850`.
pub fn grouped(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push('\u{2009}');
        }
        out.push(digit);
    }
    out
}

/// Seconds, to the precision the replay's clock shows.
pub fn seconds(time: f64) -> String {
    if time >= 100.0 {
        format!("{time:.1} s")
    } else {
        format!("{time:.2} s")
    }
}

/// One side of the replay, for the sentence: its name ("A", "B", or empty
/// alone), report and trace.
#[derive(Debug, Clone, Copy)]
pub struct Followed<'a> {
    pub name: &'a str,
    pub report: &'a Report,
    pub trace: &'a Trace,
}

/// What happens at `time`, in one line: the calls the whole run sends in
/// the bucket around it against what the server takes at once, then where
/// the followed operations stand.
pub fn describe(time: f64, scenario: &Scenario, sides: &[Followed<'_>]) -> String {
    let Some(first) = sides.first() else {
        return String::new();
    };
    let series = &first.report.series;
    let bucket = ((time / series.width) as usize).min(series.len().saturating_sub(1));
    let from = bucket as f64 * series.width;
    let window = seconds(series.width);
    let mut out = format!("t = {}: ", seconds(time));
    let calls: Vec<String> = sides
        .iter()
        .map(|side| {
            let s = &side.report.series;
            let (first_tries, retries) = (
                s.first_tries.get(bucket).copied().unwrap_or(0),
                s.retries.get(bucket).copied().unwrap_or(0),
            );
            let who = if side.name.is_empty() {
                String::from("the clients send")
            } else {
                format!("{} sends", side.name)
            };
            format!(
                "{who} {} retries and {} first tries",
                grouped(retries),
                grouped(first_tries)
            )
        })
        .collect();
    out += &calls.join(", ");
    out += &format!(" in the {window} from {}", seconds(from));
    let operations = first.report.summary.operations;
    out += &format!(" (of {} operations); ", grouped(operations));
    out += &if scenario.workers == 0 {
        String::from("the server takes every request at once.")
    } else {
        format!(
            "the server can take {} at once and queue {} more.",
            grouped(u64::from(scenario.workers)),
            grouped(u64::from(scenario.queue_limit))
        )
    };
    for side in sides {
        let t = tally(&lanes(side.trace, time));
        let followed = side.trace.operations.len();
        let whose = if side.name.is_empty() {
            String::new()
        } else {
            format!("{}'s ", side.name)
        };
        out += &format!(
            " Of {whose}{} followed: {} on the way, {} queued, {} in service, {} pausing, {} done, {} failed.",
            grouped(followed as u64),
            t.travelling,
            t.queued,
            t.in_service,
            t.pausing,
            t.succeeded,
            t.failed
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::PRESETS;
    use crate::sim;
    use crate::sim::trace::Ending;

    fn attempt(sent: f64, arrived: f64, start: f64, end: f64, answered: f64) -> TracedAttempt {
        TracedAttempt {
            sent,
            arrived,
            service_start: start,
            service_end: end,
            answered,
            outcome: Outcome::Succeeded,
            pause: f64::INFINITY,
        }
    }

    /// Followed operations with an attempt sent in `[from, to)`.
    fn sent_within(trace: &Trace, from: f64, to: f64) -> usize {
        trace
            .operations
            .iter()
            .filter(|o| o.recorded.iter().any(|a| a.sent >= from && a.sent < to))
            .count()
    }

    #[test]
    fn a_lane_follows_its_attempts() {
        let inf = f64::INFINITY;
        let failed = TracedAttempt {
            outcome: Outcome::Failed(FailureKind::Rejected),
            pause: 1.0,
            ..attempt(1.0, 1.1, inf, inf, 1.2)
        };
        let operation = TracedOperation {
            number: 0,
            start: 1.0,
            end: 3.6,
            ending: Some(Ending::Succeeded),
            attempts: 2,
            recorded: vec![failed, attempt(2.2, 2.4, 2.6, 3.0, 3.6)],
        };
        let at = |t| lane(&operation, t).spot;
        assert_eq!(at(0.5), Spot::NotYet);
        assert!(matches!(at(1.05), Spot::Outbound(f) if (f - 0.5).abs() < 1e-9));
        // Refused on arrival: straight back, a failure.
        assert!(matches!(at(1.15), Spot::Returning(r, false) if (r - 0.5).abs() < 1e-9));
        assert_eq!(at(1.5), Spot::Pausing);
        assert_eq!(at(2.5), Spot::Queued);
        assert_eq!(at(2.8), Spot::InService);
        assert!(matches!(at(3.3), Spot::Returning(r, true) if (r - 0.5).abs() < 1e-9));
        assert_eq!(at(3.6), Spot::Done(true));
        assert!(lane(&operation, 2.8).retry);
        assert!(!lane(&operation, 1.05).retry);
    }

    fn preset_runs(key: &str) -> (Scenario, Report, Trace) {
        let preset = PRESETS.iter().find(|p| p.key == key).expect("preset");
        let mut scenario = preset.config().scenario();
        scenario.work_limit = crate::simulate::WORK_LIMIT;
        let (report, trace) = sim::run_traced(&scenario);
        (scenario.sanitized(), report, trace)
    }

    /// The herd's policy A retries without jitter after failing fast at 0:
    /// its pauses double from 0.2 s, so its retries go at 0.2, 0.6, 1.4,
    /// 3.0 and 6.2 s; the outage ends at 5 s, and the first wave the
    /// server meets is the one at 6.2 s.
    #[test]
    fn the_herd_opens_at_its_first_wave_after_the_outage() {
        let (scenario, report, trace) = preset_runs("herd");
        let wave = moment(&report, &scenario).expect("A retries");
        assert!((6.2..6.3).contains(&wave), "{wave}");
        // Most followed clients retry together, within one bucket.
        assert!(sent_within(&trace, wave, wave + report.series.width) > 150);
        // The replay opens inside that bucket, with the wave under way.
        let at = opening_time(Some("herd"), &report, &scenario, &trace);
        assert!(at >= wave && at < wave + report.series.width, "{at}");
        let busy = |time: f64| {
            let t = tally(&lanes(&trace, time));
            t.travelling + t.queued + t.in_service
        };
        assert!(
            busy(at) > 50 && busy(wave) < 10,
            "{} then {}",
            busy(wave),
            busy(at)
        );
        assert_eq!(
            opening_time(Some("deadline"), &report, &scenario, &trace),
            0.0
        );
        let text = describe(
            at,
            &scenario,
            &[Followed {
                name: "",
                report: &report,
                trace: &trace,
            }],
        );
        assert!(text.starts_with("t = 6.2"), "{text}");
        assert!(
            text.contains(" s: the clients send 1\u{2009}990 retries"),
            "{text}"
        );
        assert!(
            text.contains("the server can take 100 at once and queue 200 more"),
            "{text}"
        );
        assert!(text.contains("Of 200 followed:"), "{text}");
    }

    /// With full jitter, policy B's clients are spread out at the same
    /// instant: far fewer of them at the server at once.
    #[test]
    fn jitter_spreads_the_wave() {
        let (scenario, a, a_trace) = preset_runs("herd");
        let preset = PRESETS.iter().find(|p| p.key == "herd").expect("herd");
        let b_scenario = preset.config().policy_b_config().scenario();
        let (b, b_trace) = sim::run_traced(&b_scenario);
        let at = moment(&a, &scenario).expect("A retries");
        let busy = |trace: &Trace| sent_within(trace, at, at + a.series.width);
        assert!(
            busy(&b_trace) * 3 < busy(&a_trace),
            "{} vs {}",
            busy(&b_trace),
            busy(&a_trace)
        );
        let text = describe(
            at,
            &scenario,
            &[
                Followed {
                    name: "A",
                    report: &a,
                    trace: &a_trace,
                },
                Followed {
                    name: "B",
                    report: &b,
                    trace: &b_trace,
                },
            ],
        );
        assert!(
            text.contains("A sends") && text.contains(", B sends"),
            "{text}"
        );
        assert!(text.contains("Of B's 200 followed"), "{text}");
    }

    #[test]
    fn every_moment_preset_has_a_moment() {
        for key in MOMENT_PRESETS {
            let (scenario, report, _) = preset_runs(key);
            let at = moment(&report, &scenario).unwrap_or_else(|| panic!("{key}"));
            assert!(at < scenario.horizon, "{key}: {at}");
        }
    }

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(grouped(7), "7");
        assert_eq!(grouped(1850), "1\u{2009}850");
        assert_eq!(grouped(2_000_000), "2\u{2009}000\u{2009}000");
    }

    #[test]
    fn the_instant_goes_into_a_fragment_and_comes_back_exactly() {
        for time in [0.0, 6.26, 15.000000000000002, 1.0 / 3.0, 29.999] {
            let fragment = instant_fragment(time);
            assert_eq!(instant_from_fragment(&fragment), Some(time), "{fragment}");
        }
        assert_eq!(instant_fragment(6.26), "#at=6.26");
        assert_eq!(instant_from_fragment("#x=1&at=2.5"), Some(2.5));
        for hostile in [
            "",
            "#",
            "#at=",
            "#at=-1",
            "#at=NaN",
            "#at=inf",
            "#at=1e999",
            "#at=<img src=x>",
            "#AT=3",
        ] {
            assert_eq!(instant_from_fragment(hostile), None, "{hostile}");
        }
        let long = format!("#at=1{}", "0".repeat(100));
        assert_eq!(instant_from_fragment(&long), None);
    }
}
