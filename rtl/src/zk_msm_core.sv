`include "zk_params.svh"
// zk_msm_core -- one MSM core: bucket accumulation of whole MSMs, window
// after window, with the scheduler, the bucket memory and the adder in one
// module (a multi-core top instantiates several of these behind one point
// stream; each core keeps all of its own state).
//
// Work in (AXI4-Stream, one beat per point per window, window-major: all N
// beats of window 0, then window 1, ...): the point in the datapath's
// precomputed form and its signed digit for this window (zkmsm::digits:
// |d| <= 2^(c-1)). s_tlast marks the last beat of a window (checked against
// N: STATUS.err_tlast). Buckets out (AXI4-Stream): after each window, its
// 2^(c-1) buckets in order (empty ones as the identity), m_tuser = {window,
// bucket index}, m_tlast on the window's last bucket. The host aggregates
// (Hardcaml's split).
//
// Per cycle the scheduler looks at two candidates: S, the head of the input
// stream, and P, the head of the pending queue (operations that found their
// bucket busy). A bucket is busy while an operation on it is between its
// bucket read and its write-back, HZ = BRL + DLAT cycles (zk_inflight).
//   - S on a free bucket issues (the stream has priority, so a conflict
//     costs no input cycle), unless P is ready and belongs to an older window
//     (the previous window's leftovers go first: they hold its read-out
//     back) or the queue is half full (so it does not creep up to full);
//   - S on a busy bucket goes to the pending queue; in the same cycle P
//     issues if its bucket is free (a swap);
//   - a zero digit is consumed without an operation (P may issue);
//   - if S is busy, the queue full and P not ready, S waits: the input is
//     stalled, never dropped. P becomes ready within HZ cycles (nothing new
//     issues meanwhile), so the core cannot deadlock.
// At most one operation issues per cycle; it reads its bucket, goes through
// the datapath and writes the bucket back.
//
// Buckets: four banks of 2^(CMAX-2) buckets (one read and one write port
// each), in window slots: with c < CMAX a window takes one bank, window w in
// slot w mod 4, so its read-out overlaps the accumulation of the next three
// windows; with c = CMAX a window takes two banks (the bucket index's top
// bit picks one), window w in slot w mod 2. A slot takes its next window
// once it is read out. Each bucket word carries a valid bit (clear: the
// identity), cleared as the bucket is read out (and after reset).
//
// The last window is narrow (scalar bits - c(W-1) bits): with cfg_top = tb
// < c - 1 its digits, which lie in [0, 2^tb], are spread over the window's
// 2^(c-1) buckets by the point index: bucket k of point i goes to slot
// bucket (i mod 2^(c-1-tb)) 2^tb + k, and the host adds the copies up.
// Otherwise its few buckets would serialize on the hazards.
//
// Latencies (computed, on the LAT_* outputs): DLAT datapath registers
// (zk_te_madd_lat: 74 by default, 110 with RW = 48), HZ = BRL + DLAT hazard window. An operation
// decided in cycle t reads its bucket at the clock edge ending t+1 and
// writes it at the edge ending t+1+HZ; another operation on the same bucket
// may be decided from t+HZ+1 on.
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
    // datapath: 1 = twisted Edwards adder (zk_dp_te), 0 = integer stand-in
    parameter integer         DP     = 1,
    parameter integer         SW     = 16,  // stand-in: value width
    parameter integer         SLAT   = 4,   // stand-in: latency
    // core
    parameter integer         CMAX   = 16,  // largest window: 2^(CMAX-1) buckets per bank
    parameter integer         PD     = 16,  // pending queue depth (power of two)
    parameter integer         BRL    = 2,   // bucket-memory read latency
    parameter integer         NW     = 32,  // width of N
    parameter integer         WW     = 8,   // width of the window count
    parameter integer         DGW    = 32,  // digit field of a work beat (signed)
    parameter integer         CW     = 64,  // counter width (the formal proof uses fewer bits)
    // widths of a point and of a bucket value (not to be overridden)
    parameter integer         PW     = (DP != 0) ? 3 * NB : SW,
    parameter integer         VW     = (DP != 0) ? 4 * NB : SW
) (
    input  logic               clk,
    input  logic               rst,
    // control (zk_msm_csr): the configuration is taken at start
    input  logic               start,
    input  logic [   NW-1:0]   cfg_n,
    input  logic [      4:0]   cfg_c,
    input  logic [   WW-1:0]   cfg_windows,
    input  logic [      4:0]   cfg_top,      // bucket bits of the last window (>= c-1: no spread)
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
  localparam integer DLAT = (DP != 0) ? zk_te_madd_lat(zk_fq_mul_lat(Q, NB, LEVELS, RW, WIN, FANIN, SPLIT)) : SLAT;
  localparam integer HZ = BRL + DLAT;
  localparam integer OW = $clog2(PD + HZ + 4) + 1;  // outstanding-operation counters
  localparam integer PDW = $clog2(PD) + 1;
  localparam integer OFD = 1 << $clog2(BRL + 2);  // bucket output FIFO depth
  localparam logic [511:0] R1 = zk_mod_pow2(Q, NB);  // Montgomery one
  // the identity: (0 : 1 : 1 : 0) in extended coordinates, or 0
  localparam logic [VW-1:0] IDENT = (DP != 0) ? VW'({{NB{1'b0}}, R1[NB-1:0], R1[NB-1:0], {NB{1'b0}}}) : '0;

  assign lat_dp = 16'(DLAT);
  assign lat_hz = 16'(HZ);

  // ------------------------------------------------------------- control
  localparam logic [1:0] ST_CLEAR = 2'd0, ST_IDLE = 2'd1, ST_RUN = 2'd2;
  logic [1:0] st;
  logic [NW-1:0] n_q;
  logic [4:0] c_q;
  logic [WW-1:0] w_q;
  logic [4:0] tb_q;
  logic [IW:0] nbk;  // buckets per window, 2^(c-1)
  logic two;  // c = CMAX: two slots of two banks
  assign nbk = (IW + 1)'(1) << (c_q - 5'd1);
  assign two = c_q == 5'(CMAX);

  // the slot of window w, and a bucket's address in the banks
  function automatic [1:0] slot_of(input [1:0] w, input tw);  // (the window's low bits)
    slot_of = tw ? {1'b0, w[0]} : w[1:0];
  endfunction
  function automatic [AW-1:0] baddr(input [1:0] sl, input [IW-1:0] idx, input tw);
    baddr = tw ? {sl[0], idx} : {sl, idx[OFW-1:0]};
  endfunction
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
  logic [3:0] bk_busy, bk_indone;
  logic [WW-1:0] bk_win[4];
  logic [OW-1:0] bk_out[4];  // accepted, not yet written back (pending + in flight)

  // read-out
  logic [WW-1:0] ro_win;
  logic ro_act;
  logic [IW-1:0] ro_k;
  logic [1:0] ro_b;  // its slot
  assign ro_b = slot_of(ro_win[1:0], two);

  logic acc_complete;
  assign acc_complete = in_fin && bk_out[0] == '0 && bk_out[1] == '0 && bk_out[2] == '0 && bk_out[3] == '0;

  // ------------------------------------------------------------- input head S
  logic s_hv, s_hready, s_hlast;
  logic [PW-1:0] s_hpoint;
  logic [DGW-1:0] s_hdigit;
  zk_skid #(
      .W(PW + DGW + 1)
  ) u_in (
      .clk(clk),
      .rst(rst),
      .s_valid(s_tvalid),
      .s_ready(s_tready),
      .s_data({s_tlast, s_digit, s_point}),
      .m_valid(s_hv),
      .m_ready(s_hready),
      .m_data({s_hlast, s_hdigit, s_hpoint})
  );

  logic [DGW-1:0] s_mag;
  logic s_neg, s_zero, s_bad, s_spread;
  logic [IW-1:0] s_idx, s_copy;
  logic [AW-1:0] s_addr;
  assign s_neg = s_hdigit[DGW-1];
  assign s_mag = s_neg ? -s_hdigit : s_hdigit;
  assign s_zero = s_hdigit == '0;
  assign s_spread = in_win + 1'b1 == w_q && {1'b0, tb_q} + 6'd1 < {1'b0, c_q};
  // out of range for c (or for the spread last window): skipped, flagged
  assign s_bad = s_mag > DGW'(nbk) || (s_spread && s_mag > (DGW'(1) << tb_q));
  assign s_copy = in_cnt[IW-1:0] & IW'((nbk >> tb_q) - 1'b1);
  assign s_idx = s_spread ? (s_copy << tb_q) | (IW'(s_mag - 1'b1) & IW'(((IW + 1)'(1) << tb_q) - 1'b1))
                          : IW'(s_mag - 1'b1);
  assign s_addr = baddr(in_slot, s_idx, two);

  // ------------------------------------------------------------- pending queue P
  localparam integer PEW = PW + 1 + AW;  // {point, sub, address}
  logic p_valid, p_full, p_push, p_pop;
  logic [PEW-1:0] p_q;
  logic [PDW-1:0] p_count;
  logic [PW-1:0] p_point;
  logic p_sub;
  logic [AW-1:0] p_addr;
  logic [1:0] p_slot;  // (its window's slot: the bank, or for c = CMAX the bank pair)
`ifdef FORMAL
  logic [PD*PEW-1:0] p_fmem;
  logic [$clog2(PD)-1:0] p_frd;
`endif
  assign {p_point, p_sub, p_addr} = p_q;
  assign p_slot = two ? {1'b0, p_addr[AW-1]} : p_addr[AW-1:AW-2];
  zk_fifo #(
      .W(PEW),
      .DEPTH(PD)
  ) u_pending (
      .clk(clk),
      .rst(rst || start_go),
      .push(p_push),
      .d({s_hpoint, s_neg, s_addr}),
      .pop(p_pop),
      .valid(p_valid),
      .full(p_full),
      .q(p_q),
      .count(p_count)
`ifdef FORMAL
      ,
      .f_mem(p_fmem),
      .f_rd(p_frd)
`endif
  );

  // ------------------------------------------------------------- hazards
  logic iss_v;  // decided this cycle
  logic [AW-1:0] iss_a;
  logic s_busy, s_busy_q, p_busy;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [HZ-1:0] ifl_v;  // the detector's contents, for the formal properties
  logic [HZ*AW-1:0] ifl_a;
  logic o_full;  // (never full: credits)
  /* verilator lint_on UNUSEDSIGNAL */
  zk_inflight #(
      .AW(AW),
      .HZ(HZ)
  ) u_inflight (
      .clk(clk),
      .rst(rst),
`ifdef F_MUT_DETECT
      .issue(issue_s),  // the detector misses P's issues
`else
      .issue(iss_v),
`endif
      .issue_addr(iss_a),
      .qa(s_addr),
      .hit_a(s_busy_q),
      .qb(p_addr),
      .hit_b(p_busy),
      .v(ifl_v),
      .a(ifl_a)
  );

  // ------------------------------------------------------------- the decision
  // (F_MUT_* defines: mutations that rtl/formal/prove.sh must catch)
`ifdef F_MUT_HAZARD
  assign s_busy = 1'b0;  // the stream head ignores the hazard detector
`else
  assign s_busy = s_busy_q;
`endif
  logic s_ok, s_skip, s_nz, p_ready, p_first, issue_s, issue_p, swap, consume;
  assign s_ok = st == ST_RUN && in_open && s_hv;
  assign s_skip = s_ok && (s_zero || s_bad);
  assign s_nz = s_ok && !s_zero && !s_bad;
  assign p_ready = st == ST_RUN && p_valid && !p_busy;
  assign p_first = p_ready && (!in_open || p_slot != in_slot || p_count >= PDW'(PD / 2));
  assign issue_s = s_nz && !s_busy && !p_first;
  assign swap = s_nz && s_busy;
`ifdef F_MUT_STALL
  assign issue_p = p_ready && !issue_s && !s_nz;  // P waits while S has work
`else
  assign issue_p = p_ready && !issue_s;
`endif
`ifdef F_MUT_FULL
  assign p_push = swap;  // pushes a full queue
`else
  assign p_push = swap && (!p_full || issue_p);
`endif
  assign p_pop = issue_p;
  assign consume = s_skip || issue_s || p_push;
  assign s_hready = consume;
  assign iss_v = issue_s || issue_p;
  assign iss_a = issue_s ? s_addr : p_addr;

  // the issued operation, one register, then BRL cycles beside the bucket read
  logic i_v, i_sub;
  logic [AW-1:0] i_a;
  logic [PW-1:0] i_point;
  always_ff @(posedge clk) begin
    i_v <= rst ? 1'b0 : iss_v;
    i_a <= iss_a;
    i_sub <= issue_s ? s_neg : p_sub;
    i_point <= issue_s ? s_hpoint : p_point;
  end
  logic d_v, d_sub;
  logic [AW-1:0] d_a;
  logic [PW-1:0] d_point;
  zk_valid_pipe #(
      .N(BRL)
  ) u_dv (
      .clk(clk),
      .rst(rst),
      .d  (i_v),
      .q  (d_v)
  );
  zk_delay #(
      .W(AW + 1 + PW),
      .N(BRL)
  ) u_dd (
      .clk(clk),
      .d  ({i_a, i_sub, i_point}),
      .q  ({d_a, d_sub, d_point})
  );

  // ------------------------------------------------------------- bucket memory
  logic [3:0] m_we, m_re;
  logic [OFW-1:0] m_wa[4], m_ra[4];
  logic [VW:0] m_wd[4], m_rd[4];  // {valid, value}
  // read-out bookkeeping
  logic ro_rd;  // read-out read this cycle
  logic [AW-1:0] ro_a;  // its address
  logic clr_v, clr_last;  // clear-write of the bucket read out one cycle ago
  logic [1:0] clr_b;  // (its slot)
  logic [AW-1:0] clr_a;
  logic [OFW-1:0] clr_k;  // bucket being cleared after reset
  // datapath write-back
  logic wb_v;
  logic [AW-1:0] wb_a;
  logic [VW-1:0] wb_value;
  logic [1:0] wb_slot;
  assign wb_slot = two ? {1'b0, wb_a[AW-1]} : wb_a[AW-1:AW-2];
  assign ro_a = baddr(ro_b, ro_k, two);

  genvar gb;
  generate
    for (gb = 0; gb < 4; gb++) begin : g_bank
      logic acc_rd, acc_wr;
      assign acc_rd = i_v && i_a[AW-1:AW-2] == gb;
      assign acc_wr = wb_v && wb_a[AW-1:AW-2] == gb;
      always_comb begin
        m_re[gb] = acc_rd || (ro_rd && ro_a[AW-1:AW-2] == gb);
        m_ra[gb] = acc_rd ? i_a[OFW-1:0] : ro_a[OFW-1:0];
        m_we[gb] = st == ST_CLEAR || acc_wr || (clr_v && clr_a[AW-1:AW-2] == gb);
        m_wa[gb] = st == ST_CLEAR ? clr_k : acc_wr ? wb_a[OFW-1:0] : clr_a[OFW-1:0];
        m_wd[gb] = (acc_wr && st != ST_CLEAR) ? {1'b1, wb_value} : '0;
      end
      zk_bucket_ram #(
          .W (VW + 1),
          .AW(OFW),
          .RL(BRL)
      ) u_ram (
          .clk(clk),
          .we (m_we[gb]),
          .wa (m_wa[gb]),
          .wd (m_wd[gb]),
          .re (m_re[gb]),
          .ra (m_ra[gb]),
          .rd (m_rd[gb])
      );
    end
  endgenerate

  // ------------------------------------------------------------- datapath
  logic [VW:0] d_word;
  logic [VW-1:0] d_bucket;
  assign d_word = m_rd[d_a[AW-1:AW-2]];
  assign d_bucket = d_word[VW] ? d_word[VW-1:0] : IDENT;
  generate
    if (DP != 0) begin : g_te
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
          .TAGW(AW)
      ) u_dp (
          .clk(clk),
          .rst(rst),
          .in_valid(d_v),
          .in_sub(d_sub),
          .in_tag(d_a),
          .bucket(d_bucket),
          .point(d_point),
          .out_valid(wb_v),
          .out_tag(wb_a),
          .out_value(wb_value)
      );
    end else begin : g_int
      zk_dp_int #(
          .W(SW),
          .TAGW(AW),
`ifdef F_MUT_LAT
          .LAT(SLAT + 1)  // the datapath is one cycle longer than HZ counts
`else
          .LAT(SLAT)
`endif
      ) u_dp (
          .clk(clk),
          .rst(rst),
          .in_valid(d_v),
          .in_sub(d_sub),
          .in_tag(d_a),
          .bucket(d_bucket),
          .point(d_point),
          .out_valid(wb_v),
          .out_tag(wb_a),
          .out_value(wb_value)
      );
    end
  endgenerate

  // ------------------------------------------------------------- read-out
  // ro_rd reads bucket ro_k of bank ro_b; the data returns BRL cycles later
  // into the output FIFO (credits keep it from overflowing); the bucket is
  // cleared (valid = 0) one cycle after its read.
  logic [BRL-1:0] ro_p;  // reads in flight, by age
  logic [IW-1:0] ro_pk;  // bucket, window, last-of-window, bank of the read returning now
  logic [WW-1:0] ro_pw;
  logic ro_plast;
  logic [1:0] ro_pb;
  logic [$clog2(OFD):0] o_count;
  logic [$clog2(OFD):0] ro_inflight;
  logic o_valid;
  logic ro_start;
  assign ro_start = st == ST_RUN && !ro_act && !clr_v && ro_win != w_q && bk_busy[ro_b] && bk_win[ro_b] == ro_win
                    && bk_indone[ro_b]
`ifndef F_MUT_READOUT
                    && bk_out[ro_b] == '0  // (mutation: read out with work outstanding)
`endif
                    ;
  always_comb begin
    ro_inflight = '0;
    for (int k = 0; k < BRL; k++) ro_inflight = ro_inflight + {{$clog2(OFD) {1'b0}}, ro_p[k]};
  end
  assign ro_rd = ro_act && (ro_inflight + o_count < ($clog2(OFD) + 1)'(OFD));
  always_ff @(posedge clk) begin
    if (rst) ro_p <= '0;
    else ro_p <= BRL'({ro_p, ro_rd});
  end
  zk_delay #(
      .W(IW + WW + 3),
      .N(BRL)
  ) u_ro_tag (
      .clk(clk),
      .d  ({ro_k, ro_win, ro_k == IW'(nbk - 1'b1), ro_a[AW-1:AW-2]}),
      .q  ({ro_pk, ro_pw, ro_plast, ro_pb})
  );
  logic [VW:0] ro_word;
  logic [VW-1:0] ro_value;
  assign ro_word = m_rd[ro_pb];
  assign ro_value = ro_word[VW] ? ro_word[VW-1:0] : IDENT;
  logic [VW+WW+IW:0] o_q;
  zk_fifo #(
      .W(VW + WW + IW + 1),
      .DEPTH(OFD)
  ) u_out (
      .clk(clk),
      .rst(rst || start_go),
      .push(ro_p[BRL-1]),
      .d({ro_plast, ro_pw, ro_pk, ro_value}),
      .pop(o_valid && m_tready),
      .valid(o_valid),
      .full(o_full),
      .q(o_q),
      .count(o_count)
  );
  assign m_tvalid = o_valid;
  assign {m_tlast, m_tuser, m_tdata} = o_q;

  // ------------------------------------------------------------- state
  logic ro_done;  // the last bucket of window ro_win was cleared this cycle
  assign ro_done = clr_v && clr_last;
  always_ff @(posedge clk) begin
    if (rst) begin
      st <= ST_CLEAR;
      clr_k <= '0;
      n_q <= '0;
      c_q <= 5'd1;
      w_q <= '0;
      in_win <= '0;
      in_cnt <= '0;
      in_open <= 1'b0;
      bk_busy <= '0;
      bk_indone <= '0;
      for (int b = 0; b < 4; b++) bk_out[b] <= '0;
      ro_win <= '0;
      ro_act <= 1'b0;
      ro_k <= '0;
      clr_v <= 1'b0;
      errors <= '0;
      done_pulse <= 1'b0;
    end else begin
      done_pulse <= 1'b0;
      clr_v <= ro_rd;
      clr_a <= ro_a;
      clr_b <= ro_b;
      clr_last <= ro_k == IW'(nbk - 1'b1);
      case (st)
        ST_CLEAR: begin
          clr_k <= clr_k + 1'b1;
          if (clr_k == '1) st <= ST_IDLE;
        end
        ST_IDLE:
        if (start_go) begin
          st <= ST_RUN;
          n_q <= cfg_n;
          w_q <= cfg_windows;
          tb_q <= cfg_top;
          in_win <= '0;
          in_cnt <= '0;
          in_open <= 1'b0;
          ro_win <= '0;
          errors <= '0;
          if (cfg_c == 5'd0 || cfg_c > 5'(CMAX)) begin
            // no such window size: run no window, flag it
            c_q <= 5'd1;
            w_q <= '0;
            errors[2] <= 1'b1;
          end else begin
            c_q <= cfg_c;
          end
        end
        default: begin  // ST_RUN
          // a window gets its bank once the bank's previous window is read out
          if (!in_open && !in_fin && !bk_busy[in_slot]) begin
            bk_busy[in_slot] <= 1'b1;
            bk_win[in_slot] <= in_win;
            in_cnt <= '0;
            if (n_q == '0) begin
              bk_indone[in_slot] <= 1'b1;
              in_win <= in_win + 1'b1;
            end else begin
              bk_indone[in_slot] <= 1'b0;
              in_open <= 1'b1;
            end
          end
          if (consume) begin
            if (s_hlast != (in_cnt == n_q - 1'b1)) errors[1] <= 1'b1;
            if (s_bad) errors[0] <= 1'b1;
            in_cnt <= in_cnt + 1'b1;
            if (in_cnt == n_q - 1'b1) begin
              bk_indone[in_slot] <= 1'b1;
              in_win <= in_win + 1'b1;
              in_cnt <= '0;
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
          // read-out of window ro_win, in order
          if (ro_start) begin
            ro_act <= 1'b1;
            ro_k <= '0;
          end else if (ro_rd) begin
            ro_k <= ro_k + 1'b1;
            if (ro_k == IW'(nbk - 1'b1)) ro_act <= 1'b0;
          end
          if (ro_done) begin
            bk_busy[clr_b] <= 1'b0;
            ro_win <= ro_win + 1'b1;
          end
          if (ro_win == w_q && !o_valid && !ro_act && !clr_v && ro_p == '0) begin
            st <= ST_IDLE;
            done_pulse <= 1'b1;
          end
        end
      endcase
      // outstanding operations per bank
      for (int b = 0; b < 4; b++)
`ifdef F_MUT_LOSE
        bk_out[b] <= bk_out[b] + OW'(issue_s && in_slot == 2'(b)) - OW'(wb_v && wb_slot == 2'(b));  // forgets queued operations
`else
        bk_out[b] <= bk_out[b] + OW'((issue_s || p_push) && in_slot == 2'(b)) - OW'(wb_v && wb_slot == 2'(b));
`endif
    end
  end

  // ------------------------------------------------------------- counters
  logic running;
  assign running = st == ST_RUN;
  always_ff @(posedge clk) begin
    if (rst || start_go) begin
      cnt_cycles <= '0;
      cnt_acc_cycles <= '0;
      cnt_issued <= '0;
      cnt_conflicts <= '0;
      cnt_stalls <= '0;
      cnt_bubbles <= '0;
      cnt_zero <= '0;
      cnt_ro_stalls <= '0;
      pending_hwm <= '0;
    end else if (running) begin
      cnt_cycles <= cnt_cycles + 1'b1;
      cnt_acc_cycles <= cnt_acc_cycles + CW'(!acc_complete);
      cnt_issued <= cnt_issued + CW'(iss_v);
      cnt_conflicts <= cnt_conflicts + CW'(p_push);
      cnt_stalls <= cnt_stalls + CW'(s_hv && !in_fin && !consume);
      cnt_bubbles <= cnt_bubbles + CW'(!acc_complete && !iss_v);
      cnt_zero <= cnt_zero + CW'(s_skip);
      cnt_ro_stalls <= cnt_ro_stalls + CW'(o_valid && !m_tready);
      if (16'(p_count) > pending_hwm) pending_hwm <= 16'(p_count);
    end
  end

`ifdef FORMAL
`include "zk_msm_core_props.svh"
`endif
endmodule
