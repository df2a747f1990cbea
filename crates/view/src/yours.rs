//! "Your system": the numbers a dashboard shows, service by service, read
//! into the world the simulator runs, and read back out of it.
//!
//! The form asks, from the top of the chain down: how many requests the
//! clients send and from how many instances; for each service between
//! them and the one at the bottom, the p50 and p99 of its own work on a
//! call, the share it fails by itself, its concurrency and its queue; and
//! for the service at the bottom, its latency p50 and p99 (a log-normal
//! through the two, as [`Law::service`] draws it), its errors and their
//! mix by status, its concurrency, queue and replicas. A service's
//! latency is its own: one on the way holds a call for its own work and
//! then while its calls below go on, which the simulator adds.
//!
//! Every value is untrusted text: what cannot be read, or cannot describe
//! a system (a negative rate, a p99 below the p50), is refused with a
//! message naming the field and keeps the value it had; what lies beyond
//! what the simulator takes is brought to its edge, said so. The world's
//! own faults go, as the stress report clears them: the form describes
//! the system on a normal day, and the stress report hits it.

use retry_analyses::stress::without_faults;
use retry_core::decimal::parse_f64;
use retry_core::words::Text;
use retry_core::{range, tf};
use retry_sim::config::{Config, Kind, P, SERVICE_SHAPES, WORKLOADS};
use retry_sim::link::Notice;
use retry_sim::sim::law::Law;
use retry_sim::sim::{ServiceShape, WorkloadKind};

/// The services between the clients and the bottom service the form
/// offers: layers 2 to 5, those with a server of their own in the table.
pub const MAX_BETWEEN: usize = range::OWN_POLICY_LAYERS;

/// Which part of the chain a field describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The clients at the top.
    Clients,
    /// The `n`th service between the clients and the bottom (1 at the
    /// top), layer `n + 1` of the chain.
    Between(usize),
    /// The service at the bottom, the chain's server.
    Service,
}

impl Part {
    /// The heading of the part's fields.
    pub fn heading(self) -> String {
        match self {
            Part::Clients => Text("Your clients").get().to_string(),
            Part::Between(n) => tf!("Service {n} on the way", n = n),
            Part::Service => Text("The service at the bottom").get().to_string(),
        }
    }
}

/// How a field writes a parameter's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    /// As the table does.
    Same,
    /// Seconds as milliseconds, as dashboards show latency.
    Millis,
    /// A share as a percentage.
    Percent,
    /// The chain's layers as the services between the clients and the
    /// bottom: one fewer.
    Between,
}

impl Unit {
    /// How many of the form's numbers make one of the table's.
    fn scale(self) -> f64 {
        match self {
            Unit::Same | Unit::Between => 1.0,
            Unit::Millis => 1000.0,
            Unit::Percent => 100.0,
        }
    }

    fn offset(self) -> f64 {
        if self == Unit::Between { 1.0 } else { 0.0 }
    }

    /// The form's number for a value of the table's.
    fn shown(self, value: f64) -> f64 {
        // Nine significant digits: 0.07 s is 70 ms, not 70.00000000000001.
        let shown = value * self.scale() - self.offset();
        parse_f64(&format!("{shown:.8e}")).unwrap_or(shown)
    }

    /// The table's value for a number of the form's.
    fn value(self, shown: f64) -> f64 {
        (shown + self.offset()) / self.scale()
    }

    fn word(self) -> &'static str {
        match self {
            Unit::Same | Unit::Between => "",
            Unit::Millis => Text("ms").get(),
            Unit::Percent => "%",
        }
    }
}

/// One number of the form.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    pub part: Part,
    pub p: P,
    pub label: Text,
    unit: Unit,
}

impl Field {
    /// The input's id, which the page gives it and reads it by.
    pub fn id(&self) -> String {
        format!("y-{}", self.p.param().key)
    }

    /// The unit the form writes the number in: `ms`, `%`, `/s`, none.
    pub fn unit(&self) -> &'static str {
        match self.unit {
            Unit::Same => self.p.param().unit.get(),
            unit => unit.word(),
        }
    }

    /// The range the form takes, in its own unit: the table's.
    /// (The chain's layers: as many as have a server of their own.)
    pub fn range(&self) -> (f64, f64) {
        let (low, high) = match self.p.param().kind {
            Kind::Number { min, max, .. } | Kind::Integer { min, max } => (min, max),
            Kind::Choice(..) => unreachable!("the form has no list"),
        };
        let high = if self.unit == Unit::Between {
            (MAX_BETWEEN + 1) as f64
        } else {
            high
        };
        (self.unit.shown(low), self.unit.shown(high))
    }

    /// Whether the number is whole.
    pub fn whole(&self) -> bool {
        matches!(self.p.param().kind, Kind::Integer { .. })
    }

    /// The form's text for this field's value in `config`.
    pub fn text(&self, config: &Config) -> String {
        let value = match self.p {
            // A world whose service is not yet a log-normal shows the
            // quantiles of the shape it has, so building changes nothing
            // a reader did not type.
            P::ServiceP50 => latency(config, 0.5),
            P::ServiceP99 => latency(config, 0.99),
            P::Mix503 | P::Mix429 | P::Mix500 | P::Mix400 => {
                let total: f64 = MIX.iter().map(|&p| config.get(p)).sum();
                if total > 0.0 {
                    config.get(self.p) / total
                } else {
                    0.0
                }
            }
            p => config.get(p),
        };
        format!("{}", self.unit.shown(value))
    }

    /// Who the field is in a message: its part and its label.
    fn name(&self) -> String {
        format!("{} \u{b7} {}", self.part.heading(), self.label.get())
    }
}

/// The law of `config`'s service.
fn service(config: &Config) -> Law {
    Law::service(&config.scenario().sanitized())
}

/// `value` to three significant digits, as a dashboard shows a time.
fn three_digits(value: f64) -> f64 {
    parse_f64(&format!("{value:.2e}")).unwrap_or(value)
}

/// The service's quantile `q`, seconds: a log-normal's as set, another
/// shape's to three digits, the log-normal the form offers in its place.
fn latency(config: &Config, q: f64) -> f64 {
    let exact = service(config).quantile(q);
    if config.service_shape() == ServiceShape::LogNormal {
        exact
    } else {
        three_digits(exact)
    }
}

/// The mix of the bottom service's errors, in the form's order.
const MIX: [P; 4] = [P::Mix503, P::Mix429, P::Mix500, P::Mix400];

/// Each service between's own latency p50 and p99, share failed,
/// concurrency and queue.
const BETWEEN: [[P; 5]; MAX_BETWEEN] = [
    between_service(0),
    between_service(1),
    between_service(2),
    between_service(3),
];

/// The fields of the service at `at` below the top (layer `at + 2`).
const fn between_service(at: usize) -> [P; 5] {
    [
        P::LAYER_WORK_P50S[at],
        P::LAYER_WORK_P99S[at],
        P::LAYER_FAILURES[at],
        P::LAYER_WORKERS[at],
        P::LAYER_QUEUES[at],
    ]
}

/// The form's fields, from the top of the chain down.
pub fn fields() -> Vec<Field> {
    let field = |part, p, label, unit| Field {
        part,
        p,
        label,
        unit,
    };
    let mut fields = vec![
        field(
            Part::Clients,
            P::Rate,
            Text("Requests per second"),
            Unit::Same,
        ),
        field(
            Part::Clients,
            P::Instances,
            Text("Client instances"),
            Unit::Same,
        ),
        field(
            Part::Clients,
            P::Layers,
            Text("Services between them and the bottom"),
            Unit::Between,
        ),
    ];
    for (n, [p50, p99, failure, workers, queue]) in BETWEEN.into_iter().enumerate() {
        let part = Part::Between(n + 1);
        fields.push(field(
            part,
            p50,
            Text("Own latency p50 (0: none)"),
            Unit::Millis,
        ));
        fields.push(field(part, p99, Text("Own latency p99"), Unit::Millis));
        fields.push(field(part, failure, Text("Errors"), Unit::Percent));
        fields.push(field(
            part,
            workers,
            Text("Concurrency (0: no limit)"),
            Unit::Same,
        ));
        fields.push(field(part, queue, Text("Queue"), Unit::Same));
    }
    let service = Part::Service;
    fields.extend([
        field(service, P::ServiceP50, Text("Latency p50"), Unit::Millis),
        field(service, P::ServiceP99, Text("Latency p99"), Unit::Millis),
        field(service, P::Failure, Text("Errors"), Unit::Percent),
        field(service, P::Mix503, Text("of them 503"), Unit::Percent),
        field(service, P::Mix429, Text("429"), Unit::Percent),
        field(service, P::Mix500, Text("other 5xx"), Unit::Percent),
        field(service, P::Mix400, Text("4xx"), Unit::Percent),
        field(
            service,
            P::Workers,
            Text("Concurrency per replica (0: no limit)"),
            Unit::Same,
        ),
        field(service, P::Queue, Text("Queue per replica"), Unit::Same),
        field(service, P::Servers, Text("Replicas"), Unit::Same),
    ]);
    fields
}

/// The services between the clients and the bottom whose fields `config`
/// uses: the form hides the rest.
pub fn between(config: &Config) -> usize {
    (config.get(P::Layers) as usize)
        .saturating_sub(1)
        .min(MAX_BETWEEN)
}

/// `config` as the form's entries describe it: each entry a field's id
/// and the text typed into it (fields not among them keep their values),
/// its faults gone, its arrivals Poisson and its service a log-normal.
/// Every entry that could not be used as typed has a notice, keyed by the
/// field's part and label.
pub fn build(config: &Config, entries: &[(String, String)]) -> (Config, Vec<Notice>) {
    let fields = fields();
    let mut next = without_faults(config);
    next.set(P::Workload, WORKLOADS.position(WorkloadKind::Poisson));
    // The log-normal through the quantiles the form shows for the world
    // now, unless it says otherwise below.
    next.set(P::ServiceP50, latency(config, 0.5));
    next.set(P::ServiceP99, latency(config, 0.99));
    next.set(P::Service, SERVICE_SHAPES.position(ServiceShape::LogNormal));
    let mut notices = Vec::new();
    let mut say = |field: &Field, message: String| {
        notices.push(Notice {
            key: field.name(),
            message,
        });
    };
    // The mix's shares are weights read together: they need not add up to
    // 100, but one of them must be more than nothing.
    let mut mix: Vec<f64> = MIX.iter().map(|&p| config.get(p)).collect();
    let mut mix_typed = false;
    for field in &fields {
        let Some((_, text)) = entries.iter().find(|(id, _)| *id == field.id()) else {
            continue;
        };
        let Some(value) = read(field, text, &field.text(&next), &mut say) else {
            continue;
        };
        match MIX.iter().position(|&p| p == field.p) {
            Some(i) => {
                mix[i] = value;
                mix_typed = true;
            }
            None => {
                next.set(field.p, value);
            }
        }
    }
    if mix_typed {
        if mix.iter().all(|&share| share == 0.0) {
            let field = fields
                .iter()
                .find(|f| f.p == P::Mix503)
                .expect("the 503 field");
            say(
                field,
                Text("no share of the errors is more than 0 %; read as all 503")
                    .get()
                    .into(),
            );
            mix = vec![1.0, 0.0, 0.0, 0.0];
        }
        let total: f64 = mix.iter().sum();
        for (p, share) in MIX.iter().zip(mix) {
            next.set(*p, share / total);
        }
    }
    // A p99 below the p50 is no tail, and one past a hundred times it is
    // days standing for seconds: either is read at the edge it crossed,
    // as the simulator would read it. A service on the way with no work of
    // its own (a p50 of 0) has no p99 to check.
    let mut pairs = vec![(P::ServiceP50, P::ServiceP99)];
    pairs.extend(
        BETWEEN[..between(&next)]
            .iter()
            .map(|[p50, p99, ..]| (*p50, *p99)),
    );
    for (p50_at, p99_at) in pairs {
        let (p50, p99) = (next.get(p50_at), next.get(p99_at));
        let edge = if p50 == 0.0 {
            None
        } else if p99 < p50 {
            Some((p50, Text("is below the p50")))
        } else if p99 > p50 * range::SERVICE_SPAN {
            Some((
                p50 * range::SERVICE_SPAN,
                Text("is more than 100 times the p50"),
            ))
        } else {
            None
        };
        if let Some((safe, why)) = edge {
            next.set(p99_at, safe);
            let field = fields.iter().find(|f| f.p == p99_at).expect("a p99 field");
            say(
                field,
                tf!(
                    "{p99} ms {why}; read as {safe} ms",
                    p99 = Unit::Millis.shown(p99),
                    why = why.get(),
                    safe = Unit::Millis.shown(next.get(p99_at))
                ),
            );
        }
    }
    (next, notices)
}

/// The table's value a field's `text` stands for, or `None` with a
/// message where it stands for none: text that is no number, or a number
/// below what a system can be (a negative rate, no replica). A number
/// beyond the table's most, or a fraction of a whole count, is read at the
/// nearest the table takes, and said so. `before` is the field's text now.
fn read(
    field: &Field,
    text: &str,
    before: &str,
    say: &mut impl FnMut(&Field, String),
) -> Option<f64> {
    let text = text.trim();
    let Some(shown) = parse_f64(&text.replace(',', ".")).filter(|v| v.is_finite()) else {
        let message = if text.is_empty() {
            tf!("left empty; kept {before}", before = before)
        } else {
            tf!(
                "“{text}” is not a number; kept {before}",
                text = text,
                before = before
            )
        };
        say(field, message);
        return None;
    };
    let (low, high) = field.range();
    let unit = field.unit();
    if shown < low {
        say(
            field,
            tf!(
                "{shown} {unit} cannot describe a system (the least is {low}); kept {before}",
                shown = shown,
                unit = unit,
                low = low,
                before = before
            ),
        );
        return None;
    }
    let mut used = shown.min(high);
    if field.whole() {
        used = used.round();
    }
    if used != shown {
        say(
            field,
            tf!(
                "{shown} {unit} read as {used}",
                shown = shown,
                unit = unit,
                used = used
            ),
        );
    }
    Some(field.unit.value(used))
}

/// What the form's numbers come to, in closed form, for the panel: the
/// service's law and how busy the arrivals keep it before any retry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fit {
    /// The bottom service's p50, p99 and mean time, seconds.
    pub p50: f64,
    pub p99: f64,
    pub mean: f64,
    /// Calls a second reaching the bottom before any retry: the clients'
    /// arrivals less what the services between fail by themselves, times
    /// the fan-out.
    pub calls: f64,
    /// Its workers, over every replica; 0 is no limit.
    pub workers: f64,
}

impl Fit {
    pub fn of(config: &Config) -> Fit {
        let law = service(config);
        let passed: f64 = BETWEEN[..between(config)]
            .iter()
            .map(|[_, _, failure, ..]| 1.0 - config.get(*failure))
            .product();
        Fit {
            p50: law.quantile(0.5),
            p99: law.quantile(0.99),
            mean: law.mean(),
            calls: config.get(P::Rate) * passed * config.get(P::FanOut),
            workers: config.get(P::Workers) * config.get(P::Servers),
        }
    }

    /// The share of the workers' time the first tries keep busy: the
    /// offered load over the workers (Little's law), or `None` without a
    /// limit.
    pub fn busy(&self) -> Option<f64> {
        (self.workers > 0.0).then(|| self.calls * self.mean / self.workers)
    }

    /// The panel's line.
    pub fn line(&self) -> String {
        let ms = |s: f64| format!("{}", three_digits(1000.0 * s));
        let law = tf!(
            "The service at the bottom alone: p50 {p50} ms, p99 {p99} ms, mean {mean} ms (the log-normal through your p50 and p99).",
            p50 = ms(self.p50),
            p99 = ms(self.p99),
            mean = ms(self.mean)
        );
        let load = match self.busy() {
            None => tf!(
                "Its first tries, {calls} a second, never wait: it has no limit on concurrency.",
                calls = format!("{:.1}", self.calls)
            ),
            Some(busy) if busy >= 1.0 => tf!(
                "Its first tries, {calls} a second, need {need} workers busy and it has {workers}: its queue grows whatever the clients' policy does.",
                calls = format!("{:.1}", self.calls),
                need = format!("{:.1}", self.calls * self.mean),
                workers = self.workers
            ),
            Some(busy) => tf!(
                "Its first tries, {calls} a second, keep {busy} % of its {workers} workers busy before any retry.",
                calls = format!("{:.1}", self.calls),
                busy = format!("{:.0}", 100.0 * busy),
                workers = self.workers
            ),
        };
        format!("{law} {load}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::config;
    use retry_teach::presets::PRESETS;

    /// What the form shows for `config`, every field typed as shown.
    fn shown(config: &Config) -> Vec<(String, String)> {
        fields().iter().map(|f| (f.id(), f.text(config))).collect()
    }

    fn typed(config: &Config, typed: &[(&str, &str)]) -> (Config, Vec<Notice>) {
        let entries: Vec<(String, String)> = typed
            .iter()
            .map(|(id, text)| (format!("y-{id}"), text.to_string()))
            .collect();
        build(config, &entries)
    }

    #[test]
    fn what_the_form_shows_builds_the_same_system() {
        for preset in PRESETS {
            let before = preset.config();
            let (built, notices) = build(&before, &shown(&before));
            assert!(notices.is_empty(), "{}: {notices:?}", preset.key);
            assert_eq!(shown(&built), shown(&before), "{}", preset.key);
            // Building again changes nothing more.
            assert!(
                built.same_state(&build(&built, &shown(&built)).0),
                "{}",
                preset.key
            );
        }
    }

    #[test]
    fn numbers_land_in_the_tables_units() {
        let (built, notices) = typed(
            &config("v=1&outage_for=5&workload=crowd"),
            &[
                ("rate", "250"),
                ("service_p50", "40"),
                ("service_p99", "200"),
                ("failure", "2,5"),
                ("mix_503", "60"),
                ("mix_429", "20"),
                ("mix_500", "20"),
                ("mix_400", "0"),
                ("layers", "2"),
                ("l2_failure", "1"),
                ("l2_p50", "5"),
                ("l2_p99", "50"),
                ("l3_workers", "64"),
            ],
        );
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(built.get(P::Rate), 250.0);
        assert_eq!(built.get(P::ServiceP50), 0.04);
        assert_eq!(built.get(P::ServiceP99), 0.2);
        assert_eq!(built.get(P::Failure), 0.025);
        assert_eq!([built.get(P::Mix503), built.get(P::Mix429)], [0.6, 0.2]);
        assert_eq!(built.get(P::Layers), 3.0);
        assert_eq!(built.get(P::Layer2Failure), 0.01);
        assert_eq!(built.get(P::Layer3Workers), 64.0);
        assert_eq!(
            [built.get(P::Layer2WorkP50), built.get(P::Layer2WorkP99)],
            [0.005, 0.05]
        );
        assert_eq!(built.service_shape(), ServiceShape::LogNormal);
        assert_eq!(built.workload(), WorkloadKind::Poisson);
        assert_eq!(built.get(P::OutageFor), 0.0, "a normal day has no outage");
        assert_eq!(between(&built), 2);
    }

    #[test]
    fn numbers_no_system_has_are_refused_with_a_message_and_kept() {
        let before = config("v=1&rate=100&service=lognormal&service_p50=0.04&service_p99=0.2");
        for (id, text, says) in [
            ("rate", "-5", "cannot describe a system"),
            ("servers", "0", "cannot describe a system"),
            ("rate", "lots", "is not a number"),
            ("rate", "", "left empty"),
            ("rate", "1e400", "is not a number"),
            ("rate", "NaN", "is not a number"),
            ("rate", "<b>9</b>", "“<b>9</b>” is not a number"),
        ] {
            let (built, notices) = typed(&before, &[(id, text)]);
            assert_eq!(notices.len(), 1, "{id}={text}: {notices:?}");
            assert!(
                notices[0].message.contains(says),
                "{id}={text}: {notices:?}"
            );
            assert!(notices[0].message.contains("kept"), "{notices:?}");
            assert_eq!(built.get(P::Rate), 100.0);
            assert_eq!(built.get(P::Servers), 1.0);
        }
        // A p99 below its p50 is no tail: read as the p50.
        let (built, notices) = typed(&before, &[("service_p50", "40"), ("service_p99", "5")]);
        assert_eq!(built.get(P::ServiceP99), 0.04);
        assert_eq!(notices.len(), 1);
        assert_eq!(notices[0].key, "The service at the bottom · Latency p99");
        assert_eq!(notices[0].message, "5 ms is below the p50; read as 40 ms");
        // So is a service's on the way, once it has work of its own.
        let chain = config("v=1&layers=2");
        let (built, notices) = typed(&chain, &[("l2_p50", "10"), ("l2_p99", "2")]);
        assert_eq!(built.get(P::Layer2WorkP99), 0.01);
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert_eq!(notices[0].key, "Service 1 on the way · Own latency p99");
        let (_, notices) = typed(&chain, &[("l2_p50", "0"), ("l2_p99", "0")]);
        assert!(
            notices.is_empty(),
            "no work of its own, no tail: {notices:?}"
        );
        let (built, notices) = typed(&before, &[("service_p50", "1"), ("service_p99", "5000")]);
        assert_eq!(built.get(P::ServiceP99), 0.1, "{notices:?}");
        // Beyond the table's most, or a part of a whole count: its edge.
        let (built, notices) = typed(&before, &[("rate", "1e9"), ("workers", "7.6")]);
        assert_eq!([built.get(P::Rate), built.get(P::Workers)], [20_000.0, 8.0]);
        assert_eq!(notices.len(), 2, "{notices:?}");
        // No error of any kind: all 503.
        let (built, notices) = typed(&before, &[("mix_503", "0"), ("mix_429", "0")]);
        assert_eq!(built.get(P::Mix503), 1.0);
        assert_eq!(notices.len(), 1, "{notices:?}");
    }

    /// A thousand pastes of anything into any field: no panic, a valid
    /// world whose link reads back without a notice, and a notice for each
    /// text that is not a plain number.
    #[test]
    fn hostile_text_in_any_field_builds_a_valid_world() {
        let fields = fields();
        let pieces = [
            "-",
            "1",
            "0",
            "9",
            ".",
            ",",
            "e",
            "E",
            "+",
            "inf",
            "nan",
            " ",
            "<",
            ">",
            "&",
            "\"",
            "'",
            "ы",
            "\u{202e}",
            "\0",
            "%",
            "ms",
            "1e308",
            "5e-324",
            "99999999999",
        ];
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let before = config("v=1");
        for _ in 0..1000 {
            // Each field once, as the page sends them.
            let mut entries: Vec<(String, String)> = Vec::new();
            for _ in 0..1 + next(4) {
                let field = &fields[next(fields.len())];
                let text: String = (0..next(6)).map(|_| pieces[next(pieces.len())]).collect();
                if !entries.iter().any(|(id, _)| *id == field.id()) {
                    entries.push((field.id(), text));
                }
            }
            let (built, notices) = build(&before, &entries);
            let (read, link_notices) = Config::from_link(&built.to_link());
            assert!(link_notices.is_empty(), "{entries:?}: {link_notices:?}");
            assert!(read.same_state(&built), "{entries:?}");
            for (_, text) in &entries {
                if parse_f64(text.trim()).is_none() {
                    assert!(!notices.is_empty(), "{entries:?}");
                }
            }
        }
    }

    #[test]
    fn the_fit_is_the_closed_form() {
        let c = config(
            "v=1&rate=200&service=lognormal&service_p50=0.02&service_p99=0.1&workers=4&servers=2&layers=2&l2_failure=0.5",
        );
        let fit = Fit::of(&c);
        // σ = ln 5 / 2.3263 = 0.6918; mean = 20 ms × e^(σ²/2) = 25.41 ms.
        assert!((fit.mean - 0.025_41).abs() < 1e-5, "{}", fit.mean);
        assert_eq!(fit.calls, 100.0, "half fail in the service on the way");
        let busy = fit.busy().expect("a limit");
        assert!((busy - 100.0 * fit.mean / 8.0).abs() < 1e-12);
        assert!(
            fit.line().contains("keep 32 % of its 8 workers busy"),
            "{}",
            fit.line()
        );
        assert!(
            fit.line().contains("p50 20 ms, p99 100 ms, mean 25.4 ms"),
            "{}",
            fit.line()
        );
        let over = Fit::of(&config("v=1&rate=1000&service=lognormal&workers=4"));
        assert!(over.line().contains("its queue grows"), "{}", over.line());
        let free = Fit::of(&config("v=1&workers=0"));
        assert!(free.line().contains("no limit"), "{}", free.line());
    }
}
