//! The runs of one configuration as the charts draw them: the reports of A
//! (and B when comparing), the scenario they ran on, the replay's traces,
//! and what the charts mark beside the reports.

use super::Plotted;
use crate::config::Config;
use crate::policy::PauseBounds;
use crate::sim::{Report, Scenario, trace::Trace};
use crate::simulate;

/// The runs of one configuration and what the charts need of them.
#[derive(Debug)]
pub struct Runs {
    /// The scenario as the simulator ran it, for the server's capacity line.
    pub scenario: Scenario,
    pub a: Report,
    /// Policy B's run in compare mode.
    pub b: Option<Report>,
    /// The replay's traces of A (and B), when the runs traced; else empty.
    pub traces: Vec<Trace>,
    bounds: [Vec<PauseBounds>; 2],
    deadlines: [Option<f64>; 2],
}

/// Runs a configuration in one go: policy A, and B when comparing.
pub fn run(config: &Config) -> Runs {
    let (a, b) = simulate::run_both(config);
    Runs::new(config, config.scenario().sanitized(), a, b, Vec::new())
}

impl Runs {
    /// The reports `a` and `b` of `config`'s policies, run on `scenario`,
    /// with the pause bounds and the deadline of each policy.
    pub fn new(
        config: &Config,
        scenario: Scenario,
        a: Report,
        b: Option<Report>,
        traces: Vec<Trace>,
    ) -> Runs {
        let b_config = config.policy_b_config();
        Runs {
            scenario,
            a,
            b,
            traces,
            bounds: [
                simulate::pause_bounds(config),
                simulate::pause_bounds(&b_config),
            ],
            deadlines: [config.policy().deadline, b_config.policy().deadline],
        }
    }

    /// The runs as the charts draw them, named "A" and "B" in compare mode.
    pub fn charts(&self) -> Vec<Plotted<'_>> {
        let mut runs = vec![Plotted {
            name: if self.b.is_some() { "A" } else { "" },
            report: &self.a,
            bounds: &self.bounds[0],
            deadline: self.deadlines[0],
        }];
        if let Some(b) = &self.b {
            runs.push(Plotted {
                name: "B",
                report: b,
                bounds: &self.bounds[1],
                deadline: self.deadlines[1],
            });
        }
        runs
    }

    /// Whether these are reports of runs still going (drawn so far).
    pub fn in_progress(&self) -> bool {
        self.a.summary.in_progress() || self.b.as_ref().is_some_and(|b| b.summary.in_progress())
    }
}
