//! The totals of a run that the [`Recorder`] does not keep, and the report
//! made of both when the run ends.

use super::World;
use crate::sim::Scenario;
use crate::sim::WorkloadKind;
use crate::sim::recorder::{Recorded, Recorder};
use crate::sim::report::{Cut, CutReason, LatencyHistogram, PAUSE_HISTOGRAMS, Report, Summary};
use crate::sim::trace::Ending;
use crate::sim::{Fault, FaultOn, FaultWindow};
use retry_core::breaker::Breaker;
use retry_core::budget::{Budget, BudgetKind, Spec};
use retry_core::policy::{Jitter, Policy};

/// One count per [`Ending`], indexed by it.
#[derive(Debug, Clone, Default)]
pub(super) struct PerEnding([u64; Ending::COUNT]);

impl std::ops::Index<Ending> for PerEnding {
    type Output = u64;

    fn index(&self, end: Ending) -> &u64 {
        &self.0[end as usize]
    }
}

impl std::ops::IndexMut<Ending> for PerEnding {
    fn index_mut(&mut self, end: Ending) -> &mut u64 {
        &mut self.0[end as usize]
    }
}

/// What the report counts.
#[derive(Clone)]
pub(super) struct Tally {
    /// Series, histograms and the counts of server calls.
    pub rec: Recorder,
    /// Operations started.
    pub operations: u64,
    /// Operations ended, by why.
    ended: PerEnding,
    retried_operations: u64,
    pub attempts_by_layer: Vec<u64>,
    /// Attempts per layer made for callers that had given up.
    pub orphaned_by_layer: Vec<u64>,
    /// Seconds of service for callers that had given up.
    pub orphaned_work: f64,
    /// Calls per layer its service's full queue refused.
    pub refused_by_layer: Vec<u64>,
    /// Per layer of a chain, how long its calls took (see `Report`).
    pub layer_latency: Vec<LatencyHistogram>,
    /// Per layer of a chain: the calls present at it now, since when, and
    /// the call-seconds so far (`Report::layer_presence`).
    pub present: Vec<(u32, f64, f64)>,
    pub executions: u64,
    pub duplicates: u64,
    /// Requests the server shed.
    pub shed: u64,
    pub deduplicated: u64,
    pub server_work: f64,
    pub wasted_work: f64,
    finished_at: f64,
}

/// Largest pause the first `retries` retries can draw (Retry-After aside).
fn pause_range(policy: &Policy, retries: u32) -> f64 {
    match policy.jitter {
        Jitter::Decorrelated => policy.cap,
        _ => (0..retries)
            .map(|r| policy.pause_bounds(r).max)
            .fold(0.0, f64::max),
    }
}

/// The starting balance of a budget that keeps one (gRPC's token bucket,
/// the AWS SDK's retry quota, Brooker's bucket); none for the others.
fn budget_start(spec: &Spec) -> Option<f64> {
    Budget::new(spec).balance()
}

impl Tally {
    pub fn new(s: &Scenario, layers: u32) -> Self {
        let histograms = (s.policy.attempts - 1).min(PAUSE_HISTOGRAMS);
        let mut range = pause_range(&s.policy, histograms);
        if s.hints.honour {
            range = range.max(s.retry_after);
            if s.rate_limit > 0 {
                // A hint waits at most for the next reset, and its jitter.
                range = range.max(s.rate_window * (1.0 + s.hints.jitter));
            }
        }
        let mut rec = Recorder::new(
            s.horizon,
            s.buckets,
            s.policy.attempts - 1,
            range,
            // The series charts the balance of the lowest layer that
            // keeps a budget.
            budget_start(
                &(0..layers)
                    .rev()
                    .map(|layer| s.budget_of_layer(layer))
                    .find(|spec| spec.kind() != BudgetKind::None)
                    .unwrap_or_else(|| s.budget.spec()),
            ),
        );
        if layers > 1 {
            rec.per_layer(layers as usize);
        }
        Self {
            rec,
            operations: 0,
            ended: PerEnding::default(),
            retried_operations: 0,
            attempts_by_layer: vec![0; layers as usize],
            orphaned_by_layer: vec![0; layers as usize],
            refused_by_layer: vec![0; layers as usize],
            layer_latency: match layers > 1 {
                true => vec![LatencyHistogram::new(); layers as usize],
                false => Vec::new(),
            },
            present: match layers > 1 {
                true => vec![(0, 0.0, 0.0); layers as usize],
                false => Vec::new(),
            },
            orphaned_work: 0.0,
            executions: 0,
            duplicates: 0,
            shed: 0,
            deduplicated: 0,
            server_work: 0.0,
            wasted_work: 0.0,
            finished_at: 0.0,
        }
    }

    /// `calls` calls of `layer` left at `time`, for a caller that had
    /// already given up when `for_nobody`: the layer's counts, and with a
    /// chain its series.
    #[inline(always)] // speed: hot
    pub fn calls(&mut self, layer: usize, time: f64, calls: u64, for_nobody: bool) {
        self.attempts_by_layer[layer] += calls;
        if for_nobody {
            self.orphaned_by_layer[layer] += calls;
        }
        self.rec.layer_calls(layer, time, calls, for_nobody);
    }

    /// A call arrived at (`+1`) or left (`-1`) the service at `layer` at
    /// `now`: the call-seconds present there grow by what was present
    /// since the last change.
    pub fn presence(&mut self, layer: usize, now: f64, change: i32) {
        if let Some((present, since, area)) = self.present.get_mut(layer) {
            *area += f64::from(*present) * (now - *since);
            *since = now;
            *present = present.saturating_add_signed(change);
        }
    }

    /// An operation ended at `now`, `latency` after it started.
    #[inline(always)] // speed: hot
    pub fn operation_ended(&mut self, now: f64, latency: f64, retried: bool, end: Ending) {
        self.retried_operations += u64::from(retried);
        self.ended[end] += 1;
        self.rec
            .operation_done(now, latency, end == Ending::Succeeded);
        if now > self.finished_at {
            self.finished_at = now;
        }
    }
}

/// What a report takes from the world beside its [`Tally`].
struct Standing {
    peak_calls: u64,
    events: u64,
    breaker_trips: u64,
    /// Client instances whose breaker opened, and whose budget refused.
    instances_tripped: u64,
    instances_refusing: u64,
    /// When the last operation started (Poisson: the horizon).
    arrivals_end: f64,
    peak_events: u64,
    cost: u64,
    /// The run stopped before its end: at a bound (`cut`), or, with no
    /// `cut`, because it is still going (a report so far).
    truncated: bool,
    cut: Option<Cut>,
    simulated_until: f64,
}

impl<const PLAIN: bool> World<PLAIN> {
    /// The report of a run that ended (`cut`: at a bound, with work left).
    /// `simulated_until` is how far the run got (see `Summary`).
    pub(super) fn report(self, cut: Option<CutReason>, simulated_until: f64) -> Report {
        let cut = cut.map(|reason| self.cut(reason, self.calls_at_most(), simulated_until));
        let standing = self.standing(cut.is_some(), cut, simulated_until, self.cost);
        report(&self.s, self.tally, standing)
    }

    /// The report of a run that ended, from a copy of its tally.
    pub(super) fn report_of(&self, tally: Tally, cut: Option<Cut>, simulated_until: f64) -> Report {
        let standing = self.standing(cut.is_some(), cut, simulated_until, self.cost);
        report(&self.s, tally, standing)
    }

    /// The report of a run still going, as far as it got: shaped like the
    /// report of a run cut at this instant, with `truncated` set, no `cut`,
    /// and `cost` what its events cost so far. `tally` is a copy of the
    /// world's, with what the end of a run adds to it.
    pub(super) fn report_so_far(&self, tally: Tally, simulated_until: f64, cost: u64) -> Report {
        report(
            &self.s,
            tally,
            self.standing(true, None, simulated_until, cost),
        )
    }

    fn standing(
        &self,
        truncated: bool,
        cut: Option<Cut>,
        simulated_until: f64,
        cost: u64,
    ) -> Standing {
        let (instances_tripped, instances_refusing) = self.layers.instances_spread();
        Standing {
            peak_calls: self.calls_at_most(),
            events: self.events_handled(),
            breaker_trips: self.layers.breakers.iter().map(Breaker::trips).sum(),
            instances_tripped,
            instances_refusing,
            arrivals_end: match self.s.workload {
                WorkloadKind::Poisson | WorkloadKind::Closed => self.s.horizon,
                WorkloadKind::Crowd | WorkloadKind::Contention => self.workload.last_start,
            },
            peak_events: self.queue.peak() as u64,
            cost,
            truncated,
            cut,
            simulated_until,
        }
    }

    /// Where and why the run stopped.
    pub(super) fn cut(&self, reason: CutReason, calls: u64, at: f64) -> Cut {
        Cut::new(
            reason,
            at,
            [self.s.work_limit, self.events_handled(), calls],
        )
    }
}

/// The report of a scenario's run from its tally and where the run stands.
fn report(s: &Scenario, tally: Tally, standing: Standing) -> Report {
    let Standing {
        peak_calls,
        events,
        breaker_trips,
        instances_tripped,
        instances_refusing,
        arrivals_end,
        peak_events,
        cost,
        truncated,
        cut,
        simulated_until,
    } = standing;
    let rec = tally.rec;
    let failures = rec.failures;
    let (paced_sends, paced_seconds) = (rec.paced_sends, rec.paced_seconds);
    let (first_tries, retries, successes, budget_refusals, breaker_refusals) = (
        rec.first_tries,
        rec.retries,
        rec.successes,
        rec.budget_refusals,
        rec.breaker_refusals,
    );
    let outage = s.fault(Fault::Outage);
    let capacity_loss = s.fault(Fault::CapacityLoss);
    let latency_spike = s.fault(Fault::LatencySpike);
    let holds = |fault: Option<FaultWindow>, at: f64| fault.is_some_and(|w| w.holds(at));
    let workers = s.workers;
    let mean_service = s.service_mean();
    // What the fleet can serve in a bucket: each server its workers over
    // the mean service time, none in the outage, fewer workers in a
    // capacity loss and slower ones in a latency spike (at the bucket's
    // middle), each on the servers the faults hit.
    let capacity = |start: f64, end: f64| {
        let middle = (start + end) / 2.0;
        let down = outage.is_some_and(|outage| start < outage.end && end > outage.start);
        let servers = f64::from(s.servers.max(1));
        let hit = if s.fault_on == FaultOn::One {
            1.0
        } else {
            servers
        };
        let unlimited = workers == 0 || mean_service <= 0.0;
        let each = if unlimited {
            f64::INFINITY
        } else {
            f64::from(workers) / mean_service
        };
        let faulted = if down {
            0.0
        } else {
            let mut faulted = each;
            if !unlimited && holds(capacity_loss, middle) {
                faulted = (f64::from(workers) * s.drop_to).round() / mean_service;
            }
            if holds(latency_spike, middle) {
                faulted /= s.slow_factor;
            }
            faulted
        };
        let spared = servers - hit;
        faulted * hit + if spared > 0.0 { each * spared } else { 0.0 }
    };
    let Recorded {
        series,
        pauses,
        latency,
        latency_failed,
        reset_herd,
        breaker_opened_after,
    } = rec.finish(capacity);
    let operations = tally.operations;
    let per_operation = |count: u64| {
        if operations == 0 {
            0.0
        } else {
            count as f64 / operations as f64
        }
    };
    let ended = &tally.ended;
    let resolved = successes + failures.0.iter().sum::<u64>();
    let [latency_p50, latency_p90, latency_p99] = latency.quantiles([0.5, 0.9, 0.99]);
    let summary = Summary {
        operations,
        succeeded: ended[Ending::Succeeded],
        not_retryable: ended[Ending::NotRetryable],
        out_of_attempts: ended[Ending::OutOfAttempts],
        budget_exhausted: ended[Ending::BudgetExhausted],
        breaker_open: ended[Ending::BreakerOpen],
        deadline_exceeded: ended[Ending::DeadlineExceeded],
        unfinished: operations - ended.0.iter().sum::<u64>(),
        success_rate: if operations == 0 {
            1.0
        } else {
            ended[Ending::Succeeded] as f64 / operations as f64
        },
        attempts_per_operation: per_operation(tally.attempts_by_layer[0]),
        server_calls_per_operation: per_operation(first_tries + retries),
        retried_operations: tally.retried_operations,
        retried_share: per_operation(tally.retried_operations),
        attempts_by_layer: tally.attempts_by_layer,
        first_tries,
        retries,
        successes,
        failed: failures,
        unfinished_attempts: first_tries + retries - resolved,
        budget_refusals,
        paced_sends,
        paced_seconds,
        breaker_refusals,
        breaker_trips,
        breaker_opened_after,
        instances_tripped,
        instances_refusing,
        executions: tally.executions,
        duplicates: tally.duplicates,
        shed: tally.shed,
        deduplicated: tally.deduplicated,
        latency_mean: latency.mean(),
        latency_p50,
        latency_p90,
        latency_p99,
        latency_max: latency.max,
        server_work: tally.server_work,
        wasted_work: tally.wasted_work,
        orphaned_attempts_by_layer: match tally.orphaned_by_layer.iter().any(|&n| n > 0) {
            true => tally.orphaned_by_layer,
            false => Vec::new(),
        },
        orphaned_work: tally.orphaned_work,
        refused_by_layer: match tally.refused_by_layer.iter().any(|&n| n > 0) {
            true => tally.refused_by_layer,
            false => Vec::new(),
        },
        reset_herd,
        goodput: ended[Ending::Succeeded] as f64 / s.horizon,
        finished_at: tally.finished_at,
        drain_time: (tally.finished_at - arrivals_end).max(0.0),
        truncated,
        simulated_until: if truncated {
            simulated_until
        } else {
            tally.finished_at.max(s.horizon)
        },
        events,
        peak_events: peak_events.max(u64::from(operations > 0)),
        peak_calls,
        cost,
        cut,
    };
    Report {
        summary,
        series,
        pauses,
        latency,
        latency_failed,
        layer_latency: tally.layer_latency,
        layer_presence: tally.present.iter().map(|&(_, _, area)| area).collect(),
    }
}
