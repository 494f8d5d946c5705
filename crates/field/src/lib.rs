//! Prime fields and their quadratic extensions for zkmsm.
//!
//! Three traits, each bounding what its users need: [`Field`] (the ring
//! operations), [`TowerField`] (coefficients over a prime field, square
//! roots, the sign convention, Frobenius) and [`PrimeField`] (the
//! representation).
//!
//! One generic type, [`Fp<P, N>`], does Montgomery arithmetic for any odd
//! modulus of N 64-bit limbs; the concrete fields in [`params`] only state their
//! modulus and a non-residue. R, R^2 and -q^-1 are derived at compile time.

// Every public item is documented (checked by clippy -D warnings and cargo doc in CI).
#![warn(missing_docs)]

mod asm;
pub mod batch;
mod config;
pub mod fp;
pub mod fp2;
mod inverse;
pub mod limbs;
pub mod params;

pub use batch::batch_inverse;
pub use fp::{Fp, FpConfig};
pub use fp2::{Fp2, Fp2Config};
pub use params::*;

use core::fmt::Debug;
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

/// The ring operations, inversion and the identities: everything bucket
/// accumulation, XYZZ and affine formulas, batch inversion and the pipeline
/// use. Prime fields and their extensions both have it.
pub trait Field:
    'static
    + Copy
    + Debug
    + Default
    + Eq
    + Send
    + Sync
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
{
    /// The additive identity.
    const ZERO: Self;
    /// The multiplicative identity.
    const ONE: Self;

    /// True for zero.
    fn is_zero(&self) -> bool;
    /// `self * self`.
    fn square(&self) -> Self;
    /// `self + self`.
    fn double(&self) -> Self;
    /// `None` for zero.
    fn inverse(&self) -> Option<Self>;
    /// `v` as a field element.
    fn from_u64(v: u64) -> Self;
    /// A uniform random element.
    fn random<R: rand::Rng + ?Sized>(rng: &mut R) -> Self;
}

/// A field given as coefficients over a prime field: the prime field itself
/// (degree 1) or an extension such as [`Fp2`]. What point encodings,
/// decompression and the twist's endomorphism need: coefficients, square
/// roots, the sign convention and the Frobenius map.
pub trait TowerField: Field {
    /// The prime field under the tower.
    type Prime: PrimeField;
    /// The degree over [`Self::Prime`].
    const DEGREE: usize;
    /// Coefficient `i` (0 <= i < DEGREE) of the element over the prime
    /// field's basis 1, u, ...
    fn coefficient(&self, i: usize) -> Self::Prime;
    /// The element with these DEGREE coefficients (panics on another count:
    /// callers hold exactly DEGREE).
    fn from_coefficients(c: &[Self::Prime]) -> Self;
    /// `None` if not a square.
    fn sqrt(&self) -> Option<Self>;
    /// The sign bit of compressed encodings: true when self > -self in the
    /// order that compares the highest non-zero coefficient first (the
    /// convention of arkworks and of the Zcash BLS12-381 format).
    fn is_lexicographically_largest(&self) -> bool;
    /// x^p.
    fn frobenius(&self) -> Self;
}

/// A prime field: the representation behind the arithmetic (bit size, bytes,
/// Montgomery words). Only [`Fp`] is one; an extension field cannot pass
/// for it (the lane engines take a prime modulus).
pub trait PrimeField: TowerField<Prime = Self> {
    /// Bits of the modulus.
    const NUM_BITS: u32;
    /// Bytes of the canonical little-endian encoding.
    const NUM_BYTES: usize;

    /// The canonical value (not Montgomery form) as NUM_BYTES little-endian bytes.
    fn to_bytes_le(&self) -> Vec<u8>;
    /// `None` unless exactly NUM_BYTES bytes encoding a value below the modulus.
    fn from_bytes_le(bytes: &[u8]) -> Option<Self>;
    /// The internal Montgomery form, x 2^(8 NUM_BYTES) mod q, as NUM_BYTES / 8
    /// little-endian words written to the start of `out`: a conversion without
    /// a multiplication, for arithmetic with its own Montgomery radix.
    fn write_montgomery_words(&self, out: &mut [u64]);
    /// The element whose Montgomery form is the first NUM_BYTES / 8 words of
    /// `words`; `None` unless that value is below q.
    fn from_montgomery_words(words: &[u64]) -> Option<Self>;
}
