//! Native timings, printed (a benchmark, not a timed test: nothing here can fail on a busy machine).
//! The same scenario as `benches/sweep.rs` (criterion) and the e2e in-browser measurement: H100 + Llama-3.1-8B,
//! 512/128 tokens, 16 concurrency levels × 2,000 requests. Built in the test profile (crate opt-level 1).

use std::time::Instant;
use tps_planner::plan;
use tps_planner::scenario::Scenario;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

#[test]
fn print_native_timings() {
    let s = Scenario::from_json(
        r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"quantization":{"weights":"bf16"},
            "engine":{"preset":"vllm"},"workload":{"prompt_tokens":512,"output_tokens":128,"requests":2000,
            "load":{"concurrency":[1,2,3,4,6,8,12,16,24,32,48,64,96,128,192,256]}}}"#,
    )
    .unwrap();
    let analytic = median(
        (0..200)
            .map(|_| {
                let t = Instant::now();
                plan::evaluate_analytic(&s).unwrap();
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect(),
    );
    let mut requests = 0;
    let sim = median(
        (0..5)
            .map(|_| {
                let t = Instant::now();
                let r = plan::evaluate(&s).unwrap();
                requests = r.sweep.len() * 2000;
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect(),
    );
    println!("bench (native, test profile): analytic evaluation of 16 levels {analytic:.3} ms; simulated sweep of 16 levels × 2000 requests ({requests} requests) {sim:.1} ms");
}
