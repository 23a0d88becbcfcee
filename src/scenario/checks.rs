//! Range checks at the edge, each error naming its field and the allowed range (numbers printed compactly:
//! `1e308`, never a 309-digit string).

use super::ScenarioError;
use crate::model::hardware::HardwareKind;

pub(crate) fn default_backend(kind: HardwareKind) -> &'static str {
    match kind {
        HardwareKind::AppleSilicon => "metal",
        HardwareKind::Cpu => "cpu",
        _ => "cuda",
    }
}

pub(crate) fn unknown<'a>(field: &str, id: &str, valid: impl Iterator<Item = &'a str>) -> ScenarioError {
    let list: Vec<&str> = valid.collect();
    // The ids that contain what was typed come first, as the likely meaning (a pre-sales trial typed "h100" and
    // "mi300" and read twelve other ids of 75, without mi300x).
    let low = id.trim().to_ascii_lowercase();
    let near: Vec<&str> = list.iter().filter(|v| low.len() >= 2 && v.to_ascii_lowercase().contains(&low)).copied().take(8).collect();
    if !near.is_empty() {
        return ScenarioError::new(
            field,
            format!("unknown id \"{id}\": did you mean {}? ({} in all: the page's lists, or `tps presets`)", near.join(", "), list.len()),
        );
    }
    let shown = if list.len() > 12 {
        format!("{}, … ({} in all: the page's lists, or `tps presets`)", list[..12].join(", "), list.len())
    } else {
        list.join(", ")
    };
    ScenarioError::new(field, format!("unknown id \"{id}\"; valid: {shown}"))
}

/// Checks `lo ≤ v ≤ hi` and finiteness.
pub(crate) fn check(field: &str, v: f64, lo: f64, hi: f64, unit: &str) -> Result<f64, ScenarioError> {
    let range = format!("{}–{} {unit}", bound(lo), bound(hi)).trim_end().to_string();
    if !v.is_finite() {
        return Err(ScenarioError::new(field, format!("must be a finite number ({range})")));
    }
    if v < lo || v > hi {
        return Err(ScenarioError::new(field, format!("{} is out of range: allowed {range}", bound(v))));
    }
    Ok(v)
}

/// A number in a range message: whole numbers from 10,000 grouped by thousands as the page groups them
/// ("1 000 000"; a trial read "(up to 1000000 )").
fn bound(v: f64) -> String {
    if v.fract() == 0.0 && (10_000.0..1e15).contains(&v.abs()) {
        crate::plan::readout::group(v)
    } else {
        crate::model::units::fmt_num(v)
    }
}

/// A number that must be more than 0 and at most `hi` (0 itself is refused, so the range does not say "0–").
pub(crate) fn positive(field: &str, v: f64, hi: f64, unit: &str) -> Result<f64, ScenarioError> {
    let up_to = format!("up to {} {unit}", bound(hi)).trim_end().to_string();
    let range = format!("more than 0, {up_to}");
    if !v.is_finite() {
        return Err(ScenarioError::new(field, format!("must be a finite number ({range})")));
    }
    if v <= 0.0 {
        return Err(ScenarioError::new(field, format!("must be greater than 0 ({up_to})")));
    }
    if v > hi {
        return Err(ScenarioError::new(field, format!("{} is out of range: allowed {range}", bound(v))));
    }
    Ok(v)
}

pub(crate) fn check_u(field: &str, v: u32, lo: u32, hi: u32) -> Result<u32, ScenarioError> {
    if v < lo || v > hi {
        return Err(ScenarioError::new(field, format!("{v} is out of range: allowed {lo}–{hi}")));
    }
    Ok(v)
}

pub(crate) fn opt_pos(field: &str, v: Option<f64>, hi: f64, unit: &str) -> Result<Option<f64>, ScenarioError> {
    v.map(|x| positive(field, x, hi, unit)).transpose()
}
