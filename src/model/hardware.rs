//! The accelerator (or CPU) a model runs on, after presets and defaults are applied.
//!
//! All figures are per device, from spec sheets: memory bandwidth in GB/s (decimal), memory in GB, dense
//! (non-sparse) tensor throughput in TFLOPS. NVIDIA datacenter "with sparsity" figures are halved; consumer
//! GeForce figures are FP16 with FP32 accumulate.
//!
//! Multi-device systems come in two kinds, which behave very differently for one stream:
//! - **Tensor parallel** (vLLM/SGLang/TensorRT-LLM `tp`): every layer is split across all devices, so all
//!   devices stream their slice of the weights at the same time. Bandwidth and compute add up; each layer then
//!   pays two all-reduces of the activations over the interconnect.
//! - **Layer split** (llama.cpp's default `-sm layer`, pipeline parallel): each device holds a contiguous block of
//!   layers and a token passes through them in turn. Memory adds up; for a single stream the devices work one
//!   after another, so the time per token is the same as one device with all the memory. This is why llama.cpp
//!   runs on 1, 2, 4 or 8 GPUs show nearly the same batch-1 tokens/s.
//! - **Row split** (llama.cpp `-sm row`; the default before the January 2024 ggml-backend rewrite, PR #4766):
//!   each weight matrix is split by rows, so the weights stream from all devices at once, but the KV cache and
//!   attention stay on the main device and each of a layer's matrix multiplications ends with a copy of the
//!   partial results to the main device and a synchronisation. That wait, ≈ 0.1 ms per layer per extra device
//!   over PCIe, costs more than the bandwidth gains on a small model: a 7B Q4_0 ran at 121 tok/s on one RTX 3090
//!   and 53 tok/s on two (llama.cpp build 1691, December 2023).
//! - **Pipeline parallel** (TensorRT-LLM/vLLM `pp`): the same split, but the engine keeps `n` micro-batches in
//!   flight, one per stage. One stream is no faster; a batch of B advances one token in the time one device
//!   needs for B/n sequences, so batch throughput scales with the stages (TensorRT-LLM's RTX PRO 6000 PP2/4/8
//!   Llama-3.3-70B rows: 3.3k → 6.2k → 9.6k → 11.9k tok/s). Counting a pipeline as a llama.cpp layer split
//!   under-predicts those rows by 55–90 %.

use serde::{Deserialize, Serialize};

/// Broad hardware family; selects default efficiencies and default compute when a spec is missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "kebab-case")]
pub enum HardwareKind {
    DatacenterGpu,
    WorkstationGpu,
    ConsumerGpu,
    AppleSilicon,
    Cpu,
    Other,
}

impl HardwareKind {
    /// All kinds, for listings.
    pub const ALL: [HardwareKind; 6] = [Self::DatacenterGpu, Self::WorkstationGpu, Self::ConsumerGpu, Self::AppleSilicon, Self::Cpu, Self::Other];

    /// The kebab-case id used in scenarios.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Self::DatacenterGpu => "datacenter-gpu",
            Self::WorkstationGpu => "workstation-gpu",
            Self::ConsumerGpu => "consumer-gpu",
            Self::AppleSilicon => "apple-silicon",
            Self::Cpu => "cpu",
            Self::Other => "other",
        }
    }

    /// What one device is called where a figure is given per device ("output tok/s per GPU"): a CPU's throughput
    /// per GPU had read oddly (an operations trial), an Apple chip is a chip.
    #[must_use]
    pub fn noun(self) -> &'static str {
        match self {
            Self::DatacenterGpu | Self::WorkstationGpu | Self::ConsumerGpu => "GPU",
            Self::AppleSilicon => "chip",
            Self::Cpu => "CPU",
            Self::Other => "device",
        }
    }

    /// Typical dense FP16 TFLOPS per TB/s of memory bandwidth, used only when a device has no compute figure.
    /// H100 SXM 989/3.35 ≈ 295; RTX 4090 165/1.0; M2 Ultra 27/0.8; a 96-core AVX-512 server ≈ 7 TFLOPS / 0.46 TB/s.
    #[must_use]
    pub fn default_tflops_per_tbps(self) -> f64 {
        match self {
            Self::DatacenterGpu => 250.0,
            Self::WorkstationGpu | Self::ConsumerGpu => 150.0,
            Self::AppleSilicon => 34.0,
            Self::Cpu => 15.0,
            Self::Other => 60.0,
        }
    }
}

/// How several devices share the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Parallelism {
    /// Each layer split across devices; bandwidth and compute add, all-reduce per layer.
    Tensor,
    /// Consecutive layers on consecutive devices, one token at a time (llama.cpp `-sm layer`): memory adds,
    /// speed does not, at any batch.
    LayerSplit,
    /// Pipeline parallel with micro-batches in flight (vLLM/TensorRT-LLM `pp`): memory adds; a single stream is no
    /// faster, but a batch of B runs as `n` micro-batches of B/n that keep every stage busy.
    Pipeline,
    /// llama.cpp's row split (`-sm row`, and its only multi-GPU mode before January 2024): every weight matrix is
    /// split by rows, so the devices stream their share of the weights together, but the KV cache, attention and
    /// all other operations stay on the main device, and every split matrix multiplication waits for the others'
    /// results to be copied back to it.
    RowSplit,
    /// Data-parallel attention with the experts split over the devices, for mixture-of-experts models (SGLang
    /// `--tp N --dp N --enable-dp-attention`, vLLM `-dp N --enable-expert-parallel`, TensorRT-LLM's attention DP
    /// with expert parallelism): each device attends its own sequences with a whole copy of the attention and
    /// the other dense weights, keeps their KV cache alone (a latent cache is not copied to every device), and
    /// holds 1/N of the routed experts; the tokens meet at every MoE layer (`model::roofline`).
    DpAttention,
}

wire_ids!(Parallelism {
    Tensor => "tensor",
    LayerSplit => "layer-split",
    Pipeline => "pipeline",
    RowSplit => "row-split",
    DpAttention => "dp-attention"
});

/// A resolved hardware description (every number present and validated).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hardware {
    pub name: String,
    pub kind: HardwareKind,
    /// GPU generation (or CPU / Apple chip family): kernels, tile sizes and power limits follow it.
    pub architecture: Architecture,
    /// Per device, GB/s.
    pub memory_bandwidth_gbps: f64,
    /// Per device, as vendors print it (binary: GiB).
    pub memory_gb: f64,
    /// Dense FP16/BF16 tensor TFLOPS per device.
    pub fp16_tflops: f64,
    pub fp8_tflops: Option<f64>,
    pub fp4_tflops: Option<f64>,
    pub int8_tops: Option<f64>,
    pub devices: u32,
    pub parallelism: Parallelism,
    /// Per-device interconnect bandwidth for all-reduce, GB/s (NVLink 4 = 450 per direction).
    pub interconnect_gbps: f64,
    /// Latency of one all-reduce between the devices, µs, when given (else by interconnect class).
    pub allreduce_us: Option<f64>,
    pub tdp_watts: Option<f64>,
    /// Devices one node links by NVLink or Infinity Fabric (8 on HGX and OAM boards, 72 in a GB200 NVL72 rack):
    /// tensor parallelism over more crosses the network ([`Self::spans_nodes`]).
    pub node_devices: u32,
    /// Boards bridged in pairs (H100 NVL), the interconnect not typed: the bridge's GB/s, which a split over two
    /// devices runs at, where more cross PCIe Gen5 between the pairs ([`Self::bridged_interconnect_gbps`]).
    #[serde(skip)]
    pub bridged_pairs: Option<f64>,
}

/// PCIe Gen5 ×16, GB/s a direction: the link between H100 NVL's bridged pairs.
pub const PCIE_GEN5_GBPS: f64 = 64.0;

impl Hardware {
    /// The interconnect a split over `devices` runs at on boards bridged in pairs (`bridged_pairs`): the bridge for
    /// two, PCIe Gen5 for more (a ring all-reduce runs at its slowest link); `None` on other boards.
    #[must_use]
    pub fn bridged_interconnect_gbps(&self, devices: u32) -> Option<f64> {
        self.bridged_pairs.map(|pair| if devices > 2 { PCIE_GEN5_GBPS } else { pair })
    }
}

/// The chip generation. Efficiency follows it, not only the memory type: the share of tensor peak that a serving
/// engine reaches falls from Ampere to Hopper (a bigger peak per watt and per byte of bandwidth, kernels that
/// need larger batches to fill it), and older generations (Pascal, Turing) lack the tensor features recent
/// kernels assume.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Architecture {
    Pascal,
    Volta,
    Turing,
    Ampere,
    Ada,
    Hopper,
    Blackwell,
    Cdna2,
    Cdna3,
    Cdna4,
    Rdna2,
    Rdna3,
    Rdna4,
    /// Intel Arc (Xe-HPG, Xe2).
    Xe,
    Gaudi,
    AppleM1,
    AppleM2,
    AppleM3,
    AppleM4,
    Cpu,
    Other,
}

impl Architecture {
    /// All generations, for listings and selects.
    pub const ALL: [Architecture; 21] = [
        Self::Pascal,
        Self::Volta,
        Self::Turing,
        Self::Ampere,
        Self::Ada,
        Self::Hopper,
        Self::Blackwell,
        Self::Cdna2,
        Self::Cdna3,
        Self::Cdna4,
        Self::Rdna2,
        Self::Rdna3,
        Self::Rdna4,
        Self::Xe,
        Self::Gaudi,
        Self::AppleM1,
        Self::AppleM2,
        Self::AppleM3,
        Self::AppleM4,
        Self::Cpu,
        Self::Other,
    ];

    /// The kebab-case id used in scenarios.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Self::Pascal => "pascal",
            Self::Volta => "volta",
            Self::Turing => "turing",
            Self::Ampere => "ampere",
            Self::Ada => "ada",
            Self::Hopper => "hopper",
            Self::Blackwell => "blackwell",
            Self::Cdna2 => "cdna2",
            Self::Cdna3 => "cdna3",
            Self::Cdna4 => "cdna4",
            Self::Rdna2 => "rdna2",
            Self::Rdna3 => "rdna3",
            Self::Rdna4 => "rdna4",
            Self::Xe => "xe",
            Self::Gaudi => "gaudi",
            Self::AppleM1 => "apple-m1",
            Self::AppleM2 => "apple-m2",
            Self::AppleM3 => "apple-m3",
            Self::AppleM4 => "apple-m4",
            Self::Cpu => "cpu",
            Self::Other => "other",
        }
    }

    /// A typical generation for a device of `kind` known only by its numbers.
    #[must_use]
    pub fn typical_for(kind: HardwareKind) -> Self {
        match kind {
            HardwareKind::AppleSilicon => Self::AppleM2,
            HardwareKind::Cpu => Self::Cpu,
            HardwareKind::DatacenterGpu | HardwareKind::WorkstationGpu | HardwareKind::ConsumerGpu | HardwareKind::Other => Self::Other,
        }
    }
}

impl Hardware {
    /// Machine balance: dense 16-bit tensor FLOP per byte of memory bandwidth (one device), or `None` when
    /// either is unknown.
    #[must_use]
    pub fn machine_balance(&self) -> Option<f64> {
        (self.fp16_tflops > 0.0 && self.memory_bandwidth_gbps > 0.0).then(|| self.fp16_tflops * 1e3 / self.memory_bandwidth_gbps)
    }

    /// Latency of one all-reduce between the devices, seconds: NVLink-class links (≥ 100 GB/s per direction),
    /// consumer GPUs over PCIe (no peer-to-peer: [`super::roofline::PCIE_ALLREDUCE_LATENCY_S`] plus
    /// [`super::roofline::PCIE_ALLREDUCE_HOP_S`] per ring step) or other boards over PCIe
    /// ([`super::roofline::PCIE_P2P_ALLREDUCE_LATENCY_S`]).
    #[must_use]
    pub fn allreduce_latency_s(&self) -> f64 {
        if let Some(us) = self.allreduce_us {
            return us * 1e-6;
        }
        if self.spans_nodes() {
            super::roofline::INTER_NODE_ALLREDUCE_LATENCY_S
        } else if self.interconnect_gbps >= 100.0 {
            super::roofline::ALLREDUCE_LATENCY_S
        } else if self.host_staged() {
            super::roofline::PCIE_ALLREDUCE_LATENCY_S + super::roofline::PCIE_ALLREDUCE_HOP_S * 2.0 * (f64::from(self.devices) - 1.0)
        } else {
            super::roofline::PCIE_P2P_ALLREDUCE_LATENCY_S
        }
    }

    /// Bandwidth an all-reduce's ring moves per device and direction, GB/s: the interconnect's, or between
    /// consumer GPUs over PCIe (staged through host memory) [`super::roofline::HOST_STAGED_BANDWIDTH_SHARE`] of it.
    #[must_use]
    pub fn allreduce_gbps(&self) -> f64 {
        if self.spans_nodes() {
            self.interconnect_gbps.min(super::roofline::INTER_NODE_GBPS)
        } else if self.host_staged() {
            self.interconnect_gbps * super::roofline::HOST_STAGED_BANDWIDTH_SHARE
        } else {
            self.interconnect_gbps
        }
    }

    /// Tensor parallelism (or DP attention's collectives) over more NVLink-class devices than one node holds: its ring
    /// crosses the network.
    #[must_use]
    pub fn spans_nodes(&self) -> bool {
        matches!(self.parallelism, Parallelism::Tensor | Parallelism::DpAttention)
            // (Boards bridged in pairs count as a node's fast link too: past the node it is the network's, not PCIe's.)
            && (self.interconnect_gbps >= 100.0 || self.bridged_pairs.is_some())
            && self.devices > self.node_devices.max(1)
    }

    /// Consumer GPUs linked by PCIe only: no peer-to-peer, every transfer goes through host memory.
    #[must_use]
    pub fn host_staged(&self) -> bool {
        self.interconnect_gbps < 100.0 && self.kind == HardwareKind::ConsumerGpu
    }

    /// Devices that stream weights at the same time for one token (TP degree).
    #[must_use]
    pub fn parallel_devices(&self) -> f64 {
        match self.parallelism {
            Parallelism::Tensor | Parallelism::RowSplit | Parallelism::DpAttention => f64::from(self.devices),
            Parallelism::LayerSplit | Parallelism::Pipeline => 1.0,
        }
    }

    /// Memory of all devices together, bytes. Device memory is binary: an "80 GB" H100 has 80 GiB
    /// (81,559 MiB ≈ 85.5 × 10⁹ B) and a "24 GB" RTX 4090 24 GiB, so `memory_gb` counts GiB.
    #[must_use]
    pub fn total_memory_bytes(&self) -> f64 {
        self.memory_gb * super::units::GIB * f64::from(self.devices)
    }

    /// Share of a device's memory the accelerator may use. Apple silicon shares its memory with the CPU, and
    /// Metal caps the GPU's working set (`recommendedMaxWorkingSetSize`): 2/3 of the memory up to 32 GiB, 3/4
    /// from 36 GiB up (logged by llama.cpp: 8 GiB → 5.33, 16 → 10.67, 32 → 21.33, 36 → 27, 48 → 36, 64 → 48,
    /// 192 → 144 GiB). A model larger than that pages and runs at a fraction of its speed (a 70B Q4_0 of
    /// 36.2 GiB on a 48 GiB M3 Max: 3.1 tok/s instead of ≈ 8). macOS lets an administrator raise the cap
    /// (`sysctl iogpu.wired_limit_mb`); enter the raised figure as the memory divided by 0.75 to model that.
    /// Every other device: all of it (the engine's own utilisation and reserve apply on top).
    #[must_use]
    pub fn accelerator_memory_fraction(&self) -> f64 {
        match self.kind {
            HardwareKind::AppleSilicon if self.memory_gb > 32.0 => 0.75,
            HardwareKind::AppleSilicon => 2.0 / 3.0,
            _ => 1.0,
        }
    }

    /// Memory the accelerators may use, all devices together, bytes ([`Self::accelerator_memory_fraction`] of
    /// [`Self::total_memory_bytes`]).
    #[must_use]
    pub fn accelerator_memory_bytes(&self) -> f64 {
        self.total_memory_bytes() * self.accelerator_memory_fraction()
    }

    /// Peak dense FLOP/s of one device for a compute dtype, falling back to the next wider dtype the
    /// hardware has (FP4 → FP16, since 4-bit weights without FP4 units run as W4A16; FP8 → FP16; INT8 → FP16).
    #[must_use]
    pub fn peak_flops(&self, dtype: super::quant::ComputeDtype) -> f64 {
        use super::quant::ComputeDtype as D;
        let tf = match dtype {
            D::Fp16 => self.fp16_tflops,
            D::Fp8 => self.fp8_tflops.unwrap_or(self.fp16_tflops),
            // Without FP4 tensor units a 4-bit format (MXFP4, NVFP4) is dequantised and multiplied at the
            // activations' 16-bit rate (vLLM's Marlin / Triton W4A16 paths on Hopper and Ampere), not at FP8's.
            D::Fp4 => self.fp4_tflops.unwrap_or(self.fp16_tflops),
            D::Int8 => self.int8_tops.unwrap_or(self.fp16_tflops),
        };
        tf * super::units::TFLOPS
    }
}
