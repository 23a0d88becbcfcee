//! The simulator's public inputs and outputs: a run's configuration ([`SimConfig`]), the latency targets
//! that decide goodput ([`Targets`]), the link of disaggregated serving ([`Disaggregation`]) and what a run
//! measured ([`SimResult`]). Re-exported by [`crate::sim`], whose module docs define every field's meaning.

use super::dist::{Arrivals, LengthDist};
use super::stats::Percentiles;
use serde::{Deserialize, Serialize};

/// One simulation run: workload, arrival process and stopping rules.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SimConfig {
    /// Requests to complete and measure (e.g. 2000; clamped to [`super::MAX_REQUESTS`]). Warm-up and filler
    /// requests come on top and are not measured (see the module docs of [`crate::sim`]).
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
    /// A finite benchmark run instead of the steady state: exactly `requests` requests from an empty server,
    /// all measured, no warm-up and no fillers, throughput = output tokens ÷ (first arrival → last
    /// completion), as `vllm bench serve --num-prompts N` reports it (see "Measurement" in [`crate::sim`]).
    #[serde(default)]
    pub finite: bool,
    /// Closed loop: each user's mean pause between an answer and its next request, seconds (exponential, as people
    /// read and type; 0 = the next is sent at once, as a benchmark's users do). No latency includes it; the users
    /// start staggered by one such pause each.
    #[serde(default)]
    pub think_time_s: f64,
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
            finite: false,
            think_time_s: 0.0,
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

/// Disaggregated serving: prompts are prefilled on one pool, their KV cache is shipped over the interconnect,
/// and decoding runs on another pool.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Disaggregation {
    /// Bandwidth of the link that carries KV caches from the prefill pool to the decode pool, GB/s (10⁹ bytes
    /// per second; 400 Gb/s InfiniBand NDR ≈ 50, NVLink between GPUs of one node ≈ 450). Transfers queue on it
    /// one at a time. Zero, negative or NaN gives the all-zero saturated result.
    pub kv_transfer_gbps: f64,
}
