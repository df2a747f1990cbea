//! The event queue: virtual time, FIFO among equal times.
//!
//! Events are ordered by `(time, sequence)`: the sequence number is taken at
//! scheduling, so two events for the same instant pop in the order they were
//! scheduled, whatever the queue does internally. Without that tie-break a
//! crowd starting "at once" would be served in an order that depends on queue
//! internals, and a report could change when the queue implementation does.
//!
//! Times are non-negative finite `f64`; for those, the IEEE bit pattern read
//! as an integer orders exactly like the number, so the key `(time bits,
//! sequence)` is one 128-bit integer compare.
//!
//! ## Why a calendar and not one heap
//!
//! A binary heap of all pending events costs `log n` unpredictable compares
//! per push and pop; with thousands pending that was most of a run. Time in a
//! simulation only moves forward, and most events are scheduled a little
//! ahead of now, which a *calendar queue* exploits: time is cut into buckets
//! of a fixed width, a ring of buckets covers the near future, and an event
//! is added (unsorted, O(1)) to the bucket its time falls in. Only when a
//! bucket becomes the current one is it sorted, and buckets hold few events.
//! Buckets are lists through one pool of nodes, so the ring's memory follows
//! the pending events and stays in cache. Events beyond the ring's reach
//! wait in a heap and move into the ring when it gets near them (the ring
//! grows when both are crowded); events scheduled into the current bucket
//! go to a small heap beside it. Timeouts of attempts sent now, which come
//! in time order when the attempt timeout is fixed, wait in a plain FIFO.
//!
//! The bucket of a time is `floor(time / width)` computed as `time * (1 /
//! width)`, which never decreases as time grows, so every event of a bucket
//! comes no later than every event of the next one, and equal times share a
//! bucket; inside a bucket the `(time, sequence)` sort decides. The order of
//! events is therefore exactly the heap's, whatever the width: the width only
//! decides speed, and it adapts to the run (too many events per bucket halves
//! it, too many events beyond the ring doubles it).

use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, VecDeque};

/// What happens at an event. The meaning of `index` and `token` depends on
/// the kind (see `world`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum EventKind {
    /// The workload's next operation starts.
    Arrival,
    /// A layer above the last starts a retry (spawns a call one layer down).
    AttemptStart,
    /// A request reaches the server.
    ServerArrive,
    /// The server finishes a request.
    ServiceDone,
    /// A response reaches the client.
    Response,
    /// An attempt's timeout expires.
    Timeout,
    /// Contention: the read reaches the row.
    ReadArrive,
    /// Contention: the conditional write reaches the row.
    WriteArrive,
    /// Contention: the write's answer reaches the client.
    WriteResponse,
    /// A capacity loss ends: the workers are back.
    CapacityBack,
    /// A hedged call's delay is up: the next copy goes, unless an answer
    /// or a copy came meanwhile.
    HedgeNext,
    /// A service below the top has done its own work on a call: it calls
    /// below.
    LayerWork,
}

/// Kinds by their number, padded to the 16 values of `KIND_BITS` so that
/// decoding needs no bounds check (the padding is never read).
const KINDS: [EventKind; 1 << KIND_BITS] = [
    EventKind::Arrival,
    EventKind::AttemptStart,
    EventKind::ServerArrive,
    EventKind::ServiceDone,
    EventKind::Response,
    EventKind::Timeout,
    EventKind::ReadArrive,
    EventKind::WriteArrive,
    EventKind::WriteResponse,
    EventKind::CapacityBack,
    EventKind::HedgeNext,
    EventKind::LayerWork,
    EventKind::Arrival,
    EventKind::Arrival,
    EventKind::Arrival,
    EventKind::Arrival,
];

/// Bits of `Event::order` that hold the kind (below the sequence number).
const KIND_BITS: u32 = 4;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Event {
    /// `time.to_bits()`.
    time: u64,
    /// `sequence << KIND_BITS | kind`: sequences are unique, so this orders
    /// like the sequence alone.
    order: u64,
    pub index: u32,
    pub token: u32,
}

impl Event {
    pub fn time(&self) -> f64 {
        f64::from_bits(self.time)
    }

    pub fn kind(&self) -> EventKind {
        KINDS[(self.order & ((1 << KIND_BITS) - 1)) as usize]
    }

    /// `(time, order)` as one integer: one compare.
    #[inline]
    fn wide_key(&self) -> u128 {
        (u128::from(self.time) << 64) | u128::from(self.order)
    }
}

impl Ord for Event {
    fn cmp(&self, other: &Self) -> Ordering {
        self.wide_key().cmp(&other.wide_key())
    }
}

impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// An event in a ring slot's list.
#[derive(Debug, Clone, Copy)]
struct Node {
    event: Event,
    next: u32,
}

/// No node: the end of a list.
const NONE: u32 = u32::MAX;

/// Where `Queue::pop` found the next event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    Empty,
    Sorted,
    Late,
    Lane,
    Single,
}

/// Buckets in the ring at first and at most (powers of two).
const MIN_RING: usize = 1 << 12;
const MAX_RING: usize = 1 << 14;
/// Pops between two looks at whether the bucket width suits the run.
const REVIEW: u32 = 1 << 13;
const MIN_WIDTH: f64 = 1e-9;
const MAX_WIDTH: f64 = 1e6;

/// The pending events of a run.
#[derive(Debug)]
pub(crate) struct Queue {
    /// Short mode: the queue holds one operation's events, usually one or
    /// two: the earliest in `first`, the others in the `late` heap. The
    /// calendar stays unused.
    short: bool,
    /// Short mode: the earliest pending event, when `len > 0`. Not an
    /// `Option`: taking one out of an `Option` copied it through the stack
    /// a few times, on the path every event takes.
    first: Event,
    /// `1 / bucket width`.
    inverse_width: f64,
    /// The bucket being consumed; `ring` holds buckets `current + 1 ..
    /// current + ring.len()`.
    current: u64,
    /// The current bucket sorted, greatest first (pops from the end).
    sorted: Vec<Event>,
    /// Events scheduled into the current bucket after it was sorted.
    late: BinaryHeap<Reverse<Event>>,
    /// Each slot's events as a list through `nodes` (`NONE` when empty).
    ring: Vec<u32>,
    /// The ring's events. One pool for every slot keeps the ring's memory
    /// to the events it holds: a vector per slot would keep every slot's
    /// largest size, megabytes for a ring of thousands, out of cache.
    nodes: Vec<Node>,
    /// Head of the list of unused nodes.
    free_node: u32,
    /// One bit per non-empty ring slot.
    occupied: Vec<u64>,
    in_ring: usize,
    /// Events beyond the ring.
    far: BinaryHeap<Reverse<Event>>,
    /// Events from `push_in_order`: a FIFO is enough for them. They are
    /// mostly timeouts popped long after their attempt was answered, which
    /// would otherwise fill the far heap.
    lane: VecDeque<Event>,
    /// The event from `push_single`: the workload's next arrival, of which
    /// there is only ever one pending. Most arrivals fall into the current
    /// bucket (they come far more often than buckets turn), where they
    /// would cost a heap push and pop each.
    single: Option<Event>,
    len: usize,
    /// Most events pending at once.
    peak: usize,
    /// Events scheduled so far (the last sequence number).
    sequence: u64,
    /// Time of the last event popped.
    now: f64,
    /// Events moved by rebuilds and sorted in buckets so far: the queue's
    /// own work beyond a push and a pop per event, which the run's bound on
    /// time counts (see `world`, "Bounds").
    moves: u64,
    // Statistics since the last review of the width.
    pops: u32,
    pushes: u32,
    far_pushes: u32,
    sorted_buckets: u32,
    sorted_events: u32,
}

impl Default for Queue {
    fn default() -> Self {
        Self::with_width(1e-3)
    }
}

impl Queue {
    /// An empty queue whose buckets start `width` seconds wide (a guess: the
    /// width adapts).
    pub fn with_width(width: f64) -> Self {
        let width = if width.is_finite() {
            width.clamp(MIN_WIDTH, MAX_WIDTH)
        } else {
            1e-3
        };
        Self::new(width, MIN_RING)
    }

    /// An empty queue of buckets `width` wide in a ring of `ring` slots.
    fn new(width: f64, ring: usize) -> Self {
        Self {
            short: false,
            first: Event::default(),
            inverse_width: 1.0 / width,
            current: 0,
            sorted: Vec::new(),
            late: BinaryHeap::new(),
            ring: vec![NONE; ring],
            nodes: Vec::new(),
            free_node: NONE,
            occupied: vec![0; ring / 64],
            in_ring: 0,
            far: BinaryHeap::new(),
            lane: VecDeque::new(),
            single: None,
            len: 0,
            peak: 0,
            sequence: 0,
            now: 0.0,
            moves: 0,
            pops: 0,
            pushes: 0,
            far_pushes: 0,
            sorted_buckets: 0,
            sorted_events: 0,
        }
    }

    /// A queue for one operation's events at a time: the earliest in a slot
    /// of its own and the rest in a heap. Cheaper than the calendar for the
    /// one or two events such a queue usually holds, still `log n` for an
    /// operation with thousands pending, and it accepts times earlier than
    /// the last one popped.
    pub fn short() -> Self {
        Self {
            short: true,
            // The calendar stays unused: no ring to allocate and fill.
            ..Self::new(1.0, 0)
        }
    }

    /// The event to schedule, stamped with the next sequence number and
    /// counted as pending; none for a non-finite time ("never"). Negative
    /// times (and -0) become 0.
    #[inline(always)] // speed: hot
    fn stamp(&mut self, time: f64, kind: EventKind, index: u32, token: u32) -> Option<Event> {
        if !time.is_finite() {
            return None;
        }
        let time = if time > 0.0 { time } else { 0.0 };
        self.sequence += 1;
        self.len += 1;
        if self.len > self.peak {
            self.peak = self.len;
        }
        Some(Event {
            time: time.to_bits(),
            order: (self.sequence << KIND_BITS) | kind as u64,
            index,
            token,
        })
    }

    /// Schedules an event. Non-finite times mean "never" and are dropped;
    /// negative times (and -0) are treated as 0.
    /// Inlined natively, where every push site is hot; a call in the page,
    /// where ten copies of the calendar's placement would cost download.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))] // speed: hot natively
    pub fn push(&mut self, time: f64, kind: EventKind, index: u32, token: u32) {
        let Some(event) = self.stamp(time, kind, index, token) else {
            return;
        };
        if self.short {
            if self.len == 1 {
                // The only one (`stamp` counted it).
                self.first = event;
            } else if self.first.wide_key() < event.wide_key() {
                self.late.push(Reverse(event));
            } else {
                let first = std::mem::replace(&mut self.first, event);
                self.late.push(Reverse(first));
            }
            return;
        }
        self.pushes = self.pushes.wrapping_add(1);
        self.place(event);
    }

    /// Schedules an event that is expected to come no earlier than the
    /// previous ones scheduled this way (the timeouts of attempts sent now,
    /// when the attempt timeout is fixed): those wait in a FIFO. An event that
    /// breaks the order is scheduled as usual; the pop order is the same.
    pub fn push_in_order(&mut self, time: f64, kind: EventKind, index: u32, token: u32) {
        let in_order = self.lane.back().is_none_or(|last| last.time() <= time);
        if self.short || !in_order {
            return self.push(time, kind, index, token);
        }
        if let Some(event) = self.stamp(time, kind, index, token) {
            self.lane.push_back(event);
        }
    }

    /// Schedules an event of which no other is pending (the next arrival):
    /// it waits in a slot of its own. Should one be pending already, the
    /// event is scheduled as usual; the pop order is the same either way.
    pub fn push_single(&mut self, time: f64, kind: EventKind, index: u32, token: u32) {
        if self.short || self.single.is_some() {
            return self.push(time, kind, index, token);
        }
        if let Some(event) = self.stamp(time, kind, index, token) {
            self.single = Some(event);
        }
    }

    #[inline]
    fn bucket(&self, time: u64) -> u64 {
        // Saturating float-to-int conversion: monotone in time. Times are
        // never negative, and a signed conversion is a few instructions
        // cheaper than an unsigned one.
        (f64::from_bits(time) * self.inverse_width) as i64 as u64
    }

    #[inline(always)] // speed: hot
    fn place(&mut self, event: Event) {
        let bucket = self.bucket(event.time);
        if bucket <= self.current {
            self.late.push(Reverse(event));
        } else if bucket - self.current < self.ring.len() as u64 {
            self.put_in_ring(bucket, event);
        } else {
            self.far_pushes = self.far_pushes.wrapping_add(1);
            self.far.push(Reverse(event));
        }
    }

    #[inline(always)] // speed: hot
    pub fn pop(&mut self) -> Option<Event> {
        if self.short {
            return (self.len > 0).then(|| self.pop_short());
        }
        self.pop_calendar()
    }

    /// The next event of a short queue that is not empty. Apart from `pop`
    /// so that a caller that checked `len` gets the event without an
    /// `Option` around it, which the compiler copied through the stack.
    #[inline(always)] // speed: hot
    pub fn pop_short(&mut self) -> Event {
        debug_assert!(self.short && self.len > 0);
        let event = self.first;
        // Usually empty: look before calling `pop`, which is not inlined.
        if let Some(&Reverse(next)) = self.late.peek() {
            self.late.pop();
            self.first = next;
        }
        self.len -= 1;
        event
    }

    fn pop_calendar(&mut self) -> Option<Event> {
        if self.sorted.is_empty() && self.late.is_empty() {
            // Nothing left in the current bucket: make the next one current
            // (the lane and the single slot may still hold events).
            self.advance();
        }
        // The smallest of the four heads; keys are unique.
        let mut source = Source::Empty;
        let mut best = u128::MAX;
        if let Some(sorted) = self.sorted.last() {
            (source, best) = (Source::Sorted, sorted.wide_key());
        }
        if let Some(Reverse(late)) = self.late.peek() {
            if late.wide_key() < best {
                (source, best) = (Source::Late, late.wide_key());
            }
        }
        if let Some(lane) = self.lane.front() {
            if lane.wide_key() < best {
                (source, best) = (Source::Lane, lane.wide_key());
            }
        }
        if let Some(single) = &self.single {
            if single.wide_key() < best {
                source = Source::Single;
            }
        }
        let event = match source {
            Source::Empty => return None,
            Source::Sorted => self.sorted.pop(),
            Source::Late => self.late.pop().map(|Reverse(event)| event),
            Source::Lane => self.lane.pop_front(),
            Source::Single => self.single.take(),
        }?;
        self.len -= 1;
        self.now = event.time();
        self.pops += 1;
        if self.pops == REVIEW {
            self.review();
        }
        Some(event)
    }

    /// Makes the next non-empty bucket the current one, if there is one.
    fn advance(&mut self) {
        let ring_next = if self.in_ring > 0 {
            self.next_occupied()
        } else {
            u64::MAX
        };
        let far_next = self
            .far
            .peek()
            .map_or(u64::MAX, |Reverse(event)| self.bucket(event.time));
        if self.in_ring == 0 && self.far.is_empty() {
            return;
        }
        let next = ring_next.min(far_next);
        self.current = next;
        while let Some(Reverse(event)) = self.far.peek() {
            let bucket = self.bucket(event.time);
            if bucket - next >= self.ring.len() as u64 {
                break;
            }
            let Some(Reverse(event)) = self.far.pop() else {
                break;
            };
            if bucket == next {
                self.sorted.push(event);
            } else {
                self.put_in_ring(bucket, event);
            }
        }
        self.take_slot(next as usize & (self.ring.len() - 1));
        self.sorted_buckets += 1;
        self.sorted_events = self.sorted_events.wrapping_add(self.sorted.len() as u32);
        self.moves += self.sorted.len() as u64;
        self.sorted
            .sort_unstable_by_key(|event| Reverse(event.wide_key()));
    }

    /// Adds `event` to the list of the ring slot of `bucket`.
    #[inline(always)] // speed: hot
    fn put_in_ring(&mut self, bucket: u64, event: Event) {
        let slot = bucket as usize & (self.ring.len() - 1);
        let node = Node {
            event,
            next: self.ring[slot],
        };
        self.ring[slot] = match self.free_node {
            NONE => {
                self.nodes.push(node);
                (self.nodes.len() - 1) as u32
            }
            free => {
                self.free_node = self.nodes[free as usize].next;
                self.nodes[free as usize] = node;
                free
            }
        };
        self.occupied[slot / 64] |= 1 << (slot % 64);
        self.in_ring += 1;
    }

    /// Moves the events of a ring slot to `sorted` (unsorted).
    fn take_slot(&mut self, slot: usize) {
        let mut node = std::mem::replace(&mut self.ring[slot], NONE);
        self.occupied[slot / 64] &= !(1 << (slot % 64));
        while node != NONE {
            let Node { event, next } = self.nodes[node as usize];
            self.sorted.push(event);
            self.nodes[node as usize].next = self.free_node;
            self.free_node = node;
            self.in_ring -= 1;
            node = next;
        }
    }

    /// The first occupied bucket after the current one (the ring is not empty).
    fn next_occupied(&self) -> u64 {
        let mask = self.ring.len() - 1;
        let words = self.occupied.len();
        let start = (self.current as usize + 1) & mask;
        let mut word = start / 64;
        let mut bits = self.occupied[word] & (u64::MAX << (start % 64));
        let mut steps = 0;
        while bits == 0 && steps <= words {
            word = (word + 1) % words;
            bits = self.occupied[word];
            steps += 1;
        }
        let slot = word * 64 + bits.trailing_zeros() as usize;
        let offset = (slot.wrapping_sub(start) & mask) as u64;
        self.current + 1 + offset
    }

    /// Adapts the bucket width to what the last pops looked like: sorting big
    /// buckets costs `log` per event, sending many events beyond the ring
    /// costs a heap push and pop each.
    fn review(&mut self) {
        let per_bucket = self.sorted_events as f64 / f64::from(self.sorted_buckets.max(1));
        let far_share = f64::from(self.far_pushes) / f64::from(self.pushes.max(1));
        let width = 1.0 / self.inverse_width;
        let crowded = per_bucket > 8.0;
        let (width, ring) = if far_share > 0.1 && per_bucket >= 4.0 && self.ring.len() < MAX_RING {
            (width, self.ring.len() * 2)
        } else if far_share > 0.1 && per_bucket < 4.0 {
            (width * 2.0, self.ring.len())
        } else if crowded && far_share < 0.05 {
            (width / 2.0, self.ring.len())
        } else {
            (width, self.ring.len())
        };
        let width = width.clamp(MIN_WIDTH, MAX_WIDTH);
        if width != 1.0 / self.inverse_width || ring != self.ring.len() {
            self.rebuild(width, ring);
        }
        self.pops = 0;
        self.pushes = 0;
        self.far_pushes = 0;
        self.sorted_buckets = 0;
        self.sorted_events = 0;
    }

    /// Puts every pending event into buckets of a new width. Events keep
    /// their keys, so the order does not change.
    fn rebuild(&mut self, width: f64, ring: usize) {
        self.moves += self.len as u64;
        let mut events: Vec<Event> = Vec::with_capacity(self.len);
        events.append(&mut self.sorted);
        events.extend(self.late.drain().map(|Reverse(event)| event));
        events.extend(self.far.drain().map(|Reverse(event)| event));
        for slot in 0..self.ring.len() {
            self.take_slot(slot);
        }
        events.append(&mut self.sorted);
        self.ring = vec![NONE; ring];
        self.occupied = vec![0; ring / 64];
        self.inverse_width = 1.0 / width;
        self.current = self.bucket(self.now.to_bits());
        for event in events {
            self.place(event);
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Most events pending at once so far.
    pub fn peak(&self) -> usize {
        self.peak
    }

    /// Events moved by rebuilds and sorted in buckets so far.
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// Events popped so far: all scheduled but those still pending.
    pub fn popped(&self) -> u64 {
        self.sequence - self.len as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_time_order_and_fifo_among_equal_times() {
        let mut queue = Queue::default();
        queue.push(2.0, EventKind::Timeout, 0, 0);
        for index in 1..=5 {
            queue.push(1.0, EventKind::Arrival, index, 0);
        }
        queue.push(0.5, EventKind::Response, 9, 0);
        queue.push(-0.0, EventKind::Response, 10, 0);
        queue.push(f64::NAN, EventKind::Response, 11, 0);
        let order: Vec<(f64, u32)> = std::iter::from_fn(|| queue.pop())
            .map(|e| (e.time(), e.index))
            .collect();
        assert_eq!(
            order,
            [
                (0.0, 10),
                (0.5, 9),
                (1.0, 1),
                (1.0, 2),
                (1.0, 3),
                (1.0, 4),
                (1.0, 5),
                (2.0, 0)
            ]
        );
    }

    /// The calendar, and the short queue with thousands pending, pop
    /// exactly what one heap keyed by `(time, sequence)` would, through
    /// width changes, far events and many equal times.
    #[test]
    fn pops_like_a_heap_of_time_and_sequence() {
        let mut stream = retry_core::random::Stream::new(11, 0);
        let queues = [1e-7, 1e-3, 1.0, 1e4].map(Queue::with_width);
        for mut queue in queues.into_iter().chain([Queue::short()]) {
            let mut reference = BinaryHeap::new();
            let mut sequence = 0u32;
            let mut now = 0.0;
            let mut push = |queue: &mut Queue, reference: &mut BinaryHeap<_>, time: f64| {
                sequence += 1;
                let kind = if sequence % 3 == 0 {
                    EventKind::Timeout
                } else {
                    EventKind::Response
                };
                if kind == EventKind::Timeout {
                    queue.push_in_order(time, kind, sequence, 0);
                } else {
                    queue.push(time, kind, sequence, 0);
                }
                reference.push(Reverse((time.to_bits(), sequence)));
            };
            for _ in 0..2_000 {
                push(&mut queue, &mut reference, stream.uniform() * 5.0);
            }
            for step in 0.. {
                let Some(event) = queue.pop() else { break };
                let Some(Reverse((time, sequence))) = reference.pop() else {
                    panic!("the calendar has more events than the heap")
                };
                assert_eq!((event.time().to_bits(), event.index), (time, sequence));
                now = event.time();
                if step < 150_000 {
                    let delay = match step % 5 {
                        0 => 0.0,
                        1 => stream.uniform() * 1e-4,
                        2 => stream.exponential(0.05),
                        3 => stream.uniform() * 1e3,
                        _ => f64::from((step / 5 % 3) as u32) * 0.25,
                    };
                    push(&mut queue, &mut reference, now + delay);
                    if step % 7 == 0 {
                        push(&mut queue, &mut reference, now + delay);
                    }
                    if step % 4 == 0 {
                        // Fixed-length timeouts: in time order.
                        push(&mut queue, &mut reference, now + 0.5);
                    }
                }
            }
            assert!(now > 0.0);
            assert!(reference.is_empty());
            assert_eq!(queue.len(), 0);
        }
    }
}
