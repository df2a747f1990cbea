//! The faults of a world as windows of time: each kind, the worlds it can
//! hit, and when it holds. Which world a fault fits is said here once, for
//! the simulator, the parameter table, the charts and the tally.
//!
//! A [`Scenario`] keeps each fault as a start and a length (0 = none), as
//! its link does; [`Scenario::fault`] reads one as a [`FaultWindow`], or
//! `None` where the world does not have it, and [`Scenario::faults`] every
//! one it has, each service's own outage in a chain among them, each with
//! the size of its kind ([`Hit`]): what the charts shade and name.

use super::{FaultOn, Scenario, WorkloadKind};

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

/// A fault that a world has, from `start` until (not including) `end`,
/// and what it does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FaultWindow {
    pub fault: Fault,
    pub start: f64,
    pub end: f64,
    pub hit: Hit,
}

/// What a fault does, with the number that sizes it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Hit {
    /// The server is down: every server's, or one of a fleet of `servers`.
    Outage { on: FaultOn, servers: u32 },
    /// Arrivals come at `rate` a second (0: every new request turned away).
    Spike { rate: f64 },
    /// The server keeps `keeps` of its workers.
    CapacityLoss { keeps: f64 },
    /// Service takes `times` as long.
    LatencySpike { times: f64 },
    /// `share` of the clients are cut off from the server.
    Partition { share: f64 },
    /// The service at `layer` (from 2) of a chain is down.
    ServiceOutage { layer: u32 },
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
        let hit = match fault {
            Fault::Outage => Hit::Outage {
                on: self.fault_on,
                servers: self.servers,
            },
            Fault::Spike => Hit::Spike {
                rate: self.spike_rate,
            },
            Fault::CapacityLoss => Hit::CapacityLoss {
                keeps: self.drop_to,
            },
            Fault::LatencySpike => Hit::LatencySpike {
                times: self.slow_factor,
            },
            Fault::Partition => Hit::Partition {
                share: self.cut_share,
            },
        };
        let window = FaultWindow {
            fault,
            start,
            end: start + length,
            hit,
        };
        (fault.fits(self.workload, self.workers) && length > 0.0).then_some(window)
    }

    /// Every fault this world has: the world's, in [`Fault::ALL`]'s
    /// order, then each service's own outage in a chain (the layers this
    /// world has, each with a length over 0).
    pub fn faults(&self) -> impl Iterator<Item = FaultWindow> + '_ {
        let own = (0..retry_core::range::OWN_POLICY_LAYERS)
            .map(|i| (i as u32 + 2, i))
            .filter(move |&(layer, i)| layer <= self.layers && self.layer_outage_duration[i] > 0.0)
            .map(move |(layer, i)| {
                let start = self.layer_outage_start[i];
                FaultWindow {
                    fault: Fault::Outage,
                    start,
                    end: start + self.layer_outage_duration[i],
                    hit: Hit::ServiceOutage { layer },
                }
            });
        Fault::ALL
            .into_iter()
            .filter_map(|fault| self.fault(fault))
            .chain(own)
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
        assert_eq!(
            s.fault(Fault::CapacityLoss).map(|w| w.hit),
            Some(Hit::CapacityLoss { keeps: s.drop_to })
        );
        // A service's own outage, where the chain has that service, is a
        // fault like the others, named by its layer.
        s.layer_outage_start[1] = 4.0;
        s.layer_outage_duration[1] = 2.0;
        assert_eq!(s.faults().count(), 2, "one layer: no layer 3");
        s.layers = 3;
        let own = s.faults().last().expect("the service's outage");
        assert_eq!(
            (own.start, own.end, own.hit),
            (4.0, 6.0, Hit::ServiceOutage { layer: 3 })
        );
    }
}
