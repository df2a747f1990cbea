//! The chain hop by hop: one run of the link's world read layer by layer.

use crate::analysis::{Analysis, Printed};
use retry_core::words::{Text, tr};
use retry_sim::simulate;

/// The hops as an analysis.
pub const ANALYSIS: Analysis = Analysis {
    word: Text("hops"),
    options: &[],
    synopsis: "",
    help: Text(
        "The chain hop by hop, as JSON: each layer's calls per request, those for nobody and those turned away, its p50 and p99; the server's work.",
    ),
    seeds: 1,
    budget: None,
    refusal: |_| None,
    print: |config, _| {
        let (a, b) = simulate::run_both(config);
        Ok(Printed::out(simulate::hops_json(&a, b.as_ref())).saying(cut(&a, b.as_ref())))
    },
};

/// What the page says of a run cut short at a bound, as the terminal
/// says it: "cut: ...".
pub fn cut(a: &retry_sim::sim::Report, b: Option<&retry_sim::sim::Report>) -> Option<String> {
    simulate::limit_text(a, b).map(|text| format!("{}: {text}", tr("cut")))
}
