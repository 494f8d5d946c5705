`include "zk_params.svh"
// zk_core_readout -- the MSM core's bucket read-out: window after window, in
// order, the 2^(c-1) buckets of window ro_win leave on the bucket stream
// (AXI4-Stream, m_tuser = {window, bucket index}, m_tlast on the window's
// last bucket), each bucket cleared (valid = 0) as it is read.
//
// A window's read-out starts once its slot (zk_core_addr.svh) holds it, its
// input is done and nothing of it is outstanding (bk_idle: no operation
// pending or in flight), and the previous window's read-out has ended; one
// bucket read per cycle while the output FIFO (OFD words, credits counted
// over the reads in flight) has room. ro_done: the window's last bucket was
// cleared this cycle (the core frees its slot); fin: every window of the
// MSM has left.
//
// Latency: the read issued in cycle t (ro_rd, ro_a) returns its word
// (ro_q, from the bank ro_rbank) in cycle t+BRL into the output FIFO, on
// m_tdata from cycle t+BRL+1; the clear-write (clr_v, clr_a) is in cycle
// t+1. zk_core_buckets keeps the words.
module zk_core_readout #(
    parameter integer VW   = 16,
    parameter integer CMAX = `ZK_CMAX,
    parameter integer BRL  = `ZK_BRL,
    parameter integer WW   = `ZK_WW
) (
    input  logic                 clk,
    input  logic                 rst,
    input  logic                 flush,      // (start: window 0 next, output FIFO emptied)
    input  logic                 run,
    input  logic [       WW-1:0] windows,    // the MSM's window count
    input  logic [     CMAX-2:0] last_k,     // the last bucket index, 2^(c-1) - 1
    input  logic                 two,        // c = CMAX
    // device aggregation (zk_core_agg; lm_cfg = 0: off): a window is read
    // once aggregated (ag_win counts those), and only its partial sums
    // (bucket k with k mod m < 2) leave; every bucket is still cleared
    input  logic                 agg_on,
    input  logic [          4:0] lm_n,       // log2 m of a window, of the last one
    input  logic [          4:0] lm_l,
    input  logic [       WW-1:0] ag_win,
    // the window slots (zk_msm_core)
    input  logic [          3:0] bk_busy,    // holds a window
    input  logic [       4*WW-1:0] bk_win,   // which (slot s: bk_win[s*WW +: WW])
    input  logic [          3:0] bk_indone,  // its input is done
    input  logic [          3:0] bk_idle,    // nothing of it pending or in flight
    // to and from the bucket memory
    output logic                 ro_rd,      // a read this cycle
    output logic [     CMAX-1:0] ro_a,
    output logic                 clr_v,      // the clear-write of the bucket read one cycle ago
    output logic [     CMAX-1:0] clr_a,
    output logic [          1:0] ro_rbank,   // the bank of the read returning now
    input  logic [       VW-1:0] ro_q,
    // state
    output logic                 ro_act,     // a window is being read
    output logic [          1:0] ro_b,       // its slot
    output logic [       WW-1:0] ro_win,
    output logic                 ro_done,
    output logic [          1:0] clr_b,      // the slot ro_done frees
    output logic                 fin,
    // buckets out
    output logic                 m_tvalid,
    input  logic                 m_tready,
    output logic [       VW-1:0] m_tdata,
    output logic [WW+CMAX-2:0]   m_tuser,
    output logic                 m_tlast
);
  localparam integer IW = CMAX - 1;
  localparam integer AW = CMAX;
  localparam integer OFW = CMAX - 2;
  localparam integer OFD = 1 << $clog2(BRL + 2);  // output FIFO depth
`include "zk_core_addr.svh"

  logic [IW-1:0] ro_k;
  logic clr_last;
  // which buckets leave (device aggregation: S_g and X_g of every group,
  // bucket k with k mod m < 2): the mask of k's bits 1 .. lm-1 and the last
  // one sent, set when the window's read-out starts
  logic [4:0] lm_r;
  logic [IW-1:0] m_r, emask, last_emit;
  logic emit;
  assign lm_r = !agg_on ? 5'd0 : ro_win + 1'b1 == windows ? lm_l : lm_n;
  assign m_r = IW'(1) << lm_r;
  assign emit = (ro_k & emask) == '0;
  assign ro_b = slot_of(ro_win[1:0], two);
  assign ro_a = baddr(ro_b, ro_k, two);

  // ro_rd reads bucket ro_k of bank ro_b; the data returns BRL cycles later
  // into the output FIFO (credits keep it from overflowing); the bucket is
  // cleared (valid = 0) one cycle after its read.
  logic [BRL-1:0] ro_p;  // reads in flight, by age
  logic [IW-1:0] ro_pk;  // bucket, window, last-of-window of the read returning now
  logic [WW-1:0] ro_pw;
  logic ro_plast, ro_pemit;
  logic [$clog2(OFD):0] o_count;
  logic [$clog2(OFD):0] ro_inflight;
  logic o_valid;
  /* verilator lint_off UNUSEDSIGNAL */
  logic o_full;  // (never full: credits)
  /* verilator lint_on UNUSEDSIGNAL */
  logic ro_start;
  assign ro_start = run && !ro_act && !clr_v && ro_win != windows && bk_busy[ro_b] && bk_win[ro_b*WW+:WW] == ro_win
                    && bk_indone[ro_b] && (!agg_on || ag_win != ro_win)
`ifndef F_MUT_READOUT
                    && bk_idle[ro_b]  // (mutation: read out with work outstanding)
`endif
                    ;
  always_comb begin
    ro_inflight = '0;
    for (int k = 0; k < BRL; k++) ro_inflight = ro_inflight + {{$clog2(OFD) {1'b0}}, ro_p[k]};
  end
  assign ro_rd = ro_act && (ro_inflight + o_count < ($clog2(OFD) + 1)'(OFD));
  always_ff @(posedge clk) begin
    if (rst) ro_p <= '0;
    else ro_p <= BRL'({ro_p, ro_rd});
  end
  zk_delay #(
      .W(IW + WW + 4),
      .N(BRL)
  ) u_ro_tag (
      .clk(clk),
      .d  ({ro_k, ro_win, ro_k == last_emit, emit, ro_a[AW-1:AW-2]}),
      .q  ({ro_pk, ro_pw, ro_plast, ro_pemit, ro_rbank})
  );
  logic [VW+WW+IW:0] o_q;
  zk_fifo #(
      .W(VW + WW + IW + 1),
      .DEPTH(OFD)
  ) u_out (
      .clk(clk),
      .rst(rst || flush),
      .push(ro_p[BRL-1] && ro_pemit),
      .d({ro_plast, ro_pw, ro_pk, ro_q}),
      .pop(o_valid && m_tready),
      .valid(o_valid),
      .full(o_full),
      .q(o_q),
      .count(o_count)
`ifdef FORMAL
      ,
      .f_mem(),
      .f_rd()
`endif
  );
  assign m_tvalid = o_valid;
  assign {m_tlast, m_tuser, m_tdata} = o_q;

  assign ro_done = clr_v && clr_last;
  assign fin = ro_win == windows && !o_valid && !ro_act && !clr_v && ro_p == '0;
  always_ff @(posedge clk) begin
    if (rst) begin
      ro_win <= '0;
      ro_act <= 1'b0;
      ro_k <= '0;
      clr_v <= 1'b0;
    end else begin
      if (ro_start) begin
        emask <= lm_r == '0 ? '0 : (m_r - 1'b1) & ~IW'(1);
        last_emit <= last_k - (m_r - 1'b1) + IW'(lm_r != '0);
      end
      clr_v <= ro_rd;
      clr_a <= ro_a;
      clr_b <= ro_b;
      clr_last <= ro_k == last_k;
      if (flush) ro_win <= '0;
      if (run) begin
        if (ro_start) begin
          ro_act <= 1'b1;
          ro_k <= '0;
        end else if (ro_rd) begin
          ro_k <= ro_k + 1'b1;
          if (ro_k == last_k) ro_act <= 1'b0;
        end
        if (ro_done) ro_win <= ro_win + 1'b1;
      end
    end
  end
endmodule
