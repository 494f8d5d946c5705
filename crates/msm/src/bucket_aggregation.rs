//! Bucket aggregation: a window's sum sum_k (k+1) * B_k by the running sum
//! (CycloneMSM Algorithm 3): two additions per bucket, from the top bucket down.

use crate::backend::Bucket;
use zkmsm_curve::MsmCurve;

pub fn running_sum<C: MsmCurve, B: Bucket<C>>(buckets: &[B]) -> B {
    let mut running = B::identity();
    let mut total = B::identity();
    for b in buckets.iter().rev() {
        running = running.add(b);
        total = total.add(&running);
    }
    total
}
