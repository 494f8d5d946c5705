//! The curves the lane engines take: those over a prime field.

use zkmsm_curve::MsmCurve;
use zkmsm_field::PrimeField;

/// A curve over a prime field: what the lane engines take.
pub trait PrimeCurve: MsmCurve<Base: PrimeField> {}
impl<C: MsmCurve<Base: PrimeField>> PrimeCurve for C {}
