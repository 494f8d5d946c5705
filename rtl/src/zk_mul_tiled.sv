// zk_mul_tiled -- unsigned WA x WB product from TA x TB tiles.
//
// TA x TB = 26 x 17 is the unsigned view of a DSP48E2 27 x 18 signed
// multiplier: every tile product maps to exactly one DSP. Stage 1 registers
// the tile products (the DSP M register), stage 2 sums the shifted tiles.
// Latency: zk_tiled_lat().
`include "zk_params.svh"
module zk_mul_tiled #(
    parameter integer WA = 48,
    parameter integer WB = 48,
    parameter integer TA = `ZK_TA,
    parameter integer TB = `ZK_TB
) (
    input  logic               clk,
    input  logic [     WA-1:0] a,
    input  logic [     WB-1:0] b,
    output logic [WA+WB-1:0]   p
);
`include "zk_funcs.svh"
  localparam integer NTA = zk_cdiv(WA, TA);
  localparam integer NTB = zk_cdiv(WB, TB);
  localparam integer AW = NTA * TA + NTB * TB;  // accumulator width

  logic [NTA*TA-1:0] ap;
  logic [NTB*TB-1:0] bp;
  always_comb begin
    ap = '0;
    ap[WA-1:0] = a;
    bp = '0;
    bp[WB-1:0] = b;
  end

  logic [TA+TB-1:0] pr[NTA*NTB];
  always_ff @(posedge clk) begin
    for (int i = 0; i < NTA; i++)
      for (int j = 0; j < NTB; j++)
        pr[i*NTB+j] <= ap[i*TA +: TA] * bp[j*TB +: TB];
  end

  logic [AW-1:0] acc, tmp;
  always_comb begin
    acc = '0;
    for (int i = 0; i < NTA; i++)
      for (int j = 0; j < NTB; j++) begin
        tmp = '0;
        tmp[TA+TB-1:0] = pr[i*NTB+j];
        acc = acc + (tmp << (i * TA + j * TB));
      end
  end
  always_ff @(posedge clk) p <= acc[WA+WB-1:0];
endmodule
