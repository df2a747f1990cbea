//! Storage whose size follows the work in flight: a [`Slab`] reuses the
//! slots it freed, and a [`SideTable`] keeps more data beside a slab's
//! slots, under the same indices.

use std::ops::{Index, IndexMut};

/// Values under `u32` indices; a freed index is handed out again before the
/// slab grows, so its size is the most values alive at once.
#[derive(Debug)]
pub(super) struct Slab<T> {
    slots: Vec<T>,
    free: Vec<u32>,
}

impl<T> Default for Slab<T> {
    fn default() -> Self {
        Self {
            slots: Vec::new(),
            free: Vec::new(),
        }
    }
}

impl<T> Slab<T> {
    /// Stores `value(previous)` and returns its index: in a freed slot,
    /// whose last value `previous` is, or else in a new one (`None`).
    #[inline(always)] // speed: hot
    pub fn insert_with(&mut self, value: impl FnOnce(Option<&T>) -> T) -> u32 {
        match self.free.pop() {
            Some(index) => {
                let slot = &mut self.slots[index as usize];
                *slot = value(Some(slot));
                index
            }
            None => {
                self.slots.push(value(None));
                (self.slots.len() - 1) as u32
            }
        }
    }

    /// Stores `value` and returns its index.
    #[inline(always)] // speed: hot
    pub fn insert(&mut self, value: T) -> u32 {
        self.insert_with(|_| value)
    }

    /// Slots in use or freed: the most values alive at once.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Hands `index` out again; its value stays readable until then.
    #[inline(always)] // speed: hot
    pub fn free(&mut self, index: u32) {
        self.free.push(index);
    }
}

impl<T> Index<u32> for Slab<T> {
    type Output = T;

    #[inline(always)] // speed: hot
    fn index(&self, index: u32) -> &T {
        &self.slots[index as usize]
    }
}

impl<T> IndexMut<u32> for Slab<T> {
    #[inline(always)] // speed: hot
    fn index_mut(&mut self, index: u32) -> &mut T {
        &mut self.slots[index as usize]
    }
}

/// Data kept beside some of a slab's slots, under the same indices, so that
/// what every run reads of a slot stays small. Indices never written hold
/// copies of a later value, never read.
#[derive(Debug)]
pub(super) struct SideTable<T>(Vec<T>);

impl<T> Default for SideTable<T> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<T: Clone> SideTable<T> {
    /// Stores `value` under `index`.
    #[inline(always)] // speed: hot
    pub fn put(&mut self, index: u32, value: T) {
        match self.0.get_mut(index as usize) {
            Some(slot) => *slot = value,
            None => self.0.resize(index as usize + 1, value),
        }
    }
}

impl<T> SideTable<T> {
    /// Indices the table reaches: at most the slab's length.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The value under `index`, if the table reaches that far.
    #[inline(always)] // speed: hot
    pub fn get(&self, index: u32) -> Option<&T> {
        self.0.get(index as usize)
    }

    #[inline(always)] // speed: hot
    pub fn get_mut(&mut self, index: u32) -> Option<&mut T> {
        self.0.get_mut(index as usize)
    }
}

impl<T> Index<u32> for SideTable<T> {
    type Output = T;

    #[inline(always)] // speed: hot
    fn index(&self, index: u32) -> &T {
        &self.0[index as usize]
    }
}

impl<T> IndexMut<u32> for SideTable<T> {
    #[inline(always)] // speed: hot
    fn index_mut(&mut self, index: u32) -> &mut T {
        &mut self.0[index as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn freed_slots_are_reused_and_see_their_last_value() {
        let mut slab = Slab::default();
        let (a, b) = (slab.insert(10), slab.insert(20));
        assert_eq!((a, b), (0, 1));
        slab.free(a);
        let reused = slab.insert_with(|previous| previous.map_or(0, |v| v + 1));
        assert_eq!((reused, slab[reused]), (a, 11));
        let fresh = slab.insert_with(|previous| previous.map_or(-1, |v| v + 1));
        assert_eq!((fresh, slab[fresh]), (2, -1));
    }

    #[test]
    fn a_side_table_fills_gaps_and_overwrites() {
        let mut table = SideTable::default();
        table.put(2, 'c');
        table.put(0, 'a');
        assert_eq!(
            (table[0], table.get(2), table.get(3)),
            ('a', Some(&'c'), None)
        );
    }
}
