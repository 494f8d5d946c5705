// zk_fq_mul -- fully pipelined Montgomery multiplier, c = a*b/2^NB mod q,
// one product per cycle.
//
//   Karatsuba product (zk_kmul, 3^LEVELS tiled base multipliers = DSPs)
//   -> NB/RW word-serial reduction steps (zk_redc_step, shift-add, no DSPs).
//
// Range: inputs a, b < IN_BOUND = 12q (redundant) give c < 2q, because
// c < a*b/2^NB + q and (12q)^2 < 2^NB * q for BLS12-377 (2^384 > 152q).
// Inputs in [0,2q) are therefore closed under the multiplier and under the
// lazy add/sub used by the curve adder. Latency: LATENCY (computed).
//
// The multiplier is one hierarchical unit for the tools: Yosys keeps it
// (keep_hierarchy: synthesized once, instantiated seven times in the adder;
// `prep -flatten` flattens everything else), and Verilator compiles it once
// as a hierarchical block (--hierarchical) instead of once per instance.
`include "zk_params.svh"
(* keep_hierarchy *)
module zk_fq_mul #(
    parameter integer         NB     = `ZK_NB,
    parameter integer         QBITS  = `ZK_QBITS,
    parameter logic   [511:0] Q      = `ZK_Q,
    parameter integer         LEVELS = `ZK_LEVELS,   // Karatsuba levels
    parameter integer         TA     = `ZK_TA,  // tile width, DSP A port (unsigned)
    parameter integer         TB     = `ZK_TB,  // tile width, DSP B port (unsigned)
    parameter integer         RW     = `ZK_RW,  // Montgomery reduction word
    parameter integer         WIN    = `ZK_WIN,   // wNAF window of q
    parameter integer         FANIN  = `ZK_FANIN,    // reduction adder-tree fan-in
    parameter integer         SPLIT  = `ZK_SPLIT  // reduction: final add over 2 stages
) (
    input  logic          clk,
    input  logic          rst,       // clears the valid pipeline only
    input  logic          in_valid,
    input  logic [NB-1:0] a,
    input  logic [NB-1:0] b,
    output logic          out_valid,
    output logic [NB-1:0] c
);
`include "zk_funcs.svh"
  /* verilator hier_block */
  localparam integer NSTEP = NB / RW;
  localparam integer LATENCY = zk_fq_mul_lat(Q, NB, LEVELS, RW, WIN, FANIN, SPLIT);
  localparam integer TWMAX = 2 * NB;

  logic [TWMAX-1:0] tv[NSTEP+1];
  logic [TWMAX-1:0] prod;
  zk_kmul #(
      .W(NB),
      .LEVELS(LEVELS),
      .TA(TA),
      .TB(TB),
      .SPLIT(SPLIT)
  ) u_kmul (
      .clk(clk),
      .a  (a),
      .b  (b),
      .p  (prod)
  );
  always_comb tv[0] = prod;

  genvar s;
  generate
    for (s = 0; s < NSTEP; s++) begin : g_step
      localparam integer TWI = zk_redc_tw(NB, QBITS, RW, s);
      localparam integer TWO = zk_redc_ow(TWI, QBITS, RW);
      logic [TWO-1:0] to;
      zk_redc_step #(
          .QBITS(QBITS),
          .Q(Q),
          .TW(TWI),
          .RW(RW),
          .WIN(WIN),
          .FANIN(FANIN),
          .SPLIT(SPLIT),
          .OW(TWO)
      ) u_step (
          .clk  (clk),
          .t_in (tv[s][TWI-1:0]),
          .t_out(to)
      );
      always_comb begin
        tv[s+1] = '0;
        tv[s+1][TWO-1:0] = to;
      end
    end
  endgenerate
  assign c = tv[NSTEP][NB-1:0];

  zk_valid_pipe #(
      .N(LATENCY)
  ) u_vld (
      .clk(clk),
      .rst(rst),
      .d  (in_valid),
      .q  (out_valid)
  );
endmodule
