//! The host's view of the RTL core: the window it should run for n points,
//! the narrow last window's spreading, and the cycle model configured as the
//! core is (crates/sim's `core` scheduler), so the model's cycles can be put
//! beside the simulation's.

use std::sync::mpsc::SyncSender;
use std::time::{Duration, Instant};
use zkmsm::digits::extend_window_digits;
use zkmsm::{Plan, ScalarLimbs};
use zkmsm_sim::digits::DigitSource;
use zkmsm_sim::model::{AggKind, ModelConfig, SchedKind};
use zkmsm_sim::sched::core::CoreSched;

/// The core's parameters that the model needs (read from its registers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoreParams {
    /// Largest window (bucket memory).
    pub cmax: u32,
    /// Pending queue depth.
    pub pd: u32,
    /// Bucket-memory read latency.
    pub brl: u32,
    /// Hazard window: bucket-read latency + datapath latency.
    pub hz: u32,
    /// A pending head whose bucket is busy goes to the back of the queue
    /// (RQ; the lock-table cores).
    pub requeue: bool,
    /// Cycles between a device-aggregation addition's reads and its adder
    /// slot beyond the other cores' (AGG_LAT: the twisted Edwards core's
    /// conversion, one multiplier; 0 on the others).
    pub agg_lat: u32,
}

/// The parameters of the synthesized core (rtl/src/zk_msm_core.sv defaults,
/// zk_te_madd's 74-cycle latency at the default `RW = 384`, the
/// aggregation's conversion one 36-cycle multiplier).
pub const SYNTHESIZED: CoreParams = CoreParams { cmax: 16, pd: 16, brl: 2, hz: 76, requeue: false, agg_lat: 36 };

/// Cycles from START to the first work beat the core can take, in the
/// test-bench environment (rtl/tb/zk_driver.cpp) with a point memory of
/// `mem_latency` cycles at full bandwidth: the register write that starts
/// the core, the point reader's command, the memory, the join with the
/// digit stream and the input register slice. Measured once and checked by
/// `model_matches_the_stand_in_core` on every run it makes.
pub fn input_latency(mem_latency: u32) -> u64 {
    mem_latency as u64 + INPUT_PIPELINE
}

/// The part of [`input_latency`] that is the core's own pipeline.
pub const INPUT_PIPELINE: u64 = 3;

/// The window for n points on the core: the largest c <= CMAX whose
/// 2^(c-1) buckets a window can read out while the next windows accumulate
/// (2^(c-1) <= n), and no smaller than the latency floor: a window holds
/// its slot (one of four) until its last addition is written back, HZ
/// cycles after issue, so a small MSM of W windows takes at least about
/// W/4 x HZ cycles whatever n is; windows of 2^(c-1) >= HZ/8 buckets keep
/// W small there (the batched-affine core, HZ 2,673: c >= 10; the twisted
/// Edwards core, HZ 76: c >= 5). At most CMAX.
pub fn window_for(n: usize, p: &CoreParams) -> u32 {
    let mut c = 1;
    while c < p.cmax && (1usize << c) <= n {
        c += 1;
    }
    let mut floor = 1;
    while floor < p.cmax && (1u64 << (floor - 1)) * 8 < p.hz as u64 {
        floor += 1;
    }
    c.max(floor)
}

/// The last window's bucket bits tb (its digits lie in [0, 2^tb]) when it is
/// narrow enough to spread (tb < c - 1), else `None`.
pub fn spread_bits(plan: &Plan, scalar_bits: u32) -> Option<u32> {
    let tb = CoreSched::top_bits_for(plan, scalar_bits);
    (tb + 1 < plan.c).then_some(tb)
}

/// The cycle model of this core (crates/sim, scheduler `core`).
pub fn model_config(p: &CoreParams, plan: &Plan, scalar_bits: u32, n: usize, mem_latency: u32) -> ModelConfig {
    let mut cfg = SchedKind::Core.preset();
    cfg.n = n;
    cfg.c = plan.c;
    cfg.bits = scalar_bits;
    cfg.agg = AggKind::Host;
    cfg.machine.depth = p.hz;
    cfg.core = CoreSched {
        pending_cap: p.pd as usize,
        read_latency: p.brl,
        input_latency: input_latency(mem_latency),
        cmax: p.cmax,
        spread_top: true,
        top_bits: None,
        requeue: p.requeue,
        agg_latency: p.agg_lat,
        ..CoreSched::default()
    };
    cfg
}

/// Scalars per chunk of the digit stream the host sends the core.
pub const DIGIT_CHUNK: usize = 1 << 16;

/// The host's digit producer: every window's signed digits (`zkmsm::digits`,
/// the rule the CPU engines and the model use) in the core's window-major
/// order, in chunks of at most `chunk` scalars, sent to `tx`. Run on its own
/// thread with a channel bounded to one window's chunks, it computes window
/// w+1 while the core takes window w. Returns the time spent computing each
/// window (waits on the channel excluded); stops early when the receiver is
/// gone (the run failed).
pub fn produce_digits(scalars: &[ScalarLimbs], plan: &Plan, chunk: usize, tx: &SyncSender<Vec<i32>>) -> Vec<Duration> {
    let mut per_window = Vec::with_capacity(plan.windows as usize);
    for w in 0..plan.windows {
        let mut busy = Duration::ZERO;
        for part in scalars.chunks(chunk.max(1)) {
            let t = Instant::now();
            let mut d = Vec::with_capacity(part.len());
            extend_window_digits(&mut d, part, w, plan);
            busy += t.elapsed();
            if tx.send(d).is_err() {
                return per_window;
            }
        }
        per_window.push(busy);
    }
    per_window
}

/// Window-major digits (the stream the core takes) as a model digit source.
pub struct StreamDigits<'a> {
    /// Window-major digits: window j's digit of scalar i at `j * n + i`.
    pub digits: &'a [i32],
    /// Number of scalars.
    pub n: usize,
    /// Number of windows.
    pub windows: usize,
    /// Window size in bits.
    pub c: u32,
}

impl DigitSource for StreamDigits<'_> {
    fn len(&self) -> usize {
        self.n
    }
    fn windows(&self) -> usize {
        self.windows
    }
    fn window_bits(&self) -> u32 {
        self.c
    }
    fn digit(&self, i: usize, j: usize) -> i32 {
        self.digits[j * self.n + i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_grows_with_n_and_stops_at_cmax() {
        let p = SYNTHESIZED;
        // the latency floor: 2^(c-1) >= 76 / 8
        assert_eq!(window_for(0, &p), 5);
        assert_eq!(window_for(1, &p), 5);
        assert_eq!(window_for(31, &p), 5);
        assert_eq!(window_for(32, &p), 6);
        assert_eq!(window_for(1 << 12, &p), 13);
        assert_eq!(window_for((1 << 12) - 1, &p), 12);
        assert_eq!(window_for(1 << 24, &p), 16);
        // the batched-affine core: 2^(c-1) >= 2673 / 8
        let aff = CoreParams { hz: 2673, pd: 1024, requeue: true, ..p };
        assert_eq!(window_for(1, &aff), 10);
        assert_eq!(window_for(1 << 10, &aff), 11);
        // a core of tiny windows is held to CMAX
        assert_eq!(window_for(1, &CoreParams { cmax: 3, ..aff }), 3);
    }

    #[test]
    fn only_narrow_last_windows_spread() {
        // 253-bit scalars: c = 13 leaves 6 bits on top, c = 16 leaves 13
        assert_eq!(spread_bits(&Plan::with_window(13, 253), 253), Some(6));
        assert_eq!(spread_bits(&Plan::with_window(16, 253), 253), Some(13));
        assert_eq!(spread_bits(&Plan::with_window(11, 253), 253), Some(0));
        assert_eq!(spread_bits(&Plan::with_window(2, 253), 253), None);
    }
}
