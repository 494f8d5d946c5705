//! `zkmsm prepare` and `zkmsm msm --prepared` end to end: the same result as
//! `msm --points`, the backend and precomputation the file fixes, and
//! one-line refusals of files that are corrupt, truncated, of another curve,
//! or not prepared files.

use std::path::Path;
use std::process::{Command, Output};

fn zkmsm(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zkmsm")).args(args).output().expect("run zkmsm")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

fn last_line(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).lines().last().unwrap_or("").to_string()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The one line of a failed run's standard error.
fn refusal(o: &Output) -> String {
    assert!(!o.status.success());
    let e = stderr(o);
    assert_eq!(e.trim_end().lines().count(), 1, "one line: {e}");
    e
}

#[test]
fn prepared_files_give_the_points_files_result() {
    let dir = tempfile::tempdir().unwrap();
    for curve in ["bls12-377", "bls12-381"] {
        let (pts, sc) = (dir.path().join(format!("{curve}.pts")), dir.path().join(format!("{curve}.sc")));
        let o = zkmsm(&["gen", "--curve", curve, "--log-n", "8", "--points", s(&pts), "--scalars", s(&sc)]);
        assert!(o.status.success(), "{}", stderr(&o));
        let o = zkmsm(&["msm", "--curve", curve, "--points", s(&pts), "--scalars", s(&sc)]);
        assert!(o.status.success(), "{}", stderr(&o));
        let want = last_line(&o);
        let mut backends = vec!["auto", "xyzz", "batch-affine"];
        if curve == "bls12-377" {
            backends.push("twisted-edwards");
        }
        for backend in backends {
            for extra in [vec![], vec!["--precompute", "2"]] {
                let prep = dir.path().join(format!("{curve}-{backend}-{}.prep", extra.len()));
                // 2^8 compressed points are as long as 2^7 uncompressed: say which
                let mut args = vec!["prepare", "--curve", curve, "--points", s(&pts), "--point-format", "compressed"];
                args.extend(["--out", s(&prep)]);
                args.extend(["--backend", backend]);
                args.extend(&extra);
                let o = zkmsm(&args);
                assert!(o.status.success(), "{args:?}: {}", stderr(&o));
                let o = zkmsm(&["msm", "--curve", curve, "--prepared", s(&prep), "--scalars", s(&sc), "--json"]);
                assert!(o.status.success(), "{backend} {extra:?}: {}", stderr(&o));
                let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
                assert_eq!(json["result"], want.as_str(), "{curve} {backend} {extra:?}");
                if backend != "auto" {
                    assert!(json["backend"].as_str().unwrap().starts_with(backend), "{json}");
                }
            }
        }
        // --prepared fixes the backend: asking for one too is refused by the parser
        let prep = dir.path().join(format!("{curve}-xyzz-0.prep"));
        let o = zkmsm(&["msm", "--curve", curve, "--prepared", s(&prep), "--scalars", s(&sc), "--backend", "xyzz"]);
        assert!(!o.status.success());
    }
}

#[test]
fn bad_prepared_files_are_refused_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let (pts, sc) = (dir.path().join("p.pts"), dir.path().join("p.sc"));
    let o = zkmsm(&["gen", "--curve", "bls12-381", "--log-n", "6", "--points", s(&pts), "--scalars", s(&sc)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let prep = dir.path().join("good.prep");
    let o = zkmsm(&[
        "prepare",
        "--curve",
        "bls12-381",
        "--points",
        s(&pts),
        "--out",
        s(&prep),
        "--point-format",
        "compressed",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let good = std::fs::read(&prep).unwrap();
    let bad = dir.path().join("bad.prep");
    let run = |bytes: &[u8], curve: &str| {
        std::fs::write(&bad, bytes).unwrap();
        refusal(&zkmsm(&["msm", "--curve", curve, "--prepared", s(&bad), "--scalars", s(&sc)]))
    };
    let e = run(&good, "bls12-377");
    assert!(e.contains("bad.prep") && e.contains("prepared for bls12-381, not bls12-377"), "{e}");
    let e = run(&good[..good.len() - 100], "bls12-381");
    assert!(e.contains("bad.prep") && e.contains("truncated"), "{e}");
    let mut b = good.clone();
    let last = b.len() - 1;
    b[last] ^= 0x10;
    let e = run(&b, "bls12-381");
    assert!(e.contains("checksum mismatch"), "{e}");
    let e = run(&std::fs::read(&pts).unwrap(), "bls12-381");
    assert!(e.contains("not a zkmsm prepared file"), "{e}");
    // the points file given as --prepared, and a prepared file given as --points
    let e = refusal(&zkmsm(&["msm", "--curve", "bls12-381", "--points", s(&prep), "--scalars", s(&sc)]));
    assert!(e.contains("good.prep"), "{e}");
    // prepare refuses a bad points file the way msm does
    let mut p = std::fs::read(&pts).unwrap();
    p[10] ^= 0xff;
    let badpts = dir.path().join("bad.pts");
    std::fs::write(&badpts, &p).unwrap();
    let e = refusal(&zkmsm(&[
        "prepare",
        "--curve",
        "bls12-381",
        "--points",
        s(&badpts),
        "--out",
        s(&bad),
        "--point-format",
        "compressed",
    ]));
    assert!(e.contains("bad.pts") && e.contains("byte offset"), "{e}");
    // a size that fits two encodings: the one whose first points are valid
    // is taken; a file whose first points are valid as neither is refused
    let o = zkmsm(&["prepare", "--curve", "bls12-381", "--points", s(&pts), "--out", s(&bad)]);
    assert!(o.status.success() && stderr(&o).contains("Compressed"), "{}", stderr(&o));
    let mut p = std::fs::read(&pts).unwrap();
    p[..8].fill(0xff);
    std::fs::write(&badpts, &p).unwrap();
    let e = refusal(&zkmsm(&["prepare", "--curve", "bls12-381", "--points", s(&badpts), "--out", s(&bad)]));
    assert!(e.contains("bad.pts") && e.contains("valid as neither") && e.contains("--point-format"), "{e}");
}

/// What a prepared file fixes, refused when the run asks otherwise: scalars
/// of another count (naming both files), and a window other than the one a
/// fixed-base file was shifted for. A window on a plain file is honoured.
#[test]
fn prepared_counts_and_windows_must_match() {
    let dir = tempfile::tempdir().unwrap();
    let (pts, sc) = (dir.path().join("p.pts"), dir.path().join("p.sc"));
    let (pts7, sc7) = (dir.path().join("q.pts"), dir.path().join("q.sc"));
    for (p, q, log_n) in [(&pts, &sc, "6"), (&pts7, &sc7, "7")] {
        let o = zkmsm(&["gen", "--curve", "bls12-377", "--log-n", log_n, "--points", s(p), "--scalars", s(q)]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let o = zkmsm(&["msm", "--curve", "bls12-377", "--points", s(&pts), "--scalars", s(&sc)]);
    let want = last_line(&o);
    let (plain, fixed) = (dir.path().join("plain.prep"), dir.path().join("fixed.prep"));
    for (out, extra) in [(&plain, vec![]), (&fixed, vec!["--precompute", "3", "--window", "5"])] {
        let mut args = vec!["prepare", "--curve", "bls12-377", "--points", s(&pts), "--point-format", "compressed"];
        args.extend(["--backend", "xyzz", "--out", s(out)]);
        args.extend(extra);
        let o = zkmsm(&args);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let e = refusal(&zkmsm(&["msm", "--curve", "bls12-377", "--prepared", s(&plain), "--scalars", s(&sc7)]));
    assert!(e.contains("plain.prep: 64 prepared points, but") && e.contains("q.sc holds 128 scalars"), "{e}");
    let e = refusal(&zkmsm(&[
        "msm",
        "--curve",
        "bls12-377",
        "--prepared",
        s(&fixed),
        "--scalars",
        s(&sc),
        "--window",
        "7",
    ]));
    assert!(e.contains("fixed.prep") && e.contains("precomputed for window c = 5, not --window 7"), "{e}");
    for (file, window) in [(&fixed, "5"), (&plain, "7")] {
        let o = zkmsm(&["msm", "--curve", "bls12-377", "--prepared", s(file), "--scalars", s(&sc), "--window", window]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(last_line(&o), want, "{} --window {window}", s(file));
    }
}

/// `prepare --glv`: a file with GLV images runs GLV from the file (`--glv`
/// auto or on) or the n points without it (off), each to the points file's
/// result, `--json` saying which; `--glv on` on a file without images, and
/// GLV with `--precompute`, are refused in one line; damage in the images
/// is refused like damage anywhere.
#[test]
fn prepared_glv_images() {
    let dir = tempfile::tempdir().unwrap();
    for curve in ["bls12-377", "bls12-381"] {
        let (pts, sc) = (dir.path().join(format!("{curve}.pts")), dir.path().join(format!("{curve}.sc")));
        let mut args = vec!["gen", "--curve", curve, "--log-n", "7", "--points", s(&pts), "--scalars", s(&sc)];
        args.extend(["--point-format", "uncompressed"]);
        assert!(zkmsm(&args).status.success());
        let want = last_line(&zkmsm(&["msm", "--curve", curve, "--points", s(&pts), "--scalars", s(&sc), "--check"]));
        let mut backends = vec!["xyzz", "batch-affine"];
        if curve == "bls12-377" {
            backends.push("twisted-edwards");
        }
        let prepare = |out: &Path, extra: &[&str]| {
            let mut args = vec!["prepare", "--curve", curve, "--points", s(&pts), "--out", s(out)];
            args.extend(extra);
            zkmsm(&args)
        };
        let run = |file: &Path, glv: &str| {
            zkmsm(&["msm", "--curve", curve, "--prepared", s(file), "--scalars", s(&sc), "--glv", glv, "--json"])
        };
        for backend in backends {
            let prep = dir.path().join(format!("{curve}-{backend}-glv.prep"));
            let o = prepare(&prep, &["--backend", backend, "--glv", "on"]);
            assert!(o.status.success() && stderr(&o).contains("with GLV images"), "{}", stderr(&o));
            for (glv, ran) in [("auto", true), ("on", true), ("off", false)] {
                let o = run(&prep, glv);
                assert!(o.status.success(), "{}", stderr(&o));
                let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
                assert_eq!(json["result"], want.as_str(), "{curve} {backend} --glv {glv}");
                assert_eq!(json["glv"], ran, "{curve} {backend} --glv {glv}");
            }
        }
        // auto stores images where auto runs GLV (XYZZ at 128 points); a
        // file made with --glv off has none, and auto runs it without GLV
        let auto = dir.path().join(format!("{curve}-glvauto.prep"));
        assert!(prepare(&auto, &[]).status.success());
        let json: serde_json::Value = serde_json::from_slice(&run(&auto, "auto").stdout).unwrap();
        assert_eq!((json["result"].as_str(), json["glv"].as_bool()), (Some(want.as_str()), Some(true)));
        let plain = dir.path().join(format!("{curve}-auto.prep"));
        assert!(prepare(&plain, &["--glv", "off"]).status.success());
        let o = run(&plain, "auto");
        let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!((json["result"].as_str(), json["glv"].as_bool()), (Some(want.as_str()), Some(false)));
        let e = refusal(&run(&plain, "on"));
        assert!(e.contains("auto.prep") && e.contains("no GLV images"), "{e}");
        let e = refusal(&prepare(&dir.path().join("x.prep"), &["--glv", "on", "--precompute", "2"]));
        assert!(e.contains("--precompute 2 and --glv on do not combine"), "{e}");
        // damage inside the images: a flipped byte, a cut
        let good = std::fs::read(dir.path().join(format!("{curve}-xyzz-glv.prep"))).unwrap();
        let bad = dir.path().join("bad.prep");
        let mut b = good.clone();
        let at = b.len() - 1000;
        b[at] ^= 1;
        std::fs::write(&bad, &b).unwrap();
        for glv in ["auto", "off"] {
            let e = refusal(&run(&bad, glv));
            assert!(e.contains("bad.prep") && e.contains("checksum mismatch"), "{e}");
        }
        std::fs::write(&bad, &good[..good.len() - 1000]).unwrap();
        let e = refusal(&run(&bad, "off"));
        assert!(e.contains("bad.prep") && e.contains("truncated"), "{e}");
    }
}
