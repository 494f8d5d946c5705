//! `msm --memory-budget`: every other option is honoured or refused in one
//! line, and `--json` keeps the output contract (README, "Output contract").

use crate::common::*;

fn json_of(o: &std::process::Output) -> serde_json::Value {
    serde_json::from_str(&result_of(o)).unwrap()
}

#[test]
fn options_that_hold_every_point_are_refused() {
    let f = Files::new("bls12-381", 8);
    for (extra, what) in [
        (&["--check"][..], "--check"),
        (&["--precompute", "2"][..], "--precompute"),
        // the contradiction is refused first, before the budget's rules
        (&["--glv", "on", "--precompute", "2"][..], "--precompute 2 and --glv on do not combine"),
    ] {
        let mut args = vec!["--memory-budget", "3M"];
        args.extend_from_slice(extra);
        let e = one_line_error(&run(f.msm(&f.points, &f.scalars, &args)));
        assert!(e.contains(what) && (e.contains("--memory-budget") || e.contains("do not combine")), "{extra:?}: {e}");
    }
}

#[test]
fn window_repeat_and_max_points_are_honoured() {
    let f = Files::new("bls12-381", 8);
    let want = result_of(&run(f.msm(&f.points, &f.scalars, &[])));
    let o = run(f.msm(&f.points, &f.scalars, &["--memory-budget", "3M", "--window", "3", "--repeat", "3", "--json"]));
    let j = json_of(&o);
    assert_eq!(j["result"], want.as_str());
    assert_eq!(j["window"], 3);
    assert_eq!(j["repeat"], 3);
    assert_eq!(j["msm_ms_all"].as_array().unwrap().len(), 3);
    let e = one_line_error(&run(f.msm(&f.points, &f.scalars, &["--memory-budget", "3M", "--max-points", "100"])));
    assert!(e.contains("256 points: above the input limit of 100"), "{e}");
}

#[test]
fn json_keeps_the_output_contract() {
    let f = Files::new("bls12-377", 8);
    let j = json_of(&run(f.msm(&f.points, &f.scalars, &["--memory-budget", "3M", "--json"])));
    for key in ["result", "msm_ms", "load_ms", "init_ms", "window", "windows", "backend"] {
        assert!(!j[key].is_null(), "{key} missing: {j}");
    }
    for phase in ["digits", "accumulation", "bucket_aggregation", "result_aggregation"] {
        assert!(j["phases_ms"][phase].as_f64().is_some(), "phases_ms.{phase} missing: {j}");
    }
}

#[test]
fn the_least_budget_is_shown_in_the_right_unit() {
    let f = Files::new("bls12-377", 4);
    let e = one_line_error(&run(f.msm(&f.points, &f.scalars, &["--memory-budget", "1K"])));
    // the least is reported in bytes and in MiB, rounded up, never down
    let bytes: f64 = e.split(": ").last().unwrap().split(' ').next().unwrap().parse().unwrap();
    let mib: f64 = e.rsplit('(').next().unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(mib * 1048576.0 >= bytes && (mib - 0.01) * 1048576.0 < bytes, "{e}");
}
