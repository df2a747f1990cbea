//! Spring Boot's resilience4j properties (YAML): the same `RetryConfig`
//! as the Java snippet, written as properties that resilience4j's own
//! configuration reads (resilience4j-framework-common,
//! `CommonRetryConfigurationProperties`): `maxAttempts` counts **attempts**,
//! the first call included, where Polly's and Envoy's counts are retries;
//! with `enableExponentialBackoff` and `enableRandomizedWait` both on and
//! the multiplier, the factor and the maximum set, it builds exactly
//! `IntervalFunction.ofExponentialRandomBackoff(waitDuration, multiplier,
//! factor, max)`, the Java snippet's call; without the randomised wait,
//! `ofExponentialBackoff(waitDuration, multiplier, max)`. Durations are
//! whole milliseconds, Spring's simple form. A try's timeout is a
//! TimeLimiter instance of the same name.

use serde_json::Value;

use crate::read::{Imported, number};
use crate::{Format, Mapping, exact, geometric_factor};
use retry_core::policy::{Jitter, Policy, Shape};
use retry_sim::config::{Config, JITTERS, P, SHAPES, SWITCH};

const INSTANCE: &str = "my-service";
/// resilience4j's defaults: the multiplier and the factor of an unset
/// property (IntervalFunction.DEFAULT_MULTIPLIER and
/// DEFAULT_RANDOMIZATION_FACTOR), the wait of an unset waitDuration
/// (RetryConfig's 500 ms) and its attempts (3).
const DEFAULT_MULTIPLIER: f64 = 1.5;
const DEFAULT_FACTOR: f64 = 0.5;
const DEFAULT_WAIT: f64 = 0.5;
const DEFAULT_ATTEMPTS: f64 = 3.0;

fn ms(seconds: f64) -> String {
    format!("{}ms", (seconds * 1000.0).round())
}

pub(crate) fn export(config: &Config, policy: &Policy) -> (String, Vec<Mapping>) {
    let (_, mut rows) = crate::resilience4j(config, policy);
    // The same knobs, named as the properties name them.
    rows[0] = exact(
        "attempts",
        format!(
            "maxAttempts: {} (attempts, the first call included)",
            policy.attempts
        ),
    );
    let factor = geometric_factor(policy).unwrap_or(policy.multiplier);
    let randomized = match policy.jitter {
        Jitter::None => String::new(),
        Jitter::Proportional => format!(
            "        enableRandomizedWait: true\n        randomizedWaitFactor: {}\n",
            policy.jitter_fraction
        ),
        _ => format!(
            "        enableRandomizedWait: true\n        randomizedWaitFactor: {DEFAULT_FACTOR}\n"
        ),
    };
    let mut text = format!(
        "# resilience4j counts attempts, the first call included: at most {calls} calls.\nresilience4j:\n  retry:\n    instances:\n      {INSTANCE}:\n        maxAttempts: {calls}\n        waitDuration: {}\n        enableExponentialBackoff: true\n        exponentialBackoffMultiplier: {factor}\n        exponentialMaxWaitDuration: {}\n{randomized}",
        ms(policy.base),
        ms(policy.cap),
        calls = policy.attempts,
    );
    text += "        retryExceptions:\n";
    for name in crate::classes::written::exceptions(policy.retry_on) {
        text += &format!("        - {name}\n");
    }
    if let Some(timeout) = policy.attempt_timeout {
        text += &format!(
            "  timelimiter:\n    instances:\n      {INSTANCE}:\n        timeoutDuration: {}\n",
            ms(timeout)
        );
    }
    (text, rows)
}

/// Whether a document holds resilience4j's retry properties.
pub(crate) fn is_spring(document: &Value) -> bool {
    document.pointer("/resilience4j/retry").is_some()
}

/// A duration as Spring reads one: `100ms`, `2s`, `1m`, an ISO-8601
/// `PT0.5S`, or a bare number of milliseconds.
fn duration(value: &Value, name: &str) -> Result<f64, String> {
    if let Some(n) = value.as_f64() {
        return Ok(n / 1000.0);
    }
    let wrong = || {
        retry_core::tf!(
            "{name} must be a duration such as 100ms or PT0.5S, read {text}",
            name = name,
            text = retry_sim::link::clip(&value.to_string())
        )
    };
    let text = value.as_str().ok_or_else(wrong)?.trim();
    if let Some(iso) = text.strip_prefix("PT").or_else(|| text.strip_prefix("pt")) {
        let seconds = iso
            .strip_suffix(['S', 's'])
            .and_then(|n| n.parse::<f64>().ok())
            .filter(|s| s.is_finite())
            .ok_or_else(wrong)?;
        return Ok(seconds);
    }
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let amount: f64 = text[..digits].parse().map_err(|_| wrong())?;
    let scale = match &text[digits..] {
        "" | "ms" => 1e-3,
        "ns" => 1e-9,
        "us" => 1e-6,
        "s" => 1.0,
        "m" => 60.0,
        "h" => 3600.0,
        "d" => 86_400.0,
        _ => return Err(wrong()),
    };
    Ok(amount * scale)
}

/// Reads the first retry instance (or the default config) and the time
/// limiter of the same name.
pub(crate) fn import(documents: &[Value]) -> Imported {
    let mut out = Imported::new(Format::SpringResilience4j);
    let Some(root) = documents.iter().find(|d| is_spring(d)) else {
        return out;
    };
    let retry = &root["resilience4j"]["retry"];
    let instance = ["instances", "configs"]
        .iter()
        .filter_map(|key| retry.get(*key).and_then(Value::as_object))
        .find_map(|all| all.iter().next());
    let Some((name, props)) = instance else {
        out.problems.push(
            retry_core::words::tr("resilience4j.retry has no instances or configs to read")
                .to_string(),
        );
        return out;
    };
    let props = &relaxed(props);
    if retry
        .get("instances")
        .and_then(Value::as_object)
        .is_some_and(|all| all.len() > 1)
    {
        out.unmapped
            .push(retry_core::words::tr("only the first retry instance is read").to_string());
    }
    let read_number = |out: &mut Imported, key: &str| {
        props.get(key).and_then(|v| match number(v, key) {
            Ok(n) => Some(n),
            Err(why) => {
                out.problems.push(why);
                None
            }
        })
    };
    let read_duration = |out: &mut Imported, key: &str| {
        props.get(key).and_then(|v| match duration(v, key) {
            Ok(s) => Some(s),
            Err(why) => {
                out.problems.push(why);
                None
            }
        })
    };
    let on = |key: &str| props.get(key).and_then(Value::as_bool) == Some(true);
    match read_number(&mut out, "maxAttempts") {
        Some(n) if n >= 1.0 => out.set(P::Attempts, n.floor(), "maxAttempts"),
        Some(_) => out
            .problems
            .push(retry_core::words::tr("maxAttempts must be at least 1").to_string()),
        None => out.set(
            P::Attempts,
            DEFAULT_ATTEMPTS,
            retry_core::words::tr("maxAttempts (resilience4j's default 3)"),
        ),
    }
    let wait = read_duration(&mut out, "waitDuration")
        .filter(|w| *w > 0.0)
        .unwrap_or(DEFAULT_WAIT);
    out.set(P::Base, wait, "waitDuration");
    if on("enableExponentialBackoff") {
        let multiplier = read_number(&mut out, "exponentialBackoffMultiplier")
            .filter(|m| *m >= 1.0)
            .unwrap_or(DEFAULT_MULTIPLIER);
        if multiplier == 1.0 {
            out.set(
                P::Shape,
                SHAPES.position(Shape::Constant),
                "exponentialBackoffMultiplier 1",
            );
        } else {
            out.set(
                P::Shape,
                SHAPES.position(Shape::Exponential),
                "enableExponentialBackoff",
            );
            out.set(P::Multiplier, multiplier, "exponentialBackoffMultiplier");
        }
        match read_duration(&mut out, "exponentialMaxWaitDuration") {
            Some(cap) if cap > 0.0 => out.set(P::Cap, cap, "exponentialMaxWaitDuration"),
            _ => out.unmapped.push(
                retry_core::words::tr(
                    "no exponentialMaxWaitDuration: resilience4j's pauses grow without a cap; the cap is left as it was",
                )
                .to_string(),
            ),
        }
    } else {
        out.set(
            P::Shape,
            SHAPES.position(Shape::Constant),
            "waitDuration alone",
        );
    }
    if on("enableRandomizedWait") {
        let factor = read_number(&mut out, "randomizedWaitFactor")
            .filter(|f| (0.0..1.0).contains(f))
            .unwrap_or(DEFAULT_FACTOR);
        out.set(
            P::Jitter,
            JITTERS.position(Jitter::Proportional),
            "enableRandomizedWait",
        );
        out.set(P::JitterFraction, factor, "randomizedWaitFactor");
    } else {
        out.set(
            P::Jitter,
            JITTERS.position(Jitter::None),
            retry_core::words::tr("no randomised wait"),
        );
    }
    out.set(
        P::Hedge,
        SWITCH.position(false),
        retry_core::words::tr("resilience4j's Retry does not hedge"),
    );
    let limiter = root
        .pointer("/resilience4j/timelimiter/instances")
        .and_then(|all| all.get(name.as_str()))
        .map(relaxed);
    if let Some(timeout) = limiter.as_ref().and_then(|l| l.get("timeoutDuration")) {
        match duration(timeout, "timeoutDuration") {
            Ok(seconds) => out.set(P::Timeout, seconds, "timelimiter timeoutDuration"),
            Err(why) => out.problems.push(why),
        }
    }
    breaker(root, name, &mut out);
    // What else the file holds (spring.*, server.*, other modules): said.
    if let Some(root) = root.as_object() {
        out.unread(root, &["resilience4j"], "");
    }
    if let Some(modules) = root["resilience4j"].as_object() {
        out.unread(
            modules,
            &["retry", "timelimiter", "circuitbreaker"],
            "resilience4j.",
        );
    }
    if let Some(props) = props.as_object() {
        let classes = [
            "retryExceptions",
            "ignoreExceptions",
            "retryExceptionPredicate",
            "retryOnResultPredicate",
        ];
        // resilience4j retries every exception unless retryExceptions
        // lists some; an HTTP client throws on a 4xx as on a 5xx.
        let listed = props.get("retryExceptions").map(crate::classes::words);
        let retried = match &listed {
            Some(names) => crate::classes::Classes::exceptions(names.iter().map(String::as_str)),
            None => crate::classes::Classes::exceptions(["Exception"]),
        };
        out.retry_on("retryExceptions", retried);
        for key in classes[1..].iter().filter(|key| props.contains_key(**key)) {
            out.retryable_classes(key);
        }
        let mut read = vec![
            "maxAttempts",
            "waitDuration",
            "enableExponentialBackoff",
            "exponentialBackoffMultiplier",
            "exponentialMaxWaitDuration",
            "enableRandomizedWait",
            "randomizedWaitFactor",
        ];
        read.extend(classes);
        out.unread(props, &read, &format!("{name}."));
    }
    out
}

/// An instance's properties under the names resilience4j's classes read,
/// as Spring Boot's relaxed binding reads them: `max-attempts` and
/// `max_attempts` are `maxAttempts`.
fn relaxed(props: &Value) -> Value {
    let Some(props) = props.as_object() else {
        return props.clone();
    };
    let camel = |key: &str| {
        let mut out = String::with_capacity(key.len());
        let mut upper = false;
        for c in key.chars() {
            match c {
                '-' | '_' => upper = true,
                c if upper => {
                    out.push(c.to_ascii_uppercase());
                    upper = false;
                }
                c => out.push(c),
            }
        }
        out
    };
    Value::Object(
        props
            .iter()
            .map(|(key, value)| (camel(key), value.clone()))
            .collect(),
    )
}

/// The circuit breaker of the retry instance's name (or the first, or the
/// default config), as resilience4j's CircuitBreakerConfig reads it: a
/// share of failed calls (`failureRateThreshold`, 50 %) over a window of
/// seconds (`slidingWindowType: TIME_BASED`; a window of calls, the
/// default, has no length in time and is said), at least
/// `minimumNumberOfCalls` (100) before it may open, `waitDurationInOpenState`
/// (60 s) open, `permittedNumberOfCallsInHalfOpenState` (10) probes. Spring's
/// aspects put the Retry outside the CircuitBreaker, so every attempt
/// counts and every attempt is broken.
fn breaker(root: &Value, name: &str, out: &mut Imported) {
    let breakers = &root["resilience4j"]["circuitbreaker"];
    let instance = breakers
        .pointer("/instances")
        .and_then(Value::as_object)
        .and_then(|all| all.get(name).or_else(|| all.values().next()))
        .or_else(|| {
            breakers
                .pointer("/configs")
                .and_then(Value::as_object)
                .and_then(|all| all.get("default").or_else(|| all.values().next()))
        });
    let Some(props) = instance.map(relaxed) else {
        return;
    };
    let Some(props) = props.as_object() else {
        return;
    };
    let from = |key: &str| format!("circuitbreaker {key}");
    out.set(
        P::Breaker,
        retry_sim::config::BREAKERS.position(retry_core::breaker::BreakerMode::All),
        retry_core::words::tr(
            "resilience4j's CircuitBreaker, inside the Retry: every attempt counts",
        ),
    );
    let read = |out: &mut Imported, key: &str, default: f64| match props.get(key) {
        Some(value) => match number(value, key) {
            Ok(n) => Some(n),
            Err(why) => {
                out.problems.push(why);
                None
            }
        },
        None => Some(default),
    };
    if let Some(ratio) = read(out, "failureRateThreshold", 50.0) {
        out.set(P::BreakerRatio, ratio / 100.0, from("failureRateThreshold"));
    }
    if let Some(least) = read(out, "minimumNumberOfCalls", 100.0) {
        out.set(P::BreakerMin, least.floor(), from("minimumNumberOfCalls"));
    }
    if let Some(probes) = read(out, "permittedNumberOfCallsInHalfOpenState", 10.0) {
        out.set(
            P::BreakerProbes,
            probes.floor(),
            from("permittedNumberOfCallsInHalfOpenState"),
        );
    }
    match props
        .get("waitDurationInOpenState")
        .map(|v| duration(v, "waitDurationInOpenState"))
    {
        Some(Ok(seconds)) => out.set(P::BreakerCool, seconds, from("waitDurationInOpenState")),
        Some(Err(why)) => out.problems.push(why),
        None => out.set(
            P::BreakerCool,
            60.0,
            from("waitDurationInOpenState (default 60 s)"),
        ),
    }
    let time_based = props.get("slidingWindowType").and_then(Value::as_str) == Some("TIME_BASED");
    match (time_based, props.get("slidingWindowSize")) {
        (true, Some(size)) => match number(size, "slidingWindowSize") {
            Ok(seconds) => out.set(P::BreakerWindow, seconds, from("slidingWindowSize")),
            Err(why) => out.problems.push(why),
        },
        _ => out.unmapped.push(
            retry_core::words::tr(
                "circuitbreaker slidingWindowSize: a window of the last calls (COUNT_BASED, resilience4j's default) has no length in time; the page's breaker window is left as it was",
            )
            .to_string(),
        ),
    }
    out.unread(
        props,
        &[
            "failureRateThreshold",
            "minimumNumberOfCalls",
            "permittedNumberOfCallsInHalfOpenState",
            "waitDurationInOpenState",
            "slidingWindowType",
            "slidingWindowSize",
        ],
        &format!("circuitbreaker.{name}."),
    );
}

/// Spring Boot's `application.properties`: `key=value` (or `key: value`)
/// lines, `#` and `!` comments, nested by the dots of their keys, an index
/// `[0]` read as a list's item; the text's own strings, numbers and
/// booleans as YAML's plain scalars would be. `None` unless a key starts
/// with `resilience4j.`.
pub(crate) fn properties(text: &str) -> Option<Result<Value, String>> {
    let is_properties = text.lines().any(|line| {
        let line = line.trim_start();
        line.starts_with("resilience4j.") && line.contains(['=', ':'])
    });
    if !is_properties {
        return None;
    }
    let mut root = Value::Object(serde_json::Map::new());
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with('!') {
            continue;
        }
        let Some(at) = line.find(['=', ':']) else {
            return Some(Err(retry_core::tf!(
                "line {line}: '{text}' is not key=value",
                line = number + 1,
                text = retry_sim::link::clip(line)
            )));
        };
        let (key, value) = (line[..at].trim(), line[at + 1..].trim());
        let mut node = &mut root;
        for part in key.split('.').filter(|part| !part.is_empty()).take(32) {
            let (name, index) = match part.split_once('[') {
                Some((name, rest)) => (name, rest.trim_end_matches(']').parse::<usize>().ok()),
                None => (part, None),
            };
            let Value::Object(map) = node else {
                return Some(Err(retry_core::tf!(
                    "line {line}: '{key}' sets a value and keys under it",
                    line = number + 1,
                    key = retry_sim::link::clip(key)
                )));
            };
            node = map.entry(name.to_string()).or_insert(Value::Null);
            if let Some(index) = index.filter(|&i| i < 1000) {
                if !node.is_array() {
                    *node = Value::Array(Vec::new());
                }
                if let Value::Array(items) = node {
                    if items.len() <= index {
                        items.resize(index + 1, Value::Null);
                    }
                    node = &mut items[index];
                }
            }
            if node.is_null() {
                *node = Value::Object(serde_json::Map::new());
            }
        }
        *node = crate::yaml::plain(value);
    }
    Some(Ok(root))
}
