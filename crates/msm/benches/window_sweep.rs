//! Whole MSMs at one size with every window size c from a range, all cores:
//! wall time and process CPU time per MSM (median of the rounds, the c values
//! timed in alternation), and the plan's own choice. How the bucket memory of
//! a large c (2^(c-1) buckets of 128 bytes per thread with the lane engines)
//! meets the caches.
//!
//!     cargo bench -p zkmsm --bench window_sweep -- [log_n] [c_min] [c_max] [rounds] [backend]
//!
//! (defaults: 20 14 20 3 batch-affine; backend as `zkmsm msm --backend`)

use std::time::Instant;
use zkmsm::gen::{random_points, random_scalars};
use zkmsm::*;

#[repr(C)]
struct Timespec {
    tv_sec: i64,
    tv_nsec: i64,
}
extern "C" {
    fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
}

/// CPU time of the whole process (every thread), seconds.
fn process_time() -> f64 {
    const CLOCK_PROCESS_CPUTIME_ID: i32 = 2;
    let mut ts = Timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one timespec.
    unsafe { clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let num = |i: usize, d: u32| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    let log_n = num(0, 20);
    let (c_min, c_max) = (num(1, 14), num(2, 20));
    let rounds = num(3, 3) as usize;
    let backend = args.get(4).and_then(|b| BackendChoice::from_name(b)).unwrap_or(BackendChoice::BatchAffineGreedy);
    let n = 1usize << log_n;
    let points = random_points::<Bls12_377>(n, 1).points;
    let scalars = random_scalars::<Bls12_377>(n, 2);
    let builder = MsmBuilder::new().validation(Validation::AlreadyValidated).backend(backend);
    let mut engine = builder.build::<Bls12_377>(&points[..]).expect("valid points");
    drop(points);
    let auto_c = engine.plan().c;
    println!(
        "bls12-377, n = 2^{log_n}, {} on {} threads; the plan picks c = {auto_c}",
        engine.backend_name(),
        rayon::current_num_threads()
    );
    let cs: Vec<u32> = (c_min..=c_max).collect();
    let mut wall = vec![Vec::new(); cs.len()];
    let mut cpu = vec![Vec::new(); cs.len()];
    let mut result = None;
    for round in 0..=rounds {
        for (i, &c) in cs.iter().enumerate() {
            engine.set_window(Some(c));
            let (t, p) = (Instant::now(), process_time());
            let out = engine.msm_report(&scalars).expect("msm");
            let (dw, dp) = (t.elapsed().as_secs_f64() * 1e3, (process_time() - p) * 1e3);
            assert!(*result.get_or_insert(out.result) == out.result, "c = {c} disagrees");
            if round > 0 {
                wall[i].push(dw);
                cpu[i].push(dp);
            }
        }
    }
    let med = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    for (i, &c) in cs.iter().enumerate() {
        let windows = Plan::with_window(c, 253).windows;
        let kib = (1usize << (c - 1)) * 128 / 1024;
        println!(
            "c {c:2} ({windows:2} windows, {kib:6} KiB of lane buckets per thread): wall {:8.1} ms, cpu {:8.1} ms{}",
            med(&mut wall[i]),
            med(&mut cpu[i]),
            if c == auto_c { "   <- plan" } else { "" }
        );
    }
}
