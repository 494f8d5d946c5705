//! zkmsm: multi-scalar multiplication sum_i s_i * P_i on BLS12-377/381 G1,
//! organised as the accelerator papers organise it:
//!
//! 1. **init** ([`MsmBuilder`], [`load`]): the points are fixed across many
//!    MSMs; decode and validate them once and convert them to the backend's form;
//! 2. **plan** ([`plan`]): window size c from a cost model;
//! 3. **digit slicing** ([`digits`]): signed c-bit digits with carry, so a
//!    window needs only 2^(c-1) buckets;
//! 4. **bucket accumulation** ([`backend`]): behind the [`Backend`] seam;
//! 5. **bucket aggregation** ([`bucket_aggregation`]): running sums per window;
//! 6. **result aggregation** ([`result_aggregation`]): doublings and adds
//!    across windows.

// Every public item is documented (checked by clippy -D warnings and cargo doc in CI).
#![warn(missing_docs)]

#[cfg(feature = "ark")]
pub mod ark;
pub mod backend;
pub mod bucket_aggregation;
pub mod builder;
pub mod context;
pub mod decompress;
pub mod digits;
pub mod encoded;
pub mod engine;
pub mod error;
pub mod fixed_base;
pub mod gen;
pub mod glv;
pub mod io;
pub mod load;
pub mod out_of_core;
mod persist;
pub mod plan;
pub mod prepared;
pub mod reference;
pub mod result_aggregation;
pub mod scheduler;
pub mod store;
pub mod timing;
pub mod validate;

pub use backend::{Backend, BatchAffineBackend, Bucket, TwistedEdwardsBackend, WindowBuckets, XyzzBackend};
pub use builder::MsmBuilder;
pub use context::{msm, msm_bigint, MsmContext, MsmOutput};
pub use engine::{BackendChoice, EngineCurve, MsmEngine};
pub use error::MsmError;
pub use glv::GlvMode;
pub use load::{decode_points, BadPoint, PointFault, Validation};
pub use plan::Plan;
pub use prepared::{open_prepared, open_prepared_with};
pub use scheduler::{DelayedScheduler, GreedyScheduler, Scheduler};
pub use timing::{Phase, PhaseTimings, Stopwatch};
pub use zkmsm_curve::{Affine, Bls12_377, Bls12_381, MsmCurve, SwCurve, Xyzz};

// The README's Rust snippets run as doc tests.
#[cfg(all(doctest, feature = "ark"))]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeSnippets;

/// A scalar as canonical little-endian limbs (both BLS scalar fields fit 4).
pub type ScalarLimbs = [u64; 4];
