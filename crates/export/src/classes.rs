//! Which failures of the page's world a configuration's retry conditions
//! retry, and the page's choice of [`RetryOn`] nearest to them.
//!
//! The world fails with a 503, a 429, a 500, a permanent 4xx, an attempt
//! that timed out, or a connection refused (an outage that fails fast).
//! What each vocabulary retries of these, from its own source:
//! - Envoy's `retry_on` (router_filter.rst; router.cc and
//!   retry_state_impl.cc: a per-try timeout is retried under `5xx`,
//!   `gateway-error` and `reset` only): `5xx` every 5xx, a timeout and a
//!   refused connection; `gateway-error` 502-504, a timeout and a refused
//!   connection; `reset` a timeout and a refused connection;
//!   `connect-failure`, `refused-stream` and `reset-before-request` a
//!   refused connection; `retriable-status-codes` the codes listed; the
//!   gRPC conditions act on a `grpc-status` header a plain HTTP answer
//!   does not carry, so nothing here.
//! - Istio passes its `retryOn` to Envoy, a number as a retriable status
//!   code; Kuma's names are Envoy's (`GatewayError` is `gateway-error`),
//!   and without a condition it keeps `gateway-error,connect-failure,
//!   refused-stream`; Envoy Gateway's `triggers` are Envoy's.
//! - Linkerd's `retry.linkerd.io/http` lists statuses (`5xx` 500-599,
//!   `gateway-error` 502-504, codes, ranges); its per-try timeout is always
//!   retried, a refused connection not (the balancer moves on).
//! - gRPC's `retryableStatusCodes` (the HTTP-to-gRPC mapping:
//!   `UNAVAILABLE` for a 503, `RESOURCE_EXHAUSTED` for a rate limit,
//!   `INTERNAL` and `UNKNOWN` for a 500, `INVALID_ARGUMENT` and its kin
//!   for a 4xx); gRFC A6 has no per-attempt timeout to retry.
//! - resilience4j retries every exception unless `retryExceptions` says
//!   which; an HTTP client that throws on a 4xx makes that every error.

use retry_core::classify::RetryOn;

/// The failures of the page's world a configuration retries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Classes {
    pub unavailable: bool,
    pub throttled: bool,
    pub server_error: bool,
    pub client_error: bool,
    pub timeout: bool,
    pub connection: bool,
}

impl Classes {
    fn of(on: RetryOn) -> Classes {
        let all = Classes {
            unavailable: true,
            throttled: true,
            server_error: true,
            client_error: true,
            timeout: true,
            connection: true,
        };
        match on {
            RetryOn::Transient => Classes {
                client_error: false,
                ..all
            },
            RetryOn::ServerErrors => Classes {
                throttled: false,
                client_error: false,
                ..all
            },
            RetryOn::GatewayErrors => Classes {
                throttled: false,
                server_error: false,
                client_error: false,
                ..all
            },
            RetryOn::Connection => Classes {
                connection: true,
                ..Classes::default()
            },
            RetryOn::Everything => all,
        }
    }

    fn or(self, other: Classes) -> Classes {
        Classes {
            unavailable: self.unavailable || other.unavailable,
            throttled: self.throttled || other.throttled,
            server_error: self.server_error || other.server_error,
            client_error: self.client_error || other.client_error,
            timeout: self.timeout || other.timeout,
            connection: self.connection || other.connection,
        }
    }

    /// Each class with whether it is retried, in the reader's words.
    fn named(self) -> [(bool, &'static str); 6] {
        let tr = retry_core::words::tr;
        [
            (self.unavailable, tr("a 503")),
            (self.throttled, tr("a 429")),
            (self.server_error, tr("a 500")),
            (self.client_error, tr("a 4xx")),
            (self.timeout, tr("a timed-out attempt")),
            (self.connection, tr("a refused connection")),
        ]
    }

    /// The statuses `codes` name among the world's.
    pub(crate) fn codes(codes: impl IntoIterator<Item = u16>) -> Classes {
        let mut out = Classes::default();
        for code in codes {
            match code {
                503 => out.unavailable = true,
                429 => out.throttled = true,
                500 => out.server_error = true,
                400..=499 => out.client_error = true,
                _ => {}
            }
        }
        out
    }

    /// Envoy's `retry_on` conditions, with its retriable status codes.
    pub(crate) fn envoy<'a>(
        conditions: impl IntoIterator<Item = &'a str>,
        codes: &[u16],
    ) -> Classes {
        let mut out = Classes::default();
        let refused = Classes {
            connection: true,
            ..Classes::default()
        };
        for condition in conditions {
            out = out.or(match condition.trim() {
                "5xx" => Classes {
                    unavailable: true,
                    server_error: true,
                    timeout: true,
                    connection: true,
                    ..Classes::default()
                },
                "gateway-error" => Classes {
                    unavailable: true,
                    timeout: true,
                    connection: true,
                    ..Classes::default()
                },
                "reset" => Classes {
                    timeout: true,
                    connection: true,
                    ..Classes::default()
                },
                "connect-failure" | "refused-stream" | "reset-before-request" => refused,
                "retriable-status-codes" => Classes::codes(codes.iter().copied()),
                _ => Classes::default(),
            });
        }
        out
    }

    /// Statuses as Linkerd's annotation writes them: `5xx`,
    /// `gateway-error`, codes and ranges, separated by commas.
    pub(crate) fn statuses(text: &str) -> Classes {
        let mut out = Classes::default();
        for part in text.split(',').map(str::trim) {
            let range = match part {
                "5xx" => Some((500, 599)),
                "gateway-error" => Some((502, 504)),
                _ => match part.split_once('-') {
                    Some((from, to)) => from.trim().parse().ok().zip(to.trim().parse().ok()),
                    None => part.parse().ok().map(|code| (code, code)),
                },
            };
            if let Some((from, to)) = range {
                out = out.or(Classes::codes(
                    [503, 429, 500, 400]
                        .into_iter()
                        .filter(|c| (from..=to).contains(c)),
                ));
            }
        }
        out
    }

    /// gRPC status codes, by the HTTP-to-gRPC mapping; a call that never
    /// reached the server is retried transparently whatever they say.
    pub(crate) fn grpc<'a>(codes: impl IntoIterator<Item = &'a str>) -> Classes {
        let mut out = Classes {
            connection: true,
            ..Classes::default()
        };
        for code in codes {
            match code.trim().to_ascii_uppercase().as_str() {
                "UNAVAILABLE" | "14" => out.unavailable = true,
                "RESOURCE_EXHAUSTED" | "8" => out.throttled = true,
                "INTERNAL" | "UNKNOWN" | "13" | "2" => out.server_error = true,
                "INVALID_ARGUMENT"
                | "FAILED_PRECONDITION"
                | "NOT_FOUND"
                | "PERMISSION_DENIED"
                | "UNAUTHENTICATED"
                | "3"
                | "9"
                | "5"
                | "7"
                | "16" => out.client_error = true,
                _ => {}
            }
        }
        out
    }
}

/// The words of a condition list, as a comma-separated string or a list
/// of strings and numbers.
pub(crate) fn words(value: &serde_json::Value) -> Vec<String> {
    match value {
        serde_json::Value::String(text) => text.split(',').map(|w| w.trim().to_string()).collect(),
        serde_json::Value::Array(items) => items
            .iter()
            .filter_map(|item| match item {
                serde_json::Value::String(text) => Some(text.trim().to_string()),
                serde_json::Value::Number(n) => Some(n.to_string()),
                _ => None,
            })
            .collect(),
        serde_json::Value::Number(n) => vec![n.to_string()],
        _ => Vec::new(),
    }
}

/// The status codes among `words`.
pub(crate) fn numbers(words: &[String]) -> Vec<u16> {
    words.iter().filter_map(|w| w.parse().ok()).collect()
}

impl Classes {
    /// Java exception names as resilience4j's `retryExceptions` lists
    /// them, read by what they are commonly thrown for.
    pub(crate) fn exceptions<'a>(names: impl IntoIterator<Item = &'a str>) -> Classes {
        let mut out = Classes::default();
        for name in names {
            // A nested class is written after a `$`.
            let name = name.rsplit(['.', '$']).next().unwrap_or(name);
            if name.contains("Timeout") {
                out.timeout = true;
            }
            if name.contains("Connect") || name == "IOException" || name.contains("ResourceAccess")
            {
                out.connection = true;
            }
            if name.contains("ServerError") {
                out.unavailable = true;
                out.server_error = true;
            }
            if name.contains("ServiceUnavailable") {
                out.unavailable = true;
            }
            if name.contains("TooManyRequests") {
                out.throttled = true;
            }
            if name.contains("ClientError") {
                out.client_error = true;
                out.throttled = true;
            }
            if name == "Exception" || name == "Throwable" || name == "RuntimeException" {
                out = Classes::of(RetryOn::Everything);
            }
        }
        out
    }
}

impl Classes {
    /// What Kuma's `http.retryOn` retries: its names are Envoy's conditions,
    /// numbers are status codes, and without a condition it keeps
    /// `gateway-error`, `connect-failure` and `refused-stream` (meshretry's
    /// configurer.go).
    pub(crate) fn kuma(words: &[String]) -> Classes {
        let codes = numbers(words);
        let mut conditions: Vec<&str> = words
            .iter()
            .filter(|w| w.parse::<u16>().is_err() && !w.starts_with("HttpMethod"))
            .map(|w| kuma_condition(w))
            .collect();
        if conditions.is_empty() {
            conditions = vec!["gateway-error", "connect-failure", "refused-stream"];
        }
        if !codes.is_empty() {
            conditions.push("retriable-status-codes");
        }
        Classes::envoy(conditions, &codes)
    }
}

/// A Kuma retry condition as Envoy names it.
fn kuma_condition(word: &str) -> &str {
    match word {
        "5XX" | "5xx" | "All5xx" => "5xx",
        "GatewayError" => "gateway-error",
        "Reset" => "reset",
        "ConnectFailure" => "connect-failure",
        "RefusedStream" => "refused-stream",
        "Retriable4xx" => "retriable-4xx",
        "EnvoyRatelimited" => "envoy-ratelimited",
        "Http3PostConnectFailure" => "http3-post-connect-failure",
        other => other,
    }
}

/// The page's choice of what to retry nearest to `classes`: the fewest
/// classes apart, a tie going to the one that retries a 503 as `classes`
/// does; whether it is exact (the page's own rule, which retries a 500
/// once, never is for a 500). `timeouts` false leaves timeouts out of the
/// count: a configuration with no per-try timeout meets none.
pub(crate) fn nearest(classes: Classes, timeouts: bool) -> (RetryOn, Classes) {
    let choices = [
        RetryOn::Transient,
        RetryOn::ServerErrors,
        RetryOn::GatewayErrors,
        RetryOn::Connection,
        RetryOn::Everything,
    ];
    let apart = |on: RetryOn| {
        let of = Classes::of(on);
        let differ = of.beyond(classes, timeouts).len() + classes.beyond(of, timeouts).len();
        (differ, of.unavailable != classes.unavailable)
    };
    let on = choices
        .into_iter()
        .min_by_key(|&on| apart(on))
        .unwrap_or(RetryOn::Transient);
    (on, Classes::of(on))
}

impl Classes {
    /// The classes `self` retries and `other` does not, in the reader's
    /// words; a timeout counted only where `timeouts`.
    fn beyond(self, other: Classes, timeouts: bool) -> Vec<&'static str> {
        let (mine, theirs) = match timeouts {
            true => (self, other),
            false => (
                Classes {
                    timeout: false,
                    ..self
                },
                Classes {
                    timeout: false,
                    ..other
                },
            ),
        };
        mine.named()
            .into_iter()
            .zip(theirs.named())
            .filter(|((retried, _), (also, _))| *retried && !*also)
            .map(|((_, name), _)| name)
            .collect()
    }
}

impl crate::read::Imported {
    /// Sets what the policy retries from what `key` lists, and says where
    /// the page's nearest choice differs (in a timeout only where the
    /// configuration read so far has a per-try timeout).
    pub(crate) fn retry_on(&mut self, key: &str, classes: Classes) {
        let timeouts = self
            .settings
            .iter()
            .any(|s| s.param == retry_sim::config::P::Timeout && s.value > 0.0);
        let (on, chosen) = nearest(classes, timeouts);
        self.set(
            retry_sim::config::P::RetryOn,
            retry_sim::config::RETRY_ONS.position(on),
            key.to_string(),
        );
        let (extra, missing) = (
            chosen.beyond(classes, timeouts),
            classes.beyond(chosen, timeouts),
        );
        let choice = retry_sim::config::RETRY_ONS.labels
            [retry_sim::config::RETRY_ONS.position(on) as usize]
            .get();
        let once = if on == RetryOn::Transient && classes.server_error {
            retry_core::words::tr("; a 500 it retries once")
        } else {
            ""
        };
        let said = match (extra.is_empty(), missing.is_empty()) {
            (true, true) if once.is_empty() => return,
            (true, true) => retry_core::tf!(
                "{key}: read as “{choice}”{once}",
                key = key,
                choice = choice,
                once = once
            ),
            (false, true) => retry_core::tf!(
                "{key}: the nearest of the page's choices, “{choice}”, also retries {extra}{once}",
                key = key,
                choice = choice,
                extra = extra.join(", "),
                once = once
            ),
            (true, false) => retry_core::tf!(
                "{key}: the nearest of the page's choices, “{choice}”, does not retry {missing}{once}",
                key = key,
                choice = choice,
                missing = missing.join(", "),
                once = once
            ),
            (false, false) => retry_core::tf!(
                "{key}: the nearest of the page's choices, “{choice}”, also retries {extra} and does not retry {missing}{once}",
                key = key,
                choice = choice,
                extra = extra.join(", "),
                missing = missing.join(", "),
                once = once
            ),
        };
        self.unmapped.push(said);
    }
}

/// What each format writes for what a policy retries: the conditions (or
/// codes, or names) whose reading, above, is nearest to `on`. Where the
/// format cannot say `on` exactly, [`row`] says how near it is.
pub(crate) mod written {
    use retry_core::classify::RetryOn;

    /// Envoy's `retry_on` conditions and `retriable_status_codes`; Istio's
    /// `retryOn` is the same, codes written as numbers.
    pub(crate) fn envoy(on: RetryOn) -> (&'static [&'static str], &'static [u16]) {
        match on {
            RetryOn::Transient => (
                &[
                    "connect-failure",
                    "refused-stream",
                    "reset",
                    "retriable-status-codes",
                ],
                &[429, 502, 503, 504],
            ),
            RetryOn::ServerErrors => (&["5xx"], &[]),
            RetryOn::GatewayErrors => (&["gateway-error"], &[]),
            RetryOn::Connection => (&["connect-failure", "refused-stream"], &[]),
            RetryOn::Everything => (
                &["5xx", "retriable-status-codes"],
                &[400, 401, 403, 404, 409, 422, 429],
            ),
        }
    }

    /// Kuma's `http.retryOn` names and codes.
    pub(crate) fn kuma(on: RetryOn) -> &'static [&'static str] {
        match on {
            RetryOn::Transient => &[
                "ConnectFailure",
                "RefusedStream",
                "Reset",
                "429",
                "502",
                "503",
                "504",
            ],
            RetryOn::ServerErrors => &["5XX"],
            RetryOn::GatewayErrors => &["GatewayError"],
            RetryOn::Connection => &["ConnectFailure", "RefusedStream"],
            RetryOn::Everything => &["5XX", "400", "401", "403", "404", "409", "422", "429"],
        }
    }

    /// The Gateway API's `retry.codes` (Envoy Gateway keeps its own
    /// conditions beside them: a refused connection, never a timeout).
    pub(crate) fn codes(on: RetryOn) -> &'static [u16] {
        match on {
            RetryOn::Transient => &[429, 502, 503, 504],
            RetryOn::ServerErrors => &[500, 502, 503, 504],
            RetryOn::GatewayErrors | RetryOn::Connection => &[502, 503, 504],
            RetryOn::Everything => &[400, 401, 403, 404, 409, 422, 429, 500, 502, 503, 504],
        }
    }

    /// Linkerd's `retry.linkerd.io/http`.
    pub(crate) fn linkerd(on: RetryOn) -> &'static str {
        match on {
            RetryOn::Transient => "429,502-504",
            RetryOn::ServerErrors => "5xx",
            RetryOn::GatewayErrors | RetryOn::Connection => "gateway-error",
            RetryOn::Everything => "400-599",
        }
    }

    /// gRPC's `retryableStatusCodes`.
    pub(crate) fn grpc(on: RetryOn) -> &'static [&'static str] {
        match on {
            RetryOn::Transient => &["UNAVAILABLE", "RESOURCE_EXHAUSTED"],
            RetryOn::ServerErrors => &["UNAVAILABLE", "INTERNAL", "UNKNOWN"],
            RetryOn::GatewayErrors | RetryOn::Connection => &["UNAVAILABLE"],
            RetryOn::Everything => &[
                "UNAVAILABLE",
                "RESOURCE_EXHAUSTED",
                "INTERNAL",
                "UNKNOWN",
                "INVALID_ARGUMENT",
                "FAILED_PRECONDITION",
            ],
        }
    }

    /// resilience4j's `retryExceptions`, as Spring's RestClient throws.
    pub(crate) fn exceptions(on: RetryOn) -> &'static [&'static str] {
        match on {
            RetryOn::Transient => &[
                "java.io.IOException",
                "java.util.concurrent.TimeoutException",
                "org.springframework.web.client.HttpServerErrorException",
                "org.springframework.web.client.HttpClientErrorException$TooManyRequests",
            ],
            RetryOn::ServerErrors => &[
                "java.io.IOException",
                "java.util.concurrent.TimeoutException",
                "org.springframework.web.client.HttpServerErrorException",
            ],
            RetryOn::GatewayErrors => &[
                "java.io.IOException",
                "java.util.concurrent.TimeoutException",
                "org.springframework.web.client.HttpServerErrorException$ServiceUnavailable",
            ],
            RetryOn::Connection => &["java.net.ConnectException"],
            RetryOn::Everything => &["java.lang.Exception"],
        }
    }
}

/// The mapping row of what a policy retries, for `format`: what its
/// snippet writes, read back as the page reads it, against `on`.
pub(crate) fn row(format: crate::Format, on: RetryOn) -> crate::Mapping {
    use crate::Format;
    let join = |words: &[&str]| words.join(",");
    let (setting, classes) = match format {
        Format::Envoy => {
            let (conditions, codes) = written::envoy(on);
            (
                format!("retry_on: {} {codes:?}", join(conditions)),
                Classes::envoy(conditions.iter().copied(), codes),
            )
        }
        Format::Istio => {
            let (conditions, codes) = written::envoy(on);
            (
                format!("retryOn: {}", join(conditions)),
                Classes::envoy(conditions.iter().copied(), codes),
            )
        }
        Format::EnvoyGateway => {
            let (conditions, codes) = written::envoy(on);
            (
                format!("retryOn: {} {codes:?}", join(conditions)),
                Classes::envoy(conditions.iter().copied(), codes),
            )
        }
        Format::Kuma => {
            let words: Vec<String> = written::kuma(on).iter().map(|w| w.to_string()).collect();
            (
                format!("retryOn: {}", words.join(", ")),
                Classes::kuma(&words),
            )
        }
        Format::GatewayApi => (
            format!("retry.codes: {:?}", written::codes(on)),
            Classes::envoy(
                [
                    "connect-failure",
                    "refused-stream",
                    "retriable-status-codes",
                ],
                written::codes(on),
            ),
        ),
        Format::Linkerd => (
            format!("retry.linkerd.io/http: {}", written::linkerd(on)),
            Classes {
                timeout: true,
                ..Classes::statuses(written::linkerd(on))
            },
        ),
        Format::Grpc => (
            format!("retryableStatusCodes: {}", join(written::grpc(on))),
            Classes {
                timeout: Classes::of(on).timeout,
                ..Classes::grpc(written::grpc(on).iter().copied())
            },
        ),
        Format::SpringResilience4j => (
            format!("retryExceptions: {}", written::exceptions(on).len()),
            Classes::exceptions(written::exceptions(on).iter().copied()),
        ),
        Format::Aws if on == RetryOn::Transient => {
            return crate::exact(
                "retry on",
                retry_core::words::tr("the SDK's own: transient errors, throttling, 5xx"),
            );
        }
        _ => {
            return crate::missing(
                "retry on",
                retry_core::tf!(
                    "{library} retries what its own classifier or the snippet's predicate says: make it retry what “{choice}” does",
                    library = format.title(),
                    choice = label(on)
                ),
            );
        }
    };
    let (read, _) = nearest(classes, true);
    let wanted = Classes::of(on);
    if read == on && classes == wanted {
        crate::exact("retry on", setting)
    } else {
        crate::row(
            "retry on",
            setting,
            crate::Fit::Approximate,
            retry_core::tf!(
                "{format} cannot say “{choice}” exactly: what it writes retries {retried} and not {not}",
                format = format.title(),
                choice = label(on),
                retried = listed(classes, true),
                not = listed(classes, false)
            ),
        )
    }
}

/// The choice's label, in the reader's words.
fn label(on: RetryOn) -> &'static str {
    retry_sim::config::RETRY_ONS.labels[retry_sim::config::RETRY_ONS.position(on) as usize].get()
}

/// The classes retried (or not), in the reader's words.
fn listed(classes: Classes, retried: bool) -> String {
    let names: Vec<&str> = classes
        .named()
        .iter()
        .filter(|(on, _)| *on == retried)
        .map(|(_, n)| *n)
        .collect();
    match names.is_empty() {
        true => retry_core::words::tr("nothing").to_string(),
        false => names.join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What common configurations retry, and the page's choice for each.
    #[test]
    fn common_conditions_find_their_choice() {
        let on = |c: Classes| nearest(c, true).0;
        assert_eq!(on(Classes::envoy(["5xx"], &[])), RetryOn::ServerErrors);
        assert_eq!(
            on(Classes::envoy(
                ["gateway-error", "connect-failure", "refused-stream"],
                &[]
            )),
            RetryOn::GatewayErrors
        );
        // Istio's default since 1.24: no code attached, no timeout.
        let istio = Classes::envoy(
            "connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes"
                .split(','),
            &[],
        );
        assert_eq!(on(istio), RetryOn::Connection);
        assert_eq!(nearest(istio, true).1, istio, "exactly");
        // Envoy Gateway's default, with its 503: a 503 but no timeout.
        let gateway = Classes::envoy(
            [
                "connect-failure",
                "refused-stream",
                "retriable-status-codes",
            ],
            &[503],
        );
        assert_eq!(on(gateway), RetryOn::GatewayErrors);
        assert_eq!(on(Classes::statuses("5xx")), RetryOn::ServerErrors);
        assert_eq!(
            on(Classes::grpc(["UNAVAILABLE", "RESOURCE_EXHAUSTED"])),
            RetryOn::Transient
        );
        assert_eq!(
            on(Classes::exceptions(["java.lang.Exception"])),
            RetryOn::Everything
        );
        assert_eq!(on(Classes::of(RetryOn::Everything)), RetryOn::Everything);
    }
}
