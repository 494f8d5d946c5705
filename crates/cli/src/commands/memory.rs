//! The memory a run will hold, reserved before any work: a size the machine
//! (or its `ulimit -v`) cannot hold is refused at once in one line, not after
//! minutes of generating or reading points. The figures are upper bounds
//! (the measured peaks are in docs/ROBUSTNESS.md); the reservation is
//! released at once, no page touched.

use crate::error::CliError;
use zkmsm::fixed_base::Precompute;
use zkmsm::Affine;
use zkmsm_field::PrimeField;

/// Bytes a scalar holds during an MSM: its limbs, its signed digits and the
/// sort of the points by bucket (the C ABI's and the Python package's figure).
const SCALAR_WORK: usize = 256;

/// How an engine holds its points.
#[derive(Clone, Copy)]
pub struct EngineShape {
    /// Fixed-base mode's factor (M > 1), or `None`.
    pub fixed_base: Option<u32>,
    /// Whether GLV may run (the n images beside the points): in plain mode
    /// on a curve with an endomorphism, unless turned off.
    pub glv: bool,
}

/// An engine of `n` points and one MSM on it, an upper bound: each copy of
/// the points (fixed-base copies, GLV images) twice, as the points and the
/// backend's layout made from them, and the MSM's work a scalar.
pub fn engine<C: zkmsm::InputCurve>(n: usize, shape: EngineShape) -> usize {
    let copies = match shape.fixed_base {
        Some(m) => Precompute::for_size(n, m, C::Scalar::NUM_BITS).copies as usize,
        None if shape.glv => 2,
        None => 1,
    };
    let per_point = copies.saturating_mul(2 * core::mem::size_of::<Affine<C>>()).saturating_add(SCALAR_WORK);
    n.saturating_mul(per_point)
}

/// Inputs held beside the engine: `n` decoded points and `words` 32-byte
/// words a point (scalars, discrete logs).
pub fn inputs<C: zkmsm::InputCurve>(n: usize, words: usize) -> usize {
    n.saturating_mul(core::mem::size_of::<Affine<C>>() + 32 * words)
}

/// Refuse at once what cannot be allocated: `bytes` are reserved and
/// released (`what` says for what, e.g. "2^26 bn254 points").
pub fn reserve(bytes: usize, what: &str) -> Result<(), CliError> {
    let mut probe: Vec<u8> = Vec::new();
    crate::alloc::fallible(|| probe.try_reserve_exact(bytes))
        .map_err(|_| CliError::OutOfMemory(format!("{what} need up to {:.1} GiB", bytes as f64 / (1u64 << 30) as f64)))
}
