//! The decode/prefill step roofline: how long one forward pass of the engine takes.
//!
//! A step carries `D` decoding sequences (one new token each, sequence `i` at context `cᵢ`) and `P` prefill
//! tokens. Its time is
//!
//! ```text
//! bytes  = weight bytes read for T = D + P tokens (MoE: experts touched, see llm.rs)
//!        + Σᵢ KV bytes(cᵢ)                      (each decoding sequence reads its whole cache)
//!        + KV bytes of the prefill chunk's prior context
//! flops  = 2 · matmul params · T + attention flops (linear in context for decode, quadratic for prefill)
//! t_weights = weight bytes ÷ (η_bw · bandwidth · n_tp);   t_kv = KV bytes ÷ (η_kv · bandwidth · n_tp)
//! t_matmul  = matmul flops ÷ (η_fl · peak(weight dtype) · n_tp);   t_attention = attention flops ÷ (η_fl · peak(KV dtype) · n_tp)
//! t_comm = n_tp > 1 ? 2 · layers · (α + T · hidden · 2 B · 2(n−1)/n ÷ interconnect) : 0   (ring all-reduce)
//! step   = max(t_weights, t_matmul) + max(t_kv, t_attention) + t_comm + overhead + D · per-sequence overhead
//!          (+ (devices−1) · hop for a layer split): linear layers and attention are separate kernels, each on its own roofline
//! row split (llama.cpp -sm row): weights and matmuls over n devices, KV and attention on the main one;
//! t_comm = layers · (sync + (n−1) · (per-device wait + 16 · hidden · 4 B · T ÷ interconnect))
//! ```
//!
//! Per-user TPS at batch B = 1/step; system TPS = B/step. At small B the weights dominate the bytes and the
//! step hardly grows with B (memory-bound, system TPS ∝ B); KV bytes grow with B·c, and FLOPs with B, so past
//! the ridge point B* ≈ peak·η_fl / (2 · bandwidth·η_bw / bytes-per-param) the step becomes compute-bound and
//! system TPS flattens. Assumptions: memory and compute overlap within a kernel class (roofline max) but the
//! two classes run one after the other (their times add — one max over all bytes and FLOPs let a big batch's
//! KV reads hide under the matmuls, 40–100 % too optimistic on TensorRT-LLM's decode-heavy runs); uniform
//! MoE routing; all-reduce latency α = 8 µs (NVLink class; PCIe systems are slower); KV heads that tensor
//! parallelism cannot split are replicated ([`Deployment::kv_replication`]); a layer split passes one token
//! through devices in turn, so it adds memory but not single-stream bandwidth; a pipeline runs `n`
//! micro-batches at once, so a batch advances in the time one device needs for 1/n of it.
//!
//! **A softer ridge, tried 2026-12-07 and not adopted.** Real GEMMs do not reach the roofline's corner: near the
//! ridge (weights' streaming time ≈ their arithmetic time) tile and wave quantisation and imperfect overlap of
//! loads and math leave them below both roofs, and a closed loop's wave of short prompts on one L4
//! (ree2raz/inference-bench, Qwen2.5-7B, 16–64 users) measured about one step more TTFT than the model, as a sum of
//! the two times would give. The linear layers' time as a p-norm, (t_weights^p + t_matmul^p)^(1/p) (max at p = ∞,
//! 2^(1/p) × the roof at the ridge), with every fitted default as it is, measured against p = ∞ (leave-one-source-out,
//! median / p90 % off; the served latencies' medians):
//!
//! | p | single-stream | batched (in-sample) | served output | TTFT mean / P50 / P99 | TPOT mean / P50 / P99 |
//! |---|---|---|---|---|---|
//! | ∞ (the model) | 8.5 / 19.0 % | 15.4 / 38.0 (11.3 / 35.5) | 11.2 / 56.8 | 47.3 / 43.2 / 50.0 | 13.2 / 13.3 / 16.6 |
//! | 4 | 8.5 / 19.0 | 14.9 / 36.4 (10.8 / 33.4) | 11.2 / 56.8 | 49.2 / 43.5 / 52.0 | 13.7 / 13.3 / 16.6 |
//! | 2.5 | 8.3 / 19.0 | 14.1 / 35.4 (10.3 / 32.7) | 12.9 / 52.1 | 44.4 / 42.6 / 49.4 | 14.0 / 13.3 / 16.6 |
//! | 1.5 | 8.4 / 18.9 | 14.9 / 33.8 (10.1 / 28.0) | 11.3 / 56.2 | 50.0 / 44.3 / 53.7 | 14.9 / 14.0 / 17.4 |
//!
//! Batched throughput gains 1–4 points and served TTFT up to 3, while served output's median loses 1.7 points at
//! 2.5 (its p90 gains 4.7; by source GPUStack's offline vLLM runs 19 → 24 % off, its SGLang ones 27 → 16 %) and TPOT's
//! up to a point. What decided it: refitted at p = 2.5 three defaults move past `tests/fit.rs`'s tolerance (served
//! Ampere η_fl 0.52 → 0.46, TensorRT-LLM Blackwell 0.28 → 0.32, Vulkan's compute factor 0.18 → 0.22), so the table's
//! gains are of a model whose efficiencies no longer match their own fits. Refitted (those three at their fits) and
//! held out again: single-stream 8.3 / 19.0 %, batched 14.7 / 35.4 % (in-sample 10.0 / 31.0), served output 12.9 /
//! 52.1 %, TTFT 43.0 / 42.6 / 50.5 %, TPOT 14.0 / 13.3 / 16.6 %; the runs that release every request at once TTFT
//! 38.3 / 37.3 / 32.6 → 29.5 / 29.7 / 30.6 % but TPOT 35.9 / 33.0 / 49.3 → 40.5 / 41.1 / 55.4 % (and ROCm's compute
//! factor then drifts 0.52 → 0.48). Batched throughput and the bursts' TTFT gain, served output's median and every
//! TPOT lose: a trade, not a class's physics confirmed. The roof stays a max until GEMM timings by tokens per step on
//! a known device say how soft the ridge is.
//!
//! **DP attention** (`Parallelism::DpAttention`, MoE models on vLLM, SGLang and TensorRT-LLM): every device runs
//! attention for its own sequences with the attention and other dense weights whole, keeps only those sequences'
//! cache (no copies: tensor parallelism keeps an MLA latent whole on every device), and holds 1/n of the routed
//! experts; before each MoE layer the devices gather the batch's tokens and scatter them after (counted as the
//! tensor-parallel all-reduces' traffic). The busiest device sets the step ([`Deployment::dp_imbalance`]): B decodes
//! put max(B/n, 1) on it, a prompt's chunk stays on one device, and SGLang divides its chunked-prefill budget among
//! the ranks ([`Deployment::chunk_tokens`]). So one user is slower than under tensor parallelism (one device reads
//! the dense weights and runs the dense matmuls alone: DeepSeek-V3 on 8 × H200, 18 GB of them, ~100 against ~120
//! tok/s in the model) and a prompt's TTFT is several chunks' launch chains, while memory holds ~5 × the
//! sequences and a large batch reads 1/n of the cache per device — the throughput SGLang's v0.4 release measured
//! as 1.9 × TP8's decoding throughput for DeepSeek-Coder-V2 on 8 × H100. Layouts from the engines themselves:
//! vLLM's data-parallel and expert-parallel deployment docs ("the attention weights are replicated across all GPUs,
//! while the expert weights are split", "each DP engine has an independent KV cache"); SGLang's `server_args.py`
//! and `deepseek_v2.py` (0.4.3: `--enable-dp-attention` sets dp = tp and halves the chunk; 0.5: the chunk ÷ dp,
//! attention replicated at dp = tp). SGLang keeps the shared expert and the dense MLP layers tensor-parallel over
//! the gathered tokens where vLLM replicates them: the model copies every non-expert weight (DeepSeek-V3: 3.7 of
//! its 18 GB too many under SGLang). Not validated on a current engine: the served data hold only SGLang 0.4.3's
//! DP runs (dstack, DeepSeek-R1 on 8 × H200: about 2 × slower than the model, as that source's vLLM 0.7 TP runs
//! are; at 4 users DP measured 0.56 × vLLM's TP throughput, 0.72 × in the model; at 128, 1.08 × and 1.06 ×).
//!
//! Sources: Williams et al., "Roofline" (CACM 2009); Pope et al., "Efficiently Scaling Transformer Inference"
//! (MLSys 2023) for the KV/weight byte accounting and all-reduce cost; vLLM and llama.cpp docs for
//! chunking and the layer-split mode.

use super::engine::EngineParams;
use super::hardware::{Hardware, Parallelism};
use super::kv;
use super::llm::ModelShape;
use super::quant::ComputeDtype;
use super::units::{GB, GIB};
use serde::Serialize;

/// Bandwidth per GPU of an all-reduce whose ring leaves the node, GB/s: one 400 Gb/s NIC per GPU (InfiniBand NDR or
/// RoCE, as HGX H100/H200/B200 and MI300X platforms ship), 50 GB/s a direction — against NVLink's 450. A stated
/// figure, not fitted: no run in the data splits a model over nodes (vLLM and SGLang advise tensor parallelism
/// within a node and a pipeline across nodes for this reason).
pub const INTER_NODE_GBPS: f64 = 50.0;

/// Latency of one small all-reduce across nodes: nccl-tests' small-message all-reduce over two nodes of 8 GPUs on
/// InfiniBand takes some 20–30 µs, against ~8 within an NVLink node ([`ALLREDUCE_LATENCY_S`]). Stated, not fitted.
pub const INTER_NODE_ALLREDUCE_LATENCY_S: f64 = 25e-6;

/// All-reduce latency per call over NVLink / NVSwitch or Infinity Fabric (interconnect ≥ 100 GB/s), seconds.
pub const ALLREDUCE_LATENCY_S: f64 = 8e-6;
/// All-reduce latency per call between consumer GPUs over PCIe, seconds: `PCIE_ALLREDUCE_LATENCY_S +
/// PCIE_ALLREDUCE_HOP_S · 2(n − 1)` on `n` devices. GeForce boards have peer-to-peer disabled, so NCCL stages every
/// call through host memory, and a ring's latency grows linearly with its ranks (NCCL's maintainers, nccl#1712:
/// "the latency of ring increases linearly with the communicator size"; its 2(n − 1) steps each wait for the
/// previous). A small all-reduce on 8 × RTX 4090 takes 43 µs in nccl-tests alone (tree, 8 bytes, nccl#1530); the
/// serving engine's call adds PyTorch's and its own launch costs. Fitted by `tests/fit.rs` together with
/// [`PCIE_ALLREDUCE_HOP_S`] on vLLM 0.8.5 served on 2, 4 and 8 × RTX 4090 at 1–16 req/s (TPOT mean): one
/// latency for every device count (80 µs, the fit before 2026-12) predicted TP2 well but TP4 30 % and TP8 2 ×
/// too fast, and the load's growth of TPOT on TP8 (18 → 55 ms from 1 to 16 req/s) as 15 → 27 ms. One source only.
/// (History of the single value: 120 µs as steady states, 100 as finite runs, 120 with the kernel chain, 80 with
/// the 4090's machine-balance efficiency, 110 with Ampere's, 80 with the per-sequence cost.)
pub const PCIE_ALLREDUCE_LATENCY_S: f64 = 40e-6;
/// Latency per ring step of an all-reduce between consumer GPUs over PCIe, seconds: see
/// [`PCIE_ALLREDUCE_LATENCY_S`] (60 µs per call on 2 devices, 100 on 4, 180 on 8).
pub const PCIE_ALLREDUCE_HOP_S: f64 = 10e-6;
/// Share of the interconnect's bandwidth that an all-reduce between consumer GPUs over PCIe moves: NCCL rates a
/// PCIe 4.0 ×16 link at 24 GB/s of its 32 (its topology dump, nccl-tests#307), and without peer-to-peer every
/// byte crosses the bus twice, into host memory and out of it: 0.75 ÷ 2. At the datasheet's 32 GB/s the prefill
/// chunks' all-reduces were too cheap to slow the decodes as load rose (the TP8 runs above); with 12 GB/s the
/// median error of those runs' TPOT mean is 7 % (`tests/fit.rs` scans 0.25–1).
///
/// 0.25 (8 GB/s) since 2026-12-04, the fit's edge, and not NCCL's rating any more: once the source's runs after
/// the first of each deployment were read with the prefix cache its protocol leaves warm (no prefill chunks but
/// the prompts' last blocks, `tests/data/README.md`), their decodes under load had less prompt work to be slowed
/// by, and the same measured TPOT wants dearer all-reduces: median |log error| of TPOT mean 0.139 at 0.375, 0.091
/// at 0.25 (0.078 with a₀ = 50 µs, within the fit's tolerance of the 40 used). What else slows these decodes —
/// host-staged copies competing with the prompts' own, NCCL's proxy threads on a busy host — is not modelled, so
/// the share stands for it; one source.
pub const HOST_STAGED_BANDWIDTH_SHARE: f64 = 0.25;
/// All-reduce latency per call between workstation or datacenter boards over PCIe (peer-to-peer enabled),
/// seconds: an assumption (no tensor-parallel PCIe run of such boards in the data), between NVLink's 8 µs and
/// the consumer boards' fitted 60–180 µs (2–8 devices).
pub const PCIE_P2P_ALLREDUCE_LATENCY_S: f64 = 25e-6;
/// A small all-reduce between consumer GPUs staged through host memory, as NCCL's own test measures it: 43 µs on
/// 8 × RTX 4090 (nccl-tests, tree, 8 bytes; nccl#1530), the engine's launch costs not included. Not used by the
/// model (its latency is [`PCIE_ALLREDUCE_LATENCY_S`], fitted on served runs): it is the documented prior that
/// the leave-one-source-out validation gives a held-out source of tensor-parallel runs over PCIe between
/// consumer GPUs, together with [`HOST_STAGED_BANDWIDTH_SHARE`] (which comes from NCCL's rating of the link and
/// the two crossings, not from a fit).
pub const PCIE_HOST_STAGED_NCCL_TESTS_LATENCY_S: f64 = 43e-6;
/// Extra time per device boundary in a layer split (activation hand-off and synchronisation), seconds;
/// fitted on the llama-bench multi-GPU rows by `tests/fit.rs`.
pub const LAYER_SPLIT_HOP_S: f64 = 0.21e-3;
/// Wait per layer in a llama.cpp row split (each split matrix multiplication synchronises the devices and copies
/// the partial results to the main one), seconds: `ROW_SPLIT_SYNC_S + (n − 1) · ROW_SPLIT_PER_DEVICE_S` per
/// layer on `n` devices. Fitted on the December 2023 row-split runs on 2–6 GPUs by `tests/fit.rs`.
pub const ROW_SPLIT_SYNC_S: f64 = 0.2e-3;
/// See [`ROW_SPLIT_SYNC_S`].
pub const ROW_SPLIT_PER_DEVICE_S: f64 = 0.1e-3;
/// F32 activations a row split moves per layer and token to or from each extra device, in units of `hidden`:
/// the inputs and outputs of the layer's seven matrices, 6·hidden + 3·ffn ≈ 16·hidden for ffn ≈ 3.5·hidden.
pub const ROW_SPLIT_VECTORS_PER_LAYER: f64 = 16.0;

/// What limits a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Bound {
    Memory,
    Compute,
    Overhead,
}

impl Bound {
    /// "memory", "compute" or "overhead" (as serialised).
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Bound::Memory => "memory",
            Bound::Compute => "compute",
            Bound::Overhead => "overhead",
        }
    }
}

/// A fully resolved deployment: hardware, model, formats and engine. Every number is finite and valid
/// (guaranteed by [`crate::scenario`]'s validation).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Deployment {
    pub hardware: Hardware,
    pub model: ModelShape,
    pub weight_bits: f64,
    /// Bits per weight of everything but the routed experts (attention, router, shared experts, embeddings, head):
    /// `weight_bits` unless the format quantises the experts only, as gpt-oss's MXFP4 release does
    /// ([`crate::model::quant::dense_part_bits`]).
    pub dense_bits: f64,
    /// Bits per weight of the output head and the input embedding table: 16 under the serving formats below 16
    /// bits ([`crate::model::quant::head_bits`]), else `dense_bits`.
    pub head_bits: f64,
    pub compute_dtype: ComputeDtype,
    pub kv_elem_bytes: f64,
    pub engine: EngineParams,
}

/// The work of one step.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct StepLoad {
    /// Sequences producing one token each.
    pub decode_seqs: f64,
    /// Sum of their KV bytes (what attention reads).
    pub decode_kv_bytes: f64,
    /// Sum of their attention FLOPs.
    pub decode_attn_flops: f64,
    /// Prompt tokens processed in this step.
    pub prefill_tokens: f64,
    /// KV bytes of earlier context the prefill chunk attends to.
    pub prefill_kv_bytes: f64,
    /// Attention FLOPs of the prefill chunk.
    pub prefill_attn_flops: f64,
    /// Sequences whose prompt chunks make up `prefill_tokens` (a pipeline can put different sequences' chunks in
    /// different micro-batches, never split one).
    pub prefill_seqs: f64,
    /// The largest of those chunks, tokens: a pipeline's micro-batch that carries it sets the round's pace.
    pub prefill_max_chunk: f64,
    /// A llama.cpp layer split's micro-batch that more of the same batch follow (`-ub` chunks of one `-b`
    /// batch): it moves through the devices like a pipeline, one device-th of its time on the clock
    /// ([`Deployment::layer_split_prefill_factor`]; the simulator marks such steps).
    pub pipelined: bool,
}

/// llama.cpp's batch, `-b` (its default): the micro-batches (`-ub`, the step budget) of one batch move through a
/// layer split's devices like a pipeline.
pub const LLAMA_CPP_BATCH: u32 = 2048;

/// Time of one step and its parts, seconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct StepCost {
    pub seconds: f64,
    /// Linear layers' kernel time (max of weight streaming and matmul) plus attention's KV streaming time.
    pub memory_s: f64,
    /// Linear layers' kernel time plus attention's compute time. `max(memory_s, compute_s)` is the kernel time
    /// of the step, and both are affine in the contexts of a pure decode run (used by the simulator's fast path).
    pub compute_s: f64,
    /// Weight streaming time of the linear layers.
    pub weights_s: f64,
    /// Matmul time of the linear layers.
    pub matmul_s: f64,
    /// Attention's KV-cache streaming time, without the kernel chain's floor.
    pub kv_s: f64,
    /// Attention's compute time, without the kernel chain's floor.
    pub attn_s: f64,
    pub comm_s: f64,
    pub overhead_s: f64,
    pub bound: Bound,
    /// The kernel chain's floor sets the kernels' time (a serving engine's chain of small kernels outlasts the
    /// step's reads and FLOPs): what the part above the matmuls is, for one user's TPOT in parts.
    pub chain_floor: bool,
}

/// The bound of a step: overhead when communication and the engine's own time (per step and per running sequence)
/// exceed the kernel time; else compute
/// when the compute-limited kernels (linear layers with matmul > weights, attention with FLOPs > KV bytes)
/// take more of the kernel time than the memory-limited ones.
#[must_use]
pub fn classify(weights_s: f64, matmul_s: f64, kv_s: f64, attn_s: f64, fixed_s: f64) -> Bound {
    let kernels = weights_s.max(matmul_s) + kv_s.max(attn_s);
    if fixed_s > kernels {
        return Bound::Overhead;
    }
    let compute_limited = if matmul_s > weights_s { matmul_s } else { 0.0 } + if attn_s > kv_s { attn_s } else { 0.0 };
    if compute_limited > kernels - compute_limited {
        Bound::Compute
    } else {
        Bound::Memory
    }
}

impl Deployment {
    /// Bytes of all weights.
    #[must_use]
    pub fn weight_bytes(&self) -> f64 {
        // A dense model has no experts (`expert_split` gives 0 per expert).
        let experts = self.model.expert_split().0 * f64::from(self.model.moe.experts);
        // The head and the input table (one matrix when tied), at the head's bits.
        let table = (self.model.head_params() + self.model.unread_embedding_params()).min(self.model.params_b * 1e9 - experts).max(0.0);
        (experts * self.weight_bits + (self.model.params_b * 1e9 - experts - table) * self.dense_bits + table * self.head_bits) / 8.0
    }

    /// Bytes of the weights other than the routed experts (attention, shared experts, dense layers, embeddings and
    /// head): what DP attention keeps whole on every device.
    #[must_use]
    pub fn dense_weight_bytes(&self) -> f64 {
        let experts = self.model.expert_split().0 * f64::from(self.model.moe.experts);
        (self.weight_bytes() - experts * self.weight_bits / 8.0).max(0.0)
    }

    /// Copies of the dense weights over the devices: one per device under DP attention, else one.
    #[must_use]
    pub fn dense_copies(&self) -> f64 {
        if self.hardware.parallelism == Parallelism::DpAttention {
            f64::from(self.hardware.devices.max(1))
        } else {
            1.0
        }
    }

    /// Bytes the weights occupy over all devices: [`Self::weight_bytes`], plus the dense weights' extra copies
    /// under DP attention.
    #[must_use]
    pub fn weight_bytes_stored(&self) -> f64 {
        self.weight_bytes() + (self.dense_copies() - 1.0) * self.dense_weight_bytes()
    }

    /// Under DP attention, how many times the busiest device's share of a step's decodes and of its prompt tokens
    /// exceeds an even split over the devices (1 and 1 otherwise). A sequence lives on one device: `B` decodes over
    /// `n` devices put `max(B/n, 1)` on the busiest, and a prompt's chunk is never split, so the device reading the
    /// largest chunk carries at least that.
    #[must_use]
    pub fn dp_imbalance(&self, load: &StepLoad) -> (f64, f64) {
        let n = self.dense_copies();
        if n <= 1.0 {
            return (1.0, 1.0);
        }
        let decode = if load.decode_seqs > 0.0 { (n / load.decode_seqs).clamp(1.0, n) } else { 1.0 };
        let prefill = if load.prefill_tokens > 0.0 { (n * load.prefill_max_chunk / load.prefill_tokens).clamp(1.0, n) } else { 1.0 };
        (decode, prefill)
    }

    /// Bytes of weights streamed by a step carrying `tokens` tokens.
    #[must_use]
    pub fn weight_bytes_read(&self, tokens: f64) -> f64 {
        let experts = self.model.experts_touched(tokens) * self.model.expert_split().0;
        let read = self.model.params_read_per_step(tokens);
        // The head is streamed every step, at the head's bits.
        let rest = (read - experts).max(0.0);
        let head = self.model.head_params().min(rest);
        (experts.min(read) * self.weight_bits + (rest - head) * self.dense_bits + head * self.head_bits) / 8.0
    }

    /// How many copies of each KV head exist over the devices. Tensor parallelism splits the KV heads across
    /// devices only while there are enough of them: with `kv_heads < n` every head is replicated on `n /
    /// kv_heads` devices, and an MLA latent (one per layer, not per head) is stored whole on every device, as
    /// vLLM and SGLang do. Layer splits and pipelines partition layers, so nothing is replicated.
    #[must_use]
    pub fn kv_replication(&self) -> f64 {
        let n = f64::from(self.hardware.devices);
        // DP attention keeps each sequence's cache on its own device only.
        if self.hardware.parallelism != Parallelism::Tensor || self.hardware.devices <= 1 {
            return 1.0;
        }
        match self.model.attention {
            super::llm::Attention::Mla { .. } => n,
            _ => (n / f64::from(self.model.kv_heads.max(1))).max(1.0),
        }
    }

    /// KV bytes per token of a fresh sequence, summed over the devices (replicated heads counted).
    #[must_use]
    pub fn kv_bytes_per_token(&self) -> f64 {
        kv::bytes_per_token(&self.model, self.kv_elem_bytes) * self.kv_replication()
    }

    /// KV bytes held by one sequence of `ctx` tokens, summed over the devices (replicated heads counted). Read
    /// time divides this by the bandwidth of all devices, which is right because every device reads its own copy.
    #[must_use]
    pub fn kv_bytes(&self, ctx: f64) -> f64 {
        kv::bytes_for_context(&self.model, self.kv_elem_bytes, ctx) * self.kv_replication()
    }

    /// Memory left for the KV cache over all devices, bytes (negative when the weights do not fit).
    #[must_use]
    pub fn kv_budget_bytes(&self) -> f64 {
        let hw = &self.hardware;
        if hw.parallelism == Parallelism::RowSplit && hw.devices > 1 {
            // llama.cpp's row split keeps the KV cache on the main device, next to its share of the weights.
            let n = f64::from(hw.devices);
            return hw.accelerator_memory_bytes() / n * self.engine.memory_utilization - self.weight_bytes() / n - self.engine.reserve_gb * GIB;
        }
        hw.accelerator_memory_bytes() * self.engine.memory_utilization
            - self.weight_bytes_stored()
            - self.engine.reserve_gb * GIB * f64::from(hw.devices)
    }

    /// Whether weights plus the reserve fit in the usable memory.
    #[must_use]
    pub fn fits(&self) -> bool {
        self.kv_budget_bytes() > 0.0
    }

    /// Sequences whose KV cache of `ctx` tokens fits at once (fractional; 0 when the weights do not fit). Under DP
    /// attention a sequence's cache lives on one device: whole sequences per device, times the devices.
    #[must_use]
    pub fn max_sequences(&self, ctx: f64) -> f64 {
        let per_seq = self.kv_bytes(ctx.max(1.0));
        let n = self.dense_copies();
        if n > 1.0 {
            return n * (self.kv_budget_bytes() / n / per_seq).max(0.0).floor();
        }
        (self.kv_budget_bytes() / per_seq).max(0.0)
    }

    /// Effective memory bandwidth for one step, bytes/s.
    #[must_use]
    pub fn effective_bandwidth(&self) -> f64 {
        self.hardware.memory_bandwidth_gbps * GB * self.engine.bandwidth_efficiency * self.hardware.parallel_devices()
    }

    /// Effective compute at a dtype's tensor rate over the devices that work on one step, FLOP/s.
    fn effective_flops_at(&self, dtype: ComputeDtype) -> f64 {
        self.hardware.peak_flops(dtype) * self.engine.compute_efficiency * self.hardware.parallel_devices()
    }

    /// Effective compute for one step, FLOP/s.
    #[must_use]
    pub fn effective_flops(&self) -> f64 {
        self.effective_flops_at(self.compute_dtype)
    }

    /// Effective compute for the matrices other than the routed experts, FLOP/s: 16-bit ones (the experts-only
    /// release's, `dense_bits` ≥ 16) at the 16-bit rate, else as [`Self::effective_flops`].
    #[must_use]
    pub fn effective_dense_flops(&self) -> f64 {
        if self.dense_bits >= 16.0 && self.dense_bits > self.weight_bits {
            self.effective_flops_at(ComputeDtype::Fp16)
        } else {
            self.effective_flops()
        }
    }

    /// Effective compute for attention, FLOP/s: attention runs at the KV cache's precision (FP8 kernels for an FP8
    /// cache, exactly one byte an element), else FP16 — llama.cpp's block formats (q8_0, q4_0) are turned back into
    /// F16 for the product (an audit: q4_0's 0.56 bytes had taken the FP8 rate and q8_0's 1.06 the FP16 one) — never
    /// at a 4-bit weight format's rate.
    #[must_use]
    pub fn effective_attention_flops(&self) -> f64 {
        let fp8 = (self.kv_elem_bytes - 1.0).abs() < 1e-9 && self.hardware.fp8_tflops.is_some();
        self.effective_flops_at(if fp8 { ComputeDtype::Fp8 } else { ComputeDtype::Fp16 })
    }

    /// Bytes and FLOPs of the routed experts in a step of `tokens` tokens (0 for a dense model).
    #[must_use]
    pub fn routed_expert_load(&self, tokens: f64) -> (f64, f64) {
        if !self.model.is_moe() {
            return (0.0, 0.0);
        }
        let (per_expert, _) = self.model.expert_split();
        let bytes = self.model.experts_touched(tokens) * per_expert * self.weight_bits / 8.0;
        let flops = 2.0 * per_expert * f64::from(self.model.moe.experts_per_token) * tokens;
        (bytes, flops)
    }

    /// Load of `b` sequences decoding at context `ctx` each.
    #[must_use]
    pub fn decode_load(&self, b: f64, ctx: f64) -> StepLoad {
        StepLoad {
            decode_seqs: b,
            decode_kv_bytes: b * self.kv_bytes(ctx),
            decode_attn_flops: b * kv::attention_flops_per_token(&self.model, ctx),
            ..StepLoad::default()
        }
    }

    /// Adds a prefill chunk of `tokens` prompt tokens that start after `prior` tokens of context.
    #[must_use]
    pub fn with_prefill(&self, mut load: StepLoad, tokens: f64, prior: f64) -> StepLoad {
        let tokens = tokens.max(0.0);
        load.prefill_tokens += tokens;
        if tokens > 0.0 {
            load.prefill_seqs += 1.0;
            load.prefill_max_chunk = load.prefill_max_chunk.max(tokens);
        }
        load.prefill_kv_bytes += self.kv_bytes(prior);
        // Σ over the chunk's tokens of their context = tokens·prior + tokens²/2 (causal).
        let mean_ctx = prior + tokens / 2.0;
        load.prefill_attn_flops += tokens * kv::attention_flops_per_token(&self.model, mean_ctx);
        load
    }

    /// Time of one forward pass.
    #[must_use]
    pub fn step(&self, load: &StepLoad) -> StepCost {
        let hw = &self.hardware;
        if hw.parallelism == Parallelism::Pipeline && hw.devices > 1 {
            // n micro-batches in flight: the step of B decoding sequences costs what one device needs for B/n (at
            // least one sequence), and the prompt chunks of P sequences are spread the same way, at least one
            // sequence's chunk per micro-batch: one prompt's chunk is never split, it rides whole in one
            // micro-batch, whose stages then set the pace of the round (each stage waits for the slowest
            // micro-batch). Dividing one chunk too (until 2026-12-04) let one 1,024-token prompt of a 70B model on
            // 4 × L40S prefill at 940 TFLOPS, above one device's 733 peak, where its stages can only run one after
            // the other (a review's audit).
            let n = f64::from(hw.devices);
            let share = |count: f64| (1.0 / n).max(if count > 0.0 { 1.0 / count } else { 1.0 }).min(1.0);
            // A micro-batch carries at least the largest chunk (the round waits for it), not the mean one.
            let largest = if load.prefill_tokens > 0.0 { load.prefill_max_chunk / load.prefill_tokens } else { 0.0 };
            let (f, fp) = (share(load.decode_seqs), share(load.prefill_seqs).max(largest).min(1.0));
            let micro = StepLoad {
                decode_seqs: load.decode_seqs * f,
                decode_kv_bytes: load.decode_kv_bytes * f,
                decode_attn_flops: load.decode_attn_flops * f,
                prefill_tokens: load.prefill_tokens * fp,
                prefill_kv_bytes: load.prefill_kv_bytes * fp,
                prefill_attn_flops: load.prefill_attn_flops * fp,
                prefill_seqs: load.prefill_seqs * fp,
                prefill_max_chunk: load.prefill_max_chunk,
                pipelined: false,
            };
            let mut single = self.clone();
            single.hardware.parallelism = Parallelism::LayerSplit;
            // One scheduler and sampler serve every micro-batch of the cycle: the per-sequence cost is the whole
            // batch's, not a micro-batch's.
            let mut cost = single.step(&micro);
            let rest = self.engine.sequence_overhead_us * 1e-6 * (load.decode_seqs - micro.decode_seqs);
            cost.seconds += rest;
            cost.overhead_s += rest;
            return cost;
        }
        let tokens = load.decode_seqs + load.prefill_tokens;
        // DP attention: the busiest device's sequences set the step (`dp_imbalance`; 1 and 1 otherwise) — their KV
        // reads, their attention and their share of the dense matmuls, with the dense weights read whole on every
        // device; the experts' tokens meet from all of them.
        let copies = self.dense_copies();
        let (fd, fp) = self.dp_imbalance(load);
        let kv_bytes = load.decode_kv_bytes * fd + load.prefill_kv_bytes * fp;
        let matmul_flops = 2.0 * self.model.matmul_params_per_token() * tokens;
        let attn_flops = load.decode_attn_flops * fd + load.prefill_attn_flops * fp;
        let busiest = if copies > 1.0 && tokens > 0.0 { (load.decode_seqs * fd + load.prefill_tokens * fp) / tokens } else { 1.0 };
        // Two kernel classes run one after the other in every layer: the linear layers (stream the weights, do
        // the matmul FLOPs) and attention (stream the KV cache, do the attention FLOPs). Each has its own
        // roofline; their times add. (Taking one max over all bytes and all FLOPs would let attention's memory
        // time hide under the matmuls' compute, which no engine achieves.)
        // Routed experts stream and multiply at `moe_efficiency` of a dense layer's rate (grouped GEMMs over
        // many small experts, a few tokens each); at one token the kernel chain's floor below dominates instead.
        // One factor at every batch, though a grouped GEMM with hundreds of tokens per expert (a prompt chunk)
        // should run near a dense one: tried on 2026-12-05 as a FLOP penalty fading with the tokens per touched
        // expert m, × m½ ÷ (m + m½), without refitting the factor: served held out, m½ = 64 gave output 12.7 →
        // 12.0 % but its MoE p90 82 → 122 % (over-predicted), TTFT mean / P99 48.6 / 49.7 → 48.8 / 46.2 %; m½ =
        // 512 moved nothing by more than a point. The runs it should fix — gpt-oss-20b on a DGX Spark, 4,000-token
        // prompts at 0.1–0.7 req/s, TTFT 1.8–2.6 × the measured — are one source on a device whose 16-bit tensor
        // rate is estimated (125 TFLOPS from the FP4 figure; half that if GB10 runs BF16 at the GeForce rate), so
        // they cannot tell the two apart. Kept as it is until a source measures MoE prefill on a known device.
        let (expert_bytes, expert_flops) = self.routed_expert_load(tokens);
        let moe_extra = 1.0 / self.engine.moe_efficiency - 1.0;
        let read = self.weight_bytes_read(tokens);
        let weights_s = (read + (copies - 1.0) * (read - expert_bytes).max(0.0) + expert_bytes * moe_extra) / self.effective_bandwidth();
        // A row split keeps the KV cache and attention on the main device.
        let main_only = if hw.parallelism == Parallelism::RowSplit { hw.parallel_devices() } else { 1.0 };
        let kv_s = main_only * kv_bytes / (self.effective_bandwidth() * self.engine.kv_bandwidth_efficiency / self.engine.bandwidth_efficiency);
        // A release that quantises the experts only (gpt-oss's MXFP4) keeps its other matrices at 16 bits, and
        // they multiply at the 16-bit rate whatever the experts' kernels run at.
        // (Clamped: typed shapes can make the shared part smaller than the unread embedding it is net of.)
        let dense_s = (matmul_flops - expert_flops).max(0.0) * busiest / self.effective_dense_flops();
        let matmul_s = dense_s + expert_flops * (1.0 + moe_extra) / self.effective_flops();
        let attn_s = main_only * attn_flops / self.effective_attention_flops();
        let gemm_s = weights_s.max(matmul_s);
        // A serving engine's layer is a chain of kernels none of which finishes faster than a floor
        // (`kernels`): at small batches on many GPUs the chain, not the bytes, sets the step. The floor is folded
        // into both kernel-time lines (they stay affine in a run of decode steps while it binds throughout, so
        // the simulator's closed form holds); a step it sets is latency-bound: "overhead".
        let floor = self.chain_floor_s(load.prefill_tokens > 0.0);
        let (kv_c, attn_c) = ((floor - gemm_s).max(kv_s), (floor - gemm_s).max(attn_s));
        let memory_s = gemm_s + kv_c;
        let compute_s = gemm_s + attn_c;
        let kernels_s = memory_s.max(compute_s);
        let n = f64::from(hw.devices);
        let comm_s = match hw.parallelism {
            // DP attention gathers every device's tokens before each MoE layer and scatters them after (or sends
            // them to their experts and back): two collectives a layer of the batch's activations, as the
            // tensor-parallel all-reduces move.
            Parallelism::Tensor | Parallelism::DpAttention if hw.devices > 1 => {
                let msg = tokens * f64::from(self.model.hidden) * 2.0;
                2.0 * f64::from(self.model.layers) * (hw.allreduce_latency_s() + msg * 2.0 * (n - 1.0) / n / (hw.allreduce_gbps() * GB))
            }
            Parallelism::LayerSplit if hw.devices > 1 => (n - 1.0) * LAYER_SPLIT_HOP_S,
            Parallelism::RowSplit if hw.devices > 1 => {
                let bytes = tokens * f64::from(self.model.hidden) * 4.0 * ROW_SPLIT_VECTORS_PER_LAYER;
                f64::from(self.model.layers) * (ROW_SPLIT_SYNC_S + (n - 1.0) * (ROW_SPLIT_PER_DEVICE_S + bytes / (hw.interconnect_gbps * GB)))
            }
            _ => 0.0,
        };
        // The engine's per-step work: a fixed part and, in the Python serving engines, a part per running sequence.
        // (Under DP attention each device's scheduler serves its own sequences, side by side.)
        let overhead_s = self.engine.step_overhead_ms / 1e3 + self.engine.sequence_overhead_us * 1e-6 * load.decode_seqs * fd / copies;
        let mut seconds = kernels_s + comm_s + overhead_s;
        if load.pipelined && hw.parallelism == Parallelism::LayerSplit && hw.devices > 1 {
            // Its devices work on it and the micro-batches after it at once: one stage's time on the clock.
            seconds /= n;
        }
        let chain_floor = floor > gemm_s + kv_s.max(attn_s);
        let bound = if chain_floor { Bound::Overhead } else { classify(weights_s, matmul_s, kv_s, attn_s, overhead_s + comm_s) };
        StepCost { seconds, memory_s, compute_s, weights_s, matmul_s, kv_s, attn_s, comm_s, overhead_s, bound, chain_floor }
    }

    /// The work of a step as a roofline counts it: (FLOPs, bytes moved) — the matmul and attention FLOPs, and
    /// the weight and KV bytes read (the MoE kernels' inefficiency and the kernel chain's floor are time, not
    /// work: they show as a point below its roof).
    #[must_use]
    pub fn step_work(&self, load: &StepLoad) -> (f64, f64) {
        let tokens = load.decode_seqs + load.prefill_tokens;
        let flops = 2.0 * self.model.matmul_params_per_token() * tokens + load.decode_attn_flops + load.prefill_attn_flops;
        // DP attention: every device with sequences reads its own copy of the dense weights.
        let read = self.weight_bytes_read(tokens);
        let busy = self.dense_copies().min((load.decode_seqs + load.prefill_seqs).max(1.0));
        let dense = (busy - 1.0) * (read - self.routed_expert_load(tokens).0).max(0.0);
        (flops, read + dense + load.decode_kv_bytes + load.prefill_kv_bytes)
    }

    /// The serving engine's kernel chain's floor for one step over all layers, seconds (0 for llama.cpp, whose
    /// per-layer overhead is fitted on its own rows, and off GPUs); see [`super::kernels`].
    #[must_use]
    pub fn kernel_floor_s(&self) -> f64 {
        if !self.kernel_chain() {
            return 0.0;
        }
        f64::from(self.model.layers) * super::kernels::per_layer(&self.model) * super::kernels::KERNEL_FLOOR_S
    }

    /// The host's launch chain of a step that carries prompt tokens, seconds: such steps run outside the CUDA
    /// graphs decode steps replay, so each kernel is launched from Python ([`super::kernels::EAGER_LAUNCH_S`]);
    /// 0 where the kernel chain does not apply and for LMDeploy's C++ TurboMind.
    #[must_use]
    pub fn eager_floor_s(&self) -> f64 {
        self.kernel_floor_s() * self.eager_factor()
    }

    /// The eager launch chain over the graph-replayed one: 0 for LMDeploy's C++ TurboMind, which has none.
    fn eager_factor(&self) -> f64 {
        if self.engine.kind == super::engine::EngineKind::Lmdeploy {
            0.0
        } else {
            super::kernels::EAGER_LAUNCH_S / super::kernels::KERNEL_FLOOR_S
        }
    }

    /// The floor under a step's kernels: the graph-replayed chain, or for a step with prompt tokens (every step
    /// when the engine runs without CUDA graphs) the larger of it and the eager launch chain (the chain computed
    /// once).
    #[must_use]
    pub fn chain_floor_s(&self, prompt: bool) -> f64 {
        let graph = self.kernel_floor_s();
        if prompt || !self.engine.cuda_graphs {
            graph * self.eager_factor().max(1.0)
        } else {
            graph
        }
    }

    /// Whether the kernel-chain model applies: a serving engine on a GPU.
    #[must_use]
    pub fn kernel_chain(&self) -> bool {
        super::kernels::applies(self.engine.kind, self.hardware.kind)
    }

    /// Prompt tokens one sequence's chunk may carry in a step: the step's budget (`max_batched_tokens`), or under DP
    /// attention each device's share of it (SGLang divides `--chunked-prefill-size` among its attention ranks; vLLM's
    /// `--max-num-batched-tokens` is each rank's own).
    #[must_use]
    pub fn chunk_tokens(&self) -> u32 {
        (self.engine.max_batched_tokens.max(1) / self.ranks()).max(1)
    }

    /// Sequences one rank may run: the engine's max batch, or under DP attention each rank's share of it (vLLM's and
    /// TensorRT-LLM's limits are each rank's own; vLLM's profile run samples that many rows).
    #[must_use]
    pub fn rank_batch(&self) -> u32 {
        self.engine.max_batch.div_ceil(self.ranks())
    }

    /// Schedulers side by side: the devices under DP attention, else one.
    fn ranks(&self) -> u32 {
        (self.dense_copies() as u32).max(1)
    }

    /// Seconds to prefill `prompt` new tokens after `prior` cached tokens on an idle server, in chunks of
    /// [`Self::chunk_tokens`] (each chunk streams the weights once). Up to 64 chunks are summed exactly; longer
    /// prompts use a 64-point midpoint rule over the chunks, so the cost is bounded for any input.
    #[must_use]
    pub fn prefill_seconds(&self, prompt: f64, prior: f64) -> f64 {
        let chunk = f64::from(self.chunk_tokens());
        self.prefill_chunks_seconds(prompt, prior) * self.layer_split_prefill_factor((prompt.max(0.0) / chunk).ceil())
    }

    /// [`Deployment::prefill_seconds`] with the chunks one after another (no llama.cpp pipelining of them).
    #[must_use]
    pub fn prefill_chunks_seconds(&self, prompt: f64, prior: f64) -> f64 {
        let prompt = prompt.max(0.0);
        if prompt <= 0.0 {
            return 0.0;
        }
        let chunk = f64::from(self.chunk_tokens());
        let full = (prompt / chunk).floor();
        let rest = prompt - full * chunk;
        let mut t = 0.0;
        if full > 0.0 {
            let samples = full.min(64.0);
            let stride = full / samples;
            let mut sum = 0.0;
            for i in 0..samples as u32 {
                // Midpoint of the i-th group of chunks.
                let j = ((f64::from(i) + 0.5) * stride).floor();
                sum += self.step(&self.with_prefill(StepLoad::default(), chunk, prior + j * chunk)).seconds;
            }
            t += sum * stride;
        }
        if rest > 0.0 {
            t += self.step(&self.with_prefill(StepLoad::default(), rest, prior + full * chunk)).seconds;
        }
        t
    }

    /// llama.cpp pipelines a prompt's micro-batches through a layer split: the `-ub` chunks of one `-b` batch
    /// (default 2048 / 512 = 4 in flight) move through the `n` devices like a pipeline, so `m` chunks take
    /// `(m + n − 1) / n` chunk-times instead of `m`. One chunk gains nothing (pp512 on 1 ≈ 2 ≈ 4 GPUs); pp4096
    /// on 4 GPUs runs 2.3× faster (measured on 4 × RTX 4090: 6531 → 15144 tok/s). Returns the factor on the
    /// sequential time of `chunks` chunks (1 for any other parallelism).
    #[must_use]
    pub fn layer_split_prefill_factor(&self, chunks: f64) -> f64 {
        let in_flight = self.layer_split_in_flight();
        let n = f64::from(self.hardware.devices);
        if self.hardware.parallelism != Parallelism::LayerSplit || n <= 1.0 || chunks <= 1.0 {
            return 1.0;
        }
        let groups = (chunks / in_flight).floor();
        let rest = chunks - groups * in_flight;
        let pipelined = groups * (in_flight + n - 1.0) / n + if rest > 0.0 { (rest + n - 1.0) / n } else { 0.0 };
        (pipelined / chunks).min(1.0)
    }

    /// Micro-batches of one llama.cpp batch: `-b` ÷ `-ub` (2048 ÷ 512 = 4 by default; 16 at `-ub` 128).
    #[must_use]
    pub fn layer_split_in_flight(&self) -> f64 {
        (f64::from(LLAMA_CPP_BATCH) / f64::from(self.engine.max_batched_tokens.max(1))).floor().max(1.0)
    }

    /// Adds `count` prompt pieces of `tokens` tokens each, all after `prior` tokens of context (several short
    /// prompts packed into one chunk: each attends only within its own sequence).
    #[must_use]
    pub fn with_prefill_many(&self, mut load: StepLoad, count: f64, tokens: f64, prior: f64) -> StepLoad {
        let one = self.with_prefill(StepLoad::default(), tokens, prior);
        load.prefill_tokens += count * one.prefill_tokens;
        load.prefill_kv_bytes += count * one.prefill_kv_bytes;
        load.prefill_attn_flops += count * one.prefill_attn_flops;
        load.prefill_seqs += count * one.prefill_seqs;
        load.prefill_max_chunk = load.prefill_max_chunk.max(one.prefill_max_chunk);
        load
    }

    /// Mean seconds per token for one stream generating `n` tokens after `start` tokens of context
    /// (llama-bench `tgN` at depth d: start = d). Exact sum for up to 64 tokens, then 64-point midpoint rule.
    #[must_use]
    pub fn mean_decode_step(&self, batch: f64, start: f64, n: f64) -> f64 {
        let n = n.max(1.0);
        let points = n.min(64.0).ceil();
        let width = n / points;
        let mut sum = 0.0;
        for i in 0..points as u32 {
            let ctx = start + (f64::from(i) + 0.5) * width;
            sum += self.step(&self.decode_load(batch, ctx)).seconds;
        }
        sum / points
    }
}

#[cfg(test)]
pub(crate) mod tests;
