// Cargo.toml: backon = "1", fastrand = "2"
use std::time::Duration;

use backon::{BackoffBuilder, ExponentialBuilder};

/// 7 attempts: the pauses before retries 1..=6.
pub fn backoff() -> impl backon::Backoff {
    ExponentialBuilder::new()
        .with_min_delay(Duration::from_secs_f64(0.05))
        .with_max_delay(Duration::from_secs_f64(2.0))
        .with_factor(3.0)
        .with_max_times(6)
        .build()
        .map(|ceiling| ceiling / 2 + (ceiling / 2).mul_f64(fastrand::f64()))
}
