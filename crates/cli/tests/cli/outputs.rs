//! Every file `zkmsm` writes appears whole or not at all: `gen`, `prepare`,
//! `bench --plot` and `sim sweep` write a temporary file beside the target
//! and rename it over (a reader of the old file keeps it whole), check their
//! output paths before any work, and never let two outputs or an output and
//! its input be one file.

use crate::common::*;
use std::process::Stdio;

/// The old file's inode is left as it was: the new bytes come by rename.
fn assert_replaced_by_rename(old_link: &std::path::Path, old_bytes: &[u8]) {
    assert_eq!(std::fs::read(old_link).unwrap(), old_bytes, "the old file was rewritten in place");
}

#[test]
fn gen_replaces_its_outputs_by_rename() {
    let f = Files::new("bls12-377", 4);
    let (old_p, old_s) = (std::fs::read(&f.points).unwrap(), std::fs::read(&f.scalars).unwrap());
    // hard links keep the old inodes reachable
    std::fs::hard_link(&f.points, f.path("p.old")).unwrap();
    std::fs::hard_link(&f.scalars, f.path("s.old")).unwrap();
    f.gen(&f.points, &f.scalars, 4, 2);
    assert_replaced_by_rename(&f.path("p.old"), &old_p);
    assert_replaced_by_rename(&f.path("s.old"), &old_s);
    assert_ne!(std::fs::read(&f.points).unwrap(), old_p);
    assert!(leftover_temporaries(f.dir.path()).is_empty());
}

#[test]
fn gen_checks_both_paths_before_generating() {
    let f = Files::new("bls12-377", 4);
    let old = std::fs::read(&f.points).unwrap();
    for bad in [".", "missing-dir/s.bin"] {
        let bad = f.path(bad);
        let o = run(cmd(&[
            "gen",
            "--curve",
            "bls12-377",
            "--log-n",
            "12",
            "--seed",
            "7",
            "--points",
            s(&f.points),
            "--scalars",
            s(&bad),
        ]));
        let e = one_line_error(&o);
        assert!(e.contains(s(&bad)), "{e}");
        // nothing was generated: the points file is the old one
        assert_eq!(std::fs::read(&f.points).unwrap(), old, "{e}");
    }
    assert!(leftover_temporaries(f.dir.path()).is_empty());
}

/// Killed at any moment, `gen` leaves the old pair, the new pair, or points
/// without scalars: never new points beside old scalars of the same count.
#[test]
fn interrupted_gen_never_leaves_a_mixed_pair() {
    let f = Files::new("bls12-377", 12);
    let new = Files::with_seed("bls12-377", 12, 9);
    let old = (std::fs::read(&f.points).unwrap(), std::fs::read(&f.scalars).unwrap());
    let fresh = (std::fs::read(&new.points).unwrap(), std::fs::read(&new.scalars).unwrap());
    for delay_ms in [0u64, 20, 40, 60, 80, 100, 130, 160, 200, 300] {
        std::fs::write(&f.points, &old.0).unwrap();
        std::fs::write(&f.scalars, &old.1).unwrap();
        let mut child = cmd(&[
            "gen",
            "--curve",
            "bls12-377",
            "--log-n",
            "12",
            "--seed",
            "9",
            "--points",
            s(&f.points),
            "--scalars",
            s(&f.scalars),
        ])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        child.wait().unwrap();
        let p = std::fs::read(&f.points).ok();
        let sc = std::fs::read(&f.scalars).ok();
        let state = (
            p.as_ref() == Some(&old.0),
            p.as_ref() == Some(&fresh.0),
            sc.as_ref() == Some(&old.1),
            sc.as_ref() == Some(&fresh.1),
        );
        let ok = matches!(state, (true, _, true, _) | (_, true, _, true))
            || (sc.is_none() && (p.as_ref() == Some(&old.0) || p.as_ref() == Some(&fresh.0)));
        assert!(
            ok,
            "after {delay_ms} ms: points old/new {:?}, scalars old/new {:?}",
            (state.0, state.1),
            (state.2, state.3)
        );
        for t in leftover_temporaries(f.dir.path()) {
            std::fs::remove_file(f.path(&t)).unwrap();
        }
    }
}

#[test]
fn gen_to_standard_output_twice_is_refused() {
    let o = shell("\"$0\" gen --curve bls12-377 --log-n 4 --points /dev/stdout --scalars - | cat >/dev/null", &[]);
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains("--points and --scalars are the same file"), "{e}");
}

#[test]
fn prepare_refuses_to_overwrite_its_input() {
    let f = Files::new("bls12-377", 4);
    let before = std::fs::read(&f.points).unwrap();
    let e = one_line_error(&run(f.prepare(&f.points, &f.points, &[])));
    assert!(e.contains("it would overwrite its own input"), "{e}");
    assert_eq!(std::fs::read(&f.points).unwrap(), before);
    // another spelling of the same file
    std::fs::hard_link(&f.points, f.path("alias")).unwrap();
    let e = one_line_error(&run(f.prepare(&f.points, &f.path("alias"), &[])));
    assert!(e.contains("it would overwrite its own input"), "{e}");
    assert_eq!(std::fs::read(&f.points).unwrap(), before);
}

#[test]
fn prepare_replaces_its_output_by_rename() {
    let f = Files::new("bls12-377", 4);
    let out = f.path("m.prep");
    assert!(run(f.prepare(&f.points, &out, &["--backend", "xyzz"])).status.success());
    let old = std::fs::read(&out).unwrap();
    std::fs::hard_link(&out, f.path("m.old")).unwrap();
    let other = Files::with_seed("bls12-377", 4, 5);
    let o = run(f.prepare(&other.points, &out, &["--backend", "xyzz"]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_replaced_by_rename(&f.path("m.old"), &old);
    assert_ne!(std::fs::read(&out).unwrap(), old);
    assert!(leftover_temporaries(f.dir.path()).is_empty());
}

/// `--out -` and `--out /dev/stdout` into a pipe write the same bytes as a
/// file (the header, written last, needs no seek on the pipe).
#[test]
fn prepare_writes_standard_output_and_pipes() {
    let f = Files::new("bls12-377", 4);
    let file = f.path("m.prep");
    assert!(run(f.prepare(&f.points, &file, &["--backend", "xyzz"])).status.success());
    let want = std::fs::read(&file).unwrap();
    for out in ["-", "/dev/stdout"] {
        let o = run(f.prepare(&f.points, std::path::Path::new(out), &["--backend", "xyzz"]));
        assert!(o.status.success(), "--out {out}: {}", stderr(&o));
        assert!(o.stdout == want, "--out {out}: {} bytes, not the file's {}", o.stdout.len(), want.len());
    }
    assert!(!std::path::Path::new("-").exists(), "a file named - was created");
}

#[test]
fn bench_checks_the_plot_path_before_the_benchmark() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("no-such-dir/x.svg");
    // one_line_error: nothing on stdout, so no table was printed first
    let e =
        one_line_error(&run(cmd(&["bench", "--log-n", "8", "--repeat", "1", "--backend", "xyzz", "--plot", s(&bad)])));
    assert!(e.contains("x.svg"), "{e}");
}

#[test]
fn bench_plot_replaces_by_rename() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("b.svg");
    std::fs::write(&svg, b"old plot").unwrap();
    std::fs::hard_link(&svg, dir.path().join("old.svg")).unwrap();
    let o = run(cmd(&["bench", "--log-n", "6", "--repeat", "1", "--backend", "xyzz", "--plot", s(&svg)]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(dir.path().join("old.svg")).unwrap(), b"old plot");
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    assert!(leftover_temporaries(dir.path()).is_empty());
}

#[test]
fn sim_sweep_and_thesis_replace_their_files_by_rename() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("sweep.csv");
    std::fs::write(&csv, b"old").unwrap();
    std::fs::hard_link(&csv, dir.path().join("old.csv")).unwrap();
    let o = run(cmd(&[
        "sim",
        "sweep",
        "--out",
        s(dir.path()),
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
    assert_eq!(std::fs::read(dir.path().join("old.csv")).unwrap(), b"old");
    assert!(std::fs::read_to_string(&csv).unwrap().starts_with("sweep,"));
    let t = dir.path().join("t.csv");
    std::fs::write(&t, b"old").unwrap();
    std::fs::hard_link(&t, dir.path().join("old-t.csv")).unwrap();
    let o = run(cmd(&["sim", "thesis", "--n", "200", "--k-max", "3", "--csv", s(&t)]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(dir.path().join("old-t.csv")).unwrap(), b"old");
    assert!(std::fs::read_to_string(&t).unwrap().starts_with("k,"));
    assert!(leftover_temporaries(dir.path()).is_empty());
}
