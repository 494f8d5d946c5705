//! The MULX/ADX assembly against the portable Montgomery multiplication and a
//! num-bigint reference, on raw Montgomery limbs: random values below q and
//! edges (0, 1, 2, q-1, q-2, (q-1)/2, (q+1)/2, 2^k, all-ones patterns below q,
//! R and R^2 mod q); the dedicated 6-limb squaring against both as well.

use num_bigint::BigUint;
use num_traits::{One, Zero};
use proptest::prelude::*;
use zkmsm_field::*;

fn big<const N: usize>(l: &[u64; N]) -> BigUint {
    l.iter().rev().fold(BigUint::zero(), |acc, &x| (acc << 64) + BigUint::from(x))
}

fn limbs<const N: usize>(v: &BigUint) -> [u64; N] {
    let mut l = [0u64; N];
    for (i, d) in v.to_u64_digits().iter().enumerate() {
        l[i] = *d;
    }
    l
}

fn asm_expected() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("bmi2") && std::is_x86_feature_detected!("adx")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

fn edges<const N: usize>(q: &BigUint) -> Vec<BigUint> {
    let mut v = vec![
        BigUint::zero(),
        BigUint::one(),
        BigUint::from(2u32),
        q - 1u32,
        q - 2u32,
        (q - 1u32) >> 1,
        (q + 1u32) >> 1,
        BigUint::one() << 64,
        BigUint::one() << (64 * N - 65),
        BigUint::from(u64::MAX),
    ];
    // all-ones in every limb but the top one, top limb as large as q allows
    let mut ones = [u64::MAX; N];
    ones[N - 1] = limbs::<N>(q)[N - 1] - 1;
    v.push(big(&ones));
    // all-ones in every limb, reduced mod q; R mod q and R^2 mod q
    v.push(((BigUint::one() << (64 * N)) - 1u32) % q);
    v.push((BigUint::one() << (64 * N)) % q);
    v.push((BigUint::one() << (128 * N)) % q);
    // q - 2^k for several k
    for k in [1u32, 63, 64, 65, 127, 128, 191, 192] {
        let p = BigUint::one() << k;
        if &p < q {
            v.push(q - p);
        }
    }
    v
}

fn element<const N: usize>(q: BigUint) -> impl Strategy<Value = BigUint> {
    let e = edges::<N>(&q);
    prop_oneof![
        1 => proptest::sample::select(e),
        4 => proptest::collection::vec(any::<u64>(), N)
            .prop_map(move |d| d.iter().rev().fold(BigUint::zero(), |acc, &x| (acc << 64) + BigUint::from(x)) % &q),
    ]
}

/// a * b / R mod q computed three ways on raw Montgomery limbs.
fn check<P: FpConfig<N>, const N: usize>(a: &BigUint, b: &BigUint) {
    let q = big(&P::MODULUS);
    let r_inv = (BigUint::one() << (64 * N)).modpow(&(&q - 2u32), &q);
    let want = (a * b % &q) * &r_inv % &q;
    let fa = Fp::<P, N>::from_mont_limbs(limbs(a));
    let fb = Fp::<P, N>::from_mont_limbs(limbs(b));
    let portable = fa.mul_portable(&fb);
    assert_eq!(big(portable.mont_limbs()), want, "portable {a:x} * {b:x}");
    match fa.mul_asm(&fb) {
        Some(x) => assert_eq!(big(x.mont_limbs()), want, "asm {a:x} * {b:x}"),
        None => assert!(!asm_expected(), "{}: asm should be available on this CPU", P::NAME),
    }
    // the dispatched operators agree too (asm or portable, whichever runs)
    assert_eq!(fa * fb, portable);
    assert_eq!(fa.square(), fa.mul_portable(&fa));
    check_square::<P, N>(a);
}

/// a * a / R mod q by the dedicated squaring (6 limbs), the portable
/// multiplication and num-bigint.
fn check_square<P: FpConfig<N>, const N: usize>(a: &BigUint) {
    let q = big(&P::MODULUS);
    let r_inv = (BigUint::one() << (64 * N)).modpow(&(&q - 2u32), &q);
    let want = (a * a % &q) * &r_inv % &q;
    let fa = Fp::<P, N>::from_mont_limbs(limbs(a));
    assert_eq!(big(fa.mul_portable(&fa).mont_limbs()), want, "portable {a:x}^2");
    match fa.square_asm() {
        Some(x) => assert_eq!(big(x.mont_limbs()), want, "asm square {a:x}"),
        None => assert!(N != 6 || !asm_expected(), "{}: asm square should be available", P::NAME),
    }
    assert_eq!(fa.square(), fa.mul_portable(&fa), "dispatched square {a:x}");
}

fn all_edge_pairs<P: FpConfig<N>, const N: usize>() {
    let e = edges::<N>(&big(&P::MODULUS));
    for a in &e {
        check_square::<P, N>(a);
    }
    for a in &e {
        for b in &e {
            check::<P, N>(a, b);
        }
    }
}

#[test]
fn edge_pairs_377_fq() {
    all_edge_pairs::<Bls12_377FqConfig, 6>();
}
#[test]
fn edge_pairs_381_fq() {
    all_edge_pairs::<Bls12_381FqConfig, 6>();
}
#[test]
fn edge_pairs_377_fr() {
    all_edge_pairs::<Bls12_377FrConfig, 4>();
}
#[test]
fn edge_pairs_381_fr() {
    all_edge_pairs::<Bls12_381FrConfig, 4>();
}

#[test]
fn asm_used_when_cpu_allows() {
    // Not a timing check: only that the dispatch picks the assembly for the
    // two BLS base fields on a BMI2/ADX CPU (unless ZKMSM_NO_ASM disables it).
    let off = std::env::var_os("ZKMSM_NO_ASM").is_some_and(|v| v != "0");
    let want = asm_expected() && !off;
    assert_eq!(Bls12_377Fq::uses_asm(), want);
    assert_eq!(Bls12_381Fq::uses_asm(), want);
    // 4 limbs: the assembly is tested (mul_asm) but not dispatched to
    assert!(!Bls12_377Fr::uses_asm());
    assert!(!Bls12_381Fr::uses_asm());
    // one limb: never the assembly
    assert!(!F17::uses_asm());
    assert_eq!(F17::from_u64(5) * F17::from_u64(7), F17::from_u64(1));
}

#[test]
fn long_chain_matches_portable() {
    // 10^4 dependent multiplications: any rare carry slip would propagate.
    let mut x = Bls12_381Fq::from_u64(3);
    let mut y = x;
    let m = Bls12_381Fq::from_u64(0x1234_5678_9abc_def1);
    for _ in 0..10_000 {
        x = x * m + Bls12_381Fq::ONE;
        y = y.mul_portable(&m) + Bls12_381Fq::ONE;
    }
    assert_eq!(x, y);
    let mut x = Bls12_377Fq::from_u64(5);
    let mut y = x;
    for _ in 0..10_000 {
        x = x.square() - Bls12_377Fq::ONE;
        y = y.mul_portable(&y) - Bls12_377Fq::ONE;
    }
    assert_eq!(x, y);
}

macro_rules! asm_props {
    ($name:ident, $cfg:ty, $n:literal) => {
        proptest! {
            #![proptest_config(ProptestConfig::with_cases(2000))]
            #[test]
            fn $name(a in element::<$n>(big(&<$cfg as FpConfig<$n>>::MODULUS)),
                     b in element::<$n>(big(&<$cfg as FpConfig<$n>>::MODULUS))) {
                check::<$cfg, $n>(&a, &b);
            }
        }
    };
}

asm_props!(asm_vs_portable_377_fq, Bls12_377FqConfig, 6);
asm_props!(asm_vs_portable_381_fq, Bls12_381FqConfig, 6);
asm_props!(asm_vs_portable_377_fr, Bls12_377FrConfig, 4);
asm_props!(asm_vs_portable_381_fr, Bls12_381FrConfig, 4);
