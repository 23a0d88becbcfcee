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
//! **Steps that carry prompt tokens run eagerly.** The engines replay CUDA graphs for decode steps only (SGLang
//! before its piecewise graphs became the default, TensorRT-LLM's PyTorch backend unless piecewise graphs are
//! turned on; vLLM V1's piecewise graphs cover mixed steps up to 512 tokens but run attention between the pieces
//! and larger chunks without a graph): a prefill step's kernels are launched one by one from Python, and when the
//! GPU has little to do the host's launch chain *is* the step. Two public measurements in SGLang: a one-token
//! extend of DeepSeek-V3 took 82.64 ms eagerly and 23.10 ms as a graph (PR #12160: 82.64 ms over 61 layers × 23
//! counted kernels = 59 µs each); Llama-3.1-8B FP8 on 8 GPUs with 1,024-token prompts had TTFT 29.97 ms at one
//! user eagerly and 19.66 ms with piecewise graphs (PR #13094: the 10.3 ms saved plus the ~5 ms the GPU works,
//! over 32 × 11 kernels, ≈ 43 µs). [`EAGER_LAUNCH_S`] = 50 µs per counted kernel (the middle) is a floor under
//! every step that carries prompt tokens (`Deployment::eager_floor_s`: not LMDeploy's C++ TurboMind, not llama.cpp).
//! It is what a short prompt's TTFT on many GPUs is made of: SGLang's DeepSeek-R1 on 8 × B200 at one user,
//! TTFT 126–155 ms against 9.2 ms per decode step (tests/data/serving_added.csv); before, that was fitted as
//! front-end time (SGLang's 40 ms), which then sat in every deployment's TTFT alike.
//! Measured on the served runs (leave-one-source-out, current engines; 0 → 50 µs with the in-sample refits it set
//! off, `presets::engines`): TTFT mean / P50 / P99 67.2 / 57.2 / 69.9 → 65.7 / 49.4 / 69.9 % (p90 of P99 481 →
//! 342 %), TPOT 17.2 / 17.3 / 30.1 → 14.8 / 14.6 / 30.8 %, output tok/s 21.7 → 21.9 %. The figure is flat and
//! noisy across the measured range (these with the per-sequence cost still at 40 µs and the other defaults
//! refitted by the leave-one-source-out itself; 50 µs gave TTFT 65.7 / 49.4 / 70.0 %, output 22.0 %): 40 µs gives TTFT
//! 64.4 / 54.8 / 69.6 %, output 21.6 %; 55 µs TTFT P50 49.4 %, P99 73.4 %; 60 µs TTFT 61.4 / 49.4 / 72.9 %,
//! output 22.3 %; 70 µs 59.9 / 48.1 / 68.4 %, output 21.1 % — the value is the sources', not the optimum. TTFT
//! P99 does not follow P50 because the tail is modelled as the front end's spread (`REQUEST_OVERHEAD_CV`): a
//! launch chain taken out of the front end takes its share of the tail with it.
//!
//! **Without CUDA graphs** (`engine.cuda_graphs: false`: vLLM's `--enforce-eager`, SGLang's
//! `--disable-cuda-graph`) decode steps are launched the same way, so every step has the eager chain as its floor
//! (`Deployment::chain_floor_s`). For a small model at a small batch that is the step (Llama-3.1-8B: 32 × 11 ×
//! 50 µs = 17.6 ms, where a one-user step streams its weights from an H100 in about 7); Qwen3-32B in BF16 on one
//! A100 streams its weights (~37 ms) barely longer than its chain takes (64 × 11 × 50 µs = 35 ms) and hides it,
//! in AWQ (~11 ms) not. Scored on one source that served in eager mode (cssnoeasy/a100-vllm-benchmark-blog,
//! Qwen3-32B on one A100 PCIe, P99 only: `tests/serving.rs`): its four AWQ runs at 4–8 users, the only ones the
//! chain sets, measured 38.6–46.4 ms TPOT P99 against 39.3–46.9 predicted eagerly and 15.4–24.5 with graphs —
//! consistent with the chain's ~550 µs per layer (kernels counted × 50 µs; the count is ± 30 %, and vLLM's eager
//! mode also turns off torch.compile's fusions), not a test of 50 µs per kernel on its own.
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

/// Host-side launch time per counted kernel of a step that carries prompt tokens, seconds (see the module docs:
/// SGLang's own eager-versus-graph measurements give 43 and 59 µs per counted kernel).
pub const EAGER_LAUNCH_S: f64 = 50e-6;

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
    fn a_step_that_carries_prompt_tokens_is_at_least_its_launch_chain() {
        // DeepSeek-R1 on 8 × B200 under SGLang: a 1,000-token prompt is launched kernel by kernel (61 layers × 23
        // kernels × 50 µs = 70 ms) where the GPU's work is a few ms; a decode step stays in its graph.
        let d = deployment(
            r#"{"hardware":{"preset":"b200","devices":8},"model":{"preset":"deepseek-v3"},"quantization":{"weights":"fp8"},"engine":{"preset":"sglang"}}"#,
        );
        let chain = 61.0 * 23.0 * super::EAGER_LAUNCH_S;
        assert!((d.eager_floor_s() - chain).abs() < 1e-12, "{}", d.eager_floor_s());
        let prefill = d.step(&d.with_prefill(crate::model::roofline::StepLoad::default(), 1000.0, 0.0));
        assert!(prefill.seconds >= chain && prefill.seconds < chain + 0.01, "{} s", prefill.seconds);
        let decode = d.step(&d.decode_load(1.0, 1000.0));
        assert!(decode.seconds < chain / 4.0, "{} s", decode.seconds);
        // A long prompt's GPU work hides the chain; LMDeploy (C++) and llama.cpp have none.
        let long = d.step(&d.with_prefill(crate::model::roofline::StepLoad::default(), 16384.0, 0.0));
        assert!(long.memory_s.max(long.compute_s) > 2.0 * chain, "{} s", long.seconds);
        let lm = deployment(r#"{"hardware":{"preset":"a100-80gb-sxm"},"model":{"preset":"llama-3.1-8b"},"engine":{"preset":"lmdeploy"}}"#);
        assert_eq!(lm.eager_floor_s(), 0.0);
    }

    #[test]
    fn without_cuda_graphs_every_step_pays_the_launch_chain() {
        // Llama-3.1-8B on one H100: a one-user decode step streams 16 GB in ~7 ms with graphs; launched eagerly it
        // takes its chain, 32 layers × 11 kernels × 50 µs = 17.6 ms.
        let json = |graphs: bool| {
            format!(
                r#"{{"hardware":{{"preset":"h100-sxm"}},"model":{{"preset":"llama-3.1-8b"}},"engine":{{"preset":"vllm","cuda_graphs":{graphs}}}}}"#
            )
        };
        let (graph, eager) = (deployment(&json(true)), deployment(&json(false)));
        let chain = 32.0 * 11.0 * super::EAGER_LAUNCH_S;
        let one = |d: &crate::model::roofline::Deployment| d.step(&d.decode_load(1.0, 500.0)).seconds;
        assert!(one(&graph) < 0.5 * chain, "{} s", one(&graph));
        assert!(one(&eager) >= chain && one(&eager) < chain * 1.2, "{} s", one(&eager));
        assert_eq!(eager.chain_floor_s(false), eager.chain_floor_s(true));
        assert!(graph.chain_floor_s(false) < graph.chain_floor_s(true) / 10.0);
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
