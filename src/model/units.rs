//! Units used throughout the model.
//!
//! Decimal units for rates and model sizes (1 GB = 10⁹ bytes, 1 GB/s = 10⁹ bytes/s, 1 TFLOPS = 10¹² FLOP/s):
//! vendors quote bandwidth in decimal units, and weights/KV sizes in reports are decimal GB. **Device memory
//! capacity is binary**: the "80 GB" of an H100 or the "24 GB" of an RTX 4090 are GiB (2³⁰ bytes), so
//! `hardware.memory_gb` and `engine.reserve_gb` count GiB ([`GIB`]). Model file sizes printed by llama.cpp are
//! GiB too.
//!
//! Internally the model works in bytes, FLOP and seconds (`f64`), with the constants below for the unit
//! changes; the report's field names carry the unit (`_ms`, `_gb`, `_tps`) and say per user or per system.

/// 10⁹ bytes.
pub const GB: f64 = 1e9;
/// 2³⁰ bytes.
pub const GIB: f64 = 1_073_741_824.0;
/// 10¹² floating-point operations per second.
pub const TFLOPS: f64 = 1e12;

/// A number as people type it, compact at any magnitude: `{v}` below 10¹⁵ (`819`, `0.25`), scientific
/// notation beyond (`1e308`, not a 309-digit string that breaks a page's layout). The text parses back to the
/// same value.
#[must_use]
pub fn fmt_num(v: f64) -> String {
    if v == 0.0 || !v.is_finite() || (1e-4..1e15).contains(&v.abs()) {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

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

    #[test]
    fn numbers_stay_compact_and_round_trip() {
        assert_eq!(fmt_num(819.0), "819");
        assert_eq!(fmt_num(0.25), "0.25");
        assert_eq!(fmt_num(1e308), "1e308");
        assert_eq!(fmt_num(-2.5e20), "-2.5e20");
        assert_eq!(fmt_num(1e-9), "1e-9");
        for v in [1e308, 123_456.75, 3.3e-7, 1e15, 999_999_999_999_999.0] {
            assert_eq!(fmt_num(v).parse::<f64>().unwrap(), v);
            assert!(fmt_num(v).len() <= 24, "{}", fmt_num(v));
        }
    }
}
