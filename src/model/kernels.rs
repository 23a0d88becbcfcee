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

use super::engine::EngineKind;
use super::hardware::HardwareKind;
use super::llm::{Attention, ModelShape};

/// Launch and drain gap per kernel inside a CUDA graph, seconds.
pub const KERNEL_GAP_S: f64 = 1.5e-6;
/// Shortest time a small kernel takes whatever it reads, seconds.
pub const KERNEL_FLOOR_S: f64 = 3.0e-6;

/// Whether the chain models `engine` on `kind`: serving engines on GPUs (llama.cpp's per-layer overhead is fitted
/// on its own rows; CPUs and other devices keep their engines' stated overheads).
#[must_use]
pub fn applies(engine: EngineKind, kind: HardwareKind) -> bool {
    engine != EngineKind::LlamaCpp && matches!(kind, HardwareKind::DatacenterGpu | HardwareKind::WorkstationGpu | HardwareKind::ConsumerGpu)
}

/// Kernels a serving engine launches per decoder layer for `m` (see the module docs).
#[must_use]
pub fn per_layer(m: &ModelShape) -> f64 {
    let attention = if matches!(m.attention, Attention::Mla { .. }) { 15.0 } else { 7.0 };
    let ffn = if m.is_moe() { 8.0 } else { 4.0 };
    attention + ffn
}

#[cfg(test)]
mod tests {
    use crate::scenario::Scenario;

    fn deployment(json: &str) -> crate::model::roofline::Deployment {
        Scenario::from_json(json).unwrap().resolve().unwrap().deployment
    }

    #[test]
    fn the_chain_is_the_serving_engines_on_gpus() {
        // A serving engine on a GPU: the floor is layers × kernels × 3 µs, the per-layer overhead kernels × 1.5 µs.
        let d = deployment(r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"engine":{"preset":"vllm"}}"#);
        let k = super::per_layer(&d.model);
        assert_eq!(k, 11.0, "GQA attention 7 + dense feed-forward 4");
        assert!((d.kernel_floor_s() - 32.0 * k * super::KERNEL_FLOOR_S).abs() < 1e-15);
        assert!((d.engine.step_overhead_ms - (1.0 + 32.0 * k * super::KERNEL_GAP_S * 1e3)).abs() < 1e-9, "{}", d.engine.step_overhead_ms);
        // llama.cpp's per-layer overhead is fitted on its own rows: no chain; nor on a CPU.
        let l = deployment(
            r#"{"hardware":{"preset":"rtx-4090"},"model":{"preset":"llama-3.1-8b"},"quantization":{"weights":"q4_k_m"},"engine":{"preset":"llama.cpp"}}"#,
        );
        assert_eq!(l.kernel_floor_s(), 0.0);
        let c = deployment(r#"{"hardware":{"preset":"epyc-9004-genoa"},"model":{"preset":"llama-3.1-8b"},"engine":{"preset":"vllm"}}"#);
        assert_eq!(c.kernel_floor_s(), 0.0);
        // MLA and routed experts add kernels.
        let ds = deployment(
            r#"{"hardware":{"preset":"h200-sxm","devices":8},"model":{"preset":"deepseek-v3"},"quantization":{"weights":"fp8"},"engine":{"preset":"sglang"}}"#,
        );
        assert_eq!(super::per_layer(&ds.model), 23.0);
    }

    #[test]
    fn at_one_user_on_eight_gpus_the_floor_sets_the_step() {
        // SGLang's Qwen3-235B-A22B on 8 × B200 decodes one stream at 10.1 ms (tests/data/serving_added.csv): the
        // floor binds, the step is overhead-bound, and the time is within 15 % of the measurement.
        let d = deployment(r#"{"hardware":{"preset":"b200","devices":8},"model":{"preset":"qwen3-235b-a22b"},"engine":{"preset":"sglang"}}"#);
        let step = d.step(&d.decode_load(1.0, 600.0));
        assert!(step.memory_s >= d.kernel_floor_s() - 1e-15 && step.compute_s >= d.kernel_floor_s() - 1e-15);
        assert_eq!(step.bound, crate::model::roofline::Bound::Overhead);
        assert!((step.seconds * 1e3 / 10.1 - 1.0).abs() < 0.15, "{} ms", step.seconds * 1e3);
        // At a large batch the weights and FLOPs hide the floor.
        let big = d.step(&d.decode_load(256.0, 600.0));
        assert!(big.memory_s.max(big.compute_s) > 2.0 * d.kernel_floor_s());
    }
}
