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
// No multiplier, no DSP: u - v, x1 - x2 (+q), (x + q)/2 per step.
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

  // (x + (x odd ? q : 0)) / 2 for x < q
  function automatic logic [NB-1:0] f_half(input logic [NB-1:0] x);
    /* verilator lint_off UNUSEDSIGNAL */
    logic [NB:0] s;  // bit 0 is 0
    /* verilator lint_on UNUSEDSIGNAL */
    s = {1'b0, x} + (x[0] ? QX : '0);
    f_half = s[NB:1];
  endfunction
  // (a - b) mod q for a, b < q
  function automatic logic [NB-1:0] f_sub(input logic [NB-1:0] x, input logic [NB-1:0] y);
    logic [NB:0] s;
    s = {1'b0, x} - {1'b0, y};
    if (s[NB]) s = s + QX;
    f_sub = s[NB-1:0];
  endfunction

  logic [NB:0] uv;  // u - v, borrow in the top bit
  assign uv = {1'b0, u} - {1'b0, v};
  always_ff @(posedge clk) begin
    if (start) begin
      u  <= a;
      v  <= QX[NB-1:0];
      x1 <= R2;
      x2 <= '0;
    end else if (!u1 && !v1) begin
      if (!u[0]) begin
        u  <= u >> 1;
        x1 <= f_half(x1);
      end else if (!v[0]) begin
        v  <= v >> 1;
        x2 <= f_half(x2);
      end else if (!uv[NB]) begin
        u  <= uv[NB:1];
        x1 <= f_half(f_sub(x1, x2));
      end else begin
        v  <= (v - u) >> 1;
        x2 <= f_half(f_sub(x2, x1));
      end
    end
  end
endmodule
