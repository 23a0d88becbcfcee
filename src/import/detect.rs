//! Which tool wrote a file, from its content alone (never its name), and the dispatch to that tool's reader:
//! JSON and JSON Lines by the keys of each record, Prometheus text by its `vllm:` series, CSV by its header
//! (`Metric,` for genai-perf/AIPerf, `avg_ts` and `n_prompt` for llama-bench), a Markdown table with `t/s`
//! for llama-bench. Field meanings and pitfalls per tool are in shared/samples/README.md (the tools' source
//! files at the commits it names).

use super::common::json_objects;
use super::{genai_perf, llama_bench, llmperf, prometheus, serving, Measurement};
use serde_json::Value;

/// Detects the format and parses it.
pub(super) fn parse(text: &str) -> Result<Vec<Measurement>, String> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        return parse_json(text);
    }
    if text.lines().any(|l| l.starts_with("vllm:")) {
        return prometheus::scrape(text);
    }
    let first = trimmed.lines().next().unwrap_or("");
    if first.starts_with("Metric,") {
        return genai_perf::csv(text);
    }
    if first.contains("avg_ts") && first.contains("n_prompt") {
        return Ok(llama_bench::csv(text));
    }
    if first.starts_with('|') && text.contains("t/s") {
        return llama_bench::markdown(text);
    }
    Err("not a result file of a known tool (vLLM or SGLang serving benchmark, genai-perf, AIPerf, llmperf, \
         llama-bench JSON/JSONL/CSV/Markdown, or vLLM /metrics)"
        .into())
}

/// Each record of a JSON document or JSON Lines file, by its keys.
fn parse_json(text: &str) -> Result<Vec<Measurement>, String> {
    let mut out = Vec::new();
    for o in json_objects(text)? {
        let m = if o.contains_key("avg_ts") && o.contains_key("n_prompt") {
            llama_bench::record(&o)
        } else if o.contains_key("results_mean_output_throughput_token_per_s") {
            Some(llmperf::summary(&o))
        } else if o.get("output_token_throughput").is_some_and(Value::is_object) {
            Some(genai_perf::json(&o))
        } else if o.contains_key("output_throughput") && (o.contains_key("model_id") || o.contains_key("num_prompts")) {
            Some(serving::vllm(&o))
        } else if o.contains_key("output_throughput") {
            Some(serving::sglang(&o))
        } else {
            return Err("JSON without the keys of a known benchmark tool (e.g. vLLM's output_throughput, genai-perf's \
                        output_token_throughput, llama-bench's avg_ts)"
                .into());
        };
        out.extend(m);
    }
    Ok(out)
}

/// The figures a run of `tool` is read from, for the message when a file holds none.
pub(super) fn expected_figures(tool: &str) -> &'static str {
    match tool {
        "vLLM bench serve" | "vLLM benchmark_serving.py" => serving::VLLM_FIGURES,
        "SGLang bench_serving" => serving::SGLANG_FIGURES,
        "genai-perf" | "AIPerf" => genai_perf::FIGURES,
        "llmperf" => llmperf::FIGURES,
        "llama-bench" => llama_bench::FIGURES,
        "vLLM /metrics" => prometheus::FIGURES,
        _ => "a throughput, a latency statistic or tokens/s",
    }
}
