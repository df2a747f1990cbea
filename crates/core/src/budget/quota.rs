//! The AWS SDK's retry quota (standard and adaptive modes): a retry
//! withdraws its cost, a success refunds it.

use super::Kind;
use crate::range;

/// A retry quota's parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// Capacity, and the starting balance.
    pub quota: f64,
    /// Cost of a retry after an ordinary failure.
    pub retry_cost: f64,
    /// Cost of a retry after a timeout (timeouts tie up more).
    pub timeout_cost: f64,
    /// What a success that needed no retry returns.
    pub no_retry_increment: f64,
}

impl Params {
    /// The AWS SDKs' standard mode: 500, 5, 10, 1.
    pub const DEFAULT: Params = Params {
        quota: 500.0,
        retry_cost: 5.0,
        timeout_cost: 10.0,
        no_retry_increment: 1.0,
    };

    /// Brought into their ranges, NaN replaced by the default.
    pub fn sanitized(&self) -> Params {
        let d = Params::DEFAULT;
        let increment = self.no_retry_increment;
        Params {
            quota: range::QUOTA.clamp(self.quota, d.quota),
            retry_cost: range::RETRY_COST.clamp(self.retry_cost, d.retry_cost),
            timeout_cost: range::TIMEOUT_COST.clamp(self.timeout_cost, d.timeout_cost),
            // No parameter sets it (it is the AWS SDK's constant), so it
            // has no range: any count of tokens will do.
            no_retry_increment: if increment.is_finite() && increment >= 0.0 {
                increment
            } else {
                d.no_retry_increment
            },
        }
    }

    pub(super) fn rule(&self) -> Quota {
        Quota {
            quota: self.quota,
            retry_cost: self.retry_cost,
            timeout_cost: self.timeout_cost,
            no_retry_increment: self.no_retry_increment,
            tokens: self.quota,
        }
    }
}

/// The AWS SDK's retry quota (standard and adaptive modes): a retry
/// withdraws its cost, a success refunds it, or adds a little when it
/// needed no retry.
#[derive(Debug, Clone)]
pub(super) struct Quota {
    quota: f64,
    retry_cost: f64,
    timeout_cost: f64,
    no_retry_increment: f64,
    tokens: f64,
}

impl Kind for Quota {
    fn on_success(&mut self, _now: f64, retry_cost: f64) {
        let refund = if retry_cost > 0.0 {
            retry_cost
        } else {
            self.no_retry_increment
        };
        self.tokens = (self.tokens + refund).min(self.quota);
    }
    fn charge(&mut self, _now: f64, after_timeout: bool) -> Option<f64> {
        let cost = if after_timeout {
            self.timeout_cost
        } else {
            self.retry_cost
        };
        (self.tokens >= cost).then(|| {
            self.tokens -= cost;
            cost
        })
    }
    fn balance(&self) -> Option<f64> {
        Some(self.tokens)
    }
}
