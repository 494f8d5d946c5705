//! `zkmsm msm --memory-budget`: the library's out-of-core MSM
//! (zkmsm::out_of_core): points (`--points`) or a prepared file's records
//! (`--prepared`) and the scalars streamed from their files a chunk at a
//! time, the next chunk read while the cores run the current one, one
//! partial MSM each; a progress bar, and the report of the whole.

use crate::args::MsmArgs;
use crate::commands::report::ms;
use crate::console::{errln, outln};
use crate::error::CliError;
use crate::progress;
use serde_json::json;
use std::path::Path;
use std::time::Instant;
use zkmsm::io::result_hex;
use zkmsm::out_of_core::{msm_files_with_progress, msm_prepared_file, OutOfCoreOptions, OutOfCoreOutput};
use zkmsm::{BackendChoice, EngineCurve, MsmError};

/// What the chunks are read from.
#[derive(Clone, Copy)]
pub enum Source<'a> {
    /// `--points FILE`: encoded points, decoded and validated chunk by chunk.
    Points(&'a Path, BackendChoice),
    /// `--prepared FILE`: a prepared file's records, checked chunk by chunk.
    Prepared(&'a Path),
}

pub fn msm<C: EngineCurve>(a: &MsmArgs, source: Source<'_>, budget: usize) -> Result<(), CliError> {
    let opts = OutOfCoreOptions {
        format: a.point_format.map(Into::into),
        scalar_endian: a.scalar_endian.into(),
        backend: match source {
            Source::Points(_, backend) => backend,
            Source::Prepared(_) => BackendChoice::Auto,
        },
        glv: a.glv.mode(),
        window: a.window,
        ..OutOfCoreOptions::with_budget(budget)
    };
    // the scalars file's length gives the count (a length prefix adds 8 bytes)
    let scalars_len = std::fs::metadata(&a.scalars)
        .map_err(|source| MsmError::Io { path: a.scalars.clone(), source })?
        .len() as usize;
    let n = scalars_len / zkmsm::io::SCALAR_BYTES;
    if n > a.max_points {
        return Err(CliError::AboveMaxPoints { path: a.scalars.clone(), n, max: a.max_points });
    }
    // each run reads, validates and multiplies: the reading is part of what
    // is measured, so there is no warm-up; msm_ms is the median
    let mut runs = Vec::new();
    for _ in 0..a.repeat {
        let pb = progress::bar(if a.repeat > 1 { "out-of-core msm (run by run)" } else { "out-of-core msm" }, "points");
        let bar = |done: usize, total: usize| {
            pb.set_length(total as u64);
            pb.set_position(done as u64);
        };
        let t = Instant::now();
        let out = match source {
            Source::Points(points, _) => msm_files_with_progress::<C>(points, &a.scalars, &opts, &bar),
            Source::Prepared(file) => msm_prepared_file::<C>(file, &a.scalars, &opts, &bar),
        }
        .map_err(|e| counted(e, source, &a.scalars))?;
        pb.finish_and_clear();
        runs.push((ms(t.elapsed()), out));
    }
    runs.sort_by(|x, y| x.0.total_cmp(&y.0));
    let all: Vec<f64> = runs.iter().map(|r| r.0).collect();
    let (msm_ms, out) = runs.swap_remove(runs.len() / 2);
    report(a, msm_ms, &all, &out, budget)
}

/// A prepared file and a scalars file of other counts, named as
/// `msm --prepared` names them.
fn counted(e: MsmError, source: Source<'_>, scalars: &Path) -> CliError {
    match (e, source) {
        (MsmError::LengthMismatch { points, scalars: count }, Source::Prepared(file)) => CliError::PreparedCount {
            prepared: file.to_path_buf(),
            points,
            scalars_file: scalars.to_path_buf(),
            scalars: count,
        },
        (e, _) => e.into(),
    }
}

fn report<C: EngineCurve>(
    a: &MsmArgs,
    msm_ms: f64,
    all: &[f64],
    out: &OutOfCoreOutput<C>,
    budget: usize,
) -> Result<(), CliError> {
    let read = &out.read;
    let rate = read.bytes as f64 / read.reading.as_secs_f64().max(1e-9) / 1e6;
    errln!(
        "out-of-core msm: {msm_ms:.2} ms (read, validate and MSM; median of {}), {} points in {} chunks of {}, backend {}{}",
        a.repeat,
        out.n,
        out.chunks,
        out.chunk_points,
        out.backend_line(),
        if out.glv { ", GLV" } else { "" }
    )?;
    errln!(
        "  read {:.1} MB in {:.0} ms ({rate:.0} MB/s while reading), ahead of the cores: they waited {:.0} ms for it, \
         it waited {:.0} ms for them",
        read.bytes as f64 / 1e6,
        ms(read.reading),
        ms(read.cores_waited),
        ms(read.reader_waited)
    )?;
    for (name, v) in out.timings.as_ms() {
        errln!("  {name:<20} {v:10.2} ms (all chunks)")?;
    }
    let hex = result_hex(&out.result.to_affine());
    if !a.json {
        return outln!("{hex}");
    }
    let phases: serde_json::Map<_, _> = out.timings.as_ms().iter().map(|(k, v)| (k.to_string(), json!(v))).collect();
    outln!(
        "{}",
        json!({"curve": C::NAME, "group": C::GROUP, "n": out.n, "result": hex, "msm_ms": msm_ms, "msm_ms_all": all, "repeat": a.repeat,
               "load_ms": ms(out.load), "init_ms": ms(out.init),
               "window": out.plan.map(|p| p.c), "windows": out.plan.map(|p| p.windows),
               "phases_ms": phases, "memory_budget": budget,
               "chunks": out.chunks, "chunk_points": out.chunk_points, "reserve_window": out.reserve_window,
               "backend": out.backend_line(), "backends": out.backends, "glv": out.glv,
               "read_bytes": read.bytes, "read_ms": ms(read.reading),
               "cores_waited_ms": ms(read.cores_waited), "reader_waited_ms": ms(read.reader_waited)})
    )
}
