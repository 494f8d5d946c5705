// Black boxes for timing CycloneMSM's control (top_msm_2) without its point adder, FIFOs and RAMs (calibrate.sh):
// interfaces only, as the anchor's modules declare them. A black box's
// outputs are path starts and its inputs path ends for fpga_sta.py.
(* blackbox *)
module twisted_edwards_prek_full #(parameter S = 0, W = 378, WQ = 377, WR = 384, WM = 384, L = 3,
  T0 = 0, T1 = 0, T2 = 0, D_M = 39, M = 32) (
  input clk, input rst, input asub,
  input [WQ-1:0] in0_x, in0_y, in0_z, in0_t, in1_x, in1_y, in1_z, in1_t,
  input [M-1:0] m_i, output [M-1:0] m_o,
  output [WQ-1:0] out0_x, out0_y, out0_z, out0_t);
endmodule

(* blackbox *)
module showahead_fifo #(parameter WIDTH = 32, DEPTH = 32, D_L = $clog2(DEPTH), FULL_THRESH = DEPTH - 6) (
  input wr_clk, input wr_req, input [WIDTH-1:0] wr_data, output wr_full, output wr_full_b,
  output [D_L:0] wr_count, input rd_clk, input rd_req, output [WIDTH-1:0] rd_data,
  output rd_empty, output rd_not_empty, output [D_L:0] rd_count, input aclr);
endmodule

(* blackbox *)
module simple_dual_port_ram #(parameter ADDRESS_WIDTH = 10, DATA_WIDTH = 32, REGISTER_OUTPUT = 0,
  CLOCKING_MODE = "independent_clock", MEMORY_PRIMITIVE = "block", WRITE_MODE = "read_first") (
  input rd_clock, input [ADDRESS_WIDTH-1:0] rd_address, output [DATA_WIDTH-1:0] q, input rd_en,
  input wr_clock, input [ADDRESS_WIDTH-1:0] wr_address, input [DATA_WIDTH/8-1:0] wr_byteenable,
  input [DATA_WIDTH-1:0] data, input wr_en);
endmodule
