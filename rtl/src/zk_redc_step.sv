// zk_redc_step -- one word of word-serial Montgomery reduction:
//   m     = -t * q^-1 mod 2^RW
//   t_out = (t + m*q) / 2^RW          (exact: the low RW bits cancel)
// m*q is a constant multiplication done in shift-add form on the width-WIN
// NAF of q: the odd multiples m, 3m, ..., (2^(WIN-1)-1)m are formed once, then
// one +/- shifted copy per non-zero wNAF digit is summed by a FANIN-ary
// pipelined adder tree. No DSPs. q^-1 mod 2^RW is applied as a shift-add too
// (for BLS12-377 q = 1 + 3*2^46 mod 2^48, so q^-1 = 1 + 2^46 mod 2^48: two terms).
// Latency: zk_redc_step_lat(Q, RW, WIN, FANIN, SPLIT).
`include "zk_params.svh"
module zk_redc_step #(
    parameter integer         QBITS = `ZK_QBITS,
    parameter logic   [511:0] Q     = 512'h1,
    parameter integer         TW    = 768,       // width of t_in
    parameter integer         RW    = `ZK_RW,        // reduction word
    parameter integer         WIN   = `ZK_WIN,         // wNAF window
    parameter integer         FANIN = `ZK_FANIN,         // adder-tree fan-in per level
    parameter integer         SPLIT = `ZK_SPLIT,         // final add over 2 stages (shorter carry chains)
    // width of t_out; must equal zk_redc_ow(TW, QBITS, RW) (the caller computes it)
    parameter integer         OW    = TW + 1 - RW
) (
    input  logic          clk,
    input  logic [TW-1:0] t_in,
    output logic [OW-1:0] t_out
);
`include "zk_funcs.svh"
  localparam logic [63:0] QINV = zk_inv2w(Q[63:0], RW);
  localparam logic [4095:0] DIG = zk_wnaf(Q, WIN);
  localparam integer NODD = 1 << (WIN - 2);  // odd multiples 1, 3, ..
  localparam integer MW = RW + WIN - 1;  // width of (2^(WIN-1)-1)*m
  localparam integer PW = RW + QBITS;  // m*q < 2^PW
  // tree width: PW rounded up to whole 32-bit words (cheaper to simulate;
  // synthesis trims the unused top bits)
  localparam integer PWA = 32 * ((PW + 31) / 32);
  localparam integer SW = ((TW > PW) ? TW : PW) + 1;  // t + m*q

  // ---- stage 1: m = -t*q^-1 mod 2^RW, odd multiples of m
  logic [RW-1:0] macc, m;
  logic [MW-1:0] om_c[NODD];
  logic [MW-1:0] mx, mk;
  always_comb begin
    macc = '0;
    for (int i = 0; i < RW; i++)
      if (QINV[i]) macc = macc + (t_in[RW-1:0] << i);
    m  = -macc;
    mx = '0;
    mx[RW-1:0] = m;
    for (int j = 0; j < NODD; j++) begin
      mk = '0;
      for (int i = 0; i < WIN; i++)
        if ((((2 * j + 1) >> i) & 1) != 0) mk = mk + (mx << i);
      om_c[j] = mk;
    end
  end
  logic [MW-1:0] om[NODD];
  logic [TW-1:0] t1;
  always_ff @(posedge clk) begin
    t1 <= t_in;
    for (int j = 0; j < NODD; j++) om[j] <= om_c[j];
  end

  // ---- wNAF terms packed into rows: one shifted odd multiple per digit
  // (complemented for negative digits), non-overlapping terms concatenated
  // into one row; plus one constant row correcting the complements.
  localparam logic [4095:0] ROWOF = zk_pack(DIG, MW, 0);
  localparam integer NR = zk_pack_nrows(DIG, MW);
  localparam integer TL = zk_tree_lat(NR + 1, FANIN);
  localparam logic [511:0] KC = zk_pack_const(DIG, MW);
  localparam integer XW = (QBITS + 1 + MW > PWA) ? QBITS + 1 + MW : PWA;  // row width
  logic [XW-1:0] rows[NR];
  logic [(NR+1)*PWA-1:0] terms;
  localparam integer NT = zk_wnaf_nz(DIG);  // non-zero digits
  // zk_terms holds 128 digits: a q with more fails to elaborate
  // (BLS12-377 62, BLS12-381 68)
  generate
    if (NT > 128) begin : g_overflow
      zk_redc_step_table_overflow u_overflow ();
    end
  endgenerate
  localparam logic [5119:0] TT = zk_terms(DIG, ROWOF);
  always_comb begin
    for (int r = 0; r < NR; r++) rows[r] = '0;
    // all indices are constants once the loop is unrolled
    /* verilator lint_off WIDTH */
    for (int k = 0; k < NT; k++)
      rows[TT[40*k+16 +: 8]][TT[40*k +: 16] +: MW] =
          TT[40*k+32] ? ~om[TT[40*k+24 +: 8]] : om[TT[40*k+24 +: 8]];
    /* verilator lint_on WIDTH */
    for (int r = 0; r < NR; r++) terms[r*PWA +: PWA] = rows[r][PWA-1:0];
    terms[NR*PWA +: PWA] = KC[PWA-1:0];
  end

  /* verilator lint_off UNUSEDSIGNAL */
  logic [PWA-1:0] mq;  // m*q < 2^PW
  /* verilator lint_on UNUSEDSIGNAL */
  zk_sum_tree #(
      .N(NR + 1),
      .W(PWA),
      .F(FANIN)
  ) u_tree (
      .clk(clk),
      .x  (terms),
      .y  (mq)
  );
  logic [TW-1:0] td;
  zk_delay #(
      .W(TW),
      .N(TL)
  ) u_tdel (
      .clk(clk),
      .d  (t1),
      .q  (td)
  );

  // ---- final: (t + m*q) >> RW
  // SPLIT = 0: one SW-bit addition. SPLIT = 1: the low PW bits first (the
  // only part m*q touches), then the carry into t's upper bits, one stage
  // each, so no carry chain is longer than max(PW, TW - PW) + 1 bits.
  generate
    if (SPLIT != 0 && TW > PW) begin : g_split
      logic [PW:0] lo;
      logic [TW-PW-1:0] hi;
      always_ff @(posedge clk) begin
        lo <= {1'b0, td[PW-1:0]} + {1'b0, mq[PW-1:0]};
        hi <= td[TW-1:PW];
      end
      /* verilator lint_off UNUSEDSIGNAL */
      logic [TW-PW:0] hs;
      /* verilator lint_on UNUSEDSIGNAL */
      always_comb hs = {1'b0, hi} + {{(TW - PW) {1'b0}}, lo[PW]};
      always_ff @(posedge clk) t_out <= {hs[OW-(PW-RW)-1:0], lo[PW-1:RW]};
    end else begin : g_one
      logic [SW-1:0] ta, tb;
      /* verilator lint_off UNUSEDSIGNAL */
      logic [SW-1:0] s;  // low RW bits are zero by construction
      /* verilator lint_on UNUSEDSIGNAL */
      always_comb begin
        ta = '0;
        tb = '0;
        ta[TW-1:0] = td;
        tb[PW-1:0] = mq[PW-1:0];
        s = ta + tb;
      end
      if (SPLIT != 0) begin : g_extra
        // same latency as the split form
        logic [OW-1:0] r;
        always_ff @(posedge clk) r <= s[SW-1:RW];
        always_ff @(posedge clk) t_out <= r;
      end else begin : g_direct
        always_ff @(posedge clk) t_out <= s[SW-1:RW];
      end
    end
  endgenerate
endmodule
