//! Summary statistics: mean and percentiles with numpy's default ("linear") interpolation.
//!
//! For `n` sorted samples `x₀ ≤ … ≤ xₙ₋₁` and a percentile `p` the rank is `h = (n − 1)·p/100` and the value
//! `x⌊h⌋ + (h − ⌊h⌋)·(x⌊h⌋₊₁ − x⌊h⌋)`, as `numpy.percentile(x, p)` (and `vllm bench serve`, which calls it).
//! Inter-token latencies are kept run-length encoded — `(gap, count)` pairs, because every sequence in a
//! decode step sees the same gap — and the weighted form below gives exactly the numpy value of the expanded
//! sample without expanding it.

use serde::{Deserialize, Serialize};

/// Mean and percentiles of one latency metric, milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Percentiles {
    /// Arithmetic mean.
    pub mean: f64,
    /// Median (numpy linear interpolation, as all percentiles here).
    pub p50: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 95th percentile.
    pub p95: f64,
    /// 99th percentile.
    pub p99: f64,
}

impl Percentiles {
    /// Summary of plain samples (sorted in place). Empty input → all zero. Non-finite samples are ignored.
    #[must_use]
    pub fn of(samples: &mut Vec<f64>) -> Self {
        samples.retain(|x| x.is_finite());
        if samples.is_empty() {
            return Self::default();
        }
        samples.sort_unstable_by(f64::total_cmp);
        let n = samples.len();
        let mean = samples.iter().sum::<f64>() / n as f64;
        let at = |p: f64| {
            let h = (n - 1) as f64 * p / 100.0;
            let lo = (h.floor() as usize).min(n - 1);
            let hi = (lo + 1).min(n - 1);
            samples[lo] + (h - lo as f64) * (samples[hi] - samples[lo])
        };
        Self { mean, p50: at(50.0), p90: at(90.0), p95: at(95.0), p99: at(99.0) }
    }

    /// Summary of run-length encoded samples `(value, count)` (sorted in place): the same numbers as
    /// [`Percentiles::of`] on the expanded sample. Zero counts and non-finite values are ignored.
    #[must_use]
    pub fn of_weighted(runs: &mut Vec<(f64, u32)>) -> Self {
        runs.retain(|&(x, c)| x.is_finite() && c > 0);
        if runs.is_empty() {
            return Self::default();
        }
        runs.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        let n: u64 = runs.iter().map(|&(_, c)| u64::from(c)).sum();
        let mean = runs.iter().map(|&(x, c)| x * f64::from(c)).sum::<f64>() / n as f64;
        // Value of the k-th smallest element (0-based) of the expanded sample.
        let value_at = |k: u64| {
            let mut seen = 0u64;
            for &(x, c) in runs.iter() {
                seen += u64::from(c);
                if k < seen {
                    return x;
                }
            }
            runs[runs.len() - 1].0
        };
        let at = |p: f64| {
            let h = (n - 1) as f64 * p / 100.0;
            let lo = (h.floor() as u64).min(n - 1);
            let hi = (lo + 1).min(n - 1);
            let (a, b) = (value_at(lo), value_at(hi));
            a + (h - lo as f64) * (b - a)
        };
        Self { mean, p50: at(50.0), p90: at(90.0), p95: at(95.0), p99: at(99.0) }
    }

    /// Every field multiplied by `k` (seconds → milliseconds).
    #[must_use]
    pub fn scaled(self, k: f64) -> Self {
        Self { mean: self.mean * k, p50: self.p50 * k, p90: self.p90 * k, p95: self.p95 * k, p99: self.p99 * k }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numpy_linear_reference() {
        // numpy.percentile([1, 2, 3, 4, 10], [50, 90, 95, 99]) = [3, 7.6, 8.8, 9.76]
        let mut x = vec![10.0, 2.0, 4.0, 1.0, 3.0];
        let p = Percentiles::of(&mut x);
        assert_eq!(p.mean, 4.0);
        assert_eq!(p.p50, 3.0);
        assert!((p.p90 - 7.6).abs() < 1e-12);
        assert!((p.p95 - 8.8).abs() < 1e-12);
        assert!((p.p99 - 9.76).abs() < 1e-12);
    }

    #[test]
    fn weighted_equals_expanded() {
        let mut runs = vec![(5.0, 3), (1.0, 2), (2.5, 1), (9.0, 4), (7.0, 0)];
        let mut flat: Vec<f64> = runs.iter().flat_map(|&(x, c)| std::iter::repeat_n(x, c as usize)).collect();
        let a = Percentiles::of_weighted(&mut runs);
        let b = Percentiles::of(&mut flat);
        for (u, v) in [(a.mean, b.mean), (a.p50, b.p50), (a.p90, b.p90), (a.p95, b.p95), (a.p99, b.p99)] {
            assert!((u - v).abs() < 1e-12, "{a:?} {b:?}");
        }
    }

    #[test]
    fn empty_and_single() {
        assert_eq!(Percentiles::of(&mut Vec::new()), Percentiles::default());
        assert_eq!(Percentiles::of_weighted(&mut Vec::new()), Percentiles::default());
        let p = Percentiles::of(&mut vec![2.0]);
        assert_eq!((p.mean, p.p50, p.p99), (2.0, 2.0, 2.0));
        let p = Percentiles::of(&mut vec![f64::NAN, 1.0]);
        assert_eq!(p.p99, 1.0);
    }
}
