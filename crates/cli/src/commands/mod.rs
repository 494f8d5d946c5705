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

/// A command generic over the curve, run on the (curve, group) its
/// arguments name: the registry's entry and its curve type.
macro_rules! on_group {
    ($a:expr, $($f:ident)::+) => {
        zkmsm::with_curve!($a.curve.in_group($a.group), C => $($f)::+::<C>(&$a))
    };
}

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
        Command::Demo(a) => on_group!(a, demo::demo),
        Command::Gen(a) => on_group!(a, gen::gen),
        Command::Msm(a) => on_group!(a, msm::msm),
        Command::Prepare(a) => on_group!(a, prepare::prepare),
        Command::Bench(a) => on_group!(a, bench::bench),
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
