`include "zk_params.svh"
// zk_msm_top -- the accelerator: control/status registers (AXI4-Lite), the
// point reader (point memory through DataMover-style command/data streams,
// joined with the host's digit stream) and one MSM core; buckets go back to
// the host on an AXI4-Stream. All streams have backpressure.
//
//   s_axil_*   AXI4-Lite slave: zk_msm_csr's registers
//   s_dg_*     digits from the host, window-major, 32-bit signed, tlast per window
//   m_cmd_*    point-memory read commands {count, byte address}
//   s_pt_*     points from point memory (the core's precomputed form)
//   m_bk_*     buckets to the host, tuser = {window, bucket}, tlast per window
//
// The host loads the converted points into point memory once (MSM_INIT),
// then per MSM: writes N, C, WINDOWS (and POINTS), START, streams the
// digits, reads the buckets, and polls STATUS.done (or counts the
// buckets). Parameters as zk_msm_core's.
module zk_msm_top #(
    parameter integer         NB     = `ZK_NB,
    parameter integer         QBITS  = `ZK_QBITS,
    parameter logic   [511:0] Q      = `ZK_Q,
    parameter integer         LEVELS = `ZK_LEVELS,
    parameter integer         TA     = `ZK_TA,
    parameter integer         TB     = `ZK_TB,
    parameter integer         RW     = `ZK_RW,
    parameter integer         WIN    = `ZK_WIN,
    parameter integer         FANIN  = `ZK_FANIN,
    parameter integer         SPLIT  = `ZK_SPLIT,
    parameter integer         DP     = 1,
    parameter integer         SW     = 16,
    parameter integer         SLAT   = 4,
    parameter integer         CMAX   = 16,
    parameter integer         PD     = 16,
    parameter integer         BRL    = 2,
    parameter integer         NW     = 32,
    parameter integer         WW     = 8,
    parameter integer         PW     = (DP != 0) ? 3 * NB : SW,
    parameter integer         VW     = (DP != 0) ? 4 * NB : SW
) (
    input  logic               clk,
    input  logic               rst,
    // AXI4-Lite control
    input  logic               s_axil_awvalid,
    output logic               s_axil_awready,
    input  logic [        7:0] s_axil_awaddr,
    input  logic               s_axil_wvalid,
    output logic               s_axil_wready,
    input  logic [       31:0] s_axil_wdata,
    input  logic [        3:0] s_axil_wstrb,
    output logic               s_axil_bvalid,
    input  logic               s_axil_bready,
    output logic [        1:0] s_axil_bresp,
    input  logic               s_axil_arvalid,
    output logic               s_axil_arready,
    input  logic [        7:0] s_axil_araddr,
    output logic               s_axil_rvalid,
    input  logic               s_axil_rready,
    output logic [       31:0] s_axil_rdata,
    output logic [        1:0] s_axil_rresp,
    // digits
    input  logic               s_dg_tvalid,
    output logic               s_dg_tready,
    input  logic [       31:0] s_dg_tdata,
    input  logic               s_dg_tlast,
    // point memory
    output logic               m_cmd_tvalid,
    input  logic               m_cmd_tready,
    output logic [       95:0] m_cmd_tdata,
    input  logic               s_pt_tvalid,
    output logic               s_pt_tready,
    input  logic [     PW-1:0] s_pt_tdata,
    input  logic               s_pt_tlast,
    // buckets
    output logic               m_bk_tvalid,
    input  logic               m_bk_tready,
    output logic [     VW-1:0] m_bk_tdata,
    output logic [WW+CMAX-2:0] m_bk_tuser,
    output logic               m_bk_tlast
);
  logic start, ready, busy, done_pulse, err_step;
  logic [NW-1:0] cfg_n;
  logic [4:0] cfg_c;
  logic [WW-1:0] cfg_windows;
  logic [63:0] cfg_points;
  logic [4:0] cfg_top;
  logic [2:0] core_err;
  logic [511:0] counters;
  logic [15:0] pending_hwm, lat_dp, lat_hz;

  zk_msm_csr #(
      .NW(NW),
      .WW(WW),
      .CONFIG({8'(DP), 8'(PD), 8'(BRL), 8'(CMAX)}),
      .WIDTHS({16'(VW), 16'(PW)})
  ) u_csr (
      .clk(clk),
      .rst(rst),
      .s_awvalid(s_axil_awvalid),
      .s_awready(s_axil_awready),
      .s_awaddr(s_axil_awaddr),
      .s_wvalid(s_axil_wvalid),
      .s_wready(s_axil_wready),
      .s_wdata(s_axil_wdata),
      .s_wstrb(s_axil_wstrb),
      .s_bvalid(s_axil_bvalid),
      .s_bready(s_axil_bready),
      .s_bresp(s_axil_bresp),
      .s_arvalid(s_axil_arvalid),
      .s_arready(s_axil_arready),
      .s_araddr(s_axil_araddr),
      .s_rvalid(s_axil_rvalid),
      .s_rready(s_axil_rready),
      .s_rdata(s_axil_rdata),
      .s_rresp(s_axil_rresp),
      .start(start),
      .cfg_n(cfg_n),
      .cfg_c(cfg_c),
      .cfg_windows(cfg_windows),
      .cfg_points(cfg_points),
      .cfg_top(cfg_top),
      .ready(ready),
      .busy(busy),
      .done_pulse(done_pulse),
      .errors({err_step, core_err}),
      .lat_dp(lat_dp),
      .lat_hz(lat_hz),
      .counters(counters),
      .pending_hwm(pending_hwm)
  );

  logic w_valid, w_ready, w_last;
  logic [PW-1:0] w_point;
  logic [31:0] w_digit;
  zk_point_reader #(
      .PW (PW),
      .DGW(32),
      .NW (NW),
      .WW (WW)
  ) u_reader (
      .clk(clk),
      .rst(rst),
      .start(start && ready),
      .cfg_n(cfg_n),
      .cfg_windows(cfg_windows),
      .cfg_points(cfg_points),
      .err_step(err_step),
      .m_cmd_tvalid(m_cmd_tvalid),
      .m_cmd_tready(m_cmd_tready),
      .m_cmd_tdata(m_cmd_tdata),
      .s_pt_tvalid(s_pt_tvalid),
      .s_pt_tready(s_pt_tready),
      .s_pt_tdata(s_pt_tdata),
      .s_pt_tlast(s_pt_tlast),
      .s_dg_tvalid(s_dg_tvalid),
      .s_dg_tready(s_dg_tready),
      .s_dg_tdata(s_dg_tdata),
      .s_dg_tlast(s_dg_tlast),
      .m_tvalid(w_valid),
      .m_tready(w_ready),
      .m_point(w_point),
      .m_digit(w_digit),
      .m_tlast(w_last)
  );

  zk_msm_core #(
      .NB(NB),
      .QBITS(QBITS),
      .Q(Q),
      .LEVELS(LEVELS),
      .TA(TA),
      .TB(TB),
      .RW(RW),
      .WIN(WIN),
      .FANIN(FANIN),
      .SPLIT(SPLIT),
      .DP(DP),
      .SW(SW),
      .SLAT(SLAT),
      .CMAX(CMAX),
      .PD(PD),
      .BRL(BRL),
      .NW(NW),
      .WW(WW),
      .DGW(32)
  ) u_core (
      .clk(clk),
      .rst(rst),
      .start(start),
      .cfg_n(cfg_n),
      .cfg_c(cfg_c),
      .cfg_windows(cfg_windows),
      .cfg_top(cfg_top),
      .ready(ready),
      .busy(busy),
      .done_pulse(done_pulse),
      .errors(core_err),
      .cnt_cycles(counters[0*64+:64]),
      .cnt_acc_cycles(counters[1*64+:64]),
      .cnt_issued(counters[2*64+:64]),
      .cnt_conflicts(counters[3*64+:64]),
      .cnt_stalls(counters[4*64+:64]),
      .cnt_bubbles(counters[5*64+:64]),
      .cnt_zero(counters[6*64+:64]),
      .cnt_ro_stalls(counters[7*64+:64]),
      .pending_hwm(pending_hwm),
      .lat_dp(lat_dp),
      .lat_hz(lat_hz),
      .s_tvalid(w_valid),
      .s_tready(w_ready),
      .s_point(w_point),
      .s_digit(w_digit),
      .s_tlast(w_last),
      .m_tvalid(m_bk_tvalid),
      .m_tready(m_bk_tready),
      .m_tdata(m_bk_tdata),
      .m_tuser(m_bk_tuser),
      .m_tlast(m_bk_tlast)
  );
endmodule
