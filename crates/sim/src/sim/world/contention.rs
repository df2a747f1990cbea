//! The contention workload's shared row: each attempt reads the row's
//! version, then writes on condition that the version has not changed
//! since; a write that finds a newer version is a conflict. Contention has
//! one layer, so each frame is its own root, and the row answers at once:
//! only the network takes time.

use super::World;
use crate::sim::engine::EventKind;
use crate::sim::report::FailureKind;

impl<const PLAIN: bool> World<PLAIN> {
    /// The read reaches the row: the version goes back, and the conditional
    /// write comes after a round trip.
    pub(super) fn read_arrive(&mut self, frame: u32, token: u32, now: f64) {
        self.extras[frame].read_version = self.version;
        if let Some(tracer) = self.tracer() {
            tracer.read_arrived(frame, now);
        }
        let back = self.hop(frame);
        let forth = self.hop(frame);
        self.queue
            .push(now + back + forth, EventKind::WriteArrive, frame, token);
    }

    /// The conditional write reaches the row: it succeeds if nobody wrote
    /// since the attempt's read.
    pub(super) fn write_arrive(&mut self, frame: u32, token: u32, now: f64) {
        let ok = self.extras[frame].read_version == self.version;
        if ok {
            self.version += 1;
        }
        self.extras[frame].write_ok = ok;
        let back = self.hop(frame);
        self.queue
            .push(now + back, EventKind::WriteResponse, frame, token);
    }

    /// The write's answer reaches the client.
    pub(super) fn write_response(&mut self, frame: u32, now: f64) {
        self.frames[frame].waiting = false;
        if self.extras[frame].write_ok {
            self.attempt_succeeded(frame, now);
        } else {
            self.attempt_failed(frame, now, FailureKind::Conflict, 0.0);
        }
    }
}
