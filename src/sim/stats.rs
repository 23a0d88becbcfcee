//! Summary statistics: mean and percentiles with numpy's default ("linear") interpolation.
//!
//! For `n` sorted samples `x₀ ≤ … ≤ xₙ₋₁` and a percentile `p` the rank is `h = (n − 1)·p/100` and the value
//! `x⌊h⌋ + (h − ⌊h⌋)·(x⌊h⌋₊₁ − x⌊h⌋)`, as `numpy.percentile(x, p)` (and `vllm bench serve`, which calls it).
//! Per-request metrics (TTFT, TPOT, E2E) are kept as plain samples and summarised exactly.
//!
//! Inter-token latencies are one sample per token (hundreds of thousands per run, one distinct value per step),
//! too many to sort within the page's time budget. They go into a [`LogHistogram`]: buckets of relative width
//! 2⁻¹⁰ (0.1 %) keyed by the bits of the f64, each remembering its count and sum; a percentile takes the mean
//! of the bucket holding each rank and interpolates as numpy does. The mean is exact; percentiles are within
//! 0.1 % of numpy's (exact when a bucket holds a single value, the usual case for tail gaps).
//!
//! The time-weighted statistics of a pool (mean batch, KV utilisation, bound fractions) are sums of step
//! time kept in [`BusyStats`] and divided by the busy time at the end.

pub use crate::percentiles::Percentiles;

/// Time-weighted statistics of one pool over the steps that start in the measurement window.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct BusyStats {
    /// Seconds of steps.
    pub(super) busy: f64,
    /// Σ step time × sequences in the step.
    pub(super) batch_time: f64,
    /// Σ step time × share of the KV pool allocated.
    pub(super) kv_time: f64,
    /// Seconds of memory-bound steps.
    pub(super) mem_time: f64,
    /// Seconds of compute-bound steps.
    pub(super) comp_time: f64,
}

/// Sub-buckets per power of two in a [`LogHistogram`] (as bits).
const SUB_BITS: u32 = 10;
const SUB: usize = 1 << SUB_BITS;

/// The buckets of one binade `[2^e, 2^(e+1))`.
#[derive(Debug, Clone)]
struct Binade {
    /// Biased IEEE-754 exponent of the binade.
    exp: u16,
    count: Box<[u64]>,
    sum: Box<[f64]>,
}

/// A histogram of positive values with logarithmic buckets of relative width 2⁻¹⁰, allocated lazily per
/// binade (a run touches a handful), for weighted samples `(value, count)`. See the module docs.
#[derive(Debug, Clone, Default)]
pub struct LogHistogram {
    /// Binades in increasing exponent order.
    binades: Vec<Binade>,
    /// Index of the binade used last (consecutive samples are close).
    last: usize,
    /// Write cache: bucket key (f64 bits without the low mantissa bits) and the count and sum added to it
    /// since the last flush. Consecutive steps mostly land in the same bucket.
    cache_key: u64,
    cache_count: u64,
    cache_sum: f64,
    /// Samples that were zero or negative (counted as 0).
    zeros: u64,
    count: u64,
    sum: f64,
}

impl LogHistogram {
    /// Adds `n` samples of value `x`; non-finite values are ignored, values ≤ 0 count as 0.
    #[inline(always)]
    pub fn add(&mut self, x: f64, n: u32) {
        if n == 0 || !x.is_finite() {
            return;
        }
        let n64 = u64::from(n);
        self.count += n64;
        if x <= 0.0 {
            self.zeros += n64;
            return;
        }
        let w = x * f64::from(n);
        self.sum += w;
        let key = x.to_bits() >> (52 - SUB_BITS);
        if self.cache_count > 0 && key == self.cache_key {
            self.cache_count += n64;
            self.cache_sum += w;
            return;
        }
        self.flush();
        self.cache_key = key;
        self.cache_count = n64;
        self.cache_sum = w;
    }

    /// Adds the samples `a + b·i` for `i` in `[i0, i1)`, each `weight` times, bucket by bucket (O(buckets
    /// touched), not O(samples)). Meant for the gaps of a run of decode steps, which grow linearly.
    pub fn add_affine(&mut self, a: f64, b: f64, i0: u64, i1: u64, weight: u32) {
        if weight == 0 || !a.is_finite() || !b.is_finite() {
            return;
        }
        let w = f64::from(weight);
        let shift = 52 - SUB_BITS;
        let mut i = i0;
        while i < i1 {
            let v = a + b * i as f64;
            if v <= 0.0 || !v.is_finite() {
                self.add(v, weight);
                i += 1;
                continue;
            }
            let key = v.to_bits() >> shift;
            // First index past this bucket: where the line leaves [lower edge, upper edge).
            let next = if b > 0.0 {
                let hi = f64::from_bits((key + 1) << shift);
                let x = ((hi - a) / b).ceil();
                if x.is_nan() || x >= i1 as f64 {
                    i1
                } else {
                    (x.max(0.0) as u64).clamp(i + 1, i1)
                }
            } else if b < 0.0 {
                let lo = f64::from_bits(key << shift);
                let x = ((lo - a) / b).floor() + 1.0;
                if x.is_nan() || x >= i1 as f64 {
                    i1
                } else {
                    (x.max(0.0) as u64).clamp(i + 1, i1)
                }
            } else {
                i1
            };
            let cnt = next - i;
            let sum = cnt as f64 * a + b * (cnt as f64 * ((i + next - 1) as f64) * 0.5);
            let count = cnt.saturating_mul(u64::from(weight));
            self.count += count;
            self.sum += sum * w;
            self.flush();
            self.cache_key = key;
            self.cache_count = count;
            self.cache_sum = sum * w;
            i = next;
        }
    }

    /// Moves the write cache into its bucket.
    fn flush(&mut self) {
        if self.cache_count == 0 {
            return;
        }
        let (key, count, sum) = (self.cache_key, self.cache_count, self.cache_sum);
        self.cache_count = 0;
        self.cache_sum = 0.0;
        let exp = (key >> SUB_BITS) as u16;
        let sub = (key as usize) & (SUB - 1);
        let i = match self.binades.get(self.last) {
            Some(b) if b.exp == exp => self.last,
            _ => match self.binades.binary_search_by_key(&exp, |b| b.exp) {
                Ok(i) => i,
                Err(i) => {
                    self.binades.insert(i, Binade { exp, count: vec![0; SUB].into_boxed_slice(), sum: vec![0.0; SUB].into_boxed_slice() });
                    i
                }
            },
        };
        self.last = i;
        if let Some(b) = self.binades.get_mut(i) {
            b.count[sub] += count;
            b.sum[sub] += sum;
        }
    }

    /// Number of samples.
    #[cfg(test)]
    #[must_use]
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Representative value (bucket mean) of the sample of rank `k` (0-based) in sorted order.
    fn value_at(&self, k: u64) -> f64 {
        if k < self.zeros {
            return 0.0;
        }
        let mut seen = self.zeros;
        let mut last = 0.0;
        for b in &self.binades {
            for (c, s) in b.count.iter().zip(b.sum.iter()) {
                if *c == 0 {
                    continue;
                }
                last = s / *c as f64;
                seen += c;
                if k < seen {
                    return last;
                }
            }
        }
        last
    }

    /// Mean and percentiles (numpy linear interpolation over bucket means); all zero when empty.
    #[must_use]
    pub fn percentiles(&mut self) -> Percentiles {
        self.flush();
        let n = self.count;
        if n == 0 {
            return Percentiles::default();
        }
        let at = |p: f64| {
            let h = (n - 1) as f64 * p / 100.0;
            let lo = (h.floor() as u64).min(n - 1);
            let hi = (lo + 1).min(n - 1);
            let (a, b) = (self.value_at(lo), self.value_at(hi));
            a + (h - lo as f64) * (b - a)
        };
        Percentiles { mean: self.sum / n as f64, p50: at(50.0), p90: at(90.0), p95: at(95.0), p99: at(99.0) }
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
    fn log_histogram_within_a_tenth_of_a_percent() {
        let mut h = LogHistogram::default();
        let mut runs = Vec::new();
        let mut x = 0.004_f64;
        for i in 0..20_000u32 {
            x *= 1.000_05;
            let c = 1 + i % 7;
            h.add(x, c);
            runs.push((x, c));
        }
        h.add(0.5, 3);
        runs.push((0.5, 3));
        let a = h.percentiles();
        let n: u32 = runs.iter().map(|&(_, c)| c).sum();
        let mean = runs.iter().map(|&(x, c)| x * f64::from(c)).sum::<f64>() / f64::from(n);
        let mut flat: Vec<f64> = runs.iter().flat_map(|&(x, c)| std::iter::repeat_n(x, c as usize)).collect();
        let b = Percentiles::of(&mut flat);
        assert!((a.mean - mean).abs() < 1e-12 * mean);
        for (u, v) in [(a.p50, b.p50), (a.p90, b.p90), (a.p95, b.p95), (a.p99, b.p99)] {
            assert!((u - v).abs() < 1e-3 * v, "{a:?} {b:?}");
        }
        // A single repeated value comes back to the last bit or so.
        let mut h = LogHistogram::default();
        h.add(0.0123, 10);
        assert!((h.percentiles().p99 - 0.0123).abs() < 1e-17);
        assert_eq!(LogHistogram::default().percentiles(), Percentiles::default());
        h.add(f64::NAN, 4);
        h.add(-1.0, 1);
        assert_eq!(h.count(), 11);
        assert!((h.percentiles().p50 - 0.0123).abs() < 1e-17);
    }

    #[test]
    fn empty_and_single() {
        assert_eq!(Percentiles::of(&mut Vec::new()), Percentiles::default());
        let p = Percentiles::of(&mut vec![2.0]);
        assert_eq!((p.mean, p.p50, p.p99), (2.0, 2.0, 2.0));
        let p = Percentiles::of(&mut vec![f64::NAN, 1.0]);
        assert_eq!(p.p99, 1.0);
    }
}
