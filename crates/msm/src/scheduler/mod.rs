//! The scheduler seam. A batch-affine engine adds T points into T buckets with
//! one shared inversion, which is only possible when the T buckets are
//! distinct, just as a deep hardware adder pipeline may not hold two
//! additions into one bucket at once. A scheduler turns a window's stream of
//! bucket operations into such conflict-free batches; the papers differ
//! mostly in what it does with a conflicting operation:
//!
//! - [`DelayedScheduler`] (CycloneMSM): park it in a FIFO, replay the FIFO in
//!   a later pass over the stream;
//! - [`GreedyScheduler`] (CycloneMSM, gnark-crypto): park it, and re-issue it
//!   as soon as its bucket leaves the batch in flight.
//!
//! Both bound their queue: an operation that finds the queue full, or that
//! would have to wait for too sparse a batch, is handed to `overflow`, which
//! adds it in projective coordinates with no inversion. So adversarial inputs
//! (all scalars equal: every operation hits one bucket) stay correct and
//! finish in bounded memory and time.

mod delayed;
mod greedy;

pub use delayed::DelayedScheduler;
pub use greedy::GreedyScheduler;

/// One bucket operation: add (or subtract) point `point` into `bucket`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Op {
    /// The point's index.
    pub point: u32,
    /// The bucket (|digit| - 1).
    pub bucket: u32,
    /// Subtract the point (a negative digit).
    pub negate: bool,
}

impl Op {
    /// The operation of a non-zero signed digit.
    #[inline]
    pub fn from_digit(point: usize, digit: i32) -> Self {
        Op { point: point as u32, bucket: digit.unsigned_abs() - 1, negate: digit < 0 }
    }
}

/// What a scheduler did with one window.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ScheduleStats {
    /// Operations scheduled.
    pub ops: u64,
    /// Batches executed.
    pub batches: u64,
    /// Operations that found their bucket busy when first issued.
    pub conflicts: u64,
    /// Passes over the stream (delayed scheduler; 1 for greedy).
    pub passes: u32,
    /// Largest number of parked operations at any time.
    pub max_queue: usize,
    /// Operations handed to the projective fallback.
    pub overflowed: u64,
}

impl ScheduleStats {
    /// Adds another window's statistics to these (counts summed, maxima kept).
    pub fn merge(&mut self, o: &Self) {
        self.ops += o.ops;
        self.batches += o.batches;
        self.conflicts += o.conflicts;
        self.passes = self.passes.max(o.passes);
        self.max_queue = self.max_queue.max(o.max_queue);
        self.overflowed += o.overflowed;
    }
}

/// A batch of operations on pairwise distinct buckets: the only form in
/// which a scheduler can hand a batch to a [`BatchSink`]. The lane engines
/// write a batch's results to its buckets lane by lane, so two operations
/// on one bucket would lose one of them; this type carries the proof that
/// they cannot.
#[derive(Debug, Clone, Copy)]
pub struct DistinctBatch<'a>(&'a [Op]);

impl<'a> DistinctBatch<'a> {
    /// `ops` as a batch if their buckets are pairwise distinct and below
    /// `buckets` (checked with one bit per bucket), else `None`.
    pub fn checked(ops: &'a [Op], buckets: usize) -> Option<Self> {
        let mut seen = BusySet::new(buckets);
        for op in ops {
            if op.bucket as usize >= buckets || seen.is_busy(op.bucket) {
                return None;
            }
            seen.mark(op.bucket);
        }
        Some(DistinctBatch(ops))
    }

    /// `ops` as a batch, unchecked (a debug build checks it).
    ///
    /// # Safety
    ///
    /// The buckets of `ops` are pairwise distinct: the caller marked each in
    /// a [`BusySet`]-like structure before adding it, as the schedulers here do.
    #[inline]
    pub(crate) unsafe fn new_unchecked(ops: &'a [Op]) -> Self {
        debug_assert!(
            {
                let mut b: Vec<u32> = ops.iter().map(|o| o.bucket).collect();
                b.sort_unstable();
                b.windows(2).all(|w| w[0] != w[1])
            },
            "a batch with two operations on one bucket"
        );
        DistinctBatch(ops)
    }

    /// The operations.
    #[inline]
    pub fn ops(&self) -> &'a [Op] {
        self.0
    }
}

/// Where a scheduler sends its decisions.
pub trait BatchSink {
    /// Execute a batch (its buckets pairwise distinct, by construction).
    fn execute(&mut self, batch: DistinctBatch<'_>);
    /// Add one operation outside the batches.
    fn overflow(&mut self, op: Op);
}

/// Turns a stream of operations into conflict-free batches of at most
/// `batch_size` operations.
pub trait Scheduler: Send + Sync {
    /// The scheduler's name in reports.
    fn name(&self) -> &'static str;
    /// Sends every operation of `ops` to `sink`, in batches of at most `batch_size` with pairwise
    /// distinct buckets (among `buckets`) or as overflow, and says what it did.
    fn schedule(
        &self,
        ops: &mut dyn Iterator<Item = Op>,
        buckets: usize,
        batch_size: usize,
        sink: &mut dyn BatchSink,
    ) -> ScheduleStats;
}

/// Which buckets the batch being filled already uses: one bit per bucket
/// (4 KiB at c = 16, so the test on every operation stays in L1; a u32
/// generation stamp per bucket was 128 KiB, and its load was most of the
/// scheduler's time at 2^18 points, perf on Zen 5). Cleared by
/// releasing the batch's own buckets, the only ones marked.
pub(crate) struct BusySet {
    bits: Vec<u64>,
}

impl BusySet {
    pub fn new(buckets: usize) -> Self {
        Self { bits: vec![0; buckets.div_ceil(64)] }
    }
    #[inline]
    pub fn is_busy(&self, b: u32) -> bool {
        self.bits[(b / 64) as usize] >> (b % 64) & 1 != 0
    }
    #[inline]
    pub fn mark(&mut self, b: u32) {
        self.bits[(b / 64) as usize] |= 1 << (b % 64);
    }
    /// Frees the buckets of `batch` (the operations marked since the last release).
    #[inline]
    pub fn release(&mut self, batch: &[Op]) {
        for op in batch {
            self.bits[(op.bucket / 64) as usize] &= !(1 << (op.bucket % 64));
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Records batches, checks distinctness, and accounts for every op.
    #[derive(Default)]
    pub struct Recorder {
        pub seen: HashMap<(u32, u32, bool), usize>,
        pub batches: Vec<usize>,
        pub overflowed: usize,
    }

    impl BatchSink for Recorder {
        fn execute(&mut self, batch: DistinctBatch<'_>) {
            let batch = batch.ops();
            let mut buckets: Vec<u32> = batch.iter().map(|o| o.bucket).collect();
            buckets.sort_unstable();
            buckets.dedup();
            assert_eq!(buckets.len(), batch.len(), "batch with a repeated bucket");
            self.batches.push(batch.len());
            for o in batch {
                *self.seen.entry((o.point, o.bucket, o.negate)).or_default() += 1;
            }
        }
        fn overflow(&mut self, op: Op) {
            self.overflowed += 1;
            *self.seen.entry((op.point, op.bucket, op.negate)).or_default() += 1;
        }
    }

    /// A checked batch refuses a repeated bucket and a bucket out of range,
    /// and takes distinct buckets in any order.
    #[test]
    fn checked_batch_refuses_repeated_buckets() {
        let op = |bucket| Op { point: 0, bucket, negate: false };
        assert!(DistinctBatch::checked(&[op(3), op(0), op(63), op(64)], 65).is_some());
        assert!(DistinctBatch::checked(&[], 0).is_some());
        assert!(DistinctBatch::checked(&[op(3), op(0), op(3)], 65).is_none());
        assert!(DistinctBatch::checked(&[op(64), op(64)], 65).is_none());
        assert!(DistinctBatch::checked(&[op(65)], 65).is_none());
    }

    /// The unchecked constructor asserts the contract in debug builds.
    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "two operations on one bucket")]
    fn unchecked_batch_asserts_in_debug_builds() {
        let op = |bucket| Op { point: 0, bucket, negate: false };
        // SAFETY: deliberately broken to see the debug assertion fire; the
        // batch is never executed.
        let _ = unsafe { DistinctBatch::new_unchecked(&[op(1), op(2), op(1)]) };
    }

    /// Marks, tests and releases at word edges and in the last partial word;
    /// releasing a batch frees its buckets only.
    #[test]
    fn busy_set_marks_and_releases_exactly_its_buckets() {
        for buckets in [1usize, 3, 63, 64, 65, 130] {
            let mut busy = BusySet::new(buckets);
            let op = |b: usize| Op { point: 0, bucket: b as u32, negate: false };
            let mut edges: Vec<usize> =
                [0, 1, 62, 63, 64, 65, 127, 128, buckets - 1].into_iter().filter(|&b| b < buckets).collect();
            edges.sort_unstable();
            edges.dedup();
            let first: Vec<Op> = edges.iter().step_by(2).map(|&b| op(b)).collect();
            let second: Vec<Op> = edges.iter().skip(1).step_by(2).map(|&b| op(b)).collect();
            for o in first.iter().chain(&second) {
                busy.mark(o.bucket);
            }
            for b in 0..buckets {
                assert_eq!(busy.is_busy(b as u32), edges.contains(&b), "{buckets} buckets, bucket {b}");
            }
            busy.release(&first);
            for b in 0..buckets {
                let want = second.iter().any(|o| o.bucket as usize == b);
                assert_eq!(busy.is_busy(b as u32), want, "{buckets} buckets, bucket {b} after a release");
            }
            busy.release(&second);
            assert!((0..buckets).all(|b| !busy.is_busy(b as u32)));
        }
    }

    /// Every op exactly once, batches conflict-free and within size.
    pub fn check_scheduler(s: &dyn Scheduler) {
        let mut state = 12345u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for (n, buckets, batch, skew) in [
            (0usize, 8usize, 4usize, false),
            (1, 1, 4, false),
            (5000, 64, 16, false),
            (5000, 1, 16, false),
            (3000, 512, 128, true),
            (4000, 3, 2, false),
            (3000, 2, 2, false),
            (3000, 5, 4, true),
            (2000, 4096, 256, true),
        ] {
            let ops: Vec<Op> = (0..n)
                .map(|i| {
                    let b = if skew && i % 2 == 0 { 7 } else { (next() % buckets as u64) as u32 };
                    Op { point: i as u32, bucket: b, negate: next() % 2 == 0 }
                })
                .collect();
            let mut rec = Recorder::default();
            let stats = s.schedule(&mut ops.iter().copied(), buckets, batch, &mut rec);
            assert_eq!(rec.seen.len(), n, "{}: every op once", s.name());
            assert!(rec.seen.values().all(|&c| c == 1));
            assert!(rec.batches.iter().all(|&b| b >= 1 && b <= batch));
            assert_eq!(stats.ops, n as u64);
            assert_eq!(stats.overflowed, rec.overflowed as u64);
            assert_eq!(stats.batches, rec.batches.len() as u64);
            if buckets == 1 && n > 100 {
                assert!(stats.overflowed > 0, "{}: one bucket must overflow", s.name());
            }
        }
    }
}
