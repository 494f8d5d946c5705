//! Functional mode on the real curves: BLS12-377 (twisted Edwards, as the
//! CycloneMSM / Hardcaml / PriorMSM adders compute, or XYZZ) and BLS12-381
//! (XYZZ; it has no twisted Edwards form), with inputs, adversarial scalar
//! sets and an independent reference MSM.

use crate::datapath::SimGroup;
use crate::model::{ModelConfig, Report};
use crate::rng::SplitMix64;
use zkmsm::ScalarLimbs;
use zkmsm_curve::te::{TeAffine, TeExtended};
use zkmsm_curve::{Affine, Bls12_377, SwCurve, Xyzz};
use zkmsm_field::PrimeField;

/// Short Weierstrass arithmetic in XYZZ coordinates.
pub struct XyzzGroup<C: SwCurve>(core::marker::PhantomData<C>);

impl<C: SwCurve> Default for XyzzGroup<C> {
    fn default() -> Self {
        Self(core::marker::PhantomData)
    }
}

impl<C: SwCurve> SimGroup for XyzzGroup<C> {
    type P = Xyzz<C>;
    fn identity(&self) -> Xyzz<C> {
        Xyzz::identity()
    }
    fn add(&self, a: &Xyzz<C>, b: &Xyzz<C>) -> Xyzz<C> {
        a.add(b)
    }
    fn double(&self, a: &Xyzz<C>) -> Xyzz<C> {
        a.double()
    }
    fn neg(&self, a: &Xyzz<C>) -> Xyzz<C> {
        a.neg()
    }
}

/// BLS12-377 in extended twisted Edwards coordinates (unified addition: the
/// pipeline needs no special case for P + P, P - P or the identity).
#[derive(Default)]
pub struct TeGroup;

impl SimGroup for TeGroup {
    type P = TeExtended;
    fn identity(&self) -> TeExtended {
        TeExtended::identity()
    }
    fn add(&self, a: &TeExtended, b: &TeExtended) -> TeExtended {
        a.add(b)
    }
    fn double(&self, a: &TeExtended) -> TeExtended {
        a.double()
    }
    fn neg(&self, a: &TeExtended) -> TeExtended {
        a.neg()
    }
}

/// `n` subgroup points `A + i B` for random multiples A, B of the generator
/// (one addition each; distinct unless the sequence wraps, which needs
/// n near the group order).
pub fn points<C: SwCurve>(n: usize, seed: u64) -> Vec<Affine<C>> {
    let mut r = SplitMix64::new(seed);
    let g = C::generator();
    let a = g.mul_bigint(&[r.next_u64(), r.next_u64()]);
    let b = g.mul_bigint(&[r.next_u64() | 1, r.next_u64()]);
    let mut cur = a;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(cur);
        cur = cur.add(&b);
    }
    Xyzz::batch_to_affine(&out)
}

/// Scalar sets for the functional tests and CLI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarSet {
    /// Independent uniform scalars below the group order (the host's
    /// generator, `zkmsm::gen::random_scalars`).
    Uniform,
    /// All scalars equal to r - 1 (every digit of a window in one bucket).
    AllEqual,
    /// All zero.
    Zero,
}

/// Scalars below `C::ORDER`.
pub fn scalars<C: zkmsm::InputCurve>(n: usize, set: ScalarSet, seed: u64) -> Vec<ScalarLimbs> {
    match set {
        ScalarSet::Zero => vec![[0; 4]; n],
        ScalarSet::AllEqual => {
            let mut s = [0u64; 4];
            for (k, l) in s.iter_mut().enumerate() {
                *l = C::ORDER.get(k).copied().unwrap_or(0);
            }
            s[0] -= 1; // r is odd
            vec![s; n]
        }
        ScalarSet::Uniform => zkmsm::gen::random_scalars::<C>(n, seed),
    }
}

/// Bit length of the subgroup order.
pub fn order_bits<C: zkmsm::InputCurve>() -> u32 {
    C::Scalar::NUM_BITS
}

/// Reference MSM: one double-and-add per point, summed (independent of the
/// bucket method).
pub fn reference_msm<C: SwCurve>(points: &[Affine<C>], scalars: &[ScalarLimbs]) -> Affine<C> {
    points.iter().zip(scalars).fold(Xyzz::<C>::identity(), |acc, (p, s)| acc.add(&p.mul_bigint(s))).to_affine()
}

/// A functional-mode runner ([`run_xyzz`] or [`run_te`]).
pub type FunctionalRun<C> = fn(&ModelConfig, &[Affine<C>], &[ScalarLimbs]) -> (Report, Affine<C>);

/// Run the model in functional mode over XYZZ points; returns the report and
/// the model's MSM in affine form.
pub fn run_xyzz<C: zkmsm::InputCurve>(
    cfg: &ModelConfig,
    points: &[Affine<C>],
    scalars: &[ScalarLimbs],
) -> (Report, Affine<C>) {
    let mut cfg = cfg.clone();
    cfg.bits = order_bits::<C>();
    let pts: Vec<Xyzz<C>> = points.iter().map(Xyzz::from_affine).collect();
    let (rep, r) = cfg.run_functional(&XyzzGroup::<C>::default(), &pts, scalars);
    (rep, r.to_affine())
}

/// Run the model in functional mode over BLS12-377 twisted Edwards points
/// (the points must have a TE image: subgroup points always do).
pub fn run_te(cfg: &ModelConfig, points: &[Affine<Bls12_377>], scalars: &[ScalarLimbs]) -> (Report, Affine<Bls12_377>) {
    let mut cfg = cfg.clone();
    cfg.bits = order_bits::<Bls12_377>();
    let pts: Vec<TeExtended> = points
        .iter()
        .map(|p| {
            TeExtended::from_affine(&TeAffine::from_weierstrass(p).expect("subgroup points map to twisted Edwards"))
        })
        .collect();
    let (rep, r) = cfg.run_functional(&TeGroup, &pts, scalars);
    let w = r.to_affine().to_weierstrass().unwrap_or_else(Affine::identity);
    (rep, w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::SchedKind;
    use zkmsm_curve::Bls12_381;

    /// Small-c configurations so that aggregation stays cheap at test sizes.
    fn cfg(s: SchedKind, depth: u32) -> ModelConfig {
        let mut c = s.preset();
        c.c = 8;
        c.machine.depth = depth;
        c
    }

    fn check_all<C: zkmsm::InputCurve>(n: usize, set: ScalarSet, run: FunctionalRun<C>) {
        let pts = points::<C>(n, 5);
        let sc = scalars::<C>(n, set, 6);
        let want = reference_msm(&pts, &sc);
        for s in SchedKind::ALL {
            // A ZPrize in-flight time of 3500 makes all-equal inputs take
            // N * 3500 cycles; a shorter pipeline exercises the same logic.
            let depth = match s {
                SchedKind::Zprize => 300,
                _ => s.preset().machine.depth,
            };
            let (rep, got) = run(&cfg(s, depth), &pts, &sc);
            assert_eq!(got, want, "{} n={n} {set:?}", s.name());
            // Read-modify-write datapaths issue every non-zero digit exactly
            // once; the pairing datapath issues one addition fewer per
            // non-empty bucket, so never more.
            if s == SchedKind::Prior {
                assert!(rep.acc.ops <= rep.digit_ops());
            } else {
                assert_eq!(rep.acc.ops, rep.digit_ops(), "{}", s.name());
            }
        }
    }

    #[test]
    fn bls12_381_all_schedulers_uniform() {
        check_all::<Bls12_381>(1 << 9, ScalarSet::Uniform, run_xyzz);
    }

    #[test]
    fn bls12_381_all_schedulers_all_equal() {
        check_all::<Bls12_381>(1 << 7, ScalarSet::AllEqual, run_xyzz);
    }

    #[test]
    fn bls12_377_te_all_schedulers_uniform() {
        check_all::<Bls12_377>(1 << 9, ScalarSet::Uniform, run_te);
    }

    #[test]
    fn bls12_377_edge_cases() {
        check_all::<Bls12_377>(1 << 7, ScalarSet::AllEqual, run_te);
        check_all::<Bls12_377>(64, ScalarSet::Zero, run_xyzz);
        check_all::<Bls12_377>(1, ScalarSet::Uniform, run_xyzz);
        check_all::<Bls12_377>(0, ScalarSet::Uniform, run_te);
    }
}
