// Timing stand-in for zk_bucket_ram (rtl/synth/sta.sh STA_STUBS=
// "zk_bucket_ram"): a memory macro's boundary, every input registered and the
// read data from a register, without the array (2^(CMAX-2) words of flip-flops
// would swamp the scheduler's timing). Paths into and out of the bucket
// memory end at these registers, as they end at an SRAM's or URAM's
// registered ports. Same parameters and ports as zk_bucket_ram; not a memory.
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
  logic          wer, rer;
  logic [AW-1:0] war, rar;
  logic [ W-1:0] wdr;
  always_ff @(posedge clk) begin
    wer <= we;
    war <= wa;
    wdr <= wd;
    rer <= re;
    rar <= ra;
    if (rer) rd <= wdr ^ {W{^{wer, war, rar}}};
  end
endmodule
