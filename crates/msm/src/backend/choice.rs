//! What `auto` runs: the backend measured fastest for the curve, the size and
//! the arithmetic this CPU gives batch-affine (`cargo bench -p zkmsm --bench
//! auto_sweep`; the measurements behind each threshold: docs/BENCHMARKS.md,
//! "`auto`: crossovers and thresholds").
//!
//! At the small end every engine's per-window set-up (bucket arrays, vector
//! constants, one inversion per batch) outweighs its additions, and XYZZ,
//! which needs none of it, wins: an MSM of 7 points still has 85 windows.
//! In between, on BLS12-377, twisted Edwards (scalar, no set-up, cheaper
//! additions) is ahead of both.

/// The backends, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackendChoice {
    /// The fastest measured for the curve and size (docs/BENCHMARKS.md).
    Auto,
    /// XYZZ buckets, mixed additions (every curve, every size).
    Xyzz,
    /// Batch-affine with the greedy scheduler (conflicting additions wait for the next batch).
    BatchAffineGreedy,
    /// Batch-affine with the delayed scheduler (conflicts parked in a queue, as in CycloneMSM).
    BatchAffineDelayed,
    /// BLS12-377 only.
    TwistedEdwards,
}

impl BackendChoice {
    /// Every choice, `Auto` first.
    pub const ALL: [BackendChoice; 5] =
        [Self::Auto, Self::Xyzz, Self::BatchAffineGreedy, Self::BatchAffineDelayed, Self::TwistedEdwards];

    /// The name `--backend` takes.
    pub fn name(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::Xyzz => "xyzz",
            Self::BatchAffineGreedy => "batch-affine",
            Self::BatchAffineDelayed => "batch-affine-delayed",
            Self::TwistedEdwards => "twisted-edwards",
        }
    }

    /// The choice named `s` (as [`Self::name`] spells it), if any.
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|b| b.name() == s)
    }
}

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

/// What a backend accumulates with, as far as `auto` cares (GLV pays off
/// on some engines and not on others).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackendKind {
    /// XYZZ buckets, one mixed addition per digit.
    Xyzz,
    /// Twisted Edwards buckets (BLS12-377).
    TwistedEdwards,
    /// Affine buckets, one inversion per batch, on this arithmetic.
    BatchAffine(Arithmetic),
    /// Anything else (the cycle model, the RTL): `auto` leaves GLV off.
    Other,
}

impl Arithmetic {
    /// The fastest arithmetic this CPU gives batch-affine: IFMA (unless
    /// `ZKMSM_NO_IFMA` is set), then the FMA lanes, then scalar code.
    /// [`crate::BatchAffineBackend::new`] runs what this says.
    pub fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        if super::lanes::ifma::enabled() {
            return Arithmetic::Ifma;
        }
        if super::lanes::fma_enabled() {
            Arithmetic::Fma
        } else {
            Arithmetic::Scalar
        }
    }
}

/// On BLS12-377, below the lane engines, twisted Edwards from this many
/// points, XYZZ below (both with GLV; the same for every arithmetic, as
/// neither uses lanes). Measured: docs/BENCHMARKS.md, "`auto`: crossovers
/// and thresholds".
pub const TWISTED_EDWARDS_FROM: usize = 54;

/// The FMA lane engine from this many points, the scalar backends below.
/// Measured: docs/BENCHMARKS.md, "`auto`: crossovers and thresholds".
pub const FMA_LANES_FROM: usize = 256;

/// The IFMA lane engine from this many points, the scalar backends below.
/// Measured: docs/BENCHMARKS.md, "`auto`: crossovers and thresholds".
pub const IFMA_LANES_FROM: usize = 256;

/// With no lane engine, on BLS12-381, the scalar batch-affine engine from
/// this many points, XYZZ below (on BLS12-377 twisted Edwards beats both
/// from [`TWISTED_EDWARDS_FROM`]). docs/BENCHMARKS.md, "`auto`: crossovers
/// and thresholds".
pub const SCALAR_FROM: usize = 1 << 13;

/// BN254 with no lane engine: the scalar batch-affine engine from this many
/// points, XYZZ below. Measured: docs/BENCHMARKS.md, "`auto` and GLV on
/// BN254".
pub const BN254_BATCH_AFFINE_FROM: usize = 1 << 9;

/// `auto` on BN254 for n points.
pub fn auto_backend_bn254(n: usize) -> BackendChoice {
    if n >= BN254_BATCH_AFFINE_FROM {
        BackendChoice::BatchAffineGreedy
    } else {
        BackendChoice::Xyzz
    }
}

/// G2 with no lane engine: the scalar batch-affine engine from this many
/// points, XYZZ below. BN254 G1's scalar crossover, which G2's is no later
/// than (an Fq2 inversion costs fewer multiplications relative to an Fq2
/// product than an Fq one does).
pub const G2_BATCH_AFFINE_FROM: usize = 1 << 9;

/// G2 on the FMA lanes over Fq2 (every x86-64 CPU with AVX2 and FMA, IFMA
/// ones included, and aarch64): batch-affine from this many points, XYZZ
/// below. Measured (`zkmsm bench --group g2 --log-n 4,5,6,7,8 --backend
/// xyzz --backend batch-affine`, AMD Zen 2): BLS12-381 G2 3.90 ms against
/// 3.89 at 64 points, 6.35 against 6.56 at 128, 2.73 against 2.47 at 32;
/// BN254 G2 2.43 against 3.01 at 64, 1.77 against 1.74 at 32.
pub const G2_LANES_FROM: usize = 64;

/// `auto` on G2 for n points; `lanes`: the FMA lanes run here
/// ([`super::lanes::fma_enabled`]).
pub fn auto_backend_g2(lanes: bool, n: usize) -> BackendChoice {
    if n >= if lanes { G2_LANES_FROM } else { G2_BATCH_AFFINE_FROM } {
        BackendChoice::BatchAffineGreedy
    } else {
        BackendChoice::Xyzz
    }
}

/// GLV under `auto` on G2's batch-affine engines below this many points:
/// the G1 curves' bound (the images' memory against the halved
/// aggregation).
pub const G2_GLV_UP_TO: usize = 1 << 21;

/// `auto` for n points with the given arithmetic; `twisted_edwards`: the
/// curve has that form (BLS12-377).
pub fn auto_backend(arith: Arithmetic, twisted_edwards: bool, n: usize) -> BackendChoice {
    let lanes_from = match arith {
        Arithmetic::Ifma => IFMA_LANES_FROM,
        Arithmetic::Fma => FMA_LANES_FROM,
        Arithmetic::Scalar => usize::MAX,
    };
    if n >= lanes_from {
        BackendChoice::BatchAffineGreedy
    } else if twisted_edwards && n >= TWISTED_EDWARDS_FROM {
        BackendChoice::TwistedEdwards
    } else if arith == Arithmetic::Scalar && !twisted_edwards && n >= SCALAR_FROM {
        BackendChoice::BatchAffineGreedy
    } else {
        BackendChoice::Xyzz
    }
}

/// GLV under `auto` ([`crate::GlvMode::Auto`]) on the lane engines from
/// this many points, where they start. Measured: docs/BENCHMARKS.md,
/// "`auto`: crossovers and thresholds".
pub const GLV_FROM: usize = FMA_LANES_FROM;

/// GLV under `auto` on the lane engines below this many points of
/// BLS12-381; above, the images' memory (2n points) costs what the halved
/// bucket aggregation saves. Measured: docs/BENCHMARKS.md, "GLV".
pub const GLV_UP_TO_381: usize = 1 << 21;

/// As [`GLV_UP_TO_381`] for BLS12-377 (the same measurements).
pub const GLV_UP_TO_377: usize = 1 << 21;

/// GLV under `auto` on BN254's batch-affine engines below this many points
/// (XYZZ runs it at every size, as on the other curves). Measured:
/// docs/BENCHMARKS.md, "`auto` and GLV on BN254".
pub const GLV_UP_TO_BN254: usize = 1 << 21;

/// GLV under `auto` for n points of curve `curve` on a backend of kind
/// `backend` ([`crate::Backend::kind`]), where it measured faster: on XYZZ
/// and twisted Edwards at every size, on the batch-affine lane engines from
/// [`GLV_FROM`] to the curve's bound, on BN254's scalar batch-affine engine
/// below its bound; not on the BLS12 curves' scalar batch-affine engine
/// (not measured). docs/BENCHMARKS.md, "`auto`: crossovers and thresholds".
pub fn auto_glv(curve: &str, backend: BackendKind, n: usize) -> bool {
    if curve.ends_with(" g2") {
        return match backend {
            BackendKind::Xyzz => true,
            BackendKind::BatchAffine(_) => n < G2_GLV_UP_TO,
            BackendKind::TwistedEdwards | BackendKind::Other => false,
        };
    }
    let up_to = match curve {
        "bls12-381" => GLV_UP_TO_381,
        "bls12-377" => GLV_UP_TO_377,
        "bn254" => GLV_UP_TO_BN254,
        _ => return false,
    };
    match backend {
        BackendKind::Xyzz | BackendKind::TwistedEdwards => true,
        BackendKind::BatchAffine(Arithmetic::Ifma | Arithmetic::Fma) => (GLV_FROM..up_to).contains(&n),
        // measured on BN254 only, where it is the engine `auto` runs
        BackendKind::BatchAffine(Arithmetic::Scalar) => curve == "bn254" && n < up_to,
        BackendKind::Other => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// G2: XYZZ below its crossover, batch-affine from it: earlier on the
    /// FMA lanes than on scalar code.
    #[test]
    fn g2_crossover_depends_on_the_lanes() {
        for (lanes, from) in [(true, G2_LANES_FROM), (false, G2_BATCH_AFFINE_FROM)] {
            assert_eq!(auto_backend_g2(lanes, 1), BackendChoice::Xyzz);
            assert_eq!(auto_backend_g2(lanes, from - 1), BackendChoice::Xyzz);
            assert_eq!(auto_backend_g2(lanes, from), BackendChoice::BatchAffineGreedy);
        }
    }

    /// Tiny MSMs run XYZZ whatever the CPU (7 points took 3.5 ms in
    /// batch-affine against 0.32 ms in XYZZ); large ones the lane engine or,
    /// without one, the measured scalar choice.
    /// BN254 (no lane engine takes its field): XYZZ below the measured
    /// crossover, scalar batch-affine from it; GLV on both up to its bound.
    #[test]
    fn bn254_has_its_own_crossover_and_glv_range() {
        assert_eq!(auto_backend_bn254(0), BackendChoice::Xyzz);
        assert_eq!(auto_backend_bn254(BN254_BATCH_AFFINE_FROM - 1), BackendChoice::Xyzz);
        assert_eq!(auto_backend_bn254(BN254_BATCH_AFFINE_FROM), BackendChoice::BatchAffineGreedy);
        assert_eq!(auto_backend_bn254(1 << 24), BackendChoice::BatchAffineGreedy);
        let scalar = BackendKind::BatchAffine(Arithmetic::Scalar);
        assert!(auto_glv("bn254", scalar, 1 << 12) && !auto_glv("bn254", scalar, GLV_UP_TO_BN254));
        assert!(auto_glv("bn254", BackendKind::Xyzz, 1 << 24));
        assert!(!auto_glv("bls12-381", scalar, 1 << 12), "not measured on the BLS12 curves");
        assert!(!auto_glv("bn254", BackendKind::Other, 1 << 12));
    }

    #[test]
    fn auto_picks_xyzz_at_tiny_sizes_and_lanes_at_large_ones() {
        for arith in [Arithmetic::Ifma, Arithmetic::Fma, Arithmetic::Scalar] {
            for te in [false, true] {
                let xyzz_below = if te { TWISTED_EDWARDS_FROM } else { FMA_LANES_FROM };
                for n in 0..xyzz_below {
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

    /// Each side of each crossover picks the backend measured faster there.
    #[test]
    fn auto_switches_at_each_measured_crossover() {
        use BackendChoice::*;
        let at = |arith, te, n| auto_backend(arith, te, n);
        // twisted Edwards against XYZZ, BLS12-377 only, where no lane engine
        // starts first (the FMA lanes start below it)
        for arith in [Arithmetic::Ifma, Arithmetic::Fma, Arithmetic::Scalar] {
            assert_eq!(at(arith, true, TWISTED_EDWARDS_FROM - 1), Xyzz, "{arith:?}");
            assert_eq!(at(arith, true, TWISTED_EDWARDS_FROM), TwistedEdwards, "{arith:?}");
            assert_eq!(at(arith, false, TWISTED_EDWARDS_FROM), Xyzz, "{arith:?}");
        }
        for (arith, from) in [(Arithmetic::Fma, FMA_LANES_FROM), (Arithmetic::Ifma, IFMA_LANES_FROM)] {
            let below = if from > TWISTED_EDWARDS_FROM { TwistedEdwards } else { Xyzz };
            assert_eq!(at(arith, true, from - 1), below, "{arith:?}");
            assert_eq!(at(arith, false, from - 1), Xyzz, "{arith:?}");
            assert_eq!(at(arith, true, from), BatchAffineGreedy, "{arith:?}");
            assert_eq!(at(arith, false, from), BatchAffineGreedy, "{arith:?}");
        }
        assert_eq!(at(Arithmetic::Scalar, false, SCALAR_FROM - 1), Xyzz);
        assert_eq!(at(Arithmetic::Scalar, false, SCALAR_FROM), BatchAffineGreedy);
        assert_eq!(at(Arithmetic::Scalar, true, SCALAR_FROM), TwistedEdwards);
    }

    /// GLV under auto: on XYZZ and twisted Edwards at every size, on the
    /// lane engines inside the measured range, nowhere else.
    #[test]
    fn auto_glv_only_where_measured() {
        for (curve, up_to) in [("bls12-381", GLV_UP_TO_381), ("bls12-377", GLV_UP_TO_377)] {
            for backend in [BackendKind::BatchAffine(Arithmetic::Fma), BackendKind::BatchAffine(Arithmetic::Ifma)] {
                assert!(!auto_glv(curve, backend, GLV_FROM - 1));
                assert!(auto_glv(curve, backend, GLV_FROM));
                assert!(auto_glv(curve, backend, up_to - 1));
                assert!(!auto_glv(curve, backend, up_to));
            }
            for backend in [BackendKind::BatchAffine(Arithmetic::Scalar), BackendKind::Other] {
                assert!(!auto_glv(curve, backend, 1 << 14), "{backend:?}");
            }
            for backend in [BackendKind::Xyzz, BackendKind::TwistedEdwards] {
                for n in [1, 7, 255, 256, 1 << 14, 1 << 22] {
                    assert!(auto_glv(curve, backend, n), "{backend:?} {n}");
                }
            }
        }
        assert!(!auto_glv("toy17", BackendKind::BatchAffine(Arithmetic::Fma), 1 << 14));
        assert!(!auto_glv("toy17", BackendKind::Xyzz, 1 << 14));
    }

    /// The batch-affine backend runs what detection says, and names it.
    #[test]
    fn the_backend_runs_the_detected_arithmetic() {
        use crate::Backend;
        let b = crate::BatchAffineBackend::<crate::GreedyScheduler>::default();
        assert_eq!(b.arithmetic(), Arithmetic::detect());
        let kind = <crate::BatchAffineBackend as Backend<zkmsm_curve::Bls12_381>>::kind(&b);
        assert_eq!(kind, BackendKind::BatchAffine(Arithmetic::detect()));
        let scalar = b.scalar_only();
        assert_eq!(scalar.arithmetic(), Arithmetic::Scalar);
        assert!(!<crate::BatchAffineBackend as Backend<zkmsm_curve::Bls12_381>>::name(&scalar).contains("fma"));
    }
}
