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
//!
//! A fan-out hedges each of its calls instead, as "The Tail at Scale"
//! (Dean and Barroso, 2013) has a request hedge its calls to the leaves:
//! while a call of the attempt has no outcome, a copy of it goes to
//! another server of the fleet `hedge_delay` after the last, up to
//! `hedge_copies` counting the first. All the calls leave at once, so one
//! timer an attempt serves them all. A call's first success decides it,
//! and so does an error no retry would fix, or the failure of its last
//! copy when no more may go (an error that may pass sends the call's next
//! copy at once); the attempt takes decided calls as an unhedged fan-out
//! takes answers (`fan_wait`). A copy is gated by the budget as a retry is;
//! a budget that counts retries in flight (Envoy's) checks it against its
//! limit but keeps no place for it, and the attempt alone asks the breaker.
//! Queued copies of a decided call are cancelled; the attempt's timeout
//! covers every copy.

use super::World;
use super::client::failure_of;
use crate::sim::engine::EventKind;
use crate::sim::report::FailureKind;
use crate::sim::trace::Ending;

/// Copies one answered-bit mask can tell apart.
const MAX_COPIES: u32 = 8;

/// Calls a fan-out's attempt makes at most.
const MAX_CALLS: usize = retry_core::range::FAN_OUT.max as usize;
const _: () = assert!(MAX_CALLS <= 128, "one bit a call in `FanCalls::decided`");

/// What a hedged fan-out's frame keeps of its attempt in flight: per
/// call, the copies sent and those whose outcome is not known yet; one bit
/// per call once its outcome is in; when the attempt gives up, and the
/// deadline its requests carry down.
#[derive(Debug, Clone, Copy)]
pub(super) struct FanCalls {
    sent: [u8; MAX_CALLS],
    out: [u8; MAX_CALLS],
    decided: u128,
    ends: f64,
    deadline: f64,
}

impl Default for FanCalls {
    fn default() -> Self {
        Self {
            sent: [0; MAX_CALLS],
            out: [0; MAX_CALLS],
            decided: 0,
            ends: 0.0,
            deadline: 0.0,
        }
    }
}

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
        if self.s.fan_out > 1 {
            self.fan_hedge_next(frame, token, now);
        } else if self.frames[frame].token == token {
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
        let r = &self.server.requests[request];
        self.s.policy.hedge
            && (self.frames[r.root].finished
                || (self.frames[r.frame].token == r.token
                    && self.fan_call_decided(r.frame, r.call)))
    }

    /// Whether the operation's calls are hedged each on its own (a fan-out)
    /// rather than as one ([`World::hedge_start`]).
    #[inline(always)] // speed: hot
    pub(super) fn hedges_whole(&self) -> bool {
        self.s.policy.hedge && self.s.fan_out == 1
    }

    /// The calls of a hedged fan-out's attempt leave at `start`, one copy
    /// each; the attempt gives up at `ends`.
    pub(super) fn fan_hedge_start(
        &mut self,
        frame: u32,
        calls: u32,
        start: f64,
        ends: f64,
        deadline: f64,
    ) {
        let mut fan = FanCalls {
            ends,
            deadline,
            ..FanCalls::default()
        };
        fan.sent[..calls as usize].fill(1);
        fan.out[..calls as usize].fill(1);
        self.fan_calls.put(frame, fan);
        self.fan_hedge_timer(frame, start);
    }

    /// The next copies of a hedged fan-out's attempt are due `hedge_delay`
    /// after `now`, unless the attempt gives up first or may send no more.
    fn fan_hedge_timer(&mut self, frame: u32, now: f64) {
        let at = now + self.s.policy.hedge_delay;
        if self.s.policy.hedge_copies > 1 && at < self.fan_calls[frame].ends {
            let token = self.frames[frame].token;
            if at <= self.current {
                self.queue
                    .push_in_order(at, EventKind::HedgeNext, frame, token);
            } else {
                self.queue.push(at, EventKind::HedgeNext, frame, token);
            }
        }
    }

    /// A hedged fan-out's delay is up: each call of the attempt `token`
    /// without an outcome sends its next copy, while the budget lets it.
    fn fan_hedge_next(&mut self, frame: u32, token: u32, now: f64) {
        let f = &self.frames[frame];
        if f.token != token || !f.waiting {
            return;
        }
        let most = self.copies_most();
        let mut more = false;
        for call in 0..self.s.fan_out as usize {
            let fan = &self.fan_calls[frame];
            if fan.decided & (1 << call) != 0 || fan.sent[call] >= most {
                continue;
            }
            if !self.send_fan_copy(frame, call, now) {
                return;
            }
            more |= self.fan_calls[frame].sent[call] < most;
        }
        if more {
            self.fan_hedge_timer(frame, now);
        }
    }

    /// Copies of a call a hedged fan-out sends at most.
    fn copies_most(&self) -> u8 {
        self.s.policy.hedge_copies.min(MAX_COPIES) as u8
    }

    /// Sends the next copy of `call` of the frame's attempt in flight now,
    /// if the budget lets it (false when it did not).
    fn send_fan_copy(&mut self, frame: u32, call: usize, now: f64) -> bool {
        let layer = self.frames[frame].layer as usize;
        let holds_places = self.layers.counts_in_flight;
        if let Some(budget) = self.budget(frame, layer) {
            if budget.try_retry(now, false).is_none() {
                self.tally.rec.refusal(now);
                return false;
            }
            if holds_places {
                budget.release_retry();
            }
        }
        let token = self.frames[frame].token;
        let fan = &mut self.fan_calls[frame];
        fan.sent[call] += 1;
        fan.out[call] += 1;
        let deadline = fan.deadline;
        self.work += 1;
        self.tally.calls(layer, now, 1, false);
        self.tally.rec.attempt(now, false);
        self.send_request(frame, token, call as u8, now, deadline, false);
        true
    }

    /// Whether `call` of the frame's hedged fan-out attempt in flight has
    /// its outcome (false without hedging or a fan-out).
    #[inline(always)] // speed: hot
    pub(super) fn fan_call_decided(&self, frame: u32, call: u8) -> bool {
        self.s.policy.hedge
            && self.s.fan_out > 1
            && self.fan_calls[frame].decided & (1 << call) != 0
    }

    /// An answer to `call` of the frame's hedged fan-out attempt in flight:
    /// `Some(true)` when it decides the call, `Some(false)` for a failure
    /// that leaves the call to its other copies, `None` for a call decided
    /// before (wasted work).
    pub(super) fn fan_call_answered(
        &mut self,
        frame: u32,
        call: u8,
        failure: Option<FailureKind>,
        now: f64,
    ) -> Option<bool> {
        if self.fan_call_decided(frame, call) {
            return None;
        }
        let c = call as usize;
        self.fan_calls[frame].out[c] -= 1;
        let decides = match failure {
            None => true,
            Some(kind) => {
                let unknown_retried = self.frames[frame].unknown_retried;
                let fan = &self.fan_calls[frame];
                let failure = failure_of(kind, self.s.retry_after);
                if !self.s.policy.retry_on.retries(&failure, unknown_retried) {
                    true
                } else if fan.out[c] > 0 {
                    false
                } else {
                    !(fan.sent[c] < self.copies_most()
                        && now < fan.ends
                        && self.send_fan_copy(frame, c, now))
                }
            }
        };
        if decides {
            self.fan_calls[frame].decided |= 1 << call;
        }
        Some(decides)
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
        if !self
            .s
            .policy
            .retry_on
            .retries(&failure_of(kind, retry_after), f.unknown_retried)
        {
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
