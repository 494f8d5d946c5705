//! Conversions between zkmsm and arkworks types, through canonical bytes.
#![allow(dead_code)]

use ark_ff::BigInteger;
use zkmsm_curve::{Affine, SwCurve};
use zkmsm_field::*;

pub fn to_ark_fq<F: PrimeField, A: ark_ff::PrimeField>(f: &F) -> A {
    A::from_le_bytes_mod_order(&f.to_bytes_le())
}

pub fn from_ark_fq<F: PrimeField, A: ark_ff::PrimeField>(a: &A) -> F {
    let mut b = a.into_bigint().to_bytes_le();
    b.resize(F::NUM_BYTES, 0);
    F::from_bytes_le(&b).unwrap()
}

/// A coordinate field of zkmsm and its arkworks twin.
pub trait ArkCoord: TowerField {
    type Ark: ark_ff::Field;
    fn to_ark(&self) -> Self::Ark;
    fn from_ark(a: &Self::Ark) -> Self;
}

macro_rules! prime {
    ($ours:ty, $ark:ty) => {
        impl ArkCoord for $ours {
            type Ark = $ark;
            fn to_ark(&self) -> $ark {
                to_ark_fq(self)
            }
            fn from_ark(a: &$ark) -> Self {
                from_ark_fq(a)
            }
        }
    };
}
macro_rules! quadratic {
    ($ours:ty, $ark:ty) => {
        impl ArkCoord for $ours {
            type Ark = $ark;
            fn to_ark(&self) -> $ark {
                <$ark>::new(to_ark_fq(&self.c0), to_ark_fq(&self.c1))
            }
            fn from_ark(a: &$ark) -> Self {
                <$ours>::new(from_ark_fq(&a.c0), from_ark_fq(&a.c1))
            }
        }
    };
}
prime!(Bls12_377Fq, ark_bls12_377::Fq);
prime!(Bls12_381Fq, ark_bls12_381::Fq);
prime!(Bn254Fq, ark_bn254::Fq);
quadratic!(Bls12_377Fq2, ark_bls12_377::Fq2);
quadratic!(Bls12_381Fq2, ark_bls12_381::Fq2);
quadratic!(Bn254Fq2, ark_bn254::Fq2);

pub fn to_ark<C: SwCurve, P: ark_ec::short_weierstrass::SWCurveConfig>(
    p: &Affine<C>,
) -> ark_ec::short_weierstrass::Affine<P>
where
    C::Base: ArkCoord<Ark = P::BaseField>,
{
    if p.infinity {
        ark_ec::short_weierstrass::Affine::<P>::identity()
    } else {
        ark_ec::short_weierstrass::Affine::<P>::new_unchecked(p.x.to_ark(), p.y.to_ark())
    }
}

pub fn from_ark<C: SwCurve, P: ark_ec::short_weierstrass::SWCurveConfig>(
    p: &ark_ec::short_weierstrass::Affine<P>,
) -> Affine<C>
where
    C::Base: ArkCoord<Ark = P::BaseField>,
{
    if p.infinity {
        Affine::identity()
    } else {
        Affine::new_unchecked(C::Base::from_ark(&p.x), C::Base::from_ark(&p.y))
    }
}
