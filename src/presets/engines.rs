//! Engine presets and their default efficiencies per hardware kind.
//!
//! The scheduling limits are each engine's documented defaults (vLLM `max_num_seqs` and
//! `max_num_batched_tokens` by device, [`vllm_batch_defaults`], `gpu_memory_utilization` 0.9; SGLang `chunked_prefill_size` 8192,
//! `mem_fraction_static` ≈ 0.88; TensorRT-LLM `kv_cache_free_gpu_mem_fraction` 0.9, trtllm-bench batch up to
//! 2048; llama.cpp `-ub 512`, `-np 4`; LMDeploy TurboMind `cache_max_entry_count` 0.8).
//!
//! The efficiencies (η_bw, η_fl, per-step overhead) are fitted on the measurements in `tests/data` by
//! `tests/fit.rs` (least squares of measured step time against bytes ÷ bandwidth and a fixed overhead per
//! hardware family); `cargo test --test fit -- --nocapture` prints the fit and fails when a default drifts more
//! than 10 % from it. Families without measurements use the datacenter-GPU values of a comparable engine,
//! which the report marks as a default.
//!
//! **GPU generation, back end and software era** are classes of their own, each fitted where data exists:
//! - generation (`hardware.architecture`): TensorRT-LLM's compute efficiency Hopper 0.49 (0.47 before the 16-bit head, 2026-12-05) / Blackwell 0.28 and
//!   vLLM/SGLang's served compute Ampere 0.52 / Hopper 0.33 with a cost per running sequence ([`trtllm_compute`], [`served_compute`], [`SEQUENCE_OVERHEAD_US`]: H100 has
//!   3.2 × A100's tensor peak but 1.6 × its bandwidth and 1.75 × its power, and served runs gain only
//!   1.3–1.6 ×); generations without served runs (Ada, Blackwell, CDNA, …) take the fitted generation of their
//!   machine balance, FLOP per byte ([`served_reference`]; the finite IOG runs on one RTX 4090 say Ada's is
//!   higher, but a fit there runs into its bound, i.e. absorbs more than compute, so it is not taken);
//! - back end (`engine.backend`, llama.cpp): streaming efficiency Vulkan 0.96 / ROCm 0.74 / SYCL 0.78 and compute
//!   Vulkan 0.18 / ROCm 0.52 of CUDA/Metal's ([`backend_factor`], [`backend_compute_factor`]; one AMD iGPU and
//!   one Arc B580 source); CPU-only runs on GPU presets are not modelled (120–240 % off, printed);
//! - software era (`engine.version`): current llama.cpp builds pay 0.75 × (GPUs) and 0.45 × (Apple M3/M4) the
//!   2024 per-layer overhead ([`llama_cpp_build_overhead_factor`]); newer sources never fitted on are within
//!   5.6 % median / 16.8 % p90 (19 runs: Pascal +15 %, Blackwell consumer +2 %, Apple M4 +2 % bias).

use crate::model::hardware::{Architecture, HardwareKind};

/// One engine.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EnginePreset {
    pub id: &'static str,
    pub name: &'static str,
    pub max_batch: u32,
    pub max_batched_tokens: u32,
    pub memory_utilization: f64,
    pub reserve_gb: f64,
    pub source: &'static str,
}

/// Default efficiencies of one engine on one hardware kind.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Efficiency {
    pub bandwidth: f64,
    /// Bandwidth efficiency of attention's KV reads (fused kernels: same as `bandwidth`).
    pub kv_bandwidth: f64,
    pub compute: f64,
    /// MoE expert kernels relative to dense ones.
    pub moe: f64,
    /// Fixed part of the per-step overhead, ms.
    pub overhead_ms: f64,
    /// Per-layer part of the per-step overhead, µs per layer (kernel launches scale with depth).
    pub overhead_us_per_layer: f64,
}

impl Efficiency {
    /// The KV cache's share given the scenario's `kv` and `bandwidth` shares: its own, else this default scaled with
    /// a given bandwidth share (an explicit η_bw without η_kv moves both: fused attention assumed), else this default.
    #[must_use]
    pub fn kv_given(&self, kv: Option<f64>, bandwidth: Option<f64>) -> f64 {
        kv.unwrap_or_else(|| bandwidth.map_or(self.kv_bandwidth, |b| b * self.kv_bandwidth / self.bandwidth))
    }

    /// Per-step overhead for a model with `layers` layers, ms.
    #[must_use]
    pub fn step_overhead_ms(&self, layers: u32) -> f64 {
        self.overhead_ms + self.overhead_us_per_layer * f64::from(layers) / 1e3
    }
}

/// Whether a llama.cpp version string names a current build (from about b4000, late 2024): the default when
/// none is given. Older builds are recognised by a year ("May 2024 build", "Dec 2023") or a build number below
/// 4000 ("b3447", "build 2811"); a bare commit hash says nothing and counts as current.
#[must_use]
pub fn llama_cpp_current_build(version: Option<&str>) -> bool {
    let Some(v) = version else { return true };
    let lower = v.to_ascii_lowercase();
    if ["2022", "2023", "2024"].iter().any(|y| lower.contains(y)) {
        return false;
    }
    // Build numbers, where the text marks them as such: "b3447", "build 2811", "(7315)". Other numbers (a
    // commit hash's digits, "PR #787", "sm_120", "CUDA 13.3") say nothing about the build.
    let words: Vec<&str> = lower.split(|c: char| !(c.is_ascii_alphanumeric() || c == '(' || c == ')')).filter(|w| !w.is_empty()).collect();
    for (k, w) in words.iter().enumerate() {
        let digits = |t: &str| t.chars().all(|c| c.is_ascii_digit()) && !t.is_empty();
        let n = if let Some(d) = w.strip_prefix('b').filter(|d| digits(d)) {
            d.parse::<u32>().ok()
        } else if digits(w) && k > 0 && words[k - 1] == "build" {
            w.parse::<u32>().ok()
        } else if let Some(d) = w.strip_prefix('(').and_then(|t| t.strip_suffix(')')).filter(|d| digits(d)) {
            d.parse::<u32>().ok()
        } else {
            None
        };
        if let Some(n) = n.filter(|n| (100..20_000).contains(n)) {
            return n >= 4000;
        }
    }
    true
}

/// Per-layer step overhead of current llama.cpp builds relative to the 2024 builds the fit's rows come from
/// (fused kernels, CUDA graphs, Metal concurrency): fitted by `tests/fit.rs` on single-stream rows of 2025–26
/// builds from sources outside the fit (tests/data/single_stream_new.csv, single_stream_external.csv), per
/// family. Current builds are the default; a scenario naming an older build (`engine.version`) keeps 1.
#[must_use]
pub fn llama_cpp_build_overhead_factor(kind: HardwareKind, arch: Architecture, version: Option<&str>) -> f64 {
    if !llama_cpp_current_build(version) {
        return 1.0;
    }
    match (kind, arch) {
        // M3 and M4 GPUs (dynamic caching) with current builds; an M1 Max on a 2026 build still decodes as the
        // 2024 fit says (+5 %), so M1/M2 keep it.
        (HardwareKind::AppleSilicon, Architecture::AppleM3 | Architecture::AppleM4) => LLAMA_CPP_CURRENT_OVERHEAD_APPLE,
        (HardwareKind::AppleSilicon, _) => 1.0,
        _ => LLAMA_CPP_CURRENT_OVERHEAD_GPU,
    }
}

/// See [`llama_cpp_build_overhead_factor`]: GPUs (CUDA).
pub const LLAMA_CPP_CURRENT_OVERHEAD_GPU: f64 = 0.75;
/// See [`llama_cpp_build_overhead_factor`]: Apple M3 and M4 (Metal).
pub const LLAMA_CPP_CURRENT_OVERHEAD_APPLE: f64 = 0.45;

/// llama.cpp's weight- and KV-streaming efficiency on a back end relative to the fit's (CUDA and Metal, where
/// its kernels are most tuned): fitted by `tests/fit.rs` on the Vulkan, ROCm/HIP and SYCL rows of
/// tests/data/single_stream_more.csv (Radeon 8060S iGPU of the Ryzen AI Max+ 395 for Vulkan and ROCm, one source;
/// Arc B580 for SYCL, three rows). Other back ends 1.
#[must_use]
pub fn backend_factor(backend: &str) -> f64 {
    match backend {
        "vulkan" => BACKEND_VULKAN,
        "rocm" | "hip" => BACKEND_ROCM,
        "sycl" => BACKEND_SYCL,
        _ => 1.0,
    }
}

/// llama.cpp's compute efficiency (prompt processing, token batches) on a back end relative to the fit's
/// (CUDA/Metal): fitted by `tests/fit.rs` on the MoE token-batch sweeps of tests/data/batched_more.csv (Radeon
/// 8060S, N ≥ 32 tokens per pass; one source): its matrix kernels reach a small share of the iGPU's peak.
#[must_use]
pub fn backend_compute_factor(backend: &str) -> f64 {
    match backend {
        "vulkan" => BACKEND_COMPUTE_VULKAN,
        "rocm" | "hip" => BACKEND_COMPUTE_ROCM,
        _ => 1.0,
    }
}

/// See [`backend_compute_factor`].
pub const BACKEND_COMPUTE_VULKAN: f64 = 0.18;
/// See [`backend_compute_factor`].
pub const BACKEND_COMPUTE_ROCM: f64 = 0.52;

/// See [`backend_factor`].
pub const BACKEND_VULKAN: f64 = 0.96;
/// See [`backend_factor`].
pub const BACKEND_ROCM: f64 = 0.74;
/// See [`backend_factor`].
pub const BACKEND_SYCL: f64 = 0.78;

/// TensorRT-LLM's compute efficiency by generation, fitted per generation on the perf-overview offline
/// throughput (`tests/fit.rs`; Hopper: H100 and H200 rows, Blackwell: B200, GB200 and RTX PRO 6000 rows).
/// Generations without rows take the mean of the two.
#[must_use]
pub fn trtllm_compute(arch: Architecture) -> f64 {
    match arch {
        Architecture::Hopper => TRTLLM_COMPUTE_HOPPER,
        Architecture::Blackwell => TRTLLM_COMPUTE_BLACKWELL,
        _ => (TRTLLM_COMPUTE_HOPPER + TRTLLM_COMPUTE_BLACKWELL) / 2.0,
    }
}

/// See [`trtllm_compute`].
pub const TRTLLM_COMPUTE_HOPPER: f64 = 0.49;
/// See [`trtllm_compute`].
pub const TRTLLM_COMPUTE_BLACKWELL: f64 = 0.28;

/// An engine's default limits (running sequences, tokens per step) on a device of `memory_gib` named
/// `device_name`: vLLM's follow the device ([`vllm_batch_defaults`]), the other engines' are fixed.
#[must_use]
pub fn batch_defaults(p: &EnginePreset, memory_gib: f64, device_name: &str) -> (u32, u32) {
    if p.id == "vllm" {
        vllm_batch_defaults(memory_gib, device_name)
    } else {
        (p.max_batch, p.max_batched_tokens)
    }
}

/// vLLM's server defaults for `max_num_seqs` and `max_num_batched_tokens` (the chunked-prefill token budget per
/// step), which depend on the device (`EngineArgs.get_batch_defaults`, vllm/engine/arg_utils.py, V1 engine,
/// releases 0.8 to 0.27, OpenAI API server context): 1024 sequences and 8192 tokens on devices with at least
/// 70 GiB that are not A100s (H100, H200, MI300X, B200 — "setting large max_num_batched_tokens for A100 reduces
/// throughput", vLLM PR #17885), else 256 and 2048 (A100, L40S, RTX 4090, …). Later releases add tiers (40 GiB:
/// 512 / 4096; 160 GiB: 16384 tokens); the preset's figures follow the releases the served runs used.
#[must_use]
pub fn vllm_batch_defaults(memory_gib: f64, device_name: &str) -> (u32, u32) {
    if memory_gib >= 70.0 && !device_name.to_ascii_lowercase().contains("a100") {
        (1024, 8192)
    } else {
        (256, 2048)
    }
}

/// Bytes per element of the `rows × vocabulary` logits that vLLM's profile run holds at its sampler's peak.
/// PyTorch's own top-k/top-p path sorts fp32 logits beside their bf16 copy: 2 + 4 (logits) + 4 + 8 (sorted
/// values and int64 indices) + 8 (the sort's int64 iota) + 12 (cub's alternate key/value buffers) = 38 B
/// (`vllm/v1/sample/ops/topk_topp_sampler.py` `apply_top_k_top_p`; PyTorch `SortStable.cu`; the 12 B buffer is the
/// "Tried to allocate 1.74 GiB" of 1024 × 151,936 in vLLM issue #15105). FlashInfer's sampler needs about 14 B
/// (the official container images up to 0.11.0 ship it), but it is opt-in from 0.11.1 and absent from a plain
/// package install, so the default is the PyTorch path.
pub const VLLM_SAMPLER_BYTES: f64 = 38.0;

/// vLLM's memory per device outside the weights and the KV cache, GiB (the V1 engine, 0.9–0.11): the KV cache
/// gets `gpu_memory_utilization × memory − weights − peak activation − non-torch increase`, all measured by a
/// profile run (`gpu_worker.py` `determine_available_memory`). The profile runs one forward pass of
/// `max_num_batched_tokens` tokens and then the sampler over `min(max_num_seqs, max_num_batched_tokens)` rows of
/// logits over the **full** vocabulary (all-gathered on every tensor-parallel rank), one after the other, so the
/// peak is the larger of:
///
/// - sampler: rows × vocabulary × [`VLLM_SAMPLER_BYTES`] + the step's hidden states (tokens × hidden × 2 B);
/// - forward: tokens × 2 B × (3 × MLP width ÷ TP + 4 × hidden) (gate/up output, activation, residual and norm
///   buffers of one layer; the MLP width, or top-k experts' width for MoE, is taken from the active parameters
///   per layer less attention);
///
/// plus the non-torch increase (NCCL and custom all-reduce buffers): 0.05 GiB on one device, about 0.6 with tensor
/// parallelism (0.2–1.9 logged). CUDA graphs, the CUDA context and (from 0.11) NCCL's start-up buffers come out of
/// the `1 − gpu_memory_utilization` headroom, not the KV cache. Of nine logged launches (vLLM 0.9.2–0.11.0 on H100,
/// H200, A100, L40S and a 24 GiB card, one to four devices, dense, MoE and multimodal; vLLM issues #23278, #27508,
/// #25970 and launch logs) this gives five within 0.2 GiB; the tensor-parallel launches over NVLink logged 1.4–1.9
/// GiB of NCCL buffers (up to 0.8 GiB over the fixed 0.6), one ran speculative decoding (a second full-vocabulary
/// tensor, not modelled) and one FlashInfer's sampler (3.6 GiB less). With each launch's own non-torch memory and
/// sampler the formula gives eight of nine within 0.2 GiB. The MLP width is estimated as if attention were
/// multi-head (DeepSeek's latent attention has fewer weights, so its width comes out low), which matters only
/// where one step's activations, not the sampler, set the peak. At the H100 defaults (1,024 rows) the sampler alone
/// holds 7.3 GiB for gpt-oss's 201k vocabulary, 5.5 for Qwen's 152k, 4.7 for Llama-3's 128k: gpt-oss-120b on one
/// H100 logs "Available KV cache memory: -2.14 GiB" (#23278) where a flat 1.5 GiB reserve left 11 GB. Until
/// 2026-12 the reserve was that flat 1.5 GiB. vLLM 0.8 also counts the CUDA context (≈ 0.5 GiB more), later
/// releases profile CUDA-graph memory too (from 0.21): neither is modelled.
#[must_use]
pub fn vllm_reserve_gib(d: &crate::model::roofline::Deployment) -> f64 {
    let (m, tp) = (&d.model, d.hardware.parallel_devices());
    // Under DP attention each rank profiles its own limits (the scenario's are the server's).
    let tokens = f64::from(d.chunk_tokens());
    let rows = f64::from(d.rank_batch().min(d.chunk_tokens()));
    let h = f64::from(m.hidden);
    let sampler = rows * f64::from(m.vocab) * VLLM_SAMPLER_BYTES + tokens * h * 2.0;
    // The MLP width from the active parameters per layer: less the embedding and the head, less attention.
    let embeddings = f64::from(m.vocab) * h * if m.tied_embeddings { 1.0 } else { 2.0 };
    let per_layer = (m.active_params_b * 1e9 - embeddings).max(0.0) / f64::from(m.layers.max(1));
    let attention = 2.0 * h * f64::from(m.attention_heads * m.head_dim) + 2.0 * h * f64::from(m.kv_heads * m.head_dim);
    let width = ((per_layer - attention) / (3.0 * h)).max(0.0);
    let forward = tokens * 2.0 * (3.0 * width / tp.max(1.0) + 4.0 * h);
    let non_torch = if tp > 1.0 { 0.6 } else { 0.05 };
    non_torch + sampler.max(forward) / crate::model::units::GIB
}

/// Whether `d` runs vLLM with the reserve [`vllm_reserve_gib`] gives it (not one the user set): told apart by
/// value, since the default is exactly that function of the deployment.
#[must_use]
pub fn has_vllm_default_reserve(d: &crate::model::roofline::Deployment) -> bool {
    d.engine.kind == crate::model::engine::EngineKind::Vllm && d.engine.reserve_gb == vllm_reserve_gib(d)
}

/// vLLM's and SGLang's compute efficiency by generation, fitted on served runs of current releases
/// (tests/data/serving.csv: vLLM and SGLang dense and MoE runs on A100 and H100/H200, with the other generations'
/// devices their balance sends there; `tests/fit.rs`; serving_new.csv's RTX 4090 runs are open-loop, whose
/// throughput is the offered load, so they inform no fit). The same engines on the same models reach a
/// much smaller share of Hopper's tensor peak than of Ampere's: H100's peak is 3.2 × A100's, its bandwidth 1.6 ×
/// and its power 1.75 ×, and the served runs gain about 1.3–1.6 × in throughput.
///
/// A generation without served runs takes the fitted generation whose **machine balance** (dense 16-bit tensor
/// peak ÷ memory bandwidth, FLOP per byte: [`served_reference`]) it shares: how large a share of the peak an
/// engine reaches falls as the peak outgrows the memory system that feeds it (the activations, the attention,
/// the non-GEMM kernels and the all-reduces all run at memory or link speed). B200, GB200, B300 and RTX PRO 6000
/// (281–312 FLOP/B), MI300X/MI325X/MI355X (218–315) and the Ada workstation boards (297–453) sit with Hopper
/// (206–378); RTX 30/40/50 cards (71–164), V100 (139), MI250X (117) and T4 (203) with Ampere (153–215). Until
/// 2026-12 such generations took 0.5 flat; the balance rule was checked on the TensorRT-LLM perf overview's
/// Blackwell rows held out (their own fit is 0.28; the rule gave Hopper's 0.30, the flat prior 0.5) — those rows
/// were its only test until 2026-12-03. (Held out, a C++ engine takes this efficiency, without the Python engines'
/// per-sequence cost: tests/common/serving.rs `held_out_cpp_compute`.)
///
/// **Tested across sources since 2026-12-03, and not confirmed for Hopper.** The fit now pools every device the
/// rule sends to a generation, on the runs whose throughput the efficiency moves (tests/common/serving.rs
/// `fit_served_compute`): GPUStack's 30 H100/H200 runs fit about 0.26–0.27, but the other sources' 7 informative
/// Hopper-class runs (SGLang's cookbook on 8 × B200 and 8 × MI300X — large MoE models, where the MoE kernel factor
/// confounds η_fl — and vLLM's recipes on one MI355X, 8k prompts) fit 0.5. Held out, GPUStack takes 0.5 and its H100
/// runs come out 1.3–3 × too fast: which of the two a new Hopper-class device follows is open. One L4 (Ada, balance
/// 403; ree2raz/inference-bench, vLLM 0.8.5, Qwen2.5-7B, closed loop at 1–64 users) at Hopper's value comes within
/// 1–3 % of its throughput at 1 and 4 users and its TPOT P50 within 4 % up to 16 users (8 and 16 % under at 32 and
/// 64) — but its short prompts test decode far more than compute. The RTX 4090 below stays a question of one source.
///
/// **Part of the disagreement was memory (2026-12-03).** With vLLM's reserve following its profile run
/// ([`vllm_reserve_gib`]: 4.7–7.4 GiB on an H100 at vLLM's defaults, not a flat 1.5), GPUStack's one-H100 gpt-oss-120b
/// and Qwen3-32B runs no longer decode at batches their KV cache cannot hold (gpt-oss-120b had 11 GB of KV in the
/// model where vLLM logs 1.7 GiB or less), and the pooled Hopper fit moves 0.26 → 0.33 over 44 informative runs.
/// Held out, GPUStack's output tok/s comes within 20.6 % median (ratio 1.06), against 34.0 % (1.30) before.
///
/// **The RTX 4090 looks faster than Ampere's share (found 2026-12-03, not adopted).** IOG's vLLM 0.8.5 runs on one
/// RTX 4090 (Llama-3.1-8B, ShareGPT, 200 requests at 1–32 req/s, open loop) are the only served Ada runs; at
/// Ampere's 0.56 the model saturates at 16 req/s (TTFT P95 2.1 s, TPOT P50 51 ms, 772 tok/s) where the run
/// measured TTFT P99 195 ms, TPOT P50 33 ms and 1,353 tok/s: the prompts' GEMMs (~35 ms of compute per 206-token
/// prompt at 0.56 × 165 TFLOPS) crowd out decode. At η_fl 0.8 (132 of its 165 dense FP16 TFLOPS) with the ShareGPT
/// spread at 0.6, the five loads come out at TTFT P50 39/45/51/76 ms (measured 40/50/60/74), TPOT P50
/// 20.8/23.0/26.3/35.6 (19.2/22.6/26.9/32.8) and 221/754/1,059/1,095 tok/s (223/727/1,112/1,353). One source only, and held out it would take the reference's value again,
/// so leave-one-source-out cannot see it: an Ada class needs a second served source before it is fitted.
///
/// **The second served Ada source says Ampere's share (2026-12-03).** A blog's vLLM sweep of Mistral-7B-Instruct-v0.3
/// on one RTX 4090 (random 256-token prompts, outputs stopping at end-of-sequence — 100 tokens on average, 128 at
/// most —, 300 requests at 4–48 users; engine version not stated, so it fits nothing) comes out at this value within
/// 1.5 % median in output tok/s (−8, −4, −1, +1, 0 % from 4 to 48 users), at 0.8 within 6.5 % (+14 and +16 % at 32
/// and 48 users): the capacity, which is what η_fl sets, follows the balance rule, and IOG's open-loop runs (whose
/// throughput is their offered load) stay the exception, their latencies unexplained. tests/serving.rs
/// `ada_second_source_takes_the_balance_rule`. Its TTFT P50 comes out right at 4 and 8 users (63 and 64 ms against
/// 53 and 55) and far too short at 32 and 48 (93 and 112 against 277 and 840, the median above the mean): a queue
/// the GPU's capacity does not explain — one lead is the API server's own process (Mistral's tokenizer mode,
/// one streamed message per token), not modelled.
#[must_use]
pub fn served_compute(arch: Architecture, balance: Option<f64>) -> f64 {
    match served_reference(arch, balance) {
        Architecture::Ampere => SERVED_COMPUTE_AMPERE,
        _ => SERVED_COMPUTE_HOPPER,
    }
}

/// The generation a serving engine's default compute efficiency is borrowed from, when it is not the device's own
/// (vLLM and SGLang on a GPU of a generation without served runs fitted): the resolver's "Defaults used" and the
/// page's efficiency note say the same.
#[must_use]
pub fn compute_borrowed_from(engine: &str, kind: HardwareKind, arch: Architecture, balance: Option<f64>) -> Option<Architecture> {
    let from = served_reference(arch, balance);
    (from != arch && matches!(engine, "vllm" | "sglang") && crate::model::kernels::applies(crate::model::engine::EngineKind::of(engine), kind))
        .then_some(from)
}

/// The fitted generation (Ampere or Hopper) whose served compute efficiency a device takes: its own, or for
/// other generations the one on its side of [`SERVED_BALANCE_SPLIT`] (dense 16-bit tensor FLOP per byte of
/// bandwidth; an unknown balance takes Hopper's, the lower of the two efficiencies).
#[must_use]
pub fn served_reference(arch: Architecture, balance: Option<f64>) -> Architecture {
    match arch {
        Architecture::Ampere | Architecture::Hopper => arch,
        _ if balance.is_some_and(|b| b < SERVED_BALANCE_SPLIT) => Architecture::Ampere,
        _ => Architecture::Hopper,
    }
}

/// Machine balance (FLOP/B) between the served runs' Ampere devices (A100 80 GB: 153, 40 GB: 201) and Hopper
/// devices (H200: 206, H100 SXM: 295): the midpoint of the two generations' means, 177 and 250.
pub const SERVED_BALANCE_SPLIT: f64 = 210.0;

/// See [`served_compute`]. 0.35 until 2026-12, while the runs that release every request at once were scored
/// against the steady-state peak at the fullest batch instead of the finite run they were (A100's fullest batch,
/// 256, ran no queue at all); scored as those runs, A100's served runs fit 0.48; 0.58 since the serving engines
/// pay a cost per running sequence ([`SEQUENCE_OVERHEAD_US`]), which the flat efficiency had absorbed; 0.56 since
/// that cost is 30 µs (steps that carry prompt tokens pay their eager launch chain, `model::kernels`); 0.58 since
/// 2026-12-03, when the fit counts only runs whose throughput the efficiency moves (37 of the 44 current A100
/// runs; a new source's three short-prompt A100 runs, vLLM 0.20.1 with Qwen2.5-7B at 1–64 users, are decode-bound
/// and flat in η_fl: fitted with them the pooled value was 0.54, and held out of GPUStack the four non-GPUStack
/// A100 runs gave 0.25). At 0.54 the IOG RTX 4090 runs' low-load TTFT residual (Ampere's efficiency by balance)
/// fell to 0, so a held-out source could take a vLLM front end of 0 ms and with it no front-end jitter to pull
/// closed-loop users out of lock-step (ree2raz's TTFT at 4 users 60 ms against 123 measured): the simulator's
/// closed-loop drift comes from the front end alone (`sim`'s tail-latency notes), a coupling that should go.
/// 0.52 since 2026-12-04, when an A100 80GB PCIe source joined (cssnoeasy/a100-vllm-benchmark-blog, vLLM 0.19 in
/// eager mode, Qwen3-32B at 4–32 users with 512- and 2,048-token prompts: 30 runs, 24 of them moved by η_fl):
/// pooled over 61 runs the fit is 0.52. Held out (leave-one-source-out, every default refitted without it), that
/// source was predicted within 6.2 % (median output tok/s), and GPUStack's runs held out went from 1.28 × their measured output to
/// 0.97 × (median) with the new source in the others' fit: the lower value generalises better. (The PCIe board's
/// 300 W against the SXM board's 400 W may hold its sustained tensor rate lower; one source cannot tell that
/// apart from the pooled value, so both boards take it.)
pub const SERVED_COMPUTE_AMPERE: f64 = 0.52;
/// See [`served_compute`]. 0.30 until the per-sequence cost ([`SEQUENCE_OVERHEAD_US`]) took its share of the
/// large batches' time. The pooled fit of 2026-12-03 (45 informative runs of every Hopper-class device) gives 0.27;
/// 0.26 was kept within the fit test's 0.02, since moving it would move the fits that depend on it (front ends, CV).
/// 0.33 since vLLM's reserve follows its profile run ([`vllm_reserve_gib`]): GPUStack's one-H100 gpt-oss-120b and
/// Qwen3-32B runs had run at batches their KV cache could not hold, and the fit had slowed the compute to match.
pub const SERVED_COMPUTE_HOPPER: f64 = 0.33;

/// Whether the engine's steps carry prompt chunks and decodes together by default (`EngineParams::mixed_batches`):
/// the model's default is yes for every engine. vLLM's V1 engine schedules the running sequences' decodes first and
/// fills the step's token budget with prompt chunks; TensorRT-LLM's in-flight batching, LMDeploy's TurboMind and
/// llama.cpp's server also put both in one batch. SGLang's own scheduler does not: it runs a prefill batch whenever
/// one can be formed ("run prefill first if possible", `Scheduler::get_next_batch_to_run`) and mixes decodes into
/// it only with `--enable-mixed-chunk` (`enable_mixed_chunk = False` in its server arguments, 0.4 to 0.5); the
/// scenario's `engine.mixed_batches: false` (the page's "Prompt steps") simulates that.
///
/// Why SGLang still defaults to shared steps here (measured 2026-12-07; `tests/serving.rs`,
/// `sglang_prompt_steps_apart`, prints both on SGLang's current served runs, in-sample): with prompt steps apart the
/// runs that release every request at once come out nearer (15 runs, 1,000-prompt bursts: output 24.0 → 14.4 %
/// median error, TPOT mean 0.57 → 0.70 × the measured; SGLang reads prompts while memory lasts and the decodes wait),
/// and fixed-length closed loops lock into waves whose TTFT grows with the users, as an older release's DeepSeek-R1
/// runs do (dstack: 2.2 s at 8 users to 22 s at 128, where shared steps keep the users apart). But the paced runs'
/// TPOT, the figure most users size on, moves the other way: in-sample TPOT mean / P50 11.9 / 13.3 → 14.1 / 14.0 %
/// (P99 20.4 → 19.8 %), and held out on every current engine's paced runs 13.2 / 13.3 / 16.6 → 14.2 / 14.0 / 18.2 %
/// (the compute-efficiency fits unchanged). Made the default, it also moves the compute efficiency vLLM and SGLang
/// share: held out of GPUStack, Hopper's fit went 0.34 → 0.21 on the 11 runs left, a median between two clusters of
/// runs, and vLLM's held-out output with it (11.2 → 12.7 %). Until the engines' efficiencies are fitted apart, the
/// default stays where the paced runs are best, and the page, the defaults list and the reproduce commands say which
/// SGLang setting it is (`--enable-mixed-chunk`).
#[must_use]
pub fn mixed_batches(_engine: &str) -> bool {
    true
}

/// Per running sequence and step, µs, of the Python serving engines (vLLM, SGLang): what a decode step costs for
/// each sequence beyond the bytes and FLOPs the roofline counts — the scheduler's bookkeeping, building the step's
/// inputs (block tables, slot mappings, positions), the sampler (vLLM's default top-p/top-k path sorts the whole
/// vocabulary of every sequence), and turning sampled ids into output. Published profiles (summarised in
/// [`SEQUENCE_OVERHEAD_US`]) put it at 20–35 µs for vLLM's V1 engine; 0 for llama.cpp, TensorRT-LLM and
/// LMDeploy (C++ schedulers; their efficiencies are fitted on their own rows with none).
#[must_use]
pub fn sequence_overhead_us(engine: &str) -> f64 {
    match engine {
        "vllm" | "sglang" => SEQUENCE_OVERHEAD_US,
        _ => 0.0,
    }
}

/// See [`sequence_overhead_us`]. Why: the served runs showed a batch-dependent miss one compute efficiency per
/// GPU generation could not follow — on one A100, vLLM's compute-bound steps at 10–60 sequences (prefill-heavy
/// offline runs of 14–32B models) were 40–100 % slower in the model than measured while its steps at 200+
/// sequences were 12–21 % faster, and one RTX 4090 at 32–42 sequences decoded 45–80 % slow: the fitted η_fl was
/// a compromise between a GEMM rate (which the small batches show) and a cost that grows with the batch. What the
/// engines' own traces say (their issues and PRs): vLLM V1's gap between decode steps at 256 sequences was 5–6 ms
/// before asynchronous scheduling (vllm#10634, ~20 µs per sequence); PyTorch's top-p/top-k masking at 256
/// sequences and a 131k vocabulary takes 3.8 ms (vllm PR #32558, ~15 µs per sequence), the default sampler path
/// in 0.8–0.11; vLLM V0 spent ~20 ms between steps at 200 sequences (vllm#6801). SGLang overlaps its scheduler
/// with the GPU, but samples and post-processes per sequence too. 40 µs is where the served runs'
/// leave-one-source-out table is best over 0–60 µs (a flat optimum: 30 µs gives output tok/s 24.9 %, TPOT
/// mean/P50 19.7/20.5 %; 40 µs 22.7 / 19.2 / 19.7 %; 60 µs 20.6 / 21.1 / 19.0 %; none 29.6 / 25.8 / 24.0 %),
/// a little above the profiles' 20–35 µs; one value for both engines (SGLang at 5 µs was worse: TPOT 23.4 %).
/// In-sample (tests/fit.rs, η_fl refitted for each value) the optimum is as flat: 30 and 40 µs within 0.003 of
/// median |log error|. With it, the served compute efficiencies refit to Ampere 0.58 (was 0.48) and Hopper 0.26 (was 0.30), the front
/// end's CV to 0.60, SGLang's front end to 40 ms and the PCIe all-reduce to 80 µs (then one latency for every ring; now
/// 40 µs + 10 µs per ring step, `model::roofline::PCIE_ALLREDUCE_LATENCY_S`). Known miss: SGLang overlaps its
/// scheduler with the GPU, so its exposed share is smaller; the shared value leaves DeepSeek-R1 on 8 × H200 under
/// SGLang decoding 33–39 % slow at 16–64 users (tests/validation/outside.rs). Does not scale with tensor
/// parallelism: a replica's system tok/s flattens towards 1 ÷ 30 µs ≈ 33,000 tok/s at large batches.
///
/// 30 µs since 2026-12-02 (was 40): once steps that carry prompt tokens pay their eager launch chain
/// (`model::kernels::EAGER_LAUNCH_S`), part of what the per-sequence cost had absorbed is accounted for, and the
/// in-sample optimum (tests/fit.rs, η_fl refitted per value) moved to 20–30 µs: median |log error| of output tok/s
/// / TPOT mean 0.182 / 0.108 at 20 µs, 0.184 / 0.107 at 30, 0.192 / 0.129 at 40 — now inside the profiles' 20–35 µs.
pub const SEQUENCE_OVERHEAD_US: f64 = 30.0;

/// Per-request front-end time of a serving engine, ms: what every TTFT holds beyond the forward passes (HTTP,
/// chat template, tokenisation, hand-off to the scheduler, detokenising and streaming the first token).
/// Fitted by `tests/fit.rs` on the low-load served runs of tests/data/serving.csv (closed loop at ≤ 8 users:
/// measured TTFT P50 − the model's prefill and first step, median per engine); 0 for llama.cpp, whose data are
/// llama-bench runs without a server, and for engines without served runs (TGI, LMDeploy and the generic
/// engine take vLLM's figure).
#[must_use]
pub fn request_overhead_ms(engine: &str) -> f64 {
    match engine {
        "llama.cpp" => 0.0,
        "sglang" => SGLANG_REQUEST_OVERHEAD_MS,
        "tensorrt-llm" => TRTLLM_REQUEST_OVERHEAD_MS,
        _ => VLLM_REQUEST_OVERHEAD_MS,
    }
}

/// Coefficient of variation of the front-end time from request to request (lognormal), fitted by
/// `tests/fit.rs` on the low-load served runs' TTFT P99 (0.5 while SGLang's front end was 68 ms; 0.7 since part
/// of that proved to be prefill: a smaller mean front end needs a wider spread for the same measured tail; 0.65
/// since A100's served compute efficiency is 0.48, not 0.35; 0.60 with the per-sequence cost,
/// [`SEQUENCE_OVERHEAD_US`]; 0.50 since the eager launch chain of prompt steps, `model::kernels`, took most of
/// the mean front end; 0.90 since 2026-12-03, when vLLM's mean front end went 2 → 8 ms with a third deployment
/// in its fit: the fit's median |log error| of TTFT P99 is 0.357 at 0.6, 0.355 at 0.8, 0.310 at 0.9 and 0.336 at
/// 0.95 — a dip on a plateau from 0.6, so the tail is known to that range, not to the step; 1.05 since 2026-12-04,
/// when SGLang's front end went 22 → 14 ms with its cookbook's uniform random lengths: the same measured tails over
/// a smaller mean, as in 2026-11); 1.15 since 2026-12-06. That day a fifth vLLM deployment (one H200, vLLM 0.14.1,
/// eight runs at 0.5–3 req/s with tight tails: P99 72–86 ms over P50 57–64) took the fit, then a median over the
/// pooled runs, to 0.55 — the pooled median is flat within 0.31–0.38 from 0.45 to 1.25 — so the fit now weighs each
/// source once (the mean over sources of each one's median |log error|): 0.95 with that source and without it at
/// vLLM's 8 ms front end, 1.15 at the 6 ms that source moved it to ([`VLLM_REQUEST_OVERHEAD_MS`]; a smaller mean, a
/// wider spread for the same measured tails, as before). That source's own P99s come out about 35 % high.
pub const REQUEST_OVERHEAD_CV: f64 = 1.15;

/// vLLM's per-request front-end time, ms (see [`request_overhead_ms`]). 12 ms until 2026-12-02, when steps
/// that carry prompt tokens started to pay their eager launch chain (`model::kernels::EAGER_LAUNCH_S`:
/// an 8B model's prompt step: 50 µs × 32 layers × 11 kernels = 17.6 ms): what was left of the low-load TTFT residual is 2 ms.
///
/// That median hides two deployments that disagree (looked at 2026-12-03, in-sample residuals): IOG's vLLM 0.8.5 on
/// one RTX 4090 (Llama-3.1-8B and Qwen2.5-7B, ShareGPT at 1 req/s) leaves about −6 ms (its measured TTFT P50 of
/// 34–44 ms is prefill and the launch chain alone), GPUStack's vLLM 0.11 on one H100 (Qwen3-8B, ShareGPT, 1–8
/// users) leaves about +39 ms: 60 ms at every concurrency from 1 to 8, where SGLang 0.5 on the same machine and
/// prompts measures 27 ms and TensorRT-LLM 45 ms. A constant that does not move with load is per-request work
/// outside the GPU (the deployment's API server or proxy; a TCP delayed-ACK stall on a keep-alive stream has this
/// signature, ~30–40 ms per request: pegainfer PR #23, rtp-llm PR #1080), not physics the model can derive; held out, each source takes the other's figure, which is most of the served runs' leave-one-source-out
/// TTFT P50 error on vLLM. Calibration on one light run of the user's own deployment removes it
/// (`plan::calibrate`: the front end is one of its parameters; TTFT P50 of the other loads 17.2 % after, 13.6 %
/// before the L4 and A100 runs of a sixth source joined).
///
/// 8 ms since 2026-12-03, when a third deployment joined the fit: ree2raz/inference-bench's own closed-loop client
/// (a new HTTP connection per streamed chat request, on localhost) against vLLM 0.8.5 on one L4 and vLLM 0.20.1 on
/// one A100 40 GB, Qwen2.5-7B, 43-token prompts: +7 to +8 ms at one user on both GPUs. The median of the 16
/// low-load runs moved from the IOG side (−6 ms) to the middle. 6 ms since 2026-12-06 (5.9 over 21 runs), when a
/// fifth deployment joined: vLLM 0.14.1 on one H200 (DigitalOcean's solutions team's raw `vllm bench serve` output,
/// Llama-3.1-70B FP8 at 0.5–3 req/s, ShareGPT prompts mostly in the prefix cache: `tests/data/serving_found.csv`).
pub const VLLM_REQUEST_OVERHEAD_MS: f64 = 6.0;
/// SGLang's, ms: 27 on GPUStack's H100 runs alone; with SGLang's own cookbook runs (8 × B200 / MI300X, whose
/// decode the model gets right since the kernel chain, `model::kernels`) the low-load residual was 68 ms, and
/// is 48 ms since B200 and MI300X prefill at Hopper's served compute efficiency (their machine balance,
/// [`served_reference`]) instead of a flat 0.5: part of what looked like front end was prefill; 40 ms since Hopper's
/// served η_fl is 0.26 with the per-sequence cost ([`SEQUENCE_OVERHEAD_US`]); 22 ms since prompt steps pay their
/// eager launch chain (`model::kernels`: 70 ms for DeepSeek-R1's, 61 layers × 23 kernels × 50 µs), which is most
/// of what a short prompt's TTFT on 8 GPUs is; 14 ms since 2026-12-04, when the cookbook's random lengths are read
/// as SGLang's `bench_serving` draws them (uniform from 1 to the configured length, mean half of it, not lognormal:
/// a one-user run's median prompt is longer than the lognormal's, so more of its TTFT is prefill).
pub const SGLANG_REQUEST_OVERHEAD_MS: f64 = 14.0;
/// TensorRT-LLM's `trtllm-serve`, ms (38 before the eager launch chain of prompt steps; one low-load run).
pub const TRTLLM_REQUEST_OVERHEAD_MS: f64 = 25.0;

/// All engines.
pub const ENGINES: &[EnginePreset] = &[
    EnginePreset { id: "llama.cpp", name: "llama.cpp (llama-server / llama-bench)", max_batch: 4, max_batched_tokens: 512, memory_utilization: 1.0, reserve_gb: 0.5, source: super::cited("llama.cpp server defaults: -np 4 (auto), -ub 512; compute buffers ≈ 0.3 GiB for an 8B model at -ub 512 (the logits alone: 128k vocabulary × 512 × 4 B = 0.25 GiB) plus the backend context") },
    // vLLM's reserve is computed from the model and the limits (`vllm_reserve_gib`); 1.5 is only this table's fallback.
    EnginePreset { id: "vllm", name: "vLLM", max_batch: 256, max_batched_tokens: 2048, memory_utilization: 0.9, reserve_gb: 1.5, source: super::cited("vLLM API server defaults: max_num_seqs 256, max_num_batched_tokens 2048 (1024 and 8192 on devices of at least 70 GiB other than A100: vllm_batch_defaults), gpu_memory_utilization 0.9") },
    EnginePreset { id: "sglang", name: "SGLang", max_batch: 1024, max_batched_tokens: 8192, memory_utilization: 0.88, reserve_gb: 1.0, source: super::cited("SGLang server args: chunked_prefill_size 8192, mem_fraction_static ≈ 0.88") },
    EnginePreset { id: "tensorrt-llm", name: "TensorRT-LLM", max_batch: 2048, max_batched_tokens: 8192, memory_utilization: 0.95, reserve_gb: 1.0, source: super::cited("trtllm-bench: max_batch_size 2048, max_num_tokens 8192; perf-overview runs use kv_cache_free_gpu_mem_fraction 0.95 (0.90 on OOM)") },
    EnginePreset { id: "lmdeploy", name: "LMDeploy TurboMind", max_batch: 256, max_batched_tokens: 8192, memory_utilization: 0.85, reserve_gb: 1.0, source: super::cited("LMDeploy TurbomindEngineConfig: cache_max_entry_count 0.8 of free memory") },
    EnginePreset { id: "generic", name: "Generic engine", max_batch: 64, max_batched_tokens: 2048, memory_utilization: 0.9, reserve_gb: 1.0, source: super::cited("middle-of-the-road defaults") },
];

/// Finds an engine by id (case-insensitive; `llamacpp`, `llama-cpp`, `trt-llm` accepted).
#[must_use]
pub fn find(id: &str) -> Option<&'static EnginePreset> {
    let id = match id.to_ascii_lowercase().as_str() {
        "llamacpp" | "llama-cpp" | "llama_cpp" => "llama.cpp".to_string(),
        "trt-llm" | "trtllm" | "tensorrt_llm" => "tensorrt-llm".to_string(),
        other => other.to_string(),
    };
    ENGINES.iter().find(|e| e.id == id)
}

/// MoE expert kernels relative to dense ones in the serving engines (see [`Efficiency::moe`]).
pub const SERVING_MOE_EFFICIENCY: f64 = 0.5;

/// Default efficiencies for an engine on a hardware kind (see the module docs for where they come from).
#[must_use]
pub fn efficiency(engine: &str, kind: HardwareKind, arch: Architecture, balance: Option<f64>) -> Efficiency {
    use HardwareKind as K;
    // Serving engines run MoE experts as grouped GEMMs over tensor-parallel slices at about half a dense layer's
    // efficiency (fitted on TensorRT-LLM's Qwen3-235B-A22B rows by tests/fit.rs); llama.cpp's gpt-oss rows need
    // no such factor.
    let moe = if engine == "llama.cpp" { 1.0 } else { SERVING_MOE_EFFICIENCY };
    let e = |bandwidth, compute, overhead_ms, overhead_us_per_layer| Efficiency {
        bandwidth,
        kv_bandwidth: bandwidth,
        compute,
        moe,
        overhead_ms,
        overhead_us_per_layer,
    };
    let kv = |e: Efficiency, kv_bandwidth| Efficiency { kv_bandwidth, ..e };
    match (engine, kind) {
        // Fitted on the XiongjieDai llama-bench tgN / ppN rows (tests/fit.rs): η_bw, η_kv (one value for the CUDA
        // kinds: the attention kernels are the software's), η_fl and the per-layer overhead. The overhead is large
        // on datacenter GPUs and Apple (2024 builds are launch/latency-bound there); attention without flash
        // attention reads the KV cache at about half the weight-streaming rate (Metal: a seventh).
        ("llama.cpp", K::ConsumerGpu) => kv(e(0.93, 0.645, 0.0, 93.0), 0.38),
        ("llama.cpp", K::WorkstationGpu) => kv(e(0.88, 0.26, 0.0, 79.0), 0.38),
        ("llama.cpp", K::DatacenterGpu) => kv(e(0.61, 0.24, 0.0, 123.0), 0.38),
        ("llama.cpp", K::AppleSilicon) => kv(e(0.84, 0.61, 0.0, 214.0), 0.15),
        // No single-stream rows: CPU from typical STREAM-to-spec ratios; other (DGX Spark, APUs) like CUDA GPUs.
        ("llama.cpp", K::Cpu) => e(0.60, 0.40, 0.0, 100.0),
        ("llama.cpp", K::Other) => kv(e(0.85, 0.60, 0.0, 100.0), 0.38),
        // η_fl fitted on TensorRT-LLM perf-overview offline throughput (tests/fit.rs). 0.35 is an *effective*
        // figure: it absorbs what the roofline does not model (TP/EP inefficiency grows with the TP degree, MoE
        // dispatch, scheduling gaps); large-GEMM kernels alone reach 0.6–0.7.
        // On GPUs the per-layer overhead of the serving engines is their kernel chain's launch gaps, set at
        // resolution from the model (`model::kernels`); the per-step time is the scheduler's and the sampler's.
        ("tensorrt-llm", _) => e(0.85, trtllm_compute(arch), 0.5, 10.0),
        // Fitted on LMDeploy A100 static batches.
        ("lmdeploy", _) => e(0.80, 0.50, 0.5, 10.0),
        ("vllm" | "sglang", K::DatacenterGpu | K::WorkstationGpu | K::ConsumerGpu) => e(0.80, served_compute(arch, balance), 1.0, 10.0),
        ("vllm" | "sglang", _) => e(0.70, 0.40, 1.0, 10.0),
        (_, K::AppleSilicon) => e(0.70, 0.50, 0.5, 15.0),
        (_, K::Cpu) => e(0.55, 0.35, 0.5, 10.0),
        _ => e(0.75, 0.45, 0.8, 10.0),
    }
}

#[cfg(test)]
mod build_tests {
    #[test]
    fn llama_cpp_builds_are_dated() {
        use super::llama_cpp_current_build as cur;
        assert!(cur(None));
        assert!(!cur(Some("May 2024 build (not pinned); CUDA 12.1.1")));
        assert!(!cur(Some("Dec 2023 (build 1691)")));
        assert!(!cur(Some("b3447")));
        assert!(!cur(Some("build 2811")));
        assert!(cur(Some("b7315")));
        assert!(cur(Some("build 4d3726278 (7315)")));
        assert!(cur(Some("build 57291f264 (container ghcr.io/ggml-org/llama.cpp:full-cuda)")));
        assert!(cur(Some("commit da5b448")));
        assert!(cur(Some("not stated (PR #787: native sm_120 build with CUDA 13.3)")));
    }
}
