//! The lesson area: the preset list, the lesson of the current settings,
//! its "try this" buttons, and what it puts first.

use crate::chart_id::ChartId;
use crate::config::{Config, Group};
use crate::lesson;
use crate::metrics::Metric;
use crate::presets::{Expect, PRESETS, Preset};

/// The lesson line when the settings are no preset's.
pub const OWN_SETTINGS: &str =
    "Your own settings: pick a preset above to start from a lesson again.";

/// One entry of the preset list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PresetOption {
    pub value: String,
    pub title: &'static str,
    /// The entry that names settings of one's own: shown, never chosen.
    pub disabled: bool,
}

/// The value of the preset list's entry for settings of one's own.
const CUSTOM: &str = "custom";

/// The preset list: every preset by its index, then one's own settings.
pub fn preset_options() -> Vec<PresetOption> {
    let mut options = Vec::with_capacity(PRESETS.len() + 1);
    for (index, preset) in PRESETS.iter().enumerate() {
        options.push(PresetOption {
            value: index.to_string(),
            title: preset.title,
            disabled: false,
        });
    }
    options.push(PresetOption {
        value: CUSTOM.to_string(),
        title: "(your own settings)",
        disabled: true,
    });
    options
}

/// The preset a value of the preset list names, if any.
pub fn chosen_preset(value: &str) -> Option<&'static Preset> {
    value.parse::<usize>().ok().and_then(|i| PRESETS.get(i))
}

/// The numbers beside the chart when the settings are far from every
/// preset: what the users got, what it cost the server, how long it took.
pub const OWN_HEADLINE: &[Metric] = &[Metric::Success, Metric::LoadAmplification, Metric::P99];

/// The lesson's chart when the settings are far from every preset.
pub const OWN_KEY_CHART: ChartId = ChartId::Load;

/// The groups of controls open when the settings are far from every preset.
pub const OWN_OPEN: &[Group] = &[Group::Policy];

/// A "try this" button.
#[derive(Debug, Clone, PartialEq)]
pub struct TryButton {
    pub label: &'static str,
    /// The link pairs it applies on top of the current settings.
    pub change: &'static str,
    /// Already applied: pressing it again would change nothing.
    pub applied: bool,
    pub expect: &'static Expect,
}

/// What the lesson area shows for the current settings, and what the
/// lesson puts first: its chart, its numbers, its controls.
#[derive(Debug, Clone, PartialEq)]
pub struct LessonView {
    /// The preset list's value: the lesson's preset, or one's own.
    pub preset: String,
    /// The lesson's title, in full (the list may be too narrow for it).
    pub title: &'static str,
    pub text: &'static str,
    /// "You changed 2 settings", while the settings are not the preset's.
    pub status: Option<String>,
    pub try_this: Vec<TryButton>,
    /// The lesson's chart.
    pub key_chart: ChartId,
    pub headline: &'static [Metric],
    pub open: &'static [Group],
}

/// The lesson of `origin` (the preset the learner picked or opened), or of
/// the preset the settings are or are near; else a line saying the
/// settings are one's own.
pub fn lesson_view(origin: Option<&'static Preset>, config: &Config) -> LessonView {
    let Some(state) = lesson::lesson_state(origin, config) else {
        return LessonView {
            preset: CUSTOM.to_string(),
            title: "",
            text: OWN_SETTINGS,
            status: None,
            try_this: Vec::new(),
            key_chart: OWN_KEY_CHART,
            headline: OWN_HEADLINE,
            open: OWN_OPEN,
        };
    };
    let preset = state.preset;
    let index = PRESETS.iter().position(|p| std::ptr::eq(p, preset));
    LessonView {
        preset: index.map_or(CUSTOM.to_string(), |i| i.to_string()),
        title: preset.title,
        text: preset.lesson,
        status: state.status(),
        try_this: preset
            .try_this
            .iter()
            .map(|t| TryButton {
                label: t.label,
                change: t.change,
                applied: lesson::apply(config, t.change) == *config,
                expect: &t.expect,
            })
            .collect(),
        key_chart: preset.key_chart,
        headline: preset.headline,
        open: preset.open,
    }
}

/// The preset a page opened on a link teaches: the one the settings are,
/// or the nearest within a few changes; it keeps teaching while the
/// learner plays.
pub fn opened_preset(config: &Config) -> Option<&'static Preset> {
    lesson::lesson_state(None, config).map(|s| s.preset)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::P;
    use crate::lesson;
    use crate::presets::PRESETS;
    use crate::view::fixtures::{config, preset};

    #[test]
    fn preset_list_ends_with_ones_own_settings() {
        let options = preset_options();
        assert_eq!(options.len(), PRESETS.len() + 1);
        assert_eq!(
            options[0],
            PresetOption {
                value: "0".to_string(),
                title: PRESETS[0].title,
                disabled: false
            }
        );
        let last = options.last().expect("not empty");
        assert_eq!(
            (last.value.as_str(), last.title, last.disabled),
            ("custom", "(your own settings)", true)
        );
        assert!(std::ptr::eq(
            chosen_preset("4").expect("a preset"),
            &PRESETS[4]
        ));
        assert!(chosen_preset("custom").is_none());
        assert!(chosen_preset(&PRESETS.len().to_string()).is_none());
    }

    #[test]
    fn a_presets_lesson_shows_its_title_chart_numbers_and_changes() {
        let budget = preset("budget");
        let index = PRESETS
            .iter()
            .position(|p| p.key == "budget")
            .expect("the preset exists");
        let view = lesson_view(Some(budget), &budget.config());
        assert_eq!(view.preset, index.to_string());
        assert_eq!((view.title, view.text), (budget.title, budget.lesson));
        assert_eq!(view.status, None);
        assert_eq!(view.key_chart, budget.key_chart);
        assert_eq!(view.headline, budget.headline);
        assert_eq!(view.open, budget.open);
        let buttons: Vec<(&str, &str, bool)> = view
            .try_this
            .iter()
            .map(|b| (b.label, b.change, b.applied))
            .collect();
        assert_eq!(
            buttons,
            [(budget.try_this[0].label, budget.try_this[0].change, false)]
        );
    }

    #[test]
    fn the_lesson_stays_while_the_learner_follows_it() {
        let budget = preset("budget");
        let change = budget.try_this[0].change;
        let tried = lesson::apply(&budget.config(), change);
        let view = lesson_view(Some(budget), &tried);
        assert_eq!(view.text, budget.lesson, "the lesson stays");
        assert_eq!(view.status.as_deref(), Some("You changed 1 setting"));
        assert!(
            view.try_this[0].applied,
            "pressing it again changes nothing"
        );
        // Far from every preset, with no preset picked: one's own settings.
        let far = lesson::apply(&tried, "rate=7&horizon=9&clients=5&layers=2&failure=0.3");
        let own = lesson_view(None, &far);
        assert_eq!(
            (own.preset.as_str(), own.title, own.text),
            ("custom", "", OWN_SETTINGS)
        );
        assert_eq!(own.try_this, []);
        assert_eq!(own.key_chart, ChartId::Load);
        // Picked, the preset's lesson stays however far the learner went.
        assert_eq!(lesson_view(Some(budget), &far).text, budget.lesson);
    }

    #[test]
    fn a_link_near_a_preset_opens_its_lesson() {
        let herd = preset("herd");
        let mut reseeded = herd.config();
        reseeded.set(P::Seed, 4.0);
        assert!(std::ptr::eq(
            opened_preset(&reseeded).expect("near the herd"),
            herd
        ));
        assert!(opened_preset(&config("v=1&rate=3&horizon=4&layers=2&failure=0.2")).is_none());
    }
}
