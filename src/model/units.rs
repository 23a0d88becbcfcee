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
/// several dots group thousands (`1,234,567`, `1.234.567`, a first group of 1–3 digits); one comma followed by
/// anything but three digits, after a lone 0 or after more than three digits marks decimals (`0,20`, `1,4`,
/// `1234,567`: a trial's PUE and electricity price, refused before while the results showed the keystrokes' 0 and
/// 1); one comma before three digits groups thousands (`3,350` GB/s). Where one separator has two readings the
/// field decides (in any other field `2.000`, a point before three zeros, is refused with both readings): in a field that counts (`count`: tokens, users, devices) `6.000` — a whole count in the convention
/// that groups with points — is refused with both readings, where it had silently been a 6-token prompt; in a
/// field of small amounts (`small`: prices, the PUE) `2,125` is refused alike, where it had silently been 2,125 an
/// hour. In a field of whole things (`units`: tokens, users, devices — not a price) a comma that marks decimals is
/// refused with both readings. `Ok(None)` for an empty field; `Err` holds the field's message.
pub fn parse_typed(raw: &str, count: bool, small: bool, units: bool) -> Result<Option<f64>, String> {
    let v = raw.trim();
    if v.is_empty() {
        return Ok(None);
    }
    let gap = |c: char| matches!(c, '_' | ' ' | '\u{a0}' | '\u{2009}' | '\u{202f}');
    // Spaces (and underscores) group thousands too: every group after the first starts with three digits (a trial's
    // "12 8" had silently been 128 output tokens).
    // (A group that starts with no digit, "80 GB" or a doubled space, is left to the messages below.)
    if v.split(gap).skip(1).any(|g| !matches!(g.bytes().take_while(u8::is_ascii_digit).count(), 0 | 3)) {
        return Err(format!("\"{v}\": a space groups thousands in threes (30 000), and nothing else"));
    }
    let t: String = v.chars().filter(|c| !gap(*c)).collect();
    let seps: Vec<(usize, u8)> = t.bytes().enumerate().filter(|(_, b)| matches!(b, b',' | b'.')).collect();
    let (last, mark) = seps.last().copied().unwrap_or((t.len(), b'.'));
    let tail = t.get(last + 1..).unwrap_or("");
    let three = tail.len() == 3 && tail.bytes().all(|b| b.is_ascii_digit());
    let sign = |s: &'_ str| s.trim_start_matches(['-', '+']).len();
    let digits = sign(&t[..last]);
    // The digits before the first separator: a group of thousands has 1–3.
    let lead = (1..=3).contains(&sign(&t[..seps.first().map_or(t.len(), |s| s.0)]));
    let whole = digits > 0 && !t[..last].trim_start_matches(['-', '+']).starts_with('0');
    let same = seps.iter().all(|s| s.1 == mark);
    // Every separator the same one, several of them or a comma before three digits after a whole part of up to
    // three digits: thousands. Otherwise the last one marks decimals and the others (of the other kind) group.
    let grouping = same && lead && (seps.len() > 1 || (mark == b',' && three && whole));
    let gaps = seps.windows(2).all(|w| w[1].0 - w[0].0 == 4);
    let valid = gaps && if grouping { three } else { seps.len() < 2 || (lead && seps[..seps.len() - 1].iter().all(|s| s.1 != mark)) };
    if !valid {
        return Err(format!("\"{v}\": a comma or point groups thousands in threes (1,500 or 1.500.000), a single one marks decimals (0,5 or 0.5)"));
    }
    let cleaned: String = t
        .bytes()
        .enumerate()
        .filter_map(|(i, b)| if matches!(b, b',' | b'.') { (i == last && !grouping).then_some('.') } else { Some(char::from(b)) })
        .collect();
    let n = cleaned.parse::<f64>().map_err(|_| format!("\"{v}\" is not a number: type digits only, the unit is beside the field"))?;
    // A comma that marks decimals in a field that counts: a slip for a whole number far more often than a fraction of
    // a token or a user (a trial's "1,5" and "1,5000" had silently been a prompt of 1.5 tokens).
    if units && mark == b',' && !grouping && !seps.is_empty() && n.fract() != 0.0 {
        let digits: String = t.chars().filter(char::is_ascii_digit).collect();
        return Err(format!("\"{v}\": a comma here groups thousands — type {digits}, or {} with a point", fmt_num(n)));
    }
    // One separator before three digits after a whole part of up to three: both readings, where the field makes the
    // other one likely.
    let two = seps.len() == 1 && three && whole && digits <= 3;
    // In the other fields (ms, s, GB/s, TFLOPS) a point before three zeros is thousands far more often than a
    // decimal written to the thousandth (an operations trial's TTFT target "2.000" had silently been 2 ms, and no
    // load met it): both readings, each typed as it should be.
    if two && !count && !small && mark == b'.' && tail == "000" {
        return Err(format!("\"{v}\": {} or {}? Type {} or {}", fmt_num(n), fmt_num(n * 1e3), fmt_num(n), fmt_num(n * 1e3)));
    }
    if two && ((count && mark == b'.') || (small && mark == b',')) {
        let (dec, thousands) = if mark == b'.' { (n, n * 1e3) } else { (n / 1e3, n) };
        return Err(format!(
            "\"{v}\": {} or {}? Type it without the {}",
            fmt_num(dec),
            fmt_num(thousands),
            if mark == b'.' { "point" } else { "comma" }
        ));
    }
    Ok(Some(n))
}

/// A rate to one decimal, or to two significant digits where one decimal would read 0.0 (a trial read "0.0 tok/s
/// each" beside 44 tok/s total at 1,024 users: 0.043).
#[must_use]
pub fn tenths(v: f64) -> String {
    if v > 0.0 && v < 0.05 {
        let decimals = (1.0 - v.log10().floor()).clamp(1.0, 12.0) as usize;
        format!("{v:.decimals$}")
    } else {
        format!("{v:.1}")
    }
}

/// A fraction in per cent, to at most two decimals ("20" for 0.2, "12.35" for 0.12345): the shares people type.
#[must_use]
pub fn percent(share: f64) -> String {
    fmt_num((share * 1e4).round() / 100.0)
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
        let ok = |s: &str, count: bool| parse_typed(s, count, false, count).unwrap().unwrap();
        // Decimal commas where nothing else is meant (a trial's electricity price and PUE).
        assert_eq!(ok("0,20", false), 0.2);
        assert_eq!(ok("1,4", false), 1.4);
        assert_eq!(ok("0,125", false), 0.125);
        assert_eq!(ok("-0,5", false), -0.5);
        assert_eq!(ok("3,35", false), 3.35);
        assert_eq!(ok("1234,567", false), 1234.567);
        // Thousands: one comma before three digits, several commas or points, spaces.
        assert_eq!(ok("1,500", true), 1500.0);
        assert_eq!(ok("3,350", false), 3350.0);
        assert_eq!(ok("1,234,567", false), 1_234_567.0);
        assert_eq!(ok("1.234.567", false), 1_234_567.0);
        assert_eq!(ok("6 000", true), 6000.0);
        assert_eq!(ok("6\u{202f}000", true), 6000.0);
        // Both separators: the last marks decimals.
        assert_eq!(ok("1,234.5", false), 1234.5);
        assert_eq!(ok("1.234,5", false), 1234.5);
        assert_eq!(ok("1,000.000", false), 1000.0);
        // One point: decimals; in a count, "6.000" has two readings and is refused with both, and so is "2,125"
        // among small amounts (a price an hour).
        assert_eq!(ok("0.125", true), 0.125);
        assert_eq!(ok("1.125", false), 1.125);
        assert_eq!(ok("2.5", true), 2.5);
        assert_eq!(ok("1e3", true), 1000.0);
        assert_eq!(ok(".5", false), 0.5);
        assert_eq!(parse_typed("6.000", true, false, true), Err("\"6.000\": 6 or 6000? Type it without the point".into()));
        // Elsewhere three zeros after a point read as thousands too often to take silently; other decimals stand.
        assert_eq!(parse_typed("2.000", false, false, false), Err("\"2.000\": 2 or 2000? Type 2 or 2000".into()));
        assert_eq!(parse_typed("2.500", false, false, false), Ok(Some(2.5)));
        assert_eq!(parse_typed("0.000", false, false, false), Ok(Some(0.0)));
        assert_eq!(parse_typed("2.000", false, true, false), Ok(Some(2.0)), "a price: 2.000 is two");
        assert!(parse_typed("1.500", true, false, true).is_err());
        assert_eq!(parse_typed("2,125", false, true, false), Err("\"2,125\": 2.125 or 2125? Type it without the comma".into()));
        assert_eq!(parse_typed("0,125", false, true, false), Ok(Some(0.125)));
        assert_eq!(parse_typed("2.125", false, true, false), Ok(Some(2.125)));
        assert_eq!(parse_typed("", true, false, true), Ok(None));
        assert_eq!(parse_typed("  ", false, false, false), Ok(None));
        // Spaces group in threes only, and a count takes no decimal comma (a trial's "12 8" had been 128 tokens, "1,5"
        // and "1,5000" a prompt of 1.5).
        assert_eq!(ok("1 234,5", false), 1234.5);
        assert_eq!(ok("1_000_000", true), 1e6);
        assert_eq!(parse_typed("12 8", true, false, true), Err("\"12 8\": a space groups thousands in threes (30 000), and nothing else".into()));
        assert!(parse_typed("1 2345", false, false, false).is_err());
        for slip in ["1,5", "1,50", "1,5000"] {
            let e = parse_typed(slip, true, false, true).unwrap_err();
            assert!(e.ends_with(&format!("type {}, or 1.5 with a point", slip.replace(',', ""))), "{e}");
        }
        assert_eq!(ok("1,500", true), 1500.0);
        // The suggestion is the digits typed; a price (not whole) keeps its decimal comma; a unit typed after a space
        // gets the unit's message, a doubled space groups as one (a review).
        assert!(parse_typed("1.234,5", true, false, true).unwrap_err().contains("type 12345, or 1234.5 with a point"));
        assert_eq!(parse_typed("29999,99", true, false, false), Ok(Some(29_999.99)));
        assert!(parse_typed("80 GB", false, false, false).unwrap_err().contains("is not a number"));
        assert_eq!(parse_typed("1  000", true, false, true), Ok(Some(1000.0)));
        for bad in ["1,23,4", "1.2.3", "1,2.3,4", "1.234,5.6", "1234.567.890", "1234,567.5", "80GB", "abc", "1..2", ","] {
            assert!(parse_typed(bad, false, false, false).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_small_rate_keeps_two_significant_digits() {
        assert_eq!([tenths(0.043), tenths(0.0049), tenths(0.05), tenths(5.24), tenths(0.0)], ["0.043", "0.0049", "0.1", "5.2", "0.0"]);
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
