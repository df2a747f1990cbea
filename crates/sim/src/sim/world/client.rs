//! The clients: operations and their calls through the layers (*frames*),
//! the attempts they make, the pauses between them, the budgets and
//! breakers they ask, and how they end.

use super::World;
use super::hedge::Hedge;
use super::server::Request;
use crate::sim::engine::EventKind;
use crate::sim::law::Law;
use crate::sim::report::FailureKind;
use crate::sim::trace::Ending;
use crate::sim::{QueueOrder, Scenario, WorkloadKind};
use retry_core::breaker::{Breaker, BreakerAt, BreakerMode, Ticket};
use retry_core::budget::{Budget, BudgetKind, ChargeAt, Spec};
use retry_core::classify::Failure;
use retry_core::policy::{Plan, Policy};
use retry_core::random::Stream;

/// `Frame::parent` of a root, the user's operation.
pub(super) const NO_PARENT: u32 = u32::MAX;
/// Retries whose pause ceilings a run computes up front.
const CEILINGS: u32 = 64;

/// What every run reads of a (sub)operation: one cache line.
#[derive(Debug, Clone)]
#[repr(align(64))]
pub(super) struct Frame {
    /// Changes with every attempt started and when the frame ends: events
    /// and requests carrying another token are stale.
    pub token: u32,
    pub parent: u32,
    pub root: u32,
    pub layer: u32,
    /// Attempts this frame has started.
    pub attempts: u32,
    /// The pause drawn before the last retry (decorrelated jitter needs it).
    pub previous_pause: f64,
    /// When the user's operation started: the deadline counts from here,
    /// and a root's latency.
    pub origin: f64,
    pub unknown_retried: bool,
    /// An attempt is out and its outcome not yet known.
    pub waiting: bool,
    pub finished: bool,
    /// The slot holds this frame (it is not free).
    pub alive: bool,
    /// Draws for the pauses.
    pub stream: Stream,
}

/// What a root frame, the user's operation, keeps beyond a frame: kept
/// beside the frames so that a frame stays one cache line.
#[derive(Debug, Clone)]
pub(super) struct Operation {
    /// Draws of the server and the network for this operation's requests.
    /// One stream per operation, not one shared by all, so that what an
    /// operation meets does not depend on the order in which operations
    /// run (see "Operations that cannot meet run alone"), and policies A
    /// and B meet the same server.
    pub server: Stream,
    /// Times the server executed this operation's action.
    pub executed: u32,
    /// Requests of this operation the server may still act on.
    pub outstanding: u32,
    /// The client instance it runs in (0 with one instance).
    pub instance: u32,
    /// Closed loop: the client that starts its next operation once this
    /// one ends.
    pub looping: u32,
    /// The server answered it a permanent 4xx: the request is wrong, and
    /// every later call of it is answered the same (read only where a
    /// policy retries a 4xx; a run that never does is unchanged).
    pub wrong: bool,
}

/// What only some runs need of a frame, kept beside it (same index) so that
/// the frames every run touches stay one cache line each. Runs without a
/// budget that charges, a breaker, layers or contention have none.
#[derive(Debug, Clone, Copy)]
pub(super) struct Extra {
    /// The client the operation belongs to (calls one layer down draw from
    /// a stream derived from it).
    pub client: u64,
    /// What the budget charged for the retry in flight (the AWS SDKs'
    /// standard retry quota gives it back when the retry succeeds).
    pub retry_cost: f64,
    /// The timeout of the retry waiting for its `AttemptStart`.
    pub next_timeout: f64,
    /// AWS adaptive mode: the attempt waiting for its `AttemptStart` holds
    /// the rate limiter's token it waited for.
    pub paced: bool,
    /// Breaker: what the breaker admitted the attempt in flight with.
    pub ticket: Ticket,
    /// Contention: the version read by the attempt in flight.
    pub read_version: u64,
    pub write_ok: bool,
    /// A partition cuts the operation's client off (on a root's extra).
    pub cut: bool,
    /// A retry its budget granted and charges as it leaves
    /// ([`ChargeAt::Send`]): whether after a timeout.
    pub charge_on_send: Option<bool>,
    /// A call one layer down: its caller's token for the attempt it
    /// serves, which changes once the caller gives up on it.
    pub parent_token: u32,
    /// With deadlines passed down, when its caller stops waiting (infinite
    /// for a root): it neither starts nor retries an attempt after.
    pub deadline: f64,
    /// A fan-out: the successes the attempt in flight still needs, and the
    /// failures it can still take before it fails.
    pub fan_need: u32,
    pub fan_spare: u32,
    /// A call one layer down that holds one of its service's workers
    /// (see `Pool`) until it ends.
    pub holds_worker: bool,
    /// A call one layer down: when it reached its service.
    pub started: f64,
}

/// A service's workers below the top (`Scenario::layer_workers`): the
/// requests it handles at once, each from its start to its end, and those
/// waiting for one of them, oldest first.
#[derive(Default)]
pub(super) struct Pool {
    workers: u32,
    queue: u32,
    busy: u32,
    waiting: std::collections::VecDeque<u32>,
    /// Whether a free worker takes the newest waiting call (LIFO).
    newest_first: bool,
    /// Starting waiting requests: a request that ends at once while it
    /// starts frees its worker to the loop that started it, not to a loop
    /// of its own.
    starting: bool,
}

/// The services in the chain: what each layer retries with.
pub(super) struct Layers {
    pub count: u32,
    pub policies: Vec<Policy>,
    /// Per layer, `ceiling(retry)` of its policy for its first `CEILINGS`
    /// retries (contention retries without end).
    ceilings: Vec<Vec<f64>>,
    /// The top layer's, one per client instance, then one per layer below
    /// (the services the client calls are not its instances); empty when
    /// there is no budget.
    budgets: Vec<Budget>,
    /// Laid out as the budgets; empty when the breaker is off.
    pub breakers: Vec<Breaker>,
    pub instances: u32,
    /// A budget rejects attempts before they leave (SRE throttling), or
    /// holds them back until the rate allows (AWS adaptive mode).
    throttles: bool,
    /// AWS adaptive mode: every send is paced by the instance's rate
    /// limiter, so it is asked at the moment the send goes.
    paces: bool,
    /// Per layer, how its budget treats an attempt about to leave.
    throttle: Vec<Throttle>,
    /// Envoy's budget: it counts the attempts in flight.
    pub(super) counts_in_flight: bool,
    /// A budget charges each retry as it is sent ([`ChargeAt::Send`]),
    /// so the retry waits for its `AttemptStart` to pay.
    charges_on_send: bool,
    /// Services give up on their calls below (`call_timeout`, a layer's
    /// own timeout), which may then go on for nobody.
    pub orphans: bool,
    /// Per layer, its service's workers; empty when no service has a limit.
    pools: Vec<Pool>,
    /// Per layer, the share of its calls its service fails by itself.
    failures: Vec<f64>,
    /// Per layer, when its service is down, failing every call at once.
    outages: Vec<Option<std::ops::Range<f64>>>,
    /// Per layer, the law of its service's own work on a call, if any.
    work: Vec<Option<Law>>,
    /// Per layer, whether it keeps a budget (the top always does).
    budgeted: Vec<bool>,
    /// Per layer, whether it keeps a breaker (the top always does).
    breakered: Vec<bool>,
    /// The lowest layer that keeps one: the series charts its balance.
    lowest_budgeted: usize,
    /// The balances of the top layer's budgets added up: with one layer the
    /// series charts their mean.
    level_sum: f64,
}

/// What a layer's budget does with an attempt about to leave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Throttle {
    /// Nothing.
    No,
    /// Holds it back until its rate limiter has a token (AWS adaptive).
    Paces,
    /// Rejects it or not on a draw from the frame's stream (SRE).
    Draws,
}

impl Layers {
    pub fn new(s: &Scenario, contention: bool) -> Self {
        let count = if contention { 1 } else { s.layers };
        // A call below outlives its caller only where a layer above the
        // last gives up on it.
        let orphans = (0..count.saturating_sub(1)).any(|l| s.timeout_of_layer(l, count).is_some());
        let policies: Vec<Policy> = (0..count)
            .map(|layer| {
                let mut policy = s.policy.clone();
                policy.attempts = s.attempts_of_layer(layer);
                policy.attempt_timeout = s.timeout_of_layer(layer, count);
                if let Some(base) =
                    Scenario::own_of_layer(&s.layer_bases, layer).filter(|&base| base > 0.0)
                {
                    policy.base = base;
                }
                if let Some(shape) = Scenario::own_of_layer(&s.layer_shapes, layer).flatten() {
                    policy.shape = shape;
                }
                if let Some(cap) =
                    Scenario::own_of_layer(&s.layer_caps, layer).filter(|&cap| cap > 0.0)
                {
                    policy.cap = cap;
                }
                if let Some(jitter) = Scenario::own_of_layer(&s.layer_jitters, layer).flatten() {
                    policy.jitter = jitter;
                }
                policy
            })
            .collect();
        let ceilings = policies
            .iter()
            .map(|policy| {
                (0..policy.attempts.min(CEILINGS))
                    .map(|retry| policy.ceiling(retry))
                    .collect()
            })
            .collect();
        let instances = s.instances.max(1);
        let each = (instances + count - 1) as usize;
        let specs: Vec<Spec> = (0..count).map(|layer| s.budget_of_layer(layer)).collect();
        let kinds: Vec<BudgetKind> = specs.iter().map(Spec::kind).collect();
        let budgeted: Vec<bool> = kinds.iter().map(|&kind| kind != BudgetKind::None).collect();
        let budgets: Vec<Budget> = if budgeted.contains(&true) {
            (0..each)
                .map(|slot| {
                    // The top layer's instances, then one slot a layer.
                    let layer = (slot + 1).saturating_sub(instances as usize);
                    Budget::new(&specs[layer])
                })
                .collect()
        } else {
            Vec::new()
        };
        // A service without a budget of its own throttles as the policy's
        // kind would have it, as it did before a service could choose:
        // draws and all, so that links of then keep their numbers.
        let throttle = kinds
            .iter()
            .map(|&kind| match (kind, s.budget.kind) {
                (BudgetKind::AwsAdaptive, _) | (BudgetKind::None, BudgetKind::AwsAdaptive) => {
                    Throttle::Paces
                }
                (BudgetKind::Sre, _) | (BudgetKind::None, BudgetKind::Sre) => Throttle::Draws,
                _ => Throttle::No,
            })
            .collect::<Vec<_>>();
        let start = budgets.first().map_or(0.0, Budget::tokens);
        Self {
            count,
            policies,
            ceilings,
            budgets,
            breakers: if s.breaker.mode == BreakerMode::Off {
                Vec::new()
            } else {
                vec![Breaker::new(&s.breaker); each]
            },
            instances,
            throttles: throttle.iter().any(|&t| t != Throttle::No),
            paces: throttle.contains(&Throttle::Paces),
            throttle,
            counts_in_flight: kinds.contains(&BudgetKind::Envoy),
            charges_on_send: s.budget.charge_at == ChargeAt::Send
                && kinds.iter().any(|&kind| kind != BudgetKind::None),
            orphans,
            pools: match s.layer_workers.iter().any(|&w| w > 0) && count > 1 {
                true => (0..count)
                    .map(|layer| Pool {
                        workers: Scenario::own_of_layer(&s.layer_workers, layer).unwrap_or(0),
                        queue: Scenario::own_of_layer(&s.layer_queues, layer).unwrap_or(0),
                        newest_first: Scenario::own_of_layer(&s.layer_orders, layer)
                            == Some(QueueOrder::Lifo),
                        ..Pool::default()
                    })
                    .collect(),
                false => Vec::new(),
            },
            failures: (0..count)
                .map(|layer| Scenario::own_of_layer(&s.layer_failures, layer).unwrap_or(0.0))
                .collect(),
            outages: (0..count)
                .map(|layer| {
                    let start = Scenario::own_of_layer(&s.layer_outage_start, layer)?;
                    let length = Scenario::own_of_layer(&s.layer_outage_duration, layer)?;
                    (length > 0.0).then_some(start..start + length)
                })
                .collect(),
            lowest_budgeted: budgeted.iter().rposition(|&b| b).unwrap_or(0),
            budgeted,
            breakered: (0..count)
                .map(|layer| Scenario::own_of_layer(&s.layer_breakers, layer).unwrap_or(true))
                .collect(),
            work: (0..count)
                .map(|layer| {
                    let p50 = Scenario::own_of_layer(&s.layer_work_p50, layer)?;
                    let p99 = Scenario::own_of_layer(&s.layer_work_p99, layer)?;
                    (p50 > 0.0).then(|| Law::log_normal(p50, p99))
                })
                .collect(),
            level_sum: start * f64::from(instances),
        }
    }
}

/// The failure a client sees for a failure kind.
pub(super) fn failure_of(kind: FailureKind, retry_after: f64) -> Failure {
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

impl Layers {
    /// With several client instances, how many of them saw their own
    /// breaker open and their own budget refuse (the top layer's, one per
    /// instance): the spread a shared total hides. Both 0 with one instance.
    pub(super) fn instances_spread(&self) -> (u64, u64) {
        if self.instances < 2 {
            return (0, 0);
        }
        let top = self.instances as usize;
        let tripped = self
            .breakers
            .iter()
            .take(top)
            .filter(|b| b.trips() > 0)
            .count();
        let refusing = self
            .budgets
            .iter()
            .take(top)
            .filter(|b| b.refusals() > 0)
            .count();
        (tripped as u64, refusing as u64)
    }
}

impl<const PLAIN: bool> World<PLAIN> {
    /// The layer of a frame; always the first in a plain world.
    #[inline(always)] // speed: hot
    fn layer(&self, frame: u32) -> usize {
        if PLAIN {
            0
        } else {
            self.frames[frame].layer as usize
        }
    }

    /// Whether `layer` is the one that calls the server.
    #[inline(always)] // speed: hot
    fn last_layer(&self, layer: usize) -> bool {
        PLAIN || layer + 1 == self.layers.count as usize
    }

    /// Where the budget and the breaker of `layer` are kept for `frame`:
    /// on the top layer, those of the instance its operation runs in.
    #[inline(always)] // speed: hot
    fn slot(&self, frame: u32, layer: usize) -> usize {
        match (self.layers.instances, layer) {
            (1, _) => layer,
            (_, 0) => self.roots[self.frames[frame].root].instance as usize,
            (instances, _) => instances as usize + layer - 1,
        }
    }

    #[inline(always)] // speed: hot
    pub(super) fn budget(&mut self, frame: u32, layer: usize) -> Option<&mut Budget> {
        if PLAIN || self.layers.budgets.is_empty() || !self.layers.budgeted[layer] {
            None
        } else {
            let slot = self.slot(frame, layer);
            self.layers.budgets.get_mut(slot)
        }
    }

    /// A budget of `layer` went from `before` to `after` at `now`: the
    /// series keeps the balance of the lowest layer that keeps a budget
    /// (the one that calls the server, unless it keeps none), the mean of
    /// its instances' balances.
    fn budget_changed(&mut self, layer: usize, now: f64, before: f64, after: f64) {
        if !PLAIN && layer != self.layers.lowest_budgeted {
            return;
        }
        let level = match (self.layers.instances, layer) {
            (1, _) | (_, 1..) => after,
            (instances, 0) => {
                self.layers.level_sum += after - before;
                self.layers.level_sum / f64::from(instances)
            }
        };
        self.tally.rec.budget_level(now, level);
    }

    #[inline(always)] // speed: hot
    fn breaker_on(&self) -> bool {
        !PLAIN && !self.layers.breakers.is_empty()
    }

    /// Whether the frame's layer asks a breaker and tells it the outcomes.
    #[inline(always)] // speed: hot
    fn breaker_at(&self, frame: u32) -> bool {
        self.breaker_on() && self.layers.breakered[self.layer(frame)]
    }

    /// A new frame: the root of an operation (`parent` is `NO_PARENT`; the
    /// caller sets its `root`) or a call one layer down.
    #[inline(always)] // speed: hot
    pub(super) fn alloc_frame(
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
            self.frames[parent].root
        };
        let fresh = Frame {
            token: 0,
            parent,
            root,
            layer,
            attempts: 0,
            previous_pause: self.layers.policies[layer as usize].jitter_start(),
            origin,
            unknown_retried: false,
            waiting: false,
            finished: false,
            alive: true,
            stream,
        };
        let index = self.frames.insert_with(|previous| match previous {
            // Keep counting tokens in a reused slot, so events and
            // requests of the slot's previous life stay stale.
            Some(previous) => Frame {
                token: previous.token.wrapping_add(1),
                ..fresh
            },
            None => fresh,
        });
        if !PLAIN && self.with_extras {
            let extra = Extra {
                client,
                retry_cost: 0.0,
                next_timeout: f64::INFINITY,
                paced: false,
                ticket: Ticket::ORDINARY,
                read_version: 0,
                write_ok: false,
                cut: false,
                charge_on_send: None,
                parent_token: 0,
                deadline: f64::INFINITY,
                fan_need: 0,
                fan_spare: 0,
                holds_worker: false,
                started: origin,
            };
            self.extras.put(index, extra);
            if self.hedges_whole() {
                self.hedges.put(index, Hedge::default());
            }
        }
        index
    }

    /// Frees an operation's root once it has ended and the server holds no
    /// request of it.
    #[inline(always)] // speed: hot
    pub(super) fn release_root_if_done(&mut self, root: u32) {
        let frame = &mut self.frames[root];
        if frame.alive && frame.finished && self.roots[root].outstanding == 0 {
            frame.alive = false;
            self.frames.free(root);
        }
    }

    /// A (sub)operation makes its first attempt now.
    #[inline(always)] // speed: hot
    pub(super) fn start_first(&mut self, frame: u32, now: f64) {
        let (layer, origin) = (self.layer(frame), self.frames[frame].origin);
        if let Some(budget) = self.budget(frame, layer) {
            let before = budget.tokens();
            budget.on_first_try(now);
            let after = budget.tokens();
            if after != before {
                self.budget_changed(layer, now, before, after);
            }
        }
        let plan = self.layers.policies[layer].plan_attempt(0, now - origin, 0.0);
        match self.within_passed(frame, plan, now) {
            Plan::Attempt { timeout, .. } if !PLAIN && self.hedges_whole() => {
                self.hedge_start(frame, now, timeout)
            }
            Plan::Attempt { timeout, .. } => self.begin_attempt(frame, now, timeout),
            Plan::DeadlineExceeded => {
                self.fail(frame, now, Ending::DeadlineExceeded, FailureKind::Timeout)
            }
            Plan::OutOfAttempts => {
                self.fail(frame, now, Ending::OutOfAttempts, FailureKind::Transient)
            }
        }
    }

    /// A retry scheduled after its pause (`EventKind::AttemptStart`) is due,
    /// unless its frame has moved on.
    #[inline(always)] // speed: hot
    pub(super) fn attempt_start(&mut self, frame: u32, token: u32, now: f64) {
        if self.frames[frame].token == token {
            // Calls one layer down plan their own timeouts; a retry held
            // back for the breaker kept its own.
            let timeout = self.extras[frame].next_timeout;
            self.begin_attempt(frame, now, timeout);
        }
    }

    /// Starts an attempt at `start` (now, or after a pause for calls that go
    /// straight to the network; never in the future with a breaker).
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))] // speed: hot natively
    pub(super) fn begin_attempt(&mut self, frame: u32, start: f64, timeout: f64) {
        if self.breaker_at(frame) && !self.admit(frame, start) {
            return;
        }
        if !PLAIN && self.layers.throttles && !self.throttle_admits(frame, start, timeout) {
            return;
        }
        let layer = self.layer(frame);
        if !PLAIN && self.layers.counts_in_flight {
            if let Some(budget) = self.budget(frame, layer) {
                budget.on_send();
            }
        }
        if !PLAIN && self.layers.charges_on_send {
            self.charge_on_send(frame, layer, start);
        }
        let f = &mut self.frames[frame];
        f.attempts += 1;
        f.token = f.token.wrapping_add(1);
        f.waiting = true;
        let (token, first, root) = (f.token, f.attempts == 1, f.root);
        let parent_attempts = f.attempts;
        let for_nobody = !PLAIN && self.layers.orphans && self.orphaned(frame);
        self.tally.calls(layer, start, 1, for_nobody);
        if !PLAIN && self.contention {
            self.work += 1;
            self.tally.rec.attempt(start, first);
            if let Some(tracer) = self.tracer() {
                tracer.sent(root, None, start, false);
            }
            let hop = self.hop(root);
            self.queue
                .push(start + hop, EventKind::ReadArrive, frame, token);
        } else if !self.last_layer(layer) {
            if self.layers.orphans && timeout.is_finite() {
                self.queue
                    .push(start + timeout, EventKind::Timeout, frame, token);
            }
            let passed = self.passed_down(frame, start + timeout);
            self.call_layer_below(frame, layer as u32, parent_attempts, start, passed);
        } else {
            // A fan-out sends the attempt to `fan_out` servers at once and
            // waits for the answers `fan_wait` says (`deliver`).
            let copies = if PLAIN { 1 } else { self.s.fan_out };
            let deadline = self.passed_down(frame, start + timeout);
            if copies > 1 {
                let need = self.s.fan_wait.needs(copies);
                self.extras[frame].fan_need = need;
                self.extras[frame].fan_spare = copies - need;
                self.tally.calls(layer, start, u64::from(copies - 1), false);
                if self.s.policy.hedge {
                    self.fan_hedge_start(frame, copies, start, start + timeout, deadline);
                }
            }
            if timeout.is_finite() {
                if start <= self.current {
                    self.queue
                        .push_in_order(start + timeout, EventKind::Timeout, frame, token);
                } else {
                    self.queue
                        .push(start + timeout, EventKind::Timeout, frame, token);
                }
            }
            for copy in 0..copies {
                self.work += 1;
                self.tally.rec.attempt(start, first);
                self.send_request(frame, token, copy as u8, start, deadline, for_nobody);
            }
        }
    }

    /// Sends a request of the frame's attempt `token` (its call `call`, in
    /// a fan-out) to a server of the fleet at `start`, carrying `deadline`
    /// down.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))] // speed: hot natively
    pub(super) fn send_request(
        &mut self,
        frame: u32,
        token: u32,
        call: u8,
        start: f64,
        deadline: f64,
        for_nobody: bool,
    ) {
        let root = self.frames[frame].root;
        self.roots[root].outstanding += 1;
        let server = self.pick_server(root);
        let request = self.server.requests.insert(Request {
            frame,
            token,
            root,
            service: 0.0,
            failure: None,
            queued_at: 0.0,
            server,
            deadline,
            cut: false,
            call,
            hint: 0.0,
        });
        if let Some(tracer) = self.tracer() {
            tracer.sent(root, Some(request), start, for_nobody);
        }
        let hop = self.hop(root);
        // A request reaches the server without a trip through the queue
        // when nothing it meets there can change before it arrives: the
        // server is stateless (unlimited workers, latency independent of
        // load), so its fate is known now, or it is sent at the current
        // instant with no network time.
        if PLAIN || self.server.stateless || (hop == 0.0 && start <= self.current) {
            self.server_arrive(request, start + hop);
        } else {
            self.queue
                .push(start + hop, EventKind::ServerArrive, request, 0);
        }
    }

    /// The attempt of a frame above the last layer: a call one layer down,
    /// with its own frame and its own stream (varied by layer and by which
    /// attempt of ours it serves). Kept out of line: it recurses into
    /// `begin_attempt`, which is then free to be inlined where it is hot.
    #[inline(never)] // speed: out of line
    fn call_layer_below(
        &mut self,
        frame: u32,
        layer: u32,
        parent_attempts: u32,
        start: f64,
        deadline: f64,
    ) {
        let seed = self.s.seed ^ (u64::from(layer + 1) << 56) ^ (u64::from(parent_attempts) << 40);
        let client = self.extras[frame].client;
        let id = if self.s.shared_seed { 0 } else { client };
        let (origin, root, token) = {
            let f = &self.frames[frame];
            (f.origin, f.root, f.token)
        };
        let child = self.alloc_frame(frame, layer + 1, origin, client, Stream::new(seed, id));
        self.tally.presence(layer as usize + 1, start, 1);
        self.extras[child].parent_token = token;
        self.extras[child].deadline = deadline;
        self.extras[child].started = start;
        // The operation stays until its calls below have ended, even those
        // its caller gave up on.
        self.roots[root].outstanding += 1;
        if let Some(pool) = self.layers.pools.get_mut(layer as usize + 1) {
            if pool.workers > 0 {
                if pool.busy < pool.workers {
                    pool.busy += 1;
                    self.extras[child].holds_worker = true;
                } else if pool.waiting.len() < pool.queue as usize {
                    pool.waiting.push_back(child);
                    return;
                } else {
                    // The service's queue is full: a 503 at once.
                    self.tally.refused_by_layer[layer as usize + 1] += 1;
                    return self.fail(child, start, Ending::OutOfAttempts, FailureKind::Rejected);
                }
            }
        }
        self.serve_at_layer(child, layer as usize + 1, start);
    }

    /// A call the service at `layer` takes up at `now` (at once, or when
    /// one of its workers comes free): the service fails it by itself (in
    /// its outage, every call), or does its own work on it and then calls
    /// below. Both draw from the operation's stream for what its servers do
    /// (the stream of a call below repeats when the layer above it
    /// retries), and only where the service fails or works, so other runs
    /// draw as before.
    ///
    /// With deadlines passed down the service treats a call as the server
    /// treats a request: it does not start one whose deadline has passed
    /// (one that waited for a worker past it is dropped then), and stops
    /// its own work at the deadline, where the call fails (`start_first`).
    fn serve_at_layer(&mut self, child: u32, layer: usize, now: f64) {
        let deadline = self.passed_down(child, f64::INFINITY);
        if now >= deadline {
            return self.fail(child, now, Ending::DeadlineExceeded, FailureKind::Timeout);
        }
        let down = self.layers.outages.get(layer).cloned().flatten();
        if down.is_some_and(|window| window.contains(&now)) {
            return self.fail(child, now, Ending::OutOfAttempts, FailureKind::Transient);
        }
        let root = self.frames[child].root;
        let fails = self.layers.failures.get(layer).copied().unwrap_or(0.0);
        if fails > 0.0 && self.roots[root].server.uniform() < fails {
            return self.fail(child, now, Ending::OutOfAttempts, FailureKind::Transient);
        }
        match self.layers.work.get(layer).copied().flatten() {
            Some(work) => {
                let took = work.draw(&mut self.roots[root].server);
                let ends = (now + took).min(deadline);
                self.queue.push(ends, EventKind::LayerWork, child, 0);
            }
            None => self.start_first(child, now),
        }
    }

    /// A call one layer down that held a worker of its service at `layer`
    /// ended: the oldest waiting call takes the worker (the newest, for a
    /// service that serves newest first).
    fn free_worker(&mut self, layer: usize, now: f64) {
        let pool = &mut self.layers.pools[layer];
        pool.busy -= 1;
        if pool.starting {
            return;
        }
        pool.starting = true;
        loop {
            let pool = &mut self.layers.pools[layer];
            if pool.busy >= pool.workers {
                break;
            }
            let next = match pool.newest_first {
                true => pool.waiting.pop_back(),
                false => pool.waiting.pop_front(),
            };
            let Some(next) = next else {
                break;
            };
            pool.busy += 1;
            self.extras[next].holds_worker = true;
            self.serve_at_layer(next, layer, now);
        }
        self.layers.pools[layer].starting = false;
    }

    /// The deadline a call of `frame` whose attempt gives up at `gives_up`
    /// carries down: the earlier of that and its own (none unless
    /// deadlines are passed down).
    #[inline(always)] // speed: hot
    fn passed_down(&self, frame: u32, gives_up: f64) -> f64 {
        if !PLAIN && self.s.pass_deadline {
            self.extras[frame].deadline.min(gives_up)
        } else {
            f64::INFINITY
        }
    }

    /// An attempt's plan, for an attempt of `frame` starting at `at`,
    /// within the deadline its caller passed down: none past it, and a
    /// timeout that ends by it.
    #[inline(always)] // speed: hot
    fn within_passed(&self, frame: u32, plan: Plan, at: f64) -> Plan {
        if PLAIN || !self.s.pass_deadline {
            return plan;
        }
        let deadline = self.extras[frame].deadline;
        match plan {
            Plan::Attempt { pause, timeout } if at < deadline => Plan::Attempt {
                pause,
                timeout: timeout.min(deadline - at),
            },
            Plan::Attempt { .. } => Plan::DeadlineExceeded,
            other => other,
        }
    }

    /// Whether nobody waits any more for what `frame` does: its caller, or
    /// a caller above it, has given up on the call it serves.
    pub(super) fn orphaned(&self, mut frame: u32) -> bool {
        loop {
            let parent = self.frames[frame].parent;
            if parent == NO_PARENT {
                return false;
            }
            let caller = &self.frames[parent];
            if caller.token != self.extras[frame].parent_token || !caller.waiting {
                return true;
            }
            frame = parent;
        }
    }

    /// A retry its budget granted at scheduling pays as it leaves at
    /// `now` ([`ChargeAt::Send`]).
    fn charge_on_send(&mut self, frame: u32, layer: usize, now: f64) {
        let Some(after_timeout) = self.extras[frame].charge_on_send.take() else {
            return;
        };
        if let Some(budget) = self.budget(frame, layer) {
            let before = budget.tokens();
            let cost = budget.charge_sent(now, after_timeout);
            let after = budget.tokens();
            self.budget_changed(layer, now, before, after);
            self.extras[frame].retry_cost = cost;
        }
    }

    /// Asks the layer's breaker to let the frame's next attempt go at `now`.
    /// A refusal ends the (sub)operation at once; its caller one layer up
    /// sees a failed call, as when a budget refuses.
    fn admit(&mut self, frame: u32, now: f64) -> bool {
        let first = self.frames[frame].attempts == 0;
        let slot = self.slot(frame, self.frames[frame].layer as usize);
        // Around the retry loop, the breaker was asked for the operation.
        if !first && self.layers.breakers[slot].config().at == BreakerAt::Operation {
            return true;
        }
        match self.layers.breakers[slot].admit(now, first) {
            Some(ticket) => {
                self.extras[frame].ticket = ticket;
                true
            }
            // A hedge the breaker stops is not sent; the copies in flight
            // go on.
            None if !PLAIN && self.hedges_whole() && !first && self.hedges[frame].in_flight > 0 => {
                self.tally.rec.breaker_refusal(now);
                false
            }
            None => {
                // A retry the budget granted and the breaker stops gives
                // its place back, if it had paid for it yet.
                if !first
                    && self.layers.counts_in_flight
                    && self.extras[frame].charge_on_send.is_none()
                {
                    let layer = self.layer(frame);
                    if let Some(budget) = self.budget(frame, layer) {
                        budget.release_retry();
                    }
                }
                self.tally.rec.breaker_refusal(now);
                self.fail(frame, now, Ending::BreakerOpen, FailureKind::Transient);
                false
            }
        }
    }

    /// Asks the layer's throttle to let the frame's next attempt leave at
    /// `now` (a draw from the frame's own stream decides). A rejection is
    /// the client's: counted as a refusal, not a server failure, it ends
    /// the (sub)operation at once, as a budget's refusal does.
    /// AWS adaptive mode instead holds the attempt back until its rate
    /// limiter has a token for it (`timeout` is the attempt's, kept for
    /// when it goes).
    fn throttle_admits(&mut self, frame: u32, now: f64, timeout: f64) -> bool {
        let layer = self.layer(frame);
        if self.layers.throttle[layer] == Throttle::No {
            return true;
        }
        if self.layers.throttle[layer] == Throttle::Paces {
            if std::mem::take(&mut self.extras[frame].paced) {
                return true;
            }
            let wait = self.budget(frame, layer).map_or(0.0, |b| b.send_delay(now));
            if wait <= 0.0 {
                return true;
            }
            self.tally.rec.paced(wait);
            let extra = &mut self.extras[frame];
            (extra.paced, extra.next_timeout) = (true, timeout);
            let token = self.frames[frame].token;
            self.queue
                .push(now + wait, EventKind::AttemptStart, frame, token);
            return false;
        }
        let draw = self.frames[frame].stream.uniform();
        let admitted = self
            .budget(frame, layer)
            .is_none_or(|budget| budget.admits(now, draw));
        if !admitted {
            self.tally.rec.refusal(now);
            self.fail(frame, now, Ending::BudgetExhausted, FailureKind::Transient);
        }
        admitted
    }

    /// The frame's attempt is out of flight, answered or timed out: a
    /// budget that counts what is in flight (Envoy's) hears of it.
    #[inline(always)] // speed: hot
    fn answered(&mut self, frame: u32, layer: usize) {
        if !PLAIN && self.layers.counts_in_flight {
            let retry = self.frames[frame].attempts > 1;
            if let Some(budget) = self.budget(frame, layer) {
                budget.on_answer(retry);
            }
        }
    }

    /// Whether the frame's layer's breaker counts outcomes `at` this
    /// place: each attempt's (inside the retry loop), or each
    /// operation's (around it).
    fn breaker_counts(&self, frame: u32, at: BreakerAt) -> bool {
        let slot = self.slot(frame, self.frames[frame].layer as usize);
        self.layers.breakers[slot].config().at == at
    }

    /// A breaker around the retry loop hears an operation's failure,
    /// unless it refused the operation itself.
    #[cold]
    #[inline(never)]
    fn operation_failed(&mut self, frame: u32, now: f64, end: Ending) {
        if end != Ending::BreakerOpen && self.breaker_counts(frame, BreakerAt::Operation) {
            self.breaker_outcome(frame, now, false);
        }
    }

    /// Feeds the outcome of the frame's attempt to its layer's breaker.
    fn breaker_outcome(&mut self, frame: u32, now: f64, success: bool) {
        let layer = self.frames[frame].layer as usize;
        let slot = self.slot(frame, layer);
        let breaker = &mut self.layers.breakers[slot];
        let ticket = self.extras[frame].ticket;
        if breaker.on_outcome(now, ticket, success) && layer + 1 == self.layers.count as usize {
            let until = now + breaker.config().cool_down;
            self.tally.rec.breaker_open(now, until);
        }
    }

    /// The attempt's timeout expired (`EventKind::Timeout`): a failure, unless
    /// the attempt already has its outcome.
    #[inline(always)] // speed: hot
    pub(super) fn timeout(&mut self, frame: u32, token: u32, now: f64) {
        if !PLAIN && self.hedges_whole() {
            if self.hedge_takes(frame, token) {
                self.hedge_outcome(frame, now, Some(FailureKind::Timeout), 0.0);
            }
            return;
        }
        let f = &mut self.frames[frame];
        if f.token == token && f.waiting {
            f.waiting = false;
            self.attempt_failed(frame, now, FailureKind::Timeout, 0.0);
        }
    }

    #[inline(always)] // speed: hot
    pub(super) fn attempt_succeeded(&mut self, frame: u32, now: f64) {
        if self.breaker_at(frame) {
            self.breaker_outcome(frame, now, true);
        }
        let layer = self.layer(frame);
        self.answered(frame, layer);
        // Runs without extras have no budget that refunds.
        let cost = self.extras.get(frame).map_or(0.0, |e| e.retry_cost);
        if let Some(budget) = self.budget(frame, layer) {
            let before = budget.tokens();
            budget.on_success(now, cost);
            let after = budget.tokens();
            self.budget_changed(layer, now, before, after);
        }
        if self.last_layer(layer) {
            self.tally.rec.success(now);
            let root = self.frames[frame].root;
            if let Some(tracer) = self.tracer() {
                tracer.answered(root, now, None);
            }
        }
        self.succeed(frame, now);
    }

    /// The frame's attempt failed with `kind`: it retries after a pause
    /// (at least what the server's hint `retry_after` asks under the
    /// client's rules for it), or ends.
    pub(super) fn attempt_failed(
        &mut self,
        frame: u32,
        now: f64,
        kind: FailureKind,
        retry_after: f64,
    ) {
        let layer = self.failure_heard(frame, now, kind);
        let failure = failure_of(kind, retry_after);
        let f = &mut self.frames[frame];
        let policy = &self.layers.policies[layer];
        if !policy.retry_on.retries(&failure, f.unknown_retried) {
            return self.fail(frame, now, Ending::NotRetryable, kind);
        }
        if f.attempts >= policy.attempts {
            return self.fail(frame, now, Ending::OutOfAttempts, kind);
        }
        let retry = f.attempts - 1;
        let ceiling = match self.layers.ceilings[layer].get(retry as usize) {
            Some(&ceiling) => ceiling,
            None => policy.ceiling(retry),
        };
        let pause = policy.jittered(ceiling, retry, &mut f.previous_pause, &mut f.stream);
        // A hint asks for a longer pause, as the client's rules read it.
        let stream = &mut f.stream;
        let pause = pause.max(self.s.hints.wait(retry_after, || stream.uniform()));
        let plan = policy.plan_attempt(f.attempts, now - f.origin, pause);
        let timeout = match self.within_passed(frame, plan, now + pause) {
            Plan::Attempt { timeout, .. } => timeout,
            Plan::OutOfAttempts => return self.fail(frame, now, Ending::OutOfAttempts, kind),
            Plan::DeadlineExceeded => return self.fail(frame, now, Ending::DeadlineExceeded, kind),
        };
        let after_timeout = kind == FailureKind::Timeout;
        let on_send = !PLAIN && self.layers.charges_on_send;
        let cost = match self.budget(frame, layer) {
            None => 0.0,
            // Asked now, paid as it leaves (`begin_attempt`).
            Some(budget) if on_send => {
                if !budget.grants_retry(now, after_timeout) {
                    self.tally.rec.refusal(now);
                    return self.fail(frame, now, Ending::BudgetExhausted, kind);
                }
                self.extras[frame].charge_on_send = Some(after_timeout);
                0.0
            }
            Some(budget) => match (budget.tokens(), budget.try_retry(now, after_timeout)) {
                (before, Some(cost)) => {
                    let after = budget.tokens();
                    self.budget_changed(layer, now, before, after);
                    cost
                }
                (_, None) => {
                    self.tally.rec.refusal(now);
                    return self.fail(frame, now, Ending::BudgetExhausted, kind);
                }
            },
        };
        if let Some(extra) = self.extras.get_mut(frame) {
            extra.retry_cost = cost;
        }
        let f = &mut self.frames[frame];
        if kind == FailureKind::Unknown {
            f.unknown_retried = true;
        }
        let token = f.token;
        if layer == 0 {
            self.tally.rec.pause(retry, pause);
        }
        if !PLAIN && self.last_layer(layer) {
            let root = self.frames[frame].root;
            if let Some(tracer) = self.tracer() {
                tracer.paused(root, pause);
            }
        }
        let start = now + pause;
        if self.breaker_on() || (!PLAIN && (self.layers.paces || self.layers.charges_on_send)) {
            // The breaker is asked when the retry is sent, after the pause
            // (the budget was asked now, and keeps what it charged, unless
            // it charges as the retry leaves).
            self.extras[frame].next_timeout = timeout;
            self.queue
                .push(start, EventKind::AttemptStart, frame, token);
        } else if (!PLAIN && self.contention) || self.last_layer(layer) {
            self.begin_attempt(frame, start, timeout);
        } else {
            // A call one layer down: its timeout, if any, goes with it.
            self.extras[frame].next_timeout = timeout;
            self.queue
                .push(start, EventKind::AttemptStart, frame, token);
        }
    }

    /// What a failed attempt tells its breaker, its budget, the tally and
    /// the trace; returns the frame's layer.
    #[inline(always)] // speed: hot
    pub(super) fn failure_heard(&mut self, frame: u32, now: f64, kind: FailureKind) -> usize {
        if self.breaker_at(frame) && self.breaker_counts(frame, BreakerAt::Attempt) {
            self.breaker_outcome(frame, now, false);
        }
        let layer = self.layer(frame);
        self.answered(frame, layer);
        if let Some(budget) = self.budget(frame, layer) {
            let before = budget.tokens();
            budget.on_failure(now, kind == FailureKind::Throttled);
            let after = budget.tokens();
            self.budget_changed(layer, now, before, after);
        }
        if self.last_layer(layer) {
            self.tally.rec.failure(now, kind);
            let root = self.frames[frame].root;
            if let Some(tracer) = self.tracer() {
                tracer.answered(root, now, Some(kind));
            }
        }
        layer
    }

    /// Ends a (sub)operation that succeeded; its caller one layer up sees
    /// a successful call.
    fn succeed(&mut self, frame: u32, now: f64) {
        if let Some(parent) = self.close(frame, now, Ending::Succeeded) {
            self.attempt_succeeded(parent, now);
        }
    }

    /// Ends a (sub)operation that failed: `end` says why, `last` is the
    /// error of its last attempt (a 503 when it made none). Its caller one
    /// layer up sees what a failed call looks like from outside: the last
    /// error, a 503 when the budget or the breaker said no, a timeout when
    /// the deadline ran out.
    pub(super) fn fail(&mut self, frame: u32, now: f64, end: Ending, last: FailureKind) {
        if self.breaker_at(frame) {
            self.operation_failed(frame, now, end);
        }
        if let Some(parent) = self.close(frame, now, end) {
            let seen = match end {
                Ending::NotRetryable | Ending::OutOfAttempts => last,
                Ending::BudgetExhausted | Ending::BreakerOpen => FailureKind::Transient,
                Ending::DeadlineExceeded => FailureKind::Timeout,
                Ending::Succeeded => unreachable!("a success ends through `succeed`"),
            };
            self.attempt_failed(parent, now, seen, 0.0);
        }
    }

    /// Closes a frame that ended: a root's operation is counted, a frame one
    /// layer down is freed and its parent, returned, stops waiting.
    #[inline(always)] // speed: hot
    fn close(&mut self, frame: u32, now: f64, end: Ending) -> Option<u32> {
        let f = &mut self.frames[frame];
        f.finished = true;
        f.waiting = false;
        f.token = f.token.wrapping_add(1);
        let parent = f.parent;
        if parent == NO_PARENT {
            // A root was created when its operation started.
            let (latency, retried) = (now - f.origin, f.attempts > 1);
            self.tally.operation_ended(now, latency, retried, end);
            if let Some(top) = self.tally.layer_latency.first_mut() {
                top.record(latency);
            }
            if let Some(tracer) = self.tracer() {
                tracer.ended(frame, now, end);
            }
            if !PLAIN && self.s.workload == WorkloadKind::Closed {
                let client = self.roots[frame].looping;
                self.think_then_start(client, now);
            }
            self.release_root_if_done(frame);
            return None;
        }
        f.alive = false;
        let (root, layer) = (f.root, f.layer as usize);
        self.frames.free(frame);
        self.roots[root].outstanding -= 1;
        let took = now - self.extras[frame].started;
        if let Some(hop) = self.tally.layer_latency.get_mut(layer) {
            hop.record(took);
        }
        self.tally.presence(layer, now, -1);
        // A caller that gave up on this call hears nothing of it.
        let caller = &mut self.frames[parent];
        let heard = caller.token == self.extras[frame].parent_token && caller.waiting;
        if heard {
            caller.waiting = false;
        }
        self.release_root_if_done(root);
        // Last: the calls its worker starts may take this frame's slot.
        if !self.layers.pools.is_empty() && self.extras[frame].holds_worker {
            self.extras[frame].holds_worker = false;
            self.free_worker(layer, now);
        }
        heard.then_some(parent)
    }
}
