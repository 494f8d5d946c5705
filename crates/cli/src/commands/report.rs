//! The runs of a built engine and what is reported of them: the timed runs
//! (median of `--repeat`), the phases, and for `zkmsm msm` the optional check
//! against the reference and the result (text or JSON).

use crate::args::MsmArgs;
use crate::backend::Engine;
use crate::console::{errln, outln};
use crate::error::CliError;
use crate::rtl;
use serde_json::json;
use std::time::{Duration, Instant};
use zkmsm::io::result_hex;
use zkmsm::{Affine, EngineCurve, MsmEngine, MsmOutput, ScalarLimbs};

/// A duration in milliseconds, as every report gives times.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// `phases_ms` of the JSON report.
pub fn phases_json<C: zkmsm::InputCurve>(out: &MsmOutput<C>) -> serde_json::Value {
    out.timings
        .as_ms()
        .iter()
        .map(|(k, v)| (k.to_string(), serde_json::json!(v)))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// Each phase's time, one line each, on standard error.
pub fn print_phases<C: zkmsm::InputCurve>(out: &MsmOutput<C>) -> Result<(), CliError> {
    for (name, v) in out.timings.as_ms() {
        errln!("  {name:<20} {v:10.2} ms")?;
    }
    Ok(())
}

/// Warm-up plus `repeat` timed runs; the run with the median time.
pub fn timed_runs<C: zkmsm::InputCurve>(
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

/// `zkmsm msm`'s end: the timed runs of a built engine, the optional check
/// against the reference (`points` holds the points only with --check), and
/// the report.
pub fn run_and_report<C: EngineCurve>(
    a: &MsmArgs,
    engine: &Engine<C>,
    scalars: &[ScalarLimbs],
    points: &[Affine<C>],
    load: Duration,
    init: Duration,
) -> Result<(), CliError> {
    let ctx = engine.ctx.as_ref();
    let n = ctx.len();
    let (out, all) = timed_runs(ctx, scalars, a.repeat)?;
    let msm_ms = all[all.len() / 2];
    let result = out.result.to_affine();
    errln!(
        "msm: {msm_ms:.2} ms (median of {}), window c = {}, {} windows, backend {}{}",
        a.repeat,
        out.plan.c,
        out.plan.windows,
        ctx.backend_name(),
        if ctx.glv() { ", GLV" } else { "" }
    )?;
    print_phases(&out)?;
    let cycles = rtl::report(engine.rtl.as_ref())?;
    if a.check {
        let t = Instant::now();
        let reference = zkmsm::reference::naive_msm(points, scalars);
        if reference != result {
            return Err(CliError::WrongResult { got: result_hex(&result), expected: result_hex(&reference) });
        }
        errln!("check: matches the bucket-free reference ({:.0} ms)", ms(t.elapsed()))?;
    }
    let hex = result_hex(&result);
    if a.json {
        let mut j = json!({"curve": C::NAME, "group": C::GROUP, "n": n, "result": hex, "msm_ms": msm_ms, "msm_ms_all": all, "repeat": a.repeat,
                   "load_ms": ms(load), "init_ms": ms(init), "window": out.plan.c, "windows": out.plan.windows,
                   "backend": ctx.backend_name(), "glv": ctx.glv(), "phases_ms": phases_json(&out)});
        rtl::add_json(&mut j, cycles.as_ref());
        outln!("{j}")
    } else {
        outln!("{hex}")
    }
}
