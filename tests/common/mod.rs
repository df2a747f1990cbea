//! What the integration tests share. Each test file compiles this module
//! for itself and uses only part of it, hence `dead_code` is allowed.
#![allow(dead_code)]

pub mod golden;
pub mod links;

use retry_core::policy::{Jitter, Policy, Shape};
use retry_sim::sim::{Report, Scenario, ServiceShape, Spread};

/// A quiet server: unlimited workers, constant 10 ms service, no network
/// time, no faults, no timeouts; Poisson arrivals at 1000/s for 10 s, 4
/// attempts with full jitter from 10 ms capped at 80 ms. Tests switch on
/// what they study.
pub fn quiet_server() -> Scenario {
    Scenario {
        seed: 11,
        horizon: 10.0,
        buckets: 100,
        rate: 1000.0,
        hop: Spread::Constant,
        hop_mean: 0.0,
        failure: 0.0,
        workers: 0,
        service: ServiceShape::Constant,
        service_time: 0.01,
        policy: Policy {
            attempts: 4,
            shape: Shape::Exponential,
            base: 0.01,
            cap: 0.08,
            jitter: Jitter::Full,
            attempt_timeout: None,
            deadline: None,
            ..Policy::default()
        },
        ..Scenario::default()
    }
}

/// Calls that reached the server: first tries plus retries.
pub fn server_calls(report: &Report) -> u64 {
    report.summary.first_tries + report.summary.retries
}
