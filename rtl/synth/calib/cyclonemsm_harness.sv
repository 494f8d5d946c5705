// Harnesses for timing CycloneMSM's RTL (z-prize/2022-entries, nickray/cl/design/jmp)
// with rtl/synth/fpga_sta.py. Each registers the inputs and outputs of one of
// the design's modules, instantiated with the parameters top_msm_2.sv gives it
// (twisted_edwards_prek_full: W 378, WQ 377, WR 384, WM 384, L 3, T0 = T2 =
// 32'h07F7_F999, T1 = 32'h0000_005F), so that every path inside runs from a
// register to a register as in the design. The anchor's sources are read from
// the folder calibrate.sh is given; none of them is in this repository.

// the Montgomery multiplier: a*b Karatsuba (DSP cascades), m = t*q' (constant,
// LUTs), m*q, the final additions and the reduction
module cal_cm_mul (input clk, input [377:0] a, b, output reg [377:0] p);
  reg [377:0] ar, br;
  wire [377:0] y;
  always @(posedge clk) begin ar <= a; br <= b; p <= y; end
  mul_montgomery #(.WI(378), .WQ(377), .WR(384), .WM(384), .L(3),
                   .T0(32'h07F7_F999), .T1(32'h0000_005F), .T2(32'h07F7_F999))
    u (.clk(clk), .rst(1'b0), .in0(ar), .in1(br), .m_i(1'b0), .m_o(), .out0(y));
endmodule

// the point adder around its seven multipliers (mul_montgomery a black box,
// timed in cal_cm_mul): the field additions and subtractions, their
// reductions, the delay lines
module cal_cm_add (input clk, input asub, input [376:0] x0, y0, z0, t0, x1, y1, z1, t1,
                   output reg [376:0] x, y, z, t);
  reg as_r;
  reg [376:0] r[0:7];
  wire [376:0] ox, oy, oz, ot;
  always @(posedge clk) begin
    as_r <= asub; r[0] <= x0; r[1] <= y0; r[2] <= z0; r[3] <= t0;
    r[4] <= x1; r[5] <= y1; r[6] <= z1; r[7] <= t1;
    x <= ox; y <= oy; z <= oz; t <= ot;
  end
  twisted_edwards_prek_full #(.W(378), .WQ(377), .WR(384), .WM(384), .L(3),
                              .T0(32'h07F7_F999), .T1(32'h0000_005F), .T2(32'h07F7_F999), .D_M(35))
    u (.clk(clk), .rst(1'b0), .asub(as_r), .in0_x(r[0]), .in0_y(r[1]), .in0_z(r[2]), .in0_t(r[3]),
       .in1_x(r[4]), .in1_y(r[5]), .in1_z(r[6]), .in1_t(r[7]), .m_i(32'd0), .m_o(),
       .out0_x(ox), .out0_y(oy), .out0_z(oz), .out0_t(ot));
endmodule
