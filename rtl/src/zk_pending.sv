// zk_pending -- the scheduler's pending queue: a FIFO, first word fall
// through, cycle for cycle the same as zk_fifo (the head is on q whenever
// `valid`, a push is visible in the next cycle, push and pop may meet, also
// when full), with two more operations and a layout for a fast clock.
//
// Operations (at most one push per cycle): push (d goes to the back), pop
// (the head leaves), rot (the head goes to the back: one pop and one push of
// the head itself; RQ in zk_core_sched). The caller never pushes a full
// queue without popping and never pops an empty one.
//
// Layout. push, pop and rot come late in the cycle (the scheduler's
// decision), so no wide register or memory input depends on them: they
// move narrow state only (count, pointers, which register holds the head).
// A pushed word is first registered as it is (pw_s <= d, pw_p <= q: both
// every cycle) and written to its place one cycle later; the head is a
// multiplexer, by registered state, of that pipeline register, a bypass
// register, the memory's read register and a collision register (the
// word being written where the memory is read). Entries 2..count are in
// the memory (block RAM with BRAM = 1, distributed RAM otherwise), read at
// the edge that pops. The head's key (the low KW bits of a word: the
// bucket address) is also kept in a register of its own, qk, loaded from a
// distributed-RAM copy of the keys, so that the head's key comes straight
// from a flip-flop.
// DEPTH: a power of two >= 2. Latency: push to valid one cycle, pop to the
// next head one cycle.
module zk_pending #(
    parameter integer W     = 8,
    parameter integer KW    = 4,  // key bits, d[KW-1:0]
    parameter integer DEPTH = 4,
    parameter integer BRAM  = 1
) (
    input  logic                     clk,
    input  logic                     rst,
    input  logic                     push,
    input  logic [W-1:0]             d,
    input  logic                     pop,
    input  logic                     rot,
    output logic                     valid,
    output logic                     full,
    output logic                     half,  // count >= DEPTH / 2
    output logic [W-1:0]             q,
    output logic [KW-1:0]            qk,    // q[KW-1:0], from a register
    output logic [$clog2(DEPTH):0]   count
`ifdef FORMAL
    ,
    output logic [DEPTH*W-1:0]       f_mem,  // the entries in order (entry 0: the head)
    output logic [$clog2(DEPTH)-1:0] f_rd    // (0: f_mem is in order)
`endif
);
  localparam integer AW = $clog2(DEPTH);
  localparam integer CW = AW + 1;
  localparam logic [1:0] H_PW = 2'd0, H_BYP = 2'd1, H_RAM = 2'd2, H_COL = 2'd3;

  // ------------------------------------------------------------- the operations
  logic push_any, pop_any, ram_any, to_head, to_ram, from_ram;
  assign push_any = push || rot;
  assign pop_any = pop || rot;
  assign ram_any = count > CW'(1);  // an entry behind the head
  assign to_head = push_any && (count == '0 || (pop_any && !ram_any));
  assign to_ram = push_any && !to_head;
  assign from_ram = pop_any && ram_any;

  // ------------------------------------------------------------- the pushed word, one cycle
  logic [W-1:0] pw_s, pw_p, pw;
  logic pw_sel, pw_ram;
  logic [AW-1:0] pw_wa;
  always_ff @(posedge clk) begin
    pw_s <= d;
    pw_p <= q;
    pw_sel <= rot;
    pw_wa <= wr;
  end
  assign pw = pw_sel ? pw_p : pw_s;

  // ------------------------------------------------------------- storage: entries 2..count
  logic [AW-1:0] rd, wr;
  logic [W-1:0] ram_q;
  logic [KW-1:0] k2;  // entry 2's key
  logic coll;  // entry 2 is the pushed word being written this cycle
  assign coll = pw_ram && pw_wa == rd;
  if (BRAM != 0) begin : g_bram
    (* ram_style = "block" *) logic [W-1:0] mem[DEPTH];
    always_ff @(posedge clk) begin
      if (pw_ram) mem[pw_wa] <= pw;
      if (from_ram) ram_q <= mem[rd];
    end
`ifdef FORMAL
    genvar fk;
    for (fk = 1; fk < DEPTH; fk++) begin : g_f
      assign f_mem[fk*W+:W] = (pw_ram && pw_wa == AW'(rd + AW'(fk - 1))) ? pw : mem[AW'(rd + AW'(fk - 1))];
    end
`endif
  end else begin : g_dist
    (* ram_style = "distributed" *) logic [W-1:0] mem[DEPTH];
    always_ff @(posedge clk) begin
      if (pw_ram) mem[pw_wa] <= pw;
      if (from_ram) ram_q <= mem[rd];
    end
`ifdef FORMAL
    genvar fk;
    for (fk = 1; fk < DEPTH; fk++) begin : g_f
      assign f_mem[fk*W+:W] = (pw_ram && pw_wa == AW'(rd + AW'(fk - 1))) ? pw : mem[AW'(rd + AW'(fk - 1))];
    end
`endif
  end
  // the keys again, read asynchronously (distributed RAM, one zk_bitram a bit)
  logic [KW-1:0] kmem_q;
  genvar gk;
  for (gk = 0; gk < KW; gk++) begin : g_key
    /* verilator lint_off PINCONNECTEMPTY */
    zk_bitram #(
        .AW(AW)
    ) u_key (
        .clk(clk),
        .we(pw_ram),
        .wa(pw_wa),
        .wd(pw[gk]),
        .ra(rd),
        .rd(kmem_q[gk])
`ifdef FORMAL
        ,
        .f_mem()
`endif
    );
    /* verilator lint_on PINCONNECTEMPTY */
  end
  assign k2 = coll ? pw[KW-1:0] : kmem_q;

  // ------------------------------------------------------------- the head
  logic [1:0] hsrc;
  logic [W-1:0] byp_q, col_q;
  always_ff @(posedge clk) begin
    col_q <= pw;
    if (hsrc == H_PW || hsrc == H_COL) byp_q <= hsrc == H_PW ? pw : col_q;
  end
  always_comb
    case (hsrc)
      H_PW: q = pw;
      H_BYP: q = byp_q;
      H_RAM: q = ram_q;
      default: q = col_q;
    endcase

  // ------------------------------------------------------------- state
  logic [CW-1:0] cnt_up, cnt_dn;
  assign cnt_up = count + CW'(1);
  assign cnt_dn = count - CW'(1);
  always_ff @(posedge clk) begin
    if (rst) begin
      rd <= '0;
      wr <= '0;
      count <= '0;
      hsrc <= H_BYP;
      pw_ram <= 1'b0;
    end else begin
      if (to_ram) wr <= wr + 1'b1;
      if (from_ram) rd <= rd + 1'b1;
      pw_ram <= to_ram;
      if (from_ram) hsrc <= coll ? H_COL : H_RAM;
      else if (to_head) hsrc <= H_PW;
      else if (hsrc == H_PW || hsrc == H_COL) hsrc <= H_BYP;
      count <= (push_any && !pop_any) ? cnt_up : (pop_any && !push_any) ? cnt_dn : count;
    end
    if (from_ram) qk <= k2;
    else if (to_head) qk <= rot ? qk : d[KW-1:0];
  end
  assign valid = count != '0;
  assign full = count == CW'(DEPTH);
  assign half = count >= CW'(DEPTH / 2);

`ifdef FORMAL
  assign f_mem[W-1:0] = q;
  assign f_rd = '0;
  reg f_past = 1'b0;
  always @(posedge clk) f_past <= 1'b1;
`ifdef F_ONLY
  localparam bit F_EN = `F_ONLY == 5;  // (prove.sh: property 5 only)
`else
  localparam bit F_EN = 1'b1;
`endif
  always @*
    if (f_past && !rst && F_EN) begin
      assert (count <= DEPTH);
      if (count == '0) assert (wr == rd);
      else assert (AW'(wr - rd) == AW'(count - 1'b1));
      if (count != '0) assert (qk == q[KW-1:0]);
    end
`endif
endmodule
