//! The ratio budget (Finagle's `RetryBudget`, Linkerd's, gRPC-Go's
//! retry budget in spirit): retries in a sliding window at most a share of
//! the window's deposits, plus a floor of retries a second.

use super::{Kind, RatioBasis};
use crate::range;
use crate::window::SlidingWindow;

/// A ratio budget's parameters. Times in seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// Allowed retries per deposit (0.2 = 20 %).
    pub percent: f64,
    /// Retries per second allowed regardless of traffic.
    pub min_per_second: f64,
    /// Length of the sliding window.
    pub window: f64,
    /// What counts as a deposit.
    pub basis: RatioBasis,
}

impl Params {
    /// Finagle's: 20 %, 10 a second, over 10 s, of the successes.
    pub const DEFAULT: Params = Params {
        percent: 0.2,
        min_per_second: 10.0,
        window: 10.0,
        basis: RatioBasis::Successes,
    };

    /// Brought into their ranges, NaN replaced by the default.
    pub fn sanitized(&self) -> Params {
        let d = Params::DEFAULT;
        Params {
            percent: range::BUDGET_PERCENT.clamp(self.percent, d.percent),
            min_per_second: range::BUDGET_FLOOR.clamp(self.min_per_second, d.min_per_second),
            window: range::BUDGET_WINDOW.clamp(self.window, d.window),
            basis: self.basis,
        }
    }

    pub(super) fn rule(&self) -> Ratio {
        Ratio {
            percent: self.percent,
            floor: self.min_per_second * self.window,
            basis: self.basis,
            window: SlidingWindow::new(self.window),
        }
    }
}

/// The ratio budget's counters: what earns retries, and retries made.
const DEPOSITS: usize = 0;
const RETRIES: usize = 1;

/// Retries in the window at most `percent` of its deposits plus the floor
/// (`min_per_second` x the window's length).
#[derive(Debug, Clone)]
pub(super) struct Ratio {
    percent: f64,
    floor: f64,
    basis: RatioBasis,
    window: SlidingWindow<2>,
}

impl Kind for Ratio {
    fn on_first_try(&mut self, now: f64) {
        if self.basis == RatioBasis::Requests {
            self.window.add(now, DEPOSITS);
        }
    }
    fn on_success(&mut self, now: f64, _retry_cost: f64) {
        if self.basis == RatioBasis::Successes {
            self.window.add(now, DEPOSITS);
        }
    }
    fn charge(&mut self, now: f64, _after_timeout: bool) -> Option<f64> {
        self.window.slide(now);
        let allowance = self.percent * self.window.total(DEPOSITS) as f64 + self.floor;
        ((self.window.total(RETRIES) as f64) < allowance).then(|| {
            self.window.add(now, RETRIES);
            0.0
        })
    }
}
