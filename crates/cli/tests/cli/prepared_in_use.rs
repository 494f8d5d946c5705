//! `msm --prepared` maps its files: a prepared file rewritten by `prepare`
//! while in use leaves the running MSM on the old bytes, a file truncated
//! under it by another program ends it with a one-line error (not SIGBUS),
//! and what cannot be mapped (a FIFO, a directory, a device) is refused at
//! once, never waited on. `--max-points` bounds prepared files too.

use crate::common::*;
use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::Duration;

/// Starts `msm --prepared` with many repeats and returns once it has mapped
/// the file (its "mapped ..." line on stderr), with the rest of stderr.
fn start_long_run(
    f: &Files,
    prep: &std::path::Path,
    repeat: &str,
) -> (std::process::Child, BufReader<std::process::ChildStderr>) {
    let mut child = f
        .msm_prepared(prep, &f.scalars, &["--repeat", repeat])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.starts_with("mapped") {
        line.clear();
        assert!(err.read_line(&mut line).unwrap() > 0, "zkmsm ended before mapping the file");
    }
    (child, err)
}

#[test]
fn a_prepared_file_truncated_in_use_is_a_one_line_error() {
    let f = Files::new("bls12-377", 12);
    let prep = f.path("m.prep");
    assert!(run(f.prepare(&f.points, &prep, &["--backend", "xyzz"])).status.success());
    let (child, mut err) = start_long_run(&f, &prep, "100000");
    std::fs::File::options().write(true).open(&prep).unwrap().set_len(4096).unwrap();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
    let o = finish_within(child, Duration::from_secs(120));
    assert_eq!(o.status.code(), Some(1), "{:?} {rest}", o.status);
    let lines: Vec<&str> = rest.lines().collect();
    assert_eq!(lines.len(), 1, "{rest}");
    assert!(lines[0].starts_with("zkmsm: error: ") && lines[0].contains("shrank while in use"), "{rest}");
    assert!(lines[0].contains("m.prep"), "{rest}");
}

#[test]
fn prepare_over_a_file_in_use_leaves_the_reader_whole() {
    let f = Files::new("bls12-377", 10);
    let prep = f.path("m.prep");
    assert!(run(f.prepare(&f.points, &prep, &["--backend", "xyzz"])).status.success());
    let want = result_of(&run(f.msm(&f.points, &f.scalars, &[])));
    let (child, mut err) = start_long_run(&f, &prep, "300");
    // rewrite it several times while the MSM runs (other points, same count)
    let other = Files::with_seed("bls12-377", 10, 3);
    for _ in 0..5 {
        let o = run(f.prepare(&other.points, &prep, &["--backend", "xyzz"]));
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
    let o = finish(child);
    assert!(o.status.success(), "{:?} {rest}", o.status);
    // the run kept the file it mapped: the first points' MSM
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().last(), Some(want.as_str()));
}

#[test]
fn prepared_must_be_a_regular_file() {
    let f = Files::new("bls12-377", 4);
    let fifo = f.path("fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    for (path, kind) in [(fifo.as_path(), "a FIFO"), (f.dir.path(), "a directory"), ("/dev/null".as_ref(), "a device")]
    {
        let mut c = f.msm_prepared(path, &f.scalars, &[]);
        let child = c.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        // a FIFO without a writer must not be waited on
        let e = one_line_error(&finish_within(child, Duration::from_secs(30)));
        assert!(e.contains(kind) && e.contains("must be a regular file"), "{e}");
    }
}

#[test]
fn max_points_bounds_prepare_and_prepared_runs() {
    let f = Files::new("bls12-377", 8);
    let prep = f.path("m.prep");
    let e = one_line_error(&run(f.prepare(&f.points, &prep, &["--max-points", "10"])));
    assert!(e.contains("256 points: above the input limit of 10"), "{e}");
    assert!(!prep.exists());
    assert!(run(f.prepare(&f.points, &prep, &[])).status.success());
    let e = one_line_error(&run(f.msm_prepared(&prep, &f.scalars, &["--max-points", "10"])));
    assert!(e.contains("256 points: above the input limit of 10"), "{e}");
    assert!(run(f.msm_prepared(&prep, &f.scalars, &["--max-points", "256"])).status.success());
}

/// A backend name holding a newline in a (checksum-valid) header is escaped
/// once: `\n`, not `\\n`.
#[test]
fn backend_names_in_headers_are_escaped_once() {
    let f = Files::new("bls12-381", 4);
    let prep = f.path("m.prep");
    assert!(run(f.prepare(&f.points, &prep, &["--backend", "xyzz"])).status.success());
    let mut b = std::fs::read(&prep).unwrap();
    b[32..64].fill(0);
    b[32..36].copy_from_slice(b"a\nb\\");
    let sum = xxhash_rust::xxh3::xxh3_64(&b[..152]);
    b[152..160].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(&prep, &b).unwrap();
    let e = one_line_error(&run(f.msm_prepared(&prep, &f.scalars, &[])));
    assert!(e.contains(r#"unknown backend "a\nb\\""#), "{e}");
}
