//! Tests of the step roofline: hand-computed steps, bounds, tensor parallelism, splits.

use super::*;
use crate::model::hardware::HardwareKind;
use crate::model::llm::tests::llama3_8b;

pub(crate) fn h100_llama8b() -> Deployment {
    Deployment {
        hardware: Hardware {
            name: "H100".into(),
            kind: HardwareKind::DatacenterGpu,
            architecture: crate::model::hardware::Architecture::Hopper,
            memory_bandwidth_gbps: 3350.0,
            memory_gb: 80.0,
            fp16_tflops: 989.0,
            fp8_tflops: Some(1979.0),
            fp4_tflops: None,
            int8_tops: None,
            devices: 1,
            parallelism: Parallelism::Tensor,
            interconnect_gbps: 450.0,
            allreduce_us: None,
            tdp_watts: None,
            node_devices: 8,
            bridged_pairs: None,
        },
        model: llama3_8b(),
        weight_bits: 16.0,
        dense_bits: 16.0,
        head_bits: 16.0,
        compute_dtype: ComputeDtype::Fp16,
        kv_elem_bytes: 2.0,
        engine: EngineParams {
            name: "test".into(),
            kind: crate::model::engine::EngineKind::Generic,
            bandwidth_efficiency: 1.0,
            kv_bandwidth_efficiency: 1.0,
            compute_efficiency: 1.0,
            moe_efficiency: 1.0,
            step_overhead_ms: 0.0,
            request_overhead_ms: 0.0,
            request_overhead_cv: 0.0,
            sequence_overhead_us: 0.0,
            max_batch: 256,
            max_batched_tokens: 8192,
            memory_utilization: 0.9,
            reserve_gb: 2.0,
            cuda_graphs: true,
            mixed_batches: true,
            compute_borrowed_from: None,
            calibrated: None,
            calibrated_elsewhere: None,
        },
    }
}

#[test]
fn batch_one_is_bytes_over_bandwidth() {
    let d = h100_llama8b();
    let c = d.step(&d.decode_load(1.0, 0.0));
    let bytes = (8.03e9 - 128_256.0 * 4096.0) * 2.0;
    assert!((c.seconds - bytes / 3350e9).abs() < 1e-12);
    assert_eq!(c.bound, Bound::Memory);
}

#[test]
fn kv_reads_add_to_the_step() {
    let d = h100_llama8b();
    let s0 = d.step(&d.decode_load(1.0, 0.0)).seconds;
    let s1 = d.step(&d.decode_load(1.0, 10_000.0)).seconds;
    assert!((s1 - s0 - 10_000.0 * 131_072.0 / 3350e9).abs() < 1e-9);
}

#[test]
fn large_batches_become_compute_bound() {
    let d = h100_llama8b();
    let c = d.step(&d.decode_load(4096.0, 0.0));
    assert_eq!(c.bound, Bound::Compute);
    assert!((c.compute_s - 2.0 * d.model.matmul_params_per_token() * 4096.0 / 989e12).abs() < 1e-12);
}

#[test]
fn row_split_streams_weights_in_parallel_but_waits_per_layer() {
    let one = h100_llama8b();
    let mut rs = one.clone();
    rs.hardware.devices = 2;
    rs.hardware.parallelism = Parallelism::RowSplit;
    let c1 = one.step(&one.decode_load(1.0, 8192.0));
    let c2 = rs.step(&rs.decode_load(1.0, 8192.0));
    // Weights over two devices, the KV cache on the main one only.
    assert!((c2.weights_s - c1.weights_s / 2.0).abs() < 1e-12);
    assert!((c2.memory_s - c2.weights_s - (c1.memory_s - c1.weights_s)).abs() < 1e-12);
    let wait = 32.0 * (ROW_SPLIT_SYNC_S + ROW_SPLIT_PER_DEVICE_S + 4096.0 * 4.0 * ROW_SPLIT_VECTORS_PER_LAYER / 450e9);
    assert!((c2.comm_s - wait).abs() < 1e-12, "{} vs {wait}", c2.comm_s);
    assert_eq!(rs.kv_replication(), 1.0);
    // The KV cache lives on the main device: one device's memory minus its share of the weights.
    let expect = 80.0 * GIB * rs.engine.memory_utilization - rs.weight_bytes() / 2.0 - rs.engine.reserve_gb * GIB;
    assert!((rs.kv_budget_bytes() - expect).abs() < 1.0);
}

#[test]
fn tensor_parallel_adds_bandwidth_layer_split_does_not() {
    let one = h100_llama8b();
    let mut tp = one.clone();
    tp.hardware.devices = 2;
    let mut ls = tp.clone();
    ls.hardware.parallelism = Parallelism::LayerSplit;
    let t1 = one.step(&one.decode_load(1.0, 0.0));
    let t2 = tp.step(&tp.decode_load(1.0, 0.0));
    let tl = ls.step(&ls.decode_load(1.0, 0.0));
    assert!((t2.memory_s - t1.memory_s / 2.0).abs() < 1e-12);
    assert!(t2.comm_s > 0.0 && t2.seconds < t1.seconds);
    assert!((tl.memory_s - t1.memory_s).abs() < 1e-12);
    assert!(tl.seconds > t1.seconds);
}

#[test]
fn kv_capacity() {
    let d = h100_llama8b();
    // 0.9 × 80 GiB usable − 16.06 GB weights − 2 GiB reserve.
    let gib = 1_073_741_824.0;
    let budget = 80.0 * gib * 0.9 - 8.03e9 * 2.0 - 2.0 * gib;
    assert!((d.kv_budget_bytes() / budget - 1.0).abs() < 1e-12, "{} vs {budget}", d.kv_budget_bytes());
    assert!((d.max_sequences(1000.0) / (budget / 131_072_000.0) - 1.0).abs() < 1e-12);
}

#[test]
fn tensor_parallel_replicates_kv_heads_it_cannot_split() {
    let mut d = h100_llama8b();
    d.hardware.devices = 16; // 8 KV heads over 16 devices: each head on 2 devices
    assert_eq!(d.kv_bytes_per_token(), 2.0 * 131_072.0);
    d.hardware.devices = 8;
    assert_eq!(d.kv_bytes_per_token(), 131_072.0);
    d.model.attention = crate::model::llm::Attention::Mla { kv_lora_rank: 512, rope_dim: 64 };
    assert_eq!(d.kv_bytes_per_token(), 8.0 * 32.0 * 576.0 * 2.0);
    d.hardware.parallelism = Parallelism::Pipeline;
    assert_eq!(d.kv_bytes_per_token(), 32.0 * 576.0 * 2.0);
}

#[test]
fn long_prompts_are_sampled_not_looped() {
    let mut d = h100_llama8b();
    d.engine.max_batched_tokens = 1;
    // 10 million one-token chunks: bounded work, close to the exact sum for a smaller case.
    let t = d.prefill_seconds(1e7, 0.0);
    assert!(t.is_finite() && t > 0.0);
    d.engine.max_batched_tokens = 512;
    let sampled = d.prefill_seconds(512.0 * 200.0, 0.0);
    let mut exact = 0.0;
    for j in 0..200 {
        exact += d.step(&d.with_prefill(StepLoad::default(), 512.0, 512.0 * f64::from(j))).seconds;
    }
    assert!((sampled / exact - 1.0).abs() < 0.01, "{sampled} vs {exact}");
}

#[test]
fn pipeline_pipelines_decodes_but_not_one_prompt_or_one_token() {
    let one = h100_llama8b();
    let mut pp = one.clone();
    pp.hardware.devices = 4;
    pp.hardware.parallelism = Parallelism::Pipeline;
    // A prompt's chunk rides whole in one micro-batch and passes the stages one after another: no faster than on
    // one device (it had been 4 × faster, above one device's peak FLOPS).
    let t1 = one.prefill_seconds(8192.0, 0.0);
    let t4 = pp.prefill_seconds(8192.0, 0.0);
    assert!(t4 >= 0.99 * t1, "{t4} vs {t1}");
    let d1 = one.step(&one.decode_load(1.0, 0.0)).seconds;
    let d4 = pp.step(&pp.decode_load(1.0, 0.0)).seconds;
    assert!(d4 >= d1);
    // 256 decoding sequences run as 4 micro-batches of 64: the round costs one device's step of 64 (plus the
    // scheduler's per-sequence work for all 256), less than one device's step of 256.
    let b4 = pp.step(&pp.decode_load(256.0, 1024.0)).seconds;
    let b1 = one.step(&one.decode_load(64.0, 1024.0)).seconds;
    let b256 = one.step(&one.decode_load(256.0, 1024.0)).seconds;
    assert!(b4 >= b1 && b4 < 0.8 * b256, "{b4} vs {b1} and {b256}");
}

#[test]
fn prefill_is_compute_bound_and_chunked() {
    let d = h100_llama8b();
    let t = d.prefill_seconds(8192.0, 0.0);
    let mm = 2.0 * d.model.matmul_params_per_token() * 8192.0 / 989e12;
    assert!(t > mm && t < mm * 1.5, "{t} vs {mm}");
    assert_eq!(d.prefill_seconds(0.0, 0.0), 0.0);
}

/// A serving engine's cost per running sequence adds B · cost to a decode step of B sequences, whatever the
/// parallelism: one scheduler and sampler serve the whole batch (tensor parallel, and a pipeline's micro-batches).
#[test]
fn the_per_sequence_cost_is_the_whole_batchs() {
    for parallelism in [Parallelism::Tensor, Parallelism::Pipeline] {
        let mut d = h100_llama8b();
        d.hardware.devices = 4;
        d.hardware.parallelism = parallelism;
        let load = d.decode_load(256.0, 1000.0);
        let bare = d.step(&load);
        d.engine.sequence_overhead_us = 40.0;
        let with = d.step(&load);
        assert!((with.seconds - bare.seconds - 256.0 * 40e-6).abs() < 1e-12, "{parallelism:?}: {} vs {}", with.seconds, bare.seconds);
        assert!((with.overhead_s - bare.overhead_s - 256.0 * 40e-6).abs() < 1e-12, "{parallelism:?}");
    }
}

/// DP attention (`Parallelism::DpAttention`) against tensor parallelism for DeepSeek-V3 on 8 × H200: every device
/// holds the dense weights whole (7 more copies of them, by hand) and only its own sequences' latent cache (TP keeps
/// the latent whole on all 8), so memory holds about 5 × the sequences; one user's step reads the dense weights
/// from one device and is slower; a large batch of long contexts reads 1/8 of TP's cache per device and is faster
/// (at 160 users of 4,000 tokens, 57 against 65 ms: the cache's 10 ms saved, the dense copies' 4 ms paid);
/// a prompt's chunk is its device's eighth of the budget.
#[test]
fn dp_attention_trades_one_users_speed_for_the_batchs() {
    let resolve = |p: &str| {
        crate::scenario::Scenario::from_json(&format!(
            r#"{{"hardware":{{"preset":"h200-sxm","devices":8,"parallelism":"{p}"}},"model":{{"preset":"deepseek-v3"}},"quantization":{{"weights":"fp8"}},"engine":{{"preset":"sglang"}}}}"#
        ))
        .unwrap()
        .resolve()
        .unwrap()
        .deployment
    };
    let (tp, dp) = (resolve("tensor"), resolve("dp-attention"));
    assert_eq!((tp.dense_copies(), dp.dense_copies()), (1.0, 8.0));
    assert_eq!(tp.weight_bytes_stored(), tp.weight_bytes());
    let dense = dp.dense_weight_bytes();
    assert!((dp.weight_bytes_stored() - dp.weight_bytes() - 7.0 * dense).abs() < 1.0);
    // The non-expert part of DeepSeek-V3 at 8 bits (attention, shared experts, 3 dense layers) with its 16-bit head and
    // embeddings: about 18 GB.
    assert!(dense > 15e9 && dense < 21e9, "{dense}");
    assert_eq!((tp.kv_replication(), dp.kv_replication()), (8.0, 1.0));
    let (seq_tp, seq_dp) = (tp.max_sequences(4000.0), dp.max_sequences(4000.0));
    assert!(seq_dp > 4.0 * seq_tp && seq_dp < 8.0 * seq_tp, "{seq_tp} {seq_dp}");
    let one = |d: &Deployment| d.step(&d.decode_load(1.0, 4000.0)).seconds;
    assert!(one(&dp) > one(&tp), "one user: {} vs {}", one(&dp), one(&tp));
    let many = |d: &Deployment| d.step(&d.decode_load(160.0, 4000.0)).seconds;
    assert!(many(&dp) < 0.9 * many(&tp), "160 users: {} vs {}", many(&dp), many(&tp));
    // A step of one user reads what one device holds for it: the dense weights whole, its cache, an eighth of the
    // experts it touches (by hand, at η_bw and η_kv).
    let load = dp.decode_load(1.0, 4000.0);
    let c = dp.step(&load);
    let experts = dp.routed_expert_load(1.0).0;
    let bw = dp.hardware.memory_bandwidth_gbps * 1e9;
    let by_hand = (dp.weight_bytes_read(1.0) - experts + experts * (1.0 / dp.engine.moe_efficiency) / 8.0) / (bw * dp.engine.bandwidth_efficiency);
    assert!((c.weights_s - by_hand).abs() < 1e-9, "{} vs {by_hand}", c.weights_s);
    assert_eq!(dp.chunk_tokens(), tp.chunk_tokens() / 8);
    // No served run of a current engine measures DP attention: its band is the MoE one, borrowed and said to be.
    let (load_tp, load_dp) = (crate::plan::classes(&tp).1, crate::plan::classes(&dp).1);
    assert_eq!((load_tp.rows > 0, load_dp.rows, load_dp.p90_pct), (true, 0, load_tp.p90_pct));
    assert!(load_dp.name.contains("borrowed"), "{}", load_dp.name);
}

/// DP attention is refused for a dense model and for engines without it, next to the field.
#[test]
fn dp_attention_needs_experts_and_an_engine_that_has_it() {
    let err = |json: &str| crate::scenario::Scenario::from_json(json).unwrap().resolve().unwrap_err();
    let dense = err(
        r#"{"hardware":{"preset":"h100-sxm","devices":8,"parallelism":"dp-attention"},"model":{"preset":"llama-3.1-70b"},"engine":{"preset":"vllm"}}"#,
    );
    assert_eq!(dense.field, "hardware.parallelism");
    assert!(dense.message.contains("dense"), "{}", dense.message);
    let engine = err(
        r#"{"hardware":{"preset":"h100-sxm","devices":8,"parallelism":"dp-attention"},"model":{"preset":"qwen3-235b-a22b"},"engine":{"preset":"llama.cpp"}}"#,
    );
    assert_eq!(engine.field, "hardware.parallelism");
    assert!(engine.message.contains("no DP attention"), "{}", engine.message);
    // The experts are dealt out whole: 256 over 3 devices cannot be, and one device is no split.
    for n in [1, 3] {
        let e = err(&format!(
            r#"{{"hardware":{{"preset":"h200-sxm","devices":{n},"parallelism":"dp-attention"}},"model":{{"preset":"deepseek-v3"}},"engine":{{"preset":"sglang"}}}}"#
        ));
        assert_eq!(e.field, "hardware.parallelism");
        assert!(e.message.contains("256 experts") && e.message.contains("use 2, 4, 8"), "{}", e.message);
    }
}

/// Under DP attention a sequence's cache lives on one device: a sequence longer than a device's share of the KV
/// space does not fit, though the devices' space together would hold it; and vLLM's limits and profile-run reserve
/// are each rank's.
#[test]
fn dp_attention_counts_memory_per_device() {
    let resolve = |p: &str, engine: &str, prompt: u32| {
        crate::scenario::Scenario::from_json(&format!(
            r#"{{"hardware":{{"preset":"h100-sxm","devices":4,"parallelism":"{p}"}},"model":{{"preset":"qwen3-235b-a22b"}},"quantization":{{"weights":"fp8"}},"engine":{{"preset":"{engine}","memory_utilization":0.8}},"workload":{{"prompt_tokens":{prompt},"output_tokens":400}}}}"#
        ))
        .unwrap()
        .resolve()
        .unwrap()
        .deployment
    };
    let dp = resolve("dp-attention", "sglang", 20000);
    let ctx = 20400.0;
    let (budget, one) = (dp.kv_budget_bytes(), dp.kv_bytes(ctx));
    assert!(one < budget && one > budget / 4.0, "one sequence {one} B, KV space {budget} B");
    assert_eq!(dp.max_sequences(ctx), 0.0);
    assert_eq!(dp.max_sequences(2000.0) % 4.0, 0.0, "whole sequences on each of 4 devices");
    // vLLM: its per-rank defaults times the ranks; the reserve from one rank's rows.
    let (v_tp, v_dp) = (resolve("tensor", "vllm", 1000), resolve("dp-attention", "vllm", 1000));
    assert_eq!(v_dp.engine.max_batch, 4 * v_tp.engine.max_batch);
    assert_eq!(v_dp.engine.max_batched_tokens, 4 * v_tp.engine.max_batched_tokens);
    assert_eq!(v_dp.chunk_tokens(), v_tp.engine.max_batched_tokens);
    assert!((v_dp.engine.reserve_gb - v_tp.engine.reserve_gb).abs() < 1e-9, "{} vs {}", v_dp.engine.reserve_gb, v_tp.engine.reserve_gb);
}
