// Cargo.toml: backon = "1", fastrand = "2"
use std::time::Duration;


/// 6 attempts: the pauses before retries 1..=5.
pub fn backoff() -> impl backon::Backoff {
    (1..=5u32).map(|retry| Duration::from_secs_f64(0.2).mul_f64(f64::from(retry)).min(Duration::from_secs_f64(0.7)))
}
