//! Sizes inside the allowed range that the machine (or a limit on it) cannot
//! hold: a one-line error with exit status 1, never an abort (status 134).
//! The limit is the shell's `ulimit -v` (address space, KiB).

use crate::common::*;

#[test]
fn gen_refuses_what_it_cannot_allocate_before_generating() {
    let dir = tempfile::tempdir().unwrap();
    let (p, sc) = (dir.path().join("p"), dir.path().join("s"));
    let o = shell(
        "ulimit -v 1000000; exec \"$0\" gen --curve bls12-381 --log-n 26 --points \"$1\" --scalars \"$2\"",
        &[s(&p), s(&sc)],
    );
    let e = one_line_error(&o);
    assert!(e.contains("out of memory") && e.contains("2^26"), "{e}");
    assert!(!p.exists() && !sc.exists());
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
