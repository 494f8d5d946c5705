//! Init (the papers' MSM_INIT): one builder for every way of setting points
//! up for MSMs: validation, the backend (by type or by name), fixed-base
//! precomputation, the window, borrowed or owned points.
//!
//! ```
//! use zkmsm::{BackendChoice, MsmBuilder, Validation};
//! # let points = zkmsm::gen::random_points::<zkmsm::Bls12_381>(64, 1).points;
//! # let scalars = zkmsm::gen::random_scalars::<zkmsm::Bls12_381>(64, 2);
//! let ctx = MsmBuilder::new().backend(BackendChoice::Xyzz).precompute(Some(4)).build(&points[..])?;
//! let result = ctx.msm_report(&scalars)?.result;
//! # Ok::<(), zkmsm::MsmError>(())
//! ```

use crate::backend::choice::{auto_backend, auto_glv, Arithmetic, BackendChoice};
use crate::backend::{Backend, BatchAffineBackend, TwistedEdwardsBackend, XyzzBackend};
use crate::context::MsmContext;
use crate::engine::{prepared_context, MsmEngine};
use crate::error::MsmError;
use crate::input::validate::{validate_points, Validation};
use crate::input::InputCurve;
use crate::pipeline::digits::ScalarLimbs;
use crate::pipeline::fixed_base::Precompute;
use crate::pipeline::glv::{with_images, GlvMode};
use crate::pipeline::plan::Plan;
use crate::prepared::{Header, Persist, PreparedRefusal};
use crate::scheduler::{DelayedScheduler, GreedyScheduler};
use crate::store::{Mapping, Record};
use std::borrow::Cow;
use zkmsm_curve::{Affine, Bls12_377, Bls12_377G2, Bls12_381, Bls12_381G2, Bn254, Bn254G2, MsmCurve};
use zkmsm_field::PrimeField;

/// How to set points up. Points are given borrowed (`&[Affine]`, copied as
/// the backend needs) or owned (`Vec<Affine>`: the backend keeps them or
/// frees them as it converts, [`Backend::prepare_owned`], so init never
/// holds two full sets: peak memory).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MsmBuilder {
    validation: Validation,
    backend: BackendChoice,
    precompute: Option<u32>,
    window: Option<u32>,
    glv: GlvMode,
}

impl Default for MsmBuilder {
    fn default() -> Self {
        Self {
            validation: Validation::Full,
            backend: BackendChoice::Auto,
            precompute: None,
            window: None,
            glv: GlvMode::Auto,
        }
    }
}

impl MsmBuilder {
    /// Full validation, the `Auto` backend, no precomputation, the cost
    /// model's window.
    pub fn new() -> Self {
        Self::default()
    }

    /// How much of the points to check: [`Validation::Full`] (the default),
    /// the curve equation only, or nothing for points already validated.
    pub fn validation(mut self, validation: Validation) -> Self {
        self.validation = validation;
        self
    }

    /// The backend [`Self::build`] makes (not used by [`Self::build_context`],
    /// which is given one).
    pub fn backend(mut self, choice: BackendChoice) -> Self {
        self.backend = choice;
        self
    }

    /// Fixed-base mode with `copies` shifted copies of the points (memory:
    /// `copies` times the points), so that windows share bucket sets and
    /// need fewer aggregations and doublings; see [`crate::pipeline::fixed_base`].
    /// The window is then fixed for the context. `Some(0)` and `Some(1)`
    /// are plain mode, as `None` (the rule of the CLI, the C ABI and the
    /// Python package: one copy is the points themselves).
    pub fn precompute(mut self, copies: Option<u32>) -> Self {
        self.precompute = copies.filter(|&m| m > 1);
        self
    }

    /// Window size c instead of the cost model's choice.
    pub fn window(mut self, c: Option<u32>) -> Self {
        self.window = c;
        self
    }

    /// The GLV endomorphism ([`crate::pipeline::glv`]): `Auto` (the default) where it
    /// measured faster, `On` always (refused with fixed-base
    /// precomputation), `Off` never.
    pub fn glv(mut self, mode: GlvMode) -> Self {
        self.glv = mode;
        self
    }

    /// A context with the backend chosen by name, behind a trait object.
    pub fn build<'a, C: EngineCurve>(
        &self,
        points: impl Into<Cow<'a, [Affine<C>]>>,
    ) -> Result<Box<dyn MsmEngine<C>>, MsmError> {
        let points = points.into();
        let choice = match self.backend {
            BackendChoice::Auto => C::auto_backend(points.len()),
            b => b,
        };
        choice.build(self, points)
    }

    /// A context with the given backend (no trait object).
    pub fn build_context<'a, C: InputCurve, B: Backend<C>>(
        &self,
        backend: B,
        points: impl Into<Cow<'a, [Affine<C>]>>,
    ) -> Result<MsmContext<C, B>, MsmError> {
        let points = points.into();
        validate_points(&points, self.validation)?;
        let len = points.len();
        let bits = C::Scalar::NUM_BITS;
        let precompute = self.precompute.map(|copies| match self.window {
            Some(c) => Precompute::new(Plan::with_window(c, bits), copies),
            None => Precompute::for_size(len, copies, bits),
        });
        let glv = match self.glv {
            GlvMode::Off => None,
            GlvMode::On if precompute.is_some() => {
                return Err(MsmError::Unsupported(
                    "GLV and fixed-base precomputation do not combine: use one or the other".into(),
                ))
            }
            GlvMode::On => Some(C::glv().ok_or_else(|| MsmError::Unsupported(format!("{} has no GLV", C::NAME)))?),
            GlvMode::Auto => C::glv().filter(|_| precompute.is_none() && auto_glv(C::LABEL, backend.kind(), len)),
        };
        let prepared = match (&precompute, glv, points) {
            (None, Some(glv), points) => backend.prepare_owned(with_images(glv, points)),
            (Some(pre), _, points) => backend.prepare_owned(pre.shifted_copies_owned(points.into_owned())),
            (None, None, Cow::Borrowed(points)) => backend.prepare(points),
            (None, None, Cow::Owned(points)) => backend.prepare_owned(points),
        };
        let window = precompute.map(|pre| pre.plan.c).or(self.window);
        Ok(MsmContext { backend, prepared, len, window, precompute, choice: None, glv: glv.is_some() })
    }
}

impl<C: InputCurve> MsmContext<C, XyzzBackend> {
    /// Validate and prepare `points` for the default backend (for other
    /// backends, fixed-base mode and the rest: [`MsmBuilder`]).
    pub fn new(points: &[Affine<C>]) -> Result<Self, MsmError> {
        MsmBuilder::new().build_context(XyzzBackend, points)
    }
}

/// One-shot MSM for callers that do not keep a context.
pub fn msm<C: InputCurve>(points: &[Affine<C>], scalars: &[C::Scalar]) -> Result<Affine<C>, MsmError> {
    if points.len() != scalars.len() {
        return Err(MsmError::LengthMismatch { points: points.len(), scalars: scalars.len() });
    }
    MsmContext::new(points)?.msm(scalars)
}

/// One-shot MSM on canonical integer scalars.
pub fn msm_bigint<C: InputCurve>(points: &[Affine<C>], scalars: &[ScalarLimbs]) -> Result<Affine<C>, MsmError> {
    if points.len() != scalars.len() {
        return Err(MsmError::LengthMismatch { points: points.len(), scalars: scalars.len() });
    }
    MsmContext::new(points)?.msm_bigint(scalars)
}

/// Curves know which backends they support.
pub trait EngineCurve: InputCurve {
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
    ) -> Result<Box<dyn MsmEngine<Self>>, PreparedRefusal>;
}

/// A context behind a trait object.
fn boxed<C: InputCurve, B: Persist<C> + 'static>(
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
fn open_common<C: InputCurve>(
    choice: BackendChoice,
    header: &Header,
    map: Mapping,
    offset: usize,
) -> Result<Box<dyn MsmEngine<C>>, PreparedRefusal>
where
    Affine<C>: Record,
{
    match choice {
        BackendChoice::Auto | BackendChoice::Xyzz => prepared_context(choice, XyzzBackend, header, map, offset),
        BackendChoice::BatchAffineGreedy => {
            prepared_context(choice, BatchAffineBackend::new(GreedyScheduler::default()), header, map, offset)
        }
        BackendChoice::BatchAffineDelayed => {
            prepared_context(choice, BatchAffineBackend::new(DelayedScheduler::default()), header, map, offset)
        }
        BackendChoice::TwistedEdwards => Err(PreparedRefusal::NoTwistedEdwards { curve: C::LABEL }),
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
    ) -> Result<Box<dyn MsmEngine<Self>>, PreparedRefusal> {
        match choice {
            BackendChoice::TwistedEdwards => prepared_context(choice, TwistedEdwardsBackend, header, map, offset),
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
    ) -> Result<Box<dyn MsmEngine<Self>>, PreparedRefusal> {
        open_common(choice, header, map, offset)
    }
}

/// BN254: the IFMA engine takes its 254-bit field in five limbs, and `auto`
/// is then the lane rule of the BLS12 curves (measured on BN254 too:
/// docs/BENCHMARKS.md "BN254"); where no lane engine takes it, batch-affine
/// runs its scalar arithmetic and `auto` has BN254's own crossover.
impl EngineCurve for Bn254 {
    fn auto_backend(n: usize) -> BackendChoice {
        let arith = Arithmetic::detect();
        if crate::backend::lanes_fit::<Self>(arith) {
            auto_backend(arith, false, n)
        } else {
            crate::backend::choice::auto_backend_bn254(n)
        }
    }
    fn twisted_edwards(_: &MsmBuilder, _: Cow<'_, [Affine<Self>]>) -> Result<Box<dyn MsmEngine<Self>>, MsmError> {
        Err(MsmError::Unsupported(
            "BN254 has no twisted Edwards form (its group has prime order): use batch-affine or xyzz".into(),
        ))
    }
    fn open_prepared(
        choice: BackendChoice,
        header: &Header,
        map: Mapping,
        offset: usize,
    ) -> Result<Box<dyn MsmEngine<Self>>, PreparedRefusal> {
        open_common(choice, header, map, offset)
    }
}

/// Declares curves to the backends, one line for a curve of any crate:
/// `zkmsm::lane_curves!(prime: MyCurve)` for a curve over a prime field
/// (the lane engines take it where its field fits them), `quadratic: ...`
/// for one over an [`Fp2`](zkmsm_field::Fp2) (the FMA lanes over the
/// extension; IFMA machines run those too), `extension: ...` for one over
/// another extension field (portable arithmetic).
#[macro_export]
macro_rules! lane_curves {
    (prime: $($c:ty),* $(; quadratic: $($q:ty),*)? $(; extension: $($e:ty),*)?) => {
        $(impl $crate::backend::lanes::lane_curve::LaneCurve for $c {
            #[cfg(target_arch = "x86_64")]
            type Ifma = $crate::backend::lanes::ifma::IfmaPoints<$c>;
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            type Fma = $crate::backend::FmaPoints<$c>;
        })*
        $($(impl $crate::backend::lanes::lane_curve::LaneCurve for $q {
            #[cfg(target_arch = "x86_64")]
            type Ifma = $crate::backend::lanes::lane_curve::NoLanes;
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            type Fma = $crate::backend::FmaFp2Points<$q>;
        })*)?
        $($(impl $crate::backend::lanes::lane_curve::LaneCurve for $e {
            #[cfg(target_arch = "x86_64")]
            type Ifma = $crate::backend::lanes::lane_curve::NoLanes;
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            type Fma = $crate::backend::lanes::lane_curve::NoLanes;
        })*)?
    };
}

// The library's curves.
lane_curves!(
    prime: zkmsm_curve::Bls12_377, zkmsm_curve::Bls12_381, zkmsm_curve::Bn254;
    quadratic: zkmsm_curve::Bls12_377G2, zkmsm_curve::Bls12_381G2, zkmsm_curve::Bn254G2
);

/// G2 (coordinates in Fq2): batch-affine on the FMA lanes over Fq2 where
/// they run (portable arithmetic elsewhere), `auto` with G2's own
/// crossovers; no twisted Edwards form.
macro_rules! g2_engine_curve {
    ($($c:ty),*) => {$(
        impl EngineCurve for $c {
            fn auto_backend(n: usize) -> BackendChoice {
                crate::backend::choice::auto_backend_g2(crate::backend::lanes::fma_enabled(), n)
            }
            fn twisted_edwards(
                _: &MsmBuilder,
                _: Cow<'_, [Affine<Self>]>,
            ) -> Result<Box<dyn MsmEngine<Self>>, MsmError> {
                Err(MsmError::Unsupported(format!(
                    "{} has no twisted Edwards form: use batch-affine or xyzz",
                    <$c as MsmCurve>::LABEL
                )))
            }
            fn open_prepared(
                choice: BackendChoice,
                header: &Header,
                map: Mapping,
                offset: usize,
            ) -> Result<Box<dyn MsmEngine<Self>>, PreparedRefusal> {
                open_common(choice, header, map, offset)
            }
        }
    )*};
}

g2_engine_curve!(Bls12_377G2, Bls12_381G2, Bn254G2);

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
