//! Linkerd: the retry and timeout annotations of a Service (or of an
//! HTTPRoute whose parent it is), as Linkerd 2.16 and later read them
//! (linkerd2, policy-controller, `parse_http_retry`).
//!
//! `retry.linkerd.io/limit` is the most **retries** of a request (1 when
//! unset; 0 is read as unset, so `limit: "0"` beside a status to retry
//! still retries once); `retry.linkerd.io/timeout` bounds each try;
//! `timeout.linkerd.io/request` the whole request. Only a status to retry
//! (`retry.linkerd.io/http`) retries anything: a limit or a per-try
//! timeout without one makes a retry policy with no condition, which
//! retries nothing (linkerd2 at b24cd405, policy-controller
//! k8s/index/src/outbound/index/http.rs `parse_http_retry`; the proxy's
//! `StatusRanges::contains` of no range is false). So no retry is written
//! as `limit: "0"` alone, which Linkerd reads as no retry policy at all,
//! and the one attempt's timeout as the request's (a request timeout of
//! 0s would end every request at once: the proxy has no zero check). A route's retry holds a limit, a timeout and the
//! statuses to retry, and nothing else: no backoff and no budget to set.
//! Linkerd ignores these annotations for a Service that has a
//! ServiceProfile (whose legacy retry budget this does not write).

use serde_json::Value;

use crate::read::Imported;
use crate::{Fit, Format, Mapping, exact, missing, row};
use retry_core::budget::BudgetKind;
use retry_core::policy::Policy;
use retry_sim::config::{Config, P, SWITCH};

const LIMIT: &str = "retry.linkerd.io/limit";
const HTTP: &str = "retry.linkerd.io/http";
const TRY: &str = "retry.linkerd.io/timeout";
const REQUEST: &str = "timeout.linkerd.io/request";

/// A duration as whole milliseconds, `250ms`, or whole seconds, `2s`, and
/// whether that is exact.
fn duration(seconds: f64) -> (String, bool) {
    let ms = (seconds * 1e3).round().max(0.0);
    let whole = (seconds * 1e3 - ms).abs() <= 1e-6;
    let ms = ms as u64;
    let text = if ms % 1000 == 0 {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    };
    (text, whole)
}

fn timed(knob: &'static str, key: &str, seconds: f64) -> Mapping {
    let (text, whole) = duration(seconds);
    if whole {
        exact(knob, format!("{key}: {text}"))
    } else {
        row(
            knob,
            format!("{key}: {text}"),
            Fit::Approximate,
            retry_core::words::tr("written in whole milliseconds"),
        )
    }
}

pub(crate) fn export(config: &Config, policy: &Policy) -> (String, Vec<Mapping>) {
    let mut rows = Vec::new();
    let retries = policy.attempts - 1;
    rows.push(if retries == 0 {
        exact(
            "attempts",
            format!("{LIMIT}: \"0\" alone (no retry; beside a status it would retry once)"),
        )
    } else {
        exact(
            "attempts",
            format!("{LIMIT}: \"{retries}\" (retries, not attempts)"),
        )
    });
    let no_backoff = retry_core::words::tr(
        "a Linkerd route's retry holds a limit, a timeout and the statuses to retry: there is no backoff to set",
    );
    if retries == 0 {
        rows.push(exact("first pause", "unused"));
        rows.push(exact("multiplier", "unused"));
        rows.push(exact("cap", "unused"));
        rows.push(exact("jitter", "unused"));
    } else {
        for knob in ["first pause", "multiplier", "cap", "jitter"] {
            rows.push(missing(knob, no_backoff));
        }
    }
    // With no retry the request's timeout ends the one attempt, at the
    // earlier of the two.
    let request = match (retries, policy.attempt_timeout, policy.deadline) {
        (0, Some(attempt), Some(deadline)) => Some(attempt.min(deadline)),
        (0, Some(attempt), None) => Some(attempt),
        (_, _, deadline) => deadline,
    };
    rows.push(match policy.attempt_timeout {
        Some(t) if retries > 0 => timed("attempt timeout", TRY, t),
        Some(_) => row(
            "attempt timeout",
            REQUEST,
            Fit::Approximate,
            retry_core::words::tr(
                "with no retry the request's timeout ends the one attempt: Linkerd's per-try timeout is a retry setting",
            ),
        ),
        None => exact("attempt timeout", "none"),
    });
    rows.push(match request {
        Some(d) => timed("deadline", REQUEST, d),
        None => exact("deadline", "none"),
    });
    rows.push(match config.budget_kind() {
        BudgetKind::None => exact("budget", "none"),
        _ => missing(
            "budget",
            retry_core::words::tr(
                "a Linkerd route's retries have no budget (a ServiceProfile's retryBudget is the legacy one, and Linkerd ignores these annotations where a ServiceProfile exists)",
            ),
        ),
    });
    let mut annotations = String::new();
    if retries > 0 {
        annotations += &format!(
            "    {HTTP}: \"{}\"\n    {LIMIT}: \"{retries}\"\n",
            crate::classes::written::linkerd(policy.retry_on)
        );
        if let Some(t) = policy.attempt_timeout {
            annotations += &format!("    {TRY}: \"{}\"\n", duration(t).0);
        }
    } else {
        annotations += &format!("    {LIMIT}: \"0\"\n");
    }
    if let Some(d) = request {
        annotations += &format!("    {REQUEST}: \"{}\"\n", duration(d).0);
    }
    let annotations = format!("  annotations:\n{annotations}");
    let text = format!(
        "# Linkerd counts retries: at most {calls} per request.\napiVersion: v1\nkind: Service\nmetadata:\n  name: my-service\n{annotations}",
        calls = crate::calls(policy.attempts),
    );
    (text, rows)
}

/// Whether a document carries Linkerd's retry or timeout annotations.
pub(crate) fn is_linkerd(document: &Value) -> bool {
    document
        .pointer("/metadata/annotations")
        .and_then(Value::as_object)
        .is_some_and(|a| {
            a.keys()
                .any(|k| k.starts_with("retry.linkerd.io/") || k.starts_with("timeout.linkerd.io/"))
        })
}

/// Reads the annotations of the first document that has Linkerd's.
pub(crate) fn import(documents: &[Value]) -> Imported {
    let mut out = Imported::new(Format::Linkerd);
    let Some(annotations) = documents
        .iter()
        .find(|d| is_linkerd(d))
        .and_then(|d| d.pointer("/metadata/annotations"))
    else {
        return out;
    };
    // Annotations are text; a YAML number is read as its text too.
    let text = |key: &str| {
        annotations.get(key).map(|v| match v {
            Value::String(s) => s.trim().to_string(),
            other => other.to_string(),
        })
    };
    let limit = text(LIMIT);
    // Only a status to retry retries anything (see the module's docs).
    let retrying = annotations.get(HTTP).is_some();
    let retries = match limit.as_deref().map(str::parse::<u16>) {
        Some(Ok(0)) | None => 1,
        Some(Ok(n)) => n,
        Some(Err(_)) => {
            out.problems.push(retry_core::tf!(
                "{key} must be a whole number of retries from 0 to 65535, read {text}",
                key = LIMIT,
                text = retry_sim::link::clip(limit.as_deref().unwrap_or_default())
            ));
            return out;
        }
    };
    if retrying {
        out.set(
            P::Attempts,
            f64::from(retries) + 1.0,
            format!("{LIMIT} + 1"),
        );
    } else {
        out.set(
            P::Attempts,
            1.0,
            retry_core::words::tr("no status to retry (retry.linkerd.io/http): no retry"),
        );
    }
    for (key, param) in [(TRY, P::Timeout), (REQUEST, P::Deadline)] {
        if let Some(value) = annotations.get(key) {
            match crate::istio::go_duration(value, key) {
                Ok(seconds) => out.set(param, seconds, key),
                Err(why) => out.problems.push(why),
            }
        }
    }
    out.set(
        P::Hedge,
        SWITCH.position(false),
        retry_core::words::tr("Linkerd's routes retry, they do not hedge"),
    );
    // Linkerd retries the statuses listed and a per-try timeout, not a
    // refused connection (its balancer moves on).
    if let Some(statuses) = annotations.get(HTTP).and_then(Value::as_str) {
        let classes = crate::classes::Classes {
            timeout: true,
            ..crate::classes::Classes::statuses(statuses)
        };
        out.retry_on(HTTP, classes);
    }
    // Linkerd's other retry and timeout annotations are said; annotations
    // of anything else are not the policy's.
    if let Some(annotations) = annotations.as_object() {
        let linkerd: serde_json::Map<String, Value> = annotations
            .iter()
            .filter(|(key, _)| {
                key.starts_with("retry.linkerd.io/") || key.starts_with("timeout.linkerd.io/")
            })
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
        out.unread(&linkerd, &[LIMIT, HTTP, TRY, REQUEST], "");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A limit of 0 beside a status is read as Linkerd reads it: unset, so
    /// one retry; a limit without a status to retry retries nothing, and
    /// no annotation of retry at all is none.
    #[test]
    fn a_limit_of_zero_beside_a_status_retries_once() {
        let read = |yaml: &str| {
            let docs = crate::yaml::documents(yaml).expect("it reads");
            let out = import(&docs);
            out.settings
                .iter()
                .find(|s| s.param == P::Attempts)
                .map(|s| s.value)
        };
        let service = |annotations: &str| {
            format!(
                "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  annotations:\n{annotations}"
            )
        };
        assert_eq!(
            read(&service(
                "    retry.linkerd.io/http: 5xx\n    retry.linkerd.io/limit: \"0\"\n"
            )),
            Some(2.0)
        );
        assert_eq!(
            read(&service("    retry.linkerd.io/limit: \"3\"\n")),
            Some(1.0)
        );
        assert_eq!(
            read(&service("    retry.linkerd.io/limit: \"0\"\n")),
            Some(1.0)
        );
        assert_eq!(
            read(&service("    timeout.linkerd.io/request: 2s\n")),
            Some(1.0)
        );
    }

    /// One attempt is exported as Linkerd admits it and our own import
    /// reads it back (it once wrote `annotations: {}`, which no reader
    /// takes for Linkerd's): `limit: "0"` alone, and the attempt's timeout
    /// as the request's.
    #[test]
    fn one_attempt_is_a_limit_of_zero_alone_and_reads_back() {
        for (link, request) in [
            ("v=1&attempts=1&timeout=0", None),
            ("v=1&attempts=1&timeout=0.5", Some(0.5)),
            ("v=1&attempts=1&timeout=0.5&deadline=0.2", Some(0.2)),
        ] {
            let config = Config::from_link(link).0;
            let (text, _) = export(&config, &config.policy());
            assert!(text.contains("retry.linkerd.io/limit: \"0\""), "{text}");
            assert!(!text.contains(HTTP) && !text.contains(TRY), "{text}");
            let docs = crate::yaml::documents(&text).expect("it reads");
            assert!(docs.iter().any(is_linkerd), "{text}");
            let out = import(&docs);
            let got = |p: P| out.settings.iter().find(|s| s.param == p).map(|s| s.value);
            assert_eq!(got(P::Attempts), Some(1.0), "{text}");
            assert_eq!(got(P::Deadline), request, "{text}");
        }
    }
}
