//! The `--table` renderings for people: reports, measurements, comparisons, calibrations, diffs, presets.

use super::*;
use tps_planner::plan::band_text;

/// The fitted efficiencies and the error of every figure before and after.
pub(super) fn render_calibration(c: &tps_planner::plan::calibrate::Calibration) -> String {
    let mut out = format!(
        "calibrated on {} figures: median |error| {:.1} % → {:.1} %\n\n{:<34} {:>10} {:>10}  range\n",
        c.figures, c.median_abs_error_before_pct, c.median_abs_error_after_pct, "parameter", "before", "after"
    );
    for f in &c.fitted {
        out += &format!("{:<34} {:>10.3} {:>10.3}  {}–{}\n", f.field, f.before, f.after, f.lo, f.hi);
    }
    out += &format!("\n{:<40} {:<14} {:>10} {:>10} {:>10}\n", "run", "figure", "measured", "before", "after");
    for (run, metric, m, b, a) in &c.rows {
        // A figure the fitted scenario no longer predicts has no "after" (plan::calibrate pairs them by run and figure).
        let after = if a.is_nan() { format!("{:>10}", "—") } else { format!("{:>+9.1}%", (a / m - 1.0) * 100.0) };
        out += &format!("{:<40} {:<14} {:>10.1} {:>+9.1}% {after}\n", run.chars().take(40).collect::<String>(), metric, m, (b / m - 1.0) * 100.0,);
    }
    // What to weigh before keeping the fit (figures made worse, efficiencies at a bound), as the page says it.
    let caveats = c.caveats();
    if !caveats.is_empty() {
        out += &format!("\n{}\n", caveats.trim());
    }
    out
}

pub(super) fn render_measurements(ms: &[import::Measurement]) -> String {
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
            // A file without a median gives its mean, marked (a trial read llmperf's mean under "p50").
            match m.tpot_ms.p50 {
                Some(_) => opt(m.tpot_ms.p50, 1),
                None => m.tpot_ms.mean.map_or_else(|| opt(None, 1), |v| format!("{v:.1} m")),
            },
            opt(m.prefill_tps, 0),
        );
    }
    if ms.iter().any(|m| m.tpot_ms.p50.is_none() && m.tpot_ms.mean.is_some()) {
        out += "m: the mean TPOT, where the file gives no median\n";
    }
    out
}

pub(super) fn render_comparisons(cs: &[import::Comparison]) -> String {
    let mut out = String::new();
    for c in cs {
        let m = &c.measurement;
        out += &format!("{} — {} ({}), predicted for {}\n", m.tool, m.label, m.model.as_deref().unwrap_or("model not recorded"), c.load);
        for r in &c.rows {
            out += &format!("  {:<20} {:>10.1} {:<6} measured {:>10.1}  {:+6.1} %\n", r.metric, r.predicted, r.unit, r.measured, r.error_pct);
        }
        for n in m.notes.iter().chain(&c.notes) {
            out += &format!("  note: {n}\n");
        }
    }
    if let Some(h) = import::headline(cs) {
        out += &h;
        out.push('\n');
    }
    out
}

pub(super) fn presets_list(which: Option<PresetTable>) -> String {
    let mut out = String::new();
    let all = which.is_none();
    let w = which.map_or("", PresetTable::name);
    if all || w == "hardware" {
        out += "# hardware (per device: GB/s, GiB — the nominal GB read as GiB, or what the driver reports where a source says, dense FP16 TFLOPS)\n";
        for h in presets::hardware::HARDWARE {
            out += &format!(
                "{:<22} {:>7.0} GB/s {:>5.0} GiB {:>7} TF  {}{}\n",
                h.id,
                h.bandwidth_gbps,
                h.memory_gb,
                h.fp16_tflops.map_or("-".into(), |v| format!("{v:.0}")),
                h.name,
                if h.verified { "" } else { " (unverified)" }
            );
            out += &format!("{:<22} source: {}\n", "", h.source);
        }
    }
    if all || w == "models" {
        out += "# models (params B, active B, layers, KV heads × head dim, or a latent cache's width: MLA rank + rope)\n";
        for m in presets::models::MODELS {
            // A latent cache (DeepSeek's MLA) keeps one 512 + 64-wide entry per token and layer, not its heads'
            // 128 × 128 (a trial read that and expected 30 × the KV bytes the eval printed).
            let kv = match m.attention {
                tps_planner::model::llm::Attention::Mla { kv_lora_rank, rope_dim } => format!("MLA {kv_lora_rank}+{rope_dim}"),
                _ => format!("{:>3}×{:<4}", m.kv_heads, m.head_dim),
            };
            out += &format!("{:<18} {:>7.2} B {:>6.2} B act {:>4} L {kv:>8} {}\n", m.id, m.params_b, m.active_params_b, m.layers, m.name);
            out += &format!("{:<18} source: {}\n", "", m.source);
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
            out += &format!(
                "{:<13} max_batch {:>5}  tokens/step {:>5}  mem {:.2}  {}\n",
                e.id, e.max_batch, e.max_batched_tokens, e.memory_utilization, e.name
            );
        }
        // A trial read vLLM's 256 / 2048 here and 1024 / 8192 in an H100's evaluation.
        let (s, t) = presets::engines::vllm_batch_defaults(80.0, "");
        out += &format!(
            "  (vllm's limits follow the device, as vLLM's own defaults do: {s} sequences and {t} tokens a step on devices of 70 GiB or more other than the A100, the figures above on the others)\n"
        );
    }
    if all || w == "targets" {
        out += "# targets (TTFT ms, TPOT ms at percentile)\n";
        for t in presets::targets::TARGETS {
            out += &format!("{:<32} TTFT {:>9} TPOT {:>9} P{}  {}\n", t.id, fmt_limit(t.ttft_ms), fmt_limit(t.tpot_ms), t.percentile, t.name);
        }
    }
    out
}

pub(super) fn render_diff(d: &tps_planner::plan::Diff) -> String {
    let mut o = format!("A: {}\nB: {}\n\n", d.a.describe(), d.b.describe());
    // The label column as wide as the longest label (a trial's table broke on "cost per million output tokens (one
    // server at its operating point)").
    let w = d.rows.iter().map(|r| r.label.chars().count()).max().unwrap_or(0).max(38);
    o += &format!("{:<w$} {:>12} {:>12} {:>12} {:>8}  {}\n", "", "A", "B", "B − A", "B ÷ A", "unit");
    let decimals = |x: f64| tps_planner::plan::diff::decimals(x, 4);
    let num = |v: Option<f64>| v.map_or_else(|| "—".to_string(), |x| format!("{x:.*}", decimals(x)));
    for r in &d.rows {
        let delta = |x: f64| format!("{}{x:.*}", if x >= 0.0 { "+" } else { "" }, r.delta_decimals(4));
        o += &format!(
            "{:<w$} {:>12} {:>12} {:>12} {:>8}  {}\n",
            r.label,
            num(r.a),
            num(r.b),
            r.shown_delta(4).map_or_else(|| "—".to_string(), delta),
            r.ratio.map_or_else(|| "—".to_string(), |x| format!("{x:.2}×")),
            r.unit
        );
    }
    o += &format!("\n{}\n\nA: {}\nB: {}\n", d.summary, d.a.verdict, d.b.verdict);
    o
}

pub(super) fn render_table(r: &Report) -> String {
    let ss = &r.single_stream;
    let m = &r.memory;
    let mut o = format!("{} on {} with {}\n", r.model, r.hardware, r.engine);
    o += &format!(
        "single stream: ceiling {:.1} tok/s (bandwidth ÷ {:.2} GB/token), predicted {:.1} tok/s ({}), TPOT {:.1} ms, TTFT {:.0} ms, prefill {:.0} tok/s, {:?}-bound{}\n",
        ss.ceiling_tps,
        ss.bytes_per_token / 1e9,
        ss.decode_tps,
        band_text(r.band.single_stream_pct),
        ss.tpot_ms,
        ss.ttft_ms,
        ss.prefill_tps,
        ss.bound,
        // As the page's card says it: a trial read "predicted 59.9 tok/s" beside "DOES NOT FIT" as a promise.
        if m.fits { "" } else { " — if it fitted: it does not (memory, below)" }
    );
    if m.fits && !ss.time_words.is_empty() {
        o += &format!("  {}\n", ss.time_words);
    }
    if let Some(w) = tps_planner::plan::readout::overhead_bound_words(r) {
        o += &format!("  {w}\n");
    }
    // What a hand check of the KV figures misses (a trial's check of "KV space ÷ (tokens × KV per token)" gave 90
    // where the line said 155 sequences fit): the copies tensor parallelism keeps, what a sliding-window sequence holds.
    let clauses = m.kv_clauses();
    let window = if clauses.is_empty() { String::new() } else { format!(" ({})", clauses.join("; ")) };
    if !m.fits {
        // A trial's read of the unfit line: "KV space short by 739.8 GB: 0 sequences … about 0 run at once (… means
        // preemptions)" explained batching on a server that holds no sequence at all.
        // (A disaggregated deployment whose prefill pool does not hold the weights has KV space and sequences in its
        // decode pool: its verdict says which pool, a review.)
        let why = if m.kv_budget_gb <= 0.0 {
            format!("the weights and what the engine keeps back are {:.1} GB more than the memory it uses, so no KV cache at all", -m.kv_budget_gb)
        } else if m.kv_max_sequences < 1.0 {
            format!("{:.1} GB of KV space holds no whole sequence of {:.0} tokens", m.kv_budget_gb, m.context_tokens)
        } else {
            r.verdict.trim_start_matches("does not fit: ").to_string()
        };
        o += &format!("memory: weights {:.1} GB, KV {:.0} KB/token — DOES NOT FIT: {why}\n", m.weights_gb, m.kv_bytes_per_token / 1e3);
    } else {
        o += &format!(
        "memory: weights {:.1} GB, KV {:.0} KB/token, KV space {:.1} GB: {:.0} sequence{} of {:.0} tokens fit{} at full length{window}, {} run at once ({})\n",
        m.weights_gb,
        m.kv_bytes_per_token / 1e3,
        m.kv_budget_gb,
        m.kv_max_sequences.floor(),
        if m.kv_max_sequences.floor() == 1.0 { "" } else { "s" },
        m.context_tokens,
        if m.kv_max_sequences.floor() == 1.0 { "s" } else { "" },
        // llama.cpp's slots hold their requests at full length and never preempt (a teacher's trial).
        if m.slot_tokens.is_some() { format!("{:.0}", m.max_concurrency) } else { format!("about {:.0}", m.max_concurrency) },
        match m.slot_tokens {
            Some(t) => format!("llama.cpp's slots, each for a request of up to {t:.0} tokens, the traffic's longest the cache holds: more users wait their turn"),
            None => "max batch, or prompts that fit, give or take the chunks of prompts still being read; more than fit at full length means preemptions".to_string(),
        }
    );
    }
    let pct = r.target.percentile;
    let task = r
        .target
        .task_s
        .map_or_else(String::new, |t| format!("; a task (agent steps × (TTFT + {:.0} output tokens × TPOT) at {pct}) ≤ {t} s", r.output_tokens));
    if !r.target.limits_latency() {
        o += &format!(
            "target: {} — {}\n\n",
            r.target.name,
            if task.is_empty() { "no latency limit".to_string() } else { format!("no per-token limit{task}") }
        );
    } else {
        // Only the limits the target sets ("TPOT ≤ none ms" had stood for a TTFT-only target).
        let limits: Vec<String> = [("TTFT", r.target.ttft_limit_ms()), ("TPOT", r.target.tpot_limit_ms())]
            .into_iter()
            .filter_map(|(k, l)| l.map(|l| format!("{k} ≤ {} ms", fmt_limit(Some(l)))))
            .collect();
        o += &format!("target: {} — {pct} {}{task}\n\n", r.target.name, limits.join(", "));
    }
    // A deployment that does not fit serves nothing: no rows of zeros that read like measurements.
    if !m.fits {
        o += "no load simulated: the model does not fit in memory (see above)\n";
        o += &format!("\nverdict: {}\n", r.verdict);
        o += &warnings_and_defaults(r);
        return o;
    }
    // The middle column as the latency chart's (P90 when the target is judged there).
    let mid = tps_planner::plan::charts::latency_middle(r.target.percentile);
    let m_label = |what: &str| format!("{what} {}", mid.label().to_lowercase());
    o += &format!(
        "{:>9} {:>9} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>6} {:>8} {}\n",
        "load",
        "user t/s",
        "system t/s",
        "TTFT p50",
        m_label("TTFT"),
        "TTFT p99",
        "TPOT p50",
        m_label("TPOT"),
        "TPOT p99",
        "batch",
        "bound",
        "ok"
    );
    for p in &r.sweep {
        let load = match (p.concurrency, p.request_rate) {
            (Some(c), _) => format!("{c:.0}"),
            // A rate's own digits: 0.001 req/s had read "0.00/s" (a review).
            (_, Some(x)) => format!("{}/s", tps_planner::plan::fmt_rate(x)),
            _ => "-".into(),
        };
        if p.nothing_completed() {
            o += &format!("{load:>9} {:>9} no request completed in the simulated time\n", "—");
            continue;
        }
        // A latency that rounds onto the other side of its limit keeps the decimals that tell them apart (an
        // operations trial read "2000 ✗" beside "TTFT ≤ 2000 ms": 2,000.02).
        let (ttft, tpot) = (r.target.ttft_ms, r.target.tpot_ms);
        o += &format!(
            "{:>9} {:>9} {:>10.0} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>6.1} {:>8} {}{}\n",
            load,
            tps_planner::model::units::tenths(p.per_user_tps),
            p.system_tps,
            tps_planner::plan::fixed_against(p.ttft_ms.p50, 0, ttft),
            tps_planner::plan::fixed_against(p.ttft_ms.at(mid), 0, ttft),
            tps_planner::plan::fixed_against(p.ttft_ms.p99, 0, ttft),
            tps_planner::plan::fixed_against(p.tpot_ms.p50, 1, tpot),
            tps_planner::plan::fixed_against(p.tpot_ms.at(mid), 1, tpot),
            tps_planner::plan::fixed_against(p.tpot_ms.p99, 1, tpot),
            p.mean_batch,
            format!(
                "{:?}{}",
                p.bound,
                match tps_planner::plan::readout::bound_label(r, p) {
                    "compute (prompts)" => "*",
                    "compute (matmuls)" => "†",
                    _ => "",
                }
            )
            .to_lowercase(),
            if p.meets_target { "✓" } else { "✗" },
            if p.saturated { " saturated".to_string() } else { String::new() }
                + &if p.preemptions > 0 { format!(" {} preemption{}", p.preemptions, if p.preemptions == 1 { "" } else { "s" }) } else { String::new() }
                // Why a level within its latency limits fails (a teacher's trial read ✗ with no reason).
                + &if p.error_rate > 0.01 && !p.nothing_completed() { format!(" {:.0} % failed", p.error_rate * 100.0) } else { String::new() }
        );
    }
    if r.sweep.iter().any(|p| tps_planner::plan::readout::compute_from_prompts(r, p)) {
        o += "compute*: the steps that read a prompt chunk set it; a step of decodes alone is not compute-bound at that batch (its reads or the engine's own time set it)\n";
    }
    if r.sweep.iter().any(|p| tps_planner::plan::readout::bound_label(r, p) == "compute (matmuls)") {
        o += "compute†: the matmuls over the weights are past their ridge and take most of the step; its KV reads put the step's roofline point left of the ridge\n";
    }
    // Why system TPS can fall between levels (the page's "How to read this" says it; a trial found the table silent).
    if r.sweep.iter().any(|p| p.preemptions > 0) {
        o += "preemptions: the KV cache was full at that load and the engine evicted running sequences to recompute \
              them later, so system TPS can fall and TTFT jump there\n";
    }
    if r.sweep.iter().any(|p| p.error_rate > 0.01 && !p.nothing_completed()) {
        o += "failed: requests refused (longer than the KV cache holds, or over the queue limit) or timed out; \
              the latencies are the others', and more than 1 % failed fails the target\n";
    }
    let mk = |name: &str, m: &Option<tps_planner::scenario::Marker>| match m {
        Some(m) => format!(
            "{name}: {} — {:.0} tok/s total, {} tok/s each{}\n",
            // As the page and the energy line word it ("1 024 users" beside "the throughput peak (1 024 users)").
            tps_planner::plan::load_label(m),
            m.system_tps,
            tps_planner::model::units::tenths(m.per_user_tps),
            // More users than run at once: the rest queue (a teacher's trial read "peak: 6 users" on llama.cpp's 4
            // slots, a hair above the 4 users' speed because the queue keeps every slot busy). Users who think between
            // requests are not all waiting: nothing said.
            tps_planner::plan::readout::waiting_turn(&r.memory, m.concurrency, r.think_time_s).map_or_else(String::new, |t| format!(" ({t})"))
        ),
        None => format!("{name}: none\n"),
    };
    o += "\n";
    o += &mk("peak", &Some(r.peak.clone()));
    o += &mk("knee", &r.knee);
    o += &mk("peak usable", &r.peak_usable);
    o += &mk("operating point", &r.operating_point);
    if let Some(w) = tps_planner::plan::knee_and_operating_point(r) {
        o += &format!("  {w}\n");
    }
    o += &meeting_lines(r);
    o += &format!(
        "accuracy (9 in 10 measurements not fitted on fell within): one user {} ({}; {}), under load {} ({}; {}); {}\n",
        band_text(r.band.single_stream_pct),
        r.band.single_stream_class,
        // As the page says it (`Band::basis_words`): a class without validated runs rests on a stated prior.
        r.band.basis_words().0,
        band_text(r.band.batched_pct),
        r.band.load_class,
        r.band.basis_words().1,
        r.band.latency_words()
    );
    if let Some(g) = &r.band.compute_borrowed_from {
        o +=
            &format!("  this device's generation borrows the compute efficiency fitted on {g} devices (none is fitted on its own served runs): its error may be wider\n");
    }
    o += &format!("\nverdict: {}\n", r.verdict);
    if let Some(m) = tps_planner::plan::margin_words(r) {
        o += &format!("  {m}\n");
    }
    o + &warnings_and_defaults(r) + TERMS
}

/// What the table's words mean, for a reader without the page's "How to read this" (a teacher's trial: the CLI
/// defined none of them).
const TERMS: &str = "terms:
  user t/s: one user's tokens a second while the answer streams (1000 ÷ TPOT); system t/s: every user's together
  TTFT: time to the first token (waiting in the queue + reading the prompt + the front end: HTTP, tokenising); TPOT: the mean gap between the later tokens
  p50 / p95 / p99: half / 95 % / 99 % of the requests do better (p90 in the middle when the target is judged there); batch: sequences decoded together in one step
  bound: what sets a step's time (memory: bytes read ÷ bandwidth; compute: arithmetic ÷ peak; overhead: the engine's
    own work, all-reduces, chains of small kernels)
  knee: where system t/s reaches 90 % of its maximum; capacity: the most load that still meets the target;
    operating point: 50–70 % of the capacity's load, the headroom for bursts and for the model's error
";

/// The report's warnings and the defaults it used, a line each.
fn warnings_and_defaults(r: &Report) -> String {
    let mut o = String::new();
    for w in &r.warnings {
        // Notes (how the figures were computed, the sweep's saturated top) as the page shows them: not alarms.
        o += &format!("{}: {w}\n", if w.is_info() { "note" } else { "warning" });
    }
    if !r.defaults_used.is_empty() {
        o += "defaults used:\n";
        for d in &r.defaults_used {
            o += &format!("  - {d}\n");
        }
    }
    o
}
