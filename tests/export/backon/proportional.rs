// Cargo.toml: backon = "1", fastrand = "2"
use std::time::Duration;

use backon::{BackoffBuilder, ExponentialBuilder};

/// 6 attempts: the pauses before retries 1..=5.
pub fn backoff() -> impl backon::Backoff {
    ExponentialBuilder::new()
        .with_min_delay(Duration::from_secs_f64(0.1))
        .with_max_delay(Duration::from_secs_f64(1.0))
        .with_factor(2.0)
        .with_max_times(5)
        .build()
        .map(|ceiling| ceiling.mul_f64(0.6 + 0.8 * fastrand::f64()).min(Duration::from_secs_f64(1.0)))
}
