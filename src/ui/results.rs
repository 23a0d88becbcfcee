//! The headline numbers: ceiling with its formula, predicted single stream, memory, verdict.

use crate::scenario::{Report, ScenarioError};
use leptos::prelude::*;

pub(super) use crate::plan::readout::group;

pub(super) fn fmt(v: f64) -> String {
    if !v.is_finite() {
        "—".into()
    } else if v.abs() >= 1e15 {
        format!("{v:.2e}")
    } else if v.abs() >= 100.0 {
        group(v)
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// A latency limit for text ("none" for the batch target).
pub(super) fn limit(ms: Option<f64>) -> String {
    ms.map_or_else(|| "none".into(), fmt)
}

/// Headline results, or the error that prevents them.
#[component]
pub fn Results(
    /// The evaluation.
    report: ReadSignal<Result<Report, ScenarioError>>,
    /// What stops the current inputs from being computed; the report is then the last inputs' that could be.
    problem: RwSignal<Option<ScenarioError>>,
    /// Every field's error (the problem among them), each shown next to its field.
    #[prop(into)]
    errors: Signal<Vec<ScenarioError>>,
) -> impl IntoView {
    let verdict = move || {
        report.with(|r| {
            r.as_ref().ok().map(|r| {
                // One short line, the rest below it as a sentence of its own (a teacher's trial read the bold line's
                // closing ";" as a stray).
                match r.verdict.split_once("; ") {
                    Some((line, more)) => {
                        let mut more = more.to_string();
                        if let Some(first) = more.get(..1) {
                            more.replace_range(..1, &first.to_ascii_uppercase());
                        }
                        (r.verdict_ok, format!("{line}."), format!(" {more}"))
                    }
                    None => (r.verdict_ok, r.verdict.clone(), String::new()),
                }
            })
        })
    };
    // The problem's message: alone, or above the last results that could be computed (kept, dimmed).
    let stale = move || {
        problem.get().map(|e| {
            view! {
                <div class="card error-card lead" role="alert" id="scenario-error">
                    <strong>"Cannot compute: "</strong>{format!("{}: {}", field_label(&e.field), e.message)}
                    // The others too, by count (a trial fixed six fields one banner at a time, not seeing they were marked).
                    {move || match errors.with(|es| es.iter().filter(|o| o.field != e.field).count()) {
                        0 => String::new(),
                        1 => "; 1 more field is marked".to_string(),
                        n => format!("; {n} more fields are marked"),
                    }}
                    {report.with(Result::is_ok).then_some(". Below: the last inputs that could be computed.")}
                </div>
            }
        })
    };
    let headline = move || match report.get() {
        Err(_) => ().into_any(),
        Ok(r) => {
            let ss = r.single_stream.clone();
            let m = r.memory.clone();
            let bar = memory_bar(&r);
            let formula = format!(
                "{} GB/s{} ÷ {} GB per token = {} tok/s",
                fmt(ss.ceiling_tps * ss.bytes_per_token / 1e9),
                // Tensor parallel: every device streams its slice at once; a layer split: one device at a time.
                if ss.streaming_devices > 1.0 { " (the devices streaming at once)" } else { "" },
                fmt(ss.bytes_per_token / 1e9),
                fmt(ss.ceiling_tps)
            );
            view! {
                <div class="cards lead" id="headline">
                    <div class="card">
                        <h2>"Single-stream ceiling "{super::explain::info("the single-stream ceiling", format!(
                            "The most one user could get if the engine read memory at the device's full specified bandwidth, with no overhead: {formula}. Real engines reach a share of it (the efficiency class below)."
                        ))}</h2>
                        <p class="big" id="ceiling">{fmt(ss.ceiling_tps)}<small>" tok/s"</small></p>
                        <p class="formula" id="ceiling-formula">{formula}</p>
                        <p class="note">{format!("memory bandwidth ÷ bytes read per token: {}; no engine reaches it", ss.bytes_words)}</p>
                    </div>
                    <div class="card">
                        <h2>"One user, predicted "{super::explain::info("one user's tok/s", format!(
                            "Per-user TPS with nobody else on the server: 1 ÷ TPOT = 1000 ÷ {} ms = {} tok/s while the answer streams, after a TTFT of {} ms: reading the {:.0}-token prompt (at {} tok/s){}.",
                            fmt(ss.tpot_ms), fmt(ss.decode_tps), fmt(ss.ttft_ms), r.prompt_tokens, fmt(ss.prefill_tps),
                            if ss.frontend_ms > 0.0 { format!(" plus {} ms of the serving front end (HTTP, tokenisation, scheduling)", fmt(ss.frontend_ms)) } else { String::new() }
                        ))}</h2>
                        <p class="big" id="decode-tps">{fmt(ss.decode_tps)}<small>" tok/s"</small></p>
                        // At the mean lengths, said (a teacher's trial read 78.3 tok/s and TTFT 3 040 ms here beside the table's one user
                        // at 81.9 and a P50 of 2 664, whose lengths vary).
                        <p class="formula">{format!("{} · TPOT {} ms · TTFT {} ms (mean) · prefill {} tok/s · at the mean lengths", crate::plan::band_text(r.band.single_stream_pct), fmt(ss.tpot_ms), fmt(ss.ttft_ms), fmt(ss.prefill_tps))}</p>
                        <p class="note" id="one-user-time">{m.fits.then(|| ss.time_words.clone())}</p>
                        <p class="note" class:bad=!m.fits id="one-user-note">{if m.fits { format!(
                            "{} on {} with {}{}",
                            r.model, r.hardware, r.engine,
                            crate::plan::readout::overhead_bound_words(&r).map_or_else(String::new, |w| format!("; {w}."))
                        ) } else { "does not fit in memory: this is what it would do if it did".to_string() }}</p>
                    </div>
                    <div class="card memcard" id="memory-bar" style=bar.0>
                        <h2>"Memory "{super::explain::info("running requests", format!(
                            "The requests (sequences) the engine can run in one batch: as many as fit in the space for the KV cache (the keys and values attention computed for every token so far, kept per sequence so that each new token reads them instead of recomputing them) — {} — at {} KB per token, or its max batch if smaller. At their full {:.0} tokens, {:.0} fit{}.",
                            // (The device's memory is typed in GiB, as vendors quote it: a teacher's trial read 80 GiB
                            // and 85.9 GB as two figures.)
                            // Weights past the memory leave no space, and nothing to say the engine keeps (an MoE
                            // trial read "the 0.00 GB the engine keeps back" beside its 4.8 GiB a device).
                            if m.kv_budget_gb > 0.0 || m.weights_gb < m.total_gb {
                                format!(
                                    "{} GB of the {} GB ({} GiB), left after {} GB of weights and the {} GB the engine keeps back (its memory share's rest, and its working buffers)",
                                    fmt(m.kv_budget_gb.max(0.0)), fmt(m.total_gb), fmt(m.total_gb * 1e9 / crate::model::units::GIB), fmt(m.weights_gb), fmt((m.total_gb - m.weights_gb - m.kv_budget_gb.max(0.0)).max(0.0))
                                )
                            } else {
                                format!("none here: the {} GB of weights alone exceed the {} GB ({} GiB)", fmt(m.weights_gb), fmt(m.total_gb), fmt(m.total_gb * 1e9 / crate::model::units::GIB))
                            },
                            fmt(m.kv_bytes_per_token / 1e3), m.context_tokens, m.kv_max_sequences.floor(),
                            // Only where more start than fit whole (a review: "up to 256 start … past 557" under an engine cap).
                            if m.max_concurrency > m.kv_max_sequences.floor() { format!("; up to {:.0} start while their caches are short, and past {:.0} the engine preempts as they grow", m.max_concurrency, m.kv_max_sequences.floor()) } else { String::new() }
                        ))}</h2>
                        // The figure that holds for the whole of every request: at full length (a teacher's trial read
                        // "811 fit" above "557 fit at their full 768 tokens", and the sweep never ran more than 635).
                        <p class="big" id="max-concurrency">{format!("{:.0}", m.max_concurrency.min(m.kv_max_sequences.floor()))}<small>{
                            // The engine's cap, where it binds, is not memory's (a trial read llama.cpp's 4 slots as
                            // "4 running requests fit in memory" above "64 fit at their full 2400 tokens").
                            if m.engine_capped && m.max_concurrency < m.kv_max_sequences.floor() { " running requests at once: the engine's cap" }
                            // llama.cpp's slots, sized for the longest request, not the mean (a trial read "1 running
                            // request fits in memory" above "4 fit at their full 33024 tokens").
                            else if m.slot_tokens.is_some() && m.max_concurrency < m.kv_max_sequences.floor() { " at once: llama.cpp's slots, each for the longest request" }
                            else if m.max_concurrency.min(m.kv_max_sequences.floor()).round() == 1.0 { " running request fits in memory" } else { " running requests fit in memory" }
                        }{
                            // A ceiling of memory, not the users served (a teacher's trial: "557 fit" beside a capacity of
                            // 177 read as 557 users).
                            r.capacity.as_ref().and_then(|c| c.max_users_at_target).filter(|u| *u < m.max_concurrency.min(m.kv_max_sequences.floor()))
                                // Users, said so; users who pause run fewer requests than they are (a pre-sales trial read
                                // "the target holds 548" beside 1,024 running requests as 548 running).
                                .map(|u| format!(
                                    " — {} ceiling; the target holds {} user{}{}",
                                    // The engine's cap where it binds (a pre-sales trial read "1024 running requests at
                                    // once: the engine's cap — memory's ceiling" where memory holds 1,713).
                                    if m.engine_capped && m.max_concurrency < m.kv_max_sequences.floor() { "the engine's" } else { "memory's" },
                                    crate::plan::readout::group(u),
                                    // ("1 users", an operations trial.)
                                    if u == 1.0 { "" } else { "s" },
                                    if r.think_time_s > 0.0 { format!(" who pause {} s between requests, fewer running at once", fmt(r.think_time_s)) } else { String::new() }
                                ))
                        }</small></p>
                        <p class="formula">{format!(
                            "KV {} KB/token · {}",
                            fmt(m.kv_bytes_per_token / 1e3),
                            if m.kv_budget_gb >= 0.0 { format!("KV space {} GB", fmt(m.kv_budget_gb)) } else { format!("short by {} GB", fmt(-m.kv_budget_gb)) }
                        )}</p>
                        <p class="note" class:bad=!m.fits>{if m.fits { format!(
                            "{:.0} fit at their full {} tokens{}{}{}. Bar: {}",
                            m.kv_max_sequences.floor(), m.context_tokens,
                            // The mean request's length: with lengths that vary the longest fill it sooner (a teacher's
                            // trial read "8 fit" beside 6 users evicted, with prompts up to 10,736 tokens).
                            if r.lengths_vary { " (the mean request; lengths vary, and the longest fill the cache sooner)" } else { "" },
                            m.kv_clauses().iter().map(|c| format!(" ({c})")).collect::<String>(),
                            if m.max_concurrency > m.kv_max_sequences.floor() { format!("; up to {:.0} start while their caches are short, and the engine preempts as they grow", m.max_concurrency) } else if let Some(t) = m.slot_tokens.filter(|_| m.max_concurrency < m.kv_max_sequences.floor() && !m.engine_capped) {
                                // llama.cpp's slots are sized for the longest request, not the mean (a review).
                                format!("; llama.cpp's slots each hold the traffic's longest request, {} tokens", group(t))
                            } else if m.max_concurrency < m.kv_max_sequences.floor() { "; the engine's max batch is the cap".to_string() } else { String::new() },
                            bar.1
                        ) } else { "does not fit".to_string() }}</p>
                    </div>
                </div>
            }
            .into_any()
        }
    };
    let rest = move || {
        report.with(|r| {
            let Ok(r) = r else { return ().into_any() };
            view! {
                <p class="context" id="verdict-context">{format!(
                    "{} ({}) on {} with {}; {} prompt + {} output tokens; {}{}; predictions {} single stream, {} under load, {} (9 in 10 measurements).",
                    r.model, r.quantization, r.hardware, r.engine,
                    r.prompt_tokens, r.output_tokens,
                    if !r.target.limits_latency() {
                        "no latency target (batch)".to_string()
                    } else {
                        format!("{} targets TTFT ≤ {} ms, TPOT ≤ {} ms", r.target.percentile, limit(r.target.ttft_limit_ms()), limit(r.target.tpot_limit_ms()))
                    },
                    r.target.task_s.map_or_else(String::new, |t| format!(", task ≤ {} s", crate::model::units::fmt_num(t))),
                    crate::plan::band_text(r.band.single_stream_pct),
                    crate::plan::band_text(r.band.batched_pct),
                    r.band.ttft_at(r.target.percentile)
                )}{crate::plan::margin_words(r).map(|m| format!(" {m}"))}</p>
                // Notes about how the figures were computed are information, not alarms.
                {r.warnings.iter().map(|w| {
                    let info = w.is_info();
                    view! { <p class="warning" class:info=info>{w.message.clone()}</p> }
                }).collect_view()}
                <details class="defaults">
                    <summary>{format!("Defaults used ({})", r.defaults_used.len())}</summary>
                    <ul>{r.defaults_used.iter().map(|d| view! { <li>{d.clone()}</li> }).collect_view()}</ul>
                </details>
            }
            .into_any()
        })
    };
    // The verdict's element stays in place, so screen readers announce its new text when the inputs change.
    view! {
        {stale}
        {headline}
        <div class="verdict lead" id="verdict" role="status" aria-live="polite" class:fail=move || verdict().is_some_and(|v| !v.0) class:none=move || verdict().is_none()>
            {move || verdict().map(|(_, line, more)| view! { <span class="verdict-line">{line}</span><span class="verdict-more">{more}</span> })}
        </div>
        {rest}
    }
}

/// The memory bar (`plan::charts::memory_bar`) drawn by the stylesheet from the cumulative stops in custom
/// properties on the memory card (`--m0`…`--m3`), and its legend as text: (style, legend). A view of its own
/// cost 2 KB of wasm; this costs an attribute.
fn memory_bar(r: &Report) -> (String, String) {
    let seg = crate::plan::charts::memory_bar(r);
    let total: f64 = seg.iter().map(|s| s.1).sum();
    let mut at = 0.0;
    let mut style = String::new();
    for (i, s) in seg.iter().take(4).enumerate() {
        at += s.1 / total * 100.0;
        style.push_str(&format!("--m{i}:{at:.1}%;"));
    }
    // Without an operating point its KV part is no figure ("KV at the operating point (blue) 0.00 GB", a trial).
    let legend = seg
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 1 || r.operating_point.is_some())
        .map(|(i, (l, gb))| {
            let l = if i == 2 && r.operating_point.is_none() { "KV at the peak (orange)" } else { l };
            format!("{l} {} GB", fmt(*gb))
        })
        .collect::<Vec<_>>()
        .join(" · ");
    (style, legend)
}

/// The label a field carries on the page ("Output"), found by its input's id; the scenario path
/// ("workload.output_tokens") when the page has no such field.
fn field_label(field: &str) -> String {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(&format!("label:has(#{}) .label", field.replace('.', "-"))).ok().flatten())
        .and_then(|l| l.text_content())
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| field.to_string())
}
