//! The `zkmsm` command used as a careless or hostile user would:
//! oversized and endless inputs, failing and closed output streams, odd
//! paths, one path for two outputs, prefixed scalars, standard input. Every
//! failure is one line on stderr with exit status 1, never a panic, an abort,
//! a hang or unbounded memory; a closed pipe ends the command quietly.
//!
//! `ZKMSM_TEST_BIN=/path/to/zkmsm` runs these tests against another build
//! (how they were shown to fail before the fixes).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn bin() -> PathBuf {
    std::env::var_os("ZKMSM_TEST_BIN").map(PathBuf::from).unwrap_or_else(|| env!("CARGO_BIN_EXE_zkmsm").into())
}

fn cmd(args: &[&str]) -> Command {
    let mut c = Command::new(bin());
    c.args(args);
    c
}

/// Waits for `child`, killing it (and failing) if it has not finished after
/// a generous deadline: a guard against hangs, not a timing assertion.
fn finish(mut child: Child) -> Output {
    let deadline = Instant::now() + Duration::from_secs(180);
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("zkmsm did not finish: a hang");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn run(mut c: Command) -> Output {
    finish(c.stdout(Stdio::piped()).stderr(Stdio::piped()).stdin(Stdio::null()).spawn().unwrap())
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The one-line error of a failed run (exit status 1, nothing on stdout).
fn one_line_error(o: &Output) -> String {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(1), "expected exit status 1: {:?} {e}", o.status);
    assert!(o.stdout.is_empty(), "stdout: {}", String::from_utf8_lossy(&o.stdout));
    let lines: Vec<&str> = e.lines().collect();
    assert_eq!(lines.len(), 1, "one line: {e}");
    assert!(lines[0].starts_with("zkmsm: error: "), "{e}");
    e
}

struct Files {
    dir: tempfile::TempDir,
    points: PathBuf,
    scalars: PathBuf,
}

impl Files {
    /// 16 BLS12-377 points (compressed) and scalars.
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let (points, scalars) = (dir.path().join("p.bin"), dir.path().join("s.bin"));
        let o = run(cmd(&[
            "gen",
            "--curve",
            "bls12-377",
            "--log-n",
            "4",
            "--points",
            points.to_str().unwrap(),
            "--scalars",
            scalars.to_str().unwrap(),
        ]));
        assert!(o.status.success(), "{}", stderr(&o));
        Files { dir, points, scalars }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, bytes).unwrap();
        p
    }
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn msm(points: &Path, scalars: &Path, extra: &[&str]) -> Command {
    let mut c = cmd(&["msm", "--curve", "bls12-377", "--points", s(points), "--scalars", s(scalars)]);
    c.args(extra);
    c
}

fn result_of(o: &Output) -> String {
    assert!(o.status.success(), "{}", stderr(o));
    String::from_utf8_lossy(&o.stdout).lines().last().unwrap().to_string()
}

// 1. An oversized scalars file was an abort (a 100 GB allocation).
#[test]
fn oversized_scalars_file_is_a_one_line_error() {
    let f = Files::new();
    let big = f.path("big.s");
    std::fs::File::create(&big).unwrap().set_len(100 << 30).unwrap(); // sparse
    let e = one_line_error(&run(msm(&f.points, &big, &[])));
    assert!(e.contains("big.s holds 3355443200 scalars: the counts differ"), "{e}");
    // with the points on a pipe, the limit on inputs speaks
    let c = cmd(&["msm", "--curve", "bls12-377", "--points", "-", "--scalars", s(&big)]);
    let e = one_line_error(&run_with_stdin(c, std::fs::read(&f.points).unwrap()));
    assert!(
        e.contains("big.s: byte offset 2147483648: 3355443200 scalars") && e.contains("above the input limit"),
        "{e}"
    );
}

/// Runs with `bytes` written to standard input through a pipe (a write that
/// fails because zkmsm stopped reading is fine).
fn run_with_stdin(mut c: Command, bytes: Vec<u8>) -> Output {
    let mut child = c.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&bytes);
    });
    let o = finish(child);
    feeder.join().unwrap();
    o
}

// 2. An endless stream grew memory without limit and never ended.
#[test]
fn endless_streams_are_bounded() {
    let f = Files::new();
    let zero = Path::new("/dev/zero");
    let e = one_line_error(&run(msm(zero, &f.scalars, &[])));
    assert!(e.contains("/dev/zero: byte offset 1544: longer than 1544 bytes, the most 16 points take"), "{e}");
    let e = one_line_error(&run(msm(&f.points, zero, &[])));
    assert!(e.contains("/dev/zero") && e.contains("p.bin (768 bytes) holds at most 16 points"), "{e}");
    let e = one_line_error(&run(msm(zero, zero, &["--max-points", "1000"])));
    assert!(e.contains("/dev/zero: byte offset 32008: more than 1000 scalars"), "{e}");
    // "no limit" is a limit too: the points file's size still bounds the scalars
    let e = one_line_error(&run(msm(&f.points, zero, &["--max-points", &usize::MAX.to_string()])));
    assert!(e.contains("p.bin (768 bytes) holds at most 16 points"), "{e}");
}

/// Runs `sh -c SCRIPT zkmsm ARGS...`: redirections Command cannot express.
fn shell(script: &str, args: &[&str]) -> Output {
    let mut c = Command::new("sh");
    c.arg("-c").arg(script).arg(bin()).args(args);
    run(c)
}

// 3. A failed write panicked (exit 101), a closed stdout lost the result.
#[test]
fn failed_writes_are_errors_and_a_closed_pipe_ends_quietly() {
    let f = Files::new();
    let args = ["msm", "--curve", "bls12-377", "--points", s(&f.points), "--scalars", s(&f.scalars)];
    let e = one_line_error_after_table(&shell(r#""$0" "$@" >/dev/full"#, &args));
    assert!(e.contains("writing standard output: No space left on device"), "{e}");
    for script in [r#""$0" "$@" 2>/dev/full"#, r#""$0" "$@" --json 2>/dev/full"#] {
        let o = shell(script, &args);
        assert_eq!(o.status.code(), Some(1), "{script}: {:?}", o.status);
    }
    let gp = f.path("g.p");
    let gen = ["gen", "--curve", "bls12-381", "--log-n", "2", "--points", s(&gp), "--scalars", "/dev/full"];
    let e = one_line_error(&run(cmd(&gen)));
    assert!(e.contains("/dev/full: No space left on device"), "{e}");
    let mut gen = gen;
    let g = f.path("g.s");
    gen[8] = s(&g);
    assert_eq!(shell(r#""$0" "$@" 2>/dev/full"#, &gen).status.code(), Some(1));

    // the model's printing (println!) fails the same way, without a panic
    let e = one_line_error(&shell(r#""$0" "$@" >/dev/full"#, &["sim", "--log-n", "8"]));
    assert!(e.contains("writing standard output: No space left on device"), "{e}");

    // stdout closed (>&-): an error, before any work
    let e = one_line_error(&shell(r#""$0" "$@" >&-"#, &args));
    assert!(e.contains("standard output is closed"), "{e}");
    let xs = f.path("x.s");
    let gen_out = ["gen", "--curve", "bls12-377", "--log-n", "2", "--points", "-", "--scalars", s(&xs)];
    let e = one_line_error(&shell(r#""$0" "$@" >&-"#, &gen_out));
    assert!(e.contains("standard output is closed"), "{e}");

    // a pipe whose reader has gone: ended by SIGPIPE, nothing on stderr
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let mut c = cmd(&args);
    let o = finish(c.stdout(writer).stderr(Stdio::piped()).stdin(Stdio::null()).spawn().unwrap());
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(o.status.signal(), Some(libc_sigpipe()), "{:?}", o.status);
    assert!(!stderr(&o).contains("error"), "{}", stderr(&o));
    // and when SIGPIPE is ignored by the parent, the same quiet end (status 141)
    let o = shell(r#"trap '' PIPE; "$0" "$@" | (exec 0<&-; sleep 1)"#, &args);
    assert!(!stderr(&o).contains("error"), "{}", stderr(&o));
}

fn libc_sigpipe() -> i32 {
    13
}

// 4. An arkworks-prefixed scalars file was "truncated scalar".
#[test]
fn scalars_with_an_arkworks_length_prefix_are_read() {
    let f = Files::new();
    let plain = result_of(&run(msm(&f.points, &f.scalars, &[])));
    let scalars = std::fs::read(&f.scalars).unwrap();
    let mut prefixed = 16u64.to_le_bytes().to_vec();
    prefixed.extend_from_slice(&scalars);
    let sp = f.write("prefixed.s", &prefixed);
    assert_eq!(result_of(&run(msm(&f.points, &sp, &[]))), plain);
    // a prefix that disagrees is named as such
    prefixed[0] = 17;
    let sp = f.write("wrong.s", &prefixed);
    let e = one_line_error(&run(msm(&f.points, &sp, &[])));
    assert!(e.contains("wrong.s: byte offset 0:") && e.contains("length prefix") && e.contains("say 17"), "{e}");
    // a scalar >= r in a prefixed file: its offset counts the prefix
    let mut b = 16u64.to_le_bytes().to_vec();
    b.extend_from_slice(&scalars);
    b[8 + 32 * 2..8 + 32 * 3].fill(0xff);
    let e = one_line_error(&run(msm(&f.points, &f.write("big.s", &b), &[])));
    assert!(e.contains("byte offset 72: scalar 2 is not below"), "{e}");
}

// 5. A newline in a path broke the one-line error.
#[test]
fn paths_are_escaped_in_one_line_errors() {
    let f = Files::new();
    let e = one_line_error(&run(msm(Path::new("no\nsuch"), &f.scalars, &[])));
    assert!(e.starts_with(r"zkmsm: error: no\nsuch: "), "{e}");
    use std::os::unix::ffi::OsStrExt;
    let odd = f.dir.path().join(std::ffi::OsStr::from_bytes(b"bad\\\r\xff.p"));
    std::fs::write(&odd, b"short").unwrap();
    let o = run({
        let mut c = cmd(&["msm", "--curve", "bls12-377", "--scalars", s(&f.scalars), "--points"]);
        c.arg(&odd);
        c
    });
    let e = one_line_error(&o);
    assert!(e.contains(r"bad\\\r\xff.p: byte offset 5: file has 5 bytes"), "{e}");
    // and in gen's errors
    let o = run(cmd(&["gen", "--curve", "bls12-377", "--log-n", "1", "--points", "a\nb/c", "--scalars", "s"]));
    assert!(one_line_error(&o).contains(r"a\nb/c: "));
}

// 6. gen with one path for both outputs reported success and lost the points.
#[test]
fn gen_refuses_one_file_for_both_outputs() {
    let f = Files::new();
    let same = f.path("same.bin");
    for (p, q) in [
        (s(&same).to_string(), s(&same).to_string()),
        (s(&same).to_string(), format!("{}/./same.bin", s(f.dir.path()))),
        (
            s(&f.points).to_string(),
            format!("{}/../{}/p.bin", s(f.dir.path()), f.dir.path().file_name().unwrap().to_str().unwrap()),
        ),
        ("-".to_string(), "-".to_string()),
    ] {
        let o = run(cmd(&["gen", "--curve", "bls12-377", "--log-n", "2", "--points", &p, "--scalars", &q]));
        let e = one_line_error(&o);
        assert!(e.contains("are the same file"), "{e}");
    }
    // a hard link is the same file too; the existing points are untouched
    let before = std::fs::read(&f.points).unwrap();
    let link = f.path("link.bin");
    std::fs::hard_link(&f.points, &link).unwrap();
    let o = run(cmd(&["gen", "--curve", "bls12-377", "--log-n", "2", "--points", s(&f.points), "--scalars", s(&link)]));
    assert!(one_line_error(&o).contains("are the same file"));
    assert_eq!(std::fs::read(&f.points).unwrap(), before);
}

// 7. An empty scalars file with one point blamed the points file's size.
#[test]
fn count_mismatch_says_the_counts_differ() {
    let f = Files::new();
    let pts = std::fs::read(&f.points).unwrap();
    let one = f.write("one.p", &pts[..48]);
    let empty = f.write("empty.s", b"");
    let e = one_line_error(&run(msm(&one, &empty, &[])));
    assert!(e.contains("one.p: byte offset 0: holds 1 compressed point (48 bytes) but"), "{e}");
    assert!(e.contains("empty.s holds 0 scalars: the counts differ"), "{e}");
    // more points than scalars, through a pipe too
    let sc = std::fs::read(&f.scalars).unwrap();
    let few = f.write("few.s", &sc[..32 * 3]);
    let e = one_line_error(&run(msm(&f.points, &few, &[])));
    assert!(e.contains("holds 16 compressed points or 8 uncompressed points (768 bytes)"), "{e}");
    assert!(e.contains("few.s holds 3 scalars: the counts differ"), "{e}");
    let e = one_line_error(&run_with_stdin(msm(Path::new("-"), &few, &[]), pts.clone()));
    assert!(e.contains("<stdin>: byte offset 296: longer than 296 bytes, the most 3 points take"), "{e}");
    // a points file whose size is no whole number of points keeps the size message
    let e = one_line_error(&run(msm(&f.write("odd.p", &pts[..50]), &few, &[])));
    assert!(e.contains("odd.p: byte offset 50: file has 50 bytes; 3 points need 144 (compressed)"), "{e}");
}

// `-` reads standard input, for either file, bounded as files are.
#[test]
fn standard_input_is_read_for_either_file() {
    let f = Files::new();
    let want = result_of(&run(msm(&f.points, &f.scalars, &[])));
    for (points, scalars, feed) in [("-", s(&f.scalars), &f.points), (s(&f.points), "-", &f.scalars)] {
        // through a pipe, and redirected from a file
        let c = cmd(&["msm", "--curve", "bls12-377", "--points", points, "--scalars", scalars]);
        assert_eq!(result_of(&run_with_stdin(c, std::fs::read(feed).unwrap())), want);
        let mut c = cmd(&["msm", "--curve", "bls12-377", "--points", points, "--scalars", scalars]);
        c.stdin(std::fs::File::open(feed).unwrap());
        assert_eq!(result_of(&finish(c.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap())), want);
    }
    let e = one_line_error(&run(cmd(&["msm", "--curve", "bls12-377", "--points", "-", "--scalars", "-"])));
    assert!(e.contains("cannot both read standard input"), "{e}");
    let c = cmd(&[
        "msm",
        "--curve",
        "bls12-377",
        "--points",
        "-",
        "--scalars",
        s(&f.scalars),
        "--memory-budget",
        "1048576",
    ]);
    let e = one_line_error(&run_with_stdin(c, std::fs::read(&f.points).unwrap()));
    assert!(e.contains("--memory-budget reads the files by offset"), "{e}");
    // nor a pipe, device or directory under another name: their length is
    // no count (a pipe's is 0, which read as no points gave the identity)
    let budget = |points: &str, scalars: &str| {
        cmd(&["msm", "--curve", "bls12-377", "--points", points, "--scalars", scalars, "--memory-budget", "16M"])
    };
    for (c, feed, what) in [
        (budget("/dev/stdin", s(&f.scalars)), &f.points, "/dev/stdin: a FIFO"),
        (budget(s(&f.points), "/dev/stdin"), &f.scalars, "/dev/stdin: a FIFO"),
    ] {
        let e = one_line_error(&run_with_stdin(c, std::fs::read(feed).unwrap()));
        assert!(e.contains(what) && e.contains("must be a regular file"), "{e}");
    }
    let dir = f.path("");
    for (c, what) in [
        (budget("/dev/zero", s(&f.scalars)), "/dev/zero: a device".to_string()),
        (budget(s(&f.points), s(&dir)), format!("{}: a directory", dir.display())),
    ] {
        let e = one_line_error(&run(c));
        assert!(e.contains(&what) && e.contains("must be a regular file"), "{e}");
    }
    // gen writes standard output with `-`
    let o = run(cmd(&["gen", "--curve", "bls12-381", "--log-n", "3", "--points", "-", "--scalars", s(&f.path("g.s"))]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(o.stdout.len(), 8 * 48);
}

// Arguments that would have asked for 2^40 points or 1000 shifted copies.
#[test]
fn absurd_bench_sizes_are_refused_by_the_parser() {
    for args in [["bench", "--log-n", "40"], ["bench", "--precompute", "1000"], ["bench", "--precompute", "0"]] {
        // one line, exit status 1, as every error
        let e = one_line_error(&run(cmd(&args)));
        assert!(e.contains(args[2]), "{args:?}: {e}");
    }
}

#[test]
fn bench_plots_time_against_n_per_backend() {
    let f = Files::new();
    let svg = f.path("b.svg");
    let o = run(cmd(&["bench", "--curve", "bls12-381", "--log-n", "3,5", "--repeat", "1", "--plot", s(&svg)]));
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
    for label in ["xyzz", "batch-affine", "2^3", "2^5", "MSM time (ms)"] {
        assert!(text.contains(label), "{label} missing from the plot");
    }
    assert!(!text.contains("twisted"), "BLS12-381 has no twisted Edwards backend to plot");
    let o = run(cmd(&["bench", "--log-n", "2", "--repeat", "1", "--plot", "/dev/full"]));
    assert!(one_line_error_after_table(&o).contains("/dev/full: No space left on device"));
}

/// A failure after the work was done and reported (timings on stderr, a
/// table on stdout): exit status 1, and the error is one line, the last.
fn one_line_error_after_table(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(o);
    assert_eq!(e.lines().filter(|l| l.starts_with("zkmsm: error:")).count(), 1, "{e}");
    assert!(e.lines().last().unwrap().starts_with("zkmsm: error:"), "{e}");
    e
}

// Progress bars only when stderr is a terminal: a pipe gets the plain lines.
#[test]
fn no_progress_bars_on_a_pipe() {
    let f = Files::new();
    let o = run(msm(&f.points, &f.scalars, &[]));
    let e = stderr(&o);
    assert!(o.status.success());
    assert!(!e.contains('\r') && !e.contains('\x1b'), "terminal control sequences on a pipe: {e:?}");
}

// ... and bars when it is one (a pseudo-terminal from script(1), in Debian's
// base system; the test says so and passes where it is missing).
#[test]
fn progress_bars_on_a_terminal() {
    if !Path::new("/usr/bin/script").exists() {
        eprintln!("no /usr/bin/script: progress bars on a terminal not tested here");
        return;
    }
    let f = Files::new();
    let quote = |p: &Path| format!("'{}'", p.to_str().unwrap().replace('\'', r"'\''"));
    let line = format!(
        "{} msm --curve bls12-377 --points {} --scalars {} --precompute 2",
        quote(&bin()),
        quote(&f.points),
        quote(&f.scalars)
    );
    let mut c = Command::new("/usr/bin/script");
    c.args(["-qec", &line, "/dev/null"]);
    let o = run(c);
    assert!(o.status.success(), "{}", stderr(&o));
    let tty = String::from_utf8_lossy(&o.stdout);
    assert!(tty.contains("reading and validating points") && tty.contains("/16 points"), "{tty:?}");
    // and gen does not write binary to a terminal
    let line =
        format!("{} gen --curve bls12-377 --log-n 1 --points - --scalars {}", quote(&bin()), quote(&f.path("t.s")));
    let mut c = Command::new("/usr/bin/script");
    c.args(["-qec", &line, "/dev/null"]);
    let o = run(c);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("standard output is a terminal"));
}

#[test]
fn a_stream_of_max_points_evm_points_is_read_whole() {
    // the stream's limit is counted in the widest layout asked for: the
    // EVM's 128-byte points, not the 96-byte uncompressed ones
    let f = Files::new();
    let evm = f.path("p.evm");
    let o = run(cmd(&[
        "gen",
        "--curve",
        "bls12-381",
        "--log-n",
        "3",
        "--point-format",
        "evm",
        "--points",
        s(&evm),
        "--scalars",
        s(&f.path("s.bin")),
    ]));
    assert!(o.status.success(), "{}", stderr(&o));
    let c = cmd(&[
        "prepare",
        "--curve",
        "bls12-381",
        "--points",
        "-",
        "--point-format",
        "evm",
        "--max-points",
        "8",
        "--out",
        s(&f.path("p.prep")),
    ]);
    let o = run_with_stdin(c, std::fs::read(&evm).unwrap());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(f.path("p.prep").exists());
}
