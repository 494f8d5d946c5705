//! PriorMSM's Priority-Based Scheduling Mechanism (Section 3.3, Figure 5).
//!
//! A pairing datapath: a bucket slot holds at most one point. A point with
//! bucket k that finds slot k occupied leaves with the stored point as a
//! pair for the adder (PADD, depth D, one pair per cycle per unit); finding
//! it empty, it is stored. PADD results come back with their bucket and are
//! paired or stored the same way, so partial sums of one bucket may be in
//! the pipeline together and no read-modify-write hazard exists. A window is
//! done when the input is consumed and nothing is queued or in flight: each
//! slot then holds its bucket's sum.
//!
//! Each cycle the pairing stage serves one external point (from memory) and
//! one internal point: the head of FIFO_U3 if its bank port is free, else
//! the first fresh PADD output whose port is free (an assumption: the paper
//! gives FIFO_U3 priority but does not say whether a blocked head blocks a
//! fresh output; letting it pass keeps the internal path from saturating).
//! Bucket memory has `banks` banks (bank = bucket mod banks), each a simple
//! dual-port SRAM: one read and one write per cycle. Priorities, as in the
//! paper: an external and an internal point of the same bucket pair with
//! each other without touching memory; otherwise the external point is
//! served first, and a PADD output not served goes to FIFO_U3. Pairs from
//! external points go to FIFO_U1, pairs from internal points to FIFO_U2;
//! PADD takes from the fuller of the two (an assumption: the paper says it
//! reads both "aiming to fill its pipeline"). A full FIFO_U1 holds the input
//! back; an internal point that finds FIFO_U2 full goes to FIFO_U3.

use super::{bucket_of, AccStats, Machine, Scheduler};
use crate::datapath::{Buckets, Datapath};
use crate::digits::DigitSource;
use std::collections::VecDeque;

/// PriorMSM's Priority-Based Scheduling Mechanism (see the module's documentation).
#[derive(Clone, Debug, Default)]
pub struct Pbsm {
    /// Serve only the head of FIFO_U3 (fresh PADD outputs queue behind it),
    /// the strictest reading of the paper's priority rule.
    pub strict_u3: bool,
}

struct Win<V> {
    slot: Vec<Option<V>>,
    pipe: VecDeque<(u64, u32, V)>,
    u1: VecDeque<(u32, V, V)>,
    u2: VecDeque<(u32, V, V)>,
    u3: VecDeque<(u32, V)>,
}

impl Scheduler for Pbsm {
    fn name(&self) -> &'static str {
        "prior"
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
        let n = digits.len();
        let depth = m.depth as u64;
        let units = m.adders.max(1) as usize;
        let banks = m.banks.max(1);
        let cap = if m.fifo_depth == 0 { usize::MAX } else { m.fifo_depth };
        let (mut hwm1, mut hwm2, mut hwm3) = (0usize, 0usize, 0usize);
        let mut direct_pairs = 0u64;
        for w in 0..digits.windows() {
            let mut s = Win::<D::V> {
                slot: vec![None; nb],
                pipe: VecDeque::new(),
                u1: VecDeque::new(),
                u2: VecDeque::new(),
                u3: VecDeque::new(),
            };
            let mut rd = vec![false; banks as usize];
            let mut wr = vec![false; banks as usize];
            let mut t = 0u64;
            let mut k = 0usize;
            let mut fresh: Vec<(u32, D::V)> = Vec::with_capacity(units);
            loop {
                let idle = k >= n && s.u1.is_empty() && s.u2.is_empty() && s.u3.is_empty() && s.pipe.is_empty();
                if idle {
                    break;
                }
                // (a) PADD issue.
                let mut issued = 0;
                for _ in 0..units {
                    let src = if s.u2.len() >= s.u1.len() { &mut s.u2 } else { &mut s.u1 };
                    if let Some((b, x, y)) = src.pop_front() {
                        let v = if D::FUNCTIONAL { dp.add(&x, &y) } else { x };
                        s.pipe.push_back((t + depth, b, v));
                        issued += 1;
                    }
                }
                st.ops += issued as u64;
                st.bubbles += (units - issued) as u64;
                st.slots += units as u64;
                // (b) PADD outputs due now: internal candidates behind the
                // head of FIFO_U3.
                fresh.clear();
                while s.pipe.front().is_some_and(|e| e.0 <= t) {
                    let (_, b, v) = s.pipe.pop_front().unwrap();
                    fresh.push((b, v));
                }
                // (c) External candidate.
                let mut external = None;
                if k < n {
                    if s.u1.len() >= cap {
                        st.input_stalls += 1;
                    } else {
                        match bucket_of(digits.digit(k, w)) {
                            None => st.zero_digits += 1,
                            Some((b, neg)) => external = Some((b, dp.input(k as u32, neg))),
                        }
                        k += 1;
                    }
                }
                // (d) Pairing with bank ports.
                rd.iter_mut().for_each(|x| *x = false);
                wr.iter_mut().for_each(|x| *x = false);
                let mut internal_done = s.u3.is_empty() && fresh.is_empty();
                // An internal point of the external point's bucket pairs with
                // it directly, without touching memory.
                if let Some((be, _)) = &external {
                    if s.u2.len() < cap {
                        let hit = if s.u3.front().is_some_and(|e| e.0 == *be) {
                            s.u3.pop_front()
                        } else {
                            fresh.iter().position(|e| e.0 == *be).map(|i| fresh.swap_remove(i))
                        };
                        if let Some((bi, vi)) = hit {
                            let (_, ve) = external.take().unwrap();
                            s.u2.push_back((bi, vi, ve));
                            direct_pairs += 1;
                            internal_done = true;
                        }
                    }
                }
                if let Some((b, v)) = external {
                    let bank = (b % banks) as usize;
                    match s.slot[b as usize].take() {
                        Some(old) => {
                            rd[bank] = true;
                            s.u1.push_back((b, old, v));
                        }
                        None => {
                            wr[bank] = true;
                            s.slot[b as usize] = Some(v);
                        }
                    }
                }
                if !internal_done {
                    let u2_full = s.u2.len() >= cap;
                    let feasible = |b: u32, slot: &[Option<D::V>]| {
                        let bank = (b % banks) as usize;
                        if slot[b as usize].is_some() {
                            !rd[bank] && !u2_full
                        } else {
                            !wr[bank]
                        }
                    };
                    if self.strict_u3 && !fresh.is_empty() {
                        // Fresh outputs queue behind the head.
                        s.u3.extend(fresh.drain(..));
                    }
                    let pick = if s.u3.front().is_some_and(|e| feasible(e.0, &s.slot)) {
                        s.u3.pop_front()
                    } else if self.strict_u3 {
                        None
                    } else {
                        fresh.iter().position(|e| feasible(e.0, &s.slot)).map(|i| fresh.remove(i))
                    };
                    match pick {
                        Some((b, v)) => match s.slot[b as usize].take() {
                            Some(old) => s.u2.push_back((b, old, v)),
                            None => s.slot[b as usize] = Some(v),
                        },
                        // Every candidate's bank port is taken this cycle.
                        None => st.conflicts += 1,
                    }
                }
                // Fresh outputs not served wait in FIFO_U3.
                s.u3.extend(fresh.drain(..));
                hwm1 = hwm1.max(s.u1.len());
                hwm2 = hwm2.max(s.u2.len());
                hwm3 = hwm3.max(s.u3.len());
                t += 1;
            }
            if D::FUNCTIONAL {
                for (b, v) in s.slot.into_iter().enumerate() {
                    buckets.slots[w * nb + b] = v;
                }
            }
            st.window_cycles.push(t);
            st.cycles += t;
        }
        st.queue_hwm = hwm1.max(hwm2).max(hwm3) as u64;
        st.passes = 1;
        st.extra.push(("fifo_u1_hwm", hwm1 as f64));
        st.extra.push(("fifo_u2_hwm", hwm2 as f64));
        st.extra.push(("fifo_u3_hwm", hwm3 as f64));
        st.extra.push(("direct_pairs", direct_pairs as f64));
        st
    }
}
