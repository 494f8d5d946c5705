//! Validating many points at once: the curve equation point by point, and
//! prime-order-subgroup membership by a randomized batch test that runs on
//! the MSM's own bucket engine.
//!
//! # The batch test
//!
//! Each window gives every point a uniformly random bucket k_i in
//! [0, 2^(c-1)) (a random positive digit) and accumulates the buckets
//! B_k = sum over i with k_i = k of P_i: one addition per point, exactly the
//! work of one MSM window, done by the batch-affine engine (eight lanes with
//! AVX-512 IFMA, else the portable code). For each bit t of the bucket index
//! the plane sum S_t = sum over k with bit t set of B_k (= the sum of the
//! points whose k_i has bit t set: a uniformly random subset) must be in G1,
//! decided exactly by the per-point test ([`zkmsm_curve::subgroup`]).
//! Windows are repeated until SOUNDNESS_BITS planes have been tested.
//!
//! Where the cofactor is odd (BLS12-381) each digit also gets a random
//! sign, and the sum of all buckets (S = sum of s_i P_i, the "sign plane")
//! is tested too: c planes from a window of 2^(c-1) buckets, not c - 1.
//!
//! Soundness: write each point P_i = Q_i + T_i with Q_i in G1 and T_i in the
//! cofactor part H of E(Fq) (E(Fq) = G1 x H as r does not divide |H|); the
//! projection P -> T is a homomorphism, and S_t is in G1 exactly when
//! sum_i b_ti T_i = O (b_ti the bit). If some T_j != O, fix every bit but
//! b_tj: the sum is A + b_tj T_j, and A and A + T_j are not both O, so at most
//! one value of b_tj passes plane t. The bits are independent and uniform,
//! so all planes pass with probability at most 2^-(planes) <= 2^-128, for
//! every input, whatever the cofactor's structure (the small primes of BLS12
//! cofactors, 2 and 3, would make a random-*scalar* combination fail with
//! probability 1/2 or 1/3; random *bits*, one test each, do not care).
//! With signs, the projections are sum_i b_ti s_i T_i and, for the sign
//! plane, sum_i s_i T_i. Fix every point's digit but j's: the sign plane is
//! A + s_j T_j, and A + T_j = A - T_j = O would mean 2 T_j = O, impossible
//! when the cofactor (the order of H) is odd, so at most one sign passes;
//! given the sign, at most one value of each bit, as before. At most one of
//! the 2^c digits passes, and a window counts c planes. (BLS12-377's
//! cofactor is even: a point of order 2 is its own negation, the sign tells
//! nothing, and its windows count c - 1.) It
//! needs: fresh randomness the input cannot depend on (drawn from the OS for
//! every call), and sums computed exactly for every curve point, which the
//! batch-affine engine does (empty bucket, P + P and P - P, points of order
//! 2 settled exactly; tests include them). Subgroup points always pass.
//!
//! When a batch fails, bisection with batch tests narrows the first bad
//! point down to a few thousand, which the per-point test then scans, so the
//! error names the first bad index in order.

use crate::backend::{Backend, BatchAffineBackend, WindowBuckets};
use crate::error::MsmError;
use crate::input::InputCurve;
use crate::pipeline::plan::Plan;
use crate::scheduler::GreedyScheduler;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use rayon::prelude::*;
use zkmsm_curve::{Affine, Xyzz};
use zkmsm_field::Field;

/// How much to check of the points given to a context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Validation {
    /// On the curve and in the prime-order subgroup (the default).
    Full,
    /// Only the curve equation: for points already known to be in the subgroup
    /// (e.g. an SRS checked when it was made). Off-subgroup points then give
    /// wrong results, silently.
    OnCurveOnly,
    /// Nothing: the caller has validated the points already (e.g.
    /// [`crate::input::io::read_points`] with full validation).
    AlreadyValidated,
}

/// Every input with a point outside G1 fails the batch test with
/// probability at least 1 - 2^-SOUNDNESS_BITS.
pub const SOUNDNESS_BITS: u32 = 128;

/// Points per batch: one batch's copy of the points (in the engine's form,
/// 128 MiB with IFMA) is the extra memory validation takes. Readers
/// validate this many at a time. 2^20 rather than 2^18: each window's fold
/// (2^c additions) is paid once for four times the points; at 2^20 on Zen 5
/// with IFMA the test took 500 ms where four 2^18 batches took 578 ms (c =
/// 14 both, BLS12-381, 2 threads).
pub const BATCH_POINTS: usize = 1 << 20;

/// Ranges this short are scanned point by point when looking for the bad one.
const SCAN: usize = 1 << 12;

/// Costs in units of one bucket addition in the engine: a plane-folding
/// addition (batched affine, scalar code; measured on Zen 5 with IFMA: a
/// window's fixed cost about 3.5 engine additions per 2^c, from 2^18 and
/// 2^20 batches at c = 13..17), and one per-point subgroup test (126
/// doublings and a few additions in Jacobian coordinates, about 110 engine
/// additions).
const FOLD_COST: f64 = 3.5;
const POINT_TEST_COST: f64 = 110.0;

/// Whether digits get a random sign: where the cofactor is odd, H has no
/// point of order 2 and the sign plane is sound (see the module's proof).
fn signed_digits<C: InputCurve>() -> bool {
    C::COFACTOR[0] & 1 == 1
}

/// The first point that is not on the curve, or (`Full`) not in the
/// prime-order subgroup.
pub fn validate_points<C: InputCurve>(points: &[Affine<C>], validation: Validation) -> Result<(), MsmError> {
    validate_points_with_progress(points, validation, &|_, _| {})
}

/// As [`validate_points`], calling `progress(done, total)` as batches finish
/// (the CLI draws a progress bar from it).
pub fn validate_points_with_progress<C: InputCurve>(
    points: &[Affine<C>],
    validation: Validation,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<(), MsmError> {
    if validation == Validation::AlreadyValidated {
        return Ok(());
    }
    if let Some(index) = points.par_iter().position_first(|p| !p.is_on_curve()) {
        return Err(MsmError::PointNotOnCurve { index });
    }
    if validation == Validation::OnCurveOnly {
        return Ok(());
    }
    subgroup_with_progress(points, progress)
}

/// As [`validate_points_with_progress`] for points that
/// [`crate::input::load::decode_chunk`] made, which are on the curve already (an
/// uncompressed point's equation is checked when it is decoded, a
/// compressed point's y is a checked square root of x^3 + b): only the
/// subgroup is left to check (`Full`), nothing for the other levels.
pub fn validate_decoded<C: InputCurve>(
    points: &[Affine<C>],
    validation: Validation,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<(), MsmError> {
    match validation {
        Validation::Full => subgroup_with_progress(points, progress),
        Validation::OnCurveOnly | Validation::AlreadyValidated => Ok(()),
    }
}

/// The first point (on the curve) outside the prime-order subgroup, by
/// batches of [`BATCH_POINTS`].
fn subgroup_with_progress<C: InputCurve>(
    points: &[Affine<C>],
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<(), MsmError> {
    let mut rng = ChaCha20Rng::from_entropy();
    let mut done = 0;
    for chunk in points.chunks(BATCH_POINTS) {
        if !in_subgroup(chunk, &mut rng, SOUNDNESS_BITS) {
            let index = done + first_outside(chunk, &mut rng);
            return Err(MsmError::PointNotInSubgroup { index });
        }
        done += chunk.len();
        progress(done, points.len());
    }
    Ok(())
}

/// The window for a batch of n points on `threads` threads: planes per
/// window (c - 1, or c with signed digits) against the work of a window (n
/// additions, folding 2^(c-1) buckets, a test per plane). Windows run one
/// per thread, so a last round with fewer windows than threads costs a full
/// round (9 windows on 2 threads cost 10: measured, 2^20 points, Zen 5 with
/// IFMA, BLS12-381 signed: c = 15, 9 windows 414-423 ms against c = 16, 8
/// windows 386-399). `None` when testing each point is cheaper.
fn batch_window(n: usize, bits: u32, signed: bool, threads: usize) -> Option<u32> {
    let cost = |c: u32| {
        let planes = c - 1 + signed as u32;
        let rounds = (bits.div_ceil(planes) as usize).div_ceil(threads) as f64;
        let window = n as f64 + FOLD_COST * (1u64 << c) as f64 + POINT_TEST_COST * planes as f64;
        rounds * threads as f64 * window
    };
    let best = (2..=16).min_by(|&a, &b| cost(a).total_cmp(&cost(b)))?;
    (cost(best) < POINT_TEST_COST * n as f64).then_some(best)
}

/// Whether all of `points` (on the curve) are in G1: exact per point for
/// small n, else the batch test with `bits` planes (a point outside G1
/// passes with probability at most 2^-bits).
pub fn in_subgroup<C: InputCurve>(points: &[Affine<C>], rng: &mut impl RngCore, bits: u32) -> bool {
    if C::COFACTOR == [1] {
        return true; // the group of the curve is G1 (BN254)
    }
    let signed = signed_digits::<C>();
    let Some(c) = batch_window(points.len(), bits, signed, rayon::current_num_threads()) else {
        return points.par_iter().all(|p| p.is_in_subgroup());
    };
    let plan = Plan { c, windows: bits.div_ceil(c - 1 + signed as u32), buckets: 1 << (c - 1) };
    let seeds: Vec<[u8; 32]> = (0..plan.windows)
        .map(|_| {
            let mut s = [0u8; 32];
            rng.fill_bytes(&mut s);
            s
        })
        .collect();
    let backend = BatchAffineBackend::new(GreedyScheduler::default());
    let prepared = backend.prepare(points);
    seeds.into_par_iter().all(|seed| {
        let mut rng = ChaCha20Rng::from_seed(seed);
        let digits = random_digits(points.len(), plan.buckets, signed, &mut rng);
        let buckets = backend.accumulate(&prepared, &digits, &plan).into_buckets();
        drop(digits);
        let planes = planes(buckets);
        planes.bits.iter().all(|s| s.is_in_subgroup()) && (!signed || planes.total.is_in_subgroup())
    })
}

/// n digits, each a uniformly random bucket in [1, buckets] (a power of
/// two up to 2^30), negated with probability 1/2 when `signed` (the sign
/// from bit 31, independent of the bucket's bits).
fn random_digits(n: usize, buckets: usize, signed: bool, rng: &mut impl RngCore) -> Vec<i32> {
    let mask = buckets as u32 - 1;
    let sign_bit = if signed { 1u32 << 31 } else { 0 };
    (0..n)
        .map(|_| {
            let r = rng.next_u32();
            let d = 1 + (r & mask) as i32;
            if r & sign_bit != 0 {
                -d
            } else {
                d
            }
        })
        .collect()
}

/// A window's plane sums: `bits[i]` for bit log2(len) - 1 - i of the bucket
/// index (the top bit first), and `total`, the sum of every bucket.
struct Planes<C: InputCurve> {
    bits: Vec<Affine<C>>,
    total: Affine<C>,
}

/// The plane sums S_t = sum over k with bit t set of B_k, t = 0..log2(len),
/// by folding: the upper half's sum is the top plane, then the upper half is
/// added onto the lower half (which ends as the total); the upper halves'
/// sums are then taken together, pairwise. About 2 len additions in all,
/// every one affine and batched with the others of its step (one inversion
/// per step: 2 log2(len) of them), exact for every pair of curve points
/// (identity, P + P, P + (-P), points of order 2): see [`add_pairs`].
fn planes<C: InputCurve>(b: Vec<Xyzz<C>>) -> Planes<C> {
    assert!(b.len().is_power_of_two());
    let mut cur = to_affine(&b);
    drop(b);
    let mut tops: Vec<Vec<Affine<C>>> = Vec::new();
    let mut len = cur.len();
    let mut scratch = Vec::new();
    while len > 1 {
        let half = len / 2;
        tops.push(cur[half..len].to_vec());
        let (low, high) = cur[..len].split_at_mut(half);
        add_pairs(low, high, &mut scratch);
        len = half;
    }
    // each upper half to its sum, all at once: the second half of every
    // list onto its first half until one point is left
    let (mut lhs, mut rhs) = (Vec::new(), Vec::new());
    while tops.iter().any(|v| v.len() > 1) {
        lhs.clear();
        rhs.clear();
        for v in &tops {
            let h = v.len() / 2;
            lhs.extend_from_slice(&v[..h]);
            rhs.extend_from_slice(&v[v.len() - h..]);
        }
        add_pairs(&mut lhs, &rhs, &mut scratch);
        let mut sums = lhs.iter();
        for v in &mut tops {
            let h = v.len() / 2;
            for p in &mut v[..h] {
                *p = *sums.next().expect("one sum per pair");
            }
            v.truncate(v.len() - h);
        }
    }
    Planes { bits: tops.into_iter().map(|v| v[0]).collect(), total: cur[0] }
}

/// The points in affine coordinates: those already affine (ZZ = ZZZ = 1, as
/// the engine's buckets mostly are) as they are, the rest with one inversion.
fn to_affine<C: InputCurve>(b: &[Xyzz<C>]) -> Vec<Affine<C>> {
    let one = C::Base::ONE;
    let rest: Vec<Xyzz<C>> = b.iter().filter(|p| !p.is_identity() && (p.zz != one || p.zzz != one)).copied().collect();
    let mut rest = Xyzz::batch_to_affine(&rest).into_iter();
    b.iter()
        .map(|p| {
            if p.is_identity() {
                Affine::identity()
            } else if p.zz == one && p.zzz == one {
                Affine::new_unchecked(p.x, p.y)
            } else {
                rest.next().expect("one per point not yet affine")
            }
        })
        .collect()
}

/// `a[i] <- a[i] + b[i]` for every i, affine, with one inversion for all
/// (Montgomery's trick): the chord-and-tangent rule with every special case
/// of [`Affine::add_reference`] (an identity, P + (-P) and doubling a point
/// of order 2 give the identity, P + P the tangent), so the sums are exact
/// for all curve points.
fn add_pairs<C: InputCurve>(a: &mut [Affine<C>], b: &[Affine<C>], den: &mut Vec<C::Base>) {
    assert_eq!(a.len(), b.len());
    den.clear();
    den.extend(a.iter().zip(b).map(|(p, q)| {
        if p.infinity || q.infinity {
            C::Base::ZERO
        } else if p.x != q.x {
            q.x - p.x
        } else if p.y == q.y && !p.y.is_zero() {
            p.y.double()
        } else {
            C::Base::ZERO // P + (-P): the identity
        }
    }));
    zkmsm_field::batch_inverse(den);
    for ((p, q), inv) in a.iter_mut().zip(b).zip(den.iter()) {
        if p.infinity {
            *p = *q;
            continue;
        }
        if q.infinity {
            continue;
        }
        let lambda = if p.x != q.x {
            (q.y - p.y) * *inv
        } else if p.y == q.y && !p.y.is_zero() {
            let x2 = p.x.square();
            (x2.double() + x2) * *inv
        } else {
            *p = Affine::identity();
            continue;
        };
        let x3 = lambda.square() - p.x - q.x;
        let y3 = lambda * (p.x - x3) - p.y;
        *p = Affine::new_unchecked(x3, y3);
    }
}

/// The index of the first point outside G1, given that there is one:
/// bisection with batch tests, then a per-point scan.
fn first_outside<C: InputCurve>(points: &[Affine<C>], rng: &mut impl RngCore) -> usize {
    let (mut lo, mut hi) = (0, points.len());
    while hi - lo > SCAN {
        let mid = lo + (hi - lo) / 2;
        if in_subgroup(&points[lo..mid], rng, SOUNDNESS_BITS) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let scan = |range: &[Affine<C>]| range.par_iter().position_first(|p| !p.is_in_subgroup());
    match scan(&points[lo..hi]) {
        Some(k) => lo + k,
        // a half passed that should not have (probability 2^-128): scan everything
        None => scan(points).expect("a failed batch holds a point outside G1"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::random_points;
    use zkmsm_curve::{Bls12_377, Bls12_381};
    use zkmsm_field::Field;

    /// Curve points outside G1: random ones, small-order ones, and subgroup
    /// points plus small-order ones.
    fn outsiders<C: InputCurve>(rng: &mut ChaCha20Rng) -> Vec<(Affine<C>, &'static str)> {
        let g = Affine::<C>::random_in_subgroup(rng);
        let mut out = Vec::new();
        let mut x = C::Base::from_u64(5);
        while out.len() < 3 {
            if let Some(p) = Affine::<C>::from_x(x, false) {
                if !p.is_in_subgroup() {
                    out.push((p, "random curve point"));
                }
            }
            x += C::Base::ONE;
        }
        // order 3: x = 0
        let t3 = Affine::<C>::from_x(C::Base::ZERO, false).unwrap();
        out.push((t3, "order 3"));
        out.push((g.to_xyzz().add(&t3.to_xyzz()).to_affine(), "G1 + order 3"));
        if C::NAME == "bls12-377" {
            // order 2: y = 0, x = -1
            let t2 = Affine::<C>::new_unchecked(-C::Base::ONE, C::Base::ZERO);
            assert!(t2.is_on_curve());
            out.push((t2, "order 2"));
            out.push((g.to_xyzz().add(&t2.to_xyzz()).to_affine(), "G1 + order 2"));
        }
        out
    }

    fn check<C: InputCurve>(seed: u64) {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        for n in [1usize, 200, 600, 5000] {
            let mut points = random_points::<C>(n, seed).points;
            if n > 10 {
                points[3] = Affine::identity();
                points[4] = points[5];
                points[6] = points[5].neg();
            }
            assert!(validate_points(&points, Validation::Full).is_ok(), "n = {n}");
            assert!(in_subgroup(&points, &mut rng, SOUNDNESS_BITS));
            for (bad, what) in outsiders::<C>(&mut rng) {
                for at in [0, n / 2, n - 1] {
                    let mut v = points.clone();
                    v[at] = bad;
                    let got = validate_points(&v, Validation::Full);
                    assert!(
                        matches!(got, Err(MsmError::PointNotInSubgroup { index }) if index == at),
                        "{} n = {n}: {what} at {at}: {got:?}",
                        C::NAME
                    );
                    assert!(validate_points(&v, Validation::OnCurveOnly).is_ok());
                }
            }
        }
        // two bad points that cancel in any plane where both bits agree
        let mut v = random_points::<C>(3000, seed + 1).points;
        let (t, _) = outsiders::<C>(&mut rng)[0];
        v[100] = t;
        v[2000] = t.neg();
        assert!(matches!(validate_points(&v, Validation::Full), Err(MsmError::PointNotInSubgroup { index: 100 })));
        // off the curve comes first
        v[50].y += C::Base::ONE;
        assert!(matches!(validate_points(&v, Validation::Full), Err(MsmError::PointNotOnCurve { index: 50 })));
    }

    #[test]
    fn batch_validation_finds_the_first_bad_point_bls12_377() {
        check::<Bls12_377>(1);
    }

    #[test]
    fn batch_validation_finds_the_first_bad_point_bls12_381() {
        check::<Bls12_381>(2);
    }

    /// Cofactor 1 (BN254): every point on the curve is in G1, so full
    /// validation is the curve equation; the first point off it is named.
    #[test]
    fn bn254_validation_is_the_curve_equation() {
        use zkmsm_curve::Bn254;
        let mut v = random_points::<Bn254>(3000, 9).points;
        v[7] = Affine::identity();
        assert!(validate_points(&v, Validation::Full).is_ok());
        assert!(in_subgroup(&v, &mut ChaCha20Rng::seed_from_u64(1), SOUNDNESS_BITS));
        v[1234].y += <Bn254 as zkmsm_curve::SwCurve>::Base::ONE;
        v[2000].x += <Bn254 as zkmsm_curve::SwCurve>::Base::ONE;
        assert!(matches!(validate_points(&v, Validation::Full), Err(MsmError::PointNotOnCurve { index: 1234 })));
    }

    /// Batches big enough for several bisection steps (SCAN is 4096): one bad
    /// point anywhere is named by its index, and of several the first.
    #[test]
    fn bisection_names_the_bad_point_anywhere_in_a_large_batch() {
        let mut rng = ChaCha20Rng::seed_from_u64(11);
        let n = 20_000;
        let points = random_points::<Bls12_381>(n, 12).points;
        let bad = outsiders::<Bls12_381>(&mut rng);
        for (k, at) in [0usize, 4095, 4096, 9_999, 10_000, 16_666, n - 1].into_iter().enumerate() {
            let mut v = points.clone();
            v[at] = bad[k % bad.len()].0;
            let got = validate_points(&v, Validation::Full);
            assert!(matches!(got, Err(MsmError::PointNotInSubgroup { index }) if index == at), "at {at}: {got:?}");
        }
        let mut v = points;
        for at in [15_000, 8_191, 12_500] {
            v[at] = bad[0].0;
        }
        assert!(matches!(validate_points(&v, Validation::Full), Err(MsmError::PointNotInSubgroup { index: 8_191 })));
    }

    /// The per-plane bound is what the proof says: with one plane, a batch
    /// holding one point of order 2 or 3 passes about half the time (the
    /// point's bit is 0), never more than the bound allows.
    #[test]
    fn one_plane_passes_a_bad_batch_about_half_the_time() {
        let mut rng = ChaCha20Rng::seed_from_u64(9);
        let mut points = random_points::<Bls12_381>(700, 3).points;
        points[10] = outsiders::<Bls12_381>(&mut rng)[3].0; // order 3
                                                            // run the window directly with c = 2 (one bucket bit)
        let backend = BatchAffineBackend::new(GreedyScheduler::default());
        let prepared = backend.prepare(&points);
        let plan = Plan { c: 2, windows: 1, buckets: 2 };
        let trials = 200;
        let passed = (0..trials)
            .filter(|_| {
                let digits: Vec<i32> = (0..points.len()).map(|_| 1 + (rng.next_u32() & 1) as i32).collect();
                let b = backend.accumulate(&prepared, &digits, &plan).into_buckets();
                planes(b).bits.iter().all(|s| s.is_in_subgroup())
            })
            .count();
        // binomial(200, 1/2): 100 +- 7; 60..140 is more than 5 sigma either side
        assert!((60..=140).contains(&passed), "{passed} of {trials}");
    }

    /// The sign plane is worth a bit: T and -T (order 3) in one batch cancel
    /// in the total and in the bit plane whenever their bits agree, so the
    /// unsigned window passes half the time; with random signs the total
    /// also needs equal signs, and the window passes a quarter of the time.
    #[test]
    fn the_sign_plane_halves_the_pass_rate() {
        assert!(signed_digits::<Bls12_381>(), "odd cofactor");
        assert!(!signed_digits::<Bls12_377>(), "even cofactor: order-2 points are their own negation");
        let mut rng = ChaCha20Rng::seed_from_u64(19);
        let mut points = random_points::<Bls12_381>(700, 5).points;
        let t = outsiders::<Bls12_381>(&mut rng)[3].0; // order 3
        points[10] = t;
        points[20] = t.neg();
        let backend = BatchAffineBackend::new(GreedyScheduler::default());
        let prepared = backend.prepare(&points);
        let plan = Plan { c: 2, windows: 1, buckets: 2 };
        let trials = 400;
        let pass_rate = |signed: bool, rng: &mut ChaCha20Rng| {
            (0..trials)
                .filter(|_| {
                    let digits = random_digits(points.len(), 2, signed, rng);
                    let p = planes(backend.accumulate(&prepared, &digits, &plan).into_buckets());
                    let pass = p.bits.iter().chain([&p.total]).all(|s| s.is_in_subgroup());
                    pass
                })
                .count()
        };
        // binomial(400, 1/2): 200 +- 10; binomial(400, 1/4): 100 +- 8.7
        let unsigned = pass_rate(false, &mut rng);
        assert!((150..=250).contains(&unsigned), "unsigned: {unsigned} of {trials}");
        let signed = pass_rate(true, &mut rng);
        assert!((60..=140).contains(&signed), "signed: {signed} of {trials}");
    }

    /// Digits cover [1, buckets] and, when signed, both signs, about evenly.
    #[test]
    fn random_digits_cover_every_bucket_and_sign() {
        let mut rng = ChaCha20Rng::seed_from_u64(7);
        for signed in [false, true] {
            let d = random_digits(64_000, 16, signed, &mut rng);
            let mut count = [[0usize; 16]; 2];
            for &x in &d {
                assert!((1..=16).contains(&x.unsigned_abs()), "{x}");
                count[(x < 0) as usize][x.unsigned_abs() as usize - 1] += 1;
            }
            for (sign, row) in count.iter().enumerate() {
                for &k in row {
                    // 4000 (or 2000 per sign) expected per cell
                    let want = if signed {
                        2000
                    } else if sign == 0 {
                        4000
                    } else {
                        0
                    };
                    assert!(k.abs_diff(want) <= want / 5, "signed {signed}: {count:?}");
                }
            }
        }
    }

    /// The window model: with signs a window counts c planes (2^20 points,
    /// 128 bits: 8 windows of c = 16 instead of 10 of c = 14), and windows
    /// are counted by rounds of one per thread (unsigned, 9 windows of
    /// c = 16 on 2 threads cost as much as 10: c = 14, 10 windows, stays).
    #[test]
    fn batch_window_choice() {
        assert_eq!(batch_window(1 << 20, SOUNDNESS_BITS, false, 2), Some(14));
        assert_eq!(batch_window(1 << 20, SOUNDNESS_BITS, true, 2), Some(16));
        assert_eq!(batch_window(1 << 20, SOUNDNESS_BITS, true, 1), Some(16));
        assert_eq!(batch_window(10, SOUNDNESS_BITS, true, 2), None);
        // rounds: 8 windows of c = 16 fill 8 threads in one round; with 9
        // threads, 9 windows of c = 15 (cheaper each) also take one round
        assert_eq!(batch_window(1 << 20, SOUNDNESS_BITS, true, 8), Some(16));
        assert_eq!(batch_window(1 << 20, SOUNDNESS_BITS, true, 9), Some(15));
    }

    /// The batched affine additions against the reference rule on every
    /// kind of pair: random, identity on either side or both, P + P, P + (-P),
    /// points of order 2 and 3 (doubled, and added to their negation), in one
    /// batch so that the special cases sit between ordinary ones.
    fn pairs_match_reference<C: InputCurve>(seed: u64) {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let pts = random_points::<C>(8, seed).points;
        let mut special: Vec<Affine<C>> = outsiders::<C>(&mut rng).into_iter().map(|(p, _)| p).collect();
        special.extend(&pts[..3]);
        let o = Affine::<C>::identity();
        let mut a = vec![pts[0], o, pts[1], o];
        let mut b = vec![pts[4], pts[2], o, o];
        for p in &special {
            a.extend([*p, *p, *p, pts[5]]);
            b.extend([*p, p.neg(), pts[6], *p]);
        }
        let want: Vec<Affine<C>> = a.iter().zip(&b).map(|(p, q)| p.add_reference(q)).collect();
        let mut got = a.clone();
        add_pairs(&mut got, &b, &mut Vec::new());
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g.is_identity(), w.is_identity(), "{} pair {i}", C::NAME);
            if !w.is_identity() {
                assert_eq!(g, w, "{} pair {i}", C::NAME);
            }
        }
    }

    #[test]
    fn batched_affine_additions_are_exact() {
        pairs_match_reference::<Bls12_377>(21);
        pairs_match_reference::<Bls12_381>(22);
    }

    /// Planes of buckets with empty ones, equal ones, negations and small
    /// order points (non-affine XYZZ buckets too) against the plain sums.
    fn planes_with_special_buckets<C: InputCurve>(seed: u64) {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let pts = random_points::<C>(64, seed).points;
        let bad: Vec<Affine<C>> = outsiders::<C>(&mut rng).into_iter().map(|(p, _)| p).collect();
        let mut buckets: Vec<Xyzz<C>> = pts.iter().map(Affine::to_xyzz).collect();
        buckets[1] = Xyzz::identity();
        buckets[3] = buckets[2]; // planes where 2 and 3 meet double them
        buckets[5] = pts[4].neg().to_xyzz(); // cancels bucket 4 where both are summed
        buckets[7] = pts[6].to_xyzz().add(&pts[9].to_xyzz()); // not affine
        for (k, p) in bad.iter().enumerate() {
            buckets[16 + 2 * k] = p.to_xyzz();
            buckets[17 + 2 * k] = p.to_xyzz(); // order 2: P + P = O
        }
        buckets[40..].fill(Xyzz::identity());
        let got = planes(buckets.clone());
        assert_eq!(got.bits.len(), 6);
        for (i, s) in got.bits.iter().enumerate() {
            let t = 5 - i;
            let want = (0..64).filter(|k| k >> t & 1 == 1).fold(Xyzz::identity(), |a, k| a.add(&buckets[k]));
            assert_eq!(s.to_xyzz(), want, "{} bit {t}", C::NAME);
        }
        let total = buckets.iter().fold(Xyzz::identity(), |a, b| a.add(b));
        assert_eq!(got.total.to_xyzz(), total, "{} total", C::NAME);
    }

    #[test]
    fn planes_of_special_buckets() {
        planes_with_special_buckets::<Bls12_377>(23);
        planes_with_special_buckets::<Bls12_381>(24);
    }

    #[test]
    fn planes_are_the_bit_subset_sums() {
        let pts = random_points::<Bls12_377>(16, 4).points;
        let buckets: Vec<Xyzz<Bls12_377>> = pts.iter().map(Affine::to_xyzz).collect();
        let got = planes(buckets);
        assert_eq!(got.bits.len(), 4);
        for (i, s) in got.bits.iter().enumerate() {
            let t = 3 - i; // the top bit comes first
            let want = (0..16).filter(|k| k >> t & 1 == 1).fold(Xyzz::identity(), |a, k| a.add(&pts[k].to_xyzz()));
            assert_eq!(s.to_xyzz(), want, "bit {t}");
        }
        let total = pts.iter().fold(Xyzz::identity(), |a, p| a.add(&p.to_xyzz()));
        assert_eq!(got.total.to_xyzz(), total, "total");
    }
}
