//! `zkmsm prepare`: MSM_INIT once, persisted (validated, converted points in
//! the backend's own layout, see `zkmsm::prepared`); `zkmsm msm --prepared`
//! maps such a file (commands/msm/prepared.rs).

use super::points_layout::{count_points, PointsInput};
use super::report::ms;
use crate::args::PrepareArgs;
use crate::console::errln;
use crate::console::require_stdout;
use crate::contract;
use crate::error::CliError;
use crate::output::{input_identity, Identity, Output};
use crate::progress;
use std::io::IsTerminal;
use std::path::Path;
use std::time::Instant;
use zkmsm::io::{read_points_from, ReadOptions, Source};
use zkmsm::{BackendChoice, EngineCurve, MsmBuilder, MsmError, Validation};

/// An error about the staging file, told about the output the user named.
fn renamed(e: MsmError, staging: &Path, out: &Path) -> MsmError {
    match e {
        MsmError::Io { path, source } if path == staging => MsmError::Io { path: out.to_path_buf(), source },
        other => other,
    }
}

pub fn prepare<C: EngineCurve>(a: &PrepareArgs) -> Result<(), CliError> {
    let backend = refuse::<C>(a)?;
    let mut out = Output::open(&a.out)?;
    if out.writes_stdout() {
        require_stdout()?;
        if std::io::stdout().is_terminal() {
            return Err(CliError::BinaryToTerminal);
        }
    }
    if let Some((dev, ino)) = input_identity(&a.points) {
        if out.identity() == Identity::Inode(dev, ino) {
            return Err(CliError::OutputIsInput { output: a.out.clone(), input: a.points.clone() });
        }
    }
    let t = Instant::now();
    let asked = a.point_format.map(Into::into);
    let input = PointsInput::read::<C>(&a.points, a.max_points, asked)?;
    let (n, format) = count_points::<C>(&input, asked)?;
    if n > a.max_points {
        return Err(CliError::AboveMaxPoints { path: input.name.clone(), n, max: a.max_points });
    }
    if let Some(budget) = a.memory_budget {
        return super::prepare_out_of_core::prepare::<C>(a, &input, n, format, backend, out, budget);
    }
    let mut src = match input.bytes {
        Some(bytes) => Source::from_bytes(input.name.clone(), bytes),
        None => Source::open(&a.points)?,
    };
    let pb = progress::bar("reading and validating points", "points");
    let (points, _) = read_points_from::<C>(
        &mut src,
        n,
        &ReadOptions {
            format: Some(format),
            validation: Validation::Full,
            max_points: a.max_points,
            progress: &|done, total| {
                pb.set_length(total as u64);
                pb.set_position(done as u64);
            },
            ..Default::default()
        },
    )?;
    pb.finish_and_clear();
    let load = t.elapsed();
    let t = Instant::now();
    let pb = progress::preparing(a.precompute);
    let ctx = MsmBuilder::new()
        .validation(Validation::AlreadyValidated)
        .backend(backend)
        .precompute(a.precompute)
        .window(a.window)
        .glv(a.glv.mode()) // with GLV the file holds the n points and their images
        .build(points)?;
    let init = t.elapsed();
    pb.set_message("writing the prepared file");
    let t = Instant::now();
    // written beside the target and renamed over it: a reader that has the
    // old file mapped keeps the old inode, whole
    let staging = out.staging_path()?;
    ctx.write_prepared(&staging).map_err(|e| renamed(e, &staging, &a.out))?;
    out.commit()?;
    pb.finish_and_clear();
    errln!(
        "prepared {n} {} points ({format:?}) for {}{}{}: loaded and validated in {:.0} ms, converted in {:.0} ms, written in {:.0} ms",
        C::NAME,
        ctx.backend_name(),
        contract::fixed_base(a.precompute).map(|m| format!(", fixed-base x{m}")).unwrap_or_default(),
        if ctx.glv() { ", with GLV images" } else { "" },
        ms(load),
        ms(init),
        ms(t.elapsed())
    )?;
    Ok(())
}

/// Every refusal of `zkmsm prepare`'s options, before the output is opened
/// or any input read: the backend it writes.
fn refuse<C: EngineCurve>(a: &PrepareArgs) -> Result<BackendChoice, CliError> {
    let backend = a.backend.choice();
    let choice = backend.library("prepare writes the library's backends' layouts, not --backend rtl")?;
    contract::fixed_base_and_glv(a.precompute, a.glv.mode())?;
    contract::backend_for_curve::<C>(backend)?;
    super::prepare_out_of_core::refuse(a)?;
    Ok(choice)
}
