// zk_fanout -- one point stream to NCORES cores (SuperScalar's
// arrangement: one point read from memory serves every core). A pass is the
// N points once, each beat carrying the digits of NCORES windows, field k
// for core k: pass p holds windows p*CORES .. p*CORES + CORES - 1 and core k
// takes window p*CORES + k. A core whose window number is >= WINDOWS (the
// last pass when CORES does not divide WINDOWS) or >= CORES (cores not in
// use) gets nothing from that pass.
//
// Each core has a FIFO of FD beats {tlast, digit, point}; a beat is pushed
// into every active core's FIFO in the same cycle, when none of them is
// full (`full` is registered: no combinational path from a core's ready
// back to the point stream). The FIFOs absorb short stalls of one core (its
// pending queue full) without stopping the others; a longer one stops the
// stream for all (counted: STALLS_FANOUT).
module zk_fanout #(
    parameter integer NCORES = 2,
    parameter integer PW     = 8,
    parameter integer DGW    = 32,  // one core's digit field
    parameter integer WW     = 8,
    parameter integer FD     = 4    // FIFO depth per core (a power of two >= 2)
) (
    input  logic                     clk,
    input  logic                     rst,
    input  logic                     start,        // (taken: clears the FIFOs, loads the pass state)
    input  logic [           WW-1:0] cfg_windows,
    input  logic [           WW-1:0] cfg_cores,    // cores in use, 1..NCORES
    // the shared stream (the point reader's join)
    input  logic                     s_tvalid,
    output logic                     s_tready,
    input  logic [           PW-1:0] s_point,
    input  logic [NCORES*DGW-1:0]    s_digits,
    input  logic                     s_tlast,      // last beat of a pass
    output logic                     stall,        // a beat waits for a full FIFO
    // to the cores
    output logic [       NCORES-1:0] m_tvalid,
    input  logic [       NCORES-1:0] m_tready,
    output logic [NCORES*PW-1:0]     m_point,
    output logic [NCORES*DGW-1:0]    m_digit,
    output logic [       NCORES-1:0] m_tlast
);
  // windows not yet handed out: core k is active in this pass if k < left
  logic [WW-1:0] left;
  logic [NCORES-1:0] active, full, push;
  genvar k;
  for (k = 0; k < NCORES; k++) begin : g_act
    assign active[k] = WW'(k) < left && WW'(k) < cfg_cores;
  end
  assign s_tready = (full & active) == '0;
  assign push = (s_tvalid && s_tready) ? active : '0;
  assign stall = s_tvalid && !s_tready;
  always_ff @(posedge clk) begin
    if (rst || start) left <= cfg_windows;
    else if (s_tvalid && s_tready && s_tlast) left <= left > cfg_cores ? left - cfg_cores : '0;
  end

  for (k = 0; k < NCORES; k++) begin : g_core
    logic [PW+DGW:0] q;
    logic valid;
    /* verilator lint_off UNUSEDSIGNAL */
    logic [$clog2(FD):0] count;
    /* verilator lint_on UNUSEDSIGNAL */
    zk_fifo #(
        .W(PW + DGW + 1),
        .DEPTH(FD)
    ) u_fifo (
        .clk(clk),
        .rst(rst || start),
        .push(push[k]),
        .d({s_tlast, s_digits[k*DGW+:DGW], s_point}),
        .pop(valid && m_tready[k]),
        .valid(valid),
        .full(full[k]),
        .q(q),
        .count(count)
    );
    assign m_tvalid[k] = valid;
    assign {m_tlast[k], m_digit[k*DGW+:DGW], m_point[k*PW+:PW]} = q;
  end
endmodule
