//! Affine short Weierstrass points, with an explicit infinity flag.

use crate::{PointError, SwCurve};
use zkmsm_field::{Field, TowerField};

/// A point of `C` in affine coordinates (x, y), or the point at infinity when `infinity` is set
/// (its coordinates then mean nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Affine<C: SwCurve> {
    /// The x coordinate.
    pub x: C::Base,
    /// The y coordinate.
    pub y: C::Base,
    /// True for the point at infinity (the identity).
    pub infinity: bool,
}

impl<C: SwCurve> Default for Affine<C> {
    fn default() -> Self {
        Self::identity()
    }
}

impl<C: SwCurve> Affine<C> {
    /// The point (x, y), not checked to be on the curve.
    pub const fn new_unchecked(x: C::Base, y: C::Base) -> Self {
        Self { x, y, infinity: false }
    }

    /// The point at infinity.
    pub fn identity() -> Self {
        Self { x: C::Base::ZERO, y: C::Base::ZERO, infinity: true }
    }

    /// True for the point at infinity.
    pub fn is_identity(&self) -> bool {
        self.infinity
    }

    /// True when y^2 = x^3 + b (the point at infinity is on the curve); subgroup membership is a
    /// separate check.
    pub fn is_on_curve(&self) -> bool {
        self.infinity || self.y.square() == self.x.square() * self.x + C::coeff_b()
    }

    /// In the prime-order subgroup (for a point on the curve); the curve's
    /// fast test.
    pub fn is_in_subgroup(&self) -> bool {
        C::is_in_subgroup(self)
    }

    /// Multiplication by the subgroup order gives the identity: the slow,
    /// obviously right test, kept as the reference for the fast one.
    pub fn is_in_subgroup_by_order(&self) -> bool {
        self.mul_bigint(C::ORDER).is_identity()
    }

    /// On the curve and in the prime-order subgroup: what MSM inputs must be.
    pub fn validate(&self) -> Result<(), PointError> {
        if !self.is_on_curve() {
            Err(PointError::NotOnCurve)
        } else if !self.is_in_subgroup() {
            Err(PointError::NotInSubgroup)
        } else {
            Ok(())
        }
    }

    /// The two points with this x, if any: (y, -y) with y not lexicographically largest.
    pub fn ys_from_x(x: C::Base) -> Option<(C::Base, C::Base)> {
        let y = C::sqrt_base(&(x.square() * x + C::coeff_b()))?;
        let neg = -y;
        Some(if y.is_lexicographically_largest() { (neg, y) } else { (y, neg) })
    }

    /// The point (x, y) or (x, -y), whichever has the given sign (true: the
    /// lexicographically largest y), for `y` a square root of x^3 + b found by
    /// the caller (not checked).
    pub fn from_x_and_root(x: C::Base, y: C::Base, largest: bool) -> Self {
        let neg = -y;
        let y = if y.is_lexicographically_largest() == largest { y } else { neg };
        Self::new_unchecked(x, y)
    }

    /// Point with the given x and "sign" (true: the lexicographically largest y).
    pub fn from_x(x: C::Base, largest: bool) -> Option<Self> {
        let (small, large) = Self::ys_from_x(x)?;
        Some(Self::new_unchecked(x, if largest { large } else { small }))
    }

    /// The negation (x, -y).
    pub fn neg(&self) -> Self {
        Self { x: self.x, y: -self.y, infinity: self.infinity }
    }

    /// Affine addition by the chord-and-tangent rule, every special case
    /// handled: the textbook formula used as a reference for the fast paths.
    pub fn add_reference(&self, o: &Self) -> Self {
        if self.infinity {
            return *o;
        }
        if o.infinity {
            return *self;
        }
        let lambda = if self.x == o.x {
            if self.y != o.y || self.y.is_zero() {
                return Self::identity(); // P + (-P), or doubling a 2-torsion point
            }
            let x2 = self.x.square();
            (x2 + x2 + x2) * (self.y.double()).inverse().unwrap()
        } else {
            (o.y - self.y) * (o.x - self.x).inverse().unwrap()
        };
        let x3 = lambda.square() - self.x - o.x;
        let y3 = lambda * (self.x - x3) - self.y;
        Self::new_unchecked(x3, y3)
    }
}
