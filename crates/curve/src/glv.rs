//! The GLV endomorphism of G1 (Gallant, Lambert, Vanstone 2001):
//! phi(x, y) = (beta x, y), beta a primitive cube root of unity in Fq, acts
//! on G1 as multiplication by lambda, a cube root of unity mod r. An MSM
//! with 254- or 255-bit scalars becomes one over the points P_i and
//! phi(P_i) with half-size scalars: k = k0 + k1 lambda (mod r). Two ways to
//! split k, by the curve family:
//!
//! **BLS12** ([`Glv::for_curve`]): for a seed z, r = z^4 - z^2 + 1 =
//! (z^2 - 1) z^2 + 1, so lambda = z^2 - 1 (a 127- or 128-bit number) is a
//! root of lambda^2 + lambda + 1 = r. This module takes the beta that pairs
//! with it (the other cube root, beta^2, acts as -z^2, the one
//! [`crate::subgroup`] tests membership with). Since r - 1 = lambda z^2 the
//! division k = k1 lambda + k0 gives 0 <= k0 < lambda, 0 <= k1 <= z^2, and
//! two corrections make both halves signed and at most half that:
//! k0 > lambda / 2 borrows one lambda from k1, and k1 > z^2 / 2 subtracts
//! r = lambda z^2 + 1 from k (k1 -= z^2, k0 -= 1). |k0|, |k1| < 2^126 on
//! BLS12-377 and < 2^127 on BLS12-381 ([`Glv::half_bits`]). z's sign (negative
//! for BLS12-381) does not enter: only z^2 does.
//!
//! **BN** ([`Glv::for_bn_curve`]): lambda = 36x^3 + 18x^2 + 6x + 1 (x the
//! seed) is a 190-bit cube root of unity mod r, so there is no short
//! division; instead the lattice {(a, b) : a + b lambda = 0 mod r} has the
//! short basis v1 = (2x + 1, -(6x^2 + 2x)), v2 = (6x^2 + 4x + 1, 2x + 1) of
//! determinant r, and Babai's rounding writes (k, 0) = beta1 v1 + beta2 v2,
//! beta1 = k (2x + 1) / r, beta2 = k (6x^2 + 2x) / r, rounds both to c1, c2
//! and keeps (k0, k1) = (k, 0) - c1 v1 - c2 v2, a lattice translate of
//! (k, 0), so k0 + k1 lambda = k mod r. The rounding is a product with
//! round(2^320 b / r) (error below 2^-66 for k < r < 2^255), so |k0|, |k1| are at most
//! (1/2 + 2^-66) (|v1| + |v2|) coordinatewise: < 2^126 on BN254.

use crate::{Affine, SwCurve};
use zkmsm_field::{limbs, TowerField};

/// The GLV constants of a curve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Glv<F> {
    /// The cube root of unity with phi(P) = lambda P on G1.
    pub beta: F,
    /// lambda, canonical little-endian limbs (below r).
    pub lambda: [u64; 4],
    split: Split,
}

/// How a scalar is split (see the module's documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Split {
    /// BLS12: division by lambda = z^2 - 1.
    Seed {
        /// z^2, z the curve's seed.
        z2: u128,
        /// lambda = z^2 - 1.
        lambda: u128,
        /// floor(2^256 / lambda), 3 limbs (Barrett reciprocal of the division).
        recip: [u64; 3],
    },
    /// BN: Babai rounding in the basis (a1, -b1), (a2, b2), all four positive.
    Lattice {
        /// v1 = (a1, -b1), v2 = (a2, b2).
        a1: u128,
        b1: u128,
        a2: u128,
        b2: u128,
        /// round(2^320 b2 / r), round(2^320 b1 / r): beta1 and beta2 per unit of k.
        g1: [u64; 4],
        g2: [u64; 4],
    },
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

/// round(2^320 m / r) for r < 2^255 (4 limbs) and m < 2^128, by restoring
/// division of 2^321 m by r, then halving with rounding (init only).
fn scaled_quotient(m: u128, r: &[u64; 4]) -> [u64; 4] {
    // the numerator 2^321 m, bit by bit from its top (bit 448 at most)
    let mut num = [0u64; 8];
    num[5] = (m as u64) << 1;
    num[6] = (m >> 63) as u64;
    num[7] = (m >> 127) as u64;
    let mut quo = [0u64; 8];
    let mut rem = [0u64; 4]; // rem < r < 2^255: 2 rem + 1 fits 4 limbs
    for i in (0..512).rev() {
        // rem = 2 rem + bit i
        rem = limbs::add(&rem, &rem).0;
        rem[0] |= limbs::bit(&num, i) as u64;
        if limbs::geq(&rem, r) {
            rem = limbs::sub(&rem, r).0;
            quo[i / 64] |= 1 << (i % 64);
        }
    }
    // quo = floor(2^321 m / r); round(2^320 m / r) = floor((quo + 1) / 2)
    let mut one = [0u64; 8];
    one[0] = 1;
    let quo = limbs::shr(&limbs::add(&quo, &one).0, 1);
    assert!(quo[4..].iter().all(|&l| l == 0), "2^320 m / r fits 4 limbs for m < 2^128, r > 2^194");
    [quo[0], quo[1], quo[2], quo[3]]
}

/// round(k g / 2^320) for k, g of 4 limbs (the result below 2^128).
fn round_scaled(k: &[u64; 4], g: &[u64; 4]) -> u128 {
    let mut wide = [0u64; 8];
    mul_into(k, g, &mut wide);
    // add 2^319, then take bits 320..448
    let mut half = [0u64; 8];
    half[4] = 1 << 63;
    let wide = limbs::add(&wide, &half).0;
    debug_assert_eq!(wide[7], 0);
    wide[5] as u128 | (wide[6] as u128) << 64
}

/// The polynomial with these coefficients (highest first) at x, in 4 limbs.
fn poly_at(coeffs: &[u64], x: u64) -> [u64; 4] {
    // Horner: acc = acc x + c, from the highest coefficient
    let mut acc = [0u64; 4];
    for &c in coeffs {
        let mut next = [0u64; 5];
        mul_into(&acc, &[x], &mut next);
        let mut carry = c as u128;
        for limb in next.iter_mut() {
            let t = *limb as u128 + carry;
            *limb = t as u64;
            carry = t >> 64;
        }
        assert!(next[4] == 0, "the polynomial fits 256 bits");
        acc.copy_from_slice(&next[..4]);
    }
    acc
}

impl<F: TowerField> Glv<F> {
    /// The beta of `C` with phi(G) = lambda G (checked on the generator).
    fn beta_for<C: SwCurve<Base = F>>(lambda: &[u64]) -> F {
        let g = C::generator();
        let want = g.mul_bigint(lambda);
        crate::subgroup::cube_roots_of_unity::<F>()
            .into_iter()
            .find(|b| phi_with(&g, *b).to_xyzz() == want)
            .expect("one cube root of unity acts as lambda on G1")
    }

    /// The constants of BLS12 curve C with seed |z| = `z_abs`: lambda = z^2 - 1, and beta the
    /// cube root of unity of Fq for which phi(G) = lambda G.
    pub fn for_curve<C: SwCurve<Base = F>>(z_abs: u64) -> Self {
        let z2 = z_abs as u128 * z_abs as u128;
        let lambda = z2 - 1;
        let l = limbs2(lambda);
        Self {
            beta: Self::beta_for::<C>(&l),
            lambda: [l[0], l[1], 0, 0],
            split: Split::Seed { z2, lambda, recip: reciprocal(lambda) },
        }
    }

    /// The constants of BN curve C with seed x > 0: lambda = 36x^3 + 18x^2 + 6x + 1, the short
    /// basis above, and beta the cube root of unity of Fq for which phi(G) = lambda G.
    pub fn for_bn_curve<C: SwCurve<Base = F>>(x: u64) -> Self {
        let lambda = poly_at(&[36, 18, 6, 1], x);
        let mut r = [0u64; 4];
        r.copy_from_slice(&C::ORDER[..4]);
        let (xx, x2) = (x as u128, x as u128 * x as u128);
        let (a1, b1) = (2 * xx + 1, 6 * x2 + 2 * xx);
        let (a2, b2) = (6 * x2 + 4 * xx + 1, 2 * xx + 1);
        Self {
            beta: Self::beta_for::<C>(&lambda),
            lambda,
            split: Split::Lattice { a1, b1, a2, b2, g1: scaled_quotient(b2, &r), g2: scaled_quotient(b1, &r) },
        }
    }

    /// The BLS12 division's (lambda, z^2); `None` for a lattice split.
    pub fn seed_split(&self) -> Option<(u128, u128)> {
        match self.split {
            Split::Seed { z2, lambda, .. } => Some((lambda, z2)),
            Split::Lattice { .. } => None,
        }
    }

    /// The lattice basis v1 = (a1, -b1), v2 = (a2, b2) as [a1, b1, a2, b2]; `None` for a seed
    /// split.
    pub fn lattice_basis(&self) -> Option<[u128; 4]> {
        match self.split {
            Split::Lattice { a1, b1, a2, b2, .. } => Some([a1, b1, a2, b2]),
            Split::Seed { .. } => None,
        }
    }

    /// phi(P) = (beta x, y): lambda P for P in G1, one multiplication.
    #[inline]
    pub fn phi<C: SwCurve<Base = F>>(&self, p: &Affine<C>) -> Affine<C> {
        phi_with(p, self.beta)
    }

    /// Bits of the halves' absolute values: every |k0|, |k1| is below 2^half_bits (126 on
    /// BLS12-377 and BN254, 127 on BLS12-381).
    pub fn half_bits(&self) -> u32 {
        let bound = match self.split {
            Split::Seed { z2, lambda, .. } => (lambda / 2 + 1).max(z2 / 2),
            // (1/2 + 2^-66) (u + v) < (u + v) / 2 + 2 for u + v < 2^128 (see the module's
            // documentation)
            Split::Lattice { a1, b1, a2, b2, .. } => (a1 / 2 + a2 / 2 + 2).max(b1 / 2 + b2 / 2 + 2),
        };
        128 - bound.leading_zeros()
    }

    /// k (canonical, below r) as k0 + k1 lambda, halves balanced around zero.
    pub fn decompose(&self, k: &[u64; 4]) -> Halves {
        match self.split {
            Split::Seed { z2, lambda, recip } => decompose_seed(k, z2, lambda, &recip),
            Split::Lattice { a1, b1, a2, b2, g1, g2 } => {
                let c1 = round_scaled(k, &g1);
                let c2 = round_scaled(k, &g2);
                // the true halves are below 2^127: arithmetic mod 2^128 gives them exactly
                let k_lo = k[0] as u128 | (k[1] as u128) << 64;
                let k0 = k_lo.wrapping_sub(c1.wrapping_mul(a1)).wrapping_sub(c2.wrapping_mul(a2));
                let k1 = c1.wrapping_mul(b1).wrapping_sub(c2.wrapping_mul(b2));
                Halves { k0: k0 as i128, k1: k1 as i128 }
            }
        }
    }
}

/// The BLS12 split (see the module's documentation).
fn decompose_seed(k: &[u64; 4], z2: u128, lambda: u128, recip: &[u64; 3]) -> Halves {
    // q = floor(k recip / 2^256) <= floor(k / lambda), at most two short
    let mut wide = [0u64; 7];
    mul_into(k, recip, &mut wide);
    let mut q = wide[4] as u128 | (wide[5] as u128) << 64;
    debug_assert_eq!(wide[6], 0);
    // rem = k - q lambda (fits 256 bits, and is below 3 lambda)
    let mut ql = [0u64; 4];
    mul_into(&limbs2(q), &limbs2(lambda), &mut ql);
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
    while hi > 0 || lo >= lambda {
        let (d, b) = lo.overflowing_sub(lambda);
        lo = d;
        hi -= b as u64;
        q += 1;
    }
    let rem = lo;
    let (mut k0, mut k1) = (rem as i128, q as i128);
    if rem > lambda / 2 {
        k0 -= lambda as i128;
        k1 += 1;
    }
    if k1 as u128 > z2 / 2 {
        k1 -= z2 as i128;
        k0 -= 1;
    }
    Halves { k0, k1 }
}

fn phi_with<C: SwCurve>(p: &Affine<C>, beta: C::Base) -> Affine<C> {
    Affine { x: p.x * beta, ..*p }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bls12_377, Bls12_381, Bn254, MsmCurve};
    use rand::{Rng, SeedableRng};
    use zkmsm_field::{Field, PrimeField};

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
        let lambda = fr_limbs::<C>(&glv.lambda);
        assert_eq!(fr::<C>(h.k0) + fr::<C>(h.k1) * lambda, fr_limbs::<C>(k), "{k:x?} -> {h:?}");
        let bound = 1u128 << glv.half_bits();
        assert!(h.k0.unsigned_abs() < bound && h.k1.unsigned_abs() < bound, "{k:x?} -> {h:?}");
        h
    }

    fn constants<C: MsmCurve>(half_bits: u32) {
        let glv = C::glv().unwrap();
        assert_eq!(glv.half_bits(), half_bits, "{}", C::NAME);
        // lambda is a primitive cube root of unity mod r
        let lambda = fr_limbs::<C>(&glv.lambda);
        assert!((lambda.square() + lambda + C::Scalar::ONE).is_zero());
        assert!(lambda != C::Scalar::ONE);
        if let Some((lam, z2)) = glv.seed_split() {
            // r = lambda z^2 + 1
            let mut r_minus_1 = [0u64; 4];
            mul_into(&limbs2(lam), &limbs2(z2), &mut r_minus_1);
            assert_eq!(r_minus_1, r_minus::<C>(1));
        }
        if let Some([a1, b1, a2, b2]) = glv.lattice_basis() {
            // a + b lambda = 0 for both basis vectors, and the determinant a1 b2 + a2 b1 is r
            assert!((fr_u128::<C>(a1) - fr_u128::<C>(b1) * lambda).is_zero());
            assert!((fr_u128::<C>(a2) + fr_u128::<C>(b2) * lambda).is_zero());
            let (mut d1, mut d2) = ([0u64; 4], [0u64; 4]);
            mul_into(&limbs2(a1), &limbs2(b2), &mut d1);
            mul_into(&limbs2(a2), &limbs2(b1), &mut d2);
            let (det, carry) = limbs::add(&d1, &d2);
            assert_eq!((&det[..], carry), (C::ORDER, 0), "det = r");
        }
        // beta is a primitive cube root of unity of Fq
        let b = glv.beta;
        assert!(b != C::Base::ONE && b * b * b == C::Base::ONE);
        // phi(P) = lambda P on the generator and random subgroup points, not with the other root
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
        let mut points = vec![C::generator()];
        points.extend((0..8).map(|_| Affine::<C>::random_in_subgroup(&mut rng)));
        for p in &points {
            assert_eq!(glv.phi(p).to_xyzz(), p.mul_bigint(&glv.lambda), "{}", C::NAME);
            assert!(phi_with(p, b * b).to_xyzz() != p.mul_bigint(&glv.lambda));
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

    #[test]
    fn constants_bn254() {
        constants::<Bn254>(126);
    }

    /// q = scaled_quotient(m, r) is the nearest integer to 2^320 m / r: |q r - 2^320 m| <= r / 2,
    /// checked in 8-limb integers.
    #[test]
    fn scaled_quotient_rounds_to_nearest() {
        let r = <Bn254 as crate::SwCurve>::ORDER;
        let r: [u64; 4] = r.try_into().unwrap();
        for m in [1u128, 2, 3, 0x44e992b44a6909f1, (1 << 127) - 1, 0x6f4d8248eeb859fc8211bbeb7d4f1128] {
            let q = scaled_quotient(m, &r);
            // q r and 2^320 m in 8 limbs
            let mut qr = [0u64; 8];
            mul_into(&q, &r, &mut qr);
            let mut m320 = [0u64; 8];
            m320[5] = m as u64;
            m320[6] = (m >> 64) as u64;
            let diff = if limbs::geq(&qr, &m320) { limbs::sub(&qr, &m320).0 } else { limbs::sub(&m320, &qr).0 };
            let mut r8 = [0u64; 8];
            r8[..4].copy_from_slice(&r);
            assert!(limbs::geq(&r8, &limbs::add(&diff, &diff).0), "m = {m:#x}: off by more than r / 2");
        }
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
        let (lam, z2) = glv.seed_split().unwrap();
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

    /// The lattice split: edge scalars (0, 1, lambda, the basis' first coordinates and (r + 1)
    /// / 2 with their neighbours, r - 1, r - 2) and random ones, every one recombined and within the bound; the bound is reached.
    fn lattice_decomposition<C: MsmCurve>(seed: u64) {
        let glv = C::glv().unwrap();
        let [a1, _, a2, _] = glv.lattice_basis().unwrap();
        let add_small = |k: [u64; 4], d: i64| {
            let f = fr_limbs::<C>(&k) + fr::<C>(d as i128);
            C::scalar_to_limbs(&f)
        };
        let mut edges = vec![[0u64; 4], [1, 0, 0, 0], r_minus::<C>(1), r_minus::<C>(2)];
        for d in [-1i64, 0, 1] {
            edges.push(add_small(glv.lambda, d));
            edges.push(add_small([a1 as u64, (a1 >> 64) as u64, 0, 0], d));
            edges.push(add_small([a2 as u64, (a2 >> 64) as u64, 0, 0], d));
        }
        // (r + 1) / 2 and its neighbours: beta1, beta2 near half of b2, b1
        let half = fr_u128::<C>(2).inverse().unwrap();
        for d in [-1i64, 0, 1] {
            edges.push(add_small(C::scalar_to_limbs(&half), d));
        }
        for k in &edges {
            check_halves::<C>(glv, k);
        }
        assert_eq!(glv.decompose(&[0; 4]), Halves { k0: 0, k1: 0 });
        assert_eq!(glv.decompose(&[1, 0, 0, 0]), Halves { k0: 1, k1: 0 });
        assert_eq!(glv.decompose(&r_minus::<C>(1)), Halves { k0: -1, k1: 0 });
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
        let mut widest = (0u32, 0u32);
        for _ in 0..20_000 {
            let k = C::scalar_to_limbs(&C::Scalar::random(&mut rng));
            let h = check_halves::<C>(glv, &k);
            widest.0 = widest.0.max(128 - h.k0.unsigned_abs().leading_zeros());
            widest.1 = widest.1.max(128 - h.k1.unsigned_abs().leading_zeros());
        }
        assert_eq!(widest, (glv.half_bits(), glv.half_bits()), "the bound is reached, not loose");
    }

    #[test]
    fn decomposition_bn254() {
        lattice_decomposition::<Bn254>(13);
    }
}
