//! `--backend rtl`: without the `rtl` feature a one-line error that says how
//! to get it; with it (rtl/test.sh builds it) a checked demo with the core's
//! and the model's cycles in the JSON.

use std::process::Command;

fn zkmsm(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_zkmsm")).args(args).output().expect("run zkmsm")
}

#[cfg(not(feature = "rtl"))]
#[test]
fn rtl_backend_without_the_feature_says_how_to_get_it() {
    let out = zkmsm(&["demo", "--log-n", "2", "--backend", "rtl"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let last = err.lines().last().unwrap_or("");
    assert!(last.contains("--features rtl") && last.contains("Verilator"), "{err}");
}

#[test]
fn rtl_backend_is_bls12_377_only() {
    let out = zkmsm(&["demo", "--curve", "bls12-381", "--log-n", "2", "--backend", "rtl"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("BLS12-377 only"));
}

#[cfg(feature = "rtl")]
#[test]
fn rtl_demo_matches_and_reports_cycles() {
    let out = zkmsm(&["demo", "--log-n", "7", "--backend", "rtl", "--json"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let j: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(j["check"], true);
    assert_eq!(j["backend"], "rtl");
    assert!(j["rtl_cycles"].as_u64().unwrap() > 0);
    assert_eq!(j["rtl_cycles"], j["model_cycles"]);
}
