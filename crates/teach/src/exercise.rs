//! The workshop's group exercise (`present=exercise`): a team's world with
//! two requirements, graded on the runs. Groups of about five design
//! policy A on their phones; the page grades every design on the seeds the
//! headlines are measured on, each requirement on every seed, and offers a
//! reference answer that meets both.

use crate::lesson;
use retry_analyses::seeds::Seeds;
use retry_core::words::Text;
use retry_sim::config::{Config, P, PARAMS};
use retry_sim::metrics::{Metric, Side};

/// The world: 50 operations a second for two minutes, 2 % of calls failing
/// on their own, and from 30 s an outage of 30 s in which every call
/// fails at once. No attempt timeout: a failure answers at once.
pub const WORLD: &str = "v=1&rate=50&horizon=120&buckets=120&failure=0.02&outage_at=30&outage_for=30&workers=0&timeout=0";

/// A policy that meets both requirements (a test holds it to them):
/// three attempts, backing off from 20 s with equal jitter, so that
/// an operation caught by the outage retries after it.
pub const REFERENCE: &str = "attempts=3&base=20&cap=60&jitter=equal";

/// The brief, as the groups read it.
pub const BRIEF: Text = Text(
    "Your service takes 50 operations a second, and 2 % of calls to its dependency fail on their own. At 30 s the dependency goes down for 30 s, every call failing at once. Design policy A so that the service rides it out: move its settings, and the page grades the design on ten seeds.",
);

/// One requirement: a headline number held on every seed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Requirement {
    pub text: Text,
    pub metric: Metric,
    /// At least `bound` (else at most).
    pub at_least: bool,
    pub bound: f64,
}

pub const REQUIREMENTS: [Requirement; 2] = [
    Requirement {
        text: Text("At least 99 % of operations succeed"),
        metric: Metric::Success,
        at_least: true,
        bound: 0.99,
    },
    Requirement {
        text: Text("At most 1.5 calls per operation"),
        metric: Metric::LoadAmplification,
        at_least: false,
        bound: 1.5,
    },
];

/// A requirement measured: its worst seed and whether every seed meets it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Graded {
    pub requirement: Requirement,
    /// The worst value over the seeds.
    pub worst: f64,
    pub met: bool,
}

/// The exercise's world with the default policy, as the groups start.
pub fn world() -> Config {
    Config::from_link(WORLD).0
}

/// The reference answer: the world with [`REFERENCE`]'s policy.
pub fn reference() -> Config {
    lesson::apply(&world(), REFERENCE)
}

/// Whether `config` is the exercise's world, whatever its policies: every
/// setting that is no policy's as the world has it.
pub fn applies(config: &Config) -> bool {
    let world = world();
    PARAMS
        .iter()
        .enumerate()
        .filter(|(i, param)| !param.per_policy() && P::ALL[*i] != P::Compare)
        .all(|(i, _)| config.value_at(i) == world.value_at(i))
}

/// Policy A's design graded on `seeds`: each requirement on every seed.
pub fn grade(seeds: &Seeds) -> Vec<Graded> {
    REQUIREMENTS
        .iter()
        .map(|&requirement| {
            let values = seeds.values(requirement.metric, Side::A);
            let worst = match requirement.at_least {
                true => values.fold(f64::INFINITY, f64::min),
                false => values.fold(f64::NEG_INFINITY, f64::max),
            };
            let met = match requirement.at_least {
                true => worst >= requirement.bound,
                false => worst <= requirement.bound,
            };
            Graded {
                requirement,
                worst,
                met,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use retry_analyses::seeds::over_seeds;

    /// Two designs graded on the runs: the default policy (three quick
    /// attempts, all spent inside the outage) misses the success it asks
    /// for; the reference answer meets both requirements on every seed.
    #[test]
    fn the_exercise_grades_two_designs() {
        let start = grade(&over_seeds(&world()));
        assert!(!start[0].met, "{start:?}");
        let reference = grade(&over_seeds(&reference()));
        assert!(reference.iter().all(|g| g.met), "{reference:?}");
        // Plain retries that outlast the outage get through, at a cost the
        // second requirement refuses.
        let eager = grade(&over_seeds(&lesson::apply(
            &world(),
            "attempts=8&base=1&cap=30&jitter=full",
        )));
        assert!(eager[0].met && !eager[1].met, "{eager:?}");
        println!("start {start:?}\nreference {reference:?}\neager {eager:?}");
    }

    /// The exercise is its world whatever policy A becomes, and no longer
    /// once the world moves.
    #[test]
    fn the_exercise_follows_its_world_not_its_policy() {
        assert!(applies(&world()) && applies(&reference()));
        assert!(!applies(&lesson::apply(&world(), "failure=0.1")));
        assert!(!applies(&crate::presets::PRESETS[0].config()));
    }
}
