//! The backon export, run by backon itself: the snippet the playground
//! writes for each policy below is compiled here (the files under
//! tests/export/backon are both the golden text and the code), and its
//! iterator is drawn 10 000 times. Attempts must match exactly; every
//! pause must lie within the playground's analytic bounds
//! (`Policy::pause_bounds`); each retry's sample mean must be near the
//! analytic mean.
//!
//! Tolerances. A pause lies in `[min, max]`, so its standard deviation is
//! at most `(max - min) / 2` and that of a mean of 10 000 draws at most
//! `(max - min) / 200`; six of those, `0.03 (max - min)`, make a false
//! alarm a one-in-a-billion event. backon computes its delays in f32
//! (`saturating_mul` in src/backoff/exponential.rs), so bounds allow a
//! relative 1e-6; the decorrelated mean is computed on a grid accurate to
//! 0.5 % of the cap, which is added to its tolerance.

use retry_core::policy::Jitter;
use retry_export::{Format, export};
use retry_sim::config::Config;

mod default {
    include!("export/backon/default.rs");
}
mod equal {
    include!("export/backon/equal.rs");
}
mod decorrelated {
    include!("export/backon/decorrelated.rs");
}
mod proportional {
    include!("export/backon/proportional.rs");
}
mod linear {
    include!("export/backon/linear.rs");
}
mod constant {
    include!("export/backon/constant.rs");
}

type Backoff = Box<dyn Iterator<Item = std::time::Duration>>;

/// A name, the link it is exported from, the snippet as tested, and the
/// snippet compiled.
type Case = (&'static str, &'static str, &'static str, fn() -> Backoff);

fn cases() -> Vec<Case> {
    vec![
        (
            "default",
            "v=1",
            include_str!("export/backon/default.rs"),
            || Box::new(default::backoff()),
        ),
        (
            "equal",
            "v=1&jitter=equal&attempts=7&mult=3&base=0.05&cap=2",
            include_str!("export/backon/equal.rs"),
            || Box::new(equal::backoff()),
        ),
        (
            "decorrelated",
            "v=1&jitter=decorrelated&attempts=8&cap=1.5",
            include_str!("export/backon/decorrelated.rs"),
            || Box::new(decorrelated::backoff()),
        ),
        (
            "proportional",
            "v=1&jitter=proportional&jfrac=0.4&attempts=6&cap=1",
            include_str!("export/backon/proportional.rs"),
            || Box::new(proportional::backoff()),
        ),
        (
            "linear",
            "v=1&shape=linear&jitter=none&attempts=6&base=0.2&cap=0.7",
            include_str!("export/backon/linear.rs"),
            || Box::new(linear::backoff()),
        ),
        (
            "constant",
            "v=1&shape=constant&jitter=full&attempts=3&base=0.3",
            include_str!("export/backon/constant.rs"),
            || Box::new(constant::backoff()),
        ),
    ]
}

#[test]
fn compiled_snippets_are_what_the_export_writes() {
    let update = std::env::var_os("UPDATE_EXPORT_GOLDEN").is_some();
    for (name, link, golden, _) in cases() {
        let text = export(&Config::from_link(link).0, Format::Backon).text;
        if update {
            let path = format!(
                "{}/tests/export/backon/{name}.rs",
                env!("CARGO_MANIFEST_DIR")
            );
            std::fs::write(path, &text).expect("the golden directory is writable");
            continue;
        }
        assert_eq!(
            text, golden,
            "{name}: the export no longer matches the tested snippet"
        );
    }
}

#[test]
fn backon_pauses_stay_within_the_playground_bounds() {
    const DRAWS: usize = 10_000;
    for (name, link, _, build) in cases() {
        let config = Config::from_link(link).0;
        let policy = config.policy();
        let retries = policy.attempts as usize - 1;
        let bounds: Vec<_> = (0..retries as u32)
            .map(|r| policy.pause_bounds(r))
            .collect();
        let mut sums = vec![0.0; retries];
        for _ in 0..DRAWS {
            let pauses: Vec<f64> = build().map(|d| d.as_secs_f64()).collect();
            assert_eq!(pauses.len(), retries, "{name}: attempts");
            for (retry, pause) in pauses.iter().enumerate() {
                let b = bounds[retry];
                let slack = 1e-6 * b.max.max(1e-3);
                assert!(
                    b.min - slack <= *pause && *pause <= b.max + slack,
                    "{name} retry {retry}: {pause} outside [{}, {}]",
                    b.min,
                    b.max
                );
                sums[retry] += pause;
            }
        }
        let mut worst: f64 = 0.0;
        for (retry, sum) in sums.iter().enumerate() {
            let b = bounds[retry];
            let mean = sum / DRAWS as f64;
            let mut tolerance = 0.03 * (b.max - b.min) + 1e-6 * b.max;
            if policy.jitter == Jitter::Decorrelated {
                tolerance += 0.005 * policy.cap;
            }
            assert!(
                (mean - b.mean).abs() <= tolerance,
                "{name} retry {retry}: backon's mean {mean}, the playground's {} (tolerance {tolerance})",
                b.mean
            );
            worst = worst.max((mean - b.mean).abs() / tolerance);
        }
        // Shown with --nocapture: how much of its tolerance the worst mean used.
        println!(
            "backon {name}: worst mean used {:.0} % of its tolerance",
            100.0 * worst
        );
    }
}
