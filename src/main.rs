//! Command line: runs the configuration a share link carries and prints the
//! report as JSON, so a link's numbers can be reproduced in a terminal.
//!
//! ```text
//! retry-playground 'v=1&attempts=4&base=0.1&cap=0.8&jitter=full&seed=7'
//! retry-playground --params        # the parameter table
//! ```

use retry_playground::config::{Config, Kind, PARAMS};
use retry_playground::study;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("--help" | "-h") => emit(&usage()),
        Some("--params") => print_params(),
        link => {
            let link = link.unwrap_or("");
            // A whole address is fine too: only its query string matters.
            let query = link.split_once('?').map_or(link, |(_, q)| q);
            let (config, notices) = Config::from_link(query);
            for notice in &notices {
                eprintln!("{}: {}", notice.key, notice.message);
            }
            let result = study::study(&config.policy(), config.seed(), config.samples());
            emit(&(study::to_json(&result) + "\n"));
        }
    }
}

fn usage() -> String {
    "usage: retry-playground [LINK | --params]\n\
     Runs the configuration in LINK (a share link or its query string) and prints JSON.\n\
     Missing keys take their defaults; bad values are fixed and reported on stderr.\n"
        .to_string()
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
            "{:<10} {:<24} {:<4} {:<28} default {:<8} {}\n",
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
