`include "zk_params.svh"
// zk_core_agg -- bucket aggregation on the device: a window's sum
// W = sum_k (k+1) B_k is reduced in place in its bucket bank, through the
// core's own adder, to 2G partial sums, which the read-out then sends
// instead of the window's 2^(c-1) buckets (PriorMSM's partitioned
// aggregation; docs/RTL.md, "Bucket aggregation on the device").
//
// The buckets k = g m + i (G = 2^(c-1) / m groups of m = 2^lm, i < m):
//   chain   for s = 1 .. m-1, for every group g:  B[g,m-1-s] += B[g,m-s]
//           (B[g,i] is then R[g,i] = sum of the group's buckets i' >= i)
//   tree    for d = 1, 2, 4, .. < m-1, for every g, for p = 0, 2d, .. with
//           p + d <= m-2:  B[g,1+p] += B[g,1+p+d]
//           (B[g,1] is then X_g = sum of R[g,i], i >= 1)
// and the window's sum is sum_g X_g + (1 + g m) S_g with S_g = B[g,0]
// (the host's part: 3G additions and lm doublings instead of 2^c). In the
// spread last window (zk_msm_core) a group is one copy, m = 2^tb, and the
// host drops the g m S_g term: every copy carries the weights 1 .. 2^tb.
//
// An operation reads its source bucket in one cycle and its destination in
// the next (the bank has one read port; the reads go through the bank
// memory's own aggregation port, zk_core_buckets), and both go to the adder
// as (bucket, point) with a tag bit that keeps the write-back away from the
// scheduler's lock table and counts. The adder takes one operation a cycle:
// the destination's read holds the scheduler (`hold`: it decides nothing in
// that cycle), so the operation has the adder's slot; the source's read
// costs the scheduler nothing. A source at infinity
// (affine buckets, DP = 2) makes no operation (a bubble for the adder).
// A conversion of CL cycles between the reads and the adder (zk_te_agg_in
// on the twisted Edwards core: CL = zk_te_agg_lat) moves the operation's
// slot CL cycles later, and `hold` with it.
// Operations of one step are independent; the next step starts HZ + CL + 1
// cycles after the last one's decision (every write-back done), so the
// cycles do not depend on the data: the cycle model counts them exactly.
//
// Windows are aggregated in order, each once its input is done and nothing
// of it is outstanding; ag_win counts the windows done (the read-out waits
// for it). lm = 0: nothing to do (the core sends every bucket).
//
// Latency: a decision in cycle t reads at the edge ending t+1 (rv, ra, in
// cycle t+1); the data returns in cycle t+1+BRL; the operation enters the
// adder in cycle t+2+BRL (dv), beside its destination's word (the
// adder's input CL cycles later, where `hold` holds the scheduler).
module zk_core_agg #(
    parameter integer CMAX = `ZK_CMAX,
    parameter integer BRL  = `ZK_BRL,
    parameter integer WW   = `ZK_WW,
    parameter integer HZ   = 8,
    parameter integer CL   = 0,  // conversion cycles between dv and the adder
    parameter integer VW   = 16,
    parameter integer PW   = 16,
    parameter integer INF  = 0  // 1: bit VW-1 of a bucket is its infinity flag
) (
    input  logic              clk,
    input  logic              rst,
    input  logic              flush,    // (start: window 0 next)
    input  logic              run,
    input  logic              on,       // the AGG register is not 0
    input  logic [       4:0] lm_n,     // log2 m of a window, and of the last one
    input  logic [       4:0] lm_l,     // (zk_msm_core, fixed for the MSM)
    input  logic [  CMAX-1:0] nbk,      // buckets per window, 2^(c-1)
    input  logic [    WW-1:0] windows,
    input  logic              two,      // c = CMAX
    input  logic [       3:0] bk_busy,
    input  logic [  4*WW-1:0] bk_win,
    input  logic [       3:0] bk_indone,
    input  logic [       3:0] bk_idle,
    output logic              hold,     // this cycle's adder slot is the aggregation's
    output logic              rv,       // a bucket read (the aggregation port)
    output logic [  CMAX-1:0] ra,
    output logic [       1:0] rbank,    // the bank of the read returning on q now
    input  logic [    VW-1:0] q,
    output logic              dv,       // an addition into the adder
    output logic [  CMAX-1:0] da,
    output logic [    PW-1:0] dpoint,
    output logic [    WW-1:0] ag_win    // windows aggregated
);
  localparam integer IW = CMAX - 1;
  localparam integer AW = CMAX;
  localparam integer OFW = CMAX - 2;
  localparam integer TW = $clog2(HZ + CL + 2);
`include "zk_core_addr.svh"
`include "zk_funcs.svh"

  localparam logic [1:0] S_IDLE = 2'd0, S_SRC = 2'd1, S_DST = 2'd2, S_WAIT = 2'd3;
  // The program's position is kept in registers that step by additions,
  // so a cycle's addresses are one addition away from them: the group's
  // first bucket gbase = g m, and inside the group the chain's destination
  // cdst = m - 1 - s, or the tree's destination p1 = 1 + p, its source
  // p1d = p1 + d and p3 = p + 3d (the next p, p + 2d, exists while
  // p + 3d <= m - 2). s is the chain's step, then the tree's d.
  logic [1:0] st;
  logic tree;
  logic [IW-1:0] s, g, gbase, cdst, p1, p1d;
  logic [IW+1:0] p3, m2;  // (m2 = m - 2)
  logic [IW:0] m;  // 2^lm
  logic [IW-1:0] glast;  // G - 1
  logic [TW-1:0] wait_q;
  logic [1:0] sl;

  logic [1:0] b;
  assign b = slot_of(ag_win[1:0], two);
  logic go;
  assign go = run && on && st == S_IDLE && ag_win != windows && bk_busy[b]
              && bk_win[b*WW+:WW] == ag_win && bk_indone[b] && bk_idle[b];
  // this window's group (the spread last window's is its copy)
  logic [4:0] lm_w;
  assign lm_w = ag_win + 1'b1 == windows ? lm_l : lm_n;

  // the operation at the counters
  logic [IW-1:0] dst, src;
  assign dst = gbase + (tree ? p1 : cdst);
  assign src = tree ? gbase + p1d : dst + IW'(1);
  // the step's last operation, the window's last step
  logic g_last, p_last, step_last, tree_next, prog_last;
  assign g_last = g == glast;
  assign p_last = p3 > m2;
  assign step_last = g_last && (!tree || p_last);
  // the tree has a level at d while d < m - 1 (next: 2d < m - 1)
  assign tree_next = tree ? {1'b0, s, 1'b1} < {1'b0, m} : m > (IW + 1)'(3);
  assign prog_last = tree ? !tree_next : ({1'b0, s} == m - 1'b1 && !tree_next);

  // the destination's read takes the adder's slot of this cycle's
  // decision, CL cycles later behind a conversion
  generate
    if (CL == 0) begin : g_hold
      assign hold = st == S_DST;
    end else begin : g_hold_cl
      zk_valid_pipe #(
          .N(CL)
      ) u_hold (
          .clk(clk),
          .rst(rst),
          .d  (st == S_DST),
          .q  (hold)
      );
    end
  endgenerate

  always_ff @(posedge clk) begin
    if (rst) begin
      st <= S_IDLE;
      ag_win <= '0;
      rv <= 1'b0;
    end else begin
      rv <= 1'b0;
      if (flush) ag_win <= '0;
      case (st)
        S_IDLE:
        if (go) begin
          sl <= b;
          m <= (IW + 1)'(1) << lm_w;
          glast <= IW'((nbk >> lm_w) - 1'b1);
          g <= '0;
          gbase <= '0;
          tree <= 1'b0;
          s <= IW'(1);
          cdst <= IW'(((IW + 1)'(1) << lm_w) - (IW + 1)'(2));
          m2 <= ((IW + 2)'(1) << lm_w) - (IW + 2)'(2);
          if (lm_w == '0) ag_win <= ag_win + 1'b1;  // m = 1: nothing to add
          else st <= S_SRC;
        end
        S_SRC: begin
          rv <= 1'b1;
          ra <= baddr(sl, src, two);
          st <= S_DST;
        end
        S_DST: begin
          rv <= 1'b1;
          ra <= baddr(sl, dst, two);
          if (step_last) begin
            st <= S_WAIT;
            wait_q <= TW'(HZ + CL);
          end else begin
            st <= S_SRC;
            if (tree && !p_last) begin  // the group's next p
              p1 <= p1 + (s << 1);
              p1d <= p1d + (s << 1);
              p3 <= p3 + (IW + 2)'({s, 1'b0});
            end else begin  // the next group
              g <= g + 1'b1;
              gbase <= gbase + IW'(m);
              p1 <= IW'(1);
              p1d <= s + IW'(1);
              p3 <= (IW + 2)'({s, 1'b0}) + (IW + 2)'(s);
            end
          end
        end
        default:  // S_WAIT: every write-back of the step is done at wait_q = 0
        if (wait_q != '0) wait_q <= wait_q - 1'b1;
        else if (prog_last) begin
          st <= S_IDLE;
          ag_win <= ag_win + 1'b1;
        end else begin
          st <= S_SRC;
          g <= '0;
          gbase <= '0;
          p1 <= IW'(1);
          if (!tree && {1'b0, s} != m - 1'b1) begin  // the chain's next step
            s <= s + 1'b1;
            cdst <= cdst - 1'b1;
          end else if (!tree) begin  // the tree's first level, d = 1
            tree <= 1'b1;
            s <= IW'(1);
            p1d <= IW'(2);
            p3 <= (IW + 2)'(3);
          end else begin  // the next level, 2d
            s <= s << 1;
            p1d <= (s << 1) + IW'(1);
            p3 <= (IW + 2)'({s, 1'b0}) * 3;
          end
        end
      endcase
    end
  end

  // the reads return BRL cycles later: first the source (kept), then the
  // destination, beside which the addition enters the adder
  logic ret;  // a read returns on q this cycle
  logic r_dst;  // the read returning now is a destination's
  logic [AW-1:0] r_a;
  logic r_isdst;  // the read of this cycle is a destination's
  always_ff @(posedge clk) r_isdst <= st == S_DST;
  zk_valid_pipe #(
      .N(BRL)
  ) u_ret (
      .clk(clk),
      .rst(rst),
      .d  (rv),
      .q  (ret)
  );
  zk_delay #(
      .W(AW + 1),
      .N(BRL)
  ) u_reta (
      .clk(clk),
      .d  ({r_isdst, ra}),
      .q  ({r_dst, r_a})
  );
  assign rbank = r_a[AW-1:AW-2];
  logic [VW-1:0] srcq;
  always_ff @(posedge clk) if (ret && !r_dst) srcq <= q;
  assign dv = ret && r_dst && !(INF != 0 && srcq[VW-1]);
  assign da = r_a;
  assign dpoint = srcq[PW-1:0];
endmodule
