//! The same link gives the same numbers, run after run; tests/web.rs checks
//! the very same pins in the browser.

mod golden;

use retry_playground::config::Config;
use retry_playground::random::Stream;
use retry_playground::report;

fn report_text(link: &str) -> String {
    let (config, notices) = Config::from_link(link);
    assert_eq!(notices, []);
    report::to_json(&report::run(&config))
}

#[test]
fn report_is_pinned() {
    for (link, pin) in golden::REPORTS {
        let text = report_text(link);
        assert_eq!(text, report_text(link), "two runs differ");
        assert_eq!(golden::fingerprint(&text), pin, "{text:.400}");
    }
}

#[test]
fn pauses_are_pinned() {
    let (config, _) = Config::from_link(golden::LINK);
    let policy = config.policy();
    let pauses: Vec<f64> = policy.pauses(&mut Stream::new(config.seed(), 3)).collect();
    assert_eq!(pauses, golden::CLIENT3_PAUSES);
}
