//! The charts' data, built from a report: the charts themselves (`crate::chart`) draw from these small structs
//! and know nothing of reports, load points or imported files.

use crate::chart::latency::{self, LatencyData};
use crate::chart::pareto::ParetoData;
use crate::chart::roofline::RooflineData;
use crate::chart::throughput::{self, ThroughputData};
use crate::chart::LoadAxis;
use crate::import::{Kind, Measurement};
use crate::plan::readout::load_of as load;
use crate::scenario::{LoadPoint, Report};

/// What a report's sweep is measured against: users, or request rates.
#[must_use]
pub fn load_axis(r: &Report) -> LoadAxis {
    if r.sweep.first().is_some_and(|p| p.request_rate.is_some()) {
        LoadAxis::RequestRate
    } else {
        LoadAxis::Users
    }
}

/// One figure per level; none when the model does not fit (its levels are all zero: flat lines at zero had read
/// as results).
fn column(r: &Report, f: impl Fn(&LoadPoint) -> f64) -> Vec<f64> {
    if !r.memory.fits {
        return Vec::new();
    }
    r.sweep.iter().map(f).collect()
}

/// Per-user and system throughput against load, with the target's floor, knee, capacity, operating point
/// and the model's bands.
#[must_use]
pub fn throughput(r: &Report) -> ThroughputData {
    let pct = r.target.percentile;
    let mut d = ThroughputData {
        x: column(r, load),
        x_axis: load_axis(r),
        per_user: column(r, |p| p.per_user_tps),
        per_user_tail: column(r, |p| {
            let t = p.tpot_ms.at(pct);
            if t > 0.0 {
                1e3 / t
            } else {
                0.0
            }
        }),
        tail_label: format!("per user at {pct} TPOT"),
        system: column(r, |p| p.system_tps),
        floor: r.target.tpot_limit_ms().map(|t| 1e3 / t),
        knee_x: r.knee.as_ref().and_then(|k| k.load()),
        capacity_x: r.peak_usable.as_ref().and_then(|k| k.load()),
        knee_label: r.knee.as_ref().map_or_else(String::new, |k| format!("saturation knee ({})", super::verdict::load_label(k))),
        capacity_label: r.peak_usable.as_ref().map_or_else(String::new, |k| {
            let cause = r.capacity.as_ref().map_or("", |c| match c.limited_by {
                crate::scenario::LimitedBy::Memory => ", memory",
                crate::scenario::LimitedBy::EngineCap => ", the engine's cap",
                crate::scenario::LimitedBy::Errors => ", errors",
                crate::scenario::LimitedBy::Task => ", task time",
                crate::scenario::LimitedBy::Ttft => ", TTFT",
                crate::scenario::LimitedBy::Tpot => ", TPOT",
                crate::scenario::LimitedBy::Saturation => ", saturation",
            });
            format!("capacity at the target ({}{cause})", super::verdict::load_label(k))
        }),
        kv_full_x: kv_full(r).map(load),
        kv_full_label: kv_full(r).map_or_else(String::new, |l| {
            format!("KV cache full ({}: running requests evicted)", super::verdict::load_words(l.concurrency, l.request_rate))
        }),
        marker: None,
        operating: r.operating_point.as_ref().and_then(|m| m.load().map(|x| (x, m.per_user_tps, m.system_tps))),
        ceiling: r.single_stream.ceiling_tps,
        band: r.band.batched_pct / 100.0,
        band_one: r.band.single_stream_pct / 100.0,
        measured: Vec::new(),
        compare: None,
    };
    if let Some((i, x, m)) = operating_between(r) {
        d.x.insert(i, x);
        d.per_user.insert(i, m.per_user_tps);
        d.system.insert(i, m.system_tps);
        d.per_user_tail.insert(i, if m.tpot_p_ms > 0.0 { 1e3 / m.tpot_p_ms } else { 0.0 });
    }
    d
}

/// The first level whose KV cache filled: running requests evicted to be read again.
fn kv_full(r: &Report) -> Option<&LoadPoint> {
    r.sweep.iter().find(|l| l.preemptions > 0).filter(|_| r.memory.fits)
}

/// Where the operating point goes into a chart's series of levels (its index, its load, the point), when it lies
/// strictly between two levels. It is a simulation of its own (the capacity search's): the curves pass through it,
/// so its ring sits on them rather than above or below a straight line between the levels around it (a new user
/// saw it float above the curve, the simulation's few per cent of noise).
fn operating_between(r: &Report) -> Option<(usize, f64, &crate::scenario::Marker)> {
    let m = r.operating_point.as_ref()?;
    let x = m.load()?;
    let i = r.sweep.partition_point(|l| load(l) < x);
    (i > 0 && i < r.sweep.len() && load(&r.sweep[i]) != x).then_some((i, x, m))
}

/// A pinned scenario's throughput curves, or `None` when its load axis is not `axis` (users against rates).
#[must_use]
pub fn throughput_overlay(a: &Report, axis: LoadAxis) -> Option<throughput::Overlay> {
    let d = throughput(a);
    (d.x_axis == axis && !d.x.is_empty()).then_some(throughput::Overlay { x: d.x, per_user: d.per_user, system: d.system, operating: d.operating })
}

/// The serving measurements that sit on the load axis (concurrency or request rate) and ran the chart's
/// workload (prompt and output lengths within 10 %: a run with other lengths belongs on other curves), as
/// (load, per-user tok/s, system tok/s).
#[must_use]
pub fn measured_points(ms: &[Measurement], axis: LoadAxis, prompt: f64, output: f64) -> Vec<(f64, Option<f64>, Option<f64>)> {
    ms.iter()
        .filter(|m| m.kind == Kind::Serving && m.same_lengths(prompt, output))
        .filter(|m| m.per_user_tps.is_some() || m.system_output_tps.is_some())
        .filter_map(|m| {
            let x = if axis == LoadAxis::RequestRate { m.request_rate } else { m.concurrency };
            x.filter(|x| x.is_finite() && *x > 0.0).map(|x| (x, m.per_user_tps, m.system_output_tps))
        })
        .collect()
}

/// The percentile between P50 and P99 that the latency chart and `--table` show: P90 when the target is judged
/// there (a trial judged at P90 and found only P50 / P95 / P99), else P95.
#[must_use]
pub fn latency_middle(target: crate::percentiles::Pct) -> crate::percentiles::Pct {
    use crate::percentiles::Pct;
    if target == Pct::P90 {
        Pct::P90
    } else {
        Pct::P95
    }
}

/// TTFT and TPOT at P50/P95/P99 against load (P90 in the middle when the target is judged there), with the targets
/// and the saturated levels.
#[must_use]
pub fn latency(r: &Report) -> LatencyData {
    let mid = latency_middle(r.target.percentile);
    let mid_p90 = mid == crate::percentiles::Pct::P90;
    LatencyData {
        x: column(r, load),
        x_axis: load_axis(r),
        ttft: [column(r, |p| p.ttft_ms.p50), column(r, |p| p.ttft_ms.at(mid)), column(r, |p| p.ttft_ms.p99)],
        tpot: [column(r, |p| p.tpot_ms.p50), column(r, |p| p.tpot_ms.at(mid)), column(r, |p| p.tpot_ms.p99)],
        mid_p90,
        ttft_target: r.target.ttft_limit_ms(),
        tpot_target: r.target.tpot_limit_ms(),
        saturated: r.sweep.iter().map(|p| p.saturated).collect(),
        fails: r.sweep.iter().map(|p| !p.meets_target).collect(),
        marker: None,
        compare: None,
    }
}

/// The trade-off: output tok/s per user against output tok/s per GPU (system tok/s ÷ the server's devices),
/// one point per level, with the target's per-user floor and the operating point.
#[must_use]
pub fn pareto(r: &Report) -> ParetoData {
    let mut points: Vec<(f64, f64)> = (0..r.sweep.len()).filter_map(|i| pareto_level(r, i)).collect();
    let mut fails: Vec<bool> = r.sweep.iter().map(|p| !p.meets_target).collect();
    let per_gpu = 1.0 / f64::from(r.single_stream.devices.max(1));
    let operating = r.operating_point.as_ref().map(|m| (m.per_user_tps, m.system_tps * per_gpu));
    if let (Some((i, ..)), Some(o)) = (operating_between(r), operating) {
        points.insert(i, o);
        fails.insert(i, false);
    }
    // A level fails as the sweep table says (`meets_target`): by a latency, an agent's task time (a review: a
    // target of task time alone had drawn every level as passing, beside the table's ✗), errors or saturation.
    ParetoData { points, floor: r.target.tpot_limit_ms().map(|t| 1e3 / t), fails, operating, marker: None, device: r.device_noun }
}

/// Sweep level `i` on the trade-off chart (per user, per GPU): where the picked level's ring goes. (The chart's
/// points hold the operating point between the levels, so indexing them had put the ring one level early above it
/// and never on the last: a teacher's trial.)
#[must_use]
pub fn pareto_level(r: &Report, i: usize) -> Option<(f64, f64)> {
    let per_gpu = 1.0 / f64::from(r.single_stream.devices.max(1));
    r.sweep.get(i).map(|p| (p.per_user_tps, p.system_tps * per_gpu))
}

/// The roofline with the decode step of each load level (aligned with the sweep: a level without a step is
/// (0, 0)), the prefill chunk and the operating point's level.
#[must_use]
pub fn roofline(r: &Report) -> RooflineData {
    let f = &r.roofline;
    let decode: Vec<(f64, f64)> = r.sweep.iter().map(|p| f.decode_at(p.mean_batch).map_or((0.0, 0.0), |d| (d.intensity, d.tflops))).collect();
    let op = r.operating_point.as_ref().and_then(|m| crate::plan::readout::nearest_level(r, m.load()));
    RooflineData {
        peak_tflops: f.peak_tflops,
        bandwidth_gbps: f.bandwidth_gbps,
        efficiency: (f.compute_efficiency, f.bandwidth_efficiency),
        operating: op.and_then(|i| decode.get(i).copied()),
        decode,
        prefill: f.prefill.as_ref().map(|p| (p.intensity, p.tflops, p.tokens)),
        marker: None,
    }
}

/// A pinned scenario's TTFT and TPOT at its target percentile, or `None` on another load axis.
#[must_use]
pub fn latency_overlay(a: &Report, axis: LoadAxis) -> Option<latency::Overlay> {
    let p = a.target.percentile;
    (load_axis(a) == axis && !a.sweep.is_empty()).then(|| latency::Overlay {
        x: column(a, load),
        ttft: column(a, |l| l.ttft_ms.at(p)),
        tpot: column(a, |l| l.tpot_ms.at(p)),
        pct: p.to_string(),
        saturated: a.sweep.iter().map(|l| l.saturated).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curves_pass_through_the_operating_point() {
        let s = crate::scenario::Scenario::from_json(
            r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"workload":{"requests":200,"load":{"concurrency":[1,8,64,256]}}}"#,
        )
        .unwrap();
        let r = crate::plan::evaluate(&s).unwrap();
        let m = r.operating_point.as_ref().unwrap();
        let x = m.concurrency.unwrap();
        assert!(!r.sweep.iter().any(|l| l.concurrency == Some(x)), "the operating point {x} is a level of the sweep: nothing to test");
        let d = throughput(&r);
        let i = d.x.iter().position(|v| *v == x).expect("the operating point is on the curves");
        assert_eq!((d.system[i], d.per_user[i], d.x.len()), (m.system_tps, m.per_user_tps, r.sweep.len() + 1));
        assert!(d.x.windows(2).all(|w| w[0] < w[1]) && d.per_user_tail.len() == d.x.len());
        let p = pareto(&r);
        assert_eq!((p.points.len(), p.points[i]), (r.sweep.len() + 1, p.operating.unwrap()));
    }

    #[test]
    fn measured_points_are_the_serving_runs_on_the_axis_with_the_charts_lengths() {
        let run = |c: u32, input: u32| {
            format!(
                r#"{{"backend":"vllm","num_prompts":100,"request_rate":"inf","max_concurrency":{c},"completed":100,"total_input_tokens":{},"total_output_tokens":12800,"output_throughput":{},"mean_tpot_ms":20,"mean_ttft_ms":100}}"#,
                input * 100,
                c * 50
            )
        };
        let ms: Vec<Measurement> =
            [(8, 512), (16, 512), (8, 4096)].iter().flat_map(|(c, i)| crate::import::parse("run.json", &run(*c, *i)).unwrap_or_default()).collect();
        let users = measured_points(&ms, LoadAxis::Users, 512.0, 128.0);
        let xs: Vec<f64> = users.iter().map(|p| p.0).collect();
        assert!(!ms.is_empty() && xs == [8.0, 16.0], "{users:?} from {} runs", ms.len());
        assert!(measured_points(&ms, LoadAxis::RequestRate, 512.0, 128.0).is_empty(), "no request rate recorded");
    }
}

/// The memory bar: where the accelerator memory goes, GB — weights, the KV cache in use at the operating point
/// (time-averaged over the run simulated at it), the more the peak's load uses, the KV space left free, and what the
/// engine keeps back (its memory-utilisation headroom and reserve for activations). Empty when the model does
/// not fit. The segments add up to the total memory.
#[must_use]
pub fn memory_bar(r: &Report) -> Vec<(&'static str, f64)> {
    let m = &r.memory;
    if !m.fits || m.total_gb <= 0.0 {
        return Vec::new();
    }
    // KV use at each marker's own load: the run simulated there (the operating point is simulated between levels:
    // an audit read 113 GB at 88 users from the 128-user level, about 78 GB at 88), else the nearest level's.
    let used = |at: Option<&crate::plan::Marker>| {
        at.and_then(|k| k.kv_utilization.or_else(|| crate::plan::readout::nearest_level(r, k.load()).map(|i| r.sweep[i].kv_utilization)))
            .map_or(0.0, |u| u.clamp(0.0, 1.0))
    };
    let (op, peak) = (used(r.operating_point.as_ref()), used(Some(&r.peak)));
    let peak = peak.max(op);
    let budget = m.kv_budget_gb.max(0.0);
    let gb = [m.weights_gb, op * budget, (peak - op) * budget, (1.0 - peak) * budget, (m.total_gb - m.weights_gb - budget).max(0.0)];
    MEMORY_PARTS.into_iter().zip(gb).collect()
}

/// The memory bar's parts, in order, with the colours the page draws them in (its legend is text).
pub const MEMORY_PARTS: [&str; 5] =
    ["weights (grey)", "KV at the operating point (blue)", "more KV at the peak (orange)", "free (hatched)", "kept back by the engine (violet)"];

#[cfg(test)]
mod memory_tests {
    #[test]
    fn memory_bar_adds_up_to_the_device_memory() {
        let s = crate::scenario::Scenario::from_json(
            r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"engine":{"preset":"vllm"},"workload":{"prompt_tokens":1000,"output_tokens":300}}"#,
        )
        .unwrap();
        let r = crate::plan::evaluate(&s).unwrap();
        let bar = super::memory_bar(&r);
        assert_eq!(bar.len(), 5);
        let total: f64 = bar.iter().map(|s| s.1).sum();
        assert!((total / r.memory.total_gb - 1.0).abs() < 1e-9, "{bar:?} vs {} GB", r.memory.total_gb);
        assert!(bar.iter().all(|s| s.1 >= 0.0), "{bar:?}");
        // 16 GB of BF16 weights on an 80 GiB device; the operating point holds some KV cache, the peak more.
        assert!((bar[0].1 - r.memory.weights_gb).abs() < 1e-9 && bar[1].1 > 0.0 && bar[2].1 >= 0.0, "{bar:?}");
        // The operating point's KV is the run simulated at its own load, not a level's (an audit: Qwen3-235B on 8 ×
        // H200 read the 128-user level's 113 GB at 88 users): it lies between the levels around it.
        let op = r.operating_point.as_ref().unwrap();
        let kv = op.kv_utilization.unwrap();
        assert!((bar[1].1 - kv * r.memory.kv_budget_gb).abs() < 1e-9, "{bar:?} vs {kv}");
        let users = op.concurrency.unwrap();
        assert!(r.sweep.iter().all(|l| l.concurrency != Some(users)), "the operating point is not a level here: {users}");
        let below = r.sweep.iter().rfind(|l| l.concurrency < Some(users)).unwrap();
        let above = r.sweep.iter().find(|l| l.concurrency > Some(users)).unwrap();
        assert!(below.kv_utilization < kv && kv < above.kv_utilization, "{} < {kv} < {}", below.kv_utilization, above.kv_utilization);
        // The throughput chart's legend gives the knee's and the capacity's loads and the capacity's limit (a
        // teacher's trial found the lines without a number).
        let t = super::throughput(&r);
        let users = |m: &crate::scenario::Marker| format!("{:.0} users", m.concurrency.unwrap());
        assert_eq!(t.knee_label, format!("saturation knee ({})", users(r.knee.as_ref().unwrap())));
        let cause = match r.capacity.as_ref().unwrap().limited_by {
            crate::scenario::LimitedBy::Ttft => "TTFT",
            crate::scenario::LimitedBy::Tpot => "TPOT",
            other => panic!("{other:?}"),
        };
        assert_eq!(t.capacity_label, format!("capacity at the target ({}, {cause})", users(r.peak_usable.as_ref().unwrap())));
        // The memory line stands at the first level that evicted running requests (384 users here), past the capacity.
        let full = r.sweep.iter().find(|l| l.preemptions > 0).and_then(|l| l.concurrency);
        let capacity = r.peak_usable.as_ref().and_then(|m| m.concurrency).unwrap();
        assert!(full.is_some_and(|x| x > capacity) && t.kv_full_x == full, "{full:?} {:?} {capacity}", t.kv_full_x);
        // A model that does not fit draws no bar.
        let big = crate::scenario::Scenario::from_json(
            r#"{"hardware":{"preset":"rtx-4090"},"model":{"preset":"llama-3.1-70b"},"quantization":{"weights":"f16"}}"#,
        )
        .unwrap();
        assert!(super::memory_bar(&crate::plan::evaluate(&big).unwrap()).is_empty());
    }

    /// The first level whose KV cache filled is marked with its load (a teacher's trial looked for where memory runs
    /// out): 512 + 256 tokens of lognormal lengths on one H100 fill it at the 768-user level, not before.
    #[test]
    fn the_level_where_the_kv_cache_fills_is_marked() {
        let s = crate::scenario::Scenario::from_json(
            r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"engine":{"preset":"vllm"},"workload":{"prompt_tokens":512,"output_tokens":256,"distribution":"lognormal","load":{"concurrency":[64,512,768,1024]}}}"#,
        )
        .unwrap();
        let r = crate::plan::evaluate(&s).unwrap();
        let first = r.sweep.iter().find(|l| l.preemptions > 0).unwrap();
        assert!(r.sweep[0].preemptions == 0 && first.concurrency == Some(768.0), "{:?}", r.sweep.iter().map(|l| l.preemptions).collect::<Vec<_>>());
        let t = super::throughput(&r);
        assert_eq!(t.kv_full_x, Some(768.0));
        assert_eq!(t.kv_full_label, "KV cache full (768 users: running requests evicted)");
        // The legend lists it; the SVG draws it.
        let svg = crate::chart::throughput::to_svg(&t, (900, 420)).unwrap();
        assert!(svg.contains("KV cache full (768 users"), "legend entry missing");
    }
}
