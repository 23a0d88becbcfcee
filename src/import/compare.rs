//! A measurement next to the model's prediction for the same load.
//!
//! The scenario supplies what benchmark files rarely record (hardware, engine, formats); the measurement
//! supplies the workload: mean prompt and output tokens, context depth, and the load (a closed-loop
//! concurrency, an open-loop request rate, or — rate unlimited without a cap — every request at once, an
//! offline job). Serving runs go through the same simulation as the page; llama-bench `tg` rows through the
//! single-stream decode model at their depth, `pp` rows through the prefill model.
//!
//! Error = predicted ÷ measured − 1 (positive: the model is optimistic about throughput, or pessimistic about
//! latency). Rows appear only for figures the file holds.

use super::{Kind, Measurement, Stats};
use crate::plan;
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

/// A measurement with the prediction for its load.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    pub measurement: Measurement,
    /// The load the prediction was made for.
    pub load: String,
    pub rows: Vec<Row>,
    pub notes: Vec<String>,
}

impl Comparison {
    /// Median absolute error over the rows, percent (`None` without rows).
    #[must_use]
    pub fn median_abs_error_pct(&self) -> Option<f64> {
        let mut e: Vec<f64> = self.rows.iter().map(|r| r.error_pct.abs()).collect();
        e.sort_by(f64::total_cmp);
        e.get(e.len() / 2).copied()
    }
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

/// Predicts the measurement's run on the scenario's deployment.
///
/// # Errors
/// The scenario's first invalid field (after the measurement's workload is applied).
pub fn compare(base: &Scenario, m: &Measurement) -> Result<Comparison, ScenarioError> {
    let mut s = base.clone();
    let mut notes = Vec::new();
    if let Some(p) = m.prompt_tokens {
        s.workload.prompt_tokens = Some(p.max(1.0));
    }
    if let Some(o) = m.output_tokens {
        s.workload.output_tokens = Some(o.max(1.0));
    }
    s.workload.context_depth = Some(m.context_depth);
    if m.tool == "llama-bench" {
        // The file says which engine ran and how large the weights were: use that, not the scenario's.
        if s.engine.preset.as_deref() != Some("llama.cpp") {
            s.engine = crate::scenario::EngineSpec { preset: Some("llama.cpp".into()), ..Default::default() };
            notes.push("engine set to llama.cpp (llama-bench)".into());
        }
        if let Some(bits) = m.weight_bits.filter(|b| b.is_finite() && *b > 0.0) {
            s.quantization.weights = None;
            s.quantization.weight_bits = Some(bits);
            notes.push(format!("weights at the file's {bits:.2} bits per weight (size × 8 ÷ parameters)"));
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
            if let Some(cv) = m.output_cv.filter(|cv| *cv > 0.0) {
                s.workload.distribution = Some("lognormal".into());
                s.workload.spread = Some(cv.min(2.0));
                notes.push(format!("request lengths lognormal with the run's output spread (CV {cv:.2})"));
            }
            let offline = m.concurrency.is_none() && m.request_rate.is_none();
            s.workload.load = Some(match (m.concurrency, m.request_rate) {
                (Some(c), _) => {
                    if m.request_rate.is_some() {
                        notes.push("the run capped concurrency and paced arrivals; predicted at the cap".into());
                    }
                    LoadSpec { concurrency: Some(vec![c.round().max(1.0)]), ..Default::default() }
                }
                (None, Some(r)) => LoadSpec { request_rate: Some(vec![r]), ..Default::default() },
                (None, None) => LoadSpec { offline: Some(true), ..Default::default() },
            });
            if let Some(n) = m.requests.filter(|n| *n >= 1.0) {
                // The simulation needs at least 10 requests (a run of 8 is predicted with 10).
                s.workload.requests = Some(n.clamp(10.0, 1e6) as u32);
                if n < 10.0 {
                    notes.push(format!("the run had {n} requests; predicted with 10"));
                }
            }
            let r = s.resolve()?;
            let report = plan::evaluate_resolved(&r);
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
                push(&mut rows, "per user", "tok/s", p.per_user_tps, m.per_user_tps);
                latency_rows(&mut rows, "TTFT", &p.ttft_ms, &m.ttft_ms);
                latency_rows(&mut rows, "TPOT", &p.tpot_ms, &m.tpot_ms);
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
            notes.extend(report.warnings);
        }
    }
    Ok(Comparison { measurement: m.clone(), load, rows, notes })
}
