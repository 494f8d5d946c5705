// zk_inflight -- the scheduler's hazard detector: the bucket address of every
// operation issued in the last HZ cycles, i.e. every bucket whose read has
// happened or is about to and whose write-back has not (HZ = bucket-read
// latency + adder latency, computed by the core). Two lookup ports (the
// stream's head and the pending queue's head) compare against all HZ
// entries in parallel: HZ equality comparators of AW bits per port, an OR
// tree behind each. Small addresses (16 bits) make this cheaper than a
// multi-ported busy bitmap over 2^16 buckets.
module zk_inflight #(
    parameter integer AW = 16,
    parameter integer HZ = 8
) (
    input  logic          clk,
    input  logic          rst,
    input  logic          issue,
    input  logic [AW-1:0] issue_addr,
    input  logic [AW-1:0] qa,
    output logic          hit_a,
    input  logic [AW-1:0] qb,
    output logic          hit_b,
    output logic [   HZ-1:0] v,  // entry k: issued k+1 cycles ago (for the formal properties)
    output logic [HZ*AW-1:0] a   // its address: a[k*AW +: AW]
);
  always_ff @(posedge clk) begin
    if (rst) v <= '0;
    else v <= {v[HZ-2:0], issue};
  end
  always_ff @(posedge clk) a <= {a[(HZ-1)*AW-1:0], issue_addr};
  // one comparator per entry and port, kept as wires so the mapper builds
  // each OR as a tree behind them
  (* keep *) logic [HZ-1:0] m_a, m_b;
  genvar k;
  for (k = 0; k < HZ; k++) begin : g_cmp
    zk_eq #(.W(AW)) u_a (.en(v[k]), .a(a[k*AW+:AW]), .b(qa), .eq(m_a[k]));
    zk_eq #(.W(AW)) u_b (.en(v[k]), .a(a[k*AW+:AW]), .b(qb), .eq(m_b[k]));
  end
  zk_or_tree #(.N(HZ)) u_or_a (.in(m_a), .out(hit_a));
  zk_or_tree #(.N(HZ)) u_or_b (.in(m_b), .out(hit_b));
endmodule
