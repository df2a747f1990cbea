//! Brooker's adaptive bucket (his 2022 retry simulations): every first
//! try deposits a little, a retry takes one while the balance is above 1.

use super::Kind;
use crate::range;

/// The bucket's parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// Capacity, and the starting balance.
    pub bucket_size: f64,
    /// What each first try deposits.
    pub bucket_deposit: f64,
}

impl Params {
    /// Brooker's: 5, 0.1 a first try.
    pub const DEFAULT: Params = Params {
        bucket_size: 5.0,
        bucket_deposit: 0.1,
    };

    /// Brought into their ranges, NaN replaced by the default.
    pub fn sanitized(&self) -> Params {
        let d = Params::DEFAULT;
        Params {
            bucket_size: range::BUCKET_SIZE.clamp(self.bucket_size, d.bucket_size),
            bucket_deposit: range::BUCKET_DEPOSIT.clamp(self.bucket_deposit, d.bucket_deposit),
        }
    }

    pub(super) fn rule(&self) -> Bucket {
        Bucket {
            size: self.bucket_size,
            deposit: self.bucket_deposit,
            tokens: self.bucket_size,
        }
    }
}

/// Brooker's adaptive bucket: a first try deposits, a retry takes 1 while
/// the balance is above 1.
#[derive(Debug, Clone)]
pub(super) struct Bucket {
    size: f64,
    deposit: f64,
    tokens: f64,
}

impl Kind for Bucket {
    fn on_first_try(&mut self, _now: f64) {
        self.tokens = (self.tokens + self.deposit).min(self.size);
    }
    fn charge(&mut self, _now: f64, _after_timeout: bool) -> Option<f64> {
        (self.tokens > 1.0).then(|| {
            self.tokens -= 1.0;
            0.0
        })
    }
    fn balance(&self) -> Option<f64> {
        Some(self.tokens)
    }
}
