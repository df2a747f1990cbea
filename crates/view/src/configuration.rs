//! The policy as real library configuration on the page: which policy is
//! written out, what the copy button says, and what a pasted configuration
//! did, as lines of text for the page to show (never markup: a paste is
//! untrusted, and the importer may quote bits of it).

use retry_core::words::tr;
use retry_export::{Format, Snippet, import};
use retry_sim::config::Config;

/// The policy the snippet is written for: B while the controls edit B in
/// compare mode, else A.
pub fn snippet(config: &Config, format: Format, showing_b: bool) -> Snippet {
    if showing_b {
        retry_export::export(&config.policy_b_config(), format)
    } else {
        retry_export::export(config, format)
    }
}

/// The heading above the snippet.
pub fn snippet_heading(format: Format, showing_b: bool) -> String {
    let side = if showing_b { "B" } else { "A" };
    retry_core::tf!(
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
    /// What the text left out, at its system's default, each with its
    /// source.
    pub defaults: Vec<String>,
    /// The format it was read as: the team's own, in which the page then
    /// writes policies back (the snippet, the search's winners).
    pub format: Option<Format>,
}

/// Where a pasted configuration goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    A,
    /// Policy B, compare mode on, to see it beside the current policy.
    B,
    /// The service at this layer of the chain (2 to 5): the calls it
    /// makes to the one below.
    Layer(u32),
}

impl Target {
    /// The target as the page names it to "Take it home"'s module: `a`,
    /// `b`, or the layer's number.
    pub fn key(self) -> String {
        match self {
            Target::A => "a".to_string(),
            Target::B => "b".to_string(),
            Target::Layer(layer) => layer.to_string(),
        }
    }

    /// The target a key names; none for anything else, or for a layer
    /// a paste cannot go into.
    pub fn parse(key: &str) -> Option<Target> {
        match key {
            "a" => Some(Target::A),
            "b" => Some(Target::B),
            _ => key
                .parse()
                .ok()
                .filter(|layer| import::PASTE_LAYERS.contains(layer))
                .map(Target::Layer),
        }
    }
}

/// "Take it home"'s module (`home/`, loaded the first time the section
/// opens) and the page share no memory: what crosses between them is
/// text. The state goes over as its link; the snippet comes back as its
/// text then its notes, and a paste as rows `kind<TAB>text`, the new
/// state as its link.
pub mod across {
    use super::*;

    /// The snippet of the state at `link` in the format keyed `format`:
    /// its text, then its notes.
    pub fn snippet(link: &str, format: &str, showing_b: bool) -> Vec<String> {
        let (config, _) = Config::from_link(link);
        let format = Format::parse(format).unwrap_or(Format::Grpc);
        let snippet = super::snippet(&config, format, showing_b);
        let notes = snippet.notes();
        std::iter::once(snippet.text).chain(notes).collect()
    }

    /// A paste of `text` into the target keyed `target` of the state at
    /// `link`, as rows.
    pub fn paste(link: &str, text: &str, target: &str) -> Vec<String> {
        let (config, _) = Config::from_link(link);
        let target = Target::parse(target).unwrap_or(Target::A);
        let pasted = super::paste(&config, text, target);
        let mut rows = vec![format!("status\t{}", pasted.status)];
        let lists = [
            ("mapped", &pasted.mapped),
            ("not", &pasted.not_mapped),
            ("problem", &pasted.problems),
            ("default", &pasted.defaults),
        ];
        for (kind, lines) in lists {
            rows.extend(lines.iter().map(|line| format!("{kind}\t{line}")));
        }
        if let Some(format) = pasted.format {
            rows.push(format!("format\t{}", format.key()));
        }
        if let Some(next) = pasted.config {
            rows.push(format!("link\t{}", next.to_link()));
        }
        rows
    }

    /// The paste the rows of [`paste`] say.
    pub fn pasted(rows: &[String]) -> Pasted {
        let mut pasted = Pasted {
            config: None,
            status: String::new(),
            mapped: Vec::new(),
            not_mapped: Vec::new(),
            problems: Vec::new(),
            defaults: Vec::new(),
            format: None,
        };
        for (kind, text) in rows.iter().filter_map(|row| row.split_once('\t')) {
            match kind {
                "status" => pasted.status = text.to_string(),
                "mapped" => pasted.mapped.push(text.to_string()),
                "not" => pasted.not_mapped.push(text.to_string()),
                "problem" => pasted.problems.push(text.to_string()),
                "default" => pasted.defaults.push(text.to_string()),
                "format" => pasted.format = Format::parse(text),
                "link" => pasted.config = Some(Config::from_link(text).0),
                _ => {}
            }
        }
        pasted
    }
}

/// Reads a pasted configuration into `target`.
pub fn paste(config: &Config, text: &str, target: Target) -> Pasted {
    let imported = match import::import(text) {
        Ok(imported) => imported,
        Err(why) => {
            return Pasted {
                config: None,
                status: retry_core::tf!("Nothing was changed: {why}.", why = why),
                mapped: Vec::new(),
                not_mapped: Vec::new(),
                problems: Vec::new(),
                defaults: Vec::new(),
                format: None,
            };
        }
    };
    let format = imported.format;
    // Where it went, and that it went nowhere: two phrases, as Russian
    // declines the target differently in each.
    let (imported, into, unchanged) = match target {
        Target::A | Target::B => {
            let side = if target == Target::B { "B" } else { "A" };
            (
                imported,
                retry_core::tf!("into policy {side}", side = side),
                retry_core::tf!("policy {side} is unchanged", side = side),
            )
        }
        Target::Layer(layer) => (
            imported.for_layer(config, layer),
            retry_core::tf!("into the service at layer {layer}", layer = layer),
            retry_core::tf!("the service at layer {layer} is unchanged", layer = layer),
        ),
    };
    let (next, clamped) = import::apply(config, &imported, target == Target::B);
    let mapped = imported.mapped();
    let defaults = imported.defaulted();
    let changed = !imported.settings.is_empty();
    let status = if changed {
        retry_core::tf!(
            "Read as {format} {into}: {mapped} mapped, {not} not, {problems} {problems|problem|problems}.",
            format = format.title(),
            into = into,
            mapped = mapped.len(),
            not = imported.unmapped.len() + clamped.len(),
            problems = imported.problems.len(),
        )
    } else {
        retry_core::tf!(
            "Read as {format}, but nothing in it could be used: {unchanged}.",
            format = format.title(),
            unchanged = unchanged
        )
    };
    Pasted {
        config: changed.then_some(next),
        status,
        mapped,
        not_mapped: imported.unmapped.into_iter().chain(clamped).collect(),
        defaults,
        problems: imported.problems,
        format: Some(format),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::config;
    use retry_sim::config::P;

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

    /// What crosses to "Take it home"'s module and back is what the page
    /// would have said itself: every format's snippet of both policies,
    /// and pastes into every target (read, refused, partly read, quoting
    /// a tab and a line break of the paste), state included.
    #[test]
    fn the_module_across_says_what_the_page_would() {
        let link = "v=1&attempts=3&compare=on&B.attempts=5&B.budget=ratio&layers=3&l2_attempts=2";
        let state = config(link);
        for format in Format::ALL {
            for b in [false, true] {
                let direct = snippet(&state, format, b);
                let lines = across::snippet(&state.to_link(), format.key(), b);
                assert_eq!(lines[0], direct.text, "{format:?}");
                assert_eq!(lines[1..], direct.notes(), "{format:?}");
            }
        }
        let grpc = r#"{"methodConfig":[{"name":[{}],"retryPolicy":{"maxAttempts":3,
            "initialBackoff":"0.2s","maxBackoff":"2s","backoffMultiplier":3,
            "retryableStatusCodes":["UNAVAILABLE"]}}]}"#;
        let pastes = [
            grpc,
            "{\"retry_policy\":{\"num_retries\":2,\"per_try_timeout\":\"0.25s\",\"x\tq\":1}}",
            "[default]\nretry_mode = adaptive\nmax_attempts = 9\n",
            "no configuration\tat all\n",
            "",
        ];
        for text in pastes {
            for target in [Target::A, Target::B, Target::Layer(2), Target::Layer(5)] {
                assert_eq!(Target::parse(&target.key()), Some(target));
                let direct = paste(&state, text, target);
                let rows = across::paste(&state.to_link(), text, &target.key());
                let back = across::pasted(&rows);
                assert_eq!(back.status, direct.status);
                assert_eq!(back.mapped, direct.mapped);
                assert_eq!(back.not_mapped, direct.not_mapped);
                assert_eq!(back.problems, direct.problems);
                assert_eq!(back.format, direct.format);
                assert_eq!(
                    back.config.map(|c| c.to_link()),
                    direct.config.map(|c| c.to_link()),
                    "{text} into {target:?}"
                );
            }
        }
        for key in ["", "c", "1", "6", "2x", "-2"] {
            assert_eq!(Target::parse(key), None, "{key}");
        }
    }

    #[test]
    fn a_grpc_paste_sets_the_policy_and_says_what_it_mapped() {
        let text = r#"{"methodConfig":[{"name":[{}],"retryPolicy":{"maxAttempts":3,
            "initialBackoff":"0.2s","maxBackoff":"2s","backoffMultiplier":3,
            "retryableStatusCodes":["UNAVAILABLE"]}}]}"#;
        let before = config("v=1");
        let pasted = paste(&before, text, Target::A);
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

        let to_b = paste(&before, text, Target::B);
        let next = to_b.config.expect("changes B");
        assert!(next.comparing());
        assert_eq!(next.get(P::Attempts), 4.0, "A keeps its attempts");
        assert_eq!(next.policy_b_config().get(P::Attempts), 3.0);
        assert!(to_b.status.contains("into policy B"));
    }

    /// A paste into one service of the chain sets that layer's own
    /// attempts, base delay, backoff shape, cap, jitter and timeout on its
    /// call below (the last layer's calls take the attempt timeout, so
    /// there that is what it sets); everything else stays the policy's
    /// and is listed as not mapped. A chain shorter than the layer grows to it. The simulator
    /// then counts the layer's own attempts: when every call fails, the
    /// card's worst case multiplies A's 4 by the pasted 3.
    #[test]
    fn a_paste_into_a_service_of_the_chain_sets_that_layers_own_policy() {
        let envoy = r#"{"retry_policy":{"num_retries":2,"per_try_timeout":"0.25s",
            "retry_back_off":{"base_interval":"0.025s","max_interval":"0.25s"}}}"#;
        let chain = config("v=1&layers=3");
        let middle = paste(&chain, envoy, Target::Layer(2));
        let next = middle.config.expect("a layer's policy");
        assert_eq!(
            [
                next.get(P::Layer2Attempts),
                next.get(P::Layer2Base),
                next.get(P::Layer2Cap),
                next.get(P::Layer2Timeout)
            ],
            [3.0, 0.025, 0.25, 0.25]
        );
        // Envoy's jitter is always full: the service's own.
        let full = retry_sim::config::JITTERS.position(retry_core::policy::Jitter::Full);
        assert_eq!(next.get(P::Layer2Jitter), full + 1.0);
        // Its ceilings double from the base: exponential, the service's own.
        let exponential =
            retry_sim::config::SHAPES.position(retry_core::policy::Shape::Exponential);
        assert_eq!(next.get(P::Layer2Shape), exponential + 1.0);
        assert_eq!(next.get(P::Attempts), 4.0, "A keeps its own");
        assert_eq!(next.get(P::Cap), chain.get(P::Cap));
        assert_eq!(next.get(P::Timeout), chain.get(P::Timeout));
        assert!(
            middle
                .status
                .contains("into the service at layer 2: 6 mapped"),
            "{}",
            middle.status
        );
        assert!(
            middle
                .not_mapped
                .iter()
                .any(|n| n.contains("a service below the top takes the policy's “Multiplier”")),
            "{:?}",
            middle.not_mapped
        );
        assert_eq!(retry_analyses::card::card(&next).worst_factors, [4, 3, 4]);

        let last = paste(&chain, envoy, Target::Layer(3))
            .config
            .expect("the last layer's");
        assert_eq!(last.get(P::Layer3Attempts), 3.0);
        assert_eq!(
            last.get(P::Timeout),
            0.25,
            "the last layer's calls take the attempt timeout"
        );
        assert_eq!(last.get(P::Layer3Timeout), 0.0);

        // A gRPC config without retryThrottling turns the layer's budget
        // off, one with it keeps the policy's bucket; Envoy's retries in
        // flight, another kind, become the service's own (with the
        // policy's settings of that kind).
        let bucket = config("v=1&layers=3&budget=token-bucket");
        let grpc = |throttling: &str| {
            format!(
                r#"{{"methodConfig":[{{"name":[{{}}],"retryPolicy":{{"maxAttempts":3,"initialBackoff":"0.1s",
                "maxBackoff":"1s","backoffMultiplier":2,"retryableStatusCodes":["UNAVAILABLE"]}}}}]{throttling}}}"#
            )
        };
        let off = paste(&bucket, &grpc(""), Target::Layer(2))
            .config
            .expect("no budget");
        assert_eq!(off.get(P::Layer2Budget), 0.0);
        assert_eq!(
            off.budget_kind(),
            bucket.budget_kind(),
            "the policy keeps its own"
        );
        let throttled = grpc(r#","retryThrottling":{"maxTokens":10,"tokenRatio":0.1}"#);
        let on = paste(&off, &throttled, Target::Layer(2))
            .config
            .expect("a bucket");
        assert_eq!(on.get(P::Layer2Budget), 1.0);
        let envoy_budget = r#"{"retry_policy":{"num_retries":2},"circuit_breakers":{"thresholds":
            [{"retry_budget":{"budget_percent":{"value":20},"min_retry_concurrency":3}}]}}"#;
        let other = paste(&bucket, envoy_budget, Target::Layer(2));
        let own = other.config.expect("attempts");
        assert!(
            own.to_link().contains("l2_budget=envoy"),
            "{}",
            own.to_link()
        );
        assert_eq!(
            own.budget_kind(),
            retry_core::budget::BudgetKind::TokenBucket
        );
        assert!(
            !other
                .not_mapped
                .iter()
                .any(|n| n.contains("takes the policy's “Retry budget”")),
            "{:?}",
            other.not_mapped
        );

        let grown = paste(&config("v=1"), envoy, Target::Layer(5))
            .config
            .expect("a longer chain");
        assert_eq!(grown.get(P::Layers), 5.0);
        assert_eq!(
            [grown.get(P::Layer5Attempts), grown.get(P::Timeout)],
            [3.0, 0.25]
        );
    }

    #[test]
    fn a_hostile_or_broken_paste_changes_nothing_and_says_why() {
        let before = config("v=1");
        let hostile = paste(
            &before,
            r#"{"methodConfig":[{"retryPolicy":{"maxAttempts":"<img src=x onerror=alert(1)>"}}]}"#,
            Target::A,
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
        let garbage = paste(&before, "\u{0}\u{1}{{{{ not json", Target::A);
        assert_eq!(garbage.config, None);
        assert_eq!(garbage.format, None, "no format to write back in");
        assert!(
            garbage.status.starts_with("Nothing was changed: "),
            "{}",
            garbage.status
        );
        let empty = paste(&before, "   ", Target::B);
        assert_eq!(empty.config, None);
        assert!(empty.status.contains("nothing to read"), "{}", empty.status);
    }
}
