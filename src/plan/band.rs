//! The uncertainty band a report states, from the validated error (`tests/validation.rs`).

use super::*;

/// Uncertainty bands: the p90 absolute percentage error measured by `tests/validation.rs` on `tests/data`
/// (single stream: llama-bench decode rows, 14.1 %; batched throughput, 38.7 %), rounded up. The validation
/// test fails if the measured p90 grows past them.
/// Energy figures get a wider band ([`energy::BAND_PCT`]): their power model is not validated.
pub const BAND: Band = Band { single_stream_pct: 15.0, batched_pct: 40.0, energy_pct: energy::BAND_PCT };

/// The single-stream band where no measurement backs the fit: engines other than llama.cpp at batch 1, and
/// CPUs and other devices (their defaults are estimates); the pre-2024 single-stream p90 of this model.
pub const UNVALIDATED_SINGLE_STREAM_PCT: f64 = 25.0;

/// The band a report states: [`BAND`] where the fitted llama.cpp GPU and Apple families cover the single-stream
/// figure, the wider [`UNVALIDATED_SINGLE_STREAM_PCT`] elsewhere.
#[must_use]
pub fn band(d: &Deployment) -> Band {
    use crate::model::hardware::HardwareKind as K;
    let fitted = d.engine.kind == crate::model::engine::EngineKind::LlamaCpp
        && matches!(d.hardware.kind, K::ConsumerGpu | K::WorkstationGpu | K::DatacenterGpu | K::AppleSilicon);
    Band { single_stream_pct: if fitted { BAND.single_stream_pct } else { UNVALIDATED_SINGLE_STREAM_PCT }, ..BAND }
}
