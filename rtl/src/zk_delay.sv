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
    end else begin : g_regs
      logic [W-1:0] r[N+1];
      assign r[0] = d;
      genvar i;
      for (i = 1; i <= N; i++) begin : g_stage
        always_ff @(posedge clk) r[i] <= r[i-1];
      end
      assign q = r[N];
    end
  endgenerate
endmodule
