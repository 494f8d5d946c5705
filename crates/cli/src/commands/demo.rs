//! `zkmsm demo`: an MSM on built-in inputs, checked against (sum s_i g_i) G.

use super::memory::{self, EngineShape};
use super::report::{ms, phases_json, print_phases};
use crate::args::DemoArgs;
use crate::backend::{Backend, EngineOptions};
use crate::console::{errln, outln};
use crate::contract;
use crate::curve::CliCurve;
use crate::error::CliError;
use crate::{progress, rtl};
use serde_json::json;
use std::borrow::Cow;
use std::time::Instant;
use zkmsm::gen::{expected_msm, random_field_elements, random_points};
use zkmsm::io::result_hex;
use zkmsm::{GlvMode, ScalarLimbs, Validation};

pub fn demo<C: CliCurve>(a: &DemoArgs) -> Result<(), CliError> {
    // init validates the generated points, as it would a user's
    let options = EngineOptions {
        validation: Validation::Full,
        precompute: a.precompute,
        window: a.window,
        glv: GlvMode::Auto,
        rtl: &a.rtl,
    };
    let backend = refuse::<C>(a, &options)?;
    let n = 1usize << a.log_n;
    errln!("zkmsm demo: {} {}, n = 2^{} = {n}, seed {}", C::NAME, C::GROUP.to_uppercase(), a.log_n, a.seed)?;
    let t = Instant::now();
    let pb = progress::spinner(format!("generating {n} points and scalars"));
    let known = random_points::<C>(n, a.seed);
    let scalars_f = random_field_elements::<C>(n, a.seed.wrapping_add(1));
    let scalars: Vec<ScalarLimbs> = scalars_f.iter().map(C::scalar_to_limbs).collect();
    pb.finish_and_clear();
    errln!("  inputs generated      {:10.2} ms", ms(t.elapsed()))?;
    let t = Instant::now();
    let pb = progress::preparing(a.precompute);
    let engine = backend.build::<C>(Cow::Borrowed(&known.points), &options)?;
    let ctx = engine.ctx.as_ref();
    pb.finish_and_clear();
    let init = t.elapsed();
    errln!("  init (validate, convert) {:7.2} ms", ms(init))?;
    let t = Instant::now();
    let out = ctx.msm_report(&scalars)?;
    let msm_time = t.elapsed();
    let result = out.result.to_affine();
    errln!(
        "  msm                   {:10.2} ms  (window c = {}, {} windows, backend {})",
        ms(msm_time),
        out.plan.c,
        out.plan.windows,
        ctx.backend_name()
    )?;
    print_phases(&out)?;
    let cycles = rtl::report(engine.rtl.as_ref())?;
    // Independent check: the points are g_i * G with known g_i, so the MSM
    // equals (sum s_i g_i mod r) * G, computed in the scalar field.
    let t = Instant::now();
    let expected = expected_msm::<C>(&known.dlogs, &scalars_f);
    let ok = expected == result;
    errln!("  reference (sum s_i g_i) G {:6.2} ms: {}", ms(t.elapsed()), if ok { "MATCH" } else { "MISMATCH" })?;
    let hex = result_hex(&result);
    if a.json {
        let mut j = json!({"curve": C::NAME, "group": C::GROUP, "n": n, "result": hex, "check": ok, "msm_ms": ms(msm_time), "init_ms": ms(init),
                   "window": out.plan.c, "windows": out.plan.windows, "backend": ctx.backend_name(), "phases_ms": phases_json(&out)});
        rtl::add_json(&mut j, cycles.as_ref());
        outln!("{j}")?;
    } else {
        outln!("{hex}")?;
    }
    if ok {
        Ok(())
    } else {
        Err(CliError::WrongResult { got: hex, expected: result_hex(&expected) })
    }
}

/// Every refusal of `zkmsm demo`'s options, before the inputs are generated:
/// among them a size whose memory cannot be had (the points, their discrete
/// logs, the scalars as field elements and as limbs, and the engine).
fn refuse<C: CliCurve>(a: &DemoArgs, options: &EngineOptions) -> Result<Backend, CliError> {
    let backend = a.backend.choice();
    contract::backend_options::<C>(backend, options)?;
    contract::backend_for_curve::<C>(backend)?;
    let n = 1usize << a.log_n;
    let fixed_base = contract::fixed_base(a.precompute);
    let shape = EngineShape { fixed_base, glv: C::glv().is_some() && backend != Backend::Rtl };
    let bytes = memory::inputs::<C>(n, 3).saturating_add(memory::engine::<C>(n, shape));
    memory::reserve(bytes, &format!("a demo of 2^{} {} points", a.log_n, C::LABEL))?;
    Ok(backend)
}
