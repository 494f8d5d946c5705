//! One window's bucket accumulation on one thread, per backend: ns per
//! bucket operation, the figure the backend and batch-size choices rest on.
//!
//!     cargo bench -p zkmsm --bench accumulate -- [log_n] [c] [batch]      (default: 16 15, batch from c)

use std::time::Instant;
use zkmsm::digits::signed_digit;
use zkmsm::gen::{random_points, random_scalars};
use zkmsm::*;

fn probe<C: MsmCurve, B: Backend<C>>(backend: B, points: &[Affine<C>], digits: &[i32], plan: &Plan) -> Xyzz<C> {
    let prepared = backend.prepare(points);
    let mut times = Vec::new();
    let mut sum = Xyzz::identity();
    let mut schedule = None;
    for _ in 0..5 {
        let t = Instant::now();
        let window = backend.accumulate(&prepared, digits, plan);
        schedule = window.schedule_stats();
        let buckets = window.into_buckets();
        times.push(t.elapsed().as_secs_f64());
        sum = bucket_aggregation::running_sum::<C, _>(&buckets).to_xyzz();
    }
    times.sort_by(f64::total_cmp);
    let ops = digits.iter().filter(|&&d| d != 0).count();
    println!("{:>24}: {:8.1} ns/op ({} ops, median of 5)", backend.name(), times[2] * 1e9 / ops as f64, ops);
    // The backend's own aggregation (WindowBuckets::sum) against the shared running sum.
    let own = backend.accumulate(&prepared, digits, plan).sum();
    assert_eq!(own, sum, "the backend's window sum disagrees");
    let mut t_own = Vec::new();
    let mut t_shared = Vec::new();
    for _ in 0..5 {
        let window = backend.accumulate(&prepared, digits, plan);
        let t = Instant::now();
        window.sum();
        t_own.push(t.elapsed().as_secs_f64());
        let window = backend.accumulate(&prepared, digits, plan);
        let t = Instant::now();
        bucket_aggregation::running_sum::<C, _>(&window.into_buckets());
        t_shared.push(t.elapsed().as_secs_f64());
    }
    t_own.sort_by(f64::total_cmp);
    t_shared.sort_by(f64::total_cmp);
    println!(
        "{:>24}  window aggregation: {:.2} ms the backend's own, {:.2} ms converted to XYZZ and the shared running sum",
        "",
        t_own[2] * 1e3,
        t_shared[2] * 1e3
    );
    if let Some(st) = schedule {
        println!("{:>24}  conflicts {} overflowed {} batches {}", "", st.conflicts, st.overflowed, st.batches);
    }
    sum
}

fn main() {
    let args: Vec<u32> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let log_n = args.first().copied().unwrap_or(16);
    let c = args.get(1).copied().unwrap_or(15);
    let n = 1usize << log_n;
    let plan = Plan::with_window(c, 253);
    let points = random_points::<Bls12_377>(n, 1).points;
    let scalars = random_scalars::<Bls12_377>(n, 2);
    let digits: Vec<i32> = scalars.iter().map(|s| signed_digit(s, 3, &plan)).collect();
    println!("bls12-377, n = 2^{log_n}, c = {c}, one window, one thread");
    let a = probe(XyzzBackend, &points, &digits, &plan);
    let b = probe(BatchAffineBackend::<GreedyScheduler>::default().scalar_only(), &points, &digits, &plan);
    let t = probe(TwistedEdwardsBackend, &points, &digits, &plan);
    assert!(a == b && a == t, "backends disagree");
    let mut ifma = BatchAffineBackend::<GreedyScheduler>::default();
    ifma.batch_size = args.get(2).map(|&b| b as usize);
    if ifma.uses_ifma() {
        let v = probe(ifma, &points, &digits, &plan);
        assert!(a == v, "IFMA arithmetic disagrees");
    }
}
