//! Latency targets: MLPerf Inference P99 limits and the interactive reading floor.
//!
//! MLPerf Inference (datacenter, server scenario) constrains TTFT and TPOT at the 99th percentile; the
//! interactive variants were added in v5.0 (Llama-2-70B) and v5.1 (Llama-3.1-8B). The reader floor comes from
//! reading speed: 20–25 tok/s per user (TPOT 40–50 ms) feels interactive, below ~10 tok/s sluggish.

/// A named latency target.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TargetPreset {
    pub id: &'static str,
    pub name: &'static str,
    /// TTFT limit, ms (`None`: no limit).
    pub ttft_ms: Option<f64>,
    /// TPOT limit, ms (`None`: no limit).
    pub tpot_ms: Option<f64>,
    pub percentile: f64,
    pub source: &'static str,
}

/// All targets.
pub const TARGETS: &[TargetPreset] = &[
    TargetPreset {
        id: "reader",
        name: "Interactive reader (25 tok/s)",
        ttft_ms: Some(2000.0),
        tpot_ms: Some(40.0),
        percentile: 99.0,
        source: super::cited("reading-speed floor: 20–25 tok/s per user"),
    },
    TargetPreset {
        id: "mlperf-llama2-70b-interactive",
        name: "MLPerf Llama-2-70B interactive",
        ttft_ms: Some(450.0),
        tpot_ms: Some(40.0),
        percentile: 99.0,
        source: super::cited("MLPerf Inference v5.0 datacenter rules"),
    },
    TargetPreset {
        id: "mlperf-llama3.1-8b-interactive",
        name: "MLPerf Llama-3.1-8B interactive",
        ttft_ms: Some(500.0),
        tpot_ms: Some(30.0),
        percentile: 99.0,
        source: super::cited("MLPerf Inference v5.1 datacenter rules"),
    },
    TargetPreset {
        id: "mlperf-llama2-70b",
        name: "MLPerf Llama-2-70B server",
        ttft_ms: Some(2000.0),
        tpot_ms: Some(200.0),
        percentile: 99.0,
        source: super::cited("MLPerf Inference v4.0 datacenter rules"),
    },
    TargetPreset {
        id: "mlperf-llama3.1-8b",
        name: "MLPerf Llama-3.1-8B server",
        ttft_ms: Some(2000.0),
        tpot_ms: Some(100.0),
        percentile: 99.0,
        source: super::cited("MLPerf Inference v5.1 datacenter rules"),
    },
    TargetPreset {
        id: "mlperf-llama3.1-405b",
        name: "MLPerf Llama-3.1-405B server",
        ttft_ms: Some(6000.0),
        tpot_ms: Some(175.0),
        percentile: 99.0,
        source: super::cited("MLPerf Inference v5.0 datacenter rules"),
    },
    TargetPreset {
        id: "batch",
        name: "Batch (latency free)",
        ttft_ms: None,
        tpot_ms: None,
        percentile: 99.0,
        source: super::cited("offline jobs: maximise system TPS"),
    },
];

/// Finds a target by id (case-insensitive).
#[must_use]
pub fn find(id: &str) -> Option<&'static TargetPreset> {
    TARGETS.iter().find(|t| t.id.eq_ignore_ascii_case(id))
}
