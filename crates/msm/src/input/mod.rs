//! Init's input side: bytes to validated points and scalars. [`io`] reads
//! files and streams with byte offsets in every error, [`bytes`] decodes the
//! CLI's formats in memory, [`load`] decodes and validates points in
//! parallel passes, [`lane_roots`] takes the square roots of compressed
//! points in SIMD lanes, and [`validate`] tests G1 membership of a whole
//! batch at once.
//! [`record`] is the one error of them all for a bad record or input.

pub mod bytes;
pub mod io;
pub mod lane_roots;
pub mod load;
pub mod record;
pub mod scalars;
pub mod validate;

/// A curve whose points the input layer reads: the backends take it
/// ([`LaneCurve`]) and its coordinates have a decompression root finder.
pub trait InputCurve: LaneCurve<Base: lane_roots::CoordinateRoots> {}
impl<C: LaneCurve<Base: lane_roots::CoordinateRoots>> InputCurve for C {}

use crate::backend::lanes::lane_curve::LaneCurve;
