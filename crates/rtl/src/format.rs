//! The cores' data formats: how a point goes into point memory and how a
//! bucket comes back, as 64-bit little-endian words, low bits first.
//!
//! Twisted Edwards core (rtl/src/zk_dp_te.sv, BLS12-377):
//!   point  = {kxy, y+x, y-x}: 3 x 384 bits, Montgomery form, canonical
//!   bucket = {T, Z, Y, X}:    4 x 384 bits, Montgomery form, each < 2q
//! Batched-affine core (rtl/src/zk_dp_aff.sv, any short-Weierstrass curve),
//! built at the host field's width NB = 8 NUM_BYTES (384 on BLS12, 256 on
//! BN254), so its Montgomery radix 2^NB is the host's:
//!   point  = {y, x}:          2 x NB bits, Montgomery form, canonical
//!   bucket = {inf, y, x}:     1 + 2 x NB bits, canonical; inf = 1: the
//!                             point at infinity (x, y zero)

use crate::{reduce, Raw};
use zkmsm_curve::te::{TeExtended, TePrecomputed};
use zkmsm_curve::{Affine, SwCurve};
use zkmsm_field::Bls12_377Fq as Fq;
use zkmsm_field::PrimeField;

/// 64-bit words of a point in point memory.
pub const POINT_WORDS: usize = 18;
/// 64-bit words of a bucket value.
pub const BUCKET_WORDS: usize = 24;

/// A precomputed point as the core reads it.
pub fn point_words(p: &TePrecomputed) -> [u64; POINT_WORDS] {
    let mut w = [0u64; POINT_WORDS];
    w[0..6].copy_from_slice(p.y_minus_x.mont_limbs());
    w[6..12].copy_from_slice(p.y_plus_x.mont_limbs());
    w[12..18].copy_from_slice(p.kxy.mont_limbs());
    w
}

/// A bucket as the core writes it (coordinates in [0, 2q), reduced here).
pub fn bucket_from_words(w: &[u64]) -> TeExtended {
    let coord = |k: usize| {
        let mut r: Raw = [0; 6];
        r.copy_from_slice(&w[6 * k..6 * k + 6]);
        Fq::from_mont_limbs(reduce(&r))
    };
    TeExtended { x: coord(0), y: coord(1), z: coord(2), t: coord(3) }
}

/// Words of a bucket value (for tests: the inverse of [`bucket_from_words`]).
pub fn bucket_words(b: &TeExtended) -> [u64; BUCKET_WORDS] {
    let mut w = [0u64; BUCKET_WORDS];
    for (k, c) in [b.x, b.y, b.z, b.t].iter().enumerate() {
        w[6 * k..6 * k + 6].copy_from_slice(c.mont_limbs());
    }
    w
}

/// 64-bit words of one coordinate on the batched-affine core of curve `C`
/// (NB / 64: the host's Montgomery words, as the core's radix is the host's).
pub fn aff_coord_words<C: SwCurve<Base: PrimeField>>() -> usize {
    <C::Base as PrimeField>::NUM_BYTES / 8
}

/// 64-bit words of a point in the batched-affine core's point memory.
pub fn aff_point_len<C: SwCurve<Base: PrimeField>>() -> usize {
    2 * aff_coord_words::<C>()
}

/// 64-bit words of a batched-affine bucket value (2 NB + 1 bits).
pub fn aff_bucket_len<C: SwCurve<Base: PrimeField>>() -> usize {
    2 * aff_coord_words::<C>() + 1
}

/// An affine point as the batched-affine core reads it, appended to `out`.
/// The point port has no infinity flag: the point at infinity is written as
/// zeros, and the host never sends it a non-zero digit.
pub fn push_aff_point<C: SwCurve<Base: PrimeField>>(p: &Affine<C>, out: &mut Vec<u64>) {
    let k = aff_coord_words::<C>();
    let at = out.len();
    out.resize(at + 2 * k, 0);
    if !p.is_identity() {
        p.x.write_montgomery_words(&mut out[at..at + k]);
        p.y.write_montgomery_words(&mut out[at + k..at + 2 * k]);
    }
}

/// A bucket as the batched-affine core writes it. A value that is not a
/// point of the curve (a coordinate >= q, a point off the curve, bits above
/// the infinity flag) is an error of the core, reported, never returned.
pub fn aff_bucket_from_words<C: SwCurve<Base: PrimeField>>(w: &[u64]) -> Result<Affine<C>, String> {
    let k = aff_coord_words::<C>();
    if w.len() != aff_bucket_len::<C>() || w[2 * k] > 1 {
        return Err(format!(
            "a batched-affine bucket is {} bits; got {} words, top word {:#x}",
            128 * k + 1,
            w.len(),
            w.get(2 * k).unwrap_or(&0)
        ));
    }
    if w[2 * k] == 1 {
        return Ok(Affine::identity());
    }
    let coord = |i: usize| {
        C::Base::from_montgomery_words(&w[k * i..k * i + k])
            .ok_or_else(|| format!("bucket coordinate {} is not below q", ["x", "y"][i]))
    };
    let p = Affine::<C>::new_unchecked(coord(0)?, coord(1)?);
    if !p.is_on_curve() {
        return Err("the core returned a bucket off the curve".into());
    }
    Ok(p)
}

/// Words of a batched-affine bucket (for tests: the inverse of
/// [`aff_bucket_from_words`]).
pub fn aff_bucket_words<C: SwCurve<Base: PrimeField>>(p: &Affine<C>) -> Vec<u64> {
    let mut w = Vec::with_capacity(aff_bucket_len::<C>());
    if p.is_identity() {
        w.resize(aff_bucket_len::<C>(), 0);
        w[2 * aff_coord_words::<C>()] = 1;
    } else {
        push_aff_point(p, &mut w);
        w.push(0);
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use zkmsm_curve::te::TeAffine;
    use zkmsm_curve::{Affine, Bls12_377};
    use zkmsm_field::limbs;

    #[test]
    fn formats_round_trip_and_redundant_coordinates_reduce() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let a = TeAffine::from_weierstrass(&Affine::<Bls12_377>::random_in_subgroup(&mut rng)).unwrap();
        let p = a.precompute();
        let w = point_words(&p);
        assert_eq!(w[6..12], p.y_plus_x.mont_limbs()[..]);
        let b = TeExtended::from_affine(&a);
        let mut bw = bucket_words(&b);
        assert_eq!(bucket_from_words(&bw), b);
        // the core's outputs are < 2q: x + q reads as x
        let (lifted, _) = limbs::add(b.y.mont_limbs(), &crate::Q);
        bw[6..12].copy_from_slice(&lifted);
        assert_eq!(bucket_from_words(&bw), b);
    }

    /// On each width: BLS12-381 at NB = 384, BN254 at NB = 256.
    fn affine_round_trip<C: SwCurve<Base: PrimeField>>(seed: u64) {
        let k = aff_coord_words::<C>();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let p = Affine::<C>::random_in_subgroup(&mut rng);
        let w = aff_bucket_words(&p);
        assert_eq!(w.len(), 2 * k + 1);
        assert_eq!(aff_bucket_from_words::<C>(&w), Ok(p));
        let mut pw = Vec::new();
        push_aff_point(&p, &mut pw);
        assert_eq!(pw[..], w[..2 * k]);
        let inf = aff_bucket_words(&Affine::<C>::identity());
        assert_eq!(aff_bucket_from_words::<C>(&inf), Ok(Affine::identity()));
        let mut zero = Vec::new();
        push_aff_point(&Affine::<C>::identity(), &mut zero);
        assert_eq!(zero, vec![0; 2 * k]);
        let mut off = w.clone();
        off[0] ^= 1; // x changed: off the curve
        assert!(aff_bucket_from_words::<C>(&off).unwrap_err().contains("off the curve"));
        let mut big = w.clone();
        big[2 * k - 1] = u64::MAX; // y >= q
        assert!(aff_bucket_from_words::<C>(&big).unwrap_err().contains("not below q"));
        let mut flag = w.clone();
        flag[2 * k] = 2;
        assert!(aff_bucket_from_words::<C>(&flag).is_err());
        assert!(aff_bucket_from_words::<C>(&w[..2 * k]).is_err());
    }

    #[test]
    fn affine_formats_round_trip_and_refuse_what_no_core_writes() {
        use zkmsm_curve::{Bls12_381, Bn254};
        assert_eq!((aff_point_len::<Bls12_381>(), aff_bucket_len::<Bls12_381>()), (12, 13));
        assert_eq!((aff_point_len::<Bn254>(), aff_bucket_len::<Bn254>()), (8, 9));
        affine_round_trip::<Bls12_381>(4);
        affine_round_trip::<Bn254>(5);
    }
}
