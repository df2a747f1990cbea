// Cargo.toml: backon = "1", fastrand = "2"
use std::time::Duration;

use backon::{BackoffBuilder, ExponentialBuilder};

/// 8 attempts: the pauses before retries 1..=7.
pub fn backoff() -> impl backon::Backoff {
    ExponentialBuilder::new()
        .with_min_delay(Duration::from_secs_f64(0.1))
        .with_max_delay(Duration::from_secs_f64(1.5))
        .with_factor(2.0)
        .with_max_times(7)
        .build()
        .scan(0.1_f64, |previous, _ceiling| {
            let high = (3.0 * *previous).max(0.1);
            *previous = (0.1 + (high - 0.1) * fastrand::f64()).min(1.5);
            Some(Duration::from_secs_f64(*previous))
        })
}
