//! The core in a real browser (wasm-bindgen-test in headless Chromium): the
//! same numbers as natively, and charts that really put pixels on a canvas.
#![cfg(target_arch = "wasm32")]

mod common;

use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use retry_core::policy::Policy;
use retry_core::random::Stream;
use retry_draw::{Plotted, Theme, draw_load, run_colour};
use retry_sim::config::Config;
use retry_sim::sim::{self, Scenario};
use retry_sim::simulate;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

use common::golden;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn report_matches_the_native_pin() {
    for pin in &golden::REPORTS {
        let (config, _) = Config::from_link(pin.link);
        golden::check(pin, &simulate::to_json(&simulate::run(&config)));
    }
}

#[wasm_bindgen_test]
fn the_replays_trace_matches_the_native_pin() {
    let text = golden::trace_text();
    assert_eq!(
        golden::fingerprint(&text),
        golden::TRACE_FINGERPRINT,
        "{text:.400}"
    );
}

#[wasm_bindgen_test]
fn pauses_match_the_native_pin() {
    let (config, _) = Config::from_link(golden::LINK);
    let pauses: Vec<f64> = config
        .policy()
        .pauses(&mut Stream::new(config.seed(), 3))
        .collect();
    assert_eq!(pauses, golden::CLIENT3_PAUSES);
}

#[wasm_bindgen_test]
fn default_pauses_stay_under_their_ceilings_in_wasm() {
    // attempts=4, base=0.1, cap=0.8: 3 pauses within 0.1, 0.2, 0.4 s.
    let policy = Policy::default();
    for seed in 0..1000 {
        let pauses: Vec<f64> = policy.pauses(&mut Stream::new(seed, 0)).collect();
        assert_eq!(pauses.len(), 3);
        for (pause, bound) in pauses.iter().zip([0.1, 0.2, 0.4]) {
            assert!((0.0..=bound).contains(pause));
        }
    }
}

#[wasm_bindgen_test]
fn load_chart_paints_a_real_canvas() {
    let document = web_sys::window().unwrap().document().unwrap();
    let canvas: web_sys::HtmlCanvasElement = document
        .create_element("canvas")
        .unwrap()
        .dyn_into()
        .unwrap();
    canvas.set_width(600);
    canvas.set_height(300);
    document.body().unwrap().append_child(&canvas).unwrap();
    let scenario = Scenario {
        horizon: 10.0,
        failure: 0.5,
        ..Scenario::default()
    };
    let result = sim::run(&scenario);
    let area = CanvasBackend::with_canvas_object(canvas.clone())
        .unwrap()
        .into_drawing_area();
    let runs = [Plotted {
        name: "",
        report: &result,
        bounds: &[],
        deadline: None,
    }];
    draw_load(&area, &runs, &scenario, &Theme::light(1.0)).unwrap();
    area.present().unwrap();

    let context: web_sys::CanvasRenderingContext2d = canvas
        .get_context("2d")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    let pixels = context
        .get_image_data(0.0, 0.0, 600.0, 300.0)
        .unwrap()
        .data()
        .0;
    // First tries (policy A's blue), retries (the same blue, lighter: 40 %
    // of it on the white background) and capacity (green) must all have
    // been painted: count pixels near each colour (blended fills included,
    // so the tolerance is wide).
    let theme = Theme::light(1.0);
    let blue = run_colour(&theme, 0);
    let lighter = |c: u8| (255.0 + (f64::from(c) - 255.0) * 0.4).round() as u8;
    let light_blue = RGBColor(lighter(blue.0), lighter(blue.1), lighter(blue.2));
    for colour in &[blue, light_blue, theme.palette[2]] {
        let near = pixels
            .chunks(4)
            .filter(|p| {
                (i32::from(p[0]) - i32::from(colour.0)).abs() < 40
                    && (i32::from(p[1]) - i32::from(colour.1)).abs() < 40
                    && (i32::from(p[2]) - i32::from(colour.2)).abs() < 40
            })
            .count();
        assert!(near > 50, "colour {colour:?} painted on only {near} pixels");
    }
}
