// zk_dp_aff_inv -- one modular inversion by the binary extended Euclidean
// algorithm, one step per cycle, in Montgomery form (R = 2^NB):
//
//   start: u = a, v = q, x1 = R^2 mod q, x2 = 0
//   step:  u or v even -> halve it and its x (mod q);
//          both odd, u > v -> u = (u - v)/2, x1 = (x1 - x2)/2 mod q;
//          else            -> v = (v - u)/2, x2 = (x2 - x1)/2 mod q
//   done:  u = 1 (result x1) or v = 1 (result x2); the state then holds.
//
// Invariants x1*a = R^2*u and x2*a = R^2*v (mod q), so the result is
// R^2/a: for a = A*R (A in Montgomery form) it is A^-1 * R, the Montgomery
// form of A^-1, canonical (< q). Every step before done halves u*v < 2q^2,
// so done comes within zk_dp_aff_il(QBITS) = 2*QBITS + 2 steps for any
// 0 < a < 2q with gcd(a, q) = 1 (q prime: a != q). a = 0 or a = q never
// finishes (result meaningless); zk_dp_aff never inverts a zero product.
// No multiplier, no DSP: four carry chains per step (below).
module zk_dp_aff_inv #(
    parameter integer         NB = 384,
    parameter logic   [511:0] Q  = 512'h1
) (
    input  logic          clk,
    input  logic          start,  // load a (the result of the previous start is lost)
    input  logic [NB-1:0] a,      // 0 < a < 2q, a != q
    output logic [NB-1:0] res     // a^-1 (Montgomery), valid zk_dp_aff_il(QBITS) cycles after start
);
`include "zk_funcs.svh"
  localparam logic [NB:0] QX = Q[NB:0];
  localparam logic [511:0] R2W = zk_mod_pow2(Q, 2 * NB);
  localparam logic [NB-1:0] R2 = R2W[NB-1:0];
  logic [NB-1:0] u, v, x1, x2;
  logic u1, v1;
  assign u1 = u == NB'(1);
  assign v1 = v == NB'(1);
  assign res = u1 ? x1 : x2;

  // The step's arithmetic, four carry chains. Every branch but the halving
  // of u or v ends in one "half mod q" of the side it updates, (y + k q)/2
  // with the sum even and in [0, 2q) so that its half is canonical; one
  // adder serves them all, its operands chosen after two parallel chains:
  //   uv = u - v (its borrow: u < v), vu = v - u;
  //   t = x1 - x2 (signed, |t| < q);
  //   halving u (u even) or v:  y = x1 or x2,   k = 1 if y odd, else 0;
  //   both odd, u >= v:          y = t,          k = 1 if t odd, else 2 if t < 0, else 0;
  //   both odd, u < v:           y = -t,         k = 1 if t odd, else 2 if t > 0, else 0.
  // t = 0 never reaches the odd cases: x1 = x2 means u = v (mod q) by the
  // invariants, so u = v for two odd values below 2q (their difference is
  // even, q odd), and u, v both odd and equal is done (u = v = 1); so
  // "t > 0" there is "t not negative".
  localparam logic [NB+1:0] Q1 = {1'b0, QX};
  localparam logic [NB+1:0] Q2 = {QX, 1'b0};
  /* verilator lint_off UNUSEDSIGNAL */
  logic [NB:0] uv, vu;  // bit 0 is 0 where used
  logic [NB+1:0] s;  // (y + k q): bit 0 and the top bit are 0
  /* verilator lint_on UNUSEDSIGNAL */
  assign uv = {1'b0, u} - {1'b0, v};
  assign vu = {1'b0, v} - {1'b0, u};
  logic [NB:0] t;  // x1 - x2, two's complement
  assign t = {1'b0, x1} - {1'b0, x2};
  logic odd, neg, sub, two;
  assign odd = u[0] && v[0];
  assign neg = uv[NB];
  assign sub = odd && neg;
  assign two = t[NB] != neg;  // k = 2 when t is even (odd cases)
  logic [NB+1:0] ys, kq;
  assign ys = odd ? {t[NB], t} : {2'b0, u[0] ? x2 : x1};
  assign kq = (odd ? t[0] : ys[0]) ? Q1 : (odd && two) ? Q2 : '0;
  assign s = sub ? kq - ys : kq + ys;

  always_ff @(posedge clk) begin
    if (start) begin
      u  <= a;
      v  <= QX[NB-1:0];
      x1 <= R2;
      x2 <= '0;
    end else if (!u1 && !v1) begin
      if (!u[0]) begin
        u  <= u >> 1;
        x1 <= s[NB:1];
      end else if (!v[0]) begin
        v  <= v >> 1;
        x2 <= s[NB:1];
      end else if (!neg) begin
        u  <= uv[NB:1];
        x1 <= s[NB:1];
      end else begin
        v  <= vu[NB:1];
        x2 <= s[NB:1];
      end
    end
  end
endmodule
