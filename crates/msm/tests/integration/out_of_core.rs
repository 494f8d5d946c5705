//! Out-of-core MSMs (zkmsm::out_of_core) equal the in-memory MSM: 2^18 points
//! under a 16 MiB budget, both curves, every layout; errors in a later chunk
//! name the file and the byte offset in the whole file.

use std::path::Path;
use zkmsm::gen::{random_points, random_scalars};
use zkmsm::io::{encode_points, encode_scalars, result_hex};
use zkmsm::out_of_core::{msm_files, parse_bytes, OutOfCoreOptions};
use zkmsm::*;
use zkmsm_curve::PointFormat;

fn in_memory<C: EngineCurve>(points: &[Affine<C>], scalars: &[ScalarLimbs]) -> String {
    let ctx = MsmBuilder::new().validation(Validation::AlreadyValidated).build(points).unwrap();
    result_hex(&ctx.msm_report(scalars).unwrap().result.to_affine())
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn equals_in_memory<C: EngineCurve>(log_n: u32, budget: usize, format: PointFormat) {
    let n = 1usize << log_n;
    let dir = tempfile::tempdir().unwrap();
    let points = random_points::<C>(n, 11).points;
    let scalars = random_scalars::<C>(n, 12);
    let expected = in_memory(&points, &scalars);
    let p = write(dir.path(), "p.bin", &encode_points(&points, format, false));
    let s = write(dir.path(), "s.bin", &encode_scalars(&scalars));
    // Curve checks only: the subgroup check is the same code as in memory
    // (tested below and in encoded.rs) and would triple this test's time.
    let opts = OutOfCoreOptions { validation: Validation::OnCurveOnly, ..OutOfCoreOptions::with_budget(budget) };
    let out = msm_files::<C>(&p, &s, &opts).unwrap();
    assert!(out.chunks > 1, "{} chunks: the budget should force several", out.chunks);
    assert_eq!(out.chunks, n.div_ceil(opts.chunk_plan::<C>().unwrap().points));
    assert_eq!(result_hex(&out.result.to_affine()), expected, "{} 2^{log_n} {format:?}", C::NAME);
}

#[test]
fn bls12_381_2_18_points_in_16_mib() {
    equals_in_memory::<Bls12_381>(18, 16 << 20, PointFormat::Uncompressed);
}

#[test]
fn bls12_377_2_16_points_in_4_mib() {
    equals_in_memory::<Bls12_377>(16, 4 << 20, PointFormat::Compressed);
}

#[test]
fn layouts_prefixes_and_ragged_last_chunk() {
    // 5000 points in chunks of a little over 1024: the last chunk is short.
    let budget = OutOfCoreOptions::with_budget(0).chunk_cost::<Bls12_377>().budget_for(1100);
    let n = 5000;
    let dir = tempfile::tempdir().unwrap();
    let points = random_points::<Bls12_377>(n, 3).points;
    let mut scalars = random_scalars::<Bls12_377>(n, 4);
    scalars[0] = [0; 4];
    let expected = in_memory(&points, &scalars);
    for format in [PointFormat::Compressed, PointFormat::Uncompressed] {
        for prefixed in [false, true] {
            let p = write(dir.path(), "p.bin", &encode_points(&points, format, prefixed));
            let mut sbytes = encode_scalars(&scalars);
            if prefixed {
                sbytes.splice(0..0, (n as u64).to_le_bytes());
            }
            let s = write(dir.path(), "s.bin", &sbytes);
            let out = msm_files::<Bls12_377>(&p, &s, &OutOfCoreOptions::with_budget(budget)).unwrap();
            assert_eq!(out.chunks, 5);
            assert_eq!(result_hex(&out.result.to_affine()), expected, "{format:?} prefixed={prefixed}");
        }
    }
    // One chunk when the budget is large; n = 0 gives the identity.
    let p = write(dir.path(), "p.bin", &encode_points(&points, PointFormat::Compressed, false));
    let s = write(dir.path(), "s.bin", &encode_scalars(&scalars));
    let out = msm_files::<Bls12_377>(&p, &s, &OutOfCoreOptions::with_budget(1 << 30)).unwrap();
    assert_eq!((out.chunks, result_hex(&out.result.to_affine())), (1, expected));
    let e = write(dir.path(), "e.bin", b"");
    let out = msm_files::<Bls12_377>(&e, &e, &OutOfCoreOptions::with_budget(1 << 30)).unwrap();
    assert!(out.result.is_identity() && out.chunks == 0);
    assert_eq!((out.backends.len(), out.backend_line()), (0, "none".to_string()));
}

/// The report names every backend the chunks ran: four chunks of 1100
/// points and a last one of 5, for which `auto` chooses another backend.
#[test]
fn report_names_each_chunks_backend() {
    let budget = OutOfCoreOptions::with_budget(0).chunk_cost::<Bls12_377>().budget_for(1100);
    let n = 4 * 1100 + 5;
    let dir = tempfile::tempdir().unwrap();
    let points = random_points::<Bls12_377>(n, 5).points;
    let scalars = random_scalars::<Bls12_377>(n, 6);
    let p = write(dir.path(), "p.bin", &encode_points(&points, PointFormat::Uncompressed, false));
    let s = write(dir.path(), "s.bin", &encode_scalars(&scalars));
    let out = msm_files::<Bls12_377>(&p, &s, &OutOfCoreOptions::with_budget(budget)).unwrap();
    assert_eq!(out.chunks, 5);
    assert_eq!(result_hex(&out.result.to_affine()), in_memory(&points, &scalars));
    let chosen = |k: usize| {
        let ctx = MsmBuilder::new()
            .validation(Validation::AlreadyValidated)
            .glv(GlvMode::Off)
            .build(points[..k].to_vec())
            .unwrap();
        ctx.backend_name()
    };
    let (full, last) = (chosen(1100), chosen(5));
    assert_ne!(full, last, "auto should choose differently for 1100 and 5 points");
    assert_eq!(out.backends, vec![full, last]);
    assert_eq!(out.backend_line(), format!("{full} + {last}"));
}

#[test]
fn errors_in_a_later_chunk_name_file_and_offset() {
    let budget = OutOfCoreOptions::with_budget(0).chunk_cost::<Bls12_381>().budget_for(1024);
    let n = 3000;
    let dir = tempfile::tempdir().unwrap();
    let points = random_points::<Bls12_381>(n, 5).points;
    let scalars = random_scalars::<Bls12_381>(n, 6);
    let opts = OutOfCoreOptions::with_budget(budget);

    let mut pbytes = encode_points(&points, PointFormat::Compressed, false);
    pbytes[2500 * 48 + 20] ^= 0xff;
    let p = write(dir.path(), "p.bin", &pbytes);
    let s = write(dir.path(), "s.bin", &encode_scalars(&scalars));
    let e = msm_files::<Bls12_381>(&p, &s, &opts).unwrap_err().to_string();
    assert!(e.contains("p.bin: byte offset 120000: point 2500"), "{e}");

    let p = write(dir.path(), "p.bin", &encode_points(&points, PointFormat::Compressed, false));
    let mut sbytes = encode_scalars(&scalars);
    sbytes[2100 * 32..2101 * 32].fill(0xff);
    let s = write(dir.path(), "s.bin", &sbytes);
    let e = msm_files::<Bls12_381>(&p, &s, &opts).unwrap_err().to_string();
    assert!(e.contains("s.bin: byte offset 67200: scalar 2100 is not below"), "{e}");

    let s = write(dir.path(), "s.bin", &encode_scalars(&scalars[..2999]));
    let e = msm_files::<Bls12_381>(&p, &s, &opts).unwrap_err().to_string();
    assert!(e.contains("p.bin") && e.contains("2999 points need"), "{e}");

    let e = msm_files::<Bls12_381>(&p, &s, &OutOfCoreOptions::with_budget(1000)).unwrap_err().to_string();
    assert!(e.contains("memory budget 1000 bytes is below the least that works"), "{e}");
}

#[test]
fn byte_counts_parse() {
    assert_eq!(parse_bytes("16777216"), Ok(16 << 20));
    assert_eq!(parse_bytes("16M"), Ok(16 << 20));
    assert_eq!(parse_bytes("16MiB"), Ok(16 << 20));
    assert_eq!(parse_bytes("1.5G"), Ok(3 << 29));
    assert_eq!(parse_bytes("512k"), Ok(512 << 10));
    assert!(parse_bytes("16 parsecs").is_err());
    assert!(parse_bytes("-5M").is_err());
    assert!(parse_bytes("").is_err());
}

/// `--glv on` under a budget: each chunk gets its images (twice the cost a
/// point, so half the points a chunk), to the in-memory result on every
/// backend, with zero scalars, r - 1, P and -P, repeated points and the point
/// at infinity in the chunks; `Auto` stays off; a budget too small for GLV's
/// least chunk is refused saying so.
fn glv_in_chunks<C: EngineCurve>(seed: u64) {
    let n = 5000;
    let dir = tempfile::tempdir().unwrap();
    let mut points = random_points::<C>(n, seed).points;
    let mut scalars = random_scalars::<C>(n, seed + 1);
    let mut r1 = [0u64; 4];
    r1[..C::ORDER.len()].copy_from_slice(C::ORDER);
    r1[0] -= 1; // r is odd
    for i in (0..n).step_by(97) {
        points[i + 1] = points[i].neg();
        points[i + 2] = points[i];
        points[i + 3] = Affine::identity();
        scalars[i + 4] = [0; 4];
        scalars[i + 5] = r1;
    }
    let expected = in_memory(&points, &scalars);
    let p = write(dir.path(), "p.bin", &encode_points(&points, PointFormat::Uncompressed, false));
    let s = write(dir.path(), "s.bin", &encode_scalars(&scalars));
    let on = OutOfCoreOptions { glv: GlvMode::On, ..OutOfCoreOptions::with_budget(0) };
    let budget = on.chunk_cost::<C>().budget_for(1100);
    assert_eq!(OutOfCoreOptions { budget, ..on }.chunk_plan::<C>().unwrap().points, 1100);
    let mut backends = vec![BackendChoice::Auto, BackendChoice::Xyzz, BackendChoice::BatchAffineGreedy];
    if C::LABEL == "bls12-377" {
        backends.push(BackendChoice::TwistedEdwards);
    }
    for backend in backends {
        let opts = OutOfCoreOptions { glv: GlvMode::On, backend, ..OutOfCoreOptions::with_budget(budget) };
        let out = msm_files::<C>(&p, &s, &opts).unwrap();
        assert_eq!((out.chunks, out.chunk_points, out.glv), (5, 1100, true), "{backend:?}");
        assert_eq!(result_hex(&out.result.to_affine()), expected, "{} {backend:?} GLV", C::NAME);
    }
    let out = msm_files::<C>(&p, &s, &OutOfCoreOptions::with_budget(budget)).unwrap();
    let auto = OutOfCoreOptions::with_budget(budget).chunk_plan::<C>().unwrap().points;
    assert_eq!((out.chunk_points, out.glv), (auto, false), "auto: off under a budget");
    assert_eq!(result_hex(&out.result.to_affine()), expected);
    // enough for 1024 points without GLV, not with it
    let small = OutOfCoreOptions::with_budget(0).chunk_cost::<C>().budget_for(1024);
    assert!(OutOfCoreOptions::with_budget(small).chunk_plan::<C>().is_ok());
    let opts = OutOfCoreOptions { glv: GlvMode::On, ..OutOfCoreOptions::with_budget(small) };
    let e = msm_files::<C>(&p, &s, &opts).unwrap_err().to_string();
    assert!(e.contains("below the least that works with GLV") && !e.contains('\n'), "{e}");
}

#[test]
fn glv_in_chunks_bls12_377() {
    glv_in_chunks::<Bls12_377>(21);
}

#[test]
fn glv_in_chunks_bls12_381() {
    glv_in_chunks::<Bls12_381>(23);
}

/// A prepared file streamed under a budget (`msm_prepared_file`) equals the
/// in-memory MSM: plain records, GLV images run and not run, fixed-base
/// copies, each in several chunks; a flipped bit in the records, a damaged
/// header, a truncated file and scalars of another count are refused in one
/// line naming the file.
fn prepared_in_chunks<C: EngineCurve>(seed: u64) {
    use zkmsm::out_of_core::msm_prepared_file;
    let n = 5000;
    let dir = tempfile::tempdir().unwrap();
    let points = random_points::<C>(n, seed).points;
    let mut scalars = random_scalars::<C>(n, seed + 1);
    scalars[4000] = [0; 4];
    let expected = in_memory(&points, &scalars);
    let s = write(dir.path(), "s.bin", &encode_scalars(&scalars));
    let file = dir.path().join("p.prep");
    let budget = 2 << 20;
    let none = |_: usize, _: usize| {};
    let cases = [
        (BackendChoice::BatchAffineGreedy, GlvMode::Off, None, vec![GlvMode::Auto]),
        (BackendChoice::Xyzz, GlvMode::On, None, vec![GlvMode::Auto, GlvMode::On, GlvMode::Off]),
        (BackendChoice::BatchAffineGreedy, GlvMode::On, None, vec![GlvMode::On]),
        (BackendChoice::Xyzz, GlvMode::Off, Some(2), vec![GlvMode::Auto]),
    ];
    for (backend, glv, precompute, runs) in cases {
        let ctx = MsmBuilder::new().backend(backend).glv(glv).precompute(precompute).build(&points[..]).unwrap();
        ctx.write_prepared(&file).unwrap();
        for run in runs {
            let opts = OutOfCoreOptions { glv: run, ..OutOfCoreOptions::with_budget(budget) };
            let out = msm_prepared_file::<C>(&file, &s, &opts, &none).unwrap();
            let what = format!("{} {backend:?} prepared with {glv:?} {precompute:?}, run {run:?}", C::NAME);
            assert!(out.chunks > 1, "{what}: {} chunks", out.chunks);
            assert_eq!(out.glv, glv == GlvMode::On && run != GlvMode::Off, "{what}");
            assert_eq!(result_hex(&out.result.to_affine()), expected, "{what}");
            // every record it runs read once, and every scalar
            let records = s_len(&file) - 4096;
            let used = if glv == GlvMode::On && run == GlvMode::Off { records / 2 } else { records };
            assert_eq!(out.read.bytes, s_len(&s) + used, "{what}");
        }
    }
    let opts = OutOfCoreOptions::with_budget(budget);
    let good = std::fs::read(&file).unwrap();
    let refused = |bytes: &[u8], scalars: &Path| {
        std::fs::write(&file, bytes).unwrap();
        let e = msm_prepared_file::<C>(&file, scalars, &opts, &none).unwrap_err().to_string();
        assert!(e.contains("p.prep") && !e.contains('\n'), "{e}");
        e
    };
    // a bit of a record in the last chunk: the record check or the checksum
    let mut bad = good.clone();
    let at = bad.len() - 100;
    bad[at] ^= 4;
    let e = refused(&bad, &s);
    assert!(e.contains("checksum mismatch") || e.contains("not a valid"), "{e}");
    let mut bad = good.clone();
    bad[20] ^= 1;
    assert!(refused(&bad, &s).contains("header checksum mismatch"));
    assert!(refused(&good[..good.len() - 7], &s).contains("truncated"));
    std::fs::write(&file, &good).unwrap();
    let short = write(dir.path(), "short.bin", &encode_scalars(&scalars[..n - 1]));
    let e = msm_prepared_file::<C>(&file, &short, &opts, &none).unwrap_err().to_string();
    assert!(e.contains("5000 points but 4999 scalars"), "{e}");
}

fn s_len(p: &Path) -> u64 {
    std::fs::metadata(p).unwrap().len()
}

#[test]
fn prepared_in_chunks_bls12_381() {
    prepared_in_chunks::<Bls12_381>(31);
}

#[test]
fn prepared_in_chunks_bn254() {
    prepared_in_chunks::<Bn254>(33);
}

/// The bucket reserve counts the chunk's window: `--window 18` leaves far
/// fewer points a chunk than the planned window, and a window whose buckets
/// alone exceed the budget is refused naming the least budget.
#[test]
fn the_window_sets_the_bucket_reserve() {
    let threads = rayon::current_num_threads();
    let reserve = threads * (1 << 17) * 192; // 2^17 buckets of 192 bytes a thread
    let base = OutOfCoreOptions::with_budget(reserve + 20_000 * zkmsm::out_of_core::BYTES_PER_POINT);
    let wide = OutOfCoreOptions { window: Some(18), ..base }.chunk_plan::<Bls12_381>().unwrap();
    assert_eq!((wide.points, wide.reserve, wide.window), (20_000, reserve, 18));
    let planned = base.chunk_plan::<Bls12_381>().unwrap();
    assert!(planned.points > wide.points && planned.window < 18, "{wide:?} {planned:?}");
    let e = OutOfCoreOptions { window: Some(20), ..OutOfCoreOptions::with_budget(16 << 20) }
        .chunk_plan::<Bls12_381>()
        .unwrap_err()
        .to_string();
    assert!(e.contains(&format!("with --window 20 on {threads} threads")), "{e}");
}
