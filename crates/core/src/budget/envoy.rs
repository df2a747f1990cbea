//! Envoy's retry budget: concurrent retries at most a share of the
//! requests in flight, with a minimum.

use super::Kind;
use crate::range;

/// Envoy's budget's parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// The share of requests in flight that may be retries.
    pub envoy_percent: f64,
    /// Retries in flight allowed however few requests are.
    pub envoy_min: f64,
}

impl Params {
    /// Envoy's defaults: 20 %, at least 3.
    pub const DEFAULT: Params = Params {
        envoy_percent: 0.2,
        envoy_min: 3.0,
    };

    /// Brought into their ranges, NaN replaced by the default.
    pub fn sanitized(&self) -> Params {
        let d = Params::DEFAULT;
        Params {
            envoy_percent: range::ENVOY_PERCENT.clamp(self.envoy_percent, d.envoy_percent),
            envoy_min: range::ENVOY_MIN.clamp(self.envoy_min, d.envoy_min).round(),
        }
    }

    pub(super) fn rule(&self) -> Envoy {
        Envoy {
            percent: self.envoy_percent,
            min: self.envoy_min,
            in_flight: 0,
            retries_held: 0,
        }
    }
}

/// Envoy's retry budget: retries in flight at most `max(min, percent x
/// attempts in flight)`; a retry holds its place until its answer.
#[derive(Debug, Clone)]
pub(super) struct Envoy {
    percent: f64,
    min: f64,
    in_flight: u32,
    retries_held: u32,
}

impl Kind for Envoy {
    fn on_send(&mut self) {
        self.in_flight += 1;
    }
    fn on_answer(&mut self, retry: bool) {
        self.in_flight = self.in_flight.saturating_sub(1);
        if retry {
            self.release_retry();
        }
    }
    fn release_retry(&mut self) {
        self.retries_held = self.retries_held.saturating_sub(1);
    }
    fn charge(&mut self, _now: f64, _after_timeout: bool) -> Option<f64> {
        let allowed = (self.percent * f64::from(self.in_flight))
            .floor()
            .max(self.min);
        (f64::from(self.retries_held) < allowed).then(|| {
            self.retries_held += 1;
            0.0
        })
    }
}
