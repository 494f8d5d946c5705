//! The arkworks-native API (`zkmsm::ark`, feature `ark`) against arkworks'
//! own `VariableBaseMSM::msm` and against zkmsm on the same points taken
//! through the canonical encodings (so the limb-copy conversion is checked
//! independently), on random and adversarial inputs, every curve, G1 and G2.
#![cfg(feature = "ark")]

use ark_ec::short_weierstrass::Affine as SwAffine;
use ark_ec::{CurveGroup, PrimeGroup, VariableBaseMSM};
use ark_ff::{Field, PrimeField, UniformRand, Zero};
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkmsm::ark::{msm, points_to_zkmsm, scalars_to_limbs, ArkAffine, ArkMsm, ArkOptions};
use zkmsm::{BackendChoice, MsmError, Validation};
use zkmsm_curve::PointFormat;

trait Case: ArkAffine + CanonicalSerialize + CanonicalDeserialize
where
    Self::ScalarField: PrimeField<BigInt = ark_ff::BigInt<4>>,
{
    const BACKENDS: &'static [BackendChoice];
}
impl Case for SwAffine<ark_bls12_377::g1::Config> {
    const BACKENDS: &'static [BackendChoice] = &[
        BackendChoice::Auto,
        BackendChoice::Xyzz,
        BackendChoice::BatchAffineGreedy,
        BackendChoice::BatchAffineDelayed,
        BackendChoice::TwistedEdwards,
    ];
}
impl Case for SwAffine<ark_bls12_381::g1::Config> {
    const BACKENDS: &'static [BackendChoice] = &[
        BackendChoice::Auto,
        BackendChoice::Xyzz,
        BackendChoice::BatchAffineGreedy,
        BackendChoice::BatchAffineDelayed,
    ];
}
impl Case for SwAffine<ark_bn254::g1::Config> {
    const BACKENDS: &'static [BackendChoice] = &[
        BackendChoice::Auto,
        BackendChoice::Xyzz,
        BackendChoice::BatchAffineGreedy,
        BackendChoice::BatchAffineDelayed,
    ];
}

/// G2: no twisted Edwards form.
macro_rules! g2_case {
    ($($config:ty),*) => {$(
        impl Case for SwAffine<$config> {
            const BACKENDS: &'static [BackendChoice] = &[
                BackendChoice::Auto,
                BackendChoice::Xyzz,
                BackendChoice::BatchAffineGreedy,
                BackendChoice::BatchAffineDelayed,
            ];
        }
    )*};
}
g2_case!(ark_bls12_377::g2::Config, ark_bls12_381::g2::Config, ark_bn254::g2::Config);

fn random_points<A: Case>(n: usize, rng: &mut ChaCha20Rng) -> Vec<A>
where
    A::ScalarField: PrimeField<BigInt = ark_ff::BigInt<4>>,
{
    let g = A::Group::generator();
    (0..n).map(|_| (g * A::ScalarField::rand(rng)).into_affine()).collect()
}

fn random_scalars<A: Case>(n: usize, rng: &mut ChaCha20Rng) -> Vec<A::ScalarField>
where
    A::ScalarField: PrimeField<BigInt = ark_ff::BigInt<4>>,
{
    (0..n).map(|_| A::ScalarField::rand(rng)).collect()
}

/// Points and scalars that have broken MSMs before: identity points, P and
/// -P, repeated points, zero, one and r-1 scalars, all scalars equal.
fn adversarial<A: Case>(n: usize, rng: &mut ChaCha20Rng) -> (Vec<A>, Vec<A::ScalarField>)
where
    A::ScalarField: PrimeField<BigInt = ark_ff::BigInt<4>>,
{
    let base = random_points::<A>(4, rng);
    let minus_one = -A::ScalarField::ONE;
    let points = (0..n)
        .map(|i| match i % 5 {
            0 => A::zero(),
            1 => base[0],
            2 => (-base[0].into_group()).into_affine(),
            3 => base[1],
            _ => base[i % 4],
        })
        .collect();
    let scalars = (0..n)
        .map(|i| match i % 4 {
            0 => A::ScalarField::zero(),
            1 => minus_one,
            2 => A::ScalarField::ONE,
            _ => minus_one,
        })
        .collect();
    (points, scalars)
}

fn check<A: Case>(points: &[A], scalars: &[A::ScalarField])
where
    A::ScalarField: PrimeField<BigInt = ark_ff::BigInt<4>>,
{
    let expected = A::Group::msm(points, scalars).unwrap();
    assert_eq!(msm(points, scalars).unwrap(), expected, "one-shot, n = {}", points.len());
    for &backend in A::BACKENDS {
        for precompute in [None, Some(2)] {
            let ctx = ArkMsm::with_options(points, ArkOptions { backend, precompute, ..Default::default() }).unwrap();
            assert_eq!(ctx.msm(scalars).unwrap(), expected, "{backend:?} x{precompute:?}, n = {}", points.len());
        }
    }
}

fn random_and_adversarial<A: Case>()
where
    A::ScalarField: PrimeField<BigInt = ark_ff::BigInt<4>>,
{
    let mut rng = ChaCha20Rng::seed_from_u64(12);
    for n in [0usize, 1, 2, 3, 17, 256, 1000, 4096] {
        let points = random_points::<A>(n, &mut rng);
        check(&points, &random_scalars::<A>(n, &mut rng));
        let (points, scalars) = adversarial::<A>(n, &mut rng);
        check(&points, &scalars);
        // all scalars equal
        let s = A::ScalarField::rand(&mut rng);
        check(&random_points::<A>(n, &mut rng), &vec![s; n]);
    }
}

#[test]
fn bls12_377_matches_arkworks() {
    random_and_adversarial::<ark_bls12_377::G1Affine>();
}

#[test]
fn bls12_381_matches_arkworks() {
    random_and_adversarial::<ark_bls12_381::G1Affine>();
}

#[test]
fn bn254_matches_arkworks() {
    random_and_adversarial::<ark_bn254::G1Affine>();
}

#[test]
fn g2_matches_arkworks() {
    random_and_adversarial::<ark_bls12_377::G2Affine>();
    random_and_adversarial::<ark_bls12_381::G2Affine>();
    random_and_adversarial::<ark_bn254::G2Affine>();
}

/// The limb copy equals decoding arkworks' canonical encoding, both ways.
fn conversion_matches_encodings<A: Case>()
where
    A::ScalarField: PrimeField<BigInt = ark_ff::BigInt<4>>,
{
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let mut points = random_points::<A>(200, &mut rng);
    points.push(A::zero());
    points.push(A::generator());
    for (p, z) in points.iter().zip(points_to_zkmsm(&points)) {
        let mut b = Vec::new();
        p.serialize_uncompressed(&mut b).unwrap();
        assert_eq!(z, zkmsm::Affine::from_bytes(&b, PointFormat::Uncompressed).unwrap());
        assert_eq!(A::from_zkmsm(&z), *p);
    }
    let scalars = random_scalars::<A>(100, &mut rng);
    for (s, l) in scalars.iter().zip(scalars_to_limbs(&scalars)) {
        assert_eq!(l, s.into_bigint().0);
        let bytes: Vec<u8> = l.iter().flat_map(|x| x.to_le_bytes()).collect();
        assert_eq!(A::ScalarField::from_le_bytes_mod_order(&bytes), *s);
    }
}

#[test]
fn conversion_is_the_canonical_one() {
    conversion_matches_encodings::<ark_bls12_377::G1Affine>();
    conversion_matches_encodings::<ark_bls12_381::G1Affine>();
    conversion_matches_encodings::<ark_bn254::G1Affine>();
    conversion_matches_encodings::<ark_bls12_377::G2Affine>();
    conversion_matches_encodings::<ark_bls12_381::G2Affine>();
    conversion_matches_encodings::<ark_bn254::G2Affine>();
}

#[test]
fn errors_name_what_is_wrong() {
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let points = random_points::<ark_bls12_381::G1Affine>(10, &mut rng);
    let scalars = random_scalars::<ark_bls12_381::G1Affine>(9, &mut rng);
    assert!(matches!(msm(&points, &scalars), Err(MsmError::LengthMismatch { points: 10, scalars: 9 })));
    let ctx = ArkMsm::new(&points).unwrap();
    assert!(matches!(ctx.msm(&scalars), Err(MsmError::LengthMismatch { .. })));

    // A point off the curve, made with arkworks' unchecked constructor, is
    // caught by a validating context and named by index.
    let mut bad = points.clone();
    bad[7] = ark_bls12_381::G1Affine::new_unchecked(points[7].x, points[7].y + ark_bls12_381::Fq::ONE);
    let full = ArkOptions { validation: Validation::Full, ..Default::default() };
    assert!(matches!(ArkMsm::with_options(&bad, full), Err(MsmError::PointNotOnCurve { index: 7 })));
    assert!(matches!(
        ArkMsm::<ark_bls12_381::G1Affine>::with_options(
            &points,
            ArkOptions { backend: BackendChoice::TwistedEdwards, ..Default::default() }
        ),
        Err(MsmError::Unsupported(_))
    ));
}
