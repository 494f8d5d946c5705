// zk_bitram -- a table of 2^AW bits with one write port (at the clock edge)
// and one asynchronous read port: the storage of the lock table.
//
// Behavioural unless ZK_XILINX_LUTRAM is defined. With it (the synthesis
// scripts for UltraScale+ define it), the table is built of RAM256X1D
// primitives (256 bits in four LUTs) and a 2^(AW-8):1 multiplexer on their
// outputs (a tree of 4:1, zk_mux_tree). Yosys 0.23 maps the behavioural form of a 2^14- to 2^16-bit
// table to RAM64M8 (64 bits in eight LUTs), a quarter of the density of
// RAM64X1D and an eighth of RAM256X1D's.
// Latency: the read is combinational; a write is read from the next cycle.
module zk_bitram #(
    parameter integer AW = 14
) (
    input  logic          clk,
    input  logic          we,
    input  logic [AW-1:0] wa,
    input  logic          wd,
    input  logic [AW-1:0] ra,
    output logic          rd
`ifdef FORMAL
    ,
    output logic [2**AW-1:0] f_mem  // every bit, bit k at address k
`endif
);
`ifdef ZK_XILINX_LUTRAM
  if (AW >= 8) begin : g_prim
    localparam integer N = 2 ** (AW - 8);
    logic [N-1:0] o;
    genvar k;
    for (k = 0; k < N; k++) begin : g_ram
      RAM256X1D #(
          .INIT(256'h0)
      ) u_ram (
          .WCLK(clk),
          .WE(we && wa[AW-1:8] == (AW - 8)'(k)),
          .A(wa[7:0]),
          .D(wd),
          .DPRA(ra[7:0]),
          .DPO(o[k]),
          .SPO()
      );
    end
    // the RAMs' outputs through a tree of 4:1 multiplexers
    zk_mux_tree #(
        .N(N)
    ) u_mux (
        .in (o),
        .sel(ra[AW-1:8]),
        .out(rd)
    );
  end else begin : g_mem
    logic mem[2**AW];
    always_ff @(posedge clk) if (we) mem[wa] <= wd;
    assign rd = mem[ra];
  end
`else
  logic mem[2**AW];
  always_ff @(posedge clk) if (we) mem[wa] <= wd;
  assign rd = mem[ra];
`ifdef FORMAL
  genvar fk;
  for (fk = 0; fk < 2 ** AW; fk++) begin : g_f
    assign f_mem[fk] = mem[fk];
  end
`endif
`endif
endmodule
