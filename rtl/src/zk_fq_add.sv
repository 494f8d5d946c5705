// zk_fq_add -- pipelined modular addition.
//   REDUCE = 1: c = a + b mod q, canonical; requires a, b < q.
//   REDUCE = 0: c = a + b, lazy (redundant range; caller keeps c < 2^NB).
// Stage 1 forms s = a + b and s - q side by side, stage 2 (STAGES >= 2)
// selects; STAGES > 2 adds plain registers (for retiming). Latency: STAGES.
`include "zk_params.svh"
module zk_fq_add #(
    parameter integer         NB     = `ZK_NB,
    parameter logic   [511:0] Q      = `ZK_Q,
    parameter integer         REDUCE = 1,
    parameter integer         STAGES = 1
) (
    input  logic          clk,
    input  logic [NB-1:0] a,
    input  logic [NB-1:0] b,
    output logic [NB-1:0] c
);
  localparam logic [NB+1:0] QX = Q[NB+1:0];
  logic [NB+1:0] s;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [NB+1:0] d;  // unused when REDUCE == 0
  /* verilator lint_on UNUSEDSIGNAL */
  always_comb begin
    s = {2'b00, a} + {2'b00, b};
    d = s - QX;
  end
  logic [NB-1:0] r0, r1, y;
  logic          use1;
  generate
    if (REDUCE == 0) begin : g_lazy
      always_ff @(posedge clk) r0 <= s[NB-1:0];
      assign r1   = '0;
      assign use1 = 1'b0;
    end else begin : g_red
      always_ff @(posedge clk) begin
        r0 <= s[NB-1:0];
        r1 <= d[NB-1:0];
        use1 <= ~d[NB+1];  // s >= q
      end
    end
    if (STAGES >= 2) begin : g_sel2
      always_ff @(posedge clk) y <= use1 ? r1 : r0;
      zk_delay #(
          .W(NB),
          .N(STAGES - 2)
      ) u_del (
          .clk(clk),
          .d  (y),
          .q  (c)
      );
    end else begin : g_sel1
      assign y = use1 ? r1 : r0;
      assign c = y;
    end
  endgenerate
endmodule
