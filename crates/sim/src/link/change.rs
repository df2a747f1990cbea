//! A change to a configuration: values for parameters of policy A or B,
//! read once from link pairs (`"B.budget=token-bucket&seed=3"`, the form
//! the presets' "try this", the chapters and the search keep them in) and
//! applied as values, with what could not be read kept as [`Notice`]s.
//!
//! Applied, a change means what the link of the configuration followed by
//! the change's pairs means (`tests` hold it over every preset's changes):
//! A's values in order, then B's differences, the configuration's before
//! the change's, only where the result compares.

use super::{Notice, Pair, b_without_compare, percent_decode, read_pair};
use crate::config::Config;

/// Parameter values to set, A's and B's, in the order they were given.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Change {
    pairs: Vec<(String, Pair)>,
    notices: Vec<Notice>,
}

impl Change {
    /// Reads `key=value` pairs joined by `&`. Never fails: a pair that is
    /// no parameter's, or whose value cannot be read, is a notice.
    pub fn read(pairs: &str) -> Change {
        let mut change = Change::default();
        for pair in pairs.split('&').filter(|p| !p.is_empty()) {
            let (key, raw) = pair.split_once('=').unwrap_or((pair, ""));
            let key = percent_decode(key);
            match read_pair(&key, &percent_decode(raw)) {
                Ok(pair) => change.pairs.push((key, pair)),
                Err(message) => change.notices.push(Notice { key, message }),
            }
        }
        change
    }

    /// What could not be read.
    pub fn notices(&self) -> &[Notice] {
        &self.notices
    }
}

impl Config {
    /// This configuration with `change` applied, and every notice: the
    /// change's own, and what applying it fixed or ignored.
    pub fn changed(&self, change: &Change) -> (Config, Vec<Notice>) {
        let mut next = self.clone();
        let mut notices = change.notices.clone();
        let mut say = |key: &str, why: Option<String>| {
            if let Some(message) = why {
                notices.push(Notice {
                    key: key.to_string(),
                    message,
                });
            }
        };
        for (key, pair) in change.pairs.iter().filter(|(_, pair)| !pair.for_b) {
            say(key, next.set_at(pair.index, pair.value));
        }
        // B's differences are measured from A's values as they now are:
        // this configuration's first (its link carries them only while it
        // compares), then the change's, and none unless the result compares.
        next.overrides.fill(None);
        let comparing = next.comparing();
        if comparing && self.comparing() {
            for (index, value) in self.overrides.iter().enumerate() {
                if let Some(value) = *value {
                    next.set_b_at(index, value);
                }
            }
        }
        for (key, pair) in change.pairs.iter().filter(|(_, pair)| pair.for_b) {
            if comparing {
                say(key, next.set_b_at(pair.index, pair.value));
            } else {
                say(key, Some(b_without_compare()));
            }
        }
        (next, notices)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::P;

    #[test]
    fn a_change_keeps_what_it_could_not_read() {
        let change = Change::read("attempts=4&atempts=5&B.cap=x&B.jitter=none");
        let keys: Vec<&str> = change.notices().iter().map(|n| n.key.as_str()).collect();
        assert_eq!(keys, ["atempts", "B.cap"]);
        let (changed, notices) = Config::default().changed(&change);
        assert_eq!(changed.get(P::Attempts), 4.0);
        assert_eq!(
            notices.len(),
            3,
            "and B's value without compare: {notices:?}"
        );
        assert_eq!(notices[2].key, "B.jitter");
    }

    #[test]
    fn a_change_means_what_the_link_with_its_pairs_means() {
        let (start, _) = Config::from_link("v=1&compare=on&attempts=5&B.attempts=2&B.jitter=none");
        for pairs in [
            "attempts=2",
            "compare=off",
            "compare=off&compare=on",
            "jitter=none&B.attempts=5&attempts=7",
            "B.rate=3&seed=4",
        ] {
            let (changed, _) = start.changed(&Change::read(pairs));
            let (linked, _) = Config::from_link(&format!("{}&{pairs}", start.to_link()));
            assert_eq!(changed, linked, "{pairs}");
        }
    }
}
