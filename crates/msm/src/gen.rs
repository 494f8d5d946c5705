//! Deterministic inputs: uniform scalars, and random subgroup points P_i = g_i G
//! whose discrete logs g_i are kept, so that an MSM can be checked in a
//! completely different way: sum s_i P_i = (sum s_i g_i mod r) G.
//!
//! The points are fixed-base multiples of G computed many at once
//! ([`FixedBaseBatch`]): one table entry a row added per point, in affine
//! coordinates, one inversion a row for a whole chunk. [`stream_inputs`]
//! writes inputs of any size a block at a time (memory: the table and two
//! blocks, whatever n), with the expected MSM result.

use crate::input::scalars::ScalarEndian;
use crate::input::InputCurve;
use crate::pipeline::digits::ScalarLimbs;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use rayon::prelude::*;
use zkmsm_curve::{Affine, PointFormat, Xyzz};
use zkmsm_field::batch::batch_inverse_with_scratch;
use zkmsm_field::Field;

/// Inputs are generated in chunks of this many, each from its own stream.
pub const CHUNK: usize = 4096;

/// The discrete logs' seed for `zkmsm gen --seed S` is `S ^ DLOG_SEED_MASK`
/// (the scalars' is `S + 1`).
const DLOG_SEED_MASK: u64 = 0x9e37_79b9_7f4a_7c15;

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

/// Field elements `chunk * CHUNK ..` (`len <= CHUNK` of them) of
/// [`random_field_elements`]`(n, seed)` for any larger n.
fn field_elements_chunk<C: InputCurve>(seed: u64, chunk: usize, len: usize) -> Vec<C::Scalar> {
    let mut rng = chunk_rng(seed, chunk);
    (0..len).map(|_| C::Scalar::random(&mut rng)).collect()
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
    field_elements_chunk::<C>(seed, chunk, len).iter().map(C::scalar_to_limbs).collect()
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

/// Widest window of a [`FixedBaseBatch`]: 2^16 entries a row (BLS12-381:
/// 16 rows, 104 MiB of table).
pub const MAX_BATCH_WINDOW: u32 = 16;

/// `k * base` for many k at once, in affine coordinates: rows of
/// `v * 2^(w j) * base` (v < 2^w), so k * base is one entry a row summed
/// (ceil(bits / w) additions), and each row's additions over a whole slice of
/// scalars share one inversion (Montgomery's trick): about 6 multiplications
/// an addition, no normalization at the end. Scalars of any value (also >= r)
/// give `k * base`: equal x (a doubling, or P - P) is settled exactly.
pub struct FixedBaseBatch<C: InputCurve> {
    window: u32,
    rows: Vec<Vec<Affine<C>>>,
}

impl<C: InputCurve> FixedBaseBatch<C> {
    /// The window that makes `n` multiplications cheapest: rows x (n + 2
    /// entries), an entry costing about two additions to make.
    pub fn window_for(n: usize) -> u32 {
        let bits = 256u64;
        (4..=MAX_BATCH_WINDOW).min_by_key(|&w| bits.div_ceil(w as u64) * (n as u64 + (2u64 << w))).expect("a window")
    }

    /// The table of `base` for 256-bit scalars with windows of `window` bits
    /// (1..=[`MAX_BATCH_WINDOW`]).
    pub fn new(base: &Affine<C>, window: u32) -> Self {
        assert!((1..=MAX_BATCH_WINDOW).contains(&window), "window {window} outside 1..={MAX_BATCH_WINDOW}");
        let rows = 256usize.div_ceil(window as usize);
        // each row's base 2^(w j) * base, by doublings
        let mut bases = Vec::with_capacity(rows);
        let mut b = base.to_xyzz();
        for _ in 0..rows {
            bases.push(b);
            for _ in 0..window {
                b = b.double();
            }
        }
        let rows = bases
            .par_iter()
            .enumerate()
            .map(|(j, b)| {
                // the top row needs only the bits left of 256
                let bits = (256 - window as usize * j).min(window as usize);
                let mut row = Vec::with_capacity(1 << bits);
                let mut acc = Xyzz::identity();
                for _ in 0..1usize << bits {
                    row.push(acc);
                    acc = acc.add(b);
                }
                Xyzz::batch_to_affine(&row)
            })
            .collect();
        Self { window, rows }
    }

    /// The table of the curve's generator with [`Self::window_for`]`(n)`.
    pub fn for_generator(n: usize) -> Self {
        Self::new(&C::generator(), Self::window_for(n))
    }

    /// The window's bits of `k` for row `j`.
    fn digit(&self, k: &ScalarLimbs, j: usize) -> usize {
        let (w, at) = (self.window as usize, self.window as usize * j);
        let (limb, shift) = (at / 64, at % 64);
        let mut v = k[limb] >> shift;
        if shift + w > 64 && limb + 1 < 4 {
            v |= k[limb + 1] << (64 - shift);
        }
        (v & ((1u64 << w) - 1)) as usize
    }

    /// `k * base` for every k of `ks`, affine, in order.
    pub fn mul_many(&self, ks: &[ScalarLimbs]) -> Vec<Affine<C>> {
        let mut acc = vec![Affine::<C>::identity(); ks.len()];
        let (mut dx, mut pending, mut scratch) = (Vec::new(), Vec::new(), Vec::new());
        for (j, row) in self.rows.iter().enumerate() {
            dx.clear();
            pending.clear();
            for (i, (a, k)) in acc.iter_mut().zip(ks).enumerate() {
                let d = self.digit(k, j);
                if d == 0 {
                    continue;
                }
                let t = &row[d];
                if a.infinity {
                    *a = *t;
                    continue;
                }
                let diff = t.x - a.x;
                if diff.is_zero() {
                    // t = a (double) or t = -a (the identity): k >= r only
                    *a = if t.y == a.y { a.to_xyzz().double().to_affine() } else { Affine::identity() };
                    continue;
                }
                dx.push(diff);
                pending.push((i, d));
            }
            batch_inverse_with_scratch(&mut dx, &mut scratch);
            for (inv, &(i, d)) in dx.iter().zip(&pending) {
                let (a, t) = (&mut acc[i], &row[d]);
                let l = (t.y - a.y) * *inv;
                let x = l.square() - a.x - t.x;
                let y = l * (a.x - x) - a.y;
                *a = Affine::new_unchecked(x, y);
            }
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
    let table = FixedBaseBatch::<C>::for_generator(n);
    let dlogs = random_field_elements::<C>(n, seed ^ DLOG_SEED_MASK);
    let points = dlogs
        .par_chunks(CHUNK)
        .flat_map_iter(|chunk| table.mul_many(&chunk.iter().map(C::scalar_to_limbs).collect::<Vec<_>>()))
        .collect();
    KnownPoints { points, dlogs }
}

/// sum s_i P_i computed in the scalar field: (sum s_i g_i) * G.
pub fn expected_msm<C: InputCurve>(dlogs: &[C::Scalar], scalars: &[C::Scalar]) -> Affine<C> {
    let e = dlogs.par_iter().zip(scalars).map(|(g, s)| *g * *s).reduce(|| C::Scalar::ZERO, |a, b| a + b);
    C::generator().mul_bigint(&C::scalar_to_limbs(&e)).to_affine()
}

/// Chunks a block of [`stream_inputs`] holds: 2^18 points.
pub const BLOCK_CHUNKS: usize = 64;

/// One block of [`stream_inputs`]: the encoded points and scalars of
/// inputs `first .. first + len`.
pub struct Block<'a> {
    /// The index of the block's first point.
    pub first: usize,
    /// The points in the format asked, back to back.
    pub points: &'a [u8],
    /// The scalars as 32-byte encodings in the order asked.
    pub scalars: &'a [u8],
}

struct Encoded<S> {
    points: Vec<u8>,
    scalars: Vec<u8>,
    sum: S,
}

/// One chunk of `zkmsm gen`'s inputs, encoded, and its sum s_i g_i.
fn encoded_chunk<C: InputCurve>(
    table: &FixedBaseBatch<C>,
    seed: u64,
    chunk: usize,
    len: usize,
    format: PointFormat,
    endian: ScalarEndian,
) -> Encoded<C::Scalar> {
    let dlogs = field_elements_chunk::<C>(seed ^ DLOG_SEED_MASK, chunk, len);
    let scalars = field_elements_chunk::<C>(seed.wrapping_add(1), chunk, len);
    let points = table.mul_many(&dlogs.iter().map(C::scalar_to_limbs).collect::<Vec<_>>());
    let mut out = Encoded {
        points: Vec::with_capacity(len * format.size::<C>()),
        scalars: Vec::with_capacity(len * 32),
        sum: C::Scalar::ZERO,
    };
    for ((p, g), s) in points.iter().zip(&dlogs).zip(&scalars) {
        out.points.extend_from_slice(&p.to_bytes(format));
        out.scalars.extend_from_slice(&endian.bytes(&C::scalar_to_limbs(s)));
        out.sum += *g * *s;
    }
    out
}

/// The most memory [`stream_inputs`] holds at once, an upper bound: the
/// fixed-base table, and two blocks, each as its chunks' parts and as one
/// (the one being written, the next being computed), whatever n beyond a
/// block.
pub fn stream_memory<C: InputCurve>(n: usize, format: PointFormat) -> usize {
    let w = FixedBaseBatch::<C>::window_for(n);
    let table = 256usize.div_ceil(w as usize) << w;
    let block = n.min(BLOCK_CHUNKS * CHUNK) * (format.size::<C>() + 32);
    table * core::mem::size_of::<Affine<C>>() + 4 * block
}

/// `zkmsm gen`'s n points (discrete logs from `seed`) and scalars (from
/// `seed + 1`), the same bytes as [`random_points`] and [`random_scalars`]
/// encode, handed to `sink` a block of up to [`BLOCK_CHUNKS`] x [`CHUNK`]
/// inputs at a time, in order, while the next block is computed; then the
/// expected MSM result, (sum s_i g_i mod r) G. Memory: the table and two
/// blocks, whatever n. `progress` is called with the inputs done so far.
pub fn stream_inputs<C: InputCurve, E: Send>(
    n: usize,
    seed: u64,
    format: PointFormat,
    endian: ScalarEndian,
    sink: &mut (dyn FnMut(Block<'_>) -> Result<(), E> + Send),
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Affine<C>, E> {
    let table = FixedBaseBatch::<C>::for_generator(n);
    let chunks = n.div_ceil(CHUNK);
    let block = |b: usize| -> (usize, Encoded<C::Scalar>) {
        let range = b * BLOCK_CHUNKS..((b + 1) * BLOCK_CHUNKS).min(chunks);
        let parts: Vec<Encoded<C::Scalar>> = range
            .into_par_iter()
            .map(|c| encoded_chunk(&table, seed, c, CHUNK.min(n - c * CHUNK), format, endian))
            .collect();
        let mut all = Encoded { points: Vec::new(), scalars: Vec::new(), sum: C::Scalar::ZERO };
        for p in parts {
            all.points.extend_from_slice(&p.points);
            all.scalars.extend_from_slice(&p.scalars);
            all.sum += p.sum;
        }
        (b * BLOCK_CHUNKS * CHUNK, all)
    };
    let blocks = chunks.div_ceil(BLOCK_CHUNKS);
    let mut total = C::Scalar::ZERO;
    let mut ready = (blocks > 0).then(|| block(0));
    for b in 0..blocks {
        let (first, done) = ready.take().expect("each block is computed before it is written");
        // the next block is computed while this one is written
        let (next, written) = rayon::join(
            || (b + 1 < blocks).then(|| block(b + 1)),
            || {
                let r = sink(Block { first, points: &done.points, scalars: &done.scalars });
                progress(first + done.scalars.len() / 32);
                r
            },
        );
        written?;
        total += done.sum;
        ready = next;
    }
    Ok(C::generator().mul_bigint(&C::scalar_to_limbs(&total)).to_affine())
}

#[cfg(test)]
mod tests {
    use super::*;
    use zkmsm_curve::{Bls12_377, Bls12_381, Bn254};

    #[test]
    fn chunks_are_slices_of_the_whole() {
        let n = 2 * CHUNK + 100;
        let all = random_scalars::<Bls12_377>(n, 9);
        for (k, len) in [(0, CHUNK), (1, 7), (2, 100)] {
            assert_eq!(random_scalars_chunk::<Bls12_377>(9, k, len)[..], all[k * CHUNK..k * CHUNK + len]);
        }
    }

    /// Scalars that reach every special case of the affine additions: zero
    /// digits, an identity start, and (k >= r) a doubling and P - P.
    fn adversarial<C: InputCurve>(window: u32) -> Vec<ScalarLimbs> {
        let r = C::ORDER;
        let r4: ScalarLimbs = core::array::from_fn(|i| r.get(i).copied().unwrap_or(0));
        let mut out = vec![[0; 4], [1, 0, 0, 0], [u64::MAX; 4], r4, [0, 0, 0, 1 << 63]];
        let mut rm1 = r4;
        rm1[0] -= 1;
        out.push(rm1);
        // a + e with e = d 2^(w j) and a = e - r (< 2^(w j)): the last row adds e G = a G (a doubling)
        let top = 256usize.div_ceil(window as usize) - 1;
        let at = window as usize * top;
        let e = |d: u64| -> [u128; 2] { [0, (d as u128) << (at - 128)] };
        for d in 1u64..1 << (256 - at).min(window as usize) {
            let e = e(d);
            let r128 = [(r4[0] as u128) | ((r4[1] as u128) << 64), (r4[2] as u128) | ((r4[3] as u128) << 64)];
            // a = e - r, if non-negative and below 2^at
            let (lo, borrow) = e[0].overflowing_sub(r128[0]);
            let (hi, b2) = e[1].overflowing_sub(r128[1] + borrow as u128);
            if b2 || (at < 256 && hi >> (at - 128) != 0) {
                continue;
            }
            let k_hi = hi | e[1];
            out.push([lo as u64, (lo >> 64) as u64, k_hi as u64, (k_hi >> 64) as u64]);
            break;
        }
        out
    }

    fn batch_matches_reference<C: InputCurve>() {
        let mut ks = random_scalars::<C>(300, 5);
        for w in [3, 8, 11, 13] {
            ks.extend(adversarial::<C>(w));
            let table = FixedBaseBatch::<C>::new(&C::generator(), w);
            let got = table.mul_many(&ks);
            for (k, p) in ks.iter().zip(&got) {
                assert_eq!(*p, C::generator().mul_bigint(k).to_affine(), "{} window {w} k {k:x?}", C::NAME);
            }
        }
    }

    #[test]
    fn batch_multiples_equal_the_double_and_add_reference() {
        batch_matches_reference::<Bls12_381>();
        batch_matches_reference::<Bls12_377>();
        batch_matches_reference::<Bn254>();
    }

    #[test]
    fn streamed_inputs_are_random_points_and_scalars() {
        for (n, format) in [(CHUNK * BLOCK_CHUNKS + 5, PointFormat::Uncompressed), (1000, PointFormat::Compressed)] {
            let (mut points, mut scalars, mut firsts) = (Vec::new(), Vec::new(), Vec::new());
            let expected = stream_inputs::<Bls12_381, ()>(
                n,
                7,
                format,
                ScalarEndian::Big,
                &mut |b| {
                    firsts.push(b.first);
                    points.extend_from_slice(b.points);
                    scalars.extend_from_slice(b.scalars);
                    Ok(())
                },
                &|_| {},
            )
            .unwrap();
            let known = random_points::<Bls12_381>(n, 7);
            let s = random_scalars::<Bls12_381>(n, 8);
            assert_eq!(points, crate::io::encode_points(&known.points, format, false));
            assert_eq!(scalars, crate::io::encode_scalars_in(&s, ScalarEndian::Big));
            let fields = random_field_elements::<Bls12_381>(n, 8);
            assert_eq!(expected, expected_msm::<Bls12_381>(&known.dlogs, &fields));
            assert_eq!(
                firsts,
                (0..n.div_ceil(CHUNK * BLOCK_CHUNKS)).map(|b| b * CHUNK * BLOCK_CHUNKS).collect::<Vec<_>>()
            );
        }
    }
}
