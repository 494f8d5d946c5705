`include "zk_params.svh"
// zk_msm_core -- one MSM core: bucket accumulation of whole MSMs, window
// after window (a multi-core top instantiates several of these behind one
// point stream; each core keeps all of its own state). This module holds
// the control (configuration, the window slots) and the datapath; the rest
// is in its modules:
//   zk_core_sched     input head, pending queue, hazards, the decision
//   zk_core_buckets   the four bucket banks
//   zk_core_readout   buckets out, window after window
//   zk_core_agg       bucket aggregation on the device (AGG = 1; on the
//                     twisted Edwards core behind zk_te_agg_in)
//   zk_core_counters  the performance counters
//
// Work in (AXI4-Stream, one beat per point per window, window-major: all N
// beats of window 0, then window 1, ...): the point in the datapath's
// precomputed form and its signed digit for this window (zkmsm::digits:
// |d| <= 2^(c-1)). s_tlast marks the last beat of a window (checked against
// N: STATUS.err_tlast). Buckets out (AXI4-Stream): after each window, its
// 2^(c-1) buckets in order (empty ones as the identity), m_tuser = {window,
// bucket index}, m_tlast on the window's last bucket. The host aggregates
// (Hardcaml's split), or, with cfg_agg = lm != 0, the core reduces each
// window first and sends only bucket k with k mod 2^lm < 2, m_tlast on the
// last of them (zk_core_agg).
//
// The scheduler (zk_core_sched) issues at most one operation per cycle,
// never two on one bucket within HZ cycles; an operation reads its bucket,
// goes through the datapath and writes the bucket back.
//
// Window slots (zk_core_addr.svh): with c < CMAX a window takes one bank,
// window w in slot w mod 4, so its read-out overlaps the accumulation of
// the next three windows; with c = CMAX a window takes two banks, window w
// in slot w mod 2. A slot takes its next window once it is read out.
// bk_out counts a slot's operations accepted and not yet written back
// (pending or in flight); its read-out waits for zero.
//
// The last window is narrow (scalar bits - c(W-1) bits): with cfg_top = tb
// < c - 1 its digits, which lie in [0, 2^tb], are spread over the window's
// 2^(c-1) buckets by the point index: bucket k of point i goes to slot
// bucket (i mod 2^(c-1-tb)) 2^tb + k, and the host adds the copies up.
// Otherwise its few buckets would serialize on the hazards.
//
// Latencies (computed, on the LAT_* outputs): DLAT datapath registers
// (zk_dp_te: zk_te_madd_lat(zk_fq_mul_lat(...)); zk_dp_aff:
// zk_dp_aff_lat(zk_fq_mul_lat(...), NB, 0, 0, SHARE); the stand-in: SLAT),
// HZ = BRL + DLAT hazard window; ACL the device aggregation's conversion
// in front of the adder (zk_te_agg_in, DP = 1 with AGG = 1; else 0). An operation decided in cycle t reads its
// bucket at the clock edge ending t+1 and writes it at the edge ending
// t+1+HZ; another operation on the same bucket may be decided from t+HZ+1
// on.
module zk_msm_core #(
    // field and multiplier (zk_params.svh)
    parameter integer         NB     = `ZK_NB,
    parameter integer         QBITS  = `ZK_QBITS,
    parameter logic   [511:0] Q      = `ZK_Q,
    parameter integer         LEVELS = `ZK_LEVELS,
    parameter integer         TA     = `ZK_TA,
    parameter integer         TB     = `ZK_TB,
    parameter integer         RW     = `ZK_RW,
    parameter integer         WIN    = `ZK_WIN,
    parameter integer         FANIN  = `ZK_FANIN,
    parameter integer         SPLIT  = `ZK_SPLIT,
    // datapath: 1 = twisted Edwards adder (zk_dp_te), 2 = batched affine
    // adder (zk_dp_aff), 0 = integer stand-in (zk_dp_int)
    parameter integer         DP     = 1,
    parameter integer         SW     = 16,  // stand-in: value width
    parameter integer         SLAT   = 4,   // stand-in: latency
    // core
    parameter integer         CMAX   = `ZK_CMAX,  // largest window: 2^(CMAX-1) buckets
    parameter integer         PD     = `ZK_PD,    // pending queue depth (power of two)
    parameter integer         BRL    = `ZK_BRL,   // bucket-memory read latency
    parameter integer         NW     = `ZK_NW,    // width of N
    parameter integer         WW     = `ZK_WW,    // width of the window count
    parameter integer         DGW    = `ZK_DGW,   // digit field of a work beat (signed)
    parameter integer         CW     = `ZK_CW,    // counter width (the formal proof uses fewer bits)
    // hazards and pending queue: 0 = zk_inflight and a distributed-RAM queue
    // (HZ, PD of tens), 1 = the bucket lock table and a block-RAM queue
    // (thousands); zk_core_sched
    parameter integer         LOCK   = `ZK_LOCK,
    // 1: a pending head whose bucket is busy goes to the back of the queue
    // (for HZ of thousands; zk_core_sched)
    parameter integer         RQ     = `ZK_RQ,
    // 1: bucket aggregation on the device (zk_core_agg), run when cfg_agg
    // is not 0; the adder adds bucket to bucket (DP = 1: through
    // zk_te_agg_in, two more multipliers)
    parameter integer         AGG    = 0,
    // widths of a point and of a bucket value (not to be overridden): TE
    // {x, y, t} and {X, Y, Z, T}; affine {y, x} and {inf, y, x}
    parameter integer         PW     = (DP == 1) ? 3 * NB : (DP == 2) ? 2 * NB : SW,
    parameter integer         VW     = (DP == 1) ? 4 * NB : (DP == 2) ? 2 * NB + 1 : SW
) (
    input  logic               clk,
    input  logic               rst,
    // control (zk_msm_csr): the configuration is taken at start
    input  logic               start,
    input  logic [   NW-1:0]   cfg_n,
    input  logic [      4:0]   cfg_c,
    input  logic [   WW-1:0]   cfg_windows,
    input  logic [      4:0]   cfg_top,      // bucket bits of the last window (>= c-1: no spread)
    input  logic [      4:0]   cfg_agg,      // log2 of the aggregation groups (AGG = 1); 0: buckets out
    output logic               ready,        // idle, bucket memory cleared
    output logic               busy,
    output logic               done_pulse,   // one cycle: the MSM's last bucket has left
    output logic [      2:0]   errors,       // sticky since start: {cfg, tlast, digit}
    // counters (since start)
    output logic [   CW-1:0]   cnt_cycles,      // start to done
    output logic [   CW-1:0]   cnt_acc_cycles,  // start to the last bucket write-back
    output logic [   CW-1:0]   cnt_issued,      // additions issued into the datapath
    output logic [   CW-1:0]   cnt_conflicts,   // operations that went to the pending queue
    output logic [   CW-1:0]   cnt_stalls,      // cycles the input head waited
    output logic [   CW-1:0]   cnt_bubbles,     // accumulation cycles without an issue
    output logic [   CW-1:0]   cnt_zero,        // zero (or out-of-range) digits
    output logic [   CW-1:0]   cnt_ro_stalls,   // cycles the bucket output was held
    output logic [     15:0]   pending_hwm,
    output logic [     15:0]   lat_dp,          // DLAT
    output logic [     15:0]   lat_hz,          // HZ
    output logic [     15:0]   lat_ag,          // ACL
    // work in
    input  logic               s_tvalid,
    output logic               s_tready,
    input  logic [   PW-1:0]   s_point,
    input  logic [  DGW-1:0]   s_digit,
    input  logic               s_tlast,
    // buckets out
    output logic               m_tvalid,
    input  logic               m_tready,
    output logic [   VW-1:0]   m_tdata,
    output logic [WW+CMAX-2:0] m_tuser,   // {window, bucket index}
    output logic               m_tlast
);
`include "zk_funcs.svh"
  localparam integer IW = CMAX - 1;  // bucket index bits
  localparam integer AW = CMAX;  // bucket address: {bank (2 bits), offset (CMAX-2 bits)}
  localparam integer OFW = CMAX - 2;  // offset bits
  localparam integer MLAT = zk_fq_mul_lat(Q, NB, LEVELS, RW, WIN, FANIN, SPLIT);
  localparam integer DLAT = (DP == 1) ? zk_te_madd_lat(MLAT) : (DP == 2) ? zk_dp_aff_lat(MLAT, NB, 0, 0, `ZK_AFF_SHARE) : SLAT;
  localparam integer HZ = BRL + DLAT;
  localparam integer ACL = (DP == 1 && AGG != 0) ? zk_te_agg_lat(MLAT) : 0;
  // the aggregation's source operand: a point's width, or (DP = 1, converted
  // by zk_te_agg_in) a whole bucket
  localparam integer APW = (DP == 1) ? VW : PW;
  localparam integer OW = $clog2(PD + HZ + 4) + 1;  // outstanding-operation counters
  /* verilator lint_off UNUSEDPARAM */
  localparam integer PEW = PW + 1 + AW;  // a pending entry (for the formal properties)
  /* verilator lint_on UNUSEDPARAM */
  localparam logic [511:0] R1 = zk_mod_pow2(Q, NB);  // Montgomery one
  // the identity: (0 : 1 : 1 : 0) in extended coordinates, infinity
  // {inf = 1, 0, 0} in affine ones, or 0
  localparam logic [VW-1:0] IDENT = (DP == 1) ? VW'({{NB{1'b0}}, R1[NB-1:0], R1[NB-1:0], {NB{1'b0}}})
                                  : (DP == 2) ? VW'(1) << (VW - 1) : '0;
  // the datapath's tag: {aggregation, lock bit, bucket address}
  localparam integer TAGW = AW + 1 + (AGG != 0 ? 1 : 0);
`include "zk_core_addr.svh"

  assign lat_dp = 16'(DLAT);
  assign lat_hz = 16'(HZ);
  assign lat_ag = 16'(ACL);

  // ------------------------------------------------------------- control
  localparam logic [1:0] ST_CLEAR = 2'd0, ST_IDLE = 2'd1, ST_RUN = 2'd2;
  logic [1:0] st;
  logic [NW-1:0] n_q;
  logic [WW-1:0] w_q;
  logic [4:0] tb_q;
  // device aggregation (AGG register): on, and log2 m of a window and of
  // the last one (the spread window's groups are its copies: m = 2^tb),
  // fixed for the MSM (zk_core_addr.svh agg_lm)
  logic agg_on;
  logic [4:0] agg_lmn, agg_lml;
  // buckets per window 2^(c-1), and c = CMAX (two slots of two banks):
  // registers set with c at start, so the shift is off the scheduler's
  // decision path (docs/RTL.md, "Static timing")
  logic [IW:0] nbk;
  logic two;
  assign ready = st == ST_IDLE;
  logic start_go;  // start is taken in ST_IDLE only
  assign start_go = start && st == ST_IDLE;
  assign busy = st == ST_RUN;

  // input side: the window the next beat belongs to
  logic [WW-1:0] in_win;
  logic [NW-1:0] in_cnt;
  logic in_open;  // in_win has its bank
  logic in_fin;  // every window's beats consumed
  logic [1:0] in_slot, in_next;
  assign in_fin = in_win == w_q;
  assign in_slot = slot_of(in_win[1:0], two);
  assign in_next = two ? {1'b0, !in_slot[0]} : in_slot + 2'd1;

  // window slots
  logic [3:0] bk_busy, bk_indone, bk_idle;
  logic [WW-1:0] bk_win[4];
  logic [OW-1:0] bk_out[4];  // accepted, not yet written back (pending + in flight)
  logic [4*WW-1:0] bk_win_flat;
  always_comb
    for (int b = 0; b < 4; b++) begin
      bk_idle[b] = bk_out[b] == '0;
      bk_win_flat[b*WW+:WW] = bk_win[b];
    end

  logic acc_complete;
  assign acc_complete = in_fin && bk_idle == 4'hf;
  // a slot's count next cycle with and without an accepted operation
  logic [OW-1:0] bk_up[4], bk_same[4];

  // device aggregation (zk_core_agg, below; tied off with AGG = 0)
  logic ag_hold, ag_rv, ag_dv, wb_agg;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [AW-1:0] ag_ra, ag_da;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [1:0] ag_rbank;
  logic [APW-1:0] ag_src;
  logic [WW-1:0] ag_win;

  // ------------------------------------------------------------- scheduler
  logic s_hv, s_hlast, s_bad, s_skip, consume, issue_s, p_push;
  logic [$clog2(PD):0] p_count;
  logic iss_v, i_v, d_v, d_sub, d_par, wb_par;
  logic [AW-1:0] i_a, d_a;
  /* verilator lint_off UNUSEDSIGNAL */
  logic s_ok, p_pop, p_valid, p_full, ro_act;  // (seen by the formal properties)
  logic [AW-1:0] iss_a;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [PW-1:0] d_point;
  // the input is in the spread last window: registers, kept beside in_win
  // and the configuration (off the scheduler's decision stage), with the
  // spread window's masks of the copy bits and of the bucket bits
  logic s_spread, in_last, spread_on;
  logic [IW-1:0] sp_base, sp_step, sp_low, nbk_m1;
  assign s_spread = in_last && spread_on;
  // the input's window after a consume in this cycle (the scheduler sets up
  // the next head's bucket address with it)
  logic in_lastbeat, c_spread;
  logic [1:0] c_slot;
  logic [IW-1:0] sp_next, c_sp_base;
  assign in_lastbeat = in_cnt == n_q - 1'b1;
  assign sp_next = (sp_base + sp_step) & nbk_m1;
  assign c_slot = in_lastbeat ? in_next : in_slot;
  assign c_sp_base = in_lastbeat ? '0 : sp_next;
  assign c_spread = in_lastbeat ? in_win + WW'(2) == w_q && spread_on : s_spread;
`ifdef FORMAL
  logic [HZ-1:0] ifl_v;
  logic [HZ*AW-1:0] ifl_a;
  logic [PD*PEW-1:0] p_fmem;
  logic [2**AW-1:0] f_lock;
  logic [$clog2(PD)-1:0] p_frd;
`endif
  zk_core_sched #(
      .PW  (PW),
      .DGW (DGW),
      .CMAX(CMAX),
      .PD  (PD),
      .BRL (BRL),
      .HZ  (HZ),
      .LOCK(LOCK),
      .RQ  (RQ)
  ) u_sched (
      .clk(clk),
      .rst(rst),
      .flush(start_go),
      .run(st == ST_RUN && !ag_hold),
      .in_open(in_open),
      .in_slot(in_slot),
      .sp_base(sp_base),
      .two(two),
      .nbk(nbk),
      .tb(tb_q),
      .sp_low(sp_low),
      .spread(s_spread),
      .c_slot(c_slot),
      .c_sp_base(c_sp_base),
      .c_spread(c_spread),
      .s_tvalid(s_tvalid),
      .s_tready(s_tready),
      .s_point(s_point),
      .s_digit(s_digit),
      .s_tlast(s_tlast),
      .s_hv(s_hv),
      .s_hlast(s_hlast),
      .s_ok(s_ok),
      .s_bad(s_bad),
      .s_skip(s_skip),
      .consume(consume),
      .issue_s(issue_s),
      .p_push(p_push),
      .p_pop(p_pop),
      .p_valid(p_valid),
      .p_full(p_full),
      .p_count(p_count),
      .iss_v(iss_v),
      .iss_a(iss_a),
      .i_v(i_v),
      .i_a(i_a),
      .d_v(d_v),
      .d_sub(d_sub),
      .d_a(d_a),
      .d_point(d_point),
      .d_par(d_par),
      .wb_v(wb_v && !wb_agg),
      .wb_a(wb_a),
      .wb_par(wb_par)
`ifdef FORMAL
      ,
      .f_lock(f_lock),
      .f_ifl_v(ifl_v),
      .f_ifl_a(ifl_a),
      .f_pmem(p_fmem),
      .f_prd(p_frd)
`endif
  );

  // ------------------------------------------------------------- bucket memory
  logic wb_v;
  logic [AW-1:0] wb_a;
  logic [VW-1:0] wb_value, d_bucket, ro_value, ag_value, x_bucket;
  logic [1:0] wb_slot;
  assign wb_slot = slot_of_addr(wb_a, two);
  always_comb
    for (int b = 0; b < 4; b++) begin
      bk_same[b] = bk_out[b] - OW'(wb_v && !wb_agg && wb_slot == 2'(b));
`ifdef F_MUT_LOSE
      bk_same[b] = bk_out[b] - OW'(wb_v && wb_slot == 2'(b));
`endif
      bk_up[b] = bk_same[b] + OW'(1);
    end
  logic ro_rd, clr_v, ro_done, ro_fin;
  logic [AW-1:0] ro_a, clr_a;
  logic [1:0] ro_rbank, clr_b;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [1:0] ro_b;  // (seen by the formal properties)
  logic [WW-1:0] ro_win;
  /* verilator lint_on UNUSEDSIGNAL */
  logic sweep_last;
  zk_core_buckets #(
      .VW   (VW),
      .CMAX (CMAX),
      .BRL  (BRL),
      .IDENT(IDENT)
  ) u_buckets (
      .clk(clk),
      .rst(rst),
      .sweep(st == ST_CLEAR),
      .sweep_last(sweep_last),
      .acc_re(i_v),
      .acc_ra(i_a),
      .wb_we(wb_v),
      .wb_a(wb_a),
      .wb_d(wb_value),
      .acc_rbank(d_a[AW-1:AW-2]),
      .acc_q(d_bucket),
      .ro_re(ro_rd),
      .ro_a(ro_a),
      .clr_we(clr_v),
      .clr_a(clr_a),
      .ro_rbank(ro_rbank),
      .ro_q(ro_value),
      .ag_re(ag_rv),
      .ag_a(ag_ra),
      .ag_rbank(ag_rbank),
      .ag_q(ag_value)
  );

  // ------------------------------------------------------------- aggregation
  // (its reads and additions take the cycles it holds the scheduler in)
  generate
    if (AGG != 0) begin : g_agg
      zk_core_agg #(
          .CMAX(CMAX),
          .BRL (BRL),
          .WW  (WW),
          .HZ  (HZ),
          .CL  (ACL),
          .VW  (VW),
          .PW  (APW),
          .INF (DP == 2 ? 1 : 0)
      ) u_agg (
          .clk(clk),
          .rst(rst),
          .flush(start_go),
          .run(st == ST_RUN),
          .on(agg_on),
          .lm_n(agg_lmn),
          .lm_l(agg_lml),
          .nbk(nbk),
          .windows(w_q),
          .two(two),
          .bk_busy(bk_busy),
          .bk_win(bk_win_flat),
          .bk_indone(bk_indone),
          .bk_idle(bk_idle),
          .hold(ag_hold),
          .rv(ag_rv),
          .ra(ag_ra),
          .rbank(ag_rbank),
          .q(ag_value),
          .dv(ag_dv),
          .da(ag_da),
          .dpoint(ag_src),
          .ag_win(ag_win)
      );
    end else begin : g_no_agg
      assign {ag_hold, ag_rv, ag_dv} = '0;
      assign {ag_ra, ag_da, ag_rbank, ag_src, ag_win} = '0;
    end
  endgenerate

  // ------------------------------------------------------------- datapath
  // the aggregation's operation as the adder takes it: as read (ACL = 0),
  // or converted to a mixed addition (zk_te_agg_in)
  logic a_v;
  logic [AW-1:0] a_da;
  logic [PW-1:0] a_point;
  logic [VW-1:0] a_bucket;
  generate
    if (ACL != 0) begin : g_conv
      zk_te_agg_in #(
          .NB(NB),
          .QBITS(QBITS),
          .Q(Q),
          .LEVELS(LEVELS),
          .TA(TA),
          .TB(TB),
          .RW(RW),
          .WIN(WIN),
          .FANIN(FANIN),
          .SPLIT(SPLIT),
          .TAGW(AW)
      ) u_conv (
          .clk(clk),
          .rst(rst),
          .in_valid(ag_dv),
          .in_tag(ag_da),
          .dst(ag_value),
          .src(ag_src),
          .out_valid(a_v),
          .out_tag(a_da),
          .bucket(a_bucket),
          .point(a_point)
      );
    end else begin : g_no_conv
      assign {a_v, a_da, a_bucket} = {ag_dv, ag_da, ag_value};
      assign a_point = ag_src[PW-1:0];
    end
  endgenerate

  // the scheduler's operation, or the aggregation's (never in one cycle)
  logic x_v, x_sub;
  logic [TAGW-1:0] x_tag, wb_tag;
  logic [PW-1:0] x_point;
  assign x_v = d_v || a_v;
  assign x_sub = d_sub && !a_v;
  assign x_point = a_v ? a_point : d_point;
  assign x_bucket = a_v ? a_bucket : d_bucket;
  generate
    if (AGG != 0) begin : g_tag_agg
      assign x_tag = a_v ? {2'b10, a_da} : {1'b0, d_par, d_a};
      assign {wb_agg, wb_par, wb_a} = wb_tag;
    end else begin : g_tag
      assign x_tag = {d_par, d_a};
      assign {wb_par, wb_a} = wb_tag;
      assign wb_agg = 1'b0;
    end
  endgenerate
  generate
    if (DP == 1) begin : g_te
      zk_dp_te #(
          .NB(NB),
          .QBITS(QBITS),
          .Q(Q),
          .LEVELS(LEVELS),
          .TA(TA),
          .TB(TB),
          .RW(RW),
          .WIN(WIN),
          .FANIN(FANIN),
          .SPLIT(SPLIT),
          .TAGW(TAGW)
      ) u_dp (
          .clk(clk),
          .rst(rst),
          .in_valid(x_v),
          .in_sub(x_sub),
          .in_tag(x_tag),
          .bucket(x_bucket),
          .point(x_point),
          .out_valid(wb_v),
          .out_tag(wb_tag),
          .out_value(wb_value)
      );
    end else if (DP == 2) begin : g_aff
      zk_dp_aff #(
          .NB(NB),
          .QBITS(QBITS),
          .Q(Q),
          .LEVELS(LEVELS),
          .TA(TA),
          .TB(TB),
          .RW(RW),
          .WIN(WIN),
          .FANIN(FANIN),
          .SPLIT(SPLIT),
          .TAGW(TAGW)
      ) u_dp (
          .clk(clk),
          .rst(rst),
          .in_valid(x_v),
          .in_sub(x_sub),
          .in_tag(x_tag),
          .bucket(x_bucket),
          .point(x_point),
          .out_valid(wb_v),
          .out_tag(wb_tag),
          .out_value(wb_value)
      );
    end else begin : g_int
      zk_dp_int #(
          .W(SW),
          .TAGW(TAGW),
`ifdef F_MUT_LAT
          .LAT(SLAT + 1)  // the datapath is one cycle longer than HZ counts
`else
          .LAT(SLAT)
`endif
      ) u_dp (
          .clk(clk),
          .rst(rst),
          .in_valid(x_v),
          .in_sub(x_sub),
          .in_tag(x_tag),
          .bucket(x_bucket),
          .point(x_point),
          .out_valid(wb_v),
          .out_tag(wb_tag),
          .out_value(wb_value)
      );
    end
  endgenerate

  // ------------------------------------------------------------- read-out
  zk_core_readout #(
      .VW  (VW),
      .CMAX(CMAX),
      .BRL (BRL),
      .WW  (WW)
  ) u_readout (
      .clk(clk),
      .rst(rst),
      .flush(start_go),
      .run(st == ST_RUN),
      .windows(w_q),
      .last_k(IW'(nbk - 1'b1)),
      .two(two),
      .agg_on(agg_on),
      .lm_n(agg_lmn),
      .lm_l(agg_lml),
      .ag_win(ag_win),
      .bk_busy(bk_busy),
      .bk_win(bk_win_flat),
      .bk_indone(bk_indone),
      .bk_idle(bk_idle),
      .ro_rd(ro_rd),
      .ro_a(ro_a),
      .clr_v(clr_v),
      .clr_a(clr_a),
      .ro_rbank(ro_rbank),
      .ro_q(ro_value),
      .ro_act(ro_act),
      .ro_b(ro_b),
      .ro_win(ro_win),
      .ro_done(ro_done),
      .clr_b(clr_b),
      .fin(ro_fin),
      .m_tvalid(m_tvalid),
      .m_tready(m_tready),
      .m_tdata(m_tdata),
      .m_tuser(m_tuser),
      .m_tlast(m_tlast)
  );

  // ------------------------------------------------------------- state
  always_ff @(posedge clk) begin
    if (rst) begin
      st <= ST_CLEAR;
      n_q <= '0;
      nbk <= (IW + 1)'(1);
      two <= CMAX == 1;
      w_q <= '0;
      agg_on <= 1'b0;
      in_last <= 1'b0;
      spread_on <= 1'b0;
      agg_lmn <= '0;
      agg_lml <= '0;
      in_win <= '0;
      in_cnt <= '0;
      sp_base <= '0;
      in_open <= 1'b0;
      bk_busy <= '0;
      bk_indone <= '0;
      for (int b = 0; b < 4; b++) bk_out[b] <= '0;
      errors <= '0;
      done_pulse <= 1'b0;
    end else begin
      done_pulse <= 1'b0;
      case (st)
        ST_CLEAR: if (sweep_last) st <= ST_IDLE;
        ST_IDLE:
        if (start_go) begin
          st <= ST_RUN;
          n_q <= cfg_n;
          w_q <= cfg_windows;
          tb_q <= cfg_top;
          in_last <= cfg_windows == WW'(1);
          spread_on <= {1'b0, cfg_top} + 6'd1 < {1'b0, cfg_c} && cfg_c <= 5'(CMAX);
          sp_step <= IW'((IW + 1)'(1) << cfg_top);
          sp_low <= IW'(((IW + 1)'(1) << cfg_top) - 1'b1);
          nbk_m1 <= IW'(((IW + 1)'(1) << (cfg_c - 5'd1)) - 1'b1);
          agg_on <= AGG != 0 && cfg_agg != '0 && cfg_c != '0 && cfg_c <= 5'(CMAX);
          agg_lmn <= agg_lm(cfg_agg, cfg_c, cfg_top, 1'b0);
          agg_lml <= agg_lm(cfg_agg, cfg_c, cfg_top, 1'b1);
          in_win <= '0;
          in_cnt <= '0;
          sp_base <= '0;
          in_open <= 1'b0;
          errors <= '0;
          if (cfg_c == 5'd0 || cfg_c > 5'(CMAX)) begin
            // no such window size: run no window, flag it
            nbk <= (IW + 1)'(1);
            two <= CMAX == 1;
            w_q <= '0;
            errors[2] <= 1'b1;
          end else begin
            nbk <= (IW + 1)'(1) << (cfg_c - 5'd1);
            two <= cfg_c == 5'(CMAX);
          end
        end
        default: begin  // ST_RUN
          // a window gets its bank once the bank's previous window is read out
          if (!in_open && !in_fin && !bk_busy[in_slot]) begin
            bk_busy[in_slot] <= 1'b1;
            bk_win[in_slot] <= in_win;
            in_cnt <= '0;
            sp_base <= '0;
            if (n_q == '0) begin
              bk_indone[in_slot] <= 1'b1;
              in_win <= in_win + 1'b1;
              in_last <= in_win + WW'(2) == w_q;
            end else begin
              bk_indone[in_slot] <= 1'b0;
              in_open <= 1'b1;
            end
          end
          if (consume) begin
            if (s_hlast != in_lastbeat) errors[1] <= 1'b1;
            if (s_bad) errors[0] <= 1'b1;
            in_cnt <= in_cnt + 1'b1;
            sp_base <= sp_next;
            if (in_lastbeat) begin
              bk_indone[in_slot] <= 1'b1;
              in_win <= in_win + 1'b1;
              in_last <= in_win + WW'(2) == w_q;
              in_cnt <= '0;
              sp_base <= '0;
              // the next window takes its slot at once if it is free
              if (in_win + 1'b1 != w_q && !bk_busy[in_next]) begin
                bk_busy[in_next] <= 1'b1;
                bk_win[in_next] <= in_win + 1'b1;
                bk_indone[in_next] <= 1'b0;
              end else begin
                in_open <= 1'b0;
              end
            end
          end
          // a slot is free once its window is read out
          if (ro_done) bk_busy[clr_b] <= 1'b0;
          if (ro_fin) begin
            st <= ST_IDLE;
            done_pulse <= 1'b1;
          end
        end
      endcase
      // outstanding operations per slot (the increment, from the decision,
      // picks one of two sums made without it)
      for (int b = 0; b < 4; b++)
`ifdef F_MUT_LOSE
        bk_out[b] <= (issue_s && in_slot == 2'(b)) ? bk_up[b] : bk_same[b];  // forgets queued operations
`else
        bk_out[b] <= ((issue_s || p_push) && in_slot == 2'(b)) ? bk_up[b] : bk_same[b];
`endif
    end
  end

  // ------------------------------------------------------------- counters
  zk_core_counters #(
      .CW(CW),
      .QW($clog2(PD) + 1)
  ) u_counters (
      .clk(clk),
      .rst(rst),
      .clear(start_go),
      .run(st == ST_RUN),
      .acc_busy(!acc_complete),
      .issue(iss_v),
      .conflict(p_push),
      .stall(s_hv && !in_fin && !consume),
      .zero(s_skip),
      .ro_stall(m_tvalid && !m_tready),
      .fill(p_count),
      .cnt_cycles(cnt_cycles),
      .cnt_acc_cycles(cnt_acc_cycles),
      .cnt_issued(cnt_issued),
      .cnt_conflicts(cnt_conflicts),
      .cnt_stalls(cnt_stalls),
      .cnt_bubbles(cnt_bubbles),
      .cnt_zero(cnt_zero),
      .cnt_ro_stalls(cnt_ro_stalls),
      .pending_hwm(pending_hwm)
  );

`ifdef FORMAL
`include "zk_msm_core_props.svh"
`endif
endmodule
