//! Which chart: one value per chart the page draws, and its word. Presets,
//! embeds, the page's job, the downloads and the glue all speak of a chart
//! as a [`ChartId`]; its word in links and file names comes from here, its
//! canvas and where it stands on the page from the view
//! (`retry_view::canvas`), so no list of chart names is kept anywhere
//! else. A leaf: it imports nothing of the crate.

/// One chart of the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChartId {
    /// Tries and retries reaching the server over time, against capacity.
    Load,
    /// The pauses clients took before each retry, against the formula.
    Pauses,
    /// The distribution of operation latency.
    Latency,
    /// Success and load against the failure rate.
    Sweep,
    /// In-flight requests, the queue and a budget's level over time.
    Mechanism,
    /// Calls and completion time over many seeds, per jitter.
    Contention,
    /// Where a capacity loss leaves the world broken: trigger length
    /// against size (or load), a panel per policy.
    Map,
    /// A lane per followed client, a dot where its request is.
    Replay,
    /// The search for a better policy: success against calls per
    /// operation, a dot per policy searched.
    Frontier,
}

impl ChartId {
    /// Every chart, in the page's order.
    pub const ALL: [ChartId; 9] = [
        ChartId::Load,
        ChartId::Pauses,
        ChartId::Latency,
        ChartId::Sweep,
        ChartId::Mechanism,
        ChartId::Contention,
        ChartId::Map,
        ChartId::Replay,
        ChartId::Frontier,
    ];

    /// Its word in links (`embed=latency`) and file names (`herd-seed1-latency.png`).
    pub const fn word(self) -> &'static str {
        match self {
            ChartId::Load => "load",
            ChartId::Pauses => "pauses",
            ChartId::Latency => "latency",
            ChartId::Sweep => "sweep",
            ChartId::Mechanism => "mechanism",
            ChartId::Contention => "contention",
            ChartId::Map => "map",
            ChartId::Replay => "replay",
            ChartId::Frontier => "frontier",
        }
    }

    /// Whether it is drawn from the runs of A and B alone (the sweep and
    /// the contention chart have runs of their own, the replay a trace).
    pub const fn from_runs(self) -> bool {
        matches!(
            self,
            ChartId::Load | ChartId::Pauses | ChartId::Latency | ChartId::Mechanism
        )
    }

    /// Whether it can carry a lesson in the key place (the replay and the
    /// search open in panels of their own instead).
    pub const fn can_be_key(self) -> bool {
        !matches!(self, ChartId::Replay | ChartId::Frontier)
    }

    /// The chart whose word this is, ignoring case.
    pub fn from_word(word: &str) -> Option<ChartId> {
        ChartId::ALL
            .into_iter()
            .find(|chart| chart.word().eq_ignore_ascii_case(word))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_name_one_chart_each() {
        for chart in ChartId::ALL {
            assert_eq!(ChartId::from_word(chart.word()), Some(chart));
        }
        assert_eq!(ChartId::from_word("LATENCY"), Some(ChartId::Latency));
        assert_eq!(ChartId::from_word("lesson"), None);
    }
}
