// zk_fq_mul -- fully pipelined Montgomery multiplier, c = a*b/2^NB mod q,
// one product per cycle.
//
//   Karatsuba product (zk_kmul, 3^LEVELS tiled base multipliers = DSPs)
//   -> RW < NB: NB/RW word-serial reduction steps (zk_redc_step, shift-add,
//      no DSPs; the variant, RW = 48);
//   -> RW = NB (the default, ZK_RW = 384): one-word reduction, m =
//      t*(-q^-1) mod 2^NB in LUTs (zk_mont_lo) and m*q by a second
//      Karatsuba product (twice the DSPs, far fewer LUTs).
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
module `ZK_FQ_MUL #(  // zk_fq_mul unless renamed (zk_params.svh)
    parameter integer         NB     = `ZK_NB,
    parameter integer         QBITS  = `ZK_QBITS,
    parameter logic   [511:0] Q      = `ZK_Q,
    parameter integer         LEVELS = `ZK_LEVELS,   // Karatsuba levels
    parameter integer         TA     = `ZK_TA,  // tile width, DSP A port (unsigned)
    parameter integer         TB     = `ZK_TB,  // tile width, DSP B port (unsigned)
    parameter integer         RW     = `ZK_RW,  // Montgomery reduction word (NB: one-word variant)
    parameter integer         WIN    = `ZK_WIN,   // wNAF window of q
    parameter integer         FANIN  = `ZK_FANIN,    // reduction adder-tree fan-in
    parameter integer         SPLIT  = `ZK_SPLIT,  // reduction: final add over 2 stages
    parameter integer         KARA   = 1,  // Karatsuba: 1 additive, 0 subtractive (zk_kmul)
    parameter integer         QCONST = 1   // RW = NB: m*q with q a constant operand (zk_kmul BC)
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
  localparam integer LATENCY = zk_fq_mul_lat(Q, NB, LEVELS, RW, WIN, FANIN, SPLIT);
  localparam integer TWMAX = 2 * NB;

  logic [TWMAX-1:0] prod;
  zk_kmul #(
      .W(NB),
      .LEVELS(LEVELS),
      .TA(TA),
      .TB(TB),
      .SPLIT(SPLIT),
      .CHAIN(RW == NB ? 1 : 0),  // the one-word variant also sums tile rows in DSPs
      .KARA(KARA)
  ) u_kmul (
      .clk(clk),
      .a  (a),
      .b  (b),
      .p  (prod)
  );

  generate
    if (RW == NB) begin : g_mont1
      // One-word Montgomery (CycloneMSM's arrangement): with t = prod,
      //   m = (t mod 2^NB) * (-q^-1) mod 2^NB     (zk_mont_lo, LUTs)
      //   c = (t + m*q) / 2^NB                    (m*q: a second zk_kmul, DSPs)
      // t + m*q = 0 mod 2^NB, so the low halves sum to 2^NB exactly when
      // t mod 2^NB != 0 (else m = 0): c = t_hi + (m*q)_hi + (t_lo != 0),
      // and the low half of m*q is never added.
      localparam integer WW = zk_mont_ww(0);
      localparam integer ML = zk_mont_lo_lat(Q, NB, WW, WIN);
      localparam integer KL = zk_kmul_lat(LEVELS, SPLIT);
      logic [NB-1:0] m, thi;
      logic nz, nz1;
      zk_mont_lo #(
          .NB(NB),
          .K(zk_neg_inv(Q, NB)),
          .WW(WW),
          .WIN(WIN)
      ) u_m (
          .clk(clk),
          .x  (prod[NB-1:0]),
          .y  (m)
      );
      /* verilator lint_off UNUSEDSIGNAL */
      logic [TWMAX-1:0] mq;  // low half: 2^NB - t_lo, not needed
      /* verilator lint_on UNUSEDSIGNAL */
      zk_kmul #(
          .W(NB),
          .LEVELS(LEVELS),
          .TA(TA),
          .TB(TB),
          .SPLIT(SPLIT),
          .CHAIN(1),
          .KARA(KARA),
          .BC(QCONST),
          .BV(Q[NB-1:0])
      ) u_kmq (
          .clk(clk),
          .a  (m),
          .b  (Q[NB-1:0]),
          .p  (mq)
      );
      always_ff @(posedge clk) nz1 <= |prod[NB-1:0];
      zk_delay #(
          .W(NB),
          .N(ML + KL)
      ) u_thi (
          .clk(clk),
          .d  (prod[TWMAX-1:NB]),
          .q  (thi)
      );
      zk_delay #(
          .W(1),
          .N(ML + KL - 1)
      ) u_nz (
          .clk(clk),
          .d  (nz1),
          .q  (nz)
      );
      // c < t/2^NB + q < 2q (see the range note above): fits NB bits
      always_ff @(posedge clk) c <= thi + mq[TWMAX-1:NB] + {{(NB - 1) {1'b0}}, nz};
    end else begin : g_serial
      localparam integer NSTEP = NB / RW;
      // NB / RW steps reduce by 2^NB only when RW divides NB: any other
      // width fails to elaborate instead of computing another function
      if (NB % RW != 0) begin : g_rw_must_divide_nb
        zk_fq_mul_rw_must_divide_nb u_bad ();
      end
      logic [TWMAX-1:0] tv[NSTEP+1];
      always_comb tv[0] = prod;
      genvar s;
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
      assign c = tv[NSTEP][NB-1:0];
    end
  endgenerate

  zk_valid_pipe #(
      .N(LATENCY)
  ) u_vld (
      .clk(clk),
      .rst(rst),
      .d  (in_valid),
      .q  (out_valid)
  );
endmodule
