//! Fleet sizing: how many replicas (servers) carry the peak load.
//!
//! Each serving replica runs at the operating point, so
//!
//! ```text
//! replicas = ⌈peak ÷ load per replica at the operating point⌉ + spare_replicas
//! ```
//!
//! in the peak's own unit: concurrent users (a request-rate sweep converts its rate with Little's law, users
//! = rate × mean E2E) or requests/s (a concurrency sweep of users who think between requests uses the requests a
//! replica completes per second; one of users who never pause is not sized for a rate: [`size`]).
//! The peak's share of each serving replica (`peak_load_per_replica`, spares held back for failures and
//! maintenance) over a replica's capacity at the target is `utilisation_at_peak`; the same with one serving
//! replica fewer says whether one fewer server would still hold the target (≤ 100 %).
//!
//! **Alternatives**: the next smaller and larger device counts per replica at which the model fits (weights
//! and at least one sequence) and, tensor parallel, the device count divides the attention heads. Each is
//! evaluated as the report is — simulated when its levels are, with the same capacity search — so an
//! alternative's line is what the scenario re-evaluated at that device count says (tests/regressions.rs). Until
//! 2026-12-03 each was an analytic estimate scaled by this deployment's simulated ÷ analytic operating load; the
//! ratio does not carry when the limit changes: Llama-3-70B on one MI300X (TPOT-bound, 4 users) put 2 devices at
//! 33 users per server, and on 4 MI300X (TTFT-bound, 20 users) put the same 2 devices at 8.6; simulated, 11.

use super::{fmt_rate, memory};
use crate::model::hardware::Parallelism;
use crate::scenario::{Fleet, FleetAlternative, FleetInputs, LoadPoint, Marker, PeakLoad, Resolved};

pub use crate::scenario::OPERATING_RANGE;

/// Replicas for `peak` at `per_replica` each, plus `spare`: ⌈peak ÷ per_replica⌉ + spare (at least one
/// serving). `None` when a replica carries nothing.
#[must_use]
pub fn replicas(peak: f64, per_replica: f64, spare: u32) -> Option<u64> {
    if !(per_replica > 0.0 && per_replica.is_finite() && peak.is_finite() && peak > 0.0) {
        return None;
    }
    // A quotient a rounding error above a whole number is that number.
    let serving = ((peak / per_replica) * (1.0 - 1e-12)).ceil().max(1.0);
    Some((serving as u64).saturating_add(u64::from(spare)))
}

/// What "users" means in a fleet sized for a peak of users, said beside the fleet (a trial: "500 chat users who
/// read and type between turns need far fewer servers; only the glossary says so").
/// With the way to size for such people: their requests per second (a pre-sales trial had 800 employees and
/// converted by hand), which the fleet then sizes on request rates.
pub const USERS_IN_FLIGHT: &str = "Users here each keep a request in flight, as a benchmark's do; people who read and type between turns load a server less — give their think time (under Serving), or their peak in req/s: 800 people who each ask once a minute send 13.3 req/s.";

/// What the users of a fleet are, with users who think `think_s` seconds between requests.
#[must_use]
pub fn users_words(think_s: f64) -> String {
    if think_s > 0.0 {
        format!(
            "Users here each read an answer and pause {} s on average before their next request (the think time); with none, each would keep a request in flight.",
            crate::model::units::fmt_num(think_s)
        )
    } else {
        USERS_IN_FLIGHT.to_string()
    }
}

/// Users at a level: its concurrency, or rate × (mean E2E + their think time `think_s`) (Little's law over a
/// user's cycle; without a think time, the requests in flight).
#[must_use]
pub fn users_at(p: &LoadPoint, think_s: f64) -> f64 {
    p.concurrency.unwrap_or_else(|| p.request_rate.unwrap_or(p.request_throughput) * (p.e2e_ms.mean / 1e3 + think_s))
}

/// Requests per second at a level: its offered rate, or the requests it completes per second.
#[must_use]
pub fn rate_at(p: &LoadPoint) -> f64 {
    p.request_rate.unwrap_or(p.request_throughput)
}

fn load_in(peak: PeakLoad, p: &LoadPoint, think_s: f64) -> f64 {
    match peak {
        PeakLoad::Users(_) => users_at(p, think_s),
        PeakLoad::RequestRate(_) => rate_at(p),
    }
}

fn label(peak: PeakLoad, v: f64) -> String {
    match peak {
        PeakLoad::Users(_) if v == 1.0 => "1 user".into(),
        // Whole users as such; Little's-law users (a rate sweep) with a decimal, so the product reads right.
        PeakLoad::Users(_) if v.fract() == 0.0 => format!("{} users", super::readout::group(v)),
        PeakLoad::Users(_) => format!("{v:.1} users"),
        PeakLoad::RequestRate(_) => format!("{} req/s", fmt_rate(v)),
    }
}

/// A fleet's load per server in words: "1 user", "26 users", "22.6 users" (Little's-law users of a rate sweep),
/// "1.50 req/s" (not "2.00 users").
#[must_use]
pub fn load_words(f: &Fleet, v: f64) -> String {
    label(if f.peak_users.is_some() { PeakLoad::Users(v) } else { PeakLoad::RequestRate(v) }, v)
}

/// An alternative server size in words, against the fleet it is an alternative to: "1 device per server: 501
/// servers, 501 devices (1 user each at the peak), 9.6 × the devices" — a far worse option says how much worse, so a meeting
/// does not weigh it by its server count alone. Within 5 % of the fleet's devices no comparison is added.
#[must_use]
pub fn alternative_words(f: &Fleet, a: &FleetAlternative) -> String {
    let s = |n: u64| if n == 1 { "" } else { "s" };
    let n = u64::from(a.devices_per_replica);
    let ratio = a.devices_total as f64 / (f.devices_total as f64).max(1.0);
    // Every size set against the fleet's (a trial found 62 devices against 64 without a word: near ones had none).
    let versus = if ratio >= 1.5 {
        format!(", {} × the devices", if ratio < 9.95 { format!("{ratio:.1}") } else { format!("{ratio:.0}") })
    } else if a.devices_total == f.devices_total {
        ", as many devices".to_string()
    } else if ratio > 1.0 {
        format!(", {:.0} % more devices", ((ratio - 1.0) * 100.0).max(1.0))
    } else {
        format!(", {:.0} % fewer devices", ((1.0 - ratio) * 100.0).max(1.0))
    };
    // A replica over several nodes says so (a trial read "16 devices per server" as one box of 16 H100s).
    let nodes = spans_words(a);
    // The peak's share of each serving server, named as such (a pre-sales trial: "3 servers (120 users each)" — each
    // one's operating point — read as 360 users for a peak of 400, where one fewer than the operating points ask
    // holds within 50–70 % of capacity and each carries 133.3; the fleet's own line names its operating point).
    let carried = f.peak_users.or(f.peak_request_rate).map_or(a.load_per_replica, |p| share_of(p, a.replicas, f.spare_replicas));
    let g = |v: u64| super::readout::group(v as f64);
    // Counted one by one (rented, or no price) where whole nodes count otherwise: what they take, said after; the
    // fleet's own whole-node count named as such where it is not the count it shows (13 rented servers of 2 are 26
    // devices, 32 in whole nodes: "as many as this fleet's" beside 23 % more read as a contradiction; a review).
    let whole = match a.whole_nodes {
        Some((node, mine, theirs)) if mine != a.devices_total || theirs != f.devices_total => {
            let fleet =
                if theirs == f.devices_total { format!("this fleet's {}", g(theirs)) } else { format!("this fleet's {} in whole nodes", g(theirs)) };
            let own = if mine == a.devices_total { String::new() } else { format!(", {} devices", g(mine)) };
            format!("; if bought, in whole nodes of {node}{own}, {} {fleet}", if mine == theirs { "as many as" } else { "against" })
        }
        _ => String::new(),
    };
    // Bought in whole nodes already, with devices beyond the servers' own: said where they come from ("11 servers,
    // 24 devices" did not multiply out for a pre-sales trial).
    let in_nodes = match a.whole_nodes {
        Some((node, mine, _)) if mine == a.devices_total && mine != n * a.replicas => {
            let k = mine / u64::from(node);
            format!(" in {} whole node{} of {node}", g(k), s(k))
        }
        _ => String::new(),
    };
    format!(
        "{n} device{}{nodes} per server: {} server{}, {} device{}{in_nodes} ({} each at the peak){versus}{whole}",
        s(n),
        a.replicas,
        s(a.replicas),
        a.devices_total,
        s(a.devices_total),
        load_words(f, carried)
    )
}

/// The operating level of a scenario at another device count, with the level at its capacity where resolved (the
/// fleet's alternatives size with both).
pub(crate) type AltOp<'a> = dyn Fn(&Resolved) -> Option<(LoadPoint, Option<LoadPoint>)> + 'a;

/// A server's load as a share of its capacity when `n` serving servers share the peak (`util` of [`size`]): in
/// requests/s where either side is a rate, else in users.
struct Utilisation {
    peak_v: f64,
    per: f64,
    op_native: f64,
    cap_native: f64,
    thinking_users: bool,
    u_op: f64,
    u_cap: f64,
    r_op: f64,
    r_cap: f64,
}

impl Utilisation {
    /// For a peak of `peak_v` (`peak`'s kind) at `per` a server at the operating point `op`, of capacity `cap`.
    fn of(peak: PeakLoad, peak_v: f64, think: f64, (op, cap): (&LoadPoint, &LoadPoint), per: f64) -> Self {
        let native = |p: &LoadPoint| if think > 0.0 { rate_at(p) } else { p.concurrency.unwrap_or_else(|| rate_at(p)) };
        let rate_on_users = matches!(peak, PeakLoad::RequestRate(_)) && op.concurrency.is_some();
        let (op_native, cap_native) = if rate_on_users { (per, load_in(peak, cap, think)) } else { (native(op), native(cap)) };
        // Users who think send fewer requests each as the server slows (their cycle is the think time plus an E2E
        // that grows with the load): a share of users between the operating point's and the capacity's sends at a
        // rate per user between theirs, so that the capacity's users are 100 % of it. At the operating point's rate
        // per user, 300 users on one server of a 351-user capacity read "over capacity (104 %)" beside "the fewest
        // that hold the target, each at its capacity: 1" (a pre-sales trial).
        let thinking_users = think > 0.0 && matches!(peak, PeakLoad::Users(_)) && op.concurrency.is_some() && !rate_on_users;
        let (u_op, u_cap) = (users_at(op, think), users_at(cap, think));
        Self { peak_v, per, op_native, cap_native, thinking_users, u_op, u_cap, r_op: rate_at(op) / u_op, r_cap: rate_at(cap) / u_cap }
    }

    /// The share of its capacity a server may carry in the plan: the planned `fraction`, or the operating point's own
    /// share where rounding to whole users put it above (`trimmed_to_plan`); none without a capacity (`at` reads 0 there).
    fn plan(&self, fraction: f64) -> f64 {
        if self.cap_native > 0.0 {
            (self.op_native / self.cap_native).max(fraction)
        } else {
            f64::NEG_INFINITY
        }
    }

    fn at(&self, n: u64) -> f64 {
        if self.cap_native <= 0.0 || self.per <= 0.0 || n == 0 {
            return 0.0;
        }
        if !self.thinking_users {
            return self.peak_v / n as f64 / self.per * self.op_native / self.cap_native;
        }
        let u = self.peak_v / n as f64;
        let rate = if u <= self.u_op || self.u_cap <= self.u_op {
            self.r_op
        } else if u >= self.u_cap {
            self.r_cap
        } else {
            self.r_op + (u - self.u_op) / (self.u_cap - self.u_op) * (self.r_cap - self.r_op)
        };
        u * rate / self.cap_native
    }
}

/// ⌈peak ÷ the operating point's load⌉ servers load each at or below the operating point — below the 50–70 % an
/// operating point may take when the peak is a little over a whole number of them: one fewer then, where that keeps
/// each within the range (two trials, an operations engineer's and a pre-sales engineer's, 2026-12-06: "250 users → 3
/// servers … with one server fewer, 69 % of capacity each, still within the 50–70 %" — the three at 46 %, outside
/// it, bought a third more; 40 users → 2 servers of 4 × H200 at 31 %, where 1 runs at 62 %). The other device
/// counts take the same rule with their own capacity (an operations trial: "2 devices per server: 4 servers" on
/// the card, 3 once the page was set to 2 devices).
fn one_fewer_within_range(serving: u64, util: &dyn Fn(u64) -> f64) -> bool {
    serving >= 2 && util(serving) < OPERATING_RANGE.0 - 1e-9 && util(serving - 1) <= OPERATING_RANGE.1 + 1e-9
}

/// The fewest serving servers from `serving` down that each carry at most the planned share `plan` of their
/// capacity. ⌈peak ÷ the operating point's load⌉ can be one more than the plan needs where the operating point's
/// users are the planned share rounded down to whole users (a pre-sales trial: 300 users on 8 × L40S, a capacity of
/// 39 and 60 % planned, the operating point 23 users: 14 servers, "with one server fewer, 59.2 % of capacity each"
/// — 13 carry 23.1 users each, under the 60 % planned).
fn trimmed_to_plan(serving: u64, util: &dyn Fn(u64) -> f64, plan: f64) -> u64 {
    let mut n = serving;
    while n >= 2 && util(n - 1) <= plan + 1e-9 {
        n -= 1;
    }
    n
}

/// The fleet for `f` with replicas at the operating point `op` (its marker and level) and a capacity at
/// the target read from `cap`. `None` (with a note in `warnings`) when a replica carries no load.
#[must_use]
pub fn size(
    r: &Resolved,
    f: &FleetInputs,
    op: (&Marker, &LoadPoint),
    cap: &LoadPoint,
    hardware: &str,
    alt_op: &AltOp<'_>,
    warnings: &mut Vec<super::Warning>,
) -> Option<Fleet> {
    let (peak, peak_v) = (f.peak, f.peak.value());
    let think = r.workload.users_think_s;
    // A peak in requests/s is not sized on a sweep of users who never pause: each server's rate would be what its
    // closed-loop users complete, and a closed loop never lets a request wait for a slot, where arrivals at a rate
    // come in bursts and queue — the server holds fewer requests/s at the same target. Sized anyway (until
    // 2026-12-06, with a warning) it was about half the fleet: 8 servers of one H100 for 100 req/s of an 8B model
    // at its users' operating point of 13 req/s each, above the 11.8 req/s one server holds on a rate sweep, which
    // sizes 15 (a trial's; an earlier one: 11 servers against 18 for 30 req/s of a 70B model on 2 × H100). Users who
    // think between requests send them on their own, nearly as a rate does: sized.
    // (Batch work has no latency target for bursts to break: its rate is what the servers complete.)
    if refuses_rate_peak(peak, op.1.concurrency.is_some(), r) {
        // Worded by the load (a review: an offline job had read "concurrent users, whose requests never wait").
        let msg = if matches!(r.workload.load, crate::scenario::Load::Offline) {
            "fleet: not sized — the peak is in requests/s but the load is one job released at once, which has no rate of arrivals to hold; requests arriving at a rate come in bursts and queue — set Load to a request rate (or Automatic), or give the peak in users (requests at once)"
        } else {
            "fleet: not sized — the peak is in requests/s but the load swept is concurrent users, whose requests never wait for a slot; arrivals at a rate come in bursts and queue, so a server holds fewer requests/s at the same target than its users complete — set Load to a request rate (or Automatic), or give the peak in users"
        };
        warnings.push(super::Warning::new(super::WarningKind::Fleet, msg));
        return None;
    }
    let per = load_in(peak, op.1, think);
    let Some(total) = replicas(peak_v, per, f.spare_replicas) else {
        warnings.push(super::Warning::new(
            super::WarningKind::Fleet,
            "fleet: a replica carries no load at the operating point, so no fleet can be sized",
        ));
        return None;
    };
    let serving = total - u64::from(f.spare_replicas);
    // Utilisation in requests/s where either side is a rate, else in users. A users peak on a rate sweep scales the
    // operating point's load to a rate (users at a rate sweep's capacity are rate × an E2E that balloons there, so
    // "users ÷ users at capacity" had read 26 % for a fleet one server short of its operating point); a rate peak on
    // a users sweep is divided by the capacity's own rate (scaled to users it had read "64 % of capacity" for 10
    // req/s over 38 servers of 0.286 req/s each, 92 %: a closed loop's requests/s barely grows from 5 users to 8,
    // and the floor, the fewest at capacity, is read in requests/s too).
    // Users who think are read in the requests/s they send, as their operating point is (`capacity`): "one server
    // fewer" had read 57 % of the users a server holds beside a verdict's 60 % of its request rate.
    let u = Utilisation::of(peak, peak_v, think, (op.1, cap), per);
    let (op_native, cap_native) = (u.op_native, u.cap_native);
    let util = |n: u64| u.at(n);
    let trimmed = serving - trimmed_to_plan(serving, &util, u.plan(r.target.operating_fraction));
    let (serving, total) = (serving - trimmed, total - trimmed);
    let rounded_down = one_fewer_within_range(serving, &util);
    let (serving, total) = if rounded_down { (serving - 1, total - 1) } else { (serving, total) };
    let idle_share = rounded_down.then(|| util(serving + 1));
    let devices = r.deployment.hardware.devices;
    let one_fewer = (serving >= 2).then(|| util(serving - 1));
    let servers = |n: u64| if n == 1 { "1 server".to_string() } else { format!("{} servers", super::readout::group(n as f64)) };
    let spare = match f.spare_replicas {
        0 => String::new(),
        1 => " + 1 spare".into(),
        n => format!(" + {n} spares"),
    };
    // One server fewer loads each above the operating point: a share that rounds onto it gets a decimal (a trial
    // read "9 servers …; with one server fewer, 60 % of capacity each" against a 60 % operating point).
    let op_share = if cap_native > 0.0 { op_native / cap_native } else { 0.0 };
    // Decimals until the share reads above the operating point's whole per cent (60.02 % is "60.02", not "60.0"),
    // and above the planned share where the operating point's whole users sit under it (a pre-sales trial: 8 × L40S
    // at 34 users each, 59 % of a capacity of 61, read "with one server fewer, 60 % of capacity each" against a
    // 60 % plan: 60.4 %, over it).
    let op_pct = (op_share * 100.0).round();
    let planned_pct = (r.target.operating_fraction * 100.0).round();
    let pct = |u: f64| pct_above(u, if u * 100.0 > planned_pct { op_pct.max(planned_pct) } else { op_pct });
    // A users peak's share read in requests/s says so, with the loads it divides.
    let in_native = |u: f64| match (peak, op.1.concurrency.is_some()) {
        (PeakLoad::Users(_), false) => format!(" ({} of the {} req/s a server holds)", fmt_rate(u * cap_native), fmt_rate(cap_native)),
        _ => String::new(),
    };
    let fewer = match one_fewer {
        // Still inside the 50–70 % an operating point may take: said, as the meeting's cheaper answer (a pre-sales
        // trial read "63 % of capacity each" and missed that 3 servers, not 4, would do at that range's top).
        // Named as the option it is, with what it gives up (a second pre-sales trial heard three answers in "10 servers
        // …; with one server fewer, 61 % …; the fewest …: 6" and asked which to quote).
        Some(u) if u <= OPERATING_RANGE.1 => format!(
            "; {}{spare} would also do, at {} % of capacity each{}: within 50–70 %, past the operating point",
            servers(serving - 1),
            pct(u),
            in_native(u)
        ),
        // Above the range's 70 %, as it reads (a review: 70.5 % had read "70 %" where the fleet refused it as over 70).
        Some(u) if u <= 1.0 => {
            format!("; with one server fewer, {} % of capacity each{}", pct_above(u, (OPERATING_RANGE.1 * 100.0).max(op_pct)), in_native(u))
        }
        // Past capacity, decimals until it reads over 100 %: 100.1 % is over it, not "(100 %)".
        Some(u) => format!("; with one server fewer, over capacity ({} %)", pct_above(u, 100.0)),
        None => String::new(),
    };
    // Servers that share nodes: one fewer that still holds the target and frees a whole node says so (a pre-sales
    // trial: 24 + 1 spare servers of 1 × H200 bought 4 nodes of 8, 7 devices idle, where one server fewer — "63 % of
    // capacity each, still within the 50–70 %" — fits 3: a node's price the line left to the reader).
    let node = r.deployment.hardware.node_devices;
    let fewer = match one_fewer {
        Some(u) if u <= 1.0 && in_nodes(r) && devices < node && devices > 0 => {
            let per = u64::from(node / devices);
            let (now, then) = (total.div_ceil(per), (total - 1).div_ceil(per));
            if then < now {
                // "3 nodes of 8 devices, not 4" ("3 of 8 devices" read as three devices; a review).
                let nodes = if then == 1 { "node" } else { "nodes" };
                format!("{fewer}, and one node fewer ({then} {nodes} of {node} devices, not {now})")
            } else {
                fewer
            }
        }
        _ => fewer,
    };
    // The floor: each serving replica at its capacity (a trial computed ⌈500 ÷ 165⌉ = 4 by hand where the line
    // said 6 at the operating point and never gave the minimum).
    // Read at the capacity's own point in the peak's unit (users of a rate sweep are its rate × its E2E there, not a
    // linear scaling of the operating point's: a review found 7 servers "holding" 30 req/s that needed 8).
    let at_capacity = replicas(peak_v, load_in(peak, cap, think), 0).unwrap_or(serving);
    let floor = format!("; the fewest that hold the target, each at its capacity: {}{spare}", super::readout::group(at_capacity as f64));
    let nodes = node_words(r, total);
    // Rounded down, the load each carries and why (the operating point's load is not what each server then runs).
    // (Spares after the serving servers' load: "+ 1 spare" had followed the would-be count's share.)
    let each = match idle_share {
        Some(up) => format!(
            "{} at {} each{spare}, {} % of capacity: within the 50–70 % an operating point may take, where {} serving would run below it, at {} %",
            super::readout::group(serving as f64),
            label(peak, peak_v / serving as f64),
            pct(util(serving)),
            super::readout::group((serving + 1) as f64),
            // Below 50 % as it reads (49.6 % had read "at 50 %").
            if (up * 100.0).round() >= 50.0 { format!("{:.1}", (up * 1000.0).floor() / 10.0) } else { format!("{:.0}", (up * 100.0).round()) }
        ),
        // One server for a peak far below its operating point says what it carries (an operations trial read "1 at the
        // operating point of 1.49 req/s" for a peak of 0.25, 10 % of its capacity, as a server near its limit).
        // (At most half its operating point's load, so that one at its operating point is not called below it; the
        // share rounded down, "under 1 %" below one: a review.)
        None if serving == 1 && peak_v <= 0.5 * per => {
            // (A tenth below 10 %: a pre-sales trial read 4.66 % as "4 %".)
            let pct = util(1) * 100.0;
            let u = if pct >= 10.0 {
                format!("{:.0} %", pct.floor())
            } else if pct >= 1.0 {
                format!("{:.1} %", (pct * 10.0).floor() / 10.0)
            } else {
                "under 1 %".to_string()
            };
            format!("1 carrying the whole peak, {u} of its capacity (its operating point: {}){spare}", label(peak, per))
        }
        // Fewer than ⌈peak ÷ the operating point's load⌉: each carries a little more than that load, within the plan.
        None if trimmed > 0 => format!(
            "{} at {} each{spare}, {} % of capacity, within the {} % planned; the operating point rounds it down to {}",
            super::readout::group(serving as f64),
            label(peak, peak_v / serving as f64),
            pct(util(serving)),
            planned_pct,
            label(peak, per)
        ),
        None => format!("{} at the operating point of {} each{spare}", super::readout::group(serving as f64), label(peak, per)),
    };
    let sentence = format!(
        "{}{} → {} of {hardware} ({each}){fewer}{floor}{nodes}",
        head_count_words(f),
        // The peak as typed ("13.3 req/s" had read "13 req/s"), to a thousandth (a computed 250 ÷ 60 had read
        // "4.166666666666667 req/s"); users are whole already.
        match peak {
            PeakLoad::RequestRate(_) => format!("{} req/s", crate::model::units::fmt_num(sig4(peak_v))),
            PeakLoad::Users(_) => label(peak, peak_v),
        },
        servers(total),
    );
    Some(Fleet {
        peak_users: matches!(peak, PeakLoad::Users(_)).then_some(peak_v),
        peak_request_rate: matches!(peak, PeakLoad::RequestRate(_)).then_some(peak_v),
        devices_per_replica: devices,
        replicas: total,
        devices_total: devices_bought(r, devices, total),
        nodes: (in_nodes(r) && node > 0).then(|| in_whole_nodes(node, devices, total) / u64::from(node)),
        users_per_replica: users_at(op.1, think),
        request_rate_per_replica: rate_at(op.1),
        spare_replicas: f.spare_replicas,
        peak_hours_per_day: f.peak_hours_per_day,
        peak_load_per_replica: peak_v / serving as f64,
        utilisation_at_peak: util(serving),
        utilisation_one_fewer: one_fewer,
        serving_at_capacity: at_capacity,
        users: users_words(think),
        // Set by the report, which holds the sweep (`plan::energy::replica_watts_at`).
        watts_per_replica: None,
        output_tps_at_peak: 0.0,
        sentence,
        alternatives: alternatives(r, f, alt_op)
            .into_iter()
            .map(|mut a| {
                // Counted one by one where the boards come in nodes: the whole nodes' reading beside it, where it
                // differs (an operations trial read "13 servers of 2, 26 devices, 19 % fewer" where 4 boxes of 8 are
                // 32, as many as 4 servers of 8; a price then turned it into "32 devices, as many").
                let node = r.deployment.hardware.node_devices.max(1);
                let (mine, theirs) = (in_whole_nodes(node, a.devices_per_replica, a.replicas), in_whole_nodes(node, devices, total));
                a.whole_nodes = in_nodes(r).then_some((node, mine, theirs));
                a
            })
            .collect(),
    })
}

/// How many nodes a fleet of `servers` replicas takes on boards that come in nodes (8-device HGX or OAM boards, 72 in a
/// GB200 NVL72 rack): "; on nodes of 8 devices, 4 servers each: 7 nodes" — a pre-sales quote buys boxes, and "26
/// servers of 2 × H100" had left the division to the meeting — and, with a purchase price (bought whole, idle when
/// unused), ", 4 devices of them idle". Empty where a server is a node or more and nothing is left over, and for
/// boards bought one by one.
fn node_words(r: &Resolved, servers: u64) -> String {
    let hw = &r.deployment.hardware;
    let (n, node) = (hw.devices, hw.node_devices);
    if !in_nodes(r) || n == 0 {
        return String::new();
    }
    let g = |v: u64| super::readout::group(v as f64);
    let in_use = servers.saturating_mul(u64::from(n));
    let idle = devices_bought(r, n, servers).saturating_sub(in_use);
    // Where devices idle, the setting that sizes the box (an operations trial's 4-GPU board read as a node of 8).
    let idle_words = if idle > 0 {
        format!(
            ", {} device{} of them idle (boards of another size: hardware.node_devices, Devices per node)",
            g(idle),
            if idle == 1 { "" } else { "s" }
        )
    } else {
        String::new()
    };
    if n >= node {
        // A server of whole nodes says nothing; one that leaves part of its last node over says what it buys.
        return if idle > 0 { format!("; each server on {} nodes of {node}{idle_words}", n.div_ceil(node)) } else { String::new() };
    }
    let per = u64::from(node / n);
    let nodes = servers.div_ceil(per);
    // Rented (or unpriced) devices are counted one by one where a purchase buys whole nodes: said where the two
    // differ (an operations trial read 4 devices billed beside "1 node" as an 8-GPU node billed at half).
    let one_by_one = if idle == 0 && in_use < nodes.saturating_mul(u64::from(node)) {
        let whose = if nodes == 1 { "the node's" } else { "the nodes'" };
        format!(", {} of {whose} {} devices, counted one by one (a purchase price buys whole nodes)", g(in_use), g(nodes * u64::from(node)))
    } else {
        String::new()
    };
    format!("; on nodes of {node} devices, {per} servers each: {} node{}{idle_words}{one_by_one}", g(nodes), if nodes == 1 { "" } else { "s" })
}

/// Boards that come in nodes: datacenter GPUs on a node-wide fabric (SXM on an HGX board, OAM, a GB200 rack: NVLink
/// or Infinity Fabric), not PCIe cards, which are bought one by one — bridged pairs (H100 NVL) included.
fn in_nodes(r: &Resolved) -> bool {
    let hw = &r.deployment.hardware;
    hw.kind == crate::model::hardware::HardwareKind::DatacenterGpu
        && hw.interconnect_gbps >= 100.0
        && !hw.name.contains(" NVL ")
        && !hw.name.contains("PCIe")
}

/// The devices a fleet of `servers` servers of `n` devices counts: with a purchase price, boards that come in nodes
/// are bought in whole nodes — servers that share one buy ⌈servers ÷ servers per node⌉ of them, a server of more
/// than a node ⌈n ÷ node⌉ each — the unused devices idle (a pre-sales trial priced 9 servers of 4 × H200 on 8-device
/// nodes at 36 devices where 5 nodes are 40, and read 9 servers as fewer than 8 × H200's 5 where both buy 5 boxes);
/// elsewhere, and priced by the device-hour alone (clouds rent 1, 2, 4 or 8 of them; a review found one rented
/// H100 charged as 8), `servers × n`.
#[must_use]
pub fn devices_bought(r: &Resolved, n: u32, servers: u64) -> u64 {
    let buying = r.cost.as_ref().is_some_and(|c| c.device_price.is_some());
    if !buying || !in_nodes(r) {
        servers.saturating_mul(u64::from(n))
    } else {
        in_whole_nodes(r.deployment.hardware.node_devices.max(1), n, servers)
    }
}

/// The devices `servers` servers of `n` devices take in whole nodes of `node`: servers that share one buy ⌈servers ÷
/// servers per node⌉ of them, a server of more than a node ⌈n ÷ node⌉ each.
fn in_whole_nodes(node: u32, n: u32, servers: u64) -> u64 {
    if n == 0 {
        0
    } else if n < node {
        servers.div_ceil(u64::from(node / n)).saturating_mul(u64::from(node))
    } else {
        servers.saturating_mul(u64::from(n.div_ceil(node) * node))
    }
}

/// The devices a fleet buys beyond its servers' own (whole nodes' unused ones, [`devices_bought`]): paid and idle.
#[must_use]
pub fn idle_devices(f: &Fleet) -> u64 {
    f.devices_total.saturating_sub(f.replicas.saturating_mul(u64::from(f.devices_per_replica)))
}

/// What the fleet's cost pays for beyond the serving servers: "spares and headroom", and the idle devices of whole
/// nodes where there are (a review found the cost and power sentences silent on them).
#[must_use]
pub fn paid_words(f: &Fleet) -> String {
    match idle_devices(f) {
        0 => "spares and headroom paid".to_string(),
        k => format!("spares, headroom and {} idle device{} of whole nodes paid", super::readout::group(k as f64), if k == 1 { "" } else { "s" }),
    }
}

/// The device counts per replica a fleet is compared with, ascending: the fewest that fit the model, up to three
/// smaller ones closest to the count (divisors of it or powers of two), and the next larger count (for boards linked
/// by PCIe alone, at most a node's devices, 8), each fitting the model and (tensor parallel) splitting its attention
/// and KV heads as the engines accept
/// (`ModelShape::splits_over`); none for disaggregated pools. The fewest is often the cheapest fleet (no all-reduce, no idle
/// replication of the weights), so it is offered even when it is not a neighbour.
#[must_use]
pub fn neighbour_devices(r: &Resolved) -> Vec<u32> {
    if r.disaggregation.is_some() {
        return Vec::new();
    }
    let n = r.deployment.hardware.devices;
    // The fewest that fit and up to three more below the count (an operations trial sizing 8-device servers was
    // offered 1 and 4 per replica, not 2: which split fills a box best is the question there).
    // (Counts that divide the server's or are powers of two: a pipeline over 8 was offered 5, 6 and 7; a review.)
    let smaller: Vec<u32> = (1..n).filter(|&k| fits_at(r, k) && (n.is_multiple_of(k) || k.is_power_of_two())).collect();
    let below = smaller.first().into_iter().chain(smaller.iter().skip(1).rev().take(3).rev()).copied();
    let next = (n + 1..=n.saturating_mul(4).min(pcie_server_cap(r).unwrap_or(1024))).find(|&k| fits_at(r, k));
    below.chain(next).collect()
}

/// The most devices one server takes where the boards are linked by PCIe alone: a node's count (8 double-width
/// boards), or the scenario's own where it has more; more in one replica would be tensor parallelism between servers
/// (a trial was offered "16 devices per server" of L40S). `None` for boards on a fast link.
fn pcie_server_cap(r: &Resolved) -> Option<u32> {
    let hw = &r.deployment.hardware;
    (hw.interconnect_gbps < 100.0).then(|| hw.devices.max(hw.node_devices))
}

/// Whether a peak in requests/s is refused on this sweep: `users_swept` (a sweep of concurrent users) who never pause,
/// outside batch work ([`size`] says why; [`unfit_words`] refuses it too).
fn refuses_rate_peak(peak: PeakLoad, users_swept: bool, r: &Resolved) -> bool {
    matches!(peak, PeakLoad::RequestRate(_)) && users_swept && r.workload.think_time_s <= 0.0 && r.workload.mode != crate::scenario::Mode::Batch
}

/// Whether `k` devices per replica hold the model and split it as the engines accept (tensor parallelism splitting
/// its attention and KV heads, expert parallelism its experts whole, a layer split no more devices than layers).
pub(crate) fn fits_at(r: &Resolved, k: u32) -> bool {
    let d = r.at_devices(k);
    let par = d.hardware.parallelism;
    (k == 1 || par != Parallelism::Tensor || d.model.splits_over(k))
        // Expert parallelism deals the experts out whole: as many on every device.
        && (par != Parallelism::DpAttention || (k >= 2 && d.model.moe.experts.is_multiple_of(k)))
        && (!matches!(par, Parallelism::LayerSplit | Parallelism::Pipeline) || k <= d.model.layers)
        && memory(&d, &r.workload).fits
}

/// This scenario with `devices` devices per replica: what an alternative is evaluated on.
#[must_use]
pub fn alternative(r: &Resolved, devices: u32) -> Resolved {
    let mut alt = r.clone();
    alt.deployment = r.at_devices(devices);
    alt
}

/// Where the model (or one request's KV cache) does not fit on the scenario's server, the fleet of the larger server
/// that takes the fewest devices for the peak, as a `fleet:` warning ("fleet: the model does not fit on 8 × H100 SXM,
/// so no fleet of it; with 16 devices per server (2 nodes of 8, tensor parallel over the network): 4 servers (3 + 1
/// spare), 64 devices (66.7 users each at the peak)"). An operations trial sizing DeepSeek-V3 on 8 × H100
/// read "No fleet" and tried 16 by hand, while a size that fits was offered beside every fleet that could be sized.
/// The counts tried: up to four above the server's, multiples of it or powers of two, up to 4 × its devices (boards
/// linked by PCIe alone: a node's count), each that holds the model; the fewest that hold it is named too where it
/// takes more devices (70B in BF16 on 2 × H100 holds one user per server: 302 servers, where 4 per server take 48
/// devices in all; a review). `why` is what does not fit. `None` where no such server meets the target, and where
/// the fleet would be refused anyway (a rate peak on a sweep of users who never pause: [`size`]).
#[must_use]
pub fn unfit_words(r: &Resolved, f: &FleetInputs, why: &str, alt_op: &AltOp<'_>) -> Option<String> {
    if other_sizes_refused(r, f) {
        return None;
    }
    let n = r.deployment.hardware.devices;
    let most = n.saturating_mul(4).min(pcie_server_cap(r).unwrap_or(u32::MAX));
    let counts: Vec<u32> = (n + 1..=most).filter(|&k| (k.is_multiple_of(n) || k.is_power_of_two()) && fits_at(r, k)).take(4).collect();
    let sized = alternatives_at(r, f, alt_op, counts);
    let first = sized.first()?;
    let best = sized.iter().min_by_key(|a| (a.devices_total, a.devices_per_replica))?;
    let fewest = if best.devices_per_replica == first.devices_per_replica {
        String::new()
    } else {
        format!(
            "; {} per server, the fewest that hold it, take {} devices ({} each at the peak)",
            first.devices_per_replica,
            super::readout::group(first.devices_total as f64),
            label(f.peak, carried(f, first))
        )
    };
    Some(format!("fleet: {why}, so no fleet of it; with {}{fewest}", unfit_size_words(r, f, best)))
}

/// No load meets the target on this server size: the fleet the next larger size that fits sizes (the neighbour above,
/// as the fleet's alternatives take it: a pre-sales trial's 4 × L40S with Llama-3.1-70B in BF16 read only "no load
/// meets the target, so no fleet can be sized", where the next size holds it). `None` where that size misses the
/// target too, there is none, or the peak would be refused anyway; and for llama.cpp, whose multi-device splits do
/// not speed one sequence's decode (a review: one M2 Ultra's alternative of two was sized in a tensor split llama.cpp
/// does not have, and evaluated as typed, in its layer split, missed the target). Only the next size is tried (the
/// page simulates the neighbour sizes alone): a larger one may take fewer devices, which the next size's own fleet
/// card then shows among its alternatives.
#[must_use]
pub fn unmet_words(r: &Resolved, f: &FleetInputs, hardware_label: &str, alt_op: &AltOp<'_>) -> Option<String> {
    if other_sizes_refused(r, f) || r.deployment.engine.kind == crate::model::engine::EngineKind::LlamaCpp {
        return None;
    }
    let n = r.deployment.hardware.devices;
    let sized = alternatives_at(r, f, alt_op, neighbour_devices(r).into_iter().filter(|&k| k > n).collect());
    let a = sized.first()?;
    Some(format!("fleet: no load meets the target on {hardware_label}, so no fleet of it; with {}", unfit_size_words(r, f, a)))
}

/// Whether no other server size is sized in place of the fleet ([`unfit_words`], [`unmet_words`]): a peak the fleet
/// would refuse anyway, or a disaggregated deployment.
fn other_sizes_refused(r: &Resolved, f: &FleetInputs) -> bool {
    refuses_rate_peak(f.peak, matches!(r.workload.load, crate::scenario::Load::Concurrency(_)), r) || r.disaggregation.is_some()
}

/// " (2 nodes of 8, tensor parallel over the network)" for a replica that spans nodes, else empty.
fn spans_words(a: &FleetAlternative) -> String {
    a.node_devices.filter(|&k| k > 0).map_or_else(String::new, |k| {
        let split = if a.dp_attention { "DP attention" } else { "tensor parallel" };
        format!(" ({} nodes of {k}, {split} over the network)", a.devices_per_replica.div_ceil(k))
    })
}

/// One size of [`unfit_words`]: "16 devices per server (2 nodes of 8, tensor parallel over the network): 4 servers
/// (3 + 1 spare), 64 devices (66.7 users each at the peak)" — the peak's share of each serving server — the devices bought in
/// whole nodes said as such.
fn unfit_size_words(r: &Resolved, f: &FleetInputs, a: &FleetAlternative) -> String {
    let s = |n: u64| if n == 1 { "" } else { "s" };
    let g = |v: u64| super::readout::group(v as f64);
    let nodes = spans_words(a);
    let spare = match f.spare_replicas {
        0 => String::new(),
        k => format!(" ({} + {k} spare{})", g(a.replicas - u64::from(k)), s(u64::from(k))),
    };
    let serving = u64::from(a.devices_per_replica) * a.replicas;
    let devices = if a.devices_total == serving {
        format!("{} device{}", g(serving), s(serving))
    } else {
        format!("{} devices, {} bought in whole nodes of {}", g(serving), g(a.devices_total), r.deployment.hardware.node_devices)
    };
    format!(
        "{} devices per server{nodes}: {} server{}{spare}, {devices} ({} each at the peak)",
        a.devices_per_replica,
        g(a.replicas),
        s(a.replicas),
        label(f.peak, carried(f, a))
    )
}

/// The peak's share of each serving server of an alternative, the spares held back, as `alternative_words` says it.
fn carried(f: &FleetInputs, a: &FleetAlternative) -> f64 {
    share_of(f.peak.value(), a.replicas, f.spare_replicas)
}

/// The share of a `peak` each of `replicas` servers carries, `spares` of them held back (one at least serving).
fn share_of(peak: f64, replicas: u64, spares: u32) -> f64 {
    peak / replicas.saturating_sub(u64::from(spares)).max(1) as f64
}

/// The alternatives' fleets, `alt_op` giving an alternative's operating point (the report's own kind of sweep).
fn alternatives(r: &Resolved, f: &FleetInputs, alt_op: &AltOp<'_>) -> Vec<FleetAlternative> {
    alternatives_at(r, f, alt_op, neighbour_devices(r))
}

/// The fleets of replicas of each of `counts` devices that meet the target (those that do not are left out).
fn alternatives_at(r: &Resolved, f: &FleetInputs, alt_op: &AltOp<'_>, counts: Vec<u32>) -> Vec<FleetAlternative> {
    let peak_v = f.peak.value();
    counts
        .into_iter()
        .filter_map(|k| {
            let alt = alternative(r, k);
            let (op, cap) = alt_op(&alt)?;
            let think = r.workload.users_think_s;
            let per = Some(load_in(f.peak, &op, think)).filter(|v| *v > 0.0 && v.is_finite())?;
            // ⌈peak ÷ its operating point's load⌉, or one fewer by `size`'s rule read on the alternative's own capacity
            // (without it, one fewer is not known to hold: a review, read at the target's fraction, found 1 server of 2
            // devices "holding" 34 req/s that sized directly takes 2).
            let mut n = replicas(peak_v, per, f.spare_replicas)?;
            if let Some(cap) = &cap {
                let u = Utilisation::of(f.peak, peak_v, think, (&op, cap), per);
                let spare = u64::from(f.spare_replicas);
                n = trimmed_to_plan(n - spare, &|k| u.at(k), u.plan(r.target.operating_fraction)) + spare;
                if one_fewer_within_range(n - spare, &|k| u.at(k)) {
                    n -= 1;
                }
            }
            let hw = &alt.deployment.hardware;
            Some(FleetAlternative {
                devices_per_replica: k,
                replicas: n,
                devices_total: devices_bought(r, k, n),
                load_per_replica: per,
                node_devices: hw.spans_nodes().then_some(hw.node_devices),
                dp_attention: hw.parallelism == Parallelism::DpAttention,
                whole_nodes: None,
            })
        })
        .collect()
}

/// A head count's arithmetic before the requests/s it makes ("1 500 people × 20 % active in the busiest hour × 12
/// requests an hour each ÷ 3,600 = "), empty for a peak given in users or requests/s.
#[must_use]
pub fn head_count_words(f: &FleetInputs) -> String {
    f.head_count.map_or_else(String::new, |h| {
        format!(
            "{} people × {} % active in the busiest hour × {} requests an hour each ÷ 3\u{202f}600 s = ",
            super::readout::group(h.people),
            crate::model::units::percent(h.active_share),
            crate::model::units::fmt_num(sig4(h.requests_per_hour))
        )
    })
}

/// The share `u` in per cent with the fewest decimals (up to 3) that read above `floor` per cent: one server fewer
/// loads each above the operating point, and past capacity above 100 % (799 servers for 800 servers' worth is
/// "100.1 %"; rounded up to a whole per cent it had read 101 %).
fn pct_above(u: f64, floor: f64) -> String {
    (0..=3usize)
        .map(|d| format!("{:.*}", d, u * 100.0))
        .find(|t| t.parse::<f64>().is_ok_and(|v| v > floor))
        // Within a thousandth of a per cent: rounded up ("100.001", never "100.000" over capacity).
        .unwrap_or_else(|| format!("{:.3}", (u * 1e5).ceil() / 1e3))
}

/// `v` to four significant figures (a peak rate as typed, not a quotient's seventeen digits).
fn sig4(v: f64) -> f64 {
    if v <= 0.0 || !v.is_finite() {
        return v;
    }
    let scale = 10f64.powi(3 - v.log10().floor() as i32);
    (v * scale).round() / scale
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_read_above_their_floor() {
        assert_eq!(pct_above(800.0 / 799.0, 100.0), "100.1");
        assert_eq!(pct_above(1.4, 100.0), "140");
        assert_eq!(pct_above(0.6002, 60.0), "60.02");
        assert_eq!(pct_above(0.64, 60.0), "64");
        assert_eq!(pct_above(1.000_000_1, 100.0), "100.001");
    }

    #[test]
    fn replicas_by_hand() {
        // 500 users at 96 per replica: 500 / 96 = 5.2 → 6 serving, + 1 spare = 7.
        assert_eq!(replicas(500.0, 96.0, 1), Some(7));
        // Exactly divisible: 480 / 96 = 5, no rounding up.
        assert_eq!(replicas(480.0, 96.0, 0), Some(5));
        // Rates, with a quotient a rounding error above a whole number (0.6 / 0.2 = 2.9999999999999996).
        assert_eq!(replicas(0.6, 0.2, 0), Some(3));
        assert_eq!(replicas(0.3, 0.1, 2), Some(5));
        // A tiny peak still needs one serving replica.
        assert_eq!(replicas(0.5, 96.0, 0), Some(1));
        assert_eq!(replicas(500.0, 0.0, 1), None);
        assert_eq!(replicas(f64::NAN, 10.0, 1), None);
        assert_eq!(replicas(1e9, 1e-12, 10_000), Some(u64::MAX), "saturates");
    }

    #[test]
    fn the_fewest_devices_that_fit_are_an_alternative() {
        // Llama-3.1-8B under vLLM on 4 × RTX 4090 (tensor parallel): 32 heads divide by 2 and 8 (not 3), and it
        // fits on one board, the fleet a buyer of consumer GPUs most likely wants to see.
        let at = |json: &str| crate::scenario::Scenario::from_json(json).unwrap().resolve().unwrap();
        let r = at(
            r#"{"hardware":{"preset":"rtx-4090","devices":4},"model":{"preset":"llama-3.1-8b"},"quantization":{"weights":"fp8"},"engine":{"preset":"vllm"}}"#,
        );
        assert_eq!(neighbour_devices(&r), [1, 2, 8]);
        // Qwen2.5-32B (40 heads, 8 KV heads) in BF16 on 24 GB boards: vLLM refuses 8 KV heads over 5 or 10
        // devices although 40 attention heads divide; no such count is offered.
        let q = at(
            r#"{"hardware":{"preset":"rtx-4090","devices":8},"model":{"preset":"qwen2.5-32b"},"quantization":{"weights":"bf16"},"engine":{"preset":"vllm"}}"#,
        );
        assert!(!q.deployment.model.splits_over(5) && !q.deployment.model.splits_over(10) && q.deployment.model.splits_over(4));
        assert!(neighbour_devices(&q).iter().all(|k| q.deployment.model.splits_over(*k)), "{:?}", neighbour_devices(&q));
        // At 2 the fewest is the next smaller: listed once.
        let r = at(
            r#"{"hardware":{"preset":"rtx-4090","devices":2},"model":{"preset":"llama-3.1-8b"},"quantization":{"weights":"fp8"},"engine":{"preset":"vllm"}}"#,
        );
        assert_eq!(neighbour_devices(&r), [1, 4]);
        // Eight L40S (PCIe alone) are a full server: no 16 in one replica (tensor parallel between servers); eight
        // H100 over NVLink may still be compared with two nodes (said as such: `alternative_words`).
        let l = at(
            r#"{"hardware":{"preset":"l40s","devices":8},"model":{"preset":"llama-3.1-70b"},"quantization":{"weights":"fp8"},"engine":{"preset":"vllm"}}"#,
        );
        assert!(l.deployment.hardware.interconnect_gbps < 100.0);
        assert!(neighbour_devices(&l).iter().all(|k| *k <= 8), "{:?}", neighbour_devices(&l));
        let h = at(
            r#"{"hardware":{"preset":"h100-sxm","devices":8},"model":{"preset":"llama-3.1-70b"},"quantization":{"weights":"fp8"},"engine":{"preset":"vllm"}}"#,
        );
        assert!(neighbour_devices(&h).iter().any(|k| *k > 8), "{:?}", neighbour_devices(&h));
    }

    #[test]
    fn a_users_peak_on_a_rate_sweep_reads_utilisation_in_rates() {
        // 500 users sized on a sweep of request rates: one server fewer must load each more, not less.
        let s = crate::scenario::Scenario::from_json(
            r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"engine":{"preset":"vllm"},"workload":{"load":{"request_rate":[]}},"fleet":{"peak_users":500}}"#,
        )
        .unwrap();
        let f = crate::plan::evaluate(&s).unwrap().fleet.unwrap();
        let (at, fewer) = (f.utilisation_at_peak, f.utilisation_one_fewer.unwrap());
        // Each server carries at most the operating point's load, 50–70 % of its capacity (it read 27 % when
        // users at the capacity came from Little's law).
        assert!(at > 0.45 && at <= 0.75, "at peak {at}");
        assert!(fewer > at, "one fewer {fewer} against {at}");
        // The share is in requests/s where the peak is in users: the sentence says so, with the loads it divides.
        let held = f.sentence.split(" of capacity each (").nth(1).and_then(|t| t.split(" req/s a server holds)").next()).expect(&f.sentence);
        let (per, cap) = held.split_once(" of the ").unwrap();
        let (per, cap): (f64, f64) = (per.parse().unwrap(), cap.parse().unwrap());
        assert!((per / cap - fewer).abs() < 0.05, "{held} against {fewer}");
    }

    /// A rate peak on a sweep of users who think between requests (users who never pause are not sized for a rate):
    /// the share is the rate each server gets over the rate it holds at the target, so "one fewer" is within
    /// capacity exactly when the fewest at capacity are no more (a trial read "64 %" beside a floor that made it 92 %).
    #[test]
    fn a_rate_peak_on_a_users_sweep_reads_its_share_in_rates() {
        let s = crate::scenario::Scenario::from_json(
            r#"{"hardware":{"preset":"h100-sxm","devices":8},"model":{"preset":"llama-3.1-70b"},"engine":{"preset":"vllm"},"workload":{"prompt_tokens":32768,"output_tokens":500,"requests":200,"think_time_s":20,"load":{"concurrency":[1,2,4,8,16,32,64]}},"target":{"tpot_ms":50,"ttft_ms":10000,"percentile":99},"fleet":{"peak_request_rate":10}}"#,
        )
        .unwrap();
        let r = crate::plan::evaluate(&s).unwrap();
        let (f, cap) = (r.fleet.as_ref().unwrap(), r.capacity.as_ref().unwrap());
        let cap_rate = cap.at.system_tps / 500.0;
        let serving = f.replicas - u64::from(f.spare_replicas);
        let fewer = f.utilisation_one_fewer.unwrap();
        assert!((fewer - 10.0 / (serving - 1) as f64 / cap_rate).abs() < 0.02 * fewer, "{fewer} against {}", 10.0 / (serving - 1) as f64 / cap_rate);
        assert_eq!(fewer <= 1.0, serving > f.serving_at_capacity, "{}", f.sentence);
    }

    /// An 8B model on one H100 with a peak of 30.3 req/s and this workload (its JSON object).
    fn rate_peak(workload: &str) -> crate::scenario::Report {
        let s = crate::scenario::Scenario::from_json(&format!(
            r#"{{"hardware":{{"preset":"h100-sxm"}},"model":{{"preset":"llama-3.1-8b"}},"engine":{{"preset":"vllm"}},"workload":{workload},"fleet":{{"peak_request_rate":30.3}}}}"#
        ))
        .unwrap();
        crate::plan::evaluate(&s).unwrap()
    }

    /// Without levels, a rate peak is sized on request rates: the automatic load is then rates around capacity (a
    /// trial's 13.3 req/s took 2 servers on the automatic users, 3 on rates), and the peak reads as typed. With
    /// users swept, the fleet is flagged.
    #[test]
    fn a_rate_peak_is_sized_on_rates_and_flagged_on_a_users_sweep() {
        let auto = rate_peak(r#"{"requests":300}"#);
        assert!(auto.sweep.iter().all(|l| l.request_rate.is_some()), "the automatic load is not rates");
        let f = auto.fleet.as_ref().unwrap();
        assert!(f.sentence.starts_with("30.3 req/s → "), "{}", f.sentence);
        let warned = |r: &crate::scenario::Report| r.warnings.iter().any(|w| w.message.contains("the load swept is concurrent users"));
        assert!(!warned(&auto));
        // On users who never pause, not sized at all: about half the fleet a rate sweep sizes (a trial's 8 servers
        // against 15), where a warning had stood beside it.
        let users = rate_peak(r#"{"load":{"concurrency":[1,8,32,64]}}"#);
        assert!(warned(&users) && users.fleet.is_none());
        assert!(users.warnings.iter().any(|w| w.message.starts_with("fleet: not sized")));
        // Batch work has no latency target for bursts to break, and its automatic load is users: sized (a review).
        let batch = rate_peak(r#"{"mode":"batch","requests":300}"#);
        assert!(batch.sweep.iter().all(|l| l.concurrency.is_some()) && batch.fleet.is_some(), "{:?}", batch.warnings);
        assert!(!warned(&rate_peak(r#"{"load":{"request_rate":[]}}"#)));
    }

    /// People who pause between requests: the same peak of users takes fewer servers, each holding more users at
    /// the operating point, the simulated sweep agrees with the analytic one, and the fleet says what its users are.
    #[test]
    fn users_who_think_need_fewer_servers() {
        let eval = |think: &str| {
            let s = crate::scenario::Scenario::from_json(&format!(
                r#"{{"hardware":{{"preset":"h100-sxm","devices":2}},"model":{{"preset":"llama-3.1-70b"}},"quantization":{{"weights":"fp8"}},"workload":{{"prompt_tokens":1024,"output_tokens":256,"requests":600{think}}},"target":{{"tpot_ms":40,"ttft_ms":2000,"percentile":99}},"fleet":{{"peak_users":500}}}}"#
            ))
            .unwrap();
            (crate::plan::evaluate(&s).unwrap(), crate::plan::evaluate_analytic(&s).unwrap())
        };
        let ((busy, _), (thinking, analytic)) = (eval(""), eval(r#","think_time_s":30"#));
        let (fb, ft) = (busy.fleet.unwrap(), thinking.fleet.unwrap());
        assert!(ft.replicas * 2 < fb.replicas && ft.users_per_replica > 2.0 * fb.users_per_replica, "{} against {}", ft.sentence, fb.sentence);
        assert!(ft.users.contains("pause 30 s") && fb.users.contains("keep a request in flight"), "{}", ft.users);
        // Level by level, below saturation, the analytic system tok/s within 10 % of the simulated.
        for (s, a) in thinking.sweep.iter().zip(&analytic.sweep).filter(|(s, _)| !s.saturated && s.preemptions == 0) {
            assert!(
                (s.system_tps - a.system_tps).abs() < 0.1 * s.system_tps,
                "{:?} users: {} simulated, {} analytic",
                s.concurrency,
                s.system_tps,
                a.system_tps
            );
        }
    }

    #[test]
    fn fleet_sentence_and_utilisation_by_hand() {
        let r = crate::scenario::Scenario::from_json(
            r#"{"hardware":{"preset":"h100-sxm","devices":2},"model":{"preset":"llama-3.1-70b"},"quantization":{"weights":"fp8"},"fleet":{"peak_users":500,"spare_replicas":1}}"#,
        )
        .unwrap()
        .resolve()
        .unwrap();
        let mut op = crate::plan::analytic_operating(&r).unwrap().0;
        op.concurrency = Some(96.0);
        let mut cap = op.clone();
        cap.concurrency = Some(120.0);
        let m = crate::plan::marker(&op, crate::percentiles::Pct::P99);
        let f = size(&r, r.fleet.as_ref().unwrap(), (&m, &op), &cap, "2 × H100", &crate::plan::analytic_operating, &mut Vec::new()).unwrap();
        // ⌈500 / 96⌉ = 6 serving + 1 spare = 7 replicas of 2 devices: 14 (no purchase price: not whole nodes).
        assert_eq!((f.replicas, f.devices_total, f.spare_replicas), (7, 14, 1));
        assert_eq!(f.users_per_replica, 96.0);
        // At peak each of 6 carries 500 / 6 = 83.3 users: 83.3 / 120 = 69 % of its capacity; with 5: 100 / 120.
        assert!((f.peak_load_per_replica - 500.0 / 6.0).abs() < 1e-9);
        assert!((f.utilisation_at_peak - 500.0 / 6.0 / 120.0).abs() < 1e-12);
        assert!((f.utilisation_one_fewer.unwrap() - 100.0 / 120.0).abs() < 1e-12);
        assert_eq!(
            f.sentence,
            "500 users → 7 servers of 2 × H100 (6 at the operating point of 96 users each + 1 spare); with one server fewer, 83 % of capacity each; the fewest that hold the target, each at its capacity: 5 + 1 spare; on nodes of 8 devices, 4 servers each: 2 nodes, 14 of the nodes' 16 devices, counted one by one (a purchase price buys whole nodes)"
        );
        // ⌈500 ÷ 120⌉ = 5 at capacity.
        assert_eq!(f.serving_at_capacity, 5);
        // One fewer that rounds onto the operating point's share gets a decimal: 500 users at 100 per server at
        // the operating point of a 125-user capacity (80 %) need 5; with 4, 125 ÷ 125 = 100 %; at 124.9 users per
        // capacity, 100.1 % (over); at 156.1, 80.1 % — not "80 %".
        let (mut op2, mut cap2) = (op.clone(), cap.clone());
        cap2.concurrency = Some(156.1);
        op2.concurrency = Some(124.88);
        let g = size(&r, r.fleet.as_ref().unwrap(), (&m, &op2), &cap2, "2 × H100", &crate::plan::analytic_operating, &mut Vec::new()).unwrap();
        assert!(g.sentence.contains("with one server fewer, 80.1 % of capacity each"), "{}", g.sentence);
        // The floor reads the capacity's own load: 500 ÷ 156.1 → 4.
        assert_eq!(g.serving_at_capacity, 4);
        // Loads per server in words: whole users without decimals ("2.00 users each" was printed).
        assert_eq!([load_words(&f, 1.0), load_words(&f, 2.0), load_words(&f, 22.6)], ["1 user", "2 users", "22.6 users"]);
        // 70B FP8 fits on 4 (64 heads divide by 4, not by 3), not on one H100: its FP8 checkpoint's 16-bit head and
        // embedding table (`model::quant::head_bits`) make 72.7 GB, past one H100 beside vLLM's reserve.
        assert_eq!(neighbour_devices(&r), [4]);
        let devs: Vec<u32> = f.alternatives.iter().map(|a| a.devices_per_replica).collect();
        assert_eq!(devs, [4]);
        for a in &f.alternatives {
            assert_eq!(Some(a.replicas), replicas(500.0, a.load_per_replica, 1));
            assert_eq!(a.devices_total, a.replicas * u64::from(a.devices_per_replica));
        }
        // An alternative in words says how many devices it takes against the fleet's 14, and the peak's share of each of
        // its serving servers, the spare held back (500 users over 134: 3.7 each; not its operating point's 4, which
        // over 134 servers is 536, nor, where one fewer holds, less than the peak: a pre-sales trial's 3 × 120 for 400).
        let alt = |n: u32, replicas: u64, load: f64| FleetAlternative {
            devices_per_replica: n,
            replicas,
            devices_total: replicas * u64::from(n),
            load_per_replica: load,
            node_devices: None,
            dp_attention: false,
            whole_nodes: None,
        };
        // Near sizes are set against the fleet too (62 devices against 64 had no word).
        for ((n, replicas, load), want) in [
            ((1, 135, 4.0), "1 device per server: 135 servers, 135 devices (3.7 users each at the peak), 9.6 × the devices"),
            ((1, 501, 1.0), "1 device per server: 501 servers, 501 devices (1 user each at the peak), 36 × the devices"),
            ((4, 3, 250.0), "4 devices per server: 3 servers, 12 devices (250 users each at the peak), 14 % fewer devices"),
            ((1, 14, 40.0), "1 device per server: 14 servers, 14 devices (38.5 users each at the peak), as many devices"),
            ((1, 13, 40.0), "1 device per server: 13 servers, 13 devices (41.7 users each at the peak), 7 % fewer devices"),
        ] {
            assert_eq!(alternative_words(&f, &alt(n, replicas, load)), want);
        }
        assert_eq!(alternative_words(&f, &alt(1, 29, 20.0)).rsplit(", ").next(), Some("2.1 × the devices"));
        assert_eq!(alternative_words(&f, &alt(1, 15, 40.0)).rsplit(", ").next(), Some("7 % more devices"));
        let two_nodes = FleetAlternative { node_devices: Some(8), ..alt(16, 2, 300.0) };
        assert_eq!(
            alternative_words(&f, &two_nodes),
            "16 devices (2 nodes of 8, tensor parallel over the network) per server: 2 servers, 32 devices (500 users each at the peak), 2.3 × the devices"
        );
    }
}
