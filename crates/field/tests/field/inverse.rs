//! The divstep inversion (`PrimeField::inverse`) against Fermat
//! (`Fp::inverse_fermat`), arkworks and a num-bigint reference, on random values
//! and adversarial ones: 1, 2, q-1, q-2, (q-1)/2, (q+1)/2, every power of two
//! below q, q - 2^k, single high bits, all-ones limb patterns reduced mod q,
//! values with few bits, and the Montgomery constants R and R^2 as values.

use ark_ff::BigInteger;
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

fn adversarial<const N: usize>(q: &BigUint) -> Vec<BigUint> {
    let mut v = vec![
        BigUint::one(),
        BigUint::from(2u32),
        BigUint::from(3u32),
        q - 1u32,
        q - 2u32,
        (q - 1u32) >> 1,
        (q + 1u32) >> 1,
        (q - 1u32) >> 2,
        BigUint::from(u64::MAX),
    ];
    let bits = q.bits();
    for k in 0..bits {
        let p = BigUint::one() << k;
        if &p < q {
            v.push(p.clone()); // powers of two, single high bits
            v.push(q - &p); // q - 2^k
            v.push(&p - 1u32); // all ones below bit k
            v.push((&p + 1u32) % q);
        }
    }
    // all-ones limbs, reduced; all-ones limbs with the top limb just below q's
    let ones = BigUint::from_slice(&vec![u32::MAX; 2 * N]);
    v.push(&ones % q);
    let mut top = [u64::MAX; N];
    top[N - 1] = q.to_u64_digits()[N - 1] - 1;
    v.push(big(&top) % q);
    // alternating bit patterns
    for pat in [0x5555_5555_5555_5555u64, 0xaaaa_aaaa_aaaa_aaaa, 0x8000_0000_0000_0001, 0x0000_0001_0000_0000] {
        v.push(big(&[pat; N]) % q);
    }
    // R and R^2 mod q as canonical values (their Montgomery limbs are R^2, R^3)
    let r = BigUint::one() << (64 * N);
    v.push(&r % q);
    v.push((&r * &r) % q);
    v.retain(|x| !x.is_zero());
    v
}

/// Our inverse against Fermat, num-bigint and x * x^-1 = 1.
fn check<P: FpConfig<N>, const N: usize>(a: &BigUint) {
    let q = big(&P::MODULUS);
    let fa = from_big::<P, N>(a);
    let inv = fa.inverse().expect("non-zero");
    assert_eq!(Some(inv), fa.inverse_fermat(), "{}: inverse vs Fermat of {a:x}", P::NAME);
    assert_eq!(big(&inv.to_canonical()), a.modpow(&(&q - 2u32), &q), "{}: inverse of {a:x}", P::NAME);
    assert_eq!(fa * inv, Fp::<P, N>::ONE, "{}: x * x^-1 for {a:x}", P::NAME);
    assert_eq!(inv.inverse(), Some(fa), "{}: double inverse of {a:x}", P::NAME);
}

/// Our inverse against arkworks' `Field::inverse` on the same canonical value.
fn check_ark<P: FpConfig<N>, const N: usize, A: ark_ff::PrimeField>(a: &BigUint) {
    let fa = from_big::<P, N>(a);
    let ours = fa.inverse().expect("non-zero").to_bytes_le();
    let theirs = A::from_le_bytes_mod_order(&a.to_bytes_le()).inverse().expect("non-zero");
    assert_eq!(ours, theirs.into_bigint().to_bytes_le(), "{}: vs arkworks for {a:x}", P::NAME);
}

fn all_adversarial<P: FpConfig<N>, const N: usize, A: ark_ff::PrimeField>() {
    let q = big(&P::MODULUS);
    let v = adversarial::<N>(&q);
    assert!(v.len() > 4 * q.bits() as usize);
    for a in &v {
        check::<P, N>(a);
        check_ark::<P, N, A>(a);
    }
    assert_eq!(Fp::<P, N>::ZERO.inverse(), None);
    assert_eq!(Fp::<P, N>::ZERO.inverse_fermat(), None);
}

#[test]
fn adversarial_377_fq() {
    all_adversarial::<Bls12_377FqConfig, 6, ark_bls12_377::Fq>();
}
#[test]
fn adversarial_377_fr() {
    all_adversarial::<Bls12_377FrConfig, 4, ark_bls12_377::Fr>();
}
#[test]
fn adversarial_381_fq() {
    all_adversarial::<Bls12_381FqConfig, 6, ark_bls12_381::Fq>();
}
#[test]
fn adversarial_381_fr() {
    all_adversarial::<Bls12_381FrConfig, 4, ark_bls12_381::Fr>();
}
#[test]
fn adversarial_bn254_fq() {
    all_adversarial::<Bn254FqConfig, 4, ark_bn254::Fq>();
}
#[test]
fn adversarial_bn254_fr() {
    all_adversarial::<Bn254FrConfig, 4, ark_bn254::Fr>();
}

#[test]
fn toy_field_every_element() {
    assert_eq!(F17::ZERO.inverse(), None);
    for a in 1..17u64 {
        let x = F17::from_u64(a);
        let inv = x.inverse().unwrap();
        assert_eq!(x * inv, F17::ONE, "{a}");
        assert_eq!(Some(inv), x.inverse_fermat());
    }
}

#[test]
fn montgomery_form_of_the_inverse() {
    // 1/2 is (q+1)/2 as a canonical integer, whatever the Montgomery radix.
    let two = Bls12_381Fq::from_u64(2);
    let half = big(&two.inverse().unwrap().to_canonical());
    assert_eq!(half, (big(&Bls12_381Fq::MODULUS) + 1u32) >> 1);
    assert_eq!(Bls12_377Fr::ONE.inverse(), Some(Bls12_377Fr::ONE));
    assert_eq!((-Bls12_377Fq::ONE).inverse(), Some(-Bls12_377Fq::ONE));
}

#[test]
fn long_chain_of_inversions() {
    // x <- 1/x + 1, ten thousand times, both ways.
    let mut x = Bls12_377Fq::from_u64(7);
    let mut y = x;
    for _ in 0..10_000 {
        x = x.inverse().unwrap() + Bls12_377Fq::ONE;
        y = y.inverse_fermat().unwrap() + Bls12_377Fq::ONE;
    }
    assert_eq!(x, y);
}

fn element<const N: usize>(q: BigUint) -> impl Strategy<Value = BigUint> {
    let e = adversarial::<N>(&q);
    let q2 = q.clone();
    prop_oneof![
        1 => proptest::sample::select(e),
        6 => proptest::collection::vec(any::<u64>(), N).prop_map(move |d| {
            let x = d.iter().rev().fold(BigUint::zero(), |acc, &x| (acc << 64) + BigUint::from(x)) % &q2;
            if x.is_zero() { BigUint::one() } else { x }
        }),
        1 => (1usize..N * 64).prop_flat_map(|bits| proptest::collection::vec(any::<u64>(), N).prop_map(move |d| {
            // a value of `bits` bits or fewer (small operands take other paths)
            let x = d.iter().rev().fold(BigUint::zero(), |acc, &x| (acc << 64) + BigUint::from(x));
            (x >> (N * 64 - bits)) | BigUint::one()
        })).prop_filter("below q", {
            let q = q.clone();
            move |x| x < &q
        }),
    ]
}

macro_rules! inverse_props {
    ($name:ident, $cfg:ty, $n:literal, $ark:ty) => {
        proptest! {
            #![proptest_config(ProptestConfig::with_cases(3000))]
            #[test]
            fn $name(a in element::<$n>(big(&<$cfg as FpConfig<$n>>::MODULUS))) {
                check::<$cfg, $n>(&a);
                check_ark::<$cfg, $n, $ark>(&a);
            }
        }
    };
}

inverse_props!(random_377_fq, Bls12_377FqConfig, 6, ark_bls12_377::Fq);
inverse_props!(random_377_fr, Bls12_377FrConfig, 4, ark_bls12_377::Fr);
inverse_props!(random_381_fq, Bls12_381FqConfig, 6, ark_bls12_381::Fq);
inverse_props!(random_381_fr, Bls12_381FrConfig, 4, ark_bls12_381::Fr);
inverse_props!(random_bn254_fq, Bn254FqConfig, 4, ark_bn254::Fq);
inverse_props!(random_bn254_fr, Bn254FrConfig, 4, ark_bn254::Fr);

// Other limb counts, through the same generic code: primes of 2, 3, 4, 7 and 8
// limbs (several with a full top limb, the widest signed62 case) and one of 9
// limbs, where `inverse` falls back to Fermat. The probable-prime check below
// guards the pasted moduli.
macro_rules! test_field {
    ($cfg:ident, $n:literal, $hex:literal) => {
        struct $cfg;
        impl FpConfig<$n> for $cfg {
            const MODULUS: [u64; $n] = limbs::from_hex($hex);
            const NONRESIDUE: u64 = 3; // unused here
            const NAME: &'static str = stringify!($cfg);
        }
    };
}
test_field!(M127, 2, "0x7fffffffffffffffffffffffffffffff"); // 2^127 - 1
test_field!(P192, 3, "0xfffffffffffffffffffffffffffffffeffffffffffffffff"); // 2^192 - 2^64 - 1
test_field!(P25519, 4, "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed"); // 2^255 - 19
test_field!(
    P448,
    7,
    "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
); // 2^448 - 2^224 - 1
test_field!(
    M521,
    9,
    "0x1ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
); // 2^521 - 1
test_field!(
    P512,
    8,
    "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffdc7"
); // 2^512 - 569

fn other_size<P: FpConfig<N>, const N: usize>() {
    use rand::SeedableRng;
    let q = big(&P::MODULUS);
    // the stated modulus is a (probable) prime
    for b in [2u32, 3, 5, 7] {
        assert!(BigUint::from(b).modpow(&(&q - 1u32), &q).is_one(), "{}", P::NAME);
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let mut v = adversarial::<N>(&q);
    for _ in 0..300 {
        v.push(big(Fp::<P, N>::random(&mut rng).mont_limbs()));
    }
    for a in v.iter().filter(|a| !a.is_zero()) {
        check::<P, N>(a);
    }
    assert_eq!(Fp::<P, N>::ZERO.inverse(), None);
}

#[test]
fn other_limb_counts() {
    other_size::<M127, 2>();
    other_size::<P192, 3>();
    other_size::<P25519, 4>();
    other_size::<P448, 7>();
    other_size::<P512, 8>();
    other_size::<M521, 9>();
}
