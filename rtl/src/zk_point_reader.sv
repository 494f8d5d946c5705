// zk_point_reader -- feeds a core with work: points from point memory, one
// pass over the N points per window, joined with the host's digit stream.
//
// Point memory is read through a DataMover-style pair of streams: a command
// per window, m_cmd = {count (points, 32 bits), byte address (64 bits)}, and
// the points back on s_pt, in order, s_pt_tlast on the last of a command.
// The memory (DDR/HBM; the test bench models it with a latency and a
// bandwidth) may take the next command before the previous one's data has
// all left, so the passes follow each other without a gap. Windows with
// N = 0 need no command.
//
// The join: a work beat leaves when both a point and a digit are there;
// tlast comes from the digit stream, and a point stream whose tlast
// disagrees sets `err_step`.
module zk_point_reader #(
    parameter integer PW  = 8,
    parameter integer DGW = 32,
    parameter integer NW  = 32,
    parameter integer WW  = 8
) (
    input  logic           clk,
    input  logic           rst,
    input  logic           start,
    input  logic [ NW-1:0] cfg_n,
    input  logic [ WW-1:0] cfg_windows,
    input  logic [   63:0] cfg_points,
    output logic           err_step,     // sticky since start
    // commands to point memory
    output logic           m_cmd_tvalid,
    input  logic           m_cmd_tready,
    output logic [   95:0] m_cmd_tdata,
    // points from point memory
    input  logic           s_pt_tvalid,
    output logic           s_pt_tready,
    input  logic [ PW-1:0] s_pt_tdata,
    input  logic           s_pt_tlast,
    // digits from the host
    input  logic           s_dg_tvalid,
    output logic           s_dg_tready,
    input  logic [DGW-1:0] s_dg_tdata,
    input  logic           s_dg_tlast,
    // work to the core
    output logic           m_tvalid,
    input  logic           m_tready,
    output logic [ PW-1:0] m_point,
    output logic [DGW-1:0] m_digit,
    output logic           m_tlast
);
  logic [WW-1:0] left;  // commands still to send
  always_ff @(posedge clk) begin
    if (rst) begin
      left <= '0;
      m_cmd_tvalid <= 1'b0;
      err_step <= 1'b0;
    end else begin
      if (start) begin
        left <= (cfg_n == '0) ? '0 : cfg_windows;
        err_step <= 1'b0;
        m_cmd_tvalid <= 1'b0;
      end else if (!m_cmd_tvalid || m_cmd_tready) begin
        m_cmd_tvalid <= left != '0;
        if (left != '0) left <= left - 1'b1;
      end
      if (m_tvalid && m_tready && s_pt_tlast != s_dg_tlast) err_step <= 1'b1;
    end
  end
  always_ff @(posedge clk) if (start) m_cmd_tdata <= {32'(cfg_n), cfg_points};

  assign m_tvalid = s_pt_tvalid && s_dg_tvalid;
  assign s_pt_tready = m_tready && s_dg_tvalid;
  assign s_dg_tready = m_tready && s_pt_tvalid;
  assign m_point = s_pt_tdata;
  assign m_digit = s_dg_tdata;
  assign m_tlast = s_dg_tlast;
endmodule
