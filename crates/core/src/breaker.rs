//! Circuit breakers: stop calling a dependency that is failing, for a while.
//!
//! What is a breaker for? When a dependency is down, every call to it costs
//! the caller a timeout or an error, and costs the dependency work it cannot
//! do. A breaker watches the outcomes of recent calls; once most of them
//! failed it *opens* and refuses calls at once ("fail fast") for a cool-down,
//! giving the dependency room to recover and the caller its answers quickly.
//! After the cool-down it is *half-open*: it lets a few probes through; if
//! they all succeed it *closes* and traffic flows again, and if any fails it
//! opens for another cool-down.
//!
//! How does it differ from a [budget](crate::budget)? A budget limits
//! *retries* to a share of the traffic and never refuses a first try, so at
//! 100 % failure the load stays near `1 + share` times the first tries and
//! every operation still costs its caller one failed call. A breaker judges
//! the dependency itself by its failure ratio: while it is open nothing is
//! sent, so the load falls to the probes alone and every operation fails at
//! once. The price is that it refuses calls that would have succeeded when
//! the failures were partial. [`BreakerMode::RetriesOnly`] is the variant in
//! between: first tries always go through, only retries are broken.
//!
//! Time is passed in as `now` (seconds of virtual time); nothing here reads a
//! clock, so the state machine is tested with explicit instants.
//!
//! The model, per layer (all clients of a layer share one breaker, as they
//! share a budget):
//!
//! - **Closed**: every attempt is admitted. Outcomes are counted in a sliding
//!   window of `window` seconds (fixed-size time slots, like the ratio
//!   budget). Once the window holds at least `min_requests` outcomes and at
//!   least `failure_ratio` of them (and at least one) failed, the breaker
//!   opens.
//! - **Open** until `cool_down` seconds after it opened: every attempt it
//!   breaks is refused. Outcomes of attempts admitted earlier are ignored.
//! - **Half-open**: the first `probes` attempts it breaks are admitted as
//!   probes, later ones are refused. One failed probe opens it again; when
//!   all probes have succeeded it closes with an empty window. Outcomes of
//!   attempts that were not probes of this round are ignored.
//!
//! Every failed attempt counts as a failure, whatever its class.

use crate::range;
use crate::window::SlidingWindow;

/// Which attempts the breaker may refuse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BreakerMode {
    /// No breaker: every attempt is sent.
    Off,
    /// Breaks every attempt, first tries and retries alike.
    All,
    /// Never refuses a first try, only retries, the variant Marc Brooker's
    /// "Fixing retries with token buckets and circuit breakers" (2022)
    /// examines: the load stays at least the first tries.
    RetriesOnly,
}

/// Where a breaker sits against the retry loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BreakerAt {
    /// Inside it: every attempt is asked for and counted, retries too.
    Attempt,
    /// Outside it, around the whole operation: only its first attempt is
    /// asked for, and the operation's outcome is one outcome, whatever
    /// its retries did. A threshold of 5 failures then takes 5
    /// operations, each of `attempts` round trips, to reach.
    Operation,
}

/// Breaker parameters. Times in seconds.
#[derive(Debug, Clone, PartialEq)]
pub struct BreakerConfig {
    pub mode: BreakerMode,
    /// Share of failed outcomes in the window at which the breaker opens
    /// (0.5 = half), in `[0, 1]`.
    pub failure_ratio: f64,
    /// Length of the sliding window of outcomes, in seconds.
    pub window: f64,
    /// Outcomes the window must hold before the breaker may open.
    pub min_requests: u32,
    /// Seconds an open breaker refuses before it turns half-open.
    pub cool_down: f64,
    /// Attempts let through half-open; all must succeed to close. At least 1.
    pub probes: u32,
    /// Inside the retry loop or outside it.
    pub at: BreakerAt,
}

impl BreakerConfig {
    /// Off; the other fields hold the defaults used when it is switched on:
    /// ratio 0.5 over 10 s, at least 20 outcomes, 5 s cool-down, 3 probes.
    pub const DEFAULT: BreakerConfig = BreakerConfig {
        mode: BreakerMode::Off,
        failure_ratio: 0.5,
        window: 10.0,
        min_requests: 20,
        cool_down: 5.0,
        probes: 3,
        at: BreakerAt::Attempt,
    };
}

impl Default for BreakerConfig {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl BreakerConfig {
    /// The parameters brought into their ranges (see [`range`]), NaN
    /// replaced by the default.
    pub fn sanitized(&self) -> BreakerConfig {
        let d = BreakerConfig::default();
        BreakerConfig {
            mode: self.mode,
            failure_ratio: range::BREAKER_RATIO.clamp(self.failure_ratio, d.failure_ratio),
            window: range::BREAKER_WINDOW.clamp(self.window, d.window),
            min_requests: range::BREAKER_MIN.clamp_count(self.min_requests),
            cool_down: range::COOL_DOWN.clamp(self.cool_down, d.cool_down),
            probes: range::PROBES.clamp_count(self.probes),
            at: self.at,
        }
    }
}

/// Where a breaker is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BreakerState {
    Closed,
    /// Refusing until `until` (seconds).
    Open {
        until: f64,
    },
    /// Letting probes through: `sent` admitted so far, `succeeded` answered
    /// with success.
    HalfOpen {
        sent: u32,
        succeeded: u32,
    },
}

/// What [`Breaker::admit`] returns for an admitted attempt, to hand back with
/// its outcome: it tells a probe of the current half-open round from any
/// other attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Ticket(u32);

impl Ticket {
    /// The ticket of an attempt admitted while closed (or by no breaker).
    pub const ORDINARY: Ticket = Ticket(0);

    pub fn is_probe(self) -> bool {
        self.0 != 0
    }
}

/// The breaker's counters: outcomes seen, and failures among them.
const OUTCOMES: usize = 0;
const FAILURES: usize = 1;

/// A circuit breaker's state.
#[derive(Debug, Clone)]
pub struct Breaker {
    config: BreakerConfig,
    state: BreakerState,
    window: SlidingWindow<2>,
    /// Half-open rounds so far; the current round's probes carry it.
    round: u32,
    trips: u64,
}

impl Breaker {
    /// A closed breaker with an empty window; the parameters are
    /// [sanitized](BreakerConfig::sanitized).
    pub fn new(config: &BreakerConfig) -> Self {
        let config = config.sanitized();
        Self {
            window: SlidingWindow::new(config.window),
            config,
            state: BreakerState::Closed,
            round: 0,
            trips: 0,
        }
    }

    /// The breaker's parameters after sanitising.
    pub fn config(&self) -> &BreakerConfig {
        &self.config
    }

    /// The state as of the last call (an open breaker whose cool-down has
    /// passed turns half-open only when next asked).
    pub fn state(&self) -> BreakerState {
        self.state
    }

    /// Times the breaker opened, counting re-openings after a failed probe.
    pub fn trips(&self) -> u64 {
        self.trips
    }

    /// Asks to send an attempt at `now`; `first` tells a first try from a
    /// retry. `None`: refused, fail fast. `Some(ticket)`: send it, and hand
    /// the ticket back with the outcome to [`Breaker::on_outcome`].
    pub fn admit(&mut self, now: f64, first: bool) -> Option<Ticket> {
        let breaks = match self.config.mode {
            BreakerMode::Off => false,
            BreakerMode::All => true,
            BreakerMode::RetriesOnly => !first,
        };
        if !breaks {
            return Some(Ticket::ORDINARY);
        }
        if let BreakerState::Open { until } = self.state {
            if now < until {
                return None;
            }
            self.round = self.round.wrapping_add(1).max(1);
            self.state = BreakerState::HalfOpen {
                sent: 0,
                succeeded: 0,
            };
        }
        match &mut self.state {
            BreakerState::Closed => Some(Ticket::ORDINARY),
            BreakerState::HalfOpen { sent, .. } if *sent < self.config.probes => {
                *sent += 1;
                Some(Ticket(self.round))
            }
            _ => None,
        }
    }

    /// The outcome of an attempt admitted with `ticket`, learnt at `now`.
    /// Returns true when this outcome opened the breaker (it is then
    /// [`BreakerState::Open`] until `now + cool_down`).
    pub fn on_outcome(&mut self, now: f64, ticket: Ticket, success: bool) -> bool {
        if self.config.mode == BreakerMode::Off {
            return false;
        }
        match &mut self.state {
            BreakerState::Closed => {
                self.window.add(now, OUTCOMES);
                if !success {
                    self.window.add(now, FAILURES);
                }
                let (outcomes, failures) =
                    (self.window.total(OUTCOMES), self.window.total(FAILURES));
                let tripped = outcomes >= u64::from(self.config.min_requests)
                    && failures > 0
                    && failures as f64 >= self.config.failure_ratio * outcomes as f64;
                if tripped {
                    self.open(now);
                }
                tripped
            }
            BreakerState::Open { .. } => false,
            BreakerState::HalfOpen { succeeded, .. } => {
                if ticket != Ticket(self.round) {
                    return false;
                }
                if !success {
                    self.open(now);
                    return true;
                }
                *succeeded += 1;
                if *succeeded >= self.config.probes {
                    self.state = BreakerState::Closed;
                    self.window.clear();
                }
                false
            }
        }
    }

    fn open(&mut self, now: f64) {
        self.state = BreakerState::Open {
            until: now + self.config.cool_down,
        };
        self.window.clear();
        self.trips += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn breaker(mode: BreakerMode) -> Breaker {
        Breaker::new(&BreakerConfig {
            mode,
            ..BreakerConfig::default()
        })
    }

    /// Feeds `count` outcomes at `now`, each admitted just before.
    fn feed(breaker: &mut Breaker, now: f64, count: u32, success: bool) {
        for _ in 0..count {
            let ticket = breaker.admit(now, true).expect("admitted");
            breaker.on_outcome(now, ticket, success);
        }
    }

    #[test]
    fn off_admits_everything_and_never_opens() {
        let mut off = breaker(BreakerMode::Off);
        for i in 0..1000 {
            let now = f64::from(i) * 0.01;
            let ticket = off.admit(now, i % 2 == 0).expect("off admits");
            assert!(!off.on_outcome(now, ticket, false));
        }
        assert_eq!(off.state(), BreakerState::Closed);
        assert_eq!(off.trips(), 0);
    }

    #[test]
    fn opens_at_the_ratio_only_after_the_minimum() {
        let mut all = breaker(BreakerMode::All);
        // 19 failures: all failed, but fewer than 20 outcomes.
        feed(&mut all, 1.0, 19, false);
        assert_eq!(all.state(), BreakerState::Closed);
        // The 20th outcome is a success: 19/20 >= 0.5, it opens.
        let ticket = all.admit(1.0, true).expect("closed");
        assert!(all.on_outcome(1.0, ticket, true));
        assert_eq!(all.state(), BreakerState::Open { until: 6.0 });
        assert_eq!(all.trips(), 1);

        // Below the ratio it stays closed however many outcomes there are.
        let mut healthy = breaker(BreakerMode::All);
        for _ in 0..100 {
            feed(&mut healthy, 2.0, 1, false);
            feed(&mut healthy, 2.0, 2, true);
        }
        assert_eq!(healthy.state(), BreakerState::Closed);
        // Exactly at the ratio (10 failures of 20) it opens.
        let mut even = breaker(BreakerMode::All);
        feed(&mut even, 0.0, 10, true);
        feed(&mut even, 0.0, 9, false);
        assert_eq!(even.state(), BreakerState::Closed);
        feed(&mut even, 0.0, 1, false);
        assert_eq!(even.state(), BreakerState::Open { until: 5.0 });
    }

    #[test]
    fn old_outcomes_leave_the_window() {
        let mut all = breaker(BreakerMode::All);
        feed(&mut all, 0.0, 15, false);
        // 10.5 s later the slot of those failures has expired: 15 more
        // failures make 15 outcomes, not 30.
        feed(&mut all, 10.5, 15, false);
        assert_eq!(all.state(), BreakerState::Closed);
        feed(&mut all, 10.6, 5, false);
        assert!(matches!(all.state(), BreakerState::Open { .. }));
    }

    #[test]
    fn refuses_while_open_then_lets_probes_through() {
        let mut all = breaker(BreakerMode::All);
        feed(&mut all, 0.0, 20, false);
        assert_eq!(all.state(), BreakerState::Open { until: 5.0 });
        assert_eq!(all.admit(0.1, true), None, "first tries are refused");
        assert_eq!(all.admit(4.999, false), None, "retries too");
        // Cool-down over: three probes, then refusals until they answer.
        let probes: Vec<Ticket> = (0..3)
            .map(|_| all.admit(5.0, true).expect("probe"))
            .collect();
        assert!(probes.iter().all(|t| t.is_probe()));
        assert_eq!(all.admit(5.0, false), None, "only three probes");
        assert!(!all.on_outcome(5.1, probes[0], true));
        assert!(!all.on_outcome(5.1, probes[1], true));
        assert!(matches!(
            all.state(),
            BreakerState::HalfOpen { succeeded: 2, .. }
        ));
        // An attempt admitted before the breaker opened does not count.
        assert!(!all.on_outcome(5.1, Ticket::ORDINARY, true));
        assert!(matches!(
            all.state(),
            BreakerState::HalfOpen { succeeded: 2, .. }
        ));
        assert!(!all.on_outcome(5.2, probes[2], true));
        assert_eq!(all.state(), BreakerState::Closed);
        // Closed with an empty window: 19 failures are not enough again.
        feed(&mut all, 5.3, 19, false);
        assert_eq!(all.state(), BreakerState::Closed);
        assert_eq!(all.trips(), 1);
    }

    #[test]
    fn a_failed_probe_reopens_for_another_cool_down() {
        let mut all = breaker(BreakerMode::All);
        feed(&mut all, 0.0, 20, false);
        let first = all.admit(6.0, true).expect("probe");
        let second = all.admit(6.0, true).expect("probe");
        assert!(all.on_outcome(6.5, first, false), "one failure re-opens");
        assert_eq!(all.state(), BreakerState::Open { until: 11.5 });
        assert_eq!(all.trips(), 2);
        assert_eq!(all.admit(11.0, true), None);
        // A probe of the previous round answering late changes nothing.
        let late = all.admit(11.5, true).expect("new round");
        assert!(!all.on_outcome(11.6, second, false));
        assert!(matches!(
            all.state(),
            BreakerState::HalfOpen { sent: 1, .. }
        ));
        assert!(late.is_probe() && late != second);
    }

    #[test]
    fn retries_only_never_refuses_a_first_try() {
        let mut retries = breaker(BreakerMode::RetriesOnly);
        feed(&mut retries, 0.0, 20, false);
        assert!(matches!(retries.state(), BreakerState::Open { .. }));
        for i in 0..100 {
            let ticket = retries.admit(f64::from(i) * 0.01, true);
            assert_eq!(ticket, Some(Ticket::ORDINARY), "first tries pass");
            // Their outcomes while open are ignored.
            assert!(!retries.on_outcome(f64::from(i) * 0.01, Ticket::ORDINARY, false));
        }
        assert_eq!(retries.admit(1.0, false), None, "retries are refused");
        // Half-open: first tries still pass and are no probes; retries probe.
        assert_eq!(retries.admit(5.0, true), Some(Ticket::ORDINARY));
        let probe = retries.admit(5.0, false).expect("probe");
        assert!(probe.is_probe());
        assert!(
            !retries.on_outcome(5.1, Ticket::ORDINARY, false),
            "no probe"
        );
        assert!(retries.on_outcome(5.1, probe, false));
        assert_eq!(retries.state(), BreakerState::Open { until: 10.1 });
    }

    #[test]
    fn nonsense_parameters_are_clamped() {
        let odd = Breaker::new(&BreakerConfig {
            mode: BreakerMode::All,
            failure_ratio: f64::NAN,
            window: -3.0,
            min_requests: 0,
            cool_down: f64::INFINITY,
            probes: 0,
            at: BreakerAt::Operation,
        });
        let c = odd.config();
        assert_eq!(c.failure_ratio, 0.5);
        assert_eq!(c.window, range::BREAKER_WINDOW.min);
        assert_eq!((c.min_requests, c.probes), (1, 1));
        assert_eq!(c.cool_down, range::COOL_DOWN.max);
        // Ratio 0 opens on the first failure, not on successes.
        let mut eager = Breaker::new(&BreakerConfig {
            mode: BreakerMode::All,
            failure_ratio: 0.0,
            min_requests: 1,
            ..BreakerConfig::default()
        });
        feed(&mut eager, 0.0, 50, true);
        assert_eq!(eager.state(), BreakerState::Closed);
        feed(&mut eager, 0.0, 1, false);
        assert!(matches!(eager.state(), BreakerState::Open { .. }));
    }
}
