//! The chain of kernels a serving engine runs per decoder layer, and what it costs when there is little to do.
//!
//! A decoder layer is a serial chain of dependent kernels (norms, GEMMs, rotary, the KV store, attention, the
//! MoE router, top-k, token alignment, the expert GEMMs, their sum, the all-reduces). Each kernel pays a launch
//! and drain gap even inside a CUDA graph, and a small kernel cannot finish faster than a floor whatever it
//! reads. At large batches and on one GPU the weights' streaming hides the floors; at batch 1 on 8 GPUs each
//! GPU reads only a few MB per kernel and the chain *is* the step: SGLang's own runs decode Qwen3-235B-A22B at
//! 10.1 ms and DeepSeek-R1 at 9.2 ms per token on 8 × B200 (94 and 61 layers: 107 and 151 µs per layer) where
//! the weights take about 10 µs per layer (tests/data/serving_added.csv), and the same cookbook's Qwen3-Next
//! pages (not in tests/data) decode at the same 6.19 ms on 2 and on 8 B200s — the cost is per layer, not
//! communication.
//!
//! Model (serving engines; llama.cpp's per-layer overhead is fitted on its own rows instead):
//! - kernels per layer from the architecture: attention 7 (GQA: norm, QKV, rotary, KV store, attention, merge,
//!   output projection) or 15 with multi-head latent attention (DeepSeek: the low-rank projections, their norms,
//!   the absorbed matrices); feed-forward 4 (norm, gate-up, activation, down) or 8 for a routed MoE (norm, router,
//!   top-k, alignment, two grouped GEMMs, activation, sum) — counted from SGLang's model code, ±30 %;
//! - [`KERNEL_GAP_S`] per kernel, added to the step (launch and drain: ~1.3 µs per kernel measured on an H100
//!   inside a CUDA graph), as the engine's per-layer overhead;
//! - [`KERNEL_FLOOR_S`] per kernel as a floor under the layer's streaming and compute time (M = 1 glue kernels
//!   take 1.4–3.8 µs; a fused-MoE call at one token 27 µs plus its bytes at 0.8 of the bandwidth in vLLM's and
//!   SGLang's kernel benchmarks on H100, H200 and B200). The floor is taken against the whole layer's time
//!   (max of sums rather than the sum of each kernel's max: exact when the layer is all small kernels or all
//!   big ones).
//!
//! Sources (public): sgl-project/sgl-cookbook run logs; the "No Bubbles" kernel-launch measurements of Hazy
//! Research (2025); SGLang PRs #32699, #11730, #5820; vLLM PRs #24700, #31448, #44830; TensorRT-LLM's DeepSeek-R1
//! B200 latency blog (9.0 ms per token without MTP: ~148 µs per layer). A helper's research notes compiled them;
//! the constants are the middle of the measured ranges, not fitted on the validation rows — but the mechanism
//! was looked for after the cookbook rows showed the gap, so those rows are not a blind test of it.
//!
//! Known misses: fused paths have fewer kernels than counted here (gpt-oss-120b with FlashInfer's MXFP4 MoE and
//! fused all-reduce decodes one stream at 2.31 ms on 8 × B200; the chain predicts 4.0); every layer of a MoE
//! model is counted as MoE (Llama-4 Maverick alternates dense and MoE layers, DeepSeek's first three are dense);
//! the floor does not enter the step's cost breakdown, so the bound label calls such steps overhead-bound and the
//! simulator's linear fast path steps one by one where the floor binds.

use super::llm::{Attention, ModelShape};

/// Launch and drain gap per kernel inside a CUDA graph, seconds.
pub const KERNEL_GAP_S: f64 = 1.5e-6;
/// Shortest time a small kernel takes whatever it reads, seconds.
pub const KERNEL_FLOOR_S: f64 = 3.0e-6;

/// Kernels a serving engine launches per decoder layer for `m` (see the module docs).
#[must_use]
pub fn per_layer(m: &ModelShape) -> f64 {
    let attention = if matches!(m.attention, Attention::Mla { .. }) { 15.0 } else { 7.0 };
    let ffn = if m.is_moe() { 8.0 } else { 4.0 };
    attention + ffn
}
