// Harnesses for timing SuperScalar's RTL (z-prize/2023-entries,
// SuperScalar_Zprize2023/fpga_msm_dev/host/src/krnl_msm_rtl/hdl) with
// rtl/synth/fpga_sta.py, the parameters as the design's MULMOD macro gives
// them (T0 = T2 = 32'h07F7_F999, T1 = 32'h0000_005F). The anchor's sources
// are read from the folder calibrate.sh is given; none of them is here.

// the Montgomery multiplier, registered in and out
module cal_ss_mul (input clk, input [376:0] a, b, output reg [376:0] p);
  reg [376:0] ar, br;
  wire [376:0] y;
  wire top;
  always @(posedge clk) begin ar <= a; br <= b; p <= y; end
  zprize_mul_mod #(.T0(32'h07F7_F999), .T1(32'h0000_005F), .T2(32'h07F7_F999))
    u (.clk(clk), .rst(1'b0), .m_i(1'b0), .m_o(), .in0({1'b0, ar}), .in1({1'b0, br}), .out0({top, y}));
endmodule

// A stand-in for `hyperPipe`, which the published sources instantiate (CYCLES,
// WIDTH; clk, din, dout) but do not define: CYCLES registers in a row, as the
// name and its uses (delay lines beside the multiplier and adders) say.
module hyperPipe #(parameter CYCLES = 1, parameter WIDTH = 1) (
  input clk, input [WIDTH-1:0] din, output [WIDTH-1:0] dout);
  localparam N = CYCLES > 0 ? CYCLES : 1;
  reg [WIDTH-1:0] r [0:N-1];
  integer i;
  always @(posedge clk) begin
    r[0] <= din;
    for (i = 1; i < N; i = i + 1) r[i] <= r[i-1];
  end
  assign dout = CYCLES == 0 ? din : r[N-1];
endmodule
