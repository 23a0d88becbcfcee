//! Units used throughout the model.
//!
//! Decimal units for rates and model sizes (1 GB = 10⁹ bytes, 1 GB/s = 10⁹ bytes/s, 1 TFLOPS = 10¹² FLOP/s):
//! vendors quote bandwidth in decimal units, and weights/KV sizes in reports are decimal GB. **Device memory
//! capacity is binary**: the "80 GB" of an H100 or the "24 GB" of an RTX 4090 are GiB (2³⁰ bytes), so
//! `hardware.memory_gb` and `engine.reserve_gb` count GiB ([`GIB`]). Model file sizes printed by llama.cpp are
//! GiB too.
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
