//! What the page shows, decided without a browser.
//!
//! Every choice of what to write on the page lives here, as plain data:
//! the controls built from the parameter table, the numbers a slider
//! stands for, the state behind the controls (which policy they edit),
//! the summary table, the calls per layer, the lesson, the notices, the
//! sweep being computed, the files and the configuration people take
//! home. The page crate (`page/`) only copies these into the DOM and wires
//! events back, so all of it is tested natively.

pub mod api;
mod canvas;
mod configuration;
mod controls;
mod downloads;
mod driver;
pub mod embed;
#[cfg(test)]
mod fixtures;
mod jobs;
mod lesson;
mod notices;
mod page;
mod player;
pub mod replay;
mod summary;

pub use canvas::{
    canvas_font, canvas_size, chart_places, pixel_scale, render_times, text_box, theme,
};
pub use configuration::{
    Pasted, format_options, paste, snippet, snippet_copy_status, snippet_heading,
};
pub use controls::{
    Control, LOG_STEPS, Range, Role, Widgets, control, control_term, group_id, group_order,
    log_range, param_index, roles, row_id, slider_position, slider_value, widget_id,
};
pub use downloads::{
    Data, File, PictureLine, data_file, data_file_from, file_stem, picture_colour, picture_lines,
    picture_name, picture_text, policy_line, wrap,
};
pub use driver::{Driver, Next, Task};
pub use jobs::{
    CONTENTION_SEEDS, Job, Part, Progress, Runs, Step, SweepJob, Wants, contention_grid,
    progress_text, run,
};
pub use lesson::{
    LessonView, OWN_HEADLINE, OWN_KEY_CHART, OWN_OPEN, OWN_SETTINGS, PresetOption, TryButton,
    chosen_preset, lesson_view, opened_preset, preset_options,
};
pub use notices::{LINK_COPIED, LINK_SELECTED, copy_status, limit_text, notice_line};
pub use page::{Edit, Page};
pub use player::{Click, Clip, Fold, Frame, Fresh, LOAD_REDRAW_MS, Player, is_moment};
pub use summary::{
    LayerLine, LayerList, SummaryRow, SummaryTable, heading_class, layers, side_class, side_name,
    summary,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Group, P, PARAMS};
    use crate::lesson;
    use crate::simulate;
    use crate::view::fixtures::config;

    #[test]
    fn every_explained_label_names_a_glossary_entry() {
        let (a, _) = simulate::run_both(&config("v=1&rate=5&horizon=2"));
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
}
