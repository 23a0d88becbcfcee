//! Hardware: a preset and/or explicit per-device numbers; a typed-over preset is named as changed.

use super::super::checks::{check, check_u, opt_pos, unknown};
use super::super::*;
use crate::model::hardware::{Architecture, Hardware, HardwareKind, Parallelism};
use crate::presets;

pub(crate) fn resolve_hardware(s: &HardwareSpec, defaults: &mut Vec<String>) -> Result<Hardware, ScenarioError> {
    let p = match &s.preset {
        Some(id) => {
            Some(presets::hardware::find(id).ok_or_else(|| unknown("hardware.preset", id, presets::hardware::HARDWARE.iter().map(|h| h.id)))?)
        }
        None => None,
    };
    // A comparison must not hide its weakest input (a trial's A vs B rested on MI300X figures `tps presets` marks
    // unverified, and nothing else said so).
    let all_typed = s.memory_bandwidth_gbps.is_some() && s.memory_gb.is_some() && s.fp16_tflops.is_some();
    if let Some(p) = p.filter(|p| !p.verified && !all_typed) {
        defaults.push(format!(
            "hardware: {}'s figures are not checked against a vendor sheet yet (its source: `tps presets hardware`); type the bandwidth, memory and compute you trust to override them",
            p.name
        ));
    }
    let bw = match s.memory_bandwidth_gbps.or(p.map(|p| p.bandwidth_gbps)) {
        // Floors no accelerator is under (a trial's 1e-6 TFLOPS read a TTFT of 272 days).
        Some(v) => check("hardware.memory_bandwidth_gbps", v, 1.0, 100_000.0, "GB/s")?,
        None => return Err(ScenarioError::new("hardware.memory_bandwidth_gbps", "required: give a hardware preset or the memory bandwidth in GB/s")),
    };
    let kind = match s.kind.or(p.map(|p| p.kind)) {
        Some(k) => k,
        None => {
            defaults.push("hardware.kind: other".into());
            HardwareKind::Other
        }
    };
    let devices = check_u("hardware.devices", s.devices.unwrap_or(1), 1, 1024)?;
    let memory_gb = s.memory_gb.or(p.map(|p| p.memory_gb)).map(|v| check("hardware.memory_gb", v, 1.0, 100_000.0, "GiB")).transpose()?;
    let fp16 = match s.fp16_tflops.or(p.and_then(|p| p.fp16_tflops)).map(|v| check("hardware.fp16_tflops", v, 0.01, 1e6, "TFLOPS")).transpose()? {
        Some(v) => v,
        None => {
            let v = bw / 1000.0 * kind.default_tflops_per_tbps();
            defaults.push(format!("hardware.fp16_tflops: {v:.0} (typical {} ratio to bandwidth)", kind.id()));
            v
        }
    };
    // Tensor parallel until the engine is known (llama.cpp then defaults to its layer split, in `resolve`).
    let parallelism = s.parallelism.unwrap_or(Parallelism::Tensor);
    // A preset whose numbers were typed over is no longer that product: the name says what changed, so a
    // summary never claims "on H100" for a device with another bandwidth.
    let name = match (&s.name, p) {
        (Some(n), _) => n.clone(),
        (None, Some(p)) => {
            let num = crate::model::units::fmt_num;
            let mut changed = Vec::new();
            let mut differs = |what: &str, given: Option<f64>, preset: Option<f64>, unit: &str| {
                if let Some(v) = given.filter(|v| preset.is_none_or(|q| (q - v).abs() > 1e-9 * q.abs().max(1.0))) {
                    changed.push(format!("{what} set to {} {unit}", num(v)));
                }
            };
            differs("bandwidth", s.memory_bandwidth_gbps, Some(p.bandwidth_gbps), "GB/s");
            differs("memory", s.memory_gb, Some(p.memory_gb), "GiB");
            differs("FP16 compute", s.fp16_tflops, p.fp16_tflops, "TFLOPS");
            differs("FP8 compute", s.fp8_tflops, p.fp8_tflops, "TFLOPS");
            differs("FP4 compute", s.fp4_tflops, p.fp4_tflops, "TFLOPS");
            differs("INT8", s.int8_tops, p.int8_tops, "TOPS");
            differs("interconnect", s.interconnect_gbps, Some(p.interconnect_gbps), "GB/s");
            if let Some(a) = s.architecture.filter(|a| *a != presets::hardware::architecture(p.id)) {
                changed.push(format!("architecture set to {}", a.id()));
            }
            if let Some(k) = s.kind.filter(|k| *k != p.kind) {
                changed.push(format!("kind set to {}", k.id()));
            }
            if changed.is_empty() {
                p.name.to_string()
            } else {
                format!("{} ({})", p.name, changed.join(", "))
            }
        }
        (None, None) => format!(
            "{} GB/s {}",
            crate::model::units::fmt_num(bw),
            if kind == HardwareKind::Other { "device".to_string() } else { kind.id().replace('-', " ") }
        ),
    };
    let architecture = s.architecture.or(p.map(|p| presets::hardware::architecture(p.id))).unwrap_or_else(|| Architecture::typical_for(kind));
    // The 16-bit figure's floor for FP8 and FP4 too (a bad-input trial's 1e-9 TFLOPS had been taken).
    let fp8_tflops = s.fp8_tflops.or(p.and_then(|p| p.fp8_tflops)).map(|v| check("hardware.fp8_tflops", v, 0.01, 1e6, "TFLOPS")).transpose()?;
    let fp4_tflops = s.fp4_tflops.or(p.and_then(|p| p.fp4_tflops)).map(|v| check("hardware.fp4_tflops", v, 0.01, 1e6, "TFLOPS")).transpose()?;
    // Tensor cores run FP8 at most twice as fast as 16-bit (every preset: 1–2 × dense) and FP4 at most 4 × FP8 (below).
    // More is a sparse figure, or a number left from another device: a custom card typed at 180 TFLOPS
    // kept an H100's FP8 1,979 and prefilled 10 × too fast. Checked against a 16-bit figure given, not a default.
    let given = s.fp16_tflops.or(p.and_then(|p| p.fp16_tflops)).is_some();
    // FP4 may run up to 4 × the FP8 figure: Blackwell Ultra (B300) runs dense FP4 at 3 × its FP8, and GeForce
    // Blackwell (RTX 5090: FP4 1,676, FP8 with FP32 accumulate 419) at 4 × (an audit, 2026-12-07: both had been held
    // to 2 ×, their datasheets' FP4 refused). A preset's own ratio bounds it where it is lower, so a sparse figure
    // typed over a B200 (18,000 for 9,000) is still caught (a review).
    let fp4_most = p.and_then(|p| Some(p.fp4_tflops? / p.fp8_tflops?)).map_or(4.0, |x| x.clamp(2.0, 4.0));
    for (field, name, v, typed, base, base_name, most) in [
        ("hardware.fp8_tflops", "FP8", fp8_tflops, s.fp8_tflops.is_some(), given.then_some(fp16), "16-bit", 2.0),
        ("hardware.fp4_tflops", "FP4", fp4_tflops, s.fp4_tflops.is_some(), fp8_tflops, "FP8", fp4_most),
    ] {
        if let (Some(v), Some(base)) = (v, base) {
            if v > (most + 0.05) * base {
                let f = crate::model::units::fmt_num;
                let (what, fix) = if typed {
                    (String::new(), "or leave it empty".to_string())
                } else {
                    (format!(" (the preset's {name})"), format!("give {name} compute too"))
                };
                // The preset's figure against a 16-bit one typed over it: the message goes beside the field typed, not
                // on an empty one the user never touched (a trial's FP16 900 on an H100 was refused on the FP8 field).
                let field = match field {
                    "hardware.fp8_tflops" if !typed && s.fp16_tflops.is_some() => "hardware.fp16_tflops",
                    "hardware.fp4_tflops" if !typed && s.fp8_tflops.is_some() => "hardware.fp8_tflops",
                    f => f,
                };
                return Err(ScenarioError::new(
                    field,
                    format!(
                        "{} TFLOPS{what} is {:.1} × the device's {base_name} compute ({} TFLOPS), where tensor cores run {name} at most {most} × as fast (a sparse figure, or another device's?): up to {} TFLOPS, {fix}",
                        f(v),
                        v / base,
                        f(base),
                        f(most * base)
                    ),
                ));
            }
        }
    }
    // H100 NVL boards are bridged in pairs (NVLink, 600 GB/s both ways): a split over more than two crosses PCIe Gen5
    // between the pairs, and a ring all-reduce runs at its slowest link (an operations trial's 4 × H100 NVL had been
    // split at NVLink's speed: capacity 2.01 req/s, where 64 GB/s gives 0.68).
    let mut default_interconnect = p.map_or(32.0, |p| p.interconnect_gbps);
    let bridged_pairs = p.filter(|p| p.id == "h100-nvl" && s.interconnect_gbps.is_none()).map(|p| p.interconnect_gbps);
    if bridged_pairs.is_some() && devices > 2 {
        default_interconnect = crate::model::hardware::PCIE_GEN5_GBPS;
        defaults.push(format!(
            "hardware.interconnect_gbps: {} (PCIe Gen5 ×16: H100 NVL's NVLink bridges join pairs, so a split over {devices} crosses PCIe between them)",
            crate::model::hardware::PCIE_GEN5_GBPS
        ));
    }
    Ok(Hardware {
        name,
        architecture,
        kind,
        memory_bandwidth_gbps: bw,
        // Filled in by `Resolved::settle_memory` once the model is known (a default needs the weights' size).
        memory_gb: memory_gb.unwrap_or(f64::NAN),
        fp16_tflops: fp16,
        fp8_tflops,
        fp4_tflops,
        int8_tops: opt_pos("hardware.int8_tops", s.int8_tops.or(p.and_then(|p| p.int8_tops)), 1e6, "TOPS")?,
        devices,
        parallelism,
        // From 0.1 GB/s, about gigabit Ethernet's, the slowest link devices are split over (a bad-input trial's 1e-9
        // GB/s had read "one request alone waits 268435456027 ms").
        interconnect_gbps: check("hardware.interconnect_gbps", s.interconnect_gbps.unwrap_or(default_interconnect), 0.1, 100_000.0, "GB/s")?,
        allreduce_us: opt_pos("hardware.allreduce_us", s.allreduce_us, 1e6, "µs")?,
        tdp_watts: opt_pos("hardware.tdp_watts", s.tdp_watts.or(p.and_then(|p| p.tdp_watts)), 1e6, "W")?,
        // An operations trial (2026-12-06) sized one server of 4 × H200 on a board of 4 and was charged for a node of 8.
        node_devices: match s.node_devices {
            Some(n) => check_u("hardware.node_devices", n, 1, 1024)?,
            None => presets::hardware::default_node_devices(p.map_or("", |p| p.id)),
        },
        bridged_pairs,
    })
}
