//! The uncertainty band a report states, from the validated error (`tests/validation.rs`).

use super::*;

/// Uncertainty bands: the p90 absolute percentage error *out of sample*, measured by `tests/validation.rs` on
/// `tests/data` and rounded up — single stream: llama.cpp on the fitted GPU and Apple families against four
/// sources never fitted on (16.8 %; in-sample 14.2 %); batched throughput: leave-one-source-out (56.5 %;
/// in-sample 38.3 %). The validation test fails if a measured p90 grows past them.
/// Energy figures get a wider band ([`energy::BAND_PCT`]): their power model is not validated.
pub const BAND: Band = Band { single_stream_pct: 17.0, batched_pct: 57.0, energy_pct: energy::BAND_PCT };

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
