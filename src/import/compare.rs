//! A measurement next to the model's prediction for the same load.
//!
//! The scenario supplies what benchmark files rarely record (hardware, engine, formats); the measurement
//! supplies the workload: mean prompt and output tokens, context depth, and the load (a closed-loop
//! concurrency, an open-loop request rate, or — rate unlimited without a cap — every request at once, an
//! offline job). Serving runs go through the same simulation as the page; llama-bench `tg` rows through the
//! single-stream decode model at their depth, `pp` rows through the prefill model.
//!
//! Error = predicted ÷ measured − 1 (positive: the model is optimistic about throughput, or pessimistic about
//! latency). Rows appear only for figures the file holds. A deployment that does not fit (weights, or the KV
//! cache of one sequence at the run's lengths) is not predicted: no rows, and a note saying why. A file that
//! names another model or device than the scenario's gets a note and a [`Mismatch`].

use super::{Kind, Measurement, Stats};
use crate::model::roofline::Deployment;
use crate::model::units::GIB;
use crate::plan;
use crate::presets;
use crate::scenario::{LoadSpec, Pcts, Scenario, ScenarioError};
use serde::Serialize;

/// One figure, predicted and measured.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    pub metric: String,
    pub unit: &'static str,
    pub predicted: f64,
    pub measured: f64,
    /// predicted ÷ measured − 1, percent.
    pub error_pct: f64,
}

/// The file's run was on another model or device than the scenario's: the prediction is for the scenario's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mismatch {
    /// `"model"`, `"weight format"`, `"hardware"`, `"device count"`, `"split"` or `"engine"`.
    pub what: &'static str,
    /// The name the file records.
    pub file: String,
    /// The scenario's (the page's) name.
    pub page: String,
    /// The id of a built-in preset that matches the file's name, to offer switching to it (for the device count,
    /// the file's count).
    pub preset: Option<String>,
}

/// A measurement with the prediction for its load.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    pub measurement: Measurement,
    /// The load the prediction was made for.
    pub load: String,
    pub rows: Vec<Row>,
    pub notes: Vec<String>,
    /// Whether the deployment fits in memory at the run's lengths (when not: no rows, a note says why).
    pub fits: bool,
    /// Where the file's model or hardware differs from the scenario's (each also has a note).
    pub mismatch: Vec<Mismatch>,
}

impl Comparison {
    /// Median absolute error over the rows, percent (`None` without rows).
    #[must_use]
    pub fn median_abs_error_pct(&self) -> Option<f64> {
        let mut e: Vec<f64> = self.rows.iter().map(|r| r.error_pct.abs()).collect();
        crate::sorting::median(&mut e)
    }
}

/// The comparisons' headline: the median |error| over the figures of the runs of the scenario's own deployment.
/// A run of another model, device or engine says nothing of this one's accuracy, so it is left out and counted
/// (a pre-sales trial read "median |error| 28.8 %" for a 70B scenario against an 8B run as a validation).
#[must_use]
pub fn headline<'a>(cs: impl IntoIterator<Item = &'a Comparison> + Clone) -> Option<String> {
    let own = |c: &&Comparison| c.mismatch.is_empty();
    let mut errs: Vec<f64> = cs.clone().into_iter().filter(own).flat_map(|c| c.rows.iter().map(|r| r.error_pct.abs())).collect();
    let median = crate::sorting::median(&mut errs);
    let other = cs.clone().into_iter().filter(|c| !c.mismatch.is_empty() && !c.rows.is_empty()).count();
    // Runs of this deployment that gave no figure (it does not fit them, their load is not recorded): said apart.
    let own_runs = cs.clone().into_iter().filter(own).count();
    let runs = |k: usize| format!("{k} run{}", if k == 1 { "" } else { "s" });
    let left_out = match other {
        0 => String::new(),
        k => format!(
            "; {} of another deployment (model, weight format, hardware, devices or engine) left out: their errors say nothing of this one's",
            runs(k)
        ),
    };
    // Runs whose file does not state the weight format are predicted at the scenario's, unchecked: said with the median
    // (an operations trial switched the page to the run's 8B model, kept its FP8 weights, read "median |error| 11.8 %"
    // against BF16 runs — 57 % at the runs' own format — and learnt of the assumption only from a refused calibration).
    let unstated = cs.clone().into_iter().filter(own).filter(|c| !c.rows.is_empty() && !c.measurement.states_weight_format()).count();
    let assumed = match unstated {
        0 => String::new(),
        k => format!(
            "; the scenario's weight format is assumed for {}: {}, and a run in another format reads as the model's error",
            if k == own_runs && k > 1 { "every run".to_string() } else { runs(k) },
            if k == 1 { "its file does not record it" } else { "their files do not record it" }
        ),
    };
    match median {
        Some(m) => Some(format!("{} figures compared: median |error| {m:.1} % (error = predicted ÷ measured − 1){left_out}{assumed}.", errs.len())),
        None if other > 0 && own_runs > 0 => Some(format!(
            "no median error: the runs of the scenario's deployment gave no figure to compare; left out: {} of another deployment (model, weight format, hardware, devices or engine).",
            runs(other)
        )),
        None if other > 0 => Some(format!(
            "no median error: {} of another deployment (model, weight format, hardware, devices or engine) than the scenario's, so the errors measure the difference, not the model.",
            if other == 1 { "the run is".to_string() } else { format!("all {other} runs are") }
        )),
        None => None,
    }
}

/// A run the model predicts nothing for, `why` the first of its notes (`load` says what was predicted: nothing).
fn nothing(m: &Measurement, load: &str, why: impl Into<String>, mut notes: Vec<String>) -> Comparison {
    notes.insert(0, why.into());
    Comparison { measurement: m.clone(), load: load.into(), rows: Vec::new(), notes, fits: false, mismatch: Vec::new() }
}

fn push(rows: &mut Vec<Row>, metric: &str, unit: &'static str, predicted: f64, measured: Option<f64>) {
    if let Some(m) = measured.filter(|m| *m > 0.0 && m.is_finite()) {
        if predicted.is_finite() {
            rows.push(Row { metric: metric.into(), unit, predicted, measured: m, error_pct: (predicted / m - 1.0) * 100.0 });
        }
    }
}

fn latency_rows(rows: &mut Vec<Row>, name: &str, predicted: &Pcts, measured: &Stats) {
    push(rows, &format!("{name} mean"), "ms", predicted.mean, measured.mean);
    push(rows, &format!("{name} P50"), "ms", predicted.p50, measured.p50);
    push(rows, &format!("{name} P90"), "ms", predicted.p90, measured.p90);
    push(rows, &format!("{name} P95"), "ms", predicted.p95, measured.p95);
    push(rows, &format!("{name} P99"), "ms", predicted.p99, measured.p99);
}

/// Why the deployment cannot hold the weights, or one sequence of `ctx` tokens next to them (`None`: it fits).
fn does_not_fit(d: &Deployment, ctx: f64) -> Option<String> {
    let hw = &d.hardware;
    if !d.fits() {
        let usable = hw.accelerator_memory_bytes() * d.engine.memory_utilization - d.engine.reserve_gb * GIB * f64::from(hw.devices);
        return Some(format!(
            "the deployment does not fit: weights {:.1} GB vs {:.1} GB of memory ({} × {} GiB{}, {:.0} % for the engine, less {} GiB reserved per device); no prediction",
            d.weight_bytes_stored() / 1e9,
            usable.max(0.0) / 1e9,
            hw.devices,
            crate::model::units::fmt_num(hw.memory_gb),
            if hw.accelerator_memory_fraction() < 1.0 {
                format!(" of which Metal lets the GPU use {:.0} %", hw.accelerator_memory_fraction() * 100.0)
            } else {
                String::new()
            },
            d.engine.memory_utilization * 100.0,
            crate::model::units::fmt_num((d.engine.reserve_gb * 100.0).round() / 100.0),
        ));
    }
    (d.max_sequences(ctx) < 1.0).then(|| {
        format!(
            "the deployment does not fit: the weights fit ({:.1} GB), but the KV cache of one sequence of {ctx:.0} tokens ({:.1} GB) does not fit in the {:.1} GB left{}; no prediction",
            d.weight_bytes_stored() / 1e9,
            d.kv_bytes(ctx) / 1e9,
            d.kv_budget_bytes() / 1e9,
            if d.dense_copies() > 1.0 { format!(", {:.1} GB a device under DP attention", d.kv_budget_bytes() / d.dense_copies() / 1e9) } else { String::new() }
        )
    })
}

/// |a − b| relative to the larger.
fn rel_diff(a: f64, b: f64) -> f64 {
    (a - b).abs() / a.abs().max(b.abs()).max(f64::MIN_POSITIVE)
}

/// Whether a device name shares none of its model numbers (`h100`, `4090`, `9454`: tokens with a digit) with the
/// scenario's names. A name without model numbers is never called different.
fn no_common_number(file: &str, page: &[&str]) -> bool {
    let page: Vec<String> = page.iter().flat_map(|p| presets::guess::tokens(p)).collect();
    let numbers: Vec<String> = presets::guess::tokens(file).into_iter().filter(|t| t.chars().any(|c| c.is_ascii_digit())).collect();
    !numbers.is_empty() && !numbers.iter().any(|n| page.contains(n))
}

/// Where the file's model, hardware or engine is not the scenario's. Conservative: a name that cannot be told apart from
/// the scenario's is not a mismatch.
fn mismatches(base: &Scenario, m: &Measurement) -> Vec<Mismatch> {
    let page = base.resolve().ok();
    let mut out = Vec::new();
    if let Some(file) = m.model.as_deref().map(str::trim).filter(|f| !f.is_empty()) {
        let guess = presets::models::guess(file);
        let page_preset = base.model.preset.as_deref().and_then(presets::models::find);
        let page_params = page.as_ref().map(|r| r.deployment.model.params_b).or(base.model.params_b);
        let differs_in_size = |params: f64| page_params.is_some_and(|p| rel_diff(params, p) > 0.1);
        let differs = match (guess, page_preset) {
            (Some(g), Some(p)) => g.id != p.id,
            (Some(g), None) => differs_in_size(g.params_b),
            // An unknown name: only a parameter count (llama-bench records it, a name may state it) tells.
            (None, _) => m.params_b.or_else(|| presets::models::stated_params_b(file)).is_some_and(differs_in_size),
        };
        if differs {
            let name = page.as_ref().map(|r| r.deployment.model.name.clone()).or_else(|| page_preset.map(|p| p.name.to_string()));
            out.push(Mismatch {
                what: "model",
                file: file.to_string(),
                page: name.unwrap_or_else(|| "the scenario's model".into()),
                preset: guess.map(|g| g.id.to_string()),
            });
        }
    }
    // Another weight format, where the file's model name states one (a llama-bench run is predicted at the file's own
    // bits): a quarter more or fewer bits per weight is another deployment (Q4_K_M against Q5_K_M is not).
    if let (Some(f), Some(r)) = (m.model.as_deref().and_then(crate::model::quant::stated_in_name), page.as_ref()) {
        if !m.predicted_on_own_engine() && rel_diff(f.bits, r.deployment.weight_bits) > 0.25 {
            out.push(Mismatch { what: "weight format", file: f.label.into(), page: r.quantization.clone(), preset: Some(f.id.into()) });
        }
    }
    if let Some(file) = m.hardware.as_deref().map(str::trim).filter(|f| !f.is_empty()) {
        let guess = presets::hardware::guess(file);
        let page_preset = base.hardware.preset.as_deref().and_then(presets::hardware::find);
        let differs = match (guess, page_preset) {
            (Some(g), Some(p)) => g.id != p.id,
            (Some(g), None) => page.as_ref().is_some_and(|r| {
                let h = &r.deployment.hardware;
                rel_diff(g.bandwidth_gbps, h.memory_bandwidth_gbps) > 0.1 || rel_diff(g.memory_gb, h.memory_gb) > 0.1
            }),
            (None, Some(p)) => no_common_number(file, &[p.id, p.name]),
            (None, None) => base.hardware.name.as_deref().is_some_and(|n| no_common_number(file, &[n])),
        };
        if differs {
            let name = page.as_ref().map(|r| r.deployment.hardware.name.clone()).or_else(|| page_preset.map(|p| p.name.to_string()));
            out.push(Mismatch {
                what: "hardware",
                file: file.to_string(),
                page: name.unwrap_or_else(|| "the scenario's hardware".into()),
                preset: guess.map(|g| g.id.to_string()),
            });
        }
    }
    // Another split: the file's devices against the scenario's (a disaggregated scenario's are its two pools: not
    // compared). 1 device against 8 is another deployment, whatever the names say.
    if let (Some(n), Some(r)) = (m.devices, page.as_ref().filter(|_| base.engine.disaggregation.is_none())) {
        let here = r.deployment.hardware.devices;
        if n != here && !m.predicted_on_own_engine() {
            let count = |k: u32| format!("{k} device{}", if k == 1 { "" } else { "s" });
            out.push(Mismatch { what: "device count", file: count(n), page: count(here), preset: Some(n.to_string()) });
        }
    }
    // Another split on the same devices: DP attention's runs against a tensor-parallel scenario, or the reverse.
    if let (Some(dp), Some(r)) = (m.dp_attention, page.as_ref().filter(|_| base.engine.disaggregation.is_none())) {
        let here = r.deployment.dense_copies() > 1.0;
        if dp != here && !m.predicted_on_own_engine() {
            use crate::model::hardware::Parallelism as P;
            let page = match r.deployment.hardware.parallelism {
                P::DpAttention => "DP attention",
                P::Tensor => "tensor parallel",
                P::Pipeline => "a pipeline",
                P::LayerSplit => "a layer split",
                P::RowSplit => "a row split",
            };
            let file = if dp { "DP attention" } else { "tensor parallel" };
            out.push(Mismatch {
                what: "split",
                file: file.into(),
                page: page.into(),
                preset: Some(if dp { "dp-attention" } else { "tensor" }.into()),
            });
        }
    }
    // Another engine (a trial calibrated vLLM on SGLang's runs): its efficiencies are not these. A llama-bench run is
    // predicted on its own engine, llama.cpp, whatever the scenario's: nothing to say (a calibration leaves it out by
    // its engine, `plan::calibrate`).
    if let (Some(file), Some(r)) = (m.engine.as_deref(), page.as_ref()) {
        if m.other_engine(r.deployment.engine.kind) && !m.predicted_on_own_engine() {
            out.push(Mismatch {
                what: "engine",
                file: presets::engines::find(file).map_or_else(|| file.to_string(), |e| e.name.to_string()),
                page: r.deployment.engine.name.clone(),
                preset: presets::engines::find(file).map(|e| e.id.to_string()),
            });
        }
    }
    out
}

impl Mismatch {
    /// The note shown with the comparison.
    #[must_use]
    pub fn note(&self) -> String {
        let offer = match &self.preset {
            Some(id) if !matches!(self.what, "device count" | "split") => format!(" (preset {id} matches the file's)"),
            _ => String::new(),
        };
        format!("the file's {w} is {}, the scenario's is {}: the prediction is for the scenario's {w}{offer}", self.file, self.page, w = self.what)
    }
}

/// Predicts the measurement's run on the scenario's deployment.
///
/// # Errors
/// The scenario's first invalid field (after the measurement's workload is applied).
pub fn compare(base: &Scenario, m: &Measurement) -> Result<Comparison, ScenarioError> {
    let mismatch = mismatches(base, m);
    let mut c = predict(base, m)?;
    // After the "does not fit" note, which says why there are no numbers, before the rest.
    let at = usize::from(!c.fits).min(c.notes.len());
    c.notes.splice(at..at, mismatch.iter().map(Mismatch::note));
    c.mismatch = mismatch;
    Ok(c)
}

fn predict(base: &Scenario, m: &Measurement) -> Result<Comparison, ScenarioError> {
    let mut s = base.clone();
    // A benchmark's users send their next request at once: the scenario's think time is not theirs. Nor is its
    // fleet: a run is read at its own load, and a fleet would send each run's level through the capacity search
    // (a review: up to 24 more simulated levels per run, in calibration's fitting loop too).
    s.workload.think_time_s = None;
    s.fleet = None;
    let mut notes = Vec::new();
    if let Some(p) = m.prompt_tokens {
        s.workload.prompt_tokens = Some(p.max(1.0));
    }
    if let Some(o) = m.output_tokens {
        s.workload.output_tokens = Some(o.max(1.0));
    }
    s.workload.context_depth = Some(m.context_depth);
    // A decode run reads no prompt and a prefill run writes no answer: the scenario's own lengths must not count
    // towards the model's window for them (a review: a tg128 at 126,000 tokens of depth was refused for the
    // scenario's 8,192-token prompt).
    match m.kind {
        Kind::Decode if m.prompt_tokens.is_none() => s.workload.prompt_tokens = Some(1.0),
        Kind::Prefill if m.output_tokens.is_none() => s.workload.output_tokens = Some(2.0),
        _ => {}
    }
    if m.predicted_on_own_engine() {
        // The file says which engine ran and how large the weights were: use that, not the scenario's.
        if s.engine.preset.as_deref() != Some("llama.cpp") {
            s.engine = crate::scenario::EngineSpec { preset: Some("llama.cpp".into()), ..Default::default() };
            notes.push("engine set to llama.cpp (llama-bench)".into());
        }
        // llama.cpp has no FP8 cache: a serving scenario's FP8 KV is its 8-bit q8_0 there (a review: every llama-bench
        // run of an FP8-KV scenario had been refused, and the whole comparison with them).
        if s.quantization.kv_cache.as_deref().is_some_and(|k| k.eq_ignore_ascii_case("fp8")) {
            s.quantization.kv_cache = Some("q8_0".into());
            notes.push("KV cache q8_0 (llama.cpp's 8-bit cache; the scenario's FP8 is a serving engine's)".into());
        }
        if let Some(bits) = m.weight_bits.filter(|b| b.is_finite() && *b > 0.0) {
            s.quantization.weights = None;
            s.quantization.weight_bits = Some(bits);
            notes.push(format!("weights at the file's {bits:.2} bits per weight (size × 8 ÷ parameters)"));
        }
    }
    // A serving run of one output token per request (a prefill benchmark) has no TPOT and is shorter than any
    // request the model simulates (two tokens at least): a note, not an error that loses every other run (a review:
    // one such file made the whole comparison and the calibration fail on "output_tokens: 1 is out of range").
    if m.kind == Kind::Serving && m.output_tokens.is_some_and(|o| o < 2.0) {
        return Ok(nothing(m, "nothing: one output token per request", "the run's requests generate one token each (a prompt benchmark): the model simulates requests of two output tokens or more; no prediction", notes));
    }
    // Nothing is predicted for requests longer than the model's window (the scenario refuses them; here the run
    // gets a note, not an error for the whole comparison).
    if let Some((longest, max)) = s.window_exceeded() {
        return Ok(nothing(
            m,
            "nothing: the requests exceed the model's window",
            format!("the run's requests ({longest:.0} tokens of context) exceed the model's window of {max}; no prediction"),
            notes,
        ));
    }
    // Nothing is predicted for a deployment that cannot hold the run (errors surface below, where each kind
    // resolves its own scenario).
    if let Ok(r) = s.resolve() {
        let ctx = match m.kind {
            Kind::Decode => m.context_depth + m.output_tokens.unwrap_or(128.0),
            Kind::Prefill => m.context_depth + m.prompt_tokens.unwrap_or(512.0),
            Kind::Serving => r.workload.full_context(),
        };
        if let Some(why) = does_not_fit(&r.deployment, ctx) {
            return Ok(nothing(m, "nothing: the deployment does not fit", why, notes));
        }
    }
    let mut rows = Vec::new();
    let load;
    match m.kind {
        Kind::Decode => {
            let r = s.resolve()?;
            let n = m.output_tokens.unwrap_or(128.0);
            let step = r.deployment.mean_decode_step(1.0, m.context_depth, n);
            load = format!("one stream, {n} tokens after {} of context", m.context_depth);
            push(&mut rows, "decode (one user)", "tok/s", if step > 0.0 { 1.0 / step } else { 0.0 }, m.per_user_tps);
        }
        Kind::Prefill => {
            let r = s.resolve()?;
            let n = m.prompt_tokens.unwrap_or(512.0);
            let t = r.deployment.prefill_seconds(n, m.context_depth);
            load = format!("one prompt of {n} tokens after {} of context", m.context_depth);
            push(&mut rows, "prefill", "tok/s", if t > 0.0 { n / t } else { 0.0 }, m.prefill_tps);
        }
        Kind::Serving if !m.load_recorded => {
            load = "— (the file does not record its load)".into();
            notes.push("no prediction: the file does not say at which concurrency or request rate it ran".into());
        }
        Kind::Serving => {
            if let Some((dist, spread)) = m.length_spread() {
                s.workload.distribution = Some(dist);
                s.workload.spread = Some(spread);
                notes.push(if dist == crate::scenario::Distribution::Fixed {
                    "request lengths fixed, as the run's (every request the same length)".to_string()
                } else {
                    format!("request lengths lognormal with the run's output spread (CV {:.2})", m.output_cv.unwrap_or(spread))
                });
            }
            let offline = m.concurrency.is_none() && m.request_rate.is_none();
            let users = |c: f64| LoadSpec { concurrency: Some(vec![c.round().max(1.0)]), ..Default::default() };
            // A paced run under a cap on requests in flight is predicted at its rate, and at its cap only where the
            // cap binds (below). A rate the model does not simulate (0, above 10⁶ req/s: the file's "inf" is none)
            // leaves the cap, or no prediction (a review: a capped run at rate 0 had failed every run compared).
            let rate_ok = |r: &f64| *r > 0.0 && *r <= crate::scenario::MAX_LOAD_LEVEL;
            if m.request_rate.is_some_and(|r| !rate_ok(&r)) && m.concurrency.is_none() {
                let why = format!(
                    "the run's request rate, {}, is outside what the model simulates (more than 0, up to 1 000 000 req/s); no prediction",
                    m.request_rate.unwrap_or(0.0)
                );
                return Ok(nothing(m, "nothing: a request rate outside the model's range", why, notes));
            }
            let request_rate = m.request_rate.filter(rate_ok);
            s.workload.load = Some(match (m.concurrency, request_rate) {
                (_, Some(r)) => LoadSpec { request_rate: Some(vec![r]), ..Default::default() },
                (Some(c), None) => users(c),
                (None, None) => LoadSpec { offline: Some(true), ..Default::default() },
            });
            if let Some(n) = m.requests.filter(|n| *n >= 1.0) {
                // The simulation needs at least 10 requests (a run of 8 is predicted with 10).
                s.workload.requests = Some(n.clamp(10.0, 1e6) as u32);
                if n < 10.0 {
                    notes.push(format!("the run had {n} requests; predicted with 10"));
                }
                // Simulated as the run it was: its requests from an empty server, timed to the last completion.
                if !offline {
                    s.workload.benchmark_run = Some(true);
                    notes.push(format!("simulated as the finite run it was: {} requests from an empty server", n.max(10.0)));
                }
            }
            let mut r = s.resolve()?;
            let mut report = plan::evaluate_resolved(&r);
            if let (Some(cap), Some(rate)) = (m.concurrency, request_rate) {
                // Little's law: requests in flight = rate × E2E. Below the cap the client never waits for it, and
                // the run is the paced one (a review: 1 req/s under a cap of 256, predicted as 256 users sending
                // back to back, was 1,889 tok/s against 154 measured, and calibration ran every efficiency to
                // its bound); at or above it (an overloaded rate too) the cap holds the load.
                let in_flight = report.sweep.first().map_or(f64::INFINITY, |p| rate * p.e2e_ms.mean / 1e3);
                if in_flight < cap {
                    notes.push(format!(
                        "the run paced {rate} req/s under a cap of {cap} requests in flight; at that rate about {in_flight:.1} are in flight (rate × E2E), so the cap does not bind: predicted at the rate"
                    ));
                } else {
                    s.workload.load = Some(users(cap));
                    r = s.resolve()?;
                    report = plan::evaluate_resolved(&r);
                    notes.push(format!(
                        "the run paced {rate} req/s under a cap of {cap} requests in flight; at that rate the cap binds (rate × E2E ≥ {cap}): predicted as {cap} users sending back to back"
                    ));
                }
            }
            if offline {
                load = format!("{} requests at once (offline job)", r.workload.requests);
                push(&mut rows, "system output", "tok/s", report.peak.system_tps, m.system_output_tps);
                notes.push("the file records neither a concurrency cap nor a request rate: predicted as one offline job".into());
            } else if let Some(p) = report.sweep.first() {
                load = p.concurrency.map_or_else(
                    || format!("{} req/s", p.request_rate.unwrap_or(0.0)),
                    |c| format!("{c} concurrent user{}", if (c - 1.0).abs() < 1e-9 { "" } else { "s" }),
                );
                push(&mut rows, "system output", "tok/s", p.system_tps, m.system_output_tps);
                // Like for like: every reader's per-user speed is 1000 ÷ the run's mean TPOT (or its mean ITL, the
                // same mean where requests are alike), so the prediction's is too — not the sweep's 1000 ÷ TPOT P50 (a
                // review: 33.5 "predicted" from a P50 of 29.8 ms beside a measured 40.0 from a mean of 25).
                let per_user = if p.tpot_ms.mean > 0.0 { 1000.0 / p.tpot_ms.mean } else { 0.0 };
                push(&mut rows, "per user", "tok/s", per_user, m.per_user_tps);
                latency_rows(&mut rows, "TTFT", &p.ttft_ms, &m.ttft_ms);
                latency_rows(&mut rows, "TPOT", &p.tpot_ms, &m.tpot_ms);
                // The gaps between tokens, pooled: the decode step itself, which TPOT blurs with the prefills that
                // stall a request's decode divided over its few tokens (a DGX Spark rate sweep: ITL P50 23 ms, TPOT
                // P50 60; calibrated on TPOT alone, η_bw fell 0.70 → 0.32 and TPOT at the other loads went 4 × high).
                // (Not its mean: token-weighted, it is TPOT's mean whenever every request is as long as the others,
                // and vLLM's /metrics gives the per-user speed from it: one figure counted twice in a calibration.)
                let itl = Stats { mean: None, ..m.itl_ms };
                latency_rows(&mut rows, "ITL", &p.itl_ms, &itl);
                latency_rows(&mut rows, "E2E", &p.e2e_ms, &m.e2e_ms);
                let fixed = r.workload.distribution == crate::scenario::Distribution::Fixed;
                if fixed && p.concurrency.is_some_and(|c| c > 1.0) {
                    notes.push(
                        "fixed lengths keep the simulated users in step: a wave's prompts arrive together and each TTFT includes \
                         their joint prefill; a run whose users drift apart sees shorter TTFTs"
                            .into(),
                    );
                }
                if p.saturated {
                    notes.push("the model saturates at this load: its latencies are lower bounds".into());
                }
            } else {
                load = "no load level".into();
            }
            // The deployment's warnings, not the sizing's: the prediction is one level at the run's load and
            // fixed lengths, so what its sweep says of knees, fleets, costs and lock-step does not describe the
            // page (a pre-sales trial read "no fleet can be sized" beside the page's 4 servers, and "set
            // lengths to Lognormal" where they were).
            use crate::plan::WarningKind as K;
            let sizing = |k: K| {
                matches!(
                    k,
                    K::NoKnee | K::Fleet | K::LockStep | K::ThinMargin | K::Saturates | K::SaturatesPastCapacity | K::Cost | K::CalibratedElsewhere
                )
            };
            notes.extend(report.warnings.into_iter().filter(|w| !sizing(w.kind)).map(|w| w.message));
        }
    }
    Ok(Comparison { measurement: m.clone(), load, rows, notes, fits: true, mismatch: Vec::new() })
}
