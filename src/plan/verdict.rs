//! The one-line verdict and the texts around it: load labels, limits shown so that rounding never contradicts
//! the comparison, what breaks past the capacity.

use super::*;

/// A request rate with as many decimals as it needs (0.001, 0.25, 10.7, 120): one decimal from 10 to 100 (a
/// pre-sales trial read "the next level, 11 req/s, saturates" of a 10.70 req/s level, beside a 10 req/s peak).
#[must_use]
pub fn fmt_rate(r: f64) -> String {
    if r >= 100.0 {
        format!("{r:.0}")
    } else if r >= 10.0 {
        let t = format!("{r:.1}");
        t.strip_suffix(".0").map_or_else(|| t.clone(), str::to_string)
    } else if r >= 0.1 {
        format!("{r:.2}")
    } else if r >= 0.0001 {
        format!("{r:.4}").trim_end_matches('0').to_string()
    } else if r > 0.0 {
        // Two significant digits (0.00001 had read "0.").
        let d = (1.0 - r.log10().floor()).clamp(5.0, 12.0) as usize;
        format!("{r:.d$}")
    } else if r == 0.0 {
        "0".to_string()
    } else {
        format!("{r}")
    }
}

/// A marker's load in words: "1 user", "1 024 users", "2.19 req/s" (the page's, the CLI's and the report's).
#[must_use]
pub fn load_label(m: &Marker) -> String {
    load_words(m.concurrency, m.request_rate)
}

/// Two loads in words, `words`, of the rates `a` and `b` req/s: as they are, or where they read alike, with decimals
/// until they read apart (up to six): "holds up to 18 req/s, 18 req/s breaks it" had stood, and at one decimal more
/// "1.19 … 1.19" and "0.013 … 0.013" (a review). The verdict's and the page's capacity card's.
#[must_use]
pub fn rates_apart(words: (String, String), a: f64, b: f64) -> (String, String) {
    let (mut x, mut y) = words;
    // One decimal more than the words had, and on (from one decimal, "0.45 … 0.45" had become "0.4 … 0.5" for 0.449
    // and 0.453 beside a big figure of 0.45: an MoE trial).
    let shown = x.split_whitespace().next().and_then(|n| n.split_once('.')).map_or(0, |(_, f)| f.len());
    let mut d = shown + 1;
    while x == y && d <= 6 {
        (x, y) = (format!("{a:.d$} req/s"), format!("{b:.d$} req/s"));
        d += 1;
    }
    (x, y)
}

/// A load in words from its users or its request rate ([`load_label`]'s words for a sweep level too).
pub(super) fn load_words(concurrency: Option<f64>, request_rate: Option<f64>) -> String {
    match (concurrency, request_rate) {
        (Some(c), _) if c.round() == 1.0 => "1 user".to_string(),
        (Some(c), _) => format!("{} users", super::readout::group(c)),
        (_, Some(r)) => format!("{} req/s", fmt_rate(r)),
        _ => String::new(),
    }
}

/// `v` at `decimals`, or with as many more as keep it on the same side of `limit` as the value ([`fmt_against`]): a
/// table's fixed-width cell (40.002 ms against ≤ 40 ms had read "40.0 ✗"; 2,000.02 against ≤ 2,000 "2000 ✗"). The
/// CLI's table and the page's.
#[must_use]
pub fn fixed_against(v: f64, decimals: usize, limit: Option<f64>) -> String {
    let s = format!("{v:.decimals$}");
    match limit {
        Some(t) if (v > t) != (s.parse::<f64>().unwrap_or(v) > t) => fmt_against(v, t),
        _ => s,
    }
}

/// A latency (or any figure) shown next to its limit: as few decimals as possible (none from 10 up, else
/// one or two), but never so few that rounding moves it to the other side of the limit: 40.2 ms against a
/// 40 ms limit reads "40.2", not "40" (which would read as a pass); 39.96 may read "40" (equal is within).
/// Comparisons are made on the unrounded values everywhere; this only keeps the text from contradicting them.
/// Without a limit (`None`: the target has none) the figure takes its usual decimals.
#[must_use]
pub fn fmt_against(v: f64, limit: impl Into<Option<f64>>) -> String {
    fmt_against_limit(v, limit.into().unwrap_or(f64::INFINITY))
}

fn fmt_against_limit(v: f64, limit: f64) -> String {
    if !v.is_finite() {
        return "—".into();
    }
    let base = if v.abs() >= 10.0 {
        0
    } else if v.abs() >= 1.0 {
        1
    } else {
        2
    };
    for d in base..=4 {
        let s = format!("{v:.d$}");
        let shown: f64 = s.parse().unwrap_or(v);
        // The text must land on the same side of the limit as the value.
        if (v > limit) == (shown > limit) {
            return s;
        }
    }
    if v > limit {
        format!("just over {limit}")
    } else {
        format!("{v:.4}")
    }
}

/// " ✓" where `v` meets its limit, " ✗" where it does not, nothing for a figure not known.
fn tick(v: f64, limit: f64) -> &'static str {
    if !v.is_finite() {
        ""
    } else if v <= limit {
        " ✓"
    } else {
        " ✗"
    }
}

/// "; in the model the target holds up to N users, one more user breaks it (P99 TPOT …)": the capacity and what breaks just past it
/// (from the sweep's levels where the capacity is not resolved).
pub(super) fn limit_note(r: &Resolved, sweep: &[LoadPoint], cap: Option<&Capacity>, mem: &Memory) -> String {
    let pct = r.target.percentile;
    let Some(c) = cap else { return grid_limit_note(r, sweep) };
    let load = load_label(&c.at);
    let Some(next) = &c.next else {
        // Users past the sequences the engine runs at once, still within the target where the search stopped (its
        // extra levels, or the simulator's most users, ran out): no limit to name.
        if let Some(turn) = super::readout::waiting_turn(mem, c.at.concurrency, r.workload.think_time_s) {
            return format!("; the target holds at least {load} ({turn}), where the search for its limit stopped");
        }
        let fit = r.deployment.max_sequences(r.workload.full_context()).floor();
        // Users who think between requests are more than the requests in flight: the cap is the engine's, not the
        // users' count (a trial read "up to 132 users, the most the engine runs at once" with a cap of 64).
        let most = if r.workload.think_time_s > 0.0 {
            format!("whose requests in flight fill the {} sequences the engine runs at once (engine.max_batch)", r.deployment.engine.max_batch)
        } else {
            "the most the engine runs at once (engine.max_batch)".to_string()
        };
        return match c.limited_by {
            LimitedBy::EngineCap if fit > mem.max_concurrency => {
                format!("; the target holds up to {load}, {most}; memory holds {fit:.0}, so a higher cap would serve more")
            }
            LimitedBy::EngineCap => format!("; the target holds up to {load}, {most}"),
            // llama.cpp's slots hold a whole request each: worded for them (a review read vLLM's short caches here).
            _ if mem.slot_tokens.is_some() => format!(
                "; the target holds up to {load}, the slots its KV cache holds, each for a request of up to {} tokens (llama.cpp's -np; more users wait their turn)",
                super::readout::group(mem.slot_tokens.unwrap_or(0.0))
            ),
            _ => format!("; the target holds up to {load}, the most the engine admits at once (their KV caches, while still short, fill the memory)"),
        };
    };
    let task = target::task_seconds(r.workload.agent_steps, r.workload.output_tokens, next.ttft_p_ms.unwrap_or(0.0), next.tpot_p_ms);
    let task_words = || format!("a {}-step task takes {} s", r.workload.agent_steps, fmt_against(task, r.target.task_s));
    // The user past the sequences the engine runs at once waits for a slot (`capacity`'s limit): its TTFT, or the
    // task time that holds it, breaks the target.
    let waits = matches!(c.limited_by, LimitedBy::EngineCap | LimitedBy::Memory) && r.workload.think_time_s <= 0.0;
    let turn = || format!(": it waits its turn, {} run at once, {}", super::readout::group(mem.max_concurrency), super::readout::running_limit(mem));
    let why = match c.limited_by {
        LimitedBy::Errors => "more than 1 % of requests fail".to_string(),
        LimitedBy::Tpot => format!("{pct} TPOT {} ms", fmt_against(next.tpot_p_ms, r.target.tpot_ms)),
        LimitedBy::Task => task_words(),
        _ if waits && target::task_limit(r).is_some_and(|l| task > l) => task_words() + &turn(),
        _ => match next.ttft_p_ms.filter(|t| r.target.ttft_ms.is_some_and(|l| *t > l)) {
            Some(t) if waits => format!("{pct} TTFT {} ms{}", fmt_against(t, r.target.ttft_ms), turn()),
            Some(t) => format!("{pct} TTFT {} ms", fmt_against(t, r.target.ttft_ms)),
            None => "the queue grows without bound".into(),
        },
    };
    // Users past the sequences the engine runs at once wait their turn within the target (`capacity`).
    let load = match super::readout::waiting_turn(mem, c.at.concurrency, r.workload.think_time_s) {
        Some(turn) => format!("{load} ({turn})"),
        None => load,
    };
    let more = if next.concurrency.is_some() { "one more user".to_string() } else { load_label(next) };
    // Two rates that round alike ("holds up to 18 req/s, 18 req/s breaks it") read apart.
    let (load, more) = match (c.at.request_rate, next.request_rate) {
        (Some(a), Some(b)) => rates_apart((load, more), a, b),
        _ => (load, more),
    };
    // "In the model": the step from N to N + 1 is the model's, not a measurement's (the latency bands are far wider).
    format!("; in the model the target holds up to {load}, {more} breaks it ({why})")
}

/// The grid's version of [`limit_note`]: the last level meeting the target and the next level.
pub(super) fn grid_limit_note(r: &Resolved, sweep: &[LoadPoint]) -> String {
    let Some(i) = sweep.iter().rposition(|p| p.meets_target) else { return String::new() };
    let p = &sweep[i];
    let load = load_label(&Marker {
        concurrency: p.concurrency,
        request_rate: p.request_rate,
        system_tps: 0.0,
        per_user_tps: 0.0,
        ttft_p_ms: None,
        tpot_p_ms: 0.0,
        kv_utilization: None,
    });
    let Some(next) = sweep.get(i + 1) else {
        return format!("; all levels up to {load} meet the target");
    };
    let pct = r.target.percentile;
    let why = if next.saturated {
        "the queue grows without bound".to_string()
    } else if next.error_rate > 0.01 {
        format!("{:.0} % errors", next.error_rate * 100.0)
    } else if r.target.tpot_ms.is_some_and(|l| next.tpot_ms.at(pct) > l) {
        format!("{pct} TPOT {} ms", fmt_against(next.tpot_ms.at(pct), r.target.tpot_ms))
    } else {
        format!("{pct} TTFT {} ms", fmt_against(next.ttft_ms.at(pct), r.target.ttft_ms))
    };
    // Past the engine's cap on running sequences requests queue: say so when that, not the hardware, is the limit.
    let cap = f64::from(r.deployment.engine.max_batch);
    let capped = next.concurrency.is_some_and(|c| c > cap) && p.concurrency.is_some_and(|c| c >= cap * 0.99);
    let fit = r.deployment.max_sequences(r.workload.full_context()).floor();
    let cap_note = if capped && fit > cap {
        format!(" — the engine runs at most {cap:.0} sequences at once (engine.max_batch) and queues the rest; memory holds {fit:.0}, so a higher cap would serve more")
    } else if capped {
        format!(" — the engine runs at most {cap:.0} sequences at once (engine.max_batch)")
    } else {
        String::new()
    };
    format!("; in the model the target holds up to {load}, the next level breaks it ({why}){cap_note}")
}

/// "P99 TTFT ≤ 2000 ms and TPOT ≤ 40 ms", "a 10-step task ≤ 30 s at P99", or both.
pub(super) fn target_text(r: &Resolved) -> String {
    let t = &r.target;
    let p = t.percentile;
    // As typed: a 2.5 ms limit had read "TPOT ≤ 2 ms" (a trial).
    let (ttft, tpot) = (t.ttft_ms.map(crate::model::units::fmt_num), t.tpot_ms.map(crate::model::units::fmt_num));
    let latency = match (ttft, tpot) {
        (Some(ttft), Some(tpot)) => Some(format!("{p} TTFT ≤ {ttft} ms and TPOT ≤ {tpot} ms")),
        (Some(ttft), None) => Some(format!("{p} TTFT ≤ {ttft} ms")),
        (None, Some(tpot)) => Some(format!("{p} TPOT ≤ {tpot} ms")),
        (None, None) => None,
    };
    let task = target::task_limit(r).map(|s| format!("a {}-step task ≤ {} s at {p}", r.workload.agent_steps, crate::model::units::fmt_num(s)));
    match (latency, task) {
        (Some(l), Some(k)) => format!("{l} and {k}"),
        (Some(l), None) => l,
        (None, Some(k)) => k,
        (None, None) => "the target".into(),
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn verdict(
    r: &Resolved,
    ss: &SingleStream,
    mem: &Memory,
    op: Option<&Marker>,
    peak: &Marker,
    sweep: &[LoadPoint],
    cap: Option<&Capacity>,
    op_point: Option<&LoadPoint>,
) -> String {
    // The pool that cannot hold the weights, when one cannot (a review: a one-device decode pool of 4 + 1 H100s for a
    // 70B model read "the KV cache of one sequence needs more than the -65 GB left").
    if let Some((d, pool)) = super::weights_short(r) {
        return format!(
            "does not fit: {pool}{:.1} GB of weights, {:.1} GB short{}",
            mem.weights_gb,
            -super::memory(&d, &r.workload).kv_budget_gb,
            super::devices_to_hold(r).map_or_else(String::new, |n| format!(
                "; {n} of these devices would hold it with room left for the KV cache (or a smaller weight format)"
            ))
        );
    }
    if !mem.fits {
        return format!(
            "does not fit: the KV cache of one {:.0}-token sequence needs more than the {:.1} GB left{}",
            mem.context_tokens,
            mem.kv_budget_gb,
            super::devices_to_hold(r).map_or_else(String::new, |n| format!("; {n} of these devices would hold it"))
        );
    }
    let t = &r.target;
    let p = t.percentile;
    match r.workload.mode {
        Mode::Batch => {
            let saturated_from = sweep.iter().find(|l| l.saturated).and_then(|l| l.request_rate);
            match saturated_from {
                Some(rate) => format!(
                    "batch: capacity about {} tok/s total ({:.1} tok/s each); offered loads from {} req/s on saturate; single stream {:.1} tok/s",
                    super::readout::group(peak.system_tps),
                    peak.per_user_tps,
                    fmt_rate(rate),
                    ss.decode_tps
                ),
                None => format!(
                    "batch: up to {} tok/s total at {} ({:.1} tok/s each); single stream {:.1} tok/s",
                    super::readout::group(peak.system_tps),
                    load_label(peak),
                    peak.per_user_tps,
                    ss.decode_tps
                ),
            }
        }
        Mode::Agent => match (op, op_point) {
            (Some(m), Some(lp)) => {
                let task = target::task_seconds_at(r, lp);
                let judged = match target::task_limit(r) {
                    Some(limit) => format!(" {} (target {} s)", if task <= limit { "✓" } else { "✗" }, fmt_against(limit, limit)),
                    None => String::new(),
                };
                format!(
                    "at {} (operating point): a {}-step task takes {} s{judged} ({p} TTFT {:.2} s + {:.0} tokens × {p} TPOT {:.1} ms per step), {} tok/s total{}",
                    load_label(m),
                    r.workload.agent_steps,
                    fmt_against(task, target::task_limit(r)),
                    lp.ttft_ms.at(t.percentile) / 1e3,
                    r.workload.output_tokens,
                    lp.tpot_ms.at(t.percentile),
                    super::readout::group(m.system_tps),
                    limit_note(r, sweep, cap, mem)
                )
            }
            _ => format!("✗ no load level meets {}", target_text(r)),
        },
        Mode::Reader => match op {
            Some(m) => format!(
                "at {} (operating point, {}): {:.0} tok/s each (median{}), {} tok/s total, {}{}",
                load_label(m),
                // A capacity of one user leaves no room under it (a trial read "1 user (100 % of the capacity)" and
                // a green ✓ as a margin).
                match super::load_share(
                    m,
                    cap,
                    sweep.iter().rfind(|l| l.meets_target).and_then(LoadPoint::load),
                    r.target.operating_fraction,
                    r.workload.think_time_s > 0.0,
                ) {
                    s if s >= 0.995 && cap.is_some() => "the capacity itself: no headroom".to_string(),
                    // Of the capacity's users, named (a teacher's trial read "60 % of the capacity" as 60 % of
                    // the peak throughput, which is 92 % there).
                    s => format!(
                        "{:.0} % of the {}",
                        s * 100.0,
                        match (cap, r.workload.think_time_s > 0.0) {
                            (Some(_), true) => "capacity's request rate".to_string(),
                            (Some(c), false) => format!("capacity's {}", load_label(&c.at)),
                            _ => "peak usable load".to_string(),
                        }
                    ),
                },
                m.per_user_tps,
                // Each one's speed while it streams, and where the wait for the first token is a good part of an
                // answer, counting it over the mean answer's time: in a closed loop without pauses that one times the
                // users is the total (a teacher's trial; the mean, not the median, a review's check with lognormal lengths).
                match op_point.and_then(|l| super::readout::speed_with_wait(r.workload.output_tokens, l.ttft_ms.mean, l.e2e_ms.mean)) {
                    // Tenths below 10 ("or 0 on average" had stood for 0.4 behind a long queue: a review).
                    Some(v) if v < 9.95 => format!(", or {v:.1} on average counting the wait for the first token"),
                    Some(v) => format!(", or {v:.0} on average counting the wait for the first token"),
                    None => String::new(),
                },
                super::readout::group(m.system_tps),
                // The limit the target sets: TPOT's, else TTFT's alone ("target none ms" had stood there).
                // Each mark from its own figure (the operating point lies below the capacity, so it meets the
                // target; a sweep that is not monotone must not read a false ✓ even so: a review).
                match (t.tpot_ms, t.ttft_ms) {
                    (None, Some(l)) => {
                        let v = m.ttft_p_ms.unwrap_or(f64::NAN);
                        format!("{p} TTFT {} ms{} (target {} ms)", fmt_against(v, l), tick(v, l), fmt_against(l, l))
                    }
                    (None, None) => format!("{p} TPOT {} ms (no latency target)", fmt_against(m.tpot_p_ms, None)),
                    // TTFT first where it is nearer its limit than TPOT (a trial read "P95 TPOT 17 ms ✓" as the margin
                    // where P95 TTFT stood at 97 % of its target).
                    (Some(l), Some(lt)) if m.ttft_p_ms.is_some_and(|f| f / lt >= m.tpot_p_ms / l) => {
                        let v = m.ttft_p_ms.unwrap_or(f64::NAN);
                        format!(
                            "{p} TTFT {} ms{} (target {} ms), TPOT {} ms{} (target {} ms)",
                            fmt_against(v, lt),
                            tick(v, lt),
                            fmt_against(lt, lt),
                            fmt_against(m.tpot_p_ms, l),
                            tick(m.tpot_p_ms, l),
                            fmt_against(l, l)
                        )
                    }
                    // Both limits said, the nearer first (an operations trial: MI300X's verdict gave TPOT alone where
                    // H100's gave both).
                    (Some(l), Some(lt)) => {
                        let v = m.ttft_p_ms.unwrap_or(f64::NAN);
                        format!(
                            "{p} TPOT {} ms{} (target {} ms), TTFT {} ms{} (target {} ms)",
                            fmt_against(m.tpot_p_ms, l),
                            tick(m.tpot_p_ms, l),
                            fmt_against(l, l),
                            fmt_against(v, lt),
                            tick(v, lt),
                            fmt_against(lt, lt)
                        )
                    }
                    (Some(l), None) =>
                        format!("{p} TPOT {} ms{} (target {} ms)", fmt_against(m.tpot_p_ms, l), tick(m.tpot_p_ms, l), fmt_against(l, l)),
                },
                limit_note(r, sweep, cap, mem)
            ),
            // A heavier level may meet the target by chance past the lightest that breaks it (`capacity`, the edge
            // warning): "no load level meets" would contradict the table's ✓ there (a review).
            None => format!(
                "✗ {} {}; one user gets {:.1} tok/s{}",
                if sweep.iter().any(|p| p.meets_target) { "the lightest load does not meet" } else { "no load level meets" },
                target_text(r),
                ss.decode_tps,
                alone_note(r, ss, sweep)
            ),
        },
    }
}

/// "more devices per server, " where a server can take more: not an Apple chip, whose devices are one (an
/// operations trial was told to add devices to a Mac Studio).
pub(super) fn more_devices(r: &Resolved) -> &'static str {
    if r.deployment.hardware.kind == crate::model::hardware::HardwareKind::AppleSilicon {
        ""
    } else {
        "more devices per server, "
    }
}

/// Why no load meets the target when one request alone breaks it (a trial's 32,768-token prompts read only "no
/// load level meets" beside TTFTs of hours at the saturated levels): no server of this kind can.
fn alone_note(r: &Resolved, ss: &SingleStream, sweep: &[LoadPoint]) -> String {
    let t = &r.target;
    let more = more_devices(r);
    let g = super::readout::group;
    // A limit under 20 ms was most likely meant in seconds (an operations trial typed 1.5 for 1.5 s): said, with the ms.
    let in_seconds = |l: f64| {
        if l < 20.0 {
            format!(" (if seconds were meant: {} s is {} ms)", crate::model::units::fmt_num(l), g(l * 1e3))
        } else {
            String::new()
        }
    };
    // Requests that fail even at the lightest load: the longest of varying lengths do not fit the KV cache, and the
    // table's figures are the others' (a teacher's trial: 16k-token lognormal prompts on one RTX 4090 read ✗ beside
    // P99 latencies inside the target, and the verdict gave the wait of a P99 prompt that is refused).
    if let Some(l) = sweep.first().filter(|l| l.error_rate > 0.01 && !l.nothing_completed()) {
        let w = &r.workload;
        // What refuses them, named only where it can: a timeout or a queue limit the scenario sets, else the KV cache
        // where the traffic's longest requests are longer than it holds (measured on the pool that refuses them:
        // a disaggregated deployment's smaller one; a review found the whole deployment's figure named).
        let cause = if let Some(s) = w.timeout_s {
            format!(": requests unfinished {} s after they are sent time out", crate::model::units::fmt_num(s))
        } else if let Some(q) = w.queue_limit {
            format!(": arrivals that find {} requests waiting are refused", g(f64::from(q)))
        } else {
            let fits = super::steady_state::longest_fitting_tokens;
            let holds = r.pools().map_or_else(|| fits(&r.deployment), |(pre, dec)| fits(&pre).min(fits(&dec)));
            if holds > 0.0 && holds < super::steady_state::longest_request_tokens(w) {
                format!(
                    ": the longest requests ({} lengths of mean {} + {} tokens) do not fit the KV cache, which holds one of up to {} tokens — a smaller spread if your prompts vary less, a KV cache of fewer bits, {more}or a device with more memory",
                    w.distribution.id(),
                    g(w.prompt_tokens),
                    g(w.output_tokens),
                    g(holds)
                )
            } else {
                String::new()
            }
        };
        return format!(
            "; at the sweep's lightest load, {}, {:.0} % of the requests fail{cause}",
            load_label(&super::marker(l, t.percentile)),
            l.error_rate * 100.0
        );
    }
    if let Some(l) = t.ttft_ms.filter(|l| ss.ttft_ms > *l) {
        format!(
            "; one request alone waits {} ms for its first token ({} prompt tokens at {} tok/s), over the {} ms target{}: no server of this kind meets it — {more}a faster device or shorter prompts",
            fmt_against(ss.ttft_ms, l),
            g(r.workload.prompt_tokens),
            g(ss.prefill_tps),
            crate::model::units::fmt_num(l),
            in_seconds(l)
        )
    } else if let Some(l) = t.tpot_ms.filter(|l| ss.tpot_ms > *l) {
        format!(
            "; one user alone waits {} ms between tokens, over the {} ms target: no server of this kind meets it — {more}a faster device or fewer bits per weight",
            fmt_against(ss.tpot_ms, l),
            crate::model::units::fmt_num(l)
        )
    } else if let Some((l, q, alone)) = t.ttft_ms.and_then(|l| {
        // Lengths that vary: the percentile's TTFT belongs to the percentile's prompt, and one such request alone
        // may break it (a trial's 6,000-token RAG prompts, lognormal: the P95 prompt is 11,670 tokens, alone
        // 3.6 s against a 2 s target, where the verdict had blamed requests that overlap at one user).
        let w = &r.workload;
        let q = super::sweep::length(w.distribution, w.prompt_tokens, w.spread).quantile(t.percentile);
        // (Disaggregated: the prefill pool's, as the one-request TTFT beside it.)
        let pre = r.pools().map(|(pre, _)| pre);
        let alone = prefill::ttft_seconds(pre.as_ref().unwrap_or(&r.deployment), q, w.context_depth, w.prefix_cache_hit_rate) * 1e3;
        (q > w.prompt_tokens * 1.05 && alone > l).then_some((l, q, alone))
    }) {
        format!(
            "; the {} prompt is {} tokens ({} lengths of mean {}), and one such request alone waits {} ms for its first token, over the {} ms target: a smaller spread if your prompts vary less, a longer TTFT target, {more}or a faster device",
            t.percentile,
            g(q.round()),
            r.workload.distribution.id(),
            g(r.workload.prompt_tokens),
            fmt_against(alone, l),
            crate::model::units::fmt_num(l)
        )
    } else if let Some(l) = sweep.first() {
        // One request alone meets it, the sweep's lightest level does not (nor the lighter load the capacity search
        // tried): its figures say by how much.
        format!(
            "; at the sweep's lightest load, {}, {} TTFT is {} ms and TPOT {} ms, where one request alone takes {} ms to its first token and {:.1} ms a token: requests that overlap (queueing for the prefill, sharing steps) break it",
            load_label(&super::marker(l, t.percentile)),
            t.percentile,
            g(l.ttft_ms.at(t.percentile)),
            fmt_against(l.tpot_ms.at(t.percentile), t.tpot_ms),
            g(ss.ttft_ms),
            ss.tpot_ms
        )
    } else {
        String::new()
    }
}

/// What limits the capacity, in words.
pub fn limit_words(l: LimitedBy) -> &'static str {
    match l {
        LimitedBy::Tpot => "TPOT",
        LimitedBy::Ttft => "TTFT",
        LimitedBy::Task => "the task time",
        LimitedBy::Memory => "memory (no more sequences fit in the KV cache)",
        LimitedBy::EngineCap => "the engine's cap on running sequences",
        LimitedBy::Errors => "errors (over 1 % of requests fail)",
        LimitedBy::Saturation => "saturation (past it the server cannot keep up: its queue grows without bound)",
    }
}

/// The figure that breaks the target one step past the capacity, in the limit's own terms ("P99 TTFT 2 086 ms",
/// "P99 TPOT 41 ms": the TPOT for the limits that are not a latency).
pub fn breaking_figure(r: &Report, c: &Capacity, n: &Marker) -> String {
    let (pct, t) = (r.target.percentile, &r.target);
    match c.limited_by {
        LimitedBy::Ttft => format!("{pct} TTFT {} ms", fmt_against(n.ttft_p_ms.unwrap_or(0.0), t.ttft_ms)),
        LimitedBy::Task => format!("a {pct} task time over {} s", t.task_s.map_or_else(String::new, crate::model::units::fmt_num)),
        LimitedBy::Errors => "more than 1 % of requests failing".into(),
        LimitedBy::Saturation => "its queue growing without bound".into(),
        // The memory's or the engine's cap: the latency over its limit (a teacher's trial: "5 users break it with P99
        // TPOT 21 ms" under a 40 ms limit, where the fifth user's wait for one of llama.cpp's 4 slots took TTFT to 4 s).
        // As `target::broken` names it: an agent's task time whenever it has one (the wait for a slot lengthens
        // the task), else the latency furthest over its limit (a review).
        LimitedBy::Memory | LimitedBy::EngineCap if t.task_s.is_some() => {
            format!("a {pct} task time over {} s", t.task_s.map_or_else(String::new, crate::model::units::fmt_num))
        }
        LimitedBy::Memory | LimitedBy::EngineCap
            if t.ttft_ms.zip(n.ttft_p_ms).map_or(0.0, |(l, v)| v / l) > t.tpot_ms.map_or(0.0, |l| n.tpot_p_ms / l).max(1.0) =>
        {
            format!("{pct} TTFT {} ms", fmt_against(n.ttft_p_ms.unwrap_or(0.0), t.ttft_ms))
        }
        _ => format!("{pct} TPOT {} ms", fmt_against(n.tpot_p_ms, t.tpot_ms)),
    }
}

/// Where the operating point lies against the saturation knee, in one sentence for "How to read this" and the CLI
/// (a teacher's trial: "the knee is at 101 users and the operating point at 118: why run past where throughput
/// flattens?"). Past it: what the extra load does to the tok/s in total and to each user's. Before it: what puts it
/// there — the target, where the capacity itself comes before the knee, else the headroom (the operating point is
/// a share of the capacity, which lies past the knee; a review). `None` without both markers, on different axes,
/// or without a latency target (batch: no capacity to speak of).
#[must_use]
pub fn knee_and_operating_point(r: &Report) -> Option<String> {
    let (k, o, kx, ox) = knee_pair(r)?;
    let pct = |a: f64, b: f64| if a > 0.0 { (b / a - 1.0) * 100.0 } else { 0.0 };
    let group = super::readout::group;
    let (kl, ol) = (load_label(k), load_label(o));
    let at = format!("at {ol}, the knee at {kl}");
    Some(if past_knee(kx, ox) {
        let total = pct(k.system_tps, o.system_tps);
        let each = -pct(k.per_user_tps, o.per_user_tps);
        format!(
            "The operating point lies past the knee ({at}): the target allows more load than it takes to near the maximum, and the extra load {} the tok/s in total ({} → {}) while each user gets {} ({} → {} tok/s).",
            if total >= 0.5 { format!("adds {total:.0} % to") } else if total <= -0.5 { format!("takes {:.0} % off", -total) } else { "adds nothing to".to_string() },
            group(k.system_tps),
            group(o.system_tps),
            if each >= 0.5 { format!("{each:.0} % less") } else { "as much".to_string() },
            crate::model::units::tenths(k.per_user_tps),
            crate::model::units::tenths(o.per_user_tps)
        )
    } else if ox < kx * 0.95 {
        match r.peak_usable.as_ref().filter(|c| c.load().is_some_and(|c| c >= kx * 0.95)) {
            // "past the knee" only where it is (a teacher's trial: the target holding up to 4 users, the knee at 4,
            // read "past the knee").
            Some(c) => format!(
                "The operating point lies before the knee ({at}): the target holds up to {}, {} the knee; the operating point keeps headroom below that capacity, for bursts and for the model's error.",
                load_label(c),
                if c.load().is_some_and(|x| past_knee(kx, x)) { "past" } else { "at" }
            ),
            _ => format!(
                "The operating point lies before the knee ({at}): the latency target, not the hardware's throughput, sets the load — its capacity comes before the knee, where the server would give more tok/s in total at less speed for each user than the target allows."
            ),
        }
    } else {
        format!("The operating point sits at the knee ({at}).")
    })
}

/// The knee and the operating point with their loads, where both are on one load axis and a latency target sets
/// the operating point ([`knee_and_operating_point`]).
fn knee_pair(r: &Report) -> Option<(&Marker, &Marker, f64, f64)> {
    let (k, o) = (r.knee.as_ref()?, r.operating_point.as_ref()?);
    let (kx, ox) = (k.load()?, o.load()?);
    (k.concurrency.is_some() == o.concurrency.is_some() && kx > 0.0 && r.target.limits_latency()).then_some((k, o, kx, ox))
}

/// More than 5 % past the knee's load.
fn past_knee(kx: f64, ox: f64) -> bool {
    ox > kx * 1.05
}

/// Whether the operating point lies past the knee, as [`knee_and_operating_point`] says it (the capacity card too).
#[must_use]
pub fn operating_point_past_knee(r: &Report) -> bool {
    knee_pair(r).is_some_and(|(_, _, kx, ox)| past_knee(kx, ox))
}

#[cfg(test)]
mod tests {
    /// Two rates that read alike get one decimal more than they were written with, and on: never fewer (an MoE trial
    /// read "Holds 0.4 req/s … 0.5 req/s breaks it" beside a big figure of 0.45).
    #[test]
    fn rates_apart_add_decimals() {
        let apart = |x: &str, a: f64, b: f64| super::rates_apart((x.to_string(), x.to_string()), a, b);
        assert_eq!(apart("0.45 req/s", 0.449, 0.453), ("0.449 req/s".to_string(), "0.453 req/s".to_string()));
        assert_eq!(apart("18 req/s", 18.2, 18.4), ("18.2 req/s".to_string(), "18.4 req/s".to_string()));
        assert_eq!(apart("1.19 req/s", 1.1904, 1.1912), ("1.190 req/s".to_string(), "1.191 req/s".to_string()));
    }

    /// The operating point against the knee, said with the figures: past it on a roomy target, before it on a tight
    /// one (Llama-3.1-8B on one H100, 512 + 256 tokens).
    #[test]
    fn the_operating_point_is_placed_against_the_knee() {
        let report = |tpot: u32| {
            let json = format!(
                r#"{{"hardware":{{"preset":"h100-sxm"}},"model":{{"preset":"llama-3.1-8b"}},"workload":{{"prompt_tokens":512,"output_tokens":256}},"target":{{"tpot_ms":{tpot},"ttft_ms":2000,"percentile":99}}}}"#
            );
            crate::plan::evaluate(&crate::scenario::Scenario::from_json(&json).unwrap()).unwrap()
        };
        let r = report(40);
        let (k, o) = (r.knee.as_ref().unwrap(), r.operating_point.as_ref().unwrap());
        let words = super::knee_and_operating_point(&r).unwrap();
        assert!(o.concurrency > k.concurrency, "{o:?} {k:?}");
        assert!(
            words.starts_with(&format!(
                "The operating point lies past the knee (at {} users, the knee at {} users)",
                o.concurrency.unwrap(),
                k.concurrency.unwrap()
            )),
            "{words}"
        );
        assert!(
            words.contains(&format!("({} → {})", super::super::readout::group(k.system_tps), super::super::readout::group(o.system_tps))),
            "{words}"
        );
        // Before the knee: the capacity decides what puts it there — before the knee too (a tight TPOT: the target),
        // or past it (the headroom; a review found the target blamed there).
        for tpot in [15, 25, 30] {
            let r = report(tpot);
            let (k, o) = (r.knee.as_ref().unwrap(), r.operating_point.as_ref().unwrap());
            let Some(words) = super::knee_and_operating_point(&r) else { panic!("{tpot} ms: no sentence") };
            if o.load().unwrap() >= k.load().unwrap() * 0.95 {
                continue;
            }
            let c = r.peak_usable.as_ref().unwrap().load().unwrap();
            if c >= k.load().unwrap() * 0.95 {
                // Past the knee where it is more than 5 % beyond it, at it within that.
                let place = if c > k.load().unwrap() * 1.05 { "past" } else { "at" };
                assert!(words.contains(&format!("{place} the knee; the operating point keeps headroom below that capacity")), "{tpot} ms: {words}");
            } else {
                assert!(words.contains("the latency target, not the hardware's throughput, sets the load"), "{tpot} ms: {words}");
            }
        }
        let r = report(15);
        let (k, c) = (r.knee.as_ref().unwrap(), r.peak_usable.as_ref().unwrap());
        assert!(c.concurrency < k.concurrency, "at 15 ms the capacity comes before the knee: {c:?} {k:?}");
        // Batch (no latency target): nothing to place.
        let batch = crate::plan::evaluate(
            &crate::scenario::Scenario::from_json(r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"workload":{"prompt_tokens":512,"output_tokens":256,"mode":"batch"}}"#).unwrap(),
        )
        .unwrap();
        assert_eq!(super::knee_and_operating_point(&batch), None);
    }

    /// A TTFT limit under 20 ms is said in seconds too (an operations trial typed 1.5 meaning 1.5 s).
    #[test]
    fn a_tiny_ttft_limit_is_read_in_seconds_too() {
        let r = |ttft: f64| {
            let json = format!(
                r#"{{"hardware":{{"preset":"h100-sxm"}},"model":{{"preset":"llama-3.1-8b"}},"workload":{{"prompt_tokens":1500,"output_tokens":100}},"target":{{"ttft_ms":{ttft},"tpot_ms":50}}}}"#
            );
            crate::plan::evaluate_analytic(&crate::scenario::Scenario::from_json(&json).unwrap()).unwrap().verdict
        };
        let v = r(1.5);
        assert!(
            v.contains(&format!("over the 1.5 ms target (if seconds were meant: 1.5 s is {} ms): no server", super::super::readout::group(1500.0))),
            "{v}"
        );
        let v = r(30.0);
        assert!(v.contains("over the 30 ms target: no server"), "{v}");
    }

    /// A capacity limited by TTFT names the TTFT that breaks it, not the TPOT (a new user read "limited by
    /// TTFT; at 17 users P99 TPOT is 28.8 ms").
    #[test]
    fn the_breaking_figure_is_the_limits_own() {
        // TTFT 800 ms (400 until 2026-12: with Hopper's served η_fl 0.26 one 6,000-token prompt alone takes 400 ms).
        let s = crate::scenario::Scenario::from_json(
            r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"workload":{"prompt_tokens":6000,"output_tokens":100,"distribution":"fixed"},"target":{"ttft_ms":800,"tpot_ms":200,"percentile":99}}"#,
        )
        .unwrap();
        let r = crate::plan::evaluate(&s).unwrap();
        let c = r.capacity.as_ref().unwrap();
        assert_eq!(c.limited_by, crate::scenario::LimitedBy::Ttft, "{c:?}");
        let figure = super::breaking_figure(&r, c, c.next.as_ref().unwrap());
        assert!(figure.starts_with("P99 TTFT ") && figure.ends_with(" ms"), "{figure}");
    }

    /// Users who think between requests outnumber the engine's cap on running sequences: the verdict says their
    /// requests in flight fill it, not that the users are the most it runs (a trial: "up to 132 users, the most the
    /// engine runs at once" with a cap of 64).
    #[test]
    fn thinking_users_fill_the_engines_cap_with_their_requests_in_flight() {
        let s = crate::scenario::Scenario::from_json(
            r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"engine":{"preset":"vllm","max_batch":64},"workload":{"prompt_tokens":1024,"output_tokens":128,"think_time_s":5,"distribution":"fixed"},"target":{"preset":"batch","tpot_ms":40,"percentile":99}}"#,
        )
        .unwrap();
        let r = crate::plan::evaluate(&s).unwrap();
        let c = r.capacity.as_ref().unwrap();
        assert_eq!(c.limited_by, crate::scenario::LimitedBy::EngineCap, "{c:?}");
        assert!(c.at.concurrency.unwrap() > 64.0, "{c:?}");
        assert!(
            r.verdict.contains("users, whose requests in flight fill the 64 sequences the engine runs at once (engine.max_batch)"),
            "{}",
            r.verdict
        );
    }
}
