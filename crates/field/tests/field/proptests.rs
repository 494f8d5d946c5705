//! Field operations against a big-integer reference (num-bigint), on random and
//! edge values (0, 1, q-1, q-2, values near 2^k).

use num_bigint::BigUint;
use num_traits::{One, Zero};
use proptest::prelude::*;
use zkmsm_field::*;

fn big<const N: usize>(l: &[u64; N]) -> BigUint {
    l.iter().rev().fold(BigUint::zero(), |acc, &x| (acc << 64) + BigUint::from(x))
}

fn from_big<P: FpConfig<N>, const N: usize>(v: &BigUint) -> Fp<P, N> {
    let mut l = [0u64; N];
    for (i, d) in v.to_u64_digits().iter().enumerate() {
        l[i] = *d;
    }
    Fp::from_canonical(l).unwrap()
}

/// Random values mod q, mixed with the edges.
fn element<P: FpConfig<N>, const N: usize>() -> impl Strategy<Value = BigUint> {
    let q = big(&P::MODULUS);
    let edges = vec![
        BigUint::zero(),
        BigUint::one(),
        BigUint::from(2u32),
        &q - 1u32,
        &q - 2u32,
        (&q - 1u32) >> 1,
        BigUint::one() << (64 * N - 65),
    ];
    let q2 = q.clone();
    prop_oneof![
        1 => proptest::sample::select(edges),
        4 => proptest::collection::vec(any::<u64>(), N).prop_map(move |d| {
            d.iter().rev().fold(BigUint::zero(), |acc, &x| (acc << 64) + BigUint::from(x)) % &q2
        }),
    ]
}

fn check_ops<P: FpConfig<N>, const N: usize>(a: BigUint, b: BigUint) {
    let q = big(&P::MODULUS);
    let (fa, fb) = (from_big::<P, N>(&a), from_big::<P, N>(&b));
    assert_eq!(big(&fa.to_canonical()), a);
    assert_eq!(big(&(fa * fb).to_canonical()), (&a * &b) % &q);
    assert_eq!(big(&fa.square().to_canonical()), (&a * &a) % &q);
    assert_eq!(big(&(fa + fb).to_canonical()), (&a + &b) % &q);
    assert_eq!(big(&(fa - fb).to_canonical()), (&a + &q - &b) % &q);
    assert_eq!(big(&(-fa).to_canonical()), (&q - &a) % &q);
    assert_eq!(fa.is_lexicographically_largest(), a > (&q - 1u32) >> 1);
    let bytes = fa.to_bytes_le();
    assert_eq!(bytes.len(), 8 * N);
    assert_eq!(Fp::<P, N>::from_bytes_le(&bytes), Some(fa));
    match fa.inverse() {
        None => assert!(a.is_zero()),
        Some(inv) => assert_eq!(big(&inv.to_canonical()), a.modpow(&(&q - 2u32), &q)),
    }
    // sqrt: a^2 always has a root; the root squares back.
    let sq = fa.square();
    let root = sq.sqrt().expect("a square has a root");
    assert!(root == fa || root == -fa);
    if let Some(r) = fa.sqrt() {
        assert_eq!(r.square(), fa);
    } else {
        assert_eq!(fa.legendre(), -1);
    }
}

macro_rules! field_props {
    ($name:ident, $cfg:ty, $n:literal) => {
        proptest! {
            #![proptest_config(ProptestConfig::with_cases(300))]
            #[test]
            fn $name(a in element::<$cfg, $n>(), b in element::<$cfg, $n>()) {
                check_ops::<$cfg, $n>(a, b);
            }
        }
    };
}

field_props!(bls12_377_fq_ops, Bls12_377FqConfig, 6);
field_props!(bls12_377_fr_ops, Bls12_377FrConfig, 4);
field_props!(bls12_381_fq_ops, Bls12_381FqConfig, 6);
field_props!(bls12_381_fr_ops, Bls12_381FrConfig, 4);
field_props!(bn254_fq_ops, Bn254FqConfig, 4);
field_props!(bn254_fr_ops, Bn254FrConfig, 4);

#[test]
fn non_canonical_bytes_rejected() {
    let q = Bls12_377Fq::MODULUS;
    let bytes: Vec<u8> = q.iter().flat_map(|l| l.to_le_bytes()).collect();
    assert_eq!(Bls12_377Fq::from_bytes_le(&bytes), None);
    assert_eq!(Bls12_377Fq::from_bytes_le(&bytes[..47]), None);
    assert_eq!(Bls12_377Fq::from_bytes_le(&[0xff; 48]), None);
}
