//! Quantisation formats: effective bits per weight and the dtype the matmuls run in.
//!
//! Weight bytes = parameters × effective bits per weight ÷ 8. "Effective" includes the block scales and
//! zero points stored beside the packed values, which is why Q4_0 is 4.5 bits and not 4:
//!
//! | format | bits | why |
//! |---|---|---|
//! | F32 | 32 | |
//! | F16, BF16 | 16 | |
//! | FP8 (E4M3) | 8 | per-tensor or per-channel scales are negligible |
//! | INT8 (W8A8, SmoothQuant) | 8 | |
//! | Q8_0 | 8.5 | 32 × int8 + one f16 scale per block (ggml) |
//! | Q6_K | 6.5625 | ggml k-quant super-block of 256 |
//! | Q5_K_M | 5.69 | mix of Q5_K (5.5) and Q6_K tensors (llama.cpp `quantize` table: 5.33 GB for 7B) |
//! | Q5_0 | 5.5 | |
//! | Q4_K_M | 4.85 | mix of Q4_K (4.5) and Q6_K (6.56); Llama-3-8B Q4_K_M ≈ 4.9 bpw |
//! | Q4_K_S | 4.58 | |
//! | Q4_0 | 4.5 | 32 × 4 bit + one f16 scale |
//! | IQ4_XS | 4.25 | |
//! | Q3_K_M | 3.91 | |
//! | Q2_K | 3.35 | |
//! | AWQ / GPTQ int4, group 128 | 4.156 | 4 bit + f16 scale + 4-bit zero per 128 weights |
//! | NVFP4 | 4.5 | E2M1 + FP8 scale per 16 values |
//! | MXFP4 | 4.25 | E2M1 + E8M0 scale per 32 values (OCP MX spec) |
//!
//! Sources: ggml `ggml-common.h` block layouts; llama.cpp `quantize` help table; OCP Microscaling spec v1.0;
//! NVIDIA "Introducing NVFP4" blog; AutoAWQ/GPTQ group-128 layout.
//!
//! Compute dtype: the matmul rate a format can use. Weight-only formats (GGUF k-quants, AWQ, GPTQ) dequantise
//! to F16 and use the F16 tensor rate; FP8 uses the FP8 rate where the hardware has it; NVFP4/MXFP4 use the
//! FP4 rate on parts with FP4 units, else F16 (weight-only); INT8 W8A8 uses the INT8 rate. A MoE model's own
//! MXFP4 release (gpt-oss) is multiplied at the rate its engine's activations allow ([`experts_only_fp4_rate`]).
//!
//! **Experts-only formats** ([`dense_part_bits`]): a MoE model released in MXFP4 (gpt-oss) quantises only the
//! routed experts' matrices; attention, router, embeddings and the head stay BF16 (the checkpoint's
//! `modules_to_not_convert`), and vLLM and SGLang run them so — vLLM reports "Model loading took 64.38 GiB" for
//! gpt-oss-120b on one H100 (vLLM issue #33155; 65.97 GiB with its Marlin path, #23278), where 4.25 bits over every
//! parameter give 57.8 GiB. llama.cpp's gpt-oss GGUF keeps those tensors at Q8_0 (59.02 GiB, 4.34 bits per weight
//! as llama.cpp prints it, llama.cpp issue #15253). What remains of vLLM's 64–66 GiB is its padding of the expert
//! matrices for its kernels (hidden 2,880 → 3,072), which this model does not count.

//! **The 16-bit head of the serving formats** ([`head_bits`], counted since 2026-12-05). AWQ, GPTQ, FP8, INT8,
//! NVFP4 and MXFP4 checkpoints keep the embedding table and the output head (`lm_head`) in 16 bits — AutoAWQ, GPTQ,
//! llm-compressor (`ignore=["lm_head"]`), ModelOpt and Quark skip them, and vLLM's on-the-fly FP8 quantises neither —
//! where this model had taken every weight at the format's bits. A teacher's trial found the ceiling it shows for Llama-3.1-8B
//! AWQ on an RTX 4090 20 % high: "1,008 GB/s ÷ 3.97 GB = 254 tok/s", where the release is 5.75 GB (1.05 GB of it
//! the 16-bit head) and a token reads about 4.75 GB (212 tok/s). Counting the head and embeddings at 16 bits under
//! every non-GGUF format below 16 (GGUF's bits are the file's own mix, Q4_K_M's head at Q6_K; bits typed by hand say
//! nothing of the head) gave that 212 and Llama-3.1-70B FP8 72.7 GB instead of 70.6 (its untied head and table,
//! 2 × 1.05 GB: no longer one H100 beside vLLM's reserve), refitted TensorRT-LLM's Hopper η_fl 0.47 → 0.49, and moved the served runs held out by source:
//! output 12.5 → 12.7 %, TTFT mean / P50 / P99 47.0 / 43.3 / 47.2 → 48.6 / 43.3 / 49.7 %, TPOT 15.0 / 15.5 / 18.4 →
//! 14.5 / 15.4 / 18.3 % — the DGX Spark's gpt-oss runs 22–27 points better in TTFT, Michaelvll's and simon-mo's
//! MoE runs on Hopper 4–9 points worse (the served efficiencies refitted without each source absorb the extra bytes).
//! The TTFT ratchets (47 / 48 %) held it back that morning; a new user's trial the same evening found the memory
//! short too — Qwen2.5-32B AWQ on 2 × RTX 4090 at 16.9 GB where the release is about 19.2, its KV space 25.2 GB where 22.9 are left —
//! and it was adopted: the checkpoints are what they are, and the ratchets follow the physics, not the reverse
//! (`tests/serving.rs` says what it moved). The head's matmul is counted at the format's rate, as the rest.

use serde::{Deserialize, Serialize};

/// The matmul dtype a format runs its prefill / large-batch GEMMs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ComputeDtype {
    Fp16,
    Fp8,
    Fp4,
    Int8,
}

/// One weight format of the table above.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WeightFormat {
    /// Id used in scenarios (`q4_k_m`).
    pub id: &'static str,
    /// Name shown to users.
    pub label: &'static str,
    /// Effective bits per weight including scales.
    pub bits: f64,
    /// Matmul dtype.
    pub compute: ComputeDtype,
}

/// All weight formats, in the order the page lists them.
pub const WEIGHT_FORMATS: &[WeightFormat] = &[
    WeightFormat { id: "f32", label: "F32", bits: 32.0, compute: ComputeDtype::Fp16 },
    WeightFormat { id: "f16", label: "F16", bits: 16.0, compute: ComputeDtype::Fp16 },
    WeightFormat { id: "bf16", label: "BF16", bits: 16.0, compute: ComputeDtype::Fp16 },
    WeightFormat { id: "fp8", label: "FP8 (E4M3)", bits: 8.0, compute: ComputeDtype::Fp8 },
    WeightFormat { id: "int8", label: "INT8 W8A8", bits: 8.0, compute: ComputeDtype::Int8 },
    WeightFormat { id: "q8_0", label: "GGUF Q8_0", bits: 8.5, compute: ComputeDtype::Fp16 },
    WeightFormat { id: "q6_k", label: "GGUF Q6_K", bits: 6.5625, compute: ComputeDtype::Fp16 },
    WeightFormat { id: "q5_k_m", label: "GGUF Q5_K_M", bits: 5.69, compute: ComputeDtype::Fp16 },
    WeightFormat { id: "q5_0", label: "GGUF Q5_0", bits: 5.5, compute: ComputeDtype::Fp16 },
    WeightFormat { id: "q4_k_m", label: "GGUF Q4_K_M", bits: 4.85, compute: ComputeDtype::Fp16 },
    WeightFormat { id: "q4_k_s", label: "GGUF Q4_K_S", bits: 4.58, compute: ComputeDtype::Fp16 },
    WeightFormat { id: "q4_0", label: "GGUF Q4_0", bits: 4.5, compute: ComputeDtype::Fp16 },
    WeightFormat { id: "iq4_xs", label: "GGUF IQ4_XS", bits: 4.25, compute: ComputeDtype::Fp16 },
    WeightFormat { id: "q3_k_m", label: "GGUF Q3_K_M", bits: 3.91, compute: ComputeDtype::Fp16 },
    WeightFormat { id: "q2_k", label: "GGUF Q2_K", bits: 3.35, compute: ComputeDtype::Fp16 },
    WeightFormat { id: "awq", label: "AWQ int4 g128", bits: 4.156, compute: ComputeDtype::Fp16 },
    WeightFormat { id: "gptq", label: "GPTQ int4 g128", bits: 4.156, compute: ComputeDtype::Fp16 },
    WeightFormat { id: "nvfp4", label: "NVFP4", bits: 4.5, compute: ComputeDtype::Fp4 },
    WeightFormat { id: "mxfp4", label: "MXFP4", bits: 4.25, compute: ComputeDtype::Fp4 },
];

/// Bits per weight of a MoE model's non-expert tensors when its weight format `format` quantises the experts only:
/// the model's own MXFP4 release (`native`), whose other tensors are BF16 under the serving engines and Q8_0 in
/// llama.cpp's GGUF. `None`: the format covers every tensor (any other format, or a dense model).
#[must_use]
pub fn dense_part_bits(format: Option<&str>, native: Option<&str>, engine: &str, moe: bool) -> Option<f64> {
    let experts_only = moe && native == Some("mxfp4") && format.is_some_and(|f| f.eq_ignore_ascii_case("mxfp4"));
    experts_only.then_some(if engine == "llama.cpp" { 8.5 } else { 16.0 })
}

/// The tensor rate a MoE model's own MXFP4 release (gpt-oss: the experts' weights in MXFP4, activations not
/// quantised) multiplies its experts at, on a device with FP4 tensor units: the FP4 × FP4 rate needs 4-bit
/// activations too, and what each engine feeds the 4-bit weights is its own choice.
/// - vLLM: 16-bit activations (W4A16). Its MXFP4 MoE backend picks only BF16-activation kernels by default
///   (FlashInfer's MXFP4 × BF16 on B200; Marlin, weight-only, on the 12.x parts — RTX 50, RTX PRO Blackwell, DGX
///   Spark: vLLM issues #30135, #31085, #40153, #41477); MXFP8 activations are opt-in
///   (`VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8=1`). So: the 16-bit rate.
/// - SGLang and TensorRT-LLM: 8-bit activations (W4A8: SGLang's FlashInfer MXFP4 runner quantises them to MXFP8
///   by default; TensorRT-LLM picks `W4A8_MXFP4_MXFP8` from SM 100). Blackwell multiplies a 4-bit by an 8-bit
///   operand (`kind::f8f6f4`) at its FP8 rate. So: the FP8 rate.
/// - llama.cpp: its MXFP4 runs like its other GGUF types, at the 16-bit rate (set where the format resolves,
///   `scenario`): on a DGX Spark its gpt-oss-20b prompts run at ≈ 21 TFLOPS (3,514 tok/s at 4,096 tokens, build
///   6918), where the FP4 rate had said 33,419 tok/s (a new user's trial, 2026-12-04; on an RTX 5090 the FP4 rate
///   had prefilled at 458 TFLOPS, twice the card's 16-bit peak). A native W4A4 path on Blackwell (llama.cpp PR
///   #17906, later builds) is not modelled.
/// - Other engines (LMDeploy, TGI, generic): no evidence either way; the 16-bit rate, like vLLM's default.
///
/// The release is recognised by its preset (`native`): MXFP4 typed for another MoE model, or for gpt-oss's shape
/// typed by hand, is taken as an FP4 × FP4 checkpoint (as AMD's Quark MXFP4 releases are) and keeps the FP4 rate.
///
/// Applied only to such a release on a device with FP4 units (without them 4-bit weights run at the 16-bit rate anyway,
/// [`crate::model::hardware::Hardware::peak_flops`]). The release's BF16 attention, router and head run at the
/// 16-bit rate whatever the experts do (`model::roofline`).
///
/// Before 2026-12-04 every engine ran these experts at the FP4 rate, and the one served source of the class (vLLM 0.26
/// on a DGX Spark, gpt-oss-20b, ~4,200-token prompts at 0.1–1 req/s) measured TTFT P50 747–1,265 ms where the model
/// said 348–516 (0.47 ×). With vLLM at the 16-bit rate it is 1.8 × too slow instead — the flat MoE kernel factor
/// (`engine.moe_efficiency`, 0.5 of a dense layer's rate, fitted on 128-expert TP8 deployments) charged on experts
/// that here see ~500 tokens each per step, where a grouped GEMM runs like a dense one; the same factor on the
/// experts' bytes makes gpt-oss's one-GPU TPOT 1.2–2 × too slow (`model::llm`). A factor that follows the tokens
/// per expert is the open step; this function states the rate, not a fit.
#[must_use]
pub fn experts_only_fp4_rate(engine: &str) -> ComputeDtype {
    match engine {
        "sglang" | "tensorrt-llm" => ComputeDtype::Fp8,
        _ => ComputeDtype::Fp16,
    }
}

/// The rate an engine multiplies a weight format at — the one place that decides it: the format's own
/// (`format`, from [`WeightFormat::compute`]) except where the engine's kernels do not run that rate.
/// - llama.cpp multiplies a 4-bit float format (MXFP4) like its other quantised GGUF types, through its int8/16-bit
///   kernels, not at an FP4 tensor rate: its gpt-oss-20b prompts on a DGX Spark run at 3,514 tok/s for 4,096 tokens
///   (≈ 21 TFLOPS, tests/data/batched.csv), where the FP4 rate had said 33,419.
/// - A release that quantises only the experts (`experts_only`: gpt-oss's MXFP4) on a device with FP4 units runs at
///   the rate its engine's activations allow ([`experts_only_fp4_rate`]).
///
/// Returns the rate and whether the second rule lowered it (the defaults list says so).
#[must_use]
pub fn engine_compute_dtype(format: ComputeDtype, engine: &str, experts_only: bool, fp4_units: bool) -> (ComputeDtype, bool) {
    match format {
        ComputeDtype::Fp4 if engine == "llama.cpp" => (ComputeDtype::Fp16, false),
        ComputeDtype::Fp4 if experts_only && fp4_units => {
            let rate = experts_only_fp4_rate(engine);
            (rate, rate != ComputeDtype::Fp4)
        }
        _ => (format, false),
    }
}

/// Bits per weight of the output head and the input embedding table under weight format `format`: 16 for the
/// serving formats below 16 bits (AWQ, GPTQ, FP8, INT8, NVFP4, MXFP4: their checkpoints keep both in 16 bits, and
/// vLLM's on-the-fly FP8 quantises neither), `None` for the rest — GGUF's bits are the file's own mix, its head
/// included (Q4_K_M's at Q6_K), bits typed by hand say nothing of the head, and a 16-bit format has nothing to keep.
#[must_use]
pub fn head_bits(format: Option<&str>) -> Option<f64> {
    let f = weight_format(format?)?;
    (!f.label.starts_with("GGUF") && f.bits < 16.0).then_some(16.0)
}

/// Looks a weight format up by id (case-insensitive).
#[must_use]
pub fn weight_format(id: &str) -> Option<&'static WeightFormat> {
    WEIGHT_FORMATS.iter().find(|f| f.id.eq_ignore_ascii_case(id))
}

/// The weight format a model's name states, if one does: `…-AWQ`, `…-FP8`, `….w8a8`, `…-bnb-4bit`,
/// `…-Q4_K_M.gguf` (a run's file names its model, rarely its format; a trial compared an AWQ run with a BF16
/// scenario unwarned). Tokens are split at anything but letters, digits and `_`. A bit width named beside a method
/// decides the bits (`…-GPTQ-Int8` is Qwen's 8-bit GPTQ release, a review: not GPTQ's usual 4 bits): `int8`, `w8a8`
/// and `8bit` are 8 bits (INT8), `int4`, `w4a16` and `4bit` 4 (the AWQ or GPTQ named beside, else GPTQ's bits);
/// `fp16` is F16; otherwise the first token that is a format's id.
#[must_use]
pub fn stated_in_name(name: &str) -> Option<&'static WeightFormat> {
    let lower = name.to_ascii_lowercase();
    let tokens: Vec<&str> = lower.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).collect();
    let has = |t: &str| tokens.contains(&t);
    if ["int8", "w8a8", "8bit"].iter().any(|t| has(t)) {
        return weight_format("int8");
    }
    if ["int4", "w4a16", "4bit"].iter().any(|t| has(t)) {
        return weight_format(if has("awq") { "awq" } else { "gptq" });
    }
    tokens.iter().find_map(|t| weight_format(if *t == "fp16" { "f16" } else { t }))
}

/// One KV-cache dtype.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KvFormat {
    /// Id used in scenarios.
    pub id: &'static str,
    /// Bytes per stored element, including block scales.
    pub bytes: f64,
}

/// KV-cache dtypes. Q8_0 and Q4_0 carry an f16 scale per 32 values (llama.cpp `-ctk q8_0`).
pub const KV_FORMATS: &[KvFormat] = &[
    KvFormat { id: "f32", bytes: 4.0 },
    KvFormat { id: "fp16", bytes: 2.0 },
    KvFormat { id: "f16", bytes: 2.0 },
    KvFormat { id: "bf16", bytes: 2.0 },
    KvFormat { id: "fp8", bytes: 1.0 },
    KvFormat { id: "q8_0", bytes: 34.0 / 32.0 },
    KvFormat { id: "q4_0", bytes: 18.0 / 32.0 },
];

/// Looks a KV dtype up by id (case-insensitive).
#[must_use]
pub fn kv_format(id: &str) -> Option<&'static KvFormat> {
    KV_FORMATS.iter().find(|f| f.id.eq_ignore_ascii_case(id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_models_name_states_its_weight_format_or_none() {
        let id = |n: &str| stated_in_name(n).map(|f| f.id);
        assert_eq!(id("RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w8a8"), Some("int8"));
        assert_eq!(id("unsloth/Llama-3.2-3B-Instruct-bnb-4bit"), Some("gptq"));
        assert_eq!(id("Qwen/Qwen3-235B-A22B-Instruct-2507-FP8"), Some("fp8"));
        assert_eq!(id("/models/Meta-Llama-3.1-8B-Instruct-IQ4_XS.gguf"), Some("iq4_xs"));
        assert_eq!(id("model-fp16.gguf"), Some("f16"));
        // A bit width beside a method decides the bits (a review: Qwen's 8-bit GPTQ release had read as 4 bits).
        assert_eq!(id("Qwen/Qwen2.5-7B-Instruct-GPTQ-Int8"), Some("int8"));
        assert_eq!(id("gemma-2-9b-it-int4-awq"), Some("awq"));
        assert_eq!(id("Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4"), Some("gptq"));
        assert_eq!(id("meta-llama/Llama-3.1-8B-Instruct-FP8-KV"), Some("fp8"));
        assert_eq!(id("mistral-7b-instruct-v0.2.Q4_K_M.gguf"), Some("q4_k_m"));
        assert_eq!(id("Qwen2.5-7B-Instruct-1M"), None);
        for plain in ["openai/gpt-oss-120b", "deepseek-ai/DeepSeek-R1", "meta-llama/Llama-3.1-8B-Instruct", "", "Q4"] {
            assert_eq!(id(plain), None, "{plain}");
        }
    }

    #[test]
    fn experts_only_mxfp4_runs_at_its_engines_activation_rate() {
        assert_eq!(experts_only_fp4_rate("vllm"), ComputeDtype::Fp16);
        assert_eq!(experts_only_fp4_rate("sglang"), ComputeDtype::Fp8);
        assert_eq!(experts_only_fp4_rate("tensorrt-llm"), ComputeDtype::Fp8);
        assert_eq!(experts_only_fp4_rate("lmdeploy"), ComputeDtype::Fp16);
    }

    /// One function decides the rate: llama.cpp's 4-bit floats at the 16-bit rate whatever the device, an
    /// experts-only release at its engine's activation rate on FP4 units only, every other format at its own.
    #[test]
    fn the_engines_rate_follows_the_format_the_engine_and_the_release() {
        use ComputeDtype::{Fp16, Fp4, Fp8};
        assert_eq!(engine_compute_dtype(Fp4, "llama.cpp", true, true), (Fp16, false));
        assert_eq!(engine_compute_dtype(Fp4, "llama.cpp", false, false), (Fp16, false));
        assert_eq!(engine_compute_dtype(Fp4, "vllm", true, true), (Fp16, true));
        assert_eq!(engine_compute_dtype(Fp4, "sglang", true, true), (Fp8, true));
        // Without FP4 units the hardware's peak takes 4-bit weights at the 16-bit rate anyway; an FP4 × FP4 checkpoint keeps FP4.
        assert_eq!(engine_compute_dtype(Fp4, "vllm", true, false), (Fp4, false));
        assert_eq!(engine_compute_dtype(Fp4, "vllm", false, true), (Fp4, false));
        assert_eq!(engine_compute_dtype(Fp8, "llama.cpp", false, true), (Fp8, false));
    }

    #[test]
    fn q4_0_is_four_and_a_half_bits() {
        // 32 weights × 4 bit + 16-bit scale = 144 bits per 32 weights.
        assert_eq!(weight_format("Q4_0").unwrap().bits, 144.0 / 32.0);
        assert_eq!(weight_format("mxfp4").unwrap().bits, (32.0 * 4.0 + 8.0) / 32.0);
        assert_eq!(weight_format("nvfp4").unwrap().bits, (16.0 * 4.0 + 8.0) / 16.0);
        assert!(weight_format("q4").is_none());
        assert_eq!(kv_format("q8_0").unwrap().bytes, 1.0625);
    }

    #[test]
    fn ids_are_unique() {
        for (i, a) in WEIGHT_FORMATS.iter().enumerate() {
            assert!(WEIGHT_FORMATS[i + 1..].iter().all(|b| b.id != a.id), "{}", a.id);
        }
    }
}
