//! Writing to standard output and standard error without panicking: every
//! failed write is a [`CliError`], and file names are escaped so that a
//! message stays on one line.

pub use crate::escape::shown;

use crate::error::CliError;
use std::fmt;
use std::io::Write;

/// One line on standard output (results, tables), flushed at once so that a
/// failure is seen here and not lost at exit.
pub fn out(args: fmt::Arguments) -> Result<(), CliError> {
    let mut o = std::io::stdout().lock();
    o.write_fmt(args)
        .and_then(|_| o.write_all(b"\n"))
        .and_then(|_| o.flush())
        .map_err(|source| CliError::Write { stream: "standard output", source })
}

/// One line on standard error (progress, timings).
pub fn err(args: fmt::Arguments) -> Result<(), CliError> {
    let mut e = std::io::stderr().lock();
    e.write_fmt(args)
        .and_then(|_| e.write_all(b"\n"))
        .and_then(|_| e.flush())
        .map_err(|source| CliError::Write { stream: "standard error", source })
}

macro_rules! outln {
    () => { $crate::console::out(format_args!("")) };
    ($($t:tt)*) => { $crate::console::out(format_args!($($t)*)) };
}
macro_rules! errln {
    ($($t:tt)*) => { $crate::console::err(format_args!($($t)*)) };
}
pub(crate) use {errln, outln};

/// A message made safe to print as one line (the last line of defence:
/// paths are escaped where they are formatted).
pub fn one_line(message: &str) -> String {
    message.chars().flat_map(|c| if c.is_control() { c.escape_default().collect() } else { vec![c] }).collect()
}

/// A command-line parse error as one line: clap's message (its first
/// paragraph, the lines joined) and its tips, without the usage and the
/// "For more information" lines, e.g. "unexpected argument '--jsn' found
/// (tip: a similar argument exists: '--json'; see --help)".
pub fn parse_error_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let mut paragraphs = text.split("\n\n").map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "));
    let first = paragraphs.next().unwrap_or_default();
    let message = first.strip_prefix("error: ").unwrap_or(&first).to_string();
    let tips: Vec<String> = paragraphs.filter(|p| p.starts_with("tip:")).collect();
    if tips.is_empty() {
        format!("{message} (see --help)")
    } else {
        format!("{message} ({}; see --help)", tips.join("; "))
    }
}

/// Standard output, standard input and standard error as they were when the
/// process started. Rust's runtime reopens a closed standard descriptor on
/// /dev/null before `main`, which would make `zkmsm msm ... >&-` succeed and
/// lose the result; a constructor that runs before it sees the truth.
#[cfg(target_os = "linux")]
mod startup {
    use std::sync::atomic::{AtomicU8, Ordering};

    static CLOSED: AtomicU8 = AtomicU8::new(0);

    extern "C" fn probe() {
        for fd in 0..3 {
            // SAFETY: F_GETFD only reads the descriptor's flags; it fails
            // with EBADF when the descriptor is not open.
            if unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1 {
                CLOSED.fetch_or(1 << fd, Ordering::Relaxed);
            }
        }
    }

    // Run by the C runtime before `main` (and so before Rust's runtime
    // reopens closed descriptors), as for any ELF constructor.
    #[used]
    #[link_section = ".init_array"]
    static PROBE: extern "C" fn() = probe;

    pub fn was_closed(fd: i32) -> bool {
        CLOSED.load(Ordering::Relaxed) & (1 << fd) != 0
    }
}

/// Fail early when standard output was closed at start: the result would go nowhere.
pub fn require_stdout() -> Result<(), CliError> {
    #[cfg(target_os = "linux")]
    if startup::was_closed(1) {
        return Err(CliError::StdoutClosed);
    }
    Ok(())
}

/// Restore the default action of SIGPIPE (Rust ignores it): a write to a
/// closed pipe then ends the command quietly, as `zkmsm ... | head -c 10`
/// expects of a Unix tool.
pub fn default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to SIG_DFL installs no handler
    // code; it is done before any thread is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// The subcommands that print with `println!` (the model's `sim`) panic when
/// a write fails; make that the usual one-line error and exit status 1
/// instead of a panic (status 101). Other panics keep the default report.
pub fn print_failures_are_errors() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        for (prefix, stream) in
            [("failed printing to stdout: ", "standard output"), ("failed printing to stderr: ", "standard error")]
        {
            if let Some(reason) = message.strip_prefix(prefix) {
                let _ = err(format_args!("zkmsm: error: writing {stream}: {}", one_line(reason)));
                std::process::exit(1);
            }
        }
        default(info);
    }));
}
