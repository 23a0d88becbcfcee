//! Closed-form step times for a run of pure decode steps.
//!
//! While every running sequence decodes and nothing arrives, finishes or is admitted, the only thing that
//! changes from step to step is that every context grows by one token. The KV bytes and attention FLOPs of
//! step `j` are then affine in `j`, and so are the roofline's memory and compute times:
//!
//! ```text
//! memory(j)  = m₀ + j·Δm          compute(j) = c₀ + j·Δc
//! step(j)    = max(memory(j), compute(j)) + comm + overhead
//! ```
//!
//! (The roofline's `memory_s` and `compute_s` both include the linear layers' kernel time `g = max(weights,
//! matmul)`, constant in the run, plus attention's KV time or attention's compute time respectively — each at
//! least the serving engine's kernel-chain floor, a constant: while it binds the line is flat and the step
//! overhead-bound. The bound
//! of a step — [`crate::model::roofline::classify`] — compares compute-limited with memory-limited kernel time;
//! within one piece of the max it is a threshold on the same line, so it splits a piece at most once more.)
//!
//! `max` of two lines is one line on each side of their crossing, so sums of step times over any index range
//! — the elapsed time, the time spent memory- or compute-bound — are sums of arithmetic series, and the first
//! step that reaches a deadline is found by bisection on those sums. A run of `k` steps then costs O(log k)
//! instead of O(k) (plus the KV block allocations, one per sequence per 16 steps).
//!
//! The line is fitted on [`Deployment::step`] itself, at both ends of the run, and checked at interior points;
//! if the roofline ever stops being affine in the load (a future change to it), the fit fails and the
//! simulation steps one by one instead. Interpolated times agree with evaluated ones to ~1e-15 relative.

use super::stats::LogHistogram;
use crate::model::roofline::{Bound, Deployment, StepLoad};

/// Step times of a run of pure decode steps as functions of the step index `j` (see the module docs).
#[derive(Debug, Clone, Copy)]
pub(super) struct LinearSteps {
    m0: f64,
    dm: f64,
    c0: f64,
    dc: f64,
    /// The linear layers' weight-streaming and matmul times (constant in the run).
    weights: f64,
    matmul: f64,
    comm: f64,
    overhead: f64,
    /// The kernel chain's floor of a decode step (`Deployment::chain_floor_s`): a step at it is overhead-bound.
    floor: f64,
    /// Steps before `split` take the first line of the max, steps from `split` on the other.
    split: u64,
    /// Whether the first line is the compute one.
    compute_first: bool,
}

/// Σ (a + b·i) for i in [i0, i1).
fn series(a: f64, b: f64, i0: u64, i1: u64) -> f64 {
    if i1 <= i0 {
        return 0.0;
    }
    let cnt = (i1 - i0) as f64;
    cnt * a + b * (cnt * ((i0 + i1 - 1) as f64) * 0.5)
}

/// `x` as an index: NaN and negative values give 0, huge ones 2⁵³.
fn index(x: f64) -> u64 {
    if x.is_nan() || x <= 0.0 {
        0
    } else if x >= 9.0e15 {
        9_000_000_000_000_000
    } else {
        x as u64
    }
}

/// For the line `a + b·i` with `b ≠ 0`: where `a + b·i > c` starts (b > 0: the smallest `i` with
/// `i > (c − a)/b`) or stops (b < 0: the smallest `i` with `i ≥ (c − a)/b`) holding.
fn crossing(a: f64, b: f64, c: f64) -> u64 {
    let x = (c - a) / b;
    if b > 0.0 {
        index(x.floor() + 1.0)
    } else {
        index(x.ceil())
    }
}

/// For the line `a + b·i` with `b ≠ 0`: where `a + b·i ≥ c` starts (b > 0: the smallest `i ≥ (c − a)/b`) or
/// stops (b < 0: the smallest `i > (c − a)/b`) holding.
fn crossing_eq(a: f64, b: f64, c: f64) -> u64 {
    let x = (c - a) / b;
    if b > 0.0 {
        index(x.ceil())
    } else {
        index(x.floor() + 1.0)
    }
}

/// The sub-range of `[lo, hi)` where `a + b·j > t` (`strict`) or `≥ t`: a suffix when b > 0, a prefix when
/// b < 0, all or nothing when b = 0.
fn above(a: f64, b: f64, t: f64, lo: u64, hi: u64, strict: bool) -> (u64, u64) {
    if hi <= lo {
        return (hi, hi);
    }
    if b > 0.0 {
        let s = if strict { crossing(a, b, t) } else { crossing_eq(a, b, t) };
        (s.clamp(lo, hi), hi)
    } else if b < 0.0 {
        let e = if strict { crossing(a, b, t) } else { crossing_eq(a, b, t) };
        (lo, e.clamp(lo, hi))
    } else if (strict && a > t) || (!strict && a >= t) {
        (lo, hi)
    } else {
        (hi, hi)
    }
}

impl LinearSteps {
    /// Fits the line over steps `0..k` (k ≥ 2) of `load_at`; `None` when the roofline is not affine there.
    pub(super) fn fit(d: &Deployment, load_at: &dyn Fn(u64) -> StepLoad, k: u64) -> Option<Self> {
        let last = k.checked_sub(1).filter(|&l| l >= 1)?;
        let a = d.step(&load_at(0));
        let b = d.step(&load_at(last));
        let span = last as f64;
        let (m0, dm, c0, dc) = (a.memory_s, (b.memory_s - a.memory_s) / span, a.compute_s, (b.compute_s - a.compute_s) / span);
        if b.comm_s != a.comm_s || b.overhead_s != a.overhead_s || b.weights_s != a.weights_s || b.matmul_s != a.matmul_s {
            return None;
        }
        if ![m0, dm, c0, dc, a.comm_s, a.overhead_s].iter().all(|x| x.is_finite()) {
            return None;
        }
        // Where the two lines cross: g(i) = compute − memory.
        let (g0, dg) = (c0 - m0, dc - dm);
        let (split, compute_first) = if dg == 0.0 {
            (u64::MAX, g0 > 0.0)
        } else if dg > 0.0 {
            (crossing(g0, dg, 0.0), false) // memory first, compute once g > 0
        } else {
            (crossing(g0, dg, 0.0), true) // compute first while g > 0
        };
        let line = Self {
            m0,
            dm,
            c0,
            dc,
            weights: a.weights_s,
            matmul: a.matmul_s,
            comm: a.comm_s,
            overhead: a.overhead_s,
            floor: d.chain_floor_s(false),
            split,
            compute_first,
        };
        let close = |x: f64, y: f64| (x - y).abs() <= 1e-9 * x.abs().max(y.abs()) + 1e-15;
        // The ends are exact by construction (up to the bound at a tie); check them and two interior points.
        for (j, c) in [(0, Some(a)), (last, Some(b)), (last / 3, None), (last / 2, None)] {
            let c = c.unwrap_or_else(|| d.step(&load_at(j)));
            let (s, bound) = line.at(j);
            let jf = j as f64;
            let ok = close(line.m0 + jf * line.dm, c.memory_s)
                && close(line.c0 + jf * line.dc, c.compute_s)
                && close(s, c.seconds)
                && (bound == c.bound || line.near_tie(j, c.seconds));
            if !ok {
                return None;
            }
        }
        Some(line)
    }

    /// The linear layers' kernel time.
    fn gemm(&self) -> f64 {
        self.weights.max(self.matmul)
    }

    /// Compute-limited linear-layer time (the matmul time when it exceeds the weight streaming, else 0).
    fn gemm_compute(&self) -> f64 {
        if self.matmul > self.weights {
            self.matmul
        } else {
            0.0
        }
    }

    /// Seconds and bound of step `j`, by the roofline's own composition rule.
    pub(super) fn at(&self, j: u64) -> (f64, Bound) {
        let jf = j as f64;
        let memory = self.m0 + jf * self.dm;
        let compute = self.c0 + jf * self.dc;
        let top = if compute > memory { compute } else { memory };
        let seconds = top + self.comm + self.overhead;
        let g = self.gemm();
        let bound = if top <= self.floor {
            Bound::Overhead
        } else {
            crate::model::roofline::classify(self.weights, self.matmul, memory - g, compute - g, self.comm + self.overhead)
        };
        (seconds, bound)
    }

    /// Whether step `j` sits on a boundary of the bound classification (rounding may then pick either side).
    fn near_tie(&self, j: u64, seconds: f64) -> bool {
        let jf = j as f64;
        let (memory, compute) = (self.m0 + jf * self.dm, self.c0 + jf * self.dc);
        let top = memory.max(compute);
        let g = self.gemm();
        let cl = self.gemm_compute() + if compute > memory { compute - g } else { 0.0 };
        let eps = 1e-9 * seconds;
        (memory - compute).abs() <= eps
            || (2.0 * cl - top).abs() <= eps
            || (self.comm + self.overhead - top).abs() <= eps
            || (self.floor - top).abs() <= eps
    }

    /// The pieces of `[i0, i1)` on which `max(memory, compute)` is one line: `(from, to, a, b, is_compute)`.
    fn pieces(&self, i0: u64, i1: u64) -> [(u64, u64, f64, f64, bool); 2] {
        let (first, second) = if self.compute_first {
            ((self.c0, self.dc, true), (self.m0, self.dm, false))
        } else {
            ((self.m0, self.dm, false), (self.c0, self.dc, true))
        };
        let mid = self.split.clamp(i0, i1.max(i0));
        [(i0, mid, first.0, first.1, first.2), (mid, i1.max(mid), second.0, second.1, second.2)]
    }

    /// Constant part of every step: communication plus overhead.
    fn fixed(&self) -> f64 {
        self.comm + self.overhead
    }

    /// Seconds taken by steps `i0..i1`.
    pub(super) fn elapsed(&self, i0: u64, i1: u64) -> f64 {
        if i1 <= i0 {
            return 0.0;
        }
        let top: f64 = self.pieces(i0, i1).iter().map(|&(p0, p1, a, b, _)| series(a, b, p0, p1)).sum();
        top + (i1 - i0) as f64 * self.fixed()
    }

    /// Seconds of steps `i0..i1` that are memory-bound and compute-bound (the rest is overhead-bound).
    pub(super) fn bound_seconds(&self, i0: u64, i1: u64) -> (f64, f64) {
        let fx = self.fixed();
        let (mut mem, mut comp) = (0.0, 0.0);
        for (p0, p1, a, b, is_compute) in self.pieces(i0, i1) {
            // A piece at the kernel chain's floor (flat: the fit holds only where it binds throughout) is
            // overhead-bound, as `at` says.
            if p1 <= p0 || (b == 0.0 && a <= self.floor) {
                continue;
            }
            // Overhead-bound where a + b·i < fx: a prefix (b > 0), a suffix (b < 0), all or nothing (b = 0).
            let (lo, hi) = if b > 0.0 {
                (crossing_eq(a, b, fx).clamp(p0, p1), p1)
            } else if b < 0.0 {
                (p0, crossing_eq(a, b, fx).clamp(p0, p1))
            } else if a < fx {
                (p1, p1)
            } else {
                (p0, p1)
            };
            // [lo, hi) is the part where the step is not overhead-bound. It is compute-bound where the
            // compute-limited kernel time is more than half the kernel time top(j) = a + b·j:
            //   attention compute-limited (is_compute): gemm_compute + top − g > top / 2  ⇔  top > 2g − 2·gemm_compute;
            //   attention memory-limited:               gemm_compute > top / 2            ⇔  top < 2·gemm_compute.
            let time = |r0: u64, r1: u64| if r1 > r0 { series(a, b, r0, r1) + (r1 - r0) as f64 * fx } else { 0.0 };
            let (g, gc) = (self.gemm(), self.gemm_compute());
            let (c0, c1) = if is_compute {
                above(a, b, 2.0 * g - 2.0 * gc, lo, hi, true)
            } else {
                // The complement of top ≥ 2·gemm_compute, a prefix or suffix of [lo, hi).
                let (s0, s1) = above(a, b, 2.0 * gc, lo, hi, false);
                if s0 == lo && s1 < hi {
                    (s1, hi)
                } else if s1 == hi && s0 > lo {
                    (lo, s0)
                } else if s1 <= s0 {
                    (lo, hi)
                } else {
                    (hi, hi)
                }
            };
            let t_comp = time(c0, c1);
            comp += t_comp;
            mem += time(lo, hi) - t_comp;
        }
        (mem, comp)
    }

    /// Adds the step times of steps `i0..i1`, each `weight` times, to an inter-token-latency histogram.
    pub(super) fn add_gaps(&self, h: &mut LogHistogram, i0: u64, i1: u64, weight: u32) {
        let fx = self.fixed();
        for (p0, p1, a, b, _) in self.pieces(i0, i1) {
            h.add_affine(a + fx, b, p0, p1, weight);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::roofline::tests::h100_llama8b;

    fn close(x: f64, y: f64) -> bool {
        (x - y).abs() <= 1e-10 * x.abs().max(y.abs()) + 1e-15
    }

    /// Decode load of `n` sequences at context `c0 + j` each.
    fn family(d: &Deployment, n: u64, c0: u64) -> impl Fn(u64) -> StepLoad + '_ {
        move |j| d.decode_load(n as f64, (c0 + j) as f64)
    }

    #[test]
    fn line_reproduces_the_roofline_and_its_sums() {
        let mut d = h100_llama8b();
        // The last two: a serving engine's cost per running sequence (constant within a run of decode steps).
        for (overhead, per_seq, n, c0) in [
            (0.0, 0.0, 1u64, 600u64),
            (0.0, 0.0, 64, 500),
            (0.0, 0.0, 256, 3000),
            (3.0, 0.0, 4, 100),
            (0.0, 0.0, 600, 10),
            (1.0, 40.0, 256, 900),
            (1.0, 40.0, 8, 100),
        ] {
            d.engine.step_overhead_ms = overhead;
            d.engine.sequence_overhead_us = per_seq;
            let load_at = family(&d, n, c0);
            let k = 5000;
            let line = LinearSteps::fit(&d, &load_at, k);
            assert!(line.is_some(), "{n}");
            let Some(l) = line else { continue };
            let (mut total, mut mem, mut comp) = (0.0, 0.0, 0.0);
            for j in 0..k {
                let exact = d.step(&load_at(j));
                let (s, b) = l.at(j);
                assert!((s - exact.seconds).abs() < 1e-12 * exact.seconds, "{n} {j}");
                assert_eq!(b, exact.bound, "{n} {j}");
                total += exact.seconds;
                match exact.bound {
                    Bound::Memory => mem += exact.seconds,
                    Bound::Compute => comp += exact.seconds,
                    Bound::Overhead => {}
                }
            }
            assert!(close(l.elapsed(0, k), total), "{} {total}", l.elapsed(0, k));
            let (m, c) = l.bound_seconds(0, k);
            assert!(close(m, mem) && close(c, comp), "{n}: {m} {mem} / {c} {comp}");
            let part: f64 = (1234..4321).map(|j| d.step(&load_at(j)).seconds).sum();
            assert!(close(l.elapsed(1234, 4321), part));
        }
    }

    #[test]
    fn crossing_lines_are_split() {
        // A made-up line pair crossing at i = 10.5: memory 10 + i, compute 0 + 2i (compute wins from 11 on).
        let l = LinearSteps {
            m0: 10.0,
            dm: 1.0,
            c0: 0.0,
            dc: 2.0,
            weights: 0.0,
            matmul: 0.0,
            comm: 0.0,
            overhead: 0.0,
            floor: 0.0,
            split: 11,
            compute_first: false,
        };
        let brute: f64 = (0..20).map(|j| l.at(j).0).sum();
        assert!(close(l.elapsed(0, 20), brute));
        let (m, c) = l.bound_seconds(0, 20);
        let bm: f64 = (0..11).map(|j| l.at(j).0).sum();
        assert!(close(m, bm) && close(c, brute - bm));
        assert_eq!(crossing(-10.0, 1.0, 0.0), 11);
        assert_eq!(crossing(10.0, -1.0, 0.0), 10);
        assert_eq!(crossing(5.0, 1.0, 0.0), 0);
        assert_eq!(crossing_eq(-10.0, 1.0, 0.0), 10);
        assert_eq!(crossing_eq(10.0, -1.0, 0.0), 11);
        assert_eq!(crossing(f64::NAN, 1.0, 0.0), 0);
    }

    #[test]
    fn gaps_match_one_by_one() {
        let d = h100_llama8b();
        let load_at = family(&d, 8, 700);
        let Some(l) = LinearSteps::fit(&d, &load_at, 3000) else { panic!("fit") };
        let mut a = LogHistogram::default();
        let mut b = LogHistogram::default();
        l.add_gaps(&mut a, 10, 2500, 3);
        for j in 10..2500 {
            b.add(l.at(j).0, 3);
        }
        let (pa, pb) = (a.percentiles(), b.percentiles());
        for (x, y) in [(pa.mean, pb.mean), (pa.p50, pb.p50), (pa.p90, pb.p90), (pa.p99, pb.p99)] {
            assert!((x - y).abs() < 1e-3 * y, "{pa:?} {pb:?}");
        }
    }
}
