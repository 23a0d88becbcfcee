//! `tps`: the TPS Planner model on the command line.
//!
//! ```text
//! tps eval FILE.json|-  [--table] [--analytic]   evaluate a scenario; JSON report (or a table) on stdout
//! tps presets [hardware|models|quant|engines|targets]   list preset ids
//! ```
//! Errors go to stderr naming the field; the exit code is 2 for bad input, 1 for I/O errors.

use std::io::Read;
use std::process::ExitCode;
use tps_planner::model::quant;
use tps_planner::presets;
use tps_planner::scenario::{Report, Scenario};

const USAGE: &str = "usage:
  tps eval FILE.json|- [--table] [--analytic]   evaluate a scenario (JSON report, or --table for people)
  tps presets [hardware|models|quant|engines|targets]
  tps --help";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err((code, msg)) => {
            eprintln!("tps: {msg}");
            ExitCode::from(code)
        }
    }
}

fn run(args: &[String]) -> Result<String, (u8, String)> {
    let usage = || (2, USAGE.to_string());
    match args.first().map(String::as_str) {
        Some("eval") => {
            let mut file = None;
            let (mut table, mut analytic) = (false, false);
            for a in &args[1..] {
                match a.as_str() {
                    "--table" => table = true,
                    "--analytic" => analytic = true,
                    f if file.is_none() && (f == "-" || !f.starts_with('-')) => file = Some(f.to_string()),
                    other => return Err((2, format!("unknown option {other}\n{USAGE}"))),
                }
            }
            let file = file.ok_or_else(usage)?;
            let text = if file == "-" {
                let mut s = String::new();
                std::io::stdin().read_to_string(&mut s).map_err(|e| (1, format!("stdin: {e}")))?;
                s
            } else {
                std::fs::read_to_string(&file).map_err(|e| (1, format!("{file}: {e}")))?
            };
            let scenario = Scenario::from_json(&text).map_err(|e| (2, format!("invalid scenario: {e}")))?;
            let report = if analytic { tps_planner::plan::evaluate_analytic(&scenario) } else { tps_planner::plan::evaluate(&scenario) }
                .map_err(|e| (2, format!("invalid scenario: {e}")))?;
            if table {
                Ok(render_table(&report))
            } else {
                serde_json::to_string_pretty(&report).map(|s| s + "\n").map_err(|e| (1, e.to_string()))
            }
        }
        Some("presets") => presets_list(args.get(1).map(String::as_str)),
        Some("--help" | "-h" | "help") => Ok(format!("{USAGE}\n")),
        _ => Err(usage()),
    }
}

fn presets_list(which: Option<&str>) -> Result<String, (u8, String)> {
    let mut out = String::new();
    let all = which.is_none();
    let w = which.unwrap_or("");
    if all || w == "hardware" {
        out += "# hardware (per device: GB/s, GB, dense FP16 TFLOPS)\n";
        for h in presets::hardware::HARDWARE {
            out += &format!(
                "{:<22} {:>7.0} GB/s {:>5.0} GB {:>7} TF  {}{}\n",
                h.id,
                h.bandwidth_gbps,
                h.memory_gb,
                h.fp16_tflops.map_or("-".into(), |v| format!("{v:.0}")),
                h.name,
                if h.verified { "" } else { " (unverified)" }
            );
        }
    }
    if all || w == "models" {
        out += "# models (params B, active B, layers, KV heads × head dim)\n";
        for m in presets::models::MODELS {
            out += &format!("{:<18} {:>7.2} B {:>6.2} B act {:>4} L {:>3}×{:<4} {}\n", m.id, m.params_b, m.active_params_b, m.layers, m.kv_heads, m.head_dim, m.name);
        }
    }
    if all || w == "quant" {
        out += "# weight formats (effective bits per weight)\n";
        for q in quant::WEIGHT_FORMATS {
            out += &format!("{:<8} {:>7.3} bits  {}\n", q.id, q.bits, q.label);
        }
        out += "# kv cache dtypes (bytes per element)\n";
        for k in quant::KV_FORMATS {
            out += &format!("{:<8} {:>7.4} B\n", k.id, k.bytes);
        }
    }
    if all || w == "engines" {
        out += "# engines\n";
        for e in presets::engines::ENGINES {
            out += &format!("{:<13} max_batch {:>5}  tokens/step {:>5}  mem {:.2}  {}\n", e.id, e.max_batch, e.max_batched_tokens, e.memory_utilization, e.name);
        }
    }
    if all || w == "targets" {
        out += "# targets (TTFT ms, TPOT ms at percentile)\n";
        for t in presets::targets::TARGETS {
            out += &format!("{:<32} TTFT {:>9} TPOT {:>9} P{}  {}\n", t.id, fmt_limit(t.ttft_ms), fmt_limit(t.tpot_ms), t.percentile, t.name);
        }
    }
    if out.is_empty() {
        return Err((2, format!("unknown preset table \"{w}\"; valid: hardware, models, quant, engines, targets")));
    }
    Ok(out)
}

fn fmt_limit(v: f64) -> String {
    if v >= 1e8 { "none".into() } else { format!("{v:.0}") }
}

fn render_table(r: &Report) -> String {
    let ss = &r.single_stream;
    let m = &r.memory;
    let mut o = format!("{} on {} with {}\n", r.model, r.hardware, r.engine);
    o += &format!(
        "single stream: ceiling {:.1} tok/s (bandwidth ÷ {:.2} GB/token), predicted {:.1} tok/s (±{:.0} %), TPOT {:.1} ms, TTFT {:.0} ms, prefill {:.0} tok/s, {:?}-bound\n",
        ss.ceiling_tps, ss.bytes_per_token / 1e9, ss.decode_tps, r.band.single_stream_pct, ss.tpot_ms, ss.ttft_ms, ss.prefill_tps, ss.bound
    );
    o += &format!(
        "memory: weights {:.1} GB, KV {:.0} KB/token, KV space {:.1} GB: {:.0} sequences of {:.0} tokens fit in memory, {:.0} run at once (max batch){}\n",
        m.weights_gb, m.kv_bytes_per_token / 1e3, m.kv_budget_gb, m.kv_max_sequences.floor(), m.context_tokens, m.max_concurrency, if m.fits { "" } else { " — DOES NOT FIT" }
    );
    let pct = r.target.percentile;
    if r.target.tpot_ms >= 1e8 && r.target.ttft_ms >= 1e8 {
        o += &format!("target: {} — no latency limit\n\n", r.target.name);
    } else {
        o += &format!("target: {} — P{pct:.0} TTFT ≤ {} ms, TPOT ≤ {} ms\n\n", r.target.name, fmt_limit(r.target.ttft_ms), fmt_limit(r.target.tpot_ms));
    }
    o += &format!(
        "{:>9} {:>9} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>6} {:>8} {}\n",
        "load", "user t/s", "system t/s", "TTFT p50", "TTFT p95", "TTFT p99", "TPOT p50", "TPOT p95", "TPOT p99", "batch", "bound", "ok"
    );
    for p in &r.sweep {
        let load = match (p.concurrency, p.request_rate) {
            (Some(c), _) => format!("{c:.0}"),
            (_, Some(x)) => format!("{x:.2}/s"),
            _ => "-".into(),
        };
        o += &format!(
            "{:>9} {:>9.1} {:>10.0} {:>9.0} {:>9.0} {:>9.0} {:>9.1} {:>9.1} {:>9.1} {:>6.1} {:>8} {}{}\n",
            load,
            p.per_user_tps,
            p.system_tps,
            p.ttft_ms.p50,
            p.ttft_ms.p95,
            p.ttft_ms.p99,
            p.tpot_ms.p50,
            p.tpot_ms.p95,
            p.tpot_ms.p99,
            p.mean_batch,
            format!("{:?}", p.bound).to_lowercase(),
            if p.meets_target { "✓" } else { "✗" },
            if p.saturated { " saturated" } else { "" }
        );
    }
    let mk = |name: &str, m: &Option<tps_planner::scenario::Marker>| match m {
        Some(m) => format!(
            "{name}: {} — {:.0} tok/s total, {:.1} tok/s each\n",
            m.concurrency.map(|c| format!("{c:.0} users")).or(m.request_rate.map(|x| format!("{x:.2} req/s"))).unwrap_or_default(),
            m.system_tps,
            m.per_user_tps
        ),
        None => format!("{name}: none\n"),
    };
    o += "\n";
    o += &mk("peak", &Some(r.peak.clone()));
    o += &mk("knee", &r.knee);
    o += &mk("peak usable", &r.peak_usable);
    o += &mk("operating point", &r.operating_point);
    o += &format!("\nverdict: {}\n", r.verdict);
    for w in &r.warnings {
        o += &format!("warning: {w}\n");
    }
    if !r.defaults_used.is_empty() {
        o += "defaults used:\n";
        for d in &r.defaults_used {
            o += &format!("  - {d}\n");
        }
    }
    o
}
