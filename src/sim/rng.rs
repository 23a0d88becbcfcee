//! A small deterministic pseudo-random generator and the samplers the simulation needs.
//!
//! - [`Rng`]: xoshiro256** (Blackman & Vigna, "Scrambled linear pseudorandom number generators", ACM TOMS
//!   2021), seeded through SplitMix64 (Steele, Lea & Flood, OOPSLA 2014) so that any `u64` seed, including 0,
//!   gives a well-mixed state. Same seed → same stream on every platform (only integer ops and IEEE-754 f64).
//! - Uniform on [0, 1) and (0, 1) from the top 53 bits.
//! - Standard normal by Box–Muller (one of the pair is used; simplicity over speed), its cosine of a turn by
//!   fdlibm's kernels ([`cos_turns`]).
//! - Exponential by inversion, `−ln U`.
//! - Gamma(shape k, scale θ) by Marsaglia & Tsang, "A simple method for generating gamma variables"
//!   (ACM TOMS 26(3), 2000); for k < 1 the boost `Gamma(k) = Gamma(k + 1) · U^(1/k)`.
//!
//! No sampler can panic or loop forever: shapes are clamped and the rejection loop is bounded.

/// Smallest gamma shape accepted; smaller values are clamped (the draws would underflow to 0 anyway).
pub const MIN_GAMMA_SHAPE: f64 = 0.01;
/// Largest gamma shape accepted; larger values are clamped (the distribution is then almost a constant).
pub const MAX_GAMMA_SHAPE: f64 = 1.0e4;

/// cos(2π·u) for u in [0, 1), as close as `f64::cos(2π·u)` (whose argument is rounded first). The turn is folded into [0, ⅛] by exact
/// subtractions (Sterbenz), so only the kernels of fdlibm's cosine and sine on [0, π/4] are needed: the full
/// `cos`, with its range reduction for any argument, was 2 KB of the page's wasm for this one call.
#[must_use]
pub fn cos_turns(u: f64) -> f64 {
    let u = if u > 0.5 { 1.0 - u } else { u };
    let (u, sign) = if u > 0.25 { (0.5 - u, -1.0) } else { (u, 1.0) };
    let tau = std::f64::consts::TAU;
    sign * if u > 0.125 { sin_kernel(tau * (0.25 - u)) } else { cos_kernel(tau * u) }
}

/// fdlibm's `__kernel_cos(x, 0)` for |x| ≤ π/4 (its coefficients as fdlibm prints them).
#[allow(clippy::excessive_precision)]
fn cos_kernel(x: f64) -> f64 {
    const C: [f64; 6] = [
        4.166_666_666_666_660_19e-2,
        -1.388_888_888_887_410_96e-3,
        2.480_158_728_947_672_94e-5,
        -2.755_731_435_139_066_33e-7,
        2.087_572_321_298_174_83e-9,
        -1.135_964_755_778_819_48e-11,
    ];
    let z = x * x;
    let w = z * z;
    let r = z * (C[0] + z * (C[1] + z * C[2])) + w * w * (C[3] + z * (C[4] + z * C[5]));
    let hz = 0.5 * z;
    let w = 1.0 - hz;
    w + (((1.0 - w) - hz) + z * r)
}

/// fdlibm's `__kernel_sin(x, 0, 0)` for |x| ≤ π/4 (its coefficients as fdlibm prints them).
#[allow(clippy::excessive_precision)]
fn sin_kernel(x: f64) -> f64 {
    const S: [f64; 6] = [
        -1.666_666_666_666_663_24e-1,
        8.333_333_333_322_489_46e-3,
        -1.984_126_982_985_794_93e-4,
        2.755_731_370_707_006_77e-6,
        -2.505_076_025_340_686_34e-8,
        1.589_690_995_211_550_10e-10,
    ];
    let z = x * x;
    let w = z * z;
    let r = S[1] + z * (S[2] + z * S[3]) + z * w * (S[4] + z * S[5]);
    x + z * x * (S[0] + z * r)
}

/// xoshiro256** generator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rng {
    s: [u64; 4],
}

/// One SplitMix64 step: advances `state` and returns a mixed 64-bit value.
#[must_use]
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// A generator whose state is filled from `seed` by SplitMix64.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        let mut sm = seed;
        let s = [splitmix64(&mut sm), splitmix64(&mut sm), splitmix64(&mut sm), splitmix64(&mut sm)];
        Self { s }
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Uniform on [0, 1), 53 bits of resolution.
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform on the open interval (0, 1): never exactly 0 or 1, safe for `ln`.
    pub fn open01(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 0.5) * (1.0 / (1u64 << 53) as f64)
    }

    /// Standard normal N(0, 1) by Box–Muller.
    pub fn normal(&mut self) -> f64 {
        let u1 = self.open01();
        let u2 = self.uniform();
        (-2.0 * u1.ln()).sqrt() * cos_turns(u2)
    }

    /// Exponential with mean 1.
    pub fn exponential(&mut self) -> f64 {
        -self.open01().ln()
    }

    /// Gamma with `shape` k (clamped to `MIN_GAMMA_SHAPE`…`MAX_GAMMA_SHAPE`; NaN → 1) and scale 1, so the
    /// mean is k and the coefficient of variation 1/√k.
    pub fn gamma(&mut self, shape: f64) -> f64 {
        let k = if shape.is_nan() { 1.0 } else { shape.clamp(MIN_GAMMA_SHAPE, MAX_GAMMA_SHAPE) };
        if k < 1.0 {
            // Marsaglia–Tsang boost for k < 1.
            let g = self.gamma_ge1(k + 1.0);
            return g * self.open01().powf(1.0 / k);
        }
        self.gamma_ge1(k)
    }

    /// Marsaglia–Tsang for shape ≥ 1; the acceptance rate is above 95 %, the loop is bounded anyway.
    fn gamma_ge1(&mut self, k: f64) -> f64 {
        let d = k - 1.0 / 3.0;
        let c = 1.0 / (9.0 * d).sqrt();
        for _ in 0..1000 {
            let x = self.normal();
            let v = 1.0 + c * x;
            if v <= 0.0 {
                continue;
            }
            let v = v * v * v;
            let u = self.open01();
            let x2 = x * x;
            if u < 1.0 - 0.0331 * x2 * x2 || u.ln() < 0.5 * x2 + d * (1.0 - v + v.ln()) {
                return d * v;
            }
        }
        // Unreachable in practice (probability < 0.05^1000); fall back to the mode.
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mean_var(xs: &[f64]) -> (f64, f64) {
        let n = xs.len() as f64;
        let m = xs.iter().sum::<f64>() / n;
        let v = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0);
        (m, v)
    }

    #[test]
    fn splitmix_reference_values() {
        // First outputs of SplitMix64 seeded with 0 (reference implementation by Vigna).
        let mut s = 0u64;
        assert_eq!(splitmix64(&mut s), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64(&mut s), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn deterministic_and_seed_sensitive() {
        let a: Vec<u64> = {
            let mut r = Rng::new(42);
            (0..8).map(|_| r.next_u64()).collect()
        };
        let b: Vec<u64> = {
            let mut r = Rng::new(42);
            (0..8).map(|_| r.next_u64()).collect()
        };
        let c: Vec<u64> = {
            let mut r = Rng::new(43);
            (0..8).map(|_| r.next_u64()).collect()
        };
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn uniform_in_range_with_right_moments() {
        let mut r = Rng::new(1);
        let xs: Vec<f64> = (0..100_000).map(|_| r.uniform()).collect();
        assert!(xs.iter().all(|&x| (0.0..1.0).contains(&x)));
        let (m, v) = mean_var(&xs);
        assert!((m - 0.5).abs() < 0.005, "{m}");
        assert!((v - 1.0 / 12.0).abs() < 0.002, "{v}");
    }

    #[test]
    fn the_cosine_of_a_turn_is_within_an_ulp_of_the_library_cosine() {
        let mut r = Rng::new(11);
        let us = (0..200_000).map(|_| r.uniform()).chain([0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0 - f64::EPSILON / 2.0]);
        for u in us {
            let (mine, lib) = (cos_turns(u), (std::f64::consts::TAU * u).cos());
            // Absolute: the library's own argument 2π·u (up to 2π) is rounded by up to half an ulp of 2π, 4.4e-16,
            // which near a zero of the cosine is its error; the folded turn is rounded less.
            assert!((mine - lib).abs() <= 4.0 * f64::EPSILON, "u {u}: {mine} vs {lib}");
        }
    }

    #[test]
    fn normal_exponential_gamma_moments() {
        let mut r = Rng::new(7);
        let n: Vec<f64> = (0..100_000).map(|_| r.normal()).collect();
        let (m, v) = mean_var(&n);
        assert!(m.abs() < 0.01 && (v - 1.0).abs() < 0.02, "{m} {v}");
        let e: Vec<f64> = (0..100_000).map(|_| r.exponential()).collect();
        let (m, v) = mean_var(&e);
        assert!((m - 1.0).abs() < 0.02 && (v - 1.0).abs() < 0.05, "{m} {v}");
        for k in [0.25, 0.5, 1.0, 2.5, 10.0] {
            let g: Vec<f64> = (0..100_000).map(|_| r.gamma(k)).collect();
            let (m, v) = mean_var(&g);
            assert!(g.iter().all(|x| x.is_finite() && *x >= 0.0));
            assert!((m - k).abs() < 0.03 * k.max(1.0), "k={k} mean {m}");
            assert!((v - k).abs() < 0.08 * k.max(1.0), "k={k} var {v}");
        }
    }

    #[test]
    fn gamma_survives_bad_shapes() {
        let mut r = Rng::new(3);
        for k in [f64::NAN, -1.0, 0.0, 1e-300, f64::INFINITY, 1e300] {
            let x = r.gamma(k);
            assert!(x.is_finite() && x >= 0.0, "{k} -> {x}");
        }
    }
}
