//! The AWS SDK's adaptive retry mode: standard mode's retry quota plus a
//! client-side rate limiter, as botocore 1.44 writes it
//! (`botocore/retries/adaptive.py`, `throttling.py`, `bucket.py`), step for
//! step, so that `tests/python` can feed botocore's own classes and this
//! one the same responses and compare the rate after each.
//!
//! - The limiter is off until the first throttling response; from then on
//!   every send, first try or retry, takes a token from a bucket that
//!   fills at the *fill rate* and holds at most `max(1, fill rate)`.
//! - Every response is clocked: the send rate is measured in buckets of
//!   0.5 s, smoothed (0.8 of the new bucket's rate, 0.2 of the old).
//! - A throttle sets CUBIC's `w_max` to the measured rate (once enabled,
//!   the lesser of it and the fill rate), `k = cbrt(w_max (1 - β) / C)`,
//!   and the new rate to `β w_max`; any other response gives the rate
//!   `C (t - last throttle - k)³ + w_max`. β 0.7, C 0.4.
//! - The fill rate is then `max(0.5, min(new rate, 2 × measured rate))`.

/// CUBIC's scale constant and multiplicative decrease.
const C: f64 = 0.4;
const BETA: f64 = 0.7;
/// The fill rate never drops below this many tokens a second.
const MIN_RATE: f64 = 0.5;
/// The fill rate never climbs past this multiple of the measured rate.
const MAX_RATE_ADJUST_SCALE: f64 = 2.0;
/// The send rate is measured in buckets this long, smoothed so.
const TIME_BUCKET: f64 = 0.5;
const SMOOTHING: f64 = 0.8;

/// One client instance's rate limiter.
#[derive(Debug, Clone, PartialEq)]
pub struct RateLimiter {
    enabled: bool,
    // CUBIC.
    w_max: f64,
    k: f64,
    last_throttle: f64,
    // The send rate's clock.
    measured: f64,
    last_bucket: f64,
    count: f64,
    // The token bucket.
    fill_rate: f64,
    capacity: f64,
    tokens: f64,
    last_fill: Option<f64>,
}

impl RateLimiter {
    /// A limiter made at `now`, as botocore registers one per client: no
    /// rate yet, and off.
    pub fn new(now: f64) -> RateLimiter {
        let mut limiter = RateLimiter {
            enabled: false,
            w_max: 0.0,
            k: 0.0,
            last_throttle: now,
            measured: 0.0,
            // botocore floors the start to a whole second, not a bucket.
            last_bucket: libm::floor(now),
            count: 0.0,
            fill_rate: 0.0,
            capacity: 0.0,
            tokens: 0.0,
            last_fill: None,
        };
        limiter.set_fill_rate(now, 1.0);
        limiter
    }

    /// Whether sends wait for tokens: from the first throttle on.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// The rate the bucket fills at, tokens a second.
    pub fn fill_rate(&self) -> f64 {
        self.fill_rate
    }

    /// The send rate as last measured, sends a second.
    pub fn measured_rate(&self) -> f64 {
        self.measured
    }

    /// A response came at `now`, a throttle or not: the fill rate it leads to.
    pub fn on_response(&mut self, now: f64, throttled: bool) -> f64 {
        let measured = self.clock(now);
        let new_rate = if throttled {
            let rate = if self.enabled {
                measured.min(self.fill_rate)
            } else {
                measured
            };
            self.w_max = rate;
            self.k = libm::pow(rate * (1.0 - BETA) / C, 1.0 / 3.0);
            self.last_throttle = now;
            self.enabled = true;
            rate * BETA
        } else {
            let dt = now - self.last_throttle - self.k;
            C * dt * dt * dt + self.w_max
        };
        self.set_fill_rate(now, new_rate.min(MAX_RATE_ADJUST_SCALE * measured));
        self.fill_rate
    }

    /// A send at `now`: how long it waits for a token (0 while the limiter
    /// is off, or a token is there), the token taken when it goes.
    pub fn acquire(&mut self, now: f64) -> f64 {
        if !self.enabled {
            return 0.0;
        }
        self.refill(now);
        let wait = if self.tokens >= 1.0 {
            0.0
        } else {
            (1.0 - self.tokens) / self.fill_rate
        };
        // Taken at the moment it goes: the bucket is empty then.
        self.tokens = (self.tokens + wait * self.fill_rate - 1.0).max(0.0);
        self.last_fill = Some(now + wait);
        wait
    }

    /// The send rate, measured with one more response at `now`.
    fn clock(&mut self, now: f64) -> f64 {
        let scale = 1.0 / TIME_BUCKET;
        let bucket = libm::floor(now * scale) / scale;
        self.count += 1.0;
        if bucket > self.last_bucket {
            let current = self.count / (bucket - self.last_bucket);
            self.measured = current * SMOOTHING + self.measured * (1.0 - SMOOTHING);
            self.count = 0.0;
            self.last_bucket = bucket;
        }
        self.measured
    }

    fn set_fill_rate(&mut self, now: f64, rate: f64) {
        self.refill(now);
        self.fill_rate = rate.max(MIN_RATE);
        self.capacity = if rate >= 1.0 { rate } else { 1.0 };
        self.tokens = self.tokens.min(self.capacity);
    }

    /// The balance at `now`. Before a send already booked for later (its
    /// token taken at `last_fill`), the balance is negative: a debt that
    /// queues the next send after it.
    fn refill(&mut self, now: f64) {
        if let Some(last) = self.last_fill {
            let filled = (now - last) * self.fill_rate;
            self.tokens = self.capacity.min(self.tokens + filled);
        }
        self.last_fill = Some(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference's example: a throttle at a measured 100/s drops the
    /// rate to 70/s, and CUBIC climbs back to 100/s after k =
    /// cbrt(100 × 0.3 / 0.4) = 4.22 s.
    #[test]
    fn a_throttle_cuts_the_rate_by_beta_and_cubic_brings_it_back_after_k() {
        let mut limiter = RateLimiter::new(0.0);
        // 100 responses a second for 10 s, all answered.
        let mut t = 0.0;
        for _ in 0..1000 {
            t += 0.01;
            limiter.on_response(t, false);
        }
        assert!(!limiter.enabled());
        let measured = limiter.measured_rate();
        assert!((measured - 100.0).abs() < 1.0, "{measured}");
        let after = limiter.on_response(t, true);
        assert!(limiter.enabled());
        assert!((after - BETA * measured).abs() < 1e-9, "{after}");
        let k = libm::cbrt(measured * 0.3 / 0.4);
        assert!((k - 4.22).abs() < 0.02, "{k}");
        // With the sends going on at 100/s (the measured rate, and twice
        // it, stay far above), CUBIC's curve stands at w_max again at t + k.
        let (throttled_at, mut back) = (t, after);
        while t + 0.01 <= throttled_at + k {
            t += 0.01;
            back = limiter.on_response(t, false);
        }
        let cubic = C * libm::pow(t - throttled_at - k, 3.0) + measured;
        assert!(
            (back - cubic).abs() < 1e-9 && (back - measured).abs() < 1e-3,
            "{back} against {measured}"
        );
    }

    #[test]
    fn the_fill_rate_keeps_its_floor_and_sends_wait_for_tokens_once_enabled() {
        let mut limiter = RateLimiter::new(0.0);
        assert_eq!(limiter.acquire(0.0), 0.0, "off until the first throttle");
        // A throttle before any rate was measured: the floor.
        assert_eq!(limiter.on_response(0.1, true), MIN_RATE);
        // The bucket holds one token at most and fills at 0.5 a second:
        // back-to-back sends wait two seconds each.
        let first = limiter.acquire(0.1);
        let second = limiter.acquire(0.1 + first);
        assert!((second - 2.0).abs() < 1e-9, "{first} then {second}");
    }
}
