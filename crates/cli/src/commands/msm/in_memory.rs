//! `zkmsm msm --points`: the points and the scalars read into memory
//! (decoded, validated, each scalar checked below r), the points set up on
//! the backend, then the runs and the report ([`crate::commands::report`]).

use crate::args::MsmArgs;
use crate::backend::{Backend, EngineOptions};
use crate::commands::memory;
use crate::commands::report::{ms, run_and_report};
use crate::console::errln;
use crate::curve::CliCurve;
use crate::error::CliError;
use crate::progress;
use std::borrow::Cow;
use std::io::IsTerminal;
use std::path::Path;
use std::time::Instant;
use zkmsm::io::{read_msm_inputs, ReadOptions, Source};
use zkmsm::Validation;

pub fn msm<C: CliCurve>(a: &MsmArgs, points: &Path, backend: Backend, options: &EngineOptions) -> Result<(), CliError> {
    reserve::<C>(a, points, backend, options)?;
    for (path, what) in [(points, "points"), (a.scalars.as_path(), "scalars")] {
        if path.as_os_str() == "-" && std::io::stdin().is_terminal() {
            errln!("reading the {what} from the terminal (standard input); end with Ctrl-D")?;
        }
    }
    let t = Instant::now();
    let points = Source::open(points)?;
    let scalars = Source::open(&a.scalars)?;
    let pb = progress::bar("reading and validating points", "points");
    let inputs = read_msm_inputs::<C>(
        points,
        scalars,
        &ReadOptions {
            format: a.point_format.map(Into::into),
            validation: Validation::Full,
            max_points: a.max_points,
            scalar_endian: a.scalar_endian.into(),
            progress: &|done, total| {
                pb.set_length(total as u64);
                pb.set_position(done as u64);
            },
        },
    )?;
    pb.finish_and_clear();
    let (points, scalars, layout) = (inputs.points, inputs.scalars, inputs.layout);
    let load = t.elapsed();
    errln!(
        "loaded {} points ({:?}{}) and scalars{} in {:.1} ms (decoded, validated)",
        points.len(),
        layout.format,
        if layout.prefixed { ", length-prefixed" } else { "" },
        if inputs.scalars_prefixed { " (length-prefixed)" } else { "" },
        ms(load)
    )?;
    let t = Instant::now();
    let pb = progress::preparing(a.precompute);
    // Without --check the engine takes the points (no second copy: peak memory).
    let (engine, points) = if a.check {
        (backend.build::<C>(Cow::Borrowed(&points), options), points)
    } else {
        (backend.build::<C>(Cow::Owned(points), options), Vec::new())
    };
    let engine = engine?;
    pb.finish_and_clear();
    let init = t.elapsed();
    run_and_report(a, &engine, &scalars, &points, load, init)
}

/// The memory the inputs' count implies (the decoded points and
/// scalars, a second copy of the points for `--check`, the engine),
/// reserved before anything is read. A stream's count is not known: it is
/// bounded by `--max-points` as it is read.
fn reserve<C: CliCurve>(a: &MsmArgs, points: &Path, backend: Backend, options: &EngineOptions) -> Result<(), CliError> {
    let Ok(meta) = std::fs::metadata(&a.scalars) else { return Ok(()) };
    if a.scalars.as_os_str() == "-" || !meta.is_file() {
        return Ok(());
    }
    let mut n = (meta.len() / zkmsm::io::SCALAR_BYTES as u64) as usize;
    if n > a.max_points {
        // refused by the reader, which names the input limit
        return Ok(());
    }
    // the counts must agree: a points file bounds n too (its smallest
    // layout), and a scalars file of another count is refused as such
    if let Some(p) = std::fs::metadata(points).ok().filter(|m| m.is_file()) {
        n = n.min((p.len() / zkmsm_curve::PointFormat::Compressed.size::<C>() as u64) as usize);
    }
    let fixed_base = crate::contract::fixed_base(options.precompute);
    let glv =
        options.glv != zkmsm::GlvMode::Off && fixed_base.is_none() && C::glv().is_some() && backend != Backend::Rtl;
    let points = if a.check { 2 } else { 1 };
    let bytes = memory::inputs::<C>(n, 1)
        .saturating_add(memory::inputs::<C>(n, 0).saturating_mul(points - 1))
        .saturating_add(memory::engine::<C>(n, memory::EngineShape { fixed_base, glv }));
    memory::reserve(bytes, &format!("an MSM of {n} {} points", C::LABEL))
}
