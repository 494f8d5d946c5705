//! Prime-order-subgroup membership for BLS12 G1, one point at a time
//! (Scott, "A note on group membership tests for G1, G2 and GT on BLS
//! pairing-friendly curves", 2021): with the endomorphism
//! phi(x, y) = (beta x, y), beta a cube root of unity, a point P of E(Fq) is
//! in G1 exactly when phi(P) = -u^2 P, u the curve's seed.
//!
//! Why this is exact (not only for subgroup points): phi satisfies
//! phi^2 + phi + 1 = 0, so alpha = phi + [u^2] is an endomorphism of degree
//! N(u^2 + omega) = u^4 - u^2 + 1 = r (the norm form a^2 - ab + b^2 of
//! `Z[omega]`). Its kernel over the algebraic closure therefore has exactly r
//! points; it contains G1 (on G1, phi acts as -u^2 for the right beta), so
//! it *is* G1, and alpha(P) = O holds for no other point of E(Fq), whatever
//! the cofactor's structure. Tests cross-check against `[r]P` on subgroup
//! points, random curve points, points of every small prime order dividing
//! the cofactor, sums of both, and the points without a twisted Edwards image.
//!
//! The test runs [|u|]([|u|]P) in Jacobian coordinates (a = 0 doubling
//! 2M+5S, 126 of them, and 11-13 additions, complete for every input), about
//! 1.6x fewer field operations than the earlier XYZZ double-and-add. The
//! lane-parallel batch test in `zkmsm::validate` checks many points at once
//! for a fraction of this; this per-point test decides its batch sums and
//! names the bad point when a batch fails.

use crate::{Affine, SwCurve, Xyzz};
use zkmsm_field::{Field, TowerField};

/// The two primitive cube roots of unity of the base field.
/// The two primitive cube roots of unity of the prime field under `F`
/// (q = 1 mod 3 on every curve here), as elements of `F`.
pub(crate) fn cube_roots_of_unity<F: TowerField>() -> [F; 2] {
    type P<F> = <F as TowerField>::Prime;
    let sqrt_m3 = (-P::<F>::from_u64(3)).sqrt().expect("q = 1 mod 3 for BLS12 and BN base fields");
    let half = P::<F>::from_u64(2).inverse().unwrap();
    let w = (sqrt_m3 - P::<F>::ONE) * half;
    [embed(w), embed(w.square())]
}

/// An element of the prime field as an element of the tower above it.
pub fn embed<F: TowerField>(a: F::Prime) -> F {
    let mut c = [F::Prime::ZERO; 12];
    c[0] = a;
    F::from_coefficients(&c[..F::DEGREE])
}

fn phi<C: SwCurve>(p: &Affine<C>, beta: C::Base) -> Affine<C> {
    Affine { x: p.x * beta, ..*p }
}

/// -u^2 P by plain double-and-add (the reference the fast path is tested against).
fn minus_u2<C: SwCurve>(p: &Affine<C>, u_abs: u64) -> Xyzz<C> {
    p.mul_bigint(&[u_abs]).mul_bigint(&[u_abs]).neg()
}

/// The beta for which phi acts as -u^2 on the subgroup.
pub fn find_beta<C: SwCurve>(u_abs: u64) -> C::Base {
    let g = C::generator();
    let want = minus_u2(&g, u_abs);
    cube_roots_of_unity::<C::Base>()
        .into_iter()
        .find(|b| phi(&g, *b).to_xyzz() == want)
        .expect("one cube root of unity acts as -u^2 on G1")
}

/// Jacobian coordinates (x = X/Z^2, y = Y/Z^3), Z = 0 the identity: the
/// cheapest doubling for a = 0 curves, which the test is made of.
#[derive(Clone, Copy)]
pub(crate) struct Jacobian<F> {
    pub(crate) x: F,
    pub(crate) y: F,
    pub(crate) z: F,
}

impl<F: Field> Jacobian<F> {
    pub(crate) fn identity() -> Self {
        Self { x: F::ONE, y: F::ONE, z: F::ZERO }
    }

    pub(crate) fn from_affine<C: SwCurve<Base = F>>(p: &Affine<C>) -> Self {
        if p.infinity {
            Self::identity()
        } else {
            Self { x: p.x, y: p.y, z: F::ONE }
        }
    }

    /// dbl-2009-l (a = 0): 2M + 5S. A point with y = 0 (order 2) gives Z = 0.
    pub(crate) fn double(&self) -> Self {
        let a = self.x.square();
        let b = self.y.square();
        let c = b.square();
        let d = ((self.x + b).square() - a - c).double();
        let e = a.double() + a;
        let f = e.square();
        let x3 = f - d.double();
        let y3 = e * (d - x3) - c.double().double().double();
        let z3 = (self.y * self.z).double();
        Self { x: x3, y: y3, z: z3 }
    }

    /// self + o, every case (identity, o = self, o = -self).
    pub(crate) fn add(&self, o: &Self) -> Self {
        if self.z.is_zero() {
            return *o;
        }
        if o.z.is_zero() {
            return *self;
        }
        let z1z1 = self.z.square();
        let z2z2 = o.z.square();
        let u1 = self.x * z2z2;
        let u2 = o.x * z1z1;
        let s1 = self.y * o.z * z2z2;
        let s2 = o.y * self.z * z1z1;
        let h = u2 - u1;
        let r = s2 - s1;
        if h.is_zero() {
            return if r.is_zero() { self.double() } else { Self::identity() };
        }
        // add-2007-bl with H, r as above
        let i = h.double().square();
        let j = h * i;
        let r = r.double();
        let v = u1 * i;
        let x3 = r.square() - j - v.double();
        let y3 = r * (v - x3) - (s1 * j).double();
        let z3 = ((self.z + o.z).square() - z1z1 - z2z2) * h;
        Self { x: x3, y: y3, z: z3 }
    }

    /// [k] self for k > 0, left to right.
    pub(crate) fn mul_u64(&self, k: u64) -> Self {
        let mut acc = *self;
        for i in (0..63 - k.leading_zeros()).rev() {
            acc = acc.double();
            if (k >> i) & 1 == 1 {
                acc = acc.add(self);
            }
        }
        acc
    }
}

/// phi(P) == -u^2 P, for P on the curve.
pub fn endomorphism_check<C: SwCurve>(p: &Affine<C>, u_abs: u64, beta: C::Base) -> bool {
    if p.infinity {
        return true;
    }
    let r = Jacobian::from_affine(p).mul_u64(u_abs).mul_u64(u_abs);
    if r.z.is_zero() {
        return false; // phi(P) is not the identity
    }
    // (beta x, y) == (X / Z^2, -Y / Z^3)
    let zz = r.z.square();
    p.x * beta * zz == r.x && p.y * zz * r.z == -r.y
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bls12_377, Bls12_381, MsmCurve};
    use rand::{Rng, SeedableRng};

    /// [k] P for a big little-endian k.
    fn mul<C: SwCurve>(p: &Affine<C>, k: &[u64]) -> Affine<C> {
        p.mul_bigint(k).to_affine()
    }

    /// The seed's |u - 1| and its prime factors: E(Fq) is Z/e1 x Z/(e2 r)
    /// with e2 = |u - 1| and e1 = e2 / 3, so the cofactor is e1 e2 and the
    /// group's exponent is e2 r.
    fn u_minus_one<C: MsmCurve>() -> (u64, &'static [u64]) {
        match C::NAME {
            "bls12-377" => (0x8508c00000000000, &[2, 3, 7, 13, 499]),
            "bls12-381" => (0xd201000000010001, &[3, 11, 10177, 859267, 52437899]),
            _ => unreachable!(),
        }
    }

    fn mul_small(a: &[u64], m: u64) -> Vec<u64> {
        let mut out = Vec::with_capacity(a.len() + 1);
        let mut carry = 0u128;
        for &w in a {
            let t = w as u128 * m as u128 + carry;
            out.push(t as u64);
            carry = t >> 64;
        }
        out.push(carry as u64);
        out
    }

    /// Points of order exactly `ell` (a prime dividing u - 1): [e2 r / ell] R.
    fn points_of_order<C: MsmCurve>(ell: u64, rng: &mut impl rand::Rng, want: usize) -> Vec<Affine<C>> {
        let (e2, _) = u_minus_one::<C>();
        let k = mul_small(C::ORDER, e2 / ell);
        let mut out = Vec::new();
        while out.len() < want {
            let x = C::Base::random(rng);
            if let Some(p) = Affine::<C>::from_x(x, rng.gen()) {
                let t = mul(&p, &k);
                if !t.infinity {
                    assert!(mul(&t, &[ell]).infinity, "order {ell}");
                    out.push(t);
                }
            }
        }
        out
    }

    fn check<C: MsmCurve>(seed: u64) {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
        // the cofactor is (u - 1)^2 / 3, and the primes multiply to u - 1
        let (e2, primes) = u_minus_one::<C>();
        let mut rest = e2;
        for &p in primes {
            while rest % p == 0 {
                rest /= p;
            }
        }
        assert_eq!(rest, 1, "u - 1 is a product of these primes");
        let h = mul_small(&[e2], e2 / 3);
        let trimmed: Vec<u64> =
            h.into_iter().rev().skip_while(|&w| w == 0).collect::<Vec<_>>().into_iter().rev().collect();
        assert_eq!(trimmed, C::COFACTOR, "cofactor");

        let mut cases: Vec<(Affine<C>, &str)> = vec![(Affine::identity(), "identity"), (C::generator(), "generator")];
        for _ in 0..20 {
            cases.push((Affine::random_in_subgroup(&mut rng), "subgroup"));
        }
        for _ in 0..20 {
            let x = C::Base::random(&mut rng);
            if let Some(p) = Affine::<C>::from_x(x, rng.gen()) {
                cases.push((p, "random curve point"));
            }
        }
        let ells = primes;
        let q = Affine::<C>::random_in_subgroup(&mut rng);
        for &ell in ells {
            for t in points_of_order::<C>(ell, &mut rng, 2) {
                cases.push((t, "small order"));
                cases.push((q.to_xyzz().add(&t.to_xyzz()).to_affine(), "subgroup + small order"));
            }
        }
        // x = 0: the two points of order 3 on every j = 0 curve
        for largest in [false, true] {
            cases.push((Affine::from_x(C::Base::ZERO, largest).unwrap(), "x = 0 (order 3)"));
        }
        let mut outside = 0;
        for (p, what) in &cases {
            assert!(p.is_on_curve());
            let want = p.is_in_subgroup_by_order();
            assert_eq!(p.is_in_subgroup(), want, "{} {what}", C::NAME);
            outside += !want as usize;
        }
        assert!(outside >= 4 * ells.len(), "enough non-members were tried");
    }

    #[test]
    fn agrees_with_multiplication_by_r_bls12_377() {
        check::<Bls12_377>(1);
        // the 2-torsion points (y = 0) and the points without a twisted Edwards image
        let mut two_torsion = 0;
        for p in crate::te::exceptional_points() {
            assert!(!p.is_in_subgroup() && !p.is_in_subgroup_by_order());
            two_torsion += p.y.is_zero() as usize;
        }
        assert!(two_torsion >= 1);
    }

    #[test]
    fn agrees_with_multiplication_by_r_bls12_381() {
        check::<Bls12_381>(2);
    }

    #[test]
    fn jacobian_multiplication_matches_xyzz() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(5);
        let p = Affine::<Bls12_381>::random_in_subgroup(&mut rng);
        for k in [1u64, 2, 3, 0xd201000000010000, u64::MAX] {
            let j = Jacobian::from_affine(&p).mul_u64(k);
            let x = p.mul_bigint(&[k]);
            let zz = j.z.square();
            assert_eq!(Xyzz { x: j.x, y: j.y, zz, zzz: zz * j.z }, x, "{k}");
        }
    }
}
