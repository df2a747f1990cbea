//! A policy's pauses in closed form: its attempts and the analytic bounds
//! of each pause, for checking a library's schedule against the
//! playground's (the Python tests hold tenacity's and botocore's to them).

use crate::analysis::{Analysis, Printed};
use retry_core::words::Text;
use retry_sim::simulate;

/// The pauses' bounds as an analysis: policy A's, or B's with `--b`.
pub const ANALYSIS: Analysis = Analysis {
    word: Text("bounds"),
    options: &[],
    synopsis: " [--b]",
    help: Text(
        "The attempts and each pause's analytic bounds (least, most, mean) as JSON: policy A's, or B's with --b.",
    ),
    seeds: 0,
    budget: None,
    refusal: |_| None,
    print: |config, args| {
        let chosen = match args.flag("--b") {
            true => config.policy_b_config(),
            false => config.clone(),
        };
        let pauses: Vec<serde_json::Value> = simulate::pause_bounds(&chosen)
            .iter()
            .map(|b| serde_json::json!({ "min": b.min, "max": b.max, "mean": b.mean }))
            .collect();
        let json = serde_json::json!({ "attempts": chosen.policy().attempts, "pauses": pauses });
        Ok(Printed::out(json.to_string()))
    },
};
