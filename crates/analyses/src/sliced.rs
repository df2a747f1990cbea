//! The one way every long computation goes a slice at a time: asked for
//! about so much work (the unit of [`sim::Run::advance`](retry_sim::sim::Run::advance)),
//! it says whether it is still working, ended a unit (a run, a cell of the
//! map, a point of the sweep) or is done. The page's job drives every
//! analysis by this alone.
//!
//! The sweep ([`crate::sweep`]'s points, run by the page's job), the
//! contention grid ([`crate::contention::GridRuns`]), the other seeds
//! ([`crate::seeds::SeedRuns`]), the map ([`crate::map::MapRuns`]) and the
//! search ([`crate::search::SearchRuns`]) each implement [`Sliced`].

/// What a slice of a long computation did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slice {
    /// Worked its slice; no unit ended.
    Working,
    /// A unit ended, and more are left.
    Unit,
    /// The last unit ended: everything is done. Asked again, it does
    /// nothing and says so again.
    Done,
}

impl Slice {
    /// The slice after which everything is `done`, or else in which a unit
    /// ended (`unit_ended`) or none did.
    pub fn of(done: bool, unit_ended: bool) -> Slice {
        match (done, unit_ended) {
            (true, _) => Slice::Done,
            (false, true) => Slice::Unit,
            (false, false) => Slice::Working,
        }
    }
}

/// A long computation that goes a slice of work at a time.
pub trait Sliced {
    /// Works about `work` units of a run's work.
    fn step(&mut self, work: u64) -> Slice;

    /// Whether everything is done: a step would do nothing.
    fn done(&self) -> bool;

    /// Works until everything is done.
    fn to_end(&mut self) {
        while self.step(u64::MAX) != Slice::Done {}
    }
}
