//! Delayed scheduling (CycloneMSM): a conflicting operation is parked in a
//! FIFO and not looked at again until the pass over the stream ends; the FIFO
//! is then replayed as the next pass, until it is empty.

use super::{BatchSink, BusySet, DistinctBatch, Op, ScheduleStats, Scheduler};

/// CycloneMSM's delayed scheduling: a conflicting operation is parked in a FIFO and retried in a
/// later pass over the stream; after `max_passes` what is left goes to the projective fallback.
#[derive(Debug, Clone, Copy)]
pub struct DelayedScheduler {
    /// FIFO capacity, in multiples of the batch size.
    pub fifo_factor: usize,
    /// Passes before whatever is left goes projective.
    pub max_passes: u32,
}

impl Default for DelayedScheduler {
    fn default() -> Self {
        Self { fifo_factor: 8, max_passes: 4 }
    }
}

struct Pass<'a> {
    busy: BusySet,
    batch: Vec<Op>,
    fifo: Vec<Op>,
    cap: usize,
    batch_size: usize,
    st: ScheduleStats,
    sink: &'a mut dyn BatchSink,
}

impl Pass<'_> {
    #[inline]
    fn step(&mut self, op: Op, first_pass: bool) {
        if self.busy.is_busy(op.bucket) {
            self.st.conflicts += first_pass as u64;
            if self.fifo.len() >= self.cap {
                self.st.overflowed += 1;
                self.sink.overflow(op);
            } else {
                self.fifo.push(op);
                self.st.max_queue = self.st.max_queue.max(self.fifo.len());
            }
            return;
        }
        self.busy.mark(op.bucket);
        self.batch.push(op);
        if self.batch.len() == self.batch_size {
            self.flush();
        }
    }

    fn flush(&mut self) {
        if !self.batch.is_empty() {
            // SAFETY: every operation of the batch marked its bucket busy before
            // joining it, and a busy bucket admits no other (`busy` is released
            // only after the batch executes).
            self.sink.execute(unsafe { DistinctBatch::new_unchecked(&self.batch) });
            self.st.batches += 1;
            self.busy.release(&self.batch);
            self.batch.clear();
        }
    }
}

impl Scheduler for DelayedScheduler {
    fn name(&self) -> &'static str {
        "delayed"
    }

    fn schedule(
        &self,
        ops: &mut dyn Iterator<Item = Op>,
        buckets: usize,
        batch_size: usize,
        sink: &mut dyn BatchSink,
    ) -> ScheduleStats {
        let mut p = Pass {
            busy: BusySet::new(buckets),
            batch: Vec::with_capacity(batch_size),
            fifo: Vec::new(),
            cap: self.fifo_factor.max(1) * batch_size,
            batch_size,
            st: ScheduleStats { passes: 1, ..Default::default() },
            sink,
        };
        for op in ops {
            p.st.ops += 1;
            p.step(op, true);
        }
        while !p.fifo.is_empty() && p.st.passes < self.max_passes {
            p.st.passes += 1;
            let replay = std::mem::take(&mut p.fifo);
            for op in replay {
                p.step(op, false);
            }
        }
        p.flush();
        for op in std::mem::take(&mut p.fifo) {
            p.st.overflowed += 1;
            p.sink.overflow(op);
        }
        p.st
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn batches_are_conflict_free_and_complete() {
        super::super::tests::check_scheduler(&super::DelayedScheduler::default());
    }
}
