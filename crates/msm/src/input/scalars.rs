//! Scalars as the MSM takes them: canonical integers below r, never reduced.

use crate::{MsmError, ScalarLimbs};
use rayon::prelude::*;
use zkmsm_curve::MsmCurve;

/// Scalars as canonical limbs, rejecting any >= r (naming the first).
pub fn check_scalars<C: MsmCurve>(scalars: &[ScalarLimbs]) -> Result<(), MsmError> {
    let order = C::ORDER;
    let reduced = |s: &ScalarLimbs| {
        for i in (0..4).rev() {
            let o = order.get(i).copied().unwrap_or(0);
            if s[i] != o {
                return s[i] < o;
            }
        }
        false // equal to r
    };
    match scalars.par_iter().position_first(|s| !reduced(s)) {
        None => Ok(()),
        Some(index) => Err(MsmError::ScalarNotReduced { index }),
    }
}
