//! Property tests: evaluation never panics on any numbers (NaN, ±∞, 0, negative, huge), and the model obeys
//! its monotonic laws.

mod props_common;
use props_common::no_stray_null;
use proptest::prelude::*;
use tps_planner::plan;
use tps_planner::scenario::*;

fn any_num() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(0.0),
        Just(-1.0),
        Just(1e300),
        Just(f64::MIN_POSITIVE),
        0.001f64..100_000.0,
    ]
}

#[allow(clippy::too_many_arguments)]
fn scenario(bw: f64, mem: f64, params: f64, bits: f64, prompt: f64, output: f64, conc: f64, tflops: f64) -> Scenario {
    Scenario {
        hardware: HardwareSpec { memory_bandwidth_gbps: Some(bw), memory_gb: Some(mem), fp16_tflops: Some(tflops), ..Default::default() },
        model: ModelSpec { params_b: Some(params), ..Default::default() },
        quantization: QuantSpec { weight_bits: Some(bits), ..Default::default() },
        workload: WorkloadSpec {
            prompt_tokens: Some(prompt),
            output_tokens: Some(output),
            load: Some(LoadSpec { concurrency: Some(vec![conc]), ..Default::default() }),
            requests: Some(40),
            ..Default::default()
        },
        ..Default::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn never_panics(bw in any_num(), mem in any_num(), params in any_num(), bits in any_num(),
                    prompt in any_num(), output in any_num(), conc in any_num(), tflops in any_num()) {
        let s = scenario(bw, mem, params, bits, prompt, output, conc, tflops);
        match plan::evaluate_analytic(&s) {
            Ok(r) => prop_assert!(r.single_stream.ceiling_tps.is_finite()),
            Err(e) => prop_assert!(!e.field.is_empty() && !e.message.is_empty()),
        }
        // The simulated path too, on inputs small enough to run quickly.
        if prompt.is_finite() && output.is_finite() && prompt < 5000.0 && output < 2000.0 && conc < 500.0 {
            let _ = plan::evaluate(&s);
        }
    }

    #[test]
    fn batching_trades_per_user_for_system(bw in 100.0f64..8000.0, params in 1.0f64..100.0, bits in 3.0f64..16.0) {
        let s = scenario(bw, 2000.0, params, bits, 256.0, 128.0, 1.0, bw / 3.0);
        let r = s.resolve().unwrap();
        let d = &r.deployment;
        let mut prev_user = f64::INFINITY;
        let mut prev_sys = 0.0;
        let limit = d.max_sequences(512.0).min(512.0);
        let mut b = 1.0;
        while b <= limit {
            let t = d.step(&d.decode_load(b, 384.0)).seconds;
            let (user, sys) = (1.0 / t, b / t);
            prop_assert!(user <= prev_user * (1.0 + 1e-12), "per-user rose at batch {b}");
            prop_assert!(sys >= prev_sys * (1.0 - 1e-12), "system fell at batch {b}");
            prev_user = user;
            prev_sys = sys;
            b *= 2.0;
        }
    }

    #[test]
    fn more_bandwidth_is_never_slower(bw in 50.0f64..8000.0, factor in 1.0f64..4.0, params in 0.5f64..200.0, bits in 2.0f64..16.0, b in 1.0f64..256.0) {
        let a = scenario(bw, 4000.0, params, bits, 512.0, 128.0, 1.0, 500.0).resolve().unwrap().deployment;
        let f = scenario(bw * factor, 4000.0, params, bits, 512.0, 128.0, 1.0, 500.0).resolve().unwrap().deployment;
        let (ta, tf) = (a.step(&a.decode_load(b, 1000.0)).seconds, f.step(&f.decode_load(b, 1000.0)).seconds);
        prop_assert!(tf <= ta * (1.0 + 1e-12));
        prop_assert!(f.prefill_seconds(512.0, 0.0) <= a.prefill_seconds(512.0, 0.0) * (1.0 + 1e-12));
    }
}

#[test]
fn every_preset_combination_evaluates() {
    // Every hardware × a spread of models, with the engine its kind defaults to: no panic, a report or an error.
    let models = ["llama-3.1-8b", "llama-3.1-70b", "deepseek-v3", "gpt-oss-120b", "gemma-3-4b", "qwen3-30b-a3b"];
    let mut n = 0;
    for hw in tps_planner::presets::hardware::HARDWARE {
        for m in tps_planner::presets::models::MODELS.iter().filter(|m| models.contains(&m.id)) {
            let s = Scenario {
                hardware: HardwareSpec { preset: Some(hw.id.into()), ..Default::default() },
                model: ModelSpec { preset: Some(m.id.into()), ..Default::default() },
                ..Default::default()
            };
            let r = plan::evaluate_analytic(&s).unwrap_or_else(|e| panic!("{} {}: {e}", hw.id, m.id));
            assert!(r.single_stream.ceiling_tps > 0.0 && r.single_stream.decode_tps <= r.single_stream.ceiling_tps * 1.0001, "{} {}", hw.id, m.id);
            n += 1;
        }
    }
    assert!(n >= 70 * 6);
    // All models × all engines on up to 8 GPUs (the most that tensor parallelism splits each model over; an uneven
    // split is refused, tests/regressions.rs), and every weight format.
    for m in tps_planner::presets::models::MODELS {
        let devices = [8u32, 4, 2, 1].into_iter().find(|&k| m.attention_heads % k == 0 && (m.kv_heads % k == 0 || k % m.kv_heads == 0));
        for e in tps_planner::presets::engines::ENGINES {
            for q in tps_planner::model::quant::WEIGHT_FORMATS {
                let s = Scenario {
                    hardware: HardwareSpec { preset: Some("b200".into()), devices, ..Default::default() },
                    model: ModelSpec { preset: Some(m.id.into()), ..Default::default() },
                    engine: EngineSpec { preset: Some(e.id.into()), ..Default::default() },
                    quantization: QuantSpec { weights: Some(q.id.into()), ..Default::default() },
                    ..Default::default()
                };
                plan::evaluate_analytic(&s).unwrap_or_else(|err| panic!("{} {} {}: {err}", m.id, e.id, q.id));
            }
        }
    }
}

fn sim_scenario(bw: f64, params: f64, bits: f64, prompt: f64, output: f64, levels: Vec<f64>, seed: u64) -> Scenario {
    Scenario {
        hardware: HardwareSpec { memory_bandwidth_gbps: Some(bw), memory_gb: Some(80.0), fp16_tflops: Some(bw / 4.0), ..Default::default() },
        model: ModelSpec { params_b: Some(params), ..Default::default() },
        quantization: QuantSpec { weight_bits: Some(bits), ..Default::default() },
        engine: EngineSpec { preset: Some("vllm".into()), ..Default::default() },
        workload: WorkloadSpec {
            prompt_tokens: Some(prompt),
            output_tokens: Some(output),
            load: Some(LoadSpec { concurrency: Some(levels), ..Default::default() }),
            requests: Some(200),
            seed: Some(seed),
            ..Default::default()
        },
        ..Default::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Simulated sweeps: percentiles ordered, mean TTFT and median TPOT do not fall as users are added, and
    /// the system throughput never beats the roofline bound (the best b / step(b) of pure decode at the
    /// shortest context, over every batch the engine allows). Lengths are lognormal: with fixed lengths a
    /// closed loop runs in synchronised waves (all users' prompts arrive together), and TTFT then depends on
    /// how many prompts share a step, which is not monotonic in the number of users — as in real fixed-length
    /// benchmarks.
    #[test]
    fn simulated_sweeps_obey_the_laws(bw in 300.0f64..5000.0, params in 1.0f64..30.0, bits in 4.0f64..16.0,
                                      prompt in 16.0f64..2048.0, output in 2.0f64..256.0, seed in 0u64..1000) {
        let mut s = sim_scenario(bw, params, bits, prompt, output, vec![1.0, 4.0, 16.0, 64.0], seed);
        s.workload.distribution = Some(Distribution::Lognormal);
        s.workload.spread = Some(0.5);
        let r = plan::evaluate(&s).unwrap();
        let d = s.resolve().unwrap().deployment;
        let bound = (1..=d.engine.max_batch)
            .map(|b| f64::from(b) / d.step(&d.decode_load(f64::from(b), 0.0)).seconds)
            .fold(0.0, f64::max);
        // The front end's time is lognormal per request (CV `request_overhead_cv`): two levels measure different
        // requests, so their mean TTFTs may differ by its sampling noise — three standard errors of a 200-request
        // mean are allowed on top of 5 % (a tiny model's TTFT is mostly front end).
        let fe_noise = 3.0 * d.engine.request_overhead_cv * d.engine.request_overhead_ms / 200f64.sqrt();
        let mut prev: Option<&LoadPoint> = None;
        for p in &r.sweep {
            for q in [&p.ttft_ms, &p.tpot_ms, &p.e2e_ms, &p.itl_ms] {
                prop_assert!(q.p99 >= q.p95 && q.p95 >= q.p50, "{:?}", q);
            }
            prop_assert!(p.system_tps <= bound * 1.0001, "system {} > bound {}", p.system_tps, bound);
            if let Some(a) = prev {
                prop_assert!(p.ttft_ms.mean >= a.ttft_ms.mean * 0.95 - fe_noise, "TTFT mean fell: {} -> {}", a.ttft_ms.mean, p.ttft_ms.mean);
                prop_assert!(p.tpot_ms.p50 >= a.tpot_ms.p50 * 0.98, "TPOT p50 fell: {} -> {}", a.tpot_ms.p50, p.tpot_ms.p50);
            }
            prev = Some(p);
        }
    }
}

#[test]
fn simulation_is_deterministic_and_seed_sensitive() {
    let mut s = sim_scenario(2000.0, 8.0, 16.0, 512.0, 128.0, vec![8.0], 7);
    s.workload.distribution = Some(Distribution::Lognormal);
    let a = plan::evaluate(&s).unwrap();
    let b = plan::evaluate(&s).unwrap();
    let json = |r: &tps_planner::scenario::Report| serde_json::to_string(r).unwrap();
    assert_eq!(json(&a), json(&b));
    s.workload.seed = Some(8);
    let c = plan::evaluate(&s).unwrap();
    assert_ne!(a.sweep[0].ttft_ms, c.sweep[0].ttft_ms);
}

#[test]
fn low_load_simulation_agrees_with_the_analytic_model() {
    // One user, fixed lengths: nothing queues, so the simulated median TPOT is the analytic decode step.
    let s = sim_scenario(3350.0, 8.0, 16.0, 512.0, 128.0, vec![1.0], 1);
    let r = plan::evaluate(&s).unwrap();
    let p = &r.sweep[0];
    let rel = (p.per_user_tps / p.analytic_per_user_tps - 1.0).abs();
    assert!(rel < 0.03, "sim {} vs analytic {}", p.per_user_tps, p.analytic_per_user_tps);
    let rel_ss = (p.per_user_tps / r.single_stream.decode_tps - 1.0).abs();
    assert!(rel_ss < 0.03, "sim {} vs single stream {}", p.per_user_tps, r.single_stream.decode_tps);
}

#[test]
fn disaggregation_trades_ttft_for_tpot() {
    let base = r#"{"hardware":{"preset":"h100-sxm","devices":2},"model":{"preset":"llama-3.1-8b"},
        "workload":{"prompt_tokens":4096,"output_tokens":256,"requests":300,"load":{"concurrency":[32]}}"#;
    let colo = plan::evaluate(&Scenario::from_json(&format!("{base}}}")).unwrap()).unwrap();
    let disagg = plan::evaluate(
        &Scenario::from_json(&format!(r#"{base},"engine":{{"preset":"vllm","disaggregation":{{"prefill_devices":1,"kv_transfer_gbps":50}}}}}}"#))
            .unwrap(),
    )
    .unwrap();
    let (c, d) = (&colo.sweep[0], &disagg.sweep[0]);
    // A decode pool never stalls behind 4k-token prefills: lower TPOT, at the price of a queue for the one prefill GPU.
    assert!(d.tpot_ms.p99 < 0.8 * c.tpot_ms.p99, "disaggregated TPOT p99 {} vs colocated {}", d.tpot_ms.p99, c.tpot_ms.p99);
    assert!(d.ttft_ms.p50 > c.ttft_ms.p50, "TTFT {} vs {}", d.ttft_ms.p50, c.ttft_ms.p50);
    for (json, field) in [
        (r#"{"hardware":{"preset":"h100-sxm"},"model":{"params_b":8},"engine":{"disaggregation":{}}}"#, "engine.disaggregation"),
        (
            r#"{"hardware":{"preset":"h100-sxm","devices":2},"model":{"params_b":8},"engine":{"disaggregation":{"prefill_devices":2}}}"#,
            "engine.disaggregation.prefill_devices",
        ),
        (
            r#"{"hardware":{"preset":"h100-sxm","devices":2},"model":{"params_b":8},"engine":{"disaggregation":{"kv_transfer_gbps":0}}}"#,
            "engine.disaggregation.kv_transfer_gbps",
        ),
    ] {
        let e = Scenario::from_json(json).unwrap().resolve().unwrap_err();
        assert_eq!(e.field, field, "{json}: {e}");
    }
}

fn any_small() -> impl Strategy<Value = f64> {
    prop_oneof![1 => Just(f64::NAN), 1 => Just(0.0), 1 => Just(-3.0), 1 => Just(1e9), 16 => 0.01f64..5000.0]
}

static OK_REPORTS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// Every structural option together (MoE, attention forms, parallelism, disaggregation, request rates,
    /// length distributions, timeouts, queue limits, prefix hits): a report or a named error, never a panic,
    /// and no NaN or infinity in a report.
    #[test]
    fn structural_options_never_panic(
        experts in prop_oneof![3 => Just(0u32), 1 => 0u32..300], k in 1u32..20, active_frac in prop_oneof![9 => 0.05f64..1.0, 1 => any_small()],
        params in prop_oneof![9 => 0.5f64..150.0, 1 => any_small()],
        attn in 0u8..4, window in 0u32..10_000, frac in prop_oneof![9 => 0.0f64..1.0, 1 => any_small()],
        devices in prop_oneof![9 => 1u32..9, 1 => 0u32..200], par in 0u8..4,
        disagg in any::<bool>(), pre in 0u32..9, link in any_small(), rate in any::<bool>(), level in prop_oneof![9 => 0.1f64..300.0, 1 => any_small()],
        dist in prop_oneof![9 => 0u8..3, 1 => Just(3u8)], spread in prop_oneof![9 => 0.0f64..1.0, 1 => any_small()],
        timeout in prop_oneof![1 => Just(None), 1 => any_small().prop_map(Some)], qlimit in 0u32..50, hit in prop_oneof![9 => 0.0f64..1.0, 1 => any_small()],
        prompt in prop_oneof![9 => 1.0f64..4000.0, 1 => any_small()], output in prop_oneof![9 => 2.0f64..1000.0, 1 => any_small()],
        kv in prop_oneof![9 => 0u8..4, 1 => Just(4u8)], mode in prop_oneof![9 => 0u8..3, 1 => Just(3u8)],
    ) {
        let attention = match attn {
            0 => None,
            1 => Some(tps_planner::model::llm::Attention::Full),
            2 => Some(tps_planner::model::llm::Attention::Mla { kv_lora_rank: window, rope_dim: window / 8 }),
            _ => Some(tps_planner::model::llm::Attention::Sliding { window, local_fraction: frac }),
        };
        let s = Scenario {
            hardware: HardwareSpec {
                preset: Some("h100-sxm".into()),
                devices: Some(devices),
                parallelism: Some(match par {
                    0 => tps_planner::model::hardware::Parallelism::Tensor,
                    1 => tps_planner::model::hardware::Parallelism::LayerSplit,
                    2 => tps_planner::model::hardware::Parallelism::RowSplit,
                    _ => tps_planner::model::hardware::Parallelism::Pipeline,
                }),
                ..Default::default()
            },
            model: ModelSpec {
                params_b: Some(params),
                active_params_b: (experts > 0).then_some(params * active_frac),
                moe: Some(tps_planner::model::llm::Moe { experts, experts_per_token: if experts == 0 { 0 } else { k } }),
                attention,
                ..Default::default()
            },
            quantization: QuantSpec {
                weights: Some("fp8".into()),
                // (llama.cpp's q8_0 and q4_0 are refused on vLLM: its own formats here, so the reports go on.)
                kv_cache: Some(["fp16", "fp8", "bf16", "f32", "bogus"][kv as usize].into()),
                ..Default::default()
            },
            engine: EngineSpec {
                preset: Some("vllm".into()),
                disaggregation: disagg.then_some(DisaggregationSpec { prefill_devices: Some(pre), kv_transfer_gbps: Some(link) }),
                ..Default::default()
            },
            workload: WorkloadSpec {
                prompt_tokens: Some(prompt),
                output_tokens: Some(output),
                distribution: Distribution::ALL.get(dist as usize).copied(),
                spread: Some(spread),
                prefix_cache_hit_rate: Some(hit),
                // Two levels, so the capacity search runs too.
                load: Some(if rate {
                    LoadSpec { request_rate: Some(vec![level, level * 3.0]), ..Default::default() }
                } else {
                    LoadSpec { concurrency: Some(vec![level, level * 3.0]), ..Default::default() }
                }),
                requests: Some(50),
                timeout_s: timeout,
                queue_limit: Some(qlimit),
                mode: Mode::ALL.get(mode as usize).copied(),
                ..Default::default()
            },
            fleet: Some(FleetSpec { peak_users: (!rate).then_some(level * 20.0), peak_request_rate: rate.then_some(level * 3.0), spare_replicas: Some(1), peak_hours_per_day: None, ..Default::default() }),
            cost: Some(CostSpec { device_hour: Some(2.0), currency: Some("EUR".into()), electricity_per_kwh: Some(0.2), pue: Some(1.2), ..Default::default() }),
            ..Default::default()
        };
        match plan::evaluate(&s) {
            Ok(r) => {
                let n = OK_REPORTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                if std::env::var_os("TPS_PROPS_COUNT").is_some() {
                    eprintln!("reports so far: {n}");
                }
                // NaN and ±∞ serialise as null: only the optional fields may be null.
                let json = serde_json::to_value(&r).unwrap();
                prop_assert!(no_stray_null(&json, ""), "{json}");
                prop_assert!(r.single_stream.ceiling_tps.is_finite() && r.single_stream.decode_tps.is_finite());
                for p in &r.sweep {
                    prop_assert!(p.system_tps.is_finite() && p.ttft_ms.p99.is_finite() && p.tpot_ms.p99.is_finite(), "{p:?}");
                }
            }
            Err(e) => {
                if std::env::var_os("TPS_PROPS_COUNT").is_some() {
                    eprintln!("error: {e}");
                }
                prop_assert!(!e.field.is_empty() && !e.message.is_empty())
            }
        }
    }
}

#[test]
fn several_devices_default_to_the_engine_own_split() {
    let r = |engine: &str| {
        Scenario::from_json(&format!(
            r#"{{"hardware":{{"preset":"rtx-4090","devices":2}},"model":{{"preset":"llama-3.1-70b"}},"engine":{{"preset":"{engine}"}}}}"#
        ))
        .unwrap()
        .resolve()
        .unwrap()
    };
    let llama = r("llama.cpp");
    assert_eq!(llama.deployment.hardware.parallelism, tps_planner::model::hardware::Parallelism::LayerSplit);
    assert!(llama.defaults_used.iter().any(|d| d.contains("layer-split")));
    assert_eq!(r("vllm").deployment.hardware.parallelism, tps_planner::model::hardware::Parallelism::Tensor);
    // A stated split is kept.
    let tp = Scenario::from_json(
        r#"{"hardware":{"preset":"rtx-4090","devices":2,"parallelism":"tensor"},"model":{"preset":"llama-3.1-70b"},"engine":{"preset":"llama.cpp"}}"#,
    )
    .unwrap()
    .resolve()
    .unwrap();
    assert_eq!(tp.deployment.hardware.parallelism, tps_planner::model::hardware::Parallelism::Tensor);
}

#[test]
fn serving_engines_default_to_the_model_released_format() {
    let r = Scenario::from_json(r#"{"hardware":{"preset":"h200-sxm","devices":8},"model":{"preset":"deepseek-v3"},"engine":{"preset":"vllm"}}"#)
        .unwrap()
        .resolve()
        .unwrap();
    assert_eq!(r.deployment.weight_bits, 8.0, "DeepSeek-V3 is released in FP8");
    assert!(r.deployment.fits());
    assert!(r.defaults_used.iter().any(|d| d.contains("released format")));
    assert!(r.quantization.starts_with("FP8"), "the report names the format used: {}", r.quantization);
    let l = Scenario::from_json(r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"engine":{"preset":"vllm"}}"#)
        .unwrap()
        .resolve()
        .unwrap();
    assert_eq!(l.deployment.weight_bits, 16.0);
}

#[test]
fn overloaded_open_loop_reports_the_capacity_not_zero() {
    let s = Scenario::from_json(
        r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"engine":{"preset":"vllm"},
            "workload":{"prompt_tokens":512,"output_tokens":256,"load":{"request_rate":[100,300,1000,10000]},"requests":400}}"#,
    )
    .unwrap();
    let r = tps_planner::plan::evaluate(&s).unwrap();
    let tps: Vec<f64> = r.sweep.iter().map(|p| p.system_tps).collect();
    assert!(r.sweep.iter().all(|p| p.saturated), "{tps:?}");
    let (lo, hi) = (tps.iter().copied().fold(f64::INFINITY, f64::min), tps.iter().copied().fold(0.0, f64::max));
    assert!(lo > 0.0 && hi / lo < 1.1, "a saturated server delivers its capacity at any overload: {tps:?}");
    let cap = tps_planner::plan::offline_marker(&r_deploy(&s), &s.resolve().unwrap().workload).system_tps;
    assert!((hi / cap - 1.0).abs() < 0.25, "capacity {hi:.0} vs the analytic {cap:.0}");
}

fn r_deploy(s: &Scenario) -> tps_planner::model::roofline::Deployment {
    s.resolve().unwrap().deployment
}

#[test]
fn empty_request_rates_bracket_the_capacity() {
    let s = Scenario::from_json(
        r#"{"hardware":{"preset":"l40s","devices":4},"model":{"preset":"qwen2.5-72b"},"quantization":{"weights":"fp8"},"engine":{"preset":"vllm"},
            "workload":{"distribution":"fixed","prompt_tokens":1500,"output_tokens":400,"load":{"request_rate":[]},"requests":600}}"#,
    )
    .unwrap();
    // (600 requests: over 300 a growing queue is told from noise by a hair — the top rate, 19 % over what the
    // server makes, read as steady with the 16-bit head's 2.5 GB more, `model::quant::head_bits`.)
    let r = tps_planner::plan::evaluate(&s).unwrap();
    assert!(r.sweep.len() >= 8);
    assert!(r.sweep.first().unwrap().meets_target, "the lowest automatic rate is light load");
    assert!(r.sweep.last().unwrap().saturated, "the highest automatic rate is past capacity");
}

#[test]
fn llama_cpp_runs_gpt_oss_in_its_released_mxfp4() {
    let r = Scenario::from_json(r#"{"hardware":{"preset":"rtx-4090"},"model":{"preset":"gpt-oss-20b"},"engine":{"preset":"llama.cpp"}}"#)
        .unwrap()
        .resolve()
        .unwrap();
    assert!(r.quantization.starts_with("MXFP4"), "{}", r.quantization);
    let l = Scenario::from_json(r#"{"hardware":{"preset":"rtx-4090"},"model":{"preset":"llama-3.1-8b"},"engine":{"preset":"llama.cpp"}}"#)
        .unwrap()
        .resolve()
        .unwrap();
    assert!(l.quantization.starts_with("GGUF Q4_K_M"), "{}", l.quantization);
}
