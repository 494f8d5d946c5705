// zk_core_addr.svh -- the MSM core's bucket addressing, included inside the
// bodies of the core's modules (they define IW = CMAX-1 bucket index bits,
// AW = CMAX address bits, OFW = CMAX-2 offset bits).
//
// Bucket memory: four banks of 2^(CMAX-2) buckets, in window slots. With
// c < CMAX a window takes one bank, window w in slot w mod 4; with c = CMAX
// (`two`) it takes two banks (the bucket index's top bit picks one), window
// w in slot w mod 2. An address is {bank (2 bits), offset (CMAX-2 bits)}.

// (functions assign to their own names: Verilator's VARHIDDEN, as in
// zk_funcs.svh)
/* verilator lint_off VARHIDDEN */
// the slot of a window (from its low two bits)
function automatic [1:0] slot_of(input [1:0] w, input tw);
  slot_of = tw ? {1'b0, w[0]} : w[1:0];
endfunction
// a bucket's address: its window's slot and its index
function automatic [AW-1:0] baddr(input [1:0] sl, input [IW-1:0] idx, input tw);
  baddr = tw ? {sl[0], idx} : {sl, idx[OFW-1:0]};
endfunction
// the slot an address belongs to
function automatic [1:0] slot_of_addr(input [AW-1:0] a, input tw);
  slot_of_addr = tw ? {1'b0, a[AW-1]} : a[AW-1:AW-2];
endfunction
/* verilator lint_on VARHIDDEN */

// device aggregation (zk_core_agg): log2 of a window's group size m from
// the AGG register, c and the last window's bucket bits tb; the spread last
// window's groups are its copies (m = 2^tb)
/* verilator lint_off VARHIDDEN */
function automatic [4:0] agg_lm(input [4:0] lm_cfg, input [4:0] c, input [4:0] tb, input last);
  if (last && {1'b0, tb} + 6'd1 < {1'b0, c}) agg_lm = tb;
  else agg_lm = lm_cfg < c - 5'd1 ? lm_cfg : c - 5'd1;
endfunction
/* verilator lint_on VARHIDDEN */
