//! llama-bench, in all four of its output formats: `-o json` (an array of test records), `-o jsonl` (one per
//! line), `-o csv` (the same fields as columns) and `-o md`, the default Markdown table (`model | size | params
//! | backend | … | test | t/s`, rounded). Each `ppN` test becomes a prefill measurement, each `tgN` test a
//! decode measurement (at `n_depth` tokens of context, `@ dN` in the table); bits per weight come from the
//! model's size and parameter count, the hardware from `gpu_info` (or `cpu_info` on the CPU backend).

use super::common::{csv_rows, finite, num, string, table_rows, Obj};
use super::{Kind, Measurement};

/// The figures a llama-bench test is read from (for the message when a file holds none).
pub(super) const FIGURES: &str = "avg_ts (tokens/s) for each pp/tg test";

/// One llama-bench record (JSON object, or a CSV row turned into one). `pp` tests become prefill
/// measurements, `tg` tests decode measurements; combined `pp+tg` tests mix both rates and are skipped.
pub(super) fn record(o: &Obj) -> Option<Measurement> {
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
    m.engine = Some("llama.cpp".into());
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

/// `-o csv`: a header naming the JSON fields, one row per test.
pub(super) fn csv(text: &str) -> Vec<Measurement> {
    table_rows(&csv_rows(text)).iter().filter_map(record).collect()
}

/// llama-bench's default Markdown table: `model | size | params | backend | … | test | t/s`.
pub(super) fn markdown(text: &str) -> Result<Vec<Measurement>, String> {
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
        out.extend(record(&o));
    }
    Ok(out)
}
