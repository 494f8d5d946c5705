//! The twist's endomorphism psi = untwist o Frobenius o twist on G2, and the
//! subgroup check it gives.
//!
//! G2 lives on a sextic twist E': y^2 = x^3 + b' over Fq2, with b' = b xi
//! (an M-twist: BLS12-381) or b / xi (a D-twist: BLS12-377, BN254). With
//! t = b' / b, both kinds give psi(x, y) = (cx x^q, cy y^q) with
//! cx = t^(-(q-1)/3) and cy = t^(-(q-1)/2) ([`Psi::for_twist`]). On G2, psi
//! acts as multiplication by q mod r = trace - 1: the seed x on BLS12
//! curves, 6x^2 on BN curves ([`PsiEigenvalue`]).
//!
//! A point of E'(Fq2) is in G2 when psi(P) = \[q mod r\] P: proved for
//! BLS12-381 by Scott ("A note on group membership tests for G1, G2 and GT
//! on BLS pairing-friendly curves", 2021), and for BN254 and BLS12-377 the
//! same test stands because no point outside G2 of the twist's small
//! cofactor factors satisfies it (the tests build points of each prime
//! factor of the cofactor and of composite order and check that they fail,
//! and check the test against \[r\]P = 0 on random points).

use crate::subgroup::Jacobian;
use crate::{Affine, SwCurve};
use zkmsm_field::{Field, PrimeField, TowerField};

/// The constants of psi on one twist.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Psi<F> {
    /// The factor of x^q.
    pub cx: F,
    /// The factor of y^q.
    pub cy: F,
}

/// q mod r, the eigenvalue of psi on G2, as the seed it is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PsiEigenvalue {
    /// BLS12: the seed x = +-abs.
    Seed {
        /// |x|.
        abs: u64,
        /// x < 0 (BLS12-381).
        negative: bool,
    },
    /// BN: 6x^2 for the seed x.
    SixSeedSquared {
        /// The seed x.
        x: u64,
    },
}

/// x^e for a little-endian exponent, left to right.
pub fn pow<F: Field>(x: F, e: &[u64]) -> F {
    let mut acc = F::ONE;
    for i in (0..e.len() * 64).rev() {
        acc = acc.square();
        if (e[i / 64] >> (i % 64)) & 1 == 1 {
            acc *= x;
        }
    }
    acc
}

/// (q - 1) / d for the prime field's q, d dividing q - 1.
fn q_minus_one_over<P: PrimeField>(d: u64) -> Vec<u64> {
    let bytes = (-P::ONE).to_bytes_le();
    let mut limbs: Vec<u64> =
        bytes.chunks(8).map(|c| u64::from_le_bytes(c.try_into().expect("8-byte limbs"))).collect();
    let mut rem = 0u128;
    for l in limbs.iter_mut().rev() {
        let cur = (rem << 64) | *l as u128;
        *l = (cur / d as u128) as u64;
        rem = cur % d as u128;
    }
    assert_eq!(rem, 0, "{d} divides q - 1");
    limbs
}

impl<F: TowerField> Psi<F> {
    /// psi on the twist with b' = t b (see the module's documentation).
    pub fn for_twist(t: F) -> Self {
        let t_inv = t.inverse().expect("b' / b is non-zero");
        Self { cx: pow(t_inv, &q_minus_one_over::<F::Prime>(3)), cy: pow(t_inv, &q_minus_one_over::<F::Prime>(2)) }
    }

    /// psi(P).
    pub fn apply<C: SwCurve<Base = F>>(&self, p: &Affine<C>) -> Affine<C> {
        if p.infinity {
            return *p;
        }
        Affine::new_unchecked(self.cx * p.x.frobenius(), self.cy * p.y.frobenius())
    }

    /// psi(P) == \[eigenvalue\] P, for P on the curve: membership in G2.
    pub fn is_in_g2<C: SwCurve<Base = F>>(&self, p: &Affine<C>, eigenvalue: PsiEigenvalue) -> bool {
        if p.infinity {
            return true;
        }
        let j = Jacobian::from_affine(p);
        let (m, negative) = match eigenvalue {
            PsiEigenvalue::Seed { abs, negative } => (j.mul_u64(abs), negative),
            PsiEigenvalue::SixSeedSquared { x } => (j.mul_u64(x).mul_u64(x).mul_u64(6), false),
        };
        if m.z.is_zero() {
            return false; // psi(P) is not the identity
        }
        let q = self.apply(p);
        // (q.x, q.y) == (X / Z^2, +-Y / Z^3)
        let zz = m.z.square();
        let y = if negative { -m.y } else { m.y };
        q.x * zz == m.x && q.y * zz * m.z == y
    }
}
