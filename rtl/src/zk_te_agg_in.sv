// zk_te_agg_in -- the device aggregation's conversion in front of the
// twisted Edwards adder (zk_core_agg on DP = 1): a bucket + bucket addition
// B1 + B2 of extended points enters zk_te_madd as a mixed one. The adder
// computes A = (Y1-X1) p_ymx, B = (Y1+X1) p_ypx, C = T1 p_kxy, D = 2 z1,
// Hisil et al.'s unified addition once it is given
//
//   bucket = {T1, Z1 Z2, Y1, X1}      point = {k T2, Y2 + X2, Y2 - X2}
//
// (D = 2 Z1 Z2, C = T1 k T2): two multiplications, Z1 Z2 and k T2 with k
// in Montgomery form (ZK_TE_K, the form of a point's k x y), and the lazy
// Y2 - X2 and Y2 + X2 kept beside them. No special cases: the identity
// (0 : 1 : 1 : 0), B1 = B2 and B1 = -B2 go through the same formula.
//
// Ranges: buckets < 2q (the adder's output); the products are < 2q, Y2 - X2
// (+ 2q) and Y2 + X2 are < 4q, within the multipliers' 12q
// (zk_te_madd's A and B). Never a subtraction (in_sub = 0): the adder's
// q - p_kxy needs p_kxy < q.
//
// Latency: zk_te_agg_lat(zk_fq_mul_lat(...)), valid and tag alongside.
`include "zk_params.svh"
module zk_te_agg_in #(
    parameter integer         NB     = `ZK_NB,
    parameter integer         QBITS  = `ZK_QBITS,
    parameter logic   [511:0] Q      = `ZK_Q,
    parameter logic   [511:0] K      = `ZK_TE_K,
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
    input  logic            rst,        // clears the valid pipeline only
    input  logic            in_valid,
    input  logic [TAGW-1:0] in_tag,
    input  logic [4*NB-1:0] dst,        // B1 = {T1, Z1, Y1, X1}
    input  logic [4*NB-1:0] src,        // B2 = {T2, Z2, Y2, X2}
    output logic            out_valid,
    output logic [TAGW-1:0] out_tag,
    output logic [4*NB-1:0] bucket,     // {T1, Z1 Z2, Y1, X1}
    output logic [3*NB-1:0] point       // {k T2, Y2 + X2, Y2 - X2}
);
`include "zk_funcs.svh"
  localparam integer MLAT = zk_fq_mul_lat(Q, NB, LEVELS, RW, WIN, FANIN, SPLIT);
  localparam integer LATENCY = zk_te_agg_lat(MLAT);

  logic [NB-1:0] x2, y2, z2, t2, z12, kt2, ymx2, ypx2;
  assign {t2, z2, y2, x2} = src;

  /* verilator lint_off PINCONNECTEMPTY */
  `ZK_FQ_MUL #(
      .NB(NB),
      .QBITS(QBITS),
      .Q(Q),
      .LEVELS(LEVELS),
      .TA(TA),
      .TB(TB),
      .RW(RW),
      .WIN(WIN),
      .FANIN(FANIN),
      .SPLIT(SPLIT)
  ) u_mul_z (
      .clk(clk),
      .rst(1'b0),
      .in_valid(1'b0),
      .a(dst[2*NB+:NB]),
      .b(z2),
      .out_valid(),
      .c(z12)
  );
  `ZK_FQ_MUL #(
      .NB(NB),
      .QBITS(QBITS),
      .Q(Q),
      .LEVELS(LEVELS),
      .TA(TA),
      .TB(TB),
      .RW(RW),
      .WIN(WIN),
      .FANIN(FANIN),
      .SPLIT(SPLIT)
  ) u_mul_k (
      .clk(clk),
      .rst(1'b0),
      .in_valid(1'b0),
      .a(t2),
      .b(K[NB-1:0]),
      .out_valid(),
      .c(kt2)
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // the lazy sum and difference, registered to the multipliers' latency
  zk_fq_sub #(
      .NB(NB),
      .Q(Q),
      .REDUCE(0),
      .OFS(2),
      .STAGES(LATENCY)
  ) u_ymx (
      .clk(clk),
      .a  (y2),
      .b  (x2),
      .c  (ymx2)
  );
  zk_fq_add #(
      .NB(NB),
      .Q(Q),
      .REDUCE(0),
      .STAGES(LATENCY)
  ) u_ypx (
      .clk(clk),
      .a  (y2),
      .b  (x2),
      .c  (ypx2)
  );

  // B1's X, Y and T wait for Z1 Z2
  logic [NB-1:0] x1, y1, t1;
  zk_delay #(
      .W(3 * NB),
      .N(LATENCY)
  ) u_d_b1 (
      .clk(clk),
      .d  ({dst[3*NB+:NB], dst[1*NB+:NB], dst[0*NB+:NB]}),
      .q  ({t1, y1, x1})
  );
  assign bucket = {t1, z12, y1, x1};
  assign point  = {kt2, ypx2, ymx2};

  zk_valid_pipe #(
      .N(LATENCY)
  ) u_vld (
      .clk(clk),
      .rst(rst),
      .d  (in_valid),
      .q  (out_valid)
  );
  zk_delay #(
      .W(TAGW),
      .N(LATENCY)
  ) u_tag (
      .clk(clk),
      .d  (in_tag),
      .q  (out_tag)
  );
endmodule
