// zk_core_formal -- the formal harness: zk_msm_core in a reduced
// configuration with the integer stand-in datapath, every input free
// (anyseq) except for the AXI4-Stream rules an upstream must keep: a beat
// offered stays offered, unchanged, until taken. Reset in the first cycle.
// The properties are in rtl/src/zk_msm_core_props.svh and zk_pending.sv;
// rtl/formal/prove.sh checks them (BMC from reset, a k-induction attempt,
// mutations).
module zk_core_formal #(
    parameter integer CMAX = 3,
    parameter integer PD   = 2,
    parameter integer BRL  = 1,
    parameter integer SLAT = 2,
    parameter integer SW   = 2,
    parameter integer NW   = 3,
    parameter integer WW   = 2,
    parameter integer DGW  = 4,
    parameter integer LOCK = 0,
    parameter integer RQ   = 0
) (
    input logic clk
);
  reg init = 1'b1;
  always @(posedge clk) init <= 1'b0;
  wire rst = init;

  (* anyseq *) wire start;
  (* anyseq *) wire [NW-1:0] cfg_n;
  (* anyseq *) wire [4:0] cfg_c;
  (* anyseq *) wire [WW-1:0] cfg_windows;
  (* anyseq *) wire [4:0] cfg_top;
  (* anyseq *) wire s_tvalid;
  (* anyseq *) wire [SW-1:0] s_point;
  (* anyseq *) wire [DGW-1:0] s_digit;
  (* anyseq *) wire s_tlast;
  (* anyseq *) wire m_tready;
  wire s_tready;

  // AXI4-Stream: an offered beat stays, unchanged, until taken
  reg f_past = 1'b0;
  always @(posedge clk) f_past <= 1'b1;
  always @(posedge clk)
    if (f_past && !$past(rst) && $past(s_tvalid && !s_tready)) begin
      assume (s_tvalid);
      assume (s_point == $past(s_point) && s_digit == $past(s_digit) && s_tlast == $past(s_tlast));
    end

  /* verilator lint_off PINCONNECTEMPTY */
  zk_msm_core #(
      .DP(0),
      .SW(SW),
      .SLAT(SLAT),
      .CMAX(CMAX),
      .PD(PD),
      .BRL(BRL),
      .NW(NW),
      .WW(WW),
      .DGW(DGW),
      .LOCK(LOCK),
      .RQ(RQ),
      .CW(4)
  ) dut (
      .clk(clk),
      .rst(rst),
      .start(start),
      .cfg_n(cfg_n),
      .cfg_c(cfg_c),
      .cfg_windows(cfg_windows),
      .cfg_top(cfg_top),
      .ready(),
      .busy(),
      .done_pulse(),
      .errors(),
      .cnt_cycles(),
      .cnt_acc_cycles(),
      .cnt_issued(),
      .cnt_conflicts(),
      .cnt_stalls(),
      .cnt_bubbles(),
      .cnt_zero(),
      .cnt_ro_stalls(),
      .pending_hwm(),
      .lat_dp(),
      .lat_hz(),
      .lat_ag(),
      .s_tvalid(s_tvalid),
      .s_tready(s_tready),
      .s_point(s_point),
      .s_digit(s_digit),
      .s_tlast(s_tlast),
      .m_tvalid(),
      .m_tready(m_tready),
      .m_tdata(),
      .m_tuser(),
      .m_tlast()
  );
  /* verilator lint_on PINCONNECTEMPTY */
endmodule
