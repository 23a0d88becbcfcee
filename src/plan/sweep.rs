//! The sweep: every load level evaluated, analytically or by the serving simulation ([`crate::sim`]).

use super::*;

pub(super) fn analytic_sweep(r: &Resolved) -> Vec<LoadPoint> {
    resolved_levels(r).into_iter().map(|x| analytic_level(r, x)).collect()
}

/// One analytic load level (`x` users, or requests/s for request-rate loads).
pub(super) fn analytic_level(r: &Resolved, x: f64) -> LoadPoint {
    let w = &r.workload;
    let pools = r.pools();
    // Disaggregated, the decode pool holds the running batch and the prefill pool reads the prompts
    // (`analytic_point_pools`); else the one server.
    let d = pools.as_ref().map_or(&r.deployment, |(_, dec)| dec);
    let link = r.disaggregation.map_or(f64::INFINITY, |g| g.kv_transfer_gbps * 1e9);
    let analytic_point = |d: &Deployment, w: &Workload, c: f64| match &pools {
        Some((pre, dec)) => analytic_point_pools(pre, dec, link, w, c),
        None => analytic_point(d, w, c),
    };
    let rate_mode = matches!(w.load, Load::RequestRate(_));
    // What the server can produce at most; an offered load above it grows the queue without bound.
    let capacity = if rate_mode { capacity_rps(r) * w.output_tokens.max(1.0) } else { f64::INFINITY };
    // For a request rate, Little's law gives the concurrency: rate × time in system (iterated twice).
    let conc = if rate_mode {
        let mut c = 1.0;
        for _ in 0..4 {
            let a = analytic_point(d, w, c);
            c = (x * a.e2e_s(w.output_tokens)).max(1.0);
        }
        c
    } else if w.think_time_s > 0.0 {
        // Users who think between requests: in flight, x × E2E ÷ (E2E + think) (Little's law over a user's cycle;
        // iterated, as the E2E falls with the load).
        let mut c = x;
        for _ in 0..4 {
            let e2e = analytic_point(d, w, c.max(1.0)).e2e_s(w.output_tokens);
            c = x * e2e / (e2e + w.think_time_s);
        }
        c.max(1.0).min(x)
    } else {
        x
    };
    let a = analytic_point(d, w, conc);
    let e2e = a.e2e_s(w.output_tokens);
    let AnalyticPoint { per_user_tps: pu, system_tps: sys, ttft_s: ttft, tpot_s: tpot, batch, bound } = a;
    let saturated = pu == 0.0 || (rate_mode && x * w.output_tokens > capacity);
    let sys = if rate_mode {
        sys.min(x * w.output_tokens)
    } else if w.think_time_s > 0.0 {
        // Each user's answer once per cycle (a lone user is not streaming while it thinks): its output tokens at the
        // steady step, which holds the prompt's share already (`steady_step`), and the pause; at most the running
        // batch's rate. By E2E + think, the prompt counted twice (the E2E's TTFT and the step's share), users with a
        // think time of 1 ms read below users with none (a review, 2026-12-07: 1 000-token prompts, 30 000-token ones
        // 46 % below). A disaggregated deployment's step holds no prompt: its users' cycle is the E2E and the pause
        // (a review: the prompt had been left out of it).
        let busy = if pools.is_some() { e2e } else { w.output_tokens * tpot };
        (x * w.output_tokens / (busy + w.think_time_s)).min(sys)
    } else {
        sys
    };
    let mut p = LoadPoint {
        per_user_tps: pu,
        system_tps: sys,
        request_throughput: sys / w.output_tokens,
        ttft_ms: Pcts::flat(ttft * 1e3),
        tpot_ms: Pcts::flat(tpot * 1e3),
        itl_ms: Pcts::flat(tpot * 1e3),
        e2e_ms: Pcts::flat(e2e * 1e3),
        // (Disaggregated: what the flow keeps in the decode pool, which a slower prefill pool holds below the users.)
        mean_batch: batch,
        memory_bound_fraction: if bound == Bound::Memory { 1.0 } else { 0.0 },
        compute_bound_fraction: if bound == Bound::Compute { 1.0 } else { 0.0 },
        bound,
        saturated,
        analytic_per_user_tps: pu,
        ..LoadPoint::at_load(x, rate_mode)
    };
    p.meets_target = target::meets(r, &p);
    if p.meets_target {
        p.goodput_rps = sys / w.output_tokens;
    }
    p
}

pub(super) fn length(dist: Distribution, mean: f64, spread: f64) -> LengthDist {
    match dist {
        Distribution::Fixed => LengthDist::Fixed(mean),
        Distribution::Uniform => LengthDist::Uniform { min: (mean * (1.0 - spread)).max(1.0), max: mean * (1.0 + spread) },
        Distribution::Lognormal => LengthDist::LogNormal { mean, cv: spread },
    }
}

/// Simulates every load level.
pub(super) fn simulated_sweep(r: &Resolved) -> Vec<LoadPoint> {
    resolved_levels(r).into_iter().map(|x| simulate_level(r, x)).collect()
}

/// Simulates one load level (`x` users, or requests/s for request-rate loads) with the scenario's settings.
pub(super) fn simulate_level(r: &Resolved, x: f64) -> LoadPoint {
    let d = &r.deployment;
    let w = &r.workload;
    // The simulator's targets say "no limit" with NaN.
    let targets = Targets { ttft_ms: r.target.ttft_ms.unwrap_or(f64::NAN), tpot_ms: r.target.tpot_ms.unwrap_or(f64::NAN) };
    let rate_mode = matches!(w.load, Load::RequestRate(_));
    let arrivals = if rate_mode {
        Arrivals::Poisson { rate_per_s: x, burstiness: w.burstiness }
    } else {
        Arrivals::Closed { concurrency: x.clamp(1.0, 1e6) as u32 }
    };
    let cfg = SimConfig {
        // A benchmark run's request count is physics (the backlog it builds), not a sampling choice.
        // A closed loop measures at least one request per user: fewer, taken after a warm-up shorter than one wave,
        // are no steady state (200 requests of DeepSeek-V3's 384–1,536 users had read 1,369–1,643 tok/s where the
        // batch and TPOT give 4,000 and more).
        requests: if w.benchmark_run {
            w.requests.min(sim::MAX_REQUESTS)
        } else if rate_mode {
            sim_requests(w)
        } else {
            sim_requests(w).max((x.clamp(1.0, 1e6) as u32).min(sim::MAX_REQUESTS))
        },
        prompt: length(w.distribution, w.prompt_tokens, w.spread),
        output: length(w.distribution, w.output_tokens, w.spread),
        context_depth: w.context_depth,
        prefix_hit_rate: w.prefix_cache_hit_rate,
        arrivals,
        seed: w.seed,
        queue_limit: w.queue_limit,
        timeout_s: w.timeout_s,
        // Long enough for every measured request even at very low request rates.
        max_sim_seconds: if rate_mode { (20.0 * f64::from(w.requests) / x).max(86_400.0) } else { 1e7 },
        max_steps: if w.benchmark_run { 40_000_000 } else { 4_000_000 },
        finite: w.benchmark_run,
        // (0 but for concurrent users: `Scenario::resolve`.)
        think_time_s: w.think_time_s,
    };
    let s = match r.pools() {
        Some((pre, dec)) => {
            let link = sim::Disaggregation { kv_transfer_gbps: r.disaggregation.map_or(1.0, |g| g.kv_transfer_gbps) };
            sim::simulate_disaggregated(&pre, &dec, &link, &cfg, &targets)
        }
        // llama.cpp runs no more than the slots its memory holds at full length (`llama_cpp_slots`).
        None => match super::steady_state::llama_cpp_slots(d, w) {
            Some(slots) if slots < d.engine.max_batch => {
                let mut slotted = d.clone();
                slotted.engine.max_batch = slots;
                sim::simulate(&slotted, &cfg, &targets)
            }
            _ => sim::simulate(d, &cfg, &targets),
        },
    };
    // The analytic model at the same load: requests in flight by Little's law for a request rate or for users who
    // think between requests (it had been read at one sequence for a rate and at every user for a think time).
    let analytic = analytic_level(r, x).per_user_tps;
    let total = f64::from(s.completed + s.rejected + s.timed_out).max(1.0);
    let errors = s.rejected + s.timed_out;
    let error_rate = f64::from(errors) / total;
    // The bound that held the most step time: overhead-bound time (the kernel chain's floor, all-reduces, the
    // engine's own work) counts too — eager decode steps at 18 ms had been labelled by their prompt steps' share.
    let overhead = (1.0 - s.compute_bound_fraction - s.memory_bound_fraction).max(0.0);
    let bound = if overhead > s.compute_bound_fraction.max(s.memory_bound_fraction) {
        Bound::Overhead
    } else if s.compute_bound_fraction > s.memory_bound_fraction {
        Bound::Compute
    } else if s.memory_bound_fraction > 0.0 {
        Bound::Memory
    } else {
        Bound::Overhead
    };
    let mut p = LoadPoint {
        per_user_tps: if s.tpot_ms.p50 > 0.0 { 1e3 / s.tpot_ms.p50 } else { 0.0 },
        system_tps: s.system_output_tps,
        request_throughput: s.request_throughput,
        goodput_rps: s.goodput_rps,
        ttft_ms: s.ttft_ms,
        tpot_ms: s.tpot_ms,
        itl_ms: s.itl_ms,
        e2e_ms: s.e2e_ms,
        mean_batch: s.mean_batch,
        kv_utilization: s.mean_kv_utilization,
        preemptions: s.preemptions,
        errors,
        error_rate,
        memory_bound_fraction: s.memory_bound_fraction,
        compute_bound_fraction: s.compute_bound_fraction,
        bound,
        saturated: s.saturated,
        analytic_per_user_tps: analytic,
        ..LoadPoint::at_load(x, rate_mode)
    };
    p.meets_target = s.completed > 0 && target::meets(r, &p);
    p
}

/// Requests simulated per load level: the workload's, but fewer for very long requests so that one level
/// simulates at most about 600,000 request-steps (a decode step per output token, a prefill step per 64 prompt
/// tokens) and stays interactive in the page; at least 30.
#[must_use]
pub fn sim_requests(w: &Workload) -> u32 {
    let steps_per_request = w.output_tokens + w.prompt_tokens / 64.0;
    let cap = (600_000.0 / steps_per_request.max(1.0)).floor().max(30.0);
    (f64::from(w.requests)).min(cap) as u32
}
