//! The exports behave like the playground's policy, and the importers take
//! anything without panicking.
//!
//! Libraries this machine cannot run (Polly, resilience4j, Go) are held to
//! golden snippets, and the numbers in each snippet are read back from its
//! text and compared with the configuration's. gRPC exports are checked
//! against gRFC A6's rules, and the playground's token bucket against A6's
//! throttling arithmetic. backon runs for real in tests/export_backon.rs,
//! tenacity and botocore in tests/python.

use retry_core::budget::{Budget, BudgetKind, Spec, token_bucket};
use retry_core::policy::{Jitter, Shape};
use retry_core::random::Stream;
use retry_export::import::{self, MAX_INPUT};
use retry_export::{Fit, Format, KNOBS, export};
use retry_sim::config::{Config, P};
use serde_json::Value;

/// Links the golden snippets are written for: the defaults, a link using
/// every policy knob, and a linear shape with equal jitter.
const GOLDEN: [(&str, &str); 3] = [
    ("default", "v=1"),
    (
        "features",
        "v=1&attempts=6&mult=3&cap=2&jitter=proportional&jfrac=0.3&timeout=0.5&deadline=4&budget=token-bucket&tokens=20&t_ratio=0.25",
    ),
    (
        "linear",
        "v=1&shape=linear&jitter=equal&attempts=5&base=0.2&cap=0.7",
    ),
];

/// Links with many different policies, for the checks that hold for all.
fn varied_links() -> Vec<String> {
    let mut links = Vec::new();
    for shape in ["constant", "linear", "exponential"] {
        for jitter in ["none", "full", "equal", "decorrelated", "proportional"] {
            for (attempts, extra) in [
                (1, ""),
                (3, "&deadline=2.5"),
                (5, "&timeout=0.25&budget=ratio"),
                (9, "&mult=1.5&budget=token-bucket&t_ratio=0.0004"),
                (4, "&base=1.234&cap=30&budget=aws-quota"),
            ] {
                links.push(format!(
                    "v=1&shape={shape}&jitter={jitter}&attempts={attempts}{extra}"
                ));
            }
        }
    }
    links
}

/// The formats the page reads back as well as writes.
const IMPORTABLE: [Format; 9] = [
    Format::Grpc,
    Format::Envoy,
    Format::Aws,
    Format::Istio,
    Format::GatewayApi,
    Format::EnvoyGateway,
    Format::Kuma,
    Format::Linkerd,
    Format::SpringResilience4j,
];

fn config(link: &str) -> Config {
    Config::from_link(link).0
}

fn golden_path(format: Format, name: &str) -> String {
    format!(
        "{}/tests/export/golden/{}-{name}.txt",
        env!("CARGO_MANIFEST_DIR"),
        format.key()
    )
}

#[test]
fn snippets_match_their_golden_files() {
    let update = std::env::var_os("UPDATE_EXPORT_GOLDEN").is_some();
    // backon's snippets are compiled and run (tests/export_backon.rs), their
    // golden files Rust sources of their own.
    for format in Format::ALL.into_iter().filter(|f| *f != Format::Backon) {
        for (name, link) in GOLDEN {
            let snippet = export(&config(link), format);
            let mut text = snippet.text.clone();
            for note in snippet.notes() {
                text += &format!("# note: {note}\n");
            }
            let path = golden_path(format, name);
            if update {
                std::fs::write(&path, &text).expect("the golden directory is writable");
            }
            let golden = std::fs::read_to_string(&path)
                .unwrap_or_else(|_| panic!("{path} is missing: run with UPDATE_EXPORT_GOLDEN=1"));
            assert_eq!(text, golden, "{format:?} {name} differs from {path}");
        }
    }
}

/// The number after `label` in `text` (up to the next character that
/// cannot be part of a number).
fn number_after(text: &str, label: &str) -> f64 {
    let start = text
        .find(label)
        .unwrap_or_else(|| panic!("'{label}' not in:\n{text}"))
        + label.len();
    let digits: String = text[start..]
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == '-')
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no number after '{label}' in:\n{text}"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

/// Reads the numbers back out of the snippets of libraries that cannot run
/// here and compares them with the policy: attempts against retries, times
/// in each library's unit.
#[test]
fn numbers_in_snippets_equal_the_configuration() {
    for link in varied_links() {
        let config = config(&link);
        let policy = config.policy();
        let retries = f64::from(policy.attempts - 1);
        let ms = |seconds: f64| (seconds * 1000.0).round();

        let polly = export(&config, Format::Polly).text;
        assert_eq!(
            number_after(&polly, "MaxRetryAttempts ="),
            retries,
            "{link}"
        );
        assert!(
            close(
                number_after(&polly, "Delay = TimeSpan.FromSeconds("),
                policy.base
            ),
            "{link}"
        );
        assert!(
            close(
                number_after(&polly, "MaxDelay = TimeSpan.FromSeconds("),
                policy.cap
            ),
            "{link}"
        );
        let backoff = match policy.shape {
            Shape::Constant => "Constant",
            Shape::Linear => "Linear",
            Shape::Exponential => "Exponential",
        };
        assert!(
            polly.contains(&format!("DelayBackoffType.{backoff}")),
            "{link}"
        );
        assert_eq!(
            polly.contains("UseJitter = true"),
            policy.jitter != Jitter::None,
            "{link}"
        );
        if let Some(timeout) = policy.attempt_timeout {
            assert!(
                polly.contains(&format!(
                    "AddTimeout(TimeSpan.FromSeconds({timeout})) // each attempt"
                )),
                "{link}"
            );
        }

        let java = export(&config, Format::Resilience4j).text;
        assert_eq!(
            number_after(&java, ".maxAttempts("),
            f64::from(policy.attempts),
            "{link}"
        );
        assert_eq!(
            number_after(&java, "Backoff(Duration.ofMillis("),
            ms(policy.base),
            "{link}"
        );
        let factor = if policy.shape == Shape::Constant {
            1.0
        } else {
            policy.multiplier
        };
        assert!(
            close(
                number_after(&java, &format!("Duration.ofMillis({}),", ms(policy.base))),
                factor
            ),
            "{link}"
        );
        if policy.jitter == Jitter::Proportional {
            assert!(
                java.contains(&format!(
                    ", {}, Duration.ofMillis({}))",
                    policy.jitter_fraction,
                    ms(policy.cap)
                )),
                "{link}"
            );
        }

        let go = export(&config, Format::Go).text;
        assert_eq!(
            number_after(&go, "backoff.WithMaxTries("),
            f64::from(policy.attempts),
            "{link}"
        );
        assert_eq!(
            number_after(&go, "InitialInterval:"),
            ms(policy.base),
            "{link}"
        );
        assert_eq!(number_after(&go, "MaxInterval:"), ms(policy.cap), "{link}");
        assert!(close(number_after(&go, "Multiplier:"), factor), "{link}");
        let fraction = number_after(&go, "RandomizationFactor:");
        match policy.jitter {
            Jitter::None => assert_eq!(fraction, 0.0),
            Jitter::Proportional => assert_eq!(fraction, policy.jitter_fraction),
            _ => assert_eq!(fraction, 0.5),
        }
        if let Some(deadline) = policy.deadline {
            assert_eq!(
                number_after(&go, "backoff.WithMaxElapsedTime("),
                ms(deadline),
                "{link}"
            );
        }
    }
}

#[test]
fn every_snippet_reports_every_knob_and_explains_what_is_not_exact() {
    for link in varied_links() {
        for format in Format::ALL {
            let snippet = export(&config(&link), format);
            let knobs: Vec<&str> = snippet.mappings.iter().map(|m| m.knob).collect();
            assert_eq!(knobs, KNOBS, "{format:?} {link}");
            for mapping in &snippet.mappings {
                assert_eq!(
                    mapping.fit == Fit::Exact,
                    mapping.why.is_empty(),
                    "{format:?} {link}: {mapping:?}"
                );
            }
        }
    }
}

/// A proto3 JSON duration as gRFC A6 requires: decimal seconds, an `s`.
fn a6_duration(value: &Value) -> f64 {
    let text = value.as_str().expect("a duration is a string");
    let number = text.strip_suffix('s').expect("a duration ends in s");
    assert!(
        number.chars().all(|c| c.is_ascii_digit() || c == '.') && !number.starts_with('.'),
        "{text} is not decimal seconds"
    );
    number.parse().expect("decimal seconds")
}

/// gRFC A6 (grpc/proposal, A6-client-retries.md), "Validation of
/// retryPolicy" and "Throttling Configuration".
#[test]
fn grpc_exports_satisfy_grfc_a6() {
    for link in varied_links() {
        let config = config(&link);
        let policy = config.policy();
        let text = export(&config, Format::Grpc).text;
        let json: Value = serde_json::from_str(&text).expect("the export is JSON");
        let method = &json["methodConfig"][0];
        assert!(method["name"].as_array().is_some_and(|n| !n.is_empty()));
        if let Some(deadline) = policy.deadline {
            assert!(close(a6_duration(&method["timeout"]), deadline));
        }
        let retry = &method["retryPolicy"];
        if policy.attempts == 1 {
            assert!(retry.is_null(), "one attempt means no retry policy: {link}");
        } else {
            let attempts = retry["maxAttempts"].as_u64().expect("an integer");
            assert!((2..=5).contains(&attempts), "{link}: {attempts}");
            assert_eq!(attempts, u64::from(policy.attempts.min(5)));
            assert!(a6_duration(&retry["initialBackoff"]) > 0.0);
            assert!(close(a6_duration(&retry["maxBackoff"]), policy.cap));
            assert!(retry["backoffMultiplier"].as_f64().expect("a number") > 0.0);
            assert!(
                retry["retryableStatusCodes"]
                    .as_array()
                    .is_some_and(|c| !c.is_empty())
            );
        }
        let throttling = &json["retryThrottling"];
        if config.budget_kind() == BudgetKind::TokenBucket {
            let max_tokens = throttling["maxTokens"].as_f64().expect("a number");
            assert!(max_tokens > 0.0 && max_tokens <= 1000.0);
            let ratio = throttling["tokenRatio"].as_f64().expect("a number");
            assert!(ratio > 0.0, "{link}");
            assert_eq!(
                (ratio * 1000.0).round() / 1000.0,
                ratio,
                "at most 3 decimals: {ratio}"
            );
        } else {
            assert!(throttling.is_null());
        }
    }
}

/// gRFC A6's throttling, worked through: maxTokens 10, tokenRatio 0.1.
/// Every failure takes a token, every success gives 0.1 back; retries are
/// allowed while the count is above half of maxTokens (5).
#[test]
fn token_bucket_reproduces_a6_throttling_arithmetic() {
    let mut bucket = Budget::new(&Spec::TokenBucket(token_bucket::Params {
        max_tokens: 10.0,
        token_ratio: 0.1,
    }));
    // Four failures: 10 -> 6, still above 5, so retries go on.
    for _ in 0..4 {
        bucket.on_failure(0.0, false);
    }
    assert_eq!(bucket.tokens(), 6.0);
    assert!(bucket.try_retry(0.0, false).is_some());
    // The fifth: 5 is not above 5, throttled.
    bucket.on_failure(0.0, false);
    assert!(bucket.try_retry(0.0, false).is_none());
    // Eleven successes: 5 + 1.1 = 6.1 > 5, retries resume.
    for _ in 0..11 {
        bucket.on_success(0.0, 0.0);
    }
    assert!((bucket.tokens() - 6.1).abs() < 1e-9, "{}", bucket.tokens());
    assert!(bucket.try_retry(0.0, false).is_some());
    // A6: the count never exceeds maxTokens nor goes below 0.
    for _ in 0..100 {
        bucket.on_success(0.0, 0.0);
    }
    assert_eq!(bucket.tokens(), 10.0);
    for _ in 0..100 {
        bucket.on_failure(0.0, false);
    }
    assert_eq!(bucket.tokens(), 0.0);
}

/// The knobs each format carries, as parameters to compare after a round
/// trip.
fn carried(format: Format, config: &Config) -> Vec<(P, f64)> {
    let policy = [P::Attempts, P::Base, P::Cap, P::Jitter];
    let mut knobs: Vec<P> = match format {
        Format::Grpc => [
            &policy[..],
            &[
                P::JitterFraction,
                P::Shape,
                P::Multiplier,
                P::Deadline,
                P::Budget,
            ],
        ]
        .concat(),
        Format::Envoy | Format::EnvoyGateway | Format::Kuma => {
            [&policy[..], &[P::Timeout, P::Deadline]].concat()
        }
        // Istio's cap is ten times its backoff, whatever the policy's.
        Format::Istio => vec![P::Attempts, P::Base, P::Jitter, P::Timeout, P::Deadline],
        // The API leaves the backoff's growth, cap and jitter to the
        // implementation; it carries the first pause and the timeouts.
        Format::GatewayApi => vec![P::Attempts, P::Base, P::Timeout, P::Deadline],
        // A Linkerd route has no backoff.
        Format::Linkerd => vec![P::Attempts, P::Timeout, P::Deadline],
        // resilience4j has no deadline, and spreads by a proportional factor.
        Format::SpringResilience4j => vec![
            P::Attempts,
            P::Base,
            P::Cap,
            P::Jitter,
            P::Timeout,
            P::Shape,
        ],
        Format::Aws => vec![P::Attempts],
        _ => unreachable!("only the importable formats"),
    };
    if format == Format::Grpc && config.budget_kind() == BudgetKind::TokenBucket {
        knobs.extend([P::Tokens, P::TokenRatio]);
    }
    if format == Format::GatewayApi && config.budget_kind() == BudgetKind::Ratio {
        knobs.extend([
            P::Budget,
            P::BudgetPercent,
            P::BudgetWindow,
            P::BudgetFloor,
            P::BudgetBasis,
        ]);
    }
    if matches!(format, Format::Istio | Format::EnvoyGateway)
        && config.budget_kind() == BudgetKind::Envoy
    {
        knobs.extend([P::Budget, P::EnvoyPercent, P::EnvoyMin]);
    }
    knobs.into_iter().map(|p| (p, config.get(p))).collect()
}

/// Export then import gives back every knob the format carries, for
/// policies the format can express exactly (gRPC: proportional jitter of
/// 0.2, at most 5 attempts, a geometric shape; Envoy: full jitter,
/// doubling).
#[test]
fn export_then_import_round_trips() {
    let links = [
        "v=1",
        "v=1&attempts=5&base=0.25&cap=4&mult=3&deadline=7.5&budget=token-bucket&tokens=42&t_ratio=0.125",
        "v=1&attempts=2&shape=constant&base=0.3&cap=0.5",
        "v=1&attempts=3&base=0.05&cap=1.5&timeout=0.2&deadline=3",
        "v=1&attempts=4&base=0.1&cap=1&timeout=0.3&budget=envoy&ev_pct=0.25&ev_min=5",
        "v=1&attempts=3&base=0.2&timeout=0.25&deadline=2&budget=ratio&b_pct=0.1&b_window=10&b_floor=5&b_basis=requests",
    ];
    for link in links {
        for format in IMPORTABLE {
            let original = match format {
                Format::Grpc => config(&format!("{link}&jitter=proportional&jfrac=0.2")),
                Format::SpringResilience4j => {
                    config(&format!("{link}&jitter=proportional&jfrac=0.3"))
                }
                _ => config(link),
            };
            if matches!(
                format,
                Format::Envoy | Format::Istio | Format::EnvoyGateway | Format::Kuma
            ) && original.shape() != Shape::Exponential
            {
                continue;
            }
            if !matches!(format, Format::Istio | Format::EnvoyGateway)
                && original.budget_kind() == BudgetKind::Envoy
            {
                continue;
            }
            if format != Format::GatewayApi && original.budget_kind() == BudgetKind::Ratio {
                continue;
            }
            if matches!(
                format,
                Format::Kuma | Format::Linkerd | Format::SpringResilience4j
            ) && original.budget_kind() != BudgetKind::None
            {
                continue;
            }
            let text = export(&original, format).text;
            let imported =
                import::import(&text).unwrap_or_else(|why| panic!("{format:?} {link}: {why}"));
            assert!(
                imported.problems.is_empty(),
                "{format:?} {link}: {:?}",
                imported.problems
            );
            let (back, clamped) = import::apply(&Config::default(), &imported, false);
            assert!(clamped.is_empty(), "{format:?} {link}: {clamped:?}");
            let mut expected = original.clone();
            if format == Format::Grpc && original.shape() == Shape::Constant {
                // A constant schedule is exported as a factor of 1.
                expected.set(P::Multiplier, 2.0);
            }
            assert_eq!(
                carried(format, &back),
                carried(format, &expected),
                "{format:?} {link}\n{text}"
            );
            // Policy B takes the same import.
            let (with_b, _) = import::apply(&Config::default(), &imported, true);
            assert_eq!(
                carried(format, &with_b.policy_b_config()),
                carried(format, &expected),
                "B: {format:?} {link}"
            );
        }
    }
}

/// Hostile and malformed inputs: at least 1 000 per importer, built from
/// valid exports by cutting, flipping, swapping values for wrong types and
/// splicing in hostile fragments. Each gives a result or a message, never a
/// panic, and what it applies is always a valid configuration.
#[test]
fn malformed_inputs_give_messages_never_panics() {
    let seeds = [
        export(&config(GOLDEN[1].1), Format::Grpc).text,
        export(&config(GOLDEN[1].1), Format::Envoy).text,
        export(
            &config("v=1&attempts=4&timeout=0.3&deadline=2&budget=envoy"),
            Format::Istio,
        )
        .text,
        export(
            &config("v=1&attempts=4&timeout=0.3&deadline=2&budget=ratio&b_basis=requests"),
            Format::GatewayApi,
        )
        .text,
        export(
            &config("v=1&attempts=4&timeout=0.3&deadline=2&budget=envoy&ev_pct=0.125"),
            Format::EnvoyGateway,
        )
        .text,
        export(
            &config("v=1&attempts=4&timeout=0.3&deadline=2"),
            Format::Kuma,
        )
        .text,
        "[profile x]\nretry_mode = standard\nmax_attempts = 4\n".to_string(),
        // The files teams hold: an Envoy bootstrap (flow style inside), a
        // kubectl List, Spring's properties, a Linkerd Service.
        include_str!("import/envoy-bootstrap.yaml").to_string(),
        include_str!("import/istio-kubectl.yaml").to_string(),
        include_str!("import/spring-application.properties").to_string(),
        include_str!("import/linkerd-service.yaml").to_string(),
    ];
    let hostile = [
        "&a [*a]",
        "*a",
        "<<: *x",
        "!!binary AAAA",
        "|\n  block",
        "{a: [1, {b: ",
        "resilience4j.retry.instances.x.max-attempts[999999]=1",
        "a.b=1\na=2",
        "1e400",
        "-1",
        "NaN",
        "\"NaNs\"",
        "\"1e9s\"",
        "\"-5s\"",
        "\"s\"",
        "\"0x10s\"",
        "null",
        "[]",
        "{}",
        "\"\u{202e}\u{0}s\"",
        "99999999999999999999",
        "true",
        "\"1.2.3s\"",
        "[[[[[[[[[[[[",
        "}}}}",
        "retry_mode = adaptive",
        "max_attempts = 1e3",
        "[profile",
        "=",
        "\u{feff}",
    ];
    let mut stream = Stream::new(2024, 14);
    let mut pick = |n: usize| (stream.next_u64() % n as u64) as usize;
    let base_config = Config::default();
    for seed in &seeds {
        let mut cases = 0;
        let mut answered = 0;
        while cases < 1200 {
            let mut text = seed.clone();
            for _ in 0..1 + pick(3) {
                let at = pick(text.len() + 1);
                let at = (0..=at)
                    .rev()
                    .find(|i| text.is_char_boundary(*i))
                    .unwrap_or(0);
                match pick(5) {
                    0 => text.truncate(at),
                    1 => text.insert_str(at, hostile[pick(hostile.len())]),
                    2 => {
                        // Replace the value after a colon or equals sign.
                        if let Some(offset) = text[at..].find([':', '=']) {
                            let start = at + offset + 1;
                            let end = text[start..]
                                .find([',', '\n', '}'])
                                .map_or(text.len(), |e| start + e);
                            text.replace_range(start..end, hostile[pick(hostile.len())]);
                        }
                    }
                    3 => {
                        let mut bytes = text.clone().into_bytes();
                        if !bytes.is_empty() {
                            let i = pick(bytes.len());
                            bytes[i] = bytes[i].wrapping_add(1 + pick(200) as u8);
                        }
                        text = String::from_utf8_lossy(&bytes).into_owned();
                    }
                    _ => text = text.repeat(1 + pick(3)),
                }
            }
            cases += 1;
            match import::import(&text) {
                Ok(imported) => {
                    answered += 1;
                    for message in imported.problems.iter().chain(&imported.unmapped) {
                        assert!(!message.trim().is_empty());
                        assert!(message.len() < 400, "a message repeats too much: {message}");
                    }
                    // Into A, B or one service of the chain.
                    let (imported, to_b) = match pick(3) {
                        0 => (imported, false),
                        1 => (imported, true),
                        _ => (imported.for_layer(&base_config, 1 + pick(6) as u32), false),
                    };
                    let (applied, _) = import::apply(&base_config, &imported, to_b);
                    let (reread, notices) = Config::from_link(&applied.to_link());
                    assert!(notices.is_empty(), "{notices:?}");
                    assert_eq!(reread, applied);
                }
                Err(message) => {
                    assert!(!message.trim().is_empty());
                    assert!(message.len() < 400, "{message}");
                }
            }
        }
        assert!(
            answered > 0 && answered < cases,
            "the corpus should hold both readable and unreadable cases"
        );
    }
    // Deep nesting and oversized input.
    let deep = format!(
        "{{\"methodConfig\":{}{}}}",
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    assert!(import::import(&deep).is_err());
    assert!(import::import(&" ".repeat(MAX_INPUT + 1)).is_err());
    // A file of 10 MB is refused unread, by its size.
    let huge = "a".repeat(10 << 20);
    assert!(
        import::import(&huge)
            .expect_err("too large")
            .contains("bytes")
    );
    // An alias bomb in a manifest: a billion values if expanded, refused
    // once the copies pass the reader's bound.
    let mut bomb = "apiVersion: networking.istio.io/v1\nkind: VirtualService\nx0: &x0 [a, a, a, a, a, a, a, a, a, a]\n".to_string();
    for level in 1..10 {
        bomb += &format!(
            "x{level}: &x{level} [{}]\n",
            vec![format!("*x{}", level - 1); 10].join(", ")
        );
    }
    assert!(
        import::import(&bomb)
            .expect_err("a bomb")
            .contains("aliases")
    );
    // YAML nested in flow style past the reader's depth.
    let nested = format!(
        "apiVersion: v1\nkind: x\na: {}{}\n",
        "[".repeat(5000),
        "]".repeat(5000)
    );
    assert!(
        import::import(&nested)
            .expect_err("too deep")
            .contains("deeper")
    );
    // Binary: bytes of every value, as a browser's paste would decode them.
    let bytes: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let binary = String::from_utf8_lossy(&bytes);
    assert!(import::import(&binary).is_err());
}

/// A hedging policy goes to gRPC as A6's `hedgingPolicy` (a method hedges
/// or retries, not both) and comes back the same; the libraries without
/// hedging say so, and retry instead.
#[test]
fn hedging_exports_as_grpcs_hedging_policy_and_back() {
    let hedged = config("v=1&hedge=on&hedge_delay=0.3&hedge_max=3");
    let snippet = export(&hedged, Format::Grpc);
    let json: Value = serde_json::from_str(&snippet.text).expect("JSON");
    let method = &json["methodConfig"][0];
    assert!(method.get("retryPolicy").is_none(), "{}", snippet.text);
    let hedging = &method["hedgingPolicy"];
    assert_eq!(hedging["maxAttempts"], 3);
    assert_eq!(a6_duration(&hedging["hedgingDelay"]), 0.3);
    let row = snippet
        .mappings
        .iter()
        .find(|m| m.knob == "hedging")
        .expect("a row");
    assert_eq!(row.fit, Fit::Exact);
    let imported = import::import(&snippet.text).expect("reads back");
    let (back, _) = import::apply(&Config::default(), &imported, false);
    for p in [P::Hedge, P::HedgeDelay, P::HedgeCopies] {
        assert_eq!(back.get(p), hedged.get(p), "{p:?}");
    }
    for format in Format::ALL.into_iter().filter(|f| *f != Format::Grpc) {
        let snippet = export(&hedged, format);
        let row = snippet
            .mappings
            .iter()
            .find(|m| m.knob == "hedging")
            .expect("a row");
        assert_eq!(row.fit, Fit::NotExpressible, "{format:?}");
    }
    // A pasted retry policy turns hedging off.
    let retrying = export(&config("v=1"), Format::Grpc).text;
    let (back, _) = import::apply(&hedged, &import::import(&retrying).expect("reads"), false);
    assert_eq!(back.get(P::Hedge), 0.0);
}

/// Envoy's own YAML reads as its JSON does: a route's retry policy found
/// wherever a route configuration, a listener or a bootstrap keeps it,
/// each setting the same value, and a YAML with Envoy's keys but no retry
/// policy says so.
#[test]
fn envoy_yaml_reads_as_its_json() {
    let yaml = "\
# A route configuration as a bootstrap keeps it.
route_config:
  name: local
  virtual_hosts:
  - name: backend
    domains: [\"*\"]
    routes:
    - match:
        prefix: /
      route:
        cluster: backend
        timeout: 2s
        retry_policy:
          retry_on: 5xx,reset  # what Envoy retries
          num_retries: 2
          per_try_timeout: 0.25s
          retry_back_off:
            base_interval: 0.025s
            max_interval: 0.25s
";
    let json = r#"{"timeout":"2s","retry_policy":{"retry_on":"5xx,reset","num_retries":2,
        "per_try_timeout":"0.25s","retry_back_off":{"base_interval":"0.025s","max_interval":"0.25s"}}}"#;
    let from_yaml = import::import(yaml).expect("Envoy's YAML reads");
    let from_json = import::import(json).expect("Envoy's JSON reads");
    assert_eq!(from_yaml.format, Format::Envoy);
    assert_eq!(from_yaml, from_json);
    let settings: Vec<(P, f64)> = from_yaml
        .settings
        .iter()
        .map(|s| (s.param, s.value))
        .collect();
    for expected in [
        (P::Attempts, 3.0),
        (P::Timeout, 0.25),
        (P::Base, 0.025),
        (P::Deadline, 2.0),
    ] {
        assert!(
            settings.contains(&expected),
            "{expected:?} not in {settings:?}"
        );
    }
    let bare = import::import("num_retries: 4\nretry_on: 5xx\n").expect("a bare retry policy");
    assert!(
        bare.settings
            .iter()
            .any(|s| (s.param, s.value) == (P::Attempts, 5.0))
    );
    let nothing =
        import::import("description: \"retry_policy: none here\"\n").expect_err("no policy");
    assert!(
        nothing.contains("no mapping holds a retry_policy"),
        "{nothing}"
    );
}

/// A field a reader does not read is said, never dropped unseen: each
/// format's own snippet with one field more beside its count of tries
/// reads as before, that field listed as not read under its path. And
/// Spring Boot's relaxed binding holds: `max-attempts` is `maxAttempts`.
#[test]
fn a_field_the_reader_does_not_read_is_said() {
    for (format, marker, extra, said) in [
        (
            Format::Grpc,
            "\"maxAttempts\"",
            "\"bogusField\": 1,",
            "retryPolicy.bogusField",
        ),
        (
            Format::Envoy,
            "\"num_retries\"",
            "\"bogusField\": 1,",
            "retry_policy.bogusField",
        ),
        (
            Format::Istio,
            "attempts:",
            "bogusField: 1",
            "retries.bogusField",
        ),
        (
            Format::GatewayApi,
            "attempts:",
            "bogusField: 1",
            "retry.bogusField",
        ),
        (
            Format::EnvoyGateway,
            "numRetries:",
            "bogusField: 1",
            "retry.bogusField",
        ),
        (
            Format::Kuma,
            "numRetries:",
            "bogusField: 1",
            "http.bogusField",
        ),
        (
            Format::Linkerd,
            "retry.linkerd.io/limit:",
            "retry.linkerd.io/bogus: \"1\"",
            "retry.linkerd.io/bogus",
        ),
        (
            Format::SpringResilience4j,
            "maxAttempts:",
            "bogusField: 1",
            ".bogusField",
        ),
    ] {
        let snippet = export(&config("v=1"), format).text;
        let before = import::import(&snippet).expect("the snippet reads");
        let at = snippet
            .find(marker)
            .unwrap_or_else(|| panic!("{format:?}: no {marker}"));
        let line_start = snippet[..at].rfind('\n').map_or(0, |i| i + 1);
        let indent = &snippet[line_start..at];
        let line_end = at + snippet[at..].find('\n').unwrap_or(snippet.len() - at);
        let with_extra = format!(
            "{}\n{indent}{extra}{}",
            &snippet[..line_end],
            &snippet[line_end..]
        );
        let after = import::import(&with_extra).unwrap_or_else(|why| panic!("{format:?}: {why}"));
        assert_eq!(after.settings, before.settings, "{format:?}");
        assert_eq!(after.problems, before.problems, "{format:?}");
        let new: Vec<&String> = after
            .unmapped
            .iter()
            .filter(|u| !before.unmapped.contains(u))
            .collect();
        assert_eq!(new.len(), 1, "{format:?}: {new:?}");
        assert!(
            new[0].contains(said) && new[0].contains("not read"),
            "{format:?}: {new:?}"
        );
    }
    let spring = export(&config("v=1&attempts=5"), Format::SpringResilience4j).text;
    let kebab =
        import::import(&spring.replace("maxAttempts:", "max-attempts:")).expect("kebab case");
    assert!(
        kebab
            .settings
            .iter()
            .any(|s| (s.param, s.value) == (P::Attempts, 5.0)),
        "{kebab:?}"
    );
    assert!(
        !kebab.unmapped.iter().any(|u| u.contains("not read")),
        "{:?}",
        kebab.unmapped
    );
}

/// Istio's admission webhook (istio/istio at 86c9f01f,
/// pkg/config/validation/agent/validation.go) admits what the export
/// writes, for policies from one attempt to fifty and durations from
/// under a millisecond to an hour: `attempts: 0` stands alone (no
/// `perTryTimeout`, no `retryOn`: "http retry policy configured when
/// attempts are set to 0 (disabled)"), and every duration is 1 ms or more
/// in whole milliseconds (`ValidateDuration`). One attempt's timeout is the
/// route's, and a duration Istio cannot take is said to be approximate.
#[test]
fn istio_exports_pass_istios_admission_rules() {
    let mut checked = 0;
    for attempts in [1, 2, 5, 50] {
        for seconds in [0.0004_f64, 0.001, 0.0015, 0.25, 59.9996, 3600.0] {
            let link = format!(
                "v=1&attempts={attempts}&base={base}&cap={cap}&timeout={timeout}&deadline={deadline}",
                base = seconds.clamp(0.001, 600.0),
                cap = seconds.max(0.001),
                timeout = seconds.min(60.0),
                deadline = (2.0 * seconds).min(120.0),
            );
            let snippet = export(&config(&link), Format::Istio);
            let service = snippet
                .text
                .split("---")
                .next()
                .expect("the VirtualService");
            let field = |name: &str| -> Vec<&str> {
                service
                    .lines()
                    .filter_map(|line| line.trim().strip_prefix(name))
                    .map(str::trim)
                    .collect()
            };
            let retries: Vec<f64> = field("attempts:")
                .iter()
                .map(|n| n.parse().expect("a count"))
                .collect();
            assert_eq!(retries, [f64::from(attempts - 1)], "{link}");
            if attempts == 1 {
                assert_eq!(field("perTryTimeout:"), Vec::<&str>::new(), "{link}");
                assert_eq!(field("retryOn:"), Vec::<&str>::new(), "{link}");
                let timeout = field("timeout:");
                assert_eq!(
                    timeout.len(),
                    1,
                    "{link}: the route's timeout ends the attempt"
                );
            }
            for name in ["timeout:", "perTryTimeout:", "backoff:"] {
                for value in field(name) {
                    let seconds: f64 = value
                        .strip_suffix('s')
                        .and_then(|v| v.parse().ok())
                        .unwrap_or_else(|| panic!("{link}: {name} {value}"));
                    let millis = seconds * 1e3;
                    assert!(
                        millis >= 1.0 - 1e-9 && (millis - millis.round()).abs() < 1e-6,
                        "{link}: {name} {value} is not whole milliseconds of 1 ms or more"
                    );
                    checked += 1;
                }
            }
            // What Istio cannot take exactly is said.
            let rounded = seconds < 0.001 || (seconds * 1e3).fract() > 1e-9;
            if rounded && attempts > 1 {
                assert!(
                    snippet
                        .mappings
                        .iter()
                        .any(|r| r.knob == "attempt timeout" && r.fit == Fit::Approximate),
                    "{link}: {:?}",
                    snippet.mappings
                );
            }
        }
    }
    assert!(checked > 40, "{checked} durations checked");
}

/// A paste, its format, and the settings its system's defaults give.
type Case = (&'static str, Format, Vec<(P, f64)>);

/// A paste starts from its system's documented defaults, not from the
/// page's earlier state: each of these leaves out most of the policy, and
/// is pasted onto a state that differs from every default (7 attempts, a
/// linear backoff from 0.9 s to 9 s without jitter, a 3 s per-try timeout,
/// a 42 s deadline, hedging, gRPC's throttle). What each system does with
/// a field left out, as its source says:
/// - Envoy (data-plane-api 84e8436, route_components.proto): one retry, a
///   25 ms base and 10 times it as the cap, full jitter, no per-try
///   timeout, a 15 s route timeout.
/// - Istio (istio 86c9f01, pilot/pkg/networking/core/route/retry/retry.go
///   and route.go): two retries on Envoy's backoff, no per-try timeout, the
///   route timeout written as 0s (disabled).
/// - Envoy Gateway (gateway d32f282, api/v1alpha1/retry_types.go): two
///   retries on Envoy's backoff and route timeout; the Gateway API leaves
///   both to the implementation, and takes Envoy Gateway's here.
/// - Kuma (kuma 348b652): MeshRetry falls to Envoy's, MeshTimeout's request
///   timeout is 15 s.
/// - Linkerd (linkerd2 b24cd40, policy controller): one retry, 25-250 ms.
/// - gRPC (gRFC A6): no per-attempt timeout, no deadline.
/// - The AWS SDKs' standard mode (botocore 0e6e240): 3 attempts.
/// - resilience4j (RetryConfig): a fixed 500 ms wait without jitter.
#[test]
fn a_paste_starts_from_its_systems_defaults() {
    let before = config(
        "v=1&attempts=7&shape=linear&base=0.9&cap=9&jitter=none&timeout=3&deadline=42&hedge=on&budget=token-bucket",
    );
    let envoy = |attempts: f64, deadline: f64| {
        vec![
            (P::Attempts, attempts),
            (P::Base, 0.025),
            (P::Cap, 0.25),
            (P::Timeout, 0.0),
            (P::Deadline, deadline),
        ]
    };
    let cases: [Case; 9] = [
        (
            r#"{"retry_policy": {"retry_on": "5xx"}}"#,
            Format::Envoy,
            envoy(2.0, 15.0),
        ),
        (
            "apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: payments\nspec:\n  hosts:\n  - payments\n  http:\n  - route:\n    - destination:\n        host: payments\n",
            Format::Istio,
            envoy(3.0, 0.0),
        ),
        (
            "apiVersion: gateway.envoyproxy.io/v1alpha1\nkind: BackendTrafficPolicy\nmetadata:\n  name: payments\nspec:\n  targetRefs:\n  - group: gateway.networking.k8s.io\n    kind: HTTPRoute\n    name: payments\n  retry:\n    retryOn:\n      triggers:\n      - connect-failure\n",
            Format::EnvoyGateway,
            envoy(3.0, 15.0),
        ),
        (
            "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: payments\nspec:\n  rules:\n  - backendRefs:\n    - name: payments\n      port: 80\n    retry:\n      codes:\n      - 503\n",
            Format::GatewayApi,
            envoy(3.0, 15.0),
        ),
        (
            "apiVersion: kuma.io/v1alpha1\nkind: MeshRetry\nmetadata:\n  name: payments\n  namespace: kuma-system\nspec:\n  targetRef:\n    kind: Mesh\n  to:\n  - targetRef:\n      kind: MeshService\n      name: payments\n    default:\n      http:\n        retryOn:\n        - 5xx\n",
            Format::Kuma,
            envoy(2.0, 15.0),
        ),
        (
            "apiVersion: v1\nkind: Service\nmetadata:\n  name: payments\n  annotations:\n    retry.linkerd.io/http: 5xx\nspec:\n  ports:\n  - port: 80\n",
            Format::Linkerd,
            envoy(2.0, 0.0),
        ),
        (
            r#"{"methodConfig": [{"name": [{"service": "payments.Payments"}], "retryPolicy": {"maxAttempts": 4, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}]}"#,
            Format::Grpc,
            vec![(P::Timeout, 0.0), (P::Deadline, 0.0)],
        ),
        (
            "[default]\nretry_mode = standard\n",
            Format::Aws,
            vec![(P::Attempts, 3.0), (P::Timeout, 0.0), (P::Deadline, 0.0)],
        ),
        (
            "resilience4j:\n  retry:\n    instances:\n      payments:\n        maxAttempts: 5\n",
            Format::SpringResilience4j,
            vec![(P::Base, 0.5), (P::Timeout, 0.0), (P::Deadline, 0.0)],
        ),
    ];
    for (text, format, expected) in cases {
        let imported = import::import(text).unwrap_or_else(|why| panic!("{format:?}: {why}"));
        assert_eq!(imported.format, format);
        assert!(
            imported.problems.is_empty(),
            "{format:?}: {:?}",
            imported.problems
        );
        let (after, _) = import::apply(&before, &imported, false);
        for (param, value) in expected {
            assert_eq!(after.get(param), value, "{format:?}: {param:?}");
        }
        // Nothing of the policy keeps the page's earlier value: hedging
        // and the throttle are off, the jitter is the system's.
        assert_eq!(after.get(P::Hedge), 0.0, "{format:?}");
        assert_ne!(after.budget_kind(), BudgetKind::TokenBucket, "{format:?}");
        assert_ne!(after.get(P::Attempts), 7.0, "{format:?}");
        // Every default the paste took is listed with its source.
        let listed = imported.defaulted();
        for setting in &imported.defaults {
            assert!(
                listed
                    .iter()
                    .any(|line| line.contains(setting.param.param().key)),
                "{format:?}: {setting:?}"
            );
        }
        assert!(
            imported
                .settings
                .iter()
                .all(|s| imported.defaults.iter().all(|d| d.param != s.param)),
            "{format:?}: a default never overrides what the paste set"
        );
    }
}

/// Each mesh's export names the first release that accepts every field
/// it writes, and the Gateway API its channel: Istio's DestinationRule
/// retryBudget from 1.27, its backoff from 1.26; the Gateway API's retry
/// in its experimental channel, its timeouts alone in its standard one;
/// Envoy Gateway's retryBudget from v1.8.0.
#[test]
fn each_mesh_export_names_the_release_that_accepts_it() {
    let note = |link: &str, format: Format| -> String {
        let notes = export(&config(link), format).notes();
        notes
            .into_iter()
            .find(|n| n.contains("accepts every field written"))
            .unwrap_or_else(|| panic!("{format:?} {link}: no version"))
    };
    assert!(note("v=1&attempts=3&budget=envoy", Format::Istio).contains("from 1.27 on"));
    assert!(note("v=1&attempts=3", Format::Istio).contains("from 1.26 on"));
    assert!(note("v=1&attempts=3", Format::GatewayApi).ends_with("experimental channel"));
    assert!(note("v=1&attempts=1", Format::GatewayApi).ends_with("standard channel"));
    assert!(note("v=1&attempts=3&budget=envoy", Format::EnvoyGateway).contains("v1.8.0"));
    assert!(note("v=1&attempts=3", Format::EnvoyGateway).contains("v1.0.0"));
    assert!(note("v=1&attempts=3", Format::Kuma).contains("2.1.0"));
    assert!(note("v=1&attempts=3", Format::Linkerd).contains("2.16"));
    assert!(
        export(&config("v=1"), Format::Grpc)
            .notes()
            .iter()
            .all(|n| !n.contains("accepts every field written"))
    );
}

/// Configurations as teams hold them, one file each in `tests/import`:
/// `kubectl get -o yaml` of an Istio VirtualService and its
/// DestinationRule (a `kind: List`, with managed fields, status and the
/// last applied configuration), an Envoy bootstrap in YAML (flow style
/// inside) and in JSON with a cluster's retry budget and outlier
/// detection, a gRPC service config, an AWS config with two sections,
/// Spring Boot's `application.properties` with a circuit breaker, a
/// Linkerd Service. Each reads as its `.expected` file says: its format,
/// every line of what was mapped, not mapped (with why), defaulted (with
/// its source) and wrong, and the link it makes of the default state.
/// `UPDATE_IMPORT_GOLDEN=1` rewrites them.
#[test]
fn real_looking_configurations_import_as_their_goldens() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/import");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/import")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|e| e != "expected"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "{files:?}");
    for path in files {
        let text = std::fs::read_to_string(&path).expect("a file");
        let imported = import::import(&text).unwrap_or_else(|why| panic!("{path:?}: {why}"));
        let (next, clamped) = import::apply(&Config::default(), &imported, false);
        let mut said = vec![format!("format: {}", imported.format.key())];
        said.extend(
            imported
                .mapped()
                .into_iter()
                .map(|l| format!("mapped: {l}")),
        );
        said.extend(
            imported
                .unmapped
                .iter()
                .chain(&clamped)
                .map(|l| format!("not mapped: {l}")),
        );
        said.extend(
            imported
                .defaulted()
                .into_iter()
                .map(|l| format!("default: {l}")),
        );
        said.extend(imported.problems.iter().map(|l| format!("problem: {l}")));
        said.push(format!("link: {}", next.to_link()));
        let said = said.join("\n") + "\n";
        let expected = path.with_extension(format!(
            "{}.expected",
            path.extension().and_then(|e| e.to_str()).unwrap_or("")
        ));
        if std::env::var_os("UPDATE_IMPORT_GOLDEN").is_some() {
            std::fs::write(&expected, &said).expect("written");
        }
        let want = std::fs::read_to_string(&expected).unwrap_or_default();
        assert_eq!(said, want, "{path:?} differs from {expected:?}");
        assert!(
            imported.problems.is_empty(),
            "{path:?}: {:?}",
            imported.problems
        );
    }
}

/// What a policy retries goes out in each format's own words and comes
/// back the same wherever the format's row says it is exact; where it is
/// approximate, the row says what the nearest writing retries.
#[test]
fn what_a_policy_retries_round_trips_where_the_format_can_say_it() {
    let mut exact = 0;
    for on in [
        "transient",
        "5xx",
        "gateway-error",
        "connection",
        "everything",
    ] {
        for timeout in ["", "&timeout=0.5"] {
            let original = config(&format!("v=1&attempts=3&retry_on={on}{timeout}"));
            // The AWS SDKs decide what they retry themselves.
            for format in IMPORTABLE.into_iter().filter(|f| *f != Format::Aws) {
                let snippet = export(&original, format);
                let row = snippet
                    .mappings
                    .iter()
                    .find(|m| m.knob == "retry on")
                    .expect("a row");
                let imported = import::import(&snippet.text)
                    .unwrap_or_else(|why| panic!("{format:?} {on}: {why}"));
                let (back, _) = import::apply(&Config::default(), &imported, false);
                if row.fit == Fit::Exact {
                    exact += 1;
                    assert_eq!(
                        back.get(P::RetryOn),
                        original.get(P::RetryOn),
                        "{format:?} {on}{timeout}\n{}",
                        snippet.text
                    );
                } else {
                    // The row says why; the import reads the writing as
                    // it reads any other, and says where that differs
                    // from the choice it lands on.
                    assert!(!row.why.is_empty(), "{format:?} {on}");
                }
            }
        }
    }
    assert!(exact >= 40, "{exact} exact round trips");
}

/// What no snippet writes (the breaker and where it sits, the rules for a
/// server's Retry-After, when the budget charges) is said in every
/// format's notes when it is off its default, and only then.
#[test]
fn settings_no_snippet_writes_are_said_in_every_format() {
    let set = config("v=1&breaker=all&cb_at=operation&hint_cap=5&budget=ratio&b_charge=sent");
    let plain = config("v=1&budget=ratio");
    for format in Format::ALL {
        let notes = export(&set, format).notes().join("\n");
        let said = notes
            .lines()
            .find(|n| n.starts_with("not in the snippet"))
            .unwrap_or_else(|| panic!("{format:?}: {notes}"));
        for label in [
            "Circuit breaker: On every attempt",
            "Breaker counts: Each operation",
            "Retry-After capped at: 5 s",
            "Budget charges a retry: When it is sent",
        ] {
            assert!(said.contains(label), "{format:?}: {said}");
        }
        let notes = export(&plain, format).notes().join("\n");
        assert!(!notes.contains("not in the snippet"), "{format:?}: {notes}");
    }
}
