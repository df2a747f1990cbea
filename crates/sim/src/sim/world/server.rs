//! The server: what it does with a request, from its arrival to the answer
//! that reaches (or misses) its client.
//!
//! A request arriving during the outage fails fast or hangs. Otherwise it
//! takes a free worker, waits in the queue, or is rejected by a full queue.
//! Its service ends in a failure (of a kind drawn from the mix) or in the
//! operation's action, which an idempotency key keeps from running twice;
//! the answer may be lost on its way back. Service whose answer nobody uses
//! (the client moved on, or the answer was lost) is wasted work.

use retry_core::classify::RetryOn;
use std::collections::VecDeque;

use super::World;
use super::slab::Slab;
use crate::sim::engine::EventKind;
use crate::sim::recorder::Level;
use crate::sim::report::FailureKind;
use crate::sim::{Balance, Fault, FaultOn, FaultWindow, Law, OutageMode, QueueOrder, Scenario};

/// A request on its way to the server, at it, or its answer on the way back.
#[derive(Debug, Clone, Copy)]
pub(super) struct Request {
    /// The frame that sent it, and the token of the attempt it serves.
    pub frame: u32,
    pub token: u32,
    /// The operation it belongs to.
    pub root: u32,
    /// What the server answered: `None` for a success.
    pub failure: Option<FailureKind>,
    pub service: f64,
    /// When the request started waiting for a worker.
    pub queued_at: f64,
    /// The server of the fleet it goes to (0 for a single server).
    pub server: u16,
    /// With deadlines passed down, when its caller stops waiting: the
    /// server does not start it after, and stops serving it then (`cut`).
    pub deadline: f64,
    pub cut: bool,
    /// Which call of a fan-out's attempt it makes (0 without a fan-out):
    /// a hedged fan-out's copies of one call share it (`hedge.rs`).
    pub call: u8,
    /// The Retry-After the rate limit wrote on its 429, as its form writes
    /// it (`HintForm::write`); 0 for every other answer. Four bytes, not
    /// eight: a request's size is the simulator's speed (5 % on the herd).
    pub hint: f32,
}

/// One server of the fleet: its workers in use and its queue.
#[derive(Debug, Default)]
pub(super) struct Pool {
    /// Requests in service (with a stateless server, also those on their
    /// way to it, which nothing reads then).
    busy: u32,
    /// Requests waiting for a worker.
    pub waiting: VecDeque<u32>,
}

/// The server's state: the fleet's, one pool a server.
pub(super) struct Server {
    pub requests: Slab<Request>,
    /// Each server's workers and queue, the first the single server's.
    pub pools: Vec<Pool>,
    /// The server the next request goes to, round robin.
    turn: u32,
    /// Unlimited workers and a latency that does not grow with load: a
    /// request's service does not depend on what else is at the server.
    pub stateless: bool,
    /// A failed request's kind from the same draw that failed it: below
    /// `class_below[0]` transient, then throttled, then permanent, else
    /// unknown (the cumulative class weights times `failure`).
    class_below: [f64; 3],
    /// The faults the world has, and the workers a capacity loss leaves.
    outage: Option<FaultWindow>,
    capacity_loss: Option<FaultWindow>,
    dropped_workers: u32,
    latency_spike: Option<FaultWindow>,
    partition: Option<FaultWindow>,
    /// How long a request's service takes, before any slowdown.
    service: Law,
    /// The rate limit's window now: its index, and the requests it let
    /// through.
    window: (f64, u32),
}

/// `value` as an `f32` no smaller than it: a hint kept in four bytes never
/// asks a client back before the reset.
fn f32_up(value: f64) -> f32 {
    let narrow = value as f32;
    if f64::from(narrow) < value {
        narrow.next_up()
    } else {
        narrow
    }
}

/// Whether the server faults hit: every one, or only the first.
fn hit(s: &Scenario, server: u16) -> bool {
    server == 0 || s.fault_on == FaultOn::All
}

/// A latency spike, a partition or hedged requests, which the plain
/// world's copy of the engine leaves out (a capacity loss needs limited
/// workers, which no plain world has). Only builds with that copy have
/// this (see [`super::Running`]).
#[cfg(any(not(target_arch = "wasm32"), feature = "plain-copy"))]
pub(super) fn faults(s: &Scenario) -> bool {
    s.fault(Fault::LatencySpike).is_some() || s.fault(Fault::Partition).is_some() || s.policy.hedge
}

/// Unlimited workers, a latency that does not grow with load and no rate
/// limit: nothing at the server changes a request's answer.
pub(super) fn stateless(s: &Scenario) -> bool {
    s.workers == 0 && s.latency_slope == 0.0 && s.rate_limit == 0
}

impl Server {
    pub fn new(s: &Scenario) -> Self {
        let total_mix = s.mix_transient + s.mix_throttled + s.mix_permanent + s.mix_unknown;
        let mix = if total_mix > 0.0 {
            [
                s.mix_transient / total_mix,
                (s.mix_transient + s.mix_throttled) / total_mix,
                (s.mix_transient + s.mix_throttled + s.mix_permanent) / total_mix,
            ]
        } else {
            [1.0; 3]
        };
        Self {
            requests: Slab::default(),
            pools: (0..s.servers.max(1)).map(|_| Pool::default()).collect(),
            turn: 0,
            stateless: stateless(s),
            class_below: mix.map(|share| share * s.failure),
            outage: s.fault(Fault::Outage),
            capacity_loss: s.fault(Fault::CapacityLoss),
            dropped_workers: (f64::from(s.workers) * s.drop_to).round() as u32,
            latency_spike: s.fault(Fault::LatencySpike),
            partition: s.fault(Fault::Partition),
            service: Law::service(s),
            window: (0.0, 0),
        }
    }

    /// Whether the rate limit lets a request arriving at `now` through;
    /// if not, when its window resets. A request that arrives a hair
    /// before a reset, as a sum of times computed to reach it may, counts
    /// in the new window.
    fn rate_limited(&mut self, s: &Scenario, now: f64) -> Option<f64> {
        let index = ((now + 1e-9) / s.rate_window).floor();
        if index != self.window.0 {
            self.window = (index, 0);
        }
        if self.window.1 < s.rate_limit {
            self.window.1 += 1;
            None
        } else {
            Some((index + 1.0) * s.rate_window)
        }
    }

    fn in_outage(&self, now: f64) -> bool {
        self.outage.is_some_and(|w| w.holds(now))
    }

    /// The workers the server has at `now`: fewer in a capacity loss.
    fn workers(&self, s: &Scenario, now: f64, server: u16) -> u32 {
        if self.capacity_loss.is_some_and(|w| w.holds(now)) && hit(s, server) {
            self.dropped_workers
        } else {
            s.workers
        }
    }

    /// How many times longer service starting at `now` takes.
    fn slowdown(&self, s: &Scenario, now: f64, server: u16) -> f64 {
        if self.latency_spike.is_some_and(|w| w.holds(now)) && hit(s, server) {
            s.slow_factor
        } else {
            1.0
        }
    }

    /// Whether a partition cuts a request arriving at `now` off.
    fn in_cut(&self, now: f64) -> bool {
        self.partition.is_some_and(|w| w.holds(now))
    }
}

impl<const PLAIN: bool> World<PLAIN> {
    /// A request reaches the server.
    #[inline(always)] // speed: hot
    pub(super) fn server_arrive(&mut self, request: u32, now: f64) {
        if let Some(tracer) = self.tracer() {
            tracer.arrived(request, now);
        }
        let s = &self.s;
        if !PLAIN && self.hedge_cancelled(request) {
            // A copy of an operation that has its answer is cancelled
            // before the server starts it.
            self.resolve(request);
        } else if !PLAIN
            && self.server.in_cut(now)
            && self.extras[self.server.requests[request].root].cut
        {
            // Lost on the way: the server never sees it.
            self.resolve(request);
        } else if !PLAIN && s.pass_deadline && now >= self.server.requests[request].deadline {
            // Its caller has stopped waiting, and the server knows it.
            self.shed(now);
            self.resolve(request);
        } else if !PLAIN
            && s.rate_limit > 0
            && let Some(reset) = self.server.rate_limited(s, now)
        {
            // Over the rate limit: 429 at once, come back after the reset.
            self.tally.rec.rate_limited(reset, self.s.rate_window);
            let hint = self.s.rate_hint.write(now, reset);
            self.server.requests[request].hint = f32_up(hint);
            self.respond_error(request, now, FailureKind::Throttled);
        } else if self.server.in_outage(now) && hit(s, self.server_of(request)) {
            match s.outage_mode {
                OutageMode::FailFast => self.respond_error(request, now, FailureKind::Connection),
                OutageMode::Hang => self.resolve(request),
            }
        } else if PLAIN || s.workers == 0 || {
            let server = self.server_of(request);
            self.server.pools[server as usize].busy < self.server.workers(s, now, server)
        } {
            self.start_service(request, now);
        } else if s.shed_wait > 0.0 && self.oldest_wait(self.server_of(request), now) > s.shed_wait
        {
            // The queue has stood too long: shed what would join it.
            self.shed(now);
            self.respond_error(request, now, FailureKind::Rejected);
        } else if self.server.pools[self.server_of(request) as usize]
            .waiting
            .len()
            < s.queue_limit as usize
        {
            let r = &mut self.server.requests[request];
            r.queued_at = now;
            let server = r.server as usize;
            self.server.pools[server].waiting.push_back(request);
        } else {
            self.respond_error(request, now, FailureKind::Rejected);
        }
    }

    /// The Retry-After of an answer of `kind` read at `now`: the rate
    /// limit's `hint` until its reset, else the constant one the server
    /// sends throttled and rejected callers.
    fn retry_after(&self, kind: FailureKind, hint: f32, now: f64) -> f64 {
        match kind {
            FailureKind::Throttled if hint > 0.0 => self.s.rate_hint.read(f64::from(hint), now),
            FailureKind::Throttled | FailureKind::Rejected => self.s.retry_after,
            FailureKind::Transient
            | FailureKind::Connection
            | FailureKind::Timeout
            | FailureKind::Permanent
            | FailureKind::Unknown
            | FailureKind::Conflict => 0.0,
        }
    }

    /// A worker takes the request.
    #[inline(always)] // speed: hot
    fn start_service(&mut self, request: u32, now: f64) {
        let s = &self.s;
        let root = self.server.requests[request].root;
        let server = self.server_of(request);
        let stream = &mut self.roots[root].server;
        let pool = &mut self.server.pools[server as usize];
        let mut service = self.server.service.draw(stream) + s.latency_slope * f64::from(pool.busy);
        pool.busy += 1;
        if !PLAIN {
            service *= self.server.slowdown(s, now, server);
            if s.pass_deadline {
                let left = self.server.requests[request].deadline - now;
                if service > left {
                    // Stopped at its caller's deadline.
                    service = left;
                    self.server.requests[request].cut = true;
                }
            }
        }
        self.tally.rec.occupied(Level::InFlight, now, now + service);
        if let Some(tracer) = self.tracer() {
            tracer.served(request, now, now + service);
        }
        self.server.requests[request].service = service;
        self.queue
            .push(now + service, EventKind::ServiceDone, request, 0);
    }

    /// The server finishes a request: the next one waiting takes the worker,
    /// and the answer, failure or success, goes back to the client.
    #[inline(always)] // speed: hot
    pub(super) fn service_done(&mut self, request: u32, now: f64) {
        let server = self.server_of(request);
        let pool = &mut self.server.pools[server as usize];
        pool.busy -= 1;
        // A plain world's server has no queue; in a capacity loss a worker
        // that finishes may be one the server lost.
        let next = if PLAIN || pool.busy >= self.server.workers(&self.s, now, server) {
            None
        } else {
            self.next_waiting(server, now)
        };
        if let Some(next) = next {
            let queued_at = self.server.requests[next].queued_at;
            self.tally.rec.occupied(Level::Queue, queued_at, now);
            self.start_service(next, now);
        }
        let Request {
            frame,
            token,
            root,
            service,
            cut,
            call,
            ..
        } = self.server.requests[request];
        self.tally.server_work += service;
        if !PLAIN && self.s.pass_deadline && cut {
            // For a caller that stopped waiting as the server stopped.
            self.tally.wasted_work += service;
            return self.resolve(request);
        }
        let s = &self.s;
        let draw = self.roots[root].server.uniform();
        if draw < s.failure {
            // Reuse the draw: given draw < failure, it is uniform below it.
            let below = &self.server.class_below;
            let kind = if draw < below[0] {
                FailureKind::Transient
            } else if draw < below[1] {
                FailureKind::Throttled
            } else if draw < below[2] {
                FailureKind::Permanent
            } else {
                FailureKind::Unknown
            };
            self.server.requests[request].failure = Some(kind);
            self.roots[root].wrong |= kind == FailureKind::Permanent;
        } else if self.roots[root].wrong && s.policy.retry_on == RetryOn::Everything {
            // A request that was wrong is wrong again: retried, a
            // permanent 4xx never passes.
            self.server.requests[request].failure = Some(FailureKind::Permanent);
        } else {
            self.execute(root, now);
        }
        let lost =
            self.s.lost_responses > 0.0 && self.roots[root].server.chance(self.s.lost_responses);
        if lost || !self.wanted(frame, token, call) {
            self.tally.wasted_work += service;
            return self.resolve(request);
        }
        // Answered to a service that waits for it, but for a caller above
        // that does not any more.
        if !PLAIN && self.layers.orphans && self.orphaned(frame) {
            self.tally.orphaned_work += service;
        }
        let back = self.hop(root);
        if back == 0.0 {
            self.deliver(request, now);
        } else {
            self.queue.push(now + back, EventKind::Response, request, 0);
        }
    }

    /// The server runs the operation's action (a successful request).
    #[inline(always)] // speed: hot
    fn execute(&mut self, root: u32, now: f64) {
        let operation = &mut self.roots[root];
        if operation.executed > 0 && self.s.idempotency_key {
            // The key is known: answer as the first execution did.
            self.tally.deduplicated += 1;
            return;
        }
        operation.executed += 1;
        self.tally.executions += 1;
        if operation.executed > 1 {
            self.tally.duplicates += 1;
            self.tally.rec.duplicate(now);
        }
    }

    /// An answer reaches the client, which uses it if it still waits for
    /// this attempt's outcome.
    #[inline(always)] // speed: hot
    pub(super) fn deliver(&mut self, request: u32, now: f64) {
        let Request {
            frame,
            token,
            root,
            service,
            failure,
            call,
            hint,
            ..
        } = self.server.requests[request];
        self.server.requests.free(request);
        self.roots[root].outstanding -= 1;
        if !PLAIN && self.hedges_whole() {
            if self.hedge_takes(frame, token) {
                let retry_after = failure.map_or(0.0, |kind| self.retry_after(kind, hint, now));
                self.hedge_outcome(frame, now, failure, retry_after);
            } else {
                self.tally.wasted_work += service;
            }
            return self.release_root_if_done(root);
        }
        let f = &self.frames[frame];
        if f.token == token && f.waiting {
            if !PLAIN && self.s.fan_out > 1 {
                if self.s.policy.hedge {
                    // A hedged fan-out's answer decides its call, or not.
                    match self.fan_call_answered(frame, call, failure, now) {
                        Some(true) => {}
                        Some(false) => {
                            if let Some(kind) = failure {
                                self.tally.rec.failure(now, kind);
                            }
                            return self.release_root_if_done(root);
                        }
                        None => {
                            self.tally.wasted_work += service;
                            return self.release_root_if_done(root);
                        }
                    }
                }
                // One answer of a fan-out: the attempt waits for more while
                // it needs more successes, or can still take a failure.
                let extra = &mut self.extras[frame];
                match failure {
                    None => {
                        extra.fan_need -= 1;
                        if extra.fan_need > 0 {
                            self.tally.rec.success(now);
                            return self.release_root_if_done(root);
                        }
                    }
                    Some(kind) if extra.fan_spare > 0 => {
                        extra.fan_spare -= 1;
                        self.tally.rec.failure(now, kind);
                        return self.release_root_if_done(root);
                    }
                    Some(_) => {}
                }
            }
            self.frames[frame].waiting = false;
            match failure {
                None => self.attempt_succeeded(frame, now),
                Some(kind) => {
                    let retry_after = self.retry_after(kind, hint, now);
                    self.attempt_failed(frame, now, kind, retry_after);
                }
            }
        } else {
            self.tally.wasted_work += service;
        }
        self.release_root_if_done(root);
    }

    /// A capacity loss ends: the workers it took are back, and take the
    /// requests that waited.
    pub(super) fn capacity_back(&mut self, now: f64) {
        for server in 0..self.server.pools.len() {
            while self.server.pools[server].busy < self.s.workers {
                let Some(next) = self.next_waiting(server as u16, now) else {
                    break;
                };
                let queued_at = self.server.requests[next].queued_at;
                self.tally.rec.occupied(Level::Queue, queued_at, now);
                self.start_service(next, now);
            }
        }
    }

    /// The server of the fleet `request` went to: the only one in a plain
    /// world.
    #[inline(always)] // speed: hot
    fn server_of(&self, request: u32) -> u16 {
        if PLAIN {
            0
        } else {
            self.server.requests[request].server
        }
    }

    /// The server of the fleet a new request goes to.
    #[inline(always)] // speed: hot
    pub(super) fn pick_server(&mut self, root: u32) -> u16 {
        let servers = self.s.servers;
        if PLAIN || servers <= 1 {
            return 0;
        }
        let server = match self.s.balance {
            Balance::RoundRobin => {
                let turn = self.server.turn;
                self.server.turn = (turn + 1) % servers;
                turn
            }
            Balance::Random => self.roots[root].server.below(servers),
        };
        server as u16
    }

    /// Whether the attempt `token` of `frame` still waits for its answer.
    #[inline(always)] // speed: hot
    fn wanted(&self, frame: u32, token: u32, call: u8) -> bool {
        if !PLAIN && self.hedges_whole() {
            self.hedge_wants(frame, token)
        } else {
            let f = &self.frames[frame];
            f.token == token && f.waiting && (PLAIN || !self.fan_call_decided(frame, call))
        }
    }

    /// How long the oldest request waiting for a worker of `server` has
    /// waited (0 when none waits).
    fn oldest_wait(&self, server: u16, now: f64) -> f64 {
        let pool = &self.server.pools[server as usize];
        pool.waiting
            .front()
            .map_or(0.0, |&oldest| now - self.server.requests[oldest].queued_at)
    }

    /// The server sheds a request.
    fn shed(&mut self, now: f64) {
        self.tally.shed += 1;
        self.tally.rec.shed(now);
    }

    /// The next request waiting for a worker of `server` that still wants
    /// one, in the queue's order: copies of hedged operations that have
    /// their answer are dropped, and the load shedding drops requests
    /// whose caller has gone and answers 503 to those that waited too long.
    fn next_waiting(&mut self, server: u16, now: f64) -> Option<u32> {
        loop {
            let waiting = &mut self.server.pools[server as usize].waiting;
            let next = match self.s.queue_order {
                QueueOrder::Fifo => waiting.pop_front(),
                QueueOrder::Lifo => waiting.pop_back(),
            }?;
            if self.hedge_cancelled(next) {
                self.resolve(next);
                continue;
            }
            let Request {
                frame,
                token,
                queued_at,
                call,
                ..
            } = self.server.requests[next];
            let s = &self.s;
            let gone = (s.drop_gone && !self.wanted(frame, token, call))
                || (!PLAIN && s.pass_deadline && now >= self.server.requests[next].deadline);
            let stale = s.queue_timeout > 0.0 && now - queued_at > s.queue_timeout;
            if !(gone || stale) {
                return Some(next);
            }
            self.tally.rec.occupied(Level::Queue, queued_at, now);
            self.shed(now);
            if gone {
                self.resolve(next);
            } else {
                self.respond_error(next, now, FailureKind::Rejected);
            }
        }
    }

    /// The server is done with a request that gets no answer.
    pub(super) fn resolve(&mut self, request: u32) {
        let root = self.server.requests[request].root;
        self.server.requests.free(request);
        self.roots[root].outstanding -= 1;
        self.release_root_if_done(root);
    }

    /// Sends an error answer without service. Always through the queue, so
    /// the server never calls back into a client in the middle of that
    /// client's own step.
    fn respond_error(&mut self, request: u32, now: f64, kind: FailureKind) {
        self.server.requests[request].failure = Some(kind);
        let root = self.server.requests[request].root;
        let back = self.hop(root);
        self.queue.push(now + back, EventKind::Response, request, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::f32_up;

    /// A hint narrowed to four bytes is never below the time it stands
    /// for, and never above it by more than one step of an `f32`.
    #[test]
    fn a_narrowed_hint_never_comes_early() {
        for value in [0.1, 0.99, 1.0 - 1e-12, 1.0 / 3.0, 599.999_999, 3_600.0, 0.0] {
            let narrow = f32_up(value);
            assert!(f64::from(narrow) >= value, "{value}");
            assert!(
                narrow == 0.0 || f64::from(narrow.next_down()) < value,
                "{value}"
            );
        }
    }
}
