//! Inputs for serving under load: the use case, the load levels, request-length spread and prefix caching.

use super::inputs::{has_graphs_switch, has_memory_share, Inputs, LoadKind, NumField, SelectField};
use crate::model::units::fmt_num;
use crate::scenario::{Distribution, Mode, ScenarioError};
use leptos::prelude::*;

fn opts(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(a, b)| ((*a).to_string(), (*b).to_string())).collect()
}

/// The "Serving" fieldset.
#[component]
pub fn ServingInputs(
    /// The page's inputs.
    inputs: Inputs,
    /// The current error, if any.
    #[prop(into)]
    error: Signal<Vec<ScenarioError>>,
) -> impl IntoView {
    let levels_field = Signal::derive(move || inputs.load_kind().field());
    let rate = move || inputs.load_kind() == LoadKind::Rate;
    let levels_msg = move || error.with(|e| e.iter().find(|e| e.field.starts_with(levels_field.get())).map(|e| e.message.clone()));
    view! {
        <fieldset>
            <legend>"Serving under load"</legend>
            <SelectField label="Use case" field="workload.mode" value=inputs.mode options=opts(&[
                (Mode::Reader.id(), "Reader (tokens/s each person reads)"),
                (Mode::Agent.id(), "Agent (time to a finished multi-step task)"),
                (Mode::Batch.id(), "Batch (total throughput, latency free)"),
            ]) error />
            <Show when=move || inputs.mode() == Mode::Agent>
                <NumField label="LLM calls per agent task" unit="calls" field="workload.agent_steps" value=inputs.agent_steps
                    placeholder=Signal::derive(|| crate::scenario::DEFAULT_AGENT_STEPS.to_string()) error />
                <NumField label="Task time target: calls × (TTFT + output × TPOT) at the percentile" unit="s" field="target.task_s" value=inputs.task_s
                    placeholder=Signal::derive(|| "none".to_string()) error />
                <p class="note">"With TPOT and TTFT targets left empty, the task time alone is the target."</p>
            </Show>
            <SelectField label="Load" field="workload.load" value=inputs.load_kind options=opts(&[
                (LoadKind::Auto.id(), "Automatic: users (request rates when the fleet's peak is in req/s)"),
                (LoadKind::Users.id(), "Concurrent users (closed loop), my levels"),
                (LoadKind::Rate.id(), "Request rate (Poisson arrivals); empty: rates around capacity"),
                (LoadKind::Offline.id(), "Offline batch job: every request at once, the fullest batch"),
            ]) error />
            <Show when=move || !matches!(inputs.load_kind(), LoadKind::Auto | LoadKind::Offline)>
                <label class="field" class:invalid=move || levels_msg().is_some()>
                    <span class="label">{move || if rate() { "Request rates (req/s), comma-separated" } else { "Users, comma-separated" }}</span>
                    <input id="workload-levels" type="text" autocomplete="off"
                        placeholder=move || if rate() { "automatic: 5–115 % of its throughput" } else { "1, 4, 16, 64" }
                        prop:value=move || inputs.levels.get() on:input=move |ev| inputs.levels.set(event_target_value(&ev)) />
                    <span class="error" role="alert">{levels_msg}</span>
                </label>
            </Show>
            <NumField label="Think time: each user's pause between an answer and the next request (users only)" unit="s" field="workload.think_time_s"
                value=inputs.think placeholder=Signal::derive(|| "0: none, as benchmarks run".to_string()) error />
            <SelectField label="Request lengths" field="workload.distribution" value=inputs.distribution options=opts(&[
                (Distribution::Fixed.id(), "Fixed (as benchmarks run)"),
                (Distribution::Lognormal.id(), "Lognormal (like real traffic)"),
                (Distribution::Uniform.id(), "Uniform ± spread"),
            ]) error />
            // A teacher's trial found TTFT 10 × higher with fixed lengths (383 against 39 ms at 16 users) and no word
            // on the page why; another, per-user tok/s higher at 4 users than at 3 (H100, 8B, 1,024/128): at 1–3 users the
            // front end's jitter keeps them apart and their prompts stall each other's decodes, from 4 the waves lock.
            <Show when=move || inputs.distribution.with(|d| Distribution::from_id(d)).unwrap_or_default() != Distribution::Fixed
                fallback=|| view! { <p class="note">"Fixed lengths: users of a closed loop finish together and send again together, in lock-step waves as a benchmark's do, so above one user each TTFT holds the prefill of the whole wave's prompts, and the decodes between waves carry no prompt: where the users first fall into step, TPOT can dip below that of fewer users, whose prompts still stall each other's decodes (4 users can each be faster than 3). Real users drift apart: Lognormal shows the TTFT they get."</p> }>
                <NumField label="Spread (lognormal: coefficient of variation; uniform: ± fraction)" unit="" field="workload.spread" value=inputs.spread
                    placeholder=Signal::derive(|| "0.5".to_string()) error />
            </Show>
            <NumField label="Prefix-cache hit rate: the share of each prompt's tokens already cached (a shared system prompt or repository context sent again)" unit="%" field="workload.prefix_cache_hit_rate" value=inputs.prefix_hit
                placeholder=Signal::derive(|| "0".to_string()) error />
            <NumField label="Max running sequences (vLLM max_num_seqs, llama.cpp -np)" unit="" field="engine.max_batch" value=inputs.max_batch
                placeholder=Signal::derive(move || {
                    // The default in effect on this device (vLLM's follows the device's memory), as the evaluation
                    // uses it; a custom device's depends on what is typed: "engine default".
                    let (e, hw) = (crate::presets::engines::find(&inputs.engine.get()), crate::presets::hardware::find(&inputs.hw_preset.get()));
                    e.zip(hw).map_or("engine default".into(), |(e, h)| crate::presets::engines::batch_defaults(e, h.memory_gb, h.name).0.to_string())
                }) error />
            // The share of each device's memory the engine takes (the KV cache is what is left of it after the
            // weights and the engine's reserve): vLLM and SGLang only (`has_memory_share`).
            // Hidden by a class, not removed (a `<Show>` costs ~1–2 KB of wasm each): the value is kept and not sent.
            <div class:hidden=move || !inputs.engine.with(|e| has_memory_share(e))>
                <NumField label="GPU memory the engine may use (vLLM gpu_memory_utilization, SGLang mem_fraction_static)" unit="%"
                    field="engine.memory_utilization" value=inputs.mem_util
                    placeholder=Signal::derive(move || {
                        crate::presets::engines::find(&inputs.engine.get()).map_or("engine default".into(), |e| fmt_num(e.memory_utilization * 100.0))
                    }) error />
            </div>
            // Eager mode: every decode step launches its kernels from the host (model::kernels); the Python engines'
            // switch, which small models on fast GPUs feel most.
            <div class:hidden=move || !inputs.engine.with(|e| has_graphs_switch(e))>
                <SelectField label="CUDA graphs" field="engine.cuda_graphs" value=inputs.cuda_graphs options=opts(&[
                    ("", "On (default)"),
                    ("off", "Off (eager, --enforce-eager)"),
                ]) error />
            </div>
            // SGLang's own scheduler reads prompts in steps of their own while the decodes wait (sim, "Prompt steps");
            // the model's default shares the steps, as vLLM does and SGLang with --enable-mixed-chunk.
            <div class:hidden=move || !inputs.engine.with(|e| e == "sglang")>
                <SelectField label="Prompt steps" field="engine.mixed_batches" value=inputs.mixed_chunk options=opts(&[
                    ("", "Shared (model default)"),
                    ("apart", "Apart (SGLang default)"),
                ]) error />
            </div>
        </fieldset>
    }
}
