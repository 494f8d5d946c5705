//! Bucket aggregation: a window's sum sum_k (k+1) * B_k.
//!
//! - [`running_sum`]: CycloneMSM Algorithm 3, two additions per bucket from
//!   the top bucket down; one long dependent chain.
//! - [`partitioned_sum`]: PriorMSM's partitioned aggregation: H groups of
//!   consecutive buckets [a, b) each run their own running sum, giving
//!   R = sum (k - a + 1) B_k and T = sum B_k; the window sum is
//!   sum over groups of R + a T. The groups run in parallel; the price is one
//!   small multiplication a T per group.

use crate::bucket::Bucket;
use rayon::prelude::*;
use zkmsm_curve::MsmCurve;

/// `sum_k (k + 1) * buckets[k]` by running sums (two additions per bucket).
pub fn running_sum<C: MsmCurve, B: Bucket<C>>(buckets: &[B]) -> B {
    running_sum_and_total::<C, B>(buckets).0
}

/// (sum (k+1) B_k, sum B_k)
fn running_sum_and_total<C: MsmCurve, B: Bucket<C>>(buckets: &[B]) -> (B, B) {
    let mut running = B::identity();
    let mut total = B::identity();
    for b in buckets.iter().rev() {
        running = running.add(b);
        total = total.add(&running);
    }
    (total, running)
}

/// k * b by double-and-add (k is a bucket offset: at most 2^(c-1)).
fn small_mul<C: MsmCurve, B: Bucket<C>>(b: &B, k: usize) -> B {
    let mut acc = B::identity();
    for i in (0..usize::BITS - k.leading_zeros()).rev() {
        acc = acc.double();
        if (k >> i) & 1 == 1 {
            acc = acc.add(b);
        }
    }
    acc
}

/// The same sum as [`running_sum`], over `groups` parallel groups.
pub fn partitioned_sum<C: MsmCurve, B: Bucket<C>>(buckets: &[B], groups: usize) -> B {
    let groups = groups.clamp(1, buckets.len().max(1));
    if groups == 1 {
        return running_sum::<C, B>(buckets);
    }
    let size = buckets.len().div_ceil(groups);
    buckets
        .par_chunks(size)
        .enumerate()
        .map(|(g, chunk)| {
            let (r, t) = running_sum_and_total::<C, B>(chunk);
            r.add(&small_mul::<C, B>(&t, g * size))
        })
        .reduce(B::identity, |a, b| a.add(&b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use zkmsm_curve::{Bls12_381, SwCurve, Xyzz};

    #[test]
    fn partitioned_equals_running_and_definition() {
        let g = Bls12_381::generator();
        for n in [0usize, 1, 2, 7, 64, 100] {
            let buckets: Vec<Xyzz<Bls12_381>> = (0..n).map(|i| g.mul_bigint(&[(i * i + 3) as u64])).collect();
            // definition: sum (k+1) * B_k = (sum (k+1)(k^2+3)) G
            let want: u64 = (0..n as u64).map(|k| (k + 1) * (k * k + 3)).sum();
            let want = g.mul_bigint(&[want]);
            assert_eq!(running_sum::<Bls12_381, _>(&buckets), want);
            for h in [1, 2, 3, 5, 16, 200] {
                assert_eq!(partitioned_sum::<Bls12_381, _>(&buckets, h), want, "n {n} groups {h}");
            }
        }
    }
}
