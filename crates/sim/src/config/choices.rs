//! The options of the parameters that are choices: the word a link
//! writes for each option, bound to the value it means.

use crate::sim::{
    Balance, FanWait, FaultOn, OutageMode, QueueOrder, ServiceShape, Spread, WorkloadKind,
};
use retry_core::breaker::{BreakerAt, BreakerMode};
use retry_core::budget::{BudgetKind, ChargeAt, RatioBasis};
use retry_core::classify::RetryOn;
use retry_core::hint::{HintForm, JitterAt};
use retry_core::policy::{Jitter, Shape};
use retry_core::words::Text;

use super::table::Kind;

/// What the sweep chart compares: the choice of the `sweep` parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SweepCurves {
    /// The page's policy A, and B when comparing.
    Policies,
    /// Four classic strategies in A's world (see `sweep::curves`).
    Classic,
    /// A (and B) over 10, 100 and 1 000 client instances.
    Instances,
}

/// What the map of metastability's rows vary: the choice of `map_by`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MapRows {
    /// The share of the workers lost.
    Size,
    /// The arrival rate, as a share of what the workers serve; the size is
    /// the world's own loss or [`crate::map::LOAD_SIZE`].
    Load,
}
/// What the search for a better policy judges a policy over: the choice
/// of `find_worlds`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FindWorlds {
    /// This world, on several seeds.
    This,
    /// This world at failure rates from 10 % to 90 %, one a seed.
    Failures,
}

/// The options of a choice parameter in link order: the word a link writes
/// for each, the words the page's list shows for it, and the value it
/// means. A [`Config`](super::Config) stores the position in this list,
/// and links store the word, so reordering the list changes no link, and
/// rewording a label changes no link either.
#[derive(Debug)]
pub struct Choices<T: 'static> {
    /// The words links, the command line and scripts use: `aws-quota`.
    pub names: &'static [&'static str],
    /// What a newcomer reads in the page's list: `AWS retry quota`.
    pub labels: &'static [Text],
    values: &'static [T],
}

impl<T: Copy> Choices<T> {
    /// The value at a stored position. A stored position is sanitized
    /// against `names`, which is as long as `values`.
    pub(super) fn at(&self, position: f64) -> T {
        self.values[position as usize]
    }

    /// The parameter kind of this list.
    pub(super) const fn kind(&self) -> Kind {
        Kind::Choice(self.names, self.labels)
    }
}

/// A service's own backoff shape: the policy's, or one of [`SHAPES`] in
/// its order, one place on (`hop_shape`). Written out, not declared by
/// `choices!`: its values are only positions.
pub const HOP_SHAPES: Choices<u8> = Choices {
    names: &["policy", "constant", "linear", "exponential"],
    labels: &[
        Text("As the policy"),
        Text("Constant"),
        Text("Linear"),
        Text("Exponential"),
    ],
    values: &[0, 1, 2, 3],
};

/// A service's own jitter: the policy's, or one of [`JITTERS`] in its
/// order, one place on (`hop_jitter`).
pub const HOP_JITTERS: Choices<u8> = Choices {
    names: &[
        "policy",
        "none",
        "full",
        "equal",
        "decorrelated",
        "proportional",
        "polly",
    ],
    labels: &[
        Text("As the policy"),
        Text("None"),
        Text("Full"),
        Text("Equal"),
        Text("Decorrelated"),
        Text("Proportional"),
        Text("Polly's (UseJitter)"),
    ],
    values: &[0, 1, 2, 3, 4, 5, 6],
};

/// A service's own retry budget: none, the policy's kind (`on`, as
/// every service kept before a service could choose), or a kind of
/// [`BUDGETS`] in its order from the second, two places on, with the
/// policy's settings of that kind (`hop_budget`). `off` and `on` keep the
/// positions a switch gave them, so a link's `l2_budget=on` reads as
/// before.
pub const HOP_BUDGETS: Choices<u8> = Choices {
    names: &[
        "off",
        "on",
        "ratio",
        "token-bucket",
        "aws-quota",
        "bucket",
        "sre",
        "aws-adaptive",
        "envoy",
    ],
    labels: &[
        Text("None"),
        Text("As the policy"),
        Text("Ratio of recent traffic"),
        Text("Token bucket (gRPC)"),
        Text("AWS retry quota"),
        Text("Token bucket per first try (Brooker)"),
        Text("Adaptive throttling (SRE book)"),
        Text("AWS SDK adaptive mode"),
        Text("Retries in flight (Envoy)"),
    ],
    values: &[0, 1, 2, 3, 4, 5, 6, 7, 8],
};

/// The budget a position of [`HOP_BUDGETS`] sets: none for the policy's,
/// `BudgetKind::None` for no budget.
pub(super) fn hop_budget(position: f64) -> Option<BudgetKind> {
    match position {
        p if p < 1.0 => Some(BudgetKind::None),
        p if p < 2.0 => None,
        p => Some(BUDGETS.at(p - 1.0)),
    }
}

/// The position of [`HOP_BUDGETS`] that sets `budget` (see [`hop_budget`]).
pub(super) const fn hop_budget_position(budget: Option<BudgetKind>) -> f64 {
    match budget {
        None => 1.0,
        Some(BudgetKind::None) => 0.0,
        Some(kind) => BUDGETS.position(kind) + 1.0,
    }
}

/// The shape a position of [`HOP_SHAPES`] sets: none for the policy's.
pub(super) fn hop_shape(position: f64) -> Option<Shape> {
    (position >= 1.0).then(|| SHAPES.at(position - 1.0))
}

/// The jitter a position of [`HOP_JITTERS`] sets: none for the policy's.
pub(super) fn hop_jitter(position: f64) -> Option<Jitter> {
    (position >= 1.0).then(|| JITTERS.at(position - 1.0))
}

/// Declares choice lists, one `word (label) => value` triple per option,
/// and for each the inverse map from a value to its stored position.
macro_rules! choices {
    ($($(#[$doc:meta])* $list:ident: $ty:ty {
        $($word:literal ($label:expr) => $value:expr),+ $(,)?
    })*) => {$(
        $(#[$doc])*
        pub const $list: Choices<$ty> = Choices {
            names: &[$($word),+],
            labels: &[$($label),+],
            values: &[$($value),+],
        };

        impl Choices<$ty> {
            /// Where `value` sits in the list: the number a [`Config`](super::Config)
            /// stores for it. Used in a constant, a value missing from the
            /// list stops the build.
            pub const fn position(&self, value: $ty) -> f64 {
                let mut index = 0;
                while index < self.values.len() {
                    // Comparing discriminants: `==` is not available in a const fn.
                    if self.values[index] as u32 == value as u32 {
                        return index as f64;
                    }
                    index += 1;
                }
                panic!("a value is missing from its choice list")
            }
        }
    )*};
}

choices! {
    SHAPES: Shape {
        "constant" (Text("Constant")) => Shape::Constant,
        "linear" (Text("Linear")) => Shape::Linear,
        "exponential" (Text("Exponential")) => Shape::Exponential,
    }
    JITTERS: Jitter {
        "none" (Text("None")) => Jitter::None,
        "full" (Text("Full")) => Jitter::Full,
        "equal" (Text("Equal")) => Jitter::Equal,
        "decorrelated" (Text("Decorrelated")) => Jitter::Decorrelated,
        "proportional" (Text("Proportional")) => Jitter::Proportional,
        "polly" (Text("Polly's (UseJitter)")) => Jitter::Polly,
    }
    RETRY_ONS: RetryOn {
        "transient" (Text("Transient failures (a 500 once)")) => RetryOn::Transient,
        "5xx" (Text("Every 5xx and timeouts")) => RetryOn::ServerErrors,
        "gateway-error" (Text("Gateway errors (502, 503, 504) and timeouts")) => RetryOn::GatewayErrors,
        "connection" (Text("Lost connections only")) => RetryOn::Connection,
        "everything" (Text("Every error, 4xx included")) => RetryOn::Everything,
    }
    SWITCH: bool {
        "off" (Text("Off")) => false,
        "on" (Text("On")) => true,
    }
    HINT_JITTER_AT: JitterAt {
        "after" (Text("After the cap")) => JitterAt::AfterCap,
        "before" (Text("Before the cap")) => JitterAt::BeforeCap,
    }
    HINT_FORMS: HintForm {
        "seconds" (Text("A delay in whole seconds")) => HintForm::Seconds,
        "date" (Text("A date, to the second")) => HintForm::Date,
        "exact" (Text("The exact time to the reset")) => HintForm::Exact,
    }
    FIND_WORLDS: FindWorlds {
        "this" (Text("This world, on several seeds")) => FindWorlds::This,
        "failures" (Text("Failure rates from 10 % to 90 %")) => FindWorlds::Failures,
    }
    SWEEPS: SweepCurves {
        "policies" (Text("The policies A and B")) => SweepCurves::Policies,
        "classic" (Text("Four classic strategies")) => SweepCurves::Classic,
        "instances" (Text("The policies over 10, 100, 1 000 instances")) => SweepCurves::Instances,
    }
    MAP_ROWS: MapRows {
        "size" (Text("The share of the workers lost")) => MapRows::Size,
        "load" (Text("The load")) => MapRows::Load,
    }
    BUDGETS: BudgetKind {
        "none" (Text("None")) => BudgetKind::None,
        "ratio" (Text("Ratio of recent traffic")) => BudgetKind::Ratio,
        "token-bucket" (Text("Token bucket (gRPC)")) => BudgetKind::TokenBucket,
        "aws-quota" (Text("AWS retry quota")) => BudgetKind::AwsQuota,
        "bucket" (Text("Token bucket per first try (Brooker)")) => BudgetKind::Bucket,
        "sre" (Text("Adaptive throttling (SRE book)")) => BudgetKind::Sre,
        "aws-adaptive" (Text("AWS SDK adaptive mode")) => BudgetKind::AwsAdaptive,
        "envoy" (Text("Retries in flight (Envoy)")) => BudgetKind::Envoy,
    }
    BASES: RatioBasis {
        "successes" (Text("Successes")) => RatioBasis::Successes,
        "requests" (Text("Requests")) => RatioBasis::Requests,
    }
    BREAKERS: BreakerMode {
        "off" (Text("Off")) => BreakerMode::Off,
        "all" (Text("On every attempt")) => BreakerMode::All,
        "retries" (Text("On retries only")) => BreakerMode::RetriesOnly,
    }
    CHARGES_AT: ChargeAt {
        "scheduled" (Text("When it is scheduled")) => ChargeAt::Schedule,
        "sent" (Text("When it is sent")) => ChargeAt::Send,
    }
    BREAKER_AT: BreakerAt {
        "attempt" (Text("Each attempt (inside the retry loop)")) => BreakerAt::Attempt,
        "operation" (Text("Each operation (around the retry loop)")) => BreakerAt::Operation,
    }
    WORKLOADS: WorkloadKind {
        "poisson" (Text("Steady arrivals (Poisson)")) => WorkloadKind::Poisson,
        "crowd" (Text("A crowd starting together")) => WorkloadKind::Crowd,
        "contention" (Text("Contention on one row")) => WorkloadKind::Contention,
        "closed" (Text("Clients in a closed loop")) => WorkloadKind::Closed,
    }
    SPREADS: Spread {
        "constant" (Text("Constant")) => Spread::Constant,
        "exponential" (Text("Exponential")) => Spread::Exponential,
        "normal" (Text("Normal")) => Spread::Normal,
    }
    /// The first three as [`SPREADS`], so that a link's word keeps its
    /// position.
    SERVICE_SHAPES: ServiceShape {
        "constant" (Text("Constant")) => ServiceShape::Constant,
        "exponential" (Text("Exponential")) => ServiceShape::Exponential,
        "normal" (Text("Normal")) => ServiceShape::Normal,
        "lognormal" (Text("Lognormal, from p50 and p99")) => ServiceShape::LogNormal,
        "mixture" (Text("With a slow mode")) => ServiceShape::Mixture,
    }
    FAN_WAITS: FanWait {
        "all" (Text("Every answer")) => FanWait::All,
        "first" (Text("The first success")) => FanWait::First,
        "quorum" (Text("A majority")) => FanWait::Quorum,
    }
    QUEUE_ORDERS: QueueOrder {
        "fifo" (Text("Oldest first (FIFO)")) => QueueOrder::Fifo,
        "lifo" (Text("Newest first (LIFO)")) => QueueOrder::Lifo,
    }
    BALANCES: Balance {
        "round-robin" (Text("Round robin")) => Balance::RoundRobin,
        "random" (Text("At random")) => Balance::Random,
    }
    FAULTS_ON: FaultOn {
        "all" (Text("Every server")) => FaultOn::All,
        "one" (Text("One server")) => FaultOn::One,
    }
    OUTAGES: OutageMode {
        "fail-fast" (Text("Fail fast")) => OutageMode::FailFast,
        "hang" (Text("Hang")) => OutageMode::Hang,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A service's own shape and jitter list the policy's in their order,
    /// one place on, under the same words: `l2_jitter=full` sets what
    /// `jitter=full` sets.
    #[test]
    fn a_services_own_shape_and_jitter_are_the_policys() {
        assert_eq!(HOP_SHAPES.names[1..], *SHAPES.names);
        assert_eq!(HOP_SHAPES.labels[1..], *SHAPES.labels);
        assert_eq!(hop_shape(0.0), None);
        for (position, name) in SHAPES.names.iter().enumerate() {
            let shape = hop_shape(position as f64 + 1.0).expect("a shape");
            assert_eq!(SHAPES.position(shape), position as f64, "{name}");
        }
        assert_eq!(HOP_JITTERS.names[1..], *JITTERS.names);
        assert_eq!(HOP_JITTERS.labels[1..], *JITTERS.labels);
        assert_eq!(hop_jitter(0.0), None);
        for (position, name) in JITTERS.names.iter().enumerate() {
            let jitter = hop_jitter(position as f64 + 1.0).expect("a jitter");
            assert_eq!(JITTERS.position(jitter), position as f64, "{name}");
        }
    }

    /// A service's own budget lists the policy's kinds in their order, two
    /// places after none and the policy's, under the same words and labels;
    /// each position reads back.
    #[test]
    fn a_services_own_budget_kinds_are_the_policys() {
        assert_eq!(HOP_BUDGETS.names[..2], [SWITCH.names[0], SWITCH.names[1]]);
        assert_eq!(HOP_BUDGETS.names[2..], BUDGETS.names[1..]);
        assert_eq!(HOP_BUDGETS.labels[2..], BUDGETS.labels[1..]);
        for position in 0..HOP_BUDGETS.names.len() {
            let budget = hop_budget(position as f64);
            assert_eq!(hop_budget_position(budget), position as f64);
        }
        assert_eq!(hop_budget(0.0), Some(BudgetKind::None));
        assert_eq!(hop_budget(1.0), None);
        assert_eq!(hop_budget(8.0), Some(BudgetKind::Envoy));
    }
}
