//! The share link: a configuration as a query string, and back.
//!
//! The link is what people keep and share, so reading one never fails and
//! a link keeps its meaning: the version pins the defaults, values are
//! clamped to the table's ranges, and whatever cannot be read is said in a
//! [`Notice`] rather than silently dropped.

mod change;
mod embed;

pub use change::Change;
pub use embed::{CONTROLS_KEY, EMBED_KEY, Embed, EmbedChart, MAX_EMBED_CONTROLS};

use crate::config::{Config, PARAMS};
use retry_core::words::Lang;

/// Something the link reader fixed or ignored, to tell the person.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    pub key: String,
    pub message: String,
}

/// `config` with the link pairs of `change` (for example
/// `"B.budget=token-bucket"`) applied on top: a [`Change`] read and
/// applied, its notices dropped (what the presets' and the chapters' hold
/// are tested to have none).
pub fn apply(config: &Config, change: &str) -> Config {
    config.changed(&Change::read(change)).0
}

/// Version written into every link as `v`.
pub const LINK_VERSION: u32 = 1;

/// Most `key=value` pairs a link is read for: every parameter, for A and
/// B, fits many times over, and a longer link is someone's mistake or
/// attack. The rest is ignored, with a notice that says so.
pub const MAX_PAIRS: usize = 200;

/// The key that names a chapter of the course: `chapter=herd`
/// (`crate::course` reads it).
pub const CHAPTER_KEY: &str = "chapter";
/// The key that names a preset: `preset=herd` alone opens its world, and
/// with settings those settings over it (`crate::course` reads it).
pub const PRESET_KEY: &str = "preset";
/// The key that asks for the presenting layout: `present=on`.
pub const PRESENT_KEY: &str = "present";
/// The key of the language a link asks for, `lang=ru`: it changes the words
/// and never a number, so a link with it is the same state as without.
pub const LANG_KEY: &str = "lang";

/// Prefix of policy B's keys in a link: `B.jitter=full`.
pub(crate) const B_PREFIX: &str = "B.";

impl Config {
    /// The share link's query string (without `?`): the version, then every
    /// value that differs from that version's default. The version pins the
    /// defaults, so links stay short and keep their meaning.
    pub fn to_link(&self) -> String {
        let mut link = format!("v={LINK_VERSION}");
        for (param, value) in PARAMS.iter().zip(&self.values) {
            if *value == param.default {
                continue;
            }
            link.push('&');
            link.push_str(param.key);
            link.push('=');
            link.push_str(&param.format(*value));
        }
        if self.comparing() {
            for (param, value) in PARAMS.iter().zip(&self.overrides) {
                if let Some(value) = value {
                    link += &format!("&{B_PREFIX}{}={}", param.key, param.format(*value));
                }
            }
        }
        link
    }

    /// Reads a link's query string (with or without `?`). Never fails.
    /// Embed keys are checked like the rest, their notices included, but
    /// dropped: [`read_link`] keeps them.
    pub fn from_link(query: &str) -> (Config, Vec<Notice>) {
        let (config, _, notices) = read_link(query);
        (config, notices)
    }
}

/// Reads a link's query string: the configuration, how it is embedded if
/// it asks to be, and what was fixed or ignored. Never fails.
pub fn read_link(query: &str) -> (Config, Option<Embed>, Vec<Notice>) {
    let mut config = Config::default();
    let mut notices = Vec::new();
    let mut notice = |key: &str, message: String| {
        notices.push(Notice {
            key: clip(key),
            message,
        })
    };
    let mut version_seen = false;
    // B's values are set after all of A's, since B differs from A.
    let mut b_values = Vec::new();
    // Read once the whole link is: `controls` may come before `embed`.
    let mut embed_pairs = Vec::new();
    let query = query.strip_prefix('?').unwrap_or(query);
    let mut pairs = query.split('&').filter(|p| !p.is_empty());
    for pair in pairs.by_ref().take(MAX_PAIRS) {
        let (key, raw) = pair.split_once('=').unwrap_or((pair, ""));
        let key = percent_decode(key);
        let raw = percent_decode(raw);
        if key == "v" {
            version_seen = true;
            if raw.trim() != LINK_VERSION.to_string() {
                notice(
                    "v",
                    retry_core::tf!(
                        "unknown link version; read as version {v}",
                        v = LINK_VERSION
                    ),
                );
            }
            continue;
        }
        if key == EMBED_KEY || key == CONTROLS_KEY {
            embed_pairs.push((key, raw));
            continue;
        }
        // How the course shows the settings, not what they are.
        if key == CHAPTER_KEY || key == PRESENT_KEY || key == PRESET_KEY {
            continue;
        }
        if key == LANG_KEY {
            if Lang::from_code(&raw).is_none() {
                notice(
                    &key,
                    retry_core::tf!("'{word}' must be en or ru; ignored", word = clip(&raw)),
                );
            }
            continue;
        }
        match read_pair(&key, &raw) {
            Ok(pair) if pair.for_b => b_values.push((pair.index, pair.value, key.clone())),
            Ok(pair) => {
                if let Some(why) = config.set_at(pair.index, pair.value) {
                    notice(&key, why);
                }
            }
            Err(why) => notice(&key, why),
        }
    }
    let ignored = pairs.count();
    if ignored > 0 {
        notice(
            "link",
            retry_core::tf!(
                "{n} more {n|pair|pairs} ignored: a link is read up to its first {max}",
                n = ignored,
                max = MAX_PAIRS
            ),
        );
    }
    // Without compare mode a link never writes B's values, so keeping
    // them would make a configuration whose link loses them.
    let comparing = config.comparing();
    for (index, value, key) in b_values {
        if !comparing {
            notice(&key, b_without_compare());
            continue;
        }
        if let Some(why) = config.set_b_at(index, value) {
            notice(&key, why);
        }
    }
    if !version_seen {
        notice(
            "v",
            retry_core::tf!("no link version; read as version {v}", v = LINK_VERSION),
        );
    }
    let embed = Embed::read(&embed_pairs, &mut notice);
    (config, embed, notices)
}

/// A parameter's value as one `key=value` pair of a link says it: policy
/// B's (`B.` before the key) or A's, the parameter's index in [`PARAMS`],
/// and the value parsed (not yet sanitised).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Pair {
    pub for_b: bool,
    pub index: usize,
    pub value: f64,
}

/// Reads one decoded `key=value` pair of a parameter, or says why it
/// cannot be read.
pub(super) fn read_pair(key: &str, raw: &str) -> Result<Pair, String> {
    let (for_b, name) = match key.strip_prefix(B_PREFIX) {
        Some(name) => (true, name),
        None => (false, key),
    };
    let Some(index) = PARAMS.iter().position(|p| p.key == name) else {
        return Err(retry_core::words::tr("unknown key; ignored").to_string());
    };
    let param = &PARAMS[index];
    param
        .parse(raw)
        .map(|value| Pair {
            for_b,
            index,
            value,
        })
        .map_err(|why| {
            retry_core::tf!(
                "'{value}' {why}; using {default}",
                value = clip(raw),
                why = why,
                default = param.format(param.default)
            )
        })
}

/// What a link says of policy B's value without compare mode.
pub(super) fn b_without_compare() -> String {
    retry_core::words::tr("is policy B's, read only with compare=on; ignored").to_string()
}

/// The language a link asks for with `lang=`, if it names one (the last
/// `lang` pair wins, as for every key).
pub fn link_lang(query: &str) -> Option<Lang> {
    query
        .trim_start_matches('?')
        .split('&')
        .take(MAX_PAIRS)
        .filter_map(|pair| pair.strip_prefix("lang="))
        .last()
        .and_then(|word| Lang::from_code(&percent_decode(word)))
}

/// A link with the language it carries: `lang=ru` at its end, or the link
/// as it is when it carries none.
pub fn with_lang(link: String, lang: Option<Lang>) -> String {
    match lang {
        Some(lang) if link.is_empty() => format!("{LANG_KEY}={}", lang.code()),
        Some(lang) => format!("{link}&{LANG_KEY}={}", lang.code()),
        None => link,
    }
}

/// Keeps untrusted text that a notice repeats (a link's, a pasted
/// configuration's) short: whatever someone put in, the page shows a few
/// words of it, not a screenful.
pub fn clip(text: &str) -> String {
    const LIMIT: usize = 40;
    if text.chars().count() <= LIMIT {
        text.to_string()
    } else {
        text.chars().take(LIMIT).collect::<String>() + "..."
    }
}

/// Decodes `%XX` and `+` as a browser would; invalid escapes stay as they are.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len()
                && bytes[i + 1].is_ascii_hexdigit()
                && bytes[i + 2].is_ascii_hexdigit() =>
            {
                // Both are hex digits, checked above.
                let digit = |b: u8| (b as char).to_digit(16).unwrap_or(0) as u8;
                out.push(digit(bytes[i + 1]) * 16 + digit(bytes[i + 2]));
                i += 2;
            }
            byte => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Longest fragment read for the replay's instant: a number needs far less.
const MAX_FRAGMENT: usize = 64;

/// The fragment a share link carries the replay's instant in, `#at=6.26`.
/// It sits outside the query, so the settings, and every number the run
/// reports, do not depend on it. Rust writes the shortest text that reads
/// back to the same `f64`, so the instant comes back exactly.
pub fn instant_fragment(time: f64) -> String {
    format!("#at={time}")
}

/// The replay's instant a link's fragment names, if it names a finite,
/// non-negative one; anything else (a link is untrusted) is no instant.
pub fn instant_from_fragment(fragment: &str) -> Option<f64> {
    if fragment.len() > MAX_FRAGMENT {
        return None;
    }
    fragment
        .trim_start_matches('#')
        .split('&')
        .find_map(|pair| pair.strip_prefix("at="))
        .and_then(retry_core::decimal::parse_f64)
        .filter(|time| time.is_finite() && *time >= 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_instant_goes_into_a_fragment_and_comes_back_exactly() {
        for time in [0.0, 6.26, 15.000000000000002, 1.0 / 3.0, 29.999] {
            let fragment = instant_fragment(time);
            assert_eq!(instant_from_fragment(&fragment), Some(time), "{fragment}");
        }
        assert_eq!(instant_fragment(6.26), "#at=6.26");
        assert_eq!(instant_from_fragment("#x=1&at=2.5"), Some(2.5));
        for hostile in [
            "",
            "#",
            "#at=",
            "#at=-1",
            "#at=NaN",
            "#at=inf",
            "#at=1e999",
            "#at=<img src=x>",
            "#AT=3",
        ] {
            assert_eq!(instant_from_fragment(hostile), None, "{hostile}");
        }
        let long = format!("#at=1{}", "0".repeat(100));
        assert_eq!(instant_from_fragment(&long), None);
    }
    use crate::config::P;
    use retry_core::policy::Jitter;

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

    /// A link past the pair limit is read up to it, and says what it left:
    /// a setting after 200 pairs must not vanish without a word.
    #[test]
    fn pairs_past_the_limit_are_reported() {
        let link = "v=1&".repeat(MAX_PAIRS) + "attempts=7";
        let (config, notices) = Config::from_link(&link);
        assert_eq!(config, Config::default());
        assert_eq!(
            notices,
            [Notice {
                key: "link".to_string(),
                message: "1 more pair ignored: a link is read up to its first 200".to_string(),
            }]
        );
        let (_, notices) = Config::from_link(&(link + "&&jitter=none&x"));
        assert_eq!(
            notices[0].message,
            "3 more pairs ignored: a link is read up to its first 200"
        );
        let (_, notices) = Config::from_link(&"v=1&".repeat(MAX_PAIRS));
        assert_eq!(notices, []);
    }

    /// B's values are written only in compare mode, so they are read only
    /// there: otherwise the configuration would hold what its link loses.
    #[test]
    fn b_values_without_compare_mode_are_reported_and_ignored() {
        let (config, notices) = Config::from_link("v=1&B.jitter=none&jitter=equal");
        assert_eq!(config.value_b_at(P::Jitter as usize), config.get(P::Jitter));
        assert_eq!(Config::from_link(&config.to_link()), (config, vec![]));
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert_eq!(notices[0].key, "B.jitter");
    }

    #[test]
    fn link_holds_only_what_differs_from_the_defaults() {
        assert_eq!(Config::default().to_link(), "v=1");
        let mut config = Config::default();
        config.set(P::Jitter, 0.0);
        config.set(P::OutageFor, 10.0);
        assert_eq!(config.to_link(), "v=1&jitter=none&outage_for=10");
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
            "attempts=1e300&base=-5&cap=NaN&jitter=%3Cscript%3E&seed=abc&mult=inf&wat=1&clients=1234.5",
        );
        assert_eq!(config.get(P::Attempts), 50.0);
        assert_eq!(config.get(P::Base), 0.001);
        assert_eq!(config.get(P::Cap), P::Cap.param().default);
        assert_eq!(config.get(P::Jitter), P::Jitter.param().default);
        assert_eq!(config.get(P::Seed), P::Seed.param().default);
        assert_eq!(config.get(P::Multiplier), P::Multiplier.param().default);
        assert_eq!(config.get(P::Clients), 1235.0);
        assert!(notices[7].message.contains("whole"), "{:?}", notices[7]);
        let keys: Vec<&str> = notices.iter().map(|n| n.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "attempts", "base", "cap", "jitter", "seed", "mult", "wat", "clients", "v"
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

    /// Forty characters are shown whole, more are cut there, counted as
    /// characters so that a cut never splits one.
    #[test]
    fn clip_keeps_forty_characters() {
        let forty = "é".repeat(40);
        assert_eq!(clip(&forty), forty);
        assert_eq!(clip(&format!("{forty}x")), format!("{forty}..."));
    }

    #[test]
    fn percent_escapes_decode_as_a_browser_does() {
        assert_eq!(percent_decode("%3Cb%3E+x"), "<b> x");
        // Not two hex digits: the % stays (and + is a space, as in forms).
        assert_eq!(percent_decode("%+f%4"), "% f%4");
    }

    #[test]
    fn policy_b_lives_in_the_link_as_differences_from_a() {
        let link = "v=1&compare=on&jitter=none&B.jitter=full&B.attempts=4&B.rate=5";
        let (config, notices) = Config::from_link(link);
        // B.attempts equals A's, so it is no difference; B.rate is the world's.
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert_eq!(notices[0].key, "B.rate");
        let b = config.policy_b_config();
        assert_eq!(b.jitter(), Jitter::Full);
        assert_eq!(config.jitter(), Jitter::None);
        assert_eq!(b.scenario().policy.attempts, 4);
        assert_eq!(config.to_link(), "v=1&compare=on&jitter=none&B.jitter=full");
        assert_eq!(Config::from_link(&config.to_link()).0, config);
    }

    #[test]
    fn b_keys_leave_the_link_when_compare_is_off() {
        let (mut config, _) = Config::from_link("v=1&compare=on&B.jitter=none");
        config.set(P::Compare, 0.0);
        assert_eq!(config.to_link(), "v=1");
    }
}
