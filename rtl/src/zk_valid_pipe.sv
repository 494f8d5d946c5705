// zk_valid_pipe -- N-cycle (N >= 1) delay of a valid bit, synchronous reset.
module zk_valid_pipe #(
    parameter integer N = 1
) (
    input  logic clk,
    input  logic rst,
    input  logic d,
    output logic q
);
  generate
    if (N == 1) begin : g_one
      always_ff @(posedge clk) q <= rst ? 1'b0 : d;
    end else begin : g_regs
      logic [N-1:0] r;
      always_ff @(posedge clk) r <= rst ? '0 : {r[N-2:0], d};
      assign q = r[N-1];
    end
  endgenerate
endmodule
