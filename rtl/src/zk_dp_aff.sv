`include "zk_params.svh"
// zk_dp_aff -- the batched-affine adder: short-Weierstrass (y^2 = x^3 + b)
// bucket +/- point in affine coordinates, one operation per cycle, with the
// divisions of a batch of B = NCH * LEN consecutive cycles sharing one
// inversion per chain (Montgomery's trick in interleaved chains). The same
// ports as zk_dp_te / zk_dp_int, so the core can instantiate it in their place.
//
//   bucket = {inf, y1, x1}   point = {y2, x2}   out = {inf, y3, x3}
//   x, y: Montgomery form (R = 2^NB), canonical (< q), on the curve;
//   inf = 1: the point at infinity (x, y ignored; produced as 0, 0).
//   in_sub = 1 adds -point (y2 -> q - y2). Any modulus q < 2^(NB-2) (the
//   multiplier's inputs stay below 2q); no curve constant is needed.
//
// Cases (all in the pipeline, chosen per operation):
//   bucket inf             -> point (+/-)               denominator 1
//   x1 != x2               -> chord, lambda = (y2 - y1)/(x2 - x1)
//   x1 == x2, y1 == y2 != 0 -> tangent, lambda = 3 x1^2 / (2 y1)
//   x1 == x2 otherwise     -> infinity (P - P, and 2P for a point with y = 0) denominator 1
//   x3 = lambda^2 - x1 - x2, y3 = lambda (x1 - x3) - y1
// Denominator 1 keeps the batch product non-zero; bubbles (in_valid = 0)
// count as denominator 1.
//
// Structure (docs/RTL.md, "Batched-affine adder"): slots of a batch are
// reversed (R1), chain j = slots with reversed index = j mod NCH, forward
// prefix products on one multiplier (NCH >= its latency: a chain's next
// element arrives when its previous product leaves); the NCH chain totals go
// to ceil(NCH / SHARE) Euclid inverters (zk_dp_aff_inv), each inverting
// SHARE chains one after the other; the prefixes are reversed back
// (R2) and wait for the inverters; the backward pass gives every 1/d and the
// next chain inverse (2 multipliers); then the numerator (x1^2 on a
// fourth), lambda, lambda^2, lambda (x1 - x3): 7 multipliers in all.
// Latency: zk_dp_aff_lat(multiplier latency, NB, NCH, LEN, SHARE), fixed.
module zk_dp_aff #(
    parameter integer         NB     = `ZK_NB,
    parameter integer         QBITS  = `ZK_QBITS,
    parameter logic   [511:0] Q      = `ZK_Q,
    parameter integer         LEVELS = `ZK_LEVELS,
    parameter integer         TA     = `ZK_TA,
    parameter integer         TB     = `ZK_TB,
    parameter integer         RW     = `ZK_RW,
    parameter integer         WIN    = `ZK_WIN,
    parameter integer         FANIN  = `ZK_FANIN,
    parameter integer         SPLIT  = `ZK_SPLIT,
    parameter integer         TAGW   = 16,
    parameter integer         NCH    = 0,  // chains (0: the multiplier's latency)
    parameter integer         LEN    = 0,  // elements per chain (0: the fewest allowed)
    parameter integer         SHARE  = `ZK_AFF_SHARE,  // chains per inverter unit
    parameter integer         OPU    = `ZK_AFF_OP_URAM  // operation data in UltraRAM
) (
    input  logic            clk,
    input  logic            rst,
    input  logic            in_valid,
    input  logic            in_sub,
    input  logic [TAGW-1:0] in_tag,
    input  logic [2*NB:0]   bucket,
    input  logic [2*NB-1:0] point,
    output logic            out_valid,
    output logic [TAGW-1:0] out_tag,
    output logic [2*NB:0]   out_value
);
`include "zk_funcs.svh"
  localparam integer M = zk_fq_mul_lat(Q, NB, LEVELS, RW, WIN, FANIN, SPLIT);
  localparam integer C = zk_dp_aff_nch(M, NCH);
  localparam integer L = zk_dp_aff_len(M, NB, NCH, LEN, SHARE);
  localparam integer B = C * L;
  localparam integer IL = zk_dp_aff_il(NB);
  localparam integer U = zk_cdiv(C, SHARE);  // inverter units
  localparam integer IS = IL + 1;  // a unit's stride from one inversion to the next
  localparam integer DI = zk_dp_aff_di(NB, SHARE);  // wait for the inverters
  localparam integer D_OP = 2 * B + M + 2 + DI;  // front (stage 3) -> backward pass
  localparam integer LATENCY = zk_dp_aff_lat(M, NB, NCH, LEN, SHARE);
  localparam integer SW = $clog2(B + 1);
  localparam logic [NB:0] QX = Q[NB:0];
  localparam logic [511:0] ONE512 = zk_mod_pow2(Q, NB);
  localparam logic [NB-1:0] ONE = ONE512[NB-1:0];
  localparam logic [1:0] K_ADD = 2'd0, K_DBL = 2'd1, K_INF = 2'd2, K_PT = 2'd3;

  // configurations the schedule does not cover fail to elaborate
  generate
    if (C < M || SHARE < 1 || U > C || B < 2 * C + DI || 3 + D_OP + 4 * M + 10 != LATENCY) begin : g_bad
      zk_dp_aff_bad_configuration u_bad ();
    end
  endgenerate

  // ---- modular helpers on canonical values (x, y < q)
  function automatic logic [NB-1:0] f_add(input logic [NB-1:0] x, input logic [NB-1:0] y);
    logic [NB:0] s, t;
    s = {1'b0, x} + {1'b0, y};
    t = s - QX;
    f_add = t[NB] ? s[NB-1:0] : t[NB-1:0];
  endfunction
  function automatic logic [NB-1:0] f_sub(input logic [NB-1:0] x, input logic [NB-1:0] y);
    logic [NB:0] s;
    s = {1'b0, x} - {1'b0, y};
    if (s[NB]) s = s + QX;
    f_sub = s[NB-1:0];
  endfunction
  // x < 2q -> x mod q
  function automatic logic [NB-1:0] f_red(input logic [NB-1:0] x);
    logic [NB:0] t;
    t = {1'b0, x} - QX;
    f_red = t[NB] ? x : t[NB-1:0];
  endfunction

  // ---- front: stage 1 (operands, -y2), 2 (differences, compares), 3 (case, d)
  logic v1, v2, v3;
  zk_valid_pipe #(.N(1)) u_v1 (.clk(clk), .rst(rst), .d(in_valid), .q(v1));
  zk_valid_pipe #(.N(1)) u_v2 (.clk(clk), .rst(rst), .d(v1), .q(v2));
  zk_valid_pipe #(.N(1)) u_v3 (.clk(clk), .rst(rst), .d(v2), .q(v3));
  logic [TAGW-1:0] tag1, tag2, tag3;
  logic inf1, inf2, eqx2, eqy2, y1z2;
  logic [NB-1:0] x1_1, y1_1, x2_1, y2_1, x1_2, y1_2, x2_2, y2_2, dx2, ty2;
  logic [NB-1:0] x1_3, y1_3, x2_3, y2_3, d3;
  logic [1:0] k3;
  always_ff @(posedge clk) begin
    tag1 <= in_tag;
    inf1 <= bucket[2*NB];
    x1_1 <= bucket[0+:NB];
    y1_1 <= bucket[NB+:NB];
    x2_1 <= point[0+:NB];
    y2_1 <= (in_sub && point[NB+:NB] != '0) ? QX[NB-1:0] - point[NB+:NB] : point[NB+:NB];

    tag2 <= tag1;
    inf2 <= inf1;
    {x1_2, y1_2, x2_2, y2_2} <= {x1_1, y1_1, x2_1, y2_1};
    dx2  <= f_sub(x2_1, x1_1);
    ty2  <= f_add(y1_1, y1_1);
    eqx2 <= x1_1 == x2_1;
    eqy2 <= y1_1 == y2_1;
    y1z2 <= y1_1 == '0;

    tag3 <= tag2;
    {x1_3, y1_3, x2_3, y2_3} <= {x1_2, y1_2, x2_2, y2_2};
    if (inf2 || !v2) k3 <= K_PT;
    else if (!eqx2) k3 <= K_ADD;
    else if (eqy2 && !y1z2) k3 <= K_DBL;
    else k3 <= K_INF;
    d3 <= (!v2 || inf2) ? ONE : !eqx2 ? dx2 : (eqy2 && !y1z2) ? ty2 : ONE;
  end

  // slot of stage 3 in the batch (s3) and the batch's parity (b3)
  logic [SW-1:0] s3;
  logic b3;
  always_ff @(posedge clk)
    if (rst) begin
      s3 <= '0;
      b3 <= 1'b0;
    end else if (s3 == SW'(B - 1)) begin
      s3 <= '0;
      b3 <= ~b3;
    end else s3 <= s3 + 1'b1;

  // ---- R1: the previous batch's d read in reverse slot order (r = s3 is the
  // reversed index of the element read) while this batch's are written. One
  // batch of words: each cycle writes the word it reads (read first), so
  // batches alternate between slot order (b3 = 0) and reverse (b3 = 1).
  // UltraRAM: one 4K-deep row up to SHARE = 4 (left to itself, Yosys 0.23
  // puts this read-and-write-one-address memory in LUTRAM and fails)
  (* ram_style = "ultra" *) logic [NB-1:0] r1mem[B];
  logic [NB-1:0] dr;
  logic [SW-1:0] r1;
  logic rb1;
  always_ff @(posedge clk) begin
    r1mem[b3 ? SW'(B - 1) - s3 : s3] <= d3;
    dr <= r1mem[b3 ? SW'(B - 1) - s3 : s3];
    r1 <= s3;
    rb1 <= b3;
  end

  // ---- forward products: p_r = (r < C ? 1 : p_{r-C}) * d_r
  logic [NB-1:0] pf, pfb;
  /* verilator lint_off UNUSEDSIGNAL */
  logic mv_f, mv_b1, mv_b2, mv_x, mv_l, mv_s, mv_y;  // multiplier valids (unused: fixed schedule)
  /* verilator lint_on UNUSEDSIGNAL */
  `ZK_FQ_MUL #(.NB(NB), .QBITS(QBITS), .Q(Q), .LEVELS(LEVELS), .TA(TA), .TB(TB), .RW(RW),
              .WIN(WIN), .FANIN(FANIN), .SPLIT(SPLIT)) u_mf (
      .clk(clk), .rst(rst), .in_valid(1'b1),
      .a(r1 < SW'(C) ? ONE : pfb), .b(dr), .out_valid(mv_f), .c(pf));
  zk_delay #(.W(NB), .N(C - M)) u_pfb (.clk(clk), .d(pf), .q(pfb));
  logic [SW-1:0] ro;
  logic rbo;
  zk_delay #(.W(SW + 1), .N(M)) u_ro (.clk(clk), .d({rb1, r1}), .q({rbo, ro}));

  // ---- inverters: chain j's total is at pf when ro = B - C + j. Unit u
  // inverts chains u, u + U, u + 2U, ...: the i-th of them starts i * IS
  // cycles after the first, from pf delayed by i * (IS - U) (pfd[i]). A
  // unit holds its last result until the next batch reloads it; the earlier
  // ones are copied out (ichain) when the unit starts its next inversion.
  // B >= 2C + DI: every inverse is read before its unit or copy is reloaded.
  logic [NB-1:0] pfd[SHARE];
  logic [NB-1:0] ures[U];
  logic [NB-1:0] ichain[C];
  assign pfd[0] = pf;
  genvar gi, gu, gj;
  generate
    for (gi = 1; gi < SHARE; gi++) begin : g_pfd
      zk_delay #(.W(NB), .N(gi * (IS - U)), .MEM(1)) u_pfd (.clk(clk), .d(pf), .q(pfd[gi]));
    end
    for (gu = 0; gu < U; gu++) begin : g_inv
      logic st;
      logic [NB-1:0] ua;
      always_comb begin
        st = 1'b0;
        ua = pfd[0];
        for (int i = 0; i < SHARE; i++)
          if (gu + i * U < C && ro == SW'((B - C + gu + i * IS) % B)) begin
            st = 1'b1;
            ua = pfd[i];
          end
      end
      zk_dp_aff_inv #(.NB(NB), .Q(Q)) u_inv (.clk(clk), .start(st), .a(ua), .res(ures[gu]));
    end
    for (gj = 0; gj < C; gj++) begin : g_chain
      if (gj + U < C) begin : g_copy
        logic [NB-1:0] r;
        always_ff @(posedge clk)
          if (ro == SW'((B - C + gj % U + (gj / U + 1) * IS) % B)) r <= ures[gj%U];
        assign ichain[gj] = r;
      end else begin : g_held
        assign ichain[gj] = ures[gj%U];
      end
    end
  endgenerate

  // ---- R2: the previous batch's prefixes read in slot order s = ro (the
  // prefix before s in its chain is that of slot s + C, reversed index
  // B - 1 - C - s; 1 for the last C slots, whose words are never read) while
  // this batch's are written by reversed index. One batch of words, each
  // cycle writing the word it reads: element r of a batch lives at r
  // (rbo = 0) or at sigma(r) (rbo = 1), sigma(r) = B - 1 - C - r for
  // r < B - C, else r (sigma is its own inverse).
  (* ram_style = "ultra" *) logic [NB-1:0] r2mem[B];
  logic [NB-1:0] pq;
  logic [SW-1:0] s2r, r2a;
  logic last2;
  assign r2a = (rbo && ro < SW'(B - C)) ? SW'(B - 1 - C) - ro : ro;
  always_ff @(posedge clk) begin
    r2mem[r2a] <= pf;
    pq <= r2mem[r2a];
    s2r <= ro;
    last2 <= ro >= SW'(B - C);
  end
  logic [NB-1:0] pprev;
  logic [SW-1:0] sb;
  zk_delay #(.W(SW + NB), .N(DI), .MEM(1)) u_wait (.clk(clk), .d({s2r, last2 ? ONE : pq}), .q({sb, pprev}));

  // ---- the operation's data, stage 3 -> backward pass. Only the case and
  // the two points are stored (four field elements, not six): y2 - y1 and
  // the denominator are computed again on the way out, in the cycle the
  // memory's D_OP - 1 ends.
  localparam integer OW = TAGW + 2 + 4 * NB;
  logic vq, vb;
  logic [TAGW-1:0] tagq, tagb;
  logic [1:0] kq, kb;
  logic [NB-1:0] x1q, y1q, x2q, y2q, x1b, y1b, x2b, y2b, dyb, db;
  zk_delay_ram #(.W(OW), .D(D_OP - 1), .URAM(OPU)) u_op (
      .clk(clk), .rst(rst), .d_valid(v3), .d({tag3, k3, x1_3, y1_3, x2_3, y2_3}),
      .q_valid(vq), .q({tagq, kq, x1q, y1q, x2q, y2q}));
  zk_valid_pipe #(.N(1)) u_vb (.clk(clk), .rst(rst), .d(vq), .q(vb));
  always_ff @(posedge clk) begin
    {tagb, kb, x1b, y1b, x2b, y2b} <= {tagq, kq, x1q, y1q, x2q, y2q};
    dyb <= f_sub(y2q, y1q);
    db  <= (kq == K_ADD) ? f_sub(x2q, x1q) : (kq == K_DBL) ? f_add(y1q, y1q) : ONE;
  end

  // ---- backward pass: chain inverse I (first C slots: from the inverter),
  // 1/d = I * p_prev, next chain inverse I * d; x1^2 beside them
  logic [NB-1:0] ib, ibfb, ibn, inv, sq;
  assign ib = (sb < SW'(C)) ? ichain[C-1-32'(sb)] : ibfb;
  `ZK_FQ_MUL #(.NB(NB), .QBITS(QBITS), .Q(Q), .LEVELS(LEVELS), .TA(TA), .TB(TB), .RW(RW),
              .WIN(WIN), .FANIN(FANIN), .SPLIT(SPLIT)) u_mb1 (
      .clk(clk), .rst(rst), .in_valid(1'b1), .a(ib), .b(pprev), .out_valid(mv_b1), .c(inv));
  `ZK_FQ_MUL #(.NB(NB), .QBITS(QBITS), .Q(Q), .LEVELS(LEVELS), .TA(TA), .TB(TB), .RW(RW),
              .WIN(WIN), .FANIN(FANIN), .SPLIT(SPLIT)) u_mb2 (
      .clk(clk), .rst(rst), .in_valid(1'b1), .a(ib), .b(db), .out_valid(mv_b2), .c(ibn));
  zk_delay #(.W(NB), .N(C - M)) u_ibfb (.clk(clk), .d(ibn), .q(ibfb));
  `ZK_FQ_MUL #(.NB(NB), .QBITS(QBITS), .Q(Q), .LEVELS(LEVELS), .TA(TA), .TB(TB), .RW(RW),
              .WIN(WIN), .FANIN(FANIN), .SPLIT(SPLIT)) u_mx (
      .clk(clk), .rst(rst), .in_valid(1'b1), .a(x1b), .b(x1b), .out_valid(mv_x), .c(sq));

  // ---- numerator: 3 x1^2 (tangent) or y2 - y1 (chord), 3 cycles
  logic [NB-1:0] sq1, sq2, sq1d, num, inv3, dyn;
  logic [1:0] kn;
  zk_delay #(.W(NB + 2), .N(M + 2), .MEM(1)) u_kdy (.clk(clk), .d({dyb, kb}), .q({dyn, kn}));
  zk_delay #(.W(NB), .N(3)) u_inv3 (.clk(clk), .d(inv), .q(inv3));
  always_ff @(posedge clk) begin
    sq1 <= f_red(sq);
    sq2 <= f_add(sq1, sq1);
    sq1d <= sq1;
    num <= (kn == K_DBL) ? f_add(sq2, sq1d) : dyn;
  end

  // ---- lambda, lambda^2
  logic [NB-1:0] lam, lam2, lamd;
  `ZK_FQ_MUL #(.NB(NB), .QBITS(QBITS), .Q(Q), .LEVELS(LEVELS), .TA(TA), .TB(TB), .RW(RW),
              .WIN(WIN), .FANIN(FANIN), .SPLIT(SPLIT)) u_ml (
      .clk(clk), .rst(rst), .in_valid(1'b1), .a(num), .b(inv3), .out_valid(mv_l), .c(lam));
  `ZK_FQ_MUL #(.NB(NB), .QBITS(QBITS), .Q(Q), .LEVELS(LEVELS), .TA(TA), .TB(TB), .RW(RW),
              .WIN(WIN), .FANIN(FANIN), .SPLIT(SPLIT)) u_ms (
      .clk(clk), .rst(rst), .in_valid(1'b1), .a(lam), .b(lam), .out_valid(mv_s), .c(lam2));
  zk_delay #(.W(NB), .N(M + 4), .MEM(1)) u_lamd (.clk(clk), .d(lam), .q(lamd));

  // ---- x3 = lambda^2 - x1 - x2, e = x1 - x3 (So = the cycle lam2 is valid)
  logic [NB-1:0] x1s1, x2s1, x2s2, x1s3, t0, t1, x3, e;
  zk_delay #(.W(2 * NB), .N(3 * M + 4), .MEM(1)) u_x12s1 (.clk(clk), .d({x2b, x1b}), .q({x2s1, x1s1}));
  zk_delay #(.W(NB), .N(2)) u_x1s3 (.clk(clk), .d(x1s1), .q(x1s3));
  always_ff @(posedge clk) begin
    x2s2 <= x2s1;
    t0 <= f_red(lam2);
    t1 <= f_sub(t0, x1s1);
    x3 <= f_sub(t1, x2s2);
    e  <= f_sub(x1s3, x3);
  end

  // ---- y3 = lambda (x1 - x3) - y1, the output
  logic [NB-1:0] yp, yr, y3, y1y, x3y, x2y, y2y;
  logic [1:0] ky;
  `ZK_FQ_MUL #(.NB(NB), .QBITS(QBITS), .Q(Q), .LEVELS(LEVELS), .TA(TA), .TB(TB), .RW(RW),
              .WIN(WIN), .FANIN(FANIN), .SPLIT(SPLIT)) u_my (
      .clk(clk), .rst(rst), .in_valid(1'b1), .a(e), .b(lamd), .out_valid(mv_y), .c(yp));
  logic [2*NB+1:0] ptm;
  zk_delay #(.W(3 * NB + 2), .N(4 * M + 8), .MEM(1)) u_y1y (.clk(clk), .d({kb, x2b, y2b, y1b}), .q({ptm, y1y}));
  zk_delay #(.W(2 * NB + 2), .N(1)) u_pty (.clk(clk), .d(ptm), .q({ky, x2y, y2y}));
  zk_delay #(.W(NB), .N(M + 3), .MEM(1)) u_x3y (.clk(clk), .d(x3), .q(x3y));
  always_ff @(posedge clk) begin
    yr <= f_red(yp);
    y3 <= f_sub(yr, y1y);
    case (ky)
      K_PT:    out_value <= {1'b0, y2y, x2y};
      K_INF:   out_value <= {1'b1, {(2 * NB) {1'b0}}};
      default: out_value <= {1'b0, y3, x3y};
    endcase
  end
  zk_valid_pipe #(.N(4 * M + 10)) u_vout (.clk(clk), .rst(rst), .d(vb), .q(out_valid));
  zk_delay #(.W(TAGW), .N(4 * M + 10)) u_tout (.clk(clk), .d(tagb), .q(out_tag));
endmodule
