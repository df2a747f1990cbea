//! What reading a configuration produced, shared by every reader
//! ([`crate::import`], [`crate::istio`], [`crate::gateway`]).

use serde_json::Value;

use crate::Format;
use crate::config::P;

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
