//! gRPC's retry throttling (gRFC A6): a token bucket a failure drains and
//! a success refills a little; a retry goes while it is above half.

use super::Kind;
use crate::range;

/// A token bucket's parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// Capacity, and the starting balance.
    pub max_tokens: f64,
    /// Tokens a success adds back.
    pub token_ratio: f64,
}

impl Params {
    /// gRPC's example: 10 tokens, 0.1 back a success.
    pub const DEFAULT: Params = Params {
        max_tokens: 10.0,
        token_ratio: 0.1,
    };

    /// Brought into their ranges, NaN replaced by the default.
    pub fn sanitized(&self) -> Params {
        let d = Params::DEFAULT;
        Params {
            max_tokens: range::MAX_TOKENS.clamp(self.max_tokens, d.max_tokens),
            token_ratio: range::TOKEN_RATIO.clamp(self.token_ratio, d.token_ratio),
        }
    }

    pub(super) fn rule(&self) -> TokenBucket {
        TokenBucket {
            max: self.max_tokens,
            ratio: self.token_ratio,
            tokens: self.max_tokens,
        }
    }
}

/// gRPC's retry throttling (gRFC A6): a failure takes a token, a success
/// gives back `ratio`; a retry goes while the balance is above half.
#[derive(Debug, Clone)]
pub(super) struct TokenBucket {
    max: f64,
    ratio: f64,
    tokens: f64,
}

impl Kind for TokenBucket {
    fn on_success(&mut self, _now: f64, _retry_cost: f64) {
        self.tokens = (self.tokens + self.ratio).min(self.max);
    }
    fn on_failure(&mut self) {
        self.tokens = (self.tokens - 1.0).max(0.0);
    }
    fn charge(&mut self, _now: f64, _after_timeout: bool) -> Option<f64> {
        (self.tokens > self.max / 2.0).then_some(0.0)
    }
    fn balance(&self) -> Option<f64> {
        Some(self.tokens)
    }
}
