//! The faults of a world as windows of time: each kind, the worlds it can
//! hit, and when it holds. Which world a fault fits is said here once, for
//! the simulator, the parameter table, the charts and the tally.
//!
//! A [`Scenario`] keeps each fault as a start and a length (0 = none), as
//! its link does; [`Scenario::fault`] reads one as a [`FaultWindow`], or
//! `None` where the world does not have it.

use super::{Scenario, WorkloadKind};

/// A kind of fault, in the order the charts name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Every arriving request fails fast or hangs.
    Outage,
    /// Poisson arrivals come at the spike's rate (0: the door closed).
    Spike,
    /// The server keeps a share of its workers.
    CapacityLoss,
    /// Service takes longer.
    LatencySpike,
    /// A share of the clients is cut off from the server.
    Partition,
}

impl Fault {
    /// Every kind, in order.
    pub const ALL: [Fault; 5] = [
        Fault::Outage,
        Fault::Spike,
        Fault::CapacityLoss,
        Fault::LatencySpike,
        Fault::Partition,
    ];

    /// Whether a world of this workload and these workers (0 = unlimited)
    /// can have the fault: the server's faults need a server (not the
    /// contention model's shared row), a capacity loss needs workers to
    /// lose, and a spike is of Poisson arrivals.
    pub fn fits(self, workload: WorkloadKind, workers: u32) -> bool {
        let served = workload != WorkloadKind::Contention;
        match self {
            Fault::Spike => workload == WorkloadKind::Poisson,
            Fault::CapacityLoss => served && workers > 0,
            Fault::Outage | Fault::LatencySpike | Fault::Partition => served,
        }
    }
}

/// A fault that a world has, from `start` until (not including) `end`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FaultWindow {
    pub fault: Fault,
    pub start: f64,
    pub end: f64,
}

impl FaultWindow {
    /// Whether the fault holds at `at`.
    #[inline(always)] // speed: hot (the server asks at every arrival)
    pub fn holds(&self, at: f64) -> bool {
        at >= self.start && at < self.end
    }
}

impl Scenario {
    /// The window of `fault` when this world has it: the fault fits the
    /// world ([`Fault::fits`]) and lasts longer than 0.
    pub fn fault(&self, fault: Fault) -> Option<FaultWindow> {
        let (start, length) = match fault {
            Fault::Outage => (self.outage_start, self.outage_duration),
            Fault::Spike => (self.spike_start, self.spike_duration),
            Fault::CapacityLoss => (self.drop_start, self.drop_duration),
            Fault::LatencySpike => (self.slow_start, self.slow_duration),
            Fault::Partition => (self.cut_start, self.cut_duration),
        };
        let window = FaultWindow {
            fault,
            start,
            end: start + length,
        };
        (fault.fits(self.workload, self.workers) && length > 0.0).then_some(window)
    }

    /// Every fault this world has, in [`Fault::ALL`]'s order.
    pub fn faults(&self) -> impl Iterator<Item = FaultWindow> + '_ {
        Fault::ALL.into_iter().filter_map(|fault| self.fault(fault))
    }

    /// Each service's own outage in a chain, the layer (from 2) with its
    /// window: the layers this world has, each with a length over 0.
    pub fn layer_outages(&self) -> impl Iterator<Item = (u32, f64, f64)> + '_ {
        (0..retry_core::range::OWN_POLICY_LAYERS)
            .map(|i| (i as u32 + 2, i))
            .filter(move |&(layer, i)| layer <= self.layers && self.layer_outage_duration[i] > 0.0)
            .map(move |(layer, i)| {
                let start = self.layer_outage_start[i];
                (layer, start, start + self.layer_outage_duration[i])
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fault_is_where_it_fits_and_lasts() {
        let mut s = Scenario {
            outage_start: 5.0,
            outage_duration: 3.0,
            drop_start: 2.0,
            drop_duration: 4.0,
            workers: 0,
            ..Scenario::DEFAULT
        };
        let outage = s.fault(Fault::Outage).expect("an outage");
        assert_eq!((outage.start, outage.end), (5.0, 8.0));
        assert!(outage.holds(5.0) && outage.holds(7.99) && !outage.holds(8.0));
        assert_eq!(s.fault(Fault::CapacityLoss), None, "no workers to lose");
        s.workers = 10;
        assert!(s.fault(Fault::CapacityLoss).is_some());
        assert_eq!(s.fault(Fault::Partition), None, "a length of 0 is none");
        s.workload = WorkloadKind::Contention;
        assert_eq!(s.faults().count(), 0, "the shared row has no server");
        s.workload = WorkloadKind::Crowd;
        s.spike_duration = 1.0;
        assert_eq!(s.fault(Fault::Spike), None, "a spike is of arrivals");
        assert_eq!(
            s.faults().map(|w| w.fault).collect::<Vec<_>>(),
            [Fault::Outage, Fault::CapacityLoss]
        );
        // A service's own outage, where the chain has that service.
        s.layer_outage_start[1] = 4.0;
        s.layer_outage_duration[1] = 2.0;
        assert_eq!(s.layer_outages().count(), 0, "one layer: no layer 3");
        s.layers = 3;
        assert_eq!(s.layer_outages().collect::<Vec<_>>(), [(3, 4.0, 6.0)]);
    }
}
