//! `tps`: the TPS Planner model on the command line.
//!
//! ```text
//! tps eval FILE.json|-  [--table] [--analytic]   evaluate a scenario; JSON report (or a table) on stdout
//! tps presets [hardware|models|quant|engines|targets]   list preset ids
//! tps import FILE|DIR... [--table]                 read benchmark result files (vLLM, SGLang, genai-perf,
//!                                                  AIPerf, llmperf, llama-bench, vLLM /metrics)
//! tps compare SCENARIO.json FILE|DIR... [--table]  each measurement next to the model's prediction
//! ```
//! Errors go to stderr naming the field; the exit code is 2 for bad input, 1 for I/O errors.

use std::io::Read;
use std::process::ExitCode;
use tps_planner::import;
use tps_planner::model::quant;
use tps_planner::presets;
use tps_planner::scenario::{Report, Scenario};

const USAGE: &str = "usage:
  tps eval FILE.json|- [--table] [--analytic]   evaluate a scenario (JSON report, or --table for people)
  tps presets [hardware|models|quant|engines|targets]
  tps import FILE|DIR... [--table]                read benchmark results (vLLM, SGLang, genai-perf, AIPerf,
                                                  llmperf, llama-bench, vLLM /metrics)
  tps compare SCENARIO.json FILE|DIR... [--table] measured vs predicted at the same load
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
        Some(cmd @ ("import" | "compare")) => {
            let table = args.iter().any(|a| a == "--table");
            if let Some(bad) = args[1..].iter().find(|a| a.starts_with("--") && *a != "--table") {
                return Err((2, format!("unknown option {bad}\n{USAGE}")));
            }
            let mut paths: Vec<&String> = args[1..].iter().filter(|a| !a.starts_with("--")).collect();
            let scenario = if cmd == "compare" {
                if paths.is_empty() {
                    return Err(usage());
                }
                let file = paths.remove(0);
                let text = std::fs::read_to_string(file).map_err(|e| (1, format!("{file}: {e}")))?;
                Some(Scenario::from_json(&text).map_err(|e| (2, format!("invalid scenario: {e}")))?)
            } else {
                None
            };
            if paths.is_empty() {
                return Err(usage());
            }
            let measurements = read_measurements(&paths)?;
            match scenario {
                None if table => Ok(render_measurements(&measurements)),
                None => serde_json::to_string_pretty(&measurements).map(|s| s + "\n").map_err(|e| (1, e.to_string())),
                Some(sc) => {
                    let comparisons = measurements
                        .iter()
                        .map(|m| import::compare(&sc, m))
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|e| (2, format!("invalid scenario: {e}")))?;
                    if table {
                        Ok(render_comparisons(&comparisons))
                    } else {
                        serde_json::to_string_pretty(&comparisons).map(|s| s + "\n").map_err(|e| (1, e.to_string()))
                    }
                }
            }
        }
        Some("--help" | "-h" | "help") => Ok(format!("{USAGE}\n")),
        _ => Err(usage()),
    }
}

/// Every measurement in the files (a directory: each file in it, sorted by name), each run once.
fn read_measurements(paths: &[&String]) -> Result<Vec<import::Measurement>, (u8, String)> {
    // (file, whether it came from a directory listing: those may hold other files, which are skipped)
    let mut files = Vec::new();
    for p in paths {
        let path = std::path::Path::new(p.as_str());
        if path.is_dir() {
            let mut inside: Vec<_> = std::fs::read_dir(path)
                .map_err(|e| (1, format!("{p}: {e}")))?
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|f| f.is_file())
                .collect();
            inside.sort();
            files.extend(inside.into_iter().map(|f| (f, true)));
        } else {
            files.push((path.to_path_buf(), false));
        }
    }
    let mut out = Vec::new();
    for (f, listed) in files {
        let name = f.display().to_string();
        let text = match std::fs::read_to_string(&f) {
            Ok(t) => t,
            // A folder of results also holds binaries and other tools' files (vLLM's *.pytorch.json,
            // genai-perf's raw profile_export.json): skip what cannot be read, say so.
            Err(e) if listed => {
                eprintln!("tps: skipped {name}: {e}");
                continue;
            }
            Err(e) => return Err((1, format!("{name}: {e}"))),
        };
        match import::parse(&name, &text) {
            Ok(ms) => {
                // The same run in another export (llama-bench's JSON and Markdown) or the same file twice.
                let dup = import::merge(&mut out, ms);
                if dup > 0 {
                    eprintln!("tps: skipped {dup} duplicate run{} in {name} (already read: the same run in another file or export)", if dup == 1 { "" } else { "s" });
                }
            }
            Err(e) if listed => eprintln!("tps: skipped {e}"),
            Err(e) => return Err((2, e.to_string())),
        }
    }
    if out.is_empty() {
        return Err((2, "no benchmark results in the given files".into()));
    }
    Ok(out)
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "—".into(), |x| format!("{x:.digits$}"))
}

fn render_measurements(ms: &[import::Measurement]) -> String {
    let mut out = format!(
        "{:<26} {:<24} {:>8} {:>8} {:>10} {:>9} {:>9} {:>9} {:>9}\n",
        "tool", "run", "prompt", "output", "system t/s", "user t/s", "TTFT p99", "TPOT p50", "prefill"
    );
    for m in ms {
        out += &format!(
            "{:<26} {:<24} {:>8} {:>8} {:>10} {:>9} {:>9} {:>9} {:>9}\n",
            m.tool,
            m.label.chars().take(24).collect::<String>(),
            opt(m.prompt_tokens, 0),
            opt(m.output_tokens, 0),
            opt(m.system_output_tps, 0),
            opt(m.per_user_tps, 1),
            opt(m.ttft_ms.p99, 0),
            opt(m.tpot_ms.p50.or(m.tpot_ms.mean), 1),
            opt(m.prefill_tps, 0),
        );
    }
    out
}

fn render_comparisons(cs: &[import::Comparison]) -> String {
    let mut out = String::new();
    let mut all = Vec::new();
    for c in cs {
        let m = &c.measurement;
        out += &format!("{} — {} ({}), predicted for {}\n", m.tool, m.label, m.model.as_deref().unwrap_or("model not recorded"), c.load);
        for r in &c.rows {
            out += &format!("  {:<20} {:>10.1} {:<6} measured {:>10.1}  {:+6.1} %\n", r.metric, r.predicted, r.unit, r.measured, r.error_pct);
            all.push(r.error_pct.abs());
        }
        for n in m.notes.iter().chain(&c.notes) {
            out += &format!("  note: {n}\n");
        }
    }
    all.sort_by(f64::total_cmp);
    if let Some(med) = all.get(all.len() / 2) {
        out += &format!("{} figures compared: median |error| {med:.1} %\n", all.len());
    }
    out
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
        "memory: weights {:.1} GB, KV {:.0} KB/token, KV space {:.1} GB: {:.0} sequences of {:.0} tokens fit at full length, at most {:.0} run at once (max batch, or prompts that fit; more than fit at full length means preemptions){}\n",
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
