//! What each subcommand does, one file (or folder) per subcommand, generic
//! over the curve. Each one's first step is its `refuse` function: every
//! refusal of its options, before any input is read or generated.

mod bench;
mod demo;
mod gen;
mod memory;
mod msm;
mod plot;
mod points_layout;
mod prepare;
mod prepare_out_of_core;
mod report;

use crate::args::*;
use crate::console::require_stdout;
use crate::error::CliError;
use zkmsm::{Bls12_377, Bls12_381, Bn254};

pub fn run(cli: Cli) -> Result<(), CliError> {
    // the one refusal every command that takes a point format shares
    crate::contract::point_format(&cli.command)?;
    if matches!(cli.command, Command::Demo(_) | Command::Msm(_) | Command::Prepare(_)) {
        return_large_buffers_to_the_os();
    }
    if !matches!(cli.command, Command::Gen(_) | Command::Prepare(_)) {
        // every other subcommand's result is on standard output
        require_stdout()?;
    }
    match cli.command {
        Command::Demo(a) => match a.curve {
            CurveName::Bls12_377 => demo::demo::<Bls12_377>(&a),
            CurveName::Bls12_381 => demo::demo::<Bls12_381>(&a),
            CurveName::Bn254 => demo::demo::<Bn254>(&a),
        },
        Command::Gen(a) => match a.curve {
            CurveName::Bls12_377 => gen::gen::<Bls12_377>(&a),
            CurveName::Bls12_381 => gen::gen::<Bls12_381>(&a),
            CurveName::Bn254 => gen::gen::<Bn254>(&a),
        },
        Command::Msm(a) => match a.curve {
            CurveName::Bls12_377 => msm::msm::<Bls12_377>(&a),
            CurveName::Bls12_381 => msm::msm::<Bls12_381>(&a),
            CurveName::Bn254 => msm::msm::<Bn254>(&a),
        },
        Command::Prepare(a) => match a.curve {
            CurveName::Bls12_377 => prepare::prepare::<Bls12_377>(&a),
            CurveName::Bls12_381 => prepare::prepare::<Bls12_381>(&a),
            CurveName::Bn254 => prepare::prepare::<Bn254>(&a),
        },
        Command::Bench(a) => match a.curve {
            CurveName::Bls12_377 => bench::bench::<Bls12_377>(&a),
            CurveName::Bls12_381 => bench::bench::<Bls12_381>(&a),
            CurveName::Bn254 => bench::bench::<Bn254>(&a),
        },
        Command::Sim(a) => Ok(zkmsm_sim::cli::run(*a)?),
    }
}

/// Peak memory: have glibc serve every allocation of 1 MiB or more
/// (a window's digits, bucket arrays) from its own mapping, returned to the OS
/// when freed. By default glibc raises that threshold after the first such
/// free, and the per-window buffers then cycle through its per-thread arenas,
/// which kept ~14 MiB more resident at 2^20 points (batch-affine, 2 threads;
/// docs/BENCHMARKS.md). Other allocators and platforms: nothing to do.
fn return_large_buffers_to_the_os() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        const M_MMAP_THRESHOLD: i32 = -3;
        // SAFETY: mallopt only changes glibc malloc's tuning parameters; it
        // is called before this command allocates its buffers.
        unsafe {
            libc::mallopt(M_MMAP_THRESHOLD, 1 << 20);
        }
    }
}
