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
use std::path::Path;
use zkmsm::{BackendChoice, MsmError, Validation};

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
        Mode::OutOfCore { points, budget, backend } => out_of_core::msm::<C>(a, points, budget, backend),
    }
}

/// Where the points come from, and what runs them.
enum Mode<'a> {
    /// `--prepared FILE`: mapped; the file fixes the backend.
    Prepared(&'a Path),
    /// `--points FILE`: read into memory.
    InMemory { points: &'a Path, backend: Backend },
    /// `--memory-budget BYTES`: streamed from the files a chunk at a time.
    OutOfCore { points: &'a Path, budget: usize, backend: BackendChoice },
}

/// Every refusal of `zkmsm msm`'s options, before any input is read.
/// `--memory-budget` honours each option or refuses it: `--check` and
/// `--precompute` would hold every point in memory; `--window`, `--repeat`,
/// `--max-points` and `--glv` apply to each chunk's MSM.
fn refuse<'a, C: CliCurve>(a: &'a MsmArgs, options: &EngineOptions) -> Result<Mode<'a>, CliError> {
    let Some(points) = a.points.as_deref() else {
        // clap refuses every option that the file fixes (conflicts_with_all)
        return Ok(Mode::Prepared(a.prepared.as_deref().expect("clap requires --points or --prepared")));
    };
    let backend = a.backend.choice();
    if a.memory_budget.is_none() {
        contract::backend_options::<C>(backend, options)?;
    }
    contract::backend_for_curve::<C>(backend)?;
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
    let refuse = |what: &str| Err(MsmError::Unsupported(format!("--memory-budget: {what}")).into());
    if a.check {
        return refuse("--check holds every point in memory for the reference, which the budget rules out");
    }
    if a.precompute.is_some() {
        return refuse("--precompute keeps shifted copies of every point in memory, which the budget rules out");
    }
    if a.rtl.any() {
        return refuse(
            "--rtl-cores, --rtl-adder and --rtl-aggregation apply to --backend rtl only, which runs in memory",
        );
    }
    let backend = backend.library("--memory-budget runs the library's backends, not --backend rtl")?;
    Ok(Mode::OutOfCore { points, budget, backend })
}
