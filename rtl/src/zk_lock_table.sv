// zk_lock_table -- the scheduler's hazard detector for thousands of cycles
// in flight: a lock bit per bucket, set when an operation on the bucket
// issues and cleared when it writes back. Its cost does not grow with the
// hazard window (zk_inflight compares against every operation in flight).
//
// Two write ports (set at issue, clear at write-back, possibly on one
// bucket in one cycle) come from two tables of one write port each: the
// lock is SET[a] xor CLR[a]. An issue writes SET[a] <= !SET[a] (the new
// value, par_*, travels with the operation through the datapath as a tag
// bit); its write-back writes CLR[a] <= that bit, which makes the two equal
// again. Each table has one write port and one read port per candidate
// (the stream's head qa, the pending queue's head qb): four asynchronous
// 1-bit reads of 2^AW-entry tables (distributed RAM on an FPGA, one copy
// per read port).
//
// Timing, the same as zk_inflight's: an operation issued in cycle t makes
// its bucket busy from cycle t+1; its write-back (wb_v, in cycle t+1+HZ)
// frees the bucket in that same cycle (a candidate deciding then reads
// the bucket after the write-back's edge), so a bucket is busy in cycles
// t+1 .. t+HZ. After reset both tables are cleared, one word of four
// buckets per cycle (`ready` then rises, after 2^(AW-2) cycles).
// Latency: lookups combinational, writes at the clock edge.
module zk_lock_table #(
    parameter integer AW = 16
) (
    input  logic          clk,
    input  logic          rst,
    output logic          ready,
    input  logic          issue,
    input  logic [AW-1:0] issue_addr,
    input  logic          issue_par,  // the SET bit the issue writes (!par of its port)
    input  logic          wb,
    input  logic [AW-1:0] wb_addr,
    input  logic          wb_par,  // the issue's SET bit, back from the datapath
    input  logic [AW-1:0] qa,
    output logic          hit_a,
    output logic          par_a,  // SET[qa]
    input  logic [AW-1:0] qb,
    output logic          hit_b,
    output logic          par_b
`ifdef FORMAL
    ,
    output logic [2**AW-1:0] f_lock  // SET xor CLR, every bucket
`endif
);
  localparam integer OW = AW - 2;  // a word: the four buckets of one offset
  logic [3:0] set_t[2**OW];
  logic [3:0] clr_t[2**OW];
  logic [OW-1:0] sw_k;  // the clearing sweep after reset
  logic sweeping;
  always_ff @(posedge clk) begin
    if (rst) begin
      sw_k <= '0;
      sweeping <= 1'b1;
    end else if (sweeping) begin
      sw_k <= sw_k + 1'b1;
      if (sw_k == '1) sweeping <= 1'b0;
    end
  end
  assign ready = !sweeping;
  always_ff @(posedge clk) begin
    if (sweeping) set_t[sw_k] <= '0;
    else if (issue) set_t[issue_addr[OW-1:0]][issue_addr[AW-1:OW]] <= issue_par;
  end
  always_ff @(posedge clk) begin
    if (sweeping) clr_t[sw_k] <= '0;
    else if (wb) clr_t[wb_addr[OW-1:0]][wb_addr[AW-1:OW]] <= wb_par;
  end
  logic sa, ca, sb, cb;
  assign sa = set_t[qa[OW-1:0]][qa[AW-1:OW]];
  assign ca = clr_t[qa[OW-1:0]][qa[AW-1:OW]];
  assign sb = set_t[qb[OW-1:0]][qb[AW-1:OW]];
  assign cb = clr_t[qb[OW-1:0]][qb[AW-1:OW]];
  assign par_a = sa;
  assign par_b = sb;
  // locked, unless its write-back is this cycle
  assign hit_a = (sa ^ ca) && !(wb && wb_addr == qa);
  assign hit_b = (sb ^ cb) && !(wb && wb_addr == qb);
`ifdef FORMAL
  genvar fk;
  for (fk = 0; fk < 2 ** AW; fk++) begin : g_f
    assign f_lock[fk] = set_t[fk%(2**OW)][fk/(2**OW)] ^ clr_t[fk%(2**OW)][fk/(2**OW)];
  end
`endif
endmodule
