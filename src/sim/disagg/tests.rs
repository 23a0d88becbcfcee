//! Tests of the disaggregated server: against the colocated one where they must agree, the transfer where it
//! shows, the fast path against plain stepping, overload, KV pressure and hostile inputs.

use super::*;
use crate::model::roofline::tests::h100_llama8b;
use crate::model::units::GIB;
use crate::sim::tests::{assert_ordered, cfg, NO_TARGETS};
use crate::sim::{simulate, simulate_disaggregated, Arrivals, LengthDist};

/// A link so fast that transfers take no time (1e12 GB/s).
const INSTANT: Disaggregation = Disaggregation { kv_transfer_gbps: 1e12 };

fn run(p: &Deployment, d: &Deployment, link: &Disaggregation, c: &SimConfig) -> SimResult {
    simulate_disaggregated(p, d, link, c, &NO_TARGETS)
}

/// `d` with device memory sized for a KV pool of `seqs` sequences of `ctx` tokens.
fn kv_room(d: &Deployment, seqs: f64, ctx: f64) -> Deployment {
    let mut d = d.clone();
    let reserve = d.engine.reserve_gb * GIB * f64::from(d.hardware.devices);
    d.hardware.memory_gb = (d.weight_bytes() + reserve + seqs * d.kv_bytes(ctx)) / d.engine.memory_utilization / GIB;
    d
}

/// (1) One user, instant link: TTFT is the colocated server's (one prefill step on the same device), TPOT the
/// pure decode step.
#[test]
fn single_user_instant_link_matches_colocated() {
    let d = h100_llama8b();
    let c = cfg(50, 512.0, 128.0, Arrivals::Closed { concurrency: 1 });
    let co = simulate(&d, &c, &NO_TARGETS);
    let r = simulate_disaggregated(&d, &d, &INSTANT, &c, &NO_TARGETS);
    println!(
        "instant link, 1 user: TTFT {:.4} ms (colocated {:.4}), TPOT {:.4} ms (colocated {:.4})",
        r.ttft_ms.p50, co.ttft_ms.p50, r.tpot_ms.p50, co.tpot_ms.p50
    );
    assert_eq!((r.completed, r.saturated), (50, false), "{r:?}");
    assert!((r.ttft_ms.p50 / co.ttft_ms.p50 - 1.0).abs() < 0.03, "{} vs {}", r.ttft_ms.p50, co.ttft_ms.p50);
    assert!((r.ttft_ms.p99 / co.ttft_ms.p99 - 1.0).abs() < 0.03);
    let step = d.step(&d.decode_load(1.0, 512.0 + 64.0)).seconds * 1e3;
    assert!((r.tpot_ms.p50 / step - 1.0).abs() < 0.03, "{} vs {step}", r.tpot_ms.p50);
    assert!((r.tpot_ms.p99 / step - 1.0).abs() < 0.03, "{} vs {step}", r.tpot_ms.p99);
    assert!((r.e2e_ms.mean / co.e2e_ms.mean - 1.0).abs() < 0.03);
    assert!((r.mean_batch - 1.0).abs() < 1e-12 && r.preemptions == 0, "{r:?}");
    // The prefill pool works for one prefill step per request.
    let busy = r.ttft_ms.mean / r.e2e_ms.mean;
    assert!((r.prefill_utilization / busy - 1.0).abs() < 0.03, "{} vs {busy}", r.prefill_utilization);
    assert_eq!(co.prefill_utilization, 0.0);
    assert_ordered(&r);
}

/// (2) A slow link delays the second token by the transfer, bytes ÷ bandwidth: E2E by the whole transfer,
/// TPOT by a share of it, the largest inter-token gap by all of it.
#[test]
fn slow_link_adds_the_transfer_to_the_first_gap() {
    let d = h100_llama8b();
    let (prompt, output) = (2048.0, 16.0);
    let c = cfg(50, prompt, output, Arrivals::Closed { concurrency: 1 });
    let fast = simulate_disaggregated(&d, &d, &INSTANT, &c, &NO_TARGETS);
    let gbps = 10.0;
    let slow = simulate_disaggregated(&d, &d, &Disaggregation { kv_transfer_gbps: gbps }, &c, &NO_TARGETS);
    let transfer_ms = d.kv_bytes(prompt) / (gbps * 1e9) * 1e3;
    let d_tpot = slow.tpot_ms.mean - fast.tpot_ms.mean;
    let d_e2e = slow.e2e_ms.mean - fast.e2e_ms.mean;
    let d_itl_p99 = slow.itl_ms.p99 - fast.itl_ms.p99;
    println!(
        "link {gbps} GB/s, prompt {prompt}: transfer {transfer_ms:.3} ms; TPOT mean +{d_tpot:.4} ms \
         (expected {:.4}), E2E mean +{d_e2e:.3} ms, ITL p99 +{d_itl_p99:.3} ms, TTFT {:.3} vs {:.3} ms",
        transfer_ms / (output - 1.0),
        slow.ttft_ms.mean,
        fast.ttft_ms.mean
    );
    assert!((d_tpot / (transfer_ms / (output - 1.0)) - 1.0).abs() < 0.1, "{d_tpot} vs {transfer_ms}");
    assert!((d_e2e / transfer_ms - 1.0).abs() < 0.1, "{d_e2e} vs {transfer_ms}");
    // 15 gaps per request, the first one holding the transfer: the p99 of the gaps is the first gap.
    assert!((d_itl_p99 / transfer_ms - 1.0).abs() < 0.1, "{d_itl_p99} vs {transfer_ms}");
    // TTFT ends on the prefill pool: the link does not touch it.
    assert!((slow.ttft_ms.mean / fast.ttft_ms.mean - 1.0).abs() < 1e-9);
    assert_ordered(&slow);
}

/// (3) Prefill-heavy load (4096-token prompts, 64 output tokens, 32 users): the colocated server mixes
/// 4096-token prefill chunks into the decode steps, and every such step stalls all 32 decodes; a decode pool
/// that only decodes does not. Same hardware on both sides — two H100s: colocated as one 2-way tensor
/// parallel replica (the usual way to spend two GPUs on one 8B server: twice the bandwidth and compute per
/// step), disaggregated as one H100 prefilling and one decoding (DistServe's 1:1 placement), joined by a
/// 50 GB/s link (400 Gb/s NDR InfiniBand class). The tail TPOT must be lower disaggregated even though each
/// decode step runs on half the hardware; TTFT is the price (one GPU prefills what two did).
#[test]
fn disaggregation_cuts_tail_tpot_under_prefill_heavy_load() {
    let one = h100_llama8b();
    let mut tp2 = one.clone();
    tp2.hardware.devices = 2;
    let c = cfg(600, 4096.0, 64.0, Arrivals::Closed { concurrency: 32 });
    let co = simulate(&tp2, &c, &NO_TARGETS);
    let link = Disaggregation { kv_transfer_gbps: 50.0 };
    let dis = simulate_disaggregated(&one, &one, &link, &c, &NO_TARGETS);
    println!(
        "4096/64, 32 users. colocated TP2: TPOT p50 {:.2} p99 {:.2} ms, ITL p99 {:.2} ms, TTFT p50 {:.1} ms, \
         {:.0} tok/s | disaggregated 1+1: TPOT p50 {:.2} p99 {:.2} ms, ITL p99 {:.2} ms, TTFT p50 {:.1} ms, \
         {:.0} tok/s, prefill utilization {:.2}, decode batch {:.1}",
        co.tpot_ms.p50,
        co.tpot_ms.p99,
        co.itl_ms.p99,
        co.ttft_ms.p50,
        co.system_output_tps,
        dis.tpot_ms.p50,
        dis.tpot_ms.p99,
        dis.itl_ms.p99,
        dis.ttft_ms.p50,
        dis.system_output_tps,
        dis.prefill_utilization,
        dis.mean_batch
    );
    assert!(!co.saturated && !dis.saturated, "{co:?}\n{dis:?}");
    assert_eq!(dis.completed, 600);
    assert!(dis.tpot_ms.p99 < co.tpot_ms.p99, "{} vs {}", dis.tpot_ms.p99, co.tpot_ms.p99);
    assert!(dis.itl_ms.p99 < co.itl_ms.p99, "{} vs {}", dis.itl_ms.p99, co.itl_ms.p99);
    assert!(dis.prefill_utilization > 0.5, "{dis:?}");
    assert_ordered(&co);
    assert_ordered(&dis);
}

/// (4) Same inputs and seed, same result, bit for bit; another seed, another result.
#[test]
fn deterministic_for_a_seed() {
    let d = h100_llama8b();
    let link = Disaggregation { kv_transfer_gbps: 25.0 };
    let mut c = SimConfig {
        requests: 300,
        prompt: LengthDist::LogNormal { mean: 800.0, cv: 1.0 },
        output: LengthDist::Uniform { min: 1.0, max: 200.0 },
        arrivals: Arrivals::Poisson { rate_per_s: 15.0, burstiness: 0.5 },
        seed: 7,
        ..SimConfig::default()
    };
    let a = simulate_disaggregated(&d, &d, &link, &c, &NO_TARGETS);
    assert_eq!(a, simulate_disaggregated(&d, &d, &link, &c, &NO_TARGETS));
    c.seed = 8;
    let e = simulate_disaggregated(&d, &d, &link, &c, &NO_TARGETS);
    assert_ne!(a, e);
    assert_ordered(&a);
    assert_ordered(&e);
    c.arrivals = Arrivals::Closed { concurrency: 16 };
    let closed = simulate_disaggregated(&d, &d, &link, &c, &NO_TARGETS);
    assert_eq!(closed, simulate_disaggregated(&d, &d, &link, &c, &NO_TARGETS));
    assert_eq!(closed.completed, 300);
}

/// The decode pool's closed-form runs give the plain-stepping results (bit for bit without interpolation).
#[test]
fn fast_path_is_exact() {
    let base = h100_llama8b();
    let tight = kv_room(&base, 5.0, 1600.0);
    let varied = SimConfig {
        requests: 200,
        prompt: LengthDist::LogNormal { mean: 600.0, cv: 1.0 },
        output: LengthDist::Uniform { min: 1.0, max: 300.0 },
        ..SimConfig::default()
    };
    let targets = Targets { ttft_ms: 500.0, tpot_ms: 10.0 };
    let link = Disaggregation { kv_transfer_gbps: 20.0 };
    let cases = [
        (&base, &base, SimConfig { arrivals: Arrivals::Closed { concurrency: 48 }, ..varied }),
        (&base, &base, SimConfig { arrivals: Arrivals::Poisson { rate_per_s: 30.0, burstiness: 0.5 }, ..varied }),
        (&base, &tight, SimConfig { arrivals: Arrivals::Closed { concurrency: 12 }, ..varied }),
        (&tight, &base, SimConfig { arrivals: Arrivals::Poisson { rate_per_s: 200.0, burstiness: 1.0 }, ..varied }),
        (&base, &base, SimConfig { timeout_s: Some(3.0), ..varied }),
    ];
    let (plain, exact_only) = (FastPath { stretches: false, linear: false }, FastPath { stretches: true, linear: false });
    for (p, d, c) in cases {
        let slow = run_with(p, d, &link, &c, &targets, plain);
        let exact = run_with(p, d, &link, &c, &targets, exact_only);
        assert_eq!(exact, slow, "{c:?}");
        let fast = run_with(p, d, &link, &c, &targets, FastPath::ON);
        let counts = |r: &SimResult| (r.completed, r.timed_out, r.preemptions, r.saturated);
        assert_eq!(counts(&fast), counts(&slow));
        assert!((fast.tpot_ms.p99 / slow.tpot_ms.p99 - 1.0).abs() < 1e-9, "{fast:?}\n{slow:?}");
        assert!((fast.e2e_ms.mean / slow.e2e_ms.mean - 1.0).abs() < 1e-9, "{fast:?}\n{slow:?}");
    }
}

/// Overload, KV pressure on either pool, output of one token, queue limits and timeouts.
#[test]
fn overload_pressure_and_errors() {
    let d = h100_llama8b();
    let link = Disaggregation { kv_transfer_gbps: 50.0 };
    // Decode-bound: long outputs; the decode pool's queue grows, and the run is flagged.
    let full = run(&d, &d, &link, &cfg(400, 128.0, 512.0, Arrivals::Closed { concurrency: 256 }));
    assert!(full.request_throughput > 0.0, "{full:?}");
    let over = Arrivals::Poisson { rate_per_s: 3.0 * full.request_throughput, burstiness: 1.0 };
    let r = run(&d, &d, &link, &cfg(800, 128.0, 512.0, over));
    assert!(r.saturated, "{r:?}");
    // A slow link fills the prefill pool's KV cache with prompts waiting to be sent: still completes.
    let small = kv_room(&d, 4.0, 4096.0);
    let crawl = Disaggregation { kv_transfer_gbps: 2.0 };
    let r = run(&small, &d, &crawl, &cfg(100, 4000.0, 32.0, Arrivals::Closed { concurrency: 16 }));
    assert_eq!((r.completed, r.saturated), (100, false), "{r:?}");
    assert!(r.ttft_ms.p50 > 4.0 * d.kv_bytes(4000.0) / 2e9 * 1e3, "{r:?}"); // queued behind the link
                                                                            // A tight decode pool preempts and recomputes.
    let tight = kv_room(&d, 3.2, 1536.0);
    let r = run(&d, &tight, &link, &cfg(200, 1024.0, 512.0, Arrivals::Closed { concurrency: 8 }));
    assert!(r.preemptions > 0 && r.completed == 200 && !r.saturated, "{r:?}");
    assert!(r.mean_kv_utilization > 0.7, "{r:?}");
    // One output token: done on the prefill pool, nothing decoded.
    let r = run(&d, &d, &link, &cfg(100, 512.0, 1.0, Arrivals::Closed { concurrency: 4 }));
    assert_eq!(r.completed, 100);
    assert_eq!((r.tpot_ms.mean, r.mean_batch), (0.0, 0.0));
    assert!((r.e2e_ms.mean - r.ttft_ms.mean).abs() < 1e-9);
    // Queue limit on the prefill queue, timeouts end to end.
    let big = Arrivals::Poisson { rate_per_s: 500.0, burstiness: 1.0 };
    let r = run(&d, &d, &link, &SimConfig { queue_limit: Some(16), ..cfg(500, 2048.0, 64.0, big) });
    assert!(r.rejected > 0 && r.completed + r.rejected + r.timed_out == 500, "{r:?}");
    let r = run(&d, &d, &link, &SimConfig { timeout_s: Some(2.0), ..cfg(500, 2048.0, 64.0, big) });
    assert!(r.timed_out > 0 && r.e2e_ms.p99 <= 2000.0, "{r:?}");
    assert_ordered(&r);
}

/// (5) Hostile inputs: no panic, no endless loop; a link of zero, negative or NaN bandwidth, or a deployment
/// that does not fit, gives the all-zero saturated result.
#[test]
fn hostile_inputs_do_not_panic() {
    let d = h100_llama8b();
    let c = cfg(30, 256.0, 16.0, Arrivals::Closed { concurrency: 4 });
    for bw in [0.0, -1.0, f64::NAN, f64::NEG_INFINITY] {
        let r = simulate_disaggregated(&d, &d, &Disaggregation { kv_transfer_gbps: bw }, &c, &NO_TARGETS);
        assert_eq!(r, SimResult { saturated: true, ..SimResult::default() }, "{bw}");
    }
    for bw in [f64::INFINITY, 1e300, f64::MIN_POSITIVE, 1e-300, 1e-6] {
        let short = SimConfig { max_sim_seconds: 1e4, ..c };
        let r = simulate_disaggregated(&d, &d, &Disaggregation { kv_transfer_gbps: bw }, &short, &NO_TARGETS);
        assert_ordered(&r);
        assert_eq!(r.completed == 30, bw >= 1.0, "{bw}: {r:?}");
    }
    let mut no_fit = d.clone();
    no_fit.hardware.memory_gb = 8.0;
    for (p, q) in [(&no_fit, &d), (&d, &no_fit)] {
        let r = simulate_disaggregated(p, q, &INSTANT, &c, &NO_TARGETS);
        assert_eq!((r.completed, r.saturated, r.system_output_tps), (0, true, 0.0));
    }
    let huge = SimConfig { context_depth: 1e7, ..c };
    assert!(simulate_disaggregated(&d, &d, &INSTANT, &huge, &NO_TARGETS).saturated);
    for &x in &crate::sim::tests::WEIRD {
        let c = crate::sim::tests::hostile_config(x);
        let link = Disaggregation { kv_transfer_gbps: 10.0 };
        assert_ordered(&simulate_disaggregated(&d, &d, &link, &c, &Targets { ttft_ms: x, tpot_ms: x }));
        let c = SimConfig { arrivals: Arrivals::Closed { concurrency: 0 }, queue_limit: Some(0), ..c };
        assert_ordered(&simulate_disaggregated(&d, &d, &link, &c, &NO_TARGETS));
    }
    let mut tiny = d.clone();
    tiny.engine.max_batch = 0;
    tiny.engine.max_batched_tokens = 0;
    let r = run(&tiny, &tiny, &INSTANT, &cfg(5, 40.0, 3.0, Arrivals::Closed { concurrency: 3 }));
    assert_eq!(r.completed, 5);
    let r = run(&d, &d, &INSTANT, &SimConfig { requests: 0, ..SimConfig::default() });
    assert_eq!((r.completed, r.saturated), (0, false));
    let r = run(&d, &d, &INSTANT, &SimConfig { max_steps: 0, ..SimConfig::default() });
    assert!(r.saturated);
    let r = simulate_disaggregated(&d, &d, &INSTANT, &SimConfig { max_steps: 60, ..c }, &NO_TARGETS);
    assert!(r.saturated && r.completed < 30, "{r:?}");
    let r = run(&d, &d, &INSTANT, &cfg(30, 64.0, 8.0, Arrivals::Closed { concurrency: u32::MAX }));
    assert_eq!(r.completed, 30);
    let inf = Arrivals::Poisson { rate_per_s: f64::INFINITY, burstiness: 1.0 };
    let r = simulate_disaggregated(&d, &d, &INSTANT, &cfg(30, 64.0, 8.0, inf), &NO_TARGETS);
    assert_eq!(r.completed, 30);
}

/// Timing of one call: `cargo test --release --lib sim -- --ignored --nocapture` (fastest of 7 runs).
#[test]
#[ignore]
#[cfg(not(target_arch = "wasm32"))]
fn bench_one_simulate_disaggregated_call() {
    use crate::sim::tests::fastest_of_7;
    let d = h100_llama8b();
    let link = Disaggregation { kv_transfer_gbps: 50.0 };
    let c = cfg(2000, 512.0, 128.0, Arrivals::Closed { concurrency: 64 });
    let (t, r) = fastest_of_7(|| simulate_disaggregated(&d, &d, &link, std::hint::black_box(&c), &NO_TARGETS));
    println!("one simulate_disaggregated() call (2000 req, 512/128, conc 64, 50 GB/s): {t:.3} ms");
    println!("{r:?}");
    let (t, r) = fastest_of_7(|| simulate(&d, std::hint::black_box(&c), &NO_TARGETS));
    println!("the same workload colocated, one simulate() call: {t:.3} ms");
    println!("{r:?}");
}

/// Users who think between requests, on disaggregated pools: the run ends (their first sends had waited in a queue
/// this loop never read: a review found it spinning), with about 32 × E2E ÷ (E2E + 1 s) requests at the server.
#[test]
fn users_who_think_run_on_disaggregated_pools() {
    let d = h100_llama8b();
    let c = SimConfig { think_time_s: 1.0, ..cfg(600, 512.0, 128.0, Arrivals::Closed { concurrency: 32 }) };
    let r = simulate_disaggregated(&d, &d, &INSTANT, &c, &NO_TARGETS);
    assert_ordered(&r);
    assert!(r.completed == 600 && !r.saturated, "{r:?}");
    let busy = simulate_disaggregated(&d, &d, &INSTANT, &SimConfig { think_time_s: 0.0, ..c }, &NO_TARGETS);
    let e2e = r.e2e_ms.mean / 1e3;
    assert!(r.system_output_tps < 0.8 * busy.system_output_tps, "{} against {}", r.system_output_tps, busy.system_output_tps);
    assert!(r.ttft_ms.p99 < 500.0 && e2e < busy.e2e_ms.mean / 1e3, "{r:?}");
}
