//! What reading a configuration produced, shared by every reader
//! ([`crate::import`], [`crate::istio`], [`crate::gateway`]).

use serde_json::{Map, Value};

use crate::Format;
use retry_core::policy::{Jitter, Shape};
use retry_sim::config::{JITTERS, P, SHAPES, SWITCH};

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
    /// What the paste left out, at its system's documented default (not
    /// the page's earlier value): each `from` names the default's source.
    pub defaults: Vec<Setting>,
}

impl Imported {
    pub(crate) fn new(format: Format) -> Self {
        Self {
            format,
            settings: Vec::new(),
            unmapped: Vec::new(),
            problems: Vec::new(),
            defaults: Vec::new(),
        }
    }

    pub(crate) fn set(&mut self, param: P, value: f64, from: impl Into<String>) {
        self.settings.push(Setting {
            param,
            value,
            from: from.into(),
        });
    }

    /// Lists every key of `object` that the format's reader neither reads
    /// nor explains (`read`) as not read, under its `path`: whatever a
    /// paste holds is said, never dropped unseen.
    pub(crate) fn unread(&mut self, object: &Map<String, Value>, read: &[&str], path: &str) {
        for key in object.keys().filter(|key| !read.contains(&key.as_str())) {
            self.unmapped.push(retry_core::tf!(
                "{path}{key}: not read: the page has no setting for it",
                path = path,
                key = retry_sim::link::clip(key)
            ));
        }
    }

    /// Says that `key`, which picks what is retried (status codes,
    /// exceptions, conditions), is the page's own classes' to decide.
    pub(crate) fn retryable_classes(&mut self, key: &str) {
        self.unmapped.push(retry_core::tf!(
            "{key}: the playground decides what is retryable by its own classes",
            key = key
        ));
    }

    /// Says that `key`, which picks the server a retry goes to, is the
    /// balancer's choice on the page.
    pub(crate) fn host_choice(&mut self, key: &str) {
        self.unmapped.push(retry_core::tf!(
            "{key}: which server a retry goes to is the balancer's choice here, as for any call",
            key = key
        ));
    }

    /// The "mapped" list: one line per setting.
    pub fn mapped(&self) -> Vec<String> {
        lines(&self.settings)
    }

    /// The "defaults" list: one line per setting the paste left out, with
    /// the default's source.
    pub fn defaulted(&self) -> Vec<String> {
        lines(&self.defaults)
    }
}

fn lines(settings: &[Setting]) -> Vec<String> {
    settings
        .iter()
        .map(|s| {
            let param = s.param.param();
            format!("{} -> {} = {}", s.from, param.key, param.format(s.value))
        })
        .collect()
}

pub(crate) fn number(value: &Value, name: &str) -> Result<f64, String> {
    value
        .as_f64()
        .filter(|n| n.is_finite())
        .ok_or_else(|| retry_core::tf!("{name} must be a number", name = name))
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
        let envoy = retry_core::words::tr("Envoy's backoff");
        self.set(P::Shape, SHAPES.position(Shape::Exponential), envoy);
        self.set(P::Multiplier, 2.0, envoy);
        self.set(
            P::Jitter,
            JITTERS.position(Jitter::Full),
            retry_core::words::tr("Envoy's jitter (always full)"),
        );
        self.set(P::Hedge, SWITCH.position(false), whose);
    }
}
