//! Conversions between zkmsm and arkworks types, through canonical bytes.
#![allow(dead_code)]

use ark_ff::BigInteger;
use zkmsm_curve::{Affine, SwCurve};
use zkmsm_field::PrimeField;

pub fn to_ark_fq<F: PrimeField, A: ark_ff::PrimeField>(f: &F) -> A {
    A::from_le_bytes_mod_order(&f.to_bytes_le())
}

pub fn from_ark_fq<F: PrimeField, A: ark_ff::PrimeField>(a: &A) -> F {
    let mut b = a.into_bigint().to_bytes_le();
    b.resize(F::NUM_BYTES, 0);
    F::from_bytes_le(&b).unwrap()
}

pub fn to_ark<C: SwCurve, P: ark_ec::short_weierstrass::SWCurveConfig>(
    p: &Affine<C>,
) -> ark_ec::short_weierstrass::Affine<P>
where
    P::BaseField: ark_ff::PrimeField,
{
    if p.infinity {
        ark_ec::short_weierstrass::Affine::<P>::identity()
    } else {
        ark_ec::short_weierstrass::Affine::<P>::new_unchecked(to_ark_fq(&p.x), to_ark_fq(&p.y))
    }
}

pub fn from_ark<C: SwCurve, P: ark_ec::short_weierstrass::SWCurveConfig>(
    p: &ark_ec::short_weierstrass::Affine<P>,
) -> Affine<C>
where
    P::BaseField: ark_ff::PrimeField,
{
    if p.infinity {
        Affine::identity()
    } else {
        Affine::new_unchecked(from_ark_fq(&p.x), from_ark_fq(&p.y))
    }
}
