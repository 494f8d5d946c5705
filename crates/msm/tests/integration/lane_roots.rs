//! Compressed points decoded in bulk (the square roots' exponentiation in
//! lanes, `zkmsm::input::lane_roots`) against arkworks, on both curves, over every
//! flag combination and adversarial x: x^3 + b a non-residue, x = 0, x = q - 1,
//! x = q, x = q + 1, the largest x the flag bits leave room for, infinity with
//! and without a non-zero x, and points in and off the subgroup.

use ark_ec::AffineRepr as _;
use ark_ff::{BigInteger, PrimeField as _};
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use zkmsm::gen::random_points;
use zkmsm::{decode_points, Affine, Bls12_377, Bls12_381, Validation};
use zkmsm_curve::{DecodeError, PointFormat};
use zkmsm_field::{Field, PrimeField};

/// The arkworks side of one curve, and its compressed encoding's layout.
trait Ark: zkmsm::EngineCurve<Base: PrimeField> {
    type A: ark_ec::AffineRepr + CanonicalSerialize + CanonicalDeserialize;
    type Fq: ark_ff::PrimeField;
    /// Every value the flag bits of a compressed encoding can take.
    const FLAGS: &'static [u8];
    /// A compressed encoding of the raw x bytes (little-endian, not reduced) with `flags`.
    fn raw(x_le: &[u8], flags: u8) -> Vec<u8>;
}

impl Ark for Bls12_377 {
    type A = ark_bls12_377::G1Affine;
    type Fq = ark_bls12_377::Fq;
    // arkworks' SWFlags in the last byte: bit 7 y negative, bit 6 infinity
    const FLAGS: &'static [u8] = &[0x00, 0x40, 0x80, 0xc0];
    fn raw(x_le: &[u8], flags: u8) -> Vec<u8> {
        let mut b = x_le.to_vec();
        b[47] |= flags;
        b
    }
}

impl Ark for Bls12_381 {
    type A = ark_bls12_381::G1Affine;
    type Fq = ark_bls12_381::Fq;
    // the zcash flags in the first byte: compressed, infinity, largest y
    const FLAGS: &'static [u8] = &[0x00, 0x20, 0x40, 0x60, 0x80, 0xa0, 0xc0, 0xe0];
    fn raw(x_le: &[u8], flags: u8) -> Vec<u8> {
        let mut b: Vec<u8> = x_le.iter().rev().copied().collect();
        b[0] |= flags;
        b
    }
}

fn to_ark<C: Ark>(p: &Affine<C>) -> C::A {
    C::A::deserialize_uncompressed_unchecked(&p.to_bytes(PointFormat::Uncompressed)[..]).unwrap()
}

/// The x bytes tried: random elements (about half with no point), the edges
/// of the field and past it.
fn xs<C: Ark>(seed: u64) -> Vec<Vec<u8>> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let q = C::Fq::MODULUS.to_bytes_le();
    let add = |k: u8| {
        let mut b = q.clone();
        let mut carry = k as u16;
        for byte in b.iter_mut() {
            let s = *byte as u16 + carry;
            *byte = s as u8;
            carry = s >> 8;
        }
        b
    };
    let minus_one = (-C::Base::ONE).to_bytes_le();
    let mut top = vec![0xffu8; 48];
    top[47] = 0x1f; // the flag bits of both layouts left clear
    let mut v = vec![vec![0u8; 48], C::Base::ONE.to_bytes_le(), minus_one, q.clone(), add(1), top];
    v.extend((0..200).map(|_| C::Base::random(&mut rng).to_bytes_le()));
    v.extend((0..8).map(|_| {
        let mut b = vec![0u8; 48];
        rng.fill(&mut b[..]);
        b[47] &= 0x1f;
        b
    }));
    v
}

/// Every encoding tried: each x under each flag value, and points of the
/// subgroup as encoded.
fn encodings<C: Ark>(seed: u64) -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = xs::<C>(seed).iter().flat_map(|x| C::FLAGS.iter().map(|&f| C::raw(x, f))).collect();
    let pts = random_points::<C>(40, seed).points;
    v.extend(pts.iter().map(|p| p.to_bytes(PointFormat::Compressed)));
    v.extend(pts.iter().map(|p| p.neg().to_bytes(PointFormat::Compressed)));
    v.push(Affine::<C>::identity().to_bytes(PointFormat::Compressed));
    // shuffle, so that failures sit at every position of the lane groups
    let mut rng = ChaCha20Rng::seed_from_u64(seed + 1);
    for i in (1..v.len()).rev() {
        v.swap(i, rng.gen_range(0..=i));
    }
    v
}

/// One encoding alone, ours (the scalar root) and arkworks', on-curve only;
/// where they differ, the one difference we mean: arkworks' BLS12-377 takes
/// the infinity flag whatever x says, we refuse a non-zero x.
fn one_by_one<C: Ark>(e: &[u8]) -> Option<Affine<C>> {
    let ours = Affine::<C>::from_bytes(e, PointFormat::Compressed);
    let ark = C::A::deserialize_compressed_unchecked(e).ok();
    match (&ours, &ark) {
        (Ok(p), Some(a)) => assert_eq!(to_ark(p), *a, "{} {e:02x?}", C::NAME),
        (Err(_), None) => {}
        (Err(DecodeError::NonZeroInfinity), Some(a)) if a.is_zero() => {}
        _ => panic!("{}: ours {ours:?}, arkworks {ark:?}, encoding {e:02x?}", C::NAME),
    }
    ours.ok()
}

fn against_arkworks<C: Ark>(seed: u64) {
    let size = PointFormat::Compressed.size::<C>();
    let all = encodings::<C>(seed);
    let expect: Vec<Option<Affine<C>>> = all.iter().map(|e| one_by_one::<C>(e)).collect();
    let (good, bad) = (expect.iter().filter(|p| p.is_some()).count(), expect.iter().filter(|p| p.is_none()).count());
    assert!(good > 200 && bad > 200, "{} accepted, {} refused", good, bad);
    let no_root =
        all.iter().filter(|e| Affine::<C>::from_bytes(e, PointFormat::Compressed) == Err(DecodeError::NoSuchX));
    assert!(no_root.count() > 100);

    // In bulk: every run of accepted encodings decodes to arkworks' points;
    // each refused one ends its run with an error naming its index and offset.
    let mut start = 0;
    for end in 0..=all.len() {
        if end < all.len() && expect[end].is_some() {
            continue;
        }
        let run: Vec<u8> = all[start..end].concat();
        let got = decode_points::<C>(&run, PointFormat::Compressed, Validation::OnCurveOnly).unwrap();
        let want: Vec<Affine<C>> = expect[start..end].iter().map(|p| p.unwrap()).collect();
        assert_eq!(got, want, "{} run {start}..{end}", C::NAME);
        if end < all.len() {
            let with_bad: Vec<u8> = all[start..=end].concat();
            let err = decode_points::<C>(&with_bad, PointFormat::Compressed, Validation::OnCurveOnly).unwrap_err();
            assert_eq!(
                (err.index, err.offset),
                (Some(end - start), ((end - start) * size) as u64),
                "{} {err}",
                C::NAME
            );
        }
        start = end + 1;
    }

    // The subgroup check after bulk decoding agrees with arkworks' checked
    // decoding on every point the curve equation lets through.
    for (e, p) in all.iter().zip(&expect) {
        if p.is_none() {
            continue;
        }
        let ours = decode_points::<C>(e, PointFormat::Compressed, Validation::Full).is_ok();
        let ark = C::A::deserialize_compressed(&e[..]).is_ok();
        assert_eq!(ours, ark, "{} {e:02x?}", C::NAME);
    }
}

#[test]
fn bulk_decompression_matches_arkworks_bls12_377() {
    against_arkworks::<Bls12_377>(11);
}

#[test]
fn bulk_decompression_matches_arkworks_bls12_381() {
    against_arkworks::<Bls12_381>(12);
}

/// [`zkmsm::input::lane_roots::sqrt_batch`] (lanes where the CPU has them) against
/// the scalar table root: zero, one, -1, 2, random elements (about half
/// non-squares) and their squares, and 2^s-th roots of unity z^E (the
/// tables' entries and products of them, times random squares: E with each
/// digit zero, full or in between, the digit search's corner cases), at
/// lengths around the lane groups.
fn roots_match_scalar<F: PrimeField>(seed: u64) {
    let table = zkmsm_curve::sqrt::SqrtTable::<F>::new();
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut v = vec![F::ZERO, F::ONE, -F::ONE, F::from_u64(2)];
    v.extend((0..300).map(|_| F::random(&mut rng)));
    let unity: Vec<F> =
        table.powers().iter().flat_map(|row| [row[1], row[row.len() / 2], row[row.len() - 1]]).collect();
    v.extend(unity.iter().copied());
    v.extend(table.roots().iter().step_by(7).copied());
    v.extend(unity.iter().map(|u| *u * unity[unity.len() - 1] * F::random(&mut rng).square()));
    v.push(unity.iter().fold(F::ONE, |acc, u| acc * *u));
    let squares: Vec<F> = v.iter().map(|x| x.square()).collect();
    v.extend(squares);
    for len in [0, 1, 7, 8, 9, 16, 17, 513, v.len()] {
        let got = zkmsm::input::lane_roots::sqrt_batch(&table, &v[..len]);
        assert_eq!(got.len(), len);
        for (a, r) in v[..len].iter().zip(&got) {
            assert_eq!(r.is_some(), table.sqrt(a).is_some(), "{a:?}");
            if let Some(r) = r {
                assert_eq!(r.square(), *a, "{a:?}");
            }
        }
    }
    let found = zkmsm::input::lane_roots::sqrt_batch(&table, &v).iter().filter(|r| r.is_some()).count();
    assert!(found > v.len() / 2 + 50 && found < v.len(), "{found} of {}", v.len());
}

#[test]
fn batched_roots_match_scalar_roots() {
    roots_match_scalar::<zkmsm_field::Bls12_377Fq>(21); // s = 46: a narrower top digit
    roots_match_scalar::<zkmsm_field::Bls12_381Fq>(22); // s = 1: one one-bit digit
    roots_match_scalar::<zkmsm_field::Bls12_377Fr>(23); // s = 47
    roots_match_scalar::<zkmsm_field::Bls12_381Fr>(24); // s = 32: four whole digits
}
