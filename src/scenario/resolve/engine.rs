//! Weight format, KV cache and engine: each engine's default format and its fitted efficiencies.

use super::super::checks::{check, check_u, unknown};
use super::super::*;
use crate::model::engine::EngineParams;
use crate::model::hardware::Hardware;
use crate::model::llm::ModelShape;
use crate::model::quant::{self, ComputeDtype};
use crate::presets;

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

/// The weight format after the engine or the model is picked, given the (engine, model's released format)
/// pair before and after: a format left at the old pair's default follows to the new pair's default
/// (DeepSeek-V3: Q4_K_M under llama.cpp, its released FP8 under vLLM); a format the user chose stays (`None`).
#[must_use]
pub fn weights_after_pick(current: &str, before: (&str, Option<&str>), after: (&str, Option<&str>)) -> Option<String> {
    let new = default_weights(after.0, after.1);
    (current == default_weights(before.0, before.1) && current != new).then(|| new.to_string())
}

pub(crate) fn resolve_quant(
    s: &QuantSpec,
    engine: &str,
    native: Option<&str>,
    defaults: &mut Vec<String>,
) -> Result<(f64, ComputeDtype), ScenarioError> {
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
    // Bits typed beside a named format: the weights are read at the bits, computed at the format's rate (W4A8, say);
    // said, where it had gone by without a word (a trial's FP8 with 4 bits).
    if let (Some(f), Some(b)) = (fmt.filter(|_| s.weights.is_some()), s.weight_bits) {
        if (b - f.bits).abs() > 1e-9 {
            defaults.push(format!(
                "quantization: weights read at the {} bits per weight typed, computed at {}'s rate (its own weights are {} bits)",
                crate::model::units::fmt_num(b),
                f.label,
                crate::model::units::fmt_num(f.bits)
            ));
        }
    }
    // Custom bits near 8 mean FP8 in a serving engine; llama.cpp has no FP8 path (its Q8_0 runs on FP16/int8). This
    // is the format's rate; the engine's kernels may run another (`model::quant::engine_compute_dtype`).
    let dtype = fmt.map_or(if (7.5..=8.5).contains(&bits) && engine != "llama.cpp" { ComputeDtype::Fp8 } else { ComputeDtype::Fp16 }, |f| f.compute);
    Ok((bits, dtype))
}

pub(crate) fn resolve_engine(
    s: &EngineSpec,
    p: &presets::engines::EnginePreset,
    hw: &Hardware,
    m: &ModelShape,
    defaults: &mut Vec<String>,
) -> Result<EngineParams, ScenarioError> {
    let mut eff = presets::engines::efficiency(p.id, hw.kind, hw.architecture, hw.machine_balance());
    if p.id == "llama.cpp" {
        eff.overhead_us_per_layer *= presets::engines::llama_cpp_build_overhead_factor(hw.kind, hw.architecture, s.version.as_deref());
        // Back ends other than CUDA and Metal stream weights and KV less efficiently.
        let f = presets::engines::backend_factor(s.backend.as_deref().unwrap_or(""));
        eff.bandwidth = (eff.bandwidth * f).min(1.0);
        eff.kv_bandwidth = (eff.kv_bandwidth * f).min(1.0);
        eff.compute = (eff.compute * presets::engines::backend_compute_factor(s.backend.as_deref().unwrap_or(""))).min(1.0);
    }
    // Serving engines on GPUs: the per-layer overhead is the launch gap of each kernel in the layer's chain
    // (`model::kernels`; its floor enters the step time).
    if crate::model::kernels::applies(crate::model::engine::EngineKind::of(p.id), hw.kind) {
        eff.overhead_us_per_layer = crate::model::kernels::per_layer(m) * crate::model::kernels::KERNEL_GAP_S * 1e6;
    }
    let mut used = Vec::new();
    // vLLM sizes its batch limits by the device (memory and model); other engines have one default.
    let mut batch_defaults = presets::engines::batch_defaults(p, hw.memory_gb, &hw.name);
    // Under DP attention vLLM's limits are each rank's: the server's are the ranks' together.
    let ranks = if hw.parallelism == crate::model::hardware::Parallelism::DpAttention && p.id == "vllm" { hw.devices.max(1) } else { 1 };
    if p.id == "vllm" && (s.max_batch.is_none() || s.max_batched_tokens.is_none()) {
        // Only the limits taken by default (both had been listed where the other was typed: "1024 sequences" beside
        // a max batch of 8 that the run used; a checking script's find).
        let (seqs, tokens) = (s.max_batch.is_none(), s.max_batched_tokens.is_none());
        let what = |n: u32, unit: &str| {
            if ranks > 1 {
                format!("{n} {unit} on each of the {ranks} DP attention ranks, {} for the server", n.saturating_mul(ranks))
            } else {
                format!("{n} {unit}")
            }
        };
        let limits = [seqs.then(|| what(batch_defaults.0, "sequences")), tokens.then(|| what(batch_defaults.1, "tokens per step"))];
        let limits: Vec<String> = limits.into_iter().flatten().collect();
        defaults.push(format!(
            "engine {}: {} (vLLM's own default{} for a device of {} GiB{})",
            if limits.len() > 1 { "limits" } else { "limit" },
            limits.join(if ranks > 1 { "; " } else { ", " }),
            if limits.len() > 1 { "s" } else { "" },
            crate::model::units::fmt_num(hw.memory_gb),
            if hw.name.to_ascii_lowercase().contains("a100") { ", an A100" } else { "" },
        ));
    }
    batch_defaults = (batch_defaults.0.saturating_mul(ranks), batch_defaults.1.saturating_mul(ranks));
    if s.bandwidth_efficiency.is_none() {
        used.push(format!("η_bw {:.2}", eff.bandwidth));
    }
    if s.kv_bandwidth_efficiency.is_none() && s.bandwidth_efficiency.is_none() {
        used.push(format!("η_kv {:.2}", eff.kv_bandwidth));
    }
    // A serving engine's default η_fl on a generation without served runs is the fitted one of its machine balance.
    let compute_borrowed_from = s
        .compute_efficiency
        .is_none()
        .then(|| presets::engines::compute_borrowed_from(p.id, hw.kind, hw.architecture, hw.machine_balance()))
        .flatten();
    if s.compute_efficiency.is_none() {
        if let Some(reference) = compute_borrowed_from {
            // A generation without served runs borrows the fitted one of its machine balance: say so.
            let balance = hw.machine_balance().map_or_else(|| "unknown".to_string(), |b| format!("{b:.0} FLOP/B"));
            // (A teacher's trial read "ampere's" beside an Ada card as a mistake: say what is borrowed and why.)
            used.push(format!(
                "η_fl {:.2} (no served runs of {} fitted: borrowed from {}, the generation of the nearest machine balance, {balance})",
                eff.compute,
                hw.architecture.id(),
                reference.id()
            ));
        } else {
            used.push(format!("η_fl {:.2}", eff.compute));
        }
    }
    if s.step_overhead_ms.is_none() {
        used.push(format!("overhead {:.2} ms/step", eff.step_overhead_ms(m.layers)));
    }
    if s.sequence_overhead_us.is_none() && presets::engines::sequence_overhead_us(p.id) > 0.0 {
        used.push(format!("{:.0} µs per sequence per step", presets::engines::sequence_overhead_us(p.id)));
    }
    if s.request_overhead_ms.is_none() && presets::engines::request_overhead_ms(p.id) > 0.0 {
        // A teacher's trial asked where one user's TTFT tail came from (P50 31 ms, P99 132 ms) beside a front end
        // that read as a constant.
        let cv = presets::engines::REQUEST_OVERHEAD_CV;
        used.push(format!(
            "front end {:.0} ms per request{}",
            presets::engines::request_overhead_ms(p.id),
            // (The spread's own default; a typed one is the scenario's, not a default used.)
            if s.request_overhead_cv.is_none() && cv > 0.0 {
                format!(" on average, varying from request to request (lognormal, CV {cv}: TTFT has a tail even for one user)")
            } else {
                String::new()
            }
        ));
    }
    if s.moe_efficiency.is_none() && m.is_moe() && eff.moe < 1.0 {
        used.push(format!("MoE kernels at {:.2} of dense", eff.moe));
    }
    if !used.is_empty() {
        defaults.push(format!("engine efficiency: {} (fitted default for {} on {}, {})", used.join(", "), p.id, hw.kind.id(), hw.architecture.id()));
    }
    // SGLang's own default is the other way (`presets::engines::mixed_batches`): say which one is simulated, either
    // way (a new user's trial found nothing on the page describing the choice once "Apart" was picked, and a link's
    // prompt steps apart on vLLM changed its capacity without a word). (Disaggregated pools read prompts apart
    // anyway: the setting is the colocated server's.)
    let mixed = s.mixed_batches.unwrap_or_else(|| presets::engines::mixed_batches(p.id));
    if s.disaggregation.is_none() && (p.id == "sglang" || !mixed) {
        defaults.push(match (mixed, p.id) {
            (true, _) => "engine scheduling: prompt chunks share steps with the decodes (SGLang with --enable-mixed-chunk; its own default reads prompts in steps apart while the decodes wait: Prompt steps, engine.mixed_batches false)".to_string(),
            (false, "sglang") => "engine scheduling: prompts read in steps apart while every decode waits (SGLang's own default, without --enable-mixed-chunk)".to_string(),
            (false, _) => format!("engine scheduling: prompts read in steps apart while every decode waits (engine.mixed_batches false: SGLang's scheduling, and vLLM's before 0.8); {} today carries both in one step", p.name),
        });
    }
    // The deployment a calibration in the scenario is compared with.
    let here = crate::model::engine::calibrated_on(hw, m);
    Ok(EngineParams {
        name: p.name.to_string(),
        kind: crate::model::engine::EngineKind::of(p.id),
        bandwidth_efficiency: check("engine.bandwidth_efficiency", s.bandwidth_efficiency.unwrap_or(eff.bandwidth), 0.01, 1.0, "(fraction of spec)")?,
        // An explicit η_bw without η_kv moves both (fused attention assumed unless η_kv is given).
        kv_bandwidth_efficiency: check(
            "engine.kv_bandwidth_efficiency",
            eff.kv_given(s.kv_bandwidth_efficiency, s.bandwidth_efficiency),
            0.01,
            1.0,
            "(fraction of spec)",
        )?,
        compute_efficiency: check("engine.compute_efficiency", s.compute_efficiency.unwrap_or(eff.compute), 0.01, 1.0, "(fraction of peak)")?,
        moe_efficiency: check("engine.moe_efficiency", s.moe_efficiency.unwrap_or(eff.moe), 0.05, 1.0, "(fraction of a dense layer's efficiency)")?,
        step_overhead_ms: check(
            "engine.step_overhead_ms",
            s.step_overhead_ms.unwrap_or_else(|| eff.step_overhead_ms(m.layers)),
            0.0,
            10_000.0,
            "ms",
        )?,
        sequence_overhead_us: check(
            "engine.sequence_overhead_us",
            s.sequence_overhead_us.unwrap_or_else(|| presets::engines::sequence_overhead_us(p.id)),
            0.0,
            100_000.0,
            "µs",
        )?,
        request_overhead_ms: check(
            "engine.request_overhead_ms",
            s.request_overhead_ms.unwrap_or_else(|| presets::engines::request_overhead_ms(p.id)),
            0.0,
            100_000.0,
            "ms",
        )?,
        request_overhead_cv: check(
            "engine.request_overhead_cv",
            s.request_overhead_cv.unwrap_or(presets::engines::REQUEST_OVERHEAD_CV),
            0.0,
            10.0,
            "(coefficient of variation)",
        )?,
        max_batch: check_u("engine.max_batch", s.max_batch.unwrap_or(batch_defaults.0), 1, 1_000_000)?,
        max_batched_tokens: check_u("engine.max_batched_tokens", s.max_batched_tokens.unwrap_or(batch_defaults.1), 1, 10_000_000)?,
        memory_utilization: check("engine.memory_utilization", s.memory_utilization.unwrap_or(p.memory_utilization), 0.05, 1.0, "(fraction)")?,
        // The default is settled once the device memory is known (`settle_memory`: vLLM's from its profile run,
        // other engines' capped at a tenth of the memory).
        reserve_gb: check("engine.reserve_gb", s.reserve_gb.unwrap_or(p.reserve_gb), 0.0, 10_000.0, "GiB")?,
        cuda_graphs: s.cuda_graphs.unwrap_or(true),
        mixed_batches: mixed,
        compute_borrowed_from,
        // The calibrated bands hold for the deployment calibrated on, on the engines they were validated on
        // (vLLM, SGLang, TensorRT-LLM), colocated.
        calibrated: s
            .calibrated_from
            .as_ref()
            .filter(|_| {
                s.calibrated_on.as_deref() == Some(here.as_str())
                    && matches!(
                        crate::model::engine::EngineKind::of(p.id),
                        crate::model::engine::EngineKind::Vllm
                            | crate::model::engine::EngineKind::Sglang
                            | crate::model::engine::EngineKind::TensorRtLlm
                    )
                    && s.disaggregation.is_none()
            })
            .map(|_| s.calibrated_loads.unwrap_or(0)),
        // An operations trial calibrated Llama-3.1-8B on one H100, switched to Qwen3-235B on 8 × H200, and read "compute
        // at 88 % of peak (calibrated on …)" with no word that the fit was another deployment's.
        calibrated_elsewhere: s.calibrated_from.as_ref().and(s.calibrated_on.as_ref()).filter(|on| **on != here).cloned(),
    })
}

#[cfg(test)]
mod tests {
    use super::weights_after_pick;

    #[test]
    fn a_default_format_follows_the_pick_and_a_chosen_one_stays() {
        // Engine llama.cpp → vLLM with DeepSeek-V3 (released in FP8): Q4_K_M was llama.cpp's default, so FP8 follows.
        assert_eq!(weights_after_pick("q4_k_m", ("llama.cpp", Some("fp8")), ("vllm", Some("fp8"))).as_deref(), Some("fp8"));
        // A format the user chose is kept.
        assert_eq!(weights_after_pick("q8_0", ("llama.cpp", Some("fp8")), ("vllm", Some("fp8"))), None);
        // Model Llama (BF16) → gpt-oss (MXFP4) under vLLM.
        assert_eq!(weights_after_pick("bf16", ("vllm", Some("bf16")), ("vllm", Some("mxfp4"))).as_deref(), Some("mxfp4"));
        // Nothing changes when the default does not.
        assert_eq!(weights_after_pick("q4_k_m", ("llama.cpp", Some("bf16")), ("llama.cpp", Some("fp8"))), None);
    }
}
