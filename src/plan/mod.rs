//! Planning: from a [`Scenario`] to a [`Report`].
//!
//! 1. Single stream on an idle server: the ceiling (spec bandwidth ÷ bytes read per token), the predicted decode
//!    rate over the workload's output (efficiency, KV reads, overheads), prefill rate and TTFT.
//! 2. Memory: weights, KV bytes per token, how many sequences of the workload's context fit.
//! 3. The load sweep: each level is simulated ([`crate::sim`]) for P50/P95/P99 TTFT, TPOT, ITL and E2E; the
//!    analytic steady state ([`analytic_point`]) is kept beside it as a cross-check.
//! 4. Markers: the **peak** (highest system TPS seen; without a level, the highest the memory and max batch
//!    allow), the **knee** (the load where system TPS reaches 90 % of the highest, read between the levels
//!    around it and evaluated there: beyond it more users mostly add latency; none when the levels end while it
//!    still climbs), the **peak usable** load (highest level meeting the target at its percentile, no
//!    saturation, < 1 % errors; [`target`]) and the **operating point** at `operating_fraction` (default
//!    60 %, range 50–70 %) of the load there (users or requests/s; [`operating_point`] says why not of the
//!    throughput). Headroom below the peak absorbs bursts: at 60 % of capacity a queue's waiting time is a
//!    fraction of what it is at 90 %.
//! 5. The **capacity** at the target, resolved between the levels with extra simulated levels ([`capacity`]),
//!    and the operating point below it, so neither depends on the level grid.
//! 6. For the meeting: replicas for a peak load ([`fleet`]), power and energy per token ([`energy`]), cost per
//!    token from the prices given ([`cost`]), and two reports side by side ([`diff()`]).
//!
//! Use-case modes phrase the verdict: `reader` (per-user tok/s against a reading floor), `agent` (time to a
//! finished multi-step task = steps × (TTFT + output tokens × TPOT) at the percentile, with an optional
//! `target.task_s`), `batch` (system TPS, latency free).

pub mod calibrate;
pub mod capacity;
pub mod charts;
pub mod cost;
pub mod diff;
pub mod energy;
pub mod export;
pub mod fleet;
pub mod readout;
pub mod report;
pub mod reproduce;
pub mod target;

pub use diff::{diff, Diff, DiffRow};
pub use operating_point::load_share;
mod band;
mod levels;
mod operating_point;
mod steady_state;
mod sweep;
mod verdict;
mod warnings;

pub use band::*;
pub use levels::*;
use operating_point::*;
pub use steady_state::*;
pub use sweep::*;
pub use verdict::*;
pub use warnings::{Warning, WarningKind};

use crate::model::prefill;
use crate::model::roofline::{Bound, Deployment, StepLoad};
use crate::scenario::{
    Band, Capacity, Distribution, LimitedBy, Load, LoadPoint, Marker, Memory, Mode, Pcts, Report, Resolved, Scenario, ScenarioError, SingleStream,
    Workload, VERSION,
};
use crate::sim::{self, Arrivals, LengthDist, SimConfig, Targets};

/// Evaluates a scenario.
///
/// # Errors
/// The scenario's first invalid field.
pub fn evaluate(s: &Scenario) -> Result<Report, ScenarioError> {
    Ok(evaluate_resolved(&s.resolve()?))
}

/// Evaluates a scenario beside imported runs: automatic concurrency levels also cover the concurrencies of the
/// serving runs (at most 64 levels), so the curves reach the measured points. The page's one entry.
///
/// # Errors
/// The scenario's first invalid field.
pub fn evaluate_with(s: &Scenario, runs: &[crate::import::Measurement]) -> Result<Report, ScenarioError> {
    let mut r = s.resolve()?;
    levels::widen_for_runs(&mut r, runs);
    Ok(evaluate_resolved(&r))
}

/// Only the analytic parts (single stream, memory, analytic sweep): microseconds, for live typing.
///
/// # Errors
/// The scenario's first invalid field.
pub fn evaluate_analytic(s: &Scenario) -> Result<Report, ScenarioError> {
    let r = s.resolve()?;
    Ok(build_report(&r, analytic_sweep(&r), &|x| analytic_level(&r, x), &analytic_operating))
}

/// An evaluation done in pieces, for a page that must never block: the analytic report at once, then one
/// simulated load level per [`Staged::step`] (the page runs a few per task and drops the job when the inputs
/// change), then [`Staged::finish`]. Stepped to the end and finished, it is exactly [`evaluate_with`].
/// With a fleet, the fleet's alternatives (other device counts per replica) are simulated in the same pieces
/// after the scenario's own levels.
#[derive(Debug, Clone)]
pub struct Staged {
    r: Resolved,
    levels: Vec<f64>,
    sweep: Vec<LoadPoint>,
    /// The fleet's alternatives: each scenario, its levels and the levels simulated so far.
    alts: Vec<(Resolved, Vec<f64>, Vec<LoadPoint>)>,
}

impl Staged {
    /// Resolves the scenario and its load levels (widened for the imported runs, as [`evaluate_with`] does).
    ///
    /// # Errors
    /// The scenario's first invalid field.
    pub fn new(s: &Scenario, runs: &[crate::import::Measurement]) -> Result<Self, ScenarioError> {
        let mut r = s.resolve()?;
        levels::widen_for_runs(&mut r, runs);
        let alts = fleet_alternatives(&r)
            .into_iter()
            .map(|a| {
                let l = resolved_levels(&a);
                (a, l, Vec::new())
            })
            .collect();
        let levels = resolved_levels(&r);
        Ok(Self { sweep: Vec::with_capacity(levels.len()), r, levels, alts })
    }

    /// The report with the analytic sweep (microseconds): what the page shows while the levels are simulated.
    #[must_use]
    pub fn analytic(&self) -> Report {
        build_report(&self.r, analytic_sweep(&self.r), &|x| analytic_level(&self.r, x), &analytic_operating)
    }

    /// Simulates the next level (the scenario's, then its fleet alternatives'); whether every level is done.
    pub fn step(&mut self) -> bool {
        if let Some(&x) = self.levels.get(self.sweep.len()) {
            self.sweep.push(simulate_level(&self.r, x));
        } else if let Some((a, levels, sweep)) = self.alts.iter_mut().find(|(_, l, s)| s.len() < l.len()) {
            sweep.push(simulate_level(a, levels[sweep.len()]));
        }
        self.done()
    }

    /// Whether every level is simulated.
    #[must_use]
    pub fn done(&self) -> bool {
        let (k, n) = self.progress();
        k >= n
    }

    /// Levels simulated and levels in all.
    #[must_use]
    pub fn progress(&self) -> (usize, usize) {
        let alts = self.alts.iter().fold((0, 0), |(k, n), (_, l, s)| (k + s.len(), n + l.len()));
        (self.sweep.len() + alts.0, self.levels.len() + alts.1)
    }

    /// Every simulated level, the scenario's then its fleet alternatives', packed as numbers
    /// ([`report::LoadPoint::pack`]): what the page's Web Worker sends back.
    #[must_use]
    pub fn packed(&self) -> Vec<f64> {
        let mut out = Vec::with_capacity(self.progress().1 * report::PACKED);
        for p in self.sweep.iter().chain(self.alts.iter().flat_map(|(_, _, s)| s)) {
            p.pack(&mut out);
        }
        out
    }

    /// Takes the levels [`Self::packed`] wrote for the same scenario (simulated elsewhere: the page's Web Worker);
    /// false, and nothing taken, when their count or their loads are not this scenario's.
    pub fn unpack(&mut self, v: &[f64]) -> bool {
        if v.len() != self.progress().1 * report::PACKED {
            return false;
        }
        let points: Vec<LoadPoint> = v.chunks_exact(report::PACKED).map(LoadPoint::unpack).collect();
        // Each level at its own load, the scenario's then the alternatives' (else the levels are another scenario's).
        let loads = self.levels.iter().chain(self.alts.iter().flat_map(|(_, l, _)| l));
        if !points.iter().zip(loads).all(|(p, x)| p.load() == Some(*x)) {
            return false;
        }
        let mut points = points.into_iter();
        self.sweep = points.by_ref().take(self.levels.len()).collect();
        for (_, levels, sweep) in &mut self.alts {
            *sweep = points.by_ref().take(levels.len()).collect();
        }
        true
    }

    /// Simulates what is left and builds the report (with the capacity search, fleet, energy and cost).
    #[must_use]
    pub fn finish(mut self) -> Report {
        while !self.step() {}
        let (r, alts) = (&self.r, &self.alts);
        // The fleet asks for the alternatives `Staged::new` prepared (the same neighbour device counts).
        let alt_op = |a: &Resolved| {
            let devices = a.deployment.hardware.devices;
            alts.iter().find(|(x, _, _)| x.deployment.hardware.devices == devices).and_then(|(x, _, sweep)| simulated_operating(x, sweep))
        };
        build_report(r, self.sweep, &|x| simulate_level(r, x), &alt_op)
    }
}

/// The scenarios of the fleet's alternatives (none without a fleet).
fn fleet_alternatives(r: &Resolved) -> Vec<Resolved> {
    if r.fleet.is_none() {
        return Vec::new();
    }
    fleet::neighbour_devices(r).into_iter().map(|k| fleet::alternative(r, k)).collect()
}

/// The pools of a disaggregated deployment as messages name them, before a colon: what `weights_short` prefixes
/// and `readout::no_fit` finds in the warning.
pub(crate) const POOLS: [&str; 2] = ["the prefill pool: ", "the decode pool: "];

/// The deployment whose weights do not fit, with its pool's name before a colon when it is one pool of a
/// disaggregated setup ("the decode pool: "); `None` when every pool holds them.
pub(crate) fn weights_short(r: &Resolved) -> Option<(Deployment, &'static str)> {
    let pools = r.pools().map_or_else(|| vec![(r.deployment.clone(), "")], |(pre, dec)| vec![(pre, POOLS[0]), (dec, POOLS[1])]);
    pools.into_iter().find(|(p, _)| !p.fits())
}

/// The fewest devices of this kind, split as this deployment is, whose memory holds the weights and one sequence
/// of the workload's longest context (a colocated deployment whose weights do not fit; powers of two, as tensor
/// parallelism splits them, up to 128), by the test the fleet's larger servers take (`fleet::fits_at`: the split
/// the count allows, the engine's reserve at that count). An MoE trial: DeepSeek-V3 on one H100 was refused with
/// "add devices" and no count.
pub(crate) fn devices_to_hold(r: &Resolved) -> Option<u32> {
    if r.pools().is_some() {
        return None;
    }
    let now = r.deployment.hardware.devices;
    [2u32, 4, 8, 16, 32, 64, 128].into_iter().filter(|&n| n > now).find(|&n| fleet::fits_at(r, n))
}

/// Evaluates a resolved scenario (simulated sweep).
#[must_use]
pub fn evaluate_resolved(r: &Resolved) -> Report {
    build_report(r, simulated_sweep(r), &|x| simulate_level(r, x), &|a| simulated_operating(a, &simulated_sweep(a)))
}

/// The simulated sweep alone, without the capacity search, fleet, energy or cost: for callers that need only
/// the levels (a benchmark comparison at one load, timings).
#[must_use]
pub fn sweep_levels(r: &Resolved) -> Vec<LoadPoint> {
    simulated_sweep(r)
}

/// A latency at the lightest load within this share of its limit leaves the capacity at the mercy of small changes.
pub const THIN_MARGIN: f64 = 0.85;

/// The warning for a target the lightest load already nearly fills (a trial: P90 TTFT ≤ 2 s for 2,000-token
/// lognormal prompts on 2 × RTX 4090, where one user alone reads its P90 prompt in 1.86 s; the capacity came out 7
/// users without pauses and 1 with half a second of think time — random arrivals meet another prompt's step now
/// and then, and 7 % of room does not absorb it). `None` when nothing meets the target or there is room.
fn thin_margin(r: &Resolved, sweep: &[LoadPoint], met: bool) -> Option<Warning> {
    let p = sweep.iter().filter(|p| !p.saturated).min_by(|a, b| readout::load_of(a).total_cmp(&readout::load_of(b)))?;
    let (by, v, l) = target::nearest_limit(r, p)?;
    // Only where the lightest level is about one request at a time: a sweep that starts at 64 users is not the
    // room a single request leaves (a review: 88 % of the limit at 64 users read as "one user's own decode").
    if !met || !target::meets(r, p) || v < THIN_MARGIN * l || p.mean_batch > 1.5 {
        return None;
    }
    let g = readout::group;
    let pct = r.target.percentile;
    let more = verdict::more_devices(r);
    let (what, fills, faster) = match by {
        LimitedBy::Ttft => (format!("{pct} TTFT"), "reading the prompts alone nearly fills it", format!("faster prefill ({more}a faster device)")),
        LimitedBy::Tpot => (format!("{pct} TPOT"), "one user's own decode nearly fills it", format!("faster decode ({more}fewer bits per weight)")),
        _ => ("task time".to_string(), "the steps alone nearly fill it", "a faster server".to_string()),
    };
    let unit = if by == LimitedBy::Task { " s" } else { " ms" };
    Some(Warning::new(
        WarningKind::ThinMargin,
        format!(
            "the target leaves little room: at the lightest load, {}, the {what} is already {}{unit} of the {}{unit} allowed ({:.0} %) — {fills} — so the capacity at this target swings with small changes in the load's pattern (users' pauses, the lengths' spread, arrivals that bunch); a looser limit, or {faster}, gives it room",
            load_label(&marker(p, pct)),
            g(v),
            g(l),
            100.0 * v / l
        ),
    ))
}

/// Levels past the capacity that meet the target though a lighter level breaks it (`capacity`: the capacity lies
/// below the first level that breaks it): said, so the table's ✓ there does not read as room.
pub(crate) fn edge_warning(sweep: &[LoadPoint], cap: Option<&Capacity>) -> Option<Warning> {
    // The first level that breaks the target past the capacity, or the lightest level where none was found.
    let at = cap.and_then(|c| c.at.load()).unwrap_or(0.0);
    let broken = sweep.iter().find(|p| readout::load_of(p) > at && !p.meets_target)?;
    let past: Vec<&LoadPoint> = sweep.iter().filter(|p| p.meets_target && readout::load_of(p) > readout::load_of(broken)).collect();
    let heaviest = past.last()?;
    let label = |p: &LoadPoint| load_words(p.concurrency, p.request_rate);
    let taken = match cap {
        Some(c) => format!("the capacity is taken below the first load that breaks it ({}), not at the last that meets it", load_label(&c.at)),
        None => "no capacity is taken: the lightest load already breaks it".to_string(),
    };
    Some(Warning::new(
        WarningKind::Edge,
        format!(
            "at {} the target is met though at {}, a lighter load, it is not: the target sits at the edge of what this server does, where small differences in the simulated traffic decide; {taken}",
            if past.len() > 1 { format!("{} loads up to {}", past.len(), label(heaviest)) } else { label(heaviest) },
            label(broken),
        ),
    ))
}

/// The knee's load: where the levels' system TPS first reaches 90 % of `max_ok` (their highest, saturated levels
/// left out), read between the level below it and the first at or above it — linear in TPS, geometric in the
/// load (the charts' log axis), a concurrency rounded up to whole users — and evaluated there with `level`. Taking
/// the first level at or above (until 2026-12-05) moved the knee with the grid: a teacher's trial of Llama-3.1-8B
/// on one H100 read 64 users on levels up to 128, 128 with 256 added and 80 on a finer grid, where the crossing
/// sits near 68 on each.
fn knee_point(sweep: &[LoadPoint], max_ok: f64, level: &dyn Fn(f64) -> LoadPoint) -> Option<LoadPoint> {
    let goal = 0.9 * max_ok;
    let ok: Vec<&LoadPoint> = sweep.iter().filter(|p| !p.saturated).collect();
    let i = ok.iter().position(|p| p.system_tps >= goal)?;
    let b = ok[i];
    let Some(a) = i.checked_sub(1).map(|j| ok[j]) else { return Some(b.clone()) };
    let (xa, xb) = (readout::load_of(a), readout::load_of(b));
    if !(xa > 0.0 && xb > xa && b.system_tps > a.system_tps) {
        return Some(b.clone());
    }
    let t = ((goal - a.system_tps) / (b.system_tps - a.system_tps)).clamp(0.0, 1.0);
    let mut x = xa * (xb / xa).powf(t);
    // Whole users, up: the nearest could fall short of the 90 % (llama.cpp's 3.48 users rounded to 3 read 350 of 442
    // tok/s, 79 %, a review).
    if b.concurrency.is_some() {
        x = x.ceil().clamp(xa, xb);
    }
    // A level already there is read as it is.
    Some(if x >= xb {
        b.clone()
    } else if x <= xa {
        a.clone()
    } else {
        level(x)
    })
}

/// `level` evaluates one more load level with the sweep's settings (the capacity search uses it); `alt_op` the
/// operating level of a fleet alternative the same way (the sweep's kind: analytic or simulated).
pub(super) fn build_report(r: &Resolved, sweep: Vec<LoadPoint>, level: &dyn Fn(f64) -> LoadPoint, alt_op: &fleet::AltOp<'_>) -> Report {
    let d = &r.deployment;
    let w = &r.workload;
    // Disaggregated: one user decodes on the decode pool and gets its first token from the prefill pool (the
    // whole deployment's bandwidth had been the ceiling: 431 tok/s for one H100's 215).
    let ss = match r.pools() {
        Some((pre, dec)) => {
            let first = single_stream(&pre, w);
            SingleStream {
                ttft_ms: first.ttft_ms,
                prefill_tps: first.prefill_tps,
                frontend_ms: first.frontend_ms,
                devices: d.hardware.devices,
                ..single_stream(&dec, w)
            }
        }
        None => single_stream(d, w),
    };
    // Disaggregated: the decode pool's memory, which keeps every running sequence's cache (the whole
    // deployment's had been shown: 127 GB of KV space and 222 sequences for 1 + 1 H100s whose decode pool holds
    // half; and copies over all devices that are no pool's, "kept on 2 devices" for 4 + 8 H100s). It fits when
    // both pools hold the weights.
    let mem = match r.pools() {
        Some((pre, dec)) => {
            let m = memory(&dec, w);
            Memory { fits: pre.fits() && m.fits, decode_pool: Some((dec.hardware.devices, d.hardware.devices)), ..m }
        }
        None => memory(d, w),
    };
    // Each level's mean prompt tokens per step: requests/s × the prompt each prefills × the mean gap between steps
    // (an estimate: exact for a closed loop that keeps the engine busy; a lightly loaded open loop's busy steps
    // carry more, preemption stalls make it count more). A disaggregated decode pool's steps carry none.
    let prompts = w.uncached_prompt();
    // Disaggregated, the decode pool's devices make the tokens: its roof, as the single-stream ceiling above (the
    // whole deployment's bandwidth had been printed beside one device's ceiling, 6,700 GB/s against 215 tok/s for 1 +
    // 1 H100s); a prompt chunk's point only where the prefill pool is as large, on the same roof.
    let roofline = match r.pools() {
        Some((pre, dec)) => {
            let mut f = roofline(&dec, w, sweep.iter().map(|p| (p.mean_batch, 0.0)));
            if pre.hardware.devices != dec.hardware.devices {
                f.prefill = None;
            }
            f
        }
        None => roofline(d, w, sweep.iter().map(|p| (p.mean_batch, p.request_throughput * prompts * p.itl_ms.mean / 1e3))),
    };
    let mut warnings = warnings::scenario_warnings(r, &mem, &sweep);
    let pct = r.target.percentile;
    let marker = |p: &LoadPoint| marker(p, pct);
    let (capacity, cap_point, op) = capacity_and_operating(r, &sweep, &mem, level);
    // The knee: where system TPS first reaches 90 % of the highest (levels not saturated; `knee_point`); past it,
    // more load mostly adds latency.
    // Unless the levels end while it still climbs: when the last unsaturated level has the highest throughput and
    // the step to it still grows system TPS with an elasticity of 0.25 or more (d ln TPS ÷ d ln load: a doubling
    // of the load would still add ≥ 19 %), the levels stop short of the knee, and 90 % of their last figure marks
    // nothing (a 1–64-user sweep of DeepSeek-V3 on 8 × H200 put a "knee" at 55 users on a curve rising ~1:1).
    // None is marked; a warning says so.
    // Read on every load simulated — the levels and the capacity and operating loads the search added — so that
    // the knee is 90 % of the peak the report names (an audit: a knee at 51 users, 90 % of the levels' highest,
    // 2,722 tok/s at 256 users where preemptions thrash, was 84 % of the peak of 2,952 at 105 users, a level of the
    // capacity search; and the operating point was said to lie past it).
    let mut loads: Vec<LoadPoint> = sweep.iter().chain(cap_point.iter()).chain(op.iter().map(|(_, p)| p)).cloned().collect();
    loads.sort_by(|a, b| readout::load_of(a).total_cmp(&readout::load_of(b)));
    loads.dedup_by(|a, b| readout::load_of(a) == readout::load_of(b));
    let max_ok = loads.iter().filter(|p| !p.saturated).map(|p| p.system_tps).fold(0.0, f64::max);
    let mut last = loads.iter().rev().filter(|p| !p.saturated);
    let rising = match (last.next(), last.next()) {
        (Some(b), Some(a)) => {
            let (xa, xb) = (readout::load_of(a), readout::load_of(b));
            let e = (b.system_tps / a.system_tps).ln() / (xb / xa).ln();
            (b.system_tps >= max_ok && xb > xa && a.system_tps > 0.0 && e >= 0.25).then(|| marker(b))
        }
        _ => None,
    };
    let knee_level = if max_ok > 0.0 && rising.is_none() { knee_point(&loads, max_ok, level) } else { None };
    let knee = knee_level.as_ref().map(marker);
    // The peak: the highest system TPS of every load simulated — the levels, and the capacity and operating
    // loads the search added (a sweep of 1, 16 and 64 users had put the peak at 64 below the operating point at
    // 95 and the capacity at 159; rates of 0.5–50 req/s a peak of 153 tok/s under a capacity of 20,330).
    // (The knee's own load too: on levels of 1, 8 and 512 users it read 1,991 tok/s above a peak of 1,920, a review.)
    let peak_point = sweep.iter().chain(cap_point.iter()).chain(op.iter().map(|(_, p)| p)).chain(knee_level.iter()).fold(
        None::<&LoadPoint>,
        |best, p| match best {
            Some(b) if b.system_tps >= p.system_tps => Some(b),
            _ => Some(p),
        },
    );
    // An offline load's peak is its level too: the finite job in waves (`offline_job`, what trtllm-bench measures and
    // the batched validation scores) decodes between its waves' prefills, so its per-user speed is another
    // scheduler's — an audit read "peak: 371 users, 20.2 tok/s each" beside the one level's 393 users at 5.2, whose
    // continuous batching interleaves the next requests' prompts with every decode; the job only where no level is.
    let peak = match peak_point {
        Some(p) => marker(p),
        None if matches!(w.load, Load::Offline) => offline_job(d, w, f64::from(w.requests)),
        None => offline_marker(d, w),
    };
    let peak_point = peak_point.cloned();
    if let Some(m) = rising {
        // Higher levels that saturated (an unbounded queue) put the knee between the two: levels are needed there,
        // not above.
        let x = m.load().unwrap_or(0.0);
        let next = sweep.iter().filter(|p| p.saturated && readout::load_of(p) > x).min_by(|a, b| readout::load_of(a).total_cmp(&readout::load_of(b)));
        let add = next.map_or_else(
            || "add higher levels".to_string(),
            |n| format!("the next level, {}, saturates: add levels between", load_label(&marker(n))),
        );
        warnings.push(Warning::new(
            WarningKind::NoKnee,
            format!("no saturation knee within the levels: system tok/s still climbs at {} ({add})", load_label(&m)),
        ));
    }
    let peak_usable_idx = operating_point::peak_usable_index(&sweep);
    // Fixed-length users of a closed loop finish together and send together: each wave's prompts are prefilled at
    // once, and TTFT grows with the users (a benchmark's pattern; `sim`'s notes). Real users' lengths vary and
    // they drift apart, so a TTFT-bound capacity here understates what a server holds for real traffic.
    // A fleet sized on them is too (a new user's trial: 8 × H100 for 500 users of a 70B model took 4 servers with
    // fixed lengths and 5 with lognormal ones, and the best server size flipped), whatever limits the capacity.
    // (A spread of 0 is fixed lengths under another name.)
    // (Users who think between requests drift apart by their pauses.)
    let lock_step = (w.distribution == crate::scenario::Distribution::Fixed || w.spread <= 0.0)
        && !matches!(w.load, Load::RequestRate(_) | Load::Offline)
        && w.think_time_s <= 0.0;
    // (Past the sequences the engine runs at once the TTFT is the wait for a slot, not a wave's prefill.)
    let ttft_lock_step = lock_step
        && capacity.as_ref().is_some_and(|c| c.limited_by == LimitedBy::Ttft && c.max_users_at_target.is_none_or(|u| u <= mem.max_concurrency));
    if ttft_lock_step {
        warnings.push(Warning::new(
            WarningKind::LockStep,
            "the capacity is limited by TTFT because fixed-length users move in lock-step (each wave's prompts are prefilled together, as in a benchmark); real users' lengths vary and they drift apart — set Request lengths to Lognormal before sizing servers for real traffic",
        ));
    }
    if let Some(w) = thin_margin(r, &sweep, capacity.is_some()) {
        warnings.push(w);
    }
    // (Where a capacity is searched: batch mode and offline loads keep the grid's best level.)
    if capacity.is_some() || cap_point.is_none() {
        warnings.extend(edge_warning(&sweep, capacity.as_ref()));
    }
    // The peak usable load is the capacity where it was resolved, else the level of the highest throughput meeting
    // the target (`operating_point::peak_usable_index`).
    // (Where a capacity is searched and none found, none: a level meeting the target past the lightest that breaks
    // it is the target's edge, not room; `capacity`.)
    let peak_usable = match &capacity {
        Some(c) => Some(c.at.clone()),
        None => cap_point.as_ref().and(peak_usable_idx).map(|i| marker(&sweep[i])),
    };
    let operating_point = op.as_ref().map(|(m, _)| m.clone());
    let energy = match (&op, &peak_point) {
        (Some((m, p)), Some(pk)) => energy::energy(r, (m, p), (&peak, pk)),
        _ => None,
    };
    let hardware_label = format!(
        "{}{}{}",
        if d.hardware.devices > 1 { format!("{} × ", d.hardware.devices) } else { String::new() },
        d.hardware.name,
        // The split that changes the answer most on the same devices is named (A-vs-B of TP8 and DP attention had read
        // as the same question).
        if d.dense_copies() > 1.0 { " (DP attention)" } else { "" }
    );
    let mut fleet = match (&r.fleet, &op, &cap_point) {
        (Some(f), Some((m, p)), Some(c)) => fleet::size(r, f, (m, p), c, &hardware_label, alt_op, &mut warnings),
        (Some(f), _, _) if mem.fits => {
            // Only where a target is what no load meets (batch work without one has levels that saturate instead: a
            // review).
            let targeted = r.target.limits_latency() || r.target.task_s.is_some();
            let words = targeted.then(|| fleet::unmet_words(r, f, &hardware_label, alt_op)).flatten();
            let plain = if targeted {
                "fleet: no load meets the target, so no fleet can be sized"
            } else {
                "fleet: no load level runs without saturating, so no fleet can be sized"
            };
            warnings.push(Warning::new(WarningKind::Fleet, words.unwrap_or_else(|| plain.into())));
            None
        }
        (Some(f), _, _) => {
            // What does not fit, as the verdict says it: the weights, or one request's KV cache.
            let why = if mem.kv_budget_gb <= 0.0 {
                format!("the model does not fit on {hardware_label}")
            } else {
                format!("one {}-token request's KV cache does not fit on {hardware_label}", readout::group(mem.context_tokens))
            };
            if let Some(w) = fleet::unfit_words(r, f, &why, alt_op) {
                warnings.push(Warning::new(WarningKind::Fleet, w));
            }
            None
        }
        _ => None,
    };
    // A peak no deployment has (an operations trial's 10⁹ req/s read "341 098 931 servers" without a word): past a
    // million accelerators — more than the largest clusters hold — the peak is more likely a slip of its unit.
    if let Some(f) = fleet.as_ref().filter(|f| f.devices_total > 1_000_000) {
        warnings.push(Warning::new(
            WarningKind::Fleet,
            format!(
                "fleet: {} devices, more than the largest clusters hold — check the peak ({}) and its unit: concurrent users, or requests a second",
                readout::group(f.devices_total as f64),
                match (f.peak_users, f.peak_request_rate) {
                    (Some(u), _) => format!("{} users", readout::group(u)),
                    (_, Some(q)) => format!("{} req/s", readout::group(q)),
                    _ => String::new(),
                }
            ),
        ));
    }
    // A fleet held to the engine's cap on running sequences says so where memory holds more (an operations trial
    // read 15 servers for 30 users of an 8B model on llama.cpp's 4 parallel slots; the verdict said it, the card not).
    if let (Some(f), Some(c)) = (fleet.as_mut(), capacity.as_ref()) {
        let fit = mem.kv_max_sequences.floor();
        if c.limited_by == LimitedBy::EngineCap && fit > mem.max_concurrency {
            f.sentence += &format!(
                "; each server held to the engine's {:.0} running requests (engine.max_batch) where memory holds {fit:.0}: a higher cap needs fewer servers",
                mem.max_concurrency
            );
        }
    }
    if lock_step && !ttft_lock_step && fleet.is_some() {
        warnings.push(Warning::new(
            WarningKind::LockStep,
            "the fleet is sized on fixed-length users, who move in lock-step as in a benchmark; real users' lengths vary and they drift apart, which changes the capacity per server — set Request lengths to Lognormal before quoting servers for real traffic",
        ));
    }
    // Each serving replica's power at the peak's share of it (its load in the sweep's kind: the operating
    // point's, scaled by that share).
    // The same share sets the tokens a server makes at the peak: fewer users on it each stream faster (an audit's
    // one user on a server whose operating point holds 82 had been costed at the 82 users' 37 tok/s each, not the
    // 135 one user gets: 73 per million tokens, not about 20).
    if let (Some(f), Some((_, p))) = (fleet.as_mut(), &op) {
        let per = if f.peak_users.is_some() { f.users_per_replica } else { f.request_rate_per_replica };
        // (Above 1 where the fleet took one server fewer than the operating point's load asks: each carries more.)
        let share = if per > 0.0 { f.peak_load_per_replica / per } else { 1.0 };
        let x = share * p.load().unwrap_or(0.0);
        f.watts_per_replica = energy::replica_watts_at(r, &sweep, p, x);
        // The fleet's tokens at the peak: its requests/s × the mean output, or (a peak of users) each serving
        // server's system tok/s at the load it carries.
        f.output_tps_at_peak = match f.peak_request_rate {
            Some(q) => q * w.output_tokens,
            None => f.replicas.saturating_sub(u64::from(f.spare_replicas)) as f64 * energy::value_at_load(&sweep, p, x, 0.0, &|l| l.system_tps),
        };
    }
    let cost = match (&r.cost, &op) {
        (Some(c), Some((m, _))) => cost::cost(
            c,
            d.hardware.devices,
            energy.as_ref(),
            m.system_tps,
            peak.system_tps,
            fleet.as_ref().map(|f| cost::FleetBasis {
                replicas: f.replicas,
                idle_devices: fleet::idle_devices(f),
                spares: f.spare_replicas,
                watts_per_replica: f.watts_per_replica,
                peak_hours_per_day: f.peak_hours_per_day,
                output_tps_at_peak: f.output_tps_at_peak,
            }),
            &mut warnings,
        ),
        _ => None,
    };
    let verdict = verdict(r, &ss, &mem, operating_point.as_ref(), &peak, &sweep, capacity.as_ref(), op.as_ref().map(|(_, p)| p));
    let verdict_ok = mem.fits && (operating_point.is_some() || w.mode == Mode::Batch);
    Report {
        version: VERSION,
        hardware: hardware_label,
        device: d.hardware.name.clone(),
        model: d.model.name.clone(),
        engine: d.engine.name.clone(),
        quantization: r.quantization.clone(),
        prompt_tokens: w.prompt_tokens,
        output_tokens: w.output_tokens,
        think_time_s: w.think_time_s,
        defaults_used: r.defaults_used.clone(),
        single_stream: ss,
        memory: mem,
        roofline,
        sweep,
        peak,
        peak_usable,
        knee,
        operating_point,
        operating_level: op.map(|(_, p)| p),
        capacity,
        fleet,
        energy,
        cost,
        band: band(d),
        target: r.target.clone(),
        verdict,
        verdict_ok,
        warnings,
        settings: diff::workload_settings(r),
        experts: d.model.is_moe().then_some((d.model.moe.experts, d.model.moe.experts_per_token)),
        device_noun: d.hardware.kind.noun(),
        offline: matches!(w.load, Load::Offline),
        lengths_vary: w.distribution != Distribution::Fixed && w.spread > 0.0,
        prompt_steps_apart: !r.deployment.engine.mixed_batches,
    }
}
