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
