//! End to end through the batched-affine core as synthesized (DP 2: the
//! batched-affine adder, the bucket lock table, a block-RAM pending queue of
//! 1,024 with blocked heads requeued, CMAX 16), built for BLS12-381, for
//! BLS12-377 and for BN254 (at NB = 256) with two cores on one point
//! stream: every MSM equal to the
//! CPU engine's result (and, for the small cases, to the bucket-free
//! reference), one addition per non-zero digit, and the core's
//! accumulation cycles equal to the cycle model's (scheduler `core` with
//! requeueing). The adder's latency is thousands of cycles, so every
//! operation on a bucket waits for the previous one on it to come back:
//! all scalars equal chains every addition of a window on one bucket.
//! A build without the BLS12-377 model (`ZKMSM_RTL_MODELS`, as
//! `bash scripts/test.sh` builds) checks that it is refused in one line
//! instead.

use super::end_to_end::{check, check_with, order_minus, Case};
use zkmsm::gen::{random_points, random_scalars};
use zkmsm::{Affine, Bls12_377, Bls12_381, Bn254, EngineCurve, ScalarLimbs};
use zkmsm_rtl::backend::{AffineCore, AffineModel, Aggregation, Device};
use zkmsm_rtl::sim::Kind;

/// Whether the model is in this build; if not, that asking for it is an
/// error naming the variable that left it out.
fn built(kind: Kind) -> bool {
    if kind.built() {
        return true;
    }
    let err = Device::shared(kind).err().expect("a model left out of the build is refused");
    assert!(err.contains("ZKMSM_RTL_MODELS") && err.contains(kind.model_name()) && !err.contains('\n'), "{err}");
    println!("{} model not built (ZKMSM_RTL_MODELS): its refusal checked instead", kind.model_name());
    false
}

fn aff377_built() -> bool {
    built(Kind::Aff377)
}

/// The adversarial inputs, on any curve.
fn edge_cases<C: zkmsm::InputCurve>(seed: u64) -> Vec<Case<C>> {
    let pts = random_points::<C>(300, seed).points;
    let rnd = random_scalars::<C>(300, seed + 1);
    let p = pts[0];
    let r1 = order_minus::<C>(1);
    vec![
        ("n = 0", vec![], vec![]),
        ("n = 1", vec![p], vec![rnd[0]]),
        ("n = 1, scalar r-1", vec![p], vec![r1]),
        ("n = 1, point at infinity", vec![Affine::identity()], vec![rnd[0]]),
        ("n = 3", pts[..3].to_vec(), rnd[..3].to_vec()),
        ("n = 77", pts[..77].to_vec(), rnd[..77].to_vec()),
        ("all zero scalars", pts[..100].to_vec(), vec![[0; 4]; 100]),
        // every addition of a window on one bucket, one adder latency apart
        ("all scalars equal", pts[..4].to_vec(), vec![rnd[5]; 4]),
        ("repeated point", vec![p; 90], rnd[..90].to_vec()),
        ("repeated point, equal scalars", vec![p; 3], vec![rnd[1]; 3]),
        // pairs (Q, Q) with one scalar: the second addition of a pair finds
        // its bucket holding Q (a doubling), and the pairs' second additions
        // come back from the pending queue together, in one batch
        ("doublings in a batch", pts.iter().take(32).flat_map(|q| [*q, *q]).collect(), {
            (0..64).map(|i| rnd[i / 2]).collect()
        }),
        // (Q, -Q) with one scalar: cancellations to infinity in a batch
        ("P and -P, same scalar", pts.iter().take(24).flat_map(|q| [*q, q.neg()]).collect(), {
            (0..48).map(|i| rnd[i / 2]).collect()
        }),
        ("P and -P, random scalars", pts.iter().take(40).flat_map(|q| [*q, q.neg()]).collect(), rnd[..80].to_vec()),
        (
            "points at infinity",
            (0..90).map(|i| if i % 3 == 0 { Affine::identity() } else { pts[i] }).collect(),
            rnd[..90].to_vec(),
        ),
        ("small scalars", pts[..257].to_vec(), (0..257u64).map(|i| [i, 0, 0, 0]).collect()),
    ]
}

/// The cases named in `only` (all when empty) on core `AffineCore<C>`.
fn run_edge_cases<C: AffineModel + EngineCurve>(seed: u64, only: &[&str]) {
    let mut ran = 0;
    for (name, points, scalars) in edge_cases::<C>(seed) {
        if only.is_empty() || only.contains(&name) {
            check::<AffineCore<C>>(name, points, &scalars, None, 2);
            ran += 1;
        }
    }
    assert_eq!(ran, if only.is_empty() { edge_cases::<C>(seed).len() } else { only.len() });
}

#[test]
fn bls12_381_edge_cases_equal_the_cpu_engine() {
    run_edge_cases::<Bls12_381>(61, &[]);
}

/// The same core on BLS12-377 (another modulus by parameter, no code
/// change): the cases that reach the adder's special cases.
#[test]
fn bls12_377_edge_cases_equal_the_cpu_engine() {
    if !aff377_built() {
        return;
    }
    let only = ["n = 1", "n = 77", "doublings in a batch", "P and -P, same scalar", "points at infinity"];
    run_edge_cases::<Bls12_377>(71, &only);
}

/// The same core at NB = 256 on BN254 (the modulus and the width by
/// parameter): every adversarial case.
#[test]
fn bn254_edge_cases_equal_the_cpu_engine() {
    if built(Kind::AffBn254) {
        run_edge_cases::<Bn254>(111, &[]);
    }
}

/// N = 2^10 uniform on BN254 on both cores.
#[test]
fn bn254_uniform_1024_on_two_cores() {
    if !built(Kind::AffBn254) {
        return;
    }
    let n = 1 << 10;
    let points = random_points::<Bn254>(n, 121).points;
    let scalars: Vec<ScalarLimbs> = random_scalars::<Bn254>(n, 122);
    let (ops, two, windows) = check::<AffineCore<Bn254>>("uniform 2^10", points, &scalars, None, 2);
    println!(
        "BN254 batched affine, uniform 2^10: {windows} windows, {two} cycles on two cores, {:.4} additions/cycle",
        ops as f64 / two as f64
    );
}

/// N = 2^10 uniform on BLS12-381 on both cores (one core against two is
/// checked on the twisted Edwards core, which shares the scheduler).
#[test]
fn bls12_381_uniform_1024_on_two_cores() {
    let n = 1 << 10;
    let points = random_points::<Bls12_381>(n, 81).points;
    let scalars: Vec<ScalarLimbs> = random_scalars::<Bls12_381>(n, 82);
    let (ops, two, windows) = check::<AffineCore<Bls12_381>>("uniform 2^10", points, &scalars, None, 2);
    println!(
        "BLS12-381 batched affine, uniform 2^10: {windows} windows, {two} cycles on two cores, {:.4} additions/cycle",
        ops as f64 / two as f64
    );
}

/// A non-power-of-two size at a forced small window: many windows (an odd
/// number: one core idle in the last pass), the narrow last window spread
/// over its buckets.
#[test]
fn bls12_381_forced_small_window() {
    let points = random_points::<Bls12_381>(101, 91).points;
    let scalars = random_scalars::<Bls12_381>(101, 92);
    let (_, _, windows) = check::<AffineCore<Bls12_381>>("n = 101, c = 9", points, &scalars, Some(9), 2);
    assert_eq!(windows % 2, 1, "an idle core in the last pass");
}

/// The build's registers: the adder, the lock table, requeueing, the
/// latency of the adder on each field.
#[test]
fn affine_builds_report_their_configuration() {
    let defines = env!("ZKMSM_RTL_AFF_DEFINES");
    if !defines.is_empty() {
        let p = super::end_to_end::device::<AffineCore<Bls12_381>>().params();
        println!("batched-affine models built with `{defines}`: PD {}, hazard window {} (default-configuration checks skipped)", p.pd, p.hz);
        assert_eq!((p.cmax, p.brl, p.requeue), (16, 2, true));
        return;
    }
    let mut builds = vec![(super::end_to_end::device::<AffineCore<Bls12_381>>(), 2671)];
    if aff377_built() {
        builds.push((super::end_to_end::device::<AffineCore<Bls12_377>>(), 2692));
    }
    if built(Kind::AffBn254) {
        builds.push((super::end_to_end::device::<AffineCore<Bn254>>(), 1932));
    }
    for (d, want_lat) in builds {
        let p = d.params();
        assert_eq!((p.cmax, p.pd, p.brl, p.requeue), (16, 1024, 2, true));
        assert_eq!(p.hz, p.brl + want_lat, "hazard window = read latency + zk_dp_aff_lat");
        assert_eq!(d.ncores(), 2);
    }
    // the projection's hazard windows (zkmsm-sim timeline) are these builds'
    use zkmsm_sim::timeline::project::{AFFINE_377_HZ, AFFINE_381_HZ};
    let hz381 = super::end_to_end::device::<AffineCore<Bls12_381>>().params().hz;
    assert_eq!(hz381, AFFINE_381_HZ, "timeline's AFFINE_381_HZ vs the RTL's LATENCY register");
    if aff377_built() {
        let hz377 = super::end_to_end::device::<AffineCore<Bls12_377>>().params().hz;
        assert_eq!(hz377, AFFINE_377_HZ, "timeline's AFFINE_377_HZ vs the RTL's LATENCY register");
    }
}

/// Bucket aggregation on the device, through the batched-affine adder
/// (bucket + bucket: equal buckets double, empty ones are skipped or
/// taken over): repeated points, P and -P and equal scalars so that the
/// program meets equal, opposite and empty buckets; the result equal to
/// the CPU engine's, the cycles (accumulation, and START to the last
/// partial sum out) equal to the model's. Groups of 4 (chain and tree) on
/// BLS12-381, of 2 on the other curves (a window's aggregation is a few
/// hazard windows of 2,000-2,700 cycles per step, slow to simulate).
#[test]
fn device_aggregation_equals_the_cpu_engine() {
    fn case<C: zkmsm::InputCurve>(seed: u64) -> (Vec<Affine<C>>, Vec<ScalarLimbs>) {
        let mut points = random_points::<C>(77, seed).points;
        let mut scalars = random_scalars::<C>(77, seed + 1);
        for i in 0..20 {
            points[40 + i] = points[i % 5]; // repeated points
            scalars[40 + i] = scalars[i % 3]; // equal scalars: equal buckets
        }
        points[70] = points[0].neg(); // P and -P under one scalar
        scalars[70] = scalars[0];
        (points, scalars)
    }
    let (p, s) = case::<Bls12_381>(131);
    check_with::<AffineCore<Bls12_381>>("device aggregation, m = 4", p, &s, None, 2, Aggregation::Device(Some(2)));
    if built(Kind::AffBn254) {
        let (p, s) = case::<Bn254>(141);
        check_with::<AffineCore<Bn254>>("device aggregation, m = 2", p, &s, None, 2, Aggregation::Device(Some(1)));
    }
    if aff377_built() {
        let (p, s) = case::<Bls12_377>(151);
        check_with::<AffineCore<Bls12_377>>("device aggregation, m = 2", p, &s, None, 2, Aggregation::Device(Some(1)));
    }
}
