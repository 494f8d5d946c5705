//! The option contract: which options go together, whatever the command.
//! Each command refuses what it cannot do in one function (`refuse`, its
//! first step), before any input is read or generated; the rules that
//! commands share are these. Every refusal is one line that names the option.

use crate::args::RtlAggregation;
use crate::backend::{Backend, EngineOptions};
use crate::curve::CliCurve;
use crate::error::CliError;
use zkmsm::{Affine, BackendChoice, EngineCurve, GlvMode, MsmBuilder, MsmError, Validation};

/// `--backend` against the options its engine is built with: the `--rtl-*`
/// options apply to `--backend rtl` only; `--backend rtl` needs a core this
/// build and curve have, `--rtl-agg-log-m` needs `--rtl-aggregation device`,
/// and the core has neither a fixed-base mode nor GLV.
pub fn backend_options<C: CliCurve>(backend: Backend, o: &EngineOptions) -> Result<(), CliError> {
    let refuse = |what: &str| Err(MsmError::Unsupported(what.into()).into());
    if backend != Backend::Rtl {
        if o.rtl.any() {
            return refuse("--rtl-cores, --rtl-adder and --rtl-aggregation apply to --backend rtl only");
        }
        return Ok(());
    }
    C::rtl_available(o.rtl.rtl_adder)?;
    if o.rtl.rtl_agg_log_m.is_some() && o.rtl.rtl_aggregation != RtlAggregation::Device {
        return refuse("--rtl-agg-log-m applies to --rtl-aggregation device only");
    }
    if o.precompute.is_some() {
        return refuse("--precompute: the RTL core has no fixed-base mode");
    }
    if o.glv == GlvMode::On {
        return refuse("--glv on: --backend rtl runs the RTL core without GLV");
    }
    Ok(())
}

/// A backend the curve does not have (twisted Edwards off BLS12-377): the
/// library's own refusal, asked of no points.
pub fn backend_for_curve<C: EngineCurve>(backend: Backend) -> Result<(), CliError> {
    if backend != Backend::Library(BackendChoice::TwistedEdwards) {
        return Ok(());
    }
    let builder = MsmBuilder::new().validation(Validation::AlreadyValidated).backend(BackendChoice::TwistedEdwards);
    builder.build(Vec::<Affine<C>>::new())?;
    Ok(())
}
