//! The state behind the controls: the configuration, which policy they
//! edit, what a moved control changed.

use retry_sim::config::{Config, P, PARAMS};
use retry_sim::link::Notice;

use super::controls::Role;

/// The configuration behind the controls, and which policy they edit.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    config: Config,
    /// In compare mode, the policy controls show and edit policy B.
    editing_b: bool,
    /// Policy B's own values, where it has one: the link keeps only B's
    /// differences from A, so without them a change of A passing through
    /// B's value would leave B following A from then on.
    b_own: Vec<Option<f64>>,
}

/// Policy B's values that differ from A's, by parameter.
fn own_values_of_b(config: &Config) -> Vec<Option<f64>> {
    (0..PARAMS.len())
        .map(|i| {
            Some(config.value_b_at(i)).filter(|b| config.comparing() && *b != config.value_at(i))
        })
        .collect()
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
            b_own: own_values_of_b(&config),
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
            let why = self.config.set_b_at(index, value);
            self.b_own[index] = Some(self.config.value_b_at(index));
            why
        } else {
            let why = self.config.set_at(index, value);
            // B keeps its own value, even where A passed through it.
            if let Some(own) = self.b_own[index].filter(|_| self.config.comparing()) {
                self.config.set_b_at(index, own);
            }
            why
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
        self.b_own = own_values_of_b(&config);
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
            None if commit => Some(retry_core::tf!(
                "'{text}' is not a number; kept {kept}",
                text = text,
                kept = param.format(self.shown_value(index))
            )),
            None => return None,
        };
        // A value in range may still not go with the others.
        let tail = [P::Service, P::ServiceP50, P::ServiceP99].contains(&P::ALL[index]);
        let why = why.or_else(|| self.config.service_tail_fault().filter(|_| tail));
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

#[cfg(test)]
mod tests {
    /// A's setting passing through B's own value leaves B where it was.
    #[test]
    fn b_keeps_its_own_value_while_a_passes_through_it() {
        let (config, _) = Config::from_link("v=1&compare=on&attempts=1&B.attempts=3");
        let mut page = Page::new(config);
        for attempts in [2.0, 3.0, 4.0, 5.0] {
            page.set(P::Attempts, attempts);
            assert_eq!(
                page.config().value_b_at(P::Attempts as usize),
                3.0,
                "A at {attempts}"
            );
        }
        assert!(page.config().to_link().contains("B.attempts=3"));
        // B's own edit moves what it keeps; loading settings starts again.
        page.edit_b(true);
        page.set(P::Attempts, 6.0);
        page.edit_b(false);
        page.set(P::Attempts, 6.0);
        page.set(P::Attempts, 2.0);
        assert_eq!(page.config().value_b_at(P::Attempts as usize), 6.0);
        page.load(Config::from_link("v=1&compare=on").0);
        page.set(P::Attempts, 7.0);
        assert_eq!(
            page.config().value_b_at(P::Attempts as usize),
            7.0,
            "B follows A"
        );
    }

    use super::*;
    use crate::fixtures::{config, preset};
    use retry_sim::config::{Config, Kind, P};
    use retry_sim::link::Notice;

    /// The page's new seed is any u32 the browser draws: every one must be
    /// a seed the link keeps as it is.
    #[test]
    fn every_u32_is_a_seed() {
        for draw in [0, 1, 2_147_483_648, u32::MAX] {
            assert_eq!(
                P::Seed.param().sanitize(f64::from(draw)),
                (f64::from(draw), None)
            );
        }
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

    /// A log-normal's p99 in range but below its p50 is said when set,
    /// and what it is served as; a p99 above it is fine.
    #[test]
    fn a_p99_below_the_p50_is_said() {
        let mut page = Page::new(config("v=1&service=lognormal&service_p50=0.1"));
        let p99 = P::ServiceP99 as usize;
        let below = page.input(p99, Role::Number, "0.05", true);
        assert_eq!(
            below.and_then(|e| e.notice),
            Some(Notice {
                key: "service_p99".to_string(),
                message: "is below the p50, as no p99 can be; served as the p50".to_string()
            })
        );
        let above = page.input(p99, Role::Number, "0.5", true);
        assert_eq!(above.and_then(|e| e.notice), None);
    }
}
