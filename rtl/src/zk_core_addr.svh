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
