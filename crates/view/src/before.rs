//! The state a change replaced, for the lesson's chart: which state is the
//! ghost the chart draws faint after "try this" or a moved control, and
//! the axes it was drawn on, kept while the new data fits
//! (`chart::Before`).
//!
//! Kept for the key chart only: the job (`super::jobs`) holds one state,
//! and a page opened on a link has nothing before it. A state becomes
//! "shown" once its final data is drawn; the one shown before it is then
//! the ghost, as long as both are of the same lesson and chart (a preset
//! picked is a new picture, not a change). Plain data, generic over what
//! a chart is drawn from, so the page only hands it what it drew.

use retry_core::chart_id::ChartId;
use retry_draw::Axes;
use retry_sim::config::{Config, State};

/// One state as its key chart was drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct Drawn<D> {
    /// The state drawn, as a value.
    pub state: State,
    /// The lesson it is a state of.
    pub lesson: Option<&'static str>,
    pub chart: ChartId,
    pub data: D,
    pub axes: Option<Axes>,
}

/// The state shown and the one before it, and the layers view's scale.
#[derive(Debug, Clone, PartialEq)]
pub struct Memory<D> {
    shown: Option<Drawn<D>>,
    before: Option<Drawn<D>>,
    /// The calls-per-layer scale the layers view was drawn on, with its
    /// lesson.
    layers: Option<(Option<&'static str>, f64)>,
}

impl<D> Default for Memory<D> {
    fn default() -> Self {
        Memory {
            shown: None,
            before: None,
            layers: None,
        }
    }
}

impl<D> Memory<D> {
    /// What stands before state `config` of `chart` in `lesson`: the
    /// state shown while `config` is not drawn yet, else the one it
    /// replaced.
    pub fn ghost(
        &self,
        config: &Config,
        chart: ChartId,
        lesson: Option<&'static str>,
    ) -> Option<&Drawn<D>> {
        let candidate = match &self.shown {
            Some(shown) if shown.state.is(config) => self.before.as_ref(),
            shown => shown.as_ref(),
        };
        candidate.filter(|d| d.chart == chart && d.lesson == lesson)
    }

    /// State `config` of `chart` is drawn from final data: the state shown
    /// until now becomes the one before it. Drawn again, a state keeps its
    /// place; `refresh` says whether its data is replaced (a sweep's
    /// curves grow point by point).
    pub fn arrive(
        &mut self,
        config: &Config,
        chart: ChartId,
        lesson: Option<&'static str>,
        refresh: impl Fn(&D) -> bool,
        data: impl FnOnce() -> D,
    ) {
        if let Some(shown) = self
            .shown
            .as_mut()
            .filter(|s| s.state.is(config) && s.chart == chart)
        {
            if refresh(&shown.data) {
                shown.data = data();
            }
            return;
        }
        let old = self.shown.take();
        self.before = old.filter(|o| o.chart == chart && o.lesson == lesson);
        self.shown = Some(Drawn {
            state: State::of(config),
            lesson,
            chart,
            data: data(),
            axes: None,
        });
    }

    /// The axes state `config` of `chart` was drawn on, once it is the
    /// one shown.
    pub fn keep(&mut self, config: &Config, chart: ChartId, axes: Option<Axes>) {
        if let Some(shown) = self
            .shown
            .as_mut()
            .filter(|s| s.state.is(config) && s.chart == chart)
        {
            shown.axes = axes.or(shown.axes);
        }
    }

    /// The scale the layers view of `lesson` keeps: the one it was drawn
    /// on before, while it is of the same lesson (0: none).
    pub fn layers_scale(&self, lesson: Option<&'static str>) -> f64 {
        match self.layers {
            Some((was, scale)) if was == lesson => scale,
            _ => 0.0,
        }
    }

    /// The layers view of `lesson` was drawn on `scale`.
    pub fn layers_drawn(&mut self, lesson: Option<&'static str>, scale: f64) {
        self.layers = Some((lesson, scale));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HERD: Option<&str> = Some("herd");

    /// A state of its own for each name.
    fn s(name: &str) -> Config {
        let rate = f64::from(name.as_bytes()[0]);
        Config::from_link(&format!("v=1&rate={rate}")).0
    }

    fn memory() -> Memory<u32> {
        let mut memory = Memory::default();
        memory.arrive(&s("a"), ChartId::Load, HERD, |_| false, || 1);
        memory
    }

    #[test]
    fn the_state_shown_before_a_change_is_its_ghost() {
        let mut memory = memory();
        // While the new state is not drawn yet, the one shown is its ghost;
        // once it is, the one it replaced.
        assert_eq!(
            memory.ghost(&s("b"), ChartId::Load, HERD).map(|d| d.data),
            Some(1)
        );
        assert!(memory.ghost(&s("a"), ChartId::Load, HERD).is_none());
        memory.arrive(&s("b"), ChartId::Load, HERD, |_| false, || 2);
        assert_eq!(
            memory.ghost(&s("b"), ChartId::Load, HERD).map(|d| d.data),
            Some(1)
        );
        assert_eq!(
            memory.ghost(&s("c"), ChartId::Load, HERD).map(|d| d.data),
            Some(2)
        );
    }

    /// A state is its meaning: a policy B kept while compare mode is off
    /// is no part of it, so the state shown stays shown.
    #[test]
    fn a_state_is_a_value_not_its_text() {
        let mut memory = memory();
        let mut kept_b = s("a");
        kept_b.set_b_at(retry_sim::config::P::Attempts as usize, 7.0);
        assert!(!kept_b.comparing());
        assert_ne!(kept_b, s("a"), "two values");
        memory.arrive(&kept_b, ChartId::Load, HERD, |_| false, || 5);
        assert!(
            memory.ghost(&s("a"), ChartId::Load, HERD).is_none(),
            "one state"
        );
    }

    #[test]
    fn another_lesson_or_chart_has_no_ghost() {
        let mut memory = memory();
        assert!(
            memory
                .ghost(&s("b"), ChartId::Load, Some("storm"))
                .is_none()
        );
        assert!(memory.ghost(&s("b"), ChartId::Latency, HERD).is_none());
        // A preset picked: a new picture, with nothing before it.
        memory.arrive(&s("s"), ChartId::Mechanism, Some("storm"), |_| false, || 3);
        assert!(
            memory
                .ghost(&s("s"), ChartId::Mechanism, Some("storm"))
                .is_none()
        );
    }

    #[test]
    fn a_state_drawn_again_keeps_its_place_and_its_axes() {
        let mut memory = memory();
        let axes = Axes::default();
        memory.keep(&s("a"), ChartId::Load, Some(axes));
        memory.keep(&s("a"), ChartId::Load, None);
        memory.arrive(&s("a"), ChartId::Load, HERD, |_| false, || 9);
        let shown = memory.ghost(&s("b"), ChartId::Load, HERD).expect("a ghost");
        assert_eq!((shown.data, shown.axes), (1, Some(axes)));
        // Growing data (a sweep) is replaced in place.
        memory.arrive(&s("a"), ChartId::Load, HERD, |_| true, || 9);
        assert_eq!(
            memory.ghost(&s("b"), ChartId::Load, HERD).map(|d| d.data),
            Some(9)
        );
        // Axes of a state not shown are not kept.
        let other = Axes {
            tops: [5.0, 0.0],
            floor: 0.0,
        };
        memory.keep(&s("z"), ChartId::Load, Some(other));
        let shown = memory.ghost(&s("b"), ChartId::Load, HERD).expect("a ghost");
        assert_eq!(shown.axes, Some(axes));
    }

    #[test]
    fn the_layers_keep_their_scale_within_a_lesson() {
        let mut memory: Memory<u32> = Memory::default();
        assert_eq!(memory.layers_scale(Some("layers")), 0.0);
        memory.layers_drawn(Some("layers"), 27.0);
        assert_eq!(memory.layers_scale(Some("layers")), 27.0);
        assert_eq!(memory.layers_scale(None), 0.0);
    }
}
