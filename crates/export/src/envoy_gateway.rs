//! Envoy Gateway: a BackendTrafficPolicy's `retry`, `timeout.http` and
//! `circuitBreaker.retryBudget` (envoyproxy/gateway, api/v1alpha1:
//! retry_types.go, timeout_types.go, circuitbreaker_types.go), as
//! Kubernetes YAML.
//!
//! Envoy Gateway writes them to Envoy's route and cluster: `numRetries`
//! counts **retries** (2 when unset); the backoff is Envoy's, doubling from
//! `baseInterval` (25 ms when unset) up to `maxInterval` (ten times the
//! base when unset), drawn under the ceiling; `requestTimeout` is the
//! route's timeout, Envoy's 15 s when unset (internal/xds/translator sets
//! none), `0s` for none; the retry budget's `percent` is a fraction,
//! numerator over denominator (100 when unset), of the requests in flight
//! (internal/xds/utils/fractionalpercent, `ToPercent`).

use serde_json::Value;

use crate::istio::go_duration;
use crate::read::{Imported, number};
use crate::{Fit, Format, Mapping, exact, full_jitter_only, missing, row};
use retry_core::budget::BudgetKind;
use retry_core::policy::Policy;
use retry_sim::config::{BUDGETS, Config, P};

const SERVICE: &str = "my-service";
/// Envoy's defaults where the policy sets nothing.
const DEFAULT_RETRIES: f64 = 2.0;
const DEFAULT_BASE: f64 = 0.025;
const CAP_OVER_BASE: f64 = 10.0;

/// A duration as Envoy Gateway writes one (the Gateway API's pattern),
/// and whether it is exact: whole milliseconds.
/// Envoy Gateway's conditions where a retry names none (internal/xds/
/// translator/route.go), with the status code 503.
const DEFAULT_TRIGGERS: [&str; 5] = [
    "connect-failure",
    "refused-stream",
    "unavailable",
    "cancelled",
    "retriable-status-codes",
];

fn duration(seconds: f64) -> (String, bool) {
    crate::gateway::duration(seconds)
}

/// The row of a duration written whole or rounded to the millisecond.
fn timed(knob: &'static str, name: &str, seconds: f64) -> Mapping {
    let (text, whole) = duration(seconds);
    if whole {
        exact(knob, format!("{name}: {text}"))
    } else {
        row(
            knob,
            format!("{name}: {text}"),
            Fit::Approximate,
            retry_core::words::tr("Envoy Gateway's durations hold whole milliseconds"),
        )
    }
}

pub(crate) fn export(config: &Config, policy: &Policy) -> (String, Vec<Mapping>) {
    let mut rows = Vec::new();
    let retries = policy.attempts - 1;
    rows.push(exact(
        "attempts",
        format!("retry.numRetries: {retries} (retries, not attempts)"),
    ));
    let base = policy.ceiling(0);
    rows.push(timed("first pause", "perRetry.backOff.baseInterval", base));
    rows.push(crate::doubling(
        policy,
        retry_core::words::tr(
            "Envoy Gateway's proxy (Envoy) doubles the ceiling from the base: 1, 2, 4, 8 x base, whatever the shape or multiplier",
        ),
    ));
    rows.push(timed("cap", "perRetry.backOff.maxInterval", policy.cap));
    rows.push(full_jitter_only(
        policy,
        retry_core::words::tr("Envoy Gateway's proxy (Envoy) always draws under the ceiling"),
    ));
    rows.push(match policy.attempt_timeout {
        None => exact("attempt timeout", "none"),
        Some(timeout) => timed("attempt timeout", "perRetry.timeout", timeout),
    });
    rows.push(match policy.deadline {
        None => exact("deadline", "timeout.http.requestTimeout: 0s (none)"),
        Some(deadline) => timed("deadline", "timeout.http.requestTimeout", deadline),
    });
    let mut budget = String::new();
    rows.push(match config.budget_kind() {
        BudgetKind::None => exact("budget", "none"),
        BudgetKind::Envoy => {
            let share = config.get(P::EnvoyPercent);
            let least = config.get(P::EnvoyMin);
            // The smallest denominator that makes the share whole.
            let exactly = [100.0, 1e3, 1e4, 1e6]
                .into_iter()
                .find(|d| ((share * d) - (share * d).round()).abs() <= 1e-9);
            let denominator = exactly.unwrap_or(1e6);
            let numerator = (share * denominator).round();
            budget = format!(
                "  circuitBreaker:\n    retryBudget:\n      percent:\n        numerator: {numerator}\n        denominator: {denominator}\n      minRetryConcurrency: {least}\n"
            );
            let setting = format!(
                "circuitBreaker.retryBudget {numerator}/{denominator}, minRetryConcurrency {least}"
            );
            match exactly {
                Some(_) => exact("budget", setting),
                None => row(
                    "budget",
                    setting,
                    Fit::Approximate,
                    retry_core::words::tr("the share is written in millionths"),
                ),
            }
        }
        BudgetKind::Ratio
        | BudgetKind::TokenBucket
        | BudgetKind::AwsQuota
        | BudgetKind::AwsAdaptive
        | BudgetKind::Bucket
        | BudgetKind::Sre => missing(
            "budget",
            retry_core::words::tr(
                "Envoy Gateway's only budget is circuitBreaker.retryBudget (retries in flight as a share of requests in flight); choose Envoy's retries in flight to export one",
            ),
        ),
    });
    let request = policy
        .deadline
        .map_or_else(|| "0s".to_string(), |d| duration(d).0);
    let per_try = policy
        .attempt_timeout
        .map(|t| format!("      timeout: {}\n", duration(t).0))
        .unwrap_or_default();
    let text = format!(
        "# Envoy Gateway counts retries: at most {calls} per request.\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: BackendTrafficPolicy\nmetadata:\n  name: {SERVICE}\nspec:\n  targetRefs:\n  - group: gateway.networking.k8s.io\n    kind: HTTPRoute\n    name: {SERVICE}\n  retry:\n    numRetries: {retries}\n    retryOn:\n{retry_on}    perRetry:\n{per_try}      backOff:\n        baseInterval: {}\n        maxInterval: {}\n  timeout:\n    http:\n      requestTimeout: {request}\n{budget}",
        duration(base).0,
        duration(policy.cap).0,
        calls = crate::calls(policy.attempts),
        retry_on = {
            let (conditions, codes) = crate::classes::written::envoy(policy.retry_on);
            let mut out = String::from("      triggers:\n");
            for condition in conditions {
                out += &format!("      - {condition}\n");
            }
            if !codes.is_empty() {
                out += "      httpStatusCodes:\n";
                for code in codes {
                    out += &format!("      - {code}\n");
                }
            }
            out
        },
    );
    (text, rows)
}

/// Whether a document is Envoy Gateway's BackendTrafficPolicy.
pub(crate) fn is_envoy_gateway(document: &Value) -> bool {
    let kind = document.get("kind").and_then(Value::as_str);
    let api = document.get("apiVersion").and_then(Value::as_str);
    kind == Some("BackendTrafficPolicy")
        && api.is_none_or(|api| api.starts_with("gateway.envoyproxy.io/"))
}

/// Reads the first BackendTrafficPolicy of `documents`.
pub(crate) fn import(documents: &[Value]) -> Imported {
    let mut out = Imported::new(Format::EnvoyGateway);
    let Some(spec) = documents
        .iter()
        .find(|d| is_envoy_gateway(d))
        .and_then(|d| d.get("spec"))
    else {
        out.problems
            .push(retry_core::words::tr("the BackendTrafficPolicy has no spec").to_string());
        return out;
    };
    let duration_at = |out: &mut Imported, pointer: &str, name: &str| {
        let value = spec.pointer(pointer)?;
        match go_duration(value, name) {
            Ok(seconds) => Some(seconds),
            Err(why) => {
                out.problems.push(why);
                None
            }
        }
    };
    if let Some(seconds) = duration_at(&mut out, "/timeout/http/requestTimeout", "requestTimeout") {
        out.set(P::Deadline, seconds, "timeout.http.requestTimeout");
    }
    if let Some(retry) = spec.get("retry") {
        match retry.get("numRetries").map(|v| number(v, "numRetries")) {
            Some(Ok(n)) if n >= 0.0 => {
                out.set(P::Attempts, n.floor() + 1.0, "retry.numRetries + 1")
            }
            Some(Ok(_)) => out
                .problems
                .push(retry_core::words::tr("numRetries must not be negative").to_string()),
            Some(Err(why)) => out.problems.push(why),
            None => out.set(
                P::Attempts,
                DEFAULT_RETRIES + 1.0,
                retry_core::words::tr("retry.numRetries (Envoy Gateway's default 2) + 1"),
            ),
        }
        if let Some(seconds) = duration_at(&mut out, "/retry/perRetry/timeout", "perRetry.timeout")
        {
            out.set(P::Timeout, seconds, "retry.perRetry.timeout");
        }
        let base = duration_at(
            &mut out,
            "/retry/perRetry/backOff/baseInterval",
            "baseInterval",
        )
        .filter(|b| *b > 0.0)
        .unwrap_or(DEFAULT_BASE);
        let cap = duration_at(
            &mut out,
            "/retry/perRetry/backOff/maxInterval",
            "maxInterval",
        )
        .filter(|c| *c > 0.0)
        .unwrap_or(CAP_OVER_BASE * base);
        out.envoy_backoff(
            (base, "retry.perRetry.backOff.baseInterval"),
            (cap, "retry.perRetry.backOff.maxInterval"),
            retry_core::words::tr("Envoy Gateway's routes retry, they do not hedge"),
        );
        // Without retryOn, Envoy Gateway's own (route.go): Istio's
        // conditions and a 503.
        let triggers = retry
            .pointer("/retryOn/triggers")
            .map(crate::classes::words)
            .unwrap_or_else(|| DEFAULT_TRIGGERS.iter().map(|w| w.to_string()).collect());
        let codes = retry
            .pointer("/retryOn/httpStatusCodes")
            .map(|v| crate::classes::numbers(&crate::classes::words(v)))
            .unwrap_or_else(|| vec![503]);
        out.retry_on(
            "retry.retryOn",
            crate::classes::Classes::envoy(triggers.iter().map(String::as_str), &codes),
        );
    } else {
        out.unmapped.push(
            retry_core::words::tr("no retry: the policy's retries are left as they were")
                .to_string(),
        );
    }
    if let Some(budget) = spec.pointer("/circuitBreaker/retryBudget") {
        let numerator = budget.pointer("/percent/numerator").map_or(
            Err(retry_core::words::tr("retryBudget.percent.numerator is required").to_string()),
            |v| number(v, "percent.numerator"),
        );
        let denominator = budget
            .pointer("/percent/denominator")
            .map_or(Ok(100.0), |v| number(v, "percent.denominator"));
        let least = budget
            .get("minRetryConcurrency")
            .map_or(Ok(3.0), |v| number(v, "minRetryConcurrency"));
        match (numerator, denominator, least) {
            (Ok(n), Ok(d), Ok(least)) if d >= 1.0 && (0.0..=d).contains(&n) && least >= 0.0 => {
                out.set(P::Budget, BUDGETS.position(BudgetKind::Envoy), "circuitBreaker.retryBudget");
                out.set(P::EnvoyPercent, n / d, "retryBudget.percent");
                out.set(P::EnvoyMin, least, "retryBudget.minRetryConcurrency");
            }
            (Err(why), ..) | (_, Err(why), _) | (.., Err(why)) => out.problems.push(why),
            _ => out.problems.push(
                retry_core::words::tr(
                    "retryBudget: the numerator must be within 0 and the denominator (at least 1), minRetryConcurrency not negative",
                )
                .to_string(),
            ),
        }
    }
    for (pointer, read, path) in [
        (
            "/retry",
            &["numRetries", "perRetry", "retryOn"][..],
            "retry.",
        ),
        (
            "/retry/perRetry",
            &["timeout", "backOff"],
            "retry.perRetry.",
        ),
        (
            "/retry/perRetry/backOff",
            &["baseInterval", "maxInterval"],
            "retry.perRetry.backOff.",
        ),
        (
            "/circuitBreaker/retryBudget",
            &["percent", "minRetryConcurrency"],
            "retryBudget.",
        ),
    ] {
        if let Some(object) = spec.pointer(pointer).and_then(Value::as_object) {
            out.unread(object, read, path);
        }
    }
    out
}
