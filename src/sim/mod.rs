//! Serving under load: a discrete-event simulation of an iteration-level continuous-batching LLM server.
//!
//! The analytic model ([`crate::model`]) says how long one forward pass takes for a given batch; this module
//! says which batches a real server forms when requests arrive, queue, prefill, decode and leave, and turns
//! that into the latency distributions users see (TTFT, TPOT, inter-token latency, end-to-end) and the
//! throughput the server delivers.
//!
//! # Algorithm
//!
//! The server is simulated step by step (one step = one forward pass, Orca's *iteration-level scheduling*).
//! Each step, as the vLLM V1 scheduler does:
//!
//! 1. **Running sequences first**, in admission order. Every request is "`computed` tokens in the KV cache,
//!    `target` tokens known"; a step gives it `min(target − computed, budget)` tokens of the step's token budget
//!    (`max_batched_tokens`). A decoding sequence needs 1 token; a sequence still prefilling gets a chunk of its
//!    prompt (*chunked prefill*, Sarathi-Serve): a long prompt is spread over several steps, piggybacked on the
//!    decodes, and decode tokens use the budget first (a prefilling sequence is always behind every decoding
//!    one in admission order).
//! 2. **KV blocks**: the pool is `Deployment::kv_budget_bytes`, allocated in blocks of 16 tokens
//!    (PagedAttention); a sequence holding `c` tokens occupies `Deployment::kv_bytes(⌈c/16⌉·16)`. When a
//!    running sequence needs a new block and none is free, the most recently admitted running sequence is
//!    **preempted** (recompute mode: its blocks are freed, it goes to the front of the waiting queue and later
//!    redoes its prefill over prompt + tokens generated so far). A sequence may have to preempt itself.
//! 3. **Admission** (only in steps without preemption, as vLLM V1): while fewer than `max_batch` sequences run
//!    and budget remains, the head of the FCFS waiting queue is admitted if the KV pool has blocks for its
//!    cached prefix plus its first chunk; otherwise admission stops (no skipping ahead).
//! 4. The step's duration is [`Deployment::step`] of the actual load: every decoding sequence adds its own KV
//!    bytes and attention FLOPs at its own context, every prefill chunk is added with
//!    [`Deployment::with_prefill`] at its prior context. Whether the step was memory-, compute- or
//!    overhead-bound is recorded.
//! 5. At the end of the step every sequence whose `computed` reached `target` samples one token: the step that
//!    finishes a prompt emits the first token (TTFT), each later step one more (ITL). A sequence that has all
//!    its output tokens leaves and frees its blocks.
//!
//! Runs of pure decode steps (every running sequence decoding, nothing to admit, no arrival, no deadline)
//! change only by one token of context per sequence per step; they are simulated in closed form (the
//! roofline's memory and compute times are affine in the step index, `linear`), which gives the same
//! numbers as stepping one by one to rounding (tested) at a fraction of the cost.
//!
//! Between steps, arrivals join the back of the queue. **Closed loop**: `N` users, each sending its next
//! request the moment the previous one ends, the first wave all at t = 0 (`vllm bench serve
//! --max-concurrency N --request-rate inf`). **Open loop**: gamma-distributed gaps with shape `burstiness` and
//! mean `1/rate` (`--request-rate R --burstiness B`; shape 1 = Poisson). An idle server jumps to the next
//! arrival.
//!
//! # Measurement
//!
//! `requests` requests are measured. Warm-up comes first: measurement starts once `requests/10` requests
//! (closed loop: at least one full wave, `min(N, requests)`) have left the system — served, rejected or timed
//! out. Counting departures rather than arrivals means the server has filled its batch and turned it over
//! whatever the load, so the start-up burst and the empty-server start do not bias the steady state. The next
//! `requests` requests to arrive are the measured ones. After them, filler requests (at most `requests/2`)
//! keep the load up while the last measured ones finish, so they do not run on a draining server. Warm-up and
//! filler requests are excluded from all latency statistics.
//!
//! The measurement window runs from the arrival of the first measured request to the arrival of the last one
//! (or, when they arrive together, to the end of the last one): the load is steady throughout. Throughputs
//! (`system_output_tps`, `request_throughput`, `goodput_rps`) count every token and request completed in
//! the window, divided by its length; the time-averaged quantities (`mean_batch`, `mean_kv_utilization`,
//! bound fractions) are weighted by step time over the steps that start in the window.
//!
//! Metrics follow `vllm bench serve`: TTFT = first token − arrival (queueing included); TPOT = (E2E − TTFT) ÷
//! (n − 1), requests with n = 1 skipped; ITL = every gap between consecutive tokens of a request, pooled over
//! requests; E2E = last token − arrival; percentiles with numpy's linear interpolation (exact for TTFT, TPOT
//! and E2E; within 0.1 % for ITL, whose hundreds of thousands of samples go through a log-bucket histogram,
//! see `stats`).
//!
//! Errors: an arrival that finds `queue_limit` requests waiting is rejected, as is a request that alone could
//! never fit in the KV pool. With `timeout_s`, a request still unfinished that long after its arrival is
//! aborted (its blocks freed) and counted as timed out; latency statistics cover completed requests only.
//!
//! **Saturation**: `saturated` is set when the run hit `max_sim_seconds` or `max_steps`, when (open loop) the
//! waiting queue grew between the middle and the end of the measured arrivals by more than a tenth of the
//! arrivals in between (arrival rate above service rate: the percentiles then grow with the run length and are
//! only lower bounds), or when no measured request completed. A deployment whose weights do not fit, or
//! whose smallest possible request cannot fit in the KV pool alone, returns an all-zero result with
//! `saturated = true`.
//!
//! # Assumptions
//!
//! - Step time is the roofline of [`crate::model::roofline`]; the scheduler itself costs nothing beyond the
//!   engine's fixed `step_overhead_ms`. Detokenisation, networking and client time are not modelled.
//! - The prefix-cached part of a prompt (`context_depth` + `prefix_hit_rate` × prompt) skips prefill but still
//!   occupies KV blocks in every sequence (no sharing of blocks between sequences is credited), and is never
//!   recomputed after a preemption. At least one prompt token is always prefilled (it yields the logits of the
//!   first output token, as vLLM does on a full hit).
//! - No speculative decoding, no priorities, no swap-to-CPU preemption, no admission watermark; one model
//!   replica (tensor parallel ranks count as one server), or one prefill and one decode replica
//!   ([`simulate_disaggregated`]).
//! - Deterministic: the same inputs and seed give a bit-identical result. Request lengths come from a random
//!   stream separate from the arrival stream, so load levels run with the same seed draw the same sequence of
//!   lengths (common random numbers: smoother curves across a sweep).
//!
//! # Disaggregated prefill/decode
//!
//! [`simulate_disaggregated`] serves the same workload with prefill and decode on separate pools of devices
//! (DistServe, Splitwise, vLLM's disaggregated prefilling, SGLang's PD disaggregation). Both pools run the
//! engine above; what differs is where a request enters and leaves them:
//!
//! 1. **Prefill pool** (its own [`Deployment`]: step times, `max_batched_tokens`, `max_batch`, KV pool). Requests
//!    arrive there, FCFS, and are prefilled exactly as above — chunks packed up to `max_batched_tokens` tokens
//!    and `max_batch` sequences per step, blocks allocated per chunk, recompute preemption — except that no
//!    sequence ever decodes: the step that finishes a prompt samples the **first token** and the sequence leaves
//!    the batch. TTFT ends there: the prefill instance produces the first token (vLLM's proxy runs the prompt
//!    on it with `max_tokens = 1`) and a front end that streams it at once shows this TTFT; one that waits for
//!    the decode instance shows TTFT plus the transfer and the decode queue, which here appear in the first
//!    inter-token gap instead. The sequence keeps its KV blocks until its transfer is done, so a slow link
//!    fills the prefill pool's KV cache and stalls admissions there. A request with a single output token is
//!    complete at this point.
//! 2. **Transfer**: the KV cache of the prompt, `decode.kv_bytes(prompt tokens)` bytes (the cached prefix
//!    included), crosses one FIFO channel of `kv_transfer_gbps` × 10⁹ B/s: a transfer starts when its prefill
//!    is done and the channel is free and lasts bytes ÷ bandwidth. Transfers overlap with the steps of both
//!    pools and queue on the link, each sent whole at the full bandwidth (the same throughput as sharing it).
//! 3. **Decode pool** (its own [`Deployment`]): the transferred request joins the back of the waiting queue and
//!    is admitted as above, FCFS, when blocks for its whole context plus one token are free; it then decodes one
//!    token per step. A preempted sequence loses its blocks and recomputes its context on the decode pool
//!    (recompute preemption, as vLLM's decode instance does — the prefill pool's copy is gone), beyond the
//!    prefix-cached part, which is assumed cached on the decode pool too, as in the colocated server.
//!
//! The gap from the first token to the second therefore includes the transfer, the wait for the link and the
//! wait in the decode queue, and so do TPOT = (E2E − TTFT) ÷ (n − 1) and the first ITL sample, as a client of
//! such a deployment sees. Everything else is as in [`simulate`]: the same arrival processes, warm-up, fillers,
//! measurement window, percentiles, goodput; `queue_limit` applies to the prefill queue (where requests
//! arrive), `timeout_s` end to end (a request past its deadline is dropped wherever it is — in a queue, a
//! batch, or on arrival at the decode pool); a request is rejected if its prompt cannot fit the prefill pool
//! alone or the whole request the decode pool alone; `max_steps` counts the steps of both pools;
//! `preemptions` adds both pools. The time-averaged fields (`mean_batch`, `mean_kv_utilization`, bound
//! fractions) describe the **decode pool**; `prefill_utilization` is the share of the measurement window the
//! prefill pool spent running steps. Open-loop saturation counts every request waiting anywhere (prefill
//! queue, link, decode queue), so an overloaded decode pool is flagged too.
//!
//! The two pools are simulated as one discrete-event system: each has its own clock (its next scheduling
//! decision), the earlier one moves, and whatever crosses between them — a finished transfer, a closed-loop
//! user's next request — carries its time and is only seen by a pool whose clock has reached it. The decode
//! pool's closed-form runs of pure decode steps stop before the next transfer completes or the prefill pool's
//! next step starts (nothing new can reach the decode pool earlier).
//!
//! Assumptions: the link is dedicated to KV transfers (weights, activations and the colocated all-reduce
//! traffic are not on it), with no per-transfer latency and no layer-by-layer overlap of the transfer with
//! the prefill (Splitwise streams layers as they finish, which would hide part of the transfer); the decode
//! pool needs no free blocks to *receive* (the transferred KV waits in host or staging memory until
//! admission, as with LMCache or a NIXL pull issued once blocks are allocated); no request routing across
//! several instances per pool (one prefill and one decode replica; scale each [`Deployment`] instead); a zero,
//! negative or NaN bandwidth returns the all-zero saturated result, as does a deployment that does not fit.
//! Per the vLLM documentation, disaggregation does not raise throughput; it trades it for a decode step free of
//! prefill interference (lower tail ITL/TPOT) and for sizing TTFT and TPOT separately.
//!
//! # Sources
//!
//! - Yu et al., "Orca: A Distributed Serving System for Transformer-Based Generative Models", OSDI 2022
//!   (iteration-level scheduling).
//! - Kwon et al., "Efficient Memory Management for Large Language Model Serving with PagedAttention",
//!   SOSP 2023 (KV blocks, recompute preemption).
//! - Agrawal et al., "Taming Throughput-Latency Tradeoff in LLM Inference with Sarathi-Serve", OSDI 2024
//!   (chunked prefill, stall-free batching with decodes first).
//! - vLLM documentation: "Optimization and Tuning" (preemption, chunked prefill, `max_num_batched_tokens`,
//!   `max_num_seqs`), the V1 scheduler (`vllm/v1/core/sched/scheduler.py`: unified token budget, preemption of
//!   the last running request, no admissions in a step that preempted) and `vllm bench serve` (metric
//!   definitions, `--max-concurrency`, `--burstiness` as a gamma shape).
//! - Zhong et al., "DistServe: Disaggregating Prefill and Decoding for Goodput-optimized Large Language Model
//!   Serving", OSDI 2024 (prefill/decode interference, separate pools sized for TTFT and TPOT, KV transfer).
//! - Patel et al., "Splitwise: Efficient Generative LLM Inference Using Phase Splitting", ISCA 2024 (prompt and
//!   token machines, KV-cache transfer over the interconnect and its cost).
//! - vLLM documentation, "Disaggregated Prefilling (experimental)" (`docs/features/disagg_prefill.md`: a prefill
//!   instance and a decode instance joined by a KV connector; controls tail ITL, does not improve throughput)
//!   and its proxy example (the prefill request runs with `max_tokens = 1`); SGLang documentation, "PD
//!   Disaggregation".
//! - Pollaczek–Khinchine formula for the M/G/1 queue (used by the tests as a check).

mod books;
mod disagg;
mod dist;
mod linear;
mod rng;
mod server;
mod stats;

pub use dist::{Arrivals, LengthDist, MAX_TOKENS};
pub use rng::Rng;
pub use server::{BLOCK_TOKENS, MAX_CONCURRENCY, MAX_REQUESTS};
pub use stats::Percentiles;

use crate::model::roofline::Deployment;
use serde::{Deserialize, Serialize};


/// One simulation run: workload, arrival process and stopping rules.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SimConfig {
    /// Requests to complete and measure (e.g. 2000; clamped to [`MAX_REQUESTS`]). Warm-up and filler requests
    /// come on top and are not measured (see the module docs).
    pub requests: u32,
    /// Prompt length distribution, tokens (excluding `context_depth`).
    pub prompt: LengthDist,
    /// Output length distribution, tokens (at least 1).
    pub output: LengthDist,
    /// Tokens already cached in front of every prompt (a reused prefix: system prompt, conversation so far).
    /// They skip prefill but occupy KV blocks and are read by attention.
    pub context_depth: f64,
    /// Share of the prompt served from the prefix cache, in [0, 1]: skips prefill, KV still occupied.
    pub prefix_hit_rate: f64,
    /// Closed-loop users or an open-loop arrival rate.
    pub arrivals: Arrivals,
    /// Seed of the random streams (request lengths and arrival gaps).
    pub seed: u64,
    /// Waiting requests beyond this are rejected on arrival (counted in `rejected`); `None` = unbounded.
    pub queue_limit: Option<u32>,
    /// Requests unfinished this long after arrival are aborted and counted in `timed_out`; `None` = never.
    pub timeout_s: Option<f64>,
    /// Hard stop of simulated time, seconds; hitting it sets `saturated`. NaN = no limit. For an open loop it
    /// must exceed the arrival span, about `1.1·requests / rate` (idle time costs no CPU: the clock jumps).
    pub max_sim_seconds: f64,
    /// Hard stop on the number of steps, bounding CPU time; hitting it sets `saturated`.
    pub max_steps: u64,
}

impl Default for SimConfig {
    /// 2000 requests of 512 prompt / 128 output tokens, one closed-loop user, seed 0, no queue limit, no
    /// timeout, at most 10⁶ simulated seconds and 2,000,000 steps.
    fn default() -> Self {
        Self {
            requests: 2000,
            prompt: LengthDist::Fixed(512.0),
            output: LengthDist::Fixed(128.0),
            context_depth: 0.0,
            prefix_hit_rate: 0.0,
            arrivals: Arrivals::Closed { concurrency: 1 },
            seed: 0,
            queue_limit: None,
            timeout_s: None,
            max_sim_seconds: 1.0e6,
            max_steps: 2_000_000,
        }
    }
}

/// Latency targets a request must meet to count towards goodput (a request with one output token has no TPOT
/// and is judged on TTFT alone). A NaN target means no limit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Targets {
    /// Largest acceptable time to first token, milliseconds.
    pub ttft_ms: f64,
    /// Largest acceptable time per output token, milliseconds.
    pub tpot_ms: f64,
}

/// What one simulation run measured. All numbers are finite; when nothing could be measured they are 0.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct SimResult {
    /// Measured requests that finished within the timeout.
    pub completed: u32,
    /// Measured requests rejected on arrival (queue full, or too large for the KV pool).
    pub rejected: u32,
    /// Measured requests that exceeded `timeout_s` (aborted, or finished too late).
    pub timed_out: u32,
    /// Preemptions (recompute) during the measurement window, any request.
    pub preemptions: u32,
    /// Length of the measurement window, seconds of simulated time.
    pub duration_s: f64,
    /// Output tokens per second of the whole server over the window.
    pub system_output_tps: f64,
    /// Requests completed per second over the window.
    pub request_throughput: f64,
    /// Time to first token (queueing + prefill), milliseconds.
    pub ttft_ms: Percentiles,
    /// Time per output token after the first, (E2E − TTFT)/(n − 1), milliseconds.
    pub tpot_ms: Percentiles,
    /// Gaps between consecutive tokens of a request, pooled over all tokens, milliseconds.
    pub itl_ms: Percentiles,
    /// End-to-end latency, arrival to last token, milliseconds.
    pub e2e_ms: Percentiles,
    /// Sequences per step (decoding plus prefilling), weighted by step time.
    pub mean_batch: f64,
    /// Share of the KV pool allocated, weighted by step time.
    pub mean_kv_utilization: f64,
    /// Share of busy time in memory-bound steps.
    pub memory_bound_fraction: f64,
    /// Share of busy time in compute-bound steps (the rest is overhead-bound).
    pub compute_bound_fraction: f64,
    /// Disaggregated serving: share of the measurement window the prefill pool spent running steps, in
    /// [0, 1]. 0 for the colocated server (no separate prefill pool).
    pub prefill_utilization: f64,
    /// The queue grew without bound or the run was truncated: percentiles are lower bounds.
    pub saturated: bool,
    /// Measured requests per second that met both [`Targets`].
    pub goodput_rps: f64,
}

/// Simulates `cfg` on deployment `d` and summarises latencies and throughput, judging goodput against
/// `targets`. Never panics; deterministic for a fixed `cfg.seed`. See the module docs for the algorithm.
#[must_use]
pub fn simulate(d: &Deployment, cfg: &SimConfig, targets: &Targets) -> SimResult {
    server::run(d, cfg, targets)
}

/// Disaggregated serving: prompts are prefilled on one pool, their KV cache is shipped over the interconnect,
/// and decoding runs on another pool.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Disaggregation {
    /// Bandwidth of the link that carries KV caches from the prefill pool to the decode pool, GB/s (10⁹ bytes
    /// per second; 400 Gb/s InfiniBand NDR ≈ 50, NVLink between GPUs of one node ≈ 450). Transfers queue on it
    /// one at a time. Zero, negative or NaN gives the all-zero saturated result.
    pub kv_transfer_gbps: f64,
}

/// Simulates `cfg` with prompts prefilled on `prefill`, their KV cache moved over the link of `disagg`, and
/// decoding on `decode`, and summarises latencies and throughput as [`simulate`] does (time-averaged fields
/// describe the decode pool). Never panics; deterministic for a fixed `cfg.seed`. See "Disaggregated
/// prefill/decode" in the module docs.
#[must_use]
pub fn simulate_disaggregated(
    prefill: &Deployment,
    decode: &Deployment,
    disagg: &Disaggregation,
    cfg: &SimConfig,
    targets: &Targets,
) -> SimResult {
    disagg::run(prefill, decode, disagg, cfg, targets)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::roofline::tests::h100_llama8b;
    use crate::model::roofline::StepLoad;

    pub(super) const NO_TARGETS: Targets = Targets { ttft_ms: f64::NAN, tpot_ms: f64::NAN };

    pub(super) fn cfg(requests: u32, prompt: f64, output: f64, arrivals: Arrivals) -> SimConfig {
        SimConfig {
            requests,
            prompt: LengthDist::Fixed(prompt),
            output: LengthDist::Fixed(output),
            arrivals,
            ..SimConfig::default()
        }
    }

    /// Percentiles in order, every number finite and in range.
    #[track_caller]
    pub(super) fn assert_ordered(r: &SimResult) {
        for p in [r.ttft_ms, r.tpot_ms, r.itl_ms, r.e2e_ms] {
            assert!(p.p50 <= p.p90 && p.p90 <= p.p95 && p.p95 <= p.p99, "{p:?}");
            assert!([p.mean, p.p50, p.p90, p.p95, p.p99].iter().all(|x| x.is_finite() && *x >= 0.0), "{p:?}");
        }
        for x in [
            r.duration_s,
            r.system_output_tps,
            r.request_throughput,
            r.mean_batch,
            r.mean_kv_utilization,
            r.memory_bound_fraction,
            r.compute_bound_fraction,
            r.prefill_utilization,
            r.goodput_rps,
        ] {
            assert!(x.is_finite() && x >= 0.0, "{r:?}");
        }
        assert!(r.mean_kv_utilization <= 1.0 && r.memory_bound_fraction + r.compute_bound_fraction <= 1.0 + 1e-9);
        assert!(r.prefill_utilization <= 1.0, "{r:?}");
        assert!(r.goodput_rps <= r.request_throughput + 1e-9, "{r:?}");
    }

    #[test]
    fn single_user_matches_the_analytic_steps() {
        let d = h100_llama8b();
        let c = cfg(50, 512.0, 128.0, Arrivals::Closed { concurrency: 1 });
        let r = simulate(&d, &c, &NO_TARGETS);
        assert_eq!(r.completed, 50);
        assert!(!r.saturated);
        // TTFT: one prefill step of 512 tokens (the next user arrives when the previous request ends).
        let ttft = d.prefill_seconds(512.0, 0.0) * 1e3;
        assert!((r.ttft_ms.p50 - ttft).abs() < 0.02 * ttft, "{} vs {ttft}", r.ttft_ms.p50);
        assert!((r.ttft_ms.p99 - ttft).abs() < 0.02 * ttft);
        // TPOT: decode steps at batch 1 around the middle of the output.
        let tpot = d.step(&d.decode_load(1.0, 512.0 + 64.0)).seconds * 1e3;
        assert!((r.tpot_ms.p50 - tpot).abs() < 0.02 * tpot, "{} vs {tpot}", r.tpot_ms.p50);
        // E2E = TTFT + 127 TPOT; mean batch 1; one token per step.
        assert!((r.e2e_ms.mean - (r.ttft_ms.mean + 127.0 * r.tpot_ms.mean)).abs() < 1e-6 * r.e2e_ms.mean);
        assert!((r.mean_batch - 1.0).abs() < 1e-12);
        assert!((r.system_output_tps - 128.0 / (r.e2e_ms.mean / 1e3)).abs() < 0.01 * r.system_output_tps);
        assert_eq!(r.preemptions, 0);
        assert!(r.memory_bound_fraction > 0.9);
        assert_ordered(&r);
    }

    #[test]
    fn chunked_prefill_spreads_a_long_prompt() {
        let mut d = h100_llama8b();
        d.engine.max_batched_tokens = 512;
        let c = cfg(5, 2048.0, 4.0, Arrivals::Closed { concurrency: 1 });
        let r = simulate(&d, &c, &NO_TARGETS);
        let mut t = 0.0;
        for k in 0..4 {
            t += d.step(&d.with_prefill(StepLoad::default(), 512.0, 512.0 * f64::from(k))).seconds;
        }
        assert!((r.ttft_ms.p50 - t * 1e3).abs() < 1e-6 * t * 1e3, "{} vs {}", r.ttft_ms.p50, t * 1e3);
        assert!((d.prefill_seconds(2048.0, 0.0) - t).abs() < 1e-12);
    }

    #[test]
    fn low_load_tpot_matches_the_step_at_the_mean_batch() {
        let d = h100_llama8b();
        for c in [
            cfg(400, 512.0, 128.0, Arrivals::Closed { concurrency: 4 }),
            cfg(400, 512.0, 128.0, Arrivals::Poisson { rate_per_s: 4.0, burstiness: 1.0 }),
        ] {
            let r = simulate(&d, &c, &NO_TARGETS);
            let analytic = d.step(&d.decode_load(r.mean_batch, 512.0 + 64.0)).seconds * 1e3;
            assert!((r.tpot_ms.p50 - analytic).abs() < 0.05 * analytic, "{} vs {analytic} at {}", r.tpot_ms.p50, r.mean_batch);
            assert!(!r.saturated);
            assert_ordered(&r);
        }
    }

    #[test]
    fn deterministic_for_a_seed() {
        let d = h100_llama8b();
        let mut c = SimConfig {
            requests: 300,
            prompt: LengthDist::LogNormal { mean: 400.0, cv: 1.0 },
            output: LengthDist::Uniform { min: 20.0, max: 200.0 },
            arrivals: Arrivals::Poisson { rate_per_s: 20.0, burstiness: 0.5 },
            seed: 7,
            ..SimConfig::default()
        };
        let a = simulate(&d, &c, &NO_TARGETS);
        let b = simulate(&d, &c, &NO_TARGETS);
        assert_eq!(a, b);
        c.seed = 8;
        let e = simulate(&d, &c, &NO_TARGETS);
        assert_ne!(a, e);
        assert_ordered(&a);
        assert_ordered(&e);
        // Closed loop too.
        c.arrivals = Arrivals::Closed { concurrency: 16 };
        assert_eq!(simulate(&d, &c, &NO_TARGETS), simulate(&d, &c, &NO_TARGETS));
    }

    #[test]
    fn md1_waiting_time_matches_pollaczek_khinchine() {
        let mut d = h100_llama8b();
        d.engine.max_batch = 1;
        let prompt = 256.0;
        let s = d.step(&d.with_prefill(StepLoad::default(), prompt, 0.0)).seconds;
        let rho = 0.5;
        let c = SimConfig { seed: 1, ..cfg(20_000, prompt, 1.0, Arrivals::Poisson { rate_per_s: rho / s, burstiness: 1.0 }) };
        let r = simulate(&d, &c, &NO_TARGETS);
        assert_eq!(r.completed, 20_000);
        assert!(!r.saturated);
        let wq = r.ttft_ms.mean / 1e3 - s;
        let pk = rho * s / (2.0 * (1.0 - rho));
        assert!((wq - pk).abs() < 0.1 * pk, "Wq {wq} vs P-K {pk}");
        assert!((r.request_throughput - rho / s).abs() < 0.05 * rho / s, "{}", r.request_throughput);
        assert_ordered(&r);
    }

    #[test]
    fn overload_is_flagged() {
        let d = h100_llama8b();
        // Capacity: measure with a closed loop that keeps the batch full.
        let full = simulate(&d, &cfg(500, 512.0, 128.0, Arrivals::Closed { concurrency: 256 }), &NO_TARGETS);
        let capacity = full.request_throughput;
        assert!(capacity > 0.0);
        let over = Arrivals::Poisson { rate_per_s: 3.0 * capacity, burstiness: 1.0 };
        let r = simulate(&d, &cfg(1000, 512.0, 128.0, over), &NO_TARGETS);
        assert!(r.saturated, "{r:?}");
        assert_ordered(&r);
        // With a queue limit the excess is rejected instead.
        let limited = SimConfig { queue_limit: Some(32), ..cfg(1000, 512.0, 128.0, over) };
        let r = simulate(&d, &limited, &NO_TARGETS);
        assert!(r.rejected > 0, "{r:?}");
        assert_eq!(r.completed + r.rejected + r.timed_out, 1000);
        // With a timeout requests are aborted instead of waiting for ever.
        let timed = SimConfig { timeout_s: Some(5.0), ..cfg(1000, 512.0, 128.0, over) };
        let r = simulate(&d, &timed, &NO_TARGETS);
        assert!(r.timed_out > 0 && r.e2e_ms.p99 <= 5000.0, "{r:?}");
        // A run cut short by the time limit is flagged too.
        let short = SimConfig { max_sim_seconds: 1.0, ..cfg(1000, 512.0, 128.0, over) };
        assert!(simulate(&d, &short, &NO_TARGETS).saturated);
    }

    #[test]
    fn model_that_does_not_fit_returns_zero() {
        let mut d = h100_llama8b();
        d.hardware.memory_gb = 8.0;
        let r = simulate(&d, &cfg(100, 512.0, 128.0, Arrivals::Closed { concurrency: 8 }), &NO_TARGETS);
        assert_eq!(r.completed, 0);
        assert!(r.saturated);
        assert_eq!(r.system_output_tps, 0.0);
        // A request larger than the whole KV pool.
        let d = h100_llama8b();
        let huge = SimConfig { context_depth: 1e7, ..cfg(10, 512.0, 128.0, Arrivals::Closed { concurrency: 1 }) };
        let r = simulate(&d, &huge, &NO_TARGETS);
        assert_eq!((r.completed, r.saturated), (0, true));
    }

    #[test]
    fn kv_pressure_preempts_and_still_completes() {
        let mut d = h100_llama8b();
        // KV pool for about 3 requests of 1024 + 512 tokens.
        let per_request = d.kv_bytes(1536.0);
        // memory_gb counts GiB (device memory is binary), the reserve is 2 GiB.
        d.hardware.memory_gb = (d.weight_bytes() + 2.0 * crate::model::units::GIB + 3.2 * per_request) / 0.9 / crate::model::units::GIB;
        let c = cfg(200, 1024.0, 512.0, Arrivals::Closed { concurrency: 8 });
        let r = simulate(&d, &c, &NO_TARGETS);
        assert!(r.preemptions > 0, "{r:?}");
        assert_eq!(r.completed, 200);
        assert!(!r.saturated);
        assert!(r.mean_kv_utilization > 0.7, "{r:?}");
        assert_ordered(&r);
    }

    #[test]
    fn goodput_counts_requests_meeting_targets() {
        let d = h100_llama8b();
        let c = cfg(200, 512.0, 128.0, Arrivals::Closed { concurrency: 8 });
        let loose = simulate(&d, &c, &Targets { ttft_ms: 1e9, tpot_ms: 1e9 });
        assert!(loose.goodput_rps > 0.0 && loose.goodput_rps == loose.request_throughput, "{loose:?}");
        let tpot = loose.tpot_ms.p50;
        let half = simulate(&d, &c, &Targets { ttft_ms: 1e9, tpot_ms: tpot });
        assert!(half.goodput_rps > 0.2 * loose.goodput_rps && half.goodput_rps < loose.goodput_rps, "{half:?}");
        let strict = simulate(&d, &c, &Targets { ttft_ms: 0.0, tpot_ms: 0.0 });
        assert_eq!(strict.goodput_rps, 0.0);
    }

    #[test]
    fn throughput_grows_then_saturates_with_concurrency() {
        let d = h100_llama8b();
        let mut last = 0.0;
        for n in [1, 4, 16, 64] {
            let r = simulate(&d, &cfg(300, 512.0, 128.0, Arrivals::Closed { concurrency: n }), &NO_TARGETS);
            assert!(r.system_output_tps > last, "{n}: {}", r.system_output_tps);
            assert!(r.tpot_ms.p50 >= 0.0 && (r.mean_batch - f64::from(n)).abs() < 0.1 * f64::from(n) + 0.5, "{r:?}");
            last = r.system_output_tps;
        }
    }

    #[test]
    fn sliding_window_and_mla_models_run() {
        use crate::model::llm::Attention;
        for a in [Attention::Sliding { window: 256, local_fraction: 0.5 }, Attention::Mla { kv_lora_rank: 512, rope_dim: 64 }] {
            let mut d = h100_llama8b();
            d.model.attention = a;
            let r = simulate(&d, &cfg(100, 1024.0, 64.0, Arrivals::Closed { concurrency: 8 }), &NO_TARGETS);
            assert_eq!(r.completed, 100);
            assert_ordered(&r);
        }
    }

    /// Values no caller should pass, for the hostile-input tests.
    pub(super) const WEIRD: [f64; 7] = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -1.0, 0.0, 1e-300, 1e300];

    /// A configuration with `x` in every numeric field.
    pub(super) fn hostile_config(x: f64) -> SimConfig {
        SimConfig {
            requests: 20,
            prompt: LengthDist::LogNormal { mean: x, cv: x },
            output: LengthDist::Uniform { min: x, max: 8.0 },
            context_depth: x,
            prefix_hit_rate: x,
            arrivals: Arrivals::Poisson { rate_per_s: x, burstiness: x },
            timeout_s: Some(x),
            max_sim_seconds: x,
            max_steps: 100_000,
            ..SimConfig::default()
        }
    }

    #[test]
    fn hostile_inputs_do_not_panic() {
        let d = h100_llama8b();
        for &x in &WEIRD {
            let c = hostile_config(x);
            let r = simulate(&d, &c, &Targets { ttft_ms: x, tpot_ms: x });
            assert_ordered(&r);
            let c = SimConfig { arrivals: Arrivals::Closed { concurrency: 0 }, queue_limit: Some(0), ..c };
            assert_ordered(&simulate(&d, &c, &NO_TARGETS));
        }
        let mut tiny = d.clone();
        tiny.engine.max_batch = 0;
        tiny.engine.max_batched_tokens = 0;
        let r = simulate(&tiny, &cfg(5, 40.0, 3.0, Arrivals::Closed { concurrency: 3 }), &NO_TARGETS);
        assert_eq!(r.completed, 5);
        let r = simulate(&d, &SimConfig { requests: 0, ..SimConfig::default() }, &NO_TARGETS);
        assert_eq!(r.completed, 0);
        let r = simulate(&d, &SimConfig { max_steps: 0, ..SimConfig::default() }, &NO_TARGETS);
        assert!(r.saturated);
        let r = simulate(&d, &cfg(30, 64.0, 8.0, Arrivals::Closed { concurrency: u32::MAX }), &NO_TARGETS);
        assert_eq!(r.completed, 30);
        let r = simulate(&d, &cfg(30, 64.0, 8.0, Arrivals::Poisson { rate_per_s: f64::INFINITY, burstiness: 1.0 }), &NO_TARGETS);
        assert_eq!(r.completed, 30);
    }

    #[test]
    fn serde_shapes() {
        let c = SimConfig::default();
        let j = serde_json::to_string(&c).unwrap_or_default();
        assert!(j.contains(r#""prompt":{"kind":"fixed","value":512.0}"#), "{j}");
        assert!(j.contains(r#""arrivals":{"kind":"closed","concurrency":1}"#), "{j}");
        let back: SimConfig = serde_json::from_str(&j).unwrap_or(SimConfig { seed: 99, ..c });
        assert_eq!(back, c);
        let l: LengthDist = serde_json::from_str(r#"{"kind":"log_normal","mean":500,"cv":1.2}"#)
            .unwrap_or(LengthDist::Fixed(0.0));
        assert_eq!(l, LengthDist::LogNormal { mean: 500.0, cv: 1.2 });
        let a: Arrivals = serde_json::from_str(r#"{"kind":"poisson","rate_per_s":2,"burstiness":1}"#)
            .unwrap_or_default();
        assert_eq!(a, Arrivals::Poisson { rate_per_s: 2.0, burstiness: 1.0 });
        let u: LengthDist = serde_json::from_str(r#"{"kind":"uniform","min":1,"max":9}"#).unwrap_or_default();
        assert_eq!(u, LengthDist::Uniform { min: 1.0, max: 9.0 });
        assert!(serde_json::from_str::<LengthDist>(r#"{"kind":"fixed","value":1,"x":2}"#).is_err());
        let r = serde_json::to_value(SimResult::default()).unwrap_or_default();
        assert!(r.get("ttft_ms").and_then(|p| p.get("p99")).is_some());
    }

    /// The fastest of 7 runs of `f`, milliseconds (the machine may be shared), and its result.
    #[cfg(not(target_arch = "wasm32"))]
    pub(super) fn fastest_of_7(f: impl Fn() -> SimResult) -> (f64, SimResult) {
        let mut best = f64::INFINITY;
        let mut r = SimResult::default();
        for _ in 0..7 {
            let start = std::time::Instant::now();
            r = f();
            best = best.min(start.elapsed().as_secs_f64() * 1e3);
        }
        (best, r)
    }

    /// Timing of the page's unit of work: `cargo test --release --lib sim -- --ignored --nocapture`.
    /// Each figure is the fastest of 7 runs (the machine may be shared).
    #[test]
    #[ignore]
    #[cfg(not(target_arch = "wasm32"))]
    fn bench_one_simulate_call() {
        let d = h100_llama8b();
        let time = |c: &SimConfig| fastest_of_7(|| simulate(&d, std::hint::black_box(c), &NO_TARGETS));
        let (t, r) = time(&cfg(2000, 512.0, 128.0, Arrivals::Closed { concurrency: 64 }));
        println!("one simulate() call (2000 req, 512/128, conc 64): {t:.3} ms");
        println!("{r:?}");
        let mut total = 0.0;
        for n in [1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 160, 192, 224, 256] {
            let (t, r) = time(&cfg(2000, 512.0, 128.0, Arrivals::Closed { concurrency: n }));
            total += t;
            println!("  concurrency {n:>3}: {t:.3} ms  (TPOT p50 {:.2} ms, {:.0} tok/s)", r.tpot_ms.p50, r.system_output_tps);
        }
        println!("16-level closed-loop sweep, fixed 512/128: {total:.3} ms");
        let mut total = 0.0;
        for rate in [1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 100.0, 120.0, 150.0, 200.0] {
            let c = SimConfig {
                requests: 2000,
                prompt: LengthDist::LogNormal { mean: 512.0, cv: 1.0 },
                output: LengthDist::LogNormal { mean: 128.0, cv: 1.0 },
                arrivals: Arrivals::Poisson { rate_per_s: rate, burstiness: 1.0 },
                ..SimConfig::default()
            };
            let (t, r) = time(&c);
            total += t;
            println!(
                "  rate {rate:>5}/s: {t:.3} ms  (TTFT p99 {:.0} ms, TPOT p99 {:.2} ms, batch {:.1}, saturated {})",
                r.ttft_ms.p99, r.tpot_ms.p99, r.mean_batch, r.saturated
            );
        }
        println!("16-level open-loop sweep, log-normal 512/128 (cv 1): {total:.3} ms");
        let mut total = 0.0;
        for rate in [1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 100.0, 120.0, 150.0, 200.0] {
            let c = cfg(2000, 512.0, 128.0, Arrivals::Poisson { rate_per_s: rate, burstiness: 1.0 });
            total += time(&c).0;
        }
        println!("16-level open-loop sweep, fixed 512/128: {total:.3} ms");
    }

}
