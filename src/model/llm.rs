//! The model's shape and the bytes its weights occupy and are read per step.
//!
//! Weight bytes = parameters × effective bits per weight ÷ 8 ([`super::quant`]).
//!
//! **Bytes read per decode step** are not all the bytes stored:
//! - The input embedding table is a lookup: one row per token is read, not the table. With untied embeddings
//!   (Llama, Qwen ≥ 7B, Mistral) `vocab × hidden` parameters are stored but not streamed; the output head
//!   (also `vocab × hidden`) is streamed every step. With tied embeddings (Gemma, small Qwen/Llama-3.2) the same
//!   matrix is the head, so it is streamed.
//! - **Mixture of experts**: only `k` of `E` experts run per token. From total `P`, active `A`, `E` and `k`
//!   alone, the parameters of one expert (summed over the MoE layers) are `p_e = (P − A) / (E − k)` and the
//!   always-read part is `A − k·p_e` (attention, router, shared experts, dense layers). A step that carries `T`
//!   tokens touches on average `E·(1 − (1 − k/E)^T)` distinct experts per layer (each token picks `k` of `E`,
//!   routing assumed uniform and independent), so bytes read grow from `A` at T = 1 towards `P` as the batch
//!   grows. Real routing is skewed, which touches slightly fewer experts than this; the formula is an upper
//!   bound on the expert traffic.
//!
//! FLOPs per token = 2 × active parameters (one multiply-add per weight), excluding the embedding lookup,
//! plus attention ([`super::kv`]).
//!
//! **What the data says about MoE** (leave-one-source-out, `tests/validation.rs`, `tests/serving.rs`): batched
//! MoE throughput is within 18 % median / 40 % p90 (45 rows), served MoE output tok/s on current engines 25 % /
//! 160 % (127 runs; the tail is mostly engine releases whose MoE path is immature on that GPU — SGLang 0.5.4 ran
//! gpt-oss-20b on an A100 at 266 tok/s where vLLM 0.11 ran it at 4,620 on the same GPU and benchmark, and
//! TensorRT-LLM 1.0 ran DeepSeek-R1 on 8 × H200 at half SGLang's speed: no physics tells those apart), and
//! llama.cpp MoE token batches of 2–16 tokens per pass are over-predicted by
//! +96 % (49 rows; 12.9 % median on CUDA for Qwen3-30B-A3B, +100–140 % on the Vulkan and ROCm back ends of one
//! AMD iGPU). What the model lacks, in order of the evidence: (1) the efficiency of the expert GEMMs as a function
//! of tokens per expert — at 1–2 tokens an expert runs as a matrix-vector kernel launched per expert (per token on
//! some back ends), not as a GEMM, so the touched-expert byte count above is a lower bound on the time; (2)
//! expert parallelism and DP attention as deployments distinct from tensor parallelism (KV not replicated,
//! attention per replica, experts sharded: runs deployed that way are skipped by the validation, 15 rows); (3)
//! one MoE kernel factor (`engine.moe_efficiency`, 0.5 on serving engines) fitted on one deployment (Qwen3
//! 128-expert TP8), which does not carry to few large experts with a shared expert or to many small experts on
//! one GPU. What it now has: the serving engines' kernel chain (`super::kernels`) — at batch 1 on 8 GPUs a
//! layer of 15–23 small kernels costs 70–110 µs whatever it reads, which took SGLang's Qwen3-235B-A22B and
//! DeepSeek-R1 on 8 × B200 at one user from 4.8 and 3.7 ms per token to 8.9 and 8.3 (measured 10.1 and 9.2),
//! while gpt-oss-120b's fused path went from 2.0 to 4.0 (measured 2.31). The band under load for MoE models says
//! what is left (÷ / × 2.53 since the band counts under-predictions as factors, `plan::band`; ±143 % before that; ±161 % before vLLM's reserve followed its profile run, with vLLM 0.8.4's DeepSeek-R1 on 8 × H200 at 1k–30k-token prompts held out within 10–13 %; ±175 % before those runs; ±173 % before prompt steps paid their eager launch chain; ±179 % before the serving engines' per-sequence cost; ±286 % until the runs that release every request at once were simulated
//! as such, 2026-12: their throughput had been scored against the steady state at the fullest batch).
//!
//! **Known misses at large batches** (the all-at-once runs, 1,000 ShareGPT prompts at t = 0, in-sample): on A100s
//! vLLM's gpt-oss-120b/20b runs are now right to a few per cent in output, TTFT and TPOT (24.9 s vs 24.8 s TTFT
//! P50; 87 vs 91 ms TPOT P50); on one H100 gpt-oss-120b is decoded at a batch about twice too large (TPOT 87 ms
//! predicted vs 48, TTFT 6.3 s vs 26 s). The cause is memory, not kernels: vLLM reports "Model loading took
//! 64.38 GiB" for this model on one H100 (vLLM issue #33155). Its BF16 attention, embeddings and head are counted
//! since 2026-12 (`super::quant::dense_part_bits`: 57.8 → 59.9 GiB, KV space 13.6 → 11.4 GB), and vLLM's
//! profile-run reserve since 2026-12-03 (`presets::engines::vllm_reserve_gib`: the sampler's logits over 1,024 ×
//! 201k vocabulary entries, 7.4 GiB instead of a flat 1.5: KV space 11.4 → 5.1 GB); what is not is vLLM's padding
//! of the MXFP4 expert matrices (hidden 2,880 → 3,072; "Model loading took 65.97 GiB" against the 59.9 counted),
//! which leaves the real engine less still (logs at 0.9 utilisation show 1.7 GiB or less, vLLM issues #23278,
//! #27508). Big MoE models on 8 Hopper GPUs at batches of ~1,000
//! (DeepSeek-R1 on H200, Qwen3-235B on H100) decode 1.5–2.5 × slower than modelled while their throughput is
//! within 15–50 %: the step at hundreds of sequences is longer than the bytes and FLOPs say, at 30+ tokens per
//! expert, where the cookbook's runs at 16–64 users on B200 are 20–35 % faster than modelled — one flat
//! `moe_efficiency` cannot be both. Nor one GPU: gpt-oss on one A100, H100 or DGX Spark under vLLM decodes 1.2–2 ×
//! slower in the model than measured (TPOT P50, held out) and, since its MXFP4 experts run at vLLM's 16-bit rate
//! (`super::quant::experts_only_fp4_rate`), prefills its ~4,000-token prompts on the Spark 1.8 × slower — each
//! expert there gets ~500 tokens a step and is one GPU's whole 2,880-wide matrix, where the factor's 128-expert
//! TP8 deployments give each GPU a slice of 192 (or, with expert parallelism, the engines' dispatch). A flat 1.0 on
//! one device was tried (2026-12-04) and is worse overall (served output 12.5 → 15.6 %, TPOT P99 18.4 → 25.4 %:
//! the one-GPU gpt-oss runs that release 1,000 prompts at once need the factor), so the factor needs the tokens
//! per expert and the expert's size per device together, not the device count. It should come with a count
//! the presets get wrong today: gpt-oss's active parameters (5.1 / 3.6 B, OpenAI's card) count the output head but
//! not the input embedding, which the model subtracts again, so 0.58 B BF16 parameters (1.16 GB a token under the
//! serving engines) go unread (a new user's trial, 2026-12-04: "3,350 GB/s ÷ 3.77 GB per token = 888 tok/s" where
//! the card's own count gives ≈ 4.95 GB). Counted (active 5.71 / 4.19 B, which also makes the derived expert size
//! exact), single-stream held out went 8.5 → 8.3 % and llama.cpp's MoE token batches 46 → 44 %, but the refits it set
//! off (served η_fl Ampere 0.52 → 0.56, Hopper 0.33 → 0.40, the front end's CV 1.05 → 0.90, ROCm's compute factor 0.52
//! → 0.60) took served output 12.5 → 14.4 % and batched p90 38.5 → 43.1 %: the one-GPU gpt-oss decode this factor
//! already makes too slow got slower. So both wait for the factor.
//!
//! **Tile padding tried as the factor's compute side (2026-12-05, not kept).** A grouped GEMM pads each expert's
//! `m = tokens × k ÷ touched` tokens to whole tiles of rows, so its tensor cores carry `m ÷ padded rows`: the
//! expert FLOPs were charged at that share instead of the flat 0.5 (the bytes kept the fitted factor, which
//! refitted 0.45–0.50 on TensorRT-LLM's Qwen3 rows). With fixed 64-row tiles (`max(64, m + 32)`) decode steps of
//! gpt-oss at a few tokens per expert turned compute-bound (4-bit weights times 16-bit activations have little
//! arithmetic to hide padding behind): served output 12.5 → 14.9 % held out, TPOT 15.0 → 16.1 %. With tiles that
//! follow the tokens as the tuned kernels' configurations do (`max(16, m + min(m ÷ 3, 32))`: 0.5 at 8 tokens, 0.75
//! at 31, 0.94 at 530): TTFT mean / P50 / P99 47.0 / 43.3 / 47.2 → 42.8 / 39.9 / 46.2 %, TPOT 15.0 / 15.5 / 18.4 →
//! 14.8 / 15.5 / 18.1 %, output median 12.5 → 12.1 % but its p90 59 → 71 %: GPUStack's all-at-once runs on A100 and
//! H100 (vLLM, gpt-oss, Qwen3-235B, DeepSeek-R1: prompt steps of thousands of tokens, 250+ a touched expert)
//! then ran 20–120 % too fast (their p90 60 → 119 %), and Hopper's served η_fl refitted 0.33 → 0.28 to pay for them.
//! Those runs say the expert GEMMs of vLLM's MXFP4 and FP8 MoE paths on Hopper and Ampere stay near half a dense
//! layer's rate even with full tiles (dequantisation inside the GEMM, the routing's permute and gather), while
//! one DGX Spark prefilling ~500 tokens an expert wants nearly the dense rate: tile padding is not what tells
//! them apart. The DGX Spark's own peak is an estimate (`presets/hardware.csv`: a quarter of the FP4 marketing
//! figure; GeForce Blackwell boards halve the 16-bit rate with FP32 accumulation, which would make it 62.5 TFLOPS
//! and its served prefill 4 × slower in the model than measured) — llama.cpp's own DGX Spark benches prefill
//! Gemma-3-4B at 5,757 tok/s (4,096-token prompt) where the model says 8,890 at 125 TFLOPS.

use serde::{Deserialize, Serialize};

/// How attention stores keys and values; decides KV bytes per token ([`super::kv`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Attention {
    /// Multi-head or grouped-query attention: K and V of `kv_heads × head_dim` per layer.
    Full,
    /// Multi-head latent attention (DeepSeek-V2/V3): one compressed vector of `kv_lora_rank + rope_dim` per layer.
    Mla { kv_lora_rank: u32, rope_dim: u32 },
    /// A fraction of layers use a sliding window of `window` tokens (Gemma 2/3, gpt-oss, Mistral 7B v0.1).
    Sliding { window: u32, local_fraction: f64 },
}

/// Mixture-of-experts shape; `experts == 0` means dense.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Moe {
    pub experts: u32,
    pub experts_per_token: u32,
}

/// A resolved model shape.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelShape {
    pub name: String,
    /// Total parameters, billions.
    pub params_b: f64,
    /// Parameters used per token, billions (= params_b for dense models).
    pub active_params_b: f64,
    pub layers: u32,
    pub hidden: u32,
    pub attention_heads: u32,
    pub kv_heads: u32,
    pub head_dim: u32,
    pub vocab: u32,
    pub moe: Moe,
    pub attention: Attention,
    pub tied_embeddings: bool,
}

impl ModelShape {
    /// Whether tensor parallelism over `k` devices splits this model as the serving engines accept: the attention
    /// heads divide evenly, and the KV heads divide evenly or are each replicated on `k ÷ kv_heads` devices (vLLM
    /// refuses 40 heads with 8 KV heads on 5 devices).
    #[must_use]
    pub fn splits_over(&self, k: u32) -> bool {
        k > 0 && self.attention_heads.is_multiple_of(k) && (self.kv_heads == 0 || self.kv_heads.is_multiple_of(k) || k.is_multiple_of(self.kv_heads))
    }

    /// Whether the model is a mixture of experts.
    #[must_use]
    pub fn is_moe(&self) -> bool {
        self.moe.experts > 1 && self.moe.experts_per_token >= 1 && self.moe.experts_per_token < self.moe.experts
    }

    /// Parameters of the input embedding that are stored but not streamed (0 when tied), in units of 1: one
    /// `vocab × hidden` matrix, the size of the head ([`Self::head_params`]).
    #[must_use]
    pub fn unread_embedding_params(&self) -> f64 {
        if self.tied_embeddings {
            0.0
        } else {
            self.head_params()
        }
    }

    /// Parameters of the output head streamed every step (`vocab × hidden`, the embedding table itself when tied).
    /// Never more than half the model: guards hand-entered shapes that are inconsistent (a tenth until 2026-12-05,
    /// when Gemma-3-4B's 262,208 × 2,560 table, 17 % of it, was cut short in the 16-bit head's bytes).
    #[must_use]
    pub fn head_params(&self) -> f64 {
        (f64::from(self.vocab) * f64::from(self.hidden)).min(0.5 * self.params_b * 1e9)
    }

    /// Parameters of one expert summed over all MoE layers, and the always-read (non-expert) parameters.
    #[must_use]
    pub fn expert_split(&self) -> (f64, f64) {
        let total = self.params_b * 1e9;
        let active = self.active_params_b * 1e9;
        if !self.is_moe() {
            return (0.0, active);
        }
        let e = f64::from(self.moe.experts);
        let k = f64::from(self.moe.experts_per_token);
        let per_expert = ((total - active) / (e - k)).max(0.0);
        let shared = (active - k * per_expert).max(0.0);
        (per_expert, shared)
    }

    /// Expected distinct experts touched per MoE layer by a step carrying `tokens` tokens: E·(1 − (1 − k/E)^T).
    #[must_use]
    pub fn experts_touched(&self, tokens: f64) -> f64 {
        if !self.is_moe() {
            return 0.0;
        }
        experts_reached(f64::from(self.moe.experts), f64::from(self.moe.experts_per_token), tokens)
    }

    /// Parameters streamed from memory by one step carrying `tokens` tokens.
    #[must_use]
    pub fn params_read_per_step(&self, tokens: f64) -> f64 {
        let (per_expert, shared) = self.expert_split();
        let read = if self.is_moe() { shared + self.experts_touched(tokens) * per_expert } else { shared };
        (read - self.unread_embedding_params()).max(0.0)
    }

    /// Parameters that do matmul work per token (active minus the embedding lookup).
    #[must_use]
    pub fn matmul_params_per_token(&self) -> f64 {
        (self.active_params_b * 1e9 - self.unread_embedding_params()).max(0.0)
    }
}

/// Expected distinct experts of `experts` that `tokens` tokens (at least one), each routed to `per_token` of them
/// uniformly, reach: E·(1 − (1 − k/E)^T) ([`LlmModel::experts_touched`]; the page's readout of a batch).
#[must_use]
pub fn experts_reached(experts: f64, per_token: f64, tokens: f64) -> f64 {
    experts * (1.0 - (1.0 - per_token / experts).powf(tokens.max(1.0)))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn llama3_8b() -> ModelShape {
        ModelShape {
            name: "Llama-3.1-8B".into(),
            params_b: 8.03,
            active_params_b: 8.03,
            layers: 32,
            hidden: 4096,
            attention_heads: 32,
            kv_heads: 8,
            head_dim: 128,
            vocab: 128_256,
            moe: Moe::default(),
            attention: Attention::Full,
            tied_embeddings: false,
        }
    }

    #[test]
    fn dense_reads_all_but_the_embedding_lookup() {
        let m = llama3_8b();
        let read = m.params_read_per_step(1.0);
        assert!((read - (8.03e9 - 128_256.0 * 4096.0)).abs() < 1.0);
        assert_eq!(m.params_read_per_step(64.0), read);
    }

    #[test]
    fn moe_split_recovers_total_and_active() {
        // Mixtral 8x7B: 46.7B total, 12.9B active, 8 experts, top-2.
        let m =
            ModelShape { params_b: 46.7, active_params_b: 12.9, moe: Moe { experts: 8, experts_per_token: 2 }, tied_embeddings: true, ..llama3_8b() };
        let (pe, shared) = m.expert_split();
        assert!((pe - 33.8e9 / 6.0).abs() < 1e3);
        assert!((shared + 2.0 * pe - 12.9e9).abs() < 1e3);
        assert!((shared + 8.0 * pe - 46.7e9).abs() < 1e3);
        // One token touches exactly k experts; many tokens touch nearly all.
        assert!((m.experts_touched(1.0) - 2.0).abs() < 1e-12);
        assert!((m.experts_touched(2.0) - 8.0 * (1.0 - 0.75f64.powi(2))).abs() < 1e-12);
        assert!(m.experts_touched(1000.0) > 7.999);
        assert!((m.params_read_per_step(1.0) - 12.9e9).abs() < 1e3);
        assert!((m.params_read_per_step(1e6) - 46.7e9).abs() < 1e3);
    }
}
