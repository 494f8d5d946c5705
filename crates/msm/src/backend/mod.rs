//! The backend seam: bucket accumulation, the one phase every accelerator in
//! the papers implements in hardware. A backend converts the points once at
//! init into its own form, then fills the 2^(c-1) buckets of a window from that
//! window's signed digits. Everything around it (digits, aggregation) is shared.

mod batch_affine;
pub mod choice;
pub mod lanes;
mod side_buckets;
mod twisted_edwards;
mod xyzz;

pub use batch_affine::BatchAffineWindow;
pub use batch_affine::{lanes_fit, BatchAffineBackend, BatchAffinePoints};
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub use batch_affine::{FmaFp2Points, FmaPoints};
pub use twisted_edwards::TwistedEdwardsBackend;
pub use xyzz::XyzzBackend;

pub use crate::bucket::Bucket;

use crate::pipeline::bucket_aggregation::partitioned_sum;
use crate::pipeline::plan::Plan;
use crate::scheduler::ScheduleStats;
use zkmsm_curve::{MsmCurve, Xyzz};

/// Ask the cache for the line holding `*p` ahead of use: bucket arrays of the
/// larger windows outgrow L2, and a bucket's address is known from the digits
/// long before its addition runs.
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint; it never faults, whatever the address.
    unsafe {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch(p as *const i8, _MM_HINT_T0);
        _mm_prefetch((p as *const i8).wrapping_add(64), _MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// How many operations ahead the accumulation loops prefetch a bucket.
pub(crate) const PREFETCH_AHEAD: usize = 8;

/// Prefetch the bucket of a non-zero signed digit.
#[inline(always)]
pub(crate) fn prefetch_bucket<T>(buckets: &[T], digit: i32) {
    let k = digit.unsigned_abs() as usize - 1;
    if k < buckets.len() {
        prefetch(&buckets[k]);
    }
}

/// One window's (or fixed-base bucket set's) filled buckets in the
/// backend's own form: what bucket accumulation hands to bucket aggregation.
pub trait WindowBuckets<C: MsmCurve, B: Bucket<C>> {
    /// Bucket aggregation of this window alone: sum_k (k+1) B_k. The default
    /// is the shared XYZZ-style running sum ([`crate::pipeline::bucket_aggregation`]);
    /// a backend whose own arithmetic aggregates faster overrides it.
    fn sum(self) -> Xyzz<C>
    where
        Self: Sized,
    {
        partitioned_sum::<C, B>(&self.into_buckets(), 1).to_xyzz()
    }

    /// The buckets as the shared aggregation takes them (fixed-base mode
    /// splits one bucket set's aggregation across threads).
    fn into_buckets(self) -> Vec<B>;

    /// What the scheduler did while filling them, for backends that schedule.
    fn schedule_stats(&self) -> Option<ScheduleStats> {
        None
    }
}

/// Buckets that are already the shared form.
impl<C: MsmCurve, B: Bucket<C>> WindowBuckets<C, B> for Vec<B> {
    fn into_buckets(self) -> Vec<B> {
        self
    }
}

/// Bucket accumulation behind one trait (CPU engines, the cycle model, RTL).
pub trait Backend<C: MsmCurve>: Send + Sync {
    /// Points in the backend's own form, prepared once (MSM_INIT).
    type Prepared: Send + Sync;
    /// What a bucket holds in this backend.
    type Bucket: Bucket<C>;
    /// A window's filled buckets; may borrow the backend and the points.
    type Window<'a>: WindowBuckets<C, Self::Bucket>
    where
        Self: 'a;

    /// The backend's name in reports and on the command line (`--backend`).
    fn name(&self) -> &'static str;

    /// What it accumulates with, for `auto`'s choices ([`choice::auto_glv`]).
    fn kind(&self) -> choice::BackendKind {
        choice::BackendKind::Other
    }

    /// Convert validated subgroup points.
    fn prepare(&self, points: &[zkmsm_curve::Affine<C>]) -> Self::Prepared;

    /// As [`Self::prepare`], taking the points: a backend that keeps affine
    /// points keeps these (no copy), one that converts may free them as it
    /// goes, so init need not hold two full sets of points (peak memory).
    fn prepare_owned(&self, points: Vec<zkmsm_curve::Affine<C>>) -> Self::Prepared {
        self.prepare(&points)
    }

    /// Fill one window's buckets: bucket k is the sum, over the i with
    /// `|digits[i]| = k + 1`, of `sign(digits[i]) * P_i`. `digits.len()`
    /// equals the number of points.
    fn accumulate<'a>(&'a self, points: &'a Self::Prepared, digits: &[i32], plan: &Plan) -> Self::Window<'a>;
}
