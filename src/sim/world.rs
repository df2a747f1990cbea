//! The state of a run and what each event does to it.
//!
//! Operations and their calls through the layers are *frames* in a slab;
//! requests at the server are *requests* in another. Both slabs reuse freed
//! slots, so their size follows the work in flight, never the run's length.
//!
//! Stale events and late answers are recognised by *tokens*: a frame's token
//! changes with every attempt it starts and when it ends, and every timeout
//! and request carries the token of the attempt it belongs to. A token that no
//! longer matches means "the client has moved on": the answer is wasted work.
//!
//! The root frame of an operation lives until the operation has ended *and*
//! the server holds no request of it, because a late request may still
//! execute the action, and only the root knows whether it already ran (that
//! is how duplicates are counted, and how an idempotency key deduplicates).
//!
//! ## Operations that cannot meet run alone
//!
//! Operations affect one another only through what they share: the server's
//! workers and queue (or a latency that grows with load), a retry budget, a
//! circuit breaker, the contended row. A world with none of those (unlimited
//! workers, no slope, no budget, no breaker, no contention) runs each
//! operation from its start to its end before starting the next: the queue
//! then holds one operation's few events (`Queue::short`: the earliest in
//! a slot of its own, the rest in a heap), where a calendar of every
//! operation in flight would hold thousands spread over memory. Each event still happens at its time and in its order within
//! the operation, the series and histograms do not care in which order they
//! are added to, and every draw an operation meets comes from streams of
//! its own (its client's pauses; its server and network). So the report is
//! the same number for number, but for sums whose last bits depend on the
//! order of their terms; a unit test below checks this on worlds that read
//! every kind of draw.
//!
//! ## The plain world
//!
//! Worlds whose operations run alone through one layer, the commonest kind
//! and the benchmark's, are compiled apart (`World<'_, true>`): there the
//! constant `PLAIN` folds away every check for budgets, breakers, layers,
//! contention and a server's queue, about a tenth of the instructions.
//! Natively only: the page runs the general copy, whose download a second
//! one would nearly double. The same unit test holds both copies to the
//! same report, bit for bit.

use std::collections::VecDeque;

use super::engine::{Event, Kind, Queue};
use super::report::{FailureKind, Level, Recorder, Report, Summary};
use super::{OutageMode, Scenario, Spread, WorkloadKind};
use crate::breaker::{Breaker, BreakerMode, Ticket};
use crate::budget::{Budget, BudgetKind};
use crate::classify::{self, Failure};
use crate::policy::{Jitter, Plan, Policy};
use crate::random::{Stream, Streams};

const NO_PARENT: u32 = u32::MAX;
/// Retries whose pause ceilings a run computes up front.
const CEILINGS: u32 = 64;
/// Salt of the seed of each operation's server stream, so that those
/// streams are not the clients' (`(seed, client)`), nor those one layer down
/// (`seed` salted in its top 24 bits).
const SERVER_STREAMS: u64 = 0x9E37_79B9_7F4A_7C15;
/// Why an operation (or a call one layer down) ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    Succeeded,
    NotRetryable,
    OutOfAttempts,
    BudgetExhausted,
    DeadlineExceeded,
    /// The layer's circuit breaker refused an attempt.
    BreakerOpen,
}

impl End {
    const COUNT: usize = 6;
}

/// One count per [`End`], indexed by it.
#[derive(Debug, Clone, Default)]
struct PerEnd([u64; End::COUNT]);

impl std::ops::Index<End> for PerEnd {
    type Output = u64;

    fn index(&self, end: End) -> &u64 {
        &self.0[end as usize]
    }
}

impl std::ops::IndexMut<End> for PerEnd {
    fn index_mut(&mut self, end: End) -> &mut u64 {
        &mut self.0[end as usize]
    }
}

/// What every run reads of a (sub)operation: one cache line.
#[derive(Debug, Clone)]
#[repr(align(64))]
struct Frame {
    token: u32,
    parent: u32,
    root: u32,
    layer: u32,
    /// Attempts this frame has started.
    attempts: u32,
    /// The pause drawn before the last retry (decorrelated jitter needs it).
    previous_pause: f64,
    /// When the user's operation started: the deadline counts from here,
    /// and a root's latency.
    origin: f64,
    unknown_retried: bool,
    waiting: bool,
    finished: bool,
    alive: bool,
    /// Draws for the pauses.
    stream: Stream,
}

/// What a root frame, the user's operation, keeps beyond a frame: kept
/// beside the frames (same index; other indices hold leftovers) so that a
/// frame stays one cache line.
#[derive(Debug, Clone)]
struct Operation {
    /// Draws of the server and the network for this operation's requests.
    /// One stream per operation, not one shared by all, so that what an
    /// operation meets does not depend on the order in which operations
    /// run (see "Operations that cannot meet run alone"), and policies A
    /// and B meet the same server.
    server: Stream,
    /// Times the server executed this operation's action.
    executed: u32,
    /// Requests of this operation the server may still act on.
    outstanding: u32,
}

/// What only some runs need of a frame, kept beside it (same index) so that
/// the frames every run touches stay one cache line each. Runs without a
/// budget that charges, a breaker, layers or contention have none.
#[derive(Debug, Clone, Copy)]
struct Extra {
    /// The client the operation belongs to (calls one layer down draw from
    /// a stream derived from it).
    client: u64,
    /// What the budget charged for the retry in flight (AWS refunds it).
    retry_cost: f64,
    /// The timeout of the retry waiting for its `AttemptStart`.
    next_timeout: f64,
    /// Breaker: what the breaker admitted the attempt in flight with.
    ticket: Ticket,
    /// Contention: the version read by the attempt in flight.
    read_version: u64,
    write_ok: bool,
}

#[derive(Debug, Clone, Copy)]
struct Request {
    frame: u32,
    token: u32,
    root: u32,
    /// What the server answered: `None` for a success.
    failure: Option<FailureKind>,
    service: f64,
    /// When the request started waiting for a worker.
    queued_at: f64,
}

/// The state of a run. `PLAIN` worlds are known, when compiled, to run
/// their operations alone through one layer: the commonest kind, and the
/// benchmark's. Compiled apart, their runs skip every check for what they
/// cannot meet (budgets, breakers, layers, contention, a server's queue);
/// the code and the numbers are the same (see [`run`]).
pub(crate) struct World<'a, const PLAIN: bool> {
    s: &'a Scenario,
    policies: Vec<Policy>,
    /// Per layer, `ceiling(retry)` of its policy for its first `CEILINGS`
    /// retries (contention retries without end).
    ceilings: Vec<Vec<f64>>,
    /// One per layer; empty when there is no budget.
    budgets: Vec<Budget>,
    /// One per layer; empty when the breaker is off.
    breakers: Vec<Breaker>,
    queue: Queue,
    frames: Vec<Frame>,
    /// What each root frame keeps beyond a frame (same index).
    roots: Vec<Operation>,
    /// One per frame when `with_extras`, else empty.
    extras: Vec<Extra>,
    with_extras: bool,
    free_frames: Vec<u32>,
    requests: Vec<Request>,
    free_requests: Vec<u32>,
    /// Requests in service (with a stateless server, also those on their
    /// way to it, which nothing reads then).
    busy: u32,
    /// Unlimited workers and a latency that does not grow with load: a
    /// request's service does not depend on what else is at the server.
    stateless_server: bool,
    /// Requests waiting for a worker.
    waiting: VecDeque<u32>,
    /// Operations cannot affect one another: each runs from its start to
    /// its end before the next one starts (see the module's docs).
    alone: bool,
    /// When `alone`: the start of the next operation, taken once the queue
    /// has nothing left of the last one.
    upcoming: Option<f64>,
    /// Contention: the row's version.
    version: u64,
    /// Arrival draws.
    arrivals: Stream,
    /// The clients' streams, and the operations' server streams.
    clients: Streams,
    servers: Streams,
    rec: Recorder,
    /// A failed request's class from the same draw that failed it: below
    /// `class_below[0]` transient, then throttled, then permanent, else
    /// unknown (the cumulative class weights times `failure`).
    class_below: [f64; 3],
    outage_end: f64,
    layers: u32,
    contention: bool,
    next_client: u64,
    /// Crowd: position of the last start in the window, in `[0, 1]`.
    crowd_position: f64,
    last_start: f64,
    operations: u64,
    ended: PerEnd,
    retried_operations: u64,
    attempts_by_layer: Vec<u64>,
    executions: u64,
    duplicates: u64,
    deduplicated: u64,
    server_work: f64,
    wasted_work: f64,
    finished_at: f64,
    work: u64,
    /// Time of the event being processed.
    current: f64,
}

/// Runs a scenario: natively, on the plain world's own copy of the engine
/// where it applies; in the page always on the general one, as a second
/// copy would cost download for a few percent of speed.
pub(crate) fn run(s: &Scenario) -> Report {
    #[cfg(not(target_arch = "wasm32"))]
    if runs_alone(s) && s.layers == 1 {
        return World::<true>::new(s).run();
    }
    World::<false>::new(s).run()
}

/// Whether operations cannot affect one another, so that each runs alone:
/// see "Operations that cannot meet run alone".
fn runs_alone(s: &Scenario) -> bool {
    stateless_server(s)
        && s.workload != WorkloadKind::Contention
        && s.budget.kind == BudgetKind::None
        && s.breaker.mode == BreakerMode::Off
}

/// Unlimited workers and a latency that does not grow with load: nothing at
/// the server changes a request's service.
fn stateless_server(s: &Scenario) -> bool {
    s.workers == 0 && s.latency_slope == 0.0
}

/// A draw of a random duration.
#[inline(always)]
fn draw(spread: Spread, mean: f64, sd: f64, stream: &mut Stream) -> f64 {
    match spread {
        Spread::Constant => mean,
        Spread::Exponential if mean > 0.0 => stream.exponential_ziggurat(mean),
        Spread::Exponential => 0.0,
        Spread::Normal if mean > 0.0 || sd > 0.0 => stream.normal(mean, sd).abs(),
        Spread::Normal => 0.0,
    }
}

/// The failure a client sees for a failure kind.
fn failure_of(kind: FailureKind, retry_after: f64) -> Failure {
    let status = |code| Failure::Status {
        code,
        retry_after: (retry_after > 0.0).then_some(retry_after),
    };
    match kind {
        FailureKind::Transient | FailureKind::Rejected => status(503),
        FailureKind::Throttled => status(429),
        FailureKind::Connection => Failure::Connection,
        FailureKind::Timeout => Failure::Timeout,
        FailureKind::Permanent => status(400),
        FailureKind::Unknown => status(500),
        FailureKind::Conflict => Failure::Conflict,
    }
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

impl<'a, const PLAIN: bool> World<'a, PLAIN> {
    pub fn new(s: &'a Scenario) -> Self {
        let contention = s.workload == WorkloadKind::Contention;
        let layers = if contention { 1 } else { s.layers };
        let policies: Vec<Policy> = (0..layers)
            .map(|layer| {
                if layer > 0 && s.only_top_retries {
                    Policy {
                        attempts: 1,
                        ..s.policy.clone()
                    }
                } else {
                    s.policy.clone()
                }
            })
            .collect();
        let histograms = (s.policy.attempts - 1).min(super::report::PAUSE_HISTOGRAMS);
        let mut range = pause_range(&s.policy, histograms);
        if s.honour_retry_after {
            range = range.max(s.retry_after);
        }
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
        let class_below = mix.map(|share| share * s.failure);
        let stateless_server = stateless_server(s);
        let alone = runs_alone(s);
        assert!(!PLAIN || (alone && layers == 1), "not a plain world");
        let ceilings = policies
            .iter()
            .map(|policy| {
                (0..policy.attempts.min(CEILINGS))
                    .map(|retry| policy.ceiling(retry))
                    .collect()
            })
            .collect();
        Self {
            s,
            ceilings,
            budgets: if s.budget.kind == BudgetKind::None {
                Vec::new()
            } else {
                (0..layers).map(|_| Budget::new(&s.budget)).collect()
            },
            breakers: if s.breaker.mode == BreakerMode::Off {
                Vec::new()
            } else {
                (0..layers).map(|_| Breaker::new(&s.breaker)).collect()
            },
            policies,
            queue: if alone {
                Queue::short()
            } else {
                Queue::default()
            },
            frames: Vec::new(),
            roots: Vec::new(),
            extras: Vec::new(),
            with_extras: contention
                || layers > 1
                || s.breaker.mode != BreakerMode::Off
                || s.budget.kind == BudgetKind::AwsQuota,
            free_frames: Vec::new(),
            requests: Vec::new(),
            free_requests: Vec::new(),
            busy: 0,
            stateless_server,
            waiting: VecDeque::new(),
            alone,
            upcoming: None,
            version: 0,
            arrivals: Stream::new(s.seed, u64::MAX),
            clients: Streams::new(s.seed),
            servers: Streams::new(s.seed ^ SERVER_STREAMS),
            rec: Recorder::new(s.horizon, s.buckets, s.policy.attempts - 1, range),
            class_below,
            outage_end: s.outage_start + s.outage_duration,
            layers,
            contention,
            next_client: 0,
            crowd_position: 0.0,
            last_start: 0.0,
            operations: 0,
            ended: PerEnd::default(),
            retried_operations: 0,
            attempts_by_layer: vec![0; layers as usize],
            executions: 0,
            duplicates: 0,
            deduplicated: 0,
            server_work: 0.0,
            wasted_work: 0.0,
            finished_at: 0.0,
            work: 0,
            current: 0.0,
        }
    }

    pub fn run(mut self) -> Report {
        let truncated = self.run_events();
        for &request in &self.waiting {
            let queued_at = self.requests[request as usize].queued_at;
            self.rec.occupied(Level::Queue, queued_at, self.s.horizon);
        }
        self.report(truncated)
    }

    /// Runs events until none is left, or until the work limit (then
    /// returns true). When operations run alone, the next one starts only
    /// once the queue has nothing left of the last.
    fn run_events(&mut self) -> bool {
        self.schedule_arrival(0.0);
        loop {
            if self.work >= self.s.work_limit {
                return self.queue.len() > 0 || self.upcoming.is_some();
            }
            let event = if !(PLAIN || self.alone) {
                match self.queue.pop() {
                    Some(event) => event,
                    None => return false,
                }
            } else if self.queue.len() > 0 {
                self.queue.pop_short()
            } else if let Some(start) = self.upcoming.take() {
                self.current = start;
                self.arrival(start);
                continue;
            } else {
                return false;
            };
            // One call site: `handle` is inlined, and in the page a second
            // copy would cost download.
            self.handle(event);
        }
    }

    /// What an event does.
    #[inline(always)]
    fn handle(&mut self, event: Event) {
        let now = event.time();
        self.current = now;
        let index = event.index;
        match event.kind() {
            Kind::Arrival => self.arrival(now),
            Kind::AttemptStart => {
                let frame = &self.frames[index as usize];
                if frame.token == event.token {
                    // Calls one layer down plan their own timeouts; a
                    // retry held back for the breaker kept its own.
                    let timeout = self.extras[index as usize].next_timeout;
                    self.begin_attempt(index, now, timeout);
                }
            }
            Kind::ServerArrive => self.server_arrive(index, now),
            Kind::ServiceDone => self.service_done(index, now),
            Kind::Response => self.deliver(index, now),
            Kind::Timeout => {
                let frame = &mut self.frames[index as usize];
                if frame.token == event.token && frame.waiting {
                    frame.waiting = false;
                    self.attempt_failed(index, now, FailureKind::Timeout, 0.0);
                }
            }
            Kind::ReadArrive => {
                self.extras[index as usize].read_version = self.version;
                // Contention has one layer: the frame is its own root.
                let back = self.hop(index);
                let forth = self.hop(index);
                self.queue
                    .push(now + back + forth, Kind::WriteArrive, index, event.token);
            }
            Kind::WriteArrive => {
                let ok = self.extras[index as usize].read_version == self.version;
                if ok {
                    self.version += 1;
                }
                self.extras[index as usize].write_ok = ok;
                let back = self.hop(index);
                self.queue
                    .push(now + back, Kind::WriteResponse, index, event.token);
            }
            Kind::WriteResponse => {
                self.frames[index as usize].waiting = false;
                if self.extras[index as usize].write_ok {
                    self.attempt_succeeded(index, now);
                } else {
                    self.attempt_failed(index, now, FailureKind::Conflict, 0.0);
                }
            }
        }
    }

    /// The layer of a frame; always the first in a plain world.
    #[inline(always)]
    fn layer(&self, frame: u32) -> usize {
        if PLAIN {
            0
        } else {
            self.frames[frame as usize].layer as usize
        }
    }

    /// Whether `layer` is the one that calls the server.
    #[inline(always)]
    fn last_layer(&self, layer: usize) -> bool {
        PLAIN || layer + 1 == self.layers as usize
    }

    #[inline(always)]
    fn budget(&mut self, layer: usize) -> Option<&mut Budget> {
        if PLAIN {
            None
        } else {
            self.budgets.get_mut(layer)
        }
    }

    #[inline(always)]
    fn breaker_on(&self) -> bool {
        !PLAIN && !self.breakers.is_empty()
    }

    #[inline(always)]
    fn hop(&mut self, root: u32) -> f64 {
        let s = self.s;
        if s.hop == Spread::Constant {
            // No draw: no need to find the operation's stream.
            return s.hop_mean;
        }
        draw(
            s.hop,
            s.hop_mean,
            s.hop_sd,
            &mut self.roots[root as usize].server,
        )
    }

    fn in_outage(&self, now: f64) -> bool {
        self.s.outage_duration > 0.0 && now >= self.s.outage_start && now < self.outage_end
    }

    // ---- workload ----

    /// When the next operation starts, given the previous start `after`.
    #[inline(always)]
    fn next_arrival(&mut self, after: f64) -> Option<f64> {
        let s = self.s;
        match s.workload {
            WorkloadKind::Poisson => {
                let spike_end = s.spike_start + s.spike_duration;
                let mut need = self.arrivals.exponential_ziggurat(1.0);
                if s.spike_duration <= 0.0 {
                    // One piece: what the walk below does, without the walk.
                    let mass = s.rate * (s.horizon - after);
                    return (after < s.horizon && s.rate > 0.0 && need < mass)
                        .then(|| (after + need / s.rate).min(s.horizon));
                }
                let mut time = after;
                // The rate is piecewise constant; walk its pieces, spending
                // an Exp(1) amount of "rate x time" (at most three pieces).
                while time < s.horizon {
                    let (rate, end) =
                        if s.spike_duration > 0.0 && time >= s.spike_start && time < spike_end {
                            (s.spike_rate, spike_end.min(s.horizon))
                        } else if s.spike_duration > 0.0 && time < s.spike_start {
                            (s.rate, s.spike_start.min(s.horizon))
                        } else {
                            (s.rate, s.horizon)
                        };
                    let mass = rate * (end - time);
                    if rate > 0.0 && need < mass {
                        return Some((time + need / rate).min(end));
                    }
                    need -= mass;
                    time = end;
                }
                None
            }
            WorkloadKind::Crowd | WorkloadKind::Contention => {
                let clients = u64::from(s.clients);
                if self.next_client >= clients {
                    return None;
                }
                if s.crowd_window > 0.0 {
                    // The next of the remaining sorted uniforms: the minimum of
                    // `left` uniforms on [position, 1] is position + (1 -
                    // position)(1 - V^(1/left)). Starts come out in order
                    // without drawing and sorting them all up front.
                    let left = (clients - self.next_client) as f64;
                    let v = self.arrivals.uniform();
                    let step = 1.0 - libm::pow(1.0 - v, 1.0 / left);
                    self.crowd_position += (1.0 - self.crowd_position) * step;
                }
                Some(s.crowd_start + s.crowd_window * self.crowd_position)
            }
        }
    }

    #[inline(always)]
    fn arrival(&mut self, now: f64) {
        let client = self.next_client;
        self.next_client += 1;
        self.last_start = now;
        self.operations += 1;
        self.work += 1;
        let stream = self
            .clients
            .stream(if self.s.shared_seed { 0 } else { client });
        let root = self.alloc_frame(NO_PARENT, 0, now, client, stream);
        self.frames[root as usize].root = root;
        self.schedule_arrival(now);
        self.start_first(root, now);
    }

    /// Schedules the operation that starts next after `after`: it waits
    /// outside the queue when operations run alone.
    #[inline(always)]
    fn schedule_arrival(&mut self, after: f64) {
        let next = self.next_arrival(after);
        if PLAIN || self.alone {
            self.upcoming = next;
        } else if let Some(next) = next {
            self.queue.push_single(next, Kind::Arrival, 0, 0);
        }
    }

    // ---- frames ----

    #[inline(always)]
    fn alloc_frame(
        &mut self,
        parent: u32,
        layer: u32,
        origin: f64,
        client: u64,
        stream: Stream,
    ) -> u32 {
        let root = if parent == NO_PARENT {
            0
        } else {
            self.frames[parent as usize].root
        };
        let fresh = Frame {
            token: 0,
            parent,
            root,
            layer,
            attempts: 0,
            previous_pause: self.policies[layer as usize].base,
            origin,
            unknown_retried: false,
            waiting: false,
            finished: false,
            alive: true,
            stream,
        };
        let index = match self.free_frames.pop() {
            Some(index) => {
                // Keep counting tokens in a reused slot, so events and
                // requests of the slot's previous life stay stale.
                let token = self.frames[index as usize].token.wrapping_add(1);
                self.frames[index as usize] = Frame { token, ..fresh };
                index
            }
            None => {
                self.frames.push(fresh);
                (self.frames.len() - 1) as u32
            }
        };
        if parent == NO_PARENT {
            let operation = Operation {
                server: self.servers.stream(client),
                executed: 0,
                outstanding: 0,
            };
            match self.roots.get_mut(index as usize) {
                Some(slot) => *slot = operation,
                // Indices of frames one layer down get copies, never read.
                None => self.roots.resize(index as usize + 1, operation),
            }
        }
        if !PLAIN && self.with_extras {
            let extra = Extra {
                client,
                retry_cost: 0.0,
                next_timeout: f64::INFINITY,
                ticket: Ticket::ORDINARY,
                read_version: 0,
                write_ok: false,
            };
            match self.extras.get_mut(index as usize) {
                Some(slot) => *slot = extra,
                None => self.extras.push(extra),
            }
        }
        index
    }

    #[inline(always)]
    fn release_root_if_done(&mut self, root: u32) {
        let frame = &mut self.frames[root as usize];
        if frame.alive && frame.finished && self.roots[root as usize].outstanding == 0 {
            frame.alive = false;
            self.free_frames.push(root);
        }
    }

    /// A (sub)operation makes its first attempt now.
    #[inline(always)]
    fn start_first(&mut self, frame: u32, now: f64) {
        let (layer, origin) = (self.layer(frame), self.frames[frame as usize].origin);
        if let Some(budget) = self.budget(layer) {
            budget.on_first_try(now);
        }
        match self.policies[layer].plan_attempt(0, now - origin, 0.0) {
            Plan::Attempt { timeout, .. } => self.begin_attempt(frame, now, timeout),
            Plan::DeadlineExceeded => {
                self.fail(frame, now, End::DeadlineExceeded, FailureKind::Timeout)
            }
            Plan::OutOfAttempts => {
                self.fail(frame, now, End::OutOfAttempts, FailureKind::Transient)
            }
        }
    }

    /// Starts an attempt at `start` (now, or after a pause for calls that go
    /// straight to the network; never in the future with a breaker).
    /// Inlined natively, where it is the hottest code; left a call in the
    /// page, where its three copies would cost 2 KB of download.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn begin_attempt(&mut self, frame: u32, start: f64, timeout: f64) {
        if self.breaker_on() && !self.admit(frame, start) {
            return;
        }
        let f = &mut self.frames[frame as usize];
        f.attempts += 1;
        f.token = f.token.wrapping_add(1);
        f.waiting = true;
        let (token, first, root) = (f.token, f.attempts == 1, f.root);
        let parent_attempts = f.attempts;
        let layer = self.layer(frame);
        self.attempts_by_layer[layer] += 1;
        if !PLAIN && self.contention {
            self.work += 1;
            self.rec.attempt(start, first);
            let hop = self.hop(root);
            self.queue.push(start + hop, Kind::ReadArrive, frame, token);
        } else if !self.last_layer(layer) {
            self.call_layer_below(frame, layer as u32, parent_attempts, start);
        } else {
            self.work += 1;
            self.rec.attempt(start, first);
            self.roots[root as usize].outstanding += 1;
            let request = self.alloc_request(Request {
                frame,
                token,
                root,
                service: 0.0,
                failure: None,
                queued_at: 0.0,
            });
            if timeout.is_finite() {
                if start <= self.current {
                    self.queue
                        .push_in_order(start + timeout, Kind::Timeout, frame, token);
                } else {
                    self.queue
                        .push(start + timeout, Kind::Timeout, frame, token);
                }
            }
            let hop = self.hop(root);
            // A request reaches the server without a trip through the queue
            // when nothing it meets there can change before it arrives: the
            // server is stateless (unlimited workers, latency independent of
            // load), so its fate is known now, or it is sent at the current
            // instant with no network time.
            if PLAIN || self.stateless_server || (hop == 0.0 && start <= self.current) {
                self.server_arrive(request, start + hop);
            } else {
                self.queue.push(start + hop, Kind::ServerArrive, request, 0);
            }
        }
    }

    /// The attempt of a frame above the last layer: a call one layer down,
    /// with its own frame and its own stream (varied by layer and by which
    /// attempt of ours it serves). Kept out of line: it recurses into
    /// `begin_attempt`, which is then free to be inlined where it is hot.
    #[inline(never)]
    fn call_layer_below(&mut self, frame: u32, layer: u32, parent_attempts: u32, start: f64) {
        let seed = self.s.seed ^ (u64::from(layer + 1) << 56) ^ (u64::from(parent_attempts) << 40);
        let client = self.extras[frame as usize].client;
        let id = if self.s.shared_seed { 0 } else { client };
        let origin = self.frames[frame as usize].origin;
        let child = self.alloc_frame(frame, layer + 1, origin, client, Stream::new(seed, id));
        self.start_first(child, start);
    }

    /// Asks the layer's breaker to let the frame's next attempt go at `now`.
    /// A refusal ends the (sub)operation at once; its caller one layer up
    /// sees a failed call, as when a budget refuses.
    fn admit(&mut self, frame: u32, now: f64) -> bool {
        let f = &self.frames[frame as usize];
        let first = f.attempts == 0;
        match self.breakers[f.layer as usize].admit(now, first) {
            Some(ticket) => {
                self.extras[frame as usize].ticket = ticket;
                true
            }
            None => {
                self.rec.breaker_refusal(now);
                self.fail(frame, now, End::BreakerOpen, FailureKind::Transient);
                false
            }
        }
    }

    /// Feeds the outcome of the frame's attempt to its layer's breaker.
    fn breaker_outcome(&mut self, frame: u32, now: f64, success: bool) {
        let f = &self.frames[frame as usize];
        let layer = f.layer as usize;
        let breaker = &mut self.breakers[layer];
        let ticket = self.extras[frame as usize].ticket;
        if breaker.on_outcome(now, ticket, success) && layer + 1 == self.layers as usize {
            let until = now + breaker.config().cool_down;
            self.rec.breaker_open(now, until);
        }
    }

    #[inline(always)]
    fn attempt_succeeded(&mut self, frame: u32, now: f64) {
        if self.breaker_on() {
            self.breaker_outcome(frame, now, true);
        }
        let layer = self.layer(frame);
        // Runs without extras have no budget that refunds.
        let cost = self
            .extras
            .get(frame as usize)
            .map_or(0.0, |e| e.retry_cost);
        if let Some(budget) = self.budget(layer) {
            budget.on_success(now, cost);
        }
        if self.last_layer(layer) {
            self.rec.success(now);
        }
        self.succeed(frame, now);
    }

    fn attempt_failed(&mut self, frame: u32, now: f64, kind: FailureKind, retry_after: f64) {
        if self.breaker_on() {
            self.breaker_outcome(frame, now, false);
        }
        let layer = self.layer(frame);
        if let Some(budget) = self.budget(layer) {
            budget.on_failure(now);
        }
        if self.last_layer(layer) {
            self.rec.failure(now, kind);
        }
        let failure = failure_of(kind, retry_after);
        let f = &mut self.frames[frame as usize];
        if !classify::retryable(&failure, f.unknown_retried) {
            return self.fail(frame, now, End::NotRetryable, kind);
        }
        let policy = &self.policies[layer];
        if f.attempts >= policy.attempts {
            return self.fail(frame, now, End::OutOfAttempts, kind);
        }
        let retry = f.attempts - 1;
        let ceiling = match self.ceilings[layer].get(retry as usize) {
            Some(&ceiling) => ceiling,
            None => policy.ceiling(retry),
        };
        let pause = policy.jittered(ceiling, f.previous_pause, &mut f.stream);
        f.previous_pause = pause;
        let pause = if self.s.honour_retry_after && retry_after > pause {
            retry_after
        } else {
            pause
        };
        let timeout = match policy.plan_attempt(f.attempts, now - f.origin, pause) {
            Plan::Attempt { timeout, .. } => timeout,
            Plan::OutOfAttempts => return self.fail(frame, now, End::OutOfAttempts, kind),
            Plan::DeadlineExceeded => return self.fail(frame, now, End::DeadlineExceeded, kind),
        };
        let cost = match self.budget(layer) {
            None => 0.0,
            Some(budget) => match budget.try_retry(now, kind == FailureKind::Timeout) {
                Some(cost) => cost,
                None => {
                    self.rec.refusal(now);
                    return self.fail(frame, now, End::BudgetExhausted, kind);
                }
            },
        };
        if let Some(extra) = self.extras.get_mut(frame as usize) {
            extra.retry_cost = cost;
        }
        let f = &mut self.frames[frame as usize];
        if kind == FailureKind::Unknown {
            f.unknown_retried = true;
        }
        let token = f.token;
        if layer == 0 {
            self.rec.pause(retry, pause);
        }
        let start = now + pause;
        if self.breaker_on() {
            // The breaker is asked when the retry is sent, after the pause
            // (the budget was asked now, and keeps what it charged).
            self.extras[frame as usize].next_timeout = timeout;
            self.queue.push(start, Kind::AttemptStart, frame, token);
        } else if (!PLAIN && self.contention) || self.last_layer(layer) {
            self.begin_attempt(frame, start, timeout);
        } else {
            self.queue.push(start, Kind::AttemptStart, frame, token);
        }
    }

    /// Ends a (sub)operation that succeeded; its caller one layer up sees
    /// a successful call.
    fn succeed(&mut self, frame: u32, now: f64) {
        if let Some(parent) = self.close(frame, now, End::Succeeded) {
            self.attempt_succeeded(parent, now);
        }
    }

    /// Ends a (sub)operation that failed: `end` says why, `last` is the
    /// error of its last attempt (a 503 when it made none). Its caller one
    /// layer up sees what a failed call looks like from outside: the last
    /// error, a 503 when the budget or the breaker said no, a timeout when
    /// the deadline ran out.
    fn fail(&mut self, frame: u32, now: f64, end: End, last: FailureKind) {
        if let Some(parent) = self.close(frame, now, end) {
            let seen = match end {
                End::NotRetryable | End::OutOfAttempts => last,
                End::BudgetExhausted | End::BreakerOpen => FailureKind::Transient,
                End::DeadlineExceeded => FailureKind::Timeout,
                End::Succeeded => unreachable!("a success ends through `succeed`"),
            };
            self.attempt_failed(parent, now, seen, 0.0);
        }
    }

    /// Closes a frame that ended: a root's operation is counted, a frame one
    /// layer down is freed and its parent, returned, stops waiting.
    #[inline(always)]
    fn close(&mut self, frame: u32, now: f64, end: End) -> Option<u32> {
        let f = &mut self.frames[frame as usize];
        f.finished = true;
        f.waiting = false;
        f.token = f.token.wrapping_add(1);
        let parent = f.parent;
        if parent == NO_PARENT {
            // A root was created when its operation started.
            let latency = now - f.origin;
            self.retried_operations += u64::from(f.attempts > 1);
            self.ended[end] += 1;
            self.rec.operation_done(now, latency, end == End::Succeeded);
            if now > self.finished_at {
                self.finished_at = now;
            }
            self.release_root_if_done(frame);
            return None;
        }
        f.alive = false;
        self.free_frames.push(frame);
        self.frames[parent as usize].waiting = false;
        Some(parent)
    }

    // ---- server ----

    #[inline(always)]
    fn alloc_request(&mut self, request: Request) -> u32 {
        match self.free_requests.pop() {
            Some(index) => {
                self.requests[index as usize] = request;
                index
            }
            None => {
                self.requests.push(request);
                (self.requests.len() - 1) as u32
            }
        }
    }

    /// The server is done with a request that gets no answer.
    fn resolve(&mut self, request: u32) {
        let root = self.requests[request as usize].root;
        self.free_requests.push(request);
        self.roots[root as usize].outstanding -= 1;
        self.release_root_if_done(root);
    }

    /// Sends an error answer without service. Always through the queue, so
    /// the server never calls back into a client in the middle of that
    /// client's own step.
    fn respond_error(&mut self, request: u32, now: f64, kind: FailureKind) {
        self.requests[request as usize].failure = Some(kind);
        let back = self.hop(self.requests[request as usize].root);
        self.queue.push(now + back, Kind::Response, request, 0);
    }

    #[inline(always)]
    fn server_arrive(&mut self, request: u32, now: f64) {
        if self.in_outage(now) {
            match self.s.outage_mode {
                OutageMode::FailFast => self.respond_error(request, now, FailureKind::Connection),
                OutageMode::Hang => self.resolve(request),
            }
        } else if PLAIN || self.s.workers == 0 || self.busy < self.s.workers {
            self.start_service(request, now);
        } else if self.waiting.len() < self.s.queue_limit as usize {
            self.requests[request as usize].queued_at = now;
            self.waiting.push_back(request);
        } else {
            self.respond_error(request, now, FailureKind::Rejected);
        }
    }

    #[inline(always)]
    fn start_service(&mut self, request: u32, now: f64) {
        let s = self.s;
        let root = self.requests[request as usize].root;
        let server = &mut self.roots[root as usize].server;
        let service = draw(s.service, s.service_time, s.service_sd, server)
            + s.latency_slope * f64::from(self.busy);
        self.rec.occupied(Level::InFlight, now, now + service);
        self.busy += 1;
        self.requests[request as usize].service = service;
        self.queue
            .push(now + service, Kind::ServiceDone, request, 0);
    }

    #[inline(always)]
    fn service_done(&mut self, request: u32, now: f64) {
        self.busy -= 1;
        // A plain world's server has no queue.
        let next = if PLAIN {
            None
        } else {
            self.waiting.pop_front()
        };
        if let Some(next) = next {
            let queued_at = self.requests[next as usize].queued_at;
            self.rec.occupied(Level::Queue, queued_at, now);
            self.start_service(next, now);
        }
        let Request {
            frame,
            token,
            root,
            service,
            ..
        } = self.requests[request as usize];
        self.server_work += service;
        let s = self.s;
        let draw = self.roots[root as usize].server.uniform();
        if draw < s.failure {
            // Reuse the draw: given draw < failure, it is uniform below it.
            let below = &self.class_below;
            let kind = if draw < below[0] {
                FailureKind::Transient
            } else if draw < below[1] {
                FailureKind::Throttled
            } else if draw < below[2] {
                FailureKind::Permanent
            } else {
                FailureKind::Unknown
            };
            self.requests[request as usize].failure = Some(kind);
        } else {
            self.execute(root);
        }
        let lost =
            s.lost_responses > 0.0 && self.roots[root as usize].server.chance(s.lost_responses);
        let f = &self.frames[frame as usize];
        if lost || f.token != token || !f.waiting {
            self.wasted_work += service;
            return self.resolve(request);
        }
        let back = self.hop(root);
        if back == 0.0 {
            self.deliver(request, now);
        } else {
            self.queue.push(now + back, Kind::Response, request, 0);
        }
    }

    /// The server runs the operation's action (a successful request).
    #[inline(always)]
    fn execute(&mut self, root: u32) {
        let operation = &mut self.roots[root as usize];
        if operation.executed > 0 && self.s.idempotency_key {
            // The key is known: answer as the first execution did.
            self.deduplicated += 1;
            return;
        }
        operation.executed += 1;
        self.executions += 1;
        if operation.executed > 1 {
            self.duplicates += 1;
        }
    }

    /// An answer reaches the client.
    #[inline(always)]
    fn deliver(&mut self, request: u32, now: f64) {
        let Request {
            frame,
            token,
            root,
            service,
            failure,
            ..
        } = self.requests[request as usize];
        self.free_requests.push(request);
        self.roots[root as usize].outstanding -= 1;
        let f = &mut self.frames[frame as usize];
        if f.token == token && f.waiting {
            f.waiting = false;
            match failure {
                None => self.attempt_succeeded(frame, now),
                Some(kind) => {
                    // The server asks throttled and rejected callers to wait.
                    let retry_after = match kind {
                        FailureKind::Throttled | FailureKind::Rejected => self.s.retry_after,
                        FailureKind::Transient
                        | FailureKind::Connection
                        | FailureKind::Timeout
                        | FailureKind::Permanent
                        | FailureKind::Unknown
                        | FailureKind::Conflict => 0.0,
                    };
                    self.attempt_failed(frame, now, kind, retry_after);
                }
            }
        } else {
            self.wasted_work += service;
        }
        self.release_root_if_done(root);
    }

    // ---- report ----

    fn report(self, truncated: bool) -> Report {
        let s = self.s;
        let rec = self.rec;
        let failures = rec.failures;
        let (first_tries, retries, successes, budget_refusals, breaker_refusals) = (
            rec.first_tries,
            rec.retries,
            rec.successes,
            rec.budget_refusals,
            rec.breaker_refusals,
        );
        let breaker_trips = self.breakers.iter().map(Breaker::trips).sum();
        let outage = (s.outage_start, self.outage_end, s.outage_duration > 0.0);
        let workers = s.workers;
        let mean_service = s.service_time;
        let (series, pauses, latency) = rec.finish(|start, end| {
            if outage.2 && start < outage.1 && end > outage.0 {
                0.0
            } else if workers == 0 || mean_service <= 0.0 {
                f64::INFINITY
            } else {
                f64::from(workers) / mean_service
            }
        });
        let operations = self.operations;
        let per_operation = |count: u64| {
            if operations == 0 {
                0.0
            } else {
                count as f64 / operations as f64
            }
        };
        let ended: u64 = self.ended.0.iter().sum();
        let resolved = successes + failures.0.iter().sum::<u64>();
        let arrivals_end = match s.workload {
            WorkloadKind::Poisson => s.horizon,
            _ => self.last_start,
        };
        let summary = Summary {
            operations,
            succeeded: self.ended[End::Succeeded],
            not_retryable: self.ended[End::NotRetryable],
            out_of_attempts: self.ended[End::OutOfAttempts],
            budget_exhausted: self.ended[End::BudgetExhausted],
            breaker_open: self.ended[End::BreakerOpen],
            deadline_exceeded: self.ended[End::DeadlineExceeded],
            unfinished: operations - ended,
            success_rate: if operations == 0 {
                1.0
            } else {
                self.ended[End::Succeeded] as f64 / operations as f64
            },
            attempts_per_operation: per_operation(self.attempts_by_layer[0]),
            server_calls_per_operation: per_operation(first_tries + retries),
            retried_operations: self.retried_operations,
            retried_share: per_operation(self.retried_operations),
            attempts_by_layer: self.attempts_by_layer,
            first_tries,
            retries,
            successes,
            failed: failures,
            unfinished_attempts: first_tries + retries - resolved,
            budget_refusals,
            breaker_refusals,
            breaker_trips,
            executions: self.executions,
            duplicates: self.duplicates,
            deduplicated: self.deduplicated,
            latency_mean: latency.mean(),
            latency_p50: latency.quantile(0.5),
            latency_p90: latency.quantile(0.9),
            latency_p99: latency.quantile(0.99),
            latency_max: latency.max,
            server_work: self.server_work,
            wasted_work: self.wasted_work,
            goodput: self.ended[End::Succeeded] as f64 / s.horizon,
            finished_at: self.finished_at,
            drain_time: (self.finished_at - arrivals_end).max(0.0),
            truncated,
            // Arrivals of operations run alone never enter the queue: each
            // is an event of its own, pending alone.
            events: self.queue.popped() + if PLAIN || self.alone { operations } else { 0 },
            peak_events: self.queue.peak().max(usize::from(operations > 0)) as u64,
        };
        Report {
            summary,
            series,
            pauses,
            latency,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Shape;

    /// Every number of two reports, walked together: equal within a relative
    /// `1e-9`, which for counts below a million means exactly equal.
    fn assert_close(a: &serde_json::Value, b: &serde_json::Value, path: &str) {
        use serde_json::Value;
        match (a, b) {
            (Value::Object(a), Value::Object(b)) => {
                assert_eq!(a.len(), b.len(), "{path}");
                for (key, value) in a {
                    if key != "peak_events" {
                        assert_close(value, &b[key], &format!("{path}.{key}"));
                    }
                }
            }
            (Value::Array(a), Value::Array(b)) => {
                assert_eq!(a.len(), b.len(), "{path}");
                for (i, (a, b)) in a.iter().zip(b).enumerate() {
                    assert_close(a, b, &format!("{path}[{i}]"));
                }
            }
            (Value::Number(x), Value::Number(y)) => {
                let (x, y) = (x.as_f64().expect("finite"), y.as_f64().expect("finite"));
                assert!(
                    (x - y).abs() <= 1e-9 * x.abs().max(y.abs()),
                    "{path}: {x} vs {y}"
                );
            }
            _ => assert_eq!(a, b, "{path}"),
        }
    }

    /// Running operations one at a time is only a faster order of the same
    /// events: every operation draws from its own streams, so both ways
    /// report the same numbers; sums may differ in their last bits, as they
    /// add the same terms in another order. The worlds read every kind of
    /// draw and reach late answers, duplicates, a crowd starting at one
    /// instant with a shared seed, a spike and three layers. Worlds of one
    /// layer run a third way, on the plain world's copy of the engine.
    #[test]
    fn operations_alone_report_what_the_shared_queue_does() {
        let base = Scenario {
            seed: 3,
            horizon: 20.0,
            buckets: 40,
            rate: 300.0,
            workers: 0,
            service: Spread::Normal,
            service_time: 0.05,
            service_sd: 0.02,
            hop: Spread::Exponential,
            hop_mean: 0.01,
            failure: 0.3,
            mix_transient: 0.5,
            mix_throttled: 0.3,
            mix_permanent: 0.1,
            mix_unknown: 0.1,
            retry_after: 0.2,
            honour_retry_after: true,
            lost_responses: 0.05,
            idempotency_key: false,
            outage_start: 5.0,
            outage_duration: 3.0,
            layers: 2,
            policy: Policy {
                attempts: 4,
                shape: Shape::Exponential,
                base: 0.2,
                cap: 2.0,
                jitter: Jitter::Full,
                attempt_timeout: Some(0.3),
                deadline: Some(3.0),
                ..Policy::default()
            },
            ..Scenario::default()
        };
        // Service longer than the timeout: every answer comes late, and
        // the action runs again on each retry.
        let late = |idempotency_key| Scenario {
            service: Spread::Constant,
            service_time: 0.4,
            outage_mode: OutageMode::Hang,
            idempotency_key,
            layers: 1,
            ..base.clone()
        };
        let crowd = Scenario {
            workload: WorkloadKind::Crowd,
            clients: 3000,
            crowd_start: 1.0,
            crowd_window: 0.0,
            shared_seed: true,
            policy: Policy {
                jitter: Jitter::Decorrelated,
                ..base.policy.clone()
            },
            ..base.clone()
        };
        let spike = Scenario {
            rate: 50.0,
            spike_rate: 500.0,
            spike_start: 4.0,
            spike_duration: 2.0,
            layers: 3,
            ..base.clone()
        };
        let one_layer = Scenario {
            layers: 1,
            ..base.clone()
        };
        let worlds = [late(false), late(true), one_layer, crowd, spike];
        for scenario in worlds.into_iter().chain([base]) {
            let scenario = scenario.sanitized();
            let alone = World::<false>::new(&scenario);
            assert!(alone.alone);
            let mut together = World::<false>::new(&scenario);
            together.alone = false;
            together.queue = Queue::default();
            let (alone, together) = (alone.run(), together.run());
            let json = |report: &Report| serde_json::to_value(report).expect("serializable");
            if scenario.layers == 1 {
                // The plain world's copy of the engine runs the same events
                // in the same order: the same report to the last bit.
                let plain = World::<true>::new(&scenario).run();
                assert_eq!(json(&plain), json(&alone));
            }
            let summary = &alone.summary;
            assert!(summary.retries > 1000, "{summary:?}");
            assert!(summary.peak_events < 100, "{summary:?}");
            assert!(together.summary.peak_events > 100);
            if !scenario.idempotency_key {
                assert!(summary.duplicates > 10, "{summary:?}");
            } else {
                assert!(summary.deduplicated > 10, "{summary:?}");
            }
            assert_close(&json(&alone), &json(&together), "report");
        }
    }
}
