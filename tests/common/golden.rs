//! Reports pinned from a native run, checked natively (tests/determinism.rs)
//! and in the browser (tests/web.rs): if wasm drew different bits, or a
//! dependency bump changed the generator, a share link would change meaning.
//!
//! Each pin is a fingerprint of the whole report's JSON plus, beside it in
//! `golden/NAME.summary`, the summary that report had, one `key = value` a
//! line. The fingerprint catches any changed bit; the summary tells a reader
//! which numbers moved. A failure prints both, so a change that is meant can
//! be pinned again by pasting them.

/// A small run that reads every kind of random draw: exponential hops and
/// service times (ln), jittered pauses, failures, lost responses.
pub const LINK: &str = "v=1&attempts=5&jitter=decorrelated&base=0.05&cap=2&timeout=0.3&rate=200\
&horizon=5&buckets=50&failure=0.3&mix_429=0.5&retry_after=0.2&lost=0.05&service=normal&seed=7";

/// The same kinds of draws with unlimited workers, two layers and an outage:
/// operations that cannot meet run one at a time (`sim::world`), a path of
/// its own to pin.
pub const ALONE_LINK: &str = "v=1&attempts=4&jitter=full&base=0.05&cap=1&timeout=0.3&deadline=2\
&rate=200&horizon=5&buckets=50&failure=0.3&mix_429=0.5&retry_after=0.2&lost=0.05&service=normal\
&hop=exponential&hop_mean=0.01&workers=0&layers=2&outage_at=2&outage_for=0.5&outage=hang&seed=7";

/// [`ALONE_LINK`] with one layer: natively it runs on the plain world's
/// own copy of the engine, in the browser on the general one.
pub const PLAIN_LINK: &str = "v=1&attempts=4&jitter=full&base=0.05&cap=1&timeout=0.3&deadline=2\
&rate=200&horizon=5&buckets=50&failure=0.3&mix_429=0.5&retry_after=0.2&lost=0.05&service=normal\
&hop=exponential&hop_mean=0.01&workers=0&layers=1&outage_at=2&outage_for=0.5&outage=hang&seed=7";

/// One pinned report.
#[derive(Debug, Clone, Copy)]
pub struct Pin {
    pub name: &'static str,
    pub link: &'static str,
    pub fingerprint: u64,
    /// The report's summary as [`summary_lines`] writes it.
    pub summary: &'static str,
}

/// Each pinned link with what its report must be.
pub const REPORTS: [Pin; 3] = [
    Pin {
        name: "shared-queue",
        link: LINK,
        fingerprint: 7444931806258964057,
        summary: include_str!("golden/shared-queue.summary"),
    },
    Pin {
        name: "alone",
        link: ALONE_LINK,
        fingerprint: 8620595529971253129,
        summary: include_str!("golden/alone.summary"),
    },
    Pin {
        name: "plain",
        link: PLAIN_LINK,
        fingerprint: 2088434554370963007,
        summary: include_str!("golden/plain.summary"),
    },
];

/// The first pauses of client 3 under [`LINK`]'s policy with seed 7.
pub const CLIENT3_PAUSES: [f64; 4] = [
    0.10948885693198808,
    0.1831116064633342,
    0.3962881299471206,
    0.5023392143254056,
];

/// FNV-1a over the bytes of a report's JSON: cheap to pin, and any changed
/// bit of any number changes it.
pub fn fingerprint(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The summary of a report's JSON (`simulate::to_json`), one `key = value` a
/// line, sorted by key.
pub fn summary_lines(report_json: &str) -> String {
    let report: serde_json::Value =
        serde_json::from_str(report_json).expect("a report is valid JSON");
    let summary = report["summary"]
        .as_object()
        .expect("a report has a summary object");
    summary
        .iter()
        .map(|(key, value)| format!("{key} = {value}\n"))
        .collect()
}

/// Checks a report's JSON against its pin. On a mismatch the message names
/// every summary number that moved (or says that only the series or the
/// histograms did) and gives the new pin.
pub fn check(pin: &Pin, report_json: &str) {
    let actual = fingerprint(report_json);
    let summary = summary_lines(report_json);
    if actual == pin.fingerprint && summary == pin.summary {
        return;
    }
    // Matched by key, so that a field added to the summary shows as one
    // new line rather than shifting every line after it.
    let key = |line: &str| line.split(" = ").next().unwrap_or("").to_string();
    let expected: Vec<&str> = pin.summary.lines().collect();
    let mut moved: Vec<String> = summary
        .lines()
        .filter(|now| !expected.contains(now))
        .map(|now| {
            let then = expected.iter().find(|then| key(then) == key(now));
            format!("  was {:?}\n  now {now:?}", then.copied().unwrap_or(""))
        })
        .collect();
    moved.extend(
        expected
            .iter()
            .filter(|then| !summary.lines().any(|now| key(now) == key(then)))
            .map(|then| format!("  was {then:?}\n  now \"\"")),
    );
    let what = if actual == pin.fingerprint {
        "the fingerprint holds but the stored summary is stale".to_string()
    } else if moved.is_empty() {
        "the summary is unchanged: the series or the histograms moved".to_string()
    } else {
        format!("summary numbers moved:\n{}", moved.join("\n"))
    };
    panic!(
        "pinned report {:?} changed: {what}\n\
         new fingerprint {actual}; new golden/{}.summary:\n{summary}",
        pin.name, pin.name
    );
}

/// The replay's trace of [`LINK`] (a shared server, every kind of draw):
/// the fingerprint of its `Debug` text, which writes every number in full.
/// The same sample, attempt for attempt, natively and in wasm.
pub const TRACE_FINGERPRINT: u64 = 7580616961774693475;

/// The trace [`TRACE_FINGERPRINT`] pins, as text.
pub fn trace_text() -> String {
    let (config, _) = retry_sim::config::Config::from_link(LINK);
    let mut scenario = config.scenario();
    scenario.work_limit = retry_sim::simulate::WORK_LIMIT;
    let (_, trace) = retry_sim::sim::run_traced(&scenario);
    // The pinned world hedges nothing and has no chain: no call is a copy
    // or made for nobody, and without the flags the trace reads as it did
    // before calls had them.
    assert!(
        trace
            .operations
            .iter()
            .flat_map(|o| &o.recorded)
            .all(|a| !a.copy && !a.for_nobody)
    );
    format!("{trace:?}")
        .replace(", copy: false", "")
        .replace(", for_nobody: false", "")
}
