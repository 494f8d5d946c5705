//! The moduli are not trusted as pasted: re-derive them from each curve's seed
//! x and compare with arkworks. BLS12: q = (x-1)^2 (x^4 - x^2 + 1)/3 + x,
//! r = x^4 - x^2 + 1. BN: q = 36x^4 + 36x^3 + 24x^2 + 6x + 1, r = q - 6x^2.

use ark_ff::PrimeField as ArkPrimeField;
use num_bigint::{BigInt, BigUint};
use zkmsm_field::*;

fn limbs_to_big(l: &[u64]) -> BigUint {
    l.iter().rev().fold(BigUint::from(0u32), |acc, &x| (acc << 64) + BigUint::from(x))
}

fn from_seed(x: BigInt) -> (BigInt, BigInt) {
    let r = x.pow(4) - x.pow(2) + 1;
    let xm1: BigInt = &x - 1;
    let q = xm1.pow(2) * &r / 3 + &x;
    (q, r)
}

fn bn_from_seed(x: BigInt) -> (BigInt, BigInt) {
    let q = 36 * x.pow(4) + 36 * x.pow(3) + 24 * x.pow(2) + 6 * &x + 1;
    let r = &q - 6 * x.pow(2);
    (q, r)
}

fn ark_modulus<F: ArkPrimeField>() -> BigUint {
    F::MODULUS.into()
}

#[test]
fn bls12_377_moduli_from_seed_and_arkworks() {
    let (q, r) = from_seed(BigInt::from(0x8508c00000000001u64));
    assert_eq!(limbs_to_big(&Bls12_377Fq::MODULUS), q.to_biguint().unwrap());
    assert_eq!(limbs_to_big(&Bls12_377Fr::MODULUS), r.to_biguint().unwrap());
    assert_eq!(limbs_to_big(&Bls12_377Fq::MODULUS), ark_modulus::<ark_bls12_377::Fq>());
    assert_eq!(limbs_to_big(&Bls12_377Fr::MODULUS), ark_modulus::<ark_bls12_377::Fr>());
    assert_eq!(Bls12_377Fq::NUM_BITS, 377);
    assert_eq!(Bls12_377Fr::NUM_BITS, 253);
}

#[test]
fn bls12_381_moduli_from_seed_and_arkworks() {
    let (q, r) = from_seed(-BigInt::from(0xd201000000010000u64));
    assert_eq!(limbs_to_big(&Bls12_381Fq::MODULUS), q.to_biguint().unwrap());
    assert_eq!(limbs_to_big(&Bls12_381Fr::MODULUS), r.to_biguint().unwrap());
    assert_eq!(limbs_to_big(&Bls12_381Fq::MODULUS), ark_modulus::<ark_bls12_381::Fq>());
    assert_eq!(limbs_to_big(&Bls12_381Fr::MODULUS), ark_modulus::<ark_bls12_381::Fr>());
    assert_eq!(Bls12_381Fq::NUM_BITS, 381);
    assert_eq!(Bls12_381Fr::NUM_BITS, 255);
}

#[test]
fn bn254_moduli_from_seed_and_arkworks() {
    let (q, r) = bn_from_seed(BigInt::from(4965661367192848881u64));
    assert_eq!(limbs_to_big(&Bn254Fq::MODULUS), q.to_biguint().unwrap());
    assert_eq!(limbs_to_big(&Bn254Fr::MODULUS), r.to_biguint().unwrap());
    assert_eq!(limbs_to_big(&Bn254Fq::MODULUS), ark_modulus::<ark_bn254::Fq>());
    assert_eq!(limbs_to_big(&Bn254Fr::MODULUS), ark_modulus::<ark_bn254::Fr>());
    assert_eq!(Bn254Fq::NUM_BITS, 254);
    assert_eq!(Bn254Fr::NUM_BITS, 254);
}

fn check_derived<P: FpConfig<N>, const N: usize>() {
    let q = limbs_to_big(&P::MODULUS);
    let r = BigUint::from(1u32) << (64 * N);
    assert_eq!(limbs_to_big(&Fp::<P, N>::R), &r % &q, "{}: R", P::NAME);
    assert_eq!(limbs_to_big(&Fp::<P, N>::R2), (&r * &r) % &q, "{}: R^2", P::NAME);
    let inv = BigUint::from(Fp::<P, N>::INV);
    let word = BigUint::from(1u32) << 64;
    assert_eq!((&q * inv + 1u32) % word, BigUint::from(0u32), "{}: -q^-1", P::NAME);
    // The stated non-residue really is one (Tonelli-Shanks depends on it).
    assert_eq!(Fp::<P, N>::from_u64(P::NONRESIDUE).legendre(), -1, "{}: non-residue", P::NAME);
}

#[test]
fn montgomery_constants_and_nonresidues() {
    check_derived::<Bls12_377FqConfig, 6>();
    check_derived::<Bls12_377FrConfig, 4>();
    check_derived::<Bls12_381FqConfig, 6>();
    check_derived::<Bls12_381FrConfig, 4>();
    check_derived::<Bn254FqConfig, 4>();
    check_derived::<Bn254FrConfig, 4>();
    check_derived::<F17Config, 1>();
}

#[test]
fn toy_field_exhaustive() {
    // Every pair in F17 against integer arithmetic; every inverse and square root.
    for a in 0..17u64 {
        let fa = F17::from_u64(a);
        assert_eq!(fa.to_canonical()[0], a);
        for b in 0..17u64 {
            let fb = F17::from_u64(b);
            assert_eq!((fa * fb).to_canonical()[0], a * b % 17);
            assert_eq!((fa + fb).to_canonical()[0], (a + b) % 17);
            assert_eq!((fa - fb).to_canonical()[0], (a + 17 - b) % 17);
        }
        match fa.inverse() {
            None => assert_eq!(a, 0),
            Some(i) => assert_eq!((i * fa), F17::ONE),
        }
        let is_square = (0..17u64).any(|y| y * y % 17 == a);
        match fa.sqrt() {
            Some(s) => assert_eq!(s.square(), fa),
            None => assert!(!is_square, "{a} is a square"),
        }
    }
}

/// The Montgomery words round-trip, are x R mod q (ONE gives R, a product
/// multiplies them as Montgomery does), and a value at or above q is refused.
fn montgomery_words_round_trip<P: FpConfig<N>, const N: usize>() {
    use rand::SeedableRng;
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let mut w = [0u64; 8];
    Fp::<P, N>::ONE.write_montgomery_words(&mut w);
    assert_eq!(&w[..N], &Fp::<P, N>::R[..]);
    for _ in 0..200 {
        let x = <Fp<P, N> as Field>::random(&mut rng);
        x.write_montgomery_words(&mut w);
        assert_eq!(&w[..N], &x.mont_limbs()[..]);
        assert_eq!(Fp::<P, N>::from_montgomery_words(&w[..N]), Some(x));
    }
    assert_eq!(Fp::<P, N>::from_montgomery_words(&P::MODULUS), None, "q");
    assert_eq!(Fp::<P, N>::from_montgomery_words(&[u64::MAX; N]), None, "2^(64N) - 1");
    assert_eq!(Fp::<P, N>::from_montgomery_words(&P::MODULUS[..N - 1]), None, "too few words");
    let mut below = P::MODULUS;
    below[0] -= 1;
    assert!(Fp::<P, N>::from_montgomery_words(&below).is_some(), "q - 1");
}

#[test]
fn montgomery_words_of_every_field() {
    montgomery_words_round_trip::<Bls12_377FqConfig, 6>();
    montgomery_words_round_trip::<Bls12_381FqConfig, 6>();
    montgomery_words_round_trip::<Bls12_377FrConfig, 4>();
    montgomery_words_round_trip::<Bls12_381FrConfig, 4>();
    montgomery_words_round_trip::<Bn254FqConfig, 4>();
    montgomery_words_round_trip::<Bn254FrConfig, 4>();
}
