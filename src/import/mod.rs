//! Measurements from real benchmark tools, read into one shape so the model can be held against them.
//!
//! A user who has run a benchmark wants to know how the prediction compares, and to calibrate. This module
//! reads the result files the common tools write, detecting the format from the content (never the file
//! name), and returns [`Measurement`]s; [`compare`] puts each next to the model's prediction for the same load.
//!
//! | tool | files | what becomes a measurement | reader |
//! |---|---|---|---|
//! | vLLM `vllm bench serve` / `benchmark_serving.py` | JSON, JSON Lines (`--append-result`) | one per run | `serving.rs` |
//! | SGLang `bench_serving` | JSON Lines (bare `Infinity` tolerated) | one per run | `serving.rs` |
//! | genai-perf, AIPerf | `profile_export_*.json` and `.csv` (either percentile order, `"1,863.41"`) | one | `genai_perf.rs` |
//! | llmperf | `*_summary.json` (seconds, `NaN` tolerated) | one | `llmperf.rs` |
//! | llama-bench | `-o json`, `jsonl`, `csv`, `md` | one per `pp`/`tg` test | `llama_bench.rs` |
//! | vLLM `/metrics` | Prometheus text (histograms summed over engines, percentiles interpolated) | one | `prometheus.rs` |
//!
//! `detect.rs` recognises the format from the content and hands the file to its reader; `common.rs` holds
//! what the readers share (lenient JSON, the CSV reader, number helpers); `compare.rs` the comparison.
//!
//! Units are converted at the edge: every time in milliseconds, every rate in tokens/s. Definitions differ
//! between tools, and each measurement carries notes where they matter: vLLM's and SGLang's TPOT and
//! genai-perf/AIPerf's `inter_token_latency` are the same quantity ((E2E − TTFT) / (output − 1)); llmperf's
//! inter-token latency includes the TTFT, so its TPOT is derived from the means; a Prometheus scrape holds
//! lifetime histograms, whose percentiles are only known within a bucket. Hardware is rarely recorded (vLLM
//! only through `--metadata`, llama-bench in `gpu_info`): the comparison uses the scenario's hardware, and
//! flags a file whose recorded model or device is another ([`Mismatch`]).
//!
//! Bad input is normal input: an unknown or damaged file is an [`ImportError`] naming what was expected,
//! never a panic. A run from which no figure can be read (no throughput, no latency statistic, no tok/s) is
//! not a measurement and is dropped; a file of nothing else is an error.
//!
//! The same run imported twice — the same file again, or another export of it (llama-bench's JSON and
//! Markdown, which differ in precision and fields) — is recognised by [`merge`] and kept once.

mod common;
mod compare;
mod detect;
mod genai_perf;
mod llama_bench;
mod llmperf;
mod prometheus;
mod serving;

pub use common::csv_rows;
pub use compare::{compare, headline, Comparison, Mismatch, Row};

use crate::percentiles::Pct;
use serde::Serialize;

/// Mean and percentiles of one latency, milliseconds (absent where the tool did not report them).
pub type Stats = crate::percentiles::Measured;

/// What a measurement measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A serving benchmark: many requests at a concurrency or request rate.
    Serving,
    /// One stream generating tokens (llama-bench `tgN`, optionally after `n_depth` tokens of context).
    Decode,
    /// Prompt processing of one prompt (llama-bench `ppN`).
    Prefill,
}

/// One measured run in a common shape.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Measurement {
    /// The tool that wrote the file (`vLLM bench serve`, `llama-bench`, …).
    pub tool: String,
    pub kind: Kind,
    /// A short description of the run (`concurrency 64`, `tg128 @ d4096`, the SGLang tag, …).
    pub label: String,
    pub model: Option<String>,
    pub hardware: Option<String>,
    /// The serving engine the run measured, where the file tells for sure (a preset id: `llama.cpp` for
    /// llama-bench, `vllm` for vLLM's /metrics, `sglang` for SGLang's bench_serving with its server's info; a
    /// benchmark client's `backend` names an API, not the server behind it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// Devices the model was split over (tensor × pipeline parallel), where the file says: vLLM's `--metadata
    /// tensor_parallel_size=…` (its recipes' convention), SGLang's server info. A run on 1 device compared with
    /// a scenario on 8 is another deployment (a pre-sales trial calibrated 8 × H100 on a 1-GPU run: η_fl 0.065).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub devices: Option<u32>,
    /// Whether the run's attention was data-parallel with the experts split (`hardware.parallelism:
    /// "dp-attention"`), where the file says: SGLang's server info (`enable_dp_attention` with `dp_size` > 1), vLLM's
    /// `--metadata enable_expert_parallel=true` with a data-parallel size > 1. A DP-attention run against a
    /// tensor-parallel scenario is another deployment, as another device count is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dp_attention: Option<bool>,
    /// Parameters in billions and bits per weight, where the file says (llama-bench).
    pub params_b: Option<f64>,
    pub weight_bits: Option<f64>,
    /// Client-side cap on requests in flight (closed loop).
    pub concurrency: Option<f64>,
    /// Arrival rate, requests/s; `None` with a concurrency means "as fast as the cap allows".
    pub request_rate: Option<f64>,
    /// Mean tokens per request.
    pub prompt_tokens: Option<f64>,
    pub output_tokens: Option<f64>,
    /// Tokens already in the context before the test (llama-bench `-d`).
    pub context_depth: f64,
    /// Coefficient of variation of the output lengths, where the file gives it (llmperf, genai-perf, AIPerf).
    pub output_cv: Option<f64>,
    /// The same of the prompts' lengths (genai-perf, AIPerf): with both 0 the run's lengths were fixed.
    pub prompt_cv: Option<f64>,
    /// Whether the file records the load (a concurrency cap, a request rate, or "all at once").
    pub load_recorded: bool,
    /// Completed requests.
    pub requests: Option<f64>,
    /// Output tokens/s of the whole server.
    pub system_output_tps: Option<f64>,
    /// Decode speed of one user, tokens/s (1000 ÷ mean TPOT, or llama-bench `tg` avg_ts).
    pub per_user_tps: Option<f64>,
    /// Prompt tokens/s (llama-bench `pp`).
    pub prefill_tps: Option<f64>,
    pub ttft_ms: Stats,
    /// Per request (E2E − TTFT) / (output − 1), pooled over requests.
    pub tpot_ms: Stats,
    /// Gaps between streamed chunks, pooled.
    pub itl_ms: Stats,
    pub e2e_ms: Stats,
    /// Caveats that matter when comparing (definitions, interpolation, missing load settings).
    pub notes: Vec<String>,
}

impl Measurement {
    /// Whether the run has at least one figure to compare: a throughput, a per-user or prefill rate, or a
    /// latency statistic.
    #[must_use]
    pub fn has_figure(&self) -> bool {
        let rate = |v: Option<f64>| v.is_some_and(|x| x.is_finite() && x > 0.0);
        rate(self.system_output_tps)
            || rate(self.per_user_tps)
            || rate(self.prefill_tps)
            || [&self.ttft_ms, &self.tpot_ms, &self.itl_ms, &self.e2e_ms].iter().any(|s| !s.is_empty())
    }

    /// Whether the file states the run's weight format (as a size, or in the model's name: "…-AWQ", "Q4_K_M").
    #[must_use]
    pub fn states_weight_format(&self) -> bool {
        self.weight_bits.is_some() || self.model.as_deref().and_then(crate::model::quant::stated_in_name).is_some()
    }

    /// Whether the run's mean prompt and output lengths are within 10 % of these (unknown lengths count as
    /// the same).
    #[must_use]
    pub fn same_lengths(&self, prompt: f64, output: f64) -> bool {
        let near = |a: Option<f64>, b: f64| a.is_none_or(|a| (a - b).abs() <= 0.1 * b.max(1.0));
        near(self.prompt_tokens, prompt) && near(self.output_tokens, output)
    }

    /// The spread of a run's request lengths as a scenario simulates it: lognormal with the run's output CV
    /// (capped at 2), when the tool recorded one (llmperf does); fixed when, without per-request lengths, a vLLM or
    /// SGLang benchmark's mean prompt and output lengths are both whole numbers over 10 requests or more (varied
    /// lengths average to two whole numbers about once in n² runs; SGLang's random dataset draws uniform lengths
    /// by default, rarely whole on average, and keeps the page's spread). `vllm bench serve --dataset-name random`
    /// gives every request the configured lengths by default: 102,400 prompt and 12,800 output tokens over 100
    /// requests. The page's "Use these lengths" and the comparison both apply it, so a run is predicted
    /// the way it is reproduced, not with the page's own spread (an operations engineer's trial: the same four runs
    /// compared and calibrated against the page's lognormal lengths were off by 23 % after calibration, against 11 %
    /// with their own fixed ones, and the held-out run by 32 % against 5 %).
    #[must_use]
    pub fn length_spread(&self) -> Option<(crate::scenario::Distribution, f64)> {
        use crate::scenario::Distribution;
        match self.output_cv {
            Some(cv) if cv > 0.0 => Some((Distribution::Lognormal, cv.min(2.0))),
            // Prompts and outputs of one length each (genai-perf's and AIPerf's synthetic runs): fixed, whatever
            // the page's lengths (an operations trial's AIPerf run read TTFT P50 80 ms on the page's lognormal
            // lengths and 724 ms on fixed ones, and the two calibrations differed).
            Some(_) if self.prompt_cv == Some(0.0) => Some((Distribution::Fixed, 0.0)),
            // An output CV of 0 says nothing of the prompts (llmperf varies them): the page's spread.
            Some(_) => None,
            None => {
                // Only the serving benchmarks whose random dataset gives fixed lengths (not, say, a summary of other
                // runs whose lengths the caller set).
                let bench = self.tool.starts_with("vLLM") || self.tool.starts_with("SGLang");
                let whole = |v: Option<f64>| v.is_some_and(|x| x >= 1.0 && (x - x.round()).abs() < 1e-9);
                (bench && self.requests.is_some_and(|n| n >= 10.0) && whole(self.prompt_tokens) && whole(self.output_tokens))
                    .then_some((Distribution::Fixed, 0.0))
            }
        }
    }

    /// Whether the file says another engine than `kind` ran the run.
    #[must_use]
    pub fn other_engine(&self, kind: crate::model::engine::EngineKind) -> bool {
        self.engine.as_deref().is_some_and(|e| crate::model::engine::EngineKind::of(e) != kind)
    }

    /// Leaves out what no run can have measured, each with a note: a load, length or rate that is negative, not a
    /// number or beyond any server (a concurrency of a million), latencies below zero, and a latency's percentiles
    /// out of order (P99 below P50: at least one of them is wrong, and which one the file does not say). A
    /// trial's edited vLLM result, `max_concurrency: -5` and `p99_ttft_ms: 1` under a P50 of 332, had been predicted
    /// at one user, compared at +309,064 % and calibrated on.
    pub fn drop_impossible(&mut self) {
        let mut notes = Vec::new();
        // `v` outside `least..=most` (`least` itself excluded when `positive`), or not a number: left out, said.
        let check = |v: &mut Option<f64>, what: &str, positive: bool, most: f64, notes: &mut Vec<String>| {
            if let Some(x) = v.filter(|x| !(x.is_finite() && *x >= 0.0 && *x <= most && (!positive || *x > 0.0))) {
                notes.push(format!("the file's {what} {} is left out: no run has that", crate::model::units::fmt_num(x)));
                *v = None;
            }
        };
        let load = (self.concurrency, self.request_rate);
        check(&mut self.concurrency, "concurrency", true, 1e6, &mut notes);
        check(&mut self.request_rate, "request rate", false, 1e9, &mut notes);
        // A load left out is a load not recorded: without its cap the run would read as every request at once.
        if load != (self.concurrency, self.request_rate) {
            self.load_recorded = false;
        }
        check(&mut self.prompt_tokens, "prompt length", false, 1e9, &mut notes);
        check(&mut self.output_tokens, "output length", false, 1e9, &mut notes);
        check(&mut self.requests, "request count", false, 1e12, &mut notes);
        check(&mut self.system_output_tps, "output tok/s", false, 1e12, &mut notes);
        check(&mut self.per_user_tps, "tok/s per user", false, 1e9, &mut notes);
        check(&mut self.prefill_tps, "prompt tok/s", false, 1e12, &mut notes);
        for (stats, what) in [(&mut self.ttft_ms, "TTFT"), (&mut self.tpot_ms, "TPOT"), (&mut self.itl_ms, "ITL"), (&mut self.e2e_ms, "E2E")] {
            for (pct, v) in [
                (Pct::Mean, &mut stats.mean),
                (Pct::P50, &mut stats.p50),
                (Pct::P90, &mut stats.p90),
                (Pct::P95, &mut stats.p95),
                (Pct::P99, &mut stats.p99),
            ] {
                check(v, &format!("{what} {}", pct.label()), false, 1e12, &mut notes);
            }
            let ranked: Vec<(Pct, f64)> = [(Pct::P50, stats.p50), (Pct::P90, stats.p90), (Pct::P95, stats.p95), (Pct::P99, stats.p99)]
                .into_iter()
                .filter_map(|(p, v)| Some((p, v?)))
                .collect();
            // (Out of order beyond rounding: a file's floats may differ in their last digit.)
            if let Some(w) = ranked.windows(2).find(|w| w[1].1 < w[0].1 * (1.0 - 1e-9) - 1e-9) {
                notes.push(format!(
                    "the file's {what} percentiles are out of order ({} {} ms below {} {} ms): none of them is compared",
                    w[1].0.label(),
                    crate::model::units::fmt_num(w[1].1),
                    w[0].0.label(),
                    crate::model::units::fmt_num(w[0].1)
                ));
                (stats.p50, stats.p90, stats.p95, stats.p99) = (None, None, None, None);
            }
        }
        self.notes.extend(notes);
    }

    /// Whether the run is predicted on its own engine, whatever the scenario's: llama-bench's runs are llama.cpp's,
    /// with the weights the file gives (`compare`).
    #[must_use]
    pub fn predicted_on_own_engine(&self) -> bool {
        self.tool == "llama-bench"
    }

    fn new(tool: &str, kind: Kind) -> Self {
        Self {
            tool: tool.into(),
            kind,
            label: String::new(),
            model: None,
            hardware: None,
            engine: None,
            devices: None,
            dp_attention: None,
            params_b: None,
            weight_bits: None,
            concurrency: None,
            request_rate: None,
            prompt_tokens: None,
            output_tokens: None,
            context_depth: 0.0,
            output_cv: None,
            prompt_cv: None,
            load_recorded: true,
            requests: None,
            system_output_tps: None,
            per_user_tps: None,
            prefill_tps: None,
            ttft_ms: Stats::default(),
            tpot_ms: Stats::default(),
            itl_ms: Stats::default(),
            e2e_ms: Stats::default(),
            notes: Vec::new(),
        }
    }
}

/// Why a file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {message}")]
pub struct ImportError {
    pub file: String,
    pub message: String,
}

/// The most runs one file may hold (`parse`).
pub const MAX_RUNS: usize = 1_000;

/// How a run's note begins when none of its requests completed (`serving`): `parse` counts such runs by it.
const NONE_COMPLETED: &str = "no request completed";

/// Reads every measurement in one file. `name` is only used in messages.
///
/// # Errors
/// When the content is none of the known formats, or a known format without the figures a comparison needs.
pub fn parse(name: &str, text: &str) -> Result<Vec<Measurement>, ImportError> {
    let err = |message: String| ImportError { file: name.to_string(), message };
    let text = text.trim_start_matches('\u{feff}');
    if text.trim().is_empty() {
        return Err(err("the file is empty".into()));
    }
    let mut out = detect::parse(text).map_err(err)?;
    // Each run is compared with a prediction of its own and checked against the others for repeats: a file of
    // 50,000 distinct llama-bench rows took 109 s on the page and 30 s a keystroke after (a bad-input trial).
    if out.len() > MAX_RUNS {
        return Err(err(format!(
            "{} runs in one file; at most {} are read from a file (a benchmark's sweep holds dozens): compare a part of it",
            out.len(),
            MAX_RUNS
        )));
    }
    if out.is_empty() {
        return Err(err("no measurement in the file".into()));
    }
    let tool = out[0].tool.clone();
    out.iter_mut().for_each(Measurement::drop_impossible);
    // What was left out of the runs that keep no figure: said, where the file's figures were there but impossible
    // (a hostile trial's negative figures read "no figure in the file").
    // (The figures' notes alone: a load or a length left out is no figure.)
    let figure = |n: &&String| {
        ["output tok/s", "tok/s per user", "prompt tok/s", "TTFT", "TPOT", "ITL", "E2E"].iter().any(|f| n.starts_with(&format!("the file's {f} ")))
    };
    let dropped: Vec<String> = out
        .iter()
        .filter(|m| !m.has_figure())
        .flat_map(|m| m.notes.iter().filter(|n| n.contains("is left out: no run has that")).filter(figure).cloned())
        .collect();
    let zero_runs = out.iter().filter(|m| m.notes.iter().any(|n| n.starts_with(NONE_COMPLETED))).count();
    out.retain(Measurement::has_figure);
    // Beside runs that remain, said on the first (a review: a run of a sweep file with `completed: 0` had gone
    // without a word).
    if let (true, Some(first)) = (zero_runs > 0, out.first_mut()) {
        first.notes.push(format!(
            "{zero_runs} run{} in the file where no request completed {} left out",
            if zero_runs == 1 { "" } else { "s" },
            if zero_runs == 1 { "is" } else { "are" }
        ));
    }
    if out.is_empty() {
        return Err(err(if zero_runs > 0 {
            "no request completed in the run (completed: 0), so its figures measure nothing: a server that failed or a run cut short".to_string()
        } else if dropped.is_empty() {
            format!("no figure in the file: expected {}", detect::expected_figures(&tool))
        } else {
            let more = if dropped.len() > 3 { format!(" (and {} more)", dropped.len() - 3) } else { String::new() };
            format!(
                "every figure in the file is impossible and was left out: {}{more}",
                dropped.iter().take(3).cloned().collect::<Vec<_>>().join("; ")
            )
        }));
    }
    Ok(out)
}

/// Tools whose files are the same benchmark written by two versions (a run is the same run in either).
fn tool_family(tool: &str) -> &str {
    match tool {
        "vLLM bench serve" | "vLLM benchmark_serving.py" => "vLLM",
        t => t,
    }
}

/// Whether two values agree within rounding: 1 % of the larger, or 0.01 (two decimals) for small ones.
fn near(a: f64, b: f64) -> bool {
    (a - b).abs() <= 0.01 * a.abs().max(b.abs()) + 0.01
}

/// Whether `a` and `b` are the same run, read from the same or another export of one result: same tool family
/// and kind, same label (test, load, tag), lengths, depth and load, the same model and hardware where both
/// record them, and every figure both hold equal within rounding (at least one figure in common).
#[must_use]
pub fn same_run(a: &Measurement, b: &Measurement) -> bool {
    let both = |x: Option<f64>, y: Option<f64>| x.zip(y).is_none_or(|(x, y)| near(x, y));
    let exact = |x: Option<f64>, y: Option<f64>| match (x, y) {
        (Some(x), Some(y)) => near(x, y),
        (None, None) => true,
        _ => false,
    };
    let name = |x: &Option<String>, y: &Option<String>| x.as_ref().zip(y.as_ref()).is_none_or(|(x, y)| x.trim().eq_ignore_ascii_case(y.trim()));
    // One export may leave the load out (genai-perf's and AIPerf's CSV summaries have no concurrency, their JSON
    // has): such a run matches the one that records it when enough figures agree (below).
    // Only those tools: a vLLM /metrics scrape has no load either, and two scrapes of one server's lifetime
    // histograms can agree while being different runs.
    let summaries = |t: &str| matches!(t, "genai-perf" | "AIPerf");
    let one_without_load = a.load_recorded != b.load_recorded && summaries(&a.tool) && summaries(&b.tool);
    let same_load = one_without_load
        || a.load_recorded == b.load_recorded && a.label == b.label && exact(a.concurrency, b.concurrency) && exact(a.request_rate, b.request_rate);
    let same_setup = tool_family(&a.tool) == tool_family(&b.tool)
        && a.kind == b.kind
        && same_load
        && (a.context_depth - b.context_depth).abs() < 0.5
        && both(a.prompt_tokens, b.prompt_tokens)
        && both(a.output_tokens, b.output_tokens)
        && both(a.weight_bits, b.weight_bits)
        && name(&a.model, &b.model)
        && name(&a.hardware, &b.hardware);
    if !same_setup {
        return false;
    }
    let figures = |m: &Measurement| -> Vec<Option<f64>> {
        let mut v = vec![m.system_output_tps, m.per_user_tps, m.prefill_tps];
        for s in [&m.ttft_ms, &m.tpot_ms, &m.itl_ms, &m.e2e_ms] {
            v.extend([s.mean, s.p50, s.p90, s.p95, s.p99]);
        }
        v
    };
    let pairs: Vec<(f64, f64)> = figures(a).into_iter().zip(figures(b)).filter_map(|(x, y)| x.zip(y)).collect();
    pairs.len() >= if one_without_load { 4 } else { 1 } && pairs.iter().all(|&(x, y)| near(x, y))
}

/// Adds `new` to `existing`, skipping each run that is already there ([`same_run`]); a skipped run fills in what
/// the kept one lacks (a Markdown table has no hardware, the JSON export does). Returns how many were skipped.
pub fn merge(existing: &mut Vec<Measurement>, new: Vec<Measurement>) -> usize {
    let mut skipped = 0;
    for m in new {
        match existing.iter_mut().find(|e| same_run(e, &m)) {
            Some(kept) => {
                kept.fill_from(&m);
                skipped += 1;
            }
            None => existing.push(m),
        }
    }
    skipped
}

impl Measurement {
    /// Copies into `self` what it lacks and `other` (the same run) records.
    fn fill_from(&mut self, other: &Self) {
        fn opt<T: Clone>(a: &mut Option<T>, b: &Option<T>) {
            if a.is_none() {
                a.clone_from(b);
            }
        }
        fn stats(a: &mut Stats, b: &Stats) {
            for (x, y) in [(&mut a.mean, b.mean), (&mut a.p50, b.p50), (&mut a.p90, b.p90), (&mut a.p95, b.p95), (&mut a.p99, b.p99)] {
                opt(x, &y);
            }
        }
        if !self.load_recorded && other.load_recorded {
            self.load_recorded = true;
            self.label.clone_from(&other.label);
            self.concurrency = other.concurrency;
            self.request_rate = other.request_rate;
            self.notes.retain(|n| !n.contains("not record the load"));
        }
        opt(&mut self.model, &other.model);
        opt(&mut self.engine, &other.engine);
        opt(&mut self.hardware, &other.hardware);
        opt(&mut self.devices, &other.devices);
        opt(&mut self.params_b, &other.params_b);
        opt(&mut self.weight_bits, &other.weight_bits);
        opt(&mut self.prompt_tokens, &other.prompt_tokens);
        opt(&mut self.output_tokens, &other.output_tokens);
        opt(&mut self.output_cv, &other.output_cv);
        opt(&mut self.prompt_cv, &other.prompt_cv);
        opt(&mut self.requests, &other.requests);
        opt(&mut self.system_output_tps, &other.system_output_tps);
        opt(&mut self.per_user_tps, &other.per_user_tps);
        opt(&mut self.prefill_tps, &other.prefill_tps);
        stats(&mut self.ttft_ms, &other.ttft_ms);
        stats(&mut self.tpot_ms, &other.tpot_ms);
        stats(&mut self.itl_ms, &other.itl_ms);
        stats(&mut self.e2e_ms, &other.e2e_ms);
        for n in &other.notes {
            if !self.notes.contains(n) {
                self.notes.push(n.clone());
            }
        }
    }
}
