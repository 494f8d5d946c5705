//! `sim thesis`: the UCSC thesis architecture against the bucket
//! architecture on the thesis' toy curve.

use super::args::ThesisArgs;
use super::error::SimError;
use super::{say, write_file};
use crate::model::{AggKind, SchedKind};
use crate::thesis;
use std::fmt::Write as _;

/// `zkmsm sim thesis`: the thesis architecture against the bucket architecture on the toy curve,
/// for k = 2..24 multipliers.
pub fn thesis_cmd(a: &ThesisArgs) -> Result<(), SimError> {
    check(a)?;
    let (points, scalars) = thesis::workload(a.n, a.seed);
    let g = thesis::Toy;
    let limbs: Vec<[u64; 4]> = scalars.iter().map(|&s| [s, 0, 0, 0]).collect();
    // Bucket architecture: one pipelined adder of depth T, greedy scheduler,
    // serial aggregation on the same adder (in-order, non-blocking).
    let mut cfg = SchedKind::Greedy.preset();
    cfg.n = a.n;
    cfg.bits = 5;
    cfg.c = a.window;
    cfg.machine.depth = a.depth;
    cfg.agg = AggKind::SerialOverlap;
    cfg.mul_latency = 0;
    let (rep, bucket_res) = cfg.run_functional(&g, &points, &limbs);
    let mut out = String::new();
    let mut csv = String::from("k,thesis_cycles,bucket_cycles,speedup\n");
    let _ = writeln!(out, "workload: {} points on y^2 = x^3 + 7 over F_17, scalars uniform in [0, 18)", a.n);
    let _ = writeln!(
        out,
        "bucket architecture: depth {} pipelined adder, c = {}, greedy scheduler: {} cycles (accumulation {}, aggregation {})",
        a.depth,
        a.window,
        rep.device_cycles,
        rep.acc.cycles,
        rep.device_cycles - rep.acc.cycles
    );
    let _ = writeln!(out, "{:>3} {:>14} {:>14} {:>9}", "k", "thesis cycles", "bucket cycles", "ratio");
    for k in 2..=a.k_max.max(2) {
        let (cy, res) = thesis::thesis_msm(k, &points, &scalars);
        if res != bucket_res {
            return Err(SimError::ThesisMismatch { k, thesis: format!("{res:?}"), bucket: format!("{bucket_res:?}") });
        }
        let ratio = cy as f64 / rep.device_cycles as f64;
        let _ = writeln!(out, "{k:>3} {cy:>14} {:>14} {ratio:>8.2}x", rep.device_cycles);
        let _ = writeln!(csv, "{k},{cy},{},{ratio:.4}", rep.device_cycles);
    }
    let _ = writeln!(out, "both architectures computed {bucket_res:?}");
    if let Some(p) = &a.csv {
        write_file(p, &csv)?;
    }
    say(&out)
}

/// The most points: the thesis used 12,000; the model keeps every point.
pub const MAX_N: usize = 1 << 20;
/// The most multipliers tried.
pub const MAX_K: usize = 64;

/// Every argument within what the two architectures run, before any work.
fn check(a: &ThesisArgs) -> Result<(), SimError> {
    if !(1..=MAX_N).contains(&a.n) {
        return Err(SimError::arg("--n", a.n, format!("must be in 1..={MAX_N}")));
    }
    if a.depth == 0 {
        return Err(SimError::arg("--depth", a.depth, "must be at least 1"));
    }
    super::config::within("--depth", a.depth, 1, super::config::MAX_DEPTH)?;
    if !(2..=zkmsm::plan::MAX_C).contains(&a.window) {
        return Err(SimError::arg("--window", a.window, format!("must be in 2..={}", zkmsm::plan::MAX_C)));
    }
    if !(2..=MAX_K).contains(&a.k_max) {
        return Err(SimError::arg("--k-max", a.k_max, format!("must be in 2..={MAX_K}")));
    }
    Ok(())
}
