//! Power and energy per output token.
//!
//! # Power model
//!
//! Each device draws between an idle floor and its TDP (`hardware.tdp_watts`, the board power in the presets)
//! according to how much arithmetic and how many bytes its step loop moves per second — the energy roofline
//! (Choi, Bedard, Fowler and Vuduc, "A roofline model of energy", IPDPS 2013: energy = FLOPs × ε_flop + bytes ×
//! ε_byte + constant power × time), capped at TDP:
//!
//! ```text
//! P_device = P_idle + (TDP − P_idle) · a,     P_idle = 0.25 · TDP
//! a        = busy · draw
//! draw     = Σ over the step's kernel classes (linear layers, attention) of
//!            min(their time, arithmetic time + 0.6 · byte time) ÷ step time     per step, weighted by the steps' time
//! busy     = system TPS ÷ (tokens per second of a busy step loop at the level's mean batch)
//! ```
//!
//! - **Arithmetic and bytes**: a step's arithmetic time is its matmuls and attention at the engine's compute rate,
//!   its byte time the weights and KV cache at the engine's bandwidth (the roofline's own parts, `StepCost`); a
//!   step that only computes at that rate draws TDP, one that only streams memory 60 % of the way from the floor
//!   to TDP (an assumption, [`MEMORY_BOUND_DRAW`]): in a memory-bound decode step the tensor cores mostly wait on
//!   HBM. Splitwise (Patel et al., ISCA 2024) characterises the token phase as memory-bound and drawing well below
//!   the prompt phase's power, which runs near TDP. A kernel class at its ridge, busy in both, is at the board's
//!   limit: TDP for its time, no more. The kernel chain's floor (`model::kernels`) is time, not work: it draws the
//!   floor. A layer split's devices take their layers in turn, each drawing its share of the step; a disaggregated
//!   deployment's pools each draw their own (the decode pool busy with its steps, the prefill pool with the
//!   level's prompts), weighted by their devices.
//!   Time the GPU spends waiting — on the engine's own work between steps, on all-reduces over a slow link, on the
//!   host's launch chain without CUDA graphs (`engine.cuda_graphs`: the kernels' times are taken as they run
//!   with graphs) — draws the floor. The steady state's decode step at the level's mean batch and one chunk of a
//!   prompt are weighted by the time each takes per output token (`super::steady_step`).
//!   Until 2026-12-06 each step drew by its bound alone — TDP when compute-bound, 60 % when memory-bound, the
//!   floor when overhead-bound (from 2026-12-04 its kernels' share) — and two trials found the steps between
//!   inverted: Llama-3.1-8B on one H100 read 0.149 J/token in AWQ against 0.135 in BF16 at the same 106 users and
//!   more tokens (AWQ's decode steps, the same arithmetic over a third of the bytes, had turned compute-bound:
//!   TDP), and Llama-3.1-70B on 8 × H100 at 0.75 req/s read 11.7 J/token with 2.0 ms of engine overhead per step and
//!   9.0 with 2.2 (the steps turned overhead-bound: the floor). Counted together, AWQ reads 0.121 against BF16's
//!   0.125, and the 70B server 8.84 and 8.78 J/token: a slower engine batches more at a given rate, so it reads its
//!   weights fewer times per token (9.19 at 1 ms, 8.10 at 5 ms). A review of the first form (the whole step capped
//!   at TDP, the chain's floor counted as bytes and arithmetic both) found a step at the ridge drawn at 1.6 × TDP for
//!   its kernels' time and DeepSeek-V3's one-user decode on 8 × H200, mostly the chain, at 3.9 kW for 8 × 700 W
//!   (2.0 kW now: activity 0.15).
//! - **Busy**: the share of the wall-clock time that the step loop is busy is estimated as the level's output
//!   rate over the rate of a loop that never idles at its mean batch (the analytic steady state,
//!   [`super::steady_step`]: batch ÷ seconds per output token, prefill included), at most 1. A closed loop is
//!   busy all the time; an open loop at a light rate idles between requests. So a lightly batched,
//!   memory-bound server draws about 60–70 % of TDP, a large compute-bound batch TDP.
//! - **Idle floor, 25 % of TDP (an assumption, not fitted)**: a GPU holding a model, with its CUDA context and
//!   a serving engine polling it, idles above its bare idle: a CUDA context alone adds 26–50 W on H100 and
//!   A100 and 66 W on L40S (Vadari, arXiv:2605.23918, 2026: idle power as a function of VRAM allocation),
//!   which puts a loaded datacenter GPU's idle at roughly 10–25 % of its TDP. The floor is set at the top of
//!   that range to cover clocks held up between steps under load.
//! - **Scope**: the accelerators (`average_watts`, `joules_per_output_token`). At the meter — the electricity
//!   cost, `wall_joules_per_output_token` and the fleet's kW — come the hosts when the scenario gives their power
//!   (`cost.host_watts_per_device`: what a server draws beyond its accelerators — CPUs, memory, NICs, switches,
//!   fans — divided by its accelerators, drawn whatever the load: an inference server's CPUs mostly wait on the
//!   GPUs) and then the facility (`cost.pue`, facility power ÷ IT power): (accelerators + hosts) × PUE. No host
//!   power is assumed (a pre-sales trial read the meter's figure as the whole server's, 2026-12-05): a datasheet's
//!   system maximum less its GPUs' TDP gives an upper bound, e.g. NVIDIA's DGX H100, 10.2 kW for eight 700 W GPUs:
//!   (10,200 − 5,600) ÷ 8 = 575 W per GPU.
//! - Disaggregated prefill/decode: the mean batch and bound shares are the decode pool's; the estimate applies
//!   them to every device, which overstates an idle prefill pool's power.
//!
//! Figures: `average_watts` = devices · P_device (one replica); J per output token = watts ÷ system TPS;
//! output tokens per kWh = 3.6 · 10⁶ ÷ J per token. At the operating point, and at the peak (the level with
//! the highest system throughput).
//!
//! **Band**: the band under load of the deployment's class plus [`BAND_EXTRA_PCT`] points (energy per token is
//! power ÷ throughput, so it carries the throughput's error), because the idle floor and the busy power are
//! assumptions, not fitted to measured power.

use super::steady_step;
use crate::scenario::{Energy, EnergyFigures, LoadPoint, Marker, Resolved};

/// The idle floor as a share of TDP (an assumption; see the module docs).
pub const IDLE_FRACTION: f64 = 0.25;

/// The share of the range from the idle floor to TDP drawn while a step streams memory (an assumption; a step that
/// computes at the engine's rate draws the whole range).
pub const MEMORY_BOUND_DRAW: f64 = 0.6;

/// What the energy and electricity figures' band adds to the throughput band under load, points of %.
pub const BAND_EXTRA_PCT: f64 = 10.0;

/// One device's power at activity `a` (0–1), W.
#[must_use]
pub fn device_watts(tdp: f64, activity: f64) -> f64 {
    let idle = IDLE_FRACTION * tdp;
    idle + (tdp - idle) * activity.clamp(0.0, 1.0)
}

/// The share of the wall-clock time the step loop is busy at a level (see the module docs), 0–1.
#[must_use]
pub fn busy_fraction(r: &Resolved, p: &LoadPoint) -> f64 {
    let b = p.mean_batch.max(1.0);
    let (_, per_token) = steady_step(&r.deployment, &r.workload, b);
    let busy_rate = b / per_token;
    let f = p.system_tps / busy_rate;
    if f.is_finite() {
        f.clamp(0.0, 1.0)
    } else {
        1.0
    }
}

/// The activity `a` of the power model: busy × the draw of the level's steady state (module docs), 0–1; a
/// disaggregated deployment's pools each at their own, weighted by their devices.
#[must_use]
pub fn activity(r: &Resolved, p: &LoadPoint) -> f64 {
    if let Some((prefill, decode)) = r.pools() {
        return pools_activity(r, p, &prefill, &decode);
    }
    (busy_fraction(r, p) * step_draw(r, p.mean_batch.max(1.0))).clamp(0.0, 1.0)
}

/// The draw of the steady state at batch `b` (the energy roofline): each step's arithmetic time (the matmuls and
/// attention at the engine's compute rate) at TDP's share plus its byte time (weights and KV cache at the engine's
/// bandwidth) at [`MEMORY_BOUND_DRAW`]'s, each kernel class (the linear layers, attention) at most its own time at
/// TDP, over the step's time; the decode steps and the prompts' chunks weighted by the time each takes per output
/// token. The kernels' times are taken as the GPU runs them with CUDA graphs: without graphs
/// (`engine.cuda_graphs: false`) the host's launch chain sets the step, and the GPU idles between the launches it
/// waits for; time spent on all-reduces, the engine's own work or the kernel chain's floor draws the floor.
fn step_draw(r: &Resolved, b: f64) -> f64 {
    let d = &r.deployment;
    let (load, per_token) = steady_step(d, &r.workload, b);
    let decode = d.step(&load).seconds;
    let w = &r.workload;
    let out = w.output_tokens.max(1.0);
    // The prompts' share of a request's time (`steady_step`), drawn as a chunk packed as that share is.
    let prefill = (per_token * out - (out - 1.0) * decode).max(0.0);
    let time = (out - 1.0) * decode + prefill;
    if time.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return 0.0;
    }
    let draw_decode = gpu_draw(d, &load);
    let draw_prefill = gpu_draw(d, &prefill_chunk(d, w, b));
    (((out - 1.0) * decode * draw_decode + prefill * draw_prefill) / time).clamp(0.0, 1.0)
}

/// One step of prompt chunks as the steady state packs them: as many whole prompts as the step's budget holds (at
/// most `b`), or one budget's worth of a longer prompt.
fn prefill_chunk(d: &crate::model::roofline::Deployment, w: &crate::scenario::Workload, b: f64) -> crate::model::roofline::StepLoad {
    let new_prompt = w.uncached_prompt().max(1.0);
    let budget = f64::from(d.chunk_tokens()).max(1.0);
    let prior = w.prompt_prior();
    if new_prompt >= budget {
        d.with_prefill(Default::default(), budget, prior)
    } else {
        d.with_prefill_many(Default::default(), (budget / new_prompt).floor().clamp(1.0, b.max(1.0)), new_prompt, prior)
    }
}

/// The draw of one step of `load` on `d`, 0–1 (see [`step_draw`]): the kernels as they run with CUDA graphs, over the
/// step's time as it runs. A layer split's devices take their layers in turn: each draws its share.
fn gpu_draw(d: &crate::model::roofline::Deployment, load: &crate::model::roofline::StepLoad) -> f64 {
    let actual = d.step(load);
    let seconds = actual.seconds;
    let c = if d.engine.cuda_graphs {
        actual
    } else {
        let mut g = d.clone();
        g.engine.cuda_graphs = true;
        g.step(load)
    };
    let turns = match d.hardware.parallelism {
        crate::model::hardware::Parallelism::LayerSplit if !load.pipelined => f64::from(d.hardware.devices.max(1)),
        _ => 1.0,
    };
    draw(&c, seconds) / turns
}

/// The draw of one step of `seconds` whose kernels cost `c` (see [`step_draw`]), 0–1: each kernel class's arithmetic
/// at TDP and its bytes at [`MEMORY_BOUND_DRAW`], at most its own time at TDP (both at once is the board's limit).
fn draw(c: &crate::model::roofline::StepCost, seconds: f64) -> f64 {
    if seconds.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return 0.0;
    }
    let linear = (c.matmul_s + MEMORY_BOUND_DRAW * c.weights_s).min(c.weights_s.max(c.matmul_s));
    let attention = (c.attn_s + MEMORY_BOUND_DRAW * c.kv_s).min(c.kv_s.max(c.attn_s));
    ((linear + attention) / seconds).clamp(0.0, 1.0)
}

/// A disaggregated deployment's activity (devices-weighted): the decode pool busy as its steps at the level's mean
/// batch make the level's tokens, at its decode step's draw; the prefill pool busy as the level's requests' prompts
/// take it, at its chunks' draw.
fn pools_activity(r: &Resolved, p: &LoadPoint, prefill: &crate::model::roofline::Deployment, decode: &crate::model::roofline::Deployment) -> f64 {
    let w = &r.workload;
    let b = p.mean_batch.max(1.0);
    let load = decode.decode_load(b, w.mean_context());
    let t_dec = decode.step(&load).seconds;
    let busy_dec = if t_dec > 0.0 { (p.system_tps * t_dec / b).clamp(0.0, 1.0) } else { 1.0 };
    let a_dec = busy_dec * gpu_draw(decode, &load);
    let requests = p.system_tps / w.output_tokens.max(1.0);
    let t_pre = prefill.prefill_seconds(w.uncached_prompt(), w.prompt_prior());
    let busy_pre = (requests * t_pre).clamp(0.0, 1.0);
    let a_pre = busy_pre * gpu_draw(prefill, &prefill_chunk(prefill, w, b));
    let (np, nd) = (f64::from(prefill.hardware.devices), f64::from(decode.hardware.devices));
    if np + nd > 0.0 {
        ((np * a_pre + nd * a_dec) / (np + nd)).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// One replica's power, W, at load `x` (users or requests/s, the sweep's own kind) at or below the operating
/// point `op`: linear between the sweep's levels under it (and the idle floor at no load), the operating point's
/// power from its load up. A fleet's servers carry the peak's share of it, often well under the operating point
/// (a trial's 300 users on one server whose operating point holds 556 had been powered at 556: 25 % high).
#[must_use]
pub fn replica_watts_at(r: &Resolved, sweep: &[LoadPoint], op: &LoadPoint, x: f64) -> Option<f64> {
    let tdp = r.deployment.hardware.tdp_watts?;
    let n = f64::from(r.deployment.hardware.devices);
    Some(value_at_load(sweep, op, x, n * IDLE_FRACTION * tdp, &|p| n * device_watts(tdp, activity(r, p))))
}

/// `value` of one replica at load `x` (the sweep's own kind): linear between the sweep's levels and the operating
/// point `op` around it, `at_zero` at no load, the highest level's value beyond it. A fleet's servers carry the peak's
/// share of the operating point's load — less, or up to the 70 % of capacity a fleet one server short of the operating
/// point's count runs at (a review: 42 users on a server whose operating point holds 31 had been costed at 31's tokens).
pub(crate) fn value_at_load(sweep: &[LoadPoint], op: &LoadPoint, x: f64, at_zero: f64, value: &dyn Fn(&LoadPoint) -> f64) -> f64 {
    let load = |p: &LoadPoint| p.load().unwrap_or(0.0);
    let x_op = load(op);
    let top = sweep.iter().map(load).fold(x_op, f64::max);
    let x = x.clamp(0.0, top);
    // The nearest points at or below and at or above `x` (no sort: one pass).
    let (mut lo, mut hi) = ((0.0, at_zero), (top, op));
    if x <= x_op {
        hi = (x_op, op);
    } else if let Some(p) = sweep.iter().find(|p| load(p) == top) {
        hi = (top, p);
    }
    if x >= x_op {
        lo = (x_op, value(op));
    }
    for p in sweep.iter().filter(|p| load(p) > 0.0) {
        let l = load(p);
        if l <= x && l > lo.0 {
            lo = (l, value(p));
        }
        if l >= x && l < hi.0 {
            hi = (l, p);
        }
    }
    let v1 = value(hi.1);
    if hi.0 > lo.0 {
        lo.1 + (v1 - lo.1) * (x - lo.0) / (hi.0 - lo.0)
    } else {
        v1
    }
}

/// Power and energy per token for `devices` devices of `tdp` W at activity `a` producing `tps` output tokens/s.
/// `None` when nothing is produced.
#[must_use]
pub fn figures(devices: u32, tdp: f64, a: f64, tps: f64) -> Option<EnergyFigures> {
    if !(tps > 0.0 && tps.is_finite() && tdp > 0.0 && tdp.is_finite()) {
        return None;
    }
    let watts = f64::from(devices) * device_watts(tdp, a);
    let j = watts / tps;
    Some(EnergyFigures { average_watts: watts, joules_per_output_token: j, output_tokens_per_kwh: 3.6e6 / j })
}

impl Energy {
    /// Whether the figures at the meter differ from the accelerators' (a PUE or the hosts' power is given).
    #[must_use]
    pub fn metered(&self) -> bool {
        self.pue.is_some() || self.host_watts.is_some()
    }

    /// One replica's power at the meter, W, from its accelerators' `watts` over `devices` devices: (accelerators +
    /// hosts) × PUE, each part only when given.
    #[must_use]
    pub fn at_meter(&self, watts: f64, devices: u32) -> f64 {
        (watts + self.host_watts.unwrap_or(0.0) * f64::from(devices)) * self.pue.unwrap_or(1.0)
    }

    /// One idle replica of `devices` devices at the meter, W: a spare all day, every server off the peak's hours.
    #[must_use]
    pub fn idle_at_meter(&self, devices: u32) -> f64 {
        self.at_meter(self.idle_watts * f64::from(devices), devices)
    }

    /// What the meter's figures count, for the cards and `--table`: "PUE 1.3", "hosts 575 W per device, PUE 1.3",
    /// "hosts 575 W per device, no PUE"; empty when neither is given.
    #[must_use]
    pub fn meter_basis(&self) -> String {
        let (fmt, w) = (crate::model::units::fmt_num, super::readout::group);
        match (self.host_watts, self.pue) {
            (Some(h), Some(p)) => format!("hosts {} W per device, PUE {}", w(h), fmt(p)),
            (Some(h), None) => format!("hosts {} W per device, no PUE", w(h)),
            (None, Some(p)) => format!("PUE {}", fmt(p)),
            (None, None) => String::new(),
        }
    }
}

/// The whole fleet's power, kW, on the cost's basis: the serving replicas at the peak's share of each
/// (`Fleet::watts_per_replica`; the operating point's power where that is unknown), the spares idle, at the meter
/// when a PUE or the hosts' power is given ([`Energy::at_meter`]); `None` without a fleet or an energy estimate.
#[must_use]
pub fn fleet_kw(r: &crate::scenario::Report) -> Option<f64> {
    let (e, f) = (r.energy.as_ref()?, r.fleet.as_ref()?);
    let spares = f64::from(f.spare_replicas);
    let n = f.devices_per_replica;
    let w = (f.replicas as f64 - spares) * e.at_meter(f.watts_per_replica.unwrap_or(e.average_watts), n)
        + spares * e.idle_at_meter(n)
        + e.idle_at_meter(idle_devices(f));
    Some(w / 1e3)
}

/// The devices a fleet buys beyond its replicas' (the last node's unused ones: `plan::fleet::devices_bought`).
fn idle_devices(f: &crate::scenario::Fleet) -> u32 {
    u32::try_from(super::fleet::idle_devices(f)).unwrap_or(u32::MAX)
}

/// The fleet's energy for a month of 30 days, MWh: `fleet.peak_hours_per_day` hours a day at the peak's power, the
/// rest with every server at its idle floor (a bank's assistant is not at its peak all night: a pre-sales trial read
/// 16.9 MWh a month for ten busy hours a day). `None` without a fleet.
#[must_use]
pub fn fleet_month_mwh(r: &crate::scenario::Report) -> Option<f64> {
    let kw = fleet_kw(r)?;
    let (e, f) = (r.energy.as_ref()?, r.fleet.as_ref()?);
    let h = f.peak_hours_per_day;
    let idle_kw = (f.replicas as f64 * e.idle_at_meter(f.devices_per_replica) + e.idle_at_meter(idle_devices(f))) / 1e3;
    Some(30.0 * (kw * h + idle_kw * (24.0 - h)) / 1e3)
}

/// The fleet's power in words, for the energy card and `--table`: "37.1 kW at the meter, 1.52 J per output token at
/// the peak (spares and headroom counted), 26.7 MWh a month at the peak, around the clock (720 h); the meter's: the
/// accelerators × PUE, hosts not counted" — a pre-sales trial read the month as an
/// average and the meter as the whole server's; `None` without a fleet. (Callers put "the fleet" before it: capitalising here would bring Unicode's
/// case tables into the page, `chart`'s note.)
#[must_use]
pub fn fleet_power_words(r: &crate::scenario::Report) -> Option<String> {
    let kw = fleet_kw(r)?;
    let e = r.energy.as_ref()?;
    let f = r.fleet.as_ref()?;
    let metered = e.metered();
    let h = f.peak_hours_per_day;
    let month_mwh = fleet_month_mwh(r)?;
    let sig3 = super::calibrate::sig3;
    // Servers that carry less than the operating point say so: the card's per-server watts are the operating point's.
    let lighter = match (r.fleet.as_ref(), r.energy.as_ref()) {
        (Some(f), Some(e)) if f.watts_per_replica.is_some_and(|w| w < 0.99 * e.average_watts) => format!(
            " (each serving server's accelerators at {} W with the peak's {} {})",
            super::readout::group(f.watts_per_replica.unwrap_or(0.0)),
            if f.peak_load_per_replica.fract() == 0.0 { super::readout::group(f.peak_load_per_replica) } else { sig3(f.peak_load_per_replica) },
            if f.peak_users.is_some() { "users" } else { "req/s" }
        ),
        _ => String::new(),
    };
    let idle = match idle_devices(f) {
        0 => String::new(),
        k => format!(" ({k} idle device{} of whole nodes at their floor)", if k == 1 { "" } else { "s" }),
    };
    // The fleet's own energy per token: its power over the tokens its peak asks for (an operations trial read the
    // operating point's 3.13 J/token as the fleet's, where two servers carrying 0.75 req/s drew 18.7).
    let per_token = match f.output_tps_at_peak {
        t if t > 0.0 => format!(", {} J per output token at the peak (spares and headroom counted)", sig3(kw * 1e3 / t)),
        _ => String::new(),
    };
    Some(format!(
        // The year after the month's own words ("(720 h)" had read as the year's; a review).
        "{} kW{}{idle}{lighter}{per_token}, {} MWh a month {}, {} MWh a year{}",
        sig3(kw),
        if metered { " at the meter" } else { " (accelerators)" },
        sig3(month_mwh),
        month_words(h),
        sig3(a_year(month_mwh)),
        // After the figures, not in a second pair of brackets beside the lighter servers' (a phone read them run on).
        match (e.host_watts, e.pue) {
            (Some(h), Some(_)) => format!("; the meter's: the accelerators and their hosts ({} W per device) × PUE", super::readout::group(h)),
            (Some(h), None) => format!("; the meter's: the accelerators and their hosts ({} W per device), no PUE", super::readout::group(h)),
            (None, Some(_)) => "; the meter's: the accelerators × PUE, hosts not counted".to_string(),
            (None, None) => String::new(),
        }
    ))
}

/// A year of a month's figure (30 days): × 365 ÷ 30 (a pre-sales trial's customer asked what the fleet costs to run a
/// year; the page had given a month and the write-off's total).
#[must_use]
pub fn a_year(month: f64) -> f64 {
    month * 365.0 / 30.0
}

/// How a month's figures are counted: "at the peak, around the clock (720 h)", or "of 10 h a day at the peak and
/// 14 idle (30 days)".
#[must_use]
pub fn month_words(peak_hours_per_day: f64) -> String {
    if peak_hours_per_day >= 24.0 {
        "at the peak, around the clock (720 h)".to_string()
    } else {
        let fmt = crate::model::units::fmt_num;
        // (Rounded: 24 − 16.1 is 7.899999999999999 in binary.)
        format!(
            "of {} h a day at the peak and {} idle (30 days)",
            fmt(peak_hours_per_day),
            fmt(((24.0 - peak_hours_per_day) * 100.0).round() / 100.0)
        )
    }
}

/// The throughput peak the energy card's note and the CLI's line read their "at the peak" figures at, with its load:
/// "the throughput peak (1 024 users)" — not the fleet's peak, whose month the same card counts (a trial read the two
/// "peaks" as one).
#[must_use]
pub fn throughput_peak_words(r: &crate::scenario::Report) -> String {
    match super::verdict::load_label(&r.peak) {
        l if l.is_empty() => "the throughput peak".to_string(),
        // Past an engine's cap its extra users wait, a hair more in total from slots never idle: said (a teacher's
        // trial read "at the throughput peak (6 users)" beside a table whose 4 and 6 users made the same 200 tok/s).
        l => match super::readout::waiting_turn(&r.memory, r.peak.concurrency, r.think_time_s) {
            Some(w) => format!("the throughput peak ({l}: {w})"),
            None => format!("the throughput peak ({l})"),
        },
    }
}

/// Why the peak draws less than the operating point, when it does (a trial read 615 W at 14 users and 579 W at 96
/// as a mistake): in the module's power model only a step's mix can lower it — more of each step spent outside the
/// kernels (the engine's own work for each running sequence, all-reduces between `devices` devices), which draws the
/// floor, or streaming memory instead of computing (60 % of the way to TDP). Empty otherwise.
#[must_use]
pub fn peak_power_note(e: &Energy, devices: u32) -> &'static str {
    if e.at_peak.average_watts >= 0.99 * e.average_watts {
        ""
    } else if devices > 1 {
        " (less than at the operating point: more of each step at the peak is the engine's own work for its many sequences or waits on all-reduces, and streams memory more than it computes; the devices draw less then)"
    } else {
        " (less than at the operating point: more of each step at the peak is the engine's own work for its many sequences, and streams memory more than it computes; the device draws less then)"
    }
}

/// Energy at the operating point (its marker and the level it was read from) and at the peak (its marker and
/// the sweep level with the highest throughput). `None` without a TDP or when no tokens are produced.
#[must_use]
pub fn energy(r: &Resolved, op: (&Marker, &LoadPoint), peak: (&Marker, &LoadPoint)) -> Option<Energy> {
    let tdp = r.deployment.hardware.tdp_watts?;
    let devices = r.deployment.hardware.devices;
    let a_op = activity(r, op.1);
    let at_op = figures(devices, tdp, a_op, op.0.system_tps)?;
    // The peak's throughput is the report's (offline: the finite job's), at its level's activity.
    let at_peak = figures(devices, tdp, activity(r, peak.1), peak.0.system_tps)?;
    let mut e = Energy {
        average_watts: at_op.average_watts,
        joules_per_output_token: at_op.joules_per_output_token,
        output_tokens_per_kwh: at_op.output_tokens_per_kwh,
        at_peak,
        tdp_watts: tdp,
        idle_watts: IDLE_FRACTION * tdp,
        activity: a_op,
        pue: r.cost.as_ref().and_then(|c| c.pue),
        host_watts: r.cost.as_ref().and_then(|c| c.host_watts),
        wall_joules_per_output_token: None,
    };
    e.wall_joules_per_output_token = e.metered().then(|| e.at_meter(e.average_watts, devices) / op.0.system_tps);
    Some(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_model_by_hand() {
        // 700 W TDP: floor 175 W; at activity 0.6: 175 + 525 × 0.6 = 490 W.
        assert!((device_watts(700.0, 0.0) - 175.0).abs() < 1e-12);
        assert!((device_watts(700.0, 0.6) - 490.0).abs() < 1e-9);
        assert!((device_watts(700.0, 1.0) - 700.0).abs() < 1e-12);
        assert_eq!(device_watts(700.0, 3.0), 700.0, "activity is clamped");
        // Two devices at 490 W producing 2000 tok/s: 980 W, 0.49 J/token, 3.6e6 / 0.49 = 7,346,939 tokens/kWh.
        let f = figures(2, 700.0, 0.6, 2000.0).unwrap();
        assert!((f.average_watts - 980.0).abs() < 1e-9);
        assert!((f.joules_per_output_token - 0.49).abs() < 1e-12);
        assert!((f.output_tokens_per_kwh - 3.6e6 / 0.49).abs() < 1e-3);
        assert!(figures(2, 700.0, 0.6, 0.0).is_none());
        assert!(figures(2, f64::NAN, 0.6, 10.0).is_none());
    }

    #[test]
    fn busy_share_of_an_open_loop_by_hand() {
        // One request at a time, each alone: busy = rate × (prefill + (output − 1) decode steps).
        let r = crate::scenario::Scenario::from_json(r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"engine":{"preset":"vllm"},"workload":{"prompt_tokens":512,"output_tokens":128}}"#)
            .unwrap()
            .resolve()
            .unwrap();
        let (_, per_token) = steady_step(&r.deployment, &r.workload, 1.0);
        let service = per_token * 128.0;
        let rate = 0.25 / service;
        let p = LoadPoint {
            concurrency: None,
            request_rate: Some(rate),
            per_user_tps: 0.0,
            system_tps: rate * 128.0,
            request_throughput: rate,
            goodput_rps: rate,
            ttft_ms: Default::default(),
            tpot_ms: Default::default(),
            itl_ms: Default::default(),
            e2e_ms: Default::default(),
            mean_batch: 1.0,
            kv_utilization: 0.0,
            preemptions: 0,
            errors: 0,
            error_rate: 0.0,
            memory_bound_fraction: 0.8,
            compute_bound_fraction: 0.2,
            bound: crate::model::roofline::Bound::Memory,
            saturated: false,
            meets_target: true,
            analytic_per_user_tps: 0.0,
        };
        assert!((busy_fraction(&r, &p) - 0.25).abs() < 1e-9);
        // busy × the steady state's draw; the sim's bound shares do not enter.
        let want = 0.25 * step_draw(&r, 1.0);
        assert!((activity(&r, &p) - want).abs() < 1e-12, "{} vs {want}", activity(&r, &p));
        assert!(want > 0.25 * 0.3 && want < 0.25 * MEMORY_BOUND_DRAW, "one user streams weights: {want}");
        let mut q = p.clone();
        q.memory_bound_fraction = 0.0;
        q.compute_bound_fraction = 1.0;
        assert_eq!(activity(&r, &q), activity(&r, &p));
    }

    #[test]
    fn a_steps_draw_by_hand() {
        // Weights 5 ms against matmuls 1 ms (the linear layers stream), KV 2 ms against attention 0.5 ms, 10 ms in
        // all (the rest the engine's own work): (1 + 0.6 × 5) + (0.5 + 0.6 × 2) = 5.7 ms of the 10 at TDP: 0.57.
        let c = crate::model::roofline::StepCost {
            seconds: 0.010,
            memory_s: 0.007,
            compute_s: 0.0055,
            weights_s: 0.005,
            matmul_s: 0.001,
            kv_s: 0.002,
            attn_s: 0.0005,
            comm_s: 0.0,
            overhead_s: 0.003,
            bound: crate::model::roofline::Bound::Memory,
            chain_floor: false,
        };
        assert!((draw(&c, c.seconds) - 0.57).abs() < 1e-12, "{}", draw(&c, c.seconds));
        // At the ridge the linear layers are busy in both for their 5 ms: the board's limit, TDP for that time, not
        // 1.6 × it (with attention's 1.7 ms: 6.7 of 12 ms).
        let ridge = crate::model::roofline::StepCost { weights_s: 0.005, matmul_s: 0.005, seconds: 0.012, ..c };
        assert!((draw(&ridge, ridge.seconds) - (0.005 + 0.0017) / 0.012).abs() < 1e-12, "{}", draw(&ridge, ridge.seconds));
        // The kernel chain's floor is neither arithmetic nor bytes: a step the floor sets draws only its kernels' work.
        let floored = crate::model::roofline::StepCost { memory_s: 0.009, compute_s: 0.009, chain_floor: true, ..c };
        assert_eq!(draw(&floored, c.seconds), draw(&c, c.seconds));
        assert_eq!(draw(&c, 0.0), 0.0);
    }

    #[test]
    fn fewer_bytes_for_the_same_arithmetic_never_cost_more_energy() {
        // A teacher's trial (2026-12-06): Llama-3.1-8B on one H100 read 0.135 J/token in BF16 and 0.149 in AWQ at
        // the same 106 users and more tokens — the 4-bit weights' decode steps had turned compute-bound and were
        // drawn at TDP where BF16's, memory-bound by a hair with the same arithmetic, drew 60 % of the way. In the
        // energy roofline the arithmetic and the bytes each cost their share; 4 bits read fewer bytes.
        let eval = |w: &str| {
            let s = crate::scenario::Scenario::from_json(&format!(
                r#"{{"hardware":{{"preset":"h100-sxm"}},"model":{{"preset":"llama-3.1-8b"}},"quantization":{{"weights":"{w}"}},"engine":{{"preset":"vllm"}},"workload":{{"prompt_tokens":512,"output_tokens":256,"distribution":"lognormal","spread":0.5,"load":{{"concurrency":[1,32,106]}}}}}}"#
            ))
            .unwrap();
            let r = s.resolve().unwrap();
            crate::plan::evaluate(&s).unwrap().sweep.iter().map(|p| (activity(&r, p), p.system_tps, p.concurrency)).collect::<Vec<_>>()
        };
        let (bf16, awq) = (eval("bf16"), eval("awq"));
        for (b, a) in bf16.iter().zip(&awq) {
            assert_eq!(b.2, a.2);
            let (jb, ja) = (device_watts(700.0, b.0) / b.1, device_watts(700.0, a.0) / a.1);
            assert!(ja <= jb * 1.001, "at {:?} users AWQ {ja} J/token against BF16 {jb}", a.2);
        }
        // One user, memory-bound: BF16 streams 3.4 × the bytes over a longer step at the same draw.
        assert!((bf16[0].0 - awq[0].0).abs() < 0.15, "{:?} {:?}", bf16[0], awq[0]);
    }

    #[test]
    fn a_model_split_over_pcie_draws_more_than_the_floor() {
        // vLLM on 4 × RTX 4090 over PCIe: decode steps wait on host-staged all-reduces longer than the weights
        // take to stream (overhead-bound), but their kernels still run: the devices draw above their idle floor.
        let s = crate::scenario::Scenario::from_json(r#"{"hardware":{"preset":"rtx-4090","devices":4,"parallelism":"tensor"},"model":{"preset":"llama-3.1-8b"},"engine":{"preset":"vllm"},"workload":{"prompt_tokens":512,"output_tokens":256}}"#).unwrap();
        let r = crate::plan::evaluate(&s).unwrap();
        let e = r.energy.as_ref().unwrap();
        assert!(e.activity > 0.1, "activity {}", e.activity);
        assert!(e.average_watts > 4.0 * e.idle_watts * 1.2 && e.average_watts < 4.0 * e.tdp_watts, "{} W", e.average_watts);
    }

    #[test]
    fn an_eager_step_draws_its_kernels_not_its_launch_chain() {
        // Llama-3.1-8B on one H100 under vLLM at one user: with graphs the step streams the weights (~7 ms); in
        // eager mode the host's launch chain makes it 17.6 ms, during which the GPU works the same ~7 ms. The
        // step's draw is the kernels' share, about 0.6 × 7 ÷ 17.6, not a fully busy memory-bound step.
        let json = |g: bool| {
            format!(r#"{{"hardware":{{"preset":"h100-sxm"}},"model":{{"preset":"llama-3.1-8b"}},"engine":{{"preset":"vllm","cuda_graphs":{g}}}}}"#)
        };
        let (eager, graphs) = (
            crate::scenario::Scenario::from_json(&json(false)).unwrap().resolve().unwrap(),
            crate::scenario::Scenario::from_json(&json(true)).unwrap().resolve().unwrap(),
        );
        let (load, _) = steady_step(&graphs.deployment, &graphs.workload, 1.0);
        let g = graphs.deployment.step(&load);
        let e = eager.deployment.step(&load);
        assert!(e.seconds > 2.0 * g.seconds, "{} vs {} s", e.seconds, g.seconds);
        // The decode step's kernels draw their share of the eager step: well under half of what they draw with graphs.
        assert!(step_draw(&eager, 1.0) < 0.6 * step_draw(&graphs, 1.0), "{} vs {}", step_draw(&eager, 1.0), step_draw(&graphs, 1.0));
        assert!(step_draw(&eager, 1.0) < 0.5 * MEMORY_BOUND_DRAW);
    }

    #[test]
    fn a_layer_splits_devices_take_their_layers_in_turn() {
        // llama.cpp over two RTX 4090s by layers: each streams its half of the weights while the other waits, so each
        // draws about half of what one device streaming the whole model draws (a review: both had been charged the
        // whole step).
        let act = |devices: u32| {
            let s = crate::scenario::Scenario::from_json(&format!(
                r#"{{"hardware":{{"preset":"rtx-4090","devices":{devices},"parallelism":"layer-split"}},"model":{{"preset":"llama-3.1-8b"}},"quantization":{{"weights":"q4_k_m"}},"engine":{{"preset":"llama.cpp"}},"workload":{{"requests":20,"load":{{"concurrency":[1]}}}}}}"#
            ))
            .unwrap();
            crate::plan::evaluate(&s).unwrap().energy.unwrap().activity
        };
        let (one, two) = (act(1), act(2));
        assert!(two < 0.6 * one && two > 0.35 * one, "one device {one}, each of two {two}");
    }

    #[test]
    fn a_disaggregated_deployments_pools_draw_their_own() {
        // The example's prefill pool reads prompts and its decode pool decodes: each at its own draw and busy share,
        // weighted by its devices — not the colocated server over all of them.
        let s = crate::scenario::Scenario::from_json(&std::fs::read_to_string("examples/disaggregated.json").unwrap()).unwrap();
        let r = s.resolve().unwrap();
        let report = crate::plan::evaluate(&s).unwrap();
        let acts: Vec<f64> = report.sweep.iter().map(|p| activity(&r, p)).collect();
        assert!(acts.iter().all(|a| *a > 0.0 && *a <= 1.0), "{acts:?}");
        // More users keep both pools busier.
        assert!(acts.last().unwrap() > acts.first().unwrap(), "{acts:?}");
    }
}
