//! The options of the parameters that are choices: the word a link
//! writes for each option, bound to the value it means.

use crate::breaker::BreakerMode;
use crate::budget::{BudgetKind, RatioBasis};
use crate::policy::{Jitter, Shape};
use crate::sim::{OutageMode, Spread, WorkloadKind};

/// What the sweep chart compares: the choice of the `sweep` parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SweepCurves {
    /// The page's policy A, and B when comparing.
    Policies,
    /// Four classic strategies in A's world (see `sweep::curves`).
    Classic,
}

/// The options of a choice parameter in link order: the word a link writes
/// for each, bound to the value it means. A [`Config`](super::Config) stores the position
/// in this list, and links store the word, so reordering the list changes
/// no link.
#[derive(Debug)]
pub struct Choices<T: 'static> {
    pub names: &'static [&'static str],
    values: &'static [T],
}

impl<T: Copy> Choices<T> {
    /// The value at a stored position. A stored position is sanitized
    /// against `names`, which is as long as `values`.
    pub(super) fn at(&self, position: f64) -> T {
        self.values[position as usize]
    }
}

/// Declares choice lists, one `word => value` pair per option, and for each
/// the inverse map from a value to its stored position.
macro_rules! choices {
    ($($(#[$doc:meta])* $list:ident: $ty:ty { $($word:literal => $value:expr),+ $(,)? })*) => {$(
        $(#[$doc])*
        pub const $list: Choices<$ty> = Choices {
            names: &[$($word),+],
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
        "constant" => Shape::Constant,
        "linear" => Shape::Linear,
        "exponential" => Shape::Exponential,
    }
    JITTERS: Jitter {
        "none" => Jitter::None,
        "full" => Jitter::Full,
        "equal" => Jitter::Equal,
        "decorrelated" => Jitter::Decorrelated,
        "proportional" => Jitter::Proportional,
    }
    SWITCH: bool {
        "off" => false,
        "on" => true,
    }
    SWEEPS: SweepCurves {
        "policies" => SweepCurves::Policies,
        "classic" => SweepCurves::Classic,
    }
    BUDGETS: BudgetKind {
        "none" => BudgetKind::None,
        "ratio" => BudgetKind::Ratio,
        "token-bucket" => BudgetKind::TokenBucket,
        "aws-quota" => BudgetKind::AwsQuota,
    }
    BASES: RatioBasis {
        "successes" => RatioBasis::Successes,
        "requests" => RatioBasis::Requests,
    }
    BREAKERS: BreakerMode {
        "off" => BreakerMode::Off,
        "all" => BreakerMode::All,
        "retries" => BreakerMode::RetriesOnly,
    }
    WORKLOADS: WorkloadKind {
        "poisson" => WorkloadKind::Poisson,
        "crowd" => WorkloadKind::Crowd,
        "contention" => WorkloadKind::Contention,
    }
    SPREADS: Spread {
        "constant" => Spread::Constant,
        "exponential" => Spread::Exponential,
        "normal" => Spread::Normal,
    }
    OUTAGES: OutageMode {
        "fail-fast" => OutageMode::FailFast,
        "hang" => OutageMode::Hang,
    }
}
