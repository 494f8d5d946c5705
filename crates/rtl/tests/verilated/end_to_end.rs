//! End to end through the Verilated core as synthesized (twisted Edwards
//! adder, CMAX 16, PD 16): BLS12-377 MSMs whose bucket accumulation runs on
//! the simulated RTL, each equal to the CPU engine's result (XYZZ backend,
//! itself checked against arkworks in crates/msm/tests) and, for the small
//! cases, to the bucket-free reference, and the core's accumulation cycles
//! equal to the cycle model's. The model is built with two cores on one
//! point stream: the MSMs run on both (window w on core w mod 2, an odd
//! number of windows leaves one core idle in the last pass), the 2^10 one
//! also on one core. Needs the `verilated` feature.

use zkmsm::gen::{random_points, random_scalars};
use zkmsm::reference::naive_msm;
use zkmsm::{
    Affine, BackendChoice, Bls12_377, EngineCurve, MsmBuilder, MsmCurve, MsmEngine, Plan, ScalarLimbs, SwCurve,
    Validation,
};
use zkmsm_field::PrimeField;
use zkmsm_rtl::backend::{Aggregation, CoreDatapath, Device, Edwards377, RtlBackend, RtlEngine};
use zkmsm_rtl::machine::spread_bits;
use zkmsm_rtl::sim::{Kind, Opts, Sim};

type C = Bls12_377;
type Te = Edwards377;

/// A named case: points and their scalars.
pub type Case<C> = (&'static str, Vec<Affine<C>>, Vec<ScalarLimbs>);

pub fn order_minus<C: SwCurve>(k: u64) -> ScalarLimbs {
    let mut s = [0u64; 4];
    s[..C::ORDER.len()].copy_from_slice(C::ORDER);
    let (v, mut borrow) = s[0].overflowing_sub(k);
    s[0] = v;
    for l in s.iter_mut().skip(1) {
        if !borrow {
            break;
        }
        (*l, borrow) = l.overflowing_sub(1);
    }
    s
}

pub fn cpu<C: EngineCurve>(points: &[Affine<C>], scalars: &[ScalarLimbs]) -> Affine<C> {
    let e = MsmBuilder::new().backend(BackendChoice::Xyzz).build(points).unwrap();
    e.msm_report(scalars).unwrap().result.to_affine()
}

/// The device of core `D` (one per process and build).
pub fn device<D: CoreDatapath>() -> std::sync::Arc<Device> {
    Device::shared(D::KIND).unwrap()
}

/// One MSM through core `D` on `cores` cores, all windows in one stream;
/// checks the result, that the cores did one addition per non-zero digit
/// and took exactly the model's cycles. Returns (additions, RTL
/// accumulation cycles, windows).
pub fn check<D: CoreDatapath>(
    name: &str,
    points: Vec<Affine<D::Curve>>,
    scalars: &[ScalarLimbs],
    window: Option<u32>,
    cores: u32,
) -> (u64, u64, u32)
where
    D::Curve: EngineCurve,
{
    check_with::<D>(name, points, scalars, window, cores, Aggregation::Host)
}

/// [`check`] with bucket aggregation on the host or the device; with the
/// device's, also the cycles from START to the last partial sum out equal
/// the model's, and only two partial sums a group came back.
pub fn check_with<D: CoreDatapath>(
    name: &str,
    points: Vec<Affine<D::Curve>>,
    scalars: &[ScalarLimbs],
    window: Option<u32>,
    cores: u32,
    aggregation: Aggregation,
) -> (u64, u64, u32)
where
    D::Curve: EngineCurve,
{
    let want = cpu(&points, scalars);
    if points.len() <= 300 {
        assert_eq!(naive_msm(&points, scalars), want, "{name}: the CPU engine and the reference differ");
    }
    let mut e = RtlEngine::<D>::new(points, Validation::Full, device::<D>()).unwrap();
    e.set_window(window);
    e.set_cores(cores).unwrap();
    e.set_aggregation(aggregation).unwrap();
    let out = e.msm_report(scalars).unwrap();
    assert_eq!(out.result.to_affine(), want, "{name}: RTL core vs CPU engine");
    let Some(r) = e.last_report() else {
        assert!(scalars.is_empty(), "{name}: no report");
        return (0, 0, 0);
    };
    assert_eq!(r.stats.issued, r.additions, "{name}: one addition per non-zero digit");
    assert_eq!(r.stats.status & 0xf0, 0, "{name}: the core flagged an input error (STATUS bits 4-7)");
    assert_eq!(r.cores, cores);
    assert_eq!(r.stats.acc_cycles, r.model_cycles, "{name}: RTL vs model accumulation cycles");
    if let Aggregation::Device(lm) = aggregation {
        if let Some(lm) = lm {
            assert_eq!(r.agg_log_m, lm, "{name}: the group asked for");
        }
        assert!(r.agg_log_m >= 1);
        assert_eq!(r.stats.cycles, r.model_total_cycles, "{name}: RTL vs model cycles, START to the last sum out");
        // two sums a group of 2^lm (one for groups of one); the spread last
        // window's groups are its copies of 2^tb
        let nb = 1u64 << (r.c - 1);
        let full = nb * r.windows as u64;
        let bits = <<D::Curve as MsmCurve>::Scalar as PrimeField>::NUM_BITS;
        let top = spread_bits(&Plan::with_window(r.c, bits), bits);
        let want: u64 = (0..r.windows)
            .map(|w| {
                let lm = if w + 1 == r.windows { top.unwrap_or(r.agg_log_m) } else { r.agg_log_m }.min(r.c - 1);
                (nb >> lm) * if lm == 0 { 1 } else { 2 }
            })
            .sum();
        assert_eq!(r.sent, want, "{name}: partial sums sent");
        println!(
            "{name}: device aggregation, groups of 2^{}: {} of {full} buckets sent, {} cycles START to done (model {})",
            r.agg_log_m, r.sent, r.stats.cycles, r.model_total_cycles
        );
    }
    println!(
        "{} {} {name}: n {} c {} windows {} cores {cores}: {} additions, {} RTL cycles, {} model cycles, {} sim cycles in {:.1} s",
        <D::Curve as SwCurve>::NAME,
        D::ADDER,
        scalars.len(),
        r.c,
        r.windows,
        r.additions,
        r.stats.acc_cycles,
        r.model_cycles,
        r.stats.sim_cycles,
        r.stats.sim_seconds
    );
    (r.additions, r.stats.acc_cycles, r.windows)
}

#[test]
fn edge_cases_equal_the_cpu_engine() {
    let pts = random_points::<C>(300, 11).points;
    let rnd = random_scalars::<C>(300, 12);
    let p = pts[0];
    let r1 = order_minus::<C>(1);
    let cases: Vec<Case<C>> = vec![
        ("n = 0", vec![], vec![]),
        ("n = 1", vec![p], vec![rnd[0]]),
        ("n = 1, scalar r-1", vec![p], vec![r1]),
        ("n = 3", pts[..3].to_vec(), rnd[..3].to_vec()),
        ("all zero scalars", pts.clone(), vec![[0; 4]; 300]),
        // every addition on one bucket waits out the adder (76 cycles): kept small
        ("all scalars equal", pts[..8].to_vec(), vec![rnd[5]; 8]),
        ("scalar r-1 everywhere", pts[..8].to_vec(), vec![r1; 8]),
        ("repeated point", vec![p; 200], rnd[..200].to_vec()),
        ("repeated point, equal scalars", vec![p; 9], vec![rnd[1]; 9]),
        ("P and -P, same scalar", pts.iter().take(30).flat_map(|q| [*q, q.neg()]).collect(), {
            (0..60).map(|i| rnd[i / 2]).collect()
        }),
        ("P and -P, random scalars", pts.iter().take(100).flat_map(|q| [*q, q.neg()]).collect(), rnd[..200].to_vec()),
        (
            "points at infinity",
            (0..150).map(|i| if i % 3 == 0 { Affine::identity() } else { pts[i] }).collect(),
            rnd[..150].to_vec(),
        ),
        ("small scalars", pts[..257].to_vec(), (0..257u64).map(|i| [i, 0, 0, 0]).collect()),
    ];
    let mut any = false;
    let mut odd = false;
    for (name, points, scalars) in cases {
        let (ops, _, windows) = check::<Te>(name, points, &scalars, None, 2);
        any |= ops > 0;
        odd |= windows % 2 == 1;
    }
    assert!(any && odd);
}

/// A non-power-of-two size at a forced small window (many windows, the
/// narrow last window spread), and the per-window Backend path
/// (`zkmsm::MsmContext` over `RtlBackend`, one core run per window).
#[test]
fn windows_and_the_backend_seam() {
    let points = random_points::<C>(150, 21).points;
    let scalars = random_scalars::<C>(150, 22);
    let (_, _, windows) = check::<Te>("n = 150, c = 6", points.clone(), &scalars, Some(6), 2);
    assert_eq!(windows % 2, 1, "an idle core in the last pass");
    let backend = RtlBackend::<Te>::new(device::<Te>()).unwrap();
    let ctx = MsmBuilder::new().window(Some(8)).build_context(backend, &points[..100]).unwrap();
    let got = ctx.msm_bigint_report(&scalars[..100]).unwrap().result.to_affine();
    assert_eq!(got, cpu(&points[..100], &scalars[..100]), "MsmContext<RtlBackend>");
}

/// N = 2^12 uniform random on both cores: the result, and the cycle
/// model's accumulation cycles equal to the simulated cores'.
#[test]
fn uniform_4096_equals_the_cpu_engine_and_the_model() {
    let n = 1 << 12;
    let points = random_points::<C>(n, 31).points;
    let scalars = random_scalars::<C>(n, 32);
    let (ops, rtl, windows) = check::<Te>("uniform 2^12", points, &scalars, None, 2);
    // ceil(W/2) passes of n points are the least the two cores can take
    let passes = windows.div_ceil(2) as f64 * n as f64;
    println!(
        "uniform 2^12, two cores: {:.4} additions/cycle, {:.4} of the {passes} pass cycles",
        ops as f64 / rtl as f64,
        passes / rtl as f64
    );
}

/// N = 2^10 on both cores, and on one core of them: the same result, the
/// model's cycles, and two cores in about half the cycles of one.
#[test]
fn uniform_1024_on_two_cores() {
    let n = 1 << 10;
    let points = random_points::<C>(n, 41).points;
    let scalars = random_scalars::<C>(n, 42);
    let (ops, two, windows) = check::<Te>("uniform 2^10, two cores", points.clone(), &scalars, None, 2);
    let (_, one, _) = check::<Te>("uniform 2^10, one core", points, &scalars, None, 1);
    println!(
        "uniform 2^10: {windows} windows, {two} cycles on two cores, {one} on one ({:.3}x), {:.4} additions/cycle",
        one as f64 / two as f64,
        ops as f64 / two as f64
    );
    assert!(2 * two < one + one / 4, "two cores should take about half the cycles: {two} vs {one}");
}

/// More cores than the simulated accelerator has: refused in one line.
#[test]
fn more_cores_than_built_are_refused() {
    let points = random_points::<C>(4, 51).points;
    let mut e = RtlEngine::<Te>::new(points, Validation::Full, device::<Te>()).unwrap();
    let built = device::<Te>().ncores();
    let err = e.set_cores(built + 1).unwrap_err().to_string();
    assert!(err.contains("--rtl-cores") && err.contains("NCORES") && !err.contains('\n'), "{err}");
    assert!(e.set_cores(0).is_err());
    assert!(e.set_cores(built).is_ok());
}

/// Bucket aggregation on the device through the twisted Edwards core: each
/// bucket + bucket addition goes through the conversion in front of the
/// mixed adder (rtl/src/zk_te_agg_in.sv: Z1 Z2, k T2, Y2 - X2, Y2 + X2).
/// First the conversion alone, on window 0 (small scalars: the other
/// windows are empty) with groups of 2, so that the chain's one step adds
/// bucket 2g + 1 into bucket 2g: P + P (a doubling), Q + (-Q) (the
/// identity), identity + R, S + identity, identity + identity and two random
/// points; every partial sum is the host's extended addition, and the
/// result the CPU engine's. Then random MSMs with repeated points, equal
/// scalars, P and -P, zero scalars and n = 1 at groups of 2^1 .. 2^4 on one
/// and two cores: the result equal to the CPU engine's, exactly two partial
/// sums a group sent, and the cycles (accumulation, and START to the last
/// sum out) equal to the model's.
#[test]
fn device_aggregation_on_the_edwards_core() {
    // the conversion's latency, read from AGG_LAT, is the one the host
    // models the synthesized core with
    let params = RtlBackend::<Te>::new(device::<Te>()).unwrap().params();
    assert_eq!(params, zkmsm_rtl::machine::SYNTHESIZED, "the te model's registers");
    assert_eq!(params.agg_lat, zkmsm_sim::timeline::project::TE_AGG_LAT, "timeline's TE_AGG_LAT vs AGG_LAT");
    let pts = random_points::<C>(80, 61).points;
    let rnd = random_scalars::<C>(80, 62);
    let (p, q, r, s, a, b) = (pts[0], pts[1], pts[2], pts[3], pts[4], pts[5]);
    // bucket k holds the points of digit k + 1 (window 0, c = 5)
    let pairs = [(p, 1), (p, 2), (q, 3), (q.neg(), 4), (r, 6), (s, 7), (a, 11), (b, 12)];
    // the partial sums themselves, from a run of its own: the core's
    // buckets after its program are the host's additions (compared as
    // points: Z differs)
    let mut bk = vec![zkmsm_curve::te::TeExtended::identity(); 16];
    for &(pt, k) in &pairs {
        let e = zkmsm_curve::te::TeAffine::from_weierstrass(&pt).unwrap();
        bk[k as usize - 1] = bk[k as usize - 1].add(&zkmsm_curve::te::TeExtended::from_affine(&e));
    }
    let mut run = bk.clone();
    zkmsm_rtl::aggregate::emulate::<C, _>(&mut run, 1);
    let sums = sent_buckets(&pairs);
    for g in 0..8 {
        assert_eq!(sums[2 * g], bk[2 * g].add(&bk[2 * g + 1]), "group {g}: B0 + B1");
        assert_eq!(sums[2 * g], run[2 * g]);
        assert_eq!(sums[2 * g + 1], bk[2 * g + 1], "group {g}: B1 as accumulated");
    }
    let points: Vec<_> = pairs.iter().map(|x| x.0).collect();
    let scalars: Vec<ScalarLimbs> = pairs.iter().map(|x| [x.1, 0, 0, 0]).collect();
    check_with::<Te>("conversion: pairs", points, &scalars, Some(5), 1, Aggregation::Device(Some(1)));

    let mut points = pts[..77].to_vec();
    let mut scalars = rnd[..77].to_vec();
    for i in 0..20 {
        points[40 + i] = points[i % 5]; // repeated points
        scalars[40 + i] = scalars[i % 3]; // equal scalars: equal buckets
    }
    points[70] = points[0].neg(); // P and -P under one scalar
    scalars[70] = scalars[0];
    for z in scalars.iter_mut().skip(30).take(5) {
        *z = [0; 4]; // zero scalars
    }
    check_with::<Te>("n = 1, m = 2", vec![p], &rnd[..1], None, 1, Aggregation::Device(Some(1)));
    check_with::<Te>("n = 77, m = 4", points.clone(), &scalars, None, 2, Aggregation::Device(Some(2)));
    check_with::<Te>("n = 77, m = 8", points.clone(), &scalars, Some(5), 1, Aggregation::Device(Some(3)));
    check_with::<Te>("n = 77, m = 16", points, &scalars, Some(5), 2, Aggregation::Device(Some(4)));
}

/// The buckets the core sent for `pairs` (point, small scalar) as one
/// window of c = 5 with groups of 2 (every bucket is sent: B[2g] after the
/// program, B[2g + 1] as accumulated), straight from a simulation of its own.
fn sent_buckets(pairs: &[(Affine<C>, u64)]) -> Vec<zkmsm_curve::te::TeExtended> {
    let points: Vec<_> = pairs.iter().map(|x| x.0).collect();
    let digits: Vec<i32> = pairs.iter().map(|x| x.1 as i32).collect();
    let opts = Opts { agg_log_m: 1, max_cycles: 1 << 20, ..Opts::default() };
    let mut sim = Sim::new(Kind::Te, &opts).expect("the te model");
    sim.load_points(&Te::point_words(&points));
    let (words, st) = sim.run(points.len(), 5, 1, None, &digits).unwrap();
    assert_eq!(st.status & 0xf0, 0, "the core flagged its input");
    assert_eq!(words.len() % 16, 0);
    words.chunks(words.len() / 16).map(|w| Te::bucket(w).unwrap()).collect()
}
