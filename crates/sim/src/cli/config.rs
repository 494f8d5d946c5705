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

/// `value` if it is at least 1, else the error naming `name`.
fn positive<T: PartialOrd + From<u8> + ToString>(name: &'static str, value: T) -> Result<T, SimError> {
    if value >= T::from(1) {
        Ok(value)
    } else {
        Err(SimError::arg(name, value, "must be at least 1"))
    }
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
            c.machine.depth = positive("--depth", v)?;
        }
        if let Some(v) = self.adders {
            c.machine.adders = positive("--adders", v)?;
        }
        if let Some(v) = self.banks {
            c.machine.banks = positive("--banks", v)?;
        }
        if let Some(v) = self.ports {
            c.machine.ports = positive("--ports", v)?;
        }
        if let Some(v) = self.fifo_depth {
            c.machine.fifo_depth = v;
            if self.scheduler == SchedKind::Core {
                if v == 0 {
                    return Err(SimError::CoreFifoDepth);
                }
                c.core.pending_cap = v;
            }
        }
        if let Some(v) = self.read_latency {
            c.core.read_latency = positive("--read-latency", v)?;
        }
        if let Some(v) = self.input_latency {
            c.core.input_latency = v;
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
            c.core.fanout_depth = v;
        }
        if c.core.cores > 1 && c.core.fanout_depth == 0 {
            return Err(SimError::CoreFanout);
        }
        if c.sched == SchedKind::Core && c.c > c.core.cmax {
            return Err(SimError::CoreWindow { c: c.c, cmax: c.core.cmax });
        }
        if let Some(v) = self.stall_fifo {
            c.stall_fifo = positive("--stall-fifo", v)?;
        }
        if let Some(v) = self.batch {
            c.machine.batch = v;
        }
        if let Some(v) = self.cus {
            c.cus = positive("--cus", v)?;
        }
        if let Some(v) = self.pending_cap {
            c.pending_cap = v;
        }
        if let Some(v) = self.freq_mhz {
            if !(v.is_finite() && v > 0.0) {
                return Err(SimError::arg("--freq-mhz", v, "must be a positive number of MHz"));
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
            c.groups = v;
        }
        if let Some(v) = self.mul_latency {
            c.mul_latency = v;
        }
        c.no_pass_drain = self.no_pass_drain;
        c.prior_strict_u3 = self.prior_strict_u3;
        c.seed = self.seed;
        Ok(c)
    }
}
