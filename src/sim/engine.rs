//! The event queue: virtual time, one heap, FIFO among equal times.
//!
//! Events are ordered by `(time, sequence)`: the sequence number is taken at
//! scheduling, so two events for the same instant pop in the order they were
//! scheduled, whatever the heap does internally. Without that tie-break a
//! crowd starting "at once" would be served in an order that depends on heap
//! internals, and a report could change when the heap implementation does.
//!
//! Times are non-negative finite `f64`; for those, the IEEE bit pattern read
//! as an integer orders exactly like the number, so the key is one `u128`
//! compare.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// What happens at an event. The meaning of `index` and `token` depends on
/// the kind (see `world`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
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
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Event {
    /// `time.to_bits() << 64 | sequence`.
    key: u128,
    pub index: u32,
    pub token: u32,
    pub kind: Kind,
}

impl Event {
    pub fn time(&self) -> f64 {
        f64::from_bits((self.key >> 64) as u64)
    }
}

impl Ord for Event {
    fn cmp(&self, other: &Self) -> Ordering {
        // BinaryHeap is a max-heap: the smallest key must compare greatest.
        other.key.cmp(&self.key)
    }
}

impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The pending events of a run.
#[derive(Debug, Default)]
pub(crate) struct Queue {
    heap: BinaryHeap<Event>,
    sequence: u64,
}

impl Queue {
    /// Schedules an event. Non-finite times mean "never" and are dropped;
    /// negative times (and -0) are treated as 0.
    pub fn push(&mut self, time: f64, kind: Kind, index: u32, token: u32) {
        if !time.is_finite() {
            return;
        }
        let time = if time > 0.0 { time } else { 0.0 };
        self.sequence += 1;
        self.heap.push(Event {
            key: (u128::from(time.to_bits()) << 64) | u128::from(self.sequence),
            index,
            token,
            kind,
        });
    }

    pub fn pop(&mut self) -> Option<Event> {
        self.heap.pop()
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_time_order_and_fifo_among_equal_times() {
        let mut queue = Queue::default();
        queue.push(2.0, Kind::Timeout, 0, 0);
        for index in 1..=5 {
            queue.push(1.0, Kind::Arrival, index, 0);
        }
        queue.push(0.5, Kind::Response, 9, 0);
        queue.push(-0.0, Kind::Response, 10, 0);
        queue.push(f64::NAN, Kind::Response, 11, 0);
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
}
