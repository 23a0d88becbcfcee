//! The commands follow the scenario: flags, load levels, engines.

use super::*;

fn run(json: &str) -> (Reproduction, Report) {
    let s = Scenario::from_json(json).unwrap();
    let report = crate::plan::evaluate_analytic(&s).unwrap();
    (reproduce(&s, &report).unwrap(), report)
}

fn text(r: &Reproduction) -> String {
    r.steps.iter().map(|s| s.text.clone()).collect::<Vec<_>>().join("\n")
}

#[test]
fn vllm_flags_follow_the_meeting_scenario() {
    let (r, report) = run(&std::fs::read_to_string("examples/meeting-2xh100.json").unwrap());
    let serve = &r.steps[0].text;
    assert!(serve.starts_with("vllm serve meta-llama/Llama-3.1-70B"), "{serve}");
    assert!(r.notes.iter().any(|n| n.contains("a chat service serves meta-llama/Llama-3.1-70B-Instruct")), "{:?}", r.notes);
    for f in [
        "--tensor-parallel-size 2",
        "--quantization fp8",
        "--kv-cache-dtype auto",
        "--max-num-seqs 1024", // vLLM's own default on an 80 GiB H100 (presets::engines::vllm_batch_defaults)
        "--max-num-batched-tokens 8192",
        "--gpu-memory-utilization 0.9",
        "--no-enable-prefix-caching",
    ] {
        assert!(serve.contains(f), "{f} missing: {serve}");
    }
    // 1024 + 256 tokens, lognormal CV 0.5 → uniform range ±0.866: (1280 × 1.866) = 2389 → 3072.
    // Lognormal lengths of spread 0.5: the server holds their 99.9th percentile, 3.85 × (1,024 + 256) = 4,929 → 5,120
    // (the benchmark's uniform range reaches 1.87 × the mean, 2,389 tokens).
    assert!(serve.contains("--max-model-len 5120"), "{serve}");
    let bench = &r.steps[1].text;
    for f in [
        "vllm bench serve",
        "--dataset-name random",
        "--random-input-len 1024",
        "--random-output-len 256",
        "--random-range-ratio 0.866",
        "--ignore-eos",
        "--max-concurrency $c",
        "--num-prompts $(( c * 10 > 50 ? c * 10 : 50 ))",
        "--percentile-metrics ttft,tpot,itl,e2el",
        "--metric-percentiles 50,95,99",
        "--save-result",
        "--result-filename vllm-c$c.json",
    ] {
        assert!(bench.contains(f), "{f} missing: {bench}");
    }
    // The levels: one user, the operating point, the capacity and one user more.
    let cap = report.capacity.as_ref().unwrap();
    let users = cap.max_users_at_target.unwrap();
    let op = report.operating_point.as_ref().unwrap().concurrency.unwrap();
    let list = format!("for c in 1 {op:.0} {users:.0} {:.0}; do", users + 1.0);
    assert!(bench.starts_with(&list), "{list} vs {bench}");
    assert!(r.steps[2].text.contains("aiperf profile") && r.steps[2].text.contains("--synthetic-input-tokens-mean 1024"));
    assert!(r.steps[2].text.contains("--output-tokens-stddev 128"), "lognormal CV 0.5 of 256: {}", r.steps[2].text);
    assert!(r.notes.iter().any(|n| n.contains("lognormal")));
}

#[test]
fn flags_follow_changes() {
    // FP8 KV cache, a cap of 64 sequences, half the prompt cached, P90 judged, fixed lengths, one device.
    let (r, _) = run(r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"quantization":{"weights":"bf16","kv_cache":"fp8"},
            "engine":{"preset":"vllm","max_batch":64,"max_batched_tokens":4096,"memory_utilization":0.85},
            "workload":{"prompt_tokens":2000,"output_tokens":100,"prefix_cache_hit_rate":0.5,"distribution":"fixed","load":{"concurrency":[4,16]}},
            "target":{"percentile":90}}"#);
    let all = text(&r);
    for f in [
        "--dtype bfloat16",
        "--kv-cache-dtype fp8",
        "--max-num-seqs 64",
        "--max-num-batched-tokens 4096",
        "--gpu-memory-utilization 0.85",
        "--enable-prefix-caching",
        "--random-prefix-len 1000",
        "--random-input-len 1000",
        "--random-range-ratio 0",
        "--metric-percentiles 50,90,95,99",
        "for c in 4 16; do",
        "--max-model-len 3072",
    ] {
        assert!(all.contains(f), "{f} missing: {all}");
    }
    assert!(!all.contains("--tensor-parallel-size"), "one device: {all}");
    assert!(!all.contains("--no-enable-prefix-caching"));
    assert!(!all.contains("--enforce-eager"), "graphs are the default: {all}");
}

#[test]
fn eager_mode_is_passed_to_the_server() {
    // A scenario predicted without CUDA graphs is measured on a server started without them.
    for (engine, flag) in [("vllm", "--enforce-eager"), ("sglang", "--disable-cuda-graph")] {
        let (r, _) = run(&format!(
            r#"{{"hardware":{{"preset":"h100-sxm"}},"model":{{"preset":"llama-3.1-8b"}},"engine":{{"preset":"{engine}","cuda_graphs":false}}}}"#
        ));
        assert!(r.steps[0].text.contains(flag), "{flag} missing: {}", r.steps[0].text);
    }
}

#[test]
fn prompt_steps_as_the_scenario_has_them() {
    // The model's default shares steps between prompts and decodes: SGLang is told to do so, as it does not by itself.
    let scenario = |engine: &str, mixed: &str| {
        format!(r#"{{"hardware":{{"preset":"h100-sxm"}},"model":{{"preset":"llama-3.1-8b"}},"engine":{{"preset":"{engine}"{mixed}}}}}"#)
    };
    let (shared, _) = run(&scenario("sglang", ""));
    assert!(shared.steps[0].text.contains("--enable-mixed-chunk"), "{}", shared.steps[0].text);
    let (apart, _) = run(&scenario("sglang", r#","mixed_batches":false"#));
    assert!(!apart.steps[0].text.contains("--enable-mixed-chunk"), "{}", apart.steps[0].text);
    // vLLM always shares them: a scenario with prompt steps apart is said not to be what it measures.
    let (vllm, _) = run(&scenario("vllm", r#","mixed_batches":false"#));
    assert!(vllm.notes.iter().any(|n| n.contains("prompt steps pause the decodes") && n.contains("vLLM")), "{:?}", vllm.notes);
    let (vllm, _) = run(&scenario("vllm", ""));
    assert!(!vllm.notes.iter().any(|n| n.contains("prompt steps")), "{:?}", vllm.notes);
}

#[test]
fn request_rates_and_sglang() {
    let (r, _) = run(r#"{"hardware":{"preset":"h100-sxm","devices":4},"model":{"preset":"llama-3.1-70b"},"quantization":{"weights":"fp8"},
            "engine":{"preset":"sglang"},"workload":{"load":{"request_rate":[0.5,2]},"distribution":"uniform","spread":0.2,"burstiness":0.5}}"#);
    let all = text(&r);
    for f in [
        "python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-70B",
        "--tp-size 4",
        "--quantization fp8",
        "--max-running-requests 1024",
        "--disable-radix-cache",
        "for r in 0.5 2; do",
        "--request-rate $r",
        // SGLang: [L·r, L] with L = 512 × 1.2 = 614, r = 0.8 / 1.2.
        "--random-input-len 614",
        "--random-range-ratio 0.667",
        "--output-file results/sglang-r$r.jsonl",
        // 2 req/s for two minutes.
        "--num-prompts 240",
        "--request-count 240",
    ] {
        assert!(all.contains(f), "{f} missing: {all}");
    }
}

#[test]
fn llama_cpp_gets_llama_bench_and_llama_server() {
    let (r, _) = run(r#"{"hardware":{"preset":"rtx-4090","devices":2,"parallelism":"row-split"},"model":{"preset":"llama-3.1-8b"},
            "quantization":{"weights":"q4_k_m","kv_cache":"q8_0"},"engine":{"preset":"llama.cpp"},
            "workload":{"prompt_tokens":512,"output_tokens":128,"context_depth":4096,"distribution":"fixed"}}"#);
    let bench = &r.steps[0].text;
    for f in ["llama-bench", "-m Llama-3.1-8B-Q4_K_M.gguf", "-ngl 99", "-sm row", "-ctk q8_0", "-p 512", "-n 128", "-d 4096", "-o json"] {
        assert!(bench.contains(f), "{f} missing: {bench}");
    }
    let server = &r.steps[1].text;
    // 4 slots (llama.cpp's default -np), each holding 4096 + 512 + 128 → 4736 tokens.
    for f in ["llama-server", "-np 4", "-c 18944", "-sm row", "--port 8080"] {
        assert!(server.contains(f), "{f} missing: {server}");
    }
    assert!(r.steps[2].text.contains("--backend openai --base-url http://127.0.0.1:8080"), "{}", r.steps[2].text);
    assert!(r.steps[2].text.contains("--tokenizer meta-llama/Llama-3.1-8B"));
    assert!(r.notes.iter().any(|n| n.contains("earlier turns")));
}

/// llama.cpp allocates every slot's context when it starts: a server whose cache holds one long request gets one slot
/// and a context the cache holds (a teacher's trial was given `-np 4 -c 81920` for Qwen2.5-32B Q4_K_M on one RTX 4090
/// with 16k-token prompts, where the cache holds about 21,000 tokens, and vLLM's --max-model-len under llama-server).
#[test]
fn llama_server_gets_the_slots_and_context_its_memory_holds() {
    let (r, report) = run(r#"{"hardware":{"preset":"rtx-4090"},"model":{"preset":"qwen2.5-32b"},"quantization":{"weights":"q4_k_m"},
            "engine":{"preset":"llama.cpp"},"workload":{"prompt_tokens":16384,"output_tokens":512,"distribution":"lognormal"}}"#);
    let server = &r.steps[1].text;
    assert!(server.contains("-np 1 "), "{server}");
    let c: f64 = server.split("-c ").nth(1).and_then(|t| t.split_whitespace().next()).and_then(|t| t.parse().ok()).unwrap();
    let kv_tokens = report.memory.kv_budget_gb * 1e9 / report.memory.kv_bytes_per_token;
    assert!(c <= kv_tokens && c >= 16_384.0, "-c {c} against {kv_tokens} tokens the cache holds: {server}");
    assert!(r.notes.iter().any(|n| n.starts_with("a slot's context of ")), "{:?}", r.notes);
    assert!(!r.notes.iter().any(|n| n.contains("--max-model-len")), "{:?}", r.notes);
    assert!(r.notes.iter().any(|n| n.starts_with("-np 1: the slots the KV cache holds")), "{:?}", r.notes);
    // The slots the commands start are the ones the sweep runs and the memory figure counts, with varying lengths
    // and with fixed ones whose slot is not a multiple of 1,024 (a review: 4 swept where the command started 3).
    for json in [
        r#"{"hardware":{"preset":"rtx-4090"},"model":{"preset":"qwen2.5-32b"},"quantization":{"weights":"q4_k_m"},"engine":{"preset":"llama.cpp"},"workload":{"prompt_tokens":6000,"output_tokens":512,"distribution":"lognormal","spread":0.8}}"#,
        r#"{"hardware":{"preset":"rtx-4090"},"model":{"preset":"qwen2.5-32b"},"quantization":{"weights":"q4_k_m"},"engine":{"preset":"llama.cpp"},"workload":{"prompt_tokens":4688,"output_tokens":512,"distribution":"fixed"}}"#,
    ] {
        let (r, report) = run(json);
        let server = &r.steps[1].text;
        assert!(server.contains(&format!("-np {:.0} ", report.memory.max_concurrency)), "{} slots: {server}", report.memory.max_concurrency);
    }
}

#[test]
fn custom_models_and_formats_are_named_in_notes() {
    let (r, _) = run(
        r#"{"hardware":{"memory_bandwidth_gbps":2000,"memory_gb":80,"kind":"datacenter-gpu"},"model":{"params_b":8},"quantization":{"weights":"awq"},"engine":{"preset":"vllm"}}"#,
    );
    assert!(r.steps[0].text.starts_with("vllm serve <model>"));
    assert!(r.notes.iter().any(|n| n.contains("custom model")));
    assert!(r.notes.iter().any(|n| n.contains("AWQ")));
}

#[test]
fn long_commands_are_continued() {
    let s = command("x", &["a".repeat(60), "b".repeat(60)]);
    assert_eq!(s, format!("x {} \\\n    {}", "a".repeat(60), "b".repeat(60)));
    assert_eq!(round_sig(0.123456, 3), 0.123);
    assert_eq!(trim(0.5, 3), "0.5");
    assert_eq!(trim(2.0, 3), "2");
}

#[test]
fn base_checkpoints_name_their_instruction_tuned_sibling() {
    assert_eq!(super::instruct_sibling("meta-llama/Llama-3.1-8B").as_deref(), Some("meta-llama/Llama-3.1-8B-Instruct"));
    assert_eq!(super::instruct_sibling("meta-llama/Llama-2-70b-hf").as_deref(), Some("meta-llama/Llama-2-70b-chat-hf"));
    assert_eq!(super::instruct_sibling("mistralai/Mixtral-8x7B-v0.1").as_deref(), Some("mistralai/Mixtral-8x7B-Instruct-v0.1"));
    assert_eq!(super::instruct_sibling("google/gemma-2-9b").as_deref(), Some("google/gemma-2-9b-it"));
    assert_eq!(super::instruct_sibling("Qwen/Qwen2.5-72B").as_deref(), Some("Qwen/Qwen2.5-72B-Instruct"));
    for chat in ["google/gemma-3-4b-it", "openai/gpt-oss-120b", "Qwen/Qwen3-8B", "meta-llama/Llama-4-Scout-17B-16E-Instruct"] {
        assert_eq!(super::instruct_sibling(chat), None, "{chat}");
    }
}

/// Users who pause between requests: a benchmark's users do not, so the commands send requests at the rates the
/// planner's users make at the operating point, the capacity and one user more (a review: `--max-concurrency N`
/// with N pausing users measures N users who never pause).
#[test]
fn users_who_think_are_measured_at_their_request_rates() {
    let mut s: serde_json::Value = serde_json::from_str(&std::fs::read_to_string("examples/meeting-2xh100.json").unwrap()).unwrap();
    s["workload"]["think_time_s"] = 30.0.into();
    let (r, report) = run(&s.to_string());
    let bench = &r.steps[1].text;
    assert!(bench.contains("--request-rate $r") && !bench.contains("--max-concurrency"), "{bench}");
    let op = report.operating_point.as_ref().unwrap();
    let rate = round_sig(op.system_tps / 256.0, 3);
    assert!(bench.starts_with("for r in ") && bench.lines().next().unwrap().contains(&format!(" {rate} ")), "{rate} req/s: {bench}");
    assert!(r.notes.iter().any(|n| n.contains("pause 30 s")), "{:?}", r.notes);
}

#[test]
fn a_shared_prefix_keeps_the_whole_prompts_spread_where_the_client_can() {
    // Half of a 3,000-token prompt cached, lognormal lengths of CV 0.5 (an operations trial: AIPerf had measured no
    // prefix at all, and vLLM's range over the random half gives the whole prompt a spread of 0.25).
    let (r, _) = run(r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"engine":{"preset":"vllm"},
            "workload":{"prompt_tokens":3000,"output_tokens":200,"prefix_cache_hit_rate":0.5,"distribution":"lognormal","spread":0.5,"load":{"concurrency":[4]}}}"#);
    let all = text(&r);
    // AIPerf: one shared prefix of 1,500 tokens, a synthetic rest of 1,500 whose deviation is the whole prompt's
    // (0.5 × 3,000 = 1,500), at most half the rest (750: no prompt drawn below a token).
    for f in ["--num-prefix-prompts 1", "--prefix-prompt-length 1500", "--synthetic-input-tokens-mean 1500", "--synthetic-input-tokens-stddev 750"] {
        assert!(all.contains(f), "{f} missing: {all}");
    }
    // vLLM: range 0.866 over the random 1,500 tokens: the whole prompt's CV is 0.866 × 1500 / 3000 / √3 = 0.25.
    assert!(all.contains("--random-prefix-len 1500") && all.contains("--random-range-ratio 0.866"), "{all}");
    assert!(r.notes.iter().any(|n| n.contains("the whole prompt's spread is 0.25 of the 0.5 asked")), "{:?}", r.notes);
    // SGLang's random dataset sends the whole prompt, and says its runs hit no cache; no vLLM note there.
    let (g, _) = run(r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"engine":{"preset":"sglang"},
            "workload":{"prompt_tokens":3000,"output_tokens":200,"prefix_cache_hit_rate":0.5,"distribution":"fixed","load":{"concurrency":[4]}}}"#);
    assert!(text(&g).contains("--random-input-len 3000"), "{}", text(&g));
    assert!(g.notes.iter().any(|n| n.contains("no shared prefix")) && !g.notes.iter().any(|n| n.contains("vllm bench serve's")), "{:?}", g.notes);
}

/// DP attention starts each engine its own way; vLLM's batch and step budget are each rank's.
#[test]
fn dp_attention_flags_per_engine() {
    let json = |engine: &str| {
        format!(
            r#"{{"hardware":{{"preset":"h200-sxm","devices":8,"parallelism":"dp-attention"}},"model":{{"preset":"deepseek-v3"}},"quantization":{{"weights":"fp8"}},"engine":{{"preset":"{engine}","max_batch":256,"max_batched_tokens":8192}}}}"#
        )
    };
    let (r, _) = run(&json("sglang"));
    let serve = &r.steps[0].text;
    for f in ["--tp-size 8", "--dp-size 8", "--enable-dp-attention", "--ep-size 8", "--chunked-prefill-size 8192", "--max-running-requests 256"] {
        assert!(serve.contains(f), "{f} missing: {serve}");
    }
    // DeepSeek's checkpoint is released in FP8: no quantisation flag (the engines' guides pass none).
    assert!(!serve.contains("--quantization"), "{serve}");
    let (r, _) = run(&json("vllm"));
    let serve = &r.steps[0].text;
    for f in ["--data-parallel-size 8", "--enable-expert-parallel", "--max-num-seqs 32", "--max-num-batched-tokens 1024"] {
        assert!(serve.contains(f), "{f} missing: {serve}");
    }
    assert!(!serve.contains("--tensor-parallel-size"), "{serve}");
    assert!(r.notes.iter().any(|n| n.contains("each of the 8 data-parallel ranks' own")), "{:?}", r.notes);
    let (r, _) = run(&json("tensorrt-llm"));
    assert!(r.steps[0].text.contains("--ep_size 8"), "{}", r.steps[0].text);
    assert!(r.notes.iter().any(|n| n.contains("enable_attention_dp: true")), "{:?}", r.notes);
}

/// A review (2026-12-06; Llama-3.1-70B in FP8 on one H100 NVL, 13 GB of KV space): lognormal lengths' 99.9th percentile can ask a context the KV cache cannot hold for one
/// sequence, and vLLM then refuses to start. The command asks what the cache holds, and says so.
#[test]
fn the_context_length_is_what_the_kv_cache_holds() {
    let (r, report) = run(
        r#"{"hardware":{"preset":"h100-nvl","devices":1},"model":{"preset":"llama-3.1-70b"},"quantization":{"weights":"fp8"},"engine":{"preset":"vllm"},
            "workload":{"prompt_tokens":10000,"output_tokens":1000,"load":{"concurrency":[1]},"requests":20}}"#,
    );
    let serve = &r.steps[0].text;
    let len: u64 = serve.split("--max-model-len ").nth(1).and_then(|t| t.split_whitespace().next()).and_then(|n| n.parse().ok()).expect(serve);
    let d = crate::scenario::Scenario::from_json(r#"{"hardware":{"preset":"h100-nvl","devices":1},"model":{"preset":"llama-3.1-70b"},"quantization":{"weights":"fp8"},"engine":{"preset":"vllm"}}"#)
        .unwrap()
        .resolve()
        .unwrap()
        .deployment;
    assert!(d.kv_bytes(len as f64) <= d.kv_budget_bytes() && d.kv_bytes((len + 1024) as f64) > d.kv_budget_bytes(), "{len}");
    assert!(len < 42_356, "below the lognormal tail's 42,356: {len}");
    assert!(r.notes.iter().any(|n| n.contains("what the KV cache holds for one sequence")), "{:?}", r.notes);
    assert!(report.memory.fits);
}

/// The capacity and the load just above it stay two rates where 3 digits would merge them (a pre-sales trial:
/// "for r in 8.89 14.6" under a note promising the operating point, the capacity and just above it).
#[test]
fn close_rates_stay_apart() {
    assert_eq!(rates(vec![8.888, 14.61, 14.64]), vec![8.888, 14.61, 14.64]);
    assert_eq!(rates(vec![8.888, 14.61, 14.74]), vec![8.89, 14.6, 14.7]);
    assert_eq!(rates(vec![2.0, 2.0, f64::NAN, -1.0]), vec![2.0]);
}
