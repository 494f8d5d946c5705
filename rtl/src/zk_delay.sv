// zk_delay -- N-cycle delay line (N = 0: wire). No reset: data only.
// MEM = 0: a register chain (shift-register LUTs on the FPGA).
// MEM = 1 (N >= 3): a ring of N - 1 words, one write and one registered
// read per cycle at the same address, read first; block RAM on the FPGA,
// where a long, wide line would otherwise take W * ceil(N / 32) SRLC32E
// LUTs. Its pointer starts at 0 (an initial value); q is garbage for the
// first N cycles, as a chain's registers are.
module zk_delay #(
    parameter integer W = 1,
    parameter integer N = 1,
    parameter integer MEM = 0
) (
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic         clk,  // unused when N == 0
    /* verilator lint_on UNUSEDSIGNAL */
    input  logic [W-1:0] d,
    output logic [W-1:0] q
);
  generate
    if (N == 0) begin : g_wire
      assign q = d;
    end else if (MEM != 0 && N >= 3) begin : g_mem
      localparam integer NW = N - 1;  // write at c, read at c + NW, out register +1
      localparam integer AW = $clog2(NW);
      logic [AW-1:0] wp = '0;
      always_ff @(posedge clk) wp <= (wp == AW'(NW - 1)) ? '0 : wp + 1'b1;
      (* ram_style = "block" *) logic [W-1:0] mem[NW];
      always_ff @(posedge clk) begin
        q <= mem[wp];
        mem[wp] <= d;
      end
    end else begin : g_regs
      logic [W-1:0] r[N+1];
      assign r[0] = d;
      genvar i;
      for (i = 1; i <= N; i++) begin : g_stage
        always_ff @(posedge clk) r[i] <= r[i-1];
      end
      assign q = r[N];
    end
  endgenerate
endmodule
