//! The `zkmsm` command's tests, one test binary (each module was its own
//! binary before: one link each): run one with
//! `cargo test -p zkmsm-cli --test cli hostile::`.

mod common;

mod budget;
mod cli;
mod g2;
mod hostile;
mod inputs;
mod memory;
mod outputs;
mod prepare;
mod prepared_in_use;
mod refusals;
mod rtl_backend;
mod scale;
mod sim_args;
