//! The `zkmsm` command end to end: gen -> msm round trips, the output
//! contract, and one-line errors naming the file and byte offset.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn zkmsm(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zkmsm")).args(args).output().expect("run zkmsm")
}

fn last_line(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).lines().last().unwrap_or("").to_string()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

fn p(dir: &Path, name: &str) -> PathBuf {
    dir.join(name)
}

fn gen(dir: &Path, curve: &str, log_n: &str, format: &str) -> (String, String) {
    let (pts, sc) = (p(dir, &format!("{curve}-{format}.pts")), p(dir, &format!("{curve}.sc")));
    let o = zkmsm(&[
        "gen",
        "--curve",
        curve,
        "--log-n",
        log_n,
        "--points",
        pts.to_str().unwrap(),
        "--scalars",
        sc.to_str().unwrap(),
        "--point-format",
        format,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    (pts.to_str().unwrap().to_string(), sc.to_str().unwrap().to_string())
}

#[test]
fn gen_then_msm_agrees_across_formats_backends_and_with_the_reference() {
    let dir = tempfile::tempdir().unwrap();
    for curve in ["bls12-377", "bls12-381"] {
        let (pc, sc) = gen(dir.path(), curve, "9", "compressed");
        let (pu, _) = gen(dir.path(), curve, "9", "uncompressed");
        let o = zkmsm(&["msm", "--curve", curve, "--points", &pc, "--scalars", &sc, "--check"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let hex = last_line(&o);
        assert_eq!(hex.len(), 96);
        assert!(hex.chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
        let mut backends = vec!["xyzz", "batch-affine", "batch-affine-delayed"];
        if curve == "bls12-377" {
            backends.push("twisted-edwards");
        }
        for backend in backends {
            for extra in [vec![], vec!["--precompute", "3"], vec!["--glv", "on"], vec!["--glv", "off"]] {
                let mut args =
                    vec!["msm", "--curve", curve, "--points", &pu, "--scalars", &sc, "--backend", backend, "--json"];
                args.extend(extra.iter());
                let o = zkmsm(&args);
                assert!(o.status.success(), "{}", stderr(&o));
                let v: serde_json::Value = serde_json::from_str(&last_line(&o)).unwrap();
                assert_eq!(v["result"], hex.as_str(), "{curve} {backend} {extra:?}");
                assert!(v["msm_ms"].as_f64().unwrap() >= 0.0);
                assert!(v["phases_ms"]["accumulation"].is_number());
                match extra.get(1).copied() {
                    Some("on") => assert_eq!(v["glv"], true, "{curve} {backend}"),
                    Some("off") | Some("3") => assert_eq!(v["glv"], false, "{curve} {backend}"),
                    _ => assert!(v["glv"].is_boolean()),
                }
            }
        }
        // --glv on under a memory budget: the images made chunk by chunk; auto stays off there
        for (glv, ran) in [("on", true), ("auto", false), ("off", false)] {
            let args = ["msm", "--curve", curve, "--points", &pu, "--scalars", &sc, "--memory-budget", "64M"];
            let o = zkmsm(&[&args[..], &["--glv", glv, "--json"]].concat());
            assert!(o.status.success(), "{}", stderr(&o));
            let v: serde_json::Value = serde_json::from_str(&last_line(&o)).unwrap();
            assert_eq!((v["result"].as_str(), v["glv"].as_bool()), (Some(hex.as_str()), Some(ran)), "budget {glv}");
            // every chunk's backend is named: the list, and joined in "backend"
            let names: Vec<&str> = v["backends"].as_array().unwrap().iter().map(|b| b.as_str().unwrap()).collect();
            assert!(!names.is_empty(), "{v}");
            assert_eq!(v["backend"].as_str(), Some(names.join(" + ").as_str()), "{v}");
        }
        // --glv on where GLV cannot run is refused, in one line (a budget too small for its chunks too)
        for extra in [vec!["--precompute", "3"], vec!["--memory-budget", "1M"]] {
            let mut args = vec!["msm", "--curve", curve, "--points", &pu, "--scalars", &sc, "--glv", "on"];
            args.extend(extra.iter());
            let o = zkmsm(&args);
            assert!(!o.status.success(), "{extra:?}");
            let e = stderr(&o);
            let last = e.trim().lines().last().unwrap_or("");
            assert!(last.starts_with("zkmsm: error:") && last.contains("GLV"), "{e}");
        }
        // a prepared file without images (--glv off) runs without GLV; --glv on is refused there
        let prep = p(dir.path(), "glv.prep");
        let o = zkmsm(&["prepare", "--curve", curve, "--points", &pu, "--out", prep.to_str().unwrap(), "--glv", "off"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let o = zkmsm(&["msm", "--curve", curve, "--prepared", prep.to_str().unwrap(), "--scalars", &sc, "--json"]);
        let v: serde_json::Value = serde_json::from_str(&last_line(&o)).unwrap();
        assert_eq!((v["result"].as_str(), v["glv"].as_bool()), (Some(hex.as_str()), Some(false)), "prepared");
        let o =
            zkmsm(&["msm", "--curve", curve, "--prepared", prep.to_str().unwrap(), "--scalars", &sc, "--glv", "on"]);
        assert!(!o.status.success() && stderr(&o).contains("GLV"), "{}", stderr(&o));
        // an arkworks Vec length prefix is accepted
        let mut bytes = std::fs::read(&pc).unwrap();
        let mut prefixed = 512u64.to_le_bytes().to_vec();
        prefixed.append(&mut bytes);
        let pp = p(dir.path(), "prefixed.pts");
        std::fs::write(&pp, prefixed).unwrap();
        let o = zkmsm(&["msm", "--curve", curve, "--points", pp.to_str().unwrap(), "--scalars", &sc]);
        assert_eq!(last_line(&o), hex, "{}", stderr(&o));
    }
}

#[test]
fn demo_checks_itself_and_prints_json() {
    for curve in ["bls12-377", "bls12-381"] {
        let o = zkmsm(&["demo", "--curve", curve, "--log-n", "8", "--json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&last_line(&o)).unwrap();
        assert_eq!(v["check"], true);
        assert_eq!(v["n"], 256);
        assert!(stderr(&o).contains("MATCH"));
    }
    let o = zkmsm(&["demo", "--curve", "bls12-381", "--backend", "twisted-edwards", "--log-n", "4"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("no twisted Edwards form"), "{}", stderr(&o));
}

/// Runs msm on (points, scalars) files and returns the one-line error.
fn msm_error(curve: &str, pts: &Path, sc: &Path) -> String {
    let o = zkmsm(&["msm", "--curve", curve, "--points", pts.to_str().unwrap(), "--scalars", sc.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "expected failure, got {}", stderr(&o));
    let e = stderr(&o);
    assert_eq!(e.trim_end().lines().count(), 1, "one line: {e}");
    assert!(o.stdout.is_empty());
    e
}

#[test]
fn bad_files_give_one_line_errors_with_file_and_offset() {
    let dir = tempfile::tempdir().unwrap();
    let (pc, sc) = gen(dir.path(), "bls12-377", "4", "compressed");
    let (pc, sc) = (PathBuf::from(pc), PathBuf::from(sc));
    let pts = std::fs::read(&pc).unwrap();
    let scs = std::fs::read(&sc).unwrap();
    let w = |name: &str, b: &[u8]| {
        let f = p(dir.path(), name);
        std::fs::write(&f, b).unwrap();
        f
    };

    // truncated scalars file
    let f = w("trunc.sc", &scs[..scs.len() - 5]);
    let e = msm_error("bls12-377", &pc, &f);
    assert!(e.contains("trunc.sc") && e.contains("byte offset 480") && e.contains("truncated"), "{e}");

    // a scalar >= r
    let mut b = scs.clone();
    b[32 * 3..32 * 4].fill(0xff);
    let e = msm_error("bls12-377", &pc, &w("big.sc", &b));
    assert!(e.contains("big.sc") && e.contains("byte offset 96") && e.contains("scalar 3"), "{e}");

    // points file of the wrong size
    let e = msm_error("bls12-377", &w("short.pts", &pts[..pts.len() - 1]), &sc);
    assert!(e.contains("short.pts") && e.contains("767 bytes"), "{e}");

    // a point with bad flags, one with x >= q, one off the curve
    let mut b = pts.clone();
    b[48 * 2 + 47] |= 0xc0;
    let e = msm_error("bls12-377", &w("flags.pts", &b), &sc);
    assert!(
        e.contains("flags.pts") && e.contains("byte offset 96") && e.contains("point 2") && e.contains("flag"),
        "{e}"
    );
    let mut b = pts.clone();
    b[48 * 5..48 * 5 + 48].fill(0xff);
    b[48 * 5 + 47] = 0x3f;
    let e = msm_error("bls12-377", &w("big.pts", &b), &sc);
    assert!(e.contains("byte offset 240") && e.contains("point 5") && e.contains("canonical"), "{e}");

    // an x with no point on the curve (searched), at index 7
    let mut bad = None;
    for v in 2u8..200 {
        let mut x = [0u8; 48];
        x[0] = v;
        let mut b = pts.clone();
        b[48 * 7..48 * 8].copy_from_slice(&x);
        let f = w("nox.pts", &b);
        let o =
            zkmsm(&["msm", "--curve", "bls12-377", "--points", f.to_str().unwrap(), "--scalars", sc.to_str().unwrap()]);
        if stderr(&o).contains("no curve point") {
            bad = Some(stderr(&o));
            break;
        }
    }
    let e = bad.expect("some small x is not on the curve");
    assert!(e.contains("byte offset 336") && e.contains("point 7"), "{e}");

    // a curve point outside the subgroup, in uncompressed form (x = 0 gives y^2 = 1)
    let (pu, _) = gen(dir.path(), "bls12-377", "4", "uncompressed");
    let mut b = std::fs::read(&pu).unwrap();
    b[96 * 4..96 * 5].fill(0);
    b[96 * 4 + 48] = 1; // (0, 1): order 3
    let e = msm_error("bls12-377", &w("sub.pts", &b), &sc);
    assert!(e.contains("sub.pts") && e.contains("byte offset 384") && e.contains("subgroup"), "{e}");

    // wrong length prefix
    let mut b = 99u64.to_le_bytes().to_vec();
    b.extend_from_slice(&pts);
    let e = msm_error("bls12-377", &w("prefix.pts", &b), &sc);
    assert!(e.contains("byte offset 0") && e.contains("99"), "{e}");

    // missing file
    let e = msm_error("bls12-377", &p(dir.path(), "missing.pts"), &sc);
    assert!(e.contains("missing.pts"), "{e}");
}

#[test]
fn every_subcommand_has_help() {
    for sub in [
        vec!["--help"],
        vec!["demo", "--help"],
        vec!["gen", "--help"],
        vec!["msm", "--help"],
        vec!["bench", "--help"],
        vec!["sim", "--help"],
    ] {
        let o = zkmsm(&sub);
        assert!(o.status.success(), "{sub:?}");
        assert!(String::from_utf8_lossy(&o.stdout).contains("Usage"), "{sub:?}");
    }
}
