// zk_tri_tree -- pipelined binary sum (mod 2^W) of N W-bit words whose bits
// below S[i] are zero (S: 16 bits per word, non-decreasing in i). Each adder
// spans only the bits its two words can both occupy: word 2g's bits below
// S[2g+1] pass through, the rest is one (W - S[2g+1])-bit addition, and the
// pair's start is S[2g]. The low triangle of zk_mont_lo costs about half of
// what full-width rows would. One register per level; latency
// zk_tree_lat(N, 2).
module zk_tri_tree #(
    parameter integer          N = 8,
    parameter integer          W = 32,
    parameter logic   [2047:0] S = 2048'b0  // start bit of word i at [16*i +: 16]
) (
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic           clk,  // unused when N == 1
    input  logic [N*W-1:0] x,    // bits below S[i] of word i: zero, not read
    /* verilator lint_on UNUSEDSIGNAL */
    output logic [  W-1:0] y
);
`include "zk_funcs.svh"
  generate
    if (N == 1) begin : g_leaf
      assign y = x;
    end else begin : g_level
      localparam integer G = (N + 1) / 2;
      logic [G*W-1:0] s;
      genvar g;
      for (g = 0; g < G; g++) begin : g_pair
        localparam integer B = (2 * g + 1 < N) ? {16'b0, S[16*(2*g+1)+:16]} : 0;  // < W
        if (2 * g + 1 < N && B == 0) begin : g_add
          always_ff @(posedge clk) s[g*W+:W] <= x[2*g*W+:W] + x[(2*g+1)*W+:W];
        end else if (2 * g + 1 < N) begin : g_add_hi
          always_ff @(posedge clk)
            s[g*W+:W] <= {x[2*g*W+B+:W-B] + x[(2*g+1)*W+B+:W-B], x[2*g*W+:B]};
        end else begin : g_pass
          always_ff @(posedge clk) s[g*W+:W] <= x[2*g*W+:W];
        end
      end
      zk_tri_tree #(
          .N(G),
          .W(W),
          .S(zk_tri_next(S, N))
      ) u_next (
          .clk(clk),
          .x  (s),
          .y  (y)
      );
    end
  endgenerate
endmodule
