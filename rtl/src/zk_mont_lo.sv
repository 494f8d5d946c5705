// zk_mont_lo -- low-half constant multiplication y = x * K mod 2^NB, in LUTs.
//
// Montgomery's m = (t mod 2^NB) * (-q^-1) mod 2^NB for zk_fq_mul's one-word
// reduction (RW = NB). x is cut into WW-bit words; each word's odd multiples
// 1, 3, .., 2^(WIN-1)-1 are formed once, then one shifted copy per non-zero
// wNAF digit of K that lands below bit NB (complemented for negative digits,
// one constant row corrects that), terms that do not overlap concatenated
// into one row (first fit in bit order, so row r starts no lower than row
// r - 1), rows summed by a binary tree whose adders span only the bits both
// inputs can occupy (zk_tri_tree). Only the low triangle of x*K is built:
// about NB^2/2/(WIN+1) bits of additions. Latency: zk_mont_lo_lat(Q, NB, WW, WIN).
`include "zk_params.svh"
module zk_mont_lo #(
    parameter integer         NB    = `ZK_NB,
    parameter logic   [511:0] K     = 512'h1,  // the constant, < 2^NB
    parameter integer         WW    = 48,        // word width of x (the last word zero-padded)
    parameter integer         WIN   = `ZK_WIN    // wNAF window (>= 3 for NB = 384)
) (
    input  logic          clk,
    input  logic [NB-1:0] x,
    output logic [NB-1:0] y
);
`include "zk_funcs.svh"
  localparam integer NW = (NB + WW - 1) / WW;  // (NB = 256: five words and 16 bits)
  localparam integer NODD = 1 << (WIN - 2);  // odd multiples 1, 3, ..
  localparam integer MW = WW + WIN - 1;  // width of (2^(WIN-1)-1)*word
  localparam logic [4095:0] DIG = zk_wnaf(K, WIN);
  localparam logic [16415:0] TT = zk_lo_terms(DIG, NB, WW, MW);
  localparam integer NT = {16'b0, TT[16384+:16]};
  localparam integer NR = {16'b0, TT[16400+:16]};
  localparam logic [511:0] KC = zk_lo_const(DIG, NB, WW, MW);
  // a constant whose table would overflow zk_lo_terms (512 terms, 128 rows)
  // fails to elaborate instead of dropping terms (every 382-bit q tried has
  // at most ~390 terms: BLS12-377 231, BLS12-381 303)
  generate
    if (NT >= 512 || NR >= 127) begin : g_overflow
      zk_mont_lo_table_overflow u_overflow ();
    end
  endgenerate

  // ---- stage 1: odd multiples of every word
  logic [MW-1:0] om_c[NW*NODD];
  logic [MW-1:0] om[NW*NODD];
  logic [MW-1:0] wx, mk;
  logic [NW*WW-1:0] xp;
  assign xp = (NW * WW)'(x);
  always_comb begin
    for (int w = 0; w < NW; w++) begin
      wx = '0;
      wx[WW-1:0] = xp[w*WW+:WW];
      for (int j = 0; j < NODD; j++) begin
        mk = '0;
        for (int i = 0; i < WIN; i++) if ((((2 * j + 1) >> i) & 1) != 0) mk = mk + (wx << i);
        om_c[w*NODD+j] = mk;
      end
    end
  end
  always_ff @(posedge clk) for (int k = 0; k < NW * NODD; k++) om[k] <= om_c[k];

  // ---- rows (bits at or above NB dropped), then the tree
  logic [NB+MW-1:0] rows[NR];
  logic [(NR+1)*NB-1:0] terms;
  always_comb begin
    for (int r = 0; r < NR; r++) rows[r] = '0;
    // all indices are constants once the loop is unrolled
    /* verilator lint_off WIDTH */
    for (int k = 0; k < NT; k++)
      rows[TT[32*k+16+:8]][TT[32*k+:16]+:MW] =
          TT[32*k+31] ? ~om[TT[32*k+24+:4]*NODD+TT[32*k+28+:3]]
                      : om[TT[32*k+24+:4]*NODD+TT[32*k+28+:3]];
    /* verilator lint_on WIDTH */
    // input 0: the constant; input r + 1: row r (rows start in bit order)
    terms[0+:NB] = KC[NB-1:0];
    for (int r = 0; r < NR; r++) terms[(r+1)*NB+:NB] = rows[r][NB-1:0];
  end
  zk_tri_tree #(
      .N(NR + 1),
      .W(NB),
      .S(zk_lo_starts(TT))
  ) u_tree (
      .clk(clk),
      .x  (terms),
      .y  (y)
  );
endmodule
