//! The read-out of one load level (the page's scrubber card): the figures of a sweep level in one sentence —
//! per-user and system tok/s, TTFT and TPOT at the target's percentile, the running batch and what bounds a
//! step — with the numbers as the sweep table prints them. Also the level nearest a load (on the charts' log
//! scale), where the scrubber and the pointer snap to, and the number formats the page shares.

use crate::model::roofline::Bound;
use crate::scenario::{LoadPoint, Report};

/// "4 run at once, the engine's limit; the others wait their turn" where `users` outnumber the sequences the engine
/// runs at once and do not think between requests (users who pause are not all waiting): the CLI's peak lines and
/// the verdict's capacity say it so.
#[must_use]
pub fn waiting_turn(mem: &crate::scenario::Memory, users: Option<f64>, think_time_s: f64) -> Option<String> {
    users
        .filter(|n| *n > mem.max_concurrency + 0.5 && mem.max_concurrency >= 1.0 && think_time_s <= 0.0)
        .map(|_| format!("{} run at once, {}; the others wait their turn", group(mem.max_concurrency), running_limit(mem)))
}

/// What bounds the sequences the engine runs at once (`Memory::max_concurrency`), as the CLI's peak line and the
/// verdict say it beside that count ([`waiting_turn`]).
#[must_use]
pub fn running_limit(mem: &crate::scenario::Memory) -> &'static str {
    if mem.engine_capped {
        "the engine's limit"
    } else if mem.slot_tokens.is_some() {
        "the slots the memory holds, each for the longest request"
    } else {
        "memory's limit"
    }
}

/// Groups thousands with a narrow no-break space (U+202F: a thin space, U+2009, lets a line break inside a number), whole numbers ("30 119"; "−4" with a typographic minus).
#[must_use]
pub fn group(v: f64) -> String {
    let digits = format!("{:.0}", v.abs());
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push('\u{202f}');
        }
        out.push(c);
    }
    if v < 0.0 {
        format!("−{out}")
    } else {
        out
    }
}

/// A level's load: users (closed loop) or requests/s (open loop).
pub(crate) fn load_of(l: &LoadPoint) -> f64 {
    l.load().unwrap_or(0.0)
}

/// The index of the sweep level nearest `x` on the charts' log scale (the first of two equally near ones);
/// `None` for an empty sweep. Without `x`, the first level.
#[must_use]
pub fn nearest_level(r: &Report, x: Option<f64>) -> Option<usize> {
    let ln = |v: f64| v.max(1e-9).ln();
    let dist = |l: &LoadPoint| x.map_or(0.0, |x| (ln(load_of(l)) - ln(x)).abs());
    (0..r.sweep.len()).reduce(|best, i| if dist(&r.sweep[i]) < dist(&r.sweep[best]) { i } else { best })
}

/// What does not fit and what would make it fit: the weights (more devices, fewer bits), or, the weights fitting,
/// one sequence's KV cache (a shorter context, an FP8 cache, more devices).
#[must_use]
pub fn no_fit(r: &Report) -> String {
    let m = &r.memory;
    // A disaggregated pool that cannot hold the weights is named by its warning (the memory figures are the decode
    // pool's, which may fit while the prefill pool does not).
    let pool = r
        .warnings
        .iter()
        .filter(|w| w.kind == super::WarningKind::DoesNotFit)
        .find_map(|w| super::POOLS.into_iter().find(|p| w.message.starts_with(p)));
    if let Some(p) = pool {
        format!(
            "{} cannot hold the model's weights: give it more devices (some of the other pool's) or pick a smaller weight format",
            p.strip_suffix(": ").unwrap_or(p)
        )
    } else if m.kv_budget_gb <= 0.0 {
        "the model's weights do not fit: add devices or pick a smaller weight format".into()
    } else {
        format!(
            "the KV cache of one {}-token sequence does not fit in the {:.1} GB left after the weights: shorten the context, use an FP8 KV cache or add devices",
            group(m.context_tokens),
            m.kv_budget_gb
        )
    }
}

/// The scrubber's card for level `i` of the sweep.
#[derive(Debug, Clone, PartialEq)]
pub struct Readout {
    /// The level's load (users or requests/s), where the charts' marker goes.
    pub load: f64,
    /// "37 users" or "2.5 req/s" (the slider's spoken value).
    pub load_text: String,
    /// The sentence.
    pub text: String,
}

/// A compute-bound level whose decode step alone would be memory-bound: the steps that read a prompt chunk make
/// it compute-bound. A teacher's trial read "compute" in the table beside a decode point left of the ridge, and
/// per-user speed falling as a memory-bound batch should not. "Memory-bound alone" is the step's own rule
/// (`model::roofline`: the times of its kernel classes one after the other), kept on the roofline's decode point.
/// Neither the whole step's intensity nor each class's is that test: 96 users of a 70B FP8 model on an H200 read
/// left of the ridge by their KV bytes while their matmuls, most of the step's time, are right of it (an audit found
/// them starred); 128 users of it on 8 × H200 at 4,096 tokens have matmuls right of the ridge and KV reads that take
/// longer (a review: unstarred by a per-class test).
#[must_use]
pub fn compute_from_prompts(r: &Report, l: &LoadPoint) -> bool {
    // (Not compute-bound alone: a decode step set by the kernel chain's floor is made compute-bound by its prompts
    // too — a review found DeepSeek-V3's 8,000-token prompts on 8 × H200 read "compute (matmuls)" beside decode
    // points at intensity 5, bound by overhead.)
    l.bound == Bound::Compute && r.roofline.decode_at(l.mean_batch).is_some_and(|d| d.bound != Bound::Compute)
}

/// A level's bound as the sweep table names it: "compute (prompts)" where the steps reading prompt chunks make it
/// so ([`compute_from_prompts`]), "compute (matmuls)" where the decode step's matmuls over the weights are past
/// their ridge while the step's point on the roofline, its KV reads counted, sits left of the engine's ridge (a
/// teacher's trial read "compute" in the table beside a point the roofline's caption calls memory-bound), else the
/// bound's id.
#[must_use]
pub fn bound_label(r: &Report, l: &LoadPoint) -> &'static str {
    if compute_from_prompts(r, l) {
        "compute (prompts)"
    } else if l.bound == Bound::Compute
        && r.roofline.decode_at(l.mean_batch).is_some_and(|d| d.bound == Bound::Compute && d.intensity < r.roofline.engine_ridge())
    {
        "compute (matmuls)"
    } else {
        l.bound.id()
    }
}

/// The figures of sweep level `i` in one sentence, or `None` past the sweep's end: "At 37 users: 104.3 tok/s
/// each, 3 063 tok/s in total; P99 TTFT 312 ms, P99 TPOT 9.6 ms; batch 35.2 sequences per step;
/// memory-bound; meets the target." The percentile is the target's; the numbers are rounded as in the sweep
/// table (tok/s each and TPOT to 0.1, tok/s in total and TTFT to whole numbers, the batch to 0.1).
/// One user's speed where a token's fixed work, not its reads, sets it (`single_stream.bound` overhead): why the
/// hardware barely moves it — an operations trial read DeepSeek-V3's 120 tok/s alone on 8 × H100, H200, MI300X and
/// B200 alike, beside ceilings from 708 to 1,120, and learnt nothing about the hardware from it. `None` otherwise.
#[must_use]
pub fn overhead_bound_words(r: &Report) -> Option<String> {
    let ss = &r.single_stream;
    if ss.bound != Bound::Overhead || !r.memory.fits {
        return None;
    }
    // What the devices exchange per token, by how they share the model (a review: a pipeline had read "all-reduces").
    // llama.cpp has no serving engine's chain of small kernels, and its row split synchronises its devices at every
    // layer rather than all-reducing (a review read both for 2 × RTX 4090).
    let llama_cpp = r.engine.starts_with("llama.cpp");
    let split = match ss.devices {
        0 | 1 => String::new(),
        n if r.hardware.ends_with("(DP attention)") => format!(", the exchanges of tokens between its {n} devices at every MoE layer"),
        n if llama_cpp && ss.streaming_devices > 1.0 => format!(", the synchronisations between its {n} devices at every layer"),
        n if ss.streaming_devices > 1.0 => format!(", the all-reduces between its {n} devices"),
        n => format!(", the hand-offs between its {n} devices, one after another"),
    };
    let chain = if llama_cpp { "" } else { ", the chain of small kernels" };
    Some(format!(
        "overhead-bound alone: a token's fixed work (the engine's own per step{split}{chain}) outlasts reading its {} GB, so faster memory barely moves one user here ({} % of the ceiling); it shows under load",
        crate::model::units::fmt_num((ss.bytes_per_token / 1e8).round() / 10.0),
        ((ss.decode_tps / ss.ceiling_tps.max(1e-9)) * 100.0).round()
    ))
}

/// One user's speed counting the wait for the first token — `output` tokens over an answer's time `e2e_ms` — where
/// that wait (`ttft_ms`) is a tenth of the answer's time or more: there 1 ÷ TPOT (the speed while the answer streams)
/// times the users is well above the system's tokens a second (a teacher's trial: 4 users at 134 tok/s each beside 445
/// in total, fixed 1,024/128-token requests whose waves wait 195 ms of 1.15 s). With the mean answer's time, in a
/// closed loop without pauses, this figure times the users is the total (Little's law); the scrubber's card gives the
/// median answer's, beside its times. (A fifth until 2026-12-07, when the verdict's line took it too.)
#[must_use]
pub fn speed_with_wait(output: f64, ttft_ms: f64, e2e_ms: f64) -> Option<f64> {
    (e2e_ms > 0.0 && ttft_ms >= 0.1 * e2e_ms && output > 1.0).then(|| output / (e2e_ms / 1e3))
}

#[must_use]
pub fn readout(r: &Report, i: usize) -> Option<Readout> {
    readout_of(r, r.sweep.get(i)?, "")
}

/// The scrubber's card for the operating point's own level (the card before another load is picked).
#[must_use]
pub fn operating_readout(r: &Report) -> Option<Readout> {
    readout_of(r, r.operating_level.as_ref()?, ", the operating point")
}

/// The card for the level `l`, one of the sweep's or the operating point's, `named` after its load ("At 43
/// users, the operating point: …").
fn readout_of(r: &Report, l: &LoadPoint, named: &str) -> Option<Readout> {
    let p = r.target.percentile;
    let load_text = match l.request_rate {
        Some(rate) if l.concurrency.is_none() => format!("{} req/s", crate::model::units::fmt_num((rate * 1e3).round() / 1e3)),
        _ => {
            let c = load_of(l);
            format!("{} {}", group(c), if c.round() == 1.0 { "user" } else { "users" })
        }
    };
    // Nothing is served when the model does not fit: the level's zeros are not figures to read out.
    if !r.memory.fits {
        let text = format!("At {load_text}{named}: nothing is served — {}.", no_fit(r));
        return Some(Readout { load: load_of(l), load_text, text });
    }
    let bound = match l.bound {
        Bound::Memory => "memory-bound (each step reads the weights and the KV cache)",
        Bound::Compute if compute_from_prompts(r, l) => {
            "compute-bound (the steps that read a prompt chunk, limited by arithmetic, take most of the busy time; a step of decodes alone is not compute-bound at this batch: its reads or the engine's own time set it)"
        }
        Bound::Compute => "compute-bound (steps limited by arithmetic, not reads, take most of the busy time)",
        Bound::Overhead => {
            "overhead-bound (the engine's own time, the kernel launches or the all-reduces, not the kernels' bytes or FLOPs, set the step)"
        }
    };
    let verdict = if l.saturated {
        "saturated: the queue grows without bound, so the latencies are lower bounds"
    } else if l.meets_target && !r.target.limits_latency() && r.target.task_s.is_none() {
        // Batch mode judges no latency (a teacher's trial: "meets the target" where there was none to meet).
        "no latency target (batch)"
    } else if l.meets_target {
        "meets the target"
    } else {
        "misses the target"
    };
    // Per-user speed is 1 ÷ TPOT, the speed while the answer streams: where the wait before it is a good part of the
    // answer's time, the speed counting it too (a teacher's trial read 17.4 tok/s each at 128 and 256 users on one
    // RTX 4090 beside TTFTs of 16 and 47 s).
    let (e2e, ttft) = (l.e2e_ms.p50, l.ttft_ms.p50);
    let waiting = match speed_with_wait(r.output_tokens, ttft, e2e) {
        Some(v) => format!(
            " ({} counting the wait: a median answer takes {} s, the median wait for its first token {} s)",
            crate::model::units::fmt_num((v * 10.0).round() / 10.0),
            crate::model::units::fmt_num((e2e / 100.0).round() / 10.0),
            crate::model::units::fmt_num((ttft / 100.0).round() / 10.0)
        ),
        None => String::new(),
    };
    // The memory full: sequences evicted and read again (a teacher's trial saw a level miss its target with no word
    // of why; the table's CLI twin counted 323 preemptions).
    let evicted = if l.preemptions > 0 {
        format!("; the KV cache was full: {} running requests were evicted and later read again", group(f64::from(l.preemptions)))
    } else {
        String::new()
    };
    // A mixture-of-experts model's batch shares the experts it reaches (a teacher's trial: the page said a bigger
    // batch "touches most experts" with no count to show a class): N (1 − (1 − k/N)^B) of N, the expected distinct
    // experts B tokens routed to k each reach, in each MoE layer.
    let experts = r.experts.filter(|(n, k)| *n > 0 && k < n).map_or_else(String::new, |(n, k)| {
        let (n, k) = (f64::from(n), f64::from(k));
        let reached = crate::model::llm::experts_reached(n, k, l.mean_batch);
        format!(" (its decodes reach about {:.0} of the {n} experts of each MoE layer, {k} a token: one user reads {k})", reached)
    });
    let text = format!(
        "At {load_text}{named}: {:.1} tok/s each{waiting}, {} tok/s in total; {p} TTFT {} ms, {p} TPOT {:.1} ms; batch {:.1} sequences per step{experts}; {bound}{evicted}; {verdict}.",
        l.per_user_tps,
        group(l.system_tps),
        group(l.ttft_ms.at(p)),
        l.tpot_ms.at(p),
        l.mean_batch,
    );
    Some(Readout { load: load_of(l), load_text, text })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    fn eval(json: &str) -> Report {
        crate::plan::evaluate(&Scenario::from_json(json).unwrap()).unwrap()
    }

    /// One user of a large MoE model on 8 devices is overhead-bound, on H100 and B200 alike: said, with the devices'
    /// all-reduces; a dense 8B model on one H100 streams its weights (memory-bound) and says nothing.
    #[test]
    fn one_user_overhead_bound_says_why_the_hardware_barely_moves_it() {
        let analytic = |hw: &str, devices: u32, model: &str| {
            crate::plan::evaluate_analytic(
                &Scenario::from_json(&format!(
                    r#"{{"hardware":{{"preset":"{hw}","devices":{devices}}},"model":{{"preset":"{model}"}},"engine":{{"preset":"sglang"}},"workload":{{"prompt_tokens":1500,"output_tokens":400}}}}"#
                ))
                .unwrap(),
            )
            .unwrap()
        };
        for hw in ["h200-sxm", "b200"] {
            let r = analytic(hw, 8, "deepseek-v3");
            let w = overhead_bound_words(&r).unwrap_or_else(|| panic!("{hw}: {:?}", r.single_stream.bound));
            assert!(w.contains("the all-reduces between its 8 devices") && w.contains("faster memory barely moves one user"), "{w}");
            let pct = (r.single_stream.decode_tps / r.single_stream.ceiling_tps * 100.0).round();
            assert!(w.contains(&format!("({pct} % of the ceiling)")), "{w}");
        }
        assert_eq!(overhead_bound_words(&analytic("h100-sxm", 1, "llama-3.1-8b")), None);
        // A pipeline hands a token from stage to stage: no all-reduces to name (a review).
        let r = crate::plan::evaluate_analytic(
            &Scenario::from_json(r#"{"hardware":{"preset":"h100-sxm","devices":8,"parallelism":"pipeline"},"model":{"preset":"gpt-oss-20b"},"engine":{"preset":"sglang"},"workload":{"prompt_tokens":1500,"output_tokens":400}}"#).unwrap(),
        )
        .unwrap();
        let w = overhead_bound_words(&r).unwrap_or_default();
        assert!(w.contains("the hand-offs between its 8 devices, one after another") && !w.contains("all-reduce"), "{w}");
    }

    #[test]
    fn thousands_are_grouped_with_a_thin_space() {
        assert_eq!(
            [group(0.0), group(999.4), group(30_119.0), group(1_234_567.0), group(-4.0)],
            ["0", "999", "30\u{202f}119", "1\u{202f}234\u{202f}567", "−4"]
        );
    }

    /// "compute*" (prompts make the level compute-bound) only where a step of decodes alone would be memory-bound by
    /// the step's own rule: 92 decodes of a 70B FP8 model on an H200 with 16-token prompts are compute-bound in
    /// their matmuls alone (an audit found the star there); 32 users of an 8B BF16 model on an H100 with 1,024-token
    /// prompts decode memory-bound and are compute-bound for the prompt chunks.
    #[test]
    fn compute_from_prompts_follows_the_steps_own_rule() {
        let decodes = eval(
            r#"{"hardware":{"preset":"h200-sxm"},"model":{"preset":"llama-3.1-70b"},"quantization":{"weights":"fp8"},"engine":{"preset":"vllm"},"workload":{"prompt_tokens":16,"output_tokens":2048,"load":{"concurrency":[96]},"requests":300}}"#,
        );
        let l = &decodes.sweep[0];
        assert!(l.bound == Bound::Compute && !compute_from_prompts(&decodes, l), "{:?} at batch {}", l.bound, l.mean_batch);
        let prompts = eval(
            r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"quantization":{"weights":"bf16"},"engine":{"preset":"vllm"},"workload":{"prompt_tokens":1024,"output_tokens":128,"load":{"concurrency":[32]},"requests":300}}"#,
        );
        let l = &prompts.sweep[0];
        assert!(l.bound == Bound::Compute && compute_from_prompts(&prompts, l), "{:?} at batch {}", l.bound, l.mean_batch);
        // Matmuls right of the ridge and KV reads that take longer: decodes alone are memory-bound (a review: a
        // per-class test had left 128 users of a 70B FP8 model on 8 × H200 at 4,096-token prompts unstarred).
        let long = eval(
            r#"{"hardware":{"preset":"h200-sxm","devices":8},"model":{"preset":"llama-3.1-70b"},"quantization":{"weights":"fp8"},"engine":{"preset":"vllm"},"workload":{"prompt_tokens":4096,"output_tokens":256,"load":{"concurrency":[128]},"requests":300}}"#,
        );
        let l = &long.sweep[0];
        let d = long.roofline.decode_at(l.mean_batch).unwrap();
        assert!(d.linear_intensity * d.tokens / (d.tokens + d.prompt_tokens) > long.roofline.engine_ridge(), "{d:?}");
        assert!(l.bound == Bound::Compute && compute_from_prompts(&long, l), "{:?} at batch {}, alone {:?}", l.bound, l.mean_batch, d.bound);
        // The table's labels: the 96 users' matmuls past their ridge while their point, its KV reads counted, is left
        // of it ("compute (matmuls)"); prompts that make a step compute-bound ("compute (prompts)"), also where the
        // decodes alone are set by the kernel chain (a review: DeepSeek-V3's long prompts on 8 × H200 had read
        // "(matmuls)" beside decode points at intensity 5, bound by overhead).
        let l = &decodes.sweep[0];
        let d = decodes.roofline.decode_at(l.mean_batch).unwrap();
        assert_eq!(bound_label(&decodes, l), if d.intensity < decodes.roofline.engine_ridge() { "compute (matmuls)" } else { "compute" });
        assert_eq!(bound_label(&prompts, &prompts.sweep[0]), "compute (prompts)");
        let chain = eval(
            r#"{"hardware":{"preset":"h200-sxm","devices":8},"model":{"preset":"deepseek-v3"},"quantization":{"weights":"fp8"},"engine":{"preset":"sglang"},"workload":{"prompt_tokens":8000,"output_tokens":16,"load":{"concurrency":[1]},"requests":20}}"#,
        );
        let l = &chain.sweep[0];
        let d = chain.roofline.decode_at(l.mean_batch).unwrap();
        assert!(l.bound == Bound::Compute && d.bound == Bound::Overhead, "{:?}, alone {:?}", l.bound, d.bound);
        assert_eq!(bound_label(&chain, l), "compute (prompts)");
    }

    /// A mixture-of-experts model's readout says how many experts a step's decodes reach: one user its k, a batch
    /// more of them, never more than there are; a dense model's says nothing of experts.
    #[test]
    fn a_moe_readout_counts_the_experts_a_batch_reaches() {
        let moe = eval(
            r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"qwen3-30b-a3b"},"engine":{"preset":"vllm"},"workload":{"prompt_tokens":512,"output_tokens":128,"load":{"concurrency":[1,64]},"requests":100}}"#,
        );
        let reached = |i: usize| -> f64 {
            let t = readout(&moe, i).unwrap().text;
            let after = t.split("its decodes reach about ").nth(1).unwrap_or_else(|| panic!("{t}"));
            assert!(after.contains(" of the 128 experts of each MoE layer, 8 a token"), "{t}");
            after.split(' ').next().unwrap().parse().unwrap()
        };
        let (one, many) = (reached(0), reached(1));
        assert!((one - 8.0).abs() < 0.6 && many > 4.0 * one && many <= 128.0, "{one} → {many}");
        let dense = eval(
            r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"engine":{"preset":"vllm"},"workload":{"load":{"concurrency":[1]},"requests":20}}"#,
        );
        assert!(!readout(&dense, 0).unwrap().text.contains("experts"));
    }

    /// A level whose KV cache filled says so, with the requests evicted (a teacher's trial: "misses the target" and no
    /// word of the memory, where the CLI's table counted the preemptions).
    #[test]
    fn a_full_kv_cache_is_said_at_its_level() {
        let r = eval(
            r#"{"hardware":{"preset":"h100-sxm","devices":2},"model":{"preset":"llama-3.1-70b"},"quantization":{"weights":"fp8"},"engine":{"preset":"vllm"},"workload":{"prompt_tokens":8192,"output_tokens":512,"load":{"concurrency":[1,32]},"requests":100}}"#,
        );
        let full = &r.sweep[1];
        assert!(full.preemptions > 0, "{full:?}");
        let text = readout(&r, 1).unwrap().text;
        assert!(
            text.contains(&format!("; the KV cache was full: {} running requests were evicted and later read again;", full.preemptions)),
            "{text}"
        );
        assert!(!readout(&r, 0).unwrap().text.contains("KV cache was full"));
    }

    #[test]
    fn the_card_quotes_the_level_at_the_targets_percentile() {
        // P95 target: the card must quote P95, not a fixed P99.
        let r = eval(
            r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"target":{"percentile":95},"workload":{"requests":200,"load":{"concurrency":[1,8,64]}}}"#,
        );
        for (i, l) in r.sweep.iter().enumerate() {
            let c = readout(&r, i).unwrap();
            let n = l.concurrency.unwrap();
            assert_eq!(c.load, n);
            let want = [
                format!("At {} {}: ", group(n), if n == 1.0 { "user" } else { "users" }),
                format!("{:.1} tok/s each", l.per_user_tps),
                format!(", {} tok/s in total", group(l.system_tps)),
                format!("P95 TTFT {} ms, P95 TPOT {:.1} ms", group(l.ttft_ms.p95), l.tpot_ms.p95),
                format!("batch {:.1} sequences per step", l.mean_batch),
            ];
            for w in &want {
                assert!(c.text.contains(w.as_str()), "level {i}: {w:?} not in {:?}", c.text);
            }
            assert!(!c.text.contains("P99"), "{}", c.text);
            assert!(c.text.contains(if l.meets_target { "meets the target" } else { "the target" }));
            let bound = l.bound.id();
            assert!(c.text.contains(&format!("{bound}-bound")), "{bound} in {}", c.text);
        }
        assert!(readout(&r, r.sweep.len()).is_none(), "past the sweep's end");
    }

    #[test]
    fn a_model_that_does_not_fit_reads_out_no_figures() {
        // A new user's trial read "At 1 user: 0.0 tok/s … P99 TTFT 0 ms … overhead-bound … saturated".
        let r =
            eval(r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-70b"},"workload":{"requests":100,"load":{"concurrency":[1,8]}}}"#);
        assert!(!r.memory.fits);
        let c = readout(&r, 0).unwrap();
        assert!(c.text.starts_with("At 1 user: nothing is served") && !c.text.contains("tok/s") && !c.text.contains("bound"), "{}", c.text);
        assert!(c.text.contains("weights do not fit: add devices"), "{}", c.text);
        // The weights fit, one sequence's KV cache does not: the advice is about the context, not the weights.
        let r = eval(
            // (A shape typed by hand: a preset's context window refuses such a request outright.)
            r#"{"hardware":{"preset":"h100-sxm"},"model":{"params_b":8},"workload":{"requests":100,"prompt_tokens":2000000,"output_tokens":10,"load":{"concurrency":[1,8]}}}"#,
        );
        assert!(!r.memory.fits && r.memory.kv_budget_gb > 0.0, "{:?}", r.memory);
        let c = readout(&r, 0).unwrap();
        assert!(
            c.text.contains("KV cache of one 2\u{202f}000\u{202f}010-token sequence does not fit") && c.text.contains("shorten the context"),
            "{}",
            c.text
        );
    }

    #[test]
    fn request_rate_loads_read_in_requests_per_second() {
        let r = eval(
            r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"workload":{"requests":200,"load":{"request_rate":[0.5,2.25]}}}"#,
        );
        let c = readout(&r, 1).unwrap();
        assert!(c.text.starts_with("At 2.25 req/s: ") && c.load_text == "2.25 req/s" && c.load == 2.25, "{}", c.text);
        assert!(c.text.contains("P99 TTFT") && !c.text.contains("users"));
    }

    #[test]
    fn the_nearest_level_is_nearest_on_the_log_scale() {
        let r = eval(
            r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"workload":{"requests":100,"load":{"concurrency":[1,4,16,64]}}}"#,
        );
        // 7 is nearer 4 on the log scale (ln 7 − ln 4 = 0.56 < ln 16 − ln 7 = 0.83); 9 is nearer 16 on it
        // (0.58 < 0.81) though nearer 4 on a linear scale (5 < 7).
        let at = |x: f64| nearest_level(&r, Some(x)).map(|i| r.sweep[i].concurrency.unwrap());
        assert_eq!([at(0.1), at(7.0), at(9.0), at(1e6)], [Some(1.0), Some(4.0), Some(16.0), Some(64.0)]);
        assert_eq!(nearest_level(&r, None), Some(0));
        let mut empty = r.clone();
        empty.sweep.clear();
        assert_eq!(nearest_level(&empty, Some(4.0)), None);
    }

    /// Before a pick the card reads the operating point's own level, not the sweep level nearest it (a trial: 96
    /// users on the card beside an operating point of 106).
    #[test]
    fn the_first_card_is_the_operating_points_own() {
        let r = eval(
            r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"workload":{"requests":200,"load":{"concurrency":[1,4,16,64,256]}},"target":{"tpot_ms":40}}"#,
        );
        let o = r.operating_point.clone().unwrap();
        let l = r.operating_level.clone().unwrap();
        assert_eq!(l.concurrency, o.concurrency);
        assert!(r.sweep.iter().all(|p| p.concurrency != o.concurrency), "the operating point is a level here: {:?}", o.concurrency);
        let c = operating_readout(&r).unwrap();
        let users = o.concurrency.unwrap();
        assert!(c.text.starts_with(&format!("At {users} users, the operating point: {:.1} tok/s each", l.per_user_tps)), "{}", c.text);
        assert_eq!(c.load, users);
        assert!((l.system_tps - o.system_tps).abs() < 1e-9 * o.system_tps.max(1.0), "{} vs {}", l.system_tps, o.system_tps);
    }
}
