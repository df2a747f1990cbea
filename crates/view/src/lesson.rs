//! The lesson area: the preset list, the lesson of the current settings,
//! its "try this" buttons, and what it puts first.

use retry_core::chart_id::ChartId;
use retry_core::words::Text;
use retry_core::words::tr;
use retry_sim::config::{Config, Group};
use retry_sim::metrics::Metric;
use retry_sim::sim::Report;
use retry_teach::lesson;
use retry_teach::presets::{Expect, PRESETS, Preset};
use retry_teach::prose::{self, Facts};

/// The lesson line when the settings are no preset's.
pub const OWN_SETTINGS: Text =
    Text("These settings are no preset's: pick one above to start from a lesson.");

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

/// The attribute of `<body>` that names the link whose lesson chart the
/// first chart's module (`first/`) drew: the page's module draws no chart
/// of that link half done over it, and takes the attribute away once its
/// own chart is final.
pub const FIRST_CHART_LINK: &str = "data-first-link";

/// The preset list's value for the lesson of `preset`: its index, or the
/// entry of one's own settings.
pub fn preset_value(preset: Option<&'static Preset>) -> String {
    let index = preset.and_then(|p| PRESETS.iter().position(|q| std::ptr::eq(p, q)));
    index.map_or(CUSTOM.to_string(), |i| i.to_string())
}

/// The preset list: every preset by its index, then one's own settings.
pub fn preset_options() -> Vec<PresetOption> {
    let mut options = Vec::with_capacity(PRESETS.len() + 1);
    for (index, preset) in PRESETS.iter().enumerate() {
        options.push(PresetOption {
            value: index.to_string(),
            title: preset.title.get(),
            disabled: false,
        });
    }
    options.push(PresetOption {
        value: CUSTOM.to_string(),
        title: tr("(your own settings)"),
        disabled: true,
    });
    options
}

/// The preset a value of the preset list names, if any.
pub fn chosen_preset(value: &str) -> Option<&'static Preset> {
    value.parse::<usize>().ok().and_then(|i| PRESETS.get(i))
}

use retry_teach::lesson::OWN_HEADLINE;

/// The lesson's chart when the settings are far from every preset.
pub const OWN_KEY_CHART: ChartId = ChartId::Load;

/// The groups of controls open when the settings are far from every preset.
pub const OWN_OPEN: &[Group] = &[Group::Policy];

/// A "try this" button.
#[derive(Debug, Clone, PartialEq)]
pub struct TryButton {
    /// Its text, its numbers those of the settings it leads to.
    pub label: String,
    /// The link pairs it applies on top of the current settings.
    pub change: &'static str,
    /// Already applied: pressing it again would change nothing.
    pub applied: bool,
    pub expect: &'static Expect,
}

impl LessonView {
    /// The numbers its "try this" buttons promise to move: headlines
    /// that stay however alike the policies are before the change.
    pub fn moved(&self) -> Vec<Metric> {
        self.try_this.iter().map(|t| t.expect.metric).collect()
    }
}

/// What the lesson area shows for the current settings, and what the
/// lesson puts first: its chart, its numbers, its controls.
#[derive(Debug, Clone, PartialEq)]
pub struct LessonView {
    /// The preset list's value: the lesson's preset, or one's own.
    pub preset: String,
    /// The lesson's title, in full (the list may be too narrow for it).
    pub title: &'static str,
    /// The lesson's text from the settings alone, its report numbers "…"
    /// until the runs give them ([`lesson_text`]).
    pub text: String,
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
            preset: preset_value(None),
            title: "",
            text: OWN_SETTINGS.to_string(),
            status: None,
            try_this: Vec::new(),
            key_chart: OWN_KEY_CHART,
            headline: OWN_HEADLINE,
            open: OWN_OPEN,
        };
    };
    let preset = state.preset;
    LessonView {
        preset: preset_value(Some(preset)),
        title: preset.title.get(),
        text: prose::lesson(preset.lesson.get(), &Facts::settings(config)).text,
        status: state.status(),
        try_this: preset
            .try_this
            .iter()
            .map(|t| {
                let tried = lesson::apply(config, t.change);
                TryButton {
                    label: prose::fill(t.label.get(), &Facts::settings(&tried)).text,
                    change: t.change,
                    applied: tried == *config,
                    expect: &t.expect,
                }
            })
            .collect(),
        key_chart: preset.key_chart,
        headline: preset.headline,
        open: preset.open,
    }
}

/// The lesson's text once the runs are done: every number filled from
/// the settings and from A's and B's reports on the link's seed, the
/// ones the charts draw, and every claim measured on them.
pub fn lesson_text(
    origin: Option<&'static Preset>,
    config: &Config,
    a: &Report,
    b: Option<&Report>,
) -> String {
    lesson_text_over(origin, config, a, b, None)
}

/// The same once the seeds are measured: a lead of one policy over the
/// other ("the tail is cut") is said where the seeds' verdict beside it
/// says so, not where the link's seed alone does.
pub fn lesson_text_over(
    origin: Option<&'static Preset>,
    config: &Config,
    a: &Report,
    b: Option<&Report>,
    seeds: Option<&retry_analyses::seeds::Seeds>,
) -> String {
    match lesson::lesson_state(origin, config) {
        Some(state) => {
            let facts = Facts::runs(config, a, b).over(seeds);
            prose::lesson(state.preset.lesson.get(), &facts).text
        }
        None => OWN_SETTINGS.to_string(),
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
    use crate::fixtures::{config, preset};
    use retry_sim::config::P;
    use retry_sim::simulate;
    use retry_teach::lesson;
    use retry_teach::presets::PRESETS;

    #[test]
    fn preset_list_ends_with_ones_own_settings() {
        let options = preset_options();
        assert_eq!(options.len(), PRESETS.len() + 1);
        assert_eq!(
            options[0],
            PresetOption {
                value: "0".to_string(),
                title: PRESETS[0].title.0,
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
        assert_eq!(view.title, budget.title.0);
        assert_eq!(
            view.text,
            prose::fill(budget.lesson.0, &Facts::settings(&budget.config())).text
        );
        // Its report numbers wait for the runs.
        assert!(view.text.contains("; here \u{2026}."), "{}", view.text);
        assert_eq!(view.status, None);
        assert_eq!(view.key_chart, budget.key_chart);
        assert_eq!(view.headline, budget.headline);
        assert_eq!(view.open, budget.open);
        let buttons: Vec<(&str, &str, bool)> = view
            .try_this
            .iter()
            .map(|b| (b.label.as_str(), b.change, b.applied))
            .collect();
        assert_eq!(
            buttons,
            [(budget.try_this[0].label.0, budget.try_this[0].change, false)]
        );
    }

    #[test]
    fn the_lesson_stays_while_the_learner_follows_it() {
        let budget = preset("budget");
        let change = budget.try_this[0].change;
        let tried = lesson::apply(&budget.config(), change);
        let view = lesson_view(Some(budget), &tried);
        assert_eq!(view.title, budget.title.0, "the lesson stays");
        // It says what now holds: B has a token bucket, not a ratio budget.
        assert!(
            view.text.contains("now has gRPC's token bucket"),
            "{}",
            view.text
        );
        assert_eq!(view.status.as_deref(), Some("You changed 1 setting"));
        assert!(
            view.try_this[0].applied,
            "pressing it again changes nothing"
        );
        // Far from every preset, with no preset picked: one's own settings.
        let far = lesson::apply(&tried, "rate=7&horizon=9&clients=5&layers=2&failure=0.3");
        let own = lesson_view(None, &far);
        assert_eq!(
            (own.preset.as_str(), own.title, own.text.as_str()),
            ("custom", "", OWN_SETTINGS.0)
        );
        assert_eq!(own.try_this, []);
        assert_eq!(own.key_chart, ChartId::Load);
        // Picked, the preset's lesson stays however far the learner went.
        assert_eq!(lesson_view(Some(budget), &far).title, budget.title.0);
    }

    /// The numbers of a text in order, each with its decimals: a run of
    /// digits, maybe with a decimal point, that is not part of a word
    /// ("p99", "gRPC").
    fn numbers_in(text: &str) -> Vec<(f64, usize)> {
        let chars: Vec<char> = text.chars().collect();
        let mut numbers = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let in_word = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '.');
            if !chars[i].is_ascii_digit() || in_word {
                i += 1;
                continue;
            }
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let mut decimals = 0;
            if i + 1 < chars.len() && chars[i] == '.' && chars[i + 1].is_ascii_digit() {
                i += 1;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                    decimals += 1;
                }
            }
            let digits: String = chars[start..i].iter().collect();
            numbers.push((digits.parse().expect("digits"), decimals));
        }
        numbers
    }

    /// What a filled number stands for, read again from the settings and
    /// the reports by their own paths, in the unit the text prints it in.
    fn truth(
        source: prose::Source,
        config: &Config,
        report: &retry_sim::sim::Report,
        world: &Config,
    ) -> f64 {
        use prose::{Fact, Source};
        use retry_sim::metrics::Format;
        match source {
            // A base delay above its cap is written as the cap it is cut to.
            Source::Param(P::Base) => config.get(P::Base).min(config.get(P::Cap)),
            Source::Param(p) => config.get(p),
            Source::Percent(p) => 100.0 * config.get(p),
            Source::StoppedAt => report.summary.cut.as_ref().map_or(f64::NAN, |c| c.at),
            Source::Metric(metric) => {
                let value = metric.value(report);
                match metric.number().format {
                    Format::Share => 100.0 * value,
                    _ => value,
                }
            }
            Source::Fact(Fact::BudgetBound) => {
                1.0 + config.get(P::BudgetPercent) + config.get(P::BudgetFloor) / world.get(P::Rate)
            }
            Source::Fact(Fact::QuotaRetries) => {
                (config.get(P::Quota) / config.get(P::QuotaCost)).floor()
            }
            Source::Fact(Fact::BucketFailures) => (config.get(P::Tokens) / 2.0).ceil(),
            Source::Fact(Fact::GridSeeds) => crate::jobs::CONTENTION_SEEDS as f64,
            // The classic sweep's "3 retries" strategies: 4 attempts.
            Source::Fact(Fact::ClassicRetries) => 3.0,
            // The p99 a log-normal time is set by (as its law clamps it),
            // or the quantile of the time's own law: a folded normal's
            // from the law, whose draws a test of its own holds it to.
            Source::Fact(Fact::ServiceP99) => service_quantile(world, 0.99),
            Source::Fact(Fact::ServiceP95) => service_quantile(world, 0.95),
            Source::Fact(Fact::Busy) => {
                100.0 * world.get(P::Rate) * world.scenario().service_mean()
                    / (world.get(P::Workers) * world.get(P::Servers))
            }
            Source::Fact(Fact::DropLost) => 100.0 * (1.0 - world.get(P::DropTo)),
            // The why-retry world's mix: 503s and 400s alone.
            Source::Fact(Fact::Permanent) => {
                100.0 * world.get(P::Mix400)
                    / (world.get(P::Mix400)
                        + world.get(P::Mix503)
                        + world.get(P::Mix429)
                        + world.get(P::Mix500))
            }
            Source::Fact(Fact::BDiffers) => (0..retry_sim::config::PARAMS.len())
                .filter(|&i| world.value_b_at(i) != world.value_at(i))
                .count() as f64,
            // A log-normal time of p50 m and p99 q has sigma = ln(q / m) /
            // 2.3263 (q clamped to [m, 100 m]) and mean m exp(sigma^2 / 2);
            // a folded normal's is its law's; every other shape's mean is
            // its setting.
            Source::Fact(Fact::ServiceMean) => match world.service_shape() {
                retry_sim::sim::ServiceShape::LogNormal => {
                    let m = world.get(P::ServiceP50);
                    let q = world.get(P::ServiceP99).clamp(m, 100.0 * m);
                    let sigma = (q / m).ln() / 2.3263;
                    m * (sigma * sigma / 2.0).exp()
                }
                retry_sim::sim::ServiceShape::Normal => world.scenario().service_mean(),
                retry_sim::sim::ServiceShape::Mixture => {
                    let share = world.get(P::TailShare);
                    world.get(P::ServiceTime) * (1.0 - share + share * world.get(P::TailFactor))
                }
                _ => world.get(P::ServiceTime),
            },
            // The fan-out preset's: a log-normal time, K calls.
            Source::Fact(Fact::PastP99) => 100.0 * (1.0 - 0.99f64.powf(config.get(P::FanOut))),
        }
    }

    /// A service time's quantile `q` from its settings: a constant's is
    /// its time, an exponential's `-t ln(1 - q)`, a log-normal's p99 the
    /// one it is set by (clamped to its span), every other its law's.
    fn service_quantile(world: &Config, q: f64) -> f64 {
        let t = world.get(P::ServiceTime);
        match world.service_shape() {
            retry_sim::sim::ServiceShape::Constant => t,
            retry_sim::sim::ServiceShape::Exponential => -t * (1.0 - q).ln(),
            retry_sim::sim::ServiceShape::LogNormal if q == 0.99 => {
                let m = world.get(P::ServiceP50);
                world.get(P::ServiceP99).clamp(m, 100.0 * m)
            }
            _ => retry_sim::sim::Law::service(&world.scenario()).quantile(q),
        }
    }

    /// Holds every number of `prose` to the value it was filled from, at
    /// the precision it is printed with, and to the order of the fills:
    /// a number typed into a template is one the fills do not have.
    fn check_numbers(what: &str, prose: &prose::Prose, config: &Config, reports: &Runs) {
        let wrong = number_errors(what, prose, config, reports);
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    /// What [`check_numbers`] finds wrong, each a line.
    fn number_errors(
        what: &str,
        prose: &prose::Prose,
        config: &Config,
        reports: &Runs,
    ) -> Vec<String> {
        let printed = numbers_in(&prose.text);
        if printed.len() != prose.numbers.len() {
            return vec![format!(
                "{what}: numbers in '{}' that were not filled in: {:?}",
                prose.text, prose.numbers
            )];
        }
        let mut wrong = Vec::new();
        for ((value, decimals), filled) in printed.iter().zip(&prose.numbers) {
            let (side_config, report) = match filled.side {
                retry_sim::metrics::Side::A => (config.clone(), &reports.0),
                retry_sim::metrics::Side::B => (
                    config.policy_b_config(),
                    reports.1.as_ref().unwrap_or(&reports.0),
                ),
            };
            let truth = truth(filled.source, &side_config, report, config);
            let step = 10f64.powi(-(*decimals as i32));
            if (value - truth).abs() > step / 2.0 + 1e-9 {
                wrong.push(format!(
                    "{what}: '{}' says {value} for {:?} of {:?}, which is {truth}",
                    prose.text, filled.source, filled.side
                ));
            }
        }
        wrong
    }

    type Runs = (retry_sim::sim::Report, Option<retry_sim::sim::Report>);

    /// Every number in every preset's lesson, and in every "try this"
    /// label, is the settings' or the runs' it stands for, to its printed
    /// precision: on the preset and after each of its "try this".
    #[test]
    fn every_number_in_a_lesson_is_the_runs_or_the_settings() {
        for preset in PRESETS {
            for template in
                std::iter::once(preset.lesson).chain(preset.try_this.iter().map(|t| t.label))
            {
                let text: String = template
                    .0
                    .split('{')
                    .map(|part| part.split_once('}').map_or(part, |(_, text)| text))
                    .collect();
                assert_eq!(
                    numbers_in(&text),
                    [],
                    "{}: a number typed into '{template}'",
                    preset.key
                );
                assert_eq!(
                    template.0.matches("{if ").count(),
                    template.0.matches("{end}").count(),
                    "{}: every {{if}} ends",
                    preset.key
                );
            }
            let mut states = vec![("as it is".to_string(), preset.config())];
            for try_this in preset.try_this {
                let tried = lesson::apply(&preset.config(), try_this.change);
                states.push((format!("after '{}'", try_this.label), tried));
            }
            for (when, config) in &states {
                let what = format!("{} {when}", preset.key);
                let runs = simulate::run_both(config);
                let facts = Facts::runs(config, &runs.0, runs.1.as_ref());
                let filled = prose::lesson(preset.lesson.0, &facts);
                assert!(
                    !filled.text.contains(['{', '}', '\u{2026}']),
                    "{what}: '{}'",
                    filled.text
                );
                assert_eq!(
                    filled.text,
                    lesson_text(Some(preset), config, &runs.0, runs.1.as_ref())
                );
                check_numbers(&what, &filled, config, &runs);
                for try_this in preset.try_this {
                    let tried = lesson::apply(config, try_this.change);
                    let label = prose::fill(try_this.label.0, &Facts::settings(&tried));
                    check_numbers(&what, &label, &tried, &simulate::run_both(&tried));
                }
            }
        }
    }

    /// The values a knob's test runs: both ends of its range and three
    /// between (in ratios where its slider moves in ratios), the value it
    /// has and, around it, where a reader nudges it first (half, 1.3
    /// times and twice: the timeout chapter's 0.35 s as 0.175, 0.455 and
    /// 0.7 s); every option of a choice.
    fn knob_values(p: P, now: f64) -> Vec<f64> {
        let param = p.param();
        let (min, max, whole) = match param.kind {
            retry_sim::config::Kind::Choice(words, _) => {
                return (0..words.len()).map(|i| i as f64).collect();
            }
            retry_sim::config::Kind::Number { min, max, .. } => (min, max, false),
            retry_sim::config::Kind::Integer { min, max } => (min, max, true),
        };
        let log = crate::controls::log_range(param).is_some();
        let mut values: Vec<f64> = (0..5)
            .map(|i| {
                let t = f64::from(i) / 4.0;
                let value = match log {
                    true => min * (max / min).powf(t),
                    false => min + (max - min) * t,
                };
                if whole { value.round() } else { value }
            })
            .collect();
        values.push(now);
        for nudge in [0.5, 1.3, 2.0] {
            let value = (now * nudge).clamp(min, max);
            values.push(if whole { value.round() } else { value });
        }
        values.dedup();
        values
    }

    /// Holds one filled lesson to its runs: every number is the runs' or
    /// the settings' (see `check_numbers`), and words that state a claim
    /// show only where that claim, measured on the runs, guards them.
    fn check_claims(what: &str, prose: &prose::Prose) -> Vec<String> {
        let unguarded = prose.unguarded().into_iter().map(|(claim, phrase)| {
            format!(
                "{what}: '{phrase}' ({claim:?}) is said where the runs do not bear it out: '{}'",
                prose.text
            )
        });
        let literal = prose.literal.iter().map(|(side, p, value)| {
            format!(
                "{what}: {side:?}'s {} = {value} is written as a number where it means something else: '{}'",
                p.param().key,
                prose.text
            )
        });
        unguarded.chain(literal).collect()
    }

    /// The states a reader reaches from a preset by one move: each "try
    /// this", and the first control of each group the lesson opens moved
    /// across its range.
    fn preset_moves(preset: &Preset) -> Vec<(String, Config)> {
        let start = preset.config();
        let mut states: Vec<(String, Config)> = preset
            .try_this
            .iter()
            .map(|t| {
                (
                    format!("after '{}'", t.change),
                    lesson::apply(&start, t.change),
                )
            })
            .collect();
        for group in preset.open {
            let shown = P::ALL.iter().copied().filter(|p| {
                let param = p.param();
                param.group == *group && *p != P::Compare && (param.applies)(&start)
            });
            for (i, p) in shown.enumerate() {
                let values = match i {
                    0 => knob_values(p, start.get(p)),
                    _ => end_values(p, &start),
                };
                for value in values {
                    let mut moved = start.clone();
                    moved.set(p, value);
                    states.push((format!("{}={value}", p.param().key), moved));
                }
            }
        }
        states
    }

    /// The values a reader reaches first on a control: both ends of its
    /// range, its middle (in ratios where its slider moves in ratios), the
    /// values that mean something of their own (0 for none, 1 for one)
    /// and the values its partner cuts (a base above the cap, a cap below
    /// the base, a p99 below the p50); every option of a choice.
    fn end_values(p: P, config: &Config) -> Vec<f64> {
        let (min, max, whole) = match p.param().kind {
            retry_sim::config::Kind::Choice(words, _) => {
                return (0..words.len()).map(|i| i as f64).collect();
            }
            retry_sim::config::Kind::Number { min, max, .. } => (min, max, false),
            retry_sim::config::Kind::Integer { min, max } => (min, max, true),
        };
        let middle = match crate::controls::log_range(p.param()) {
            Some(_) => (min * max).sqrt(),
            None => (min + max) / 2.0,
        };
        let mut values = vec![min, if whole { middle.round() } else { middle }, max];
        if whole && (min..=max).contains(&1.0) {
            values.push(1.0);
        }
        let partner = match p {
            P::Base => Some(config.get(P::Cap) * 2.0),
            P::Cap => Some(config.get(P::Base) / 2.0),
            P::ServiceP99 => Some(config.get(P::ServiceP50) / 2.0),
            _ => None,
        };
        values.extend(partner.map(|v| v.clamp(min, max)));
        values.sort_by(f64::total_cmp);
        values.dedup();
        values
    }

    /// Every sentence of every lesson stays true as a reader moves the
    /// knobs: for every preset, after each "try this" and with the first
    /// control of each group it opens at five values across its range, and
    /// for every chapter with its knob across its range, each number is
    /// the runs' and each claim a fact of them, in English; the Russian
    /// makes the same claims from the same runs, with as many numbers.
    #[test]
    fn every_sentence_holds_across_every_knob() {
        let table =
            retry_core::words::read_table(include_str!("../../../i18n/ru.txt")).expect("the table");
        let russian = retry_core::words::compile(&table);
        let mut states: Vec<(String, &Preset, Config)> = Vec::new();
        for preset in PRESETS {
            states.push((format!("{} as it is", preset.key), preset, preset.config()));
            for (when, config) in preset_moves(preset) {
                states.push((format!("{} {when}", preset.key), preset, config));
            }
        }
        for chapter in retry_teach::course::CHAPTERS {
            let start = chapter.config();
            for value in knob_values(chapter.knob, start.get(chapter.knob)) {
                let mut moved = start.clone();
                moved.set(chapter.knob, value);
                let what = format!(
                    "chapter {} {}={value}",
                    chapter.key,
                    chapter.knob.param().key
                );
                states.push((what, chapter.preset(), moved));
            }
        }
        let mut wrong = Vec::new();
        for (what, preset, config) in &states {
            let runs = simulate::run_both(config);
            let facts = Facts::runs(config, &runs.0, runs.1.as_ref());
            let english = prose::lesson(preset.lesson.0, &facts);
            wrong.extend(number_errors(what, &english, config, &runs));
            wrong.extend(check_claims(what, &english));
            retry_core::words::speak_russian(&russian).expect("it reads");
            let ru = prose::lesson(preset.lesson.get(), &facts);
            retry_core::words::speak_english();
            let claims =
                |p: &prose::Prose| -> Vec<_> { p.said.iter().map(|s| (s.side, s.claim)).collect() };
            assert_eq!(
                claims(&ru),
                claims(&english),
                "{what}: the Russian claims otherwise: '{}'",
                ru.text
            );
            // The same numbers, in the order the Russian sentence puts them.
            assert_eq!(
                ru.numbers.len(),
                english.numbers.len(),
                "{what}: '{}'",
                ru.text
            );
            assert!(
                english.numbers.iter().all(|n| ru.numbers.contains(n)),
                "{what}: '{}'",
                ru.text
            );
        }
        let count = states.len();
        assert!(
            wrong.is_empty(),
            "{} in {count} states:\n{}",
            wrong.len(),
            wrong.join("\n")
        );
    }

    /// A number the runs do not give fails the check above.
    #[test]
    #[should_panic(expected = "not filled in")]
    fn a_number_typed_by_hand_fails() {
        let config = preset("herd").config();
        let runs = simulate::run_both(&config);
        let facts = Facts::runs(&config, &runs.0, runs.1.as_ref());
        let prose = prose::fill("{clients} clients, 5 of them slow.", &facts);
        check_numbers("typed", &prose, &config, &runs);
    }

    /// The lesson says what holds once the reader changed what a sentence
    /// was about, from the settings.
    #[test]
    fn after_a_change_the_lesson_says_what_now_holds() {
        let says = |key: &str, change: &str| {
            let preset = preset(key);
            let config = lesson::apply(&preset.config(), change);
            let (a, b) = simulate::run_both(&config);
            lesson_text(Some(preset), &config, &a, b.as_ref())
        };
        let herd = says("herd", "");
        assert!(
            herd.contains("Policy A (blue) retries without jitter"),
            "{herd}"
        );
        let jittered = says("herd", "jitter=full");
        assert!(!jittered.contains("without jitter"), "{jittered}");
        assert!(
            jittered.contains("Policy A (blue) now has full jitter"),
            "{jittered}"
        );
        // The budget's bound named as one, beside the measurement.
        let budget = says("budget", "");
        assert!(
            budget.contains("that is at most 1.22x calls per operation; here 1.03x"),
            "{budget}"
        );
        let bucket = says("budget", "B.budget=token-bucket");
        assert!(
            bucket.contains("Policy B (orange) now has gRPC's token bucket"),
            "{bucket}"
        );
        assert!(!bucket.contains("at most"), "{bucket}");
        let no_deadline = says("deadline", "B.deadline=0");
        assert!(
            no_deadline.contains("Policy B (orange) now has no deadline"),
            "{no_deadline}"
        );
        let keyed = says("lost-response", "idem=on");
        assert!(
            keyed.contains("Policy A (blue) now sends a key too"),
            "{keyed}"
        );
        assert!(keyed.contains("Duplicates: 0 for A, 0 for B"), "{keyed}");
    }

    /// The states a review found false, each with the words it said and
    /// what it must say now, in English and in Russian (each state
    /// passes through the sentence test above too).
    const REVIEWED: [(&str, &str, &str, &str); 19] = [
        ("orphans", "timeout=0", "after 0 s", "no timeout"),
        ("layers", "attempts=1", "up to 1 attempts", "one attempt"),
        ("shed", "attempts=1", "up to 1 times", "one attempt"),
        ("closed-loop", "base=600", "600 s", "retries 0.8 s after"),
        (
            "hedge",
            "service=constant",
            "exponentially spread",
            "every call alike",
        ),
        (
            "long-tail",
            "service_p99=0.01",
            "a long tail",
            "no tail at all",
        ),
        (
            "layers",
            "layers=1",
            "1 services",
            "With one layer there is no chain",
        ),
        (
            "herd",
            "outage_for=0",
            "down for 0 s",
            "The outage lasts no time",
        ),
        (
            "at-scale",
            "failure=0",
            "trips at its first failure",
            "never fails",
        ),
        (
            "timeout",
            "service_sd=10",
            "0.3 s on average",
            "7.98 s on average",
        ),
        (
            "recover",
            "drop_for=2",
            "long enough for the queue to drain",
            "already come back",
        ),
        (
            "closed-loop",
            "outage_for=0",
            "so send less",
            "The outage lasts no time",
        ),
        ("budget", "rate=10", "The same storm", "No storm here"),
        ("why-retry", "failure=0", "fails 0 %", "never fails"),
        ("storm", "rate=20000", "spike", "stopped at"),
        ("storm", "rate=0&spike=0", "100.0 %", "No operation started"),
        (
            "recover",
            "queue=1000000",
            "a queue of 1000000",
            "drain its queue",
        ),
        (
            "chapter:budget",
            "spike=40",
            "The same storm",
            "No storm here",
        ),
        (
            "chapter:backoff-for",
            "outage_for=0",
            "so send less",
            "The outage lasts no time",
        ),
    ];

    #[test]
    fn the_reviewed_states_say_what_holds() {
        let table =
            retry_core::words::read_table(include_str!("../../../i18n/ru.txt")).expect("the table");
        let russian = retry_core::words::compile(&table);
        let mut wrong = Vec::new();
        for (key, change, said, says) in REVIEWED {
            // A chapter's world under its preset's lesson, or a preset's.
            let (preset, start) = match key.strip_prefix("chapter:") {
                Some(chapter) => {
                    let chapter = retry_teach::course::CHAPTERS
                        .iter()
                        .find(|c| c.key == chapter)
                        .expect("a chapter");
                    (chapter.preset(), chapter.config())
                }
                None => (preset(key), preset(key).config()),
            };
            let config = lesson::apply(&start, change);
            let (a, b) = simulate::run_both(&config);
            let text = lesson_text(Some(preset), &config, &a, b.as_ref());
            retry_core::words::speak_russian(&russian).expect("it reads");
            let ru = lesson_text(Some(preset), &config, &a, b.as_ref());
            retry_core::words::speak_english();
            eprintln!("{key} {change}:\n  {text}\n  {ru}");
            if text.contains(said) || !text.contains(says) || ru == text {
                wrong.push(format!("{key} {change}: '{text}'"));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    /// "The tail is cut" is said where the seeds' verdict beside it says
    /// B is ahead on the p99, once they are measured: on the hedge preset
    /// as it is, and not where the lead is the link's seed's alone (the
    /// hedge at 80 and 85 requests a second, near capacity, where the
    /// link's seed alone cut the tail and the seeds differ by seed).
    #[test]
    fn a_lead_in_words_is_the_seeds_verdict_once_they_are_measured() {
        let hedge = preset("hedge");
        let mut checked = 0;
        for rate in [None, Some(80.0), Some(85.0)] {
            let mut config = hedge.config();
            if let Some(rate) = rate {
                config.set(P::Rate, rate);
            }
            let (a, b) = simulate::run_both(&config);
            let seeds = retry_analyses::seeds::over_seeds(&config);
            let text = lesson_text_over(Some(hedge), &config, &a, b.as_ref(), Some(&seeds));
            let verdict = seeds.verdict(retry_sim::metrics::Metric::P99);
            let ahead = matches!(
                verdict,
                Some(retry_analyses::seeds::Verdict::Better(
                    retry_sim::metrics::Side::B,
                    _
                ))
            );
            assert_eq!(
                text.contains("the tail is cut"),
                ahead,
                "{rate:?}: {verdict:?}: {text}"
            );
            checked += usize::from(ahead);
        }
        assert!(
            checked >= 1,
            "the preset itself cuts the tail over its seeds"
        );
    }

    /// A run cut at a bound says where it stopped and why, and
    /// nothing of the outage it never reached; a world in which nothing
    /// starts says so and shows no success share.
    #[test]
    fn a_run_that_stopped_early_says_so_and_no_more() {
        let herd = preset("storm");
        let mut huge = herd.config();
        huge.set(P::Rate, 20_000.0);
        let (a, b) = simulate::run_both(&huge);
        let cut = a.summary.cut.as_ref().expect("cut at a bound");
        let text = lesson_text(Some(herd), &huge, &a, b.as_ref());
        let at = retry_sim::metrics::Format::Seconds.headline(cut.at);
        assert!(
            text.starts_with(&format!("Policy A's run stopped at {at}: it ")),
            "{text}"
        );
        assert!(
            !text.contains("spike") && !text.contains("recovers"),
            "{text}"
        );
        let mut idle = herd.config();
        idle.set(P::Rate, 0.0);
        idle.set(P::SpikeRate, 0.0);
        let (a, b) = simulate::run_both(&idle);
        assert_eq!(a.summary.operations, 0);
        let text = lesson_text(Some(herd), &idle, &a, b.as_ref());
        assert!(text.starts_with("No operation started"), "{text}");
        assert!(!text.contains('%'), "{text}");
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
