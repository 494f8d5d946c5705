//! arkworks-native entry point (cargo feature `ark`, arkworks 0.5): MSMs over
//! `ark_bls12_377::G1Affine` / `ark_bls12_381::G1Affine` / `ark_bn254::G1Affine` points, and
//! their `G2Affine` points (the same functions), and their `Fr` scalars,
//! returning the arkworks projective point, with zkmsm's engine underneath.
//!
//! ```
//! use ark_bls12_381::{Fr, G1Affine, G1Projective};
//! use ark_ec::{AffineRepr, CurveGroup, VariableBaseMSM};
//! use ark_ff::UniformRand;
//!
//! let mut rng = ark_std::test_rng();
//! let points: Vec<G1Affine> = (0..100).map(|_| G1Projective::rand(&mut rng).into_affine()).collect();
//! let scalars: Vec<Fr> = (0..100).map(|_| Fr::rand(&mut rng)).collect();
//!
//! let r = zkmsm::ark::msm(&points, &scalars).unwrap();          // one-shot
//! let ctx = zkmsm::ark::ArkMsm::new(&points).unwrap();          // points set up once
//! assert_eq!(ctx.msm(&scalars).unwrap(), r);
//! assert_eq!(G1Projective::msm(&points, &scalars).unwrap(), r);
//! ```
//!
//! Conversion costs almost nothing: arkworks and zkmsm both keep base-field
//! elements in Montgomery form with R = 2^384 over the same modulus, so a
//! point is converted by copying its limbs (checked against the canonical
//! encodings by the tests); a scalar takes one Montgomery reduction
//! (`into_bigint`), as arkworks' own MSM does. docs/BENCHMARKS.md has the
//! measured cost.
//!
//! Validation: an arkworks `G1Affine` (or `G2Affine`) is trusted to be a valid subgroup point,
//! as `VariableBaseMSM::msm` trusts it (arkworks checks points when it
//! deserializes them with validation). [`ArkMsm::with_options`] can check
//! them again ([`Validation::Full`]) once, when the context is built.

use crate::backend::choice::BackendChoice;
use crate::builder::{EngineCurve, MsmBuilder};
use crate::engine::MsmEngine;
use crate::error::MsmError;
use crate::input::validate::Validation;
use crate::pipeline::digits::ScalarLimbs;
use ark_ec::short_weierstrass::Affine as SwAffine;
use ark_ec::AffineRepr;
use ark_ff::BigInt;
use rayon::prelude::*;
use zkmsm_curve::{Affine, Bls12_377, Bls12_377G2, Bls12_381, Bls12_381G2, Bn254, Bn254G2, Xyzz};
use zkmsm_field::{Bls12_377Fq, Bls12_377Fq2, Bls12_381Fq, Bls12_381Fq2, Bn254Fq, Bn254Fq2};

/// An arkworks affine point type that zkmsm can run MSMs over: `G1Affine`
/// and `G2Affine` of `ark_bls12_377`, `ark_bls12_381` and `ark_bn254`.
pub trait ArkAffine: AffineRepr {
    /// zkmsm's curve for this point type.
    type Curve: EngineCurve;
    /// The zkmsm point with the same coordinates (a copy of the Montgomery limbs).
    fn to_zkmsm(&self) -> Affine<Self::Curve>;
    /// The arkworks point with the same coordinates.
    fn from_zkmsm(p: &Affine<Self::Curve>) -> Self;
}

/// A coordinate as both libraries hold it: the same Montgomery limbs over
/// the same modulus (Fq), or two of them (Fq2, the same non-residue: -5 on
/// BLS12-377, -1 on BLS12-381 and BN254).
trait Coordinate<Z> {
    fn to_zk(&self) -> Z;
    fn from_zk(z: &Z) -> Self;
}

macro_rules! coordinates {
    ($($fq:ty, $arkfq:ty, $fq2:ty, $arkfq2:ty;)*) => {$(
        impl Coordinate<$fq> for $arkfq {
            #[inline]
            fn to_zk(&self) -> $fq {
                // both store a * 2^(64 N) mod q in N little-endian limbs
                // (N = 6 on the BLS12 curves, 4 on BN254)
                <$fq>::from_mont_limbs(self.0 .0)
            }
            fn from_zk(z: &$fq) -> Self {
                <$arkfq>::new_unchecked(BigInt(*z.mont_limbs()))
            }
        }
        impl Coordinate<$fq2> for $arkfq2 {
            #[inline]
            fn to_zk(&self) -> $fq2 {
                <$fq2>::new(self.c0.to_zk(), self.c1.to_zk())
            }
            fn from_zk(z: &$fq2) -> Self {
                <$arkfq2>::new(Coordinate::from_zk(&z.c0), Coordinate::from_zk(&z.c1))
            }
        }
    )*};
}
coordinates! {
    Bls12_377Fq, ark_bls12_377::Fq, Bls12_377Fq2, ark_bls12_377::Fq2;
    Bls12_381Fq, ark_bls12_381::Fq, Bls12_381Fq2, ark_bls12_381::Fq2;
    Bn254Fq, ark_bn254::Fq, Bn254Fq2, ark_bn254::Fq2;
}

macro_rules! ark_affine {
    ($($ark:ty => $curve:ty;)*) => {$(
        impl ArkAffine for $ark {
            type Curve = $curve;
            #[inline]
            fn to_zkmsm(&self) -> Affine<$curve> {
                if self.infinity {
                    return Affine::identity();
                }
                Affine::new_unchecked(self.x.to_zk(), self.y.to_zk())
            }
            fn from_zkmsm(p: &Affine<$curve>) -> Self {
                if p.infinity {
                    return <$ark>::identity();
                }
                <$ark>::new_unchecked(Coordinate::from_zk(&p.x), Coordinate::from_zk(&p.y))
            }
        }
    )*};
}
// Named by their curve configurations (what `G1Affine` and `G2Affine`
// alias), which the coherence check can tell apart.
ark_affine! {
    SwAffine<ark_bls12_377::g1::Config> => Bls12_377;
    SwAffine<ark_bls12_381::g1::Config> => Bls12_381;
    SwAffine<ark_bn254::g1::Config> => Bn254;
    SwAffine<ark_bls12_377::g2::Config> => Bls12_377G2;
    SwAffine<ark_bls12_381::g2::Config> => Bls12_381G2;
    SwAffine<ark_bn254::g2::Config> => Bn254G2;
}

/// The points as zkmsm points, converted in parallel.
pub fn points_to_zkmsm<A: ArkAffine>(points: &[A]) -> Vec<Affine<A::Curve>> {
    points.par_iter().map(A::to_zkmsm).collect()
}

/// Canonical little-endian limbs of arkworks scalars (one Montgomery
/// reduction each), in parallel.
pub fn scalars_to_limbs<F: ark_ff::PrimeField<BigInt = BigInt<4>>>(scalars: &[F]) -> Vec<ScalarLimbs> {
    scalars.par_iter().map(|s| s.into_bigint().0).collect()
}

fn to_ark<A: ArkAffine>(p: &Xyzz<A::Curve>) -> A::Group {
    A::from_zkmsm(&p.to_affine()).into_group()
}

/// How [`ArkMsm::with_options`] sets up its points.
#[derive(Debug, Clone, Copy)]
pub struct ArkOptions {
    /// Bucket-accumulation backend (default: [`BackendChoice::Auto`]).
    pub backend: BackendChoice,
    /// What to check of the points (default: nothing, see the module docs).
    pub validation: Validation,
    /// Fixed-base mode with this many shifted copies of the points
    /// (default: `None`, plain mode); see [`crate::pipeline::fixed_base`].
    pub precompute: Option<u32>,
}

impl Default for ArkOptions {
    fn default() -> Self {
        Self { backend: BackendChoice::Auto, validation: Validation::AlreadyValidated, precompute: None }
    }
}

/// Points set up once (converted, prepared for the backend), then any number
/// of MSMs against them: the arkworks-typed face of [`crate::MsmContext`].
pub struct ArkMsm<A: ArkAffine> {
    engine: Box<dyn MsmEngine<A::Curve>>,
}

impl<A: ArkAffine> ArkMsm<A>
where
    A::ScalarField: ark_ff::PrimeField<BigInt = BigInt<4>>,
{
    /// A context over `points` with the default options ([`ArkOptions`]).
    pub fn new(points: &[A]) -> Result<Self, MsmError> {
        Self::with_options(points, ArkOptions::default())
    }

    /// A context over `points` with the given backend, validation and
    /// fixed-base mode.
    pub fn with_options(points: &[A], options: ArkOptions) -> Result<Self, MsmError> {
        let engine = MsmBuilder::new()
            .backend(options.backend)
            .validation(options.validation)
            .precompute(options.precompute)
            .build(points_to_zkmsm(points))?;
        Ok(Self { engine })
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.engine.len()
    }

    /// No points.
    pub fn is_empty(&self) -> bool {
        self.engine.is_empty()
    }

    /// The backend in use, by name.
    pub fn backend_name(&self) -> &'static str {
        self.engine.backend_name()
    }

    /// `sum_i scalars[i] * points[i]`; an error if the lengths differ.
    pub fn msm(&self, scalars: &[A::ScalarField]) -> Result<A::Group, MsmError> {
        if scalars.len() != self.len() {
            return Err(MsmError::LengthMismatch { points: self.len(), scalars: scalars.len() });
        }
        let limbs = scalars_to_limbs(scalars);
        Ok(to_ark::<A>(&self.engine.msm_report(&limbs)?.result))
    }
}

/// One-shot `sum_i scalars[i] * points[i]`, the drop-in for
/// `VariableBaseMSM::msm` (which it beats from 2^12 points up,
/// docs/BENCHMARKS.md). Lengths that differ are an error, as there.
pub fn msm<A: ArkAffine>(points: &[A], scalars: &[A::ScalarField]) -> Result<A::Group, MsmError>
where
    A::ScalarField: ark_ff::PrimeField<BigInt = BigInt<4>>,
{
    if points.len() != scalars.len() {
        return Err(MsmError::LengthMismatch { points: points.len(), scalars: scalars.len() });
    }
    ArkMsm::new(points)?.msm(scalars)
}
