//! What each system does with a setting its configuration leaves out, as
//! its own source or documentation says: a paste starts from these, not
//! from whatever the page held before it.
//!
//! Read from the systems' sources (the commits are those the tests cite):
//! - Envoy (data-plane-api 84e8436, `route_components.proto`): one retry,
//!   a 25 ms base, a cap of 10 times the base, full jitter, no per-try
//!   timeout, a route timeout of 15 s.
//! - Istio (istio 86c9f01, `pilot/pkg/networking/core/route/retry/retry.go`,
//!   `route.go`): two retries, Envoy's backoff, no per-try timeout, and a
//!   route timeout Istio writes as 0s, disabled.
//! - Envoy Gateway (gateway d32f282, `api/v1alpha1/retry_types.go`): two
//!   retries, Envoy's backoff, no per-retry timeout, Envoy's 15 s route
//!   timeout. The Gateway API leaves its `retry` and `timeouts` to the
//!   implementation: Envoy Gateway's are applied, and said to be.
//! - Kuma (kuma 348b652, `meshretry.go`, `meshtimeout.go`): a MeshRetry
//!   field left out falls to Envoy's; MeshTimeout's request timeout 15 s.
//! - Linkerd (linkerd2 b24cd40, the policy controller): one retry, a
//!   backoff of 25 to 250 ms with full jitter, no timeouts.
//! - gRPC (gRFC A6): no per-attempt timeout, no deadline, no hedging, no
//!   throttling; the retry policy's own fields are required.
//! - The AWS SDKs' standard mode (botocore 0e6e240, `retries/standard.py`):
//!   3 attempts, no timeout of the retry loop's own.
//! - resilience4j (`RetryConfig`): 3 attempts, a fixed 500 ms wait, no
//!   jitter, no time limit.

use crate::Format;
use crate::read::{Imported, Setting};
use retry_core::budget::BudgetKind;
use retry_core::classify::RetryOn;
use retry_core::policy::{Jitter, Shape};
use retry_sim::config::{BUDGETS, JITTERS, P, RETRY_ONS, SHAPES, SWITCH};

/// Envoy's backoff base, and its cap's multiple of the base.
const ENVOY_BASE: f64 = 0.025;
const ENVOY_CAP_TIMES: f64 = 10.0;

/// The system's defaults: each setting, its value and whose it is.
fn of(format: Format) -> (Vec<(P, f64)>, &'static str) {
    let none = BUDGETS.position(BudgetKind::None);
    let off = SWITCH.position(false);
    let full = JITTERS.position(Jitter::Full);
    let exponential = SHAPES.position(Shape::Exponential);
    // A proxy built on Envoy: its backoff, and `attempts` and `deadline`
    // as the system sets them.
    let envoy = |attempts: f64, deadline: f64| {
        vec![
            (P::Attempts, attempts),
            (P::Shape, exponential),
            (P::Multiplier, 2.0),
            (P::Base, ENVOY_BASE),
            (P::Jitter, full),
            (P::Timeout, 0.0),
            (P::Deadline, deadline),
            (P::Hedge, off),
            (P::Budget, none),
        ]
    };
    match format {
        Format::Envoy => (
            envoy(2.0, 15.0),
            retry_core::words::tr("Envoy's default (route_components.proto)"),
        ),
        Format::Istio => (
            envoy(3.0, 0.0),
            retry_core::words::tr("Istio's default (pilot's retry.go; route timeout 0s, disabled)"),
        ),
        Format::EnvoyGateway => (
            envoy(3.0, 15.0),
            retry_core::words::tr("Envoy Gateway's default (retry_types.go), on Envoy's"),
        ),
        Format::GatewayApi => (
            envoy(3.0, 15.0),
            retry_core::words::tr(
                "left to the implementation by the Gateway API: Envoy Gateway's default",
            ),
        ),
        Format::Kuma => (
            envoy(2.0, 15.0),
            retry_core::words::tr(
                "Kuma's default (MeshRetry falls to Envoy's; MeshTimeout's request timeout)",
            ),
        ),
        Format::Linkerd => (
            envoy(2.0, 0.0),
            retry_core::words::tr("Linkerd's default (its policy controller)"),
        ),
        Format::Grpc => (
            vec![
                (P::Timeout, 0.0),
                (P::Deadline, 0.0),
                (P::Hedge, off),
                (P::Budget, none),
            ],
            retry_core::words::tr("gRFC A6's default"),
        ),
        Format::Aws => (
            vec![
                (P::Attempts, 3.0),
                // Transient errors, throttling and 5xx, never a 400: the
                // page's own rule (which retries a 500 once).
                (P::RetryOn, RETRY_ONS.position(RetryOn::Transient)),
                (P::Timeout, 0.0),
                (P::Deadline, 0.0),
                (P::Hedge, off),
                (P::Budget, none),
            ],
            retry_core::words::tr("the AWS SDKs' default (their reference guide's retry behavior)"),
        ),
        Format::SpringResilience4j => (
            vec![
                (P::Attempts, 3.0),
                (P::Shape, SHAPES.position(Shape::Constant)),
                (P::Base, 0.5),
                (P::Jitter, JITTERS.position(Jitter::None)),
                (P::Timeout, 0.0),
                (P::Deadline, 0.0),
                (P::Hedge, off),
                (P::Budget, none),
            ],
            retry_core::words::tr("resilience4j's default (RetryConfig)"),
        ),
        // Formats the page writes and does not read.
        Format::Tenacity | Format::Polly | Format::Resilience4j | Format::Backon | Format::Go => {
            (Vec::new(), "")
        }
    }
}

impl Imported {
    /// Gives every setting of the policy that the paste left out its
    /// system's default, in `defaults`. An Envoy proxy's cap is ten
    /// times the base, the paste's own base if it set one.
    pub(crate) fn with_defaults(mut self) -> Imported {
        let (defaults, source) = of(self.format);
        let set = |settings: &[Setting], param: P| settings.iter().any(|s| s.param == param);
        let from = retry_core::tf!("not in the paste: {source}", source = source);
        let push = |out: &mut Vec<Setting>, param: P, value: f64| {
            out.push(Setting {
                param,
                value,
                from: from.clone(),
            })
        };
        // A reader's own defaults (an Envoy cluster's cap on retries in
        // flight) come first.
        let mut out = std::mem::take(&mut self.defaults);
        for (param, value) in defaults {
            if !set(&self.settings, param) && !set(&out, param) {
                push(&mut out, param, value);
            }
        }
        let envoys = matches!(
            self.format,
            Format::Envoy
                | Format::Istio
                | Format::EnvoyGateway
                | Format::GatewayApi
                | Format::Kuma
                | Format::Linkerd
        );
        if envoys && !set(&self.settings, P::Cap) {
            let base = self
                .settings
                .iter()
                .find(|s| s.param == P::Base)
                .map_or(ENVOY_BASE, |s| s.value);
            push(&mut out, P::Cap, ENVOY_CAP_TIMES * base);
        }
        self.defaults = out;
        self
    }
}
