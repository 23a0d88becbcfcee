//! Validation against served runs (tests/data/serving.csv: `vllm bench serve` / `benchmark_serving.py` /
//! SGLang `bench_serving` style runs of vLLM, SGLang, TensorRT-LLM, TGI and LMDeploy on H100/H200/A100/MI300X/
//! B200/RTX 3090, sources in tests/data/README.md). Nothing is fitted on these rows: every figure here is
//! out of sample for the model's fitted defaults (which come from other sources), so this is the check of the
//! serving simulator a user should believe for tail latency and closed-loop TTFT.
//!
//! Each row becomes a scenario the way a user would state it: the hardware and model presets, the weight
//! format, the engine (with the `max-num-seqs` / `max-num-batched-tokens` the run's serving script states), the
//! run's mean lengths (ShareGPT runs: total tokens ÷ requests, lengths lognormal — see [`SHAREGPT_SPREAD`]) and
//! its load (closed-loop concurrency, Poisson request rate, or every request at once). Rows the model cannot
//! state are skipped and counted by reason: models without a preset shape, a GPU whose variant the source does
//! not name, data-parallel replicas, speculative decoding.

mod common;
use common::*;
use std::collections::HashMap;
use tps_planner::plan;
use tps_planner::presets;
use tps_planner::scenario::{EngineSpec, HardwareSpec, LoadSpec, ModelSpec, QuantSpec, Scenario, WorkloadSpec};

/// Coefficient of variation used for ShareGPT request lengths (lognormal). ShareGPT's conversation turns are
/// long-tailed: output lengths of a few tokens to over a thousand, standard deviation about the mean.
const SHAREGPT_SPREAD: f64 = 1.0;

/// `key=value` from a row's notes.
fn note(row: &HashMap<String, String>, key: &str) -> Option<f64> {
    let notes = &row["notes"];
    let i = notes.find(&format!("{key}="))?;
    notes[i + key.len() + 1..].split(|c: char| c == ';' || c == ',' || c.is_whitespace()).next()?.parse().ok()
}

/// A server flag's value from the notes (`max-num-seqs=512`, `--max-num-seqs 512`).
fn flag(row: &HashMap<String, String>, name: &str) -> Option<f64> {
    let notes = &row["notes"];
    let i = notes.find(name)?;
    notes[i + name.len()..].trim_start_matches(|c: char| c == '=' || c == ' ').split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

/// The short name of a row's source (repository or site).
fn source(row: &HashMap<String, String>) -> String {
    let s = row["source"].trim_start_matches("github:").trim_start_matches("https://");
    s.split([' ', '/']).take(if row["source"].starts_with("github:") { 2 } else { 1 }).collect::<Vec<_>>().join("/")
}

fn engine_id(e: &str) -> Option<&'static str> {
    Some(if e.starts_with("vLLM") {
        "vllm"
    } else if e.starts_with("SGLang") {
        "sglang"
    } else if e.starts_with("TensorRT") {
        "tensorrt-llm"
    } else if e.starts_with("LMDeploy") {
        "lmdeploy"
    } else if e.starts_with("TGI") {
        "generic"
    } else {
        return None;
    })
}

/// One served run stated as a scenario, or why it cannot be.
struct Run {
    id: String,
    source: String,
    load_type: String,
    moe: bool,
    engine: String,
    scenario: Scenario,
    offline: bool,
}

fn run_of(row: &HashMap<String, String>) -> Result<Run, &'static str> {
    let model = presets::models::MODELS.iter().find(|m| m.name == row["model"]).ok_or("model without a preset shape")?;
    if row["hardware_key"].starts_with("other:") {
        return Err("GPU variant not stated");
    }
    let notes = row["notes"].to_ascii_lowercase();
    if ["eagle", "mtp", "speculative"].iter().any(|w| notes.contains(w)) {
        return Err("speculative decoding (not modelled)");
    }
    let tp = num(row, "tp").unwrap_or(1.0);
    let pp = num(row, "pp").unwrap_or(1.0);
    let devices = num(row, "n_devices").unwrap_or(tp * pp);
    if (devices - tp * pp).abs() > 0.5 || notes.contains("dp-attention") || notes.contains("--dp") || notes.contains("enable-dp-attention") {
        return Err("data-parallel replicas or DP attention (not modelled)");
    }
    let engine = engine_id(&row["engine"]).ok_or("engine not modelled")?;
    let requests = num(row, "num_requests").or_else(|| note(row, "successful_requests")).unwrap_or(1000.0);
    let done = note(row, "successful_requests").or_else(|| note(row, "completed")).unwrap_or(requests);
    let fixed = num(row, "input_len").zip(num(row, "output_len"));
    let (prompt, output) = match fixed {
        Some(l) => l,
        None => {
            let i = note(row, "total_input_tokens").ok_or("lengths not given")?;
            let o = note(row, "total_generated_tokens").or_else(|| note(row, "total_output_tokens")).ok_or("lengths not given")?;
            (i / done.max(1.0), o / done.max(1.0))
        }
    };
    if prompt < 1.0 || output < 2.0 {
        return Err("lengths not given");
    }
    let load_type = row["load_type"].clone();
    let (load, offline) = if load_type.starts_with("closed") {
        (LoadSpec { concurrency: Some(vec![num(row, "batch_or_concurrency").ok_or("no concurrency")?]), ..Default::default() }, false)
    } else if load_type.starts_with("open") {
        (LoadSpec { request_rate: Some(vec![num(row, "request_rate_qps").ok_or("no rate")?]), ..Default::default() }, false)
    } else {
        (LoadSpec { offline: Some(true), ..Default::default() }, true)
    };
    let wf = row["weight_format"].to_ascii_lowercase();
    let weights = if wf.starts_with("fp8") {
        "fp8"
    } else if wf.starts_with("mxfp4") {
        "mxfp4"
    } else if wf.starts_with("awq") {
        "awq"
    } else if wf.starts_with("bf16") || wf.starts_with("fp16") {
        "bf16"
    } else {
        return Err("weight format not modelled");
    };
    let kv = row["kv_cache_dtype"].to_ascii_lowercase();
    let kv = if kv.starts_with("fp8") { Some("fp8".to_string()) } else { None };
    let scenario = Scenario {
        version: Some(1),
        hardware: HardwareSpec { preset: Some(row["hardware_key"].clone()), devices: Some(devices as u32), ..Default::default() },
        model: ModelSpec { preset: Some(model.id.to_string()), ..Default::default() },
        quantization: QuantSpec { weights: Some(weights.into()), kv_cache: kv, ..Default::default() },
        engine: EngineSpec {
            preset: Some(engine.into()),
            backend: row["engine"].contains("ROCm").then(|| "rocm".to_string()),
            max_batch: flag(row, "max-num-seqs").map(|v| v as u32),
            max_batched_tokens: flag(row, "max-num-batched-tokens").map(|v| v as u32),
            ..Default::default()
        },
        workload: WorkloadSpec {
            prompt_tokens: Some(prompt.round()),
            output_tokens: Some(output.round().max(2.0)),
            distribution: Some(if fixed.is_some() { "fixed" } else { "lognormal" }.into()),
            spread: if fixed.is_some() { None } else { Some(SHAREGPT_SPREAD) },
            load: Some(load),
            requests: Some(requests.clamp(10.0, 2000.0) as u32),
            ..Default::default()
        },
        ..Default::default()
    };
    Ok(Run { id: row["id"].clone(), source: source(row), load_type, moe: model.moe.experts > 0, engine: engine.into(), scenario, offline })
}

/// Every scored figure of every run the model can state, and the skipped rows by reason.
fn serving_cases() -> (Vec<Case>, Vec<(String, usize)>) {
    let mut cases = Vec::new();
    let mut skipped: HashMap<String, usize> = HashMap::new();
    for row in read_csv("tests/data/serving.csv") {
        let run = match run_of(&row) {
            Ok(r) => r,
            Err(why) => {
                *skipped.entry(why.into()).or_default() += 1;
                continue;
            }
        };
        let report = match plan::evaluate(&run.scenario) {
            Ok(r) => r,
            Err(e) => panic!("{}: {e}", run.id),
        };
        if !report.memory.fits {
            *skipped.entry("does not fit by the model's memory accounting".into()).or_default() += 1;
            continue;
        }
        let class = format!("{} {}", if run.moe { "MoE" } else { "dense" }, run.engine);
        let mut push = |metric: &'static str, predicted: f64, col: &str| {
            if let Some(measured) = num(&row, col).filter(|m| *m > 0.0) {
                if predicted.is_finite() && predicted > 0.0 {
                    let load = run.load_type.split_whitespace().next().unwrap_or("").to_string();
                    cases.push(Case { id: run.id.clone(), source: format!("{}|{load}|{class}", run.source), kind: class.clone(), metric, predicted, measured });
                }
            }
        };
        if run.offline {
            push("output tok/s", report.peak.system_tps, "output_tok_s_system");
            continue;
        }
        let p = &report.sweep[0];
        push("output tok/s", p.system_tps, "output_tok_s_system");
        push("TTFT mean", p.ttft_ms.mean, "ttft_ms_mean");
        push("TTFT P50", p.ttft_ms.p50, "ttft_ms_p50");
        push("TTFT P99", p.ttft_ms.p99, "ttft_ms_p99");
        push("TPOT mean", p.tpot_ms.mean, "tpot_or_itl_ms_mean");
        push("TPOT P50", p.tpot_ms.p50, "tpot_or_itl_ms_p50");
        push("TPOT P99", p.tpot_ms.p99, "tpot_or_itl_ms_p99");
    }
    let mut skipped: Vec<(String, usize)> = skipped.into_iter().collect();
    skipped.sort();
    (cases, skipped)
}

#[test]
fn served_runs_accuracy() {
    let (cases, skipped) = serving_cases();
    println!("served runs (tests/data/serving.csv), rows skipped: {skipped:?}");
    if let Ok(v) = std::env::var("TPS_VALIDATION_ROWS") {
        let mut worst: Vec<&Case> = cases.iter().collect();
        worst.sort_by(|a, b| b.abs_pct_error().total_cmp(&a.abs_pct_error()));
        for c in worst.iter().take(v.parse().unwrap_or(60)) {
            println!("{} {:<60} {:<10} predicted {:>10.1} measured {:>10.1} ({:+.0} %)", c.id, c.source, c.metric, c.predicted, c.measured, (c.predicted / c.measured - 1.0) * 100.0);
        }
    }
    if let Ok(path) = std::env::var("TPS_VALIDATION_CSV") {
        let mut out = String::from("id,group,metric,predicted,measured\n");
        for c in &cases {
            out.push_str(&format!("{},{},{},{},{}\n", c.id, c.source, c.metric, c.predicted, c.measured));
        }
        std::fs::write(&path, out).unwrap();
    }
    for metric in ["output tok/s", "TTFT mean", "TTFT P50", "TTFT P99", "TPOT mean", "TPOT P50", "TPOT P99"] {
        let sel: Vec<Case> = cases.iter().filter(|c| c.metric == metric).cloned().collect();
        print_groups(&format!("served runs, {metric}: by source | load | class"), &sel, |c| c.source.clone());
    }
    let runs: std::collections::HashSet<&str> = cases.iter().map(|c| c.id.as_str()).collect();
    println!("served runs scored: {} runs, {} figures", runs.len(), cases.len());
    assert!(runs.len() >= 150, "only {} served runs could be stated as scenarios", runs.len());
}
