//! Which chart: one value per chart the page draws, and everything that
//! names it. Presets, embeds, the page's job, the downloads and the glue
//! all speak of a chart as a [`ChartId`]; its canvas id, its word in links
//! and file names and where it stands come from here, so no list of chart
//! names is kept anywhere else. A leaf: it imports nothing of the crate.

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

/// Where a chart stands on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// First and large, beside the headline numbers: the lesson's chart.
    Key,
    /// Below, with the other numbers.
    Below,
    /// Behind "More charts": drawn only once opened.
    OnRequest,
    /// In a panel of its own that never moves: the replay, the search.
    Own,
}

impl Place {
    /// The id of the element that holds the charts of this place.
    pub fn container(self) -> &'static str {
        match self {
            Place::Key => "key-slot",
            Place::Below => "charts",
            Place::OnRequest => "more-charts",
            Place::Own => "replay",
        }
    }
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

    /// The id of the page's canvas that draws it.
    pub const fn canvas_id(self) -> &'static str {
        match self {
            ChartId::Load => "chart-load",
            ChartId::Pauses => "chart-pauses",
            ChartId::Latency => "chart-latency",
            ChartId::Sweep => "chart-sweep",
            ChartId::Mechanism => "chart-mechanism",
            ChartId::Contention => "chart-contention",
            ChartId::Map => "chart-map",
            ChartId::Replay => "chart-replay",
            ChartId::Frontier => "chart-frontier",
        }
    }

    /// Where it stands when it is not the lesson's chart: the mechanism
    /// and the contention over many seeds answer one lesson each, so they
    /// wait behind "More charts".
    pub const fn home(self) -> Place {
        match self {
            ChartId::Load | ChartId::Pauses | ChartId::Latency | ChartId::Sweep => Place::Below,
            ChartId::Mechanism | ChartId::Contention | ChartId::Map => Place::OnRequest,
            ChartId::Replay | ChartId::Frontier => Place::Own,
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

    /// The chart whose canvas this is.
    pub fn from_canvas_id(id: &str) -> Option<ChartId> {
        ChartId::ALL
            .into_iter()
            .find(|chart| chart.canvas_id() == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_canvas_ids_name_one_chart_each() {
        for chart in ChartId::ALL {
            assert_eq!(ChartId::from_word(chart.word()), Some(chart));
            assert_eq!(ChartId::from_canvas_id(chart.canvas_id()), Some(chart));
            assert_eq!(chart.canvas_id(), format!("chart-{}", chart.word()));
        }
        assert_eq!(ChartId::from_word("LATENCY"), Some(ChartId::Latency));
        assert_eq!(ChartId::from_word("lesson"), None);
        assert_eq!(ChartId::from_canvas_id("chart-nothing"), None);
    }

    /// Every canvas of the page but the room's QR code is a chart of the
    /// enum and every chart of the enum a canvas of the page, in the same
    /// order.
    #[test]
    fn the_pages_canvases_are_the_charts() {
        let html = include_str!("../../../index.html");
        let (canvases, others): (Vec<&str>, Vec<&str>) = html
            .split("<canvas id=\"")
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .partition(|id| id.starts_with("chart-"));
        assert_eq!(others, ["follow-code"]);
        let charts: Vec<&str> = ChartId::ALL.iter().map(|c| c.canvas_id()).collect();
        let mut in_page = canvases.clone();
        in_page.sort_unstable();
        let mut all = charts.clone();
        all.sort_unstable();
        assert_eq!(in_page, all, "index.html's canvases against ChartId::ALL");
        // The page order of the charts that move (the replay's panel comes
        // first, the search's after the charts).
        let moving: Vec<&str> = canvases
            .into_iter()
            .filter(|id| ChartId::from_canvas_id(id).is_some_and(|c| c.home() != Place::Own))
            .collect();
        assert_eq!(moving, &charts[..7]);
    }
}
