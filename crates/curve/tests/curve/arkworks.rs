//! The curve layer against arkworks: generators, cofactors, group law, encodings.

use crate::common::*;
use ark_ec::{AffineRepr, CurveGroup};
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize};
use ark_std::UniformRand;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkmsm_curve::*;
use zkmsm_field::Field;

type A377 = ark_bls12_377::G1Affine;
type A381 = ark_bls12_381::G1Affine;
type Cfg377 = ark_bls12_377::g1::Config;
type Cfg381 = ark_bls12_381::g1::Config;
type Abn = ark_bn254::G1Affine;
type CfgBn = ark_bn254::g1::Config;

#[test]
fn generators_and_orders_match_arkworks() {
    let g: Affine<Bls12_377> = Bls12_377::generator();
    assert_eq!(to_ark::<_, Cfg377>(&g), A377::generator());
    assert!(g.is_on_curve() && g.is_in_subgroup());
    let g: Affine<Bls12_381> = Bls12_381::generator();
    assert_eq!(to_ark::<_, Cfg381>(&g), A381::generator());
    assert!(g.is_on_curve() && g.is_in_subgroup());
    use ark_ec::CurveConfig;
    assert_eq!(Bls12_377::COFACTOR, Cfg377::COFACTOR);
    assert_eq!(Bls12_381::COFACTOR, Cfg381::COFACTOR);
    let g: Affine<Bn254> = Bn254::generator();
    assert_eq!(to_ark::<_, CfgBn>(&g), Abn::generator());
    assert!(g.is_on_curve() && g.is_in_subgroup());
    assert_eq!(Bn254::COFACTOR, CfgBn::COFACTOR);
    assert!(g.is_in_subgroup_by_order(), "the generator has order r");
}

pub(crate) fn group_law<C: MsmCurve, P: ark_ec::short_weierstrass::SWCurveConfig>(seed: u64)
where
    C::Base: ArkCoord<Ark = P::BaseField>,
{
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    for _ in 0..20 {
        let p = Affine::<C>::random_in_subgroup(&mut rng);
        let q = Affine::<C>::random_in_subgroup(&mut rng);
        assert!(p.validate().is_ok());
        let (ap, aq) = (to_ark::<C, P>(&p), to_ark::<C, P>(&q));
        let sum = (ap + aq).into_affine();
        assert_eq!(from_ark::<C, P>(&sum), p.add_reference(&q));
        assert_eq!(p.to_xyzz().add_affine(&q).to_affine(), p.add_reference(&q));
        assert_eq!(p.to_xyzz().add(&q.to_xyzz()).to_affine(), p.add_reference(&q));
        assert_eq!(p.to_xyzz().double().to_affine(), from_ark::<C, P>(&(ap + ap).into_affine()));
        // special cases of the mixed and general additions
        let pp = p.to_xyzz().double();
        assert_eq!(p.to_xyzz().add_affine(&p), pp);
        assert!(p.to_xyzz().add_affine(&p.neg()).is_identity());
        assert!(p.to_xyzz().add(&p.to_xyzz().neg()).is_identity());
        assert_eq!(p.to_xyzz().add(&p.to_xyzz()), pp);
        assert_eq!(Xyzz::<C>::identity().add_affine(&p).to_affine(), p);
        assert_eq!(p.to_xyzz().add_affine(&Affine::identity()).to_affine(), p);
        // a non-normalized left operand
        let big = pp.add_affine(&q);
        assert_eq!(big.add_affine(&p).to_affine(), p.add_reference(&p).add_reference(&q).add_reference(&p));
        let k: [u64; 4] = [rand::Rng::gen(&mut rng), 3, 0, 1];
        let ak = <P::ScalarField as ark_ff::PrimeField>::from_le_bytes_mod_order(
            &k.iter().flat_map(|l| l.to_le_bytes()).collect::<Vec<_>>(),
        );
        assert_eq!(p.mul_bigint(&k).to_affine(), from_ark::<C, P>(&(ap * ak).into_affine()));
    }
    let pts: Vec<Xyzz<C>> = (0..9u64).map(|i| C::generator().mul_bigint(&[i])).collect();
    let aff = Xyzz::batch_to_affine(&pts);
    for (p, a) in pts.iter().zip(&aff) {
        assert_eq!(p.to_affine(), *a);
    }
    assert!(aff[0].is_identity());
}

#[test]
fn group_law_bls12_377() {
    group_law::<Bls12_377, Cfg377>(1);
}

#[test]
fn group_law_bls12_381() {
    group_law::<Bls12_381, Cfg381>(2);
}

#[test]
fn group_law_bn254() {
    group_law::<Bn254, CfgBn>(3);
}

#[test]
fn cofactor_clearing_and_validation() {
    // cofactor clearing lands in the subgroup; a raw point off the subgroup is rejected
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let mut off = 0;
    for _ in 0..10 {
        let x = zkmsm_field::Bls12_377Fq::random(&mut rng);
        if let Some(p) = Affine::<Bls12_377>::from_x(x, false) {
            if p.validate() == Err(PointError::NotInSubgroup) {
                off += 1;
            }
            assert!(p.clear_cofactor().validate().is_ok());
        }
    }
    assert!(off > 0);
    let bad = Affine::<Bls12_377>::new_unchecked(zkmsm_field::Bls12_377Fq::ONE, zkmsm_field::Bls12_377Fq::ONE);
    assert_eq!(bad.validate(), Err(PointError::NotOnCurve));
}

pub(crate) fn encodings<C: MsmCurve, P: ark_ec::short_weierstrass::SWCurveConfig>(seed: u64)
where
    C::Base: ArkCoord<Ark = P::BaseField>,
{
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut points: Vec<Affine<C>> = (0..30).map(|_| Affine::<C>::random_in_subgroup(&mut rng)).collect();
    points.push(Affine::identity());
    points.push(C::generator());
    points.push(C::generator().neg());
    for p in &points {
        let a = to_ark::<C, P>(p);
        for (fmt, compress) in [
            (PointFormat::Compressed, ark_serialize::Compress::Yes),
            (PointFormat::Uncompressed, ark_serialize::Compress::No),
        ] {
            let mut ark_bytes = Vec::new();
            a.serialize_with_mode(&mut ark_bytes, compress).unwrap();
            let ours = p.to_bytes(fmt);
            assert_eq!(ours, ark_bytes, "{} {:?} {:?}", C::NAME, fmt, p);
            assert_eq!(Affine::<C>::from_bytes(&ark_bytes, fmt).unwrap(), *p);
            let back = ark_ec::short_weierstrass::Affine::<P>::deserialize_with_mode(
                &ours[..],
                compress,
                ark_serialize::Validate::Yes,
            )
            .unwrap();
            assert_eq!(back, a);
        }
    }
    // arkworks-random points too (not produced by our generator)
    for _ in 0..10 {
        let a = ark_ec::short_weierstrass::Projective::<P>::rand(&mut ark_std::test_rng()).into_affine();
        let mut b = Vec::new();
        a.serialize_compressed(&mut b).unwrap();
        assert_eq!(to_ark::<C, P>(&Affine::<C>::from_bytes(&b, PointFormat::Compressed).unwrap()), a);
    }
}

#[test]
fn encodings_match_arkworks_bls12_377() {
    encodings::<Bls12_377, Cfg377>(4);
}

#[test]
fn encodings_match_arkworks_bls12_381() {
    encodings::<Bls12_381, Cfg381>(5);
}

#[test]
fn encodings_match_arkworks_bn254() {
    encodings::<Bn254, CfgBn>(6);
}

#[test]
fn malformed_encodings_are_rejected() {
    let g = Bls12_377::generator();
    let c = g.to_bytes(PointFormat::Compressed);
    // both flags
    let mut b = c.clone();
    b[47] |= 0xc0;
    assert!(matches!(
        Affine::<Bls12_377>::from_bytes(&b, PointFormat::Compressed),
        Err(DecodeError::BadFlags { byte: 47, .. })
    ));
    // x >= q
    let mut b = c.clone();
    b[47] |= 0x3f;
    assert_eq!(
        Affine::<Bls12_377>::from_bytes(&b, PointFormat::Compressed),
        Err(DecodeError::NonCanonical { byte: 0 })
    );
    // wrong length
    assert!(matches!(
        Affine::<Bls12_377>::from_bytes(&c[..47], PointFormat::Compressed),
        Err(DecodeError::WrongLength { .. })
    ));
    // an x with no point: search a few
    let mut found = false;
    for i in 2..50u64 {
        let x = zkmsm_field::Bls12_377Fq::from_u64(i);
        if Affine::<Bls12_377>::from_x(x, false).is_none() {
            let b = x.to_bytes_le();
            assert_eq!(Affine::<Bls12_377>::from_bytes(&b, PointFormat::Compressed), Err(DecodeError::NoSuchX));
            found = true;
            break;
        }
    }
    assert!(found);
    // uncompressed, y altered: off the curve
    let mut u = g.to_bytes(PointFormat::Uncompressed);
    u[48] ^= 1;
    assert_eq!(Affine::<Bls12_377>::from_bytes(&u, PointFormat::Uncompressed), Err(DecodeError::NotOnCurve));
    // infinity with non-zero x
    let mut inf = Affine::<Bls12_377>::identity().to_bytes(PointFormat::Compressed);
    inf[0] = 1;
    assert_eq!(Affine::<Bls12_377>::from_bytes(&inf, PointFormat::Compressed), Err(DecodeError::NonZeroInfinity));
    // BLS12-381: the compression bit must agree with the format
    let g = Bls12_381::generator();
    let c = g.to_bytes(PointFormat::Compressed);
    assert!(matches!(
        Affine::<Bls12_381>::from_bytes(&[&c[..], &c[..]].concat(), PointFormat::Uncompressed),
        Err(DecodeError::BadFlags { byte: 0, .. })
    ));
    let mut b = g.to_bytes(PointFormat::Uncompressed);
    b[0] |= 0x20; // sort flag on an uncompressed point
    assert!(matches!(
        Affine::<Bls12_381>::from_bytes(&b, PointFormat::Uncompressed),
        Err(DecodeError::BadFlags { .. })
    ));
}

#[test]
fn toy_curve_exhaustive() {
    // All 18 points of y^2 = x^3 + 7 over F17; every sum in every form.
    use zkmsm_field::F17;
    let mut pts = vec![Affine::<Toy17>::identity()];
    for x in 0..17u64 {
        for y in 0..17u64 {
            let p = Affine::<Toy17>::new_unchecked(F17::from_u64(x), F17::from_u64(y));
            if p.is_on_curve() {
                pts.push(p);
            }
        }
    }
    assert_eq!(pts.len(), 18);
    for p in &pts {
        for q in &pts {
            let r = p.add_reference(q);
            assert!(r.is_on_curve());
            assert_eq!(p.to_xyzz().add_affine(q).to_affine(), r, "{p:?} + {q:?}");
            assert_eq!(p.to_xyzz().add(&q.to_xyzz()).to_affine(), r);
            assert_eq!(p.to_xyzz().double().add(&q.to_xyzz()).to_affine(), p.add_reference(p).add_reference(q));
        }
        assert!(p.mul_bigint(Toy17::ORDER).is_identity());
    }
    // the generator has order exactly 18
    let g = Toy17::generator();
    for k in 1..18u64 {
        assert!(!g.mul_bigint(&[k]).is_identity(), "order divides {k}");
    }
}

pub(crate) fn subgroup_check_agrees_with_order<C: MsmCurve>(seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let (mut inside, mut outside) = (0, 0);
    for _ in 0..40 {
        // raw curve points: almost all outside the subgroup
        let x = C::Base::random(&mut rng);
        if let Some(p) = Affine::<C>::from_x(x, rand::Rng::gen(&mut rng)) {
            assert_eq!(p.is_in_subgroup(), p.is_in_subgroup_by_order(), "{p:?}");
            outside += !p.is_in_subgroup() as usize;
            let q = p.clear_cofactor();
            assert!(q.is_in_subgroup() && q.is_in_subgroup_by_order());
            inside += 1;
            // a subgroup point plus a small-order component is outside
            let mixed = q.add_reference(&p);
            assert_eq!(mixed.is_in_subgroup(), mixed.is_in_subgroup_by_order());
        }
    }
    assert!(inside > 5 && outside > 5);
    assert!(Affine::<C>::identity().is_in_subgroup());
}

#[test]
fn fast_subgroup_check_bls12_377() {
    subgroup_check_agrees_with_order::<Bls12_377>(8);
    for p in zkmsm_curve::te::exceptional_points() {
        assert!(!p.is_in_subgroup() && !p.is_in_subgroup_by_order());
    }
}

#[test]
fn fast_subgroup_check_bls12_381() {
    subgroup_check_agrees_with_order::<Bls12_381>(9);
}

/// Cofactor 1: every point on BN254 has order r (or is the identity), so the
/// on-curve check is the whole validation.
#[test]
fn every_bn254_point_is_in_g1() {
    let mut rng = ChaCha20Rng::seed_from_u64(10);
    let mut found = 0;
    for _ in 0..40 {
        let x = zkmsm_field::Bn254Fq::random(&mut rng);
        if let Some(p) = Affine::<Bn254>::from_x(x, rand::Rng::gen(&mut rng)) {
            assert!(p.is_in_subgroup() && p.is_in_subgroup_by_order(), "{p:?}");
            assert_eq!(p.validate(), Ok(()));
            found += 1;
        }
    }
    assert!(found > 5);
    let bad = Affine::<Bn254>::new_unchecked(zkmsm_field::Bn254Fq::ONE, zkmsm_field::Bn254Fq::ONE);
    assert_eq!(bad.validate(), Err(PointError::NotOnCurve));
}

/// Decompression's square root (tables, `SqrtTable`), the curve equation and
/// the fast subgroup test against arkworks' own, on random x (about half
/// have a point, almost none in G1), on points off the curve, and on
/// subgroup points.
pub(crate) fn decompression_and_checks<C: MsmCurve, P: ark_ec::short_weierstrass::SWCurveConfig>(seed: u64)
where
    C::Base: ArkCoord<Ark = P::BaseField>,
{
    use ark_ff::Field as _;
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut xs: Vec<C::Base> = (0..6).map(C::Base::from_u64).collect();
    xs.push(-C::Base::ONE);
    xs.extend((0..200).map(|_| C::Base::random(&mut rng)));
    let (mut found, mut in_g1) = (0, 0);
    for x in xs {
        let ax: P::BaseField = x.to_ark();
        let rhs = x.square() * x + C::coeff_b();
        let ark_root = rhs.to_ark().sqrt();
        assert_eq!(C::sqrt_base(&rhs).is_some(), ark_root.is_some(), "{} x = {x:?}", C::NAME);
        if let Some(r) = C::sqrt_base(&rhs) {
            assert_eq!(r.square(), rhs);
        }
        for largest in [false, true] {
            let ours = Affine::<C>::from_x(x, largest);
            let theirs = ark_ec::short_weierstrass::Affine::<P>::get_point_from_x_unchecked(ax, largest);
            assert_eq!(ours.map(|p| to_ark::<C, P>(&p)), theirs, "{} x = {x:?} largest {largest}", C::NAME);
            if let (Some(p), Some(a)) = (ours, theirs) {
                found += 1;
                assert!(p.is_on_curve() && a.is_on_curve());
                let ark_in = a.is_in_correct_subgroup_assuming_on_curve();
                assert_eq!(p.is_in_subgroup(), ark_in, "{} {p:?}", C::NAME);
                in_g1 += ark_in as usize;
                // the same point moved off the curve
                let mut off = p;
                off.y += C::Base::ONE;
                assert_eq!(off.is_on_curve(), to_ark::<C, P>(&off).is_on_curve());
                assert!(!off.is_on_curve());
                // and the cofactor-cleared point is in G1 for both
                let q = p.clear_cofactor();
                assert!(q.is_in_subgroup() && to_ark::<C, P>(&q).is_in_correct_subgroup_assuming_on_curve());
            }
        }
    }
    assert!(found > 100, "{found}");
    // G1 is a proper subgroup of the BLS12 curves; BN254's cofactor is 1
    if C::COFACTOR == [1] {
        assert_eq!(in_g1, found);
    } else {
        assert!(in_g1 < found);
    }
}

#[test]
fn decompression_on_curve_and_subgroup_match_arkworks_bls12_377() {
    decompression_and_checks::<Bls12_377, Cfg377>(21);
}

#[test]
fn decompression_on_curve_and_subgroup_match_arkworks_bls12_381() {
    decompression_and_checks::<Bls12_381, Cfg381>(22);
}

#[test]
fn decompression_on_curve_and_subgroup_match_arkworks_bn254() {
    decompression_and_checks::<Bn254, CfgBn>(23);
}

/// The EVM layout (EIP-196/197): big-endian x then y, (0, 0) for infinity.
/// Known bytes: G = (1, 2) and 2G as Ethereum's ecAdd(G, G) returns it; every
/// point round-trips and has the coordinates of arkworks' uncompressed
/// encoding reversed; non-canonical coordinates, points off the curve and
/// wrong lengths are refused with the byte they start at.
#[test]
fn evm_layout_bn254() {
    let hex =
        |s: &str| (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect::<Vec<u8>>();
    let g = Bn254::generator();
    let mut want = vec![0u8; 64];
    want[31] = 1;
    want[63] = 2;
    assert_eq!(g.to_bytes(PointFormat::Evm), want);
    let g2 = g.add_reference(&g);
    let want2 = hex(concat!(
        "030644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd3",
        "15ed738c0e0a7c92e7845f96b2ae9c0a68a6a449e3538fc7ff3ebf7a5a18a2c4"
    ));
    assert_eq!(g2.to_bytes(PointFormat::Evm), want2);
    assert_eq!(Affine::<Bn254>::from_bytes(&want2, PointFormat::Evm), Ok(g2));
    assert_eq!(Affine::<Bn254>::identity().to_bytes(PointFormat::Evm), vec![0u8; 64]);
    assert_eq!(Affine::<Bn254>::from_bytes(&[0u8; 64], PointFormat::Evm), Ok(Affine::identity()));
    let mut rng = ChaCha20Rng::seed_from_u64(24);
    for _ in 0..50 {
        let p = Affine::<Bn254>::random_in_subgroup(&mut rng);
        let evm = p.to_bytes(PointFormat::Evm);
        assert_eq!(Affine::<Bn254>::from_bytes(&evm, PointFormat::Evm), Ok(p));
        let ark = p.to_bytes(PointFormat::Uncompressed);
        let (mut x, mut y) = (ark[..32].to_vec(), ark[32..].to_vec());
        y[31] &= 0x3f; // arkworks' flags
        x.reverse();
        y.reverse();
        assert_eq!(evm, [x, y].concat());
    }
    // q as x, q as y, a point off the curve, (0, 1), a wrong length
    let q = hex("30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47");
    assert_eq!(
        Affine::<Bn254>::from_bytes(&[&q[..], &want[32..]].concat(), PointFormat::Evm),
        Err(DecodeError::NonCanonical { byte: 0 })
    );
    assert_eq!(
        Affine::<Bn254>::from_bytes(&[&want[..32], &q[..]].concat(), PointFormat::Evm),
        Err(DecodeError::NonCanonical { byte: 32 })
    );
    let mut off = want.clone();
    off[63] = 3;
    assert_eq!(Affine::<Bn254>::from_bytes(&off, PointFormat::Evm), Err(DecodeError::NotOnCurve));
    let mut zero_one = vec![0u8; 64];
    zero_one[63] = 1;
    assert_eq!(Affine::<Bn254>::from_bytes(&zero_one, PointFormat::Evm), Err(DecodeError::NotOnCurve));
    assert_eq!(
        Affine::<Bn254>::from_bytes(&want[..63], PointFormat::Evm),
        Err(DecodeError::WrongLength { expected: 64, got: 63 })
    );
    // the flag bits of arkworks' encodings mean nothing here: a set top bit is a value >= q
    let mut flagged = want.clone();
    flagged[0] |= 0x80;
    assert_eq!(Affine::<Bn254>::from_bytes(&flagged, PointFormat::Evm), Err(DecodeError::NonCanonical { byte: 0 }));
}
