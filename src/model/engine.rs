//! Engine parameters: how close an inference engine gets to the hardware's roofline.
//!
//! - `bandwidth_efficiency` η_bw: achieved ÷ spec memory bandwidth while streaming weights and KV
//!   (0.6–0.9 on GPUs; well-tuned GEMV kernels reach ~0.85 of spec, small models and many small kernels less).
//! - `kv_bandwidth_efficiency` η_kv: achieved ÷ spec bandwidth while attention reads the KV cache. Fused
//!   attention kernels (FlashAttention, paged attention in vLLM/SGLang/TensorRT-LLM) read it as fast as weights;
//!   llama.cpp builds without flash attention (the default until 2025) run attention as separate, low-occupancy
//!   kernels (KQ, softmax, KQV in F32 scratch) at batch 1, so a long context costs ~2.5× its bytes — the
//!   tg512 → tg8192 slowdown of the llama-bench rows (4090, 8B Q4_K_M: −15 %, where bytes alone predict −6 %).
//! - `moe_efficiency`: routed-expert kernels relative to dense ones (1 for llama.cpp, 0.5 for serving engines).
//! - `compute_efficiency` η_fl: achieved ÷ dense tensor peak in large GEMMs (prefill, big batches), 0.25–0.7.
//! - `step_overhead_ms`: fixed time per forward pass that does not scale with bytes or FLOPs (kernel launches,
//!   synchronisation, sampling, scheduler); dominant for small models on fast GPUs.
//! - `sequence_overhead_us`: per decoding sequence and step (vLLM, SGLang): the Python engines' scheduler, input
//!   preparation and sampler, which grow with the batch — at 256 sequences ~10 ms a step (see
//!   [`crate::presets::engines::SEQUENCE_OVERHEAD_US`]).
//! - `request_overhead_ms`: per request, the serving front end's time in every TTFT and E2E (HTTP, chat
//!   template, tokenisation, the hand-off to the scheduler, detokenising and streaming): at low load it is most
//!   of a small model's TTFT (vLLM 0.11 on H100 with Qwen3-8B: 60 ms measured, 7 ms of it prefill).
//! - `max_batch`: most sequences decoded together (vLLM `max_num_seqs`, llama.cpp `-np`).
//! - `max_batched_tokens`: token budget of one step (vLLM `max_num_batched_tokens`, llama.cpp `-ub`); prefill is
//!   processed in chunks of this size.
//! - `memory_utilization`: share of device memory the engine may use (vLLM `gpu_memory_utilization` 0.9).
//! - `reserve_gb`: per device, memory kept outside weights and KV (activations, runtime buffers; vLLM's is its
//!   profile run's peak, `presets::engines::vllm_reserve_gib`, its CUDA graphs and context come out of the headroom).
//!
//! Defaults per engine and hardware kind are in [`crate::presets::engines`], fitted on the published
//! measurements in `tests/data` by `tests/fit.rs`.

use serde::Serialize;

/// Which engine: the model's rules that differ by engine (llama.cpp's layer split and formats, the serving
/// engines' tensor parallelism) match on this, never on the display name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EngineKind {
    LlamaCpp,
    Vllm,
    Sglang,
    TensorRtLlm,
    Lmdeploy,
    Generic,
}

impl EngineKind {
    /// The engine of a preset id (`llama.cpp`, `vllm`, …); unknown ids are generic.
    #[must_use]
    pub fn of(id: &str) -> Self {
        match id {
            "llama.cpp" => Self::LlamaCpp,
            "vllm" => Self::Vllm,
            "sglang" => Self::Sglang,
            "tensorrt-llm" => Self::TensorRtLlm,
            "lmdeploy" => Self::Lmdeploy,
            _ => Self::Generic,
        }
    }
}

/// Resolved engine parameters.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EngineParams {
    pub name: String,
    pub kind: EngineKind,
    pub bandwidth_efficiency: f64,
    pub kv_bandwidth_efficiency: f64,
    pub compute_efficiency: f64,
    /// MoE expert kernels relative to dense ones (both their weight streaming and their FLOPs): grouped GEMMs
    /// over many small, tensor-parallel-sliced experts reach about half the efficiency of a dense layer in the
    /// serving engines (fitted on TensorRT-LLM's Qwen3-235B rows; DeepSeek-R1 on SGLang agrees); 1 = as dense.
    pub moe_efficiency: f64,
    pub step_overhead_ms: f64,
    /// Per decoding sequence and step, µs: what a step costs per running sequence beyond its bytes and FLOPs —
    /// the serving engine's scheduler, input preparation and sampler (`presets::engines::SEQUENCE_OVERHEAD_US`).
    /// 0 for llama.cpp and the C++ engines, whose fits have it inside their other constants.
    pub sequence_overhead_us: f64,
    /// Per request, ms: the serving front end's share of every TTFT (HTTP, chat template, tokenisation,
    /// scheduling hand-off, detokenising and streaming) — time no forward pass accounts for. 0 for llama.cpp's
    /// bare benchmarks; fitted per serving engine on low-load served runs.
    pub request_overhead_ms: f64,
    /// Coefficient of variation of the front-end time from request to request (lognormal around
    /// `request_overhead_ms`): it widens the TTFT tail at low load.
    pub request_overhead_cv: f64,
    pub max_batch: u32,
    pub max_batched_tokens: u32,
    pub memory_utilization: f64,
    pub reserve_gb: f64,
    /// Decode steps replay CUDA graphs (the engines' default); without them (`--enforce-eager`) every step pays the
    /// host's eager launch chain, as steps with prompt tokens always do (`model::kernels`).
    pub cuda_graphs: bool,
    /// One step carries prompt chunks and decodes together (vLLM V1's chunked prefill, TensorRT-LLM's in-flight
    /// batching, LMDeploy, llama.cpp; the model's default for every engine). Off (SGLang's own scheduler, without
    /// `--enable-mixed-chunk`): whenever a prompt can be read, the step reads prompts only and the decodes wait
    /// (`crate::sim`, "Prompt steps"; why SGLang still defaults to on: `presets::engines::mixed_batches`).
    pub mixed_batches: bool,
    /// A serving engine's default compute efficiency taken from another generation's served runs (none fitted on
    /// this one's, `presets::engines::served_reference`); `None` when fitted on its own or set by the scenario.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compute_borrowed_from: Option<crate::model::hardware::Architecture>,
    /// The efficiencies were fitted on the user's own runs (`engine.calibrated_from`), at this many loads (0: not
    /// said): the bands are the calibrated predictions' (`plan::band::LOAD_CALIBRATED_ONE`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub calibrated: Option<u32>,
    /// The deployment a calibration in the scenario was fitted on, where it is not this one (`engine.calibrated_on`
    /// differs): its efficiencies are applied, but nothing says they carry (warned: `plan::warnings`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub calibrated_elsewhere: Option<String>,
}

/// The deployment a calibration describes, as `engine.calibrated_on` records it: devices, device and model shape.
/// The calibrated bands hold where the scenario's deployment is this one (a review: calibrated on one H100 with an
/// 8B model, moved to 4 × A100 with a 70B, the page had kept the calibrated band ÷ / × 1.4).
#[must_use]
pub fn calibrated_on(hw: &crate::model::hardware::Hardware, m: &crate::model::llm::ModelShape) -> String {
    format!("{} × {} · {} B parameters, {} layers", hw.devices, hw.name, crate::model::units::fmt_num(m.params_b), m.layers)
}
