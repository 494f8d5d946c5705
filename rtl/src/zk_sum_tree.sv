// zk_sum_tree -- pipelined sum (mod 2^W) of N W-bit words, F words per adder
// per level, one register per level. Latency: zk_tree_lat(N, F).
module zk_sum_tree #(
    parameter integer N = 8,
    parameter integer W = 32,
    parameter integer F = 4
) (
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic           clk,  // unused when N == 1
    /* verilator lint_on UNUSEDSIGNAL */
    input  logic [N*W-1:0] x,
    output logic [  W-1:0] y
);
`include "zk_funcs.svh"
  generate
    if (N == 1) begin : g_leaf
      assign y = x;
    end else begin : g_level
      localparam integer G = zk_cdiv(N, F);
      logic [G*W-1:0] s;
      logic [  W-1:0] acc[G];
      always_comb begin
        for (int g = 0; g < G; g++) begin
          acc[g] = '0;
          for (int k = 0; k < F; k++)
            if (g * F + k < N) acc[g] = acc[g] + x[(g*F+k)*W +: W];
        end
      end
      always_ff @(posedge clk)
        for (int g = 0; g < G; g++) s[g*W +: W] <= acc[g];
      zk_sum_tree #(
          .N(G),
          .W(W),
          .F(F)
      ) u_next (
          .clk(clk),
          .x  (s),
          .y  (y)
      );
    end
  endgenerate
endmodule
