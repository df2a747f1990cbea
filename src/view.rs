//! What the page shows, decided without a browser.
//!
//! Every choice of what to write on the page lives here, as plain data:
//! the controls built from the parameter table, the numbers a slider
//! stands for, the state behind the controls (which policy they edit),
//! the summary table, the calls per layer, the lesson, the notices, the
//! sweep being computed. `web` only copies these into the DOM and wires
//! events back, so all of it is tested natively.

use crate::chart::{self, Theme};
use crate::config::{Config, Group, Kind, Notice, P, PARAMS, Param};
use crate::lesson::{self, Metric, Side, Term};
use crate::policy::PauseBounds;
use crate::presets::{Expect, KeyChart, PRESETS, Preset};
use crate::report;
use crate::sim::{Report, Scenario};
use crate::sweep;

/// Positions of a logarithmic slider, from its minimum to its maximum.
pub const LOG_STEPS: f64 = 1000.0;

/// The lesson line when the settings are no preset's.
pub const OWN_SETTINGS: &str =
    "Your own settings: pick a preset above to start from a lesson again.";

/// What the Copy link button says once the link is on the clipboard.
pub const LINK_COPIED: &str = "Link copied.";

/// What the Copy link button says when the browser did not let the page
/// copy (no clipboard outside a secure context, or permission refused):
/// the link is then shown selected, for the person to copy.
pub const LINK_SELECTED: &str = "The browser did not let the page copy: the link is selected below, press Ctrl+C (or Cmd+C) to copy it.";

/// What the Copy link button says once it tried: `copied` is whether the
/// link really reached the clipboard.
pub fn copy_status(copied: bool) -> &'static str {
    if copied { LINK_COPIED } else { LINK_SELECTED }
}

/// The range of a slider that moves in ratios rather than steps: one whose
/// values are all positive and span at least two orders of magnitude, where
/// a linear slider would crowd the small values into its first pixels.
pub fn log_range(param: &Param) -> Option<(f64, f64)> {
    match param.kind {
        Kind::Number { min, max, .. } if min > 0.0 && max / min >= 100.0 => Some((min, max)),
        _ => None,
    }
}

/// Slider position of a value (log sliders move in ratios, not steps).
pub fn slider_position(param: &Param, value: f64) -> f64 {
    match log_range(param) {
        Some((min, max)) => (LOG_STEPS * (value / min).ln() / (max / min).ln()).round(),
        None => value,
    }
}

/// The value a slider position stands for.
pub fn slider_value(param: &Param, position: f64) -> f64 {
    match log_range(param) {
        Some((min, max)) => {
            let raw = min * ((max / min).ln() * position / LOG_STEPS).exp();
            // Three significant digits read better than 0.10471285...
            let digits = 10f64.powi(2 - raw.log10().floor() as i32);
            (raw * digits).round() / digits
        }
        None => position,
    }
}

/// What a widget of a parameter's row is for; written into its
/// `data-role` so an input event says which one moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Slider,
    /// The number box beside a slider.
    Number,
    /// The list of a parameter with named options.
    Choice,
}

impl Role {
    pub fn attribute(self) -> &'static str {
        match self {
            Role::Slider => "slider",
            Role::Number => "number",
            Role::Choice => "choice",
        }
    }

    /// Reads `data-role`; anything else is typed text, read as a number box.
    pub fn from_attribute(text: &str) -> Role {
        match text {
            "slider" => Role::Slider,
            "choice" => Role::Choice,
            _ => Role::Number,
        }
    }

    /// The text a widget of this role shows for `value`: a slider its
    /// position, a list the index of its option, a number box the value as
    /// a link writes it.
    pub fn text(self, param: &Param, value: f64) -> String {
        match self {
            Role::Slider => slider_position(param, value).to_string(),
            Role::Choice => (value as usize).to_string(),
            Role::Number => param.format(value),
        }
    }

    /// The value a widget's text stands for, if it stands for one.
    pub fn read(self, param: &Param, text: &str) -> Option<f64> {
        match self {
            Role::Slider => text.parse::<f64>().ok().map(|p| slider_value(param, p)),
            Role::Choice => text.parse::<f64>().ok(),
            Role::Number => param.parse(text).ok(),
        }
    }
}

/// The id of a parameter's row.
pub fn row_id(param: &Param) -> String {
    format!("param-{}", param.key)
}

/// The roles of a parameter's widgets: a list, or a slider and a number box.
pub fn roles(param: &Param) -> &'static [Role] {
    match param.kind {
        Kind::Choice(_) => &[Role::Choice],
        Kind::Number { .. } | Kind::Integer { .. } => &[Role::Slider, Role::Number],
    }
}

/// The id of a parameter's widget of a role: `in-` for its slider or
/// list, the widget its label names; `num-` for its number box.
pub fn widget_id(param: &Param, role: Role) -> String {
    match role {
        Role::Number => format!("num-{}", param.key),
        Role::Slider | Role::Choice => format!("in-{}", param.key),
    }
}

/// The parameter a widget's `data-index` names, if it names one.
pub fn param_index(text: &str) -> Option<usize> {
    text.parse::<usize>().ok().filter(|i| *i < PARAMS.len())
}

/// The `min`, `max` and `step` attributes of an input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Range {
    pub min: String,
    pub max: String,
    pub step: String,
}

/// The widgets of one parameter's row.
#[derive(Debug, Clone, PartialEq)]
pub enum Widgets {
    /// A list of named options; an option's value is its index.
    Choice { options: &'static [&'static str] },
    /// A slider and, beside it, a box to type the exact number into.
    Slider {
        slider: Range,
        number: Range,
        number_id: String,
        /// The box's accessible name (it has no label of its own).
        number_label: String,
    },
}

/// One parameter's row on the page: label, widgets, help line.
#[derive(Debug, Clone, PartialEq)]
pub struct Control {
    pub index: usize,
    pub row_id: String,
    /// Rows of a per-policy parameter are styled so compare mode shows
    /// which controls policy B may change.
    pub row_class: &'static str,
    pub label: &'static str,
    /// The unit after the label, as " (s)"; none for plain numbers.
    pub unit: Option<String>,
    /// The id of the widget the label names: the slider or the list.
    pub input_id: String,
    pub help_id: String,
    pub help: &'static str,
    pub widgets: Widgets,
}

/// The row of parameter `index`.
pub fn control(index: usize) -> Control {
    let param = &PARAMS[index];
    let widgets = match param.kind {
        Kind::Choice(options) => Widgets::Choice { options },
        Kind::Number { .. } | Kind::Integer { .. } => {
            let (min, max, step) = match param.kind {
                Kind::Number { min, max, step } => (min, max, step),
                Kind::Integer { min, max } => (min, max, 1.0),
                Kind::Choice(_) => unreachable!("handled above"),
            };
            let slider = match log_range(param) {
                Some(_) => Range {
                    min: "0".to_string(),
                    max: LOG_STEPS.to_string(),
                    step: "1".to_string(),
                },
                None => Range {
                    min: min.to_string(),
                    max: max.to_string(),
                    step: step.to_string(),
                },
            };
            Widgets::Slider {
                slider,
                // Typed numbers may be finer than the slider's steps.
                number: Range {
                    min: min.to_string(),
                    max: max.to_string(),
                    step: "any".to_string(),
                },
                number_id: widget_id(param, Role::Number),
                number_label: format!("{} value", param.label),
            }
        }
    };
    Control {
        index,
        row_id: row_id(param),
        row_class: if param.per_policy() {
            "param per-policy"
        } else {
            "param"
        },
        label: param.label,
        unit: (!param.unit.is_empty()).then(|| format!(" ({})", param.unit)),
        input_id: widget_id(param, Role::Slider),
        help_id: format!("help-{}", param.key),
        help: param.help,
        widgets,
    }
}

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
pub const OWN_KEY_CHART: KeyChart = KeyChart::Load;

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
    /// The canvas of the lesson's chart.
    pub key_chart: &'static str,
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
            key_chart: OWN_KEY_CHART.canvas_id(),
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
        key_chart: preset.key_chart.canvas_id(),
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

/// The groups of controls in page order, each with whether it is open:
/// the groups a lesson is about first and open, in the lesson's order, then
/// the rest closed, in the table's order.
pub fn group_order(open: &[Group]) -> Vec<(Group, bool)> {
    let mut order: Vec<(Group, bool)> = open.iter().map(|&g| (g, true)).collect();
    for group in Group::ALL {
        if !open.contains(&group) {
            order.push((group, false));
        }
    }
    order
}

/// The id of a group of controls.
pub fn group_id(group: Group) -> String {
    format!("group-{group:?}").to_lowercase()
}

/// The `data-side` and class of a policy's numbers: its colour.
pub fn side_class(side: Side) -> &'static str {
    match side {
        Side::A => "side-a",
        Side::B => "side-b",
    }
}

/// A policy's name beside its number.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::A => "A",
        Side::B => "B",
    }
}

/// The colour class of a summary heading: A's and B's columns.
pub fn heading_class(heading: &str) -> &'static str {
    match heading {
        "A" => side_class(Side::A),
        "B" => side_class(Side::B),
        _ => "",
    }
}

/// The glossary entry a control's label uses, if any.
pub fn control_term(index: usize) -> Option<&'static Term> {
    P::ALL.get(index).and_then(|&p| lesson::param_term(p))
}

/// Where a chart stands on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// First and large, beside the headline numbers: the lesson's chart.
    Key,
    /// Below, with the other numbers.
    Below,
    /// Behind "More charts": drawn only once opened.
    OnRequest,
}

impl Place {
    /// The id of the element that holds the charts of this place.
    pub fn container(self) -> &'static str {
        match self {
            Place::Key => "key-slot",
            Place::Below => "charts",
            Place::OnRequest => "more-charts",
        }
    }
}

/// Every chart's canvas in page order, and where it stands when it is not
/// the lesson's chart: the mechanism and the contention over many seeds
/// answer one lesson each, so they wait behind "More charts".
pub const CHARTS: [(&str, Place); 6] = [
    ("chart-load", Place::Below),
    ("chart-pauses", Place::Below),
    ("chart-latency", Place::Below),
    ("chart-sweep", Place::Below),
    ("chart-mechanism", Place::OnRequest),
    ("chart-contention", Place::OnRequest),
];

/// Where each chart stands when the lesson's chart is `key`, in page order.
pub fn chart_places(key: &str) -> Vec<(&'static str, Place)> {
    CHARTS
        .iter()
        .map(|&(canvas, home)| (canvas, if canvas == key { Place::Key } else { home }))
        .collect()
}

/// A notice's line in the notice list.
pub fn notice_line(notice: &Notice) -> String {
    format!("{}: {}", notice.key, notice.message)
}

/// What the page says when a run was cut short at one of its bounds, if one
/// was: where and why (policy A's first), and how to see it whole.
pub fn limit_text(a: &Report, b: Option<&Report>) -> Option<String> {
    let cut = [Some(a), b]
        .into_iter()
        .flatten()
        .find_map(|report| report.summary.cut.as_ref())?;
    let mut letters = cut.message.chars();
    let first = letters.next().map(|c| c.to_uppercase().to_string());
    Some(format!(
        "{}{}; the run stopped there. Shorten the horizon or lower the rate to see it whole.",
        first.unwrap_or_default(),
        letters.as_str()
    ))
}

/// A new seed from a uniform draw in [0, 1): any seed the link accepts.
pub fn seed_from_unit(unit: f64) -> f64 {
    let max = f64::from(u32::MAX);
    (unit * (max + 1.0)).floor().min(max)
}

/// The configuration behind the controls, and which policy they edit.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    config: Config,
    /// In compare mode, the policy controls show and edit policy B.
    editing_b: bool,
}

/// What a moved control changed, beyond its own value.
#[derive(Debug, Clone, PartialEq)]
pub struct Edit {
    /// Whether the notice list is replaced by `notice`: on `change`, when
    /// the value is final (no notice then clears old ones), but not while
    /// the control is still moving.
    pub replace_notices: bool,
    /// What had to be fixed, said only once the value is final.
    pub notice: Option<Notice>,
    /// Whether the number box must be left as typed: while typing, the box
    /// keeps the person's text and only the slider follows.
    pub keep_number: bool,
    /// Compare mode was switched: every control must show its side again.
    pub show_all: bool,
}

impl Page {
    pub fn new(config: Config) -> Self {
        Self {
            config,
            editing_b: false,
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Whether the policy controls show policy B: B chosen in compare mode.
    pub fn showing_b(&self) -> bool {
        self.editing_b && self.config.comparing()
    }

    /// Whether parameter `index` is currently shown and edited as policy B's.
    fn on_b(&self, index: usize) -> bool {
        self.showing_b() && PARAMS[index].per_policy()
    }

    /// The value the controls of parameter `index` show.
    pub fn shown_value(&self, index: usize) -> f64 {
        if self.on_b(index) {
            self.config.value_b_at(index)
        } else {
            self.config.value_at(index)
        }
    }

    /// Sets the value parameter `index` shows; returns why it changed, if
    /// it had to.
    pub fn set_value(&mut self, index: usize, value: f64) -> Option<String> {
        if self.on_b(index) {
            self.config.set_b_at(index, value)
        } else {
            self.config.set_at(index, value)
        }
    }

    /// Sets a parameter through the side the controls show.
    pub fn set(&mut self, p: P, value: f64) -> Option<String> {
        self.set_value(p as usize, value)
    }

    /// Chooses which policy the controls edit.
    pub fn edit_b(&mut self, on_b: bool) {
        self.editing_b = on_b;
    }

    /// Replaces the whole configuration (a preset was chosen); the
    /// controls show its policy A.
    pub fn load(&mut self, config: Config) {
        self.config = config;
        self.editing_b = false;
    }

    /// Whether each parameter's row is dimmed: the parameter does not
    /// matter under the other settings of the policy the row shows.
    pub fn inactive(&self) -> Vec<bool> {
        let b = self.config.policy_b_config();
        let mut inactive = Vec::with_capacity(PARAMS.len());
        for (index, param) in PARAMS.iter().enumerate() {
            let shown = if self.on_b(index) { &b } else { &self.config };
            inactive.push(!(param.applies)(shown));
        }
        inactive
    }

    /// A widget of parameter `index` now holds `text`. `commit` is the
    /// `change` event: the value is final, so what had to be fixed is said.
    pub fn input(&mut self, index: usize, role: Role, text: &str, commit: bool) -> Option<Edit> {
        let param = &PARAMS[index];
        let why = match role.read(param, text) {
            Some(value) => self.set_value(index, value),
            None if commit => Some(format!(
                "'{text}' is not a number; kept {}",
                param.format(self.shown_value(index))
            )),
            None => return None,
        };
        Some(Edit {
            replace_notices: commit,
            notice: why.filter(|_| commit).map(|message| Notice {
                key: param.key.to_string(),
                message,
            }),
            keep_number: !commit && role == Role::Number,
            show_all: index == P::Compare as usize,
        })
    }
}

/// The runs of one configuration and what the charts need of them.
#[derive(Debug)]
pub struct Runs {
    /// The scenario as the simulator ran it, for the server's capacity line.
    pub scenario: Scenario,
    pub a: Report,
    /// Policy B's run in compare mode.
    pub b: Option<Report>,
    bounds: [Vec<PauseBounds>; 2],
    deadlines: [Option<f64>; 2],
}

/// Runs a configuration: policy A, and B when comparing.
pub fn run(config: &Config) -> Runs {
    let b_config = config.policy_b_config();
    let (a, b) = report::run_both(config);
    Runs {
        scenario: config.scenario().sanitized(),
        a,
        b,
        bounds: [
            report::pause_bounds(config),
            report::pause_bounds(&b_config),
        ],
        deadlines: [config.policy().deadline, b_config.policy().deadline],
    }
}

impl Runs {
    /// The runs as the charts draw them, named "A" and "B" in compare mode.
    pub fn charts(&self) -> Vec<chart::Run<'_>> {
        let mut runs = vec![chart::Run {
            name: if self.b.is_some() { "A" } else { "" },
            report: &self.a,
            bounds: &self.bounds[0],
            deadline: self.deadlines[0],
        }];
        if let Some(b) = &self.b {
            runs.push(chart::Run {
                name: "B",
                report: b,
                bounds: &self.bounds[1],
                deadline: self.deadlines[1],
            });
        }
        runs
    }
}

/// One row of the summary table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SummaryRow {
    pub label: &'static str,
    /// The glossary entry that explains the label, if one does.
    pub term: Option<&'static str>,
    /// The cells after the label: policy A's value, then in compare mode
    /// B's and B - A.
    pub cells: Vec<String>,
}

/// The summary table: the numbers that matter, what the users saw against
/// what it cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    pub headings: &'static [&'static str],
    pub rows: Vec<SummaryRow>,
}

/// How a summary row writes its numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Count,
    /// A share, written in per cent; a difference of two shares is in
    /// percentage points (from 63 % to 96 % is +33 pp, not +33 %).
    Share,
    /// Seconds, or a ratio such as calls per operation.
    Fine,
}

impl Unit {
    fn format(self, x: f64) -> String {
        match self {
            Unit::Count => format!("{x:.0}"),
            Unit::Share => format!("{:.1} %", 100.0 * x),
            Unit::Fine => format!("{x:.3}"),
        }
    }

    fn delta(self, x: f64) -> String {
        let sign = if x > 0.0 { "+" } else { "" };
        match self {
            Unit::Share => format!("{sign}{:.1} pp", 100.0 * x),
            _ => format!("{sign}{}", self.format(x)),
        }
    }
}

/// One row of the summary: its label, the glossary entry that explains
/// it, the number of a report and its unit.
struct Measure {
    label: &'static str,
    term: Option<&'static str>,
    value: fn(&Report) -> f64,
    unit: Unit,
}

const MEASURES: [Measure; 11] = [
    Measure {
        label: "Operations",
        term: None,
        value: |r| r.summary.operations as f64,
        unit: Unit::Count,
    },
    Measure {
        label: "User-visible success",
        term: Some("success"),
        value: |r| r.summary.success_rate,
        unit: Unit::Share,
    },
    Measure {
        label: "Attempts per operation",
        term: None,
        value: |r| r.summary.attempts_per_operation,
        unit: Unit::Fine,
    },
    Measure {
        label: "Calls at the bottom layer per operation",
        term: Some("load-amplification"),
        value: |r| {
            r.summary.attempts_by_layer.last().copied().unwrap_or(0) as f64
                / r.summary.operations.max(1) as f64
        },
        unit: Unit::Fine,
    },
    Measure {
        label: "Operations retried",
        term: None,
        value: |r| r.summary.retried_share,
        unit: Unit::Share,
    },
    Measure {
        label: "Budget refusals",
        term: Some("retry-budget"),
        value: |r| r.summary.budget_refusals as f64,
        unit: Unit::Count,
    },
    Measure {
        label: "Deadline exceeded",
        term: Some("deadline"),
        value: |r| r.summary.deadline_exceeded as f64,
        unit: Unit::Count,
    },
    Measure {
        label: "Duplicates",
        term: Some("idempotency-key"),
        value: |r| r.summary.duplicates as f64,
        unit: Unit::Count,
    },
    Measure {
        label: "Latency p50 (s)",
        term: Some("percentiles"),
        value: |r| r.summary.latency_p50,
        unit: Unit::Fine,
    },
    Measure {
        label: "Latency p99 (s)",
        term: Some("percentiles"),
        value: |r| r.summary.latency_p99,
        unit: Unit::Fine,
    },
    Measure {
        label: "Wasted server work",
        term: Some("wasted-work"),
        value: |r| r.summary.wasted_work / r.summary.server_work.max(1e-12),
        unit: Unit::Share,
    },
];

/// The summary of policy A, or in compare mode of A, B and B - A.
pub fn summary(a: &Report, b: Option<&Report>) -> Summary {
    let headings: &'static [&'static str] = if b.is_some() {
        &["", "A", "B", "B - A"]
    } else {
        &["", "value"]
    };
    let mut rows = Vec::with_capacity(MEASURES.len());
    for measure in &MEASURES {
        let value = measure.value;
        let mut cells = vec![measure.unit.format(value(a))];
        if let Some(b) = b {
            cells.push(measure.unit.format(value(b)));
            cells.push(measure.unit.delta(value(b) - value(a)));
        }
        rows.push(SummaryRow {
            label: measure.label,
            term: measure.term,
            cells,
        });
    }
    Summary { headings, rows }
}

/// One layer's line of the layers view.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerLine {
    /// Calls this layer made per top-level request.
    pub per_request: f64,
    /// Its bar's length, in % of the longest bar of the view.
    pub bar_percent: f64,
    pub text: String,
}

impl LayerLine {
    /// The bar's `style` attribute.
    pub fn bar_style(&self) -> String {
        format!("width: {:.1}%", self.bar_percent)
    }
}

/// The layers of one policy's run.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerList {
    /// The bars' class: policy B's are drawn apart.
    pub bar_class: &'static str,
    pub lines: Vec<LayerLine>,
}

/// Calls each layer makes per top-level request, next to what `a^L` says
/// they would be if every call failed. `None` when no run has a chain of
/// layers: the view is then hidden.
pub fn layers(config: &Config, a: &Report, b: Option<&Report>) -> Option<Vec<LayerList>> {
    let chained = |r: &Report| r.summary.attempts_by_layer.len() >= 2;
    if !chained(a) && !b.is_some_and(chained) {
        return None;
    }
    let per_request = |r: &Report, calls: u64| calls as f64 / r.summary.operations.max(1) as f64;
    let runs = match b {
        Some(b) => vec![
            ("A: ", config.clone(), a),
            ("B: ", config.policy_b_config(), b),
        ],
        None => vec![("", config.clone(), a)],
    };
    // Bars share one scale across both policies, so their lengths compare.
    let mut longest = 1.0f64;
    for (_, _, report) in &runs {
        for calls in &report.summary.attempts_by_layer {
            longest = longest.max(per_request(report, *calls));
        }
    }
    let mut lists = Vec::with_capacity(runs.len());
    for (prefix, side, report) in &runs {
        let scenario = side.scenario();
        let attempts = f64::from(scenario.policy.attempts);
        let mut lines = Vec::with_capacity(report.summary.attempts_by_layer.len());
        for (layer, calls) in report.summary.attempts_by_layer.iter().enumerate() {
            let per_request = per_request(report, *calls);
            // Worst case, every call failing: the top layer makes a calls;
            // below it each layer multiplies by a, or by 1 if only the top
            // retries.
            let worst = if scenario.only_top_retries {
                attempts
            } else {
                attempts.powi(layer as i32 + 1)
            };
            let formula = if scenario.only_top_retries || layer == 0 {
                format!("{attempts}")
            } else {
                format!("{attempts}^{} = {worst}", layer + 1)
            };
            lines.push(LayerLine {
                per_request,
                bar_percent: 100.0 * per_request / longest,
                text: format!(
                    "{prefix}layer {}: {per_request:.2} calls per request (at 100 % failure: {formula})",
                    layer + 1
                ),
            });
        }
        lists.push(LayerList {
            bar_class: if *prefix == "B: " { "bar bar-b" } else { "bar" },
            lines,
        });
    }
    Some(lists)
}

/// Seeds the contention chart runs each backoff over: it shows what holds
/// on average, as the AWS 2015 post averaged many runs.
pub const CONTENTION_SEEDS: u64 = 20;

/// Most server calls the contention chart's runs may make together, by
/// their estimate: about a fifth of a second in the page.
const CONTENTION_WORK: f64 = 1.5e6;

/// Estimated calls of one contention run of `clients` with unlimited
/// attempts: each client conflicts with a fair share of the others.
fn contention_calls(clients: u32) -> f64 {
    let n = f64::from(clients);
    n * (1.0 + n / 2.0)
}

/// The contention chart's runs: every backoff of the AWS 2015 post over
/// [`CONTENTION_SEEDS`] seeds, or why the page does not run them (too many
/// clients for the page to run a hundred worlds at once).
pub fn contention_grid(config: &Config) -> Result<crate::contention::ContentionGrid, String> {
    let clients = config.get(P::Clients) as u32;
    let runs = 5.0 * CONTENTION_SEEDS as f64;
    if runs * contention_calls(clients) > CONTENTION_WORK {
        let most = (1..clients)
            .rev()
            .find(|&n| runs * contention_calls(n) <= CONTENTION_WORK)
            .unwrap_or(1);
        return Err(format!(
            "Averaging every backoff over {CONTENTION_SEEDS} seeds runs 100 worlds: at {clients} \
             clients that is more than the page can run at once. Lower Clients to {most} or fewer."
        ));
    }
    Ok(crate::contention::contention_grid(config, CONTENTION_SEEDS))
}

/// A sweep being computed a few points at a time between frames.
#[derive(Debug)]
pub struct SweepJob {
    /// The state it belongs to: a newer state replaces the job.
    link: String,
    curves: Vec<sweep::SweepCurve>,
    points: Vec<Vec<sweep::Point>>,
}

impl SweepJob {
    /// The sweep of a configuration, or why the page does not sweep it.
    pub fn new(config: &Config) -> Result<SweepJob, &'static str> {
        if let Some(why) = sweep::refusal(config) {
            return Err(why);
        }
        let curves = sweep::curves(config);
        let points = vec![Vec::with_capacity(sweep::POINTS); curves.len()];
        Ok(SweepJob {
            link: config.to_link(),
            curves,
            points,
        })
    }

    /// The link of the state being swept.
    pub fn link(&self) -> &str {
        &self.link
    }

    /// Computes the next point of the curve that has fewest, so all
    /// curves grow together and "computing k of n points" is true of each;
    /// false once all are done.
    pub fn step(&mut self) -> bool {
        let next = self
            .points
            .iter_mut()
            .zip(&self.curves)
            .filter(|(points, _)| points.len() < sweep::POINTS)
            .min_by_key(|(points, _)| points.len());
        let Some((points, curve)) = next else {
            return false;
        };
        points.push(sweep::point(&curve.config, points.len(), sweep::POINTS));
        true
    }

    pub fn done(&self) -> bool {
        self.points.iter().all(|p| p.len() == sweep::POINTS)
    }

    /// The curves as far as they are computed.
    pub fn curves(&self) -> Vec<chart::Curve<'_>> {
        self.curves
            .iter()
            .zip(&self.points)
            .map(|(curve, points)| chart::Curve {
                name: curve.label,
                points,
                colour: curve.colour,
                dashed: curve.dashed,
            })
            .collect()
    }
}

/// Device pixels per CSS pixel the charts are drawn at: at least 1, and
/// at most 4, beyond which the canvas costs memory nobody can see.
pub fn pixel_scale(device_pixel_ratio: f64) -> f64 {
    device_pixel_ratio.clamp(1.0, 4.0)
}

/// The charts' colours for the person's colour scheme and screen.
pub fn theme(dark: bool, device_pixel_ratio: f64) -> Theme {
    let scale = pixel_scale(device_pixel_ratio);
    if dark {
        Theme::dark(scale)
    } else {
        Theme::light(scale)
    }
}

/// A canvas's size in device pixels for its box in CSS pixels; a box not
/// laid out yet still gets a chart of readable size.
pub fn canvas_size(client_width: i32, client_height: i32, device_pixel_ratio: f64) -> (u32, u32) {
    let scale = pixel_scale(device_pixel_ratio);
    let device = |css: i32| (f64::from(css) * scale).round() as u32;
    (
        device(client_width.max(200)),
        device(client_height.max(150)),
    )
}

/// The canvas `font` for a text style: the string the canvas backend
/// draws with, so measured text is drawn text.
pub fn canvas_font(style: &str, size: f64, family: &str) -> String {
    format!("{style} {size}px {family}")
}

/// The box of a text `width` pixels wide in a font `size` pixels high: a
/// line is about 1.2 font sizes, as a browser lays it out.
pub fn text_box(width: f64, size: f64) -> (u32, u32) {
    (width.ceil() as u32, (size * 1.2).ceil() as u32)
}

/// When a render ended (ms since navigation) and how long it took (ms),
/// as the page stamps them on `<body>` for tests: whole ms for the
/// instant, tenths for the duration.
pub fn render_times(ended: f64, took: f64) -> (String, String) {
    (format!("{ended:.0}"), format!("{took:.1}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(link: &str) -> Config {
        let (config, notices) = Config::from_link(link);
        assert_eq!(notices, [], "{link}");
        config
    }

    fn preset(key: &str) -> &'static Preset {
        PRESETS
            .iter()
            .find(|p| p.key == key)
            .expect("the preset exists")
    }

    #[test]
    fn log_sliders_are_those_spanning_two_orders_of_magnitude() {
        let logs: Vec<&str> = PARAMS
            .iter()
            .filter(|p| log_range(p).is_some())
            .map(|p| p.key)
            .collect();
        assert_eq!(
            logs,
            [
                "base",
                "cap",
                "b_window",
                "tokens",
                "quota",
                "cb_window",
                "horizon"
            ]
        );
        // 1..10 is one order of magnitude; 0..1 starts at zero.
        assert_eq!(log_range(P::Multiplier.param()), None);
        assert_eq!(log_range(P::Failure.param()), None);
    }

    #[test]
    fn log_slider_ends_are_the_range_ends() {
        for param in PARAMS.iter().filter(|p| log_range(p).is_some()) {
            let (min, max) = log_range(param).expect("filtered on it");
            assert_eq!(slider_position(param, min), 0.0, "{}", param.key);
            assert_eq!(slider_position(param, max), LOG_STEPS, "{}", param.key);
            assert_eq!(slider_value(param, 0.0), min, "{}", param.key);
            assert_eq!(slider_value(param, LOG_STEPS), max, "{}", param.key);
        }
    }

    #[test]
    fn log_slider_moves_in_ratios_with_three_digits() {
        let base = P::Base.param();
        // 0.001 s to 600 s over 1000 steps: 0.1 s sits near step 346.
        assert_eq!(slider_position(base, 0.1), 346.0);
        assert_eq!(slider_value(base, 346.0), 0.0998);
        assert_eq!(slider_value(base, 500.0), 0.775);
        assert_eq!(slider_value(base, 900.0), 159.0);
        let cap = P::Cap.param();
        // Above 100 the digits are kept by dividing by 0.1: still exact.
        assert_eq!(slider_value(cap, 990.0), 3100.0);
        assert_eq!(slider_value(cap, 999.0), 3550.0);
    }

    #[test]
    fn a_log_slider_position_comes_back_from_its_value() {
        // Three digits move a value by at most 0.5 %, less than half a step
        // of these wide sliders: dragging never makes the thumb jump.
        for param in [P::Base, P::Cap, P::Quota].map(P::param) {
            for position in 0..=LOG_STEPS as u32 {
                let position = f64::from(position);
                let value = slider_value(param, position);
                assert_eq!(
                    slider_position(param, value),
                    position,
                    "{} at {position}: {value}",
                    param.key
                );
            }
        }
    }

    #[test]
    fn linear_sliders_are_their_values() {
        let failure = P::Failure.param();
        assert_eq!(slider_position(failure, 0.35), 0.35);
        assert_eq!(slider_value(failure, 0.35), 0.35);
        assert_eq!(slider_value(P::Attempts.param(), 50.0), 50.0);
    }

    #[test]
    fn widgets_show_and_read_values_by_role() {
        let base = P::Base.param();
        assert_eq!(Role::Slider.text(base, 0.1), "346");
        assert_eq!(Role::Number.text(base, 0.1), "0.1");
        assert_eq!(Role::Slider.read(base, "346"), Some(0.0998));
        assert_eq!(Role::Number.read(base, " 0.25 "), Some(0.25));
        assert_eq!(Role::Number.read(base, "abc"), None);
        let jitter = P::Jitter.param();
        assert_eq!(Role::Choice.text(jitter, 3.0), "3");
        assert_eq!(Role::Choice.read(jitter, "3"), Some(3.0));
        for role in [Role::Slider, Role::Number, Role::Choice] {
            assert_eq!(Role::from_attribute(role.attribute()), role);
        }
        assert_eq!(Role::from_attribute(""), Role::Number);
    }

    #[test]
    fn widgets_are_found_by_role() {
        let base = P::Base.param();
        assert_eq!(roles(base), [Role::Slider, Role::Number]);
        assert_eq!(widget_id(base, Role::Slider), "in-base");
        assert_eq!(widget_id(base, Role::Number), "num-base");
        let jitter = P::Jitter.param();
        assert_eq!(roles(jitter), [Role::Choice]);
        assert_eq!(widget_id(jitter, Role::Choice), "in-jitter");
    }

    #[test]
    fn controls_follow_the_table() {
        let base = control(P::Base as usize);
        assert_eq!(
            base,
            Control {
                index: P::Base as usize,
                row_id: "param-base".to_string(),
                row_class: "param per-policy",
                label: "Base delay",
                unit: Some(" (s)".to_string()),
                input_id: "in-base".to_string(),
                help_id: "help-base".to_string(),
                help: P::Base.param().help,
                widgets: Widgets::Slider {
                    slider: Range {
                        min: "0".to_string(),
                        max: "1000".to_string(),
                        step: "1".to_string(),
                    },
                    number: Range {
                        min: "0.001".to_string(),
                        max: "600".to_string(),
                        step: "any".to_string(),
                    },
                    number_id: "num-base".to_string(),
                    number_label: "Base delay value".to_string(),
                },
            }
        );
        let seed = control(P::Seed as usize);
        assert_eq!((seed.row_class, seed.unit), ("param", None));
        let Widgets::Slider { slider, .. } = seed.widgets else {
            panic!("the seed is a number");
        };
        assert_eq!(
            (
                slider.min.as_str(),
                slider.max.as_str(),
                slider.step.as_str()
            ),
            ("0", "4294967295", "1")
        );
        assert_eq!(
            control(P::Jitter as usize).widgets,
            Widgets::Choice {
                options: crate::config::JITTERS.names
            }
        );
        // Compare mode's own switch is not one of the policy's knobs.
        assert_eq!(control(P::Compare as usize).row_class, "param");
    }

    #[test]
    fn data_index_names_a_parameter_or_nothing() {
        assert_eq!(param_index("0"), Some(0));
        assert_eq!(
            param_index(&(PARAMS.len() - 1).to_string()),
            Some(PARAMS.len() - 1)
        );
        assert_eq!(param_index(&PARAMS.len().to_string()), None);
        assert_eq!(param_index("-1"), None);
        assert_eq!(param_index("x"), None);
    }

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
        assert_eq!(view.key_chart, budget.key_chart.canvas_id());
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
        assert_eq!(own.key_chart, "chart-load");
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

    #[test]
    fn the_lessons_chart_goes_first_and_the_rest_keep_their_order() {
        let places = chart_places("chart-sweep");
        assert_eq!(
            places,
            [
                ("chart-load", Place::Below),
                ("chart-pauses", Place::Below),
                ("chart-latency", Place::Below),
                ("chart-sweep", Place::Key),
                ("chart-mechanism", Place::OnRequest),
                ("chart-contention", Place::OnRequest),
            ]
        );
        // The charts on request come out when they carry the lesson.
        assert_eq!(
            chart_places("chart-mechanism")[4],
            ("chart-mechanism", Place::Key)
        );
        // Every preset's chart is one the page has.
        for preset in PRESETS {
            let key = preset.key_chart.canvas_id();
            assert_eq!(
                chart_places(key)
                    .iter()
                    .filter(|(_, p)| *p == Place::Key)
                    .count(),
                1,
                "{}",
                preset.key
            );
        }
        assert_eq!(
            [Place::Key, Place::Below, Place::OnRequest].map(Place::container),
            ["key-slot", "charts", "more-charts"]
        );
    }

    #[test]
    fn every_explained_label_names_a_glossary_entry() {
        let (a, _) = report::run_both(&config("v=1&rate=5&horizon=2"));
        for row in summary(&a, None).rows {
            if let Some(key) = row.term {
                assert!(lesson::term(key).is_some(), "{}: {key}", row.label);
            }
        }
        assert_eq!(
            control_term(P::Jitter as usize).map(|t| t.key),
            Some("jitter")
        );
        assert_eq!(control_term(P::Rate as usize).map(|t| t.key), None);
        assert_eq!(control_term(PARAMS.len()).map(|t| t.key), None);
        assert_eq!(group_id(Group::Budget), "group-budget");
        assert_eq!(
            [
                heading_class("A"),
                heading_class("B"),
                heading_class("B - A")
            ],
            ["side-a", "side-b", ""]
        );
    }

    #[test]
    fn the_lessons_controls_come_first_and_open() {
        assert_eq!(
            group_order(&[Group::Layers, Group::Policy]),
            [
                (Group::Layers, true),
                (Group::Policy, true),
                (Group::Budget, false),
                (Group::Workload, false),
                (Group::Server, false),
                (Group::Randomness, false),
            ]
        );
        assert_eq!(group_order(&[]).len(), Group::ALL.len());
    }

    #[test]
    fn copying_says_what_happened() {
        assert_eq!(copy_status(true), "Link copied.");
        assert!(copy_status(false).contains("selected"));
        assert!(!copy_status(false).contains("copied"));
    }

    #[test]
    fn notices_read_key_then_message() {
        let (_, notices) = Config::from_link("v=1&attempts=99&wat=1");
        let lines: Vec<String> = notices.iter().map(notice_line).collect();
        assert_eq!(
            lines,
            [
                "attempts: 99 is outside 1..50; using 50",
                "wat: unknown key; ignored"
            ]
        );
    }

    #[test]
    fn new_seeds_cover_the_whole_range() {
        assert_eq!(seed_from_unit(0.0), 0.0);
        assert_eq!(seed_from_unit(0.5), 2147483648.0);
        assert_eq!(seed_from_unit(1.0 - f64::EPSILON), 4294967295.0);
        assert_eq!(seed_from_unit(1.0), 4294967295.0);
        // Every u32, as the link reads seeds.
        assert_eq!(
            P::Seed.param().kind,
            Kind::Integer {
                min: 0.0,
                max: 4294967295.0
            }
        );
    }

    #[test]
    fn controls_edit_b_only_in_compare_mode_and_only_the_policy() {
        let mut page = Page::new(config("v=1&compare=on&jitter=none&B.jitter=full"));
        let jitter = P::Jitter as usize;
        assert_eq!(page.shown_value(jitter), 0.0);
        page.edit_b(true);
        assert!(page.showing_b());
        assert_eq!(page.shown_value(jitter), 1.0, "B's full jitter");
        page.set(P::Jitter, 2.0);
        page.set(P::Rate, 5.0);
        assert_eq!(
            page.config().to_link(),
            "v=1&compare=on&jitter=none&rate=5&B.jitter=equal",
            "the rate is the world's, shared by both"
        );
        // Compare off: the controls show A whatever was chosen.
        page.set(P::Compare, 0.0);
        assert!(!page.showing_b());
        assert_eq!(page.shown_value(jitter), 0.0);
        // A preset shows its A.
        page.set(P::Compare, 1.0);
        page.load(preset("herd").config());
        assert!(!page.showing_b());
    }

    #[test]
    fn rows_dim_by_the_policy_they_show() {
        let mut page = Page::new(config("v=1&compare=on&B.budget=ratio"));
        let share = P::BudgetPercent as usize;
        assert!(page.inactive()[share], "A has no budget");
        page.edit_b(true);
        assert!(!page.inactive()[share], "B has a ratio budget");
        assert!(page.inactive()[P::Tokens as usize]);
    }

    #[test]
    fn inputs_set_values_and_say_what_they_fixed_on_change() {
        let mut page = Page::new(Config::default());
        let attempts = P::Attempts as usize;
        // While dragging: set, nothing said.
        let edit = page.input(attempts, Role::Slider, "7", false);
        assert_eq!(
            edit,
            Some(Edit {
                replace_notices: false,
                notice: None,
                keep_number: false,
                show_all: false
            })
        );
        assert_eq!(page.config().get(P::Attempts), 7.0);
        // Typing: the box keeps the text; a half-typed number changes nothing.
        let typing = page.input(attempts, Role::Number, "9", false);
        assert_eq!(typing.map(|e| e.keep_number), Some(true));
        assert_eq!(page.input(attempts, Role::Number, "-", false), None);
        assert_eq!(page.config().get(P::Attempts), 9.0);
        // On change: fixes are said, and an unreadable number keeps the value.
        let clamped = page.input(attempts, Role::Number, "80", true);
        assert_eq!(
            clamped.and_then(|e| e.notice),
            Some(Notice {
                key: "attempts".to_string(),
                message: "80 is outside 1..50; using 50".to_string()
            })
        );
        let unreadable = page.input(attempts, Role::Number, "many", true);
        assert_eq!(
            unreadable.and_then(|e| e.notice),
            Some(Notice {
                key: "attempts".to_string(),
                message: "'many' is not a number; kept 50".to_string()
            })
        );
        assert_eq!(page.config().get(P::Attempts), 50.0);
        let fine = page.input(attempts, Role::Number, "3", true);
        assert_eq!(
            fine.map(|e| (e.replace_notices, e.notice)),
            Some((true, None)),
            "clears old notices"
        );
        // A fix while dragging waits for the final value to be said.
        let dragged = page.input(attempts, Role::Number, "80", false);
        assert_eq!(
            dragged.map(|e| (e.replace_notices, e.notice)),
            Some((false, None))
        );
        let compare = page.input(P::Compare as usize, Role::Choice, "1", true);
        assert_eq!(compare.map(|e| e.show_all), Some(true));
    }

    /// A run whose summary holds chosen numbers.
    fn report(operations: u64, by_layer: &[u64], success: f64, p99: f64) -> Report {
        let mut report = report::run(&config("v=1&rate=1&horizon=1"));
        let summary = &mut report.summary;
        summary.operations = operations;
        summary.success_rate = success;
        summary.attempts_per_operation = by_layer[0] as f64 / operations as f64;
        summary.attempts_by_layer = by_layer.to_vec();
        summary.retried_share = 0.25;
        summary.budget_refusals = 3;
        summary.deadline_exceeded = 0;
        summary.duplicates = 2;
        summary.latency_p50 = 0.0125;
        summary.latency_p99 = p99;
        summary.server_work = 8.0;
        summary.wasted_work = 1.0;
        report
    }

    #[test]
    fn summary_rows_of_one_policy() {
        let summary = summary(&report(200, &[250, 400], 0.9, 1.5), None);
        assert_eq!(summary.headings, ["", "value"]);
        let rows: Vec<(&str, Vec<&str>)> = summary
            .rows
            .iter()
            .map(|r| (r.label, r.cells.iter().map(String::as_str).collect()))
            .collect();
        assert_eq!(
            rows,
            [
                ("Operations", vec!["200"]),
                ("User-visible success", vec!["90.0 %"]),
                ("Attempts per operation", vec!["1.250"]),
                ("Calls at the bottom layer per operation", vec!["2.000"]),
                ("Operations retried", vec!["25.0 %"]),
                ("Budget refusals", vec!["3"]),
                ("Deadline exceeded", vec!["0"]),
                ("Duplicates", vec!["2"]),
                ("Latency p50 (s)", vec!["0.013"]),
                ("Latency p99 (s)", vec!["1.500"]),
                ("Wasted server work", vec!["12.5 %"]),
            ]
        );
    }

    #[test]
    fn summary_rows_compare_b_with_a() {
        let a = report(200, &[250, 400], 0.9, 1.5);
        let b = report(200, &[220, 220], 0.95, 0.75);
        let summary = summary(&a, Some(&b));
        assert_eq!(summary.headings, ["", "A", "B", "B - A"]);
        let cells = |label: &str| {
            summary
                .rows
                .iter()
                .find(|r| r.label == label)
                .expect("a row")
                .cells
                .clone()
        };
        assert_eq!(cells("Operations"), ["200", "200", "0"]);
        // Shares differ by percentage points, not per cent.
        assert_eq!(
            cells("User-visible success"),
            ["90.0 %", "95.0 %", "+5.0 pp"]
        );
        assert_eq!(cells("Wasted server work"), ["12.5 %", "12.5 %", "0.0 pp"]);
        assert_eq!(
            cells("Calls at the bottom layer per operation"),
            ["2.000", "1.100", "-0.900"]
        );
        assert_eq!(cells("Latency p99 (s)"), ["1.500", "0.750", "-0.750"]);
    }

    #[test]
    fn three_layers_of_three_attempts_make_27_calls() {
        let config = preset("layers").config();
        let (a, b) = report::run_both(&config);
        let lists = layers(&config, &a, b.as_ref()).expect("three layers are shown");
        let texts: Vec<Vec<&str>> = lists
            .iter()
            .map(|l| l.lines.iter().map(|line| line.text.as_str()).collect())
            .collect();
        assert_eq!(
            texts,
            [
                vec![
                    "A: layer 1: 3.00 calls per request (at 100 % failure: 3)",
                    "A: layer 2: 9.00 calls per request (at 100 % failure: 3^2 = 9)",
                    "A: layer 3: 27.00 calls per request (at 100 % failure: 3^3 = 27)",
                ],
                vec![
                    "B: layer 1: 3.00 calls per request (at 100 % failure: 3)",
                    "B: layer 2: 3.00 calls per request (at 100 % failure: 3)",
                    "B: layer 3: 3.00 calls per request (at 100 % failure: 3)",
                ],
            ]
        );
        assert_eq!(
            lists.iter().map(|l| l.bar_class).collect::<Vec<_>>(),
            ["bar", "bar bar-b"]
        );
        // One scale for both: A's 27 is the longest bar, B's 3 a ninth of it.
        let styles: Vec<String> = lists
            .iter()
            .flat_map(|l| &l.lines)
            .map(LayerLine::bar_style)
            .collect();
        assert_eq!(
            styles,
            [
                "width: 11.1%",
                "width: 33.3%",
                "width: 100.0%",
                "width: 11.1%",
                "width: 11.1%",
                "width: 11.1%"
            ]
        );
    }

    #[test]
    fn one_layer_hides_the_layers_view() {
        let config = config("v=1&rate=10&horizon=5");
        let (a, _) = report::run_both(&config);
        assert_eq!(layers(&config, &a, None), None);
    }

    #[test]
    fn the_limit_is_said_only_when_a_run_was_cut_short() {
        use crate::sim::{Cut, CutReason};
        let mut a = report(200, &[250, 400], 0.9, 1.5);
        let b = a.clone();
        assert_eq!(limit_text(&a, Some(&b)), None);
        a.summary.truncated = true;
        a.summary.cut = Some(Cut {
            reason: CutReason::Work,
            at: 12.5,
            message: "more than 3000000 operations and attempts by t = 12.50 s".to_string(),
        });
        assert_eq!(
            limit_text(&b, Some(&a)).as_deref(),
            Some(
                "More than 3000000 operations and attempts by t = 12.50 s; the run stopped \
                 there. Shorten the horizon or lower the rate to see it whole."
            )
        );
    }

    #[test]
    fn runs_are_named_for_the_charts_only_when_comparing() {
        let one = run(&config("v=1&rate=10&horizon=2&deadline=3"));
        let names: Vec<(&str, Option<f64>)> =
            one.charts().iter().map(|r| (r.name, r.deadline)).collect();
        assert_eq!(names, [("", Some(3.0))]);
        let both = run(&config(
            "v=1&compare=on&rate=10&horizon=2&attempts=3&B.attempts=5&B.deadline=2",
        ));
        let charts = both.charts();
        let names: Vec<(&str, Option<f64>, usize)> = charts
            .iter()
            .map(|r| (r.name, r.deadline, r.bounds.len()))
            .collect();
        assert_eq!(names, [("A", None, 2), ("B", Some(2.0), 4)]);
    }

    #[test]
    fn a_sweep_job_computes_the_whole_sweep_point_by_point() {
        let config = config("v=1&compare=on&rate=20&horizon=2&B.attempts=1");
        let mut job = SweepJob::new(&config).expect("small enough to sweep");
        assert_eq!(job.link(), config.to_link());
        let mut steps = 0;
        while job.step() {
            steps += 1;
            assert_eq!(job.done(), steps == 2 * sweep::POINTS);
            // Both curves grow together, so "k of n points" holds for each.
            let counts: Vec<usize> = job.curves().iter().map(|c| c.points.len()).collect();
            assert_eq!(
                counts,
                [steps - steps / 2, steps / 2],
                "after {steps} steps"
            );
        }
        assert_eq!(steps, 2 * sweep::POINTS);
        let curves = job.curves();
        assert_eq!(
            curves
                .iter()
                .map(|c| (c.name, c.colour, c.dashed))
                .collect::<Vec<_>>(),
            [("A", 0, false), ("B", 4, true)]
        );
        assert_eq!(curves[0].points, sweep::sweep(&config, sweep::POINTS));
        assert_eq!(
            curves[1].points,
            sweep::sweep(&config.policy_b_config(), sweep::POINTS)
        );
    }

    #[test]
    fn a_sweep_the_page_cannot_do_says_why() {
        let contention = config("v=1&workload=contention");
        assert_eq!(
            SweepJob::new(&contention).map(|_| ()),
            Err("The contention model has no failure rate to sweep: conflicts are its failures.")
        );
    }

    #[test]
    fn canvases_are_sized_in_device_pixels() {
        assert_eq!(canvas_size(640, 300, 2.0), (1280, 600));
        assert_eq!(canvas_size(0, 0, 1.0), (200, 150), "not laid out yet");
        assert_eq!(canvas_size(640, 300, 0.5), (640, 300));
        assert_eq!(canvas_size(100, 100, 9.0), (800, 600));
        assert_eq!(canvas_size(333, 333, 1.5), (500, 500));
        assert_eq!(theme(true, 3.0).scale, 3.0);
        assert_eq!(theme(false, 1.0).background, Theme::light(1.0).background);
        assert_eq!(theme(true, 1.0).background, Theme::dark(1.0).background);
    }

    #[test]
    fn text_is_measured_in_the_font_it_is_drawn_in() {
        assert_eq!(
            canvas_font("normal", 13.0, "sans-serif"),
            "normal 13px sans-serif"
        );
        assert_eq!(canvas_font("bold", 12.5, "serif"), "bold 12.5px serif");
        assert_eq!(text_box(40.2, 10.0), (41, 12));
        assert_eq!(text_box(40.0, 13.0), (40, 16));
    }

    #[test]
    fn render_times_are_rounded() {
        assert_eq!(
            render_times(1234.56, 7.25),
            ("1235".to_string(), "7.2".to_string())
        );
    }

    #[test]
    fn the_contention_chart_runs_a_hundred_small_worlds_and_refuses_big_ones() {
        let contention = PRESETS
            .iter()
            .find(|p| p.key == "contention")
            .expect("the contention preset");
        let grid = contention_grid(&contention.config()).expect("50 clients fit");
        assert_eq!(grid.variants.len(), 5);
        assert!(
            grid.variants
                .iter()
                .all(|v| v.calls.len() == CONTENTION_SEEDS as usize)
        );
        let big = lesson::apply(&contention.config(), "clients=5000");
        let why = contention_grid(&big).expect_err("5000 clients are too many");
        assert!(why.contains("Lower Clients to 172 or fewer"), "{why}");
        let edge = lesson::apply(&contention.config(), "clients=172");
        assert!(contention_grid(&edge).is_ok());
    }
}
