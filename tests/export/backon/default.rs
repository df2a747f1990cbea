// Cargo.toml: backon = "1", fastrand = "2"
use std::time::Duration;

use backon::{BackoffBuilder, ExponentialBuilder};

/// 4 attempts: the pauses before retries 1..=3.
pub fn backoff() -> impl backon::Backoff {
    ExponentialBuilder::new()
        .with_min_delay(Duration::from_secs_f64(0.1))
        .with_max_delay(Duration::from_secs_f64(0.8))
        .with_factor(2.0)
        .with_max_times(3)
        .build()
        .map(|ceiling| ceiling.mul_f64(fastrand::f64()))
}
