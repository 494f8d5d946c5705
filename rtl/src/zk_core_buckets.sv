`include "zk_params.svh"
// zk_core_buckets -- the MSM core's bucket memory: four banks of 2^(CMAX-2)
// buckets (zk_bucket_ram: one read and one write port each), addressed
// {bank, offset} (zk_core_addr.svh). Each word carries a valid bit: clear,
// the bucket holds the identity IDENT.
//
// Three users share the banks, and the core keeps them on different banks
// in any cycle (the window slots): the accumulation (read of an issued
// operation's bucket, write-back of the datapath's result), the read-out
// (read of a bucket, then its clear-write one cycle later) and the device
// aggregation (zk_core_agg: reads of a window whose accumulation is done;
// its additions write back through the accumulation's port). After reset
// `sweep` (the core's ST_CLEAR) clears every word, one offset of all four
// banks per cycle; sweep_last marks the sweep's last cycle.
//
// Latency: a read at the clock edge ending cycle t (acc_re or ro_re) returns
// its word in cycle t+BRL on acc_q / ro_q, from the bank named there by
// acc_rbank / ro_rbank (the caller delays the bank with the read), the
// identity in place of an empty word. Writes take effect at their edge.
module zk_core_buckets #(
    parameter integer          VW    = 16,
    parameter integer          CMAX  = `ZK_CMAX,
    parameter integer          BRL   = `ZK_BRL,
    parameter logic   [VW-1:0] IDENT = '0
) (
    input  logic            clk,
    input  logic            rst,
    input  logic            sweep,
    output logic            sweep_last,
    // accumulation
    input  logic            acc_re,
    input  logic [CMAX-1:0] acc_ra,
    input  logic            wb_we,
    input  logic [CMAX-1:0] wb_a,
    input  logic [  VW-1:0] wb_d,
    input  logic [     1:0] acc_rbank,
    output logic [  VW-1:0] acc_q,
    // read-out
    input  logic            ro_re,
    input  logic [CMAX-1:0] ro_a,
    input  logic            clr_we,
    input  logic [CMAX-1:0] clr_a,
    input  logic [     1:0] ro_rbank,
    output logic [  VW-1:0] ro_q,
    // aggregation
    input  logic            ag_re,
    input  logic [CMAX-1:0] ag_a,
    input  logic [     1:0] ag_rbank,
    output logic [  VW-1:0] ag_q
);
  localparam integer AW = CMAX;
  localparam integer OFW = CMAX - 2;
  logic [OFW-1:0] sweep_k;  // offset being cleared after reset
  always_ff @(posedge clk) begin
    if (rst) sweep_k <= '0;
    else if (sweep) sweep_k <= sweep_k + 1'b1;
  end
  assign sweep_last = sweep_k == '1;

  logic [VW:0] m_rd[4];  // {valid, value}
  genvar gb;
  generate
    for (gb = 0; gb < 4; gb++) begin : g_bank
      logic acc_rd, ag_rd, acc_wr, m_we, m_re;
      logic [OFW-1:0] m_wa, m_ra;
      logic [VW:0] m_wd;
      assign acc_rd = acc_re && acc_ra[AW-1:AW-2] == gb;
      assign ag_rd = ag_re && ag_a[AW-1:AW-2] == gb;
      assign acc_wr = wb_we && wb_a[AW-1:AW-2] == gb;
      always_comb begin
        m_re = acc_rd || ag_rd || (ro_re && ro_a[AW-1:AW-2] == gb);
        m_ra = acc_rd ? acc_ra[OFW-1:0] : ag_rd ? ag_a[OFW-1:0] : ro_a[OFW-1:0];
        m_we = sweep || acc_wr || (clr_we && clr_a[AW-1:AW-2] == gb);
        m_wa = sweep ? sweep_k : acc_wr ? wb_a[OFW-1:0] : clr_a[OFW-1:0];
        m_wd = (acc_wr && !sweep) ? {1'b1, wb_d} : '0;
      end
      zk_bucket_ram #(
          .W (VW + 1),
          .AW(OFW),
          .RL(BRL)
      ) u_ram (
          .clk(clk),
          .we (m_we),
          .wa (m_wa),
          .wd (m_wd),
          .re (m_re),
          .ra (m_ra),
          .rd (m_rd[gb])
      );
    end
  endgenerate

  logic [VW:0] acc_w, ro_w, ag_w;
  assign acc_w = m_rd[acc_rbank];
  assign ro_w = m_rd[ro_rbank];
  assign ag_w = m_rd[ag_rbank];
  assign acc_q = acc_w[VW] ? acc_w[VW-1:0] : IDENT;
  assign ro_q = ro_w[VW] ? ro_w[VW-1:0] : IDENT;
  assign ag_q = ag_w[VW] ? ag_w[VW-1:0] : IDENT;
endmodule
