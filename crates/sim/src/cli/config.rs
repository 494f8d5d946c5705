//! Arguments to a model configuration: the scheduler's published preset,
//! then every parameter the command line sets.

use super::args::{CurveArg, SimArgs};
use super::error::SimError;
use crate::model::{ModelConfig, ScalarField, SchedKind};

/// The largest `--log-n` (and `--n`): the model keeps per-point state, so
/// its memory grows with N.
pub const MAX_LOG_N: u32 = 30;

/// The most cores on one point stream (as `zkmsm msm --rtl-cores`).
pub const MAX_CORES: u32 = 64;

/// The model steps cycle by cycle: a depth or a latency sets its run time,
/// a count or a queue its memory. Each parameter is bounded well above the
/// published designs (pipeline depths 76 to 3332, read latency 2, stall
/// FIFOs of 4, 336-cycle batch frames, one to eight adders or banks), so
/// that no value runs without bound or overflows.
///
/// `--depth`, `sweep --depths`, `thesis --depth`, `--mul-latency`: cycles.
pub const MAX_DEPTH: u32 = 1 << 16;
/// `--read-latency`: cycles (every bucket read-out is paced by it).
pub const MAX_READ_LATENCY: u32 = 1 << 10;
/// `--input-latency`: cycles before the first input.
pub const MAX_INPUT_LATENCY: u64 = 1 << 20;
/// `--batch`: the ZPrize batch frame, cycles.
pub const MAX_BATCH: u32 = 1 << 16;
/// `--adders`, `--banks`, `--ports`, `--cus`: units.
pub const MAX_UNITS: u32 = 1 << 10;
/// `--fifo-depth`, `--pending-cap`, `--fanout-depth`: queue entries.
pub const MAX_QUEUE: usize = 1 << 16;
/// `--stall-fifo`: entries of each window's FIFO (one FIFO a window).
pub const MAX_STALL_FIFO: usize = 1 << 12;
/// `--groups`: at most one group a bucket (2^19 buckets at c = 20).
pub const MAX_GROUPS: usize = 1 << 19;
/// `--freq-mhz`: 1 kHz to 100 GHz, so that the projected latency is a
/// finite number of milliseconds.
pub const FREQ_MHZ: std::ops::RangeInclusive<f64> = 1e-3..=1e5;

/// `value` if it is in `lo..=hi`, else the error naming `name`.
pub fn within<T: PartialOrd + Copy + std::fmt::Display>(
    name: &'static str,
    value: T,
    lo: T,
    hi: T,
) -> Result<T, SimError> {
    if (lo..=hi).contains(&value) {
        Ok(value)
    } else {
        Err(SimError::arg(name, value, format!("must be in {lo}..={hi}")))
    }
}

/// `value` if it is in `1..=hi`: "at least 1" for 0, the range above `hi`.
fn positive<T: PartialOrd + Copy + std::fmt::Display + From<u8>>(
    name: &'static str,
    value: T,
    hi: T,
) -> Result<T, SimError> {
    if value < T::from(1) {
        return Err(SimError::arg(name, value, "must be at least 1"));
    }
    within(name, value, T::from(1), hi)
}

impl SimArgs {
    /// The model configuration these arguments describe.
    pub fn config(&self) -> Result<ModelConfig, SimError> {
        let mut c = self.scheduler.preset();
        c.n = match self.n {
            Some(n) if n <= 1 << MAX_LOG_N => n,
            Some(n) => return Err(SimError::arg("--n", n, format!("at most 2^{MAX_LOG_N}"))),
            None if self.log_n <= MAX_LOG_N => 1usize << self.log_n,
            None => return Err(SimError::LogN(self.log_n, MAX_LOG_N)),
        };
        if let Some(v) = self.window {
            // the model's plan is the engine's: windows up to its MAX_C
            if !(2..=zkmsm::plan::MAX_C).contains(&v) {
                return Err(SimError::Window(v));
            }
            c.c = v;
        }
        if let Some(v) = self.depth {
            c.machine.depth = positive("--depth", v, MAX_DEPTH)?;
        }
        if let Some(v) = self.adders {
            c.machine.adders = positive("--adders", v, MAX_UNITS)?;
        }
        if let Some(v) = self.banks {
            c.machine.banks = positive("--banks", v, MAX_UNITS)?;
        }
        if let Some(v) = self.ports {
            c.machine.ports = positive("--ports", v, MAX_UNITS)?;
        }
        if let Some(v) = self.fifo_depth {
            c.machine.fifo_depth = within("--fifo-depth", v, 0, MAX_QUEUE)?;
            if self.scheduler == SchedKind::Core {
                if v == 0 {
                    return Err(SimError::CoreFifoDepth);
                }
                c.core.pending_cap = v;
            }
        }
        if let Some(v) = self.read_latency {
            c.core.read_latency = positive("--read-latency", v, MAX_READ_LATENCY)?;
        }
        if let Some(v) = self.input_latency {
            c.core.input_latency = within("--input-latency", v, 0, MAX_INPUT_LATENCY)?;
        }
        if let Some(v) = self.cmax {
            if !(3..=20).contains(&v) {
                return Err(SimError::arg("--cmax", v, "must be in 3..=20"));
            }
            c.core.cmax = v;
        }
        c.core.spread_top = !self.no_spread_top;
        c.core.requeue = self.requeue;
        if let Some(v) = self.core_agg_log_m {
            if v > 19 {
                return Err(SimError::arg("--core-agg-log-m", v, "must be in 0..=19 (at most c - 1 is used)"));
            }
            c.core.agg_log_m = v;
        }
        if let Some(v) = self.core_agg_latency {
            if v > 127 {
                return Err(SimError::arg("--core-agg-latency", v, "must be in 0..=127"));
            }
            c.core.agg_latency = v;
        }
        if let Some(k) = self.cores {
            if !(1..=MAX_CORES).contains(&k) {
                return Err(SimError::arg("--cores", k, format!("must be in 1..={MAX_CORES}")));
            }
            c.core.cores = k;
            c.core.fanout_depth = if k > 1 { 4 } else { 0 };
        }
        if let Some(v) = self.fanout_depth {
            c.core.fanout_depth = within("--fanout-depth", v, 0, MAX_QUEUE as u32)?;
        }
        if c.core.cores > 1 && c.core.fanout_depth == 0 {
            return Err(SimError::CoreFanout);
        }
        if c.sched == SchedKind::Core && c.c > c.core.cmax {
            return Err(SimError::CoreWindow { c: c.c, cmax: c.core.cmax });
        }
        if let Some(v) = self.stall_fifo {
            c.stall_fifo = positive("--stall-fifo", v, MAX_STALL_FIFO)?;
        }
        if let Some(v) = self.batch {
            c.machine.batch = within("--batch", v, 0, MAX_BATCH)?;
        }
        if let Some(v) = self.cus {
            c.cus = positive("--cus", v, MAX_UNITS as usize)?;
        }
        if let Some(v) = self.pending_cap {
            c.pending_cap = within("--pending-cap", v, 0, MAX_QUEUE)?;
        }
        if let Some(v) = self.freq_mhz {
            if !(v.is_finite() && v > 0.0) {
                return Err(SimError::arg("--freq-mhz", v, "must be a positive number of MHz"));
            }
            if !FREQ_MHZ.contains(&v) {
                let (lo, hi) = (FREQ_MHZ.start(), FREQ_MHZ.end());
                return Err(SimError::arg("--freq-mhz", v, format!("must be in {lo}..={hi} MHz (1 kHz to 100 GHz)")));
            }
            c.freq_mhz = v;
        }
        match self.curve {
            Some(CurveArg::Bls12_377 | CurveArg::Bls12_377Xyzz) => c.field = ScalarField::Bls12_377,
            Some(CurveArg::Bls12_381) => c.field = ScalarField::Bls12_381,
            Some(CurveArg::Toy) | None => {}
        }
        c.bits = c.field.bits();
        c.full_width = self.full_width_windows;
        if let Some(v) = self.agg {
            c.agg = v;
        }
        if let Some(v) = self.groups {
            if !v.is_power_of_two() {
                return Err(SimError::Groups(v));
            }
            within("--groups", v, 1, MAX_GROUPS)?;
            c.groups = v;
        }
        if let Some(v) = self.mul_latency {
            c.mul_latency = within("--mul-latency", v, 0, MAX_DEPTH)?;
        }
        c.no_pass_drain = self.no_pass_drain;
        c.prior_strict_u3 = self.prior_strict_u3;
        c.seed = self.seed;
        Ok(c)
    }
}
