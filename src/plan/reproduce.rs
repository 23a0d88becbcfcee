//! "Reproduce this": the commands that measure a scenario on real hardware, so that the result files can be
//! imported back into the page (`crate::import`) and set beside the prediction.
//!
//! The server is started the way the scenario describes it and the benchmark sends the scenario's workload:
//!
//! - **Server** (`vllm serve`, SGLang `launch_server`, `trtllm-serve`, `lmdeploy serve api_server`,
//!   `llama-server`): the model's Hugging Face id (a preset's `hf_repo`), the devices as tensor- or
//!   pipeline-parallel size, the engine's cap on running sequences (`engine.max_batch` → `--max-num-seqs`), its
//!   token budget per step (`engine.max_batched_tokens` → `--max-num-batched-tokens`), its memory share
//!   (`engine.memory_utilization` → `--gpu-memory-utilization`), the KV-cache dtype, the weight format (FP8 is
//!   quantised on the fly from the released checkpoint; other formats need a checkpoint in that format), prefix
//!   caching on only when the scenario counts on hits, and a context length that holds the longest request.
//! - **Benchmark** (`vllm bench serve`, SGLang `bench_serving`, AIPerf / genai-perf, `llama-bench`): random
//!   prompts of the workload's lengths with `ignore_eos` (every request produces its full output, as the
//!   simulation assumes), closed-loop concurrency (`--max-concurrency`) or Poisson arrivals (`--request-rate`),
//!   the latency percentiles the page judges (TTFT, TPOT, ITL, E2E at 50/95/99 and the target's), and a saved
//!   result file per load level.
//! - **Load levels**: the levels the scenario lists, else the ones a sizing decision rests on — one user, the
//!   operating point, the capacity at the target and the load just above it (request-rate loads: the same
//!   without the single user). Each concurrency level sends 10 prompts per user (at least 50) so it reaches a
//!   steady state; each rate level about two minutes of arrivals (at least 100 prompts).
//!
//! **Lengths**: vLLM's random dataset draws lengths uniformly in `[L·(1 − r), L·(1 + r)]` (`--random-range-ratio
//! r`); a uniform spread `s` maps to `r = s`, a lognormal coefficient of variation `c` to the uniform range of
//! the same spread, `r = c·√3` (at most 0.95). SGLang draws in `[L·r, L]`, so the same uniform range is
//! `L' = L·(1 + s)`, `r' = (1 − s)/(1 + s)`. AIPerf / genai-perf draw normal lengths with a given standard
//! deviation (`c · L`, or `s · L / √3` for a uniform spread). A prefix-cache hit rate `h` becomes a shared random
//! prefix of `h · L` tokens (vLLM `--random-prefix-len`), the rest of the prompt random.
//!
//! Nothing here runs anything: the commands are text for a person to copy.

use crate::model::hardware::Parallelism;
use crate::scenario::{Distribution, Load, Mode, Report, Resolved, Scenario, ScenarioError};

/// One command (or a small shell snippet) to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// What it does ("Start the server (vLLM)").
    pub title: String,
    /// The shell text, lines continued with `\`.
    pub text: String,
}

/// The commands for one scenario, and what they cannot reproduce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reproduction {
    pub steps: Vec<Step>,
    /// Caveats: a custom model or format to supply, lengths approximated, features without a flag.
    pub notes: Vec<String>,
}

/// The load levels the benchmark runs.
#[derive(Debug, Clone, PartialEq)]
enum Levels {
    /// Concurrent users (closed loop).
    Users(Vec<u32>),
    /// Requests per second (Poisson or gamma arrivals).
    Rates(Vec<f64>),
    /// One finite job of this many requests (offline throughput).
    Offline(u32),
}

/// Everything the command builders need, read once from the scenario, its resolution and its report.
struct Ctx<'a> {
    r: &'a Resolved,
    /// Hugging Face id of the model, or a placeholder.
    repo: String,
    /// Weight format id (`bf16`, `fp8`, `q4_k_m`, …).
    weights: String,
    /// KV-cache dtype id.
    kv: String,
    levels: Levels,
    /// Percentiles to report, as `50,95,99`.
    percentiles: String,
    /// Uniform range ratio (vLLM semantics) for the lengths.
    range: f64,
    /// Shared prefix tokens (prefix-cache hits) and the random rest of the prompt.
    prefix: u64,
    input: u64,
    output: u64,
    /// Context length the server must hold (longest prompt + output), rounded up to 1024.
    max_len: u64,
}

/// The commands that measure scenario `s` (evaluated as `report`) on real hardware.
///
/// # Errors
/// The scenario's first invalid field (it must resolve).
pub fn reproduce(s: &Scenario, report: &Report) -> Result<Reproduction, ScenarioError> {
    let r = s.resolve()?;
    let mut notes = Vec::new();
    let engine = crate::presets::engines::ENGINES.iter().find(|e| e.name == r.deployment.engine.name).map_or("generic", |e| e.id);
    let preset = s.model.preset.as_deref().and_then(crate::presets::models::find);
    let repo = match preset {
        Some(m) => m.hf_repo.to_string(),
        None => {
            notes.push("a custom model: replace <model> with its Hugging Face id or local path".into());
            "<model>".to_string()
        }
    };
    let native = preset.map(|m| m.native_weights);
    let weights = s.quantization.weights.clone().unwrap_or_else(|| crate::scenario::default_weights(engine, native).to_string()).to_ascii_lowercase();
    let kv = s.quantization.kv_cache.clone().unwrap_or_else(|| "fp16".into()).to_ascii_lowercase();
    let w = &r.workload;
    let range = match w.distribution {
        Distribution::Fixed => 0.0,
        Distribution::Uniform => w.spread.min(0.95),
        Distribution::Lognormal => {
            notes.push(format!(
                "lognormal lengths (coefficient of variation {}) are sent as the uniform range of the same spread: the benchmarks draw uniform (vLLM, SGLang) or normal (AIPerf) lengths",
                trim(w.spread, 2)
            ));
            (w.spread * 3f64.sqrt()).min(0.95)
        }
    };
    let prompt = w.prompt_tokens.round().max(1.0) as u64;
    let prefix = (w.prefix_cache_hit_rate * w.prompt_tokens).round() as u64;
    if w.context_depth > 0.0 {
        notes.push(format!(
            "the {} tokens of earlier turns already in the cache have no random-dataset equivalent: measure them with a multi-turn dataset, or add them to the prompt (an upper bound on TTFT)",
            w.context_depth.round()
        ));
    }
    if r.disaggregation.is_some() {
        notes.push("disaggregated prefill/decode needs the engine's PD deployment (vLLM with a KV connector, SGLang --disaggregation-mode): the commands start one co-located server".into());
    }
    if w.mode == Mode::Agent {
        notes.push(format!("an agent's task is {} calls in a row: the benchmark measures one call; the task time is {} × (TTFT + output tokens × TPOT) at the percentile", w.agent_steps, w.agent_steps));
    }
    let longest = ((w.prompt_tokens + w.output_tokens) * (1.0 + range)).ceil() + w.context_depth;
    let mut max_len = ((longest / 1024.0).ceil() * 1024.0).max(1024.0) as u64;
    if let Some(m) = r.max_context {
        max_len = max_len.min(u64::from(m));
    }
    let mut pcts = vec![50.0, 95.0, 99.0, r.target.percentile];
    pcts.sort_by(f64::total_cmp);
    pcts.dedup();
    let ctx = Ctx {
        r: &r,
        repo,
        weights,
        kv,
        levels: levels(&r, report),
        percentiles: pcts.iter().map(|p| format!("{p:.0}")).collect::<Vec<_>>().join(","),
        range,
        prefix,
        input: prompt.saturating_sub(prefix).max(1),
        output: w.output_tokens.round().max(1.0) as u64,
        max_len,
    };
    let steps = match engine {
        "llama.cpp" => llama_cpp(&ctx, &mut notes),
        "sglang" => vec![sglang_serve(&ctx, &mut notes), sglang_bench(&ctx), aiperf(&ctx, "30000")],
        "tensorrt-llm" => vec![trtllm_serve(&ctx, &mut notes), vllm_bench(&ctx, "openai", "http://127.0.0.1:8000"), aiperf(&ctx, "8000")],
        "lmdeploy" => vec![lmdeploy_serve(&ctx, &mut notes), vllm_bench(&ctx, "openai", "http://127.0.0.1:23333"), aiperf(&ctx, "23333")],
        _ => {
            if engine != "vllm" {
                notes.push(format!(
                    "{} has no command line of its own here: the commands measure vLLM with the same limits",
                    r.deployment.engine.name
                ));
            }
            vec![vllm_serve(&ctx, &mut notes), vllm_bench(&ctx, "vllm", ""), aiperf(&ctx, "8000")]
        }
    };
    notes
        .push("import the result files under \"Compare with your benchmark results\": each run is set beside the prediction for its own load".into());
    Ok(Reproduction { steps, notes })
}

/// The loads to measure (see the module docs).
fn levels(r: &Resolved, report: &Report) -> Levels {
    match &r.workload.load {
        Load::Offline => return Levels::Offline(r.workload.requests),
        Load::Concurrency(v) if !r.workload.auto_load && !v.is_empty() => return Levels::Users(whole(v.iter().copied())),
        Load::RequestRate(v) if !v.is_empty() => return Levels::Rates(v.clone()),
        _ => {}
    }
    let rate = report.sweep.first().is_some_and(|p| p.request_rate.is_some());
    let x = |m: &crate::scenario::Marker| m.concurrency.or(m.request_rate);
    let mut marks: Vec<f64> = Vec::new();
    if let Some(c) = &report.capacity {
        marks.extend(report.operating_point.as_ref().and_then(x));
        marks.extend(x(&c.at));
        marks.extend(c.next.as_ref().and_then(x));
    } else {
        // No capacity (batch mode, nothing meets the target): where throughput stops rising and the peak.
        marks.extend(report.knee.as_ref().and_then(x));
        marks.extend(x(&report.peak));
    }
    if rate {
        let mut v: Vec<f64> = marks.into_iter().filter(|x| *x > 0.0 && x.is_finite()).map(|x| round_sig(x, 3)).collect();
        if v.is_empty() {
            v = report.sweep.iter().filter_map(|p| p.request_rate).collect();
        }
        v.sort_by(f64::total_cmp);
        v.dedup();
        Levels::Rates(v)
    } else {
        Levels::Users(whole(std::iter::once(1.0).chain(marks)))
    }
}

/// Whole users, at least one, in ascending order, each once.
fn whole(v: impl Iterator<Item = f64>) -> Vec<u32> {
    let mut f: Vec<f64> = v.filter(|x| x.is_finite()).map(|x| x.round().max(1.0)).collect();
    f.sort_by(f64::total_cmp);
    f.dedup();
    f.into_iter().map(|x| x as u32).collect()
}

/// `v` to `n` significant digits.
fn round_sig(v: f64, n: i32) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let m = 10f64.powi(n - 1 - v.abs().log10().floor() as i32);
    (v * m).round() / m
}

/// A number with at most `d` decimals, trailing zeros dropped.
fn trim(v: f64, d: usize) -> String {
    let s = format!("{v:.d$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Joins flags into one command, continued over lines of a readable width.
fn command(head: &str, flags: &[String]) -> String {
    let mut out = head.to_string();
    let mut line = out.len();
    for f in flags.iter().filter(|f| !f.is_empty()) {
        if line + f.len() + 1 > 96 {
            out.push_str(" \\\n    ");
            line = 4;
        } else {
            out.push(' ');
            line += 1;
        }
        out.push_str(f);
        line += f.len();
    }
    out
}

fn flag(name: &str, v: impl std::fmt::Display) -> String {
    format!("{name} {v}")
}

/// Prompts per concurrency level, as shell arithmetic on `$c`: 10 per user, at least 50.
const PROMPTS_PER_USER: &str = "$(( c * 10 > 50 ? c * 10 : 50 ))";

/// Prompts per rate level: about two minutes of arrivals at the highest rate, at least 100.
fn prompts_for_rates(rates: &[f64]) -> u64 {
    let top = rates.iter().copied().fold(0.0, f64::max);
    ((top * 120.0).ceil() as u64).max(100)
}

/// `for c in 1 12 29 30; do` … `done` around a benchmark command for each load level (`$c` users or `$r` req/s).
fn over_levels(ctx: &Ctx, body: impl Fn(&str, &str) -> String) -> String {
    match &ctx.levels {
        Levels::Users(u) => {
            let list = u.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
            let inner = body("c", PROMPTS_PER_USER).replace('\n', "\n  ");
            format!("for c in {list}; do\n  {inner}\ndone")
        }
        Levels::Rates(v) => {
            let list = v.iter().map(|x| trim(*x, 4)).collect::<Vec<_>>().join(" ");
            let inner = body("r", &prompts_for_rates(v).to_string()).replace('\n', "\n  ");
            format!("for r in {list}; do\n  {inner}\ndone")
        }
        Levels::Offline(n) => body("", &n.to_string()),
    }
}

/// vLLM's load flags for one level: `--max-concurrency $c` or `--request-rate $r` (+ burstiness).
fn vllm_load(ctx: &Ctx, var: &str) -> Vec<String> {
    match ctx.levels {
        Levels::Users(_) => vec![flag("--max-concurrency", format!("${var}"))],
        Levels::Rates(_) => {
            let b = ctx.r.workload.burstiness;
            let mut v = vec![flag("--request-rate", format!("${var}"))];
            if (b - 1.0).abs() > 1e-9 {
                v.push(flag("--burstiness", trim(b, 3)));
            }
            v
        }
        Levels::Offline(_) => vec![flag("--request-rate", "inf")],
    }
}

/// The part of a result file's name that says its load: `c$c`, `r$r` or `offline`.
fn tag(ctx: &Ctx, var: &str) -> String {
    match ctx.levels {
        Levels::Users(_) => format!("c${var}"),
        Levels::Rates(_) => format!("r${var}"),
        Levels::Offline(_) => "offline".into(),
    }
}

fn parallel_flags(ctx: &Ctx, tp: &str, pp: &str) -> Vec<String> {
    let hw = &ctx.r.deployment.hardware;
    if hw.devices <= 1 {
        return Vec::new();
    }
    match hw.parallelism {
        Parallelism::Pipeline if !pp.is_empty() => vec![flag(pp, hw.devices)],
        _ => vec![flag(tp, hw.devices)],
    }
}

/// The weight flags of vLLM-style servers: 16-bit dtypes, FP8 quantised on the fly; others need a checkpoint.
fn weight_flags(ctx: &Ctx, dtype: &str, quant: &str, notes: &mut Vec<String>) -> Vec<String> {
    match ctx.weights.as_str() {
        "bf16" => vec![flag(dtype, "bfloat16")],
        "f16" | "fp16" => vec![flag(dtype, "float16")],
        "f32" => vec![flag(dtype, "float32")],
        "fp8" => vec![flag(quant, "fp8")],
        other => {
            notes.push(format!(
                "weights in {}: serve a checkpoint already in that format (the engine reads its quantisation from the checkpoint) in place of {}",
                other.to_ascii_uppercase(),
                ctx.repo
            ));
            Vec::new()
        }
    }
}

fn vllm_serve(ctx: &Ctx, notes: &mut Vec<String>) -> Step {
    let e = &ctx.r.deployment.engine;
    let mut f = parallel_flags(ctx, "--tensor-parallel-size", "--pipeline-parallel-size");
    f.extend(weight_flags(ctx, "--dtype", "--quantization", notes));
    f.push(flag("--kv-cache-dtype", if ctx.kv == "fp8" { "fp8" } else { "auto" }));
    f.push(flag("--max-num-seqs", e.max_batch));
    f.push(flag("--max-num-batched-tokens", e.max_batched_tokens));
    f.push(flag("--gpu-memory-utilization", trim(e.memory_utilization, 3)));
    f.push(flag("--max-model-len", ctx.max_len));
    f.push(if ctx.prefix > 0 { "--enable-prefix-caching".into() } else { "--no-enable-prefix-caching".into() });
    Step { title: "Start the server (vLLM)".into(), text: command(&format!("vllm serve {}", ctx.repo), &f) }
}

/// `vllm bench serve` over the load levels; `backend` "vllm" for a vLLM server, "openai" for any
/// OpenAI-compatible one at `base_url`.
fn vllm_bench(ctx: &Ctx, backend: &str, base_url: &str) -> Step {
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

fn sglang_serve(ctx: &Ctx, notes: &mut Vec<String>) -> Step {
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
    Step { title: "Start the server (SGLang)".into(), text: command("python3 -m sglang.launch_server", &f) }
}

fn sglang_bench(ctx: &Ctx) -> Step {
    // SGLang draws lengths in [L·r, L]: the same uniform range as vLLM's [L(1 − s), L(1 + s)].
    let s = ctx.range;
    let (inp, out) = ((ctx.input as f64 * (1.0 + s)).round() as u64, (ctx.output as f64 * (1.0 + s)).round() as u64);
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

fn trtllm_serve(ctx: &Ctx, notes: &mut Vec<String>) -> Step {
    let e = &ctx.r.deployment.engine;
    let mut f = parallel_flags(ctx, "--tp_size", "--pp_size");
    if !matches!(ctx.weights.as_str(), "bf16" | "f16" | "fp16") {
        notes.push(format!(
            "weights in {}: serve a checkpoint quantised to that format (TensorRT Model Optimizer) in place of {}",
            ctx.weights.to_ascii_uppercase(),
            ctx.repo
        ));
    }
    f.push(flag("--max_batch_size", e.max_batch));
    f.push(flag("--max_num_tokens", e.max_batched_tokens));
    f.push(flag("--max_seq_len", ctx.max_len));
    f.push(flag("--kv_cache_free_gpu_memory_fraction", trim(e.memory_utilization, 3)));
    Step { title: "Start the server (TensorRT-LLM)".into(), text: command(&format!("trtllm-serve {}", ctx.repo), &f) }
}

fn lmdeploy_serve(ctx: &Ctx, notes: &mut Vec<String>) -> Step {
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
fn aiperf(ctx: &Ctx, port: &str) -> Step {
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
        f.push(flag("--synthetic-input-tokens-mean", prompt));
        f.push(flag("--synthetic-input-tokens-stddev", sd(prompt)));
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
fn llama_cpp(ctx: &Ctx, notes: &mut Vec<String>) -> Vec<Step> {
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
    let slots = r.deployment.engine.max_batch.max(1);
    let mut server = common;
    server.push(flag("-fa", "on"));
    server.push(flag("-np", slots));
    // -c is the context of all slots together.
    server.push(flag("-c", ctx.max_len * u64::from(slots)));
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

#[cfg(test)]
mod tests {
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
        for f in [
            "--tensor-parallel-size 2",
            "--quantization fp8",
            "--kv-cache-dtype auto",
            "--max-num-seqs 256",
            "--max-num-batched-tokens 8192",
            "--gpu-memory-utilization 0.9",
            "--no-enable-prefix-caching",
        ] {
            assert!(serve.contains(f), "{f} missing: {serve}");
        }
        // 1024 + 256 tokens, lognormal CV 0.5 → uniform range ±0.866: (1280 × 1.866) = 2389 → 3072.
        assert!(serve.contains("--max-model-len 3072"), "{serve}");
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
                "workload":{"prompt_tokens":2000,"output_tokens":100,"prefix_cache_hit_rate":0.5,"load":{"concurrency":[4,16]}},
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
                "workload":{"prompt_tokens":512,"output_tokens":128,"context_depth":4096}}"#);
        let bench = &r.steps[0].text;
        for f in ["llama-bench", "-m Llama-3.1-8B-Q4_K_M.gguf", "-ngl 99", "-sm row", "-ctk q8_0", "-p 512", "-n 128", "-d 4096", "-o json"] {
            assert!(bench.contains(f), "{f} missing: {bench}");
        }
        let server = &r.steps[1].text;
        // 4 slots (llama.cpp's default -np), each holding 4096 + 512 + 128 → 5120 tokens.
        for f in ["llama-server", "-np 4", "-c 20480", "-sm row", "--port 8080"] {
            assert!(server.contains(f), "{f} missing: {server}");
        }
        assert!(r.steps[2].text.contains("--backend openai --base-url http://127.0.0.1:8080"), "{}", r.steps[2].text);
        assert!(r.steps[2].text.contains("--tokenizer meta-llama/Llama-3.1-8B"));
        assert!(r.notes.iter().any(|n| n.contains("earlier turns")));
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
}
