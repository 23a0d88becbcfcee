//! A scrape of vLLM's `/metrics` (Prometheus text format): the `vllm:*` histograms of TTFT, inter-token
//! latency (`time_per_output_token` on older servers) and E2E latency, the prompt and generation length
//! histograms, and the running/waiting gauges. Samples of several engines or servers are summed per series
//! (every label but `le` ignored); percentiles are interpolated inside buckets as `histogram_quantile` does.
//! Label values are quoted strings and may hold commas, braces, spaces and escaped quotes
//! (`model_name="org/a,b \"v2\""`); a timestamp after the value is ignored.

use super::{Kind, Measurement, Stats};

/// The figures a scrape is read from (for the message when a file holds none).
pub(super) const FIGURES: &str =
    "observations in vllm:time_to_first_token_seconds, vllm:inter_token_latency_seconds or vllm:e2e_request_latency_seconds";

/// One sample line: `name{label="value",…} value [timestamp]`.
#[derive(Debug, PartialEq)]
struct Sample {
    name: String,
    labels: Vec<(String, String)>,
    value: f64,
}

impl Sample {
    fn label(&self, key: &str) -> Option<&str> {
        self.labels.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}

/// A quoted string after its opening quote, with `\\`, `\"` and `\n` unescaped (any other escape kept as
/// written); the text after the closing quote. `None` when it is not closed.
fn quoted(s: &str) -> Option<(String, &str)> {
    let mut out = String::new();
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, &s[i + 1..])),
            '\\' => match chars.next() {
                Some((_, 'n')) => out.push('\n'),
                Some((_, e @ ('\\' | '"'))) => out.push(e),
                Some((_, e)) => {
                    out.push('\\');
                    out.push(e);
                }
                None => return None,
            },
            c => out.push(c),
        }
    }
    None
}

/// The labels of a series, its name when given inside the braces (Prometheus 3), and the rest of the line.
type LabelSet<'a> = (Vec<(String, String)>, Option<String>, &'a str);

/// The label set after its `{`, up to and including the closing `}`: the labels, an unlabelled quoted
/// string (a quoted metric name, as Prometheus 3 writes names outside the legacy charset) and the rest of
/// the line. `None` when the set is not closed or an entry is not `key="value"`. Unquoted values (not
/// Prometheus, but written by hand) are read up to the next `,` or `}`.
fn label_set(s: &str) -> Option<LabelSet<'_>> {
    let mut labels = Vec::new();
    let mut bare_name = None;
    let mut rest = s;
    loop {
        rest = rest.trim_start_matches(|c: char| c == ',' || c.is_whitespace());
        if let Some(after) = rest.strip_prefix('}') {
            return Some((labels, bare_name, after));
        }
        let (key, after) = match rest.strip_prefix('"') {
            Some(q) => quoted(q)?,
            None => {
                let end = rest.find(['=', ',', '}'])?;
                (rest[..end].trim().to_string(), &rest[end..])
            }
        };
        let after = after.trim_start();
        let Some(after) = after.strip_prefix('=') else {
            // `{"name.with.dots", le="0.1"}`: the metric name, quoted, without a key.
            if bare_name.is_some() || !rest.starts_with('"') {
                return None;
            }
            bare_name = Some(key);
            rest = after;
            continue;
        };
        let after = after.trim_start();
        let (value, after) = match after.strip_prefix('"') {
            Some(q) => quoted(q)?,
            None => {
                let end = after.find([',', '}'])?;
                (after[..end].trim().to_string(), &after[end..])
            }
        };
        labels.push((key, value));
        rest = after;
    }
}

/// A sample line (already trimmed, not a comment); `None` for what is not one.
fn sample(line: &str) -> Option<Sample> {
    let name_end = line.find(|c: char| c == '{' || c.is_whitespace())?;
    let mut name = line[..name_end].to_string();
    let mut rest = line[name_end..].trim_start();
    let mut labels = Vec::new();
    if let Some(inside) = rest.strip_prefix('{') {
        let (set, bare_name, after) = label_set(inside)?;
        labels = set;
        if let Some(n) = bare_name.filter(|_| name.is_empty()) {
            name = n;
        }
        rest = after;
    }
    // The value is the first token after the series (federated and dumped scrapes add a timestamp).
    let value = match rest.split_whitespace().next()? {
        "+Inf" => f64::INFINITY,
        "-Inf" => f64::NEG_INFINITY,
        v => v.parse().ok()?,
    };
    Some(Sample { name, labels, value })
}

/// `name{labels} value` samples, summed over label sets except `le` (several engines or servers add up).
pub(super) fn scrape(text: &str) -> Result<Vec<Measurement>, String> {
    let mut sums: Vec<(String, Option<String>, f64)> = Vec::new();
    let mut model = None;
    for s in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).filter_map(sample) {
        if model.is_none() {
            model = s.label("model_name").map(str::to_string);
        }
        let le = s.label("le").map(str::to_string);
        match sums.iter_mut().find(|(n, l, _)| *n == s.name && *l == le) {
            Some(sum) => sum.2 += s.value,
            None => sums.push((s.name, le, s.value)),
        }
    }
    let get = |name: &str| sums.iter().find(|(n, l, _)| n == name && l.is_none()).map(|s| s.2);
    // A histogram's (upper bound, cumulative count) buckets, ascending.
    let buckets = |base: &str| -> Vec<(f64, f64)> {
        let mut buckets: Vec<(f64, f64)> = sums
            .iter()
            .filter(|(n, l, _)| n == &format!("{base}_bucket") && l.is_some())
            .filter_map(|(_, l, v)| {
                let le = l.as_deref()?;
                let b = if le == "+Inf" { f64::INFINITY } else { le.trim().parse().ok()? };
                Some((b, *v))
            })
            .collect();
        crate::sorting::sort_small_by(&mut buckets, |a, b| a.0.total_cmp(&b.0).is_lt());
        buckets
    };
    // A histogram's coefficient of variation, as the lognormal lengths the simulation draws: the variance of the
    // log-lengths from each bucket's geometric midpoint, less each bucket's own spread (Sheppard's correction, width²
    // ÷ 12 on the log scale), then CV = √(e^σ² − 1) (`None` with an observation in the open-ended bucket). On 4,000
    // lognormal lengths in vLLM's buckets (1, 2, 5, 10, 20, 50, …) it reads CV 0.48 as 0.50, 0.8 as 0.82, 1.5 as
    // 1.51, small ones low (0.3 as 0.25), and every length in one bucket as 0: fixed. (A first version took the
    // mean from the sum and the second moment from arithmetic midpoints, and read fixed lengths as CV 0.6–1.1: a
    // review.) A scrape whose prompts ran from 200 to 10,000 tokens had been simulated with fixed lengths.
    let cv = |base: &str| -> Option<f64> {
        let (mut lo, mut prev) = (0.0_f64, 0.0);
        let mut bins = Vec::new();
        for (bound, cum) in buckets(base) {
            if cum > prev {
                if !bound.is_finite() || bound <= 0.0 {
                    return None;
                }
                let l = lo.max(bound / 2.0);
                bins.push((cum - prev, (l.ln() + bound.ln()) / 2.0, (bound / l).ln()));
            }
            (lo, prev) = (bound, cum);
        }
        let n: f64 = bins.iter().map(|b| b.0).sum();
        if n <= 0.0 {
            return None;
        }
        let mean = bins.iter().map(|(k, m, _)| k * m).sum::<f64>() / n;
        let var = bins.iter().map(|(k, m, h)| k * ((m - mean).powi(2) - h * h / 12.0)).sum::<f64>() / n;
        Some((var.max(0.0).exp() - 1.0).sqrt())
    };
    let hist = |base: &str| -> Stats {
        let buckets = buckets(base);
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
        Stats { mean: get(&format!("{base}_sum")).map(|s| s / count), p50: q(0.5), p90: q(0.9), p95: q(0.95), p99: q(0.99) }.scaled(1e3)
    };
    if get("vllm:time_to_first_token_seconds_count").is_none() && get("vllm:num_requests_running").is_none() {
        return Err("Prometheus text without vLLM's request metrics (vllm:time_to_first_token_seconds, vllm:num_requests_running)".into());
    }
    let mut m = Measurement::new("vLLM /metrics", Kind::Serving);
    m.engine = Some("vllm".into());
    m.model = model;
    m.ttft_ms = hist("vllm:time_to_first_token_seconds");
    // Older servers call the per-token histogram time_per_output_token_seconds; some emit both (count once).
    m.itl_ms = hist("vllm:inter_token_latency_seconds");
    if m.itl_ms.is_empty() {
        m.itl_ms = hist("vllm:time_per_output_token_seconds");
    }
    m.e2e_ms = hist("vllm:e2e_request_latency_seconds");
    // The counts are the server's lifetime, not one run's: they give the mean lengths but not `requests` (a review:
    // a scrape was simulated as "the finite run it was: 4000 requests from an empty server", and its mean lengths,
    // whole numbers, as a benchmark's fixed ones).
    let count = get("vllm:request_prompt_tokens_count").or_else(|| get("vllm:e2e_request_latency_seconds_count"));
    m.prompt_tokens = get("vllm:request_prompt_tokens_sum").zip(count).filter(|(_, n)| *n > 0.0).map(|(s, n)| s / n);
    m.output_tokens = get("vllm:request_generation_tokens_sum").zip(count).filter(|(_, n)| *n > 0.0).map(|(s, n)| s / n);
    m.prompt_cv = cv("vllm:request_prompt_tokens");
    m.output_cv = cv("vllm:request_generation_tokens");
    // The running-requests gauge is the load only while the benchmark runs: a scrape after it reads 0.
    m.concurrency = get("vllm:num_requests_running").filter(|c| *c >= 1.0);
    if m.concurrency.is_none() {
        m.load_recorded = false;
        m.notes.push("no requests were running at the scrape, so the load is unknown: scrape while the benchmark runs".into());
    }
    // The per-token histogram is vLLM's ITL, compared as such (until 2026-12-05 its mean stood in for TPOT's too, and
    // a calibration counted it twice).
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
        let m = &scrape(text).unwrap()[0];
        assert_eq!(m.concurrency, Some(22.0), "engines add up; the timestamp is not the value");
        assert!((m.ttft_ms.mean.unwrap() - 100.0).abs() < 1e-9, "8 s over 80 requests");
        // 40 of 80 at ≤ 0.1 s: the median is the bucket bound; the p90 lies in the +Inf bucket (only known > 0.1 s).
        assert!((m.ttft_ms.p50.unwrap() - 100.0).abs() < 1e-9);
        assert!((m.ttft_ms.p90.unwrap() - 100.0).abs() < 1e-9);
        let idle = &scrape("vllm:num_requests_running 0\nvllm:time_to_first_token_seconds_count 5\n").unwrap()[0];
        assert!(!idle.load_recorded && idle.concurrency.is_none(), "a scrape after the run has no load");
    }

    #[test]
    fn prometheus_quantile_interpolates_inside_the_bucket() {
        let text = "vllm:time_to_first_token_seconds_bucket{le=\"0.1\"} 50\nvllm:time_to_first_token_seconds_bucket{le=\"0.2\"} 100\n\
                    vllm:time_to_first_token_seconds_bucket{le=\"+Inf\"} 100\nvllm:time_to_first_token_seconds_count 100\n\
                    vllm:time_to_first_token_seconds_sum 10\n";
        let m = &scrape(text).unwrap()[0];
        assert!((m.ttft_ms.p50.unwrap() - 100.0).abs() < 1e-9);
        assert!((m.ttft_ms.p90.unwrap() - 180.0).abs() < 1e-9);
        assert!((m.ttft_ms.p95.unwrap() - 190.0).abs() < 1e-9, "interpolated between 0.1 s (50) and 0.2 s (100)");
        assert!((m.ttft_ms.mean.unwrap() - 100.0).abs() < 1e-9);
    }

    #[test]
    fn label_values_are_quoted_strings() {
        let labels = |line: &str| sample(line).map(|s| (s.name, s.labels, s.value));
        let owned = |v: &[(&str, &str)]| v.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<Vec<_>>();
        assert_eq!(
            labels(r#"a_bucket{model_name="x,le=\"9\"} 2",le="0.1"} 3 1718000000000"#),
            Some(("a_bucket".into(), owned(&[("model_name", "x,le=\"9\"} 2"), ("le", "0.1")]), 3.0))
        );
        assert_eq!(labels(r#"a{p="C:\\dir\n", q = "", } +Inf"#), Some(("a".into(), owned(&[("p", "C:\\dir\n"), ("q", "")]), f64::INFINITY)));
        assert_eq!(labels(r#"{"vllm:x.y", "my.label"="v"} 1"#), Some(("vllm:x.y".into(), owned(&[("my.label", "v")]), 1.0)));
        assert_eq!(labels("a{le=0.5} 1").map(|s| s.1), Some(owned(&[("le", "0.5")])), "unquoted, as written by hand");
        for bad in [r#"a{le="0.1} 3"#, "a{le} 3", "a{le=\"1\" 3", "a 1e", "a{le=\"1\"}", "a", r#"a{b="\"#] {
            assert_eq!(labels(bad), None, "{bad}");
        }
    }
}
