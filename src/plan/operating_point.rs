//! Markers on the sweep: the level markers, the capacity resolved between levels and the operating point at
//! `operating_fraction` of the capacity's load (a design choice: 60 % by default, 50–70 % allowed — headroom
//! below the peak absorbs bursts: a queue's waiting time at 60 % of a rate capacity is a fraction of what it is
//! at 90 %, and 60 % of the users a server holds at the target leaves room for 67 % more in flight).
//!
//! The load, not the throughput: a batching server's system tok/s is concave in its users (60 % of the
//! throughput at a capacity of 159 users came at 30 users), so an operating point at a share of the throughput
//! put a server's planned load at a fifth of what it holds, and a faster device (higher throughput per user, the
//! same share reached at fewer users) needed *more* servers for the same users (a new user's review, 2026-12:
//! 67 servers of H100 against 84 of H200 for 2,000 users). For request rates the two are the same below
//! saturation (throughput = rate × output tokens). Users who think between requests send them on their own, like
//! a rate: their operating point is the users that make the fraction of the capacity's request rate (`capacity`),
//! and [`load_share`] reads their share in it.

use super::*;

/// A marker at a level, its latencies read at the target's percentile.
pub(crate) fn marker(p: &LoadPoint, pct: crate::percentiles::Pct) -> Marker {
    Marker {
        concurrency: p.concurrency,
        request_rate: p.request_rate,
        system_tps: p.system_tps,
        per_user_tps: p.per_user_tps,
        ttft_p_ms: Some(p.ttft_ms.at(pct)),
        tpot_p_ms: p.tpot_ms.at(pct),
        kv_utilization: Some(p.kv_utilization),
    }
}

/// The capacity resolved between levels, the level at it (batch mode and offline loads: the peak usable
/// level), and the operating point with the level it is read from.
pub(crate) fn capacity_and_operating(
    r: &Resolved,
    sweep: &[LoadPoint],
    mem: &Memory,
    level: &dyn Fn(f64) -> LoadPoint,
) -> (Option<Capacity>, Option<LoadPoint>, Option<(Marker, LoadPoint)>) {
    if let Some(o) = capacity::resolve(r, sweep, mem, level) {
        return (o.capacity, o.cap_point, o.op);
    }
    let pct = r.target.percentile;
    // Batch mode and offline loads keep the grid: interpolated on it, then read at that load (evaluated there
    // when it is not a level).
    let Some(i) = peak_usable_index(sweep) else { return (None, None, None) };
    let m = operating(&sweep[..=i], r.target.operating_fraction, pct);
    let load = m.load();
    let p = sweep.iter().find(|p| p.load() == load).cloned().unwrap_or_else(|| level(load.unwrap_or(1.0)));
    (None, Some(sweep[i].clone()), Some((marker(&p, pct), p)))
}

/// Without a capacity (batch mode, offline loads): the level the operating point is a share of, the one of the
/// highest system tok/s among those meeting the target (the first of equals). Past it more load only adds latency
/// and preemptions: the last level meeting had put the operating point at 60 % of whatever load the grid ended on
/// (a teacher's trial: 461 users of a grid ending at 768, beyond the 512 where throughput peaks; a grid to 1,024
/// made it 614).
pub(crate) fn peak_usable_index(sweep: &[LoadPoint]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, p) in sweep.iter().enumerate().filter(|(_, p)| p.meets_target) {
        if best.is_none_or(|b| p.system_tps > sweep[b].system_tps) {
            best = Some(i);
        }
    }
    best
}

/// The analytic model's operating level for a resolved scenario (an analytic report's fleet alternatives).
pub(crate) fn analytic_operating(r: &Resolved) -> Option<(LoadPoint, Option<LoadPoint>)> {
    operating_of(r, &analytic_sweep(r), &|x| analytic_level(r, x))
}

/// The simulated operating level of `r` from its simulated `sweep` (a simulated report's fleet alternatives).
pub(crate) fn simulated_operating(r: &Resolved, sweep: &[LoadPoint]) -> Option<(LoadPoint, Option<LoadPoint>)> {
    operating_of(r, sweep, &|x| simulate_level(r, x))
}

/// The operating level of `r` and the level at its capacity (the fleet's alternatives size with both).
fn operating_of(r: &Resolved, sweep: &[LoadPoint], level: &dyn Fn(f64) -> LoadPoint) -> Option<(LoadPoint, Option<LoadPoint>)> {
    let (_, cap, op) = capacity_and_operating(r, sweep, &memory(&r.deployment, &r.workload), level);
    op.map(|(_, p)| (p, cap))
}

/// The operating point: `fraction` of the last (peak usable) level's load — users or requests/s, the unit the
/// target is judged in — with its figures interpolated between the levels around it. A concurrency is rounded
/// to whole users and every figure is then read at that rounded load, so the marker's numbers belong to the
/// load it names.
pub(super) fn operating(levels: &[LoadPoint], fraction: f64, pct: crate::percentiles::Pct) -> Marker {
    let x = |p: &LoadPoint| p.load().unwrap_or(0.0);
    let at = |a: &LoadPoint, b: &LoadPoint, t: f64| {
        let lerp = |u: f64, v: f64| u + (v - u) * t;
        let load = lerp(x(a), x(b));
        Marker {
            concurrency: b.concurrency.map(|_| load),
            request_rate: b.request_rate.map(|_| load),
            system_tps: lerp(a.system_tps, b.system_tps),
            per_user_tps: lerp(a.per_user_tps, b.per_user_tps),
            ttft_p_ms: Some(lerp(a.ttft_ms.at(pct), b.ttft_ms.at(pct))),
            tpot_p_ms: lerp(a.tpot_ms.at(pct), b.tpot_ms.at(pct)),
            kv_utilization: Some(lerp(a.kv_utilization, b.kv_utilization)),
        }
    };
    let last = &levels[levels.len() - 1];
    let goal = operating_load(x(last), fraction, last.concurrency.is_some());
    let Some(i) = levels.iter().position(|p| x(p) >= goal) else { return at(last, last, 1.0) };
    // (Below the lowest level, that level: this grid-only reading serves batch and offline loads.)
    if i == 0 || x(&levels[i]) <= x(&levels[i - 1]) {
        return at(&levels[i], &levels[i], 1.0);
    }
    let (a, b) = (&levels[i - 1], &levels[i]);
    let mut m = at(a, b, ((goal - x(a)) / (x(b) - x(a))).clamp(0.0, 1.0));
    // The load is the goal itself, not its interpolation (which can land a rounding error below a whole user).
    m.concurrency = m.concurrency.map(|_| goal);
    m.request_rate = m.request_rate.map(|_| goal);
    m
}

/// `fraction` of a capacity `load`: whole users (at least one) when `users`, else requests/s. Whole users are the
/// nearest to `fraction`, moved by one where rounding would leave the 50–70 % an operating point may take and a
/// neighbour lies within it (a review: 0.7 of a 5-user capacity had rounded to 4 users, 80 %, and sized the fleet
/// there; 3 is 60 %).
pub(crate) fn operating_load(load: f64, fraction: f64, users: bool) -> f64 {
    if !users {
        return fraction * load;
    }
    let near = (fraction * load).round();
    let (lo, hi) = crate::scenario::OPERATING_RANGE;
    let within = |u: f64| u >= 1.0 && u >= lo * load - 1e-9 && u <= hi * load + 1e-9;
    let u = if within(near) {
        near
    } else if near > fraction * load && within(near - 1.0) {
        near - 1.0
    } else if near < fraction * load && within(near + 1.0) {
        near + 1.0
    } else {
        near
    };
    u.max(1.0)
}

/// The operating point's load as a share of the capacity's: `fraction` (the target's `operating_fraction`), moved
/// by the rounding to whole users (a capacity of 4 users plans 2: 50 %). Without a capacity (batch mode, offline
/// loads) the share of the peak usable level's load `usable`, which the grid can put above `fraction` (an audit: an
/// offline run's one level of 393 users was "60 % of the peak usable load" and 393 users at once); `fraction`
/// itself without either. Users who think between requests (`by_rate`) are measured by the request rate they make,
/// which their system tok/s is in proportion to (`capacity`: their operating point is a share of the rate).
#[must_use]
pub fn load_share(op: &Marker, cap: Option<&Capacity>, usable: Option<f64>, fraction: f64, by_rate: bool) -> f64 {
    let x = |m: &Marker| if by_rate { Some(m.system_tps) } else { m.load() }.filter(|v| *v > 0.0);
    match cap {
        Some(c) => x(op).zip(x(&c.at)).map(|(a, b)| a / b),
        None => op.load().zip(usable).filter(|(_, u)| *u > 0.0).map(|(a, u)| a / u),
    }
    .unwrap_or(fraction)
}

#[cfg(test)]
mod tests {
    use super::operating_load;

    #[test]
    fn whole_users_stay_within_the_operating_range() {
        // 0.7 of 5 is 3.5: 4 would be 80 %, 3 is 60 %.
        assert_eq!(operating_load(5.0, 0.7, true), 3.0);
        assert_eq!(operating_load(8.0, 0.7, true), 5.0);
        assert_eq!(operating_load(15.0, 0.7, true), 10.0);
        // The nearest where it lies within: 0.6 of 8 is 4.8 → 5 (62.5 %), 0.6 of 178 → 107.
        assert_eq!(operating_load(8.0, 0.6, true), 5.0);
        assert_eq!(operating_load(178.0, 0.6, true), 107.0);
        // No whole user within 50–70 %: the nearest, at least one.
        assert_eq!(operating_load(1.0, 0.6, true), 1.0);
        assert_eq!(operating_load(2.0, 0.7, true), 1.0);
        // Requests/s are not rounded.
        assert!((operating_load(5.0, 0.7, false) - 3.5).abs() < 1e-12);
    }
}
