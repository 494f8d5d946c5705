//! What the checks need per curve: a fixed-base table for building points
//! with known discrete logs, and arkworks' MSM as an outside reference.

use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_ff::PrimeField as _;
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize, Compress, Validate};
use std::sync::OnceLock;
use zkmsm::gen::FixedBaseTable;
use zkmsm::{Affine, Bls12_377, Bls12_381, Bn254, EngineCurve, ScalarLimbs};
use zkmsm_curve::PointFormat;

/// A curve the checks run on: zkmsm's engine curve with a fixed-base table for points of known discrete log and arkworks as the reference.
pub trait TestCurve: EngineCurve {
    /// v * 2^(8j) * G: 32 additions per point with a known discrete log.
    fn table() -> &'static FixedBaseTable<Self>;
    /// arkworks' `VariableBaseMSM::msm` of the same points and scalars, as
    /// the compressed encoding of the result.
    fn arkworks_msm(points: &[Affine<Self>], scalars: &[ScalarLimbs]) -> Vec<u8>;
}

macro_rules! test_curve {
    ($curve:ty, $ark:ident) => {
        impl TestCurve for $curve {
            fn table() -> &'static FixedBaseTable<Self> {
                static T: OnceLock<FixedBaseTable<$curve>> = OnceLock::new();
                T.get_or_init(|| FixedBaseTable::new(&<$curve as zkmsm::SwCurve>::generator()))
            }

            fn arkworks_msm(points: &[Affine<Self>], scalars: &[ScalarLimbs]) -> Vec<u8> {
                // through the uncompressed encoding, which is arkworks' own
                let bases: Vec<$ark::G1Affine> = points
                    .iter()
                    .map(|p| {
                        let b = p.to_bytes(PointFormat::Uncompressed);
                        $ark::G1Affine::deserialize_with_mode(&b[..], Compress::No, Validate::No).unwrap()
                    })
                    .collect();
                let scalars: Vec<$ark::Fr> = scalars
                    .iter()
                    .map(|s| {
                        let bytes: Vec<u8> = s.iter().flat_map(|l| l.to_le_bytes()).collect();
                        $ark::Fr::from_le_bytes_mod_order(&bytes)
                    })
                    .collect();
                let r = $ark::G1Projective::msm(&bases, &scalars).unwrap().into_affine();
                let mut out = Vec::new();
                r.serialize_compressed(&mut out).unwrap();
                out
            }
        }
    };
}

test_curve!(Bls12_377, ark_bls12_377);
test_curve!(Bls12_381, ark_bls12_381);
test_curve!(Bn254, ark_bn254);
