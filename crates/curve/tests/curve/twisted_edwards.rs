//! The twisted Edwards form of BLS12-377 against arkworks' TE config and
//! against Weierstrass arithmetic through the maps.

use crate::common::*;
use ark_ec::twisted_edwards::TECurveConfig;
use ark_ec::{AffineRepr, CurveGroup};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkmsm_curve::te::*;
use zkmsm_curve::*;
use zkmsm_field::{Bls12_377Fq as Fq, Field, TowerField};

type TeCfg = ark_bls12_377::g1::Config;

#[test]
fn constants_match_arkworks_convention() {
    let p = params();
    assert_eq!(to_ark_fq::<_, ark_bls12_377::Fq>(&p.d), TeCfg::COEFF_D);
    let g = TeAffine::from_weierstrass(&Bls12_377::generator()).unwrap();
    let ag = ark_bls12_377::g1::G1TEAffine::generator();
    assert_eq!((to_ark_fq::<_, ark_bls12_377::Fq>(&g.x), to_ark_fq::<_, ark_bls12_377::Fq>(&g.y)), (ag.x, ag.y));
    assert!(g.is_on_curve());
    // d is a square in Fq: the formulas are not complete on all of E(Fq)
    assert!(p.d.sqrt().is_some());
}

#[test]
fn multiples_map_like_arkworks() {
    let g_sw = Bls12_377::generator();
    let g_te = ark_bls12_377::g1::G1TEAffine::generator();
    for k in [1u64, 2, 3, 1000, 0xdead_beef] {
        let ours = TeAffine::from_weierstrass(&g_sw.mul_bigint(&[k]).to_affine()).unwrap();
        let theirs = (g_te * ark_bls12_377::Fr::from(k)).into_affine();
        assert_eq!(
            (to_ark_fq::<_, ark_bls12_377::Fq>(&ours.x), to_ark_fq::<_, ark_bls12_377::Fq>(&ours.y)),
            (theirs.x, theirs.y)
        );
    }
}

#[test]
fn arithmetic_agrees_with_weierstrass() {
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    for _ in 0..30 {
        let p = Affine::<Bls12_377>::random_in_subgroup(&mut rng);
        let q = Affine::<Bls12_377>::random_in_subgroup(&mut rng);
        let (tp, tq) = (TeAffine::from_weierstrass(&p).unwrap(), TeAffine::from_weierstrass(&q).unwrap());
        assert_eq!(tp.to_weierstrass().unwrap(), p);
        let ep = TeExtended::from_affine(&tp);
        let want = |w: Affine<Bls12_377>| TeAffine::from_weierstrass(&w).unwrap();
        // mixed add/sub, with a non-normalized left operand too
        assert_eq!(ep.add_precomputed(&tq.precompute()).to_affine(), want(p.add_reference(&q)));
        assert_eq!(ep.sub_precomputed(&tq.precompute()).to_affine(), want(p.add_reference(&q.neg())));
        let e2 = ep.double();
        assert_eq!(e2.to_affine(), want(p.add_reference(&p)));
        assert_eq!(e2.add_precomputed(&tq.precompute()).to_affine(), want(p.add_reference(&p).add_reference(&q)));
        // no special cases: P + P, P - P, identity + P
        assert_eq!(ep.add_precomputed(&tp.precompute()), e2);
        assert_eq!(ep.sub_precomputed(&tp.precompute()).to_affine(), TeAffine::identity());
        assert_eq!(TeExtended::identity().add_precomputed(&tp.precompute()).to_affine(), tp);
        assert_eq!(ep.add_precomputed(&TeAffine::identity().precompute()).to_affine(), tp);
        assert_eq!(ep.add(&TeExtended::from_affine(&tq)).to_affine(), want(p.add_reference(&q)));
        assert_eq!(ep.add(&ep), e2);
        assert_eq!(ep.neg().to_affine(), tp.neg());
        assert_eq!(tp.neg(), want(p.neg()));
    }
    assert_eq!(TeAffine::from_weierstrass(&Affine::identity()), Ok(TeAffine::identity()));
    assert_eq!(TeAffine::identity().to_weierstrass(), Some(Affine::identity()));
    let pts: Vec<TeExtended> = (0..5)
        .map(|i| {
            TeExtended::from_affine(
                &TeAffine::from_weierstrass(&Bls12_377::generator().mul_bigint(&[i + 1]).to_affine()).unwrap(),
            )
            .double()
        })
        .collect();
    for (e, a) in pts.iter().zip(TeExtended::batch_to_affine(&pts)) {
        assert_eq!(e.to_affine(), a);
    }
}

#[test]
fn the_five_exceptional_points() {
    let ex = exceptional_points();
    assert_eq!(ex.len(), 5);
    for (i, p) in ex.iter().enumerate() {
        assert!(p.is_on_curve(), "{i}");
        assert!(!p.is_in_subgroup(), "{i}");
        let err = TeAffine::from_weierstrass(p).unwrap_err();
        assert_eq!(err, if i < 3 { TeMapError::TwoTorsion } else { TeMapError::UMinusOne });
    }
    // they are distinct
    for i in 0..5 {
        for j in 0..i {
            assert_ne!(ex[i], ex[j]);
        }
    }
    let _ = Fq::ONE;
}

#[test]
fn batch_precompute_matches_single() {
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    let mut pts: Vec<Affine<Bls12_377>> = (0..20).map(|_| Affine::random_in_subgroup(&mut rng)).collect();
    pts[4] = Affine::identity();
    let batch = precompute_points(&pts).unwrap();
    for (p, b) in pts.iter().zip(&batch) {
        assert_eq!(precompute_point(p).unwrap(), *b);
    }
    let ex = exceptional_points();
    pts[7] = ex[1];
    assert_eq!(precompute_points(&pts), Err((7, TeMapError::TwoTorsion)));
    pts[7] = ex[4];
    assert_eq!(precompute_points(&pts), Err((7, TeMapError::UMinusOne)));
}
