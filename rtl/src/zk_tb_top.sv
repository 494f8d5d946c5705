// zk_tb_top -- test-bench top: the multiplier, the reduced add/sub pipes and
// the mixed point adder side by side, with their computed latencies on ports
// (ports survive Yosys flattening, parameters do not).
// Builds choose their DUTs by define (a -G override would also reach the
// hierarchical blocks under Verilator --hierarchical).
`include "zk_params.svh"
`ifndef ZK_TB_WITH_FQ
`define ZK_TB_WITH_FQ 1
`endif
`ifndef ZK_TB_WITH_PA
`define ZK_TB_WITH_PA 1
`endif
// the multiplier variant under test: ZK_TB_RW = ZK_NB selects zk_fq_mul's
// one-word reduction (rtl/test.sh builds both)
`ifndef ZK_TB_RW
`define ZK_TB_RW `ZK_RW
`endif
// zk_fq_mul's KARA (1: additive Karatsuba, 0: subtractive) and QCONST
// (RW = NB: q a constant operand of the m*q product)
`ifndef ZK_TB_KARA
`define ZK_TB_KARA 1
`endif
`ifndef ZK_TB_QCONST
`define ZK_TB_QCONST 1
`endif
module zk_tb_top #(
    parameter integer         NB     = `ZK_NB,
    parameter integer         QBITS  = `ZK_QBITS,
    parameter logic   [511:0] Q      = `ZK_Q,
    parameter integer         LEVELS = `ZK_LEVELS,
    parameter integer         TA     = `ZK_TA,
    parameter integer         TB     = `ZK_TB,
    parameter integer         RW     = `ZK_TB_RW,
    parameter integer         WIN    = `ZK_WIN,
    parameter integer         FANIN  = `ZK_FANIN,
    parameter integer         SPLIT  = `ZK_SPLIT,  // reduction: final add over 2 stages
    parameter integer         KARA   = `ZK_TB_KARA,
    parameter integer         QCONST = `ZK_TB_QCONST,
    parameter integer         AS_STG = 2,  // add/sub pipe stages
    parameter integer         TAGW   = 32,
    // which DUTs this build contains (separate simulation models are much
    // cheaper than one with idle pipelines): multiplier + add/sub, adder
    parameter integer         WITH_FQ = `ZK_TB_WITH_FQ,
    parameter integer         WITH_PA = `ZK_TB_WITH_PA
) (
    // (inputs of a DUT left out by WITH_FQ / WITH_PA are unused)
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic            clk,
    input  logic            rst,
    // multiplier
    input  logic            mul_in_valid,
    input  logic [  NB-1:0] mul_a,
    input  logic [  NB-1:0] mul_b,
    output logic            mul_out_valid,
    output logic [  NB-1:0] mul_c,
    // add / sub (canonical)
    input  logic            as_in_valid,
    input  logic [  NB-1:0] as_a,
    input  logic [  NB-1:0] as_b,
    output logic            as_out_valid,
    output logic [  NB-1:0] as_sum,
    output logic [  NB-1:0] as_diff,
    // point adder
    input  logic            pa_in_valid,
    input  logic            pa_in_sub,
    input  logic [TAGW-1:0] pa_in_tag,
    input  logic [  NB-1:0] pa_x1,
    input  logic [  NB-1:0] pa_y1,
    input  logic [  NB-1:0] pa_z1,
    input  logic [  NB-1:0] pa_t1,
    input  logic [  NB-1:0] pa_ymx,
    input  logic [  NB-1:0] pa_ypx,
    input  logic [  NB-1:0] pa_kxy,
    /* verilator lint_on UNUSEDSIGNAL */
    output logic            pa_out_valid,
    output logic [TAGW-1:0] pa_out_tag,
    output logic [  NB-1:0] pa_x3,
    output logic [  NB-1:0] pa_y3,
    output logic [  NB-1:0] pa_z3,
    output logic [  NB-1:0] pa_t3,
    // computed latencies
    output logic [    15:0] lat_mul,
    output logic [    15:0] lat_as,
    output logic [    15:0] lat_pa
);
`include "zk_funcs.svh"
  localparam integer MLAT = zk_fq_mul_lat(Q, NB, LEVELS, RW, WIN, FANIN, SPLIT);
  assign lat_mul = 16'(MLAT);
  assign lat_as  = 16'(AS_STG);
  assign lat_pa  = 16'(zk_te_madd_lat(MLAT));

  generate
    if (WITH_FQ != 0) begin : g_fq
    `ZK_FQ_MUL #(
        .NB(NB),
        .QBITS(QBITS),
        .Q(Q),
        .LEVELS(LEVELS),
        .TA(TA),
        .TB(TB),
        .RW(RW),
        .WIN(WIN),
        .FANIN(FANIN),
        .SPLIT(SPLIT),
        .KARA(KARA),
        .QCONST(QCONST)
    ) u_mul (
        .clk(clk),
        .rst(rst),
        .in_valid(mul_in_valid),
        .a(mul_a),
        .b(mul_b),
        .out_valid(mul_out_valid),
        .c(mul_c)
    );

    zk_fq_add #(
        .NB(NB),
        .Q(Q),
        .REDUCE(1),
        .STAGES(AS_STG)
    ) u_add (
        .clk(clk),
        .a  (as_a),
        .b  (as_b),
        .c  (as_sum)
    );
    zk_fq_sub #(
        .NB(NB),
        .Q(Q),
        .REDUCE(1),
        .STAGES(AS_STG)
    ) u_sub (
        .clk(clk),
        .a  (as_a),
        .b  (as_b),
        .c  (as_diff)
    );
    zk_valid_pipe #(
        .N(AS_STG)
    ) u_as_vld (
        .clk(clk),
        .rst(rst),
        .d  (as_in_valid),
        .q  (as_out_valid)
    );
    end else begin : g_no_fq
      assign mul_out_valid = 1'b0;
      assign mul_c = '0;
      assign as_out_valid = 1'b0;
      assign as_sum = '0;
      assign as_diff = '0;
    end
    if (WITH_PA != 0) begin : g_pa
    zk_te_madd #(
        .NB(NB),
        .QBITS(QBITS),
        .Q(Q),
        .LEVELS(LEVELS),
        .TA(TA),
        .TB(TB),
        .RW(RW),
        .WIN(WIN),
        .FANIN(FANIN),
        .SPLIT(SPLIT),
        .KARA(KARA),
        .QCONST(QCONST),
        .TAGW(TAGW)
    ) u_pa (
        .clk(clk),
        .rst(rst),
        .in_valid(pa_in_valid),
        .in_sub(pa_in_sub),
        .in_tag(pa_in_tag),
        .x1(pa_x1),
        .y1(pa_y1),
        .z1(pa_z1),
        .t1(pa_t1),
        .p_ymx(pa_ymx),
        .p_ypx(pa_ypx),
        .p_kxy(pa_kxy),
        .out_valid(pa_out_valid),
        .out_tag(pa_out_tag),
        .x3(pa_x3),
        .y3(pa_y3),
        .z3(pa_z3),
        .t3(pa_t3)
    );
    end else begin : g_no_pa
      assign pa_out_valid = 1'b0;
      assign pa_out_tag = '0;
      assign pa_x3 = '0;
      assign pa_y3 = '0;
      assign pa_z3 = '0;
      assign pa_t3 = '0;
    end
  endgenerate
endmodule
