// Timing stand-in for zk_mul_tiled (rtl/synth/sta.sh STA_STUBS=
// "zk_mul_tiled"): registered inputs, the product port driven from those
// registers (every output bit depends on an input, so nothing downstream
// folds away). Timing zk_fq_mul or zk_kmul around it measures the
// Karatsuba recombinations, the reduction and the final addition at full
// width; the base multiplier's own stages are timed on a reduced-width
// multiplier with the same tile sizes. Same parameters and ports as
// zk_mul_tiled; not a multiplier.
module zk_mul_tiled #(
    parameter integer WA = 48,
    parameter integer WB = 48,
    parameter integer TA = 26,
    parameter integer TB = 17,
    parameter integer CHAIN = 0,
    parameter integer BC = 0,
    parameter logic [WB-1:0] BV = '0
) (
    input  logic             clk,
    input  logic [   WA-1:0] a,
    input  logic [   WB-1:0] b,
    output logic [WA+WB-1:0] p
);
  logic [WA-1:0] ar;
  logic [WB-1:0] br, bx;
  always_comb
    for (int i = 0; i < WB; i++) bx[i] = (BC != 0) ? ar[i%WA] ^ BV[i] : br[i];
  always_ff @(posedge clk) begin
    ar <= a;
    br <= b;
    p  <= {ar, bx};
  end
endmodule
