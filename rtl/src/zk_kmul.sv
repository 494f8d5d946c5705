// zk_kmul -- W x W unsigned multiplier, LEVELS of Karatsuba over
// zk_mul_tiled base multipliers.
//
// With x = x1*2^H + x0 and y = y1*2^H + y0, x*y = z2*2^(2H) + z1*2^H + z0
// (z0 = x0*y0, z2 = x1*y1) and the middle term z1 from one more product:
//   KARA = 1 (additive): z1 = (x1 + x0)*(y1 + y0) - z0 - z2, the middle
//     product on H+1 bits (one pre-add per side, two subtractions, no sign);
//   KARA = 0 (subtractive): z1 = z2 + z0 + (x1 - x0)*(y0 - y1), the middle
//     product on the magnitudes |x1-x0|, |y0-y1| (H bits) with the sign
//     applied at recombination (compare, subtract and mux per side).
// The additive form's base multipliers grow to 50 bits at 384/3 levels,
// still 2 x 3 tiles of 26 x 17 (52 x 51): the same DSPs, fewer LUTs.
// BC = 1: b is the constant BV (port b unused), so the b-side splits,
// sums and differences are constants at every level (Yosys keeps the
// hierarchy, so a constant on the port would not reach inside).
// 3^LEVELS base multipliers. Latency: zk_kmul_lat(LEVELS, SPLIT), either form.
`include "zk_params.svh"
module zk_kmul #(
    parameter integer W      = 384,
    parameter integer LEVELS = `ZK_LEVELS,
    parameter integer TA     = `ZK_TA,
    parameter integer TB     = `ZK_TB,
    parameter integer SPLIT  = `ZK_SPLIT,  // recombination over 3 stages (shorter carry chains)
    parameter integer CHAIN  = 0,  // base multipliers: tile rows summed in the DSPs
    parameter integer KARA   = 1,  // 1: additive Karatsuba, 0: subtractive
    parameter integer BC     = 0,  // 1: b is the constant BV
    parameter logic [W-1:0] BV = '0
) (
    input  logic           clk,
    input  logic [  W-1:0] a,
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic [  W-1:0] b,  // unused when BC = 1
    /* verilator lint_on UNUSEDSIGNAL */
    output logic [2*W-1:0] p
);
`include "zk_funcs.svh"
  generate
    if (LEVELS == 0) begin : g_base
      zk_mul_tiled #(
          .WA(W),
          .WB(W),
          .TA(TA),
          .TB(TB),
          .CHAIN(CHAIN),
          .BC(BC),
          .BV(BV)
      ) u_tiled (
          .clk(clk),
          .a  (a),
          .b  (b),
          .p  (p)
      );
    end else begin : g_kara
      localparam integer H = (W + 1) / 2;  // low half width
      localparam integer L = W - H;  // high half width (<= H)
      localparam integer SUBLAT = zk_kmul_lat(LEVELS - 1, SPLIT);
      // the constant b's halves (BC = 1)
      localparam logic [H-1:0] BV0 = BV[H-1:0];
      localparam logic [L-1:0] BV1 = BV[W-1:H];

      // b as used here: zero when BC = 1, so no logic is built for it
      // (the submodules read BV; a port driven by logic is kept by Yosys)
      logic [W-1:0] bb;
      assign bb = (BC != 0) ? '0 : b;

      // stage 1: split (and pre-add or subtract)
      logic [H-1:0] x0, y0;
      logic [L-1:0] x1, y1;
      always_ff @(posedge clk) begin
        x0 <= a[H-1:0];
        y0 <= bb[H-1:0];
        x1 <= a[W-1:H];
        y1 <= bb[W-1:H];
      end

      logic [2*H-1:0] z0;
      logic [2*L-1:0] z2;
      zk_kmul #(
          .W(H),
          .LEVELS(LEVELS - 1),
          .TA(TA),
          .TB(TB),
          .SPLIT(SPLIT),
          .CHAIN(CHAIN),
          .KARA(KARA),
          .BC(BC),
          .BV(BV0)
      ) u_lo (
          .clk(clk),
          .a  (x0),
          .b  (y0),
          .p  (z0)
      );
      zk_kmul #(
          .W(L),
          .LEVELS(LEVELS - 1),
          .TA(TA),
          .TB(TB),
          .SPLIT(SPLIT),
          .CHAIN(CHAIN),
          .KARA(KARA),
          .BC(BC),
          .BV(BV1)
      ) u_hi (
          .clk(clk),
          .a  (x1),
          .b  (y1),
          .p  (z2)
      );

      // z1 = x1*y0 + x0*y1 < 2^(2H+1)
      logic [2*H+1:0] z1;
      if (KARA != 0) begin : g_add
        localparam logic [H:0] BVS = {1'b0, BV0} + {{(H + 1 - L) {1'b0}}, BV1};
        logic [H:0] xs, ys, a1e, b1e;
        always_comb begin
          a1e = '0;
          b1e = '0;
          a1e[L-1:0] = a[W-1:H];
          b1e[L-1:0] = bb[W-1:H];
        end
        always_ff @(posedge clk) begin
          xs <= {1'b0, a[H-1:0]} + a1e;
          ys <= {1'b0, bb[H-1:0]} + b1e;
        end
        logic [2*H+1:0] zm;
        zk_kmul #(
            .W(H + 1),
            .LEVELS(LEVELS - 1),
            .TA(TA),
            .TB(TB),
            .SPLIT(SPLIT),
            .CHAIN(CHAIN),
            .KARA(KARA),
            .BC(BC),
            .BV(BVS)
        ) u_mid (
            .clk(clk),
            .a  (xs),
            .b  (ys),
            .p  (zm)
        );
        always_comb z1 = zm - {2'b00, z0} - {{(2 * H - 2 * L + 2) {1'b0}}, z2};
      end else begin : g_sub
        localparam logic BSY = BV0 < BV1;  // y0 - y1 < 0
        localparam logic [H-1:0] BDY = BSY ? BV1 - BV0 : BV0 - BV1;
        logic [H-1:0] dx, dy, x1e, y1e;
        logic sx, sy;
        always_comb begin
          x1e = '0;
          y1e = '0;
          x1e[L-1:0] = a[W-1:H];
          y1e[L-1:0] = bb[W-1:H];
        end
        always_ff @(posedge clk) begin
          sx <= (x1e < a[H-1:0]);  // x1 - x0 < 0
          dx <= (x1e < a[H-1:0]) ? a[H-1:0] - x1e : x1e - a[H-1:0];
          if (BC != 0) begin
            sy <= BSY;
            dy <= BDY;
          end else begin
            sy <= (bb[H-1:0] < y1e);  // y0 - y1 < 0
            dy <= (bb[H-1:0] < y1e) ? y1e - bb[H-1:0] : bb[H-1:0] - y1e;
          end
        end
        logic [2*H-1:0] zm;
        zk_kmul #(
            .W(H),
            .LEVELS(LEVELS - 1),
            .TA(TA),
            .TB(TB),
            .SPLIT(SPLIT),
            .CHAIN(CHAIN),
            .KARA(KARA),
            .BC(BC),
            .BV(BDY)
        ) u_mid (
            .clk(clk),
            .a  (dx),
            .b  (dy),
            .p  (zm)
        );
        logic neg_d;
        zk_delay #(
            .W(1),
            .N(SUBLAT)
        ) u_sgn (
            .clk(clk),
            .d  (sx ^ sy),
            .q  (neg_d)
        );
        always_comb begin
          z1 = {2'b00, z0} + {{(2 * H - 2 * L + 2) {1'b0}}, z2};
          z1 = neg_d ? z1 - {2'b00, zm} : z1 + {2'b00, zm};
        end
      end

      // recombination: p = z0 + z1*2^H + z2*2^(2H)
      if (SPLIT == 0) begin : g_rc1
        // one stage: a 2W-bit carry chain
        logic [2*W+1:0] e0, e1, e2;
        always_comb begin
          e0 = '0;
          e1 = '0;
          e2 = '0;
          e0[2*H-1:0] = z0;
          e1[2*H+1:0] = z1;
          e2[2*L-1:0] = z2;
          e0 = e0 + (e1 << H) + (e2 << (2 * H));
        end
        always_ff @(posedge clk) p <= e0[2*W-1:0];
      end else begin : g_rc3
        // three stages, no chain longer than max(2H, 2L) + 3 bits:
        //   1: z1                 2: u = z0[2H-1:H] + z1
        //   3: p = {(u >> H) + z2, u[H-1:0], z0[H-1:0]}
        logic [2*H+1:0] z1r;
        logic [2*H-1:0] z0r;
        logic [2*L-1:0] z2r, z2s;
        logic [  H-1:0] lo0;
        logic [2*H+2:0] u;
        always_ff @(posedge clk) begin
          z1r <= z1;
          z0r <= z0;
          z2r <= z2;
          u   <= {{(H + 3) {1'b0}}, z0r[2*H-1:H]} + {1'b0, z1r};
          lo0 <= z0r[H-1:0];
          z2s <= z2r;
        end
        /* verilator lint_off UNUSEDSIGNAL */
        logic [2*L:0] hs;  // < 2^(2L): the product fits 2W bits
        /* verilator lint_on UNUSEDSIGNAL */
        always_comb hs = {1'b0, z2s} + {{(2 * L - H - 2) {1'b0}}, u[2*H+2:H]};
        always_ff @(posedge clk) p <= {hs[2*L-1:0], u[H-1:0], lo0};
      end
    end
  endgenerate
endmodule
