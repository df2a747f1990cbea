//! What reading a configuration produced, shared by every reader
//! ([`crate::import`], [`crate::istio`], [`crate::gateway`]).

use serde_json::Value;

use crate::Format;
use crate::config::{JITTERS, P, SHAPES, SWITCH};
use crate::policy::{Jitter, Shape};

/// One playground setting an import produced.
#[derive(Debug, Clone, PartialEq)]
pub struct Setting {
    pub param: P,
    pub value: f64,
    /// The library's setting it came from, for the "mapped" list.
    pub from: String,
}

/// What an import found.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    pub format: Format,
    pub settings: Vec<Setting>,
    /// Settings that were read but mean nothing to the playground, or only
    /// something close: each says why.
    pub unmapped: Vec<String>,
    /// Values that were present but wrong, each with its reason.
    pub problems: Vec<String>,
}

impl Imported {
    pub(crate) fn new(format: Format) -> Self {
        Self {
            format,
            settings: Vec::new(),
            unmapped: Vec::new(),
            problems: Vec::new(),
        }
    }

    pub(crate) fn set(&mut self, param: P, value: f64, from: impl Into<String>) {
        self.settings.push(Setting {
            param,
            value,
            from: from.into(),
        });
    }

    /// The "mapped" list: one line per setting.
    pub fn mapped(&self) -> Vec<String> {
        self.settings
            .iter()
            .map(|s| {
                let param = s.param.param();
                format!("{} -> {} = {}", s.from, param.key, param.format(s.value))
            })
            .collect()
    }
}

pub(crate) fn number(value: &Value, name: &str) -> Result<f64, String> {
    value
        .as_f64()
        .filter(|n| n.is_finite())
        .ok_or_else(|| crate::tf!("{name} must be a number", name = name))
}

impl Imported {
    /// The backoff of a proxy built on Envoy, as its route gets it: the
    /// ceiling doubling from `base` up to `cap`, the pause drawn under it;
    /// and no hedging, for `whose` routes retry and do not hedge.
    pub(crate) fn envoy_backoff(
        &mut self,
        (base, from_base): (f64, &str),
        (cap, from_cap): (f64, &str),
        whose: &str,
    ) {
        self.set(P::Base, base, from_base);
        self.set(P::Cap, cap, from_cap);
        let envoy = crate::words::tr("Envoy's backoff");
        self.set(P::Shape, SHAPES.position(Shape::Exponential), envoy);
        self.set(P::Multiplier, 2.0, envoy);
        self.set(
            P::Jitter,
            JITTERS.position(Jitter::Full),
            crate::words::tr("Envoy's jitter (always full)"),
        );
        self.set(P::Hedge, SWITCH.position(false), whose);
    }
}
