//! Preset tables, compiled into the binary: hardware (spec sheets), models (HF configs), engines (fitted
//! efficiencies) and latency targets (MLPerf). Each entry names its source.

pub mod engines;
pub(crate) mod guess;
pub mod hardware;
mod hardware_table;
pub mod models;
mod models_table;
pub mod targets;
