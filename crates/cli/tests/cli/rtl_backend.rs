//! `--backend rtl`: without the `rtl` feature a one-line error that says how
//! to get it, given before any input is read; with it (rtl/test.sh builds
//! it) `zkmsm msm` on files from `zkmsm gen` equal to the CPU engine's
//! result on both curves and both adders, and a checked demo with the
//! core's and the model's cycles in the JSON.

use std::process::Command;

fn zkmsm(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_zkmsm")).args(args).output().expect("run zkmsm")
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// The error of a run that must fail: exactly one line on standard error.
fn one_line_error(args: &[&str]) -> String {
    let out = zkmsm(args);
    assert!(!out.status.success(), "{args:?} succeeded");
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{args:?}: not one line: {err}");
    err
}

#[cfg(not(feature = "rtl"))]
#[test]
fn rtl_backend_without_the_feature_says_how_to_get_it() {
    let err = one_line_error(&["demo", "--log-n", "2", "--backend", "rtl"]);
    assert!(err.contains("--features rtl") && err.contains("Verilator"), "{err}");
}

/// The error comes before the points are read or generated: files that do
/// not exist are not named, and a demo of 2^26 points fails at once
/// (generating them would take minutes and gigabytes).
#[cfg(not(feature = "rtl"))]
#[test]
fn rtl_backend_without_the_feature_fails_before_loading() {
    let missing = "/nonexistent/zkmsm-rtl-test/points.bin";
    let args = ["msm", "--curve", "bls12-377", "--points", missing, "--scalars", missing, "--backend", "rtl"];
    let err = one_line_error(&args);
    assert!(err.contains("--features rtl") && !err.contains("nonexistent"), "{err}");
    let err = one_line_error(&["demo", "--log-n", "26", "--backend", "rtl"]);
    assert!(err.contains("--features rtl"), "{err}");
}

/// BLS12-381 and BN254 have no twisted Edwards form: `--rtl-adder edwards`
/// on them is refused in one line before any input is read (without the
/// feature, the missing cores are named first).
#[test]
fn rtl_edwards_core_is_bls12_377_only() {
    let want = if cfg!(feature = "rtl") { "no twisted Edwards form" } else { "--features rtl" };
    for curve in ["bls12-381", "bn254"] {
        let args = ["demo", "--curve", curve, "--log-n", "2", "--backend", "rtl", "--rtl-adder", "edwards"];
        let err = one_line_error(&args);
        assert!(err.contains(want), "{err}");
        let missing = "/nonexistent/zkmsm-rtl-test/points.bin";
        let args = ["msm", "--curve", curve, "--points", missing, "--scalars", missing, "--backend", "rtl"];
        let err = one_line_error(&[&args[..], &["--rtl-adder", "edwards"]].concat());
        assert!(err.contains(want) && !err.contains("nonexistent"), "{err}");
    }
}

#[test]
fn rtl_backend_has_no_fixed_base_mode() {
    let err = one_line_error(&["demo", "--log-n", "2", "--backend", "rtl", "--precompute", "2"]);
    // without the feature the missing core is named first
    let want = if cfg!(feature = "rtl") { "--precompute" } else { "--features rtl" };
    assert!(err.contains(want), "{err}");
}

#[cfg(feature = "rtl")]
#[test]
fn rtl_demo_matches_and_reports_cycles() {
    let out = zkmsm(&["demo", "--log-n", "7", "--backend", "rtl", "--json"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", stderr(&out));
    let j: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(j["check"], true);
    assert_eq!(j["backend"], "rtl");
    assert!(j["rtl_cycles"].as_u64().unwrap() > 0);
    assert_eq!(j["rtl_cycles"], j["model_cycles"]);
}

/// `zkmsm gen` files through `zkmsm msm --backend rtl --rtl-cores 2` (two
/// cores on one point stream): BLS12-381 and BN254 on the batched-affine
/// core (their default and only one), BLS12-377 on the twisted Edwards core
/// (its default) and on the batched-affine one; each the same result as the
/// CPU engine (XYZZ, and the bucket-free reference with `--check`), the
/// cores' accumulation cycles equal to the model's. A build whose
/// `ZKMSM_RTL_MODELS` left out a model refuses its case in one line instead.
#[cfg(feature = "rtl")]
#[test]
fn rtl_msm_on_files_equals_the_cpu_engine() {
    let dir = tempfile::tempdir().unwrap();
    use zkmsm_rtl::sim::Kind;
    for (curve, log_n, adder, kind) in [
        ("bls12-381", "9", None, Kind::Aff381),
        ("bls12-377", "9", None, Kind::Te),
        ("bls12-377", "6", Some("affine"), Kind::Aff377),
        ("bn254", "9", None, Kind::AffBn254),
    ] {
        let (pts, sc) = (dir.path().join(format!("p{curve}.bin")), dir.path().join(format!("s{curve}.bin")));
        let (pts, sc) = (pts.to_str().unwrap(), sc.to_str().unwrap());
        let o = zkmsm(&["gen", "--curve", curve, "--log-n", log_n, "--points", pts, "--scalars", sc, "--seed", "5"]);
        assert!(o.status.success(), "{}", stderr(&o));
        if !kind.built() {
            let args = [
                "msm",
                "--curve",
                curve,
                "--points",
                pts,
                "--scalars",
                sc,
                "--backend",
                "rtl",
                "--rtl-adder",
                "affine",
            ];
            // (the input is read first: its progress line comes before the error)
            let out = zkmsm(&args);
            assert!(!out.status.success(), "{args:?} succeeded");
            let err = stderr(&out);
            let errors: Vec<&str> = err.lines().filter(|l| l.contains("error")).collect();
            assert_eq!(errors.len(), 1, "{err}");
            assert!(errors[0].contains("ZKMSM_RTL_MODELS") && errors[0].contains(kind.model_name()), "{err}");
            continue;
        }
        let run = |backend: &str| {
            let args = ["msm", "--curve", curve, "--points", pts, "--scalars", sc, "--backend", backend, "--json"];
            let mut extra = vec!["--check"];
            if backend == "rtl" {
                extra.extend(["--rtl-cores", "2"]);
                if let Some(a) = adder {
                    extra.extend(["--rtl-adder", a]);
                }
            }
            let o = zkmsm(&[&args[..], &extra].concat());
            assert!(o.status.success(), "{curve} {backend}: {}", stderr(&o));
            let last = String::from_utf8_lossy(&o.stdout).lines().last().unwrap_or("").to_string();
            serde_json::from_str::<serde_json::Value>(&last).unwrap()
        };
        let (cpu, rtl) = (run("xyzz"), run("rtl"));
        let want_adder = adder.unwrap_or(if curve == "bls12-377" { "edwards" } else { "affine" });
        assert_eq!(rtl["backend"], "rtl");
        assert_eq!(rtl["rtl_adder"], want_adder, "{curve}");
        assert_eq!(rtl["n"], 1u64 << log_n.parse::<u32>().unwrap());
        assert_eq!(rtl["result"], cpu["result"], "{curve} {want_adder}: rtl vs CPU engine");
        assert!(rtl["rtl_additions"].as_u64().unwrap() > 0);
        assert_eq!(rtl["rtl_cores"], 2);
        assert_eq!(rtl["rtl_cycles"], rtl["model_cycles"], "{curve} {want_adder}");
    }
}

/// More cores than the simulated accelerator has (NCORES 2): one line.
#[cfg(feature = "rtl")]
#[test]
fn rtl_cores_beyond_the_built_model_are_refused() {
    // (the demo's progress lines come first: the device is asked after the inputs exist)
    let out = zkmsm(&["demo", "--log-n", "3", "--backend", "rtl", "--rtl-cores", "3"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    let errors: Vec<&str> = err.lines().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{err}");
    assert!(errors[0].contains("--rtl-cores 3") && errors[0].contains("2 cores"), "{err}");
}

#[test]
fn rtl_options_need_the_rtl_backend() {
    let err = one_line_error(&["demo", "--log-n", "3", "--backend", "xyzz", "--rtl-cores", "2"]);
    assert!(err.contains("--rtl-cores") && err.contains("--backend rtl"), "{err}");
    let err = one_line_error(&["demo", "--log-n", "3", "--backend", "xyzz", "--rtl-adder", "affine"]);
    assert!(err.contains("--rtl-adder") && err.contains("--backend rtl"), "{err}");
    let err = one_line_error(&["demo", "--log-n", "3", "--backend", "xyzz", "--rtl-aggregation", "device"]);
    assert!(err.contains("--rtl-aggregation") && err.contains("--backend rtl"), "{err}");
}

/// Device aggregation runs on every core (the twisted Edwards one too: its
/// run goes on to read the input), and a group size is taken only with it:
/// one line, before any input is read.
#[test]
fn rtl_device_aggregation_options_are_checked_early() {
    let feature = cfg!(feature = "rtl");
    let missing = "/nonexistent/zkmsm-rtl-test/points.bin";
    let args = ["msm", "--curve", "bls12-377", "--points", missing, "--scalars", missing, "--backend", "rtl"];
    let err = one_line_error(&[&args[..], &["--rtl-aggregation", "device"]].concat());
    // (or the model's refusal where the build left the `te` model out)
    let ok = if feature {
        err.contains("nonexistent") || err.contains("ZKMSM_RTL_MODELS")
    } else {
        err.contains("--features rtl")
    };
    assert!(ok, "{err}");
    let err = one_line_error(&["demo", "--curve", "bn254", "--log-n", "3", "--backend", "rtl", "--rtl-agg-log-m", "3"]);
    assert!(err.contains(if feature { "--rtl-agg-log-m applies" } else { "--features rtl" }), "{err}");
    // (clap's range check: its error line, then its hint)
    let out =
        zkmsm(&["demo", "--log-n", "3", "--backend", "rtl", "--rtl-aggregation", "device", "--rtl-agg-log-m", "16"]);
    assert!(!out.status.success());
    assert!(stderr(&out).lines().next().unwrap().contains("16 is not in 1..=15"), "{}", stderr(&out));
}

/// The demo on BN254's batched-affine core with the buckets summed on the
/// device (groups of 4): checked against the bucket-free reference, only
/// the partial sums sent, the cycles from START to the last one out equal
/// to the model's.
#[cfg(feature = "rtl")]
#[test]
fn rtl_device_aggregation_demo_matches() {
    if !zkmsm_rtl::sim::Kind::AffBn254.built() {
        return;
    }
    let args = ["demo", "--curve", "bn254", "--log-n", "6", "--backend", "rtl", "--rtl-cores", "2"];
    let out = zkmsm(&[&args[..], &["--rtl-aggregation", "device", "--rtl-agg-log-m", "2", "--json"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let j: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).lines().last().unwrap()).unwrap();
    assert_eq!(j["check"], true);
    assert_eq!(j["rtl_aggregation"], "device");
    assert_eq!(j["rtl_agg_log_m"], 2);
    assert_eq!(j["rtl_cycles"], j["model_cycles"]);
    assert_eq!(j["rtl_total_cycles"], j["model_total_cycles"]);
    assert!(stderr(&out).contains("aggregated on the device in groups of 2^2"), "{}", stderr(&out));
}

/// The demo on BLS12-377's twisted Edwards core with the buckets summed on
/// the device (groups of 4, each addition through the conversion in front
/// of the mixed adder): checked against the bucket-free reference, the
/// cycles from START to the last partial sum out equal to the model's.
#[cfg(feature = "rtl")]
#[test]
fn rtl_edwards_device_aggregation_demo_matches() {
    if !zkmsm_rtl::sim::Kind::Te.built() {
        return;
    }
    let args = ["demo", "--curve", "bls12-377", "--log-n", "5", "--backend", "rtl", "--rtl-cores", "2"];
    let out = zkmsm(&[&args[..], &["--rtl-aggregation", "device", "--rtl-agg-log-m", "2", "--json"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let j: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).lines().last().unwrap()).unwrap();
    assert_eq!(j["check"], true);
    assert_eq!(j["rtl_adder"], "edwards");
    assert_eq!(j["rtl_aggregation"], "device");
    assert_eq!(j["rtl_cycles"], j["model_cycles"]);
    assert_eq!(j["rtl_total_cycles"], j["model_total_cycles"]);
}
