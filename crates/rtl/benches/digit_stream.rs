//! The host's digit stream for the `rtl` backend, timed for the projection
//! (docs/RTL.md, "Projection"): the producer the backend runs
//! (`zkmsm_rtl::machine::produce_digits`, one thread, chunks of
//! `DIGIT_CHUNK` scalars) on 2^LOG_N random scalars at c = 16 (16 windows
//! of BLS12-377's 253-bit scalars), a consumer thread taking the chunks as
//! the core would. Prints each window's computing time, the first chunk's,
//! and the rate in digits per second (the core takes one digit a cycle:
//! 250 M/s at the assumed 250 MHz).
//!
//! `cargo bench -p zkmsm-rtl --bench digit_stream -- LOG_N` (default 20)

use rand::{Rng, SeedableRng};
use std::sync::mpsc::sync_channel;
use std::time::Instant;
use zkmsm::{Plan, ScalarLimbs};
use zkmsm_rtl::machine::{produce_digits, DIGIT_CHUNK};

fn main() {
    let log_n: u32 = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(20);
    let n = 1usize << log_n;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    // uniform 252-bit values: below r, and every window's bits uniform
    let scalars: Vec<ScalarLimbs> = (0..n).map(|_| [rng.gen(), rng.gen(), rng.gen(), rng.gen::<u64>() >> 4]).collect();
    let plan = Plan::with_window(16, 253);
    let per_chunk = n.div_ceil(DIGIT_CHUNK);

    // the first chunk alone: what the core waits for before its first digit
    let t = Instant::now();
    let first = zkmsm::digits::window_digits(&scalars[..DIGIT_CHUNK.min(n)], 0, &plan);
    let first_chunk = t.elapsed();
    assert_eq!(first.len(), DIGIT_CHUNK.min(n));

    let (tx, rx) = sync_channel::<Vec<i32>>(per_chunk);
    let consumer = std::thread::spawn(move || rx.iter().map(|c| c.len()).sum::<usize>());
    let t = Instant::now();
    let times = produce_digits(&scalars, &plan, DIGIT_CHUNK, &tx);
    drop(tx);
    let wall = t.elapsed();
    let taken = consumer.join().unwrap();
    assert_eq!(taken, n * plan.windows as usize);

    let ms: Vec<f64> = times.iter().map(|d| d.as_secs_f64() * 1e3).collect();
    let busy: f64 = ms.iter().sum();
    let max = ms.iter().cloned().fold(0.0, f64::max);
    println!(
        "{{\"log_n\": {log_n}, \"c\": {}, \"windows\": {}, \"chunk\": {DIGIT_CHUNK}, \"first_chunk_ms\": {:.3}, \
         \"window_ms_mean\": {:.2}, \"window_ms_max\": {:.2}, \"busy_ms\": {:.1}, \"wall_ms\": {:.1}, \
         \"digits_per_s\": {:.3e}, \"window_ms\": {:?}}}",
        plan.c,
        plan.windows,
        first_chunk.as_secs_f64() * 1e3,
        busy / ms.len() as f64,
        max,
        busy,
        wall.as_secs_f64() * 1e3,
        (n as f64 * plan.windows as f64) / (busy / 1e3),
        ms.iter().map(|v| (v * 100.0).round() / 100.0).collect::<Vec<_>>()
    );
}
