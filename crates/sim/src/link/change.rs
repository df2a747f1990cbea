//! A change to a configuration: values for parameters of policy A or B,
//! read once from link pairs (`"B.budget=token-bucket&seed=3"`, the form
//! the presets' "try this", the chapters and the search keep them in) and
//! applied as values, with what could not be read kept as [`Notice`]s.
//!
//! Applied, a change means what the link of the configuration followed by
//! the change's pairs means (`tests` hold it over every preset's changes):
//! A's values in order, then B's differences, the configuration's before
//! the change's, only where the result compares.

use super::{B_PREFIX, Notice, Pair, b_without_compare, percent_decode, read_pair};
use crate::config::{Config, P, PARAMS, SWITCH};

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

    /// Policy A's `values`, in order: a change made of values, with no
    /// text to read (the search's candidates are made so).
    pub fn of(values: &[(P, f64)]) -> Change {
        let pairs = values
            .iter()
            .map(|&(param, value)| {
                let index = param as usize;
                let pair = Pair {
                    for_b: false,
                    index,
                    value,
                };
                (PARAMS[index].key.to_string(), pair)
            })
            .collect();
        Change {
            pairs,
            notices: Vec::new(),
        }
    }

    /// The same values as policy B's, compare mode on: the change that
    /// makes a policy B.
    pub fn as_b(&self) -> Change {
        let compare = P::Compare as usize;
        let mut pairs = vec![(
            PARAMS[compare].key.to_string(),
            Pair {
                for_b: false,
                index: compare,
                value: SWITCH.position(true),
            },
        )];
        pairs.extend(self.pairs.iter().map(|(key, pair)| {
            let key = match pair.for_b {
                true => key.clone(),
                false => format!("{B_PREFIX}{key}"),
            };
            (
                key,
                Pair {
                    for_b: true,
                    ..*pair
                },
            )
        }));
        Change {
            pairs,
            notices: self.notices.clone(),
        }
    }

    /// The change as link pairs, written as a link writes each value.
    pub fn to_pairs(&self) -> String {
        let written: Vec<String> = self
            .pairs
            .iter()
            .map(|(_, pair)| {
                let param = &PARAMS[pair.index];
                let prefix = if pair.for_b { B_PREFIX } else { "" };
                format!("{prefix}{}={}", param.key, param.format(pair.value))
            })
            .collect();
        written.join("&")
    }

    /// The parameters it sets, A's and B's alike, in order.
    pub fn params(&self) -> impl Iterator<Item = P> + '_ {
        self.pairs.iter().map(|(_, pair)| P::ALL[pair.index])
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

    /// A change made of values reads back from its own pairs as the same
    /// change, and as B's it is what the pairs with `B.` and compare mode
    /// say.
    #[test]
    fn a_change_of_values_is_its_pairs() {
        use retry_core::policy::Jitter;
        let change = Change::of(&[
            (P::Attempts, 3.0),
            (P::Base, 0.05),
            (P::Jitter, crate::config::JITTERS.position(Jitter::Full)),
        ]);
        assert_eq!(change.to_pairs(), "attempts=3&base=0.05&jitter=full");
        assert_eq!(Change::read(&change.to_pairs()), change);
        let b = change.as_b();
        assert_eq!(
            b.to_pairs(),
            "compare=on&B.attempts=3&B.base=0.05&B.jitter=full"
        );
        assert_eq!(Change::read(&b.to_pairs()), b);
        assert_eq!(
            b.params().collect::<Vec<_>>(),
            [P::Compare, P::Attempts, P::Base, P::Jitter]
        );
        let config = Config::default();
        assert_eq!(
            config.changed(&b).0,
            Config::from_link("v=1&compare=on&B.attempts=3&B.base=0.05&B.jitter=full").0
        );
    }
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
