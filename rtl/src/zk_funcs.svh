// zk_funcs.svh -- constant functions shared by the zkmsm RTL.
//
// Included *inside* module bodies (the subset Verilator 5.006 and Yosys 0.23
// both accept has no packages/import). Every latency in the design is computed
// here from module parameters; nothing is hand-counted.
//
// Version 5.006 of Verilator reports the implicit return variable of a function that
// assigns to its own name as hiding the function (VARHIDDEN); the subset we
// share with Yosys 0.23 has no `return`, so that one warning is waived here,
// with UNUSEDSIGNAL for the parts of wide constant results a caller ignores.
/* verilator lint_off VARHIDDEN */
/* verilator lint_off UNUSEDSIGNAL */

// ceil(a / b)
function automatic integer zk_cdiv(input integer f_a, input integer f_b);
  zk_cdiv = (f_a + f_b - 1) / f_b;
endfunction

// Pipeline depth of zk_sum_tree: one register level per fan-in reduction.
function automatic integer zk_tree_lat(input integer f_n, input integer f_f);
  integer f_i, f_k;
  begin
    zk_tree_lat = 0;
    f_k = f_n;
    for (f_i = 0; f_i < 64; f_i = f_i + 1)
      if (f_k > 1) begin
        f_k = (f_k + f_f - 1) / f_f;
        zk_tree_lat = zk_tree_lat + 1;
      end
  end
endfunction

// Latency of zk_mul_tiled (product register + sum register).
function automatic integer zk_tiled_lat(input integer f_dummy);
  zk_tiled_lat = 2 + 0 * f_dummy;
endfunction

// Latency of zk_kmul: each Karatsuba level adds a pre-subtract register and
// one (f_split = 0) or three (f_split = 1) recombination registers.
function automatic integer zk_kmul_lat(input integer f_levels, input integer f_split);
  zk_kmul_lat = zk_tiled_lat(0) + ((f_split != 0) ? 4 : 2) * f_levels;
endfunction

// Width-`f_win` NAF (wNAF) of a constant k < 2^510: digit i (signed, odd,
// |f_d| < 2^(f_win-1)) in bits [8*f_i +: 8] as two's complement.
function automatic [4095:0] zk_wnaf(input [511:0] f_k, input integer f_win);
  reg [513:0] f_kk;
  reg [7:0] f_z;
  integer f_i;
  begin
    zk_wnaf = 4096'b0;
    f_kk = {2'b00, f_k};
    for (f_i = 0; f_i < 512; f_i = f_i + 1) begin
      if (f_kk[0]) begin
        f_z = f_kk[7:0] & ((8'd1 << f_win) - 8'd1);
        if (f_z >= (8'd1 << (f_win - 1))) begin
          // negative digit f_z - 2^f_win; f_k - digit = f_k + (2^f_win - f_z)
          f_kk = f_kk + {506'b0, ((8'd1 << f_win) - f_z)};
          f_z = f_z - (8'd1 << f_win);
        end else begin
          f_kk = f_kk - {506'b0, f_z};
        end
        zk_wnaf[8*f_i +: 8] = f_z;
      end
      f_kk = f_kk >> 1;
    end
  end
endfunction

// Term table of a packed wNAF constant multiplication: entry k (40 bits)
// describes the k-th non-zero digit: [15:0] bit position, [23:16] row
// (from zk_pack), [31:24] index of its odd multiple ((|d| - 1) / 2),
// [32] negative. At most 128 digits.
function automatic [5119:0] zk_terms(input [4095:0] f_d, input [4095:0] f_rowof);
  integer f_i, f_k;
  reg [7:0] f_dig, f_mag;
  reg [15:0] f_i16;
  begin
    zk_terms = 5120'b0;
    f_k = 0;
    for (f_i = 0; f_i < 512; f_i = f_i + 1) begin
      f_dig = f_d[8*f_i +: 8];
      if (f_dig != 8'd0 && f_k < 128) begin
        f_i16 = f_i[15:0];
        f_mag = f_dig[7] ? 8'd0 - f_dig : f_dig;
        zk_terms[40*f_k +: 16] = f_i16;
        zk_terms[40*f_k+16 +: 8] = f_rowof[8*f_i +: 8];
        zk_terms[40*f_k+24 +: 8] = (f_mag - 8'd1) >> 1;
        zk_terms[40*f_k+32] = f_dig[7];
        f_k = f_k + 1;
      end
    end
  end
endfunction

// Number of non-zero digits of a wNAF.
function automatic integer zk_wnaf_nz(input [4095:0] f_d);
  integer f_i;
  begin
    zk_wnaf_nz = 0;
    for (f_i = 0; f_i < 512; f_i = f_i + 1)
      if (f_d[8*f_i +: 8] != 8'd0) zk_wnaf_nz = zk_wnaf_nz + 1;
  end
endfunction

// f_q^-1 mod 2^f_w for odd f_q (f_w <= 64), by Hensel lifting bit by bit.
function automatic [63:0] zk_inv2w(input [63:0] f_q, input integer f_w);
  reg [63:0] f_inv;
  reg [127:0] f_prod;
  integer f_i;
  begin
    f_inv = 64'd1;
    for (f_i = 1; f_i < 64; f_i = f_i + 1)
      if (f_i < f_w) begin
        f_prod = {64'b0, f_q} * {64'b0, f_inv};
        if (f_prod[f_i]) f_inv = f_inv | (64'd1 << f_i);
      end
    zk_inv2w = (f_w >= 64) ? f_inv : (f_inv & ((64'd1 << f_w) - 64'd1));
  end
endfunction

// Row packing of the wNAF terms of a constant multiplication. The term of
// digit i is an f_mw-bit odd multiple v shifted to bit i; a negative digit
// contributes ~v (its f_mw-bit complement) instead, and the correction
// -(2^f_mw - 1) * 2^i of all negative digits is one constant (zk_pack_const).
// So every term is non-negative and terms whose bit ranges do not overlap
// share a row (concatenation, no adder). First fit in position order, which
// is optimal for intervals: rows = the largest number of overlapping terms.
// f_what = 0: row of each digit (8 bits per position); 2: number of rows.
function automatic [4095:0] zk_pack(input [4095:0] f_d, input integer f_mw,
                                    input integer f_what);
  reg [1023:0] f_end;  // 16 bits per row: first free bit position
  reg [4095:0] f_row;
  reg [7:0] f_dig;
  reg [15:0] f_i16, f_mw16;
  reg f_found;
  integer f_i, f_r, f_n, f_sel;
  begin
    f_end = 1024'b0;
    f_row = 4096'b0;
    f_n = 0;
    f_mw16 = f_mw[15:0];
    for (f_i = 0; f_i < 512; f_i = f_i + 1) begin
      f_dig = f_d[8*f_i +: 8];
      f_i16 = f_i[15:0];
      if (f_dig != 8'd0) begin
        f_found = 1'b0;
        f_sel = 0;
        for (f_r = 0; f_r < f_n; f_r = f_r + 1)
          if (!f_found && f_end[16*f_r +: 16] <= f_i16) begin
            f_found = 1'b1;
            f_sel = f_r;
          end
        if (!f_found) begin
          f_sel = f_n;
          f_n = f_n + 1;
        end
        f_end[16*f_sel +: 16] = f_i16 + f_mw16;
        f_row[8*f_i +: 8] = f_sel[7:0];
      end
    end
    if (f_what == 0) zk_pack = f_row;
    else zk_pack = {4064'b0, f_n};
  end
endfunction

// Number of rows of zk_pack.
function automatic integer zk_pack_nrows(input [4095:0] f_d, input integer f_mw);
  reg [4095:0] f_t;
  begin
    f_t = zk_pack(f_d, f_mw, 2);
    zk_pack_nrows = f_t[31:0];
  end
endfunction

// The constant correction of zk_pack's complemented negative terms, mod 2^512.
function automatic [511:0] zk_pack_const(input [4095:0] f_d, input integer f_mw);
  reg [511:0] f_ones;
  integer f_i;
  begin
    zk_pack_const = 512'b0;
    f_ones = (512'b1 << f_mw) - 512'b1;
    for (f_i = 0; f_i < 512; f_i = f_i + 1)
      if (f_d[8*f_i+7]) zk_pack_const = zk_pack_const - (f_ones << f_i);
  end
endfunction

// Latency of one word-serial Montgomery reduction step (zk_redc_step):
// m and its odd multiples | packed wNAF rows, adder tree | t + m*q, shift.
function automatic integer zk_redc_step_lat(input [511:0] f_q, input integer f_rw,
                                            input integer f_win, input integer f_fanin,
                                            input integer f_split);
  zk_redc_step_lat = 1 + zk_tree_lat(zk_pack_nrows(zk_wnaf(f_q, f_win), f_rw + f_win - 1) + 1, f_fanin)
                   + ((f_split != 0) ? 2 : 1);
endfunction

// -f_q^-1 mod 2^f_nb for odd f_q (f_nb <= 512): Newton's iteration
// x <- x*(2 - q*x) doubles the correct low bits, 1 -> 512 in nine steps.
function automatic [511:0] zk_neg_inv(input [511:0] f_q, input integer f_nb);
  reg [511:0] f_x, f_mask;
  integer f_i;
  begin
    f_x = 512'd1;
    for (f_i = 0; f_i < 9; f_i = f_i + 1) f_x = f_x * (512'd2 - f_q * f_x);
    f_mask = (f_nb >= 512) ? ~512'b0 : ((512'b1 << f_nb) - 512'b1);
    zk_neg_inv = (512'b0 - f_x) & f_mask;
  end
endfunction

// Term table of zk_mont_lo, the low-half constant multiplication
// y = x * K mod 2^f_nb with x cut into f_ww-bit words: word j times wNAF digit
// i of K is an f_mw-bit odd multiple of the word at bit f_ww*j + i (terms at
// or above bit f_nb vanish mod 2^f_nb and are left out). Terms are visited in
// bit order and packed first fit into rows, as zk_pack does.
// Entry k (32 bits): [15:0] bit, [23:16] row, [27:24] word, [30:28] index of
// the odd multiple, [31] negative. [16384 +: 16] terms, [16400 +: 16] rows.
// At most 512 terms (WIN >= 3 for f_nb = 384) and 128 rows.
function automatic [16415:0] zk_lo_terms(input [4095:0] f_d, input integer f_nb,
                                         input integer f_ww, input integer f_mw);
  reg [2047:0] f_end;  // 16 bits per row: first free bit position
  reg [7:0] f_dig, f_mag;
  reg [15:0] f_b16, f_mw16, f_r16, f_j16;
  reg f_found;
  integer f_b, f_j, f_p, f_r, f_n, f_k, f_sel;
  begin
    zk_lo_terms = 16416'b0;
    f_end = 2048'b0;
    f_n = 0;
    f_k = 0;
    f_mw16 = f_mw[15:0];
    for (f_b = 0; f_b < 512; f_b = f_b + 1)
      for (f_j = 0; f_j < 16; f_j = f_j + 1) begin
        f_p = f_b - f_ww * f_j;
        f_dig = 8'd0;
        if (f_b < f_nb && f_p >= 0 && f_ww * f_j < f_nb) f_dig = f_d[8*f_p +: 8];
        if (f_dig != 8'd0 && f_k < 512) begin
          f_b16 = f_b[15:0];
          f_found = 1'b0;
          f_sel = 0;
          for (f_r = 0; f_r < 128; f_r = f_r + 1)
            if (!f_found && f_r < f_n && f_end[16*f_r +: 16] <= f_b16) begin
              f_found = 1'b1;
              f_sel = f_r;
            end
          if (!f_found) begin
            f_sel = f_n;
            f_n = f_n + 1;
          end
          f_end[16*f_sel +: 16] = f_b16 + f_mw16;
          f_mag = f_dig[7] ? 8'd0 - f_dig : f_dig;
          f_r16 = f_sel[15:0];
          f_j16 = f_j[15:0];
          zk_lo_terms[32*f_k +: 16] = f_b16;
          zk_lo_terms[32*f_k+16 +: 8] = f_r16[7:0];
          zk_lo_terms[32*f_k+24 +: 4] = f_j16[3:0];
          zk_lo_terms[32*f_k+28 +: 3] = f_mag[3:1];  // (|d| - 1) / 2
          zk_lo_terms[32*f_k+31] = f_dig[7];
          f_k = f_k + 1;
        end
      end
    zk_lo_terms[16384 +: 16] = f_k[15:0];
    zk_lo_terms[16400 +: 16] = f_n[15:0];
  end
endfunction

// Number of rows of zk_lo_terms.
function automatic integer zk_lo_nrows(input [4095:0] f_d, input integer f_nb,
                                       input integer f_ww, input integer f_mw);
  reg [16415:0] f_t;
  begin
    f_t = zk_lo_terms(f_d, f_nb, f_ww, f_mw);
    zk_lo_nrows = {16'b0, f_t[16400 +: 16]};
  end
endfunction

// The constant correction of zk_mont_lo's complemented negative terms,
// -(2^f_mw - 1) * 2^bit summed over them, mod 2^512.
function automatic [511:0] zk_lo_const(input [4095:0] f_d, input integer f_nb,
                                       input integer f_ww, input integer f_mw);
  reg [511:0] f_ones;
  integer f_b, f_j, f_p;
  begin
    zk_lo_const = 512'b0;
    f_ones = (512'b1 << f_mw) - 512'b1;
    for (f_b = 0; f_b < 512; f_b = f_b + 1)
      for (f_j = 0; f_j < 16; f_j = f_j + 1) begin
        f_p = f_b - f_ww * f_j;
        if (f_b < f_nb && f_p >= 0 && f_ww * f_j < f_nb)
          if (f_d[8*f_p+7]) zk_lo_const = zk_lo_const - (f_ones << f_b);
      end
  end
endfunction

// Start bits of zk_mont_lo's tree inputs from its term table: input 0 is the
// correction constant (start 0), input r + 1 is row r, whose first (lowest)
// term is its first entry in the table (terms are in bit order).
function automatic [2047:0] zk_lo_starts(input [16415:0] f_tt);
  reg [127:0] f_seen;
  reg [7:0] f_row;
  integer f_k, f_r;
  begin
    zk_lo_starts = 2048'b0;
    f_seen = 128'b0;
    for (f_k = 0; f_k < 512; f_k = f_k + 1)
      if (f_k < {16'b0, f_tt[16384 +: 16]}) begin
        f_row = f_tt[32*f_k+16 +: 8];
        f_r = {24'b0, f_row};
        if (f_r < 127 && !f_seen[f_r]) begin
          f_seen[f_r] = 1'b1;
          zk_lo_starts[16*(f_r+1) +: 16] = f_tt[32*f_k +: 16];
        end
      end
  end
endfunction

// zk_tri_tree: start bits of the next level (pair g starts where word 2g does).
function automatic [2047:0] zk_tri_next(input [2047:0] f_s, input integer f_n);
  integer f_g;
  begin
    zk_tri_next = 2048'b0;
    for (f_g = 0; f_g < 64; f_g = f_g + 1)
      if (2 * f_g < f_n) zk_tri_next[16*f_g +: 16] = f_s[32*f_g +: 16];
  end
endfunction

// Latency of zk_mont_lo: odd multiples | binary triangular tree (zk_tri_tree)
// over the rows + the constant.
function automatic integer zk_mont_lo_lat(input [511:0] f_q, input integer f_nb,
                                          input integer f_ww, input integer f_win);
  zk_mont_lo_lat = 1 + zk_tree_lat(zk_lo_nrows(zk_wnaf(zk_neg_inv(f_q, f_nb), f_win), f_nb,
                                               f_ww, f_ww + f_win - 1) + 1, 2);
endfunction

// Word width of zk_mont_lo's input words in zk_fq_mul (one DSP-free 48-bit
// word; 384 = 8 words).
function automatic integer zk_mont_ww(input integer f_dummy);
  zk_mont_ww = 48 + 0 * f_dummy;
endfunction

// Latency of zk_fq_mul: Karatsuba product, then NB/f_red_w reduction steps
// (f_red_w < f_nb), or the one-word reduction of zk_fq_mul's RW = NB variant.
function automatic integer zk_fq_mul_lat(input [511:0] f_q, input integer f_nb,
                                         input integer f_levels, input integer f_red_w,
                                         input integer f_win, input integer f_fanin,
                                         input integer f_split);
  if (f_red_w == f_nb)  // one-word Montgomery: m on LUTs, m*q Karatsuba, add
    zk_fq_mul_lat = 2 * zk_kmul_lat(f_levels, f_split)
                  + zk_mont_lo_lat(f_q, f_nb, zk_mont_ww(0), f_win) + 1;
  else
    zk_fq_mul_lat = zk_kmul_lat(f_levels, f_split) + (f_nb / f_red_w) * zk_redc_step_lat(f_q, f_red_w, f_win, f_fanin, f_split);
endfunction

// Latency of zk_te_madd: lazy add/sub | 3 mul | lazy add/sub | 4 mul.
function automatic integer zk_te_madd_lat(input integer f_mul_lat);
  zk_te_madd_lat = 1 + f_mul_lat + 1 + f_mul_lat;
endfunction

// Latency of zk_te_agg_in, the aggregation's conversion in front of
// zk_te_madd: its two multiplications (Z1 Z2, k T2), beside which the lazy
// Y2 - X2, Y2 + X2 and the other coordinates wait.
function automatic integer zk_te_agg_lat(input integer f_mul_lat);
  zk_te_agg_lat = f_mul_lat;
endfunction

// Width of zk_redc_step's output for f_a t_in of f_tw bits: (t + m*q) >> f_rw.
function automatic integer zk_redc_ow(input integer f_tw, input integer f_qbits, input integer f_rw);
  zk_redc_ow = ((f_tw > f_rw + f_qbits) ? f_tw : f_rw + f_qbits) + 1 - f_rw;
endfunction

// Width of t entering reduction step `f_step` (f_step 0: the 2*f_nb-bit product).
function automatic integer zk_redc_tw(input integer f_nb, input integer f_qbits, input integer f_rw,
                                      input integer f_step);
  integer f_i;
  begin
    zk_redc_tw = 2 * f_nb;
    for (f_i = 0; f_i < 64; f_i = f_i + 1)
      if (f_i < f_step) zk_redc_tw = zk_redc_ow(zk_redc_tw, f_qbits, f_rw);
  end
endfunction
// 2^f_nb mod f_q (the Montgomery form of 1 for R = 2^f_nb), f_q < 2^510.
function automatic [511:0] zk_mod_pow2(input [511:0] f_q, input integer f_nb);
  reg [511:0] f_r;
  integer f_i;
  begin
    f_r = 512'd1;
    for (f_i = 0; f_i < 1024; f_i = f_i + 1)
      if (f_i < f_nb) begin
        f_r = f_r << 1;
        if (f_r >= f_q) f_r = f_r - f_q;
      end
    zk_mod_pow2 = f_r;
  end
endfunction
// ---- zk_dp_aff, the batched-affine adder (docs/RTL.md, "Batched-affine adder")
// Steps of one inversion by zk_dp_aff_inv: a gcd phase of at most
// 2 QBITS + 1 steps, then doublings until the power of two is R^2 = 2^(2 NB).
function automatic integer zk_dp_aff_il(input integer f_nb);
  zk_dp_aff_il = 2 * f_nb + 1;
endfunction

// Interleaved product chains: f_nch (0: the multiplier latency, the fewest
// that keep one product per cycle; fewer would stall).
function automatic integer zk_dp_aff_nch(input integer f_mlat, input integer f_nch);
  zk_dp_aff_nch = (f_nch > 0) ? f_nch : f_mlat;
endfunction

// Cycles from a batch's first chain total to its last inverse: an inverter
// unit serves f_share chains one after the other, each inversion taking
// zk_dp_aff_il steps and one cycle to hand its result over.
function automatic integer zk_dp_aff_di(input integer f_nb, input integer f_share);
  zk_dp_aff_di = (f_share - 1) * (zk_dp_aff_il(f_nb) + 1) + zk_dp_aff_il(f_nb);
endfunction

// Elements per chain (0: the fewest for which every inverse is read before
// the next batch reloads its unit or register: batch >= 2 * chains + di).
function automatic integer zk_dp_aff_len(input integer f_mlat, input integer f_nb,
                                         input integer f_nch, input integer f_len,
                                         input integer f_share);
  zk_dp_aff_len = (f_len > 0) ? f_len
                : zk_cdiv(2 * zk_dp_aff_nch(f_mlat, f_nch) + zk_dp_aff_di(f_nb, f_share),
                          zk_dp_aff_nch(f_mlat, f_nch));
endfunction

// Latency of zk_dp_aff: front (3) | reversal, forward products, reversal
// (2B + M + 2) | wait for the inverters (di) | backward products (M) |
// numerator (3) | lambda (M) | lambda^2 (M) | x3, x1 - x3 (4) | (x1 - x3)*lambda
// (M) | y3, output (3). B = chains * elements.
function automatic integer zk_dp_aff_lat(input integer f_mlat, input integer f_nb,
                                         input integer f_nch, input integer f_len,
                                         input integer f_share);
  zk_dp_aff_lat = 2 * zk_dp_aff_nch(f_mlat, f_nch) * zk_dp_aff_len(f_mlat, f_nb, f_nch, f_len, f_share)
                + 5 * f_mlat + zk_dp_aff_di(f_nb, f_share) + 15;
endfunction
/* verilator lint_on UNUSEDSIGNAL */
/* verilator lint_on VARHIDDEN */
