//! Tables as CSV for spreadsheets: the sweep of a [`Report`] (one row per load level) and a comparison of two
//! reports ([`super::Diff`]). RFC 4180: comma-separated, a header row, fields with a comma, quote or line break
//! quoted; numbers unrounded beyond 4 decimals, empty where a value is missing; lines end in CRLF.

use crate::scenario::Report;

/// One CSV field.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// A number with at most 4 decimals, trailing zeros dropped; empty when not finite.
fn num(v: f64) -> String {
    if !v.is_finite() {
        return String::new();
    }
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

fn line(fields: &[String]) -> String {
    let mut l = fields.iter().map(|f| field(f)).collect::<Vec<_>>().join(",");
    l.push_str("\r\n");
    l
}

/// The sweep, one row per load level: load, per-user and system tok/s, TTFT/TPOT/ITL/E2E at P50/P90/P95/P99
/// (ms), mean batch, KV use, what bounds the steps, saturation and whether the level meets the target.
#[must_use]
pub fn sweep_csv(r: &Report) -> String {
    let rate = r.sweep.first().is_some_and(|p| p.request_rate.is_some());
    let mut head = vec![
        if rate { "request_rate_rps" } else { "concurrent_users" }.to_string(),
        "per_user_tok_s".into(),
        "system_tok_s".into(),
        "requests_per_s".into(),
    ];
    for m in ["ttft", "tpot", "itl", "e2e"] {
        for p in ["p50", "p90", "p95", "p99"] {
            head.push(format!("{m}_{p}_ms"));
        }
    }
    head.extend(["mean_batch", "kv_utilization", "bound", "saturated", "error_rate", "meets_target"].map(String::from));
    let mut out = line(&head);
    for l in &r.sweep {
        let mut row = vec![num(l.load().unwrap_or(f64::NAN)), num(l.per_user_tps), num(l.system_tps), num(l.request_throughput)];
        for p in [&l.ttft_ms, &l.tpot_ms, &l.itl_ms, &l.e2e_ms] {
            row.extend([p.p50, p.p90, p.p95, p.p99].map(num));
        }
        row.push(num(l.mean_batch));
        row.push(num(l.kv_utilization));
        row.push(l.bound.id().to_string());
        // A level where nothing completed (the model does not fit, a prompt of millions of tokens) has no figures:
        // empty fields, as the table's dashes (a review read 0 ms TTFT and TPOT in the export of a 70B model on
        // one H100 that cannot hold it).
        if l.nothing_completed() {
            row[1..].iter_mut().for_each(String::clear);
        }
        row.push(l.saturated.to_string());
        row.push(if l.nothing_completed() { String::new() } else { num(l.error_rate) });
        row.push(l.meets_target.to_string());
        out += &line(&row);
    }
    out
}

/// B against A: what each side is (hardware, model, engine, weights), then one row per compared figure with
/// A, B, B − A and B ÷ A.
#[must_use]
pub fn diff_csv(d: &super::Diff) -> String {
    let mut out = line(&["metric", "label", "unit", "a", "b", "b_minus_a", "b_over_a"].map(String::from));
    for (k, a, b) in [
        ("hardware", &d.a.hardware, &d.b.hardware),
        ("model", &d.a.model, &d.b.model),
        ("engine", &d.a.engine, &d.b.engine),
        ("weights", &d.a.quantization, &d.b.quantization),
    ] {
        out += &line(&[k.to_string(), k.to_string(), String::new(), a.clone(), b.clone(), String::new(), String::new()]);
    }
    let opt = |v: Option<f64>| v.map_or_else(String::new, num);
    for r in &d.rows {
        out += &line(&[r.metric.to_string(), r.label.clone(), r.unit.clone(), opt(r.a), opt(r.b), opt(r.delta), opt(r.ratio)]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_and_numbers() {
        assert_eq!(field("2 × H100"), "2 × H100");
        assert_eq!(field("a, b"), "\"a, b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(num(12.0), "12");
        assert_eq!(num(0.123_456), "0.1235");
        assert_eq!(num(-0.000_01), "0");
        assert_eq!(num(f64::NAN), "");
    }

    #[test]
    fn sweep_and_diff_tables() {
        let a = crate::scenario::Scenario::from_json(&std::fs::read_to_string("examples/meeting-2xh100.json").unwrap()).unwrap();
        let b = crate::scenario::Scenario::from_json(&std::fs::read_to_string("examples/meeting-1xh200.json").unwrap()).unwrap();
        let (ra, rb) = (crate::plan::evaluate_analytic(&a).unwrap(), crate::plan::evaluate_analytic(&b).unwrap());
        let csv = sweep_csv(&ra);
        let lines: Vec<&str> = csv.split("\r\n").filter(|l| !l.is_empty()).collect();
        assert_eq!(lines.len(), ra.sweep.len() + 1);
        assert!(lines[0].starts_with("concurrent_users,per_user_tok_s,system_tok_s,requests_per_s,ttft_p50_ms"), "{}", lines[0]);
        let cols = lines[0].split(',').count();
        assert!(lines.iter().all(|l| l.split(',').count() == cols), "ragged rows");
        let first: Vec<&str> = lines[1].split(',').collect();
        assert_eq!(first[0], num(ra.sweep[0].concurrency.unwrap()));
        assert_eq!(first[2], num(ra.sweep[0].system_tps));

        let d = crate::plan::diff(&ra, &rb);
        let csv = diff_csv(&d);
        assert!(csv.starts_with("metric,label,unit,a,b,b_minus_a,b_over_a\r\n"));
        assert!(csv.contains(&format!("hardware,hardware,,{},{},,\r\n", ra.hardware, rb.hardware)), "{csv}");
        let replicas = d.rows.iter().find(|r| r.metric == "replicas").unwrap();
        assert!(csv.contains(&format!("replicas,servers for the fleet,servers,{},{},", num(replicas.a.unwrap()), num(replicas.b.unwrap()))), "{csv}");
        assert_eq!(csv.matches("\r\n").count(), 1 + 4 + d.rows.len());
    }

    /// A model that does not fit serves no load: the JSON's sweep is empty and its peak's figures null (the CSV's levels keep
    /// their loads with empty figures: tests/regressions.rs).
    #[test]
    fn a_model_that_does_not_fit_exports_no_figures() {
        let s = crate::scenario::Scenario::from_json(
            r#"{"hardware":{"preset":"l4","devices":2},"model":{"preset":"gemma-3-27b"},"engine":{"preset":"tensorrt-llm"}}"#,
        )
        .unwrap();
        let r = crate::plan::evaluate(&s).unwrap();
        assert!(!r.memory.fits && !r.sweep.is_empty());
        let v: serde_json::Value = serde_json::from_str(&serde_json::to_string(&*r.for_json()).unwrap()).unwrap();
        assert_eq!(v["sweep"], serde_json::json!([]));
        assert!(
            v["peak"]["system_tps"].is_null() && v["peak"]["tpot_p_ms"].is_null() && v["memory"]["fits"] == serde_json::json!(false),
            "{}",
            v["peak"]
        );
        let fits = crate::plan::evaluate(
            &crate::scenario::Scenario::from_json(
                r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"workload":{"requests":50,"load":{"concurrency":[1,2]}}}"#,
            )
            .unwrap(),
        )
        .unwrap();
        assert_eq!(fits.for_json().sweep.len(), 2);
    }
}
