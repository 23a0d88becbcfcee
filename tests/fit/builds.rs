//! Fits of the llama.cpp software era (current builds' per-layer overhead) and of its back ends (streaming and
//! compute efficiency of Vulkan, ROCm and SYCL relative to CUDA/Metal).

use super::*;

/// Current llama.cpp builds' per-layer overhead relative to the 2024 fit (`engines::llama_cpp_build_overhead_factor`):
/// scanned per family (GPUs, Apple silicon) on the llama-bench decode rows of current builds from sources outside
/// the fit (tests/data/single_stream_new.csv, single_stream_external.csv), smallest median |log error|;
/// the defaults must stay within 0.1 of the fit.
#[test]
fn llama_cpp_current_build_overhead_matches_the_fit() {
    use tps_planner::model::hardware::HardwareKind as K;
    // (scenario with the 2024 overhead as an explicit number, its 2024 overhead ms, measured tok/s, tokens, apple)
    let mut rows = Vec::new();
    for row in read_csv("tests/data/single_stream_new.csv") {
        let known = tps_planner::presets::models::MODELS.iter().any(|m| m.name == row["model"])
            && tps_planner::presets::hardware::find(&row["hardware_key"]).is_some();
        // Pure decode only (llama-bench tgN): llmfit's whole-request rates include prefill and HTTP and are
        // checked, not fitted on.
        if !known || !engines::llama_cpp_current_build(Some(&row["engine_version"])) || !row["test"].starts_with("tg") {
            continue;
        }
        let mut s = row_scenario(&row, "llama.cpp");
        if s.quantization.weights.as_deref().and_then(tps_planner::model::quant::weight_format).is_none() {
            s.quantization.weights = None;
        }
        let (Some(m), gen) = (num(&row, "decode_tok_s"), num(&row, "gen_len").unwrap_or(128.0)) else { continue };
        rows.push((s, m, gen));
    }
    for row in read_csv("tests/data/single_stream_external.csv") {
        let s = tps_planner::scenario::Scenario::from_json(&format!(
            r#"{{"hardware":{{"preset":"{}"}},"model":{{"preset":"{}"}},"quantization":{{"weights":"{}"}},"engine":{{"preset":"llama.cpp"}}}}"#,
            row["hardware_key"], row["model_preset"], row["weights"]
        ))
        .unwrap();
        rows.push((s, num(&row, "decode_tok_s").unwrap(), num(&row, "test_gen").unwrap()));
    }
    println!("llama.cpp current builds, per-layer overhead ÷ the 2024 fit ({} rows):", rows.len());

    use tps_planner::model::hardware::Architecture as A;
    for (apple, name, default) in
        [(false, "GPUs", engines::LLAMA_CPP_CURRENT_OVERHEAD_GPU), (true, "Apple M3/M4", engines::LLAMA_CPP_CURRENT_OVERHEAD_APPLE)]
    {
        let mut best = (f64::INFINITY, 1.0);
        let mut n = 0;
        for step in 0..=30 {
            let f = 0.05 * f64::from(step);
            let mut errs = Vec::new();
            for (s, m, gen) in &rows {
                let base = resolve(s).deployment;
                if (base.hardware.kind == K::AppleSilicon) != apple || (apple && !matches!(base.hardware.architecture, A::AppleM3 | A::AppleM4)) {
                    continue;
                }
                let old = engines::efficiency("llama.cpp", base.hardware.kind, base.hardware.architecture, None).step_overhead_ms(base.model.layers);
                let mut t = s.clone();
                t.engine.step_overhead_ms = Some(old * f);
                let d = resolve(&t).deployment;
                errs.push((1.0 / d.mean_decode_step(1.0, 0.0, *gen) / m).ln().abs());
            }
            n = errs.len();
            errs.sort_by(f64::total_cmp);
            if let Some(&med) = errs.get(errs.len() / 2) {
                if med < best.0 - 1e-9 {
                    best = (med, f);
                }
            }
        }
        println!("  {name:<14} factor {:.2} over {n} rows (median |log error| {:.3}); default {default:.2}", best.1, best.0);
        assert!((default - best.1).abs() <= 0.1, "{name}: default {default} vs fit {:.2}", best.1);
    }
}

/// llama.cpp's streaming efficiency per back end (`engines::backend_factor`), scanned on the Vulkan, ROCm and SYCL
/// decode rows of tests/data/single_stream_more.csv (smallest median |log error|); defaults within 0.05 of the fit.
#[test]
fn backend_factors_match_the_fit() {
    let rows: Vec<_> = read_csv("tests/data/single_stream_more.csv")
        .into_iter()
        .filter(|r| {
            !r["hardware_key"].starts_with("other:")
                && tps_planner::presets::hardware::find(&r["hardware_key"]).is_some()
                && tps_planner::presets::models::MODELS.iter().any(|m| m.name == r["model"])
        })
        .collect();
    println!("llama.cpp back ends, streaming efficiency ÷ CUDA/Metal's:");
    for (backend, default) in [("vulkan", engines::BACKEND_VULKAN), ("rocm", engines::BACKEND_ROCM), ("sycl", engines::BACKEND_SYCL)] {
        let sel: Vec<_> =
            rows.iter().filter(|r| r["backend"].to_ascii_lowercase().starts_with(if backend == "rocm" { "rocm" } else { backend })).collect();
        let mut best = (f64::INFINITY, 1.0);
        for step in 0..=40 {
            let f = 0.3 + 0.02 * f64::from(step);
            let mut errs = Vec::new();
            for row in &sel {
                let mut s = row_scenario(row, "llama.cpp");
                if s.quantization.weights.as_deref().and_then(tps_planner::model::quant::weight_format).is_none() {
                    s.quantization.weights = None;
                }
                s.engine.backend = Some("cuda".into());
                let Ok(r) = s.resolve() else { continue };
                let d0 = r.deployment;
                if !d0.fits() {
                    continue;
                }
                s.engine.bandwidth_efficiency = Some((d0.engine.bandwidth_efficiency * f).min(1.0));
                s.engine.kv_bandwidth_efficiency = Some((d0.engine.kv_bandwidth_efficiency * f).min(1.0));
                let d = resolve(&s).deployment;
                let (Some(m), Some(gen)) = (num(row, "decode_tok_s"), num(row, "gen_len")) else { continue };
                errs.push((1.0 / d.mean_decode_step(1.0, num(row, "context_depth").unwrap_or(0.0), gen) / m).ln().abs());
            }
            errs.sort_by(f64::total_cmp);
            if let Some(&med) = errs.get(errs.len() / 2) {
                if med < best.0 - 1e-9 {
                    best = (med, f);
                }
            }
        }
        println!("  {backend:<7} factor {:.2} over {} rows (median |log error| {:.3}); default {default:.2}", best.1, sel.len(), best.0);
        assert!((default - best.1).abs() <= 0.05, "{backend}: default {default} vs fit {:.2}", best.1);
    }
}

/// llama.cpp's compute efficiency per back end (`engines::backend_compute_factor`), scanned on the MoE
/// token-batch sweeps of tests/data/batched_more.csv with at least 32 tokens per pass (compute-bound; Vulkan and
/// ROCm on the Radeon 8060S), smallest median |log error| of tokens/s; defaults within 0.03 of the fit.
#[test]
fn backend_compute_factors_match_the_fit() {
    let rows: Vec<_> = read_csv("tests/data/batched_more.csv")
        .into_iter()
        .filter(|r| {
            r["engine"].to_ascii_lowercase().starts_with("llama.cpp")
                && tps_planner::presets::hardware::find(&r["hardware_key"]).is_some()
                && tps_planner::presets::models::MODELS.iter().any(|m| m.name == r["model"])
                && num(r, "batch_or_concurrency").is_some_and(|n| n >= 32.0)
        })
        .collect();
    println!("llama.cpp back ends, compute efficiency ÷ CUDA/Metal's (token batches ≥ 32):");
    for (backend, default) in [("vulkan", engines::BACKEND_COMPUTE_VULKAN), ("rocm", engines::BACKEND_COMPUTE_ROCM)] {
        let sel: Vec<_> =
            rows.iter().filter(|r| r["engine"].to_ascii_lowercase().contains(if backend == "rocm" { "rocm" } else { "vulkan" })).collect();
        let mut best = (f64::INFINITY, 1.0);
        for step in 0..=50 {
            let f = 0.02 + 0.02 * f64::from(step);
            let mut errs = Vec::new();
            for row in &sel {
                let mut s = row_scenario(row, "llama.cpp");
                s.quantization.weights = None;
                s.engine.backend = Some(backend.into());
                let n = num(row, "batch_or_concurrency").unwrap();
                if row["engine"].contains("-ub") {
                    s.engine.max_batched_tokens = Some(n as u32);
                }
                let Ok(r) = s.resolve() else { continue };
                if !r.deployment.fits() {
                    continue;
                }
                let base = r.deployment.engine.compute_efficiency / engines::backend_compute_factor(backend);
                s.engine.compute_efficiency = Some((base * f).min(1.0));
                let d = resolve(&s).deployment;
                let m = num(row, "prefill_tok_s_system").unwrap();
                errs.push((n / d.prefill_seconds(n, 0.0) / m).ln().abs());
            }
            errs.sort_by(f64::total_cmp);
            if let Some(&med) = errs.get(errs.len() / 2) {
                if med < best.0 - 1e-9 {
                    best = (med, f);
                }
            }
        }
        println!("  {backend:<7} factor {:.2} over {} rows (median |log error| {:.3}); default {default:.2}", best.1, sel.len(), best.0);
        assert!((default - best.1).abs() <= 0.03, "{backend}: default {default} vs fit {:.2}", best.1);
    }
}
