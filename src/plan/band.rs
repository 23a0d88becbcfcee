//! The uncertainty band a report states, by class of prediction, from the validated out-of-sample error
//! (`tests/validation.rs`, `tests/serving.rs`).
//!
//! A band b is the p90, over the class's rows, of how many times the prediction is off either way — max(predicted
//! ÷ measured, measured ÷ predicted) − 1 — rounded up: 9 in 10 measured figures of that class lay between the
//! prediction ÷ (1 + b) and × (1 + b), the range the charts draw. (Until 2026-12-04 it was the p90 of |predicted ÷
//! measured − 1|, which understates every under-prediction: a run measured at twice the prediction is "50 %
//! off" but outside a ± 50 % band. Dense models' band under load went 49 → 81 % with the change.) Each class
//! carries its row count and where the figure comes from; the tests recompute every class's p90 and fail when it
//! outgrows the table, or falls more than 10 points below it (the table follows the data both ways).
//! [`band_text`] words a band: "± b %" while the two sides are nearly equal (b ≤ 25), "÷ / × (1 + b)" beyond.
//!
//! Latencies have classes of their own ([`LatencyClass`]): TTFT and TPOT of served runs paced by a concurrency
//! or a request rate (what the page sweeps), scored with each source held out (`tests/serving.rs`). TTFT is
//! the least certain figure the page shows — a fixed per-request time of the deployment's front end (HTTP,
//! templating, a proxy) that no input here describes, and transients of tensor parallelism over PCIe that the
//! model does not reproduce (`crate::sim`'s notes on tail latency); the band says so in numbers.

use super::*;

/// A class of predictions and its validated error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BandClass {
    /// What the class covers, as the page says it.
    pub name: &'static str,
    /// Measured figures the error rests on (0: none; the band is then a stated prior).
    pub rows: u32,
    /// The band, %: the p90 of the factor off either way, less one, rounded up (module doc).
    pub p90_pct: f64,
    /// Where the figure comes from.
    pub basis: &'static str,
}

/// Under load, a scenario calibrated on the user's own runs at one load (or loads not said): output tok/s of served
/// runs at other loads (see [`LATENCY_CALIBRATED_ONE`]).
pub const LOAD_CALIBRATED_ONE: BandClass = BandClass {
    name: "calibrated on your runs at one load",
    rows: 77,
    p90_pct: 71.0,
    basis: "output tok/s of served runs of current engines at other loads than the one calibrated on: each deployment calibrated on its lightest run (tests/serving.rs)",
};

/// Under load, a scenario calibrated on runs at two loads or more (see [`LATENCY_CALIBRATED_TWO`]).
pub const LOAD_CALIBRATED_TWO: BandClass = BandClass {
    name: "calibrated on your runs at two loads or more, validated between them",
    rows: 37,
    p90_pct: 26.0,
    basis: "output tok/s of served runs of current engines between the two calibrated on: each deployment calibrated on its lightest and heaviest runs (tests/serving.rs)",
};

/// Single stream, llama.cpp on the fitted GPU and Apple families.
pub const SINGLE_FITTED: BandClass = BandClass {
    name: "llama.cpp on a fitted GPU or Apple family",
    rows: 19,
    p90_pct: 18.0,
    basis: "four single-stream sources never fitted on (tests/data/single_stream_new.csv), 17.3 %",
};

/// Single stream elsewhere: no single-stream measurement backs the defaults.
pub const SINGLE_UNVALIDATED: BandClass = BandClass {
    name: "another engine or device",
    rows: 0,
    p90_pct: 25.0,
    basis: "a stated prior: this model's single-stream p90 before its 2024 fit (the three served one-user runs of dense models on vLLM, tests/serving.rs, fell within 4 %)",
};

/// Single stream, a mixture-of-experts model on a serving engine: what one user gets is scored on the served runs
/// at one user (closed loop, concurrency 1) of current engines, their TPOT P50 held out by source
/// (`tests/serving.rs`). Until 2026-12-05 these predictions took [`SINGLE_UNVALIDATED`]'s stated ± 25 %, while
/// SGLang's DeepSeek-V3 on 8 × MI300X decodes one user 3 × slower than the model says.
pub const SINGLE_SERVING_MOE: BandClass = BandClass {
    name: "a mixture-of-experts model on a serving engine",
    rows: 12,
    p90_pct: 195.0,
    basis: "leave-one-source-out: TPOT P50 of served runs at one user on current engines (12 runs: SGLang's Qwen3-235B and DeepSeek-R1 on 8 × B200 within 14 %, Llama 4 on 8 × MI300X 20–48 % fast, gpt-oss-120b on 8 × B200 1.7 × slow, DeepSeek-V3 on 8 × MI300X 3 × fast)",
};

/// Under load, dense models.
pub const LOAD_DENSE: BandClass = BandClass {
    name: "dense models",
    rows: 334,
    p90_pct: 63.0,
    basis: "leave-one-source-out: batched throughput of dense models (203 rows, 47.2 %) and output tok/s of served runs on current engines (131 runs, 62.9 %)",
};

/// Under load, mixture-of-experts models.
pub const LOAD_MOE: BandClass = BandClass {
    name: "mixture-of-experts models",
    rows: 190,
    p90_pct: 119.0,
    basis: "leave-one-source-out: batched throughput of MoE models (45 rows, 41.6 %) and output tok/s of served runs on current engines (145 runs, 118.1 %: immature MoE paths of some engine releases — DeepSeek on MI300X decodes 3 × slower than on B200 with the same SGLang — and MoE kernels at small token counts are not modelled; DP attention is, but no run of a current engine measures it)",
};

/// The validated error of the latencies (TTFT, TPOT) under a paced load, for one class of deployment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LatencyClass {
    /// What the class covers, as the page says it.
    pub name: &'static str,
    /// Served runs each band rests on: TTFT P50, TTFT P99, TPOT P50, TPOT P99 (a run flagged for one slow
    /// warm-up request gives its medians only).
    pub counts: [u32; 4],
    /// Bands (%, as [`BandClass::p90_pct`]) of TTFT P50, TTFT P99, TPOT P50 and TPOT P99.
    pub ttft_pct: f64,
    pub ttft_tail_pct: f64,
    pub tpot_pct: f64,
    pub tpot_tail_pct: f64,
    /// Where the figures come from.
    pub basis: &'static str,
}

/// Latencies on one device, devices joined by a fast link (NVLink, xGMI, NVSwitch), or boards that copy peer to
/// peer over PCIe.
pub const LATENCY_SERVED: LatencyClass = LatencyClass {
    name: "vLLM, SGLang or TensorRT-LLM on one device or a fast link",
    counts: [120, 142, 124, 142],
    ttft_pct: 152.0,
    ttft_tail_pct: 307.0,
    tpot_pct: 94.0,
    tpot_tail_pct: 119.0,
    basis: "leave-one-source-out: TTFT and TPOT of the paced served runs of vLLM, SGLang and TensorRT-LLM (tests/serving.rs)",
};

/// Latencies of a scenario calibrated on the user's own runs at one load (or at loads not said: the wider class):
/// the served runs of current engines (not split over PCIe), each deployment calibrated on its lightest run and
/// scored on its runs at other loads (`tests/serving.rs`, `served_runs_calibrated_on_their_own_runs`).
pub const LATENCY_CALIBRATED_ONE: LatencyClass = LatencyClass {
    name: "calibrated on your runs at one load, with vLLM, SGLang or TensorRT-LLM",
    counts: [58, 75, 61, 75],
    ttft_pct: 124.0,
    ttft_tail_pct: 238.0,
    tpot_pct: 122.0,
    tpot_tail_pct: 117.0,
    basis:
        "served runs of current engines at other loads than the one calibrated on: each deployment calibrated on its lightest run (tests/serving.rs)",
};

/// Latencies of a scenario calibrated on runs at two loads or more: each deployment calibrated on its lightest and
/// heaviest runs and scored on the runs between.
pub const LATENCY_CALIBRATED_TWO: LatencyClass = LatencyClass {
    name: "calibrated on your runs at two loads or more, validated between them, with vLLM, SGLang or TensorRT-LLM",
    counts: [23, 36, 25, 36],
    ttft_pct: 66.0,
    ttft_tail_pct: 111.0,
    tpot_pct: 151.0,
    tpot_tail_pct: 133.0,
    basis: "served runs of current engines between the two calibrated on: each deployment calibrated on its lightest and heaviest runs (tests/serving.rs)",
};

/// llama.cpp's latencies: it has no served runs in the data, so it takes the serving engines' band, and says so (a
/// new user's trial read llama.cpp's band as named for vLLM, SGLang or TensorRT-LLM).
pub const LATENCY_LLAMA_CPP: LatencyClass =
    LatencyClass { name: "llama.cpp (no served runs: the serving engines' band, one device or a fast link)", ..LATENCY_SERVED };

/// Latencies of a model split over boards that copy peer to peer over PCIe (L40S, H100 PCIe without its bridge): no
/// served run in the data is such a split, so it takes the class of one device or a fast link, and says so (a
/// trial's 2 × L40S read "one device or a fast link" for a split over PCIe).
pub const LATENCY_PCIE_P2P: LatencyClass = LatencyClass {
    name:
        "a split over PCIe with peer-to-peer copies — no served runs of its own; the band of vLLM, SGLang or TensorRT-LLM on one device or a fast link",
    ..LATENCY_SERVED
};

/// Latencies of a model split over consumer GPUs on PCIe (tensor parallelism or llama.cpp's row split without
/// peer-to-peer copies: every all-reduce goes through host memory, `model::hardware`).
pub const LATENCY_PCIE_TP: LatencyClass = LatencyClass {
    name: "consumer GPUs split over PCIe (no peer-to-peer)",
    counts: [35, 35, 35, 35],
    ttft_pct: 8588.0,
    ttft_tail_pct: 9995.0,
    tpot_pct: 91.0,
    tpot_tail_pct: 351.0,
    basis: "leave-one-source-out: one source's vLLM 0.8.5 runs on 2–8 RTX 4090 (tests/data/serving_new.csv): seconds of TTFT at 1 request/s, which the model does not reproduce",
};

/// A band in words: "± b %" while the two sides of ÷ (1 + b) … × (1 + b) are nearly equal (b ≤ 25 %), else
/// "÷ / × (1 + b)".
#[must_use]
pub fn band_text(pct: f64) -> String {
    if pct <= 25.0 {
        format!("± {pct:.0} %")
    } else if pct < 900.0 {
        format!("÷ / × {:.1}", 1.0 + pct / 100.0)
    } else {
        format!("÷ / × {:.0}", 1.0 + pct / 100.0)
    }
}

impl Band {
    /// TTFT's band at a target's percentile: the P99 band from P90 up (P90 and P95 take the wider P99 one), else
    /// the median's; with its label ("TTFT P99 ÷ / × 5.9").
    #[must_use]
    pub fn ttft_at(&self, pct: crate::percentiles::Pct) -> String {
        use crate::percentiles::Pct;
        if pct == Pct::P99 {
            format!("TTFT P99 {}", band_text(self.ttft_tail_pct))
        } else if tail(pct) {
            // P90 and P95 take P99's band, said as such (a pre-sales trial with a P95 target read "TTFT P99" as the
            // wrong percentile).
            format!("TTFT {} {} (P99's band)", pct.label(), band_text(self.ttft_tail_pct))
        } else {
            format!("TTFT P50 {}", band_text(self.ttft_pct))
        }
    }

    /// What the one-user and the under-load bands rest on, in words, for the page and `--table`: "19 runs" and "334
    /// figures", or a class without validated runs said to be a stated prior.
    #[must_use]
    pub fn basis_words(&self) -> (String, String) {
        let words =
            |rows: u32, what: &str| if rows > 0 { format!("{rows} {what}") } else { "a stated prior, not validated on runs of its own".into() };
        (words(self.single_stream_rows, "runs"), words(self.load_rows, "figures"))
    }

    /// The latency bands in words, for the page and `--table`: "latencies (class: N runs)
    /// TTFT ÷ / × 2.7 (P99 ÷ / × 5.9), TPOT …".
    #[must_use]
    pub fn latency_words(&self) -> String {
        format!(
            "latencies ({}: {} runs) TTFT P50 {} (P99 {}), TPOT P50 {} (P99 {})",
            self.latency_class,
            self.latency_rows,
            band_text(self.ttft_pct),
            band_text(self.ttft_tail_pct),
            band_text(self.tpot_pct),
            band_text(self.tpot_tail_pct)
        )
    }
}

/// Whether a target's percentile takes the P99 bands (P90 and P95 take the wider P99 ones) rather than the median's.
fn tail(pct: crate::percentiles::Pct) -> bool {
    use crate::percentiles::Pct;
    matches!(pct, Pct::P90 | Pct::P95 | Pct::P99)
}

/// Milliseconds in words: whole and grouped from 10 ms ("1 157"), one decimal below ("7.2").
fn ms_words(v: f64) -> String {
    if v >= 10.0 {
        super::readout::group(v)
    } else {
        format!("{v:.1}")
    }
}

/// A worst case against its limit: as [`ms_words`], with a decimal where the two would read alike ("could reach
/// 60 ms: still inside the 60 ms target" read as a tie for 59.8).
fn reach_words(w: f64, limit: f64) -> String {
    if ms_words(w) != ms_words(limit) || w == limit {
        return ms_words(w);
    }
    // Decimals until the two read apart (59.96 is "59.96", not "60.0"), the whole part grouped as ms_words has it.
    (1..=4usize).map(|d| (format!("{w:.d$}"), format!("{limit:.d$}"))).find(|(a, b)| a != b).map_or_else(
        || ms_words(w),
        |(a, _)| match a.split_once('.') {
            Some((whole, frac)) if w >= 1000.0 => format!("{}.{frac}", super::readout::group(whole.parse().unwrap_or(0.0))),
            _ => a,
        },
    )
}

/// A band past this (÷ / × 10) bounds nothing worth a figure: [`margin_words`] says so instead of multiplying.
pub const UNBOUNDED_PCT: f64 = 900.0;

/// Whether the operating point's latencies meet the target with the validated error applied: the worst case
/// within the latency bands (prediction × (1 + b) at the target's percentile) against the limits, in a sentence
/// for the verdict's context ("Within the validated error its P99 TPOT (25 ms) could reach 62 ms, past the 40 ms
/// target: …"). Without an operating point, a sentence only where a latency's band bounds nothing and every other
/// limit could hold within its band at the lightest load (the model's ✗ then rules nothing out); else `None`, as
/// without a latency limit.
#[must_use]
pub fn margin_words(r: &Report) -> Option<String> {
    let t = &r.target;
    let (tpot_b, ttft_b) = if tail(t.percentile) { (r.band.tpot_tail_pct, r.band.ttft_tail_pct) } else { (r.band.tpot_pct, r.band.ttft_pct) };
    // No load meets the target: a latency whose band bounds nothing cannot rule the deployment out either (an
    // operations trial read a flat ✗ for 8 × RTX 4090 over PCIe beside a TTFT band of ÷ / × 87 in the small print).
    let Some(o) = r.operating_point.as_ref() else {
        let lightest = r.sweep.first()?;
        let limits = [
            ("TTFT", ttft_b, t.ttft_limit_ms(), lightest.ttft_ms.at(t.percentile)),
            ("TPOT", tpot_b, t.tpot_limit_ms(), lightest.tpot_ms.at(t.percentile)),
        ];
        let loose: Vec<(&str, f64)> = limits.iter().filter(|x| x.1 > UNBOUNDED_PCT && x.2.is_some()).map(|x| (x.0, x.1)).collect();
        // A latency with a bounded band that misses its limit even at its best within it rules the deployment out
        // alone (a review): then nothing is said.
        let ruled_out = limits.iter().any(|x| x.1 <= UNBOUNDED_PCT && x.2.is_some_and(|l| x.3 / (1.0 + x.1 / 100.0) > l));
        let widest = loose.iter().map(|x| x.1).fold(0.0, f64::max);
        return (!loose.is_empty() && !ruled_out && r.memory.fits).then(|| {
            format!(
                "The {} {} of this class {} not bounded by the validated error (9 in 10 of its runs were within {}): the model's ✗ does not rule it out, and a run of your own settles it.",
                t.percentile,
                loose.iter().map(|x| x.0).collect::<Vec<_>>().join(" and "),
                if loose.len() > 1 { "are" } else { "is" },
                band_text(widest)
            )
        });
    };
    let worst = |v: f64, b: f64| v * (1.0 + b / 100.0);
    let mut past = Vec::new();
    let mut inside = Vec::new();
    let mut check = |name: &str, v: Option<f64>, b: f64, limit: Option<f64>| {
        if let (Some(v), Some(l)) = (v, limit) {
            // A band past ÷ / × 10 bounds nothing (a trial read "P90 TTFT 1 923 ms could reach 212 750 ms" for
            // consumer GPUs split over PCIe): said as such.
            if b > UNBOUNDED_PCT {
                past.push(format!(
                    "{} {name} ({} ms) is not bounded by it (9 in 10 of its class's runs were within {})",
                    t.percentile,
                    ms_words(v),
                    band_text(b)
                ));
                return;
            }
            let w = worst(v, b);
            // A tail below P99 is bounded by P99's band, said (an operations trial read a P95 TPOT's reach without
            // knowing it came from the P99 band).
            let basis = if tail(t.percentile) && t.percentile != crate::percentiles::Pct::P99 { " (by P99's band)" } else { "" };
            let s = format!("{} {name} ({} ms) could reach {} ms{basis}", t.percentile, ms_words(v), reach_words(w, l));
            if w > l {
                past.push(format!("{s}, past the {} ms target", ms_words(l)));
            } else {
                inside.push(s);
            }
        }
    };
    check("TPOT", Some(o.tpot_p_ms), tpot_b, t.tpot_limit_ms());
    check("TTFT", o.ttft_p_ms, ttft_b, t.ttft_limit_ms());
    if !past.is_empty() {
        Some(format!("Within the validated error the operating point's {}: a run of your own at that load settles it.", past.join(" and its ")))
    } else if !inside.is_empty() {
        Some(format!("Within the validated error the operating point's {}: still inside the target.", inside.join(" and its ")))
    } else {
        None
    }
}

/// Under load, a mixture-of-experts model with DP attention (`hardware.parallelism: "dp-attention"`): no served run
/// of a current engine measures it, so the MoE models' band is borrowed and said to be.
pub const LOAD_MOE_DP: BandClass = BandClass {
    name: "mixture-of-experts models with DP attention, their band borrowed from tensor-parallel runs",
    rows: 0,
    p90_pct: LOAD_MOE.p90_pct,
    basis: "a stated prior: the MoE models' band (tensor-parallel runs); the only DP-attention runs in the data are SGLang 0.4.3's (tests/serving.rs, older releases: about 2 × slower than the model, as that source's vLLM 0.7 tensor-parallel runs are)",
};

/// Every class, for the accuracy table.
pub const CLASSES: [BandClass; 8] =
    [SINGLE_FITTED, SINGLE_SERVING_MOE, SINGLE_UNVALIDATED, LOAD_DENSE, LOAD_MOE, LOAD_MOE_DP, LOAD_CALIBRATED_ONE, LOAD_CALIBRATED_TWO];

/// The classes a deployment's predictions fall in: (single stream, under load).
#[must_use]
pub fn classes(d: &Deployment) -> (BandClass, BandClass) {
    use crate::model::hardware::HardwareKind as K;
    let fitted = d.engine.kind == crate::model::engine::EngineKind::LlamaCpp
        && matches!(d.hardware.kind, K::ConsumerGpu | K::WorkstationGpu | K::DatacenterGpu | K::AppleSilicon);
    let single = if fitted {
        SINGLE_FITTED
    } else if d.model.is_moe() && d.engine.kind != crate::model::engine::EngineKind::LlamaCpp {
        SINGLE_SERVING_MOE
    } else {
        SINGLE_UNVALIDATED
    };
    let load = match (d.model.is_moe(), d.dense_copies() > 1.0) {
        (true, true) => LOAD_MOE_DP,
        (true, false) => LOAD_MOE,
        _ => LOAD_DENSE,
    };
    (single, load)
}

/// The band a report states: its classes' validated p90s, and energy's wider band (the band under load plus
/// [`energy::BAND_EXTRA_PCT`]: the power model is not validated).
#[must_use]
pub fn band(d: &Deployment) -> Band {
    let (single, load) = classes(d);
    use crate::model::hardware::Parallelism as P;
    let h = &d.hardware;
    let pcie_split = h.devices > 1 && matches!(h.parallelism, P::Tensor | P::RowSplit) && h.host_staged();
    // Calibrated: the calibrated predictions' bands, by the loads the runs had (the resolver sets `calibrated` only
    // for the deployment calibrated on, on the serving engines the check covers; not over PCIe: those runs are
    // left out of that check).
    let calibrated = d.engine.calibrated.filter(|_| !pcie_split);
    let (load, latency_cal) = match calibrated {
        Some(n) if n >= 2 => (LOAD_CALIBRATED_TWO, Some(LATENCY_CALIBRATED_TWO)),
        Some(_) => (LOAD_CALIBRATED_ONE, Some(LATENCY_CALIBRATED_ONE)),
        None => (load, None),
    };
    let latency = if pcie_split {
        LATENCY_PCIE_TP
    } else if let Some(l) = latency_cal {
        l
    } else if d.engine.kind == crate::model::engine::EngineKind::LlamaCpp {
        LATENCY_LLAMA_CPP
    } else if h.devices > 1
        && matches!(h.parallelism, P::Tensor | P::RowSplit)
        && h.interconnect_gbps < 100.0
        && matches!(h.kind, crate::model::hardware::HardwareKind::DatacenterGpu | crate::model::hardware::HardwareKind::WorkstationGpu)
    {
        // (Boards in PCIe slots: a DGX Spark pair over its network is not named a PCIe split, a review.)
        LATENCY_PCIE_P2P
    } else {
        LATENCY_SERVED
    };
    Band {
        single_stream_pct: single.p90_pct,
        batched_pct: load.p90_pct,
        energy_pct: load.p90_pct + energy::BAND_EXTRA_PCT,
        single_stream_class: single.name.into(),
        single_stream_rows: single.rows,
        load_class: load.name.into(),
        load_rows: load.rows,
        ttft_pct: latency.ttft_pct,
        ttft_tail_pct: latency.ttft_tail_pct,
        tpot_pct: latency.tpot_pct,
        tpot_tail_pct: latency.tpot_tail_pct,
        latency_class: latency.name.into(),
        latency_rows: latency.counts[0],
        compute_borrowed_from: d.engine.compute_borrowed_from.map(|a| a.id().to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_borrowed_compute_efficiency_is_said_beside_the_band() {
        let of = |hw: &str, engine: &str| {
            let json = format!(r#"{{"hardware":{{"preset":"{hw}"}},"model":{{"preset":"llama-3.1-8b"}},"engine":{{"preset":"{engine}"}}}}"#);
            band(&crate::scenario::Scenario::from_json(&json).unwrap().resolve().unwrap().deployment).compute_borrowed_from
        };
        assert_eq!(of("l40s", "vllm").as_deref(), Some("hopper"), "Ada has no served runs of its own fitted");
        assert_eq!(of("h100-sxm", "vllm"), None);
        assert_eq!(of("a100-80gb-sxm", "sglang"), None);
        assert_eq!(of("rtx-4090", "llama.cpp"), None, "llama.cpp's efficiencies are not the served ones");
    }

    #[test]
    fn a_worst_case_by_its_limit_does_not_read_as_a_tie() {
        assert_eq!(reach_words(59.8, 60.0), "59.8");
        assert_eq!(reach_words(60.2, 60.0), "60.2");
        assert_eq!(reach_words(60.0, 60.0), "60");
        assert_eq!(reach_words(62.4, 40.0), "62");
        assert_eq!(reach_words(7.24, 40.0), "7.2");
        // Until they read apart (a review: 59.96 read "60.0" beside 60, 7.96 "8.0" beside 8).
        assert_eq!(reach_words(59.96, 60.0), "59.96");
        assert_eq!(reach_words(60.04, 60.0), "60.04");
        assert_eq!(reach_words(7.96, 8.0), "7.96");
        assert_eq!(reach_words(2999.6, 3000.0), format!("{}.6", crate::plan::readout::group(2999.0)));
    }

    #[test]
    fn band_words_follow_their_size() {
        assert_eq!(band_text(18.0), "± 18 %");
        assert_eq!(band_text(25.0), "± 25 %");
        assert_eq!(band_text(81.0), "÷ / × 1.8");
        assert_eq!(band_text(170.0), "÷ / × 2.7");
        assert_eq!(band_text(6214.0), "÷ / × 63");
    }

    #[test]
    fn the_margin_applies_the_latency_band_at_the_targets_percentile() {
        let eval = |json: &str| crate::plan::evaluate(&crate::scenario::Scenario::from_json(json).unwrap()).unwrap();
        let base = r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"engine":{"preset":"vllm"},"workload":{"prompt_tokens":512,"output_tokens":256,"load":{"concurrency":[1,8,32,64,128,256]}},"target":{"tpot_ms":40,"ttft_ms":2000,"percentile":99}}"#;
        let r = eval(base);
        let o = r.operating_point.as_ref().unwrap();
        let words = margin_words(&r).unwrap();
        let worst = o.tpot_p_ms * (1.0 + r.band.tpot_tail_pct / 100.0);
        assert!(words.contains(&format!("could reach {} ms", reach_words(worst, 40.0))), "{words}");
        assert_eq!(words.contains("past the 40 ms target"), worst > 40.0, "{words}");
        // A loose target holds with the error applied (on TPOT alone: a loose TTFT limit lets users wait for a
        // slot up to it, `capacity`, and the operating point's wait is then no longer short).
        let r = eval(&base.replace(r#""tpot_ms":40,"ttft_ms":2000"#, r#""preset":"batch","tpot_ms":400"#));
        assert!(margin_words(&r).unwrap().ends_with("still inside the target."));
        // A band past ÷ / × 10 (consumer GPUs split over PCIe: TTFT ÷ / × 101 at P99) bounds nothing: said, not
        // multiplied out to hundreds of seconds.
        let r = eval(
            r#"{"hardware":{"preset":"rtx-4090","devices":2},"model":{"preset":"llama-3.1-8b"},"engine":{"preset":"vllm"},"workload":{"prompt_tokens":512,"output_tokens":128,"requests":100,"load":{"concurrency":[1,2,4]}},"target":{"tpot_ms":40,"ttft_ms":2000,"percentile":99}}"#,
        );
        assert!(r.band.ttft_tail_pct > UNBOUNDED_PCT, "{:?}", r.band);
        let words = margin_words(&r).unwrap();
        assert!(
            words.contains("P99 TTFT (") && words.contains("ms) is not bounded by it (9 in 10 of its class's runs were within ÷ / × 101)"),
            "{words}"
        );
        // Where no load meets the target, the same band says the ✗ rules nothing out; a bounded one says nothing.
        let r = eval(
            r#"{"hardware":{"preset":"rtx-4090","devices":2},"model":{"preset":"llama-3.1-8b"},"engine":{"preset":"vllm"},"workload":{"prompt_tokens":512,"output_tokens":128,"requests":100,"load":{"concurrency":[1,2,4]}},"target":{"tpot_ms":40,"ttft_ms":20,"percentile":99}}"#,
        );
        assert!(r.operating_point.is_none());
        let words = margin_words(&r).unwrap();
        assert!(
            words.starts_with("The P99 TTFT of this class is not bounded by the validated error (9 in 10 of its runs were within ÷ / × 101)"),
            "{words}"
        );
        let r = eval(&base.replace(r#""ttft_ms":2000"#, r#""ttft_ms":5"#));
        assert!(r.operating_point.is_none() && margin_words(&r).is_none());
        // Nor where a latency with a bounded band misses its limit beyond that band: it rules the deployment out alone.
        let r = eval(
            r#"{"hardware":{"preset":"rtx-4090","devices":2},"model":{"preset":"llama-3.1-8b"},"engine":{"preset":"vllm"},"workload":{"prompt_tokens":512,"output_tokens":128,"requests":100,"load":{"concurrency":[1,2,4]}},"target":{"tpot_ms":1,"ttft_ms":20,"percentile":99}}"#,
        );
        assert!(r.band.ttft_tail_pct > UNBOUNDED_PCT && r.band.tpot_tail_pct <= UNBOUNDED_PCT && r.operating_point.is_none());
        assert_eq!(margin_words(&r), None);
    }

    #[test]
    fn a_model_split_over_pcie_takes_the_pcie_latency_class() {
        let s = |json: &str| crate::scenario::Scenario::from_json(json).unwrap().resolve().unwrap().deployment;
        let one = s(r#"{"hardware":{"preset":"rtx-4090"},"model":{"preset":"llama-3.1-8b"},"engine":{"preset":"vllm"}}"#);
        let split = s(
            r#"{"hardware":{"preset":"rtx-4090","devices":4,"parallelism":"tensor"},"model":{"preset":"llama-3.1-8b"},"engine":{"preset":"vllm"}}"#,
        );
        let layers = s(r#"{"hardware":{"preset":"rtx-4090","devices":4,"parallelism":"layer-split"},"model":{"preset":"llama-3.1-8b"}}"#);
        let nvlink = s(r#"{"hardware":{"preset":"h100-sxm","devices":4},"model":{"preset":"llama-3.1-8b"}}"#);
        let p2p = s(r#"{"hardware":{"preset":"h100-pcie","devices":2},"model":{"preset":"llama-3.1-8b"}}"#);
        assert_eq!(band(&one).latency_class, LATENCY_SERVED.name);
        assert_eq!(band(&split).latency_class, LATENCY_PCIE_TP.name);
        assert_eq!(band(&nvlink).latency_class, LATENCY_SERVED.name);
        // Datacenter boards on PCIe copy peer to peer: the fast links' figures, under a name that says they are borrowed.
        assert_eq!((band(&p2p).latency_class.as_str(), band(&p2p).ttft_pct), (LATENCY_PCIE_P2P.name, LATENCY_SERVED.ttft_pct));
        // (A consumer GPU's default engine is llama.cpp.)
        assert_eq!(band(&layers).latency_class, LATENCY_LLAMA_CPP.name, "a layer split moves activations once per device, no all-reduce");
        assert!(band(&split).ttft_pct > band(&one).ttft_pct);
        // llama.cpp has no served runs: the serving engines' figures, under a name that says so.
        let cpp = s(r#"{"hardware":{"preset":"rtx-4090"},"model":{"preset":"llama-3.1-8b"},"engine":{"preset":"llama.cpp"}}"#);
        let b = band(&cpp);
        assert_eq!((b.latency_class.as_str(), b.ttft_pct), (LATENCY_LLAMA_CPP.name, LATENCY_SERVED.ttft_pct));
    }

    #[test]
    fn one_user_of_a_moe_model_on_a_serving_engine_takes_its_served_class() {
        let s = |json: &str| crate::scenario::Scenario::from_json(json).unwrap().resolve().unwrap().deployment;
        let ds = s(r#"{"hardware":{"preset":"mi300x","devices":8},"model":{"preset":"deepseek-v3"},"engine":{"preset":"sglang"}}"#);
        assert_eq!(classes(&ds).0, SINGLE_SERVING_MOE);
        let oss = s(r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"gpt-oss-120b"},"engine":{"preset":"vllm"}}"#);
        assert_eq!(classes(&oss).0, SINGLE_SERVING_MOE);
        // llama.cpp's MoE rows are in its single-stream fit; a dense model on a serving engine keeps the prior.
        let cpp = s(r#"{"hardware":{"preset":"rtx-4090"},"model":{"preset":"qwen3-30b-a3b"},"engine":{"preset":"llama.cpp"}}"#);
        assert_eq!(classes(&cpp).0, SINGLE_FITTED);
        let dense = s(r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"engine":{"preset":"vllm"}}"#);
        assert_eq!(classes(&dense).0, SINGLE_UNVALIDATED);
    }
}
