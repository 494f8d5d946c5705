//! Choosing a backend at run time: a context behind a trait object, so a CLI
//! or a prover can pick the backend by name without generic plumbing.

use crate::backend::{Backend, BatchAffineBackend, TwistedEdwardsBackend, XyzzBackend};
use crate::context::{MsmContext, MsmOutput, Validation};
use crate::scheduler::{DelayedScheduler, GreedyScheduler};
use crate::{MsmError, Plan, ScalarLimbs};
use zkmsm_curve::{Affine, Bls12_377, Bls12_381, MsmCurve};

/// The backends, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackendChoice {
    /// The fastest measured for the curve and size (docs/BENCHMARKS.md).
    Auto,
    Xyzz,
    BatchAffineGreedy,
    BatchAffineDelayed,
    /// BLS12-377 only.
    TwistedEdwards,
}

impl BackendChoice {
    pub const ALL: [BackendChoice; 5] =
        [Self::Auto, Self::Xyzz, Self::BatchAffineGreedy, Self::BatchAffineDelayed, Self::TwistedEdwards];

    pub fn name(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::Xyzz => "xyzz",
            Self::BatchAffineGreedy => "batch-affine",
            Self::BatchAffineDelayed => "batch-affine-delayed",
            Self::TwistedEdwards => "twisted-edwards",
        }
    }

    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|b| b.name() == s)
    }
}

/// An MSM context whatever its backend.
pub trait MsmEngine<C: MsmCurve>: Send + Sync {
    fn backend_name(&self) -> &'static str;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    fn set_window(&mut self, c: Option<u32>);
    fn plan(&self) -> Plan;
    fn msm_report(&self, scalars: &[ScalarLimbs]) -> Result<MsmOutput<C>, MsmError>;
    fn take_schedule_stats(&self) -> Option<crate::scheduler::ScheduleStats>;
}

impl<C: MsmCurve, B: Backend<C> + 'static> MsmEngine<C> for MsmContext<C, B>
where
    B::Prepared: 'static,
{
    fn backend_name(&self) -> &'static str {
        MsmContext::backend_name(self)
    }
    fn len(&self) -> usize {
        MsmContext::len(self)
    }
    fn set_window(&mut self, c: Option<u32>) {
        MsmContext::set_window(self, c)
    }
    fn plan(&self) -> Plan {
        MsmContext::plan(self)
    }
    fn msm_report(&self, scalars: &[ScalarLimbs]) -> Result<MsmOutput<C>, MsmError> {
        self.msm_bigint_report(scalars)
    }
    fn take_schedule_stats(&self) -> Option<crate::scheduler::ScheduleStats> {
        MsmContext::take_schedule_stats(self)
    }
}

/// Curves know which backends they support.
pub trait EngineCurve: MsmCurve {
    /// What `Auto` means for n points.
    fn auto_backend(n: usize) -> BackendChoice;
    fn twisted_edwards(
        points: Vec<Affine<Self>>,
        validation: Validation,
        copies: Option<u32>,
    ) -> Result<Box<dyn MsmEngine<Self>>, MsmError>;
}

/// A context with or without fixed-base precomputation, keeping the points.
fn context<C: MsmCurve, B: Backend<C> + 'static>(
    points: Vec<Affine<C>>,
    backend: B,
    validation: Validation,
    copies: Option<u32>,
) -> Result<Box<dyn MsmEngine<C>>, MsmError>
where
    B::Prepared: 'static,
{
    Ok(match copies {
        None => Box::new(MsmContext::with_backend_owned(points, backend, validation)?),
        Some(m) => Box::new(MsmContext::with_precompute_owned(points, backend, validation, m, None)?),
    })
}

/// Batch-affine runs eight additions per instruction where the CPU has
/// AVX-512 IFMA, which makes it the fastest backend on both curves there
/// (`zkmsm bench`, docs/BENCHMARKS.md).
fn ifma() -> bool {
    #[cfg(target_arch = "x86_64")]
    return crate::backend::ifma::enabled();
    #[cfg(not(target_arch = "x86_64"))]
    false
}

impl EngineCurve for Bls12_377 {
    fn auto_backend(_n: usize) -> BackendChoice {
        if ifma() {
            return BackendChoice::BatchAffineGreedy;
        }
        // without IFMA: fastest at every size measured (docs/BENCHMARKS.md, `zkmsm bench`)
        BackendChoice::TwistedEdwards
    }
    fn twisted_edwards(
        points: Vec<Affine<Self>>,
        validation: Validation,
        copies: Option<u32>,
    ) -> Result<Box<dyn MsmEngine<Self>>, MsmError> {
        context(points, TwistedEdwardsBackend, validation, copies)
    }
}

impl EngineCurve for Bls12_381 {
    fn auto_backend(n: usize) -> BackendChoice {
        if ifma() {
            return BackendChoice::BatchAffineGreedy;
        }
        // XYZZ below 2^13, where the shared inversion is amortized over too few
        // additions per window (`zkmsm bench --curve bls12-381`, docs/BENCHMARKS.md)
        if n < 1 << 13 {
            BackendChoice::Xyzz
        } else {
            BackendChoice::BatchAffineGreedy
        }
    }
    fn twisted_edwards(
        _: Vec<Affine<Self>>,
        _: Validation,
        _: Option<u32>,
    ) -> Result<Box<dyn MsmEngine<Self>>, MsmError> {
        Err(MsmError::Unsupported("BLS12-381 has no twisted Edwards form: use batch-affine or xyzz".into()))
    }
}

/// Build a context for `points` with the chosen backend.
pub fn build<C: EngineCurve>(
    points: &[Affine<C>],
    choice: BackendChoice,
    validation: Validation,
) -> Result<Box<dyn MsmEngine<C>>, MsmError> {
    build_with(points, choice, validation, None)
}

/// As [`build`], in fixed-base mode with `copies` shifted copies of the points
/// when `Some` (see [`crate::fixed_base`]). The context works on its own copy
/// of the points; [`build_owned`] avoids it.
pub fn build_with<C: EngineCurve>(
    points: &[Affine<C>],
    choice: BackendChoice,
    validation: Validation,
    copies: Option<u32>,
) -> Result<Box<dyn MsmEngine<C>>, MsmError> {
    build_owned(points.to_vec(), choice, validation, copies)
}

/// As [`build_with`], taking the points: the backend keeps them or converts
/// them while freeing them ([`Backend::prepare_owned`]), so a caller with no
/// further use for them (the CLI without `--check`) never holds two sets.
pub fn build_owned<C: EngineCurve>(
    points: Vec<Affine<C>>,
    choice: BackendChoice,
    validation: Validation,
    copies: Option<u32>,
) -> Result<Box<dyn MsmEngine<C>>, MsmError> {
    let choice = if choice == BackendChoice::Auto { C::auto_backend(points.len()) } else { choice };
    match choice {
        BackendChoice::Auto | BackendChoice::Xyzz => context(points, XyzzBackend, validation, copies),
        BackendChoice::BatchAffineGreedy => {
            context(points, BatchAffineBackend::new(GreedyScheduler::default()), validation, copies)
        }
        BackendChoice::BatchAffineDelayed => {
            context(points, BatchAffineBackend::new(DelayedScheduler::default()), validation, copies)
        }
        BackendChoice::TwistedEdwards => C::twisted_edwards(points, validation, copies),
    }
}
