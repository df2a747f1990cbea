//! Named scenarios that teach. Each is a share link, a lesson (a template
//! filled from the runs, see [`crate::prose`]), the chart that shows it,
//! the numbers it is about, the controls it is about, and changes to try
//! with the number each should move. The page opens on the first.
//!
//! A lesson is a contrast: policy A (blue) is what people do, policy B
//! (orange) the fix, on the same world and seed.

use retry_core::chart_id::ChartId;
use retry_core::words::Text;
use retry_sim::config::{Config, Group, PARAMS};
use retry_sim::metrics::{Metric, Side};

/// A change a lesson suggests, applied by a button so the learner sees the
/// before and the after.
#[derive(Debug, PartialEq)]
pub struct TryThis {
    /// The button's text: a template (see [`crate::prose`]) filled from
    /// the settings the change leads to.
    pub label: Text,
    /// Link pairs applied on top of the current settings.
    pub change: &'static str,
    /// What it does to the numbers, held to by a test.
    pub expect: Expect,
}

/// A headline number moving one way.
#[derive(Debug, PartialEq)]
pub struct Expect {
    pub metric: Metric,
    pub side: Side,
    pub rises: bool,
}

/// One preset.
#[derive(Debug, PartialEq)]
pub struct Preset {
    pub key: &'static str,
    pub title: Text,
    /// What it teaches: a template (see [`crate::prose`]) whose numbers
    /// are filled from the settings and the runs, and whose clauses about
    /// the policies follow the settings, so the text stays true while the
    /// learner changes them.
    pub lesson: Text,
    /// The link's query string; only what differs from the defaults.
    pub link: &'static str,
    /// The chart that carries its lesson, shown first and large; what the
    /// eye must see on it is [`Preset::sees`].
    pub key_chart: ChartId,
    /// The 2-3 numbers the lesson is about, shown beside the key chart.
    pub headline: &'static [Metric],
    /// The groups of controls the lesson is about: open, the rest closed.
    pub open: &'static [Group],
    pub try_this: &'static [TryThis],
}

impl Preset {
    pub fn config(&self) -> Config {
        Config::from_link(self.link).0
    }
}

const fn rises(metric: Metric, side: Side) -> Expect {
    Expect {
        metric,
        side,
        rises: true,
    }
}

const fn falls(metric: Metric, side: Side) -> Expect {
    Expect {
        metric,
        side,
        rises: false,
    }
}

pub static PRESETS: &[Preset] = &[
    Preset {
        key: "herd",
        title: Text("The thundering herd after an outage"),
        lesson: Text(
            "{clients} clients fail together while the server is down for {outage_for}. {if \
                jitter=none}Policy A (blue) retries without jitter: every retry wave lands at once{if \
                A.overloaded}, far above what the server can take{else}, yet none reaches twice what \
                the server can take while it is up{end}.{else}Policy A (blue) now has {jitter} \
                jitter.{end} {if compare=on}{if B.jitter!=none}Policy B (orange) {if b_differs=0}is \
                now the same as A, with {B.jitter} jitter{else}{if b_differs=1}is the same \
                with{else}has settings of its own and{end} {B.jitter} jitter{end}{if B.absorbs}: the \
                waves melt into a hump the server absorbs{end}.{else}Policy B (orange) now has no \
                jitter.{end} Success: {A.success} for A, {B.success} for B.{else}Success: \
                {A.success}.{end}",
        ),
        link: "v=1&compare=on&attempts=8&base=0.2&cap=10&jitter=none&timeout=0&workload=crowd&clients=2000&horizon=30&buckets=300&failure=0&outage_at=0&outage_for=5&workers=100&queue=200&B.jitter=full",
        key_chart: ChartId::Load,
        headline: &[Metric::Success, Metric::P99],
        open: &[Group::Policy, Group::Server],
        try_this: &[TryThis {
            label: Text("Give A full jitter too"),
            change: "jitter=full",
            expect: rises(Metric::Success, Side::A),
        }],
    },
    Preset {
        key: "shared-seed",
        title: Text("The shared-seed trap"),
        lesson: Text(
            "The same herd, {if jitter=B.jitter}{if jitter=none}neither policy with \
                jitter{else}both policies with {jitter} jitter{end}{else}{if jitter=none}A without \
                jitter, B with {B.jitter}{else}{if B.jitter=none}A with {jitter} jitter, B \
                without{else}A with {jitter} jitter, B with {B.jitter}{end}{end}{end}. {if \
                shared=on}Policy A's (blue) clients all seed their generator with one constant, so all \
                draw the same 'random' pause{if A.overloaded} and the waves are back, far above what \
                the server can take{else}: their retries land together again, though under twice what \
                the server can take{end}.{else}Policy A's (blue) clients now have seeds of their \
                own.{end} {if B.shared=off}Policy B's (orange) clients each have their \
                own.{else}Policy B's (orange) clients now share one.{end} Success: {A.success} for A, \
                {B.success} for B.",
        ),
        link: "v=1&compare=on&attempts=8&base=0.2&cap=10&timeout=0&workload=crowd&clients=2000&horizon=30&buckets=300&failure=0&outage_at=0&outage_for=5&workers=100&queue=200&shared=on&B.shared=off",
        key_chart: ChartId::Load,
        headline: &[Metric::Success, Metric::LoadAmplification],
        open: &[Group::Policy, Group::Randomness],
        try_this: &[TryThis {
            label: Text("Give A's clients their own seeds"),
            change: "shared=off",
            expect: rises(Metric::Success, Side::A),
        }],
    },
    Preset {
        key: "storm",
        title: Text("The retry storm that never ends"),
        lesson: Text(
            "Requests at {rate}, a {spike_for} spike to {spike}, and a server that slows as work \
                piles up and works on for clients that gave up. {if attempts=1}Policy A (blue) now \
                makes one attempt and never retries{if A.stays_broken}, yet the server stays collapsed \
                long after the spike{end}{if A.recovers}, and the system recovers{end}.{else}{if \
                shape=constant}{if timeout=0}Policy A (blue) sets no timeout, so it retries only a \
                request that failed, {base} after it{else}Policy A (blue) retries {base} after its \
                {timeout} timeout{end}{if A.stays_broken}: requests pile up and keep the server \
                collapsed long after the spike{end}{if A.recovers}, and the server recovers after the \
                spike{end}.{else}Policy A (blue) now has {shape} backoff from {base}{if \
                A.stays_broken}, and the server still stays collapsed long after the spike{end}{if \
                A.recovers}, and the system recovers{end}.{end}{end} {if B.attempts=1}Policy B \
                (orange) now makes one attempt and never retries{if B.recovers}, and the system \
                recovers{end}{if B.stays_broken}, yet the server stays collapsed long after the \
                spike{end}.{else}{if B.shape=exponential}Policy B (orange) backs off exponentially \
                from {B.base}{if B.jitter!=none} with {B.jitter} jitter{end}{if B.recovers}, and the \
                system recovers{end}{if B.stays_broken}, yet the server stays collapsed long after the \
                spike{end}.{else}Policy B (orange) now has {B.shape} backoff from {B.base}.{end}{end} \
                Goodput: {A.goodput} for A, {B.goodput} for B: {A.success} and {B.success} of the \
                operations offered succeed.",
        ),
        link: "v=1&compare=on&attempts=3&shape=constant&base=0.001&jitter=none&timeout=3&rate=40&spike=80&spike_for=5&horizon=80&buckets=160&failure=0&workers=0&service=constant&service_t=1&slope=0.01&hop_mean=0.1&B.shape=exponential&B.base=20&B.cap=1000&B.jitter=full",
        key_chart: ChartId::Mechanism,
        headline: &[Metric::Goodput, Metric::LoadAmplification],
        open: &[Group::Policy, Group::Server],
        try_this: &[TryThis {
            label: Text("Give A B's backoff"),
            change: "shape=exponential&base=20&cap=1000&jitter=full",
            expect: rises(Metric::Goodput, Side::A),
        }],
    },
    Preset {
        key: "budget",
        title: Text("The budget that saves the day"),
        lesson: Text(
            "{if A.amplified}The same storm.{else}No storm here: A sends about what is \
                 offered.{end} {if budget=none}Policy A (blue) has no budget.{else}Policy A (blue) now has \
                 {budget}.{end} {if B.budget=ratio&B.b_basis=requests}Policy B (orange) may retry {B.b_pct%} \
                 of the requests of the last {B.b_window}, plus a floor of {B.b_floor}: at {rate} that is at most \
                 {B.budget_bound} calls per operation; here {B.load}.{else}Policy B (orange) now has \
                 {B.budget}: {B.load} calls per operation.{end} A makes {A.load}; goodput is {A.goodput} for \
                 A, {B.goodput} for B.",
        ),
        link: "v=1&compare=on&attempts=3&shape=constant&base=0.001&jitter=none&timeout=3&rate=40&spike=80&spike_for=5&horizon=80&buckets=160&failure=0&workers=0&service=constant&service_t=1&slope=0.01&hop_mean=0.1&B.budget=ratio&B.b_floor=1&B.b_basis=requests",
        key_chart: ChartId::Load,
        headline: &[Metric::LoadAmplification, Metric::Goodput],
        open: &[Group::Budget],
        try_this: &[TryThis {
            label: Text("Give B gRPC's token bucket instead"),
            change: "B.budget=token-bucket",
            expect: falls(Metric::LoadAmplification, Side::B),
        }],
    },
    Preset {
        key: "layers",
        title: Text("3 x 3 x 3 = 27"),
        lesson: Text(
            "{layers} services in a chain, each making up to {attempts} attempts, before a dependency that \
                 {if failure=1}always fails{else}fails {failure%} of calls{end}. {if top_only=off}With policy A \
                 (blue) every layer retries: {A.bottom_calls} calls at the bottom per user request.{else}Policy \
                 A (blue) now retries at the top only: {A.bottom_calls}.{end} {if B.top_only=on}With policy B \
                 (orange) only the top layer retries: {B.bottom_calls}.{else}Policy B (orange) now retries in \
                 every layer: {B.bottom_calls}.{end}",
        ),
        link: "v=1&compare=on&attempts=3&rate=10&horizon=20&buckets=80&failure=1&workers=0&layers=3&B.top_only=on",
        key_chart: ChartId::Load,
        headline: &[Metric::BottomCalls, Metric::Success],
        open: &[Group::Layers, Group::Policy],
        try_this: &[TryThis {
            label: Text("Let only A's top layer retry"),
            change: "top_only=on",
            expect: falls(Metric::BottomCalls, Side::A),
        }],
    },
    Preset {
        key: "orphans",
        title: Text("The caller gave up; the service below did not"),
        lesson: Text(
            "{if layers=1}One service calls{else}{layers} services in a chain call{end} a database \
                {if slow_for>0}that from {slow_at}, for {slow_for}, takes {slow_x} as long as its \
                usual {service_t}{else}that answers in {service_t}{end}. {if layers=1}The service \
                gives up on the database after {timeout}{else}{if call_timeout>0}The top gives up \
                on its call below after {call_timeout}{else}The top waits for its call below to \
                answer{end}, and the last service gives up on the database after {timeout}{end}; \
                {if layers=1}it tries{else}the top tries{end} a call up to {attempts} times. {if \
                pass_deadline=off}Policy A (blue) keeps its deadline to itself{if A.orphans}: a call \
                it gave up on goes on below, retrying the database for nobody{end}: \
                {A.bottom_calls} database calls per request.{else}Policy A (blue) now passes its \
                deadline down: {A.bottom_calls} database calls per request.{end} {if \
                B.pass_deadline=on}Policy B (orange) passes what is left of its patience down with \
                each call, and {if B.layers=1}the database stops serving when its caller gives \
                up{else}the services below stop when their caller does{end}: \
                {B.bottom_calls}.{else}Policy B (orange) now keeps its deadline to itself: \
                {B.bottom_calls}.{end} Success: {A.success} for A, {B.success} for B.",
        ),
        link: "v=1&compare=on&attempts=3&shape=constant&base=0.05&jitter=none&timeout=0.4&rate=20&horizon=30&buckets=120&failure=0&workers=2&queue=1000&service=constant&service_t=0.01&slow_at=10&slow_for=5&slow_x=50&layers=2&call_timeout=0.4&B.pass_deadline=on",
        key_chart: ChartId::Load,
        headline: &[Metric::BottomCalls, Metric::Success],
        open: &[Group::Layers, Group::Policy],
        try_this: &[TryThis {
            label: Text("Let A pass its deadline down too"),
            change: "pass_deadline=on",
            expect: falls(Metric::BottomCalls, Side::A),
        }],
    },
    Preset {
        key: "fan-out",
        title: Text("Fan-out: the backend's p99 becomes the median"),
        lesson: Text(
            "Every request asks {fan_out} {fan_out|backend|backends} at once{if \
                fan_out!=B.fan_out} under policy A (blue), {B.fan_out} under policy B \
                (orange){end}, and waits for the slowest answer. {if service!=constant}One call in \
                a hundred takes longer than the backends' own p99 of {own_p99}; a request that \
                waits for {fan_out} {fan_out|call|calls} meets at least one of them {past_p99} of \
                the time{if fan_out!=B.fan_out}; with {B.fan_out}, \
                {B.past_p99}{end}.{else}Every call takes {service_t}.{end}{if hedge=on} Policy A \
                hedges each call: after {hedge_delay} without an answer a copy goes to another \
                backend, and the first answer counts.{end}{if B.hedge=on} Policy B hedges each \
                call after {B.hedge_delay}.{end} Median and p99: {A.p50} and {A.p99} for A, \
                {B.p50} and {B.p99} for B.",
        ),
        link: "v=1&compare=on&timeout=0&horizon=30&buckets=120&failure=0&workers=0&service=lognormal&service_p50=0.01&service_p99=0.1&hop_mean=0&fan_out=100&B.fan_out=10",
        key_chart: ChartId::Latency,
        headline: &[Metric::P50, Metric::P99],
        open: &[Group::Layers, Group::Server],
        try_this: &[
            TryThis {
                label: Text("Let A wait for {fan_out} calls"),
                change: "fan_out=10",
                expect: falls(Metric::P50, Side::A),
            },
            TryThis {
                label: Text("Let A hedge each call after {hedge_delay}"),
                change: "hedge=on&hedge_delay=0.05&B.hedge=off",
                expect: falls(Metric::P99, Side::A),
            },
        ],
    },
    Preset {
        key: "lost-response",
        title: Text("The lost response without an idempotency key"),
        lesson: Text(
            "The server does the work, but {lost%} of its answers are lost; {if timeout=0}the \
                client sets no timeout, so it waits for a lost answer to the end of the run and never \
                retries{else}{if attempts=1}the client times out after {timeout} and, with one \
                attempt, does not retry{else}the client times out after {timeout} and \
                retries{end}{end}. {if idem=off}Policy A (blue) sends no idempotency key{if \
                timeout!=0&attempts>=2}: each such retry runs the action again, a second \
                shipment{end}.{else}Policy A (blue) now sends a key too.{end} {if B.idem=on}Policy B \
                (orange) sends one key for all attempts, and the server answers a retry without acting \
                twice.{else}Policy B (orange) now sends no key.{end} Duplicates: {A.duplicates} for A, \
                {B.duplicates} for B; success {A.success} and {B.success}.",
        ),
        link: "v=1&compare=on&timeout=0.5&idem=off&rate=50&horizon=30&buckets=120&failure=0&workers=0&lost=0.2&B.idem=on",
        key_chart: ChartId::Load,
        headline: &[Metric::Duplicates, Metric::Success],
        open: &[Group::Policy],
        try_this: &[TryThis {
            label: Text("Send a key from A too"),
            change: "idem=on",
            expect: falls(Metric::Duplicates, Side::A),
        }],
    },
    Preset {
        key: "deadline",
        title: Text("The deadline that eats the retries"),
        lesson: Text(
            "{if deadline!=0}The user waits at most {deadline}{else}The user waits{end}, and \
                {lost%} of the server's answers are lost. {if timeout=0&deadline=0}Policy A (blue) now \
                has neither a deadline nor a timeout: it waits for a lost answer to the end of the \
                run.{else}{if timeout=0}Policy A (blue) sets no timeout on an attempt: a lost answer \
                eats the whole deadline and no retry ever starts.{else}{if \
                timeout>=deadline&deadline!=0}Policy A (blue) waits up to {timeout} for each attempt: \
                a lost answer eats the whole deadline and no retry ever starts.{else}{if \
                attempts=1}Policy A (blue) now gives up on an attempt after {timeout} and makes no \
                other.{else}Policy A (blue) now gives up on an attempt after {timeout}, leaving time \
                to retry.{end}{end}{end}{end} {if B.timeout=0&B.deadline=0}Policy B (orange) now has \
                neither a deadline nor a timeout: it waits for a lost answer to the end of the \
                run.{else}{if B.deadline=0}Policy B (orange) now has no deadline{if B.attempts=1}, p99 \
                {B.p99}{else}: its retries may run past it, p99 {B.p99}{end}.{else}{if \
                B.timeout=0}Policy B (orange) sets no timeout on an attempt: a lost answer eats its \
                whole {B.deadline}.{else}{if B.timeout>=B.deadline}Policy B (orange) waits up to \
                {B.timeout} for each attempt: a lost answer eats its whole {B.deadline}.{else}{if \
                B.attempts=1}Policy B (orange) gives up on an attempt after {B.timeout} and makes no \
                other.{else}Policy B (orange) gives up on an attempt after {B.timeout}, leaving time \
                to retry within its {B.deadline}.{end}{end}{end}{end}{end} Success: {A.success} for A, \
                {B.success} for B.",
        ),
        link: "v=1&compare=on&timeout=2&deadline=2&rate=20&horizon=20&buckets=80&failure=0&workers=0&lost=0.5&B.timeout=0.4",
        key_chart: ChartId::Latency,
        headline: &[Metric::Success, Metric::P99],
        open: &[Group::Policy],
        try_this: &[
            TryThis {
                label: Text("Give A the {timeout} timeout"),
                change: "timeout=0.4",
                expect: rises(Metric::Success, Side::A),
            },
            TryThis {
                label: Text("Take B's deadline away"),
                change: "B.deadline=0",
                expect: rises(Metric::P99, Side::B),
            },
        ],
    },
    Preset {
        key: "contention",
        title: Text("Contention, as in the AWS 2015 post"),
        lesson: Text(
            "{clients} clients update one row by optimistic concurrency (read it, write it unless someone \
                 wrote first, else back off and start over); a network hop takes about {hop_mean}. The chart \
                 runs each backoff over {grid_seeds} seeds, as the AWS post did: on average full jitter makes \
                 the fewest calls, and exponential backoff without jitter takes by far the longest; one seed \
                 can disagree. The numbers beside it are this page's policy, {shape} backoff {if \
                 jitter=none}without jitter{else}with {jitter} jitter{end}.",
        ),
        link: "v=1&attempts=50&base=0.01&cap=2&workload=contention&clients=50&horizon=10&buckets=200&hop=normal&hop_mean=0.01",
        key_chart: ChartId::Contention,
        headline: &[Metric::Calls, Metric::Completion],
        open: &[Group::Policy, Group::Workload],
        try_this: &[TryThis {
            label: Text("Take the jitter away"),
            change: "jitter=none",
            expect: rises(Metric::Completion, Side::A),
        }],
    },
    Preset {
        key: "classic",
        title: Text("Token bucket or circuit breaker? Success against load"),
        lesson: Text(
            "The sweep chart reruns this world at every failure rate for four strategies: no retries, \
                 {classic_retries} retries, {classic_retries} under a gRPC token bucket, and {classic_retries} \
                 behind a breaker on retries only. Retries buy success while failures are rare; when the \
                 dependency is down, plain retries multiply the load while the bucket and the breaker stay \
                 near one call per operation. The numbers beside it are this page's policy at this world's \
                 {failure%} failures.",
        ),
        link: "v=1&timeout=0&rate=200&horizon=20&sweep=classic&buckets=80&workers=0",
        key_chart: ChartId::Sweep,
        headline: &[Metric::Success, Metric::LoadAmplification],
        open: &[Group::Server, Group::Budget],
        try_this: &[TryThis {
            label: Text("Make the dependency fail {failure%} of calls"),
            change: "failure=0.9",
            expect: rises(Metric::LoadAmplification, Side::A),
        }],
    },
    Preset {
        key: "aws-sdk",
        title: Text("What production defaults do: AWS SDK standard mode"),
        lesson: Text(
            "The AWS SDK's standard mode: {attempts} attempts, {jitter} jitter from {base} up to {cap}, and a \
                 retry quota. {if budget=aws-quota}Policy A (blue) has the quota, {quota} tokens, {q_cost} a \
                 retry and {q_tcost} after a timeout, refunded by successes: in the {outage_for} outage it runs \
                 dry after at most {quota_retries} retries, and the client fails fast instead of piling \
                 on.{else}Policy A (blue) now has {budget}.{end} {if B.budget=none}Policy B (orange) is the \
                 same client without the quota.{else}Policy B (orange) now has {B.budget} too.{end} Calls per \
                 operation: {A.load} for A, {B.load} for B.",
        ),
        link: "v=1&compare=on&attempts=3&base=0.05&cap=20&budget=aws-quota&q_cost=14&q_tcost=14&failure=0.01&outage_at=20&outage_for=20&B.budget=none",
        key_chart: ChartId::Mechanism,
        headline: &[
            Metric::LoadAmplification,
            Metric::BudgetRefusals,
            Metric::Success,
        ],
        open: &[Group::Budget, Group::Policy],
        try_this: &[TryThis {
            label: Text("Give B the quota too"),
            change: "B.budget=aws-quota",
            expect: falls(Metric::LoadAmplification, Side::B),
        }],
    },
    Preset {
        key: "grpc",
        title: Text("What production defaults do: gRPC retry throttling"),
        lesson: Text(
            "gRPC's retry throttling: a bucket of tokens; a failure takes one, a success puts some back, and \
                 retries go out only above half. {if budget=token-bucket}Policy A (blue) has the bucket, \
                 {tokens} tokens and {t_ratio} back a success: in the {outage_for} outage retries stop after \
                 {bucket_failures} failures, and successes slowly earn them back.{else}Policy A (blue) now has \
                 {budget}.{end} {if B.budget=none}Policy B (orange) is the same client without it.{else}Policy \
                 B (orange) now has {B.budget} too.{end} Calls per operation: {A.load} for A, {B.load} for \
                 B.",
        ),
        link: "v=1&compare=on&attempts=5&cap=5&jitter=proportional&budget=token-bucket&failure=0.01&outage_at=20&outage_for=20&B.budget=none",
        key_chart: ChartId::Mechanism,
        headline: &[
            Metric::LoadAmplification,
            Metric::BudgetRefusals,
            Metric::Success,
        ],
        open: &[Group::Budget, Group::Policy],
        try_this: &[TryThis {
            label: Text("Give B the bucket too"),
            change: "B.budget=token-bucket",
            expect: falls(Metric::LoadAmplification, Side::B),
        }],
    },
    Preset {
        key: "why-retry",
        title: Text("Why retry at all: a flaky dependency"),
        lesson: Text(
            "A dependency fails {failure%} of calls{if failure<1}, each call independently of \
                 the others, so a retry fails no more often than a first try{end}{if permanent>0}; \
                 {permanent%} of its failures are Bad Request, which no retry cures{end}. {if attempts=1}Policy A (blue) \
                 never retries: {A.success} of its operations succeed.{else}Policy A (blue) now \
                 makes up to {attempts} attempts{if retry_on=everything}, retrying every error, a Bad \
                 Request included{end}{if retry_on=connection}, retrying only lost connections{end}: {A.success} succeed, at {A.load} calls per \
                 operation.{end} {if B.attempts=1}Policy B (orange) now never retries either: \
                 {B.success} succeed.{else}Policy B (orange) makes up to {B.attempts} attempts and \
                 {if permanent>0}stops at a Bad Request or when every one of them fails{else}fails only \
                 when every one of them fails{end}: {B.success} succeed, at {B.load} calls \
                 per operation{if failure=1}: when nothing can succeed, every retry is pure extra \
                 load{end}.{end} The sweep chart reruns this world at every failure rate; the mark \
                 shows this one.",
        ),

        link: "v=1&compare=on&attempts=1&timeout=0&rate=20&horizon=30&buckets=60&failure=0.2&workers=0&B.attempts=3",
        key_chart: ChartId::Sweep,
        headline: &[Metric::Success, Metric::LoadAmplification],
        open: &[Group::Policy, Group::Server],
        try_this: &[TryThis {
            label: Text("Let A make {attempts} attempts too"),
            change: "attempts=3",
            expect: rises(Metric::Success, Side::A),
        }],
    },
    Preset {
        key: "timeout",
        title: Text("The timeout below the p99"),
        lesson: Text(
            "The dependency takes {own_mean} on average to answer and about {own_p99} at its \
                p99, the time only one call in a hundred exceeds; {if workers!=0}first tries alone \
                keep its {workers} workers {busy} busy.{else}its workers are unlimited.{end} {if \
                timeout=0}Policy A (blue) now has no timeout: {A.load} calls per operation, success \
                {A.success}.{else}{if timeout<own_p99}Policy A (blue) gives up on an attempt \
                after {timeout}, below that p99: {if A.amplified}calls that were going to succeed \
                are cut off and retried while the server still does the abandoned work, so the load \
                grows to {A.load} calls per operation{else}so few calls take that long that the \
                retries add little, {A.load} calls per operation{end}{if A.fails}, and success falls \
                to {A.success}{end}{if A.succeeds}, and success stays at \
                {A.success}{end}.{else}Policy A (blue) now waits {timeout}, at or above that p99: \
                {A.load} calls per operation, success {A.success}.{end}{end} {if B.timeout=0}Policy \
                B (orange) now has no timeout{else}{if B.timeout>=own_p99}Policy B (orange) \
                waits {B.timeout}, the p99 plus a margin{else}Policy B (orange) now waits only \
                {B.timeout}, below that p99{end}{end}: {B.load} calls per operation, success \
                {B.success}.",
        ),

        link: "v=1&compare=on&attempts=3&timeout=0.35&horizon=30&buckets=120&failure=0&workers=50&service=normal&service_t=0.3&service_sd=0.1&B.timeout=0.7",
        key_chart: ChartId::Load,
        headline: &[Metric::Success, Metric::LoadAmplification],
        open: &[Group::Policy, Group::Server],
        try_this: &[TryThis {
            label: Text("Give A a timeout of {timeout}"),
            change: "timeout=0.7",
            expect: rises(Metric::Success, Side::A),
        }],
    },
    Preset {
        key: "long-tail",
        title: Text("A timeout from the mean of a long tail"),
        lesson: Text(
            "The dependency's median is {service_p50} and its p99 {own_p99}{if \
                service_p99<service_p50}, the median itself (a p99 set below the median is served \
                as the median): no tail at all{else}: a long tail, whose slow calls pull the mean up \
                to {own_mean}{end}.{if workers!=0} First \
                tries alone keep its {workers} workers {busy} busy.{end} {if timeout=0}Policy A \
                (blue) now has no timeout: {A.load} calls per operation, success {A.success}.\
                {else}{if timeout<own_p99}Policy A (blue) gives up after {timeout}, below the \
                p99{if A.amplified}: calls that were going to succeed are cut off and retried \
                while the server still works on them, so the load grows to {A.load} calls per \
                operation and {A.wasted} of the server's work is wasted{else}: {A.load} calls \
                per operation{end}{if A.fails}, and success falls to {A.success}{end}{if \
                A.succeeds}, and success stays at {A.success}{end}.{else}Policy A (blue) now \
                waits {timeout}, at or above the p99: {A.load} calls per operation, success \
                {A.success}.{end}{end} {if B.timeout=0}Policy B (orange) now has no \
                timeout{else}{if B.timeout>=own_p99}Policy B (orange) waits {B.timeout}, at or \
                above the p99{else}Policy B (orange) now waits only {B.timeout}, below the \
                p99{end}{end}: {B.load} calls per operation, success {B.success}.",
        ),
        link: "v=1&compare=on&attempts=3&timeout=0.33&horizon=30&buckets=120&failure=0&workers=100&service=lognormal&service_p50=0.2&service_p99=2&hop_mean=0&B.timeout=2",
        key_chart: ChartId::Load,
        headline: &[Metric::LoadAmplification, Metric::WastedWork],
        open: &[Group::Policy, Group::Server],
        try_this: &[
            TryThis {
                label: Text("Give A a timeout of {timeout}"),
                change: "timeout=2",
                expect: falls(Metric::LoadAmplification, Side::A),
            },
            TryThis {
                label: Text("Double the traffic to {rate}"),
                change: "rate=200",
                expect: rises(Metric::LoadAmplification, Side::A),
            },
        ],
    },
    Preset {
        key: "at-scale",
        title: Text("A breaker and a bucket in every client instance"),
        lesson: Text(
            "Calls arrive at {rate} in all, shared out among {instances} client instances, each \
                keeping its own state; the dependency fails {failure%} of calls, and each operation \
                makes up to {attempts} attempts. {if breaker=off}Policy A (blue) now has no breaker: \
                {A.load} calls per operation.{else}{if cb_min=1}Policy A (blue) has a breaker in \
                each instance that stops retries once {cb_ratio%} of the instance's calls failed: \
                with so little traffic each trips at its first failure, and the client behaves as if \
                it never retried: {A.load} calls per operation, success {A.success}.{else}Policy A \
                (blue) now needs {cb_min} calls before its breaker may open: {A.load} calls per \
                operation, success {A.success}.{end}{end} {if B.budget=bucket}Policy B (orange) has \
                a token bucket in each instance, {B.bk_size} tokens to start with and {B.bk_deposit} \
                more for each first try: {if B.budget_pays}the starting tokens pay for nearly every \
                retry an instance this quiet makes{else}each instance's share of the traffic spends \
                its starting tokens, and the buckets refuse {B.refusals} retries{end}, {B.load} \
                calls per operation, success {B.success}.{else}Policy B (orange) now has {B.budget}: \
                {B.load} calls per operation.{end} The sweep reruns both at every failure rate over \
                three instance counts, each a paler or deeper tone of the policy's colour.",
        ),
        link: "v=1&compare=on&shape=constant&base=0.001&jitter=none&timeout=0&breaker=retries&cb_ratio=0.1&cb_min=1&cb_cool=10&instances=1000&horizon=10&sweep=instances&failure=0.5&workers=0&B.budget=bucket&B.breaker=off",
        key_chart: ChartId::Sweep,
        headline: &[Metric::Success, Metric::LoadAmplification],
        open: &[Group::Budget, Group::Workload],
        try_this: &[TryThis {
            label: Text("Let A's breaker open only after {cb_min} calls"),
            change: "cb_min=100",
            expect: rises(Metric::LoadAmplification, Side::A),
        }],
    },
    Preset {
        key: "closed-loop",
        title: Text("What backoff is for: clients that wait for their answers"),
        lesson: Text(
            "{if workload=closed}{clients} clients each start their next operation about \
                 {think} after their last one ended: a closed loop, in which a client still \
                 waiting to retry starts nothing new.{else}Operations now arrive at {rate} \
                 whatever became of the earlier ones: an open loop.{end} The dependency is down \
                 for {outage_for}, and each operation makes up to {attempts} attempts. {if \
                 shape=constant}Policy A (blue) retries {base} after each failure{else}Policy A \
                 (blue) now backs off {shape}{end}; {if B.shape=constant}policy B (orange) now \
                 retries after a fixed pause too{else}policy B (orange) backs off exponentially \
                 from {B.base} with {B.jitter} jitter{end}. Calls to the dependency: {A.calls} \
                 from A, {B.calls} from B.{if workload=closed}{if shape=constant}{if \
                 B.shape!=constant} While it is down, A's clients come straight back and hammer \
                 it{if B.ahead_calls}; B's wait out their pauses, and so send less{end}.{end}{end}{else} Backoff moves \
                 each retry later but takes none away: the same arrivals bring the same load \
                 either way.{end}",
        ),
        link: "v=1&compare=on&shape=constant&base=0.01&jitter=none&timeout=0&workload=closed&clients=50&failure=0&outage_at=20&outage_for=20&workers=0&B.shape=exponential&B.base=1&B.cap=10&B.jitter=full",
        key_chart: ChartId::Load,
        headline: &[Metric::Calls, Metric::Success],
        open: &[Group::Workload, Group::Policy],
        try_this: &[TryThis {
            label: Text("Make it an open loop: arrivals at {rate}"),
            change: "workload=poisson&rate=47",
            expect: rises(Metric::Calls, Side::B),
        }],
    },
    Preset {
        key: "throttle",
        title: Text("Throttling first tries: the SRE book's client-side throttling"),
        lesson: Text(
            "Requests arrive at {rate} at a server of {workers} workers taking {own_mean} a \
                request on average, which queues up to {queue} and works on requests whose clients \
                gave up: first tries alone would keep it {busy} busy{if busy>=1}, more than it can \
                serve, so no limit on retries alone can save it{end}. {if budget=ratio}Policy A \
                (blue) has a retry budget of {b_pct%} of its requests: every first try still goes \
                out{if A.wastes}, the queue fills with work nobody waits for,{end} and {A.success} \
                succeed.{else}Policy A (blue) now has {budget}: {A.success} succeed.{end} {if \
                B.budget=sre}Policy B (orange) throttles itself as the SRE book says: each client \
                rejects a request, first tries too, while it sends more than {B.sre_k} what the \
                server accepts. Those rejections are the client's own decision, not server failures: \
                {B.load} calls per operation reach the server, and {B.success} succeed.{else}Policy \
                B (orange) now has {B.budget}: {B.load} calls per operation, {B.success} \
                succeed.{end}",
        ),
        link: "v=1&compare=on&attempts=3&budget=ratio&rate=150&failure=0&workers=10&queue=1000&service_t=0.1&B.budget=sre",
        key_chart: ChartId::Load,
        headline: &[Metric::Success, Metric::LoadAmplification],
        open: &[Group::Budget, Group::Server],
        try_this: &[TryThis {
            label: Text("Let B's clients send {B.sre_k} what the server accepts"),
            change: "B.sre_k=4",
            expect: falls(Metric::Success, Side::B),
        }],
    },
    Preset {
        key: "polly",
        title: Text("What production defaults do: Polly v8 and resilience4j retry in lockstep"),
        lesson: Text(
            "{clients} clients fail together while the server is down for {outage_for}. {if \
                jitter=none&shape=constant}Policy A (blue) retries {if attempts=4&base=2}as Polly v8 \
                does out of the box (its RetryStrategyOptions){else}{if attempts=3&base=0.5}as \
                resilience4j does out of the box (its RetryConfig){else}without jitter{end}{end}: \
                {attempts} attempts a constant {base} apart, so every client's retries land \
                together, wave after wave.{else}Policy A (blue) now {if jitter=none}backs off \
                {shape} without jitter{else}has {jitter} jitter{end}.{end} {if B.jitter=polly}Policy \
                B (orange) turns on Polly's UseJitter{if B.shape=exponential} with exponential \
                backoff from {B.base}: its DecorrelatedJitterBackoffV2 draws each pause from a curve \
                that doubles on average{if B.absorbs}, and the waves melt into a hump the server \
                absorbs{end}{else}, a quarter either way around its delay{end}.{else}Policy B \
                (orange) now has {B.jitter} jitter.{end} Success: {A.success} for A, {B.success} for \
                B.",
        ),
        link: "v=1&compare=on&shape=constant&base=2&cap=60&jitter=none&timeout=0&workload=crowd&clients=2000&horizon=30&buckets=300&failure=0&outage_at=0&outage_for=5&workers=100&queue=200&B.shape=exponential&B.jitter=polly",
        key_chart: ChartId::Load,
        headline: &[Metric::Success, Metric::P99],
        open: &[Group::Policy, Group::Server],
        try_this: &[TryThis {
            label: Text("Give A resilience4j's defaults: {attempts} attempts, {base} apart"),
            change: "attempts=3&base=0.5",
            expect: falls(Metric::Success, Side::A),
        }],
    },
    Preset {
        key: "envoy",
        title: Text("What production defaults do: Envoy's retries in flight"),
        lesson: Text(
            "Requests arrive at {rate} at a dependency that fails {failure%} of calls and answers \
                in about {service_t}; {if attempts=2}as Envoy does by default, each may be retried \
                once{else}each makes up to {attempts} attempts{end}, after a pause under {base}. {if \
                budget=envoy}{if ev_pct=0}Policy A (blue) has Envoy's default without a retry \
                budget, the circuit breaker's max_retries: at most {ev_min} retries in flight at \
                once, whatever the traffic, {if A.refuses_most}so most retries are refused and \
                success stays near what first tries alone give{else}a limit this traffic seldom \
                fills, so most retries go out{end}: {A.success}.{else}Policy A (blue) now lets \
                {ev_pct%} of the requests in flight be retries: success \
                {A.success}.{end}{else}Policy A (blue) now has {budget}: success {A.success}.{end} \
                {if B.budget=envoy}Policy B (orange) has Envoy's retry budget, retries in flight up \
                to {B.ev_pct%} of the requests in flight and at least {B.ev_min}: it grows with the \
                traffic, and {B.success} succeed.{else}Policy B (orange) now has {B.budget}: \
                {B.success} succeed.{end}",
        ),
        link: "v=1&compare=on&attempts=2&base=0.025&cap=0.25&timeout=0&budget=envoy&ev_pct=0&rate=1000&horizon=20&failure=0.2&workers=0&service_t=0.1&B.ev_pct=0.2",
        key_chart: ChartId::Load,
        headline: &[Metric::Success, Metric::LoadAmplification],
        open: &[Group::Budget, Group::Workload],
        try_this: &[TryThis {
            label: Text("Lower the traffic to {rate}"),
            change: "rate=50",
            expect: rises(Metric::Success, Side::A),
        }],
    },
    Preset {
        key: "finagle",
        title: Text("What production defaults do: Finagle's and Linkerd's retry budget"),
        lesson: Text(
            "Finagle's RetryBudget and Linkerd's ServiceProfile budget ship the same defaults: \
                 retries may be {B.b_pct%} of the requests of the last {B.b_window}, plus \
                 {B.b_floor} however few requests there are, which at little traffic is most \
                 of it. {if B.budget=ratio}Requests arrive \
                 at {rate}, and then comes a {outage_for} outage: policy B (orange) has the \
                 budget, which bounds its calls per operation in the outage by \
                 {B.budget_bound}; over the whole run, {B.load}.{else}Policy B \
                 (orange) now has {B.budget}: {B.load} calls per operation.{end} {if \
                 budget=none}Policy A (blue) is the same client without a budget: {A.load} \
                 calls per operation.{else}Policy A (blue) now has {budget}: {A.load} calls per \
                 operation.{end}",
        ),
        link: "v=1&compare=on&rate=20&failure=0.01&outage_at=20&outage_for=20&workers=0&B.budget=ratio&B.b_basis=requests",
        key_chart: ChartId::Load,
        headline: &[
            Metric::LoadAmplification,
            Metric::BudgetRefusals,
            Metric::Success,
        ],
        open: &[Group::Budget, Group::Workload],
        try_this: &[TryThis {
            label: Text("Raise the traffic to {rate}"),
            change: "rate=200",
            expect: falls(Metric::LoadAmplification, Side::B),
        }],
    },
    Preset {
        key: "aws-2026",
        title: Text("What production defaults do: AWS SDK standard mode before and since 2026"),
        lesson: Text(
            "The AWS SDK's standard mode has new defaults, the ones current botocore turns on \
                 by default. Both policies make {attempts} \
                 attempts with full jitter under ceilings that double up to {cap}, and keep a \
                 retry quota of {quota} tokens refunded by successes. Policy A (blue) has the \
                 defaults before: ceilings from {base}, {q_cost} tokens a retry and {q_tcost} \
                 after a timeout, so the quota pays for {quota_retries} retries in the \
                 {outage_for} outage. Policy B (orange) has today's: ceilings from {B.base} for \
                 an error that is not a throttle, {B.q_cost} tokens a retry, timeouts included, \
                 so {B.quota_retries} retries. The one rare failure in a hundred is retried \
                 sooner: latency p99 {A.p99} for A, {B.p99} for B.",
        ),
        link: "v=1&compare=on&attempts=3&base=1&cap=20&budget=aws-quota&failure=0.01&outage_at=20&outage_for=20&B.base=0.05&B.q_cost=14&B.q_tcost=14",
        key_chart: ChartId::Latency,
        headline: &[
            Metric::P99,
            Metric::LoadAmplification,
            Metric::BudgetRefusals,
        ],
        open: &[Group::Budget, Group::Policy],
        try_this: &[TryThis {
            label: Text("Give A today's base of {base}"),
            change: "base=0.05",
            expect: falls(Metric::P99, Side::A),
        }],
    },
    Preset {
        key: "hedge",
        title: Text("Hedged requests cut the tail"),
        lesson: Text(
            "A dependency answers in {own_mean} on average, {if service=constant}every call \
                alike{else}some calls far slower than others ({if service=exponential}exponentially \
                spread: {end}one in twenty takes over {own_p95}){end}, from {workers} \
                workers that first tries alone keep {busy} busy. {if hedge=off}Policy A (blue) sends \
                each call once.{else}Policy A (blue) now hedges too.{end} {if B.hedge=on}Policy B \
                (orange) sends a second copy when no answer has come after {B.hedge_delay} and takes \
                the first answer: {if B.ahead_p99}the slowest calls get a second chance, and the \
                tail is cut, latency p99 {A.p99} for A against {B.p99} for B, for {B.load} calls per \
                operation.{else}{if A.ahead_p99}the copies queue in front of everyone, and the tail \
                grows instead: latency p99 {A.p99} for A, {B.p99} for B, at {B.load} calls per \
                operation.{else}the copies gain about what they cost: latency p99 {A.p99} for A, \
                {B.p99} for B, at {B.load} calls per operation.{end}{end}{else}Policy B (orange) now \
                sends each call once too.{end}",
        ),
        link: "v=1&compare=on&attempts=1&timeout=0&rate=50&horizon=120&failure=0&workers=10&queue=10000&service_t=0.1&hop=constant&hop_mean=0&B.hedge=on&B.hedge_delay=0.3",
        key_chart: ChartId::Latency,
        headline: &[Metric::P99, Metric::LoadAmplification],
        open: &[Group::Policy, Group::Server],
        try_this: &[TryThis {
            label: Text("Bring the load near capacity: {rate}"),
            change: "rate=90",
            expect: rises(Metric::P99, Side::B),
        }],
    },
    Preset {
        key: "stability-sim",
        title: Text("One of two servers crashes: Stability Sim's metastable retries"),
        lesson: Text(
            "Stability Sim's metastable-retry example: requests arrive at {rate} at {servers} \
                servers behind a balancer, {workers} workers each, {own_mean} a request on average, \
                and clients time out after {timeout}. The first server crashes from {outage_at} for \
                {outage_for}, {if outage=fail-fast}refusing every request at once{else}holding every \
                request until its client times out{end}. {if \
                attempts=4&shape=constant&base=0.001}Policy A (blue) retries at once, up to \
                {attempts} attempts, as the example does{else}Policy A (blue) now has its own \
                retries{end}{if A.stays_broken&A.wastes}: {if outage=fail-fast}the retries bounced \
                off the crashed server pile onto the other, its queue outgrows the timeout{else}the \
                queues outgrow the timeout{end}, and the fleet stays collapsed long after the crash, \
                busy with requests nobody waits for{end}{if A.recovers}, and the fleet recovers \
                after the crash{end}: success {A.success}. {if B.budget=ratio}Policy B (orange) \
                backs off exponentially with {B.jitter} jitter under a retry budget of {B.b_pct%} of \
                its requests: success {B.success}.{else}Policy B (orange) now has {B.budget}: \
                success {B.success}.{end}",
        ),
        link: "v=1&compare=on&shape=constant&base=0.001&jitter=none&rate=70&buckets=120&failure=0&outage_at=5&outage_for=5&servers=2&fault_on=one&workers=5&queue=10000&service_t=0.1&B.shape=exponential&B.base=0.1&B.cap=10&B.jitter=full&B.budget=ratio&B.b_floor=1&B.b_basis=requests",
        key_chart: ChartId::Load,
        headline: &[Metric::Success, Metric::LoadAmplification],
        open: &[Group::Server, Group::Policy],
        try_this: &[TryThis {
            label: Text("Let the crashed server hang instead of refusing"),
            change: "outage=hang",
            expect: rises(Metric::Success, Side::A),
        }],
    },
    Preset {
        key: "trigger",
        title: Text("The trigger and the map: a capacity loss that outlives itself (OSDI 2022)"),
        lesson: Text(
            "The OSDI metastability experiment's trigger: {workers} workers of {service_t} a \
                request, {busy} busy with first tries, and clients that time out after {timeout}; at \
                {drop_at} the server loses {drop_lost} of its workers for {drop_for}. {if \
                attempts=5&shape=constant&base=0.001}Policy A (blue) retries at once{else}Policy A \
                (blue) has retries of its own now{end}{if A.stays_broken}: its queue outgrows the \
                timeout, and the world stays broken with its workers back{end}{if A.recovers}, and \
                the world recovers once its workers are back{end}: success {A.success}. {if \
                B.budget=ratio}Policy B (orange) backs off exponentially with {B.jitter} jitter \
                under a retry budget{if B.stays_broken}, and still the world stays broken{end}{if \
                B.recovers}, and the world recovers{end}: success {B.success}.{else}Policy B \
                (orange) now has {B.budget}: success {B.success}.{end} Each cell of the map is a \
                trigger, longer to the right, deeper up: the long, deep ones are those a world may \
                never recover from. Click one to open it.",
        ),
        link: "v=1&compare=on&attempts=5&shape=constant&base=0.001&jitter=none&rate=65&horizon=100&buckets=100&failure=0&workers=10&queue=1000&service_t=0.1&drop_for=10&drop_to=0.4&B.shape=exponential&B.base=0.1&B.cap=10&B.jitter=full&B.budget=ratio&B.b_floor=1&B.b_basis=requests",
        key_chart: ChartId::Map,
        headline: &[Metric::Success, Metric::LoadAmplification],
        open: &[Group::Server, Group::Policy],
        try_this: &[
            TryThis {
                label: Text("Shorten the capacity loss to {drop_for}"),
                change: "drop_for=2",
                expect: rises(Metric::Success, Side::A),
            },
            TryThis {
                label: Text("Lose a fifth of the workers, not three fifths"),
                change: "drop_to=0.8",
                expect: rises(Metric::Success, Side::A),
            },
        ],
    },
    Preset {
        key: "recover",
        title: Text("Recovering from a collapse: how long to turn the traffic away"),
        lesson: Text(
            "The trigger's world, policy A alone: {workers} workers of {service_t} a request, \
                {busy} busy with first tries, clients that time out after {timeout} and retry at \
                once{if drop_for>0}; at {drop_at} the server loses {drop_lost} of its workers for \
                {drop_for}{end}. {if spike_for>0}At {spike_at} the operators turn every new \
                request away for {spike_for}{if A.recovers}{if A.broken_before_gap}: long enough \
                for the queue to drain, and the world recovers{else}, after the world had already \
                come back, and it stays recovered{end}{end}{if A.stays_broken}: too short to {if A.queue_fills}drain a queue of \
                {queue}{if A.wastes} requests nobody waits for{end}{else}drain its queue{if \
                A.wastes} of requests nobody waits for{end}{end}, and the world stays broken{end}{else}No one \
                turns the traffic away{if A.stays_broken}, and the world stays broken{end}{end}: \
                success {A.success}.{if spike_for>0} The load chart shows the gap at the door \
                and what the retries do after it.{end}",
        ),
        link: "v=1&attempts=5&shape=constant&base=0.001&jitter=none&rate=65&spike=0&spike_at=50&spike_for=5&horizon=100&buckets=100&failure=0&workers=10&queue=1000&service_t=0.1&drop_for=10&drop_to=0.4",
        key_chart: ChartId::Load,
        headline: &[Metric::Success, Metric::LoadAmplification],
        open: &[Group::Workload, Group::Server],
        try_this: &[
            TryThis {
                label: Text("Turn the traffic away for {spike_for}"),
                change: "spike_for=15",
                expect: rises(Metric::Success, Side::A),
            },
            TryThis {
                label: Text("A queue of {queue}, not a thousand"),
                change: "queue=100",
                expect: rises(Metric::Success, Side::A),
            },
        ],
    },
    Preset {
        key: "shed",
        title: Text("Shed what nobody waits for"),
        lesson: Text(
            "Policy A alone: {workers} {workers|worker|workers} of {service_t} a request, {busy} \
                busy with the {rate} offered{if spike_for>0}, and from {spike_at}, for \
                {spike_for}, a spike to {spike}{end}. Callers give up after {timeout} and try \
                again, up to {attempts} times. {if queue_order=fifo}A free worker takes the \
                oldest waiting request{else}A free worker takes the newest waiting request{end}{if \
                shed_wait>0}, new requests are refused while the oldest has waited over \
                {shed_wait}{end}{if queue_timeout>0}, a request that waited over {queue_timeout} \
                is turned away unserved{end}{if drop_gone=on}, a request whose caller has gone is \
                dropped{end}{if A.stays_broken}: long after the spike {if A.wastes}the server \
                works on requests nobody waits for, {end}the retries keep the queue full, and the \
                world stays broken{end}{if A.recovers}: the queue empties soon after the \
                spike, and the world recovers{end}. Success: {A.success}; wasted work: \
                {A.wasted}.",
        ),
        link: "v=1&attempts=3&timeout=0.3&rate=80&spike=150&spike_for=5&horizon=40&buckets=160&failure=0&workers=1&queue=1000&service=constant&service_t=0.01",
        key_chart: ChartId::Load,
        headline: &[Metric::Success, Metric::WastedWork],
        open: &[Group::Server, Group::Workload],
        try_this: &[
            TryThis {
                label: Text("Serve the newest request first"),
                change: "queue_order=lifo",
                expect: rises(Metric::Success, Side::A),
            },
            TryThis {
                label: Text("Refuse new requests while the oldest has waited {shed_wait}"),
                change: "shed_wait=0.1",
                expect: rises(Metric::Success, Side::A),
            },
        ],
    },
    Preset {
        key: "reset-herd",
        title: Text("The herd a rate limit's reset makes"),
        lesson: Text(
            "{clients} clients start together{if rate_limit>0} against a rate limit of \
                {rate_limit} requests every {rate_window}{end}. {if A.held_at_reset}The rest are \
                turned away with a Retry-After that names the window's reset, the same instant for \
                every client. {if honour=off}Policy A (blue) ignores it{else}Policy A (blue) {if \
                hint_jitter>0&hint_cap>0&hint_jitter_at=before}adds up to {hint_jitter%} of the \
                wait at random, then caps it at {hint_cap}{else}{if hint_cap>0}caps the wait at \
                {hint_cap}{else}{if hint_jitter>0}waits as told{else}waits exactly as told{end}{end}{if hint_jitter>0}, then adds up to \
                {hint_jitter%} of it at random{end}{end}{end}{if compare=on}; policy B (orange) {if B.honour=off}ignores \
                it{else}{if B.hint_jitter>0&B.hint_cap>0&B.hint_jitter_at=before}adds up to \
                {B.hint_jitter%} of the wait at random, then caps it at {B.hint_cap}{else}{if \
                B.hint_cap>0}caps the wait at {B.hint_cap}{else}{if B.hint_jitter>0}waits as \
                told{else}waits exactly as told{end}{end}{if \
                B.hint_jitter>0}, then adds up to {B.hint_jitter%} of it at random{end}{end}{end}{end}. Of the retries sent between the first reset and the \
                next, {A.reset_herd} of A's{if compare=on}{if B.held_at_reset} and \
                {B.reset_herd} of B's{end}{end} go in the busiest tenth of a second.{else}No \
                Retry-After brings A's clients back together.{end} {if compare=on}Success: \
                {A.success} for A, {B.success} for B; server calls per operation: {A.load} and \
                {B.load}.{else}Success: {A.success}; server calls per operation: {A.load}.{end}",
        ),
        link: "v=1&compare=on&attempts=20&base=0.05&cap=0.5&timeout=0&workload=crowd&clients=3000&horizon=40&buckets=200&failure=0&rate_limit=500&rate_window=20&rate_hint=date&queue=50&B.hint_jitter=0.5",
        key_chart: ChartId::Load,
        headline: &[
            Metric::ResetHerd,
            Metric::Success,
            Metric::LoadAmplification,
        ],
        open: &[Group::Policy, Group::Server],
        try_this: &[
            TryThis {
                label: Text("Let A add up to {hint_jitter%} of the wait too"),
                change: "hint_jitter=0.5",
                expect: falls(Metric::ResetHerd, Side::A),
            },
            TryThis {
                label: Text("Cap B's wait at {B.hint_cap}, its jitter added before the cap"),
                change: "B.hint_cap=8&B.hint_jitter_at=before",
                expect: falls(Metric::Success, Side::B),
            },
        ],
    },
];

/// The preset `config` is, if any: the one none of whose settings it
/// changed (see [`changed_settings`]), so policy B's values do not count
/// while compare mode is off. Everything that asks which preset a state is
/// (the file names, the replay's opening moment) asks here.
pub fn matching(config: &Config) -> Option<&'static Preset> {
    PRESETS
        .iter()
        .find(|preset| changed_settings(preset, config) == 0)
}

/// How many settings differ between the preset and `config`: A's values,
/// and, while comparing, B's own differences from A. A change of A that B
/// merely follows is one change, not two, and B's values do not count while
/// compare mode is off.
pub fn changed_settings(preset: &Preset, config: &Config) -> usize {
    let from = preset.config();
    (0..PARAMS.len())
        .map(|i| {
            let a = from.value_at(i) != config.value_at(i);
            let own = |c: &Config| c.value_b_at(i) != c.value_at(i);
            let b = config.comparing()
                && from.value_b_at(i) != config.value_b_at(i)
                && (own(&from) || own(config));
            usize::from(a) + usize::from(b)
        })
        .sum()
}

/// What a link's `preset=` says when its word names no preset: here, not
/// with the course that reads the address, because the playground shows it
/// (and its Russian comes with the first screen's words).
pub fn no_preset(word: &str) -> String {
    retry_core::tf!("no preset '{word}'; ignored", word = word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_link_is_clean_and_canonical() {
        for preset in PRESETS {
            assert_eq!(Config::from_link(preset.link).1, [], "{}", preset.key);
            // Written exactly as the page would write it, so opening a preset
            // and copying the link gives the preset's own link back.
            assert_eq!(preset.config().to_link(), preset.link, "{}", preset.key);
        }
    }

    #[test]
    fn presets_are_distinct() {
        for (i, a) in PRESETS.iter().enumerate() {
            for b in &PRESETS[i + 1..] {
                assert_ne!(a.config(), b.config(), "{} and {}", a.key, b.key);
                assert_ne!(a.key, b.key);
            }
        }
    }
}
