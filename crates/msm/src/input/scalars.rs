//! Scalars as the MSM takes them: canonical integers below r, never reduced.

use crate::error::MsmError;
use crate::input::InputCurve;
use crate::pipeline::digits::ScalarLimbs;
use rayon::prelude::*;

/// Scalars as canonical limbs, rejecting any >= r (naming the first).
pub fn check_scalars<C: InputCurve>(scalars: &[ScalarLimbs]) -> Result<(), MsmError> {
    let order = C::ORDER;
    let reduced = |s: &ScalarLimbs| {
        for i in (0..4).rev() {
            let o = order.get(i).copied().unwrap_or(0);
            if s[i] != o {
                return s[i] < o;
            }
        }
        false // equal to r
    };
    match scalars.par_iter().position_first(|s| !reduced(s)) {
        None => Ok(()),
        Some(index) => Err(MsmError::ScalarNotReduced { index }),
    }
}

/// The byte order of a scalar's 32-byte encoding: little-endian (arkworks'
/// `CanonicalSerialize`, zkmsm's files) or big-endian (the EVM's
/// precompiles and Solidity's `uint256`, EIP-196/197).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ScalarEndian {
    /// Least significant byte first.
    #[default]
    Little,
    /// Most significant byte first.
    Big,
}

impl ScalarEndian {
    /// The integer in these 32 bytes, as limbs (not yet checked below r).
    #[inline]
    pub fn limbs(self, bytes: &[u8]) -> ScalarLimbs {
        match self {
            ScalarEndian::Little => zkmsm_field::limbs::from_le_bytes(bytes),
            ScalarEndian::Big => {
                core::array::from_fn(|i| u64::from_be_bytes(bytes[32 - 8 * (i + 1)..32 - 8 * i].try_into().unwrap()))
            }
        }
    }

    /// The 32 bytes of these limbs in this order.
    pub fn bytes(self, s: &ScalarLimbs) -> [u8; 32] {
        let mut out = [0u8; 32];
        for (i, l) in s.iter().enumerate() {
            match self {
                ScalarEndian::Little => out[8 * i..8 * i + 8].copy_from_slice(&l.to_le_bytes()),
                ScalarEndian::Big => out[32 - 8 * (i + 1)..32 - 8 * i].copy_from_slice(&l.to_be_bytes()),
            }
        }
        out
    }

    /// "little" or "big", as the CLI and the bindings spell it.
    pub fn name(self) -> &'static str {
        match self {
            ScalarEndian::Little => "little",
            ScalarEndian::Big => "big",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ScalarEndian;

    /// Big-endian bytes are the little-endian ones reversed, both ways.
    #[test]
    fn big_endian_is_the_reversed_encoding() {
        let s = [0x0102030405060708u64, 0x1112131415161718, 0x2122232425262728, 0x3132333435363738];
        let le = ScalarEndian::Little.bytes(&s);
        let mut be = le;
        be.reverse();
        assert_eq!(ScalarEndian::Big.bytes(&s), be);
        assert_eq!(ScalarEndian::Big.limbs(&be), s);
        assert_eq!(ScalarEndian::Little.limbs(&le), s);
        assert_eq!(be[0], 0x31);
        assert_eq!(be[31], 0x08);
    }
}
