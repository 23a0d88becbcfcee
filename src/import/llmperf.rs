//! llmperf's `*_summary.json`: one flat object of `results_<metric>_mean` / `results_<metric>_quantiles_pNN`
//! figures in seconds (Python's `NaN` tolerated), the load in `num_concurrent_requests` and the spread of the
//! output lengths. Its inter-token latency includes the TTFT, so the TPOT is derived from the means.

use super::common::{finite, load_label, num, string, Obj};
use super::{Kind, Measurement, Stats};

/// The figures an llmperf run is read from (for the message when a file holds none).
pub(super) const FIGURES: &str = "results_mean_output_throughput_token_per_s, results_ttft_s_mean, results_end_to_end_latency_s_mean, … (numbers)";

/// A summary (an object with `results_mean_output_throughput_token_per_s`).
pub(super) fn summary(o: &Obj) -> Measurement {
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
    m.notes.push(
        "TPOT derived from mean E2E and TTFT (llmperf's inter-token latency includes the TTFT); token counts use a fixed Llama-2 tokenizer".into(),
    );
    if finite(num(o.get("results_error_rate"))).is_some_and(|e| e > 0.0) {
        m.notes.push(format!("error rate {}", num(o.get("results_error_rate")).unwrap_or(0.0)));
    }
    m
}
