//! Benchmarks (criterion): the analytic evaluation and a full simulated sweep (16 levels × 2,000 requests) of
//! the scenario the e2e suite also times in the browser (H100 + Llama-3.1-8B, 512/128 tokens). Run:
//! `cargo bench --bench sweep` (scripts/test runs it with `-- --quick`). Figures are printed and reported in
//! the README; they are not asserted (a benchmark, not a timed test that flakes on a busy machine).

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use tps_planner::plan;
use tps_planner::scenario::Scenario;

fn scenario() -> Scenario {
    Scenario::from_json(
        r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"quantization":{"weights":"bf16"},
            "engine":{"preset":"vllm"},"workload":{"prompt_tokens":512,"output_tokens":128,"requests":2000,
            "load":{"concurrency":[1,2,3,4,6,8,12,16,24,32,48,64,96,128,192,256]}}}"#,
    )
    .unwrap()
}

fn bench(c: &mut Criterion) {
    let s = scenario();
    c.bench_function("analytic evaluation (16 levels)", |b| b.iter(|| plan::evaluate_analytic(black_box(&s)).unwrap()));
    let mut g = c.benchmark_group("simulation");
    g.sample_size(10);
    g.bench_function("full sweep 16 levels x 2000 requests", |b| b.iter(|| plan::evaluate(black_box(&s)).unwrap()));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
