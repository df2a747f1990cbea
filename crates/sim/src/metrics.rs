//! The numbers of a run's report that people read: one row per number,
//! with what it is called, the glossary term that explains it, how it is
//! read from a report, how it is written, and which way is better. A
//! lesson's headlines, the summary table and the sweep's CSV header take
//! their numbers from here, so a number is read, named and written the
//! same wherever it appears.
//!
//! A leaf beside the simulator: presets name the numbers of their lessons,
//! and the lesson and the view show them, without either knowing the other.

use crate::sim::{Report, Summary};
use retry_core::words::Text;

/// Policy A or policy B of compare mode: whose report a number is read
/// from, and which of the two is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Side {
    A,
    B,
}

/// Which way a number is better for the users or the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Better {
    Higher,
    Lower,
    /// Neither way: the number describes a mechanism, not an aim (a
    /// budget's refusals), or the workload itself.
    Neither,
}

impl Better {
    /// The better of A's value `a` and B's value `b`, if either way is.
    pub fn side(self, a: f64, b: f64) -> Option<Side> {
        let higher = match self {
            Better::Higher => true,
            Better::Lower => false,
            Better::Neither => return None,
        };
        Some(if (b > a) == higher { Side::B } else { Side::A })
    }
}

/// How a number is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A count of things.
    Count,
    /// A share from 0 to 1, written in per cent.
    Share,
    /// So many per operation, such as calls.
    Ratio,
    /// A time, in seconds.
    Seconds,
    /// So many per second.
    Rate,
}

impl Format {
    /// The number standing alone, as a headline shows it: with its unit,
    /// and only the digits that matter at a glance.
    pub fn headline(self, x: f64) -> String {
        retry_core::words::number(&(self.digits(x) + self.unit()))
    }

    /// The digits a headline shows, without the unit.
    fn digits(self, x: f64) -> String {
        match self {
            Format::Count => format!("{x:.0}"),
            Format::Share => format!("{:.1}", 100.0 * x),
            Format::Ratio | Format::Seconds => format!("{x:.2}"),
            Format::Rate => format!("{x:.1}"),
        }
    }

    /// The unit a headline writes after the digits.
    fn unit(self) -> &'static str {
        match self {
            Format::Count => "",
            Format::Share => " %",
            Format::Ratio => "x",
            Format::Seconds => " s",
            Format::Rate => "/s",
        }
    }

    /// The lowest and the highest of a number, at a headline's digits and
    /// with the unit once: "61.0\u{2013}65.1 %".
    pub fn range(self, low: f64, high: f64) -> String {
        retry_core::words::number(&format!(
            "{}\u{2013}{}{}",
            self.digits(low),
            self.digits(high),
            self.unit()
        ))
    }

    /// The smallest lead of one value over another that matters to a
    /// reader: for a share 1 percentage point (63 % against 64 % is
    /// already a difference a person notices, and shares are shown to a
    /// tenth of a point); for every other number 5 % of the larger value,
    /// as performance work commonly calls smaller changes noise.
    pub fn least_lead(self, a: f64, b: f64) -> f64 {
        match self {
            Format::Share => 0.01,
            _ => 0.05 * a.abs().max(b.abs()),
        }
    }

    /// The number in a cell of the summary table. The row's label carries
    /// the unit (a time's says "(s)"), and three decimals let two policies
    /// that differ a little show it.
    pub fn cell(self, x: f64) -> String {
        let text = match self {
            Format::Count => format!("{x:.0}"),
            Format::Share => format!("{:.1} %", 100.0 * x),
            Format::Ratio | Format::Seconds | Format::Rate => format!("{x:.3}"),
        };
        retry_core::words::number(&text)
    }

    /// A difference of two numbers in a cell, signed. A difference of two
    /// shares is in percentage points: from 63 % to 96 % is +33 pp, not
    /// +33 %.
    pub fn delta(self, x: f64) -> String {
        let sign = if x > 0.0 { "+" } else { "" };
        match self {
            Format::Share => retry_core::tf!("{x} pp", x = format!("{sign}{:.1}", 100.0 * x)),
            _ => format!("{sign}{}", self.cell(x)),
        }
    }
}

/// One row of the table: everything about one number.
#[derive(Debug, Clone, Copy)]
pub struct Number {
    pub label: Text,
    /// The summary table's words for it where they are not `label`'s: its
    /// cells carry no unit, so a time's label does.
    pub in_table: Option<Text>,
    /// The glossary entry that explains it.
    pub term: Option<&'static str>,
    /// How it is read from a report's summary.
    pub read: fn(&Summary) -> f64,
    pub format: Format,
    pub better: Better,
    /// Its column's name in the CSV files that hold it (the sweep's).
    pub csv: Option<&'static str>,
}

/// A number of a report, by name: a row of the table ([`Metric::number`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// Operations the users started.
    Operations,
    /// Share of operations that ended in success.
    Success,
    /// Attempts of the top layer per operation.
    AttemptsPerOperation,
    /// Calls reaching the server (the bottom layer) per operation.
    LoadAmplification,
    /// The same figure, named for a chain of layers: calls at the bottom
    /// per request.
    BottomCalls,
    /// Share of operations that were retried at least once.
    Retried,
    /// Retries a budget refused.
    BudgetRefusals,
    /// Operations that ran out of their deadline.
    DeadlineExceeded,
    /// Executions of an action beyond its first.
    Duplicates,
    /// Median of operation latency.
    P50,
    /// 99th percentile of operation latency.
    P99,
    /// Share of the server's work whose answer nobody used.
    WastedWork,
    /// Operations that succeeded per second.
    Goodput,
    /// Calls reaching the server in all.
    Calls,
    /// When the last operation finished.
    Completion,
    /// With a rate limit, the share of the retries between its first
    /// reset and the next that went in the busiest 100 ms.
    ResetHerd,
    /// The round trips to the server before its breaker first opened.
    BreakerOpenedAfter,
}

impl Metric {
    /// Every number, in the order of the enum.
    pub const ALL: [Metric; 17] = [
        Metric::Operations,
        Metric::Success,
        Metric::AttemptsPerOperation,
        Metric::LoadAmplification,
        Metric::BottomCalls,
        Metric::Retried,
        Metric::BudgetRefusals,
        Metric::DeadlineExceeded,
        Metric::Duplicates,
        Metric::P50,
        Metric::P99,
        Metric::WastedWork,
        Metric::Goodput,
        Metric::Calls,
        Metric::Completion,
        Metric::ResetHerd,
        Metric::BreakerOpenedAfter,
    ];

    /// The number's row.
    pub fn number(self) -> Number {
        use Better::{Higher, Lower, Neither};
        match self {
            Metric::Operations => row(
                Text("Operations"),
                None,
                |s| s.operations as f64,
                Format::Count,
                Neither,
            ),
            Metric::Success => Number {
                csv: Some("success"),
                ..row(
                    Text("User-visible success"),
                    Some("success"),
                    |s| s.success_rate,
                    Format::Share,
                    Higher,
                )
            },
            Metric::AttemptsPerOperation => row(
                Text("Attempts per operation"),
                None,
                |s| s.attempts_per_operation,
                Format::Ratio,
                Lower,
            ),
            Metric::LoadAmplification => Number {
                in_table: Some(Text("Calls at the bottom layer per operation")),
                csv: Some("calls_per_operation"),
                ..row(
                    Text("Server calls per operation"),
                    Some("load-amplification"),
                    |s| s.server_calls_per_operation,
                    Format::Ratio,
                    Lower,
                )
            },
            Metric::BottomCalls => row(
                Text("Calls at the bottom per request"),
                Some("load-amplification"),
                |s| s.server_calls_per_operation,
                Format::Ratio,
                Lower,
            ),
            Metric::Retried => row(
                Text("Operations retried"),
                None,
                |s| s.retried_share,
                Format::Share,
                Neither,
            ),
            Metric::BudgetRefusals => Number {
                in_table: Some(Text("Budget refusals")),
                ..row(
                    Text("Retries the budget refused"),
                    Some("retry-budget"),
                    |s| s.budget_refusals as f64,
                    Format::Count,
                    Neither,
                )
            },
            Metric::DeadlineExceeded => row(
                Text("Deadline exceeded"),
                Some("deadline"),
                |s| s.deadline_exceeded as f64,
                Format::Count,
                Lower,
            ),
            Metric::Duplicates => Number {
                in_table: Some(Text("Duplicates")),
                ..row(
                    Text("Duplicate executions"),
                    Some("idempotency-key"),
                    |s| s.duplicates as f64,
                    Format::Count,
                    Lower,
                )
            },
            Metric::P50 => Number {
                in_table: Some(Text("Latency p50 (s)")),
                ..row(
                    Text("Latency p50"),
                    Some("percentiles"),
                    |s| s.latency_p50,
                    Format::Seconds,
                    Lower,
                )
            },
            Metric::P99 => Number {
                in_table: Some(Text("Latency p99 (s)")),
                ..row(
                    Text("Latency p99"),
                    Some("percentiles"),
                    |s| s.latency_p99,
                    Format::Seconds,
                    Lower,
                )
            },
            // Orphaned work is wasted too: its answer stops at a service
            // whose caller had gone.
            Metric::WastedWork => row(
                Text("Wasted server work"),
                Some("wasted-work"),
                |s| (s.wasted_work + s.orphaned_work) / s.server_work.max(1e-12),
                Format::Share,
                Lower,
            ),
            Metric::Goodput => row(
                Text("Goodput"),
                Some("goodput"),
                |s| s.goodput,
                Format::Rate,
                Higher,
            ),
            Metric::Calls => row(
                Text("Calls"),
                None,
                |s| (s.first_tries + s.retries) as f64,
                Format::Count,
                Lower,
            ),
            Metric::Completion => row(
                Text("Last client done at"),
                None,
                |s| s.finished_at,
                Format::Seconds,
                Lower,
            ),
            Metric::ResetHerd => row(
                Text("Retries in the busiest 100 ms after a reset"),
                Some("retry-after"),
                |s| s.reset_herd.map_or(0.0, |herd| herd.share()),
                Format::Share,
                Lower,
            ),
            Metric::BreakerOpenedAfter => row(
                Text("Round trips before the breaker opened"),
                Some("circuit-breaker"),
                |s| s.breaker_opened_after.map_or(0.0, |n| n as f64),
                Format::Count,
                Neither,
            ),
        }
    }

    pub fn label(self) -> &'static str {
        self.number().label.get()
    }

    /// The number's name in a lesson's text (`{B.duplicates}`, see
    /// `prose`): short, and no parameter's key.
    pub fn key(self) -> &'static str {
        match self {
            Metric::Operations => "operations",
            Metric::Success => "success",
            Metric::AttemptsPerOperation => "attempts_per_operation",
            Metric::LoadAmplification => "load",
            Metric::BottomCalls => "bottom_calls",
            Metric::Retried => "retried",
            Metric::BudgetRefusals => "refusals",
            Metric::DeadlineExceeded => "deadline_exceeded",
            Metric::Duplicates => "duplicates",
            Metric::P50 => "p50",
            Metric::P99 => "p99",
            Metric::WastedWork => "wasted",
            Metric::Goodput => "goodput",
            Metric::Calls => "calls",
            Metric::Completion => "completion",
            Metric::ResetHerd => "reset_herd",
            Metric::BreakerOpenedAfter => "opened_after",
        }
    }

    /// The summary table's label.
    pub fn table_label(self) -> &'static str {
        let number = self.number();
        number.in_table.unwrap_or(number.label).get()
    }

    /// The glossary entry that explains the number.
    pub fn term(self) -> Option<&'static str> {
        self.number().term
    }

    /// The number in a run's summary.
    pub fn read(self, summary: &Summary) -> f64 {
        (self.number().read)(summary)
    }

    /// The number in a run's report.
    pub fn value(self, report: &Report) -> f64 {
        self.read(&report.summary)
    }

    /// The number written as a headline shows it.
    pub fn format(self, value: f64) -> String {
        self.number().format.headline(value)
    }

    pub fn better(self) -> Better {
        self.number().better
    }

    /// The number's column in a CSV file; `None` for numbers no file holds.
    pub fn csv(self) -> Option<&'static str> {
        self.number().csv
    }
}

/// A row with the words it has everywhere and no CSV column.
const fn row(
    label: Text,
    term: Option<&'static str>,
    read: fn(&Summary) -> f64,
    format: Format,
    better: Better,
) -> Number {
    Number {
        label,
        in_table: None,
        term,
        read,
        format,
        better,
        csv: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_is_every_metric_in_order() {
        for (i, metric) in Metric::ALL.into_iter().enumerate() {
            assert_eq!(metric as usize, i, "{metric:?}");
        }
        // The last variant closes the list.
        assert_eq!(Metric::ALL.len(), Metric::BreakerOpenedAfter as usize + 1);
    }

    #[test]
    fn each_number_has_its_own_words() {
        for (i, a) in Metric::ALL.iter().enumerate() {
            for b in &Metric::ALL[i + 1..] {
                assert_ne!(a.label(), b.label(), "{a:?} and {b:?}");
                assert_ne!(a.table_label(), b.table_label(), "{a:?} and {b:?}");
                assert_ne!(a.key(), b.key(), "{a:?} and {b:?}");
                if a.csv().is_some() {
                    assert_ne!(a.csv(), b.csv(), "{a:?} and {b:?}");
                }
            }
        }
    }

    #[test]
    fn a_headline_carries_its_unit_and_a_cell_leaves_it_to_the_label() {
        assert_eq!(Format::Share.headline(0.6321), "63.2 %");
        assert_eq!(Format::Share.cell(0.6321), "63.2 %");
        assert_eq!(Format::Share.delta(0.33), "+33.0 pp");
        assert_eq!(Format::Ratio.headline(2.0), "2.00x");
        assert_eq!(Format::Ratio.cell(2.0), "2.000");
        assert_eq!(Format::Seconds.headline(1.5), "1.50 s");
        assert_eq!(Format::Seconds.delta(-0.75), "-0.750");
        assert_eq!(Format::Rate.headline(39.96), "40.0/s");
        assert_eq!(Format::Count.delta(3.0), "+3");
        assert_eq!(Metric::P99.table_label(), "Latency p99 (s)");
        assert_eq!(Format::Share.range(0.61, 0.6512), "61.0\u{2013}65.1 %");
        assert_eq!(Format::Ratio.range(7.24, 7.27), "7.24\u{2013}7.27x");
        assert_eq!(Format::Count.range(341.0, 412.0), "341\u{2013}412");
    }

    #[test]
    fn the_better_side_follows_the_direction() {
        assert_eq!(Better::Higher.side(0.5, 0.9), Some(Side::B));
        assert_eq!(Better::Lower.side(0.5, 0.9), Some(Side::A));
        assert_eq!(Better::Neither.side(0.5, 0.9), None);
    }
}
