//! Prepared files: every backend's layout round-trips to the same MSM, with
//! and without fixed-base precomputation; and a file that is corrupt,
//! truncated, of another curve, layout or format version, or not a prepared
//! file at all is refused with a one-line error naming it.

use std::path::{Path, PathBuf};
use zkmsm::gen::{random_points, random_scalars};
use zkmsm::prepared::{records_checksum, Header, HeaderFault, CHECKSUM_BLOCK, FORMAT_VERSION};
use zkmsm::*;
use zkmsm_field::Field;

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("zkmsm-prepared-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn round_trip<C: EngineCurve>(seed: u64) {
    let mut points = random_points::<C>(300, seed).points;
    points[7] = Affine::identity();
    points[8] = points[9].neg();
    let scalars = random_scalars::<C>(300, seed + 1);
    let want = msm_bigint(&points, &scalars).unwrap();
    for choice in BackendChoice::ALL {
        for copies in [None, Some(3)] {
            let builder = MsmBuilder::new().backend(choice).precompute(copies);
            let Ok(ctx) = builder.build(&points) else { continue }; // twisted Edwards on BLS12-381
            let path = tmp(&format!("{}-{}-{copies:?}.prep", C::NAME, choice.name()));
            ctx.write_prepared(&path).unwrap();
            let back = open_prepared::<C>(&path).unwrap();
            assert_eq!(back.backend_name(), ctx.backend_name());
            assert_eq!((back.len(), back.plan()), (ctx.len(), ctx.plan()));
            let got = back.msm_report(&scalars).unwrap().result.to_affine();
            assert_eq!(got, want, "{} {} {copies:?}", C::NAME, choice.name());
            std::fs::remove_file(&path).unwrap();
        }
    }
    // no points at all
    let ctx = MsmBuilder::new().backend(BackendChoice::Xyzz).build(Vec::<Affine<C>>::new()).unwrap();
    let path = tmp(&format!("{}-empty.prep", C::NAME));
    ctx.write_prepared(&path).unwrap();
    let back = open_prepared::<C>(&path).unwrap();
    assert!(back.is_empty() && back.msm_report(&[]).unwrap().result.is_identity());
}

#[test]
fn every_layout_round_trips_bls12_377() {
    round_trip::<Bls12_377>(1);
}

#[test]
fn every_layout_round_trips_bls12_381() {
    round_trip::<Bls12_381>(2);
}

/// Rewrite the header's own checksum after editing it, so that the check
/// being tested is the one that refuses the file (versions 2 and 3: bytes 0..152).
fn reseal(bytes: &mut [u8]) {
    let sum = xxhash_rust::xxh3::xxh3_64(&bytes[..152]);
    bytes[152..160].copy_from_slice(&sum.to_le_bytes());
}

/// Reseal both checksums after editing the records.
fn reseal_all(bytes: &mut [u8]) {
    let sum = records_checksum(FORMAT_VERSION, &bytes[4096..]);
    bytes[136..144].copy_from_slice(&sum.to_le_bytes());
    reseal(bytes);
}

/// Write `bytes` to `path` and open it: refused, in one line naming the file
/// and saying `expect`; the reason.
fn refused<C: EngineCurve>(path: &Path, bytes: &[u8], expect: &str) -> PreparedRefusal {
    std::fs::write(path, bytes).unwrap();
    let err = match open_prepared::<C>(path) {
        Ok(_) => panic!("accepted a file that should be refused ({expect})"),
        Err(e) => e,
    };
    let msg = err.to_string();
    assert!(!msg.contains('\n'), "one line: {msg}");
    assert!(msg.contains(&path.display().to_string()), "names the file: {msg}");
    assert!(msg.contains(expect), "{msg:?} should say {expect:?}");
    match err {
        MsmError::Prepared { path: p, reason } => {
            assert_eq!(p, path);
            assert!(msg.ends_with(&reason.to_string()), "{msg}");
            reason
        }
        other => panic!("not a prepared-file refusal: {other}"),
    }
}

#[test]
fn bad_files_are_refused_with_one_line() {
    let points = random_points::<Bls12_381>(100, 3).points;
    // without GLV: the damage below is placed by the one-record-per-point layout
    let ctx = MsmBuilder::new().backend(BackendChoice::Xyzz).glv(GlvMode::Off).build(&points).unwrap();
    let good = tmp("good.prep");
    ctx.write_prepared(&good).unwrap();
    let bytes = std::fs::read(&good).unwrap();
    let header = Header::decode(&bytes).unwrap();
    assert_eq!((header.version, header.points, header.layout.as_str()), (FORMAT_VERSION, 100, "affine-mont64"));
    let path = tmp("bad.prep");

    let r = refused::<Bls12_381>(&path, b"definitely not", "not a zkmsm prepared file");
    assert_eq!((r.kind(), r), (RefusalKind::NotPrepared, PreparedRefusal::NotPrepared));
    let r = refused::<Bls12_381>(&path, &bytes[..100], "truncated");
    assert!(r.is_damaged() && matches!(r, PreparedRefusal::TruncatedHeader { len: 100, .. }), "{r:?}");
    let r = refused::<Bls12_381>(&path, &bytes[..bytes.len() - 1], "truncated");
    let promised = header.data_bytes;
    assert_eq!(r, PreparedRefusal::Truncated { promised, have: promised - 1 });
    assert!(r.is_damaged() && !r.is_incompatible());
    let mut b = bytes.clone();
    b.push(0);
    let r = refused::<Bls12_381>(&path, &b, "trailing bytes");
    assert_eq!(r, PreparedRefusal::TrailingBytes { promised, have: promised + 1 });
    // a flipped bit in the points, in the header
    let mut b = bytes.clone();
    b[4096 + 1000] ^= 4;
    let r = refused::<Bls12_381>(&path, &b, "checksum mismatch");
    assert_eq!((r.kind(), r), (RefusalKind::Damaged, PreparedRefusal::Checksum));
    let mut b = bytes.clone();
    b[105] ^= 1;
    let r = refused::<Bls12_381>(&path, &b, "header checksum mismatch");
    assert_eq!((r.kind(), r), (RefusalKind::Damaged, PreparedRefusal::HeaderChecksum));
    // another curve: intact, but not for this use
    let r = refused::<Bls12_377>(&path, &bytes, "prepared for bls12-381, not bls12-377");
    assert_eq!(r, PreparedRefusal::OtherCurve { file: "bls12-381".into(), here: "bls12-377" });
    assert!(r.is_incompatible() && !r.is_damaged());
    // another format version
    let mut b = bytes.clone();
    b[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    reseal(&mut b);
    let r = refused::<Bls12_381>(&path, &b, &format!("format version {}", FORMAT_VERSION + 1));
    assert!(matches!(r, PreparedRefusal::Version { version, .. } if version == FORMAT_VERSION + 1), "{r:?}");
    assert!(r.is_incompatible());
    // another layout (a name this backend does not run)
    let mut b = bytes.clone();
    b[64..64 + 13].copy_from_slice(b"te-precompute");
    reseal(&mut b);
    let r = refused::<Bls12_381>(&path, &b, "is not one the xyzz backend runs");
    assert_eq!(r, PreparedRefusal::LayoutNotRun { layout: "te-precompute".into(), backend: "xyzz" });
    assert!(r.is_incompatible());
    // a record size this build does not lay the layout out with
    let mut b = bytes.clone();
    let half = header.record_bytes / 2;
    b[96..100].copy_from_slice(&half.to_le_bytes());
    b[104..112].copy_from_slice(&200u64.to_le_bytes());
    b[120..128].copy_from_slice(&200u64.to_le_bytes());
    reseal(&mut b);
    let r = refused::<Bls12_381>(&path, &b, &format!("the file has {half}-byte records"));
    assert!(matches!(r, PreparedRefusal::RecordShape { file_bytes, .. } if file_bytes == half), "{r:?}");
    assert!(r.is_incompatible());
    // a data length the header's own counts contradict
    let mut b = bytes.clone();
    b[128..136].copy_from_slice(&(header.data_bytes - 8).to_le_bytes());
    reseal(&mut b);
    let r = refused::<Bls12_381>(&path, &b, "header corrupt");
    assert_eq!(r, PreparedRefusal::HeaderCorrupt(HeaderFault::DataLength));
    assert!(r.is_damaged());
    // an unknown backend name
    let mut b = bytes.clone();
    b[32..38].copy_from_slice(b"nosuch");
    reseal(&mut b);
    let r = refused::<Bls12_381>(&path, &b, "unknown backend");
    assert!(matches!(&r, PreparedRefusal::UnknownBackend { name } if name.starts_with("nosuch")), "{r:?}");
    // a record that is not a valid value (infinity flag 2), checksums resealed
    let mut b = bytes.clone();
    let flag = core::mem::offset_of!(Affine<Bls12_381>, infinity);
    b[4096 + flag] = 2;
    reseal_all(&mut b);
    let r = refused::<Bls12_381>(&path, &b, "not a valid");
    assert_eq!(r, PreparedRefusal::InvalidRecord { layout: "affine-mont64".into() });
    assert!(r.is_damaged());
    // a coordinate at or above q, checksums resealed
    let mut b = bytes.clone();
    let x = core::mem::offset_of!(Affine<Bls12_381>, x);
    b[4096 + x..4096 + x + 48].fill(0xff);
    reseal_all(&mut b);
    refused::<Bls12_381>(&path, &b, "not a valid");
    // the point at infinity with a coordinate left in it
    let mut b = bytes.clone();
    let (x, flag) = (core::mem::offset_of!(Affine<Bls12_381>, x), core::mem::offset_of!(Affine<Bls12_381>, infinity));
    b[4096 + flag] = 1;
    b[4096 + x] = 1;
    reseal_all(&mut b);
    refused::<Bls12_381>(&path, &b, "not a valid");
    // an empty file, a file cut inside the magic
    refused::<Bls12_381>(&path, b"", "truncated: 0 bytes");
    refused::<Bls12_381>(&path, b"ZKMS", "truncated: 4 bytes");
    // a byte of the reserved part of the header
    let mut b = bytes.clone();
    b[4000] = 1;
    let r = refused::<Bls12_381>(&path, &b, "reserved byte 4000 is not zero");
    assert_eq!(r, PreparedRefusal::HeaderCorrupt(HeaderFault::ReservedByte { at: 4000 }));
    // the GLV images field: neither 0 nor 1, or its padding not zero
    for (at, v) in [(144usize, 2u32), (144, u32::MAX), (148, 1)] {
        let mut b = bytes.clone();
        b[at..at + 4].copy_from_slice(&v.to_le_bytes());
        reseal(&mut b);
        refused::<Bls12_381>(&path, &b, "header corrupt: GLV images field");
    }
    // images claimed where the records are the n points only
    let mut b = bytes.clone();
    b[144] = 1;
    reseal(&mut b);
    let r = refused::<Bls12_381>(&path, &b, "not 2 x points");
    assert_eq!(r, PreparedRefusal::HeaderCorrupt(HeaderFault::RecordCount { glv_images: true }));
    // --glv on a file without images: intact, re-prepared with GLV on
    std::fs::write(&path, &bytes).unwrap();
    let err = open_prepared_with::<Bls12_381>(&path, GlvMode::On).err().unwrap();
    assert_eq!(err.refusal(), Some(&PreparedRefusal::NoGlvImages));
    assert!(err.refusal().unwrap().is_incompatible());
    let err = err.to_string();
    assert!(err.contains("no GLV images") && !err.contains('\n') && err.contains(&path.display().to_string()), "{err}");
    // the good file still opens
    assert!(open_prepared::<Bls12_381>(&good).is_ok());
    // no such file
    let err = open_prepared::<Bls12_381>(&tmp("missing.prep")).err().unwrap();
    assert!(matches!(err, MsmError::Io { .. }));
}

/// The lane engines' layouts (fma51-point51 without IFMA, ifma52-point52
/// with it, affine-mont64 where neither runs): a limb beyond the radix, with
/// both checksums resealed, is refused rather than fed to the arithmetic.
#[test]
fn lane_layouts_refuse_limbs_beyond_their_radix() {
    let points = random_points::<Bls12_381>(64, 4).points;
    let ctx = MsmBuilder::new().backend(BackendChoice::BatchAffineGreedy).build(&points).unwrap();
    let good = tmp("lanes.prep");
    ctx.write_prepared(&good).unwrap();
    let bytes = std::fs::read(&good).unwrap();
    let header = Header::decode(&bytes).unwrap();
    let layout = header.layout.as_str();
    assert!(["fma51-point51", "ifma52-point52", "affine-mont64"].contains(&layout), "{layout}");
    if layout == "affine-mont64" {
        return; // no lane arithmetic on this CPU: the other test covers this layout
    }
    assert_eq!(header.record_bytes, 128);
    let scalars = random_scalars::<Bls12_381>(64, 5);
    let want = msm_bigint(&points, &scalars).unwrap();
    let back = open_prepared::<Bls12_381>(&good).unwrap();
    assert_eq!(back.msm_report(&scalars).unwrap().result.to_affine(), want);
    let path = tmp("lanes-bad.prep");
    for (record, limb) in [(0usize, 0usize), (63, 7), (5, 12)] {
        let mut b = bytes.clone();
        let at = 4096 + 128 * record + 8 * limb;
        b[at..at + 8].copy_from_slice(&(1u64 << 60).to_le_bytes());
        reseal_all(&mut b);
        let r = refused::<Bls12_381>(&path, &b, "beyond its radix");
        assert_eq!(r, PreparedRefusal::NotCanonical { layout: layout.into() });
        assert!(r.is_damaged());
    }
    // a coordinate equal to q, in the layout's radix
    let radix = if layout == "fma51-point51" { 51 } else { 52 };
    let qm1 = (-zkmsm_field::Bls12_381Fq::ONE).to_bytes_le();
    let mut q: Vec<u64> = (0..6).map(|i| u64::from_le_bytes(qm1[8 * i..8 * i + 8].try_into().unwrap())).collect();
    q[0] += 1; // q is odd: no carry
    let bit = |k: usize| k < 384 && q[k / 64] >> (k % 64) & 1 == 1;
    for coordinate in [0usize, 1] {
        let mut b = bytes.clone();
        for limb in 0..8 {
            let v = (0..radix).fold(0u64, |l, j| l | (bit(radix * limb + j) as u64) << j);
            let at = 4096 + 128 * 9 + 64 * coordinate + 8 * limb;
            b[at..at + 8].copy_from_slice(&v.to_le_bytes());
        }
        reseal_all(&mut b);
        refused::<Bls12_381>(&path, &b, "at or above q");
    }
}

/// A changed byte anywhere is refused: every byte of the header's used part
/// (fields and checksum), reserved bytes, and records at the start, the
/// middle and the end; each refusal one line naming the file.
#[test]
fn a_changed_byte_anywhere_is_refused() {
    let points = random_points::<Bls12_377>(40, 6).points;
    let ctx = MsmBuilder::new().backend(BackendChoice::TwistedEdwards).precompute(Some(2)).build(&points).unwrap();
    let good = tmp("anybyte.prep");
    ctx.write_prepared(&good).unwrap();
    let bytes = std::fs::read(&good).unwrap();
    let path = tmp("anybyte-bad.prep");
    let len = bytes.len();
    let positions = (0..160).chain([160, 1000, 4095, 4096, 4097, 4096 + len / 2 - 2048, len - 1]);
    for at in positions {
        for bit in [0u8, 7] {
            let mut b = bytes.clone();
            b[at] ^= 1 << bit;
            std::fs::write(&path, &b).unwrap();
            let err = open_prepared::<Bls12_377>(&path).err().unwrap_or_else(|| panic!("byte {at} bit {bit} accepted"));
            let msg = err.to_string();
            let kind = err.refusal().unwrap_or_else(|| panic!("byte {at}: {msg}")).kind();
            // the magic: not a prepared file; the version: another (or, with
            // the header checksum failing, damaged); anywhere else: damaged
            match at {
                0..8 => assert_eq!(kind, RefusalKind::NotPrepared, "byte {at}: {msg}"),
                8..12 => assert_ne!(kind, RefusalKind::NotPrepared, "byte {at}: {msg}"),
                _ => assert_eq!(kind, RefusalKind::Damaged, "byte {at}: {msg}"),
            }
            assert!(!msg.contains('\n') && msg.contains(&path.display().to_string()), "byte {at}: {msg}");
        }
    }
}

/// A header whose precomputation does not fit its window (or whose window
/// is out of range, or set without precomputation) is refused, not planned
/// with (Plan::with_window would panic on a window out of range).
#[test]
fn precompute_and_window_must_agree() {
    use zkmsm::fixed_base::Precompute;
    let points = random_points::<Bls12_381>(50, 7).points;
    let path = tmp("window-bad.prep");
    let ctx = MsmBuilder::new().backend(BackendChoice::Xyzz).precompute(Some(6)).build(&points).unwrap();
    let good = tmp("window.prep");
    ctx.write_prepared(&good).unwrap();
    let bytes = std::fs::read(&good).unwrap();
    let header = Header::decode(&bytes).unwrap();
    assert!(header.copies > 1 && header.window > 0, "{header:?}");
    let with_window = |c: u32| {
        let mut b = bytes.clone();
        b[116..120].copy_from_slice(&c.to_le_bytes());
        reseal(&mut b);
        b
    };
    for c in [0, 21, u32::MAX] {
        refused::<Bls12_381>(&path, &with_window(c), "does not fit window");
    }
    let misfit = (1..=20)
        .find(|&c| Precompute::new(Plan::with_window(c, 255), header.copies).copies != header.copies)
        .expect("a window the copies do not fit");
    refused::<Bls12_381>(&path, &with_window(misfit), &format!("does not fit window c = {misfit}"));
    // a window without precomputation
    let plain = MsmBuilder::new().backend(BackendChoice::Xyzz).build(&points).unwrap();
    plain.write_prepared(&good).unwrap();
    let mut b = std::fs::read(&good).unwrap();
    b[116..120].copy_from_slice(&5u32.to_le_bytes());
    reseal(&mut b);
    let r = refused::<Bls12_381>(&path, &b, "0 copies does not fit window c = 5");
    assert_eq!(r, PreparedRefusal::HeaderCorrupt(HeaderFault::Window { copies: 0, window: 5, max: 20 }));
}

/// A file prepared with GLV: the images flag (from version 2), 2n records that
/// run GLV (auto, on) or the first n without it (off), to the same result;
/// every byte of the images is covered by the checksum and the length; the
/// flag and the record count must agree.
#[test]
fn glv_images_round_trip_and_damage_is_refused() {
    let mut points = random_points::<Bls12_381>(300, 8).points;
    points[3] = Affine::identity();
    points[4] = points[5].neg();
    let scalars = random_scalars::<Bls12_381>(300, 9);
    let want = msm_bigint(&points, &scalars).unwrap();
    let backends = [BackendChoice::Xyzz, BackendChoice::BatchAffineGreedy, BackendChoice::BatchAffineDelayed];
    for choice in backends {
        let ctx = MsmBuilder::new().backend(choice).glv(GlvMode::On).build(&points).unwrap();
        assert!(ctx.glv());
        let path = tmp(&format!("glv-{}.prep", choice.name()));
        ctx.write_prepared(&path).unwrap();
        let header = Header::decode(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(
            (header.version, header.glv_images, header.points, header.records),
            (FORMAT_VERSION, true, 300, 600)
        );
        for (mode, glv) in [(GlvMode::Auto, true), (GlvMode::On, true), (GlvMode::Off, false)] {
            let back = open_prepared_with::<Bls12_381>(&path, mode).unwrap();
            assert_eq!((back.glv(), back.len(), back.backend_name()), (glv, 300, ctx.backend_name()), "{mode:?}");
            assert_eq!(back.plan(), if glv { ctx.plan() } else { Plan::for_size(300, 255) }, "{mode:?}");
            assert_eq!(back.msm_report(&scalars).unwrap().result.to_affine(), want, "{} {mode:?}", choice.name());
        }
        assert!(open_prepared::<Bls12_381>(&path).unwrap().glv(), "auto runs the images");
        std::fs::remove_file(&path).unwrap();
    }
    // GLV is refused with fixed-base precomputation, so no file has both
    assert!(MsmBuilder::new().glv(GlvMode::On).precompute(Some(2)).build(&points).is_err());

    let ctx = MsmBuilder::new().backend(BackendChoice::Xyzz).glv(GlvMode::On).build(&points).unwrap();
    let good = tmp("glv-good.prep");
    ctx.write_prepared(&good).unwrap();
    let bytes = std::fs::read(&good).unwrap();
    let header = Header::decode(&bytes).unwrap();
    let rec = header.record_bytes as usize;
    let images = 4096 + 300 * rec; // where the images start
    let path = tmp("glv-bad.prep");
    for mode in [GlvMode::Auto, GlvMode::Off] {
        let open = |b: &[u8], expect: &str| {
            std::fs::write(&path, b).unwrap();
            let err = open_prepared_with::<Bls12_381>(&path, mode).err().unwrap_or_else(|| panic!("{mode:?} {expect}"));
            let msg = err.to_string();
            assert!(matches!(err, MsmError::Prepared { .. }) && !msg.contains('\n'), "{msg}");
            assert!(msg.contains(expect) && msg.contains(&path.display().to_string()), "{msg:?}: {expect:?}");
        };
        // a flipped bit in the images: first, middle, last record
        for at in [images, images + 150 * rec + 17, bytes.len() - 1] {
            let mut b = bytes.clone();
            b[at] ^= 0x10;
            open(&b, "checksum mismatch");
        }
        // truncated inside the images (even at a record boundary)
        open(&bytes[..images + 7 * rec], "truncated");
        open(&bytes[..bytes.len() - 3], "truncated");
        // the flag cleared: 2n records are not n points
        let mut b = bytes.clone();
        b[144] = 0;
        reseal(&mut b);
        open(&b, "not points x copies");
        // images with precomputation copies
        let mut b = bytes.clone();
        b[112..116].copy_from_slice(&2u32.to_le_bytes());
        b[116..120].copy_from_slice(&10u32.to_le_bytes());
        reseal(&mut b);
        open(&b, "GLV images with fixed-base precomputation");
        // the record count and length of n points, the flag still set
        let mut b = bytes[..images].to_vec();
        b[120..128].copy_from_slice(&300u64.to_le_bytes());
        b[128..136].copy_from_slice(&((300 * rec) as u64).to_le_bytes());
        reseal_all(&mut b);
        open(&b, "not 2 x points");
        // another curve, another version
        std::fs::write(&path, &bytes).unwrap();
        let err = open_prepared_with::<Bls12_377>(&path, mode).err().unwrap().to_string();
        assert!(err.contains("prepared for bls12-381, not bls12-377"), "{err}");
        let mut b = bytes.clone();
        b[8..12].copy_from_slice(&4u32.to_le_bytes());
        reseal(&mut b);
        open(&b, "format version 4; this zkmsm reads versions 1 to 3");
    }
    // an image record that is not a valid value is refused when GLV runs
    // (under off it is not mapped: only the n points are used)
    let mut b = bytes.clone();
    let flag = core::mem::offset_of!(Affine<Bls12_381>, infinity);
    b[images + 5 * rec + flag] = 2;
    reseal_all(&mut b);
    refused::<Bls12_381>(&path, &b, "not a valid");
    let off = open_prepared_with::<Bls12_381>(&path, GlvMode::Off).unwrap();
    assert_eq!(off.msm_report(&scalars).unwrap().result.to_affine(), want);
}

/// A version-1 file (before GLV images: its header checksum at 144, nothing
/// after) is still read, without GLV; `--glv on` on it is refused.
#[test]
fn version_1_files_are_still_read() {
    let points = random_points::<Bls12_377>(120, 10).points;
    let scalars = random_scalars::<Bls12_377>(120, 11);
    let want = msm_bigint(&points, &scalars).unwrap();
    for choice in [BackendChoice::Xyzz, BackendChoice::BatchAffineGreedy, BackendChoice::TwistedEdwards] {
        let ctx = MsmBuilder::new().backend(choice).glv(GlvMode::Off).build(&points).unwrap();
        let path = tmp(&format!("v1-{}.prep", choice.name()));
        ctx.write_prepared(&path).unwrap();
        let mut b = std::fs::read(&path).unwrap();
        // rewrite as version 1 (the records' checksum of all of them at once)
        b[8..12].copy_from_slice(&1u32.to_le_bytes());
        let records = xxhash_rust::xxh3::xxh3_64(&b[4096..]);
        b[136..144].copy_from_slice(&records.to_le_bytes());
        b[144..160].fill(0);
        let sum = xxhash_rust::xxh3::xxh3_64(&b[..144]);
        b[144..152].copy_from_slice(&sum.to_le_bytes());
        std::fs::write(&path, &b).unwrap();
        let header = Header::decode(&b).unwrap();
        assert_eq!((header.version, header.glv_images), (1, false));
        for mode in [GlvMode::Auto, GlvMode::Off] {
            let back = open_prepared_with::<Bls12_377>(&path, mode).unwrap();
            assert!(!back.glv());
            assert_eq!(back.msm_report(&scalars).unwrap().result.to_affine(), want, "{}", choice.name());
        }
        let err = open_prepared_with::<Bls12_377>(&path, GlvMode::On).err().unwrap().to_string();
        assert!(err.contains("no GLV images (version 1"), "{err}");
        // a version-1 header is checksummed over 0..144: a byte in 144..152 changed is refused
        b[150] ^= 1;
        refused::<Bls12_377>(&path, &b, "header checksum mismatch");
        // and its bytes from 152 on are reserved
        b[150] ^= 1;
        b[155] = 1;
        refused::<Bls12_377>(&path, &b, "reserved byte 155 is not zero");
        std::fs::remove_file(&path).unwrap();
    }
}

/// Version 3's records checksum is the documented construction (XXH3-64 of
/// the blocks' XXH3-64s), computed here on its own; a file of several
/// blocks round-trips and a flipped bit in any block (first, a middle one,
/// the last, short one) is refused; the same file rewritten as version 2
/// (one XXH3-64 of all the records) is still read, and refused when its
/// checksum is version 3's.
#[test]
fn checksum_by_blocks_and_version_2_files() {
    // 12,000 points of 104 bytes and their GLV images: 2.4 MiB, 3 blocks
    let points = random_points::<Bls12_381>(12_000, 12).points;
    let scalars = random_scalars::<Bls12_381>(12_000, 13);
    let want = msm_bigint(&points, &scalars).unwrap();
    let ctx = MsmBuilder::new().backend(BackendChoice::Xyzz).glv(GlvMode::On).build(&points).unwrap();
    let good = tmp("blocks.prep");
    ctx.write_prepared(&good).unwrap();
    let bytes = std::fs::read(&good).unwrap();
    let header = Header::decode(&bytes).unwrap();
    let records = &bytes[4096..];
    assert_eq!(header.version, FORMAT_VERSION);
    assert!(records.len() > 2 * CHECKSUM_BLOCK && !records.len().is_multiple_of(CHECKSUM_BLOCK), "{}", records.len());
    let sums: Vec<u8> =
        records.chunks(CHECKSUM_BLOCK).flat_map(|b| xxhash_rust::xxh3::xxh3_64(b).to_le_bytes()).collect();
    assert_eq!(sums.len(), 8 * records.len().div_ceil(CHECKSUM_BLOCK));
    assert_eq!(header.data_checksum, xxhash_rust::xxh3::xxh3_64(&sums));
    assert_eq!(header.data_checksum, records_checksum(FORMAT_VERSION, records));
    assert_ne!(header.data_checksum, xxhash_rust::xxh3::xxh3_64(records));
    assert_eq!(open_prepared::<Bls12_381>(&good).unwrap().msm_report(&scalars).unwrap().result.to_affine(), want);

    let path = tmp("blocks-bad.prep");
    let last = bytes.len() - 1;
    for at in [4096, 4096 + CHECKSUM_BLOCK - 1, 4096 + CHECKSUM_BLOCK, 4096 + 2 * CHECKSUM_BLOCK + 5, last] {
        let mut b = bytes.clone();
        b[at] ^= 0x40;
        refused::<Bls12_381>(&path, &b, "checksum mismatch");
    }
    // two blocks swapped: every block's hash is right, their order is not
    let mut b = bytes.clone();
    let (first, second) = (4096..4096 + CHECKSUM_BLOCK, 4096 + CHECKSUM_BLOCK..4096 + 2 * CHECKSUM_BLOCK);
    let a = b[first.clone()].to_vec();
    b.copy_within(second.clone(), first.start);
    b[second].copy_from_slice(&a);
    refused::<Bls12_381>(&path, &b, "checksum mismatch");

    // as version 2: read with the whole-records checksum, refused with the blocks'
    let mut v2 = bytes.clone();
    v2[8..12].copy_from_slice(&2u32.to_le_bytes());
    reseal(&mut v2);
    refused::<Bls12_381>(&path, &v2, "checksum mismatch");
    let whole = xxhash_rust::xxh3::xxh3_64(&v2[4096..]);
    v2[136..144].copy_from_slice(&whole.to_le_bytes());
    reseal(&mut v2);
    std::fs::write(&path, &v2).unwrap();
    assert_eq!(Header::decode(&v2).unwrap().version, 2);
    for mode in [GlvMode::Auto, GlvMode::Off] {
        let back = open_prepared_with::<Bls12_381>(&path, mode).unwrap();
        assert_eq!(back.msm_report(&scalars).unwrap().result.to_affine(), want, "{mode:?}");
    }
    let mut b = v2.clone();
    b[4096 + 777] ^= 1;
    refused::<Bls12_381>(&path, &b, "checksum mismatch");
}
