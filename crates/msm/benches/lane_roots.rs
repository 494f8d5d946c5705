//! Where a compressed point's decoding goes, one thread, CPU time per point
//! (thread time: other processes on a shared machine disturb it less): the
//! square root's exponentiation scalar (`pow_vartime`) and in lanes
//! ([`zkmsm::input::lane_roots::pow_batch`]), the whole root scalar
//! (`SqrtTable::sqrt`) and in lanes ([`zkmsm::input::lane_roots::sqrt_batch`]), and
//! the whole decode of compressed and uncompressed encodings
//! ([`zkmsm::load::decode_chunk`]).
//!
//!     cargo bench -p zkmsm --bench lane_roots -- [log_n]       (default 14)

#[path = "common.rs"]
mod common;
use common::thread_time;
use zkmsm::gen::random_points;
use zkmsm::input::lane_roots::{pow_batch, pow_engine, sqrt_batch};
use zkmsm::io::encode_points;
use zkmsm::load::decode_chunk;
use zkmsm::*;
use zkmsm_curve::sqrt::pow_vartime;
use zkmsm_curve::PointFormat;
use zkmsm_field::{Field, PrimeField};

/// Microseconds of this thread's CPU time per item, best of 3.
fn us_per(n: usize, mut f: impl FnMut()) -> f64 {
    (0..3)
        .map(|_| {
            let t = thread_time();
            f();
            (thread_time() - t) * 1e6 / n as f64
        })
        .fold(f64::MAX, f64::min)
}

fn run<C: EngineCurve<Base: PrimeField>>(log_n: u32) {
    let n = 1usize << log_n;
    let points = random_points::<C>(n, 1).points;
    let table = C::sqrt_table().expect("tables");
    let rhs: Vec<C::Base> = points.iter().map(|p| p.x.square() * p.x + C::coeff_b()).collect();
    let scalar = us_per(n, || {
        std::hint::black_box(rhs.iter().map(|a| pow_vartime(a, table.exponent())).collect::<Vec<_>>());
    });
    let lanes = us_per(n, || {
        let mut v = rhs.clone();
        pow_batch(&mut v, table.exponent());
        std::hint::black_box(v);
    });
    let root_scalar = us_per(n, || {
        std::hint::black_box(rhs.iter().map(|a| table.sqrt(a)).collect::<Vec<_>>());
    });
    let root_lanes = us_per(n, || {
        std::hint::black_box(sqrt_batch(table, &rhs));
    });
    let mut decode = Vec::new();
    for format in [PointFormat::Compressed, PointFormat::Uncompressed] {
        let bytes = encode_points(&points, format, false);
        decode.push(us_per(n, || {
            let mut out = Vec::with_capacity(n);
            decode_chunk::<C>(&bytes, format, 0, &mut out).unwrap();
            assert!(out == points);
        }));
    }
    println!(
        "| {} | 2^{log_n} | {scalar:.2} | {lanes:.2} ({}) | {:.2} | {root_scalar:.2} | {root_lanes:.2} | {:.2} | {:.2} | {:.2} |",
        C::NAME,
        pow_engine::<C::Base>(),
        scalar / lanes,
        root_scalar / root_lanes,
        decode[0],
        decode[1]
    );
}

fn main() {
    let log_n = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(14);
    // one worker thread, and everything run on it, so that its thread time is the whole cost
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    println!("| curve | n | exponentiation, scalar us | in lanes us | speed-up | whole root, scalar us | in lanes us | speed-up | decode compressed us/point | decode uncompressed us/point |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    pool.install(|| {
        run::<Bls12_377>(log_n);
        run::<Bls12_381>(log_n);
    });
}
