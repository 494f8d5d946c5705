// zk_dp_aff_inv_tb -- the inverter unit against its specification, on
// BLS12-381 and BLS12-377: started with 0 < a < 2q (a != q), after
// zk_dp_aff_il(NB) steps its result r is canonical (r < q),
// r * a = R^2 (mod q), R = 2^NB, and it still is a random number of
// cycles later (the unit holds it). Edge operands (1, 2, q - 1, q + 1,
// 2q - 1) and uniform ones; each check uses wide integer arithmetic of
// the simulator, nothing from the unit. Half the starts come before the
// previous inversion is done (a start reloads the unit). Then every
// operand 0 < a < 2q, a != q, of two small units (NB 8, q = 61; NB 10,
// q = 251: primes below 2^(NB-2)), exhaustively. Self-checking;
// rtl/test.sh builds it (Verilator's --binary) and runs it with +n=STARTS
// (default 2000 per curve).
`include "zk_params.svh"
module zk_dp_aff_inv_tb;
`include "zk_funcs.svh"
  localparam integer NB = 384;
  localparam logic [511:0] QA = `ZK_Q_BLS12_381;
  localparam logic [511:0] QB = `ZK_Q;
  localparam integer IL = zk_dp_aff_il(NB);

  logic clk = 1'b0;
  always #1 clk = ~clk;
  logic st_a = 1'b0, st_b = 1'b0;
  logic [NB-1:0] a_a = '0, a_b = '0, r_a, r_b;
  zk_dp_aff_inv #(.NB(NB), .Q(QA)) u_a (.clk(clk), .start(st_a), .a(a_a), .res(r_a));
  zk_dp_aff_inv #(.NB(NB), .Q(QB)) u_b (.clk(clk), .start(st_b), .a(a_b), .res(r_b));
  // the small units, checked on every operand
  localparam integer NS = 8, NT = 10;
  localparam longint QS = 61, QT = 251;
  logic st_s = 1'b0, st_t = 1'b0;
  logic [NS-1:0] a_s = '0, r_s;
  logic [NT-1:0] a_t = '0, r_t;
  zk_dp_aff_inv #(.NB(NS), .Q(512'(QS))) u_s (.clk(clk), .start(st_s), .a(a_s), .res(r_s));
  zk_dp_aff_inv #(.NB(NT), .Q(512'(QT))) u_t (.clk(clk), .start(st_t), .a(a_t), .res(r_t));
  function automatic longint pow2mod(input integer e, input longint q);
    longint z = 1;
    for (int i = 0; i < e; i++) z = (2 * z) % q;
    return z;
  endfunction
  integer n_small = 0;

  function automatic logic [NB-1:0] operand(input logic [NB-1:0] q, input integer bits, input integer k);
    logic [NB-1:0] r;
    case (k % 10)
      0: r = 1;
      1: r = 2;
      2: r = q - 1;
      3: r = q + 1;
      4: r = (q << 1) - 1;
      default: begin
        for (int i = 0; i < NB / 32; i++) r[i*32+:32] = $urandom;
        r = r & ((384'd1 << bits) - 1);  // below 2q on both curves
        if (r == '0 || r == q) r = 3;
      end
    endcase
    return r;
  endfunction

  // (x + y) mod q and x * y mod q by doubling and adding, x, y < 2q:
  // narrow arithmetic only (Verilator 5.006 aborts on wide constant modulo)
  function automatic logic [NB-1:0] addm(input logic [NB-1:0] x, input logic [NB-1:0] y, input logic [NB-1:0] q);
    logic [NB+1:0] z;
    z = {2'b0, x} + {2'b0, y};
    while (z >= {2'b0, q}) z = z - {2'b0, q};
    return z[NB-1:0];
  endfunction
  function automatic logic [NB-1:0] mulm(input logic [NB-1:0] x, input logic [NB-1:0] y, input logic [NB-1:0] q);
    logic [NB-1:0] acc, xr;
    acc = '0;
    xr = addm(x, '0, q);
    for (int i = NB - 1; i >= 0; i--) begin
      acc = addm(acc, acc, q);
      if (y[i]) acc = addm(acc, xr, q);
    end
    return acc;
  endfunction
  // 2^(2 NB) mod q
  function automatic logic [NB-1:0] r2_of(input logic [NB-1:0] q);
    logic [NB-1:0] z;
    z = 384'd1;
    for (int i = 0; i < 2 * NB; i++) z = addm(z, z, q);
    return z;
  endfunction

  // (checked outside the stimulus process: Verilator runs a process that
  // waits on the clock as a coroutine with a n_small stack)
  logic [NB-1:0] c_r = '0, c_a = '0, c_q = 384'd3, c_r2 = '0;
  bit c_ok;
  always_comb c_ok = c_r < c_q && mulm(c_r, c_a, c_q) == c_r2;

  integer n = 2000, fails = 0, done = 0;
  task automatic one(input bit curve_a, input integer k);
    logic [NB-1:0] q, a, r;
    integer early;
    q = curve_a ? QA[NB-1:0] : QB[NB-1:0];
    a = operand(q, curve_a ? `ZK_QBITS_BLS12_381 : `ZK_QBITS, k);
    // every other start interrupts a random earlier operand first
    early = k % 2 == 1 ? 1 + $urandom % IL : 0;
    if (early != 0) begin
      @(negedge clk);
      if (curve_a) begin st_a = 1'b1; a_a = operand(q, `ZK_QBITS_BLS12_381, k + 5); end
      else begin st_b = 1'b1; a_b = operand(q, `ZK_QBITS, k + 5); end
      @(negedge clk);
      st_a = 1'b0;
      st_b = 1'b0;
      repeat (early - 1) @(negedge clk);
    end
    @(negedge clk);
    if (curve_a) begin st_a = 1'b1; a_a = a; end else begin st_b = 1'b1; a_b = a; end
    @(negedge clk);
    st_a = 1'b0;
    st_b = 1'b0;
    repeat (IL) @(negedge clk);
    r = curve_a ? r_a : r_b;
    c_r = r;
    c_a = a;
    c_q = q;
    c_r2 = curve_a ? r2_a : r2_b;
    @(negedge clk);
    if (!c_ok) begin
      fails++;
      if (fails <= 3) $display("FAIL %s a = %h: r = %h", curve_a ? "BLS12-381" : "BLS12-377", a, r);
    end
    repeat ($urandom % 8) @(negedge clk);
    if ((curve_a ? r_a : r_b) != r) begin
      fails++;
      if (fails <= 3) $display("FAIL %s a = %h: result not held", curve_a ? "BLS12-381" : "BLS12-377", a);
    end
    done++;
  endtask

  logic [NB-1:0] r2_a, r2_b;
  initial begin
    r2_a = r2_of(QA[NB-1:0]);
    r2_b = r2_of(QB[NB-1:0]);
    void'($value$plusargs("n=%d", n));
    for (int k = 0; k < n; k++) begin
      one(1'b1, k);
      one(1'b0, k);
    end
    for (longint a = 1; a < 2 * QS; a++) begin
      if (a == QS) continue;
      @(negedge clk);
      st_s = 1'b1;
      a_s = NS'(a);
      @(negedge clk);
      st_s = 1'b0;
      repeat (zk_dp_aff_il(NS)) @(negedge clk);
      if (longint'(r_s) >= QS || (longint'(r_s) * a) % QS != pow2mod(2 * NS, QS)) begin
        fails++;
        if (fails <= 3) $display("FAIL NB %0d q %0d a = %0d: r = %0d", NS, QS, a, r_s);
      end
      n_small++;
    end
    for (longint a = 1; a < 2 * QT; a++) begin
      if (a == QT) continue;
      @(negedge clk);
      st_t = 1'b1;
      a_t = NT'(a);
      @(negedge clk);
      st_t = 1'b0;
      repeat (zk_dp_aff_il(NT)) @(negedge clk);
      if (longint'(r_t) >= QT || (longint'(r_t) * a) % QT != pow2mod(2 * NT, QT)) begin
        fails++;
        if (fails <= 3) $display("FAIL NB %0d q %0d a = %0d: r = %0d", NT, QT, a, r_t);
      end
      n_small++;
    end
    $display("zk_dp_aff_inv_tb: %0d inversions (BLS12-381, BLS12-377) and %0d exhaustive (NB 8, q 61; NB 10, q 251), %0d wrong",
             done, n_small, fails);
    if (fails != 0) $fatal(1, "zk_dp_aff_inv_tb: FAIL");
    $finish;
  end
endmodule
