//! Fp2 of each curve against arkworks' Fq2: every operation on random and
//! edge elements (zero, one, u, elements of Fp, non-squares of Fp).

use ark_ff::{AdditiveGroup, Field as ArkField, PrimeField as ArkPrime};
use rand::SeedableRng;
use zkmsm_field::*;

fn to_ark<F: PrimeField, A: ArkPrime>(f: &F) -> A {
    A::from_le_bytes_mod_order(&f.to_bytes_le())
}

macro_rules! against_arkworks {
    ($name:ident, $ours:ty, $ark2:ty, $ark:ty) => {
        #[test]
        fn $name() {
            type F = $ours;
            type B = <F as TowerField>::Prime;
            let conv = |x: &F| <$ark2>::new(to_ark::<B, $ark>(&x.c0), to_ark::<B, $ark>(&x.c1));
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0x2f2);
            let mut samples: Vec<F> = vec![
                F::ZERO,
                F::ONE,
                -F::ONE,
                F::new(B::ZERO, B::ONE),
                F::new(B::ZERO, -B::ONE),
                F::new(B::from_u64(5), B::ZERO),
                F::new(B::ZERO, B::from_u64(7)),
            ];
            // a non-square of Fp as an Fp2 element (a square in Fp2)
            let mut nr = B::from_u64(2);
            while nr.sqrt().is_some() {
                nr += B::ONE;
            }
            samples.push(F::new(nr, B::ZERO));
            samples.extend((0..200).map(|_| F::random(&mut rng)));
            let mut squares = 0;
            for (i, a) in samples.iter().enumerate() {
                let b = samples[(i * 7 + 3) % samples.len()];
                let (aa, ab) = (conv(a), conv(&b));
                assert_eq!(conv(&(*a * b)), aa * ab, "{a:?} * {b:?}");
                assert_eq!(conv(&(*a + b)), aa + ab);
                assert_eq!(conv(&(*a - b)), aa - ab);
                assert_eq!(conv(&-*a), -aa);
                assert_eq!(conv(&a.square()), aa.square(), "{a:?}^2");
                assert_eq!(conv(&a.double()), aa.double());
                assert_eq!(a.inverse().map(|x| conv(&x)), aa.inverse(), "1 / {a:?}");
                let mut frob = aa;
                frob.frobenius_map_in_place(1);
                assert_eq!(conv(&a.frobenius()), frob);
                assert_eq!(a.is_lexicographically_largest(), aa > -aa, "sign of {a:?}");
                match (a.sqrt(), aa.sqrt()) {
                    (Some(r), Some(_)) => {
                        assert_eq!(r.square(), *a);
                        squares += 1;
                    }
                    (None, None) => {}
                    (ours, theirs) => panic!("sqrt of {a:?}: {ours:?} vs {theirs:?}"),
                }
                let sq = a.square();
                assert_eq!(sq.sqrt().map(|r| r.square()), Some(sq), "root of a square");
                assert_eq!(F::from_coefficients(&[a.coefficient(0), a.coefficient(1)]), *a);
            }
            assert!(squares > 50, "about half of random elements are squares: {squares}");
        }
    };
}

against_arkworks!(bls12_377_fq2, Bls12_377Fq2, ark_bls12_377::Fq2, ark_bls12_377::Fq);
against_arkworks!(bls12_381_fq2, Bls12_381Fq2, ark_bls12_381::Fq2, ark_bls12_381::Fq);
against_arkworks!(bn254_fq2, Bn254Fq2, ark_bn254::Fq2, ark_bn254::Fq);
