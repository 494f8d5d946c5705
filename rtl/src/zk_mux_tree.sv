// zk_mux_tree -- an N:1 multiplexer as a tree of 4:1 multiplexers (one
// LUT6 each on an FPGA), the subtrees' outputs kept as wires so that the
// mapper builds the tree instead of a chain: log4(N) levels. in[k] is out
// for sel = k (k < N; sel >= N gives in[N-1]'s subtree's choice).
// Latency: combinational.
module zk_mux_tree #(
    parameter integer N = 4
) (
    input  logic [N-1:0]                      in,
    input  logic [(N > 1 ? $clog2(N) : 1)-1:0] sel,
    output logic                              out
);
  localparam integer SW = N > 1 ? $clog2(N) : 1;
  generate
    if (N <= 1) begin : g_one
      logic unused;
      assign unused = ^sel;
      assign out = in[0];
    end else if (N <= 4) begin : g_leaf
      assign out = in[sel];
    end else begin : g_node
      // four subtrees of M inputs each (the last may be short), by sel's
      // low bits; the top two bits pick among them
      localparam integer LW = SW - 2;
      localparam integer M = 1 << LW;
      (* keep *) logic [3:0] sub;
      genvar k;
      for (k = 0; k < 4; k++) begin : g_sub
        if (k * M < N) begin : g_on
          localparam integer NK = (N - k * M < M) ? N - k * M : M;
          logic [NK-1:0] part;
          assign part = in[k*M+:NK];
          zk_mux_tree #(
              .N(NK)
          ) u_t (
              .in (part),
              .sel(sel[(NK > 1 ? $clog2(NK) : 1)-1:0]),
              .out(sub[k])
          );
        end else begin : g_off
          assign sub[k] = 1'b0;
        end
      end
      assign out = sub[sel[SW-1:SW-2]];
    end
  endgenerate
endmodule
