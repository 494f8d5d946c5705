//! zkmsm-curve's tests, one test binary (each module was its own binary
//! before, each linking arkworks' three curves at opt-level 3): run one
//! with `cargo test -p zkmsm-curve --test curve arkworks::`.

mod common;

mod arkworks;
mod g2;
mod twisted_edwards;
