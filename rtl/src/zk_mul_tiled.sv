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
    parameter integer TB = `ZK_TB,
    // 1: sum each row of tiles (one TA-bit slice of a times all of b) as a
    // chain c_j = tile_j + (c_(j-1) >> TB), every c_j < 2^(TA+TB+1) <= 2^48
    // (the shape of a DSP48E2 post-adder; Yosys 0.23 leaves the additions
    // in fabric, as narrow adders), then the NTA rows across the full
    // width. 0: every shifted tile added across the full width.
    parameter integer CHAIN = 0,
    // 1: b is the constant BV (port b unused): constant tile operands, and
    // Yosys drops the tiles whose slice of BV is zero
    parameter integer BC = 0,
    parameter logic [WB-1:0] BV = '0
) (
    input  logic               clk,
    input  logic [     WA-1:0] a,
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic [     WB-1:0] b,  // unused when BC = 1
    /* verilator lint_on UNUSEDSIGNAL */
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
    bp[WB-1:0] = (BC != 0) ? BV : b;
  end

  logic [TA+TB-1:0] pr[NTA*NTB];
  always_ff @(posedge clk) begin
    for (int i = 0; i < NTA; i++)
      for (int j = 0; j < NTB; j++)
        pr[i*NTB+j] <= ap[i*TA +: TA] * bp[j*TB +: TB];
  end

  generate
    if (CHAIN == 0) begin : g_lut
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
    end else begin : g_chain
      localparam integer CW = TA + TB + 1;  // c_j < 2^(TA+TB) + 2^(TA+1) (TA >= TB)
      logic [CW-1:0] c[NTA*NTB];
      logic [AW-1:0] acc, row;
      always_comb begin
        for (int i = 0; i < NTA; i++)
          for (int j = 0; j < NTB; j++)
            if (j == 0) c[i*NTB] = {1'b0, pr[i*NTB]};
            else c[i*NTB+j] = {1'b0, pr[i*NTB+j]} + (c[i*NTB+j-1] >> TB);
        acc = '0;
        for (int i = 0; i < NTA; i++) begin
          row = '0;
          for (int j = 0; j < NTB - 1; j++) row[j*TB+:TB] = c[i*NTB+j][TB-1:0];
          row[(NTB-1)*TB+:CW] = c[i*NTB+NTB-1];
          acc = acc + (row << (i * TA));
        end
      end
      always_ff @(posedge clk) p <= acc[WA+WB-1:0];
    end
  endgenerate
endmodule
