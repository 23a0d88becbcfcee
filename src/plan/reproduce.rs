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
//!   caching on only when the scenario counts on hits, and a context length that holds the longest request
//!   (lognormal lengths: their 99.9th percentile, the traffic sized, beyond the benchmark's own uniform range).
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
//! prefix of `h · L` tokens (vLLM `--random-prefix-len`, AIPerf `--num-prefix-prompts 1 --prefix-prompt-length`), the
//! rest of the prompt random; vLLM's range then spreads only that rest (and the output), which a note says.
//!
//! Nothing here runs anything: the commands are text for a person to copy.

use crate::model::engine::EngineKind;
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
    /// Context length the server must hold (longest prompt + output: the benchmark's range, or lognormal lengths'
    /// 99.9th percentile), rounded up to 1024.
    max_len: u64,
    /// The weights are the format the checkpoint is released in.
    native: bool,
}

/// The instruction-tuned sibling of a base checkpoint the presets name (`None` when it is already one, or unknown).
fn instruct_sibling(repo: &str) -> Option<String> {
    if let Some(rest) = repo.strip_prefix("meta-llama/Llama-2-") {
        return rest.strip_suffix("-hf").map(|size| format!("meta-llama/Llama-2-{size}-chat-hf"));
    }
    if repo.starts_with("meta-llama/Llama-3.1-") || repo.starts_with("Qwen/Qwen2.5-") {
        return Some(format!("{repo}-Instruct"));
    }
    if repo.starts_with("mistralai/") {
        return repo.strip_suffix("-v0.1").map(|base| format!("{base}-Instruct-v0.1"));
    }
    repo.starts_with("google/gemma-2-").then(|| format!("{repo}-it"))
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
    // The presets name the base checkpoints; a chat service deploys the instruction-tuned sibling, which has the
    // same shape and speed (a trial read `vllm serve meta-llama/Llama-3.1-70B` as the wrong model to serve).
    if let Some(chat) = preset.and_then(|m| instruct_sibling(m.hf_repo)) {
        notes.push(format!("{repo} is the base checkpoint; a chat service serves {chat}, of the same shape and speed: either measures the same"));
    }
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
    // vLLM's range spreads the random part of the prompt and the output, not the shared prefix: the whole prompt
    // varies less than asked (an operations trial: 0.866 over 1,500 of 3,000 tokens is a spread of 0.25, not 0.5).
    if prefix > 0 && range > 0.0 && prompt > prefix && engine != "sglang" {
        notes.push(format!(
            "vllm bench serve's --random-range-ratio spreads the random {} tokens of each prompt and the output, not the shared prefix: the whole prompt's spread is {} of the {} asked (AIPerf's standard deviation is the whole prompt's, at most half the random part)",
            prompt - prefix,
            // In the spread's own terms: a lognormal's coefficient of variation (range ÷ √3), a uniform's ± fraction.
            trim(range * (prompt - prefix) as f64 / prompt as f64 / if w.distribution == Distribution::Lognormal { 3f64.sqrt() } else { 1.0 }, 2),
            trim(w.spread, 2)
        ));
    }
    if w.context_depth > 0.0 {
        notes.push(format!(
            "the {} tokens of earlier turns already in the cache have no random-dataset equivalent: measure them with a multi-turn dataset, or add them to the prompt (an upper bound on TTFT)",
            w.context_depth.round()
        ));
    }
    if r.disaggregation.is_some() {
        notes.push("disaggregated prefill/decode needs the engine's PD deployment (vLLM with a KV connector, SGLang --disaggregation-mode): the commands start one co-located server".into());
    }
    if w.think_time_s > 0.0 && matches!(w.load, Load::Concurrency(_)) {
        notes.push(format!(
            "the benchmark's users send their next request at once, where these pause {} s between requests (the think time): the commands send requests at the rates these users make instead (Poisson arrivals, which many pausing users approach)",
            crate::model::units::fmt_num(w.think_time_s)
        ));
    }
    if w.mode == Mode::Agent {
        notes.push(format!("an agent's task is {} calls in a row: the benchmark measures one call; the task time is {} × (TTFT + output tokens × TPOT) at the percentile", w.agent_steps, w.agent_steps));
    }
    // Lognormal traffic's tail runs past the benchmark's uniform range: the server holds its 99.9th percentile.
    let longest = crate::plan::longest_request_tokens(w);
    let mut max_len = ((longest / 1024.0).ceil() * 1024.0).max(1024.0) as u64;
    if let Some(m) = r.max_context {
        max_len = max_len.min(u64::from(m));
    }
    // vLLM refuses to start when one sequence of --max-model-len cannot fit its KV cache (a review: 70B FP8 on one
    // H100 NVL with 10,000-token prompts asked 43,008 where the cache holds ~39,600): at most what it holds, said.
    let d = &r.deployment;
    let budget = d.kv_budget_bytes();
    // (llama.cpp's slots say their own: `engines::llama_cpp`.)
    if budget > 0.0 && d.kv_bytes(max_len as f64) > budget && engine != "llama.cpp" {
        // The longest multiple of 1,024 whose cache fits (a sliding window's grows slower than its tokens).
        let holds = ((crate::plan::longest_fitting_tokens(d) / 1024.0).floor() as u64 * 1024).min(max_len);
        if holds >= 1024 {
            notes.push(format!(
                "--max-model-len {holds}: what the KV cache holds for one sequence; the traffic's longest requests ({max_len} tokens at its 99.9th percentile or the benchmark's range) would be refused"
            ));
            max_len = holds;
        }
    }
    let mut pcts = vec![50.0, 95.0, 99.0, r.target.percentile.value()];
    crate::sorting::sort_f64(&mut pcts);
    pcts.dedup();
    let is_native = native == Some(weights.as_str());
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
        native: is_native,
    };
    let steps = match engine {
        "llama.cpp" => llama_cpp(&ctx, &mut notes),
        "sglang" => {
            if ctx.prefix > 0 {
                // (The whole prompt is sent: its random dataset has no shared prefix, so no run of it hits a cache.)
                notes.push(format!(
                    "SGLang's bench_serving random dataset has no shared prefix: its runs measure the {} cached tokens uncached (its generated-shared-prefix dataset, or the AIPerf command, measures them cached)",
                    ctx.prefix
                ));
            }
            vec![sglang_serve(&ctx, &mut notes), sglang_bench(&ctx), aiperf(&ctx, "30000")]
        }
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
    // Only SGLang runs its prompt steps apart (`engine.mixed_batches: false`); the other servers the commands start
    // always carry both in one step.
    if !r.deployment.engine.mixed_batches && engine != "sglang" {
        let server = match engine {
            "tensorrt-llm" => "TensorRT-LLM's in-flight batching",
            "lmdeploy" => "LMDeploy",
            "llama.cpp" => "llama.cpp's server",
            _ => "vLLM's V1 engine",
        };
        notes.push(format!("the scenario's prompt steps pause the decodes (engine.mixed_batches: false, SGLang's way), where {server} always carries both in one step: the measured latencies will differ from the prediction"));
    }
    notes
        .push("import the result files under \"Compare with your benchmark results\": each run is set beside the prediction for its own load".into());
    Ok(Reproduction { steps, notes })
}

/// The loads to measure (see the module docs).
fn levels(r: &Resolved, report: &Report) -> Levels {
    // Users who think between requests: a benchmark's users do not pause, so the commands send requests at the
    // rates such users make (their request throughput at the marked loads; many pausing users arrive about as a
    // Poisson stream does).
    if r.workload.think_time_s > 0.0 {
        let out = r.workload.output_tokens.max(1.0);
        let at = |m: &crate::scenario::Marker| m.system_tps / out;
        let v = rates(match &report.capacity {
            Some(c) => report.operating_point.iter().chain([&c.at]).chain(c.next.iter()).map(at).collect(),
            None => report.sweep.iter().map(|p| p.request_throughput).collect(),
        });
        if !v.is_empty() {
            return Levels::Rates(v);
        }
    }
    match &r.workload.load {
        Load::Offline => return Levels::Offline(r.workload.requests),
        Load::Concurrency(v) if !r.workload.auto_load && !v.is_empty() => return Levels::Users(whole(v.iter().copied())),
        Load::RequestRate(v) if !v.is_empty() => return Levels::Rates(v.clone()),
        _ => {}
    }
    let rate = report.sweep.first().is_some_and(|p| p.request_rate.is_some());
    let x = |m: &crate::scenario::Marker| m.load();
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
        let v = rates(marks);
        // (The levels' own rates unrounded, as before.)
        Levels::Rates(if v.is_empty() { sorted_once(report.sweep.iter().filter_map(|p| p.request_rate).collect()) } else { v })
    } else {
        Levels::Users(whole(std::iter::once(1.0).chain(marks)))
    }
}

/// Request rates to measure: the positive ones to 3 significant digits (more where that would merge two: the
/// capacity and the load just above it are often within 1 %, and a pre-sales trial read one rate for both under a
/// note promising each), in ascending order, each once.
fn rates(v: Vec<f64>) -> Vec<f64> {
    let v: Vec<f64> = v.into_iter().filter(|x| *x > 0.0 && x.is_finite()).collect();
    let distinct = sorted_once(v.clone()).len();
    (3..=6).map(|n| sorted_once(v.iter().map(|x| round_sig(*x, n)).collect())).find(|r| r.len() == distinct).unwrap_or_else(|| sorted_once(v))
}

/// In ascending order, each once.
fn sorted_once(mut v: Vec<f64>) -> Vec<f64> {
    crate::sorting::sort_f64(&mut v);
    v.dedup();
    v
}

/// Whole users, at least one, in ascending order, each once.
fn whole(v: impl Iterator<Item = f64>) -> Vec<u32> {
    sorted_once(v.filter(|x| x.is_finite()).map(|x| x.round().max(1.0)).collect()).into_iter().map(|x| x as u32).collect()
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
        // DP attention (only vLLM, SGLang and TensorRT-LLM pass the scenario's checks with it).
        Parallelism::DpAttention => match ctx.r.deployment.engine.kind {
            EngineKind::Vllm => vec![flag("--data-parallel-size", hw.devices), "--enable-expert-parallel".into()],
            EngineKind::Sglang => {
                vec![flag(tp, hw.devices), flag("--dp-size", hw.devices), "--enable-dp-attention".into(), flag("--ep-size", hw.devices)]
            }
            _ => vec![flag(tp, hw.devices), flag("--ep_size", hw.devices)],
        },
        _ => vec![flag(tp, hw.devices)],
    }
}

/// The weight flags of vLLM-style servers: 16-bit dtypes, FP8 quantised on the fly; others need a checkpoint.
fn weight_flags(ctx: &Ctx, dtype: &str, quant: &str, notes: &mut Vec<String>) -> Vec<String> {
    match ctx.weights.as_str() {
        "bf16" => vec![flag(dtype, "bfloat16")],
        "f16" | "fp16" => vec![flag(dtype, "float16")],
        "f32" => vec![flag(dtype, "float32")],
        // A checkpoint released in FP8 (DeepSeek-V3, …) says so itself; the engines' guides pass no flag for it.
        "fp8" if ctx.native => Vec::new(),
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

mod engines;
use engines::*;

#[cfg(test)]
mod tests;
