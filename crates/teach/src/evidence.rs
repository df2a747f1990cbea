//! What a chapter's seeds measured, in a sentence: each policy's range of
//! the number the chapter judges and what the seeds say, as the headlines
//! say it (the course page's evidence, the guide's and `--course`'s).

use crate::course::{Chapter, Judge};
use retry_analyses::seeds::{self, Seeds};
use retry_sim::metrics::{Metric, Side};

use retry_core::tf;
use retry_core::words::tr;

/// What the seeds measured, in a sentence: each policy's range of the
/// judged number and what the seeds say, as the headlines say it.
pub fn evidence(chapter: &Chapter, seeds: &Seeds) -> String {
    if let Judge::Moves { side, signals, .. } = chapter.judge {
        let count = seeds.count();
        let metrics: Vec<Metric> = signals.iter().map(|&(metric, _)| metric).collect();
        let lines = seeds::headlines(&metrics, &[], seeds, false);
        let said: Vec<String> = lines
            .iter()
            .map(|line| {
                let (range, value) = match side {
                    Side::A => (&line.range_a, Some(line.a.clone())),
                    Side::B => (&line.range_b, line.b.clone()),
                };
                let value = value.unwrap_or_default();
                let value = match range.as_deref() {
                    Some(range) if range != tr("the same on every seed") => range.to_string(),
                    _ => value,
                };
                tf!(
                    "{label} {value}",
                    label = lowercase_first(line.label),
                    value = value
                )
            })
            .collect();
        let numbers = said.join("; ");
        return match side {
            Side::A => tf!(
                "Over {count} seeds, A's {numbers}.",
                count = count,
                numbers = numbers
            ),
            Side::B => tf!(
                "Over {count} seeds, B's {numbers}.",
                count = count,
                numbers = numbers
            ),
        };
    }
    let metric = chapter.judge.metric();
    let Some(line) = seeds::headlines(&[metric], &[], seeds, false).pop() else {
        return String::new();
    };
    let label = lowercase_first(line.label);
    let of = |range: &Option<String>, value: &str| match range.as_deref() {
        None => value.to_string(),
        Some(same) if same == tr("the same on every seed") => value.to_string(),
        Some(range) => range.to_string(),
    };
    let a = of(&line.range_a, &line.a);
    let b = line.b.as_deref().map(|b| of(&line.range_b, b));
    let count = seeds.count();
    match (chapter.judge, b) {
        (Judge::Band { side: Side::B, .. }, Some(b)) => {
            tf!(
                "Over {count} seeds, B's {label}: {b}.",
                count = count,
                label = label,
                b = b
            )
        }
        (Judge::Band { .. } | Judge::Moves { .. }, _) | (_, None) => {
            tf!(
                "Over {count} seeds, A's {label}: {a}.",
                count = count,
                label = label,
                a = a
            )
        }
        (Judge::Better(_), Some(b)) => {
            tf!(
                "{seeds}. {label} {a} for A, {b} for B.",
                seeds = line.seeds,
                label = line.label,
                a = a,
                b = b
            )
        }
    }
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}
