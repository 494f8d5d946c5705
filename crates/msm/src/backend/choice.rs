//! What `auto` runs: the backend measured fastest for the curve, the size and
//! the arithmetic this CPU gives batch-affine (`cargo bench -p zkmsm --bench
//! auto_sweep`, docs/BENCHMARKS.md).
//!
//! At the small end every engine's per-window set-up (bucket arrays, vector
//! constants, one inversion per batch) outweighs its additions, and XYZZ,
//! which needs none of it, wins: an MSM of 7 points still has 85 windows.

use crate::engine::BackendChoice;

/// The arithmetic batch-affine runs on this CPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arithmetic {
    /// Eight lanes, AVX-512 IFMA (`super::ifma`).
    Ifma,
    /// Four lanes, double-precision FMA (`super::lanes`).
    Fma,
    /// One field element at a time (MULX/ADX assembly or portable Rust).
    Scalar,
}

impl Arithmetic {
    /// What `BatchAffineBackend::new` will pick here.
    pub fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        if super::ifma::enabled() {
            return Arithmetic::Ifma;
        }
        if super::lanes::fma_enabled() {
            Arithmetic::Fma
        } else {
            Arithmetic::Scalar
        }
    }
}

/// Below this many points XYZZ beats the lane engines (FMA measured with
/// `auto_sweep`; IFMA assumed the same, its per-window costs being alike).
pub const LANES_FROM: usize = 1 << 11;

/// Below this many points XYZZ beats the scalar batch-affine and twisted
/// Edwards engines (`zkmsm bench`, docs/BENCHMARKS.md).
pub const SCALAR_FROM: usize = 1 << 13;

/// `auto` for n points with the given arithmetic; `twisted_edwards`: the
/// curve has that form (BLS12-377).
pub fn auto_backend(arith: Arithmetic, twisted_edwards: bool, n: usize) -> BackendChoice {
    match arith {
        Arithmetic::Ifma | Arithmetic::Fma if n >= LANES_FROM => BackendChoice::BatchAffineGreedy,
        Arithmetic::Ifma | Arithmetic::Fma => BackendChoice::Xyzz,
        Arithmetic::Scalar if n < SCALAR_FROM => BackendChoice::Xyzz,
        Arithmetic::Scalar if twisted_edwards => BackendChoice::TwistedEdwards,
        Arithmetic::Scalar => BackendChoice::BatchAffineGreedy,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tiny MSMs run XYZZ whatever the CPU (issue: 7 points took 3.5 ms in
    /// batch-affine against 0.32 ms in XYZZ); large ones the lane engine or,
    /// without one, the measured scalar choice.
    #[test]
    fn auto_picks_xyzz_at_tiny_sizes_and_lanes_at_large_ones() {
        for arith in [Arithmetic::Ifma, Arithmetic::Fma, Arithmetic::Scalar] {
            for te in [false, true] {
                for n in (0..=300).chain([1000, 2000]) {
                    assert_eq!(auto_backend(arith, te, n), BackendChoice::Xyzz, "{arith:?} n {n}");
                }
                let large = auto_backend(arith, te, 1 << 20);
                let want = match (arith, te) {
                    (Arithmetic::Scalar, true) => BackendChoice::TwistedEdwards,
                    _ => BackendChoice::BatchAffineGreedy,
                };
                assert_eq!(large, want, "{arith:?}");
            }
        }
    }

    #[test]
    fn detection_agrees_with_the_backend() {
        let b = crate::BatchAffineBackend::<crate::GreedyScheduler>::default();
        let want = if b.uses_ifma() {
            Arithmetic::Ifma
        } else if b.uses_fma() {
            Arithmetic::Fma
        } else {
            Arithmetic::Scalar
        };
        assert_eq!(Arithmetic::detect(), want);
    }
}
