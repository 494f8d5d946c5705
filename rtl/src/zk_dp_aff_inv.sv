// zk_dp_aff_inv -- one modular inversion in Montgomery form (R = 2^NB),
// one step per cycle, a fixed zk_dp_aff_il(NB) = 2*NB + 1 steps: the
// binary extended Euclidean algorithm in the "almost inverse" form
// (Kaliski's Montgomery inverse, its correction done as doublings mod q as
// in Savas and Koc's revision), so that every x update is one addition:
//
//   start: u = q, v = a, x1 = 0, x2 = 1, k = 0
//   gcd phase, k += 1 each step but the last:
//     u even -> u = u/2, x2 = 2 x2;     v even -> v = v/2, x1 = 2 x1;
//     both odd, u > v -> u = (u - v)/2, x1 = x1 + x2, x2 = 2 x2;
//     both odd, u < v -> v = (v - u)/2, x2 = x1 + x2, x1 = 2 x1;
//     both odd, u = v (then u = v = 1) -> the gcd phase ends, x2 holds;
//   doubling phase, every step left: x2 = 2 x2 mod q, k += 1.
//
// Invariants a x1 = -u 2^k, a x2 = v 2^k (mod q) and x1 v + x2 u = q, so
// 0 <= x1, x2 <= q in the gcd phase without any reduction, and it ends with
// u = v = 1, x1 + x2 = q, x1 >= 1: x2 < q, a x2 = 2^k. The gcd phase takes at
// most 2*QBITS + 1 steps (each one before the last halves u*v < 2q^2), so
// 2*NB + 1 steps always reach the doubling phase, and after them k = 2*NB:
// res = R^2/a, for a = A*R (A in Montgomery form) the Montgomery form of
// A^-1, canonical (< q). The unit then holds it until the next start.
// Valid for 0 < a < 2q, a != q, q an odd prime < 2^(NB-2) (so that
// gcd(a, q) = 1). a = 0 never ends its gcd phase and a = q ends it at once
// (results meaningless); zk_dp_aff never inverts a zero product.
//
// The step's longest path is one NB-bit carry chain (u - v, whose sign
// picks the branch) and the multiplexers after it; x1 + x2 and 2 x2 - q
// are chains beside it. No multiplier, no DSP.
module zk_dp_aff_inv #(
    parameter integer         NB = 384,
    parameter logic   [511:0] Q  = 512'h1
) (
    input  logic          clk,
    input  logic          start,  // load a (the result of the previous start is lost)
    input  logic [NB-1:0] a,      // 0 < a < 2q, a != q
    output logic [NB-1:0] res     // a^-1 (Montgomery), valid zk_dp_aff_il(NB) cycles after start
);
`include "zk_funcs.svh"
  localparam integer IL = zk_dp_aff_il(NB);
  localparam integer CW = $clog2(IL + 1);
  localparam logic [NB:0] QX = Q[NB:0];
  logic [NB-1:0] u, v, x1, x2;
  logic [CW-1:0] left;  // steps still to take
  logic gcd;  // in the gcd phase
  assign res = x2;

  /* verilator lint_off UNUSEDSIGNAL */
  logic [NB:0] uv, vu, xd;  // bit 0 of uv and vu is 0 where used
  /* verilator lint_on UNUSEDSIGNAL */
  logic [NB-1:0] xs;
  assign uv = {1'b0, u} - {1'b0, v};
  assign vu = {1'b0, v} - {1'b0, u};
  assign xs = x1 + x2;  // <= q: no carry out
  assign xd = {x2, 1'b0} - QX;  // 2 x2 - q: negative when 2 x2 < q
  logic neg, same;
  assign neg = uv[NB];
  assign same = u == v;

  always_ff @(posedge clk) begin
    if (start) begin
      u <= QX[NB-1:0];
      v <= a;
      x1 <= '0;
      x2 <= NB'(1);
      gcd <= 1'b1;
      left <= CW'(IL);
    end else if (left != '0) begin
      left <= left - CW'(1);
      if (!gcd) x2 <= xd[NB] ? {x2[NB-2:0], 1'b0} : xd[NB-1:0];
      else if (!u[0]) begin
        u  <= u >> 1;
        x2 <= {x2[NB-2:0], 1'b0};
      end else if (!v[0]) begin
        v  <= v >> 1;
        x1 <= {x1[NB-2:0], 1'b0};
      end else if (same) gcd <= 1'b0;
      else if (!neg) begin
        u  <= uv[NB:1];
        x1 <= xs;
        x2 <= {x2[NB-2:0], 1'b0};
      end else begin
        v  <= vu[NB:1];
        x2 <= xs;
        x1 <= {x1[NB-2:0], 1'b0};
      end
    end
  end
endmodule
