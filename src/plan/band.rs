//! The uncertainty band a report states, by class of prediction, from the validated out-of-sample error
//! (`tests/validation.rs`, `tests/serving.rs`).
//!
//! A band is the p90 of |predicted ÷ measured − 1| over the class's rows, rounded up: 9 in 10 measured figures
//! of that class fell within it. Each class carries its row count and where the figure comes from; the tests
//! recompute every class's p90 and fail when it outgrows the table, or falls more than 10 points below it (the
//! table follows the data both ways). Bands under load are drawn multiplicatively (÷ (1 + b) … × (1 + b)):
//! errors of a few hundred per cent are over-predictions, and a "− 400 %" has no meaning.

use super::*;

/// A class of predictions and its validated error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BandClass {
    /// What the class covers, as the page says it.
    pub name: &'static str,
    /// Measured figures the error rests on (0: none; the band is then a stated prior).
    pub rows: u32,
    /// The band: p90 |error|, %, rounded up.
    pub p90_pct: f64,
    /// Where the figure comes from.
    pub basis: &'static str,
}

/// Single stream, llama.cpp on the fitted GPU and Apple families.
pub const SINGLE_FITTED: BandClass = BandClass {
    name: "llama.cpp on a fitted GPU or Apple family",
    rows: 19,
    p90_pct: 17.0,
    basis: "four single-stream sources never fitted on (tests/data/single_stream_new.csv), 16.8 %",
};

/// Single stream elsewhere: no single-stream measurement backs the defaults.
pub const SINGLE_UNVALIDATED: BandClass = BandClass {
    name: "another engine or device",
    rows: 0,
    p90_pct: 25.0,
    basis: "a stated prior: this model's single-stream p90 before its 2024 fit",
};

/// Under load, dense models.
pub const LOAD_DENSE: BandClass = BandClass {
    name: "dense models",
    rows: 296,
    p90_pct: 49.0,
    basis: "leave-one-source-out: batched throughput of dense models (203 rows, 37.7 %) and output tok/s of served runs on current engines (93 runs, 48.2 %)",
};

/// Under load, mixture-of-experts models.
pub const LOAD_MOE: BandClass = BandClass {
    name: "mixture-of-experts models",
    rows: 172,
    p90_pct: 143.0,
    basis: "leave-one-source-out: batched throughput of MoE models (45 rows, 40.7 %) and output tok/s of served runs on current engines (127 runs, 142.7 %: immature MoE paths of some engine releases, DP attention and MoE kernels at small token counts are not modelled)",
};

/// Every class, for the accuracy table.
pub const CLASSES: [BandClass; 4] = [SINGLE_FITTED, SINGLE_UNVALIDATED, LOAD_DENSE, LOAD_MOE];

/// The classes a deployment's predictions fall in: (single stream, under load).
#[must_use]
pub fn classes(d: &Deployment) -> (BandClass, BandClass) {
    use crate::model::hardware::HardwareKind as K;
    let fitted = d.engine.kind == crate::model::engine::EngineKind::LlamaCpp
        && matches!(d.hardware.kind, K::ConsumerGpu | K::WorkstationGpu | K::DatacenterGpu | K::AppleSilicon);
    (if fitted { SINGLE_FITTED } else { SINGLE_UNVALIDATED }, if d.model.is_moe() { LOAD_MOE } else { LOAD_DENSE })
}

/// The band a report states: its classes' validated p90s, and energy's wider band (the band under load plus
/// [`energy::BAND_EXTRA_PCT`]: the power model is not validated).
#[must_use]
pub fn band(d: &Deployment) -> Band {
    let (single, load) = classes(d);
    Band {
        single_stream_pct: single.p90_pct,
        batched_pct: load.p90_pct,
        energy_pct: load.p90_pct + energy::BAND_EXTRA_PCT,
        single_stream_class: single.name.into(),
        single_stream_rows: single.rows,
        load_class: load.name.into(),
        load_rows: load.rows,
    }
}
