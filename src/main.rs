//! Command line: runs the configuration a share link carries and prints the
//! report as JSON (or the time series as CSV), so a link's numbers can be
//! reproduced in a terminal.
//!
//! ```text
//! retry-playground 'v=1&attempts=4&jitter=none&outage_for=10'
//! retry-playground --csv 'v=1&...'   # the per-bucket series
//! retry-playground --sweep 'v=1&...' # success and load at failure rates 0-100 %
//! retry-playground --params          # the parameter table
//! ```

use retry_playground::config::{Kind, PARAMS};
use retry_playground::presets;
use retry_playground::report;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let csv = args.iter().any(|a| a == "--csv");
    let sweep = args.iter().any(|a| a == "--sweep");
    let link = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .map_or("", String::as_str);
    if args.iter().any(|a| a == "--help" || a == "-h") {
        emit(USAGE);
    } else if args.iter().any(|a| a == "--params") {
        print_params();
    } else if let Some(unknown) = args
        .iter()
        .find(|a| a.starts_with("--") && !matches!(a.as_str(), "--csv" | "--sweep"))
    {
        eprintln!("unknown option {unknown}\n{USAGE}");
        std::process::exit(2);
    } else {
        // A whole address is fine too: only its query string matters.
        let query = link.split_once('?').map_or(link, |(_, q)| q);
        let (config, notices) = presets::open(query);
        for notice in &notices {
            eprintln!("{}: {}", notice.key, notice.message);
        }
        // The page's bounds hold here too, with the page's words: a link
        // costs a terminal no more than it costs a browser tab.
        if sweep {
            if let Some(why) = retry_playground::sweep::too_big(&config) {
                eprintln!("sweep: {why}");
                std::process::exit(1);
            }
            emit(&retry_playground::sweep::to_csv(&config));
        } else if csv {
            let report = report::run(&config);
            say_where_cut(&report, None);
            emit(&report::series_csv(&report));
        } else {
            let (a, b) = report::run_both(&config);
            say_where_cut(&a, b.as_ref());
            emit(&(report::both_to_json(&a, b.as_ref()) + "\n"));
        }
    }
}

const USAGE: &str = "usage: retry-playground [--csv | --sweep] [LINK] | --params\n\
    Runs the configuration in LINK (a share link or its query string) and prints\n\
    the report as JSON ({\"a\":..,\"b\":..} in compare mode), or with --csv\n\
    policy A's per-bucket series, or with --sweep the sweep chart's curves.\n\
    Missing keys take\n\
    their defaults; bad values are fixed and reported on stderr.\n";

/// What the page says of a run cut short at a bound, on stderr.
fn say_where_cut(a: &retry_playground::sim::Report, b: Option<&retry_playground::sim::Report>) {
    if let Some(text) = retry_playground::view::limit_text(a, b) {
        eprintln!("cut: {text}");
    }
}

/// Writes to stdout; a closed pipe (`| head`) is not an error worth a panic.
fn emit(text: &str) {
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

fn print_params() {
    let mut out = String::new();
    for param in PARAMS {
        let range = match param.kind {
            Kind::Number { min, max, .. } | Kind::Integer { min, max } => format!("{min}..{max}"),
            Kind::Choice(options) => options.join("|"),
        };
        out += &format!(
            "{:<12} {:<22} {:<3} {:<30} default {:<11} {}\n",
            param.key,
            param.label,
            param.unit,
            range,
            param.format(param.default),
            param.help
        );
    }
    emit(&out);
}
