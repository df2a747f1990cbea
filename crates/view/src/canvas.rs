//! The charts' canvases: where each stands on the page, its size in
//! device pixels, the theme it is drawn in, how its text is measured.

use retry_core::chart_id::ChartId;
use retry_draw::Theme;

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

/// A chart on the page: the id of its canvas and where it stands. The
/// page's ids are the view's, not the vocabulary's.
pub trait OnPage: Sized {
    /// The id of the page's canvas that draws it.
    fn canvas_id(self) -> &'static str;
    /// Where it stands when it is not the lesson's chart.
    fn home(self) -> Place;
    /// The chart whose canvas this is.
    fn from_canvas_id(id: &str) -> Option<Self>;
}

impl OnPage for ChartId {
    fn canvas_id(self) -> &'static str {
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
    fn home(self) -> Place {
        match self {
            ChartId::Load | ChartId::Pauses | ChartId::Latency | ChartId::Sweep => Place::Below,
            ChartId::Mechanism | ChartId::Contention | ChartId::Map => Place::OnRequest,
            ChartId::Replay | ChartId::Frontier => Place::Own,
        }
    }

    fn from_canvas_id(id: &str) -> Option<ChartId> {
        ChartId::ALL
            .into_iter()
            .find(|chart| chart.canvas_id() == id)
    }
}

/// Where each chart that moves stands when the lesson's chart is `key`,
/// in page order.
pub fn chart_places(key: ChartId) -> Vec<(ChartId, Place)> {
    ChartId::ALL
        .into_iter()
        .filter(|chart| chart.home() != Place::Own)
        .map(|chart| {
            (
                chart,
                if chart == key {
                    Place::Key
                } else {
                    chart.home()
                },
            )
        })
        .collect()
}

/// Device pixels per CSS pixel the charts are drawn at: at least 1, and
/// at most 4, beyond which the canvas costs memory nobody can see.
pub fn pixel_scale(device_pixel_ratio: f64) -> f64 {
    device_pixel_ratio.clamp(1.0, 4.0)
}

/// How much larger a chart's words and lines are in front of a room: the
/// smallest text, 11 px, reads at 20 px from the back of it.
pub const PRESENTING_ZOOM: f64 = 20.0 / 11.0;

/// The charts' colours for the person's colour scheme and screen, and
/// their words' size: larger in front of a room.
pub fn theme(dark: bool, device_pixel_ratio: f64, presenting: bool) -> Theme {
    let zoom = if presenting { PRESENTING_ZOOM } else { 1.0 };
    let scale = pixel_scale(device_pixel_ratio) * zoom;
    if dark {
        Theme::dark(scale)
    } else {
        Theme::light(scale)
    }
}

/// A canvas's size in device pixels for its box in CSS pixels; a box not
/// laid out yet still gets a chart of readable size.
pub fn canvas_size(client_width: i32, client_height: i32, device_pixel_ratio: f64) -> (u32, u32) {
    let scale = pixel_scale(device_pixel_ratio);
    let device = |css: i32| (f64::from(css) * scale).round() as u32;
    (
        device(client_width.max(200)),
        device(client_height.max(150)),
    )
}

/// The canvas `font` for a text style: the string the canvas backend
/// draws with, so measured text is drawn text.
pub fn canvas_font(style: &str, size: f64, family: &str) -> String {
    format!("{style} {size}px {family}")
}

/// The box of a text `width` pixels wide in a font `size` pixels high: a
/// line is about 1.2 font sizes, as a browser lays it out.
pub fn text_box(width: f64, size: f64) -> (u32, u32) {
    (width.ceil() as u32, (size * 1.2).ceil() as u32)
}

/// When a render ended (ms since navigation) and how long it took (ms),
/// as the page stamps them on `<body>` for tests: whole ms for the
/// instant, tenths for the duration.
pub fn render_times(ended: f64, took: f64) -> (String, String) {
    (format!("{ended:.0}"), format!("{took:.1}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canvas_ids_name_one_chart_each() {
        for chart in ChartId::ALL {
            assert_eq!(ChartId::from_canvas_id(chart.canvas_id()), Some(chart));
            assert_eq!(chart.canvas_id(), format!("chart-{}", chart.word()));
        }
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
    use retry_teach::presets::PRESETS;

    #[test]
    fn the_lessons_chart_goes_first_and_the_rest_keep_their_order() {
        let places = chart_places(ChartId::Sweep);
        assert_eq!(
            places,
            [
                (ChartId::Load, Place::Below),
                (ChartId::Pauses, Place::Below),
                (ChartId::Latency, Place::Below),
                (ChartId::Sweep, Place::Key),
                (ChartId::Mechanism, Place::OnRequest),
                (ChartId::Contention, Place::OnRequest),
                (ChartId::Map, Place::OnRequest),
            ]
        );
        // The charts on request come out when they carry the lesson.
        assert_eq!(
            chart_places(ChartId::Mechanism)[4],
            (ChartId::Mechanism, Place::Key)
        );
        // Every preset's chart is one the page has.
        for preset in PRESETS {
            let key = preset.key_chart;
            assert!(key.can_be_key(), "{}", preset.key);
            assert_eq!(
                chart_places(key)
                    .iter()
                    .filter(|(_, p)| *p == Place::Key)
                    .count(),
                1,
                "{}",
                preset.key
            );
        }
        assert_eq!(
            [Place::Key, Place::Below, Place::OnRequest, Place::Own].map(Place::container),
            ["key-slot", "charts", "more-charts", "replay"]
        );
    }

    #[test]
    fn canvases_are_sized_in_device_pixels() {
        assert_eq!(canvas_size(640, 300, 2.0), (1280, 600));
        assert_eq!(canvas_size(0, 0, 1.0), (200, 150), "not laid out yet");
        assert_eq!(canvas_size(640, 300, 0.5), (640, 300));
        assert_eq!(canvas_size(100, 100, 9.0), (800, 600));
        assert_eq!(canvas_size(333, 333, 1.5), (500, 500));
        assert_eq!(theme(true, 3.0, false).scale, 3.0);
        // In front of a room the smallest words, 11 px, are drawn at 20.
        assert_eq!((11.0 * theme(false, 1.0, true).scale).round(), 20.0);
        assert_eq!(
            theme(false, 1.0, false).background,
            Theme::light(1.0).background
        );
        assert_eq!(
            theme(true, 1.0, false).background,
            Theme::dark(1.0).background
        );
    }

    #[test]
    fn text_is_measured_in_the_font_it_is_drawn_in() {
        assert_eq!(
            canvas_font("normal", 13.0, "sans-serif"),
            "normal 13px sans-serif"
        );
        assert_eq!(canvas_font("bold", 12.5, "serif"), "bold 12.5px serif");
        assert_eq!(text_box(40.2, 10.0), (41, 12));
        assert_eq!(text_box(40.0, 13.0), (40, 16));
    }

    #[test]
    fn render_times_are_rounded() {
        assert_eq!(
            render_times(1234.56, 7.25),
            ("1235".to_string(), "7.2".to_string())
        );
    }
}
