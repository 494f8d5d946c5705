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
    for _ in 0..5 {
        let t = Instant::now();
        let buckets = backend.accumulate(&prepared, digits, plan);
        times.push(t.elapsed().as_secs_f64());
        sum = bucket_aggregation::running_sum::<C, _>(&buckets).to_xyzz();
    }
    times.sort_by(f64::total_cmp);
    let ops = digits.iter().filter(|&&d| d != 0).count();
    println!("{:>24}: {:8.1} ns/op ({} ops, median of 5)", backend.name(), times[2] * 1e9 / ops as f64, ops);
    if let Some((fused, _)) = backend.window_sum(&prepared, digits, plan) {
        assert_eq!(fused, sum, "window_sum disagrees");
        let mut t_fused = Vec::new();
        let mut t_split = Vec::new();
        for _ in 0..5 {
            let t = Instant::now();
            backend.window_sum(&prepared, digits, plan);
            t_fused.push(t.elapsed().as_secs_f64());
            let t = Instant::now();
            let buckets = backend.accumulate(&prepared, digits, plan);
            bucket_aggregation::running_sum::<C, _>(&buckets);
            t_split.push(t.elapsed().as_secs_f64());
        }
        t_fused.sort_by(f64::total_cmp);
        t_split.sort_by(f64::total_cmp);
        println!(
            "{:>24}  window with aggregation: {:.2} ms in lanes, {:.2} ms with the shared XYZZ path",
            "",
            t_fused[2] * 1e3,
            t_split[2] * 1e3
        );
    }
    if let Some(st) = backend.take_schedule_stats() {
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
