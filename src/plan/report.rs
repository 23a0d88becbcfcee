//! The answer to a scenario: [`Report`] and its parts (single stream, memory, the sweep's load points, markers,
//! capacity, fleet, energy, cost, the band). Planning builds it (`crate::plan`); the page, the charts and the CLI
//! read it.

use crate::model::roofline::Bound;
use crate::scenario::Target;
use serde::Serialize;

/// Mean and percentiles of one latency, ms (the crate's one percentile type).
pub type Pcts = crate::percentiles::Percentiles;

/// Single-stream figures on an idle server.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SingleStream {
    /// Bandwidth ÷ bytes read per token (spec bandwidth, no overheads): the upper bound.
    pub ceiling_tps: f64,
    /// Predicted decode rate over the workload's output tokens.
    pub decode_tps: f64,
    pub tpot_ms: f64,
    pub ttft_ms: f64,
    /// Prompt tokens per second of the prefill.
    pub prefill_tps: f64,
    /// Bytes read per generated token at the start of decoding.
    pub bytes_per_token: f64,
    pub bound: Bound,
    /// Devices streaming weights at once for one token (tensor parallel: all; a layer split: one). For the
    /// page's formula; not in the JSON report.
    #[serde(skip_serializing)]
    pub streaming_devices: f64,
    /// Devices of one server (replica), for figures per GPU (the trade-off chart). Not in the JSON report.
    #[serde(skip_serializing)]
    pub devices: u32,
    /// What `bytes_per_token` holds, in words with its figures (the weights streamed against those stored, the
    /// KV cache): the page's ceiling card. Not in the JSON report.
    #[serde(skip_serializing)]
    pub bytes_words: String,
    /// Where the TPOT goes, in words with its parts in ms (weights, KV cache or the kernel chain, the devices'
    /// exchanges, the engine's own time): the page's one-user card and the CLI's table. Not in the JSON report.
    #[serde(skip_serializing)]
    pub time_words: String,
    /// The serving front end's part of `ttft_ms` (HTTP, tokenisation, scheduling: `engine.request_overhead_ms`),
    /// said in the one-user card's explanation (a teacher's trial: a TTFT of 33.3 ms "reading the 512-token prompt
    /// at 20 249 tok/s", which takes 25.3). Not in the JSON report.
    #[serde(skip_serializing)]
    pub frontend_ms: f64,
}

/// Memory figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Memory {
    /// Accelerator memory over all devices, GB.
    pub total_gb: f64,
    pub weights_gb: f64,
    pub kv_bytes_per_token: f64,
    /// KV cache space over all devices, GB (negative: short by that much).
    pub kv_budget_gb: f64,
    /// Context per sequence the capacity is computed at (prompt + depth + output).
    pub context_tokens: f64,
    /// The most sequences the engine runs at once: its max batch, and those whose KV blocks fit while each holds
    /// only its prompt (engines admit by the blocks a request needs now and preempt when growing caches fill
    /// the memory). No load level's running batch exceeds it.
    pub max_concurrency: f64,
    /// `max_concurrency` is the engine's max batch (its cap binds, not the memory).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub engine_capped: bool,
    /// llama.cpp: `max_concurrency` counts its slots, each of this context, tokens — the traffic's longest request,
    /// at most what the KV cache holds (no preemption; more users wait their turn: `plan::llama_cpp_slots`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slot_tokens: Option<f64>,
    /// The engine's max batch (vLLM's max_num_seqs, llama.cpp's -np), bound or not (A-vs-B names it where the sides'
    /// differ).
    #[serde(skip)]
    pub max_batch: u32,
    /// Sequences whose whole context (`context_tokens`) fits at once: beyond this many running, the engine
    /// preempts as their caches grow.
    pub kv_max_sequences: f64,
    pub fits: bool,
    /// Devices that keep each KV entry (1 unless tensor parallelism replicates it: an MLA latent cache on every
    /// device, or KV heads fewer than the devices); `kv_bytes_per_token` counts every copy.
    pub kv_copies: f64,
    /// Bytes one sequence of `context_tokens` holds over all devices: less than `kv_bytes_per_token ×
    /// context_tokens` where sliding-window layers keep only their window.
    pub sequence_kv_bytes: f64,
    /// The model keeps a latent KV cache (MLA), which tensor parallelism cannot split by heads.
    #[serde(skip_serializing)]
    pub kv_latent: bool,
    /// DP attention: the devices that each hold the dense weights whole, the GB the copies after the first add to
    /// `weights_gb`, and the copies of each KV entry tensor parallelism would keep on the same devices (1: it would
    /// not copy the cache either, and DP attention buys no memory). `None` otherwise.
    #[serde(skip_serializing)]
    pub dense_copies: Option<(u32, f64, f64)>,
    /// A disaggregated deployment's decode pool, whose memory these figures are (its devices, and the
    /// deployment's): it keeps every running sequence's cache; the prefill pool holds only the prompts it is
    /// reading. `None` for one pool.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decode_pool: Option<(u32, u32)>,
}

impl Memory {
    /// What a hand check of the KV figures (layers × KV width × bytes, times tokens) would miss, as clauses for
    /// the CLI's memory line and the page's memory card: the copies tensor parallelism keeps, and what one
    /// sequence of a sliding-window model holds. Empty when neither applies.
    #[must_use]
    pub fn kv_clauses(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some((pool, all)) = self.decode_pool {
            out.push(format!(
                "the decode pool's {pool} of {all} devices: it keeps every running sequence's cache, the prefill pool only the prompts it is reading"
            ));
        }
        if let Some((n, extra, _)) = self.dense_copies {
            out.push(format!(
                "DP attention: each of the {n} devices holds the attention and the other dense weights whole, {extra:.1} GB of copies in the weights, and keeps only its own sequences' cache{}",
                if self.kv_budget_gb > 0.0 { format!(", in {:.1} GB a device", self.kv_budget_gb / f64::from(n)) } else { String::new() }
            ));
        }
        if self.kv_copies > 1.0 {
            let once = format!("{:.1}", self.kv_bytes_per_token / self.kv_copies / 1e3);
            out.push(if self.kv_latent {
                format!("each token's {once} KB is kept whole on each of {:.0} devices: a latent cache is not split by heads", self.kv_copies)
            } else {
                format!(
                    "each token's {once} KB is kept on {:.0} devices: tensor parallelism over more devices than KV heads copies every head",
                    self.kv_copies
                )
            });
        }
        if self.sequence_kv_bytes > 0.0 && self.sequence_kv_bytes < 0.95 * self.kv_bytes_per_token * self.context_tokens {
            out.push(format!(
                "a sequence of {:.0} tokens holds {:.1} MB: the sliding-window layers keep only their window",
                self.context_tokens,
                self.sequence_kv_bytes / 1e6
            ));
        }
        out
    }
}

/// The roofline of the deployment (attainable FLOP/s against arithmetic intensity) with the steps on it: the
/// decode step at each load level's mean batch and one prefill chunk. Peaks are the hardware's over the devices
/// that work on one step at once, at the weight format's compute rate; the engine's roof is that times the
/// scenario's η_bw and η_fl.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Roofline {
    /// Peak compute, TFLOP/s.
    pub peak_tflops: f64,
    /// Memory bandwidth, GB/s.
    pub bandwidth_gbps: f64,
    /// The scenario's compute and bandwidth efficiencies (η_fl, η_bw).
    pub compute_efficiency: f64,
    pub bandwidth_efficiency: f64,
    /// Intensity where the hardware's two roofs meet: peak FLOP/s ÷ bandwidth, FLOP/byte.
    pub ridge: f64,
    /// The decode step at each load level's mean batch, in load order.
    pub decode: Vec<RooflinePoint>,
    /// One prefill chunk of the prompt (up to the engine's batched-token limit).
    pub prefill: Option<RooflinePoint>,
}

impl Roofline {
    /// The engine's ridge, FLOP/byte: where its roof (η_fl × peak, η_bw × bandwidth) bends.
    #[must_use]
    pub fn engine_ridge(&self) -> f64 {
        self.ridge * self.compute_efficiency / self.bandwidth_efficiency
    }

    /// The decode step of the level whose mean batch is `batch` (the levels' steps are kept only where there is
    /// one, so they are found by their batch, not by position).
    #[must_use]
    pub fn decode_at(&self, batch: f64) -> Option<&RooflinePoint> {
        self.decode.iter().find(|p| (p.tokens - batch).abs() <= 1e-9 * batch.max(1.0))
    }
}

/// One step on the roofline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RooflinePoint {
    /// Sequences decoding (decode) or prompt tokens (prefill) in the step.
    pub tokens: f64,
    /// FLOPs ÷ bytes moved, FLOP/byte.
    pub intensity: f64,
    /// FLOPs ÷ the step's predicted time, TFLOP/s.
    pub tflops: f64,
    /// A decode step's share of new prompts: the prompt tokens a step of the level carries besides its decodes,
    /// on average (requests/s × prefilled prompt × the mean gap between steps); 0 for the prefill chunk.
    pub prompt_tokens: f64,
    /// The linear layers' own intensity over all the step's tokens (decodes and `prompt_tokens`): their matmul
    /// FLOPs ÷ the weight bytes they read, FLOP/byte. A step is two kernel classes one after the other
    /// (`model::roofline`), and the weight matmuls can be right of the ridge while the decode step, its KV
    /// reads (`attention_intensity`, a few FLOPs per byte without a latent cache) included, plots left of it.
    pub linear_intensity: f64,
    /// Attention's own intensity in the decode step: its FLOPs ÷ the KV bytes it reads, FLOP/byte (about 2 ×
    /// query heads ÷ KV heads ÷ bytes per element; hundreds for a latent cache (MLA), which can put attention
    /// right of the ridge); none (null in the JSON) for the prefill chunk, which has no decodes (an audit: its 0
    /// read as attention doing no arithmetic; the chunk's attention is in its `intensity`).
    pub attention_intensity: Option<f64>,
    /// What bounds this step alone (the decodes without the level's prompt tokens; the prefill chunk), by the step's
    /// own rule (`model::roofline`: the kernel classes' times, not their intensities).
    pub bound: Bound,
}

/// One load level of the sweep.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LoadPoint {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub concurrency: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_rate: Option<f64>,
    /// 1 / median TPOT.
    pub per_user_tps: f64,
    pub system_tps: f64,
    pub request_throughput: f64,
    pub goodput_rps: f64,
    pub ttft_ms: Pcts,
    pub tpot_ms: Pcts,
    pub itl_ms: Pcts,
    pub e2e_ms: Pcts,
    pub mean_batch: f64,
    pub kv_utilization: f64,
    pub preemptions: u32,
    /// Requests rejected by the queue limit or over the client timeout.
    pub errors: u32,
    pub error_rate: f64,
    pub memory_bound_fraction: f64,
    /// Share of the busy time in compute-bound steps (the rest of it is overhead-bound).
    pub compute_bound_fraction: f64,
    pub bound: Bound,
    /// The queue grew without bound: latencies are lower bounds, not steady-state figures.
    pub saturated: bool,
    pub meets_target: bool,
    /// Per-user throughput of the analytic model at this load (no queueing), for comparison: at the requests in
    /// flight that the load keeps by Little's law (a request rate, users who think between requests).
    pub analytic_per_user_tps: f64,
}

impl LoadPoint {
    /// Whether no request completed at this level in the simulated time (a prompt of millions of tokens): its
    /// zeros are no figures, and tables show a dash (a trial read "0 ms" TTFT beside a one-user TTFT of 31 minutes).
    #[must_use]
    pub fn nothing_completed(&self) -> bool {
        self.saturated && self.system_tps == 0.0 && self.ttft_ms.p50 == 0.0 && self.e2e_ms.p50 == 0.0
    }

    /// The level's load: its users, else its request rate (one of the two is set).
    #[must_use]
    pub fn load(&self) -> Option<f64> {
        self.concurrency.or(self.request_rate)
    }

    /// A level at load `x` (users, or requests/s when `rate`), every figure zero until the caller fills it in
    /// (the analytic and the simulated level both start here).
    #[must_use]
    pub fn at_load(x: f64, rate: bool) -> Self {
        Self {
            concurrency: (!rate).then_some(x),
            request_rate: rate.then_some(x),
            per_user_tps: 0.0,
            system_tps: 0.0,
            request_throughput: 0.0,
            goodput_rps: 0.0,
            ttft_ms: Pcts::default(),
            tpot_ms: Pcts::default(),
            itl_ms: Pcts::default(),
            e2e_ms: Pcts::default(),
            mean_batch: 0.0,
            kv_utilization: 0.0,
            preemptions: 0,
            errors: 0,
            error_rate: 0.0,
            memory_bound_fraction: 0.0,
            compute_bound_fraction: 0.0,
            bound: Bound::Memory,
            saturated: false,
            meets_target: false,
            analytic_per_user_tps: 0.0,
        }
    }
}

/// A marked point on the charts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Marker {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub concurrency: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_rate: Option<f64>,
    pub system_tps: f64,
    pub per_user_tps: f64,
    /// TTFT at the target percentile, ms (`None` for the offline peak, where every request is queued at once and
    /// TTFT only measures the length of the queue).
    pub ttft_p_ms: Option<f64>,
    /// TPOT at the target percentile, ms.
    pub tpot_p_ms: f64,
    /// Share of the KV pool in use, time-averaged over the simulated run at this load (interpolated between levels
    /// where the marker is); `None` where no run says (the closed-form offline markers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kv_utilization: Option<f64>,
}

impl Marker {
    /// The marked load: users, else a request rate.
    #[must_use]
    pub fn load(&self) -> Option<f64> {
        self.concurrency.or(self.request_rate)
    }
}

/// Uncertainty bands (%, `plan::band`: 9 in 10 measured figures lay within ÷ (1 + b) … × (1 + b) of the
/// prediction) from the validation error on published measurements the model was not fitted on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Band {
    /// Single-stream decode.
    pub single_stream_pct: f64,
    /// Throughput under load (batched and served runs).
    pub batched_pct: f64,
    /// Energy and electricity figures: wider than the throughput band they rest on, because the power model
    /// (an idle floor, TDP while the step loop is busy) is an assumption not validated against measured power.
    pub energy_pct: f64,
    /// The class the single-stream band is measured on, and its measured figures (`plan::band`).
    pub single_stream_class: String,
    pub single_stream_rows: u32,
    /// The class the band under load is measured on, and its measured figures.
    pub load_class: String,
    pub load_rows: u32,
    /// TTFT's band at the median and at P99, and TPOT's, under a paced load (`plan::LatencyClass`).
    pub ttft_pct: f64,
    pub ttft_tail_pct: f64,
    pub tpot_pct: f64,
    pub tpot_tail_pct: f64,
    /// The class the latency bands are measured on, and its served runs.
    pub latency_class: String,
    pub latency_rows: u32,
    /// A serving engine on a generation without a compute efficiency fitted on its own served runs: the
    /// generation it borrows it from (`presets::engines::served_reference`), said beside the bands (a pre-sales
    /// trial read an L40S's band as validated as an H100's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compute_borrowed_from: Option<String>,
}

/// What stops more load from meeting the target at the capacity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LimitedBy {
    /// The time per output token at the percentile.
    Tpot,
    /// The time to first token at the percentile.
    Ttft,
    /// Agent mode: the time to a finished task at the percentile (`target.task_s`).
    Task,
    /// The KV cache: no more sequences run at once (`memory.max_concurrency`).
    Memory,
    /// The engine's cap on running sequences (`engine.max_batch`).
    EngineCap,
    /// More than 1 % of requests rejected or timed out.
    Errors,
    /// The server's throughput: an open loop's arrivals outrun it and the queue grows without bound, while the
    /// latencies at the percentile may still be within their limits (a review read "limited by TTFT" beside a P99
    /// TTFT of 17 s under a limit of 60).
    Saturation,
}

/// The most load meeting the target, resolved between the swept levels (bisection with extra simulated levels,
/// same settings as the sweep) to ±1 user or ±2 % of the rate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Capacity {
    /// Concurrency loads: the most users (requests in flight) meeting the target; null for request-rate loads.
    /// Above `memory.max_concurrency` only where the target limits TTFT (or an agent's task time), which counts the
    /// wait for a slot of users beyond it (`plan::capacity`).
    pub max_users_at_target: Option<f64>,
    /// Request-rate loads: the highest rate meeting the target (requests/s); null for concurrency loads.
    pub max_request_rate_at_target: Option<f64>,
    pub limited_by: LimitedBy,
    /// The figures at the capacity (a simulated level).
    pub at: Marker,
    /// The next load (one user or ~2 % of rate more), which breaks the target; null when the capacity is the
    /// memory or engine limit itself under a target that does not count the wait for a slot, or when the search
    /// ran out of extra levels (or reached the simulator's most users) with the target still met.
    pub next: Option<Marker>,
    /// Load levels simulated beyond the sweep to resolve the capacity and the operating point.
    pub extra_levels: u32,
}

/// Replicas (servers) needed for the fleet's peak load.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fleet {
    /// The peak asked for: concurrent users, or requests/s (the other null).
    pub peak_users: Option<f64>,
    pub peak_request_rate: Option<f64>,
    /// Devices in one replica (`hardware.devices`).
    pub devices_per_replica: u32,
    /// Serving replicas (⌈peak ÷ load per replica at the operating point⌉) + spares.
    pub replicas: u64,
    /// Devices bought: `replicas × devices_per_replica`, but datacenter GPUs in whole nodes, the last one's unused
    /// devices idle (`plan::fleet::devices_bought`).
    pub devices_total: u64,
    /// Nodes the fleet takes where the boards come in nodes (8-device HGX or OAM boards), servers that share one
    /// counted together and a server of more than one taking whole ones (a server of exactly one node: as many as the
    /// servers); null for boards bought one by one (PCIe cards).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Users one replica carries at the operating point (requests in flight, or with a think time users who pause
    /// between them; request-rate loads: rate × mean E2E, Little's law).
    pub users_per_replica: f64,
    /// Requests/s one replica completes at the operating point.
    pub request_rate_per_replica: f64,
    pub spare_replicas: u32,
    /// Hours a day at the peak, the rest idle (`fleet.peak_hours_per_day`; 24: around the clock).
    pub peak_hours_per_day: f64,
    /// The peak's share of each serving replica (users or requests/s, as the peak), spares held back.
    pub peak_load_per_replica: f64,
    /// `peak_load_per_replica` ÷ a replica's capacity at the target (its peak usable load).
    pub utilisation_at_peak: f64,
    /// The same with one serving replica fewer (null with a single serving replica); above 1 breaks the target.
    pub utilisation_one_fewer: Option<f64>,
    /// The fewest serving replicas that hold the target with each at its capacity (no headroom), spares not
    /// counted: the floor under `replicas`.
    pub serving_at_capacity: u64,
    /// "500 users → 7 servers of 2 × H100 (6 at the operating point of 88 users + 1 spare); …"
    pub sentence: String,
    /// What the users are: each keeping a request in flight, or pausing `workload.think_time_s` between requests.
    pub users: String,
    /// One serving replica's power at the peak's share of it, W (`plan::energy::replica_watts_at`; left out
    /// without a power estimate): the fleet's power and electricity are counted at it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub watts_per_replica: Option<f64>,
    /// The output tokens/s the fleet makes at its peak: the peak's requests/s × the mean output, or (a peak of users)
    /// each serving server's system tok/s at the load it carries; 0 where no operating point was found.
    pub output_tps_at_peak: f64,
    /// Other device counts per replica that fit the model (and, tensor parallel, divide its attention heads): the
    /// fewest, up to three more below the count, the next above (`plan::fleet::neighbour_devices`), sized the same
    /// way; estimated with the analytic model scaled to this deployment's simulated operating point.
    pub alternatives: Vec<FleetAlternative>,
}

/// The fleet with another device count per replica.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FleetAlternative {
    pub devices_per_replica: u32,
    pub replicas: u64,
    pub devices_total: u64,
    /// Users (or requests/s, as the peak) per replica at its operating point.
    pub load_per_replica: f64,
    /// The devices of one node, when the replica's tensor parallelism spans nodes (its all-reduces cross the
    /// network: `model::hardware::Hardware::spans_nodes`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_devices: Option<u32>,
    /// The replica runs DP attention (its collectives, not tensor parallelism's, cross the network). Not in the JSON.
    #[serde(skip_serializing)]
    pub dp_attention: bool,
    /// Devices counted one by one (no purchase price) on boards that come in nodes: (a node's devices, this size's
    /// fleet in whole nodes, the fleet's in whole nodes), where that reading differs (`plan::fleet::alternative_words`).
    /// Not in the JSON.
    #[serde(skip_serializing)]
    pub whole_nodes: Option<(u32, u64, u64)>,
}

/// Power and energy at one load.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EnergyFigures {
    /// Mean electrical power of all devices of one replica, W (accelerators only; no host, no facility).
    pub average_watts: f64,
    pub joules_per_output_token: f64,
    pub output_tokens_per_kwh: f64,
}

/// Energy per token from the power model in `plan::energy` (an idle floor, TDP while the step loop is busy).
/// Band: `band.energy_pct`, wider than the throughput's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Energy {
    /// At the operating point.
    pub average_watts: f64,
    pub joules_per_output_token: f64,
    pub output_tokens_per_kwh: f64,
    /// At the peak (the highest system throughput).
    pub at_peak: EnergyFigures,
    /// The power model's inputs, per device: TDP and the idle floor, W.
    pub tdp_watts: f64,
    pub idle_watts: f64,
    /// The power model's activity at the operating point, 0–1: busy × (compute-bound share + 0.6 ×
    /// memory-bound share of the busy time); each device draws idle + (TDP − idle) × activity.
    pub activity: f64,
    /// With `cost.pue`: J per token at the facility's meter (× PUE).
    pub pue: Option<f64>,
    /// With `cost.host_watts_per_device`: what each device's host draws beside it, W (counted at the meter only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_watts: Option<f64>,
    /// With a PUE or the hosts' power: J per token at the meter, (accelerators + hosts) × PUE ÷ output tokens/s.
    pub wall_joules_per_output_token: Option<f64>,
}

/// Cost per token at one load.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CostFigures {
    pub per_million_output_tokens: f64,
    /// One replica for one hour.
    pub per_hour: f64,
}

/// Cost per token: (device_hour × devices + electricity_per_kwh × average_watts ÷ 1000 × PUE) ÷ output tokens
/// per hour × 10⁶, from the parts given (devices, electricity or both).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cost {
    /// At the operating point.
    pub per_million_output_tokens: f64,
    pub per_hour: f64,
    pub currency: Option<String>,
    /// The per-hour parts of one replica: its devices, its electricity (null when not priced).
    pub devices_per_hour: Option<f64>,
    pub electricity_per_hour: Option<f64>,
    pub at_peak: CostFigures,
    /// The whole fleet for one hour: the serving replicas at the peak's share of each (`Fleet::watts_per_replica`),
    /// the spares idle (devices paid, power at the idle floor).
    pub fleet_per_hour: Option<f64>,
    /// The whole fleet's cost of a million output tokens at the peak: `fleet_per_hour` ÷ the tokens the peak asks
    /// for (its requests/s × the mean output), so spares and the operating point's headroom are paid for — above
    /// `per_million_output_tokens`, one replica busy at its operating point (a pre-sales trial quoted 0.76 where
    /// the fleet's 37.8 an hour over 35 M tokens an hour is 1.08).
    pub fleet_per_million_output_tokens: Option<f64>,
    /// The month's cost of a million output tokens when the fleet serves its peak `fleet.peak_hours_per_day` hours a
    /// day and nothing the rest, paid around the clock: `fleet_per_month` ÷ the month's tokens at the peak (traffic
    /// off the peak lowers it where the devices' cost dominates); `None` around the clock, where it is `fleet_per_million_output_tokens`
    /// (a pre-sales trial: with 8 busy hours a day the month's cost moved and its cost per million did not — over the
    /// month it is about three times the peak's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fleet_per_million_over_month: Option<f64>,
    /// The whole fleet for a month of 30 days: the devices paid around the clock, `fleet.peak_hours_per_day` hours a
    /// day at the peak's power (`fleet_per_hour`) and the rest with every server idle.
    pub fleet_per_month: Option<f64>,
    /// The electricity of `fleet_per_month` alone (a pre-sales trial found the month's cost, mostly the devices'
    /// write-off, and no figure of what the fleet's power costs). `None` without an electricity price.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fleet_electricity_per_month: Option<f64>,
    /// The purchase, when a price per device was given instead of one per device-hour (`plan::cost`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub purchase: Option<Purchase>,
    /// The whole fleet over the purchase's write-off (years of 365 days at `fleet_per_month`'s days): what a
    /// customer is quoted for the years asked (a pre-sales trial multiplied the 30-day month by 36 and came 1.4 %
    /// short of three years). `None` without a purchase and a fleet.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fleet_over_write_off: Option<f64>,
}

impl Cost {
    /// What `fleet_over_write_off` adds up, in words: "devices and electricity", or "the devices (no electricity
    /// priced)" (a review: the devices alone had read as both). The page's cost card and the CLI's line alike.
    #[must_use]
    pub fn write_off_basis(&self) -> &'static str {
        if self.fleet_electricity_per_month.is_some() {
            "devices and electricity"
        } else {
            "the devices (no electricity priced)"
        }
    }
}

/// Devices bought rather than rented: the price of one (with its share of the server), the years it is written
/// off over (its device-hour is the price ÷ (years × 8,760)), and the fleet's devices at that price.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Purchase {
    pub device_price: f64,
    pub write_off_years: f64,
    /// Every device of every server, spares included (null without a fleet).
    pub fleet_devices: Option<u64>,
    pub fleet_price: Option<f64>,
}

/// The answer to a scenario (not comparable: compare the JSON, `plan::export`).
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub version: u32,
    pub hardware: String,
    /// The device alone (`hardware` says how many and how split): A-vs-B's "priced alike" compares it. Not in the JSON.
    #[serde(skip)]
    pub device: String,
    pub model: String,
    pub engine: String,
    /// Weight format and bits per weight.
    pub quantization: String,
    /// Mean prompt and output tokens of the workload.
    pub prompt_tokens: f64,
    pub output_tokens: f64,
    /// Concurrent users' mean pause between an answer and their next request, seconds (`workload.think_time_s`).
    pub think_time_s: f64,
    pub defaults_used: Vec<String>,
    pub single_stream: SingleStream,
    pub memory: Memory,
    pub roofline: Roofline,
    pub sweep: Vec<LoadPoint>,
    /// Highest throughput the hardware reaches (offline: memory and max batch allow).
    pub peak: Marker,
    /// Highest load meeting the target at its percentile: the capacity (`capacity.at`) where it is resolved
    /// between levels, else (batch mode, offline loads) the highest level meeting it.
    pub peak_usable: Option<Marker>,
    /// Where system TPS stops rising (≥ 90 % of its maximum).
    pub knee: Option<Marker>,
    /// The recommended operating point: `operating_fraction` of the capacity's load (a simulated level; batch
    /// and offline loads: of the peak usable level's, interpolated).
    pub operating_point: Option<Marker>,
    /// The level the operating point is read from, every figure of it (the scrubber's card quotes it until another
    /// load is picked: it had quoted the sweep level nearest it, 96 users beside an operating point of 106; "How to
    /// read this" keeps the nearest level, a table row with a roofline point). Not in the JSON, which has the marker.
    #[serde(skip)]
    pub operating_level: Option<LoadPoint>,
    /// The most load meeting the target, resolved finely (concurrency and request-rate loads, not batch mode or
    /// offline); null when nothing meets the target.
    pub capacity: Option<Capacity>,
    /// Replicas for `fleet` (null without a fleet question or an operating point).
    pub fleet: Option<Fleet>,
    /// Power and energy per token (null without `hardware.tdp_watts` or an operating point).
    pub energy: Option<Energy>,
    /// Cost per token (null without prices in `cost`).
    pub cost: Option<Cost>,
    pub band: Band,
    pub target: Target,
    pub verdict: String,
    /// Whether the verdict is a pass (it fits and some load meets the target; batch mode: it fits).
    pub verdict_ok: bool,
    pub warnings: Vec<crate::plan::Warning>,
    /// The workload's other settings in words, in a fixed order (`plan::diff` names the ones that tell two sides
    /// apart whose labels read alike); not in the JSON, which carries the scenario itself.
    #[serde(skip)]
    pub settings: Vec<String>,
    /// A mixture-of-experts model's routed experts per MoE layer and those each token is routed to (the readout
    /// says how many a step's batch reaches); `None` for a dense model. Not in the JSON.
    #[serde(skip)]
    pub experts: Option<(u32, u32)>,
    /// What one device of the hardware is called (`HardwareKind::noun`: GPU, CPU, chip, device), for figures per
    /// device. Not in the JSON.
    #[serde(skip)]
    pub device_noun: &'static str,
    /// Whether the load is an offline job (every request queued at once): its levels count the requests in flight,
    /// not users. Not in the JSON, which carries the scenario.
    #[serde(skip)]
    pub offline: bool,
    /// Whether the requests' lengths vary (not fixed): the memory card's "fit at their full length" is the mean
    /// request's, and the longest fill the cache sooner. Not in the JSON.
    #[serde(skip)]
    pub lengths_vary: bool,
    /// Whether prompts are read in steps of their own while the decodes wait (`EngineParams::mixed_batches` off,
    /// SGLang's own scheduling): "How to read this" says what makes the long gaps then. Not in the JSON.
    #[serde(skip)]
    pub prompt_steps_apart: bool,
}

impl Report {
    /// The report as its JSON is written (the CLI's `tps eval` and the page's "Report (JSON)"). Where the model does
    /// not fit, no load is served: the sweep is empty and the peak's figures null (an audit: every level had read
    /// TTFT, TPOT and E2E 0.0 ms and 0 tok/s, which a script takes for zero latency; the table says "no load
    /// simulated"). A copy only then (`serde_json::Value` had cost the page 12 KB of wasm).
    #[must_use]
    pub fn for_json(&self) -> std::borrow::Cow<'_, Report> {
        if self.memory.fits {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut r = self.clone();
        r.sweep.clear();
        // NaN is written as null.
        r.peak = Marker {
            concurrency: None,
            request_rate: None,
            system_tps: f64::NAN,
            per_user_tps: f64::NAN,
            ttft_p_ms: None,
            tpot_p_ms: f64::NAN,
            kv_utilization: None,
        };
        std::borrow::Cow::Owned(r)
    }
}

/// How many numbers [`LoadPoint::pack`] writes per level.
pub const PACKED: usize = 37;

impl LoadPoint {
    /// The level as [`PACKED`] numbers, in field order (the page's Web Worker sends its simulated levels so:
    /// `plan::Staged::packed`); `None` is NaN, a bound its index, a flag 0 or 1.
    pub fn pack(&self, out: &mut Vec<f64>) {
        out.extend([self.concurrency.unwrap_or(f64::NAN), self.request_rate.unwrap_or(f64::NAN)]);
        out.extend([self.per_user_tps, self.system_tps, self.request_throughput, self.goodput_rps]);
        for p in [&self.ttft_ms, &self.tpot_ms, &self.itl_ms, &self.e2e_ms] {
            out.extend([p.mean, p.p50, p.p90, p.p95, p.p99]);
        }
        out.extend([self.mean_batch, self.kv_utilization, f64::from(self.preemptions), f64::from(self.errors), self.error_rate]);
        out.extend([self.memory_bound_fraction, self.compute_bound_fraction, self.bound as u8 as f64]);
        out.extend([f64::from(u8::from(self.saturated)), f64::from(u8::from(self.meets_target)), self.analytic_per_user_tps]);
    }

    /// The level [`Self::pack`] wrote into `v` (at least [`PACKED`] numbers).
    #[must_use]
    pub fn unpack(v: &[f64]) -> Self {
        let opt = |x: f64| (!x.is_nan()).then_some(x);
        let pcts = |i: usize| Pcts { mean: v[i], p50: v[i + 1], p90: v[i + 2], p95: v[i + 3], p99: v[i + 4] };
        Self {
            concurrency: opt(v[0]),
            request_rate: opt(v[1]),
            per_user_tps: v[2],
            system_tps: v[3],
            request_throughput: v[4],
            goodput_rps: v[5],
            ttft_ms: pcts(6),
            tpot_ms: pcts(11),
            itl_ms: pcts(16),
            e2e_ms: pcts(21),
            mean_batch: v[26],
            kv_utilization: v[27],
            preemptions: v[28] as u32,
            errors: v[29] as u32,
            error_rate: v[30],
            memory_bound_fraction: v[31],
            compute_bound_fraction: v[32],
            bound: match v[33] as u8 {
                0 => Bound::Memory,
                1 => Bound::Compute,
                _ => Bound::Overhead,
            },
            saturated: v[34] != 0.0,
            meets_target: v[35] != 0.0,
            analytic_per_user_tps: v[36],
        }
    }
}
