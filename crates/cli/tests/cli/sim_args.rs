//! `zkmsm sim`: arguments the model cannot run are refused in one line
//! naming the argument, before any work; never a panic, an abort, a silent
//! adjustment, an `inf`/`NaN` figure, or a run without bound.

use crate::common::*;

fn refused(args: &[&str], names: &str) {
    let mut all = vec!["sim"];
    all.extend_from_slice(args);
    let e = one_line_error(&run(cmd(&all)));
    assert!(e.contains(names), "{args:?}: {e}");
}

#[test]
fn thesis_refuses_windows_sizes_and_counts_out_of_range() {
    for w in ["0", "1", "21", "4294967295"] {
        refused(&["thesis", "--window", w], &format!("--window {w}"));
    }
    for n in ["0", "18446744073709551615", "10000000000"] {
        refused(&["thesis", "--n", n], &format!("--n {n}"));
    }
    refused(&["thesis", "--depth", "0"], "--depth 0");
    refused(&["thesis", "--k-max", "1000000"], "--k-max 1000000");
}

#[test]
fn model_parameters_must_make_sense() {
    for (args, names) in [
        (&["--adders", "0"][..], "--adders 0"),
        (&["--banks", "0"][..], "--banks 0"),
        (&["--ports", "0"][..], "--ports 0"),
        (&["--depth", "0"][..], "--depth 0"),
        (&["--freq-mhz", "0"][..], "--freq-mhz 0"),
        (&["--freq-mhz", "NaN"][..], "--freq-mhz NaN"),
        (&["--freq-mhz=-5"][..], "--freq-mhz -5"),
        (&["--freq-mhz", "inf"][..], "--freq-mhz inf"),
        (&["--scheduler", "core", "--cores", "100000"][..], "--cores 100000"),
        (&["--scheduler", "core", "--cmax", "40"][..], "--cmax 40"),
        (&["--scheduler", "core", "--read-latency", "0"][..], "--read-latency 0"),
        (&["--scheduler", "hardcaml", "--stall-fifo", "0"][..], "--stall-fifo 0"),
        (&["--scheduler", "zprize", "--cus", "0"][..], "--cus 0"),
        (&["--log-n", "40"][..], "--log-n 40"),
        (&["--window", "25", "--log-n", "10"][..], "--window 25"),
        (&["sweep", "--out", "/tmp/never-written", "--c-min", "21", "--c-max", "24"][..], "--c-max 24"),
        (&["--n", "100000000000"][..], "--n 100000000000"),
        (&["sweep", "--out", "/tmp/never-written", "--log-n", "64"][..], "--log-n 64"),
        (&["sweep", "--out", "/tmp/never-written", "--depths", "10,0"][..], "--depths 0"),
    ] {
        refused(args, names);
    }
}
