// zk_fifo -- synchronous FIFO, first word fall through: the head is on `q`
// whenever `valid`, and `pop` takes it. Push and pop may happen in the same
// cycle, also when full (the pop makes the room). The caller never pushes a
// full FIFO without popping and never pops an empty one (the formal harness
// asserts both). DEPTH: a power of two >= 2. Storage is read asynchronously
// (distributed RAM on an FPGA: the FIFOs here are shallow and wide).
module zk_fifo #(
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
    output logic [DEPTH*W-1:0]       f_mem,  // the storage, for the core's properties
    output logic [$clog2(DEPTH)-1:0] f_rd
`endif
);
  localparam integer AW = $clog2(DEPTH);
  logic [W-1:0] mem[DEPTH];
  logic [AW-1:0] rd, wr;

  always_ff @(posedge clk) begin
    if (push) mem[wr] <= d;
  end
  always_ff @(posedge clk) begin
    if (rst) begin
      rd <= '0;
      wr <= '0;
      count <= '0;
    end else begin
      if (push) wr <= wr + 1'b1;
      if (pop) rd <= rd + 1'b1;
      count <= count + {{AW{1'b0}}, push} - {{AW{1'b0}}, pop};
    end
  end
  assign valid = count != '0;
  assign full = count == (AW + 1)'(DEPTH);
  assign q = mem[rd];

`ifdef FORMAL
  // the storage seen from outside, and the circular buffer's invariants
  genvar fk;
  for (fk = 0; fk < DEPTH; fk++) begin : g_f
    assign f_mem[fk*W+:W] = mem[fk];
  end
  assign f_rd = rd;
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
      assert (AW'(wr - rd) == AW'(count));
    end
`endif
endmodule
