//! zkmsm: multi-scalar multiplication sum_i s_i * P_i on BLS12-377, BLS12-381 and BN254 G1,
//! organised as the accelerator papers organise it:
//!
//! 1. **init** ([`MsmBuilder`], [`input`]): the points are fixed across many
//!    MSMs; decode and validate them once and convert them to the backend's
//!    form ([`prepared`] persists the result);
//! 2. **plan** ([`pipeline::plan`]): window size c from a cost model;
//! 3. **digit slicing** ([`pipeline::digits`]): signed c-bit digits with
//!    carry, so a window needs only 2^(c-1) buckets;
//! 4. **bucket accumulation** ([`backend`]): behind the [`Backend`] seam,
//!    batches of conflict-free additions from a [`scheduler`];
//! 5. **bucket aggregation** ([`pipeline::bucket_aggregation`]): running sums
//!    per window;
//! 6. **result aggregation** ([`pipeline::result_aggregation`]): doublings
//!    and adds across windows.
//!
//! The API sits at the root: [`MsmBuilder`] and [`MsmContext`] (generic over
//! the backend), [`MsmEngine`] (a context behind a trait object, the backend
//! chosen by name), the one-shot [`msm`], [`encoded`] for encoded bytes on a
//! curve and group chosen at run time (from the [`registry`]), [`out_of_core`] for inputs larger than memory,
//! [`ark`] for arkworks types, [`groth16`] for Groth16 proofs (feature `groth16`).

// Every public item is documented (checked by clippy -D warnings and cargo doc in CI).
#![warn(missing_docs)]

// first: its `with_curve!` is in scope in the modules below
#[macro_use]
pub mod registry;
#[cfg(feature = "ark")]
pub mod ark;
pub mod backend;
pub mod bucket;
pub mod builder;
pub mod context;
pub mod encoded;
pub mod engine;
pub mod error;
pub mod gen;
#[cfg(feature = "groth16")]
pub mod groth16;
pub mod input;
pub mod out_of_core;
pub mod pipeline;
pub mod prepared;
pub mod reference;
pub mod scheduler;
pub mod store;
pub mod timing;

// The phases and the input stages under their short paths (`zkmsm::plan`,
// `zkmsm::io`, ...), as the other crates and users name them.
pub use input::{io, lane_roots, load, record, validate};
pub use pipeline::{bucket_aggregation, digits, fixed_base, glv, plan, result_aggregation};

pub use backend::choice::BackendChoice;
pub use backend::lanes::lane_curve::LaneCurve;
pub use backend::{Backend, BatchAffineBackend, TwistedEdwardsBackend, WindowBuckets, XyzzBackend};
pub use bucket::Bucket;
pub use builder::{msm, msm_bigint, EngineCurve, MsmBuilder};
pub use context::{MsmContext, MsmOutput};
pub use engine::MsmEngine;
pub use error::MsmError;
pub use input::load::decode_points;
pub use input::record::{BadRecord, Input, LayoutFault, PointFault, RecordFault};
pub use input::scalars::ScalarEndian;
pub use input::validate::Validation;
pub use input::InputCurve;
pub use pipeline::digits::ScalarLimbs;
pub use pipeline::glv::GlvMode;
pub use pipeline::plan::Plan;
pub use prepared::{open_prepared, open_prepared_with, PreparedRefusal, RefusalKind};
pub use registry::{Curve, Group};
pub use scheduler::{DelayedScheduler, GreedyScheduler, Scheduler};
pub use timing::{Phase, PhaseTimings, Stopwatch};
pub use zkmsm_curve::{
    Affine, Bls12_377, Bls12_377G2, Bls12_381, Bls12_381G2, Bn254, Bn254G2, MsmCurve, SwCurve, Xyzz,
};

// The README's Rust snippets run as doc tests.
#[cfg(all(doctest, feature = "ark"))]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeSnippets;
