//! Functional mode: real points through the modelled pipeline, the result
//! checked against the CPU engine (BLS curves) or a direct sum (toy curve).

use super::args::{CurveArg, ScalarsArg, SimArgs};
use super::error::SimError;
use super::report::format_report;
use crate::curves::{self, ScalarSet};
use crate::model::{ModelConfig, ScalarField};
use crate::thesis;
use std::fmt::Write as _;
use std::time::Instant;
use zkmsm_curve::{Bls12_377, Bls12_381};

pub(super) fn scalar_set(s: ScalarsArg) -> ScalarSet {
    match s {
        ScalarsArg::Uniform => ScalarSet::Uniform,
        ScalarsArg::Equal => ScalarSet::AllEqual,
        ScalarsArg::Zero => ScalarSet::Zero,
    }
}

/// Functional run on a BLS curve, checked against the CPU engine.
fn functional_bls<C: zkmsm::InputCurve>(
    args: &SimArgs,
    cfg: &ModelConfig,
    run: curves::FunctionalRun<C>,
) -> Result<String, SimError> {
    if cfg.n > 1 << 20 {
        return Err(SimError::FunctionalTooLarge(cfg.n));
    }
    let pts = curves::points::<C>(cfg.n, cfg.seed);
    let sc = curves::scalars::<C>(cfg.n, scalar_set(args.scalars), cfg.seed + 1);
    let t0 = Instant::now();
    let (rep, got) = run(cfg, &pts, &sc);
    let wall = t0.elapsed().as_secs_f64();
    let want = zkmsm::msm_bigint(&pts, &sc)?;
    let mut out = format_report(&rep, wall);
    let _ = writeln!(out, "curve                {}", C::NAME);
    if got != want {
        return Err(SimError::Mismatch { report: out, against: "the zkmsm CPU engine" });
    }
    let _ = writeln!(out, "functional check     OK (equals the zkmsm CPU engine's MSM)");
    Ok(out)
}

/// One functional run: real points through the modelled pipeline, the MSM checked against the zkmsm
/// CPU engine (or the toy curve's reference); the report, or the mismatch.
pub fn run_functional(args: &SimArgs, cfg: &ModelConfig) -> Result<String, SimError> {
    let curve = args.curve.unwrap_or(match cfg.field {
        ScalarField::Bls12_377 => CurveArg::Bls12_377,
        ScalarField::Bls12_381 => CurveArg::Bls12_381,
    });
    match curve {
        CurveArg::Bls12_377 => functional_bls::<Bls12_377>(args, cfg, curves::run_te),
        CurveArg::Bls12_377Xyzz => functional_bls::<Bls12_377>(args, cfg, curves::run_xyzz),
        CurveArg::Bls12_381 => functional_bls::<Bls12_381>(args, cfg, curves::run_xyzz),
        CurveArg::Toy => {
            let (points, uniform) = thesis::workload(cfg.n, cfg.seed);
            let mut cfg = cfg.clone();
            cfg.bits = 5;
            let scal: Vec<[u64; 4]> = match args.scalars {
                ScalarsArg::Uniform => uniform.iter().map(|&s| [s, 0, 0, 0]).collect(),
                ScalarsArg::Equal => vec![[thesis::ORDER - 1, 0, 0, 0]; cfg.n],
                ScalarsArg::Zero => vec![[0; 4]; cfg.n],
            };
            let g = thesis::Toy;
            let t0 = Instant::now();
            let (rep, got) = cfg.run_functional(&g, &points, &scal);
            let want = points
                .iter()
                .zip(&scal)
                .fold(None, |acc, (p, s)| crate::datapath::SimGroup::add(&g, &acc, &g.mul(s[0], p)));
            let mut out = format_report(&rep, t0.elapsed().as_secs_f64());
            let _ = writeln!(out, "functional result    {:?}", got);
            let _ = writeln!(out, "reference result     {:?}", want);
            if got != want {
                return Err(SimError::Mismatch { report: out, against: "the reference (one point at a time)" });
            }
            let _ = writeln!(out, "functional check     OK");
            Ok(out)
        }
    }
}
