// zk_delay_ram -- D-cycle delay line (D >= 3) in one memory (D - 1 words,
// one write and one registered read per cycle at the same address, read
// first), for delays too long for a register chain: block RAM on the FPGA,
// one copy per cycle instead of D in simulation. d at cycle c comes out at
// c + D. The memory is not reset: q_valid (the stored d_valid) is held low
// until every word has been written since reset, so garbage never shows as
// valid; q itself is garbage for the first D cycles. URAM = 1 asks for
// UltraRAM instead (4K x 72 per URAM288: the deep, wide ones).
module zk_delay_ram #(
    parameter integer W = 8,
    parameter integer D = 16,
    parameter integer URAM = 0
) (
    input  logic         clk,
    input  logic         rst,
    input  logic         d_valid,
    input  logic [W-1:0] d,
    output logic         q_valid,
    output logic [W-1:0] q
);
  localparam integer N = D - 1;  // words: write at c, read at c + N, out register +1
  localparam integer AW = $clog2(N + 1);
  logic [AW-1:0] wp;
  logic filled, qv;
  always_ff @(posedge clk) begin
    if (rst) begin
      wp <= '0;
      filled <= 1'b0;
    end else begin
      wp <= (wp == AW'(N - 1)) ? '0 : wp + 1'b1;
      if (wp == AW'(N - 1)) filled <= 1'b1;
    end
  end
  // block RAM: Yosys 0.23 otherwise picked single-port LUTRAM for a long one
  // and failed in its LUTRAM mapping (lutrams_xc5v_map.v: invalid
  // OPTION_ABITS/WIDTH combination)
  if (URAM != 0) begin : g_uram
    (* ram_style = "ultra" *) logic [W:0] mem[N];
    always_ff @(posedge clk) begin
      {qv, q} <= mem[wp];
      mem[wp] <= {d_valid, d};
    end
  end else begin : g_bram
    (* ram_style = "block" *) logic [W:0] mem[N];
    always_ff @(posedge clk) begin
      {qv, q} <= mem[wp];
      mem[wp] <= {d_valid, d};
    end
  end
  logic ok;
  always_ff @(posedge clk) ok <= rst ? 1'b0 : filled;
  assign q_valid = qv & ok;
endmodule
