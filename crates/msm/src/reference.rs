//! A slow MSM computed a different way: no windows, no buckets, no signed
//! digits; one double-and-add scalar multiplication per point, then a sum.
//! The oracle for inputs whose discrete logs are unknown.

use crate::input::InputCurve;
use crate::pipeline::digits::ScalarLimbs;
use rayon::prelude::*;
use zkmsm_curve::{Affine, Xyzz};

/// `sum_i scalars[i] * points[i]` by one double-and-add per point, summed: the bucket-free
/// reference the fast paths are checked against (`--check`). Panics when the lengths differ.
pub fn naive_msm<C: InputCurve>(points: &[Affine<C>], scalars: &[ScalarLimbs]) -> Affine<C> {
    assert_eq!(points.len(), scalars.len(), "naive_msm needs equal lengths");
    points.par_iter().zip(scalars).map(|(p, s)| p.mul_bigint(s)).reduce(Xyzz::identity, |a, b| a.add(&b)).to_affine()
}
