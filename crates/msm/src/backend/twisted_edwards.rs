//! Twisted Edwards accumulation for BLS12-377 (CycloneMSM's and Hardcaml's
//! datapath, in software): points converted once at init to the precomputed
//! form (y - x, y + x, 2d x y); buckets in extended projective coordinates;
//! a bucket addition is the 7-multiplication mixed addition, a subtraction
//! the same after a swap and one negation. No special cases and no scheduler:
//! the formulas are complete on the prime-order subgroup, which init checks.

use super::{prefetch_bucket, Backend, Bucket, PREFETCH_AHEAD};
use crate::pipeline::plan::Plan;
use crate::store::Store;
use zkmsm_curve::te::{precompute_points, TeExtended, TePrecomputed};
use zkmsm_curve::{Affine, Bls12_377, Xyzz};

/// BLS12-377 only: points mapped to the twisted Edwards curve and accumulated with the
/// 7-multiplication mixed adder (CycloneMSM's and the Hardcaml design's choice), buckets in
/// extended coordinates.
#[derive(Debug, Clone, Copy, Default)]
pub struct TwistedEdwardsBackend;

impl Bucket<Bls12_377> for TeExtended {
    #[inline]
    fn identity() -> Self {
        TeExtended::identity()
    }
    #[inline]
    fn add(&self, other: &Self) -> Self {
        TeExtended::add(self, other)
    }
    #[inline]
    fn double(&self) -> Self {
        TeExtended::double(self)
    }
    fn to_xyzz(&self) -> Xyzz<Bls12_377> {
        let w = self.to_affine().to_weierstrass().expect("sums of subgroup points map back to Weierstrass form");
        Xyzz::from_affine(&w)
    }
}

impl Backend<Bls12_377> for TwistedEdwardsBackend {
    type Prepared = Store<TePrecomputed>;
    type Bucket = TeExtended;
    type Window<'a> = Vec<TeExtended>;

    fn name(&self) -> &'static str {
        "twisted-edwards"
    }

    fn kind(&self) -> super::choice::BackendKind {
        super::choice::BackendKind::TwistedEdwards
    }

    /// Points must be validated subgroup points: none of them is one of the
    /// five points without a twisted Edwards image.
    fn prepare(&self, points: &[Affine<Bls12_377>]) -> Store<TePrecomputed> {
        use rayon::prelude::*;
        points
            .par_chunks(1024)
            .flat_map_iter(|chunk| {
                precompute_points(chunk).expect("validated subgroup points have a twisted Edwards image")
            })
            .collect::<Vec<_>>()
            .into()
    }

    /// Converts a slice at a time from the end, giving each converted slice's
    /// memory back (`truncate` + `shrink_to_fit`, which shrinks a large
    /// allocation in place), so the 104-byte affine points and the 144-byte
    /// precomputed ones are never both held in full. The points are reversed
    /// first so that cutting from the end converts them in order.
    fn prepare_owned(&self, mut points: Vec<Affine<Bls12_377>>) -> Store<TePrecomputed> {
        use rayon::prelude::*;
        const SLICE: usize = 1 << 15;
        if points.len() <= SLICE {
            return self.prepare(&points);
        }
        let mut out = Vec::with_capacity(points.len());
        points.reverse();
        while !points.is_empty() {
            let start = points.len().saturating_sub(SLICE);
            let slice = &mut points[start..];
            slice.reverse();
            out.par_extend(slice.par_chunks(1024).flat_map_iter(|chunk| {
                precompute_points(chunk).expect("validated subgroup points have a twisted Edwards image")
            }));
            points.truncate(start);
            points.shrink_to_fit();
        }
        out.into()
    }

    fn accumulate(&self, points: &Store<TePrecomputed>, digits: &[i32], plan: &Plan) -> Vec<TeExtended> {
        let mut buckets = vec![TeExtended::identity(); plan.buckets];
        for (i, (p, &d)) in points.iter().zip(digits).enumerate() {
            if let Some(&ahead) = digits.get(i + PREFETCH_AHEAD) {
                if ahead != 0 {
                    prefetch_bucket(&buckets, ahead);
                }
            }
            if d > 0 {
                let b = &mut buckets[(d - 1) as usize];
                *b = b.add_precomputed(p);
            } else if d < 0 {
                let b = &mut buckets[(-d - 1) as usize];
                *b = b.sub_precomputed(p);
            }
        }
        buckets
    }
}
