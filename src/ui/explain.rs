//! "How to read this": every term of the page explained with the figures on screen, and the ⓘ buttons that
//! open one definition and its formula with the numbers. Nothing is computed here: each sentence quotes a
//! field of the [`Report`] (the operating point, the knee, the capacity, a sweep level).

use super::results::fmt;
use super::results::limit;
use crate::scenario::{LoadPoint, Report, ScenarioError};
use leptos::prelude::*;

/// An ⓘ opening a definition: a `<details>`, so it opens by keyboard (Enter or Space on its summary), tells
/// screen readers whether it is expanded, and shows nothing on hover alone.
pub(super) fn info(name: &'static str, body: String) -> impl IntoView {
    view! {
        <details class="info">
            <summary aria-label=format!("What is {name}?") title=format!("What is {name}?")>"i"</summary>
            <span class="info-body" role="note">{body}</span>
        </details>
    }
}

/// "12 users" or "3.2 req/s".
pub(super) fn load(concurrency: Option<f64>, rate: Option<f64>) -> String {
    match (concurrency, rate) {
        (Some(c), _) => format!("{c:.0} {}", if c.round() == 1.0 { "user" } else { "users" }),
        (None, Some(r)) => format!("{} req/s", fmt(r)),
        _ => "—".into(),
    }
}

/// Why a user's tokens come slower at level `b` than at `a`, in the page's own figures (a teacher's trial: on a laptop
/// with llama.cpp the page had said "a step grows with the batch" where the ordinary step, ITL's median, had barely
/// moved and per-user speed halved: other users' prompts held the decodes). Each cause is said only where its figures
/// show it: the ordinary step growing (ITL's median; with the prompts where nearly every step reads one), the steps
/// that read prompts (TPOT's median above ITL's), and users waiting outside the running batch (its mean below the
/// users, with no think time: the engine's cap or the KV cache where either binds, else the prompts' reading). `None`
/// where per-user speed does not fall (one level, or a sweep flat within 5 %: a review found "86.2 → 86.2 tok/s").
fn why_slower(r: &Report, a: &LoadPoint, b: &LoadPoint) -> Option<String> {
    // (NaN speeds fall by nothing.)
    let falls = b.per_user_tps < 0.95 * a.per_user_tps;
    if std::ptr::eq(a, b) || !falls {
        return None;
    }
    let (step_a, step_b) = (a.itl_ms.p50, b.itl_ms.p50);
    let prompts_bound = crate::plan::readout::bound_label(r, b) == "compute (prompts)";
    let interrupted = b.tpot_ms.p50 > 1.15 * step_b;
    let grows = step_b > 1.1 * step_a;
    let mut why = if grows && prompts_bound && !interrupted {
        // Nearly every step carries a prompt chunk: the median step is such a step (a review: a 4,000-token prompt's
        // sweep had read "more KV cache to read" at a batch of 11).
        format!(
            "nearly every step also reads a prompt chunk, so the ordinary step grows with the prompts, {} → {} ms (ITL's median)",
            fmt(step_a),
            fmt(step_b)
        )
    } else if grows {
        format!("the ordinary step grows with the batch, {} → {} ms (ITL's median: more KV cache to read, more arithmetic)", fmt(step_a), fmt(step_b))
    } else {
        format!("the ordinary step barely grows, {} → {} ms (ITL's median: the weights are read once for the whole batch)", fmt(step_a), fmt(step_b))
    };
    if interrupted {
        why += &format!(
            "{} the steps that read other users' prompts hold everyone's next token, so the mean gap a reader sees (TPOT's median) is {} ms",
            if grows { "; and" } else { ", but" },
            fmt(b.tpot_ms.p50)
        );
    } else if !grows {
        // Neither cause large alone: the mean gap itself.
        why += &format!("; TPOT's median {} → {} ms", fmt(a.tpot_ms.p50), fmt(b.tpot_ms.p50));
    }
    why.push('.');
    if let Some(n) = b.concurrency.filter(|n| !r.offline && r.think_time_s <= 0.0 && b.mean_batch > 0.0 && b.mean_batch < 0.8 * n) {
        // What holds the batch below the users: a cap or the KV cache where either binds, else the prompts being read
        // (a review: 11 running of 32 with memory for 106 had been blamed on the cap).
        let capped = b.mean_batch >= 0.9 * r.memory.max_concurrency.min(n) || b.kv_utilization > 0.9 || b.preemptions > 0;
        let running = if b.mean_batch >= 10.0 {
            crate::plan::readout::group(b.mean_batch.round())
        } else {
            crate::model::units::fmt_num((b.mean_batch * 10.0).round() / 10.0)
        };
        why += &format!(
            " Only about {running} of the {} users' requests run at once ({}): the others wait their turn, which shows in TTFT ({} → {} ms median) more than in per-user speed.",
            crate::plan::readout::group(n),
            if capped { "the engine's cap or what its KV cache holds" } else { "reading the prompts takes the server's time" },
            fmt(a.ttft_ms.p50),
            fmt(b.ttft_ms.p50)
        );
    }
    Some(why)
}

/// The sweep level nearest (on the log scale the charts use) to `x`, else the first.
pub(super) fn level_near(r: &Report, x: Option<f64>) -> Option<&LoadPoint> {
    crate::plan::readout::nearest_level(r, x).and_then(|i| r.sweep.get(i))
}

/// The level the explanations quote: the sweep level nearest the operating point (a row of the table, with its
/// point on the roofline; the scrubber's first card reads the operating point's own level).
pub(super) fn example(r: &Report) -> Option<&LoadPoint> {
    level_near(r, r.operating_point.as_ref().and_then(|o| o.load()))
}

/// "How to read this", open by default on a wide screen. Its sentences quote the load picked on the charts (the
/// slider, or the pointer over a chart), the operating point's until one is picked: a class can drag the load
/// and read what changes.
#[component]
pub fn Explain(
    /// The evaluation.
    report: ReadSignal<Result<Report, ScenarioError>>,
    /// The load picked on the charts, if any.
    pick: RwSignal<Option<f64>>,
) -> impl IntoView {
    let wide = web_sys::window().and_then(|w| w.inner_width().ok()).and_then(|v| v.as_f64()).is_none_or(|w| w > 600.0);
    view! {
        <details class="explain" id="explain" open=wide>
            <summary>"How to read this — at the load picked on the charts"</summary>
            <ul>{move || report.with(|r| r.as_ref().map(|r| sentences(r, pick.get())).unwrap_or_default().into_iter().map(|(t, s)| view! { <li><b>{t}</b>" "{s}</li> }).collect_view())}</ul>
        </details>
    }
}

/// The panel's sentences: (term, sentence filled with the report's figures), at the level nearest the load
/// `picked` (else the one nearest the operating point).
fn sentences(r: &Report, picked: Option<f64>) -> Vec<(&'static str, String)> {
    let Some(l) = picked.map_or_else(|| example(r), |x| level_near(r, Some(x))) else { return Vec::new() };
    // A model that does not fit serves nothing: its levels' zeros are not figures to explain.
    if !r.memory.fits {
        return vec![(
            "Nothing to read:",
            format!("{}: the model does not fit, so no load is served; the verdict above says what is short.", r.hardware),
        )];
    }
    let p = r.target.percentile.to_string();
    let at = load(l.concurrency, l.request_rate);
    let mut v = Vec::new();
    if let Some(o) = &r.operating_point {
        v.push((
            "In one line:",
            format!(
                "at {} each reader gets {} tok/s, {} tok/s in total — the operating point, where this page suggests running one server.{}",
                load(o.concurrency, o.request_rate),
                fmt(o.per_user_tps),
                fmt(o.system_tps),
                // The slider steps over the simulated levels; the operating point is resolved between them.
                if load(o.concurrency, o.request_rate) == at {
                    String::new()
                } else {
                    format!(
                        " Below: the simulated level {}, {at}: a row of the table, a point on the roofline.",
                        if picked.is_some() { "picked on the charts" } else { "nearest it" }
                    )
                }
            ),
        ));
    }
    v.push((
        "Per-user TPS",
        format!(
            "is the speed one reader sees while the answer streams: 1 ÷ TPOT. At {at} the median TPOT is {} ms, so each user gets 1000 ÷ {} = {} tok/s.",
            fmt(l.tpot_ms.p50),
            fmt(l.tpot_ms.p50),
            fmt(l.per_user_tps)
        ),
    ));
    v.push((
        "System TPS",
        format!(
            "is all output tokens of all users ÷ time: {} tok/s at {at}. It is what the server is worth; per-user TPS is what a reader feels.{}",
            fmt(l.system_tps),
            // A student's first check: users × per-user TPS. It overshoots by the time no token streams.
            match l.concurrency {
                // Users who think between requests: mostly not waiting for the server at all.
                Some(n) if n > 1.0 && r.think_time_s > 0.0 && n * l.per_user_tps > l.system_tps => format!(
                    " It is less than {} × {} = {} tok/s because no user streams all the time: each pauses {} s on average between an answer and the next request (the think time), and waits {} ms for the first token of the {} ms from sending it to its last token.",
                    fmt(n),
                    fmt(l.per_user_tps),
                    fmt(n * l.per_user_tps),
                    crate::model::units::fmt_num(r.think_time_s),
                    fmt(l.ttft_ms.mean),
                    fmt(l.e2e_ms.mean)
                ),
                // One user too (a teacher's trial: 51.6 tok/s in total below the one user's 57.7, unexplained).
                Some(n) if n <= 1.0 && r.think_time_s <= 0.0 && l.e2e_ms.mean > 0.0 && l.per_user_tps > l.system_tps => format!(
                    " With one user it is less than that user's {} tok/s because the answer does not stream all the time: the request waits {} ms on average for its first token (TTFT) of the {} ms from sending it to its last token.",
                    fmt(l.per_user_tps),
                    fmt(l.ttft_ms.mean),
                    fmt(l.e2e_ms.mean)
                ),
                Some(n) if n > 1.0 && l.e2e_ms.mean > 0.0 && n * l.per_user_tps > l.system_tps => format!(
                    " It is less than {} × {} = {} tok/s because no user streams all the time: a request waits {} ms on average for its first token (TTFT) of the {} ms from sending it to its last token (roughly: per-user speed is the median request's, the waits are means).",
                    fmt(n),
                    fmt(l.per_user_tps),
                    fmt(n * l.per_user_tps),
                    fmt(l.ttft_ms.mean),
                    fmt(l.e2e_ms.mean)
                ),
                // Varied TPOTs: 1 ÷ the median understates the faster requests, which make more of the tokens.
                Some(n) if n > 1.0 && l.system_tps > 0.0 => format!(
                    " Here {} × {} = {} tok/s does not exceed it: per-user TPS is 1 ÷ the median TPOT, and the requests faster than the median make more than their share of the tokens.",
                    fmt(n),
                    fmt(l.per_user_tps),
                    fmt(n * l.per_user_tps)
                ),
                _ => String::new(),
            }
        ),
    ));
    let ok = || r.sweep.iter().filter(|l| !l.saturated);
    // A mixture-of-experts model shares only its common layers: each token reads its own few experts, so a bigger
    // batch reads more of them (a teacher's trial read "read once for all of them" against per-user speed falling
    // 7 × from one user to 24 on gpt-oss-120b).
    let moe = if r.band.load_class.starts_with("mixture") {
        " (a mixture-of-experts model's shared layers: each token also reads its own few experts, so a bigger batch reads more of them)"
    } else {
        ""
    };
    if let (Some(a), Some(b)) = (r.sweep.first(), ok().next_back()) {
        // System TPS up to its highest level, and what follows it when it falls again (a full KV cache).
        let top = ok().fold(a, |m, l| if l.system_tps > m.system_tps { l } else { m });
        let after = if b.system_tps < top.system_tps {
            let why = if b.preemptions > 0 { ": the KV cache is full and the engine preempts sequences" } else { "" };
            format!(", then {} at {}{why}", fmt(b.system_tps), load(b.concurrency, b.request_rate))
        } else {
            String::new()
        };
        v.push((
            "Why one falls while the other rises:",
            format!(
                "the engine decodes every running sequence in one step, so the batch shares each step and the weights are read once for all of them{moe} — more users, more tokens per step ({}{after}).{}",
                // One level has nothing to go from (a review read "1 646 → 1 646 tok/s from 16 users to 16 users").
                if std::ptr::eq(a, top) {
                    format!("system {} tok/s at {}", fmt(a.system_tps), load(a.concurrency, a.request_rate))
                } else {
                    format!(
                        "system {} → {} tok/s from {} to {}",
                        fmt(a.system_tps),
                        fmt(top.system_tps),
                        load(a.concurrency, a.request_rate),
                        load(top.concurrency, top.request_rate)
                    )
                },
                why_slower(r, a, b).map_or_else(String::new, |why| format!(
                    " But each user waits longer between tokens (per user {} → {} tok/s at {}): {why}",
                    fmt(a.per_user_tps),
                    fmt(b.per_user_tps),
                    load(b.concurrency, b.request_rate)
                ))
            ),
        ));
    }
    // Prompt steps apart (SGLang's own scheduling): no step carries both, the decodes wait through a prompt's step.
    let why = if r.prompt_steps_apart {
        "while a prompt is read, in a step of its own, every decode in the batch waits for it"
    } else {
        "a decode step that also reads another request's prompt chunk is long, and everyone in the batch waits for it"
    };
    v.push((
        "TTFT, TPOT, ITL:",
        format!(
            "TTFT (time to first token) is the wait before the answer starts — queueing, reading the prompt and the server's front end (HTTP, tokenising: it varies from request to request, so TTFT has a tail even for one user): {} ms median at {at}. TPOT (time per output token) is the mean gap after the first token, (E2E − TTFT) ÷ (output tokens − 1), E2E (end to end) being the time from sending the request to its last token. ITL (inter-token latency) is each single gap: {} ms median, {} ms at P99. Why they differ: {why}. ITL's median is the ordinary step and its P99 the long gaps themselves; TPOT averages each request's gaps, long ones included, {}.",
            fmt(l.ttft_ms.p50),
            fmt(l.itl_ms.p50),
            fmt(l.itl_ms.p99),
            // A trial read "they hardly move it" beside a TPOT median of 29.9 ms over an ITL median of 12.5.
            if l.tpot_ms.p50 > 1.2 * l.itl_ms.p50 {
                format!("so where prompts interrupt often it sits well above ITL's median: {} ms here", fmt(l.tpot_ms.p50))
            } else {
                format!("so with few interruptions it stays near ITL's median: {} ms here", fmt(l.tpot_ms.p50))
            }
        ),
    ));
    v.push((
        // (Its noise said: a teacher's trial asked why P99 TTFT fell from 158 to 154 ms between 96 and 106 users.)
        "P50, P95, P99:",
        format!(
            "half of the requests do better than P50; only the 5 % slowest are past P95, the 1 % slowest past P99. At {at}: TPOT P50 {} ms, P95 {} ms, P99 {} ms. The target is judged at {p}: TPOT ≤ {} ms, TTFT ≤ {} ms. A P99 rests on a level's slowest few requests, so from one load to the next it can move a few per cent either way with the sample, down as well as up.",
            fmt(l.tpot_ms.p50),
            fmt(l.tpot_ms.p95),
            fmt(l.tpot_ms.p99),
            limit(r.target.tpot_limit_ms()),
            limit(r.target.ttft_limit_ms())
        ),
    ));
    if let Some(k) = &r.knee {
        v.push((
            "The knee",
            format!(
                "({}, dashed on the system panel) is where system TPS reaches 90 % of its maximum over the loads simulated (the levels and the capacity search's), read between the levels around it and simulated there: {} of {} tok/s, the peak. Past it, more users mostly add waiting, not throughput.{}",
                load(k.concurrency, k.request_rate),
                fmt(k.system_tps),
                // The peak the report names, which the knee is read against (it may be a load the capacity search
                // added: a review read "2,952 of 2,722 tok/s" against the levels' own maximum).
                fmt(r.peak.system_tps),
                crate::plan::knee_and_operating_point(r).map_or_else(String::new, |w| format!(" {w}"))
            ),
        ));
    }
    if let Some(c) = &r.capacity {
        // Two rates that read alike told apart, as on the capacity card (an MoE trial read "is 0.45 req/s … at 0.45
        // req/s it breaks").
        let (at, after) = super::sizing::capacity_loads(c, |m| load(m.concurrency, m.request_rate));
        v.push((
            "The capacity at the target",
            format!(
                "(dotted, on the per-user panel) is {at}: the most load whose {p} still meets the target, limited by {}{}.",
                crate::plan::limit_words(c.limited_by),
                c.next
                    .as_ref()
                    .zip(after)
                    .map_or_else(String::new, |(n, after)| format!("; at {after} it breaks with {}", crate::plan::breaking_figure(r, c, n)))
            ),
        ));
    }
    if let Some(o) = &r.operating_point {
        let usable = r.peak_usable.as_ref().and_then(|m| m.load());
        let share = crate::plan::load_share(o, r.capacity.as_ref(), usable, r.target.operating_fraction, r.think_time_s > 0.0);
        // Without a capacity (batch mode, offline loads) the share is of the peak usable level, which can be the
        // point itself: no headroom to explain (a review read "Why not at the capacity? … 0 % more users").
        if r.capacity.is_none() {
            v.push((
                "The operating point",
                format!(
                    "(green ring) runs at {:.0} % of the peak usable load: {}, {} tok/s each, {} in total.",
                    share * 100.0,
                    load(o.concurrency, o.request_rate),
                    fmt(o.per_user_tps),
                    fmt(o.system_tps)
                ),
            ));
        } else {
            v.push((
            "The operating point",
            format!(
                "(green ring) runs at {:.0} % of the capacity's {}: {}, {} tok/s each, {} in total. Why not at the capacity? {} 50–70 % keeps headroom for bursts and for the model's error ({} under load).",
                share * 100.0,
                if r.think_time_s > 0.0 { "request rate" } else { "load" },
                load(o.concurrency, o.request_rate),
                fmt(o.per_user_tps),
                fmt(o.system_tps),
                // The queueing formula is for requests that arrive on their own (a rate); users who each keep one
                // request in flight keep the server stepping at any count (a trial read "1.5 at 60 % busy" beside a
                // mean batch of 95.6 at 99 users).
                // Users who pause between requests send them on their own, like a rate.
                if o.request_rate.is_some() || r.think_time_s > 0.0 {
                    format!("Requests come in bursts: from there {:.0} % more can arrive before the target breaks, and a queue's wait grows like utilisation ÷ (1 − utilisation) service times — 1.5 at 60 % busy, 9 at 90 %, 99 at 99 %: near capacity TTFT explodes.", (1.0 / share - 1.0) * 100.0)
                } else {
                    format!("From there {:.0} % more users can join before the target breaks. These users each keep one request in flight, so the server never idles at either load; the margin buys latency (fewer sequences share each step) and room for a busier hour than planned.", (1.0 / share - 1.0) * 100.0)
                },
                crate::plan::band_text(r.band.batched_pct)
            ) + &match (o.ttft_p_ms, r.target.ttft_ms) {
                // A TTFT already near its limit at the operating point: the prompts' own prefill takes it, not the queue
                // (a trial's 6,000-token prompts at 7 users, 64 % of the capacity, read P95 TTFT 1,933 of 2,000 ms).
                // (Only where one request alone takes half of it: on a busy server the queue can be most of it.)
                (Some(f), Some(l)) if f >= 0.8 * l && r.single_stream.ttft_ms >= 0.5 * f => format!(
                    " Here {} TTFT is already {:.0} % of its target at the operating point: the prompts' own prefill takes most of it, not a queue, so fewer users buy little TTFT.",
                    r.target.percentile,
                    f / l * 100.0
                ),
                _ => String::new(),
            },
        ));
        }
    }
    v.push((
        "Memory- or compute-bound:",
        format!(
            "at {at} the steps are {}-bound ({:.0} % of the busy time in memory-bound steps, {:.0} % in compute-bound ones, {:.0} % in overhead-bound ones: the engine's own work per step, all-reduces between devices, or a chain of small kernels none of which can finish sooner). Memory-bound, a step costs the bytes it reads ÷ the bandwidth, so a bigger batch is nearly free{} (one stream's ceiling: {} tok/s); compute-bound, the batch's arithmetic sets the pace and more users share a fixed throughput. One step is read as a whole: its weight matmuls can be compute-bound while its attention reads the KV cache at the memory's pace, so a step called compute-bound can still sit left of the ridge on the roofline below; and these shares count every step, the ones that prefill a prompt chunk too, where the roofline's blue point is a decode step alone.",
            bound(l),
            l.memory_bound_fraction * 100.0,
            l.compute_bound_fraction * 100.0,
            ((1.0 - l.memory_bound_fraction - l.compute_bound_fraction) * 100.0).max(0.0),
            if moe.is_empty() { "" } else { " — of a mixture-of-experts model, only until the batch's tokens have touched most experts" },
            fmt(r.single_stream.ceiling_tps)
        ),
    ));
    let f = &r.roofline;
    if let (Some(d), Some(p)) = (f.decode_at(l.mean_batch), f.prefill.as_ref()) {
        // The engine's ridge (its dashed roof's bend), not the hardware's: the one the steps' bound goes by.
        let ridge = f.engine_ridge();
        v.push((
            "The roofline",
            format!(
                "(last chart) says why: past {:.0} FLOPs per byte read (the hardware's ridge; {ridge:.0} for this engine, where its dashed roof bends) arithmetic, not memory, is the limit. A {:.0}-token prefill chunk does {:.0}, {}. Decode at {at} does {:.0} over its whole step ({}). But a step is two kernels one after the other: the weight matmuls, {:.0} FLOPs per weight byte over {} ({}), and attention, {:.0} per KV byte ({}); the step is called by whichever takes more of its time, so the bound above can differ from the decode step's point.{}",
                f.ridge,
                p.tokens,
                p.intensity,
                side(p.intensity, ridge),
                d.intensity,
                side(d.intensity, ridge),
                d.linear_intensity,
                if d.prompt_tokens >= 1.0 {
                    format!(
                        "the step's {} decodes and, on average, {} prompt tokens of new requests (an average over the steps: most carry none, a few a whole chunk like the orange point)",
                        fmt(d.tokens),
                        fmt(d.prompt_tokens)
                    )
                } else {
                    format!("the step's {} decodes", fmt(d.tokens))
                },
                side(d.linear_intensity, ridge),
                d.attention_intensity.unwrap_or(0.0),
                side(d.attention_intensity.unwrap_or(0.0), ridge),
                // Overhead-bound steps read as a contradiction beside "memory-bound" kernels (a trial): neither roof
                // sets their pace, and their point sits under the roof by as much.
                if l.bound == crate::model::roofline::Bound::Overhead {
                    let roof = (f.peak_tflops * f.compute_efficiency).min(f.bandwidth_gbps * f.bandwidth_efficiency * d.intensity / 1e3);
                    format!(
                        " At {at}, though, neither roof sets the pace: the step is overhead-bound, its fixed work (the engine's own per step, all-reduces, the chain of small kernels) outlasting both its reading and its arithmetic, so its point sits below the roof — {} TFLOP/s where the engine's roof allows {}.",
                        fmt(d.tflops),
                        fmt(roof)
                    )
                } else {
                    String::new()
                }
            ),
        ));
    }
    // What DP attention trades (an operations trial: the page showed its costs without a word on them).
    if let Some((n, extra, tp_copies)) = r.memory.dense_copies {
        let buys = if tp_copies > 1.0 {
            format!(
                "What it buys is memory: tensor parallelism would keep each request's cache on {tp_copies:.0} devices, DP attention on one, so {:.0} requests of full length fit. It pays near the peak's throughput and costs at tight latency targets",
                r.memory.kv_max_sequences
            )
        } else {
            "Tensor parallelism would not copy this model's cache either, so DP attention buys no memory here, only the copies' cost: it pays on models whose cache tensor parallelism copies (a latent cache, or fewer KV heads than devices)".to_string()
        };
        v.push((
            "DP attention:",
            format!(
                "each of the {n} devices runs attention for its own requests, with the attention and other dense weights whole ({extra:.1} GB of copies) and only those requests' cache. One request is read by one device — the dense weights whole, its cache and its share of the experts, {} tok/s at most — and its prompt by that device alone, in chunks of 1/{n} of the step budget (TTFT {} ms on an idle server); a step carrying a prompt slows every other request's next token. {buys}: pin this scenario and compare it with the split \"Tensor parallel\".",
                fmt(r.single_stream.ceiling_tps),
                fmt(r.single_stream.ttft_ms),
            ),
        ));
    }
    // The words the cards and charts use without defining them (a teacher's trial: they needed the README).
    let band = crate::plan::band_text(r.band.batched_pct);
    v.push((
        "Words the page uses:",
        format!(
            "the KV cache holds each running request's keys and values, one entry per token, in the memory the weights leave: it caps how many requests run at once. Prefill reads a prompt in one pass (arithmetic-heavy: it sets TTFT); decode then makes one token per step for every running request (reading-heavy: it sets TPOT). Continuous batching lets requests join and leave the running batch at every step; a preemption evicts one when the KV cache is full, to recompute it later. Users (a closed loop) each send their next request when an answer ends; a request rate (Poisson arrivals) sends them at random instants whatever the server does. “{band}” says that 9 in 10 measurements the model was not fitted on lay within that factor of the figure, either way. TDP is a device's rated power; η_bw, η_kv and η_fl (Defaults used) are the shares of the bandwidth (weights, KV cache) and of the tensor peak an engine reaches."
        ),
    ));
    v
}

/// Which side of the engine's ridge an intensity lies on, as the roofline reads it.
fn side(intensity: f64, ridge: f64) -> &'static str {
    if intensity < ridge {
        "left of the engine's ridge: memory-bound"
    } else {
        "right of the engine's ridge: compute-bound"
    }
}

/// "memory", "compute" or "overhead".
pub(super) fn bound(l: &LoadPoint) -> String {
    l.bound.id().to_string()
}
