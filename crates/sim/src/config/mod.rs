//! The one parameter table and the configurations it describes.
//!
//! Every knob of the playground is declared once, in [`PARAMS`]: its key in a
//! share link, label, unit, range (from [`retry_core::range`], which the
//! simulator clamps to as well), step, default, help, and the field of the
//! simulator's scenario it sets. The link codec, validation and clamping,
//! the controls on the page, the command line and the mapping to the
//! simulator are all generated from it, so a link can never hold a value
//! the page cannot show, and a new parameter is its row and its field.
//!
//! A [`Config`] is one value per parameter. A link is its query string,
//! `v=1&attempts=4&base=0.1&...`: the version `v` pins the defaults, and
//! only values that differ from them are written out. Reading a link never fails:
//! missing keys take their defaults, bad values are clamped or replaced and
//! reported as [`Notice`]s, unknown keys are reported and ignored.
//!
//! By concern: `table` declares the parameters and when each applies,
//! `choices` the options of those that are choices, and `scenario` turns a
//! configuration into the simulator's scenario. Links are read and written
//! by [`crate::link`], which the simulator never imports.

mod choices;
mod scenario;
mod table;

pub use choices::{
    BALANCES, BASES, BREAKERS, BUDGETS, Choices, FAN_WAITS, FAULTS_ON, FIND_WORLDS, FindWorlds,
    HOP_BUDGETS, HOP_JITTERS, HOP_SHAPES, JITTERS, MAP_ROWS, MapRows, OUTAGES, QUEUE_ORDERS,
    RETRY_ONS, SERVICE_SHAPES, SHAPES, SPREADS, SWEEPS, SWITCH, SweepCurves, WORKLOADS,
};
pub use table::{Group, Kind, P, PARAMS, Param};

use crate::sim::{ServiceShape, Spread, WorkloadKind};
use retry_core::breaker::BreakerMode;
use retry_core::budget::BudgetKind;
use retry_core::policy::{Jitter, Shape};

/// A configuration as an identity: what the page keeps a drawing, a
/// replay or a run by. Two are one state when they are
/// [`Config::same_state`] (a B kept while compare mode is off is no part
/// of it), compared as values, never as link text.
#[derive(Debug, Clone)]
pub struct State(Config);

impl State {
    pub fn of(config: &Config) -> State {
        State(config.clone())
    }

    /// Whether `config` is this state.
    pub fn is(&self, config: &Config) -> bool {
        self.0.same_state(config)
    }

    pub fn config(&self) -> &Config {
        &self.0
    }
}

impl PartialEq for State {
    fn eq(&self, other: &State) -> bool {
        self.0.same_state(&other.0)
    }
}

/// One value per parameter, always valid.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    pub(crate) values: Vec<f64>,
    /// Compare mode's policy B: where it differs from A, per parameter.
    /// Only parameters of one client's policy ([`Param::per_policy`]) have
    /// overrides; everything else, the world, is shared.
    pub(crate) overrides: Vec<Option<f64>>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            values: PARAMS.iter().map(|p| p.default).collect(),
            overrides: vec![None; PARAMS.len()],
        }
    }
}

impl Config {
    pub fn get(&self, p: P) -> f64 {
        self.values[p as usize]
    }

    /// Sets a value, sanitized; returns why it changed, if it did.
    pub fn set(&mut self, p: P, value: f64) -> Option<String> {
        self.set_at(p as usize, value)
    }

    pub fn value_at(&self, index: usize) -> f64 {
        self.values[index]
    }

    pub fn set_at(&mut self, index: usize, value: f64) -> Option<String> {
        let (value, why) = PARAMS[index].sanitize(value);
        self.values[index] = value;
        // B keeps only real differences from A.
        if self.overrides[index] == Some(value) {
            self.overrides[index] = None;
        }
        why
    }

    pub fn comparing(&self) -> bool {
        self.switch(P::Compare)
    }

    /// Whether two configurations are one state: the same values, and the
    /// same policy B where they compare. A B kept while compare mode is
    /// off is no part of the state, as its link says; unlike links, two
    /// values a link would write alike are two states.
    pub fn same_state(&self, other: &Config) -> bool {
        self.values == other.values && (!self.comparing() || self.overrides == other.overrides)
    }

    /// Whether the sweep draws the four classic strategies.
    pub fn classic_sweep(&self) -> bool {
        self.sweep_curves() == SweepCurves::Classic
    }

    /// Policy B's value of parameter `index` (A's where B does not differ).
    pub fn value_b_at(&self, index: usize) -> f64 {
        self.overrides[index].unwrap_or(self.values[index])
    }

    /// Sets policy B's value; a value equal to A's removes the difference.
    /// Parameters that are not per policy are left alone.
    pub fn set_b_at(&mut self, index: usize, value: f64) -> Option<String> {
        if !PARAMS[index].per_policy() {
            return Some(
                retry_core::words::tr("is shared by both policies; set it without B.").to_string(),
            );
        }
        let (value, why) = PARAMS[index].sanitize(value);
        self.overrides[index] = Some(value).filter(|v| *v != self.values[index]);
        why
    }
    /// Each policy's configuration alone, compare mode off: A's, then
    /// B's when comparing. What a chart that reruns the world once per
    /// policy runs (the instances sweep, the map).
    pub fn policies_alone(&self) -> Vec<Config> {
        let mut policies = vec![self.clone()];
        if self.comparing() {
            policies.push(self.policy_b_config());
        }
        for policy in &mut policies {
            policy.set(P::Compare, SWITCH.position(false));
        }
        policies
    }

    /// The configuration as policy B sees it: A's world with B's policy,
    /// compare mode off.
    pub fn policy_b_config(&self) -> Config {
        let mut b = Config::default();
        for index in 0..PARAMS.len() {
            b.values[index] = self.value_b_at(index);
        }
        b.values[P::Compare as usize] = SWITCH.position(false);
        b
    }

    pub fn shape(&self) -> Shape {
        SHAPES.at(self.get(P::Shape))
    }

    pub fn jitter(&self) -> Jitter {
        JITTERS.at(self.get(P::Jitter))
    }

    pub fn seed(&self) -> u64 {
        self.get(P::Seed) as u64
    }

    fn switch(&self, p: P) -> bool {
        SWITCH.at(self.get(p))
    }

    pub fn spread(&self, p: P) -> Spread {
        SPREADS.at(self.get(p))
    }

    pub fn service_shape(&self) -> ServiceShape {
        SERVICE_SHAPES.at(self.get(P::Service))
    }

    /// Why a log-normal service cannot be served with the p99 it is given:
    /// below its p50, or more than [`retry_core::range::SERVICE_SPAN`] times it
    /// (what it is served with instead, see [`crate::sim::Law::service`]).
    pub fn service_tail_fault(&self) -> Option<String> {
        let (p50, p99) = (self.get(P::ServiceP50), self.get(P::ServiceP99));
        if self.service_shape() != ServiceShape::LogNormal {
            None
        } else if p99 < p50 {
            Some(
                retry_core::words::tr("is below the p50, as no p99 can be; served as the p50")
                    .to_string(),
            )
        } else if p99 > retry_core::range::SERVICE_SPAN * p50 {
            Some(retry_core::tf!(
                "is over {span} times the p50; served as {span} times it",
                span = retry_core::range::SERVICE_SPAN
            ))
        } else {
            None
        }
    }

    pub fn budget_kind(&self) -> BudgetKind {
        BUDGETS.at(self.get(P::Budget))
    }

    /// Whether a budget of `kind` is kept anywhere: the policy's, or one a
    /// service below the top keeps of its own.
    pub fn uses_budget(&self, kind: BudgetKind) -> bool {
        let services = if self.workload() == WorkloadKind::Contention {
            0
        } else {
            (self.get(P::Layers) as usize).saturating_sub(1)
        };
        self.budget_kind() == kind
            || P::LAYER_BUDGETS
                .into_iter()
                .take(services)
                .any(|p| choices::hop_budget(self.get(p)) == Some(kind))
    }

    pub fn breaker_mode(&self) -> BreakerMode {
        BREAKERS.at(self.get(P::Breaker))
    }

    pub fn workload(&self) -> WorkloadKind {
        WORKLOADS.at(self.get(P::Workload))
    }

    /// What the sweep chart compares.
    pub fn sweep_curves(&self) -> SweepCurves {
        SWEEPS.at(self.get(P::Sweep))
    }

    /// What the search for a better policy judges a policy over.
    pub fn find_worlds(&self) -> FindWorlds {
        FIND_WORLDS.at(self.get(P::FindWorlds))
    }

    /// What the rows of the map of metastability vary.
    pub fn map_rows(&self) -> MapRows {
        MAP_ROWS.at(self.get(P::MapBy))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kind's settings show where a service of the chain keeps a budget
    /// of that kind, the policy having none or another; a link that says
    /// `l2_budget=on` reads as before, the policy's kind.
    #[test]
    fn a_services_own_budget_shows_its_kinds_settings() {
        let (hop, notices) = Config::from_link("v=1&layers=3&l3_budget=token-bucket");
        assert_eq!(notices, []);
        assert!(hop.uses_budget(BudgetKind::TokenBucket));
        assert!(!hop.uses_budget(BudgetKind::Ratio));
        assert!((P::Tokens.param().applies)(&hop));
        assert_eq!(
            hop.scenario().budget_of_layer(2).kind(),
            BudgetKind::TokenBucket
        );
        assert_eq!(hop.scenario().budget_of_layer(0).kind(), BudgetKind::None);
        let (shorter, _) = Config::from_link("v=1&layers=2&l3_budget=token-bucket");
        assert!(
            !shorter.uses_budget(BudgetKind::TokenBucket),
            "no third service"
        );
        let (on, _) = Config::from_link("v=1&layers=2&budget=sre&l2_budget=on");
        assert_eq!(on.scenario().budget_of_layer(1).kind(), BudgetKind::Sre);
        let (off, _) = Config::from_link("v=1&layers=2&budget=sre&l2_budget=off");
        assert_eq!(off.scenario().budget_of_layer(1).kind(), BudgetKind::None);
    }

    #[test]
    fn b_follows_a_where_it_does_not_differ() {
        let (mut config, _) = Config::from_link("v=1&compare=on&B.jitter=none");
        config.set(P::Attempts, 7.0);
        let b = config.policy_b_config();
        assert_eq!(b.get(P::Attempts), 7.0);
        assert_eq!(b.jitter(), Jitter::None);
        assert!(!b.comparing());
    }

    #[test]
    fn a_state_is_its_values_and_b_only_while_comparing() {
        let (mut shown, _) = Config::from_link("v=1&compare=on&B.jitter=none");
        let (same, _) = Config::from_link(&shown.to_link());
        assert!(shown.same_state(&same));
        shown.set(P::Compare, 0.0);
        let (read, _) = Config::from_link(&shown.to_link());
        assert_ne!(
            shown, read,
            "B's difference is kept for compare mode's return"
        );
        assert!(shown.same_state(&read), "but is no part of the state");
        shown.set(P::Compare, 1.0);
        assert!(!shown.same_state(&Config::from_link(&format!("{}&compare=on", read.to_link())).0));
        shown.set(P::Attempts, 5.0);
        assert!(!shown.same_state(&same));
    }

    #[test]
    fn a_difference_ends_when_a_catches_up_with_b() {
        let (mut config, _) = Config::from_link("v=1&compare=on&jitter=none&B.jitter=full");
        config.set(P::Jitter, 1.0);
        assert_eq!(config.to_link(), "v=1&compare=on");
        config.set(P::Jitter, 0.0);
        assert_eq!(
            config.policy_b_config().jitter(),
            Jitter::None,
            "B follows A again"
        );
    }
}
