//! The sweep as a table: the charts' numbers in text, for reading exact values, copying into a report and for
//! screen readers.

use crate::scenario::{Report, ScenarioError};
use leptos::prelude::*;

/// One row per load level.
#[component]
pub fn SweepTable(
    /// The evaluation.
    report: ReadSignal<Result<Report, ScenarioError>>,
) -> impl IntoView {
    move || {
        report.with(|r| {
            let Ok(r) = r else { return ().into_any() };
            // A model that does not fit serves nothing: its levels' zeros, "overhead" and "saturated" are no figures
            // (a teacher's trial read sixteen rows of them).
            if !r.memory.fits {
                return ().into_any();
            }
            let p = r.target.percentile;
            let rows = r
                .sweep
                .iter()
                .map(|l| {
                    // A rate to a thousandth, trailing zeros dropped, as the slider says it ("11.6", not "11.600").
                    let load = l.concurrency.map_or_else(
                        || format!("{} req/s", crate::model::units::fmt_num((l.request_rate.unwrap_or(0.0) * 1e3).round() / 1e3)),
                        |c| format!("{c:.0}"),
                    );
                    if l.nothing_completed() {
                        return view! {
                            <tr class="bad"><td>{load}</td><td class="nothing" colspan="9">"— no request completed in the simulated time"</td></tr>
                        }
                        .into_any();
                    }
                    view! {
                        <tr class:bad=!l.meets_target>
                            <td>{load}</td>
                            <td>{crate::model::units::tenths(l.per_user_tps)}</td>
                            <td>{super::results::group(l.system_tps)}</td>
                            <td>{super::results::group(l.ttft_ms.p50)}</td>
                            // Against the target too: a failing 2 000.02 ms had read "2 000 ✗" beside "≤ 2 000" (an operations trial).
                            <td>{whole_against(l.ttft_ms.at(p), r.target.ttft_ms)}</td>
                            <td>{format!("{:.1}", l.tpot_ms.p50)}</td>
                            // Against the target: a failing 40.002 ms is not shown as "40.0" (the verdict's rule).
                            <td>{crate::plan::fixed_against(l.tpot_ms.at(p), 1, r.target.tpot_ms)}</td>
                            <td>{format!("{:.1}", l.mean_batch)}</td>
                            <td>{crate::plan::readout::bound_label(r, l)}</td>
                            // Requests evicted when the KV cache was full, beside the verdict (the CLI's table says it too).
                            <td>{format!(
                                "{}{}{}",
                                if l.saturated { "saturated" } else if l.meets_target { "✓" } else { "✗" },
                                // Which limit broke, in this column (on a phone the latency columns scroll out of sight, and
                                // an operations trial could not see the TPOT P99 that made the ✗).
                                if l.saturated || l.meets_target {
                                    ""
                                } else {
                                    let over = |v: f64, lim: Option<f64>| lim.is_some_and(|lim| v > lim);
                                    match (over(l.ttft_ms.at(p), r.target.ttft_limit_ms()), over(l.tpot_ms.at(p), r.target.tpot_limit_ms())) {
                                        (true, true) => " TTFT, TPOT",
                                        (true, false) => " TTFT",
                                        (false, true) => " TPOT",
                                        (false, false) => "",
                                    }
                                },
                                // Counted as events: one request can be evicted again and again (a teacher's trial read "12,988 evicted"
                                // beside 564 requests simulated as requests).
                                if l.preemptions > 0 {
                                    format!(" · {} eviction{}", super::results::group(f64::from(l.preemptions)), if l.preemptions == 1 { "" } else { "s" })
                                } else {
                                    String::new()
                                },
                            )}{
                                // Why a level inside its latency limits fails (a teacher's trial read ✗ with no reason).
                                (l.error_rate > 0.01 && !l.nothing_completed()).then(|| format!(" · {:.0} % failed", l.error_rate * 100.0))
                            }</td>
                        </tr>
                    }
                    .into_any()
                })
                .collect_view();
            view! {
                <details class="sweep-table">
                    <summary>"Table of the sweep"</summary>
                    <div class="table-scroll"><table id="sweep-table">
                        <thead><tr>{heads(r).into_iter().map(|(h, name, body)| view! { <th>{h}" "{super::explain::info(name, body)}</th> }).collect_view()}</tr></thead>
                        <tbody>{rows}</tbody>
                    </table></div>
                </details>
            }
            .into_any()
        })
    }
}

/// Each column's heading, its name for the ⓘ and its definition with the figures of the level nearest the
/// operating point.
fn heads(r: &Report) -> Vec<(String, &'static str, String)> {
    let p = r.target.percentile;
    let pp = format!("{p}");
    let Some(l) = super::explain::example(r) else { return Vec::new() };
    let at = super::explain::load(l.concurrency, l.request_rate);
    let rate = l.request_rate.is_some();
    let fmt = super::results::fmt;
    let lim = super::results::limit;
    let tgt = |t: &str| if p == crate::percentiles::Pct::P50 { format!("{t} P50 ms (target)") } else { format!("{t} {pp} ms") };
    vec![
        (
            if rate {
                "rate"
            } else if r.offline {
                "requests"
            } else {
                "users"
            }
            .to_string(),
            "the load",
            if rate {
                "Requests per second arriving (an open loop: they come whether or not the server keeps up).".to_string()
            } else if r.offline {
                // An offline job has no users (a new user's trial: its header had spoken of users sending their next
                // request).
                "An offline batch job: every request is queued at once (the level: the job's requests, or the fullest batch where none is given); the batch column says how many the engine runs at once, as its KV cache and its cap allow.".to_string()
            } else {
                "Concurrent users: each sending the next request as soon as the last answer ends (requests in flight at once), or after the think time when one is given.".to_string()
            },
        ),
        (
            "tok/s per user".into(),
            "tok/s per user",
            format!("Per-user TPS = 1 ÷ TPOT while generating: at {at}, 1000 ÷ {} ms = {} tok/s.", fmt(l.tpot_ms.p50), fmt(l.per_user_tps)),
        ),
        (
            "tok/s total".into(),
            "tok/s total",
            format!("System TPS = all users' output tokens ÷ time (prompts take their share of it): {} tok/s at {at}.", fmt(l.system_tps)),
        ),
        (
            "TTFT P50 ms".into(),
            "TTFT P50",
            format!("Time to first token, median: queueing plus reading the prompt; half the requests wait less. {} ms at {at}.", fmt(l.ttft_ms.p50)),
        ),
        (
            tgt("TTFT"),
            "the target's TTFT",
            format!(
                "TTFT at {pp}: only {:.0} % of requests wait longer. {} ms at {at}; target ≤ {} ms.",
                100.0 - p.value(),
                fmt(l.ttft_ms.at(p)),
                lim(r.target.ttft_limit_ms())
            ),
        ),
        (
            "TPOT P50 ms".into(),
            "TPOT P50",
            format!("Time per output token after the first, median: (E2E − TTFT) ÷ (output tokens − 1), E2E being the time from sending the request to its last token. {} ms at {at}.", fmt(l.tpot_ms.p50)),
        ),
        (
            tgt("TPOT"),
            "the target's TPOT",
            format!(
                "TPOT at {pp}: only {:.0} % of requests are slower. {} ms at {at}; target ≤ {} ms.",
                100.0 - p.value(),
                fmt(l.tpot_ms.at(p)),
                lim(r.target.tpot_limit_ms())
            ),
        ),
        (
            "batch".into(),
            "the batch",
            format!("Mean sequences decoded together in one step (they share it): {} at {at}.", fmt(l.mean_batch)),
        ),
        (
            "bound".into(),
            "the bound",
            format!(
                "What sets a step's time: memory (bytes read ÷ bandwidth), compute (arithmetic ÷ FLOP/s) or overhead (the engine's own time per step). At {at}: {}.",
                super::explain::bound(l)
            ),
        ),
        ("target".into(), "the target column", format!("✓ the level meets the target at {pp}; ✗ it does not, with the latency over its limit named (TTFT, TPOT); saturated: the queue grows without bound; evictions: the times the engine put a running request back in the queue when the KV cache was full, to read it again later (preemptions; one request can be evicted many times, so the count can exceed the requests); failed: requests refused (too long for the KV cache, or over the queue limit) or timed out — the latencies are the others', and more than 1 % failed fails the target.")),
    ]
}

/// A whole-number cell (grouped) that lands on the same side of the limit as its value: "2 000.02", not "2 000",
/// beside a limit of 2 000 ([`crate::plan::fixed_against`], its thousands grouped).
fn whole_against(v: f64, limit: Option<f64>) -> String {
    match crate::plan::fixed_against(v, 0, limit).split_once('.') {
        Some((whole, decimals)) => format!("{}.{decimals}", super::results::group(whole.parse().unwrap_or(v.trunc()))),
        None => super::results::group(v),
    }
}
