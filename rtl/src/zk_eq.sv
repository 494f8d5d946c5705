// zk_eq -- en && a == b as a two-level tree on an FPGA: three bit pairs per
// LUT6 (two beside en), the groups kept as wires, then their AND (W <= 17:
// six groups, one LUT6; wider: zk_or_tree). Latency: combinational.
module zk_eq #(
    parameter integer W = 16
) (
    input  logic         en,
    input  logic [W-1:0] a,
    input  logic [W-1:0] b,
    output logic         eq
);
  localparam integer G = (W + 1 + 2) / 3;  // groups of three pairs, en taking one pair's place
  (* keep *) logic [G-1:0] g;
  genvar k;
  for (k = 0; k < G; k++) begin : g_grp
    if (k == 0) begin : g_en
      localparam integer NB = W < 2 ? W : 2;
      assign g[0] = en && a[NB-1:0] == b[NB-1:0];
    end else begin : g_pairs
      localparam integer LO = 3 * k - 1;
      localparam integer NB = (W - LO < 3) ? W - LO : 3;
      assign g[k] = a[LO+:NB] == b[LO+:NB];
    end
  end
  logic ne;
  zk_or_tree #(
      .N(G)
  ) u_any (
      .in (~g),
      .out(ne)
  );
  assign eq = !ne;
endmodule
