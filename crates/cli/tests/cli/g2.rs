//! `--group g2`: gen -> msm round trips on the three G2s in every format
//! the curve has and on every backend, against gen's expected result (from
//! the points' discrete logs); prepared files; one-line refusals of what G2
//! has not (RTL cores, twisted Edwards, BLS12-377's EVM layout).

use crate::common::*;
use std::path::Path;

fn gen(dir: &Path, curve: &str, format: &str) -> (String, String, String) {
    let (pts, sc, exp) = (
        dir.join(format!("{curve}-{format}.pts")),
        dir.join(format!("{curve}.sc")),
        dir.join(format!("{curve}-{format}.expected")),
    );
    let o = run(cmd(&[
        "gen",
        "--curve",
        curve,
        "--group",
        "g2",
        "--log-n",
        "9",
        "--points",
        s(&pts),
        "--scalars",
        s(&sc),
        "--point-format",
        format,
        "--expected",
        s(&exp),
    ]));
    assert!(o.status.success(), "{}", stderr(&o));
    let expected = std::fs::read_to_string(&exp).unwrap().trim().to_string();
    (s(&pts).to_string(), s(&sc).to_string(), expected)
}

#[test]
fn g2_msm_round_trips_in_every_format_and_backend() {
    let dir = tempfile::tempdir().unwrap();
    // bytes per point: compressed, uncompressed, EVM (EIP-2537, EIP-197)
    for (curve, formats) in [
        ("bls12-381", &[("compressed", 96), ("uncompressed", 192), ("evm", 256)][..]),
        ("bls12-377", &[("compressed", 96), ("uncompressed", 192)][..]),
        ("bn254", &[("compressed", 64), ("uncompressed", 128), ("evm", 128)][..]),
    ] {
        for &(format, size) in formats {
            let (pts, sc, want) = gen(dir.path(), curve, format);
            assert_eq!(std::fs::metadata(&pts).unwrap().len(), 512 * size, "{curve} {format}");
            for backend in ["auto", "xyzz", "batch-affine", "batch-affine-delayed"] {
                for glv in ["on", "off"] {
                    let o = run(cmd(&[
                        "msm",
                        "--curve",
                        curve,
                        "--group",
                        "g2",
                        "--points",
                        &pts,
                        "--scalars",
                        &sc,
                        "--point-format",
                        format,
                        "--backend",
                        backend,
                        "--glv",
                        glv,
                        "--json",
                    ]));
                    assert!(o.status.success(), "{curve} {format} {backend}: {}", stderr(&o));
                    let line = String::from_utf8_lossy(&o.stdout).lines().last().unwrap().to_string();
                    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
                    assert_eq!(v["result"].as_str(), Some(want.as_str()), "{curve} {format} {backend} glv {glv}");
                    assert_eq!(v["group"], "g2");
                }
            }
        }
        // the G1 reading of G2 files is refused, never a result
        let (pts, sc, _) = gen(dir.path(), curve, "compressed");
        let o = run(cmd(&["msm", "--curve", curve, "--points", &pts, "--scalars", &sc]));
        assert!(!o.status.success());
        one_line_error(&o);
    }
}

#[test]
fn g2_prepared_files_carry_the_group() {
    let dir = tempfile::tempdir().unwrap();
    let (pts, sc, want) = gen(dir.path(), "bls12-381", "compressed");
    let prep = dir.path().join("g2.prep");
    let o = run(cmd(&["prepare", "--curve", "bls12-381", "--group", "g2", "--points", &pts, "--out", s(&prep)]));
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(cmd(&["msm", "--curve", "bls12-381", "--group", "g2", "--prepared", s(&prep), "--scalars", &sc]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(result_of(&o), want);
    // the same file opened as G1: refused, naming both
    let o = run(cmd(&["msm", "--curve", "bls12-381", "--prepared", s(&prep), "--scalars", &sc]));
    let e = one_line_error(&o);
    assert!(e.contains("bls12-381 g2"), "{e}");
}

#[test]
fn what_g2_has_not_is_refused_in_one_line() {
    for (args, says) in [
        (vec!["demo", "--curve", "bls12-377", "--group", "g2", "--backend", "twisted-edwards"], "twisted Edwards"),
        (vec!["demo", "--curve", "bls12-381", "--group", "g2", "--backend", "rtl"], "rtl"),
        (
            vec![
                "gen",
                "--curve",
                "bls12-377",
                "--group",
                "g2",
                "--log-n",
                "2",
                "--points",
                "/tmp/x",
                "--scalars",
                "/tmp/y",
                "--point-format",
                "evm",
            ],
            "EVM",
        ),
    ] {
        let o = run(cmd(&args));
        assert!(!o.status.success(), "{args:?}");
        let e = one_line_error(&o);
        assert!(e.to_lowercase().contains(&says.to_lowercase()), "{args:?}: {e}");
    }
    // and the demo runs and checks itself on each G2
    for curve in ["bls12-381", "bls12-377", "bn254"] {
        let o = run(cmd(&["demo", "--curve", curve, "--group", "g2", "--log-n", "8", "--json"]));
        assert!(o.status.success(), "{curve}: {}", stderr(&o));
        let line = String::from_utf8_lossy(&o.stdout).lines().last().unwrap().to_string();
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!((v["check"].as_bool(), v["group"].as_str()), (Some(true), Some("g2")), "{curve}");
    }
}
