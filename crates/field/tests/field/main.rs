//! zkmsm-field's tests, one test binary (each module was its own binary
//! before, each linking arkworks' fields and proptest at opt-level 3): run
//! one with `cargo test -p zkmsm-field --test field inverse::`.

mod asm;
mod constants;
mod fp2;
mod inverse;
mod proptests;
