//! The core's data formats: how a point goes into point memory and how a
//! bucket comes back (rtl/src/zk_dp_te.sv), as 64-bit little-endian words.
//!
//!   point  = {kxy, y+x, y-x}: 3 x 384 bits, Montgomery form, canonical
//!   bucket = {T, Z, Y, X}:    4 x 384 bits, Montgomery form, each < 2q

use crate::{reduce, Raw};
use zkmsm_curve::te::{TeExtended, TePrecomputed};
use zkmsm_field::Bls12_377Fq as Fq;

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
}
