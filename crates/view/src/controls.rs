//! The controls built from the parameter table: a row per parameter, its
//! widgets and their ids, the numbers a slider stands for, the groups the
//! rows are folded into.

use retry_core::decimal::parse_f64;
use retry_core::words::Text;
use retry_sim::config::{Group, Kind, P, PARAMS, Param};
use retry_teach::lesson::{self, Term};

/// Positions of a logarithmic slider, from its minimum to its maximum.
pub const LOG_STEPS: f64 = 1000.0;

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
    /// a link writes it (the browser shows a number box's value with the
    /// decimal mark of its own locale, and reads it back so).
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
            Role::Slider => parse_f64(text).map(|p| slider_value(param, p)),
            Role::Choice => parse_f64(text),
            Role::Number => param.parse(text).ok(),
        }
    }
}

/// The id of a parameter's row.
pub fn row_id(param: &Param) -> String {
    format!("param-{}", param.key)
}

/// The id of a parameter's help line.
pub fn help_id(param: &Param) -> String {
    format!("help-{}", param.key)
}

/// The roles of a parameter's widgets: a list, or a slider and a number box.
pub fn roles(param: &Param) -> &'static [Role] {
    match param.kind {
        Kind::Choice(..) => &[Role::Choice],
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
    /// A list of named options, shown by their labels (a link's words,
    /// such as `aws-quota`, stay in links); an option's value is its index.
    Choice { options: &'static [Text] },
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
        Kind::Choice(_, labels) => Widgets::Choice { options: labels },
        Kind::Number { .. } | Kind::Integer { .. } => {
            let (min, max, step) = match param.kind {
                Kind::Number { min, max, step } => (min, max, step),
                Kind::Integer { min, max } => (min, max, 1.0),
                Kind::Choice(..) => unreachable!("handled above"),
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
                number_label: retry_core::tf!("{label} value", label = param.label),
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
        label: param.label.get(),
        unit: (!param.unit.english().is_empty()).then(|| format!(" ({})", param.unit)),
        input_id: widget_id(param, Role::Slider),
        help_id: help_id(param),
        help: param.help.get(),
        widgets,
    }
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
    // The variants' names are ASCII (see the page's weight in notices.rs).
    format!("group-{group:?}").to_ascii_lowercase()
}

/// The glossary entry a control's label uses, if any.
pub fn control_term(index: usize) -> Option<&'static Term> {
    P::ALL.get(index).and_then(|&p| lesson::param_term(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use retry_sim::config::{Group, Kind, P, PARAMS};

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
                "bk_size",
                "sre_window",
                "cb_window",
                "instances",
                "horizon",
                "rate_window",
                "service_p50",
                "service_p99",
                "tail_x",
                "slow_x"
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
                help: P::Base.param().help.get(),
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
                options: retry_sim::config::JITTERS.labels
            }
        );
        // Compare mode's own switch is not one of the policy's knobs.
        assert_eq!(control(P::Compare as usize).row_class, "param");
    }

    /// A list shows words a newcomer reads ("AWS retry quota"), while a
    /// link keeps its own ("aws-quota"): the option's value is its index,
    /// so the label is only ever shown, and links do not change.
    #[test]
    fn lists_show_labels_and_links_keep_their_words() {
        for param in PARAMS {
            let Kind::Choice(names, labels) = param.kind else {
                continue;
            };
            assert_eq!(names.len(), labels.len(), "{}", param.key);
            for label in labels {
                assert!(
                    label.0.starts_with(|c: char| c.is_ascii_uppercase()) && !label.0.contains('-'),
                    "{}: {label}",
                    param.key
                );
            }
        }
        let shown = |p: P| match control(p as usize).widgets {
            Widgets::Choice { options } => options.iter().map(|o| o.0).collect::<Vec<_>>(),
            Widgets::Slider { .. } => Vec::new(),
        };
        assert_eq!(
            shown(P::Budget),
            [
                "None",
                "Ratio of recent traffic",
                "Token bucket (gRPC)",
                "AWS retry quota",
                "Token bucket per first try (Brooker)",
                "Adaptive throttling (SRE book)",
                "AWS SDK adaptive mode",
                "Retries in flight (Envoy)"
            ]
        );
        assert_eq!(shown(P::OutageMode), ["Fail fast", "Hang"]);
        let link = "v=1&budget=token-bucket&outage_for=5&outage=hang";
        let (config, notices) = retry_sim::config::Config::from_link(link);
        assert_eq!(notices, []);
        assert_eq!(config.to_link(), link);
        assert_eq!(Role::Choice.text(P::Budget.param(), 3.0), "3");
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
                (Group::Search, false),
            ]
        );
        assert_eq!(group_order(&[]).len(), Group::ALL.len());
    }
}
