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
//! latency plus adder latency). Both of the RTL's hazard detectors keep
//! that rule (`LOCK = 0`: comparators over the last HZ issues; `LOCK = 1`:
//! a lock bit per bucket, set at issue, cleared by the write-back, with a
//! block-RAM pending queue of `pending_cap` = PD entries), so one model
//! serves both, at any T: crates/rtl tests RTL cycles = model cycles on the
//! stand-in at HZ = 26 (`LOCK = 0`, PD 16) and at HZ = 2,002 (`LOCK = 1`,
//! PD 1024). A window's slot is read out (2^(c-1)
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
//!
//! Several cores on one point stream (rtl/src/zk_msm_top.sv with NCORES > 1,
//! SuperScalar's arrangement): with `cores` = K, window w runs on core
//! w mod K, and a pass streams the N points once with the digits of K
//! windows, so W windows take ceil(W / K) passes. The stream reaches each
//! core through a FIFO of `fanout_depth` beats (rtl/src/zk_fanout.sv); a
//! beat is pushed into every core that has a window in its pass at once,
//! when none of their FIFOs is full, and the core takes it through its input
//! register slice (zk_skid). The model runs the K cores' registers in
//! lockstep with the FIFOs and slices, so a core whose pending queue fills
//! holds the stream for all (`fanout_stalls`); the accumulation cycles are
//! the last core's. `fanout_depth` 0 is the one-core top (no FIFO: the
//! input register slice takes the reader's stream directly).

use super::{bucket_of, AccStats, Machine, RmwPipe, Scheduler};
use crate::datapath::{Buckets, Datapath};
use crate::digits::DigitSource;
use std::collections::VecDeque;

/// The RTL core's scheduler (rtl/src/zk_msm_core.sv), cycle-exact: a pending FIFO with swap in
/// front of the adder, windows back to back on two bucket banks; `cores` of them on one
/// point stream.
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
    /// Cores on the point stream (the RTL's CORES register, K).
    pub cores: u32,
    /// Depth of each core's fan-out FIFO (the RTL's FD); 0: one core fed
    /// directly (the top built with NCORES = 1).
    pub fanout_depth: u32,
    /// Requeue a blocked pending head (the RTL's RQ): in a cycle where the
    /// head's bucket is busy and the input head is not pushed, the head
    /// moves to the back of the queue, so one blocked entry (behind an
    /// earlier one on its bucket) does not hold the queue for a whole
    /// hazard window.
    pub requeue: bool,
    /// Bucket aggregation on the device (the RTL's AGG register,
    /// rtl/src/zk_core_agg.sv): 0 sends every bucket to the host; otherwise
    /// each window is reduced in its bank, in groups of 2^`agg_log_m`
    /// buckets, by additions that take the adder's slot from the scheduler
    /// (the sequencer `AggSeq`), and only two partial sums per group are read out.
    pub agg_log_m: u32,
    /// Cycles between an aggregation addition's bucket reads and its slot in
    /// the adder beyond the other cores' (the RTL's AGG_LAT: the twisted
    /// Edwards core converts bucket + bucket to a mixed addition first,
    /// rtl/src/zk_te_agg_in.sv; 0 otherwise): its hold of the scheduler
    /// comes that much later, and every step waits that much longer.
    pub agg_latency: u32,
}

impl Default for CoreSched {
    fn default() -> Self {
        Self {
            pending_cap: 16,
            read_latency: 2,
            input_latency: 0,
            cmax: 16,
            spread_top: true,
            top_bits: None,
            cores: 1,
            fanout_depth: 0,
            requeue: false,
            agg_log_m: 0,
            agg_latency: 0,
        }
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

    /// The device aggregation's group (log2 m) a host asks for by default:
    /// the largest m whose program (about m + lm steps of HZ + 2 cycles,
    /// the latency a window's aggregation adds after its last addition)
    /// stays within 1/64 of the accumulation a core does for the MSM (`n`
    /// points times its windows), at least 2 and at most the window.
    pub fn default_agg_log_m(n: usize, c: u32, windows_per_core: u32, hz: u32) -> u32 {
        let budget = (n as u64 * windows_per_core as u64) / 64;
        let mut lm = 1;
        while lm < c.saturating_sub(1) && ((1u64 << (lm + 1)) + lm as u64 + 1) * (hz as u64 + 2) <= budget {
            lm += 1;
        }
        lm
    }

    /// The last window's bucket width for `bits`-bit scalars under `plan`:
    /// its digits lie in [0, 2^tb] (Booth: no carry out of the top window).
    pub fn top_bits_for(plan: &zkmsm::Plan, bits: u32) -> u32 {
        bits.saturating_sub(plan.c * (plan.windows - 1)).min(plan.c - 1)
    }
}

/// A pending operation: point, window (the MSM's), bucket index, sign.
type Pending = (u32, u32, u32, bool);

/// What every core of a run shares.
struct Geometry {
    n: u64,
    /// Windows of the MSM.
    nw: u32,
    nb: u32,
    hz: u64,
    ofd: u32,
    cap: usize,
    ns: usize,
    spread: Option<u32>,
    cores: u32,
    requeue: bool,
    /// log2 m of the device aggregation (0: off).
    agg: u32,
    /// The aggregation's extra cycles to the adder (`CoreSched::agg_latency`).
    agg_lat: u32,
    /// Window size c.
    c: u32,
}

impl Geometry {
    /// log2 of the aggregation group of the MSM's window `global_w`.
    fn agg_lm(&self, global_w: u32) -> u32 {
        agg_window_log_m(self.agg, self.c, self.spread, global_w + 1 == self.nw)
    }
}

/// log2 of a window's aggregation group as the core takes it (`agg_lm` in
/// rtl/src/zk_core_addr.svh): the AGG register's `log_m` (0: off) at most
/// c - 1, or, in the spread last window (`spread`: its bucket bits tb), tb:
/// its groups are its copies.
pub fn agg_window_log_m(log_m: u32, c: u32, spread: Option<u32>, last: bool) -> u32 {
    match (log_m, spread) {
        (0, _) => 0,
        (_, Some(tb)) if last => tb,
        _ => log_m.min(c - 1),
    }
}

/// The device aggregation's sequencer (rtl/src/zk_core_agg.sv), register
/// for register: per window a chain phase (m - 1 steps of G operations)
/// and a tree phase (levels d = 1, 2, 4, .. < m - 1), each operation two
/// cycles (source read, destination read; the scheduler decides nothing in
/// the second, or `agg_latency` cycles later behind a conversion: the
/// operation takes the adder's slot), each step followed by HZ +
/// `agg_latency` + 1 cycles for its write-backs.
#[derive(Clone, Copy, Debug, Default)]
struct AggSeq {
    /// 0 idle, 1 source read, 2 destination read, 3 waiting.
    st: u8,
    tree: bool,
    s: u32,
    g: u32,
    p: u32,
    lm: u32,
    wait: u64,
    /// Windows (of this core) aggregated.
    win: u32,
    /// The destination-read cycles of the last 128 cycles (bit 0: the
    /// last), for a hold that comes later.
    past: u128,
}

/// One addition of the device aggregation's program: `B[dst] += B[src]`.
pub type AggOp = (usize, usize);

/// The device aggregation's program on a window of `buckets` buckets in
/// groups of 2^`log_m` (rtl/src/zk_core_agg.sv), step by step in the core's
/// order: a chain (step s, every group g: B[g m + m-1-s] += B[g m + m-s])
/// leaves each group's running sums in place, then a tree (levels d = 1, 2,
/// 4, .. < m - 1; every g, p = 0, 2d, .. with p + d <= m - 2:
/// B[g m + 1+p] += B[g m + 1+p+d]) sums them into B[g m + 1]. The
/// additions of a step are independent.
pub fn agg_program(buckets: usize, log_m: u32) -> Vec<Vec<AggOp>> {
    let m = 1usize << log_m;
    let groups = buckets >> log_m;
    let mut steps = Vec::new();
    for s in 1..m {
        steps.push((0..groups).map(|g| (g * m + m - 1 - s, g * m + m - s)).collect());
    }
    let mut d = 1;
    while m >= 2 && d < m - 1 {
        let mut step = Vec::new();
        for g in 0..groups {
            let mut p = 0;
            while p + d <= m - 2 {
                step.push((g * m + 1 + p, g * m + 1 + p + d));
                p += 2 * d;
            }
        }
        steps.push(step);
        d *= 2;
    }
    steps
}

/// One window's device aggregation on the core: (cycles the scheduler is
/// held: one per addition, cycles from the window's start to its last
/// write-back done), for 2^(c-1) = `buckets` buckets in groups of 2^`lm`
/// at hazard window `hz` (with the core's `agg_latency` added: a step's
/// wait): the sequencer (`AggSeq`) in closed form over [`agg_program`]'s
/// steps.
pub fn agg_window_cycles(buckets: u64, lm: u32, hz: u64) -> (u64, u64) {
    if lm == 0 {
        return (0, 0);
    }
    let steps = agg_program(buckets as usize, lm);
    let ops: u64 = steps.iter().map(|s| s.len() as u64).sum();
    (ops, 1 + 2 * ops + steps.len() as u64 * (hz + 1))
}

impl AggSeq {
    /// Whether the scheduler is held this cycle: the destination's read
    /// `lat` cycles ago (`CoreSched::agg_latency`, below 128).
    fn hold(&self, lat: u32) -> bool {
        match lat {
            0 => self.st == 2,
            l => (self.past >> (l - 1)) & 1 != 0,
        }
    }

    /// The clock edge; `go`: the next window may start, `lm_w` its group;
    /// `hz`: a step's wait for its write-backs (HZ + `agg_latency`).
    fn edge(&mut self, go: bool, lm_w: u32, c: u32, hz: u64) {
        self.past = self.past << 1 | (self.st == 2) as u128;
        let m = 1u64 << self.lm;
        let groups = 1u64 << (c - 1 - self.lm);
        let (s, p) = (self.s as u64, self.p as u64);
        let g_last = self.g as u64 + 1 == groups;
        let p_last = p + 3 * s > m.saturating_sub(2);
        let step_last = g_last && (!self.tree || p_last);
        let tree_next = if self.tree { 2 * s + 1 < m } else { m > 3 };
        let prog_last = if self.tree { !tree_next } else { s + 1 == m && !tree_next };
        match self.st {
            0 if go => {
                self.lm = lm_w;
                if lm_w == 0 {
                    self.win += 1;
                } else {
                    *self = Self { st: 1, tree: false, s: 1, g: 0, p: 0, ..*self };
                }
            }
            0 => {}
            1 => self.st = 2,
            2 if step_last => {
                self.st = 3;
                self.wait = hz;
            }
            2 => {
                self.st = 1;
                if self.tree && !p_last {
                    self.p += 2 * self.s;
                } else {
                    self.p = 0;
                    self.g += 1;
                }
            }
            _ if self.wait != 0 => self.wait -= 1,
            _ if prog_last => {
                self.st = 0;
                self.win += 1;
            }
            _ => {
                self.st = 1;
                self.g = 0;
                self.p = 0;
                if !self.tree && s + 1 != m {
                    self.s += 1;
                } else if !self.tree {
                    self.tree = true;
                    self.s = 1;
                } else {
                    self.s <<= 1;
                }
            }
        }
    }
}

/// One core's registers (zk_msm_core), one clock edge per [`Lane::step`].
/// Its windows are the MSM's windows k, k + K, ...; buckets and hazards are
/// indexed by the MSM's window.
struct Lane<V> {
    k: u32,
    /// Windows of this core.
    nw: u32,
    in_win: u32,
    in_cnt: u64,
    in_open: bool,
    bk_busy: [bool; 4],
    bk_win: [u32; 4],
    bk_indone: [bool; 4],
    bk_out: [u64; 4],
    ro_win: u32,
    ro_act: bool,
    ro_k: u32,
    clr_v: bool,
    clr_last: bool,
    clr_b: usize,
    /// Reads in flight: (a read, its bucket is sent).
    ro_p: VecDeque<(bool, bool)>,
    o_count: u32,
    agg: AggSeq,
    pending: VecDeque<Pending>,
    writebacks: VecDeque<(u64, usize)>,
    last_read_out: u64,
    pipe: RmwPipe<V>,
    st: AccStats,
    done: bool,
}

impl<V: Clone> Lane<V> {
    fn new(g: &Geometry, k: u32, depth: u32, brl: usize) -> Self {
        let nw = if k < g.cores && k < g.nw { (g.nw - k).div_ceil(g.cores) } else { 0 };
        Self {
            k,
            nw,
            in_win: 0,
            in_cnt: 0,
            in_open: false,
            bk_busy: [false; 4],
            bk_win: [0; 4],
            bk_indone: [false; 4],
            bk_out: [0; 4],
            ro_win: 0,
            ro_act: false,
            ro_k: 0,
            clr_v: false,
            clr_last: false,
            clr_b: 0,
            ro_p: VecDeque::from(vec![(false, false); brl]),
            o_count: 0,
            agg: AggSeq::default(),
            pending: VecDeque::with_capacity(g.cap),
            writebacks: VecDeque::new(),
            last_read_out: 0,
            pipe: RmwPipe::new(depth, (g.nw as usize * g.nb as usize).max(1), 0),
            st: AccStats::default(),
            done: false,
        }
    }

    /// The MSM's window of this core's window `w`.
    fn global(&self, g: &Geometry, w: u32) -> u32 {
        self.k + g.cores * w
    }

    /// Cycle `t`, the input register slice holding a beat if `head_valid`:
    /// returns whether the core takes it; sets `done` (and returns false) in
    /// the cycle the core goes idle.
    fn step<D: Datapath<V = V>, S: DigitSource>(
        &mut self,
        g: &Geometry,
        digits: &S,
        dp: &D,
        buckets: &mut Buckets<V>,
        t: u64,
        head_valid: bool,
    ) -> bool {
        let nb = g.nb;
        let slot = |gw: u32, idx: u32| gw * nb + idx;
        // the bucket an operation really goes to (the MSM's last window spread)
        let place = |gw: u32, i: u64, idx: u32| match g.spread {
            Some(tb) if gw + 1 == g.nw => ((i as u32) & ((nb >> tb) - 1)) << tb | idx,
            _ => idx,
        };
        let in_fin = self.in_win == self.nw;
        let in_bank = self.in_win as usize % g.ns;
        let in_gw = self.global(g, self.in_win);
        let acc_complete = in_fin && self.bk_out == [0; 4];
        // ---- the decision (combinational in the RTL); none while the
        // aggregation holds the scheduler
        let hold = self.agg.hold(g.agg_lat);
        let s_ok = self.in_open && head_valid && !hold;
        let s = if s_ok {
            bucket_of(digits.digit(self.in_cnt as usize, in_gw as usize))
                .map(|(b, neg)| (place(in_gw, self.in_cnt, b), neg))
        } else {
            None
        };
        let s_skip = s_ok && s.is_none();
        let s_busy = s.is_some_and(|(b, _)| self.pipe.busy(slot(in_gw, b), t));
        let p = self.pending.front().copied();
        let p_ready = !hold && p.is_some_and(|(_, w, b, _)| !self.pipe.busy(slot(w, b), t));
        let p_first = p_ready
            && (!self.in_open
                || ((p.unwrap().1 - self.k) / g.cores) as usize % g.ns != in_bank
                || 2 * self.pending.len() >= g.cap);
        let issue_s = s.is_some() && !s_busy && !p_first;
        let swap = s.is_some() && s_busy;
        let issue_p = p_ready && !issue_s;
        let push = swap && (self.pending.len() < g.cap || issue_p);
        let requeue = g.requeue && !hold && p.is_some() && !p_ready && !push;
        let consume = s_skip || issue_s || push;
        // ---- counters
        let st = &mut self.st;
        st.slots += 1;
        if !acc_complete {
            st.cycles += 1;
            if !(issue_s || issue_p) {
                st.bubbles += 1;
            }
        }
        if head_valid && !in_fin && !consume {
            st.input_stalls += 1;
        }
        // ---- the issued operation
        let mut wb_bank = None;
        if issue_p {
            let (i, w, b, neg) = self.pending.pop_front().unwrap();
            self.pipe.issue(dp, buckets, t, slot(w, b), i, neg);
            self.writebacks.push_back((t + 1 + g.hz, ((w - self.k) / g.cores) as usize % g.ns));
        }
        if let (true, Some((b, neg))) = (issue_s, s) {
            self.pipe.issue(dp, buckets, t, slot(in_gw, b), self.in_cnt as u32, neg);
            self.writebacks.push_back((t + 1 + g.hz, in_bank));
        }
        if requeue {
            let e = self.pending.pop_front().unwrap();
            self.pending.push_back(e);
        }
        if push {
            let (b, neg) = s.unwrap();
            self.pending.push_back((self.in_cnt as u32, in_gw, b, neg));
            st.conflicts += 1;
            st.queue_hwm = st.queue_hwm.max(self.pending.len() as u64);
        }
        if s_skip {
            st.zero_digits += 1;
        }
        if self.writebacks.front().is_some_and(|&(c, _)| c == t) {
            wb_bank = self.writebacks.pop_front().map(|x| x.1);
        }
        // ---- aggregation (combinational part)
        let ag_b = self.agg.win as usize % g.ns;
        let ag_go = g.agg != 0
            && self.agg.st == 0
            && self.agg.win != self.nw
            && self.bk_busy[ag_b]
            && self.bk_win[ag_b] == self.agg.win
            && self.bk_indone[ag_b]
            && self.bk_out[ag_b] == 0;
        let ag_lm = g.agg_lm(self.global(g, self.agg.win));
        // ---- read-out (combinational part)
        let ro_b = self.ro_win as usize % g.ns;
        let ro_lm = if g.agg == 0 { 0 } else { g.agg_lm(self.global(g, self.ro_win)) };
        let ro_emit = ro_lm == 0 || (self.ro_k >> 1) & ((1 << (ro_lm - 1)) - 1) == 0;
        let ro_start = (g.agg == 0 || self.agg.win != self.ro_win)
            && !self.ro_act
            && !self.clr_v
            && self.ro_win != self.nw
            && self.bk_busy[ro_b]
            && self.bk_win[ro_b] == self.ro_win
            && self.bk_indone[ro_b]
            && self.bk_out[ro_b] == 0;
        let inflight = self.ro_p.iter().filter(|x| x.0).count() as u32;
        let ro_rd = self.ro_act && inflight + self.o_count < g.ofd;
        let ro_done = self.clr_v && self.clr_last;
        if self.ro_win == self.nw && self.o_count == 0 && !self.ro_act && !self.clr_v && inflight == 0 {
            self.done = true;
            return false;
        }
        // ---- next state (the clock edge)
        let mut n_in_open = self.in_open;
        if !self.in_open && !in_fin && !self.bk_busy[in_bank] {
            self.bk_busy[in_bank] = true;
            self.bk_win[in_bank] = self.in_win;
            self.in_cnt = 0;
            if g.n == 0 {
                self.bk_indone[in_bank] = true;
                self.in_win += 1;
            } else {
                self.bk_indone[in_bank] = false;
                n_in_open = true;
            }
        }
        if consume {
            self.in_cnt += 1;
            if self.in_cnt == g.n {
                self.bk_indone[in_bank] = true;
                self.in_win += 1;
                self.in_cnt = 0;
                let other = (in_bank + 1) % g.ns;
                if self.in_win != self.nw && !self.bk_busy[other] {
                    self.bk_busy[other] = true;
                    self.bk_win[other] = self.in_win;
                    self.bk_indone[other] = false;
                } else {
                    n_in_open = false;
                }
            }
        }
        self.in_open = n_in_open;
        let (n_clr_v, n_clr_last, n_clr_b) = (ro_rd, self.ro_k + 1 == nb, ro_b);
        if ro_start {
            self.ro_act = true;
            self.ro_k = 0;
        } else if ro_rd {
            if self.ro_k + 1 == nb {
                self.ro_act = false;
            }
            self.ro_k += 1;
        }
        if ro_done {
            self.bk_busy[self.clr_b] = false;
            self.last_read_out = t;
            self.ro_win += 1;
        }
        (self.clr_v, self.clr_last, self.clr_b) = (n_clr_v, n_clr_last, n_clr_b);
        let (arrive, sent) = self.ro_p.pop_back().unwrap();
        self.ro_p.push_front((ro_rd, ro_emit));
        self.o_count = self.o_count + (arrive && sent) as u32 - (self.o_count > 0) as u32;
        self.agg.edge(ag_go, ag_lm, g.c, g.hz + g.agg_lat as u64);
        if issue_s || push {
            self.bk_out[in_bank] += 1;
        }
        if let Some(b) = wb_bank {
            self.bk_out[b] -= 1;
        }
        consume
    }
}

/// A core's input register slice (zk_skid): `m_valid` is the head the core
/// sees; it takes a beat when its skid register is empty.
#[derive(Clone, Copy, Default)]
struct Skid {
    m_valid: bool,
    sk_valid: bool,
}

impl Skid {
    /// The clock edge: upstream offers a beat if `s_valid`, the core takes
    /// the head if `m_ready`. Returns whether the upstream beat was taken.
    fn edge(&mut self, s_valid: bool, m_ready: bool) -> bool {
        let taken = s_valid && !self.sk_valid;
        if self.sk_valid {
            if m_ready {
                self.m_valid = true;
                self.sk_valid = false;
            }
        } else if !self.m_valid || m_ready {
            self.m_valid = s_valid;
        } else if s_valid {
            self.sk_valid = true;
        }
        taken
    }
}

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
        let n = digits.len() as u64;
        let nw = digits.windows() as u32;
        let nb = buckets.per_window as u32;
        let brl = self.read_latency.max(1) as usize;
        let c = digits.window_bits();
        assert!(c <= self.cmax, "window {c} larger than the bucket memory's {}", self.cmax);
        let cores = self.cores.max(1);
        assert!(cores == 1 || self.fanout_depth > 0, "several cores need the fan-out FIFOs");
        assert!(self.agg_latency < 128, "aggregation latency {} above 127", self.agg_latency);
        let g = Geometry {
            n,
            nw,
            nb,
            hz: m.depth as u64,
            ofd: (brl + 2).next_power_of_two() as u32,
            cap: self.pending_cap.max(1),
            ns: self.slots(c),
            spread: self.top_bits.filter(|&tb| self.spread_top && tb + 1 < c),
            cores,
            requeue: self.requeue,
            agg: self.agg_log_m,
            agg_lat: self.agg_latency,
            c,
        };
        let mut lanes: Vec<Lane<D::V>> = (0..cores).map(|k| Lane::new(&g, k, m.depth, brl)).collect();
        let mut t = 0u64;
        let mut fanout_stalls = 0u64;
        if self.fanout_depth == 0 {
            // the point reader's stream straight into the core's input slice,
            // never dry from input_latency on
            let lane = &mut lanes[0];
            loop {
                lane.step(&g, digits, dp, buckets, t, t >= self.input_latency);
                if lane.done {
                    break;
                }
                t += 1;
            }
        } else {
            // the reader's stream (valid from input_latency - 1, the slice's
            // cycle before) pushed into the FIFOs of the pass's cores
            let fd = self.fanout_depth as usize;
            let passes = nw.div_ceil(cores) as u64;
            let total = n * passes;
            let mut fifo = vec![0usize; cores as usize];
            let mut skid = vec![Skid::default(); cores as usize];
            let mut pushed = 0u64;
            let mut takes = vec![false; cores as usize];
            loop {
                for (k, lane) in lanes.iter_mut().enumerate() {
                    takes[k] = !lane.done && lane.step(&g, digits, dp, buckets, t, skid[k].m_valid);
                }
                if lanes.iter().all(|l| l.done) {
                    break;
                }
                let valid = t + 1 >= self.input_latency && pushed < total;
                let left = nw.saturating_sub(pushed.checked_div(n).unwrap_or(0) as u32 * cores);
                let ready = (0..cores).all(|k| k >= left || fifo[k as usize] < fd);
                let push = valid && ready;
                if valid && !ready {
                    fanout_stalls += 1;
                }
                for k in 0..cores as usize {
                    let popped = skid[k].edge(fifo[k] > 0, takes[k]);
                    fifo[k] = fifo[k] + (push && (k as u32) < left) as usize - popped as usize;
                }
                pushed += push as u64;
                t += 1;
            }
        }
        let mut st = AccStats::default();
        for lane in &mut lanes {
            lane.pipe.flush::<D>(buckets);
            let l = &lane.st;
            st.cycles = st.cycles.max(l.cycles);
            st.slots += l.slots;
            st.bubbles += l.bubbles;
            st.conflicts += l.conflicts;
            st.input_stalls += l.input_stalls;
            st.zero_digits += l.zero_digits;
            st.queue_hwm = st.queue_hwm.max(l.queue_hwm);
            st.ops += lane.pipe.ops;
        }
        // the host adds up the last window's copies
        if let (Some(tb), true, true) = (g.spread, D::FUNCTIONAL, nw > 0) {
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
        st.passes = 1;
        st.extra.push(("total_cycles", (t + 1) as f64));
        st.extra.push(("point_passes", nw.div_ceil(cores) as f64));
        let last = lanes.iter().map(|l| l.last_read_out).max().unwrap_or(0);
        st.extra.push(("last_window_read_out", last as f64));
        if self.fanout_depth > 0 {
            st.extra.push(("fanout_stalls", fanout_stalls as f64));
        }
        st
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The closed form against the sequencer run cycle by cycle, with and
    /// without a conversion before the adder (`lat`: the holds come later,
    /// all within the window's program, whose steps wait HZ + lat).
    #[test]
    fn aggregation_cycles_in_closed_form_equal_the_sequencer() {
        let cases = [(2u32, 1u32, 5u64, 0u32), (5, 2, 9, 0), (7, 4, 26, 0), (11, 3, 2673, 0), (10, 9, 30, 0)];
        let te = [(16, 8, 100, 0), (5, 1, 76, 36), (6, 3, 76, 36), (4, 2, 3, 1), (3, 2, 2, 127)];
        for (c, lm, hz, lat) in cases.into_iter().chain(te) {
            let wait = hz + lat as u64;
            let mut a = AggSeq::default();
            let (mut held, mut cycles, mut dst_reads) = (0u64, 0u64, 0u64);
            a.edge(true, lm, c, wait);
            cycles += 1;
            while a.win == 0 {
                held += a.hold(lat) as u64;
                dst_reads += (a.st == 2) as u64;
                a.edge(false, lm, c, wait);
                cycles += 1;
            }
            assert_eq!(held, dst_reads, "c {c} lm {lm} lat {lat}: every hold within the program");
            assert_eq!((held, cycles), agg_window_cycles(1 << (c - 1), lm, wait), "c {c} lm {lm} hz {hz} lat {lat}");
        }
    }

    #[test]
    fn default_group_grows_with_the_msm() {
        assert_eq!(CoreSched::default_agg_log_m(1 << 10, 11, 12, 2673), 1);
        assert_eq!(CoreSched::default_agg_log_m(1 << 24, 15, 5, 2673), 8);
        assert_eq!(CoreSched::default_agg_log_m(1 << 30, 10, 26, 76), 9);
    }
}
