//! One engine's commands each: vLLM, SGLang, TensorRT-LLM, LMDeploy, AIPerf / genai-perf, llama.cpp.

use super::*;

pub(super) fn vllm_serve(ctx: &Ctx, notes: &mut Vec<String>) -> Step {
    let e = &ctx.r.deployment.engine;
    let mut f = parallel_flags(ctx, "--tensor-parallel-size", "--pipeline-parallel-size");
    f.extend(weight_flags(ctx, "--dtype", "--quantization", notes));
    f.push(flag("--kv-cache-dtype", if ctx.kv == "fp8" { "fp8" } else { "auto" }));
    // Under DP attention both are each rank's own: the scenario's, which are the server's, divided.
    let ranks = ctx.r.deployment.dense_copies() as u32;
    f.push(flag("--max-num-seqs", ctx.r.deployment.rank_batch()));
    f.push(flag("--max-num-batched-tokens", ctx.r.deployment.chunk_tokens()));
    if ranks > 1 {
        notes.push(format!(
            "DP attention: vLLM's --max-num-seqs and --max-num-batched-tokens are each of the {ranks} data-parallel ranks' own — the scenario's max batch and step budget divided among them"
        ));
    }
    f.push(flag("--gpu-memory-utilization", trim(e.memory_utilization, 3)));
    f.push(flag("--max-model-len", ctx.max_len));
    f.push(if ctx.prefix > 0 { "--enable-prefix-caching".into() } else { "--no-enable-prefix-caching".into() });
    if !e.cuda_graphs {
        f.push("--enforce-eager".into());
    }
    Step { title: "Start the server (vLLM)".into(), text: command(&format!("vllm serve {}", ctx.repo), &f) }
}

/// `vllm bench serve` over the load levels; `backend` "vllm" for a vLLM server, "openai" for any
/// OpenAI-compatible one at `base_url`.
pub(super) fn vllm_bench(ctx: &Ctx, backend: &str, base_url: &str) -> Step {
    let text = over_levels(ctx, |var, prompts| {
        let mut f = vec![flag("--backend", backend)];
        if !base_url.is_empty() {
            f.push(flag("--base-url", base_url));
        }
        f.push(flag("--model", &ctx.repo));
        f.push(flag("--dataset-name", "random"));
        f.push(flag("--random-input-len", ctx.input));
        f.push(flag("--random-output-len", ctx.output));
        f.push(flag("--random-range-ratio", trim(ctx.range, 3)));
        if ctx.prefix > 0 {
            f.push(flag("--random-prefix-len", ctx.prefix));
        }
        f.push("--ignore-eos".into());
        f.extend(vllm_load(ctx, var));
        f.push(flag("--num-prompts", prompts));
        f.push(flag("--percentile-metrics", "ttft,tpot,itl,e2el"));
        f.push(flag("--metric-percentiles", &ctx.percentiles));
        f.push("--save-result".into());
        f.push(flag("--result-dir", "results"));
        f.push(flag("--result-filename", format!("vllm-{}.json", tag(ctx, var))));
        command("vllm bench serve", &f)
    });
    Step { title: "Measure each load level (vllm bench serve)".into(), text }
}

pub(super) fn sglang_serve(ctx: &Ctx, notes: &mut Vec<String>) -> Step {
    let e = &ctx.r.deployment.engine;
    let mut f = vec![flag("--model-path", &ctx.repo)];
    f.extend(parallel_flags(ctx, "--tp-size", "--pp-size"));
    f.extend(weight_flags(ctx, "--dtype", "--quantization", notes));
    f.push(flag("--kv-cache-dtype", if ctx.kv == "fp8" { "fp8_e4m3" } else { "auto" }));
    f.push(flag("--max-running-requests", e.max_batch));
    f.push(flag("--chunked-prefill-size", e.max_batched_tokens));
    f.push(flag("--mem-fraction-static", trim(e.memory_utilization, 3)));
    f.push(flag("--context-length", ctx.max_len));
    if ctx.prefix == 0 {
        f.push("--disable-radix-cache".into());
    }
    if !e.cuda_graphs {
        f.push("--disable-cuda-graph".into());
    }
    if e.mixed_batches {
        f.push("--enable-mixed-chunk".into());
    }
    Step { title: "Start the server (SGLang)".into(), text: command("python3 -m sglang.launch_server", &f) }
}

pub(super) fn sglang_bench(ctx: &Ctx) -> Step {
    // SGLang draws lengths in [L·r, L]: the same uniform range as vLLM's [L(1 − s), L(1 + s)].
    let s = ctx.range;
    // The whole prompt, a shared prefix included: the random dataset has none (`reproduce`'s note).
    let (inp, out) = (((ctx.input + ctx.prefix) as f64 * (1.0 + s)).round() as u64, (ctx.output as f64 * (1.0 + s)).round() as u64);
    let ratio = (1.0 - s) / (1.0 + s);
    let text = over_levels(ctx, |var, prompts| {
        let mut f = vec![flag("--backend", "sglang"), flag("--dataset-name", "random")];
        f.push(flag("--random-input-len", inp));
        f.push(flag("--random-output-len", out));
        f.push(flag("--random-range-ratio", trim(ratio, 3)));
        match ctx.levels {
            Levels::Users(_) => f.push(flag("--max-concurrency", format!("${var}"))),
            Levels::Rates(_) => f.push(flag("--request-rate", format!("${var}"))),
            Levels::Offline(_) => {}
        }
        f.push(flag("--num-prompts", prompts));
        f.push(flag("--output-file", format!("results/sglang-{}.jsonl", tag(ctx, var))));
        command("python3 -m sglang.bench_serving", &f)
    });
    Step { title: "Measure each load level (SGLang bench_serving)".into(), text }
}

pub(super) fn trtllm_serve(ctx: &Ctx, notes: &mut Vec<String>) -> Step {
    let e = &ctx.r.deployment.engine;
    let mut f = parallel_flags(ctx, "--tp_size", "--pp_size");
    if !matches!(ctx.weights.as_str(), "bf16" | "f16" | "fp16") {
        notes.push(format!(
            "weights in {}: serve a checkpoint quantised to that format (TensorRT Model Optimizer) in place of {}",
            ctx.weights.to_ascii_uppercase(),
            ctx.repo
        ));
    }
    // Under attention DP both limits are each rank's (as vLLM's): the scenario's, the server's, divided.
    let ranks = ctx.r.deployment.dense_copies() as u32;
    f.push(flag("--max_batch_size", ctx.r.deployment.rank_batch()));
    f.push(flag("--max_num_tokens", ctx.r.deployment.chunk_tokens()));
    f.push(flag("--max_seq_len", ctx.max_len));
    f.push(flag("--kv_cache_free_gpu_memory_fraction", trim(e.memory_utilization, 3)));
    if ranks > 1 {
        notes.push(format!(
            "DP attention: put enable_attention_dp: true in a YAML file and pass it with --extra_llm_api_options; --max_batch_size and --max_num_tokens are then each of the {ranks} ranks' own — the scenario's max batch and step budget divided among them"
        ));
    }
    Step { title: "Start the server (TensorRT-LLM)".into(), text: command(&format!("trtllm-serve {}", ctx.repo), &f) }
}

pub(super) fn lmdeploy_serve(ctx: &Ctx, notes: &mut Vec<String>) -> Step {
    let e = &ctx.r.deployment.engine;
    let mut f = parallel_flags(ctx, "--tp", "");
    if !matches!(ctx.weights.as_str(), "bf16" | "f16" | "fp16" | "awq") {
        notes.push(format!(
            "weights in {}: LMDeploy serves 16-bit and AWQ checkpoints; use a checkpoint in that format",
            ctx.weights.to_ascii_uppercase()
        ));
    }
    if ctx.weights == "awq" {
        f.push(flag("--model-format", "awq"));
    }
    f.push(flag("--max-batch-size", e.max_batch));
    f.push(flag("--cache-max-entry-count", trim(e.memory_utilization, 3)));
    f.push(flag("--session-len", ctx.max_len));
    if ctx.kv == "fp8" || ctx.kv == "q8_0" {
        f.push(flag("--quant-policy", 8));
    }
    f.push(flag("--server-port", 23333));
    Step { title: "Start the server (LMDeploy)".into(), text: command(&format!("lmdeploy serve api_server {}", ctx.repo), &f) }
}

/// AIPerf (genai-perf's successor; genai-perf takes the same flags as `genai-perf profile`).
pub(super) fn aiperf(ctx: &Ctx, port: &str) -> Step {
    let sd = |mean: u64| {
        let s = match ctx.r.workload.distribution {
            Distribution::Fixed => 0.0,
            Distribution::Uniform => ctx.r.workload.spread / 3f64.sqrt(),
            Distribution::Lognormal => ctx.r.workload.spread,
        };
        (s * mean as f64).round() as u64
    };
    let prompt = ctx.input + ctx.prefix;
    let text = over_levels(ctx, |var, prompts| {
        let mut f = vec![
            flag("--model", &ctx.repo),
            flag("--url", format!("localhost:{port}")),
            flag("--endpoint-type", "completions"),
            "--streaming".into(),
        ];
        // A cached share is one shared prefix prepended to every prompt (an operations trial found the command
        // measuring no hit at all): the synthetic part is the rest, its deviation the whole prompt's.
        if ctx.prefix > 0 {
            f.push(flag("--num-prefix-prompts", 1));
            f.push(flag("--prefix-prompt-length", ctx.prefix));
        }
        f.push(flag("--synthetic-input-tokens-mean", ctx.input));
        // The whole prompt's deviation on the synthetic rest, at most half of it (a review: 1,500 on a mean of 600
        // would draw many prompts below one token).
        f.push(flag("--synthetic-input-tokens-stddev", sd(prompt).min(ctx.input / 2)));
        f.push(flag("--output-tokens-mean", ctx.output));
        f.push(flag("--output-tokens-stddev", sd(ctx.output)));
        f.push(flag("--extra-inputs", "ignore_eos:true"));
        match ctx.levels {
            Levels::Users(_) => f.push(flag("--concurrency", format!("${var}"))),
            Levels::Rates(_) => f.push(flag("--request-rate", format!("${var}"))),
            Levels::Offline(_) => f.push(flag("--concurrency", ctx.r.deployment.engine.max_batch)),
        }
        f.push(flag("--request-count", prompts));
        f.push(flag("--artifact-dir", format!("results/aiperf-{}", tag(ctx, var))));
        command("aiperf profile", &f)
    });
    Step { title: "…or measure with AIPerf (genai-perf: the same flags after `genai-perf profile`)".into(), text }
}

/// llama.cpp: llama-bench for the single stream, llama-server with the scenario's slots, and vLLM's benchmark
/// client against its OpenAI-compatible API for the load levels.
pub(super) fn llama_cpp(ctx: &Ctx, notes: &mut Vec<String>) -> Vec<Step> {
    let r = ctx.r;
    let hw = &r.deployment.hardware;
    let stem = ctx.repo.rsplit('/').next().unwrap_or("model");
    let gguf = format!("{stem}-{}.gguf", ctx.weights.to_ascii_uppercase());
    notes.push(format!(
        "{gguf}: the model's GGUF file in {} (llama.cpp's convert_hf_to_gguf.py and llama-quantize make it)",
        ctx.weights.to_ascii_uppercase()
    ));
    let mut common = vec![flag("-m", &gguf), flag("-ngl", 99)];
    if hw.devices > 1 {
        common.push(flag("-sm", if hw.parallelism == Parallelism::RowSplit { "row" } else { "layer" }));
    }
    let kv = match ctx.kv.as_str() {
        "q8_0" | "q4_0" | "f32" => Some(ctx.kv.clone()),
        "fp8" => {
            notes.push("llama.cpp has no FP8 KV cache: q8_0 is the nearest (8.5 bits)".into());
            Some("q8_0".into())
        }
        _ => None,
    };
    if let Some(k) = &kv {
        common.push(flag("-ctk", k));
        common.push(flag("-ctv", k));
    }
    let mut bench = common.clone();
    bench.push(flag("-fa", 1));
    bench.push(flag("-p", ctx.input + ctx.prefix));
    bench.push(flag("-n", ctx.output));
    if r.workload.context_depth > 0.0 {
        bench.push(flag("-d", r.workload.context_depth.round()));
    }
    bench.push(flag("-ub", r.deployment.engine.max_batched_tokens));
    bench.push(flag("-o", "json"));
    // The slots the memory holds, each of the context the traffic's longest requests need, where the cache holds it
    // (`plan::llama_cpp_slots`, as the sweep runs them; a teacher's trial was given `-np 4 -c 81920` where the cache
    // holds one 21,000-token sequence: the server would not have started).
    let (d, w) = (&r.deployment, &r.workload);
    let slot = crate::plan::llama_cpp_slot_tokens(d, w);
    let slots = crate::plan::llama_cpp_slots(d, w).unwrap_or(d.engine.max_batch).max(1);
    let longest = crate::plan::longest_request_tokens(w);
    if slot < longest {
        notes.push(format!(
            "a slot's context of {slot:.0} tokens: what the KV cache holds for one request; the traffic's longest requests ({longest:.0} tokens at its 99.9th percentile or the benchmark's range) would be refused"
        ));
    }
    if slots < d.engine.max_batch {
        notes.push(format!(
            "-np {slots}: the slots the KV cache holds with each at {slot:.0} tokens (llama.cpp allocates every slot's context when it starts); more users wait their turn"
        ));
    }
    let mut server = common;
    server.push(flag("-fa", "on"));
    server.push(flag("-np", slots));
    // -c is the context of all slots together.
    server.push(flag("-c", slot as u64 * u64::from(slots)));
    server.push(flag("-ub", r.deployment.engine.max_batched_tokens));
    server.push(flag("--port", 8080));
    if ctx.prefix == 0 {
        server.push(flag("--cache-reuse", 0));
    }
    let mut client = vllm_bench(ctx, "openai", "http://127.0.0.1:8080");
    client.text = client.text.replace(&format!("--model {}", ctx.repo), &format!("--model {} --tokenizer {}", ctx.repo, ctx.repo));
    client.title = "Measure each load level against llama-server (vllm bench serve, OpenAI API)".into();
    vec![
        Step { title: "Single stream (llama-bench)".into(), text: format!("{} > results/llama-bench.json", command("llama-bench", &bench)) },
        Step { title: "Start the server (llama-server)".into(), text: command("llama-server", &server) },
        client,
    ]
}
