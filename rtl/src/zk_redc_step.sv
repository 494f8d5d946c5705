// zk_redc_step -- one word of word-serial Montgomery reduction:
//   m     = -t * q^-1 mod 2^RW
//   t_out = (t + m*q) / 2^RW          (exact: the low RW bits cancel)
// m*q is a constant multiplication done in shift-add form on the width-WIN
// NAF of q: the odd multiples m, 3m, ..., (2^(WIN-1)-1)m are formed once, then
// one +/- shifted copy per non-zero wNAF digit is summed by a FANIN-ary
// pipelined adder tree. No DSPs. q^-1 mod 2^RW is applied as a shift-add too
// (for BLS12-377 q = 1 + 3*2^46 mod 2^48, so q^-1 = 1 + 2^46 mod 2^48: two terms).
// Latency: zk_redc_step_lat(Q, WIN, FANIN).
module zk_redc_step #(
    parameter integer         QBITS = 377,
    parameter logic   [511:0] Q     = 512'h1,
    parameter integer         TW    = 768,       // width of t_in
    parameter integer         RW    = 48,        // reduction word
    parameter integer         WIN   = 4,         // wNAF window
    parameter integer         FANIN = 8,         // adder-tree fan-in per level
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
  localparam integer NT = zk_wnaf_count(DIG, 512);  // number of terms
  localparam integer NODD = 1 << (WIN - 2);  // odd multiples 1, 3, ..
  localparam integer MW = RW + WIN - 1;  // width of (2^(WIN-1)-1)*m
  localparam integer PW = RW + QBITS;  // m*q < 2^PW
  localparam integer TL = zk_tree_lat(NT, FANIN);
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

  // ---- wNAF terms: one shifted (and possibly negated) odd multiple per digit
  logic [NT*PW-1:0] terms;
  genvar p;
  generate
    for (p = 0; p < QBITS + 1; p++) begin : g_dig
      localparam logic [7:0] D = DIG[8*p +: 8];
      if (D != 8'd0) begin : g_term
        localparam integer IDX = zk_wnaf_count(DIG, p);
        localparam logic NEG = D[7];
        localparam logic [7:0] MAG = NEG ? -D : D;
        localparam integer J = (32'(MAG) - 1) / 2;
        logic [PW-1:0] e;
        always_comb begin
          e = '0;
          e[MW-1:0] = om[J];
          e = e << p;
        end
        assign terms[IDX*PW +: PW] = NEG ? -e : e;
      end
    end
  endgenerate

  logic [PW-1:0] mq;
  zk_sum_tree #(
      .N(NT),
      .W(PW),
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
  logic [SW-1:0] ta, tb;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [SW-1:0] s;  // low RW bits are zero by construction
  /* verilator lint_on UNUSEDSIGNAL */
  always_comb begin
    ta = '0;
    tb = '0;
    ta[TW-1:0] = td;
    tb[PW-1:0] = mq;
    s = ta + tb;
  end
  always_ff @(posedge clk) t_out <= s[SW-1:RW];
endmodule
