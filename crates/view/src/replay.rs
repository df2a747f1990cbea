//! The replay: where each followed operation stands at an instant, the
//! instant a preset's lesson is about, and the sentence that says what
//! happens then. Pure, so the page only draws and wires what this decides.

use retry_draw::{Beside, Lane, Spot};
use retry_sim::sim::trace::{Outcome, Trace, TracedAttempt, TracedOperation};
use retry_sim::sim::{FailureKind, Report, Scenario};

/// Presets whose lesson is a moment: their replay opens at it.
pub const MOMENT_PRESETS: [&str; 7] = [
    "herd",
    "shared-seed",
    "storm",
    "budget",
    "contention",
    "stability-sim",
    "trigger",
];

/// Where `operation` stands at `time`.
pub fn lane(operation: &TracedOperation, time: f64) -> Lane {
    if time < operation.start {
        return Lane::at(Spot::NotYet, false);
    }
    if operation.recorded.iter().any(|a| a.for_nobody) {
        return chained(operation, time);
    }
    if time >= operation.end {
        return Lane::at(Spot::Done(succeeded(operation)), false);
    }
    // The latest attempt sent by `time`.
    let sent = operation.recorded.partition_point(|a| a.sent <= time);
    let Some(index) = sent.checked_sub(1) else {
        return Lane::at(Spot::Pausing, false);
    };
    if operation.recorded.iter().any(|a| a.copy) {
        return hedged(&operation.recorded[..sent], time);
    }
    Lane::at(attempt_spot(&operation.recorded[index], time), index > 0)
}

fn succeeded(operation: &TracedOperation) -> bool {
    operation.ending == Some(retry_sim::sim::trace::Ending::Succeeded)
}

/// The lane of an operation through a chain whose services made calls
/// for a caller that had already given up: the latest call made for it
/// while still out (else a client pausing between its tries, or its end),
/// and beside it, in grey, its other calls still out, for nobody, after
/// its end too: the caller gave up, the callee kept working.
fn chained(operation: &TracedOperation, time: f64) -> Lane {
    let sent = &operation.recorded[..operation.recorded.partition_point(|a| a.sent <= time)];
    let live = time < operation.end;
    let awaited = sent
        .iter()
        .rposition(|a| !a.for_nobody)
        .filter(|&i| live && time < sent[i].answered);
    let mut lane = match awaited {
        Some(i) => Lane::at(attempt_spot(&sent[i], time), i > 0),
        None if live => Lane::at(Spot::Pausing, false),
        None => Lane::at(Spot::Done(succeeded(operation)), false),
    };
    let others = sent
        .iter()
        .enumerate()
        .filter(|&(i, a)| Some(i) != awaited && time < a.answered);
    for (slot, (_, a)) in lane.beside.iter_mut().zip(others) {
        *slot = Some((attempt_spot(a, time), Beside::ForNobody));
    }
    lane
}

/// A hedged operation's lane: every call still out at `time`, the latest
/// in front; a client between calls (all out have answered) pauses.
fn hedged(sent: &[TracedAttempt], time: f64) -> Lane {
    let mut out = sent.iter().filter(|a| time < a.answered);
    let Some(latest) = out.next_back() else {
        return Lane::at(Spot::Pausing, false);
    };
    let mut lane = Lane::at(attempt_spot(latest, time), false);
    lane.copy = latest.copy;
    for (slot, a) in lane.beside.iter_mut().zip(out) {
        let kind = if a.copy { Beside::Copy } else { Beside::First };
        *slot = Some((attempt_spot(a, time), kind));
    }
    lane
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

/// Speeds the replay offers, in simulated seconds per second of wall
/// time: from a hundredth, at which a contended row's round trips of a
/// few tens of milliseconds take a second or two, to ten, at which a
/// storm's minute goes by in six seconds.
pub const SPEEDS: [f64; 10] = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0];

/// Wall seconds in which the opening's calls should go out and come back:
/// slow enough to follow one dot with the eye, quick enough that the
/// wave has crossed the lanes before the reader wonders whether it plays.
const CROSSING: f64 = 2.0;
/// Wall seconds of play within which the wave after the moment's arrives:
/// a reader who presses Play sees the next one without waiting a minute.
const NEXT_WAVE: f64 = 10.0;

/// Where and how fast a replay opens.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Opening {
    pub time: f64,
    /// Simulated seconds per second of wall time, one of [`SPEEDS`].
    pub speed: f64,
    /// The moment's bucket (the opening's first bucket without a moment):
    /// the lanes shown are first those that send a call in it...
    pub wave: (f64, f64),
    /// ...then those busy in the span of simulated time the first couple
    /// of seconds of play show.
    pub window: (f64, f64),
}

/// Where a replay opens and at what speed. For the presets whose lesson is
/// a moment: inside the moment's bucket (which the line under the replay
/// describes), at the instant the most of its followed calls are in flight, so
/// the still replay already shows the wave the line counts. Otherwise at
/// the start. The speed lets the calls sent in that bucket (the first
/// calls sent, without a moment) make their round trip in about
/// [`CROSSING`] seconds, the first second of play reach the end of the
/// moment's bucket, so the whole wave moves within it, and the next wave
/// come within [`NEXT_WAVE`] seconds of play.
pub fn opening(
    preset: Option<&str>,
    report: &Report,
    scenario: &Scenario,
    trace: &Trace,
) -> Opening {
    let width = report.series.width;
    let at = if preset.is_some_and(|key| MOMENT_PRESETS.contains(&key)) {
        moment(report, scenario)
    } else {
        None
    };
    let from = at.unwrap_or(0.0);
    // The calls of the moment's bucket; without any, the first bucket's
    // worth of calls sent.
    let mut wave = (from, from + width);
    let (mut trips, mut first) = calls_in(trace, wave);
    if !first.is_finite() {
        let (_, start) = calls_in(trace, (from, f64::INFINITY));
        wave = (start, start + width);
        (trips, first) = calls_in(trace, wave);
    }
    // Most of the wave's round trips, not the fastest refusals alone.
    let trip = quantile(&trips, 0.9).unwrap_or(1.0);
    let mut speed = nearest_speed(trip / CROSSING);
    let mut time = 0.0;
    if at.is_some() && first.is_finite() {
        time = busiest(trace, wave).unwrap_or(first).max(from);
        // The first second of play reaches the end of the moment's bucket,
        // and the next wave comes within NEXT_WAVE seconds.
        let reach = (from + width - time)
            .max(next_wave(report, from).map_or(0.0, |next| (next - time) / NEXT_WAVE));
        speed = SPEEDS
            .iter()
            .copied()
            .find(|s| *s >= speed && *s >= reach)
            .unwrap_or(speed);
    }
    let window = (time, time + CROSSING * speed);
    Opening {
        time,
        speed,
        wave: if at.is_some() { wave } else { window },
        window,
    }
}

/// Instants [`busiest`] weighs across a span: a bound on its work however
/// many calls a trace holds (200 operations of 32 attempts each at most).
const CANDIDATES: usize = 100;

/// The instant in `span` at which the most calls sent within it are in
/// flight (sent, not yet answered), among [`CANDIDATES`] instants evenly
/// across it, from its first call's sending; `None` without a call.
fn busiest(trace: &Trace, (from, to): (f64, f64)) -> Option<f64> {
    let calls: Vec<(f64, f64)> = trace
        .operations
        .iter()
        .flat_map(|o| o.recorded.iter())
        .filter(|a| a.sent >= from && a.sent < to)
        .map(|a| (a.sent, a.answered))
        .collect();
    let first = calls.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
    if !first.is_finite() {
        return None;
    }
    let flying = |t: f64| calls.iter().filter(|&&(s, a)| s <= t && a > t).count();
    let mut best = (flying(first), first);
    for k in 1..CANDIDATES {
        let t = first + (to - first) * k as f64 / CANDIDATES as f64;
        let count = flying(t);
        if count > best.0 {
            best = (count, t);
        }
    }
    Some(best.1)
}

/// When the wave after the one at `from` starts in policy A's run: the
/// first bucket, after the retries fell under half of the moment's, whose
/// retries are back to half of it; `None` without one.
fn next_wave(report: &Report, from: f64) -> Option<f64> {
    let series = &report.series;
    let start = ((from / series.width).round() as usize).min(series.len());
    let retries = &series.retries[start..];
    let peak = *retries.first()?;
    let calm = retries.iter().position(|&r| 2 * r < peak)?;
    let back = retries[calm..].iter().position(|&r| 2 * r >= peak)?;
    Some((start + calm + back) as f64 * series.width)
}

/// The round trips (sent to answered) of the calls sent within `span`,
/// and when the first of them was sent.
fn calls_in(trace: &Trace, (from, to): (f64, f64)) -> (Vec<f64>, f64) {
    let (mut trips, mut first) = (Vec::new(), f64::INFINITY);
    for operation in &trace.operations {
        for a in operation
            .recorded
            .iter()
            .filter(|a| a.sent >= from && a.sent < to)
        {
            first = first.min(a.sent);
            let trip = a.answered - a.sent;
            if trip.is_finite() {
                trips.push(trip);
            }
        }
    }
    (trips, first)
}

/// The value at or below which a share `q` of `values` lie, found by
/// halving the range rather than by sorting: a sort brings kilobytes of
/// code into the page, and this runs once per replay.
fn quantile(values: &[f64], q: f64) -> Option<f64> {
    let (mut low, mut high) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| {
            (l.min(v), h.max(v))
        });
    if low > high {
        return None;
    }
    let wanted = ((q * values.len() as f64).ceil() as usize).max(1);
    for _ in 0..60 {
        let middle = low + (high - low) / 2.0;
        if values.iter().filter(|&&v| v <= middle).count() >= wanted {
            high = middle;
        } else {
            low = middle;
        }
    }
    Some(high)
}

/// The offered speed nearest to `speed`, in ratio.
fn nearest_speed(speed: f64) -> f64 {
    let distance = |s: f64| (s / speed).max(speed / s);
    SPEEDS.iter().fold(SPEEDS[0], |best, &s| {
        if distance(s) < distance(best) {
            s
        } else {
            best
        }
    })
}

/// Which followed operations the replay shows, lane by lane: each lane the
/// indices in the trace of the operations it shows one after another
/// (never two at once), in the order they were laid out.
pub type Shown = Vec<Vec<usize>>;

/// The operations worth showing, most telling first, by number: those
/// that send a call in the opening's wave, then those busy in its window,
/// then those that start after it, then the rest. Built class by class
/// in the trace's own order (that of the operations' start), not sorted:
/// a sort brings kilobytes of code into the page.
pub fn priority(trace: &Trace, opening: &Opening) -> Vec<u64> {
    let sends = |o: &TracedOperation, (from, to): (f64, f64)| {
        o.recorded.iter().any(|a| a.sent >= from && a.sent < to)
    };
    let (from, to) = opening.window;
    let class = |o: &TracedOperation| {
        if sends(o, opening.wave) {
            0
        } else if o.start < to && o.end >= from {
            1
        } else if o.start >= to {
            2
        } else {
            3
        }
    };
    let mut order = Vec::with_capacity(trace.operations.len());
    for wanted in 0..4 {
        order.extend(
            trace
                .operations
                .iter()
                .filter(|o| class(o) == wanted)
                .map(|o| o.number),
        );
    }
    order
}

/// Lays the operations `priority` names into at most `room` lanes: each in
/// the first lane free for its whole span and `hold` seconds after (its
/// end stays in sight that long), and left out once no lane is free. A
/// lane then follows a client's operations one after the other, and as
/// many lanes are drawn as can be told apart; the herd's clients each have
/// one, while a stream of short operations shares a few. Every side of the
/// replay lays out the same numbers, so A and B follow the same clients.
/// Lanes stand in the order they were opened, the moment's first.
pub fn lay_out(trace: &Trace, priority: &[u64], room: usize, hold: f64) -> Shown {
    let mut lanes: Vec<Vec<usize>> = Vec::new();
    for &number in priority {
        // The operations are in the order they started, which is their number's.
        let Ok(i) = trace.operations.binary_search_by_key(&number, |o| o.number) else {
            continue;
        };
        let o = &trace.operations[i];
        let free = |lane: &Vec<usize>| {
            lane.iter().all(|&j| {
                let other = &trace.operations[j];
                o.start >= other.end + hold || other.start >= o.end + hold
            })
        };
        match lanes.iter().position(free) {
            Some(lane) => lanes[lane].push(i),
            None if lanes.len() < room => lanes.push(vec![i]),
            None => {}
        }
    }
    lanes
}

/// Where each lane stands at `time`: the operation it shows then (the
/// latest one started by `time`, which may have ended).
pub fn lanes(trace: &Trace, shown: &Shown, time: f64) -> Vec<Lane> {
    shown
        .iter()
        .map(|lane| {
            // A later index started later: the trace is in start order.
            let latest = lane
                .iter()
                .copied()
                .filter(|&i| trace.operations[i].start <= time)
                .max();
            match latest {
                Some(i) => self::lane(&trace.operations[i], time),
                None => Lane::at(Spot::NotYet, false),
            }
        })
        .collect()
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
        retry_core::words::number(&format!("{time:.1} s"))
    } else {
        retry_core::words::number(&format!("{time:.2} s"))
    }
}

/// One side of the replay, for the sentence: its name ("A", "B", or empty
/// alone) and report.
#[derive(Debug, Clone, Copy)]
pub struct Followed<'a> {
    pub name: &'a str,
    pub report: &'a Report,
}

/// What happens at `time`, in one short sentence: the calls the whole run
/// sends in the bucket around it, each side's, against what the server
/// takes at once. Where the followed operations stand, the drawing shows.
pub fn describe(time: f64, scenario: &Scenario, sides: &[Followed<'_>]) -> String {
    let Some(first) = sides.first() else {
        return String::new();
    };
    let series = &first.report.series;
    let bucket = ((time / series.width) as usize).min(series.len().saturating_sub(1));
    let calls = |side: &Followed<'_>| {
        let s = &side.report.series;
        let count = s.first_tries.get(bucket).copied().unwrap_or(0)
            + s.retries.get(bucket).copied().unwrap_or(0);
        grouped(count)
    };
    let mut out = match first.name {
        "" => retry_core::tf!(
            "At {t}, the clients send {calls} calls in {width}",
            t = seconds(time),
            calls = calls(first),
            width = seconds(series.width)
        ),
        name => retry_core::tf!(
            "At {t}, {name} sends {calls} calls in {width}",
            t = seconds(time),
            name = name,
            calls = calls(first),
            width = seconds(series.width)
        ),
    };
    for side in &sides[1..] {
        // "B 39" after A's sentence; Russian needs a dash there.
        out += &retry_core::tf!(", {name} {calls}", name = side.name, calls = calls(side));
    }
    out += &if scenario.workers == 0 {
        retry_core::words::tr("; the server can serve any number at once.").to_string()
    } else {
        retry_core::tf!(
            "; the server can serve {n} at once.",
            n = grouped(u64::from(scenario.workers))
        )
    };
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use retry_sim::sim;
    use retry_sim::sim::trace::Ending;
    use retry_teach::presets::PRESETS;

    fn attempt(sent: f64, arrived: f64, start: f64, end: f64, answered: f64) -> TracedAttempt {
        TracedAttempt {
            sent,
            arrived,
            service_start: start,
            service_end: end,
            answered,
            outcome: Outcome::Succeeded,
            pause: f64::INFINITY,
            copy: false,
            for_nobody: false,
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

    /// A hedged operation's trace records each copy's own answer, copies
    /// answering in any order: on the hedge preset's B, every operation
    /// that succeeded has exactly one successful call, answered when the
    /// operation ended, every call after the first is a copy, and some
    /// operation's first call was still out when its copy went; the lane
    /// then shows both calls, the copy as a copy.
    #[test]
    fn a_hedge_traces_each_copys_answer_and_its_lane_shows_every_call_out() {
        let preset = PRESETS.iter().find(|p| p.key == "hedge").expect("preset");
        let b = preset.config().policy_b_config();
        let (_, trace) = sim::run_traced(&retry_sim::simulate::scenario(&b));
        let mut both_out = 0;
        for operation in &trace.operations {
            let calls = &operation.recorded;
            assert!(calls.iter().skip(1).all(|a| a.copy), "{operation:?}");
            assert!(!calls[0].copy);
            if operation.ending == Some(Ending::Succeeded) {
                let won: Vec<_> = calls
                    .iter()
                    .filter(|a| a.outcome == Outcome::Succeeded)
                    .collect();
                assert_eq!(won.len(), 1, "{operation:?}");
                assert_eq!(won[0].answered, operation.end);
                // Its own answer: it was served before it came back.
                assert!(won[0].service_end <= won[0].answered, "{operation:?}");
            }
            if let [first, copy, ..] = calls[..] {
                let at = copy.sent;
                if first.answered > at && at < operation.end {
                    both_out += 1;
                    let shown = lane(operation, at);
                    assert!(shown.copy, "{operation:?}");
                    assert!(
                        matches!(shown.beside[0], Some((_, Beside::First))),
                        "{shown:?}"
                    );
                }
            }
        }
        assert!(both_out > 0, "no copy went while its first call was out");
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

    /// Through a chain, a lane shows the call made for its operation, and
    /// beside it in grey the calls its services made for a caller that had
    /// given up, while they are out: here the top gave up on its first
    /// call at 1.4 (the service below went on, its call in service until
    /// 2.0 and a retry sent at 2.1 for nobody), its second call succeeded
    /// at 2.5, and the retry below is still served after the end.
    #[test]
    fn through_a_chain_a_lane_shows_the_calls_for_nobody_in_grey() {
        let first = attempt(1.0, 1.0, 1.0, 2.0, 2.0);
        let second = attempt(1.5, 1.5, 1.6, 2.4, 2.5);
        let for_nobody = TracedAttempt {
            for_nobody: true,
            ..attempt(2.1, 2.1, 2.2, 3.0, 3.0)
        };
        let operation = TracedOperation {
            number: 0,
            start: 1.0,
            end: 2.5,
            ending: Some(Ending::Succeeded),
            attempts: 3,
            recorded: vec![first, second, for_nobody],
        };
        let at = |t| lane(&operation, t);
        // Before the top gave up, its one call.
        assert_eq!(at(1.2).spot, Spot::InService);
        assert_eq!(at(1.2).beside, [None; 4]);
        // Its second call queued, the first still served for nobody.
        let both = at(1.55);
        assert_eq!(both.spot, Spot::Queued);
        assert!(both.retry);
        assert_eq!(both.beside[0], Some((Spot::InService, Beside::ForNobody)));
        // The retry below for nobody beside the second call.
        assert_eq!(
            at(2.3).beside[0],
            Some((Spot::InService, Beside::ForNobody))
        );
        // After the end: done, and the work below goes on.
        let after = at(2.7);
        assert_eq!(after.spot, Spot::Done(true));
        assert_eq!(after.beside[0], Some((Spot::InService, Beside::ForNobody)));
        assert_eq!(at(3.0).beside, [None; 4]);
    }

    /// The orphans preset's trace marks the calls made for nobody as the
    /// tally counts them, and some lane of it shows one beside a finished
    /// operation.
    #[test]
    fn the_orphans_replay_shows_the_database_working_for_nobody() {
        let (_, report, trace) = preset_runs("orphans");
        let marked = trace
            .operations
            .iter()
            .flat_map(|o| &o.recorded)
            .filter(|a| a.for_nobody)
            .count();
        assert!(marked > 0 && report.summary.orphaned_attempts_by_layer[1] > 0);
        let after_the_end = trace.operations.iter().any(|o| {
            o.end.is_finite()
                && o.recorded
                    .iter()
                    .any(|a| a.sent < o.end && a.answered > o.end + 0.01)
                && lane(o, o.end + 0.005).beside[0].is_some()
        });
        assert!(after_the_end, "no lane shows work below after its end");
    }

    fn preset_runs(key: &str) -> (Scenario, Report, Trace) {
        let preset = PRESETS.iter().find(|p| p.key == key).expect("preset");
        let mut scenario = preset.config().scenario();
        scenario.work_limit = retry_sim::simulate::WORK_LIMIT;
        let (report, trace) = sim::run_traced(&scenario);
        (scenario.sanitized(), report, trace)
    }

    /// Lanes a laptop's replay holds side by side (a canvas of 1 400 x 405
    /// CSS pixels, two panels), and a phone's stacked (360 x 380).
    fn rooms() -> [usize; 2] {
        let theme = retry_draw::Theme::light(1.0);
        [
            retry_draw::lane_room((1400, 405), 2, &theme),
            retry_draw::lane_room((360, 380), 2, &theme),
        ]
    }

    #[test]
    fn as_many_lanes_as_can_be_told_apart() {
        assert_eq!(rooms(), [39, 15]);
    }

    /// The herd's policy A retries without jitter after failing fast at 0:
    /// its pauses double from 0.2 s, so its retries go at 0.2, 0.6, 1.4,
    /// 3.0 and 6.2 s; the outage ends at 5 s, and the first wave the
    /// server meets is the one at 6.2 s, the next at 12.6 s. The replay
    /// opens on the wave, inside its bucket, at the instant the most of its
    /// followed calls are in flight (the dots the line under it counts), at real
    /// time, at which the next wave is 6.4 s of watching away (at a tenth
    /// it was 64 s).
    #[test]
    fn the_herd_opens_on_its_first_wave_after_the_outage() {
        let (scenario, report, trace) = preset_runs("herd");
        let wave = moment(&report, &scenario).expect("A retries");
        assert!((6.2..6.3).contains(&wave), "{wave}");
        // Most followed clients retry together, within one bucket.
        let sent = sent_within(&trace, wave, wave + report.series.width);
        assert!(sent > 150);
        let open = opening(Some("herd"), &report, &scenario, &trace);
        assert!(
            open.time >= wave && open.time < wave + report.series.width,
            "{open:?}"
        );
        let flying = trace
            .operations
            .iter()
            .flat_map(|o| o.recorded.iter())
            .filter(|a| a.sent <= open.time && a.answered > open.time)
            .count();
        // The wave spreads over its bucket (each client failed first at its
        // own instant): 78 of its 198 followed calls fly at once.
        assert!(
            4 * flying > sent,
            "{flying} of {sent} in flight at {open:?}"
        );
        let next = next_wave(&report, wave).expect("a next wave");
        assert!((12.6..12.7).contains(&next), "{next}");
        assert_eq!(open.speed, 1.0);
        assert!((next - open.time) / open.speed <= NEXT_WAVE);
        let plain = opening(Some("deadline"), &report, &scenario, &trace);
        assert_eq!(plain.time, 0.0);
        let text = describe(
            open.time,
            &scenario,
            &[Followed {
                name: "",
                report: &report,
            }],
        );
        assert!(
            text.starts_with("At 6.2") && text.ends_with(" s, the clients send 1\u{2009}990 calls in 0.10 s; the server can serve 100 at once."),
            "{text}"
        );
    }

    /// Within one second of Play at the opening speed, the moment moves:
    /// the lanes shown are those whose operation sends a call in the
    /// moment's bucket (as many as the trace has and the room holds), half
    /// of them at least have a call in flight at one of that second's frames,
    /// and every one whose call is on its way, served or coming back at a
    /// frame (not all that second in the queue, where a call stands still),
    /// by the trace's own times, changes its spot.
    #[test]
    fn within_a_second_of_play_the_moment_moves() {
        use crate::jobs::{Job, Step, Wants};
        const FRAMES: u32 = 60;
        for key in MOMENT_PRESETS {
            let preset = PRESETS.iter().find(|p| p.key == key).expect("preset");
            let wants = Wants {
                traced: true,
                contention: false,
                map: false,
                search: false,
            };
            let mut job = Job::new(&preset.config(), wants, retry_core::chart_id::ChartId::Load);
            while job.step(1 << 20) != Step::Final {}
            let runs = job.runs().expect("the runs are done");
            let clip = crate::player::Clip::new(&preset.config(), Some(key), runs).expect("a clip");
            let (from, to) = clip.opened.wave;
            let trace = &runs.traces[0];
            let frame = |k: u32| clip.time + clip.speed * f64::from(k) / f64::from(FRAMES);
            for room in rooms() {
                let shown = clip.shown(room);
                let waves =
                    |o: &TracedOperation| o.recorded.iter().any(|a| a.sent >= from && a.sent < to);
                // On its way, served or coming back at a frame: not waiting
                // in the queue, where a call stands still by design (a
                // collapsed server's queue holds calls for seconds).
                let moving = |a: &TracedAttempt, t: f64| {
                    a.sent <= t && t < a.answered && !(a.arrived <= t && t < a.service_start)
                };
                let in_sight = |o: &TracedOperation| {
                    o.recorded.iter().any(|a| {
                        a.sent >= from
                            && a.sent < to
                            && (0..=FRAMES).any(|k| a.sent <= frame(k) && frame(k) < a.answered)
                    })
                };
                let in_motion = |o: &TracedOperation| {
                    o.recorded.iter().any(|a| {
                        a.sent >= from && a.sent < to && (0..=FRAMES).any(|k| moving(a, frame(k)))
                    })
                };
                let any = |lane: &Vec<usize>, test: &dyn Fn(&TracedOperation) -> bool| {
                    lane.iter().any(|&i| test(&trace.operations[i]))
                };
                let waving = trace.operations.iter().filter(|o| waves(o)).count();
                let shown_waving = shown[0].iter().filter(|l| any(l, &waves)).count();
                assert_eq!(shown_waving, waving.min(room), "{key}: the moment's lanes");
                let implied = shown[0].iter().filter(|l| any(l, &in_sight)).count();
                // At the speed the next wave asks for (real time for the
                // herd), a refusal that comes back within a frame (17 ms)
                // is never drawn: half of the wave's lanes at least.
                assert!(
                    implied > 0 && implied * 2 >= shown_waving,
                    "{key}: {implied} of {shown_waving} calls last a frame"
                );
                let frames: Vec<Vec<Lane>> = (0..=FRAMES)
                    .map(|k| lanes(trace, &shown[0], frame(k)))
                    .collect();
                let moved = (0..shown[0].len())
                    .filter(|&lane| frames.iter().any(|f| f[lane].spot != frames[0][lane].spot))
                    .count();
                let implied = shown[0].iter().filter(|l| any(l, &in_motion)).count();
                assert!(
                    moved >= implied,
                    "{key}, {room} lanes: {moved} moved, the moment implies {implied}"
                );
            }
        }
    }

    /// A stream of short operations shares a few lanes, each showing one
    /// operation after another without overlap; a crowd of clients that
    /// all last the run gets one lane each, as many as fit.
    #[test]
    fn lanes_show_one_operation_at_a_time() {
        let (_, report, trace) = preset_runs("deadline");
        let open = opening(None, &report, &Scenario::default(), &trace);
        let order = priority(&trace, &open);
        assert_eq!(order.len(), trace.operations.len());
        let shown = lay_out(&trace, &order, 15, 0.5);
        assert!(shown.len() <= 15);
        let mut all: Vec<usize> = shown.concat();
        all.sort_unstable();
        all.dedup();
        // 200 operations of up to 2 s, at 10 a second: not all fit, but
        // many more than the lanes.
        assert_eq!(shown.len(), 15);
        assert!(all.len() > 5 * shown.len(), "{} shown", all.len());
        for lane in &shown {
            let mut lane = lane.clone();
            lane.sort_unstable();
            for pair in lane.windows(2) {
                let (p, q) = (&trace.operations[pair[0]], &trace.operations[pair[1]]);
                assert!(q.start >= p.end + 0.5, "{p:?} then {q:?}");
            }
        }
        let (_, _, herd) = preset_runs("herd");
        let (scenario, report, _) = preset_runs("herd");
        let open = opening(Some("herd"), &report, &scenario, &herd);
        let shown = lay_out(&herd, &priority(&herd, &open), 39, 0.2);
        assert_eq!(shown.len(), 39);
        assert!(shown.iter().all(|lane| lane.len() == 1));
    }

    #[test]
    fn speeds_suit_the_world() {
        let near = |value: f64, wanted: f64| (value - wanted).abs() < 1e-9;
        assert!(quantile(&[], 0.9).is_none());
        let hundred: Vec<f64> = (1..=100).map(f64::from).collect();
        assert!(near(quantile(&hundred, 0.9).expect("values"), 90.0));
        assert!(near(quantile(&[3.0], 0.9).expect("one value"), 3.0));
        assert_eq!(nearest_speed(0.075), 0.1);
        assert_eq!(nearest_speed(0.0001), 0.01);
        assert_eq!(nearest_speed(1.4), 1.0);
        assert_eq!(nearest_speed(1e9), 10.0);
        for key in MOMENT_PRESETS {
            let (scenario, report, trace) = preset_runs(key);
            let open = opening(Some(key), &report, &scenario, &trace);
            let at = moment(&report, &scenario).expect("a moment");
            assert!(SPEEDS.contains(&open.speed), "{key}");
            assert!(
                open.time >= at && open.time < at + report.series.width,
                "{key}: {open:?}"
            );
            assert!(
                open.time + open.speed >= at + report.series.width,
                "{key}: {open:?}"
            );
        }
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
                },
                Followed {
                    name: "B",
                    report: &b,
                },
            ],
        );
        assert!(
            text.starts_with("At 6.20 s, A sends 1\u{2009}990 calls in 0.10 s, B "),
            "{text}"
        );
        assert!(text.len() < 100, "one short sentence: {text}");
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
}
