//! Prime fields for zkmsm.
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
mod inverse;
pub mod limbs;
pub mod params;

pub use batch::batch_inverse;
pub use fp::{Fp, FpConfig};
pub use params::*;

use core::fmt::Debug;
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

/// The operations curve code needs from a prime field.
pub trait PrimeField:
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
    /// Bits of the modulus.
    const NUM_BITS: u32;
    /// Bytes of the canonical little-endian encoding.
    const NUM_BYTES: usize;
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
    /// `None` if not a square.
    fn sqrt(&self) -> Option<Self>;
    /// `v` as a field element.
    fn from_u64(v: u64) -> Self;
    /// The canonical value (not Montgomery form) as NUM_BYTES little-endian bytes.
    fn to_bytes_le(&self) -> Vec<u8>;
    /// `None` unless exactly NUM_BYTES bytes encoding a value below the modulus.
    fn from_bytes_le(bytes: &[u8]) -> Option<Self>;
    /// True when the canonical value exceeds (q-1)/2, i.e. when x > -x.
    fn is_lexicographically_largest(&self) -> bool;
    /// A uniform random element.
    fn random<R: rand::Rng + ?Sized>(rng: &mut R) -> Self;
    /// The internal Montgomery form, x 2^(8 NUM_BYTES) mod q, as NUM_BYTES / 8
    /// little-endian words written to the start of `out`: a conversion without
    /// a multiplication, for arithmetic with its own Montgomery radix.
    fn write_montgomery_words(&self, out: &mut [u64]);
    /// The element whose Montgomery form is the first NUM_BYTES / 8 words of
    /// `words`; `None` unless that value is below q.
    fn from_montgomery_words(words: &[u64]) -> Option<Self>;
}
