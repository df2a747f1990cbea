//! Settings, presets and reports the view's tests share.

use retry_sim::config::Config;
use retry_sim::sim::Report;
use retry_sim::simulate;
use retry_teach::presets::{PRESETS, Preset};

pub(super) fn config(link: &str) -> Config {
    let (config, notices) = Config::from_link(link);
    assert_eq!(notices, [], "{link}");
    config
}

pub(super) fn preset(key: &str) -> &'static Preset {
    PRESETS
        .iter()
        .find(|p| p.key == key)
        .expect("the preset exists")
}

/// A run whose summary holds chosen numbers.
pub(super) fn report(operations: u64, by_layer: &[u64], success: f64, p99: f64) -> Report {
    let mut report = simulate::run(&config("v=1&rate=1&horizon=1"));
    let summary = &mut report.summary;
    summary.operations = operations;
    summary.success_rate = success;
    summary.attempts_per_operation = by_layer[0] as f64 / operations as f64;
    summary.attempts_by_layer = by_layer.to_vec();
    // As the simulator counts them, the server's calls are the bottom layer's.
    summary.server_calls_per_operation = by_layer[by_layer.len() - 1] as f64 / operations as f64;
    summary.retried_share = 0.25;
    summary.budget_refusals = 3;
    summary.deadline_exceeded = 0;
    summary.duplicates = 2;
    summary.latency_p50 = 0.0125;
    summary.latency_p99 = p99;
    summary.server_work = 8.0;
    summary.wasted_work = 1.0;
    report
}
