//! Hostile uses that once misled or misbehaved: each refused up front in one
//! line, or done as documented. Every test here failed against the build
//! before its fix (`ZKMSM_TEST_BIN`, see common/mod.rs).

use crate::common::*;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// A command run under an address-space limit of `kib` KiB (`ulimit -v`).
fn under_ulimit(kib: u64, args: &[&str]) -> std::process::Output {
    let script = format!("ulimit -v {kib} && exec \"$0\" \"$@\"");
    let mut c = std::process::Command::new("sh");
    c.arg("-c").arg(script).arg(bin()).args(args);
    finish_within(
        c.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap(),
        Duration::from_secs(60),
    )
}

#[test]
fn the_window_counts_in_the_memory_budget() {
    let f = Files::new("bn254", 12);
    let mut c = f.msm(&f.points, &f.scalars, &["--memory-budget", "16M", "--window", "20"]);
    c.env("RAYON_NUM_THREADS", "16");
    let e = one_line_error(&run(c));
    assert!(e.contains("below the least that works with --window 20 on 16 threads"), "{e}");
    // a window the budget holds still runs, and agrees
    let plain = result_of(&run(f.msm(&f.points, &f.scalars, &[])));
    let o = run(f.msm(&f.points, &f.scalars, &["--memory-budget", "16M", "--window", "12"]));
    assert_eq!(result_of(&o), plain);
}

#[test]
fn sizes_beyond_memory_are_refused_before_any_work() {
    for args in [
        &["demo", "--curve", "bn254", "--log-n", "26"][..],
        &["bench", "--curve", "bn254", "--log-n", "26", "--backend", "xyzz"][..],
    ] {
        let o = under_ulimit(4_000_000, args);
        let e = one_line_error(&o);
        assert!(e.contains("out of memory") && e.contains("2^26"), "{args:?}: {e}");
    }
    // msm: the files' counts give the bound (sparse files: nothing to read)
    let dir = tempfile::tempdir().unwrap();
    let (p, sc) = (dir.path().join("p.bin"), dir.path().join("s.bin"));
    std::fs::File::create(&p).unwrap().set_len(48 << 24).unwrap();
    std::fs::File::create(&sc).unwrap().set_len(32 << 24).unwrap();
    let o = under_ulimit(2_000_000, &["msm", "--curve", "bls12-381", "--points", s(&p), "--scalars", s(&sc)]);
    let e = one_line_error(&o);
    assert!(e.contains("out of memory: an MSM of 16777216 bls12-381 points"), "{e}");
}

#[test]
fn evm_format_is_refused_where_ethereum_has_none() {
    let f = Files::new("bls12-377", 3);
    let out = f.path("never");
    for args in [
        vec!["gen", "--curve", "bls12-377", "--log-n", "2", "--point-format", "evm"],
        vec!["gen", "--curve", "bls12-377", "--group", "g2", "--log-n", "2", "--point-format", "evm"],
        vec![
            "msm",
            "--curve",
            "bls12-377",
            "--points",
            s(&f.points),
            "--scalars",
            s(&f.scalars),
            "--point-format",
            "evm",
        ],
        vec!["prepare", "--curve", "bls12-377", "--points", s(&f.points), "--out", s(&out), "--point-format", "evm"],
    ] {
        let mut all = args.clone();
        if all[0] == "gen" {
            all.extend(["--points", s(&out), "--scalars", s(&out)]);
        }
        let e = one_line_error(&run(cmd(&all)));
        assert!(e.contains("--point-format evm") && e.contains("has no EVM point layout"), "{all:?}: {e}");
        assert!(!out.exists());
    }
    // BN254's EVM layout is written and read
    let bn = Files::new("bn254", 3);
    let (p, sc) = (bn.path("e.p"), bn.path("e.s"));
    let o = run(cmd(&[
        "gen",
        "--curve",
        "bn254",
        "--log-n",
        "3",
        "--point-format",
        "evm",
        "--points",
        s(&p),
        "--scalars",
        s(&sc),
    ]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::metadata(&p).unwrap().len(), 8 * 64);
    result_of(&run(bn.msm(&p, &sc, &["--point-format", "evm"])));
}

#[test]
fn precompute_1_is_plain_mode() {
    let f = Files::new("bls12-381", 8);
    let json = |extra: &[&str]| {
        let mut all = vec!["--json"];
        all.extend_from_slice(extra);
        let line = result_of(&run(f.msm(&f.points, &f.scalars, &all)));
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        (v["result"].as_str().unwrap().to_string(), v["glv"].as_bool().unwrap())
    };
    let (plain, glv) = json(&[]);
    assert_eq!(json(&["--precompute", "1"]), (plain.clone(), glv));
    assert_eq!(json(&["--precompute", "1", "--glv", "on"]), (plain, true));
    // a contradiction is refused before any point is read
    let missing = f.path("missing.bin");
    let e = one_line_error(&run(f.msm(&missing, &f.scalars, &["--precompute", "64", "--glv", "on"])));
    assert!(e.contains("--precompute 64 and --glv on do not combine"), "{e}");
    let e = one_line_error(&run(f.prepare(&missing, &f.path("x.prep"), &["--precompute", "4", "--glv", "on"])));
    assert!(e.contains("do not combine"), "{e}");
}

#[test]
fn symbolic_link_outputs_are_written_through() {
    let f = Files::new("bn254", 4);
    let dir = f.dir.path();
    for existing in [true, false] {
        let target = dir.join(format!("target-{existing}.prep"));
        let link = dir.join(format!("link-{existing}.prep"));
        if existing {
            std::fs::write(&target, b"old").unwrap();
        }
        std::os::unix::fs::symlink(target.file_name().unwrap(), &link).unwrap();
        let o = run(f.prepare(&f.points, &link, &[]));
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link was replaced");
        assert!(std::fs::metadata(&target).unwrap().len() > 4096, "the target was not written");
        let via_link = result_of(&run(f.msm_prepared(&link, &f.scalars, &[])));
        assert_eq!(via_link, result_of(&run(f.msm(&f.points, &f.scalars, &[]))));
    }
    // the model's outputs too: sim sweep writes sweep.csv through a link
    let out = tempfile::tempdir().unwrap();
    let real = dir.join("real-sweep.csv");
    std::os::unix::fs::symlink(&real, out.path().join("sweep.csv")).unwrap();
    let o = run(cmd(&[
        "sim",
        "sweep",
        "--out",
        s(out.path()),
        "--log-n",
        "6",
        "--c-min",
        "4",
        "--c-max",
        "5",
        "--depths",
        "10",
        "--schedulers",
        "greedy",
    ]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::symlink_metadata(out.path().join("sweep.csv")).unwrap().file_type().is_symlink());
    assert!(std::fs::read_to_string(&real).unwrap().starts_with("sweep,"));
    assert!(leftover_temporaries(dir).is_empty(), "{:?}", leftover_temporaries(dir));
}

#[test]
fn one_stream_under_two_names_is_refused() {
    let f = Files::new("bn254", 4);
    let o = shell(
        "cat \"$1\" \"$2\" | \"$0\" msm --curve bn254 --points - --scalars /dev/stdin",
        &[s(&f.points), s(&f.scalars)],
    );
    let e = one_line_error(&o);
    assert!(e.contains("are one input"), "{e}");
    let e = one_line_error(&run(f.msm(&f.points, &f.points, &[])));
    assert!(e.contains("are one input"), "{e}");
}

#[test]
fn prepared_from_standard_input_says_it_must_be_a_file() {
    let f = Files::new("bn254", 4);
    let e = one_line_error(&run(f.msm_prepared("-".as_ref(), &f.scalars, &[])));
    assert!(e.contains("--prepared -") && e.contains("name the file"), "{e}");
}

#[test]
fn the_budgets_point_limit_names_the_scalars_count() {
    let f = Files::new("bn254", 8);
    let e = one_line_error(&run(f.msm(&f.points, &f.scalars, &["--memory-budget", "2M", "--max-points", "0"])));
    assert!(e.contains("256 scalars, so 256 points: above the input limit of 0"), "{e}");
}

#[test]
fn parse_errors_are_one_line_exit_1() {
    for args in [&["msm", "--jsn"][..], &["bench", "--log-n", "40"], &["demo", "--curve", "nope"], &["frobnicate"]] {
        let e = one_line_error(&run(cmd(args)));
        assert!(e.ends_with("see --help)\n"), "{args:?}: {e}");
    }
    let e = one_line_error(&run(cmd(&["msm", "--jsn"])));
    assert!(e.contains("'--json'"), "the tip is kept: {e}");
    let o = run(cmd(&["--help"]));
    assert!(o.status.success() && !o.stdout.is_empty());
}

#[test]
fn a_budget_past_64_bits_is_refused() {
    let f = Files::new("bn254", 4);
    let e = one_line_error(&run(f.msm(&f.points, &f.scalars, &["--memory-budget", "99999999999999999999"])));
    assert!(e.contains("more bytes than a 64-bit count holds"), "{e}");
}

#[test]
fn staging_files_are_removed_on_signals() {
    for sig in ["INT", "TERM", "HUP"] {
        let dir = tempfile::tempdir().unwrap();
        let (p, sc) = (dir.path().join("p.bin"), dir.path().join("s.bin"));
        let mut c = cmd(&["gen", "--curve", "bls12-381", "--log-n", "22", "--points", s(&p), "--scalars", s(&sc)]);
        // the dispositions a shell's foreground command has: zkmsm keeps a
        // signal its parent ignores (nohup, a background job) ignored, so an
        // inherited SIG_IGN would make the kill below a no-op
        // SAFETY: signal() is async-signal-safe, as pre_exec requires.
        unsafe {
            c.pre_exec(|| {
                for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                    libc::signal(sig, libc::SIG_DFL);
                }
                Ok(())
            });
        }
        let child = c.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
        // the staging files exist from the start; let generation begin
        let t = Instant::now();
        while leftover_temporaries(dir.path()).len() < 2 {
            assert!(t.elapsed() < Duration::from_secs(20), "no staging files");
            std::thread::sleep(Duration::from_millis(5));
        }
        std::thread::sleep(Duration::from_millis(200));
        let k = std::process::Command::new("kill").arg(format!("-{sig}")).arg(child.id().to_string()).status().unwrap();
        assert!(k.success());
        let o = finish_within(child, Duration::from_secs(60));
        let expect = match sig {
            "INT" => 2,
            "TERM" => 15,
            _ => 1,
        };
        assert_eq!(o.status.signal(), Some(expect), "SIG{sig}: {:?} {}", o.status, stderr(&o));
        assert!(leftover_temporaries(dir.path()).is_empty(), "SIG{sig}: {:?}", leftover_temporaries(dir.path()));
        assert!(!p.exists() && !sc.exists());
    }
}

#[test]
fn dev_shm_outputs_are_files() {
    let shm = std::path::Path::new("/dev/shm");
    if !shm.is_dir() {
        return;
    }
    let dir = tempfile::tempdir_in(shm).unwrap();
    let (p, sc) = (dir.path().join("p.bin"), dir.path().join("s.bin"));
    let o = run(cmd(&["gen", "--curve", "bn254", "--log-n", "4", "--points", s(&p), "--scalars", s(&sc)]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::metadata(&p).unwrap().len(), 16 * 32);
    assert!(leftover_temporaries(dir.path()).is_empty());
    // a missing device is still refused
    let e = one_line_error(&run(cmd(&[
        "gen",
        "--curve",
        "bn254",
        "--log-n",
        "2",
        "--points",
        "/dev/nonesuch",
        "--scalars",
        s(&sc),
    ])));
    assert!(e.contains("no such device"), "{e}");
}

#[test]
fn an_endless_stream_of_no_points_is_refused_at_its_head() {
    // (zeros are BN254's EVM identity, a valid stream of points there)
    let f = Files::new("bls12-381", 2);
    // 2 GiB of address space: reading to the input limit would not fit
    let o = under_ulimit(
        2_000_000,
        &["prepare", "--curve", "bls12-381", "--points", "/dev/zero", "--out", s(&f.path("z.prep"))],
    );
    let e = one_line_error(&o);
    assert!(!e.contains("out of memory") && e.contains("/dev/zero"), "{e}");
    // asked for in the EVM's layout, where zeros are the identity, the same
    // stream is valid points: it is bounded by --max-points
    let o = under_ulimit(
        2_000_000,
        &[
            "prepare",
            "--curve",
            "bls12-381",
            "--points",
            "/dev/zero",
            "--point-format",
            "evm",
            "--max-points",
            "16",
            "--out",
            s(&f.path("z.prep")),
        ],
    );
    let e = one_line_error(&o);
    assert!(e.contains("/dev/zero") && e.contains("--max-points"), "{e}");
    assert!(!f.path("z.prep").exists());
}

#[test]
fn gen_to_a_failing_stream_leaves_the_old_pair() {
    let f = Files::new("bn254", 3);
    let (old_p, old_s) = (std::fs::read(&f.points).unwrap(), std::fs::read(&f.scalars).unwrap());
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let o = run(cmd(&[
        "gen",
        "--curve",
        "bn254",
        "--log-n",
        "3",
        "--seed",
        "9",
        "--points",
        s(&f.points),
        "--scalars",
        "/dev/full",
    ]));
    one_line_error(&o);
    assert_eq!(std::fs::read(&f.points).unwrap(), old_p, "new points beside old scalars");
    assert_eq!(std::fs::read(&f.scalars).unwrap(), old_s);
    assert!(leftover_temporaries(f.dir.path()).is_empty());
}
