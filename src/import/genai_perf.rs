//! genai-perf and AIPerf profile exports. `profile_export_*.json`: one object of `{unit, avg, p50, …, p99}`
//! blocks (`time_to_first_token`, `inter_token_latency`, `request_latency`, `output_token_throughput`, …) and
//! the load and model in `input_config` (genai-perf under `perf_analyzer.stimulus`, AIPerf under `loadgen`).
//! `profile_export_*.csv`: a statistics table (`Metric,avg,min,max,p99,…` — the percentile columns in either
//! order, read by name; genai-perf writes `"1,863.41"`) followed by a `Metric,Value` table of throughputs; it
//! does not record the load. `inter_token_latency` is vLLM's TPOT; AIPerf's `inter_chunk_latency` its ITL.

use super::common::{at, csv_rows, finite, load_label, num, per_user_from_tpot, string, string_obj, Obj};
use super::{Kind, Measurement, Stats};
use serde_json::Value;

/// The figures a genai-perf or AIPerf run is read from (for the message when a file holds none).
pub(super) const FIGURES: &str = "output_token_throughput, time_to_first_token, inter_token_latency or request_latency with avg/p50/…/p99 values";

/// genai-perf / AIPerf `{unit, avg, p50, …}` blocks.
fn block_stats(o: &Obj, key: &str) -> Stats {
    let Some(b) = o.get(key).and_then(Value::as_object) else { return Stats::default() };
    let g = |k: &str| finite(num(b.get(k)));
    let s = Stats { mean: g("avg"), p50: g("p50"), p90: g("p90"), p95: g("p95"), p99: g("p99") };
    // Times are ms in both tools; a block in seconds or ns would say so in its unit.
    match b.get("unit").and_then(Value::as_str) {
        Some("s" | "sec") => s.scaled(1e3),
        Some("ns") => s.scaled(1e-6),
        _ => s,
    }
}

/// The JSON export (an object whose `output_token_throughput` is a block).
pub(super) fn json(o: &Obj) -> Measurement {
    let aiperf = o.contains_key("was_cancelled") || at(o, &["input_config", "loadgen"]).is_some();
    let mut m = Measurement::new(if aiperf { "AIPerf" } else { "genai-perf" }, Kind::Serving);
    let cfg = o.get("input_config").and_then(Value::as_object);
    if let Some(c) = cfg {
        let first = |v: Option<&Value>| v.and_then(Value::as_array).and_then(|a| a.first()).and_then(|x| string(Some(x)));
        m.model = first(at(c, &["model_names"])).or_else(|| first(at(c, &["endpoint", "model_names"]))).or_else(|| string(c.get("model")));
        m.concurrency = [&["perf_analyzer", "stimulus", "concurrency"][..], &["loadgen", "concurrency"], &["concurrency"]]
            .iter()
            .find_map(|p| finite(num(at(c, p))));
        m.request_rate = [&["perf_analyzer", "stimulus", "request_rate"][..], &["loadgen", "request_rate"], &["request_rate"]]
            .iter()
            .find_map(|p| finite(num(at(c, p))));
    }
    m.prompt_tokens = block_stats(o, "input_sequence_length").mean;
    m.output_tokens = block_stats(o, "output_sequence_length").mean;
    // The lengths' spread: the blocks' std over their mean.
    let cv = |key: &str| {
        let b = o.get(key).and_then(Value::as_object)?;
        let (sd, mean) = (finite(num(b.get("std")))?, finite(num(b.get("avg")))?);
        (mean > 0.0 && sd >= 0.0).then(|| sd / mean)
    };
    m.prompt_cv = cv("input_sequence_length");
    m.output_cv = cv("output_sequence_length");
    m.requests = block_stats(o, "request_count").mean;
    m.system_output_tps = block_stats(o, "output_token_throughput").mean;
    m.ttft_ms = block_stats(o, "time_to_first_token");
    m.tpot_ms = block_stats(o, "inter_token_latency");
    m.itl_ms = block_stats(o, "inter_chunk_latency");
    m.e2e_ms = block_stats(o, "request_latency");
    m.per_user_tps = per_user_from_tpot(&m.tpot_ms);
    m.label = load_label(&m);
    m.notes.push("inter_token_latency is (E2E − TTFT) / (output − 1), vLLM's TPOT".into());
    if m.concurrency.is_none() && m.request_rate.is_none() {
        m.notes.push("the file does not record the load (concurrency or request rate)".into());
        m.label = "load not recorded".into();
        m.load_recorded = false;
    }
    m
}

/// The CSV export (a file starting with `Metric,`).
pub(super) fn csv(text: &str) -> Result<Vec<Measurement>, String> {
    let rows = csv_rows(text);
    let mut header: Vec<String> = Vec::new();
    let mut stats: Vec<(String, Obj)> = Vec::new();
    let mut values: Vec<(String, f64)> = Vec::new();
    let mut aiperf = false;
    for r in rows {
        if r.first().is_some_and(|c| c == "Metric") {
            header = r.iter().map(|h| h.to_ascii_lowercase()).collect();
            aiperf |= header.iter().any(|h| h == "std");
            continue;
        }
        let Some(label) = r.first().map(|l| l.to_ascii_lowercase()) else { continue };
        if label.is_empty() {
            continue;
        }
        if header.len() == 2 {
            if let Some(v) = num(r.get(1).map(|v| Value::String(v.clone())).as_ref()) {
                values.push((label, v));
            }
        } else if header.len() > 2 {
            stats.push((label, string_obj(&header[1..], r.get(1..).unwrap_or_default())));
        }
    }
    if stats.is_empty() && values.is_empty() {
        return Err("a CSV starting with `Metric,` but without genai-perf/AIPerf rows".into());
    }
    // AIPerf writes "Time to First Token", genai-perf "Time To First Token".
    aiperf |= text.contains("Time to First Token (ms)");
    let mut m = Measurement::new(if aiperf { "AIPerf" } else { "genai-perf" }, Kind::Serving);
    let find = |prefix: &str| stats.iter().find(|(l, _)| l.starts_with(prefix)).map(|(_, o)| o);
    let st = |prefix: &str| {
        find(prefix).map_or_else(Stats::default, |o| {
            let g = |k: &str| finite(num(o.get(k)));
            Stats { mean: g("avg"), p50: g("p50"), p90: g("p90"), p95: g("p95"), p99: g("p99") }
        })
    };
    let value = |prefix: &str| values.iter().find(|(l, _)| l.starts_with(prefix)).map(|(_, v)| *v);
    m.ttft_ms = st("time to first token");
    m.tpot_ms = st("inter token latency");
    m.itl_ms = st("inter chunk latency");
    m.e2e_ms = st("request latency");
    m.prompt_tokens = st("input sequence length").mean;
    m.output_tokens = st("output sequence length").mean;
    m.system_output_tps = value("output token throughput (");
    m.requests = value("request count");
    m.per_user_tps = per_user_from_tpot(&m.tpot_ms);
    m.label = "load not recorded".into();
    m.load_recorded = false;
    m.notes.push("the CSV export does not record the load: import the JSON export, which does".into());
    m.notes.push("inter token latency is (E2E − TTFT) / (output − 1), vLLM's TPOT".into());
    Ok(vec![m])
}
