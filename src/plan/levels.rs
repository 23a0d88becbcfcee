//! The load levels of a sweep: the user's, or automatic ones that bracket where latency turns up.

use super::*;

/// Load levels: the user's, or automatic ones (1, 2, 3, 4, 6, 8, 12, … up to 1.5 × the memory/batch limit,
/// at most 16) that resolve the knee.
#[must_use]
pub fn levels(d: &Deployment, w: &Workload) -> Vec<f64> {
    match &w.load {
        Load::Concurrency(v) if !v.is_empty() => v.clone(),
        Load::RequestRate(v) if !v.is_empty() => v.clone(),
        Load::RequestRate(_) => rate_levels(offline_marker(d, w).system_tps / w.output_tokens.max(1.0)),
        // A finite benchmark run of an offline load releases all its requests at once (`vllm bench serve`
        // without a rate or a concurrency limit): as many users as requests, so the requests the engine cannot
        // batch yet wait in its queue and their TTFT holds that wait. The steady state runs the fullest batch.
        Load::Offline if w.benchmark_run => vec![f64::from(w.requests.max(1))],
        // No more run at once than the job has requests (an audit: a job of 10 requests read a batch of 621 and
        // the same figures as one of 500).
        Load::Offline => vec![running_batch(d, w, f64::INFINITY).min(f64::from(w.requests)).max(1.0)],
        Load::Concurrency(_) => {
            let batch = running_batch(d, w, f64::INFINITY).max(1.0);
            // Users who think between requests fill that batch only part of their time: as many more levels
            // (at most the simulator's users).
            let cap = (batch * 1.5 * users_per_sequence(d, w, batch)).min(f64::from(crate::sim::MAX_CONCURRENCY));
            let mut all = Vec::new();
            let mut p = 1.0_f64;
            while p <= cap.max(2.0) && all.len() < 64 {
                all.push(p);
                if p >= 2.0 && p * 1.5 <= cap {
                    all.push(p * 1.5);
                }
                p *= 2.0;
            }
            if all.len() > 16 {
                // Keep the high end dense (where the knee is); thin the low end to powers of two.
                let extra = all.len() - 16;
                let mut dropped = 0;
                all.retain(|x| {
                    let thin = dropped < extra && x.log2().fract() != 0.0;
                    if thin {
                        dropped += 1;
                    }
                    !thin
                });
                all.truncate(16);
            }
            all
        }
    }
}

/// Automatic rates: fractions of the server's capacity `cap` in requests/s (its offline throughput ÷ output tokens),
/// so the sweep brackets where latency turns up, whatever the hardware; 3 significant digits.
fn rate_levels(cap: f64) -> Vec<f64> {
    if !(cap.is_finite() && cap > 0.0) {
        return vec![1.0];
    }
    let round = |x: f64| {
        let mag = 10f64.powf(x.log10().floor() - 2.0);
        (x / mag).round() * mag
    };
    let mut v: Vec<f64> = [0.05, 0.15, 0.3, 0.45, 0.6, 0.7, 0.8, 0.9, 1.0, 1.15].iter().map(|f| round(f * cap)).filter(|x| *x > 0.0).collect();
    v.dedup();
    v
}

/// The most requests/s the deployment serves (its offline throughput ÷ output tokens): a disaggregated one's from its
/// two pools (`analytic_point_pools` with every place filled), else the server's. (A disaggregated deployment's rates
/// and capacity search had taken the colocated server's on all its devices.)
pub(super) fn capacity_rps(r: &Resolved) -> f64 {
    let w = &r.workload;
    let tps = match (r.pools(), r.disaggregation) {
        (Some((pre, dec)), Some(g)) => analytic_point_pools(&pre, &dec, g.kv_transfer_gbps * 1e9, w, 1e9).system_tps,
        _ => offline_marker(&r.deployment, w).system_tps,
    };
    tps / w.output_tokens.max(1.0)
}

/// The levels of a resolved scenario: [`levels`] on its deployment, or for a disaggregated one on its decode pool
/// (which holds the running batch), its automatic rates from both pools' capacity.
#[must_use]
pub fn resolved_levels(r: &Resolved) -> Vec<f64> {
    match r.pools() {
        Some(_) if matches!(&r.workload.load, Load::RequestRate(v) if v.is_empty()) => rate_levels(capacity_rps(r)),
        Some((_, dec)) => levels(&dec, &r.workload),
        None => levels(&r.deployment, &r.workload),
    }
}

/// Users per running sequence at a batch of `batch`: (E2E + think) ÷ E2E for users who think between requests
/// (Little's law over a user's cycle, E2E at that batch, analytic), 1 without a think time.
pub(super) fn users_per_sequence(d: &Deployment, w: &Workload, batch: f64) -> f64 {
    if w.think_time_s <= 0.0 {
        return 1.0;
    }
    let e2e = analytic_point(d, w, batch.max(1.0)).e2e_s(w.output_tokens);
    if e2e > 0.0 {
        (e2e + w.think_time_s) / e2e
    } else {
        1.0
    }
}

/// Adds the imported serving runs' concurrencies to automatic concurrency levels (at most 64 levels); levels the
/// user gave, and request-rate loads, stay as they are.
pub(super) fn widen_for_runs(r: &mut Resolved, runs: &[crate::import::Measurement]) {
    if !r.workload.auto_load || !matches!(r.workload.load, Load::Concurrency(_)) {
        return;
    }
    let extra: Vec<f64> = runs
        .iter()
        .filter(|m| m.kind == crate::import::Kind::Serving)
        .filter_map(|m| m.concurrency)
        .filter(|c| c.is_finite() && *c >= 1.0 && *c <= 4096.0)
        .map(f64::round)
        .collect();
    if extra.is_empty() {
        return;
    }
    let own = resolved_levels(r);
    let mut all = own.clone();
    all.extend(extra);
    crate::sorting::sort_f64(&mut all);
    all.dedup();
    all.truncate(64);
    r.workload.levels_for_runs = all.iter().copied().filter(|x| !own.contains(x)).collect();
    r.workload.load = Load::Concurrency(all);
}
