//! Sorting by insertion, for the page's lists: core's sorts bring 2 to 4
//! KB of code per element type into the page, a lot for a chart's rows or
//! a search's thousand candidates, which insertion sorts in well under a
//! millisecond (about n²/4 moves).

use std::cmp::Ordering;

/// Sorts `items` in place, stably, by `order`.
pub fn sort_by<T>(items: &mut [T], order: impl Fn(&T, &T) -> Ordering) {
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && order(&items[j - 1], &items[j]) == Ordering::Greater {
            items.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Sorts `items` in place, stably, by `key`.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_stably() {
        let mut items = [(3, 'a'), (1, 'b'), (3, 'c'), (2, 'd'), (1, 'e')];
        sort_by_key(&mut items, |&(k, _)| k);
        assert_eq!(items, [(1, 'b'), (1, 'e'), (2, 'd'), (3, 'a'), (3, 'c')]);
        let mut numbers: Vec<u32> = (0..500).map(|i| (i * 7919) % 500).collect();
        sort_by(&mut numbers, |a, b| b.cmp(a));
        assert!(numbers.windows(2).all(|w| w[0] >= w[1]));
    }
}
