//! Sizes inside the allowed range that the machine (or a limit on it) cannot
//! hold: a one-line error with exit status 1, never an abort (status 134).
//! The limit is the shell's `ulimit -v` (address space, KiB).

use crate::common::*;

#[test]
fn gen_streams_in_little_memory_and_refuses_what_the_disk_cannot_hold() {
    let dir = tempfile::tempdir().unwrap();
    let (p, sc) = (dir.path().join("p"), dir.path().join("s"));
    // written a block at a time: 2^16 points in 1 GB of address space (the
    // whole-input bound of 2^26 needed 14.5 GiB), and memory does not grow with n
    let o = shell(
        "ulimit -v 1000000; exec \"$0\" gen --curve bls12-381 --log-n 16 --points \"$1\" --scalars \"$2\"",
        &[s(&p), s(&sc)],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::metadata(&p).unwrap().len(), 48 << 16);
    assert_eq!(std::fs::metadata(&sc).unwrap().len(), 32 << 16);
    // 2^32 points (320 GiB with their scalars): refused at once where the
    // filesystem has less free, nothing written
    let df = std::process::Command::new("df").args(["-B1", "--output=avail"]).arg(dir.path()).output().unwrap();
    let free: u64 = String::from_utf8_lossy(&df.stdout).lines().last().unwrap().trim().parse().unwrap();
    if free >= 300 << 30 {
        return;
    }
    let (p2, s2) = (dir.path().join("p2"), dir.path().join("s2"));
    let o = run(cmd(&["gen", "--curve", "bls12-381", "--log-n", "32", "--points", s(&p2), "--scalars", s(&s2)]));
    let e = one_line_error(&o);
    assert!(e.contains("gen needs") && e.contains("free"), "{e}");
    assert!(!p2.exists() && !s2.exists());
    assert!(leftover_temporaries(dir.path()).is_empty());
}

#[test]
fn a_failed_allocation_is_a_one_line_error() {
    // bench generates its inputs in memory: 2^22 points do not fit in 400 MB
    let o = shell("ulimit -v 400000; exec \"$0\" bench --log-n 22 --repeat 1 --backend xyzz", &[]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{:?}: {e}", o.status);
    let lines: Vec<&str> = e.lines().filter(|l| !l.starts_with('|')).collect();
    assert_eq!(lines.len(), 1, "{e}");
    assert!(lines[0].starts_with("zkmsm: error: out of memory"), "{e}");
}
