//! What the report warns about: typed, so the page and the CLI decide by kind (an alarm or a note), not by
//! matching the text. A warning serialises as its message, as it always has in the report's JSON.

use super::*;
use crate::model::hardware::Parallelism;

/// What a warning is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WarningKind {
    /// The weights do not fit in memory.
    DoesNotFit,
    /// The weights fit, one sequence's KV cache does not.
    KvDoesNotFit,
    /// Fewer requests simulated per level than asked, to bound the work (a note, not an alarm).
    FewerRequests,
    /// A multi-device split the engine does not have.
    WrongSplit,
    /// llama.cpp with an FP8 format.
    NoFp8,
    /// Some levels saturate (queue growing without bound), the lightest among them.
    Saturates,
    /// The heaviest levels saturate, past the capacity: the sweep's hockey stick, a note (a pre-sales trial found it
    /// in red on the customer's report).
    SaturatesPastCapacity,
    /// The levels end while system TPS still climbs steeply: no knee within them.
    NoKnee,
    /// The fleet could not be sized.
    Fleet,
    /// The cost leaves a part out.
    Cost,
    /// vLLM's profile run keeps more memory than a smaller `max_batch` would.
    SamplerReserve,
    /// The capacity is TTFT-bound with fixed-length users, who move in lock-step waves.
    LockStep,
    /// The lightest load already takes most of a latency limit: the capacity swings with small changes.
    ThinMargin,
    /// A level past the capacity meets the target though a lighter one breaks it (the target's edge).
    Edge,
    /// The engine's efficiencies were calibrated on another deployment than this one.
    CalibratedElsewhere,
    /// A serving engine on Apple silicon (vLLM, SGLang, TensorRT-LLM, LMDeploy: none has a Metal backend).
    EngineNotOnDevice,
    /// llama.cpp's few slots reached on the sweep: its other users wait (a note for a class).
    FewSlots,
    /// GGUF weights on a serving engine (vLLM's and SGLang's GGUF path is experimental; the others load none).
    GgufOnServingEngine,
    /// Levels added for imported runs' loads, which the scenario alone does not have (a note).
    LevelsForRuns,
    /// An offline job's latencies are each request's from its admission, not from the job's start (a note).
    OfflineTiming,
}

/// One warning: its kind and the sentence shown.
#[derive(Debug, Clone, PartialEq)]
pub struct Warning {
    pub kind: WarningKind,
    pub message: String,
}

impl Warning {
    #[must_use]
    pub fn new(kind: WarningKind, message: impl Into<String>) -> Self {
        Self { kind, message: message.into() }
    }

    /// Information about how the figures were computed, not an alarm (the levels' reach too: an operations trial
    /// read "no saturation knee within the levels", in red, as a fault of the deployment sized).
    #[must_use]
    pub fn is_info(&self) -> bool {
        matches!(
            self.kind,
            WarningKind::FewerRequests
                | WarningKind::SaturatesPastCapacity
                | WarningKind::NoKnee
                | WarningKind::LevelsForRuns
                | WarningKind::FewSlots
                | WarningKind::OfflineTiming
        )
    }
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl serde::Serialize for Warning {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.message)
    }
}

/// The warnings a scenario raises before fleet and cost: memory, simulated requests, context window, splits
/// the engine lacks, saturation.
pub(super) fn scenario_warnings(r: &Resolved, mem: &Memory, sweep: &[LoadPoint]) -> Vec<Warning> {
    let d = &r.deployment;
    let w = &r.workload;
    let mut warnings = Vec::new();
    if let Some(on) = &d.engine.calibrated_elsewhere {
        warnings.push(Warning::new(
            WarningKind::CalibratedElsewhere,
            format!("the engine's efficiencies were calibrated on {on}, not on this deployment: nothing says they carry (the bands are the class's); calibrate on runs of this one, or undo the calibration"),
        ));
    }
    // A disaggregated deployment fits when each pool holds the weights; the one that does not is named.
    if let Some((d, pool)) = super::weights_short(r) {
        let d = &d;
        warnings.push(Warning::new(
            WarningKind::DoesNotFit,
            format!(
                // Both sides in GB (the device's GiB in brackets): "25.2 GB usable on 1 × 24.0 GiB" read as more than the device.
                // The engine's share of the memory said too: "42.5 GB usable of 2 × 25.8 GB after the engine keeps
                // 1.8 GiB each" left a trial 10 % short of the arithmetic (vLLM's 90 %).
                "{pool}the weights ({:.1} GB) do not fit: {:.1} GB usable of {} × {:.1} GB ({:.1} GiB), the engine's {:.0} % of it less the {:.1} GiB it keeps on each{}",
                mem.weights_gb,
                ((d.hardware.accelerator_memory_bytes() * d.engine.memory_utilization
                    - d.engine.reserve_gb * crate::model::units::GIB * f64::from(d.hardware.devices))
                    / 1e9)
                    .max(0.0),
                d.hardware.devices,
                d.hardware.memory_gb * crate::model::units::GIB / 1e9,
                d.hardware.memory_gb,
                d.engine.memory_utilization * 100.0,
                d.engine.reserve_gb,
                if d.hardware.accelerator_memory_fraction() < 1.0 {
                    format!(
                        " (Metal lets the GPU use {:.0} % of unified memory; beyond it the model pages and slows to a crawl)",
                        d.hardware.accelerator_memory_fraction() * 100.0
                    )
                } else {
                    String::new()
                }
            ),
        ));
    } else if mem.kv_max_sequences < 1.0 {
        warnings.push(Warning::new(
            WarningKind::KvDoesNotFit,
            format!(
                "the weights fit, but not even one sequence of {:.0} tokens fits in the {:.1} GB left for the KV cache ({:.1} GB needed)",
                mem.context_tokens,
                mem.kv_budget_gb,
                d.kv_bytes(mem.context_tokens) / 1e9
            ),
        ));
    }
    // (Nothing is simulated for a model that does not fit: no word of how many requests would have been, a teacher's
    // trial.)
    if mem.fits && !matches!(w.load, Load::Offline) && !w.benchmark_run && sim_requests(w) < w.requests {
        warnings.push(Warning::new(WarningKind::FewerRequests, format!(
            "{} requests simulated per load level instead of the {} asked of each level (workload.requests) to bound the work (about 600,000 request-steps per level; a level of more users measures one per user); the tail percentiles rest on fewer samples",
            sim_requests(w),
            w.requests
        )));
    }
    // An offline job's latencies are timed from each request's admission into the running batch, as its steps see
    // it; the job's requests wait their turn in waves, which those figures leave out (a checking script: 200 requests
    // on an L4, E2E 22 s and TTFT P99 1.3 s, where the job takes 97 s and its last request waits most of it).
    if let (Load::Offline, false, Some(p)) = (&w.load, w.benchmark_run, sweep.first().filter(|p| p.system_tps > 0.0 && mem.fits)) {
        let job = f64::from(w.requests) * w.output_tokens / p.system_tps;
        // (The level is what runs at once: the fullest batch, or every request where fewer.)
        let at_once = p.concurrency.unwrap_or(p.mean_batch).max(1.0);
        if f64::from(w.requests) > at_once {
            warnings.push(Warning::new(
                WarningKind::OfflineTiming,
                format!(
                    "an offline job: its {} requests take about {} s at {} tok/s, about {} at once; each request's TTFT and E2E are timed from its admission into the running batch, not from the job's start, so they leave out the wait of the later requests (up to about {} s)",
                    crate::plan::readout::group(f64::from(w.requests)),
                    crate::plan::readout::group(job.round()),
                    crate::plan::readout::group(p.system_tps.round()),
                    crate::plan::readout::group(at_once.round()),
                    crate::plan::readout::group((job - p.e2e_ms.p50 / 1e3).max(0.0).round())
                ),
            ));
        }
    }
    // The imported runs' loads among the levels: the peak, the knee and what is read at them may differ from the
    // scenario's alone, which a link or `tps eval` evaluates (an operations trial: a 64-user level of 406 evictions,
    // added for an imported run, moved the throughput peak from 4 users to 64, and the CLI said 4).
    if !w.levels_for_runs.is_empty() {
        let added: Vec<String> = w.levels_for_runs.iter().map(|x| crate::plan::readout::group(*x)).collect();
        warnings.push(Warning::new(
            WarningKind::LevelsForRuns,
            format!(
                "the load levels include {} user{}, the imported runs' concurrencies, so the curves reach them: the peak, the knee and what is read there are over these levels too; the scenario alone (its link, `tps eval`) has its own levels",
                added.join(", "),
                if added.len() == 1 && w.levels_for_runs[0] == 1.0 { "" } else { "s" }
            ),
        ));
    }
    let hw = &d.hardware;
    // llama.cpp's own splits asked of a serving engine (and FP8 of llama.cpp: the cases exclude each other).
    if hw.devices > 1 && d.engine.kind != crate::model::engine::EngineKind::LlamaCpp {
        let name = &d.engine.name;
        let why = match hw.parallelism {
            Parallelism::LayerSplit => {
                Some(format!("a layer split is llama.cpp's multi-GPU mode; {name} splits layers as a pipeline (choose \"pipeline\")"))
            }
            Parallelism::RowSplit => Some(format!("a row split is llama.cpp's -sm row; {name} splits tensors with all-reduces (choose \"tensor\")")),
            _ => None,
        };
        if let Some(why) = why {
            warnings.push(Warning::new(WarningKind::WrongSplit, why));
        }
    }
    // …and a serving engine's tensor parallelism asked of llama.cpp (a new user's trial: 8B on 4 × L40S read +60 %
    // over one device, silently).
    if hw.devices > 1 && d.engine.kind == crate::model::engine::EngineKind::LlamaCpp && hw.parallelism == Parallelism::Tensor {
        warnings.push(Warning::new(
            WarningKind::WrongSplit,
            "llama.cpp has no tensor-parallel split: its multi-GPU modes are the layer split (-sm layer, its default) and the row split (-sm row); \"tensor\" here is what an engine with one would do",
        ));
    }
    if d.engine.kind == crate::model::engine::EngineKind::LlamaCpp && matches!(d.compute_dtype, crate::model::quant::ComputeDtype::Fp8) {
        warnings.push(Warning::new(WarningKind::NoFp8, "llama.cpp has no FP8 weight format; its 8-bit format is GGUF Q8_0 (8.5 bits)"));
    }
    // A serving engine on Apple silicon (a pre-sales trial's M3 Ultra kept the page's vLLM in BF16: 4.1 tok/s without
    // a word, where llama.cpp's Q4_K_M, what runs there, makes 14).
    // (The generic engine stands for any other, MLX or Ollama among them: no warning.)
    use crate::model::engine::EngineKind as E;
    if hw.kind == crate::model::hardware::HardwareKind::AppleSilicon && matches!(d.engine.kind, E::Vllm | E::Sglang | E::TensorRtLlm | E::Lmdeploy) {
        warnings.push(Warning::new(
            WarningKind::EngineNotOnDevice,
            format!(
                "{} does not run on Apple silicon (no Metal backend): these figures apply its efficiencies to this device; llama.cpp is what serves a model here",
                d.engine.name
            ),
        ));
    }
    // llama.cpp serves few requests at once by default (llama-server's slots): a sweep past them looks flat, and a class
    // on batching needs to know the lever (a teacher's trial: "the concurrency lesson looks flat").
    let slots = d.engine.max_batch;
    if d.engine.kind == E::LlamaCpp
        && slots <= 8
        && w.think_time_s <= 0.0
        && sweep.iter().any(|p| p.concurrency.is_some_and(|c| c > f64::from(slots)))
    {
        warnings.push(Warning::new(
            WarningKind::FewSlots,
            format!("llama.cpp serves {slots} request{} at once here (llama-server's slots, -np): past {slots} users the others wait their turn and system tok/s stops rising; to see it batch more, raise Max running sequences (and -np with it)", if slots == 1 { "" } else { "s" }),
        ));
    }
    // GGUF on a serving engine (a teacher's trial: Q4_K_M under vLLM was predicted with vLLM's fitted efficiencies,
    // "B is better on every figure" against F16, with nothing said): vLLM's documentation calls its GGUF support
    // highly experimental and under-optimised; SGLang's is no tuned format of its own either; TensorRT-LLM and
    // LMDeploy load none (a review: the first wording had given vLLM's caveat to SGLang and left NVFP4 out).
    if r.quantization.starts_with("GGUF") && matches!(d.engine.kind, E::Vllm | E::Sglang | E::TensorRtLlm | E::Lmdeploy) {
        let own = "its own formats (BF16, FP8, AWQ, GPTQ, NVFP4 where the device has it) are what it is tuned for";
        let why = match d.engine.kind {
            E::Vllm => format!("vLLM's documentation calls its GGUF support highly experimental and under-optimised: these figures apply vLLM's fitted efficiencies and are likely optimistic; {own}"),
            E::Sglang => format!("GGUF is not among SGLang's tuned formats: these figures apply its fitted efficiencies and are likely optimistic; {own}"),
            _ => format!("{} does not load GGUF files: these figures apply its efficiencies to a format it does not run; {own}", d.engine.name),
        };
        warnings.push(Warning::new(WarningKind::GgufOnServingEngine, why));
    }
    // vLLM sizes its sampler's profile run by max_num_seqs: at 1,024 sequences and a large vocabulary it can keep
    // more memory per device than the KV cache gets (gpt-oss-120b on one H100: 7.4 GiB against 5.1 GB of KV).
    // (Disaggregated: the decode pool's, whose memory holds the running sequences, as `mem` is; a review.)
    let pool = r.pools().map(|(_, dec)| dec);
    let md = pool.as_ref().unwrap_or(d);
    let e = &md.engine;
    let per_device = md.kv_budget_bytes() / f64::from(md.hardware.devices);
    if mem.fits
        && e.reserve_gb >= 2.0
        && crate::presets::engines::has_vllm_default_reserve(md)
        && e.reserve_gb * crate::model::units::GIB > 0.25 * per_device
    {
        // What a smaller cap would give, in numbers (an operations trial sized 70B on 2 × H100 at 3 sequences, 40
        // servers, and read the hint as a grey line it could not weigh): the cap among 32–512 under which the most
        // sequences run, each cap's reserve as vLLM would profile it.
        let ctx = mem.context_tokens;
        let at = |cap: u32| {
            let mut c = md.clone();
            c.engine.max_batch = cap;
            c.engine.reserve_gb = crate::presets::engines::vllm_reserve_gib(&c);
            (cap, c.engine.reserve_gb, c.max_sequences(ctx).floor().min(f64::from(cap)))
        };
        let best = [512, 256, 128, 64, 32].into_iter().filter(|c| *c < e.max_batch).map(at).fold(None, |b: Option<(u32, f64, f64)>, x| match b {
            Some(b) if b.2 >= x.2 => Some(b),
            _ => Some(x),
        });
        let hint = match best.filter(|b| b.2 > mem.kv_max_sequences.floor()) {
            Some((cap, gib, n)) => format!(
                ": --max-num-seqs {cap} (engine.max_batch) keeps {gib:.1} GiB, and about {} sequences of {ctx:.0} tokens fit instead of {}",
                crate::plan::readout::group(n),
                crate::plan::readout::group(mem.kv_max_sequences.floor())
            ),
            None => ": fewer max running sequences (--max-num-seqs) free most of it".into(),
        };
        warnings.push(Warning::new(
            WarningKind::SamplerReserve,
            format!(
                "vLLM keeps {:.1} GiB per device for its sampler's profile run ({} sequences × {} vocabulary) beside {:.1} GB of KV cache per device{hint}",
                e.reserve_gb,
                e.max_batch.min(e.max_batched_tokens),
                md.model.vocab,
                per_device / 1e9
            ),
        ));
    }
    // When nothing fits, every level "saturates" trivially: the does-not-fit warning above is the whole story.
    if mem.fits && sweep.iter().any(|p| p.saturated) {
        // The lightest level served: the saturated ones lie past the capacity, the sweep's hockey stick — a note.
        warnings.push(if sweep.first().is_some_and(|p| !p.saturated) {
            Warning::new(
                WarningKind::SaturatesPastCapacity,
                "the heaviest load levels saturate: the queue grows without bound there, and their latencies are lower bounds",
            )
        } else {
            Warning::new(
                WarningKind::Saturates,
                "some load levels saturate: the queue grows without bound there, and their latencies are lower bounds",
            )
        });
    }
    warnings
}
