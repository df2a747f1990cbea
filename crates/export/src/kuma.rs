//! Kuma: a MeshRetry's `http` retries and a MeshTimeout's
//! `requestTimeout` (kumahq/kuma, pkg/plugins/policies/meshretry and
//! meshtimeout, api/v1alpha1), as Kubernetes YAML.
//!
//! Kuma writes them to Envoy's route (meshretry/plugin/xds/configurer.go):
//! `numRetries` is Envoy's `num_retries`, so it counts **retries** though
//! its own comment says "attempts" (Envoy's 1 when unset; 0 configures no
//! retry at all); the backoff is Envoy's, doubling from `baseInterval`
//! (25 ms when unset) up to `maxInterval` (ten times the base when unset),
//! drawn under the ceiling. The default MeshRetry of a new mesh retries 5
//! times (6 calls) with a 25 ms base and a 250 ms cap
//! (pkg/defaults/mesh/meshretry.go). Kuma has no retry budget. Both
//! policies here target the whole mesh; narrow `to` to the services meant.

use serde_json::Value;

use crate::istio::go_duration;
use crate::read::{Imported, number};
use crate::{Format, Mapping, exact, full_jitter_only, missing, proto_duration};
use retry_core::budget::BudgetKind;
use retry_core::policy::Policy;
use retry_sim::config::{Config, P};

/// Envoy's defaults where the policy sets nothing.
const DEFAULT_RETRIES: f64 = 1.0;
const DEFAULT_BASE: f64 = 0.025;
const CAP_OVER_BASE: f64 = 10.0;

const HEAD: &str = "apiVersion: kuma.io/v1alpha1\n";
const META: &str = "metadata:\n  name: my-service\n  namespace: kuma-system\n  labels:\n    kuma.io/mesh: default\nspec:\n  targetRef:\n    kind: Mesh\n  to:\n  - targetRef:\n      kind: Mesh\n    default:\n      http:\n";

pub(crate) fn export(config: &Config, policy: &Policy) -> (String, Vec<Mapping>) {
    let mut rows = Vec::new();
    let retries = policy.attempts - 1;
    rows.push(exact(
        "attempts",
        format!("http.numRetries: {retries} (retries, not attempts)"),
    ));
    let base = policy.ceiling(0);
    rows.push(exact(
        "first pause",
        format!("http.backOff.baseInterval: {}", proto_duration(base)),
    ));
    rows.push(crate::doubling(
        policy,
        retry_core::words::tr(
            "Kuma's proxy (Envoy) doubles the ceiling from the base: 1, 2, 4, 8 x base, whatever the shape or multiplier",
        ),
    ));
    rows.push(exact(
        "cap",
        format!("http.backOff.maxInterval: {}", proto_duration(policy.cap)),
    ));
    rows.push(full_jitter_only(
        policy,
        retry_core::words::tr("Kuma's proxy (Envoy) always draws under the ceiling"),
    ));
    rows.push(match policy.attempt_timeout {
        None => exact("attempt timeout", "http.perTryTimeout: 0s (none)"),
        Some(t) => exact(
            "attempt timeout",
            format!("http.perTryTimeout: {}", proto_duration(t)),
        ),
    });
    let request = policy
        .deadline
        .map_or_else(|| "0s".to_string(), proto_duration);
    rows.push(match policy.deadline {
        None => exact("deadline", "MeshTimeout http.requestTimeout: 0s (none)"),
        Some(_) => exact(
            "deadline",
            format!("MeshTimeout http.requestTimeout: {request}"),
        ),
    });
    rows.push(match config.budget_kind() {
        BudgetKind::None => exact("budget", "none"),
        _ => missing(
            "budget",
            retry_core::words::tr("Kuma's MeshRetry has no retry budget"),
        ),
    });
    let per_try = policy
        .attempt_timeout
        .map_or_else(|| "0s".to_string(), proto_duration);
    let text = format!(
        "# Kuma counts retries: at most {calls} per request.\n{HEAD}kind: MeshRetry\n{META}        numRetries: {retries}\n        perTryTimeout: {per_try}\n        backOff:\n          baseInterval: {}\n          maxInterval: {}\n        retryOn:\n{retry_on}---\n{HEAD}kind: MeshTimeout\n{META}        requestTimeout: {request}\n",
        proto_duration(base),
        proto_duration(policy.cap),
        calls = crate::calls(policy.attempts),
        retry_on = crate::classes::written::kuma(policy.retry_on)
            .iter()
            .map(|w| match w.parse::<u16>() {
                Ok(_) => format!("        - \"{w}\"\n"),
                Err(_) => format!("        - {w}\n"),
            })
            .collect::<String>(),
    );
    (text, rows)
}

/// Whether a document is one of Kuma's that a retry policy lives in.
pub(crate) fn is_kuma(document: &Value) -> bool {
    let kind = document.get("kind").and_then(Value::as_str);
    let api = document.get("apiVersion").and_then(Value::as_str);
    matches!(kind, Some("MeshRetry" | "MeshTimeout"))
        && api.is_none_or(|api| api.starts_with("kuma.io/"))
}

/// The `default.http` of the first `to` of the first document of `kind`.
fn http<'a>(documents: &'a [Value], kind: &str) -> Option<&'a Value> {
    documents
        .iter()
        .find(|d| d.get("kind").and_then(Value::as_str) == Some(kind))
        .and_then(|d| d.pointer("/spec/to/0/default/http"))
}

/// Reads the first MeshRetry's and MeshTimeout's HTTP settings.
pub(crate) fn import(documents: &[Value]) -> Imported {
    let mut out = Imported::new(Format::Kuma);
    let read = |out: &mut Imported, value: Option<&Value>, name: &str| match value
        .map(|v| go_duration(v, name))
    {
        Some(Ok(seconds)) => Some(seconds),
        Some(Err(why)) => {
            out.problems.push(why);
            None
        }
        None => None,
    };
    if let Some(timeout) = http(documents, "MeshTimeout") {
        if let Some(seconds) = read(&mut out, timeout.get("requestTimeout"), "requestTimeout") {
            out.set(P::Deadline, seconds, "MeshTimeout http.requestTimeout");
        }
    }
    let Some(retry) = http(documents, "MeshRetry") else {
        out.unmapped.push(
            retry_core::words::tr(
                "no MeshRetry with to[0].default.http: the policy's retries are left as they were",
            )
            .to_string(),
        );
        return out;
    };
    match retry.get("numRetries").map(|v| number(v, "numRetries")) {
        Some(Ok(n)) if n >= 0.0 => out.set(P::Attempts, n.floor() + 1.0, "http.numRetries + 1"),
        Some(Ok(_)) => out
            .problems
            .push(retry_core::words::tr("numRetries must not be negative").to_string()),
        Some(Err(why)) => out.problems.push(why),
        None => out.set(
            P::Attempts,
            DEFAULT_RETRIES + 1.0,
            retry_core::words::tr("http.numRetries (Envoy's default 1) + 1"),
        ),
    }
    if let Some(seconds) = read(&mut out, retry.get("perTryTimeout"), "perTryTimeout") {
        out.set(P::Timeout, seconds, "http.perTryTimeout");
    }
    let back_off = retry.get("backOff");
    let base = read(
        &mut out,
        back_off.and_then(|b| b.get("baseInterval")),
        "baseInterval",
    )
    .filter(|b| *b > 0.0)
    .unwrap_or(DEFAULT_BASE);
    let cap = read(
        &mut out,
        back_off.and_then(|b| b.get("maxInterval")),
        "maxInterval",
    )
    .filter(|c| *c > 0.0)
    .unwrap_or(CAP_OVER_BASE * base);
    out.envoy_backoff(
        (base, "http.backOff.baseInterval"),
        (cap, "http.backOff.maxInterval"),
        retry_core::words::tr("Kuma's MeshRetry retries, it does not hedge"),
    );
    let words = retry
        .get("retryOn")
        .map(crate::classes::words)
        .unwrap_or_default();
    out.retry_on("http.retryOn", crate::classes::Classes::kuma(&words));
    for key in ["hostSelection", "hostSelectionMaxAttempts"] {
        if retry.get(key).is_some() {
            out.host_choice(&format!("http.{key}"));
        }
    }
    if let Some(retry) = retry.as_object() {
        out.unread(
            retry,
            &[
                "numRetries",
                "perTryTimeout",
                "backOff",
                "retryOn",
                "hostSelection",
                "hostSelectionMaxAttempts",
            ],
            "http.",
        );
    }
    if let Some(back_off) = back_off.and_then(Value::as_object) {
        out.unread(back_off, &["baseInterval", "maxInterval"], "http.backOff.");
    }
    out
}
