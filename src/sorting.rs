//! The program's sorts, kept to two routines. In the page every distinct `sort_by` (another element type or
//! another comparison closure) compiles to its own copy of the standard library's sort, about 3.5 KB of wasm;
//! numbers go through one `sort_unstable_by(f64::total_cmp)` (the simulator's percentiles use it too), and the
//! short lists (load levels, imported runs, histogram buckets) through a stable insertion sort of a few hundred
//! bytes per use.

/// Sorts numbers ascending in the total order of [`f64::total_cmp`] (−0 before +0, NaN last). Unstable, which
/// for numbers is the same as stable: equal numbers are the same bits.
pub fn sort_f64(v: &mut [f64]) {
    v.sort_unstable_by(f64::total_cmp);
}

/// The median of numbers (sorted in place): the middle one, or the mean of the two middle ones of an even count
/// (a review read "median |error| 15.5 %" of two errors, 15.5 and 5.4 %: the upper middle one, the worse). `None`
/// when empty.
pub fn median(v: &mut [f64]) -> Option<f64> {
    sort_f64(v);
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2]),
        _ => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

/// Sorts a short list (tens, at most a few hundred elements: insertion sort is quadratic) stably: `less(a, b)`
/// says whether `a` goes before `b`; elements neither less than the other keep their order.
pub fn sort_small_by<T>(v: &mut [T], mut less: impl FnMut(&T, &T) -> bool) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && less(&v[j], &v[j - 1]) {
            v.swap(j, j - 1);
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_sort_in_the_total_order() {
        let mut v = [3.0, f64::NAN, -1.0, 0.0, -0.0, 2.5, f64::NEG_INFINITY];
        let mut want = v;
        sort_f64(&mut v);
        let bits: Vec<u64> = v.iter().map(|x| x.to_bits()).collect();
        want.sort_by(f64::total_cmp);
        assert_eq!(bits, want.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
    }

    #[test]
    fn the_median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(median(&mut []), None);
        assert_eq!(median(&mut [15.5, 5.4]), Some(10.45));
        assert_eq!(median(&mut [30.9, 5.4, 15.5, 10.3]), Some(12.9));
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), Some(2.0));
    }

    #[test]
    fn short_lists_sort_stably() {
        // (key, original position): equal keys keep their order, as the standard stable sort does.
        let keys = [5, 1, 3, 1, 5, 0, 3, 3, 9, 1];
        let mut v: Vec<(i32, usize)> = keys.iter().copied().zip(0..).collect();
        let mut want = v.clone();
        want.sort_by_key(|p| p.0);
        sort_small_by(&mut v, |a, b| a.0 < b.0);
        assert_eq!(v, want);
        let mut empty: Vec<u8> = Vec::new();
        sort_small_by(&mut empty, |a, b| a < b);
        assert!(empty.is_empty());
    }
}
