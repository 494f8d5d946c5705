// zk_params.svh -- the one place for the field and multiplier parameters.
//
// Every module takes these as parameter defaults (`ZK_...), so the modulus
// and the multiplier's configuration are written once. The C++ constants of
// the test benches (rtl/tb/zk_params.h) are generated from this file by
// `cargo run -p zkmsm-rtl --bin zkmsm-vectors -- params rtl/tb/zk_params.h`,
// and a test of crates/rtl (`params_header_is_generated_from_svh`) fails if
// the two drift apart or if ZK_Q is not the host library's BLS12-377 q.
//
// Format (read by crates/rtl/src/params.rs): one `define per line,
// `define ZK_<NAME> <value>, value a decimal integer or 512'h<hex>.
`ifndef ZK_PARAMS_SVH
`define ZK_PARAMS_SVH
`define ZK_NB 384
`define ZK_QBITS 377
`define ZK_Q 512'h01ae3a4617c510eac63b05c06ca1493b1a22d9f300f5138f1ef3622fba094800170b5d44300000008508c00000000001
`define ZK_LEVELS 3
`define ZK_TA 26
`define ZK_TB 17
// ZK_RW, the Montgomery reduction word: 384 (= NB, default) is the one-word
// reduction with m*q on DSPs (adder: 2,198 DSP48E2, 245k LUT, latency 74);
// 48 the word-serial shift-add reduction (1,134 DSP48E2, 649k LUT, latency
// 110), selected per instance by the RW parameter (docs/RTL.md, Resources).
`define ZK_RW 384
`define ZK_WIN 4
`define ZK_FANIN 4
`define ZK_SPLIT 1
// The MSM core (zk_msm_core and its modules, zk_msm_top). ZK_CMAX, the
// largest window (banks of 2^(ZK_CMAX-2) buckets), may be set on the command
// line (-DZK_CMAX=5: hierarchical Verilator builds cannot set parameters).
`ifndef ZK_CMAX
`define ZK_CMAX 16
`endif
// pending queue depth (a power of two)
`define ZK_PD 16
// bucket-memory read latency (URAM/BRAM output registers)
`define ZK_BRL 2
// hazards and pending queue: 0, zk_inflight and a distributed-RAM queue
// (tens in flight); 1, the bucket lock table and a block-RAM queue
// (thousands in flight); zk_core_sched
`define ZK_LOCK 0
// 1: a pending head whose bucket is busy is requeued (zk_core_sched)
`define ZK_RQ 0
// the batched-affine adder (zk_dp_aff): chains per inverter unit. 1: a
// Euclid unit per product chain (37 on BLS12-381; latency 2,671); 3: one
// unit inverts three chains in turn, a third of the units' LUTs for a
// longer batch (latency 7,319): the route to four adders on a U250
`ifndef ZK_AFF_SHARE
`define ZK_AFF_SHARE 1
`endif
// 1: the adder's operation data (zk_dp_aff's u_op: 2,323 bits for the whole
// latency on BLS12-381) in UltraRAM, 0: in block RAM, which four adders
// would exceed on a U250
`ifndef ZK_AFF_OP_URAM
`define ZK_AFF_OP_URAM 1
`endif
// widths: N, the window count, a work beat's signed digit, the counters
`define ZK_NW 32
`define ZK_WW 8
`define ZK_DGW 32
`define ZK_CW 64
// The multiplier's module name. Verilator names a hierarchical block's C++
// classes after its module, so two Verilated builds whose multipliers differ
// (another modulus, other defines) can be linked into one program only if
// each build names the module apart (crates/rtl/build.rs:
// -DZK_FQ_MUL=zk_fq_mul_aff381). Every instance is `ZK_FQ_MUL.
`ifndef ZK_FQ_MUL
`define ZK_FQ_MUL zk_fq_mul
`endif
// k = 2d of the twisted Edwards form of BLS12-377 (crates/curve te.rs
// `params().k`) in Montgomery form (k 2^NB mod q): zk_te_agg_in multiplies
// a source bucket's T by it, so that k T2 has the form of a point's k x y.
`define ZK_TE_K 512'h01784602fbff628a8bf6c1dd0d95a93e5597097dc5f2bb260f4d7cf27ef38fa5eae0237580faa8faf24b7e8444a706c6
// BLS12-381's base field, for the batched-affine adder (zk_dp_aff), which
// takes any modulus q < 2^(NB-2) by parameter: per instance, Q and QBITS
// (the twisted Edwards core stays on ZK_Q).
`define ZK_Q_BLS12_381 512'h1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
`define ZK_QBITS_BLS12_381 381
// BN254's base field, for the batched-affine adder at its own width: NB 256
// (q < 2^254 = 2^(NB-2), the adder's bound), so the core's Montgomery radix
// 2^256 is the host's and a coordinate is four 64-bit words; the multiplier
// keeps the one-word reduction (RW = NB).
`define ZK_Q_BN254 512'h30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47
`define ZK_QBITS_BN254 254
`define ZK_NB_BN254 256
`endif
