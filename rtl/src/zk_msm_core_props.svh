// zk_msm_core_props.svh -- formal properties of zk_msm_core, included in
// its body when FORMAL is defined (Yosys `read_verilog -formal`;
// rtl/formal/prove.sh runs them on a reduced configuration). Ghost state
// here is the proof's bookkeeping, not hardware.
//
// The ghost pipeline g_* records every issued operation, g_*[k] being the
// one decided k+1 cycles ago: it reads its bucket at the clock edge ending
// the cycle it is in g_*[0] and writes it at the edge ending the cycle it
// is in g_*[HZ]. The properties:
//   P1  hazards: the operations in g_*[0..HZ] (every operation between its
//       bucket read and its write-back) have pairwise different buckets;
//   P2  the hazard detector holds exactly g_*[0..HZ-1] (LOCK = 0), or
//       the lock table's bit of a bucket is set iff an operation on it is in
//       g_*[0..HZ] (LOCK = 1, once the sweep after reset has cleared the
//       tables; the one in g_*[HZ] writes back this cycle);
//   P3  the datapath writes back every issued operation exactly once,
//       HZ+1 cycles after its decision, to its own bucket;
//   P4  conservation: the operations accepted and not yet written back
//       (bk_out, per slot and in total) are those in the pending queue plus
//       those in g_*; so none is lost or duplicated;
//   P5  the pending queue is never pushed full or popped empty, and the
//       input register slice never drops or duplicates a beat;
//   P6  bank ports: an accumulation access and a read-out access never meet
//       on one bank port; read-out starts only on a window with nothing
//       outstanding;
//   P7  no deadlock: while the input head or the pending queue has work,
//       some operation issues or the head moves within HZ+1 cycles.
// F_ONLY=n (a define) keeps only property n's assertions (8: the lemmas),
// so that prove.sh can tell which property a mutation breaks.
`ifdef F_ONLY
`define F_ON(n) (`F_ONLY == n)
`else
`define F_ON(n) 1'b1
`endif
reg f_past = 1'b0;
always @(posedge clk) f_past <= 1'b1;

reg [HZ:0] g_v;
reg [(HZ+1)*AW-1:0] g_a;
always @(posedge clk) begin
  g_v <= rst ? '0 : {g_v[HZ-1:0], iss_v};
  g_a <= {g_a[HZ*AW-1:0], iss_a};
end

// pending-queue entries of each slot (the queue holds {point, sub, address})
integer f_i, f_j, f_k, f_l;
reg [7:0] f_pend_slot[4];
reg [7:0] f_fly_slot[4];
reg [7:0] f_fly;
reg [AW-1:0] f_e;
reg [1:0] f_s;
always @* begin
  for (f_j = 0; f_j < 4; f_j = f_j + 1) begin
    f_pend_slot[f_j] = 8'd0;
    f_fly_slot[f_j] = 8'd0;
  end
  f_fly = 8'd0;
  for (f_i = 0; f_i <= HZ; f_i = f_i + 1)
    if (g_v[f_i]) begin
      f_fly = f_fly + 8'd1;
      f_s = two ? {1'b0, g_a[f_i*AW+AW-1]} : g_a[f_i*AW+AW-2+:2];
      f_fly_slot[f_s] = f_fly_slot[f_s] + 8'd1;
    end
  for (f_i = 0; f_i < PD; f_i = f_i + 1)
    if (f_i < p_count) begin
      f_e = p_fmem[PEW*($clog2(PD))'(p_frd+f_i)+:AW];
      f_s = two ? {1'b0, f_e[AW-1]} : f_e[AW-1:AW-2];
      f_pend_slot[f_s] = f_pend_slot[f_s] + 8'd1;
    end
end

// the lock bits P2 expects (LOCK = 1): the buckets of g_*[0..HZ]
reg [2**AW-1:0] f_lock_want;
integer f_m;
always @* begin
  f_lock_want = '0;
  for (f_m = 0; f_m <= HZ; f_m = f_m + 1) if (g_v[f_m]) f_lock_want[g_a[f_m*AW+:AW]] = 1'b1;
end

// (assertions in combinational blocks: checked on each step's state)
always @* begin
  if (f_past && !rst) begin
    // P1
    for (f_k = 0; f_k <= HZ; f_k = f_k + 1)
      for (f_l = f_k + 1; f_l <= HZ; f_l = f_l + 1)
        if (`F_ON(1)) assert (!(g_v[f_k] && g_v[f_l] && g_a[f_k*AW+:AW] == g_a[f_l*AW+:AW]));
    // P2
    if (LOCK == 0) begin
      if (`F_ON(2)) assert (ifl_v == g_v[HZ-1:0]);
      for (f_k = 0; f_k < HZ; f_k = f_k + 1) if (g_v[f_k]) if (`F_ON(2)) assert (ifl_a[f_k*AW+:AW] == g_a[f_k*AW+:AW]);
    end else if (st != ST_CLEAR) begin  // (the tables are cleared by then)
      if (`F_ON(2)) assert (f_lock == f_lock_want);
    end
    if (`F_ON(2)) assert (i_v == g_v[0]);
    if (i_v) if (`F_ON(2)) assert (i_a == g_a[AW-1:0]);
    // P3
    if (`F_ON(3)) assert (wb_v == g_v[HZ]);
    if (wb_v) if (`F_ON(3)) assert (wb_a == g_a[HZ*AW+:AW]);
    if (d_v) if (`F_ON(3)) assert (d_a == g_a[BRL*AW+:AW]);
    // P4
    if (`F_ON(4)) assert ({8'd0, bk_out[0]} + bk_out[1] + bk_out[2] + bk_out[3] == 8'(p_count) + f_fly);
    for (f_l = 0; f_l < 4; f_l = f_l + 1) if (`F_ON(4)) assert (8'(bk_out[f_l]) == f_pend_slot[f_l] + f_fly_slot[f_l]);
    // P6
    for (f_l = 0; f_l < 4; f_l = f_l + 1) begin
      if (`F_ON(6)) assert (!(i_v && i_a[AW-1:AW-2] == f_l && ro_rd && ro_a[AW-1:AW-2] == f_l));
      if (`F_ON(6)) assert (!(wb_v && wb_a[AW-1:AW-2] == f_l && clr_v && clr_a[AW-1:AW-2] == f_l));
    end
    if (ro_act) if (`F_ON(6)) assert (bk_out[ro_b] == '0 && bk_busy[ro_b]);
  end
end

// P5: the queue's own properties are in zk_pending; the core must respect its
// contract
always @* if (f_past && !rst) begin
  if (`F_ON(5)) assert (!(p_push && p_full && !p_pop));
  if (`F_ON(5)) assert (!(p_pop && !p_valid));
  if (`F_ON(5)) assert (p_count <= PD);
end

// P7
reg [7:0] f_wait;
always @(posedge clk) begin
  if (rst || iss_v || consume || !(s_ok || (st == ST_RUN && p_valid))) f_wait <= 8'd0;
  else f_wait <= f_wait + 8'd1;
end
always @* if (f_past && !rst) if (`F_ON(7)) assert (f_wait <= 8'(HZ + 1));

// Lemmas: facts of every reachable state that the properties above need to
// be inductive (k-induction starts from an arbitrary state that satisfies
// the assertions for k cycles). They are asserted, so they are proven too.
//   L1  outside ST_RUN nothing is outstanding: no pending operation, none
//       in flight, no bank with outstanding operations (a start resets the
//       pending queue but not the per-slot counts);
always @* if (f_past && !rst) begin
  if (`F_ON(8)) assert (st != 2'd3);
  if (st != ST_RUN) begin
    if (`F_ON(8)) assert (p_count == '0);
    if (`F_ON(8)) assert (g_v == '0);
    for (f_l = 0; f_l < 4; f_l = f_l + 1) if (`F_ON(8)) assert (bk_out[f_l] == '0);
  end
end

// Reachability (prove.sh, with F_REACH and F_ONLY=9): "no MSM that queued
// an operation behind a busy bucket and ran two windows ever finishes" must
// fail, so a whole such MSM fits in the bounded depth.
`ifdef F_REACH
reg f_pushed = 1'b0;
always @(posedge clk) if (rst || start_go) f_pushed <= 1'b0; else if (p_push) f_pushed <= 1'b1;
always @* if (f_past && !rst) if (`F_ON(9)) assert (!(done_pulse && f_pushed && w_q >= 2));
`endif

//   L2  window bookkeeping in ST_RUN: in_win <= w_q, ro_win <= in_win; a
//       slot with outstanding operations is busy; the open window owns its
//       slot; a read-out (and its clear) runs on a busy slot of an earlier
//       window with nothing outstanding; once every window is read out
//       nothing is outstanding; with c = CMAX only slots 0 and 1 are used.
//       (Still not enough for k-induction: see docs/RTL.md.)
always @* if (f_past && !rst && st == ST_RUN) begin
  if (`F_ON(8)) assert (in_win <= w_q);
  if (`F_ON(8)) assert (ro_win <= in_win);
  for (f_l = 0; f_l < 4; f_l = f_l + 1) if (bk_out[f_l] != '0) if (`F_ON(8)) assert (bk_busy[f_l]);
  if (in_open) if (`F_ON(8)) assert (!in_fin && bk_busy[in_slot] && bk_win[in_slot] == in_win && !bk_indone[in_slot]);
  if (ro_act) if (`F_ON(8)) assert (bk_out[ro_b] == '0 && bk_indone[ro_b] && bk_win[ro_b] == ro_win && ro_win < in_win);
  if (clr_v) if (`F_ON(8)) assert (bk_out[clr_b] == '0 && bk_busy[clr_b] && clr_b == ro_b);
  if (ro_win == w_q) if (`F_ON(8)) assert (bk_out[0] == '0 && bk_out[1] == '0 && bk_out[2] == '0 && bk_out[3] == '0 && p_count == '0);
  if (two) if (`F_ON(8)) assert (bk_busy[3:2] == '0);
end
