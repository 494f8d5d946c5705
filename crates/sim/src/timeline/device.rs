//! Device cycles for the timeline, taken from the cycle model.
//!
//! Running the schedulers at N = 2^24..2^26 takes seconds to minutes per
//! run, too slow for tests and projections. Accumulation cycles are linear in
//! N for a fixed plan (per window: N digits, conflicts in proportion to N
//! T / buckets, and a fixed pipeline fill and drain), so the profile runs the
//! model at two small sizes and extends the line; the tests check the line
//! against the model run directly at a larger size. Aggregation cycles do
//! not depend on N at all: they are the model's aggregation programs.

use crate::model::ModelConfig;

/// Device cycles of one design, as a function of N.
#[derive(Clone, Debug)]
pub struct DeviceProfile {
    /// Windows of the plan.
    pub windows: usize,
    /// Buckets per window (2^(c-1)).
    pub buckets: usize,
    /// Accumulation cycles of a whole MSM: `acc_fixed + acc_per_point * N`.
    pub acc_fixed: f64,
    /// See `acc_fixed`.
    pub acc_per_point: f64,
    /// One window's bucket aggregation on the device, cycles (the model's
    /// program for the configured `AggKind`).
    pub agg_cycles_per_window: u64,
    /// Result aggregation (Horner over the windows) on the device, cycles.
    pub result_agg_cycles: u64,
    /// The sizes the line was fitted at (log2 N).
    pub fitted_at: (u32, u32),
}

impl DeviceProfile {
    /// Run `cfg` (its N ignored) at 2^lo and 2^hi points and fit the line.
    pub fn fit(cfg: &ModelConfig, lo: u32, hi: u32) -> Self {
        assert!(lo < hi, "fit sizes: {lo} < {hi}");
        let run = |log_n: u32| {
            let mut c = cfg.clone();
            c.n = 1usize << log_n;
            c.run_stats()
        };
        let (a, b) = (run(lo), run(hi));
        let (na, nb) = ((1u64 << lo) as f64, (1u64 << hi) as f64);
        let slope = (b.acc.cycles as f64 - a.acc.cycles as f64) / (nb - na);
        Self {
            windows: b.windows,
            buckets: b.buckets,
            acc_fixed: a.acc.cycles as f64 - slope * na,
            acc_per_point: slope,
            agg_cycles_per_window: b.agg_cycles_per_window,
            result_agg_cycles: b.result_agg_cycles,
            fitted_at: (lo, hi),
        }
    }

    /// Accumulation cycles of one MSM of `n` points.
    pub fn acc_cycles(&self, n: u64) -> f64 {
        (self.acc_fixed + self.acc_per_point * n as f64).max(0.0)
    }

    /// Accumulation cycles per digit (per point and window) at `n`.
    pub fn cycles_per_digit(&self, n: u64) -> f64 {
        self.acc_cycles(n) / (n as f64 * self.windows as f64)
    }
}
