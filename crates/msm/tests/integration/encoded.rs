//! The byte-level core of the bindings (`zkmsm::encoded`) against the CLI's
//! own path (files read by `zkmsm::io`, a context, the hex result), on both
//! curves, every point layout, fixed-base mode and shard sums; and its errors
//! (which input, index, byte offset).

use zkmsm::encoded::{self, ContextOptions, Curve, EncodedContext, ErrorKind};
use zkmsm::gen::{random_points, random_scalars};
use zkmsm::io::{encode_points, encode_scalars, read_points, read_scalars, result_hex};
use zkmsm::*;
use zkmsm::{Input, LayoutFault, PointFault, RecordFault};
use zkmsm_curve::PointFormat;

fn order_minus<C: zkmsm::InputCurve>(k: u64) -> ScalarLimbs {
    let mut s = [0u64; 4];
    s[..C::ORDER.len()].copy_from_slice(C::ORDER);
    let (v, _) = s[0].overflowing_sub(k);
    s[0] = v; // r's low limb is large on both curves: no borrow
    s
}

/// The CLI's result for these files: read, validated, MSM'd, hex.
fn cli_path<C: EngineCurve>(points: &std::path::Path, scalars: &std::path::Path) -> String {
    let s = read_scalars::<C>(scalars).unwrap();
    let (p, _) = read_points::<C>(points, s.len(), None, Validation::Full).unwrap();
    let ctx = MsmBuilder::new().validation(Validation::AlreadyValidated).build(&p[..]).unwrap();
    result_hex(&ctx.msm_report(&s).unwrap().result.to_affine())
}

fn same_as_cli<C: EngineCurve>(curve: Curve) {
    let dir = tempfile::tempdir().unwrap();
    for n in [0usize, 1, 5, 300, 2048] {
        let points = random_points::<C>(n, 7).points;
        let mut scalars = random_scalars::<C>(n, 8);
        if n > 2 {
            scalars[0] = [0; 4];
            scalars[1] = order_minus::<C>(1);
        }
        let sbytes = encode_scalars(&scalars);
        let spath = dir.path().join("s.bin");
        std::fs::write(&spath, &sbytes).unwrap();
        for format in [PointFormat::Compressed, PointFormat::Uncompressed] {
            for prefixed in [false, true] {
                let pbytes = encode_points(&points, format, prefixed);
                let ppath = dir.path().join("p.bin");
                std::fs::write(&ppath, &pbytes).unwrap();
                let expected = cli_path::<C>(&ppath, &spath);
                let one_shot = encoded::msm(curve, &pbytes, &sbytes, None, ScalarEndian::Little).unwrap();
                assert_eq!(encoded::hex(&one_shot), expected, "one-shot n={n} {format:?} prefixed={prefixed}");
                for precompute in [None, Some(1), Some(3)] {
                    let opts = ContextOptions { format, precompute, ..Default::default() };
                    let ctx = EncodedContext::new(curve, &pbytes, &opts).unwrap();
                    assert_eq!(ctx.len(), n);
                    assert_eq!(encoded::hex(&ctx.msm(&sbytes).unwrap()), expected, "context n={n} x{precompute:?}");
                }
            }
        }
        // Shards: partial MSMs over ranges of the points, summed.
        if n >= 5 {
            let cut = [0, n / 3, n / 2, n];
            let partials: Vec<Vec<u8>> = cut
                .windows(2)
                .map(|w| {
                    let p = encode_points(&points[w[0]..w[1]], PointFormat::Compressed, false);
                    let ctx = EncodedContext::new(curve, &p, &ContextOptions::default()).unwrap();
                    let s = ctx.decode_scalars(&sbytes[32 * w[0]..32 * w[1]]).unwrap();
                    ctx.msm_limbs(&s, PointFormat::Uncompressed).unwrap()
                })
                .collect();
            let refs: Vec<&[u8]> = partials.iter().map(|p| &p[..]).collect();
            let sum = encoded::sum_points(curve, &refs).unwrap();
            assert_eq!(
                encoded::hex(&sum),
                encoded::hex(
                    &encoded::msm(
                        curve,
                        &encode_points(&points, PointFormat::Compressed, false),
                        &sbytes,
                        None,
                        ScalarEndian::Little
                    )
                    .unwrap()
                )
            );
        }
    }
}

#[test]
fn bls12_377_same_as_cli() {
    same_as_cli::<Bls12_377>(Curve::Bls12_377);
}

#[test]
fn bls12_381_same_as_cli() {
    same_as_cli::<Bls12_381>(Curve::Bls12_381);
}

fn errors<C: EngineCurve>(curve: Curve) {
    let points = random_points::<C>(10, 3).points;
    let size = PointFormat::Uncompressed.size::<C>();
    let good = encode_points(&points, PointFormat::Uncompressed, false);
    let opts = ContextOptions { format: PointFormat::Uncompressed, ..Default::default() };

    // A point off the curve: y of point 4 changed.
    let mut bad = points.clone();
    bad[4].y += <C::Base as zkmsm_field::Field>::ONE;
    let e = EncodedContext::new(curve, &encode_points(&bad, PointFormat::Uncompressed, false), &opts).err().unwrap();
    assert_eq!((e.kind, e.index, e.offset), (ErrorKind::Points, Some(4), Some(4 * size as u64)), "{e}");
    assert!(e.message.contains("point 4"), "{e}");
    let record = e.record.as_ref().expect("a typed record");
    assert_eq!((record.input, record.index, record.offset), (Input::Points, Some(4), 4 * size as u64));
    assert!(matches!(record.fault, RecordFault::Point(_)), "{record:?}");
    assert_eq!(e.message, format!("points: {record}"));

    // A point on the curve outside the subgroup, with the 8-byte prefix (none
    // exists where the cofactor is 1: BN254's curve is its G1).
    if C::COFACTOR != [1] {
        let outside = loop {
            let x = <C::Base as zkmsm_field::Field>::from_u64(rand::random::<u32>() as u64);
            if let Some(p) = Affine::<C>::from_x(x, false) {
                if !p.is_in_subgroup() {
                    break p;
                }
            }
        };
        let mut bad = points.clone();
        bad[9] = outside;
        let e = EncodedContext::new(curve, &encode_points(&bad, PointFormat::Uncompressed, true), &opts).err().unwrap();
        assert_eq!((e.index, e.offset), (Some(9), Some(8 + 9 * size as u64)), "{e}");
        assert!(e.message.contains("subgroup"), "{e}");
        let record = e.record.as_ref().expect("a typed record");
        assert_eq!(record.fault, RecordFault::Point(PointFault::NotInSubgroup));
        assert_eq!(
            e.message,
            format!("points: byte offset {}: point 9: not in the prime-order subgroup", 8 + 9 * size)
        );
    }

    // Truncated points; wrong length prefix.
    let e = EncodedContext::new(curve, &good[..good.len() - 5], &opts).err().unwrap();
    assert_eq!((e.kind, e.offset), (ErrorKind::Points, Some(9 * size as u64)), "{e}");
    let fault = e.record.as_ref().map(|r| &r.fault);
    assert!(matches!(fault, Some(RecordFault::Layout(LayoutFault::NotWhole { .. }))), "{e:?}");
    let mut prefixed = encode_points(&points, PointFormat::Uncompressed, true);
    prefixed[0] = 11;
    let e = EncodedContext::new(curve, &prefixed, &opts).err().unwrap();
    assert!(e.message.contains("length prefix says 11"), "{e}");
    let fault = e.record.as_ref().map(|r| r.fault.clone());
    assert_eq!(fault, Some(RecordFault::LengthPrefix { declared: 11, expected: 10 }), "{e}");

    // Scalars: r itself at index 6; truncated; too few; unknown option.
    let ctx = EncodedContext::new(curve, &good, &opts).unwrap();
    let mut scalars = random_scalars::<C>(10, 4);
    scalars[6] = order_minus::<C>(0);
    let e = ctx.msm(&encode_scalars(&scalars)).err().unwrap();
    assert_eq!((e.kind, e.index, e.offset), (ErrorKind::Scalars, Some(6), Some(6 * 32)), "{e}");
    let fault = e.record.as_ref().map(|r| r.fault.clone());
    assert_eq!(fault, Some(RecordFault::ScalarNotReduced { curve: C::NAME }), "{e}");
    let e = ctx.msm(&encode_scalars(&scalars)[..100]).err().unwrap();
    assert_eq!((e.kind, e.index, e.offset), (ErrorKind::Scalars, None, Some(96)), "{e}");
    let fault = e.record.as_ref().map(|r| r.fault.clone());
    assert_eq!(fault, Some(RecordFault::Truncated { extra: 4, size: 32 }), "{e}");
    assert_eq!(e.message, "scalars: byte offset 96: truncated scalar: 100 bytes is 3 whole 32-byte scalars plus 4");
    let e = ctx.msm(&encode_scalars(&scalars[..9])).err().unwrap();
    assert_eq!((e.kind, &e.record), (ErrorKind::LengthMismatch, &None), "{e}");
    let e = encoded::msm(curve, &good, &encode_scalars(&random_scalars::<C>(9, 5)), None, ScalarEndian::Little)
        .err()
        .unwrap();
    assert_eq!(e.kind, ErrorKind::LengthMismatch, "{e}");
    let e = EncodedContext::new(curve, &good, &ContextOptions { precompute: Some(0), ..opts }).err().unwrap();
    assert_eq!(e.kind, ErrorKind::Unsupported, "{e}");
}

#[test]
fn errors_name_input_index_and_offset() {
    errors::<Bls12_377>(Curve::Bls12_377);
    errors::<Bls12_381>(Curve::Bls12_381);
    errors::<Bn254>(Curve::Bn254);
    assert_eq!(Curve::from_name("BLS12_381"), Some(Curve::Bls12_381));
    assert_eq!(Curve::from_name("BN254"), Some(Curve::Bn254));
    assert_eq!(Curve::from_name("bls12-383"), None);
}

/// Every entry point reads scalars by one rule: the context's MSM takes the
/// 8-byte length prefix, checked against the count, as the one-shot MSM
/// does (it blamed "truncated scalar" at the end of the input).
#[test]
fn context_msm_takes_the_scalars_length_prefix() {
    let n = 300;
    let points = encode_points(&random_points::<Bls12_381>(n, 3).points, PointFormat::Compressed, false);
    let scalars = encode_scalars(&random_scalars::<Bls12_381>(n, 4));
    let ctx = EncodedContext::new(Curve::Bls12_381, &points, &ContextOptions::default()).unwrap();
    let plain = ctx.msm(&scalars).unwrap();
    let prefixed = |count: u64| [&count.to_le_bytes()[..], &scalars].concat();
    assert_eq!(ctx.msm(&prefixed(n as u64)).unwrap(), plain);
    let one_shot = encoded::msm(Curve::Bls12_381, &points, &prefixed(n as u64), None, ScalarEndian::Little).unwrap();
    assert_eq!(one_shot, plain);
    let e = ctx.msm(&prefixed(n as u64 + 1)).unwrap_err();
    assert!(e.to_string().contains("length prefix would say 300, it says 301"), "{e}");
    assert_eq!(e.offset, Some(0), "{e}");
}

/// The EVM layout is BN254's (EIP-196/197): on the BLS12 curves a context,
/// the one-shot MSM and a result in it are refused, before any point is read.
#[test]
fn evm_format_where_ethereum_has_one() {
    let points = encode_points(&random_points::<Bls12_377>(4, 3).points, PointFormat::Compressed, false);
    let scalars = encode_scalars(&random_scalars::<Bls12_377>(4, 4));
    let curve = Curve::Bls12_377;
    assert!(!curve.has_evm_format());
    let opts = ContextOptions { format: PointFormat::Evm, ..Default::default() };
    let e = EncodedContext::new(curve, &[], &opts).err().expect("refused");
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(e.to_string().contains("has no EVM point layout"), "{e}");
    let e = encoded::msm(curve, &points, &scalars, Some(PointFormat::Evm), ScalarEndian::Little).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
    let ctx = EncodedContext::new(curve, &points, &ContextOptions::default()).unwrap();
    let limbs = ctx.decode_scalars(&scalars).unwrap();
    assert_eq!(ctx.msm_limbs(&limbs, PointFormat::Evm).unwrap_err().kind, ErrorKind::Unsupported);
    assert!(Curve::Bn254.check_format(PointFormat::Evm).is_ok());
    // BLS12-381: EIP-2537's 128-byte G1 points, in and out
    assert!(Curve::Bls12_381.check_format(PointFormat::Evm).is_ok());
    let pts = random_points::<Bls12_381>(5, 5).points;
    let sc = random_scalars::<Bls12_381>(5, 6);
    let evm = encode_points(&pts, PointFormat::Evm, false);
    assert_eq!(evm.len(), 5 * 128);
    let opts = ContextOptions { format: PointFormat::Evm, ..Default::default() };
    let ctx = EncodedContext::new(Curve::Bls12_381, &evm, &opts).unwrap();
    let want = zkmsm::reference::naive_msm(&pts, &sc);
    let got = ctx.msm_limbs(&sc, PointFormat::Evm).unwrap();
    assert_eq!(got, want.to_bytes(PointFormat::Evm));
}
