//! G2 of the three curves against arkworks: constants, group law, encodings,
//! decompression, psi and its subgroup check (against [r]P = 0, arkworks'
//! own check, and points of every order the cofactor allows), GLV on the
//! twist, and the EVM layouts of EIP-197 and EIP-2537.

use crate::arkworks::{decompression_and_checks, encodings, group_law, subgroup_check_agrees_with_order};
use crate::common::*;
use ark_ec::AffineRepr;
use num_bigint::BigUint;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkmsm_curve::psi::PsiEigenvalue;
use zkmsm_curve::*;
use zkmsm_field::{Field, PrimeField, TowerField};

type Cfg377 = ark_bls12_377::g2::Config;
type Cfg381 = ark_bls12_381::g2::Config;
type CfgBn = ark_bn254::g2::Config;

fn big(l: &[u64]) -> BigUint {
    BigUint::from_slice(&l.iter().flat_map(|w| [*w as u32, (*w >> 32) as u32]).collect::<Vec<_>>())
}

fn limbs(b: &BigUint) -> Vec<u64> {
    let mut v = b.to_u64_digits();
    if v.is_empty() {
        v.push(0);
    }
    v
}

fn constants<C: MsmCurve, P: ark_ec::short_weierstrass::SWCurveConfig>()
where
    C::Base: ArkCoord<Ark = P::BaseField>,
{
    let g = C::generator();
    assert_eq!(to_ark::<C, P>(&g), ark_ec::short_weierstrass::Affine::<P>::generator(), "{}", C::LABEL);
    assert_eq!(C::coeff_b().to_ark(), P::COEFF_B, "{} b'", C::LABEL);
    assert_eq!(C::COFACTOR, P::COFACTOR, "{} cofactor", C::LABEL);
    assert!(g.is_on_curve() && g.is_in_subgroup() && g.is_in_subgroup_by_order(), "{}", C::LABEL);
    assert_eq!(C::GROUP, "g2");
    assert!(C::LABEL.starts_with(C::NAME) && C::LABEL.ends_with(" g2"));
}

#[test]
fn constants_match_arkworks() {
    constants::<Bls12_377G2, Cfg377>();
    constants::<Bls12_381G2, Cfg381>();
    constants::<Bn254G2, CfgBn>();
}

#[test]
fn group_law_matches_arkworks() {
    group_law::<Bls12_377G2, Cfg377>(31);
    group_law::<Bls12_381G2, Cfg381>(32);
    group_law::<Bn254G2, CfgBn>(33);
}

#[test]
fn encodings_match_arkworks() {
    encodings::<Bls12_377G2, Cfg377>(34);
    encodings::<Bls12_381G2, Cfg381>(35);
    encodings::<Bn254G2, CfgBn>(36);
}

#[test]
fn decompression_and_subgroup_match_arkworks() {
    decompression_and_checks::<Bls12_377G2, Cfg377>(37);
    decompression_and_checks::<Bls12_381G2, Cfg381>(38);
    decompression_and_checks::<Bn254G2, CfgBn>(39);
}

#[test]
fn psi_subgroup_check_agrees_with_order() {
    subgroup_check_agrees_with_order::<Bls12_377G2>(40);
    subgroup_check_agrees_with_order::<Bls12_381G2>(41);
    subgroup_check_agrees_with_order::<Bn254G2>(42);
}

/// psi maps the twist to itself, is additive, and acts on G2 as q mod r: the
/// eigenvalue the subgroup check uses, checked against r independently
/// (r divides q - eigenvalue).
fn psi_algebra<C: MsmCurve>(psi: &psi::Psi<C::Base>, eig: PsiEigenvalue, seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let (e, negative) = match eig {
        PsiEigenvalue::Seed { abs, negative } => (BigUint::from(abs), negative),
        PsiEigenvalue::SixSeedSquared { x } => (BigUint::from(x) * x * 6u32, false),
    };
    let r = big(C::ORDER);
    let q = big(&{
        let b = (-<C::Base as TowerField>::Prime::ONE).to_bytes_le();
        b.chunks(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect::<Vec<_>>()
    }) + 1u32;
    let q_mod_r = &q % &r;
    let eig_mod_r = if negative { &r - (&e % &r) } else { e.clone() % &r };
    assert_eq!(q_mod_r, eig_mod_r, "{}: psi's eigenvalue is q mod r", C::LABEL);
    for _ in 0..6 {
        let p = Affine::<C>::random_in_subgroup(&mut rng);
        let raw = loop {
            if let Some(t) = Affine::<C>::from_x(C::Base::random(&mut rng), true) {
                break t;
            }
        };
        assert!(psi.apply(&raw).is_on_curve(), "{}: psi maps the twist to itself", C::LABEL);
        assert_eq!(psi.apply(&p).to_xyzz(), p.mul_bigint(&limbs(&eig_mod_r)), "{}", C::LABEL);
        let s = p.add_reference(&raw);
        assert_eq!(psi.apply(&s), psi.apply(&p).add_reference(&psi.apply(&raw)), "{}: additive", C::LABEL);
    }
}

#[test]
fn psi_is_an_endomorphism_with_eigenvalue_q() {
    psi_algebra::<Bls12_377G2>(Bls12_377G2::psi(), Bls12_377G2::PSI_EIGENVALUE, 43);
    psi_algebra::<Bls12_381G2>(Bls12_381G2::psi(), Bls12_381G2::PSI_EIGENVALUE, 44);
    psi_algebra::<Bn254G2>(Bn254G2::psi(), Bn254G2::PSI_EIGENVALUE, 45);
}

/// For each part d of the cofactor h (prime powers of the known factors and
/// the rest), points of order dividing d: T = [r h / d] P. Each such T, and
/// G + T, must fail the fast check exactly as it fails [r]P = 0.
fn small_order_points_are_refused<C: MsmCurve>(factors: &[u64], seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let h = big(C::COFACTOR);
    let r = big(C::ORDER);
    let mut rest = h.clone();
    let mut parts = Vec::new();
    for &f in factors {
        let mut d = BigUint::from(1u32);
        while &rest % f == BigUint::from(0u32) {
            rest /= f;
            d *= f;
        }
        assert!(d > BigUint::from(1u32), "{} divides the cofactor of {}", f, C::LABEL);
        parts.push(d);
    }
    if rest > BigUint::from(1u32) {
        parts.push(rest);
    }
    let g = C::generator();
    for d in &parts {
        let k = limbs(&(&r * &h / d));
        let mut found = 0;
        for _ in 0..4 {
            let p = loop {
                if let Some(t) = Affine::<C>::from_x(C::Base::random(&mut rng), false) {
                    break t;
                }
            };
            let t = p.mul_bigint(&k).to_affine();
            if t.is_identity() {
                continue;
            }
            found += 1;
            assert!(!t.is_in_subgroup_by_order());
            assert!(!t.is_in_subgroup(), "{}: a point of order dividing {d} passes", C::LABEL);
            let gt = g.add_reference(&t);
            assert!(!gt.is_in_subgroup(), "{}: G + T (T of order dividing {d}) passes", C::LABEL);
        }
        assert!(found > 0, "{}: no point of order dividing {d} found", C::LABEL);
    }
}

#[test]
fn points_of_every_cofactor_order_fail_the_check() {
    small_order_points_are_refused::<Bls12_381G2>(&[13, 23, 2713, 11953, 262069], 46);
    small_order_points_are_refused::<Bls12_377G2>(&[85752112189], 47);
    small_order_points_are_refused::<Bn254G2>(&[10069, 5864401, 1875725156269], 48);
}

/// phi(x, y) = (beta x, y) acts on G2 as lambda, and the split scalars
/// recombine: k P = k0 P + k1 phi(P).
fn glv_on_g2<C: MsmCurve>(seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let glv = C::glv().expect("every G2 here has phi");
    let r = big(C::ORDER);
    let lambda = big(&glv.lambda);
    // random scalars, then the edges of the split: 0, 1, r - 1, lambda, r - lambda
    let mut scalars: Vec<BigUint> = (0..6)
        .map(|_| BigUint::from_slice(&(0..8).map(|_| rand::Rng::gen::<u32>(&mut rng)).collect::<Vec<_>>()) % &r)
        .collect();
    scalars.extend([BigUint::from(0u32), BigUint::from(1u32), &r - 1u32, lambda.clone(), &r - &lambda]);
    for k in &scalars {
        let p = Affine::<C>::random_in_subgroup(&mut rng);
        assert_eq!(glv.phi(&p).to_xyzz(), p.mul_bigint(&glv.lambda), "{}", C::LABEL);
        let k: Vec<u64> = limbs(k);
        let mut k4 = [0u64; 4];
        k4[..k.len()].copy_from_slice(&k);
        let halves = glv.decompose(&k4);
        let term = |q: &Affine<C>, v: i128| {
            let m = q.mul_bigint(&[v.unsigned_abs() as u64, (v.unsigned_abs() >> 64) as u64]);
            if v < 0 {
                m.neg()
            } else {
                m
            }
        };
        let sum = term(&p, halves.k0).add(&term(&glv.phi(&p), halves.k1));
        assert_eq!(sum, p.mul_bigint(&k4), "{}", C::LABEL);
    }
}

#[test]
fn glv_on_the_twist() {
    glv_on_g2::<Bls12_377G2>(49);
    glv_on_g2::<Bls12_381G2>(50);
    glv_on_g2::<Bn254G2>(51);
}

/// EIP-197 (BN254: x = (x_imaginary, x_real), 32-byte words) and EIP-2537
/// (BLS12-381: c0 then c1, 64-byte words with 16 zero bytes on top): the
/// generator's known bytes, round trips, padding and canonicity refused at
/// the right byte, infinity as zeros, and no EVM form on BLS12-377.
#[test]
fn evm_layouts() {
    let hex =
        |s: &str| (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect::<Vec<u8>>();
    // EIP-197's G2 generator: x_im, x_re, y_im, y_re
    let bn = hex(concat!(
        "198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c2",
        "1800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed",
        "090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b",
        "12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa"
    ));
    assert_eq!(Bn254G2::generator().to_bytes(PointFormat::Evm), bn);
    assert_eq!(Affine::<Bn254G2>::from_bytes(&bn, PointFormat::Evm), Ok(Bn254G2::generator()));
    // EIP-2537's G2 generator: x.c0, x.c1, y.c0, y.c1, each after 16 zeros
    let pad = "00000000000000000000000000000000";
    let bls = hex(&[
        pad,
        "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8",
        pad,
        "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e",
        pad,
        "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801",
        pad,
        "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be",
    ]
    .concat());
    assert_eq!(Bls12_381G2::generator().to_bytes(PointFormat::Evm), bls);
    assert_eq!(PointFormat::Evm.size::<Bls12_381G2>(), 256);
    assert_eq!(PointFormat::Evm.size::<Bls12_381>(), 128);
    assert_eq!(PointFormat::Evm.size::<Bn254G2>(), 128);
    assert_eq!(Affine::<Bls12_381G2>::from_bytes(&[0u8; 256], PointFormat::Evm), Ok(Affine::identity()));
    let mut bad = bls.clone();
    bad[64 + 3] = 1; // the padding of x.c1
    assert_eq!(
        Affine::<Bls12_381G2>::from_bytes(&bad, PointFormat::Evm),
        Err(DecodeError::NonZeroPadding { byte: 67 })
    );
    let mut bad = bls.clone();
    bad[128 + 16..128 + 64].fill(0xff); // y.c0 >= q
    assert_eq!(Affine::<Bls12_381G2>::from_bytes(&bad, PointFormat::Evm), Err(DecodeError::NonCanonical { byte: 128 }));
    let mut bad = bls.clone();
    bad[255] ^= 1;
    assert_eq!(Affine::<Bls12_381G2>::from_bytes(&bad, PointFormat::Evm), Err(DecodeError::NotOnCurve));
    assert_eq!(
        Affine::<Bls12_377G2>::from_bytes(&[0u8; 192], PointFormat::Evm),
        Err(DecodeError::NoEvmForm { curve: "bls12-377" })
    );
    assert_eq!(PointFormat::available::<Bls12_377G2>(), &[PointFormat::Compressed, PointFormat::Uncompressed]);
    let mut rng = ChaCha20Rng::seed_from_u64(52);
    for _ in 0..10 {
        let p = Affine::<Bn254G2>::random_in_subgroup(&mut rng);
        assert_eq!(Affine::<Bn254G2>::from_bytes(&p.to_bytes(PointFormat::Evm), PointFormat::Evm), Ok(p));
        let p = Affine::<Bls12_381G2>::random_in_subgroup(&mut rng);
        assert_eq!(Affine::<Bls12_381G2>::from_bytes(&p.to_bytes(PointFormat::Evm), PointFormat::Evm), Ok(p));
    }
}
