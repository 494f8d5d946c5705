//! The GLV endomorphism in the pipeline ([`zkmsm_curve::glv`]): at init
//! (MSM_INIT) the points P_i are joined by phi(P_i) = (beta x_i, y_i), one
//! multiplication each, and the backend prepares all 2n; each MSM then
//! splits every scalar into two signed halves of at most 127 bits,
//! k_i = k0_i + k1_i lambda, and runs an MSM of 2n points with half-size
//! scalars: half the windows, as many bucket additions, half the bucket
//! aggregation and half the doublings. A negative half negates its digits
//! (the bucket receives -P), as signed digits already do.
//!
//! Off for fixed-base precomputation (whose shifted copies already share
//! bucket sets) and for backends outside the library (the RTL core). A
//! prepared file stores the images when its context ran GLV
//! ([`crate::prepared`], format version 2).

use crate::digits::signed_half_digit;
use crate::{Plan, ScalarLimbs};
use rayon::prelude::*;
use std::borrow::Cow;
use zkmsm_curve::{Affine, Glv, MsmCurve};

/// Whether to use GLV: `--glv on|off|auto`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GlvMode {
    /// Where it measured faster (the backend, the size and this CPU's
    /// arithmetic: [`crate::backend::choice::auto_glv`]).
    #[default]
    Auto,
    /// Always (an error where it cannot run: fixed-base mode).
    On,
    /// Never.
    Off,
}

impl GlvMode {
    /// Every mode, `Auto` first.
    pub const ALL: [GlvMode; 3] = [Self::Auto, Self::On, Self::Off];

    /// The name `--glv` takes.
    pub fn name(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::On => "on",
            Self::Off => "off",
        }
    }

    /// The mode named `s`, if any.
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.name() == s)
    }
}

/// The points followed by their images: [P_0 .. P_{n-1} | phi(P_0) .. phi(P_{n-1})].
pub fn with_images<C: MsmCurve>(glv: &Glv<C::Base>, points: Cow<'_, [Affine<C>]>) -> Vec<Affine<C>> {
    let n = points.len();
    let mut all = points.into_owned();
    all.reserve_exact(n);
    let images: Vec<Affine<C>> = all.par_iter().map(|p| glv.phi(p)).collect();
    all.extend(images);
    all
}

/// Every scalar's halves, [k0_0 .. k0_{n-1} | k1_0 .. k1_{n-1}], in the order of
/// [`with_images`]' points.
pub fn split_scalars<C: MsmCurve>(glv: &Glv<C::Base>, scalars: &[ScalarLimbs]) -> Vec<i128> {
    let n = scalars.len();
    let mut halves = vec![0i128; 2 * n];
    let (k0, k1) = halves.split_at_mut(n);
    k0.par_chunks_mut(4096).zip(k1.par_chunks_mut(4096)).zip(scalars.par_chunks(4096)).for_each(|((a, b), s)| {
        for ((a, b), s) in a.iter_mut().zip(b.iter_mut()).zip(s) {
            let h = glv.decompose(s);
            (*a, *b) = (h.k0, h.k1);
        }
    });
    halves
}

/// The digits of window `w` of every half, in the points' order.
pub fn window_digits(halves: &[i128], w: u32, plan: &Plan) -> Vec<i32> {
    halves.iter().map(|&h| signed_half_digit(h, w, plan)).collect()
}

/// Bits of the half-scalars' absolute values on curve C (the plan's scalar bits under GLV).
pub fn half_bits<C: MsmCurve>() -> Option<u32> {
    C::glv().map(|g| g.half_bits())
}
