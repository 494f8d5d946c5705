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
// 1-bit reads of 2^AW-entry tables. Each read port has its own copy, and
// each copy is four banks of 2^(AW-2) bits (by the address's top two bits,
// so the reset sweep clears four buckets a cycle): sixteen zk_bitram of one
// write and one read port each, distributed RAM on an FPGA.
//
// The issue comes registered: issue/issue_addr/issue_par are the operation
// the scheduler decided in the previous cycle (its i_* registers), written
// to SET at the end of this cycle, and a lookup of its bucket this cycle
// sees it as written (forwarded), so the write's address and data come
// from flip-flops, not from the decision.
//
// Timing, the same as zk_inflight's: an operation decided in cycle t makes
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
    input  logic          issue,       // decided in the previous cycle
    input  logic [AW-1:0] issue_addr,
    input  logic          issue_par,   // the SET bit the issue writes (!par of its port)
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
  localparam integer OW = AW - 2;  // a bank: the buckets with one top pair of address bits
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

  // table t (0: SET, written at issue; 1: CLR, written at write-back), read
  // port r (0: qa, 1: qb), bank k: instance 8t + 4r + k; the sweep writes
  // zeros to every bank
  logic [1:0] t_we, t_wd;
  logic [2*OW-1:0] t_wa;  // table t's offset at [t*OW +: OW]
  logic [3:0] t_bank;  // table t's bank at [2t +: 2]
  logic [2*OW-1:0] q_off;  // port r's offset at [r*OW +: OW]
  assign t_we = {wb, issue};
  assign t_wd = sweeping ? 2'b00 : {wb_par, issue_par};
  assign t_wa = sweeping ? {sw_k, sw_k} : {wb_addr[OW-1:0], issue_addr[OW-1:0]};
  assign t_bank = {wb_addr[AW-1:OW], issue_addr[AW-1:OW]};
  assign q_off = {qb[OW-1:0], qa[OW-1:0]};
  logic [15:0] rd;  // instance 8t + 4r + k's read
`ifdef FORMAL
  logic [16*2**OW-1:0] f_bank;  // instance i's bits at [i*2^OW +: 2^OW]
`endif
  genvar gt, gr, gk;
  for (gt = 0; gt < 2; gt++) begin : g_t
    for (gr = 0; gr < 2; gr++) begin : g_r
      for (gk = 0; gk < 4; gk++) begin : g_k
        zk_bitram #(
            .AW(OW)
        ) u_bits (
            .clk(clk),
            .we(sweeping || (t_we[gt] && t_bank[2*gt+:2] == 2'(gk))),
            .wa(t_wa[gt*OW+:OW]),
            .wd(t_wd[gt]),
            .ra(q_off[gr*OW+:OW]),
            .rd(rd[8*gt+4*gr+gk])
`ifdef FORMAL
            ,
            .f_mem(f_bank[(8*gt+4*gr+gk)*2**OW+:2**OW])
`endif
        );
      end
    end
  end
  logic sa, ca, sb, cb;
  assign sa = rd[{2'd0, qa[AW-1:OW]}];
  assign ca = rd[{2'd2, qa[AW-1:OW]}];
  assign sb = rd[{2'd1, qb[AW-1:OW]}];
  assign cb = rd[{2'd3, qb[AW-1:OW]}];
  // SET with this cycle's write forwarded; locked unless its write-back is
  // this cycle
  logic fa, fb, wa, wbq;
  zk_eq #(.W(AW)) u_fa (.en(issue), .a(issue_addr), .b(qa), .eq(fa));
  zk_eq #(.W(AW)) u_fb (.en(issue), .a(issue_addr), .b(qb), .eq(fb));
  zk_eq #(.W(AW)) u_wa (.en(wb), .a(wb_addr), .b(qa), .eq(wa));
  zk_eq #(.W(AW)) u_wb (.en(wb), .a(wb_addr), .b(qb), .eq(wbq));
  assign par_a = fa ? issue_par : sa;
  assign par_b = fb ? issue_par : sb;
  assign hit_a = (par_a ^ ca) && !wa;
  assign hit_b = (par_b ^ cb) && !wbq;
`ifdef FORMAL
  genvar fk;
  for (fk = 0; fk < 2 ** AW; fk++) begin : g_f
    // port 0's copies (bank fk/2^OW, offset fk%2^OW), this cycle's SET write forwarded
    assign f_lock[fk] = ((issue && issue_addr == AW'(fk)) ? issue_par : f_bank[fk]) ^ f_bank[8*2**OW+fk];
  end
`endif
endmodule
