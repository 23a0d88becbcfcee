//! vLLM's and SGLang's serving benchmarks: `vllm bench serve` and the older `benchmark_serving.py` (one JSON
//! object per run, or JSON Lines with `--append-result`; model in `model_id`, hardware only through
//! `--metadata`) and SGLang's `bench_serving` (JSON Lines, bare `Infinity` for an unlimited rate; model in
//! `server_info.model_path`, the run's `tag`). Both write the same summary: `max_concurrency`, `request_rate`,
//! totals, `output_throughput` and `mean_/median_/pNN_<metric>_ms` latency blocks.

use super::common::{finite, load_label, num, per_user_from_tpot, string, Obj};
use super::{Kind, Measurement, Stats};
use serde_json::Value;

/// The figures a vLLM run is read from (for the message when a file holds none).
pub(super) const VLLM_FIGURES: &str = "output_throughput, mean_ttft_ms, median_tpot_ms, p99_e2el_ms, … (numbers) for a serving run";
/// The figures an SGLang run is read from.
pub(super) const SGLANG_FIGURES: &str = "output_throughput, mean_ttft_ms, median_tpot_ms, p99_e2e_latency_ms, … (numbers) for a serving run";

/// `mean_X_ms`, `median_X_ms` / `p50_X_ms`, `p90_X_ms`, `p95_X_ms`, `p99_X_ms` (vLLM, SGLang).
fn ms_stats(o: &Obj, metric: &str) -> Stats {
    let g = |k: String| finite(num(o.get(&k)));
    Stats {
        mean: g(format!("mean_{metric}_ms")),
        p50: g(format!("p50_{metric}_ms")).or_else(|| g(format!("median_{metric}_ms"))),
        p90: g(format!("p90_{metric}_ms")),
        p95: g(format!("p95_{metric}_ms")),
        p99: g(format!("p99_{metric}_ms")),
    }
}

fn per_request(o: &Obj, total: &str) -> Option<f64> {
    let done = finite(num(o.get("completed")))?;
    (done > 0.0).then(|| finite(num(o.get(total))).map(|t| t / done)).flatten()
}

/// What vLLM's and SGLang's serving summaries share: load, mean lengths from the totals, completed requests,
/// output throughput and the `*_ms` latency blocks (`e2e` names the end-to-end block: `e2el` or `e2e_latency`).
fn serving_summary(tool: &str, o: &Obj, e2e: &str) -> Measurement {
    let mut m = Measurement::new(tool, Kind::Serving);
    m.concurrency = finite(num(o.get("max_concurrency")));
    m.request_rate = finite(num(o.get("request_rate")));
    m.prompt_tokens = per_request(o, "total_input_tokens");
    m.output_tokens = per_request(o, "total_output_tokens");
    m.requests = finite(num(o.get("completed")));
    m.system_output_tps = finite(num(o.get("output_throughput")));
    m.ttft_ms = ms_stats(o, "ttft");
    m.tpot_ms = ms_stats(o, "tpot");
    m.itl_ms = ms_stats(o, "itl");
    m.e2e_ms = ms_stats(o, e2e);
    m.per_user_tps = per_user_from_tpot(&m.tpot_ms);
    // No request completed: the file's figures measure nothing (a server that failed, a run cut short). Left out and
    // said, so neither a comparison nor a calibration reads them (a bad-input trial: 2,438 tok/s of a run with
    // `completed: 0` had been compared and fitted).
    if m.requests == Some(0.0) {
        m.system_output_tps = None;
        m.per_user_tps = None;
        (m.ttft_ms, m.tpot_ms, m.itl_ms, m.e2e_ms) = (Stats::default(), Stats::default(), Stats::default(), Stats::default());
        m.notes.push(format!("{}: the run's figures are left out", super::NONE_COMPLETED));
    }
    m
}

/// A vLLM summary (`vllm bench serve`, or `benchmark_serving.py`, recognised by its `request_goodput:` key).
pub(super) fn vllm(o: &Obj) -> Measurement {
    let legacy = o.contains_key("request_goodput:");
    let mut m = serving_summary(if legacy { "vLLM benchmark_serving.py" } else { "vLLM bench serve" }, o, "e2el");
    m.model = string(o.get("model_id"));
    // Hardware only through --metadata (any of these names).
    m.hardware = ["gpu", "hardware", "device", "gpu_name", "accelerator"].iter().find_map(|k| string(o.get(*k)));
    m.label = string(o.get("label")).map_or_else(|| load_label(&m), |l| format!("{l}, {}", load_label(&m)));
    // vLLM's data-parallel ranks each have their own devices (DP attention's too: tensor parallel × data parallel).
    let dp = count(o, &["data_parallel_size", "dp_size", "dp"]).unwrap_or(1.0);
    m.devices = devices(o, &["tensor_parallel_size", "tp_size", "tp"], &["pipeline_parallel_size", "pp_size", "pp"])
        .map(|d| d.saturating_mul(dp as u32).min(65_536));
    // `--metadata` values are strings ("true").
    let ep = o.get("enable_expert_parallel").is_some_and(|v| v.as_bool() == Some(true) || v.as_str().is_some_and(|s| s.eq_ignore_ascii_case("true")));
    m.dp_attention = (ep && dp > 1.0).then_some(true);
    if let Some(f) = finite(num(o.get("failed"))).filter(|f| *f > 0.0) {
        m.notes.push(format!("{f} requests failed"));
    }
    m
}

/// An SGLang `bench_serving` summary.
pub(super) fn sglang(o: &Obj) -> Measurement {
    let mut m = serving_summary("SGLang bench_serving", o, "e2e_latency");
    let info = o.get("server_info").and_then(Value::as_object);
    m.model = info.and_then(|i| string(i.get("model_path")));
    // The server's own info: an SGLang server answered.
    m.engine = info.map(|_| "sglang".to_string());
    // Without completions the requested lengths stand in.
    m.prompt_tokens = m.prompt_tokens.or_else(|| finite(num(o.get("random_input_len"))));
    m.output_tokens = m.output_tokens.or_else(|| finite(num(o.get("random_output_len"))));
    m.label = string(o.get("tag")).map_or_else(|| load_label(&m), |t| format!("{t}, {}", load_label(&m)));
    // SGLang's DP attention runs its data-parallel ranks inside the tensor-parallel group (`--tp 8 --dp 8` is 8
    // devices); without it each data-parallel replica has its own `tp_size` devices.
    // (Server info without `enable_dp_attention` says nothing of the split.)
    let flag = info.and_then(|i| i.get("enable_dp_attention").and_then(Value::as_bool));
    let dp_size = info.and_then(|i| count(i, &["dp_size"]));
    m.devices = info.and_then(|i| {
        let dp = if flag == Some(true) { 1.0 } else { dp_size.unwrap_or(1.0) };
        devices(i, &["tp_size"], &["pp_size"]).map(|d| d.saturating_mul(dp as u32).min(65_536))
    });
    // The server's own arguments: DP attention on, over more than one rank (SGLang turns it off at dp_size 1).
    m.dp_attention = flag.map(|on| on && dp_size.is_none_or(|d| d > 1.0));
    m
}

/// A count the file states under one of `keys` (a whole number from 1 to 4,096), if any.
fn count(o: &Obj, keys: &[&str]) -> Option<f64> {
    keys.iter().find_map(|k| finite(num(o.get(*k)))).filter(|n| *n >= 1.0 && *n <= 4096.0 && n.fract() == 0.0)
}

/// Devices of the split the file states (tensor × pipeline parallel; an absent pipeline is 1), if any.
fn devices(o: &Obj, tp: &[&str], pp: &[&str]) -> Option<u32> {
    let t = count(o, tp)?;
    // Bounded above: a count, not a product the u32 cast could overflow.
    Some((t * count(o, pp).unwrap_or(1.0)).min(65_536.0) as u32)
}
