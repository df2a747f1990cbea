//! The command line as a terminal runs it: the binary itself, with its
//! exit codes and its two streams.

use retry_analyses::sweep;
use retry_sim::config::Config;
use retry_teach::course;

fn config(link: &str) -> Config {
    let (config, notices) = course::open(link);
    assert_eq!(notices, [], "{link}");
    config
}

/// The page refuses to sweep a link this big, and a contention link, which
/// has no failure rate to sweep; the command line's sweep of the first once
/// ran for a minute, that of the second printed curves that meant nothing.
/// Both now refuse with the page's words.
#[test]
fn a_sweep_the_page_refuses_is_refused_everywhere() {
    for link in [
        "v=1&rate=20000&horizon=3600&failure=0.5",
        "v=1&workload=contention&clients=5",
    ] {
        let why = sweep::refusal(&config(link)).expect("the page refuses");
        assert!(!why.contains("--sweep"), "{why}");
        let cli = std::process::Command::new(env!("CARGO_BIN_EXE_retry-playground"))
            .args(["--sweep", link])
            .output()
            .expect("the command line runs");
        assert_eq!(cli.status.code(), Some(1), "{link}");
        assert_eq!(String::from_utf8_lossy(&cli.stdout), "", "{link}");
        assert_eq!(
            String::from_utf8_lossy(&cli.stderr),
            format!("sweep: {why}\n"),
            "{link}"
        );
    }
}
