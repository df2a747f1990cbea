//! The runs of one configuration as the charts draw them: the reports of A
//! (and B when comparing), the scenario they ran on, the replay's traces,
//! and what the charts mark beside the reports.

use super::Plotted;
use retry_core::policy::PauseBounds;
use retry_sim::config::Config;
use retry_sim::sim::{self, Report, Scenario, trace::Trace};
use retry_sim::simulate;

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

/// The runs [`run`] makes, if each policy's run ends within `work` units
/// of the simulator's work (see [`sim::Run::advance`]); none for a world
/// heavier than that. The first chart's module runs only such worlds.
pub fn run_within(config: &Config, work: u64) -> Option<Runs> {
    let run = |config: &Config| {
        let mut run = sim::Run::new(&simulate::scenario(config));
        run.advance(work).then(|| run.finish())
    };
    let a = run(config)?;
    let b = match config.comparing() {
        true => Some(run(&config.policy_b_config())?),
        false => None,
    };
    Some(Runs::new(
        config,
        config.scenario().sanitized(),
        a,
        b,
        Vec::new(),
    ))
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

#[cfg(test)]
mod tests {
    use super::*;
    use retry_teach::presets::PRESETS;

    /// Within its work, a world's runs are those made in one go, bit for
    /// bit; a world heavier than the work has none.
    #[test]
    fn runs_within_their_work_are_the_runs() {
        let herd = PRESETS[0].config();
        let within = run_within(&herd, 400_000).expect("the herd's runs take 30 000");
        let whole = run(&herd);
        assert_eq!(within.a, whole.a);
        assert_eq!(within.b, whole.b);
        assert!(within.b.is_some(), "the herd compares A and B");
        assert!(run_within(&herd, 1_000).is_none());
    }
}
