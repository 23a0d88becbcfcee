//! One percentile type for every latency in the crate: the simulator's summaries, the report's load points
//! (`Percentiles<f64>`) and imported measurements, where a tool may leave a statistic out
//! (`Percentiles<Option<f64>>`, [`Measured`]).
//!
//! A percentile is looked up by [`Pct`], an enum: there is no "any other number" that quietly answers the P99
//! or the mean. A target's percentile is checked once, when the scenario is resolved ([`Pct::from_value`]).

use serde::{Deserialize, Serialize};

/// A statistic of a latency: the mean or one of the percentiles the crate keeps.
/// Its discriminant is its number (`Pct::P99 as u32 == 99`), so a cast cannot give another value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Pct {
    Mean = 0,
    P50 = 50,
    P90 = 90,
    P95 = 95,
    P99 = 99,
}

impl Pct {
    /// The percentiles a latency target may be judged at.
    pub const TARGETS: [Pct; 4] = [Pct::P50, Pct::P90, Pct::P95, Pct::P99];

    /// The percentile with this number (50, 90, 95 or 99); anything else is `None`.
    #[must_use]
    pub fn from_value(p: f64) -> Option<Self> {
        Self::TARGETS.into_iter().find(|t| t.value() == p)
    }

    /// 50, 90, 95, 99 (the mean: 0, it is not a percentile).
    #[must_use]
    pub fn value(self) -> f64 {
        f64::from(self as u8)
    }

    /// "P99", "P50", "mean".
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Pct::Mean => "mean",
            Pct::P50 => "P50",
            Pct::P90 => "P90",
            Pct::P95 => "P95",
            Pct::P99 => "P99",
        }
    }
}

/// Written as its number (99), as the scenario's `target.percentile` is.
impl Serialize for Pct {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.value())
    }
}

impl std::fmt::Display for Pct {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

/// Mean and percentiles of one latency, milliseconds unless said otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Percentiles<T = f64> {
    /// Arithmetic mean.
    pub mean: T,
    /// Median.
    pub p50: T,
    /// 90th percentile.
    pub p90: T,
    /// 95th percentile.
    pub p95: T,
    /// 99th percentile.
    pub p99: T,
}

/// Statistics as a benchmark tool reported them: each may be missing.
pub type Measured = Percentiles<Option<f64>>;

impl<T: Copy> Percentiles<T> {
    /// The statistic `which`.
    #[must_use]
    pub fn at(&self, which: Pct) -> T {
        match which {
            Pct::Mean => self.mean,
            Pct::P50 => self.p50,
            Pct::P90 => self.p90,
            Pct::P95 => self.p95,
            Pct::P99 => self.p99,
        }
    }

    /// Each statistic through `f`.
    #[must_use]
    pub fn map<U>(self, f: impl Fn(T) -> U) -> Percentiles<U> {
        Percentiles { mean: f(self.mean), p50: f(self.p50), p90: f(self.p90), p95: f(self.p95), p99: f(self.p99) }
    }

    /// The statistics in the order mean, P50, P90, P95, P99.
    #[must_use]
    pub fn all(&self) -> [(Pct, T); 5] {
        [(Pct::Mean, self.mean), (Pct::P50, self.p50), (Pct::P90, self.p90), (Pct::P95, self.p95), (Pct::P99, self.p99)]
    }
}

impl Percentiles<f64> {
    /// All statistics equal (an analytic value).
    #[must_use]
    pub fn flat(v: f64) -> Self {
        Self { mean: v, p50: v, p90: v, p95: v, p99: v }
    }

    /// Summary of plain samples (sorted in place) with numpy's default ("linear") interpolation: for `n` sorted
    /// samples and a percentile `p` the rank is `h = (n − 1)·p/100` and the value `x⌊h⌋ + (h − ⌊h⌋)·(x⌊h⌋₊₁ − x⌊h⌋)`.
    /// Empty input → all zero. Non-finite samples are ignored.
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

    /// Every statistic multiplied by `k` (seconds → milliseconds).
    #[must_use]
    pub fn scaled(self, k: f64) -> Self {
        self.map(|v| v * k)
    }
}

impl Measured {
    /// Every reported statistic multiplied by `k`.
    #[must_use]
    pub fn scaled(self, k: f64) -> Self {
        self.map(|v| v.map(|x| x * k))
    }

    /// Nothing reported.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.all().iter().all(|(_, v)| v.is_none())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lookup_answers_only_the_statistic_asked_for() {
        let p = Percentiles { mean: 1.0, p50: 2.0, p90: 3.0, p95: 4.0, p99: 5.0 };
        let got: Vec<f64> = [Pct::Mean, Pct::P50, Pct::P90, Pct::P95, Pct::P99].iter().map(|w| p.at(*w)).collect();
        assert_eq!(got, [1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(Pct::from_value(95.0), Some(Pct::P95));
        assert_eq!((Pct::P99 as u32, Pct::P50.value(), Pct::P90.to_string()), (99, 50.0, "P90".to_string()));
        for odd in [0.0, 75.0, 99.9, 100.0, f64::NAN] {
            assert_eq!(Pct::from_value(odd), None, "{odd}");
        }
        let m: Measured = Percentiles { mean: Some(1.0), ..Default::default() };
        assert_eq!(m.at(Pct::P99), None, "a missing P99 is missing, not the mean");
        assert!(!m.is_empty() && Measured::default().is_empty());
        assert_eq!(m.scaled(1e3).mean, Some(1e3));
    }
}
