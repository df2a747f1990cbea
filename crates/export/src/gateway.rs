//! The Gateway API: an HTTPRoute rule's `retry` and `timeouts`
//! (kubernetes-sigs/gateway-api, apis/v1/httproute_types.go,
//! `HTTPRouteRetry`, experimental channel) and an XBackendTrafficPolicy's
//! `retryConstraint` (apisx/v1alpha1/xbackendtrafficpolicy_types.go), as
//! Kubernetes YAML.
//!
//! What the API says, and so what the snippet can promise: `attempts` is
//! the most times a request is **retried** (at least 1; a rule without
//! `retry` retries as its implementation decides); `backoff` is the least
//! wait before a retry, and an implementation may grow it, cap it and add
//! jitter as it likes, so the policy's shape, cap and jitter are not the
//! route's to say. `timeouts.request` bounds the whole request and
//! `timeouts.backendRequest` each try, never longer than the request. The
//! retry budget counts retries against a share of the requests of an
//! interval, with a least rate of retries: the playground's ratio budget
//! counted on requests. Durations are whole numbers of `h`, `m`, `s` and
//! `ms`, five digits each.

use serde_json::Value;

use crate::istio::go_duration;
use crate::read::{Imported, number};
use crate::{Fit, Format, Mapping, exact, missing, row};
use retry_core::budget::{BudgetKind, RatioBasis};
use retry_core::policy::{Jitter, Policy};
use retry_sim::config::{BASES, BUDGETS, Config, P};

/// The names the manifests use: the reader's own go in their place.
const SERVICE: &str = "my-service";
const GATEWAY: &str = "my-gateway";

/// A duration as the Gateway API writes one (`^([0-9]{1,5}(h|m|s|ms)){1,4}$`),
/// and whether it is exactly `seconds` (it holds whole milliseconds).
pub(crate) fn duration(seconds: f64) -> (String, bool) {
    let ms = (seconds * 1e3).round().max(0.0);
    let whole = ((seconds * 1e3) - ms).abs() <= 1e-6;
    let ms = ms as u64;
    let text = match (ms / 1000, ms % 1000) {
        (s, 0) if s <= 99_999 => format!("{s}s"),
        (0, m) => format!("{m}ms"),
        (s, m) if s <= 99_999 => format!("{s}s{m}ms"),
        (s, m) => format!("{}h{}s{m}ms", s / 3600, s % 3600),
    };
    (text, whole)
}

pub(crate) fn export(config: &Config, policy: &Policy) -> (String, Vec<Mapping>) {
    let mut rows = Vec::new();
    let retries = policy.attempts - 1;
    rows.push(if retries == 0 {
        row(
            "attempts",
            "no retry block",
            Fit::Approximate,
            retry_core::words::tr(
                "the Gateway API's attempts is at least 1: a rule without retry retries as its implementation decides",
            ),
        )
    } else {
        exact(
            "attempts",
            format!("retry.attempts: {retries} (retries, not attempts)"),
        )
    });
    let base = policy.ceiling(0);
    let (backoff, whole) = duration(base);
    rows.push(if retries == 0 {
        exact("first pause", "unused")
    } else if policy.jitter == Jitter::None && whole {
        exact("first pause", format!("retry.backoff: {backoff}"))
    } else {
        row(
            "first pause",
            format!("retry.backoff: {backoff}"),
            Fit::Approximate,
            retry_core::words::tr(
                "the Gateway API's backoff is the least wait before a retry, in whole milliseconds, where the policy's jitter draws pauses under its ceiling",
            ),
        )
    });
    let implementation = retry_core::words::tr(
        "the Gateway API leaves how the backoff grows, its cap and its jitter to the implementation",
    );
    if retries <= 1 {
        rows.push(exact("multiplier", "unused"));
    } else {
        rows.push(missing("multiplier", implementation));
    }
    rows.push(missing("cap", implementation));
    rows.push(if retries == 0 {
        exact("jitter", "unused")
    } else {
        missing("jitter", implementation)
    });
    // A try may not outlast the request.
    let per_try = policy
        .attempt_timeout
        .map(|t| policy.deadline.map_or(t, |d| t.min(d)));
    rows.push(match (policy.attempt_timeout, per_try) {
        (Some(timeout), Some(written)) => {
            let (text, whole) = duration(written);
            if whole && written == timeout {
                exact("attempt timeout", format!("timeouts.backendRequest: {text}"))
            } else {
                row(
                    "attempt timeout",
                    format!("timeouts.backendRequest: {text}"),
                    Fit::Approximate,
                    retry_core::words::tr(
                        "timeouts.backendRequest holds whole milliseconds and may not be longer than timeouts.request",
                    ),
                )
            }
        }
        _ => exact("attempt timeout", "none"),
    });
    // Left out, the request's timeout is the implementation's (Envoy
    // Gateway's is Envoy's 15 s): none is written as 0s, which the API
    // reads as no timeout.
    rows.push(match policy.deadline {
        None => exact("deadline", "timeouts.request: 0s (none)"),
        Some(deadline) => {
            let (text, whole) = duration(deadline);
            if whole {
                exact("deadline", format!("timeouts.request: {text}"))
            } else {
                row(
                    "deadline",
                    format!("timeouts.request: {text}"),
                    Fit::Approximate,
                    retry_core::words::tr("timeouts.request holds whole milliseconds"),
                )
            }
        }
    });
    let mut policy_doc = String::new();
    rows.push(match config.budget_kind() {
        BudgetKind::None => exact("budget", "none"),
        BudgetKind::Ratio => {
            let (text, fit) = retry_constraint(config);
            policy_doc = text;
            let setting = retry_core::tf!(
                "XBackendTrafficPolicy retryConstraint: {percent} % of an interval's requests",
                percent = (config.get(P::BudgetPercent) * 100.0).round()
            );
            match fit {
                None => row(
                    "budget",
                    setting,
                    Fit::Approximate,
                    retry_core::words::tr(
                        "the Gateway API counts retries against a share of an interval's requests and leaves the rest of the count to its implementation; the playground counts first tries in a sliding window",
                    ),
                ),
                Some(why) => row("budget", setting, Fit::Approximate, why),
            }
        }
        BudgetKind::TokenBucket
        | BudgetKind::AwsQuota
        | BudgetKind::AwsAdaptive
        | BudgetKind::Bucket
        | BudgetKind::Envoy
        | BudgetKind::Sre => missing(
            "budget",
            retry_core::words::tr(
                "the Gateway API's only budget is an XBackendTrafficPolicy's retryConstraint (a share of recent requests, with a least rate); choose a ratio of recent traffic to export one",
            ),
        ),
    });
    let request = policy
        .deadline
        .map_or_else(|| "0s".to_string(), |deadline| duration(deadline).0);
    let mut timeouts = format!("    timeouts:\n      request: {request}\n");
    if let Some(t) = per_try {
        timeouts += &format!("      backendRequest: {}\n", duration(t).0);
    }
    let retry = if retries == 0 {
        String::new()
    } else {
        format!(
            "    retry:\n      codes:\n{codes}      attempts: {retries}\n      backoff: {backoff}\n",
            codes = crate::classes::written::codes(policy.retry_on)
                .iter()
                .map(|code| format!("      - {code}\n"))
                .collect::<String>()
        )
    };
    let text = format!(
        "# The Gateway API counts retries: at most {calls} per request.\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: {SERVICE}\nspec:\n  parentRefs:\n  - name: {GATEWAY}\n  rules:\n  - backendRefs:\n    - name: {SERVICE}\n      port: 80\n{timeouts}{retry}{policy_doc}",
        calls = crate::calls(policy.attempts),
    );
    (text, rows)
}

/// The XBackendTrafficPolicy of a ratio budget, and why it is not exact
/// beyond the count itself, if it is not.
fn retry_constraint(config: &Config) -> (String, Option<String>) {
    let mut why = Vec::new();
    let share = config.get(P::BudgetPercent) * 100.0;
    let percent = share.round();
    if (percent - share).abs() > 1e-9 {
        why.push(retry_core::words::tr("its percent is a whole number"));
    }
    if config.get(P::BudgetBasis) != BASES.position(RatioBasis::Requests) {
        why.push(retry_core::words::tr(
            "it counts requests, where this budget counts successes",
        ));
    }
    let window = config.get(P::BudgetWindow);
    let (interval, whole) = duration(window.clamp(1.0, 3600.0));
    if !whole || !(1.0..=3600.0).contains(&window) {
        why.push(retry_core::words::tr(
            "its interval is whole milliseconds from 1 s to 1 h",
        ));
    }
    // The least rate as a whole count over the shortest interval that
    // makes it whole.
    let floor = config.get(P::BudgetFloor);
    let (count, seconds) = (1..=60)
        .map(|k| (floor * f64::from(k), k))
        .find(|(count, _)| *count >= 1.0 && (count - count.round()).abs() <= 1e-9)
        .unwrap_or_else(|| ((floor.round()).max(1.0), 1));
    if (count / f64::from(seconds) - floor).abs() > 1e-9 {
        why.push(retry_core::words::tr(
            "its least rate is at least one retry in a whole interval",
        ));
    }
    let text = format!(
        "---\napiVersion: gateway.networking.x-k8s.io/v1alpha1\nkind: XBackendTrafficPolicy\nmetadata:\n  name: {SERVICE}\nspec:\n  targetRefs:\n  - group: \"\"\n    kind: Service\n    name: {SERVICE}\n  retryConstraint:\n    budget:\n      percent: {percent}\n      interval: {interval}\n    minRetryRate:\n      count: {count}\n      interval: {seconds}s\n"
    );
    let why = (!why.is_empty()).then(|| {
        retry_core::tf!(
            "the Gateway API's retry budget: {why}",
            why = why.join("; ")
        )
    });
    (text, why)
}

/// Whether a document is one of the Gateway API's that a retry policy
/// lives in.
pub(crate) fn is_gateway(document: &Value) -> bool {
    let kind = document.get("kind").and_then(Value::as_str);
    let api = document.get("apiVersion").and_then(Value::as_str);
    matches!(kind, Some("HTTPRoute" | "XBackendTrafficPolicy"))
        && api.is_none_or(|api| api.starts_with("gateway.networking."))
}

/// Reads the first rule of the first HTTPRoute, and the first
/// XBackendTrafficPolicy's retry constraint, from `documents`.
pub(crate) fn import(documents: &[Value]) -> Imported {
    let mut out = Imported::new(Format::GatewayApi);
    let of_kind = |kind: &str| {
        documents
            .iter()
            .find(|d| d.get("kind").and_then(Value::as_str) == Some(kind))
    };
    match of_kind("HTTPRoute") {
        Some(route) => rule(route, &mut out),
        None => out.problems.push(
            retry_core::words::tr(
                "no HTTPRoute: its rules hold the retries; the policy is left as it was",
            )
            .to_string(),
        ),
    }
    if let Some(policy) = of_kind("XBackendTrafficPolicy") {
        budget(policy, &mut out);
    }
    out
}

fn read_duration(value: &Value, name: &str, out: &mut Imported) -> Option<f64> {
    match go_duration(value, name) {
        Ok(seconds) => Some(seconds),
        Err(why) => {
            out.problems.push(why);
            None
        }
    }
}

fn rule(route: &Value, out: &mut Imported) {
    let rules = route.pointer("/spec/rules");
    let Some(rule) = rules.and_then(|r| r.get(0)).filter(|r| r.is_object()) else {
        out.problems
            .push(retry_core::words::tr("the HTTPRoute has no spec.rules").to_string());
        return;
    };
    if rules.and_then(Value::as_array).is_some_and(|r| r.len() > 1) {
        out.unmapped
            .push(retry_core::words::tr("spec.rules: only the first rule is read").to_string());
    }
    if let Some(request) = rule.pointer("/timeouts/request") {
        if let Some(seconds) = read_duration(request, "timeouts.request", out) {
            out.set(P::Deadline, seconds, "timeouts.request");
        }
    }
    if let Some(per_try) = rule.pointer("/timeouts/backendRequest") {
        if let Some(seconds) = read_duration(per_try, "timeouts.backendRequest", out) {
            out.set(P::Timeout, seconds, "timeouts.backendRequest");
        }
    }
    let Some(retry) = rule.get("retry") else {
        out.unmapped.push(
            retry_core::words::tr(
                "no retry: the route retries as its implementation decides; the attempts are left as they were",
            )
            .to_string(),
        );
        return;
    };
    match retry.get("attempts").map(|v| number(v, "retry.attempts")) {
        Some(Ok(n)) if n >= 1.0 => out.set(P::Attempts, n.floor() + 1.0, "retry.attempts + 1"),
        Some(Ok(_)) => out
            .problems
            .push(retry_core::words::tr("retry.attempts must be at least 1").to_string()),
        Some(Err(why)) => out.problems.push(why),
        // The implementation's own count: a default, said as one.
        None => {}
    }
    if let Some(backoff) = retry.get("backoff") {
        if let Some(seconds) = read_duration(backoff, "retry.backoff", out) {
            out.set(P::Base, seconds, "retry.backoff");
        }
    }
    // Envoy Gateway, whose defaults a paste takes, keeps its conditions
    // and retries the codes listed (internal/gatewayapi/route.go).
    let codes = retry
        .get("codes")
        .map(|v| crate::classes::numbers(&crate::classes::words(v)))
        .unwrap_or_else(|| vec![503]);
    out.retry_on(
        "retry.codes",
        crate::classes::Classes::envoy(
            [
                "connect-failure",
                "refused-stream",
                "retriable-status-codes",
            ],
            &codes,
        ),
    );
    if let Some(retry) = retry.as_object() {
        out.unread(retry, &["attempts", "backoff", "codes"], "retry.");
    }
}

fn budget(policy: &Value, out: &mut Imported) {
    let Some(constraint) = policy.pointer("/spec/retryConstraint") else {
        return;
    };
    // The API's defaults: 20 % of 10 s, at least 10 retries a second.
    let percent = constraint
        .pointer("/budget/percent")
        .map_or(Ok(20.0), |v| number(v, "budget.ratio.percent"));
    let interval = constraint
        .pointer("/budget/interval")
        .map_or(Ok(10.0), |v| go_duration(v, "budget.interval"));
    let count = constraint
        .pointer("/minRetryRate/count")
        .map_or(Ok(10.0), |v| number(v, "minRetryRate.count"));
    let per = constraint
        .pointer("/minRetryRate/interval")
        .map_or(Ok(1.0), |v| go_duration(v, "minRetryRate.interval"));
    if let Some(constraint) = constraint.as_object() {
        out.unread(constraint, &["budget", "minRetryRate"], "retryConstraint.");
    }
    for (part, keys) in [
        ("budget", ["percent", "interval"]),
        ("minRetryRate", ["count", "interval"]),
    ] {
        if let Some(object) = constraint.get(part).and_then(Value::as_object) {
            out.unread(object, &keys, &format!("retryConstraint.{part}."));
        }
    }
    match (percent, interval, count, per) {
        (Ok(percent), Ok(interval), Ok(count), Ok(per))
            if (0.0..=100.0).contains(&percent) && interval > 0.0 && count >= 0.0 && per > 0.0 =>
        {
            out.set(P::Budget, BUDGETS.position(BudgetKind::Ratio), "retryConstraint");
            out.set(P::BudgetPercent, percent / 100.0, "budget.ratio.percent");
            out.set(P::BudgetWindow, interval, "budget.interval");
            out.set(P::BudgetFloor, count / per, "minRetryRate.count / interval");
            out.set(
                P::BudgetBasis,
                BASES.position(RatioBasis::Requests),
                retry_core::words::tr("the Gateway API counts requests"),
            );
        }
        (Err(why), ..) | (_, Err(why), ..) | (_, _, Err(why), _) | (.., Err(why)) => {
            out.problems.push(why)
        }
        _ => out.problems.push(
            retry_core::words::tr(
                "retryConstraint: percent must be within 0..100, the intervals above 0, the count not negative",
            )
            .to_string(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_whole_milliseconds_in_the_apis_pattern() {
        for (seconds, text, whole) in [
            (0.25, "250ms", true),
            (2.0, "2s", true),
            (7.5, "7s500ms", true),
            (0.0004, "0s", false),
            (0.1234, "123ms", false),
        ] {
            assert_eq!(duration(seconds), (text.to_string(), whole), "{seconds}");
        }
    }
}
