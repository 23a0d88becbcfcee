//! Preset tables, compiled into the binary: hardware (spec sheets), models (HF configs), engines (fitted
//! efficiencies) and latency targets (MLPerf). Each entry names its source.

pub mod engines;
pub(crate) mod guess;
pub mod hardware;
mod hardware_table;
pub mod models;
mod models_table;
pub mod targets;

/// A preset's citation (hardware, models, engines, latency targets). The native build keeps it (`tps presets` prints
/// it under each hardware and model entry);
/// the page's wasm build, which never shows it, compiles it out (about 10 KB of text, 4 KB gzipped).
#[must_use]
pub const fn cited(source: &'static str) -> &'static str {
    if cfg!(target_arch = "wasm32") {
        ""
    } else {
        source
    }
}
