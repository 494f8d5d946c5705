//! Hardcaml MSM's stall controller (Section 4.6 of the paper).
//!
//! All windows are accumulated together: cycle `t` serves window
//! `t mod W`, so one scalar enters every W cycles and its W digits go to the
//! single adder on W successive cycles (the paper's "multiple slices on
//! successive clock cycles"). A digit whose bucket is in the pipeline goes to
//! that window's stall FIFO (default 4 deep) and its cycle is a bubble. At
//! the start of every round of W cycles the controller chooses, by the
//! paper's three rules in order:
//! 1. if every stall FIFO holds at least one entry, process the FIFOs;
//! 2. else if any stall FIFO is full, process the FIFOs;
//! 3. else process the incoming scalar.
//!
//! Processing the FIFOs means: on each window's cycle, issue the head of
//! that window's FIFO if its bucket is free, else a bubble. Once the input
//! is exhausted the FIFOs are processed until empty. Modelled as the paper
//! describes; the round granularity of the decision is an assumption.

use super::{bucket_of, AccStats, Machine, RmwPipe, Scheduler};
use crate::datapath::{Buckets, Datapath};
use crate::digits::DigitSource;
use std::collections::VecDeque;

/// The Hardcaml MSM design's stall controller (see the module's documentation).
#[derive(Clone, Debug)]
pub struct StallController {
    /// Depth of each per-window stall FIFO (the paper's 4).
    pub fifo_depth: usize,
}

impl Default for StallController {
    fn default() -> Self {
        Self { fifo_depth: 4 }
    }
}

impl Scheduler for StallController {
    fn name(&self) -> &'static str {
        "hardcaml"
    }
    fn sequential_windows(&self) -> bool {
        false
    }
    fn accumulate<D: Datapath, S: DigitSource>(
        &mut self,
        m: &Machine,
        digits: &S,
        dp: &D,
        buckets: &mut Buckets<D::V>,
    ) -> AccStats {
        let mut st = AccStats::default();
        let nw = digits.windows();
        let nb = buckets.per_window;
        let cap = self.fifo_depth.max(1);
        let mut pipe = RmwPipe::<D::V>::new(m.depth, nw * nb, 0);
        let mut fifos: Vec<VecDeque<(u32, u32, bool)>> = vec![VecDeque::with_capacity(cap); nw];
        let n = digits.len();
        let mut next = 0usize;
        let mut t = 0u64;
        let mut flush_rounds = 0u64;
        let mut per_window = vec![0u64; nw];
        let mut input_rounds = 0u64;
        loop {
            let nonempty = fifos.iter().filter(|f| !f.is_empty()).count();
            let any_full = fifos.iter().any(|f| f.len() >= cap);
            let flush = if nonempty == nw || any_full {
                true
            } else if next < n {
                false
            } else if nonempty > 0 {
                true
            } else {
                break;
            };
            if flush {
                flush_rounds += 1;
                for (w, fifo) in fifos.iter_mut().enumerate() {
                    let base = (w * nb) as u32;
                    match fifo.front() {
                        Some(&(i, b, neg)) if !pipe.busy(base + b, t) => {
                            fifo.pop_front();
                            pipe.issue(dp, buckets, t, base + b, i, neg);
                        }
                        _ => st.bubbles += 1,
                    }
                    t += 1;
                }
            } else {
                input_rounds += 1;
                let i = next;
                next += 1;
                for (w, fifo) in fifos.iter_mut().enumerate() {
                    let base = (w * nb) as u32;
                    match bucket_of(digits.digit(i, w)) {
                        None => {
                            st.zero_digits += 1;
                            st.bubbles += 1;
                        }
                        Some((b, neg)) => {
                            if pipe.busy(base + b, t) {
                                st.conflicts += 1;
                                per_window[w] += 1;
                                st.bubbles += 1;
                                fifo.push_back((i as u32, b, neg));
                                st.queue_hwm = st.queue_hwm.max(fifo.len() as u64);
                            } else {
                                pipe.issue(dp, buckets, t, base + b, i as u32, neg);
                            }
                        }
                    }
                    t += 1;
                }
            }
        }
        st.slots = t;
        st.cycles = pipe.drain_end().max(t);
        pipe.flush::<D>(buckets);
        st.ops = pipe.ops;
        st.passes = 1;
        st.window_conflicts = per_window;
        st.extra.push(("flush_rounds", flush_rounds as f64));
        st.extra.push(("input_rounds", input_rounds as f64));
        st
    }
}
