// zk_kmul -- W x W unsigned multiplier, LEVELS of subtractive Karatsuba over
// zk_mul_tiled base multipliers.
//
// With x = x1*2^H + x0 and y = y1*2^H + y0:
//   x*y = z2*2^(2H) + (z2 + z0 + (x1 - x0)*(y0 - y1))*2^H + z0,
// and the middle product is taken on magnitudes |x1-x0|, |y0-y1| (H bits, no
// carry growth) with the sign applied at recombination. 3^LEVELS base
// multipliers of W/2^LEVELS bits. Latency: zk_kmul_lat(LEVELS, SPLIT).
`include "zk_params.svh"
module zk_kmul #(
    parameter integer W      = 384,
    parameter integer LEVELS = `ZK_LEVELS,
    parameter integer TA     = `ZK_TA,
    parameter integer TB     = `ZK_TB,
    parameter integer SPLIT  = `ZK_SPLIT,  // recombination over 3 stages (shorter carry chains)
    parameter integer CHAIN  = 0  // base multipliers: tile rows summed in the DSPs
) (
    input  logic           clk,
    input  logic [  W-1:0] a,
    input  logic [  W-1:0] b,
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
          .CHAIN(CHAIN)
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

      // stage 1: split, subtract, take magnitudes
      logic [H-1:0] x0, y0, dx, dy, x1e, y1e;
      logic [L-1:0] x1, y1;
      logic sx, sy;
      always_comb begin
        x1e = '0;
        y1e = '0;
        x1e[L-1:0] = a[W-1:H];
        y1e[L-1:0] = b[W-1:H];
      end
      always_ff @(posedge clk) begin
        x0 <= a[H-1:0];
        y0 <= b[H-1:0];
        x1 <= a[W-1:H];
        y1 <= b[W-1:H];
        sx <= (x1e < a[H-1:0]);  // x1 - x0 < 0
        sy <= (b[H-1:0] < y1e);  // y0 - y1 < 0
        dx <= (x1e < a[H-1:0]) ? a[H-1:0] - x1e : x1e - a[H-1:0];
        dy <= (b[H-1:0] < y1e) ? y1e - b[H-1:0] : b[H-1:0] - y1e;
      end

      logic [2*H-1:0] z0, zm;
      logic [2*L-1:0] z2;
      zk_kmul #(
          .W(H),
          .LEVELS(LEVELS - 1),
          .TA(TA),
          .TB(TB),
          .SPLIT(SPLIT),
          .CHAIN(CHAIN)
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
          .CHAIN(CHAIN)
      ) u_hi (
          .clk(clk),
          .a  (x1),
          .b  (y1),
          .p  (z2)
      );
      zk_kmul #(
          .W(H),
          .LEVELS(LEVELS - 1),
          .TA(TA),
          .TB(TB),
          .SPLIT(SPLIT),
          .CHAIN(CHAIN)
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

      // recombination: z1 = z2 + z0 +/- zm (non-negative, < 2^(2H+1)),
      // p = z0 + z1*2^H + z2*2^(2H)
      logic [2*H+1:0] z1;
      always_comb begin
        z1 = {2'b00, z0} + {{(2 * H - 2 * L + 2) {1'b0}}, z2};
        z1 = neg_d ? z1 - {2'b00, zm} : z1 + {2'b00, zm};
      end
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
