//! Browser smoke tests (wasm32 only), run by wasm-bindgen-test-runner in headless Chromium:
//! the model evaluates inside WASM, and the page mounts and renders its results and charts.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

#[wasm_bindgen_test]
fn model_runs_in_wasm() {
    let s = tps_planner::scenario::Scenario::from_json(
        r#"{"hardware":{"memory_bandwidth_gbps":400},"model":{"params_b":8},"quantization":{"weight_bits":4}}"#,
    )
    .unwrap();
    let r = tps_planner::plan::evaluate(&s).unwrap();
    // 400 GB/s ÷ (8e9 params − embedding) × 4 bits = 107 tok/s ceiling, below 400/4 = 100 ×1.07.
    assert!(r.single_stream.ceiling_tps > 95.0 && r.single_stream.ceiling_tps < 115.0, "{}", r.single_stream.ceiling_tps);
    assert!(!r.sweep.is_empty());
}

#[wasm_bindgen_test]
async fn app_mounts_and_draws() {
    let host = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&host).unwrap();
    let handle = leptos::mount::mount_to(host.clone().dyn_into().unwrap(), tps_planner::ui::App);
    // Let effects run (canvas drawing happens in an effect).
    wasm_bindgen_futures_tick().await;
    let ceiling = document().get_element_by_id("ceiling").expect("ceiling rendered");
    let text = ceiling.text_content().unwrap();
    let value: f64 = text.trim_end_matches(" tok/s").split_whitespace().next().unwrap().parse().unwrap();
    assert!(value > 100.0, "ceiling {text}");
    let canvas: web_sys::HtmlCanvasElement = document().get_element_by_id("chart-throughput").unwrap().dyn_into().unwrap();
    let ctx: web_sys::CanvasRenderingContext2d = canvas.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
    let data = ctx.get_image_data(0.0, 0.0, f64::from(canvas.width()), f64::from(canvas.height())).unwrap().data();
    let inked = data.chunks(4).filter(|p| p[0] < 250 || p[1] < 250 || p[2] < 250).count();
    assert!(inked > 1000, "chart looks blank: {inked} inked pixels");
    drop(handle);
}

use wasm_bindgen::JsCast;

/// Yields to the browser's event loop a few times so effects and microtasks run.
async fn wasm_bindgen_futures_tick() {
    for _ in 0..5 {
        let p = js_sys::Promise::new(&mut |resolve, _| {
            web_sys::window().unwrap().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 20).unwrap();
        });
        wasm_bindgen_futures::JsFuture::from(p).await.unwrap();
    }
}
