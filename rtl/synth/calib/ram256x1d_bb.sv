// RAM256X1D interface only (the UltraScale primitive's ports and parameters),
// so that RTL instantiating it elaborates under read_slang; Yosys keeps it a
// black box of that type, which rtl/synth/fpga_sta.py times as a LUTRAM.
(* blackbox *)
module RAM256X1D #(
  parameter [255:0] INIT = 256'h0,
  parameter [0:0] IS_WCLK_INVERTED = 1'b0
) (
  output DPO,
  output SPO,
  input [7:0] A,
  input D,
  input [7:0] DPRA,
  input WCLK,
  input WE
);
endmodule
