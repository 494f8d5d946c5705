// zk_skid -- AXI4-Stream register slice with a skid register: both the
// forward path (valid, data) and the backward path (ready) are registered,
// so neither side's combinational logic reaches the other, at full rate.
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
    output logic [W-1:0] m_data
);
  logic         sk_valid;
  logic [W-1:0] sk_data;
  assign s_ready = !sk_valid;

  always_ff @(posedge clk) begin
    if (rst) begin
      m_valid  <= 1'b0;
      sk_valid <= 1'b0;
    end else if (sk_valid) begin
      // upstream held: drain the skid register once the main one empties
      if (m_ready) begin
        m_valid  <= 1'b1;
        sk_valid <= 1'b0;
      end
    end else if (!m_valid || m_ready) begin
      m_valid <= s_valid;
    end else if (s_valid) begin
      sk_valid <= 1'b1;  // main register full and held: catch the beat
    end
  end
  always_ff @(posedge clk) begin
    if (sk_valid) begin
      if (m_ready) m_data <= sk_data;
    end else if (!m_valid || m_ready) begin
      m_data <= s_data;
    end else if (s_valid) begin
      sk_data <= s_data;
    end
  end
endmodule
