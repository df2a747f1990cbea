//! Retry policies: how many attempts, how long to pause between them, and
//! when the time left says stop.
//!
//! Vocabulary. An *operation* is what the user asked for; an *attempt* is
//! one network call made for it. `attempts` counts the first call, so
//! `attempts = 1` means "never retry" and a policy yields `attempts - 1`
//! *pauses*. Retry `r` (0-based) waits a pause drawn around the *ceiling*
//! `d_r`:
//!
//! | shape       | `d_r`                         |
//! |-------------|-------------------------------|
//! | constant    | `base`                        |
//! | linear      | `min(cap, base * (r + 1))`    |
//! | exponential | `min(cap, base * m^r)`        |
//!
//! and *jitter* turns the ceiling into a random pause:
//!
//! | jitter        | pause                               | bounds                         |
//! |---------------|-------------------------------------|--------------------------------|
//! | none          | `d_r`                               | exactly `d_r`                  |
//! | full          | `U(0, d_r)`                         | `[0, d_r]`                     |
//! | equal         | `d_r/2 + U(0, d_r/2)`               | `[d_r/2, d_r]`                 |
//! | decorrelated  | `min(cap, U(base, 3 * previous))`   | `[base, cap]`, previous starts at `base` |
//! | proportional  | `min(cap, d_r * U(1-f, 1+f))`       | `[d_r(1-f), min(cap, d_r(1+f))]` |
//! | polly         | see below                           | see below                      |
//!
//! *Polly* is what Polly v8 does with `UseJitter` (App-vNext/Polly,
//! src/Polly.Core/Retry/RetryHelper.cs): a constant or linear ceiling is
//! spread by a quarter either way, `min(cap, d_r * U(0.75, 1.25))`; an
//! exponential one is replaced by its `DecorrelatedJitterBackoffV2`:
//! with `f(t) = 2^t tanh(sqrt(4 t))` and `t_r = r + U(0, 1)`, retry `r`
//! waits `min(cap, (f(t_r) - f(t_{r-1})) * base / 1.4)`, `f(t_{-1}) = 0`.
//! The pauses of one operation sum to `f(t_r) * base / 1.4` (the cap
//! aside), which grows as `2^r`; each alone lies in `(0, (f(r + 1) -
//! f(r - 1)) * base / 1.4)`. Polly's factor is 2 whatever the multiplier,
//! and it counts time in 100 ns ticks, which the playground does not.
//!
//! Without jitter, clients that failed together retry together; that is the
//! thundering herd this playground exists to show.
//!
//! An optional overall *deadline* bounds the whole operation: each attempt's
//! timeout is at most the time left, and no attempt starts once the pause
//! has eaten the time left (see [`Policy::plan_attempt`]).

use crate::random::Stream;

/// How the pause ceiling grows with the retry number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Constant,
    Linear,
    Exponential,
}

/// How a random pause is drawn from the ceiling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Jitter {
    None,
    Full,
    Equal,
    Decorrelated,
    Proportional,
    /// Polly v8's `UseJitter` (see the module's docs).
    Polly,
}

/// Polly's spread of a constant or linear delay: a quarter either way.
const POLLY_SPREAD: f64 = 0.25;

/// `DecorrelatedJitterBackoffV2`'s curve, `2^t tanh(sqrt(4 t))`, with
/// the pure-Rust `libm`, so that a pause is the same on every target.
fn polly_curve(t: f64) -> f64 {
    libm::pow(2.0, t) * libm::tanh(libm::sqrt(4.0 * t))
}

/// A retry policy. Times are in seconds.
#[derive(Debug, Clone, PartialEq)]
pub struct Policy {
    /// Tries per operation, counting the first call (at least 1).
    pub attempts: u32,
    pub shape: Shape,
    /// First ceiling (exponential, constant, linear) and decorrelated floor.
    pub base: f64,
    /// No pause ceiling exceeds this.
    pub cap: f64,
    /// Growth factor of the exponential shape.
    pub multiplier: f64,
    pub jitter: Jitter,
    /// `f` of proportional jitter, in `[0, 1]`.
    pub jitter_fraction: f64,
    /// Per-attempt timeout; `None` waits for the answer however long it takes.
    pub attempt_timeout: Option<f64>,
    /// Overall deadline of the operation, measured from its first attempt.
    pub deadline: Option<f64>,
    /// Hedged requests instead of retries (gRFC A6's `hedgingPolicy`):
    /// copies of the call go out `hedge_delay` apart (0: all at once), up
    /// to `hedge_copies` counting the first; the first answer that is not
    /// an error that may pass wins. See `sim::world::hedge`.
    pub hedge: bool,
    pub hedge_delay: f64,
    pub hedge_copies: u32,
    /// Which failures it retries (or, hedging, which let the next copy go
    /// at once).
    pub retry_on: crate::classify::RetryOn,
}

impl Policy {
    /// Four attempts, exponential from 100 ms doubling up to an 800 ms cap,
    /// full jitter: the three pauses are drawn under 0.1, 0.2 and 0.4 s.
    /// No timeout: a bare policy waits for every answer.
    pub const DEFAULT: Policy = Policy {
        attempts: 4,
        shape: Shape::Exponential,
        base: 0.1,
        cap: 0.8,
        multiplier: 2.0,
        jitter: Jitter::Full,
        jitter_fraction: 0.2,
        attempt_timeout: None,
        deadline: None,
        hedge: false,
        hedge_delay: 0.1,
        hedge_copies: 2,
        retry_on: crate::classify::RetryOn::Transient,
    };
}

impl Default for Policy {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Analytic facts about the pause before one retry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PauseBounds {
    pub min: f64,
    pub max: f64,
    pub mean: f64,
}

/// What the policy says about the next attempt.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Plan {
    /// Start the attempt after `pause`, giving it at most `timeout` (infinite
    /// when neither a per-attempt timeout nor a deadline limits it).
    Attempt { pause: f64, timeout: f64 },
    /// All attempts are used.
    OutOfAttempts,
    /// The pause would reach the deadline: starting would be pointless.
    DeadlineExceeded,
}

impl Policy {
    /// The pause ceiling `d_r` of retry `r` (0-based).
    pub fn ceiling(&self, retry: u32) -> f64 {
        let raw = match self.shape {
            Shape::Constant => self.base,
            Shape::Linear => self.base * f64::from(retry + 1),
            // powi of an integer exponent is exact enough and identical on every target.
            Shape::Exponential => self.base * self.multiplier.powi(retry.min(1024) as i32),
        };
        raw.min(self.cap)
    }

    /// The pauses of one operation whose every attempt fails: `attempts - 1`
    /// of them, then `None`.
    pub fn pauses<'a>(&'a self, stream: &'a mut Stream) -> Pauses<'a> {
        Pauses {
            policy: self,
            stream,
            retry: 0,
            state: self.jitter_start(),
        }
    }

    /// Draws the pause before retry `retry` after the jitter's state of
    /// the retries before it (see [`Policy::jitter_start`]), and moves the
    /// state on.
    pub fn draw_pause(&self, retry: u32, state: &mut f64, stream: &mut Stream) -> f64 {
        self.jittered(self.ceiling(retry), retry, state, stream)
    }

    /// The jitter's state before an operation's first retry: decorrelated
    /// jitter remembers the previous pause (it starts at `base`), Polly's
    /// the point its curve reached (it starts at 0); the others ignore it.
    pub fn jitter_start(&self) -> f64 {
        match self.jitter {
            Jitter::Polly => 0.0,
            _ => self.base,
        }
    }

    /// [`Policy::draw_pause`] given `ceiling(retry)`, which a simulator
    /// drawing millions of pauses computes once per retry number.
    #[inline]
    pub fn jittered(&self, ceiling: f64, retry: u32, state: &mut f64, stream: &mut Stream) -> f64 {
        let pause = match self.jitter {
            Jitter::None => ceiling,
            Jitter::Full => stream.between(0.0, ceiling),
            Jitter::Equal => ceiling / 2.0 + stream.between(0.0, ceiling / 2.0),
            Jitter::Decorrelated => {
                let high = (3.0 * *state).max(self.base);
                stream.between(self.base, high).min(self.cap)
            }
            Jitter::Proportional => {
                let f = self.jitter_fraction;
                (ceiling * stream.between(1.0 - f, 1.0 + f)).min(self.cap)
            }
            Jitter::Polly if self.shape != Shape::Exponential => {
                (ceiling * stream.between(1.0 - POLLY_SPREAD, 1.0 + POLLY_SPREAD)).min(self.cap)
            }
            Jitter::Polly => {
                let next = polly_curve(f64::from(retry) + stream.uniform());
                let pause = (next - *state) * self.base / 1.4;
                *state = next;
                return pause.min(self.cap);
            }
        };
        *state = pause;
        pause
    }

    /// Minimum, maximum and mean of the pause before retry `retry`, from the
    /// formulas (no sampling). Decorrelated jitter depends on the whole chain
    /// of earlier pauses; its mean comes from propagating the pause density
    /// on a fine grid, accurate to well under 0.5 % of the cap.
    pub fn pause_bounds(&self, retry: u32) -> PauseBounds {
        let ceiling = self.ceiling(retry);
        match self.jitter {
            Jitter::Polly if self.shape == Shape::Exponential => PauseBounds {
                min: 0.0,
                max: self.polly_max(retry),
                mean: self.polly_mean(retry),
            },
            Jitter::Polly => Policy {
                jitter: Jitter::Proportional,
                jitter_fraction: POLLY_SPREAD,
                ..self.clone()
            }
            .pause_bounds(retry),
            Jitter::None => PauseBounds {
                min: ceiling,
                max: ceiling,
                mean: ceiling,
            },
            Jitter::Full => PauseBounds {
                min: 0.0,
                max: ceiling,
                mean: ceiling / 2.0,
            },
            Jitter::Equal => PauseBounds {
                min: ceiling / 2.0,
                max: ceiling,
                mean: 0.75 * ceiling,
            },
            Jitter::Proportional => {
                let f = self.jitter_fraction;
                let low = ceiling * (1.0 - f);
                let high = ceiling * (1.0 + f);
                let max = high.min(self.cap);
                let mean = if high <= self.cap || f == 0.0 {
                    ceiling
                } else {
                    // E[min(cap, X)], X ~ U(low, high): the part below the cap
                    // averages (low + cap)/2, the part above counts as cap.
                    let below = (self.cap - low) / (high - low);
                    below * (low + self.cap) / 2.0 + (1.0 - below) * self.cap
                };
                PauseBounds {
                    min: low.min(self.cap),
                    max,
                    mean,
                }
            }
            Jitter::Decorrelated => {
                let max = (self.base * 3f64.powi(retry.min(64) as i32 + 1)).min(self.cap);
                PauseBounds {
                    min: self.base.min(self.cap),
                    max: max.max(self.base.min(self.cap)),
                    mean: decorrelated_mean(self.base, self.cap, retry),
                }
            }
        }
    }

    /// Decides the next attempt of an operation.
    ///
    /// `attempt` is the 0-based number of the attempt about to be made,
    /// `elapsed` the time since the operation's first attempt started and
    /// `pause` the pause drawn before it (0 for the first attempt). Rules of
    /// the seed: limit both the attempt count and the time left; the
    /// attempt's timeout is at most the time left; if the pause eats the
    /// time left, do not start another attempt.
    pub fn plan_attempt(&self, attempt: u32, elapsed: f64, pause: f64) -> Plan {
        if attempt >= self.attempts {
            return Plan::OutOfAttempts;
        }
        let timeout = self.attempt_timeout.unwrap_or(f64::INFINITY);
        match self.deadline {
            None => Plan::Attempt { pause, timeout },
            Some(deadline) => {
                let left = deadline - (elapsed + pause);
                if left <= 0.0 {
                    Plan::DeadlineExceeded
                } else {
                    Plan::Attempt {
                        pause,
                        timeout: timeout.min(left),
                    }
                }
            }
        }
    }
}

impl Policy {
    /// The largest pause Polly's `DecorrelatedJitterBackoffV2` can draw
    /// before retry `retry`: its curve from the lowest point the retry
    /// before can reach to the highest this one can, `(f(r + 1) - f(r -
    /// 1)) * base / 1.4` (from 0 for the first retry), under the cap.
    pub fn polly_max(&self, retry: u32) -> f64 {
        let r = f64::from(retry);
        let low = if retry == 0 {
            0.0
        } else {
            polly_curve(r - 1.0)
        };
        ((polly_curve(r + 1.0) - low) * self.base / 1.4).min(self.cap)
    }

    /// The mean of that pause: `E[min(cap, (f(r + U) - f(r - 1 + V)) *
    /// base / 1.4)]` over independent uniforms `U` and `V`, by the
    /// midpoint rule on a grid of `CELLS` x `CELLS` (the curve is smooth:
    /// the rule's error is far under 0.1 % of the mean).
    fn polly_mean(&self, retry: u32) -> f64 {
        const CELLS: usize = 256;
        let scale = self.base / 1.4;
        let row = |from: f64| -> Vec<f64> {
            (0..CELLS)
                .map(|i| polly_curve(from + (i as f64 + 0.5) / CELLS as f64) * scale)
                .collect()
        };
        let this = row(f64::from(retry));
        let before = if retry == 0 {
            vec![0.0]
        } else {
            row(f64::from(retry) - 1.0)
        };
        let sum: f64 = this
            .iter()
            .flat_map(|next| before.iter().map(move |prev| (next - prev).min(self.cap)))
            .sum();
        sum / (this.len() * before.len()) as f64
    }
}

/// Mean of the decorrelated pause before retry `retry`: the pause density is
/// carried on a grid over `[base, cap]` plus an atom at `cap`. Pause `r+1`
/// given pause `x` is `min(cap, U(base, 3x))`.
fn decorrelated_mean(base: f64, cap: f64, retry: u32) -> f64 {
    if cap <= base {
        return cap;
    }
    const CELLS: usize = 400;
    let width = (cap - base) / CELLS as f64;
    let centre = |i: usize| base + (i as f64 + 0.5) * width;
    // Mass per cell and at the cap; the "previous pause" of retry 0 is base.
    let mut mass = vec![0.0; CELLS];
    let mut mean = 0.0;
    // Start from a point mass at base, step retry + 1 times.
    let mut sources: Vec<(f64, f64)> = vec![(base, 1.0)];
    for _ in 0..=retry.min(64) {
        mass.iter_mut().for_each(|m| *m = 0.0);
        let mut at_cap = 0.0;
        for &(previous, weight) in &sources {
            let high = (3.0 * previous).max(base);
            if high <= base {
                mass[0] += weight;
                continue;
            }
            let spread = high - base;
            // Share above the cap lands on the cap.
            let over = ((high - cap) / spread).max(0.0);
            at_cap += weight * over;
            let top = high.min(cap);
            // Uniform density on [base, top]: give each cell its overlap.
            for (i, cell) in mass.iter_mut().enumerate() {
                let lo = base + i as f64 * width;
                if lo >= top {
                    break;
                }
                let hi = (lo + width).min(top);
                *cell += weight * (hi - lo) / spread;
            }
        }
        mean = mass
            .iter()
            .enumerate()
            .map(|(i, m)| m * centre(i))
            .sum::<f64>()
            + at_cap * cap;
        sources = mass
            .iter()
            .enumerate()
            .filter(|(_, m)| **m > 0.0)
            .map(|(i, m)| (centre(i), *m))
            .collect();
        sources.push((cap, at_cap));
    }
    mean
}

/// The pauses of one operation, as an iterator: `None` means stop retrying.
#[derive(Debug)]
pub struct Pauses<'a> {
    policy: &'a Policy,
    stream: &'a mut Stream,
    retry: u32,
    /// The jitter's state ([`Policy::jitter_start`]).
    state: f64,
}

impl Iterator for Pauses<'_> {
    type Item = f64;

    fn next(&mut self) -> Option<f64> {
        if self.retry + 1 >= self.policy.attempts {
            return None;
        }
        let pause = self
            .policy
            .draw_pause(self.retry, &mut self.state, self.stream);
        self.retry += 1;
        Some(pause)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL_JITTERS: [Jitter; 6] = [
        Jitter::None,
        Jitter::Full,
        Jitter::Equal,
        Jitter::Decorrelated,
        Jitter::Proportional,
        Jitter::Polly,
    ];

    fn policy(jitter: Jitter) -> Policy {
        Policy {
            attempts: 6,
            jitter,
            ..Policy::default()
        }
    }

    #[test]
    fn default_policy_pauses_three_times_under_doubling_ceilings() {
        // attempts=4, base=0.1, cap=0.8: exactly 3 pauses, within 0.1, 0.2, 0.4 s.
        let policy = Policy::default();
        for seed in 0..1000 {
            let mut stream = Stream::new(seed, 0);
            let pauses: Vec<f64> = policy.pauses(&mut stream).collect();
            assert_eq!(pauses.len(), 3);
            for (pause, bound) in pauses.iter().zip([0.1, 0.2, 0.4]) {
                assert!((0.0..=bound).contains(pause), "{pause} > {bound}");
            }
        }
    }

    #[test]
    fn one_attempt_means_no_pause() {
        let policy = Policy {
            attempts: 1,
            ..Policy::default()
        };
        assert_eq!(policy.pauses(&mut Stream::new(1, 0)).count(), 0);
    }

    #[test]
    fn exact_schedules_without_jitter() {
        let schedule = |shape, multiplier| {
            let policy = Policy {
                attempts: 7,
                shape,
                multiplier,
                jitter: Jitter::None,
                ..Policy::default()
            };
            policy.pauses(&mut Stream::new(0, 0)).collect::<Vec<f64>>()
        };
        assert_eq!(
            schedule(Shape::Exponential, 2.0),
            [0.1, 0.2, 0.4, 0.8, 0.8, 0.8]
        );
        assert_eq!(
            schedule(Shape::Exponential, 3.0),
            [0.1, 0.30000000000000004, 0.8, 0.8, 0.8, 0.8]
        );
        assert_eq!(schedule(Shape::Constant, 2.0), [0.1; 6]);
        assert_eq!(
            schedule(Shape::Linear, 2.0),
            [0.1, 0.2, 0.30000000000000004, 0.4, 0.5, 0.6000000000000001]
        );
    }

    /// Every jitter kind stays within its analytic bounds over 10 000 seeded
    /// operations, and its sample mean is near the analytic mean. The pause is
    /// bounded by `max`, so its sd is at most `max / 2`; 6 sigma of the mean
    /// of 10 000 is `3 * max / 100`.
    #[test]
    fn jitter_bounds_and_means_hold() {
        let samples = 10_000;
        for jitter in ALL_JITTERS {
            let policy = policy(jitter);
            let retries = policy.attempts as usize - 1;
            let bounds: Vec<PauseBounds> = (0..retries as u32)
                .map(|r| policy.pause_bounds(r))
                .collect();
            let mut sums = vec![0.0; retries];
            for operation in 0..samples {
                let mut stream = Stream::new(99, operation);
                for (retry, pause) in policy.pauses(&mut stream).enumerate() {
                    let bounds = bounds[retry];
                    assert!(
                        bounds.min <= pause && pause <= bounds.max,
                        "{jitter:?} retry {retry}: {pause} outside [{}, {}]",
                        bounds.min,
                        bounds.max
                    );
                    sums[retry] += pause;
                }
            }
            for (retry, sum) in sums.iter().enumerate() {
                let bounds = bounds[retry];
                let mean = sum / samples as f64;
                let tolerance = 3.0 * bounds.max / 100.0 + 1e-12;
                assert!(
                    (mean - bounds.mean).abs() <= tolerance,
                    "{jitter:?} retry {retry}: sample mean {mean}, analytic {}",
                    bounds.mean
                );
            }
        }
    }

    /// Polly v8's `DecorrelatedJitterBackoffV2` with `Delay` = 1 s and no
    /// cap: the mean pauses, by numeric integration of Polly's formula
    /// outside this code (0.8711, 1.1581, 2.0779, 4.1276 s), and the four
    /// pauses of an operation summing to `f(t_3) / 1.4`, which lies in
    /// `[f(3), f(4)) / 1.4` = [5.7031, 11.4209) s. The means of 20 000
    /// operations: each pause under 8.6 s has an sd under 4.3 s, so 4 sd
    /// of the mean is under 0.13 s; the analytic means must agree to 0.2 %.
    /// A constant delay is spread by a quarter either way.
    #[test]
    fn pollys_decorrelated_jitter_v2() {
        let policy = Policy {
            attempts: 5,
            shape: Shape::Exponential,
            base: 1.0,
            cap: 1000.0,
            jitter: Jitter::Polly,
            ..Policy::default()
        };
        let published = [0.8711, 1.1581, 2.0779, 4.1276];
        for (retry, mean) in published.iter().enumerate() {
            let bounds = policy.pause_bounds(retry as u32);
            assert!(
                (bounds.mean / mean - 1.0).abs() < 0.002,
                "retry {retry}: {bounds:?}"
            );
        }
        let near = |x: f64, y: f64| (x - y).abs() < 1e-3;
        assert!(near(policy.pause_bounds(0).max, 1.3772));
        assert!(near(policy.pause_bounds(3).max, 8.5837));
        let samples = 20_000;
        let mut sums = [0.0; 4];
        for operation in 0..samples {
            let pauses: Vec<f64> = policy.pauses(&mut Stream::new(5, operation)).collect();
            let total: f64 = pauses.iter().sum();
            assert!((5.7031..11.4209).contains(&total), "{pauses:?}");
            for (sum, pause) in sums.iter_mut().zip(&pauses) {
                *sum += pause;
            }
        }
        for (retry, (sum, mean)) in sums.iter().zip(published).enumerate() {
            let sample = sum / samples as f64;
            assert!((sample - mean).abs() < 0.13, "retry {retry}: {sample}");
        }
        let constant = Policy {
            shape: Shape::Constant,
            base: 2.0,
            ..policy
        };
        let bounds = constant.pause_bounds(2);
        assert_eq!((bounds.min, bounds.max, bounds.mean), (1.5, 2.5, 2.0));
        for pause in constant.pauses(&mut Stream::new(1, 1)) {
            assert!((1.5..2.5).contains(&pause), "{pause}");
        }
    }

    #[test]
    fn jitter_actually_spreads_pauses() {
        for jitter in [
            Jitter::Full,
            Jitter::Equal,
            Jitter::Decorrelated,
            Jitter::Proportional,
        ] {
            let policy = policy(jitter);
            let firsts: Vec<f64> = (0..100)
                .map(|seed| {
                    policy
                        .pauses(&mut Stream::new(seed, 0))
                        .next()
                        .expect("6 attempts")
                })
                .collect();
            let distinct = firsts.iter().filter(|p| **p != firsts[0]).count();
            assert!(distinct > 90, "{jitter:?} barely varies");
        }
    }

    #[test]
    fn decorrelated_sticks_to_cap_eventually() {
        // The known surprise: once the chain reaches the cap, min(cap, U(base, 3 cap))
        // lands on the cap with probability (3cap - cap)/(3cap - base) ~ 2/3.
        let policy = Policy {
            attempts: 30,
            jitter: Jitter::Decorrelated,
            ..Policy::default()
        };
        let late = policy.pause_bounds(25);
        assert!(late.mean > 0.6 * policy.cap, "{late:?}");
    }

    #[test]
    fn same_seed_same_pauses() {
        for jitter in ALL_JITTERS {
            let policy = policy(jitter);
            let a: Vec<f64> = policy.pauses(&mut Stream::new(7, 3)).collect();
            let b: Vec<f64> = policy.pauses(&mut Stream::new(7, 3)).collect();
            assert_eq!(a, b);
        }
    }

    #[test]
    fn deadline_limits_timeout_and_stops_attempts() {
        let policy = Policy {
            attempts: 4,
            attempt_timeout: Some(2.0),
            deadline: Some(2.0),
            ..Policy::default()
        };
        assert_eq!(
            policy.plan_attempt(0, 0.0, 0.0),
            Plan::Attempt {
                pause: 0.0,
                timeout: 2.0
            }
        );
        // The first attempt timed out at 2 s: nothing is left for a second.
        assert_eq!(policy.plan_attempt(1, 2.0, 0.05), Plan::DeadlineExceeded);
        // With time left, the timeout shrinks to it.
        assert_eq!(
            policy.plan_attempt(1, 1.5, 0.1),
            Plan::Attempt {
                pause: 0.1,
                timeout: 2.0 - (1.5 + 0.1)
            }
        );
        // A pause that eats the time left means no attempt.
        assert_eq!(policy.plan_attempt(2, 1.0, 1.0), Plan::DeadlineExceeded);
        assert_eq!(policy.plan_attempt(4, 0.0, 0.0), Plan::OutOfAttempts);
    }

    #[test]
    fn without_deadline_only_the_count_limits() {
        let policy = Policy::default();
        assert_eq!(
            policy.plan_attempt(3, 1e9, 5.0),
            Plan::Attempt {
                pause: 5.0,
                timeout: f64::INFINITY
            }
        );
        assert_eq!(policy.plan_attempt(4, 0.0, 0.0), Plan::OutOfAttempts);
    }
}
