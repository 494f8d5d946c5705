//! Where loading points goes: decoding (with the square root for compressed
//! points), the curve equation, subgroup membership (the batch test, and the
//! per-point test it replaces, timed on a sample), against one MSM on the
//! same points, all in one run.
//!
//!     cargo bench -p zkmsm --bench load -- [log_n]          (default 16)

use std::time::Instant;
use zkmsm::gen::{random_points, random_scalars};
use zkmsm::io::encode_points;
use zkmsm::load::decode_chunk;
use zkmsm::validate::{in_subgroup, validate_points, SOUNDNESS_BITS};
use zkmsm::*;
use zkmsm_curve::PointFormat;

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

fn run<C: EngineCurve>(log_n: u32) {
    let n = 1usize << log_n;
    let points = random_points::<C>(n, 1).points;
    let scalars = random_scalars::<C>(n, 2);
    let t = Instant::now();
    let ctx = MsmBuilder::new().validation(Validation::AlreadyValidated).build(&points).unwrap();
    let init = ms(t);
    ctx.msm_report(&scalars).unwrap();
    let t = Instant::now();
    ctx.msm_report(&scalars).unwrap();
    let msm = ms(t);
    let t = Instant::now();
    assert!(validate_points(&points, Validation::OnCurveOnly).is_ok());
    let on_curve = ms(t);
    let t = Instant::now();
    assert!(in_subgroup(&points, &mut rand::thread_rng(), SOUNDNESS_BITS));
    let batch = ms(t);
    let sample = &points[..n.min(1 << 12)];
    let t = Instant::now();
    assert!(rayon::prelude::ParallelIterator::all(rayon::prelude::IntoParallelRefIterator::par_iter(sample), |p| p
        .is_in_subgroup()));
    let per_point = ms(t) * (n / sample.len()) as f64;
    for format in [PointFormat::Uncompressed, PointFormat::Compressed] {
        let bytes = encode_points(&points, format, false);
        let mut out = Vec::with_capacity(n);
        let t = Instant::now();
        decode_chunk::<C>(&bytes, format, 0, &mut out).unwrap();
        let decode = ms(t);
        assert!(out == points);
        let load = decode + on_curve + batch;
        println!(
            "| {} | 2^{log_n} | {:?} | {decode:.0} | {on_curve:.0} | {batch:.0} | {per_point:.0} | {load:.0} | {msm:.0} ({}) | {:.2} | {init:.0} |",
            C::NAME,
            format,
            ctx.backend_name(),
            load / msm
        );
    }
}

fn main() {
    let log_n = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(16);
    println!("threads: {}", rayon::current_num_threads());
    println!(
        "| curve | n | format | decode ms | on-curve ms | subgroup, batch test ms | subgroup, per point ms (extrapolated) | load ms | msm ms (backend) | load / msm | init (convert) ms |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    run::<Bls12_377>(log_n);
    run::<Bls12_381>(log_n);
}
