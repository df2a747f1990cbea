//! The mapping to the simulator: the scenario a configuration describes.

use super::{BASES, Config, OUTAGES, P};
use crate::breaker::BreakerConfig;
use crate::budget::BudgetConfig;
use crate::policy::Policy;
use crate::sim::Scenario;

impl Config {
    /// The simulator's scenario. `work_limit` stays at the simulator's
    /// default; `report::run`, which the page and the command line share,
    /// lowers it to `report::WORK_LIMIT`.
    pub fn scenario(&self) -> Scenario {
        let budget = BudgetConfig {
            kind: self.budget_kind(),
            percent: self.get(P::BudgetPercent),
            min_per_second: self.get(P::BudgetFloor),
            window: self.get(P::BudgetWindow),
            basis: BASES.at(self.get(P::BudgetBasis)),
            max_tokens: self.get(P::Tokens),
            token_ratio: self.get(P::TokenRatio),
            quota: self.get(P::Quota),
            retry_cost: self.get(P::QuotaCost),
            timeout_cost: self.get(P::QuotaTimeoutCost),
            ..BudgetConfig::default()
        };
        let breaker = BreakerConfig {
            mode: self.breaker_mode(),
            failure_ratio: self.get(P::BreakerRatio),
            window: self.get(P::BreakerWindow),
            min_requests: self.count(P::BreakerMin),
            cool_down: self.get(P::BreakerCool),
            probes: self.count(P::BreakerProbes),
        };
        Scenario {
            seed: self.seed(),
            horizon: self.get(P::Horizon),
            buckets: self.count(P::Buckets),
            workload: self.workload(),
            rate: self.get(P::Rate),
            spike_rate: self.get(P::SpikeRate),
            spike_start: self.get(P::SpikeAt),
            spike_duration: self.get(P::SpikeFor),
            clients: self.count(P::Clients),
            crowd_start: self.get(P::CrowdAt),
            crowd_window: self.get(P::CrowdOver),
            hop: self.spread(P::Hop),
            hop_mean: self.get(P::HopMean),
            hop_sd: self.get(P::HopSd),
            failure: self.get(P::Failure),
            mix_transient: self.get(P::Mix503),
            mix_throttled: self.get(P::Mix429),
            mix_permanent: self.get(P::Mix400),
            mix_unknown: self.get(P::Mix500),
            retry_after: self.get(P::RetryAfter),
            outage_start: self.get(P::OutageAt),
            outage_duration: self.get(P::OutageFor),
            outage_mode: OUTAGES.at(self.get(P::OutageMode)),
            workers: self.count(P::Workers),
            queue_limit: self.count(P::Queue),
            service: self.spread(P::Service),
            service_time: self.get(P::ServiceTime),
            service_sd: self.get(P::ServiceSd),
            latency_slope: self.get(P::Slope),
            lost_responses: self.get(P::Lost),
            policy: self.policy(),
            budget,
            breaker,
            honour_retry_after: self.switch(P::HonourRetryAfter),
            idempotency_key: self.switch(P::IdempotencyKey),
            shared_seed: self.switch(P::SharedSeed),
            layers: self.count(P::Layers),
            only_top_retries: self.switch(P::TopOnly),
            ..Scenario::default()
        }
    }

    pub fn policy(&self) -> Policy {
        Policy {
            attempts: self.count(P::Attempts),
            shape: self.shape(),
            base: self.get(P::Base),
            cap: self.get(P::Cap),
            multiplier: self.get(P::Multiplier),
            jitter: self.jitter(),
            jitter_fraction: self.get(P::JitterFraction),
            attempt_timeout: self.seconds_or_none(P::Timeout),
            deadline: self.seconds_or_none(P::Deadline),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::breaker::BreakerMode;
    use crate::budget::{BudgetKind, RatioBasis};
    use crate::config::{Kind, PARAMS, SWITCH};
    use crate::policy::{Jitter, Shape};
    use crate::sim::{OutageMode, Spread, WorkloadKind};
    use crate::sweep::SweepCurves;

    /// Where a parameter's value must land.
    enum Lands {
        /// Exactly this change to the default scenario, and no other.
        Scenario(fn(&mut Scenario)),
        /// Outside the scenario, where this says the value is read; the
        /// scenario must not change.
        Elsewhere(fn(&Config) -> bool),
    }
    use Lands::{Elsewhere, Scenario as Field};

    /// Every parameter with a value in link form and where it must land.
    /// A choice parameter has a row for each of its options, which pins
    /// every link word to the value it means.
    fn wiring() -> Vec<(P, &'static str, Lands)> {
        vec![
            (P::Compare, "on", Elsewhere(|c| c.comparing())),
            (P::Compare, "off", Elsewhere(|c| !c.comparing())),
            (P::Attempts, "7", Field(|s| s.policy.attempts = 7)),
            (
                P::Shape,
                "constant",
                Field(|s| s.policy.shape = Shape::Constant),
            ),
            (
                P::Shape,
                "linear",
                Field(|s| s.policy.shape = Shape::Linear),
            ),
            (
                P::Shape,
                "exponential",
                Field(|s| s.policy.shape = Shape::Exponential),
            ),
            (P::Base, "0.37", Field(|s| s.policy.base = 0.37)),
            (P::Cap, "3.5", Field(|s| s.policy.cap = 3.5)),
            (P::Multiplier, "2.5", Field(|s| s.policy.multiplier = 2.5)),
            (P::Jitter, "none", Field(|s| s.policy.jitter = Jitter::None)),
            (P::Jitter, "full", Field(|s| s.policy.jitter = Jitter::Full)),
            (
                P::Jitter,
                "equal",
                Field(|s| s.policy.jitter = Jitter::Equal),
            ),
            (
                P::Jitter,
                "decorrelated",
                Field(|s| s.policy.jitter = Jitter::Decorrelated),
            ),
            (
                P::Jitter,
                "proportional",
                Field(|s| s.policy.jitter = Jitter::Proportional),
            ),
            (
                P::JitterFraction,
                "0.35",
                Field(|s| s.policy.jitter_fraction = 0.35),
            ),
            (
                P::Timeout,
                "2.5",
                Field(|s| s.policy.attempt_timeout = Some(2.5)),
            ),
            (P::Timeout, "0", Field(|s| s.policy.attempt_timeout = None)),
            (P::Deadline, "4.5", Field(|s| s.policy.deadline = Some(4.5))),
            (
                P::HonourRetryAfter,
                "off",
                Field(|s| s.honour_retry_after = false),
            ),
            (
                P::HonourRetryAfter,
                "on",
                Field(|s| s.honour_retry_after = true),
            ),
            (
                P::IdempotencyKey,
                "off",
                Field(|s| s.idempotency_key = false),
            ),
            (P::IdempotencyKey, "on", Field(|s| s.idempotency_key = true)),
            (
                P::Budget,
                "none",
                Field(|s| s.budget.kind = BudgetKind::None),
            ),
            (
                P::Budget,
                "ratio",
                Field(|s| s.budget.kind = BudgetKind::Ratio),
            ),
            (
                P::Budget,
                "token-bucket",
                Field(|s| s.budget.kind = BudgetKind::TokenBucket),
            ),
            (
                P::Budget,
                "aws-quota",
                Field(|s| s.budget.kind = BudgetKind::AwsQuota),
            ),
            (P::BudgetPercent, "0.15", Field(|s| s.budget.percent = 0.15)),
            (
                P::BudgetFloor,
                "3",
                Field(|s| s.budget.min_per_second = 3.0),
            ),
            (P::BudgetWindow, "12.5", Field(|s| s.budget.window = 12.5)),
            (
                P::BudgetBasis,
                "successes",
                Field(|s| s.budget.basis = RatioBasis::Successes),
            ),
            (
                P::BudgetBasis,
                "requests",
                Field(|s| s.budget.basis = RatioBasis::Requests),
            ),
            (P::Tokens, "17", Field(|s| s.budget.max_tokens = 17.0)),
            (
                P::TokenRatio,
                "0.25",
                Field(|s| s.budget.token_ratio = 0.25),
            ),
            (P::Quota, "450", Field(|s| s.budget.quota = 450.0)),
            (P::QuotaCost, "6", Field(|s| s.budget.retry_cost = 6.0)),
            (
                P::QuotaTimeoutCost,
                "11",
                Field(|s| s.budget.timeout_cost = 11.0),
            ),
            (
                P::Breaker,
                "off",
                Field(|s| s.breaker.mode = BreakerMode::Off),
            ),
            (
                P::Breaker,
                "all",
                Field(|s| s.breaker.mode = BreakerMode::All),
            ),
            (
                P::Breaker,
                "retries",
                Field(|s| s.breaker.mode = BreakerMode::RetriesOnly),
            ),
            (
                P::BreakerRatio,
                "0.45",
                Field(|s| s.breaker.failure_ratio = 0.45),
            ),
            (P::BreakerWindow, "13.5", Field(|s| s.breaker.window = 13.5)),
            (P::BreakerMin, "9", Field(|s| s.breaker.min_requests = 9)),
            (P::BreakerCool, "2.5", Field(|s| s.breaker.cool_down = 2.5)),
            (P::BreakerProbes, "4", Field(|s| s.breaker.probes = 4)),
            (
                P::Workload,
                "poisson",
                Field(|s| s.workload = WorkloadKind::Poisson),
            ),
            (
                P::Workload,
                "crowd",
                Field(|s| s.workload = WorkloadKind::Crowd),
            ),
            (
                P::Workload,
                "contention",
                Field(|s| s.workload = WorkloadKind::Contention),
            ),
            (P::Rate, "150", Field(|s| s.rate = 150.0)),
            (P::SpikeRate, "250", Field(|s| s.spike_rate = 250.0)),
            (P::SpikeAt, "15.5", Field(|s| s.spike_start = 15.5)),
            (P::SpikeFor, "7.5", Field(|s| s.spike_duration = 7.5)),
            (P::Clients, "321", Field(|s| s.clients = 321)),
            (P::CrowdAt, "2.5", Field(|s| s.crowd_start = 2.5)),
            (P::CrowdOver, "3.5", Field(|s| s.crowd_window = 3.5)),
            (P::Horizon, "45", Field(|s| s.horizon = 45.0)),
            (
                P::Sweep,
                "policies",
                Elsewhere(|c| c.sweep_curves() == SweepCurves::Policies),
            ),
            (
                P::Sweep,
                "classic",
                Elsewhere(|c| c.sweep_curves() == SweepCurves::Classic),
            ),
            (P::Buckets, "123", Field(|s| s.buckets = 123)),
            (P::Failure, "0.33", Field(|s| s.failure = 0.33)),
            (P::Mix503, "0.45", Field(|s| s.mix_transient = 0.45)),
            (P::Mix429, "0.55", Field(|s| s.mix_throttled = 0.55)),
            (P::Mix400, "0.65", Field(|s| s.mix_permanent = 0.65)),
            (P::Mix500, "0.75", Field(|s| s.mix_unknown = 0.75)),
            (P::RetryAfter, "1.5", Field(|s| s.retry_after = 1.5)),
            (P::OutageAt, "12.5", Field(|s| s.outage_start = 12.5)),
            (P::OutageFor, "6.5", Field(|s| s.outage_duration = 6.5)),
            (
                P::OutageMode,
                "fail-fast",
                Field(|s| s.outage_mode = OutageMode::FailFast),
            ),
            (
                P::OutageMode,
                "hang",
                Field(|s| s.outage_mode = OutageMode::Hang),
            ),
            (P::Workers, "17", Field(|s| s.workers = 17)),
            (P::Queue, "55", Field(|s| s.queue_limit = 55)),
            (
                P::Service,
                "constant",
                Field(|s| s.service = Spread::Constant),
            ),
            (
                P::Service,
                "exponential",
                Field(|s| s.service = Spread::Exponential),
            ),
            (P::Service, "normal", Field(|s| s.service = Spread::Normal)),
            (P::ServiceTime, "0.075", Field(|s| s.service_time = 0.075)),
            (P::ServiceSd, "0.025", Field(|s| s.service_sd = 0.025)),
            (P::Slope, "0.003", Field(|s| s.latency_slope = 0.003)),
            (P::Lost, "0.15", Field(|s| s.lost_responses = 0.15)),
            (P::Hop, "constant", Field(|s| s.hop = Spread::Constant)),
            (
                P::Hop,
                "exponential",
                Field(|s| s.hop = Spread::Exponential),
            ),
            (P::Hop, "normal", Field(|s| s.hop = Spread::Normal)),
            (P::HopMean, "0.007", Field(|s| s.hop_mean = 0.007)),
            (P::HopSd, "0.004", Field(|s| s.hop_sd = 0.004)),
            (P::Layers, "3", Field(|s| s.layers = 3)),
            (P::TopOnly, "off", Field(|s| s.only_top_retries = false)),
            (P::TopOnly, "on", Field(|s| s.only_top_retries = true)),
            (P::Seed, "42", Field(|s| s.seed = 42)),
            (P::SharedSeed, "off", Field(|s| s.shared_seed = false)),
            (P::SharedSeed, "on", Field(|s| s.shared_seed = true)),
        ]
    }

    #[test]
    fn every_parameter_lands_in_its_own_field() {
        let base = Config::default().scenario();
        for (p, text, lands) in wiring() {
            let param = p.param();
            let value = param
                .parse(text)
                .unwrap_or_else(|why| panic!("{}={text}: {why}", param.key));
            let mut config = Config::default();
            assert_eq!(
                config.set(p, value),
                None,
                "{}={text} is out of range",
                param.key
            );
            let mut expected = base.clone();
            match lands {
                Field(change) => change(&mut expected),
                Elsewhere(read) => assert!(read(&config), "{}={text} is not read back", param.key),
            }
            assert_eq!(config.scenario(), expected, "{}={text}", param.key);
            // Policy B's value lands in the same field of B's scenario and
            // leaves A's alone.
            if param.per_policy() {
                let mut config = Config::default();
                config.set(P::Compare, SWITCH.position(true));
                assert_eq!(config.set_b_at(p as usize, value), None);
                assert_eq!(config.scenario(), base, "B.{}={text} moved A", param.key);
                assert_eq!(
                    config.policy_b_config().scenario(),
                    expected,
                    "B.{}={text}",
                    param.key
                );
            }
        }
    }

    #[test]
    fn the_wiring_table_covers_every_parameter_and_option() {
        let rows = wiring();
        for (index, param) in PARAMS.iter().enumerate() {
            let values: Vec<f64> = rows
                .iter()
                .filter(|(p, _, _)| *p as usize == index)
                .map(|(_, text, _)| param.parse(text).expect("checked by the wiring test"))
                .collect();
            assert!(
                values.iter().any(|v| *v != param.default),
                "{} has no wiring row away from its default",
                param.key
            );
            if let Kind::Choice(options) = param.kind {
                for (position, option) in options.iter().enumerate() {
                    assert!(
                        values.contains(&(position as f64)),
                        "{}={option} has no wiring row",
                        param.key
                    );
                }
            }
        }
    }

    #[test]
    fn the_default_impls_agree_with_the_table() {
        let config = Config::default();
        let scenario = config.scenario();
        // The table covers every field but `work_limit`, which
        // `report::run` lowers for the page and the command line alike.
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
            "v=1&breaker=retries&cb_ratio=0.3&cb_window=20&cb_min=7&cb_cool=2.5&cb_probes=1",
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
