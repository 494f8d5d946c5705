// SuperScalar's bucket pipeline (zprize_calc_bucket: scheduler, bucket
// control, point adder) without its multipliers, timed alone in cal_ss_mul:
// the multiplier's interface only. Its outputs are path starts, its inputs
// path ends for fpga_sta.py.
(* blackbox *)
module zprize_mul_mod #(parameter WI = 378, WQ = 377, WR = 384, WM = 384, L = 3, T0 = 0, T1 = 0, T2 = 0,
  M = 1, R_I = 1, R_O = 1, parameter [383:0] Q = 0, QP = 0) (
  input clk, input rst, input [WI-1:0] in0, input [WI-1:0] in1, input [M-1:0] m_i, output [M-1:0] m_o,
  output [WI-1:0] out0);
endmodule
