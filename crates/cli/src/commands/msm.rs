//! `zkmsm msm`: the MSM of a points file and a scalars file.

use super::ms;
use super::rtl::{self, CliCurve};
use crate::args::MsmArgs;
use crate::console::{errln, outln};
use crate::error::CliError;
use crate::progress;
use serde_json::json;
use std::io::IsTerminal;
use std::path::Path;
use std::time::Instant;
use zkmsm::io::{read_msm_inputs, result_hex, ReadOptions, Source};
use zkmsm::{Affine, MsmBuilder, Validation};

pub fn msm<C: CliCurve>(a: &MsmArgs) -> Result<(), CliError> {
    let Some(points_path) = a.points.as_deref() else {
        let file = a.prepared.as_deref().expect("clap requires --points or --prepared");
        return super::msm_prepared::msm_prepared::<C>(a, file);
    };
    if a.memory_budget.is_none() {
        rtl::refuse_early::<C>(a.backend, a.precompute, &a.rtl)?;
    }
    backend_for_curve::<C>(a.backend)?;
    if points_path.as_os_str() == "-" && a.scalars.as_os_str() == "-" {
        return Err(CliError::BothStdin);
    }
    for (path, what) in [(points_path, "points"), (a.scalars.as_path(), "scalars")] {
        if path.as_os_str() == "-" && std::io::stdin().is_terminal() {
            errln!("reading the {what} from the terminal (standard input); end with Ctrl-D")?;
        }
    }
    if let Some(budget) = a.memory_budget {
        return out_of_core::<C>(a, points_path, budget);
    }
    let t = Instant::now();
    let points = Source::open(points_path)?;
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
    let pb = progress::spinner(super::demo::init_message(a.precompute));
    // Without --check the context takes the points (no second copy: peak memory).
    let (ctx, points, rtl) = match a.backend.choice() {
        Some(choice) => {
            let builder = MsmBuilder::new()
                .validation(Validation::AlreadyValidated)
                .backend(choice)
                .precompute(a.precompute)
                .glv(a.glv.mode())
                .window(a.window);
            let (ctx, points) =
                if a.check { (builder.build(&points), points) } else { (builder.build(points), Vec::new()) };
            (ctx?, points, None)
        }
        None => {
            rtl::no_precompute(a.precompute)?;
            no_glv(a, "--backend rtl runs the RTL core without GLV")?;
            let (ctx, points) = if a.check {
                (C::rtl_engine(points.clone(), a.window, &a.rtl), points)
            } else {
                (C::rtl_engine(points, a.window, &a.rtl), Vec::new())
            };
            let (ctx, handle) = ctx?;
            (ctx, points, Some(handle))
        }
    };
    pb.finish_and_clear();
    let init = t.elapsed();
    super::report::run_and_report(a, ctx.as_ref(), &scalars, &points, load, init, rtl.as_ref())
}

/// `--glv on` where GLV does not run: refused with `why`.
pub(super) fn no_glv(a: &MsmArgs, why: &str) -> Result<(), CliError> {
    if a.glv == crate::args::GlvName::On {
        return Err(zkmsm::MsmError::Unsupported(format!("--glv on: {why}")).into());
    }
    Ok(())
}

/// `--memory-budget`: the library's out-of-core MSM (zkmsm::out_of_core).
/// Each option is honoured or refused: `--check` and `--precompute` would
/// hold every point in memory and are refused; `--window`, `--repeat`,
/// `--max-points` and `--glv` apply to each chunk's MSM.
fn out_of_core<C: zkmsm::EngineCurve>(a: &MsmArgs, points: &Path, budget: usize) -> Result<(), CliError> {
    if points.as_os_str() == "-" || a.scalars.as_os_str() == "-" {
        return Err(CliError::BudgetNeedsFiles);
    }
    let refuse = |what: &str| Err(zkmsm::MsmError::Unsupported(format!("--memory-budget: {what}")).into());
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
    let opts = zkmsm::out_of_core::OutOfCoreOptions {
        format: a.point_format.map(Into::into),
        scalar_endian: a.scalar_endian.into(),
        backend: a.backend.choice().ok_or_else(|| {
            zkmsm::MsmError::Unsupported("--memory-budget runs the library's backends, not --backend rtl".into())
        })?,
        glv: a.glv.mode(),
        window: a.window,
        ..zkmsm::out_of_core::OutOfCoreOptions::with_budget(budget)
    };
    // the scalars file's length gives the count (a length prefix adds 8 bytes)
    let scalars_len = std::fs::metadata(&a.scalars)
        .map_err(|source| zkmsm::MsmError::Io { path: a.scalars.clone(), source })?
        .len() as usize;
    let n = scalars_len / zkmsm::io::SCALAR_BYTES;
    if n > a.max_points {
        return Err(CliError::AboveMaxPoints { path: a.scalars.clone(), n, max: a.max_points });
    }
    // each run reads, validates and multiplies: the reading is part of what
    // is measured, so there is no warm-up; msm_ms is the median
    let mut runs = Vec::new();
    for _ in 0..a.repeat {
        let t = Instant::now();
        let out = zkmsm::out_of_core::msm_files::<C>(points, &a.scalars, &opts)?;
        runs.push((ms(t.elapsed()), out));
    }
    runs.sort_by(|x, y| x.0.total_cmp(&y.0));
    let all: Vec<f64> = runs.iter().map(|r| r.0).collect();
    let (msm_ms, out) = runs.swap_remove(runs.len() / 2);
    errln!(
        "out-of-core msm: {msm_ms:.2} ms (read, validate and MSM; median of {}), {} points in {} chunks of {}, backend {}{}",
        a.repeat,
        out.n,
        out.chunks,
        out.chunk_points,
        out.backend_line(),
        if out.glv { ", GLV" } else { "" }
    )?;
    for (name, v) in out.timings.as_ms() {
        errln!("  {name:<20} {v:10.2} ms (all chunks)")?;
    }
    let hex = result_hex(&out.result.to_affine());
    if a.json {
        let phases: serde_json::Map<_, _> =
            out.timings.as_ms().iter().map(|(k, v)| (k.to_string(), json!(v))).collect();
        outln!(
            "{}",
            json!({"curve": C::NAME, "n": out.n, "result": hex, "msm_ms": msm_ms, "msm_ms_all": all, "repeat": a.repeat,
                   "load_ms": ms(out.load), "init_ms": ms(out.init),
                   "window": out.plan.map(|p| p.c), "windows": out.plan.map(|p| p.windows),
                   "phases_ms": phases, "memory_budget": budget,
                   "chunks": out.chunks, "chunk_points": out.chunk_points, "backend": out.backend_line(),
                   "backends": out.backends, "glv": out.glv})
        )
    } else {
        outln!("{hex}")
    }
}

/// A backend the curve does not have is refused before any input is read
/// (the library's own refusal, asked of no points).
pub(super) fn backend_for_curve<C: zkmsm::EngineCurve>(backend: crate::args::BackendName) -> Result<(), CliError> {
    if backend != crate::args::BackendName::TwistedEdwards {
        return Ok(());
    }
    let choice = backend.choice().expect("a library backend");
    MsmBuilder::new().validation(Validation::AlreadyValidated).backend(choice).build(Vec::<Affine<C>>::new())?;
    Ok(())
}
