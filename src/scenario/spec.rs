//! The wire types: what a scenario may say. Every field is optional (a preset or a default supplies what is
//! missing) and unknown fields are rejected, so a typo names its field instead of being ignored.

use crate::model::hardware::{Architecture, HardwareKind, Parallelism};
use crate::model::llm::{Attention, Moe};
use crate::scenario::{Distribution, Mode};
use serde::{Deserialize, Serialize};

macro_rules! spec {
    ($(#[$m:meta])* $name:ident { $($(#[$fm:meta])* $f:ident : $t:ty),* $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            $($(#[$fm])* #[serde(default, skip_serializing_if = "Option::is_none")] pub $f: Option<$t>,)*
        }
    };
}

spec!(
    /// Hardware: a preset id and/or explicit per-device numbers.
    HardwareSpec {
        preset: String, name: String, kind: HardwareKind,
        /// GPU generation (`ampere`, `hopper`, …): selects the engine's efficiency class.
        architecture: Architecture,
        /// GB/s per device.
        memory_bandwidth_gbps: f64,
        /// GB per device.
        memory_gb: f64,
        fp16_tflops: f64, fp8_tflops: f64, fp4_tflops: f64, int8_tops: f64,
        devices: u32, parallelism: Parallelism,
        /// GB/s per device per direction.
        interconnect_gbps: f64,
        /// Latency of one all-reduce, µs (default: 8 over NVLink-class links; below 100 GB/s 40 + 10 × 2(n − 1) between
        /// consumer GPUs, whose all-reduce also moves 0.25 of the link's bandwidth, and 25 between other boards).
        allreduce_us: f64,
        tdp_watts: f64,
        /// Devices in one node: linked by `interconnect_gbps`, bought whole (default 8: HGX and OAM boards; 72 for a
        /// GB200/GB300 NVL72 rack, one NVLink domain; 4 for a 4-GPU board). A server of more devices spans nodes: its
        /// tensor-parallel all-reduces cross the network between them.
        node_devices: u32,
    }
);

spec!(
    /// Model: a preset id and/or explicit shape.
    ModelSpec {
        preset: String, name: String, params_b: f64, active_params_b: f64, layers: u32, hidden: u32,
        attention_heads: u32, kv_heads: u32, head_dim: u32, vocab: u32, moe: Moe, attention: Attention,
        tied_embeddings: bool,
    }
);

spec!(
    /// Quantisation of weights and KV cache.
    QuantSpec {
        /// Format id (`q4_k_m`, `fp8`, `nvfp4`, … see `tps presets quant`).
        weights: String,
        /// Effective bits per weight; overrides the format's value.
        weight_bits: f64,
        /// KV-cache dtype id (`fp16`, `fp8`, `q8_0`, `q4_0`).
        kv_cache: String,
    }
);

spec!(
    /// Engine and its efficiency knobs.
    EngineSpec {
        preset: String, backend: String, bandwidth_efficiency: f64, kv_bandwidth_efficiency: f64, compute_efficiency: f64,
        /// MoE expert kernels relative to dense ones (0–1].
        moe_efficiency: f64,
        step_overhead_ms: f64,
        /// Per running sequence and step, µs: the serving engine's per-sequence work beyond the kernels' bytes and
        /// FLOPs (scheduler, input preparation, sampler).
        sequence_overhead_us: f64,
        /// Per request, ms: the serving front end's time in every TTFT (HTTP, tokenisation, scheduling hand-off).
        request_overhead_ms: f64,
        /// Coefficient of variation of that front-end time from request to request (lognormal).
        request_overhead_cv: f64,
        /// Where explicit efficiencies came from, when `tps calibrate` or the page fitted them to measured runs.
        calibrated_from: String,
        /// How many loads those runs had (1: one load; the bands of a calibrated scenario follow it).
        calibrated_loads: u32,
        /// The deployment calibrated on (devices, device, model): the calibrated bands hold for it alone.
        calibrated_on: String,
        /// The engine's version or build (`b7315`, `0.11.0`, "May 2024 build"): llama.cpp builds before about
        /// b4000 (2024) pay more per-layer overhead than current ones (the default).
        version: String,
        max_batch: u32, max_batched_tokens: u32, memory_utilization: f64, reserve_gb: f64,
        /// Whether decode steps replay CUDA graphs (default true); false = vLLM's `--enforce-eager`, SGLang's
        /// `--disable-cuda-graph`: every step launches its kernels from the host, as prompt steps always do.
        cuda_graphs: bool,
        /// Whether one step carries prompt chunks and decodes together (the default, every engine: vLLM's V1 engine,
        /// TensorRT-LLM, LMDeploy, llama.cpp, SGLang with `--enable-mixed-chunk`) or a prompt step pauses the decodes
        /// (false: SGLang's own scheduler without that flag).
        mixed_batches: bool,
        /// Disaggregated prefill/decode: `prefill_devices` of `hardware.devices` only prefill, the rest decode.
        disaggregation: DisaggregationSpec,
    }
);

spec!(
    /// Disaggregated prefill/decode pools (DistServe, Splitwise, vLLM/SGLang PD disaggregation).
    DisaggregationSpec {
        /// Devices in the prefill pool (tensor parallel inside the pool); the rest form the decode pool.
        prefill_devices: u32,
        /// Bandwidth of the KV transfer from the prefill to the decode pool, GB/s (default: the interconnect).
        kv_transfer_gbps: f64,
    }
);

spec!(
    /// Load levels: exactly one of `concurrency`, `request_rate` or `offline` (none = automatic concurrency levels;
    /// an empty `request_rate` list = automatic rates around the server's capacity).
    LoadSpec { concurrency: Vec<f64>, request_rate: Vec<f64>, offline: bool }
);

spec!(
    /// The requests.
    WorkloadSpec {
        prompt_tokens: f64, output_tokens: f64,
        /// Tokens already in the KV cache before the prompt (multi-turn history, llama-bench `-d`).
        context_depth: f64,
        /// `fixed`, `uniform` (± spread × mean) or `lognormal` (spread = coefficient of variation).
        distribution: Distribution,
        spread: f64,
        prefix_cache_hit_rate: f64,
        load: LoadSpec,
        /// Requests simulated per load level.
        requests: u32,
        /// Simulate a finite benchmark run of `requests` requests from an empty server, all measured, as
        /// `vllm bench serve --num-prompts N` does (default false: the steady state).
        benchmark_run: bool,
        seed: u64,
        /// Gamma shape of inter-arrival gaps for request-rate loads (1 = Poisson, < 1 burstier).
        burstiness: f64,
        /// Concurrent users only: each user's mean pause between an answer and the next request, seconds (people
        /// reading and typing; default 0, a benchmark's users, each keeping a request in flight).
        think_time_s: f64,
        /// Waiting requests beyond this are rejected.
        queue_limit: u32,
        /// Client timeout, seconds.
        timeout_s: f64,
        /// `reader`, `agent` or `batch`.
        mode: Mode,
        /// Agent mode: LLM calls per task.
        agent_steps: u32,
    }
);

spec!(
    /// The latency target.
    TargetSpec {
        preset: String, tpot_ms: f64, ttft_ms: f64, percentile: f64, operating_fraction: f64,
        /// Agent mode only: the time to a finished answer, seconds: `agent_steps` × (TTFT + output tokens × TPOT)
        /// at the target's percentile must not exceed it.
        task_s: f64,
    }
);

spec!(
    /// Fleet sizing: exactly one of `peak_users` (concurrent users), `peak_request_rate` (requests/s) at the
    /// busiest time, or a head count — `people` who use the service, the share of them `active_share` (0–1) using
    /// it in the busiest hour, and the `requests_per_person_hour` each of those sends in it (the peak in requests/s
    /// is people × share × requests ÷ 3,600) — and optional spare replicas (N+1 headroom).
    FleetSpec {
        peak_users: f64, peak_request_rate: f64,
        people: f64, active_share: f64, requests_per_person_hour: f64,
        spare_replicas: u32,
        /// Hours a day at the peak, the rest idle (0.5–24; 24, around the clock, when not given): the month's energy
        /// and cost. A bank's assistant busy 10 hours a working day draws far less than its peak all month.
        peak_hours_per_day: f64,
    }
);

spec!(
    /// Prices (all optional; none is assumed): per device and hour, per kWh of electricity, the facility's
    /// power usage effectiveness (PUE, ≥ 1) and the currency's short name. Instead of a price per device-hour,
    /// a purchase price per device (with its share of the server) written off over `write_off_years` (default 4):
    /// the device-hour is then price ÷ (years × 8,760 h), and the fleet's purchase is priced too. `host_watts_per_device`:
    /// what the server draws beyond its accelerators (CPUs, memory, NICs, switches, fans), per accelerator, W; with it
    /// the figures at the meter (and the electricity) count the hosts, without it they are the accelerators' alone.
    CostSpec {
        device_hour: f64, currency: String, electricity_per_kwh: f64, pue: f64, device_price: f64, write_off_years: f64,
        host_watts_per_device: f64,
    }
);
