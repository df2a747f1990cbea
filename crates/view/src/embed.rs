//! The page inside another page: a link with `embed=CHART` shows that one
//! chart, the lesson and the few controls `controls=` names, in a frame as
//! small as 600 x 400, with a way out to the whole playground. What the
//! link asks for is read by [`retry_sim::link::read_link`]; this module
//! decides what an embed shows and writes the `<iframe>` snippet that
//! embeds the current state.

use retry_core::chart_id::ChartId;
use retry_core::words::tr;
use retry_core::words::{Lang, Text};
use retry_sim::config::{Config, P};
use retry_sim::link::Change;
use retry_sim::link::with_lang;
use retry_sim::link::{Embed, EmbedChart, MAX_EMBED_CONTROLS};
use retry_teach::lesson;
use retry_teach::presets::Preset;

/// The snippet's frame, in CSS pixels: the size the embed layout is made
/// for, and small enough for a column of a course page or a blog post.
pub const FRAME_WIDTH: u32 = 600;
pub const FRAME_HEIGHT: u32 = 400;

/// What the embed button says once the snippet is on the clipboard.
pub const SNIPPET_COPIED: Text = Text("Embed code copied: paste it into your page.");

/// What the embed button says when the browser did not let the page copy;
/// the snippet is then shown selected, as the link is.
pub const SNIPPET_SELECTED: Text = Text(
    "The browser did not let the page copy: the embed code is selected below, press Ctrl+C (or Cmd+C) to copy it.",
);

/// What the embed button says once it tried: `copied` is whether the
/// snippet really reached the clipboard.
pub fn snippet_copy_status(copied: bool) -> &'static str {
    if copied {
        SNIPPET_COPIED.get()
    } else {
        SNIPPET_SELECTED.get()
    }
}

/// The canvas an embed puts where the lesson's chart stands: the chart
/// the link names, else the lesson's own (`lesson_chart`). The replay has
/// a canvas of its own beside them, so the lesson's chart keeps the place.
pub fn key_chart(chart: EmbedChart, lesson_chart: ChartId) -> ChartId {
    match chart {
        EmbedChart::Chart(ChartId::Replay) | EmbedChart::Lesson => lesson_chart,
        EmbedChart::Chart(chart) => chart,
    }
}

/// The embed's own address (its query string): the configuration's link,
/// then the embed's pairs. Without them it opens the whole playground.
pub fn embed_link(config: &Config, embed: &Embed) -> String {
    format!("{}&{}", config.to_link(), embed.to_link())
}

/// What the "Embed" button embeds: the chart the page shows first (the
/// replay while it is open), and the controls the person is playing with:
/// those they moved away from the lesson's preset, then those the lesson's
/// "try this" changes, at most three; attempts and jitter when there are
/// none of either.
pub fn snippet_embed(origin: Option<&'static Preset>, config: &Config, replay_open: bool) -> Embed {
    let chart = if replay_open {
        EmbedChart::Chart(ChartId::Replay)
    } else {
        EmbedChart::Lesson
    };
    let state = lesson::lesson_state(origin, config);
    let from = state
        .as_ref()
        .map_or_else(Config::default, |s| s.preset.config());
    let moved = P::ALL
        .iter()
        .copied()
        .filter(|p| from.get(*p) != config.get(*p));
    // The keys a "try this" change names, policy B's as the control that
    // edits them: the embed's controls edit policy A.
    let tried = state
        .iter()
        .flat_map(|s| s.preset.try_this)
        .flat_map(|t| Change::read(t.change).params().collect::<Vec<_>>());
    let mut controls: Vec<P> = Vec::new();
    // Switching compare mode off would take the lesson's contrast away.
    for p in moved.chain(tried).filter(|p| *p != P::Compare) {
        if !controls.contains(&p) && controls.len() < MAX_EMBED_CONTROLS {
            controls.push(p);
        }
    }
    if controls.is_empty() {
        controls = vec![P::Attempts, P::Jitter];
    }
    Embed { chart, controls }
}

/// The `<iframe>` that embeds `config` as `embed` shows it, served from
/// `page_url` (the playground's address without its query): what another
/// page pastes. `title` names the frame for screen readers.
/// `lang` is the language the frame speaks, when the reader chose one.
pub fn snippet(
    page_url: &str,
    config: &Config,
    embed: &Embed,
    title: &str,
    lang: Option<Lang>,
) -> String {
    frame(page_url, &with_lang(embed_link(config, embed), lang), title)
}

/// The `<iframe>` that embeds a chapter of the course: `link` is the
/// chapter's embed link ([`crate::course::Course::embed_link`]).
pub fn chapter_snippet(page_url: &str, link: &str, title: &str, lang: Option<Lang>) -> String {
    frame(page_url, &with_lang(link.to_string(), lang), title)
}

fn frame(page_url: &str, query: &str, title: &str) -> String {
    let name = if title.is_empty() {
        tr("Retry playground").to_string()
    } else {
        retry_core::tf!("Retry playground: {title}", title = title)
    };
    format!(
        "<iframe src=\"{}?{}\" title=\"{}\" width=\"{FRAME_WIDTH}\" height=\"{FRAME_HEIGHT}\" \
         style=\"border:0\" loading=\"lazy\"></iframe>",
        escape_attribute(page_url),
        escape_attribute(query),
        escape_attribute(&name),
    )
}

/// Text made safe inside a double-quoted HTML attribute; `&` becomes
/// `&amp;` as HTML asks, so a link's pairs survive the paste.
fn escape_attribute(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{config, preset};
    use retry_sim::link::read_link;
    use retry_teach::presets::PRESETS;

    /// The `src` of a snippet, its escapes undone as a browser would.
    fn source(snippet: &str) -> String {
        let start = snippet.find("src=\"").expect("a snippet has a src") + 5;
        let end = start + snippet[start..].find('"').expect("the src ends");
        snippet[start..end]
            .replace("&quot;", "\"")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&")
    }

    #[test]
    fn the_snippet_opens_the_same_state_as_the_embed_it_names() {
        let state = config("v=1&compare=on&attempts=6&jitter=none&B.jitter=full&seed=9");
        let embed = Embed {
            chart: EmbedChart::Chart(ChartId::Sweep),
            controls: vec![P::Jitter, P::Attempts],
        };
        let snippet = snippet("https://example.org/play/", &state, &embed, "", None);
        assert!(snippet.starts_with("<iframe "), "{snippet}");
        assert!(snippet.ends_with("></iframe>"), "{snippet}");
        assert!(
            snippet.contains(" width=\"600\" height=\"400\" "),
            "{snippet}"
        );
        assert!(snippet.contains("title=\"Retry playground\""), "{snippet}");
        // Raw `&` would be read as character references by a strict parser.
        assert!(!snippet.contains("&compare"), "{snippet}");
        let src = source(&snippet);
        let (page, query) = src.split_once('?').expect("the src has a query");
        assert_eq!(page, "https://example.org/play/");
        assert_eq!(read_link(query), (state, Some(embed), vec![]));
    }

    #[test]
    fn a_title_never_becomes_markup_in_the_snippet() {
        let snippet = snippet(
            "https://example.org/\"><script>",
            &Config::default(),
            &snippet_embed(None, &Config::default(), false),
            "a \"quoted\" <b>title</b> & more",
            None,
        );
        assert!(!snippet.contains("<script>"), "{snippet}");
        assert!(!snippet.contains("<b>"), "{snippet}");
        assert!(
            snippet.contains("title=\"Retry playground: a &quot;quoted&quot; &lt;b&gt;title&lt;/b&gt; &amp; more\""),
            "{snippet}"
        );
        assert_eq!(snippet.matches('<').count(), 2, "{snippet}");
    }

    #[test]
    fn the_snippet_embeds_the_controls_in_play() {
        // A preset as it opens: the controls its "try this" moves.
        let herd = preset("herd");
        let embed = snippet_embed(Some(herd), &herd.config(), false);
        assert_eq!(embed.chart, EmbedChart::Lesson);
        assert_eq!(embed.controls, [P::Jitter]);
        // Policy B's change is embedded as the control that edits it.
        let budget = PRESETS
            .iter()
            .find(|p| p.try_this.iter().any(|t| t.change.starts_with("B.budget")))
            .expect("a preset tries policy B's budget");
        assert_eq!(
            snippet_embed(Some(budget), &budget.config(), true),
            Embed {
                chart: EmbedChart::Chart(ChartId::Replay),
                controls: vec![P::Budget],
            }
        );
        // What the learner moved comes first, in the table's order.
        let moved = lesson::apply(&herd.config(), "seed=5&attempts=3");
        assert_eq!(
            snippet_embed(Some(herd), &moved, false).controls,
            [P::Attempts, P::Seed, P::Jitter]
        );
        let many = lesson::apply(&herd.config(), "seed=5&attempts=3&base=1&cap=20");
        assert_eq!(
            snippet_embed(Some(herd), &many, false).controls,
            [P::Attempts, P::Base, P::Cap]
        );
        // Settings of one's own with nothing moved: the two that matter most.
        assert_eq!(
            snippet_embed(None, &Config::default(), false).controls,
            [P::Attempts, P::Jitter]
        );
        // Never compare: switching it off would lose the lesson's contrast.
        let own = config("v=1&compare=on&B.attempts=2");
        assert!(
            !snippet_embed(None, &own, false)
                .controls
                .contains(&P::Compare)
        );
    }

    #[test]
    fn the_embed_puts_its_chart_first() {
        let lesson = ChartId::Mechanism;
        assert_eq!(key_chart(EmbedChart::Lesson, lesson), lesson);
        assert_eq!(
            key_chart(EmbedChart::Chart(ChartId::Replay), lesson),
            lesson
        );
        assert_eq!(
            key_chart(EmbedChart::Chart(ChartId::Pauses), lesson),
            ChartId::Pauses
        );
    }
}
