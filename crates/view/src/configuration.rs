//! The policy as real library configuration on the page: which policy is
//! written out, what the copy button says, and what a pasted configuration
//! did, as lines of text for the page to show (never markup: a paste is
//! untrusted, and the importer may quote bits of it).

use crate::config::Config;
use crate::export::{self, Format, Snippet, import};
use crate::words::tr;

/// The policy the snippet is written for: B while the controls edit B in
/// compare mode, else A.
pub fn snippet(config: &Config, format: Format, showing_b: bool) -> Snippet {
    if showing_b {
        export::export(&config.policy_b_config(), format)
    } else {
        export::export(config, format)
    }
}

/// The heading above the snippet.
pub fn snippet_heading(format: Format, showing_b: bool) -> String {
    let side = if showing_b { "B" } else { "A" };
    crate::tf!(
        "Policy {side} as {format}",
        side = side,
        format = format.title()
    )
}

/// The format picker's options: value and label.
pub fn format_options() -> Vec<(&'static str, &'static str)> {
    Format::ALL.iter().map(|f| (f.key(), f.title())).collect()
}

/// What the snippet's Copy button says: `copied` is whether the snippet
/// really reached the clipboard; if not, it is selected for the person.
pub fn snippet_copy_status(copied: bool) -> &'static str {
    if copied {
        tr("Configuration copied.")
    } else {
        tr(
            "The browser did not let the page copy: the configuration is selected, press Ctrl+C (or Cmd+C) to copy it.",
        )
    }
}

/// What a pasted configuration did.
#[derive(Debug, Clone, PartialEq)]
pub struct Pasted {
    /// The new state, when the paste set anything.
    pub config: Option<Config>,
    /// One sentence: what was read, into which policy.
    pub status: String,
    pub mapped: Vec<String>,
    /// Read but not carried over, each with why.
    pub not_mapped: Vec<String>,
    /// What was wrong with the text, one message per problem.
    pub problems: Vec<String>,
    /// The format it was read as: the team's own, in which the page then
    /// writes policies back (the snippet, the search's winners).
    pub format: Option<Format>,
}

/// Reads a pasted configuration into policy A, or into B (compare mode on)
/// to see it beside the current policy.
pub fn paste(config: &Config, text: &str, to_b: bool) -> Pasted {
    let side = if to_b { "B" } else { "A" };
    let imported = match import::import(text) {
        Ok(imported) => imported,
        Err(why) => {
            return Pasted {
                config: None,
                status: crate::tf!("Nothing was changed: {why}.", why = why),
                mapped: Vec::new(),
                not_mapped: Vec::new(),
                problems: Vec::new(),
                format: None,
            };
        }
    };
    let (next, clamped) = import::apply(config, &imported, to_b);
    let mapped = imported.mapped();
    let changed = !imported.settings.is_empty();
    let status = if changed {
        crate::tf!(
            "Read as {format} into policy {side}: {mapped} mapped, {not} not, {problems} {problems|problem|problems}.",
            format = imported.format.title(),
            side = side,
            mapped = mapped.len(),
            not = imported.unmapped.len() + clamped.len(),
            problems = imported.problems.len(),
        )
    } else {
        crate::tf!(
            "Read as {format}, but nothing in it could be used: policy {side} is unchanged.",
            format = imported.format.title(),
            side = side
        )
    };
    Pasted {
        config: changed.then_some(next),
        status,
        mapped,
        not_mapped: imported.unmapped.into_iter().chain(clamped).collect(),
        problems: imported.problems,
        format: Some(imported.format),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::P;
    use crate::fixtures::config;

    #[test]
    fn the_snippet_follows_the_side_being_edited() {
        let state = config("v=1&attempts=3&compare=on&B.attempts=5");
        let a = snippet(&state, Format::Grpc, false);
        let b = snippet(&state, Format::Grpc, true);
        assert!(a.text.contains("\"maxAttempts\": 3"), "{}", a.text);
        assert!(b.text.contains("\"maxAttempts\": 5"), "{}", b.text);
        assert_eq!(
            snippet_heading(Format::Envoy, true),
            "Policy B as Envoy route retry_policy (JSON)"
        );
        assert_eq!(format_options().len(), Format::ALL.len());
        assert_eq!(format_options()[0].0, "grpc");
        assert!(snippet_copy_status(true).contains("copied"));
        assert!(!snippet_copy_status(false).contains("copied"));
    }

    #[test]
    fn a_grpc_paste_sets_the_policy_and_says_what_it_mapped() {
        let text = r#"{"methodConfig":[{"name":[{}],"retryPolicy":{"maxAttempts":3,
            "initialBackoff":"0.2s","maxBackoff":"2s","backoffMultiplier":3,
            "retryableStatusCodes":["UNAVAILABLE"]}}]}"#;
        let before = config("v=1");
        let pasted = paste(&before, text, false);
        let next = pasted.config.expect("a valid config changes the policy");
        assert_eq!(next.get(P::Attempts), 3.0);
        assert_eq!(next.get(P::Base), 0.2);
        assert!(!next.comparing());
        assert!(
            pasted
                .status
                .starts_with("Read as gRPC service config (JSON) into policy A")
        );
        assert!(
            pasted
                .mapped
                .iter()
                .any(|m| m.starts_with("maxAttempts -> attempts = 3"))
        );
        assert_eq!(pasted.problems, Vec::<String>::new());
        assert_eq!(
            pasted.format,
            Some(Format::Grpc),
            "the team's format, to write back in"
        );

        let to_b = paste(&before, text, true);
        let next = to_b.config.expect("changes B");
        assert!(next.comparing());
        assert_eq!(next.get(P::Attempts), 4.0, "A keeps its attempts");
        assert_eq!(next.policy_b_config().get(P::Attempts), 3.0);
        assert!(to_b.status.contains("into policy B"));
    }

    #[test]
    fn a_hostile_or_broken_paste_changes_nothing_and_says_why() {
        let before = config("v=1");
        let hostile = paste(
            &before,
            r#"{"methodConfig":[{"retryPolicy":{"maxAttempts":"<img src=x onerror=alert(1)>"}}]}"#,
            false,
        );
        assert!(!hostile.problems.is_empty());
        assert!(
            hostile
                .problems
                .iter()
                .any(|p| p == "maxAttempts must be a number"),
            "{:?}",
            hostile.problems
        );
        let garbage = paste(&before, "\u{0}\u{1}{{{{ not json", false);
        assert_eq!(garbage.config, None);
        assert_eq!(garbage.format, None, "no format to write back in");
        assert!(
            garbage.status.starts_with("Nothing was changed: "),
            "{}",
            garbage.status
        );
        let empty = paste(&before, "   ", true);
        assert_eq!(empty.config, None);
        assert!(empty.status.contains("nothing to read"), "{}", empty.status);
    }
}
