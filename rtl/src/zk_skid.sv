// zk_skid -- AXI4-Stream register slice with a skid register: both the
// forward path (valid, data) and the backward path (ready) are registered,
// so neither side's combinational logic reaches the other, at full rate.
//
// Built as a two-entry queue (s_ready = fewer than two held): the data
// registers are written only by the upstream handshake (s_valid and
// s_ready, both early in the cycle) and the head is picked by a pointer,
// so m_ready, which may come late (the scheduler's decision), moves one
// pointer and a count, not the data. m_next is the word at the head in the
// next cycle if the head is taken now (the other entry, or s_data).
module zk_skid #(
    parameter integer W = 8
) (
    input  logic         clk,
    input  logic         rst,
    input  logic         s_valid,
    output logic         s_ready,
    input  logic [W-1:0] s_data,
    output logic         m_valid,
    input  logic         m_ready,
    output logic [W-1:0] m_data,
    output logic [W-1:0] m_next
);
  logic [W-1:0] e0, e1;
  logic rp, wp;  // read (head) and write pointers
  logic [1:0] n;  // entries held
  logic take, give;
  assign s_ready = n != 2'd2;
  assign m_valid = n != 2'd0;
  assign take = s_valid && s_ready;
  assign give = m_valid && m_ready;
  assign m_data = rp ? e1 : e0;
  assign m_next = (n == 2'd2) ? (rp ? e0 : e1) : s_data;
  always_ff @(posedge clk) begin
    if (take && !wp) e0 <= s_data;
    if (take && wp) e1 <= s_data;
  end
  always_ff @(posedge clk) begin
    if (rst) begin
      rp <= 1'b0;
      wp <= 1'b0;
      n  <= 2'd0;
    end else begin
      if (take) wp <= !wp;
      if (give) rp <= !rp;
      n <= n + {1'b0, take} - {1'b0, give};
    end
  end
endmodule
