//! `zkmsm prepare --memory-budget`: the prepared file of a points file
//! larger than memory (zkmsm::out_of_core::prepare_file): read, validated
//! and converted a chunk at a time, the next chunk read ahead, the records
//! appended to the staging file, which is renamed in once whole.

use super::points_layout::PointsInput;
use super::report::ms;
use crate::args::PrepareArgs;
use crate::console::errln;
use crate::error::CliError;
use crate::output::Output;
use crate::progress;
use std::time::Instant;
use zkmsm::io::{PointsLayout, LENGTH_PREFIX_BYTES};
use zkmsm::out_of_core::{prepare_file, OutOfCoreOptions};
use zkmsm::{BackendChoice, EngineCurve, MsmError};
use zkmsm_curve::PointFormat;

/// What `--memory-budget` cannot honour, refused before anything is read:
/// the points must be a file (read by offset), and the records plain.
pub fn refuse(a: &PrepareArgs) -> Result<(), CliError> {
    if a.memory_budget.is_none() {
        return Ok(());
    }
    if a.points.as_os_str() == "-" {
        return Err(CliError::BudgetNeedsFiles);
    }
    if let Some(m) = crate::contract::fixed_base(a.precompute) {
        let what = format!("--memory-budget: --precompute {m} stores shifted copies of every point; prepare in memory");
        return Err(MsmError::Unsupported(what).into());
    }
    if a.glv.mode() == zkmsm::GlvMode::On {
        let what = "--memory-budget: --glv on stores every point's image after all the points; prepare in memory";
        return Err(MsmError::Unsupported(what.into()).into());
    }
    Ok(())
}

pub fn prepare<C: EngineCurve>(
    a: &PrepareArgs,
    input: &PointsInput,
    n: usize,
    format: PointFormat,
    backend: BackendChoice,
    mut out: Output,
    budget: usize,
) -> Result<(), CliError> {
    let t = Instant::now();
    let layout = PointsLayout { format, prefixed: input.len == n * format.size::<C>() + LENGTH_PREFIX_BYTES };
    let opts = OutOfCoreOptions { backend, ..OutOfCoreOptions::with_budget(budget) };
    let staging = out.staging_path()?;
    let pb = progress::bar("preparing (read, validate, convert, write)", "points");
    let bar = |done: usize, total: usize| {
        pb.set_length(total as u64);
        pb.set_position(done as u64);
    };
    let wrote = prepare_file::<C>(&a.points, n, layout, &staging, &opts, &bar).map_err(|e| match e {
        MsmError::Io { path, source } if path == staging => MsmError::Io { path: a.out.clone(), source },
        other => other,
    })?;
    out.commit()?;
    pb.finish_and_clear();
    errln!(
        "prepared {n} {} points ({format:?}) for {} ({}) in {} chunks of {} under a {budget}-byte budget in {:.0} ms",
        C::NAME,
        wrote.backend,
        wrote.layout,
        wrote.chunks,
        wrote.chunk_points,
        ms(t.elapsed())
    )?;
    Ok(())
}
