//! The group exercise in the DOM: shown whenever the page holds the
//! exercise's world (`present=exercise` opens it), its requirements graded
//! on the seeds once they are measured, and a link to a reference answer.

use web_sys::Document;

use retry_analyses::seeds::Seeds;
use retry_core::tf;
use retry_sim::config::Config;
use retry_teach::exercise;

use crate::{element, language, show_if};

/// Shows the exercise for `config`, graded on `seeds` once measured.
pub(super) fn show(document: &Document, config: &Config, seeds: Option<&Seeds>) {
    let Some(panel) = document.get_element_by_id("exercise") else {
        return;
    };
    let on = exercise::applies(config);
    show_if(&panel, on);
    if !on {
        return;
    }
    if let Some(brief) = document.get_element_by_id("exercise-brief") {
        brief.set_text_content(Some(exercise::BRIEF.get()));
    }
    if let Some(reference) = document.get_element_by_id("exercise-reference") {
        let _ = reference.set_attribute("href", &language::href(&exercise::reference().to_link()));
    }
    let Some(list) = document.get_element_by_id("exercise-grade") else {
        return;
    };
    list.set_text_content(None);
    let graded = seeds.map(exercise::grade);
    let count = seeds.map_or(0, Seeds::count);
    for (i, requirement) in exercise::REQUIREMENTS.iter().enumerate() {
        let Ok(item) = element(document, "li", "") else {
            return;
        };
        let (met, text) = match graded.as_ref().map(|g| g[i]) {
            None => (
                "",
                tf!(
                    "{requirement}: measuring over the seeds\u{2026}",
                    requirement = requirement.text
                ),
            ),
            Some(g) => {
                let worst = g.requirement.metric.number().format.headline(g.worst);
                match g.met {
                    true => (
                        "true",
                        tf!(
                            "Met: {requirement} (the worst of {count} seeds: {worst}).",
                            requirement = requirement.text,
                            count = count,
                            worst = worst
                        ),
                    ),
                    false => (
                        "false",
                        tf!(
                            "Not met: {requirement} (the worst of {count} seeds: {worst}).",
                            requirement = requirement.text,
                            count = count,
                            worst = worst
                        ),
                    ),
                }
            }
        };
        let _ = item.set_attribute("data-met", met);
        item.set_text_content(Some(&text));
        let _ = list.append_child(&item);
    }
}
