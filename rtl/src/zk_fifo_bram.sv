// zk_fifo_bram -- synchronous FIFO for deep queues, cycle for cycle the
// same as zk_fifo (first word fall through: the head is on `q` whenever
// `valid`, a push is visible in the next cycle, push and pop may meet, also
// when full), but its storage is read synchronously, at an address held in
// a register, so it maps to block RAM (one write port, one read port).
//
// The head is kept outside the RAM: either the RAM's read register (the
// entry after the old head, read at the edge of a pop) or a bypass
// register (a word pushed while the RAM holds nothing behind the head).
// The RAM holds entries 2..count. DEPTH: a power of two >= 2.
// Latency: push to valid one cycle, pop to the next head one cycle.
module zk_fifo_bram #(
    parameter integer W     = 8,
    parameter integer DEPTH = 4
) (
    input  logic                     clk,
    input  logic                     rst,
    input  logic                     push,
    input  logic [W-1:0]             d,
    input  logic                     pop,
    output logic                     valid,
    output logic                     full,
    output logic [W-1:0]             q,
    output logic [$clog2(DEPTH):0]   count
`ifdef FORMAL
    ,
    output logic [DEPTH*W-1:0]       f_mem,  // the entries in order (entry 0: the head)
    output logic [$clog2(DEPTH)-1:0] f_rd    // (0: f_mem is in order)
`endif
);
  localparam integer AW = $clog2(DEPTH);
  (* ram_style = "block" *) logic [W-1:0] mem[DEPTH];
  logic [AW-1:0] rd, wr;
  logic [W-1:0] ram_q, byp_q;
  logic sel_byp;
  logic ram_any;  // the RAM holds an entry behind the head
  assign ram_any = count > ($clog2(DEPTH) + 1)'(1);
  logic to_ram, from_ram, to_head;
  assign from_ram = pop && ram_any;
  assign to_head = push && (count == '0 || (pop && !ram_any));
  assign to_ram = push && !to_head;

  always_ff @(posedge clk) begin
    if (to_ram) mem[wr] <= d;
  end
  always_ff @(posedge clk) begin
    if (from_ram) ram_q <= mem[rd];  // (rd != wr whenever the RAM is read)
    if (to_head) byp_q <= d;
  end
  always_ff @(posedge clk) begin
    if (rst) begin
      rd <= '0;
      wr <= '0;
      count <= '0;
      sel_byp <= 1'b0;
    end else begin
      if (to_ram) wr <= wr + 1'b1;
      if (from_ram) rd <= rd + 1'b1;
      if (from_ram) sel_byp <= 1'b0;
      else if (to_head) sel_byp <= 1'b1;
      count <= count + {{AW{1'b0}}, push} - {{AW{1'b0}}, pop};
    end
  end
  assign valid = count != '0;
  assign full = count == (AW + 1)'(DEPTH);
  assign q = sel_byp ? byp_q : ram_q;

`ifdef FORMAL
  genvar fk;
  assign f_mem[W-1:0] = q;
  for (fk = 1; fk < DEPTH; fk++) begin : g_f
    assign f_mem[fk*W+:W] = mem[AW'(rd + AW'(fk - 1))];
  end
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
    end
`endif
endmodule
