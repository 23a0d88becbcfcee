//! Planning: from a [`Scenario`] to a [`Report`].
//!
//! 1. Single stream on an idle server: the ceiling (spec bandwidth ÷ bytes read per token), the predicted decode
//!    rate over the workload's output (efficiency, KV reads, overheads), prefill rate and TTFT.
//! 2. Memory: weights, KV bytes per token, how many sequences of the workload's context fit.
//! 3. The load sweep: each level is simulated ([`crate::sim`]) for P50/P95/P99 TTFT, TPOT, ITL and E2E; the
//!    analytic steady state ([`analytic_point`]) is kept beside it as a cross-check.
//! 4. Markers: the **peak** (highest system TPS seen, or for offline loads the highest the memory and max batch
//!    allow), the **knee** (first level reaching 90 % of the highest system TPS: beyond it more users mostly
//!    add latency), the **peak usable** load (highest level meeting the target at its percentile, no
//!    saturation, < 1 % errors; [`target`]) and the **operating point** at `operating_fraction` (default
//!    60 %, range 50–70 %) of the throughput there. Headroom below the peak absorbs bursts: at 60 % of
//!    capacity a queue's waiting time is a fraction of what it is at 90 %.
//! 5. The **capacity** at the target, resolved between the levels with extra simulated levels ([`capacity`]),
//!    and the operating point below it, so neither depends on the level grid.
//! 6. For the meeting: replicas for a peak load ([`fleet`]), power and energy per token ([`energy`]), cost per
//!    token from the prices given ([`cost`]), and two reports side by side ([`diff()`]).
//!
//! Use-case modes phrase the verdict: `reader` (per-user tok/s against a reading floor), `agent` (time to a
//! finished multi-step task = steps × (TTFT + output tokens × TPOT) at the percentile, with an optional
//! `target.task_s`), `batch` (system TPS, latency free).

pub mod calibrate;
pub mod capacity;
pub mod cost;
pub mod report;
pub mod diff;
pub mod energy;
pub mod fleet;
pub mod target;

pub use diff::{diff, Diff, DiffRow};

use crate::model::prefill;
use crate::model::roofline::{Bound, Deployment, StepLoad};
use crate::scenario::{
    Band, Capacity, Distribution, LimitedBy, Load, LoadPoint, Marker, Memory, Mode, Pcts, Report, Resolved, Scenario, ScenarioError,
    SingleStream, Workload, VERSION,
};
use crate::sim::{self, Arrivals, LengthDist, SimConfig, Targets};

/// Uncertainty bands: the p90 absolute percentage error measured by `tests/validation.rs` on `tests/data`
/// (single stream: llama-bench decode rows, 14.1 %; batched throughput, 38.7 %), rounded up. The validation
/// test fails if the measured p90 grows past them.
/// Energy figures get a wider band ([`energy::BAND_PCT`]): their power model is not validated.
pub const BAND: Band = Band { single_stream_pct: 15.0, batched_pct: 40.0, energy_pct: energy::BAND_PCT };

/// The single-stream band where no measurement backs the fit: engines other than llama.cpp at batch 1, and
/// CPUs and other devices (their defaults are estimates); the pre-2024 single-stream p90 of this model.
pub const UNVALIDATED_SINGLE_STREAM_PCT: f64 = 25.0;

/// The band a report states: [`BAND`] where the fitted llama.cpp GPU and Apple families cover the single-stream
/// figure, the wider [`UNVALIDATED_SINGLE_STREAM_PCT`] elsewhere.
#[must_use]
pub fn band(d: &Deployment) -> Band {
    use crate::model::hardware::HardwareKind as K;
    let fitted = d.engine.name.starts_with("llama.cpp")
        && matches!(d.hardware.kind, K::ConsumerGpu | K::WorkstationGpu | K::DatacenterGpu | K::AppleSilicon);
    Band { single_stream_pct: if fitted { BAND.single_stream_pct } else { UNVALIDATED_SINGLE_STREAM_PCT }, ..BAND }
}

/// Evaluates a scenario.
///
/// # Errors
/// The scenario's first invalid field.
pub fn evaluate(s: &Scenario) -> Result<Report, ScenarioError> {
    Ok(evaluate_resolved(&s.resolve()?))
}

/// Only the analytic parts (single stream, memory, analytic sweep): microseconds, for live typing.
///
/// # Errors
/// The scenario's first invalid field.
pub fn evaluate_analytic(s: &Scenario) -> Result<Report, ScenarioError> {
    let r = s.resolve()?;
    Ok(build_report(&r, analytic_sweep(&r), &|x| analytic_level(&r, x), false))
}

/// Evaluates a resolved scenario (simulated sweep).
#[must_use]
pub fn evaluate_resolved(r: &Resolved) -> Report {
    build_report(r, simulated_sweep(r), &|x| simulate_level(r, x), true)
}

/// The simulated sweep alone, without the capacity search, fleet, energy or cost: for callers that need only
/// the levels (a benchmark comparison at one load, timings).
#[must_use]
pub fn sweep_levels(r: &Resolved) -> Vec<LoadPoint> {
    simulated_sweep(r)
}

/// A marker at a level, its latencies read at the target's percentile.
pub(crate) fn marker(p: &LoadPoint, pct: f64) -> Marker {
    Marker {
        concurrency: p.concurrency,
        request_rate: p.request_rate,
        system_tps: p.system_tps,
        per_user_tps: p.per_user_tps,
        ttft_p_ms: Some(p.ttft_ms.at(pct)),
        tpot_p_ms: p.tpot_ms.at(pct),
    }
}

/// `level` evaluates one more load level with the sweep's settings (the capacity search uses it); `simulated`
/// says whether the levels are simulated (the fleet's alternatives are then scaled from analytic estimates).
fn build_report(r: &Resolved, sweep: Vec<LoadPoint>, level: &dyn Fn(f64) -> LoadPoint, simulated: bool) -> Report {
    let d = &r.deployment;
    let w = &r.workload;
    let ss = single_stream(d, w);
    let mem = memory(d, w);
    let mut warnings = Vec::new();
    if !d.fits() {
        warnings.push(format!(
            "the weights ({:.1} GB) do not fit: {:.1} GB usable on {} × {:.1} GiB{}",
            mem.weights_gb,
            (d.hardware.accelerator_memory_bytes() * d.engine.memory_utilization
                - d.engine.reserve_gb * crate::model::units::GIB * f64::from(d.hardware.devices))
                / 1e9,
            d.hardware.devices,
            d.hardware.memory_gb,
            if d.hardware.accelerator_memory_fraction() < 1.0 {
                format!(" (Metal lets the GPU use {:.0} % of unified memory; beyond it the model pages and slows to a crawl)", d.hardware.accelerator_memory_fraction() * 100.0)
            } else {
                String::new()
            }
        ));
    } else if mem.kv_max_sequences < 1.0 {
        warnings.push(format!(
            "the weights fit, but not even one sequence of {:.0} tokens fits in the {:.1} GB left for the KV cache ({:.1} GB needed)",
            mem.context_tokens,
            mem.kv_budget_gb,
            d.kv_bytes(mem.context_tokens) / 1e9
        ));
    }
    if !matches!(w.load, Load::Offline) && sim_requests(w) < w.requests {
        warnings.push(format!(
            "{} requests simulated per load level instead of {} to bound the work (about 600,000 request-steps per level); the tail percentiles rest on fewer samples",
            sim_requests(w),
            w.requests
        ));
    }
    if let Some(max) = r.max_context {
        let ctx = w.context_depth + w.prompt_tokens + w.output_tokens;
        if ctx > f64::from(max) {
            warnings.push(format!("{ctx:.0} tokens of context exceed the model's window of {max}: the model cannot serve this request as is"));
        }
    }
    let hw = &d.hardware;
    if hw.devices > 1 && hw.parallelism == crate::model::hardware::Parallelism::LayerSplit && !d.engine.name.starts_with("llama.cpp") {
        warnings.push(format!("a layer split is llama.cpp's multi-GPU mode; {} splits layers as a pipeline (choose \"pipeline\")", d.engine.name));
    }
    if d.engine.name.starts_with("llama.cpp") && matches!(d.compute_dtype, crate::model::quant::ComputeDtype::Fp8) {
        warnings.push("llama.cpp has no FP8 weight format; its 8-bit format is GGUF Q8_0 (8.5 bits)".into());
    }
    if hw.devices > 1 && hw.parallelism == crate::model::hardware::Parallelism::RowSplit && !d.engine.name.starts_with("llama.cpp") {
        warnings.push(format!("a row split is llama.cpp's -sm row; {} splits tensors with all-reduces (choose \"tensor\")", d.engine.name));
    }
    if hw.devices > 1 && hw.parallelism == crate::model::hardware::Parallelism::Tensor && !d.model.attention_heads.is_multiple_of(hw.devices) {
        warnings.push(format!(
            "tensor parallelism over {} devices needs the {} attention heads to divide evenly; engines refuse this split",
            hw.devices, d.model.attention_heads
        ));
    }
    // When nothing fits, every level "saturates" trivially: the does-not-fit warning above is the whole story.
    if mem.fits && sweep.iter().any(|p| p.saturated) {
        warnings.push("some load levels saturate: the queue grows without bound there, and their latencies are lower bounds".into());
    }
    let pct = r.target.percentile;
    let marker = |p: &LoadPoint| marker(p, pct);
    let max_sys = sweep.iter().map(|p| p.system_tps).fold(0.0, f64::max);
    let peak = if matches!(w.load, Load::Offline) {
        offline_job(d, w, f64::from(w.requests))
    } else if sweep.is_empty() {
        offline_marker(d, w)
    } else {
        sweep.iter().filter(|p| p.system_tps >= max_sys).map(marker).next().unwrap_or_else(|| offline_marker(d, w))
    };
    // The knee: the first level (not saturated) that reaches 90 % of the highest system TPS; past it, more load
    // mostly adds latency.
    let max_ok = sweep.iter().filter(|p| !p.saturated).map(|p| p.system_tps).fold(0.0, f64::max);
    let knee = if max_ok > 0.0 { sweep.iter().filter(|p| !p.saturated).find(|p| p.system_tps >= 0.9 * max_ok).map(marker) } else { None };
    let peak_usable_idx = sweep.iter().rposition(|p| p.meets_target);
    let (capacity, cap_point, op) = capacity_and_operating(r, &sweep, &mem, level);
    // The peak usable load is the capacity where it was resolved, else the last level meeting the target.
    let peak_usable = match &capacity {
        Some(c) => Some(c.at.clone()),
        None => peak_usable_idx.map(|i| marker(&sweep[i])),
    };
    let operating_point = op.as_ref().map(|(m, _)| m.clone());
    let peak_point = sweep.iter().find(|p| p.system_tps >= max_sys).cloned();
    let energy = match (&op, &peak_point) {
        (Some((m, p)), Some(pk)) => energy::energy(r, (m, p), (&peak, pk)),
        _ => None,
    };
    let hardware_label = format!("{}{}", if d.hardware.devices > 1 { format!("{} × ", d.hardware.devices) } else { String::new() }, d.hardware.name);
    let fleet = match (&r.fleet, &op, &cap_point) {
        (Some(f), Some((m, p)), Some(c)) => fleet::size(r, f, (m, p), c, &hardware_label, simulated, &mut warnings),
        (Some(_), _, _) if mem.fits => {
            warnings.push("fleet: no load meets the target, so no fleet can be sized".into());
            None
        }
        _ => None,
    };
    let cost = match (&r.cost, &op) {
        (Some(c), Some((m, _))) => cost::cost(c, d.hardware.devices, energy.as_ref(), m.system_tps, peak.system_tps, fleet.as_ref().map(|f| f.replicas), &mut warnings),
        _ => None,
    };
    let verdict = verdict(r, &ss, &mem, operating_point.as_ref(), &peak, &sweep, capacity.as_ref(), op.as_ref().map(|(_, p)| p));
    let verdict_ok = mem.fits && (operating_point.is_some() || w.mode == Mode::Batch);
    Report {
        version: VERSION,
        hardware: hardware_label,
        model: d.model.name.clone(),
        engine: d.engine.name.clone(),
        quantization: r.quantization.clone(),
        prompt_tokens: w.prompt_tokens,
        output_tokens: w.output_tokens,
        defaults_used: r.defaults_used.clone(),
        single_stream: ss,
        memory: mem,
        sweep,
        peak,
        peak_usable,
        knee,
        operating_point,
        capacity,
        fleet,
        energy,
        cost,
        band: band(d),
        target: r.target.clone(),
        verdict,
        verdict_ok,
        warnings,
    }
}

/// The capacity resolved between levels, the level at it (batch mode and offline loads: the peak usable
/// level), and the operating point with the level it is read from.
pub(crate) fn capacity_and_operating(
    r: &Resolved,
    sweep: &[LoadPoint],
    mem: &Memory,
    level: &dyn Fn(f64) -> LoadPoint,
) -> (Option<Capacity>, Option<LoadPoint>, Option<(Marker, LoadPoint)>) {
    if let Some(o) = capacity::resolve(r, sweep, mem, level) {
        return (o.capacity, o.cap_point, o.op);
    }
    let pct = r.target.percentile;
    // Batch mode and offline loads keep the grid: interpolated on it, then read at that load (evaluated there
    // when it is not a level).
    let Some(i) = sweep.iter().rposition(|p| p.meets_target) else { return (None, None, None) };
    let m = operating(&sweep[..=i], r.target.operating_fraction, pct);
    let load = m.concurrency.or(m.request_rate);
    let p = sweep.iter().find(|p| p.concurrency.or(p.request_rate) == load).cloned().unwrap_or_else(|| level(load.unwrap_or(1.0)));
    (None, Some(sweep[i].clone()), Some((marker(&p, pct), p)))
}

/// The analytic model's operating level for a resolved scenario (the fleet's alternatives use it).
pub(crate) fn analytic_operating(r: &Resolved) -> Option<LoadPoint> {
    let sweep = analytic_sweep(r);
    let mem = memory(&r.deployment, &r.workload);
    capacity_and_operating(r, &sweep, &mem, &|x| analytic_level(r, x)).2.map(|(_, p)| p)
}

/// Single-stream figures for the workload on an idle server.
#[must_use]
pub fn single_stream(d: &Deployment, w: &Workload) -> SingleStream {
    let start = w.context_depth + w.prompt_tokens;
    let bytes = d.weight_bytes_read(1.0) + d.kv_bytes(start);
    let spec_bw = d.hardware.memory_bandwidth_gbps * 1e9 * d.hardware.parallel_devices();
    let tpot = d.mean_decode_step(1.0, start, w.output_tokens);
    let ttft = prefill::ttft_seconds(d, w.prompt_tokens, w.context_depth, w.prefix_cache_hit_rate);
    let prefill_tps = if w.prompt_tokens > 0.0 { prefill::prefill_tps(d, w.prompt_tokens) } else { prefill::prefill_tps(d, 512.0) };
    SingleStream {
        ceiling_tps: spec_bw / bytes,
        decode_tps: 1.0 / tpot,
        tpot_ms: tpot * 1e3,
        ttft_ms: ttft * 1e3,
        prefill_tps,
        bytes_per_token: bytes,
        bound: d.step(&d.decode_load(1.0, start)).bound,
    }
}

/// Memory figures for the workload.
#[must_use]
pub fn memory(d: &Deployment, w: &Workload) -> Memory {
    let ctx = w.context_depth + w.prompt_tokens + w.output_tokens;
    let kv_max = d.max_sequences(ctx);
    Memory {
        weights_gb: d.weight_bytes() / 1e9,
        kv_bytes_per_token: d.kv_bytes_per_token(),
        kv_budget_gb: d.kv_budget_bytes() / 1e9,
        context_tokens: ctx,
        // The most the engine can run at once: max batch, and the sequences whose KV blocks fit when each holds
        // only its prompt and first token (vLLM admits a request when its prompt's blocks fit). More than
        // `kv_max_sequences` may run: they are not all at full length at once, and when their growing caches
        // fill the memory the engine preempts (recomputes) one — the sweep counts those preemptions.
        max_concurrency: if kv_max >= 1.0 {
            let admitted = ((w.context_depth + w.prompt_tokens + 1.0) / 16.0).ceil() * 16.0;
            d.max_sequences(admitted).floor().min(f64::from(d.engine.max_batch))
        } else {
            0.0
        },
        kv_max_sequences: kv_max,
        fits: d.fits() && kv_max >= 1.0,
    }
}

/// Sequences decoding together in steady state at `concurrency` users (bounded by max batch and, at the mean
/// occupancy of a sequence, by the KV cache).
#[must_use]
pub fn running_batch(d: &Deployment, w: &Workload, concurrency: f64) -> f64 {
    let mean_ctx = w.context_depth + w.prompt_tokens + w.output_tokens / 2.0;
    concurrency.min(f64::from(d.engine.max_batch)).min(d.max_sequences(mean_ctx).floor()).max(0.0)
}

/// Seconds to prefill `b` prompts of `prompt` new tokens each (after `prior` cached tokens), packed into chunks
/// of the step budget; each chunk streams the weights once (MoE: the experts its tokens touch) and each prompt in
/// it attends only within its own sequence. Closed form: the cost does not grow with `b`.
#[must_use]
pub fn batch_prefill_seconds(d: &Deployment, b: f64, prompt: f64, prior: f64) -> f64 {
    let (b, prompt) = (b.max(0.0), prompt.max(0.0));
    if b <= 0.0 || prompt <= 0.0 {
        return 0.0;
    }
    let chunk = f64::from(d.engine.max_batched_tokens.max(1));
    if prompt >= chunk {
        return b * d.prefill_seconds(prompt, prior);
    }
    let per_chunk = (chunk / prompt).floor().max(1.0);
    let full = (b / per_chunk).floor();
    let rest = b - full * per_chunk;
    let cost = |count: f64| d.step(&d.with_prefill_many(StepLoad::default(), count, prompt, prior)).seconds;
    full * cost(per_chunk) + if rest > 0.0 { cost(rest) } else { 0.0 }
}

/// The steady state of `b` sequences: in the time every slot produces its `output` tokens (one decode step
/// each, at the mean context), it also prefills its next prompt; prefill runs in full chunks of the step budget
/// (vLLM/SGLang chunked prefill, TensorRT-LLM in-flight batching), so a MoE prefill chunk touches the experts
/// once rather than a few prompt tokens touching them in every decode step.
/// Returns (the decode step's load, mean seconds per output token including the prefill time).
#[must_use]
pub fn steady_step(d: &Deployment, w: &Workload, b: f64) -> (StepLoad, f64) {
    let mean_ctx = w.context_depth + w.prompt_tokens + w.output_tokens / 2.0;
    let new_prompt = w.prompt_tokens * (1.0 - w.prefix_cache_hit_rate);
    let load = d.decode_load(b, mean_ctx);
    let t_dec = d.step(&load).seconds;
    let t_pre = batch_prefill_seconds(d, b, new_prompt, w.context_depth + w.prompt_tokens - new_prompt);
    // The step that finishes a prompt emits its first token, so a request needs output − 1 decode steps.
    let out = w.output_tokens.max(1.0);
    (load, ((out - 1.0) * t_dec + t_pre) / out)
}

/// Analytic closed-loop level at `concurrency` users: (per-user TPS, system TPS, TTFT s, TPOT s, bound);
/// all zero when not even one sequence fits (the caller marks that level saturated).
#[must_use]
pub fn analytic_point(d: &Deployment, w: &Workload, concurrency: f64) -> (f64, f64, f64, f64, Bound) {
    let b = running_batch(d, w, concurrency);
    if b < 1.0 {
        return (0.0, 0.0, 0.0, 0.0, Bound::Memory);
    }
    let (load, step) = steady_step(d, w, b);
    let bound = d.step(&load).bound;
    let ttft0 = prefill::ttft_seconds(d, w.prompt_tokens, w.context_depth, w.prefix_cache_hit_rate);
    // Prefill on a busy server shares each step with b decodes: it takes as many steps as its chunks need.
    let budget = (f64::from(d.engine.max_batched_tokens) - b).max(1.0);
    let ttft_busy = ((w.prompt_tokens * (1.0 - w.prefix_cache_hit_rate)) / budget).ceil().max(1.0) * step;
    let service = ttft_busy.max(ttft0) + (w.output_tokens - 1.0).max(0.0) * step;
    let wait = ((concurrency / b) - 1.0).max(0.0) * service;
    (1.0 / step, b / step, wait + ttft_busy.max(ttft0), step, bound)
}

/// The offline (all requests queued) throughput: as many sequences as memory and max batch allow.
#[must_use]
pub fn offline_marker(d: &Deployment, w: &Workload) -> Marker {
    let b = running_batch(d, w, f64::INFINITY);
    if b < 1.0 {
        return Marker { concurrency: Some(0.0), request_rate: None, system_tps: 0.0, per_user_tps: 0.0, ttft_p_ms: None, tpot_p_ms: 0.0 };
    }
    let (_, step) = steady_step(d, w, b);
    Marker { concurrency: Some(b), request_rate: None, system_tps: b / step, per_user_tps: 1.0 / step, ttft_p_ms: None, tpot_p_ms: step * 1e3 }
}

/// A finite offline job: `n` requests of fixed length all queued at t = 0 (`trtllm-bench throughput`, vLLM
/// `benchmark_throughput`). Requests of equal length admitted together also grow together, so the batch is
/// what the KV cache holds at the *full* context (TensorRT-LLM's default capacity scheduler reserves it up
/// front), and the job runs in waves: ⌈n / b⌉ rounds of (prefill the wave's prompts in chunks, then
/// output − 1 decode steps as the context grows). Throughput = output tokens of all `n` ÷ the job's time,
/// so a job of 1.5 waves pays for a half-empty last wave, as the measured runs do.
#[must_use]
pub fn offline_job(d: &Deployment, w: &Workload, n: f64) -> Marker {
    let full_ctx = w.context_depth + w.prompt_tokens + w.output_tokens;
    let b = n.min(f64::from(d.engine.max_batch)).min(d.max_sequences(full_ctx).floor());
    if b < 1.0 {
        return Marker { concurrency: Some(0.0), request_rate: None, system_tps: 0.0, per_user_tps: 0.0, ttft_p_ms: None, tpot_p_ms: 0.0 };
    }
    let new_prompt = w.prompt_tokens * (1.0 - w.prefix_cache_hit_rate);
    let prior = w.context_depth + w.prompt_tokens - new_prompt;
    let steps = (w.output_tokens - 1.0).max(0.0);
    let wave = |size: f64| -> (f64, f64) {
        let step = if steps > 0.0 { d.mean_decode_step(size, w.context_depth + w.prompt_tokens + 1.0, steps) } else { 0.0 };
        (batch_prefill_seconds(d, size, new_prompt, prior) + steps * step, step)
    };
    let waves = (n / b).floor();
    let rest = n - waves * b;
    let (t_full, step) = wave(b);
    let total = waves * t_full + if rest >= 1.0 { wave(rest).0 } else { 0.0 };
    let per_user = if step > 0.0 { 1.0 / step } else { 0.0 };
    Marker { concurrency: Some(b), request_rate: None, system_tps: n * w.output_tokens / total, per_user_tps: per_user, ttft_p_ms: None, tpot_p_ms: step * 1e3 }
}

/// Load levels: the user's, or automatic ones (1, 2, 3, 4, 6, 8, 12, … up to 1.5 × the memory/batch limit,
/// at most 16) that resolve the knee.
#[must_use]
pub fn levels(d: &Deployment, w: &Workload) -> Vec<f64> {
    match &w.load {
        Load::Concurrency(v) if !v.is_empty() => v.clone(),
        Load::RequestRate(v) if !v.is_empty() => v.clone(),
        Load::RequestRate(_) => {
            // Automatic rates: fractions of the server's capacity in requests/s (its offline throughput ÷ output
            // tokens), so the sweep brackets where latency turns up, whatever the hardware; 3 significant digits.
            let cap = offline_marker(d, w).system_tps / w.output_tokens.max(1.0);
            if !(cap.is_finite() && cap > 0.0) {
                return vec![1.0];
            }
            let round = |x: f64| {
                let mag = 10f64.powf(x.log10().floor() - 2.0);
                (x / mag).round() * mag
            };
            let mut v: Vec<f64> = [0.05, 0.15, 0.3, 0.45, 0.6, 0.7, 0.8, 0.9, 1.0, 1.15].iter().map(|f| round(f * cap)).filter(|x| *x > 0.0).collect();
            v.dedup();
            v
        }
        Load::Offline => vec![running_batch(d, w, f64::INFINITY).max(1.0)],
        Load::Concurrency(_) => {
            let cap = running_batch(d, w, f64::INFINITY).max(1.0) * 1.5;
            let mut all = Vec::new();
            let mut p = 1.0_f64;
            while p <= cap.max(2.0) && all.len() < 64 {
                all.push(p);
                if p >= 2.0 && p * 1.5 <= cap {
                    all.push(p * 1.5);
                }
                p *= 2.0;
            }
            if all.len() > 16 {
                // Keep the high end dense (where the knee is); thin the low end to powers of two.
                let extra = all.len() - 16;
                let mut dropped = 0;
                all.retain(|x| {
                    let thin = dropped < extra && x.log2().fract() != 0.0;
                    if thin {
                        dropped += 1;
                    }
                    !thin
                });
                all.truncate(16);
            }
            all
        }
    }
}

fn analytic_sweep(r: &Resolved) -> Vec<LoadPoint> {
    levels(&r.deployment, &r.workload).into_iter().map(|x| analytic_level(r, x)).collect()
}

/// One analytic load level (`x` users, or requests/s for request-rate loads).
fn analytic_level(r: &Resolved, x: f64) -> LoadPoint {
    let d = &r.deployment;
    let w = &r.workload;
    let rate_mode = matches!(w.load, Load::RequestRate(_));
    // What the server can produce at most; an offered load above it grows the queue without bound.
    let capacity = if rate_mode { offline_marker(d, w).system_tps } else { f64::INFINITY };
    // For a request rate, Little's law gives the concurrency: rate × time in system (iterated twice).
    let conc = if rate_mode {
        let mut c = 1.0;
        for _ in 0..4 {
            let (_, _, ttft, tpot, _) = analytic_point(d, w, c);
            c = (x * (ttft + tpot * (w.output_tokens - 1.0))).max(1.0);
        }
        c
    } else {
        x
    };
    let (pu, sys, ttft, tpot, bound) = analytic_point(d, w, conc);
    let e2e = ttft + tpot * (w.output_tokens - 1.0).max(0.0);
    let saturated = pu == 0.0 || (rate_mode && x * w.output_tokens > capacity);
    let sys = if rate_mode { sys.min(x * w.output_tokens) } else { sys };
    let mut p = LoadPoint {
        concurrency: (!rate_mode).then_some(x),
        request_rate: rate_mode.then_some(x),
        per_user_tps: pu,
        system_tps: sys,
        request_throughput: sys / w.output_tokens,
        goodput_rps: 0.0,
        ttft_ms: Pcts::flat(ttft * 1e3),
        tpot_ms: Pcts::flat(tpot * 1e3),
        itl_ms: Pcts::flat(tpot * 1e3),
        e2e_ms: Pcts::flat(e2e * 1e3),
        mean_batch: running_batch(d, w, conc),
        kv_utilization: 0.0,
        preemptions: 0,
        errors: 0,
        error_rate: 0.0,
        memory_bound_fraction: if bound == Bound::Memory { 1.0 } else { 0.0 },
        compute_bound_fraction: if bound == Bound::Compute { 1.0 } else { 0.0 },
        bound,
        saturated,
        meets_target: false,
        analytic_per_user_tps: pu,
    };
    p.meets_target = target::meets(r, &p);
    if p.meets_target {
        p.goodput_rps = sys / w.output_tokens;
    }
    p
}

fn length(dist: Distribution, mean: f64, spread: f64) -> LengthDist {
    match dist {
        Distribution::Fixed => LengthDist::Fixed(mean),
        Distribution::Uniform => LengthDist::Uniform { min: (mean * (1.0 - spread)).max(1.0), max: mean * (1.0 + spread) },
        Distribution::Lognormal => LengthDist::LogNormal { mean, cv: spread },
    }
}

/// Simulates every load level.
fn simulated_sweep(r: &Resolved) -> Vec<LoadPoint> {
    levels(&r.deployment, &r.workload).into_iter().map(|x| simulate_level(r, x)).collect()
}

/// Simulates one load level (`x` users, or requests/s for request-rate loads) with the scenario's settings.
fn simulate_level(r: &Resolved, x: f64) -> LoadPoint {
    let d = &r.deployment;
    let w = &r.workload;
    let targets = Targets { ttft_ms: r.target.ttft_ms, tpot_ms: r.target.tpot_ms };
    let rate_mode = matches!(w.load, Load::RequestRate(_));
    let arrivals = if rate_mode {
        Arrivals::Poisson { rate_per_s: x, burstiness: w.burstiness }
    } else {
        Arrivals::Closed { concurrency: x.clamp(1.0, 1e6) as u32 }
    };
    let cfg = SimConfig {
        requests: sim_requests(w),
        prompt: length(w.distribution, w.prompt_tokens, w.spread),
        output: length(w.distribution, w.output_tokens, w.spread),
        context_depth: w.context_depth,
        prefix_hit_rate: w.prefix_cache_hit_rate,
        arrivals,
        seed: w.seed,
        queue_limit: w.queue_limit,
        timeout_s: w.timeout_s,
        // Long enough for every measured request even at very low request rates.
        max_sim_seconds: if rate_mode { (20.0 * f64::from(w.requests) / x).max(86_400.0) } else { 1e7 },
        max_steps: 4_000_000,
    };
    let s = match r.pools() {
        Some((pre, dec)) => {
            let link = sim::Disaggregation { kv_transfer_gbps: r.disaggregation.map_or(1.0, |g| g.kv_transfer_gbps) };
            sim::simulate_disaggregated(&pre, &dec, &link, &cfg, &targets)
        }
        None => sim::simulate(d, &cfg, &targets),
    };
    let analytic = analytic_point(d, w, if rate_mode { 1.0 } else { x }).0;
    let total = f64::from(s.completed + s.rejected + s.timed_out).max(1.0);
    let errors = s.rejected + s.timed_out;
    let error_rate = f64::from(errors) / total;
    let bound = if s.compute_bound_fraction > s.memory_bound_fraction {
        Bound::Compute
    } else if s.memory_bound_fraction > 0.0 {
        Bound::Memory
    } else {
        Bound::Overhead
    };
    let mut p = LoadPoint {
        concurrency: (!rate_mode).then_some(x),
        request_rate: rate_mode.then_some(x),
        per_user_tps: if s.tpot_ms.p50 > 0.0 { 1e3 / s.tpot_ms.p50 } else { 0.0 },
        system_tps: s.system_output_tps,
        request_throughput: s.request_throughput,
        goodput_rps: s.goodput_rps,
        ttft_ms: pcts(&s.ttft_ms),
        tpot_ms: pcts(&s.tpot_ms),
        itl_ms: pcts(&s.itl_ms),
        e2e_ms: pcts(&s.e2e_ms),
        mean_batch: s.mean_batch,
        kv_utilization: s.mean_kv_utilization,
        preemptions: s.preemptions,
        errors,
        error_rate,
        memory_bound_fraction: s.memory_bound_fraction,
        compute_bound_fraction: s.compute_bound_fraction,
        bound,
        saturated: s.saturated,
        meets_target: false,
        analytic_per_user_tps: analytic,
    };
    p.meets_target = s.completed > 0 && target::meets(r, &p);
    p
}

/// Requests simulated per load level: the workload's, but fewer for very long requests so that one level
/// simulates at most about 600,000 request-steps (a decode step per output token, a prefill step per 64 prompt
/// tokens) and stays interactive in the page; at least 30.
#[must_use]
pub fn sim_requests(w: &Workload) -> u32 {
    let steps_per_request = w.output_tokens + w.prompt_tokens / 64.0;
    let cap = (600_000.0 / steps_per_request.max(1.0)).floor().max(30.0);
    (f64::from(w.requests)).min(cap) as u32
}

fn pcts(p: &sim::Percentiles) -> Pcts {
    Pcts { mean: p.mean, p50: p.p50, p90: p.p90, p95: p.p95, p99: p.p99 }
}

/// The operating point: the load (interpolated between levels) whose system TPS is `fraction` of the last
/// (peak usable) level's. A concurrency is rounded to whole users and every figure is then read at that
/// rounded load, so the marker's numbers belong to the load it names.
fn operating(levels: &[LoadPoint], fraction: f64, pct: f64) -> Marker {
    let x = |p: &LoadPoint| p.concurrency.or(p.request_rate).unwrap_or(0.0);
    let at = |a: &LoadPoint, b: &LoadPoint, t: f64| {
        let lerp = |u: f64, v: f64| u + (v - u) * t;
        let load = lerp(x(a), x(b));
        Marker {
            concurrency: b.concurrency.map(|_| load),
            request_rate: b.request_rate.map(|_| load),
            system_tps: lerp(a.system_tps, b.system_tps),
            per_user_tps: lerp(a.per_user_tps, b.per_user_tps),
            ttft_p_ms: Some(lerp(a.ttft_ms.at(pct), b.ttft_ms.at(pct))),
            tpot_p_ms: lerp(a.tpot_ms.at(pct), b.tpot_ms.at(pct)),
        }
    };
    let last = &levels[levels.len() - 1];
    let goal = fraction * last.system_tps;
    let Some(i) = levels.iter().position(|p| p.system_tps >= goal) else { return at(last, last, 1.0) };
    if i == 0 || levels[i].system_tps <= levels[i - 1].system_tps {
        return at(&levels[i], &levels[i], 1.0);
    }
    let (a, b) = (&levels[i - 1], &levels[i]);
    let mut t = (goal - a.system_tps) / (b.system_tps - a.system_tps);
    if b.concurrency.is_some() && x(b) > x(a) {
        let users = (x(a) + (x(b) - x(a)) * t).round().clamp(x(a), x(b)).max(1.0);
        t = (users - x(a)) / (x(b) - x(a));
    }
    at(a, b, t)
}

/// A request rate with as many decimals as it needs (0.001, 0.25, 12).
fn fmt_rate(r: f64) -> String {
    if r >= 10.0 {
        format!("{r:.0}")
    } else if r >= 0.1 {
        format!("{r:.2}")
    } else {
        format!("{r:.4}").trim_end_matches('0').to_string()
    }
}

fn load_label(m: &Marker) -> String {
    match (m.concurrency, m.request_rate) {
        (Some(c), _) if c.round() == 1.0 => "1 user".to_string(),
        (Some(c), _) => format!("{c:.0} users"),
        (_, Some(r)) => format!("{} req/s", fmt_rate(r)),
        _ => String::new(),
    }
}

/// A latency (or any figure) shown next to its limit: as few decimals as possible (none from 10 up, else
/// one or two), but never so few that rounding moves it to the other side of the limit: 40.2 ms against a
/// 40 ms limit reads "40.2", not "40" (which would read as a pass); 39.96 may read "40" (equal is within).
/// Comparisons are made on the unrounded values everywhere; this only keeps the text from contradicting them.
#[must_use]
pub fn fmt_against(v: f64, limit: f64) -> String {
    if !v.is_finite() {
        return "—".into();
    }
    let base = if v.abs() >= 10.0 { 0 } else if v.abs() >= 1.0 { 1 } else { 2 };
    for d in base..=4 {
        let s = format!("{v:.d$}");
        let shown: f64 = s.parse().unwrap_or(v);
        // The text must land on the same side of the limit as the value.
        if (v > limit) == (shown > limit) {
            return s;
        }
    }
    if v > limit { format!("just over {limit}") } else { format!("{v:.4}") }
}

/// "; the target holds up to N users, one more user breaks it (P99 TPOT …)": the capacity and what breaks just past it
/// (from the sweep's levels where the capacity is not resolved).
fn limit_note(r: &Resolved, sweep: &[LoadPoint], cap: Option<&Capacity>, mem: &Memory) -> String {
    let pct = r.target.percentile;
    let Some(c) = cap else { return grid_limit_note(r, sweep) };
    let load = load_label(&c.at);
    let Some(next) = &c.next else {
        let fit = r.deployment.max_sequences(r.workload.context_depth + r.workload.prompt_tokens + r.workload.output_tokens).floor();
        return match c.limited_by {
            LimitedBy::EngineCap if fit > mem.max_concurrency => format!(
                "; the target holds up to {load}, the most the engine runs at once (engine.max_batch); memory holds {fit:.0}, so a higher cap would serve more"
            ),
            LimitedBy::EngineCap => format!("; the target holds up to {load}, the most the engine runs at once (engine.max_batch)"),
            _ => format!("; the target holds up to {load}, the most whose KV cache fits at once"),
        };
    };
    let why = match c.limited_by {
        LimitedBy::Errors => "more than 1 % of requests fail".to_string(),
        LimitedBy::Tpot => format!("P{pct:.0} TPOT {} ms", fmt_against(next.tpot_p_ms, r.target.tpot_ms)),
        LimitedBy::Task => {
            let limit = r.target.task_s.unwrap_or(f64::INFINITY);
            let task = target::task_seconds(r.workload.agent_steps, r.workload.output_tokens, next.ttft_p_ms.unwrap_or(0.0), next.tpot_p_ms);
            format!("a {}-step task takes {} s", r.workload.agent_steps, fmt_against(task, limit))
        }
        _ => match next.ttft_p_ms.filter(|t| *t > r.target.ttft_ms) {
            Some(t) => format!("P{pct:.0} TTFT {} ms", fmt_against(t, r.target.ttft_ms)),
            None => "the queue grows without bound".into(),
        },
    };
    let more = if next.concurrency.is_some() { "one more user".to_string() } else { load_label(next) };
    format!("; the target holds up to {load}, {more} breaks it ({why})")
}

/// The grid's version of [`limit_note`]: the last level meeting the target and the next level.
fn grid_limit_note(r: &Resolved, sweep: &[LoadPoint]) -> String {
    let Some(i) = sweep.iter().rposition(|p| p.meets_target) else { return String::new() };
    let p = &sweep[i];
    let load = load_label(&Marker {
        concurrency: p.concurrency,
        request_rate: p.request_rate,
        system_tps: 0.0,
        per_user_tps: 0.0,
        ttft_p_ms: None,
        tpot_p_ms: 0.0,
    });
    let Some(next) = sweep.get(i + 1) else {
        return format!("; all levels up to {load} meet the target");
    };
    let pct = r.target.percentile;
    let why = if next.saturated {
        "the queue grows without bound".to_string()
    } else if next.error_rate > 0.01 {
        format!("{:.0} % errors", next.error_rate * 100.0)
    } else if next.tpot_ms.at(pct) > r.target.tpot_ms {
        format!("P{pct:.0} TPOT {} ms", fmt_against(next.tpot_ms.at(pct), r.target.tpot_ms))
    } else {
        format!("P{pct:.0} TTFT {} ms", fmt_against(next.ttft_ms.at(pct), r.target.ttft_ms))
    };
    // Past the engine's cap on running sequences requests queue: say so when that, not the hardware, is the limit.
    let cap = f64::from(r.deployment.engine.max_batch);
    let capped = next.concurrency.is_some_and(|c| c > cap) && p.concurrency.is_some_and(|c| c >= cap * 0.99);
    let fit = r.deployment.max_sequences(r.workload.context_depth + r.workload.prompt_tokens + r.workload.output_tokens).floor();
    let cap_note = if capped && fit > cap {
        format!(" — the engine runs at most {cap:.0} sequences at once (engine.max_batch) and queues the rest; memory holds {fit:.0}, so a higher cap would serve more")
    } else if capped {
        format!(" — the engine runs at most {cap:.0} sequences at once (engine.max_batch)")
    } else {
        String::new()
    };
    format!("; the target holds up to {load}, the next level breaks it ({why}){cap_note}")
}

/// "P99 TTFT ≤ 2000 ms and TPOT ≤ 40 ms", "a 10-step task ≤ 30 s at P99", or both.
fn target_text(r: &Resolved) -> String {
    let t = &r.target;
    let p = t.percentile as u32;
    let latency = match (t.ttft_ms < 1e8, t.tpot_ms < 1e8) {
        (true, true) => Some(format!("P{p} TTFT ≤ {:.0} ms and TPOT ≤ {:.0} ms", t.ttft_ms, t.tpot_ms)),
        (true, false) => Some(format!("P{p} TTFT ≤ {:.0} ms", t.ttft_ms)),
        (false, true) => Some(format!("P{p} TPOT ≤ {:.0} ms", t.tpot_ms)),
        (false, false) => None,
    };
    let task = target::task_limit(r).map(|s| format!("a {}-step task ≤ {} s at P{p}", r.workload.agent_steps, crate::model::units::fmt_num(s)));
    match (latency, task) {
        (Some(l), Some(k)) => format!("{l} and {k}"),
        (Some(l), None) => l,
        (None, Some(k)) => k,
        (None, None) => "the target".into(),
    }
}

#[allow(clippy::too_many_arguments)]
fn verdict(
    r: &Resolved,
    ss: &SingleStream,
    mem: &Memory,
    op: Option<&Marker>,
    peak: &Marker,
    sweep: &[LoadPoint],
    cap: Option<&Capacity>,
    op_point: Option<&LoadPoint>,
) -> String {
    if !r.deployment.fits() {
        return format!("does not fit: {:.1} GB of weights, {:.1} GB short", mem.weights_gb, -mem.kv_budget_gb);
    }
    if !mem.fits {
        return format!("does not fit: the KV cache of one {:.0}-token sequence needs more than the {:.1} GB left", mem.context_tokens, mem.kv_budget_gb);
    }
    let t = &r.target;
    let p = t.percentile as u32;
    match r.workload.mode {
        Mode::Batch => {
            let saturated_from = sweep.iter().find(|l| l.saturated).and_then(|l| l.request_rate);
            match saturated_from {
                Some(rate) => format!(
                    "batch: capacity about {:.0} tok/s total ({:.1} tok/s each); offered loads from {} req/s on saturate; single stream {:.1} tok/s",
                    peak.system_tps,
                    peak.per_user_tps,
                    fmt_rate(rate),
                    ss.decode_tps
                ),
                None => format!(
                    "batch: up to {:.0} tok/s total at {} ({:.1} tok/s each); single stream {:.1} tok/s",
                    peak.system_tps,
                    load_label(peak),
                    peak.per_user_tps,
                    ss.decode_tps
                ),
            }
        }
        Mode::Agent => match (op, op_point) {
            (Some(m), Some(lp)) => {
                let task = target::task_seconds_at(r, lp);
                let judged = match target::task_limit(r) {
                    Some(limit) => format!(" {} (target {} s)", if task <= limit { "✓" } else { "✗" }, fmt_against(limit, limit)),
                    None => String::new(),
                };
                format!(
                    "at {} (operating point): a {}-step task takes {} s{judged} (P{p} TTFT {:.2} s + {:.0} tokens × P{p} TPOT {:.1} ms per step), {:.0} tok/s total{}",
                    load_label(m),
                    r.workload.agent_steps,
                    fmt_against(task, target::task_limit(r).unwrap_or(f64::INFINITY)),
                    lp.ttft_ms.at(t.percentile) / 1e3,
                    r.workload.output_tokens,
                    lp.tpot_ms.at(t.percentile),
                    m.system_tps,
                    limit_note(r, sweep, cap, mem)
                )
            }
            _ => format!("✗ no load level meets {}", target_text(r)),
        },
        Mode::Reader => match op {
            Some(m) => format!(
                "at {} (operating point, {:.0} % of the {}): {:.0} tok/s each, {:.0} tok/s total, P{p} TPOT {} ms ✓ (target {} ms){}",
                load_label(m),
                r.target.operating_fraction * 100.0,
                if cap.is_some() { "throughput at capacity" } else { "peak usable throughput" },
                m.per_user_tps,
                m.system_tps,
                fmt_against(m.tpot_p_ms, t.tpot_ms),
                fmt_against(t.tpot_ms, t.tpot_ms),
                limit_note(r, sweep, cap, mem)
            ),
            None => format!("✗ no load level meets {}; one user gets {:.1} tok/s", target_text(r), ss.decode_tps),
        },
    }
}

/// A static batch (LMDeploy `profile_generation`, llama-batched-bench): `b` sequences start together, prefill
/// all prompts (in chunks of the step budget), then decode `output` tokens each with the context growing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StaticBatch {
    /// Time to the first token of every sequence, s (the whole batch's prefill).
    pub ttft_s: f64,
    /// Mean time to first token over the sequences, s: prompts finish in the order their chunks run (FCFS
    /// chunked prefill), so with `u` completion points the mean is `ttft · (u + 1) / (2u)`.
    pub ttft_mean_s: f64,
    /// Mean time per decode step, s.
    pub tpot_s: f64,
    /// Output tokens of all sequences ÷ total time.
    pub output_tps: f64,
    /// Output tokens of all sequences ÷ decode time (llama-batched-bench S_TG).
    pub decode_tps: f64,
    /// Prompt tokens ÷ prefill time (llama-batched-bench S_PP).
    pub prefill_tps: f64,
}

/// Evaluates a static batch of `b` sequences.
#[must_use]
pub fn static_batch(d: &Deployment, b: f64, prompt: f64, output: f64) -> StaticBatch {
    let prefill_tokens = b * prompt;
    let t = batch_prefill_seconds(d, b, prompt, 0.0);
    let ttft = t.max(d.step(&d.decode_load(b, prompt)).seconds);
    // Completion points: chunks (several short prompts finish per chunk) or prompts (a long one spans chunks).
    let chunk = f64::from(d.engine.max_batched_tokens.max(1));
    let points = if prompt <= chunk { (prefill_tokens / chunk).ceil() } else { b }.max(1.0);
    let ttft_mean = ttft * (points + 1.0) / (2.0 * points);
    let steps = (output - 1.0).max(1.0);
    let tpot = d.mean_decode_step(b, prompt + 1.0, steps);
    StaticBatch {
        ttft_s: ttft,
        ttft_mean_s: ttft_mean,
        tpot_s: tpot,
        output_tps: b * output / (ttft + steps * tpot),
        decode_tps: b / tpot,
        prefill_tps: if t > 0.0 { prefill_tokens / t } else { 0.0 },
    }
}
