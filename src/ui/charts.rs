//! Canvas charts: one narrow memo per chart, one effect per canvas that redraws when its data changes. A
//! pinned scenario (A) is drawn dashed beside the page's (B). Each chart exports as PNG (the canvas's device
//! pixels) and SVG (the same drawing function over plotters' SVG backend). For printing, each canvas is redrawn
//! at a size whose text stays legible on half a page.

use super::backend::{PageBackend, PageChart};
use crate::chart::LoadScale;
use crate::plan::{charts, readout};
use crate::scenario::{Report, ScenarioError};
use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;

/// The charts (throughput, latency, the trade-off, the roofline) and the scrubber under them.
#[component]
pub fn Charts(
    /// The evaluation.
    report: ReadSignal<Result<Report, ScenarioError>>,
    /// The pinned scenario's evaluation (A), drawn dashed.
    report_a: Memo<Result<Option<Report>, ScenarioError>>,
    /// Imported measurements, drawn as crosses on the throughput chart.
    measurements: RwSignal<Vec<crate::import::Measurement>>,
    /// The scrubber: the load picked with the slider or the pointer over a chart (none: the operating point),
    /// snapped to the nearest level of the sweep; its read-out is built in the core (plan::readout). "How to
    /// read this" quotes the same level.
    pick: RwSignal<Option<f64>>,
    /// The pick the address keeps: the slider's, a click's.
    linked: super::share::LinkedLoad,
) -> impl IntoView {
    let picked = Memo::new(move |_| {
        report.with(|r| {
            r.as_ref().ok().and_then(|r| {
                // Until a load is picked, the operating point's own level (the slider at the level nearest it).
                match pick.get() {
                    Some(at) => readout::nearest_level(r, Some(at)).and_then(|i| readout::readout(r, i).map(|c| (i, c))),
                    None => {
                        let at = r.operating_point.as_ref().and_then(|o| o.load());
                        let i = readout::nearest_level(r, at)?;
                        readout::operating_readout(r).or_else(|| readout::readout(r, i)).map(|c| (i, c))
                    }
                }
            })
        })
    });
    let marker = move || picked.with(|p| p.as_ref().map(|p| p.1.load));
    let levels = move || report.with(|r| r.as_ref().map_or(0, |r| r.sweep.len()));
    let slide = move |ev: leptos::ev::Event| {
        let i = event_target_value(&ev).parse::<usize>().unwrap_or(0);
        let load = report.with_untracked(|r| r.as_ref().ok().and_then(|r| readout::readout(r, i)).map(|c| c.load));
        pick.set(load);
        linked.0.set(load);
    };
    let tput = on_report(report, move |r| {
        let mut d = charts::throughput(r);
        d.marker = marker();
        d.measured = measurements.with(|ms| charts::measured_points(ms, d.x_axis, r.prompt_tokens, r.output_tokens));
        d.compare = report_a.with(|a| a.as_ref().ok().and_then(Option::as_ref).and_then(|a| charts::throughput_overlay(a, d.x_axis)));
        PageChart::Throughput(d)
    });
    let lat = on_report(report, move |r| {
        let mut d = charts::latency(r);
        d.marker = marker();
        d.compare = report_a.with(|a| a.as_ref().ok().and_then(Option::as_ref).and_then(|a| charts::latency_overlay(a, d.x_axis)));
        PageChart::Latency(d)
    });
    let trade = on_report(report, move |r| {
        let mut d = charts::pareto(r);
        // A level's ring once one is picked (before, the card reads the operating point, which has its own green
        // ring; the nearest level's ring beside it had disagreed with the card, a review).
        d.marker = pick.get().and(picked.with(|p| p.as_ref().and_then(|p| charts::pareto_level(r, p.0))));
        PageChart::Pareto(d)
    });
    let roof = on_report(report, move |r| {
        let mut d = charts::roofline(r);
        d.marker = pick.get().and(picked.with(|p| p.as_ref().and_then(|p| d.decode.get(p.0).copied())));
        PageChart::Roofline(d)
    });
    // Window size, so the charts re-lay out (not just shrink) on narrow screens and after a resize — its height
    // too: presentation mode caps a chart at 62 % of the window's height (a review: a height-only resize kept the
    // old cap).
    let viewport = RwSignal::new(window_size());
    let handle = window_event_listener(leptos::ev::resize, move |_| viewport.set(window_size()));
    on_cleanup(move || handle.remove());
    // One block, so the sticky load control (wide screens) shows only while the charts are in the window, not over
    // the headline cards above them.
    // A model that does not fit serves no load: four empty frames ("no load levels to draw") under the cards read as
    // a page that failed to draw (a read of an unfit scenario); one line says why instead.
    let unfit = move || report.with(|r| r.as_ref().is_ok_and(|r| !r.memory.fits));
    view! {
        <div class="chart-block" id="chart-block">
        <p class="note bad" id="charts-unfit" class:hidden=move || !unfit()>
            "No charts: the model does not fit in this memory, so no load can be simulated. The verdict above says by how much and how many of these devices would hold it."
        </p>
        <div class="charts" class:hidden=unfit>
            {figure("chart", (
                "Per-user and system tokens/s against the load (per user above, system below)",
                " — two panels on one load axis: different units, so no crossing to misread. Per user = 1 / TPOT while generating (thin: at the target percentile); system = all users' output tokens ÷ time (the time reading prompts included; prompt tokens are not counted). Red line: the target's per-user floor; dotted (above): capacity at the target; dashed (below): saturation knee, where system tok/s flattens; violet dashes (below): the first load whose KV cache filled, running requests evicted; green ring: operating point; band: where 9 in 10 measurements the model was not fitted on fell (÷ / × its validated error); crosses: your imported measurements; dashed and lighter: the pinned scenario A; thin vertical line: the load picked below (slider or pointer).",
            ), ("chart-throughput", "tps-throughput", 0.66), tput, (viewport, pick, linked))}
            {figure("chart", (
                "TTFT and TPOT at P50 / P95 / P99 (simulated continuous batching)",
                " — purple: TTFT (left axis), teal: TPOT (right axis); P50 solid, P95 dashed (P90 when the target is judged at P90), P99 dotted; thin dashed: the targets, named at their left end (or above the plot, where a target is far above the curves); wide, light, long dashes: the pinned scenario A at its target percentile. The axes end just past the first level that fails the target: higher levels, saturated ones (unbounded queue) and TTFTs past 4 × the target are clipped at the top, a dot there marking each; thin vertical line: the load picked below.",
            ), ("chart-latency", "tps-latency", 0.47), lat, (viewport, pick, linked))}
            {figure("chart pareto", (
                "The trade-off: output tokens/s per user against output tokens/s per device",
                " — one point per load level: one user at the right (fastest for them), the fullest batch at the top left (most tokens per GPU, CPU or chip: the axis names the hardware's). Shaded, left of the red line: slower per user (median) than the TPOT target allows; hollow red-ringed points: levels that fail the target at its percentile, TTFT included. Green ring: operating point; the other ring: the level picked below.",
            ), ("chart-pareto", "tps-tradeoff", 0.5), trade, (viewport, pick, linked))}
            {figure("chart roofline", (
                "The roofline: what bounds each step, memory or compute",
                " — TFLOP/s a step attains against its FLOPs per byte moved, both logarithmic. Solid: the hardware's roof, bandwidth × intensity up to the peak; dashed: the engine's, at its efficiencies. Blue: the decode step at each load level (a batch shares the weights: more users climb the slope). Orange: a prefill chunk. Below a roof: time it does not count (the engine's own time per step and per sequence, small kernels, communication), and a step's two kernels in turn — the matmuls over the weights, then attention over the KV cache — which no single roof covers. Left of the engine's ridge: memory-bound; right: compute-bound. The table's bound weighs those two kernels and the steps that read prompt chunks: \"compute (matmuls)\" beside a blue point on the left is a step whose matmuls are past their ridge while its KV reads pull the point left; \"compute (prompts)\", one made compute-bound by the prompts it carries. Rings: operating point (green), level picked below (the other).",
            ), ("chart-roofline", "tps-roofline", 0.55), roof, (viewport, pick, linked))}
        </div>
        <div class="scrub" class:hidden=move || levels() == 0 || unfit()>
            <label for="scrub">"Load on the charts"</label>
            <input type="range" id="scrub" min="0" step="1" max=move || levels().saturating_sub(1) prop:value=move || picked.with(|p| p.as_ref().map_or(0, |p| p.0))
                aria-valuetext=move || picked.with(|p| p.as_ref().map(|p| p.1.load_text.clone())) on:input=slide />
            // Back to the operating point, which is rarely a level the slider stops at (a teacher's trial: "at 106
            // users, the operating point" on load, 96 and 116 users at the slider's stops once moved).
            <button type="button" id="scrub-operating"
                class:hidden=move || pick.get().is_none() || report.with(|r| r.as_ref().map_or(true, |r| r.operating_point.is_none()))
                on:click=move |_| { pick.set(None); linked.0.set(None); }>"Back to the operating point"</button>
            <p class="scrub-card" id="scrub-card" aria-live="polite">{move || picked.with(|p| p.as_ref().map(|p| p.1.text.clone()))}</p>
        </div>
        </div>
    }
}

/// A chart's data, rebuilt from the report when it (or a signal `f` reads) changes; `None` while it is an error.
fn on_report<T: PartialEq + Send + Sync + 'static>(
    report: ReadSignal<Result<Report, ScenarioError>>,
    f: impl Fn(&Report) -> T + Send + Sync + 'static,
) -> Memo<Option<T>> {
    Memo::new(move |_| report.with(|r| r.as_ref().ok().map(&f)))
}

/// A chart in its figure: (title, how to read it), (canvas id, exported files' name, height ÷ width on screen),
/// its data, and the window width and the scrubber's pick it shares with the other charts.
fn figure(
    class: &'static str,
    (title, note): (&'static str, &'static str),
    (id, file, aspect): (&'static str, &'static str, f64),
    data: Memo<Option<PageChart>>,
    (viewport, pick, linked): (RwSignal<(f64, f64)>, RwSignal<Option<f64>>, super::share::LinkedLoad),
) -> impl IntoView {
    view! {
        <figure class=class>
            <figcaption title=note.trim_start_matches(" — ")>{title}<small>{note}</small></figcaption>
            <ChartCanvas id file aspect data viewport pick linked />
        </figure>
    }
}

/// Default logical (CSS) size of a chart. The drawn size follows the canvas's CSS width (narrow screens get a
/// narrower layout with the same text size), and the canvas holds devicePixelRatio times as many pixels, so
/// lines and text are crisp on HiDPI screens.
const WIDTH: f64 = 900.0;
const HEIGHT: f64 = 420.0;
/// Logical size when printing: two charts side by side on A4 or Letter, text about 6–7 pt.
const PRINT: (f64, f64) = (560.0, 290.0);
/// Printing beside a pinned A, a chart is drawn this share of its screen aspect high (the stylesheet caps its
/// height): the latency chart 184 of 560, the per-user and system chart, whose two panels and five rows of legend
/// need the room, 259.
const PRINT_COMPARE_ASPECT: f64 = 0.7;

/// Whether a scenario is pinned as A (the comparison's section is on the page).
fn comparing() -> bool {
    web_sys::window().and_then(|w| w.document()).is_some_and(|d| d.query_selector(".compare").ok().flatten().is_some())
}

/// The window's inner width and height, CSS pixels.
fn window_size() -> (f64, f64) {
    let px = |v: Option<wasm_bindgen::JsValue>| v.and_then(|v| v.as_f64());
    let w = web_sys::window();
    (px(w.as_ref().and_then(|w| w.inner_width().ok())).unwrap_or(WIDTH), px(w.as_ref().and_then(|w| w.inner_height().ok())).unwrap_or(0.0))
}

/// The logical size to draw at: the canvas's CSS width on screen, [`PRINT`] when printing.
fn logical_size(el: &web_sys::HtmlCanvasElement, print: bool, aspect: f64) -> (f64, f64) {
    if print {
        // Beside A, the printout holds the charts to 26 mm of height (a comparison's table takes the page): drawn at
        // a wider aspect they fill more of their half of the width there, their text larger than at PRINT's (a
        // teacher's trial: the charts took 45 % of their boxes, legends about 5 pt).
        return if comparing() { (PRINT.0, (PRINT.0 * aspect * PRINT_COMPARE_ASPECT).min(PRINT.1)) } else { PRINT };
    }
    let css_w = f64::from(el.client_width());
    let w = if css_w > 0.0 { css_w.clamp(300.0, 1600.0) } else { WIDTH };
    (w, (w * aspect).clamp(260.0 * aspect / 0.47, HEIGHT * aspect / 0.47))
}

/// Whether the page is in presentation mode (`data-present` on `<html>`).
fn presenting() -> bool {
    web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()).is_some_and(|r| r.has_attribute("data-present"))
}

/// Draws `data` on the canvas (clears it when there is nothing to draw): where its load axis lies, or the error.
fn render(el: &web_sys::HtmlCanvasElement, data: Option<&PageChart>, aspect: f64, print: bool) -> Result<LoadScale, String> {
    let screen = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).clamp(1.0, 4.0);
    // Presentation mode draws text and lines 1.4 × larger: a smaller logical size at a larger scale, the
    // same device pixels (sharp on a projector).
    let zoom = if !print && presenting() { 1.4 } else { 1.0 };
    // Print at 3 × (about 250 dpi on paper), the screen at its own density.
    let scale = if print { 3.0 } else { screen * zoom };
    // …and up to a third taller: its legend's rows grow with the text, and the plot kept only what was left (the
    // captions are hidden there, so two charts side by side on a 1080-px projector have the room); never taller than
    // 62 % of the window (one chart per row on a 1400 × 900 screen stays as it was).
    let aspect = if zoom > 1.0 {
        // (62 % since the inputs hide there: the charts, wider, had grown under the load bar of a 1080-px projector.)
        let room = web_sys::window().and_then(|w| w.inner_height().ok()).and_then(|v| v.as_f64()).unwrap_or(0.0) * 0.62;
        let width = f64::from(el.client_width()).max(1.0);
        (aspect * 1.35).min(room / width).max(aspect)
    } else {
        aspect
    };
    let (lw, lh) = logical_size(el, print, aspect);
    let (lw, lh) = (lw / zoom, lh / zoom);
    let (w, h) = ((lw * scale).round() as u32, (lh * scale).round() as u32);
    if el.width() != w || el.height() != h {
        el.set_width(w);
        el.set_height(h);
    }
    let Some(canvas) = CanvasBackend::with_canvas_object(el.clone()) else { return Ok(LoadScale::default()) };
    let area = PageBackend::Canvas(canvas).into_drawing_area();
    match data {
        None => {
            // Clear the stale chart: the inputs are invalid, the message is shown above.
            let _ = area.fill(&WHITE);
            Ok(LoadScale::default())
        }
        Some(d) => d.draw_on(&area, scale),
    }
}

#[component]
fn ChartCanvas(
    /// DOM id of the canvas.
    id: &'static str,
    /// Name of its exported files (without extension).
    file: &'static str,
    /// Height ÷ width on screen (the stacked throughput panels need more height than one plot).
    aspect: f64,
    /// What to draw (`None` when the scenario is invalid).
    data: Memo<Option<PageChart>>,
    /// Window width and height (read so that a resize redraws).
    viewport: RwSignal<(f64, f64)>,
    /// The load the pointer picks over the chart (the scrubber snaps it to a level).
    pick: RwSignal<Option<f64>>,
    /// The pick the address keeps: a press's or a release's, not the pointer's passing.
    linked: super::share::LinkedLoad,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let (problem, set_problem) = signal(None::<String>);
    let printing = RwSignal::new(false);
    let scale = StoredValue::new(LoadScale::default());
    // Each chart draws in a task of its own, after the evaluation that changed its data: no main-thread task
    // holds the evaluation and three drawings at once (the page's 50 ms budget). A newer change supersedes a
    // drawing not yet done.
    let generation = StoredValue::new(0_u64);
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        viewport.track();
        data.track();
        let print = printing.get();
        let mine = generation.get_value().wrapping_add(1);
        generation.set_value(mine);
        set_timeout(
            move || {
                if generation.try_get_value() != Some(mine) {
                    return;
                }
                match data.try_with_untracked(|d| render(&el, d.as_ref(), aspect, print)) {
                    Some(Ok(s)) => {
                        scale.set_value(s);
                        set_problem.set(None);
                    }
                    Some(Err(e)) => set_problem.set(Some(e)),
                    None => {}
                }
            },
            std::time::Duration::ZERO,
        );
    });
    // The pointer (mouse, pen or finger) over the chart picks the load under it: CSS pixels to the canvas's. A press
    // or its release puts it in the address too (`share::LinkedLoad`); passing over does not.
    let point = move |ev: leptos::ev::PointerEvent| {
        let Some(el) = canvas.get_untracked() else { return };
        let css = f64::from(el.client_width());
        let s = scale.get_value();
        if css > 0.0 && s.px.1 > s.px.0 {
            let load = Some(s.load_at(f64::from(ev.offset_x()) * f64::from(el.width()) / css));
            pick.set(load);
            if ev.type_() != "pointermove" {
                linked.0.set(load);
            }
        }
    };
    // Printing (the browser's dialog, or a PDF) snapshots the page right after "beforeprint": draw at the print
    // size there and then, not in a later tick.
    let before = window_event_listener(leptos::ev::Custom::<web_sys::Event>::new("beforeprint"), move |_| {
        if let Some(el) = canvas.get_untracked() {
            let _ = data.with_untracked(|d| render(&el, d.as_ref(), aspect, true));
        }
        printing.set(true);
    });
    let after = window_event_listener(leptos::ev::Custom::<web_sys::Event>::new("afterprint"), move |_| printing.set(false));
    on_cleanup(move || {
        before.remove();
        after.remove();
    });
    // One handler for both buttons (by the id's ending).
    let export = move |ev: leptos::ev::MouseEvent| {
        let Some(el) = canvas.get_untracked() else { return };
        let id = ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok()).map(|e| e.id()).unwrap_or_default();
        if id.ends_with("-png") {
            super::export::download_canvas_png(&el, &format!("{file}.png"));
        } else if id.ends_with("-svg") {
            let (w, h) = logical_size(&el, false, aspect);
            match data.with_untracked(|d| d.as_ref().map(|d| d.svg((w.round() as u32, h.round() as u32)))) {
                Some(Ok(s)) => super::export::download_text(&format!("{file}.svg"), "image/svg+xml", &s),
                Some(Err(e)) => set_problem.set(Some(e)),
                None => {}
            }
        }
    };
    view! {
        <canvas id=id node_ref=canvas width=WIDTH as u32 height=HEIGHT as u32 on:pointermove=point on:pointerdown=point on:pointerup=point></canvas>
        <p class="chart-actions" on:click=export>
            <button type="button" id=format!("{id}-png") title="The chart as an image, at this screen's resolution">"PNG"</button>
            <button type="button" id=format!("{id}-svg") title="The chart as a vector drawing (SVG)">"SVG"</button>
        </p>
        <p class="chart-problem">{move || problem.get()}</p>
    }
}
