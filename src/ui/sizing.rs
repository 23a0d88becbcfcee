//! The meeting's answers, one card each, in sentences a pre-sales engineer can read aloud: the capacity at the
//! target, the fleet for the peak load, energy per token and cost per million tokens. Every figure comes from
//! the report (`capacity`, `fleet`, `energy`, `cost`); the cards only phrase them.

use super::results::fmt;
use crate::plan::band_text;
use crate::scenario::{Capacity, Marker, Report, ScenarioError};
use leptos::prelude::*;

fn users(v: f64) -> String {
    if v.round() == 1.0 {
        "1 user".into()
    } else {
        format!("{} users", super::results::group(v))
    }
}

fn load(m: &Marker) -> String {
    m.concurrency.map(users).or_else(|| m.request_rate.map(|r| format!("{} req/s", fmt(r)))).unwrap_or_default()
}

/// "Holds 29 users at the target, limited by TPOT; 30 users break it with P99 TPOT 41 ms."
fn capacity_sentence(r: &Report, c: &Capacity) -> String {
    let (at, after) = capacity_loads(c, load);
    let next = c.next.as_ref().zip(after).map_or_else(String::new, |(n, after)| {
        let verb = if n.concurrency.is_some_and(|u| u.round() != 1.0) { "break" } else { "breaks" };
        format!("; {after} {verb} it with {}", crate::plan::breaking_figure(r, c, n))
    });
    format!("Holds {at} at the target, limited by {}{next}.", crate::plan::limit_words(c.limited_by))
}

/// The capacity's load and the next one's in `words`, two rates that round alike given decimals until they read
/// apart (a trial read "Holds 0.08 req/s …; 0.08 req/s breaks it"; a review, "1.19 … 1.19" and "0.013 … 0.013" at
/// three significant digits): the capacity card's and "How to read this"'s.
pub(super) fn capacity_loads(c: &Capacity, words: impl Fn(&Marker) -> String) -> (String, Option<String>) {
    let (at, after) = (words(&c.at), c.next.as_ref().map(&words));
    match (&c.next, c.at.request_rate, c.next.as_ref().and_then(|n| n.request_rate)) {
        (Some(n), Some(a), Some(b)) if n.concurrency.is_none() => {
            let (x, y) = crate::plan::rates_apart((at, words(n)), a, b);
            (x, Some(y))
        }
        _ => (at, after),
    }
}

/// What one card says; every card has the same shape, so the page carries one view for all four.
struct Card {
    /// Element ids: the card, its big figure, its sentence.
    id: &'static str,
    big_id: &'static str,
    sentence_id: &'static str,
    title: &'static str,
    /// The figure and its unit (none: the card only explains what is missing).
    big: Option<(String, String)>,
    sentence: String,
    /// Lines under the sentence, each with whether it stands out (a server size that needs a quarter fewer devices).
    list: Vec<(String, bool)>,
    note: String,
    /// The ⓘ beside the title: what the figure is and its formula on this card's numbers (a teacher's trial found none
    /// on the capacity, fleet, energy and cost cards).
    info: Option<(&'static str, String)>,
}

impl Card {
    /// A card with its ids and title and nothing to show yet.
    fn empty(id: &'static str, big_id: &'static str, sentence_id: &'static str, title: &'static str) -> Self {
        Card { id, big_id, sentence_id, title, big: None, sentence: String::new(), list: Vec::new(), note: String::new(), info: None }
    }
}

fn card(c: Card) -> impl IntoView {
    // Printed, a card that only says what to type is left out.
    let empty = c.big.is_none();
    let list = (!c.list.is_empty()).then(|| {
        view! {
            <ul class="alternatives" id=format!("{}-alternatives", c.id)>
                {c.list.into_iter().map(|(l, strong)| if strong { view! { <li><strong>{l}</strong></li> }.into_any() } else { view! { <li>{l}</li> }.into_any() }).collect_view()}
            </ul>
        }
    });
    view! {
        <div class="card" class:empty=empty id=format!("{}-card", c.id)>
            <h2>{c.title}{c.info.map(|(name, body)| super::explain::info(name, body))}</h2>
            // A long figure ("USD 360 000") in smaller type: kept on one line, it ran past a narrow card (an
            // operations trial's cost card, 227 px of text in 212).
            {c.big.map(|(b, unit)| {
                let long = b.chars().count() > 8;
                // A figure in words ("USD 12.24 million") wraps at its word, as a number's digits must not.
                let words = b.ends_with(" million");
                view! { <p class="big" class:long=long id=c.big_id><span class="figure" class:words=words>{b}</span><small>{unit}</small></p> }
            })}
            <p class="sentence" id=c.sentence_id>{c.sentence}</p>
            {list}
            <p class="note">{c.note}</p>
        </div>
    }
}

fn capacity_card(r: &Report) -> Card {
    let mut c = Card::empty("capacity", "capacity-users", "capacity", "Capacity at the target");
    let Some(cap) = r.capacity.as_ref() else {
        c.sentence = if !r.memory.fits {
            format!("None: {}.", crate::plan::readout::no_fit(r))
        } else if !r.target.limits_latency() {
            "No latency target (batch): see the peak.".into()
        } else {
            "No load level meets the target.".into()
        };
        return c;
    };
    c.big = Some((
        cap.max_users_at_target.map_or_else(|| format!("{} req/s", fmt(cap.max_request_rate_at_target.unwrap_or(0.0))), users),
        " per server".into(),
    ));
    c.sentence = capacity_sentence(r, cap);
    c.info = Some((
        "the capacity at the target",
        format!(
            "The most load one server carries while the target holds at its percentile ({}): the simulated levels bracket it, and extra levels between them find it. Here {} per server; one more breaks the target. It is not the peak: past it the server gives more tok/s in total, at latencies the target does not allow.",
            super::report::limits_words(&r.target),
            cap.max_users_at_target.map_or_else(|| format!("{} req/s", fmt(cap.max_request_rate_at_target.unwrap_or(0.0))), users)
        ),
    ));
    c.note = format!("{} tok/s total at capacity.", fmt(cap.at.system_tps));
    if let Some(m) = &r.operating_point {
        // Its share of the capacity's throughput too, and where it lies past the knee (a teacher's trial: 60 % of the
        // users gave 95 % of the tok/s, 60 % of a request rate 58 %, and the page's "past the knee more users mostly
        // add waiting" sat beside an operating point past it).
        let share =
            if cap.at.system_tps > 0.0 { format!(" ({:.0} % of the capacity's)", m.system_tps / cap.at.system_tps * 100.0) } else { String::new() };
        // (Past it as "How to read this" says it: `plan::knee_and_operating_point`, a review.)
        let past = if crate::plan::operating_point_past_knee(r) {
            " It lies past the saturation knee: the headroom it keeps is in latency, not in tok/s."
        } else {
            ""
        };
        c.note += &format!(
            " Operating point {} (a share of the capacity's load, for headroom): {} tok/s total{share}, {} tok/s each.{past}",
            load(m),
            fmt(m.system_tps),
            fmt(m.per_user_tps)
        );
    }
    // A 4-bit format multiplied at 16 bits speeds one user, not a compute-bound capacity (a teacher's trial saw 178
    // users from BF16 to AWQ and found the reason only under "Defaults used").
    // (Any compute-rate note: gpt-oss's MXFP4 experts at 16 or 8 bits on a B200 too, a review.)
    if let Some(why) = r.defaults_used.iter().find_map(|d| d.strip_prefix("compute rate: ")) {
        c.note += &format!(" Compute rate {why}.");
    }
    c
}

fn fleet_card(r: &Report) -> Card {
    let mut c = Card::empty("fleet", "fleet-servers", "fleet-sentence", "Fleet");
    let Some(f) = r.fleet.as_ref() else {
        // A peak typed but not sized says why (a review: a rate peak on a users sweep read "Type the peak").
        let refused =
            r.warnings.iter().find(|w| w.kind == crate::plan::WarningKind::Fleet).map(|w| w.message.trim_start_matches("fleet: ").to_string());
        c.sentence = match (no_operating_point(r), refused) {
            // The fewest devices per server that hold the model, or the next size that meets the target, sized
            // (`plan::fleet::unfit_words`, `unmet_words`).
            (Some(_), Some(why)) if !r.memory.fits || why.starts_with("no load meets the target on ") => {
                let mut w = why;
                w[..1].make_ascii_uppercase();
                format!("{w}.")
            }
            (Some(why), _) => format!("No fleet: {why}, so there is no load per server to size servers by."),
            (None, Some(why)) => format!("No fleet: {why}."),
            (None, None) => "Type the peak users (or requests/s) under Fleet and cost to size the fleet.".into(),
        };
        return c;
    };
    let s = |n: u64| if n == 1 { "" } else { "s" };
    // The boxes a meeting buys, where servers share nodes or span them (a pre-sales trial read "25 servers · 32
    // devices" of 1 × H200 and found the 4 nodes deep in the sentence).
    // (A no-break space: "4" had wrapped away from "nodes" in a narrow card.)
    let nodes = f.nodes.filter(|&n| n != f.replicas).map_or_else(String::new, |n| format!(" · {n}\u{a0}node{}", s(n)));
    c.big = Some((f.replicas.to_string(), format!(" server{} · {} device{}{nodes}", s(f.replicas), f.devices_total, s(f.devices_total))));
    c.sentence = f.sentence.clone();
    // (The operating point's own load, as the sentence divides by it.)
    let (peak, op) = match (f.peak_users, f.peak_request_rate) {
        (Some(u), _) => (
            format!("{} users", crate::plan::readout::group(u)),
            format!("{} users", crate::model::units::fmt_num((f.users_per_replica * 10.0).round() / 10.0)),
        ),
        (None, Some(q)) => (format!("{} req/s", fmt(q)), format!("{} req/s", fmt(f.request_rate_per_replica))),
        _ => (String::new(), String::new()),
    };
    c.info = Some((
        "the fleet",
        format!(
            "Servers = ⌈peak ÷ what one server carries at its operating point⌉ + spares: ⌈{peak} ÷ {op}⌉ + {} — one fewer where that leaves each below 50 % of its capacity. The operating point is a share of the capacity (50–70 %), the headroom for bursts and for the model's error; a server is one replica of the hardware above.",
            f.spare_replicas
        ),
    ));
    // A size that needs a quarter fewer devices stands out (a pre-sales trial: 8 × MI300X in 8 servers of one held the
    // 300 users with half the 16 devices of the headline, in a grey line under it).
    c.list = f
        .alternatives
        .iter()
        // (On the share the line prints, rounded: 40 of 53 devices read "25 % fewer" in grey; a review.)
        .map(|a| {
            (
                crate::plan::fleet::alternative_words(f, a),
                ((1.0 - a.devices_total as f64 / (f.devices_total as f64).max(1.0)) * 100.0).round() >= 25.0,
            )
        })
        .collect();
    if f.peak_users.is_some() {
        c.note = f.users.clone();
    }
    c
}

/// Why a report has no operating point (the model does not fit, no load meets the target, or in batch mode every
/// level saturates), if it has none: the fleet and the cost rest on it, whatever prices and peak load were typed.
fn no_operating_point(r: &Report) -> Option<&'static str> {
    if !r.memory.fits {
        Some("the model does not fit")
    } else if r.operating_point.is_some() {
        None
    } else if r.target.limits_latency() || r.target.task_s.is_some() {
        Some("no load meets the target")
    } else {
        Some("no load level runs without saturating")
    }
}

fn energy_card(r: &Report) -> Card {
    let mut c = Card::empty("energy", "energy-jpt", "energy", "Energy");
    let Some(e) = r.energy.as_ref() else {
        c.sentence = if !r.memory.fits {
            "No power estimate: the model does not fit.".into()
        } else if r.operating_point.is_none() {
            "No power estimate: no load meets the target (no operating point).".into()
        } else {
            "No power estimate: the device's TDP is not known (hardware.tdp_watts).".into()
        };
        return c;
    };
    // Each figure with its basis: the accelerators' (the big figure) and the meter's (a trial read "3.43 million
    // tokens per kWh · 1.47 J/token at the meter" as one basis; at the meter that is 2.45 million).
    let meter = e
        .wall_joules_per_output_token
        .map(|w| format!("; at the meter ({}): {} J/token, {} tokens per kWh", e.meter_basis(), joules(w), fmt_tokens(3.6e6 / w)));
    c.big = Some((
        joules(e.joules_per_output_token),
        format!(" J/token at the operating point, accelerators only {}", crate::plan::band_text(r.band.energy_pct)),
    ));
    // The formula on this card's numbers (a teacher's trial: no ⓘ on the energy card).
    if let Some(m) = &r.operating_point {
        c.info = Some((
            "J/token",
            format!(
                "Energy per output token = the server's power ÷ its output tokens a second: {} W ÷ {} tok/s = {} J/token at the operating point; tokens per kWh = 3.6 million J ÷ J/token. The power is modelled, not measured: each device draws {} W idle up to its TDP, {} W, as busy as its steps are.",
                fmt(e.average_watts),
                fmt(m.system_tps),
                joules(e.joules_per_output_token),
                fmt(e.idle_watts),
                fmt(e.tdp_watts)
            ),
        ));
    }
    c.sentence = format!(
        "{} W per server at the operating point, {} tokens per kWh at the accelerators{}.{}",
        fmt(e.average_watts),
        fmt_tokens(e.output_tokens_per_kwh),
        meter.unwrap_or_default(),
        // The meeting's "this energy": the whole fleet, spares idle (as A versus B counts it).
        crate::plan::energy::fleet_power_words(r).map_or_else(String::new, |w| format!(" The fleet {w}."))
    );
    c.note = format!(
        "At {}: {} W{}, {} J/token. Accelerators only{}; each draws {} W idle to {} W (TDP) as busy as its steps are — an assumption, hence the wider band.",
        crate::plan::energy::throughput_peak_words(r),
        fmt(e.at_peak.average_watts),
        crate::plan::energy::peak_power_note(e, r.single_stream.devices),
        joules(e.at_peak.joules_per_output_token),
        // The hosts count at the meter alone (a trial: "the meter's" had read as the whole server's).
        e.host_watts.map_or_else(String::new, |h| format!(" (the meter adds their hosts' {} W each, whatever the load)", fmt(h))),
        fmt(e.idle_watts),
        fmt(e.tdp_watts)
    );
    c
}

/// Joules per token to three significant digits below 10 (0.135, 1.47): two decimals had shown the operating
/// point's 0.135 and the peak's 0.142 both as "0.14", and 3.6 MJ ÷ 0.14 is not the 26.6 million tokens per kWh
/// printed beside it (a teacher's trial).
fn joules(v: f64) -> String {
    if v.is_finite() && v > 0.0 && v < 10.0 {
        let decimals = (2 - v.log10().floor() as i32).clamp(1, 6) as usize;
        format!("{v:.decimals$}")
    } else {
        fmt(v)
    }
}

/// 1 352 273 → "1.35 million".
fn fmt_tokens(v: f64) -> String {
    if v >= 1e6 {
        format!("{:.2} million", v / 1e6)
    } else {
        fmt(v)
    }
}

fn money(v: f64) -> String {
    if v >= 100.0 {
        super::results::group(v)
    } else if v > 0.0 && v < 0.00995 {
        // Below a cent, two significant digits (a device written off over 30 years: 0.00038 a device-hour, not 0.00).
        crate::plan::cost::hourly_part(v)
    } else {
        format!("{v:.2}")
    }
}

/// A card's big sum: "USD 960 000", and from a million up "USD 15.36 million" (its currency and figure kept
/// together by a no-break space; a narrow card may wrap before "million").
fn big_money(cur: &str, v: f64) -> String {
    if v >= 1e6 {
        format!("{}{:.2} million", cur.replace(' ', "\u{a0}"), v / 1e6)
    } else {
        format!("{cur}{}", money(v))
    }
}

fn cost_card(r: &Report) -> Card {
    let mut c = Card::empty("cost", "cost-per-million", "cost", "Cost");
    let Some(k) = r.cost.as_ref() else {
        c.sentence = match no_operating_point(r) {
            Some(why) => format!("No cost per token: {why}, so there is no operating point to cost."),
            None => "Type a device-hour or electricity price under Fleet and cost (none is assumed).".into(),
        };
        return c;
    };
    let cur = k.currency.clone().map_or_else(String::new, |c| format!("{c} "));
    let parts: Vec<String> = [
        k.devices_per_hour.map(|v| format!("devices {}", money(v))),
        k.electricity_per_hour.map(|v| format!("electricity {}", crate::plan::cost::hourly_part(v))),
    ]
    .into_iter()
    .flatten()
    .collect();
    // A month of 30 days, as the energy card's MWh (a quote is often monthly).
    let fleet = k.fleet_per_hour.map(|f| {
        format!(
            " The fleet: {cur}{} per hour, {cur}{} a month {}{}, {cur}{} a year{}.",
            money(f),
            money(k.fleet_per_month.unwrap_or(f * 720.0)),
            crate::plan::energy::month_words(r.fleet.as_ref().map_or(24.0, |f| f.peak_hours_per_day)),
            // What the power costs within it (a pre-sales trial: the month was mostly the devices' write-off).
            k.fleet_electricity_per_month.map_or(String::new(), |e| format!(" (electricity {cur}{} of it)", money(e))),
            // The year after the month's own words (a review read "(720 h)" as the year's).
            money(crate::plan::energy::a_year(k.fleet_per_month.unwrap_or(f * 720.0))),
            k.fleet_per_million_output_tokens.map_or(String::new(), |m| format!(
                "; the fleet's {cur}{} per million output tokens at the peak, {}{}",
                money(m),
                r.fleet.as_ref().map_or_else(|| "spares and headroom paid".to_string(), crate::plan::fleet::paid_words),
                crate::plan::cost::over_month_words(k, r, &|v| format!("{cur}{}", money(v)))
            ))
        )
    });
    // Bought, not rented: what the fleet costs to buy, and the device-hour the price makes.
    let bought = k.purchase.as_ref().map_or(String::new(), |p| {
        let y = p.write_off_years;
        let hour = format!("{} per device-hour over {y} year{}", money(p.device_hour()), if y == 1.0 { "" } else { "s" });
        match (p.fleet_devices, p.fleet_price) {
            (Some(n), Some(f)) => format!(
                " Buying the fleet: {cur}{} ({n} devices at {}; {hour}){}.",
                money(f),
                money(p.device_price),
                // The years asked for, as a quote states them (a pre-sales trial multiplied the 30-day month by 36).
                k.fleet_over_write_off.map_or(String::new(), |t| format!(
                    "; over the {y}-year write-off, {}: {cur}{}",
                    k.write_off_basis(),
                    money(t)
                ))
            ),
            _ => format!(" Bought at {cur}{} a device: {hour}.", money(p.device_price)),
        }
    });
    // Per server-hour at the operating point: the fleet's serving servers carry the peak's share (often less).
    let hour = format!("{cur}{} per server-hour at the operating point ({}).{}", money(k.per_hour), parts.join(" + "), fleet.unwrap_or_default());
    let per_million = format!("{cur}{}", money(k.per_million_output_tokens));
    // A fleet bought leads with what it costs to buy, the meeting's number (a pre-sales trial found the purchase in
    // the card's prose under a cost per million tokens); the cost per million follows in the sentence.
    let at_peak = money(k.at_peak.per_million_output_tokens);
    // Price lists quote prompts and answers apart; the figures above count the answers' tokens only (a pre-sales
    // trial: with 2,000-token prompts to 500 out, against a price per token in and out they read 5 × high).
    // Each figure scales alike; the operating point's and, where a fleet is sized, the fleet's at its peak are said
    // (a review: one server's alone had stood for the card the fleet now leads).
    let in_and_out = crate::plan::cost::in_and_out_share(r).map_or(String::new(), |share| {
        format!(
            " Each cost per million counts output tokens only; with the {}-token prompts counted too it is {} × as much: {cur}{} per million tokens in and out at the operating point{}.",
            fmt(r.prompt_tokens),
            crate::model::units::fmt_num((share * 100.0).round() / 100.0),
            money(k.per_million_output_tokens * share),
            k.fleet_per_million_output_tokens.map_or(String::new(), |f| format!(", {cur}{} for the fleet at its peak", money(f * share)))
        )
    });
    match k.purchase.as_ref().and_then(|p| p.fleet_price.zip(p.fleet_devices)) {
        Some((price, n)) => {
            // Millions in the unit: "USD 15 360 000" ran out of a quarter-width card.
            // "million" in the big figure itself: a trial read "USD 1.20" over a small "million to buy…" as a
            // dollar and twenty cents.
            // It may wrap before "million" (a narrow card), never inside "USD 12.24".
            c.big = Some((big_money(&cur, price), format!(" to buy the fleet ({} devices)", super::results::group(n as f64))));
            c.sentence = format!("{} {per_million} per million output tokens at the operating point; {hour}", bought.trim_start());
            c.note = format!(
                "{per_million} per million at the operating point; {cur}{at_peak} at the peak throughput (latency aside): a floor, not a quote.{in_and_out}"
            );
        }
        None => {
            c.sentence = format!("{hour}{bought}");
            c.note = format!(
                "At the operating point; {cur}{at_peak} per million at the peak throughput (latency aside): a floor, not a quote.{in_and_out}"
            );
            // At the operating point, said, with the fleet's own figure where a fleet is sized (an operations trial
            // took the operating point's 3.98 for its fleet's cost at a tenth of the load: 23.14).
            let fleet = k.fleet_per_million_output_tokens.map_or(String::new(), |m| format!("; the fleet at its peak load: {cur}{}", money(m)));
            match (k.fleet_per_month, r.fleet.as_ref()) {
                // A fleet sized leads with what it costs a month, the meeting's number, as a bought one leads with
                // its price (a pre-sales trial, 2026-12-07: the big figure was one server's USD 2.81 per million at
                // its operating point while the fleet, idle most of the day, came to 27.28 at its peak and 65 over
                // the month); the cost per million opens the sentence.
                (Some(month), Some(f)) => {
                    let servers = format!("{} server{}", super::results::group(f.replicas as f64), if f.replicas == 1 { "" } else { "s" });
                    // Electricity priced alone is said to be the power bill (a review).
                    let what = if k.devices_per_hour.is_some() { "the fleet" } else { "the fleet's electricity" };
                    c.big = Some((
                        big_money(&cur, month),
                        format!(" a month for {what} ({servers}) {}", crate::plan::energy::month_words(f.peak_hours_per_day)),
                    ));
                    c.sentence = format!("{per_million} per million output tokens at the operating point{fleet}. {hour}{bought}");
                    c.note = format!(
                        "{per_million} per million at the operating point; {cur}{at_peak} at the peak throughput (latency aside): a floor, not a quote.{in_and_out}"
                    );
                }
                _ => c.big = Some((per_million, format!(" per million output tokens at the operating point{fleet}"))),
            }
        }
    }
    // The formula on this card's numbers (a teacher's trial: no ⓘ on the cost card).
    if let Some(m) = &r.operating_point {
        c.info = Some((
            "the cost per million tokens",
            format!(
                "One server's cost an hour ÷ the output tokens it makes in that hour × 10⁶: {cur}{} ÷ ({} tok/s × 3\u{202f}600) × 10⁶ = {cur}{} per million at the operating point. The hour is the devices' price (or their purchase written off) and, where priced, their electricity. The fleet's figure pays its spares and the headroom too.",
                crate::plan::cost::hourly_part(k.per_hour),
                fmt(m.system_tps),
                money(k.per_million_output_tokens)
            ),
        ));
    }
    c
}

/// Capacity, fleet, energy and cost.
#[component]
pub fn SizingCards(
    /// The evaluation.
    report: ReadSignal<Result<Report, ScenarioError>>,
) -> impl IntoView {
    move || {
        report.with(|r| {
            r.as_ref().ok().map(|r| view! {
                <div class="cards sizing" id="sizing">
                    {[capacity_card(r), fleet_card(r), energy_card(r), cost_card(r)].into_iter().map(card).collect_view()}
                </div>
                <p class="note band" id="band-meaning">{format!(
                    "How good is this prediction? 9 in 10 measurements the model was not fitted on fell within: one user {} ({}: {}), under load {} ({}: {}); {}.{} Energy {}: the band under load, widened (the power model is not validated).",
                    band_text(r.band.single_stream_pct),
                    r.band.single_stream_class,
                    r.band.basis_words().0,
                    band_text(r.band.batched_pct),
                    r.band.load_class,
                    r.band.basis_words().1,
                    r.band.latency_words(),
                    r.band.compute_borrowed_from.as_ref().map_or(String::new(), |g| format!(
                        " This device's generation borrows the compute efficiency fitted on {g} devices (none is fitted on its own served runs): its error may be wider."
                    )),
                    band_text(r.band.energy_pct)
                )}<span class="screen-only">{
                    // The notation explained on a band the note shows (TTFT's, a factor in every class so far).
                    let f = band_text(r.band.ttft_pct);
                    let example = f.strip_prefix("÷ / × ").map(|x| format!(" ({f}: between the figure ÷ {x} and the figure × {x}.)")).unwrap_or_default();
                    format!("{example} Runs of your own deployment check them and calibrate the model: \"Compare with your benchmark results\".")
                }</span></p>
            })
        })
    }
}
