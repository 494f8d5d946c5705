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
