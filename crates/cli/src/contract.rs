//! The option contract: which options go together, whatever the command.
//! Each command refuses what it cannot do in one function (`refuse`, its
//! first step), before any input is read or generated; the rules that
//! commands share are these. Every refusal is one line that names the option.

use crate::args::{Command, FormatName, RtlAggregation};
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
    if fixed_base(o.precompute).is_some() {
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

/// The fixed-base factor `--precompute M` asks for: `None` for plain mode,
/// which M = 1 is too (one copy is the points themselves), as in the
/// library's builder, the C ABI and the Python package.
pub fn fixed_base(precompute: Option<u32>) -> Option<u32> {
    precompute.filter(|&m| m > 1)
}

/// `--precompute M` (M > 1) and `--glv on` contradict each other: GLV runs
/// in plain mode. Refused before any point is read (the library refuses it
/// only when the engine is built, after the points are loaded).
pub fn fixed_base_and_glv(precompute: Option<u32>, glv: GlvMode) -> Result<(), CliError> {
    match fixed_base(precompute) {
        Some(m) if glv == GlvMode::On => Err(MsmError::Unsupported(format!(
            "--precompute {m} and --glv on do not combine: GLV runs in plain mode (no --precompute, or 1)"
        ))
        .into()),
        _ => Ok(()),
    }
}

/// `--point-format evm` where the curve has no EVM layout (BLS12-377; BN254
/// has EIP-196/197's, BLS12-381 EIP-2537's): the library's rule ([`zkmsm::encoded::Curve::check_format`]),
/// the one the C ABI and the Python package apply. Checked for every command
/// that takes a format, before its own refusals.
pub fn point_format(command: &Command) -> Result<(), CliError> {
    let (curve, format) = match command {
        Command::Gen(a) => (a.curve.in_group(a.group), Some(a.point_format)),
        Command::Msm(a) => (a.curve.in_group(a.group), a.point_format),
        Command::Prepare(a) => (a.curve.in_group(a.group), a.point_format),
        Command::Demo(_) | Command::Bench(_) | Command::Sim(_) => return Ok(()),
    };
    let Some(format) = format else { return Ok(()) };
    let name = match format {
        FormatName::Compressed => "compressed",
        FormatName::Uncompressed => "uncompressed",
        FormatName::Evm => "evm",
    };
    curve
        .check_format(format.into())
        .map_err(|e| MsmError::Unsupported(format!("--point-format {name}: {}", e.message)).into())
}
