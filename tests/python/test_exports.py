"""The exports, run by the real Python libraries.

- tenacity runs the exported wait and stop strategies for 10 000 schedules
  per policy; attempts must match exactly, every pause must lie within the
  playground's analytic bounds, and each retry's sample mean must be near
  the analytic mean. A pause lies in [min, max], so its standard deviation
  is at most (max - min) / 2 and that of a mean of 10 000 draws at most
  (max - min) / 200; six of those, 0.03 (max - min), make a false alarm a
  one-in-a-billion event. The decorrelated mean is computed on a grid
  accurate to 0.5 % of the cap, which is added to its tolerance.
- botocore loads the exported shared config and must report the same retry
  mode and max attempts.
- botocore's standard-mode backoff (botocore.retries.standard,
  ExponentialBackoff, with its random draw at the top of its range) gives
  the ceilings the playground reads from a pasted `retry_mode = standard`
  and the ceilings of the aws-sdk preset: one base delay everywhere.
- botocore's standard-mode retry quota (botocore.retries.standard) and the
  playground's AWS quota model (crates/core/src/budget.rs, through the command line's
  --quota-trace) are fed the same operations and must end with the same
  remaining capacity, the same retries and the same refused retries.
- PyYAML reads the exported Istio manifests, and each meets the schema
  Istio publishes for its kind (istio/api's CRDs, vendored with their commit
  in istio-v1-schema.json): every field known (the API server prunes the
  rest silently), of its type, within its bounds, every duration one Istio
  accepts; and the numbers say what the policy does, retries not attempts.
  The same for the Gateway API's HTTPRoute and XBackendTrafficPolicy
  (kubernetes-sigs/gateway-api's experimental CRDs, gateway-api-schema.json),
  every CEL rule on a field written evaluated.
- botocore's adaptive mode (botocore.retries.adaptive: ClientRateLimiter,
  CubicCalculator, RateClocker, TokenBucket, its clock replaced) and the
  playground's rate limiter (crates/core/src/adaptive.rs, through --adaptive-trace) are
  fed the same timestamped responses and must agree on the fill rate after
  every one.

The playground's side comes from the command line: $NATIVE_CLI, or the
debug build in $CARGO_TARGET_DIR (target by default).
"""

import json
import os
import random
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("NATIVE_CLI") or os.path.join(
    os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "debug", "retry-playground"
)
DRAWS = 10_000


def cli(*args):
    return subprocess.run([CLI, *args], check=True, capture_output=True, text=True).stdout


class Failed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failed(message)


TENACITY_LINKS = [
    "v=1",
    "v=1&jitter=equal&attempts=6&mult=3&base=0.05&cap=2",
    "v=1&jitter=decorrelated&attempts=6&cap=1.5",
    "v=1&jitter=proportional&jfrac=0.4&attempts=5&cap=1",
    "v=1&shape=linear&jitter=full&attempts=5&base=0.2&cap=0.7",
    "v=1&shape=constant&jitter=none&attempts=3&base=0.3&deadline=30",
]


def tenacity_schedules(link):
    """Runs the exported Retrying on an always-failing call DRAWS times."""
    snippet = cli("--export", "tenacity", link)
    bounds = json.loads(cli("--bounds", link))
    namespace = {}
    exec(compile(snippet, "exported tenacity snippet", "exec"), namespace)
    pauses = []
    retrying = namespace["retrying"].copy(sleep=pauses.append)
    calls = 0

    def always_fails():
        nonlocal calls
        calls += 1
        raise ConnectionError("the playground's server is down")

    retries = bounds["attempts"] - 1
    sums = [0.0] * retries
    worst = 0.0
    for _ in range(DRAWS):
        pauses.clear()
        calls = 0
        try:
            retrying(always_fails)
        except ConnectionError:
            pass
        check(calls == bounds["attempts"], f"{link}: {calls} attempts, expected {bounds['attempts']}")
        check(len(pauses) == retries, f"{link}: {len(pauses)} pauses, expected {retries}")
        for retry, pause in enumerate(pauses):
            b = bounds["pauses"][retry]
            slack = 1e-9 * max(b["max"], 1.0)
            check(b["min"] - slack <= pause <= b["max"] + slack,
                  f"{link} retry {retry}: {pause} outside [{b['min']}, {b['max']}]")
            sums[retry] += pause
    for retry, total in enumerate(sums):
        b = bounds["pauses"][retry]
        mean = total / DRAWS
        tolerance = 0.03 * (b["max"] - b["min"]) + 1e-9
        if "decorrelated" in link:
            tolerance += 0.005 * float(link.split("cap=")[1].split("&")[0])
        check(abs(mean - b["mean"]) <= tolerance,
              f"{link} retry {retry}: tenacity's mean {mean}, the playground's {b['mean']} (tolerance {tolerance})")
        worst = max(worst, abs(mean - b["mean"]) / tolerance)
    return worst


def test_tenacity():
    for link in TENACITY_LINKS:
        worst = tenacity_schedules(link)
        print(f"  tenacity {link}: worst mean used {100 * worst:.0f} % of its tolerance")


def test_botocore_reads_the_shared_config():
    import botocore.session

    for attempts, budget, mode in ((1, "aws-quota", "standard"), (4, "aws-quota", "standard"),
                                   (9, "aws-quota", "standard"), (3, "aws-adaptive", "adaptive")):
        text = cli("--export", "aws", f"v=1&attempts={attempts}&budget={budget}")
        with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as file:
            file.write(text)
        try:
            session = botocore.session.Session()
            session.set_config_variable("config_file", file.name)
            session.set_config_variable("profile", "playground")
            client = session.create_client(
                "sts", region_name="us-east-1", aws_access_key_id="test", aws_secret_access_key="test"
            )
            retries = client.meta.config.retries
            check(retries.get("mode") == mode, f"retry mode {retries}, exported {mode}")
            check(retries.get("total_max_attempts") == attempts, f"max attempts {retries}, exported {attempts}")
        finally:
            os.unlink(file.name)


class BackoffContext:
    """What ExponentialBackoff reads of botocore's retry context: an error
    that is not throttling, with no retry-after header."""

    http_response = None

    def __init__(self, attempt_number):
        self.attempt_number = attempt_number


def preset_link(key):
    """A preset's link, as crates/teach/src/presets.rs writes it."""
    text = open(os.path.join(ROOT, "crates", "teach", "src", "presets.rs")).read()
    after = text[text.index(f'key: "{key}"'):]
    start = after.index('link: "') + len('link: "')
    return after[start:after.index('"', start)]


def test_botocore_backoff_matches_the_import_and_the_preset():
    from botocore.retries import standard

    # Full jitter draws rand(0, 1) times the ceiling: a draw of 1 is the ceiling.
    backoff = standard.ExponentialBackoff(random=lambda: 1.0)
    ceilings = [backoff.delay_amount(BackoffContext(n)) for n in range(1, 12)]
    with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as file:
        file.write("[profile playground]\nretry_mode = standard\nmax_attempts = 12\n")
    try:
        imported = cli("--import", file.name, "v=1").strip()
    finally:
        os.unlink(file.name)
    for what, link in [("a pasted retry_mode = standard", imported), ("the aws-sdk preset", preset_link("aws-sdk"))]:
        bounds = json.loads(cli("--bounds", link))
        pauses = [pause["max"] for pause in bounds["pauses"]]
        print(f"  {what}: ceilings {pauses[:4]} ... against botocore's {ceilings[:4]} ...")
        check(pauses == ceilings[: len(pauses)], f"{what}: ceilings {pauses}, botocore {ceilings}")
        check(all(pause["min"] == 0.0 for pause in bounds["pauses"]), f"{what}: full jitter draws from 0")


class Context:
    """What RetryQuotaChecker reads of botocore's retry context."""

    def __init__(self):
        self.request_context = {}

    def add_retry_metadata(self, **_):
        pass


class Response:
    status_code = 200


def test_botocore_retry_quota_matches_the_playground():
    from botocore.retries import quota, standard

    retry_cost = standard.RetryQuotaChecker._RETRY_COST
    # Older botocore charges more after a timeout; current botocore does not.
    timeout_cost = getattr(standard.RetryQuotaChecker, "_TIMEOUT_RETRY_REQUEST", retry_cost)
    attempts = 3
    generator = random.Random(14)
    operations = []
    # A bad spell that drains the quota, then recovery that refills it.
    for index in range(600):
        failure = 0.85 if index < 300 else 0.05
        outcomes = ""
        for _ in range(attempts):
            if generator.random() < failure:
                outcomes += "t" if generator.random() < 0.3 else "e"
            else:
                outcomes += "s"
                break
        operations.append(outcomes)

    checker = standard.RetryQuotaChecker(quota.RetryQuota())
    refused = retries = 0
    for outcomes in operations:
        context = Context()
        for attempt, outcome in enumerate(outcomes):
            if outcome == "s":
                checker.release_retry_quota(context.request_context, Response())
                break
            if attempt + 1 >= attempts:
                break
            if checker.acquire_retry_quota(context):
                retries += 1
            else:
                refused += 1
                break

    link = f"v=1&budget=aws-quota&attempts={attempts}&q_cost={retry_cost}&q_tcost={timeout_cost}"
    playground = json.loads(cli("--quota-trace", ",".join(operations), link))
    capacity = checker._quota.available_capacity
    print(f"  botocore quota: capacity {capacity}, retries {retries}, refused {refused}; "
          f"playground: capacity {playground['capacity']}, retries {playground['retries']}, refused {playground['refused']}")
    check(refused > 0, "the sequence should drain the quota")
    check(playground["capacity"] == capacity, f"capacity: playground {playground['capacity']}, botocore {capacity}")
    check(playground["refused"] == refused, f"refused: playground {playground['refused']}, botocore {refused}")
    check(playground["retries"] == retries, f"retries: playground {playground['retries']}, botocore {retries}")


class FakeClock:
    """botocore's Clock, with the time set by the test."""

    def __init__(self):
        self.now = 0.0

    def current_time(self):
        return self.now

    def sleep(self, amount):
        self.now += amount


class HttpResponse:
    def __init__(self, status_code):
        self.status_code = status_code


def test_botocore_adaptive_rate_matches_the_playground():
    """botocore's adaptive mode (ClientRateLimiter over CubicCalculator,
    RateClocker and TokenBucket, wired as botocore.retries.adaptive wires
    them, its clock replaced) and the playground's (crates/core/src/adaptive.rs, through
    --adaptive-trace) get the same timestamped responses; after each, the
    fill rates must agree to 1e-9 of their size (the same arithmetic in the
    same order; only the cube root's last bits may differ)."""
    from botocore.retries import adaptive, bucket, standard, throttling

    clock = FakeClock()
    limiter = adaptive.ClientRateLimiter(
        rate_adjustor=throttling.CubicCalculator(starting_max_rate=0, start_time=clock.current_time()),
        rate_clocker=adaptive.RateClocker(clock),
        token_bucket=bucket.TokenBucket(max_rate=1, clock=clock),
        throttling_detector=standard.ThrottlingErrorDetector(retry_event_adapter=standard.RetryEventAdapter()),
        clock=clock,
    )
    generator = random.Random(25)
    events = []
    t = 0.0
    # Calm at 40/s, a spell of throttling at 120/s, recovery, a second spell.
    for phase_end, rate, throttle_share in [(5, 40, 0.0), (9, 120, 0.3), (20, 30, 0.0), (24, 90, 0.5), (35, 20, 0.0)]:
        while t < phase_end:
            t += generator.expovariate(rate)
            events.append((round(t, 6), generator.random() < throttle_share))
    rates = []
    for when, throttled in events:
        clock.now = when
        parsed = {"Error": {"Code": "ThrottlingException"}} if throttled else {}
        limiter.on_receiving_response(
            response=(HttpResponse(400 if throttled else 200), parsed),
            caught_exception=None,
            attempts=1,
            operation=None,
            request_dict={"context": {}},
        )
        rates.append(limiter._token_bucket.max_rate)
    trace = ",".join(f"{when}:{'t' if throttled else 's'}" for when, throttled in events)
    playground = json.loads(cli("--adaptive-trace", trace))["fill_rates"]
    check(len(playground) == len(rates), f"{len(playground)} rates against botocore's {len(rates)}")
    worst = max(abs(a - b) / max(abs(b), 1e-12) for a, b in zip(playground, rates))
    throttles = sum(throttled for _, throttled in events)
    print(f"  botocore adaptive: {len(events)} responses, {throttles} throttles; fill rate from "
          f"{min(rates):.3f} to {max(rates):.3f}/s, the playground's within {worst:.1e} of it")
    check(throttles > 10 and max(rates) > 2 * min(rates), "the sequence should move the rate")
    check(worst <= 1e-9, f"the fill rates part by {worst:.2e} of their size")


ISTIO_LINKS = [
    "v=1",
    "v=1&attempts=5&base=0.25&cap=2.5&timeout=0.2&deadline=7.5",
    "v=1&attempts=1",
    "v=1&attempts=4&base=0.1&cap=1&timeout=0.3&budget=envoy&ev_pct=0.125&ev_min=5",
    # The ends of the ranges: fifty attempts, a millisecond, an hour; and
    # what a policy retries, in each mesh's words.
    "v=1&attempts=50&base=0.001&cap=3600&timeout=0.001&deadline=3600&retry_on=everything",
    "v=1&attempts=2&base=60&cap=3600&timeout=3600&deadline=1&retry_on=connection",
    "v=1&attempts=3&retry_on=5xx",
    "v=1&attempts=3&retry_on=gateway-error",
]
GATEWAY_LINKS = ISTIO_LINKS[:3] + ISTIO_LINKS[4:] + [
    # A try longer than the request, which the API refuses: written as the request's.
    "v=1&attempts=3&timeout=5&deadline=2",
    "v=1&attempts=3&base=0.2&deadline=7.5&budget=ratio&b_pct=0.125&b_window=0.5&b_floor=0.5",
    "v=1&attempts=4&budget=ratio&b_pct=0.1&b_window=10&b_floor=5&b_basis=requests",
]

# Go's durations, which Istio's and the Gateway API's CEL rules read.
GO_DURATION = re.compile(r"^(\d+(\.\d+)?(h|m|s|ms|us|ns))+$")
GO_UNITS = {"h": 3600, "m": 60, "s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}


def go_seconds(text):
    check(bool(GO_DURATION.match(text)), f"{text!r} is not a duration")
    return sum(float(n) * GO_UNITS[u] for n, _, u in re.findall(r"(\d+(\.\d+)?)(h|ms|us|ns|m|s)", text))


# Every CEL rule (x-kubernetes-validations) on the path of a field the
# exports write, evaluated: the rule's text, and the check of it in Python.
# A rule not listed fails the test, so a new rule in a newer schema is seen.
# The Gateway API's rules on its lists hold for the one parent, the one
# rule and the one backend written: they are about filters, matches,
# names and duplicates, of which the manifests have none.
ONE_OF_EACH = "holds for one parent, one rule and one backend without filters, matches or names"
CEL_RULES = {
    "duration(self) >= duration('1ms')": lambda v: go_seconds(v) >= 1e-3,
    "!(duration(self) < duration('1s') || duration(self) > duration('1h'))": lambda v: 1 <= go_seconds(v) <= 3600,
    "!(duration(self) == duration('0s') || duration(self) > duration('1h'))": lambda v: 0 < go_seconds(v) <= 3600,
    "!(has(self.request) && has(self.backendRequest) && duration(self.request) != duration('0s') && duration(self.backendRequest) > duration(self.request))":
        lambda v: not ("request" in v and "backendRequest" in v and go_seconds(v["request"]) != 0
                       and go_seconds(v["backendRequest"]) > go_seconds(v["request"])),
    "(size(self.group) == 0 && self.kind == 'Service') ? has(self.port) : true":
        lambda v: not (v.get("group", "") == "" and v.get("kind", "Service") == "Service") or "port" in v,
    # Envoy Gateway's BackendTrafficPolicy.
    "(has(self.targetRef) && !has(self.targetRefs)) || (!has(self.targetRef) && has(self.targetRefs)) || (has(self.targetSelectors) && self.targetSelectors.size() > 0) ":
        lambda v: ("targetRef" in v) != ("targetRefs" in v) or len(v.get("targetSelectors", [])) > 0,
    "has(self.targetRefs) ? self.targetRefs.all(ref, ref.group == 'gateway.networking.k8s.io') : true ":
        lambda v: all(ref["group"] == "gateway.networking.k8s.io" for ref in v.get("targetRefs", [])),
    "has(self.targetRefs) ? self.targetRefs.all(ref, ref.kind in ['Gateway', 'ListenerSet', 'HTTPRoute', 'GRPCRoute', 'UDPRoute', 'TCPRoute', 'TLSRoute']) : true ":
        lambda v: all(ref["kind"] in ['Gateway', 'ListenerSet', 'HTTPRoute', 'GRPCRoute', 'UDPRoute', 'TCPRoute', 'TLSRoute']
                      for ref in v.get("targetRefs", [])),
    "self.numerator <= self.denominator": lambda v: v["numerator"] <= v.get("denominator", 100),
}


def absent_field_rule(rule, value):
    """A rule that holds because the field its first test asks about is
    absent: `has(self.x) ? ... : true`, `!has(self.x) || ...`, or
    `!((has(self.x) && ...) ...)`."""
    guard = re.match(r"^\s*(!)?(\(*)has\(self\.(\w+)\)\s*(\?|\|\||&&)", rule)
    if not guard:
        return False
    negated, parens, field, operator = guard.groups()
    if field in value:
        return False
    return ((not negated and not parens and operator == "?")
            or (negated and not parens and operator == "||")
            or (negated and parens and operator == "&&"))


def cel_rule(rule, value, path):
    if rule in CEL_RULES:
        check(CEL_RULES[rule](value), f"{path}: breaks the rule {rule}")
        return
    vacuous = absent_field_rule(rule, value) or (path.endswith("parentRefs") and len(value) == 1) or (path.endswith("rules") and len(value) == 1) or (
        path.endswith("rules[0]") and "filters" not in value and all("filters" not in b for b in value.get("backendRefs", [])))
    check(vacuous, f"{path}: a rule this test does not evaluate: {rule[:120]}")


def meets(value, schema, path):
    """The structural part of a CRD's OpenAPI v3 schema a manifest must
    meet: type, properties (nothing unknown), items, additionalProperties,
    enum, bounds, lengths, patterns, required fields, and its CEL rules
    (CEL_RULES). Its oneOf/anyOf (which of several fields may be set)
    constrain none of the fields written here."""
    if schema.get("x-kubernetes-preserve-unknown-fields"):
        return
    kind = schema.get("type")
    if value is None:
        check(schema.get("nullable", False), f"{path}: null where {kind} is required")
        return
    if schema.get("x-kubernetes-int-or-string"):
        check(isinstance(value, (int, str)) and not isinstance(value, bool), f"{path}: {value!r} is neither int nor string")
        return
    expected = {"object": dict, "array": list, "string": str, "boolean": bool}
    if kind == "integer":
        check(isinstance(value, int) and not isinstance(value, bool), f"{path}: {value!r} is not an integer")
    elif kind == "number":
        check(isinstance(value, (int, float)) and not isinstance(value, bool), f"{path}: {value!r} is not a number")
    elif kind in expected:
        check(isinstance(value, expected[kind]), f"{path}: {value!r} is not {kind}")
    if "enum" in schema:
        check(value in schema["enum"], f"{path}: {value!r} not in {schema['enum']}")
    if "minimum" in schema:
        check(value >= schema["minimum"], f"{path}: {value} below {schema['minimum']}")
    if "maximum" in schema:
        check(value <= schema["maximum"], f"{path}: {value} above {schema['maximum']}")
    if "pattern" in schema:
        check(re.search(schema["pattern"], value) is not None, f"{path}: {value!r} does not match {schema['pattern']}")
    for bound, test in (("minLength", lambda n: len(value) >= n), ("maxLength", lambda n: len(value) <= n),
                        ("maxItems", lambda n: len(value) <= n)):
        if bound in schema:
            check(test(schema[bound]), f"{path}: {bound} {schema[bound]}")
    for rule in schema.get("x-kubernetes-validations", []):
        cel_rule(rule["rule"], value, path)
    if kind == "object":
        properties = schema.get("properties", {})
        for key, item in value.items():
            if key in properties:
                meets(item, properties[key], f"{path}.{key}")
            elif "additionalProperties" in schema:
                meets(item, schema["additionalProperties"], f"{path}.{key}")
            else:
                check(False, f"{path}.{key}: no such field in the schema (the API server would drop it)")
        for key in schema.get("required", []):
            check(key in value, f"{path}: {key} is required")
    if kind == "array":
        for index, item in enumerate(value):
            meets(item, schema["items"], f"{path}[{index}]")


def manifests(format, link, schema_file, versions):
    """The exported manifests of `link`, each held to its kind's schema."""
    import yaml

    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), schema_file)) as file:
        schemas = json.load(file)
    documents = list(yaml.safe_load_all(cli("--export", format, link)))
    for document in documents:
        kind = document["kind"]
        check(document["apiVersion"] == versions[kind], f"{link}: {kind} {document['apiVersion']}")
        meets(document["spec"], schemas[kind]["properties"]["spec"], f"{link} {kind}.spec")
    return documents


def test_istio_manifests_meet_istios_schema():
    versions = {"VirtualService": "networking.istio.io/v1", "DestinationRule": "networking.istio.io/v1"}
    for link in ISTIO_LINKS:
        documents = manifests("istio", link, "istio-v1-schema.json", versions)
        bounds = json.loads(cli("--bounds", link))
        kinds = [document["kind"] for document in documents]
        check(kinds == (["VirtualService", "DestinationRule"] if "budget=envoy" in link else ["VirtualService"]),
              f"{link}: {kinds}")
        retries = documents[0]["spec"]["http"][0]["retries"]
        check(retries["attempts"] == bounds["attempts"] - 1, f"{link}: Istio counts retries: {retries}")
        if bounds["attempts"] > 1:
            first = bounds["pauses"][0]["max"]
            check(abs(go_seconds(retries["backoff"]) - first) <= 1e-9, f"{link}: backoff {retries['backoff']}, first ceiling {first}")
        print(f"  istio {link}: {len(documents)} manifests meet istio/api's v1 schema")


def test_envoy_gateway_manifests_meet_its_schema():
    versions = {"BackendTrafficPolicy": "gateway.envoyproxy.io/v1alpha1"}
    for link in ISTIO_LINKS + ["v=1&attempts=4&budget=envoy&ev_pct=0.0625&ev_min=2&deadline=2.5"]:
        [document] = manifests("envoy-gateway", link, "envoy-gateway-schema.json", versions)
        bounds = json.loads(cli("--bounds", link))
        spec = document["spec"]
        retry = spec["retry"]
        check(retry["numRetries"] == bounds["attempts"] - 1, f"{link}: Envoy Gateway counts retries: {retry}")
        if bounds["attempts"] > 1:
            back_off = retry["perRetry"]["backOff"]
            first = bounds["pauses"][0]["max"]
            check(abs(go_seconds(back_off["baseInterval"]) - first) <= 5e-4, f"{link}: base {back_off}, first ceiling {first}")
        if "budget=envoy" in link:
            fraction = spec["circuitBreaker"]["retryBudget"]["percent"]
            share = float(re.search(r"ev_pct=([0-9.]+)", link).group(1))
            check(abs(fraction["numerator"] / fraction["denominator"] - share) <= 1e-12, f"{link}: {fraction}")
        print(f"  envoy-gateway {link}: meets envoyproxy/gateway's v1alpha1 schema")


def durations_in(value, path=""):
    """Every field whose name says it holds a duration, with its path."""
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, str) and (key.endswith("Timeout") or key.endswith("Interval")):
                yield f"{path}.{key}", item
            yield from durations_in(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from durations_in(item, f"{path}[{index}]")


def test_kuma_manifests_meet_its_schema():
    versions = {"MeshRetry": "kuma.io/v1alpha1", "MeshTimeout": "kuma.io/v1alpha1"}
    for link in ISTIO_LINKS[:3] + ISTIO_LINKS[4:]:
        documents = manifests("kuma", link, "kuma-schema.json", versions)
        bounds = json.loads(cli("--bounds", link))
        check([d["kind"] for d in documents] == ["MeshRetry", "MeshTimeout"], f"{link}: {documents}")
        for document in documents:
            # Kuma's schema leaves durations as strings; its API server
            # reads them as Go durations.
            for path, text in durations_in(document["spec"]):
                go_seconds(text)
        http = documents[0]["spec"]["to"][0]["default"]["http"]
        check(http["numRetries"] == bounds["attempts"] - 1, f"{link}: Kuma counts retries: {http}")
        print(f"  kuma {link}: meets kumahq/kuma's v1alpha1 schema, every duration one Go reads")


def linkerd_reads(annotations):
    """The retry a route gets from its annotations, as Linkerd's policy
    controller reads them (linkerd2, policy-controller, parse_http_retry):
    the limit a u16 where 0 means unset, 1 when unset, each status a code,
    a range, 5xx or gateway-error; None when no retry annotation is set."""
    limit = annotations.get("retry.linkerd.io/limit")
    if limit is not None:
        check(re.fullmatch(r"\d{1,5}", limit) is not None and int(limit) < 65536, f"limit {limit!r} is not a u16")
        limit = int(limit) or None
    statuses = annotations.get("retry.linkerd.io/http")
    if statuses is not None:
        for status in statuses.split(","):
            check(status.lower() in ("5xx", "gateway-error") or re.fullmatch(r"[1-5]\d\d(-[1-5]\d\d)?", status),
                  f"status {status!r} is not one Linkerd reads")
    timeout = annotations.get("retry.linkerd.io/timeout")
    if limit is None and statuses is None and timeout is None:
        return None
    return limit or 1


def test_linkerd_annotations_read_as_linkerd_reads_them():
    import yaml

    for link in ISTIO_LINKS[:3] + ISTIO_LINKS[4:] + ["v=1&attempts=2&timeout=0.25&deadline=1.5"]:
        [service] = list(yaml.safe_load_all(cli("--export", "linkerd", link)))
        bounds = json.loads(cli("--bounds", link))
        annotations = service["metadata"]["annotations"]
        check(all(isinstance(v, str) for v in annotations.values()), f"{link}: annotations are text: {annotations}")
        retries = linkerd_reads(annotations)
        check((retries or 0) == bounds["attempts"] - 1, f"{link}: Linkerd reads {retries} retries: {annotations}")
        for key in ("retry.linkerd.io/timeout", "timeout.linkerd.io/request"):
            if key in annotations:
                check(re.fullmatch(r"\d+(ms|s)", annotations[key]) is not None, f"{link}: {key} {annotations[key]!r}")
        print(f"  linkerd {link}: {retries or 0} retries as Linkerd's controller reads them")


# The properties resilience4j's configuration reads, with their Java types
# (resilience4j at af9e7c97, resilience4j-framework-common:
# CommonRetryConfigurationProperties.InstanceProperties and
# CommonTimeLimiterConfigurationProperties.InstanceProperties).
RESILIENCE4J_RETRY = {"waitDuration": "Duration", "maxAttempts": "Integer", "enableExponentialBackoff": "Boolean",
                      "exponentialBackoffMultiplier": "Double", "exponentialMaxWaitDuration": "Duration",
                      "enableRandomizedWait": "Boolean", "randomizedWaitFactor": "Double",
                      "failAfterMaxAttempts": "Boolean", "eventConsumerBufferSize": "Integer", "baseConfig": "String",
                      "retryExceptions": "Class[]"}
RESILIENCE4J_TIME_LIMITER = {"timeoutDuration": "Duration", "cancelRunningFuture": "Boolean",
                             "eventConsumerBufferSize": "Integer", "baseConfig": "String"}
JAVA_TYPES = {"Integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
              "Double": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
              "Boolean": lambda v: isinstance(v, bool), "String": lambda v: isinstance(v, str),
              # Spring binds a class by its binary name: packages by dots, a nested class after a $.
              "Class[]": lambda v: isinstance(v, list) and all(
                  isinstance(c, str) and re.fullmatch(r"[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+\.[A-Z]\w*(\$[A-Z]\w*)?", c) for c in v),
              # Spring's simple form: a whole number and a unit.
              "Duration": lambda v: isinstance(v, str) and re.fullmatch(r"\d+(ns|us|ms|s|m|h|d)", v) is not None}


def test_spring_resilience4j_properties_are_the_ones_it_reads():
    import yaml

    for link in TENACITY_LINKS + ["v=1&attempts=4&timeout=0.3&jitter=proportional&jfrac=0.3"]:
        [document] = list(yaml.safe_load_all(cli("--export", "spring-resilience4j", link)))
        bounds = json.loads(cli("--bounds", link))
        sections = {"retry": RESILIENCE4J_RETRY, "timelimiter": RESILIENCE4J_TIME_LIMITER}
        check(set(document) == {"resilience4j"} and set(document["resilience4j"]) <= set(sections), f"{link}: {document}")
        for section, properties in document["resilience4j"].items():
            for name, instance in properties["instances"].items():
                for key, value in instance.items():
                    check(key in sections[section], f"{link}: {section}.{name}.{key} is not a property resilience4j reads")
                    kind = sections[section][key]
                    check(JAVA_TYPES[kind](value), f"{link}: {section}.{name}.{key} = {value!r} is not a {kind}")
        retry = document["resilience4j"]["retry"]["instances"]["my-service"]
        # resilience4j counts attempts, the first call included.
        check(retry["maxAttempts"] == bounds["attempts"], f"{link}: maxAttempts {retry['maxAttempts']}")
        check(retry["exponentialBackoffMultiplier"] >= 1, f"{link}: IntervalFunction refuses a multiplier under 1")
        if retry.get("enableRandomizedWait"):
            check(0 <= retry["randomizedWaitFactor"] < 1, f"{link}: IntervalFunction refuses a factor outside [0, 1)")
        print(f"  spring-resilience4j {link}: {len(retry)} retry properties, each one resilience4j reads")


def test_gateway_api_manifests_meet_the_apis_schema():
    versions = {"HTTPRoute": "gateway.networking.k8s.io/v1",
                "XBackendTrafficPolicy": "gateway.networking.x-k8s.io/v1alpha1"}
    for link in GATEWAY_LINKS:
        documents = manifests("gateway-api", link, "gateway-api-schema.json", versions)
        bounds = json.loads(cli("--bounds", link))
        kinds = [document["kind"] for document in documents]
        check(kinds == (["HTTPRoute", "XBackendTrafficPolicy"] if "budget=ratio" in link else ["HTTPRoute"]),
              f"{link}: {kinds}")
        rule = documents[0]["spec"]["rules"][0]
        retry = rule.get("retry")
        if bounds["attempts"] == 1:
            check(retry is None, f"{link}: attempts is at least 1, so one attempt writes no retry: {retry}")
        else:
            check(retry["attempts"] == bounds["attempts"] - 1, f"{link}: the Gateway API counts retries: {retry}")
            first = bounds["pauses"][0]["max"]
            check(abs(go_seconds(retry["backoff"]) - first) <= 5e-4, f"{link}: backoff {retry['backoff']}, first ceiling {first}")
        print(f"  gateway-api {link}: {len(documents)} manifests meet the API's schema")


def main():
    tests = [
        test_tenacity,
        test_botocore_reads_the_shared_config,
        test_botocore_backoff_matches_the_import_and_the_preset,
        test_botocore_retry_quota_matches_the_playground,
        test_botocore_adaptive_rate_matches_the_playground,
        test_istio_manifests_meet_istios_schema,
        test_gateway_api_manifests_meet_the_apis_schema,
        test_envoy_gateway_manifests_meet_its_schema,
        test_kuma_manifests_meet_its_schema,
        test_linkerd_annotations_read_as_linkerd_reads_them,
        test_spring_resilience4j_properties_are_the_ones_it_reads,
    ]
    passed = failed = 0
    for test in tests:
        try:
            test()
            passed += 1
            print(f"ok {test.__name__}")
        except Failed as failure:
            failed += 1
            print(f"FAILED {test.__name__}: {failure}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
