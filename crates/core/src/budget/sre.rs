//! The SRE book's client-side adaptive throttling ("Handling Overload"):
//! attempts rejected before they leave, past K times the accepts.

use super::Kind;
use crate::range;
use crate::window::SlidingWindow;

/// The throttle's parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// The multiplier K of accepts.
    pub sre_k: f64,
    /// The window the counts cover, in seconds.
    pub sre_window: f64,
}

impl Params {
    /// The SRE book's: K = 2 over 2 minutes.
    pub const DEFAULT: Params = Params {
        sre_k: 2.0,
        sre_window: 120.0,
    };

    /// Brought into their ranges, NaN replaced by the default.
    pub fn sanitized(&self) -> Params {
        let d = Params::DEFAULT;
        Params {
            sre_k: range::SRE_K.clamp(self.sre_k, d.sre_k),
            sre_window: range::SRE_WINDOW.clamp(self.sre_window, d.sre_window),
        }
    }

    pub(super) fn rule(&self) -> Sre {
        Sre {
            k: self.sre_k,
            window: SlidingWindow::new(self.sre_window),
        }
    }
}

/// SRE throttling's counters: requests meant to be sent, and those the
/// backend accepted.
const REQUESTS: usize = 0;
const ACCEPTS: usize = 1;

/// The SRE book's client-side throttling: it rejects attempts before they
/// leave; retries are otherwise free.
#[derive(Debug, Clone)]
pub(super) struct Sre {
    k: f64,
    window: SlidingWindow<2>,
}

impl Kind for Sre {
    fn on_success(&mut self, now: f64, _retry_cost: f64) {
        self.window.add(now, ACCEPTS);
    }
    fn admits(&mut self, now: f64, draw: f64) -> bool {
        self.window.slide(now);
        let requests = self.window.total(REQUESTS) as f64;
        let accepts = self.window.total(ACCEPTS) as f64;
        let reject = ((requests - self.k * accepts) / (requests + 1.0)).max(0.0);
        self.window.add(now, REQUESTS);
        draw >= reject
    }
    fn charge(&mut self, _now: f64, _after_timeout: bool) -> Option<f64> {
        Some(0.0)
    }
}
