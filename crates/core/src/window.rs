//! A sliding time window of counters, for the ratio budget and the breaker.
//!
//! Both ask "how many of these happened in the last `length` seconds?".
//! Keeping every event would grow with traffic; instead the window holds a
//! fixed number of time slots and slides in steps of `length / SLOTS`,
//! forgetting whole slots as they expire. Time is passed in, never read.

/// Time slots of a window: memory is fixed, the window slides in steps of
/// `length / SLOTS`.
const SLOTS: usize = 20;

/// `N` counters per slot, plus their running totals over the window.
#[derive(Debug, Clone)]
pub(crate) struct SlidingWindow<const N: usize> {
    slot_width: f64,
    /// Index of the newest slot (time / slot_width), or -1 before any use.
    newest: i64,
    counts: [[u64; N]; SLOTS],
    totals: [u64; N],
}

impl<const N: usize> SlidingWindow<N> {
    pub(crate) fn new(length: f64) -> Self {
        Self {
            slot_width: (length / SLOTS as f64).max(1e-9),
            newest: -1,
            counts: [[0; N]; SLOTS],
            totals: [0; N],
        }
    }

    /// Forgets everything, keeping the length.
    pub(crate) fn clear(&mut self) {
        self.newest = -1;
        self.counts = [[0; N]; SLOTS];
        self.totals = [0; N];
    }

    /// Moves the window so that it ends at `now`, forgetting expired slots;
    /// returns the slot that `now` counts in.
    pub(crate) fn slide(&mut self, now: f64) -> usize {
        let slot = (now.max(0.0) / self.slot_width).min(1e15) as i64;
        if slot > self.newest {
            let stale = (slot - self.newest).min(SLOTS as i64);
            for step in 1..=stale {
                let index = (self.newest + step).rem_euclid(SLOTS as i64) as usize;
                for counter in 0..N {
                    self.totals[counter] -= self.counts[index][counter];
                    self.counts[index][counter] = 0;
                }
            }
            self.newest = slot;
        }
        // Time never runs backwards in the simulator; an older `now` counts
        // in the newest slot rather than corrupting the totals.
        self.newest.rem_euclid(SLOTS as i64) as usize
    }

    /// Counts one event of `counter` at `now`.
    pub(crate) fn add(&mut self, now: f64, counter: usize) {
        let slot = self.slide(now);
        self.counts[slot][counter] += 1;
        self.totals[counter] += 1;
    }

    /// Events of `counter` in the window as of the last slide.
    pub(crate) fn total(&self, counter: usize) -> u64 {
        self.totals[counter]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_leave_the_window_after_its_length() {
        let mut window = SlidingWindow::<2>::new(10.0);
        window.add(0.0, 0);
        window.add(4.9, 0);
        window.add(5.0, 1);
        assert_eq!((window.total(0), window.total(1)), (2, 1));
        // At 10.4 s the slot of t = 0 (0..0.5 s) has expired, the others not.
        window.slide(10.4);
        assert_eq!((window.total(0), window.total(1)), (1, 1));
        window.slide(100.0);
        assert_eq!((window.total(0), window.total(1)), (0, 0));
    }

    #[test]
    fn an_older_time_counts_in_the_newest_slot() {
        let mut window = SlidingWindow::<1>::new(10.0);
        window.add(20.0, 0);
        window.add(3.0, 0);
        assert_eq!(window.total(0), 2);
        window.slide(30.5);
        assert_eq!(window.total(0), 0);
    }

    #[test]
    fn clear_forgets_and_keeps_the_length() {
        let mut window = SlidingWindow::<1>::new(10.0);
        window.add(1.0, 0);
        window.clear();
        assert_eq!(window.total(0), 0);
        window.add(50.0, 0);
        window.slide(59.9);
        assert_eq!(window.total(0), 1);
        window.slide(60.6);
        assert_eq!(window.total(0), 0);
    }
}
