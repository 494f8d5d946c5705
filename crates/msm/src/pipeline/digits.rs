//! Signed-digit slicing. A scalar s is cut into c-bit windows b_w and recoded
//! to digits d_w in [-2^(c-1), 2^(c-1)]: a window whose top bit is set
//! borrows 2^c from the next window (d_w = b_w - 2^c, carry 1 upward). Bucket
//! |d| - 1 then receives sign(d) * P, halving the buckets to 2^(c-1).
//!
//! The carry into window w is just bit (c*w - 1) of s (Booth recoding), so
//! d_w = b_w + bit(cw - 1) - 2^c * bit(c(w+1) - 1) depends on no other window:
//! every window's digits are computed independently, like CycloneMSM's
//! precomputed per-chunk carries, and can be streamed. The sum telescopes back
//! to s as long as the top window's top bit is clear, which the plan
//! guarantees (c * windows >= scalar bits + 1).

use crate::pipeline::plan::Plan;
use rayon::prelude::*;

/// A scalar as canonical little-endian limbs (every scalar field zkmsm
/// ships fits 4): what digit slicing reads.
pub type ScalarLimbs = [u64; 4];

#[inline(always)]
fn bit(s: &ScalarLimbs, i: u32) -> u64 {
    if i >= 256 {
        0
    } else {
        (s[(i / 64) as usize] >> (i % 64)) & 1
    }
}

/// Bits [lo, lo + c) of s (c <= 32).
#[inline(always)]
fn bits(s: &ScalarLimbs, lo: u32, c: u32) -> u64 {
    if lo >= 256 {
        return 0;
    }
    let limb = (lo / 64) as usize;
    let off = lo % 64;
    let mut v = s[limb] >> off;
    if off + c > 64 && limb + 1 < 4 {
        v |= s[limb + 1] << (64 - off);
    }
    v & ((1u64 << c) - 1)
}

/// Signed digit of window `w` (the top window takes the carry without wrapping).
#[inline(always)]
pub fn signed_digit(s: &ScalarLimbs, w: u32, plan: &Plan) -> i32 {
    let c = plan.c;
    let carry_in = if w == 0 { 0 } else { bit(s, c * w - 1) };
    let carry_out = if w + 1 < plan.windows { bit(s, c * (w + 1) - 1) } else { 0 };
    (bits(s, c * w, c) + carry_in) as i32 - ((carry_out as i32) << c)
}

/// Signed digit of window `w` of a signed half-scalar (GLV, [`crate::pipeline::glv`]):
/// the digit of |h|, negated when h < 0 (the bucket then receives -P).
#[inline(always)]
pub fn signed_half_digit(h: i128, w: u32, plan: &Plan) -> i32 {
    let m = h.unsigned_abs();
    let (c, lo) = (plan.c, plan.c * w);
    let bit = |i: u32| if i >= 128 { 0 } else { (m >> i) as u64 & 1 };
    let bits = if lo >= 128 { 0 } else { (m >> lo) as u64 & ((1u64 << c) - 1) };
    let carry_in = if w == 0 { 0 } else { bit(lo - 1) };
    let carry_out = if w + 1 < plan.windows { bit(lo + c - 1) } else { 0 };
    let d = (bits + carry_in) as i32 - ((carry_out as i32) << c);
    if h < 0 {
        -d
    } else {
        d
    }
}

/// The digits of window `w` for every scalar: `out[i]` is the digit of scalar
/// i. What the MSM computes inside each window's task, so that only the
/// windows being accumulated have their digits in memory (n x 4 bytes each).
pub fn window_digits(scalars: &[ScalarLimbs], w: u32, plan: &Plan) -> Vec<i32> {
    let mut out = Vec::with_capacity(scalars.len());
    extend_window_digits(&mut out, scalars, w, plan);
    out
}

/// Append the digits of window `w` (zeros for a window past the plan's last,
/// as fixed-base bucket sets need) to `out`.
pub fn extend_window_digits(out: &mut Vec<i32>, scalars: &[ScalarLimbs], w: u32, plan: &Plan) {
    if w >= plan.windows {
        out.resize(out.len() + scalars.len(), 0);
    } else {
        out.extend(scalars.iter().map(|s| signed_digit(s, w, plan)));
    }
}

/// The digits of every window at once, window-major: `windows[w][i]` is the
/// digit of scalar i in window w. W x n x 4 bytes: the MSM itself no longer
/// builds this (it makes each window's digits in that window's task, see
/// [`window_digits`]); kept for inspection and as the reference in tests.
#[derive(Debug, Clone)]
pub struct SignedDigits {
    /// The plan the digits were cut for.
    pub plan: Plan,
    /// One vector per window: the signed digit of each scalar, in `-2^(c-1)..=2^(c-1)`.
    pub windows: Vec<Vec<i32>>,
}

impl SignedDigits {
    /// Every window's digits of `scalars` under `plan` (windows in parallel).
    pub fn compute(scalars: &[ScalarLimbs], plan: &Plan) -> Self {
        let windows = (0..plan.windows).into_par_iter().map(|w| window_digits(scalars, w, plan)).collect();
        Self { plan: *plan, windows }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Recombine sum_w d_w 2^(cw) as a signed 320-bit value (5 limbs, two's complement).
    fn recombine(s: &ScalarLimbs, plan: &Plan) -> [u64; 5] {
        let mut acc = [0u64; 5];
        for w in 0..plan.windows {
            let d = signed_digit(s, w, plan);
            assert!(d.unsigned_abs() as usize <= plan.buckets, "digit {d} out of range");
            // add d << (c*w)
            let shift = plan.c * w;
            let mut term = [0u64; 5];
            let mag = d.unsigned_abs() as u128;
            let (limb, off) = ((shift / 64) as usize, shift % 64);
            let wide = mag << off;
            if limb < 5 {
                term[limb] = wide as u64;
            }
            if limb + 1 < 5 {
                term[limb + 1] = (wide >> 64) as u64;
            }
            if d < 0 {
                // two's complement negate
                let mut carry = 1u64;
                for t in term.iter_mut() {
                    let (v, c) = (!*t).overflowing_add(carry);
                    *t = v;
                    carry = c as u64;
                }
            }
            let mut carry = 0u64;
            for (a, t) in acc.iter_mut().zip(term) {
                let (v1, c1) = a.overflowing_add(t);
                let (v2, c2) = v1.overflowing_add(carry);
                *a = v2;
                carry = (c1 || c2) as u64;
            }
        }
        acc
    }

    proptest! {
        #[test]
        fn digits_recombine_to_scalar(l0: u64, l1: u64, l2: u64, l3 in 0u64..(1 << 61), c in 1u32..=20) {
            let s = [l0, l1, l2, l3];
            let plan = Plan::with_window(c, 253);
            prop_assert_eq!(recombine(&s, &plan), [l0, l1, l2, l3, 0]);
        }
    }

    #[test]
    fn edge_scalars_recombine() {
        let r_minus_1 = [0x0a11800000000000, 0x59aa76fed0000001, 0x60b44d1e5c37b001, 0x12ab655e9a2ca556];
        for s in [[0u64; 4], [1, 0, 0, 0], r_minus_1, [u64::MAX, u64::MAX, u64::MAX, (1 << 61) - 1]] {
            for c in 1..=20 {
                let plan = Plan::with_window(c, 253);
                assert_eq!(recombine(&s, &plan)[..4], s);
            }
        }
    }
}
