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
//! Soundness: write each point P_i = Q_i + T_i with Q_i in G1 and T_i in the
//! cofactor part H of E(Fq) (E(Fq) = G1 x H as r does not divide |H|); the
//! projection P -> T is a homomorphism, and S_t is in G1 exactly when
//! sum_i b_ti T_i = O (b_ti the bit). If some T_j != O, fix every bit but
//! b_tj: the sum is A + b_tj T_j, and A and A + T_j are not both O, so at most
//! one value of b_tj passes plane t. The bits are independent and uniform,
//! so all planes pass with probability at most 2^-(planes) <= 2^-128, for
//! every input, whatever the cofactor's structure (the small primes of BLS12
//! cofactors, 2 and 3, would make a random-*scalar* combination fail with
//! probability 1/2 or 1/3; random *bits*, one test each, do not care). It
//! needs: fresh randomness the input cannot depend on (drawn from the OS for
//! every call), and sums computed exactly for every curve point, which the
//! batch-affine engine does (empty bucket, P + P and P - P, points of order
//! 2 settled exactly; tests include them). Subgroup points always pass.
//!
//! When a batch fails, bisection with batch tests narrows the first bad
//! point down to a few thousand, which the per-point test then scans, so the
//! error names the first bad index in order.

use crate::backend::{Backend, BatchAffineBackend, WindowBuckets};
use crate::load::Validation;
use crate::scheduler::GreedyScheduler;
use crate::{MsmError, Plan};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use rayon::prelude::*;
use zkmsm_curve::{Affine, MsmCurve, Xyzz};

/// Every input with a point outside G1 fails the batch test with
/// probability at least 1 - 2^-SOUNDNESS_BITS.
pub const SOUNDNESS_BITS: u32 = 128;

/// Points per batch: one batch's copy of the points (in the engine's form)
/// is the extra memory validation takes. Readers validate this many at a time.
pub const BATCH_POINTS: usize = 1 << 18;

/// Ranges this short are scanned point by point when looking for the bad one.
const SCAN: usize = 1 << 12;

/// Costs in units of one bucket addition in the engine: a plane-folding
/// XYZZ addition, and one per-point subgroup test (126 doublings and a few
/// additions in Jacobian coordinates, about 110 engine additions).
const FOLD_COST: f64 = 2.0;
const POINT_TEST_COST: f64 = 110.0;

/// The first point that is not on the curve, or (`Full`) not in the
/// prime-order subgroup.
pub fn validate_points<C: MsmCurve>(points: &[Affine<C>], validation: Validation) -> Result<(), MsmError> {
    validate_points_with_progress(points, validation, &|_, _| {})
}

/// As [`validate_points`], calling `progress(done, total)` as batches finish
/// (the CLI draws a progress bar from it).
pub fn validate_points_with_progress<C: MsmCurve>(
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

/// The window for a batch of n points: planes per window (c - 1) against the
/// work of a window (n additions, folding 2^(c-1) buckets, c - 1 plane
/// tests); `None` when testing each point is cheaper.
fn batch_window(n: usize, bits: u32) -> Option<u32> {
    let cost = |c: u32| {
        let windows = bits.div_ceil(c - 1) as f64;
        windows * (n as f64 + FOLD_COST * (1u64 << c) as f64 + POINT_TEST_COST * (c - 1) as f64)
    };
    let best = (2..=16).min_by(|&a, &b| cost(a).total_cmp(&cost(b)))?;
    (cost(best) < POINT_TEST_COST * n as f64).then_some(best)
}

/// Whether all of `points` (on the curve) are in G1: exact per point for
/// small n, else the batch test with `bits` planes (a point outside G1
/// passes with probability at most 2^-bits).
pub fn in_subgroup<C: MsmCurve>(points: &[Affine<C>], rng: &mut impl RngCore, bits: u32) -> bool {
    let Some(c) = batch_window(points.len(), bits) else {
        return points.par_iter().all(|p| p.is_in_subgroup());
    };
    let plan = Plan { c, windows: bits.div_ceil(c - 1), buckets: 1 << (c - 1) };
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
        let mask = plan.buckets as u32 - 1;
        let digits: Vec<i32> = (0..points.len()).map(|_| 1 + (rng.next_u32() & mask) as i32).collect();
        let buckets = backend.accumulate(&prepared, &digits, &plan).into_buckets();
        drop(digits);
        planes(buckets).iter().all(|s| s.is_in_subgroup())
    })
}

/// The plane sums S_t = sum over k with bit t set of B_k, t = 0..log2(len),
/// by folding: the upper half's sum is the top plane, then the upper half is
/// added onto the lower half (about 2 len additions in all).
fn planes<C: MsmCurve>(mut b: Vec<Xyzz<C>>) -> Vec<Affine<C>> {
    assert!(b.len().is_power_of_two());
    let mut sums = Vec::new();
    let mut len = b.len();
    while len > 1 {
        let half = len / 2;
        let (low, high) = b[..len].split_at_mut(half);
        let mut top = Xyzz::identity();
        for (l, h) in low.iter_mut().zip(high.iter()) {
            top = top.add(h);
            *l = l.add(h);
        }
        sums.push(top);
        len = half;
    }
    Xyzz::batch_to_affine(&sums)
}

/// The index of the first point outside G1, given that there is one:
/// bisection with batch tests, then a per-point scan.
fn first_outside<C: MsmCurve>(points: &[Affine<C>], rng: &mut impl RngCore) -> usize {
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
    use zkmsm_field::PrimeField;

    /// Curve points outside G1: random ones, small-order ones, and subgroup
    /// points plus small-order ones.
    fn outsiders<C: MsmCurve>(rng: &mut ChaCha20Rng) -> Vec<(Affine<C>, &'static str)> {
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

    fn check<C: MsmCurve>(seed: u64) {
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
                planes(b).iter().all(|s| s.is_in_subgroup())
            })
            .count();
        // binomial(200, 1/2): 100 +- 7; 60..140 is more than 5 sigma either side
        assert!((60..=140).contains(&passed), "{passed} of {trials}");
    }

    #[test]
    fn planes_are_the_bit_subset_sums() {
        let pts = random_points::<Bls12_377>(16, 4).points;
        let buckets: Vec<Xyzz<Bls12_377>> = pts.iter().map(Affine::to_xyzz).collect();
        let got = planes(buckets);
        assert_eq!(got.len(), 4);
        for (i, s) in got.iter().enumerate() {
            let t = 3 - i; // the top bit comes first
            let want = (0..16).filter(|k| k >> t & 1 == 1).fold(Xyzz::identity(), |a, k| a.add(&pts[k].to_xyzz()));
            assert_eq!(s.to_xyzz(), want, "bit {t}");
        }
    }
}
