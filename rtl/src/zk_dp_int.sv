// zk_dp_int -- stand-in datapath for the core's control logic: integers
// instead of curve points (as Hardcaml tests its controller), bucket +/-
// point mod 2^W with a LAT-register pipeline and the same ports as
// zk_dp_te. The read-modify-write hazards are the same as with the real
// adder, so a scheduling error shows up as a wrong bucket sum, and cases
// run thousands of times faster. Identity: 0.
module zk_dp_int #(
    parameter integer W    = 16,
    parameter integer TAGW = 8,
    parameter integer LAT  = 4
) (
    input  logic            clk,
    input  logic            rst,
    input  logic            in_valid,
    input  logic            in_sub,
    input  logic [TAGW-1:0] in_tag,
    input  logic [   W-1:0] bucket,
    input  logic [   W-1:0] point,
    output logic            out_valid,
    output logic [TAGW-1:0] out_tag,
    output logic [   W-1:0] out_value
);
  logic [W-1:0] sum;
  assign sum = in_sub ? bucket - point : bucket + point;
  zk_valid_pipe #(
      .N(LAT)
  ) u_vld (
      .clk(clk),
      .rst(rst),
      .d  (in_valid),
      .q  (out_valid)
  );
  generate
    if (LAT <= 16) begin : g_regs
      zk_delay #(
          .W(TAGW + W),
          .N(LAT)
      ) u_data (
          .clk(clk),
          .d  ({in_tag, sum}),
          .q  ({out_tag, out_value})
      );
    end else begin : g_ring
      // long latencies (thousands of cycles in flight): a ring of LAT words
      // written in turn; the word out in cycle t was written LAT cycles
      // earlier (cheaper to simulate and to build than LAT registers). It
      // is read two cycles ahead (pr = ptr + 2) through the memory's read
      // register and one more, so the outputs come from flip-flops as the
      // adders' do.
      localparam integer PTW = $clog2(LAT);
      logic [TAGW+W-1:0] ring[LAT];
      logic [TAGW+W-1:0] rq;
      logic [PTW-1:0] ptr, pr;
      always_ff @(posedge clk) begin
        ring[ptr] <= {in_tag, sum};
        ptr <= (rst || ptr == PTW'(LAT - 1)) ? '0 : ptr + 1'b1;
        pr <= rst ? PTW'(2) : (pr == PTW'(LAT - 1)) ? '0 : pr + 1'b1;
        rq <= ring[pr];
        {out_tag, out_value} <= rq;
      end
    end
  endgenerate
endmodule
