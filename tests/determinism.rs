//! The same link gives the same numbers, run after run; tests/web.rs checks
//! the very same pins in the browser.

mod common;

use common::golden;
use retry_core::random::Stream;
use retry_sim::config::Config;
use retry_sim::simulate;

fn report_text(link: &str) -> String {
    let (config, notices) = Config::from_link(link);
    assert_eq!(notices, []);
    simulate::to_json(&simulate::run(&config))
}

#[test]
fn report_is_pinned() {
    for pin in &golden::REPORTS {
        let text = report_text(pin.link);
        assert_eq!(text, report_text(pin.link), "two runs differ");
        golden::check(pin, &text);
    }
}

/// The pin's own check must be able to fail: a report one bit away from
/// the pinned one, and one whose summary moved, are both refused, the
/// latter with the number that moved named.
#[test]
fn a_changed_report_fails_its_pin_and_says_what_moved() {
    let pin = &golden::REPORTS[0];
    let text = report_text(pin.link);
    let key = "\"operations\":";
    let at = text.find(key).expect("the summary counts operations") + key.len();
    let end = at + text[at..].find(',').expect("more fields follow");
    let operations: u64 = text[at..end].parse().expect("a count");
    let changed = format!("{}{}{}", &text[..at], operations + 1, &text[end..]);
    let message = std::panic::catch_unwind(|| golden::check(pin, &changed))
        .expect_err("a changed report must fail its pin");
    let message = message
        .downcast_ref::<String>()
        .expect("the check panics with a formatted message");
    assert!(
        message.contains(&format!("was \"operations = {operations}\"")),
        "{message}"
    );
    assert!(
        message.contains(&format!("now \"operations = {}\"", operations + 1)),
        "{message}"
    );
}

#[test]
fn pauses_are_pinned() {
    let (config, _) = Config::from_link(golden::LINK);
    let policy = config.policy();
    let pauses: Vec<f64> = policy.pauses(&mut Stream::new(config.seed(), 3)).collect();
    assert_eq!(pauses, golden::CLIENT3_PAUSES);
}

#[test]
fn the_replays_trace_is_pinned() {
    let text = golden::trace_text();
    assert!(
        text.len() > 10_000,
        "a trace of many operations: {text:.200}"
    );
    assert_eq!(
        golden::fingerprint(&text),
        golden::TRACE_FINGERPRINT,
        "{text:.400}"
    );
}
