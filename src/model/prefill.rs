//! Prefill and time to first token (TTFT) on an idle server.
//!
//! Prefill processes the prompt in chunks of the engine's token budget; each chunk is one step
//! ([`super::roofline`]): it streams the weights once and does `2 · active params · n` matmul FLOPs plus causal
//! attention `≈ 4 · heads · head_dim · layers · n · (prior + n/2)`, quadratic in the prompt. For any real prompt
//! the FLOPs dominate, so prefill is compute-bound: tokens/s ≈ η_fl · peak ÷ (2 · active params).
//!
//! A prefix-cache hit rate `h` (vLLM automatic prefix caching, SGLang RadixAttention) removes `h` of the prompt
//! from prefill; the remaining tokens still attend to the cached part. The step that finishes the prompt emits
//! the first token (vLLM and llama.cpp sample it from the prefill's logits), so TTFT at zero load = prefill time,
//! and never less than one decode step.
//!
//! **What the data says about long prompts**: prefill is the weakest single-stream figure (llama-bench ppN: 22 %
//! median, 62 % p90 in-sample) and looks power-limited on big GPUs (achieved FLOP/s fall with prompt length
//! while the roofline keeps them flat). On serving engines the compute efficiency is one *effective* figure per
//! generation fitted on served runs (Hopper 0.33 beside a cost per running sequence, `presets::engines::served_compute`; generations without served runs take it by machine balance): it absorbs tensor-parallel
//! and MoE losses of the deployments it was fitted on, so a single GPU prefilling long dense prompts is predicted
//! too slow — a closed loop of 32 users with 1024-token prompts on one H100 (the AIPerf sample in
//! `tests/samples`) measures TTFT P99 689 ms where the model's first wave takes 1.4–1.8 s, i.e. 32 k prompt
//! tokens at about 0.75 of the dense BF16 peak, not 0.28. Splitting the large-GEMM efficiency of prefill from
//! the deployment losses (TP, MoE) is the open step; FP8 deployments prefill at the FP8 peak
//! (`quant::ComputeDtype`), 4-bit weights without FP4 units at the 16-bit rate.

use super::roofline::Deployment;

/// Prefill seconds and TTFT seconds on an idle server for `prompt` tokens after `depth` tokens already cached,
/// with a prefix-cache hit rate in [0, 1].
#[must_use]
pub fn ttft_seconds(d: &Deployment, prompt: f64, depth: f64, hit_rate: f64) -> f64 {
    let h = hit_rate.clamp(0.0, 1.0);
    let cached = prompt * h;
    let p = d.prefill_seconds(prompt - cached, depth + cached);
    // The serving front end (HTTP, tokenisation, scheduling) adds its time to every request's first token.
    p.max(d.step(&d.decode_load(1.0, depth + prompt)).seconds) + d.engine.request_overhead_ms / 1e3
}

/// Prompt tokens per second of an isolated prefill of `prompt` tokens (llama-bench `ppN`).
#[must_use]
pub fn prefill_tps(d: &Deployment, prompt: f64) -> f64 {
    let t = d.prefill_seconds(prompt, 0.0);
    if t > 0.0 {
        prompt / t
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::roofline::tests::h100_llama8b;

    #[test]
    fn prefix_hits_cut_ttft() {
        let d = h100_llama8b();
        let cold = ttft_seconds(&d, 4096.0, 0.0, 0.0);
        let warm = ttft_seconds(&d, 4096.0, 0.0, 0.5);
        assert!(warm < 0.6 * cold && warm > 0.4 * cold, "{warm} {cold}");
        let all = ttft_seconds(&d, 4096.0, 0.0, 1.0);
        assert!((all - d.step(&d.decode_load(1.0, 4096.0)).seconds).abs() < 1e-12);
    }

    #[test]
    fn prefill_rate_near_compute_peak() {
        let d = h100_llama8b();
        let tps = prefill_tps(&d, 2048.0);
        let ideal = 989e12 / (2.0 * d.model.matmul_params_per_token());
        assert!(tps < ideal && tps > 0.8 * ideal, "{tps} {ideal}");
    }
}
