// Timing stand-in for zk_fq_mul (rtl/synth/sta.sh STA_STUBS="zk_fq_mul"):
// registered inputs, a registered output one XOR behind them. Timing the
// adder around it then measures the adder's own stages (the lazy add/sub,
// the operand swap, q - kxy); the multiplier is timed on its own.
// Same parameters and ports as zk_fq_mul; not a multiplier.
module zk_fq_mul #(
    parameter integer         NB     = 384,
    parameter integer         QBITS  = 377,
    parameter logic   [511:0] Q      = 512'h1,
    parameter integer         LEVELS = 3,
    parameter integer         TA     = 26,
    parameter integer         TB     = 17,
    parameter integer         RW     = 384,
    parameter integer         WIN    = 4,
    parameter integer         FANIN  = 4,
    parameter integer         SPLIT  = 1,
    parameter integer         KARA   = 1,
    parameter integer         QCONST = 1
) (
    input  logic          clk,
    input  logic          rst,
    input  logic          in_valid,
    input  logic [NB-1:0] a,
    input  logic [NB-1:0] b,
    output logic          out_valid,
    output logic [NB-1:0] c
);
  logic [NB-1:0] ar, br;
  logic vr;
  always_ff @(posedge clk) begin
    ar <= a;
    br <= b;
    vr <= rst ? 1'b0 : in_valid;
    c <= ar ^ br;
    out_valid <= rst ? 1'b0 : vr;
  end
endmodule
