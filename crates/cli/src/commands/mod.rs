//! What each subcommand does, one file per subcommand, generic over the curve.

mod bench;
mod demo;
mod gen;
mod msm;
mod msm_prepared;
mod plot;
mod points_layout;
mod prepare;
mod report;
mod rtl;

use crate::args::*;
use crate::console::{errln, require_stdout};
use crate::error::CliError;
use std::time::{Duration, Instant};
use zkmsm::{Bls12_377, Bls12_381, Bn254, MsmCurve, MsmEngine, MsmOutput, ScalarLimbs};

pub fn run(cli: Cli) -> Result<(), CliError> {
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

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn phases_json<C: MsmCurve>(out: &MsmOutput<C>) -> serde_json::Value {
    out.timings
        .as_ms()
        .iter()
        .map(|(k, v)| (k.to_string(), serde_json::json!(v)))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

fn print_phases<C: MsmCurve>(out: &MsmOutput<C>) -> Result<(), CliError> {
    for (name, v) in out.timings.as_ms() {
        errln!("  {name:<20} {v:10.2} ms")?;
    }
    Ok(())
}

/// Warm-up plus `repeat` timed runs; the run with the median time.
fn timed_runs<C: MsmCurve>(
    ctx: &dyn MsmEngine<C>,
    scalars: &[ScalarLimbs],
    repeat: u32,
) -> Result<(MsmOutput<C>, Vec<f64>), CliError> {
    ctx.msm_report(scalars)?;
    let mut runs = Vec::new();
    for _ in 0..repeat {
        let t = Instant::now();
        let out = ctx.msm_report(scalars)?;
        runs.push((ms(t.elapsed()), out));
    }
    runs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let all: Vec<f64> = runs.iter().map(|r| r.0).collect();
    let median = runs.swap_remove(runs.len() / 2);
    Ok((median.1, all))
}
