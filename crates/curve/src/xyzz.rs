//! Extended Jacobian coordinates (X, Y, ZZ, ZZZ) with x = X/ZZ, y = Y/ZZZ and
//! ZZ^3 = ZZZ^2: the bucket representation of blst, gnark and arkworks. Mixed
//! addition costs 8M+2S, doubling 6M+3S. Infinity is ZZ = 0.

use crate::{Affine, SwCurve};
use zkmsm_field::{batch_inverse, Field};

/// A point in extended Jacobian coordinates: x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2; ZZ = 0 is the point
/// at infinity.
#[derive(Clone, Copy, Debug)]
pub struct Xyzz<C: SwCurve> {
    /// X.
    pub x: C::Base,
    /// Y.
    pub y: C::Base,
    /// ZZ.
    pub zz: C::Base,
    /// ZZZ.
    pub zzz: C::Base,
}

impl<C: SwCurve> Default for Xyzz<C> {
    fn default() -> Self {
        Self::identity()
    }
}

impl<C: SwCurve> PartialEq for Xyzz<C> {
    /// Equality of the points represented, not of the coordinates.
    fn eq(&self, o: &Self) -> bool {
        match (self.is_identity(), o.is_identity()) {
            (true, true) => true,
            (false, false) => self.x * o.zz == o.x * self.zz && self.y * o.zzz == o.y * self.zzz,
            _ => false,
        }
    }
}
impl<C: SwCurve> Eq for Xyzz<C> {}

impl<C: SwCurve> Xyzz<C> {
    /// The point at infinity (ZZ = ZZZ = 0).
    #[inline]
    pub fn identity() -> Self {
        Self { x: C::Base::ONE, y: C::Base::ONE, zz: C::Base::ZERO, zzz: C::Base::ZERO }
    }

    /// True for the point at infinity.
    #[inline]
    pub fn is_identity(&self) -> bool {
        self.zz.is_zero()
    }

    /// The affine point with ZZ = ZZZ = 1 (or the identity).
    #[inline]
    pub fn from_affine(p: &Affine<C>) -> Self {
        if p.infinity {
            Self::identity()
        } else {
            Self { x: p.x, y: p.y, zz: C::Base::ONE, zzz: C::Base::ONE }
        }
    }

    /// The negation (X, -Y, ZZ, ZZZ).
    #[inline]
    pub fn neg(&self) -> Self {
        Self { y: -self.y, ..*self }
    }

    /// self + p for affine p (madd-2008-s), falling back to doubling for P + P.
    #[inline]
    pub fn add_affine(&self, p: &Affine<C>) -> Self {
        if p.infinity {
            return *self;
        }
        if self.is_identity() {
            return Self::from_affine(p);
        }
        let u2 = p.x * self.zz;
        let s2 = p.y * self.zzz;
        let pp_ = u2 - self.x;
        let r = s2 - self.y;
        if pp_.is_zero() {
            return if r.is_zero() { Self::from_affine(p).double() } else { Self::identity() };
        }
        let pp = pp_.square();
        let ppp = pp_ * pp;
        let q = self.x * pp;
        let x3 = r.square() - ppp - q.double();
        let y3 = r * (q - x3) - self.y * ppp;
        Self { x: x3, y: y3, zz: self.zz * pp, zzz: self.zzz * ppp }
    }

    /// self - p for affine p.
    #[inline]
    pub fn sub_affine(&self, p: &Affine<C>) -> Self {
        self.add_affine(&p.neg())
    }

    /// self + o (add-2008-s), with the doubling and inverse cases.
    pub fn add(&self, o: &Self) -> Self {
        if self.is_identity() {
            return *o;
        }
        if o.is_identity() {
            return *self;
        }
        let u1 = self.x * o.zz;
        let u2 = o.x * self.zz;
        let s1 = self.y * o.zzz;
        let s2 = o.y * self.zzz;
        let p = u2 - u1;
        let r = s2 - s1;
        if p.is_zero() {
            return if r.is_zero() { self.double() } else { Self::identity() };
        }
        let pp = p.square();
        let ppp = p * pp;
        let q = u1 * pp;
        let x3 = r.square() - ppp - q.double();
        let y3 = r * (q - x3) - s1 * ppp;
        Self { x: x3, y: y3, zz: self.zz * o.zz * pp, zzz: self.zzz * o.zzz * ppp }
    }

    /// 2 * self (dbl-2008-s-1 with a = 0).
    pub fn double(&self) -> Self {
        if self.is_identity() {
            return *self;
        }
        let u = self.y.double();
        let v = u.square();
        let w = u * v;
        let s = self.x * v;
        let x2 = self.x.square();
        let m = x2.double() + x2;
        let x3 = m.square() - s.double();
        let y3 = m * (s - x3) - w * self.y;
        Self { x: x3, y: y3, zz: v * self.zz, zzz: w * self.zzz }
    }

    /// The affine point (one inversion).
    pub fn to_affine(&self) -> Affine<C> {
        if self.is_identity() {
            return Affine::identity();
        }
        let zzz_inv = self.zzz.inverse().expect("non-zero");
        let z_inv = self.zz * zzz_inv; // Z^2 / Z^3
        Affine::new_unchecked(self.x * z_inv.square(), self.y * zzz_inv)
    }

    /// Normalize many points with one inversion.
    pub fn batch_to_affine(points: &[Self]) -> Vec<Affine<C>> {
        let mut inv: Vec<C::Base> = points.iter().map(|p| p.zzz).collect();
        batch_inverse(&mut inv);
        points
            .iter()
            .zip(inv)
            .map(|(p, zzz_inv)| {
                if p.is_identity() {
                    Affine::identity()
                } else {
                    let z_inv = p.zz * zzz_inv;
                    Affine::new_unchecked(p.x * z_inv.square(), p.y * zzz_inv)
                }
            })
            .collect()
    }

    /// Double-and-add scalar multiplication by a little-endian integer.
    pub fn mul_bigint(&self, k: &[u64]) -> Self {
        let mut acc = Self::identity();
        for i in (0..k.len() * 64).rev() {
            acc = acc.double();
            if (k[i / 64] >> (i % 64)) & 1 == 1 {
                acc = acc.add(self);
            }
        }
        acc
    }
}

/// Scalar multiplication of affine points, accumulated in XYZZ.
impl<C: SwCurve> Affine<C> {
    /// The same point in XYZZ coordinates.
    pub fn to_xyzz(&self) -> Xyzz<C> {
        Xyzz::from_affine(self)
    }

    /// Double-and-add scalar multiplication by a little-endian integer.
    pub fn mul_bigint(&self, k: &[u64]) -> Xyzz<C> {
        let mut acc = Xyzz::identity();
        for i in (0..k.len() * 64).rev() {
            acc = acc.double();
            if (k[i / 64] >> (i % 64)) & 1 == 1 {
                acc = acc.add_affine(self);
            }
        }
        acc
    }

    /// Multiply by the cofactor: maps any curve point into the subgroup.
    pub fn clear_cofactor(&self) -> Self {
        self.mul_bigint(C::COFACTOR).to_affine()
    }

    /// A uniformly random point of the prime-order subgroup (slow: one cofactor
    /// multiplication; bulk generation belongs elsewhere).
    pub fn random_in_subgroup<R: rand::Rng + ?Sized>(rng: &mut R) -> Self {
        loop {
            let x = C::Base::random(rng);
            if let Some(p) = Self::from_x(x, rng.gen()) {
                let q = p.clear_cofactor();
                if !q.infinity {
                    return q;
                }
            }
        }
    }
}
