//! Shared test helpers: a small CSV reader for tests/data and the mapping of measurement rows to scenarios.
#![allow(dead_code)]

pub mod llama_fit;
pub mod serving;

use std::collections::HashMap;
use tps_planner::model::hardware::Parallelism;
use tps_planner::model::roofline::Deployment;
use tps_planner::presets;
use tps_planner::scenario::{EngineSpec, HardwareSpec, LoadSpec, ModelSpec, QuantSpec, Resolved, Scenario, WorkloadSpec};

/// Rows of a CSV file with a header, as maps from column name to value (RFC 4180 quoting; the reader the
/// result-file import uses).
pub fn read_csv(path: &str) -> Vec<HashMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut rows = tps_planner::import::csv_rows(&text);
    let header = rows.remove(0);
    rows.into_iter().filter(|r| r.len() == header.len()).map(|r| header.iter().cloned().zip(r).collect()).collect()
}

pub fn num(row: &HashMap<String, String>, col: &str) -> Option<f64> {
    row.get(col).and_then(|v| v.trim().parse::<f64>().ok())
}

/// Weight-format id for a `weight_format` column value ("Q4_K_M", "FP8 (NVIDIA ModelOpt checkpoint)", …).
pub fn weight_id(v: &str) -> String {
    let first = v.split_whitespace().next().unwrap_or("").to_ascii_lowercase();
    match first.as_str() {
        "fp16" => "f16".into(),
        other => other.into(),
    }
}

/// Builds the scenario of a measurement row (hardware preset, model preset by name, engine, formats).
pub fn row_scenario(row: &HashMap<String, String>, engine: &str) -> Scenario {
    let model = presets::models::MODELS.iter().find(|m| m.name == row["model"]).unwrap_or_else(|| panic!("no model preset named {}", row["model"]));
    let tp = num(row, "tp").unwrap_or(1.0);
    let pp = num(row, "pp").unwrap_or(1.0);
    let devices = num(row, "n_devices").unwrap_or(tp * pp).max(tp * pp) as u32;
    let layer_split = row.get("parallelism").is_some_and(|p| p.contains("layer split"));
    // llama.cpp before the ggml-backend rewrite (PR #4766, January 2024) had one multi-GPU mode, the row split:
    // the December 2023 `main` runs (build 1691, logs in the source's notebooks) are row splits, whatever the
    // data set's parallelism column says.
    let row_split = layer_split && row.get("engine_version").is_some_and(|v| v.contains("Dec 2023"));
    // A layer split inside a serving engine is a pipeline with micro-batches; llama.cpp's is sequential.
    let parallelism = if pp > 1.0 {
        Parallelism::Pipeline
    } else if row_split {
        Parallelism::RowSplit
    } else if layer_split {
        Parallelism::LayerSplit
    } else {
        Parallelism::Tensor
    };
    // NVIDIA's ModelOpt FP8/NVFP4 checkpoints quantise the KV cache to FP8 (kv_cache_quant_algo "FP8"), which
    // trtllm-bench uses by default; the perf-overview page does not restate it.
    let modelopt = row["weight_format"].contains("ModelOpt");
    let kv = row.get("kv_cache_dtype").map(|k| k.to_ascii_lowercase()).filter(|k| k == "f16" || k == "fp16" || k == "fp8");
    Scenario {
        version: Some(1),
        hardware: HardwareSpec {
            preset: Some(row["hardware_key"].trim_start_matches("willitrun:").to_string()),
            memory_gb: machine_memory_gb(row),
            devices: Some(devices.max(1)),
            parallelism: Some(parallelism),
            ..Default::default()
        },
        model: ModelSpec { preset: Some(model.id.to_string()), ..Default::default() },
        quantization: QuantSpec {
            weights: Some(weight_id(&row["weight_format"])),
            weight_bits: num(row, "bits_per_weight_nominal"),
            kv_cache: if modelopt { Some("fp8".into()) } else { kv.map(|k| if k == "f16" { "fp16".into() } else { k }) },
        },
        engine: EngineSpec {
            preset: Some(engine.into()),
            backend: row.get("backend").cloned().filter(|b| !b.is_empty()),
            // The build the row was measured with (llama.cpp's per-layer overhead depends on it).
            version: row.get("engine_version").cloned().filter(|v| !v.is_empty()),
            ..Default::default()
        },
        workload: WorkloadSpec { load: Some(LoadSpec { offline: Some(true), ..Default::default() }), ..Default::default() },
        ..Default::default()
    }
}

/// Memory per device of the machine that was measured, when the source's row label names it ("M3 Max 40-Core GPU
/// 48GB"): a preset holds one configuration (the M3 Max preset has 128 GB), the source's Macs had 8 to 192 GB.
pub fn machine_memory_gb(row: &HashMap<String, String>) -> Option<f64> {
    let detail = row.get("source_detail")?;
    let label = &detail[detail.find("row ")?..];
    let gb = label.find("GB")?;
    let digits: String = label[..gb].chars().rev().take_while(char::is_ascii_digit).collect::<Vec<_>>().into_iter().rev().collect();
    digits.parse().ok()
}

/// The machine balance (dense 16-bit FLOP per byte) of a hardware preset, for the served compute prior.
/// The median of `v` (sorted in place; the upper middle for an even count, as the fits have always taken it);
/// NaN when empty.
pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

pub fn balance_of(hardware_key: &str) -> Option<f64> {
    tps_planner::presets::hardware::find(hardware_key).and_then(|h| h.fp16_tflops.map(|f| f * 1e3 / h.bandwidth_gbps))
}

pub fn resolve(s: &Scenario) -> Resolved {
    s.resolve().unwrap_or_else(|e| panic!("{e}"))
}

pub fn deployment(s: &Scenario) -> Deployment {
    resolve(s).deployment
}

/// One prediction against one measurement.
#[derive(Debug, Clone)]
pub struct Case {
    pub id: String,
    pub source: String,
    pub kind: String,
    pub metric: &'static str,
    pub predicted: f64,
    pub measured: f64,
}

impl Case {
    /// One line for a printout: id, source and `label` (the kind or the metric) padded to the given widths,
    /// predicted and measured at `width.precision`, and the error.
    pub fn row(&self, label: &str, source_w: usize, label_w: usize, (w, p): (usize, usize)) -> String {
        format!(
            "{} {:<source_w$} {:<label_w$} predicted {:>w$.p$} measured {:>w$.p$} ({:+.0} %)",
            self.id,
            self.source,
            label,
            self.predicted,
            self.measured,
            (self.predicted / self.measured - 1.0) * 100.0
        )
    }

    pub fn abs_pct_error(&self) -> f64 {
        ((self.predicted - self.measured) / self.measured).abs() * 100.0
    }
}

/// A band's figure for these cases, %: the p90 (the nearest rank at or above 9 in 10: the ⌈0.9 n⌉-th smallest) of (max(predicted ÷ measured,
/// measured ÷ predicted) − 1) × 100 — 9 in 10 measured figures lie within the prediction ÷ (1 + b) … × (1 + b),
/// the multiplicative band the page draws (`plan::band`). It is wider than [`stats`]' p90 where the model
/// under-predicts: measured twice the prediction is an error of −50 % but outside a ± 50 % band.
pub fn band_pct(cases: &[&Case]) -> f64 {
    let mut e: Vec<f64> = cases.iter().map(|c| ((c.predicted / c.measured).max(c.measured / c.predicted) - 1.0) * 100.0).collect();
    e.sort_by(f64::total_cmp);
    if e.is_empty() {
        return f64::NAN;
    }
    e[((0.9 * e.len() as f64).ceil() as usize).clamp(1, e.len()) - 1]
}

/// Median and p90 of absolute percentage errors (nearest-rank on the sorted list).
pub fn stats(cases: &[&Case]) -> (f64, f64, f64) {
    let mut e: Vec<f64> = cases.iter().map(|c| c.abs_pct_error()).collect();
    e.sort_by(f64::total_cmp);
    if e.is_empty() {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    let q = |p: f64| e[((p * (e.len() as f64 - 1.0)).round() as usize).min(e.len() - 1)];
    let bias = cases.iter().map(|c| (c.predicted / c.measured).ln()).sum::<f64>() / cases.len() as f64;
    (q(0.5), q(0.9), (bias.exp() - 1.0) * 100.0)
}

/// Prints a table of errors grouped by `key`.
pub fn print_groups(title: &str, cases: &[Case], key: impl Fn(&Case) -> String) {
    let mut groups: Vec<String> = cases.iter().map(&key).collect();
    groups.sort();
    groups.dedup();
    println!("{title}");
    println!("  {:<44} {:>5} {:>9} {:>9} {:>9}", "group", "n", "median %", "p90 %", "bias %");
    for g in groups {
        let sel: Vec<&Case> = cases.iter().filter(|c| key(c) == g).collect();
        let (m, p, b) = stats(&sel);
        println!("  {:<44} {:>5} {:>9.1} {:>9.1} {:>+9.1}", g, sel.len(), m, p, b);
    }
    let all: Vec<&Case> = cases.iter().collect();
    let (m, p, b) = stats(&all);
    println!("  {:<44} {:>5} {:>9.1} {:>9.1} {:>+9.1}", "ALL", all.len(), m, p, b);
}

/// Requests per run of the TensorRT-LLM perf-overview (its `prepare_dataset.py --num-requests` table for each
/// ISL/OSL): the job is finite, so a partial last wave counts.
pub fn trtllm_requests(isl: f64, osl: f64) -> f64 {
    match (isl as u32, osl as u32) {
        (128, 128) => 30_000.0,
        (128, 2048) | (2048, 128) | (1000, 1000) | (500, 2000) => 3000.0,
        (20000, 2000) => 1000.0,
        _ => 1500.0, // 128/4096, 1000/2000, 2048/2048, 5000/500
    }
}

/// Batched throughput rows scored leave-one-source-out, by dense/MoE (tests/validation.rs checks them; the band
/// classes under load count them with the served runs).
pub const BATCHED_DENSE_ROWS: usize = 203;
pub const BATCHED_MOE_ROWS: usize = 45;

/// A band class covers a measured p90 (9 in 10 figures inside it).
#[track_caller]
pub fn assert_band_covers(class: &tps_planner::plan::BandClass, p90: f64, what: &str) {
    assert!(
        p90 <= class.p90_pct,
        "the band of \"{}\" ({}) no longer covers {what}'s p90 {p90:.1} %",
        class.name,
        tps_planner::plan::band_text(class.p90_pct)
    );
}

/// A band class follows its data: its largest measured p90 is inside it and no more than 10 points under it.
#[track_caller]
pub fn assert_band_tracks(class: &tps_planner::plan::BandClass, largest_p90: f64) {
    assert_band_covers(class, largest_p90, "its largest part");
    assert!(
        largest_p90 >= class.p90_pct - 10.0,
        "the band of \"{}\" ({}) is more than 10 points wider than its data ({largest_p90:.1} %): tighten it",
        class.name,
        tps_planner::plan::band_text(class.p90_pct)
    );
}
