//! Served runs (tests/data/serving.csv) stated as scenarios, for the validation (`tests/serving.rs`) and the
//! fit of the serving front end's per-request time (`tests/fit.rs`).

use super::num;
use std::collections::HashMap;
use tps_planner::presets;
use tps_planner::scenario::{Distribution, EngineSpec, HardwareSpec, LoadSpec, ModelSpec, QuantSpec, Scenario, WorkloadSpec};

/// Coefficient of variation used for ShareGPT request lengths (lognormal). `vllm bench serve` samples its
/// ShareGPT prompts with a fixed seed and drops pairs over 1024 prompt or 2048 total tokens, so a run of 200
/// holds the same few long answers every time. How long the longest is shows in a finite run's drain: IOG's
/// 200 prompts at 32 req/s on one RTX 4090 all arrive within 6 s and the run lasts 29.3 s (its raw JSON's
/// `duration`), so the last answer decoded for about 25 s at the 30–40 ms ITL of a draining batch: about 750
/// tokens, 3.5 × the mean output of 214. The largest of 200 lognormal draws is about 3.6 × the mean at a CV of
/// 0.6, 4.8 × at 0.8 and 6.2 × at 1.0 (the value used while runs were simulated as steady states, where the
/// tail does not set the duration); 0.75 sits at the upper end of what the drain allows.
///
/// Measured 2026-12 and left: 0.6, the drain's own estimate (3.6 × the mean), takes the served runs'
/// leave-one-source-out output tok/s 21.7 → 18.7 % and TPOT mean/P50/P99 17.2/17.3/30.1 → 16.2/16.5/29.7 %
/// (in-sample output 19.6 → 13.6 %; TTFT unchanged), but the served runs then fit a lower flat compute efficiency
/// (Hopper 0.30 → 0.25, Ampere 0.48 → 0.46: the flat prior of `held_out_cpp_compute` then), the prior a held-out TensorRT-LLM or LMDeploy
/// source takes in the batched validation, which goes 17.5 / 39.6 → 19.2 / 45.7 %; the all-at-once runs' TPOT P99
/// 53.2 → 55.6 % and the dense band's p90 54 → 62 %. The C++ engines' held-out prior should not hang on the
/// Python engines' length model: the next step before this one. Tried 2026-12-03 and not enough: fitting that
/// prior on the fixed-length runs alone (where the length model does not enter) gives 0.41 / 0.25, below the
/// 0.48 / 0.30 the held-out C++ engines need (TensorRT-LLM is more compute-efficient than the Python engines on the
/// same GPUs, not the same); and at 0.6 the split fit turns unstable (Hopper 0.26 at 40 µs per sequence, 0.33 at
/// 30 or 50; Ampere 0.49 → 0.58) and the front end's CV wants 0.75. Left at 0.75 again; a user who knows their own
/// traffic's spread sets the workload's `spread`.
pub const SHAREGPT_SPREAD: f64 = 0.75;

/// `key=value` from a row's notes.
pub fn note(row: &HashMap<String, String>, key: &str) -> Option<f64> {
    let notes = &row["notes"];
    let i = notes.find(&format!("{key}="))?;
    notes[i + key.len() + 1..].split(|c: char| c == ';' || c == ',' || c.is_whitespace()).next()?.parse().ok()
}

/// A server flag's value from the notes (`max-num-seqs=512`, `--max-num-seqs 512`).
pub fn flag(row: &HashMap<String, String>, name: &str) -> Option<f64> {
    let notes = &row["notes"];
    let i = notes.find(name)?;
    notes[i + name.len()..].trim_start_matches(['=', ' ']).split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

/// A decimal setting from the notes (`burstiness 0.7`, `--random-range-ratio 0.9`, `gpu_memory_utilization=0.90`).
pub fn setting(row: &HashMap<String, String>, name: &str) -> Option<f64> {
    let notes = &row["notes"];
    let i = notes.find(name)?;
    notes[i + name.len()..]
        .trim_start_matches(['=', ' '])
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .next()?
        .trim_end_matches('.')
        .parse()
        .ok()
}

/// The short name of a row's source (repository or site).
pub fn source(row: &HashMap<String, String>) -> String {
    let s = row["source"].trim_start_matches("github:").trim_start_matches("https://").trim_start_matches("page: ");
    s.split([' ', '/']).take(if row["source"].starts_with("github:") { 2 } else { 1 }).collect::<Vec<_>>().join("/")
}

pub fn engine_id(e: &str) -> Option<&'static str> {
    Some(if e.starts_with("vLLM") {
        "vllm"
    } else if e.starts_with("SGLang") {
        "sglang"
    } else if e.starts_with("TensorRT") {
        "tensorrt-llm"
    } else if e.starts_with("LMDeploy") {
        "lmdeploy"
    } else if e.starts_with("TGI") {
        "generic"
    } else {
        return None;
    })
}

/// How a run's command line deploys attention.
enum DpAttention {
    /// Tensor parallel (or no DP attention at all).
    Off,
    /// Data-parallel attention over `n` ranks, one device each (the page's `dp-attention`).
    Whole(u32),
    /// Data parallelism of another kind (replicas, or attention ranks of several devices).
    Other,
}

/// The run's DP attention from its server command. SGLang's `--enable-dp-attention` set the DP size to the TP size
/// up to 0.4.3 (`server_args.py`: `if self.enable_dp_attention: self.dp_size = self.tp_size`); from 0.4.4
/// (sgl-project/sglang#4390, "Now you need to explicitly specify `--dp` and `--tp`") the size is `--dp`'s, and
/// without it (1) `_handle_data_parallelism` turns the flag off: GPUStack's 0.5.3 runs with the flag alone ran
/// plain TP8. vLLM's `-dp N --enable-expert-parallel` (tensor parallel 1) is the same deployment.
fn dp_attention(row: &HashMap<String, String>, notes: &str) -> DpAttention {
    let size = ["--dp-size ", "--dp ", "-dp ", "--data-parallel-size "].iter().find_map(|f| {
        let at = notes.find(f)? + f.len();
        notes[at..].split(|c: char| !c.is_ascii_digit()).next()?.parse::<u32>().ok()
    });
    let tp = num(row, "tp").unwrap_or(1.0) as u32;
    let v = row["engine_version"].trim_start_matches('v');
    let mut parts = v.split(|c: char| !c.is_ascii_digit()).filter(|p| !p.is_empty()).map(|p| p.parse::<u32>().unwrap_or(0));
    let version = (parts.next().unwrap_or(0), parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    let sglang = row["engine"].starts_with("SGLang");
    let flag = notes.contains("enable-dp-attention");
    let size = match size {
        Some(n) => n,
        None if sglang && flag && version <= (0, 4, 3) => tp,
        None => 1,
    };
    if size <= 1 {
        DpAttention::Off
    } else if (sglang && flag && size == tp) || (notes.contains("enable-expert-parallel") && tp == 1) {
        DpAttention::Whole(size)
    } else {
        DpAttention::Other
    }
}

/// One served run stated as a scenario, or why it cannot be.
#[derive(Clone)]
pub struct Run {
    pub id: String,
    pub source: String,
    pub load_type: String,
    pub moe: bool,
    pub engine: String,
    pub scenario: Scenario,
    pub offline: bool,
}

pub fn run_of(row: &HashMap<String, String>) -> Result<Run, &'static str> {
    // A fine-tune listed with the base model whose shape it has ("… (shape joined from Mistral-7B-v0.1)") takes
    // that model's preset.
    let name = row["model"].split("(shape joined from ").nth(1).map_or(row["model"].as_str(), |s| s.trim_end_matches(')'));
    let model = presets::models::MODELS.iter().find(|m| m.name == name).ok_or("model without a preset shape")?;
    if row["hardware_key"].starts_with("other:") {
        return Err("GPU variant not stated");
    }
    if row["notes"].starts_with("INCONSISTENT") {
        return Err("the source's own figures disagree");
    }
    if row["notes"].starts_with("AVERAGED") {
        return Err("percentiles averaged over repeats (not one run's)");
    }
    let notes = row["notes"].to_ascii_lowercase();
    if ["eagle", "mtp", "speculative"].iter().any(|w| notes.contains(w)) {
        return Err("speculative decoding (not modelled)");
    }
    let tp = num(row, "tp").unwrap_or(1.0);
    let pp = num(row, "pp").unwrap_or(1.0);
    let devices = num(row, "n_devices").unwrap_or(tp * pp);
    let (devices, dp_attention) = match dp_attention(row, &notes) {
        DpAttention::Off if (devices - tp * pp).abs() > 0.5 => return Err("data-parallel replicas or DP attention (not modelled)"),
        DpAttention::Off => (devices, false),
        // One device per attention rank: SGLang's --tp N --dp N, vLLM's -dp N with tensor parallel 1.
        DpAttention::Whole(n) if pp <= 1.0 && ((f64::from(n) - tp).abs() < 0.5 || (tp - 1.0).abs() < 0.5) => (f64::from(n), true),
        _ => return Err("data-parallel replicas or DP attention (not modelled)"),
    };
    let engine = engine_id(&row["engine"]).ok_or("engine not modelled")?;
    let requests = num(row, "num_requests").or_else(|| note(row, "successful_requests")).unwrap_or(1000.0);
    let done = note(row, "successful_requests").or_else(|| note(row, "completed")).unwrap_or(requests);
    // The output length a run configured is a cap when the benchmark stops at the end-of-sequence token: when the
    // source prints its request throughput, output tok/s ÷ requests/s is the mean it served (a blog's RTX 4090
    // sweep: 100 of 128 at every concurrency). Below 90 % of the configured length, that mean is the length, and
    // the lengths vary up to the cap: uniform within ± (cap − mean) ÷ mean, the least the two figures say (the
    // prompts take the same spread: the scenario has one distribution).
    let served_output = num(row, "output_tok_s_system").zip(note(row, "Req/s").or_else(|| note(row, "request_throughput_req_s"))).map(|(o, r)| o / r);
    let capped = num(row, "output_len").zip(served_output).filter(|(cap, s)| *s < 0.9 * cap).map(|(cap, s)| (s, cap / s - 1.0));
    let fixed = num(row, "input_len").zip(num(row, "output_len")).map(|(i, o)| (i, capped.map_or(o, |c| c.0)));
    // `vllm bench serve --random-range-ratio r` (since vLLM 0.8.5, April 2025; r < 1) draws each length uniformly
    // within ± r of the configured one; earlier releases' ratio 1 meant fixed lengths (every row with r < 1 is a
    // current vLLM run; SGLang's `bench_serving` draws from [r · L, L] and is not read this way).
    let stated_range = setting(row, "random-range-ratio").filter(|r| *r > 0.0 && *r < 1.0);
    // SGLang's `bench_serving --dataset-name random` without `--random-range-ratio` draws every length uniformly
    // from 1 to the configured one (its default ratio is 0: `randint(max(L · r, 1), L + 1)`), so the mean is half
    // of it (the cookbook's 1,000-token runs total 496 per request): uniform within ± 1 × the mean, not ShareGPT's
    // lognormal the reader takes for lengths it is not told: a range of ± 1.
    let sglang_uniform = fixed.is_none()
        && stated_range.is_none()
        && (row["dataset"].contains("uniformly up to")
            || (row["notes"].contains("sglang.bench_serving")
                && row["notes"].contains("--dataset-name random")
                && !row["notes"].contains("range-ratio")));
    let range = stated_range.or(sglang_uniform.then_some(1.0));
    let (prompt, output) = match fixed {
        Some(l) => l,
        None => {
            let i = note(row, "total_input_tokens").ok_or("lengths not given")?;
            let o = note(row, "total_generated_tokens").or_else(|| note(row, "total_output_tokens")).ok_or("lengths not given")?;
            (i / done.max(1.0), o / done.max(1.0))
        }
    };
    if prompt < 1.0 || output < 2.0 {
        return Err("lengths not given");
    }
    let load_type = row["load_type"].clone();
    let (load, offline) = if load_type.starts_with("closed") {
        (LoadSpec { concurrency: Some(vec![num(row, "batch_or_concurrency").ok_or("no concurrency")?]), ..Default::default() }, false)
    } else if load_type.starts_with("open") {
        let rate = num(row, "request_rate_qps").ok_or("no rate")?;
        // A client cap (`--max-concurrency`) that held the run below its rate makes it neither open nor closed loop
        // (DGX Spark at 1.5 req/s capped at 25: 0.61 req/s served, the rest waited in the client).
        let notes = &row["notes"];
        let cap = ["max-concurrency", "max_concurrency"]
            .iter()
            .flat_map(|name| notes.match_indices(name).map(move |(i, _)| &notes[i + name.len()..]))
            .find_map(|rest| {
                let rest = rest.trim_start_matches(['=', ' ']);
                rest.strip_prefix("cap ").unwrap_or(rest).split(|c: char| !c.is_ascii_digit()).next()?.parse::<f64>().ok()
            });
        let served = note(row, "request_throughput_req_s").or_else(|| note(row, "Req/s"));
        if cap.is_some() && served.is_some_and(|s| s < 0.9 * rate) {
            return Err("open loop held back by a client concurrency cap");
        }
        (LoadSpec { request_rate: Some(vec![rate]), ..Default::default() }, false)
    } else {
        (LoadSpec { offline: Some(true), ..Default::default() }, true)
    };
    let wf = row["weight_format"].to_ascii_lowercase();
    let weights = if wf.starts_with("fp8") {
        "fp8"
    } else if wf.starts_with("mxfp4") {
        "mxfp4"
    } else if wf.starts_with("awq") {
        "awq"
    } else if wf.starts_with("bf16") || wf.starts_with("fp16") || wf.starts_with("not stated (unquantized") {
        "bf16"
    } else {
        return Err("weight format not modelled");
    };
    let kv = row["kv_cache_dtype"].to_ascii_lowercase();
    let kv = if kv.starts_with("fp8") { Some("fp8".to_string()) } else { None };
    let scenario = Scenario {
        version: Some(1),
        hardware: HardwareSpec {
            preset: Some(row["hardware_key"].clone()),
            devices: Some(devices as u32),
            parallelism: dp_attention.then_some(tps_planner::model::hardware::Parallelism::DpAttention),
            ..Default::default()
        },
        model: ModelSpec { preset: Some(model.id.to_string()), ..Default::default() },
        quantization: QuantSpec { weights: Some(weights.into()), kv_cache: kv, ..Default::default() },
        engine: EngineSpec {
            preset: Some(engine.into()),
            backend: row["engine"].contains("ROCm").then(|| "rocm".to_string()),
            max_batch: flag(row, "max-num-seqs").map(|v| v as u32),
            max_batched_tokens: flag(row, "max-num-batched-tokens").map(|v| v as u32),
            // The share of memory the run gave the engine, where its notes state it (0.9 / 0.88 otherwise).
            memory_utilization: ["gpu-memory-utilization", "gpu_memory_utilization", "mem-fraction-static", "mem_fraction_static"]
                .iter()
                .find_map(|name| setting(row, name))
                .filter(|m| *m > 0.0 && *m <= 1.0),
            // Eager mode (`--enforce-eager`): no CUDA graphs for decode steps either.
            cuda_graphs: (notes.contains("eager mode")
                || (notes.contains("--enforce-eager") && !notes.contains("no --enforce-eager"))
                || notes.contains("--disable-cuda-graph"))
            .then_some(false),
            mixed_batches: v0_prompts_first(row).then_some(false),
            ..Default::default()
        },
        workload: WorkloadSpec {
            prompt_tokens: Some(prompt.round()),
            output_tokens: Some(output.round().max(2.0)),
            distribution: Some(match (fixed, capped, range) {
                (_, _, Some(_)) | (Some(_), Some(_), None) => Distribution::Uniform,
                (Some(_), None, None) => Distribution::Fixed,
                (None, _, None) => Distribution::Lognormal,
            }),
            spread: match (fixed, capped, range) {
                (_, _, Some(r)) => Some(r),
                (Some(_), None, None) => None,
                (Some(_), Some((_, spread)), None) => Some(spread),
                (None, _, None) => Some(SHAREGPT_SPREAD),
            },
            // Gamma arrivals of a stated shape (`--burstiness`; 1 = Poisson).
            burstiness: setting(row, "burstiness"),
            // A source that repeats prompts through a prefix cache states the share its cache held.
            prefix_cache_hit_rate: note(row, "prefix_cache_hit_rate"),
            load: Some(load),
            // What the benchmark ran: its requests from an empty server, all measured (not a steady state).
            requests: Some(requests.max(10.0) as u32),
            benchmark_run: Some(true),
            ..Default::default()
        },
        ..Default::default()
    };
    Ok(Run { id: row["id"].clone(), source: source(row), load_type, moe: model.moe.experts > 0, engine: engine.into(), scenario, offline })
}

/// The serving front end's per-request time, fitted per engine: over the low-load served runs (at most 8
/// requests in flight: closed loop ≤ 8 users, or open loop with rate × E2E ≤ 8, where queueing is small) whose decode speed the model gets right (TPOT P50 within 25 %:
/// there the TTFT residual is the front end, not kernels slower than modelled — early-2025 DeepSeek-R1 runs
/// decode 3× slower than the model and their TTFT residual is seconds), of current engine releases, the median of
/// measured TTFT P50 − the model's TTFT P50 without a front end, at least 0. Runs of `exclude`d sources (by [`source`]) are left out (leave-one-source-out).
/// Returns (engine id, ms, runs) for each engine with runs.
pub fn fit_request_overhead(exclude: Option<&str>) -> Vec<(String, f64, usize)> {
    let mut by_engine: HashMap<String, Vec<f64>> = HashMap::new();
    for row in served_rows() {
        let Ok(mut run) = run_of(&row) else { continue };
        // Current releases only: the defaults describe those (an SGLang 0.4.0 run at 1 req/s had passed the filters).
        if exclude == Some(run.source.as_str()) || run.offline || !ttft_informative(&row) || !current_engine(&row) {
            continue;
        }
        // Low load: at most 8 requests in flight (closed loop: the users; open loop: rate × E2E, Little's law).
        let in_flight = if run.load_type.starts_with("closed") {
            num(&row, "batch_or_concurrency")
        } else {
            let e2e = num(&row, "e2e_latency_ms_mean").or_else(|| {
                let out = run.scenario.workload.output_tokens?;
                Some(num(&row, "ttft_ms_mean")? + out * num(&row, "tpot_or_itl_ms_mean")?)
            });
            num(&row, "request_rate_qps").zip(e2e).map(|(r, e)| r * e / 1e3)
        };
        if in_flight.is_none_or(|n| n > 8.0) {
            continue;
        }
        let (Some(measured), Some(tpot)) = (num(&row, "ttft_ms_p50"), num(&row, "tpot_or_itl_ms_p50")) else { continue };
        run.scenario.engine.request_overhead_ms = Some(0.0);
        let Ok(r) = tps_planner::plan::evaluate(&run.scenario) else { continue };
        if !r.memory.fits || (r.sweep[0].tpot_ms.p50 / tpot - 1.0).abs() > 0.25 {
            continue;
        }
        by_engine.entry(run.engine.clone()).or_default().push(measured - r.sweep[0].ttft_ms.p50);
    }
    // The median of the pooled runs. Tried 2026-12-06 and not kept: each source weighing once (the median over sources
    // of each one's median), as the spread's fit does (`fit_request_overhead_cv`) — an engine has two to four sources
    // here, so that is the median of two to four numbers: SGLang's 14.0 → 17.2 ms and, held out, the served TTFT mean /
    // P50 / P99 47.3 / 43.2 / 50.0 → 47.8 / 44.0 / 50.9 %. (vLLM's fit is 5.9 ms either way.)
    let mut out: Vec<(String, f64, usize)> = by_engine
        .into_iter()
        .map(|(e, mut v)| {
            v.sort_by(f64::total_cmp);
            (e, v[v.len() / 2].max(0.0), v.len())
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// vLLM's and SGLang's compute efficiency of one reference generation (Ampere or Hopper), fitted on the served
/// runs of every device that takes that generation's efficiency (its own, and the other generations' devices its
/// machine balance sends to it: [`served_reference_of`], as the product does) with current engine releases (the defaults describe those; see [`current_engine`]) whose throughput is the
/// server's capacity (offline and closed-loop runs; an open loop's is its offered load) (output tok/s): the η_fl in 0.10–0.80 (steps of 0.01) with the smallest median |log error|
/// (the median, not the mean: a few runs of immature kernels — gpt-oss on SGLang's A100 path, 10–24 × slower
/// than every other engine on the same GPU — would otherwise pull the whole generation down).
/// Runs of an `exclude`d source are left out; `None` when no run is left.
///
/// Only runs that can tell the efficiency apart count: the model's throughput at 1.5 × the generation's default
/// η_fl at least 1.1 × that at 0.5 × (decode-bound runs — short prompts, or small batches on large GPUs — are flat
/// in η_fl and would only add noise to the median: with them, one source's three short-prompt A100 runs pulled a
/// held-out Ampere fit to 0.25).
///
/// Until 2026-12-03 the fit took the generation's own devices only, and every Hopper run and all but one Ampere
/// run came from one source (GPUStack's H100/H200 and A100), so the balance rule was never tested. Pooled by
/// reference, 45 informative Hopper-class runs fit 0.27: GPUStack's 30 H100/H200 runs fit about that, and the
/// other sources' 7 (SGLang's cookbook on 8 × B200/MI300X, vLLM's recipes on one MI355X: large MoE and 8k-prompt
/// runs) fit 0.5 — the rule's Hopper value is not confirmed across sources, and leave-one-source-out now shows it
/// (a held-out GPUStack takes 0.5 and its H100 throughput comes out 1.3–3 × too high).
pub fn fit_served_compute(arch: tps_planner::model::hardware::Architecture, exclude: Option<&str>) -> Option<(f64, usize)> {
    fit_served_compute_with(arch, exclude, None)
}

/// [`fit_served_compute`] with the engines' cost per running sequence set to `sequence_us` (`None`: the default).
/// With `Some(0.0)` it is the flat efficiency the served runs fit when that cost is not modelled apart — the prior
/// a held-out engine without such a cost of its own took until 2026-12-04 ([`held_out_cpp_compute`]).
pub fn fit_served_compute_with(
    arch: tps_planner::model::hardware::Architecture,
    exclude: Option<&str>,
    sequence_us: Option<f64>,
) -> Option<(f64, usize)> {
    let default = tps_planner::presets::engines::served_compute(arch, None);
    let mut runs = Vec::new();
    for row in served_rows() {
        let Ok(run) = run_of(&row) else { continue };
        if exclude == Some(run.source.as_str()) || !(run.engine == "vllm" || run.engine == "sglang") || !current_engine(&row) {
            continue;
        }
        // Open-loop throughput is the offered load unless the server saturates: it says nothing about compute.
        if run.load_type.starts_with("open") {
            continue;
        }
        if served_reference_of(&row["hardware_key"]) != arch {
            continue;
        }
        let Some(m) = num(&row, "output_tok_s_system") else { continue };
        // A run whose throughput the compute efficiency barely moves (decode-bound: short prompts, small batches)
        // cannot tell it apart, and in a median it only adds noise: it needs 10 % across half to one and a half
        // times the generation's default (where the answer lies: a step is the slower of its reads and its FLOPs,
        // so a fixed window above Hopper's 0.26 would drop the runs that are compute-bound only below it).
        let at = |eta: f64| throughput_at(&run, eta, sequence_us);
        let (slow, fast) = (at((0.5 * default).max(0.1)), at((1.5 * default).min(0.8)));
        if !(slow > 0.0 && fast / slow >= 1.1) {
            continue;
        }
        runs.push((run, m));
    }
    if runs.is_empty() {
        return None;
    }
    let mut best = (f64::INFINITY, 0.5);
    for step in 0..=70 {
        let eta = 0.10 + 0.01 * f64::from(step);
        let mut errs = Vec::new();
        for (run, m) in &runs {
            let p = throughput_at(run, eta, sequence_us);
            if p > 0.0 {
                errs.push((p / m).ln().abs());
            }
        }
        errs.sort_by(f64::total_cmp);
        if let Some(&med) = errs.get(errs.len() / 2) {
            if med < best.0 {
                best = (med, eta);
            }
        }
    }
    Some((best.1, runs.len()))
}

/// A run's predicted output tok/s with compute efficiency `eta` and the per-sequence cost `sequence_us` (`None`:
/// the default); 0 when it cannot be evaluated or does not fit.
fn throughput_at(run: &Run, eta: f64, sequence_us: Option<f64>) -> f64 {
    let mut s = run.scenario.clone();
    s.engine.compute_efficiency = Some(eta);
    s.engine.sequence_overhead_us = sequence_us;
    tps_planner::plan::evaluate(&s).ok().filter(|r| r.memory.fits).map_or(0.0, |r| r.sweep[0].system_tps)
}

/// The fitted generation (Ampere or Hopper) whose served compute efficiency a device of `hardware_key` takes
/// (`presets::engines::served_reference`, by its machine balance).
pub fn served_reference_of(hardware_key: &str) -> tps_planner::model::hardware::Architecture {
    tps_planner::presets::engines::served_reference(tps_planner::presets::hardware::architecture(hardware_key), super::balance_of(hardware_key))
}

/// The prior of a held-out TensorRT-LLM or LMDeploy source in the batched validation: the served compute
/// efficiency of its device's reference generation as vLLM's and SGLang's served runs fit it with their cost per
/// running sequence apart (`presets::engines::served_compute`) — the kernels' share of the tensor peak. The model
/// gives those C++ engines no per-sequence cost (their schedulers do not pay the Python engines' per-sequence
/// host work), so they take the efficiency without it.
///
/// Until 2026-12-04 they took the flat efficiency the served runs fit with no per-sequence cost at all (0.51 / 0.32,
/// which folds that cost into the kernels): when SGLang's cookbook runs were read with the uniform random lengths
/// its `bench_serving` draws, that flat fit fell to 0.51 / 0.28 and the batched leave-one-source-out went
/// 16.0 / 38.1 → 17.4 / 40.8 % (TensorRT-LLM's offline rows 19.8 / 41.8 %) — a prior moving with the Python
/// engines' length model, which it should not. With the split efficiency (0.52 / 0.33 then) it is 15.2 / 38.5 %
/// (TensorRT-LLM 16.9 / 38.0 %). The split efficiency had been tried once before and rejected (2026-12-02: then
/// 0.26 on Hopper, TensorRT-LLM 20.2 / 40.6 → 21.5 / 46.2 %), before prompt steps paid their eager launch chain
/// and Ampere's and Hopper's served fits took their present values.
pub fn held_out_cpp_compute(reference: tps_planner::model::hardware::Architecture) -> f64 {
    tps_planner::presets::engines::served_compute(reference, None)
}

/// Whether a vLLM run's V0 engine (releases before 0.8) read prompts in steps of their own, the decodes waiting
/// (`engine.mixed_batches: false`): V0 turned chunked prefill on by itself only above 32k tokens of context
/// (`--max-model-len`), and without it its scheduler ran waiting prompts first. Taken where the run states a
/// `--max-model-len` of at most 32,768 and no chunked prefill; a run that does not state its context length keeps
/// the default (its model's own context may be longer, and chunked prefill then on).
pub fn v0_prompts_first(row: &HashMap<String, String>) -> bool {
    let notes = row["notes"].to_ascii_lowercase();
    let context = ["--max-model-len ", "--max-model-len=", "max_model_len="].iter().find_map(|flag| {
        let at = notes.find(flag)? + flag.len();
        notes[at..].split(|c: char| !c.is_ascii_digit()).next()?.parse::<u32>().ok()
    });
    row["engine"].starts_with("vLLM") && !current_engine(row) && !notes.contains("chunked") && context.is_some_and(|n| n <= 32_768)
}

/// Whether a run used a current engine release — vLLM ≥ 0.8 (the V1 engine), SGLang ≥ 0.5, TensorRT-LLM ≥ 1.0
/// — the software the model's defaults describe. Older releases (vLLM's V0 engine, SGLang 0.4, TensorRT-LLM
/// 0.17, 2024 TGI and LMDeploy) ran the same models markedly slower (early-2025 DeepSeek-R1 decoded 3 × slower
/// on H200 than late-2025 SGLang does); their rows are scored, and printed apart.
pub fn current_engine(row: &HashMap<String, String>) -> bool {
    let v = row["engine_version"].trim_start_matches('v');
    let mut parts = v.split(|c: char| !c.is_ascii_digit()).filter(|p| !p.is_empty()).map(|p| p.parse::<u32>().unwrap_or(0));
    let (major, minor) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    let e = &row["engine"];
    if e.starts_with("vLLM") {
        major > 0 || minor >= 8
    } else if e.starts_with("SGLang") {
        major > 0 || minor >= 5
    } else if e.starts_with("TensorRT") {
        major >= 1
    } else {
        false
    }
}

/// The front-end time's coefficient of variation (`presets::engines::REQUEST_OVERHEAD_CV`), fitted on the same
/// low-load served runs as [`fit_request_overhead`] (closed loop ≤ 8 users or open loop at a rate the model does
/// not saturate, decode within 25 %): the CV in 0–2 (steps of 0.05) with the smallest mean over sources of each
/// source's median |log error| of TTFT
/// P99. Runs of an `exclude`d source are left out.
pub fn fit_request_overhead_cv(exclude: Option<&str>) -> f64 {
    let mut runs = Vec::new();
    for row in served_rows() {
        let Ok(run) = run_of(&row) else { continue };
        if exclude == Some(run.source.as_str()) || run.offline || !ttft_informative(&row) {
            continue;
        }
        if run.load_type.starts_with("closed") && num(&row, "batch_or_concurrency").is_none_or(|c| c > 8.0) {
            continue;
        }
        let (Some(p99), Some(tpot)) = (num(&row, "ttft_ms_p99"), num(&row, "tpot_or_itl_ms_p50")) else { continue };
        let Ok(r) = tps_planner::plan::evaluate(&run.scenario) else { continue };
        if !r.memory.fits || r.sweep[0].saturated || (r.sweep[0].tpot_ms.p50 / tpot - 1.0).abs() > 0.25 {
            continue;
        }
        runs.push((run, p99));
    }
    let mut best = (f64::INFINITY, 0.0);
    for step in 0..=40 {
        let cv = 0.05 * f64::from(step);
        // Each source weighs once: the mean over sources of each one's median |log error| (the median of the pooled
        // runs let one source's eight runs move the fit from 1.05 to 0.55 on 2026-12-06, where this mean gives
        // 0.95 with them and without: the pooled median is flat within 0.31–0.38 from 0.45 to 1.25).
        let mut by_source: HashMap<&str, Vec<f64>> = HashMap::new();
        for (run, m) in &runs {
            let mut s = run.scenario.clone();
            s.engine.request_overhead_cv = Some(cv);
            if let Ok(r) = tps_planner::plan::evaluate(&s) {
                by_source.entry(run.source.as_str()).or_default().push((r.sweep[0].ttft_ms.p99 / m).ln().abs());
            }
        }
        if by_source.is_empty() {
            continue;
        }
        let sources = by_source.len() as f64;
        let score = by_source.into_values().filter_map(|mut v| tps_planner::sorting::median(&mut v)).sum::<f64>() / sources;
        if score < best.0 - 1e-9 {
            best = (score, cv);
        }
    }
    best.1
}

/// Every served run: the shared data set's (tests/data/serving.csv) and those TPS Planner added from other
/// sources (tests/data/serving_new.csv, serving_added.csv, serving_more.csv, serving_rocm.csv, serving_found.csv; same
/// columns).
pub fn served_rows() -> Vec<HashMap<String, String>> {
    let mut rows = super::read_csv("tests/data/serving.csv");
    rows.extend(super::read_csv("tests/data/serving_new.csv"));
    rows.extend(super::read_csv("tests/data/serving_added.csv"));
    rows.extend(super::read_csv("tests/data/serving_more.csv"));
    rows.extend(super::read_csv("tests/data/serving_rocm.csv"));
    rows.extend(super::read_csv("tests/data/serving_found.csv"));
    rows
}

/// Whether a run's low-load TTFT can inform the front-end fits: not a tensor-parallel run over PCIe, whose TTFT at
/// low load the source itself flags (vLLM 0.8.5 on 2–8 × RTX 4090: seconds at 1 req/s, 50–150 ms at 8–16 req/s,
/// TPOT normal; runs in order 32 → 1 req/s, so not a warm-up) and the model does not cover. Those runs stay in
/// the validation.
pub fn ttft_informative(row: &HashMap<String, String>) -> bool {
    let multi = num(row, "tp").unwrap_or(1.0) > 1.0 || num(row, "n_devices").unwrap_or(1.0) > 1.0;
    let pcie = tps_planner::presets::hardware::find(&row["hardware_key"]).is_some_and(|h| h.interconnect_gbps < 100.0);
    !(row["notes"].contains("CAUTION") || multi && pcie)
}
