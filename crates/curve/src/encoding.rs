//! arkworks-canonical point encodings, so that files written by arkworks
//! (`CanonicalSerialize`) load unchanged:
//!
//! - BLS12-377 and BN254 ([`Encoding::ArkworksLe`]): coordinates
//!   little-endian (an Fq2 coordinate c0 then c1); the flags
//!   sit in the top two bits of the last byte of the last coordinate written:
//!   bit 7 = y is the lexicographically largest root, bit 6 = infinity
//!   (encoded as x = y = 0).
//! - BLS12-381 ([`Encoding::ZcashBe`]): arkworks uses the Zcash format:
//!   big-endian (an Fq2 coordinate c1 then c0); first byte bit 7 =
//!   compressed, bit 6 = infinity, bit 5 = y is the lexicographically
//!   largest (compressed only).
//! - [`PointFormat::Evm`], where Ethereum has precompiles ([`EvmLayout`]):
//!   big-endian x then y, no flags, all zeros for the point at infinity
//!   (never a curve point: b != 0). EIP-196/197 on BN254 (32-byte elements,
//!   G2's imaginary part first), EIP-2537 on BLS12-381 (64-byte elements,
//!   the top 16 bytes zero, c0 first).
//!
//! Decoding checks canonical coordinates and that the point is on the curve;
//! subgroup membership is checked by the caller (in bulk, in parallel).

use crate::{Affine, MsmCurve, SwCurve};

use zkmsm_field::{Field, PrimeField, TowerField};

/// The byte layout of a curve's arkworks encoding (see the module's documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// BLS12-377: little-endian, flags in the top bits of the last byte.
    ArkworksLe,
    /// BLS12-381: Zcash's big-endian format, flags in the top bits of the first byte.
    ZcashBe,
}

/// The Ethereum precompiles' layout of one curve: big-endian coefficients,
/// each in `width` bytes (zero-padded), x then y, no flags, all zeros the
/// point at infinity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvmLayout {
    /// Bytes per base-field coefficient: 32 on BN254 (EIP-196/197), 64 on
    /// BLS12-381 (EIP-2537: a 48-byte element after 16 zero bytes).
    pub width: usize,
    /// Fq2 coefficients c1 (the imaginary part) first, as EIP-197 writes G2
    /// on BN254; EIP-2537 writes c0 first.
    pub imaginary_first: bool,
}

/// Compressed (x and a sign flag) or uncompressed (x and y) encodings in the
/// curve's arkworks layout, or the EVM's raw big-endian x and y.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointFormat {
    /// x only, with the flags: 48 bytes on the BLS12 curves, 32 on BN254.
    Compressed,
    /// x and y: 96 bytes on the BLS12 curves, 64 on BN254.
    Uncompressed,
    /// The Ethereum precompiles' points ([`EvmLayout`]): EIP-196/197 on
    /// BN254 (64 bytes in G1, 128 in G2), EIP-2537 on BLS12-381 (128 and
    /// 256 bytes); BLS12-377 has none. Never detected from a size: named
    /// explicitly.
    Evm,
}

impl PointFormat {
    /// Bytes per encoded point (for [`PointFormat::Evm`] on a curve without
    /// it, the size of no valid encoding: 0).
    pub fn size<C: MsmCurve>(self) -> usize {
        match self {
            PointFormat::Compressed => coordinate_size::<C::Base>(),
            PointFormat::Uncompressed => 2 * coordinate_size::<C::Base>(),
            PointFormat::Evm => C::EVM.map_or(0, |l| 2 * C::Base::DEGREE * l.width),
        }
    }

    /// The formats `C` has: Evm only where Ethereum defines it.
    pub fn available<C: MsmCurve>() -> &'static [PointFormat] {
        if C::EVM.is_some() {
            &[PointFormat::Compressed, PointFormat::Uncompressed, PointFormat::Evm]
        } else {
            &[PointFormat::Compressed, PointFormat::Uncompressed]
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
    /// EVM layout: a non-zero byte where a coefficient's padding must be zero.
    #[error("byte {byte} is padding above a field element and must be zero")]
    NonZeroPadding {
        /// The offending byte.
        byte: usize,
    },
    /// [`PointFormat::Evm`] on a curve Ethereum has no precompile for.
    #[error("{curve} has no EVM point format (BN254 has EIP-196/197's, BLS12-381 EIP-2537's)")]
    NoEvmForm {
        /// The curve.
        curve: &'static str,
    },
}

const LE_NEG: u8 = 1 << 7;
const LE_INF: u8 = 1 << 6;
const BE_COMPRESSED: u8 = 1 << 7;
const BE_INF: u8 = 1 << 6;
const BE_LARGEST: u8 = 1 << 5;

/// The largest encoded point (an EIP-2537 G2 point: 4 x 64 bytes).
const MAX_POINT: usize = 256;

/// Bytes of one coordinate in the arkworks layouts.
fn coordinate_size<F: TowerField>() -> usize {
    F::DEGREE * F::Prime::NUM_BYTES
}

/// Coefficient c0 first, each little-endian (arkworks' `CanonicalSerialize`).
fn write_le<F: TowerField>(f: &F, out: &mut Vec<u8>) {
    for i in 0..F::DEGREE {
        out.extend(f.coefficient(i).to_bytes_le());
    }
}

/// Each coefficient big-endian in `width` bytes (zero-padded on the left),
/// the highest coefficient first when `high_first` (Zcash, EIP-197's
/// imaginary part first) or c0 first (EIP-2537).
fn write_be<F: TowerField>(f: &F, out: &mut Vec<u8>, width: usize, high_first: bool) {
    for k in 0..F::DEGREE {
        let i = if high_first { F::DEGREE - 1 - k } else { k };
        let mut b = f.coefficient(i).to_bytes_le();
        b.reverse();
        out.extend(core::iter::repeat_n(0, width - b.len()));
        out.extend(b);
    }
}

/// The inverse of [`write_le`]; `Err(byte)`: the coefficient at `byte` of `b`
/// is not below q.
fn read_le<F: TowerField>(b: &[u8]) -> Result<F, usize> {
    let n = F::Prime::NUM_BYTES;
    let mut c = [F::Prime::ZERO; 2];
    for (i, c) in c.iter_mut().enumerate().take(F::DEGREE) {
        *c = F::Prime::from_bytes_le(&b[i * n..(i + 1) * n]).ok_or(i * n)?;
    }
    Ok(F::from_coefficients(&c[..F::DEGREE]))
}

/// What is wrong with a big-endian coefficient.
enum BeFault {
    /// A non-zero byte in the padding, at this offset.
    Padding(usize),
    /// The coefficient starting at this offset is not below q.
    NotCanonical(usize),
}

/// The inverse of [`write_be`].
fn read_be<F: TowerField>(b: &[u8], width: usize, high_first: bool) -> Result<F, BeFault> {
    let n = F::Prime::NUM_BYTES;
    let mut c = [F::Prime::ZERO; 2];
    for k in 0..F::DEGREE {
        let i = if high_first { F::DEGREE - 1 - k } else { k };
        let at = k * width;
        let chunk = &b[at..at + width];
        if let Some(z) = chunk[..width - n].iter().position(|&v| v != 0) {
            return Err(BeFault::Padding(at + z));
        }
        let mut le = [0u8; 64];
        let le = &mut le[..n];
        le.copy_from_slice(&chunk[width - n..]);
        le.reverse();
        c[i] = F::Prime::from_bytes_le(le).ok_or(BeFault::NotCanonical(at))?;
    }
    Ok(F::from_coefficients(&c[..F::DEGREE]))
}

/// A big-endian coordinate at offset `base` of the point, its faults as
/// [`DecodeError`]s with offsets relative to the point.
fn read_be_at<F: TowerField>(b: &[u8], base: usize, width: usize, high_first: bool) -> Result<F, DecodeError> {
    read_be(b, width, high_first).map_err(|f| match f {
        BeFault::Padding(at) => DecodeError::NonZeroPadding { byte: base + at },
        BeFault::NotCanonical(at) => DecodeError::NonCanonical { byte: base + at },
    })
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
    /// The arkworks-canonical encoding of this point in `format` (what
    /// `CanonicalSerialize` writes), or the EVM layout. Panics on
    /// [`PointFormat::Evm`] where `C` has none: callers check
    /// [`PointFormat::available`] first.
    pub fn to_bytes(&self, format: PointFormat) -> Vec<u8> {
        let (x, y) = if self.infinity { (C::Base::ZERO, C::Base::ZERO) } else { (self.x, self.y) };
        let mut out = Vec::with_capacity(format.size::<C>());
        if format == PointFormat::Evm {
            let l = C::EVM.unwrap_or_else(|| panic!("{} has no EVM point format", C::LABEL));
            write_be(&x, &mut out, l.width, l.imaginary_first);
            write_be(&y, &mut out, l.width, l.imaginary_first);
            return out;
        }
        let largest = !self.infinity && y.is_lexicographically_largest();
        match C::ENCODING {
            Encoding::ArkworksLe => {
                write_le(&x, &mut out);
                if format == PointFormat::Uncompressed {
                    write_le(&y, &mut out);
                }
                let last = out.len() - 1;
                out[last] |= if self.infinity {
                    LE_INF
                } else if largest {
                    LE_NEG
                } else {
                    0
                };
            }
            Encoding::ZcashBe => {
                let n = <C::Base as TowerField>::Prime::NUM_BYTES;
                write_be(&x, &mut out, n, true);
                if format == PointFormat::Uncompressed {
                    write_be(&y, &mut out, n, true);
                } else {
                    out[0] |= BE_COMPRESSED;
                    if largest {
                        out[0] |= BE_LARGEST;
                    }
                }
                if self.infinity {
                    out[0] |= BE_INF;
                }
            }
        }
        out
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
        if format == PointFormat::Evm {
            let layout = C::EVM.ok_or(DecodeError::NoEvmForm { curve: C::NAME })?;
            check_length::<C>(bytes, format)?;
            return Self::decode_evm(bytes, layout);
        }
        check_length::<C>(bytes, format)?;
        match C::ENCODING {
            Encoding::ArkworksLe => Self::decode_le(bytes, format),
            Encoding::ZcashBe => Self::decode_be(bytes, format),
        }
    }

    fn decode_evm(bytes: &[u8], l: EvmLayout) -> Result<Decoded<C>, DecodeError> {
        let half = bytes.len() / 2;
        let x = read_be_at::<C::Base>(&bytes[..half], 0, l.width, l.imaginary_first)?;
        let y = read_be_at::<C::Base>(&bytes[half..], half, l.width, l.imaginary_first)?;
        if x.is_zero() && y.is_zero() {
            return Ok(Decoded::Point(Self::identity()));
        }
        Self::finish(x, Some(y), false)
    }

    fn decode_le(bytes: &[u8], format: PointFormat) -> Result<Decoded<C>, DecodeError> {
        let n = coordinate_size::<C::Base>();
        let last = bytes.len() - 1;
        let flags = bytes[last] & (LE_NEG | LE_INF);
        if flags == LE_NEG | LE_INF {
            return Err(DecodeError::BadFlags { byte: last, flags });
        }
        let mut buf = [0u8; MAX_POINT];
        let b = &mut buf[..bytes.len()];
        b.copy_from_slice(bytes);
        b[last] &= !(LE_NEG | LE_INF);
        let x = read_le::<C::Base>(&b[..n]).map_err(|byte| DecodeError::NonCanonical { byte })?;
        let y = match format {
            PointFormat::Uncompressed => {
                Some(read_le::<C::Base>(&b[n..]).map_err(|byte| DecodeError::NonCanonical { byte: n + byte })?)
            }
            _ => None,
        };
        if flags == LE_INF {
            if !x.is_zero() || y.is_some_and(|y| !y.is_zero()) {
                return Err(DecodeError::NonZeroInfinity);
            }
            return Ok(Decoded::Point(Self::identity()));
        }
        Self::finish(x, y, flags == LE_NEG)
    }

    fn decode_be(bytes: &[u8], format: PointFormat) -> Result<Decoded<C>, DecodeError> {
        let n = coordinate_size::<C::Base>();
        let w = <C::Base as TowerField>::Prime::NUM_BYTES;
        let flags = bytes[0] & (BE_COMPRESSED | BE_INF | BE_LARGEST);
        let compressed = flags & BE_COMPRESSED != 0;
        let infinity = flags & BE_INF != 0;
        let largest = flags & BE_LARGEST != 0;
        if compressed != (format == PointFormat::Compressed) || (largest && (!compressed || infinity)) {
            return Err(DecodeError::BadFlags { byte: 0, flags });
        }
        let mut buf = [0u8; MAX_POINT];
        let b = &mut buf[..bytes.len()];
        b.copy_from_slice(bytes);
        b[0] &= !(BE_COMPRESSED | BE_INF | BE_LARGEST);
        let x = read_be_at::<C::Base>(&b[..n], 0, w, true)?;
        let y = match format {
            PointFormat::Uncompressed => Some(read_be_at::<C::Base>(&b[n..], n, w, true)?),
            _ => None,
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

fn check_length<C: MsmCurve>(bytes: &[u8], format: PointFormat) -> Result<(), DecodeError> {
    let expected = format.size::<C>();
    if bytes.len() == expected {
        Ok(())
    } else {
        Err(DecodeError::WrongLength { expected, got: bytes.len() })
    }
}
