//! The colocated server: one [`Pool`] does everything — prefill, decode, and the waiting queue where requests
//! arrive — and its event loop (see the module docs of [`super`]).
//!
//! Each pass of the loop takes in the arrivals up to now, drops the waiting requests past their deadline, lets
//! the closed-loop users whose requests ended send their next ones, and then advances the clock: to the next
//! arrival when the pool is idle, over a run of pure decode steps when one applies
//! ([`Pool::decode_stretch`]), or by one scheduler step ([`Pool::step`]).

use super::books::Books;
use super::pool::{FastPath, Pool, Step};
use super::setup::{empty, Start};
use super::types::{SimConfig, SimResult, Targets};
use crate::model::roofline::Deployment;

/// Runs the simulation; see [`super::simulate`].
pub(super) fn run(d: &Deployment, cfg: &SimConfig, targets: &Targets) -> SimResult {
    run_with(d, cfg, targets, FastPath::ON)
}

/// [`run`], with the pure-decode fast path as `fast` says (the results must be identical).
fn run_with(d: &Deployment, cfg: &SimConfig, targets: &Targets, fast: FastPath) -> SimResult {
    let mut start = match Start::new(&[d], cfg, targets) {
        Ok(start) => start,
        Err(early) => return *early,
    };
    let mut pool = start.pool(d).with_fast_path(fast);
    pool.prefill_first = !d.engine.mixed_batches;
    // The smallest possible request must fit in the KV pool alone, or nothing can ever run.
    if !start.books.cap_lengths(u32::MAX, pool.max_fitting_tokens()) {
        return empty(true);
    }
    let (truncated, now) = simulate(&mut pool, &mut start.books, start.max_sim, start.max_steps);
    start.books.result(truncated, now, &pool.stats, pool.preemptions, 0.0)
}

/// The event loop of the colocated server. Returns (truncated, time at the end).
fn simulate(pool: &mut Pool, books: &mut Books, max_sim: f64, max_steps: u64) -> (bool, f64) {
    let mut now = 0.0_f64;
    let mut steps = 0u64;
    books.first_wave(&mut pool.waiting);
    loop {
        books.arrivals_until(now, &mut pool.waiting);
        if books.done() {
            return (false, now);
        }
        if steps >= max_steps || now > max_sim {
            return (true, now);
        }
        pool.expire_waiting(now, books);
        books.flush_issues(now, &mut pool.waiting);
        if pool.is_idle() {
            let next = books.next_open_arrival();
            if next.is_finite() {
                now = now.max(next);
                continue;
            }
            // Nothing left to run yet requests unresolved: cannot happen, but never spin.
            return (true, now);
        }
        let next_arrival = books.next_open_arrival();
        if pool.decode_stretch(&mut now, &mut steps, max_sim, max_steps, next_arrival, books) > 0 {
            books.flush_issues(now, &mut pool.waiting);
            continue;
        }
        match pool.step(now, &mut steps, books) {
            Step::Ran(t_end) => {
                books.flush_issues(t_end, &mut pool.waiting);
                now = t_end;
            }
            Step::Preempted => {}                             // the next pass admits from the queue
            Step::Stuck | Step::Failed => return (true, now), // no progress possible (guard; should not happen)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::llm::Attention;
    use crate::model::roofline::tests::h100_llama8b;
    use crate::sim::Percentiles;

    #[track_caller]
    fn assert_close(a: &SimResult, b: &SimResult) {
        assert_eq!(
            (a.completed, a.rejected, a.timed_out, a.preemptions, a.saturated),
            (b.completed, b.rejected, b.timed_out, b.preemptions, b.saturated),
            "{a:?}\n{b:?}"
        );
        let close = |x: f64, y: f64, tol: f64| (x - y).abs() <= tol * x.abs().max(y.abs()) + 1e-12;
        let pct = |p: Percentiles| [p.mean, p.p50, p.p90, p.p95, p.p99];
        let fa = [a.duration_s, a.system_output_tps, a.request_throughput, a.mean_batch, a.mean_kv_utilization, a.goodput_rps];
        let fb = [b.duration_s, b.system_output_tps, b.request_throughput, b.mean_batch, b.mean_kv_utilization, b.goodput_rps];
        for (x, y) in fa.into_iter().zip(fb) {
            assert!(close(x, y, 1e-9), "{a:?}\n{b:?}");
        }
        for (p, q) in [(a.ttft_ms, b.ttft_ms), (a.tpot_ms, b.tpot_ms), (a.e2e_ms, b.e2e_ms)] {
            for (x, y) in pct(p).into_iter().zip(pct(q)) {
                assert!(close(x, y, 1e-9), "{a:?}\n{b:?}");
            }
        }
        // ITL goes through 0.1 % buckets: an ulp can move a sample across a bucket edge.
        for (x, y) in pct(a.itl_ms).into_iter().zip(pct(b.itl_ms)) {
            assert!(close(x, y, 2e-3), "{a:?}\n{b:?}");
        }
        // A step at the memory/compute ridge may be classified either way.
        assert!((a.memory_bound_fraction - b.memory_bound_fraction).abs() < 1e-3);
        assert!((a.compute_bound_fraction - b.compute_bound_fraction).abs() < 1e-3);
    }

    #[test]
    fn fast_path_is_bit_identical_to_plain_stepping() {
        use crate::sim::{Arrivals, LengthDist, SimConfig};
        let base = h100_llama8b();
        let mut tight = base.clone();
        tight.hardware.memory_gb = (tight.weight_bytes() + 2e9 + 6.0 * tight.kv_bytes(1600.0)) / 0.9 / 1e9;
        let mut sliding = base.clone();
        sliding.model.attention = Attention::Sliding { window: 300, local_fraction: 0.5 };
        let mut small_budget = base.clone();
        small_budget.engine.max_batched_tokens = 40;
        small_budget.engine.max_batch = 24;
        // SGLang's prompt steps, the decodes waiting: with room to spare and with a pool that holds a few requests.
        let mut separate = base.clone();
        separate.engine.mixed_batches = false;
        let mut separate_tight = tight.clone();
        separate_tight.engine.mixed_batches = false;
        let targets = Targets { ttft_ms: 500.0, tpot_ms: 10.0 };
        let fixed = SimConfig { requests: 300, ..SimConfig::default() };
        let varied = SimConfig {
            requests: 300,
            prompt: LengthDist::LogNormal { mean: 600.0, cv: 1.0 },
            output: LengthDist::Uniform { min: 1.0, max: 300.0 },
            ..SimConfig::default()
        };
        let cases = [
            (&base, SimConfig { arrivals: Arrivals::Closed { concurrency: 1 }, ..fixed }),
            (&base, SimConfig { arrivals: Arrivals::Closed { concurrency: 64 }, ..fixed }),
            (&base, SimConfig { arrivals: Arrivals::Closed { concurrency: 48 }, ..varied }),
            (&base, SimConfig { arrivals: Arrivals::Poisson { rate_per_s: 30.0, burstiness: 0.5 }, ..varied }),
            (&base, SimConfig { arrivals: Arrivals::Poisson { rate_per_s: 200.0, burstiness: 1.0 }, timeout_s: Some(3.0), ..varied }),
            (&base, SimConfig { arrivals: Arrivals::Poisson { rate_per_s: 200.0, burstiness: 1.0 }, queue_limit: Some(20), ..fixed }),
            (&tight, SimConfig { arrivals: Arrivals::Closed { concurrency: 12 }, ..varied }),
            (&tight, SimConfig { arrivals: Arrivals::Closed { concurrency: 12 }, ..fixed }),
            (&sliding, SimConfig { arrivals: Arrivals::Closed { concurrency: 8 }, ..varied }),
            (&small_budget, SimConfig { arrivals: Arrivals::Closed { concurrency: 32 }, ..varied }),
            (&base, SimConfig { arrivals: Arrivals::Closed { concurrency: 4 }, max_steps: 5000, ..fixed }),
            (&separate, SimConfig { arrivals: Arrivals::Closed { concurrency: 48 }, ..varied }),
            (&separate, SimConfig { arrivals: Arrivals::Poisson { rate_per_s: 30.0, burstiness: 0.5 }, ..varied }),
            (&separate_tight, SimConfig { arrivals: Arrivals::Closed { concurrency: 12 }, ..varied }),
            (&separate_tight, SimConfig { arrivals: Arrivals::Closed { concurrency: 12 }, ..fixed }),
            (&base, SimConfig { arrivals: Arrivals::Closed { concurrency: 4 }, max_sim_seconds: 7.0, ..fixed }),
        ];
        let (plain, exact_only) = (FastPath { stretches: false, linear: false }, FastPath { stretches: true, linear: false });
        for (d, c) in cases {
            let slow = run_with(d, &c, &targets, plain);
            let exact = run_with(d, &c, &targets, exact_only);
            assert_eq!(exact, slow, "{c:?}");
            let fast = run_with(d, &c, &targets, FastPath::ON);
            assert_close(&fast, &slow);
        }
    }
}
