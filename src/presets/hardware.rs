//! Hardware presets: every device of `hardware.csv` (spec sheets, each row with its source), compiled in.

use super::guess::Rule;
use crate::model::hardware::{Architecture, HardwareKind};

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

pub use super::hardware_table::{HARDWARE, SERVER_BOARDS};

/// Devices in one node of preset `id` where the scenario gives none (`hardware.node_devices`): a GB200/GB300 NVL72
/// rack is one NVLink domain of 72; HGX and OAM boards hold 8.
#[must_use]
pub fn default_node_devices(id: &str) -> u32 {
    if id.starts_with("gb200") || id.starts_with("gb300") {
        72
    } else {
        8
    }
}

/// The computers an Apple chip ships in (Apple's product pages), for the device list: an operations trial looked for
/// "Mac Studio" and found only chip names. `None` for other devices.
#[must_use]
pub fn products(id: &str) -> Option<&'static str> {
    Some(match id {
        "m1" => "MacBook Air, MacBook Pro 13\", Mac mini, iMac",
        "m2" => "MacBook Air, MacBook Pro 13\", Mac mini",
        "m3" => "MacBook Air, MacBook Pro 14\", iMac",
        "m4" => "MacBook Air, MacBook Pro 14\", Mac mini, iMac",
        "m1-pro" | "m3-pro" | "m3-max-30c" | "m3-max-40c" => "MacBook Pro",
        "m2-pro" | "m4-pro" => "MacBook Pro, Mac mini",
        "m1-max" | "m2-max" | "m4-max-32c" | "m4-max-40c" => "MacBook Pro, Mac Studio",
        "m1-ultra" | "m3-ultra" => "Mac Studio",
        "m2-ultra" => "Mac Studio, Mac Pro",
        _ => return None,
    })
}

/// Finds a device by id (case-insensitive).
#[must_use]
pub fn find(id: &str) -> Option<&'static HwPreset> {
    HARDWARE.iter().find(|h| h.id.eq_ignore_ascii_case(id))
}

/// The generation of a preset device (from its id; every preset is covered, see the test).
#[must_use]
pub fn architecture(id: &str) -> Architecture {
    use Architecture as A;
    let id = id.to_ascii_lowercase();
    let has = |p: &str| id.starts_with(p);
    if has("a100") || has("a800") || has("a10") || has("a40") || has("rtx-a6000") || has("rtx-30") || has("jetson-agx-orin") {
        A::Ampere
    } else if has("h100") || has("h200") || has("h20") || has("h800") || has("gh200") {
        A::Hopper
    } else if has("b200") || has("gb200") || has("b300") || has("rtx-pro-6000-bw") || has("rtx-50") || has("dgx-spark") {
        A::Blackwell
    } else if has("l40") || has("l4") || has("l20") || has("rtx-6000-ada") || has("rtx-5000-ada") || has("rtx-4000-ada") || has("rtx-40") {
        A::Ada
    } else if has("t4") || has("rtx-20") || has("gtx-16") {
        A::Turing
    } else if has("v100") {
        A::Volta
    } else if has("tesla-p") || has("p40") || has("p100") || has("gtx-10") {
        A::Pascal
    } else if has("mi250") || has("mi210") {
        A::Cdna2
    } else if has("mi300") || has("mi325") {
        A::Cdna3
    } else if has("mi350") || has("mi355") {
        A::Cdna4
    } else if has("rx-6") {
        A::Rdna2
    } else if has("rx-7") || has("ryzen-ai-max") {
        A::Rdna3
    } else if has("rx-9") {
        A::Rdna4
    } else if has("arc-") {
        A::Xe
    } else if has("gaudi") {
        A::Gaudi
    } else if has("m1") {
        A::AppleM1
    } else if has("m2") {
        A::AppleM2
    } else if has("m3") {
        A::AppleM3
    } else if has("m4") {
        A::AppleM4
    } else if has("epyc") || has("xeon") || has("i9-") || has("i7-") || has("ryzen-9") {
        A::Cpu
    } else {
        A::Other
    }
}

/// Laptop variants share the desktop board's number but not its figures.
const NOT_DESKTOP: &[&str] = &["laptop", "mobile", "max-q"];

const HW_RULES: &[Rule] = &[
    Rule { id: "a100-40gb-sxm", all: &["a100", "sxm|sxm4", "40gb"], none: &["pcie"] },
    Rule { id: "a100-80gb-sxm", all: &["a100", "sxm|sxm4", "80gb"], none: &["pcie"] },
    Rule { id: "a100-80gb-pcie", all: &["a100", "pcie", "80gb"], none: &["sxm", "sxm4"] },
    // nvidia-smi calls the SXM board "NVIDIA H100 80GB HBM3" (the PCIe board has HBM2e and says PCIe).
    Rule { id: "h100-sxm", all: &["h100", "sxm|sxm5|hbm3"], none: &["pcie", "nvl"] },
    Rule { id: "h100-pcie", all: &["h100", "pcie"], none: &["nvl", "sxm", "sxm5"] },
    Rule { id: "h100-nvl", all: &["h100", "nvl"], none: &["pcie", "sxm", "sxm5"] },
    Rule { id: "h200-sxm", all: &["h200"], none: &["nvl"] },
    Rule { id: "b200", all: &["b200"], none: &[] },
    Rule { id: "gb200", all: &["gb200"], none: &[] },
    Rule { id: "l40s", all: &["l40s"], none: &[] },
    Rule { id: "l4", all: &["l4"], none: &[] },
    Rule { id: "a10", all: &["a10"], none: &[] },
    Rule { id: "a40", all: &["a40"], none: &[] },
    Rule { id: "t4", all: &["t4"], none: &[] },
    Rule { id: "v100-sxm2-32gb", all: &["v100", "sxm2", "32gb"], none: &[] },
    Rule { id: "rtx-pro-6000-bw", all: &["pro", "6000", "blackwell"], none: &["max", "server"] },
    Rule { id: "dgx-spark-gb10", all: &["gb10|spark"], none: &[] },
    Rule { id: "jetson-agx-orin-64gb", all: &["agx", "orin", "64gb"], none: &[] },
    Rule { id: "mi250x", all: &["mi250x"], none: &[] },
    Rule { id: "mi300x", all: &["mi300x"], none: &[] },
    Rule { id: "mi325x", all: &["mi325x"], none: &[] },
    Rule { id: "mi355x", all: &["mi355x"], none: &[] },
    Rule { id: "gaudi2", all: &["gaudi2"], none: &[] },
    Rule { id: "gaudi2", all: &["gaudi", "2"], none: &[] },
    Rule { id: "gaudi3", all: &["gaudi3"], none: &[] },
    Rule { id: "gaudi3", all: &["gaudi", "3"], none: &[] },
    Rule { id: "rtx-a6000", all: &["a6000"], none: &["ada"] },
    Rule { id: "rtx-6000-ada", all: &["6000", "ada"], none: &["pro", "sff"] },
    Rule { id: "rtx-5000-ada", all: &["5000", "ada"], none: &["sff"] },
    Rule { id: "rtx-4000-ada", all: &["4000", "ada"], none: &["sff"] },
    // The 8 GB RTX 3060 and the 12 GB RTX 3080 report the same name as the common variant: only a size that
    // says otherwise rules them out.
    Rule { id: "rtx-3060-12gb", all: &["3060"], none: &["ti", "8gb"] },
    Rule { id: "rtx-3070", all: &["3070"], none: &["ti"] },
    Rule { id: "rtx-3080-10gb", all: &["3080"], none: &["ti", "12gb"] },
    Rule { id: "rtx-3080ti", all: &["3080", "ti"], none: &[] },
    Rule { id: "rtx-3080ti", all: &["3080ti"], none: &[] },
    Rule { id: "rtx-3090", all: &["3090"], none: &["ti"] },
    Rule { id: "rtx-4070ti", all: &["4070", "ti"], none: &["super"] },
    Rule { id: "rtx-4070ti", all: &["4070ti"], none: &["super"] },
    Rule { id: "rtx-4080", all: &["4080"], none: &["super"] },
    Rule { id: "rtx-4090", all: &["4090"], none: &["d"] },
    Rule { id: "rtx-5080", all: &["5080"], none: &[] },
    Rule { id: "rtx-5090", all: &["5090"], none: &["d"] },
    Rule { id: "rx-7900-xtx", all: &["7900", "xtx"], none: &[] },
    Rule { id: "rx-7900-xt", all: &["7900", "xt"], none: &[] },
    Rule { id: "rx-7900-gre", all: &["7900", "gre"], none: &[] },
    Rule { id: "rx-7800-xt", all: &["7800", "xt"], none: &[] },
    Rule { id: "rx-6900-xt", all: &["6900", "xt"], none: &[] },
    Rule { id: "rx-6800-xt", all: &["6800", "xt"], none: &[] },
    Rule { id: "m1", all: &["apple", "m1"], none: &["pro", "max", "ultra"] },
    Rule { id: "m1-pro", all: &["apple", "m1", "pro"], none: &[] },
    Rule { id: "m1-max", all: &["apple", "m1", "max"], none: &[] },
    Rule { id: "m1-ultra", all: &["apple", "m1", "ultra"], none: &[] },
    Rule { id: "m2", all: &["apple", "m2"], none: &["pro", "max", "ultra"] },
    Rule { id: "m2-pro", all: &["apple", "m2", "pro"], none: &[] },
    Rule { id: "m2-max", all: &["apple", "m2", "max"], none: &[] },
    Rule { id: "m2-ultra", all: &["apple", "m2", "ultra"], none: &[] },
    Rule { id: "m3", all: &["apple", "m3"], none: &["pro", "max", "ultra"] },
    Rule { id: "m3-pro", all: &["apple", "m3", "pro"], none: &[] },
    // An M3/M4 Max comes in two GPU sizes with different bandwidth: only a name with the core count says which.
    Rule { id: "m3-max-30c", all: &["apple", "m3", "max", "30", "core"], none: &[] },
    Rule { id: "m3-max-40c", all: &["apple", "m3", "max", "40", "core"], none: &[] },
    Rule { id: "m3-ultra", all: &["apple", "m3", "ultra"], none: &[] },
    Rule { id: "m4", all: &["apple", "m4"], none: &["pro", "max", "ultra"] },
    Rule { id: "m4-pro", all: &["apple", "m4", "pro"], none: &[] },
    Rule { id: "m4-max-32c", all: &["apple", "m4", "max", "32", "core"], none: &[] },
    Rule { id: "m4-max-40c", all: &["apple", "m4", "max", "40", "core"], none: &[] },
    // Strix Halo; its GPU reports itself as Radeon 8060S.
    Rule { id: "ryzen-ai-max-395", all: &["ryzen", "395"], none: &[] },
    Rule { id: "ryzen-ai-max-395", all: &["8060s"], none: &[] },
    Rule { id: "h20", all: &["h20"], none: &[] },
    Rule { id: "l20", all: &["l20"], none: &[] },
    Rule { id: "a800-80gb-sxm", all: &["a800"], none: &["pcie", "40gb"] },
    Rule { id: "h800-sxm", all: &["h800"], none: &["pcie"] },
    Rule { id: "b300", all: &["b300"], none: &[] },
    Rule { id: "arc-b580", all: &["b580"], none: &[] },
];

/// The preset a device name most likely refers to: nvidia-smi / CUDA names (`NVIDIA GeForce RTX 4090`, `NVIDIA
/// H100 80GB HBM3`, `NVIDIA A100-SXM4-80GB`), ROCm and Metal names (`AMD Radeon RX 7900 XTX`, `Apple M2 Ultra`),
/// or a `--metadata` value like `H100-SXM5-80GB`. A comma-separated list (llama-bench on several GPUs) is guessed
/// when every entry is the same device. CPUs (whose speed depends on the memory fitted), variants that share a
/// name but not the figures, and unknown names give `None`.
#[must_use]
pub fn guess(name: &str) -> Option<&'static HwPreset> {
    let mut found: Option<&'static str> = None;
    for part in name.split([',', ';']).map(str::trim).filter(|p| !p.is_empty()) {
        let mut toks = super::guess::tokens(part);
        if part.to_ascii_lowercase().contains("max-q") {
            toks.push("max-q".into());
        }
        if toks.iter().any(|t| NOT_DESKTOP.contains(&t.as_str())) {
            return None;
        }
        let id = super::guess::unique(HW_RULES, &toks)?;
        if found.is_some_and(|f| f != id) {
            return None;
        }
        found = Some(id);
    }
    find(found?)
}

#[cfg(test)]
mod tests {

    #[test]
    fn every_preset_has_a_generation() {
        use crate::model::hardware::Architecture as A;
        for h in super::HARDWARE {
            let a = super::architecture(h.id);
            assert_ne!(a, A::Other, "{} has no generation", h.id);
            let apple = matches!(a, A::AppleM1 | A::AppleM2 | A::AppleM3 | A::AppleM4);
            assert_eq!(apple, h.kind == crate::model::hardware::HardwareKind::AppleSilicon, "{}: {a:?}", h.id);
            assert_eq!(a == A::Cpu, h.kind == crate::model::hardware::HardwareKind::Cpu, "{}: {a:?}", h.id);
        }
        assert_eq!(super::architecture("h100-sxm"), A::Hopper);
        assert_eq!(super::architecture("a100-80gb-sxm"), A::Ampere);
        assert_eq!(super::architecture("l40s"), A::Ada);
        assert_eq!(super::architecture("rtx-pro-6000-bw"), A::Blackwell);
        assert_eq!(super::architecture("mi300x"), A::Cdna3);
    }

    use super::*;

    #[test]
    fn every_rule_names_a_preset() {
        for r in HW_RULES {
            assert!(find(r.id).is_some(), "{}", r.id);
        }
    }

    #[test]
    fn guesses_realistic_names() {
        for (name, id) in [
            ("NVIDIA GeForce RTX 4090", Some("rtx-4090")),
            ("NVIDIA GeForce RTX 4090, NVIDIA GeForce RTX 4090", Some("rtx-4090")),
            ("NVIDIA H100 80GB HBM3", Some("h100-sxm")),
            ("H100-SXM5-80GB", Some("h100-sxm")),
            ("NVIDIA H100 PCIe", Some("h100-pcie")),
            ("NVIDIA H100 NVL", Some("h100-nvl")),
            ("NVIDIA H200", Some("h200-sxm")),
            ("NVIDIA A100-SXM4-80GB", Some("a100-80gb-sxm")),
            ("NVIDIA A100-SXM4-40GB", Some("a100-40gb-sxm")),
            ("NVIDIA A100 80GB PCIe", Some("a100-80gb-pcie")),
            ("NVIDIA L40S", Some("l40s")),
            ("NVIDIA L4", Some("l4")),
            ("Tesla T4", Some("t4")),
            ("NVIDIA RTX A6000", Some("rtx-a6000")),
            ("NVIDIA RTX 6000 Ada Generation", Some("rtx-6000-ada")),
            ("NVIDIA RTX PRO 6000 Blackwell Workstation Edition", Some("rtx-pro-6000-bw")),
            ("NVIDIA GeForce RTX 3080 Ti", Some("rtx-3080ti")),
            ("NVIDIA GB10", Some("dgx-spark-gb10")),
            ("AMD Instinct MI300X", Some("mi300x")),
            ("AMD Radeon RX 7900 XTX", Some("rx-7900-xtx")),
            ("AMD Radeon RX 7900 XT", Some("rx-7900-xt")),
            ("Apple M2 Ultra", Some("m2-ultra")),
            ("Apple M1 Max", Some("m1-max")),
            ("Apple M4", Some("m4")),
            ("Intel(R) Arc(TM) B580 Graphics", Some("arc-b580")),
            // Negatives: other variants, ambiguous names, CPUs, mixed systems, unknown devices.
            ("NVIDIA A10G", None),
            ("NVIDIA A100-PCIE-40GB", None),
            ("NVIDIA A100", None),
            ("NVIDIA L40", None),
            ("NVIDIA H200 NVL", None),
            ("NVIDIA GeForce RTX 4090 Laptop GPU", None),
            ("NVIDIA GeForce RTX 4090 D", None),
            ("NVIDIA GeForce RTX 3090 Ti", None),
            ("NVIDIA GeForce RTX 4080 SUPER", None),
            ("NVIDIA RTX 4000 SFF Ada Generation", None),
            ("Tesla V100-SXM2-16GB", None),
            ("Apple M3 Max", None),
            ("AMD EPYC 9454 48-Core Processor", None),
            ("13th Gen Intel(R) Core(TM) i9-13900K", None),
            ("NVIDIA GeForce RTX 4090, NVIDIA GeForce RTX 3090", None),
            ("gfx942", None),
            ("", None),
        ] {
            assert_eq!(guess(name).map(|p| p.id), id, "{name}");
        }
    }
}
