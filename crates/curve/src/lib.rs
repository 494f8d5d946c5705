//! G1 and G2 of BLS12-377, BLS12-381 and BN254 (and a toy curve) for zkmsm.
//!
//! - [`Affine`]: short Weierstrass y^2 = x^3 + b points, the input format,
//!   over the base field (G1) or its quadratic extension (G2, [`g2`]);
//! - [`Xyzz`]: extended Jacobian (X, Y, ZZ = Z^2, ZZZ = Z^3) buckets and sums;
//! - [`te`]: the twisted Edwards (a = -1) form of BLS12-377, arkworks' convention;
//! - [`encoding`]: arkworks-canonical bytes (compressed and uncompressed).

// Every public item is documented (checked by clippy -D warnings and cargo doc in CI).
#![warn(missing_docs)]

pub mod affine;
pub mod encoding;
pub mod g2;
pub mod glv;
pub mod params;
pub mod psi;
pub mod sqrt;
pub mod subgroup;
pub mod te;
pub mod xyzz;

pub use affine::Affine;
pub use encoding::{DecodeError, Decoded, Encoding, EvmLayout, PointFormat};
pub use g2::{Bls12_377G2, Bls12_381G2, Bn254G2};
pub use glv::{Glv, Halves};
pub use params::{Bls12_377, Bls12_381, Bn254, Toy17};
pub use xyzz::Xyzz;

use core::fmt::Debug;
use zkmsm_field::{PrimeField, TowerField};

/// A short Weierstrass curve y^2 = x^3 + b (a = 0 for every curve here) with a
/// distinguished prime-order subgroup.
pub trait SwCurve: 'static + Copy + Clone + Debug + Default + Eq + Send + Sync {
    /// The field of the coordinates: Fq (G1) or Fq2 (G2).
    type Base: TowerField;
    /// The curve's name in messages ("bls12-377", ...).
    const NAME: &'static str;
    /// Order of the subgroup MSM works in (little-endian limbs).
    const ORDER: &'static [u64];
    /// |E(Fq)| / ORDER.
    const COFACTOR: &'static [u64];
    /// The coefficient b of y^2 = x^3 + b.
    fn coeff_b() -> Self::Base;
    /// The generator of the prime-order subgroup (arkworks' choice).
    fn generator() -> Affine<Self>;
    /// Is the point (already known to be on the curve) in the subgroup of
    /// order ORDER? Curves override this with something faster than the
    /// default multiplication by ORDER.
    fn is_in_subgroup(p: &Affine<Self>) -> bool {
        p.mul_bigint(Self::ORDER).is_identity()
    }
    /// A square root in the base field (point decompression); curves
    /// override it with one built on precomputed tables ([`sqrt::SqrtTable`]).
    fn sqrt_base(a: &Self::Base) -> Option<Self::Base> {
        a.sqrt()
    }
    /// The precomputed square-root tables behind [`Self::sqrt_base`], for
    /// callers that take many roots at once (the exponentiation of
    /// [`sqrt::SqrtTable::exponent`] done in lanes, then
    /// [`sqrt::SqrtTable::sqrt_given_power`]); `None` where the curve has none.
    /// The tables are the prime field's: on G2 they take the two base-field
    /// roots of an Fq2 root.
    fn sqrt_table() -> Option<&'static sqrt::SqrtTable<<Self::Base as TowerField>::Prime>> {
        None
    }
}

/// A curve with a prime-order scalar field and an arkworks byte encoding: what
/// the MSM library and the CLI accept.
pub trait MsmCurve: SwCurve {
    /// The scalar field (integers mod ORDER).
    type Scalar: PrimeField;
    /// How points of this curve are encoded in bytes.
    const ENCODING: Encoding;
    /// The group's name beside the curve's: "g1" or "g2".
    const GROUP: &'static str = "g1";
    /// The curve and group in messages and file headers: the curve's name
    /// for G1 ("bn254"), "bls12-381 g2" for G2.
    const LABEL: &'static str = Self::NAME;
    /// The layout of the Ethereum precompiles' points ([`PointFormat::Evm`]),
    /// `None` where Ethereum has none (BLS12-377).
    const EVM: Option<EvmLayout> = None;
    /// Canonical little-endian limbs of a scalar (4 limbs on every curve here).
    fn scalar_to_limbs(s: &Self::Scalar) -> [u64; 4];
    /// The GLV endomorphism's constants ([`glv`]), `None` on a curve without it.
    fn glv() -> Option<&'static Glv<Self::Base>> {
        None
    }
}

/// Errors from point validation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PointError {
    /// The point does not satisfy the curve equation.
    #[error("point is not on the curve")]
    NotOnCurve,
    /// The point is on the curve but outside the prime-order subgroup.
    #[error("point is not in the prime-order subgroup")]
    NotInSubgroup,
}
