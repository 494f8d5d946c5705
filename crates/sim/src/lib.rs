//! zkmsm-sim: a cycle-level model of MSM accelerator hardware.
//!
//! The model reproduces the machines of the seed papers (CycloneMSM,
//! Hardcaml MSM, PriorMSM, the ZPrize 2023 batched-affine design, and the
//! UCSC thesis as a baseline) at the level of cycles: adder pipelines of
//! depth T accepting one operation per cycle, bucket memory, signed c-bit
//! digits streamed one per cycle, and a scheduler that keeps the pipeline
//! free of bucket conflicts. It has two modes:
//!
//! * statistics: bucket indices and timing only, with the host's digits
//!   (`zkmsm::digits` under a `zkmsm::Plan`) of the host's uniform scalars
//!   ([`digits::UniformDigits`]);
//! * functional: real points travel through the modelled pipeline, read at
//!   issue and written at retire, so a scheduler error corrupts the MSM.
//!
//! See `docs/MODEL.md` for the published claims the model reproduces.

// Every public item is documented (checked by clippy -D warnings and cargo doc in CI).
#![warn(missing_docs)]

pub mod aggregate;
pub mod backend;
#[cfg(feature = "cli")]
pub mod cli;
pub mod curves;
pub mod datapath;
pub mod digits;
pub mod model;
pub mod rng;
pub mod sched;
pub mod svg;
pub mod thesis;
pub mod timeline;

#[cfg(feature = "cli")]
pub use cli::{run, SimArgs, SimError};
pub use model::{AggKind, ModelConfig, Report, SchedKind};
pub use sched::{AccStats, Machine, Scheduler};
