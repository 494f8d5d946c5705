//! Bucket-accumulation schedulers, each one type behind [`Scheduler`].
//!
//! | type | paper | order of windows | datapath |
//! |---|---|---|---|
//! | [`cyclone::Delayed`] | CycloneMSM 3.2 | one after another | read-modify-write, depth T |
//! | [`cyclone::Greedy`] | CycloneMSM 3.2 | one after another | read-modify-write, depth T |
//! | [`hardcaml::StallController`] | Hardcaml 4.6 | round-robin per cycle | read-modify-write, depth T |
//! | [`prior::Pbsm`] | PriorMSM 3.3, Fig. 5 | one after another | pairing (point + point), depth D |
//! | [`zprize::CollisionHandler`] | ZPrize 2023 | lanes round-robin, CUs in parallel | batched affine, in-flight time T |
//! | [`core::CoreSched`] | the zkmsm RTL core | back to back, two banks | read-modify-write, depth T |

pub mod core;
pub mod cyclone;
pub mod hardcaml;
pub mod prior;
pub mod zprize;

use crate::datapath::{Buckets, Datapath};
use crate::digits::DigitSource;

/// Hardware parameters shared by the models (each scheduler documents which
/// ones it honours).
#[derive(Clone, Debug)]
pub struct Machine {
    /// Pipeline depth T: an operation issued at cycle t is written back so
    /// that an operation on the same bucket may issue at t + T + 1 (the
    /// condition (3) of CycloneMSM: equal buckets at distance <= T conflict).
    pub depth: u32,
    /// Number of curve-adder pipelines (each accepts one operation per cycle).
    pub adders: u32,
    /// Bucket-memory banks (bank = bucket index mod banks).
    pub banks: u32,
    /// Read ports per bank per cycle.
    pub ports: u32,
    /// Capacity of the scheduler's queue(s); 0 means unbounded.
    pub fifo_depth: usize,
    /// Batched-affine adders (ZPrize 2023): operations are grouped into
    /// frames of `batch` cycles that share one inversion; an operation's
    /// result is written back `depth` cycles after its frame closes. 0: no
    /// batching (a plain pipeline of depth T).
    pub batch: u32,
}

impl Default for Machine {
    fn default() -> Self {
        Self { depth: 100, adders: 1, banks: 1, ports: 1, fifo_depth: 0, batch: 0 }
    }
}

/// What one accumulation run measured.
#[derive(Clone, Debug, Default)]
pub struct AccStats {
    /// Cycles of the accumulation phase, until the last result is written.
    pub cycles: u64,
    /// Accumulation cycles of each window (schedulers that run windows one
    /// after another); empty otherwise.
    pub window_cycles: Vec<u64>,
    /// Operations issued into the adder pipeline(s) (bucket additions,
    /// including the first write into an empty bucket for read-modify-write
    /// datapaths).
    pub ops: u64,
    /// Issue slots (cycles x adders) available while input was pending.
    pub slots: u64,
    /// Issue slots left empty while work was pending (stalls and bubbles).
    pub bubbles: u64,
    /// Hazards detected: operations that found their bucket busy.
    pub conflicts: u64,
    /// Cycles in which the input stream was held back (back-pressure).
    pub input_stalls: u64,
    /// Delayed scheduler: number of passes in the worst window.
    pub passes: u32,
    /// Per-window figures (schedulers that run windows one after another):
    /// conflicts detected, passes, total deferral-FIFO length (delayed) or
    /// queue high-water mark (greedy).
    pub window_conflicts: Vec<u64>,
    /// Per window: passes (delayed scheduler).
    pub window_passes: Vec<u32>,
    /// Per window: total deferral-FIFO length (delayed) or queue high-water mark (greedy).
    pub window_deferred: Vec<u64>,
    /// Delayed scheduler: digits in each pass, per window (pass 1 is the stream).
    pub window_pass_sizes: Vec<Vec<u64>>,
    /// High-water mark of the scheduler's queue(s).
    pub queue_hwm: u64,
    /// Digits equal to zero (no operation).
    pub zero_digits: u64,
    /// Scheduler-specific figures.
    pub extra: Vec<(&'static str, f64)>,
}

impl AccStats {
    /// Operations per issue slot while input was pending (1.0: no slot wasted).
    pub fn utilization(&self) -> f64 {
        if self.slots == 0 {
            return 0.0;
        }
        self.ops as f64 / self.slots as f64
    }

    /// A scheduler-specific figure by name.
    pub fn extra(&self, name: &str) -> Option<f64> {
        self.extra.iter().find(|e| e.0 == name).map(|e| e.1)
    }
}

/// One bucket-accumulation scheduler.
pub trait Scheduler {
    /// The scheduler's name in reports.
    fn name(&self) -> &'static str;
    /// True when the windows run one after another, so the model can place
    /// an on-device bucket aggregation after each window.
    fn sequential_windows(&self) -> bool;
    /// Accumulate every digit of `digits` into `buckets`, cycle by cycle.
    fn accumulate<D: Datapath, S: DigitSource>(
        &mut self,
        m: &Machine,
        digits: &S,
        dp: &D,
        buckets: &mut Buckets<D::V>,
    ) -> AccStats;
}

/// Bucket magnitude index and sign of a digit; `None` for zero.
#[inline(always)]
pub fn bucket_of(d: i32) -> Option<(u32, bool)> {
    if d == 0 {
        None
    } else {
        Some((d.unsigned_abs() - 1, d < 0))
    }
}

/// A read-modify-write adder pipeline of depth T with hazard tracking:
/// the shared datapath of CycloneMSM, Hardcaml and ZPrize 2023 models.
/// In functional mode the bucket is read at issue and written at retire.
pub struct RmwPipe<V> {
    depth: u64,
    batch: u64,
    /// Offset of hazard index 0 in bucket memory.
    base: u32,
    free_at: Vec<u64>,
    inflight: std::collections::VecDeque<(u64, u32, V)>,
    /// Operations issued.
    pub ops: u64,
    /// Cycle of the last issue.
    pub last_issue: u64,
    last_due: u64,
}

impl<V: Clone> RmwPipe<V> {
    /// A pipeline tracking `slots` buckets, the first of which is bucket
    /// `base` of bucket memory.
    pub fn new(depth: u32, slots: usize, base: u32) -> Self {
        Self {
            depth: depth as u64,
            batch: 0,
            base,
            free_at: vec![0; slots],
            inflight: Default::default(),
            ops: 0,
            last_issue: 0,
            last_due: 0,
        }
    }

    /// Batched results: an operation issued at t is written back `depth`
    /// cycles after the end of its `batch`-cycle frame.
    pub fn with_batch(mut self, batch: u32) -> Self {
        self.batch = batch as u64;
        self
    }

    /// Cycle at whose end the result of an operation issued at `t` is written.
    #[inline(always)]
    fn due(&self, t: u64) -> u64 {
        if self.batch > 1 {
            (t / self.batch + 1) * self.batch - 1 + self.depth
        } else {
            t + self.depth
        }
    }

    /// True if bucket slot `idx` may not be read at cycle `t`.
    #[inline(always)]
    pub fn busy(&self, idx: u32, t: u64) -> bool {
        t < self.free_at[idx as usize]
    }

    /// First cycle at which `idx` is free.
    #[inline(always)]
    pub fn free_at(&self, idx: u32) -> u64 {
        self.free_at[idx as usize]
    }

    /// Write back every operation whose result is due by cycle `t`.
    #[inline(always)]
    pub fn retire<D: Datapath<V = V>>(&mut self, t: u64, buckets: &mut Buckets<V>) {
        if D::FUNCTIONAL {
            while let Some((due, _, _)) = self.inflight.front() {
                if *due > t {
                    break;
                }
                let (_, idx, v) = self.inflight.pop_front().unwrap();
                buckets.slots[idx as usize] = Some(v);
            }
        }
    }

    /// Issue `bucket slot += point` at cycle `t`. The caller (the scheduler)
    /// must have checked `busy`: issuing on a busy bucket is exactly the
    /// hazard the hardware must avoid, and in functional mode it loses an
    /// addition (see the test below).
    #[inline(always)]
    pub fn issue<D: Datapath<V = V>>(
        &mut self,
        dp: &D,
        buckets: &mut Buckets<V>,
        t: u64,
        idx: u32,
        point: u32,
        neg: bool,
    ) {
        let due = self.due(t);
        self.free_at[idx as usize] = due + 1;
        self.ops += 1;
        self.last_issue = self.last_issue.max(t);
        self.last_due = self.last_due.max(due);
        if D::FUNCTIONAL {
            // Retire anything due before this read (results due at t - 1 or
            // earlier are visible at t).
            self.retire::<D>(t.saturating_sub(1), buckets);
            let p = dp.input(point, neg);
            let v = match &buckets.slots[(self.base + idx) as usize] {
                Some(b) => dp.add(b, &p),
                None => p,
            };
            // Keep the deque ordered by due time: issue times are
            // non-decreasing across calls.
            self.inflight.push_back((due, self.base + idx, v));
        }
    }

    /// Cycle after the last write-back (end of the phase).
    pub fn drain_end(&self) -> u64 {
        if self.ops == 0 {
            0
        } else {
            self.last_due + 1
        }
    }

    /// Write back everything (end of the phase).
    pub fn flush<D: Datapath<V = V>>(&mut self, buckets: &mut Buckets<V>) {
        self.retire::<D>(u64::MAX, buckets);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datapath::Datapath;

    /// Integers: the bucket value counts the additions that reached it.
    struct Count;
    impl Datapath for Count {
        type V = u64;
        const FUNCTIONAL: bool = true;
        fn input(&self, _: u32, _: bool) -> u64 {
            1
        }
        fn add(&self, a: &u64, b: &u64) -> u64 {
            a + b
        }
        fn double(&self, a: &u64) -> u64 {
            2 * a
        }
        fn zero(&self) -> u64 {
            0
        }
    }

    #[test]
    fn functional_pipeline_exposes_hazards() {
        let depth = 5;
        // Respecting the hazard rule: three additions, value 3.
        let mut b = Buckets::new(1, 1, true);
        let mut p = RmwPipe::<u64>::new(depth, 1, 0);
        let mut t = 0;
        for _ in 0..3 {
            assert!(!p.busy(0, t));
            p.issue(&Count, &mut b, t, 0, 0, false);
            assert!(p.busy(0, t + depth as u64) && !p.busy(0, t + depth as u64 + 1));
            t += depth as u64 + 1;
        }
        p.flush::<Count>(&mut b);
        assert_eq!(b.slots[0], Some(3));
        assert_eq!(p.drain_end(), 2 * (depth as u64 + 1) + depth as u64 + 1);
        // Ignoring it (issue while busy): the second read is stale and one
        // addition is lost, as in the hardware.
        let mut b = Buckets::new(1, 1, true);
        let mut p = RmwPipe::<u64>::new(depth, 1, 0);
        p.issue(&Count, &mut b, 0, 0, 0, false);
        p.issue(&Count, &mut b, depth as u64, 0, 0, false);
        p.flush::<Count>(&mut b);
        assert_eq!(b.slots[0], Some(1));
    }

    #[test]
    fn batched_results_return_after_the_frame() {
        let mut b = Buckets::new(1, 4, true);
        let mut p = RmwPipe::<u64>::new(10, 4, 0).with_batch(8);
        p.issue(&Count, &mut b, 0, 0, 0, false);
        p.issue(&Count, &mut b, 7, 1, 0, false);
        p.issue(&Count, &mut b, 8, 2, 0, false);
        // Frame [0, 8) closes at cycle 7; results due at 17, free from 18.
        assert_eq!(p.free_at(0), 18);
        assert_eq!(p.free_at(1), 18);
        assert_eq!(p.free_at(2), 26);
        assert_eq!(p.drain_end(), 26);
    }
}
