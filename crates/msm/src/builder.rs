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

use crate::backend::choice::auto_glv;
use crate::backend::Backend;
use crate::context::MsmContext;
use crate::engine::{BackendChoice, EngineCurve, MsmEngine};
use crate::fixed_base::Precompute;
use crate::glv::{with_images, GlvMode};
use crate::load::{validate_points, Validation};
use crate::{MsmError, Plan};
use std::borrow::Cow;
use zkmsm_curve::{Affine, MsmCurve};
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
    /// need fewer aggregations and doublings; see [`crate::fixed_base`].
    /// The window is then fixed for the context.
    pub fn precompute(mut self, copies: Option<u32>) -> Self {
        self.precompute = copies;
        self
    }

    /// Window size c instead of the cost model's choice.
    pub fn window(mut self, c: Option<u32>) -> Self {
        self.window = c;
        self
    }

    /// The GLV endomorphism ([`crate::glv`]): `Auto` (the default) where it
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
    pub fn build_context<'a, C: MsmCurve, B: Backend<C>>(
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
            GlvMode::Auto => C::glv().filter(|_| precompute.is_none() && auto_glv(C::NAME, backend.name(), len)),
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
