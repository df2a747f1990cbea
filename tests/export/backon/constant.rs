// Cargo.toml: backon = "1", fastrand = "2"
use std::time::Duration;

use backon::{BackoffBuilder, ConstantBuilder};

/// 3 attempts: the pauses before retries 1..=2.
pub fn backoff() -> impl backon::Backoff {
    ConstantBuilder::new()
        .with_delay(Duration::from_secs_f64(0.3))
        .with_max_times(2)
        .build()
        .map(|ceiling| ceiling.mul_f64(fastrand::f64()))
}
