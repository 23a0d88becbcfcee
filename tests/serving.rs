//! Validation against served runs (tests/data/serving.csv: `vllm bench serve` / `benchmark_serving.py` /
//! SGLang `bench_serving` style runs of vLLM, SGLang, TensorRT-LLM, TGI and LMDeploy on H100/H200/A100/MI300X/
//! B200/RTX 3090, plus serving_new.csv and serving_added.csv; sources in tests/data/README.md). Some defaults are
//! fitted on these rows (the front end's time and its variability, vLLM's and SGLang's compute efficiency per
//! generation, the PCIe all-reduce latency: tests/fit.rs), so the figure to believe is the leave-one-source-out
//! table, where each of those is refitted without the scored run's source (or, where only that source measures
//! it, replaced by a stated prior). The serving engines' kernel chain (`model::kernels`) was looked for after
//! SGLang's own 8-GPU runs showed its gap: those rows are not a blind test of it.
//!
//! Each row becomes a scenario the way a user would state it: the hardware and model presets, the weight
//! format, the engine (with the `max-num-seqs` / `max-num-batched-tokens` the run's serving script states), the
//! run's mean lengths (ShareGPT runs: total tokens ÷ requests, lengths lognormal — see [`SHAREGPT_SPREAD`]) and
//! its load (closed-loop concurrency, Poisson request rate, or every request at once). Rows the model cannot
//! state are skipped and counted by reason: models without a preset shape, a GPU whose variant the source does
//! not name, data-parallel replicas (DP attention with one device per attention rank is stated as
//! `hardware.parallelism: "dp-attention"`), speculative decoding.

mod common;
use common::serving::run_of;
use common::*;
use std::collections::HashMap;
use tps_planner::import::{Kind, Measurement};
use tps_planner::model::hardware::Architecture;
use tps_planner::percentiles::Measured;
use tps_planner::plan;

/// Every scored figure of every run the model can state, and the skipped rows by reason. With `held_out`,
/// each run is predicted with the parameters fitted on served runs (the front end's per-request time and its
/// variability, vLLM's and
/// SGLang's compute efficiency per GPU generation) refitted without the run's own source: leave-one-source-out.
fn serving_cases(held_out: bool) -> (Vec<Case>, Vec<(String, usize)>) {
    let (runs, mut skipped) = served_runs(held_out);
    let mut cases = Vec::new();
    for (row, run) in &runs {
        match score(row, run) {
            Some(c) => cases.extend(c),
            None => *skipped.entry("does not fit by the model's memory accounting".into()).or_default() += 1,
        }
    }
    let mut skipped: Vec<(String, usize)> = skipped.into_iter().collect();
    skipped.sort();
    (cases, skipped)
}

/// A served row and the run stated from it.
type RowRun = (HashMap<String, String>, common::serving::Run);

/// Every served row the model can state, as a scenario (with `held_out`, the fitted parameters refitted without
/// the row's source), and the skipped rows by reason.
fn served_runs(held_out: bool) -> (Vec<RowRun>, HashMap<String, usize>) {
    let mut out = Vec::new();
    let mut skipped: HashMap<String, usize> = HashMap::new();
    let mut fits: HashMap<String, Vec<(String, f64, usize)>> = HashMap::new();
    let mut compute_fits: HashMap<(String, Architecture), f64> = HashMap::new();
    let mut cv_fits: HashMap<String, f64> = HashMap::new();
    for row in common::serving::served_rows() {
        let mut run = match run_of(&row) {
            Ok(r) => r,
            Err(why) => {
                *skipped.entry(why.into()).or_default() += 1;
                continue;
            }
        };
        if held_out {
            let fit = fits.entry(run.source.clone()).or_insert_with(|| common::serving::fit_request_overhead(Some(&run.source)));
            // An engine without runs in the other sources takes the mean of the engines that have some.
            let mean = fit.iter().map(|f| f.1).sum::<f64>() / fit.len().max(1) as f64;
            run.scenario.engine.request_overhead_ms = Some(fit.iter().find(|f| f.0 == run.engine).map_or(mean, |f| f.1));
            let cv = *cv_fits.entry(run.source.clone()).or_insert_with(|| common::serving::fit_request_overhead_cv(Some(&run.source)));
            run.scenario.engine.request_overhead_cv = Some(cv);
            // The consumer-GPU PCIe all-reduce's latency was fitted on one source's tensor-parallel runs
            // (tests/fit.rs): those runs take the documented prior instead, what nccl-tests measures for a small
            // host-staged all-reduce on 8 × RTX 4090 (43 µs, at every device count), at the documented share of the
            // link (NCCL's rating, 24 of 32 GB/s, crossed twice: the model's own, which is not fitted). Until
            // 2026-12 the prior was the P2P boards' 25 µs at the link's full bandwidth: TPOT mean / P50 / P99
            // 19.2 / 19.7 / 38.6 % held out, against 17.2 / 17.3 / 30.1 % with the documented figures.
            if run.source == PCIE_ALLREDUCE_SOURCE && run.scenario.hardware.devices.unwrap_or(1) > 1 {
                run.scenario.hardware.allreduce_us = Some(tps_planner::model::roofline::PCIE_HOST_STAGED_NCCL_TESTS_LATENCY_S * 1e6);
            }
            // vLLM's and SGLang's compute efficiency per reference generation, refitted without the run's source
            // on every device of that reference (other generations join the one their machine balance points to,
            // `served_reference`, in the fit as in the product). A reference left without runs takes the old flat
            // prior, 0.5.
            let reference = common::serving::served_reference_of(&row["hardware_key"]);
            if run.engine == "vllm" || run.engine == "sglang" {
                let eta = *compute_fits
                    .entry((run.source.clone(), reference))
                    .or_insert_with(|| common::serving::fit_served_compute(reference, Some(&run.source)).map_or(0.5, |f| f.0));
                run.scenario.engine.compute_efficiency = Some(eta);
            }
        }
        // TPS_VALIDATION_SCENARIO=<row id>[,<row id>...] writes those rows' scenarios to the temp directory (for `tps eval`).
        if std::env::var("TPS_VALIDATION_SCENARIO").is_ok_and(|v| v.split(',').any(|id| id == run.id)) {
            let path = std::env::temp_dir().join(format!("{}.json", run.id));
            std::fs::write(&path, serde_json::to_string_pretty(&run.scenario).unwrap()).unwrap();
            println!("scenario of {} written to {}", run.id, path.display());
        }
        out.push((row, run));
    }
    (out, skipped)
}

/// The scored figures of one run (`None`: it does not fit by the model's memory accounting).
fn score(row: &HashMap<String, String>, run: &common::serving::Run) -> Option<Vec<Case>> {
    let report = match plan::evaluate(&run.scenario) {
        Ok(r) => r,
        Err(e) => panic!("{}: {e}", run.id),
    };
    if !report.memory.fits {
        return None;
    }
    let mut cases = Vec::new();
    let class = format!("{} {}", if run.moe { "MoE" } else { "dense" }, run.engine);
    // The latency class by the page's own rule (`plan::band`: consumer GPUs split over PCIe, no peer-to-peer),
    // so the bands' data and the page cannot disagree; a run the source flags (CAUTION: one slow warm-up request)
    // on any other deployment keeps its class and is set apart from the informative runs' table only.
    let pcie = report.band.latency_class == plan::LATENCY_PCIE_TP.name;
    let era = match (common::serving::current_engine(row), pcie, common::serving::ttft_informative(row)) {
        (false, _, _) => "older",
        (true, true, _) => "current, PCIe TP",
        (true, false, true) => "current",
        (true, false, false) => "current, flagged",
    };
    // One slow first request (a warm-up) dominates a short run's mean and P99 TTFT and its duration: only its
    // medians say what the server does (the collector flags it CAUTION).
    let warm_up = row["notes"].contains("CAUTION: TTFT mean/P99 dominated by one slow request");
    let mut push = |metric: &'static str, predicted: f64, col: &str| {
        if warm_up && !metric.ends_with("P50") {
            return;
        }
        if let Some(measured) = num(row, col).filter(|m| *m > 0.0) {
            if predicted.is_finite() && predicted > 0.0 {
                let load = run.load_type.split_whitespace().next().unwrap_or("").to_string();
                cases.push(Case {
                    id: run.id.clone(),
                    source: format!("{}|{load}|{class}", run.source),
                    kind: era.into(),
                    metric,
                    predicted,
                    measured,
                });
            }
        }
    };
    let p = &report.sweep[0];
    push("output tok/s", p.system_tps, "output_tok_s_system");
    push("TTFT mean", p.ttft_ms.mean, "ttft_ms_mean");
    push("TTFT P50", p.ttft_ms.p50, "ttft_ms_p50");
    push("TTFT P99", p.ttft_ms.p99, "ttft_ms_p99");
    push("TPOT mean", p.tpot_ms.mean, "tpot_or_itl_ms_mean");
    push("TPOT P50", p.tpot_ms.p50, "tpot_or_itl_ms_p50");
    push("TPOT P99", p.tpot_ms.p99, "tpot_or_itl_ms_p99");
    Some(cases)
}

/// The source the PCIe all-reduce latency is fitted on (`tests/fit.rs`, `pcie_allreduce_latency_matches_the_fit`).
const PCIE_ALLREDUCE_SOURCE: &str = "IOG-Foundation/llm-inference-benchmarks";

/// Median and p90 |error| per metric, one line each.
fn summary(title: &str, cases: &[Case]) -> Vec<(&'static str, f64, f64)> {
    println!("{title}");
    println!("  {:<14} {:>5} {:>9} {:>9} {:>9}", "metric", "n", "median %", "p90 %", "bias %");
    let mut out = Vec::new();
    for metric in METRICS {
        let sel: Vec<&Case> = cases.iter().filter(|c| c.metric == metric).collect();
        let (m, p, b) = stats(&sel);
        println!("  {:<14} {:>5} {:>9.1} {:>9.1} {:>+9.1}", metric, sel.len(), m, p, b);
        out.push((metric, m, p));
    }
    out
}

/// The band class of a served case: dense or MoE (from the group label), any serving engine.
fn band_class(c: &Case) -> String {
    if c.source.contains("|MoE ") {
        "MoE, serving engine".into()
    } else {
        "dense, serving engine".into()
    }
}

// The runs are simulated as the finite benchmarks they were (`workload.benchmark_run`; before, as steady
// states). That took output tok/s from 37.0 to 32.3 % and TTFT P50's p90 from 269 to 167 %, and exposed what the
// steady state hid: on overloaded single RTX 4090s the model's decode under a backlog is too slow (compute
// efficiency of Ada unfitted, 0.5), so TPOT P99 went from 34.9 to 40.8 % — a bound measured against another
// experiment, re-set here with the others (each tightened to its new figure). The 41 runs of
// tests/data/serving_added.csv (SGLang MoE on 8 × B200/MI300X at concurrency 1–100, vLLM on 8 × A100 and one
// MI355X) re-set them again over the larger set: TTFT 83–86 → 57–70 %, TPOT mean/P50 16.5/17.2 → 24.8/23.9 %,
// TPOT P99 40.8 → 43.4 % (at batch 1 on 8 GPUs the model decoded MoE about 2 × too fast). The serving engines'
// kernel chain (`model::kernels`: a launch gap and a floor per kernel, constants from published kernel timings)
// then took output tok/s 32.4 → 30.1 %, TPOT mean/P50/P99 24.8/23.9/43.4 → 16.7/18.7/33.9 % and the MoE band
// 385 → 277 %, at a cost on TTFT (mean/P50/P99 65.7/57.0/69.8 → 68.0/59.4/73.5 %). A review then found a leak
// in those figures: the PCIe all-reduce latency, fitted on IOG's tensor-parallel runs, scored IOG itself; with
// the stated prior for those runs instead: output 32.5 %, TTFT 72.0/60.1/75.4 %, TPOT 25.6/25.6/40.4 %; and with
// a run whose source block contradicts itself left out and two warm-up-dominated runs scored on medians only:
// output 32.5 %, TTFT 70.7/60.1/73.4 %, TPOT 25.6/25.6/41.1 %. Generations without served runs (B200, MI300X,
// RTX 4090) then took the served compute efficiency of their machine balance instead of a flat 0.5, with
// SGLang's front end, its spread and the PCIe all-reduce refitted (48 ms, CV 0.7, 80 µs): output 32.5 %, TTFT
// 63.3/57.6/71.6 %, TPOT 25.3/22.5/40.4 %. The runs that release every request at once were then simulated as
// what they were — as many users as requests, the ones the engine cannot batch yet waiting in its queue — instead
// of the steady state at the fullest batch (their throughput had been scored against the steady-state peak, and the
// fits of the served compute efficiency used it too); with Ampere's η_fl refitted 0.35 → 0.48, the PCIe all-reduce
// 80 → 110 µs (its fit is flat between 100 and 120) and the front end's CV 0.70 → 0.65: output 32.5 → 27.7 %,
// TTFT 68.0/58.6/70.5 %, TPOT 24.7/24.0/40.4 % (10.7/12.3/22.2 % without the PCIe tensor-parallel runs), MoE band
// 286 → 179 %; their own latencies are scored apart (RATCHET_BURST_*). gpt-oss's MXFP4 release then counted its
// attention, embeddings and head at BF16, as the checkpoint and vLLM's loading figures have them
// (`quant::dense_part_bits`): 23 of the 31 figures it moved got better (output tok/s p90 109 → 95 %), but the
// median went 27.7 → 29.6 % — the low-load gpt-oss runs on A100 are now 7–12 % slow, as the experts' flat 0.5
// efficiency now counts against more bytes (published kernel timings stream touched experts at 60–87 % of
// bandwidth: the next change). The bound follows to 30 (it was 33 at the start of the session), and TPOT mean's
// 24.7 → 25.8 % takes the TPOT bound 25.5 → 26: a loosening, for a correction the checkpoint and vLLM's loading
// figures confirm; the experts' bandwidth efficiency is what should win it back (tried alone it sends the fitted
// front end, MoE and compute efficiencies on a long walk: vLLM's front end 12 → 48 ms, Hopper's η_fl 0.30 → 0.24).
// The serving engines' cost per running sequence (`presets::engines::SEQUENCE_OVERHEAD_US`, 40 µs for vLLM and
// SGLang; with it Ampere's served η_fl 0.48 → 0.58, Hopper's 0.30 → 0.26, the front end's CV 0.65 → 0.60, SGLang's
// front end 48 → 40 ms, the PCIe all-reduce 110 → 80 µs) then took output tok/s 29.6 → 22.7 %, TPOT mean/P50/P99
// 25.8/24.0/40.4 → 19.2/19.7/38.6 %, TTFT 68.2/59.1/70.5 → 69.6/57.4/69.9 %; the all-at-once runs' TTFT
// 51.6/51.1/47.3 → 49.4/50.1/44.2 % and TPOT 44.0/38.9/58.6 → 38.4/32.7/53.2 %. Bounds tightened to those.
// The consumer-GPU PCIe all-reduce then took a latency that grows with the ring (40 µs + 10 µs per step: 60 µs on
// 2 devices, 180 on 8) and 0.375 of the link's bandwidth (host-staged copies): leave-one-source-out unchanged
// (its only source takes the stated prior when held out), in-sample output tok/s 18.7 → 19.6 %, TPOT
// mean/P50/P99 15.9/16.4/33.8 → 10.9/13.2/26.4 %, TTFT 56.2/47.7/68.3 → 51.3/45.4/63.8 %.
// That source's held-out prior then became the documented one (nccl-tests' 43 µs host-staged all-reduce on
// 8 × RTX 4090, at NCCL's rated share of the link; before: the P2P boards' 25 µs at the full link): output tok/s
// 22.7 → 21.7 %, TPOT mean/P50/P99 19.2/19.7/38.6 → 17.2/17.3/30.1 %, TTFT 69.6/57.4/69.9 → 67.2/57.2/69.9 %.
// Steps that carry prompt tokens then paid their eager launch chain (`model::kernels::EAGER_LAUNCH_S`, 50 µs per
// counted kernel, from SGLang's own eager-versus-graph measurements), with the in-sample refits it set off: the
// front ends (vLLM 12 → 2 ms, SGLang 40 → 22, TensorRT-LLM 38 → 25), their CV 0.60 → 0.50, the per-sequence
// cost 40 → 30 µs (the in-sample optimum moved into the engines' profiled 20–35 µs) and Ampere's η_fl 0.58 →
// 0.56: output tok/s 21.7 → 21.9 %, TTFT mean/P50/P99 67.2/57.2/69.9 → 65.7/49.4/69.9 % (P99's p90 481 → 342 %),
// TPOT 17.2/17.3/30.1 → 14.8/14.6/30.8 %. TTFT mean and P50 get bounds of their own (66, 50), TPOT's tightens to
// 15; the all-at-once runs' TPOT P99 went 53.2 → 55.1 % (at 40 µs per sequence it stayed 53.2, but the in-sample
// fit no longer supports 40): its bound is loosened 54 → 56 for that, the one figure this change made worse.
// The held-out compute efficiency was then fitted on every device of its reference generation (2026-12-03,
// `common::serving::fit_served_compute`: the balance rule's B200/MI300X/MI355X runs join Hopper's fit), on the runs
// whose throughput the efficiency moves (≥ 10 % between 0.5 and 1.5 × the generation's default). Held out, GPUStack
// (30 of the 45 informative Hopper-class runs) still takes 0.5: the other sources' 7 informative runs fit that, not
// GPUStack's 0.26 — the sources disagree, and this table says so. A new source joined (ree2raz/inference-bench: vLLM
// 0.8.5 on one L4, 0.20.1 on one A100, closed loop, 8 runs), with the refits it set off (Ampere's η_fl 0.56 → 0.58 on
// the informative runs, vLLM's front end 2 → 8 ms, its CV 0.50 → 0.90): output tok/s 21.9 → 21.0 %, TTFT
// mean/P50/P99 65.7/49.4/69.9 → 54.6/47.2/67.1 %, TPOT mean/P50/P99 14.8/14.6/30.8 → 14.4/14.0/28.3 %; the
// all-at-once runs unchanged (TTFT 48.9/50.0/44.4 %, TPOT 39.0/29.4/55.1 %). Bounds tightened to the new figures.
// (A fixed window of 0.3–0.6 had left the other sources 3 informative runs that fit 0.27, and output tok/s 16.8 %:
// a window that suited the answer, not the physics — a step is the slower of its reads and its FLOPs, so runs
// compute-bound only below 0.3 are exactly those that tell Hopper's value.)
// Two more sources joined the same day (no model change): simon-mo/vLLM-Benchmark and Michaelvll/llm-ie-benchmarks,
// vLLM 0.8.4 serving DeepSeek-R1 FP8 on 8 × H200 with 1k–30k-token prompts (23 runs scored; 12 dense runs on an
// unstated H100/H200 variant kept but not scored). Held out they come out at 12.5 and 10.2 % output: output tok/s
// 21.0 → 19.1 % (220 runs), TTFT mean/P50/P99 54.6/47.2/67.1 → 52.4/46.3/63.0 %, TPOT 14.4/14.0/28.3 →
// 13.9/14.0/28.3 %. Bounds tightened to them.
// vLLM's reserve then followed its profile run (2026-12-03, `presets::engines::vllm_reserve_gib`: the sampler over
// 1,024 × vocabulary logits on H100-class defaults, 4.7–7.4 GiB instead of a flat 1.5), and Hopper's fitted η_fl
// rose 0.26 → 0.33 with it (the KV-bound one-H100 runs no longer slow the compute): output tok/s 19.1 → 15.6 %
// (GPUStack held out 34.0 → 20.6 %, median ratio 1.30 → 1.06), TTFT mean/P50/P99 52.4/46.3/63.0 →
// 49.5/45.4/52.4 %, TPOT 13.9/14.0/28.3 → 13.9/14.0/27.3 %; the all-at-once runs' TTFT 48.9/50.0/44.4 →
// 44.5/43.7/37.2 %, TPOT 39.0/29.4/55.1 → 36.2/34.2/52.9 % (P50 worse). Bounds tightened to them.
// Two more sources joined on 2026-12-04 (tests/data/serving_more.csv), with the model input one of them needs
// (`engine.cuda_graphs: false`, eager mode: every decode step pays the host's launch chain, `model::kernels`):
// cssnoeasy/a100-vllm-benchmark-blog (vLLM 0.19 in eager mode on one A100 80GB PCIe, Qwen3-32B BF16 / FP8 KV / AWQ,
// closed loop at 4–32 users and open loop at 0.5–0.6 req/s; 30 runs, P99 only) and djangodevreng/dgx-spark-benchmarks
// (vLLM 0.26 on a DGX Spark, gpt-oss-20b, open loop, lengths uniform within ± 0.9; 8 runs, a ninth held back by a
// client concurrency cap left out). Held
// out, the A100 source comes out at 6.2 % output (p90 9.6 %; with CUDA graphs assumed 7.3 / 115 %: its AWQ runs at 4–8
// users decode at the launch chain, TPOT P99 38.6–46.4 ms measured, 39.3–46.9 predicted eagerly, 15.4–24.5 with
// graphs) and TPOT P99 7.3 % (p90 15.5 %; 55.6 % with graphs);
// the Spark at 17.9 % output but TPOT P50 2.0 × too slow and TTFT 0.5 × (vLLM's early GB10 build: its own decode is
// 3–5 × slower than llama.cpp's on the same box, tests/data/batched.csv, while the model scales with the
// experts each batch touches). Ampere's η_fl refitted 0.58 → 0.52 on the pooled runs. Output tok/s 15.6 → 14.2 %
// (p90 83.4 → 54.8 %), TTFT mean/P50/P99 49.5/45.4/52.4 → 48.7/47.4/48.5 %, TPOT 13.9/14.0/27.3 → 14.0/15.4/18.9 %;
// the all-at-once runs' TTFT 44.5/43.7/37.2 → 34.9/34.5/30.8 % and TPOT 36.2/34.2/52.9 → 34.6/33.0/47.8 % (held out,
// GPUStack's runs take the new source's lower η_fl). Bounds tightened to them, except two loosened for the data,
// not the model: TPOT's mean/P50 bound 15 → 16 (the Spark's runs are a class the model does not cover) and TTFT
// P50's 46 → 48 (45.1 % with the Spark's capped run, read as an open loop it was not; 47.4 % without it).
// On 2026-12-04 (a later step) SGLang's cookbook runs were read with the random lengths its `bench_serving`
// draws (uniform from 1 to the configured length, not lognormal: tests/common/serving.rs), and what they set off
// refitted (SGLang's front end 22 → 14 ms, the front end's CV 0.90 → 1.05, Hopper's flat prior 0.32 → 0.28):
// output tok/s 14.2 → 12.5 %, TTFT mean/P50/P99 48.7/47.4/48.5 → 47.5/44.7/45.6 %, TPOT 14.0/15.4/18.9 →
// 14.3/15.4/18.4 %; the all-at-once runs unchanged (Hopper's flat prior would have moved 0.32 → 0.28; the held-out
// C++ engines take the split efficiency instead). Bounds tightened to them. Then IOG's runs were read with the
// prefix cache their protocol leaves warm (run_benchmark.sh: QPS 32, 16, 8, 4, 1 in turn against one vLLM V1 server,
// the same 200 prompts; tests/data/README.md), and the host-staged all-reduce's share of the PCIe link refitted 0.375
// → 0.25 on those runs: output 12.5 → 12.3 %, TTFT mean/P50/P99 47.5/44.7/45.6 → 45.3/41.4/45.9 %, TPOT 14.3/15.4/
// 18.4 → 14.8/15.4/18.4 % (without the PCIe runs TTFT 44.5/39.8/44.5 → 42.2/37.7/44.5 %, TPOT 12.2/13.2/12.4 →
// 10.1/11.8/12.2 %).
// On 2026-12-04 (last step) gpt-oss's MXFP4 experts left the FP4 × FP4 rate, which needs 4-bit activations that no
// serving engine gives them (`model::quant::experts_only_fp4_rate`): vLLM multiplies them by 16-bit activations
// (its default MoE backends), SGLang and TensorRT-LLM by 8-bit ones (the FP8 rate), and the release's BF16 attention
// and head run at the 16-bit rate. The one served source it moves (vLLM 0.26 on a DGX Spark, gpt-oss-20b) goes
// from TTFT 0.47 × the measured to 1.8 ×: the flat MoE kernel factor (0.5 of a dense layer, fitted on 128-expert
// TP8 deployments) and the served η_fl (0.33, where one GPU's long prefill reaches more, `model::prefill`) both
// charge this one-GPU prefill of ~500 tokens per expert — the open step (docs/ACCURACY.md). (An FP8 rate for
// vLLM too had fitted the Spark within 5 % and taken TTFT to 41.7/37.7/44.5 %; a review of that commit found vLLM's
// default is W4A16, so the fit was the two errors cancelling, and it was replaced.) Output 12.3 → 12.5 %, TTFT
// mean/P50/P99 45.3/41.4/45.9 → 47.0/43.3/47.2 %, TPOT 14.8/15.4/18.4 → 15.0/15.5/18.4 %; the all-at-once runs
// unchanged. The TTFT bounds are loosened 46/42/46 → 47/44/48: for a rate the engines are known to run, not to pass.
// The serving formats' 16-bit head and embedding table (`model::quant::head_bits`: AWQ, GPTQ, FP8, INT8 and NVFP4
// checkpoints keep both in 16 bits; a trial's Qwen2.5-32B AWQ weighed 16.9 GB where the release is 19.2) then took
// TensorRT-LLM's Hopper η_fl 0.47 → 0.49 and output tok/s 12.5 → 12.7 %, TTFT mean / P50 / P99 47.0 / 43.3 / 47.2 →
// 48.6 / 43.3 / 49.7 %, TPOT 15.0 / 15.5 / 18.4 → 14.5 / 15.4 / 18.3 % (the DGX Spark's gpt-oss runs 22–27 points
// better in TTFT, the MoE runs on Hopper of two sources 4–9 points worse, their held-out efficiencies absorbing the
// bytes). The TTFT mean and P99 bounds are loosened 47 / 48 → 49 / 50 for weights the checkpoints have.
// On 2026-12-06 a fifth served source on ROCm joined (tests/data/serving_rocm.csv: vLLM 0.17 with gpt-oss-120b on one
// MI300X, output within −1 to +18 % held out; vLLM 0.23 with DeepSeek-V3 on 8 × MI300X, TPOT 16–20 % slow and TTFT
// P50 0.32 × the measured at 32–128 users — the second source in which DeepSeek's prompts on MI300X take far longer
// than the model's prefill, after SGLang's cookbook; and 2024 vLLM builds' Llama-3.1 70B / 405B runs, older
// releases). No model change: output 12.7 → 12.4 %, TTFT P50 43.3 → 44.7 % (3 figures, −63 to −68 %), TPOT P50
// 15.4 → 15.4 %; the TTFT P50 bound is loosened 44 → 45 for the data, not to pass a model change.
// Later on 2026-12-06 a fifth vLLM deployment (tests/data/serving_found.csv: vLLM 0.14.1 on one H200, eight paced runs,
// TTFT mean and P50 within 20 %, P99 up to 88 % high) joined, the front end's CV was fitted with each source weighing once (1.05 → 1.15 with vLLM's
// front end 8 → 6 ms, both refitted on the new runs; the front end's fit reads current releases only): output 12.4 →
// 11.2 %, TTFT mean / P50 / P99 48.6 / 44.7 / 49.5 → 47.3 / 43.2 / 50.0 %, TPOT 14.6 / 15.4 / 18.5 → 13.2 / 13.3 /
// 16.6 %. The bounds are tightened where the figures fell; TTFT P99 sits on its bound (the runs are deterministic).
const RATCHET_OUTPUT: f64 = 12.0;
const RATCHET_TTFT_MEAN: f64 = 48.0;
const RATCHET_TTFT_P50: f64 = 44.0;
const RATCHET_TTFT: f64 = 50.0;
const RATCHET_TPOT: f64 = 14.0;
const RATCHET_TPOT_P99: f64 = 17.0;

/// Ratchets of the runs that release every request at once (their latencies, leave-one-source-out, current
/// engines), first scored 2026-12: TTFT mean/P50/P99 and TPOT mean/P50/P99 as measured then, rounded up (TPOT
/// 54 → 56 with the eager launch chain of prompt steps and the per-sequence cost's refit: see above; 45 / 53 → 35 /
/// 48 with the two sources of 2026-12-04; 35 / 48 → 36 / 50 on 2026-12-05, when six of GPUStack's SGLang 0.5.3 runs
/// of DeepSeek-R1 on 8 × H200 were read as the tensor-parallel runs they were — `--enable-dp-attention` without
/// `--dp` is turned off from SGLang 0.4.4 on (`tests/common/serving.rs`) — and joined: TTFT P50 34.4 → 35.2 %, TPOT
/// P99 47.8 → 49.3 %, no model change; 36 → 39 on 2026-12-06 for the ROCm runs of `serving_rocm.csv`: held out,
/// GPUStack's efficiency is fitted on the other sources, among them now gpt-oss-120b's four runs on one MI300X, which
/// the balance rule sends to Hopper's fit, and its all-at-once TTFT mean / P50 / P99 moved 35.0 / 34.9 / 30.4 → 38.3 /
/// 37.3 / 32.6 % — the data, no model change).
const RATCHET_BURST_TTFT: f64 = 39.0;
const RATCHET_BURST_TPOT: f64 = 50.0;

/// Whether a case is a run that released every request at once (its group's load is "offline").
fn at_once(c: &Case) -> bool {
    c.source.contains("|offline|")
}

const METRICS: [&str; 7] = ["output tok/s", "TTFT mean", "TTFT P50", "TTFT P99", "TPOT mean", "TPOT P50", "TPOT P99"];

#[test]
fn served_runs_accuracy() {
    let (loso, _) = serving_cases(true);
    let (cases, skipped) = serving_cases(false);
    println!("served runs (tests/data/serving.csv), rows skipped: {skipped:?}");
    if let Ok(v) = std::env::var("TPS_VALIDATION_ROWS") {
        let mut worst: Vec<&Case> = cases.iter().collect();
        worst.sort_by(|a, b| b.abs_pct_error().total_cmp(&a.abs_pct_error()));
        for c in worst.iter().take(v.parse().unwrap_or(60)) {
            println!("{}", c.row(c.metric, 60, 10, (10, 1)));
        }
    }
    // Every figure's prediction, in-sample (TPS_VALIDATION_CSV) and with its source held out (…_LOSO).
    for (var, set) in [("TPS_VALIDATION_CSV", &cases), ("TPS_VALIDATION_CSV_LOSO", &loso)] {
        if let Ok(path) = std::env::var(var) {
            let mut out = String::from("id,group,era,metric,predicted,measured\n");
            for c in set {
                out.push_str(&format!("{},{},{},{},{},{}\n", c.id, c.source, c.kind, c.metric, c.predicted, c.measured));
            }
            std::fs::write(&path, out).unwrap();
        }
    }
    for metric in METRICS {
        let sel: Vec<Case> = cases.iter().filter(|c| c.metric == metric).cloned().collect();
        print_groups(&format!("served runs, {metric}: by source | load | class"), &sel, |c| c.source.clone());
    }
    let current = |v: &[Case]| -> Vec<Case> { v.iter().filter(|c| c.kind.starts_with("current")).cloned().collect() };
    let older = |v: &[Case]| -> Vec<Case> { v.iter().filter(|c| c.kind == "older").cloned().collect() };
    // The latencies of the runs that release every request at once ("offline": `vllm bench serve` with neither
    // a rate nor a concurrency limit) are scored apart: they are mostly the wait in the engine's queue, a class of
    // their own, and were not scored before 2026-12 (the ratchets of the other runs stay comparable).
    let paced = |v: &[Case]| -> Vec<Case> { v.iter().filter(|c| c.metric == "output tok/s" || !at_once(c)).cloned().collect() };
    let held =
        summary("served runs on current engines (vLLM ≥ 0.8, SGLang ≥ 0.5, TensorRT-LLM ≥ 1.0), leave-one-source-out", &paced(&current(&loso)));
    summary("served runs on current engines, in-sample (fitted defaults)", &paced(&current(&cases)));
    let burst = |v: &[Case]| -> Vec<Case> { v.iter().filter(|c| c.metric != "output tok/s" && at_once(c)).cloned().collect() };
    let held_burst =
        summary("served runs on current engines that release every request at once: latencies, leave-one-source-out", &burst(&current(&loso)));
    summary("served runs on current engines that release every request at once: latencies, in-sample", &burst(&current(&cases)));
    // The tensor-parallel runs over PCIe (vLLM 0.8.5 on 2–8 × RTX 4090, 35 of the 66 runs with latencies) show
    // seconds of TTFT at 1 req/s falling to ~150 ms at 16 req/s with normal TPOT medians and P99 TPOT up to 25 ×
    // the median — not queueing, not prefill; the source flags the worst as CAUTION and the model does not cover
    // it. The same table without them, printed apart (the ratchets above stay on every run).
    let informative: Vec<Case> = paced(&current(&loso)).into_iter().filter(|c| c.kind == "current").collect();
    summary("served runs on current engines without the PCIe tensor-parallel runs, leave-one-source-out", &informative);
    let out: Vec<Case> = current(&loso).into_iter().filter(|c| c.metric == "output tok/s").collect();
    print_groups("served runs on current engines, output tok/s, leave-one-source-out, by class (the bands' basis)", &out, band_class);
    for (name, band, batched) in [("dense", &plan::LOAD_DENSE, common::BATCHED_DENSE_ROWS), ("MoE", &plan::LOAD_MOE, common::BATCHED_MOE_ROWS)] {
        let sel: Vec<&Case> = out.iter().filter(|c| band_class(c).starts_with(name)).collect();
        assert_eq!(sel.len() + batched, band.rows as usize, "{name}: the band table's row count");
        println!("band of served {name} output tok/s, leave-one-source-out: {:.1} % over {} runs", band_pct(&sel), sel.len());
        assert_band_tracks(band, band_pct(&sel));
    }
    // One user of a MoE model on a serving engine (`plan::SINGLE_SERVING_MOE`): TPOT P50 of the closed-loop runs at
    // concurrency 1, held out by source; the dense ones are printed beside the stated prior they stay under.
    let one_user: std::collections::HashSet<String> = common::serving::served_rows()
        .into_iter()
        .filter(|r| r["load_type"].starts_with("closed") && r["batch_or_concurrency"].trim() == "1")
        .map(|r| r["id"].clone())
        .collect();
    let held_current = current(&loso);
    for moe in [true, false] {
        let sel: Vec<&Case> =
            held_current.iter().filter(|c| one_user.contains(&c.id) && c.metric == "TPOT P50" && c.source.contains("|MoE ") == moe).collect();
        println!(
            "one user, {}: TPOT P50 held out, {:.1} % (p90 of the factor off) over {} runs",
            if moe { "MoE" } else { "dense" },
            band_pct(&sel),
            sel.len()
        );
        if moe {
            assert_eq!(sel.len(), plan::SINGLE_SERVING_MOE.rows as usize, "one user, MoE: the band table's row count");
            assert_band_tracks(&plan::SINGLE_SERVING_MOE, band_pct(&sel));
        } else {
            assert_band_covers(&plan::SINGLE_UNVALIDATED, band_pct(&sel), "the dense one-user runs");
        }
    }
    // The latency bands (`plan::LatencyClass`): paced runs of current engines, held out by source, in the class
    // the page puts their deployment in.
    let paced_held = paced(&current(&loso));
    println!("latency bands (p90 of the factor off, leave-one-source-out, paced runs of current engines)");
    for (pcie, class) in [(false, &plan::LATENCY_SERVED), (true, &plan::LATENCY_PCIE_TP)] {
        let figure = |metric: &str| -> (f64, usize) {
            let sel: Vec<&Case> = paced_held.iter().filter(|c| (c.kind == "current, PCIe TP") == pcie && c.metric == metric).collect();
            (band_pct(&sel), sel.len())
        };
        let [ttft, ttft_tail, tpot, tpot_tail] = ["TTFT P50", "TTFT P99", "TPOT P50", "TPOT P99"].map(figure);
        println!(
            "  {:<40} TTFT P50 {:>7.1} % ({} runs), P99 {:>7.1} % ({}); TPOT P50 {:>6.1} % ({}), P99 {:>6.1} % ({})",
            class.name, ttft.0, ttft.1, ttft_tail.0, ttft_tail.1, tpot.0, tpot.1, tpot_tail.0, tpot_tail.1
        );
        let counts = [ttft.1, ttft_tail.1, tpot.1, tpot_tail.1].map(|n| n as u32);
        assert_eq!(counts, class.counts, "{}: the latency bands' run counts (TTFT P50, P99, TPOT P50, P99)", class.name);
        for (figure, band, what) in [
            (ttft, class.ttft_pct, "TTFT P50"),
            (ttft_tail, class.ttft_tail_pct, "TTFT P99"),
            (tpot, class.tpot_pct, "TPOT P50"),
            (tpot_tail, class.tpot_tail_pct, "TPOT P99"),
        ] {
            let words = plan::band_text(band);
            assert!(figure.0 <= band, "the {what} band of \"{}\" ({words}) no longer covers its data's {:.1} %", class.name, figure.0);
            assert!(
                figure.0 >= band - 0.1 * band.max(100.0),
                "the {what} band of \"{}\" ({words}) is wider than its data ({:.1} %): tighten it",
                class.name,
                figure.0
            );
        }
    }
    summary("served runs on older engine releases, leave-one-source-out", &older(&loso));
    summary("all served runs, leave-one-source-out", &loso);
    summary("all served runs, in-sample", &cases);
    // Ratchet (leave-one-source-out, current engines): tighten when the model improves, never loosen to pass.
    for (metric, median, _) in held {
        let bound = match metric {
            "output tok/s" => RATCHET_OUTPUT,
            "TTFT mean" => RATCHET_TTFT_MEAN,
            "TTFT P50" => RATCHET_TTFT_P50,
            m if m.starts_with("TTFT") => RATCHET_TTFT,
            "TPOT P99" => RATCHET_TPOT_P99,
            _ => RATCHET_TPOT,
        };
        assert!(median.is_nan() || median <= bound, "served {metric}: leave-one-source-out median {median:.1} % > {bound} %");
    }
    for (metric, median, _) in held_burst.into_iter().filter(|h| h.0 != "output tok/s") {
        let bound = if metric.starts_with("TTFT") { RATCHET_BURST_TTFT } else { RATCHET_BURST_TPOT };
        assert!(median <= bound, "served, all at once, {metric}: leave-one-source-out median {median:.1} % > {bound} %");
    }
    let runs: std::collections::HashSet<&str> = cases.iter().map(|c| c.id.as_str()).collect();
    println!("served runs scored: {} runs, {} figures", runs.len(), cases.len());
    assert!(runs.len() >= 150, "only {} served runs could be stated as scenarios", runs.len());
}

/// A measured row as the import module would read it from the benchmark's own file: its load, lengths,
/// request count, output tok/s and the TTFT and TPOT statistics the row holds.
fn measurement_of(row: &HashMap<String, String>, run: &common::serving::Run) -> Measurement {
    let stats = |mean: &str, p50: &str, p99: &str| Measured { mean: num(row, mean), p50: num(row, p50), p99: num(row, p99), ..Default::default() };
    let w = &run.scenario.workload;
    let load = w.load.as_ref();
    Measurement {
        tool: "served run".into(),
        kind: Kind::Serving,
        label: run.id.clone(),
        model: None,
        hardware: None,
        engine: None,
        devices: None,
        dp_attention: None,
        params_b: None,
        weight_bits: None,
        concurrency: load.and_then(|l| l.concurrency.as_ref()).and_then(|c| c.first().copied()),
        request_rate: load.and_then(|l| l.request_rate.as_ref()).and_then(|r| r.first().copied()),
        prompt_tokens: w.prompt_tokens,
        output_tokens: w.output_tokens,
        context_depth: 0.0,
        output_cv: None,
        prompt_cv: None,
        load_recorded: true,
        requests: w.requests.map(f64::from),
        system_output_tps: num(row, "output_tok_s_system"),
        per_user_tps: None,
        prefill_tps: None,
        ttft_ms: stats("ttft_ms_mean", "ttft_ms_p50", "ttft_ms_p99"),
        tpot_ms: stats("tpot_or_itl_ms_mean", "tpot_or_itl_ms_p50", "tpot_or_itl_ms_p99"),
        itl_ms: itl_of(row),
        e2e_ms: Measured::default(),
        notes: Vec::new(),
    }
}

/// A run's ITL statistics where its notes give them (`itl_ms_mean=…; itl_ms_p50=…; itl_ms_p99=…`: copied from
/// `vllm bench serve`'s block by the data's collectors).
fn itl_of(row: &HashMap<String, String>) -> Measured {
    let note = |k: &str| {
        row["notes"].split(';').find_map(|kv| kv.trim().strip_prefix(k).and_then(|v| v.strip_prefix('='))).and_then(|v| v.trim().parse::<f64>().ok())
    };
    Measured { mean: note("itl_ms_mean"), p50: note("itl_ms_p50"), p99: note("itl_ms_p99"), ..Default::default() }
}

/// The offered load of a paced run (users or req/s), to find a deployment's lightest run.
fn offered(run: &common::serving::Run) -> f64 {
    let l = run.scenario.workload.load.as_ref();
    l.and_then(|l| l.concurrency.as_ref().or(l.request_rate.as_ref())).and_then(|v| v.first().copied()).unwrap_or(f64::INFINITY)
}

/// What calibrating on one's own runs buys, measured on the served runs. For every deployment with several paced
/// runs on a current engine (same source, device and count, model, weights, KV-cache type, engine release, serving
/// flags and dataset), the scenario held out of the defaults' fits (leave-one-source-out) is calibrated (`plan::calibrate`,
/// the page's and `tps calibrate`'s path) on what a user would measure first — the deployment's lightest run, or
/// its lightest and heaviest — and its other runs are scored with the calibrated values, against the same runs
/// uncalibrated. The tensor-parallel runs over PCIe are left out: their source flags the lightest runs' TTFT
/// (seconds at 1 req/s, against 0.1 s at 8 req/s) as suspect, and a calibration on them fits that artefact.
/// `TPS_CAL_DEBUG=1` prints each deployment's fit and the runs it predicts.
#[test]
fn served_runs_calibrated_on_their_own_runs() {
    let (runs, _) = served_runs(true);
    let mut groups: HashMap<String, Vec<&RowRun>> = HashMap::new();
    for r in &runs {
        let (row, run) = r;
        if run.offline || !common::serving::current_engine(row) || !common::serving::ttft_informative(row) {
            continue;
        }
        let flags = row["notes"].split("serving script:").nth(1).and_then(|s| s.split(';').next()).unwrap_or("");
        let load = run.load_type.split_whitespace().next().unwrap_or("");
        let key = [
            &run.source,
            &row["hardware_key"],
            &row["n_devices"],
            &row["model"],
            &row["weight_format"],
            &row["kv_cache_dtype"],
            &row["engine"],
            &row["engine_version"],
            flags,
            &row["dataset"],
            load,
        ]
        .map(|s| s.trim().to_string())
        .join("|");
        groups.entry(key).or_default().push(r);
    }
    let mut keys: Vec<&String> = groups.keys().collect();
    keys.sort();
    let debug = std::env::var("TPS_CAL_DEBUG").is_ok();
    for heaviest_too in [false, true] {
        let (mut before, mut after) = (Vec::new(), Vec::new());
        let (mut deployments, mut refused) = (0, 0);
        for key in &keys {
            let mut g = groups[*key].clone();
            if g.len() < if heaviest_too { 3 } else { 2 } {
                continue;
            }
            g.sort_by(|a, b| offered(&a.1).total_cmp(&offered(&b.1)));
            let (row0, run0) = g[0];
            let mut on = vec![measurement_of(row0, run0)];
            let mut rest = &g[1..];
            if heaviest_too {
                let (row, run) = g[g.len() - 1];
                on.push(measurement_of(row, run));
                rest = &g[1..g.len() - 1];
            }
            // A fit that leaves its own runs further off is refused (`plan::calibrate`): the user keeps the defaults
            // and their band, so the deployment is counted, not scored here (the calibrated figures and bands are
            // those of the scenarios calibration gives).
            let engine = match plan::calibrate::calibrate(&run0.scenario, &on) {
                Ok(cal) => {
                    if debug {
                        let moved: Vec<String> =
                            cal.fitted.iter().map(|f| format!("{} {:.3}->{:.3}", f.field.trim_start_matches("engine."), f.before, f.after)).collect();
                        println!(
                            "{} ({} runs) {:.1} -> {:.1} %: {}",
                            run0.id,
                            g.len(),
                            cal.median_abs_error_before_pct,
                            cal.median_abs_error_after_pct,
                            moved.join(", ")
                        );
                    }
                    cal.scenario.engine
                }
                Err(e) if e.message.contains("the fit leaves these runs further off") => {
                    refused += 1;
                    if debug {
                        println!("{} ({} runs) refused: {}", run0.id, g.len(), e.message);
                    }
                    continue;
                }
                Err(e) => panic!("{}: {e}", run0.id),
            };
            deployments += 1;
            // Scored: the runs at other loads than the calibration's (a run at the same load — another attention
            // backend, say — is not what the calibration claims to predict).
            let loads: Vec<f64> = on.iter().map(|m| m.concurrency.or(m.request_rate).unwrap_or(f64::NAN)).collect();
            for (row, run) in rest.iter().filter(|r| !loads.contains(&offered(&r.1))) {
                let mut calibrated = run.clone();
                calibrated.scenario.engine = engine.clone();
                let (Some(b), Some(a)) = (score(row, run), score(row, &calibrated)) else { continue };
                // Both sides on the same figures.
                for x in b {
                    let Some(y) = a.iter().find(|y| y.metric == x.metric) else { continue };
                    if debug {
                        println!(
                            "   {} {:<12} measured {:>8.1}, held out {:>8.1}, calibrated {:>8.1}",
                            run.id, x.metric, x.measured, x.predicted, y.predicted
                        );
                    }
                    after.push(y.clone());
                    before.push(x);
                }
            }
        }
        let on = if heaviest_too { "lightest and heaviest run" } else { "lightest run" };
        let scored: std::collections::HashSet<&str> = after.iter().map(|c| c.id.as_str()).collect();
        println!(
            "served runs calibrated on their deployment's {on}: {deployments} deployments ({refused} more whose fit was refused as worse on its own runs), {} other runs scored",
            scored.len()
        );
        let b = summary("  the other runs with the defaults, held out of their source (leave-one-source-out)", &before);
        let a = summary(&format!("  the same runs calibrated on the deployment's {on}"), &after);
        // Calibration must pay where the defaults cannot know the deployment: the front end's time differs from
        // deployment to deployment of one engine (12 to 60 ms for vLLM), so TTFT. With a heavy run too, the
        // throughput as well.
        for ((metric, mb, _), (_, ma, _)) in b.iter().zip(&a) {
            let must = matches!(*metric, "TTFT mean" | "TTFT P50") || heaviest_too && matches!(*metric, "TTFT P99" | "output tok/s");
            assert!(!must || ma < mb, "calibrated on the {on}, {metric}: median {ma:.1} % is not below the uncalibrated {mb:.1} %");
        }
        assert!(scored.len() >= if heaviest_too { 15 } else { 30 }, "only {} runs scored after calibration", scored.len());
        // The bands of a calibrated scenario (`plan::LOAD_CALIBRATED_ONE` / `_TWO`, `plan::LATENCY_CALIBRATED_ONE` /
        // `_TWO`): the p90 of the factor off of these runs, calibrated on their deployment's lightest run, or its
        // lightest and heaviest.
        let figure = |metric: &str| -> (f64, usize) {
            let sel: Vec<&Case> = after.iter().filter(|c| c.metric == metric).collect();
            (band_pct(&sel), sel.len())
        };
        let figures = ["output tok/s", "TTFT P50", "TTFT P99", "TPOT P50", "TPOT P99"].map(figure);
        let [out, ttft, ttft_tail, tpot, tpot_tail] = figures;
        println!(
            "calibrated bands, on the {on} (p90 of the factor off): output {:.1} % ({} runs), TTFT P50 {:.1} % ({}), P99 {:.1} % ({}); TPOT P50 {:.1} % ({}), P99 {:.1} % ({})",
            out.0, out.1, ttft.0, ttft.1, ttft_tail.0, ttft_tail.1, tpot.0, tpot.1, tpot_tail.0, tpot_tail.1
        );
        // The page's bands of a scenario calibrated at one load (or loads not said) and at two or more: each
        // covers its figure and is not 10 % wider than it, and its run counts are these.
        let (load, l) = if heaviest_too {
            (&plan::LOAD_CALIBRATED_TWO, &plan::LATENCY_CALIBRATED_TWO)
        } else {
            (&plan::LOAD_CALIBRATED_ONE, &plan::LATENCY_CALIBRATED_ONE)
        };
        let bands = [load.p90_pct, l.ttft_pct, l.ttft_tail_pct, l.tpot_pct, l.tpot_tail_pct];
        for ((f, b), what) in figures.iter().zip(bands).zip(["output tok/s", "TTFT P50", "TTFT P99", "TPOT P50", "TPOT P99"]) {
            assert!(f.0 <= b && f.0 >= b - 0.1 * b.max(100.0), "{}: band of {what} {b} % for a figure of {:.1} %: reset it", l.name, f.0);
        }
        assert_eq!((load.rows as usize, l.counts.map(|n| n as usize)), (out.1, [ttft.1, ttft_tail.1, tpot.1, tpot_tail.1]), "{}", l.name);
    }
}

/// SGLang's own scheduler runs prompt steps apart, the decodes waiting (`engine.mixed_batches: false`); the model's
/// default shares the steps (`presets::engines::mixed_batches`, where these figures are discussed). Both, in-sample,
/// on the served runs of current SGLang releases: paced runs and the runs that release every request at once apart.
#[test]
fn sglang_prompt_steps_apart() {
    let (runs, _) = served_runs(false);
    let (mut shared, mut apart) = (Vec::new(), Vec::new());
    for (row, run) in runs.iter().filter(|(row, run)| run.engine == "sglang" && common::serving::current_engine(row)) {
        shared.extend(score(row, run).unwrap_or_default());
        let mut waiting = run.clone();
        waiting.scenario.engine.mixed_batches = Some(false);
        apart.extend(score(row, &waiting).unwrap_or_default());
    }
    let split = |v: &[Case], burst: bool| -> Vec<Case> { v.iter().filter(|c| at_once(c) == burst).cloned().collect() };
    summary("SGLang's paced served runs, prompt chunks sharing steps with the decodes (the model's default), in-sample", &split(&shared, false));
    summary("the same runs with prompt steps apart (SGLang's own default)", &split(&apart, false));
    summary("SGLang's served runs that release every request at once, steps shared, in-sample", &split(&shared, true));
    summary("the same runs with prompt steps apart", &split(&apart, true));
    // What the bursts show: with 1,000 prompts released at once SGLang reads prompts while memory lasts and the
    // decodes wait, so their TPOT is far above what shared steps give; apart, the model's median TPOT ratio is nearer 1.
    let log_ratio = |v: &[Case]| -> f64 {
        let mut r: Vec<f64> = split(v, true).iter().filter(|c| c.metric == "TPOT mean").map(|c| (c.predicted / c.measured).ln()).collect();
        common::median(&mut r)
    };
    let (s, a) = (log_ratio(&shared), log_ratio(&apart));
    println!("bursts, TPOT mean: median predicted ÷ measured {:.2} shared, {:.2} apart", s.exp(), a.exp());
    assert!(a.abs() < s.abs(), "prompt steps apart no longer bring the bursts' TPOT nearer: {:.2} vs {:.2}", a.exp(), s.exp());
}

/// The second served source on an Ada card (a blog's vLLM sweep of Mistral-7B-Instruct-v0.3 on one RTX 4090:
/// random 256-token prompts, 300 requests at 4–48 concurrent users, the output stopping at end-of-sequence, 100
/// tokens on average; engine version not stated, so it is scored with the older releases and fits nothing). The
/// 4090 takes Ampere's served compute efficiency by its machine balance (`presets::engines::served_compute`);
/// IOG's open-loop 4090 runs (the only other served Ada source) looked like 0.8. This source's capacity says
/// which: its output tok/s at the balance rule's value and at 0.8, printed, and the rule's error bounded.
#[test]
fn ada_second_source_takes_the_balance_rule() {
    let rows: Vec<_> = common::serving::served_rows().into_iter().filter(|r| r["source"].contains("mushfiqrahman.dev")).collect();
    assert_eq!(rows.len(), 5, "the blog's five concurrency levels");
    let (mut rule, mut high) = (Vec::new(), Vec::new());
    for row in &rows {
        let run = run_of(row).unwrap_or_else(|e| panic!("{}: {e}", row["id"]));
        let measured = num(row, "output_tok_s_system").unwrap();
        let at = |eta: Option<f64>| {
            let mut s = run.scenario.clone();
            s.engine.compute_efficiency = eta;
            plan::evaluate(&s).unwrap().sweep[0].clone()
        };
        let (d, h) = (at(None), at(Some(0.8)));
        println!(
            "  {} {:>2} users: output {measured:>5.0} tok/s measured, {:>5.0} at the rule's η_fl, {:>5.0} at 0.8; TTFT P50 {:>4} ms measured, {:>4.0} predicted",
            row["id"],
            row["batch_or_concurrency"],
            d.system_tps,
            h.system_tps,
            row["ttft_ms_p50"],
            d.ttft_ms.p50
        );
        rule.push((d.system_tps / measured - 1.0).abs());
        high.push((h.system_tps / measured - 1.0).abs());
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2] * 100.0
    };
    let (r, h) = (median(&mut rule), median(&mut high));
    println!("Ada's second served source, output tok/s median |error|: {r:.1} % at the balance rule's η_fl (Ampere's), {h:.1} % at 0.8");
    assert!(r <= 8.0, "the balance rule's η_fl misses the second Ada source's throughput by a median {r:.1} %");
}

/// gpt-oss's MXFP4 experts under vLLM run at the 16-bit rate (`model::quant::experts_only_fp4_rate`: vLLM's default
/// MoE kernels take 16-bit activations), not at FP4 × FP4's. The one served source of the class (vLLM 0.26 on a DGX
/// Spark, gpt-oss-20b, ~4,200-token prompts at 0.1–1 req/s): its TTFT P50 printed at the model's rate (the 16-bit
/// one, 125 TFLOPS) and with the matrices at FP8's 250 and FP4's 500 TFLOPS. At the FP4 rate the model was 0.47 × the
/// measured; at the 16-bit rate it is 1.8 × — the flat MoE kernel factor and the served η_fl on a one-GPU prefill of
/// ~500 tokens per expert (docs/ACCURACY.md). Bounded within 2 × either way, so a rate as wrong as FP4's fails.
#[test]
fn gpt_oss_mxfp4_prefill_under_vllm_at_the_16_bit_rate() {
    let rows: Vec<_> = common::serving::served_rows().into_iter().filter(|r| r["source"].contains("djangodevreng/dgx-spark-benchmarks")).collect();
    let mut ratios = Vec::new();
    for row in &rows {
        let Ok(run) = run_of(row) else { continue };
        let Some(measured) = num(row, "ttft_ms_p50") else { continue };
        let at = |fp16_tflops: Option<f64>| {
            let mut s = run.scenario.clone();
            s.hardware.fp16_tflops = fp16_tflops;
            plan::evaluate(&s).unwrap().sweep[0].ttft_ms.p50
        };
        let (model, fp8, fp4) = (at(None), at(Some(250.0)), at(Some(500.0)));
        println!(
            "  {} {:>4} req/s: TTFT P50 {measured:>5.0} ms measured; {model:>5.0} at the 16-bit rate, {fp8:>5.0} at FP8's, {fp4:>5.0} at FP4's",
            row["id"], row["request_rate_qps"]
        );
        ratios.push(model / measured);
    }
    assert_eq!(ratios.len(), 8, "the Spark source's eight open-loop runs");
    ratios.sort_by(f64::total_cmp);
    let median = (ratios[3] + ratios[4]) / 2.0;
    println!("DGX Spark, gpt-oss-20b MXFP4 under vLLM: TTFT P50 median {median:.2} × the measured at the model's rate");
    assert!((0.5..=2.0).contains(&median), "the Spark's TTFT P50 at the model's rate is {median:.2} × the measured");
}

/// The served runs' DP attention read from their commands: SGLang 0.4.3's `--enable-dp-attention` alone is dp = tp
/// (dstack's DeepSeek-R1 on 8 × H200), 0.5.3's alone is plain tensor parallelism (GPUStack's), and a real
/// data-parallel size with attention ranks of several devices is left out.
#[test]
fn dp_attention_is_read_from_the_server_command() {
    use tps_planner::model::hardware::Parallelism;
    let rows: HashMap<String, HashMap<String, String>> = common::serving::served_rows().into_iter().map(|r| (r["id"].clone(), r)).collect();
    let split = |id: &str| run_of(&rows[id]).map(|r| (r.scenario.hardware.parallelism, r.scenario.hardware.devices));
    assert_eq!(split("sv0225").ok(), Some((Some(Parallelism::DpAttention), Some(8))), "SGLang 0.4.3, --tp 8 --enable-dp-attention");
    assert_eq!(split("sv0004").ok(), Some((None, Some(8))), "SGLang 0.5.3, the flag without --dp");
    assert_eq!(split("sv0002").ok(), Some((None, Some(8))), "SGLang 0.5.3, plain --tp-size 8");
    let mut row = rows["sv0225"].clone();
    row.insert("notes".into(), row["notes"].replace("--enable-dp-attention", "--dp 4 --enable-dp-attention"));
    assert!(run_of(&row).is_err(), "attention ranks of two devices each");
}
