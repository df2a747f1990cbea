//! The workload: when each operation starts, and the streams it is given.

use super::World;
use super::client::{NO_PARENT, Operation};
use crate::sim::engine::EventKind;
use crate::sim::{Scenario, WorkloadKind};
use retry_core::random::{Stream, Streams};

/// Salt of the seed of each operation's server stream, so that those
/// streams are not the clients' (`(seed, client)`), nor those one layer down
/// (`seed` salted in its top 24 bits).
const SERVER_STREAMS: u64 = 0x9E37_79B9_7F4A_7C15;
/// Salt of the seed of the draws that send each operation to a client
/// instance: a stream of their own, so that one instance draws nothing and
/// every other stream is what it was.
const INSTANCE_STREAMS: u64 = 0xC2B2_AE3D_27D4_EB4F;
/// Salt of the seed of a closed loop's think times.
const THINK_STREAMS: u64 = 0x1656_67B1_9E37_79F9;
/// Which clients a partition cuts off.
const CUT_STREAMS: u64 = 0x27D4_EB2F_1656_67C5;

/// Where operations come from.
pub(super) struct Workload {
    /// Arrival draws.
    arrivals: Stream,
    /// The clients' streams, and the operations' server streams.
    clients: Streams,
    servers: Streams,
    instances: Streams,
    next_client: u64,
    /// Crowd: position of the last start in the window, in `[0, 1]`.
    crowd_position: f64,
    /// When the last operation started.
    pub last_start: f64,
    /// When operations run alone: the start of the next operation, taken
    /// once the queue has nothing left of the last.
    pub upcoming: Option<f64>,
    /// Closed loop: each client's think times, a stream each, so that a
    /// client thinks the same whatever the others do.
    thinking: Vec<Stream>,
}

impl Workload {
    pub fn new(s: &Scenario) -> Self {
        Self {
            arrivals: Stream::new(s.seed, u64::MAX),
            clients: Streams::new(s.seed),
            servers: Streams::new(s.seed ^ SERVER_STREAMS),
            instances: Streams::new(s.seed ^ INSTANCE_STREAMS),
            next_client: 0,
            crowd_position: 0.0,
            last_start: 0.0,
            upcoming: None,
            thinking: match s.workload {
                WorkloadKind::Closed => {
                    let streams = Streams::new(s.seed ^ THINK_STREAMS);
                    (0..u64::from(s.clients))
                        .map(|c| streams.stream(c))
                        .collect()
                }
                _ => Vec::new(),
            },
        }
    }

    /// When the next operation starts, given the previous start `after`.
    #[inline(always)] // speed: hot
    fn next_arrival(&mut self, s: &Scenario, after: f64) -> Option<f64> {
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
            // A closed loop's starts follow its ends (`think_then_start`).
            WorkloadKind::Closed => None,
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
}

impl<const PLAIN: bool> World<PLAIN> {
    /// An operation starts: its client's root frame, with the operation's
    /// own stream for what the server and the network do to it.
    #[inline(always)] // speed: hot
    pub(super) fn arrival(&mut self, now: f64, looping: u32) {
        let workload = &mut self.workload;
        let client = workload.next_client;
        workload.next_client += 1;
        workload.last_start = now;
        self.tally.operations += 1;
        self.work += 1;
        let stream = workload
            .clients
            .stream(if self.s.shared_seed { 0 } else { client });
        let root = self.alloc_frame(NO_PARENT, 0, now, client, stream);
        self.frames[root].root = root;
        let instance = match self.s.instances {
            0 | 1 => 0,
            instances => self.workload.instances.stream(client).below(instances),
        };
        // A partition cuts off clients: a closed loop's client, else the
        // operation's own, drawn once from the seed.
        let cut = self.s.cut_duration > 0.0 && {
            let id = if self.s.workload == WorkloadKind::Closed {
                u64::from(looping)
            } else {
                client
            };
            Streams::new(self.s.seed ^ CUT_STREAMS).stream(id).uniform() < self.s.cut_share
        };
        let operation = Operation {
            server: self.workload.servers.stream(client),
            executed: 0,
            outstanding: 0,
            instance,
            looping,
            wrong: false,
        };
        self.roots.put(root, operation);
        if cut {
            self.extras[root].cut = true;
        }
        if let Some(tracer) = self.tracer() {
            tracer.started(root, client, now);
        }
        self.schedule_arrival(now);
        self.start_first(root, now);
    }

    /// Closed loop: client `client` starts its next operation a think time
    /// after `after`, while that is before the horizon.
    pub(super) fn think_then_start(&mut self, client: u32, after: f64) {
        let mean = self.s.think;
        let Some(stream) = self.workload.thinking.get_mut(client as usize) else {
            return;
        };
        let think = if mean > 0.0 {
            stream.exponential_ziggurat(mean)
        } else {
            0.0
        };
        let start = after + think;
        if start < self.s.horizon {
            self.queue.push_single(start, EventKind::Arrival, client, 0);
        }
    }

    /// Schedules the operation that starts next after `after`: it waits
    /// outside the queue when operations run alone.
    #[inline(always)] // speed: hot
    pub(super) fn schedule_arrival(&mut self, after: f64) {
        let next = self.workload.next_arrival(&self.s, after);
        if PLAIN || self.alone {
            self.workload.upcoming = next;
        } else if let Some(next) = next {
            self.queue.push_single(next, EventKind::Arrival, 0, 0);
        }
    }
}
