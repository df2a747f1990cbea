//! The state of a run and what each event does to it.
//!
//! A reader's map: this file holds the [`World`], its run loop and what each
//! kind of event leads to ([`World::handle`]); the rest is split by who acts:
//!
//! - `arrivals`: the workload, when each operation starts;
//! - `client`: operations and their calls through the layers (frames), the
//!   attempts they make, pauses, budgets and breakers, and how they end;
//! - `server`: what the server does with a request, from its arrival to
//!   the answer that reaches (or misses) its client;
//! - `contention`: the shared row of the contention workload;
//! - `tally`: the totals of a run, and the report made of them;
//! - `slab`: storage that reuses the slots of work that is done.
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
//! then holds one operation's few events (`Queue::short`: the earliest in a
//! slot of its own, the rest in a heap), where a calendar of every operation
//! in flight would hold thousands spread over memory. Each event still
//! happens at its time and in its order within the operation, the series and
//! histograms do not care in which order they are added to, and every draw
//! an operation meets comes from streams of its own (its client's pauses;
//! its server and network). So the report is the same number for number,
//! but for sums whose last bits depend on the order of their terms; a unit
//! test below checks this on worlds that read every kind of draw.
//!
//! ## The plain world
//!
//! Worlds whose operations run alone through one layer, the commonest kind
//! and the benchmark's, are compiled apart (`World<'_, true>`): there the
//! constant `PLAIN` folds away every check for budgets, breakers, layers,
//! contention and a server's queue. Natively only: the page runs the
//! general copy, whose download a second one would nearly double. The same
//! unit test holds both copies to the same report, bit for bit. What this
//! and the other speed tricks buy is measured in `sim`'s docs ("Speed").
//!
//! ## Bounds
//!
//! A share link is input from anyone, so every run is bounded in time and
//! memory, whatever the link asks for, and a run that reaches a bound stops
//! there and says so (`Summary::cut`):
//!
//! - *work*: operations plus server attempts reach `work_limit`, the bound
//!   runs have always had;
//! - *time*: what a run costs is its events, and an event costs more when
//!   the run holds more in flight (its memory no longer fits the caches),
//!   and the queue's own work on top (events sorted in a bucket or moved
//!   when the calendar is rebuilt, `Queue::moves`). Every `REVIEW_EVERY`
//!   events the run adds their cost, each event weighted by `event_weight`
//!   of the bytes its records in flight take, and stops once the sum reaches
//!   `COST_PER_WORK` per unit of `work_limit`: with the limit runs of a
//!   configuration get, about a second natively;
//! - *memory*: the most calls, requests and pending events alive at once,
//!   counted at the same reviews, may not exceed `MAX_IN_FLIGHT_BYTES` at
//!   their nominal sizes: a server that drowns in more is itself the lesson.
//!
//! Both new bounds read only simulated state, so a run stops at the same
//! event on every machine, natively and in the page. A review costs a count
//! down and a branch per event, and the rest of its work is done once every
//! few thousand events. Operations that run alone skip it: they hold one
//! operation at a time, and every event of theirs comes of an operation or
//! an attempt, which the work limit counts, so it bounds their time (half a
//! second natively at the most measured) and the plain world's path stays
//! as it was. Their cost is still counted, at the end.

mod arrivals;
mod client;
mod contention;
mod hedge;
mod server;
mod slab;
mod tally;

use super::engine::{Event, EventKind, Queue};
use super::recorder::{Level, Recorder};
use super::report::{CutReason, Report};
use super::trace::{Trace, Tracer};
use super::{Fault, Law, Scenario, WorkloadKind};
use arrivals::Workload;
use client::{Extra, Frame, Layers, Operation};
use retry_core::breaker::BreakerMode;
use retry_core::budget::{BudgetKind, ChargeAt};
use server::Server;
use slab::{SideTable, Slab};
use tally::Tally;

/// The state of a run. `PLAIN` worlds are known, when compiled, to run
/// their operations alone through one layer: the commonest kind, and the
/// benchmark's. Compiled apart, their runs skip every check for what they
/// cannot meet (budgets, breakers, layers, contention, a server's queue);
/// the code and the numbers are the same (see [`Running`]).
pub(crate) struct World<const PLAIN: bool> {
    /// The scenario, sanitized. The world owns it, so that a run can be
    /// kept between slices (see [`Running`]).
    s: Scenario,
    /// Every layer's policy, budget and breaker.
    layers: Layers,
    queue: Queue,
    /// Where operations come from, and when the next one starts.
    workload: Workload,
    /// Operations and their calls one layer down.
    frames: Slab<Frame>,
    /// What each root frame keeps beyond a frame (same index).
    roots: SideTable<Operation>,
    /// One per frame when `with_extras`, else empty.
    extras: SideTable<Extra>,
    with_extras: bool,
    /// One per frame when hedging (`hedge.rs`), else empty.
    hedges: SideTable<hedge::Hedge>,
    /// One per frame when a fan-out hedges its calls, else empty.
    fan_calls: SideTable<hedge::FanCalls>,
    /// The server: requests, workers and queue.
    server: Server,
    /// How long a network hop takes.
    hop_law: Law,
    /// Contention: the row's version.
    version: u64,
    contention: bool,
    /// Operations cannot affect one another: each runs from its start to
    /// its end before the next one starts (see the module's docs).
    alone: bool,
    /// What the report counts.
    tally: Tally,
    /// Operations and server attempts so far, against `work_limit`.
    work: u64,
    /// Where the slice being run stops: `work_limit`, or less while a
    /// run goes a slice at a time (see [`World::advance`]).
    stop_at: u64,
    /// Which bound cut the run, if one did, and how far it got, once it
    /// has ended.
    ended: Option<(Option<CutReason>, f64)>,
    /// Events to handle before the next review of the bounds.
    until_review: u64,
    /// The slice being run also stops at the first review after this many
    /// events handled (see [`World::advance`]).
    pause_after: u64,
    /// Events handled and the queue's moves at the last review.
    reviewed_events: u64,
    reviewed_moves: u64,
    /// Events handled up to the last review, each weighted by what it
    /// costs (see "Bounds"), against `cost_limit`.
    cost: u64,
    cost_limit: u64,
    /// Time of the event being processed.
    current: f64,
    /// Records the replay's trace; only in general worlds, only when asked
    /// for (`run_traced`).
    trace: Option<Box<Tracer>>,
}

/// Why [`World::run_events`] returned.
enum Stop {
    /// The slice's work is done; the run goes on with the next slice.
    Paused,
    /// The run has ended: at a bound with work left, or with none.
    Ended(Option<CutReason>),
}

/// Events between two reviews of a run's bounds (see "Bounds").
pub const REVIEW_EVERY: u64 = 4096;

/// Cost units a run may spend per unit of its `work_limit`; an event costs
/// at least one unit.
pub const COST_PER_WORK: u64 = 7;

/// Nominal bytes of a call or a request (between a frame with what is
/// kept beside it and a request), and of a pending event, about as a build
/// for the native target lays them out. Nominal, so that a run stops at the
/// same event wherever it runs.
const CALL_BYTES: u64 = 128;
const EVENT_BYTES: u64 = 32;

/// Most bytes in flight (at nominal sizes, see [`in_flight_bytes`]) a run
/// may hold: growing vectors double, so the run's memory can reach a few
/// times this.
pub const MAX_IN_FLIGHT_BYTES: u64 = 80 << 20;

/// Bytes in flight, at nominal sizes, of `calls` calls and requests and
/// `events` pending events: what the bound on memory limits.
pub fn in_flight_bytes(calls: u64, events: u64) -> u64 {
    calls * CALL_BYTES + events * EVENT_BYTES
}

/// Nominal bytes of the records an event may touch, for its weight (see
/// [`event_weight`]): a frame (one cache line), the operation kept beside a
/// root, the extras kept beside a frame in worlds that need them, and a
/// request at the server; a pending event is `EVENT_BYTES`.
const FRAME_BYTES: u64 = 64;
const OPERATION_BYTES: u64 = 32;
const EXTRA_BYTES: u64 = 48;
const REQUEST_BYTES: u64 = 32;

/// Bytes in flight per unit an event costs beyond the first: about what
/// the second-level cache of one core holds on the machine the bound was
/// calibrated on (2 MiB).
const BYTES_PER_UNIT: u64 = 3 << 19;

/// What an event costs, in units of one whose run fits the caches, when
/// the records in flight take `bytes` at most (at nominal sizes).
///
/// Bytes, not a count of calls and events: what an event costs follows the
/// memory its run's records spread over, and records differ in size: a
/// client of the contention workload keeps a frame, its operation and its
/// extras (144 bytes), an operation of a plain world a frame and its
/// operation (96), a request or a pending event 32. Counted alike, the contention workload's crowds took up to 2.7 times
/// the median time per unit (54 ns against 20, in the calibration that
/// `examples/fuzz.rs` prints for its slowest runs); weighed by bytes, the
/// slowest run of any kind takes 1.6 times the median (36 ns against 23).
fn event_weight(bytes: u64) -> u64 {
    1 + bytes / BYTES_PER_UNIT
}

/// A run in progress, that goes a slice of work at a time: on the plain
/// world's own copy of the engine where it applies (natively, and in wasm
/// with the feature `plain-copy`: see "The plain world" in `sim`), else
/// on the general one. Between slices it keeps everything, so slicing
/// changes no number (see [`World::advance`]).
pub(crate) enum Running {
    #[cfg(any(not(target_arch = "wasm32"), feature = "plain-copy"))]
    Plain(World<true>),
    General(World<false>),
}

impl Running {
    /// A run of `s`, which must be sanitized.
    pub fn new(s: Scenario) -> Self {
        #[cfg(any(not(target_arch = "wasm32"), feature = "plain-copy"))]
        if runs_alone(&s)
            && s.layers == 1
            && !server::faults(&s)
            && !s.pass_deadline
            && s.fan_out == 1
        {
            let mut world = World::<true>::new(s);
            world.start();
            return Running::Plain(world);
        }
        let mut world = World::<false>::new(s);
        world.start();
        Running::General(world)
    }

    /// A run of `s` on the general world with a tracer attached: the same
    /// report as [`Running::new`], and the trace of a sample of its
    /// operations.
    pub fn traced(s: Scenario) -> Self {
        let mut world = World::<false>::new(s);
        world.trace = Some(Box::new(Tracer::new(
            world.s.seed,
            world.s.estimated_operations(),
        )));
        world.start();
        Running::General(world)
    }

    /// See [`World::advance`].
    pub fn advance(&mut self, work: u64) -> bool {
        match self {
            #[cfg(any(not(target_arch = "wasm32"), feature = "plain-copy"))]
            Running::Plain(world) => world.advance(work),
            Running::General(world) => world.advance(work),
        }
    }

    /// See [`World::so_far`].
    pub fn so_far(&self) -> Report {
        match self {
            #[cfg(any(not(target_arch = "wasm32"), feature = "plain-copy"))]
            Running::Plain(world) => world.so_far(),
            Running::General(world) => world.so_far(),
        }
    }

    /// See [`World::simulated_until`].
    pub fn simulated_until(&self) -> f64 {
        match self {
            #[cfg(any(not(target_arch = "wasm32"), feature = "plain-copy"))]
            Running::Plain(world) => world.simulated_until(),
            Running::General(world) => world.simulated_until(),
        }
    }

    /// The scenario being run.
    pub fn scenario(&self) -> &Scenario {
        match self {
            #[cfg(any(not(target_arch = "wasm32"), feature = "plain-copy"))]
            Running::Plain(world) => &world.s,
            Running::General(world) => &world.s,
        }
    }

    /// Runs what is left and reports, with the trace if one was asked for.
    pub fn finish(self) -> (Report, Option<Trace>) {
        match self {
            #[cfg(any(not(target_arch = "wasm32"), feature = "plain-copy"))]
            Running::Plain(world) => (world.run(), None),
            Running::General(mut world) => {
                world.advance(u64::MAX);
                let trace = world.trace.take().map(|tracer| tracer.finish());
                (world.run(), trace)
            }
        }
    }
}

/// Whether operations cannot affect one another, so that each runs alone:
/// see "Operations that cannot meet run alone".
fn runs_alone(s: &Scenario) -> bool {
    server::stateless(s)
        && s.workload != WorkloadKind::Contention
        // A closed loop's next start waits for its client's last end.
        && s.workload != WorkloadKind::Closed
        && (0..s.layers).all(|layer| s.budget_of_layer(layer).kind() == BudgetKind::None)
        && s.breaker.mode == BreakerMode::Off
        // A service's workers are shared by the operations through it.
        && !(s.layers > 1 && s.layer_workers.iter().any(|&w| w > 0))
}

impl<const PLAIN: bool> World<PLAIN> {
    pub fn new(s: Scenario) -> Self {
        let contention = s.workload == WorkloadKind::Contention;
        let layers = Layers::new(&s, contention);
        let alone = runs_alone(&s);
        assert!(!PLAIN || (alone && layers.count == 1), "not a plain world");
        Self {
            queue: if alone {
                Queue::short()
            } else {
                Queue::default()
            },
            workload: Workload::new(&s),
            frames: Slab::default(),
            roots: SideTable::default(),
            extras: SideTable::default(),
            hedges: SideTable::default(),
            fan_calls: SideTable::default(),
            with_extras: contention
                || s.policy.hedge
                || s.fault(Fault::Partition).is_some()
                || layers.count > 1
                || s.pass_deadline
                || s.fan_out > 1
                || s.breaker.mode != BreakerMode::Off
                || (0..s.layers).any(|layer| {
                    let kind = s.budget_of_layer(layer).kind();
                    matches!(kind, BudgetKind::AwsQuota | BudgetKind::AwsAdaptive)
                        // A retry charged as it leaves waits for it there.
                        || (kind != BudgetKind::None && s.budget.charge_at == ChargeAt::Send)
                }),
            server: Server::new(&s),
            hop_law: Law::hop(&s),
            version: 0,
            contention,
            alone,
            tally: Tally::new(&s, layers.count),
            layers,
            work: 0,
            stop_at: 0,
            ended: None,
            until_review: REVIEW_EVERY,
            pause_after: u64::MAX,
            reviewed_events: 0,
            reviewed_moves: 0,
            cost: 0,
            cost_limit: s.work_limit.saturating_mul(COST_PER_WORK),
            current: 0.0,
            trace: None,
            s,
        }
    }

    /// Starts the run: its first arrival. Apart from [`World::new`], so
    /// that a tracer attached in between sees it.
    fn start(&mut self) {
        if let Some(loss) = self.s.fault(Fault::CapacityLoss) {
            self.queue.push(loss.end, EventKind::CapacityBack, 0, 0);
        }
        if self.s.workload == WorkloadKind::Closed {
            for client in 0..self.s.clients {
                self.think_then_start(client, 0.0);
            }
        } else {
            self.schedule_arrival(0.0);
        }
    }

    /// Runs what is left of a started world and reports.
    fn run(mut self) -> Report {
        self.advance(u64::MAX);
        let (cut, simulated_until) = self.ended.expect("a run without a slice limit ends");
        self.report(cut, simulated_until)
    }

    /// Runs events until `work` more units of work are done (operations
    /// and server attempts, what `work_limit` counts), or as many more
    /// events, or the run ends, at a bound or with nothing left; true once
    /// it has ended.
    ///
    /// A slice stops where the loop already checks the work limit, before
    /// an event, so the run's hot loop tests one number per event as it
    /// always has, and the next slice goes on from that event as if
    /// nothing had happened: the reviews of the bounds count events, not
    /// slices, so a sliced run stops at the same event, with the same
    /// report, as a run in one go. Events are counted at the reviews only,
    /// which operations running alone skip: for them each unit of work
    /// brings a few events at most. Elsewhere hundreds of thousands of
    /// events can come without a new attempt (a crowd of clients reading
    /// and writing the row once each), and a slice of work alone then held
    /// the page for a third of a second.
    pub fn advance(&mut self, work: u64) -> bool {
        if self.ended.is_some() {
            return true;
        }
        self.stop_at = self.s.work_limit.min(self.work.saturating_add(work));
        self.pause_after = self.events_handled().saturating_add(work);
        let Stop::Ended(cut) = self.run_events() else {
            return false;
        };
        self.add_cost();
        let simulated_until = self.simulated_until();
        let horizon = self.s.horizon;
        Self::queue_until(&self.server, &mut self.tally.rec, horizon);
        self.ended = Some((cut, simulated_until));
        true
    }

    /// How far the run got: events come in time order, so all before the
    /// current one ran; when operations run alone, those starting from the
    /// next arrival on never began, and the one in progress stopped at
    /// `current`.
    pub fn simulated_until(&self) -> f64 {
        match self.workload.upcoming {
            Some(next) if self.alone || PLAIN => self.current.min(next),
            _ => self.current,
        }
    }

    /// Counts requests still waiting at the server as queued until the
    /// horizon, as a run that stops with work left does.
    fn queue_until(server: &Server, rec: &mut Recorder, horizon: f64) {
        for &request in server.pools.iter().flat_map(|pool| &pool.waiting) {
            let queued_at = server.requests[request].queued_at;
            rec.occupied(Level::Queue, queued_at, horizon);
        }
    }

    /// The report of the run as far as it got, shaped like the report of a
    /// run cut at this instant: `summary.truncated` with no `cut`, and
    /// `simulated_until` how far it got. The run goes on unchanged.
    pub fn so_far(&self) -> Report {
        let mut tally = self.tally.clone();
        if let Some((cut, simulated_until)) = self.ended {
            let cut = cut.map(|reason| self.cut(reason, self.calls_at_most(), simulated_until));
            return self.report_of(tally, cut, simulated_until);
        }
        Self::queue_until(&self.server, &mut tally.rec, self.s.horizon);
        let (cost, _, _) = self.cost_now();
        self.report_so_far(tally, self.simulated_until(), cost)
    }

    /// The tracer, when a general world has one: plain worlds never trace,
    /// so their hooks fold away.
    #[inline(always)] // speed: hot
    fn tracer(&mut self) -> Option<&mut Tracer> {
        if PLAIN {
            None
        } else {
            self.trace.as_deref_mut()
        }
    }

    /// Runs events until none is left, until a bound (then returns which,
    /// if work was left), or until the slice's work is done. When
    /// operations run alone, the next one starts only once the queue has
    /// nothing left of the last.
    fn run_events(&mut self) -> Stop {
        loop {
            // One test per event, as before slices: `stop_at` is the work
            // limit unless a slice ends first.
            if self.work >= self.stop_at {
                if self.work >= self.s.work_limit {
                    return Stop::Ended(self.work_left().then_some(CutReason::Work));
                }
                return Stop::Paused;
            }
            let event = if !(PLAIN || self.alone) {
                // Operations that run alone skip the review: see "Bounds".
                if self.until_review == 0 {
                    if let Some(reason) = self.review() {
                        return Stop::Ended(self.work_left().then_some(reason));
                    }
                    if self.reviewed_events >= self.pause_after {
                        return Stop::Paused;
                    }
                }
                self.until_review -= 1;
                match self.queue.pop() {
                    Some(event) => event,
                    None => return Stop::Ended(None),
                }
            } else if self.queue.len() > 0 {
                self.queue.pop_short()
            } else if let Some(start) = self.workload.upcoming.take() {
                self.current = start;
                self.arrival(start, 0);
                continue;
            } else {
                return Stop::Ended(None);
            };
            // One call site: `handle` is inlined, and in the page a second
            // copy would cost download.
            self.handle(event);
        }
    }

    fn work_left(&self) -> bool {
        self.queue.len() > 0 || self.workload.upcoming.is_some()
    }

    /// Adds the cost of the events since the last review and tells whether
    /// the run has reached its time or memory bound (see "Bounds").
    #[inline(never)] // speed: out of line
    fn review(&mut self) -> Option<CutReason> {
        let (calls, events) = self.add_cost();
        if in_flight_bytes(calls, events) > MAX_IN_FLIGHT_BYTES {
            Some(CutReason::Memory)
        } else if self.cost >= self.cost_limit {
            Some(CutReason::Time)
        } else {
            None
        }
    }

    /// Adds the cost of the events since the last review to `cost`;
    /// returns the most calls and the most pending events at once so far.
    fn add_cost(&mut self) -> (u64, u64) {
        let (cost, calls, events) = self.cost_now();
        self.cost = cost;
        self.until_review = REVIEW_EVERY;
        self.reviewed_events = self.events_handled();
        self.reviewed_moves = self.queue.moves();
        (calls, events)
    }

    /// What `cost` would be with the events since the last review added,
    /// and the most calls and the most pending events at once so far.
    fn cost_now(&self) -> (u64, u64, u64) {
        let calls = self.calls_at_most();
        let events = self.queue.peak() as u64;
        let weight = event_weight(self.bytes_at_most());
        let (handled, moves) = (self.events_handled(), self.queue.moves());
        let cost = self
            .cost
            .saturating_add((handled - self.reviewed_events).saturating_mul(weight))
            .saturating_add(moves - self.reviewed_moves);
        (cost, calls, events)
    }

    /// Events handled so far. Arrivals of operations run alone never enter
    /// the queue: each is an event of its own.
    fn events_handled(&self) -> u64 {
        let arrivals = if PLAIN || self.alone {
            self.tally.operations
        } else {
            0
        };
        self.queue.popped() + arrivals
    }

    /// Most calls plus requests alive at once so far.
    fn calls_at_most(&self) -> u64 {
        (self.frames.len() + self.server.requests.len()) as u64
    }

    /// Most bytes of records in flight so far, at nominal sizes: each
    /// store's most at once, which is its length (see `slab`).
    fn bytes_at_most(&self) -> u64 {
        self.frames.len() as u64 * FRAME_BYTES
            + self.roots.len() as u64 * OPERATION_BYTES
            + self.extras.len() as u64 * EXTRA_BYTES
            + self.server.requests.len() as u64 * REQUEST_BYTES
            + self.queue.peak() as u64 * EVENT_BYTES
    }

    /// What an event does.
    #[inline(always)] // speed: hot
    fn handle(&mut self, event: Event) {
        let now = event.time();
        self.current = now;
        let (index, token) = (event.index, event.token);
        match event.kind() {
            EventKind::Arrival => self.arrival(now, index),
            EventKind::AttemptStart => self.attempt_start(index, token, now),
            EventKind::ServerArrive => self.server_arrive(index, now),
            EventKind::ServiceDone => self.service_done(index, now),
            EventKind::Response => self.deliver(index, now),
            EventKind::Timeout => self.timeout(index, token, now),
            EventKind::ReadArrive => self.read_arrive(index, token, now),
            EventKind::WriteArrive => self.write_arrive(index, token, now),
            EventKind::WriteResponse => self.write_response(index, now),
            EventKind::CapacityBack => self.capacity_back(now),
            EventKind::HedgeNext => self.hedge_next(index, token, now),
            EventKind::LayerWork => self.start_first(index, now),
        }
    }

    /// One network hop of an operation's request or answer, drawn from the
    /// operation's own stream.
    #[inline(always)] // speed: hot
    fn hop(&mut self, root: u32) -> f64 {
        if let Law::Constant(time) = self.hop_law {
            // No draw: no need to find the operation's stream.
            return time;
        }
        self.hop_law.draw(&mut self.roots[root].server)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{OutageMode, ServiceShape, Spread};
    use retry_core::policy::{Jitter, Policy, Shape};

    /// Every number of two reports, walked together: equal within a relative
    /// `1e-9`, which for counts below a million means exactly equal.
    fn assert_close(a: &serde_json::Value, b: &serde_json::Value, path: &str) {
        use serde_json::Value;
        match (a, b) {
            (Value::Object(a), Value::Object(b)) => {
                assert_eq!(a.len(), b.len(), "{path}");
                for (key, value) in a {
                    // What a run holds and costs depends on the order it
                    // runs in; what it reports does not.
                    if !matches!(key.as_str(), "peak_events" | "peak_calls" | "cost") {
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
            service: ServiceShape::Normal,
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
            hints: retry_core::hint::HintRules::DEFAULT,
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
            service: ServiceShape::Constant,
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
            let mut alone = World::<false>::new(scenario.clone());
            assert!(alone.alone);
            let mut together = World::<false>::new(scenario.clone());
            together.alone = false;
            together.queue = Queue::default();
            alone.start();
            together.start();
            let (alone, together) = (alone.run(), together.run());
            let json = |report: &Report| serde_json::to_value(report).expect("serializable");
            if scenario.layers == 1 {
                // The plain world's copy of the engine runs the same events
                // in the same order: the same report to the last bit.
                let mut plain = World::<true>::new(scenario.clone());
                plain.start();
                let plain = plain.run();
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
