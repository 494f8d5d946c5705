//! The GLV endomorphism of BLS12 G1 (Gallant, Lambert, Vanstone 2001):
//! phi(x, y) = (beta x, y), beta a primitive cube root of unity in Fq, acts
//! on G1 as multiplication by lambda, a cube root of unity mod r. An MSM
//! with 255-bit scalars becomes one over the points P_i and phi(P_i) with
//! half-size scalars: k = k0 + k1 lambda (mod r).
//!
//! For a BLS12 seed z, r = z^4 - z^2 + 1 = (z^2 - 1) z^2 + 1, so
//! lambda = z^2 - 1 (a 127- or 128-bit number) is a root of
//! lambda^2 + lambda + 1 = r. This module takes the beta that pairs with it
//! (the other cube root, beta^2, acts as -z^2, the one
//! [`crate::subgroup`] tests membership with). Since r - 1 = lambda z^2 the
//! division k = k1 lambda + k0 gives 0 <= k0 < lambda, 0 <= k1 <= z^2, and
//! two corrections make both halves signed and at most half that:
//! k0 > lambda / 2 borrows one lambda from k1, and k1 > z^2 / 2 subtracts
//! r = lambda z^2 + 1 from k (k1 -= z^2, k0 -= 1). |k0|, |k1| < 2^126 on
//! BLS12-377 and < 2^127 on BLS12-381 ([`Glv::half_bits`]). z's sign (negative
//! for BLS12-381) does not enter: only z^2 does.

use crate::{Affine, SwCurve};
use zkmsm_field::PrimeField;

/// The GLV constants of a curve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Glv<F> {
    /// The cube root of unity with phi(P) = lambda P on G1.
    pub beta: F,
    /// z^2, z the curve's seed.
    pub z2: u128,
    /// lambda = z^2 - 1.
    pub lambda: u128,
    /// floor(2^256 / lambda), 3 limbs (Barrett reciprocal of the division).
    recip: [u64; 3],
}

/// A scalar's two halves: k = k0 + k1 lambda (mod r), each below
/// 2^[`Glv::half_bits`] in absolute value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Halves {
    /// The half multiplying P.
    pub k0: i128,
    /// The half multiplying phi(P).
    pub k1: i128,
}

/// a * b for little-endian limb slices, into `out` (zeroed by the caller,
/// at least a.len() + b.len() limbs).
fn mul_into(a: &[u64], b: &[u64], out: &mut [u64]) {
    for (i, &x) in a.iter().enumerate() {
        let mut carry = 0u128;
        for (j, &y) in b.iter().enumerate() {
            let t = out[i + j] as u128 + x as u128 * y as u128 + carry;
            out[i + j] = t as u64;
            carry = t >> 64;
        }
        out[i + b.len()] = carry as u64;
    }
}

fn limbs2(v: u128) -> [u64; 2] {
    [v as u64, (v >> 64) as u64]
}

/// floor(2^256 / d) by restoring division (init only).
fn reciprocal(d: u128) -> [u64; 3] {
    // 2^256 = d q + rem, bit by bit from the top of 2^256
    let mut q = [0u64; 5];
    let mut rem: u128 = 0;
    for i in (0..=256u32).rev() {
        // rem = 2 rem + bit i of 2^256; a bit shifted out of the top means rem >= 2^128 > d
        let top = rem >> 127 == 1;
        rem = (rem << 1) | (i == 256) as u128;
        if top || rem >= d {
            rem = rem.wrapping_sub(d);
            q[(i / 64) as usize] |= 1 << (i % 64);
        }
    }
    assert!(q[3] == 0 && q[4] == 0, "the reciprocal of a divisor above 2^64 has 3 limbs");
    [q[0], q[1], q[2]]
}

impl<F: PrimeField> Glv<F> {
    /// The constants for seed |z| = `z_abs`, with `beta` the matching cube root of unity (found
    /// and checked by [`Glv::for_curve`]).
    fn new(z_abs: u64, beta: F) -> Self {
        let z2 = z_abs as u128 * z_abs as u128;
        let lambda = z2 - 1;
        Self { beta, z2, lambda, recip: reciprocal(lambda) }
    }

    /// The constants of curve C with seed |z| = `z_abs`: beta is the cube root of unity of Fq
    /// for which phi(G) = (z^2 - 1) G.
    pub fn for_curve<C: SwCurve<Base = F>>(z_abs: u64) -> Self {
        let g = C::generator();
        let z2 = z_abs as u128 * z_abs as u128;
        let want = g.mul_bigint(&limbs2(z2 - 1));
        let beta = crate::subgroup::cube_roots_of_unity::<F>()
            .into_iter()
            .find(|b| phi_with(&g, *b).to_xyzz() == want)
            .expect("one cube root of unity acts as z^2 - 1 on G1");
        Self::new(z_abs, beta)
    }

    /// phi(P) = (beta x, y): lambda P for P in G1, one multiplication.
    #[inline]
    pub fn phi<C: SwCurve<Base = F>>(&self, p: &Affine<C>) -> Affine<C> {
        phi_with(p, self.beta)
    }

    /// Bits of the halves' absolute values: every |k0|, |k1| is below 2^half_bits (126 on
    /// BLS12-377, 127 on BLS12-381).
    pub fn half_bits(&self) -> u32 {
        let bound = (self.lambda / 2 + 1).max(self.z2 / 2);
        128 - bound.leading_zeros()
    }

    /// k (canonical, below r = lambda z^2 + 1) as k0 + k1 lambda, halves balanced around zero.
    pub fn decompose(&self, k: &[u64; 4]) -> Halves {
        // q = floor(k recip / 2^256) <= floor(k / lambda), at most two short
        let mut wide = [0u64; 7];
        mul_into(k, &self.recip, &mut wide);
        let mut q = wide[4] as u128 | (wide[5] as u128) << 64;
        debug_assert_eq!(wide[6], 0);
        // rem = k - q lambda (fits 256 bits, and is below 3 lambda)
        let mut ql = [0u64; 4];
        mul_into(&limbs2(q), &limbs2(self.lambda), &mut ql);
        let mut rem = [0u64; 4];
        let mut borrow = 0u64;
        for i in 0..4 {
            let (d1, b1) = k[i].overflowing_sub(ql[i]);
            let (d2, b2) = d1.overflowing_sub(borrow);
            rem[i] = d2;
            borrow = (b1 || b2) as u64;
        }
        debug_assert!(borrow == 0 && rem[2] < 4 && rem[3] == 0, "Barrett estimate too small");
        // rem < 3 lambda < 2^130: correct while it is at least lambda
        let (mut lo, mut hi) = (rem[0] as u128 | (rem[1] as u128) << 64, rem[2]);
        while hi > 0 || lo >= self.lambda {
            let (d, b) = lo.overflowing_sub(self.lambda);
            lo = d;
            hi -= b as u64;
            q += 1;
        }
        let rem = lo;
        let (mut k0, mut k1) = (rem as i128, q as i128);
        if rem > self.lambda / 2 {
            k0 -= self.lambda as i128;
            k1 += 1;
        }
        if k1 as u128 > self.z2 / 2 {
            k1 -= self.z2 as i128;
            k0 -= 1;
        }
        Halves { k0, k1 }
    }
}

fn phi_with<C: SwCurve>(p: &Affine<C>, beta: C::Base) -> Affine<C> {
    Affine { x: p.x * beta, ..*p }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bls12_377, Bls12_381, MsmCurve};
    use rand::{Rng, SeedableRng};

    fn fr_u128<C: MsmCurve>(v: u128) -> C::Scalar {
        let mut bytes = [0u8; 32];
        bytes[..16].copy_from_slice(&v.to_le_bytes());
        C::Scalar::from_bytes_le(&bytes).unwrap()
    }

    fn fr<C: MsmCurve>(v: i128) -> C::Scalar {
        let m = fr_u128::<C>(v.unsigned_abs());
        if v < 0 {
            -m
        } else {
            m
        }
    }

    fn fr_limbs<C: MsmCurve>(k: &[u64; 4]) -> C::Scalar {
        let bytes: Vec<u8> = k.iter().flat_map(|l| l.to_le_bytes()).collect();
        C::Scalar::from_bytes_le(&bytes).unwrap()
    }

    fn r_minus<C: MsmCurve>(d: u64) -> [u64; 4] {
        let mut k = [0u64; 4];
        k.copy_from_slice(&C::ORDER[..4]);
        let (v, b) = k[0].overflowing_sub(d);
        k[0] = v;
        let mut i = 1;
        let mut borrow = b;
        while borrow {
            let (v, b) = k[i].overflowing_sub(1);
            k[i] = v;
            borrow = b;
            i += 1;
        }
        k
    }

    /// k0 + k1 lambda == k in Fr, both halves within the bound.
    fn check_halves<C: MsmCurve>(glv: &Glv<C::Base>, k: &[u64; 4]) -> Halves {
        let h = glv.decompose(k);
        let lambda = fr_u128::<C>(glv.lambda);
        assert_eq!(fr::<C>(h.k0) + fr::<C>(h.k1) * lambda, fr_limbs::<C>(k), "{k:x?} -> {h:?}");
        let bound = 1u128 << glv.half_bits();
        assert!(h.k0.unsigned_abs() < bound && h.k1.unsigned_abs() < bound, "{k:x?} -> {h:?}");
        h
    }

    fn constants<C: MsmCurve>(half_bits: u32) {
        let glv = C::glv().unwrap();
        assert_eq!(glv.half_bits(), half_bits, "{}", C::NAME);
        // lambda is a primitive cube root of unity mod r, and r = lambda z^2 + 1
        let lambda = fr_u128::<C>(glv.lambda);
        assert!((lambda.square() + lambda + C::Scalar::ONE).is_zero());
        assert!(lambda != C::Scalar::ONE);
        let mut r_minus_1 = [0u64; 4];
        mul_into(&limbs2(glv.lambda), &limbs2(glv.z2), &mut r_minus_1);
        assert_eq!(r_minus_1, r_minus::<C>(1));
        // beta is a primitive cube root of unity of Fq
        let b = glv.beta;
        assert!(b != C::Base::ONE && b * b * b == C::Base::ONE);
        // phi(P) = lambda P on the generator and random subgroup points, not with the other root
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
        let mut points = vec![C::generator()];
        points.extend((0..8).map(|_| Affine::<C>::random_in_subgroup(&mut rng)));
        for p in &points {
            assert_eq!(glv.phi(p).to_xyzz(), p.mul_bigint(&limbs2(glv.lambda)), "{}", C::NAME);
            assert!(phi_with(p, b * b).to_xyzz() != p.mul_bigint(&limbs2(glv.lambda)));
        }
        assert!(glv.phi(&Affine::<C>::identity()).is_identity());
    }

    #[test]
    fn constants_bls12_377() {
        constants::<Bls12_377>(126);
    }

    #[test]
    fn constants_bls12_381() {
        constants::<Bls12_381>(127);
    }

    /// The reciprocal is floor(2^256 / d): d q <= 2^256 < d (q + 1).
    #[test]
    fn reciprocal_is_the_floor() {
        for d in
            [(1u128 << 64) + 1, u128::MAX, 0x452217cc900000010a11800000000000, 0xac45a4010001a4020000000100000000 - 1]
        {
            let q = reciprocal(d);
            let mut dq = [0u64; 5];
            mul_into(&limbs2(d), &q, &mut dq);
            assert_eq!(dq[4], 0, "d q < 2^256");
            let mut dq1 = [0u64; 5];
            let q1 = {
                let (a, c) = q[0].overflowing_add(1);
                let (b, c2) = q[1].overflowing_add(c as u64);
                [a, b, q[2] + c2 as u64]
            };
            mul_into(&limbs2(d), &q1, &mut dq1);
            assert_eq!(dq1[4], 1, "d (q + 1) >= 2^256");
            assert!(dq1[..4] != [0; 4], "d (q + 1) > 2^256 unless d divides it");
        }
    }

    fn decomposition<C: MsmCurve>(seed: u64) {
        let glv = C::glv().unwrap();
        let (lam, z2) = (glv.lambda, glv.z2);
        let limbs = |v: u128| [v as u64, (v >> 64) as u64, 0, 0];
        let mul = |a: u128, b: u128| {
            let mut out = [0u64; 4];
            mul_into(&limbs2(a), &limbs2(b), &mut out);
            out
        };
        let add = |a: [u64; 4], b: u128| {
            let mut out = a;
            let (v, c) = (a[0] as u128 | (a[1] as u128) << 64).overflowing_add(b);
            out[0] = v as u64;
            out[1] = (v >> 64) as u64;
            if c {
                out[2] += 1;
            }
            out
        };
        let mut edges = vec![
            [0u64; 4],
            [1, 0, 0, 0],
            limbs(lam - 1),
            limbs(lam),
            limbs(lam + 1),
            limbs(lam / 2),
            limbs(lam / 2 + 1),
            r_minus::<C>(1),
            r_minus::<C>(2),
            r_minus::<C>(lam as u64),
        ];
        // k1 at and around every correction's boundary and its maximum (z^2 before balancing)
        for q in [z2 / 2 - 1, z2 / 2, z2 / 2 + 1, z2 - 1] {
            for rem in [0, 1, lam / 2, lam / 2 + 1, lam - 1] {
                edges.push(add(mul(q, lam), rem));
            }
        }
        edges.push(mul(z2, lam)); // r - 1 again, built the other way
        for k in &edges {
            check_halves::<C>(glv, k);
        }
        assert_eq!(glv.decompose(&[0; 4]), Halves { k0: 0, k1: 0 });
        assert_eq!(glv.decompose(&limbs(lam)), Halves { k0: 0, k1: 1 });
        assert_eq!(glv.decompose(&r_minus::<C>(1)), Halves { k0: -1, k1: 0 });
        // random scalars, and scalars whose halves come out near the bound
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
        let mut widest = (0u32, 0u32);
        for i in 0..20_000 {
            let k = if i % 2 == 0 {
                C::scalar_to_limbs(&C::Scalar::random(&mut rng))
            } else {
                let q = z2 / 2 + rng.gen_range(0..1u128 << 20) - (1 << 19);
                add(mul(q, lam), lam / 2 + rng.gen_range(0..1u128 << 20) - (1 << 19))
            };
            let h = check_halves::<C>(glv, &k);
            widest.0 = widest.0.max(128 - h.k0.unsigned_abs().leading_zeros());
            widest.1 = widest.1.max(128 - h.k1.unsigned_abs().leading_zeros());
        }
        assert_eq!(widest, (glv.half_bits(), glv.half_bits()), "the bound is reached, not loose");
    }

    #[test]
    fn decomposition_bls12_377() {
        decomposition::<Bls12_377>(11);
    }

    #[test]
    fn decomposition_bls12_381() {
        decomposition::<Bls12_381>(12);
    }
}
