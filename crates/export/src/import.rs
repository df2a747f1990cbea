//! Reading a real configuration in: a gRPC service config (JSON), an Envoy
//! route retry policy (JSON), Kubernetes manifests (YAML or JSON: an Istio
//! VirtualService with its DestinationRule, [`crate::istio`]; a Gateway
//! API HTTPRoute with its XBackendTrafficPolicy, [`crate::gateway`]; an
//! Envoy Gateway BackendTrafficPolicy, [`crate::envoy_gateway`]; a Kuma
//! MeshRetry with its MeshTimeout, [`crate::kuma`]; Linkerd's retry
//! annotations, [`crate::linkerd`]), Spring Boot's resilience4j
//! properties (YAML, [`crate::spring`]) or an AWS shared config section (ini text) becomes settings of policy A or B,
//! with what was mapped, what was not and why, as plain data.
//!
//! The text is untrusted: it is size-limited, every problem becomes a
//! message, and nothing here panics or echoes more than a short clip of it.
//! Kubernetes manifests and Envoy's own YAML (a route, or a route
//! configuration, listener or bootstrap holding one) are read by the small
//! reader of block YAML ([`crate::yaml`]), since that is how they are
//! written.

use super::Format;
use retry_core::budget::BudgetKind;
use retry_core::decimal::parse_f64;
use retry_core::policy::{Jitter, Shape};
use retry_sim::config::{BUDGETS, Config, JITTERS, P, PARAMS, SHAPES, SWITCH};
use retry_sim::link::clip;
use serde_json::{Map, Value};

/// Longer text is refused unread: no retry configuration is this large.
pub const MAX_INPUT: usize = 64 * 1024;

use crate::read::number;
pub use crate::read::{Imported, Setting};

/// Reads `text`, guessing its format. `Err` only when nothing could be read
/// at all; otherwise problems are listed in the result. What the text
/// leaves out of the policy takes its system's default
/// ([`Imported::defaults`]).
pub fn import(text: &str) -> Result<Imported, String> {
    read(text).map(Imported::with_defaults)
}

fn read(text: &str) -> Result<Imported, String> {
    if text.len() > MAX_INPUT {
        return Err(retry_core::tf!(
            "the text is {bytes} bytes; a retry configuration fits in {MAX_INPUT}",
            bytes = text.len(),
            MAX_INPUT = MAX_INPUT
        ));
    }
    let trimmed = text.trim_start_matches('\u{feff}').trim();
    if trimmed.is_empty() {
        return Err(retry_core::words::tr(
            "nothing to read: paste a gRPC service config, an Envoy retry \
            policy (JSON or YAML), an Istio VirtualService, a Gateway API HTTPRoute, an Envoy Gateway BackendTrafficPolicy, a Kuma MeshRetry, Linkerd's retry annotations, Spring Boot resilience4j properties or an AWS config section",
        )
        .to_string());
    }
    if trimmed.starts_with('{') {
        let value: Value = serde_json::from_str(trimmed)
            .map_err(|error| retry_core::tf!("not valid JSON: {error}", error = error))?;
        if let Some(imported) = manifests(std::slice::from_ref(&value)) {
            return Ok(imported);
        }
        let Value::Object(object) = value else {
            return Err(retry_core::words::tr("the JSON is not an object").to_string());
        };
        if object.contains_key("methodConfig")
            || object.contains_key("retryPolicy")
            || object.contains_key("maxAttempts")
            || object.contains_key("retryThrottling")
        {
            return Ok(grpc(&object));
        }
        if let Some(imported) = envoy_config(&Value::Object(object)) {
            return Ok(imported);
        }
        return Err(retry_core::words::tr(
            "a JSON object, but neither a gRPC service config \
            (methodConfig, retryThrottling) nor an Envoy retry policy (retry_policy, \
            num_retries)",
        )
        .to_string());
    }
    if trimmed.starts_with('[')
        && !trimmed.starts_with("[default")
        && !trimmed.starts_with("[profile")
        && serde_json::from_str::<Value>(trimmed).is_ok()
    {
        return Err(
            retry_core::words::tr("the JSON is a list; paste the service config object")
                .to_string(),
        );
    }
    if let Some(properties) = crate::spring::properties(trimmed) {
        if let Some(imported) = manifests(&[properties?]) {
            return Ok(imported);
        }
    }
    if trimmed.contains("apiVersion:")
        || trimmed.contains("kind:")
        || trimmed.contains("resilience4j:")
    {
        let documents = crate::yaml::documents(trimmed)?;
        if let Some(imported) = manifests(&documents) {
            return Ok(imported);
        }
    }
    if ENVOY_KEYS
        .iter()
        .any(|key| trimmed.contains(&format!("{key}:")))
    {
        let documents = crate::yaml::documents(trimmed)?;
        return documents.iter().find_map(envoy_config).ok_or_else(|| {
            retry_core::words::tr(
                "YAML with Envoy's retry keys, but no mapping holds a retry_policy \
                    or num_retries",
            )
            .to_string()
        });
    }
    aws(trimmed)
}

/// The keys of an Envoy route's retry policy, as its YAML and JSON write
/// them.
const ENVOY_KEYS: [&str; 4] = ["retry_policy", "num_retries", "retry_on", "retry_back_off"];

/// The first mapping, depth first, that is an Envoy route (it holds a
/// `retry_policy`) or a retry policy itself: Envoy's YAML sits in a route
/// configuration, a listener or a whole bootstrap, as people keep it.
fn envoy_route(value: &Value) -> Option<&Map<String, Value>> {
    match value {
        Value::Object(object) if ENVOY_KEYS.iter().any(|key| object.contains_key(*key)) => {
            Some(object)
        }
        Value::Object(object) => object.values().find_map(envoy_route),
        Value::Array(items) => items.iter().find_map(envoy_route),
        _ => None,
    }
}

/// Kubernetes manifests that hold a retry policy, as a file or `kubectl
/// get -o yaml|json` gives them (a `kind: List`'s items read as
/// documents; the server's bookkeeping, `status` and `metadata`'s
/// `managedFields` and the like, said once as not read).
fn manifests(documents: &[Value]) -> Option<Imported> {
    let mut items = Vec::new();
    for document in documents {
        match document.get("items").and_then(Value::as_array) {
            Some(listed) if document.get("kind").and_then(Value::as_str) == Some("List") => {
                items.extend(listed.iter().cloned())
            }
            _ => items.push(document.clone()),
        }
    }
    let mut imported = resources(&items)?;
    let bookkeeping = items.iter().any(|item| {
        item.get("status").is_some()
            || item.pointer("/metadata/managedFields").is_some()
            || item.pointer("/metadata/resourceVersion").is_some()
    });
    if bookkeeping {
        imported.unmapped.push(
            retry_core::words::tr(
                "status and metadata (managedFields, resourceVersion, the last applied configuration): the cluster's bookkeeping, not read",
            )
            .to_string(),
        );
    }
    Some(imported)
}

/// The resources that hold a retry policy: Istio's, the Gateway API's,
/// Envoy Gateway's, Kuma's, or Linkerd's annotations; or Spring Boot's
/// resilience4j properties.
fn resources(documents: &[Value]) -> Option<Imported> {
    // Linkerd's annotations first: they sit on a Service or on a Gateway
    // API HTTPRoute, whose own retry Linkerd does not read.
    if documents.iter().any(crate::linkerd::is_linkerd) {
        Some(crate::linkerd::import(documents))
    } else if documents.iter().any(crate::istio::is_istio) {
        Some(crate::istio::import(documents))
    } else if documents.iter().any(crate::gateway::is_gateway) {
        Some(crate::gateway::import(documents))
    } else if documents.iter().any(crate::envoy_gateway::is_envoy_gateway) {
        Some(crate::envoy_gateway::import(documents))
    } else if documents.iter().any(crate::kuma::is_kuma) {
        Some(crate::kuma::import(documents))
    } else if documents.iter().any(crate::spring::is_spring) {
        Some(crate::spring::import(documents))
    } else {
        None
    }
}

/// Applies an import to policy A (or B, switching compare mode on) of
/// `config`; returns the new configuration and why values were clamped.
pub fn apply(config: &Config, imported: &Imported, to_b: bool) -> (Config, Vec<String>) {
    let mut next = config.clone();
    let mut clamped = Vec::new();
    if to_b {
        next.set(P::Compare, SWITCH.position(true));
    }
    for setting in imported.settings.iter().chain(&imported.defaults) {
        let index = setting.param as usize;
        let why = if to_b {
            next.set_b_at(index, setting.value)
        } else {
            next.set_at(index, setting.value)
        };
        if let Some(why) = why {
            clamped.push(format!("{}: {why}", PARAMS[index].key));
        }
    }
    (next, clamped)
}

/// The settings of a service below the top that a paste can set, each
/// from the second layer to the fifth: its attempts, its base delay, its backoff shape, its
/// cap, its jitter, its timeout on its call below, whether it keeps a
/// budget.
const OWN: [[P; 4]; 7] = [
    P::LAYER_ATTEMPTS,
    P::LAYER_BASES,
    P::LAYER_SHAPES,
    P::LAYER_CAPS,
    P::LAYER_JITTERS,
    P::LAYER_TIMEOUTS,
    P::LAYER_BUDGETS,
];

/// The layers a paste can go to: the second to the fifth.
pub const PASTE_LAYERS: std::ops::RangeInclusive<u32> = 2..=5;

impl Imported {
    /// The import as the policy of the service at layer `layer` (2 to 5)
    /// of `config`'s chain, which grows to that many services if it is
    /// shorter: the service's attempts, base delay, backoff shape, cap,
    /// jitter and timeout on its call below are its own; the last
    /// service's calls take the attempt timeout, so that is what its
    /// timeout sets. A paste without a budget turns the service's off, one
    /// of the policy's kind on, one of another kind makes it the service's
    /// own (with the policy's settings of that kind). Every other setting a service
    /// below the top takes from the policy, and is listed as not mapped,
    /// with why.
    pub fn for_layer(self, config: &Config, layer: u32) -> Imported {
        let layer = layer.clamp(*PASTE_LAYERS.start(), *PASTE_LAYERS.end());
        let [attempts, base, shape, cap, jitter, timeout, budget] =
            OWN.map(|own| own[layer as usize - 2]);
        let policys = BUDGETS.position(config.budget_kind());
        let layers = (config.get(P::Layers) as u32).max(layer);
        let mut out = Imported {
            settings: Vec::new(),
            defaults: Vec::new(),
            ..self
        };
        if (config.get(P::Layers) as u32) < layer {
            out.settings.push(Setting {
                param: P::Layers,
                value: f64::from(layer),
                from: retry_core::tf!("the service at layer {layer}", layer = layer),
            });
        }
        let none = BUDGETS.position(BudgetKind::None);
        let own = |param: P, value: f64| match param {
            P::Attempts => Some((attempts, value)),
            P::Base => Some((base, value)),
            P::Cap => Some((cap, value)),
            // A service's own shapes and jitters are the policy's, one
            // place on.
            P::Shape => Some((shape, value + 1.0)),
            P::Jitter => Some((jitter, value + 1.0)),
            P::Timeout if layer == layers => Some((P::Timeout, value)),
            P::Timeout => Some((timeout, value)),
            P::Budget if policys != none && (value == none || value == policys) => {
                Some((budget, SWITCH.position(value != none)))
            }
            // A budget of another kind is the service's own: its kinds
            // are the policy's, one place on.
            P::Budget if value != none && value != policys => Some((budget, value + 1.0)),
            _ => None,
        };
        // A default the service cannot keep is the policy's already.
        out.defaults = self
            .defaults
            .into_iter()
            .filter_map(|setting| {
                own(setting.param, setting.value).map(|(param, value)| Setting {
                    param,
                    value,
                    ..setting
                })
            })
            .collect();
        for setting in self.settings {
            match own(setting.param, setting.value) {
                Some((param, value)) => out.settings.push(Setting {
                    param,
                    value,
                    ..setting
                }),
                None => out.unmapped.push(retry_core::tf!(
                    "{from}: a service below the top takes the policy's “{label}”",
                    from = setting.from,
                    label = setting.param.param().label.get()
                )),
            }
        }
        out
    }
}

/// A protobuf JSON duration, `"0.1s"`: decimal seconds with an `s`, as
/// gRFC A6 and Envoy's API write them.
fn duration(value: &Value, name: &str) -> Result<f64, String> {
    let Value::String(text) = value else {
        return Err(retry_core::tf!(
            "{name} must be a string such as \"0.1s\"",
            name = name
        ));
    };
    let Some(number) = text.trim().strip_suffix('s') else {
        return Err(retry_core::tf!(
            "{name} '{text}' must end in s (seconds)",
            name = name,
            text = clip(text)
        ));
    };
    let valid = !number.is_empty()
        && number.chars().all(|c| c.is_ascii_digit() || c == '.')
        && number.matches('.').count() <= 1;
    match parse_f64(number) {
        Some(seconds) if valid && seconds.is_finite() => Ok(seconds),
        _ => Err(retry_core::tf!(
            "{name} '{text}' is not a number of seconds",
            name = name,
            text = clip(text)
        )),
    }
}

/// Reads a gRFC A6 service config (grpc/proposal, A6-client-retries.md):
/// the first method config with a retry policy, and the retry throttling.
fn grpc(object: &Map<String, Value>) -> Imported {
    let mut out = Imported::new(Format::Grpc);
    let mut method: Option<&Map<String, Value>> = None;
    match object.get("methodConfig") {
        Some(Value::Array(methods)) => {
            let objects: Vec<&Map<String, Value>> =
                methods.iter().filter_map(Value::as_object).collect();
            if objects.len() < methods.len() {
                out.problems.push(
                    retry_core::words::tr("methodConfig entries that are not objects were skipped")
                        .to_string(),
                );
            }
            method = objects
                .iter()
                .find(|m| m.contains_key("retryPolicy") || m.contains_key("hedgingPolicy"))
                .or(objects.first())
                .copied();
            if objects.len() > 1 {
                out.unmapped.push(retry_core::tf!(
                    "{count} method configs: only the first with a retryPolicy was read",
                    count = objects.len()
                ));
            }
        }
        Some(_) => out
            .problems
            .push(retry_core::words::tr("methodConfig must be a list").to_string()),
        None => {}
    }
    if object.contains_key("methodConfig") {
        out.unread(object, &["methodConfig", "retryThrottling"], "");
    }
    let retry_policy = match method {
        Some(method) => {
            out.unread(
                method,
                &["name", "timeout", "retryPolicy", "hedgingPolicy"],
                "methodConfig.",
            );
            if let Some(timeout) = method.get("timeout") {
                match duration(timeout, "timeout") {
                    Ok(seconds) => out.set(P::Deadline, seconds, "timeout"),
                    Err(why) => out.problems.push(why),
                }
            }
            match method.get("hedgingPolicy") {
                Some(Value::Object(hedging)) => grpc_hedging_policy(hedging, &mut out),
                Some(_) => out
                    .problems
                    .push(retry_core::words::tr("hedgingPolicy must be an object").to_string()),
                None => out.set(
                    P::Hedge,
                    SWITCH.position(false),
                    retry_core::words::tr("no hedgingPolicy"),
                ),
            }
            if method.contains_key("hedgingPolicy") {
                // gRFC A6: a method hedges or retries, not both.
                return grpc_throttling(object, out);
            }
            method.get("retryPolicy")
        }
        None => object.get("retryPolicy"),
    };
    match retry_policy {
        Some(Value::Object(policy)) => grpc_retry_policy(policy, &mut out),
        // A bare retry policy is read too.
        None if object.contains_key("maxAttempts") => grpc_retry_policy(object, &mut out),
        Some(_) => out
            .problems
            .push(retry_core::words::tr("retryPolicy must be an object").to_string()),
        None => {
            if !object.contains_key("retryThrottling") {
                out.problems.push(
                    retry_core::words::tr("no retryPolicy found: nothing to retry").to_string(),
                );
            }
        }
    }
    grpc_throttling(object, out)
}

/// gRFC A6's `hedgingPolicy`: `maxAttempts` copies (more than 5 are 5),
/// `hedgingDelay` between them (0 when absent).
fn grpc_hedging_policy(hedging: &Map<String, Value>, out: &mut Imported) {
    out.set(P::Hedge, SWITCH.position(true), "hedgingPolicy");
    match hedging.get("maxAttempts").map(|v| number(v, "maxAttempts")) {
        Some(Ok(copies)) if copies >= 2.0 => out.set(
            P::HedgeCopies,
            copies.min(5.0).floor(),
            "hedgingPolicy.maxAttempts",
        ),
        Some(Ok(copies)) => out.problems.push(retry_core::tf!(
            "hedgingPolicy.maxAttempts {copies} must be at least 2",
            copies = copies
        )),
        Some(Err(why)) => out.problems.push(why),
        None => out
            .problems
            .push(retry_core::words::tr("hedgingPolicy needs maxAttempts").to_string()),
    }
    let delay = hedging
        .get("hedgingDelay")
        .map_or(Ok(0.0), |v| duration(v, "hedgingDelay"));
    match delay {
        Ok(seconds) => out.set(P::HedgeDelay, seconds, "hedgingPolicy.hedgingDelay"),
        Err(why) => out.problems.push(why),
    }
    if hedging.contains_key("nonFatalStatusCodes") {
        out.unmapped.push(
            retry_core::words::tr(
                "hedgingPolicy.nonFatalStatusCodes: the playground decides what may pass by its own classes",
            )
            .to_string(),
        );
    }
    out.unread(
        hedging,
        &["maxAttempts", "hedgingDelay", "nonFatalStatusCodes"],
        "hedgingPolicy.",
    );
}

/// A service config's `retryThrottling`, the token bucket.
fn grpc_throttling(object: &Map<String, Value>, mut out: Imported) -> Imported {
    match object.get("retryThrottling") {
        Some(Value::Object(throttling)) => {
            let max_tokens = throttling.get("maxTokens").map(|v| number(v, "maxTokens"));
            let ratio = throttling
                .get("tokenRatio")
                .map(|v| number(v, "tokenRatio"));
            match (max_tokens, ratio) {
                (Some(Ok(max_tokens)), Some(Ok(ratio))) => {
                    if max_tokens <= 0.0 || max_tokens > 1000.0 {
                        out.problems.push(retry_core::tf!(
                            "maxTokens {max_tokens} is outside (0, 1000]",
                            max_tokens = max_tokens
                        ));
                    } else if ratio <= 0.0 {
                        out.problems.push(retry_core::tf!(
                            "tokenRatio {ratio} must be above 0",
                            ratio = ratio
                        ));
                    } else {
                        out.set(
                            P::Budget,
                            BUDGETS.position(BudgetKind::TokenBucket),
                            "retryThrottling",
                        );
                        out.set(P::Tokens, max_tokens, "retryThrottling.maxTokens");
                        out.set(P::TokenRatio, ratio, "retryThrottling.tokenRatio");
                    }
                }
                (Some(Err(why)), _) | (_, Some(Err(why))) => out.problems.push(why),
                _ => out.problems.push(
                    retry_core::words::tr("retryThrottling needs maxTokens and tokenRatio")
                        .to_string(),
                ),
            }
            out.unread(throttling, &["maxTokens", "tokenRatio"], "retryThrottling.");
        }
        Some(_) => out
            .problems
            .push(retry_core::words::tr("retryThrottling must be an object").to_string()),
        None => out.set(
            P::Budget,
            BUDGETS.position(BudgetKind::None),
            retry_core::words::tr("no retryThrottling"),
        ),
    }
    out
}

fn grpc_retry_policy(policy: &Map<String, Value>, out: &mut Imported) {
    match policy.get("maxAttempts").map(|v| number(v, "maxAttempts")) {
        Some(Ok(attempts)) if attempts < 2.0 => out.problems.push(retry_core::tf!(
            "maxAttempts {attempts} must be at least 2 (gRFC A6)",
            attempts = attempts
        )),
        Some(Ok(attempts)) => {
            let used = attempts.min(5.0).floor();
            if used != attempts {
                out.unmapped.push(retry_core::tf!(
                    "maxAttempts {attempts}: gRPC clients use {used}",
                    attempts = attempts,
                    used = used
                ));
            }
            out.set(P::Attempts, used, "maxAttempts");
        }
        Some(Err(why)) => out.problems.push(why),
        None => out
            .problems
            .push(retry_core::words::tr("retryPolicy.maxAttempts is required").to_string()),
    }
    for (key, param) in [("initialBackoff", P::Base), ("maxBackoff", P::Cap)] {
        match policy.get(key).map(|v| duration(v, key)) {
            Some(Ok(seconds)) if seconds > 0.0 => out.set(param, seconds, key),
            Some(Ok(_)) => out
                .problems
                .push(retry_core::tf!("{key} must be above 0", key = key)),
            Some(Err(why)) => out.problems.push(why),
            None => out
                .problems
                .push(retry_core::tf!("retryPolicy.{key} is required", key = key)),
        }
    }
    match policy
        .get("backoffMultiplier")
        .map(|v| number(v, "backoffMultiplier"))
    {
        Some(Ok(factor)) if factor <= 0.0 => out
            .problems
            .push(retry_core::words::tr("backoffMultiplier must be above 0").to_string()),
        Some(Ok(1.0)) => {
            out.set(
                P::Shape,
                SHAPES.position(Shape::Constant),
                "backoffMultiplier 1",
            );
        }
        Some(Ok(factor)) => {
            out.set(
                P::Shape,
                SHAPES.position(Shape::Exponential),
                "backoffMultiplier",
            );
            out.set(P::Multiplier, factor, "backoffMultiplier");
        }
        Some(Err(why)) => out.problems.push(why),
        None => out
            .problems
            .push(retry_core::words::tr("retryPolicy.backoffMultiplier is required").to_string()),
    }
    out.set(
        P::Jitter,
        JITTERS.position(Jitter::Proportional),
        retry_core::words::tr("gRPC's jitter (x random(0.8, 1.2))"),
    );
    out.set(
        P::JitterFraction,
        0.2,
        retry_core::words::tr("gRPC's jitter (x random(0.8, 1.2))"),
    );
    match policy.get("retryableStatusCodes") {
        Some(codes @ Value::Array(listed)) if !listed.is_empty() => {
            let words = crate::classes::words(codes);
            out.retry_on(
                "retryableStatusCodes",
                crate::classes::Classes::grpc(words.iter().map(String::as_str)),
            );
        }
        _ => out.problems.push(
            retry_core::words::tr("retryableStatusCodes must be a non-empty list (gRFC A6)")
                .to_string(),
        ),
    }
    if policy.contains_key("perAttemptRecvTimeout") {
        out.unmapped
            .push(retry_core::words::tr("perAttemptRecvTimeout: not read").to_string());
    }
    out.unread(
        policy,
        &[
            "maxAttempts",
            "initialBackoff",
            "maxBackoff",
            "backoffMultiplier",
            "retryableStatusCodes",
            "perAttemptRecvTimeout",
            // A bare policy may sit beside the throttling.
            "retryThrottling",
        ],
        "retryPolicy.",
    );
}

/// Reads an Envoy route retry policy (envoyproxy/envoy,
/// api/envoy/config/route/v3/route_components.proto), bare or under
/// `retry_policy`, with the route's `timeout` beside it.
fn envoy(object: &Map<String, Value>) -> Imported {
    let mut out = Imported::new(Format::Envoy);
    if let Some(timeout) = object.get("timeout") {
        match duration(timeout, "timeout") {
            Ok(seconds) => out.set(P::Deadline, seconds, retry_core::words::tr("route timeout")),
            Err(why) => out.problems.push(why),
        }
    }
    let policy = match object.get("retry_policy").or(object.get("retryPolicy")) {
        Some(Value::Object(policy)) => policy,
        Some(_) => {
            out.problems
                .push(retry_core::words::tr("retry_policy must be an object").to_string());
            return out;
        }
        None => object,
    };
    match policy.get("num_retries").or(policy.get("numRetries")) {
        Some(value) => match number(value, "num_retries") {
            Ok(retries) if retries >= 0.0 => {
                out.set(P::Attempts, retries.floor() + 1.0, "num_retries + 1")
            }
            Ok(_) => out
                .problems
                .push(retry_core::words::tr("num_retries must not be negative").to_string()),
            Err(why) => out.problems.push(why),
        },
        // Envoy's default is one retry.
        None => out.set(
            P::Attempts,
            2.0,
            retry_core::words::tr("num_retries (default 1) + 1"),
        ),
    }
    if let Some(timeout) = policy
        .get("per_try_timeout")
        .or(policy.get("perTryTimeout"))
    {
        match duration(timeout, "per_try_timeout") {
            Ok(seconds) => out.set(P::Timeout, seconds, "per_try_timeout"),
            Err(why) => out.problems.push(why),
        }
    }
    // Envoy's defaults: 25 ms base, ten times the base as the cap.
    let mut base = 0.025;
    let mut cap = None;
    match policy.get("retry_back_off").or(policy.get("retryBackOff")) {
        Some(Value::Object(back_off)) => {
            match back_off
                .get("base_interval")
                .or(back_off.get("baseInterval"))
                .map(|v| duration(v, "base_interval"))
            {
                Some(Ok(seconds)) if seconds > 0.0 => base = seconds,
                Some(Ok(_)) => out
                    .problems
                    .push(retry_core::words::tr("base_interval must be above 0").to_string()),
                Some(Err(why)) => out.problems.push(why),
                None => out.problems.push(
                    retry_core::words::tr("retry_back_off.base_interval is required").to_string(),
                ),
            }
            match back_off
                .get("max_interval")
                .or(back_off.get("maxInterval"))
                .map(|v| duration(v, "max_interval"))
            {
                Some(Ok(seconds)) if seconds > 0.0 => cap = Some(seconds),
                Some(Ok(_)) => out
                    .problems
                    .push(retry_core::words::tr("max_interval must be above 0").to_string()),
                Some(Err(why)) => out.problems.push(why),
                None => {}
            }
            out.unread(
                back_off,
                &[
                    "base_interval",
                    "baseInterval",
                    "max_interval",
                    "maxInterval",
                ],
                "retry_policy.retry_back_off.",
            );
        }
        Some(_) => out
            .problems
            .push(retry_core::words::tr("retry_back_off must be an object").to_string()),
        None => {}
    }
    out.set(P::Base, base, "retry_back_off.base_interval");
    out.set(
        P::Cap,
        cap.unwrap_or(10.0 * base),
        "retry_back_off.max_interval",
    );
    out.set(
        P::Shape,
        SHAPES.position(Shape::Exponential),
        retry_core::words::tr("Envoy's backoff"),
    );
    out.set(P::Multiplier, 2.0, retry_core::words::tr("Envoy's backoff"));
    out.set(
        P::Jitter,
        JITTERS.position(Jitter::Full),
        retry_core::words::tr("Envoy's jitter (always full)"),
    );
    if let Some(conditions) = policy.get("retry_on").or(policy.get("retryOn")) {
        let codes = policy
            .get("retriable_status_codes")
            .or(policy.get("retriableStatusCodes"))
            .map(|v| crate::classes::numbers(&crate::classes::words(v)))
            .unwrap_or_default();
        let words = crate::classes::words(conditions);
        out.retry_on(
            "retry_on",
            crate::classes::Classes::envoy(words.iter().map(String::as_str), &codes),
        );
    }
    for key in ["retriable_headers", "retriable_request_headers"] {
        if policy.contains_key(key) {
            out.retryable_classes(key);
        }
    }
    for key in [
        "retry_host_predicate",
        "retry_priority",
        "host_selection_retry_max_attempts",
    ] {
        if policy.contains_key(key) {
            out.host_choice(key);
        }
    }
    out.unread(
        policy,
        &[
            "num_retries",
            "numRetries",
            "per_try_timeout",
            "perTryTimeout",
            "retry_back_off",
            "retryBackOff",
            "retry_on",
            "retryOn",
            "retriable_status_codes",
            "retriable_headers",
            "retriable_request_headers",
            "retry_host_predicate",
            "retry_priority",
            "host_selection_retry_max_attempts",
            // A bare policy sits beside the route's timeout.
            "timeout",
        ],
        "retry_policy.",
    );
    envoy_breakers(object, &mut out);
    out
}

/// An Envoy cluster's circuit breakers, in `object` (a cluster, or the
/// route the page's own exports write them beside; the Envoy Gateway key
/// the page's exports wrote before they used Envoy's name): the default
/// priority's `retry_budget`, or without one its `max_retries`, a cap on
/// retries in flight (envoy.config.cluster.v3, circuit_breaker.proto).
/// Whether `object` has circuit breakers at all.
fn envoy_breakers(object: &Map<String, Value>, out: &mut Imported) -> bool {
    // The cluster's `circuit_breakers` (Cluster.circuit_breakers in
    // envoy.config.cluster.v3), and the key the playground's own exports
    // wrote for it before they used Envoy's name.
    let Some(breakers) = object
        .get("circuit_breakers")
        .or_else(|| object.get("cluster_circuit_breakers"))
    else {
        return false;
    };
    // The thresholds of the default priority, the first listed without
    // one.
    let thresholds = breakers
        .get("thresholds")
        .and_then(Value::as_array)
        .and_then(|t| {
            t.iter()
                .find(|t| t.get("priority").is_none_or(|p| p == "DEFAULT"))
        });
    let max_retries = thresholds.and_then(|t| t.get("max_retries"));
    if let Some(thresholds) = thresholds.and_then(Value::as_object) {
        out.unread(
            thresholds,
            &["priority", "max_retries", "retry_budget"],
            "circuit_breakers.thresholds.",
        );
    }
    if let Some(budget) = thresholds.and_then(|t| t.get("retry_budget")) {
        if max_retries.is_some() {
            out.unmapped
                .push(retry_core::words::tr("max_retries: a retry_budget replaces it").to_string());
        }
        let percent = budget
            .get("budget_percent")
            .and_then(|p| p.get("value"))
            .map_or(Ok(20.0), |v| number(v, "budget_percent.value"));
        // A bare integer in proto3 JSON, or a string holding one.
        let least = budget
            .get("min_retry_concurrency")
            .map_or(Ok(3.0), |v| number(v, "min_retry_concurrency"));
        match (percent, least) {
            (Ok(percent), Ok(least)) if (0.0..=100.0).contains(&percent) => {
                out.set(
                    P::Budget,
                    BUDGETS.position(BudgetKind::Envoy),
                    "retry_budget",
                );
                out.set(
                    P::EnvoyPercent,
                    percent / 100.0,
                    "retry_budget.budget_percent",
                );
                out.set(P::EnvoyMin, least, "retry_budget.min_retry_concurrency");
            }
            (Ok(percent), Ok(_)) => out.problems.push(retry_core::tf!(
                "budget_percent {percent} is outside 0..100",
                percent = percent
            )),
            (Err(why), _) | (_, Err(why)) => out.problems.push(why),
        }
    } else if let Some(value) = max_retries {
        match number(value, "max_retries") {
            Ok(most) if most >= 0.0 => {
                out.set(
                    P::Budget,
                    BUDGETS.position(BudgetKind::Envoy),
                    "max_retries",
                );
                out.set(P::EnvoyPercent, 0.0, "max_retries");
                out.set(P::EnvoyMin, most.floor(), "max_retries");
            }
            Ok(_) => out
                .problems
                .push(retry_core::words::tr("max_retries must not be negative").to_string()),
            Err(why) => out.problems.push(why),
        }
    }
    true
}

/// An Envoy configuration as people keep it, a route, a route
/// configuration, a listener or a whole bootstrap (YAML or JSON): its
/// first route with a retry policy, and the cluster that route sends to
/// (or the first cluster), with its circuit breakers and outlier
/// detection. A cluster without circuit breakers has Envoy's default cap
/// of 3 retries in flight.
fn envoy_config(root: &Value) -> Option<Imported> {
    let route = envoy_route(root)?;
    let mut out = envoy(route);
    let target = route.get("cluster").and_then(Value::as_str);
    let mut clusters = Vec::new();
    collect_clusters(root, &mut clusters);
    let cluster = clusters
        .iter()
        .find(|c| target.is_some() && c.get("name").and_then(Value::as_str) == target)
        .or(clusters.first());
    if let Some(cluster) = cluster {
        let already = out.settings.iter().any(|s| s.param == P::Budget);
        if !already && !envoy_breakers(cluster, &mut out) {
            let from = retry_core::tf!(
                "not in the paste: {source}",
                source =
                    retry_core::words::tr("Envoy's default (circuit_breaker.proto: max_retries 3)")
            );
            for (param, value) in [
                (P::Budget, BUDGETS.position(BudgetKind::Envoy)),
                (P::EnvoyPercent, 0.0),
                (P::EnvoyMin, 3.0),
            ] {
                out.defaults.push(Setting {
                    param,
                    value,
                    from: from.clone(),
                });
            }
        }
        out.unread(
            cluster,
            &["name", "circuit_breakers", "outlier_detection"],
            "cluster.",
        );
        if clusters.len() > 1 {
            out.unmapped.push(retry_core::tf!(
                "{count} clusters: only {name}, where the route sends, was read",
                count = clusters.len(),
                name = clip(cluster.get("name").and_then(Value::as_str).unwrap_or("?"))
            ));
        }
        if cluster.contains_key("outlier_detection") {
            out.unmapped.push(
                retry_core::words::tr(
                    "outlier_detection: ejecting a failing host is the balancer's choice; the page's servers are never ejected",
                )
                .to_string(),
            );
        }
    }
    Some(out)
}

/// Every mapping under `value` that is an Envoy cluster: one in a
/// `clusters` list.
fn collect_clusters<'a>(value: &'a Value, out: &mut Vec<&'a Map<String, Value>>) {
    match value {
        Value::Object(object) => {
            for (key, value) in object {
                match (key.as_str(), value) {
                    ("clusters", Value::Array(items)) => {
                        out.extend(items.iter().filter_map(Value::as_object))
                    }
                    _ => collect_clusters(value, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| collect_clusters(item, out)),
        _ => {}
    }
}

/// Reads an AWS shared config section (the AWS SDKs and Tools Reference
/// Guide, "Retry behavior"; botocore/configprovider.py reads `retry_mode`
/// and `max_attempts`). The first section holding either is used.
fn aws(text: &str) -> Result<Imported, String> {
    let mut out = Imported::new(Format::Aws);
    let mut sections: Vec<(String, Vec<(String, String)>)> = vec![(String::new(), Vec::new())];
    for (number, line) in text.lines().enumerate().take(2000) {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[') {
            match name.strip_suffix(']') {
                Some(name) => sections.push((name.trim().to_string(), Vec::new())),
                None => out.problems.push(retry_core::tf!(
                    "line {line}: '{text}' is not a section header",
                    line = number + 1,
                    text = clip(line)
                )),
            }
            continue;
        }
        match line.split_once('=') {
            Some((key, value)) => {
                if let Some((_, pairs)) = sections.last_mut() {
                    pairs.push((key.trim().to_ascii_lowercase(), value.trim().to_string()));
                }
            }
            None => out.problems.push(retry_core::tf!(
                "line {line}: '{text}' is not key = value",
                line = number + 1,
                text = clip(line)
            )),
        }
    }
    let Some((name, pairs)) = sections.iter().find(|(_, pairs)| {
        pairs
            .iter()
            .any(|(key, _)| key == "retry_mode" || key == "max_attempts")
    }) else {
        return Err(retry_core::words::tr(
            "neither a JSON configuration nor an AWS config section with \
            retry_mode or max_attempts",
        )
        .to_string());
    };
    let mut mode = None;
    for (key, value) in pairs {
        match key.as_str() {
            "retry_mode" => mode = Some(value.to_ascii_lowercase()),
            "max_attempts" => match parse_f64(value) {
                Some(attempts) if attempts >= 1.0 && attempts.fract() == 0.0 => {
                    out.set(P::Attempts, attempts, "max_attempts")
                }
                _ => out.problems.push(retry_core::tf!(
                    "max_attempts '{value}' must be a whole number of at least 1",
                    value = clip(value)
                )),
            },
            // Read below, as the 2026 rules' switch.
            "aws_new_retries_2026" => {}
            key => out.unmapped.push(retry_core::tf!(
                "{path}{key}: not read: the page has no setting for it",
                path = "",
                key = clip(key)
            )),
        }
    }
    for (other, _) in sections
        .iter()
        .filter(|(other, pairs)| other != name && !pairs.is_empty())
    {
        out.unmapped.push(retry_core::tf!(
            "[{section}]: not read: the section read is [{read}]",
            section = clip(other),
            read = clip(name)
        ));
    }
    let (sdk, era) = Sdk::named(text);
    let flag = text.lines().any(|line| {
        let line = line.trim().trim_start_matches("export ").replace(' ', "");
        line.eq_ignore_ascii_case("AWS_NEW_RETRIES_2026=true")
    });
    let new_retries = flag || era.unwrap_or(sdk.default_era()) >= 2026;
    let mode = match mode.as_deref() {
        Some(mode) => mode.to_string(),
        None => sdk.default_mode(new_retries).to_string(),
    };
    let from = retry_core::tf!(
        "retry_mode = {mode}, as {sdk} retries{era}",
        mode = clip(&mode),
        sdk = sdk.name(),
        era = if new_retries {
            retry_core::words::tr(" with AWS_NEW_RETRIES_2026")
        } else {
            ""
        }
    );
    let Some(rules) = sdk.rules(&mode, new_retries) else {
        out.problems.push(retry_core::tf!(
            "retry_mode '{mode}' must be standard, adaptive or legacy",
            mode = clip(&mode)
        ));
        return Ok(out);
    };
    if !out.settings.iter().any(|s| s.param == P::Attempts) {
        out.set(P::Attempts, f64::from(rules.attempts), from.clone());
    }
    out.set(P::Shape, SHAPES.position(Shape::Exponential), from.clone());
    out.set(P::Base, rules.base, from.clone());
    out.set(P::Multiplier, 2.0, from.clone());
    let jitter = if rules.jitter {
        Jitter::Full
    } else {
        Jitter::None
    };
    out.set(P::Jitter, JITTERS.position(jitter), from.clone());
    match rules.cap {
        Some(cap) => out.set(P::Cap, cap, from.clone()),
        None => out.set(
            P::Cap,
            retry_core::range::CAP.max,
            retry_core::tf!("{from} (no cap: the page's longest)", from = from),
        ),
    }
    match rules.quota {
        Some((cost, timeout_cost)) => {
            let kind = if mode == "adaptive" {
                BudgetKind::AwsAdaptive
            } else {
                BudgetKind::AwsQuota
            };
            out.set(P::Budget, BUDGETS.position(kind), from.clone());
            out.set(P::Quota, 500.0, from.clone());
            out.set(P::QuotaCost, cost, from.clone());
            out.set(P::QuotaTimeoutCost, timeout_cost, from.clone());
        }
        None => out.set(P::Budget, BUDGETS.position(BudgetKind::None), from.clone()),
    }
    if new_retries {
        out.unmapped.push(
            retry_core::words::tr(
                "throttling errors back off from their own base (1 s in the 2026 rules) and cost 5; the page has one base and one cost",
            )
            .to_string(),
        );
    }
    out.unmapped.push(retry_core::tf!(
        "the SDK is {sdk}; a comment '# sdk: java 2025' chooses another (python, java, javascript, go, dotnet, cpp) and the year of its rules (2025, or 2026, as a line AWS_NEW_RETRIES_2026=true does); DynamoDB's own attempts and base are not applied",
        sdk = sdk.name()
    ));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_grpc_service_config() {
        let text = r#"{"methodConfig":[{"name":[{"service":"x"}],"timeout":"2.5s",
            "retryPolicy":{"maxAttempts":7,"initialBackoff":"0.2s","maxBackoff":"3s",
            "backoffMultiplier":1.5,"retryableStatusCodes":["UNAVAILABLE"]}}],
            "retryThrottling":{"maxTokens":20,"tokenRatio":0.25}}"#;
        let imported = import(text).expect("a valid config");
        assert_eq!(imported.format, Format::Grpc);
        assert!(imported.problems.is_empty(), "{:?}", imported.problems);
        let (config, clamped) = apply(&Config::default(), &imported, false);
        assert!(clamped.is_empty(), "{clamped:?}");
        let policy = config.policy();
        assert_eq!(policy.attempts, 5, "A6 clamps 7 to 5");
        assert_eq!(
            (policy.base, policy.cap, policy.multiplier),
            (0.2, 3.0, 1.5)
        );
        assert_eq!(policy.deadline, Some(2.5));
        assert_eq!(config.budget_kind(), BudgetKind::TokenBucket);
        assert_eq!(config.get(P::TokenRatio), 0.25);
        assert!(
            imported
                .unmapped
                .iter()
                .any(|u| u.contains("maxAttempts 7"))
        );
    }

    #[test]
    fn bad_values_give_messages() {
        let text = r#"{"methodConfig":[{"retryPolicy":{"maxAttempts":"x","initialBackoff":"100ms",
            "maxBackoff":1,"backoffMultiplier":-1,"retryableStatusCodes":[]}}]}"#;
        let imported = import(text).expect("JSON that is a service config");
        assert_eq!(imported.problems.len(), 5, "{:?}", imported.problems);
        assert!(import("{").is_err());
        // Envoy's YAML reads, in block or flow style; YAML that is not
        // is refused with its line.
        for text in [
            "retry_policy:\n  num_retries: 3",
            "retry_policy: {num_retries: 3}",
        ] {
            let envoy = import(text).expect("Envoy's YAML");
            assert_eq!(envoy.format, Format::Envoy);
            assert_eq!(envoy.settings[0].value, 4.0, "{text}");
        }
        assert!(
            import("retry_policy: {num_retries: 3")
                .expect_err("an open flow mapping")
                .contains("line 1")
        );
        assert!(import(&"x".repeat(MAX_INPUT + 1)).is_err());
    }

    /// The AWS SDKs' rules as each SDK's code and its 2026 announcement
    /// give them: botocore's legacy default of 5 attempts uncapped and
    /// without a quota; JavaScript's 2026 transient cost of 14 (10
    /// before); Go's first pause under 2 s; C++'s legacy 11 attempts
    /// without jitter; every SDK's 2026 base of 50 ms.
    #[test]
    fn an_aws_config_takes_its_sdks_rules() {
        let link = |text: &str| {
            let imported = import(text).expect("an AWS config");
            apply(&Config::default(), &imported, false).0
        };
        let python = link("# sdk: python 2025\n[default]\nregion = eu-west-1\nmax_attempts = 5\n");
        assert_eq!(python.get(P::Cap), retry_core::range::CAP.max);
        assert_eq!(python.budget_kind(), BudgetKind::None);
        let legacy = link("# sdk: python 2025\n[default]\nretry_mode = legacy\n");
        assert_eq!(legacy.get(P::Attempts), 5.0);
        // botocore today follows the 2026 rules: standard mode, 50 ms.
        let today = link("[default]\nmax_attempts = 3\n");
        assert_eq!((today.get(P::Base), today.get(P::QuotaCost)), (0.05, 14.0));
        let js = link("# sdk: javascript\n[default]\nretry_mode = standard\n");
        assert_eq!((js.get(P::Base), js.get(P::QuotaCost)), (0.1, 10.0));
        let js_2026 = link(
            "# sdk: javascript\nAWS_NEW_RETRIES_2026=true\n[default]\nretry_mode = standard\n",
        );
        assert_eq!(
            (js_2026.get(P::Base), js_2026.get(P::QuotaCost)),
            (0.05, 14.0)
        );
        let go = link("# sdk: go\n[default]\nmax_attempts = 3\n");
        assert_eq!(go.get(P::Base), 2.0);
        let cpp = link("# sdk: cpp\n[default]\nmax_attempts = 11\n");
        assert_eq!((cpp.get(P::Attempts), cpp.jitter()), (11.0, Jitter::None));
        let java_2026 =
            link("# sdk: java\nAWS_NEW_RETRIES_2026=true\n[default]\nmax_attempts = 3\n");
        assert_eq!(java_2026.budget_kind(), BudgetKind::AwsQuota);
        assert_eq!(java_2026.get(P::Base), 0.05);
        let java = link("# sdk: java\n[default]\nmax_attempts = 3\n");
        assert_eq!((java.get(P::Base), java.get(P::QuotaCost)), (0.1, 5.0));
    }

    #[test]
    fn reads_envoy_and_aws() {
        let envoy = import(
            r#"{"retry_policy":{"num_retries":3,"per_try_timeout":"0.5s",
            "retry_back_off":{"base_interval":"0.1s"}}}"#,
        )
        .expect("an Envoy policy");
        let (config, _) = apply(&Config::default(), &envoy, true);
        let b = config.policy_b_config().policy();
        assert_eq!((b.attempts, b.base, b.cap), (4, 0.1, 1.0));
        assert_eq!(b.attempt_timeout, Some(0.5));
        assert!(config.comparing());
        let aws = import(
            "# mine\n[profile x]\nregion = eu-west-1\nretry_mode = standard\nmax_attempts = 6\n",
        )
        .expect("an AWS section");
        let (config, _) = apply(&Config::default(), &aws, false);
        assert_eq!(config.policy().attempts, 6);
        assert_eq!(config.budget_kind(), BudgetKind::AwsQuota);
        assert!(import("[default]\nregion = x\n").is_err());
        let adaptive = import("[profile x]\nretry_mode = adaptive\n").expect("an AWS section");
        let (config, _) = apply(&Config::default(), &adaptive, false);
        assert_eq!(config.budget_kind(), BudgetKind::AwsAdaptive);
    }

    /// The retry budget is the cluster's `circuit_breakers`, as Envoy names
    /// it; the key older exports of the playground wrote still reads.
    #[test]
    fn reads_envoys_retry_budget_under_its_own_name_and_the_old_one() {
        for key in ["circuit_breakers", "cluster_circuit_breakers"] {
            let text = format!(
                r#"{{"retry_policy":{{"num_retries":2}},"{key}":{{"thresholds":[{{"retry_budget":
                {{"budget_percent":{{"value":25}}}}}}]}}}}"#
            );
            let imported = import(&text).expect("an Envoy policy");
            let (config, _) = apply(&Config::default(), &imported, false);
            assert_eq!(config.budget_kind(), BudgetKind::Envoy, "{key}");
            assert_eq!(config.get(P::EnvoyPercent), 0.25, "{key}");
            assert_eq!(config.get(P::EnvoyMin), 3.0, "Envoy's default, {key}");
        }
        let exported = crate::export(
            &Config::from_link("v=1&budget=ratio&b_pct=0.3").0,
            crate::Format::Envoy,
        );
        assert!(
            exported.text.contains("\"circuit_breakers\""),
            "{}",
            exported.text
        );
        assert!(!exported.text.contains("cluster_circuit_breakers"));
    }
}

/// An AWS SDK, whose retry rules differ by SDK and changed in 2026 (each
/// SDK's announcement of its updated retry behaviour, and its code:
/// botocore 0e6e240 retries/standard.py, quota.py and data/_retry.json;
/// aws-sdk-java-v2 DefaultRetryStrategy; smithy-typescript util-retry;
/// aws-sdk-go-v2 aws/retry/standard.go; aws-sdk-net StandardRetryPolicy;
/// aws-sdk-cpp DefaultRetryStrategy).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sdk {
    Python,
    Java,
    JavaScript,
    Go,
    DotNet,
    Cpp,
}

/// What one SDK's mode does: its attempts, the ceiling of its first
/// pause (doubling after), its cap (none: it grows without one), full
/// jitter or none, and its quota's retry and timeout costs (none: no
/// quota).
struct Rules {
    attempts: u32,
    base: f64,
    cap: Option<f64>,
    jitter: bool,
    quota: Option<(f64, f64)>,
}

impl Sdk {
    /// The SDK a comment `# sdk: <name> [<year>]` in `text` names, and
    /// the year of its rules if it says one; Python's (botocore, the AWS
    /// CLI's) when none does.
    fn named(text: &str) -> (Sdk, Option<u32>) {
        let named = text
            .lines()
            .find_map(|line| {
                let rest = line.trim().strip_prefix('#')?.trim().strip_prefix("sdk")?;
                Some(
                    rest.trim_start_matches([' ', ':', '='])
                        .trim()
                        .to_ascii_lowercase(),
                )
            })
            .unwrap_or_default();
        let mut words = named.split_whitespace();
        let sdk = match words.next() {
            Some("java" | "java-v2") => Sdk::Java,
            Some("javascript" | "js" | "js-v3") => Sdk::JavaScript,
            Some("go" | "go-v2") => Sdk::Go,
            Some("dotnet" | ".net" | "net") => Sdk::DotNet,
            Some("cpp" | "c++") => Sdk::Cpp,
            _ => Sdk::Python,
        };
        (sdk, words.next().and_then(|year| year.parse().ok()))
    }

    /// The year of the rules it follows where nothing says: botocore
    /// follows the 2026 rules whatever the environment since 1.44
    /// (configprovider.py: "the retry behavior this flag gated while it
    /// was opt-in is now always enabled"); the others only with
    /// AWS_NEW_RETRIES_2026.
    fn default_era(self) -> u32 {
        match self {
            Sdk::Python => 2026,
            _ => 2025,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Sdk::Python => "Python (botocore)",
            Sdk::Java => "Java v2",
            Sdk::JavaScript => "JavaScript v3",
            Sdk::Go => "Go v2",
            Sdk::DotNet => ".NET",
            Sdk::Cpp => "C++",
        }
    }

    /// Its mode where the config names none: standard with the 2026
    /// rules; before them legacy in Python, Java and C++.
    fn default_mode(self, new_retries: bool) -> &'static str {
        match self {
            Sdk::Python | Sdk::Java | Sdk::Cpp if !new_retries => "legacy",
            _ => "standard",
        }
    }

    /// Its rules in `mode`, before the 2026 rules or with them; `None`
    /// for a mode it does not have.
    fn rules(self, mode: &str, new_retries: bool) -> Option<Rules> {
        let standard = matches!(mode, "standard" | "adaptive");
        if !standard && mode != "legacy" {
            return None;
        }
        // The 2026 rules, alike in every SDK: 3 attempts, 50 ms doubling
        // to 20 s under full jitter, a transient retry costs 14.
        let rules = if new_retries {
            Rules {
                attempts: 3,
                base: 0.05,
                cap: Some(20.0),
                jitter: true,
                quota: Some((14.0, if self == Sdk::DotNet { 10.0 } else { 14.0 })),
            }
        } else {
            match (self, standard) {
                (Sdk::Python, false) => Rules {
                    attempts: 5,
                    base: 1.0,
                    cap: None,
                    jitter: true,
                    quota: None,
                },
                (Sdk::Java, false) => Rules {
                    attempts: 4,
                    base: 0.1,
                    cap: Some(20.0),
                    jitter: true,
                    quota: Some((5.0, 5.0)),
                },
                (Sdk::Cpp, false) => Rules {
                    attempts: 11,
                    base: 0.05,
                    cap: None,
                    jitter: false,
                    quota: None,
                },
                (Sdk::Python | Sdk::DotNet | Sdk::Cpp, _) => Rules {
                    attempts: 3,
                    base: 1.0,
                    cap: Some(20.0),
                    jitter: true,
                    quota: Some((5.0, 10.0)),
                },
                (Sdk::Java, true) => Rules {
                    attempts: 3,
                    base: 0.1,
                    cap: Some(20.0),
                    jitter: true,
                    quota: Some((5.0, 5.0)),
                },
                (Sdk::JavaScript, _) => Rules {
                    attempts: 3,
                    base: 0.1,
                    cap: Some(20.0),
                    jitter: true,
                    quota: Some((10.0, 10.0)),
                },
                // Go's first pause is drawn under 2 s: rand x 2^attempt,
                // the attempt counted from 1.
                (Sdk::Go, _) => Rules {
                    attempts: 3,
                    base: 2.0,
                    cap: Some(20.0),
                    jitter: true,
                    quota: Some((5.0, 10.0)),
                },
            }
        };
        Some(rules)
    }
}
