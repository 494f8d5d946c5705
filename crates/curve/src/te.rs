//! The twisted Edwards form of BLS12-377 G1: -x^2 + y^2 = 1 + d x^2 y^2.
//!
//! Convention (one for host, model and RTL): arkworks' `ark_bls12_377::g1`
//! TE form (also CycloneMSM's). Weierstrass -> Montgomery uses alpha = -1 and
//! s = 1/sqrt(3); Montgomery -> TE1 is (u/v, (u-1)/(u+1)); TE1 -> TE (a = -1)
//! scales x by beta = sqrt(-a1). The two square roots are the ones arkworks
//! picked, pinned below by which root is the lexicographically largest, and
//! checked against arkworks' `COEFF_D` and TE generator in tests.
//!
//! The map fails for 5 points of E(Fq): y = 0 (three 2-torsion points) and
//! u = -1 (two points). None of them is in the prime-order subgroup.
//!
//! Points enter an adder in the precomputed form (y - x, y + x, k x y) with
//! k = 2d, so a mixed addition costs 7 multiplications and a subtraction is a
//! swap plus one negation. The formulas are complete on the odd-order
//! subgroup (P + P, P - P and the identity need no special case) but not on
//! all of E(Fq), because d is a square: validate subgroup membership first.

use crate::{Affine, Bls12_377};
use std::sync::OnceLock;
use zkmsm_field::{batch_inverse, Bls12_377Fq as Fq, Field, TowerField};

/// arkworks' sqrt(3) is the root that is NOT lexicographically largest.
const SQRT3_IS_LARGEST: bool = false;
/// arkworks' beta = sqrt(-a1) is also the root that is not lexicographically largest.
const BETA_IS_LARGEST: bool = false;

/// Constants of the maps and the curve, derived once from q.
#[derive(Debug, Clone, Copy)]
pub struct TeParams {
    /// s = 1/sqrt(3): Montgomery u = s (x + 1), v = s y.
    pub s: Fq,
    /// 1/s.
    pub s_inv: Fq,
    /// beta = sqrt(-a1): x_te = beta * u / v.
    pub beta: Fq,
    /// 1/beta.
    pub beta_inv: Fq,
    /// The TE curve's d (a = -1).
    pub d: Fq,
    /// k = 2d, the constant of the precomputed form and of the adder.
    pub k: Fq,
}

fn root(v: Fq, largest: bool) -> Fq {
    let r = v.sqrt().expect("constant is a square in Fq");
    if r.is_lexicographically_largest() == largest {
        r
    } else {
        -r
    }
}

/// The constants of the maps, computed on first use.
pub fn params() -> &'static TeParams {
    static P: OnceLock<TeParams> = OnceLock::new();
    P.get_or_init(|| {
        let three = Fq::from_u64(3);
        let two = Fq::from_u64(2);
        let s = root(three, SQRT3_IS_LARGEST).inverse().unwrap();
        // Montgomery B v^2 = u^3 + A u^2 + u with A = 3 alpha s = -3s, B = s.
        let ma = -(three * s);
        let mb = s;
        let mb_inv = mb.inverse().unwrap();
        let a1 = (ma + two) * mb_inv;
        let d1 = (ma - two) * mb_inv;
        let beta = root(-a1, BETA_IS_LARGEST);
        let d = -(d1 * a1.inverse().unwrap());
        TeParams { s, s_inv: s.inverse().unwrap(), beta, beta_inv: beta.inverse().unwrap(), d, k: d.double() }
    })
}

/// Why a Weierstrass point has no twisted Edwards image.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TeMapError {
    /// y = 0: a point of order 2 (not in G1).
    #[error("point has y = 0 (2-torsion): no twisted Edwards image")]
    TwoTorsion,
    /// Montgomery u = -1: the map's denominator vanishes (not in G1).
    #[error("point has Montgomery u = -1: no twisted Edwards image")]
    UMinusOne,
}

/// An affine point (x, y) of the twisted Edwards curve -x^2 + y^2 = 1 + d x^2 y^2 birationally
/// equivalent to BLS12-377's G1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TeAffine {
    /// The x coordinate.
    pub x: Fq,
    /// The y coordinate.
    pub y: Fq,
}

/// Extended projective (X : Y : Z : T), x = X/Z, y = Y/Z, T = XY/Z.
#[derive(Clone, Copy, Debug)]
pub struct TeExtended {
    /// X.
    pub x: Fq,
    /// Y.
    pub y: Fq,
    /// Z.
    pub z: Fq,
    /// T = XY/Z.
    pub t: Fq,
}

/// An affine point ready for the 7-multiplication mixed adder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TePrecomputed {
    /// y - x.
    pub y_minus_x: Fq,
    /// y + x.
    pub y_plus_x: Fq,
    /// k x y with k = 2d.
    pub kxy: Fq,
}

impl TeAffine {
    /// The identity (0, 1).
    pub fn identity() -> Self {
        Self { x: Fq::ZERO, y: Fq::ONE }
    }

    /// True when -x^2 + y^2 = 1 + d x^2 y^2.
    pub fn is_on_curve(&self) -> bool {
        let (x2, y2) = (self.x.square(), self.y.square());
        y2 - x2 == Fq::ONE + params().d * x2 * y2
    }

    /// The negation (-x, y).
    pub fn neg(&self) -> Self {
        Self { x: -self.x, y: self.y }
    }

    /// The point in the mixed adder's form (y - x, y + x, k x y).
    pub fn precompute(&self) -> TePrecomputed {
        TePrecomputed { y_minus_x: self.y - self.x, y_plus_x: self.y + self.x, kxy: params().k * self.x * self.y }
    }

    /// Weierstrass -> twisted Edwards; infinity maps to the identity (0, 1).
    pub fn from_weierstrass(p: &Affine<Bls12_377>) -> Result<Self, TeMapError> {
        if p.infinity {
            return Ok(Self::identity());
        }
        let c = params();
        if p.y.is_zero() {
            return Err(TeMapError::TwoTorsion);
        }
        let u = c.s * (p.x + Fq::ONE);
        let v = c.s * p.y;
        let u_plus_1 = u + Fq::ONE;
        if u_plus_1.is_zero() {
            return Err(TeMapError::UMinusOne);
        }
        Ok(Self { x: c.beta * u * v.inverse().unwrap(), y: (u - Fq::ONE) * u_plus_1.inverse().unwrap() })
    }

    /// Twisted Edwards -> Weierstrass; `None` for the points with no image
    /// (x = 0 other than the identity, y = 1).
    pub fn to_weierstrass(&self) -> Option<Affine<Bls12_377>> {
        if *self == Self::identity() {
            return Some(Affine::identity());
        }
        let c = params();
        if self.x.is_zero() || self.y == Fq::ONE {
            return None;
        }
        let u = (Fq::ONE + self.y) * (Fq::ONE - self.y).inverse().unwrap();
        let v = u * c.beta * self.x.inverse().unwrap();
        Some(Affine::new_unchecked(u * c.s_inv - Fq::ONE, v * c.s_inv))
    }
}

impl TePrecomputed {
    /// -P = (-x, y): swap y-x and y+x, negate kxy.
    #[inline]
    pub fn neg(&self) -> Self {
        Self { y_minus_x: self.y_plus_x, y_plus_x: self.y_minus_x, kxy: -self.kxy }
    }
}

impl PartialEq for TeExtended {
    fn eq(&self, o: &Self) -> bool {
        self.x * o.z == o.x * self.z && self.y * o.z == o.y * self.z
    }
}
impl Eq for TeExtended {}

impl Default for TeExtended {
    fn default() -> Self {
        Self::identity()
    }
}

impl TeExtended {
    /// The identity (0 : 1 : 1 : 0).
    pub fn identity() -> Self {
        Self { x: Fq::ZERO, y: Fq::ONE, z: Fq::ONE, t: Fq::ZERO }
    }

    /// The affine point with Z = 1.
    pub fn from_affine(p: &TeAffine) -> Self {
        Self { x: p.x, y: p.y, z: Fq::ONE, t: p.x * p.y }
    }

    /// self + p, 7 multiplications (add-2008-hwcd-3 with Z2 = 1, a = -1).
    #[inline]
    pub fn add_precomputed(&self, p: &TePrecomputed) -> Self {
        let a = (self.y - self.x) * p.y_minus_x;
        let b = (self.y + self.x) * p.y_plus_x;
        let c = self.t * p.kxy;
        let d = self.z.double();
        let (e, f, g, h) = (b - a, d - c, d + c, b + a);
        Self { x: e * f, y: g * h, t: e * h, z: f * g }
    }

    /// self - p.
    #[inline]
    pub fn sub_precomputed(&self, p: &TePrecomputed) -> Self {
        self.add_precomputed(&p.neg())
    }

    /// self + o for two extended points (9 multiplications).
    pub fn add(&self, o: &Self) -> Self {
        let k = params().k;
        let a = (self.y - self.x) * (o.y - o.x);
        let b = (self.y + self.x) * (o.y + o.x);
        let c = self.t * k * o.t;
        let d = (self.z * o.z).double();
        let (e, f, g, h) = (b - a, d - c, d + c, b + a);
        Self { x: e * f, y: g * h, t: e * h, z: f * g }
    }

    /// 2 * self (dbl-2008-hwcd, a = -1).
    pub fn double(&self) -> Self {
        let a = self.x.square();
        let b = self.y.square();
        let c = self.z.square().double();
        let d = -a;
        let e = (self.x + self.y).square() - a - b;
        let g = d + b;
        let f = g - c;
        let h = d - b;
        Self { x: e * f, y: g * h, t: e * h, z: f * g }
    }

    /// The negation (-X : Y : Z : -T).
    pub fn neg(&self) -> Self {
        Self { x: -self.x, t: -self.t, ..*self }
    }

    /// The affine point (one inversion).
    pub fn to_affine(&self) -> TeAffine {
        let zi = self.z.inverse().expect("extended point with Z = 0");
        TeAffine { x: self.x * zi, y: self.y * zi }
    }

    /// Every point to affine with one shared inversion (Montgomery's trick).
    pub fn batch_to_affine(points: &[Self]) -> Vec<TeAffine> {
        let mut zs: Vec<Fq> = points.iter().map(|p| p.z).collect();
        batch_inverse(&mut zs);
        points.iter().zip(zs).map(|(p, zi)| TeAffine { x: p.x * zi, y: p.y * zi }).collect()
    }
}

/// Convert a subgroup point for the adder, i.e. the papers' MSM_INIT step.
pub fn precompute_point(p: &Affine<Bls12_377>) -> Result<TePrecomputed, TeMapError> {
    TeAffine::from_weierstrass(p).map(|t| t.precompute())
}

/// [`precompute_point`] for many points with one shared inversion (the map
/// needs 1/v and 1/(u+1) per point). On failure, the index of the first point
/// without an image.
pub fn precompute_points(points: &[Affine<Bls12_377>]) -> Result<Vec<TePrecomputed>, (usize, TeMapError)> {
    let c = params();
    let mut dens = Vec::with_capacity(2 * points.len());
    for (i, p) in points.iter().enumerate() {
        if p.infinity {
            dens.extend([Fq::ONE, Fq::ONE]);
            continue;
        }
        if p.y.is_zero() {
            return Err((i, TeMapError::TwoTorsion));
        }
        let u_plus_1 = c.s * (p.x + Fq::ONE) + Fq::ONE;
        if u_plus_1.is_zero() {
            return Err((i, TeMapError::UMinusOne));
        }
        dens.extend([c.s * p.y, u_plus_1]);
    }
    batch_inverse(&mut dens);
    Ok(points
        .iter()
        .zip(dens.chunks_exact(2))
        .map(|(p, inv)| {
            if p.infinity {
                return TeAffine::identity().precompute();
            }
            let u = c.s * (p.x + Fq::ONE);
            TeAffine { x: c.beta * u * inv[0], y: (u - Fq::ONE) * inv[1] }.precompute()
        })
        .collect())
}

/// The five points of E(Fq) with no TE image (for tests and side-band paths).
pub fn exceptional_points() -> Vec<Affine<Bls12_377>> {
    let mut out = Vec::new();
    // y = 0: x^3 = -1, x = -1 * (cube roots of unity).
    let minus_one = -Fq::ONE;
    // omega: a primitive cube root of unity, from a root of x^2 + x + 1.
    let disc = (-Fq::from_u64(3)).sqrt().expect("q = 1 mod 3");
    let two_inv = Fq::from_u64(2).inverse().unwrap();
    let omega = (disc - Fq::ONE) * two_inv;
    for w in [Fq::ONE, omega, omega.square()] {
        out.push(Affine::new_unchecked(minus_one * w, Fq::ZERO));
    }
    // u = -1: x = -1/s - 1.
    let x = -(params().s_inv) - Fq::ONE;
    if let Some((y0, y1)) = Affine::<Bls12_377>::ys_from_x(x) {
        out.push(Affine::new_unchecked(x, y0));
        out.push(Affine::new_unchecked(x, y1));
    }
    out
}
