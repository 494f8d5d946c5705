//! Greedy scheduling: a conflicting operation waits in a queue and is
//! re-issued into the very next batch its bucket is free for.

use super::{BatchSink, BusySet, Op, ScheduleStats, Scheduler};
use std::collections::VecDeque;

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
        let cap = self.queue_factor.max(1) * batch_size;
        let mut st = ScheduleStats { passes: 1, ..Default::default() };
        let mut busy = BusySet::new(buckets);
        let mut batch: Vec<Op> = Vec::with_capacity(batch_size);
        let mut queue: VecDeque<Op> = VecDeque::with_capacity(cap);
        let flush = |batch: &mut Vec<Op>,
                     busy: &mut BusySet,
                     queue: &mut VecDeque<Op>,
                     st: &mut ScheduleStats,
                     sink: &mut dyn BatchSink| {
            sink.execute(batch);
            st.batches += 1;
            busy.release(batch);
            batch.clear();
            // re-issue parked operations whose bucket is now free
            for _ in 0..queue.len() {
                let op = queue.pop_front().unwrap();
                if batch.len() < batch_size && !busy.is_busy(op.bucket) {
                    busy.mark(op.bucket);
                    batch.push(op);
                } else {
                    queue.push_back(op);
                }
            }
        };
        for op in ops {
            st.ops += 1;
            if busy.is_busy(op.bucket) {
                st.conflicts += 1;
                if queue.len() >= cap {
                    st.overflowed += 1;
                    sink.overflow(op);
                } else {
                    queue.push_back(op);
                    st.max_queue = st.max_queue.max(queue.len());
                }
            } else {
                busy.mark(op.bucket);
                batch.push(op);
            }
            if batch.len() == batch_size {
                flush(&mut batch, &mut busy, &mut queue, &mut st, sink);
            }
        }
        // Drain: keep batching while batches stay reasonably full; the rest
        // (typically many ops into few buckets) goes projective.
        while !batch.is_empty() {
            if batch.len() * 8 < batch_size && !queue.is_empty() {
                break;
            }
            flush(&mut batch, &mut busy, &mut queue, &mut st, sink);
        }
        for op in batch.drain(..).chain(queue.drain(..)) {
            st.overflowed += 1;
            sink.overflow(op);
        }
        st
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn batches_are_conflict_free_and_complete() {
        super::super::tests::check_scheduler(&super::GreedyScheduler::default());
    }
}
