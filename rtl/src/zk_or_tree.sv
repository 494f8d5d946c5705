// zk_or_tree -- the OR of N bits as a tree of 6-input ORs (one LUT6 each on
// an FPGA), the subtrees' outputs kept as wires so that the mapper builds a
// tree instead of a chain: log6(N) levels. Latency: combinational.
module zk_or_tree #(
    parameter integer N = 6
) (
    input  logic [N-1:0] in,
    output logic         out
);
  generate
    if (N <= 6) begin : g_leaf
      assign out = |in;
    end else begin : g_node
      localparam integer M = (N + 5) / 6;  // inputs per subtree
      localparam integer K = (N + M - 1) / M;  // subtrees
      (* keep *) logic [K-1:0] sub;
      genvar k;
      for (k = 0; k < K; k++) begin : g_sub
        localparam integer NK = (N - k * M < M) ? N - k * M : M;
        zk_or_tree #(
            .N(NK)
        ) u_t (
            .in (in[k*M+:NK]),
            .out(sub[k])
        );
      end
      assign out = |sub;
    end
  endgenerate
endmodule
