//! Error classes: which failures a retry can cure.
//!
//! A retry helps only when waiting can change the answer. The playground uses
//! three classes:
//!
//! - **transient**: `429 Too Many Requests`, `502`, `503`, `504`, timeouts,
//!   connection errors and optimistic-concurrency conflicts. Waiting helps;
//!   `429` and `503` may say how long to wait with `Retry-After`.
//! - **permanent**: `400`, `401`, `403`, `404` (and other 4xx). The request is
//!   wrong or not allowed; it will be just as wrong in a second, so it is
//!   never retried.
//! - **unknown**: any other 5xx (`500`, `501`, ...). It may be a bug that
//!   fails every time or a hiccup; the compromise is to retry at most once.
//!
//! "Retry every 5xx" is too coarse: it retries bugs forever, and it misses
//! `429`, which is the server asking for exactly the pause a retry policy
//! provides.

/// How a failed attempt looked from the client.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Failure {
    /// The server answered with an HTTP status and maybe a `Retry-After`
    /// (seconds).
    Status { code: u16, retry_after: Option<f64> },
    /// No answer within the attempt's timeout (the server may still have done
    /// the work).
    Timeout,
    /// The connection failed before a request could be delivered.
    Connection,
    /// An optimistic-concurrency write lost the race: someone else wrote
    /// since our read. Reading again and retrying is the whole protocol.
    Conflict,
}

/// Whether waiting can help.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorClass {
    Transient,
    Permanent,
    Unknown,
}

impl Failure {
    /// The class of this failure.
    pub fn class(&self) -> ErrorClass {
        match *self {
            Failure::Timeout | Failure::Connection | Failure::Conflict => ErrorClass::Transient,
            Failure::Status { code, .. } => status_class(code),
        }
    }

    /// The server's `Retry-After`, if it sent one.
    pub fn retry_after(&self) -> Option<f64> {
        match *self {
            Failure::Status { retry_after, .. } => retry_after,
            _ => None,
        }
    }
}

/// The class of an HTTP status code that signals failure.
pub fn status_class(code: u16) -> ErrorClass {
    match code {
        429 | 502 | 503 | 504 => ErrorClass::Transient,
        // 408 Request Timeout is the server saying it gave up waiting for us:
        // as transient as a client-side timeout.
        408 => ErrorClass::Transient,
        400..=499 => ErrorClass::Permanent,
        _ => ErrorClass::Unknown,
    }
}

/// May an operation retry after `failure`?
///
/// `unknown_already_retried` is whether this operation has already spent its
/// one retry on an unknown error: unknown 5xx get at most one retry per
/// operation, so a bug that fails every time costs two calls, not a whole
/// retry ladder.
pub fn retryable(failure: &Failure, unknown_already_retried: bool) -> bool {
    match failure.class() {
        ErrorClass::Transient => true,
        ErrorClass::Permanent => false,
        ErrorClass::Unknown => !unknown_already_retried,
    }
}

/// Which failures a policy retries, as its configuration says. Whatever
/// the choice, an optimistic-concurrency conflict is retried: reading
/// again and retrying is the whole protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetryOn {
    /// The page's own rule ([`retryable`]): transient failures, an unknown
    /// 5xx once, never a 4xx.
    Transient,
    /// Every 5xx, every time, timeouts and lost connections; not a 429 nor
    /// another 4xx: Envoy's, Linkerd's and Kuma's `5xx`.
    ServerErrors,
    /// 502, 503 and 504, timeouts and lost connections; not a 500, a 429
    /// nor another 4xx: Envoy's `gateway-error`.
    GatewayErrors,
    /// Lost connections only: no answered failure and no timeout is
    /// retried (Istio's default since 1.24 for an HTTP service:
    /// `connect-failure,refused-stream` and gRPC conditions a plain HTTP
    /// answer never meets).
    Connection,
    /// Every failure, every time, a permanent 4xx included: the
    /// misconfiguration of a client that retries whatever is thrown.
    Everything,
}

impl RetryOn {
    /// Whether a policy retrying on `self` retries `failure`, its
    /// operation having spent its one retry of an unknown 5xx or not.
    pub fn retries(self, failure: &Failure, unknown_already_retried: bool) -> bool {
        let status = match *failure {
            Failure::Conflict => return true,
            Failure::Connection => return true,
            Failure::Timeout => return self != RetryOn::Connection,
            Failure::Status { code, .. } => code,
        };
        match self {
            RetryOn::Transient => retryable(failure, unknown_already_retried),
            RetryOn::ServerErrors => (500..=599).contains(&status),
            RetryOn::GatewayErrors => matches!(status, 502..=504),
            RetryOn::Connection => false,
            RetryOn::Everything => true,
        }
    }
}

/// Parses a `Retry-After` header given in delta-seconds (`"120"`, `"1.5"`).
///
/// The HTTP-date form is not understood: the simulator has no calendar. A
/// value that is not a finite, non-negative number yields `None`, which a
/// client treats as "no hint" rather than as "retry now".
pub fn parse_retry_after(header: &str) -> Option<f64> {
    let seconds = crate::decimal::parse_f64(header.trim())?;
    (seconds.is_finite() && seconds >= 0.0).then_some(seconds)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(code: u16) -> Failure {
        Failure::Status {
            code,
            retry_after: None,
        }
    }

    /// Each choice retries what its configuration says, and a conflict
    /// always; the page's rule is [`retryable`]'s.
    #[test]
    fn each_choice_retries_its_own_classes() {
        let all = [
            status(503),
            status(429),
            status(500),
            status(400),
            Failure::Timeout,
            Failure::Connection,
            Failure::Conflict,
        ];
        let retried =
            |on: RetryOn| -> Vec<bool> { all.iter().map(|f| on.retries(f, true)).collect() };
        assert_eq!(
            retried(RetryOn::Transient),
            [true, true, false, false, true, true, true]
        );
        assert_eq!(
            retried(RetryOn::ServerErrors),
            [true, false, true, false, true, true, true]
        );
        assert_eq!(
            retried(RetryOn::GatewayErrors),
            [true, false, false, false, true, true, true]
        );
        assert_eq!(
            retried(RetryOn::Connection),
            [false, false, false, false, false, true, true]
        );
        assert_eq!(retried(RetryOn::Everything), [true; 7]);
        assert!(
            RetryOn::Transient.retries(&status(500), false),
            "an unknown 5xx once"
        );
    }

    #[test]
    fn transient_failures_are_retried() {
        for code in [429, 502, 503, 504] {
            assert_eq!(status(code).class(), ErrorClass::Transient, "{code}");
            assert!(retryable(&status(code), false));
            assert!(
                retryable(&status(code), true),
                "transient ignores the unknown allowance"
            );
        }
        for failure in [Failure::Timeout, Failure::Connection, Failure::Conflict] {
            assert!(retryable(&failure, true));
        }
    }

    #[test]
    fn permanent_failures_are_never_retried() {
        for code in [400, 401, 403, 404, 422] {
            assert_eq!(status(code).class(), ErrorClass::Permanent, "{code}");
            assert!(!retryable(&status(code), false));
        }
    }

    #[test]
    fn unknown_5xx_is_retried_at_most_once() {
        for code in [500, 501, 505, 599] {
            assert_eq!(status(code).class(), ErrorClass::Unknown, "{code}");
            assert!(retryable(&status(code), false));
            assert!(!retryable(&status(code), true));
        }
    }

    #[test]
    fn retry_after_is_carried_and_parsed() {
        let throttled = Failure::Status {
            code: 429,
            retry_after: Some(2.0),
        };
        assert_eq!(throttled.retry_after(), Some(2.0));
        assert_eq!(Failure::Timeout.retry_after(), None);
        assert_eq!(parse_retry_after(" 120 "), Some(120.0));
        assert_eq!(parse_retry_after("1.5"), Some(1.5));
        assert_eq!(parse_retry_after("-1"), None);
        assert_eq!(parse_retry_after("NaN"), None);
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), None);
    }
}
