//! arkworks-canonical point encodings, so that files written by arkworks
//! (`CanonicalSerialize`) load unchanged:
//!
//! - BLS12-377 ([`Encoding::ArkworksLe`]): coordinates little-endian; the flags
//!   sit in the top two bits of the last byte of the last coordinate written:
//!   bit 7 = y is the lexicographically largest root, bit 6 = infinity
//!   (encoded as x = y = 0).
//! - BLS12-381 ([`Encoding::ZcashBe`]): arkworks uses the Zcash format:
//!   big-endian; first byte bit 7 = compressed, bit 6 = infinity, bit 5 =
//!   y is the lexicographically largest (compressed only).
//!
//! - [`PointFormat::Evm`], on any curve: the layout of Ethereum's EIP-196/197
//!   precompiles (BN254): big-endian x then y, no flags, (0, 0) for the point
//!   at infinity (never on these curves: b != 0).
//!
//! Decoding checks canonical coordinates and that the point is on the curve;
//! subgroup membership is checked by the caller (in bulk, in parallel).

use crate::{Affine, MsmCurve, SwCurve};
use zkmsm_field::PrimeField;

/// The byte layout of a curve's arkworks encoding (see the module's documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// BLS12-377: little-endian, flags in the top bits of the last byte.
    ArkworksLe,
    /// BLS12-381: Zcash's big-endian format, flags in the top bits of the first byte.
    ZcashBe,
}

/// Compressed (x and a sign flag) or uncompressed (x and y) encodings in the
/// curve's arkworks layout, or the EVM's raw big-endian x and y.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointFormat {
    /// x only, with the flags: 48 bytes on the BLS12 curves, 32 on BN254.
    Compressed,
    /// x and y: 96 bytes on the BLS12 curves, 64 on BN254.
    Uncompressed,
    /// Big-endian x and y without flags, (0, 0) the point at infinity: the
    /// EIP-196/197 layout (64 bytes on BN254). Never detected from a size
    /// (it has the uncompressed one): named explicitly.
    Evm,
}

impl PointFormat {
    /// Bytes per encoded point.
    pub fn size<C: SwCurve>(self) -> usize {
        match self {
            PointFormat::Compressed => C::Base::NUM_BYTES,
            PointFormat::Uncompressed | PointFormat::Evm => 2 * C::Base::NUM_BYTES,
        }
    }

    /// The name the CLI and the bindings take: "compressed", "uncompressed", "evm".
    pub fn name(self) -> &'static str {
        match self {
            PointFormat::Compressed => "compressed",
            PointFormat::Uncompressed => "uncompressed",
            PointFormat::Evm => "evm",
        }
    }
}

/// What is wrong with one encoded point. `byte` is relative to the start of
/// the point's encoding.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("expected {expected} bytes, got {got}")]
    /// The encoding has the wrong number of bytes.
    WrongLength {
        /// Bytes a point takes in this format.
        expected: usize,
        /// Bytes given.
        got: usize,
    },
    #[error("invalid flag bits {flags:#04x} at byte {byte}")]
    /// Flag bits that no valid encoding has.
    BadFlags {
        /// The byte holding the flags.
        byte: usize,
        /// The flag bits found.
        flags: u8,
    },
    #[error("coordinate at byte {byte} is not a canonical field element (>= q)")]
    /// A coordinate is not below the modulus q.
    NonCanonical {
        /// The coordinate's first byte.
        byte: usize,
    },
    /// Flagged as infinity but with a nonzero coordinate.
    #[error("the point at infinity must be encoded with zero coordinates")]
    NonZeroInfinity,
    /// Compressed: x^3 + b is not a square, so no point has this x.
    #[error("no curve point has this x coordinate")]
    NoSuchX,
    /// Uncompressed: (x, y) does not satisfy the curve equation.
    #[error("point is not on the curve")]
    NotOnCurve,
}

const LE_NEG: u8 = 1 << 7;
const LE_INF: u8 = 1 << 6;
const BE_COMPRESSED: u8 = 1 << 7;
const BE_INF: u8 = 1 << 6;
const BE_LARGEST: u8 = 1 << 5;

fn be_bytes<F: PrimeField>(f: &F) -> Vec<u8> {
    let mut b = f.to_bytes_le();
    b.reverse();
    b
}

/// The largest encoded coordinate (both BLS12 base fields take 48 bytes).
const MAX_BYTES: usize = 64;

fn from_be<F: PrimeField>(b: &[u8]) -> Option<F> {
    let mut le = [0u8; MAX_BYTES];
    let le = &mut le[..b.len()];
    le.copy_from_slice(b);
    le.reverse();
    F::from_bytes_le(le)
}

/// One point's encoding with its flags and coordinates checked: the point,
/// or for a compressed (non-infinity) point its x and sign flag, whose square
/// root is still to be taken (x^3 + b may turn out not to be a square:
/// [`DecodeError::NoSuchX`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decoded<C: SwCurve> {
    /// The whole point (uncompressed and on the curve, or infinity).
    Point(Affine<C>),
    /// A compressed point: x, and whether y is the lexicographically largest root.
    Compressed {
        /// The x coordinate (canonical).
        x: C::Base,
        /// The sign flag: y is the lexicographically largest of the two roots.
        largest: bool,
    },
}

impl<C: MsmCurve> Affine<C> {
    /// The arkworks-canonical encoding of this point in `format` (what `CanonicalSerialize`
    /// writes).
    pub fn to_bytes(&self, format: PointFormat) -> Vec<u8> {
        let (x, y) = if self.infinity { (C::Base::ZERO, C::Base::ZERO) } else { (self.x, self.y) };
        if format == PointFormat::Evm {
            let mut out = be_bytes(&x);
            out.extend(be_bytes(&y));
            return out;
        }
        let largest = !self.infinity && y.is_lexicographically_largest();
        match C::ENCODING {
            Encoding::ArkworksLe => {
                let mut out = x.to_bytes_le();
                if format == PointFormat::Uncompressed {
                    out.extend(y.to_bytes_le());
                }
                let last = out.len() - 1;
                out[last] |= if self.infinity {
                    LE_INF
                } else if largest {
                    LE_NEG
                } else {
                    0
                };
                out
            }
            Encoding::ZcashBe => {
                let mut out = be_bytes(&x);
                if format == PointFormat::Uncompressed {
                    out.extend(be_bytes(&y));
                } else {
                    out[0] |= BE_COMPRESSED;
                    if largest {
                        out[0] |= BE_LARGEST;
                    }
                }
                if self.infinity {
                    out[0] |= BE_INF;
                }
                out
            }
        }
    }

    /// Decode one point; checks encoding and curve equation, not the subgroup.
    pub fn from_bytes(bytes: &[u8], format: PointFormat) -> Result<Self, DecodeError> {
        match Self::decode_deferred(bytes, format)? {
            Decoded::Point(p) => Ok(p),
            Decoded::Compressed { x, largest } => Self::from_x(x, largest).ok_or(DecodeError::NoSuchX),
        }
    }

    /// As [`Self::from_bytes`], but a compressed point's square root is left
    /// to the caller ([`Decoded::Compressed`]), so that many can be taken at
    /// once (zkmsm's lane-parallel decompression).
    pub fn decode_deferred(bytes: &[u8], format: PointFormat) -> Result<Decoded<C>, DecodeError> {
        let n = C::Base::NUM_BYTES;
        let expected = format.size::<C>();
        if bytes.len() != expected {
            return Err(DecodeError::WrongLength { expected, got: bytes.len() });
        }
        if format == PointFormat::Evm {
            return Self::decode_evm(bytes, n);
        }
        match C::ENCODING {
            Encoding::ArkworksLe => Self::decode_le(bytes, format, n),
            Encoding::ZcashBe => Self::decode_be(bytes, format, n),
        }
    }

    fn decode_evm(bytes: &[u8], n: usize) -> Result<Decoded<C>, DecodeError> {
        let x = from_be::<C::Base>(&bytes[..n]).ok_or(DecodeError::NonCanonical { byte: 0 })?;
        let y = from_be::<C::Base>(&bytes[n..]).ok_or(DecodeError::NonCanonical { byte: n })?;
        if x.is_zero() && y.is_zero() {
            return Ok(Decoded::Point(Self::identity()));
        }
        Self::finish(x, Some(y), false)
    }

    fn decode_le(bytes: &[u8], format: PointFormat, n: usize) -> Result<Decoded<C>, DecodeError> {
        let last = bytes.len() - 1;
        let flags = bytes[last] & (LE_NEG | LE_INF);
        if flags == LE_NEG | LE_INF {
            return Err(DecodeError::BadFlags { byte: last, flags });
        }
        let mut buf = [0u8; 2 * MAX_BYTES];
        let b = &mut buf[..bytes.len()];
        b.copy_from_slice(bytes);
        b[last] &= !(LE_NEG | LE_INF);
        let x = C::Base::from_bytes_le(&b[..n]).ok_or(DecodeError::NonCanonical { byte: 0 })?;
        let y = match format {
            PointFormat::Uncompressed | PointFormat::Evm => {
                Some(C::Base::from_bytes_le(&b[n..]).ok_or(DecodeError::NonCanonical { byte: n })?)
            }
            PointFormat::Compressed => None,
        };
        if flags == LE_INF {
            if !x.is_zero() || y.is_some_and(|y| !y.is_zero()) {
                return Err(DecodeError::NonZeroInfinity);
            }
            return Ok(Decoded::Point(Self::identity()));
        }
        Self::finish(x, y, flags == LE_NEG)
    }

    fn decode_be(bytes: &[u8], format: PointFormat, n: usize) -> Result<Decoded<C>, DecodeError> {
        let flags = bytes[0] & (BE_COMPRESSED | BE_INF | BE_LARGEST);
        let compressed = flags & BE_COMPRESSED != 0;
        let infinity = flags & BE_INF != 0;
        let largest = flags & BE_LARGEST != 0;
        if compressed != (format == PointFormat::Compressed) || (largest && (!compressed || infinity)) {
            return Err(DecodeError::BadFlags { byte: 0, flags });
        }
        let mut buf = [0u8; 2 * MAX_BYTES];
        let b = &mut buf[..bytes.len()];
        b.copy_from_slice(bytes);
        b[0] &= !(BE_COMPRESSED | BE_INF | BE_LARGEST);
        let x = from_be::<C::Base>(&b[..n]).ok_or(DecodeError::NonCanonical { byte: 0 })?;
        let y = match format {
            PointFormat::Uncompressed | PointFormat::Evm => {
                Some(from_be::<C::Base>(&b[n..]).ok_or(DecodeError::NonCanonical { byte: n })?)
            }
            PointFormat::Compressed => None,
        };
        if infinity {
            if !x.is_zero() || y.is_some_and(|y| !y.is_zero()) {
                return Err(DecodeError::NonZeroInfinity);
            }
            return Ok(Decoded::Point(Self::identity()));
        }
        Self::finish(x, y, largest)
    }

    fn finish(x: C::Base, y: Option<C::Base>, largest: bool) -> Result<Decoded<C>, DecodeError> {
        match y {
            Some(y) => {
                let p = Self::new_unchecked(x, y);
                if p.is_on_curve() {
                    Ok(Decoded::Point(p))
                } else {
                    Err(DecodeError::NotOnCurve)
                }
            }
            None => Ok(Decoded::Compressed { x, largest }),
        }
    }
}
