//! What a concrete prime field states (its modulus, a non-residue, its
//! name); the Montgomery constants are derived from it where they are used.

/// What a concrete prime field states; everything else is derived.
pub trait FpConfig<const N: usize>: 'static + Send + Sync + Sized {
    /// The prime, little-endian limbs. Must be odd and < 2^(64N).
    const MODULUS: [u64; N];
    /// A quadratic non-residue (checked by tests), used by Tonelli-Shanks.
    const NONRESIDUE: u64;
    /// The field's name in messages, arkworks' spelling (e.g. `bls12_381::Fr`).
    const NAME: &'static str;
}
