//! One window's bucket accumulation on one thread, per backend: ns per
//! bucket operation (this thread's CPU time, see common.rs), the figure the
//! backend and batch-size choices rest on.
//!
//!     cargo bench -p zkmsm --bench accumulate -- [log_n] [c] [batch] [only]
//!
//! (default: 16 15, batch from c (also when 0); `only`: run just one
//! backend (`xyzz`, `scalar`, `te`, `fma`, `ifma`), once, e.g. under
//! callgrind)

#[path = "common.rs"]
mod common;
use common::thread_time;
use zkmsm::digits::signed_digit;
use zkmsm::gen::{random_points, random_scalars};
use zkmsm::*;

fn probe<C: MsmCurve, B: Backend<C>>(
    backend: B,
    points: &[Affine<C>],
    digits: &[i32],
    plan: &Plan,
    runs: usize,
) -> Xyzz<C> {
    let prepared = backend.prepare(points);
    let mut times = Vec::new();
    let mut sum = Xyzz::identity();
    let mut schedule = None;
    for _ in 0..runs {
        let t = thread_time();
        let window = backend.accumulate(&prepared, digits, plan);
        schedule = window.schedule_stats();
        let buckets = window.into_buckets();
        times.push(thread_time() - t);
        sum = bucket_aggregation::running_sum::<C, _>(&buckets).to_xyzz();
    }
    times.sort_by(f64::total_cmp);
    let ops = digits.iter().filter(|&&d| d != 0).count();
    let median = times[runs / 2];
    println!("{:>24}: {:8.1} ns/op ({} ops, median of {runs})", backend.name(), median * 1e9 / ops as f64, ops);
    if runs == 1 {
        return sum;
    }
    // The backend's own aggregation (WindowBuckets::sum) against the shared running sum.
    let own = backend.accumulate(&prepared, digits, plan).sum();
    assert_eq!(own, sum, "the backend's window sum disagrees");
    let mut t_own = Vec::new();
    let mut t_shared = Vec::new();
    for _ in 0..5 {
        let window = backend.accumulate(&prepared, digits, plan);
        let t = thread_time();
        window.sum();
        t_own.push(thread_time() - t);
        let window = backend.accumulate(&prepared, digits, plan);
        let t = thread_time();
        bucket_aggregation::running_sum::<C, _>(&window.into_buckets());
        t_shared.push(thread_time() - t);
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
    let only: Option<String> = std::env::args().skip(1).find(|a| a.parse::<u32>().is_err() && !a.starts_with('-'));
    let log_n = args.first().copied().unwrap_or(16);
    let c = args.get(1).copied().unwrap_or(15);
    let batch = args.get(2).copied().filter(|&b| b > 0).map(|b| b as usize);
    let n = 1usize << log_n;
    let plan = Plan::with_window(c, 253);
    let points = random_points::<Bls12_377>(n, 1).points;
    let scalars = random_scalars::<Bls12_377>(n, 2);
    let digits: Vec<i32> = scalars.iter().map(|s| signed_digit(s, 3, &plan)).collect();
    println!("bls12-377, n = 2^{log_n}, c = {c}, one window, one thread");
    let mut fma = BatchAffineBackend::<GreedyScheduler>::default().fma_only();
    fma.batch_size = batch;
    let mut ifma = BatchAffineBackend::<GreedyScheduler>::default();
    ifma.batch_size = batch;
    let runs = if only.is_some() { 1 } else { 5 };
    let wanted = |name: &str| only.as_deref().is_none_or(|o| o == name);
    let mut sums = Vec::new();
    if wanted("xyzz") {
        sums.push(probe(XyzzBackend, &points, &digits, &plan, runs));
    }
    if wanted("scalar") {
        sums.push(probe(BatchAffineBackend::<GreedyScheduler>::default().scalar_only(), &points, &digits, &plan, runs));
    }
    if wanted("te") {
        sums.push(probe(TwistedEdwardsBackend, &points, &digits, &plan, runs));
    }
    if wanted("fma") && fma.uses_fma() {
        sums.push(probe(fma, &points, &digits, &plan, runs));
    }
    if wanted("ifma") && ifma.uses_ifma() {
        sums.push(probe(ifma, &points, &digits, &plan, runs));
    }
    assert!(sums.windows(2).all(|w| w[0] == w[1]), "backends disagree");
}
