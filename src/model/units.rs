//! Units used throughout the model.
//!
//! Decimal units everywhere (1 GB = 10⁹ bytes, 1 GB/s = 10⁹ bytes/s, 1 TFLOPS = 10¹² FLOP/s), because
//! vendor spec sheets quote memory bandwidth and HBM capacity in decimal units. Model file sizes printed by
//! llama.cpp are GiB (2³⁰ bytes); [`GIB`] converts them. The page labels every GB as decimal.
//!
//! Internally the model works in bytes, FLOP and seconds (`f64`); the newtypes below are used where a
//! mix-up between units of the same dimension is likely (per-user versus system tokens/s).

/// 10⁹ bytes.
pub const GB: f64 = 1e9;
/// 2³⁰ bytes.
pub const GIB: f64 = 1_073_741_824.0;
/// 10¹² floating-point operations per second.
pub const TFLOPS: f64 = 1e12;

/// Tokens per second seen by one user (1 / TPOT).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, serde::Serialize)]
pub struct PerUserTps(pub f64);

/// Output tokens per second summed over all concurrent requests.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, serde::Serialize)]
pub struct SystemTps(pub f64);

/// Seconds to milliseconds.
#[must_use]
pub fn ms(seconds: f64) -> f64 {
    seconds * 1e3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gib_is_binary_gb_is_decimal() {
        assert!((GIB / GB - 1.073_741_824).abs() < 1e-12);
        assert_eq!(ms(0.04), 40.0);
    }
}
