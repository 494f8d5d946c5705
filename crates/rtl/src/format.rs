//! The cores' data formats: how a point goes into point memory and how a
//! bucket comes back, as 64-bit little-endian words, low bits first.
//!
//! Twisted Edwards core (rtl/src/zk_dp_te.sv, BLS12-377):
//!   point  = {kxy, y+x, y-x}: 3 x 384 bits, Montgomery form, canonical
//!   bucket = {T, Z, Y, X}:    4 x 384 bits, Montgomery form, each < 2q
//! Batched-affine core (rtl/src/zk_dp_aff.sv, any short-Weierstrass curve):
//!   point  = {y, x}:          2 x 384 bits, Montgomery form (R = 2^384), canonical
//!   bucket = {inf, y, x}:     1 + 2 x 384 bits, canonical; inf = 1: the
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

/// 64-bit words of a point in the batched-affine core's point memory.
pub const AFF_POINT_WORDS: usize = 12;
/// 64-bit words of a batched-affine bucket value (769 bits).
pub const AFF_BUCKET_WORDS: usize = 13;

/// An affine point as the batched-affine core reads it. The point port has
/// no infinity flag: the point at infinity is written as zeros, and the
/// host never sends it a non-zero digit.
pub fn aff_point_words<C: SwCurve>(p: &Affine<C>) -> [u64; AFF_POINT_WORDS] {
    let mut w = [0u64; AFF_POINT_WORDS];
    if !p.is_identity() {
        p.x.write_montgomery_words(&mut w[0..6]);
        p.y.write_montgomery_words(&mut w[6..12]);
    }
    w
}

/// A bucket as the batched-affine core writes it. A value that is not a
/// point of the curve (a coordinate >= q, a point off the curve, bits above
/// the infinity flag) is an error of the core, reported, never returned.
pub fn aff_bucket_from_words<C: SwCurve>(w: &[u64]) -> Result<Affine<C>, String> {
    if w.len() != AFF_BUCKET_WORDS || w[12] > 1 {
        return Err(format!(
            "a batched-affine bucket is 769 bits; got {} words, top word {:#x}",
            w.len(),
            w.get(12).unwrap_or(&0)
        ));
    }
    if w[12] == 1 {
        return Ok(Affine::identity());
    }
    let coord = |k: usize| {
        C::Base::from_montgomery_words(&w[6 * k..6 * k + 6])
            .ok_or_else(|| format!("bucket coordinate {} is not below q", ["x", "y"][k]))
    };
    let p = Affine::<C>::new_unchecked(coord(0)?, coord(1)?);
    if !p.is_on_curve() {
        return Err("the core returned a bucket off the curve".into());
    }
    Ok(p)
}

/// Words of a batched-affine bucket (for tests: the inverse of
/// [`aff_bucket_from_words`]).
pub fn aff_bucket_words<C: SwCurve>(p: &Affine<C>) -> [u64; AFF_BUCKET_WORDS] {
    let mut w = [0u64; AFF_BUCKET_WORDS];
    if p.is_identity() {
        w[12] = 1;
    } else {
        w[..12].copy_from_slice(&aff_point_words(p));
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

    #[test]
    fn affine_formats_round_trip_and_refuse_what_no_core_writes() {
        use zkmsm_curve::Bls12_381;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        let p = Affine::<Bls12_381>::random_in_subgroup(&mut rng);
        let w = aff_bucket_words(&p);
        assert_eq!(aff_bucket_from_words::<Bls12_381>(&w), Ok(p));
        assert_eq!(aff_point_words(&p)[..], w[..12]);
        let inf = aff_bucket_words(&Affine::<Bls12_381>::identity());
        assert_eq!(aff_bucket_from_words::<Bls12_381>(&inf), Ok(Affine::identity()));
        assert_eq!(aff_point_words(&Affine::<Bls12_381>::identity()), [0; AFF_POINT_WORDS]);
        let mut off = w;
        off[0] ^= 1; // x changed: off the curve
        assert!(aff_bucket_from_words::<Bls12_381>(&off).unwrap_err().contains("off the curve"));
        let mut big = w;
        big[11] = u64::MAX; // y >= q
        assert!(aff_bucket_from_words::<Bls12_381>(&big).unwrap_err().contains("not below q"));
        let mut flag = w;
        flag[12] = 2;
        assert!(aff_bucket_from_words::<Bls12_381>(&flag).is_err());
        assert!(aff_bucket_from_words::<Bls12_381>(&w[..12]).is_err());
    }
}
