// zk_fq_sub -- pipelined modular subtraction.
//   REDUCE = 1: c = a - b mod q, canonical; requires a, b < q.
//   REDUCE = 0: c = a + OFS*q - b, lazy; requires b <= OFS*q (c stays
//               non-negative) and a + OFS*q < 2^NB.
// Stage 1 forms a - b and a - b + q side by side, stage 2 (STAGES >= 2)
// selects; STAGES > 2 adds plain registers. Latency: STAGES.
`include "zk_params.svh"
module zk_fq_sub #(
    parameter integer         NB     = `ZK_NB,
    parameter logic   [511:0] Q      = `ZK_Q,
    parameter integer         REDUCE = 1,
    parameter integer         OFS    = 2,
    parameter integer         STAGES = 1
) (
    input  logic          clk,
    input  logic [NB-1:0] a,
    input  logic [NB-1:0] b,
    output logic [NB-1:0] c
);
  localparam logic [NB+1:0] QX = Q[NB+1:0];
  /* verilator lint_off WIDTH */
  localparam logic [NB+1:0] OFSX = OFS;  // zero-extended
  /* verilator lint_on WIDTH */
  localparam logic [NB+1:0] KQ = QX * OFSX;
  logic [NB+1:0] d;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [NB+1:0] e;  // a - b + q (or + OFS*q) is < 2^NB by contract
  /* verilator lint_on UNUSEDSIGNAL */
  always_comb begin
    d = {2'b00, a} - {2'b00, b};
    e = d + ((REDUCE != 0) ? QX : KQ);
  end
  logic [NB-1:0] r0, r1, y;
  logic          use1;
  generate
    if (REDUCE == 0) begin : g_lazy
      always_ff @(posedge clk) r0 <= e[NB-1:0];
      assign r1   = '0;
      assign use1 = 1'b0;
    end else begin : g_red
      always_ff @(posedge clk) begin
        r0 <= d[NB-1:0];
        r1 <= e[NB-1:0];
        use1 <= d[NB+1];  // a < b
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
