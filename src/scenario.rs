//! The stable interface: [`Scenario`] (one sizing question, JSON, `"version": 1`) and [`Report`] (the answer).
//!
//! A scenario is what the page edits, what the URL hash and export/import carry, and what `tps eval` reads.
//! Every field may be omitted where a preset or a default supplies it; explicit numbers override presets. The
//! least a scenario needs is memory bandwidth, model size and bits per weight; every default that fills a gap is
//! listed in [`Report::defaults_used`]. Unknown fields, unknown preset ids and impossible values are
//! [`ScenarioError`]s that name the field.
//!
//! Validation happens here, at the edge: the model behind it never sees NaN, infinities, zero bandwidth or
//! negative sizes.

use crate::model::engine::EngineParams;
use crate::model::hardware::{Architecture, Hardware, HardwareKind, Parallelism};
use crate::model::llm::{Attention, ModelShape, Moe};
use crate::model::quant::{self, ComputeDtype};
use crate::model::roofline::{Bound, Deployment};
use crate::presets;
use serde::{Deserialize, Serialize};

/// The current scenario and report version.
pub const VERSION: u32 = 1;

/// An invalid scenario: which field, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
#[error("{field}: {message}")]
pub struct ScenarioError {
    /// Dotted path of the field (`hardware.memory_bandwidth_gbps`), or `json` for syntax errors.
    pub field: String,
    pub message: String,
}

impl ScenarioError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self { field: field.into(), message: message.into() }
    }
}

/// One sizing question.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u32>,
    #[serde(default)]
    pub hardware: HardwareSpec,
    #[serde(default)]
    pub model: ModelSpec,
    #[serde(default)]
    pub quantization: QuantSpec,
    #[serde(default)]
    pub engine: EngineSpec,
    #[serde(default)]
    pub workload: WorkloadSpec,
    #[serde(default)]
    pub target: TargetSpec,
    /// Fleet sizing: the peak load the whole service must carry (optional).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fleet: Option<FleetSpec>,
    /// Prices for the cost per token (optional; nothing is priced by default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<CostSpec>,
}

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
        /// Latency of one all-reduce, µs (default: 8 over NVLink-class links, the fitted PCIe figure below 100 GB/s).
        allreduce_us: f64,
        tdp_watts: f64,
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
        /// Per request, ms: the serving front end's time in every TTFT (HTTP, tokenisation, scheduling hand-off).
        request_overhead_ms: f64,
        /// Coefficient of variation of that front-end time from request to request (lognormal).
        request_overhead_cv: f64,
        /// Where explicit efficiencies came from, when `tps calibrate` or the page fitted them to measured runs.
        calibrated_from: String,
        max_batch: u32, max_batched_tokens: u32, memory_utilization: f64, reserve_gb: f64,
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

/// A validated disaggregation: devices in the prefill pool and the KV link.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Disaggregation {
    pub prefill_devices: u32,
    pub decode_devices: u32,
    pub kv_transfer_gbps: f64,
}

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
        distribution: String,
        spread: f64,
        prefix_cache_hit_rate: f64,
        load: LoadSpec,
        /// Requests simulated per load level.
        requests: u32,
        seed: u64,
        /// Gamma shape of inter-arrival gaps for request-rate loads (1 = Poisson, < 1 burstier).
        burstiness: f64,
        /// Waiting requests beyond this are rejected.
        queue_limit: u32,
        /// Client timeout, seconds.
        timeout_s: f64,
        /// `reader`, `agent` or `batch`.
        mode: String,
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
    /// Fleet sizing: exactly one of `peak_users` (concurrent users) or `peak_request_rate` (requests/s) at the
    /// busiest time, and optional spare replicas (N+1 headroom).
    FleetSpec { peak_users: f64, peak_request_rate: f64, spare_replicas: u32 }
);

spec!(
    /// Prices (all optional; none is assumed): per device and hour, per kWh of electricity, the facility's
    /// power usage effectiveness (PUE, ≥ 1) and the currency's short name.
    CostSpec { device_hour: f64, currency: String, electricity_per_kwh: f64, pue: f64 }
);

/// The peak load a fleet is sized for.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PeakLoad {
    /// Concurrent users (requests in flight).
    Users(f64),
    /// Requests per second.
    RequestRate(f64),
}

/// A validated fleet question.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct FleetInputs {
    pub peak: PeakLoad,
    pub spare_replicas: u32,
}

/// Validated prices. Every part is optional; a cost is reported for the parts given.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CostInputs {
    /// Price of one device for one hour.
    pub device_hour: Option<f64>,
    pub currency: Option<String>,
    /// Price of one kWh of electricity.
    pub electricity_per_kwh: Option<f64>,
    /// Power usage effectiveness of the facility (≥ 1); multiplies the devices' electricity.
    pub pue: Option<f64>,
}

/// The load to sweep.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Load {
    Concurrency(Vec<f64>),
    RequestRate(Vec<f64>),
    Offline,
}

/// How request lengths vary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Distribution {
    Fixed,
    Uniform,
    Lognormal,
}

/// The use case the verdict is phrased for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Reader,
    Agent,
    Batch,
}

/// A validated workload.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Workload {
    pub prompt_tokens: f64,
    pub output_tokens: f64,
    pub context_depth: f64,
    pub distribution: Distribution,
    pub spread: f64,
    pub prefix_cache_hit_rate: f64,
    pub load: Load,
    /// Whether the load levels were chosen automatically.
    pub auto_load: bool,
    pub requests: u32,
    pub seed: u64,
    pub burstiness: f64,
    pub queue_limit: Option<u32>,
    pub timeout_s: Option<f64>,
    pub mode: Mode,
    pub agent_steps: u32,
}

/// A validated target.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Target {
    pub name: String,
    pub tpot_ms: f64,
    pub ttft_ms: f64,
    pub percentile: f64,
    pub operating_fraction: f64,
    /// Agent mode: the most seconds a task of `agent_steps` calls may take at the percentile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task_s: Option<f64>,
}

/// A scenario with every gap filled and every number checked.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Resolved {
    pub deployment: Deployment,
    pub workload: Workload,
    pub target: Target,
    /// Human-readable list of defaults that filled gaps.
    pub defaults_used: Vec<String>,
    pub backend: String,
    /// The weight format's name and bits, for reports ("GGUF Q4_K_M, 4.85 bits").
    pub quantization: String,
    /// The model's context window, when a preset knows it.
    pub max_context: Option<u32>,
    /// Separate prefill and decode pools, if asked for.
    pub disaggregation: Option<Disaggregation>,
    /// The fleet to size, if asked for.
    pub fleet: Option<FleetInputs>,
    /// Prices, if any were given.
    pub cost: Option<CostInputs>,
}

impl Resolved {
    /// The (prefill pool, decode pool) deployments of a disaggregated setup.
    #[must_use]
    pub fn pools(&self) -> Option<(Deployment, Deployment)> {
        let g = self.disaggregation?;
        let mut pre = self.deployment.clone();
        pre.hardware.devices = g.prefill_devices;
        let mut dec = self.deployment.clone();
        dec.hardware.devices = g.decode_devices;
        Some((pre, dec))
    }
}

impl Scenario {
    /// Parses JSON, naming the field of any error (unknown fields included).
    ///
    /// # Errors
    /// Syntax errors, wrong types and unknown fields, with the dotted path of the field.
    pub fn from_json(text: &str) -> Result<Self, ScenarioError> {
        if !text.trim_start().starts_with('{') {
            return Err(ScenarioError::new("json", "a scenario is a JSON object: { \"hardware\": …, \"model\": … }"));
        }
        let de = &mut serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let field = if path == "." || path == "?" || path.is_empty() { "json".to_string() } else { path };
            ScenarioError::new(field, e.into_inner().to_string())
        })
    }

    /// Pretty JSON.
    #[must_use]
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Applies presets and defaults and validates every number.
    ///
    /// # Errors
    /// The first invalid field, with its allowed range.
    pub fn resolve(&self) -> Result<Resolved, ScenarioError> {
        if let Some(v) = self.version {
            if v != VERSION {
                return Err(ScenarioError::new("version", format!("unsupported version {v}; this build reads version {VERSION}")));
            }
        }
        let mut defaults = Vec::new();
        let hardware = resolve_hardware(&self.hardware, &mut defaults)?;
        let model = resolve_model(&self.model, &mut defaults)?;
        let (_engine_id, engine_preset) = match &self.engine.preset {
            Some(id) => (
                id.clone(),
                presets::engines::find(id).ok_or_else(|| unknown("engine.preset", id, presets::engines::ENGINES.iter().map(|e| e.id)))?,
            ),
            None => {
                let id = match hardware.kind {
                    HardwareKind::DatacenterGpu => "vllm",
                    _ => "llama.cpp",
                };
                defaults.push(format!("engine: {id} (typical for {})", hardware.kind.id()));
                (id.to_string(), presets::engines::find(id).expect("built-in engine"))
            }
        };
        let mut hardware = hardware;
        if hardware.devices > 1 && self.hardware.parallelism.is_none() && self.engine.disaggregation.is_none() {
            // Each engine's own default: llama.cpp splits layers (`-sm layer`), serving engines run tensor parallel.
            let (p, id) = if engine_preset.id == "llama.cpp" { (Parallelism::LayerSplit, "layer-split (llama.cpp's -sm layer)") } else { (Parallelism::Tensor, "tensor") };
            hardware.parallelism = p;
            defaults.push(format!("hardware.parallelism: {id}"));
        }
        let native = self.model.preset.as_deref().and_then(presets::models::find).map(|m| m.native_weights);
        let (weight_bits, compute_dtype) = resolve_quant(&self.quantization, engine_preset.id, native, &mut defaults)?;
        let kv_id = self.quantization.kv_cache.clone().unwrap_or_else(|| "fp16".into());
        let kv = quant::kv_format(&kv_id)
            .ok_or_else(|| unknown("quantization.kv_cache", &kv_id, quant::KV_FORMATS.iter().map(|k| k.id)))?;
        let engine = resolve_engine(&self.engine, engine_preset, &hardware, &model, &mut defaults)?;
        let backend = self.engine.backend.clone().unwrap_or_else(|| default_backend(hardware.kind).to_string());
        let workload = resolve_workload(&self.workload, &mut defaults)?;
        let target = resolve_target(&self.target, workload.mode)?;
        let fleet = self.fleet.as_ref().map(resolve_fleet).transpose()?;
        let cost = self.cost.as_ref().map(resolve_cost).transpose()?;
        let disaggregation = match &self.engine.disaggregation {
            None => None,
            Some(g) => {
                let n = hardware.devices;
                if n < 2 {
                    return Err(ScenarioError::new("engine.disaggregation", "needs at least 2 devices (hardware.devices): one per pool"));
                }
                let p = check_u("engine.disaggregation.prefill_devices", g.prefill_devices.unwrap_or(n / 2), 1, n - 1)?;
                if hardware.parallelism != Parallelism::Tensor {
                    return Err(ScenarioError::new("hardware.parallelism", "disaggregated pools are tensor parallel inside each pool"));
                }
                let gbps = positive("engine.disaggregation.kv_transfer_gbps", g.kv_transfer_gbps.unwrap_or(hardware.interconnect_gbps), 100_000.0, "GB/s")?;
                Some(Disaggregation { prefill_devices: p, decode_devices: n - p, kv_transfer_gbps: gbps })
            }
        };
        let mut resolved = Resolved {
            deployment: Deployment { hardware, model, weight_bits, compute_dtype, kv_elem_bytes: kv.bytes, engine },
            workload,
            target,
            defaults_used: defaults,
            backend,
            quantization: {
                let id = self.quantization.weights.clone().or_else(|| {
                    self.quantization.weight_bits.is_none().then(|| default_weights(engine_preset.id, native).to_string())
                });
                let name = id.as_deref().and_then(quant::weight_format).map_or("custom", |f| f.label);
                format!("{name}, {weight_bits} bits")
            },
            max_context: self.model.preset.as_deref().and_then(presets::models::find).map(|m| m.max_context),
            disaggregation,
            fleet,
            cost,
        };
        resolved.settle_memory(self.engine.reserve_gb.is_some())?;
        let hw = &resolved.deployment.hardware;
        if matches!(hw.parallelism, Parallelism::LayerSplit | Parallelism::Pipeline) && hw.devices > resolved.deployment.model.layers {
            return Err(ScenarioError::new(
                "hardware.devices",
                format!("{} devices for a {}-layer model: a layer split or pipeline needs at least one layer per device", hw.devices, resolved.deployment.model.layers),
            ));
        }
        Ok(resolved)
    }
}

fn default_backend(kind: HardwareKind) -> &'static str {
    match kind {
        HardwareKind::AppleSilicon => "metal",
        HardwareKind::Cpu => "cpu",
        _ => "cuda",
    }
}

fn unknown<'a>(field: &str, id: &str, valid: impl Iterator<Item = &'a str>) -> ScenarioError {
    let list: Vec<&str> = valid.collect();
    let shown = if list.len() > 12 { format!("{}, … ({} in all; see `tps presets`)", list[..12].join(", "), list.len()) } else { list.join(", ") };
    ScenarioError::new(field, format!("unknown id \"{id}\"; valid: {shown}"))
}

/// Checks `lo ≤ v ≤ hi` and finiteness.
fn check(field: &str, v: f64, lo: f64, hi: f64, unit: &str) -> Result<f64, ScenarioError> {
    if !v.is_finite() {
        return Err(ScenarioError::new(field, format!("must be a finite number ({lo}–{hi} {unit})").replace(" )", ")")));
    }
    if v < lo || v > hi {
        return Err(ScenarioError::new(field, format!("{} is out of range: allowed {lo}–{hi} {unit}", crate::model::units::fmt_num(v)).trim_end().to_string()));
    }
    Ok(v)
}

/// Checks `lo < v ≤ hi`.
fn positive(field: &str, v: f64, hi: f64, unit: &str) -> Result<f64, ScenarioError> {
    if v.is_finite() && v <= 0.0 {
        return Err(ScenarioError::new(field, format!("must be greater than 0 (up to {hi} {unit})")));
    }
    check(field, v, 0.0, hi, unit)
}

fn check_u(field: &str, v: u32, lo: u32, hi: u32) -> Result<u32, ScenarioError> {
    if v < lo || v > hi {
        return Err(ScenarioError::new(field, format!("{v} is out of range: allowed {lo}–{hi}")));
    }
    Ok(v)
}

fn opt_pos(field: &str, v: Option<f64>, hi: f64, unit: &str) -> Result<Option<f64>, ScenarioError> {
    v.map(|x| positive(field, x, hi, unit)).transpose()
}

fn resolve_hardware(s: &HardwareSpec, defaults: &mut Vec<String>) -> Result<Hardware, ScenarioError> {
    let p = match &s.preset {
        Some(id) => Some(presets::hardware::find(id).ok_or_else(|| unknown("hardware.preset", id, presets::hardware::HARDWARE.iter().map(|h| h.id)))?),
        None => None,
    };
    let bw = match s.memory_bandwidth_gbps.or(p.map(|p| p.bandwidth_gbps)) {
        Some(v) => positive("hardware.memory_bandwidth_gbps", v, 100_000.0, "GB/s")?,
        None => return Err(ScenarioError::new("hardware.memory_bandwidth_gbps", "required: give a hardware preset or the memory bandwidth in GB/s")),
    };
    let kind = match s.kind.or(p.map(|p| p.kind)) {
        Some(k) => k,
        None => {
            defaults.push("hardware.kind: other".into());
            HardwareKind::Other
        }
    };
    let devices = check_u("hardware.devices", s.devices.unwrap_or(1), 1, 1024)?;
    let memory_gb = opt_pos("hardware.memory_gb", s.memory_gb.or(p.map(|p| p.memory_gb)), 100_000.0, "GB")?;
    let fp16 = match opt_pos("hardware.fp16_tflops", s.fp16_tflops.or(p.and_then(|p| p.fp16_tflops)), 1e6, "TFLOPS")? {
        Some(v) => v,
        None => {
            let v = bw / 1000.0 * kind.default_tflops_per_tbps();
            defaults.push(format!("hardware.fp16_tflops: {v:.0} (typical {} ratio to bandwidth)", kind.id()));
            v
        }
    };
    // Tensor parallel until the engine is known (llama.cpp then defaults to its layer split, in `resolve`).
    let parallelism = s.parallelism.unwrap_or(Parallelism::Tensor);
    // A preset whose numbers were typed over is no longer that product: the name says what changed, so a
    // summary never claims "on H100" for a device with another bandwidth.
    let name = match (&s.name, p) {
        (Some(n), _) => n.clone(),
        (None, Some(p)) => {
            let num = crate::model::units::fmt_num;
            let mut changed = Vec::new();
            let mut differs = |what: &str, given: Option<f64>, preset: Option<f64>, unit: &str| {
                if let Some(v) = given.filter(|v| preset.is_none_or(|q| (q - v).abs() > 1e-9 * q.abs().max(1.0))) {
                    changed.push(format!("{what} set to {} {unit}", num(v)));
                }
            };
            differs("bandwidth", s.memory_bandwidth_gbps, Some(p.bandwidth_gbps), "GB/s");
            differs("memory", s.memory_gb, Some(p.memory_gb), "GiB");
            differs("FP16 compute", s.fp16_tflops, p.fp16_tflops, "TFLOPS");
            differs("FP8 compute", s.fp8_tflops, p.fp8_tflops, "TFLOPS");
            differs("FP4 compute", s.fp4_tflops, p.fp4_tflops, "TFLOPS");
            differs("INT8", s.int8_tops, p.int8_tops, "TOPS");
            differs("interconnect", s.interconnect_gbps, Some(p.interconnect_gbps), "GB/s");
            if let Some(a) = s.architecture.filter(|a| *a != presets::hardware::architecture(p.id)) {
                changed.push(format!("architecture set to {}", a.id()));
            }
            if let Some(k) = s.kind.filter(|k| *k != p.kind) {
                changed.push(format!("kind set to {}", k.id()));
            }
            if changed.is_empty() { p.name.to_string() } else { format!("{} ({})", p.name, changed.join(", ")) }
        }
        (None, None) => format!("{} GB/s {}", crate::model::units::fmt_num(bw), if kind == HardwareKind::Other { "device".to_string() } else { kind.id().replace('-', " ") }),
    };
    let architecture = s.architecture.or(p.map(|p| presets::hardware::architecture(p.id))).unwrap_or_else(|| Architecture::typical_for(kind));
    Ok(Hardware {
        name,
        architecture,
        kind,
        memory_bandwidth_gbps: bw,
        // Filled in resolve_memory once the model is known (a default needs the weights' size).
        memory_gb: memory_gb.unwrap_or(f64::NAN),
        fp16_tflops: fp16,
        fp8_tflops: opt_pos("hardware.fp8_tflops", s.fp8_tflops.or(p.and_then(|p| p.fp8_tflops)), 1e6, "TFLOPS")?,
        fp4_tflops: opt_pos("hardware.fp4_tflops", s.fp4_tflops.or(p.and_then(|p| p.fp4_tflops)), 1e6, "TFLOPS")?,
        int8_tops: opt_pos("hardware.int8_tops", s.int8_tops.or(p.and_then(|p| p.int8_tops)), 1e6, "TOPS")?,
        devices,
        parallelism,
        interconnect_gbps: positive("hardware.interconnect_gbps", s.interconnect_gbps.or(p.map(|p| p.interconnect_gbps)).unwrap_or(32.0), 100_000.0, "GB/s")?,
        allreduce_us: opt_pos("hardware.allreduce_us", s.allreduce_us, 1e6, "µs")?,
        tdp_watts: opt_pos("hardware.tdp_watts", s.tdp_watts.or(p.and_then(|p| p.tdp_watts)), 1e6, "W")?,
    })
}

/// Llama-family shapes by size, for models given only as a parameter count: (params B, layers, hidden, heads, kv heads, head dim).
const SHAPES: &[(f64, u32, u32, u32, u32, u32)] = &[
    (1.24, 16, 2048, 32, 8, 64),
    (3.21, 28, 3072, 24, 8, 128),
    (8.03, 32, 4096, 32, 8, 128),
    (14.7, 48, 5120, 40, 8, 128),
    (32.5, 64, 5120, 40, 8, 128),
    (70.6, 80, 8192, 64, 8, 128),
    (405.9, 126, 16384, 128, 8, 128),
];

fn resolve_model(s: &ModelSpec, defaults: &mut Vec<String>) -> Result<ModelShape, ScenarioError> {
    let p = match &s.preset {
        Some(id) => Some(presets::models::find(id).ok_or_else(|| unknown("model.preset", id, presets::models::MODELS.iter().map(|m| m.id)))?),
        None => None,
    };
    let params = match s.params_b.or(p.map(|p| p.params_b)) {
        Some(v) => positive("model.params_b", v, 100_000.0, "billion parameters")?,
        None => return Err(ScenarioError::new("model.params_b", "required: give a model preset or the parameter count in billions")),
    };
    let moe = s.moe.or(p.map(|p| p.moe)).unwrap_or_default();
    if moe.experts > 0 || moe.experts_per_token > 0 {
        check_u("model.moe.experts", moe.experts, 2, 4096)?;
        check_u("model.moe.experts_per_token", moe.experts_per_token, 1, moe.experts - 1)?;
    }
    let is_moe = moe.experts > 0;
    let active = match (s.active_params_b, p.map(|p| p.active_params_b)) {
        (Some(v), _) => {
            let v = positive("model.active_params_b", v, 100_000.0, "billion parameters")?;
            if v > params {
                return Err(ScenarioError::new("model.active_params_b", format!("{} B is more than params_b ({} B)", crate::model::units::fmt_num(v), crate::model::units::fmt_num(params))));
            }
            v
        }
        // A preset's active count belongs to its own size: a dense override of params_b moves it too.
        (None, Some(a)) if is_moe || s.params_b.is_none() => a.min(params),
        (None, _) if is_moe => return Err(ScenarioError::new("model.active_params_b", "required for a mixture-of-experts model")),
        (None, _) => params,
    };
    if !is_moe && (active - params).abs() > 1e-9 * params {
        return Err(ScenarioError::new(
            "model.active_params_b",
            format!("{active} differs from params_b {params}, but the model is dense: give model.moe (experts, experts_per_token) for a mixture of experts"),
        ));
    }
    if is_moe {
        // The always-read part must not be negative: active ≥ k · params / E.
        let min_active = f64::from(moe.experts_per_token) * params / f64::from(moe.experts);
        if active < min_active * (1.0 - 1e-9) {
            return Err(ScenarioError::new(
                "model.active_params_b",
                format!("{active} B is less than experts_per_token × params_b ÷ experts = {min_active:.3} B, which {} of {} experts alone would use", moe.experts_per_token, moe.experts),
            ));
        }
    }
    // Shape: explicit, else preset, else the nearest Llama-family shape by size.
    let nearest = SHAPES
        .iter()
        .min_by(|a, b| (a.0.ln() - active.ln()).abs().total_cmp(&(b.0.ln() - active.ln()).abs()))
        .copied()
        .unwrap_or(SHAPES[2]);
    let shape_given = p.is_some() || (s.layers.is_some() && s.hidden.is_some());
    if !shape_given {
        defaults.push(format!(
            "model shape: {} layers, hidden {}, {} KV heads × {} (Llama-family shape nearest {:.1}B)",
            nearest.1, nearest.2, nearest.4, nearest.5, active
        ));
    }
    let layers = check_u("model.layers", s.layers.or(p.map(|p| p.layers)).unwrap_or(nearest.1), 1, 1000)?;
    let hidden = check_u("model.hidden", s.hidden.or(p.map(|p| p.hidden)).unwrap_or(nearest.2), 64, 200_000)?;
    let heads = check_u("model.attention_heads", s.attention_heads.or(p.map(|p| p.attention_heads)).unwrap_or(nearest.3), 1, 4096)?;
    let kv_heads = check_u("model.kv_heads", s.kv_heads.or(p.map(|p| p.kv_heads)).unwrap_or(nearest.4.min(heads)), 1, heads)?;
    let head_dim = check_u("model.head_dim", s.head_dim.or(p.map(|p| p.head_dim)).unwrap_or(nearest.5), 8, 4096)?;
    let vocab = check_u("model.vocab", s.vocab.or(p.map(|p| p.vocab)).unwrap_or(128_256), 1, 10_000_000)?;
    let attention = s.attention.or(p.map(|p| p.attention)).unwrap_or(Attention::Full);
    match attention {
        Attention::Sliding { window, local_fraction } => {
            check_u("model.attention.window", window, 1, u32::MAX)?;
            check("model.attention.local_fraction", local_fraction, 0.0, 1.0, "")?;
        }
        Attention::Mla { kv_lora_rank, rope_dim } => {
            check_u("model.attention.kv_lora_rank", kv_lora_rank, 1, 65_536)?;
            check_u("model.attention.rope_dim", rope_dim, 0, 65_536)?;
        }
        Attention::Full => {}
    }
    Ok(ModelShape {
        name: s.name.clone().or(p.map(|p| p.name.to_string())).unwrap_or_else(|| format!("{params}B model")),
        params_b: params,
        active_params_b: active,
        layers,
        hidden,
        attention_heads: heads,
        kv_heads,
        head_dim,
        vocab,
        moe,
        attention,
        tied_embeddings: s.tied_embeddings.or(p.map(|p| p.tied_embeddings)).unwrap_or(false),
    })
}

/// The weight format when none is given: llama.cpp's common Q4_K_M (MXFP4 for models released in it, as
/// gpt-oss's GGUF is), else the model's released format (BF16 when unknown).
#[must_use]
pub fn default_weights<'a>(engine: &str, native: Option<&'a str>) -> &'a str {
    match (engine, native) {
        ("llama.cpp", Some("mxfp4")) => "mxfp4",
        ("llama.cpp", _) => "q4_k_m",
        (_, Some(n)) => n,
        _ => "bf16",
    }
}

fn resolve_quant(s: &QuantSpec, engine: &str, native: Option<&str>, defaults: &mut Vec<String>) -> Result<(f64, ComputeDtype), ScenarioError> {
    let fmt = match &s.weights {
        Some(id) => Some(quant::weight_format(id).ok_or_else(|| unknown("quantization.weights", id, quant::WEIGHT_FORMATS.iter().map(|f| f.id)))?),
        None if s.weight_bits.is_some() => None,
        None => {
            let id = default_weights(engine, native);
            let why = if engine == "llama.cpp" || native.is_none() { format!("typical for {engine}") } else { "the model's released format".into() };
            defaults.push(format!("quantization.weights: {id} ({why})"));
            quant::weight_format(id)
        }
    };
    let bits = match s.weight_bits.or(fmt.map(|f| f.bits)) {
        Some(b) => check("quantization.weight_bits", b, 1.0, 32.0, "bits per weight")?,
        None => 16.0,
    };
    // Custom bits near 8 mean FP8 in a serving engine; llama.cpp has no FP8 path (its Q8_0 runs on FP16/int8).
    let dtype = fmt.map_or(if (7.5..=8.5).contains(&bits) && engine != "llama.cpp" { ComputeDtype::Fp8 } else { ComputeDtype::Fp16 }, |f| f.compute);
    Ok((bits, dtype))
}

fn resolve_engine(
    s: &EngineSpec,
    p: &presets::engines::EnginePreset,
    hw: &Hardware,
    m: &ModelShape,
    defaults: &mut Vec<String>,
) -> Result<EngineParams, ScenarioError> {
    let eff = presets::engines::efficiency(p.id, hw.kind, hw.architecture);
    let mut used = Vec::new();
    if s.bandwidth_efficiency.is_none() {
        used.push(format!("η_bw {:.2}", eff.bandwidth));
    }
    if s.kv_bandwidth_efficiency.is_none() && s.bandwidth_efficiency.is_none() {
        used.push(format!("η_kv {:.2}", eff.kv_bandwidth));
    }
    if s.compute_efficiency.is_none() {
        used.push(format!("η_fl {:.2}", eff.compute));
    }
    if s.step_overhead_ms.is_none() {
        used.push(format!("overhead {:.2} ms/step", eff.step_overhead_ms(m.layers)));
    }
    if s.request_overhead_ms.is_none() && presets::engines::request_overhead_ms(p.id) > 0.0 {
        used.push(format!("front end {:.0} ms per request", presets::engines::request_overhead_ms(p.id)));
    }
    if s.moe_efficiency.is_none() && m.is_moe() && eff.moe < 1.0 {
        used.push(format!("MoE kernels at {:.2} of dense", eff.moe));
    }
    if !used.is_empty() {
        defaults.push(format!("engine efficiency: {} (fitted default for {} on {}, {})", used.join(", "), p.id, hw.kind.id(), hw.architecture.id()));
    }
    Ok(EngineParams {
        name: p.name.to_string(),
        bandwidth_efficiency: check("engine.bandwidth_efficiency", s.bandwidth_efficiency.unwrap_or(eff.bandwidth), 0.01, 1.0, "(fraction of spec)")?,
        // An explicit η_bw without η_kv moves both (fused attention assumed unless η_kv is given).
        kv_bandwidth_efficiency: check(
            "engine.kv_bandwidth_efficiency",
            s.kv_bandwidth_efficiency.unwrap_or(if s.bandwidth_efficiency.is_some() { s.bandwidth_efficiency.unwrap_or(eff.bandwidth) * eff.kv_bandwidth / eff.bandwidth } else { eff.kv_bandwidth }),
            0.01,
            1.0,
            "(fraction of spec)",
        )?,
        compute_efficiency: check("engine.compute_efficiency", s.compute_efficiency.unwrap_or(eff.compute), 0.01, 1.0, "(fraction of peak)")?,
        moe_efficiency: check("engine.moe_efficiency", s.moe_efficiency.unwrap_or(eff.moe), 0.05, 1.0, "(fraction of a dense layer's efficiency)")?,
        step_overhead_ms: check("engine.step_overhead_ms", s.step_overhead_ms.unwrap_or_else(|| eff.step_overhead_ms(m.layers)), 0.0, 10_000.0, "ms")?,
        request_overhead_ms: check("engine.request_overhead_ms", s.request_overhead_ms.unwrap_or_else(|| presets::engines::request_overhead_ms(p.id)), 0.0, 100_000.0, "ms")?,
        request_overhead_cv: check("engine.request_overhead_cv", s.request_overhead_cv.unwrap_or(presets::engines::REQUEST_OVERHEAD_CV), 0.0, 10.0, "(coefficient of variation)")?,
        max_batch: check_u("engine.max_batch", s.max_batch.unwrap_or(p.max_batch), 1, 1_000_000)?,
        max_batched_tokens: check_u("engine.max_batched_tokens", s.max_batched_tokens.unwrap_or(p.max_batched_tokens), 1, 10_000_000)?,
        memory_utilization: check("engine.memory_utilization", s.memory_utilization.unwrap_or(p.memory_utilization), 0.05, 1.0, "(fraction)")?,
        // The default is capped at a tenth of the device memory once that is known (see `settle_memory`).
        reserve_gb: check("engine.reserve_gb", s.reserve_gb.unwrap_or(p.reserve_gb), 0.0, 10_000.0, "GiB")?,
    })
}

fn resolve_workload(s: &WorkloadSpec, defaults: &mut Vec<String>) -> Result<Workload, ScenarioError> {
    if s.prompt_tokens.is_none() && s.output_tokens.is_none() {
        defaults.push("workload: 512 prompt + 128 output tokens".into());
    }
    let prompt = check("workload.prompt_tokens", s.prompt_tokens.unwrap_or(512.0), 0.0, 10_000_000.0, "tokens")?;
    // TPOT = (E2E − TTFT) / (n − 1) needs at least two output tokens.
    let output = check("workload.output_tokens", s.output_tokens.unwrap_or(128.0), 2.0, 10_000_000.0, "tokens")?;
    let depth = check("workload.context_depth", s.context_depth.unwrap_or(0.0), 0.0, 10_000_000.0, "tokens")?;
    let distribution = match s.distribution.as_deref().unwrap_or("fixed") {
        "fixed" => Distribution::Fixed,
        "uniform" => Distribution::Uniform,
        "lognormal" => Distribution::Lognormal,
        other => return Err(ScenarioError::new("workload.distribution", format!("unknown \"{other}\"; valid: fixed, uniform, lognormal"))),
    };
    let spread_max = if distribution == Distribution::Uniform { 1.0 } else { 5.0 };
    let spread = check("workload.spread", s.spread.unwrap_or(if distribution == Distribution::Fixed { 0.0 } else { 0.5 }), 0.0, spread_max, "")?;
    let mode = match s.mode.as_deref().unwrap_or("reader") {
        "reader" => Mode::Reader,
        "agent" => Mode::Agent,
        "batch" => Mode::Batch,
        other => return Err(ScenarioError::new("workload.mode", format!("unknown \"{other}\"; valid: reader, agent, batch"))),
    };
    let l = s.load.clone().unwrap_or_default();
    let given = usize::from(l.concurrency.is_some()) + usize::from(l.request_rate.is_some()) + usize::from(l.offline.is_some());
    if given > 1 {
        return Err(ScenarioError::new("workload.load", "give only one of concurrency, request_rate or offline"));
    }
    let levels = |field: &str, v: &Vec<f64>, hi: f64| -> Result<Vec<f64>, ScenarioError> {
        if v.is_empty() || v.len() > 64 {
            return Err(ScenarioError::new(field, "give 1–64 load levels"));
        }
        v.iter().enumerate().map(|(i, x)| positive(&format!("{field}[{i}]"), *x, hi, "")).collect()
    };
    // Levels are swept in increasing order, each once (users are whole).
    let tidy = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.dedup();
        v
    };
    let (load, auto_load) = if let Some(c) = &l.concurrency {
        let v = levels("workload.load.concurrency", c, 1_000_000.0)?;
        (Load::Concurrency(tidy(v.iter().map(|x| x.round().max(1.0)).collect())), false)
    } else if let Some(r) = &l.request_rate {
        // An empty list asks for automatic rates (fractions of the server's capacity).
        if r.is_empty() {
            (Load::RequestRate(Vec::new()), true)
        } else {
            (Load::RequestRate(tidy(levels("workload.load.request_rate", r, 1_000_000.0)?)), false)
        }
    } else if l.offline == Some(true) {
        (Load::Offline, false)
    } else {
        (Load::Concurrency(Vec::new()), true)
    };
    Ok(Workload {
        prompt_tokens: prompt,
        output_tokens: output,
        context_depth: depth,
        distribution,
        spread,
        prefix_cache_hit_rate: check("workload.prefix_cache_hit_rate", s.prefix_cache_hit_rate.unwrap_or(0.0), 0.0, 1.0, "(fraction)")?,
        load,
        auto_load,
        requests: check_u("workload.requests", s.requests.unwrap_or(2000), 10, 1_000_000)?,
        seed: s.seed.unwrap_or(42),
        burstiness: check("workload.burstiness", s.burstiness.unwrap_or(1.0), 0.05, 100.0, "(gamma shape)")?,
        queue_limit: s.queue_limit.map(|q| check_u("workload.queue_limit", q, 1, u32::MAX)).transpose()?,
        timeout_s: opt_pos("workload.timeout_s", s.timeout_s, 1e7, "s")?,
        mode,
        agent_steps: check_u("workload.agent_steps", s.agent_steps.unwrap_or(10), 1, 10_000)?,
    })
}

fn resolve_target(s: &TargetSpec, mode: Mode) -> Result<Target, ScenarioError> {
    let task_s = opt_pos("target.task_s", s.task_s, 1e7, "s")?;
    if task_s.is_some() && mode != Mode::Agent {
        return Err(ScenarioError::new("target.task_s", "a task-time target applies in agent mode only (workload.mode \"agent\")"));
    }
    // A task target alone stands for the agent's whole latency: no per-token limit unless one is given too.
    let task_only = task_s.is_some() && s.preset.is_none() && s.tpot_ms.is_none() && s.ttft_ms.is_none();
    let id = s.preset.clone().unwrap_or_else(|| if mode == Mode::Batch || task_only { "batch".into() } else { "reader".into() });
    let p = presets::targets::find(&id).ok_or_else(|| unknown("target.preset", &id, presets::targets::TARGETS.iter().map(|t| t.id)))?;
    let pct = check("target.percentile", s.percentile.unwrap_or(p.percentile), 50.0, 99.0, "(50, 90, 95 or 99)")?;
    if ![50.0, 90.0, 95.0, 99.0].contains(&pct) {
        return Err(ScenarioError::new("target.percentile", format!("{pct} is not one of 50, 90, 95, 99")));
    }
    let name = match task_s {
        Some(t) if task_only => format!("agent task ≤ {} s", crate::model::units::fmt_num(t)),
        Some(t) => format!("{} and task ≤ {} s", if s.tpot_ms.is_some() || s.ttft_ms.is_some() { "custom" } else { p.name }, crate::model::units::fmt_num(t)),
        None if s.tpot_ms.is_some() || s.ttft_ms.is_some() => "custom".into(),
        None => p.name.into(),
    };
    Ok(Target {
        name,
        tpot_ms: positive("target.tpot_ms", s.tpot_ms.unwrap_or(p.tpot_ms), 1e9, "ms")?,
        ttft_ms: positive("target.ttft_ms", s.ttft_ms.unwrap_or(p.ttft_ms), 1e9, "ms")?,
        percentile: pct,
        operating_fraction: check("target.operating_fraction", s.operating_fraction.unwrap_or(0.6), 0.5, 0.7, "(fraction of peak)")?,
        task_s,
    })
}

fn resolve_fleet(s: &FleetSpec) -> Result<FleetInputs, ScenarioError> {
    let peak = match (s.peak_users, s.peak_request_rate) {
        (Some(_), Some(_)) => return Err(ScenarioError::new("fleet", "give only one of peak_users or peak_request_rate")),
        (Some(u), None) => PeakLoad::Users(positive("fleet.peak_users", u, 1e9, "users")?),
        (None, Some(r)) => PeakLoad::RequestRate(positive("fleet.peak_request_rate", r, 1e9, "requests/s")?),
        (None, None) => return Err(ScenarioError::new("fleet", "give the peak load: peak_users (concurrent users) or peak_request_rate (requests/s)")),
    };
    Ok(FleetInputs { peak, spare_replicas: check_u("fleet.spare_replicas", s.spare_replicas.unwrap_or(0), 0, 10_000)? })
}

fn resolve_cost(s: &CostSpec) -> Result<CostInputs, ScenarioError> {
    let currency = match &s.currency {
        None => None,
        Some(c) => {
            let c = c.trim();
            if c.is_empty() || c.chars().count() > 8 || c.chars().any(char::is_control) {
                return Err(ScenarioError::new("cost.currency", "a short name of 1–8 characters (USD, EUR, €)"));
            }
            Some(c.to_string())
        }
    };
    Ok(CostInputs {
        device_hour: s.device_hour.map(|v| check("cost.device_hour", v, 0.0, 1e7, "per device and hour")).transpose()?,
        currency,
        electricity_per_kwh: s.electricity_per_kwh.map(|v| check("cost.electricity_per_kwh", v, 0.0, 1e5, "per kWh")).transpose()?,
        pue: s.pue.map(|v| check("cost.pue", v, 1.0, 5.0, "(facility power ÷ IT power)")).transpose()?,
    })
}

impl Resolved {
    /// Fills a missing device memory (enough for the weights, 20 % headroom and 8 GiB, stated as a default) and
    /// then the default reserve (the engine's, at most a tenth of the memory); an explicit reserve must leave
    /// memory over.
    pub(crate) fn settle_memory(&mut self, explicit_reserve: bool) -> Result<(), ScenarioError> {
        let hw = &mut self.deployment.hardware;
        if hw.memory_gb.is_nan() {
            let need = self.deployment.model.params_b * 1e9 * self.deployment.weight_bits / 8.0 * 1.2 / crate::model::units::GIB + 8.0;
            hw.memory_gb = (need / f64::from(hw.devices)).ceil();
            self.defaults_used.push(format!("hardware.memory_gb: {} GiB per device (weights + 20 % + 8 GiB)", hw.memory_gb));
        }
        let e = &mut self.deployment.engine;
        if explicit_reserve {
            if e.reserve_gb >= hw.memory_gb {
                return Err(ScenarioError::new("engine.reserve_gb", format!("{} GiB leaves nothing of the {} GiB per device", e.reserve_gb, hw.memory_gb)));
            }
        } else {
            e.reserve_gb = e.reserve_gb.min(hw.memory_gb * 0.1);
        }
        Ok(())
    }
}

/// Mean and percentiles of one latency, ms.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Default)]
pub struct Pcts {
    pub mean: f64,
    pub p50: f64,
    pub p90: f64,
    pub p95: f64,
    pub p99: f64,
}

impl Pcts {
    /// All percentiles equal (an analytic value).
    #[must_use]
    pub fn flat(v: f64) -> Self {
        Self { mean: v, p50: v, p90: v, p95: v, p99: v }
    }

    /// The value at a target percentile (50/90/95/99).
    #[must_use]
    pub fn at(&self, pct: f64) -> f64 {
        match pct as u32 {
            50 => self.p50,
            90 => self.p90,
            95 => self.p95,
            _ => self.p99,
        }
    }
}

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
}

/// Memory figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Memory {
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
    /// Sequences whose whole context (`context_tokens`) fits at once: beyond this many running, the engine
    /// preempts as their caches grow.
    pub kv_max_sequences: f64,
    pub fits: bool,
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
    /// Per-user throughput of the analytic model at this load (no queueing), for comparison.
    pub analytic_per_user_tps: f64,
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
}

/// Uncertainty band (± %) from the validation error on the published measurements.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Band {
    /// p90 absolute error of single-stream decode predictions.
    pub single_stream_pct: f64,
    /// p90 absolute error of batched throughput predictions.
    pub batched_pct: f64,
    /// Energy and electricity figures: wider than the throughput band they rest on, because the power model
    /// (an idle floor, TDP while the step loop is busy) is an assumption not validated against measured power.
    pub energy_pct: f64,
}

/// What stops more load from meeting the target at the capacity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LimitedBy {
    /// The time per output token at the percentile.
    Tpot,
    /// The time to first token at the percentile (also an open loop whose queue grows).
    Ttft,
    /// Agent mode: the time to a finished task at the percentile (`target.task_s`).
    Task,
    /// The KV cache: no more sequences run at once (`memory.max_concurrency`).
    Memory,
    /// The engine's cap on running sequences (`engine.max_batch`).
    EngineCap,
    /// More than 1 % of requests rejected or timed out.
    Errors,
}

/// The most load meeting the target, resolved between the swept levels (bisection with extra simulated levels,
/// same settings as the sweep) to ±1 user or ±2 % of the rate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Capacity {
    /// Concurrency loads: the most users (requests in flight) meeting the target; null for request-rate loads.
    /// Never above `memory.max_concurrency` (beyond it requests wait for a slot).
    pub max_users_at_target: Option<f64>,
    /// Request-rate loads: the highest rate meeting the target (requests/s); null for concurrency loads.
    pub max_request_rate_at_target: Option<f64>,
    pub limited_by: LimitedBy,
    /// The figures at the capacity (a simulated level).
    pub at: Marker,
    /// The next load (one user or ~2 % of rate more), which breaks the target; null when the capacity is the
    /// memory or engine limit itself.
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
    pub devices_total: u64,
    /// Users (requests in flight) one replica carries at the operating point (request-rate loads: rate × mean
    /// E2E, Little's law).
    pub users_per_replica: f64,
    /// Requests/s one replica completes at the operating point.
    pub request_rate_per_replica: f64,
    pub spare_replicas: u32,
    /// The peak's share of each serving replica (users or requests/s, as the peak), spares held back.
    pub peak_load_per_replica: f64,
    /// `peak_load_per_replica` ÷ a replica's capacity at the target (its peak usable load).
    pub utilisation_at_peak: f64,
    /// The same with one serving replica fewer (null with a single serving replica); above 1 breaks the target.
    pub utilisation_one_fewer: Option<f64>,
    /// "500 users → 7 servers of 2 × H100 (6 at the operating point of 88 users + 1 spare); …"
    pub sentence: String,
    /// The next smaller and larger device counts per replica that fit the model (and, tensor parallel, divide
    /// its attention heads), sized the same way; estimated with the analytic model scaled to this deployment's
    /// simulated operating point.
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
    /// The whole fleet for one hour (every replica, spares included, priced at the operating point).
    pub fleet_per_hour: Option<f64>,
}

/// The answer to a scenario.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub version: u32,
    pub hardware: String,
    pub model: String,
    pub engine: String,
    /// Weight format and bits per weight.
    pub quantization: String,
    /// Mean prompt and output tokens of the workload.
    pub prompt_tokens: f64,
    pub output_tokens: f64,
    pub defaults_used: Vec<String>,
    pub single_stream: SingleStream,
    pub memory: Memory,
    pub sweep: Vec<LoadPoint>,
    /// Highest throughput the hardware reaches (offline: memory and max batch allow).
    pub peak: Marker,
    /// Highest load meeting the target at its percentile: the capacity (`capacity.at`) where it is resolved
    /// between levels, else (batch mode, offline loads) the highest level meeting it.
    pub peak_usable: Option<Marker>,
    /// Where system TPS stops rising (≥ 90 % of its maximum).
    pub knee: Option<Marker>,
    /// The recommended operating point: `operating_fraction` of the throughput at the capacity (a simulated
    /// level; batch and offline loads: of the peak usable level, interpolated).
    pub operating_point: Option<Marker>,
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
    pub warnings: Vec<String>,
}
