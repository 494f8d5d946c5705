//! Inputs named the way the help offers them and errors that name the real
//! problem: `prepare --points -`, layout detection that names a bad point
//! as such, empty inputs, concatenated files, a backend the curve lacks.

mod common;
use common::*;

#[test]
fn prepare_reads_standard_input() {
    let f = Files::new("bls12-377", 4);
    let (a, b) = (f.path("a.prep"), f.path("b.prep"));
    assert!(run(f.prepare(&f.points, &a, &["--backend", "xyzz"])).status.success());
    let c = f.prepare("-".as_ref(), &b, &["--backend", "xyzz"]);
    let o = run_with_stdin(c, std::fs::read(&f.points).unwrap());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    // standard input redirected from the file itself
    let o = shell(
        "exec \"$0\" prepare --curve bls12-377 --backend xyzz --points - --out \"$2\" < \"$1\"",
        &[s(&f.points), s(&b)],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

/// 2n compressed points are as long as n uncompressed: with point 3 out of
/// the subgroup, the error names point 3, not "valid as neither".
#[test]
fn layout_detection_names_the_first_bad_point() {
    let f = Files::new("bls12-381", 3);
    let mut bytes = std::fs::read(&f.points).unwrap();
    // a point on the curve but not in the subgroup: x = 4 (compressed, y's sign bit clear)
    let bad = find_non_subgroup_point();
    bytes[3 * 48..4 * 48].copy_from_slice(&bad);
    let p = f.write("bad.bin", &bytes);
    let e = one_line_error(&run(f.prepare(&p, &f.path("o.prep"), &[])));
    assert!(e.contains("byte offset 144: point 3") && e.contains("subgroup"), "{e}");
}

/// A compressed BLS12-381 encoding of a point on the curve outside the
/// prime-order subgroup, found by trying small x with `zkmsm prepare`.
fn find_non_subgroup_point() -> [u8; 48] {
    let dir = tempfile::tempdir().unwrap();
    for x in 1u8..=40 {
        let mut e = [0u8; 48];
        e[0] = 0x80; // compressed flag
        e[47] = x;
        let p = dir.path().join("one.bin");
        std::fs::write(&p, e).unwrap();
        let o = run(cmd(&[
            "prepare",
            "--curve",
            "bls12-381",
            "--points",
            s(&p),
            "--out",
            s(&dir.path().join("o")),
            "--point-format",
            "compressed",
        ]));
        if stderr(&o).contains("subgroup") {
            return e;
        }
    }
    panic!("no small x gives a point outside the subgroup");
}

#[test]
fn empty_points_prepare_and_run_as_the_identity() {
    let f = Files::new("bls12-377", 2);
    let (p, sc, prep) = (f.write("e.p", b""), f.write("e.s", b""), f.path("e.prep"));
    let want = result_of(&run(f.msm(&p, &sc, &[])));
    let o = run(f.prepare(&p, &prep, &[]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(result_of(&run(f.msm_prepared(&prep, &sc, &[]))), want);
}

#[test]
fn concatenated_points_say_the_counts_differ() {
    let f = Files::new("bls12-377", 8);
    let mut twice = std::fs::read(&f.points).unwrap();
    twice.extend(std::fs::read(&f.points).unwrap());
    let c = cmd(&["msm", "--curve", "bls12-377", "--points", "-", "--scalars", s(&f.scalars)]);
    let e = one_line_error(&run_with_stdin(c, twice));
    assert!(e.contains("512 compressed points") && e.contains("256 scalars") && e.contains("check the counts"), "{e}");
}

#[test]
fn a_backend_the_curve_lacks_is_refused_before_reading() {
    let f = Files::new("bls12-381", 4);
    let junk = f.write("junk.bin", &[0xffu8; 48 * 16]);
    for c in [
        f.msm(&junk, &f.scalars, &["--backend", "twisted-edwards"]),
        f.prepare(&junk, &f.path("o.prep"), &["--backend", "twisted-edwards"]),
    ] {
        let e = one_line_error(&run(c));
        assert!(e.contains("no twisted Edwards form"), "{e}");
    }
}
