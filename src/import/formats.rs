//! The parsers behind [`super::parse`]: format detection from content, lenient JSON, CSV, Markdown and the
//! Prometheus text format. Field meanings and pitfalls per tool are in shared/samples/README.md (the tools'
//! source files at the commits it names).

use super::{Kind, Measurement, Stats};
use serde_json::{Map, Value};

type Obj = Map<String, Value>;

/// Detects the format and parses it.
pub(super) fn parse(text: &str) -> Result<Vec<Measurement>, String> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        return parse_json(text);
    }
    if text.lines().any(|l| l.starts_with("vllm:")) {
        return prometheus(text);
    }
    let first = trimmed.lines().next().unwrap_or("");
    if first.starts_with("Metric,") {
        return perf_csv(text);
    }
    if first.contains("avg_ts") && first.contains("n_prompt") {
        return Ok(table_rows(&csv_rows(text)).iter().filter_map(llama_bench_record).collect());
    }
    if first.starts_with('|') && text.contains("t/s") {
        return llama_bench_markdown(text);
    }
    Err("not a result file of a known tool (vLLM or SGLang serving benchmark, genai-perf, AIPerf, llmperf, \
         llama-bench JSON/JSONL/CSV/Markdown, or vLLM /metrics)"
        .into())
}

/// The figures a run of `tool` is read from, for the message when a file holds none.
pub(super) fn expected_figures(tool: &str) -> &'static str {
    match tool {
        "vLLM bench serve" | "vLLM benchmark_serving.py" => {
            "output_throughput, mean_ttft_ms, median_tpot_ms, p99_e2el_ms, … (numbers) for a serving run"
        }
        "SGLang bench_serving" => "output_throughput, mean_ttft_ms, median_tpot_ms, p99_e2e_latency_ms, … (numbers) for a serving run",
        "genai-perf" | "AIPerf" => {
            "output_token_throughput, time_to_first_token, inter_token_latency or request_latency with avg/p50/…/p99 values"
        }
        "llmperf" => "results_mean_output_throughput_token_per_s, results_ttft_s_mean, results_end_to_end_latency_s_mean, … (numbers)",
        "llama-bench" => "avg_ts (tokens/s) for each pp/tg test",
        "vLLM /metrics" => {
            "observations in vllm:time_to_first_token_seconds, vllm:inter_token_latency_seconds or vllm:e2e_request_latency_seconds"
        }
        _ => "a throughput, a latency statistic or tokens/s",
    }
}

// ---------------------------------------------------------------------------------------------------------
// JSON

/// Replaces the bare `Infinity`, `-Infinity` and `NaN` tokens Python writes (outside strings) with `null`, so a
/// strict parser accepts the file. A rate of `null` then reads as "unlimited", which is what `Infinity` meant.
fn sanitize_json(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            rest = &rest[c.len_utf8()..];
            continue;
        }
        if c == '"' {
            in_string = true;
        } else {
            let token = ["-Infinity", "Infinity", "NaN"].into_iter().find(|t| rest.starts_with(t));
            if let Some(t) = token {
                out.push_str("null");
                rest = &rest[t.len()..];
                continue;
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// One JSON document (object or array of objects) or JSON Lines (one object per line, as `--append-result` and
/// SGLang write).
fn json_objects(text: &str) -> Result<Vec<Obj>, String> {
    let clean = sanitize_json(text);
    let objects = |v: Value| -> Vec<Obj> {
        match v {
            Value::Object(o) => vec![o],
            Value::Array(a) => a.into_iter().filter_map(|x| if let Value::Object(o) = x { Some(o) } else { None }).collect(),
            _ => Vec::new(),
        }
    };
    match serde_json::from_str::<Value>(&clean) {
        Ok(v) => Ok(objects(v)),
        Err(whole) => {
            let mut out = Vec::new();
            for (i, line) in clean.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
                match serde_json::from_str::<Value>(line) {
                    Ok(v) => out.extend(objects(v)),
                    Err(_) if i == 0 => return Err(format!("not valid JSON ({whole})")),
                    Err(e) => return Err(format!("line {}: not valid JSON ({e})", i + 1)),
                }
            }
            Ok(out)
        }
    }
}

fn parse_json(text: &str) -> Result<Vec<Measurement>, String> {
    let mut out = Vec::new();
    for o in json_objects(text)? {
        let m = if o.contains_key("avg_ts") && o.contains_key("n_prompt") {
            llama_bench_record(&o)
        } else if o.contains_key("results_mean_output_throughput_token_per_s") {
            Some(llmperf(&o))
        } else if o.get("output_token_throughput").is_some_and(Value::is_object) {
            Some(perf_json(&o))
        } else if o.contains_key("output_throughput") && (o.contains_key("model_id") || o.contains_key("num_prompts")) {
            Some(vllm(&o))
        } else if o.contains_key("output_throughput") {
            Some(sglang(&o))
        } else {
            return Err("JSON without the keys of a known benchmark tool (e.g. vLLM's output_throughput, genai-perf's \
                        output_token_throughput, llama-bench's avg_ts)"
                .into());
        };
        out.extend(m);
    }
    Ok(out)
}

/// A number from a JSON value: numbers, numeric strings (thousands separators removed), `"inf"`.
fn num(v: Option<&Value>) -> Option<f64> {
    match v? {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => {
            let s = s.trim().replace(',', "");
            match s.to_ascii_lowercase().as_str() {
                "inf" | "infinity" | "+inf" => Some(f64::INFINITY),
                _ => s.parse().ok(),
            }
        }
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    }
    .filter(|x: &f64| !x.is_nan())
}

fn finite(v: Option<f64>) -> Option<f64> {
    v.filter(|x| x.is_finite())
}

fn string(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

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

fn load_label(m: &Measurement) -> String {
    match (m.concurrency, m.request_rate) {
        (Some(c), Some(r)) => format!("concurrency {c}, {r} req/s"),
        (Some(c), None) => format!("concurrency {c}"),
        (None, Some(r)) => format!("{r} req/s"),
        (None, None) => "all requests at once".into(),
    }
}

/// Decode speed of one user from the mean TPOT (ms), as the tools' own summaries define it.
fn per_user_from_tpot(tpot: &Stats) -> Option<f64> {
    tpot.mean.filter(|t| *t > 0.0).map(|t| 1000.0 / t)
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
    m
}

fn vllm(o: &Obj) -> Measurement {
    let legacy = o.contains_key("request_goodput:");
    let mut m = serving_summary(if legacy { "vLLM benchmark_serving.py" } else { "vLLM bench serve" }, o, "e2el");
    m.model = string(o.get("model_id"));
    // Hardware only through --metadata (any of these names).
    m.hardware = ["gpu", "hardware", "device", "gpu_name", "accelerator"].iter().find_map(|k| string(o.get(*k)));
    m.label = string(o.get("label")).map_or_else(|| load_label(&m), |l| format!("{l}, {}", load_label(&m)));
    if let Some(f) = finite(num(o.get("failed"))).filter(|f| *f > 0.0) {
        m.notes.push(format!("{f} requests failed"));
    }
    m
}

fn sglang(o: &Obj) -> Measurement {
    let mut m = serving_summary("SGLang bench_serving", o, "e2e_latency");
    let info = o.get("server_info").and_then(Value::as_object);
    m.model = info.and_then(|i| string(i.get("model_path")));
    // Without completions the requested lengths stand in.
    m.prompt_tokens = m.prompt_tokens.or_else(|| finite(num(o.get("random_input_len"))));
    m.output_tokens = m.output_tokens.or_else(|| finite(num(o.get("random_output_len"))));
    m.label = string(o.get("tag")).map_or_else(|| load_label(&m), |t| format!("{t}, {}", load_label(&m)));
    if let Some(tp) = info.and_then(|i| finite(num(i.get("tp_size")))).filter(|t| *t > 1.0) {
        m.notes.push(format!("tensor parallel {tp}"));
    }
    m
}

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

/// A path of object keys.
fn at<'a>(o: &'a Obj, path: &[&str]) -> Option<&'a Value> {
    let (last, init) = path.split_last()?;
    let mut cur = o;
    for k in init {
        cur = cur.get(*k)?.as_object()?;
    }
    cur.get(*last)
}

fn perf_json(o: &Obj) -> Measurement {
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

fn llmperf(o: &Obj) -> Measurement {
    let mut m = Measurement::new("llmperf", Kind::Serving);
    m.model = string(o.get("model"));
    m.concurrency = finite(num(o.get("num_concurrent_requests")));
    m.prompt_tokens = finite(num(o.get("results_number_input_tokens_mean"))).or_else(|| finite(num(o.get("mean_input_tokens"))));
    m.output_tokens = finite(num(o.get("results_number_output_tokens_mean"))).or_else(|| finite(num(o.get("mean_output_tokens"))));
    m.requests = finite(num(o.get("results_num_completed_requests")));
    m.system_output_tps = finite(num(o.get("results_mean_output_throughput_token_per_s")));
    let sd = finite(num(o.get("results_number_output_tokens_stddev"))).or_else(|| finite(num(o.get("stddev_output_tokens"))));
    m.output_cv = sd.zip(m.output_tokens).filter(|(_, mean)| *mean > 0.0).map(|(sd, mean)| sd / mean);
    let s = |metric: &str| {
        let g = |k: String| finite(num(o.get(&k)));
        Stats {
            mean: g(format!("results_{metric}_mean")),
            p50: g(format!("results_{metric}_quantiles_p50")),
            p90: g(format!("results_{metric}_quantiles_p90")),
            p95: g(format!("results_{metric}_quantiles_p95")),
            p99: g(format!("results_{metric}_quantiles_p99")),
        }
        .scaled(1e3)
    };
    m.ttft_ms = s("ttft_s");
    m.e2e_ms = s("end_to_end_latency_s");
    // llmperf's inter-token latency includes the TTFT; TPOT from the means instead.
    if let (Some(e2e), Some(ttft), Some(out)) = (m.e2e_ms.mean, m.ttft_ms.mean, m.output_tokens) {
        if out > 1.0 && e2e > ttft {
            m.tpot_ms.mean = Some((e2e - ttft) / (out - 1.0));
            m.per_user_tps = Some(1000.0 * (out - 1.0) / (e2e - ttft));
        }
    }
    m.label = load_label(&m);
    m.notes.push("TPOT derived from mean E2E and TTFT (llmperf's inter-token latency includes the TTFT); token counts use a fixed Llama-2 tokenizer".into());
    if finite(num(o.get("results_error_rate"))).is_some_and(|e| e > 0.0) {
        m.notes.push(format!("error rate {}", num(o.get("results_error_rate")).unwrap_or(0.0)));
    }
    m
}

// ---------------------------------------------------------------------------------------------------------
// llama-bench

/// One llama-bench record (JSON object, or a CSV row turned into one). `pp` tests become prefill
/// measurements, `tg` tests decode measurements; combined `pp+tg` tests mix both rates and are skipped.
fn llama_bench_record(o: &Obj) -> Option<Measurement> {
    let p = finite(num(o.get("n_prompt"))).unwrap_or(0.0);
    let g = finite(num(o.get("n_gen"))).unwrap_or(0.0);
    let d = finite(num(o.get("n_depth"))).unwrap_or(0.0);
    let ts = finite(num(o.get("avg_ts")))?;
    let kind = match (p > 0.0, g > 0.0) {
        (true, false) => Kind::Prefill,
        (false, true) => Kind::Decode,
        _ => return None,
    };
    let mut m = Measurement::new("llama-bench", kind);
    m.model = string(o.get("model_type")).or_else(|| string(o.get("model_filename")));
    let backends = string(o.get("backends")).unwrap_or_default();
    m.hardware = if backends == "CPU" { string(o.get("cpu_info")) } else { string(o.get("gpu_info")).or_else(|| string(o.get("cpu_info"))) };
    let params = finite(num(o.get("model_n_params"))).filter(|x| *x > 0.0);
    m.params_b = params.map(|x| x / 1e9);
    m.weight_bits = params.and_then(|n| finite(num(o.get("model_size"))).map(|b| b * 8.0 / n));
    m.context_depth = d;
    m.concurrency = Some(1.0);
    let depth = if d > 0.0 { format!(" @ d{d}") } else { String::new() };
    if kind == Kind::Prefill {
        m.prompt_tokens = Some(p);
        m.prefill_tps = Some(ts);
        m.label = format!("pp{p}{depth}");
    } else {
        m.output_tokens = Some(g);
        m.per_user_tps = Some(ts);
        m.tpot_ms.mean = Some(1000.0 / ts);
        m.label = format!("tg{g}{depth}");
    }
    if string(o.get("split_mode")).is_some_and(|s| s == "row") {
        m.notes.push("row split (-sm row)".into());
    }
    Some(m)
}

/// llama-bench's default Markdown table: `model | size | params | backend | … | test | t/s`.
fn llama_bench_markdown(text: &str) -> Result<Vec<Measurement>, String> {
    let rows: Vec<Vec<String>> = text
        .lines()
        .filter(|l| l.trim_start().starts_with('|'))
        .map(|l| l.trim().trim_matches('|').split('|').map(|c| c.trim().to_string()).collect())
        .collect();
    let Some(header) = rows.first() else { return Err("empty table".into()) };
    let col = |name: &str| header.iter().position(|h| h == name);
    let (Some(test), Some(ts)) = (col("test"), col("t/s")) else {
        return Err("a Markdown table without llama-bench's `test` and `t/s` columns".into());
    };
    let mut out = Vec::new();
    for r in rows.iter().skip(1).filter(|r| !r.iter().all(|c| c.chars().all(|ch| matches!(ch, '-' | ':' | ' ')))) {
        let (Some(t), Some(v)) = (r.get(test), r.get(ts)) else { continue };
        let rate: Option<f64> = v.split('±').next().and_then(|x| x.trim().parse().ok());
        let (name, depth) = t.split_once(" @ d").map_or((t.as_str(), 0.0), |(a, b)| (a, b.trim().parse().unwrap_or(0.0)));
        let mut o = Obj::new();
        let n = |s: &str| s.parse::<f64>().ok();
        match (name.strip_prefix("pp").and_then(n), name.strip_prefix("tg").and_then(n)) {
            (Some(p), _) => {
                o.insert("n_prompt".into(), p.into());
            }
            (_, Some(g)) => {
                o.insert("n_gen".into(), g.into());
            }
            _ => continue,
        }
        o.insert("n_depth".into(), depth.into());
        if let Some(rate) = rate {
            o.insert("avg_ts".into(), rate.into());
        }
        let cell = |name: &str| col(name).and_then(|i| r.get(i)).cloned();
        if let Some(mt) = cell("model") {
            o.insert("model_type".into(), mt.into());
        }
        if let Some(b) = cell("backend") {
            o.insert("backends".into(), b.into());
        }
        // size "4.58 GiB" / params "8.03 B": bits per weight from the two.
        let amount = |s: Option<String>, units: &[(&str, f64)]| -> Option<f64> {
            let s = s?;
            let (v, u) = s.split_once(' ')?;
            let v: f64 = v.parse().ok()?;
            units.iter().find(|(name, _)| *name == u.trim()).map(|(_, k)| v * k)
        };
        if let Some(p) = amount(cell("params"), &[("B", 1e9), ("M", 1e6)]) {
            o.insert("model_n_params".into(), p.into());
        }
        if let Some(b) = amount(cell("size"), &[("GiB", 1_073_741_824.0), ("MiB", 1_048_576.0)]) {
            o.insert("model_size".into(), b.into());
        }
        out.extend(llama_bench_record(&o));
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------------------
// CSV (genai-perf / AIPerf summaries, llama-bench -o csv)

/// RFC 4180 rows: quoted fields may hold commas (`"1,863.41"`), `""` is a quote.
pub fn csv_rows(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', true) => quoted = false,
            ('"', false) if field.is_empty() => quoted = true,
            (',', false) => row.push(std::mem::take(&mut field)),
            ('\n', false) => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            ('\r', false) => {}
            (c, _) => field.push(c),
        }
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push(row);
    }
    rows
}

/// A header row and data rows as JSON objects (values as strings; [`num`] reads them).
fn table_rows(rows: &[Vec<String>]) -> Vec<Obj> {
    let Some((header, data)) = rows.split_first() else { return Vec::new() };
    data.iter()
        .filter(|r| r.len() == header.len())
        .map(|r| header.iter().cloned().zip(r.iter().map(|v| Value::String(v.clone()))).collect())
        .collect()
}

fn perf_csv(text: &str) -> Result<Vec<Measurement>, String> {
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
            let o: Obj = header.iter().skip(1).cloned().zip(r.iter().skip(1).map(|v| Value::String(v.clone()))).collect();
            stats.push((label, o));
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

// ---------------------------------------------------------------------------------------------------------
// Prometheus text (vLLM /metrics)

/// `name{labels} value` samples, summed over label sets except `le` (several engines or servers add up).
fn prometheus(text: &str) -> Result<Vec<Measurement>, String> {
    let mut sums: Vec<(String, Option<String>, f64)> = Vec::new();
    let mut model = None;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        // `name{labels} value [timestamp]`: the value is the first token after the series (federated and dumped
        // scrapes add a timestamp after it; label values may hold spaces, so split after the closing brace).
        let (series, rest) = match line.rfind('}') {
            Some(i) => (&line[..=i], &line[i + 1..]),
            None => match line.split_once(char::is_whitespace) {
                Some((s, r)) => (s, r),
                None => continue,
            },
        };
        let (series, value) = match rest.split_whitespace().next() {
            Some(v) => (series.trim(), v),
            None => continue,
        };
        let value: f64 = match value {
            "+Inf" => f64::INFINITY,
            "-Inf" => f64::NEG_INFINITY,
            v => match v.parse() {
                Ok(x) => x,
                Err(_) => continue,
            },
        };
        let (name, labels) = series.split_once('{').map_or((series, ""), |(n, l)| (n, l.trim_end_matches('}')));
        let label = |key: &str| {
            labels.split(',').find_map(|kv| kv.split_once('=').filter(|(k, _)| k.trim() == key).map(|(_, v)| v.trim().trim_matches('"').to_string()))
        };
        if model.is_none() {
            model = label("model_name");
        }
        let le = label("le");
        match sums.iter_mut().find(|(n, l, _)| n == name && *l == le) {
            Some(s) => s.2 += value,
            None => sums.push((name.to_string(), le, value)),
        }
    }
    let get = |name: &str| sums.iter().find(|(n, l, _)| n == name && l.is_none()).map(|s| s.2);
    let hist = |base: &str| -> Stats {
        let mut buckets: Vec<(f64, f64)> = sums
            .iter()
            .filter(|(n, l, _)| n == &format!("{base}_bucket") && l.is_some())
            .filter_map(|(_, l, v)| {
                let le = l.as_deref()?;
                let b = if le == "+Inf" { f64::INFINITY } else { le.parse().ok()? };
                Some((b, *v))
            })
            .collect();
        buckets.sort_by(|a, b| a.0.total_cmp(&b.0));
        let count = get(&format!("{base}_count")).unwrap_or(0.0);
        if count <= 0.0 {
            return Stats::default();
        }
        let q = |p: f64| -> Option<f64> {
            // Linear interpolation inside the bucket that holds the p-th observation (as Prometheus'
            // histogram_quantile does); a quantile in the +Inf bucket is only known to exceed the last bound.
            let rank = p * count;
            let mut lo = (0.0, 0.0);
            for &(bound, cum) in &buckets {
                if cum >= rank {
                    if !bound.is_finite() {
                        return Some(lo.0);
                    }
                    let frac = if cum > lo.1 { (rank - lo.1) / (cum - lo.1) } else { 1.0 };
                    return Some(lo.0 + (bound - lo.0) * frac);
                }
                lo = (bound, cum);
            }
            None
        };
        Stats { mean: get(&format!("{base}_sum")).map(|s| s / count), p50: q(0.5), p90: q(0.9), p95: q(0.95), p99: q(0.99) }
            .scaled(1e3)
    };
    if get("vllm:time_to_first_token_seconds_count").is_none() && get("vllm:num_requests_running").is_none() {
        return Err("Prometheus text without vLLM's request metrics (vllm:time_to_first_token_seconds, vllm:num_requests_running)".into());
    }
    let mut m = Measurement::new("vLLM /metrics", Kind::Serving);
    m.model = model;
    m.ttft_ms = hist("vllm:time_to_first_token_seconds");
    // Older servers call the per-token histogram time_per_output_token_seconds; some emit both (count once).
    m.itl_ms = hist("vllm:inter_token_latency_seconds");
    if m.itl_ms.is_empty() {
        m.itl_ms = hist("vllm:time_per_output_token_seconds");
    }
    m.e2e_ms = hist("vllm:e2e_request_latency_seconds");
    m.requests = get("vllm:request_prompt_tokens_count").or_else(|| get("vllm:e2e_request_latency_seconds_count"));
    m.prompt_tokens = get("vllm:request_prompt_tokens_sum").zip(m.requests).filter(|(_, n)| *n > 0.0).map(|(s, n)| s / n);
    m.output_tokens = get("vllm:request_generation_tokens_sum").zip(m.requests).filter(|(_, n)| *n > 0.0).map(|(s, n)| s / n);
    // The running-requests gauge is the load only while the benchmark runs: a scrape after it reads 0.
    m.concurrency = get("vllm:num_requests_running").filter(|c| *c >= 1.0);
    if m.concurrency.is_none() {
        m.load_recorded = false;
        m.notes.push("no requests were running at the scrape, so the load is unknown: scrape while the benchmark runs".into());
    }
    // The per-token histogram is vLLM's ITL; with one token per chunk its mean is the mean TPOT.
    m.tpot_ms.mean = m.itl_ms.mean;
    m.per_user_tps = m.itl_ms.mean.filter(|t| *t > 0.0).map(|t| 1000.0 / t);
    m.label = m.concurrency.map_or_else(|| "load unknown".into(), |c| format!("{c} running at the scrape"));
    m.notes.push("one scrape: lifetime histograms since the server started; percentiles interpolated inside buckets; concurrency is the running-requests gauge at the scrape".into());
    m.notes.push("system throughput needs two scrapes a known time apart; not in one".into());
    if let Some(w) = get("vllm:num_requests_waiting").filter(|w| *w > 0.0) {
        m.notes.push(format!("{w} requests waiting at the scrape"));
    }
    Ok(vec![m])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitizer_replaces_python_tokens_outside_strings_only() {
        let s = sanitize_json(r#"{"a": Infinity, "b": -Infinity, "c": NaN, "d": "NaN Infinity \"x\""}"#);
        assert_eq!(s, r#"{"a": null, "b": null, "c": null, "d": "NaN Infinity \"x\""}"#);
    }

    #[test]
    fn csv_reader_keeps_quoted_commas() {
        let rows = csv_rows("a,b\n\"1,863.41\",\"x\"\"y\"\n");
        assert_eq!(rows[1], vec!["1,863.41".to_string(), "x\"y".to_string()]);
        assert_eq!(num(Some(&Value::String(rows[1][0].clone()))), Some(1863.41));
    }

    #[test]
    fn prometheus_sums_engines_and_ignores_timestamps() {
        let text = "vllm:num_requests_running{engine=\"0\",model_name=\"m\"} 10 1718000000000\n\
                    vllm:num_requests_running{engine=\"1\",model_name=\"m\"} 12 1718000000000\n\
                    vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"0.1\"} 10 1718000000000\n\
                    vllm:time_to_first_token_seconds_bucket{engine=\"1\",le=\"0.1\"} 30 1718000000000\n\
                    vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"+Inf\"} 20 1718000000000\n\
                    vllm:time_to_first_token_seconds_bucket{engine=\"1\",le=\"+Inf\"} 60 1718000000000\n\
                    vllm:time_to_first_token_seconds_count{engine=\"0\"} 20 1718000000000\n\
                    vllm:time_to_first_token_seconds_count{engine=\"1\"} 60 1718000000000\n\
                    vllm:time_to_first_token_seconds_sum{engine=\"0\"} 2 1718000000000\n\
                    vllm:time_to_first_token_seconds_sum{engine=\"1\"} 6 1718000000000\n";
        let m = &prometheus(text).unwrap()[0];
        assert_eq!(m.concurrency, Some(22.0), "engines add up; the timestamp is not the value");
        assert!((m.ttft_ms.mean.unwrap() - 100.0).abs() < 1e-9, "8 s over 80 requests");
        // 40 of 80 at ≤ 0.1 s: the median is the bucket bound; the p90 lies in the +Inf bucket (only known > 0.1 s).
        assert!((m.ttft_ms.p50.unwrap() - 100.0).abs() < 1e-9);
        assert!((m.ttft_ms.p90.unwrap() - 100.0).abs() < 1e-9);
        let idle = &prometheus("vllm:num_requests_running 0\nvllm:time_to_first_token_seconds_count 5\n").unwrap()[0];
        assert!(!idle.load_recorded && idle.concurrency.is_none(), "a scrape after the run has no load");
    }

    #[test]
    fn prometheus_quantile_interpolates_inside_the_bucket() {
        let text = "vllm:time_to_first_token_seconds_bucket{le=\"0.1\"} 50\nvllm:time_to_first_token_seconds_bucket{le=\"0.2\"} 100\n\
                    vllm:time_to_first_token_seconds_bucket{le=\"+Inf\"} 100\nvllm:time_to_first_token_seconds_count 100\n\
                    vllm:time_to_first_token_seconds_sum 10\n";
        let m = &prometheus(text).unwrap()[0];
        assert!((m.ttft_ms.p50.unwrap() - 100.0).abs() < 1e-9);
        assert!((m.ttft_ms.p90.unwrap() - 180.0).abs() < 1e-9);
        assert!((m.ttft_ms.p95.unwrap() - 190.0).abs() < 1e-9, "interpolated between 0.1 s (50) and 0.2 s (100)");
        assert!((m.ttft_ms.mean.unwrap() - 100.0).abs() < 1e-9);
    }
}
