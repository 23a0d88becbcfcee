//! The Leptos page (wasm32 only). The chain of derived state follows leptos-chartistry's `use_data`:
//! raw input strings → `Memo<Result<Scenario>>` → `Memo<Result<Report>>` → one narrow memo per chart → one
//! effect per canvas. Components never compute a formula; they call [`crate::plan::evaluate`].

mod charts;
mod inputs;
mod measure;
mod results;
mod serving;
mod share;
mod table;

use crate::model::quant;
use crate::presets;
use crate::scenario::{Report, ScenarioError};
use inputs::{Inputs, NumField, SelectField};
use leptos::prelude::*;

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let inputs = Inputs::new();
    // A link with a scenario in its address reproduces that page; a broken one says which field is wrong.
    let link_error = match share::read_hash() {
        Some(Ok(sc)) => {
            // Loaded even when invalid, so the field at fault is shown with its message.
            inputs.load(&sc);
            sc.resolve().err().map(|e| format!("The scenario in this link has an invalid value ({e}); correct the field marked below."))
        }
        Some(Err(e)) => Some(format!("The scenario in this link could not be read ({e}); showing the default instead.")),
        None => None,
    };
    let scenario = Memo::new(move |_| inputs.scenario());
    // The address follows the page (an effect: it only talks to the outside world).
    Effect::new(move |_| {
        if let Ok(s) = scenario.get() {
            share::write_hash(&s);
        }
    });
    // Typing stays fluid on heavy scenarios: when the last evaluation took longer than 80 ms (a 64-level
    // DeepSeek-V3 sweep takes ~1 s), the page evaluates only once the inputs have rested for 200 ms.
    let settled = RwSignal::new(scenario.get_untracked());
    let last_eval_ms = StoredValue::new(0.0_f64);
    let pending = StoredValue::new(None::<TimeoutHandle>);
    Effect::new(move |_| {
        let s = scenario.get();
        if let Some(h) = pending.get_value() {
            h.clear();
        }
        if settled.with_untracked(|cur| *cur == s) {
            return;
        }
        if last_eval_ms.get_value() < 80.0 {
            settled.set(s);
        } else {
            let handle = set_timeout_with_handle(move || settled.set(s), std::time::Duration::from_millis(200)).ok();
            pending.set_value(handle);
        }
    });
    let measurements = RwSignal::new(Vec::<crate::import::Measurement>::new());
    let report: Memo<Result<Report, ScenarioError>> = Memo::new(move |_| {
        let s = settled.get()?;
        let t0 = now_ms();
        let mut r = s.resolve()?;
        // Automatic levels also cover the concurrencies of imported runs, so the curves reach their points.
        measurements.with(|ms| widen_levels(&mut r, ms));
        let report = crate::plan::evaluate_resolved(&r);
        let ms = now_ms() - t0;
        last_eval_ms.set_value(ms);
        record_eval_ms(ms);
        Ok(report)
    });
    let error = Signal::derive(move || report.with(|r| r.as_ref().err().cloned()));
    view! {
        <header class="top">
            <h1>"TPS Planner"</h1>
            <p class="tagline">"Tokens per second for one user and for the whole server — and the load where it stops being good enough."</p>
        </header>
        {link_error.map(|m| view! { <p class="warning link-error" role="alert">{m}</p> })}
        <main class="layout">
            <section class="inputs" aria-label="Inputs">
                <HardwareInputs inputs error />
                <ModelInputs inputs error />
                <WorkloadInputs inputs error />
                <serving::ServingInputs inputs error />
            </section>
            <section class="outputs" aria-label="Results">
                <results::Results report />
                <charts::Charts report measurements />
                <table::SweepTable report />
                <measure::MeasurementsPanel inputs scenario=settled measurements />
                <share::ScenarioPanel inputs scenario />
            </section>
        </main>
        <footer class="foot">
            "Runs entirely in your browser; nothing is sent anywhere. TPOT = (E2E − TTFT) / (output tokens − 1), as vLLM's benchmark defines it; ITL = each gap between tokens."
        </footer>
    }
}

#[component]
fn HardwareInputs(inputs: Inputs, #[prop(into)] error: Signal<Option<ScenarioError>>) -> impl IntoView {
    let hw = move || presets::hardware::find(&inputs.hw_preset.get());
    let mut opts = vec![(String::new(), "Custom (type the numbers)".to_string())];
    opts.extend(presets::hardware::HARDWARE.iter().map(|h| (h.id.to_string(), format!("{} — {:.0} GB/s, {:.0} GB", h.name, h.bandwidth_gbps, h.memory_gb))));
    let engines: Vec<(String, String)> = presets::engines::ENGINES.iter().map(|e| (e.id.to_string(), e.name.to_string())).collect();
    view! {
        <fieldset>
            <legend>"Hardware"</legend>
            <SelectField label="Device" field="hardware.preset" value=inputs.hw_preset options=opts error on_pick=Callback::new(move |picked: String| {
                // Switching to Custom keeps the previous device's numbers in the fields, ready to edit.
                if let (true, Some(h)) = (picked.is_empty(), presets::hardware::find(&inputs.hw_preset.get_untracked())) {
                    keep(inputs.bandwidth, h.bandwidth_gbps);
                    keep(inputs.memory, h.memory_gb);
                    if let Some(tf) = h.fp16_tflops {
                        keep(inputs.compute, tf);
                    }
                }
            }) />
            <NumField label="Memory bandwidth" unit="GB/s" field="hardware.memory_bandwidth_gbps" value=inputs.bandwidth
                placeholder=Signal::derive(move || hw().map_or("required".into(), |h| format!("{}", h.bandwidth_gbps))) error />
            <NumField label="Dense FP16 compute per device" unit="TFLOPS" field="hardware.fp16_tflops" value=inputs.compute
                placeholder=Signal::derive(move || hw().and_then(|h| h.fp16_tflops).map_or("typical for the kind".into(), |v| format!("{v}"))) error />
            <NumField label="Memory per device" unit="GiB" field="hardware.memory_gb" value=inputs.memory
                placeholder=Signal::derive(move || hw().map_or("auto".into(), |h| format!("{}", h.memory_gb))) error />
            <NumField label="Devices" unit="" field="hardware.devices" value=inputs.devices
                placeholder=Signal::derive(|| "1".to_string()) error />
            <SelectField label="Multi-device split" field="hardware.parallelism" value=inputs.parallelism options=vec![
                (String::new(), "The engine's default (llama.cpp: layer split; others: tensor)".to_string()),
                ("tensor".to_string(), "Tensor parallel (bandwidth adds)".to_string()),
                ("layer-split".to_string(), "Layer split, llama.cpp (memory adds, speed does not)".to_string()),
                ("pipeline".to_string(), "Pipeline, serving engine (batch throughput adds)".to_string()),
                ("row-split".to_string(), "Row split, llama.cpp -sm row (weights split, waits per layer)".to_string()),
            ] error />
            <SelectField label="Engine" field="engine.preset" value=inputs.engine options=engines error on_pick=Callback::new(move |picked: String| {
                // Weights left at the old engine's default for this model follow the new engine's default
                // (DeepSeek-V3: Q4_K_M under llama.cpp, its released FP8 under vLLM).
                let native = presets::models::find(&inputs.model_preset.get_untracked()).map(|m| m.native_weights);
                let old = crate::scenario::default_weights(&inputs.engine.get_untracked(), native);
                if inputs.quant.get_untracked() == old {
                    inputs.quant.set(crate::scenario::default_weights(&picked, native).to_string());
                }
            }) />
        </fieldset>
    }
}

#[component]
fn ModelInputs(inputs: Inputs, #[prop(into)] error: Signal<Option<ScenarioError>>) -> impl IntoView {
    let m = move || presets::models::find(&inputs.model_preset.get());
    let q = move || quant::weight_format(&inputs.quant.get());
    let mut models = vec![(String::new(), "Custom (size only)".to_string())];
    models.extend(presets::models::MODELS.iter().map(|m| (m.id.to_string(), m.name.to_string())));
    let mut quants = vec![(String::new(), "Custom bits".to_string())];
    quants.extend(quant::WEIGHT_FORMATS.iter().map(|f| (f.id.to_string(), format!("{} ({} bits)", f.label, f.bits))));
    view! {
        <fieldset>
            <legend>"Model"</legend>
            <SelectField label="Model" field="model.preset" value=inputs.model_preset options=models error on_pick=Callback::new(move |picked: String| {
                let old = presets::models::find(&inputs.model_preset.get_untracked());
                if let (true, Some(m)) = (picked.is_empty(), old) {
                    keep(inputs.params, m.active_params_b.max(m.params_b));
                }
                // Weights left at the engine's default for the previous model follow the default for the new one
                // (DeepSeek-V3 is released in FP8, gpt-oss in MXFP4); a format the user chose stays.
                if let Some(new) = presets::models::find(&picked) {
                    let engine = inputs.engine.get_untracked();
                    let was_default = inputs.quant.get_untracked() == crate::scenario::default_weights(&engine, old.map(|o| o.native_weights));
                    if was_default {
                        inputs.quant.set(crate::scenario::default_weights(&engine, Some(new.native_weights)).to_string());
                    }
                }
            }) />
            <NumField label="Parameters" unit="B" field="model.params_b" value=inputs.params
                placeholder=Signal::derive(move || m().map_or("required".into(), |m| format!("{}", m.params_b))) error />
            <SelectField label="Weights" field="quantization.weights" value=inputs.quant options=quants error on_pick=Callback::new(move |picked: String| {
                if let (true, Some(q)) = (picked.is_empty(), quant::weight_format(&inputs.quant.get_untracked())) {
                    keep(inputs.bits, q.bits);
                }
            }) />
            <NumField label="Bits per weight" unit="bits" field="quantization.weight_bits" value=inputs.bits
                placeholder=Signal::derive(move || q().map_or("required".into(), |q| format!("{}", q.bits))) error />
        </fieldset>
    }
}

#[component]
fn WorkloadInputs(inputs: Inputs, #[prop(into)] error: Signal<Option<ScenarioError>>) -> impl IntoView {
    view! {
        <fieldset>
            <legend>"Workload and target"</legend>
            <NumField label="Prompt" unit="tokens" field="workload.prompt_tokens" value=inputs.prompt placeholder=Signal::derive(|| "512".to_string()) error />
            <NumField label="Output" unit="tokens" field="workload.output_tokens" value=inputs.output placeholder=Signal::derive(|| "128".to_string()) error />
            <NumField label="Context already cached (earlier turns)" unit="tokens" field="workload.context_depth" value=inputs.depth placeholder=Signal::derive(|| "0".to_string()) error />
            <SelectField label="Judge latency at" field="target.percentile" value=inputs.percentile options=vec![
                ("99".to_string(), "P99 (the 1 % slowest)".to_string()),
                ("95".to_string(), "P95".to_string()),
                ("90".to_string(), "P90".to_string()),
                ("50".to_string(), "P50 (median)".to_string()),
            ] error />
            <NumField label="TPOT target (time per output token)" unit="ms" field="target.tpot_ms" value=inputs.tpot placeholder=Signal::derive(|| "40".to_string()) error />
            <NumField label="TTFT target (time to first token)" unit="ms" field="target.ttft_ms" value=inputs.ttft placeholder=Signal::derive(|| "2000".to_string()) error />
        </fieldset>
    }
}

/// Adds the imported serving runs' concurrencies to automatic concurrency levels (at most 64 levels).
fn widen_levels(r: &mut crate::scenario::Resolved, ms: &[crate::import::Measurement]) {
    use crate::scenario::Load;
    if !r.workload.auto_load || !matches!(r.workload.load, Load::Concurrency(_)) {
        return;
    }
    let extra: Vec<f64> = ms
        .iter()
        .filter(|m| m.kind == crate::import::Kind::Serving)
        .filter_map(|m| m.concurrency)
        .filter(|c| c.is_finite() && *c >= 1.0 && *c <= 4096.0)
        .map(f64::round)
        .collect();
    if extra.is_empty() {
        return;
    }
    let mut levels = crate::plan::levels(&r.deployment, &r.workload);
    levels.extend(extra);
    levels.sort_by(f64::total_cmp);
    levels.dedup();
    levels.truncate(64);
    r.workload.load = Load::Concurrency(levels);
}

/// Fills an empty field with a preset's number (a field the user typed in is left alone).
fn keep(field: RwSignal<String>, v: f64) {
    if field.with_untracked(|s| s.trim().is_empty()) {
        field.set(format!("{v}"));
    }
}

/// Milliseconds from the page's performance clock (0 if unavailable).
fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// Exposes the last evaluation time as `window.__tpsLastEvalMs` for the e2e benchmark.
fn record_eval_ms(ms: f64) {
    if let Some(w) = web_sys::window() {
        let _ = js_sys::Reflect::set(&w, &"__tpsLastEvalMs".into(), &ms.into());
    }
}
