//! `zkmsm`: multi-scalar multiplication on BLS12-377/381 G1 from the command line.
//!
//! Output contract (scripts rely on it): the result is the LAST line of
//! stdout, as lowercase hex of its arkworks compressed encoding, or with
//! `--json` a last line of JSON holding `result`, `msm_ms` and `phases_ms`.
//! Progress and timings go to stderr. Errors are one line on stderr, exit 1.

mod args;
mod commands;

use clap::Parser;

fn main() {
    let cli = args::Cli::parse();
    if let Err(e) = commands::run(cli) {
        eprintln!("zkmsm: error: {e}");
        std::process::exit(1);
    }
}
