//! The end of every `zkmsm msm`: the timed runs of a built context, the
//! optional check against the reference, and the report (text or JSON).

use super::rtl::{self, RtlHandle};
use super::{ms, phases_json, print_phases, timed_runs};
use crate::args::MsmArgs;
use crate::console::{errln, outln};
use crate::error::CliError;
use serde_json::json;
use std::time::{Duration, Instant};
use zkmsm::io::result_hex;
use zkmsm::{Affine, MsmEngine, ScalarLimbs};

/// The timed runs of a built context, the optional check against the
/// reference (`points` holds the points only with --check), and the report.
pub(super) fn run_and_report<C: zkmsm::EngineCurve>(
    a: &MsmArgs,
    ctx: &dyn MsmEngine<C>,
    scalars: &[ScalarLimbs],
    points: &[Affine<C>],
    load: Duration,
    init: Duration,
    rtl: Option<&RtlHandle>,
) -> Result<(), CliError> {
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
    let cycles = rtl::report(rtl)?;
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
        let mut j = json!({"curve": C::NAME, "n": n, "result": hex, "msm_ms": msm_ms, "msm_ms_all": all, "repeat": a.repeat,
                   "load_ms": ms(load), "init_ms": ms(init), "window": out.plan.c, "windows": out.plan.windows,
                   "backend": ctx.backend_name(), "glv": ctx.glv(), "phases_ms": phases_json(&out)});
        rtl::add_json(&mut j, cycles.as_ref());
        outln!("{j}")
    } else {
        outln!("{hex}")
    }
}
