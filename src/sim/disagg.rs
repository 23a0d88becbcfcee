//! Disaggregated prefill/decode serving: the event loop of a prefill pool and a decode pool joined by a
//! KV-transfer link (see "Disaggregated prefill/decode" in the module docs of [`super`]).
//!
//! Both pools are [`Pool`]s, the same engine as the colocated server: the prefill pool in its prefill-only
//! mode (a sequence leaves the batch with its first token and keeps its blocks until its transfer is done),
//! the decode pool receiving sequences whose prompt is already in the cache. Each pool has its own clock, the
//! time of its next scheduling decision, and the loop always advances the pool whose clock is earlier
//! (conservative parallel discrete-event simulation). Everything one pool sends the other is time-stamped —
//! transfers complete at a known time, closed-loop users send their next request at a known time — and a pool
//! only takes in what is stamped at or before its own clock, so a decision never sees the future. A step's
//! consequences lie at its end, after its start, so the other pool, whose clock is later than that start, has
//! already seen everything that could affect it or will see it in time.

use super::books::Books;
use super::server::{empty, Pool, Seq, Step};
use super::{Disaggregation, SimConfig, SimResult, Targets};
use crate::model::roofline::Deployment;
use std::collections::VecDeque;

/// The KV-transfer link: one FIFO channel of fixed bandwidth. A transfer starts when its prefill is done and
/// the channel is free, and takes bytes ÷ bandwidth.
struct Link {
    /// Bytes per second (positive; may be infinite).
    bytes_per_s: f64,
    /// When the channel is next free.
    free_at: f64,
    /// Sequences in transfer, in order of completion (FIFO): (done at, sequence).
    in_flight: VecDeque<(f64, Seq)>,
    /// Blocks the prefill pool still holds for them: (released at, bytes), the same times as `in_flight`
    /// (consumed at the prefill pool's clock, `in_flight` at the decode pool's).
    held: VecDeque<(f64, f64)>,
}

impl Link {
    /// Queues the transfer of `bytes` of `s`'s KV cache, whose prefill ended at `t`.
    fn send(&mut self, mut s: Seq, t: f64, bytes: f64) {
        let start = t.max(self.free_at);
        let seconds = bytes / self.bytes_per_s;
        let done = if seconds.is_finite() && seconds >= 0.0 { start + seconds } else { f64::INFINITY };
        self.free_at = done;
        self.held.push_back((done, s.alloc_bytes));
        // On the decode pool it holds nothing yet: it is admitted with blocks for its whole context.
        s.alloc_bytes = 0.0;
        s.alloc_tokens = 0;
        s.sched = 0;
        self.in_flight.push_back((done, s));
    }

    /// When the next transfer completes (infinite if none is in flight).
    fn next_delivery(&self) -> f64 {
        self.in_flight.front().map_or(f64::INFINITY, |x| x.0)
    }
}

/// The simulation state: two pools, the link, the books and the two clocks.
struct Disagg<'a> {
    decode_d: &'a Deployment,
    pre: Pool<'a>,
    dec: Pool<'a>,
    books: Books,
    link: Link,
    /// Closed loop: times at which users send their next request (sorted).
    wake: VecDeque<f64>,
    /// The prefill pool's clock: when it next schedules.
    t_pre: f64,
    /// The decode pool's clock.
    t_dec: f64,
    /// Steps of both pools.
    steps: u64,
    max_sim: f64,
    max_steps: u64,
}

/// Runs the disaggregated simulation; see [`super::simulate_disaggregated`].
pub(super) fn run(
    prefill: &Deployment,
    decode: &Deployment,
    disagg: &Disaggregation,
    cfg: &SimConfig,
    targets: &Targets,
) -> SimResult {
    run_with(prefill, decode, disagg, cfg, targets, true, true)
}

/// [`run`], with the decode pool's pure-decode fast path switched on or off (the results must be identical).
fn run_with(
    prefill: &Deployment,
    decode: &Deployment,
    disagg: &Disaggregation,
    cfg: &SimConfig,
    targets: &Targets,
    stretches: bool,
    linear: bool,
) -> SimResult {
    if !prefill.fits() || !decode.fits() {
        return empty(true);
    }
    let bytes_per_s = disagg.kv_transfer_gbps * 1e9;
    // A link of zero, negative or NaN bandwidth never delivers: nothing could be decoded.
    if bytes_per_s.is_nan() || bytes_per_s <= 0.0 {
        return empty(true);
    }
    let Some(mut books) = Books::new(cfg, targets) else { return empty(false) };
    books.frontend = (prefill.engine.request_overhead_ms / 1e3).max(0.0);
    books.frontend_cv = prefill.engine.request_overhead_cv.max(0.0);
    let hint = books.in_flight_hint();
    let pre = Pool::new(prefill, books.timeout, hint).prefill_only();
    let mut dec = Pool::new(decode, books.timeout, hint);
    // A request must fit alone on both pools: its prompt on the prefill pool, all of it on the decode pool.
    books.max_prompt = pre.max_fitting_tokens();
    books.max_total = dec.max_fitting_tokens();
    if !books.smallest_fits() {
        return empty(true);
    }
    dec.stretches = stretches;
    dec.linear_steps = linear;
    let mut sim = Disagg {
        decode_d: decode,
        pre,
        dec,
        books,
        link: Link { bytes_per_s, free_at: 0.0, in_flight: VecDeque::new(), held: VecDeque::new() },
        wake: VecDeque::new(),
        t_pre: 0.0,
        t_dec: 0.0,
        steps: 0,
        max_sim: if cfg.max_sim_seconds.is_nan() { f64::INFINITY } else { cfg.max_sim_seconds },
        max_steps: cfg.max_steps,
    };
    let truncated = sim.simulate();
    let Disagg { pre, dec, books, t_pre, t_dec, .. } = sim;
    let preemptions = pre.preemptions.saturating_add(dec.preemptions);
    books.result(truncated, t_pre.max(t_dec), &dec.stats, preemptions, pre.stats.busy)
}

impl Disagg<'_> {
    /// The event loop. Returns whether the run was truncated.
    fn simulate(&mut self) -> bool {
        self.books.first_wave(&mut self.pre.waiting);
        loop {
            if self.books.done() {
                return false;
            }
            if self.steps >= self.max_steps {
                return true;
            }
            let (tp, td) = (self.prefill_ready(), self.decode_ready());
            let t = tp.min(td);
            // Past the time limit, or nothing will ever happen again (cannot happen, but never spin).
            if t > self.max_sim || !t.is_finite() {
                return true;
            }
            let stop = if tp <= td {
                self.t_pre = tp;
                self.prefill_turn()
            } else {
                self.t_dec = td;
                self.decode_turn()
            };
            if stop {
                return true;
            }
        }
    }

    /// When the prefill pool next acts: now if it has work, else at the next arrival.
    fn prefill_ready(&self) -> f64 {
        if !self.pre.is_idle() {
            return self.t_pre;
        }
        let next = self.books.next_open_arrival().min(self.wake.front().copied().unwrap_or(f64::INFINITY));
        self.t_pre.max(next)
    }

    /// When the decode pool next acts: now if it has work, else when the next transfer completes.
    fn decode_ready(&self) -> f64 {
        if !self.dec.is_idle() {
            return self.t_dec;
        }
        self.t_dec.max(self.link.next_delivery())
    }

    /// Closed loop: the users whose requests ended at `t` will send their next ones at `t`.
    fn wake_users(&mut self, t: f64) {
        let n = std::mem::take(&mut self.books.to_issue);
        if self.books.closed {
            // The next request reaches the prefill pool after the front end (its TTFT counts the mean front
            // end; the disaggregated path does not draw it per request).
            let at = t + self.books.frontend;
            for _ in 0..n {
                let i = self.wake.partition_point(|&x| x <= at);
                self.wake.insert(i, at);
            }
        }
    }

    /// Requests waiting downstream of the prefill queue (for saturation detection).
    fn downstream(&self) -> usize {
        self.link.in_flight.len() + self.dec.waiting.len()
    }

    /// One action of the prefill pool at its clock: take in what happened up to now (transfers done, users
    /// sending, arrivals, deadlines), then run one prefill step and start the transfers of the prompts it
    /// finished. Returns true when the run must stop (truncated).
    fn prefill_turn(&mut self) -> bool {
        let now = self.t_pre;
        while let Some(&(t, bytes)) = self.link.held.front() {
            if t > now {
                break;
            }
            self.link.held.pop_front();
            self.pre.release(bytes);
        }
        self.books.downstream = self.downstream();
        while let Some(&t) = self.wake.front() {
            if t > now {
                break;
            }
            self.wake.pop_front();
            self.books.user_next(t, &mut self.pre.waiting);
        }
        if !self.books.closed {
            self.books.arrivals_until(now, &mut self.pre.waiting);
        }
        self.pre.expire_waiting(now, &mut self.books);
        self.wake_users(now);
        if self.books.done() || self.pre.is_idle() {
            return false;
        }
        match self.pre.step(now, &mut self.steps, &mut self.books) {
            Step::Ran(t_end) => {
                for s in self.pre.handed.drain(..) {
                    let bytes = self.decode_d.kv_bytes(f64::from(s.computed));
                    self.link.send(s, t_end, bytes);
                }
                self.wake_users(t_end);
                self.t_pre = t_end;
                false
            }
            Step::Preempted => false, // the next pass admits from the queue
            Step::Stuck => {
                // The blocks are held by prompts in transfer: wait for the next one to complete.
                self.steps = self.steps.saturating_sub(1);
                match self.link.held.front() {
                    Some(&(t, _)) if t > now && t.is_finite() => {
                        self.t_pre = t;
                        false
                    }
                    _ => true,
                }
            }
            Step::Failed => true,
        }
    }

    /// One action of the decode pool at its clock: take in the transfers completed by now and drop what is
    /// past its deadline, then run a stretch of pure decode steps (up to the earliest time anything new can
    /// arrive: the next transfer in flight, or a prefill not yet started) or one normal step. Returns true when
    /// the run must stop (truncated).
    fn decode_turn(&mut self) -> bool {
        let now = self.t_dec;
        while let Some(&(t, s)) = self.link.in_flight.front() {
            if t > now {
                break;
            }
            self.link.in_flight.pop_front();
            if now - s.arrival > self.books.timeout {
                self.books.abort(&s, now);
                self.books.to_issue += 1;
            } else {
                self.dec.waiting.push_back(s);
            }
        }
        self.dec.expire_waiting(now, &mut self.books);
        self.wake_users(now);
        if self.books.done() || self.dec.is_idle() {
            return false;
        }
        let next = self.link.next_delivery().min(self.prefill_ready());
        let ran = self.dec.decode_stretch(
            &mut self.t_dec,
            &mut self.steps,
            self.max_sim,
            self.max_steps,
            next,
            &mut self.books,
        );
        if ran > 0 {
            self.wake_users(self.t_dec);
            return false;
        }
        match self.dec.step(now, &mut self.steps, &mut self.books) {
            Step::Ran(t_end) => {
                self.wake_users(t_end);
                self.t_dec = t_end;
                false
            }
            Step::Preempted => false,
            Step::Stuck | Step::Failed => true, // no progress possible (guard; should not happen)
        }
    }
}

#[cfg(test)]
mod tests {
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
        println!("instant link, 1 user: TTFT {:.4} ms (colocated {:.4}), TPOT {:.4} ms (colocated {:.4})",
            r.ttft_ms.p50, co.ttft_ms.p50, r.tpot_ms.p50, co.tpot_ms.p50);
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
        for (p, d, c) in cases {
            let slow = run_with(p, d, &link, &c, &targets, false, false);
            let exact = run_with(p, d, &link, &c, &targets, true, false);
            assert_eq!(exact, slow, "{c:?}");
            let fast = run_with(p, d, &link, &c, &targets, true, true);
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
}
