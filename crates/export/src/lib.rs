//! Take the policy home: the tuned retry policy written as real
//! configuration for the libraries people run, and real configurations read
//! back in ([`import`]).
//!
//! The same words mean different things in different libraries. The
//! playground counts **attempts** (the first call included); Envoy, Polly
//! and backon count **retries**. The playground's **base** is the ceiling of
//! the first pause; gRPC calls it `initialBackoff`, tenacity `multiplier`.
//! **Jitter** is a family, not a switch: gRPC and the AWS SDKs draw under
//! the ceiling (full jitter), Polly's exponential jitter is its own
//! decorrelated formula, resilience4j and cenkalti/backoff spread the
//! ceiling by a proportional factor. Each [`Snippet`] therefore carries, for
//! every knob, how the library expresses it and whether that is exact,
//! approximate (and why) or not expressible at all.
//!
//! Pure: text in, text out; the page and the command line share it.
//!
//! Every path names the crate it comes from (`retry_sim::config`,
//! `retry_core::words`): no crate re-exports another's modules.

mod classes;
mod defaults;
mod envoy_gateway;
mod gateway;
pub mod import;
mod istio;
mod kuma;
mod linkerd;
mod read;
mod spring;
mod yaml;

use retry_core::budget::BudgetKind;
use retry_core::policy::{Jitter, Policy, Shape};
use retry_sim::config::{Config, P};

/// A library or configuration format the policy can be written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Grpc,
    Envoy,
    Aws,
    Tenacity,
    Polly,
    Resilience4j,
    Backon,
    Go,
    Istio,
    GatewayApi,
    EnvoyGateway,
    Kuma,
    Linkerd,
    SpringResilience4j,
}

impl Format {
    pub const ALL: [Format; 14] = [
        Format::Grpc,
        Format::Envoy,
        Format::Aws,
        Format::Tenacity,
        Format::Polly,
        Format::Resilience4j,
        Format::Backon,
        Format::Go,
        Format::Istio,
        Format::GatewayApi,
        Format::EnvoyGateway,
        Format::Kuma,
        Format::Linkerd,
        Format::SpringResilience4j,
    ];

    /// The word the command line takes (`--export grpc`).
    pub fn key(self) -> &'static str {
        match self {
            Format::Grpc => "grpc",
            Format::Envoy => "envoy",
            Format::Aws => "aws",
            Format::Tenacity => "tenacity",
            Format::Polly => "polly",
            Format::Resilience4j => "resilience4j",
            Format::Backon => "backon",
            Format::Go => "go",
            Format::Istio => "istio",
            Format::GatewayApi => "gateway-api",
            Format::EnvoyGateway => "envoy-gateway",
            Format::Kuma => "kuma",
            Format::Linkerd => "linkerd",
            Format::SpringResilience4j => "spring-resilience4j",
        }
    }

    /// What the snippet is, for a heading.
    pub fn title(self) -> &'static str {
        match self {
            Format::Grpc => retry_core::words::tr("gRPC service config (JSON)"),
            Format::Envoy => retry_core::words::tr("Envoy route retry_policy (JSON)"),
            Format::Aws => retry_core::words::tr("AWS SDK shared config"),
            Format::Tenacity => retry_core::words::tr("Python tenacity"),
            Format::Polly => retry_core::words::tr(".NET Polly v8"),
            Format::Resilience4j => retry_core::words::tr("Java resilience4j"),
            Format::Backon => retry_core::words::tr("Rust backon"),
            Format::Go => retry_core::words::tr("Go cenkalti/backoff v5"),
            Format::Istio => retry_core::words::tr("Istio VirtualService (YAML)"),
            Format::GatewayApi => retry_core::words::tr("Gateway API HTTPRoute (YAML)"),
            Format::EnvoyGateway => {
                retry_core::words::tr("Envoy Gateway BackendTrafficPolicy (YAML)")
            }
            Format::Kuma => retry_core::words::tr("Kuma MeshRetry and MeshTimeout (YAML)"),
            Format::Linkerd => retry_core::words::tr("Linkerd retry annotations (YAML)"),
            Format::SpringResilience4j => retry_core::words::tr("Spring Boot resilience4j (YAML)"),
        }
    }

    pub fn parse(word: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|format| format.key().eq_ignore_ascii_case(word.trim()))
    }
}

/// How faithfully a library carries one knob.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    Exact,
    /// Carried, but the library means something a little different.
    Approximate,
    /// The library has no such knob.
    NotExpressible,
}

impl Fit {
    pub fn word(self) -> &'static str {
        match self {
            Fit::Exact => retry_core::words::tr("exact"),
            Fit::Approximate => retry_core::words::tr("approximate"),
            Fit::NotExpressible => retry_core::words::tr("not expressible"),
        }
    }
}

/// One knob of the policy and what the library made of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Mapping {
    /// The playground's knob: attempts, first pause, multiplier, cap,
    /// jitter, attempt timeout, deadline, budget.
    pub knob: &'static str,
    /// The library's setting, as written in the snippet ("" when none).
    pub setting: String,
    pub fit: Fit,
    /// Why it is not exact; empty when it is.
    pub why: String,
}

/// A policy written for one library.
#[derive(Debug, Clone, PartialEq)]
pub struct Snippet {
    pub format: Format,
    pub text: String,
    pub mappings: Vec<Mapping>,
    /// What the policy can do at worst, said in the notes.
    pub card: retry_analyses::card::Card,
    /// What its settings risk in the world it was exported from, said in
    /// the notes.
    pub warnings: Vec<retry_analyses::warnings::Warning>,
    /// The policy's settings off their defaults that no snippet writes
    /// ([`LEFT_OUT`]), said in the notes as the page shows them.
    pub left_out: Vec<String>,
}

impl Snippet {
    /// The first release of the mesh that accepts every field the snippet
    /// writes, and the channel where that matters, as the meshes' own
    /// histories give them (the first tag holding each field's commit):
    /// - Istio (istio/api): `retryOn` 1.1, `backoff` 1.26 (81bc1902f), a
    ///   DestinationRule's `retryBudget` 1.27 (09a4d534f);
    /// - the Gateway API (gateway-api): an HTTPRoute's `timeouts` standard
    ///   from v1.2.0, its `retry` experimental from v1.2.0 (still at
    ///   v1.6), XBackendTrafficPolicy's `retryConstraint` experimental from
    ///   v1.3.0;
    /// - Envoy Gateway: a BackendTrafficPolicy's `retry` v1.0.0 (4c79ef9aa1),
    ///   `circuitBreaker.retryBudget` v1.8.0 (efa90211ef);
    /// - Kuma: MeshRetry and MeshTimeout 2.1.0 (21b8908aa4, 531d380b03);
    /// - Linkerd: the `retry.linkerd.io` annotations 2.16, edge-24.7.5
    ///   (aed4850e6).
    fn accepted_from(&self) -> Option<String> {
        let has = |field: &str| self.text.contains(field);
        let (mesh, version, channel) = match self.format {
            Format::Istio if has("retryBudget:") => ("Istio", "1.27", ""),
            Format::Istio if has("backoff:") => ("Istio", "1.26", ""),
            Format::Istio => ("Istio", "1.1", ""),
            Format::GatewayApi if has("XBackendTrafficPolicy") => (
                "Gateway API",
                "v1.3.0",
                retry_core::words::tr(", in its experimental channel"),
            ),
            Format::GatewayApi if has("retry:") => (
                "Gateway API",
                "v1.2.0",
                retry_core::words::tr(", in its experimental channel"),
            ),
            Format::GatewayApi => (
                "Gateway API",
                "v1.2.0",
                retry_core::words::tr(", in its standard channel"),
            ),
            Format::EnvoyGateway if has("retryBudget:") => ("Envoy Gateway", "v1.8.0", ""),
            Format::EnvoyGateway => ("Envoy Gateway", "v1.0.0", ""),
            Format::Kuma => ("Kuma", "2.1.0", ""),
            Format::Linkerd => ("Linkerd", "2.16 (edge-24.7.5)", ""),
            _ => return None,
        };
        Some(retry_core::tf!(
            "{mesh} accepts every field written from {version} on{channel}",
            mesh = mesh,
            version = version,
            channel = channel
        ))
    }

    /// The notes to show beside the snippet: every knob that is not exact,
    /// the policy's guarantees (its card), and in a language other than
    /// English, that the snippet's comments are English.
    pub fn notes(&self) -> Vec<String> {
        // Knobs that miss for the same reason share one note.
        let mut missed: Vec<(Vec<&str>, Fit, &str)> = Vec::new();
        for m in self.mappings.iter().filter(|m| m.fit != Fit::Exact) {
            match missed
                .iter_mut()
                .find(|(_, fit, why)| *fit == m.fit && *why == m.why)
            {
                Some((knobs, ..)) => knobs.push(knob_word(m.knob)),
                None => missed.push((vec![knob_word(m.knob)], m.fit, &m.why)),
            }
        }
        let mut notes: Vec<String> = missed
            .iter()
            .map(|(knobs, fit, why)| {
                // Russian says "are not expressible" of several knobs.
                let fit = match fit {
                    Fit::NotExpressible => retry_core::tf!(
                        "{knobs|not expressible|not expressible}",
                        knobs = knobs.len()
                    ),
                    _ => fit.word().to_string(),
                };
                format!("{} ({fit}): {why}", knobs.join(", "))
            })
            .collect();
        if !self.left_out.is_empty() {
            notes.push(retry_core::tf!(
                "not in the snippet; set elsewhere, where the library can: {settings}",
                settings = self.left_out.join("; ")
            ));
        }
        notes.push(retry_core::tf!(
            "this policy at worst: {calls} calls at the bottom per operation, when every call fails",
            calls = self.card.worst_calls
        ));
        if self.card.instances > 1 && self.card.drains_above.is_some() {
            notes.push(retry_core::tf!(
                "the budget's figure is for {instances} client instances, each keeping its own budget",
                instances = self.card.instances
            ));
        }
        match (self.card.drains_above, self.card.share_from_in_flight) {
            (Some(p), Some(requests)) => notes.push(retry_core::tf!(
                "this policy's retry budget refuses retries once more than {share} of attempts fail, with over {requests} requests in flight",
                share = retry_sim::metrics::Format::Share.headline(p),
                requests = requests
            )),
            (Some(p), None) if self.card.drains_at_least => notes.push(retry_core::tf!(
                "this policy's retry budget drains only once {share} of attempts fail or more",
                share = retry_sim::metrics::Format::Share.headline(p)
            )),
            (Some(p), None) => notes.push(retry_core::tf!(
                "this policy's retry budget drains once more than {share} of attempts fail",
                share = retry_sim::metrics::Format::Share.headline(p)
            )),
            (None, _) => {}
        }
        notes.extend(self.accepted_from());
        notes.extend(self.warnings.iter().map(|warning| warning.text()));
        // Only a snippet with comments says they stay English: JSON has none.
        let commented = self.text.contains("# ") || self.text.contains("// ");
        if commented && retry_core::words::lang() != retry_core::words::Lang::En {
            notes.push(
                retry_core::words::tr(
                    "The configuration's comments stay in English, the \
                library's own language.",
                )
                .to_string(),
            );
        }
        notes
    }
}

/// A knob's name as the notes show it, in the thread's language; a name
/// that is not one of [`KNOBS`] is shown as it is.
fn knob_word(knob: &'static str) -> &'static str {
    match knob {
        "attempts" => retry_core::words::tr("attempts"),
        "first pause" => retry_core::words::tr("first pause"),
        "multiplier" => retry_core::words::tr("multiplier"),
        "cap" => retry_core::words::tr("cap"),
        "jitter" => retry_core::words::tr("jitter"),
        "attempt timeout" => retry_core::words::tr("attempt timeout"),
        "deadline" => retry_core::words::tr("deadline"),
        "budget" => retry_core::words::tr("budget"),
        "hedging" => retry_core::words::tr("hedging"),
        "retry on" => retry_core::words::tr("retry on"),
        other => other,
    }
}

/// The knobs every snippet reports on, in this order.
pub const KNOBS: [&str; 10] = [
    "attempts",
    "first pause",
    "multiplier",
    "cap",
    "jitter",
    "attempt timeout",
    "deadline",
    "budget",
    "hedging",
    "retry on",
];

/// The policy's settings no snippet writes: its circuit breaker and where
/// it sits, its rules for a server's Retry-After, and when its budget
/// charges a retry.
pub const LEFT_OUT: [P; 8] = [
    P::Breaker,
    P::BreakerAt,
    P::HonourRetryAfter,
    P::HintCap,
    P::HintJitter,
    P::HintJitterMost,
    P::HintJitterAt,
    P::BudgetChargeAt,
];

/// Each of [`LEFT_OUT`] that applies and is off its default, as its label
/// and value read on the page.
fn left_out(config: &Config) -> Vec<String> {
    LEFT_OUT
        .into_iter()
        .filter(|&p| {
            let param = p.param();
            (param.applies)(config) && config.get(p) != param.default
        })
        .map(|p| {
            let param = p.param();
            let value = config.get(p);
            let shown = match param.kind {
                retry_sim::config::Kind::Choice(_, labels) => {
                    retry_core::words::lower_first(labels[value as usize].get())
                }
                _ => format!(
                    "{} {}",
                    retry_core::words::number(&param.format(value)),
                    param.unit.get()
                )
                .trim_end()
                .to_string(),
            };
            format!("{}: {shown}", param.label.get())
        })
        .collect()
}

/// Writes the policy of `config` (policy A; pass
/// [`Config::policy_b_config`] for B) for `format`.
pub fn export(config: &Config, format: Format) -> Snippet {
    let policy = config.policy();
    let (text, mut mappings) = match format {
        Format::Grpc => grpc(config, &policy),
        Format::Envoy => envoy(config, &policy),
        Format::Aws => aws(config, &policy),
        Format::Tenacity => tenacity(config, &policy),
        Format::Polly => polly(config, &policy),
        Format::Resilience4j => resilience4j(config, &policy),
        Format::Backon => backon(config, &policy),
        Format::Go => go(config, &policy),
        Format::Istio => istio::export(config, &policy),
        Format::GatewayApi => gateway::export(config, &policy),
        Format::EnvoyGateway => envoy_gateway::export(config, &policy),
        Format::Kuma => kuma::export(config, &policy),
        Format::Linkerd => linkerd::export(config, &policy),
        Format::SpringResilience4j => spring::export(config, &policy),
    };
    mappings.push(match (policy.hedge, format) {
        (false, _) => exact("hedging", "none"),
        (true, Format::Grpc) => exact(
            "hedging",
            format!(
                "hedgingPolicy: maxAttempts {}, hedgingDelay {}",
                policy.hedge_copies.max(2),
                proto_duration(policy.hedge_delay)
            ),
        ),
        (true, _) => missing(
            "hedging",
            retry_core::tf!(
                "{library} sends no hedged copies: the snippet retries with the policy's attempts and backoff instead",
                library = format.title()
            ),
        ),
    });
    mappings.push(classes::row(format, policy.retry_on));
    Snippet {
        format,
        text,
        mappings,
        left_out: left_out(config),
        card: retry_analyses::card::card(config),
        warnings: retry_analyses::warnings::warnings(config),
    }
}

fn row(
    knob: &'static str,
    setting: impl Into<String>,
    fit: Fit,
    why: impl Into<String>,
) -> Mapping {
    Mapping {
        knob,
        setting: setting.into(),
        fit,
        why: why.into(),
    }
}

fn exact(knob: &'static str, setting: impl Into<String>) -> Mapping {
    row(knob, setting, Fit::Exact, "")
}

fn missing(knob: &'static str, why: impl Into<String>) -> Mapping {
    row(knob, "", Fit::NotExpressible, why)
}

/// The jitter row of a library that only ever draws full jitter; `how`
/// says how it draws.
fn full_jitter_only(policy: &Policy, how: &str) -> Mapping {
    if policy.jitter == Jitter::Full {
        exact("jitter", "full (always)")
    } else {
        row(
            "jitter",
            "full (always)",
            Fit::Approximate,
            retry_core::tf!(
                "{how}; {jitter} jitter cannot be chosen",
                how = how,
                jitter = jitter_name(policy.jitter)
            ),
        )
    }
}

/// gRPC's jitter: each ceiling times a factor drawn in [0.8, 1.2], after the
/// cap, so exact for proportional jitter of 0.2 while no spread ceiling
/// passes the cap (the playground keeps every pause under it).
fn grpc_jitter(policy: &Policy) -> Mapping {
    const SPREAD: f64 = 0.2;
    let how = "x random(0.8, 1.2) (always)";
    let which = match policy.jitter {
        Jitter::Proportional if (policy.jitter_fraction - SPREAD).abs() <= 1e-9 => None,
        Jitter::Proportional => Some(retry_core::tf!(
            "its spread is 20 % either way; {percent} % cannot be chosen",
            percent = (policy.jitter_fraction * 1e4).round() / 1e2
        )),
        other => Some(retry_core::tf!(
            "{jitter} jitter cannot be chosen",
            jitter = jitter_name(other)
        )),
    };
    if let Some(which) = which {
        return row(
            "jitter",
            how,
            Fit::Approximate,
            retry_core::tf!(
                "gRPC multiplies each ceiling by a random factor in [0.8, 1.2] (gRFC A6 since 2024); {which}",
                which = which
            ),
        );
    }
    let retries = policy.attempts.clamp(2, 5) - 1;
    let highest = (0..retries).map(|r| policy.ceiling(r)).fold(0.0, f64::max);
    if highest * (1.0 + SPREAD) <= policy.cap {
        exact("jitter", how)
    } else {
        row(
            "jitter",
            how,
            Fit::Approximate,
            retry_core::words::tr(
                "gRPC spreads the capped ceiling, so a pause may reach 1.2 x \
                maxBackoff; the playground keeps every pause under the cap",
            ),
        )
    }
}

/// The multiplier row of a proxy built on Envoy, whose ceilings double
/// from the base whatever the policy says; `why` names the proxy.
fn doubling(policy: &Policy, why: &str) -> Mapping {
    let doubles = policy.shape == Shape::Exponential && policy.multiplier == 2.0;
    if policy.attempts <= 2 || doubles {
        exact("multiplier", "2 (fixed)")
    } else {
        row("multiplier", "2 (fixed)", Fit::Approximate, why)
    }
}

/// The budget row of a library that has no retry budget at all.
fn no_budget(config: &Config, library: &str) -> Mapping {
    if config.budget_kind() == BudgetKind::None {
        exact("budget", "none")
    } else {
        missing(
            "budget",
            retry_core::tf!(
                "{library} has no retry budget shared across operations",
                library = library
            ),
        )
    }
}

/// The first ceiling, which a constant shape or a small cap lowers.
fn first_ceiling(policy: &Policy) -> f64 {
    policy.ceiling(0)
}

/// How a note names a jitter: as the lessons' prose does, by its link word
/// in English and by its label in lower case in another language.
fn jitter_name(jitter: Jitter) -> String {
    let position = retry_sim::config::JITTERS.position(jitter) as usize;
    P::Jitter
        .param()
        .choice_word(position)
        .unwrap_or_else(|| jitter_word(jitter).to_string())
}

fn jitter_word(jitter: Jitter) -> &'static str {
    match jitter {
        Jitter::None => "none",
        Jitter::Full => "full",
        Jitter::Equal => "equal",
        Jitter::Decorrelated => "decorrelated",
        Jitter::Proportional => "proportional",
        Jitter::Polly => "polly",
    }
}

/// "1 call", "3 calls": the most calls a request makes, as a comment in
/// a manifest says it.
pub(crate) fn calls(attempts: u32) -> String {
    match attempts {
        1 => "1 call".to_string(),
        n => format!("{n} calls"),
    }
}

/// Seconds as a protobuf JSON `Duration`: decimal seconds with an `s`
/// (the proto3 JSON mapping of `google.protobuf.Duration`, which gRFC A6
/// and Envoy's API both use). Rust prints the shortest decimal that reads
/// back to the same number, never an exponent.
pub fn proto_duration(seconds: f64) -> String {
    let millis = (seconds * 1e9).round() / 1e9;
    format!("{millis}s")
}

/// The growth factor of a shape with a geometric schedule (constant is a
/// factor of 1), or `None` for linear, which no geometric library carries.
fn geometric_factor(policy: &Policy) -> Option<f64> {
    match policy.shape {
        Shape::Exponential => Some(policy.multiplier),
        Shape::Constant => Some(1.0),
        Shape::Linear => None,
    }
}

/// gRFC A6 "gRPC Retry Design" (grpc/proposal, A6-client-retries.md):
/// `maxAttempts` counts the original call, must be at least 2 and clients
/// treat values above 5 as 5; retry `n` (1-based) waits
/// `min(initialBackoff * backoffMultiplier^(n-1), maxBackoff) * random(0.8,
/// 1.2)` since the proposal's 2024 revision (grpc-go's `stream.go`,
/// grpc-java's `RetriableStream` follow it; before, `random(0, ...)`, full
/// jitter): the playground's proportional jitter with a fraction of 0.2,
/// except that gRPC spreads after the cap; `retryThrottling` is the token bucket of
/// `crates/core/src/budget.rs` (`maxTokens` in (0, 1000], `tokenRatio` > 0 with at most
/// three decimals). The method config's `timeout` bounds the whole call,
/// retries included.
fn grpc(config: &Config, policy: &Policy) -> (String, Vec<Mapping>) {
    let mut rows = Vec::new();
    let attempts = policy.attempts.clamp(2, 5);
    rows.push(match policy.attempts {
        1 => row("attempts", "retryPolicy omitted", Fit::Exact, ""),
        2..=5 => exact("attempts", format!("maxAttempts: {attempts}")),
        _ => row(
            "attempts",
            format!("maxAttempts: {attempts}"),
            Fit::Approximate,
            retry_core::tf!(
                "gRPC clients clamp maxAttempts to 5; {attempts} attempts become 5",
                attempts = policy.attempts
            ),
        ),
    });
    let base = first_ceiling(policy);
    rows.push(exact(
        "first pause",
        format!("initialBackoff: {}", proto_duration(base)),
    ));
    let factor = geometric_factor(policy);
    rows.push(match factor {
        Some(factor) => exact("multiplier", format!("backoffMultiplier: {factor}")),
        None => row(
            "multiplier",
            "backoffMultiplier: 2",
            Fit::Approximate,
            retry_core::words::tr(
                "gRPC backoff is exponential only; the linear shape becomes a \
                doubling one",
            ),
        ),
    });
    rows.push(exact(
        "cap",
        format!("maxBackoff: {}", proto_duration(policy.cap)),
    ));
    rows.push(grpc_jitter(policy));
    rows.push(match policy.attempt_timeout {
        None => exact("attempt timeout", "none"),
        Some(_) => missing(
            "attempt timeout",
            retry_core::words::tr(
                "A6's retryPolicy has no per-attempt timeout; the method timeout \
                covers the whole call",
            ),
        ),
    });
    rows.push(match policy.deadline {
        None => exact("deadline", "none"),
        Some(deadline) => exact("deadline", format!("timeout: {}", proto_duration(deadline))),
    });
    let mut throttling = String::new();
    rows.push(match config.budget_kind() {
        BudgetKind::None => exact("budget", "none"),
        BudgetKind::TokenBucket => {
            let max_tokens = config.get(P::Tokens).clamp(1.0, 1000.0);
            let wanted = config.get(P::TokenRatio);
            // A6 keeps three decimals of tokenRatio and needs it above 0.
            let ratio = ((wanted * 1000.0).round() / 1000.0).max(0.001);
            throttling = format!(
                ",\n  \"retryThrottling\": {{ \"maxTokens\": {max_tokens}, \"tokenRatio\": {ratio} }}"
            );
            if ratio == wanted {
                exact("budget", format!("retryThrottling {max_tokens} / {ratio}"))
            } else {
                row(
                    "budget",
                    format!("retryThrottling {max_tokens} / {ratio}"),
                    Fit::Approximate,
                    retry_core::words::tr("A6 needs tokenRatio above 0 with at most three decimals"),
                )
            }
        }
        BudgetKind::Ratio
        | BudgetKind::AwsQuota
        | BudgetKind::AwsAdaptive
        | BudgetKind::Bucket
        | BudgetKind::Sre
        | BudgetKind::Envoy => missing(
            "budget",
            retry_core::words::tr("gRPC's only budget is retryThrottling, a token bucket per server; \
                choose the token bucket to export one"),
        ),
    });
    let mut method = String::from("    {\n      \"name\": [{ \"service\": \"example.Service\" }]");
    if let Some(deadline) = policy.deadline {
        method += &format!(",\n      \"timeout\": \"{}\"", proto_duration(deadline));
    }
    if policy.hedge {
        // gRFC A6: a method hedges or retries, not both; copies after an
        // UNAVAILABLE or RESOURCE_EXHAUSTED go out at once.
        method += &format!(
            ",\n      \"hedgingPolicy\": {{\n        \"maxAttempts\": {},\n        \"hedgingDelay\": \"{}\",\n        \"nonFatalStatusCodes\": [\"UNAVAILABLE\", \"RESOURCE_EXHAUSTED\"]\n      }}",
            policy.hedge_copies.max(2),
            proto_duration(policy.hedge_delay)
        );
    } else if policy.attempts > 1 {
        method += &format!(
            ",\n      \"retryPolicy\": {{\n        \"maxAttempts\": {attempts},\n        \"initialBackoff\": \"{}\",\n        \"maxBackoff\": \"{}\",\n        \"backoffMultiplier\": {},\n        \"retryableStatusCodes\": [{codes}]\n      }}",
            proto_duration(base),
            proto_duration(policy.cap),
            factor.unwrap_or(2.0),
            codes = classes::written::grpc(policy.retry_on)
                .iter()
                .map(|c| format!("\"{c}\""))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    method += "\n    }";
    let text = format!("{{\n  \"methodConfig\": [\n{method}\n  ]{throttling}\n}}\n");
    (text, rows)
}

/// Envoy's route `RetryPolicy` (envoyproxy/envoy,
/// api/envoy/config/route/v3/route_components.proto): `num_retries` counts
/// retries; `retry_back_off` draws retry `N` (1-based) from
/// `[0, min(2^(N-1) * base_interval, max_interval))` (max default ten times
/// the base): full jitter on ceilings that double, `JitteredExponentialBackOffStrategy`
/// in source/common/common/backoff_strategy.cc since 2020 (the docs' older
/// `(2^N - 1) * base` was the code before). `per_try_timeout` is the attempt timeout,
/// the route's `timeout` the whole request's. The cluster's
/// `circuit_breakers.thresholds.retry_budget`
/// (api/envoy/config/cluster/v3/circuit_breaker.proto) caps *concurrent*
/// retries at `budget_percent` of active requests.
fn envoy(config: &Config, policy: &Policy) -> (String, Vec<Mapping>) {
    let mut rows = Vec::new();
    let retries = policy.attempts - 1;
    rows.push(exact(
        "attempts",
        format!("num_retries: {retries} (retries, not attempts)"),
    ));
    let base = first_ceiling(policy);
    rows.push(exact(
        "first pause",
        format!("base_interval: {}", proto_duration(base)),
    ));
    // With at most one retry only the first ceiling, the base, is used.
    let doubling = policy.shape == Shape::Exponential && policy.multiplier == 2.0;
    rows.push(if policy.attempts <= 2 {
        exact("multiplier", "fixed (unused)")
    } else if doubling {
        exact("multiplier", "2 (fixed)")
    } else {
        row(
            "multiplier",
            "2 (fixed)",
            Fit::Approximate,
            retry_core::words::tr(
                "Envoy's ceilings double from the base: 1, 2, 4, 8 x base, whatever \
                the shape or multiplier",
            ),
        )
    });
    rows.push(exact(
        "cap",
        format!("max_interval: {}", proto_duration(policy.cap)),
    ));
    rows.push(full_jitter_only(
        policy,
        retry_core::words::tr("Envoy always draws under the ceiling"),
    ));
    rows.push(match policy.attempt_timeout {
        None => exact("attempt timeout", "none"),
        Some(timeout) => exact(
            "attempt timeout",
            format!("per_try_timeout: {}", proto_duration(timeout)),
        ),
    });
    // A route times out after 15 s unless its timeout is set: no deadline
    // is written as 0s, which Envoy reads as none.
    rows.push(exact(
        "deadline",
        match policy.deadline {
            None => "route timeout: 0s (none; unset, Envoy's is 15 s)".to_string(),
            Some(deadline) => format!("route timeout: {}", proto_duration(deadline)),
        },
    ));
    let mut budget = String::new();
    rows.push(match config.budget_kind() {
        BudgetKind::None => exact("budget", "none"),
        BudgetKind::Ratio => {
            let percent = config.get(P::BudgetPercent) * 100.0;
            budget = format!(
                ",\n  \"circuit_breakers\": {{ \"thresholds\": [{{ \"retry_budget\": {{ \"budget_percent\": {{ \"value\": {percent} }}, \"min_retry_concurrency\": 3 }} }}] }}"
            );
            row(
                "budget",
                format!("retry_budget.budget_percent: {percent}"),
                Fit::Approximate,
                retry_core::words::tr("Envoy's retry budget limits retries in flight to a share of \
                    requests in flight, not retries to a share of recent traffic; its floor is a \
                    concurrency (min_retry_concurrency), not a rate"),
            )
        }
        BudgetKind::Envoy => {
            let percent = config.get(P::EnvoyPercent) * 100.0;
            let least = config.get(P::EnvoyMin);
            budget = format!(
                ",\n  \"circuit_breakers\": {{ \"thresholds\": [{{ \"retry_budget\": {{ \"budget_percent\": {{ \"value\": {percent} }}, \"min_retry_concurrency\": {least} }} }}] }}"
            );
            exact(
                "budget",
                format!("retry_budget {percent} %, min_retry_concurrency {least}"),
            )
        }
        BudgetKind::TokenBucket
        | BudgetKind::AwsQuota
        | BudgetKind::AwsAdaptive
        | BudgetKind::Bucket
        | BudgetKind::Sre => missing(
            "budget",
            retry_core::words::tr("Envoy's only budget is the cluster's retry_budget (a share of active \
                requests); choose Envoy's retries in flight to export one"),
        ),
    });
    let route = format!(
        "  \"timeout\": \"{}\",\n",
        proto_duration(policy.deadline.unwrap_or(0.0))
    );
    let per_try = policy
        .attempt_timeout
        .map(|t| format!("    \"per_try_timeout\": \"{}\",\n", proto_duration(t)))
        .unwrap_or_default();
    let text = format!(
        "{{\n{route}  \"retry_policy\": {{\n    \"retry_on\": \"{conditions}\",\n{codes}    \"num_retries\": {retries},\n{per_try}    \"retry_back_off\": {{ \"base_interval\": \"{}\", \"max_interval\": \"{}\" }}\n  }}{budget}\n}}\n",
        proto_duration(base),
        proto_duration(policy.cap),
        conditions = classes::written::envoy(policy.retry_on).0.join(","),
        codes = match classes::written::envoy(policy.retry_on).1 {
            [] => String::new(),
            codes => format!("    \"retriable_status_codes\": {codes:?},\n"),
        }
    );
    (text, rows)
}

/// The AWS SDKs' shared config file (the AWS SDKs and Tools Reference
/// Guide, "Retry behavior"): `max_attempts` counts the first call;
/// `retry_mode = standard` draws `rand(0, 1) * min(base * 2^i, 20 s)` and
/// keeps a retry quota of 500 (botocore/retries/standard.py,
/// `ExponentialBackoff` and `RetryQuotaChecker`). The base, the cap, the
/// factor and the quota's costs are fixed by the SDK, not the file.
fn aws(config: &Config, policy: &Policy) -> (String, Vec<Mapping>) {
    // Adaptive mode is standard mode's quota with a client rate limiter.
    let (mode, word) = match config.budget_kind() {
        BudgetKind::AwsAdaptive => ("retry_mode = adaptive", "adaptive"),
        _ => ("retry_mode = standard", "standard"),
    };
    let fixed = |knob| {
        row(
            knob,
            "fixed by the SDK",
            Fit::NotExpressible,
            retry_core::words::tr(
                "standard mode fixes it: full jitter under min(base x 2^i, 20 s), \
                base 50 ms for errors and 1 s for throttling in current botocore",
            ),
        )
    };
    let rows = vec![
        exact("attempts", format!("max_attempts = {}", policy.attempts)),
        fixed("first pause"),
        fixed("multiplier"),
        fixed("cap"),
        if policy.jitter == Jitter::Full {
            exact("jitter", "full (always)")
        } else {
            fixed("jitter")
        },
        match policy.attempt_timeout {
            None => exact("attempt timeout", "none"),
            Some(_) => missing(
                "attempt timeout",
                retry_core::words::tr(
                    "the shared config has no timeout; set the client's read_timeout \
                    / connect_timeout in code",
                ),
            ),
        },
        match policy.deadline {
            None => exact("deadline", "none"),
            Some(_) => missing(
                "deadline",
                retry_core::words::tr("the AWS SDKs have no overall deadline setting"),
            ),
        },
        match config.budget_kind() {
            BudgetKind::AwsQuota | BudgetKind::AwsAdaptive => row(
                "budget",
                mode,
                if config.get(P::Quota) == 500.0 {
                    Fit::Approximate
                } else {
                    Fit::NotExpressible
                },
                retry_core::words::tr(
                    "standard mode always has a quota of 500; its costs are fixed by \
                    the SDK (5 per retry and 10 after a timeout in the 2020 standard; 14 per retry \
                    and 5 after throttling in current botocore)",
                ),
            ),
            BudgetKind::None => row(
                "budget",
                "retry_mode = standard",
                Fit::Approximate,
                retry_core::words::tr(
                    "standard mode always adds its retry quota; there is no mode \
                    without one but legacy, which has other pauses",
                ),
            ),
            BudgetKind::Ratio
            | BudgetKind::TokenBucket
            | BudgetKind::Bucket
            | BudgetKind::Sre
            | BudgetKind::Envoy => missing(
                "budget",
                retry_core::words::tr(
                    "the AWS SDKs' only budget is the standard mode's retry \
                        quota",
                ),
            ),
        },
    ];
    let text = format!(
        "[profile playground]\nretry_mode = {}\nmax_attempts = {}\n",
        word, policy.attempts
    );
    (text, rows)
}

/// Python literal of a float.
fn py(value: f64) -> String {
    let text = format!("{value}");
    if text.contains('.') {
        text
    } else {
        format!("{text}.0")
    }
}

/// tenacity (jd/tenacity, tenacity/wait.py and tenacity/stop.py):
/// `wait_exponential(multiplier, max, exp_base)` waits
/// `min(max, multiplier * exp_base^(n-1))` after attempt `n`;
/// `wait_random_exponential` draws uniformly under that (full jitter);
/// waits add with `+`; `stop_after_attempt(n)` counts attempts;
/// `stop_before_delay(d)` stops when the time since the first attempt plus
/// the upcoming sleep reaches `d`, the playground's deadline rule. Shapes
/// and jitters tenacity has no strategy for are written as a wait function,
/// which tenacity accepts in place of a strategy.
fn tenacity(config: &Config, policy: &Policy) -> (String, Vec<Mapping>) {
    let (base, cap, mult) = (py(policy.base), py(policy.cap), py(policy.multiplier));
    let ceiling = first_ceiling(policy);
    let half = |value: f64| py(value / 2.0);
    let native = match (policy.shape, policy.jitter) {
        (Shape::Exponential, Jitter::None) => Some(format!(
            "wait_exponential(multiplier={base}, max={cap}, exp_base={mult})"
        )),
        (Shape::Exponential, Jitter::Full) => Some(format!(
            "wait_random_exponential(multiplier={base}, max={cap}, exp_base={mult})"
        )),
        (Shape::Exponential, Jitter::Equal) => Some(format!(
            "wait_exponential(multiplier={b}, max={c}, exp_base={mult})\n    + wait_random_exponential(multiplier={b}, max={c}, exp_base={mult})",
            b = half(policy.base),
            c = half(policy.cap)
        )),
        (Shape::Constant, Jitter::None) => Some(format!("wait_fixed({})", py(ceiling))),
        (Shape::Constant, Jitter::Full) => Some(format!("wait_random(0, {})", py(ceiling))),
        (Shape::Constant, Jitter::Equal) => Some(format!(
            "wait_fixed({c}) + wait_random(0, {c})",
            c = half(ceiling)
        )),
        (Shape::Linear, Jitter::None) => Some(format!(
            "wait_incrementing(start={base}, increment={base}, max={cap})"
        )),
        _ => None,
    };
    let mut imports = vec!["Retrying", "stop_after_attempt"];
    let mut helper = String::new();
    let wait = match native {
        Some(wait) => {
            for name in [
                "wait_exponential",
                "wait_random_exponential",
                "wait_fixed",
                "wait_random",
                "wait_incrementing",
            ] {
                if wait.contains(&format!("{name}(")) {
                    imports.push(name);
                }
            }
            wait
        }
        None => {
            let ceiling_expr = match policy.shape {
                Shape::Constant => format!("min({cap}, {base})"),
                Shape::Linear => format!("min({cap}, {base} * (retry + 1))"),
                Shape::Exponential => format!("min({cap}, {base} * {mult} ** retry)"),
            };
            let draw = match policy.jitter {
                Jitter::None => "ceiling".to_string(),
                Jitter::Full => "random.uniform(0, ceiling)".to_string(),
                Jitter::Equal => "ceiling / 2 + random.uniform(0, ceiling / 2)".to_string(),
                Jitter::Proportional => format!(
                    "min({cap}, ceiling * random.uniform({low}, {high}))",
                    low = py(1.0 - policy.jitter_fraction),
                    high = py(1.0 + policy.jitter_fraction)
                ),
                Jitter::Decorrelated => {
                    format!("min({cap}, random.uniform({base}, max({base}, 3 * previous)))")
                }
                Jitter::Polly if policy.shape != Shape::Exponential => {
                    format!("min({cap}, ceiling * random.uniform(0.75, 1.25))")
                }
                // Polly's DecorrelatedJitterBackoffV2: the state is the
                // point its curve reached, not the pause.
                Jitter::Polly => format!("min({cap}, (curve - previous) * {base} / 1.4)"),
            };
            let (start, curve, state) = if policy.jitter == Jitter::Polly
                && policy.shape == Shape::Exponential
            {
                (
                    "0.0".to_string(),
                    "    t = retry + random.random()\n    curve = 2 ** t * math.tanh(math.sqrt(4 * t))\n",
                    "curve",
                )
            } else {
                (base.clone(), "", "pause")
            };
            let maths = if curve.is_empty() {
                ""
            } else {
                "import math\n"
            };
            helper = format!(
                "{maths}import random\n\n\ndef playground_wait(retry_state):\n    \"\"\"The pause before retry `attempt_number` (1-based), drawn as the playground does.\"\"\"\n    retry = retry_state.attempt_number - 1\n    ceiling = {ceiling_expr}\n    previous = getattr(retry_state, \"playground_previous\", {start})\n{curve}    pause = {draw}\n    retry_state.playground_previous = {state}\n    return pause\n\n\n"
            );
            "playground_wait".to_string()
        }
    };
    let mut stop = format!("stop_after_attempt({})", policy.attempts);
    if let Some(deadline) = policy.deadline {
        stop += &format!(" | stop_before_delay({})", py(deadline));
        imports.push("stop_before_delay");
    }
    let text = format!(
        "from tenacity import {}\n{helper}\n# Call as: retrying(function, *args)\nretrying = Retrying(\n    stop={stop},\n    wait={wait},\n    reraise=True,\n)\n",
        imports.join(", ")
    );
    let rows = vec![
        exact(
            "attempts",
            format!("stop_after_attempt({})", policy.attempts),
        ),
        exact("first pause", format!("{} s", py(ceiling))),
        exact(
            "multiplier",
            match policy.shape {
                Shape::Exponential => format!("exp_base={mult}"),
                Shape::Linear => "increment = base".to_string(),
                Shape::Constant => "constant".to_string(),
            },
        ),
        exact("cap", format!("max={cap}")),
        exact("jitter", jitter_word(policy.jitter)),
        match policy.attempt_timeout {
            None => exact("attempt timeout", "none"),
            Some(_) => missing(
                "attempt timeout",
                retry_core::words::tr(
                    "tenacity never interrupts an attempt; give the call its own \
                    timeout",
                ),
            ),
        },
        match policy.deadline {
            None => exact("deadline", "none"),
            Some(deadline) => row(
                "deadline",
                format!("stop_before_delay({})", py(deadline)),
                Fit::Approximate,
                retry_core::words::tr(
                    "tenacity stops before a pause that would reach the deadline, as \
                    the playground does, but cannot shorten the running attempt to the time left",
                ),
            ),
        },
        no_budget(config, "tenacity"),
    ];
    (text, rows)
}

/// .NET TimeSpan literal.
fn timespan(seconds: f64) -> String {
    format!("TimeSpan.FromSeconds({seconds})")
}

/// Polly v8's `RetryStrategyOptions` (App-vNext/Polly,
/// src/Polly.Core/Retry/RetryHelper.cs): `MaxRetryAttempts` counts
/// retries; `Delay * 2^attempt` with a fixed factor of 2 for
/// `Exponential`, `Delay * (attempt + 1)` for `Linear`; with `UseJitter`,
/// exponential delays come from `DecorrelatedJitterBackoffV2` (Polly's own
/// decorrelated formula, not the AWS one) and constant or linear delays are
/// spread by a fixed share; `MaxDelay` caps every delay. A timeout strategy
/// added after the retry bounds each attempt, one added before it the whole
/// operation.
fn polly(config: &Config, policy: &Policy) -> (String, Vec<Mapping>) {
    let backoff = match policy.shape {
        Shape::Constant => "Constant",
        Shape::Linear => "Linear",
        Shape::Exponential => "Exponential",
    };
    let use_jitter = policy.jitter != Jitter::None;
    let mut rows = vec![
        exact(
            "attempts",
            format!("MaxRetryAttempts = {} (retries)", policy.attempts - 1),
        ),
        exact("first pause", format!("Delay = {}", timespan(policy.base))),
    ];
    rows.push(match policy.shape {
        // Polly's own exponential jitter has no factor to set.
        Shape::Exponential if policy.multiplier != 2.0 && policy.jitter != Jitter::Polly => row(
            "multiplier",
            "2 (fixed)",
            Fit::Approximate,
            retry_core::tf!(
                "Polly's exponential factor is fixed at 2, not {multiplier}",
                multiplier = policy.multiplier
            ),
        ),
        _ => exact(
            "multiplier",
            format!("BackoffType = DelayBackoffType.{backoff}"),
        ),
    });
    rows.push(exact("cap", format!("MaxDelay = {}", timespan(policy.cap))));
    rows.push(match (policy.jitter, policy.shape) {
        (Jitter::None, _) => exact("jitter", "UseJitter = false"),
        (Jitter::Polly, Shape::Exponential) => exact("jitter", "UseJitter = true"),
        // The playground caps the ceiling before the spread, Polly the
        // spread delay: the same while no spread ceiling passes the cap.
        (Jitter::Polly, _)
            if policy.ceiling(policy.attempts.saturating_sub(2)) * 1.25 <= policy.cap =>
        {
            exact("jitter", "UseJitter = true")
        }
        (Jitter::Polly, _) => row(
            "jitter",
            "UseJitter = true",
            Fit::Approximate,
            retry_core::words::tr(
                "Polly caps a delay after spreading it, the playground before: pauses near the cap differ",
            ),
        ),
        (_, Shape::Exponential) => row(
            "jitter",
            "UseJitter = true",
            Fit::Approximate,
            retry_core::tf!(
                "Polly's exponential jitter is its own decorrelated formula (DecorrelatedJitterBackoffV2, medians near Delay x 2^n), not {jitter} jitter nor the AWS 2015 decorrelated one",
                jitter = jitter_name(policy.jitter)
            ),
        ),
        _ => row(
            "jitter",
            "UseJitter = true",
            Fit::Approximate,
            retry_core::tf!(
                "Polly spreads constant and linear delays by a fixed share of the delay, not {jitter} jitter",
                jitter = jitter_name(policy.jitter)
            ),
        ),
    });
    rows.push(match policy.attempt_timeout {
        None => exact("attempt timeout", "none"),
        Some(t) => exact(
            "attempt timeout",
            format!("AddTimeout({}) after AddRetry", timespan(t)),
        ),
    });
    rows.push(match policy.deadline {
        None => exact("deadline", "none"),
        Some(d) => row(
            "deadline",
            format!("AddTimeout({}) before AddRetry", timespan(d)),
            Fit::Approximate,
            retry_core::words::tr(
                "an outer timeout cancels the pause or attempt it interrupts; it does \
                not skip a pause that would reach it",
            ),
        ),
    });
    rows.push(no_budget(config, "Polly v8"));
    let mut text = String::from("var pipeline = new ResiliencePipelineBuilder()\n");
    if let Some(deadline) = policy.deadline {
        text += &format!(
            "    .AddTimeout({}) // the whole operation\n",
            timespan(deadline)
        );
    }
    text += &format!(
        "    .AddRetry(new RetryStrategyOptions\n    {{\n        MaxRetryAttempts = {},\n        BackoffType = DelayBackoffType.{backoff},\n        Delay = {},\n        MaxDelay = {},\n        UseJitter = {},\n    }})\n",
        policy.attempts - 1,
        timespan(policy.base),
        timespan(policy.cap),
        use_jitter
    );
    if let Some(timeout) = policy.attempt_timeout {
        text += &format!("    .AddTimeout({}) // each attempt\n", timespan(timeout));
    }
    text += "    .Build();\n";
    (text, rows)
}

fn millis(seconds: f64) -> String {
    format!("Duration.ofMillis({})", (seconds * 1000.0).round())
}

/// resilience4j's `RetryConfig` (resilience4j/resilience4j,
/// resilience4j-retry `RetryConfig` and resilience4j-core
/// `IntervalFunction`): `maxAttempts` counts the first call;
/// `IntervalFunction.ofExponentialRandomBackoff(initial, multiplier,
/// randomizationFactor, max)` spreads each interval by
/// `randomizationFactor` either way, proportional jitter;
/// `ofExponentialBackoff(initial, multiplier, max)` has none. Times are
/// whole milliseconds. A `TimeLimiter` bounds one call.
fn resilience4j(config: &Config, policy: &Policy) -> (String, Vec<Mapping>) {
    let factor = geometric_factor(policy).unwrap_or(policy.multiplier);
    let (interval, jitter_row) = match policy.jitter {
        Jitter::None => (
            format!(
                "IntervalFunction.ofExponentialBackoff({}, {factor}, {})",
                millis(policy.base),
                millis(policy.cap)
            ),
            exact("jitter", "none"),
        ),
        jitter => {
            let fraction = if jitter == Jitter::Proportional {
                policy.jitter_fraction
            } else {
                0.5
            };
            let fit = if jitter == Jitter::Proportional {
                Fit::Exact
            } else {
                Fit::Approximate
            };
            (
                format!(
                    "IntervalFunction.ofExponentialRandomBackoff({}, {factor}, {fraction}, {})",
                    millis(policy.base),
                    millis(policy.cap)
                ),
                row(
                    "jitter",
                    format!("randomizationFactor {fraction}"),
                    fit,
                    if fit == Fit::Exact {
                        String::new()
                    } else {
                        retry_core::tf!(
                            "resilience4j randomises by a proportional factor (interval x (1 +- f)); {jitter} jitter has no counterpart, 0.5 is written",
                            jitter = jitter_name(jitter)
                        )
                    },
                ),
            )
        }
    };
    let rows = vec![
        exact("attempts", format!("maxAttempts({})", policy.attempts)),
        exact("first pause", millis(policy.base)),
        if policy.shape == Shape::Linear {
            row(
                "multiplier",
                format!("{factor}"),
                Fit::Approximate,
                retry_core::words::tr(
                    "IntervalFunction has no linear shape; an exponential one is \
                    written",
                ),
            )
        } else {
            exact("multiplier", format!("{factor}"))
        },
        exact("cap", millis(policy.cap)),
        jitter_row,
        match policy.attempt_timeout {
            None => exact("attempt timeout", "none"),
            Some(t) => exact(
                "attempt timeout",
                format!("TimeLimiterConfig.timeoutDuration({})", millis(t)),
            ),
        },
        match policy.deadline {
            None => exact("deadline", "none"),
            Some(_) => missing(
                "deadline",
                retry_core::words::tr(
                    "Retry has no overall deadline; a TimeLimiter around the \
                    decorated call bounds it, without skipping pauses",
                ),
            ),
        },
        no_budget(config, "resilience4j"),
    ];
    let mut text = format!(
        "RetryConfig retryConfig = RetryConfig.custom()\n    .maxAttempts({})\n    .intervalFunction({interval})\n    .build();\n",
        policy.attempts
    );
    if let Some(timeout) = policy.attempt_timeout {
        text += &format!(
            "TimeLimiterConfig attemptLimit = TimeLimiterConfig.custom()\n    .timeoutDuration({})\n    .build();\n",
            millis(timeout)
        );
    }
    (text, rows)
}

/// backon (Xuanwo/backon, src/backoff/exponential.rs and api.rs):
/// `ExponentialBuilder` yields `min_delay * factor^n` capped at
/// `max_delay`, `with_max_times` counts retries, and its own `with_jitter`
/// adds `U(0, 1) x delay` on top (pauses in `[d, 2d]`, above the cap).
/// Every `Iterator<Item = Duration>` is a backoff, so the playground's
/// jitter is applied with `map` on the ceilings instead (fastrand is the
/// generator backon itself uses).
fn backon(config: &Config, policy: &Policy) -> (String, Vec<Mapping>) {
    let retries = policy.attempts - 1;
    let ceilings = match policy.shape {
        Shape::Exponential => format!(
            "ExponentialBuilder::new()\n        .with_min_delay(Duration::from_secs_f64({}))\n        .with_max_delay(Duration::from_secs_f64({}))\n        .with_factor({})\n        .with_max_times({retries})\n        .build()",
            py(policy.base),
            py(policy.cap),
            py(policy.multiplier)
        ),
        Shape::Constant => format!(
            "ConstantBuilder::new()\n        .with_delay(Duration::from_secs_f64({}))\n        .with_max_times({retries})\n        .build()",
            py(first_ceiling(policy))
        ),
        Shape::Linear => format!(
            "(1..={retries}u32).map(|retry| Duration::from_secs_f64({}).mul_f64(f64::from(retry)).min(Duration::from_secs_f64({})))",
            py(policy.base),
            py(policy.cap)
        ),
    };
    let builder = match policy.shape {
        Shape::Exponential => "use backon::{BackoffBuilder, ExponentialBuilder};\n",
        Shape::Constant => "use backon::{BackoffBuilder, ConstantBuilder};\n",
        Shape::Linear => "",
    };
    let jittered = match policy.jitter {
        Jitter::None => String::new(),
        Jitter::Full => "\n        .map(|ceiling| ceiling.mul_f64(fastrand::f64()))".to_string(),
        Jitter::Equal => {
            "\n        .map(|ceiling| ceiling / 2 + (ceiling / 2).mul_f64(fastrand::f64()))"
                .to_string()
        }
        Jitter::Proportional => format!(
            "\n        .map(|ceiling| ceiling.mul_f64({low} + {spread} * fastrand::f64()).min(Duration::from_secs_f64({cap})))",
            low = py(1.0 - policy.jitter_fraction),
            spread = py(2.0 * policy.jitter_fraction),
            cap = py(policy.cap)
        ),
        Jitter::Decorrelated => format!(
            "\n        .scan({base}_f64, |previous, _ceiling| {{\n            let high = (3.0 * *previous).max({base});\n            *previous = ({base} + (high - {base}) * fastrand::f64()).min({cap});\n            Some(Duration::from_secs_f64(*previous))\n        }})",
            base = py(policy.base),
            cap = py(policy.cap)
        ),
        Jitter::Polly if policy.shape != Shape::Exponential => format!(
            "\n        .map(|ceiling| ceiling.mul_f64(0.75 + 0.5 * fastrand::f64()).min(Duration::from_secs_f64({cap})))",
            cap = py(policy.cap)
        ),
        // Polly's DecorrelatedJitterBackoffV2: the state is the point its
        // curve reached.
        Jitter::Polly => format!(
            "\n        .enumerate()\n        .scan(0.0_f64, |reached, (retry, _ceiling)| {{\n            let t = retry as f64 + fastrand::f64();\n            let curve = 2f64.powf(t) * (4.0 * t).sqrt().tanh();\n            let pause = ((curve - *reached) * {base} / 1.4).min({cap});\n            *reached = curve;\n            Some(Duration::from_secs_f64(pause))\n        }})",
            base = py(policy.base),
            cap = py(policy.cap)
        ),
    };
    let text = format!(
        "// Cargo.toml: backon = \"1\", fastrand = \"2\"\nuse std::time::Duration;\n\n{builder}\n/// {attempts} attempts: the pauses before retries 1..={retries}.\npub fn backoff() -> impl backon::Backoff {{\n    {ceilings}{jittered}\n}}\n",
        attempts = policy.attempts
    );
    let rows = vec![
        exact("attempts", format!("with_max_times({retries}) (retries)")),
        exact("first pause", format!("{} s", first_ceiling(policy))),
        match policy.shape {
            Shape::Exponential => row(
                "multiplier",
                format!("with_factor({})", py(policy.multiplier)),
                Fit::Approximate,
                retry_core::words::tr(
                    "backon keeps its factor and delays in f32: ceilings agree to \
                    about 1e-7 relative",
                ),
            ),
            _ => exact("multiplier", "none"),
        },
        exact("cap", format!("{} s", policy.cap)),
        exact(
            "jitter",
            format!(
                "{} (a map over the ceilings; backon's with_jitter adds up to one delay more instead)",
                jitter_word(policy.jitter)
            ),
        ),
        match policy.attempt_timeout {
            None => exact("attempt timeout", "none"),
            Some(_) => missing(
                "attempt timeout",
                retry_core::words::tr(
                    "backon never interrupts an attempt; wrap the call in a timeout \
                    (tokio::time::timeout)",
                ),
            ),
        },
        match policy.deadline {
            None => exact("deadline", "none"),
            Some(_) => missing(
                "deadline",
                retry_core::words::tr(
                    "backon's with_total_delay bounds the sum of pauses only, not the \
                    time of the attempts",
                ),
            ),
        },
        no_budget(config, "backon"),
    ];
    (text, rows)
}

fn go_duration(seconds: f64) -> String {
    format!("{} * time.Millisecond", (seconds * 1000.0).round())
}

/// cenkalti/backoff v5 (exponential.go, retry.go): `ExponentialBackOff`
/// multiplies `InitialInterval` by `Multiplier` up to `MaxInterval` and
/// returns `interval * U(1 - RandomizationFactor, 1 + RandomizationFactor)`:
/// proportional jitter, with the cap applied before the spread, so a pause
/// may exceed `MaxInterval`. `WithMaxTries` counts attempts,
/// `WithMaxElapsedTime` stops retrying once that much time has passed.
fn go(config: &Config, policy: &Policy) -> (String, Vec<Mapping>) {
    let factor = geometric_factor(policy).unwrap_or(policy.multiplier);
    let fraction = match policy.jitter {
        Jitter::None => 0.0,
        Jitter::Proportional => policy.jitter_fraction,
        _ => 0.5,
    };
    let jitter_row = match policy.jitter {
        Jitter::None => exact("jitter", "RandomizationFactor: 0"),
        Jitter::Proportional => row(
            "jitter",
            format!("RandomizationFactor: {fraction}"),
            Fit::Approximate,
            retry_core::words::tr(
                "cenkalti/backoff spreads the capped interval, so a pause can exceed \
                MaxInterval by the factor; the playground caps after the spread",
            ),
        ),
        jitter => row(
            "jitter",
            format!("RandomizationFactor: {fraction}"),
            Fit::Approximate,
            retry_core::tf!(
                "cenkalti/backoff randomises by a proportional factor (interval x (1 +- f)); {jitter} jitter has no counterpart, 0.5 is written",
                jitter = jitter_name(jitter)
            ),
        ),
    };
    let rows = vec![
        exact(
            "attempts",
            format!("backoff.WithMaxTries({})", policy.attempts),
        ),
        exact("first pause", go_duration(policy.base)),
        if policy.shape == Shape::Linear {
            row(
                "multiplier",
                format!("{factor}"),
                Fit::Approximate,
                retry_core::words::tr(
                    "ExponentialBackOff has no linear shape; an exponential one is \
                    written",
                ),
            )
        } else {
            exact("multiplier", format!("Multiplier: {factor}"))
        },
        exact("cap", go_duration(policy.cap)),
        jitter_row,
        match policy.attempt_timeout {
            None => exact("attempt timeout", "none"),
            Some(t) => row(
                "attempt timeout",
                format!("context.WithTimeout(ctx, {})", go_duration(t)),
                Fit::Exact,
                "",
            ),
        },
        match policy.deadline {
            None => exact("deadline", "none"),
            Some(d) => row(
                "deadline",
                format!("backoff.WithMaxElapsedTime({})", go_duration(d)),
                Fit::Approximate,
                retry_core::words::tr(
                    "the elapsed-time limit stops retrying once it has passed; it \
                    neither skips a pause that would reach it nor shortens the running attempt",
                ),
            ),
        },
        no_budget(config, "cenkalti/backoff"),
    ];
    let mut options = format!(
        "        backoff.WithBackOff(policy),\n        backoff.WithMaxTries({}),\n",
        policy.attempts
    );
    if let Some(deadline) = policy.deadline {
        options += &format!(
            "        backoff.WithMaxElapsedTime({}),\n",
            go_duration(deadline)
        );
    }
    let attempt_note = match policy.attempt_timeout {
        Some(t) => format!(
            "// Inside operation, bound each attempt: ctx, cancel := context.WithTimeout(ctx, {}); defer cancel()\n",
            go_duration(t)
        ),
        None => String::new(),
    };
    let text = format!(
        "policy := &backoff.ExponentialBackOff{{\n    InitialInterval:     {},\n    RandomizationFactor: {fraction},\n    Multiplier:          {factor},\n    MaxInterval:         {},\n}}\n{attempt_note}result, err := backoff.Retry(ctx, operation,\n{options})\n",
        go_duration(policy.base),
        go_duration(policy.cap)
    );
    (text, rows)
}
