//! Quadratic extensions Fp2 = Fp\[u\] / (u^2 - beta), beta a small non-residue:
//! the coordinates of G2 on every curve here (u^2 = -1 on BLS12-381 and
//! BN254, u^2 = -5 on BLS12-377).
//!
//! Multiplication is Karatsuba (three base products), squaring the complex
//! method (two), inversion one base inversion through the norm
//! a0^2 - beta a1^2, Frobenius the conjugation (u^p = -u since beta is not a
//! square), and square roots reduce to two roots in the base field through
//! the norm, so decompression can use the base field's fast root tables
//! ([`Fp2::sqrt_with`]).

use crate::{Field, PrimeField, TowerField};
use core::fmt;
use core::marker::PhantomData;
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

/// The parameters of one quadratic extension.
pub trait Fp2Config: 'static + Send + Sync + fmt::Debug {
    /// The base field.
    type Base: PrimeField;
    /// beta = u^2, a non-residue of the base field, as a small signed integer.
    const NONRESIDUE: i64;
    /// The field's name in messages ("bls12_381::Fq2", ...).
    const NAME: &'static str;
}

/// c0 + c1 u. `repr(C)`: c0 then c1 in memory, so that stored records
/// (zkmsm's prepared files) have one layout.
#[repr(C)]
pub struct Fp2<P: Fp2Config> {
    /// The coefficient of 1.
    pub c0: P::Base,
    /// The coefficient of u.
    pub c1: P::Base,
    _p: PhantomData<P>,
}

impl<P: Fp2Config> Fp2<P> {
    /// c0 + c1 u.
    pub const fn new(c0: P::Base, c1: P::Base) -> Self {
        Self { c0, c1, _p: PhantomData }
    }

    /// beta a for a in the base field: negations and doublings for the small
    /// non-residues of the curves here.
    #[inline(always)]
    fn mul_by_nonresidue(a: P::Base) -> P::Base {
        match P::NONRESIDUE {
            -1 => -a,
            -5 => -(a.double().double() + a),
            n if n < 0 => -(a * P::Base::from_u64(n.unsigned_abs())),
            n => a * P::Base::from_u64(n as u64),
        }
    }

    /// The norm c0^2 - beta c1^2 (in the base field): zero only for zero.
    pub fn norm(&self) -> P::Base {
        self.c0.square() - Self::mul_by_nonresidue(self.c1.square())
    }

    /// c0 - c1 u.
    pub fn conjugate(&self) -> Self {
        Self::new(self.c0, -self.c1)
    }

    /// Multiplication by an element of the base field.
    pub fn scale(&self, k: P::Base) -> Self {
        Self::new(self.c0 * k, self.c1 * k)
    }

    /// A square root with the base field's roots taken by `fp_sqrt` (a
    /// curve's table-driven root, or [`TowerField::sqrt`]); `None` when self
    /// is not a square. The result is checked by squaring, so a wrong
    /// `fp_sqrt` gives `None`, never a wrong root.
    pub fn sqrt_with(&self, fp_sqrt: impl Fn(&P::Base) -> Option<P::Base>) -> Option<Self> {
        let half = P::Base::from_u64(2).inverse().expect("odd characteristic");
        let root = if self.c1.is_zero() {
            // c0 is a square of Fp (root in Fp), or c0 / beta is (root in Fp u)
            match fp_sqrt(&self.c0) {
                Some(s) => Self::new(s, P::Base::ZERO),
                None => {
                    let beta_inv = Self::mul_by_nonresidue(P::Base::ONE).inverse().expect("beta is non-zero");
                    Self::new(P::Base::ZERO, fp_sqrt(&(self.c0 * beta_inv))?)
                }
            }
        } else {
            // x = x0 + x1 u with N(x)^2 = N(self) and 2 x0^2 = c0 + N(x)
            let s = fp_sqrt(&self.norm())?;
            let x0 = fp_sqrt(&((self.c0 + s) * half)).or_else(|| fp_sqrt(&((self.c0 - s) * half)))?;
            let x1 = self.c1 * (x0.double()).inverse()?;
            Self::new(x0, x1)
        };
        (root.square() == *self).then_some(root)
    }
}

impl<P: Fp2Config> Clone for Fp2<P> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<P: Fp2Config> Copy for Fp2<P> {}
impl<P: Fp2Config> PartialEq for Fp2<P> {
    #[inline(always)]
    fn eq(&self, o: &Self) -> bool {
        self.c0 == o.c0 && self.c1 == o.c1
    }
}
impl<P: Fp2Config> Eq for Fp2<P> {}
impl<P: Fp2Config> Default for Fp2<P> {
    fn default() -> Self {
        Self::ZERO
    }
}
impl<P: Fp2Config> fmt::Debug for Fp2<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({:?} + {:?} u)", P::NAME, self.c0, self.c1)
    }
}

impl<P: Fp2Config> Add for Fp2<P> {
    type Output = Self;
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        Self::new(self.c0 + o.c0, self.c1 + o.c1)
    }
}
impl<P: Fp2Config> Sub for Fp2<P> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        Self::new(self.c0 - o.c0, self.c1 - o.c1)
    }
}
impl<P: Fp2Config> Neg for Fp2<P> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Self::new(-self.c0, -self.c1)
    }
}
impl<P: Fp2Config> Mul for Fp2<P> {
    type Output = Self;
    /// Karatsuba: (a0 + a1 u)(b0 + b1 u) = a0 b0 + beta a1 b1 + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u.
    #[inline(always)]
    fn mul(self, o: Self) -> Self {
        let v0 = self.c0 * o.c0;
        let v1 = self.c1 * o.c1;
        let c1 = (self.c0 + self.c1) * (o.c0 + o.c1) - v0 - v1;
        Self::new(v0 + Self::mul_by_nonresidue(v1), c1)
    }
}
impl<P: Fp2Config> AddAssign for Fp2<P> {
    #[inline(always)]
    fn add_assign(&mut self, o: Self) {
        *self = *self + o;
    }
}
impl<P: Fp2Config> SubAssign for Fp2<P> {
    #[inline(always)]
    fn sub_assign(&mut self, o: Self) {
        *self = *self - o;
    }
}
impl<P: Fp2Config> MulAssign for Fp2<P> {
    #[inline(always)]
    fn mul_assign(&mut self, o: Self) {
        *self = *self * o;
    }
}

impl<P: Fp2Config> Field for Fp2<P> {
    const ZERO: Self = Self::new(P::Base::ZERO, P::Base::ZERO);
    const ONE: Self = Self::new(P::Base::ONE, P::Base::ZERO);

    #[inline(always)]
    fn is_zero(&self) -> bool {
        self.c0.is_zero() && self.c1.is_zero()
    }
    /// The complex method: c0 = (a0 + a1)(a0 + beta a1) - v - beta v,
    /// c1 = 2 v, v = a0 a1.
    #[inline(always)]
    fn square(&self) -> Self {
        let v = self.c0 * self.c1;
        let t = (self.c0 + self.c1) * (self.c0 + Self::mul_by_nonresidue(self.c1));
        Self::new(t - v - Self::mul_by_nonresidue(v), v.double())
    }
    #[inline(always)]
    fn double(&self) -> Self {
        Self::new(self.c0.double(), self.c1.double())
    }
    /// (a0 - a1 u) / (a0^2 - beta a1^2).
    fn inverse(&self) -> Option<Self> {
        let t = self.norm().inverse()?;
        Some(Self::new(self.c0 * t, -(self.c1 * t)))
    }
    fn from_u64(v: u64) -> Self {
        Self::new(P::Base::from_u64(v), P::Base::ZERO)
    }
    fn random<R: rand::Rng + ?Sized>(rng: &mut R) -> Self {
        Self::new(P::Base::random(rng), P::Base::random(rng))
    }
}

impl<P: Fp2Config> TowerField for Fp2<P> {
    type Prime = P::Base;
    const DEGREE: usize = 2;
    #[inline(always)]
    fn coefficient(&self, i: usize) -> P::Base {
        match i {
            0 => self.c0,
            1 => self.c1,
            _ => panic!("Fp2 has two coefficients, not {}", i + 1),
        }
    }
    fn from_coefficients(c: &[P::Base]) -> Self {
        assert_eq!(c.len(), 2, "Fp2 has two coefficients");
        Self::new(c[0], c[1])
    }
    fn sqrt(&self) -> Option<Self> {
        self.sqrt_with(|a| a.sqrt())
    }
    /// c1 decides; c0 only when c1 is zero.
    fn is_lexicographically_largest(&self) -> bool {
        if self.c1.is_zero() {
            self.c0.is_lexicographically_largest()
        } else {
            self.c1.is_lexicographically_largest()
        }
    }
    fn frobenius(&self) -> Self {
        self.conjugate()
    }
}
