//! The bare cost of one lane batch (thread CPU time per addition): `batch`
//! additions into distinct occupied buckets, no scheduling, everything in
//! cache. What the lane engine costs beyond its multiplications.
//!
//!     cargo bench -p zkmsm --bench lane_batch -- [batch]

#[path = "common.rs"]
mod common;
use common::thread_time;
use zkmsm::backend::lanes::engine::{bare_batches, LanePoints};
use zkmsm::backend::lanes::{simd::Simd, Fma51, NativeSimd};
use zkmsm::gen::random_points;
use zkmsm::{Bls12_377, SwCurve};

fn main() {
    let batch: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(256);
    if !NativeSimd::available() {
        return;
    }
    type L = Fma51<<Bls12_377 as SwCurve>::Base, NativeSimd>;
    let points = random_points::<Bls12_377>(batch + 1, 1).points;
    let prepared = LanePoints::<Bls12_377, L>::prepare(&points);
    let rounds = 200_000 / batch;
    let mut best = f64::MAX;
    for _ in 0..7 {
        let t = thread_time();
        std::hint::black_box(bare_batches(&prepared, batch, rounds));
        best = best.min((thread_time() - t) / (rounds * batch) as f64);
    }
    println!("lane batch of {batch} ({}): {:.1} ns per addition (best of 7)", NativeSimd::NAME, best * 1e9);
}
