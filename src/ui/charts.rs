//! Canvas charts: one narrow memo per chart, one effect per canvas that redraws when its data changes.

use crate::chart::{latency, throughput};
use crate::scenario::{Report, ScenarioError};
use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;

/// Both charts.
#[component]
pub fn Charts(
    /// The evaluation.
    report: Memo<Result<Report, ScenarioError>>,
    /// Imported measurements, drawn as crosses on the throughput chart.
    measurements: RwSignal<Vec<crate::import::Measurement>>,
) -> impl IntoView {
    let tput = Memo::new(move |_| {
        report.with(|r| {
            r.as_ref().ok().map(|r| {
                let mut d = throughput::ThroughputData::from_report(r);
                measurements.with(|ms| d.add_measurements(ms, r.prompt_tokens, r.output_tokens));
                d
            })
        })
    });
    let lat = Memo::new(move |_| report.with(|r| r.as_ref().ok().map(latency::LatencyData::from_report)));
    let draw_tput: DrawFn<throughput::ThroughputData> = throughput::draw::<CanvasBackend>;
    let draw_lat: DrawFn<latency::LatencyData> = latency::draw::<CanvasBackend>;
    // Window width, so the charts re-lay out (not just shrink) on narrow screens and after a resize.
    let viewport = RwSignal::new(window_width());
    let handle = window_event_listener(leptos::ev::resize, move |_| viewport.set(window_width()));
    on_cleanup(move || handle.remove());
    view! {
        <figure class="chart">
            <figcaption>"Per-user and system tokens/s against concurrency"
                <small>" — per user = 1 / TPOT while generating; system = all output tokens ÷ time, prompts included, so one user's system figure sits below the per-user one. Blue: per user (thin: at the target percentile); orange: system; red: the target's per-user floor; dashed: saturation knee; green ring: operating point; band: ± the model's validated p90 error (single-stream band for one user, batched band under load); crosses: your imported measurements."</small>
            </figcaption>
            <ChartCanvas id="chart-throughput" data=tput draw=draw_tput viewport />
        </figure>
        <figure class="chart">
            <figcaption>"TTFT and TPOT at P50 / P95 / P99 (simulated continuous batching)"
                <small>" — purple: TTFT (left axis), teal: TPOT (right axis); thick P50, thin P95, medium P99; dashed: the targets. Saturated levels (queue growing without bound) and TTFTs beyond 4 × the target are clipped at the top."</small>
            </figcaption>
            <ChartCanvas id="chart-latency" data=lat draw=draw_lat viewport />
        </figure>
    }
}

type DrawFn<T> = fn(&DrawingArea<CanvasBackend, plotters::coord::Shift>, &T, f64) -> Result<(), String>;

/// Default logical (CSS) size of a chart. The drawn size follows the canvas's CSS width (narrow screens get a
/// narrower layout with the same text size), and the canvas holds devicePixelRatio times as many pixels, so
/// lines and text are crisp on HiDPI screens.
const WIDTH: f64 = 900.0;
const HEIGHT: f64 = 420.0;

fn window_width() -> f64 {
    web_sys::window().and_then(|w| w.inner_width().ok()).and_then(|v| v.as_f64()).unwrap_or(WIDTH)
}

#[component]
fn ChartCanvas<T: Clone + PartialEq + Send + Sync + 'static>(
    /// DOM id of the canvas.
    id: &'static str,
    /// What to draw (`None` when the scenario is invalid).
    data: Memo<Option<T>>,
    /// The plotters drawing function.
    draw: DrawFn<T>,
    /// Window width (read so that a resize redraws).
    viewport: RwSignal<f64>,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let (problem, set_problem) = signal(None::<String>);
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        viewport.track();
        let scale = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).clamp(1.0, 4.0);
        let css_w = f64::from(el.client_width());
        let logical_w = if css_w > 0.0 { css_w.clamp(300.0, 1600.0) } else { WIDTH };
        let logical_h = (logical_w * 0.47).clamp(260.0, HEIGHT);
        let (w, h) = ((logical_w * scale).round() as u32, (logical_h * scale).round() as u32);
        if el.width() != w || el.height() != h {
            el.set_width(w);
            el.set_height(h);
        }
        let result = data.with(|d| match d {
            None => {
                // Clear the stale chart: the inputs are invalid, the message is shown above.
                if let Some(b) = CanvasBackend::with_canvas_object(el.clone()) {
                    let _ = b.into_drawing_area().fill(&WHITE);
                }
                Ok(())
            }
            Some(d) => match CanvasBackend::with_canvas_object(el.clone()) {
                Some(b) => draw(&b.into_drawing_area(), d, scale),
                None => Err("canvas unavailable".into()),
            },
        });
        set_problem.set(result.err());
    });
    view! {
        <canvas id=id node_ref=canvas width=WIDTH as u32 height=HEIGHT as u32></canvas>
        <p class="chart-problem">{move || problem.get()}</p>
    }
}
