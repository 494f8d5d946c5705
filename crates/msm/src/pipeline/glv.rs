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
//! ([`crate::prepared`], from format version 2).

#[cfg(test)]
use crate::pipeline::digits::signed_half_digit;
use crate::pipeline::digits::ScalarLimbs;
use crate::pipeline::plan::Plan;
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
/// As [`crate::pipeline::digits::signed_half_digit`] for every half, with the window's shifts and
/// masks set up once: one 64-bit slice of |h| from bit c w - 1 holds the
/// carry in, the window's c bits and the carry out.
pub fn window_digits(halves: &[i128], w: u32, plan: &Plan) -> Vec<i32> {
    let c = plan.c;
    let lo = c * w;
    if w >= plan.windows || lo > 128 {
        return vec![0; halves.len()];
    }
    let mask = (1u64 << c) - 1;
    // carry out only below the top window (whose top bit the plan keeps clear)
    let out_mask = if w + 1 < plan.windows { 1u64 } else { 0 };
    let digit = move |t: u64, h: i128| {
        // t: bit 0 the carry in, bits 1..=c the window, bit c the carry out
        let d = (((t >> 1) & mask) + (t & 1)) as i32 - ((((t >> c) & out_mask) as i32) << c);
        let s = (h >> 127) as i32; // 0 or -1
        (d ^ s) - s
    };
    if w == 0 {
        halves.iter().map(|&h| digit((h.unsigned_abs() as u64) << 1, h)).collect()
    } else {
        let sh = lo - 1;
        halves.iter().map(|&h| digit((h.unsigned_abs() >> sh) as u64, h)).collect()
    }
}

/// Bits of the half-scalars' absolute values on curve C (the plan's scalar bits under GLV).
pub fn half_bits<C: MsmCurve>() -> Option<u32> {
    C::glv().map(|g| g.half_bits())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The window-at-once digits equal the per-half reference at every
    /// window of several plans, on edge halves: 0, +-1, +-(2^127 - 1),
    /// i128::MIN + 1, all-ones windows, single bits at window edges.
    #[test]
    fn window_digits_match_the_per_half_digit() {
        let mut halves: Vec<i128> = vec![0, 1, -1, i128::MAX, -i128::MAX, i128::MIN + 1, (1 << 126) - 1, -(1 << 126)];
        let mut s = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..200 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let hi = (s as i128) << 63;
            halves.push(hi ^ (s.rotate_left(17) as i128));
            halves.push(-(hi >> (s % 64)));
        }
        for b in 0..128 {
            halves.push(1i128.wrapping_shl(b).wrapping_sub(1) & i128::MAX);
            halves.push(-(1i128 << b.min(126)));
        }
        for bits in [127u32, 128] {
            for c in 1..=crate::pipeline::plan::MAX_C {
                let plan = Plan::with_window(c, bits);
                for w in 0..=plan.windows {
                    let got = window_digits(&halves, w, &plan);
                    for (h, g) in halves.iter().zip(got) {
                        let want = if w < plan.windows { signed_half_digit(*h, w, &plan) } else { 0 };
                        assert_eq!(g, want, "half {h:#x} c {c} window {w}");
                    }
                }
            }
        }
    }
}
