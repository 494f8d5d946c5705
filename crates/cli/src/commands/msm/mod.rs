//! `zkmsm msm`: the MSM of a points file (or a prepared file) and a scalars
//! file. It reads top to bottom: the options as parsed (crate::args), every
//! refusal of them here ([`refuse`]), before any input is read, then the
//! input's mode loads, runs and reports: [`in_memory`] and [`prepared`]
//! through [`crate::commands::report`], [`out_of_core`] by itself.

mod in_memory;
mod out_of_core;
mod prepared;

use crate::args::MsmArgs;
use crate::backend::{Backend, EngineOptions};
use crate::contract;
use crate::curve::CliCurve;
use crate::error::CliError;
use crate::output::input_identity;
use std::path::Path;
use zkmsm::{MsmError, Validation};

pub fn msm<C: CliCurve>(a: &MsmArgs) -> Result<(), CliError> {
    let options = EngineOptions {
        // the points are validated while they are read
        validation: Validation::AlreadyValidated,
        precompute: a.precompute,
        window: a.window,
        glv: a.glv.mode(),
        rtl: &a.rtl,
    };
    match refuse::<C>(a, &options)? {
        Mode::Prepared(file) => prepared::msm::<C>(a, file),
        Mode::InMemory { points, backend } => in_memory::msm::<C>(a, points, backend, &options),
        Mode::OutOfCore { source, budget } => out_of_core::msm::<C>(a, source, budget),
    }
}

/// Where the points come from, and what runs them.
enum Mode<'a> {
    /// `--prepared FILE`: mapped; the file fixes the backend.
    Prepared(&'a Path),
    /// `--points FILE`: read into memory.
    InMemory { points: &'a Path, backend: Backend },
    /// `--memory-budget BYTES`: streamed from the files a chunk at a time
    /// (the points, or a prepared file's records).
    OutOfCore { source: out_of_core::Source<'a>, budget: usize },
}

/// The points (or the prepared file, which must be named) and the scalars
/// must be two inputs:
/// one stream under two names (`-` and /dev/stdin, a FIFO named twice)
/// would be read part as points, part as scalars, and one file read as both
/// is neither. Inputs are compared by device and inode.
fn one_input_each(a: &MsmArgs) -> Result<(), CliError> {
    let (option, points) = match (a.points.as_deref(), a.prepared.as_deref()) {
        (Some(p), _) => ("--points", p),
        // mapped (or read by offset under a budget): a file, not `-`
        (None, Some(f)) if f.as_os_str() == "-" => return Err(CliError::PreparedFromStdin),
        (None, Some(f)) => ("--prepared", f),
        (None, None) => return Ok(()),
    };
    let stdin = |path: &Path| path.as_os_str() == "-";
    if stdin(points) && stdin(&a.scalars) {
        // the usual words for the plain case
        return Ok(());
    }
    // a character device (/dev/zero, /dev/urandom) gives each open its own
    // stream: named twice, it is two inputs
    let device = |path: &Path| {
        use std::os::unix::fs::FileTypeExt;
        !stdin(path) && std::fs::metadata(path).is_ok_and(|m| m.file_type().is_char_device())
    };
    match (input_identity(points), input_identity(&a.scalars)) {
        (Some(p), Some(s)) if p == s && !device(points) => {
            Err(CliError::SameInput { option, points: points.to_path_buf(), scalars: a.scalars.clone() })
        }
        _ => Ok(()),
    }
}

/// Every refusal of `zkmsm msm`'s options, before any input is read.
/// `--memory-budget` honours each option or refuses it: `--check` and
/// `--precompute` would hold every point in memory; `--window`, `--repeat`,
/// `--max-points` and `--glv` apply to each chunk's MSM; with `--prepared`
/// the file's records are streamed too.
fn refuse<'a, C: CliCurve>(a: &'a MsmArgs, options: &EngineOptions) -> Result<Mode<'a>, CliError> {
    one_input_each(a)?;
    let Some(points) = a.points.as_deref() else {
        // clap refuses every option that the file fixes (conflicts_with_all)
        let file = a.prepared.as_deref().expect("clap requires --points or --prepared");
        return match a.memory_budget {
            None => Ok(Mode::Prepared(file)),
            Some(_) if a.scalars.as_os_str() == "-" => Err(CliError::BudgetNeedsFiles),
            Some(budget) => Ok(Mode::OutOfCore { source: out_of_core::Source::Prepared(file), budget }),
        };
    };
    let backend = a.backend.choice();
    if a.memory_budget.is_none() {
        contract::backend_options::<C>(backend, options)?;
    }
    contract::backend_for_curve::<C>(backend)?;
    contract::fixed_base_and_glv(a.precompute, a.glv.mode())?;
    let stdin = |path: &Path| path.as_os_str() == "-";
    if stdin(points) && stdin(&a.scalars) {
        return Err(CliError::BothStdin);
    }
    let Some(budget) = a.memory_budget else {
        return Ok(Mode::InMemory { points, backend });
    };
    if stdin(points) || stdin(&a.scalars) {
        return Err(CliError::BudgetNeedsFiles);
    }
    // the scalars file's length gives the count (a length prefix adds 8 bytes)
    let scalars_len =
        std::fs::metadata(&a.scalars).map_err(|source| MsmError::Io { path: a.scalars.clone(), source })?.len();
    let n = (scalars_len / zkmsm::io::SCALAR_BYTES as u64) as usize;
    if n > a.max_points {
        return Err(CliError::AboveMaxScalars { path: a.scalars.clone(), n, max: a.max_points });
    }
    let refuse = |what: &str| Err(MsmError::Unsupported(format!("--memory-budget: {what}")).into());
    if a.check {
        return refuse("--check holds every point in memory for the reference, which the budget rules out");
    }
    if contract::fixed_base(a.precompute).is_some() {
        return refuse("--precompute keeps shifted copies of every point in memory, which the budget rules out");
    }
    if a.rtl.any() {
        return refuse(
            "--rtl-cores, --rtl-adder and --rtl-aggregation apply to --backend rtl only, which runs in memory",
        );
    }
    let backend = backend.library("--memory-budget runs the library's backends, not --backend rtl")?;
    Ok(Mode::OutOfCore { source: out_of_core::Source::Points(points, backend), budget })
}
