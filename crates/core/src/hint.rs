//! A server's hint, and what a client does with it: the `Retry-After` a
//! 429 or a 503 carries (RFC 9110 §10.2.3), as a delay or as a date, and
//! the client's rules for it: ignore it, honour it, honour it up to a cap,
//! add positive jitter to it (a share of it, up to a most), the jitter
//! before or after the cap. A rate limit whose window resets at one
//! instant for every client answers each of them "after the reset"; a
//! client that honours the hint exactly comes back at that instant with
//! all the others. Positive jitter of share `j` on a hint `h` spreads them
//! over `[h, h (1 + j)]`; a cap applied after the jitter erases it for
//! every hint above the cap.

use crate::range;

/// How a server writes its hint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HintForm {
    /// The time to wait, to the fraction of a second (as a header in
    /// milliseconds gives it).
    Exact,
    /// A delay in whole seconds, rounded up (`Retry-After: 3`): the client
    /// waits that long from when it reads the answer.
    Seconds,
    /// A date (`Retry-After: Wed, 21 Oct 2026 07:28:00 GMT`), whole
    /// seconds, rounded up: every client waits until the same instant,
    /// whenever it reads the answer.
    Date,
}

impl HintForm {
    /// The hint a server writes at `now` for a client to come back at
    /// `at`: a delay from `now`, or the date itself for [`HintForm::Date`].
    pub fn write(self, now: f64, at: f64) -> f64 {
        let wait = (at - now).max(0.0);
        match self {
            HintForm::Exact => wait,
            HintForm::Seconds => wait.ceil(),
            HintForm::Date => at.ceil(),
        }
    }

    /// The wait a hint written by [`HintForm::write`] asks of a client
    /// that reads it at `now`.
    pub fn read(self, hint: f64, now: f64) -> f64 {
        match self {
            HintForm::Exact | HintForm::Seconds => hint,
            HintForm::Date => (hint - now).max(0.0),
        }
    }
}

/// Where a client adds its jitter to a hint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JitterAt {
    /// After the cap: even a capped wait is spread.
    AfterCap,
    /// Before the cap, which then erases the jitter of every hint above it.
    BeforeCap,
}

/// A client's rules for a server's hint.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HintRules {
    /// Wait at least the hint before retrying; off, the hint is ignored.
    pub honour: bool,
    /// The most a hint is honoured for, in seconds; 0 means no cap.
    pub cap: f64,
    /// Positive jitter: a share of the wait drawn at random and added to
    /// it (of the hint before the cap, of the capped wait after it); 0
    /// means none.
    pub jitter: f64,
    /// The most jitter added, in seconds; 0 means no most.
    pub jitter_most: f64,
    /// Where the jitter is added: after the cap, or before it.
    pub jitter_at: JitterAt,
}

impl HintRules {
    /// Today's rule, and every link's before hints had rules: honour the
    /// hint as it is.
    pub const DEFAULT: HintRules = HintRules {
        honour: true,
        cap: 0.0,
        jitter: 0.0,
        jitter_most: 0.0,
        jitter_at: JitterAt::AfterCap,
    };

    /// Brought into their ranges, NaN replaced by the default.
    pub fn sanitized(&self) -> HintRules {
        let d = HintRules::DEFAULT;
        HintRules {
            honour: self.honour,
            cap: range::HINT_CAP.clamp(self.cap, d.cap),
            jitter: range::HINT_JITTER.clamp(self.jitter, d.jitter),
            jitter_most: range::HINT_JITTER_MOST.clamp(self.jitter_most, d.jitter_most),
            jitter_at: self.jitter_at,
        }
    }

    /// The least pause a hint of `hint` seconds asks for under these
    /// rules, `uniform` a draw in `[0, 1)`, made only where the rules add
    /// jitter (so that rules without it leave every stream as it was); 0
    /// when the hint is ignored or there is none.
    pub fn wait(&self, hint: f64, uniform: impl FnOnce() -> f64) -> f64 {
        if !self.honour || hint <= 0.0 {
            return 0.0;
        }
        // The jitter is a share of the wait it is added to.
        let jittered = |wait: f64| {
            if self.jitter <= 0.0 {
                return wait;
            }
            let added = uniform() * self.jitter * wait;
            wait + if self.jitter_most > 0.0 {
                added.min(self.jitter_most)
            } else {
                added
            }
        };
        let capped = |wait: f64| {
            if self.cap > 0.0 {
                wait.min(self.cap)
            } else {
                wait
            }
        };
        match self.jitter_at {
            JitterAt::BeforeCap => capped(jittered(hint)),
            JitterAt::AfterCap => jittered(capped(hint)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(cap: f64, jitter: f64, jitter_most: f64, jitter_at: JitterAt) -> HintRules {
        HintRules {
            honour: true,
            cap,
            jitter,
            jitter_most,
            jitter_at,
        }
    }

    #[test]
    fn a_hint_is_honoured_as_it_is_or_ignored() {
        let never = || panic!("no draw without jitter");
        assert_eq!(HintRules::DEFAULT.wait(2.5, never), 2.5);
        let ignore = HintRules {
            honour: false,
            ..rules(0.0, 0.2, 0.0, JitterAt::AfterCap)
        };
        assert_eq!(ignore.wait(2.5, never), 0.0);
        assert_eq!(HintRules::DEFAULT.wait(0.0, never), 0.0);
    }

    /// The 600 s cap and 20 % jitter of at most 30 s: after the cap, a
    /// hint of days waits between 600 and 630 s; before it, the cap
    /// erases the jitter and every client waits 600.0 s.
    #[test]
    fn jitter_after_the_cap_survives_it_and_before_it_is_erased() {
        let days = 3.0 * 86_400.0;
        let after = rules(600.0, 0.2, 30.0, JitterAt::AfterCap);
        assert_eq!(after.wait(days, || 0.0), 600.0);
        assert_eq!(after.wait(days, || 0.999), 630.0, "at most 30 s added");
        assert_eq!(after.wait(100.0, || 0.5), 110.0, "10 % of 100 s");
        assert_eq!(
            rules(600.0, 0.02, 0.0, JitterAt::AfterCap).wait(days, || 0.5),
            606.0,
            "a share of the capped wait, not of the hint"
        );
        let before = rules(600.0, 0.2, 30.0, JitterAt::BeforeCap);
        for u in [0.0, 0.3, 0.999] {
            assert_eq!(before.wait(days, || u), 600.0);
        }
        assert_eq!(before.wait(100.0, || 0.5), 110.0, "below the cap it stays");
    }

    #[test]
    fn a_date_asks_every_reader_for_the_same_instant() {
        // The window resets at 10.0 s; answers written at 9.2 and 9.7 s.
        assert_eq!(HintForm::Exact.write(9.2, 10.0), 10.0 - 9.2);
        assert_eq!(HintForm::Seconds.write(9.2, 10.0), 1.0);
        assert_eq!(HintForm::Seconds.write(9.7, 10.5), 1.0);
        let date = HintForm::Date.write(9.7, 10.5);
        assert_eq!(date, 11.0);
        // Read 0.3 s later, a delay still waits its whole length; a date
        // the time left to it.
        assert_eq!(HintForm::Seconds.read(1.0, 10.0), 1.0);
        assert_eq!(HintForm::Date.read(date, 10.0), 1.0);
        assert_eq!(HintForm::Date.read(date, 12.0), 0.0, "a date passed");
    }
}
