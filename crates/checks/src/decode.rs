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

/// As [`decode_bls12_377`], for BN254; with bit 2 of byte 0 set, the EVM
/// layout instead ([`check_evm_bn254`] on the rest fitted to 64 bytes).
pub fn decode_bn254(data: &[u8]) {
    match data.split_first() {
        Some((&mode, rest)) if mode & 4 != 0 => {
            let mut bytes = rest.to_vec();
            bytes.resize(64, 0);
            check_evm_bn254(&bytes);
        }
        _ => decode::<Bn254, ark_bn254::G1Affine>(data),
    }
}

/// The EVM layout (big-endian x then y, (0, 0) the identity) against
/// arkworks' field and curve: zkmsm accepts exactly the pairs of canonical
/// coordinates that are (0, 0) or a point arkworks finds on the curve, and
/// decodes them to that point.
pub fn check_evm_bn254(bytes: &[u8]) {
    use ark_ec::AffineRepr;
    use ark_ff::PrimeField;
    let ours = Affine::<Bn254>::from_bytes(bytes, PointFormat::Evm);
    // a big-endian coordinate as arkworks' integer, then its field element (None from q up)
    let coord = |b: &[u8]| {
        let mut limbs = [0u64; 4];
        for (i, chunk) in b.rchunks(8).enumerate() {
            limbs[i] = u64::from_be_bytes(chunk.try_into().unwrap());
        }
        ark_bn254::Fq::from_bigint(ark_ff::BigInt(limbs))
    };
    let (x, y) = (coord(&bytes[..32]), coord(&bytes[32..]));
    let theirs = match (x, y) {
        (None, _) | (_, None) => None,
        (Some(x), Some(y)) if x == ark_bn254::Fq::from(0u8) && y == ark_bn254::Fq::from(0u8) => {
            Some(ark_bn254::G1Affine::zero())
        }
        (Some(x), Some(y)) => Some(ark_bn254::G1Affine::new_unchecked(x, y)).filter(|p| p.is_on_curve()),
    };
    match (ours, theirs) {
        (Ok(p), Some(a)) => {
            let mut ark_bytes = Vec::new();
            a.serialize_compressed(&mut ark_bytes).unwrap();
            assert_eq!(p.to_bytes(PointFormat::Compressed), ark_bytes, "EVM {}: different points", hex(bytes));
            assert_eq!(p.to_bytes(PointFormat::Evm), bytes, "EVM {}: not re-encoded as read", hex(bytes));
        }
        (Ok(_), None) => panic!("EVM {}: zkmsm accepts what is not a point", hex(bytes)),
        (Err(e), Some(_)) => panic!("EVM {}: zkmsm refuses a point: {e}", hex(bytes)),
        (Err(_), None) => {}
    }
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
