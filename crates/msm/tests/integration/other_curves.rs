//! Curves a user brings: `MsmCurve` is a public trait, and a curve the
//! library does not ship still runs on every backend, on whichever lane
//! arithmetic takes its field (or scalar code where none does). Two short
//! Weierstrass curves with a = 0 and 255- and 256-bit base fields, whose
//! sizes sit between the lane arithmetics' limb counts: Pallas (y^2 = x^3 +
//! 5, Halo 2) and secp256k1 (y^2 = x^3 + 7, Bitcoin and Ethereum). Results
//! are checked against the sum computed in the scalar field from the
//! points' discrete logs, and against the naive double-and-add MSM.

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkmsm::backend::choice::Arithmetic;
use zkmsm::gen::{expected_msm, random_points};
use zkmsm::reference::naive_msm;
use zkmsm::*;
use zkmsm_curve::{Encoding, SwCurve};
use zkmsm_field::limbs::from_hex;
use zkmsm_field::{Field, Fp, FpConfig, PrimeField};

macro_rules! field {
    ($cfg:ident, $ty:ident, $name:literal, $hex:literal, $nr:literal) => {
        #[derive(Debug)]
        struct $cfg;
        impl FpConfig<4> for $cfg {
            const MODULUS: [u64; 4] = from_hex($hex);
            const NONRESIDUE: u64 = $nr;
            const NAME: &'static str = $name;
        }
        type $ty = Fp<$cfg, 4>;
    };
}

field!(PallasFqConfig, PallasFq, "pallas::Fq", "0x40000000000000000000000000000000224698fc094cf91b992d30ed00000001", 5);
field!(PallasFrConfig, PallasFr, "pallas::Fr", "0x40000000000000000000000000000000224698fc0994a8dd8c46eb2100000001", 5);
field!(SecpFqConfig, SecpFq, "secp256k1::Fq", "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f", 3);
field!(SecpFrConfig, SecpFr, "secp256k1::Fr", "0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141", 5);

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Pallas;
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Secp256k1;

/// The field element of canonical little-endian limbs.
fn element<F: PrimeField>(l: &[u64; 4]) -> F {
    let bytes: Vec<u8> = l.iter().flat_map(|w| w.to_le_bytes()).collect();
    F::from_bytes_le(&bytes).expect("below the modulus")
}

impl SwCurve for Pallas {
    type Base = PallasFq;
    const NAME: &'static str = "pallas";
    const ORDER: &'static [u64] = &<PallasFrConfig as FpConfig<4>>::MODULUS;
    const COFACTOR: &'static [u64] = &[1];
    fn coeff_b() -> PallasFq {
        PallasFq::from_u64(5)
    }
    fn generator() -> Affine<Self> {
        // (-1, 2): (-1)^3 + 5 = 4
        Affine::new_unchecked(-PallasFq::ONE, PallasFq::from_u64(2))
    }
}

impl MsmCurve for Pallas {
    type Scalar = PallasFr;
    const ENCODING: Encoding = Encoding::ArkworksLe;
    fn scalar_to_limbs(s: &PallasFr) -> [u64; 4] {
        s.to_canonical()
    }
}

impl SwCurve for Secp256k1 {
    type Base = SecpFq;
    const NAME: &'static str = "secp256k1";
    const ORDER: &'static [u64] = &<SecpFrConfig as FpConfig<4>>::MODULUS;
    const COFACTOR: &'static [u64] = &[1];
    fn coeff_b() -> SecpFq {
        SecpFq::from_u64(7)
    }
    fn generator() -> Affine<Self> {
        Affine::new_unchecked(
            element(&from_hex("0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798")),
            element(&from_hex("0x483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8")),
        )
    }
}

impl MsmCurve for Secp256k1 {
    type Scalar = SecpFr;
    const ENCODING: Encoding = Encoding::ArkworksLe;
    fn scalar_to_limbs(s: &SecpFr) -> [u64; 4] {
        s.to_canonical()
    }
}

/// r - 1 as limbs.
fn r_minus_1<C: zkmsm::InputCurve>() -> ScalarLimbs {
    C::scalar_to_limbs(&-C::Scalar::ONE)
}

/// Random points and scalars, then the adversarial ones: P and -P,
/// repeats, the identity; scalars 0, 1, r - 1, repeated. Returns the
/// points, the scalars and the expected sum, computed in the scalar field
/// from the points' discrete logs (no group arithmetic of the library's
/// fast paths) and checked against the naive MSM.
fn inputs<C: zkmsm::InputCurve>(n: usize, seed: u64) -> (Vec<Affine<C>>, Vec<ScalarLimbs>, Affine<C>) {
    let known = random_points::<C>(n, seed);
    let (mut points, mut dlogs) = (known.points, known.dlogs);
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut scalars: Vec<ScalarLimbs> = (0..n).map(|_| C::scalar_to_limbs(&C::Scalar::random(&mut rng))).collect();
    if n >= 8 {
        (points[1], dlogs[1]) = (points[0].neg(), -dlogs[0]);
        (points[2], dlogs[2]) = (points[0], dlogs[0]);
        (points[3], dlogs[3]) = (Affine::identity(), C::Scalar::ZERO);
        scalars[4] = [0; 4];
        scalars[5] = r_minus_1::<C>();
        scalars[6] = [1, 0, 0, 0];
        scalars[7] = scalars[0];
    }
    let s: Vec<C::Scalar> = scalars.iter().map(element).collect();
    let want = expected_msm::<C>(&dlogs, &s);
    assert_eq!(want, naive_msm(&points, &scalars), "{}: the two references agree", C::NAME);
    (points, scalars, want)
}

fn run<C: zkmsm::InputCurve, B: Backend<C>>(
    builder: &MsmBuilder,
    backend: B,
    points: &[Affine<C>],
    scalars: &[ScalarLimbs],
) -> Affine<C> {
    let ctx = builder.build_context(backend, points).expect("valid points");
    ctx.msm_bigint(scalars).expect("valid scalars")
}

fn every_backend<C: zkmsm::InputCurve>() {
    // no lane engine takes a field it would get wrong: on these 255- and
    // 256-bit fields the IFMA limb counts (five, eight) do not, six FMA limbs do
    let lanes = BatchAffineBackend::<GreedyScheduler>::default();
    let want = if zkmsm::backend::lanes::fma_enabled() { Arithmetic::Fma } else { Arithmetic::Scalar };
    assert_eq!(lanes.arithmetic_on::<C>(), want, "{}", C::NAME);
    let plain = MsmBuilder::new();
    for (n, seed) in [(0usize, 1u64), (1, 2), (8, 3), (300, 4), (5000, 5)] {
        let (points, scalars, want) = inputs::<C>(n, seed);
        let backends: [(&str, BatchAffineBackend); 3] = [
            ("batch-affine", BatchAffineBackend::default()),
            ("batch-affine fma", BatchAffineBackend::default().fma_only()),
            ("batch-affine scalar", BatchAffineBackend::default().scalar_only()),
        ];
        for (name, b) in backends {
            assert_eq!(run::<C, _>(&plain, b, &points, &scalars), want, "{} n = {n}: {name}", C::NAME);
        }
        let delayed = BatchAffineBackend::new(DelayedScheduler::default());
        assert_eq!(run::<C, _>(&plain, delayed, &points, &scalars), want, "{} n = {n}: delayed", C::NAME);
        assert_eq!(run::<C, _>(&plain, XyzzBackend, &points, &scalars), want, "{} n = {n}: xyzz", C::NAME);
    }
    // all scalars equal, one window forced small and one large
    let (points, _, _) = inputs::<C>(2000, 6);
    let mut rng = ChaCha20Rng::seed_from_u64(6);
    let scalars = vec![C::scalar_to_limbs(&C::Scalar::random(&mut rng)); points.len()];
    let want = naive_msm(&points, &scalars);
    for c in [3u32, 13] {
        let b = MsmBuilder::new().window(Some(c));
        let got = run::<C, _>(&b, BatchAffineBackend::<GreedyScheduler>::default(), &points, &scalars);
        assert_eq!(got, want, "{} all scalars equal, c = {c}", C::NAME);
    }
}

// A curve of another crate is one line to the backends.
zkmsm::lane_curves!(prime: Pallas, Secp256k1);

#[test]
fn pallas_on_every_backend() {
    every_backend::<Pallas>();
}

#[test]
fn secp256k1_on_every_backend() {
    every_backend::<Secp256k1>();
}

/// The public batch exponentiation (the lane roots' engine) on fields of
/// 255 and 256 bits: each value's power against `Fp::pow`, on whichever
/// arithmetic `pow_engine` names for the field.
fn powers<P: FpConfig<4>>() {
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    let mut values: Vec<Fp<P, 4>> = vec![Fp::ZERO, Fp::ONE, -Fp::<P, 4>::ONE];
    values.extend((0..997).map(|_| Fp::random(&mut rng)));
    let e = [0x0123_4567_89ab_cdef, u64::MAX, 0, 0x8000_0000_0000_0001];
    let want: Vec<Fp<P, 4>> = values.iter().map(|x| x.pow(&e)).collect();
    zkmsm::lane_roots::pow_batch(&mut values, &e);
    assert!(values == want, "{}: pow_batch on {}", P::NAME, zkmsm::lane_roots::pow_engine::<Fp<P, 4>>());
}

#[test]
fn lane_powers_on_255_and_256_bit_fields() {
    powers::<PallasFqConfig>();
    powers::<SecpFqConfig>();
}
