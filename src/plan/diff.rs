//! A versus B: the figures a sizing meeting compares, side by side.
//!
//! Each row holds A's and B's value, B − A and B ÷ A (null where either side has no value, or A is 0 for the
//! ratio): one user alone, per-user and system TPS at the operating point, the capacity at the target (users, or requests/s),
//! replicas and devices for the fleet, cost per million output tokens and joules per output token.

use super::report::LimitedBy;
use crate::scenario::{Energy, Report};
use serde::Serialize;

/// One compared figure.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DiffRow {
    /// Stable key (`per_user_tps`, `system_tps`, `max_users_at_target`, …).
    pub metric: &'static str,
    /// What it is, for people.
    pub label: String,
    pub unit: String,
    pub a: Option<f64>,
    pub b: Option<f64>,
    /// B − A.
    pub delta: Option<f64>,
    /// B ÷ A.
    pub ratio: Option<f64>,
}

/// What each side is.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DiffSide {
    pub hardware: String,
    pub model: String,
    pub engine: String,
    pub quantization: String,
    /// What sets this side apart beyond its model, format, hardware and engine ("KV cache 64 KB per token", "1024
    /// prompt + 256 output tokens", "P90 targets …", the fleet's peak): a teacher's trial pinned a 16-bit KV cache as
    /// A, switched to FP8 and read two identical sides. Where those four differ, only the workload's, the target's,
    /// the fleet's and the node's settings (the KV cache's size follows the model and hardware). Empty where nothing
    /// this names differs.
    pub setting: String,
    pub verdict: String,
}

impl DiffSide {
    /// The side in one line: "model (format) on hardware with engine", and its setting where there is one.
    #[must_use]
    pub fn describe(&self) -> String {
        let setting = if self.setting.is_empty() { String::new() } else { format!("; {}", self.setting) };
        format!("{} ({}) on {} with {}{setting}", self.model, self.quantization, self.hardware, self.engine)
    }
}

/// Two reports compared.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diff {
    pub a: DiffSide,
    pub b: DiffSide,
    pub rows: Vec<DiffRow>,
    /// The comparison in one sentence, for the meeting: the headline figure (servers for the fleet, else the
    /// capacity at the target, else per-user tok/s), the fleet's cost and power when both sides have them, on how
    /// many of the compared figures each side is better (the side better on fewer naming them), and which fleet
    /// costs less.
    pub summary: String,
    /// The summary's first sentence (the headline figure, the fleet's cost and power, the figures each side is
    /// better on, which fleet costs less): what the page sets in bold, the margin, the why and the caveats after it
    /// in plain weight (a pre-sales trial read the whole paragraph in bold as a wall).
    pub headline: String,
}

/// Decimals a compared figure is shown with: none for whole numbers and from 100 up, two from 1, `small` below 1.
#[must_use]
pub fn decimals(x: f64, small: usize) -> usize {
    if x.fract() == 0.0 || x.abs() >= 100.0 {
        0
    } else if x.abs() >= 1.0 {
        2
    } else {
        small
    }
}

impl DiffRow {
    /// Decimals B − A is shown with: the coarser of A's and B's, so that "1.64 … 1.95" differ by "+0.31", not
    /// "+0.305", and "114 … 125" by "+11" (a trial read both on the page and in the CLI) — a whole side aside,
    /// which has no decimals to give (0 against 0.862 is "+0.862", not "+1"; 3 against 3.3 "+0.30", not "+0").
    #[must_use]
    pub fn delta_decimals(&self, small: usize) -> usize {
        let places = |v: Option<f64>| v.filter(|x| x.fract() != 0.0).map(|x| decimals(x, small));
        let coarse = match (places(self.a), places(self.b)) {
            (Some(a), Some(b)) => a.min(b),
            (Some(x), None) | (None, Some(x)) => x,
            (None, None) => 0,
        };
        // A gap that rounds to nothing keeps a digit (up to 3 more): "139 … 139" differing by 0.3 read "+0" in
        // green, a win of nothing (a teacher's trial, an FP8 KV cache's one user).
        let d = self.delta.unwrap_or(0.0).abs();
        (coarse..=coarse + 3).find(|&p| d == 0.0 || (d * 10f64.powi(p as i32)).round() != 0.0).unwrap_or(coarse + 3)
    }

    /// B − A as a table shows it: the difference of A and B as shown (each rounded to its own decimals, `small` below
    /// 1), so that the columns subtract (a pre-sales trial read "1.75 … 1.87 … −0.13": 1.749 − 1.873); the unrounded
    /// gap where the shown figures are equal. `None` where the difference is withheld.
    #[must_use]
    pub fn shown_delta(&self, small: usize) -> Option<f64> {
        let d = self.delta?;
        let (Some(a), Some(b)) = (self.a, self.b) else { return Some(d) };
        let shown = |x: f64| {
            let p = 10f64.powi(i32::try_from(decimals(x, small)).unwrap_or(0));
            (x * p).round() / p
        };
        let s = shown(b) - shown(a);
        Some(if s == 0.0 || !s.is_finite() { d } else { s })
    }

    /// Whether a lower value is better (servers, devices, cost, energy); higher is better for the others.
    #[must_use]
    pub fn lower_is_better(&self) -> bool {
        matches!(
            self.metric,
            "replicas"
                | "nodes"
                | "devices_total"
                | "cost_per_million_output_tokens"
                | "fleet_per_million_output_tokens"
                | "joules_per_output_token"
                | "fleet_per_hour"
                | "fleet_kw"
                | "fleet_purchase"
                | "fleet_per_month"
                | "fleet_per_million_over_month"
                | "fleet_mwh_month"
        )
    }

    /// `Some(true)` where B is better than A, `Some(false)` where worse, `None` where equal or not comparable. Figures
    /// within [`TIE`] of each other count as equal: the simulation's noise, far inside the model's error (an MoE
    /// trial read "one user alone 113 | 113 | +0.01" in green and counted as B's win).
    #[must_use]
    pub fn b_better(&self) -> Option<bool> {
        let scale = self.a.unwrap_or(0.0).abs().max(self.b.unwrap_or(0.0).abs());
        self.delta.filter(|d| d.abs() > TIE * scale).map(|d| (d < 0.0) == self.lower_is_better())
    }
}

/// The share of the larger figure within which A and B count as equal ([`DiffRow::b_better`]).
pub const TIE: f64 = 0.005;

/// The figures [`margin`] weighs, in the order [`summary`] picks its headline: the fleet (by its devices, so that
/// servers of different sizes compare: 57 × 1 H200 against 26 × 2 H100 is a 10 % gap, not 2.2 ×), the capacity
/// at the target, per-user tok/s.
const HEADLINES: [&str; 4] = ["devices_total", "max_users_at_target", "max_request_rate_at_target", "per_user_tps"];

/// Whether the headline's gap outgrows the model's validated throughput error under load (`band_pct`, the wider
/// of the two sides' bands, `plan::band`): a sentence for a meeting that must know whether "B beats A" is settled.
/// Each side's figure may be off by the band; the two share the model, so their errors are partly common and the
/// gap is surer than either figure — but that share is not validated, so a gap inside one figure's band is called
/// the model's answer, to be confirmed by a run of each. A capacity or fleet set by a latency limit rests on the
/// latencies too, whose bands are wider (`LatencyClass`): the sentence names the throughput band it weighs by.
#[cfg(test)]
fn margin(rows: &[DiffRow], band_pct: f64) -> Option<String> {
    margin_as(rows, band_pct, true, None)
}

/// [`margin`], its band called "assumed" where a side's class under load has no tested runs (DP attention);
/// `sizes`, each side's devices per server (else read from the rows: the fleet's devices ÷ its servers, which
/// whole nodes bought make larger than a server's).
fn margin_as(rows: &[DiffRow], band_pct: f64, validated: bool, sizes: Option<(f64, f64)>) -> Option<String> {
    let kind = if validated { "validated" } else { "assumed" };
    // The first headline figure on which the two differ: the same fleet for both (4 servers of 8 × H100 against 4
    // of 8 × H200) is weighed by the capacity behind it, not left without a word (a new user's trial, 2026-12-04).
    // Servers of different sizes: a capacity per server is weighed per device (1 against 2 H100s per server
    // at 120 and 209 users is 13 % fewer users per device for B, not 1.74 × more; a review).
    let (dev_a, dev_b) = match (sizes, both(rows, "devices_total"), both(rows, "replicas")) {
        (Some(s), _, _) => s,
        (None, Some((da, db)), Some((ra, rb))) if ra > 0.0 && rb > 0.0 => (da / ra, db / rb),
        _ => (1.0, 1.0),
    };
    let sizes_differ = (dev_a - dev_b).abs() > 1e-9;
    // The devices weighed are those the servers run on: whole nodes bought (idle devices) are a cost, not a gap the
    // model's error could close (a review read one H100 bought as a node of 8 against one L40S as "8.00 × … beyond
    // the validated error").
    let get = |m: &str| match (m, sizes, both(rows, "replicas")) {
        ("devices_total", Some((sa, sb)), Some((ra, rb))) => Some((ra * sa, rb * sb)),
        _ => both(rows, m),
    };
    // As many servers on each side: the devices differ by the servers' sizes alone, which no error of the model
    // moves (an operations trial read "the gap in devices, B's 2.00 × A's, is beyond one figure's validated
    // throughput error" for 1 server of 4 × L40S against 1 of 2 × H100): the capacity behind them is weighed.
    let same_servers = both(rows, "replicas").is_some_and(|(ra, rb)| ra == rb);
    let (metric, a, b) = HEADLINES
        .iter()
        .filter(|m| !(same_servers && **m == "devices_total"))
        .find_map(|m| get(m).map(|(a, b)| (*m, a, b)).filter(|(_, a, b)| a != b))?;
    let (a, b) = if metric.starts_with("max_") && sizes_differ { (a / dev_a, b / dev_b) } else { (a, b) };
    // Which gap: a meeting sees several (servers, devices, cost) and must know the one weighed.
    let per_device = if sizes_differ { " per device" } else { "" };
    let what = match metric {
        // Whole nodes bought hold idle devices: the count weighed is then not the one the sentence's brackets give (an
        // audit read "52 devices against 64" beside "A's 10 % above B's", weighed on 52 against 57), so it is named.
        "devices_total" if both(rows, "devices_total") != Some((a, b)) => {
            format!("in devices the servers run on ({} against {})", crate::model::units::fmt_num(a), crate::model::units::fmt_num(b))
        }
        "devices_total" => "in devices".to_string(),
        "max_users_at_target" => format!("in users at the target{per_device}"),
        "max_request_rate_at_target" => format!("in req/s at the target{per_device}"),
        _ => "in per-user tok/s".to_string(),
    };
    if a <= 0.0 || b <= 0.0 || a == b || !band_pct.is_finite() {
        return None;
    }
    let gap = a.max(b) / a.min(b);
    // Which side is above (a trial read "the gap in devices, 33 %" for 32 against 24 as B's 33 % fewer).
    let (high, low) = if a > b { ("A", "B") } else { ("B", "A") };
    // The band to two decimals, so that a gap and a band that round alike are not called "wider".
    let factor = 1.0 + band_pct / 100.0;
    Some(if gap < factor {
        let pct = ((gap - 1.0) * 100.0).round().max(1.0);
        format!(
            "The gap {what}, {high}'s {pct:.0} % above {low}'s, is within one figure's {kind} throughput error under load (÷ / × {factor:.2}): a run of each settles it."
        )
    } else {
        format!("The gap {what}, {high}'s {gap:.2} × {low}'s, is beyond one figure's {kind} throughput error under load (÷ / × {factor:.2}).")
    })
}

/// Why B's gain over A is what it is, when the same model runs on hardware whose memory bandwidth and compute
/// differ in unequal ratios: the share of B's step time at its capacity (else its operating point) that one of them
/// bounds. A meeting
/// asked why 8 × H200 held only 4 % more users than 8 × H100 with 43 % more bandwidth: its 1,500-token prompts
/// made most of each step compute-bound, and the two have the same compute. Said only where the bound explains
/// the gain (a 48 GB L40S against an 80 GB A100 holds 0.29 × the users with 0.42 × the bandwidth and 1.16 × the
/// compute: the KV cache's size decides that, not the steps).
fn why(a: &Report, b: &Report) -> Option<String> {
    // The hardware alone differs: another model, format, engine, workload or target changes the steps too.
    let same = a.model == b.model
        && a.quantization == b.quantization
        && a.engine == b.engine
        && (a.prompt_tokens, a.output_tokens, a.think_time_s) == (b.prompt_tokens, b.output_tokens, b.think_time_s)
        && a.target == b.target;
    if !same || a.hardware == b.hardware {
        return None;
    }
    // A capacity that is a limit on requests at once (the engine's max batch, or the KV cache's room) is not the
    // steps' speed: said as such (a teacher's trial: llama.cpp's 4 slots on an RTX 5090 against 3 users on an RTX 4090
    // read "Why: 1.78 × bandwidth … 1.27 × compute").
    let running_limit = |r: &Report| {
        let flag = if r.engine.starts_with("llama.cpp") {
            " (llama.cpp's -np)"
        } else if r.engine.starts_with("vLLM") {
            " (vLLM's max_num_seqs)"
        } else {
            ""
        };
        r.capacity.as_ref().and_then(|c| match c.limited_by {
            LimitedBy::EngineCap => Some((
                c.max_users_at_target?,
                format!("its engine's limit on requests at once, its max batch{flag}, not the speed of its steps: a higher limit may hold more"),
            )),
            LimitedBy::Memory => Some((c.max_users_at_target?, "the requests its KV cache holds at once, not the speed of its steps".to_string())),
            _ => None,
        })
    };
    match (running_limit(a), running_limit(b)) {
        (Some(_), Some(_)) => return None,
        (x, y) if x.is_some() || y.is_some() => {
            let (side, (n, what)) = if let Some(l) = y { ("B", l) } else { ("A", x?) };
            // Users who pause between requests are more than the requests they keep in flight (a review: "193
            // users … is its engine's limit" of 4): their requests fill it.
            let users = if b.think_time_s > 0.0 { " (their requests in flight fill the limit)" } else { "" };
            return Some(format!("Why: {side}'s capacity, {} users{users}, is {what}.", super::readout::group(n)));
        }
        _ => {}
    }
    let (ra, rb) = (&a.roofline, &b.roofline);
    let (bw, fl) = (rb.bandwidth_gbps / ra.bandwidth_gbps, rb.peak_tflops / ra.peak_tflops);
    if !(bw.is_finite() && fl.is_finite() && bw > 0.0 && fl > 0.0) || (bw.ln() - fl.ln()).abs() < 1.15f64.ln() {
        return None;
    }
    // The gain per server: the capacity at the target, else the per-user speed at the operating point.
    // (Both in users or both in requests/s: a rate peak can put one side on a rate sweep.)
    let cap = |r: &Report| r.capacity.as_ref().map(|c| (c.max_users_at_target, c.max_request_rate_at_target));
    let (gain, what) = match (cap(a), cap(b)) {
        (Some((Some(x), _)), Some((Some(y), _))) if x > 0.0 => (y / x, "users at the target per server"),
        (Some((None, Some(x))), Some((None, Some(y)))) if x > 0.0 => (y / x, "request rate at the target per server"),
        _ => (b.operating_point.as_ref()?.per_user_tps / a.operating_point.as_ref()?.per_user_tps, "per-user speed at the operating point"),
    };
    // B's sweep level nearest the load the gain is read at (its capacity, else its operating point): what bounds
    // its steps there (at 30 ms a 2 × H200's operating point is 64 % memory-bound, its capacity compute-bound).
    let op = b.operating_point.as_ref()?;
    let x = if what.ends_with("per server") { cap(b).and_then(|(u, q)| u.or(q))? } else { op.load()? };
    let p = b.sweep.iter().filter_map(|p| Some((p, (p.load()?.ln() - x.ln()).abs()))).min_by(|u, v| u.1.total_cmp(&v.1))?.0;
    let overhead = (1.0 - p.compute_bound_fraction - p.memory_bound_fraction).max(0.0);
    let (share, bound, reason) = if p.compute_bound_fraction >= p.memory_bound_fraction.max(overhead) {
        (p.compute_bound_fraction, "computing (prompts and large batches)", "which bandwidth does not speed up")
    } else if p.memory_bound_fraction >= overhead {
        (p.memory_bound_fraction, "reading memory (weights and KV cache)", "which compute does not speed up")
    } else {
        (overhead, "fixed costs (kernel launches, all-reduces, the engine's own work)", "which neither speeds up much")
    };
    // Said only where it explains the gain: at least half the step time on that bound, a gain within the two
    // ratios (15 % either side) and nearer the ratio of the resource it names (bandwidth for memory, compute
    // otherwise) than the other. Elsewhere something else decides — the KV cache's size (Qwen3-32B on one H200
    // against one H100 held 4–6 × the users), a latency limit near the one-user floor, steps on the ridge between
    // the two roofs — and the sentence would explain the wrong thing.
    let nearer = |r: f64, other: f64| (gain.ln() - r.ln()).abs() < (gain.ln() - other.ln()).abs();
    let memory = bound.starts_with("reading");
    let within = gain <= 1.15 * bw.max(fl) && gain >= bw.min(fl) / 1.15;
    if share < 0.5 || !within || !(if memory { nearer(bw, fl) } else { nearer(fl, bw) }) {
        return None;
    }
    // A step bound by one resource still spends part of its time on the other (a compute-bound step reads its KV
    // cache): a gain past the named resource's ratio comes from there, and is said so — "100 % … computing" beside
    // 1.00 × the compute and 1.09 × the users read as a contradiction in a pre-sales trial.
    let named = if memory { bw } else { fl };
    let other = if memory { fl } else { bw };
    // Only where the other resource lies on the gain's side of the named one: past both (an H200's larger memory
    // holding more sequences), neither explains the rest, and the clause is left out (a review).
    let explains = (gain > named && other > named) || (gain < named && other < named);
    let rest = if explains && (gain > 1.05 * named || gain < named / 1.05) {
        format!(
            ", the part {} its {named:.2} × {} coming from what those steps still {}",
            if gain > named { "beyond" } else { "short of" },
            if memory { "bandwidth" } else { "compute" },
            if memory { "compute" } else { "read from memory" }
        )
    } else {
        String::new()
    };
    // Computing that decides between a faster memory and the same compute rests on the serving engines' fitted
    // compute efficiency (a third of Hopper's tensor peak), which also holds per-step work the served runs do not
    // separate from the matrix multiplications: said, uncalibrated (an operations trial read H200 at 1.03 × H100 and
    // doubted it; the README's limits name the GEMM efficiency that grows with a step's tokens as the next step).
    let eta = rb.compute_efficiency;
    let caveat = if bound.starts_with("computing") && bw > 1.15 && bw > fl * 1.15 && eta < 0.5 && !b.band.load_class.starts_with("calibrated") {
        format!(
            " Those compute-bound steps are modelled at the serving engines' fitted {eta:.2} of the tensor peak, which also holds per-step work the published runs do not separate from the matrix multiplications: the gain from B's memory may be larger than this — a run of each, or a calibration on B's runs, settles it."
        )
    } else {
        String::new()
    };
    Some(format!(
        "Why: B's server has {bw:.2} × A's memory bandwidth and {fl:.2} × its compute; at {} {:.0} % of B's step time is in steps bound by {bound}, {reason}: B has {gain:.2} × A's {what}{rest}.{caveat}",
        if what.ends_with("per server") { "its capacity" } else { "the operating point" },
        share * 100.0
    ))
}

/// Why fewer bytes per weight bought one user speed and not capacity, when only the weight format differs and the
/// arithmetic does not (AWQ, GPTQ and GGUF's k-quants widen their 4-bit weights to 16 bits for the matmuls, W4A16): a
/// teacher's trial read AWQ at 2.2 × BF16's one-user speed and the same 177 users at the target, and the page said
/// only that B was better. Said where the capacity moved less than a tenth, one user at least a third, and B's steps at
/// its capacity are mostly compute-bound.
fn why_weights(a: &Report, b: &Report) -> Option<String> {
    let same = a.model == b.model
        && a.hardware == b.hardware
        && a.engine == b.engine
        && (a.prompt_tokens, a.output_tokens, a.think_time_s) == (b.prompt_tokens, b.output_tokens, b.think_time_s)
        && a.target == b.target
        && a.quantization != b.quantization;
    let (ra, rb) = (&a.roofline, &b.roofline);
    if !same || (rb.peak_tflops / ra.peak_tflops - 1.0).abs() > 0.01 || b.single_stream.bytes_per_token >= a.single_stream.bytes_per_token {
        return None;
    }
    let one = b.single_stream.decode_tps / a.single_stream.decode_tps;
    let (ca, cb) = (a.capacity.as_ref()?, b.capacity.as_ref()?);
    let (ua, ub) = (ca.max_users_at_target.or(ca.max_request_rate_at_target)?, cb.max_users_at_target.or(cb.max_request_rate_at_target)?);
    let gain = ub / ua;
    if !(one >= 1.33 && (gain - 1.0).abs() < 0.1) {
        return None;
    }
    let p = &b.sweep[super::readout::nearest_level(b, Some(ub))?];
    if p.compute_bound_fraction < 0.5 {
        return None;
    }
    Some(format!(
        "Why: B's weights take {:.2} × A's bytes and B computes as A does (its weights are widened to A's 16 bits for the matrix multiplications): one user, whose steps read the weights, gets {one:.2} × A's speed; at B's capacity {:.0} % of the step time is in steps bound by computing (prompts and large batches), which fewer bytes do not speed up: {gain:.2} × A's capacity.",
        b.single_stream.bytes_per_token / a.single_stream.bytes_per_token,
        p.compute_bound_fraction * 100.0
    ))
}

/// A and B of `metric`'s row, when both sides have it.
fn both(rows: &[DiffRow], metric: &str) -> Option<(f64, f64)> {
    // A row whose difference is withheld ([`diff`]: costs in two currencies, fleets for different peaks) is weighed by
    // nothing.
    rows.iter().find(|r| r.metric == metric).filter(|r| r.delta.is_some()).and_then(|r| Some((r.a?, r.b?)))
}

/// Two figures with as many decimals as tell them apart (the summary's "drawing 47 kW against 47" was 47.34 and
/// 46.76): whole from 10 up, else 1–2 decimals, up to 2 more while they round alike.
fn apart(x: f64, y: f64) -> (String, String) {
    let base = if x.abs().min(y.abs()) >= 10.0 {
        0
    } else if x.abs().min(y.abs()) >= 1.0 {
        1
    } else {
        2
    };
    let mut d = base;
    while d < base + 2 && x != y && format!("{x:.d$}") == format!("{y:.d$}") {
        d += 1;
    }
    (format!("{x:.d$}"), format!("{y:.d$}"))
}

/// [`Diff::summary`] of these rows.
fn summary(rows: &[DiffRow], currency: &str, sizes: Option<(f64, f64)>) -> String {
    let figure = |v: f64| if v.fract() == 0.0 { format!("{v:.0}") } else { super::verdict::fmt_against(v, None) };
    let both = |m: &str| both(rows, m);
    let plural = |n: f64, one: &str, many: &str| format!("{} {}", figure(n), if n == 1.0 { one } else { many });
    let mut s = if let Some((a, b)) = both("replicas") {
        // Servers of different sizes (2 × H100 against 1 × H200) are compared by their devices too.
        // Devices bought in whole nodes beyond the servers' own say what the servers run on (a pre-sales trial read
        // "(16 devices against 32)" and then "the gap in devices the servers run on (25 against 16)").
        let own = sizes.map(|(sa, sb)| (a * sa, b * sb));
        let running = |(da, db): (f64, f64)| match own {
            Some((oa, ob)) if oa != da && ob != db => format!(", the servers running on {} and {}", figure(ob), figure(oa)),
            Some((oa, _)) if oa != da => format!(" in whole nodes, A's servers running on {}", figure(oa)),
            Some((_, ob)) if ob != db => format!(" in whole nodes, B's servers running on {}", figure(ob)),
            _ => String::new(),
        };
        let devices = both("devices_total").filter(|(da, db)| (da / a - db / b).abs() > 1e-9).map_or(String::new(), |(da, db)| {
            if da == db {
                format!(" (both {}{})", plural(db, "device", "devices"), running((da, db)))
            } else {
                format!(" ({} against {}{})", plural(db, "device", "devices"), figure(da), running((da, db)))
            }
        });
        // As many servers: said so, not "2 against A's 2" (a pre-sales trial).
        if a == b {
            format!("B needs {}, as A does{devices}", plural(b, "server", "servers"))
        } else {
            format!("B needs {} against A's {}{devices}", plural(b, "server", "servers"), figure(a))
        }
    } else if let Some((a, b)) = both("max_users_at_target") {
        format!("B holds {} at the target against A's {}", plural(b, "user", "users"), figure(a))
    } else if let Some((a, b)) = both("max_request_rate_at_target") {
        format!("B holds {} req/s at the target against A's {}", figure(b), figure(a))
    } else if let Some((a, b)) = both("per_user_tps") {
        format!("B gives each user {} tok/s at the operating point against A's {}", figure(b), figure(a))
    } else {
        // One side (or neither) has no operating point: nothing to weigh, say which.
        let op = rows.iter().find(|r| r.metric == "per_user_tps");
        return match op.map(|r| (r.a.is_some(), r.b.is_some())) {
            Some((true, false)) => "Only A has an operating point.",
            Some((false, true)) => "Only B has an operating point.",
            _ => "Neither side has an operating point.",
        }
        .into();
    };
    let cost = both("fleet_per_hour");
    if let Some((a, b)) = cost {
        let cur = if currency.is_empty() { String::new() } else { format!("{currency} ") };
        let (b, a) = apart(b, a);
        s += &format!(", costing {cur}{b} an hour against {a}");
    }
    if let Some((a, b)) = both("fleet_kw") {
        // "…, costing … and drawing …", or without a cost "…, drawing …".
        let (b, a) = apart(b, a);
        s += &format!("{} drawing {b} kW against {a}", if cost.is_some() { " and" } else { "," });
    }
    // The month's cost and energy restate the hour's and the power's over the month: not counted twice.
    let restates_month = |r: &DiffRow| matches!(r.metric, "fleet_per_month" | "fleet_per_million_over_month" | "fleet_mwh_month");
    // Memory's requests count only where they all run: beside the requests run at once, they are not a side's merit.
    let running_row = rows.iter().any(|r| r.metric == "running_at_once");
    let judged: Vec<(&DiffRow, bool)> = rows
        .iter()
        .filter(|r| !(restates_month(r) || (running_row && r.metric == "sequences_fit")))
        .filter_map(|r| r.b_better().map(|b| (r, b)))
        .collect();
    let wins = judged.iter().filter(|(_, w)| *w).count();
    // Said where that row differs (a review: "B is better on every figure that differs" beside memory's row in red).
    let memory_aside = running_row && rows.iter().any(|r| r.metric == "sequences_fit" && r.b_better().is_some());
    let aside = if memory_aside { " (memory's requests, beside those run at once, are not counted)" } else { "" };
    let verdict = match (wins, judged.len()) {
        (_, 0) => format!("the compared figures are equal{aside}"),
        (w, n) if w == n => format!("B is better on every figure that differs{aside}"),
        (0, _) => format!("A is better on every figure that differs{aside}"),
        // The side better on fewer figures names them: a count does not weigh them ("B is better on 6 of the 8" read
        // as B's win where the two it lost were the fleet's costs, 38 % more).
        (w, n) => {
            let (more, fewer, b_fewer) = if 2 * w < n { ("A", "B", true) } else { ("B", "A", false) };
            // Per-user output at operating points of different loads is no like-for-like win: its load is said (an
            // operations trial read B's faster users at 18 against A's 40 as a point for B).
            let loads = both("operating_users").filter(|(a, b)| (a - b).abs() > 0.01 * a.max(*b));
            let name = |r: &DiffRow| match loads {
                Some((a, b)) if r.metric == "per_user_tps" => {
                    let (own, other, whose) = if b_fewer { (b, a, "A") } else { (a, b, "B") };
                    format!("{} (at {} against {whose}'s {})", r.label, plural(own.round(), "user", "users"), figure(other.round()))
                }
                _ => r.label.clone(),
            };
            let names: Vec<String> = judged.iter().filter(|(_, b)| *b == b_fewer).map(|(r, _)| name(r)).collect();
            let list = match names.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
                _ => names.concat(),
            };
            // Said of which rows (a pre-sales trial read "7 of the 11" beside a table of 15): the equal ones and the
            // month's two, which restate the hour's cost and the power, are not counted.
            let months = rows.iter().filter(|r| restates_month(r) && r.b_better().is_some()).count();
            let counted = match (months > 0, memory_aside) {
                (true, true) => " (the month's figures restate the hour's, and memory's requests beside those run at once: neither is counted)",
                (true, false) => " (the month's figures restate the hour's and are not counted)",
                (false, _) => aside,
            };
            format!("{more} is better on {} of the {n} figures that differ{counted}, {fewer} on {list}", n - names.len())
        }
    };
    // A count of figures does not weigh them: where the fleets' costs differ, say which is cheaper and by how much
    // (B better on 4 of 7 figures by 1–2 % each, at 1.39 × the cost, had read as B's win).
    // An hour's cost and, where both are bought, the purchase, each named (a pre-sales trial read "19 % less" as the
    // purchase, which was 21 % less).
    let less = |a: f64, b: f64| {
        (a > 0.0 && b > 0.0 && (a / b - 1.0).abs() >= 0.005).then(|| if a < b { ("A", (1.0 - a / b) * 100.0) } else { ("B", (1.0 - b / a) * 100.0) })
    };
    let hourly = cost.and_then(|(a, b)| less(a, b));
    let bought = both("fleet_purchase").and_then(|(a, b)| less(a, b));
    let cheaper = match (hourly, bought) {
        (Some((w, p)), Some((v, q))) if w == v => format!("; {w}'s fleet costs {p:.0} % less an hour and {q:.0} % less to buy"),
        (Some((w, p)), Some((v, q))) => format!("; {w}'s fleet costs {p:.0} % less an hour, {v}'s {q:.0} % less to buy"),
        (Some((w, p)), None) => format!("; {w}'s fleet costs {p:.0} % less an hour"),
        (None, Some((v, q))) => format!("; {v}'s fleet costs {q:.0} % less to buy"),
        (None, None) => String::new(),
    };
    // With as many servers on each side, the cheaper fleet is the difference a buyer weighs first: said before the count
    // of figures (a pre-sales trial read "A is better on 6 of the 11 figures" as the answer where both needed 2 servers
    // and B's cost 19 % less; three of A's six were its capacity, said three ways).
    if both("replicas").is_some_and(|(a, b)| a == b) && !cheaper.is_empty() {
        format!("{s}{cheaper} with as many servers: {verdict}.")
    } else {
        format!("{s}: {verdict}{cheaper}.")
    }
}

fn side(r: &Report) -> DiffSide {
    DiffSide {
        hardware: r.hardware.clone(),
        model: r.model.clone(),
        engine: r.engine.clone(),
        quantization: r.quantization.clone(),
        setting: String::new(),
        verdict: r.verdict.clone(),
    }
}

/// The settings [`DiffSide::setting`] names, in order: the KV cache per token (its format), the memory left for it,
/// the engine's max batch (a trial's two llama.cpp setups, 4 and 64 slots, read alike; a review found a max batch of 8
/// against 1,024 unnamed), the lengths, the users' think time, the target.
fn settings(r: &Report) -> [String; 6] {
    let fmt = crate::model::units::fmt_num;
    let t = &r.target;
    let ms = |v: Option<f64>| v.map_or_else(|| "none".to_string(), |v| format!("{} ms", fmt(v)));
    [
        format!("KV cache {} KB per token", fmt((r.memory.kv_bytes_per_token / 100.0).round() / 10.0)),
        format!("{:.1} GB for the KV cache", r.memory.kv_budget_gb),
        format!("max batch {}", r.memory.max_batch),
        format!("{} prompt + {} output tokens", fmt(r.prompt_tokens), fmt(r.output_tokens)),
        format!("{} s think time", fmt(r.think_time_s)),
        if t.limits_latency() {
            format!("{} targets TTFT {}, TPOT {}", t.percentile, ms(t.ttft_limit_ms()), ms(t.tpot_limit_ms()))
        } else {
            "no latency target".to_string()
        },
    ]
}

/// The workload's settings beyond [`settings`], in words and in a fixed order ([`Report::settings`]): how lengths
/// vary, earlier context and the prefix cache, the load swept, the use case, the operating point's share of the
/// capacity, the fleet's peak (a trial's two sides, lognormal against fixed lengths, read alike).
pub(super) fn workload_settings(r: &crate::scenario::Resolved) -> Vec<String> {
    use crate::scenario::{Distribution, Load, Mode, PeakLoad};
    let fmt = crate::model::units::fmt_num;
    let pct = |v: f64| fmt((v * 1000.0).round() / 10.0);
    let w = &r.workload;
    let fleet = match r.fleet {
        Some(f) => {
            let peak = match f.peak {
                PeakLoad::Users(u) => format!("{} users", fmt(u)),
                PeakLoad::RequestRate(q) => format!("{} req/s", fmt(q)),
            };
            let spares = match f.spare_replicas {
                1 => "1 spare".to_string(),
                k => format!("{k} spares"),
            };
            format!("a fleet for {peak} at the peak, {spares}, {} h a day", fmt(f.peak_hours_per_day))
        }
        None => "no fleet".to_string(),
    };
    vec![
        match w.distribution {
            Distribution::Fixed => "fixed lengths".to_string(),
            Distribution::Uniform => format!("uniform lengths (± {} %)", pct(w.spread)),
            Distribution::Lognormal => format!("lognormal lengths (CV {})", fmt(w.spread)),
        },
        format!("{} tokens of earlier context, {} % of the prompt cached", fmt(w.context_depth), pct(w.prefix_cache_hit_rate)),
        match &w.load {
            Load::Concurrency(_) => "a sweep of users".to_string(),
            // The users' pause the fleet reads them by (a review: 20 s against 5 s had read alike).
            Load::RequestRate(_) if w.users_think_s > 0.0 => {
                format!("a sweep of request rates (burstiness {}; the fleet's users pause {} s)", fmt(w.burstiness), fmt(w.users_think_s))
            }
            Load::RequestRate(_) => format!("a sweep of request rates (burstiness {})", fmt(w.burstiness)),
            Load::Offline => "every request at once".to_string(),
        },
        match w.mode {
            Mode::Reader => "readers".to_string(),
            Mode::Agent => format!("agents of {} steps", w.agent_steps),
            Mode::Batch => "batch".to_string(),
        },
        format!("operating point at {} % of the capacity", pct(r.target.operating_fraction)),
        fleet,
        // Where the fast link ends and what a fleet buys whole (a review: 8 × GB200 in nodes of 4 against the NVL72's
        // 72 had read alike, 53 users at the target against 213).
        format!("nodes of {} devices", r.deployment.hardware.node_devices),
        // SGLang against SGLang with its prompt steps apart had read alike (a new user's trial).
        if r.deployment.engine.mixed_batches { PROMPT_STEPS_SHARED } else { PROMPT_STEPS_APART }.to_string(),
    ]
}

/// [`workload_settings`]' words for the engine's scheduling (`EngineParams::mixed_batches`).
pub const PROMPT_STEPS_SHARED: &str = "prompt chunks sharing steps with the decodes";
/// See [`PROMPT_STEPS_SHARED`].
pub const PROMPT_STEPS_APART: &str = "prompts read in steps apart, the decodes waiting";

/// Each side's [`DiffSide`], with the settings that tell them apart: every one where their labels read alike; else
/// those of the workload, the target and the fleet (the KV cache's size follows the model and hardware that differ
/// already). A review compared 2 × H100 for 500 users with 1 × H200 for 2,000, "B needs 224 servers against A's 26",
/// and no word of the peaks.
fn sides(a: &Report, b: &Report) -> (DiffSide, DiffSide) {
    let (mut sa, mut sb) = (side(a), side(b));
    // (The max batch is an engine setting whatever else differs: kept from index 2 on.)
    let first = if sa.describe() == sb.describe() { 0 } else { 2 };
    let (xa, xb) = (settings(a), settings(b));
    let (xa, xb) = ([&xa[first..], &a.settings[..]].concat(), [&xb[first..], &b.settings[..]].concat());
    let apart: Vec<usize> = (0..xa.len().min(xb.len())).filter(|&i| xa[i] != xb[i]).collect();
    sa.setting = apart.iter().map(|&i| xa[i].as_str()).collect::<Vec<_>>().join(", ");
    sb.setting = apart.iter().map(|&i| xb[i].as_str()).collect::<Vec<_>>().join(", ");
    (sa, sb)
}

/// The figures a fleet's peak sets, and those in a currency: [`diff`] withholds their difference where the peaks or
/// the currencies differ.
const FLEET_ROWS: [&str; 10] = [
    "replicas",
    "devices_total",
    "nodes",
    "fleet_per_hour",
    "fleet_per_month",
    "fleet_per_million_output_tokens",
    "fleet_per_million_over_month",
    "fleet_purchase",
    "fleet_kw",
    "fleet_mwh_month",
];
const COST_ROWS: [&str; 6] = [
    "cost_per_million_output_tokens",
    "fleet_per_hour",
    "fleet_per_month",
    "fleet_per_million_output_tokens",
    "fleet_per_million_over_month",
    "fleet_purchase",
];

/// Each side's figure kept, their difference and ratio withheld (and so any verdict on them).
fn withhold(rows: &mut [DiffRow], metrics: &[&str]) {
    for r in rows.iter_mut().filter(|r| metrics.contains(&r.metric)) {
        r.delta = None;
        r.ratio = None;
    }
}

fn row(metric: &'static str, label: &str, unit: &str, a: Option<f64>, b: Option<f64>) -> DiffRow {
    let finite = |v: Option<f64>| v.filter(|x| x.is_finite());
    let (a, b) = (finite(a), finite(b));
    DiffRow {
        metric,
        label: label.into(),
        unit: unit.into(),
        a,
        b,
        delta: a.zip(b).map(|(a, b)| b - a),
        ratio: a.zip(b).and_then(|(a, b)| (a != 0.0).then(|| b / a)).filter(|x| x.is_finite()),
    }
}

/// Compares report `b` with report `a`.
#[must_use]
pub fn diff(a: &Report, b: &Report) -> Diff {
    let op = |r: &Report, f: fn(&crate::scenario::Marker) -> f64| r.operating_point.as_ref().map(f);
    let currency_of = |r: &Report| r.cost.as_ref().and_then(|c| c.currency.clone()).filter(|c| !c.is_empty());
    // Two currencies are not subtracted (a review read "A's fleet costs 99 % less" of 114 USD against 11,405 EUR).
    let mixed = match (currency_of(a), currency_of(b)) {
        (Some(x), Some(y)) if x != y => Some((x, y)),
        _ => None,
    };
    let currency = if mixed.is_some() { String::new() } else { currency_of(a).or_else(|| currency_of(b)).unwrap_or_default() };
    // One user alone first: the speed a single person sees on an idle server (a class comparing two boards asks
    // that before any load, and it is where bandwidth alone decides: a teacher's trial found no such row).
    let one = |r: &Report| Some(r.single_stream.decode_tps).filter(|v| *v > 0.0 && r.memory.fits);
    let mut rows = vec![
        row("one_user_tps", "one user alone (idle server)", "tok/s", one(a), one(b)),
        row("per_user_tps", "per-user output at the operating point", "tok/s", op(a, |m| m.per_user_tps), op(b, |m| m.per_user_tps)),
        row("system_tps", "system output at the operating point", "tok/s", op(a, |m| m.system_tps), op(b, |m| m.system_tps)),
        row(
            "operating_users",
            "users at the operating point",
            "users",
            op(a, |m| m.concurrency.unwrap_or(f64::NAN)),
            op(b, |m| m.concurrency.unwrap_or(f64::NAN)),
        ),
    ];
    // Two sweeps of request rates have no users at their operating points: their rates instead (a pre-sales trial
    // found a row of dashes).
    if rows[3].a.is_none() && rows[3].b.is_none() {
        let rate = |r: &Report| op(r, |m| m.request_rate.unwrap_or(f64::NAN));
        rows[3] = row("operating_rate", "request rate at the operating point", "req/s", rate(a), rate(b));
    }
    let users = |r: &Report| r.capacity.as_ref().and_then(|c| c.max_users_at_target);
    let rate = |r: &Report| r.capacity.as_ref().and_then(|c| c.max_request_rate_at_target);
    if users(a).is_some() || users(b).is_some() || (rate(a).is_none() && rate(b).is_none()) {
        rows.push(row("max_users_at_target", "max users at the target", "users", users(a), users(b)));
    }
    if rate(a).is_some() || rate(b).is_some() {
        rows.push(row("max_request_rate_at_target", "max request rate at the target", "req/s", rate(a), rate(b)));
    }
    // The running requests memory holds at full length: where a KV cache format or the memory left for it differs,
    // the figure that changed (a teacher's trial compared a 16-bit KV cache with FP8 and found no row for it).
    let fit = |r: &Report| Some(r.memory.kv_max_sequences.floor()).filter(|v| r.memory.fits && v.is_finite());
    // Where an engine's cap or llama.cpp's slots run fewer than memory holds, what runs at once (a teacher's trial:
    // llama.cpp's A, 4 slots, was "better" on "requests memory holds at full length: 1 064 against 611").
    let at_once = |r: &Report| fit(r).map(|f| f.min(r.memory.max_concurrency.floor()));
    // (Beside memory's, which the verdict then leaves uncounted: `summary`.)
    rows.push(row("sequences_fit", "requests memory holds at full length", "requests", fit(a), fit(b)));
    if [a, b].iter().any(|r| at_once(r).zip(fit(r)).is_some_and(|(n, f)| n < f)) {
        rows.push(row(
            "running_at_once",
            "requests run at once (the engine's cap, or what memory holds at full length)",
            "requests",
            at_once(a),
            at_once(b),
        ));
    }
    let fleet = |r: &Report, f: fn(&crate::scenario::Fleet) -> f64| r.fleet.as_ref().map(f);
    rows.push(row("replicas", "servers for the fleet", "servers", fleet(a, |f| f.replicas as f64), fleet(b, |f| f.replicas as f64)));
    // Bought in whole nodes where a device price is given, else counted one by one (an operations trial read
    // "bought" for rented devices).
    let bought = [a, b].iter().any(|r| r.cost.as_ref().is_some_and(|c| c.purchase.is_some()));
    rows.push(row(
        "devices_total",
        if bought { "devices for the fleet (bought: in whole nodes)" } else { "devices for the fleet" },
        "devices",
        fleet(a, |f| f.devices_total as f64),
        fleet(b, |f| f.devices_total as f64),
    ));
    // The boxes bought, where the boards come in nodes (a pre-sales trial: "servers" of 1 × H200 are not the 8-device
    // nodes a meeting buys).
    let nodes = |r: &Report| r.fleet.as_ref().and_then(|f| f.nodes).map(|n| n as f64);
    if nodes(a).is_some() || nodes(b).is_some() {
        // A side without nodes shows "—": its devices come one by one (PCIe boards, workstations), said in the label (a
        // pre-sales trial: "—" for 4 × L40S unexplained).
        // (Only a side with a fleet: without one the dash says there is none; a review.)
        let one_by_one = |r: &Report| r.fleet.is_some() && nodes(r).is_none();
        let label = if one_by_one(a) || one_by_one(b) {
            "nodes (boxes of boards) for the fleet; — : devices that come one by one"
        } else {
            "nodes (boxes of boards) for the fleet"
        };
        rows.push(row("nodes", label, "nodes", nodes(a), nodes(b)));
    }
    let per = |what: &str| if currency.is_empty() { what.to_string() } else { format!("{currency} {what}") };
    let cost = |r: &Report, f: fn(&crate::scenario::Cost) -> Option<f64>| r.cost.as_ref().and_then(f);
    let million = |c: &crate::scenario::Cost| Some(c.per_million_output_tokens);
    let unit = per("per million tokens");
    rows.push(row(
        "cost_per_million_output_tokens",
        "cost per million output tokens (one server at its operating point)",
        &unit,
        cost(a, million),
        cost(b, million),
    ));
    // The meeting's bottom line: what the whole fleet costs and draws at the operating point, on the same basis
    // (the serving replicas at the peak's share of each, the spares idle, at the meter when a PUE is given).
    let hour = |c: &crate::scenario::Cost| c.fleet_per_hour;
    rows.push(row("fleet_per_hour", "the fleet's cost", &per("per hour"), cost(a, hour), cost(b, hour)));
    // A cost figure only where either side has one.
    let either = |metric: &'static str, label: &str, unit: &str, f: fn(&crate::scenario::Cost) -> Option<f64>| {
        let (x, y) = (cost(a, f), cost(b, f));
        (x.is_some() || y.is_some()).then(|| row(metric, label, unit, x, y))
    };
    // The month a meeting budgets (the devices around the clock, the electricity as drawn: `plan::cost`).
    rows.extend(either("fleet_per_month", "the fleet's cost a month (30 days)", &per("per month"), |c| c.fleet_per_month));
    // Per million tokens the fleet makes at the peak, spares and headroom paid: beside the one replica's figure above.
    rows.extend(either("fleet_per_million_output_tokens", "the fleet's cost per million output tokens at the peak", &unit, |c| {
        c.fleet_per_million_output_tokens
    }));
    // Over the month where a peak lasts part of the day (a review: fleets busy 8 and 24 h a day had read alike); like
    // the month's cost, it restates the hour's and is not counted in the summary.
    rows.extend(either(
        "fleet_per_million_over_month",
        "the fleet's cost per million output tokens over the month (busy its peak hours, paid around the clock)",
        &unit,
        |c| c.fleet_per_million_over_month,
    ));
    // Bought, not rented: the purchase, where either side gives a price per device.
    rows.extend(either("fleet_purchase", "buying the fleet (once)", &currency, |c| c.purchase.as_ref().and_then(|p| p.fleet_price)));
    let kw = super::energy::fleet_kw;
    // Only a side with a fleet's power has a basis to name (a pre-sales trial's B, PUE 1.3 but no fleet, was called
    // "accelerators only" beside A's PUE).
    let metered = [a, b].iter().any(|r| kw(r).is_some() && r.energy.as_ref().is_some_and(Energy::metered));
    // Two sides on different bases (hosts or PUE on one only) say so: a review's A with hosts and PUE drew 135 kW
    // against B's bare 49.7, "B is better on every figure".
    let basis = |r: &Report| kw(r).map(|_| r.energy.as_ref().map(Energy::meter_basis).unwrap_or_default());
    let kw_label = match (metered, basis(a), basis(b)) {
        (false, ..) => "the fleet's power (accelerators)".to_string(),
        (true, Some(x), Some(y)) if x != y => {
            let side = |s: String| if s.is_empty() { "accelerators only".to_string() } else { s };
            format!("the fleet's power at the meter (A: {}; B: {})", side(x), side(y))
        }
        (true, ..) => "the fleet's power at the meter".to_string(),
    };
    rows.push(row("fleet_kw", &kw_label, "kW", kw(a), kw(b)));
    let mwh = super::energy::fleet_month_mwh;
    if mwh(a).is_some() || mwh(b).is_some() {
        // Each side's hours a day at the peak, the rest idle (`energy::month_words`).
        let hours = |r: &Report| r.fleet.as_ref().map(|f| f.peak_hours_per_day);
        let label = match (hours(a), hours(b)) {
            (Some(x), Some(y)) if x != y => format!("the fleet's energy a month (A {} h, B {} h a day at the peak)", fmt_h(x), fmt_h(y)),
            (Some(x), _) | (_, Some(x)) if x < 24.0 => format!("the fleet's energy a month ({} h a day at the peak)", fmt_h(x)),
            _ => "the fleet's energy a month (at the peak around the clock)".to_string(),
        };
        rows.push(row("fleet_mwh_month", &label, "MWh", mwh(a), mwh(b)));
    }
    rows.push(row(
        "joules_per_output_token",
        // The accelerators' (the kW and MWh rows above are the meter's where a PUE or hosts are given; a trial read
        // the two bases as one).
        "energy per output token (accelerators)",
        "J/token",
        a.energy.as_ref().map(|e| e.joules_per_output_token),
        b.energy.as_ref().map(|e| e.joules_per_output_token),
    ));
    // What does not compare: fleets sized for different peaks, costs in different currencies.
    let peak = |r: &Report| r.fleet.as_ref().map(|f| (f.peak_users, f.peak_request_rate));
    let peaks = match (peak(a), peak(b)) {
        (Some(x), Some(y)) if x != y => Some((x, y)),
        _ => None,
    };
    let mut apart = String::new();
    if let Some((x, y)) = peaks {
        withhold(&mut rows, &FLEET_ROWS);
        let words = |p: (Option<f64>, Option<f64>)| match p {
            (Some(u), _) => format!("{} users", super::readout::group(u)),
            (_, Some(q)) => format!("{} req/s", crate::model::units::fmt_num(q)),
            _ => "no peak".to_string(),
        };
        apart += &format!(
            " The fleets are sized for different peaks (A: {}, B: {}): their servers, costs and power are each side's own, not compared.",
            words(x),
            words(y)
        );
    }
    if let Some((x, y)) = &mixed {
        withhold(&mut rows, &COST_ROWS);
        for r in rows.iter_mut().filter(|r| COST_ROWS.contains(&r.metric)) {
            r.label = format!("{} (A in {x}, B in {y})", r.label);
        }
        apart += &format!(" A's costs are in {x} and B's in {y}: not compared (give both sides one currency).");
    }
    let sizes = Some((f64::from(a.single_stream.devices), f64::from(b.single_stream.devices)));
    let mut summary = summary(&rows, &currency, sizes) + &apart;
    let headline = summary.clone();
    if let Some(m) = margin_as(&rows, a.band.batched_pct.max(b.band.batched_pct), a.band.load_rows > 0 && b.band.load_rows > 0, sizes) {
        summary = format!("{summary} {m}");
        // One figure's error is a bound for sides on different hardware or engines; on the same ones, with the same
        // model and band class, much of it is shared (a teacher's trial read BF16 against FP8 on one H100, "55 % above
        // … within the error", as no result). Not across models: a dense and an MoE model do not share the MoE
        // kernels' error (a review).
        let alike = a.hardware == b.hardware && a.engine == b.engine && a.model == b.model && a.band.batched_pct == b.band.batched_pct;
        if m.contains(" is within ") && alike {
            summary += " Both sides run the same model on the same hardware and engine, so much of that error (the bandwidth reached, the kernels, the engine's overheads) is the same for both: their difference is likely surer than either figure.";
        }
    }
    if let Some(w) = why(a, b).or_else(|| why_weights(a, b)) {
        summary = format!("{summary} {w}");
    }
    // What the figures cannot say, said in the summary a meeting reads (a pre-sales trial found an MI300X's borrowed
    // efficiency only under Defaults used, and "B's fleet costs 52 % less" for another model without a word).
    // Once where both sides borrow alike (a teacher's trial read the same sentence of A's and then B's one H100).
    let (fa, fb) = (&a.band.compute_borrowed_from, &b.band.compute_borrowed_from);
    if fa.is_some() && fa == fb && a.device == b.device {
        summary = format!(
            "{summary} Their device has no served runs of its own generation in the data (its compute efficiency is borrowed from {}): their figures are unverified until a run on it.",
            fa.as_deref().unwrap_or_default()
        );
    } else {
        for (name, r) in [("A", a), ("B", b)] {
            if let Some(from) = &r.band.compute_borrowed_from {
                summary = format!(
                    "{summary} {name}'s device has no served runs of its own generation in the data (its compute efficiency is borrowed from {from}): its figures are unverified until a run on it."
                );
            }
        }
    }
    if a.model != b.model {
        summary = format!("{summary} A and B serve different models: how good their answers are is not in these figures.");
    }
    // One price for two devices: the page's price stays as the hardware changes (an operations trial pinned A at an
    // H100's device-hour, switched to 4 × L40S and read B's cost at the H100's price).
    let per_device = |r: &Report| {
        r.cost.as_ref().and_then(|c| {
            c.purchase.as_ref().map(|p| p.device_price).or_else(|| c.devices_per_hour.map(|h| h / f64::from(r.single_stream.devices.max(1))))
        })
    };
    // The device, not the server: 2 × H100 against 4 × H100, or TP8 against DP attention, at one price is one
    // device's price (a review; the server's label had been parsed, its "(DP attention)" read as another device).
    if let (true, Some(x), Some(y)) = (a.device != b.device, per_device(a), per_device(b)) {
        if (x - y).abs() <= 1e-9 * x.abs().max(1.0) {
            summary = format!(
                "{summary} A's {} and B's {} are priced alike per device: where they do not cost alike, give each side its own price.",
                a.hardware, b.hardware
            );
        }
    }
    let (a, b) = sides(a, b);
    Diff { a, b, rows, summary, headline }
}

/// Hours a day as the month's words write them (`energy::month_words`).
fn fmt_h(h: f64) -> String {
    crate::model::units::fmt_num(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// B − A subtracts the columns as shown (a pre-sales trial: "1.75 … 1.87 … −0.13"), and keeps the true gap
    /// where the shown figures are equal.
    #[test]
    fn the_difference_column_subtracts_the_shown_figures() {
        let mut r = row("cost_per_million_output_tokens", "", "", Some(1.8726), Some(1.7494));
        r.delta = Some(1.7494 - 1.8726);
        let d = r.shown_delta(3).unwrap();
        assert_eq!(format!("{d:.*}", r.delta_decimals(3)), "-0.12");
        let mut same = row("x", "", "", Some(139.2), Some(139.4));
        same.delta = Some(0.2);
        assert_eq!(same.shown_delta(3), Some(0.2));
    }

    #[test]
    fn the_power_row_names_the_basis_of_the_sides_that_have_a_fleet() {
        let eval = |json: &str| crate::plan::evaluate(&crate::scenario::Scenario::from_json(json).unwrap()).unwrap();
        let base = r#""hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"workload":{"requests":200}"#;
        let a = eval(&format!(r#"{{{base},"fleet":{{"peak_users":100}},"cost":{{"device_hour":2.5,"pue":1.3}}}}"#));
        let label = |b: &Report| diff(&a, b).rows.iter().find(|r| r.metric == "fleet_kw").unwrap().label.clone();
        // B has a PUE but no fleet (a pre-sales trial read "B: accelerators only" of a B with PUE 1.3 and no power).
        assert_eq!(label(&eval(&format!(r#"{{{base},"cost":{{"device_hour":2.5,"pue":1.3}}}}"#))), "the fleet's power at the meter");
        // B's fleet on another basis is named.
        assert_eq!(
            label(&eval(&format!(r#"{{{base},"fleet":{{"peak_users":100}},"cost":{{"device_hour":2.5}}}}"#))),
            "the fleet's power at the meter (A: PUE 1.3; B: accelerators only)"
        );
    }

    /// A device without served runs of its own generation on both sides is said once, of both (a teacher's trial
    /// read A's sentence and then B's of the same RTX 4090); on different devices each side that borrows says so.
    #[test]
    fn a_borrowed_efficiency_shared_by_both_sides_is_said_once() {
        let eval = |json: &str| crate::plan::evaluate(&crate::scenario::Scenario::from_json(json).unwrap()).unwrap();
        let of = |hw: &str, w: &str| {
            eval(&format!(
                r#"{{"hardware":{{"preset":"{hw}"}},"model":{{"preset":"llama-3.1-8b"}},"quantization":{{"weights":"{w}"}},"engine":{{"preset":"vllm"}},"workload":{{"requests":100,"load":{{"concurrency":[1,8]}}}}}}"#
            ))
        };
        let (a, b) = (of("rtx-4090", "f16"), of("rtx-4090", "fp8"));
        assert!(a.band.compute_borrowed_from.is_some());
        let s = super::diff(&a, &b).summary;
        assert_eq!(s.matches("no served runs of its own generation").count(), 1, "{s}");
        assert!(s.contains("Their device has no served runs") && !s.contains("A's device"), "{s}");
        let s = super::diff(&a, &of("l40s", "f16")).summary;
        assert!(s.contains("A's device has no served runs") && s.contains("B's device has no served runs"), "{s}");
    }

    /// Figures within half a per cent count as equal, neither side's win (an MoE trial: "113 | 113 | +0.01" in green).
    #[test]
    fn a_hair_of_difference_is_no_win() {
        let mut r = row("per_user_tps", "", "tok/s", Some(113.0), Some(113.01));
        r.delta = Some(0.01);
        assert_eq!(r.b_better(), None);
        let mut r = row("per_user_tps", "", "tok/s", Some(100.0), Some(102.0));
        r.delta = Some(2.0);
        assert_eq!(r.b_better(), Some(true));
    }

    #[test]
    fn a_gap_that_rounds_to_nothing_keeps_a_digit() {
        assert_eq!(row("x", "x", "u", Some(139.1), Some(139.4)).delta_decimals(3), 1);
        assert_eq!(row("x", "x", "u", Some(139.0), Some(139.0)).delta_decimals(3), 0);
        assert_eq!(row("x", "x", "u", Some(4683.2), Some(4683.21)).delta_decimals(3), 2);
    }

    #[test]
    fn the_difference_takes_the_coarser_decimals() {
        assert_eq!(row("x", "x", "u", Some(1.64), Some(1.945)).delta_decimals(4), 2);
        assert_eq!(row("x", "x", "u", Some(114.2), Some(125.3)).delta_decimals(4), 0);
        assert_eq!(row("x", "x", "u", Some(0.21), Some(0.5)).delta_decimals(3), 3);
        assert_eq!(row("x", "x", "u", Some(3.0), Some(0.5)).delta_decimals(3), 3);
        assert_eq!(row("x", "x", "u", Some(0.0), Some(0.862)).delta_decimals(3), 3);
        assert_eq!(row("x", "x", "u", Some(3.0), Some(3.3)).delta_decimals(4), 2);
        assert_eq!(row("x", "x", "u", Some(114.0), Some(125.0)).delta_decimals(4), 0);
    }

    #[test]
    fn why_fewer_bytes_per_weight_did_not_buy_capacity() {
        // A teacher's trial: Llama-3.1-8B on one H100, BF16 against AWQ (4-bit weights, 16-bit arithmetic).
        let report = |w: &str| {
            let json = format!(
                r#"{{"hardware":{{"preset":"h100-sxm"}},"model":{{"preset":"llama-3.1-8b"}},"quantization":{{"weights":"{w}"}},"engine":{{"preset":"vllm"}},"workload":{{"prompt_tokens":512,"output_tokens":256,"requests":300}}}}"#
            );
            crate::plan::evaluate(&crate::scenario::Scenario::from_json(&json).unwrap()).unwrap()
        };
        let (bf16, awq, fp8) = (report("bf16"), report("awq"), report("fp8"));
        let w = why_weights(&bf16, &awq).expect("AWQ: the same arithmetic");
        assert!(w.starts_with("Why: B's weights take 0.") && w.contains("which fewer bytes do not speed up"), "{w}");
        assert!(diff(&bf16, &awq).summary.contains(&w));
        // FP8 computes at its own, faster rate: not this sentence (its capacity grows).
        assert_eq!(why_weights(&bf16, &fp8), None);
        // The other way round (B the larger weights): nothing to explain here.
        assert_eq!(why_weights(&awq, &bf16), None);
    }

    /// A capacity that is the engine's limit on requests at once is said as such, not explained by the hardware's
    /// ratios (a teacher's trial: llama.cpp's 4 slots on an RTX 5090 read "Why: 1.78 × bandwidth … 1.27 × compute").
    #[test]
    fn why_names_the_engines_limit_where_it_is_the_capacity() {
        let report = |hw: &str| {
            let json = format!(
                r#"{{"hardware":{{"preset":"{hw}"}},"model":{{"preset":"gpt-oss-20b"}},"engine":{{"preset":"llama.cpp"}},"workload":{{"prompt_tokens":4096}},"target":{{"ttft_ms":850}}}}"#
            );
            crate::plan::evaluate(&crate::scenario::Scenario::from_json(&json).unwrap()).unwrap()
        };
        let (a, b) = (report("rtx-4090"), report("rtx-5090"));
        let (ca, cb) = (a.capacity.as_ref().unwrap(), b.capacity.as_ref().unwrap());
        assert_eq!(cb.limited_by, LimitedBy::EngineCap, "{cb:?}");
        assert!(ca.max_users_at_target < cb.max_users_at_target, "{ca:?} {cb:?}");
        let w = why(&a, &b).unwrap();
        assert!(w.starts_with("Why: B's capacity, 4 users, is its engine's limit on requests at once") && !w.contains("bandwidth"), "{w}");
    }

    #[test]
    fn why_names_what_bounds_the_faster_side() {
        let report = |hw: &str, model: &str, prompt: u32, devices: u32| {
            let tpot = match devices {
                8 => 50,
                4 => 18,
                _ => 15,
            };
            let json = format!(
                r#"{{"hardware":{{"preset":"{hw}","devices":{devices}}},"model":{{"preset":"{model}"}},"quantization":{{"weights":"fp8"}},"engine":{{"preset":"vllm"}},"workload":{{"prompt_tokens":{prompt},"output_tokens":400,"distribution":"lognormal"}},"target":{{"tpot_ms":{tpot},"percentile":99}}}}"#
            );
            crate::plan::evaluate(&crate::scenario::Scenario::from_json(&json).unwrap()).unwrap()
        };
        // The meeting's question: H200 has 1.43 × H100's bandwidth and the same compute; with 1,500-token prompts
        // little of a step waits on memory, so its gain is far below 1.43.
        let (a, b) = (report("h100-sxm", "llama-3.1-70b", 1500, 8), report("h200-sxm", "llama-3.1-70b", 1500, 8));
        let w = why(&a, &b).unwrap();
        // (Tensor parallel over eight, the steps' fixed costs — launches, all-reduces — take most of the rest.)
        assert!(w.starts_with("Why: B's server has 1.43 × A's memory bandwidth and 1.00 × its compute;") && !w.contains("reading memory"), "{w}");
        // Computing decides on the serving engines' fitted compute efficiency: said (an operations trial doubted
        // 1.03 ×).
        assert!(w.ends_with("the gain from B's memory may be larger than this — a run of each, or a calibration on B's runs, settles it."), "{w}");
        let gain = b.capacity.as_ref().unwrap().max_users_at_target.unwrap() / a.capacity.as_ref().unwrap().max_users_at_target.unwrap();
        assert!(gain < 1.2 && w.contains(&format!("B has {gain:.2} × A's users at the target per server")), "{gain} {w}");
        // Four devices each and an 18 ms limit: decode reads memory most of the time, and the gain follows the
        // bandwidth. (At 15 ms, near H100's one-user floor since the 16-bit head, `model::quant::head_bits`, H200
        // held 15 users against 9: 1.67 ×, more than its bandwidth explains, and no sentence is right.)
        let (a, b) = (report("h100-sxm", "llama-3.1-70b", 1500, 4), report("h200-sxm", "llama-3.1-70b", 1500, 4));
        assert!(why(&a, &b).is_some_and(|w| w.contains("reading memory")), "{:?}", why(&a, &b));
        // Qwen3-32B on one device at 15 ms: 4 × the users with 1.43 × the bandwidth — the KV cache's size and the
        // limit near the one-user floor decide, not the steps: no sentence.
        let (a, b) = (report("h100-sxm", "qwen3-32b", 1500, 1), report("h200-sxm", "qwen3-32b", 1500, 1));
        assert_eq!(why(&a, &b), None);
        // Another model, or the same hardware: the resources do not explain the gap, no sentence.
        assert_eq!(why(&a, &report("h200-sxm", "llama-3.1-8b", 1500, 1)), None);
        assert_eq!(why(&a, &report("h100-sxm", "qwen3-32b", 1500, 2)), None);
    }

    /// A fleet busy 8 h a day against one busy around the clock: the month's cost per million is a row of its own, and
    /// like the month's cost it restates the hour's, so the summary does not count it (a review: the two had read
    /// alike).
    #[test]
    fn the_month_prices_a_fleet_busy_part_of_the_day() {
        let report = |hours: u32| {
            let json = format!(
                r#"{{"hardware":{{"preset":"h100-sxm"}},"model":{{"preset":"llama-3.1-8b"}},"engine":{{"preset":"vllm"}},"workload":{{"prompt_tokens":512,"output_tokens":256,"load":{{"concurrency":[1,16,64]}}}},"target":{{"preset":"reader"}},"fleet":{{"peak_users":200,"peak_hours_per_day":{hours}}},"cost":{{"device_hour":2.5,"currency":"USD"}}}}"#
            );
            crate::plan::evaluate(&crate::scenario::Scenario::from_json(&json).unwrap()).unwrap()
        };
        let (a, b) = (report(24), report(8));
        let d = diff(&a, &b);
        let month = d.rows.iter().find(|r| r.metric == "fleet_per_million_over_month").expect("the month's row");
        let peak = b.cost.as_ref().and_then(|c| c.fleet_per_million_output_tokens).unwrap();
        // Devices alone, paid 24 h for 8 h of tokens: three times the peak's figure.
        assert!(month.a.is_none() && (month.b.unwrap() / peak - 3.0).abs() < 1e-9, "{month:?} against {peak}");
        assert!(month.lower_is_better() && !d.summary.contains("cost per million output tokens over the month"), "{}", d.summary);
    }

    /// Two sides whose model, format, hardware and engine read alike are told apart by the settings that differ
    /// (a teacher's trial pinned a 16-bit KV cache as A, switched to FP8 and read "A: … B: …" word for word alike),
    /// and the running requests that fit are a row of their own.
    #[test]
    fn sides_alike_are_told_apart_by_their_settings() {
        let report = |kv: &str, prompt: u32| {
            let json = format!(
                r#"{{"hardware":{{"preset":"h100-sxm"}},"model":{{"preset":"llama-3.1-8b"}},"quantization":{{"kv_cache":"{kv}"}},"engine":{{"preset":"vllm"}},"workload":{{"prompt_tokens":{prompt},"output_tokens":256,"load":{{"concurrency":[1,64]}}}},"target":{{"preset":"reader"}}}}"#
            );
            crate::plan::evaluate(&crate::scenario::Scenario::from_json(&json).unwrap()).unwrap()
        };
        let (a, b) = (report("fp16", 512), report("fp8", 512));
        let d = diff(&a, &b);
        assert_eq!(d.a.setting, "KV cache 131.1 KB per token");
        assert_eq!(d.b.setting, "KV cache 65.5 KB per token");
        assert!(d.b.describe().ends_with("with vLLM; KV cache 65.5 KB per token"), "{}", d.b.describe());
        // The headline is the summary's first sentence (the page sets it in bold, the rest plain).
        assert!(d.summary.starts_with(&d.headline) && d.headline.ends_with('.') && d.summary.len() > d.headline.len(), "{}", d.summary);
        let fit = d.rows.iter().find(|r| r.metric == "sequences_fit").unwrap();
        // Half the bytes per token: twice the requests at full length (what memory leaves is the same).
        let (fa, fb) = (fit.a.unwrap(), fit.b.unwrap());
        assert!((fb / fa - 2.0).abs() < 0.01 && fit.b_better() == Some(true), "{fit:?}");
        // Two settings apart: both named, in order; the same scenario twice: nothing to name.
        let d = diff(&a, &report("fp8", 1024));
        assert_eq!(d.b.setting, "KV cache 65.5 KB per token, 1024 prompt + 256 output tokens");
        assert_eq!(diff(&a, &a).a.setting, "");
        // Two llama.cpp setups apart only by their slots are told apart by the requests they run at once (a trial).
        let slots = |np: &str| {
            let json = format!(
                r#"{{"hardware":{{"preset":"rtx-4090"}},"model":{{"preset":"llama-3.1-8b"}},"quantization":{{"weights":"q4_k_m"}},"engine":{{"preset":"llama.cpp"{np}}},"workload":{{"load":{{"concurrency":[1,8]}}}}}}"#
            );
            crate::plan::evaluate(&crate::scenario::Scenario::from_json(&json).unwrap()).unwrap()
        };
        let d = diff(&slots(""), &slots(r#","max_batch":16"#));
        assert_eq!((d.a.setting.as_str(), d.b.setting.as_str()), ("max batch 4", "max batch 16"));
        // What runs at once, not what memory holds, where slots bind (a teacher's trial: 4 slots had been "better" on
        // a memory figure they never use).
        let run = d.rows.iter().find(|r| r.metric == "running_at_once").expect("the requests run at once");
        assert_eq!((run.a, run.b, run.b_better()), (Some(4.0), Some(16.0), Some(true)));
        // Sides that read apart already name nothing more.
        let other = crate::plan::evaluate(
            &crate::scenario::Scenario::from_json(r#"{"hardware":{"preset":"h200-sxm"},"model":{"preset":"llama-3.1-8b"},"quantization":{"kv_cache":"fp8"},"engine":{"preset":"vllm"},"workload":{"prompt_tokens":512,"output_tokens":256,"load":{"concurrency":[1,64]}},"target":{"preset":"reader"}}"#).unwrap(),
        )
        .unwrap();
        assert_eq!(diff(&a, &other).b.setting, "");
        // A gap within one figure's error, on the same hardware and engine: their shared error is said; across
        // devices it is not.
        let same = diff(&a, &b).summary;
        assert!(same.contains(" is within ") && same.contains("Both sides run the same model on the same hardware and engine"), "{same}");
        assert!(!diff(&a, &other).summary.contains("Both sides run the same model"));
        let moe = crate::plan::evaluate(
            &crate::scenario::Scenario::from_json(r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"gpt-oss-20b"},"engine":{"preset":"vllm"},"workload":{"prompt_tokens":512,"output_tokens":256,"load":{"concurrency":[1,64]}},"target":{"preset":"reader"}}"#).unwrap(),
        )
        .unwrap();
        assert!(!diff(&a, &moe).summary.contains("Both sides run the same model"));
        // The workload's other settings tell sides apart too (lengths that vary, the operating point's share, the
        // fleet's peak: each had read "A: … B: …" alike).
        let with = |extra: &str, target: &str| {
            let json = format!(
                r#"{{"hardware":{{"preset":"h100-sxm"}},"model":{{"preset":"llama-3.1-8b"}},"engine":{{"preset":"vllm"}},"workload":{{"prompt_tokens":512,"output_tokens":256,"load":{{"concurrency":[1,64]}}{extra}}},"target":{{"preset":"reader"{target}}}}}"#
            );
            crate::plan::evaluate(&crate::scenario::Scenario::from_json(&json).unwrap()).unwrap()
        };
        let plain = with(r#","distribution":"fixed""#, "");
        let d = diff(&plain, &with(r#","distribution":"lognormal","spread":0.8"#, ""));
        assert_eq!((d.a.setting.as_str(), d.b.setting.as_str()), ("fixed lengths", "lognormal lengths (CV 0.8)"));
        let d = diff(&plain, &with(r#","distribution":"fixed""#, r#","operating_fraction":0.5"#));
        assert_eq!(d.b.setting, "operating point at 50 % of the capacity");
        assert!(d.a.setting.starts_with("operating point at ") && d.a.setting != d.b.setting, "{}", d.a.setting);
    }

    #[test]
    fn rows_by_hand() {
        let r = row("x", "x", "u", Some(96.0), Some(120.0));
        assert_eq!((r.delta, r.ratio), (Some(24.0), Some(1.25)));
        let r = row("x", "x", "u", Some(0.0), Some(3.0));
        assert_eq!((r.delta, r.ratio), (Some(3.0), None));
        let r = row("x", "x", "u", None, Some(3.0));
        assert_eq!((r.delta, r.ratio), (None, None));
        let r = row("x", "x", "u", Some(f64::NAN), Some(3.0));
        assert_eq!((r.a, r.delta), (None, None));
    }

    #[test]
    fn the_summary_names_the_headline_the_bottom_line_and_the_count() {
        let rows = vec![
            row("per_user_tps", "per-user output", "tok/s", Some(40.0), Some(35.5)),
            row("replicas", "servers", "servers", Some(22.0), Some(20.0)),
            row("fleet_per_hour", "the fleet's cost", "", Some(1408.0), Some(1600.0)),
            row("fleet_kw", "power", "kW", Some(30.8), Some(28.0)),
            row("joules_per_output_token", "", "J", Some(0.5), Some(0.5)),
        ];
        assert_eq!(
            summary(&rows, "USD", None),
            "B needs 20 servers against A's 22, costing USD 1600 an hour against 1408 and drawing 28 kW against 31: B is better on 2 of the 4 figures that differ, A on per-user output and the fleet's cost; A's fleet costs 12 % less an hour."
        );
        // Bought too: the purchase's gap is named apart from the hour's (a pre-sales trial read 19 % an hour as the
        // purchase, 21 %).
        let mut bought = rows.clone();
        bought.push(row("fleet_purchase", "buying the fleet (once)", "USD", Some(960_000.0), Some(1_216_000.0)));
        assert!(
            summary(&bought, "USD", None).ends_with("; A's fleet costs 12 % less an hour and 21 % less to buy."),
            "{}",
            summary(&bought, "USD", None)
        );
        bought.last_mut().unwrap().b = Some(900_000.0);
        assert!(
            summary(&bought, "USD", None).ends_with("; A's fleet costs 12 % less an hour, B's 6 % less to buy."),
            "{}",
            summary(&bought, "USD", None)
        );
        // Power without a cost on either side: a comma, not "and".
        let rows = vec![row("replicas", "", "", Some(22.0), Some(20.0)), row("fleet_kw", "", "kW", Some(31.0), Some(28.0))];
        assert_eq!(
            summary(&rows, "", None),
            "B needs 20 servers against A's 22, drawing 28 kW against 31: B is better on every figure that differs."
        );
        // One server, no fleet cost, B better on everything; then nothing to compare.
        let rows = vec![row("replicas", "", "", Some(2.0), Some(1.0)), row("fleet_kw", "", "kW", None, Some(1.0))];
        assert_eq!(summary(&rows, "", None), "B needs 1 server against A's 2: B is better on every figure that differs.");
        // Servers of different sizes: the devices too (the meeting's 23 × 2 H100 against 50 × 1 H200).
        let rows = vec![row("replicas", "", "", Some(23.0), Some(50.0)), row("devices_total", "", "", Some(46.0), Some(50.0))];
        assert_eq!(summary(&rows, "", None), "B needs 50 servers against A's 23 (50 devices against 46): A is better on every figure that differs.");
        // Devices bought in whole nodes beyond the servers' own: what the servers run on is said (a pre-sales trial).
        let rows = vec![row("replicas", "", "", Some(25.0), Some(16.0)), row("devices_total", "", "", Some(32.0), Some(16.0))];
        assert_eq!(
            summary(&rows, "", Some((1.0, 1.0))),
            "B needs 16 servers against A's 25 (16 devices against 32 in whole nodes, A's servers running on 25): B is better on every figure that differs."
        );
        // As many servers: said so, and the cheaper fleet first (a pre-sales trial).
        let rows = vec![
            row("replicas", "servers", "servers", Some(2.0), Some(2.0)),
            row("max_users_at_target", "users at the target", "users", Some(170.0), Some(139.0)),
            row("fleet_per_hour", "the fleet's cost", "", Some(41.44), Some(33.69)),
        ];
        assert_eq!(
            summary(&rows, "USD", None),
            "B needs 2 servers, as A does, costing USD 34 an hour against 41; B's fleet costs 19 % less an hour with as many servers: B is better on 1 of the 2 figures that differ, A on users at the target."
        );
        let rows = vec![row("max_users_at_target", "", "", Some(12.0), Some(12.0))];
        assert_eq!(summary(&rows, "", None), "B holds 12 users at the target against A's 12: the compared figures are equal.");
        assert!(summary(&[], "", None).starts_with("Neither side"));
        let one = [row("per_user_tps", "", "tok/s", Some(40.0), None), row("joules_per_output_token", "", "J", Some(0.5), Some(0.4))];
        assert_eq!(summary(&one, "", None), "Only A has an operating point.");
        // Faster users at a lighter operating point: the load is said with the figure (TP8 against DP attention).
        let rows = vec![
            row("per_user_tps", "per-user output at the operating point", "tok/s", Some(22.7), Some(27.5)),
            row("operating_users", "users at the operating point", "users", Some(40.0), Some(18.0)),
            row("replicas", "servers", "servers", Some(4.0), Some(9.0)),
        ];
        assert_eq!(
            summary(&rows, "", None),
            "B needs 9 servers against A's 4: A is better on 2 of the 3 figures that differ, B on per-user output at the operating point (at 18 users against A's 40)."
        );
    }

    #[test]
    fn servers_of_different_sizes_are_weighed_per_device() {
        // 2 servers of 1 H100 at 120 users each against 1 of 2 at 209: 104.5 users per device against 120.
        let rows = vec![
            row("replicas", "", "", Some(2.0), Some(1.0)),
            row("devices_total", "", "", Some(2.0), Some(2.0)),
            row("max_users_at_target", "", "", Some(120.0), Some(209.0)),
        ];
        assert_eq!(
            margin(&rows, 70.0).unwrap(),
            "The gap in users at the target per device, A's 15 % above B's, is within one figure's validated throughput error under load (÷ / × 1.70): a run of each settles it."
        );
    }

    #[test]
    fn devices_bought_in_whole_nodes_name_the_count_weighed() {
        // 26 servers of 2 × H100 rented (52 devices) against 57 of 1 × H200 bought in 8 nodes of 8 (64): the gap is
        // the devices the servers run on, 57 against 52 — said, not left beside "(52 devices against 64)".
        let rows = vec![row("replicas", "", "", Some(26.0), Some(57.0)), row("devices_total", "", "", Some(52.0), Some(64.0))];
        assert_eq!(
            margin_as(&rows, 70.0, true, Some((2.0, 1.0))).unwrap(),
            "The gap in devices the servers run on (52 against 57), B's 10 % above A's, is within one figure's validated throughput error under load (÷ / × 1.70): a run of each settles it."
        );
        // Without idle devices the count is the fleet's own, as the brackets give it.
        let rented = vec![row("replicas", "", "", Some(26.0), Some(57.0)), row("devices_total", "", "", Some(52.0), Some(57.0))];
        assert!(margin_as(&rented, 70.0, true, Some((2.0, 1.0))).unwrap().starts_with("The gap in devices, B's 10 % above A's"));
    }

    #[test]
    fn as_many_servers_of_other_sizes_are_weighed_by_capacity_not_devices() {
        // An operations trial: 1 server of 2 × H100 against 1 of 4 × L40S read "the gap in devices, B's 2.00 × A's,
        // is beyond … error" — the servers' sizes, which no error moves.
        let rows = vec![
            row("replicas", "", "", Some(1.0), Some(1.0)),
            row("devices_total", "", "", Some(2.0), Some(4.0)),
            row("max_request_rate_at_target", "", "", Some(2.48), Some(0.41)),
        ];
        let m = margin_as(&rows, 63.0, true, Some((2.0, 4.0))).unwrap();
        assert!(m.starts_with("The gap in req/s at the target per device, A's 12.10 × B's"), "{m}");
        // More servers on one side: the devices weigh the fleets, as before.
        let rows = vec![row("replicas", "", "", Some(1.0), Some(2.0)), row("devices_total", "", "", Some(2.0), Some(8.0))];
        assert!(margin_as(&rows, 63.0, true, Some((2.0, 4.0))).unwrap().starts_with("The gap in devices, B's 4.00 × A's"));
    }

    #[test]
    fn the_same_fleet_is_weighed_by_the_capacity_behind_it() {
        // 32 devices each (4 servers of 8 × H100 against 4 of 8 × H200): the users at the target decide.
        let rows = vec![row("devices_total", "", "", Some(32.0), Some(32.0)), row("max_users_at_target", "", "", Some(208.0), Some(209.0))];
        assert_eq!(
            margin(&rows, 70.0).unwrap(),
            "The gap in users at the target, B's 1 % above A's, is within one figure's validated throughput error under load (÷ / × 1.70): a run of each settles it."
        );
        assert_eq!(margin(&rows[..1], 70.0), None, "nothing differs: nothing to weigh");
    }

    #[test]
    fn the_margin_weighs_the_headline_gap_against_the_band() {
        // 26 against 23 servers of one size: a 13 % gap inside ÷ / × 1.75 (shown as 1.8).
        let rows = vec![row("per_user_tps", "", "", Some(40.0), Some(20.0)), row("devices_total", "", "", Some(23.0), Some(26.0))];
        let m = margin(&rows, 75.0).unwrap();
        assert_eq!(
            m,
            "The gap in devices, B's 13 % above A's, is within one figure's validated throughput error under load (÷ / × 1.75): a run of each settles it."
        );
        // 50 against 23: 2.2 × is wider. Servers of different sizes are weighed by their devices (57 × 1 against
        // 26 × 2: 10 %).
        let rows = vec![row("devices_total", "", "", Some(23.0), Some(50.0))];
        assert_eq!(
            margin(&rows, 75.0).unwrap(),
            "The gap in devices, B's 2.17 × A's, is beyond one figure's validated throughput error under load (÷ / × 1.75)."
        );
        // A gap that would round like the band is still called within it (1.74 × against ÷ / × 1.75).
        assert!(margin(&[row("devices_total", "", "", Some(100.0), Some(174.0))], 75.0)
            .unwrap()
            .starts_with("The gap in devices, B's 74 % above A's, is within"));
        let rows = vec![row("replicas", "", "", Some(26.0), Some(57.0)), row("devices_total", "", "", Some(52.0), Some(57.0))];
        assert!(margin(&rows, 75.0).unwrap().starts_with("The gap in devices, B's 10 % above A's, is within"));
        // Without servers, the capacity is the headline (B's 30 users against A's 20: 1.5 × inside ÷ / × 2.3).
        let rows = vec![row("per_user_tps", "", "", Some(10.0), Some(50.0)), row("max_users_at_target", "", "", Some(20.0), Some(30.0))];
        assert!(margin(&rows, 130.0).unwrap().starts_with("The gap in users at the target, B's 50 % above A's, is within"));
        // Equal, missing or zero headlines: nothing to weigh.
        assert_eq!(margin(&[row("devices_total", "", "", Some(3.0), Some(3.0))], 75.0), None);
        assert_eq!(margin(&[row("devices_total", "", "", None, Some(3.0))], 75.0), None);
        assert_eq!(margin(&[], 75.0), None);
    }
}
