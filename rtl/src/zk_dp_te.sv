`include "zk_params.svh"
// zk_dp_te -- the core's curve datapath: zk_te_madd behind the datapath
// ports the core uses (zk_dp_int has the same ports).
//
//   bucket = {T, Z, Y, X}      extended twisted Edwards, Montgomery form, < 2q
//   point  = {kxy, y+x, y-x}   precomputed affine point, canonical
//   out    = bucket + point (in_sub: bucket - point), same form as bucket
//
// Latency: zk_te_madd_lat(zk_fq_mul_lat(...)) registers (74 by default, 110 with RW = 48).
module zk_dp_te #(
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
    parameter integer         TAGW   = 16
) (
    input  logic            clk,
    input  logic            rst,
    input  logic            in_valid,
    input  logic            in_sub,
    input  logic [TAGW-1:0] in_tag,
    input  logic [4*NB-1:0] bucket,
    input  logic [3*NB-1:0] point,
    output logic            out_valid,
    output logic [TAGW-1:0] out_tag,
    output logic [4*NB-1:0] out_value
);
  zk_te_madd #(
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
      .TAGW(TAGW)
  ) u_add (
      .clk(clk),
      .rst(rst),
      .in_valid(in_valid),
      .in_sub(in_sub),
      .in_tag(in_tag),
      .x1(bucket[0*NB+:NB]),
      .y1(bucket[1*NB+:NB]),
      .z1(bucket[2*NB+:NB]),
      .t1(bucket[3*NB+:NB]),
      .p_ymx(point[0*NB+:NB]),
      .p_ypx(point[1*NB+:NB]),
      .p_kxy(point[2*NB+:NB]),
      .out_valid(out_valid),
      .out_tag(out_tag),
      .x3(out_value[0*NB+:NB]),
      .y3(out_value[1*NB+:NB]),
      .z3(out_value[2*NB+:NB]),
      .t3(out_value[3*NB+:NB])
  );
endmodule
