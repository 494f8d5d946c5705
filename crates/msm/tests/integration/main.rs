//! zkmsm's integration tests, one test binary: each module was its own
//! binary before, and each re-instantiated the engines for both curves, so
//! linking them into one saves most of the test build (CI time).

mod ark_api;
mod arkworks_diff;
mod encoded;
mod groth16;
mod lane_roots;
mod other_curves;
mod out_of_core;
mod prepared;
mod streaming;
