//! Inputs named the way the help offers them and errors that name the real
//! problem: `prepare --points -`, layout detection that names a bad point
//! as such, empty inputs, concatenated files, a backend the curve lacks.

use crate::common::*;

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

/// `--scalar-endian big` (the EVM's scalars): the scalars file with each
/// 32-byte word reversed gives the same MSM read whole, mapped against a
/// prepared file and streamed under a memory budget; `gen` writes that
/// order; a big-endian scalar >= r is named at its byte offset.
#[test]
fn big_endian_scalars_give_the_same_msm() {
    let f = Files::new("bn254", 6);
    let want = result_of(&run(f.msm(&f.points, &f.scalars, &[])));
    let le = std::fs::read(&f.scalars).unwrap();
    let be: Vec<u8> = le.chunks(32).flat_map(|w| w.iter().rev().copied()).collect();
    let bs = f.write("be.bin", &be);
    let big = ["--scalar-endian", "big"];
    assert_eq!(result_of(&run(f.msm(&f.points, &bs, &big))), want);
    let budget = ["--scalar-endian", "big", "--memory-budget", "16M"];
    assert_eq!(result_of(&run(f.msm(&f.points, &bs, &budget))), want);
    let prep = f.path("p.prep");
    assert!(run(f.prepare(&f.points, &prep, &[])).status.success());
    assert_eq!(result_of(&run(f.msm_prepared(&prep, &bs, &big))), want);
    // little-endian reading of the reversed words: other scalars, most above r
    let o = run(f.msm(&f.points, &bs, &[]));
    assert!(!o.status.success() || result_of(&o) != want);
    // gen writes big-endian scalars on request: the reversed words of its little-endian ones
    let (p2, s2) = (f.path("p2.bin"), f.path("s2.bin"));
    let o = run(cmd(&[
        "gen",
        "--curve",
        "bn254",
        "--log-n",
        "6",
        "--points",
        s(&p2),
        "--scalars",
        s(&s2),
        "--scalar-endian",
        "big",
    ]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(&s2).unwrap(), be);
    // scalar 2 above r, big-endian: its top byte is the word's first
    let mut bad = be.clone();
    bad[64] = 0xff;
    let p = f.write("bad.bin", &bad);
    let e = one_line_error(&run(f.msm(&f.points, &p, &big)));
    assert!(e.contains("byte offset 64") && e.contains("scalar 2"), "{e}");
}
