//! Choosing a backend at run time: a context behind a trait object, so a CLI
//! or a prover can pick the backend by name without generic plumbing
//! ([`MsmBuilder::backend`], [`MsmBuilder::build`]).

use crate::backend::choice::{auto_backend, Arithmetic};
use crate::backend::{BatchAffineBackend, TwistedEdwardsBackend, XyzzBackend};
use crate::context::{MsmContext, MsmOutput};
use crate::prepared::{self, Header, Persist};
use crate::scheduler::{DelayedScheduler, GreedyScheduler};
use crate::store::{Mapping, Record};
use crate::{MsmBuilder, MsmError, Plan, ScalarLimbs};
use std::borrow::Cow;
use std::path::Path;
use zkmsm_curve::{Affine, Bls12_377, Bls12_381, MsmCurve};

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

/// An MSM context whatever its backend.
pub trait MsmEngine<C: MsmCurve>: Send + Sync {
    /// The backend's name (as `--backend` takes it).
    fn backend_name(&self) -> &'static str;
    /// Number of points.
    fn len(&self) -> usize;
    /// True when there are no points.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Force window size c (`None`: the cost model's choice; ignored in fixed-base mode).
    fn set_window(&mut self, c: Option<u32>);
    /// The plan the next MSM uses.
    fn plan(&self) -> Plan;
    /// The MSM of canonical scalars (each below r), with its plan, phase timings and scheduler
    /// statistics.
    fn msm_report(&self, scalars: &[ScalarLimbs]) -> Result<MsmOutput<C>, MsmError>;
    /// Write the prepared points to a prepared file ([`crate::prepared`]).
    fn write_prepared(&self, path: &Path) -> Result<(), MsmError>;
    /// True when MSMs run with the GLV endomorphism ([`crate::glv`]).
    fn glv(&self) -> bool {
        false
    }
}

impl<C: MsmCurve, B: Persist<C> + 'static> MsmEngine<C> for MsmContext<C, B>
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
    fn glv(&self) -> bool {
        MsmContext::glv(self)
    }
    fn write_prepared(&self, path: &Path) -> Result<(), MsmError> {
        let choice = self.choice.expect("contexts behind MsmEngine are built by name");
        MsmContext::write_prepared(self, path, choice)
    }
}

/// Curves know which backends they support.
pub trait EngineCurve: MsmCurve<Base: Record> {
    /// What `Auto` means for n points.
    fn auto_backend(n: usize) -> BackendChoice;
    /// A twisted Edwards context for these points, or [`MsmError::Unsupported`] on curves without
    /// that form.
    fn twisted_edwards(
        builder: &MsmBuilder,
        points: Cow<'_, [Affine<Self>]>,
    ) -> Result<Box<dyn MsmEngine<Self>>, MsmError>;
    /// The context of a checked prepared file whose header names `choice`.
    fn open_prepared(
        choice: BackendChoice,
        header: &Header,
        map: Mapping,
        offset: usize,
    ) -> Result<Box<dyn MsmEngine<Self>>, String>;
}

/// A context behind a trait object.
fn boxed<C: MsmCurve, B: Persist<C> + 'static>(
    builder: &MsmBuilder,
    choice: BackendChoice,
    backend: B,
    points: Cow<'_, [Affine<C>]>,
) -> Result<Box<dyn MsmEngine<C>>, MsmError>
where
    B::Prepared: 'static,
{
    let mut ctx = builder.build_context(backend, points)?;
    ctx.choice = Some(choice);
    Ok(Box::new(ctx))
}

/// The prepared-file context of any backend but twisted Edwards.
fn open_common<C: MsmCurve>(
    choice: BackendChoice,
    header: &Header,
    map: Mapping,
    offset: usize,
) -> Result<Box<dyn MsmEngine<C>>, String>
where
    Affine<C>: Record,
{
    match choice {
        BackendChoice::Auto | BackendChoice::Xyzz => prepared::context(choice, XyzzBackend, header, map, offset),
        BackendChoice::BatchAffineGreedy => {
            prepared::context(choice, BatchAffineBackend::new(GreedyScheduler::default()), header, map, offset)
        }
        BackendChoice::BatchAffineDelayed => {
            prepared::context(choice, BatchAffineBackend::new(DelayedScheduler::default()), header, map, offset)
        }
        BackendChoice::TwistedEdwards => Err(format!("{} has no twisted Edwards form", C::NAME)),
    }
}

impl EngineCurve for Bls12_377 {
    fn auto_backend(n: usize) -> BackendChoice {
        auto_backend(Arithmetic::detect(), true, n)
    }
    fn twisted_edwards(
        builder: &MsmBuilder,
        points: Cow<'_, [Affine<Self>]>,
    ) -> Result<Box<dyn MsmEngine<Self>>, MsmError> {
        boxed(builder, BackendChoice::TwistedEdwards, TwistedEdwardsBackend, points)
    }
    fn open_prepared(
        choice: BackendChoice,
        header: &Header,
        map: Mapping,
        offset: usize,
    ) -> Result<Box<dyn MsmEngine<Self>>, String> {
        match choice {
            BackendChoice::TwistedEdwards => prepared::context(choice, TwistedEdwardsBackend, header, map, offset),
            _ => open_common(choice, header, map, offset),
        }
    }
}

impl EngineCurve for Bls12_381 {
    fn auto_backend(n: usize) -> BackendChoice {
        auto_backend(Arithmetic::detect(), false, n)
    }
    fn twisted_edwards(_: &MsmBuilder, _: Cow<'_, [Affine<Self>]>) -> Result<Box<dyn MsmEngine<Self>>, MsmError> {
        Err(MsmError::Unsupported("BLS12-381 has no twisted Edwards form: use batch-affine or xyzz".into()))
    }
    fn open_prepared(
        choice: BackendChoice,
        header: &Header,
        map: Mapping,
        offset: usize,
    ) -> Result<Box<dyn MsmEngine<Self>>, String> {
        open_common(choice, header, map, offset)
    }
}

impl BackendChoice {
    /// A context of this backend (`Auto` resolved by the caller).
    pub(crate) fn build<C: EngineCurve>(
        self,
        builder: &MsmBuilder,
        points: Cow<'_, [Affine<C>]>,
    ) -> Result<Box<dyn MsmEngine<C>>, MsmError> {
        match self {
            BackendChoice::Auto | BackendChoice::Xyzz => boxed(builder, BackendChoice::Xyzz, XyzzBackend, points),
            BackendChoice::BatchAffineGreedy => {
                boxed(builder, self, BatchAffineBackend::new(GreedyScheduler::default()), points)
            }
            BackendChoice::BatchAffineDelayed => {
                boxed(builder, self, BatchAffineBackend::new(DelayedScheduler::default()), points)
            }
            BackendChoice::TwistedEdwards => C::twisted_edwards(builder, points),
        }
    }
}
