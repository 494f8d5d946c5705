`include "zk_params.svh"
// zk_dp_aff_tb -- test-bench top of the batched-affine adder (rtl/tb/zk_aff_tb.cpp):
// zk_dp_aff on BLS12-381 (define ZK_AFF_TB_381) or BLS12-377 (default),
// its computed latency on a port (ports survive Yosys flattening, parameters
// do not). The curve is chosen by define, not -G, so that the override does
// not reach the multiplier's hierarchical block under Verilator.
`ifdef ZK_AFF_TB_381
`define ZK_AFF_TB_Q `ZK_Q_BLS12_381
`define ZK_AFF_TB_QBITS `ZK_QBITS_BLS12_381
`else
`define ZK_AFF_TB_Q `ZK_Q
`define ZK_AFF_TB_QBITS `ZK_QBITS
`endif
// the multiplier's reduction (ZK_AFF_TB_RW = 48: word-serial)
`ifndef ZK_AFF_TB_RW
`define ZK_AFF_TB_RW `ZK_RW
`endif
module zk_dp_aff_tb #(
    parameter integer         NB    = `ZK_NB,
    parameter integer         QBITS = `ZK_AFF_TB_QBITS,
    parameter logic   [511:0] Q     = `ZK_AFF_TB_Q,
    parameter integer         RW    = `ZK_AFF_TB_RW,
    parameter integer         TAGW  = 32
) (
    input  logic            clk,
    input  logic            rst,
    input  logic            in_valid,
    input  logic            in_sub,
    input  logic [TAGW-1:0] in_tag,
    input  logic [  2*NB:0] bucket,
    input  logic [2*NB-1:0] point,
    output logic            out_valid,
    output logic [TAGW-1:0] out_tag,
    output logic [  2*NB:0] out_value,
    output logic [    15:0] lat
);
`include "zk_funcs.svh"
  localparam integer MLAT = zk_fq_mul_lat(Q, NB, `ZK_LEVELS, RW, `ZK_WIN, `ZK_FANIN, `ZK_SPLIT);
  assign lat = 16'(zk_dp_aff_lat(MLAT, NB, 0, 0, `ZK_AFF_SHARE));
  zk_dp_aff #(
      .NB(NB),
      .QBITS(QBITS),
      .Q(Q),
      .RW(RW),
      .TAGW(TAGW)
  ) u_dut (
      .clk(clk),
      .rst(rst),
      .in_valid(in_valid),
      .in_sub(in_sub),
      .in_tag(in_tag),
      .bucket(bucket),
      .point(point),
      .out_valid(out_valid),
      .out_tag(out_tag),
      .out_value(out_value)
  );
endmodule
