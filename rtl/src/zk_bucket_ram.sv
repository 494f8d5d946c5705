// zk_bucket_ram -- one bucket bank: simple dual-port RAM, one write port and
// one read port, read latency RL >= 1 register stages (the URAM/BRAM output
// registers on an FPGA). The core never reads and writes one address at the
// same clock edge, so the collision mode does not matter.
module zk_bucket_ram #(
    parameter integer W  = 8,
    parameter integer AW = 4,
    parameter integer RL = 2
) (
    input  logic          clk,
    input  logic          we,
    input  logic [AW-1:0] wa,
    input  logic [ W-1:0] wd,
    input  logic          re,
    input  logic [AW-1:0] ra,
    output logic [ W-1:0] rd
);
  (* ram_style = "ultra" *) logic [W-1:0] mem[2**AW];
  logic [W-1:0] r0;
  always_ff @(posedge clk) begin
    if (we) mem[wa] <= wd;
  end
  always_ff @(posedge clk) begin
    if (re) r0 <= mem[ra];
  end
  // output registers
  zk_delay #(
      .W(W),
      .N(RL - 1)
  ) u_oreg (
      .clk(clk),
      .d  (r0),
      .q  (rd)
  );
endmodule
