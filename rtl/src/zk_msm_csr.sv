// zk_msm_csr -- control and status registers of zk_msm_top, an AXI4-Lite
// slave (32-bit data, byte addresses, one transaction of each kind at a
// time, OKAY responses; writes to read-only or unknown registers are
// ignored, reads of unknown ones return 0).
//
//   0x00 ID          RO  0x5A4B4D31 ("ZKM1")
//   0x04 CONFIG      RO  {DP, RQ, LOCK, log2(PD), BRL, CMAX} (bytes; the second
//                        byte from the top holds RQ (bit 7), LOCK (6), log2(PD) (5:0))
//   0x08 LATENCY     RO  {HZ, DLAT} (16 bits each)
//   0x0C CTRL        WO  bit 0: START (taken when STATUS.ready)
//   0x10 STATUS      RO  bit 0 ready, 1 busy, 2 done (since the last START),
//                        4 bad digit, 5 tlast misplaced, 6 bad window size,
//                        7 point stream out of step with the digits
//   0x14 N           RW  points per window
//   0x18 C           RW  window size c (1..CMAX)
//   0x1C WINDOWS     RW  windows
//   0x20 POINTS_LO   RW  byte address of point 0 in point memory
//   0x24 POINTS_HI   RW
//   0x28..0x67       RO  64-bit counters, low word first: CYCLES, ACC_CYCLES,
//                        ISSUED, CONFLICTS, STALLS, BUBBLES, ZERO_DIGITS,
//                        RO_STALLS (zk_msm_core defines them)
//   0x68 PENDING_HWM RO
//   0x6C TOP         RW  bucket bits of the last window (zk_msm_core cfg_top;
//                        31 after reset: no spreading)
//   0x70 WIDTHS      RO  {bucket value bits, point bits} (16 bits each)
//   0x74 CORES       RW  cores in use K, 1..NCORES (other values are
//                        ignored; NCORES after reset): window w on core w mod K
//   0x78 MULTI       RO  {FD, NCORES} (16 bits each): cores built, fan-out
//                        FIFO depth (0: no fan-out, one core)
//   0x7C..0x83       RO  64-bit counter FANOUT_STALLS: cycles a point beat
//                        waited for a core's full fan-out FIFO
//   0x84 AGG         RW  log2 m of the device's bucket aggregation (zk_core_agg;
//                        0 after reset: every bucket to the host); reads 0 and
//                        ignores writes on a build without it (AGG = 0)
//   0x88 AGG_LAT     RO  cycles between an aggregation's reads and its slot
//                        in the adder beyond the other cores' (zk_msm_core
//                        ACL: the twisted Edwards conversion; 0 otherwise)
module zk_msm_csr #(
    parameter integer NW = 32,
    parameter integer WW = 8,
    parameter logic [31:0] CONFIG = 32'h0,
    parameter logic [31:0] WIDTHS = 32'h0,
    parameter integer NCORES = 1,
    parameter integer FD = 0,
    parameter integer AGG = 0
) (
    input  logic          clk,
    input  logic          rst,
    // AXI4-Lite slave
    input  logic          s_awvalid,
    output logic          s_awready,
    input  logic [   7:0] s_awaddr,
    input  logic          s_wvalid,
    output logic          s_wready,
    input  logic [  31:0] s_wdata,
    input  logic [   3:0] s_wstrb,
    output logic          s_bvalid,
    input  logic          s_bready,
    output logic [   1:0] s_bresp,
    input  logic          s_arvalid,
    output logic          s_arready,
    input  logic [   7:0] s_araddr,
    output logic          s_rvalid,
    input  logic          s_rready,
    output logic [  31:0] s_rdata,
    output logic [   1:0] s_rresp,
    // to the core and the point reader
    output logic          start,
    output logic [NW-1:0] cfg_n,
    output logic [   4:0] cfg_c,
    output logic [WW-1:0] cfg_windows,
    output logic [WW-1:0] cfg_cores,
    output logic [  63:0] cfg_points,
    output logic [   4:0] cfg_top,
    output logic [   4:0] cfg_agg,
    // status
    input  logic          ready,
    input  logic          busy,
    input  logic          done_pulse,
    input  logic [   3:0] errors,
    input  logic [  15:0] lat_dp,
    input  logic [  15:0] lat_hz,
    input  logic [  15:0] lat_ag,
    input  logic [ 511:0] counters,  // eight, counter k at [64k +: 64]
    input  logic [  15:0] pending_hwm,
    input  logic [  63:0] fanout_stalls
);
  // ---- write channel
  logic aw_have, w_have;
  logic [7:0] aw_q;
  logic [31:0] w_q;
  logic [3:0] ws_q;
  logic done;
  assign s_awready = !aw_have && !s_bvalid;
  assign s_wready = !w_have && !s_bvalid;
  assign s_bresp = 2'b00;
  always_ff @(posedge clk) begin
    if (rst) begin
      aw_have <= 1'b0;
      w_have <= 1'b0;
      s_bvalid <= 1'b0;
      start <= 1'b0;
      cfg_n <= '0;
      cfg_c <= 5'd1;
      cfg_windows <= '0;
      cfg_cores <= WW'(NCORES);
      cfg_points <= '0;
      cfg_top <= 5'd31;
      cfg_agg <= 5'd0;
      done <= 1'b0;
    end else begin
      start <= 1'b0;
      if (s_awvalid && s_awready) begin
        aw_have <= 1'b1;
        aw_q <= s_awaddr;
      end
      if (s_wvalid && s_wready) begin
        w_have <= 1'b1;
        w_q <= s_wdata;
        ws_q <= s_wstrb;
      end
      if (aw_have && w_have) begin
        aw_have <= 1'b0;
        w_have <= 1'b0;
        s_bvalid <= 1'b1;
        if (ws_q == 4'hf)
          case (aw_q)
            8'h0C: if (w_q[0] && ready) start <= 1'b1;
            8'h14: cfg_n <= NW'(w_q);
            8'h18: cfg_c <= w_q[4:0];
            8'h1C: cfg_windows <= WW'(w_q);
            8'h20: cfg_points[31:0] <= w_q;
            8'h24: cfg_points[63:32] <= w_q;
            8'h6C: cfg_top <= w_q[4:0];
            8'h84: if (AGG != 0) cfg_agg <= w_q[4:0];
            8'h74: if (w_q != 0 && w_q <= NCORES) cfg_cores <= WW'(w_q);
            default: ;
          endcase
      end
      if (s_bvalid && s_bready) s_bvalid <= 1'b0;
      if (start) done <= 1'b0;
      if (done_pulse) done <= 1'b1;
    end
  end

  // ---- read channel
  logic [31:0] rd;
  always_comb begin
    rd = 32'h0;
    case (s_araddr)
      8'h00: rd = 32'h5A4B4D31;
      8'h04: rd = CONFIG;
      8'h08: rd = {lat_hz, lat_dp};
      8'h10: rd = {24'h0, errors, 1'b0, done, busy, ready};
      8'h14: rd = 32'(cfg_n);
      8'h18: rd = {27'h0, cfg_c};
      8'h1C: rd = 32'(cfg_windows);
      8'h20: rd = cfg_points[31:0];
      8'h24: rd = cfg_points[63:32];
      8'h68: rd = {16'h0, pending_hwm};
      8'h6C: rd = {27'h0, cfg_top};
      8'h84: rd = {27'h0, cfg_agg};
      8'h88: rd = {16'h0, lat_ag};
      8'h70: rd = WIDTHS;
      8'h74: rd = 32'(cfg_cores);
      8'h78: rd = {16'(FD), 16'(NCORES)};
      8'h7C: rd = fanout_stalls[31:0];
      8'h80: rd = fanout_stalls[63:32];
      default:
      if (s_araddr >= 8'h28 && s_araddr < 8'h68)
        rd = counters[{s_araddr[5:3] - 3'd5, s_araddr[2], 5'd0}+:32];
    endcase
  end
  assign s_arready = !s_rvalid;
  assign s_rresp = 2'b00;
  always_ff @(posedge clk) begin
    if (rst) s_rvalid <= 1'b0;
    else if (s_arvalid && s_arready) begin
      s_rvalid <= 1'b1;
      s_rdata <= rd;
    end else if (s_rready) s_rvalid <= 1'b0;
  end
endmodule
