//! Properties that zkmsm must keep on any input, written once and used three
//! ways: by the cargo-fuzz targets in `fuzz/fuzz_targets` (libFuzzer feeds
//! them bytes), by `tests/corpus_replay.rs` (every input kept in
//! `fuzz/corpus` replayed as an ordinary test, in CI), and, for the MSM
//! property, by the soak campaign (`examples/soak.rs`).
//!
//! Each check panics when the property fails: that is what libFuzzer reports.

// Every public item is documented (checked by clippy -D warnings and cargo doc in CI).
#![warn(missing_docs)]

pub mod curves;
pub mod decode;
pub mod msm;
pub mod readers;
