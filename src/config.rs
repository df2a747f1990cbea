//! The one parameter table.
//!
//! Every knob of the playground is declared once, in [`PARAMS`]: its key in a
//! share link, label, unit, range, step, default and help. The link codec,
//! validation and clamping, the controls on the page and the command line
//! are all generated from it, so a link can never hold a value the page
//! cannot show, and a new parameter is one line.
//!
//! A [`Config`] is one value per parameter. A link is its query string,
//! `v=1&attempts=4&base=0.1&...`, with every key written out so a link keeps
//! its meaning even if a default changes later. Reading a link never fails:
//! missing keys take their defaults, bad values are clamped or replaced and
//! reported as [`Notice`]s, unknown keys are reported and ignored.

use crate::policy::{Jitter, Policy, Shape};

/// Version written into every link as `v`.
pub const LINK_VERSION: u32 = 1;

/// Where a parameter sits on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    Policy,
    Randomness,
}

impl Group {
    pub const ALL: [Group; 2] = [Group::Policy, Group::Randomness];

    pub fn title(self) -> &'static str {
        match self {
            Group::Policy => "Policy",
            Group::Randomness => "Randomness",
        }
    }
}

/// The kind of value a parameter holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// A real number in `[min, max]`, moved in `step`s by the slider.
    Number { min: f64, max: f64, step: f64 },
    /// A whole number in `[min, max]`.
    Integer { min: f64, max: f64 },
    /// One of named options, stored as its index.
    Choice(&'static [&'static str]),
}

/// One row of the table.
#[derive(Debug)]
pub struct Param {
    pub key: &'static str,
    pub label: &'static str,
    pub unit: &'static str,
    pub group: Group,
    pub kind: Kind,
    pub default: f64,
    pub help: &'static str,
    /// Whether the parameter matters under the other settings; the page dims
    /// it when not, instead of silently ignoring it.
    pub applies: fn(&Config) -> bool,
}

fn always(_: &Config) -> bool {
    true
}

macro_rules! params {
    ($($name:ident: $key:literal, $label:literal, $unit:literal, $group:ident, $kind:expr, $default:expr, $applies:expr, $help:literal;)*) => {
        /// Names of the parameters, in table order.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum P { $($name),* }

        /// The table.
        pub static PARAMS: &[Param] = &[$(Param {
            key: $key,
            label: $label,
            unit: $unit,
            group: Group::$group,
            kind: $kind,
            default: $default as f64,
            help: $help,
            applies: $applies,
        }),*];
    };
}

pub const SHAPES: &[&str] = &["constant", "linear", "exponential"];
pub const JITTERS: &[&str] = &["none", "full", "equal", "decorrelated", "proportional"];

const fn number(min: f64, max: f64, step: f64) -> Kind {
    Kind::Number { min, max, step }
}
const fn integer(min: f64, max: f64) -> Kind {
    Kind::Integer { min, max }
}

params! {
    Attempts: "attempts", "Attempts", "", Policy, integer(1.0, 10.0), 4, always,
        "Tries per operation, counting the first call: 1 means never retry.";
    Shape: "shape", "Backoff shape", "", Policy, Kind::Choice(SHAPES), 2, always,
        "How the pause ceiling grows with each retry.";
    Base: "base", "Base delay", "s", Policy, number(0.001, 10.0, 0.001), 0.1, always,
        "Ceiling of the first pause (and the floor of decorrelated jitter).";
    Cap: "cap", "Cap", "s", Policy, number(0.001, 60.0, 0.001), 0.8, always,
        "No pause ceiling grows beyond this.";
    Multiplier: "mult", "Multiplier", "x", Policy, number(1.0, 10.0, 0.1), 2, |c| c.shape() == Shape::Exponential,
        "Growth factor of exponential backoff per retry.";
    Jitter: "jitter", "Jitter", "", Policy, Kind::Choice(JITTERS), 1, always,
        "How a random pause is drawn under the ceiling; none makes clients that failed together retry together.";
    JitterFraction: "jfrac", "Jitter fraction", "", Policy, number(0.0, 1.0, 0.01), 0.2, |c| c.jitter() == Jitter::Proportional,
        "Proportional jitter spreads each pause by this fraction either way (0.2 = +-20 %).";
    Timeout: "timeout", "Attempt timeout", "s", Policy, number(0.0, 60.0, 0.01), 0.5, always,
        "An attempt with no answer by then counts as failed; 0 means no timeout.";
    Deadline: "deadline", "Deadline", "s", Policy, number(0.0, 120.0, 0.1), 0, always,
        "Overall time budget of one operation; 0 means none. No attempt starts once the time left is gone.";
    Seed: "seed", "Seed", "", Randomness, integer(0.0, 4294967295.0), 1, always,
        "Fixes every random draw: the same link gives the same numbers.";
    Samples: "samples", "Simulated clients", "", Randomness, integer(100.0, 100000.0), 10000, always,
        "How many operations are drawn for the distributions.";
}

impl P {
    pub fn param(self) -> &'static Param {
        &PARAMS[self as usize]
    }
}

/// Something the link reader fixed or ignored, to tell the person.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    pub key: String,
    pub message: String,
}

/// One value per parameter, always valid.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    values: Vec<f64>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            values: PARAMS.iter().map(|p| p.default).collect(),
        }
    }
}

impl Param {
    /// The value made valid: clamped to the range, rounded where whole.
    /// Returns the value and, if it had to change, why.
    pub fn sanitize(&self, value: f64) -> (f64, Option<String>) {
        if !value.is_finite() {
            return (
                self.default,
                Some(format!("not a finite number; using {}", self.default)),
            );
        }
        let (low, high, whole) = match self.kind {
            Kind::Number { min, max, .. } => (min, max, false),
            Kind::Integer { min, max } => (min, max, true),
            Kind::Choice(options) => (0.0, (options.len() - 1) as f64, true),
        };
        let rounded = if whole { value.round() } else { value };
        let clamped = rounded.clamp(low, high);
        if clamped != value {
            let why = if rounded != value && clamped == rounded {
                format!("{value} is not a whole number; using {clamped}")
            } else {
                format!("{value} is outside {low}..{high}; using {clamped}")
            };
            (clamped, Some(why))
        } else {
            (value, None)
        }
    }

    /// The text of a value in a link.
    pub fn format(&self, value: f64) -> String {
        match self.kind {
            Kind::Choice(options) => options[value as usize].to_string(),
            // Rust prints the shortest text that reads back to the same f64.
            _ => format!("{value}"),
        }
    }

    /// Reads a value from a link or a number box.
    pub fn parse(&self, text: &str) -> Result<f64, String> {
        let text = text.trim();
        match self.kind {
            Kind::Choice(options) => options
                .iter()
                .position(|o| o.eq_ignore_ascii_case(text))
                .map(|i| i as f64)
                .ok_or_else(|| format!("must be one of {}", options.join(", "))),
            _ => text
                .parse::<f64>()
                .map_err(|_| "is not a number".to_string()),
        }
    }
}

impl Config {
    pub fn get(&self, p: P) -> f64 {
        self.values[p as usize]
    }

    /// Sets a value, sanitized; returns why it changed, if it did.
    pub fn set(&mut self, p: P, value: f64) -> Option<String> {
        let (value, why) = p.param().sanitize(value);
        self.values[p as usize] = value;
        why
    }

    pub fn value_at(&self, index: usize) -> f64 {
        self.values[index]
    }

    pub fn set_at(&mut self, index: usize, value: f64) -> Option<String> {
        let (value, why) = PARAMS[index].sanitize(value);
        self.values[index] = value;
        why
    }

    fn count(&self, p: P) -> u32 {
        self.get(p) as u32
    }

    fn seconds_or_none(&self, p: P) -> Option<f64> {
        Some(self.get(p)).filter(|s| *s > 0.0)
    }

    pub fn shape(&self) -> Shape {
        [Shape::Constant, Shape::Linear, Shape::Exponential][self.get(P::Shape) as usize]
    }

    pub fn jitter(&self) -> Jitter {
        [
            Jitter::None,
            Jitter::Full,
            Jitter::Equal,
            Jitter::Decorrelated,
            Jitter::Proportional,
        ][self.get(P::Jitter) as usize]
    }

    pub fn seed(&self) -> u64 {
        self.get(P::Seed) as u64
    }

    pub fn samples(&self) -> u32 {
        self.count(P::Samples)
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

    /// The share link's query string (without `?`).
    pub fn to_link(&self) -> String {
        let mut link = format!("v={LINK_VERSION}");
        for (param, value) in PARAMS.iter().zip(&self.values) {
            link.push('&');
            link.push_str(param.key);
            link.push('=');
            link.push_str(&param.format(*value));
        }
        link
    }

    /// Reads a link's query string (with or without `?`). Never fails.
    pub fn from_link(query: &str) -> (Config, Vec<Notice>) {
        let mut config = Config::default();
        let mut notices = Vec::new();
        let mut notice = |key: &str, message: String| {
            notices.push(Notice {
                key: clip(key),
                message,
            })
        };
        let mut version_seen = false;
        let query = query.strip_prefix('?').unwrap_or(query);
        for pair in query.split('&').filter(|p| !p.is_empty()).take(200) {
            let (key, raw) = pair.split_once('=').unwrap_or((pair, ""));
            let key = percent_decode(key);
            let raw = percent_decode(raw);
            if key == "v" {
                version_seen = true;
                if raw.trim() != LINK_VERSION.to_string() {
                    notice(
                        "v",
                        format!("unknown link version; read as version {LINK_VERSION}"),
                    );
                }
                continue;
            }
            let Some(index) = PARAMS.iter().position(|p| p.key == key) else {
                notice(&key, "unknown key; ignored".to_string());
                continue;
            };
            let param = &PARAMS[index];
            match param.parse(&raw) {
                Ok(value) => {
                    if let Some(why) = config.set_at(index, value) {
                        notice(&key, why);
                    }
                }
                Err(why) => notice(
                    &key,
                    format!(
                        "'{}' {why}; using {}",
                        clip(&raw),
                        param.format(param.default)
                    ),
                ),
            }
        }
        if !version_seen {
            notice(
                "v",
                format!("no link version; read as version {LINK_VERSION}"),
            );
        }
        (config, notices)
    }
}

/// Keeps what a link can make the page repeat short.
fn clip(text: &str) -> String {
    const LIMIT: usize = 40;
    if text.chars().count() <= LIMIT {
        text.to_string()
    } else {
        text.chars().take(LIMIT).collect::<String>() + "..."
    }
}

/// Decodes `%XX` and `+` as a browser would; invalid escapes stay as they are.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(byte) => {
                        out.push(byte);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            byte => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_keys_are_unique_and_defaults_valid() {
        for (i, a) in PARAMS.iter().enumerate() {
            assert_eq!(a.sanitize(a.default).1, None, "{} default invalid", a.key);
            for b in &PARAMS[i + 1..] {
                assert_ne!(a.key, b.key);
            }
        }
    }

    #[test]
    fn link_round_trips_exactly() {
        let mut config = Config::default();
        config.set(P::Base, 0.123456789);
        config.set(P::Jitter, 3.0);
        config.set(P::Seed, 4294967295.0);
        let (back, notices) = Config::from_link(&config.to_link());
        assert_eq!(notices, []);
        assert_eq!(back, config);
        assert_eq!(back.to_link(), config.to_link());
    }

    #[test]
    fn link_is_readable() {
        let link = Config::default().to_link();
        assert!(
            link.starts_with("v=1&attempts=4&shape=exponential&base=0.1&cap=0.8"),
            "{link}"
        );
    }

    #[test]
    fn missing_keys_take_defaults_without_complaint() {
        let (config, notices) = Config::from_link("?v=1&attempts=2");
        assert_eq!(config.get(P::Attempts), 2.0);
        assert_eq!(config.get(P::Cap), P::Cap.param().default);
        assert_eq!(notices, []);
    }

    #[test]
    fn bad_values_are_fixed_and_reported() {
        let (config, notices) = Config::from_link(
            "attempts=1e300&base=-5&cap=NaN&jitter=%3Cscript%3E&seed=abc&mult=inf&wat=1&samples=1234.5",
        );
        assert_eq!(config.get(P::Attempts), 10.0);
        assert_eq!(config.get(P::Base), 0.001);
        assert_eq!(config.get(P::Cap), P::Cap.param().default);
        assert_eq!(config.get(P::Jitter), P::Jitter.param().default);
        assert_eq!(config.get(P::Seed), P::Seed.param().default);
        assert_eq!(config.get(P::Multiplier), P::Multiplier.param().default);
        assert_eq!(config.get(P::Samples), 1235.0);
        assert!(notices[7].message.contains("whole"), "{:?}", notices[7]);
        let keys: Vec<&str> = notices.iter().map(|n| n.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "attempts", "base", "cap", "jitter", "seed", "mult", "wat", "samples", "v"
            ]
        );
        assert!(notices[3].message.contains("<script>"), "{:?}", notices[3]);
    }

    #[test]
    fn garbage_never_panics() {
        for link in [
            "",
            "&&&",
            "=",
            "%",
            "%4",
            "%zz=1",
            "a=%ff%fe",
            "v=2",
            "attempts",
            "ü=ß&base=%E2%82%AC",
        ] {
            let (config, _) = Config::from_link(link);
            assert!(config.policy().attempts >= 1);
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
