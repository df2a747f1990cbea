//! The mapping to the simulator: the scenario a configuration describes.
//!
//! Each row of the table says how its value is written into a
//! [`Scenario`] ([`Param::scenario`](super::Param::scenario)), so the
//! mapping is the table read row after row: a new parameter is its row and
//! its field of the scenario, and the tests below hold every row to a field
//! of its own.

use super::{Config, PARAMS};
use crate::sim::Scenario;
use retry_core::policy::Policy;

impl Config {
    /// The simulator's scenario: the default one, with every row's value
    /// written in. `work_limit` stays at the simulator's default;
    /// `simulate::run`, which the page and the command line share, lowers it
    /// to `simulate::WORK_LIMIT`.
    pub fn scenario(&self) -> Scenario {
        let mut scenario = Scenario::DEFAULT;
        for (param, value) in PARAMS.iter().zip(&self.values) {
            if let Some(write) = param.scenario {
                write(&mut scenario, *value);
            }
        }
        scenario
    }

    pub fn policy(&self) -> Policy {
        self.scenario().policy
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Kind, P, Param, SWITCH};
    use retry_core::breaker::{BreakerAt, BreakerConfig, BreakerMode};
    use retry_core::budget::BudgetConfig;
    use std::collections::BTreeMap;

    /// Every field of a scenario by its path, `policy.attempts`, with its
    /// value as `Debug` writes it: the fields a row changed are those whose
    /// text changed. An array's items are fields of their own,
    /// `layer_attempts.0`, an item `Some(…)` on its lines one field,
    /// however deep its value.
    fn fields(scenario: &Scenario) -> BTreeMap<String, String> {
        let mut fields: BTreeMap<String, String> = BTreeMap::new();
        let mut path: Vec<&str> = Vec::new();
        let mut last = String::new();
        // The next item's index inside an array.
        let mut item: Option<usize> = None;
        // Inside an item `Some(`, how deep, until its `)`.
        let mut inside = 0usize;
        let text = format!("{scenario:#?}");
        for line in text.lines().map(|l| l.trim().trim_end_matches(',')) {
            if let Some(name) = line.strip_suffix(": [") {
                path.push(name);
                item = Some(0);
            } else if line == "]" {
                path.pop();
                item = None;
            } else if inside > 0 {
                fields.entry(last.clone()).or_default().push_str(line);
                if line.ends_with(['(', '{', '[']) {
                    inside += 1;
                } else if line.starts_with([')', '}', ']']) {
                    inside -= 1;
                }
            } else if let Some(index) = item.as_mut() {
                last = [path.as_slice(), &[&index.to_string()]].concat().join(".");
                inside = usize::from(line == "Some(");
                fields.insert(last.clone(), line.to_string());
                *index += 1;
            } else if line.ends_with('{') {
                // The first line, `Scenario {`, names no field.
                if let Some((name, _)) = line.split_once(": ") {
                    path.push(name);
                }
            } else if line == "}" {
                path.pop();
            } else if let Some((name, value)) = line.split_once(": ") {
                last = [path.as_slice(), &[name]].concat().join(".");
                fields.insert(last.clone(), value.to_string());
            } else {
                // The inside of `Some(` and its `)`, each on a line.
                fields.entry(last.clone()).or_default().push_str(line);
            }
        }
        fields
    }

    /// The fields of `scenario` that differ from the default scenario's.
    fn changed(scenario: &Scenario) -> Vec<(String, String)> {
        let base = fields(&Scenario::DEFAULT);
        fields(scenario)
            .into_iter()
            .filter(|(path, value)| base.get(path) != Some(value))
            .collect()
    }

    /// Values to try a row at: each option of a choice, else both ends of
    /// the range and a step above the lower.
    fn samples(param: &Param) -> Vec<f64> {
        match param.kind {
            Kind::Number { min, max, step } => vec![min, min + step, max],
            Kind::Integer { min, max } => vec![min, min + 1.0, max],
            Kind::Choice(options, _) => (0..options.len()).map(|i| i as f64).collect(),
        }
    }

    /// Every row writes every value of its range, or every option, into
    /// one field of the scenario of its own and nothing else, and the
    /// simulator takes the value as it is: a link means what the page
    /// shows. Policy B's values land in the same field of B's scenario.
    #[test]
    fn every_parameter_lands_in_its_own_field() {
        let base = Config::default().scenario();
        let mut owners: BTreeMap<String, &str> = BTreeMap::new();
        for (index, param) in PARAMS.iter().enumerate() {
            let mut texts = Vec::new();
            for value in samples(param) {
                let mut config = Config::default();
                assert_eq!(config.set_at(index, value), None, "{}={value}", param.key);
                let scenario = config.scenario();
                assert_eq!(scenario.sanitized(), scenario, "{}={value}", param.key);
                let changed = changed(&scenario);
                if param.scenario.is_none() || value == param.default {
                    assert_eq!(changed, [], "{}={value}", param.key);
                    continue;
                }
                let [(path, text)] = changed.as_slice() else {
                    panic!("{}={value} changed {changed:?}", param.key);
                };
                if let Some(owner) = owners.insert(path.clone(), param.key) {
                    assert_eq!(owner, param.key, "{path} is written by two rows");
                }
                if !matches!(param.kind, Kind::Choice(..)) {
                    // An optional time stores none as 0.
                    let number = text.trim_start_matches("Some(").trim_end_matches(')');
                    let read = if number == "None" {
                        0.0
                    } else {
                        number.parse().unwrap_or(f64::NAN)
                    };
                    assert_eq!(read, value, "{}={value} wrote {path}: {text}", param.key);
                }
                texts.push(text.clone());
                if param.per_policy() {
                    let mut config = Config::default();
                    config.set(P::Compare, SWITCH.position(true));
                    assert_eq!(config.set_b_at(index, value), None);
                    assert_eq!(config.scenario(), base, "B.{}={value} moved A", param.key);
                    assert_eq!(
                        config.policy_b_config().scenario(),
                        scenario,
                        "B.{}={value}",
                        param.key
                    );
                }
            }
            // Each option means something else.
            let count = texts.len();
            texts.sort();
            texts.dedup();
            assert_eq!(texts.len(), count, "{} writes two values alike", param.key);
        }
        // Every field but two is some row's: a new field of the scenario
        // gets a row, or is added here with the reason it has none.
        let unwritten: Vec<String> = fields(&base)
            .into_keys()
            .filter(|path| !owners.contains_key(path))
            .collect();
        assert_eq!(
            unwritten,
            [
                // The AWS SDK's constant.
                "budget.quota.no_retry_increment",
                // `simulate::run` sets it, for the page and the command line alike.
                "work_limit",
            ]
        );
    }

    #[test]
    fn the_default_impls_agree_with_the_table() {
        let config = Config::default();
        let scenario = config.scenario();
        // The table covers every field but `work_limit`, which
        // `simulate::run` lowers for the page and the command line alike.
        assert_eq!(scenario, Scenario::default());
        assert_eq!(scenario.budget, BudgetConfig::default());
        assert_eq!(scenario.breaker, BreakerConfig::default());
        // The one planned difference: a bare policy waits for every answer,
        // while the playground's attempts time out after 1 s, so a server
        // that hangs does not hang the run.
        assert_eq!(
            config.policy(),
            Policy {
                attempt_timeout: Some(1.0),
                ..Policy::default()
            }
        );
        assert_eq!(Policy::default().attempt_timeout, None);
        assert!(!config.comparing());
        assert!(!config.classic_sweep());
    }

    #[test]
    fn breaker_knobs_map_to_the_scenario_and_apply_only_when_on() {
        let (config, notices) = Config::from_link(
            "v=1&breaker=retries&cb_ratio=0.3&cb_window=20&cb_min=7&cb_cool=2.5&cb_probes=1&cb_at=operation",
        );
        assert_eq!(notices, []);
        let breaker = config.scenario().breaker;
        assert_eq!(
            breaker,
            BreakerConfig {
                mode: BreakerMode::RetriesOnly,
                failure_ratio: 0.3,
                window: 20.0,
                min_requests: 7,
                cool_down: 2.5,
                probes: 1,
                at: BreakerAt::Operation,
            }
        );
        let applies = |config: &Config, p: P| (p.param().applies)(config);
        assert!(applies(&config, P::BreakerCool));
        let off = Config::default();
        assert_eq!(off.scenario().breaker, BreakerConfig::default());
        for p in [
            P::BreakerRatio,
            P::BreakerWindow,
            P::BreakerMin,
            P::BreakerCool,
            P::BreakerProbes,
            P::BreakerAt,
        ] {
            assert!(
                !applies(&off, p),
                "{} applies with the breaker off",
                p.param().key
            );
        }
    }

    #[test]
    fn zero_timeout_and_deadline_mean_none() {
        let mut config = Config::default();
        config.set(P::Timeout, 0.0);
        config.set(P::Deadline, 0.0);
        let policy = config.policy();
        assert_eq!((policy.attempt_timeout, policy.deadline), (None, None));
    }
}
