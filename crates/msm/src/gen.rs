//! Deterministic inputs: uniform scalars, and random subgroup points P_i = g_i G
//! whose discrete logs g_i are kept, so that an MSM can be checked in a
//! completely different way: sum s_i P_i = (sum s_i g_i mod r) G.

use crate::ScalarLimbs;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use rayon::prelude::*;
use zkmsm_curve::{Affine, MsmCurve, Xyzz};
use zkmsm_field::PrimeField;

const CHUNK: usize = 4096;

/// Inputs built independently per chunk, so the result does not depend on the
/// thread count.
fn chunked<T: Send, F>(n: usize, seed: u64, f: F) -> Vec<T>
where
    F: Fn(&mut ChaCha20Rng, usize) -> Vec<T> + Sync,
{
    (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .flat_map_iter(|chunk| {
            let mut rng = ChaCha20Rng::seed_from_u64(seed);
            rng.set_stream(chunk as u64);
            f(&mut rng, CHUNK.min(n - chunk * CHUNK))
        })
        .collect()
}

pub fn random_field_elements<C: MsmCurve>(n: usize, seed: u64) -> Vec<C::Scalar> {
    chunked(n, seed, |rng, len| (0..len).map(|_| C::Scalar::random(rng)).collect())
}

pub fn random_scalars<C: MsmCurve>(n: usize, seed: u64) -> Vec<ScalarLimbs> {
    random_field_elements::<C>(n, seed).iter().map(C::scalar_to_limbs).collect()
}

/// k * base from a table of v * 2^(8j) * base: 32 mixed additions per point.
pub struct FixedBaseTable<C: MsmCurve> {
    rows: Vec<Vec<Affine<C>>>,
}

impl<C: MsmCurve> FixedBaseTable<C> {
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
pub struct KnownPoints<C: MsmCurve> {
    pub points: Vec<Affine<C>>,
    pub dlogs: Vec<C::Scalar>,
}

pub fn random_points<C: MsmCurve>(n: usize, seed: u64) -> KnownPoints<C> {
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
pub fn expected_msm<C: MsmCurve>(dlogs: &[C::Scalar], scalars: &[C::Scalar]) -> Affine<C> {
    let e = dlogs.par_iter().zip(scalars).map(|(g, s)| *g * *s).reduce(|| C::Scalar::ZERO, |a, b| a + b);
    C::generator().mul_bigint(&C::scalar_to_limbs(&e)).to_affine()
}
