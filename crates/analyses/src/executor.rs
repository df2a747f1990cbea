//! The one way an analysis of independent runs (the search's rounds, the
//! stress report's faults) spreads them over workers: each item is taken by
//! whichever worker is free, answers come back in whatever order they
//! finish, and [`Answers`] puts each in its item's place, so the result is
//! the same bit for bit on any number of workers. The command line's
//! threads use [`run_all`]; the page's web workers, which answer by
//! message, take their items from a [`Handout`].

use std::sync::atomic::{AtomicUsize, Ordering};

/// Answers to a plan of `len` items, arriving in any order, each kept at
/// its item's index.
#[derive(Debug, Clone, PartialEq)]
pub struct Answers<R> {
    slots: Vec<Option<R>>,
    filled: usize,
}

impl<R> Answers<R> {
    pub fn new(len: usize) -> Answers<R> {
        Answers {
            slots: std::iter::repeat_with(|| None).take(len).collect(),
            filled: 0,
        }
    }

    /// Keeps `answer` as item `index`'s; an index outside the plan, or one
    /// answered already (a worker's message repeated), changes nothing.
    /// True when it was kept.
    pub fn put(&mut self, index: usize, answer: R) -> bool {
        match self.slots.get_mut(index) {
            Some(slot @ None) => {
                *slot = Some(answer);
                self.filled += 1;
                true
            }
            _ => false,
        }
    }

    /// How many items have their answer.
    pub fn filled(&self) -> usize {
        self.filled
    }

    pub fn is_complete(&self) -> bool {
        self.filled == self.slots.len()
    }

    /// Every answer in the plan's order, once all came.
    pub fn into_ordered(self) -> Option<Vec<R>> {
        self.slots.into_iter().collect()
    }

    /// Each item's answer or none yet, in the plan's order.
    pub fn slots(&self) -> &[Option<R>] {
        &self.slots
    }
}

/// A plan handed out to workers that answer by message (the page's web
/// workers): each idle worker is given the next item not yet taken, and
/// its answer is kept at that item's index, whatever order they come in.
#[derive(Debug, Clone, PartialEq)]
pub struct Handout<T, R> {
    plan: Vec<T>,
    answers: Answers<R>,
    next: usize,
    /// Items whose answer was refused, to be handed out again first.
    again: Vec<usize>,
    /// The item each worker runs.
    running: Vec<Option<usize>>,
}

impl<T, R> Handout<T, R> {
    pub fn new(plan: Vec<T>, workers: usize) -> Handout<T, R> {
        Handout {
            answers: Answers::new(plan.len()),
            plan,
            next: 0,
            again: Vec::new(),
            running: vec![None; workers],
        }
    }

    pub fn plan(&self) -> &[T] {
        &self.plan
    }

    pub fn answers(&self) -> &Answers<R> {
        &self.answers
    }

    /// The item `worker` takes now, if it is idle and an item is left.
    pub fn next_for(&mut self, worker: usize) -> Option<&T> {
        if self.running.get(worker)?.is_some() {
            return None;
        }
        let index = match self.again.pop() {
            Some(index) => index,
            None if self.next < self.plan.len() => {
                self.next += 1;
                self.next - 1
            }
            None => return None,
        };
        self.running[worker] = Some(index);
        self.plan.get(index)
    }

    /// `worker` answered: its answer is kept at the item it was given if
    /// `fits` holds of them (the answer is of that item); else the item
    /// is handed out again, and it says why (as when the worker was given
    /// none). The worker is idle again either way.
    pub fn answered(
        &mut self,
        worker: usize,
        answer: R,
        fits: impl Fn(&T, &R) -> bool,
    ) -> Result<usize, String> {
        let index = self
            .running
            .get_mut(worker)
            .and_then(Option::take)
            .ok_or_else(|| format!("worker {worker} answered without an item"))?;
        if !fits(&self.plan[index], &answer) {
            self.again.push(index);
            return Err(format!(
                "worker {worker} answered for another item than {index}"
            ));
        }
        self.answers.put(index, answer);
        Ok(index)
    }
}

/// Runs `work` on every item on `workers` threads (one where there are no
/// threads, as in WebAssembly) and returns the answers in the items' order.
/// A worker takes the next item not yet taken, so the items finish out of
/// order; the answers do not depend on it.
pub fn run_all<T: Sync, R: Send>(
    items: &[T],
    workers: usize,
    work: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let workers = if cfg!(target_arch = "wasm32") {
        1
    } else {
        workers.clamp(1, items.len().max(1))
    };
    if workers == 1 {
        return items.iter().map(work).collect();
    }
    let next = AtomicUsize::new(0);
    let answered: Vec<(usize, R)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(index) else {
                            return mine;
                        };
                        mine.push((index, work(item)));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a worker does not panic"))
            .collect()
    });
    let mut answers = Answers::new(items.len());
    for (index, answer) in answered {
        answers.put(index, answer);
    }
    answers
        .into_ordered()
        .expect("every item was taken by a worker")
}

/// The workers this machine offers: every core it reports.
pub fn every_core() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Answers delivered backwards, shuffled or forwards give the same
    /// vector; a repeated or foreign index is refused.
    #[test]
    fn answers_out_of_order_land_in_their_places() {
        let values: Vec<u64> = (0..50).map(|i| i * i + 7).collect();
        let orders: [Vec<usize>; 3] = [
            (0..50).collect(),
            (0..50).rev().collect(),
            (0..50).map(|i| (i * 17) % 50).collect(),
        ];
        for order in orders {
            let mut answers = Answers::new(values.len());
            for (k, &i) in order.iter().enumerate() {
                assert!(!answers.is_complete());
                assert!(answers.put(i, values[i]));
                assert!(!answers.put(i, 0), "a repeated answer is refused");
                assert_eq!(answers.filled(), k + 1);
            }
            assert!(!answers.put(50, 0), "no item 50");
            assert!(answers.is_complete());
            assert_eq!(answers.into_ordered(), Some(values.clone()));
        }
        let partial: Answers<u8> = Answers::new(2);
        assert_eq!(partial.into_ordered(), None);
    }

    /// Three workers that answer in turn, last given first: the answers
    /// land where `run_all` puts them; an answer from a worker with no
    /// item, or for another item, is refused.
    #[test]
    fn a_handout_keeps_answers_by_message_in_their_places() {
        let plan: Vec<u64> = (0..10).map(|i| i * 3 + 1).collect();
        let work = |n: &u64| n * n;
        let mut handout: Handout<u64, u64> = Handout::new(plan.clone(), 3);
        assert!(handout.answered(0, 1, |_, _| true).is_err(), "no item yet");
        let mut given: Vec<(usize, u64)> = Vec::new();
        while !handout.answers().is_complete() {
            for worker in 0..3 {
                if let Some(&item) = handout.next_for(worker) {
                    given.push((worker, item));
                }
            }
            // The last worker given an item answers first, wrongly once:
            // its item comes back to it.
            let (worker, item) = given.pop().expect("an item is out");
            assert!(
                handout
                    .answered(worker, work(&item) + 1, |t, r| *r == work(t))
                    .is_err()
            );
            assert_eq!(handout.next_for(worker), Some(&item));
            assert!(
                handout
                    .answered(worker, work(&item), |t, r| *r == work(t))
                    .is_ok()
            );
        }
        assert_eq!(handout.next_for(0), None, "nothing is left");
        assert_eq!(
            handout.answers().clone().into_ordered(),
            Some(run_all(&plan, 2, work))
        );
    }

    /// Items of very different cost on 1, 2 and 4 workers: the slow ones
    /// finish last, the answers are the same, in the items' order.
    #[test]
    fn any_number_of_workers_gives_the_same_answers() {
        let items: Vec<u64> = (0..40)
            .map(|i| if i % 7 == 0 { 200_000 } else { i })
            .collect();
        let work = |&n: &u64| (0..n).fold(n, |acc, k| acc.wrapping_mul(31).wrapping_add(k));
        let one = run_all(&items, 1, work);
        assert_eq!(one.len(), items.len());
        for workers in [2, 4, 64] {
            assert_eq!(run_all(&items, workers, work), one, "{workers} workers");
        }
        assert_eq!(run_all(&[] as &[u64], 4, work), Vec::<u64>::new());
    }
}
