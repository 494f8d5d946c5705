//! Arguments to a model configuration: the scheduler's published preset,
//! then every parameter the command line sets.

use super::args::{CurveArg, SimArgs};
use super::error::SimError;
use crate::model::{ModelConfig, ScalarField, SchedKind};

impl SimArgs {
    /// The model configuration these arguments describe.
    pub fn config(&self) -> Result<ModelConfig, SimError> {
        let mut c = self.scheduler.preset();
        c.n = match self.n {
            Some(n) => n,
            None if self.log_n <= 40 => 1usize << self.log_n,
            None => return Err(SimError::LogN(self.log_n)),
        };
        if let Some(v) = self.window {
            if !(2..=30).contains(&v) {
                return Err(SimError::Window(v));
            }
            c.c = v;
        }
        if let Some(v) = self.depth {
            c.machine.depth = v;
        }
        if let Some(v) = self.adders {
            c.machine.adders = v.max(1);
        }
        if let Some(v) = self.banks {
            c.machine.banks = v.max(1);
        }
        if let Some(v) = self.ports {
            c.machine.ports = v.max(1);
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
            c.core.read_latency = v.max(1);
        }
        if let Some(v) = self.input_latency {
            c.core.input_latency = v;
        }
        if let Some(v) = self.cmax {
            c.core.cmax = v.clamp(3, 20);
        }
        c.core.spread_top = !self.no_spread_top;
        c.core.requeue = self.requeue;
        if let Some(k) = self.cores {
            c.core.cores = k.max(1);
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
            c.stall_fifo = v.max(1);
        }
        if let Some(v) = self.batch {
            c.machine.batch = v;
        }
        if let Some(v) = self.cus {
            c.cus = v.max(1);
        }
        if let Some(v) = self.pending_cap {
            c.pending_cap = v;
        }
        if let Some(v) = self.freq_mhz {
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
