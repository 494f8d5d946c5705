//! `zkmsm`: multi-scalar multiplication on BLS12-377, BLS12-381 and BN254 G1 from the command line.
//!
//! Output contract (scripts rely on it): the result is the LAST line of
//! stdout, as lowercase hex of its arkworks compressed encoding, or with
//! `--json` a last line of JSON holding `result`, `msm_ms` and `phases_ms`.
//! Progress and timings go to stderr. Errors, those of the command line's
//! parsing too, are one line on stderr, exit 1;
//! a closed pipe on stdout ends the command quietly (SIGPIPE), as Unix tools do.

mod alloc;
mod args;
mod backend;
mod cleanup;
mod commands;
mod console;
mod contract;
mod curve;
mod error;
mod escape;
mod mapped;
mod output;
mod progress;
mod rtl;

use clap::error::ErrorKind;
use clap::Parser;

#[global_allocator]
static ALLOCATOR: alloc::OneLineOutOfMemory = alloc::OneLineOutOfMemory;

fn main() {
    console::default_sigpipe();
    console::print_failures_are_errors();
    let cli = match args::Cli::try_parse() {
        Ok(cli) => cli,
        // --help and --version print as clap prints them, exit status 0
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => e.exit(),
        Err(e) => {
            let _ = console::err(format_args!("zkmsm: error: {}", console::one_line(&console::parse_error_line(&e))));
            std::process::exit(1);
        }
    };
    if let Err(e) = commands::run(cli) {
        if e.is_broken_pipe() {
            // SIGPIPE is ignored by whoever started us: still end quietly
            std::process::exit(141);
        }
        // if standard error itself fails there is nowhere left to say so
        let _ = console::err(format_args!("zkmsm: error: {}", console::one_line(&e.to_string())));
        std::process::exit(1);
    }
}
