//! Embedding: a link that asks to be shown inside another page, as one
//! chart, its lesson and a few controls.

use super::{MAX_PAIRS, clip};
use crate::config::{P, PARAMS};
use retry_core::chart_id::ChartId;

/// The key that asks for the embed layout and names its chart:
/// `embed=latency`.
pub const EMBED_KEY: &str = "embed";
/// The key that names an embed's controls, by their own keys:
/// `controls=attempts,jitter`.
pub const CONTROLS_KEY: &str = "controls";
/// Most controls an embed shows: beside a chart in a 600 x 400 frame,
/// more would crowd it.
pub const MAX_EMBED_CONTROLS: usize = 3;

/// What an embed shows in place of the lesson's chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmbedChart {
    /// Whichever chart carries the lesson of the settings.
    Lesson,
    /// This one; the replay opens beside the lesson's chart.
    Chart(ChartId),
}

impl EmbedChart {
    /// Every option with its word in a link, in the order a notice lists them.
    pub const ALL: [EmbedChart; 8] = [
        EmbedChart::Lesson,
        EmbedChart::Chart(ChartId::Load),
        EmbedChart::Chart(ChartId::Pauses),
        EmbedChart::Chart(ChartId::Latency),
        EmbedChart::Chart(ChartId::Mechanism),
        EmbedChart::Chart(ChartId::Contention),
        EmbedChart::Chart(ChartId::Sweep),
        EmbedChart::Chart(ChartId::Replay),
    ];

    /// Its word in a link.
    pub fn word(self) -> &'static str {
        match self {
            EmbedChart::Lesson => "lesson",
            EmbedChart::Chart(chart) => chart.word(),
        }
    }

    fn parse(text: &str) -> Option<EmbedChart> {
        let text = text.trim();
        // A bare `embed` asks for the embed as the lesson has it.
        if text.is_empty() {
            return Some(EmbedChart::Lesson);
        }
        EmbedChart::ALL
            .into_iter()
            .find(|chart| chart.word().eq_ignore_ascii_case(text))
    }
}

/// A link that asks to be embedded in another page: one chart, the lesson
/// and a few controls, nothing else.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Embed {
    pub chart: EmbedChart,
    /// At most [`MAX_EMBED_CONTROLS`], each once, in the link's order.
    pub controls: Vec<P>,
}

impl Embed {
    /// Reads the `embed` and `controls` pairs of a link, the last of each
    /// winning as for any key. Anything unusable is reported and replaced
    /// by what the page can show.
    pub(super) fn read(
        pairs: &[(String, String)],
        notice: &mut impl FnMut(&str, String),
    ) -> Option<Embed> {
        let last = |key: &str| pairs.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v);
        let controls = last(CONTROLS_KEY);
        let Some(chart) = last(EMBED_KEY) else {
            if controls.is_some() {
                notice(
                    CONTROLS_KEY,
                    retry_core::tf!("is read only with {key}=...; ignored", key = EMBED_KEY),
                );
            }
            return None;
        };
        let chart = EmbedChart::parse(chart).unwrap_or_else(|| {
            let words: Vec<&str> = EmbedChart::ALL.iter().map(|chart| chart.word()).collect();
            notice(
                EMBED_KEY,
                retry_core::tf!(
                    "'{chart}' must be one of {words}; showing the lesson's chart",
                    chart = clip(chart),
                    words = words.join(", ")
                ),
            );
            EmbedChart::Lesson
        });
        let mut chosen: Vec<P> = Vec::new();
        let mut named = 0;
        for name in controls
            .map(String::as_str)
            .unwrap_or("")
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            // A link's length is bounded, but its commas are not: stop
            // reading names long after the few that are shown.
            .take(MAX_PAIRS)
        {
            match PARAMS.iter().position(|p| p.key == name) {
                None => notice(
                    CONTROLS_KEY,
                    retry_core::tf!("'{name}' is no parameter's key; ignored", name = clip(name)),
                ),
                Some(index) if chosen.contains(&P::ALL[index]) => notice(
                    CONTROLS_KEY,
                    retry_core::tf!("'{name}' is named twice; shown once", name = name),
                ),
                Some(index) => {
                    named += 1;
                    if chosen.len() < MAX_EMBED_CONTROLS {
                        chosen.push(P::ALL[index]);
                    }
                }
            }
        }
        if named > MAX_EMBED_CONTROLS {
            let keys: Vec<&str> = chosen.iter().map(|p| p.param().key).collect();
            notice(
                CONTROLS_KEY,
                retry_core::tf!(
                    "{named} controls named; an embed shows at most {most}: {keys}",
                    named = named,
                    most = MAX_EMBED_CONTROLS,
                    keys = keys.join(", ")
                ),
            );
        }
        Some(Embed {
            chart,
            controls: chosen,
        })
    }

    /// The embed's pairs, to follow a configuration's link: `read_link`
    /// gives back this embed for them, and writes them back the same.
    pub fn to_link(&self) -> String {
        let mut link = format!("{EMBED_KEY}={}", self.chart.word());
        if !self.controls.is_empty() {
            let keys: Vec<&str> = self.controls.iter().map(|p| p.param().key).collect();
            link += &format!("&{CONTROLS_KEY}={}", keys.join(","));
        }
        link
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::link::read_link;

    /// An embed's pairs read back as written, after the configuration's,
    /// and the configuration alone is the same link without them.
    #[test]
    fn embed_pairs_round_trip_canonically() {
        let link = "v=1&attempts=3&embed=latency&controls=jitter,attempts";
        let (config, embed, notices) = read_link(link);
        assert_eq!(notices, []);
        let embed = embed.expect("the link asks to be embedded");
        assert_eq!(
            embed,
            Embed {
                chart: EmbedChart::Chart(ChartId::Latency),
                controls: vec![P::Jitter, P::Attempts],
            }
        );
        assert_eq!(format!("{}&{}", config.to_link(), embed.to_link()), link);
        assert_eq!(Config::from_link(link), (config, vec![]));
        // Every chart's word, and a bare `embed`, read back to themselves.
        for chart in EmbedChart::ALL {
            let word = chart.word();
            let (_, embed, notices) = read_link(&format!("v=1&embed={word}"));
            assert_eq!(notices, [], "{word}");
            assert_eq!(embed.as_ref().map(|e| e.chart), Some(chart), "{word}");
            assert_eq!(embed.map(|e| e.to_link()), Some(format!("embed={word}")));
        }
        let (_, embed, notices) = read_link("v=1&embed");
        assert_eq!(notices, []);
        assert_eq!(embed.map(|e| e.to_link()), Some("embed=lesson".to_string()));
        // Case, spaces and escaped commas are read, and written plainly.
        let (_, embed, notices) = read_link("v=1&controls=+attempts%2C%2Cjitter,&embed=LOAD");
        assert_eq!(notices, []);
        assert_eq!(
            embed.map(|e| e.to_link()),
            Some("embed=load&controls=attempts,jitter".to_string())
        );
    }

    /// Whatever a link says about embedding, the page gets a chart it can
    /// draw and at most three controls it has, and the person is told
    /// what was changed, as text.
    #[test]
    fn hostile_embed_pairs_are_reported_and_replaced() {
        let (config, embed, notices) = read_link(
            "v=1&embed=%3Cimg%20src%3Dx%3E&controls=wat,attempts,attempts,jitter,base,cap,B.jitter",
        );
        assert_eq!(config, Config::default());
        assert_eq!(
            embed,
            Some(Embed {
                chart: EmbedChart::Lesson,
                controls: vec![P::Attempts, P::Jitter, P::Base],
            })
        );
        let messages: Vec<(&str, &str)> = notices
            .iter()
            .map(|n| (n.key.as_str(), n.message.as_str()))
            .collect();
        assert_eq!(
            messages,
            [
                (
                    "embed",
                    "'<img src=x>' must be one of lesson, load, pauses, latency, mechanism, \
                     contention, sweep, replay; showing the lesson's chart"
                ),
                ("controls", "'wat' is no parameter's key; ignored"),
                ("controls", "'attempts' is named twice; shown once"),
                ("controls", "'B.jitter' is no parameter's key; ignored"),
                (
                    "controls",
                    "4 controls named; an embed shows at most 3: attempts, jitter, base"
                ),
            ]
        );
        // Controls without an embed are no embed.
        let (_, embed, notices) = read_link("v=1&controls=attempts");
        assert_eq!(embed, None);
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert_eq!(notices[0].key, "controls");
        // Endless commas cost nothing and name nothing.
        let (_, embed, notices) =
            read_link(&format!("v=1&embed=load&controls={}", ",".repeat(100_000)));
        assert_eq!(notices, []);
        assert_eq!(embed.map(|e| e.controls), Some(vec![]));
        // A name too long to repeat is cut in the notice.
        let (_, _, notices) = read_link(&format!("v=1&embed={}", "x".repeat(1000)));
        assert!(notices[0].message.len() < 200, "{:?}", notices[0]);
    }

    /// Embed pairs never reach the configuration, so a report is the same
    /// with or without them.
    #[test]
    fn embed_pairs_leave_the_configuration_alone() {
        let plain = "v=1&compare=on&attempts=5&B.jitter=none";
        let (config, embed, _) = read_link(plain);
        assert_eq!(embed, None);
        let (embedded, _, _) = read_link(&format!("{plain}&embed=sweep&controls=attempts"));
        assert_eq!(embedded, config);
        assert_eq!(embedded.to_link(), plain);
    }
}
