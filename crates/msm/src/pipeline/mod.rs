//! The MSM's phases after init, in the papers' order: the window choice
//! ([`plan`]), signed-digit slicing ([`digits`], with the GLV split of
//! [`glv`] and the shifted copies of [`fixed_base`]), then, around the
//! backend's bucket accumulation ([`crate::backend`]), bucket aggregation
//! ([`bucket_aggregation`]) and result aggregation ([`result_aggregation`]).

pub mod bucket_aggregation;
pub mod digits;
pub mod fixed_base;
pub mod glv;
pub mod plan;
pub mod result_aggregation;
