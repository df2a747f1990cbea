//! Hedged requests, as gRFC A6's `hedgingPolicy` has them: copies of one
//! call go out `hedge_delay` apart (0: all at once), up to `hedge_copies`
//! counting the first, while no answer has come. The first answer that is
//! not an error that may pass wins and ends the operation: a success, or
//! an error no retry would fix (which stops the hedging). An error that
//! may pass sends the next copy at once, without waiting out the delay;
//! when every copy has failed, the operation fails. A retry budget gates
//! each copy after the first as it gates a retry (gRPC sends a hedge only
//! while its tokens are above half).
//!
//! The copies still out when an operation ends are cancelled: the server
//! drops those it has not started, and what it already started is wasted
//! work. A copy counts as a retry in the series and the summary: calls per
//! operation are `1 + P(X > d) + ...` at light load.
//!
//! Only one layer that calls the server hedges (the scenario's sanitizing
//! turns hedging off otherwise), so an operation's frame is its root, and
//! stays alive while any of its requests is at the server.

use super::World;
use super::client::failure_of;
use crate::classify;
use crate::sim::engine::EventKind;
use crate::sim::report::FailureKind;
use crate::sim::trace::Ending;

/// Copies one answered-bit mask can tell apart.
const MAX_COPIES: u32 = 8;

/// What a hedged frame keeps beside its extras: the token of the
/// operation's first copy, the copies sent, those whose outcome is not
/// known yet, and one bit per copy once its outcome (answer or timeout) is
/// in.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Hedge {
    from: u32,
    copies: u8,
    pub in_flight: u8,
    answered: u8,
}

impl<const PLAIN: bool> World<PLAIN> {
    /// The first copy of a hedged operation, with `timeout`.
    pub(super) fn hedge_start(&mut self, frame: u32, now: f64, timeout: f64) {
        self.hedges[frame] = Hedge {
            from: self.frames[frame].token.wrapping_add(1),
            ..Hedge::default()
        };
        self.send_copy(frame, now, timeout);
    }

    /// Sends the frame's next copy now, if it may; false when it did not.
    fn send_copy(&mut self, frame: u32, now: f64, timeout: f64) -> bool {
        let before = self.frames[frame].attempts;
        self.begin_attempt(frame, now, timeout);
        if self.frames[frame].attempts == before {
            // The breaker or a throttle said no.
            return false;
        }
        let hedge = &mut self.hedges[frame];
        hedge.copies += 1;
        hedge.in_flight += 1;
        let copies = hedge.copies;
        if copies > 1 {
            let root = self.frames[frame].root;
            if let Some(tracer) = self.tracer() {
                tracer.copied(root);
            }
        }
        if u32::from(copies) < self.s.policy.hedge_copies.min(MAX_COPIES) {
            let (at, token) = (now + self.s.policy.hedge_delay, self.frames[frame].token);
            if at <= self.current {
                self.queue
                    .push_in_order(at, EventKind::HedgeNext, frame, token);
            } else {
                self.queue.push(at, EventKind::HedgeNext, frame, token);
            }
        }
        true
    }

    /// A hedge after the first: within the copies, the deadline and the
    /// budget.
    fn send_hedge(&mut self, frame: u32, now: f64) -> bool {
        let policy = &self.s.policy;
        if u32::from(self.hedges[frame].copies) >= policy.hedge_copies.min(MAX_COPIES) {
            return false;
        }
        let elapsed = now - self.frames[frame].origin;
        let left = policy.deadline.map_or(f64::INFINITY, |d| d - elapsed);
        if left <= 0.0 {
            return false;
        }
        let timeout = policy.attempt_timeout.unwrap_or(f64::INFINITY).min(left);
        let layer = self.frames[frame].layer as usize;
        if let Some(budget) = self.budget(frame, layer) {
            if budget.try_retry(now, false).is_none() {
                self.tally.rec.refusal(now);
                return false;
            }
        }
        self.send_copy(frame, now, timeout)
    }

    /// The delay after the copy of `token` is up (`EventKind::HedgeNext`):
    /// the next copy goes unless an answer ended the operation or another
    /// copy went meanwhile (either moved the frame's token on).
    pub(super) fn hedge_next(&mut self, frame: u32, token: u32, now: f64) {
        if self.frames[frame].token == token {
            self.send_hedge(frame, now);
        }
    }

    /// Whether the copy of `token` still has an operation waiting for it.
    pub(super) fn hedge_wants(&self, frame: u32, token: u32) -> bool {
        let (f, hedge) = (&self.frames[frame], &self.hedges[frame]);
        let copy = token.wrapping_sub(hedge.from);
        !f.finished && copy < MAX_COPIES && hedge.answered & (1 << copy) == 0
    }

    /// Takes the outcome of the copy of `token` if the operation waits for
    /// it: the copy is out of flight from now on.
    pub(super) fn hedge_takes(&mut self, frame: u32, token: u32) -> bool {
        if !self.hedge_wants(frame, token) {
            return false;
        }
        let hedge = &mut self.hedges[frame];
        let copy = token.wrapping_sub(hedge.from);
        hedge.answered |= 1 << copy;
        hedge.in_flight -= 1;
        let root = self.frames[frame].root;
        if let Some(tracer) = self.tracer() {
            tracer.answering(root, copy);
        }
        true
    }

    /// A request the server need not start: a copy of an operation that
    /// has its answer.
    pub(super) fn hedge_cancelled(&self, request: u32) -> bool {
        self.s.policy.hedge && self.frames[self.server.requests[request].root].finished
    }

    /// What a copy's outcome does to its operation.
    pub(super) fn hedge_outcome(
        &mut self,
        frame: u32,
        now: f64,
        failure: Option<FailureKind>,
        retry_after: f64,
    ) {
        let Some(kind) = failure else {
            return self.attempt_succeeded(frame, now);
        };
        self.failure_heard(frame, now, kind);
        let f = &mut self.frames[frame];
        if !classify::retryable(&failure_of(kind, retry_after), f.unknown_retried) {
            return self.fail(frame, now, Ending::NotRetryable, kind);
        }
        if kind == FailureKind::Unknown {
            f.unknown_retried = true;
        }
        // An error that may pass sends the next copy at once. A breaker
        // that refuses it with nothing in flight has ended the operation.
        if !self.send_hedge(frame, now)
            && !self.frames[frame].finished
            && self.hedges[frame].in_flight == 0
        {
            let end = if u32::from(self.hedges[frame].copies) >= self.s.policy.hedge_copies {
                Ending::OutOfAttempts
            } else {
                Ending::BudgetExhausted
            };
            self.fail(frame, now, end, kind);
        }
    }
}
