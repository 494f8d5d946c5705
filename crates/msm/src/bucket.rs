//! The bucket seam between accumulation and aggregation: any group-element
//! form a backend accumulates in, with the three operations the shared
//! bucket and result aggregation need.

use zkmsm_curve::{MsmCurve, Xyzz};

/// A bucket value: a group element in whatever form the backend accumulates.
pub trait Bucket<C: MsmCurve>: Copy + Send + Sync {
    /// The identity (an empty bucket).
    fn identity() -> Self;
    /// `self + other`, any two values (equal ones and the identity included).
    fn add(&self, other: &Self) -> Self;
    /// `2 * self`.
    fn double(&self) -> Self;
    /// The value in XYZZ coordinates, for the aggregation that follows.
    fn to_xyzz(&self) -> Xyzz<C>;
}

impl<C: MsmCurve> Bucket<C> for Xyzz<C> {
    #[inline]
    fn identity() -> Self {
        Xyzz::identity()
    }
    #[inline]
    fn add(&self, other: &Self) -> Self {
        Xyzz::add(self, other)
    }
    #[inline]
    fn double(&self) -> Self {
        Xyzz::double(self)
    }
    #[inline]
    fn to_xyzz(&self) -> Xyzz<C> {
        *self
    }
}
