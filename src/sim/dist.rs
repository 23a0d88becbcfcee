//! Token-length distributions of prompts and outputs, and the arrival processes that drive the server.
//!
//! Lengths are drawn as real numbers, rounded to whole tokens and clamped to `[1, MAX_TOKENS]` (a NaN or
//! non-positive draw becomes 1 token), so no configuration can produce an empty or absurd request.
//! The log-normal is parameterised by its mean `m` and coefficient of variation `cv` (what serving traces
//! report): `σ² = ln(1 + cv²)`, `μ = ln m − σ²/2`, so that `E[X] = m` and `sd(X)/E[X] = cv`. Measured chat
//! and code traces (ShareGPT, Azure LLM inference traces, Splitwise, Patel et al. ISCA 2024) are close to
//! log-normal with cv ≈ 1.

use super::rng::Rng;
use serde::{Deserialize, Serialize};

/// Longest prompt or output the simulation accepts, tokens; longer draws are clamped.
pub const MAX_TOKENS: u32 = 10_000_000;

/// A distribution of token counts (prompt or output length).
///
/// JSON (internally tagged by `kind`, snake_case): `{"kind": "fixed", "value": 512}`,
/// `{"kind": "uniform", "min": 100, "max": 900}`, `{"kind": "log_normal", "mean": 500, "cv": 1}`. serde cannot
/// tag a newtype variant holding a number, so `Fixed` goes through a private mirror type with a named field.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(from = "LengthDistRepr", into = "LengthDistRepr")]
pub enum LengthDist {
    /// Always this many tokens.
    Fixed(f64),
    /// Uniform between `min` and `max` tokens (inclusive after rounding; swapped when `min > max`).
    Uniform {
        /// Smallest length, tokens.
        min: f64,
        /// Largest length, tokens.
        max: f64,
    },
    /// Log-normal with this mean (tokens) and coefficient of variation (sd ÷ mean; 0 = fixed).
    LogNormal {
        /// Mean length, tokens.
        mean: f64,
        /// Coefficient of variation, standard deviation ÷ mean.
        cv: f64,
    },
}

/// The serde form of [`LengthDist`].
#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum LengthDistRepr {
    Fixed { value: f64 },
    Uniform { min: f64, max: f64 },
    LogNormal { mean: f64, cv: f64 },
}

impl From<LengthDistRepr> for LengthDist {
    fn from(r: LengthDistRepr) -> Self {
        match r {
            LengthDistRepr::Fixed { value } => Self::Fixed(value),
            LengthDistRepr::Uniform { min, max } => Self::Uniform { min, max },
            LengthDistRepr::LogNormal { mean, cv } => Self::LogNormal { mean, cv },
        }
    }
}

impl From<LengthDist> for LengthDistRepr {
    fn from(d: LengthDist) -> Self {
        match d {
            LengthDist::Fixed(value) => Self::Fixed { value },
            LengthDist::Uniform { min, max } => Self::Uniform { min, max },
            LengthDist::LogNormal { mean, cv } => Self::LogNormal { mean, cv },
        }
    }
}

impl Default for LengthDist {
    fn default() -> Self {
        Self::Fixed(1.0)
    }
}

/// Rounds a length to whole tokens in `[1, MAX_TOKENS]`; NaN and values below 1 give 1.
#[must_use]
pub fn to_tokens(x: f64) -> u32 {
    if x.is_nan() || x < 1.0 {
        1
    } else if x >= f64::from(MAX_TOKENS) {
        MAX_TOKENS
    } else {
        // In [1, MAX_TOKENS): the cast is exact after rounding.
        (x.round() as u32).clamp(1, MAX_TOKENS)
    }
}

impl LengthDist {
    /// One draw, whole tokens in `[1, MAX_TOKENS]`.
    pub fn sample(&self, rng: &mut Rng) -> u32 {
        match *self {
            Self::Fixed(v) => to_tokens(v),
            Self::Uniform { min, max } => {
                let (lo, hi) = ordered(min, max);
                to_tokens(lo + (hi - lo) * rng.uniform())
            }
            Self::LogNormal { mean, cv } => {
                if !positive(cv) || !positive(mean) {
                    return to_tokens(mean);
                }
                let s2 = (1.0 + cv * cv).ln();
                let mu = mean.ln() - 0.5 * s2;
                to_tokens((mu + s2.sqrt() * rng.normal()).exp())
            }
        }
    }

    /// The length at the `p`-th percentile (before rounding to whole tokens): what the percentile latencies of
    /// prompts this long see, e.g. a lognormal of mean 6,000 and CV 0.5 has its P95 at 11,670.
    #[must_use]
    pub fn quantile(&self, p: crate::percentiles::Pct) -> f64 {
        use crate::percentiles::Pct;
        // The standard normal's quantile at 50, 90, 95 and 99 %.
        let z = match p {
            Pct::Mean | Pct::P50 => 0.0,
            Pct::P90 => 1.281_551_6,
            Pct::P95 => 1.644_853_6,
            Pct::P99 => 2.326_347_9,
        };
        match *self {
            Self::Fixed(v) => v,
            Self::Uniform { min, max } => {
                let (lo, hi) = ordered(min, max);
                lo + (hi - lo) * p.value().max(50.0) / 100.0
            }
            Self::LogNormal { mean, cv } if positive(cv) && positive(mean) => {
                let s2 = (1.0 + cv * cv).ln();
                (mean.ln() - 0.5 * s2 + s2.sqrt() * z).exp()
            }
            Self::LogNormal { mean, .. } => mean,
        }
    }

    /// The smallest value [`LengthDist::sample`] can return.
    #[must_use]
    pub fn min_tokens(&self) -> u32 {
        match *self {
            Self::Fixed(v) => to_tokens(v),
            Self::Uniform { min, max } => to_tokens(ordered(min, max).0),
            Self::LogNormal { mean, cv } => {
                if !positive(cv) || !positive(mean) {
                    to_tokens(mean)
                } else {
                    1
                }
            }
        }
    }
}

/// Whether `x` is a positive finite number.
fn positive(x: f64) -> bool {
    x > 0.0 && x.is_finite()
}

/// `(min, max)` in order; NaN ends become 1 token.
fn ordered(a: f64, b: f64) -> (f64, f64) {
    let a = if a.is_nan() { 1.0 } else { a };
    let b = if b.is_nan() { 1.0 } else { b };
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

/// How requests arrive.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Arrivals {
    /// Closed loop: `concurrency` users, each sending its next request the moment the previous one ends
    /// (`vllm bench serve --max-concurrency N --request-rate inf`). The first wave all arrive at t = 0.
    Closed {
        /// Users (requests in flight); 0 is treated as 1, more than `MAX_CONCURRENCY` (100,000) as that.
        concurrency: u32,
    },
    /// Open loop: a renewal process with gamma inter-arrival gaps of mean `1/rate_per_s` and shape
    /// `burstiness` (1 = Poisson, < 1 burstier, > 1 more regular), as `vllm bench serve --request-rate R
    /// --burstiness B`.
    Poisson {
        /// Mean requests per second.
        rate_per_s: f64,
        /// Gamma shape of the gaps; 1 gives exponential gaps (Poisson arrivals).
        burstiness: f64,
    },
}

impl Default for Arrivals {
    fn default() -> Self {
        Self::Closed { concurrency: 1 }
    }
}

/// Gap to the next arrival, seconds: gamma with shape `burstiness` (NaN/≤ 0 → 1) and mean `1/rate`.
pub fn arrival_gap(rng: &mut Rng, rate_per_s: f64, burstiness: f64) -> f64 {
    let k = if burstiness > 0.0 { burstiness } else { 1.0 };
    let k = k.clamp(super::rng::MIN_GAMMA_SHAPE, super::rng::MAX_GAMMA_SHAPE);
    let g = if k == 1.0 { rng.exponential() } else { rng.gamma(k) / k };
    g / rate_per_s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_and_clamps() {
        assert_eq!(to_tokens(f64::NAN), 1);
        assert_eq!(to_tokens(-5.0), 1);
        assert_eq!(to_tokens(0.4), 1);
        assert_eq!(to_tokens(2.5), 3);
        assert_eq!(to_tokens(f64::INFINITY), MAX_TOKENS);
        assert_eq!(to_tokens(1e30), MAX_TOKENS);
    }

    #[test]
    fn lognormal_mean_and_cv() {
        let d = LengthDist::LogNormal { mean: 1000.0, cv: 1.0 };
        let mut r = Rng::new(5);
        let xs: Vec<f64> = (0..200_000).map(|_| f64::from(d.sample(&mut r))).collect();
        let n = xs.len() as f64;
        let m = xs.iter().sum::<f64>() / n;
        let sd = (xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / n).sqrt();
        assert!((m - 1000.0).abs() < 15.0, "{m}");
        assert!((sd / m - 1.0).abs() < 0.05, "{}", sd / m);
    }

    #[test]
    fn quantiles_match_the_draws() {
        use crate::percentiles::Pct;
        for d in [LengthDist::LogNormal { mean: 6000.0, cv: 0.5 }, LengthDist::Uniform { min: 100.0, max: 300.0 }] {
            let mut r = Rng::new(3);
            let mut xs: Vec<f64> = (0..100_000).map(|_| f64::from(d.sample(&mut r))).collect();
            xs.sort_by(f64::total_cmp);
            for p in [Pct::P50, Pct::P90, Pct::P95, Pct::P99] {
                let drawn = xs[(p.value() / 100.0 * xs.len() as f64) as usize];
                assert!((drawn / d.quantile(p) - 1.0).abs() < 0.02, "{d:?} {p:?}: {drawn} against {}", d.quantile(p));
            }
        }
        // The trial's RAG prompts: 6,000 tokens on average, lognormal CV 0.5, have their P95 at 11,670.
        assert!((LengthDist::LogNormal { mean: 6000.0, cv: 0.5 }.quantile(Pct::P95) - 11_670.0).abs() < 10.0);
        assert_eq!(LengthDist::Fixed(512.0).quantile(Pct::P99), 512.0);
    }

    #[test]
    fn uniform_range_swapped_ok() {
        let d = LengthDist::Uniform { min: 200.0, max: 100.0 };
        let mut r = Rng::new(9);
        for _ in 0..1000 {
            let x = d.sample(&mut r);
            assert!((100..=200).contains(&x));
        }
        assert_eq!(d.min_tokens(), 100);
    }

    #[test]
    fn gaps_have_requested_mean_and_cv() {
        let mut r = Rng::new(11);
        for (k, cv2) in [(1.0, 1.0), (0.5, 2.0), (4.0, 0.25)] {
            let xs: Vec<f64> = (0..100_000).map(|_| arrival_gap(&mut r, 10.0, k)).collect();
            let n = xs.len() as f64;
            let m = xs.iter().sum::<f64>() / n;
            let v = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / n;
            assert!((m - 0.1).abs() < 0.003, "k={k} {m}");
            assert!((v / (m * m) - cv2).abs() < 0.08 * cv2.max(1.0), "k={k} {}", v / (m * m));
        }
    }
}
