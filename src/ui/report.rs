//! The printed sizing report's own parts (print only): a title with the date, the question in one line (the
//! inputs), the assumptions appendix (every default the figures rest on) and the scenario's link as text. The
//! rest of the one-page report is the page itself under the print stylesheet.

use super::results::fmt;
use crate::scenario::{Report, Scenario, ScenarioError};
use leptos::prelude::*;

/// The inputs in five parts (one line joined by " · ", empty ones left out): model on hardware with engine, lengths,
/// target, fleet and prices.
/// The target's latency limits: "P99 TTFT ≤ 2 000 ms, TPOT ≤ 40.0 ms" (a limit not set: "none"). The printed question
/// and the capacity card's ⓘ.
pub(super) fn limits_words(t: &crate::scenario::Target) -> String {
    let lim = |v: Option<f64>| v.map_or_else(|| "none".to_string(), |v| format!("{} ms", fmt(v)));
    format!("{} TTFT ≤ {}, TPOT ≤ {}", t.percentile, lim(t.ttft_limit_ms()), lim(t.tpot_limit_ms()))
}

fn question(s: &Scenario, r: &Report) -> Vec<String> {
    let w = &s.workload;
    let dist = match w.distribution.unwrap_or_default() {
        crate::scenario::Distribution::Lognormal => format!(", lognormal lengths (spread {})", fmt(w.spread.unwrap_or(0.5))),
        crate::scenario::Distribution::Uniform => format!(", uniform lengths (± {})", fmt(w.spread.unwrap_or(0.5))),
        crate::scenario::Distribution::Fixed => String::new(),
    };
    let t = &r.target;
    let target = if t.limits_latency() { limits_words(t) } else { "no latency target (batch)".to_string() };
    let task = t.task_s.map_or_else(String::new, |x| format!(", task ≤ {} s", crate::model::units::fmt_num(x)));
    // How the load arrives: users who each wait for their answer (closed loop), arrivals at a rate, or all at once
    // (by the load alone: the page's batch mode sweeps users or rates too).
    let load = w.load.as_ref();
    let arrivals = if load.and_then(|l| l.offline).unwrap_or(false) {
        "every request at once".to_string()
    } else if r.sweep.first().is_some_and(|p| p.request_rate.is_some()) {
        // (The levels swept: a peak in requests/s without levels is swept in rates.)
        "requests arriving at a rate".to_string()
    } else if r.think_time_s > 0.0 {
        format!("users each pausing {} s between an answer and their next request", crate::model::units::fmt_num(r.think_time_s))
    } else {
        "users each waiting for their answer".to_string()
    };
    let mut parts = vec![
        // A KV cache not at the engines' 16 bits is said beside the weights (an operations trial's FP8 cache was in
        // no summary).
        format!(
            "{} ({}{}) on {} with {}",
            r.model,
            r.quantization,
            s.quantization
                .kv_cache
                .as_deref()
                .filter(|k| !matches!(k.to_ascii_lowercase().as_str(), "fp16" | "f16" | "bf16"))
                .map_or_else(String::new, |k| format!(", KV cache {}", k.to_ascii_uppercase())),
            r.hardware,
            r.engine
        ),
        format!("{} prompt + {} output tokens{dist}, {arrivals}", fmt(r.prompt_tokens), fmt(r.output_tokens)),
        format!("{target}{task}"),
    ];
    // The fleet and the prices in slots of their own, empty when not given (A's question is compared slot by slot).
    parts.push(s.fleet.as_ref().map_or_else(String::new, |f| {
        // Whole users as such (a pre-sales trial's report read "peak 40.0 concurrent users").
        let peak = f
            .peak_users
            .map(|u| format!("{} concurrent users", if u.fract() == 0.0 { super::results::group(u) } else { fmt(u) }))
            .or_else(|| f.peak_request_rate.map(|x| format!("{} req/s", fmt(x))))
            // A head count as typed (the report's question had read "peak ·" with nothing after it).
            .or_else(|| {
                f.people.map(|n| {
                    format!(
                        "{} people, {} % of them in the busiest hour, {} requests an hour each",
                        super::results::group(n),
                        crate::model::units::percent(f.active_share.unwrap_or(0.0)),
                        crate::model::units::fmt_num(f.requests_per_person_hour.unwrap_or(0.0))
                    )
                })
            });
        let spare = f.spare_replicas.filter(|n| *n > 0).map_or_else(String::new, |n| format!(" + {n} spare server{}", if n == 1 { "" } else { "s" }));
        // Hours at the peak, where not all day: A at 24 h and B at 10 had printed alike (a review).
        let hours = f.peak_hours_per_day.filter(|h| *h < 24.0).map_or_else(String::new, |h| format!(", {} h a day", fmt(h)));
        format!("peak {}{spare}{hours}", peak.unwrap_or_default())
    }));
    parts.push(String::new());
    if let Some(c) = &s.cost {
        let cur = c.currency.clone().map_or_else(String::new, |c| format!("{c} "));
        let prices: Vec<String> = [
            c.device_hour.map(|v| format!("{cur}{v} per device-hour")),
            c.device_price
                .map(|v| format!("{cur}{v} per device bought, over {} years", c.write_off_years.unwrap_or(crate::plan::cost::WRITE_OFF_YEARS))),
            c.electricity_per_kwh.map(|v| format!("{cur}{v} per kWh")),
            c.pue.map(|v| format!("PUE {v}")),
            c.host_watts_per_device.map(|v| format!("hosts {v} W per device")),
        ]
        .into_iter()
        .flatten()
        .collect();
        parts[4] = prices.join(", ");
    }
    parts
}

/// Title, date and the question (print only).
#[component]
pub fn PrintHeader(
    /// The scenario as evaluated.
    #[prop(into)]
    scenario: Signal<Result<Scenario, ScenarioError>>,
    /// Its evaluation.
    report: ReadSignal<Result<Report, ScenarioError>>,
    /// The pinned scenario A, when one is pinned.
    pinned: RwSignal<Option<Scenario>>,
    /// A's evaluation.
    report_a: Memo<Result<Option<Report>, ScenarioError>>,
) -> impl IntoView {
    let parts = move || {
        let s = scenario.get().ok()?;
        report.with(|r| r.as_ref().ok().map(|r| question(&s, r)))
    };
    let line = move || parts().map(|p| p.into_iter().filter(|x| !x.is_empty()).collect::<Vec<_>>().join(" · "));
    // Where A's question differs from B's, prices included (a trial could not check A's cost per hour on paper: only
    // B's prices were printed); only the parts that differ, so that the page still holds on one sheet.
    let line_a = move || {
        let a = pinned.get()?;
        let b = parts().unwrap_or_default();
        report_a.with(|r| r.as_ref().ok().and_then(Option::as_ref).map(|r| question(&a, r))).map(|qa| {
            // Slot by slot: A's own where it differs, "without" B's where A has none (a fleet, prices).
            let differ: Vec<String> = qa
                .into_iter()
                .zip(b.iter().chain(std::iter::repeat(&String::new())))
                .filter(|(x, y)| x != *y)
                .map(|(x, y)| if x.is_empty() { format!("without {y}") } else { x })
                .collect();
            if differ.is_empty() {
                "A: the same question".to_string()
            } else {
                format!("A: {}", differ.join(" · "))
            }
        })
    };
    view! {
        <div class="print-only print-head">
            <p class="print-title"><strong>"TPS Planner — sizing report"</strong>{move || format!(" · {}", super::today())}</p>
            <p class="question" id="print-question"><strong>{move || if pinned.with(Option::is_some) { "Question (B): " } else { "Question: " }}</strong>{line}</p>
            <p class="question" id="print-question-a">{line_a}</p>
        </div>
    }
}

/// The assumptions appendix and the scenario's link (print only).
#[component]
pub fn PrintFooter(
    /// Its evaluation.
    report: ReadSignal<Result<Report, ScenarioError>>,
    /// The address of this view (the scenario and the pinned A).
    #[prop(into)]
    link: Signal<String>,
) -> impl IntoView {
    let defaults = move || report.with(|r| r.as_ref().map(|r| r.defaults_used.clone()).unwrap_or_default());
    // What the power counts: the accelerators, or at the meter with the hosts and the PUE (a pre-sales trial read
    // "accelerators only" under figures that counted 150 W of host per device).
    let basis = move || {
        report.with(|r| {
            let b = r.as_ref().ok().and_then(|r| r.energy.as_ref()).map(crate::scenario::Energy::meter_basis).unwrap_or_default();
            if b.is_empty() {
                "accelerators only".to_string()
            } else {
                format!("the accelerators' power, and at the meter: {b}")
            }
        })
    };
    // The caveats the screen says beside the verdict and the fleet, which print leaves out with their notes (a
    // pre-sales trial's printed report had dropped both: "P99 TPOT could reach 62 ms, past the 40 ms target", and that
    // its users each keep a request in flight, where a think time of 30 s took 10 servers to 3).
    let caveats = move || {
        report.with(|r| {
            let Ok(r) = r else { return String::new() };
            // A fleet of users only, by its own words (a review: a rate sweep's users who pause had printed as in flight,
            // and a peak in req/s has no users to describe); users in flight said short (the page's own sentence took
            // the one-page report onto a second page in Letter).
            let users = r.fleet.as_ref().filter(|f| f.peak_users.is_some()).map(|f| {
                if f.users == crate::plan::fleet::USERS_IN_FLIGHT {
                    "The fleet's users each keep a request in flight; people who pause between turns need fewer servers.".to_string()
                } else {
                    f.users.clone()
                }
            });
            crate::plan::margin_words(r).into_iter().chain(users).collect::<Vec<_>>().join(" ")
        })
    };
    view! {
        <section class="print-only appendix" aria-label="Assumptions">
            {move || {
                let c = caveats();
                (!c.is_empty()).then(|| view! { <p id="print-caveats"><strong>"Caveats: "</strong>{c}</p> })
            }}
            <p><strong>"Assumptions (defaults the figures rest on): "</strong>
                {move || defaults().join(" · ")}
                {format!(
                    " · power: each device draws {:.0} % of its TDP idle, its TDP while it computes and {:.0} % of the way there while it streams memory; ",
                    crate::plan::energy::IDLE_FRACTION * 100.0,
                    crate::plan::energy::MEMORY_BOUND_DRAW * 100.0
                )}{basis}</p>
        </section>
        // Quotes as quotes on paper (a third shorter than %22; a browser encodes them again when the address is typed).
        <p class="print-only" id="print-link">{move || format!("Printed {} from TPS Planner. This scenario: {}", super::today(), printed_link(&link.get()))}</p>
    }
}

/// The page's address as printed: quotes as quotes, and whole numbers without their ".0" (2000.0 reads as 2000 again:
/// an A-vs-B link is two scenarios long, and ran onto a second sheet) — numbers only, never inside a string.
fn printed_link(link: &str) -> String {
    let s = link.replace("%22", "\"");
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut in_string = false;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' && !(i > 0 && b[i - 1] == b'\\') && !s[..i].ends_with("%5C") {
            in_string = !in_string;
        }
        let whole = !in_string
            && c == b'.'
            && b.get(i + 1) == Some(&b'0')
            && matches!(b.get(i + 2), Some(b',' | b'}' | b']'))
            && i > 0
            && b[i - 1].is_ascii_digit();
        if whole {
            i += 2;
            continue;
        }
        let ch = s[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8().max(1);
    }
    out
}
