//! KV cache: bytes per token, bytes per sequence, attention FLOPs, and how many sequences fit.
//!
//! - MHA / GQA: every layer stores K and V of `kv_heads × head_dim` values per token:
//!   `bytes/token = 2 × layers × kv_heads × head_dim × bytes per element`
//!   (Llama-3.1-8B in F16: 2·32·8·128·2 = 131,072 B = 128 KiB per token).
//! - MLA (DeepSeek-V2/V3): each layer caches one latent of `kv_lora_rank + rope_dim` values (512 + 64),
//!   not K and V per head: `bytes/token = layers × (kv_lora_rank + rope_dim) × bytes` (61·576·2 ≈ 70 KB).
//! - Sliding window (Gemma 2/3, gpt-oss): a fraction of layers keep only the last `window` tokens, so a sequence
//!   of `c` tokens stores `c` tokens in the global layers and `min(c, window)` in the local ones.
//!
//! Decode reads the whole cache of every sequence in the batch once per step, so the bytes read for attention
//! equal the bytes stored. Attention FLOPs per generated token at context `c` are `4 × heads × head_dim × c`
//! per layer (QKᵀ and PV, one multiply-add each); for MLA with weight absorption the per-head width is
//! `2·(kv_lora_rank + rope_dim)`-ish, taken here as `heads × (2·(r + ρ) + 2·r) × c`.
//!
//! Capacity: `usable = devices × memory × memory_utilization − weights − reserve`; the number of sequences
//! that fit at context `c` is `usable ÷ bytes(c)`. The reserve covers activations and the runtime (vLLM's follows
//! its profile run: 0.5–7.4 GiB per device, `presets::engines::vllm_reserve_gib`).

use super::llm::{Attention, ModelShape};

/// Bytes one token adds to the cache in layers that keep every token (global layers).
#[must_use]
pub fn bytes_per_token_global(m: &ModelShape, kv_elem_bytes: f64) -> f64 {
    let layers = f64::from(m.layers);
    match m.attention {
        Attention::Full => 2.0 * layers * f64::from(m.kv_heads) * f64::from(m.head_dim) * kv_elem_bytes,
        Attention::Mla { kv_lora_rank, rope_dim } => layers * f64::from(kv_lora_rank + rope_dim) * kv_elem_bytes,
        Attention::Sliding { local_fraction, .. } => {
            (1.0 - local_fraction.clamp(0.0, 1.0)) * 2.0 * layers * f64::from(m.kv_heads) * f64::from(m.head_dim) * kv_elem_bytes
        }
    }
}

/// Bytes per token in a fresh sequence (all layers), the number usually quoted as "KV bytes per token".
#[must_use]
pub fn bytes_per_token(m: &ModelShape, kv_elem_bytes: f64) -> f64 {
    match m.attention {
        Attention::Sliding { .. } => 2.0 * f64::from(m.layers) * f64::from(m.kv_heads) * f64::from(m.head_dim) * kv_elem_bytes,
        _ => bytes_per_token_global(m, kv_elem_bytes),
    }
}

/// Bytes stored (and read once per decode step) for one sequence holding `ctx` tokens.
#[must_use]
pub fn bytes_for_context(m: &ModelShape, kv_elem_bytes: f64, ctx: f64) -> f64 {
    let ctx = ctx.max(0.0);
    let global = bytes_per_token_global(m, kv_elem_bytes) * ctx;
    match m.attention {
        Attention::Sliding { window, local_fraction } => {
            let per_tok_local =
                local_fraction.clamp(0.0, 1.0) * 2.0 * f64::from(m.layers) * f64::from(m.kv_heads) * f64::from(m.head_dim) * kv_elem_bytes;
            global + per_tok_local * ctx.min(f64::from(window))
        }
        _ => global,
    }
}

/// Attention FLOPs to produce one token at context `ctx` (all layers).
///
/// Multi-head latent attention is counted in its absorbed form (FlashMLA's decode: queries against the 576-wide
/// latent, 2,176 FLOPs per head and context token for DeepSeek-V3) for prompts too, although vLLM and SGLang
/// prefill it decompressed (keys of 128 + 64 and values of 128 per head: 640 FLOPs). Tried 2026-12-03 and not
/// kept: counted decompressed, vLLM 0.8.4's DeepSeek-R1 on 8 × H200 with 1k–30k-token prompts (simon-mo/vLLM-Benchmark,
/// Michaelvll/llm-ie-benchmarks) went from TTFT within 10 % (median ratio 0.91) to twice too fast (0.53), output
/// tok/s 11.6 → 31.2 % off, and the served table held out: output 15.6 → 17.0 %, TTFT 49.5 / 45.4 / 52.4 → 49.7 /
/// 47.2 / 55.6 %. Those long prefills are slower than the GEMMs' efficiency says by about the factor the absorbed
/// count adds: the attention kernels' own efficiency (FlashAttention over 192/128-wide heads in that release, at
/// 15k tokens of mean context) is the suspect, and needs fitting apart before the count can be corrected. Read from
/// those runs' saturated prefill rates (about 18k tok/s at 5k-token prompts, 15.6k at 10k, 11.5k at 30k) against the
/// model's isolated prefill (22.0k / 16.1k / 7.9k with the absorbed count): its slope over the context is too steep
/// (the measured marginal cost, ~2.6 ns per context token per prompt token, sits near the decompressed count's 1.9
/// at the fitted efficiency) and its short-context rate too high (the MoE GEMMs of that release slower than
/// modelled) — two errors that cancel near 10k tokens. The decompressed count needs the MoE prefill fixed with it.
///
/// Tried again 2026-12-05 on the data as it now stands (GPUStack's SGLang 0.5.3 DeepSeek-R1 runs scored as TP8):
/// decompressed for prefill only, served runs of current engines held out, output tok/s 12.7 → 14.9 % median but the
/// MoE band (p90) 129.7 → 82.4 % — the 32,000-token runs of vLLM 0.11 and SGLang 0.5.3, 2.5 × too slow with the
/// absorbed count (TTFT mean 260 s against 101), 1.3 × after (130 s) — and TTFT mean / P50 / P99 48.6 / 43.3 / 49.7 →
/// 48.2 / 46.6 / 50.0 %, because vLLM 0.8.4's runs went from ratios 0.74–0.89 to 0.53–0.54. With prefill attention
/// also at an efficiency of its own (0.5 of the peak, FlashAttention's, against the served GEMMs' 0.33) it was worse
/// everywhere (TTFT P50 47.8 %). Read from the step times (`Deployment::step` of an 8,192-token chunk of DeepSeek-V3
/// FP8 on 8 × H200 under vLLM: 36.8 µs a prompt token at no prior context, of which matmuls 21.6, attention 7.8 and
/// the all-reduces 6.9): vLLM 0.8.4 prefills 5k-token prompts at about 50 µs a token, vLLM 0.11 about 35–45 at 2–4k
/// (GPUStack's all-at-once runs), the model 29–34 — the short-context rate of DeepSeek's block-scaled FP8 GEMMs is
/// release-dependent (Triton's block-FP8 MoE kernels in 0.8, DeepGEMM's later), and one release's two sources would
/// fit it. Left absorbed until a third source measures DeepSeek's prefill on a current release.
///
/// A third time, 2026-12-06, with the cached context's up-projection counted as well (vLLM's chunked MLA prefill
/// decompresses it: 2 · 512 · heads · 256 FLOPs a context token and layer per chunk) and the data grown to 268 runs:
/// held out, the MoE band 118.1 → 91.5 % and DeepSeek's TPOT P50 in two sources 22 / 49 → 13 / 16 % off, but output
/// tok/s 12.4 → 12.9 % (p90 57 → 60) with DeepSeek-R1 on 8 × H200 now over-predicted 1.26–1.35 × in three sources (a
/// fleet too small: worse for a user than the slow TTFT), TTFT mean / P50 / P99 48.6 / 44.7 / 49.5 → 49.6 / 47.7 /
/// 50.4 %, and the fitted defaults move (Hopper's served η_fl 0.33 → 0.36, SGLang's front end 14 → 19 ms). Not kept,
/// for the same reason: the decompressed count is the engines' and right, but it uncovers a DeepSeek prefill cost the
/// model lacks, which the absorbed count stands in for.
#[must_use]
pub fn attention_flops_per_token(m: &ModelShape, ctx: f64) -> f64 {
    let ctx = ctx.max(0.0);
    let heads = f64::from(m.attention_heads);
    let layers = f64::from(m.layers);
    match m.attention {
        Attention::Full => 4.0 * heads * f64::from(m.head_dim) * ctx * layers,
        Attention::Mla { kv_lora_rank, rope_dim } => {
            heads * (2.0 * f64::from(kv_lora_rank + rope_dim) + 2.0 * f64::from(kv_lora_rank)) * ctx * layers
        }
        Attention::Sliding { window, local_fraction } => {
            let f = local_fraction.clamp(0.0, 1.0);
            4.0 * heads * f64::from(m.head_dim) * layers * ((1.0 - f) * ctx + f * ctx.min(f64::from(window)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::llm::tests::llama3_8b;

    #[test]
    fn llama3_8b_f16_is_128_kib_per_token() {
        let m = llama3_8b();
        assert_eq!(bytes_per_token(&m, 2.0), 131_072.0);
        assert_eq!(bytes_for_context(&m, 2.0, 1000.0), 131_072_000.0);
        assert_eq!(bytes_for_context(&m, 1.0, 1000.0), 65_536_000.0);
    }

    #[test]
    fn deepseek_mla_is_576_values_per_layer() {
        let m = ModelShape { layers: 61, attention: Attention::Mla { kv_lora_rank: 512, rope_dim: 64 }, ..llama3_8b() };
        assert_eq!(bytes_per_token(&m, 2.0), 61.0 * 576.0 * 2.0);
    }

    #[test]
    fn sliding_window_caps_local_layers() {
        // Half the layers local with window 128: at 10,000 tokens the local half holds 128.
        let m = ModelShape { attention: Attention::Sliding { window: 128, local_fraction: 0.5 }, ..llama3_8b() };
        let full = bytes_per_token(&m, 2.0);
        assert_eq!(full, 131_072.0);
        assert_eq!(bytes_for_context(&m, 2.0, 100.0), 100.0 * full);
        assert_eq!(bytes_for_context(&m, 2.0, 10_000.0), 0.5 * full * 10_000.0 + 0.5 * full * 128.0);
    }

    #[test]
    fn attention_flops_are_linear_in_context() {
        let m = llama3_8b();
        assert_eq!(attention_flops_per_token(&m, 1000.0), 4.0 * 32.0 * 128.0 * 1000.0 * 32.0);
    }
}
