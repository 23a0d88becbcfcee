//! The analytic steady state: single stream on an idle server, memory, the running batch, a step in steady state,
//! offline jobs and static batches — closed forms the sweep's simulation is checked against and the page shows
//! while the simulation runs.

use super::*;

/// Single-stream figures for the workload on an idle server.
#[must_use]
pub fn single_stream(d: &Deployment, w: &Workload) -> SingleStream {
    let start = w.context_depth + w.prompt_tokens;
    // DP attention: the one sequence's device reads the dense weights whole and its cache alone, and its share of
    // the experts with the others; its bytes over its own bandwidth set the ceiling.
    let streaming = if d.dense_copies() > 1.0 { 1.0 } else { d.hardware.parallel_devices() };
    let kv = d.kv_bytes(start);
    let bytes = if d.dense_copies() > 1.0 {
        let experts = d.routed_expert_load(1.0).0;
        d.weight_bytes_read(1.0) - experts + experts / d.dense_copies() + kv
    } else {
        d.weight_bytes_read(1.0) + kv
    };
    // A teacher's trial divided the bandwidth by the 16.1 GB of weights the memory card shows and got 209, not the
    // 222 of 15.1 GB a token: what a token reads is said with its figures.
    let gb = |b: f64| format!("{:.2} GB", b / 1e9);
    let (read, stored) = (bytes - kv, d.weight_bytes_stored());
    let why = if d.dense_copies() > 1.0 {
        "its device's: the dense weights whole, its share of the experts".to_string()
    } else if d.model.is_moe() {
        format!("of the {} stored, only the experts a token is routed to, and not the input embedding table, which is looked up", gb(stored))
    } else if stored - read > 0.005 * stored {
        format!("of the {} stored: the input embedding table, {}, is looked up, not streamed", gb(stored), gb(stored - read))
    } else {
        "all of them".to_string()
    };
    // A serving format's 16-bit head (`model::quant::head_bits`), said: 8 bits a weight do not halve a token's bytes
    // (a teacher's trial: FP8 raised the ceiling 1.85 ×, not 2 ×, with nothing on the card to say why).
    let head = if d.head_bits > d.dense_bits {
        format!("; its output head, {}, at 16 bits, as the checkpoint keeps it", gb(d.model.head_params() * d.head_bits / 8.0))
    } else {
        String::new()
    };
    let bytes_words = format!("{} of weights ({why}{head}) plus {} of KV cache at {:.0} tokens of context", gb(read), gb(kv), start);
    let spec_bw = d.hardware.memory_bandwidth_gbps * 1e9 * streaming;
    let tpot = d.mean_decode_step(1.0, start, w.output_tokens);
    let ttft = prefill::ttft_seconds(d, w.prompt_tokens, w.context_depth, w.prefix_cache_hit_rate);
    let prefill_tps = if w.prompt_tokens > 0.0 { prefill::prefill_tps(d, w.prompt_tokens) } else { prefill::prefill_tps(d, 512.0) };
    let time_words = time_words(d, start + w.output_tokens.max(1.0) / 2.0, tpot);
    SingleStream {
        ceiling_tps: spec_bw / bytes,
        decode_tps: 1.0 / tpot,
        tpot_ms: tpot * 1e3,
        ttft_ms: ttft * 1e3,
        prefill_tps,
        bytes_per_token: bytes,
        bound: d.step(&d.decode_load(1.0, start)).bound,
        streaming_devices: streaming,
        devices: d.hardware.devices,
        bytes_words,
        frontend_ms: d.engine.request_overhead_ms,
        time_words,
    }
}

/// Where one user's TPOT goes (a teacher's trial rebuilt 7.19 ms from the defaults: 5.60 reading the weights, 0.03
/// the cache, 1.56 the engine's own): the step of one sequence at the answer's mean context, its parts in
/// milliseconds — the linear layers (the weights read, or their matmuls where those take longer), attention's
/// KV cache (or the kernel chain's floor where it binds: a serving engine's chain of small kernels), the
/// devices' exchanges, the engine's own time per step — scaled to sum to `tpot` (the mean over the answer).
fn time_words(d: &Deployment, ctx: f64, tpot: f64) -> String {
    let c = d.step(&d.decode_load(1.0, ctx));
    if c.seconds <= 0.0 || !c.seconds.is_finite() {
        return String::new();
    }
    let scale = tpot / c.seconds * 1e3;
    let gemm = c.weights_s.max(c.matmul_s);
    let kernels = c.memory_s.max(c.compute_s);
    let floor = c.chain_floor && kernels > gemm;
    let ms = |x: f64| format!("{:.2}", x * scale);
    let mut parts = vec![format!("{} ms {}", ms(gemm), if c.matmul_s > c.weights_s { "multiplying the weights" } else { "reading the weights" })];
    if kernels - gemm > 0.0 {
        parts.push(format!("{} ms {}", ms(kernels - gemm), if floor { "the chain of small kernels beyond that" } else { "reading the KV cache" }));
    }
    if c.comm_s > 0.0 {
        parts.push(format!("{} ms the exchanges between devices", ms(c.comm_s)));
    }
    if c.overhead_s > 0.0 {
        parts.push(format!("{} ms the engine's own work per step", ms(c.overhead_s)));
    }
    format!("TPOT {:.2} ms = {}", tpot * 1e3, parts.join(" + "))
}

/// The roofline and the steps on it: the decode step at each of `batches` (the load levels' mean batches) at
/// the workload's mean context, and one prefill chunk of the prompt.
#[must_use]
pub fn roofline(d: &Deployment, w: &Workload, levels: impl Iterator<Item = (f64, f64)>) -> crate::scenario::Roofline {
    use crate::scenario::RooflinePoint;
    let hw = &d.hardware;
    let devices = hw.parallel_devices();
    let peak = hw.peak_flops(d.compute_dtype) * devices;
    let bandwidth = hw.memory_bandwidth_gbps * 1e9 * devices;
    // `prompt_tokens`: the new prompts' tokens a step of this level carries besides its decodes, on average.
    let point = |load: &StepLoad, tokens: f64, prompt_tokens: f64| {
        let (flops, bytes) = d.step_work(load);
        let step = d.step(load);
        let seconds = step.seconds;
        let mut n = load.decode_seqs + load.prefill_tokens + prompt_tokens;
        // A pipeline runs the step as micro-batches, one per stage (`Deployment::step`): a devices-th of its
        // decodes and of its prompts each, one prompt's chunk never split.
        if hw.parallelism == crate::model::hardware::Parallelism::Pipeline && hw.devices > 1 {
            let k = f64::from(hw.devices);
            let share = |count: f64| (1.0 / k).max(if count > 0.0 { 1.0 / count } else { 1.0 }).min(1.0);
            n = load.decode_seqs * share(load.decode_seqs) + load.prefill_tokens * share(load.prefill_seqs) + prompt_tokens / k;
        }
        // (A shape whose tokens read no weights — a property test's 0.5B MoE of 39 experts at 5 % active — has none:
        // 0, not 0 ÷ 0, which the report's JSON would write as null.)
        let wb = d.weight_bytes_read(n);
        let linear_intensity = if wb > 0.0 { 2.0 * d.model.matmul_params_per_token() * n / wb } else { 0.0 };
        let attention_intensity = (load.decode_kv_bytes > 0.0).then(|| load.decode_attn_flops / load.decode_kv_bytes);
        (flops > 0.0 && bytes > 0.0 && seconds > 0.0).then(|| RooflinePoint {
            tokens,
            intensity: flops / bytes,
            tflops: flops / seconds / 1e12,
            prompt_tokens,
            linear_intensity,
            attention_intensity,
            bound: step.bound,
        })
    };
    let ctx = w.mean_context();
    let decode = levels.filter(|l| l.0 > 0.0).filter_map(|(b, pt)| point(&d.decode_load(b, ctx), b, pt.max(0.0))).collect();
    let chunk = w.prompt_tokens.min(f64::from(d.chunk_tokens()));
    let prefill = if chunk >= 1.0 { point(&d.with_prefill(StepLoad::default(), chunk, w.context_depth), chunk, 0.0) } else { None };
    crate::scenario::Roofline {
        peak_tflops: peak / 1e12,
        bandwidth_gbps: bandwidth / 1e9,
        compute_efficiency: d.engine.compute_efficiency,
        bandwidth_efficiency: d.engine.bandwidth_efficiency,
        ridge: peak / bandwidth,
        decode,
        prefill,
    }
}

/// The longest request the traffic sends, tokens (earlier context + prompt + output): the benchmark's uniform range
/// of the spread (lognormal lengths sent as the uniform range of the same spread, as `plan::reproduce` sends them), or a
/// lognormal traffic's 99.9th percentile where that is longer (an operations trial: 3,000-token prompts of CV 0.5
/// sized with their P99 at 8,052 tokens, and a server started for 7,168 would have refused some of them).
#[must_use]
pub fn longest_request_tokens(w: &Workload) -> f64 {
    use crate::scenario::Distribution;
    let range = match w.distribution {
        Distribution::Fixed => 0.0,
        Distribution::Uniform => w.spread.min(0.95),
        Distribution::Lognormal => (w.spread * 3f64.sqrt()).min(0.95),
    };
    let mut longest = ((w.prompt_tokens + w.output_tokens) * (1.0 + range)).ceil() + w.context_depth;
    if w.distribution == Distribution::Lognormal && w.spread > 0.0 {
        let s2 = (1.0 + w.spread * w.spread).ln();
        let tail = (-0.5 * s2 + s2.sqrt() * 3.090_232).exp();
        longest = longest.max(((w.prompt_tokens + w.output_tokens) * tail).ceil() + w.context_depth);
    }
    longest
}

/// llama.cpp's slot context, tokens: the longest request the traffic sends ([`longest_request_tokens`]), at most what
/// the KV cache holds for one request ([`longest_fitting_tokens`]; longer ones are refused). (`-c` is the slots'
/// total, which llama.cpp pads to a multiple of 256 itself: rounding each slot up had cost a slot, 4 × 5,200 tokens
/// fitting where 4 × 5,376 did not.)
#[must_use]
pub fn llama_cpp_slot_tokens(d: &Deployment, w: &Workload) -> f64 {
    longest_request_tokens(w).ceil().min(longest_fitting_tokens(d).floor())
}

/// llama.cpp's slots that fit: its server gives each slot (`-np`) a context of its own, allocated when it starts (`-c`
/// is all slots' together), and has no preemption; a slot holds the traffic's longest request
/// ([`llama_cpp_slot_tokens`]). So no more run at once than the KV cache holds slots of that context — at least one.
/// The sweep simulates these slots and `plan::reproduce` starts llama-server with them (a teacher's trial: Qwen2.5-32B
/// Q4_K_M on one RTX 4090 with 16k-token prompts, memory for one such request, was simulated as vLLM's paged cache,
/// admitting a second by its first chunk and preempting it again and again: 20 tok/s at one user, 4 at two and more,
/// 25,000–43,000 recomputations, where llama.cpp serves one at a time and the others wait; its commands had read
/// `-np 4 -c 81920` for a cache of ~21,000 tokens). `None` for the other engines (paged caches, admitted by their
/// prompts).
#[must_use]
pub fn llama_cpp_slots(d: &Deployment, w: &Workload) -> Option<u32> {
    if d.engine.kind != crate::model::engine::EngineKind::LlamaCpp {
        return None;
    }
    let per_slot = d.kv_bytes(llama_cpp_slot_tokens(d, w).max(1.0));
    let budget = d.kv_budget_bytes();
    let fit = if per_slot > 0.0 && budget > 0.0 { (budget / per_slot).floor().clamp(1.0, f64::from(u32::MAX)) as u32 } else { 1 };
    Some(d.engine.max_batch.max(1).min(fit))
}

/// The longest request, tokens, whose KV cache fits the memory alone (0 when none does; the tokens of a whole
/// cache where it never fills: sliding windows). Longer requests are refused (the simulator's `Books::cap_lengths`).
#[must_use]
pub fn longest_fitting_tokens(d: &Deployment) -> f64 {
    let budget = d.kv_budget_bytes();
    if budget.is_nan() || budget <= 0.0 || d.kv_bytes(1.0) > budget {
        return 0.0;
    }
    let (mut lo, mut hi) = (1.0_f64, 2.0_f64);
    while d.kv_bytes(hi) <= budget {
        if hi > 1e9 {
            return hi;
        }
        (lo, hi) = (hi, hi * 2.0);
    }
    while hi - lo > 1.0 {
        let mid = ((lo + hi) / 2.0).floor();
        if d.kv_bytes(mid) <= budget {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// Memory figures for the workload.
#[must_use]
pub fn memory(d: &Deployment, w: &Workload) -> Memory {
    let ctx = w.full_context();
    let kv_max = d.max_sequences(ctx);
    // The sequences whose KV blocks fit when each holds only its prompt and first token (vLLM admits a request when
    // its prompt's blocks fit); none when not even one fits at full length. llama.cpp's slots hold their full
    // context (`llama_cpp_slots`).
    let admitted_fit = if let Some(slots) = llama_cpp_slots(d, w).filter(|_| kv_max >= 1.0) {
        f64::from(slots)
    } else if kv_max >= 1.0 {
        let admitted = ((w.context_depth + w.prompt_tokens + 1.0) / 16.0).ceil() * 16.0;
        d.max_sequences(admitted).floor()
    } else {
        0.0
    };
    let max_batch = f64::from(d.engine.max_batch);
    Memory {
        total_gb: d.hardware.accelerator_memory_bytes() / 1e9,
        weights_gb: d.weight_bytes_stored() / 1e9,
        kv_bytes_per_token: d.kv_bytes_per_token(),
        kv_budget_gb: d.kv_budget_bytes() / 1e9,
        context_tokens: ctx,
        // The most the engine can run at once: max batch, and the sequences admitted by memory. More than
        // `kv_max_sequences` may run: they are not all at full length at once, and when their growing caches
        // fill the memory the engine preempts (recomputes) one — the sweep counts those preemptions.
        max_concurrency: admitted_fit.min(max_batch),
        engine_capped: kv_max >= 1.0 && admitted_fit >= max_batch,
        slot_tokens: (d.engine.kind == crate::model::engine::EngineKind::LlamaCpp).then(|| llama_cpp_slot_tokens(d, w)),
        max_batch: d.engine.max_batch,
        kv_max_sequences: kv_max,
        fits: d.fits() && kv_max >= 1.0,
        kv_copies: d.kv_replication(),
        sequence_kv_bytes: d.kv_bytes(ctx),
        kv_latent: matches!(d.model.attention, crate::model::llm::Attention::Mla { .. }),
        dense_copies: (d.dense_copies() > 1.0).then(|| {
            let mut tp = d.clone();
            tp.hardware.parallelism = crate::model::hardware::Parallelism::Tensor;
            (d.hardware.devices, (d.weight_bytes_stored() - d.weight_bytes()) / 1e9, tp.kv_replication())
        }),
        decode_pool: None,
    }
}

/// Sequences decoding together in steady state at `concurrency` users (bounded by max batch and, at the mean
/// occupancy of a sequence, by the KV cache).
#[must_use]
pub fn running_batch(d: &Deployment, w: &Workload, concurrency: f64) -> f64 {
    let mean_ctx = w.mean_context();
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
    // A pipeline fills its micro-batches with different prompts' chunks: a round of its n stages reads n chunks,
    // each as one device would, in one chunk's time — n lanes for n prompts or more, one prompt alone gains
    // nothing. The chunks are costed on one stage chain (a layer split, `Deployment::step`'s own micro-batch
    // path) and the lanes divide the sum.
    let pipeline = d.hardware.parallelism == crate::model::hardware::Parallelism::Pipeline && d.hardware.devices > 1;
    let (d, lanes) = if pipeline {
        let mut chain = d.clone();
        chain.hardware.parallelism = crate::model::hardware::Parallelism::LayerSplit;
        (std::borrow::Cow::Owned(chain), f64::from(d.hardware.devices).min(b).max(1.0))
    } else if d.dense_copies() > 1.0 {
        return dp_batch_prefill_seconds(d, b, prompt, prior);
    } else {
        (std::borrow::Cow::Borrowed(d), 1.0)
    };
    let chunk = f64::from(d.chunk_tokens());
    if prompt >= chunk {
        // (The chain is not llama.cpp's layer split: its chunks are not pipelined within one prompt.)
        let one = if pipeline { d.prefill_chunks_seconds(prompt, prior) } else { d.prefill_seconds(prompt, prior) };
        return b * one / lanes;
    }
    let per_chunk = (chunk / prompt).floor().max(1.0);
    let full = (b / per_chunk).floor();
    let rest = b - full * per_chunk;
    let cost = |count: f64| d.step(&d.with_prefill_many(StepLoad::default(), count, prompt, prior)).seconds;
    // Packed prompts share a chunk: the lanes are the chunks, not the prompts.
    let chunks = full + if rest > 0.0 { 1.0 } else { 0.0 };
    (full * cost(per_chunk) + if rest > 0.0 { cost(rest) } else { 0.0 }) / lanes.min(chunks).max(1.0)
}

/// The steady state of `b` sequences: in the time every slot produces its `output` tokens (one decode step
/// each, at the mean context), it also prefills its next prompt; prefill runs in full chunks of the step budget
/// (vLLM/SGLang chunked prefill, TensorRT-LLM in-flight batching), so a MoE prefill chunk touches the experts
/// once rather than a few prompt tokens touching them in every decode step.
/// Returns (the decode step's load, mean seconds per output token including the prefill time).
#[must_use]
pub fn steady_step(d: &Deployment, w: &Workload, b: f64) -> (StepLoad, f64) {
    let mean_ctx = w.mean_context();
    let new_prompt = w.uncached_prompt();
    let load = d.decode_load(b, mean_ctx);
    let t_dec = d.step(&load).seconds;
    let t_pre = batch_prefill_seconds(d, b, new_prompt, w.prompt_prior());
    // The step that finishes a prompt emits its first token, so a request needs output − 1 decode steps.
    let out = w.output_tokens.max(1.0);
    (load, ((out - 1.0) * t_dec + t_pre) / out)
}

/// An analytic closed-loop level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AnalyticPoint {
    /// Tokens/s each generating user sees (1 / TPOT).
    pub per_user_tps: f64,
    /// Output tokens/s of the whole server.
    pub system_tps: f64,
    /// Time to first token, s (waiting for a slot, then the prefill on a busy server).
    pub ttft_s: f64,
    /// Time per output token, s (the steady step).
    pub tpot_s: f64,
    /// Sequences in the running batch.
    pub batch: f64,
    pub bound: Bound,
}

impl AnalyticPoint {
    /// A request's end-to-end time, s: its first token, then `output_tokens` − 1 steady steps.
    #[must_use]
    pub fn e2e_s(&self, output_tokens: f64) -> f64 {
        self.ttft_s + self.tpot_s * (output_tokens - 1.0).max(0.0)
    }
}

/// Analytic closed-loop level at `concurrency` users; all zero when not even one sequence fits (the caller
/// marks that level saturated).
#[must_use]
pub fn analytic_point(d: &Deployment, w: &Workload, concurrency: f64) -> AnalyticPoint {
    let b = running_batch(d, w, concurrency);
    if b < 1.0 {
        return AnalyticPoint { per_user_tps: 0.0, system_tps: 0.0, ttft_s: 0.0, tpot_s: 0.0, batch: 0.0, bound: Bound::Memory };
    }
    let (load, step) = steady_step(d, w, b);
    let bound = d.step(&load).bound;
    let ttft0 = prefill::ttft_seconds(d, w.prompt_tokens, w.context_depth, w.prefix_cache_hit_rate);
    // Prefill on a busy server shares each step with b decodes: it takes as many steps as its chunks need.
    // (Under DP attention a prompt's device gives it its share of the budget, less its own decodes.)
    let budget = (f64::from(d.chunk_tokens()) - b / d.dense_copies()).max(1.0);
    let ttft_busy = (w.uncached_prompt() / budget).ceil().max(1.0) * step;
    let service = ttft_busy.max(ttft0) + (w.output_tokens - 1.0).max(0.0) * step;
    let wait = ((concurrency / b) - 1.0).max(0.0) * service;
    AnalyticPoint { per_user_tps: 1.0 / step, system_tps: b / step, ttft_s: wait + ttft_busy.max(ttft0), tpot_s: step, batch: b, bound }
}

/// An analytic closed-loop level of a disaggregated deployment (`engine.disaggregation`), as the simulator runs one
/// (`sim::simulate_disaggregated`): the decode pool's steps carry the running batch's decodes and no prompt; the
/// prefill pool reads each prompt and gives its first token; the KV link (`link_bytes_per_s`) then carries the
/// prompt's cache to the decode pool, which delays the second token. Deterministic, as [`analytic_point`]: the
/// requests flow at the slowest of what the users send, the prefill pool reads (prompts queued there share its
/// chunks), the link carries and the decode pool's places turn over; the decode batch is what that flow keeps there
/// (Little's law). A user's time beyond its unhindered cycle is a wait where the bottleneck is: before the first
/// token for the prefill pool (as the colocated analytic counts a wait for a place), between the first and the second
/// for the link or the decode pool's places (the simulator's prefilled requests wait there: TPOT holds it). (Until
/// 2026-12-07 the analytic figures of a disaggregated scenario were the colocated server's on all its devices: 186
/// tok/s for one user of 1 + 1 H100s, where the one decode device streams 172 at most; a checking script's find.)
#[must_use]
pub fn analytic_point_pools(pre: &Deployment, dec: &Deployment, link_bytes_per_s: f64, w: &Workload, concurrency: f64) -> AnalyticPoint {
    let b = running_batch(dec, w, concurrency);
    // The prefill pool must hold the weights and one prompt's cache (the simulator refuses a request it cannot).
    if b < 1.0 || !pre.fits() || pre.max_sequences(w.context_depth + w.prompt_tokens) < 1.0 {
        return AnalyticPoint { per_user_tps: 0.0, system_tps: 0.0, ttft_s: 0.0, tpot_s: 0.0, batch: 0.0, bound: Bound::Memory };
    }
    let steps = (w.output_tokens - 1.0).max(0.0);
    let first = prefill::ttft_seconds(pre, w.prompt_tokens, w.context_depth, w.prefix_cache_hit_rate);
    // A one-token answer ends at the prefill pool: nothing crosses the link.
    let transfer = if steps > 0.0 { dec.kv_bytes(w.context_depth + w.prompt_tokens) / link_bytes_per_s } else { 0.0 };
    let transfer = if transfer.is_finite() { transfer.max(0.0) } else { 0.0 };
    let in_flight = concurrency.min(b).max(1.0);
    let per_prompt = batch_prefill_seconds(pre, in_flight, w.uncached_prompt(), w.prompt_prior()) / in_flight;
    let cap = |t: f64| if t > 0.0 { 1.0 / t } else { f64::INFINITY };
    // (rate before the first token, rate after it, the step's cost, the unhindered cycle) at a decode batch.
    let flow = |batch: f64| {
        let cost = dec.step(&dec.decode_load(batch, w.mean_context()));
        let cycle = first + transfer + steps * cost.seconds;
        let before = (concurrency / cycle).min(cap(per_prompt));
        let after = cap(transfer).min(cap(steps * cost.seconds / b));
        (before, after, cost, cycle)
    };
    let mut batch = b;
    for _ in 0..6 {
        let (before, after, cost, _) = flow(batch);
        batch = (before.min(after) * steps * cost.seconds).clamp(1.0, b);
    }
    let (before, after, cost, cycle) = flow(batch);
    let rate = before.min(after);
    let wait = (concurrency / rate - cycle).max(0.0);
    let t_dec = cost.seconds;
    let mut tpot = if steps > 0.0 { t_dec + transfer / steps } else { t_dec };
    let mut ttft = first + wait;
    if after < before && steps > 0.0 {
        tpot += wait / steps;
        ttft = first;
    }
    AnalyticPoint { per_user_tps: 1.0 / tpot, system_tps: rate * w.output_tokens, ttft_s: ttft, tpot_s: tpot, batch, bound: cost.bound }
}

/// The offline marker of a deployment that runs no sequence at all.
fn nothing_runs() -> Marker {
    Marker { concurrency: Some(0.0), request_rate: None, system_tps: 0.0, per_user_tps: 0.0, ttft_p_ms: None, tpot_p_ms: 0.0, kv_utilization: None }
}

/// The offline (all requests queued) throughput: as many sequences as memory and max batch allow.
#[must_use]
pub fn offline_marker(d: &Deployment, w: &Workload) -> Marker {
    let b = running_batch(d, w, f64::INFINITY);
    if b < 1.0 {
        return nothing_runs();
    }
    let (_, step) = steady_step(d, w, b);
    Marker {
        concurrency: Some(b),
        request_rate: None,
        system_tps: b / step,
        per_user_tps: 1.0 / step,
        ttft_p_ms: None,
        tpot_p_ms: step * 1e3,
        kv_utilization: None,
    }
}

/// A finite offline job: `n` requests of fixed length all queued at t = 0 (`trtllm-bench throughput`, vLLM
/// `benchmark_throughput`). Requests of equal length admitted together also grow together, so the batch is
/// what the KV cache holds at the *full* context (TensorRT-LLM's default capacity scheduler reserves it up
/// front), and the job runs in waves: ⌈n / b⌉ rounds of (prefill the wave's prompts in chunks, then
/// output − 1 decode steps as the context grows). Throughput = output tokens of all `n` ÷ the job's time,
/// so a job of 1.5 waves pays for a half-empty last wave, as the measured runs do.
#[must_use]
pub fn offline_job(d: &Deployment, w: &Workload, n: f64) -> Marker {
    let full_ctx = w.full_context();
    let b = n.min(f64::from(d.engine.max_batch)).min(d.max_sequences(full_ctx).floor());
    if b < 1.0 {
        return nothing_runs();
    }
    let new_prompt = w.uncached_prompt();
    let prior = w.prompt_prior();
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
    Marker {
        concurrency: Some(b),
        request_rate: None,
        system_tps: n * w.output_tokens / total,
        per_user_tps: per_user,
        ttft_p_ms: None,
        tpot_p_ms: step * 1e3,
        kv_utilization: None,
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

/// [`batch_prefill_seconds`] under DP attention: each device reads its own prompts in chunks of its share of the
/// budget ([`Deployment::chunk_tokens`]), side by side, so a step carries up to one chunk per device and the experts
/// see all of them. A prompt longer than a chunk: rounds of `n` prompts (fewer at the end), each as many steps as its
/// chunks, costed at the middle chunk's context; shorter prompts: steps of `n` chunks of packed prompts.
fn dp_batch_prefill_seconds(d: &Deployment, b: f64, prompt: f64, prior: f64) -> f64 {
    let n = d.dense_copies();
    let chunk = f64::from(d.chunk_tokens());
    if prompt >= chunk {
        let steps = (prompt / chunk).ceil();
        let round = |lanes: f64| {
            let load = d.with_prefill_many(StepLoad::default(), lanes, prompt / steps, prior + prompt / 2.0 - prompt / steps / 2.0);
            steps * d.step(&load).seconds
        };
        let full = (b / n).floor();
        let rest = b - full * n;
        return full * round(n) + if rest > 0.0 { round(rest) } else { 0.0 };
    }
    let per_step = (chunk / prompt).floor().max(1.0) * n;
    let full = (b / per_step).floor();
    let rest = b - full * per_step;
    let cost = |count: f64| d.step(&d.with_prefill_many(StepLoad::default(), count, prompt, prior)).seconds;
    full * cost(per_step) + if rest > 0.0 { cost(rest) } else { 0.0 }
}

/// Evaluates a static batch of `b` sequences.
#[must_use]
pub fn static_batch(d: &Deployment, b: f64, prompt: f64, output: f64) -> StaticBatch {
    let prefill_tokens = b * prompt;
    let t = batch_prefill_seconds(d, b, prompt, 0.0);
    let ttft = t.max(d.step(&d.decode_load(b, prompt)).seconds);
    // Completion points: chunks (several short prompts finish per chunk) or prompts (a long one spans chunks).
    let chunk = f64::from(d.chunk_tokens());
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
