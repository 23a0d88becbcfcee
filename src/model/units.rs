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

/// A number as people type it in a field, in either convention where it is unambiguous: grouping spaces and
/// underscores dropped; `1,234.5` and `1.234,5` (both separators: the last marks decimals); several commas or
/// several dots group thousands (`1,234,567`, `1.234.567`); one comma followed by anything but three digits, or
/// after a lone 0, marks decimals (`0,20`, `1,4`: a trial's PUE and electricity price, refused before while the
/// results showed the keystrokes' 0 and 1); one comma before three digits groups thousands (`1,500`). One point
/// marks decimals, but in a field that counts (`count`: tokens, users, devices) `6.000` or `1.500` — a whole
/// count in the convention that groups with points — is refused with both readings, where it had silently been a
/// 6-token prompt. `Ok(None)` for an empty field; `Err` holds the field's message.
pub fn parse_typed(raw: &str, count: bool) -> Result<Option<f64>, String> {
    let v = raw.trim();
    if v.is_empty() {
        return Ok(None);
    }
    let t: String = v.chars().filter(|c| !matches!(c, '_' | ' ' | '\u{a0}' | '\u{2009}' | '\u{202f}')).collect();
    let seps: Vec<(usize, u8)> = t.bytes().enumerate().filter(|(_, b)| matches!(b, b',' | b'.')).collect();
    let (last, mark) = seps.last().copied().unwrap_or((t.len(), b'.'));
    let tail = t.get(last + 1..).unwrap_or("");
    let three = tail.len() == 3 && tail.bytes().all(|b| b.is_ascii_digit());
    let digits = t[..last].trim_start_matches(['-', '+']);
    let whole = !digits.is_empty() && !digits.starts_with('0');
    // Every separator the same one, several of them or a comma before three digits after a whole part: thousands.
    // Otherwise the last one marks decimals and the others (of the other kind) group the whole part.
    let grouping = seps.iter().all(|s| s.1 == mark) && (seps.len() > 1 || (mark == b',' && three && whole));
    let gaps = seps.windows(2).all(|w| w[1].0 - w[0].0 == 4);
    let valid = gaps && if grouping { three } else { seps[..seps.len().saturating_sub(1)].iter().all(|s| s.1 != mark) };
    if !valid {
        return Err(format!("\"{v}\": a comma or point groups thousands in threes (1,500 or 1.500.000), a single one marks decimals (0,5 or 0.5)"));
    }
    let cleaned: String = t
        .bytes()
        .enumerate()
        .filter_map(|(i, b)| if matches!(b, b',' | b'.') { (i == last && !grouping).then_some('.') } else { Some(char::from(b)) })
        .collect();
    let n = cleaned.parse::<f64>().map_err(|_| format!("\"{v}\" is not a number: type digits only, the unit is beside the field"))?;
    if count && !grouping && seps.len() == 1 && mark == b'.' && three && whole && digits.len() <= 3 {
        return Err(format!("\"{v}\" reads {n} (a point marks decimals, and this field counts whole units): for {digits}{tail} type {digits}{tail}"));
    }
    Ok(Some(n))
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
    fn typed_numbers_in_either_convention() {
        let ok = |s: &str, count: bool| parse_typed(s, count).unwrap().unwrap();
        // Decimal commas where nothing else is meant (a trial's electricity price and PUE).
        assert_eq!(ok("0,20", false), 0.2);
        assert_eq!(ok("1,4", false), 1.4);
        assert_eq!(ok("0,125", false), 0.125);
        assert_eq!(ok("-0,5", false), -0.5);
        assert_eq!(ok("3,35", false), 3.35);
        // Thousands: one comma before three digits, several commas or points, spaces.
        assert_eq!(ok("1,500", true), 1500.0);
        assert_eq!(ok("1,234,567", false), 1_234_567.0);
        assert_eq!(ok("1.234.567", false), 1_234_567.0);
        assert_eq!(ok("6 000", true), 6000.0);
        assert_eq!(ok("6\u{202f}000", true), 6000.0);
        // Both separators: the last marks decimals.
        assert_eq!(ok("1,234.5", false), 1234.5);
        assert_eq!(ok("1.234,5", false), 1234.5);
        // One point: decimals; in a count, "6.000" has two readings and is refused with both.
        assert_eq!(ok("0.125", true), 0.125);
        assert_eq!(ok("1.125", false), 1.125);
        assert_eq!(ok("2.5", true), 2.5);
        assert_eq!(ok("1e3", true), 1000.0);
        let e = parse_typed("6.000", true).unwrap_err();
        assert!(e.contains("reads 6") && e.contains("for 6000 type 6000"), "{e}");
        assert!(parse_typed("1.500", true).is_err());
        assert_eq!(parse_typed("", true), Ok(None));
        assert_eq!(parse_typed("  ", false), Ok(None));
        for bad in ["1,23,4", "1.2.3", "1,2.3,4", "1.234,5.6", "80GB", "abc", "1..2", ","] {
            assert!(parse_typed(bad, false).is_err(), "{bad}");
        }
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
