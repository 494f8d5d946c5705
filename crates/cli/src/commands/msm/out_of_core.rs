//! `zkmsm msm --memory-budget`: the library's out-of-core MSM
//! (zkmsm::out_of_core): points and scalars streamed from their files a
//! chunk at a time, one partial MSM each, and the report of the whole.

use crate::args::MsmArgs;
use crate::commands::report::ms;
use crate::console::{errln, outln};
use crate::error::CliError;
use serde_json::json;
use std::path::Path;
use std::time::Instant;
use zkmsm::io::result_hex;
use zkmsm::out_of_core::{msm_files, OutOfCoreOptions};
use zkmsm::{BackendChoice, EngineCurve, MsmError};

pub fn msm<C: EngineCurve>(a: &MsmArgs, points: &Path, budget: usize, backend: BackendChoice) -> Result<(), CliError> {
    let opts = OutOfCoreOptions {
        format: a.point_format.map(Into::into),
        scalar_endian: a.scalar_endian.into(),
        backend,
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
        let t = Instant::now();
        let out = msm_files::<C>(points, &a.scalars, &opts)?;
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
