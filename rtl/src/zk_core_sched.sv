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
// queue is distributed RAM (zk_fifo): for HZ and PD of tens; 1, a lock bit
// per bucket (zk_lock_table, its bit travels with the operation: d_par in,
// wb_par back) and a block-RAM pending queue (zk_fifo_bram): for HZ and PD
// of thousands (the batched-affine adder). Both decide the same in every
// cycle.
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
  zk_skid #(
      .W(PW + IW + 5)
  ) u_in (
      .clk(clk),
      .rst(rst),
      .s_valid(s_tvalid),
      .s_ready(s_tready),
      .s_data({s_tlast, d_neg, d_zero, d_over, d_over_tb, d_m1, s_point}),
      .m_valid(s_hv),
      .m_ready(s_hready),
      .m_data({s_hlast, s_neg, s_zero, s_over, s_over_tb, s_m1, s_hpoint})
  );

  logic [IW-1:0] s_idx;
  logic [AW-1:0] s_addr;
  // out of range for c (or for the spread last window): skipped, flagged
  assign s_bad = s_over || (spread && s_over_tb);
  assign s_idx = spread ? sp_base | (s_m1 & sp_low) : s_m1;
  assign s_addr = baddr(in_slot, s_idx, two);

  // ------------------------------------------------------------- pending queue P
  logic [PEW-1:0] p_q;
  logic [PW-1:0] p_point;
  logic p_sub;
  logic [AW-1:0] p_addr;
  logic [1:0] p_slot;  // (its window's slot)
  assign {p_point, p_sub, p_addr} = p_q;
  assign p_slot = slot_of_addr(p_addr, two);
  generate
    if (LOCK != 0) begin : g_pbram
      zk_fifo_bram #(
          .W(PEW),
          .DEPTH(PD)
      ) u_pending (
          .clk(clk),
          .rst(rst || flush),
          .push(p_push || p_rot),
          .d(p_rot ? p_q : {s_hpoint, s_neg, s_addr}),
          .pop(p_pop),
          .valid(p_valid),
          .full(p_full),
          .q(p_q),
          .count(p_count)
`ifdef FORMAL
          ,
          .f_mem(f_pmem),
          .f_rd(f_prd)
`endif
      );
    end else begin : g_pdist
      zk_fifo #(
          .W(PEW),
          .DEPTH(PD)
      ) u_pending (
          .clk(clk),
          .rst(rst || flush),
          .push(p_push || p_rot),
          .d(p_rot ? p_q : {s_hpoint, s_neg, s_addr}),
          .pop(p_pop),
          .valid(p_valid),
          .full(p_full),
          .q(p_q),
          .count(p_count)
`ifdef FORMAL
          ,
          .f_mem(f_pmem),
          .f_rd(f_prd)
`endif
      );
    end
  endgenerate

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
          .issue(det_issue),
          .issue_addr(iss_a),
          .issue_par(iss_par),
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
      assign unused_wb = wb_v ^ wb_par ^ (^wb_a);
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
  logic s_nz, p_ready, p_first, issue_p, swap;
  assign s_ok = run && in_open && s_hv;
  assign s_skip = s_ok && (s_zero || s_bad);
  assign s_nz = s_ok && !s_zero && !s_bad;
  assign p_ready = run && p_valid && !p_busy;
  assign p_first = p_ready && (!in_open || p_slot != in_slot || p_count >= ($clog2(PD) + 1)'(PD / 2));
  assign issue_s = s_nz && !s_busy && !p_first;
  assign swap = s_nz && s_busy;
`ifdef F_MUT_STALL
  assign issue_p = p_ready && !issue_s && !s_nz;  // P waits while S has work
`else
  assign issue_p = p_ready && !issue_s;
`endif
`ifdef F_MUT_FULL
  assign p_push = swap;  // pushes a full queue
`else
  assign p_push = swap && (!p_full || issue_p);
`endif
  logic p_rot;  // requeue P's head
  assign p_rot = RQ != 0 && run && p_valid && p_busy && !p_push;
  assign p_pop = issue_p || p_rot;
  assign consume = s_skip || issue_s || p_push;
  assign s_hready = consume;
  assign iss_v = issue_s || issue_p;
  assign iss_a = issue_s ? s_addr : p_addr;

  // ------------------------------------------------------------- issued
  // one register, then BRL cycles beside the bucket read
  logic i_sub, i_par;
  logic [PW-1:0] i_point;
  always_ff @(posedge clk) begin
    i_v <= rst ? 1'b0 : iss_v;
    i_a <= iss_a;
    i_par <= iss_par;
    i_sub <= issue_s ? s_neg : p_sub;
    i_point <= issue_s ? s_hpoint : p_point;
  end
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
endmodule
