//! Result aggregation: combine window sums S_w into sum_w 2^(c*w) S_w by
//! Horner's rule, c doublings between windows.

use zkmsm_curve::{MsmCurve, Xyzz};

/// `sum_w 2^(c w) * window_sums[w]` by Horner's rule: c doublings between windows, from the top.
pub fn combine_windows<C: MsmCurve>(window_sums: &[Xyzz<C>], c: u32) -> Xyzz<C> {
    let mut acc = Xyzz::identity();
    for s in window_sums.iter().rev() {
        for _ in 0..c {
            acc = acc.double();
        }
        acc = acc.add(s);
    }
    acc
}
