//! The numbers of a run: the summary table, the calls per layer, and the
//! colour classes and names of each policy's numbers.

use std::fmt::Write as _;

use retry_analyses::card::{Card, card};
use retry_core::words::{Text, tr};
use retry_sim::config::{Config, Kind};
use retry_sim::metrics::{Metric, Side};
use retry_sim::sim::Report;

/// The `data-side` and class of a policy's numbers: its colour.
pub fn side_class(side: Side) -> &'static str {
    match side {
        Side::A => "side-a",
        Side::B => "side-b",
    }
}

/// A policy's name beside its number.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::A => "A",
        Side::B => "B",
    }
}

/// The colour class of a summary heading: A's and B's columns.
pub fn heading_class(heading: &str) -> &'static str {
    match heading {
        "A" => side_class(Side::A),
        "B" => side_class(Side::B),
        _ => "",
    }
}

/// One row of the summary table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SummaryRow {
    pub label: &'static str,
    /// The glossary entry that explains the label, if one does.
    pub term: Option<&'static str>,
    /// The cells after the label: policy A's value, then in compare mode
    /// B's and B - A.
    pub cells: Vec<String>,
}

/// The summary table: the numbers that matter, what the users saw against
/// what it cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SummaryTable {
    pub headings: Vec<&'static str>,
    pub rows: Vec<SummaryRow>,
}

/// The summary's rows, in order: what the users saw, then what it cost.
const ROWS: [Metric; 11] = [
    Metric::Operations,
    Metric::Success,
    Metric::AttemptsPerOperation,
    Metric::LoadAmplification,
    Metric::Retried,
    Metric::BudgetRefusals,
    Metric::DeadlineExceeded,
    Metric::Duplicates,
    Metric::P50,
    Metric::P99,
    Metric::WastedWork,
];

/// The summary of policy A, or in compare mode of A, B and B - A.
pub fn summary(a: &Report, b: Option<&Report>) -> SummaryTable {
    let headings = if b.is_some() {
        vec!["", "A", "B", "B - A"]
    } else {
        vec!["", retry_core::words::tr("value")]
    };
    let mut rows = Vec::with_capacity(ROWS.len() + 1);
    // The herd at a rate limit's reset, where one answered 429; the round
    // trips before a breaker opened, where one did.
    let either = |has: fn(&Report) -> bool| has(a) || b.is_some_and(has);
    let herd = either(|r| r.summary.reset_herd.is_some()).then_some(Metric::ResetHerd);
    let opened =
        either(|r| r.summary.breaker_opened_after.is_some()).then_some(Metric::BreakerOpenedAfter);
    for metric in ROWS.into_iter().chain(herd).chain(opened) {
        let number = metric.number();
        let (format, value) = (number.format, metric.value(a));
        let mut cells = vec![format.cell(value)];
        if let Some(b) = b {
            let b = metric.value(b);
            cells.push(format.cell(b));
            cells.push(format.delta(b - value));
        }
        rows.push(SummaryRow {
            label: metric.table_label(),
            term: number.term,
            cells,
        });
    }
    SummaryTable { headings, rows }
}

/// The guarantee card's rows (see [`retry_analyses::card`]) below the
/// summary's: policy A's, and in compare mode B's, with no difference.
pub fn card_rows(config: &Config, comparing: bool) -> Vec<SummaryRow> {
    let mut cards = vec![card(config)];
    if comparing {
        cards.push(card(&config.policy_b_config()));
    }
    let none = || "\u{2014}".to_string();
    let row = |label: Text, cell: &dyn Fn(&Card) -> String| SummaryRow {
        label: label.get(),
        term: None,
        cells: cards
            .iter()
            .map(cell)
            .chain(comparing.then(String::new))
            .collect(),
    };
    let percent = |p: f64| retry_sim::metrics::Format::Share.headline(p);
    vec![
        row(Text("Client instances, each with its own budget"), &|c| {
            c.instances.to_string()
        }),
        row(Text("At worst, calls at the bottom per request"), &|c| {
            let each: Vec<String> = c.worst_factors.iter().map(u32::to_string).collect();
            match each.len() {
                1 => each.join(""),
                _ => format!("{} ({})", c.worst_calls, each.join(" \u{d7} ")),
            }
        }),
        row(Text("Retries a second when every call fails"), &|c| {
            c.retries_at_full_failure
                .map_or_else(none, |r| retry_core::words::number(&format!("{r:.1}")))
        }),
        row(
            Text("Retries a full budget pays for (seconds, when every call fails)"),
            &|c| match (c.reservoir, c.reservoir_seconds) {
                (Some(r), Some(t)) => {
                    format!("{r} ({})", retry_core::words::number(&format!("{t:.2}")))
                }
                (Some(r), None) => r.to_string(),
                _ => none(),
            },
        ),
        row(
            Text("The budget drains above, of attempts failing (timing out)"),
            &|c| match (c.drains_above, c.drains_above_timeouts, c.in_flight_minimum) {
                // A cap on retries in flight binds by its share only with
                // enough requests in flight; with no share, its minimum
                // alone caps them at any failure rate.
                (Some(p), _, Some(_)) => retry_core::tf!(
                    "{share} (with over {requests} requests in flight)",
                    share = percent(p),
                    requests = c.share_from_in_flight.unwrap_or(0.0)
                ),
                (None, _, Some(minimum)) => {
                    retry_core::tf!("at most {minimum} retries in flight", minimum = minimum)
                }
                (Some(p), Some(t), None) if (p - t).abs() > 1e-9 => {
                    format!("{} ({})", percent(p), percent(t))
                }
                (Some(p), _, None) if c.drains_at_least => {
                    retry_core::tf!("{share} or more", share = percent(p))
                }
                (Some(p), _, None) => percent(p),
                _ => tr("never").to_string(),
            },
        ),
    ]
}

/// One layer's line of the layers view.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerLine {
    /// Calls this layer made per top-level request.
    pub per_request: f64,
    /// Its bar's length, in % of the longest bar of the view.
    pub bar_percent: f64,
    /// The share of its calls made for a caller that had already given up:
    /// the bar's grey end.
    pub nobody_share: f64,
    pub text: String,
    /// The service that makes these calls, from 1 (the top, whose policy
    /// is the page's) to the last.
    pub service: usize,
    /// What that service has of its own, beside the policy's and the
    /// server's ([`own_settings`]): none for the top.
    pub own: Vec<String>,
    /// Its calls over the run.
    pub spark: Spark,
}

/// A layer's calls a second over the run, drawn small under its line: SVG
/// path data in a box [`Spark::WIDTH`] by [`Spark::HEIGHT`], a step a
/// bucket, on one scale for every line of the view, so that heights
/// compare down the chain and between the policies.
#[derive(Debug, Clone, PartialEq)]
pub struct Spark {
    /// The area under its calls a second.
    pub calls: String,
    /// The band at the top of that area that its calls for a caller that
    /// had already given up take (empty when there were none).
    pub nobody: String,
    /// Its busiest bucket's calls a second.
    pub peak: f64,
    /// The run's length, which the box's width stands for.
    pub horizon: f64,
}

impl Spark {
    pub const WIDTH: f64 = 100.0;
    pub const HEIGHT: f64 = 20.0;

    /// The SVG's `viewBox`.
    pub fn view_box() -> String {
        format!("0 0 {} {}", Self::WIDTH, Self::HEIGHT)
    }

    /// What it shows, for a reader who cannot see it.
    pub fn label(&self, layer: usize) -> String {
        retry_core::tf!(
            "Calls a second of layer {n} from 0 to {horizon} s: at most {peak}",
            n = layer,
            horizon = format!("{:.0}", self.horizon),
            peak = format!("{:.0}", self.peak)
        )
    }

    /// The spark of `calls` and `nobody` (counts a bucket `width` s wide)
    /// on a scale whose top is `top` calls a second.
    fn new(calls: &[u64], nobody: &[u64], width: f64, top: f64) -> Spark {
        let rate = |n: u64| n as f64 / width;
        let rates: Vec<f64> = calls.iter().map(|&n| rate(n)).collect();
        let useful: Vec<f64> = calls
            .iter()
            .zip(nobody.iter().chain(std::iter::repeat(&0)))
            .map(|(&n, &gone)| rate(n.saturating_sub(gone)))
            .collect();
        let floor = vec![0.0; rates.len()];
        Spark {
            calls: band(&floor, &rates, top),
            nobody: match nobody.iter().any(|&n| n > 0) {
                true => band(&useful, &rates, top),
                false => String::new(),
            },
            peak: rates.iter().copied().fold(0.0, f64::max),
            horizon: width * calls.len() as f64,
        }
    }
}

/// SVG path data of the band between `lower` and `upper` (a value a
/// bucket), stepped, in the spark's box with `top` at its top.
fn band(lower: &[f64], upper: &[f64], top: f64) -> String {
    let n = upper.len().max(1) as f64;
    let x = |i: usize| Spark::WIDTH * i as f64 / n;
    let y = |v: f64| Spark::HEIGHT * (1.0 - (v / top.max(1e-9)).clamp(0.0, 1.0));
    let mut points = Vec::with_capacity(4 * upper.len());
    for (i, &v) in upper.iter().enumerate() {
        points.push((x(i), y(v)));
        points.push((x(i + 1), y(v)));
    }
    for (i, &v) in lower.iter().enumerate().rev() {
        points.push((x(i + 1), y(v)));
        points.push((x(i), y(v)));
    }
    let mut d = String::with_capacity(12 * points.len());
    for (k, (px, py)) in points.iter().enumerate() {
        let _ = write!(d, "{}{px:.1} {py:.1}", if k == 0 { "M" } else { "L" });
    }
    d.push('Z');
    d
}

impl LayerLine {
    /// The bar's `style` attribute.
    pub fn bar_style(&self) -> String {
        format!("width: {:.1}%", self.bar_percent)
    }

    /// The `style` of the bar's grey end, in % of the bar.
    pub fn nobody_style(&self) -> String {
        format!("width: {:.1}%", 100.0 * self.nobody_share)
    }
}

/// What the view's sparks are, said under it, and what its grey is when a
/// line has calls for nobody (`greyed`).
pub fn layers_key(greyed: bool) -> String {
    let sparks = tr("Under each line: its calls a second over the run, every line on one scale.");
    match greyed {
        true => format!(
            "{sparks} {}",
            tr(
                "In grey, at the end of a bar and at the top of a spark: the calls made for a caller that had already given up."
            )
        ),
        false => sparks.to_string(),
    }
}

/// The layers of one policy's run.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerList {
    /// The bars' class: policy B's are drawn apart.
    pub bar_class: &'static str,
    pub lines: Vec<LayerLine>,
}

/// What the service at layer `n` of the chain (from 2) has of its own,
/// beside the policy's and the server's: each of its settings (the
/// parameters `l{n}_…`) that applies and is not its default, as its label
/// and its value as a lesson writes a number, or as its control names a
/// choice. None for the top, whose settings are the policy's.
pub fn own_settings(config: &Config, n: usize) -> Vec<String> {
    let prefix = format!("l{n}_");
    let facts = retry_teach::prose::Facts::settings(config);
    retry_sim::config::PARAMS
        .iter()
        .enumerate()
        .filter(|(_, p)| n >= 2 && p.key.starts_with(&prefix) && (p.applies)(config))
        .filter(|(i, p)| config.value_at(*i) != p.default)
        .map(|(i, p)| {
            let value = match p.kind {
                Kind::Choice(_, labels) => labels
                    .get(config.value_at(i) as usize)
                    .map(|label| label.get().to_string())
                    .unwrap_or_default(),
                _ => retry_teach::prose::fill(&format!("{{{}}}", p.key), &facts).text,
            };
            format!("{}: {value}", p.label.get())
        })
        .collect()
}

/// Calls each layer makes per top-level request, next to what `a^L` says
/// they would be if every call failed. `None` when no run has a chain of
/// layers: the view is then hidden.
pub fn layers(config: &Config, a: &Report, b: Option<&Report>) -> Option<Vec<LayerList>> {
    layers_kept(config, a, b, 0.0).map(|(lists, _)| lists)
}

/// [`layers`] with bars on a scale of at least `kept` calls per request
/// (the scale of the view before a change: 27 against 3 stays 27 long
/// once both make 3), and the scale they are drawn on.
pub fn layers_kept(
    config: &Config,
    a: &Report,
    b: Option<&Report>,
    kept: f64,
) -> Option<(Vec<LayerList>, f64)> {
    let chained = |r: &Report| r.summary.attempts_by_layer.len() >= 2;
    if !chained(a) && !b.is_some_and(chained) {
        return None;
    }
    let per_op = |r: &Report, calls: u64| calls as f64 / r.summary.operations.max(1) as f64;
    let runs = match b {
        Some(b) => vec![
            ("A: ", config.clone(), a),
            ("B: ", config.policy_b_config(), b),
        ],
        None => vec![("", config.clone(), a)],
    };
    // Bars share one scale across both policies, so their lengths compare.
    let mut longest = kept.max(1.0);
    for (_, _, report) in &runs {
        for calls in &report.summary.attempts_by_layer {
            longest = longest.max(per_op(report, *calls));
        }
    }
    // The sparks too: the busiest bucket of any layer of either policy.
    let rate_top = runs
        .iter()
        .flat_map(|(_, _, r)| {
            let width = r.series.width.max(1e-9);
            r.series
                .layer_calls
                .iter()
                .flatten()
                .map(move |&n| n as f64 / width)
        })
        .fold(0.0, f64::max);
    let mut lists = Vec::with_capacity(runs.len());
    for (prefix, side, report) in &runs {
        let scenario = side.scenario();
        let orphaned = &report.summary.orphaned_attempts_by_layer;
        let mut lines = Vec::with_capacity(report.summary.attempts_by_layer.len());
        for (layer, calls) in report.summary.attempts_by_layer.iter().enumerate() {
            let per_request = per_op(report, *calls);
            // Worst case, every call failing: each layer multiplies by its
            // attempts (one below the top if only the top retries).
            let factors: Vec<u32> = (0..=layer as u32)
                .map(|l| scenario.attempts_of_layer(l))
                .filter(|&a| a > 1)
                .collect();
            let worst: u32 = factors.iter().product();
            let formula = match factors.as_slice() {
                [] => "1".to_string(),
                [one] => one.to_string(),
                [first, rest @ ..] if rest.iter().all(|a| a == first) => {
                    // A power as print writes it: 3³, not a program's 3^3.
                    const SUPERSCRIPT: [char; 10] =
                        ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
                    let power: String = factors
                        .len()
                        .to_string()
                        .bytes()
                        .map(|d| SUPERSCRIPT[usize::from(d - b'0')])
                        .collect();
                    format!("{first}{power} = {worst}")
                }
                _ => {
                    let each: Vec<String> = factors.iter().map(u32::to_string).collect();
                    format!("{} = {worst}", each.join(" \u{d7} "))
                }
            };
            let mut text = retry_core::tf!(
                "layer {n}: {calls} calls per request (at 100 % failure: {formula})",
                n = layer + 1,
                calls = format!("{per_request:.2}"),
                formula = formula
            );
            // Calls made for a caller that had given up, where any were.
            if let Some(&nobody) = orphaned.get(layer).filter(|&&n| n > 0) {
                text.push_str(&retry_core::tf!(
                    ", {calls} of them for nobody",
                    calls = format!("{:.2}", per_op(report, nobody))
                ));
            }
            // Calls the service below turned away, its workers all busy.
            let refused = &report.summary.refused_by_layer;
            if let Some(&away) = refused.get(layer + 1).filter(|&&n| n > 0) {
                text.push_str(&retry_core::tf!(
                    ", {calls} of them turned away by the busy service below",
                    calls = format!("{:.2}", per_op(report, away))
                ));
            }
            // How long the layer took to answer its caller: the operations
            // at the top.
            if let Some(took) = report.layer_latency.get(layer).filter(|h| h.total > 0) {
                text.push_str(&retry_core::tf!(
                    "; it answers within {time} s (p99)",
                    time = format!("{:.2}", took.quantile(0.99))
                ));
            }
            let nobody = orphaned.get(layer).copied().unwrap_or(0);
            lines.push(LayerLine {
                per_request,
                bar_percent: 100.0 * per_request / longest,
                nobody_share: nobody as f64 / (*calls).max(1) as f64,
                text: format!("{prefix}{text}"),
                service: layer + 1,
                own: own_settings(side, layer + 1),
                spark: Spark::new(
                    report
                        .series
                        .layer_calls
                        .get(layer)
                        .map_or(&[], Vec::as_slice),
                    report
                        .series
                        .layer_orphaned
                        .get(layer)
                        .map_or(&[], Vec::as_slice),
                    report.series.width.max(1e-9),
                    rate_top,
                ),
            });
        }
        lists.push(LayerList {
            bar_class: if *prefix == "B: " { "bar bar-b" } else { "bar" },
            lines,
        });
    }
    Some((lists, longest))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{config, preset, report};
    use retry_sim::simulate;

    /// A service's line says what it has of its own, and only that: the
    /// settings of its layer that apply and moved from their defaults, as
    /// their labels and values read; nothing for the top, nothing for a
    /// setting that does not apply (a queue order without workers).
    #[test]
    fn a_services_own_settings_are_those_it_moved() {
        let config = config(
            "v=1&layers=3&l2_attempts=2&l2_cap=0.25&l2_jitter=none&l2_order=lifo&l3_workers=8&l3_order=lifo",
        );
        assert_eq!(own_settings(&config, 1), Vec::<String>::new());
        assert_eq!(
            own_settings(&config, 2),
            [
                "Attempts at layer 2: 2",
                "Cap at layer 2: 0.25 s",
                "Jitter at layer 2: None"
            ]
        );
        assert_eq!(
            own_settings(&config, 3),
            [
                "Workers at layer 3: 8",
                "Queue order at layer 3: Newest first (LIFO)"
            ]
        );
        let a = retry_sim::sim::run(&config.scenario());
        let lists = layers(&config, &a, None).expect("a chain");
        let own: Vec<_> = lists[0]
            .lines
            .iter()
            .map(|l| (l.service, l.own.len()))
            .collect();
        assert_eq!(own, [(1, 0), (2, 3), (3, 2)]);
    }

    #[test]
    fn summary_rows_of_one_policy() {
        let summary = summary(&report(200, &[250, 400], 0.9, 1.5), None);
        assert_eq!(summary.headings, ["", "value"]);
        let rows: Vec<(&str, Vec<&str>)> = summary
            .rows
            .iter()
            .map(|r| (r.label, r.cells.iter().map(String::as_str).collect()))
            .collect();
        assert_eq!(
            rows,
            [
                ("Operations", vec!["200"]),
                ("User-visible success", vec!["90.0 %"]),
                ("Attempts per operation", vec!["1.250"]),
                ("Calls at the bottom layer per operation", vec!["2.000"]),
                ("Operations retried", vec!["25.0 %"]),
                ("Budget refusals", vec!["3"]),
                ("Deadline exceeded", vec!["0"]),
                ("Duplicates", vec!["2"]),
                ("Latency p50 (s)", vec!["0.013"]),
                ("Latency p99 (s)", vec!["1.500"]),
                ("Wasted server work", vec!["12.5 %"]),
            ]
        );
    }

    #[test]
    fn summary_rows_compare_b_with_a() {
        let a = report(200, &[250, 400], 0.9, 1.5);
        let b = report(200, &[220, 220], 0.95, 0.75);
        let summary = summary(&a, Some(&b));
        assert_eq!(summary.headings, ["", "A", "B", "B - A"]);
        let cells = |label: &str| {
            summary
                .rows
                .iter()
                .find(|r| r.label == label)
                .expect("a row")
                .cells
                .clone()
        };
        assert_eq!(cells("Operations"), ["200", "200", "0"]);
        // Shares differ by percentage points, not per cent.
        assert_eq!(
            cells("User-visible success"),
            ["90.0 %", "95.0 %", "+5.0 pp"]
        );
        assert_eq!(cells("Wasted server work"), ["12.5 %", "12.5 %", "0.0 pp"]);
        assert_eq!(
            cells("Calls at the bottom layer per operation"),
            ["2.000", "1.100", "-0.900"]
        );
        assert_eq!(cells("Latency p99 (s)"), ["1.500", "0.750", "-0.750"]);
    }

    /// The card's rows follow the summary's: A's and B's figures, no
    /// difference, a dash where a figure does not apply.
    #[test]
    fn the_card_rows_say_each_policys_guarantees() {
        let world = preset("aws-sdk").config();
        let rows = card_rows(&world, true);
        let cards = [card(&world), card(&world.policy_b_config())];
        assert_eq!(rows.len(), 5);
        assert_eq!(rows[0].cells[0], cards[0].instances.to_string());
        assert!(
            rows.iter()
                .all(|r| r.cells.len() == 3 && r.cells[2].is_empty())
        );
        let p = cards[0].drains_above.expect("the quota drains");
        assert!(rows[4].cells[0].starts_with(&format!("{:.1} %", 100.0 * p)));
        assert_eq!(rows[4].cells[1], "never", "B has no budget");
        let reservoir = cards[0].reservoir.expect("a quota");
        assert!(rows[3].cells[0].starts_with(&format!("{reservoir} (")));
        assert_eq!(rows[3].cells[1], "\u{2014}");
        let chain = config("v=1&attempts=3&layers=3&l2_attempts=2");
        assert_eq!(
            card_rows(&chain, false)[1].cells,
            ["18 (3 \u{d7} 2 \u{d7} 3)"]
        );
        // Envoy's cap on retries in flight binds by its share only with
        // enough requests in flight, and by its minimum alone without one.
        let envoy = card_rows(&config("v=1&budget=envoy"), false);
        assert_eq!(envoy[4].cells, ["20.1 % (with over 15 requests in flight)"]);
        let minimum = card_rows(&config("v=1&budget=envoy&ev_pct=0&ev_min=5"), false);
        assert_eq!(minimum[4].cells, ["at most 5 retries in flight"]);
        // A fleet's instances each keep their own: 20 minimums, and 20
        // instances' requests in flight before the share binds.
        let fleet = card_rows(&config("v=1&budget=envoy&instances=20"), false);
        assert_eq!(fleet[0].cells, ["20"]);
        assert_eq!(
            fleet[4].cells,
            ["20.1 % (with over 300 requests in flight)"]
        );
    }

    /// Hops of their own multiply by their own attempts, and the calls a
    /// layer made for a caller that had given up are said beside its own.
    #[test]
    fn each_layer_says_its_own_worst_case_and_what_it_did_for_nobody() {
        let config = config(
            "v=1&attempts=3&failure=1&workers=0&layers=3&l2_attempts=2&l3_attempts=4&rate=10&horizon=5",
        );
        let (a, _) = simulate::run_both(&config);
        let lists = layers(&config, &a, None).expect("three layers are shown");
        let texts = without_p99(&lists[0], &a);
        assert_eq!(
            texts,
            [
                "layer 1: 3.00 calls per request (at 100 % failure: 3)",
                "layer 2: 6.00 calls per request (at 100 % failure: 3 \u{d7} 2 = 6)",
                "layer 3: 24.00 calls per request (at 100 % failure: 3 \u{d7} 2 \u{d7} 4 = 24)",
            ]
        );
        let config = preset("orphans").config();
        let (a, b) = simulate::run_both(&config);
        let lists = layers(&config, &a, b.as_ref()).expect("two layers are shown");
        let orphaned = a.summary.orphaned_attempts_by_layer[1] as f64 / a.summary.operations as f64;
        assert!(orphaned > 1.0, "{orphaned}");
        assert!(
            lists[0].lines[1]
                .text
                .contains(&format!(", {orphaned:.2} of them for nobody;")),
            "{}",
            lists[0].lines[1].text
        );
        assert!(lists[1].lines.iter().all(|l| !l.text.contains("nobody")));
        // The grey end of A's second bar is the share of its calls that
        // were for nobody; B's bars have none.
        let line = &lists[0].lines[1];
        let share =
            a.summary.orphaned_attempts_by_layer[1] as f64 / a.summary.attempts_by_layer[1] as f64;
        assert_eq!(line.nobody_share, share);
        assert!(share > 0.1 && share < 1.0, "{share}");
        assert_eq!(line.nobody_style(), format!("width: {:.1}%", 100.0 * share));
        assert!(lists[1].lines.iter().all(|l| l.nobody_share == 0.0));
    }

    /// The y coordinates of a spark's path, in its order.
    fn ys(d: &str) -> Vec<f64> {
        d.trim_end_matches('Z')
            .split(['M', 'L'])
            .filter(|p| !p.is_empty())
            .map(|p| p.split(' ').nth(1).expect("x y").parse().expect("a number"))
            .collect()
    }

    /// Each layer's spark draws its calls a second over the run, a step a
    /// bucket, on one scale for the view: the busiest bucket of any line
    /// reaches the top of its box and every other line's busiest stands
    /// at its share of that; the calls for nobody are a band at the top,
    /// A's on the database while it is slow and after (the orphans
    /// preset), none of B's, whose busiest bucket at the database stands
    /// under half of A's.
    #[test]
    fn each_layers_spark_draws_its_calls_over_the_run_on_one_scale() {
        let config = preset("orphans").config();
        let (a, b) = simulate::run_both(&config);
        let b = b.expect("compared");
        let lists = layers(&config, &a, Some(&b)).expect("two layers are shown");
        let width = a.series.width;
        let top = [&a, &b]
            .iter()
            .flat_map(|r| r.series.layer_calls.iter().flatten())
            .fold(0, |m, &n| m.max(n)) as f64
            / width;
        for (list, report) in lists.iter().zip([&a, &b]) {
            for (layer, line) in list.lines.iter().enumerate() {
                let calls = &report.series.layer_calls[layer];
                let peak = *calls.iter().max().expect("buckets") as f64 / width;
                assert_eq!(line.spark.peak, peak);
                let highest = ys(&line.spark.calls).into_iter().fold(f64::MAX, f64::min);
                let expected = Spark::HEIGHT * (1.0 - peak / top);
                assert!(
                    (highest - expected).abs() <= 0.05,
                    "{highest} against {expected}"
                );
                assert_eq!(ys(&line.spark.calls).len(), 4 * calls.len());
            }
        }
        let [a_bottom, b_bottom] = [&lists[0].lines[1], &lists[1].lines[1]];
        assert!(!a_bottom.spark.nobody.is_empty());
        assert!(lists[1].lines.iter().all(|l| l.spark.nobody.is_empty()));
        assert!(
            b_bottom.spark.peak < 0.5 * a_bottom.spark.peak,
            "{} against {}",
            b_bottom.spark.peak,
            a_bottom.spark.peak
        );
    }

    /// The calls a layer's callee turned away, its workers busy and its
    /// queue full, are said on the caller's line.
    #[test]
    fn a_layer_says_what_its_busy_callee_turned_away() {
        let config = config(
            "v=1&attempts=1&failure=0&workers=0&service=constant&service_t=0.1&layers=2&l2_workers=2&l2_queue=0&rate=50&horizon=5",
        );
        let (a, _) = simulate::run_both(&config);
        let away = a.summary.refused_by_layer[1] as f64 / a.summary.operations as f64;
        assert!(away > 0.5, "{away}");
        let lists = layers(&config, &a, None).expect("two layers are shown");
        assert!(
            lists[0].lines[0].text.contains(&format!(
                ", {away:.2} of them turned away by the busy service below;"
            )),
            "{}",
            lists[0].lines[0].text
        );
        assert!(!lists[0].lines[1].text.contains("turned away"));
    }

    /// The lines of a run's list without their ends, each of which must be
    /// how long its layer took to answer, its p99 in the run.
    fn without_p99<'a>(list: &'a LayerList, report: &Report) -> Vec<&'a str> {
        list.lines
            .iter()
            .zip(&report.layer_latency)
            .map(|(line, took)| {
                let end = format!("; it answers within {:.2} s (p99)", took.quantile(0.99));
                line.text
                    .strip_suffix(&end)
                    .expect("the layer's p99 ends its line")
            })
            .collect()
    }

    #[test]
    fn three_layers_of_three_attempts_make_27_calls() {
        let config = preset("layers").config();
        let (a, b) = simulate::run_both(&config);
        let lists = layers(&config, &a, b.as_ref()).expect("three layers are shown");
        let b = b.expect("comparing");
        let texts = [without_p99(&lists[0], &a), without_p99(&lists[1], &b)];
        assert_eq!(
            texts,
            [
                vec![
                    "A: layer 1: 3.00 calls per request (at 100 % failure: 3)",
                    "A: layer 2: 9.00 calls per request (at 100 % failure: 3² = 9)",
                    "A: layer 3: 27.00 calls per request (at 100 % failure: 3³ = 27)",
                ],
                vec![
                    "B: layer 1: 3.00 calls per request (at 100 % failure: 3)",
                    "B: layer 2: 3.00 calls per request (at 100 % failure: 3)",
                    "B: layer 3: 3.00 calls per request (at 100 % failure: 3)",
                ],
            ]
        );
        assert_eq!(
            lists.iter().map(|l| l.bar_class).collect::<Vec<_>>(),
            ["bar", "bar bar-b"]
        );
        // One scale for both: A's 27 is the longest bar, B's 3 a ninth of it.
        let styles: Vec<String> = lists
            .iter()
            .flat_map(|l| &l.lines)
            .map(LayerLine::bar_style)
            .collect();
        assert_eq!(
            styles,
            [
                "width: 11.1%",
                "width: 33.3%",
                "width: 100.0%",
                "width: 11.1%",
                "width: 11.1%",
                "width: 11.1%"
            ]
        );
    }

    /// After "let only A's top layer retry" the bars keep the scale of
    /// 27 calls: A's 3 stand as short as B's did, not at full width.
    #[test]
    fn a_change_keeps_the_layers_scale() {
        let config = preset("layers").config();
        let (a, b) = simulate::run_both(&config);
        let (_, scale) = layers_kept(&config, &a, b.as_ref(), 0.0).expect("layers");
        assert_eq!(scale, 27.0);
        let changed = retry_teach::lesson::apply(&config, "top_only=on");
        let (a, b) = simulate::run_both(&changed);
        let (lists, kept) = layers_kept(&changed, &a, b.as_ref(), scale).expect("layers");
        assert_eq!(kept, 27.0);
        assert!(
            lists
                .iter()
                .flat_map(|l| &l.lines)
                .all(|line| line.bar_style() == "width: 11.1%")
        );
        let (fresh, _) = layers_kept(&changed, &a, b.as_ref(), 0.0).expect("layers");
        assert_eq!(
            fresh[0].lines[2].bar_style(),
            "width: 100.0%",
            "alone, 3 is the longest"
        );
    }

    #[test]
    fn one_layer_hides_the_layers_view() {
        let config = config("v=1&rate=10&horizon=5");
        let (a, _) = simulate::run_both(&config);
        assert_eq!(layers(&config, &a, None), None);
    }
}
