//! Projective side buckets of the batch-affine engines: where an addition
//! goes that cannot run in a batch (P + P, operations the scheduler overflowed).
//! Allocated on first use; most windows never need them.

use zkmsm_curve::{Affine, MsmCurve, Xyzz};

pub struct SideBuckets<C: MsmCurve> {
    len: usize,
    buckets: Option<Vec<Xyzz<C>>>,
}

impl<C: MsmCurve> SideBuckets<C> {
    /// Side buckets for `len` buckets (nothing allocated yet).
    pub fn new(len: usize) -> Self {
        Self { len, buckets: None }
    }

    /// Add p into side bucket k.
    pub fn add(&mut self, k: u32, p: &Affine<C>) {
        let len = self.len;
        let side = self.buckets.get_or_insert_with(|| vec![Xyzz::identity(); len]);
        let o = &mut side[k as usize];
        *o = o.add_affine(p);
    }

    /// The side buckets, if any operation went there.
    pub fn take(&mut self) -> Option<Vec<Xyzz<C>>> {
        self.buckets.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zkmsm_curve::{Bls12_381, SwCurve};

    #[test]
    fn allocates_on_first_use_and_sums() {
        let g = Bls12_381::generator();
        let mut side = SideBuckets::<Bls12_381>::new(4);
        assert!(side.take().is_none());
        side.add(2, &g);
        side.add(2, &g);
        let b = side.take().unwrap();
        assert_eq!(b.len(), 4);
        assert_eq!(b[2], g.to_xyzz().double());
        assert!(b[0].is_identity() && b[3].is_identity());
        assert!(side.take().is_none());
    }
}
