//! One window's bucket accumulation on one thread, per backend: ns per
//! bucket operation (this thread's CPU time, see common.rs), the figure the
//! backend and batch-size choices rest on.
//!
//!     cargo bench -p zkmsm --bench accumulate -- [log_n] [c] [batch] [runs] [only]
//!
//! (default: 16 15, batch from c (also when 0), 5 runs; `only`: run just
//! one backend (`xyzz`, `scalar`, `te`, `fma`, `ifma`), once unless `runs`
//! is given, e.g. under callgrind or perf). On x86-64 the core clock is measured before and after (a
//! chain of dependent adds, see common.rs), and ns/op also given in cycles
//! at their mean.

#[path = "common.rs"]
mod common;
use common::thread_time;
use zkmsm::digits::signed_digit;
use zkmsm::gen::{random_points, random_scalars};
use zkmsm::*;

/// The window's sum, and ns per operation (median of `runs`) under the backend's name.
fn probe<C: zkmsm::InputCurve, B: Backend<C>>(
    backend: B,
    points: &[Affine<C>],
    digits: &[i32],
    plan: &Plan,
    runs: usize,
) -> (Xyzz<C>, (String, f64)) {
    let prepared = backend.prepare(points);
    let mut times = Vec::new();
    let mut sum = Xyzz::identity();
    let mut out_times = Vec::new();
    let mut schedule = None;
    for _ in 0..runs {
        let t = thread_time();
        let window = backend.accumulate(&prepared, digits, plan);
        schedule = window.schedule_stats();
        let t_out = thread_time();
        let buckets = window.into_buckets();
        let end = thread_time();
        times.push(end - t);
        out_times.push(end - t_out);
        sum = bucket_aggregation::running_sum::<C, _>(&buckets).to_xyzz();
    }
    times.sort_by(f64::total_cmp);
    out_times.sort_by(f64::total_cmp);
    let ops = digits.iter().filter(|&&d| d != 0).count();
    let median = times[runs / 2];
    let ns = median * 1e9 / ops as f64;
    println!("{:>24}: {:8.1} ns/op ({} ops, median of {runs})", backend.name(), ns, ops);
    println!(
        "{:>24}  of which the buckets out (into_buckets: to XYZZ, the window freed) {:.1} ns/op",
        "",
        out_times[runs / 2] * 1e9 / ops as f64
    );
    let time = (backend.name().to_string(), ns);
    if let Some(st) = schedule {
        println!("{:>24}  conflicts {} overflowed {} batches {}", "", st.conflicts, st.overflowed, st.batches);
    }
    if runs == 1 {
        return (sum, time);
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
    (sum, time)
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
    let runs = args.get(3).map_or(if only.is_some() { 1 } else { 5 }, |&r| r.max(1) as usize);
    let wanted = |name: &str| only.as_deref().is_none_or(|o| o == name);
    #[cfg(target_arch = "x86_64")]
    let ghz_before = common::clock_ghz();
    let mut sums = Vec::new();
    let mut times = Vec::new();
    let mut record = |(sum, time): (Xyzz<Bls12_377>, (String, f64))| {
        sums.push(sum);
        times.push(time);
    };
    if wanted("xyzz") {
        record(probe(XyzzBackend, &points, &digits, &plan, runs));
    }
    if wanted("scalar") {
        record(probe(BatchAffineBackend::<GreedyScheduler>::default().scalar_only(), &points, &digits, &plan, runs));
    }
    if wanted("te") {
        record(probe(TwistedEdwardsBackend, &points, &digits, &plan, runs));
    }
    if wanted("fma") && fma.uses_fma() {
        record(probe(fma, &points, &digits, &plan, runs));
    }
    if wanted("ifma") && ifma.uses_ifma() {
        record(probe(ifma, &points, &digits, &plan, runs));
    }
    assert!(sums.windows(2).all(|w| w[0] == w[1]), "backends disagree");
    #[cfg(target_arch = "x86_64")]
    {
        let ghz_after = common::clock_ghz();
        let ghz = (ghz_before + ghz_after) / 2.0;
        println!("core clock {ghz_before:.3} GHz before, {ghz_after:.3} after (dependent add chain)");
        for (name, ns) in &times {
            println!("{name:>24}: {:8.0} cycles/op at {ghz:.2} GHz", ns * ghz);
        }
    }
}
