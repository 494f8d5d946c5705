//! Greedy scheduling: a conflicting operation waits in a queue and is
//! re-issued into the very next batch its bucket is free for.

use super::{BatchSink, BusySet, DistinctBatch, Op, ScheduleStats, Scheduler};

/// Greedy scheduling: a conflicting operation waits in a queue and is re-issued into the first
/// batch in which its bucket is free.
#[derive(Debug, Clone, Copy)]
pub struct GreedyScheduler {
    /// Queue capacity, in multiples of the batch size.
    pub queue_factor: usize,
}

impl Default for GreedyScheduler {
    fn default() -> Self {
        Self { queue_factor: 2 }
    }
}

/// The batch being filled and the parked operations, with the counters in
/// locals: the per-operation path (one bit test, one store) keeps everything
/// in registers (the statistics had lived in the stack frame, updated per
/// operation, around the iterator's indirect call).
struct Greedy<'a> {
    busy: BusySet,
    batch: Vec<Op>,
    /// Parked operations, oldest first.
    queue: Vec<Op>,
    batch_size: usize,
    batches: u64,
    sink: &'a mut dyn BatchSink,
}

impl Greedy<'_> {
    /// Executes the full batch, frees its buckets and starts the next one
    /// with the parked operations whose bucket is now free (in their order).
    fn flush(&mut self) {
        // SAFETY: every operation of the batch marked its bucket busy before
        // joining it, and a busy bucket admits no other (`busy` is released
        // only after the batch executes).
        self.sink.execute(unsafe { DistinctBatch::new_unchecked(&self.batch) });
        self.batches += 1;
        self.busy.release(&self.batch);
        self.batch.clear();
        let (busy, batch, size) = (&mut self.busy, &mut self.batch, self.batch_size);
        self.queue.retain(|op| {
            if batch.len() < size && !busy.is_busy(op.bucket) {
                busy.mark(op.bucket);
                batch.push(*op);
                false
            } else {
                true
            }
        });
    }
}

impl Scheduler for GreedyScheduler {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn schedule(
        &self,
        ops: &mut dyn Iterator<Item = Op>,
        buckets: usize,
        batch_size: usize,
        sink: &mut dyn BatchSink,
    ) -> ScheduleStats {
        let batch_size = batch_size.max(1);
        let cap = self.queue_factor.max(1) * batch_size;
        let mut g = Greedy {
            busy: BusySet::new(buckets),
            batch: Vec::with_capacity(batch_size),
            queue: Vec::with_capacity(cap),
            batch_size,
            batches: 0,
            sink,
        };
        let (mut n, mut conflicts, mut overflowed, mut max_queue) = (0u64, 0u64, 0u64, 0usize);
        // Zero, but not to the optimizer (see below).
        let zero = std::hint::black_box(0u32);
        'stream: loop {
            // Fill the batch from the stream; conflicting operations park.
            while g.batch.len() < batch_size {
                // Field by field: the iterator returns the operation through
                // memory, written as two 4-byte stores and a 1-byte store;
                // copied whole, it was read back with an 8-byte and a 4-byte
                // load, which store-to-load forwarding cannot serve (each
                // spans more than one store): a stall of every operation, half
                // the scheduler's time (perf annotate, Zen 5). `zero` keeps
                // the compiler from merging the loads again.
                let Some(Op { point, bucket, negate }) = ops.next() else { break 'stream };
                let (point, negate) = (point ^ zero, negate ^ (zero != 0));
                n += 1;
                if g.busy.is_busy(bucket) {
                    conflicts += 1;
                    if g.queue.len() >= cap {
                        overflowed += 1;
                        g.sink.overflow(Op { point, bucket, negate });
                    } else {
                        g.queue.push(Op { point, bucket, negate });
                        max_queue = max_queue.max(g.queue.len());
                    }
                } else {
                    g.busy.mark(bucket);
                    g.batch.push(Op { point, bucket, negate });
                }
            }
            g.flush();
        }
        // Drain: keep batching while batches stay reasonably full; the rest
        // (typically many ops into few buckets) goes projective.
        while !g.batch.is_empty() {
            if g.batch.len() * 8 < batch_size && !g.queue.is_empty() {
                break;
            }
            g.flush();
        }
        for op in g.batch.drain(..).chain(g.queue.drain(..)) {
            overflowed += 1;
            g.sink.overflow(op);
        }
        ScheduleStats { ops: n, batches: g.batches, conflicts, passes: 1, max_queue, overflowed }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn batches_are_conflict_free_and_complete() {
        super::super::tests::check_scheduler(&super::GreedyScheduler::default());
    }
}
