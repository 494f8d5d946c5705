`include "zk_params.svh"
// zk_core_counters -- the MSM core's performance counters, cleared at start
// (and reset), counting the cycles of a run (`run`: the core's ST_RUN).
// Each input is one cycle's event from the core; the counters are the sums
// since start (zk_msm_csr maps them to registers):
//   cycles      start to done
//   acc_cycles  start to the last bucket write-back (acc_busy)
//   issued      additions issued into the datapath
//   conflicts   operations that went to the pending queue
//   stalls      cycles the input head waited
//   bubbles     accumulation cycles without an issue
//   zero        zero (or out-of-range) digits
//   ro_stalls   cycles the bucket output was held
//   pending_hwm the pending queue's largest fill
// Latency: an event in cycle t is in the counter from cycle t+2: the events
// are registered first, so the counters' 64-bit carry chains are a stage
// of their own, off the scheduler's decision (the core's longest stage
// otherwise: docs/RTL.md, "Static timing"). The host reads the counters
// after done, many cycles later.
module zk_core_counters #(
    parameter integer CW = `ZK_CW,
    parameter integer QW = 5  // width of the queue fill
) (
    input  logic          clk,
    input  logic          rst,
    input  logic          clear,
    input  logic          run,
    input  logic          acc_busy,
    input  logic          issue,
    input  logic          conflict,
    input  logic          stall,
    input  logic          zero,
    input  logic          ro_stall,
    input  logic [QW-1:0] fill,
    output logic [CW-1:0] cnt_cycles,
    output logic [CW-1:0] cnt_acc_cycles,
    output logic [CW-1:0] cnt_issued,
    output logic [CW-1:0] cnt_conflicts,
    output logic [CW-1:0] cnt_stalls,
    output logic [CW-1:0] cnt_bubbles,
    output logic [CW-1:0] cnt_zero,
    output logic [CW-1:0] cnt_ro_stalls,
    output logic [  15:0] pending_hwm
);
  logic e_run, e_acc, e_issue, e_conflict, e_stall, e_zero, e_ro_stall;
  logic [QW-1:0] e_fill;
  always_ff @(posedge clk) begin
    if (rst || clear) begin
      e_run <= 1'b0;
      {e_acc, e_issue, e_conflict, e_stall, e_zero, e_ro_stall} <= '0;
      e_fill <= '0;
    end else begin
      e_run <= run;
      {e_acc, e_issue, e_conflict, e_stall, e_zero, e_ro_stall} <= {acc_busy, issue, conflict, stall, zero, ro_stall};
      e_fill <= fill;
    end
  end
  always_ff @(posedge clk) begin
    if (rst || clear) begin
      cnt_cycles <= '0;
      cnt_acc_cycles <= '0;
      cnt_issued <= '0;
      cnt_conflicts <= '0;
      cnt_stalls <= '0;
      cnt_bubbles <= '0;
      cnt_zero <= '0;
      cnt_ro_stalls <= '0;
      pending_hwm <= '0;
    end else if (e_run) begin
      cnt_cycles <= cnt_cycles + 1'b1;
      cnt_acc_cycles <= cnt_acc_cycles + CW'(e_acc);
      cnt_issued <= cnt_issued + CW'(e_issue);
      cnt_conflicts <= cnt_conflicts + CW'(e_conflict);
      cnt_stalls <= cnt_stalls + CW'(e_stall);
      cnt_bubbles <= cnt_bubbles + CW'(e_acc && !e_issue);
      cnt_zero <= cnt_zero + CW'(e_zero);
      cnt_ro_stalls <= cnt_ro_stalls + CW'(e_ro_stall);
      if (16'(e_fill) > pending_hwm) pending_hwm <= 16'(e_fill);
    end
  end
endmodule
