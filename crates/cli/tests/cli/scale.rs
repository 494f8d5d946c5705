//! Inputs larger than memory: `gen` streaming its outputs with the expected
//! result from the discrete logs, `prepare --memory-budget`, and a prepared
//! file streamed by `msm --prepared --memory-budget`, each equal to the
//! in-memory MSM.

use crate::common::*;

#[test]
fn gen_writes_the_expected_result_from_the_discrete_logs() {
    for (curve, format) in [("bls12-381", "compressed"), ("bls12-377", "uncompressed"), ("bn254", "evm")] {
        let dir = tempfile::tempdir().unwrap();
        let (p, sc, ex) = (dir.path().join("p"), dir.path().join("s"), dir.path().join("expected"));
        let o = run(cmd(&[
            "gen",
            "--curve",
            curve,
            "--log-n",
            "9",
            "--point-format",
            format,
            "--points",
            s(&p),
            "--scalars",
            s(&sc),
            "--expected",
            s(&ex),
        ]));
        assert!(o.status.success(), "{}", stderr(&o));
        let expected = std::fs::read_to_string(&ex).unwrap();
        let got = result_of(&run(cmd(&[
            "msm",
            "--curve",
            curve,
            "--points",
            s(&p),
            "--scalars",
            s(&sc),
            "--point-format",
            format,
        ])));
        assert_eq!(expected.trim(), got, "{curve} {format}");
        assert!(stderr(&o).contains(&got), "the expected result is printed: {}", stderr(&o));
        assert!(leftover_temporaries(dir.path()).is_empty());
    }
}

#[test]
fn prepared_files_stream_under_a_budget() {
    let f = Files::new("bls12-381", 13);
    let plain = result_of(&run(f.msm(&f.points, &f.scalars, &[])));
    // prepared in memory and out of core, each streamed under a budget
    let (mem, ooc) = (f.path("mem.prep"), f.path("ooc.prep"));
    let o = run(f.prepare(&f.points, &mem, &["--glv", "off"]));
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(f.prepare(&f.points, &ooc, &["--memory-budget", "2M"]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("chunks"), "{}", stderr(&o));
    for file in [&mem, &ooc] {
        assert_eq!(result_of(&run(f.msm_prepared(file, &f.scalars, &[]))), plain, "{file:?} mapped");
        let o = run(f.msm_prepared(file, &f.scalars, &["--memory-budget", "2M", "--json"]));
        let v: serde_json::Value = serde_json::from_str(&result_of(&o)).unwrap();
        assert_eq!(v["result"], plain.as_str(), "{file:?} streamed");
        assert!(v["chunks"].as_u64().unwrap() > 1, "{v}");
    }
    // refused up front: standard input, GLV images under a budget
    let e = one_line_error(&run(f.prepare("-".as_ref(), &f.path("x.prep"), &["--memory-budget", "2M"])));
    assert!(e.contains("--memory-budget"), "{e}");
    let e = one_line_error(&run(f.prepare(&f.points, &f.path("x.prep"), &["--memory-budget", "2M", "--glv", "on"])));
    assert!(e.contains("--glv on"), "{e}");
    let e =
        one_line_error(&run(f.prepare(&f.points, &f.path("x.prep"), &["--memory-budget", "2M", "--precompute", "4"])));
    assert!(e.contains("--precompute 4"), "{e}");
    let one = f.path("one.prep");
    let o = run(f.prepare(&f.points, &one, &["--memory-budget", "2M", "--precompute", "1"]));
    assert!(o.status.success(), "--precompute 1 is plain mode: {}", stderr(&o));
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&ooc).unwrap());
    let e = one_line_error(&run(f.msm_prepared(&mem, "-".as_ref(), &["--memory-budget", "2M"])));
    assert!(e.contains("standard input"), "{e}");
}
