//! Import of benchmark result files (tests/samples: the formats real tools write, synthetic numbers — see its
//! README). Every figure checked here is read from the file by hand, so a parser that mixes up units,
//! percentile order or key spellings fails.

use proptest::prelude::*;
use tps_planner::import::{self, Kind, Measurement};
use tps_planner::scenario::Scenario;

fn read(name: &str) -> Vec<Measurement> {
    let path = format!("tests/samples/{name}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    import::parse(name, &text).unwrap_or_else(|e| panic!("{e}"))
}

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() <= 1e-6 * b.abs().max(1.0))
}

#[test]
fn vllm_bench_serve_reads_load_lengths_and_percentiles() {
    let m = &read("vllm-bench-serve.json")[0];
    assert_eq!(m.tool, "vLLM bench serve");
    assert_eq!(m.kind, Kind::Serving);
    assert_eq!(m.model.as_deref(), Some("meta-llama/Llama-3.1-8B-Instruct"));
    assert_eq!(m.hardware.as_deref(), Some("H100-SXM5-80GB"), "--metadata gpu=…");
    assert_eq!(m.concurrency, Some(64.0));
    assert_eq!(m.request_rate, None, "\"inf\" is no rate limit");
    assert!(close(m.prompt_tokens, 1024.0) && close(m.output_tokens, 128.0));
    assert!(close(m.system_output_tps, 2438.041574719769));
    assert!(close(m.ttft_ms.p99, 1587.7787437429909));
    assert!(close(m.ttft_ms.p50, 332.53851652283817));
    assert!(close(m.tpot_ms.mean, 20.446384529275186));
    assert!(close(m.e2e_ms.p90, 3497.0654697354494));
    assert!(close(m.per_user_tps, 1000.0 / 20.446384529275186));
}

#[test]
fn vllm_legacy_detailed_and_sweep_files() {
    let legacy = &read("vllm-benchmark-serving-legacy.json")[0];
    assert_eq!(legacy.tool, "vLLM benchmark_serving.py");
    assert_eq!(legacy.concurrency, Some(4.0));
    assert!(close(legacy.prompt_tokens, 512.0) && close(legacy.output_tokens, 32.0));
    assert!(close(legacy.ttft_ms.p50, 54.4904073819933), "median_ttft_ms stands in for p50");
    let detailed = &read("vllm-bench-serve-detailed.json")[0];
    assert_eq!(detailed.concurrency, Some(4.0));
    let mut sweep: Vec<Measurement> = std::fs::read_dir("tests/samples/vllm-bench-serve-sweep")
        .unwrap()
        .flat_map(|e| {
            let p = e.unwrap().path();
            import::parse(&p.display().to_string(), &std::fs::read_to_string(&p).unwrap()).unwrap()
        })
        .collect();
    sweep.sort_by(|a, b| a.concurrency.partial_cmp(&b.concurrency).unwrap());
    let c: Vec<f64> = sweep.iter().filter_map(|m| m.concurrency).collect();
    assert_eq!(c, vec![1.0, 8.0, 32.0, 128.0]);
    // The sweep's story (README): per-user speed falls, system throughput rises.
    assert!(sweep.windows(2).all(|w| w[0].per_user_tps > w[1].per_user_tps && w[0].system_output_tps < w[1].system_output_tps));
}

#[test]
fn sglang_jsonl_with_bare_infinity() {
    let ms = read("sglang-bench-serving.jsonl");
    assert_eq!(ms.len(), 2, "two appended runs");
    assert_eq!(ms[0].concurrency, Some(32.0));
    assert_eq!(ms[1].concurrency, Some(64.0));
    assert_eq!(ms[0].request_rate, None, "Infinity");
    assert_eq!(ms[0].model.as_deref(), Some("meta-llama/Llama-3.1-8B-Instruct"), "server_info.model_path");
    assert!(close(ms[0].e2e_ms.p99, 2440.102395552533), "SGLang spells it e2e_latency");
    assert!(close(ms[1].ttft_ms.p90, 552.1799465979816));
    assert!(ms[0].label.contains("h100-c32"));
}

#[test]
fn genai_perf_and_aiperf_json_and_csv_agree() {
    for tool in ["genai-perf", "aiperf"] {
        let j = &read(&format!("{tool}-profile_export.json"))[0];
        let c = &read(&format!("{tool}-profile_export.csv"))[0];
        assert_eq!(j.tool, c.tool);
        assert_eq!(j.concurrency, Some(32.0), "{tool}: input_config");
        assert!(j.load_recorded && !c.load_recorded, "the CSV has no load");
        assert_eq!(j.model.as_deref(), Some("meta-llama/Llama-3.1-8B-Instruct"), "{tool}");
        // Same run, two exports: the CSV rounds to 2 decimals (and genai-perf writes "1,863.41").
        for (a, b) in [
            (j.ttft_ms.p99, c.ttft_ms.p99),
            (j.ttft_ms.p50, c.ttft_ms.p50),
            (j.tpot_ms.p99, c.tpot_ms.p99),
            (j.e2e_ms.mean, c.e2e_ms.mean),
            (j.system_output_tps, c.system_output_tps),
            (j.prompt_tokens, c.prompt_tokens),
        ] {
            let (a, b) = (a.unwrap(), b.unwrap());
            assert!((a - b).abs() <= 0.006, "{tool}: {a} vs {b}");
        }
        assert!((c.ttft_ms.p99.unwrap() - 689.11).abs() < 1e-9, "{tool}: percentile columns read by name, not position");
        assert!((c.e2e_ms.mean.unwrap() - 1863.41).abs() < 1e-9);
    }
    assert_eq!(read("aiperf-profile_export.csv")[0].tool, "AIPerf");
    assert_eq!(read("genai-perf-profile_export.csv")[0].tool, "genai-perf");
    // AIPerf's inter_chunk_latency is the chunk gap (vLLM's ITL).
    let itl = read("aiperf-profile_export.json")[0].itl_ms.p99.unwrap();
    assert!((itl - 63.57).abs() < 0.006, "{itl}");
}

#[test]
fn llmperf_seconds_become_ms_and_tpot_excludes_ttft() {
    let m = &read("llmperf-summary.json")[0];
    assert_eq!(m.concurrency, Some(16.0));
    assert!(close(m.ttft_ms.p50, 0.05427695142729182 * 1e3));
    assert!(close(m.e2e_ms.mean, 1.2108541319452335 * 1e3));
    let (e2e, ttft, out) = (m.e2e_ms.mean.unwrap(), m.ttft_ms.mean.unwrap(), m.output_tokens.unwrap());
    assert!(close(m.tpot_ms.mean, (e2e - ttft) / (out - 1.0)));
    assert!(m.output_cv.is_some_and(|cv| cv > 0.3 && cv < 0.7));
}

#[test]
fn llama_bench_four_formats_give_the_same_tests() {
    let json = read("llama-bench.json");
    assert_eq!(json.len(), 4);
    let kinds: Vec<(Kind, &str)> = json.iter().map(|m| (m.kind, m.label.as_str())).collect();
    assert_eq!(kinds, vec![(Kind::Prefill, "pp512"), (Kind::Decode, "tg128"), (Kind::Prefill, "pp512 @ d4096"), (Kind::Decode, "tg128 @ d4096")]);
    assert!(close(json[1].per_user_tps, 182.068141));
    assert_eq!(json[3].context_depth, 4096.0);
    assert_eq!(json[0].hardware.as_deref(), Some("NVIDIA H100 80GB HBM3"));
    assert!(close(json[0].weight_bits, 4_920_734_720.0 * 8.0 / 8_030_261_248.0));
    for other in ["llama-bench.jsonl", "llama-bench.csv", "llama-bench.md"] {
        let ms = read(other);
        assert_eq!(ms.len(), 4, "{other}");
        for (a, b) in json.iter().zip(&ms) {
            assert_eq!((a.kind, &a.label, a.context_depth), (b.kind, &b.label, b.context_depth), "{other}");
            let (x, y) = (a.per_user_tps.or(a.prefill_tps).unwrap(), b.per_user_tps.or(b.prefill_tps).unwrap());
            assert!((x - y).abs() <= 0.01, "{other}: {x} vs {y} (the Markdown table rounds to 2 decimals)");
        }
        // The Markdown table rounds size and params; bits per weight within 1 %.
        assert!((ms[0].weight_bits.unwrap() / json[0].weight_bits.unwrap() - 1.0).abs() < 0.01, "{other}");
    }
}

#[test]
fn vllm_metrics_histograms() {
    let m = &read("vllm-metrics.prom")[0];
    assert_eq!(m.tool, "vLLM /metrics");
    assert_eq!(m.concurrency, Some(31.0));
    assert!(close(m.ttft_ms.mean, 751.0133783340615 / 4000.0 * 1e3));
    // 3150 of 4000 TTFTs ≤ 0.25 s and 912 ≤ 0.1 s: the median lies in (100, 250] ms.
    let p50 = m.ttft_ms.p50.unwrap();
    assert!(p50 > 100.0 && p50 <= 250.0, "{p50}");
    assert!(m.ttft_ms.p50 <= m.ttft_ms.p90 && m.ttft_ms.p90 <= m.ttft_ms.p99);
    assert!(close(m.prompt_tokens, 4_819_922.0 / 4000.0));
    // inter_token_latency and time_per_output_token carry the same values: counted once.
    assert!(close(m.itl_ms.mean, 15542.318704779838 / 1_116_026.0 * 1e3));
    assert!(m.notes.iter().any(|n| n.contains("two scrapes")), "one scrape has no rate, and the note says so");
}

/// Label values are quoted strings: a comma, a brace, a space or an escaped quote inside one is part of the
/// value (the old parser split the label set at every comma and took `a` for the model, and lost the buckets).
#[test]
fn vllm_metrics_label_values_may_hold_commas_and_quotes() {
    let text = "vllm:num_requests_running{model_name=\"a,b\",engine=\"0\"} 4\n\
                vllm:time_to_first_token_seconds_bucket{model_name=\"a,b\",le=\"0.1\"} 3\n\
                vllm:time_to_first_token_seconds_bucket{model_name=\"x,le=\\\"9\\\"} 1\",le=\"0.2\"} 4\n\
                vllm:time_to_first_token_seconds_bucket{model_name=\"a,b\",le=\"+Inf\"} 4\n\
                vllm:time_to_first_token_seconds_count{model_name=\"a,b\"} 4\n\
                vllm:time_to_first_token_seconds_sum{model_name=\"a,b\"} 0.4\n";
    let m = &import::parse("metrics.prom", text).unwrap()[0];
    assert_eq!(m.model.as_deref(), Some("a,b"));
    assert_eq!(m.concurrency, Some(4.0));
    // 3 of 4 at ≤ 0.1 s, the 4th ≤ 0.2 s (the bucket whose model name holds `le="9"`): p90 in (100, 200] ms.
    assert!(close(m.ttft_ms.p50, 100.0 * 2.0 / 3.0), "{:?}", m.ttft_ms);
    assert!(close(m.ttft_ms.p90, 100.0 + 100.0 * (3.6 - 3.0)), "{:?}", m.ttft_ms);
    assert!(close(m.ttft_ms.mean, 100.0));
    let escaped = "vllm:num_requests_running{model_name=\"org/m \\\"v2\\\", 8B\"} 2\n\
                   vllm:time_to_first_token_seconds_count 1\nvllm:time_to_first_token_seconds_sum 0.1\n";
    assert_eq!(import::parse("metrics.prom", escaped).unwrap()[0].model.as_deref(), Some("org/m \"v2\", 8B"));
}

#[test]
fn bad_files_are_errors_naming_the_file() {
    for (name, text) in [
        ("empty.json", ""),
        ("text.txt", "hello world"),
        ("truncated.json", "{\"output_throughput\": 12"),
        ("other.json", "{\"foo\": 1}"),
        ("lines.jsonl", "{\"output_throughput\": 1, \"model_id\": \"x\"}\n{broken"),
        ("table.md", "| a | b |\n|---|---|\n| 1 | 2 |"),
        ("metrics.prom", "vllm:unrelated 1\n"),
        ("Metric.csv", "Metric,Value\n"),
    ] {
        let e = import::parse(name, text).expect_err(name);
        assert!(e.to_string().starts_with(name), "{e}");
    }
}

#[test]
fn comparisons_use_the_file_workload_and_report_errors() {
    let scenario = Scenario::from_json(&std::fs::read_to_string("examples/h100-llama8b.json").unwrap()).unwrap();
    // llama-bench: engine and bits per weight come from the file; tg128 on an H100 in the model's band.
    let bench = read("llama-bench.json");
    let c = import::compare(&scenario, &bench[1]).unwrap();
    assert_eq!(c.rows.len(), 1);
    let r = &c.rows[0];
    assert!((r.error_pct - (r.predicted / r.measured - 1.0) * 100.0).abs() < 1e-9);
    assert!(c.notes.iter().any(|n| n.contains("llama.cpp")));
    // A serving scenario's FP8 KV cache is llama.cpp's q8_0 for a llama-bench run (llama.cpp has no FP8 cache: the
    // run had been refused, and with it the whole comparison; a review).
    let mut fp8 = scenario.clone();
    fp8.quantization.kv_cache = Some("fp8".into());
    let c8 = import::compare(&fp8, &bench[1]).unwrap();
    assert!(c8.rows.len() == 1 && c8.notes.iter().any(|n| n.contains("q8_0")), "{:?}", c8.notes);
    // A fleet in the scenario is not the run's: each run is read at its own load — the same comparison (the fleet had
    // only sent each run through the capacity search, up to 24 more simulated levels, which this does not time).
    let mut fleet = scenario.clone();
    fleet.fleet = Some(tps_planner::scenario::FleetSpec { peak_users: Some(500.0), ..Default::default() });
    let v0 = &read("vllm-bench-serve.json")[0];
    assert_eq!(import::compare(&fleet, v0).unwrap(), import::compare(&scenario, v0).unwrap());
    // Deeper context is slower, in the model as in the file.
    let deep = import::compare(&scenario, &bench[3]).unwrap();
    assert!(deep.rows[0].predicted < r.predicted && deep.rows[0].measured < r.measured);
    // A serving run: predicted at its concurrency with its lengths.
    let v = &read("vllm-bench-serve.json")[0];
    let c = import::compare(&scenario, v).unwrap();
    assert_eq!(c.load, "64 concurrent users");
    for metric in ["system output", "per user", "TTFT P99", "TPOT P50", "E2E P90"] {
        assert!(c.rows.iter().any(|r| r.metric == metric), "{metric} missing");
    }
    // A benchmark's users do not pause: the scenario's think time is not theirs (predicted as if they did, its
    // throughput came out far too low and calibration ran to its bounds).
    let mut thinking = scenario.clone();
    thinking.workload.think_time_s = Some(30.0);
    let t = import::compare(&thinking, v).unwrap();
    assert_eq!(t.rows.iter().map(|r| r.predicted).collect::<Vec<_>>(), c.rows.iter().map(|r| r.predicted).collect::<Vec<_>>());
    // No load in the file: no prediction, said so.
    let csv = &read("genai-perf-profile_export.csv")[0];
    let c = import::compare(&scenario, csv).unwrap();
    assert!(c.rows.is_empty() && c.notes.iter().any(|n| n.contains("no prediction")));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]
    /// Any text — including mangled versions of real files — is a result or an error, never a panic.
    #[test]
    fn parse_never_panics(text in ".{0,400}", cut in 0usize..20_000, which in 0usize..13) {
        let _ = import::parse("x", &text);
        let files = ["vllm-bench-serve.json", "sglang-bench-serving.jsonl", "genai-perf-profile_export.csv", "aiperf-profile_export.csv",
            "aiperf-profile_export.json", "llama-bench.md", "llama-bench.csv", "llama-bench.jsonl", "llmperf-summary.json", "vllm-metrics.prom",
            "genai-perf-profile_export.json", "llama-bench.json", "vllm-benchmark-serving-legacy.json"];
        let full = std::fs::read_to_string(format!("tests/samples/{}", files[which])).unwrap();
        let mut end = cut.min(full.len());
        while !full.is_char_boundary(end) { end -= 1; }
        let _ = import::parse("x", &full[..end]);
        let _ = import::parse("x", &(full[..end].to_string() + &text));
    }
}

#[test]
fn small_runs_are_compared_and_the_lockstep_is_explained() {
    let scenario = Scenario::from_json(&std::fs::read_to_string("examples/h100-llama8b.json").unwrap()).unwrap();
    let legacy = &read("vllm-benchmark-serving-legacy.json")[0];
    assert_eq!(legacy.requests, Some(8.0));
    let c = import::compare(&scenario, legacy).expect("8 requests are predicted with 10");
    assert!(c.rows.iter().any(|r| r.metric == "TTFT P99"));
    assert!(c.notes.iter().any(|n| n.contains("8 requests")));
    assert!(c.notes.iter().any(|n| n.contains("in step")), "{:?}", c.notes);
    assert_eq!(
        import::compare(&scenario, &read("vllm-bench-serve-sweep/vllm-infqps-concurrency1-Llama-3.1-8B-Instruct-20250612-110502.json")[0])
            .unwrap()
            .load,
        "1 concurrent user"
    );
}

fn h100_llama8b() -> Scenario {
    Scenario::from_json(&std::fs::read_to_string("examples/h100-llama8b.json").unwrap()).unwrap()
}

/// Issue 4: a deployment that does not fit was compared as 0 ms (error −100 %); now nothing is predicted and
/// the note says why, for every kind of run.
#[test]
fn a_deployment_that_does_not_fit_is_not_predicted() {
    let four_4090s = Scenario::from_json(
        r#"{"hardware":{"preset":"rtx-4090","devices":4},"model":{"preset":"qwen2.5-72b"},"quantization":{"weights":"bf16"},"engine":{"preset":"vllm"}}"#,
    )
    .unwrap();
    let serving = &read("vllm-bench-serve.json")[0];
    let c = import::compare(&four_4090s, serving).unwrap();
    assert!(!c.fits && c.rows.is_empty(), "{:?}", c.rows);
    assert!(c.notes[0].contains("does not fit") && c.notes[0].contains("weights 145.4 GB"), "{:?}", c.notes);
    assert!(c.load.contains("does not fit"), "{}", c.load);
    // llama-bench runs (decode and prefill) at the file's 4.9 bits: 44 GB of weights on one 24 GB card.
    let one_4090 = Scenario::from_json(r#"{"hardware":{"preset":"rtx-4090"},"model":{"preset":"qwen2.5-72b"}}"#).unwrap();
    let bench = read("llama-bench.json");
    for m in &bench {
        let c = import::compare(&one_4090, m).unwrap();
        assert!(!c.fits && c.rows.is_empty(), "{}: {:?}", m.label, c.rows);
        assert!(c.notes.iter().any(|n| n.contains("does not fit")), "{}: {:?}", m.label, c.notes);
    }
    assert!(bench.iter().any(|m| m.kind == Kind::Decode) && bench.iter().any(|m| m.kind == Kind::Prefill));
    // Weights that fit with no room for one sequence's KV cache at the run's lengths (a shape typed by hand: a
    // preset's window refuses such requests first).
    let mut long = serving.clone();
    long.prompt_tokens = Some(1_000_000.0);
    let mut custom = h100_llama8b();
    custom.model = tps_planner::scenario::ModelSpec { params_b: Some(8.0), ..Default::default() };
    let c = import::compare(&custom, &long).unwrap();
    assert!(!c.fits && c.rows.is_empty());
    assert!(c.notes[0].contains("KV cache of one sequence"), "{:?}", c.notes);
    // Requests longer than the preset's window: a note, not an error for the whole comparison.
    let c = import::compare(&h100_llama8b(), &long).unwrap();
    assert!(!c.fits && c.rows.is_empty());
    assert!(c.notes[0].contains("exceed the model's window of 131072; no prediction"), "{:?}", c.notes);
    // A deployment that fits is predicted as before.
    let c = import::compare(&h100_llama8b(), serving).unwrap();
    assert!(c.fits && !c.rows.is_empty() && c.rows.iter().all(|r| r.predicted > 0.0));
}

/// A run whose model name states another weight format than the scenario's (an AWQ checkpoint against a BF16
/// scenario, a trial's) is flagged as another deployment, offers the file's format, and a calibration refuses it;
/// the same format under another name, or a format a quarter of the bits away or closer, is not flagged, and
/// llama-bench's runs (predicted at the file's own bits) never are.
#[test]
fn a_run_of_another_weight_format_is_flagged() {
    let scenario = h100_llama8b();
    let mut awq = read("vllm-bench-serve.json")[0].clone();
    awq.model = Some("hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4".into());
    let c = import::compare(&scenario, &awq).unwrap();
    let what: Vec<(&str, &str, &str, Option<&str>)> =
        c.mismatch.iter().map(|x| (x.what, x.file.as_str(), x.page.as_str(), x.preset.as_deref())).collect();
    assert_eq!(what, vec![("weight format", "AWQ int4 g128", "BF16, 16 bits", Some("awq"))]);
    assert!(c.notes.iter().any(|n| n.starts_with("the file's weight format is AWQ int4 g128, the scenario's is BF16, 16 bits")), "{:?}", c.notes);
    let err = tps_planner::plan::calibrate::calibrate(&scenario, std::slice::from_ref(&awq)).unwrap_err();
    assert!(err.to_string().contains("the run's weight format is AWQ int4 g128 but the scenario's is BF16, 16 bits"), "{err}");
    // The scenario at the file's format: no mismatch; FP8 named `…-FP8-dynamic` on an FP8 scenario, none either.
    let mut at_awq = scenario.clone();
    at_awq.quantization.weights = Some("awq".into());
    assert!(import::compare(&at_awq, &awq).unwrap().mismatch.is_empty());
    let mut fp8 = awq.clone();
    fp8.model = Some("neuralmagic/Meta-Llama-3.1-8B-Instruct-FP8-dynamic".into());
    let mut at_fp8 = scenario.clone();
    at_fp8.quantization.weights = Some("fp8".into());
    assert!(import::compare(&at_fp8, &fp8).unwrap().mismatch.is_empty());
    assert_eq!(import::compare(&scenario, &fp8).unwrap().mismatch[0].preset.as_deref(), Some("fp8"));
    // Q5_K_M's run against a Q4_K_M scenario (15 % more bits) is the same kind of deployment.
    let mut q5 = awq.clone();
    q5.model = Some("/models/Meta-Llama-3.1-8B-Instruct-Q5_K_M.gguf".into());
    let mut at_q4 = scenario.clone();
    at_q4.quantization.weights = Some("q4_k_m".into());
    assert!(import::compare(&at_q4, &q5).unwrap().mismatch.is_empty());
    // llama-bench's Q4_K_M rows against the BF16 scenario: predicted at their own bits, not flagged.
    let bench = &read("llama-bench.json")[1];
    assert!(bench.model.as_deref().is_some_and(|m| m.contains("Q4_K")));
    assert!(import::compare(&scenario, bench).unwrap().mismatch.is_empty());
}

/// What no run can have measured is left out of a result, each with a note: a negative concurrency, a concurrency of
/// 10³⁰⁰, a negative total of tokens, and percentiles out of order (a trial's edited vLLM result had been predicted
/// at one user, compared at +309,064 % and calibrated on).
#[test]
fn impossible_figures_in_a_result_are_left_out_and_said() {
    let text = std::fs::read_to_string("tests/samples/vllm-bench-serve.json").unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["max_concurrency"] = serde_json::json!(-5);
    v["p99_ttft_ms"] = serde_json::json!(1.0);
    v["mean_tpot_ms"] = serde_json::json!(-20.0);
    let m = &import::parse("edited.json", &v.to_string()).unwrap()[0];
    assert_eq!((m.concurrency, m.load_recorded), (None, false), "a load left out is not read as every request at once");
    assert!(m.notes.iter().any(|n| n == "the file's concurrency -5 is left out: no run has that"), "{:?}", m.notes);
    assert_eq!((m.ttft_ms.p50, m.ttft_ms.p99), (None, None), "out of order: none compared");
    assert!(m.ttft_ms.mean.is_some(), "the mean stays");
    assert!(m.notes.iter().any(|n| n.starts_with("the file's TTFT percentiles are out of order (P99 1 ms below P95 1230")), "{:?}", m.notes);
    assert_eq!(m.tpot_ms.mean, None);
    assert!(m.tpot_ms.p50.is_some(), "the TPOT percentiles are in order: kept");
    v["max_concurrency"] = serde_json::json!(1e300);
    let m = &import::parse("edited.json", &v.to_string()).unwrap()[0];
    assert!(m.concurrency.is_none() && m.notes.iter().any(|n| n == "the file's concurrency 1e300 is left out: no run has that"), "{:?}", m.notes);
    // Every figure impossible: the error names what was left out, not "no figure in the file" (a hostile trial).
    let mut all = serde_json::from_str::<serde_json::Value>(&text).unwrap();
    for (k, x) in all.as_object_mut().unwrap().iter_mut() {
        if k.ends_with("_ms") || k.ends_with("_throughput") || k == "max_output_tokens_per_s" {
            *x = serde_json::json!(-5);
        }
    }
    let e = import::parse("negative.json", &all.to_string()).unwrap_err();
    assert!(
        e.message.starts_with("every figure in the file is impossible and was left out: the file's output tok/s -5 is left out: no run has that;")
            && e.message.ends_with("more)"),
        "{}",
        e.message
    );
    // A load left out is no figure: a file without figures and an impossible concurrency says it has none.
    let mut bare = serde_json::from_str::<serde_json::Value>(&text).unwrap();
    bare.as_object_mut().unwrap().retain(|k, _| !(k.ends_with("_ms") || k.ends_with("_throughput") || k == "max_output_tokens_per_s"));
    bare["output_throughput"] = serde_json::Value::Null;
    bare["max_concurrency"] = serde_json::json!(-1);
    let e = import::parse("load.json", &bare.to_string()).unwrap_err();
    assert!(e.message.starts_with("no figure in the file: expected"), "{}", e.message);
    // The sample itself holds nothing impossible: no note of that kind.
    let clean = &import::parse("vllm-bench-serve.json", &text).unwrap()[0];
    assert!(!clean.notes.iter().any(|n| n.contains("left out") || n.contains("out of order")), "{:?}", clean.notes);
}

/// Issue 5: a file recorded on another model or device than the scenario's gets a note and a structured
/// mismatch naming the preset that matches the file.
#[test]
fn a_file_for_another_model_or_device_is_flagged() {
    let scenario = h100_llama8b();
    let same = &read("vllm-bench-serve.json")[0];
    assert_eq!(same.hardware.as_deref(), Some("H100-SXM5-80GB"));
    let c = import::compare(&scenario, same).unwrap();
    assert!(c.mismatch.is_empty(), "the samples are Llama-3.1-8B on an H100: {:?}", c.mismatch);
    assert!(!c.notes.iter().any(|n| n.contains("the file's")), "{:?}", c.notes);

    let mut other = same.clone();
    other.model = Some("meta-llama/Llama-3.1-70B-Instruct".into());
    other.hardware = Some("NVIDIA GeForce RTX 4090".into());
    let c = import::compare(&scenario, &other).unwrap();
    let what: Vec<(&str, Option<&str>)> = c.mismatch.iter().map(|x| (x.what, x.preset.as_deref())).collect();
    assert_eq!(what, vec![("model", Some("llama-3.1-70b")), ("hardware", Some("rtx-4090"))]);
    assert_eq!(c.mismatch[0].file, "meta-llama/Llama-3.1-70B-Instruct");
    assert_eq!(c.mismatch[0].page, "Llama-3-8B / Llama-3.1-8B");
    assert!(
        c.notes[0].starts_with(
            "the file's model is meta-llama/Llama-3.1-70B-Instruct, the scenario's is Llama-3-8B / Llama-3.1-8B: the prediction is for the scenario's model"
        ),
        "{:?}",
        c.notes
    );
    assert!(c.notes[1].contains("the file's hardware is NVIDIA GeForce RTX 4090"), "{:?}", c.notes);
    assert!(!c.rows.is_empty(), "still predicted, for the page's deployment");

    // No preset for the file's names: the parameter count (llama-bench) or the device's model number tells.
    let mut unknown = read("llama-bench.json")[1].clone();
    unknown.model = Some("llama 7B Q4_0".into());
    unknown.params_b = Some(6.74);
    unknown.hardware = Some("AMD EPYC 9454 48-Core Processor".into());
    let c = import::compare(&scenario, &unknown).unwrap();
    let what: Vec<(&str, Option<&str>)> = c.mismatch.iter().map(|x| (x.what, x.preset.as_deref())).collect();
    // (llama-bench's runs are predicted on llama.cpp, their own engine: no engine mismatch; a calibration of the
    // vLLM scenario leaves them out by their engine.)
    assert_eq!(what, vec![("model", None), ("hardware", None)]);

    // The same device or model under another name is no mismatch: a custom device with the H100's figures, the
    // llama-bench names of the scenario's model and GPU.
    let custom = Scenario::from_json(
        r#"{"hardware":{"memory_bandwidth_gbps":3350,"memory_gb":80,"kind":"datacenter-gpu"},"model":{"preset":"llama-3.1-8b"}}"#,
    )
    .unwrap();
    for s in [&scenario, &custom] {
        let c = import::compare(s, &read("llama-bench.json")[1]).unwrap();
        assert!(c.mismatch.is_empty(), "{:?}", c.mismatch);
    }
    // A file that records neither gives no mismatch.
    let csv = &read("genai-perf-profile_export.csv")[0];
    assert!(csv.model.is_none() && csv.hardware.is_none());
    let mut other_scenario = scenario.clone();
    other_scenario.model.preset = Some("qwen3-8b".into());
    assert!(import::compare(&other_scenario, csv).unwrap().mismatch.is_empty());
}

/// A pre-sales trial: a vLLM run on one H100 (its `--metadata tensor_parallel_size=1`) compared with and calibrated on
/// a scenario of 8 × H100 gave η_fl 0.065 and a headline "median |error| 28.8 %". The device count is a mismatch
/// like the model's: flagged, the calibration refused, the run left out of the headline median. And the comparison's
/// one-level sweep does not speak of fleets or lengths the page does not have.
#[test]
fn a_run_on_another_device_count_is_another_deployment() {
    let run = &read("vllm-bench-serve.json")[0];
    assert_eq!(run.devices, Some(1), "tensor_parallel_size \"1\" in the file's metadata");
    let one = h100_llama8b();
    let c = import::compare(&one, run).unwrap();
    assert!(c.mismatch.is_empty(), "{:?}", c.mismatch);
    let headline = import::headline([&c]).unwrap();
    assert!(headline.starts_with(&format!("{} figures compared: median |error| ", c.rows.len())), "{headline}");
    // The file records no weight format: the scenario's is assumed, and the headline says so (an operations trial read
    // 11.8 % for BF16 runs predicted in FP8, 57 % at their own format).
    assert!(!run.states_weight_format());
    assert!(headline.ends_with("; the scenario's weight format is assumed for 1 run: its file does not record it, and a run in another format reads as the model's error."), "{headline}");

    let mut eight = one.clone();
    eight.hardware.devices = Some(8);
    let c8 = import::compare(&eight, run).unwrap();
    let what: Vec<(&str, &str, &str, Option<&str>)> =
        c8.mismatch.iter().map(|x| (x.what, x.file.as_str(), x.page.as_str(), x.preset.as_deref())).collect();
    assert_eq!(what, vec![("device count", "1 device", "8 devices", Some("1"))]);
    assert!(c8.notes[0].starts_with("the file's device count is 1 device, the scenario's is 8 devices"), "{:?}", c8.notes);
    // The headline leaves it out, and says so; alone, it gives no median.
    assert_eq!(
        import::headline([&c8]).unwrap(),
        "no median error: the run is of another deployment (model, weight format, hardware, devices or engine) than the scenario's, so the errors measure the difference, not the model."
    );
    let both = import::headline([&c, &c8]).unwrap();
    assert!(both.starts_with(&format!("{} figures compared", c.rows.len())) && both.contains("1 run of another deployment"), "{both}");
    // Calibration refuses it, naming the difference.
    let e = tps_planner::plan::calibrate::calibrate(&eight, std::slice::from_ref(run)).unwrap_err();
    assert!(e.to_string().contains("the run's device count is 1 device but the scenario's is 8 devices"), "{e}");

    // The comparison's notes: the run's lengths are fixed and its one level is no fleet, but a page with a fleet
    // and lognormal lengths is not told to size none or to switch to lognormal.
    let mut page = one.clone();
    page.fleet = Some(tps_planner::scenario::FleetSpec { peak_users: Some(250.0), ..Default::default() });
    page.workload.distribution = Some(tps_planner::scenario::Distribution::Lognormal);
    let notes = import::compare(&page, run).unwrap().notes.join(" | ");
    assert!(!notes.contains("fleet") && !notes.contains("Lognormal"), "{notes}");
}

/// Issue 11: the same run imported in several formats (different precision and fields) is kept once.
#[test]
fn the_same_run_in_four_formats_merges_to_one_set_of_rows() {
    let json = read("llama-bench.json");
    let mut all = Vec::new();
    // The Markdown table first: it has no hardware, which the JSON export fills in.
    let mut skipped = import::merge(&mut all, read("llama-bench.md"));
    for f in ["llama-bench.json", "llama-bench.csv", "llama-bench.jsonl"] {
        skipped += import::merge(&mut all, read(f));
    }
    assert_eq!(skipped, 12);
    assert_eq!(all.len(), json.len());
    for (a, b) in all.iter().zip(&json) {
        assert_eq!((&a.label, a.kind), (&b.label, b.kind));
    }
    assert_eq!(all[0].hardware.as_deref(), Some("NVIDIA H100 80GB HBM3"), "filled in from the JSON export");
    // The same file twice.
    assert_eq!(import::merge(&mut all, json.clone()), 4);
    assert_eq!(all.len(), 4);

    // Different runs stay apart: another figure (beyond rounding), another model, another load, another tool.
    let mut faster = json[1].clone();
    faster.per_user_tps = Some(json[1].per_user_tps.unwrap() * 1.05);
    faster.tpot_ms.mean = Some(json[1].tpot_ms.mean.unwrap() / 1.05);
    assert!(!import::same_run(&json[1], &faster));
    let mut other_model = json[1].clone();
    other_model.model = Some("llama 8B Q8_0".into());
    assert!(!import::same_run(&json[1], &other_model));
    let mut rounded = json[1].clone();
    rounded.per_user_tps = Some(182.07);
    rounded.tpot_ms.mean = None;
    rounded.hardware = None;
    assert!(import::same_run(&json[1], &rounded), "two decimals and a missing field are the same run");
    let mut serving = Vec::new();
    for f in std::fs::read_dir("tests/samples/vllm-bench-serve-sweep").unwrap() {
        let p = f.unwrap().path();
        import::merge(&mut serving, import::parse("x", &std::fs::read_to_string(p).unwrap()).unwrap());
    }
    assert_eq!(serving.len(), 4, "a sweep's levels are different runs");
    assert_eq!(import::merge(&mut serving, read("sglang-bench-serving.jsonl")), 0);
    assert_eq!(import::merge(&mut serving, read("vllm-bench-serve-detailed.json")), 0);
    assert_eq!(import::merge(&mut serving, read("vllm-benchmark-serving-legacy.json")), 0, "same settings, other figures");
    assert_eq!(serving.len(), 8);
}

/// genai-perf's and AIPerf's CSV summaries leave the load out; their JSON exports of the same run record it. Read
/// together (a folder holds both), the run is kept once, with the load, and without the CSV's "import the JSON"
/// note (a new user's trial had read each run twice, and calibration counted it twice). A CSV alone stays a run
/// without a load, and another run's CSV (other figures) is not merged.
#[test]
fn a_csv_summary_without_the_load_merges_with_its_json() {
    for tool in ["genai-perf", "aiperf"] {
        let (csv, json) = (read(&format!("{tool}-profile_export.csv")), read(&format!("{tool}-profile_export.json")));
        assert!(!csv[0].load_recorded && json[0].load_recorded, "{tool}: the samples' CSV has no load, the JSON has");
        let mut all = Vec::new();
        assert_eq!(import::merge(&mut all, csv.clone()), 0);
        assert_eq!(import::merge(&mut all, json.clone()), 1, "{tool}: the JSON is the CSV's run");
        assert_eq!(all.len(), 1);
        assert!(all[0].load_recorded && all[0].concurrency == Some(32.0), "{tool}: {:?}", all[0].concurrency);
        assert_eq!(all[0].label, json[0].label);
        assert!(!all[0].notes.iter().any(|n| n.contains("not record the load")), "{:?}", all[0].notes);
        let mut other = csv[0].clone();
        other.system_output_tps = other.system_output_tps.map(|t| t * 1.2);
        assert!(!import::same_run(&other, &json[0]), "{tool}: other figures, another run");
    }
    // Only those summaries: two vLLM /metrics scrapes of one server (lifetime histograms, one taken while requests
    // ran, one after) agree in their figures but are not one run with a load to take.
    let during = read("vllm-metrics.prom").remove(0);
    let mut after = during.clone();
    after.load_recorded = !during.load_recorded;
    assert!(!import::same_run(&during, &after) && !import::same_run(&after, &during));
}

/// Issue 15: a run from which no figure can be read is not a measurement; a file of nothing else is an error
/// that says what was expected.
#[test]
fn a_file_without_any_figure_is_an_error() {
    for (name, text, expected) in [
        ("nan.json", r#"{"output_throughput": NaN}"#, "output_throughput"),
        (
            "vllm.json",
            r#"{"model_id": "m", "num_prompts": 10, "output_throughput": null, "mean_ttft_ms": "n/a", "max_concurrency": 4}"#,
            "mean_ttft_ms",
        ),
        ("llmperf.json", r#"{"results_mean_output_throughput_token_per_s": NaN, "num_concurrent_requests": 4}"#, "results_ttft_s_mean"),
        ("genai.json", r#"{"output_token_throughput": {"unit": "tokens/sec"}, "time_to_first_token": {"unit": "ms"}}"#, "time_to_first_token"),
        ("metrics.prom", "vllm:num_requests_running 3\n", "vllm:time_to_first_token_seconds"),
    ] {
        let e = import::parse(name, text).expect_err(name);
        let msg = e.to_string();
        assert!(msg.starts_with(&format!("{name}: no figure in the file: expected")), "{msg}");
        assert!(msg.contains(expected), "{msg}");
    }
    // A figureless run next to a real one is dropped; the real one is kept.
    let text = "{\"output_throughput\": NaN, \"tag\": \"empty\"}\n{\"output_throughput\": 1000.0, \"tag\": \"real\"}\n";
    let ms = import::parse("two.jsonl", text).unwrap();
    assert_eq!(ms.len(), 1);
    assert!(ms[0].label.contains("real"));
    // Every sample still imports, each run with a figure.
    let mut files: Vec<_> = std::fs::read_dir("tests/samples").unwrap().map(|e| e.unwrap().path()).collect();
    files.extend(std::fs::read_dir("tests/samples/vllm-bench-serve-sweep").unwrap().map(|e| e.unwrap().path()));
    let mut n = 0;
    for p in files.iter().filter(|p| p.is_file() && !p.ends_with("README.md")) {
        let ms = import::parse(&p.display().to_string(), &std::fs::read_to_string(p).unwrap()).unwrap_or_else(|e| panic!("{e}"));
        assert!(ms.iter().all(Measurement::has_figure), "{}", p.display());
        n += 1;
    }
    assert_eq!(n, 18);
}

/// A decode run reads no prompt (and a prefill run writes no answer): the scenario's own lengths do not count
/// towards the model's window for them (a review: a tg128 at 126,000 tokens of depth was refused for the
/// scenario's 8,192-token prompt, and with it the whole comparison and calibration).
#[test]
fn a_deep_decode_run_is_not_refused_for_the_scenarios_prompt() {
    let base = Scenario::from_json(
        r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"engine":{"preset":"llama.cpp"},"workload":{"prompt_tokens":8192}}"#,
    )
    .unwrap();
    let mut deep = read("llama-bench.json").into_iter().find(|m| m.kind == Kind::Decode).unwrap();
    deep.context_depth = 126_000.0;
    let c = import::compare(&base, &deep).unwrap();
    assert!(c.fits && !c.rows.is_empty(), "{:?}", c.notes);
    // Past the window it is a note, not an error.
    deep.context_depth = 131_000.0;
    let c = import::compare(&base, &deep).unwrap();
    assert!(c.rows.is_empty() && c.notes[0].contains("exceed the model's window"), "{:?}", c.notes);
}

/// An operations engineer's trial: runs of fixed lengths (vLLM's random dataset, 1024 + 128 tokens each) were
/// compared and calibrated with the page's lognormal lengths — 23 % off after calibration against 11 % with their
/// own, and a held-out run 32 % against 5 %. Whole mean lengths over many requests are read as fixed lengths, and
/// runs another engine ran (llama-bench's llama.cpp) are left out of a vLLM calibration; a calibration is dropped
/// by `discard`.
#[test]
fn runs_keep_their_fixed_lengths_and_their_engine() {
    let sweep: Vec<Measurement> = std::fs::read_dir("tests/samples/vllm-bench-serve-sweep")
        .unwrap()
        .flat_map(|e| {
            let p = e.unwrap().path();
            import::parse(&p.display().to_string(), &std::fs::read_to_string(&p).unwrap()).unwrap()
        })
        .collect();
    assert_eq!(sweep.len(), 4);
    for m in &sweep {
        assert_eq!(m.length_spread(), Some((tps_planner::scenario::Distribution::Fixed, 0.0)), "{}", m.label);
    }
    let mut page = h100_llama8b();
    page.workload.distribution = Some(tps_planner::scenario::Distribution::Lognormal);
    let c = import::compare(&page, &sweep[0]).unwrap();
    assert!(c.notes.iter().any(|n| n.starts_with("request lengths fixed")), "{:?}", c.notes);
    // llama-bench's runs are llama.cpp's: left out, and alone refused.
    let bench = read("llama-bench.json");
    let all: Vec<Measurement> = bench.iter().chain(&sweep).cloned().collect();
    let cal = tps_planner::plan::calibrate::calibrate(&page, &all).unwrap();
    assert_eq!(cal.other_engine_runs, bench.len());
    assert!(cal.summary().contains("Left out: 4 run(s) of another engine"), "{}", cal.summary());
    assert!(cal.scenario.engine.calibrated_from.as_deref().is_some_and(|f| f.contains("of 4 run(s)")));
    let e = tps_planner::plan::calibrate::calibrate(&page, &bench).unwrap_err();
    assert!(e.message.contains("another engine"), "{e}");
    // Dropped: the defaults again, and the same predictions as before the calibration.
    let mut s = cal.scenario.clone();
    assert!(tps_planner::plan::calibrate::discard(&mut s));
    let (before, after) = (import::compare(&page, &sweep[1]).unwrap(), import::compare(&s, &sweep[1]).unwrap());
    assert_eq!(before.rows, after.rows, "discarded: the uncalibrated predictions again");
    assert!(s.engine.calibrated_from.is_none() && s.engine.bandwidth_efficiency.is_none() && s.engine.compute_efficiency.is_none());
    assert!(!tps_planner::plan::calibrate::discard(&mut s), "nothing left to drop");
}

/// Data-parallel ranks count their devices: vLLM's `data_parallel_size` multiplies the tensor-parallel devices (DP
/// attention's too), SGLang's `dp_size` does unless DP attention runs its ranks inside the tensor-parallel group.
#[test]
fn data_parallel_ranks_count_their_devices() {
    let vllm = std::fs::read_to_string("tests/samples/vllm-bench-serve.json").unwrap();
    let dp = vllm.replacen("\"tensor_parallel_size\"", "\"data_parallel_size\": 8, \"tensor_parallel_size\"", 1);
    assert_eq!(import::parse("dp.json", &dp).unwrap()[0].devices, Some(8));
    let sglang = std::fs::read_to_string("tests/samples/sglang-bench-serving.jsonl").unwrap();
    let line = sglang.lines().next().unwrap();
    assert!(line.contains("\"tp_size\""), "the sample states its split");
    let with = |extra: &str| import::parse("s.jsonl", &line.replacen("\"tp_size\"", &format!("{extra} \"tp_size\""), 1)).unwrap()[0].devices;
    let tp = with("").unwrap();
    assert_eq!(with("\"dp_size\": 2,"), Some(2 * tp), "two replicas");
    assert_eq!(with("\"dp_size\": 2, \"enable_dp_attention\": true,"), Some(tp), "DP attention inside the group");
}

/// A run with DP attention against a tensor-parallel scenario (or the reverse) is another deployment, as another
/// device count is: flagged with the split to switch to, and refused by the calibration.
#[test]
fn a_run_with_dp_attention_is_another_split() {
    let sglang = std::fs::read_to_string("tests/samples/sglang-bench-serving.jsonl").unwrap();
    let first = sglang.lines().next().unwrap();
    let model = first.split("\"model_path\": \"").nth(1).and_then(|r| r.split('"').next()).unwrap();
    let line = first
        .replacen("\"tp_size\": 1", "\"tp_size\": 8, \"dp_size\": 8, \"enable_dp_attention\": true", 1)
        .replace(model, "Qwen/Qwen3-235B-A22B-Instruct-2507-FP8");
    let run = &import::parse("dp.jsonl", &line).unwrap()[0];
    assert_eq!((run.devices, run.dp_attention), (Some(8), Some(true)));
    let plain = &read("sglang-bench-serving.jsonl")[0];
    assert_eq!(plain.dp_attention, None, "server info without enable_dp_attention says nothing of the split");
    let off = import::parse("off.jsonl", &first.replacen("\"tp_size\": 1", "\"tp_size\": 1, \"enable_dp_attention\": false", 1)).unwrap();
    assert_eq!(off[0].dp_attention, Some(false));
    let mut s = h100_llama8b();
    s.model.preset = Some("qwen3-235b-a22b".into());
    s.quantization.weights = Some("fp8".into());
    s.engine.preset = Some("sglang".into());
    s.hardware.devices = Some(8);
    let tp = import::compare(&s, run).unwrap();
    let what: Vec<(&str, &str, &str, Option<&str>)> =
        tp.mismatch.iter().map(|x| (x.what, x.file.as_str(), x.page.as_str(), x.preset.as_deref())).collect();
    assert_eq!(what, vec![("split", "DP attention", "tensor parallel", Some("dp-attention"))], "the split alone differs");
    let e = tps_planner::plan::calibrate::calibrate(&s, std::slice::from_ref(run)).unwrap_err();
    assert!(e.to_string().contains("the run's split is DP attention but the scenario's is tensor parallel"), "{e}");
    s.hardware.parallelism = Some(tps_planner::model::hardware::Parallelism::DpAttention);
    let dp = import::compare(&s, run).unwrap();
    assert!(dp.mismatch.is_empty(), "{:?}", dp.mismatch);
    // vLLM's metadata: eight data-parallel ranks with expert parallelism.
    let vllm = std::fs::read_to_string("tests/samples/vllm-bench-serve.json").unwrap();
    let ep =
        vllm.replacen("\"tensor_parallel_size\"", "\"data_parallel_size\": \"8\", \"enable_expert_parallel\": \"true\", \"tensor_parallel_size\"", 1);
    let v = &import::parse("ep.json", &ep).unwrap()[0];
    assert_eq!((v.devices, v.dp_attention), (Some(8), Some(true)));
}

/// A review's wrong answers in comparing and calibrating (2026-12-06), each failing before its fix.
#[test]
fn a_paced_run_under_a_cap_is_predicted_at_its_rate_unless_the_cap_binds() {
    let s = h100_llama8b();
    let mut m = read("vllm-bench-serve.json")[0].clone();
    // 1 req/s under a cap of 256 in flight: about one request in flight, so the rate is the load (it was predicted
    // as 256 users sending back to back: 1,889 tok/s where 1 req/s × 128 tokens can make at most 128).
    (m.request_rate, m.concurrency) = (Some(1.0), Some(256.0));
    let c = import::compare(&s, &m).unwrap();
    assert_eq!(c.load, "1 req/s");
    let out = c.rows.iter().find(|r| r.metric == "system output").unwrap().predicted;
    assert!(out <= 1.0 * 128.0 * 1.15, "{out} tok/s from 1 req/s of 128-token answers");
    assert!(c.notes.iter().any(|n| n.contains("does not bind")), "{:?}", c.notes);
    // A rate the model does not simulate beside a cap: the cap (a review: rate 0 under a cap of 64 failed every run).
    (m.request_rate, m.concurrency) = (Some(0.0), Some(64.0));
    assert_eq!(import::compare(&s, &m).unwrap().load, "64 concurrent users");
    (m.request_rate, m.concurrency) = (Some(2e6), None);
    let c = import::compare(&s, &m).unwrap();
    assert!(c.rows.is_empty() && c.notes[0].contains("outside what the model simulates"), "{:?}", c.notes);
    // 100 req/s under a cap of 8: the cap holds the load.
    (m.request_rate, m.concurrency) = (Some(100.0), Some(8.0));
    let c = import::compare(&s, &m).unwrap();
    assert_eq!(c.load, "8 concurrent users");
    assert!(c.notes.iter().any(|n| n.contains("the cap binds")), "{:?}", c.notes);
}

#[test]
fn per_user_speed_is_compared_like_for_like_and_fitted_once() {
    let s = h100_llama8b();
    let m = &read("vllm-bench-serve.json")[0];
    let c = import::compare(&s, m).unwrap();
    let row = |k: &str| c.rows.iter().find(|r| r.metric == k).unwrap_or_else(|| panic!("{k}"));
    // Both sides 1000 ÷ the mean TPOT (the prediction's had been 1000 ÷ its P50).
    assert!((row("per user").measured * row("TPOT mean").measured - 1000.0).abs() < 1e-6);
    assert!((row("per user").predicted * row("TPOT mean").predicted - 1000.0).abs() < 1e-6);
    // The calibration fits that figure once: the per-user row is left out beside a TPOT mean.
    let cal = tps_planner::plan::calibrate::calibrate(&s, std::slice::from_ref(m)).unwrap();
    assert!(cal.rows.iter().all(|r| r.1 != "per user"), "{:?}", cal.rows);
    assert_eq!(cal.figures, c.rows.len() - 1);
    assert_eq!(cal.per_user_left_out, 1);
    assert!(cal.summary().contains(&format!("Calibrated on {} figures (1 per-user speed left out", cal.figures)), "{}", cal.summary());
}

#[test]
fn calibrations_before_is_the_scenario_as_typed() {
    // η_bw 0.1 lies below the search's range (0.2–1): the fit starts at 0.2, but "before" is the user's 0.1 and
    // its errors are what comparing the scenario as typed gives (they had been the errors of 0.2).
    let mut s = h100_llama8b();
    s.engine.bandwidth_efficiency = Some(0.1);
    let m = &read("vllm-bench-serve-sweep/vllm-infqps-concurrency1-Llama-3.1-8B-Instruct-20250612-110502.json")[0];
    let c = import::compare(&s, m).unwrap();
    let cal = tps_planner::plan::calibrate::calibrate(&s, std::slice::from_ref(m)).unwrap();
    let bw = cal.fitted.iter().find(|f| f.field.contains("bandwidth_efficiency") && !f.field.contains("kv")).unwrap();
    assert_eq!(bw.before, 0.1);
    for (_, metric, measured, before, _) in &cal.rows {
        let r = c.rows.iter().find(|r| &r.metric == metric).unwrap();
        assert!((before / r.predicted - 1.0).abs() < 1e-9 && (measured / r.measured - 1.0).abs() < 1e-9, "{metric}: {before} vs {}", r.predicted);
    }
    assert!(cal.median_abs_error_after_pct < cal.median_abs_error_before_pct);
}

#[test]
fn a_median_of_an_even_count_is_the_mean_of_its_middle_two() {
    // Two llama-bench tests: the headline's median is halfway between their errors, not the worse one.
    let s = Scenario::from_json(
        r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"quantization":{"weights":"q4_k_m"},"engine":{"preset":"llama.cpp"}}"#,
    )
    .unwrap();
    let bench = read("llama-bench.json");
    let cs: Vec<_> = bench[..2].iter().map(|m| import::compare(&s, m).unwrap()).collect();
    let mut e: Vec<f64> = cs.iter().flat_map(|c| c.rows.iter().map(|r| r.error_pct.abs())).collect();
    assert_eq!(e.len(), 2);
    e.sort_by(f64::total_cmp);
    let h = import::headline(&cs).unwrap();
    assert!(h.contains(&format!("median |error| {:.1} %", (e[0] + e[1]) / 2.0)), "{h} for {e:?}");
}

#[test]
fn a_one_token_run_is_a_note_not_an_error_for_every_run() {
    let s = h100_llama8b();
    let good = read("vllm-bench-serve.json")[0].clone();
    let mut one = good.clone();
    one.output_tokens = Some(1.0);
    let c = import::compare(&s, &one).expect("a prompt benchmark is a note");
    assert!(c.rows.is_empty() && c.notes[0].contains("one token each"), "{:?}", c.notes);
    // Beside a run with answers, the calibration fits that one.
    let cal = tps_planner::plan::calibrate::calibrate(&s, &[one, good]).unwrap();
    assert!(cal.figures > 0);
}

#[test]
fn a_scrape_is_a_steady_server_with_the_spread_of_its_histograms() {
    let m = &read("vllm-metrics.prom")[0];
    // Lifetime counts since the server started, not one run's requests.
    assert_eq!(m.requests, None);
    // The generation-length histogram, as lognormal lengths: log-variance from the buckets' geometric midpoints
    // less Sheppard's correction → CV ≈ 0.57 (by hand: counts 4, 149, 1238, 2282, 318, 9 in (20, 50] … (1000, 2000]).
    let cv = m.output_cv.unwrap();
    assert!((cv - 0.570).abs() < 0.005, "{cv}");
    assert!(m.prompt_cv.unwrap() > 0.3);
    // Every length in one bucket (a fixed-length benchmark): CV 0, fixed lengths (a review: read as CV 0.61 and 1.07).
    let text = std::fs::read_to_string("tests/samples/vllm-metrics.prom").unwrap();
    let fixed: String = text
        .lines()
        .map(|l| {
            let le = l.split("le=\"").nth(1).and_then(|r| r.split('"').next());
            let (name, value) = l.rsplit_once(' ').unwrap_or((l, ""));
            let set = |v: f64| format!("{name} {v}");
            match le {
                Some(le) if l.starts_with("vllm:request_prompt_tokens_bucket") => {
                    set(if le == "+Inf" || le.parse::<f64>().unwrap() >= 1024.0 { 4000.0 } else { 0.0 })
                }
                Some(le) if l.starts_with("vllm:request_generation_tokens_bucket") => {
                    set(if le == "+Inf" || le.parse::<f64>().unwrap() >= 128.0 { 4000.0 } else { 0.0 })
                }
                _ if l.starts_with("vllm:request_prompt_tokens_sum") => set(4000.0 * 1024.0),
                _ if l.starts_with("vllm:request_generation_tokens_sum") => set(4000.0 * 128.0),
                _ => {
                    let _ = value;
                    l.to_string()
                }
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let f = &import::parse("fixed.prom", &fixed).unwrap()[0];
    assert_eq!((f.output_cv, f.prompt_cv), (Some(0.0), Some(0.0)));
    assert_eq!(f.length_spread().map(|s| s.0), Some(tps_planner::scenario::Distribution::Fixed));
    let c = import::compare(&h100_llama8b(), m).unwrap();
    assert!(!c.notes.iter().any(|n| n.contains("finite run") || n.contains("in step")), "{:?}", c.notes);
    assert!(c.notes.iter().any(|n| n.contains("lognormal")), "{:?}", c.notes);
}

/// A bad-input trial: a vLLM result with `completed: 0` had been imported, compared and fitted on its 2,438 tok/s.
/// No request completed: refused, and said why.
#[test]
fn a_run_where_no_request_completed_is_refused_with_its_reason() {
    let text = std::fs::read_to_string("tests/samples/vllm-bench-serve.json").unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["completed"] = serde_json::json!(0);
    let e = import::parse("zero.json", &v.to_string()).unwrap_err();
    assert!(e.to_string().contains("no request completed in the run (completed: 0)"), "{e}");
    // One request completed is a run.
    v["completed"] = serde_json::json!(1);
    assert!(import::parse("one.json", &v.to_string()).is_ok());
    // Beside a run that completed, in one file (JSON lines), the empty one is left out and said.
    let good: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut zero = good.clone();
    zero["completed"] = serde_json::json!(0);
    zero["max_concurrency"] = serde_json::json!(128);
    let ms = import::parse(
        "both.jsonl",
        &format!(
            "{good}
{zero}
"
        ),
    )
    .unwrap();
    assert_eq!(ms.len(), 1);
    assert!(ms[0].notes.iter().any(|n| n == "1 run in the file where no request completed is left out"), "{:?}", ms[0].notes);
}

/// A bad-input trial's 50,000-row llama-bench CSV took 109 s on the page (each run predicted, each checked against the
/// others for repeats): a file holds at most `import::MAX_RUNS` runs, said.
#[test]
fn a_file_of_more_runs_than_a_sweep_holds_is_refused() {
    let text = std::fs::read_to_string("tests/samples/llama-bench.csv").unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    let row = lines.next().unwrap();
    let many = std::iter::once(header).chain(std::iter::repeat_n(row, import::MAX_RUNS + 1)).collect::<Vec<_>>().join("\n");
    let e = import::parse("many.csv", &many).unwrap_err();
    assert!(e.to_string().contains(&format!("{} runs in one file; at most {}", import::MAX_RUNS + 1, import::MAX_RUNS)), "{e}");
    let enough = std::iter::once(header).chain(std::iter::repeat_n(row, 3)).collect::<Vec<_>>().join("\n");
    assert!(import::parse("few.csv", &enough).is_ok());
}
