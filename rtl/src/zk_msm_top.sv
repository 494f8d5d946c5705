`include "zk_params.svh"
`ifndef ZK_NCORES
`define ZK_NCORES 1  // (a define, so hierarchical Verilator builds can set it: -DZK_NCORES=2)
`endif
// Whole configurations by define, for hierarchical Verilator builds (which
// cannot set parameters; a synthesis flow sets DP, LOCK, RQ, PD, Q, QBITS):
//   ZK_CORE_AFF        the batched-affine core: DP 2, the lock table and a
//                      block-RAM pending queue of ZK_AFF_PD (default 1,024)
//                      entries (LOCK 1), blocked heads requeued (RQ 1);
//                      else the twisted Edwards core
//   ZK_CORE_BLS12_381  BLS12-381's base field (the batched-affine core
//                      only); else zk_params.svh's ZK_Q (BLS12-377)
//   ZK_CORE_BN254      BN254's base field at NB = RW = 256 (the
//                      batched-affine core only)
`ifdef ZK_CORE_AFF
`define ZK_TOP_DP 2
`define ZK_TOP_LOCK 1
`define ZK_TOP_RQ 1
`ifndef ZK_AFF_PD
`define ZK_AFF_PD 1024
`endif
`define ZK_TOP_PD `ZK_AFF_PD
`else
`define ZK_TOP_DP 1
`define ZK_TOP_LOCK `ZK_LOCK
`define ZK_TOP_RQ `ZK_RQ
`define ZK_TOP_PD `ZK_PD
`endif
`ifdef ZK_CORE_BLS12_381
`define ZK_TOP_Q `ZK_Q_BLS12_381
`define ZK_TOP_QBITS `ZK_QBITS_BLS12_381
`define ZK_TOP_NB `ZK_NB
`define ZK_TOP_RW `ZK_RW
`elsif ZK_CORE_BN254
`define ZK_TOP_Q `ZK_Q_BN254
`define ZK_TOP_QBITS `ZK_QBITS_BN254
`define ZK_TOP_NB `ZK_NB_BN254
`define ZK_TOP_RW `ZK_NB_BN254
`else
`define ZK_TOP_Q `ZK_Q
`define ZK_TOP_QBITS `ZK_QBITS
`define ZK_TOP_NB `ZK_NB
`define ZK_TOP_RW `ZK_RW
`endif
// zk_msm_top -- the accelerator: control/status registers (AXI4-Lite), the
// point reader (point memory through DataMover-style command/data streams,
// joined with the host's digit stream) and NCORES MSM cores behind one point
// stream; buckets go back to the host on one AXI4-Stream per core. All
// streams have backpressure.
//
//   s_axil_*   AXI4-Lite slave: zk_msm_csr's registers
//   s_dg_*     digits from the host, one beat per point per pass, NCORES
//              32-bit signed fields (field k: core k's window), tlast per pass
//   m_cmd_*    point-memory read commands {count, byte address}, one per pass
//   s_pt_*     points from point memory (the core's precomputed form)
//   m_bk_*     buckets to the host, stream k from core k, tuser = {global
//              window, bucket}, tlast per window
//
// Cores (SuperScalar's arrangement): with K cores in use (register CORES,
// 1..NCORES), window w goes to core w mod K; a pass streams the N points
// once with the digits of windows pK .. pK+K-1, so W windows take
// ceil(W / K) passes and one point read serves K cores. Core k runs its
// windows k, k+K, ... as an MSM of its own (zk_msm_core), the narrow last
// window (TOP) on the core that holds it. With NCORES = 1 the core takes
// the point reader's stream directly; with NCORES > 1 through zk_fanout's
// per-core FIFOs of FD beats.
//
// The host loads the converted points into point memory once (MSM_INIT),
// then per MSM: writes N, C, WINDOWS, CORES (and POINTS), START, streams the
// digits, reads the buckets, and polls STATUS.done (or counts the
// buckets). Counters: the largest over the cores (CYCLES, ACC_CYCLES,
// PENDING_HWM) or the sum (the others). Parameters as zk_msm_core's.
module zk_msm_top #(
    parameter integer         NB     = `ZK_TOP_NB,
    parameter integer         QBITS  = `ZK_TOP_QBITS,
    parameter logic   [511:0] Q      = `ZK_TOP_Q,
    parameter integer         LEVELS = `ZK_LEVELS,
    parameter integer         TA     = `ZK_TA,
    parameter integer         TB     = `ZK_TB,
    parameter integer         RW     = `ZK_TOP_RW,
    parameter integer         WIN    = `ZK_WIN,
    parameter integer         FANIN  = `ZK_FANIN,
    parameter integer         SPLIT  = `ZK_SPLIT,
    parameter integer         DP     = `ZK_TOP_DP,
    parameter integer         SW     = 16,
    parameter integer         SLAT   = 4,
    parameter integer         CMAX   = `ZK_CMAX,
    parameter integer         PD     = `ZK_TOP_PD,
    parameter integer         BRL    = `ZK_BRL,
    parameter integer         NW     = `ZK_NW,
    parameter integer         WW     = `ZK_WW,
    parameter integer         NCORES = `ZK_NCORES,
    parameter integer         FD     = 4,  // fan-out FIFO depth per core (NCORES > 1)
    parameter integer         LOCK   = `ZK_TOP_LOCK,
    parameter integer         RQ     = `ZK_TOP_RQ,
    // bucket aggregation on the device (zk_core_agg, the AGG register):
    // on every core (the twisted Edwards one adds buckets to buckets
    // through zk_te_agg_in: two more multipliers); AGG 0 after reset sends
    // every bucket, in the same cycles as a build without it
    parameter integer         AGG    = 1,
    parameter integer         PW     = (DP == 1) ? 3 * NB : (DP == 2) ? 2 * NB : SW,
    parameter integer         VW     = (DP == 1) ? 4 * NB : (DP == 2) ? 2 * NB + 1 : SW,
    parameter integer         UW     = WW + CMAX - 1  // bucket tuser bits
) (
    input  logic                     clk,
    input  logic                     rst,
    // AXI4-Lite control
    input  logic                     s_axil_awvalid,
    output logic                     s_axil_awready,
    input  logic [              7:0] s_axil_awaddr,
    input  logic                     s_axil_wvalid,
    output logic                     s_axil_wready,
    input  logic [             31:0] s_axil_wdata,
    input  logic [              3:0] s_axil_wstrb,
    output logic                     s_axil_bvalid,
    input  logic                     s_axil_bready,
    output logic [              1:0] s_axil_bresp,
    input  logic                     s_axil_arvalid,
    output logic                     s_axil_arready,
    input  logic [              7:0] s_axil_araddr,
    output logic                     s_axil_rvalid,
    input  logic                     s_axil_rready,
    output logic [             31:0] s_axil_rdata,
    output logic [              1:0] s_axil_rresp,
    // digits
    input  logic                     s_dg_tvalid,
    output logic                     s_dg_tready,
    input  logic [  NCORES*32-1:0]   s_dg_tdata,
    input  logic                     s_dg_tlast,
    // point memory
    output logic                     m_cmd_tvalid,
    input  logic                     m_cmd_tready,
    output logic [             95:0] m_cmd_tdata,
    input  logic                     s_pt_tvalid,
    output logic                     s_pt_tready,
    input  logic [           PW-1:0] s_pt_tdata,
    input  logic                     s_pt_tlast,
    // buckets, one stream per core
    output logic [       NCORES-1:0] m_bk_tvalid,
    input  logic [       NCORES-1:0] m_bk_tready,
    output logic [    NCORES*VW-1:0] m_bk_tdata,
    output logic [    NCORES*UW-1:0] m_bk_tuser,
    output logic [       NCORES-1:0] m_bk_tlast
);
  localparam integer CW = 64;
  logic start, err_step, fo_stall;
  logic [NW-1:0] cfg_n;
  logic [4:0] cfg_c;
  logic [WW-1:0] cfg_windows, cfg_cores, passes;
  logic [63:0] cfg_points;
  logic [4:0] cfg_top, cfg_agg;
  logic [511:0] counters;
  logic [15:0] pending_hwm, lat_dp, lat_hz, lat_ag;
  logic [CW-1:0] fo_stalls;
  // per core
  logic [NCORES-1:0] c_ready, c_busy, c_done;
  logic [2:0] c_err[NCORES];
  logic [CW-1:0] c_cnt[NCORES][8];
  logic [15:0] c_hwm[NCORES], c_lat_dp[NCORES], c_lat_hz[NCORES], c_lat_ag[NCORES];
  logic [WW-1:0] c_windows[NCORES];
  logic [4:0] c_top[NCORES];

  // ---- windows per core: core k takes w = k mod K (K = cfg_cores)
  logic [WW-1:0] wq, wr;  // W / K, W mod K
  always_comb begin
    wq = cfg_windows;
    wr = '0;
    for (int j = 2; j <= NCORES; j++)
      if (cfg_cores == WW'(j)) begin
        wq = cfg_windows / WW'(j);
        wr = cfg_windows % WW'(j);
      end
    passes = wq + WW'(wr != '0);
    for (int k = 0; k < NCORES; k++) begin
      c_windows[k] = WW'(k) < cfg_cores ? wq + WW'(WW'(k) < wr) : '0;
      // the narrow last window W-1 is on core (W-1) mod K
      c_top[k] = (cfg_windows != '0 && WW'(k) == ((wr == '0) ? cfg_cores : wr) - 1'b1) ? cfg_top : 5'd31;
    end
  end

  // ---- combined status and counters
  logic [2:0] core_err;
  always_comb begin
    core_err = '0;
    counters = '0;
    pending_hwm = '0;
    for (int k = 0; k < NCORES; k++) begin
      core_err = core_err | c_err[k];
      for (int j = 0; j < 8; j++)
        if (j < 2) counters[j*64+:64] = c_cnt[k][j] > counters[j*64+:64] ? c_cnt[k][j] : counters[j*64+:64];
        else counters[j*64+:64] = counters[j*64+:64] + c_cnt[k][j];
      if (c_hwm[k] > pending_hwm) pending_hwm = c_hwm[k];
    end
  end
  assign lat_dp = c_lat_dp[0];
  assign lat_hz = c_lat_hz[0];
  assign lat_ag = c_lat_ag[0];

  zk_msm_csr #(
      .NW(NW),
      .WW(WW),
      .CONFIG({8'(DP), 1'(RQ), 1'(LOCK), 6'($clog2(PD)), 8'(BRL), 8'(CMAX)}),
      .WIDTHS({16'(VW), 16'(PW)}),
      .NCORES(NCORES),
      .FD(NCORES > 1 ? FD : 0),
      .AGG(AGG)
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
      .cfg_cores(cfg_cores),
      .cfg_points(cfg_points),
      .cfg_top(cfg_top),
      .cfg_agg(cfg_agg),
      .ready(&c_ready),
      .busy(|c_busy),
      // the last core to finish ends the MSM
      .done_pulse(|c_done && !(|c_busy)),
      .errors({err_step, core_err}),
      .lat_dp(lat_dp),
      .lat_hz(lat_hz),
      .lat_ag(lat_ag),
      .counters(counters),
      .pending_hwm(pending_hwm),
      .fanout_stalls(fo_stalls)
  );

  logic w_valid, w_ready, w_last;
  logic [PW-1:0] w_point;
  logic [NCORES*32-1:0] w_digits;
  zk_point_reader #(
      .PW (PW),
      .DGW(NCORES * 32),
      .NW (NW),
      .WW (WW)
  ) u_reader (
      .clk(clk),
      .rst(rst),
      .start(start && (&c_ready)),
      .cfg_n(cfg_n),
      .cfg_windows(passes),
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
      .m_digit(w_digits),
      .m_tlast(w_last)
  );

  // ---- the cores' inputs
  logic [NCORES-1:0] in_valid, in_ready, in_last;
  logic [NCORES*PW-1:0] in_point;
  logic [NCORES*32-1:0] in_digit;
  generate
    if (NCORES == 1) begin : g_direct
      assign in_valid = w_valid;
      assign w_ready = in_ready[0];
      assign in_point = w_point;
      assign in_digit = w_digits;
      assign in_last = w_last;
      assign fo_stall = 1'b0;
    end else begin : g_fanout
      zk_fanout #(
          .NCORES(NCORES),
          .PW(PW),
          .DGW(32),
          .WW(WW),
          .FD(FD)
      ) u_fanout (
          .clk(clk),
          .rst(rst),
          .start(start && (&c_ready)),
          .cfg_windows(cfg_windows),
          .cfg_cores(cfg_cores),
          .s_tvalid(w_valid),
          .s_tready(w_ready),
          .s_point(w_point),
          .s_digits(w_digits),
          .s_tlast(w_last),
          .stall(fo_stall),
          .m_tvalid(in_valid),
          .m_tready(in_ready),
          .m_point(in_point),
          .m_digit(in_digit),
          .m_tlast(in_last)
      );
    end
  endgenerate
  always_ff @(posedge clk) begin
    if (rst || (start && (&c_ready))) fo_stalls <= '0;
    else if (|c_busy) fo_stalls <= fo_stalls + CW'(fo_stall);
  end

  genvar k;
  generate
    for (k = 0; k < NCORES; k++) begin : g_core
      logic [UW-1:0] user;
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
          .DGW(32),
          .LOCK(LOCK),
          .RQ(RQ),
          .AGG(AGG)
      ) u_core (
          .clk(clk),
          .rst(rst),
          .start(start),
          .cfg_n(cfg_n),
          .cfg_c(cfg_c),
          .cfg_windows(c_windows[k]),
          .cfg_top(c_top[k]),
          .cfg_agg(cfg_agg),
          .ready(c_ready[k]),
          .busy(c_busy[k]),
          .done_pulse(c_done[k]),
          .errors(c_err[k]),
          .cnt_cycles(c_cnt[k][0]),
          .cnt_acc_cycles(c_cnt[k][1]),
          .cnt_issued(c_cnt[k][2]),
          .cnt_conflicts(c_cnt[k][3]),
          .cnt_stalls(c_cnt[k][4]),
          .cnt_bubbles(c_cnt[k][5]),
          .cnt_zero(c_cnt[k][6]),
          .cnt_ro_stalls(c_cnt[k][7]),
          .pending_hwm(c_hwm[k]),
          .lat_dp(c_lat_dp[k]),
          .lat_hz(c_lat_hz[k]),
          .lat_ag(c_lat_ag[k]),
          .s_tvalid(in_valid[k]),
          .s_tready(in_ready[k]),
          .s_point(in_point[k*PW+:PW]),
          .s_digit(in_digit[k*32+:32]),
          .s_tlast(in_last[k]),
          .m_tvalid(m_bk_tvalid[k]),
          .m_tready(m_bk_tready[k]),
          .m_tdata(m_bk_tdata[k*VW+:VW]),
          .m_tuser(user),
          .m_tlast(m_bk_tlast[k])
      );
      // the core's window j is window k + K j of the MSM
      assign m_bk_tuser[k*UW+:UW] = {WW'(k) + WW'(user[UW-1-:WW] * cfg_cores), user[CMAX-2:0]};
    end
  endgenerate
endmodule
