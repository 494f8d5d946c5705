//! The memory-lean pipeline against the all-at-once one it replaced:
//!
//! - digits made per window (or per fixed-base bucket set) inside that
//!   window's task give the same MSM as all windows' digits computed up front
//!   (`SignedDigits::compute`, `Precompute::regroup`), on random and
//!   adversarial scalars, for every backend, with 1, 2 and 5 threads (both the
//!   fused path, sets >= threads, and the split-aggregation path);
//! - owned construction (`prepare_owned`, `MsmBuilder` given a `Vec`) gives
//!   what borrowed construction gives;
//! - files read a chunk at a time give the same points, scalars and errors
//!   (message, index, byte offset) as reading them whole did.

use std::path::{Path, PathBuf};
use zkmsm::bucket_aggregation::running_sum;
use zkmsm::digits::{window_digits, SignedDigits};
use zkmsm::fixed_base::Precompute;
use zkmsm::gen::{random_points, random_scalars};
use zkmsm::io::{encode_points, encode_scalars, map_scalars, read_points, read_scalars, write_points, write_scalars};
use zkmsm::result_aggregation::combine_windows;
use zkmsm::*;
use zkmsm_curve::PointFormat;
use zkmsm_field::PrimeField;

fn order_minus<C: zkmsm::InputCurve>(k: u64) -> ScalarLimbs {
    let mut s = [0u64; 4];
    s[..C::ORDER.len()].copy_from_slice(C::ORDER);
    let mut borrow = k;
    for l in s.iter_mut() {
        let (v, b) = l.overflowing_sub(borrow);
        *l = v;
        borrow = b as u64;
    }
    s
}

/// The pipeline as it was: every window's digits first, window-major,
/// regrouped per bucket set in fixed-base mode, then accumulation and
/// running sums.
fn all_at_once<C: zkmsm::InputCurve, B: Backend<C>>(
    backend: &B,
    points: &[Affine<C>],
    scalars: &[ScalarLimbs],
    plan: Plan,
    pre: Option<Precompute>,
) -> Affine<C> {
    if points.is_empty() {
        return Affine::identity();
    }
    let digits = SignedDigits::compute(scalars, &plan);
    let (prepared, streams) = match pre {
        None => (backend.prepare(points), digits.windows),
        Some(pre) => (backend.prepare(&pre.shifted_copies(points)), pre.regroup(&digits.windows, points.len())),
    };
    let sums: Vec<Xyzz<C>> = streams
        .iter()
        .map(|d| running_sum::<C, _>(&backend.accumulate(&prepared, d, &plan).into_buckets()).to_xyzz())
        .collect();
    combine_windows(&sums, plan.c).to_affine()
}

fn scalar_cases<C: zkmsm::InputCurve>(n: usize, seed: u64) -> Vec<(&'static str, Vec<ScalarLimbs>)> {
    let rnd = random_scalars::<C>(n, seed);
    let r1 = order_minus::<C>(1);
    // every window's top bit set (carries everywhere), at several c
    let ones = |c: u32| -> ScalarLimbs {
        let mut s = [0u64; 4];
        for i in (c - 1..C::Scalar::NUM_BITS - 1).step_by(c as usize) {
            s[(i / 64) as usize] |= 1 << (i % 64);
        }
        s
    };
    vec![
        ("random", rnd.clone()),
        ("zeros", vec![[0; 4]; n]),
        ("r-1", vec![r1; n]),
        ("r-1, r-2, 0, 1", (0..n).map(|i| [r1, order_minus::<C>(2), [0; 4], [1, 0, 0, 0]][i % 4]).collect()),
        (
            "digit boundaries",
            (0..n)
                .map(|i| {
                    let c = (i % 16) as u32 + 1;
                    let v = [(1u64 << (c - 1)) - 1, 1 << (c - 1), (1 << c) - 1][i % 3];
                    [v, v << 7, 0, v]
                })
                .collect(),
        ),
        ("top bits of windows", (0..n).map(|i| ones((i % 17) as u32 + 1)).collect()),
        (
            "powers of two",
            (0..n)
                .map(|i| {
                    let k = i % (C::Scalar::NUM_BITS as usize);
                    let mut s = [0u64; 4];
                    s[k / 64] = 1 << (k % 64);
                    s
                })
                .collect(),
        ),
        ("sparse", (0..n).map(|i| if i % 13 == 0 { rnd[i] } else { [0; 4] }).collect()),
    ]
}

fn point_cases<C: zkmsm::InputCurve>(n: usize, seed: u64) -> Vec<(&'static str, Vec<Affine<C>>)> {
    let pts = random_points::<C>(n, seed).points;
    vec![
        ("random", pts.clone()),
        ("repeated point", vec![pts[0]; n]),
        (
            "P, -P and infinity",
            (0..n)
                .map(|i| match i % 3 {
                    0 => pts[i],
                    1 => pts[i - 1].neg(),
                    _ => Affine::identity(),
                })
                .collect(),
        ),
    ]
}

fn check_backend<C: zkmsm::InputCurve, B: Backend<C>>(make: impl Fn() -> B, seed: u64) {
    let n = 150;
    let pools: Vec<(usize, rayon::ThreadPool)> =
        [1, 2, 5].into_iter().map(|t| (t, rayon::ThreadPoolBuilder::new().num_threads(t).build().unwrap())).collect();
    let backend = make();
    for (pname, points) in point_cases::<C>(n, seed) {
        for (sname, scalars) in scalar_cases::<C>(n, seed + 1) {
            for window in [None, Some(1), Some(6), Some(16)] {
                let builder = MsmBuilder::new().validation(Validation::OnCurveOnly).glv(GlvMode::Off).window(window); // the plan of full scalars
                let ctx = builder.build_context(make(), &points).unwrap();
                let want = all_at_once(&backend, &points, &scalars, ctx.plan(), None);
                for (threads, pool) in &pools {
                    let got = pool.install(|| ctx.msm_bigint_report(&scalars).unwrap());
                    assert_eq!(
                        got.result.to_affine(),
                        want,
                        "{} {}: {pname} points, {sname} scalars, window {window:?}, {threads} threads",
                        C::NAME,
                        ctx.backend_name()
                    );
                    let t = got.timings;
                    assert!(t.total() >= t.digits + t.accumulation + t.bucket_aggregation);
                }
            }
            for copies in [1, 3, 300] {
                for window in [None, Some(9)] {
                    let builder = MsmBuilder::new()
                        .validation(Validation::OnCurveOnly)
                        .precompute(Some(copies))
                        .glv(GlvMode::Off)
                        .window(window);
                    let ctx = builder.build_context(make(), &points).unwrap();
                    // one copy is the points themselves: plain mode, no precomputation
                    let pre = ctx.precompute().copied();
                    assert_eq!(pre.is_none(), copies == 1, "fixed-base x{copies}");
                    let want = all_at_once(&backend, &points, &scalars, pre.map_or(ctx.plan(), |p| p.plan), pre);
                    for (threads, pool) in &pools {
                        let got = pool.install(|| ctx.msm_bigint(&scalars).unwrap());
                        assert_eq!(
                            got,
                            want,
                            "{} {}: {pname} points, {sname} scalars, fixed-base x{copies}, window {window:?}, {threads} threads",
                            C::NAME,
                            ctx.backend_name()
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn per_window_digits_match_all_at_once_xyzz() {
    check_backend::<Bls12_377, _>(|| XyzzBackend, 1);
    check_backend::<Bls12_381, _>(|| XyzzBackend, 2);
}

#[test]
fn per_window_digits_match_all_at_once_batch_affine() {
    check_backend::<Bls12_377, _>(|| BatchAffineBackend::new(GreedyScheduler::default()), 3);
    check_backend::<Bls12_381, _>(|| BatchAffineBackend::new(DelayedScheduler::default()), 4);
}

#[test]
fn per_window_digits_match_all_at_once_twisted_edwards() {
    check_backend::<Bls12_377, _>(|| TwistedEdwardsBackend, 5);
}

#[test]
fn window_digits_and_streams_match_the_all_at_once_forms() {
    for (_, scalars) in scalar_cases::<Bls12_381>(100, 6) {
        for c in [1, 2, 7, 13, 16, 20] {
            let plan = Plan::with_window(c, 255);
            let all = SignedDigits::compute(&scalars, &plan);
            for w in 0..plan.windows {
                assert_eq!(window_digits(&scalars, w, &plan), all.windows[w as usize], "c {c}, window {w}");
            }
            assert_eq!(window_digits(&scalars, plan.windows, &plan), vec![0; scalars.len()]);
            for copies in [1, 2, 3, 5, 64] {
                let pre = Precompute::new(plan, copies);
                let regrouped = pre.regroup(&all.windows, scalars.len());
                assert_eq!(regrouped.len(), pre.sets as usize);
                for t in 0..pre.sets {
                    assert_eq!(pre.stream(t, &scalars), regrouped[t as usize], "c {c}, x{copies}, set {t}");
                }
            }
        }
    }
}

#[test]
fn owned_construction_matches_borrowed() {
    // more points than a twisted Edwards conversion slice (2^15), with a partial last slice
    let pool = random_points::<Bls12_377>(1000, 7).points;
    let mut many: Vec<Affine<Bls12_377>> = (0..2 * (1 << 15) + 1234).map(|i| pool[(i * 7) % pool.len()]).collect();
    many[5] = Affine::identity();
    assert_eq!(TwistedEdwardsBackend.prepare_owned(many.clone()), TwistedEdwardsBackend.prepare(&many));
    assert_eq!(TwistedEdwardsBackend.prepare_owned(pool.clone()), TwistedEdwardsBackend.prepare(&pool));
    assert_eq!(*XyzzBackend.prepare_owned(many.clone()), *many);

    let scalars = random_scalars::<Bls12_377>(many.len(), 8);
    let builder = MsmBuilder::new().validation(Validation::OnCurveOnly);
    let borrowed = builder.build_context(TwistedEdwardsBackend, &many).unwrap();
    let owned = builder.build_context(TwistedEdwardsBackend, many.clone()).unwrap();
    assert_eq!(owned.len(), many.len());
    assert_eq!(owned.msm_bigint(&scalars).unwrap(), borrowed.msm_bigint(&scalars).unwrap());

    // validation still happens, and names the index
    let mut off = pool[..10].to_vec();
    off[4].y = off[4].y + off[4].y;
    assert!(matches!(builder.build_context(XyzzBackend, off.clone()), Err(MsmError::PointNotOnCurve { index: 4 })));
    assert!(matches!(
        MsmBuilder::new().precompute(Some(2)).build_context(XyzzBackend, off),
        Err(MsmError::PointNotOnCurve { index: 4 })
    ));
}

fn owned_and_borrowed_agree<C: EngineCurve>(seed: u64) {
    let points = random_points::<C>(300, seed).points;
    let scalars = random_scalars::<C>(300, seed + 1);
    let want = msm_bigint(&points, &scalars).unwrap();
    for choice in BackendChoice::ALL {
        for copies in [None, Some(1), Some(3)] {
            let builder = MsmBuilder::new().backend(choice).precompute(copies);
            let borrowed = builder.build(&points);
            let owned = builder.build(points.clone());
            match (borrowed, owned) {
                (Ok(b), Ok(o)) => {
                    assert_eq!(o.backend_name(), b.backend_name());
                    assert_eq!(o.len(), 300);
                    assert_eq!(o.plan(), b.plan());
                    let got = o.msm_report(&scalars).unwrap().result.to_affine();
                    assert_eq!(got, want, "{} {} {copies:?}", C::NAME, choice.name());
                }
                (Err(b), Err(o)) => assert_eq!(o.to_string(), b.to_string()),
                (b, o) => panic!("{} {}: borrowed ok {}, owned ok {}", C::NAME, choice.name(), b.is_ok(), o.is_ok()),
            }
        }
    }
}

#[test]
fn owned_points_build_what_borrowed_points_build() {
    owned_and_borrowed_agree::<Bls12_377>(9);
    owned_and_borrowed_agree::<Bls12_381>(10);
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let d = std::env::temp_dir().join(format!("zkmsm-streaming-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        Self(d)
    }
    fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let f = self.0.join(name);
        std::fs::write(&f, bytes).unwrap();
        f
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn err_string<T>(r: Result<T, MsmError>) -> String {
    match r {
        Ok(_) => panic!("expected an error"),
        Err(e) => e.to_string(),
    }
}

// The reader's chunk, and 2.5 chunks of records: records and errors land in later chunks.
const R: usize = zkmsm::io::RECORDS_PER_READ;
const N: usize = 2 * R + R / 2;

#[test]
fn chunked_scalar_reads_keep_values_and_errors() {
    let dir = TempDir::new("scalars");
    let scalars = random_scalars::<Bls12_377>(N, 11);
    let f = dir.0.join("s.bin");
    write_scalars(&f, &scalars).unwrap();
    assert_eq!(read_scalars::<Bls12_377>(&f).unwrap(), scalars);
    for n in [0, 1, R, R + 1] {
        let f = dir.write("n.bin", &encode_scalars(&scalars[..n]));
        assert_eq!(read_scalars::<Bls12_377>(&f).unwrap(), scalars[..n]);
    }

    let bytes = encode_scalars(&scalars);
    for cut in [5, 31] {
        let f = dir.write("trunc.bin", &bytes[..bytes.len() - cut]);
        let len = bytes.len() - cut;
        assert_eq!(
            err_string(read_scalars::<Bls12_377>(&f)),
            format!(
                "{}: byte offset {}: truncated scalar: {len} bytes is {} whole 32-byte scalars plus {} bytes",
                f.display(),
                (len / 32) * 32,
                len / 32,
                len % 32
            )
        );
    }
    let f = dir.write("short.bin", &bytes[..7]);
    assert!(err_string(read_scalars::<Bls12_377>(&f))
        .ends_with("byte offset 0: truncated scalar: 7 bytes is 0 whole 32-byte scalars plus 7 bytes"));

    // the first unreduced scalar is named, wherever it lies
    let mut b = bytes.clone();
    let first = R + R / 4;
    for i in [2 * R + R / 8, first] {
        b[32 * i..32 * i + 32].fill(0xff);
    }
    let f = dir.write("big.bin", &b);
    assert_eq!(
        err_string(read_scalars::<Bls12_377>(&f)),
        format!("{}: byte offset {}: scalar {first} is not below the bls12-377 group order r", f.display(), 32 * first)
    );
    let e = read_scalars::<Bls12_377>(&f).unwrap_err();
    let fault = zkmsm::RecordFault::ScalarNotReduced { curve: "bls12-377" };
    let want = zkmsm::BadRecord::at(zkmsm::Input::Scalars, first, (32 * first) as u64, fault);
    assert_eq!(e.record(), Some(&want), "{e}");

    // a missing file and a directory fail as reading them whole did
    let missing = dir.0.join("missing.bin");
    let want = |p: &Path| format!("{}: {}", p.display(), std::fs::read(p).unwrap_err());
    assert_eq!(err_string(read_scalars::<Bls12_377>(&missing)), want(&missing));
    assert_eq!(err_string(read_scalars::<Bls12_377>(&dir.0)), want(&dir.0));
}

/// The mapped reader gives what the chunked reader gives, value for value
/// and error for error, and maps the regular files it is given.
#[test]
fn mapped_scalars_match_the_chunked_reader() {
    let dir = TempDir::new("mapped-scalars");
    let scalars = random_scalars::<Bls12_377>(N, 12);
    let bytes = encode_scalars(&scalars);
    let prefixed = |count: u64, body: &[u8]| [&count.to_le_bytes()[..], body].concat();
    let mut unreduced = bytes.clone();
    for i in [2 * R + R / 8, R + R / 4] {
        unreduced[32 * i..32 * i + 32].fill(0xff);
    }
    let mut cases: Vec<(&str, Vec<u8>)> = vec![
        ("all", bytes.clone()),
        ("empty", Vec::new()),
        ("one", bytes[..32].to_vec()),
        ("prefixed", prefixed(N as u64, &bytes)),
        ("bad prefix", prefixed(N as u64 - 1, &bytes)),
        ("truncated", bytes[..bytes.len() - 5].to_vec()),
        ("short", bytes[..7].to_vec()),
        ("unreduced", unreduced),
        (
            "unreduced, prefixed",
            prefixed(N as u64, &{
                let mut b = bytes.clone();
                b[32 * 7..32 * 8].fill(0xff);
                b
            }),
        ),
    ];
    // r itself and r - 1 as the last scalar
    for k in [0, 1] {
        let mut b = bytes.clone();
        let s = order_minus::<Bls12_377>(k);
        for (i, w) in s.iter().enumerate() {
            b[bytes.len() - 32 + 8 * i..bytes.len() - 24 + 8 * i].copy_from_slice(&w.to_le_bytes());
        }
        cases.push((if k == 0 { "r" } else { "r - 1" }, b));
    }
    let mut refused = Vec::new();
    for (name, b) in &cases {
        let f = dir.write("case.bin", b);
        match (read_scalars::<Bls12_377>(&f), map_scalars::<Bls12_377>(&f)) {
            (Ok(read), Ok(mapped)) => {
                assert_eq!(read[..], mapped[..], "{name}");
                assert!(b.is_empty() || mapped.is_mapped(), "{name}: not mapped");
            }
            (read, mapped) => {
                assert_eq!(err_string(read), err_string(mapped), "{name}");
                refused.push(*name);
            }
        }
    }
    assert_eq!(refused, ["bad prefix", "truncated", "short", "unreduced", "unreduced, prefixed", "r"]);
    let f = dir.write("all.bin", &bytes);
    assert!(map_scalars::<Bls12_377>(&f).unwrap().is_mapped(), "a regular file is mapped");
    let missing = dir.0.join("missing.bin");
    assert_eq!(err_string(map_scalars::<Bls12_377>(&missing)), err_string(read_scalars::<Bls12_377>(&missing)));
    assert_eq!(err_string(map_scalars::<Bls12_377>(&dir.0)), err_string(read_scalars::<Bls12_377>(&dir.0)));
}

fn chunked_point_reads<C: zkmsm::InputCurve>(seed: u64) {
    let dir = TempDir::new(C::NAME);
    let pool = random_points::<C>(500, seed).points;
    let points: Vec<Affine<C>> =
        (0..N).map(|i| if i % 1001 == 3 { Affine::identity() } else { pool[i % 500] }).collect();
    for format in [PointFormat::Compressed, PointFormat::Uncompressed] {
        let size = format.size::<C>();
        for prefixed in [false, true] {
            let header = if prefixed { 8 } else { 0 };
            let bytes = encode_points(&points, format, prefixed);
            let f = dir.write("p.bin", &bytes);
            let (got, layout) = read_points::<C>(&f, N, None, Validation::OnCurveOnly).unwrap();
            assert_eq!(layout.format, format);
            assert_eq!(layout.prefixed, prefixed);
            assert!(got == points, "{format:?} prefixed {prefixed}");

            // the first undecodable record is named, with its offset
            let mut b = bytes.clone();
            for i in [R + 3 * R / 4, R + 617, R + 616] {
                b[header + i * size..header + (i + 1) * size].fill(0xff);
            }
            let f = dir.write("bad.bin", &b);
            let i = R + 616;
            let e = Affine::<C>::from_bytes(&b[header + i * size..header + (i + 1) * size], format).unwrap_err();
            assert_eq!(
                err_string(read_points::<C>(&f, N, Some(format), Validation::Full)),
                format!("{}: byte offset {}: point {i}: {e}", f.display(), header + i * size)
            );

            // validation names its index too, and the first bad point in file
            // order is named, whether it fails decoding or validation
            if prefixed {
                let (y, _) = Affine::<C>::ys_from_x(<C::Base as zkmsm_field::Field>::ZERO).unwrap();
                let outsider = Affine::<C>::new_unchecked(<C::Base as zkmsm_field::Field>::ZERO, y);
                assert!(outsider.is_on_curve() && !outsider.is_in_subgroup());
                let mut off = points.clone();
                off[2 * R + 232] = outsider;
                off[100] = outsider;
                let mut b = encode_points(&off, format, prefixed);
                let f = dir.write("sub.bin", &b);
                assert_eq!(
                    err_string(read_points::<C>(&f, N, None, Validation::Full)),
                    format!(
                        "{}: byte offset {}: point 100: not in the prime-order subgroup",
                        f.display(),
                        header + 100 * size
                    )
                );
                b[header + (N - 1) * size..].fill(0xff);
                let f = dir.write("sub2.bin", &b);
                assert!(err_string(read_points::<C>(&f, N, None, Validation::Full))
                    .contains(&format!("byte offset {}: point 100: not in", header + 100 * size)));
                b[header + 50 * size..header + 51 * size].fill(0xff);
                let f = dir.write("sub3.bin", &b);
                assert!(err_string(read_points::<C>(&f, N, None, Validation::Full))
                    .contains(&format!("byte offset {}: point 50: ", header + 50 * size)));
                // in one chunk, a point outside the subgroup before an
                // undecodable one is named first (found by fuzzing read_inputs)
                let mut b = encode_points(&off, format, prefixed);
                b[header + 107 * size..header + 108 * size].fill(0xff);
                let f = dir.write("sub4.bin", &b);
                assert!(err_string(read_points::<C>(&f, N, None, Validation::Full))
                    .contains(&format!("byte offset {}: point 100: not in", header + 100 * size)));
            }
        }
    }
    // wrong sizes and prefixes: the messages of old
    let bytes = encode_points(&points[..100], PointFormat::Compressed, false);
    let f = dir.write("short.bin", &bytes[..bytes.len() - 1]);
    let len = bytes.len() - 1;
    let (c, u) = (PointFormat::Compressed.size::<C>(), PointFormat::Uncompressed.size::<C>());
    assert_eq!(
        err_string(read_points::<C>(&f, 100, None, Validation::Full)),
        format!(
            "{}: byte offset {len}: file has {len} bytes; 100 points need {} (compressed) or {} (uncompressed) bytes, optionally + 8",
            f.display(),
            100 * c,
            100 * u
        )
    );
    let mut b = 99u64.to_le_bytes().to_vec();
    b.extend_from_slice(&bytes);
    let f = dir.write("prefix.bin", &b);
    assert_eq!(
        err_string(read_points::<C>(&f, 100, None, Validation::Full)),
        format!("{}: byte offset 0: length prefix says 99 points, expected 100", f.display())
    );
    let missing = dir.0.join("missing.bin");
    let want = |p: &Path| format!("{}: {}", p.display(), std::fs::read(p).unwrap_err());
    assert_eq!(err_string(read_points::<C>(&missing, 1, None, Validation::Full)), want(&missing));
    assert_eq!(err_string(read_points::<C>(&dir.0, 1, None, Validation::Full)), want(&dir.0));
    // full validation through the chunked reader
    let f = dir.0.join("valid.bin");
    write_points(&f, &points[..3000], PointFormat::Compressed).unwrap();
    assert!(read_points::<C>(&f, 3000, None, Validation::Full).unwrap().0 == points[..3000]);
}

#[test]
fn chunked_point_reads_keep_values_and_errors_bls12_377() {
    chunked_point_reads::<Bls12_377>(12);
}

#[test]
fn chunked_point_reads_keep_values_and_errors_bls12_381() {
    chunked_point_reads::<Bls12_381>(13);
}

#[test]
fn a_source_shorter_than_its_length_is_a_one_line_error() {
    use zkmsm::io::{read_scalars_from, Source};
    // a file that shrank between its size being taken and its reading
    let mut src = Source::from_reader("shrunk.bin", std::io::Cursor::new(vec![0u8; 40]), Some(64));
    let e = read_scalars_from::<Bls12_377>(&mut src, 10).err().unwrap();
    assert_eq!(
        e.to_string(),
        "shrunk.bin: byte offset 64: the file ended before its length when opened (did it change while being read?)"
    );
    let record = e.record().expect("a malformed-input error");
    assert_eq!(record.fault, zkmsm::RecordFault::Layout(zkmsm::LayoutFault::Shrank));
    assert_eq!((record.input, record.index, record.offset), (zkmsm::Input::Scalars, None, 64));
}
