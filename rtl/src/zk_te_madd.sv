// zk_te_madd -- fully pipelined mixed point adder on the twisted Edwards
// (a = -1) form of BLS12-377, extended projective + precomputed affine:
//
//   P1 = (X1 : Y1 : Z1 : T1),   P2 = (y2 - x2, y2 + x2, k*x2*y2), k = 2d
//   A = (Y1-X1)(y2-x2)  B = (Y1+X1)(y2+x2)  C = T1 * k x2 y2  D = 2 Z1
//   E = B-A  F = D-C  G = D+C  H = B+A
//   X3 = E F  Y3 = G H  T3 = E H  Z3 = F G                    (7 mul)
//
// in_sub = 1 adds -P2 = (y2 + x2, y2 - x2, -k x2 y2): a swap and q - kxy.
// No special cases: identity (0:1:1:0), P+P and P-P go through the same
// datapath. One issue per cycle; the tag (bucket index, window, ...) and
// valid travel alongside. Latency: zk_te_madd_lat(mul latency).
//
// Ranges: X1..T1 < 2q (what this adder produces), P2 canonical (< q); the
// device aggregation's converted bucket (zk_te_agg_in: y-x, y+x < 4q,
// kxy < 2q, never subtracted) stays within the same bounds.
// Lazy add/sub keep every multiplier input < 6q <= IN_BOUND (12q) and every
// output < 2q, so no modular reduction is needed anywhere.
`include "zk_params.svh"
module zk_te_madd #(
    parameter integer         NB     = `ZK_NB,
    parameter integer         QBITS  = `ZK_QBITS,
    parameter logic   [511:0] Q      = `ZK_Q,
    parameter integer         LEVELS = `ZK_LEVELS,
    parameter integer         TA     = `ZK_TA,
    parameter integer         TB     = `ZK_TB,
    parameter integer         RW     = `ZK_RW,
    parameter integer         WIN    = `ZK_WIN,
    parameter integer         FANIN  = `ZK_FANIN,
    parameter integer         SPLIT  = `ZK_SPLIT,  // reduction: final add over 2 stages
    parameter integer         KARA   = 1,  // multiplier variant (zk_fq_mul)
    parameter integer         QCONST = 1,  // multiplier variant (zk_fq_mul)
    parameter integer         TAGW   = 32
) (
    input  logic            clk,
    input  logic            rst,       // clears the valid pipeline only
    input  logic            in_valid,
    input  logic            in_sub,
    input  logic [TAGW-1:0] in_tag,
    input  logic [  NB-1:0] x1,
    input  logic [  NB-1:0] y1,
    input  logic [  NB-1:0] z1,
    input  logic [  NB-1:0] t1,
    input  logic [  NB-1:0] p_ymx,
    input  logic [  NB-1:0] p_ypx,
    input  logic [  NB-1:0] p_kxy,
    output logic            out_valid,
    output logic [TAGW-1:0] out_tag,
    output logic [  NB-1:0] x3,
    output logic [  NB-1:0] y3,
    output logic [  NB-1:0] z3,
    output logic [  NB-1:0] t3
);
`include "zk_funcs.svh"
  localparam integer MLAT = zk_fq_mul_lat(Q, NB, LEVELS, RW, WIN, FANIN, SPLIT);
  localparam integer LATENCY = zk_te_madd_lat(MLAT);
  localparam logic [NB-1:0] QN = Q[NB-1:0];

  // ---- stage 1: lazy add/sub, operand swap for subtraction
  logic [NB-1:0] ymx1, ypx1, d1, pa, pb, pc, tt;
  zk_fq_sub #(
      .NB(NB),
      .Q(Q),
      .REDUCE(0),
      .OFS(2)
  ) u_ymx (
      .clk(clk),
      .a  (y1),
      .b  (x1),
      .c  (ymx1)
  );
  zk_fq_add #(
      .NB(NB),
      .Q(Q),
      .REDUCE(0)
  ) u_ypx (
      .clk(clk),
      .a  (y1),
      .b  (x1),
      .c  (ypx1)
  );
  zk_fq_add #(
      .NB(NB),
      .Q(Q),
      .REDUCE(0)
  ) u_dbl (
      .clk(clk),
      .a  (z1),
      .b  (z1),
      .c  (d1)
  );
  always_ff @(posedge clk) begin
    pa <= in_sub ? p_ypx : p_ymx;
    pb <= in_sub ? p_ymx : p_ypx;
    pc <= in_sub ? QN - p_kxy : p_kxy;
    tt <= t1;
  end

  // ---- 3 multiplications
  logic [NB-1:0] ma, mb, mc, md;
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
      .SPLIT(SPLIT),
      .KARA(KARA),
      .QCONST(QCONST)
  ) u_mul_a (
      .clk(clk),
      .rst(1'b0),
      .in_valid(1'b0),
      .a(ymx1),
      .b(pa),
      .out_valid(),
      .c(ma)
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
      .SPLIT(SPLIT),
      .KARA(KARA),
      .QCONST(QCONST)
  ) u_mul_b (
      .clk(clk),
      .rst(1'b0),
      .in_valid(1'b0),
      .a(ypx1),
      .b(pb),
      .out_valid(),
      .c(mb)
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
      .SPLIT(SPLIT),
      .KARA(KARA),
      .QCONST(QCONST)
  ) u_mul_c (
      .clk(clk),
      .rst(1'b0),
      .in_valid(1'b0),
      .a(tt),
      .b(pc),
      .out_valid(),
      .c(mc)
  );
  zk_delay #(
      .W(NB),
      .N(MLAT)
  ) u_d_del (
      .clk(clk),
      .d  (d1),
      .q  (md)
  );

  // ---- stage 2: E = B - A, F = D - C, G = D + C, H = B + A (lazy)
  logic [NB-1:0] e2, f2, g2, h2;
  zk_fq_sub #(
      .NB(NB),
      .Q(Q),
      .REDUCE(0),
      .OFS(2)
  ) u_e (
      .clk(clk),
      .a  (mb),
      .b  (ma),
      .c  (e2)
  );
  zk_fq_sub #(
      .NB(NB),
      .Q(Q),
      .REDUCE(0),
      .OFS(2)
  ) u_f (
      .clk(clk),
      .a  (md),
      .b  (mc),
      .c  (f2)
  );
  zk_fq_add #(
      .NB(NB),
      .Q(Q),
      .REDUCE(0)
  ) u_g (
      .clk(clk),
      .a  (md),
      .b  (mc),
      .c  (g2)
  );
  zk_fq_add #(
      .NB(NB),
      .Q(Q),
      .REDUCE(0)
  ) u_h (
      .clk(clk),
      .a  (mb),
      .b  (ma),
      .c  (h2)
  );

  // ---- 4 multiplications
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
      .SPLIT(SPLIT),
      .KARA(KARA),
      .QCONST(QCONST)
  ) u_mul_x (
      .clk(clk),
      .rst(1'b0),
      .in_valid(1'b0),
      .a(e2),
      .b(f2),
      .out_valid(),
      .c(x3)
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
      .SPLIT(SPLIT),
      .KARA(KARA),
      .QCONST(QCONST)
  ) u_mul_y (
      .clk(clk),
      .rst(1'b0),
      .in_valid(1'b0),
      .a(g2),
      .b(h2),
      .out_valid(),
      .c(y3)
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
      .SPLIT(SPLIT),
      .KARA(KARA),
      .QCONST(QCONST)
  ) u_mul_t (
      .clk(clk),
      .rst(1'b0),
      .in_valid(1'b0),
      .a(e2),
      .b(h2),
      .out_valid(),
      .c(t3)
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
      .SPLIT(SPLIT),
      .KARA(KARA),
      .QCONST(QCONST)
  ) u_mul_z (
      .clk(clk),
      .rst(1'b0),
      .in_valid(1'b0),
      .a(f2),
      .b(g2),
      .out_valid(),
      .c(z3)
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // ---- side band: valid and tag
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
