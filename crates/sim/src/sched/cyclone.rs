//! CycloneMSM's schedulers (Section 3.2 of the paper): windows one after
//! another, one digit streamed per cycle per adder, a read-modify-write
//! adder pipeline of depth T, and two ways to handle a digit whose bucket is
//! still in the pipeline.
//!
//! Model assumptions (the paper does not state them):
//! * a digit that conflicts costs its issue slot (a bubble): the hazard is
//!   detected in the cycle the digit would have issued;
//! * a zero digit also occupies its slot (the host streams every digit);
//! * with several adders, the stream delivers `adders` digits per cycle and
//!   a digit whose bank has no read port left waits for the next cycle.

use super::{bucket_of, AccStats, Machine, RmwPipe, Scheduler};
use crate::datapath::{Buckets, Datapath};
use crate::digits::DigitSource;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A queued operation: (ready cycle, arrival order, point, bucket, sign).
type Waiting = (u64, u64, u32, u32, bool);

/// Per-cycle bank-port bookkeeping.
struct Ports {
    banks: u32,
    ports: u32,
    used: Vec<u32>,
}

impl Ports {
    fn new(m: &Machine) -> Self {
        Self { banks: m.banks.max(1), ports: m.ports.max(1), used: vec![0; m.banks.max(1) as usize] }
    }
    #[inline(always)]
    fn reset(&mut self) {
        self.used.iter_mut().for_each(|u| *u = 0);
    }
    /// Claim a read port for `bucket`; false if its bank has none left.
    #[inline(always)]
    fn claim(&mut self, bucket: u32) -> bool {
        let b = (bucket % self.banks) as usize;
        if self.used[b] < self.ports {
            self.used[b] += 1;
            true
        } else {
            false
        }
    }
}

/// Delayed scheduler: conflicting digits are written to a FIFO and replayed
/// in a later pass over the FIFO, until a pass has no conflict.
///
/// `drain_between_passes` (default true, an assumption: the FIFO goes to
/// DDR and is read back) starts a pass only once the previous pass's last
/// addition has been written back, so a pass conflicts only with itself.
/// Without it a short pass re-conflicts with the additions still in flight
/// from the pass before, and the last few digits of a window can take up to
/// T passes of a cycle or two each.
#[derive(Clone, Debug)]
pub struct Delayed {
    /// Wait between passes until every addition of the previous pass has been written back.
    pub drain_between_passes: bool,
}

impl Default for Delayed {
    fn default() -> Self {
        Self { drain_between_passes: true }
    }
}

/// Greedy scheduler: a conflicting digit waits in a queue and is replayed
/// (ahead of the stream) as soon as its bucket leaves the pipeline.
#[derive(Clone, Debug, Default)]
pub struct Greedy;

impl Scheduler for Delayed {
    fn name(&self) -> &'static str {
        "cyclone-delayed"
    }
    fn sequential_windows(&self) -> bool {
        true
    }
    fn accumulate<D: Datapath, S: DigitSource>(
        &mut self,
        m: &Machine,
        digits: &S,
        dp: &D,
        buckets: &mut Buckets<D::V>,
    ) -> AccStats {
        let mut st = AccStats::default();
        let nb = buckets.per_window;
        let lanes = m.adders.max(1) as usize;
        let mut ports = Ports::new(m);
        let mut t_total = 0u64;
        for w in 0..digits.windows() {
            let mut pipe = RmwPipe::<D::V>::new(m.depth, nb, (w * nb) as u32);
            let conflicts_before = st.conflicts;
            let mut t = 0u64;
            let mut pass: Vec<u32> = Vec::new();
            let mut first = true;
            let mut passes = 0u32;
            let mut deferred = 0u64;
            let mut sizes: Vec<u64> = Vec::new();
            loop {
                let len = if first { digits.len() } else { pass.len() };
                if len == 0 {
                    break;
                }
                passes += 1;
                sizes.push(len as u64);
                if !first && self.drain_between_passes {
                    t = t.max(pipe.drain_end());
                }
                let mut next: Vec<u32> = Vec::new();
                let mut k = 0usize;
                while k < len {
                    ports.reset();
                    let before = pipe.ops;
                    for _ in 0..lanes {
                        if k >= len {
                            continue;
                        }
                        let i = if first { k as u32 } else { pass[k] };
                        let d = digits.digit(i as usize, w);
                        let Some((b, neg)) = bucket_of(d) else {
                            st.zero_digits += 1;
                            k += 1;
                            continue;
                        };
                        if !ports.claim(b) {
                            // Bank busy: the digit waits for the next cycle.
                            st.input_stalls += 1;
                            break;
                        }
                        k += 1;
                        if pipe.busy(b, t) {
                            st.conflicts += 1;
                            next.push(i);
                        } else {
                            pipe.issue(dp, buckets, t, b, i, neg);
                        }
                    }
                    st.slots += lanes as u64;
                    st.bubbles += lanes as u64 - (pipe.ops - before);
                    t += 1;
                }
                deferred += next.len() as u64;
                st.queue_hwm = st.queue_hwm.max(next.len() as u64);
                pass = next;
                first = false;
            }
            let end = pipe.drain_end().max(t);
            pipe.flush::<D>(buckets);
            st.ops += pipe.ops;
            st.window_conflicts.push(st.conflicts - conflicts_before);
            st.window_passes.push(passes);
            st.window_pass_sizes.push(sizes);
            st.window_deferred.push(deferred);
            st.passes = st.passes.max(passes);
            st.window_cycles.push(end);
            t_total += end;
        }
        st.cycles = t_total;
        st
    }
}

impl Scheduler for Greedy {
    fn name(&self) -> &'static str {
        "cyclone-greedy"
    }
    fn sequential_windows(&self) -> bool {
        true
    }
    fn accumulate<D: Datapath, S: DigitSource>(
        &mut self,
        m: &Machine,
        digits: &S,
        dp: &D,
        buckets: &mut Buckets<D::V>,
    ) -> AccStats {
        let mut st = AccStats::default();
        let nb = buckets.per_window;
        let lanes = m.adders.max(1) as usize;
        let cap = if m.fifo_depth == 0 { usize::MAX } else { m.fifo_depth };
        let mut ports = Ports::new(m);
        let mut t_total = 0u64;
        let n = digits.len();
        for w in 0..digits.windows() {
            let mut pipe = RmwPipe::<D::V>::new(m.depth, nb, (w * nb) as u32);
            // (ready cycle, arrival order, point, bucket, sign)
            let mut queue: BinaryHeap<Reverse<Waiting>> = BinaryHeap::new();
            let mut t = 0u64;
            let mut k = 0usize;
            let mut seq = 0u64;
            let conflicts_before = st.conflicts;
            let mut hwm = 0u64;
            while k < n || !queue.is_empty() {
                // Nothing can issue before the head of the queue is ready.
                if k >= n {
                    let ready = queue.peek().unwrap().0 .0;
                    if ready > t {
                        st.bubbles += (ready - t) * lanes as u64;
                        st.slots += (ready - t) * lanes as u64;
                        t = ready;
                    }
                }
                ports.reset();
                let before = pipe.ops;
                let mut stream_blocked = false;
                for _ in 0..lanes {
                    // 1. A queued operation whose bucket has left the pipeline.
                    if let Some(&Reverse((ready, _, i, b, neg))) = queue.peek() {
                        if ready <= t && ports.claim(b) {
                            queue.pop();
                            if pipe.busy(b, t) {
                                // Re-issued meanwhile (another queued op on the
                                // same bucket): wait again.
                                queue.push(Reverse((pipe.free_at(b), seq, i, b, neg)));
                                seq += 1;
                                st.conflicts += 1;
                            } else {
                                pipe.issue(dp, buckets, t, b, i, neg);
                            }
                            continue;
                        }
                    }
                    // 2. The next digit of the stream.
                    if k >= n || stream_blocked {
                        continue;
                    }
                    if queue.len() >= cap {
                        st.input_stalls += 1;
                        stream_blocked = true;
                        continue;
                    }
                    let d = digits.digit(k, w);
                    let Some((b, neg)) = bucket_of(d) else {
                        st.zero_digits += 1;
                        k += 1;
                        continue;
                    };
                    if !ports.claim(b) {
                        st.input_stalls += 1;
                        stream_blocked = true;
                        continue;
                    }
                    if pipe.busy(b, t) {
                        st.conflicts += 1;
                        queue.push(Reverse((pipe.free_at(b), seq, k as u32, b, neg)));
                        seq += 1;
                        hwm = hwm.max(queue.len() as u64);
                    } else {
                        pipe.issue(dp, buckets, t, b, k as u32, neg);
                    }
                    k += 1;
                }
                st.slots += lanes as u64;
                st.bubbles += lanes as u64 - (pipe.ops - before);
                t += 1;
            }
            let end = pipe.drain_end().max(t);
            pipe.flush::<D>(buckets);
            st.ops += pipe.ops;
            st.passes = 1;
            st.queue_hwm = st.queue_hwm.max(hwm);
            st.window_conflicts.push(st.conflicts - conflicts_before);
            st.window_deferred.push(hwm);
            st.window_cycles.push(end);
            t_total += end;
        }
        st.cycles = t_total;
        st
    }
}
