//! Istio: a VirtualService's HTTP route `retries` and `timeout`
//! (istio/api, networking/v1alpha3/virtual_service.proto, `HTTPRetry`), and
//! a DestinationRule's `trafficPolicy.retryBudget` (destination_rule.proto,
//! `TrafficPolicy.RetryBudget`), as Kubernetes YAML.
//!
//! Istio writes them to Envoy's route retry policy (istio/istio,
//! pilot/pkg/networking/core/route/retry): `attempts` is Envoy's
//! `num_retries`, so it counts **retries**, and a request makes at most
//! `1 + attempts` calls; `backoff` is Envoy's `base_interval` and nothing
//! sets `max_interval`, so Envoy's default, ten times the base, is the cap;
//! Envoy doubles the ceiling and draws under it. A route has no timeout
//! unless one is set (unlike Envoy's own 15 s). Without a `retries` block
//! Istio retries twice, and without `backoff` the base is 25 ms.
//!
//! Istio's admission webhook (istio/istio at 86c9f01f,
//! pkg/config/validation/agent/validation.go, `ValidateHTTPRetry` and
//! `ValidateDuration`) refuses more than the CRD does: `attempts: 0`
//! beside `perTryTimeout` or `retryOn` ("http retry policy configured
//! when attempts are set to 0 (disabled)"), and any duration under 1 ms or
//! not a whole number of milliseconds. So one attempt is written as
//! `attempts: 0` alone, its timeout as the route's, and every duration in
//! whole milliseconds.

use serde_json::{Map, Value};

use crate::read::{Imported, number};
use crate::{Fit, Format, Mapping, exact, full_jitter_only, missing, proto_duration, row};
use retry_core::budget::BudgetKind;
use retry_core::policy::Policy;
use retry_sim::config::{BUDGETS, Config, P};
use retry_sim::link::clip;

/// Istio's retries when a route sets none, and the base when it sets no
/// backoff (Envoy's).
const DEFAULT_RETRIES: f64 = 2.0;
const DEFAULT_BASE: f64 = 0.025;
/// Envoy's cap when none is set: ten times the base.
const CAP_OVER_BASE: f64 = 10.0;

/// The service the manifests name: the reader's own goes in its place.
const SERVICE: &str = "my-service";

/// A duration as Istio admits it: whole milliseconds, 1 ms at least.
fn admitted(seconds: f64) -> f64 {
    ((seconds * 1e3).round() / 1e3).max(1e-3)
}

/// A row for a duration written as [`admitted`]: exact where that is the
/// value, else approximate, saying why.
fn timed(knob: &'static str, field: &str, seconds: f64) -> Mapping {
    let written = admitted(seconds);
    let setting = format!("{field}: {}", proto_duration(written));
    match (written - seconds).abs() <= 1e-9 {
        true => exact(knob, setting),
        false => row(
            knob,
            setting,
            Fit::Approximate,
            retry_core::words::tr("Istio admits only whole milliseconds, 1 ms at least"),
        ),
    }
}

pub(crate) fn export(config: &Config, policy: &Policy) -> (String, Vec<Mapping>) {
    let mut rows = Vec::new();
    let retries = policy.attempts - 1;
    let once = retries < 1;
    rows.push(exact(
        "attempts",
        match once {
            true => "retries.attempts: 0, alone (no retry)".to_string(),
            false => format!("retries.attempts: {retries} (retries, not attempts)"),
        },
    ));
    let base = admitted(policy.ceiling(0));
    rows.push(timed("first pause", "retries.backoff", policy.ceiling(0)));
    rows.push(crate::doubling(
        policy,
        retry_core::words::tr(
            "Istio's proxy (Envoy) doubles the ceiling from the backoff: 1, 2, 4, 8 x backoff, whatever the shape or multiplier",
        ),
    ));
    let cap = CAP_OVER_BASE * base;
    rows.push(if (policy.cap - cap).abs() <= 1e-9 * cap {
        exact("cap", "10 x backoff (fixed)")
    } else {
        row(
            "cap",
            "10 x backoff (fixed)",
            Fit::Approximate,
            retry_core::tf!(
                "Istio sets no maximum pause: its proxy caps the ceiling at ten times the backoff, {cap} here",
                cap = proto_duration(cap)
            ),
        )
    });
    rows.push(full_jitter_only(
        policy,
        retry_core::words::tr("Istio's proxy (Envoy) always draws under the ceiling"),
    ));
    // With one attempt Istio admits no perTryTimeout: the route's timeout
    // ends the one attempt, at the earlier of the two.
    let route_timeout = match (once, policy.attempt_timeout, policy.deadline) {
        (true, Some(attempt), Some(deadline)) => Some(attempt.min(deadline)),
        (true, Some(attempt), None) => Some(attempt),
        (_, _, deadline) => deadline,
    };
    rows.push(match policy.attempt_timeout {
        None => exact("attempt timeout", "none"),
        Some(_) if once => row(
            "attempt timeout",
            "timeout (the route's)",
            Fit::Approximate,
            retry_core::words::tr(
                "Istio admits no perTryTimeout beside attempts: 0: the route's timeout ends the one attempt",
            ),
        ),
        Some(timeout) => timed("attempt timeout", "retries.perTryTimeout", timeout),
    });
    rows.push(match (policy.deadline, route_timeout) {
        (None, None) => exact("deadline", "none (a route has no timeout unless set)"),
        (_, Some(timeout)) => timed("deadline", "timeout", timeout),
        (Some(deadline), None) => timed("deadline", "timeout", deadline),
    });
    let mut rule = String::new();
    rows.push(match config.budget_kind() {
        BudgetKind::None => exact("budget", "none"),
        BudgetKind::Envoy => {
            let percent = config.get(P::EnvoyPercent) * 100.0;
            let least = config.get(P::EnvoyMin);
            rule = format!(
                "---\n# Retries in flight at most {percent} % of the requests in flight, and never\n# fewer than {least}.\napiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: {SERVICE}\nspec:\n  host: {SERVICE}\n  trafficPolicy:\n    retryBudget:\n      percent: {percent}\n      minRetryConcurrency: {least}\n"
            );
            exact(
                "budget",
                format!("DestinationRule retryBudget {percent} %, minRetryConcurrency {least}"),
            )
        }
        BudgetKind::Ratio
        | BudgetKind::TokenBucket
        | BudgetKind::AwsQuota
        | BudgetKind::AwsAdaptive
        | BudgetKind::Bucket
        | BudgetKind::Sre => missing(
            "budget",
            retry_core::words::tr(
                "Istio's only budget is a DestinationRule's retryBudget (retries in flight as a share of requests in flight); choose Envoy's retries in flight to export one",
            ),
        ),
    });
    let timeout = route_timeout
        .map(|d| format!("    timeout: {}\n", proto_duration(admitted(d))))
        .unwrap_or_default();
    let retry = match once {
        true => "    retries:\n      attempts: 0\n".to_string(),
        false => {
            let per_try = policy
                .attempt_timeout
                .map(|t| format!("      perTryTimeout: {}\n", proto_duration(admitted(t))))
                .unwrap_or_default();
            format!(
                "    retries:\n      attempts: {retries}\n{per_try}      backoff: {}\n      retryOn: {retry_on}\n",
                proto_duration(base),
                // Istio's retryOn is Envoy's, a code written as a number.
                retry_on = {
                    let (conditions, codes) = crate::classes::written::envoy(policy.retry_on);
                    let codes = codes.iter().map(u16::to_string);
                    let words: Vec<String> = conditions
                        .iter()
                        .map(|c| c.to_string())
                        .chain(codes)
                        .collect();
                    words.join(",")
                }
            )
        }
    };
    let text = format!(
        "# Istio counts retries: at most {calls} per request.\napiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: {SERVICE}\nspec:\n  hosts:\n  - {SERVICE}\n  http:\n  - route:\n    - destination:\n        host: {SERVICE}\n{timeout}{retry}{rule}",
        calls = crate::calls(policy.attempts),
    );
    (text, rows)
}

/// Whether a document is one of Istio's that a retry policy lives in.
pub(crate) fn is_istio(document: &Value) -> bool {
    let kind = document.get("kind").and_then(Value::as_str);
    let api = document.get("apiVersion").and_then(Value::as_str);
    matches!(kind, Some("VirtualService" | "DestinationRule"))
        && api.is_none_or(|api| api.starts_with("networking.istio.io/"))
}

/// Reads the first HTTP route of the first VirtualService, and the first
/// DestinationRule's retry budget, from `documents`.
pub(crate) fn import(documents: &[Value]) -> Imported {
    let mut out = Imported::new(Format::Istio);
    let of_kind = |kind: &str| {
        documents
            .iter()
            .find(|d| d.get("kind").and_then(Value::as_str) == Some(kind))
    };
    match of_kind("VirtualService") {
        Some(service) => route(service, &mut out),
        None => out.problems.push(
            retry_core::words::tr(
                "no VirtualService: its HTTP route holds the retries; the policy is left as it was",
            )
            .to_string(),
        ),
    }
    if let Some(rule) = of_kind("DestinationRule") {
        budget(rule, &mut out);
    }
    out
}

fn route(service: &Value, out: &mut Imported) {
    let http = service.pointer("/spec/http");
    let Some(route) = http.and_then(|h| h.get(0)).and_then(Value::as_object) else {
        out.problems
            .push(retry_core::words::tr("the VirtualService has no spec.http route").to_string());
        return;
    };
    if http.and_then(Value::as_array).is_some_and(|h| h.len() > 1) {
        out.unmapped
            .push(retry_core::words::tr("spec.http: only the first route is read").to_string());
    }
    if let Some(timeout) = route.get("timeout") {
        match go_duration(timeout, "timeout") {
            Ok(seconds) => out.set(P::Deadline, seconds, retry_core::words::tr("route timeout")),
            Err(why) => out.problems.push(why),
        }
    }
    let empty = Map::new();
    let retries = match route.get("retries") {
        Some(Value::Object(retries)) => retries,
        Some(_) => {
            out.problems
                .push(retry_core::words::tr("retries must be a mapping").to_string());
            return;
        }
        None => &empty,
    };
    match retries.get("attempts") {
        Some(value) => match number(value, "attempts") {
            Ok(n) if n >= 0.0 => out.set(P::Attempts, n.floor() + 1.0, "retries.attempts + 1"),
            Ok(_) => out
                .problems
                .push(retry_core::words::tr("attempts must not be negative").to_string()),
            Err(why) => out.problems.push(why),
        },
        None => out.set(
            P::Attempts,
            DEFAULT_RETRIES + 1.0,
            retry_core::words::tr("retries.attempts (Istio's default 2) + 1"),
        ),
    }
    if let Some(timeout) = retries.get("perTryTimeout") {
        match go_duration(timeout, "perTryTimeout") {
            Ok(seconds) => out.set(P::Timeout, seconds, "retries.perTryTimeout"),
            Err(why) => out.problems.push(why),
        }
    }
    let base = match retries.get("backoff").map(|b| go_duration(b, "backoff")) {
        Some(Ok(seconds)) if seconds > 0.0 => seconds,
        Some(Ok(_)) => {
            out.problems
                .push(retry_core::words::tr("backoff must be above 0").to_string());
            DEFAULT_BASE
        }
        Some(Err(why)) => {
            out.problems.push(why);
            DEFAULT_BASE
        }
        None => DEFAULT_BASE,
    };
    out.envoy_backoff(
        (base, "retries.backoff"),
        (
            CAP_OVER_BASE * base,
            retry_core::words::tr("10 x retries.backoff (Envoy's default)"),
        ),
        retry_core::words::tr("Istio's routes retry, they do not hedge"),
    );
    // Without retryOn, Istio's own since 1.24, with no code attached.
    let words = retries.get("retryOn").map_or_else(
        || {
            "connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes"
                .split(',')
                .map(str::to_string)
                .collect()
        },
        crate::classes::words,
    );
    let codes = crate::classes::numbers(&words);
    let mut conditions: Vec<&str> = words.iter().map(String::as_str).collect();
    if !codes.is_empty() {
        conditions.push("retriable-status-codes");
    }
    out.retry_on(
        "retryOn",
        crate::classes::Classes::envoy(conditions, &codes),
    );
    for key in ["retryRemoteLocalities", "retryIgnorePreviousHosts"] {
        if retries.contains_key(key) {
            out.host_choice(key);
        }
    }
    out.unread(
        retries,
        &[
            "attempts",
            "perTryTimeout",
            "backoff",
            "retryOn",
            "retryRemoteLocalities",
            "retryIgnorePreviousHosts",
        ],
        "retries.",
    );
}

/// A DestinationRule's traffic policy: its `retryBudget`, or without one
/// its `connectionPool.http.maxRetries` (Envoy's cap on a cluster's
/// retries in flight, which a retry budget replaces); its outlier
/// detection and the rest of its pool said, not read.
fn budget(rule: &Value, out: &mut Imported) {
    let policy = rule.pointer("/spec/trafficPolicy");
    if let Some(policy) = policy.and_then(Value::as_object) {
        out.unread(
            policy,
            &["retryBudget", "connectionPool", "outlierDetection"],
            "trafficPolicy.",
        );
        if policy.contains_key("outlierDetection") {
            out.unmapped.push(
                retry_core::words::tr(
                    "trafficPolicy.outlierDetection: ejecting a failing host is the balancer's choice; the page's servers are never ejected",
                )
                .to_string(),
            );
        }
    }
    let pool = policy.and_then(|p| p.get("connectionPool"));
    if let Some(pool) = pool.and_then(Value::as_object) {
        out.unread(pool, &["http"], "trafficPolicy.connectionPool.");
        if let Some(http) = pool.get("http").and_then(Value::as_object) {
            out.unread(http, &["maxRetries"], "trafficPolicy.connectionPool.http.");
        }
    }
    let max_retries = pool.and_then(|p| p.pointer("/http/maxRetries"));
    let Some(budget) = rule.pointer("/spec/trafficPolicy/retryBudget") else {
        if let Some(value) = max_retries {
            match number(value, "connectionPool.http.maxRetries") {
                Ok(most) if most >= 0.0 => {
                    let from = "trafficPolicy.connectionPool.http.maxRetries";
                    out.set(P::Budget, BUDGETS.position(BudgetKind::Envoy), from);
                    out.set(P::EnvoyPercent, 0.0, from);
                    out.set(P::EnvoyMin, most.floor(), from);
                }
                Ok(_) => out.problems.push(
                    retry_core::words::tr("connectionPool.http.maxRetries must not be negative")
                        .to_string(),
                ),
                Err(why) => out.problems.push(why),
            }
        }
        return;
    };
    if max_retries.is_some() {
        out.unmapped.push(
            retry_core::words::tr(
                "trafficPolicy.connectionPool.http.maxRetries: a retryBudget replaces it in Envoy's circuit breaker",
            )
            .to_string(),
        );
    }
    // Istio's defaults: 20 %, at least 3.
    let percent = budget
        .get("percent")
        .map_or(Ok(20.0), |v| number(v, "retryBudget.percent"));
    let least = budget
        .get("minRetryConcurrency")
        .map_or(Ok(3.0), |v| number(v, "retryBudget.minRetryConcurrency"));
    match (percent, least) {
        (Ok(percent), Ok(least)) if (0.0..=100.0).contains(&percent) && least >= 0.0 => {
            out.set(P::Budget, BUDGETS.position(BudgetKind::Envoy), "retryBudget");
            out.set(P::EnvoyPercent, percent / 100.0, "retryBudget.percent");
            out.set(P::EnvoyMin, least, "retryBudget.minRetryConcurrency");
        }
        (Ok(percent), Ok(least)) => out.problems.push(retry_core::tf!(
            "retryBudget percent {percent} must be within 0..100 and minRetryConcurrency {least} not negative",
            percent = percent,
            least = least
        )),
        (Err(why), _) | (_, Err(why)) => out.problems.push(why),
    }
    if budget.get("budgetInterval").is_some() {
        out.unmapped.push(
            retry_core::words::tr(
                "retryBudget.budgetInterval: the playground's budget counts requests in flight only",
            )
            .to_string(),
        );
    }
    if let Some(budget) = budget.as_object() {
        out.unread(
            budget,
            &["percent", "minRetryConcurrency", "budgetInterval"],
            "retryBudget.",
        );
    }
}

/// A duration as Istio and the Gateway API read one (Go's form: `25ms`,
/// `1.5s`, `1m30s`, `2h`), in seconds.
pub(crate) fn go_duration(value: &Value, name: &str) -> Result<f64, String> {
    let wrong = || {
        retry_core::tf!(
            "{name} must be a duration such as 25ms or 1.5s, read {text}",
            name = name,
            text = clip(&value.to_string())
        )
    };
    let text = value.as_str().ok_or_else(wrong)?.trim();
    let mut rest = text;
    let mut seconds = 0.0;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .ok_or_else(wrong)?;
        let amount: f64 = rest[..digits].parse().map_err(|_| wrong())?;
        rest = &rest[digits..];
        let (unit, scale) = [
            ("ms", 1e-3),
            ("us", 1e-6),
            ("\u{b5}s", 1e-6),
            ("ns", 1e-9),
            ("h", 3600.0),
            ("m", 60.0),
            ("s", 1.0),
        ]
        .into_iter()
        .find(|(unit, _)| rest.starts_with(unit))
        .ok_or_else(wrong)?;
        seconds += amount * scale;
        rest = &rest[unit.len()..];
    }
    if text.is_empty() || !seconds.is_finite() {
        return Err(wrong());
    }
    Ok(seconds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_go_durations() {
        for (text, seconds) in [
            ("25ms", 0.025),
            ("1.5s", 1.5),
            ("1m30s", 90.0),
            ("2h", 7200.0),
        ] {
            assert!((go_duration(&json!(text), "t").expect("a duration") - seconds).abs() < 1e-12);
        }
        for text in ["", "5", "s", "1.2.3s", "1d", "-1s"] {
            assert!(go_duration(&json!(text), "t").is_err(), "{text}");
        }
        assert!(go_duration(&json!(5), "t").is_err());
    }
}
