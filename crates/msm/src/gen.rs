//! Deterministic inputs: uniform scalars, and random subgroup points P_i = g_i G
//! whose discrete logs g_i are kept, so that an MSM can be checked in a
//! completely different way: sum s_i P_i = (sum s_i g_i mod r) G.

use crate::input::InputCurve;
use crate::pipeline::digits::ScalarLimbs;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use rayon::prelude::*;
use zkmsm_curve::{Affine, Xyzz};
use zkmsm_field::Field;

/// Inputs are generated in chunks of this many, each from its own stream.
pub const CHUNK: usize = 4096;

fn chunk_rng(seed: u64, chunk: usize) -> ChaCha20Rng {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    rng.set_stream(chunk as u64);
    rng
}

/// Inputs built independently per chunk, so the result does not depend on the
/// thread count.
fn chunked<T: Send, F>(n: usize, seed: u64, f: F) -> Vec<T>
where
    F: Fn(&mut ChaCha20Rng, usize) -> Vec<T> + Sync,
{
    (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .flat_map_iter(|chunk| f(&mut chunk_rng(seed, chunk), CHUNK.min(n - chunk * CHUNK)))
        .collect()
}

/// n uniform scalar-field elements from `seed`, deterministic whatever the thread count (generated
/// in fixed chunks).
pub fn random_field_elements<C: InputCurve>(n: usize, seed: u64) -> Vec<C::Scalar> {
    chunked(n, seed, |rng, len| (0..len).map(|_| C::Scalar::random(rng)).collect())
}

/// [`random_field_elements`] as canonical limbs, as the MSM takes them.
pub fn random_scalars<C: InputCurve>(n: usize, seed: u64) -> Vec<ScalarLimbs> {
    random_field_elements::<C>(n, seed).iter().map(C::scalar_to_limbs).collect()
}

/// Scalars `chunk * CHUNK ..` (`len <= CHUNK` of them) of `random_scalars(n,
/// seed)` for any larger n: the same generator a chunk at a time, for callers
/// that stream scalars instead of storing N of them (the cycle model at 2^26).
pub fn random_scalars_chunk<C: InputCurve>(seed: u64, chunk: usize, len: usize) -> Vec<ScalarLimbs> {
    assert!(len <= CHUNK, "a chunk holds at most {CHUNK} scalars");
    let mut rng = chunk_rng(seed, chunk);
    (0..len).map(|_| C::scalar_to_limbs(&C::Scalar::random(&mut rng))).collect()
}

/// k * base from a table of v * 2^(8j) * base: 32 mixed additions per point.
pub struct FixedBaseTable<C: InputCurve> {
    rows: Vec<Vec<Affine<C>>>,
}

impl<C: InputCurve> FixedBaseTable<C> {
    /// The table of `base`: 32 rows of 256 multiples (8192 affine points).
    pub fn new(base: &Affine<C>) -> Self {
        let mut rows = Vec::with_capacity(32);
        let mut b = base.to_xyzz();
        for _ in 0..32 {
            let mut row = Vec::with_capacity(256);
            let mut acc = Xyzz::identity();
            for _ in 0..256 {
                row.push(acc);
                acc = acc.add(&b);
            }
            rows.push(Xyzz::batch_to_affine(&row));
            b = acc; // 256 * b
        }
        Self { rows }
    }

    /// `k * base`.
    pub fn mul(&self, k: &ScalarLimbs) -> Xyzz<C> {
        let mut acc = Xyzz::identity();
        for (j, row) in self.rows.iter().enumerate() {
            let byte = (k[j / 8] >> ((j % 8) * 8)) & 0xff;
            acc = acc.add_affine(&row[byte as usize]);
        }
        acc
    }
}

/// Points with their discrete logs to the curve's generator.
pub struct KnownPoints<C: InputCurve> {
    /// `dlogs[i] * G`.
    pub points: Vec<Affine<C>>,
    /// The discrete logs, uniform from the seed.
    pub dlogs: Vec<C::Scalar>,
}

/// n subgroup points `g_i * G` with uniform `g_i` from `seed` (kept, so results can be checked in
/// the scalar field): `zkmsm gen`'s points.
pub fn random_points<C: InputCurve>(n: usize, seed: u64) -> KnownPoints<C> {
    let table = FixedBaseTable::new(&C::generator());
    let dlogs = random_field_elements::<C>(n, seed ^ 0x9e37_79b9_7f4a_7c15);
    let points = dlogs
        .par_chunks(CHUNK)
        .flat_map_iter(|chunk| {
            let proj: Vec<Xyzz<C>> = chunk.iter().map(|g| table.mul(&C::scalar_to_limbs(g))).collect();
            Xyzz::batch_to_affine(&proj)
        })
        .collect();
    KnownPoints { points, dlogs }
}

/// sum s_i P_i computed in the scalar field: (sum s_i g_i) * G.
pub fn expected_msm<C: InputCurve>(dlogs: &[C::Scalar], scalars: &[C::Scalar]) -> Affine<C> {
    let e = dlogs.par_iter().zip(scalars).map(|(g, s)| *g * *s).reduce(|| C::Scalar::ZERO, |a, b| a + b);
    C::generator().mul_bigint(&C::scalar_to_limbs(&e)).to_affine()
}

#[cfg(test)]
mod tests {
    use super::*;
    use zkmsm_curve::Bls12_377;

    #[test]
    fn chunks_are_slices_of_the_whole() {
        let n = 2 * CHUNK + 100;
        let all = random_scalars::<Bls12_377>(n, 9);
        for (k, len) in [(0, CHUNK), (1, 7), (2, 100)] {
            assert_eq!(random_scalars_chunk::<Bls12_377>(9, k, len)[..], all[k * CHUNK..k * CHUNK + len]);
        }
    }
}
