//! The Verilated accelerator's tests (feature `verilated`), in one test
//! binary: every binary is a thin-LTO link of the whole library, which
//! costs more than the tests themselves. `stand_in`: the core's control on
//! its integer datapath against the cycle model; `end_to_end`: BLS12-377
//! MSMs through the twisted Edwards core as synthesized against the CPU
//! engine; `affine`: BLS12-381, BLS12-377 and BN254 MSMs through the
//! batched-affine core.
#![cfg(feature = "verilated")]

mod affine;
mod end_to_end;
mod stand_in;
