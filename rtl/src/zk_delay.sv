// zk_delay -- N-cycle register delay line (N = 0: wire). No reset: data only.
module zk_delay #(
    parameter integer W = 1,
    parameter integer N = 1
) (
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic         clk,  // unused when N == 0
    /* verilator lint_on UNUSEDSIGNAL */
    input  logic [W-1:0] d,
    output logic [W-1:0] q
);
  generate
    if (N == 0) begin : g_wire
      assign q = d;
    end else if (N == 1) begin : g_one
      always_ff @(posedge clk) q <= d;
    end else begin : g_regs
      logic [N*W-1:0] r;
      always_ff @(posedge clk) r <= {r[(N-1)*W-1:0], d};
      assign q = r[N*W-1 -: W];
    end
  endgenerate
endmodule
