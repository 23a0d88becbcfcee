//! Judging one load level against the target.
//!
//! A level meets the target when its queue does not grow without bound, at most 1 % of its requests fail
//! (rejected or timed out), and at the target's percentile its TTFT and TPOT are within their limits — and, in
//! agent mode with `target.task_s`, the time to a finished task: `agent_steps` × (TTFT + output tokens × TPOT),
//! both at the percentile. That task time counts every output token at the TPOT (E2E has one gap fewer), and
//! adds per-step percentiles, which is conservative: the P99 of a sum is at most the sum of the P99s.
//! Comparisons use the unrounded values; [`super::fmt_against`] keeps the displayed ones on the same side.

use crate::scenario::{LimitedBy, LoadPoint, Mode, Resolved};

/// Seconds to finish an agent's task of `steps` calls of `output_tokens` each, from the percentile TTFT and
/// TPOT in milliseconds: steps × (TTFT + output tokens × TPOT).
#[must_use]
pub fn task_seconds(steps: u32, output_tokens: f64, ttft_ms: f64, tpot_ms: f64) -> f64 {
    f64::from(steps) * (ttft_ms + output_tokens * tpot_ms) / 1e3
}

/// The task time at a level, seconds (agent mode; any mode can ask).
#[must_use]
pub fn task_seconds_at(r: &Resolved, p: &LoadPoint) -> f64 {
    let pct = r.target.percentile;
    task_seconds(r.workload.agent_steps, r.workload.output_tokens, p.ttft_ms.at(pct), p.tpot_ms.at(pct))
}

/// The task-time limit, when one applies (agent mode with `target.task_s`).
#[must_use]
pub fn task_limit(r: &Resolved) -> Option<f64> {
    r.target.task_s.filter(|_| r.workload.mode == Mode::Agent)
}

/// A figure over its limit (0 without a limit: it never binds).
fn ratio(v: f64, limit: Option<f64>) -> f64 {
    limit.map_or(0.0, |l| v / l)
}

/// Whether the level meets the target (see the module docs).
#[must_use]
pub fn meets(r: &Resolved, p: &LoadPoint) -> bool {
    let pct = r.target.percentile;
    !p.saturated
        && p.error_rate <= 0.01
        && r.target.ttft_ms.is_none_or(|l| p.ttft_ms.at(pct) <= l)
        && r.target.tpot_ms.is_none_or(|l| p.tpot_ms.at(pct) <= l)
        && task_limit(r).is_none_or(|t| task_seconds_at(r, p) <= t)
}

/// The latency nearest its limit at level `p`: (which, its value at the target's percentile, the limit) — TTFT,
/// TPOT or the task time (seconds) — or `None` when the target limits none.
#[must_use]
pub fn nearest_limit(r: &Resolved, p: &LoadPoint) -> Option<(LimitedBy, f64, f64)> {
    let pct = r.target.percentile;
    let mut all = Vec::new();
    if let Some(l) = r.target.ttft_ms {
        all.push((LimitedBy::Ttft, p.ttft_ms.at(pct), l));
    }
    if let Some(l) = r.target.tpot_ms {
        all.push((LimitedBy::Tpot, p.tpot_ms.at(pct), l));
    }
    if let Some(t) = task_limit(r) {
        all.push((LimitedBy::Task, task_seconds_at(r, p), t));
    }
    all.into_iter().filter(|x| x.2 > 0.0).max_by(|a, b| (a.1 / a.2).total_cmp(&(b.1 / b.2)))
}

/// The largest ratio of a figure to its limit (TTFT, TPOT, task time): at most 1 where the latencies meet the
/// target. Used to interpolate where the target breaks; a saturated or failing level is not judged by it.
#[must_use]
pub fn worst_ratio(r: &Resolved, p: &LoadPoint) -> f64 {
    let pct = r.target.percentile;
    let mut worst = ratio(p.ttft_ms.at(pct), r.target.ttft_ms).max(ratio(p.tpot_ms.at(pct), r.target.tpot_ms));
    if let Some(t) = task_limit(r) {
        worst = worst.max(task_seconds_at(r, p) / t);
    }
    if worst.is_finite() {
        worst
    } else {
        f64::MAX
    }
}

/// Which limit a level that misses the target breaks: errors first, then the latency furthest over its limit,
/// else saturation (an open loop whose queue grows while its latencies are still within their limits).
#[must_use]
pub fn broken(r: &Resolved, p: &LoadPoint) -> LimitedBy {
    if p.error_rate > 0.01 {
        return LimitedBy::Errors;
    }
    let pct = r.target.percentile;
    let mut by = (ratio(p.ttft_ms.at(pct), r.target.ttft_ms), LimitedBy::Ttft);
    let tpot = ratio(p.tpot_ms.at(pct), r.target.tpot_ms);
    if tpot > by.0 {
        by = (tpot, LimitedBy::Tpot);
    }
    if let Some(t) = task_limit(r) {
        let task = task_seconds_at(r, p) / t;
        // The task time is what an agent's target is about: it names the limit whenever it is broken.
        if task > 1.0 {
            by = (task, LimitedBy::Task);
        }
    }
    if by.0 > 1.0 {
        by.1
    } else {
        LimitedBy::Saturation
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Pcts, Scenario};

    fn agent(task: &str) -> Resolved {
        Scenario::from_json(&format!(
            r#"{{"hardware":{{"preset":"h100-sxm"}},"model":{{"preset":"llama-3.1-8b"}},"workload":{{"mode":"agent","agent_steps":10,"output_tokens":200}},"target":{{{task}}}}}"#
        ))
        .unwrap()
        .resolve()
        .unwrap()
    }

    fn point(ttft_ms: f64, tpot_ms: f64) -> LoadPoint {
        LoadPoint {
            concurrency: Some(8.0),
            request_rate: None,
            per_user_tps: 1e3 / tpot_ms,
            system_tps: 0.0,
            request_throughput: 0.0,
            goodput_rps: 0.0,
            ttft_ms: Pcts::flat(ttft_ms),
            tpot_ms: Pcts::flat(tpot_ms),
            itl_ms: Pcts::flat(tpot_ms),
            e2e_ms: Pcts::flat(ttft_ms + 199.0 * tpot_ms),
            mean_batch: 8.0,
            kv_utilization: 0.0,
            preemptions: 0,
            errors: 0,
            error_rate: 0.0,
            memory_bound_fraction: 1.0,
            compute_bound_fraction: 0.0,
            bound: crate::model::roofline::Bound::Memory,
            saturated: false,
            meets_target: false,
            analytic_per_user_tps: 0.0,
        }
    }

    #[test]
    fn task_time_by_hand() {
        // 10 steps × (500 ms + 200 tokens × 12 ms) = 10 × 2.9 s = 29 s.
        assert!((task_seconds(10, 200.0, 500.0, 12.0) - 29.0).abs() < 1e-12);
        let r = agent(r#""task_s":30"#);
        assert_eq!(r.target.task_s, Some(30.0));
        // No per-token limit when the task target stands alone.
        assert!(!r.target.limits_latency(), "{:?}", r.target);
        assert!(meets(&r, &point(500.0, 12.0)), "29 s ≤ 30 s");
        // 10 × (500 + 200 × 12.5) = 30 s: equal is within.
        assert!(meets(&r, &point(500.0, 12.5)));
        // 10 × (500 + 200 × 12.6) = 30.2 s.
        let p = point(500.0, 12.6);
        assert!(!meets(&r, &p));
        assert_eq!(broken(&r, &p), LimitedBy::Task);
        assert!((worst_ratio(&r, &p) - 30.2 / 30.0).abs() < 1e-12);
    }

    #[test]
    fn task_target_with_per_token_limits() {
        let r = agent(r#""task_s":30,"tpot_ms":10"#);
        // Within the task time but over the 10 ms TPOT limit.
        let p = point(500.0, 12.0);
        assert!(!meets(&r, &p));
        assert_eq!(broken(&r, &p), LimitedBy::Tpot);
        assert!(r.target.name.contains("task ≤ 30 s"), "{}", r.target.name);
    }

    #[test]
    fn task_target_only_in_agent_mode() {
        let e = Scenario::from_json(r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"target":{"task_s":30}}"#)
            .unwrap()
            .resolve()
            .unwrap_err();
        assert_eq!(e.field, "target.task_s");
        for bad in ["0", "-1", "1e30"] {
            let e = Scenario::from_json(&format!(r#"{{"hardware":{{"preset":"h100-sxm"}},"model":{{"preset":"llama-3.1-8b"}},"workload":{{"mode":"agent"}},"target":{{"task_s":{bad}}}}}"#))
                .unwrap()
                .resolve()
                .unwrap_err();
            assert_eq!(e.field, "target.task_s", "{bad}");
        }
    }

    #[test]
    fn errors_and_saturation_never_meet() {
        let r = agent(r#""task_s":30"#);
        let mut p = point(100.0, 5.0);
        p.error_rate = 0.02;
        assert!(!meets(&r, &p));
        assert_eq!(broken(&r, &p), LimitedBy::Errors);
        let mut p = point(100.0, 5.0);
        p.saturated = true;
        assert!(!meets(&r, &p));
        assert_eq!(broken(&r, &p), LimitedBy::Saturation);
    }
}
