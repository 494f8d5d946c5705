//! Helpers shared by the command's end-to-end tests: running `zkmsm` with a
//! guard against hangs, one-line errors, generated inputs.
//!
//! `ZKMSM_TEST_BIN=/path/to/zkmsm` runs the tests against another build
//! (how they were shown to fail before the fixes).
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

pub fn bin() -> PathBuf {
    std::env::var_os("ZKMSM_TEST_BIN").map(PathBuf::from).unwrap_or_else(|| env!("CARGO_BIN_EXE_zkmsm").into())
}

pub fn cmd(args: &[&str]) -> Command {
    let mut c = Command::new(bin());
    c.args(args);
    c
}

/// Waits for `child`, killing it (and failing) if it has not finished after
/// `limit`: a guard against hangs, not a timing assertion.
pub fn finish_within(mut child: Child, limit: Duration) -> Output {
    let deadline = Instant::now() + limit;
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            let _ = child.wait();
            panic!("zkmsm did not finish: a hang");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub fn finish(child: Child) -> Output {
    finish_within(child, Duration::from_secs(180))
}

pub fn run(mut c: Command) -> Output {
    finish(c.stdout(Stdio::piped()).stderr(Stdio::piped()).stdin(Stdio::null()).spawn().unwrap())
}

/// Runs with `bytes` written to standard input through a pipe.
pub fn run_with_stdin(mut c: Command, bytes: Vec<u8>) -> Output {
    let mut child = c.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&bytes);
    });
    let o = finish(child);
    feeder.join().unwrap();
    o
}

/// A shell script run with `$0` = zkmsm and `$1..` = `args`.
pub fn shell(script: &str, args: &[&str]) -> Output {
    let mut c = Command::new("sh");
    c.arg("-c").arg(script).arg(bin()).args(args);
    run(c)
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The one-line error of a failed run (exit status 1, nothing on stdout).
pub fn one_line_error(o: &Output) -> String {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(1), "expected exit status 1: {:?} {e}", o.status);
    assert!(o.stdout.is_empty(), "stdout: {}", String::from_utf8_lossy(&o.stdout));
    let lines: Vec<&str> = e.lines().collect();
    assert_eq!(lines.len(), 1, "one line: {e}");
    assert!(lines[0].starts_with("zkmsm: error: "), "{e}");
    e
}

/// The last line of a successful run's standard output.
pub fn result_of(o: &Output) -> String {
    assert!(o.status.success(), "{:?}: {}", o.status, stderr(o));
    String::from_utf8_lossy(&o.stdout).lines().last().unwrap().to_string()
}

pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A directory with 2^log_n generated points (compressed) and scalars.
pub struct Files {
    pub dir: tempfile::TempDir,
    pub curve: &'static str,
    pub points: PathBuf,
    pub scalars: PathBuf,
}

impl Files {
    pub fn new(curve: &'static str, log_n: u32) -> Self {
        Self::with_seed(curve, log_n, 1)
    }

    pub fn with_seed(curve: &'static str, log_n: u32, seed: u64) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let (points, scalars) = (dir.path().join("p.bin"), dir.path().join("s.bin"));
        let f = Files { dir, curve, points, scalars };
        f.gen(&f.points, &f.scalars, log_n, seed);
        f
    }

    /// `zkmsm gen` to these paths (asserting success).
    pub fn gen(&self, points: &Path, scalars: &Path, log_n: u32, seed: u64) {
        let log_n = log_n.to_string();
        let seed = seed.to_string();
        let o = run(cmd(&[
            "gen",
            "--curve",
            self.curve,
            "--log-n",
            &log_n,
            "--seed",
            &seed,
            "--points",
            s(points),
            "--scalars",
            s(scalars),
        ]));
        assert!(o.status.success(), "{}", stderr(&o));
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    pub fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, bytes).unwrap();
        p
    }

    /// `zkmsm msm` on `points` and `scalars` with `extra` options.
    pub fn msm(&self, points: &Path, scalars: &Path, extra: &[&str]) -> Command {
        let mut c = cmd(&["msm", "--curve", self.curve, "--points", s(points), "--scalars", s(scalars)]);
        c.args(extra);
        c
    }

    /// `zkmsm prepare` of `points` to `out` with `extra` options.
    pub fn prepare(&self, points: &Path, out: &Path, extra: &[&str]) -> Command {
        let mut c = cmd(&["prepare", "--curve", self.curve, "--points", s(points), "--out", s(out)]);
        c.args(extra);
        c
    }

    /// `zkmsm msm --prepared` of `prepared` and `scalars`.
    pub fn msm_prepared(&self, prepared: &Path, scalars: &Path, extra: &[&str]) -> Command {
        let mut c = cmd(&["msm", "--curve", self.curve, "--prepared", s(prepared), "--scalars", s(scalars)]);
        c.args(extra);
        c
    }
}

/// Files in `dir` whose names mark them as zkmsm's temporary files.
pub fn leftover_temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".zkmsm-") && n.ends_with(".tmp"))
        .collect()
}
