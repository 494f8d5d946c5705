//! Point decoding against arkworks: whatever the bytes, zkmsm's decoder (plus
//! its subgroup check) and arkworks' `deserialize_with_mode(.., Validate::Yes)`
//! accept the same encodings and decode them to the same point.
//!
//! One deliberate difference: arkworks ignores the coordinates of an encoding
//! flagged as the point at infinity; zkmsm requires them to be zero (that is
//! what every writer, arkworks included, produces). BLS12-377 uncompressed
//! points with a wrong y-sign flag are accepted by both (arkworks does, and
//! real SRS files depend on it).

use ark_serialize::{CanonicalDeserialize, CanonicalSerialize, Compress, Validate};
use zkmsm_curve::{Affine, Bls12_377, Bls12_381, Bn254, DecodeError, MsmCurve, PointFormat};

/// Input layout: byte 0 picks the format (bit 0) and whether the rest is used
/// as is (bit 1: exercises wrong lengths) or fitted to the format's size.
pub fn decode_bls12_377(data: &[u8]) {
    decode::<Bls12_377, ark_bls12_377::G1Affine>(data)
}

/// As [`decode_bls12_377`], for BLS12-381.
pub fn decode_bls12_381(data: &[u8]) {
    decode::<Bls12_381, ark_bls12_381::G1Affine>(data)
}

/// As [`decode_bls12_377`], for BN254 (arkworks' encoding).
pub fn decode_bn254(data: &[u8]) {
    decode::<Bn254, ark_bn254::G1Affine>(data)
}

fn decode<C: MsmCurve, A: CanonicalDeserialize + CanonicalSerialize>(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else { return };
    let format = if mode & 1 == 0 { PointFormat::Compressed } else { PointFormat::Uncompressed };
    let size = format.size::<C>();
    if mode & 2 != 0 {
        let ours = Affine::<C>::from_bytes(rest, format);
        if rest.len() != size {
            assert_eq!(ours, Err(DecodeError::WrongLength { expected: size, got: rest.len() }));
            return;
        }
    }
    let mut bytes = rest.to_vec();
    bytes.resize(size, 0);
    check_encoding::<C, A>(&bytes, format);
}

/// The agreement property on one encoding of exactly the format's size.
pub fn check_encoding<C: MsmCurve, A: CanonicalDeserialize + CanonicalSerialize>(bytes: &[u8], format: PointFormat) {
    let compress = if format == PointFormat::Compressed { Compress::Yes } else { Compress::No };
    let ours = Affine::<C>::from_bytes(bytes, format);
    let theirs = A::deserialize_with_mode(bytes, compress, Validate::Yes);
    match (&ours, &theirs) {
        (Ok(p), Ok(a)) => {
            assert!(p.is_on_curve(), "decoded point off the curve");
            let mut ark_bytes = Vec::new();
            a.serialize_compressed(&mut ark_bytes).unwrap();
            assert_eq!(
                p.to_bytes(PointFormat::Compressed),
                ark_bytes,
                "{}: zkmsm and arkworks decode {} to different points",
                C::NAME,
                hex(bytes)
            );
            assert!(p.is_in_subgroup(), "{}: arkworks accepts {}, outside the subgroup", C::NAME, hex(bytes));
            // the canonical re-encoding decodes to the same point
            assert_eq!(Affine::<C>::from_bytes(&p.to_bytes(format), format).as_ref(), Ok(p));
        }
        (Ok(p), Err(e)) => {
            // zkmsm decodes without the subgroup check: arkworks must then
            // have refused a point outside the subgroup, nothing else
            assert!(
                !p.is_in_subgroup(),
                "{}: zkmsm accepts {} (a subgroup point), arkworks refuses it: {e}",
                C::NAME,
                hex(bytes)
            );
        }
        (Err(ours), Ok(_)) => {
            assert_eq!(
                *ours,
                DecodeError::NonZeroInfinity,
                "{}: arkworks accepts {}, zkmsm refuses it: {ours}",
                C::NAME,
                hex(bytes)
            );
        }
        (Err(_), Err(_)) => {}
    }
}

/// Lowercase hex of `b`, for failure messages.
pub fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
