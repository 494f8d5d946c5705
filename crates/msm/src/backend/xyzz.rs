//! The baseline CPU engine: buckets in XYZZ coordinates, one mixed addition
//! per non-zero digit (what arkworks and blst do).

use super::{prefetch_bucket, Backend, PREFETCH_AHEAD};
use crate::pipeline::plan::Plan;
use crate::store::Store;
use zkmsm_curve::{Affine, MsmCurve, Xyzz};

/// Buckets in XYZZ (extended Jacobian) coordinates with mixed additions of affine points: the
/// portable baseline, on every curve.
#[derive(Debug, Clone, Copy, Default)]
pub struct XyzzBackend;

impl<C: MsmCurve> Backend<C> for XyzzBackend {
    type Prepared = Store<Affine<C>>;
    type Bucket = Xyzz<C>;
    type Window<'a> = Vec<Xyzz<C>>;

    fn name(&self) -> &'static str {
        "xyzz"
    }

    fn kind(&self) -> super::choice::BackendKind {
        super::choice::BackendKind::Xyzz
    }

    fn prepare(&self, points: &[Affine<C>]) -> Store<Affine<C>> {
        points.to_vec().into()
    }

    fn prepare_owned(&self, points: Vec<Affine<C>>) -> Store<Affine<C>> {
        points.into()
    }

    fn accumulate(&self, points: &Store<Affine<C>>, digits: &[i32], plan: &Plan) -> Vec<Xyzz<C>> {
        let mut buckets = vec![Xyzz::<C>::identity(); plan.buckets];
        for (i, (p, &d)) in points.iter().zip(digits).enumerate() {
            if let Some(&ahead) = digits.get(i + PREFETCH_AHEAD) {
                if ahead != 0 {
                    prefetch_bucket(&buckets, ahead);
                }
            }
            if d > 0 {
                let b = &mut buckets[(d - 1) as usize];
                *b = b.add_affine(p);
            } else if d < 0 {
                let b = &mut buckets[(-d - 1) as usize];
                *b = b.sub_affine(p);
            }
        }
        buckets
    }
}
