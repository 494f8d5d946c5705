`include "zk_params.svh"
// zk_core_sched -- the MSM core's scheduler: the input head S (a register
// slice on the work stream, its digit decoded to a bucket address), the
// pending queue P of operations that found their bucket busy, the hazard
// detector, the per-cycle decision, and the issued operation's registers up
// to the datapath.
//
// Per cycle the scheduler looks at two candidates, S and P. A bucket is
// busy while an operation on it is between its bucket read and its
// write-back, HZ = BRL + DLAT cycles (zk_inflight).
//   - S on a free bucket issues (the stream has priority, so a conflict
//     costs no input cycle), unless P is ready and belongs to an older window
//     (the previous window's leftovers go first: they hold its read-out
//     back) or the queue is half full (so it does not creep up to full);
//   - S on a busy bucket goes to the pending queue; in the same cycle P
//     issues if its bucket is free (a swap);
//   - a zero digit (or one out of range: s_bad) is consumed without an
//     operation (P may issue);
//   - if S is busy, the queue full and P not ready, S waits: the input is
//     stalled, never dropped. P becomes ready within HZ cycles (nothing new
//     issues meanwhile), so the core cannot deadlock.
// At most one operation issues per cycle.
//
// Two sizes (LOCK): 0, the hazard detector compares the candidates with
// every operation issued in the last HZ cycles (zk_inflight) and the pending
// queue (zk_pending) keeps its entries in distributed RAM: for HZ and PD of
// tens; 1, a lock bit per bucket (zk_lock_table, its bit travels with the
// operation: d_par in, wb_par back) and the pending queue in block RAM: for
// HZ and PD of thousands (the batched-affine adder). Both decide the same in
// every cycle.
//
// RQ = 1: in a cycle where P's bucket is busy and S is not pushed, P's entry
// moves from the head to the back of the queue (one pop and one push), so
// an entry queued behind an earlier one on the same bucket does not block
// the queue for a hazard window (at HZ of thousands that costs most of the
// throughput: crates/sim's model measures 56% at N = 2^20, c = 16, HZ 2002,
// PD 1024 without, 99.7% with). The order of a bucket's additions changes,
// not their sum.
//
// The digit: |d| - 1 is the bucket index, the sign says subtract; in the
// spread last window (`spread`, zk_msm_core) the index is sp_base + |d| - 1,
// sp_base = (beats taken mod 2^(c-1-tb)) 2^tb, kept by zk_msm_core.
//
// Interface: the work stream (AXI4-Stream, s_*), the window the input is in
// (from zk_msm_core: in_open, in_slot, sp_base and the configuration), the
// decision's outcome (consume, issue_s, p_push, iss_v/iss_a: the operation
// decided this cycle), the issued operation at the bucket read port (i_v,
// i_a: one cycle after the decision) and at the datapath input (d_*: BRL
// cycles later, beside the bucket read's data).
// Latency: decision in cycle t; bucket read at the clock edge ending t+1;
// d_* valid in cycle t+1+BRL. HZ (zk_msm_core: BRL plus the datapath's
// latency function) is the number of cycles after a decision during which
// its bucket reads busy.
//
// Timing (docs/rtl/resources-and-clocks.md, "The FPGA clock, calibrated";
// rtl/synth/CALIBRATION.md, "zkmsm's clocks"): the decision
// bounds the core's clock, so it starts from flip-flops and ends in
// narrow state. Both candidates' bucket addresses are registers (s_addr:
// loaded in the cycle before with the address the head will have, for
// either outcome of that cycle's decision; the pending queue's head key);
// the two lookups are the only logic before the decision, which is one
// multiplexer of four values computed beside them (one for each outcome of
// the two lookups); the decision moves no wide register: the input slice
// and the pending queue write their data from registered handshakes
// (zk_skid, zk_pending), the issued operation's point is picked one cycle
// later from registers of both candidates, and the lock table's set comes
// from the issued operation's registers (zk_lock_table).
module zk_core_sched #(
    parameter integer PW   = 16,          // point width
    parameter integer DGW  = `ZK_DGW,     // digit field (signed)
    parameter integer CMAX = `ZK_CMAX,
    parameter integer PD   = `ZK_PD,      // pending queue depth (power of two)
    parameter integer BRL  = `ZK_BRL,
    parameter integer HZ   = 8,           // hazard window
    parameter integer LOCK = 0,           // 1: lock table and block-RAM queue
    parameter integer RQ   = 0            // 1: requeue a blocked pending head
) (
    input  logic                    clk,
    input  logic                    rst,
    input  logic                    flush,     // (start: empties the pending queue)
    input  logic                    run,
    // the input's window (zk_msm_core)
    input  logic                    in_open,   // the input's window has its slot
    input  logic [             1:0] in_slot,
    input  logic [        CMAX-2:0] sp_base,   // spread window: (beats taken mod 2^(c-1-tb)) 2^tb
    input  logic                    two,       // c = CMAX
    input  logic [        CMAX-1:0] nbk,       // buckets per window, 2^(c-1)
    input  logic [             4:0] tb,        // bucket bits of the last window
    input  logic [        CMAX-2:0] sp_low,    // spread window: 2^tb - 1
    input  logic                    spread,    // the input is in the spread last window
    // the input's window after a consume this cycle (the address of the
    // beat then at the head is set up now)
    input  logic [             1:0] c_slot,
    input  logic [        CMAX-2:0] c_sp_base,
    input  logic                    c_spread,
    // work in
    input  logic                    s_tvalid,
    output logic                    s_tready,
    input  logic [          PW-1:0] s_point,
    input  logic [         DGW-1:0] s_digit,
    input  logic                    s_tlast,
    // the head and the decision
    output logic                    s_hv,      // a beat at the head
    output logic                    s_hlast,
    output logic                    s_ok,      // the head is valid and its window open
    output logic                    s_bad,     // its digit is out of range
    output logic                    s_skip,    // consumed without an operation
    output logic                    consume,   // the head is taken this cycle
    output logic                    issue_s,   // S issues
    output logic                    p_push,    // S goes to the pending queue
    output logic                    p_pop,     // P leaves the head (issues, or RQ: requeued)
    output logic                    p_valid,
    output logic                    p_full,
    output logic [$clog2(PD):0]     p_count,
    output logic                    iss_v,     // an operation is decided
    output logic [        CMAX-1:0] iss_a,     // its bucket address
    // the issued operation
    output logic                    i_v,       // at the bucket read port
    output logic [        CMAX-1:0] i_a,
    output logic                    d_v,       // at the datapath input
    output logic                    d_sub,
    output logic [        CMAX-1:0] d_a,
    output logic [          PW-1:0] d_point,
    output logic                    d_par,     // its lock bit (LOCK = 1)
    // the datapath's write-back
    input  logic                    wb_v,
    input  logic [        CMAX-1:0] wb_a,
    input  logic                    wb_par
`ifdef FORMAL
    ,
    output logic [          HZ-1:0] f_ifl_v,   // the hazard detector's contents
    output logic [     HZ*CMAX-1:0] f_ifl_a,
    output logic [PD*(PW+1+CMAX)-1:0] f_pmem,  // the pending queue's storage
    output logic [  $clog2(PD)-1:0] f_prd,
    output logic [     2**CMAX-1:0] f_lock    // (LOCK = 1) the lock bits
`endif
);
  localparam integer IW = CMAX - 1;  // bucket index bits
  localparam integer AW = CMAX;  // bucket address bits
  localparam integer OFW = CMAX - 2;  // offset bits
  localparam integer PEW = PW + 1 + AW;  // a pending entry: {point, sub, address}
  localparam integer SKW = PW + IW + 5;  // an input beat: {last, neg, zero, over, over_tb, |d| - 1, point}
`include "zk_core_addr.svh"

  // ------------------------------------------------------------- input head S
  // The digit is decoded before the register slice (sign, zero, |d| - 1,
  // the range checks against 2^(c-1) and 2^tb, both fixed for the MSM), so
  // the decision's stage starts at the decoded head.
  logic [DGW-1:0] d_mag;
  logic d_neg, d_zero, d_over, d_over_tb;
  logic [IW-1:0] d_m1;
  assign d_neg = s_digit[DGW-1];
  assign d_mag = d_neg ? -s_digit : s_digit;
  assign d_zero = s_digit == '0;
  assign d_m1 = IW'(d_mag - 1'b1);
  assign d_over = d_mag > DGW'(nbk);
  assign d_over_tb = d_mag > (DGW'(1) << tb);
  logic s_hready;
  logic [PW-1:0] s_hpoint;
  logic s_neg, s_zero, s_over, s_over_tb;
  logic [IW-1:0] s_m1;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [SKW-1:0] s_next;  // the beat at the head next cycle if this one is taken
  /* verilator lint_on UNUSEDSIGNAL */
  zk_skid #(
      .W(SKW)
  ) u_in (
      .clk(clk),
      .rst(rst),
      .s_valid(s_tvalid),
      .s_ready(s_tready),
      .s_data({s_tlast, d_neg, d_zero, d_over, d_over_tb, d_m1, s_point}),
      .m_valid(s_hv),
      .m_ready(s_hready),
      .m_data({s_hlast, s_neg, s_zero, s_over, s_over_tb, s_m1, s_hpoint}),
      .m_next(s_next)
  );

  // the head's bucket address, a register: set up in the cycle before for
  // the beat then at the head, in the window it is then in (after a
  // consume: the next beat in the window after it; otherwise: the same
  // head, or the arriving beat, in the window as it is). Equal to
  // baddr(in_slot, idx(s_m1), two) whenever the input's window is open
  // (its state changes without a consume only while it is closed).
  logic [AW-1:0] s_addr, addr_c, addr_n;
  logic [IW-1:0] n_m1, h_m1;
  assign n_m1 = s_next[PW+:IW];
  assign h_m1 = s_hv ? s_m1 : n_m1;
  assign addr_c = baddr(c_slot, c_spread ? c_sp_base | (n_m1 & sp_low) : n_m1, two);
  assign addr_n = baddr(in_slot, spread ? sp_base | (h_m1 & sp_low) : h_m1, two);
  always_ff @(posedge clk) s_addr <= consume ? addr_c : addr_n;
  // out of range for c (or for the spread last window): skipped, flagged
  assign s_bad = s_over || (spread && s_over_tb);

  // ------------------------------------------------------------- pending queue P
  logic [PEW-1:0] p_q;
  logic [PW-1:0] p_point;
  logic p_sub, p_half;
  logic [AW-1:0] p_addr;  // the head's address, from a register
  logic [1:0] p_slot;  // (its window's slot)
  logic p_rot;  // requeue P's head
  logic issue_p;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [AW-1:0] p_qaddr;  // (p_addr as stored)
  /* verilator lint_on UNUSEDSIGNAL */
  assign {p_point, p_sub, p_qaddr} = p_q;
  assign p_slot = slot_of_addr(p_addr, two);
  zk_pending #(
      .W(PEW),
      .KW(AW),
      .DEPTH(PD),
      .BRAM(LOCK)
  ) u_pending (
      .clk(clk),
      .rst(rst || flush),
      .push(p_push),
      .d({s_hpoint, s_neg, s_addr}),
      .pop(issue_p),
      .rot(p_rot),
      .valid(p_valid),
      .full(p_full),
      .half(p_half),
      .q(p_q),
      .qk(p_addr),
      .count(p_count)
`ifdef FORMAL
      ,
      .f_mem(f_pmem),
      .f_rd(f_prd)
`endif
  );

  // ------------------------------------------------------------- the issued operation's registers
  logic i_sub, i_par, i_sel, i_det;
  logic [PW-1:0] i_spt, i_ppt, i_point;

  // ------------------------------------------------------------- hazards
  logic s_busy, s_busy_q, p_busy;
  logic iss_par;  // the lock bit an issue writes
  logic det_issue;  // what the detector sees issue
`ifdef F_MUT_DETECT
  assign det_issue = issue_s;  // the detector misses P's issues
`else
  assign det_issue = iss_v;
`endif
  generate
    if (LOCK != 0) begin : g_lock
      logic par_a, par_b;
      logic wb_clear;
`ifdef F_MUT_UNLOCK
      assign wb_clear = 1'b0;  // write-backs never unlock their bucket
`else
      assign wb_clear = wb_v;
`endif
      assign iss_par = issue_s ? !par_a : !par_b;
      /* verilator lint_off PINCONNECTEMPTY */
      zk_lock_table #(
          .AW(AW)
      ) u_lock (
          .clk(clk),
          .rst(rst),
          .ready(),
          .issue(i_det),
          .issue_addr(i_a),
          .issue_par(i_par),
          .wb(wb_clear),
          .wb_addr(wb_a),
          .wb_par(wb_par),
          .qa(s_addr),
          .hit_a(s_busy_q),
          .par_a(par_a),
          .qb(p_addr),
          .hit_b(p_busy),
          .par_b(par_b)
`ifdef FORMAL
          ,
          .f_lock(f_lock)
`endif
      );
      /* verilator lint_on PINCONNECTEMPTY */
`ifdef FORMAL
      assign f_ifl_v = '0;
      assign f_ifl_a = '0;
`endif
    end else begin : g_inflight
      assign iss_par = 1'b0;
      /* verilator lint_off UNUSEDSIGNAL */
      logic [HZ-1:0] ifl_v;  // the detector's contents, for the formal properties
      logic [HZ*AW-1:0] ifl_a;
      logic unused_wb;
      /* verilator lint_on UNUSEDSIGNAL */
      assign unused_wb = wb_v ^ wb_par ^ (^wb_a) ^ i_det;
`ifdef FORMAL
      assign f_ifl_v = ifl_v;
      assign f_ifl_a = ifl_a;
      assign f_lock = '0;
`endif
      zk_inflight #(
          .AW(AW),
          .HZ(HZ)
      ) u_inflight (
          .clk(clk),
          .rst(rst),
          .issue(det_issue),
          .issue_addr(iss_a),
          .qa(s_addr),
          .hit_a(s_busy_q),
          .qb(p_addr),
          .hit_b(p_busy),
          .v(ifl_v),
          .a(ifl_a)
      );
    end
  endgenerate

  // ------------------------------------------------------------- the decision
  // (F_MUT_* defines: mutations that rtl/formal/prove.sh must catch)
`ifdef F_MUT_HAZARD
  assign s_busy = 1'b0;  // the stream head ignores the hazard detector
`else
  assign s_busy = s_busy_q;
`endif
  // Terms without the lookups (kept as wires, so that each output below is
  // one function of them and the two lookups):
  //   e_s   S has work (a non-zero digit in range, its window open)
  //   e_k   S is consumed without an operation
  //   e_r   P has an entry (and the core runs)
  //   e_f   P has an entry and, if free, goes first (S's window not open,
  //         P of an older window, or the queue half full)
  //   e_pf  the queue is full
  (* keep *) logic e_s, e_k, e_r, e_f, e_pf;
  assign s_ok = run && in_open && s_hv;
  assign s_skip = s_ok && (s_zero || s_bad);
  assign e_s = s_ok && !s_zero && !s_bad;
  assign e_k = s_skip;
  assign e_r = run && p_valid;
  assign e_f = e_r && (!in_open || p_slot != in_slot || p_half);
  assign e_pf = p_full;
  // with sB = s_busy, pB = p_busy:
  //   issue_s = e_s & !sB & !(e_f & !pB)             S issues
  //   issue_p = e_r & !pB & !issue_s                 P issues
  //   p_push  = e_s & sB & (!e_pf | issue_p)         S goes to the queue (a swap)
  //   p_rot   = RQ & e_r & pB & !p_push              P's head goes to the back
`ifdef F_MUT_STALL
  logic e_sp;  // P waits while S has work
  assign e_sp = e_r && !e_s;
`endif
  // consume for each outcome of the two lookups {s_busy, p_busy}: one
  // 4:1 multiplexer after them
  (* keep *) logic [3:0] e_c;
  assign e_c[0] = e_k || (e_s && !e_f);  // both free: S issues unless P goes first
  assign e_c[1] = e_k || e_s;  // P busy: S issues
  assign e_c[2] = e_k || (e_s && (!e_pf || e_r));  // S busy: a swap, or a push into room
  assign e_c[3] = e_k || (e_s && !e_pf);  // both busy: a push into room
  always_comb begin
    issue_s = e_s && !s_busy && !(e_f && !p_busy);
`ifdef F_MUT_STALL
    issue_p = e_sp && !p_busy && !issue_s;
`else
    issue_p = e_r && !p_busy && !issue_s;
`endif
`ifdef F_MUT_FULL
    p_push = e_s && s_busy;  // pushes a full queue
`else
    p_push = e_s && s_busy && (!e_pf || issue_p);
`endif
    p_rot = RQ != 0 && e_r && p_busy && !p_push;
  end
  assign p_pop = issue_p || p_rot;
`ifdef F_MUT_STALL
  assign consume = e_k || issue_s || p_push;  // (the mutation changes issue_p)
`elsif F_MUT_FULL
  assign consume = e_k || issue_s || p_push;  // (the mutation changes p_push)
`else
  assign consume = e_c[{s_busy, p_busy}];
`endif
  assign s_hready = consume;
  assign iss_v = issue_s || issue_p;
  assign iss_a = issue_s ? s_addr : p_addr;

  // ------------------------------------------------------------- issued
  // one register (the point from a register of each candidate, picked after
  // it), then BRL cycles beside the bucket read
  always_ff @(posedge clk) begin
    i_v <= rst ? 1'b0 : iss_v;
    i_det <= rst ? 1'b0 : det_issue;
    i_a <= iss_a;
    i_par <= iss_par;
    i_sub <= issue_s ? s_neg : p_sub;
    i_sel <= issue_s;
    i_spt <= s_hpoint;
    i_ppt <= p_point;
  end
  assign i_point = i_sel ? i_spt : i_ppt;
  zk_valid_pipe #(
      .N(BRL)
  ) u_dv (
      .clk(clk),
      .rst(rst),
      .d  (i_v),
      .q  (d_v)
  );
  zk_delay #(
      .W(AW + 2 + PW),
      .N(BRL)
  ) u_dd (
      .clk(clk),
      .d  ({i_par, i_a, i_sub, i_point}),
      .q  ({d_par, d_a, d_sub, d_point})
  );

`ifdef FORMAL
  // the head's registered address is the one computed from the head and
  // the window (a lemma of rtl/src/zk_msm_core_props.svh, F_ONLY 8)
  reg f_past = 1'b0;
  always @(posedge clk) f_past <= 1'b1;
`ifdef F_ONLY
  localparam bit F_EN = `F_ONLY == 8;
`else
  localparam bit F_EN = 1'b1;
`endif
  always @*
    if (f_past && !rst && F_EN && in_open && s_hv)
      assert (s_addr == baddr(in_slot, spread ? sp_base | (s_m1 & sp_low) : s_m1, two));
  always @* if (f_past && !rst && F_EN) assert (consume == (e_k || issue_s || p_push));
`endif
endmodule
