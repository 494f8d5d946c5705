//! The zkmsm RTL core's scheduler (`rtl/src/zk_msm_core.sv`), cycle for
//! cycle: the model and the Verilated core give the same accumulation
//! cycles for the same digits (crates/rtl tests this on random inputs).
//!
//! Windows stream back to back (window-major input, one beat per point and
//! window). Bucket memory is four banks of 2^(cmax-2) buckets: window w
//! takes slot w mod 4 (one bank) when c < cmax, slot w mod 2 (two banks)
//! when c = cmax, so a window's read-out overlaps the next windows'
//! accumulation. Each cycle the scheduler looks
//! at the head S of the input and the head P of a bounded pending FIFO:
//! S on a free bucket issues (unless P is ready and from an older window,
//! which goes first); S on a busy bucket goes to the pending FIFO while P
//! issues in the same cycle if its bucket is free (a swap, as in the ZPrize
//! 2023 collision handler, with a FIFO instead of an associative buffer);
//! a zero digit is consumed without an operation; S waits when the FIFO is
//! full and P is not ready. A bucket is busy for T = `Machine::depth`
//! cycles after an operation on it issues (the RTL's HZ: bucket-read
//! latency plus adder latency). A window's slot is read out (2^(c-1)
//! buckets, one per cycle) once its operations are all written back, and
//! the slot then takes the next window that maps to it.
//!
//! The last window of a scalar is narrow (bits - c(W-1) bits, e.g. 6 of 13),
//! so its digits hit few buckets and would serialize on the hazards: with
//! `top_bits = Some(tb)` its 2^tb buckets are spread over the window's
//! 2^(c-1) slots, bucket k of point i in slot (i mod 2^(c-1-tb)) 2^tb + k,
//! and the copies are added up on the host.
//!
//! Cycle 0 is the first cycle after START; the input's first beat can be
//! taken at `input_latency` (the point memory's latency plus the reader and
//! the input register slice in the RTL), after which the input is assumed
//! never to run dry (point memory at full bandwidth) and the bucket output
//! never to be held. `AccStats::cycles` is the RTL's ACC_CYCLES counter:
//! cycles until the last bucket write-back of the last window.

use super::{bucket_of, AccStats, Machine, RmwPipe, Scheduler};
use crate::datapath::{Buckets, Datapath};
use crate::digits::DigitSource;
use std::collections::VecDeque;

/// The RTL core's scheduler (rtl/src/zk_msm_core.sv), cycle-exact: a pending FIFO with swap in
/// front of the adder, windows back to back on two bucket banks.
#[derive(Clone, Debug)]
pub struct CoreSched {
    /// Pending FIFO capacity (the RTL's PD).
    pub pending_cap: usize,
    /// Bucket-memory read latency (the RTL's BRL): paces the read-out.
    pub read_latency: u32,
    /// First cycle the input head can be taken (see the module docs).
    pub input_latency: u64,
    /// Largest window the bucket memory holds (the RTL's CMAX).
    pub cmax: u32,
    /// Spread the last window's buckets over its slots (see the module docs).
    pub spread_top: bool,
    /// The last window's bucket width tb, set from the plan by the caller
    /// ([`CoreSched::top_bits_for`]); used when `spread_top`.
    pub top_bits: Option<u32>,
}

impl Default for CoreSched {
    fn default() -> Self {
        Self { pending_cap: 16, read_latency: 2, input_latency: 0, cmax: 16, spread_top: true, top_bits: None }
    }
}

impl CoreSched {
    /// Window slots of the bucket memory for window size c.
    pub fn slots(&self, c: u32) -> usize {
        if c >= self.cmax {
            2
        } else {
            4
        }
    }

    /// The last window's bucket width for `bits`-bit scalars under `plan`:
    /// its digits lie in [0, 2^tb] (Booth: no carry out of the top window).
    pub fn top_bits_for(plan: &zkmsm::Plan, bits: u32) -> u32 {
        bits.saturating_sub(plan.c * (plan.windows - 1)).min(plan.c - 1)
    }
}

/// A pending operation: point, window, bucket index, sign.
type Pending = (u32, u32, u32, bool);

impl Scheduler for CoreSched {
    fn name(&self) -> &'static str {
        "core"
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
        let n = digits.len() as u64;
        let nw = digits.windows() as u32;
        let nb = buckets.per_window as u32;
        let hz = m.depth as u64;
        let brl = self.read_latency.max(1) as usize;
        let ofd = (brl + 2).next_power_of_two() as u32;
        let cap = self.pending_cap.max(1);
        let c = digits.window_bits();
        assert!(c <= self.cmax, "window {c} larger than the bucket memory's {}", self.cmax);
        let ns = self.slots(c);
        let mut pipe = RmwPipe::<D::V>::new(m.depth, (nw as usize * nb as usize).max(1), 0);
        let slot = |w: u32, idx: u32| w * nb + idx;
        // the bucket an operation really goes to (the last window spread)
        let spread = self.top_bits.filter(|&tb| self.spread_top && tb + 1 < c);
        let place = |w: u32, i: u64, idx: u32| match spread {
            Some(tb) if w + 1 == nw => ((i as u32) & ((nb >> tb) - 1)) << tb | idx,
            _ => idx,
        };

        // registers, as in zk_msm_core
        let (mut in_win, mut in_cnt, mut in_open) = (0u32, 0u64, false);
        let mut bk_busy = [false; 4];
        let mut bk_win = [0u32; 4];
        let mut bk_indone = [false; 4];
        let mut bk_out = [0u64; 4];
        let (mut ro_win, mut ro_act, mut ro_k) = (0u32, false, 0u32);
        let (mut clr_v, mut clr_last, mut clr_b) = (false, false, 0usize);
        let mut ro_p = VecDeque::from(vec![false; brl]); // reads in flight, oldest at the back
        let mut o_count = 0u32;
        let mut pending: VecDeque<Pending> = VecDeque::with_capacity(cap);
        let mut writebacks: VecDeque<(u64, usize)> = VecDeque::new(); // (cycle of the write, bank)
        let mut window_done = vec![0u64; nw as usize];

        let mut t = 0u64;
        loop {
            let in_fin = in_win == nw;
            let in_bank = in_win as usize % ns;
            let acc_complete = in_fin && bk_out == [0; 4];
            // ---- the decision (combinational in the RTL)
            let s_ok = in_open && t >= self.input_latency;
            let s = if s_ok {
                bucket_of(digits.digit(in_cnt as usize, in_win as usize))
                    .map(|(b, neg)| (place(in_win, in_cnt, b), neg))
            } else {
                None
            };
            let s_skip = s_ok && s.is_none();
            let s_busy = s.is_some_and(|(b, _)| pipe.busy(slot(in_win, b), t));
            let p = pending.front().copied();
            let p_ready = p.is_some_and(|(_, w, b, _)| !pipe.busy(slot(w, b), t));
            let p_first = p_ready && (!in_open || p.unwrap().1 as usize % ns != in_bank || 2 * pending.len() >= cap);
            let issue_s = s.is_some() && !s_busy && !p_first;
            let swap = s.is_some() && s_busy;
            let issue_p = p_ready && !issue_s;
            let push = swap && (pending.len() < cap || issue_p);
            let consume = s_skip || issue_s || push;
            // ---- counters
            st.slots += 1;
            if !acc_complete {
                st.cycles += 1;
                if !(issue_s || issue_p) {
                    st.bubbles += 1;
                }
            }
            if t >= self.input_latency && !in_fin && !consume {
                st.input_stalls += 1;
            }
            // ---- the issued operation
            let mut wb_bank = None;
            if issue_p {
                let (i, w, b, neg) = pending.pop_front().unwrap();
                pipe.issue(dp, buckets, t, slot(w, b), i, neg);
                writebacks.push_back((t + 1 + hz, w as usize % ns));
            }
            if let (true, Some((b, neg))) = (issue_s, s) {
                pipe.issue(dp, buckets, t, slot(in_win, b), in_cnt as u32, neg);
                writebacks.push_back((t + 1 + hz, in_bank));
            }
            if push {
                let (b, neg) = s.unwrap();
                pending.push_back((in_cnt as u32, in_win, b, neg));
                st.conflicts += 1;
                st.queue_hwm = st.queue_hwm.max(pending.len() as u64);
            }
            if s_skip {
                st.zero_digits += 1;
            }
            if writebacks.front().is_some_and(|&(c, _)| c == t) {
                wb_bank = writebacks.pop_front().map(|x| x.1);
            }
            // ---- read-out (combinational part)
            let ro_b = ro_win as usize % ns;
            let ro_start = !ro_act
                && !clr_v
                && ro_win != nw
                && bk_busy[ro_b]
                && bk_win[ro_b] == ro_win
                && bk_indone[ro_b]
                && bk_out[ro_b] == 0;
            let inflight = ro_p.iter().filter(|&&x| x).count() as u32;
            let ro_rd = ro_act && inflight + o_count < ofd;
            let ro_done = clr_v && clr_last;
            let done = ro_win == nw && o_count == 0 && !ro_act && !clr_v && inflight == 0;
            if done {
                break;
            }
            // ---- next state (the clock edge)
            let mut n_in_open = in_open;
            if !in_open && !in_fin && !bk_busy[in_bank] {
                bk_busy[in_bank] = true;
                bk_win[in_bank] = in_win;
                in_cnt = 0;
                if n == 0 {
                    bk_indone[in_bank] = true;
                    in_win += 1;
                } else {
                    bk_indone[in_bank] = false;
                    n_in_open = true;
                }
            }
            if consume {
                in_cnt += 1;
                if in_cnt == n {
                    bk_indone[in_bank] = true;
                    in_win += 1;
                    in_cnt = 0;
                    let other = (in_bank + 1) % ns;
                    if in_win != nw && !bk_busy[other] {
                        bk_busy[other] = true;
                        bk_win[other] = in_win;
                        bk_indone[other] = false;
                    } else {
                        n_in_open = false;
                    }
                }
            }
            in_open = n_in_open;
            let (n_clr_v, n_clr_last, n_clr_b) = (ro_rd, ro_k + 1 == nb, ro_b);
            if ro_start {
                ro_act = true;
                ro_k = 0;
            } else if ro_rd {
                if ro_k + 1 == nb {
                    ro_act = false;
                }
                ro_k += 1;
            }
            if ro_done {
                bk_busy[clr_b] = false;
                window_done[ro_win as usize] = t;
                ro_win += 1;
            }
            (clr_v, clr_last, clr_b) = (n_clr_v, n_clr_last, n_clr_b);
            let arrive = ro_p.pop_back().unwrap();
            ro_p.push_front(ro_rd);
            o_count = o_count + arrive as u32 - (o_count > 0) as u32;
            if issue_s || push {
                bk_out[in_bank] += 1;
            }
            if let Some(b) = wb_bank {
                bk_out[b] -= 1;
            }
            t += 1;
        }
        pipe.flush::<D>(buckets);
        // the host adds up the last window's copies
        if let (Some(tb), true, true) = (spread, D::FUNCTIONAL, nw > 0) {
            let base = ((nw - 1) * nb) as usize;
            for k in 0..(1usize << tb) {
                let mut acc: Option<D::V> = None;
                for copy in 0..(nb as usize >> tb) {
                    if let Some(v) = buckets.slots[base + (copy << tb) + k].take() {
                        acc = Some(match acc {
                            None => v,
                            Some(a) => dp.add(&a, &v),
                        });
                    }
                }
                buckets.slots[base + k] = acc;
            }
        }
        st.ops = pipe.ops;
        st.passes = 1;
        st.extra.push(("total_cycles", (t + 1) as f64));
        st.extra.push(("last_window_read_out", window_done.last().copied().unwrap_or(0) as f64));
        st
    }
}
