//! Hostile uses that once misled or misbehaved: each refused up front in one
//! line, or done as documented. Every test here failed against the build
//! before its fix (`ZKMSM_TEST_BIN`, see common/mod.rs).

use crate::common::*;
use std::os::unix::process::ExitStatusExt;
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
fn staging_files_are_removed_on_signals() {
    for sig in ["INT", "TERM", "HUP"] {
        let dir = tempfile::tempdir().unwrap();
        let (p, sc) = (dir.path().join("p.bin"), dir.path().join("s.bin"));
        let child = cmd(&["gen", "--curve", "bls12-381", "--log-n", "22", "--points", s(&p), "--scalars", s(&sc)])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
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
