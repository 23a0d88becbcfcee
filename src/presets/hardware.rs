//! Hardware presets: every device of `hardware.csv` (spec sheets, each row with its source), compiled in.

use crate::model::hardware::HardwareKind;

/// One device from the table (per-device figures; multi-device systems set `devices` in the scenario).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HwPreset {
    pub id: &'static str,
    pub name: &'static str,
    pub kind: HardwareKind,
    pub bandwidth_gbps: f64,
    pub memory_gb: f64,
    pub fp16_tflops: Option<f64>,
    pub fp8_tflops: Option<f64>,
    pub fp4_tflops: Option<f64>,
    pub int8_tops: Option<f64>,
    pub interconnect_gbps: f64,
    pub tdp_watts: Option<f64>,
    /// Whether the spec values were re-read against the vendor source.
    pub verified: bool,
    pub source: &'static str,
}

pub use super::hardware_table::HARDWARE;

/// Finds a device by id (case-insensitive).
#[must_use]
pub fn find(id: &str) -> Option<&'static HwPreset> {
    HARDWARE.iter().find(|h| h.id.eq_ignore_ascii_case(id))
}
